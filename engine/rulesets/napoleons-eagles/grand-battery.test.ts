/**
 * Napoleon's Eagles: grand batteries [p.10], ADAPTATION A-56 (morale.ts GRAND_BATTERY_READINGS): a division leader
 * appointed grand battery commander in step 8 rides to the forming point and a staff officer takes his old command;
 * unlimbered batteries within his radius join at step 1 on their owner's declaration and are then under his command;
 * a member that limbers and leaves his radius leaves; only the nations with the doctrine are offered any of it.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { playChecked } from '../../../arena/conformance.ts';
import { checkedGames, type Json, offered, playInto, quick, scenarioOf, top } from '../../../test/ne-fixtures.ts';
import type { GameEvent } from '../../core/game.ts';
import { IN } from './board.ts';
import { napoleonsEagles as game } from './index.ts';
import { type Frame, runtime, type SeqState, staffId, unitOf } from './turn.ts';

/** The state with `frames` as its stack (the last on top), settled: a position at a chosen step. */
const at = (s: SeqState, ...frames: Frame[]): SeqState => runtime.settle({ ...s, stack: frames, sideA: 0 });

/**
 * quick-test with the French allowed grand batteries: a second division leader, Reille (radius 10", unattached at
 * 30,2), commands Q2; a second battery QB (Foy's) stands unlimbered at 5,5, out of Foy's radius (cut to 6"; Foy is
 * with Q1 at 13,4), QA (Foy's) within it.
 */
function gbEdit(j: Json): void {
  {
    const fr = j.sides[0];
    fr.doctrine = { frenchPost1807: true, grandBatteryAllowed: true };
    fr.leaders.find((l: Json) => l.id === 'Foy').radius = 6;
    fr.leaders.push({ id: 'Reille', rank: 'division', superior: 'Ney', radius: 10, x: 30, y: 2 });
    fr.units.find((u: Json) => u.id === 'Q2').commander = 'Reille';
    fr.units.push({
      id: 'QB',
      kind: 'artillery',
      arm: 'foot',
      calibre: '6lb',
      cannons: 4,
      howitzers: 0,
      rating: 'B16B25',
      commander: 'Foy',
      x: 5,
      y: 5,
      facing: 0,
      formation: 'unlimbered',
    });
  }
}
const gb = (edit?: (j: Json) => void): SeqState =>
  quick((j) => {
    gbEdit(j);
    edit?.(j);
  });

/** Plays on with quiet choices (events into `ev`) until `stop`: finish, end, stay, the first activation, bid 0. */
function quietTo(s0: SeqState, stop: (s: SeqState) => boolean, ev?: GameEvent[]): SeqState {
  let s = s0;
  for (let i = 0; i < 3000 && !stop(s); i++) {
    const outs = game.chanceOutcomes(s);
    if (outs.length) {
      s = game.apply(s, outs[0]!.action, ev);
      continue;
    }
    const acts = game.legalActions(s);
    const pick =
      ['finish', 'end', 'stay', 'hold', 'no defence action', 'stand in place', 'bid 0'].find((a) => acts.includes(a)) ??
      acts.find((a) => a.startsWith('activate')) ??
      acts[0]!;
    s = game.apply(s, pick, ev);
  }
  if (!stop(s)) throw new Error('the position was not reached');
  return s;
}

const leaderFrame = (id: string) => (s: SeqState) => top(s)?.t === 'leader' && (top(s) as { id: string }).id === id;

describe("Napoleon's Eagles: grand batteries [p.10], A-56", () => {
  it('step 8: an unattached division leader is appointed; he rides to the forming point and a staff officer holds his division', () => {
    const s0 = gb();
    // as set up: QB is beyond Foy's 6", Q2 within Reille's 10"
    expect(unitOf(s0, 'QB').ooc).toBe(true);
    expect(unitOf(s0, 'Q2').ooc).toBe(false);
    const s = quietTo(playInto(s0, undefined, 'bid 1', 'bid 0', 'be A'), leaderFrame('Reille'));
    expect(offered(s)).toContain('appoint grand battery');
    // not Foy (attached to Q1) nor Ney (the army commander)
    expect(offered(at(s, { t: 'leader', id: 'Foy' }))).not.toContain('appoint grand battery');
    expect(offered(at(s, { t: 'leader', id: 'Ney' }))).not.toContain('appoint grand battery');
    const ev: GameEvent[] = [];
    const t = playInto(s, ev, 'appoint grand battery');
    const e = ev.find((x) => /appointed grand battery commander/.test(x.text));
    expect(e?.rule).toBe('p.10');
    expect(e?.text).toMatch(/A-56/);
    // the staff officer stands where Reille stood; Reille at the forming point, toward QA's and QB's centroid
    expect(t.appointed).toEqual([{ leader: 'Reille', x: 30 * IN, y: 2 * IN }]);
    const r = t.leaders.find((l) => l.id === 'Reille')!;
    expect(r.attached).toBeNull();
    expect(r.lost).toBe(false);
    expect(r.x / IN).toBeCloseTo(11.5, 1);
    expect(Math.hypot(r.x - 30 * IN, r.y - 2 * IN)).toBeLessThanOrEqual(20 * IN);
    // one grand battery a side: Reille's appointment is the French side's only one
    expect(offered(at(t, { t: 'leader', id: 'Reille' }))).not.toContain('appoint grand battery');

    // the next period's step 1: QA and QB are unlimbered within Reille's 10": each is declared or not, QA first
    const p2 = quietTo(t, (x) => top(x)?.t === 'grandBattery');
    expect(p2.period).toBe(2);
    expect(top(p2)).toEqual({ t: 'grandBattery', unit: 'QA', officer: 'Reille' });
    expect(game.legalActions(p2)).toEqual(['join grand battery', 'stay']);
    const ev2: GameEvent[] = [];
    const j = playInto(p2, ev2, 'stay', 'join grand battery');
    expect(j.gbMembers).toEqual({ QB: 'Reille' });
    expect(ev2.find((x) => /QB joins Reille's grand battery/.test(x.text))?.rule).toBe('A-56');
    expect(top(j)?.t).toBe('bid');
    // QB is now in command through Reille (out of Foy's 6", within Reille's 10"); QA stays Foy's, in command
    expect(unitOf(j, 'QB').ooc).toBe(false);
    expect(unitOf(j, 'QA').ooc).toBe(false);
    // Q2 answers to the staff officer at Reille's old post: in command (Reille himself is 13.5" from it now)
    expect(unitOf(j, 'Q2').ooc).toBe(false);
    expect(Math.hypot(unitOf(j, 'Q2').x - r.x, unitOf(j, 'Q2').y - r.y)).toBeGreaterThan(10 * IN);

    // declaring QB not a member leaves it out of command, as before
    expect(unitOf(playInto(p2, undefined, 'stay', 'stay'), 'QB').ooc).toBe(true);
  });

  it('the staff officer moves in step 8 after his leader, toward the centre of the units he commands', () => {
    const s = quietTo(playInto(gb(), undefined, 'bid 1', 'bid 0', 'be A'), leaderFrame('Reille'));
    const t = playInto(s, undefined, 'appoint grand battery');
    // the next step 8: Reille's frame, then his staff officer's
    const p2 = quietTo(t, leaderFrame('Reille'));
    expect(p2.period).toBe(2);
    const st = playInto(p2, undefined, 'stay');
    expect(top(st)).toEqual({ t: 'staffOfficer', leader: 'Reille' });
    expect(game.legalActions(st)).toContain('go centre');
    const ev: GameEvent[] = [];
    const moved = playInto(st, ev, 'go centre');
    // Q2's centre: the staff officer rides from (30, 2) toward it, Reille stays at the forming point
    expect(moved.appointed![0]!.x).toBeLessThan(30 * IN);
    expect(moved.leaders.find((l) => l.id === 'Reille')).toEqual(st.leaders.find((l) => l.id === 'Reille'));
    expect(ev.some((e) => e.rule === 'A-21' && e.text.startsWith(staffId('Reille')))).toBe(true);
  });

  it("a member that limbers and leaves the officer's radius leaves at step 1; limbered inside or unlimbered, it stays", () => {
    const s = quietTo(playInto(gb(), undefined, 'bid 1', 'bid 0', 'be A'), leaderFrame('Reille'));
    const p2 = quietTo(playInto(s, undefined, 'appoint grand battery'), (x) => top(x)?.t === 'grandBattery');
    const j = playInto(p2, undefined, 'stay', 'join grand battery');
    const qb = unitOf(j, 'QB');
    const limber = (x: number, formation: 'limbered' | 'unlimbered') => ({
      ...j,
      units: j.units.map((u) => (u.id === 'QB' ? { ...u, x: x * IN, formation } : u)),
    });
    const nextBid = (x: SeqState) => top(x)?.t === 'bid' && x.period === 3;
    // limbered and 20" from Reille: it leaves, back under Foy (and out of his 6": out of command)
    const ev: GameEvent[] = [];
    const gone = quietTo(limber(31, 'limbered'), nextBid, ev);
    expect(gone.gbMembers).toBeUndefined();
    expect(ev.find((e) => /QB limbered and left Reille's command radius/.test(e.text))?.rule).toBe('A-56');
    expect(unitOf(gone, 'QB').ooc).toBe(true);
    // limbered within the radius: still a member
    expect(quietTo(limber(qb.x / IN, 'limbered'), nextBid).gbMembers).toEqual({ QB: 'Reille' });
    // unlimbered outside the radius: still a member (A-56 "unless the battery limbers and leaves"), out of command
    const far = quietTo(limber(31, 'unlimbered'), nextBid);
    expect(far.gbMembers).toEqual({ QB: 'Reille' });
    expect(unitOf(far, 'QB').ooc).toBe(true);
  });

  it('a scenario grand battery commander takes members at the first step 1; a side with one appoints no other', () => {
    const s0 = gb((j) => {
      j.sides[0].leaders.push({ id: 'Senarmont', rank: 'grandBattery', superior: 'Ney', radius: 8, x: 6, y: 1 });
    });
    // the game opens at step 1 with the declaration for QB (QA is 12" from Senarmont)
    expect(top(s0)).toEqual({ t: 'grandBattery', unit: 'QB', officer: 'Senarmont' });
    expect(unitOf(playInto(s0, undefined, 'stay'), 'QB').ooc).toBe(true);
    const j = playInto(s0, undefined, 'join grand battery');
    expect(unitOf(j, 'QB').ooc).toBe(false);
    const s = quietTo(playInto(j, undefined, 'bid 1', 'bid 0', 'be A'), leaderFrame('Reille'));
    expect(offered(s)).not.toContain('appoint grand battery');
  });

  it('not offered without two unlimbered batteries, nor to a nation without the doctrine', () => {
    const s = at(gb(), { t: 'leader', id: 'Reille' });
    expect(offered(s)).toContain('appoint grand battery');
    // one battery limbered: one unlimbered battery is no grand battery
    const one = { ...s, units: s.units.map((u) => (u.id === 'QB' ? { ...u, formation: 'limbered' as const } : u)) };
    expect(offered(at(one, { t: 'leader', id: 'Reille' }))).not.toContain('appoint grand battery');
    // the French without the flag
    const off = gb((j) => {
      j.sides[0].doctrine.grandBatteryAllowed = false;
    });
    expect(offered(at(off, { t: 'leader', id: 'Reille' }))).not.toContain('appoint grand battery');
    // the British never (the scenario refuses the flag for them): Pack, unattached, with two unlimbered batteries
    const british = gb((j) => {
      const al = j.sides[1];
      for (const [id, x] of [
        ['BA', 10],
        ['BB', 27],
      ] as const)
        al.units.push({
          ...j.sides[0].units.find((u: Json) => u.id === 'QB'),
          id,
          commander: 'Pack',
          x,
          y: 18,
          facing: 180,
        });
    });
    expect(british.units.filter((u) => u.side === 1 && u.formation === 'unlimbered')).toHaveLength(2);
    expect(offered(at(british, { t: 'leader', id: 'Pack' }))).not.toContain('appoint grand battery');
    expect(() =>
      quick((j) => {
        j.sides[1].doctrine = { grandBatteryAllowed: true };
      }),
    ).toThrow(/grandBatteryAllowed/);
  });

  it("with leader initiative, the staff officer out of his superior's radius rolls at the base value (5) [p.17]", () => {
    const s0 = gb((j) => {
      j.options = { ...j.options, leaderInitiative: true };
      j.sides[0].leaders.find((l: Json) => l.id === 'Ney').radius = 10;
      j.sides[0].leaders.find((l: Json) => l.id === 'Reille').initiative = 9;
    });
    const s = quietTo(
      playInto(
        quietTo(s0, (x) => top(x)?.t === 'bid'),
        undefined,
        'bid 1',
        'bid 0',
        'be A',
      ),
      leaderFrame('Reille'),
    );
    const t = playInto(s, undefined, 'appoint grand battery');
    // Reille at the forming point is within Ney's 10"; his staff officer at (30, 2) is 12" away: he rolls, with 5
    const roll = quietTo(t, (x) => top(x)?.t === 'initiative');
    expect(roll.period).toBe(2);
    expect(top(roll)).toEqual({ t: 'initiative', leader: staffId('Reille'), initiative: 5 });
  });

  it('random games keep the Game contract at every step: from an appointment, and with a scenario commander', () => {
    // from the state just after Reille's appointment (random games rarely keep two batteries unlimbered till step 8)
    const s = quietTo(playInto(gb(), undefined, 'bid 1', 'bid 0', 'be A'), leaderFrame('Reille'));
    const t = playInto(s, undefined, 'appoint grand battery');
    const fromAppointment = { ...game, initialState: () => t };
    for (let g = 0; g < 3; g++)
      playChecked(fromAppointment, t.sc, seedrandom.alea(`grand-battery/${g}`), {
        seats: ['random', 'random'],
        maxPlies: 20_000,
        freeze: true,
        optionsEvery: 7,
        optionsCap: 4,
      });
    // a scenario grand battery commander: the declarations from the first step 1
    checkedGames(
      () =>
        scenarioOf('quick-test', (j) => {
          gbEdit(j);
          j.sides[0].leaders.push({ id: 'Senarmont', rank: 'grandBattery', superior: 'Ney', radius: 8, x: 6, y: 1 });
        }),
      'grand-battery-scenario',
      2,
    );
  });

  it('the scripted player declares eligible batteries and appoints no one', () => {
    const s = quietTo(playInto(gb(), undefined, 'bid 1', 'bid 0', 'be A'), leaderFrame('Reille'));
    const acts = game.legalActions(s);
    const scores = game.policyScores!(s, acts);
    const appoint = scores[acts.indexOf('appoint grand battery')]!;
    expect(appoint).toBeLessThan(scores[acts.indexOf('stay')]!);
    const p2 = quietTo(playInto(s, undefined, 'appoint grand battery'), (x) => top(x)?.t === 'grandBattery');
    expect(game.policyScores!(p2, ['join grand battery', 'stay'])).toEqual([1, 0]);
  });
});
