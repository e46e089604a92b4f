/**
 * S5 skirmish combat (skirmish.ts) through its frames: the digest's §10.6 table vectors as the exact hit
 * probabilities of the D10 node, the §11 exercised path (F1c's 8 points against B1c's 5 in the hamlet), both sides'
 * dice before any effect, each hit's unit uniformly at random (1/n a node, the multinomial over a whole roll), the
 * effects (infantry 1 hit = 1 KIA with its skill test; deployed artillery suppressed at 1 hit, 1 KIA at 2 with the
 * damaged-artillery test and its limber-and-withdraw), the cavalry zone of control, cavalry never targets, and C2's
 * commitment.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IN } from '../../geometry/geometry.ts';
import type { GameEvent } from '../../core/game.ts';
import type { Frame, SkirmishFire } from './frames.ts';
import { cer } from './rules.ts';
import { initialState, parseScenario } from './scenario.ts';
import type { S } from './state.ts';
import { elementOf, unitOf, updCommand, updUnit } from './state.ts';
import { qualifies, scvOf, skirmishPlan } from './skirmish.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'charge-eagles-rising');
const json = (id: string) => JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8'));
const STOP: Frame = { t: 'initiativeChoice', side: 0 };
const chapel = (): S => initialState(parseScenario(json('the-chapel-crossroads'))) as S;
const at = (s: S, id: string, x: number, y: number) => updUnit(s, id, { pos: { x: x * IN, y: y * IN } });

function s5(s: S, log?: GameEvent[]): S {
  return cer.settle({ ...s, phase: 'S5', stack: [STOP, { t: 'phase', phase: 'S5' }] }, log);
}
const top = (s: S) => s.stack[s.stack.length - 1]!;
const outcomes = (s: S) => Object.fromEntries(cer.chanceOutcomes(s).map((o) => [o.action, o.p]));
const figures = (s: S, id: string) => {
  const u = unitOf(s, id);
  return u.kind === 'artillery' ? u.guns : u.figures;
};

/** The §11 exercised path: F1c's screen 7.5" south of the hamlet. */
const screened = () => at(chapel(), 'F1c', 24, 20);

describe('§10.6 skirmish table vectors, through the D10 node', () => {
  /** The hits distribution of the D10 node for an ME of `points` (a frame made by hand). */
  function dist(points: number): Record<string, number> {
    const fire: SkirmishFire = { from: 'F1', at: 'B1', points, firers: ['F1c'], targets: ['B1c'], hits: null, hit: [] };
    const s = { ...chapel(), stack: [STOP, { t: 'skirmish', fire: [fire] } as Frame] } as S;
    return outcomes(s);
  }
  // the printed columns, counted by hand from the sheet: the number of D10 faces giving each number of hits
  it.each([
    // points, d10 → hits of the vector, and the column's faces per hit count
    [9, { 0: 4, 1: 3, 2: 3 }], // 9 points, D10 6 → 1 (column 9-10: rows 5-7 give 1)
    [21, { 1: 1, 2: 3, 3: 3, 4: 3 }], // 21, D10 10 → 4
    [4, { 0: 7, 1: 3 }], // 4, D10 7 → 0 (column 3-4: only rows 8-10 hit)
    [2, { 0: 8, 1: 2 }], // 2, D10 10 → 1
    [12, { 0: 3, 1: 3, 2: 3, 3: 1 }], // 12, D10 9 → 2
    [30, { 1: 1, 2: 3, 3: 3, 4: 3 }], // 30 uses 21-22, D10 1 → 1
  ] as const)('%i points', (points, faces) => {
    const o = dist(points);
    const want = Object.fromEntries(
      Object.entries(faces).map(([h, n]) => [`skirmish F1 ${h} ${h === '1' ? 'hit' : 'hits'}`, n / 10]),
    );
    expect(Object.keys(o).sort()).toEqual(Object.keys(want).sort());
    for (const [k, p] of Object.entries(want)) expect(o[k]).toBeCloseTo(p, 12);
  });
});

describe('S5: who skirmishes, at whom', () => {
  it('at the start nobody is within 10" and more than 3" with an open frontage: no skirmish, S5 ends', () => {
    expect(skirmishPlan(chapel())).toEqual([]);
    expect(top(s5(chapel()))).toEqual(STOP);
  });

  it('§11: F1c in Skirmish formation (SCV 4 × 2 = 8) faces B1c in the hamlet (rifles, 5, not in Skirmish formation)', () => {
    const s = screened();
    expect(scvOf(s, unitOf(s, 'F1c'))).toBe(8);
    expect(scvOf(s, unitOf(s, 'B1c'))).toBe(5);
    expect(scvOf(s, unitOf(s, 'F1d'))).toBe(0);
    expect(scvOf(s, unitOf(s, 'F2a'))).toBe(0);
    expect(skirmishPlan(s)).toEqual([
      { from: 'F1', at: 'B1', points: 8, firers: ['F1c'], targets: ['B1c'], hits: null, hit: [] },
      { from: 'B1', at: 'F1', points: 5, firers: ['B1c'], targets: ['F1c'], hits: null, hit: [] },
    ]);
  });

  it('squares and march columns have no skirmish value; a line battalion 2 (Regular) or 1 (Conscript)', () => {
    const s = chapel();
    const q = updUnit(s, 'F1a', { formation: 'hastySquare' });
    expect(scvOf(q, unitOf(q, 'F1a'))).toBe(0);
    const m = updUnit(s, 'F1a', { formation: 'marchColumn' });
    expect(scvOf(m, unitOf(m, 'F1a'))).toBe(0);
    expect(scvOf(s, unitOf(s, 'F1a'))).toBe(2);
  });

  it('within 3" of an enemy a unit does not skirmish; beyond 10" neither', () => {
    // the hamlet's south edge is at y 28: F1c's front edge at y 25.5 is 2.5" away
    expect(qualifies(at(chapel(), 'F1c', 24, 25), unitOf(at(chapel(), 'F1c', 24, 25), 'F1c'))).toBe(false);
    // 10.5" away
    expect(qualifies(at(chapel(), 'F1c', 24, 17), unitOf(at(chapel(), 'F1c', 24, 17), 'F1c'))).toBe(false);
    expect(qualifies(at(chapel(), 'F1c', 24, 18), unitOf(at(chapel(), 'F1c', 24, 18), 'F1c'))).toBe(true);
  });

  it('a friend in the front arc nearer than the enemy closes the frontage', () => {
    // F1a (column) 2" behind F1c's screen: F1c is in F1a's front arc, nearer than the hamlet
    const s = at(at(screened(), 'F1a', 24, 17), 'F1c', 24, 20);
    expect(qualifies(s, unitOf(s, 'F1a'))).toBe(false);
    expect(qualifies(s, unitOf(s, 'F1c'))).toBe(true);
  });

  it('a cavalry zone of control negates skirmish combat: no points from a unit in it, no hits on it', () => {
    // the British light dragoons face south: their ZOC (3" × 10" ahead) over F1c's screen
    let s = updUnit(screened(), 'B2a', { pos: { x: 24 * IN, y: 27 * IN }, facing: 180 });
    s = at(s, 'F1c', 24, 20);
    expect(qualifies(s, unitOf(s, 'F1c'))).toBe(false);
    // and B1c may not hit F1c, nor F1 fire at all: no skirmish between them
    expect(skirmishPlan(s).filter((f) => f.from === 'F1' || f.at === 'F1')).toEqual([]);
  });

  it('cavalry cannot be targets (C9): an ME with only cavalry in the band is not picked', () => {
    // F2's cuirassiers 6" from the hamlet, F1c far off: B1c has nobody to hit
    // (placed beside the hamlet: its zone of control, straight ahead, misses it)
    let s = updUnit(chapel(), 'F2a', { pos: { x: 16 * IN, y: 22 * IN } });
    s = updUnit(s, 'F2b', { pos: { x: 44 * IN, y: 4 * IN } });
    expect(qualifies(s, unitOf(s, 'B1c'))).toBe(true);
    expect(skirmishPlan(s)).toEqual([]);
  });
});

describe('S5: the dice, then the effects, both sides at once', () => {
  it('§11: both D10s before any effect; infantry 1 hit = 1 KIA with its skill test; both MEs committed (C2)', () => {
    const log: GameEvent[] = [];
    let s = updCommand(screened(), 'F1', { committed: false });
    s = s5(s, log);
    expect(elementOf(s, 'F1').committed).toBe(true);
    expect(top(s)).toMatchObject({ t: 'skirmish' });
    // F1: 8 points (column 7-8): rows 6-8 give 1, 9-10 give 2
    const o = outcomes(s);
    expect(o['skirmish F1 0 hits']).toBeCloseTo(0.5, 12);
    expect(o['skirmish F1 1 hit']).toBeCloseTo(0.3, 12);
    expect(o['skirmish F1 2 hits']).toBeCloseTo(0.2, 12);
    s = cer.apply(s, 'skirmish F1 2 hits', log);
    // nothing applied yet: the British roll first (B1: 5 points, column 5-6: rows 7-9 give 1, 10 gives 2)
    expect(figures(s, 'B1c')).toBe(16);
    expect(outcomes(s)['skirmish B1 1 hit']).toBeCloseTo(0.3, 12);
    s = cer.apply(s, 'skirmish B1 1 hit', log);
    expect(figures(s, 'B1c')).toBe(14);
    expect(figures(s, 'F1c')).toBe(19);
    // "KIA's from skirmish fire force a skill test": B1c's first (the units' order), then F1c's
    expect(top(s)).toEqual({ t: 'skill', unit: 'B1c', reason: 'skirmishKia' });
    s = cer.apply(s, 'skill B1c fail', log);
    expect(unitOf(s, 'B1c').disordered).toBe(true);
    expect(top(s)).toEqual({ t: 'skill', unit: 'F1c', reason: 'skirmishKia' });
    s = cer.apply(s, 'skill F1c pass', log);
    expect(unitOf(s, 'F1c').disordered).toBe(false);
    expect(top(s)).toEqual(STOP);
    expect(elementOf(s, 'B1').moraleTriggers.tookKia).toBe(true);
    expect(log.some((e) => e.rule === 'Skirmish Combat')).toBe(true);
  });

  it('each hit falls on a uniformly random unit of the target in the band: 1/3 a node, the multinomial over two hits', () => {
    // F1a, F1b and F1c all 4.5-6.5" from the hamlet: B1c's fire may hit any of them
    let s = at(at(at(chapel(), 'F1a', 20, 20), 'F1b', 28, 20), 'F1c', 24, 23);
    expect(skirmishPlan(s).find((f) => f.from === 'B1')!.targets).toEqual(['F1a', 'F1b', 'F1c']);
    s = s5(s);
    s = cer.apply(s, 'skirmish F1 0 hits');
    const p2 = outcomes(s)['skirmish B1 2 hits']!;
    expect(p2).toBeCloseTo(0.1, 12);
    s = cer.apply(s, 'skirmish B1 2 hits');
    // the paths to every way of spreading two hits over three units
    const spread = new Map<string, number>();
    const first = cer.chanceOutcomes(s);
    expect(first.map((o) => o.action)).toEqual(['skirmish hit F1a', 'skirmish hit F1b', 'skirmish hit F1c']);
    for (const a of first) {
      expect(a.p).toBeCloseTo(1 / 3, 12);
      const t = cer.apply(s, a.action);
      for (const b of cer.chanceOutcomes(t)) {
        const k = [a.action, b.action]
          .map((x) => x.slice(-3))
          .sort()
          .join('+');
        spread.set(k, (spread.get(k) ?? 0) + a.p * b.p);
      }
    }
    expect(spread.get('F1a+F1a')).toBeCloseTo(1 / 9, 12);
    expect(spread.get('F1a+F1b')).toBeCloseTo(2 / 9, 12);
    expect([...spread.values()].reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);
    // both on F1a: 2 KIA
    s = cer.apply(cer.apply(s, 'skirmish hit F1a'), 'skirmish hit F1a');
    expect(figures(s, 'F1a')).toBe(22);
    expect(figures(s, 'F1b')).toBe(24);
  });

  it('deployed artillery: 1 hit SUPPRESSED, no KIA', () => {
    let s = s5(at(chapel(), 'F1c', 38, 31));
    expect(skirmishPlan(at(chapel(), 'F1c', 38, 31))[0]!.targets).toEqual(['B1b', 'B1c', 'B1d']);
    s = cer.apply(s, 'skirmish F1 1 hit');
    s = cer.apply(s, 'skirmish hit B1d');
    const d = unitOf(s, 'B1d');
    expect(d.kind === 'artillery' && [d.suppressed, d.guns]).toEqual([true, 6]);
    // no KIA, no test (the British have nobody in the band with an open frontage: no roll of theirs)
    expect(top(s)).toEqual(STOP);
  });

  it('deployed artillery: 2 hits 1 KIA; damaged, it must pass a skill test or limber and withdraw 6"', () => {
    let s = s5(at(chapel(), 'F1c', 38, 31));
    s = cer.apply(s, 'skirmish F1 2 hits');
    s = cer.apply(cer.apply(s, 'skirmish hit B1d'), 'skirmish hit B1d');
    const rest = cer.chanceOutcomes(s).find((o) => o.action.startsWith('skirmish B1 0'));
    if (rest) s = cer.apply(s, rest.action);
    const d = unitOf(s, 'B1d');
    expect(d.kind === 'artillery' && [d.suppressed, d.guns]).toEqual([true, 5]);
    // the damaged battery's own test replaces the KIA test (Regular 7: 2D6 ≥ 7)
    expect(top(s)).toEqual({ t: 'skirmishGuns', unit: 'B1d' });
    expect(cer.chanceOutcomes(s).find((o) => o.action === 'skill B1d pass')!.p).toBeCloseTo(21 / 36, 12);
    const stands = cer.apply(s, 'skill B1d pass');
    expect(unitOf(stands, 'B1d').pos).toEqual(d.pos);
    const goes = cer.apply(s, 'skill B1d fail');
    const g = unitOf(goes, 'B1d');
    expect(g.kind === 'artillery' && [g.formation, g.disordered]).toEqual(['limbered', true]);
    expect(Math.hypot(g.pos.x - d.pos.x, g.pos.y - d.pos.y)).toBeCloseTo(6 * IN, -1);
  });
});
