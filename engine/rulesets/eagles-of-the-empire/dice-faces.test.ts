/** Real dice (rollAsk / outcomeForFaces) at Eagles of the Empire's chance nodes, reached in play or pushed onto it. */
import { describe, expect, it } from 'vitest';
import { loadScenario, scenarioIds } from '../../../arena/catalog.ts';
import { chanceNodes, checkRollAt } from '../../../test/real-dice-checks.ts';
import { eaglesOfTheEmpire as game } from './index.ts';
import { push, top } from './state.ts';
import type { EState, Frame } from './types.ts';

const kindOf = (s: EState) => {
  const f = top(s);
  if (!f) return '?';
  return f.t === 'charge' || f.t === 'gc' || f.t === 'assault' ? `${f.t}/${f.stage}` : f.t;
};

const nodes = new Map<string, EState[]>();
for (const id of scenarioIds(game.id)) {
  const { scenario } = loadScenario(game.id, id);
  for (const [k, list] of chanceNodes(game, () => game.initialState(scenario), kindOf, { seeds: 12, per: 4 }))
    nodes.set(k, [...(nodes.get(k) ?? []), ...list].slice(0, 8));
}
const first = (k: string) => nodes.get(k)![0]!;

describe('Eagles of the Empire: real dice at chance nodes reached in play', () => {
  it('reaches the rolls random play comes to', () => {
    const kinds = ['weather', 'firstRoll', 'actDie', 'courier', 'roll', 'leaderCheck', 'rallyRoll'];
    for (const k of [...kinds, 'charge/squareRoll', 'gc/launch', 'assault/atkStand', 'assault/defStand'])
      expect([...nodes.keys()], k).toContain(k);
  });

  it('at each: every outcome shown as faces maps back, combinations give listed outcomes, faces off the dice are refused', () => {
    for (const [k, list] of nodes)
      for (const s of list) {
        const r = checkRollAt(game, s);
        expect(r.what, k).toBeTruthy();
        expect(r.problems, k).toEqual([]);
      }
  });
});

describe('Eagles of the Empire: rolls read from faces', () => {
  it('the first-player roll: d6 + initiative each, a tie refused as rolled again [7.0]', () => {
    const s = first('firstRoll');
    const ask = game.rollAsk!(s)!;
    expect(ask.dice).toEqual([6, 6]);
    const tie = [1, 2, 3, 4, 5, 6]
      .flatMap((a) => [1, 2, 3, 4, 5, 6].map((b) => [a, b]))
      .find((fs) => {
        const r = game.outcomeForFaces!(s, fs);
        return 'error' in r;
      })!;
    const r = game.outcomeForFaces!(s, tie);
    expect('error' in r && r.error).toMatch(/^the first-player roll \[7\.0\]: \d+ each is a tie, rolled again/);
    expect(checkRollAt(game, s).refused).toBeDefined();
  });

  it('hit dice: every die of every group listed, hits on a modified 6 [10.2, 12.0, 14.1]', () => {
    const s = push(first('roll'), {
      t: 'roll',
      dice: [
        { n: 2, drm: 1 },
        { n: 3, drm: 0 },
      ],
      why: 'a test fire',
      rule: '12.0',
    });
    const ask = game.rollAsk!(s)!;
    expect(ask.dice).toEqual([6, 6, 6, 6, 6]);
    expect(ask.what).toMatch(/dice 1–2 d6 \+ 1: 5\+ hits; dice 3–5 d6: 6 hits/);
    expect(game.outcomeForFaces!(s, [5, 4, 5, 6, 1])).toEqual({ action: { k: 'c-hits', n: 2 } });
    const off = game.outcomeForFaces!(s, [5, 4, 5, 6]);
    expect('error' in off && off.error).toMatch(/^a test fire \[12\.0\]: .*enter 5 dice \(5D6\), not 4/);
    expect(checkRollAt(game, s).problems).toEqual([]);
  });

  it("a leader's casualty check: 2d6 + modifier, 12 or more and he falls [3.2]", () => {
    const s = first('leaderCheck');
    const f = top(s) as Extract<Frame, { t: 'leaderCheck' }>;
    expect(game.rollAsk!(s)!.dice).toEqual([6, 6]);
    expect(game.outcomeForFaces!(s, [6, 6])).toEqual({ action: { k: 'c-pass', ok: false } });
    expect(game.outcomeForFaces!(s, [1, 1])).toEqual({ action: { k: 'c-pass', ok: 2 + f.mod < 12 } });
  });

  it('rolls random play seldom reaches, pushed onto a position: rout checks and rallies, recovery, CbI, the pursuit', () => {
    const base = first('actDie');
    const u = base.units.find((x) => x.area !== null)!;
    const p = u.side;
    const leader = base.ctx.scenario.sides[p].leaders.find((l) => l.role === 'formation')!.id;
    const charge = top(first('charge/squareRoll')) as Extract<Frame, { t: 'charge' }>;
    const frames: Frame[] = [
      { t: 'routCheck', u: u.id, mod: 1, cascade: false, attackers: [], retest: false },
      { t: 'routCheck', u: u.id, mod: 0, cascade: true, attackers: [], retest: false },
      { t: 'routRally', u: u.id, target: 3 },
      { t: 'recoverRoll', u: u.id },
      { t: 'cbi', p, leader },
      { ...charge, stage: 'pursuitRoll' },
    ];
    for (const f of frames) {
      const s = push(base, f);
      expect(game.toMove(s).kind, f.t).toBe('chance');
      const r = checkRollAt(game, s);
      expect(r.what, f.t).toBeTruthy();
      expect(r.problems, f.t).toEqual([]);
    }
    const rally = push(base, { t: 'routRally', u: u.id, target: 3 });
    expect(game.rollAsk!(rally)!.what).toMatch(/rout rally roll \[15\.13\]: d6, 1–3: it rallies, 4–6: it stays routed/);
    expect(game.outcomeForFaces!(rally, [3])).toEqual({ action: { k: 'c-pass', ok: true } });
    expect(game.outcomeForFaces!(rally, [4])).toEqual({ action: { k: 'c-pass', ok: false } });
    const seven = game.outcomeForFaces!(rally, [7]);
    expect('error' in seven && seven.error).toMatch(/rout rally roll \[15\.13\].*7 is not a face of a D6/);
  });
});
