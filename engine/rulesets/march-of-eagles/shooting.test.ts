/** Digest §10.2–§10.4 worked examples, on hand-built positions. */
import { describe, expect, it } from 'vitest';
import { tinyState, patch } from '../../../test/moe-fixtures.ts';
import { chanceOutcomes } from './rules.ts';
import { shotDice, volleyDistribution } from './shooting.ts';
import { NEED, effQ, resolveMod, unit, push } from './state.ts';
import type { MoeState } from './types.ts';

/** A shooter in line facing north at (24, 10) and a target whose near edge is `range` inches from its front. */
function duel(o: {
  range: number;
  shooter?: object;
  target?: object;
  targetColumn?: boolean;
  natA?: 'British' | 'French';
  terrain?: unknown[];
  targetY?: number;
}) {
  const tCol = o.targetColumn ?? false;
  const depth = tCol ? 4.8 : 1.6; // 24 Rankers: line 1 rank, column 3 ranks of stands
  const y = o.targetY ?? 10.8 + o.range + depth / 2;
  return tinyState({
    width: 48,
    natA: o.natA ?? 'Other',
    a: [{ id: 'S', x: 24, y: 10, ...(o.shooter ?? {}) }],
    b: [{ id: 'T', x: 24, y, formation: tCol ? 'Column' : 'Line', ...(o.target ?? {}) }],
    terrain: o.terrain ?? [],
  });
}
function dice(
  s: MoeState,
  opts: { screen?: boolean; toScreen?: boolean; frac?: number | null; defensive?: boolean } = {},
) {
  const r = shotDice(
    s,
    unit(s, 'S'),
    opts.screen ?? false,
    unit(s, 'T'),
    opts.toScreen ?? false,
    opts.frac ?? null,
    opts.defensive ?? false,
  );
  return r;
}

describe('[Accuracy] dice per volley (digest §10.2)', () => {
  it('Drilled, 6 groups in Line, target in Column at 8": (6+2)×0.5 = 4 dice, hit on 4+', () => {
    const r = dice(duel({ range: 8, targetColumn: true }));
    expect(r).toMatchObject({ dice: 4, need: 4, mod: 0 });
  });
  it('British Drilled 1st Bn (9 groups, Line), target Line at 5": 9+2 = 11 dice', () => {
    expect(dice(duel({ range: 5, natA: 'British', shooter: { rankers: 36 } }))!.dice).toBe(11);
  });
  it('French Guards (8 groups, Line) at 14": (8+2)×0.25 → 3 dice, hit on 2+', () => {
    expect(dice(duel({ range: 14, natA: 'French', shooter: { rankers: 32, quality: 'Guards' } }))).toMatchObject({
      dice: 3,
      need: 2,
    });
  });
  it('5 groups at 9" → 3 dice (2.5 rounds up); at 13" → 1 die; 1 group at 15" → 1 die (minimum)', () => {
    expect(dice(duel({ range: 9, shooter: { rankers: 20 } }))!.dice).toBe(3);
    expect(dice(duel({ range: 13, shooter: { rankers: 20 } }))!.dice).toBe(1);
    let s = duel({ range: 15, shooter: { rankers: 16 } });
    s = patch(s, 'S', { rk: 4 }); // down to one firing group
    expect(dice(s)!.dice).toBe(1);
  });
  it('out of range (over 18" for muskets) cannot shoot', () => {
    expect(dice(duel({ range: 18.5 }))).toBeNull();
  });
  it('Disordered 6 groups at 5", target in soft cover: (6−2)×0.5 = 2 dice', () => {
    let s = duel({
      range: 5,
      terrain: [
        {
          type: 'woods',
          id: 'w',
          polygon: [
            [10, 16],
            [38, 16],
            [38, 22],
            [10, 22],
          ],
        },
      ],
    });
    s = patch(s, 'S', { dis: true });
    expect(dice(s)!.dice).toBe(2);
  });
  it('8 eligible groups at 7", target behind a wall (hard cover): 8×0.5×0.5 = 2 dice', () => {
    const s = duel({
      range: 7,
      shooter: { rankers: 32 },
      terrain: [
        {
          type: 'wall',
          id: 'w',
          points: [
            [10, 18.3],
            [38, 18.3],
          ],
        },
      ],
    });
    expect(dice(s)!.dice).toBe(2);
  });
  it('Screen of 5 skirmishers (3 groups) at 10", target Line: 3×0.5 = 1.5 → 2 dice (skirmishers round up)', () => {
    // parent at y 10 (front edge 10.8), its screen 2" ahead (10.8+2 .. +0.8 = 13.6): target 10" from the screen
    const s = duel({ range: 0, targetY: 13.6 + 10 + 0.8, shooter: { skirmishers: 5, screen: 'front' } });
    expect(dice(s, { screen: true })!.dice).toBe(2);
  });
  it('British rifle Light battalion screen, 27 figures (14 groups), Veteran, at 20": (14+2)×0.25 = 4 dice, hit on 3+', () => {
    // Light: close order 6" behind the screen; screen front edge at 10.8 + 6 + 0.8 = 17.6
    const s = duel({
      range: 0,
      targetY: 17.6 + 20 + 0.8,
      natA: 'British',
      shooter: { rankers: 36, quality: 'Veteran', light: true, rifles: true, skirmishers: 27 },
    });
    expect(dice(s, { screen: true })).toMatchObject({ dice: 4, need: 3 });
  });
  it('Firing at skirmishers: 6 groups at 4" → 6×0.5 = 3 dice', () => {
    // the target's screen (0.8" deep, 2" ahead of its front edge) has its near edge 4" from the shooter's front
    const t = duel({ range: 0, targetY: 10.8 + 4 + 0.8 + 2 + 0.8, target: { skirmishers: 5, screen: 'front' } });
    expect(dice(t, { toScreen: true })!.dice).toBe(3);
    expect(dice(t)).toBeNull(); // the screen shields its parent from the front: the body cannot be picked
  });
});

describe('[Activation table] checks (digest §10.3)', () => {
  it('Veteran with officer, 50% losses, lost combat this round: needs 3+, modifiers −1 −1 +2 = 0', () => {
    let s = tinyState({
      a: [{ id: 'V', quality: 'Veteran', rankers: 24, officer: 1, x: 24, y: 10 }],
      b: [{ id: 'E', x: 24, y: 38 }],
    });
    s = patch(s, 'V', { rk: 12, lost: true });
    const v = unit(s, 'V');
    expect(NEED[effQ(s, v).q]).toBe(3);
    expect(resolveMod(s, v)).toBe(0);
  });
  it('Drilled with its own SC attached elsewhere acts as Green: 5+', () => {
    const s = tinyState({
      a: [
        { id: 'D', x: 12, y: 10 },
        { id: 'X', x: 36, y: 10 },
      ],
      b: [{ id: 'E', x: 24, y: 38 }],
      scA: { attach: 'X' },
    });
    expect(NEED[effQ(s, unit(s, 'D')).q]).toBe(5);
    expect(NEED[effQ(s, unit(s, 'X')).q]).toBe(4); // the battalion he is with keeps its rating
  });
  it('Green with its SC killed: 5+ with −1 (natural 6 only)', () => {
    let s = tinyState({ a: [{ id: 'G', quality: 'Green', x: 24, y: 10 }], b: [{ id: 'E', x: 24, y: 38 }] });
    s = { ...s, sides: [{ ...s.sides[0], scKilled: true, sc: { ...s.sides[0].sc, alive: false } }, s.sides[1]] };
    const g = unit(s, 'G');
    expect(effQ(s, g)).toEqual({ q: 0, pen: -1 });
    expect(resolveMod(s, g)).toBe(-1);
  });
  it('Guards with officer: 2+ with +2, automatic in practice', () => {
    const s = tinyState({
      a: [{ id: 'G', quality: 'Guards', officer: 1, x: 24, y: 10 }],
      b: [{ id: 'E', x: 24, y: 38 }],
    });
    const g = unit(s, 'G');
    expect(NEED[effQ(s, g).q]! - resolveMod(s, g)).toBeLessThanOrEqual(1);
  });
  it('two drummers re-roll a failed MANOEUVRE check twice: pass, pass after 1, after 2, fail = ½, ¼, ⅛, ⅛', () => {
    const s0 = tinyState({ a: [{ id: 'D', drummers: 2, x: 24, y: 10 }], b: [{ id: 'E', x: 24, y: 38 }] });
    const s = push(s0, { t: 'check', u: 'D', kind: 'manoeuvre', need: 4, mod: 0, rerolls: 2, then: { k: 'none' } });
    expect(chanceOutcomes(s).map((o) => [o.label, o.p])).toEqual([
      ['pass', 0.5],
      ['pass after 1 re-roll', 0.25],
      ['pass after 2 re-rolls', 0.125],
      ['fail', 0.125],
    ]);
  });
});

describe('[Defensive fire] (digest §10.4): Drilled target with 6 eligible groups, attacker in Column', () => {
  const s = tinyState({
    a: [{ id: 'S', x: 24, y: 10 }],
    b: [{ id: 'T', x: 24, y: 10.8 + 6 + 2.4, formation: 'Column' }],
  });
  const at = (frac: number) => shotDice(s, unit(s, 'S'), false, unit(s, 'T'), false, frac, true)!;
  it('long range (D6 1 or 2): (6+2)×0.25 = 2 dice; medium (3–5): 4; short (6): 8; each needs a natural 5+', () => {
    expect(at(0.25)).toMatchObject({ dice: 2, need: 4, mod: -1 });
    expect(at(0.5).dice).toBe(4);
    expect(at(1).dice).toBe(8);
  });
  it('the band distribution gives 2 its M9 reading (long) by default', () => {
    const f = push(s, { t: 'dfBand', att: 'T', def: 'S' });
    expect(chanceOutcomes(f).map((o) => o.p)).toEqual([2 / 6, 3 / 6, 1 / 6]);
  });
});

describe('volley distribution with sergeant re-rolls', () => {
  it('sums to 1 and matches a direct count for 2 dice, 4+, one re-roll', () => {
    const d = volleyDistribution(2, 4, 0, 1, false);
    expect(d.reduce((a, b) => a + b.p, 0)).toBeCloseTo(1, 12);
    // no hits only when both miss and the re-rolled one misses: 1/2 · 1/2 · 1/2
    expect(d.filter((x) => x.hits === 0).reduce((a, b) => a + b.p, 0)).toBeCloseTo(1 / 8, 12);
    // two hits: both hit (1/4), or one misses and its re-roll hits (2 · 1/4 · 1/2)
    expect(d.filter((x) => x.hits === 2).reduce((a, b) => a + b.p, 0)).toBeCloseTo(1 / 2, 12);
  });
  it('tracks natural sixes among hits for the risk to Characters', () => {
    const d = volleyDistribution(1, 4, 0, 0, true);
    expect(d.find((x) => x.hits === 1 && x.six)!.p).toBeCloseTo(1 / 6, 12);
    expect(d.find((x) => x.hits === 1 && !x.six)!.p).toBeCloseTo(2 / 6, 12);
  });
});

describe('worked-out volleys are remembered per position, never across changes', () => {
  it('a changed copy of a battalion, other sides or another context get their own answer', () => {
    const s = duel({ range: 8 });
    const first = dice(s)!;
    expect(first).toMatchObject({ dice: 3, mod: 0 });
    expect(dice(s)).toBe(first); // the same position: remembered
    // a copy in column that is not in the position: +2 dice, not the remembered line answer
    const asColumn = { ...unit(s, 'T'), f: 'C' as const };
    expect(shotDice(s, unit(s, 'S'), false, asColumn, false, null, false)!.dice).toBe(first.dice + 1);
    // the Supreme Commander attached to the shooter (same battalions, new sides): +1 to each die
    const withSc: MoeState = {
      ...s,
      sides: [{ ...s.sides[0], sc: { ...s.sides[0].sc, att: 'S', alive: true } }, s.sides[1]],
    };
    expect(dice(withSc)!.mod).toBe(1);
    // the same battalions and sides under another context (a wall before the target): hard cover halves again
    expect(dice(s)!.dice).toBe(first.dice); // remembered for these battalions and sides again
    const walled = duel({
      range: 8,
      terrain: [
        {
          type: 'wall',
          id: 'w',
          points: [
            [10, 18.3],
            [38, 18.3],
          ],
        },
      ],
    });
    expect(dice({ ...s, ctx: walled.ctx })!.dice).toBeLessThan(first.dice);
  });
});
