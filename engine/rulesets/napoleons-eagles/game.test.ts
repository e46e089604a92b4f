/**
 * The registered game's engine contract beyond the sequence of play: the text picture, the notation in words, dice
 * faces that agree with the outcome drawn, the evaluation, `quiet`, and the scripted player's bids (sealed: they
 * never read the other side's bid).
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { scenarioOf } from '../../../test/ne-fixtures.ts';
import { RULESETS } from '../index.ts';
import { napoleonsEagles as game } from './index.ts';
import { parseRating } from './tables.ts';
import { internals, type SeqState } from './turn.ts';

/** Every state of a seeded game, the scripted player on both sides (one move in five random), with what was done. */
function states(id: string, seed: string, cap = 4000): { s: SeqState; a: string }[] {
  const u = seedrandom.alea(seed);
  let s = game.initialState(scenarioOf(id));
  const out: { s: SeqState; a: string }[] = [];
  for (let i = 0; i < cap && game.toMove(s).kind !== 'terminal'; i++) {
    let a: string;
    if (game.toMove(s).kind === 'chance') {
      const os = game.chanceOutcomes(s);
      let r = u();
      a = os[os.length - 1]!.action;
      for (const o of os)
        if ((r -= o.p) <= 0) {
          a = o.action;
          break;
        }
    } else {
      const legal = game.legalActions(s);
      const sc = game.policyScores!(s, legal);
      a = u() < 0.2 ? legal[Math.floor(u() * legal.length)]! : legal[sc.indexOf(Math.max(...sc))]!;
    }
    out.push({ s, a });
    s = game.apply(s, a);
  }
  out.push({ s, a: '' });
  return out;
}

const played = states('quick-test', 'game-test/1');

describe("Napoleon's Eagles: the registered game", () => {
  it('is registered under its id with Kleinau as its default scenario', () => {
    expect(RULESETS['napoleons-eagles']).toBe(game);
    expect(game.defaultScenario).toBe('the-mill-at-kleinau');
    expect(game.players).toEqual(['first', 'second']);
  });

  it('plays a whole game to a result with the scripted player', () => {
    const last = played[played.length - 1]!.s;
    expect(game.toMove(last).kind).toBe('terminal');
    expect(game.resultText(last)).toMatch(/win|draw/);
    expect(game.returns(last).reduce((x, y) => x + y, 0)).toBe(0);
  });

  it('draws the table: one row an inch, a ruler, every unit on it by its glyph, and a legend', () => {
    const s = played[0]!.s;
    const text = game.render(s);
    const sc = s.sc;
    const rows = text.split('\n').filter((l) => /^ {0,2}\d{1,3} {2}/.test(l));
    expect(rows.length).toBe(sc.table.height);
    for (const r of rows) expect(r.replace(/^ {0,2}\d{1,3} {2}/, '').length).toBe(sc.table.width);
    const legend = /units: (.*) \(upper/.exec(text)![1]!.split(' ');
    expect(legend.map((x) => x.split('=')[1]).sort()).toEqual(s.units.map((u) => u.id).sort());
    for (const g of legend.map((x) => x.split('=')[0]!)) expect(rows.some((r) => r.slice(5).includes(g))).toBe(true);
    // the hedge of quick-test, from x 14 to 22 at y 17
    expect(rows.find((r) => /^\s*17 {2}/.test(r))!.slice(5 + 15, 5 + 21)).toBe('""""""');
    for (const u of s.units) expect(text).toContain(`${u.id} `);
  });

  it('says every offered action in words, naming the unit and the rule', () => {
    let worded = 0;
    for (const { s } of played.slice(0, 400)) {
      if (game.toMove(s).kind !== 'player') continue;
      for (const a of game.legalActions(s)) {
        const d = game.describeAction(s, a);
        expect(d.length).toBeGreaterThan(0);
        if (d !== a) worded++;
      }
      expect(game.describeDecision!(s).length).toBeGreaterThan(0);
    }
    expect(worded).toBeGreaterThan(100);
    const act = played.find(
      ({ s }) => s.stack.at(-1)?.t === 'act' && game.legalActions(s).some((a) => a.startsWith('move ')),
    )!;
    const mv = game.legalActions(act.s).find((a) => a.startsWith('move '))!;
    expect(game.describeAction(act.s, mv)).toMatch(/moves .*\[p\.6\]/);
  });

  it('shows dice faces that read as the outcome drawn', () => {
    const u = seedrandom.alea('faces');
    const seen = new Set<string>();
    for (const { s, a } of played) {
      const f = s.stack.at(-1);
      if (!f || game.toMove(s).kind !== 'chance') continue;
      const faces = game.diceFaces!(s, a, u);
      if (!faces) continue;
      seen.add(f.t);
      for (const x of faces) expect(Number.isInteger(x) && x >= 1 && x <= 20).toBe(true);
      if (f.t === 'tiebreak') expect(faces[0]! > faces[1]!).toBe(a === 'tie-break first');
      if (f.t === 'leaderLoss') expect(faces[0]! <= f.upTo).toBe(a === 'leader lost');
      if (f.t === 'counterCheck')
        expect(faces[0]! <= parseRating(internals.specOf(s, f.cavalry).rating).morale).toBe(a === 'counter charges');
    }
    expect(seen.has('morale') || seen.has('reformRoll') || seen.has('tiebreak')).toBe(true);
    // a tie-break, made
    const t = states('quick-test', 'game-test/2', 40).find(({ s }) => s.stack.at(-1)?.t === 'tiebreak');
    if (t) {
      const f1 = game.diceFaces!(t.s, 'tie-break first', u)!;
      const f2 = game.diceFaces!(t.s, 'tie-break second', u)!;
      expect(f1[0]! > f1[1]! && f2[0]! < f2[1]!).toBe(true);
    }
  });

  it('evaluates in [−1, 1], zero-sum between the sides, and is quiet only between activations', () => {
    for (const { s } of played) {
      const a = game.evaluate(s, 0);
      const b = game.evaluate(s, 1);
      expect(Math.abs(a)).toBeLessThanOrEqual(1);
      expect(a + b).toBeCloseTo(0, 9);
      if (game.quiet!(s)) expect(['pick', 'bid']).toContain(s.stack.at(-1)?.t);
    }
    expect(played.some(({ s }) => game.quiet!(s))).toBe(true);
    expect(played.some(({ s }) => !game.quiet!(s))).toBe(true);
  });

  it("bids the turn points spread over the periods left [p.5], never reading the other side's sealed bid", () => {
    const s0 = played[0]!.s;
    expect(s0.stack.at(-1)?.t).toBe('bid');
    const legal = game.legalActions(s0);
    const sc = game.policyScores!(s0, legal);
    const best = legal[sc.indexOf(Math.max(...sc))]!;
    // 20 points over 6 periods
    expect(['bid 3', 'bid 4']).toContain(best);
    // the second side bids the same whatever the first bid
    const after = ['bid 0', 'bid 7', 'bid 20'].map((b) => game.apply(s0, b));
    const scores = after.map((t) => game.policyScores!(t, game.legalActions(t)));
    expect(scores[1]).toEqual(scores[0]);
    expect(scores[2]).toEqual(scores[0]);
    // it never bids more than it has
    for (const { s } of played)
      if (s.stack.at(-1)?.t === 'bid') {
        const l = game.legalActions(s);
        const v = game.policyScores!(s, l);
        expect(l.length).toBeGreaterThan(0);
        expect(v.every(Number.isFinite)).toBe(true);
      }
  });
});
