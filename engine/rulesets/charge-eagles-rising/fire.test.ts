/**
 * Charge! Eagles Rising ranged fire (fire.ts): the digest's §10.1 (small arms) and §10.2 (artillery) vectors through
 * `shotOf` on units placed on an open table, flank fire doubling, the grand battery (C5), line of sight blocking fire,
 * fire through a skirmish line, and the simultaneous fire step: every volley rolled (exact distributions), then all
 * the hits applied together (C8).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IN } from '../../geometry/geometry.ts';
import { push } from '../../core/procedure.ts';
import { fireHitsDist } from './tables.ts';
import { fireStep, fireTargets, grandBatteries, shotOf, volleyDist } from './fire.ts';
import { cer } from './rules.ts';
import { initialState, parseScenario } from './scenario.ts';
import { type S, placed, unitOf, updUnit } from './state.ts';
import { sizeOf } from './shape.ts';
import type { InfantryState, UnitState } from './types.ts';
import type { Polygon } from '../../geometry/geometry.ts';
import type { TerrainArea } from '../../geometry/terrain.ts';

const area = (id: string, kind: string, polygon: Polygon): TerrainArea => ({
  id,
  kind,
  polygon,
  difficult: false,
  impassable: false,
  cover: 'none',
  blocksLos: false,
  seeThroughEdge: 0,
});
const figs = (s: S, id: string) => (unitOf(s, id) as InfantryState).figures;

const DIR = join(import.meta.dirname, '../../../data/scenarios/charge-eagles-rising');
const chapel = initialState(parseScenario(JSON.parse(readFileSync(join(DIR, 'the-chapel-crossroads.json'), 'utf8'))));

/** The Chapel Crossroads with no terrain and only the named units on the table. */
function openTable(ids: readonly string[]): S {
  const s = chapel as S;
  return {
    ...s,
    ctx: { ...s.ctx, terrain: { areas: [], lines: [] }, buas: [], rises: [] },
    units: s.units.map((u) => (ids.includes(u.id) ? u : { ...u, status: 'broken' as const })),
    stack: [],
  };
}

/** Put a unit with its front edge's centre at (x, y) inches, facing `facing`, with `patch`. */
function put(s: S, id: string, x: number, yFront: number, facing: number, patch: Partial<UnitState> = {}): S {
  const t = updUnit(s, id, { ...patch, facing } as Partial<UnitState>);
  const u = unitOf(t, id);
  const d = sizeOf(placed(t, u)).depth;
  // facing 0: the front edge is at the north; facing 180: at the south
  const y = facing === 0 ? yFront - d / 2 : yFront + d / 2;
  return updUnit(t, id, { pos: { x: Math.round(x * IN), y: Math.round(y * IN) } });
}

/** A firer facing north with its front edge at y 10, and a target facing south `range` inches ahead. */
function duel(
  firer: string,
  fp: Partial<UnitState>,
  target: string,
  tp: Partial<UnitState>,
  range: number,
  extra: readonly string[] = [],
): S {
  let s = openTable([firer, target, ...extra]);
  s = put(s, firer, 24, 10, 0, { status: 'active', ...fp } as Partial<UnitState>);
  s = put(s, target, 24, 10 + range, 180, { status: 'active', ...tp } as Partial<UnitState>);
  return s;
}

const inf = (figures: number, formation: string, more: object = {}) =>
  ({ figures, figuresStart: figures, formation, garrison: null, ...more }) as Partial<UnitState>;
const bty = (guns: number, gunType: string, crewClass: number, more: object = {}) =>
  ({
    guns,
    gunsStart: guns,
    gunType,
    crewClass,
    formation: 'unlimbered',
    limberedAtTurnStart: false,
    ...more,
  }) as Partial<UnitState>;

describe('§10.1 small arms through shotOf', () => {
  it('Regular 3-rank, 24 figures in Line (8 front) at 3" vs a Line in the open: 3 d10 needing 8', () => {
    const s = duel('F1a', inf(24, 'line', { class: 'regular', ranks: 3 }), 'B1a', inf(24, 'line'), 3);
    const sh = shotOf(s, 'F1a', 'B1a', 'fire')!;
    expect(sh).toMatchObject({ dice: 3, toHit: 8, band: 'effective', arm: 'smallArms' });
  });
  it('Regular 2-rank in Line (12 front) at 3.5" (long): 6 d10 needing 9', () => {
    const s = duel('B1a', inf(24, 'line', { class: 'regular', ranks: 2 }), 'F1a', inf(24, 'line'), 3.5);
    expect(shotOf(s, 'B1a', 'F1a', 'fire')).toMatchObject({ dice: 6, toHit: 9, band: 'long' });
  });
  it('Veteran rifles, 16 in Skirmish (8 front as 2-rank), at 5" (long) vs a Column in light cover: 4 d10, 9', () => {
    let s = duel(
      'B1c',
      inf(16, 'skirmish', { class: 'veteran', weapon: 'rifle', ranks: 2 }),
      'F1a',
      inf(24, 'column'),
      5,
    );
    const f1a = unitOf(s, 'F1a');
    const c = f1a.pos;
    const wood = [
      { x: c.x - 3 * IN, y: c.y - 3 * IN },
      { x: c.x + 3 * IN, y: c.y - 3 * IN },
      { x: c.x + 3 * IN, y: c.y + 3 * IN },
      { x: c.x - 3 * IN, y: c.y + 3 * IN },
    ];
    // the column stands just inside light woods: light cover; the rifles see 1.5" into it
    s = { ...s, ctx: { ...s.ctx, terrain: { areas: [area('w', 'lightWoods', wood)], lines: [] } } };
    expect(shotOf(s, 'B1c', 'F1a', 'fire')).toMatchObject({ dice: 4, toHit: 9, band: 'long' });
  });
  it('Elite in Line at charging infantry: 8 − 1 − 1 = 6', () => {
    const s = duel('F1a', inf(24, 'line', { class: 'elite' }), 'B1a', inf(24, 'line'), 2);
    expect(shotOf(s, 'F1a', 'B1a', 'closing', { targetCharging: 'infantry' })!.toHit).toBe(6);
  });
  it('Regular at a Skirmish-formation target at long range: 8 + 1 + 2 = 11', () => {
    const s = duel('F1a', inf(24, 'line', { class: 'regular' }), 'B1c', inf(16, 'skirmish'), 4);
    expect(shotOf(s, 'F1a', 'B1c', 'fire')!.toHit).toBe(11);
  });
  it('disordered, spent Militia at deployed artillery in medium cover: 16, never offered as a target', () => {
    let s = duel(
      'F1a',
      inf(24, 'line', { class: 'militia', disordered: true, spent: true, worn: true }),
      'B1d',
      bty(6, 'medium9', 2),
      2,
    );
    const c = unitOf(s, 'B1d').pos;
    const wood = [
      { x: c.x - 4 * IN, y: c.y - 0.5 * IN },
      { x: c.x + 4 * IN, y: c.y - 0.5 * IN },
      { x: c.x + 4 * IN, y: c.y + 3 * IN },
      { x: c.x - 4 * IN, y: c.y + 3 * IN },
    ];
    s = { ...s, ctx: { ...s.ctx, terrain: { areas: [area('w', 'denseWoods', wood)], lines: [] } } };
    expect(shotOf(s, 'F1a', 'B1d', 'fire')!.toHit).toBe(16);
    expect(fireTargets(s, 'F1a', 'fire')).toEqual([]);
  });
  it('a 3-rank battalion with regimental guns, 9 front: 3 + 1 = 4 d10', () => {
    const s = duel('F1a', inf(27, 'line', { ranks: 3, regimentalGuns: true }), 'B1a', inf(24, 'line'), 2);
    expect(shotOf(s, 'F1a', 'B1a', 'fire')!.dice).toBe(4);
  });
  it('out of range (4.01") and out of arc give no shot; cavalry never fire', () => {
    expect(shotOf(duel('F1a', inf(24, 'line'), 'B1a', inf(24, 'line'), 4.01), 'F1a', 'B1a', 'fire')).toBeNull();
    let s = duel('F1a', inf(24, 'line'), 'B1a', inf(24, 'line'), 2);
    // turned about: the target is behind it
    s = updUnit(s, 'F1a', { facing: 180 });
    expect(shotOf(s, 'F1a', 'B1a', 'fire')).toBeNull();
    s = duel('F2a', {}, 'B1a', inf(24, 'line'), 2);
    expect(shotOf(s, 'F2a', 'B1a', 'fire')).toBeNull();
  });
});

describe('§10.2 artillery through shotOf', () => {
  it('6-gun Medium 6-pdr, class 2, close range vs an infantry Column: 2 d10 needing 6', () => {
    const s = duel('F1d', bty(6, 'medium68', 2), 'B1a', inf(24, 'column'), 5);
    expect(shotOf(s, 'F1d', 'B1a', 'fire')).toMatchObject({ dice: 2, toHit: 6, band: 'close', arm: 'artillery' });
  });
  it('the same battery, closing fire at charging infantry in Line at 5": 6', () => {
    const s = duel('F1d', bty(6, 'medium68', 2), 'B1a', inf(24, 'line'), 5);
    expect(shotOf(s, 'F1d', 'B1a', 'closing')).toMatchObject({ dice: 2, toHit: 6 });
    expect(shotOf(s, 'F1d', 'B1a', 'fire')!.toHit).toBe(7);
  });
  it('8-gun Heavy, class 1, at 20" (effective) vs a Line: 2 d10 needing 7', () => {
    const s = duel('F1d', bty(8, 'heavy', 1), 'B1a', inf(24, 'line'), 20);
    expect(shotOf(s, 'F1d', 'B1a', 'fire')).toMatchObject({ dice: 2, toHit: 7, band: 'effective' });
  });
  it('6-gun Light, class 3, at 20" (long) vs a Line: 11', () => {
    const s = duel('F1d', bty(6, 'light', 3), 'B1a', inf(24, 'line'), 20);
    expect(shotOf(s, 'F1d', 'B1a', 'fire')).toMatchObject({ dice: 2, toHit: 11, band: 'long' });
  });
  it('6-gun Medium 9-pdr, class 2, at 14" from the target\'s flank vs a Line: 2 × 2 = 4 d10 needing 8', () => {
    let s = duel('B1d', bty(6, 'medium9', 2), 'F1a', inf(24, 'line'), 14);
    // the target faces east: the battery (south of it) is on its right flank
    s = updUnit(s, 'F1a', { facing: 90 });
    const sh = shotOf(s, 'B1d', 'F1a', 'fire')!;
    expect(sh).toMatchObject({ dice: 4, toHit: 8, band: 'effective', flank: true });
    // not at long range, and never against infantry in column
    expect(shotOf(updUnit(s, 'F1a', { formation: 'column' }), 'B1d', 'F1a', 'fire')!.dice).toBe(2);
  });
  it('10 guns at long range vs a Square: 3 d10 needing 8 + 1 − 2 = 7', () => {
    const s = duel('F1d', bty(10, 'medium68', 2), 'B1a', inf(24, 'solidSquare'), 30);
    expect(shotOf(s, 'F1d', 'B1a', 'fire')).toMatchObject({ dice: 3, toHit: 7, band: 'long' });
  });
  it('4-gun Light, class 2, disordered, worn, vs limbered artillery at effective range: 1 d10 needing 11', () => {
    const s = duel(
      'F1d',
      bty(4, 'light', 2, { disordered: true, worn: true }),
      'B1d',
      bty(6, 'medium9', 2, { formation: 'limbered', limberedAtTurnStart: true }),
      8,
    );
    expect(shotOf(s, 'F1d', 'B1d', 'fire')).toMatchObject({ dice: 1, toHit: 11 });
  });
  it('C3: 9 guns roll 2 d10 (3 with nineGunDice 3)', () => {
    const s = duel('F1d', bty(9, 'medium68', 2), 'B1a', inf(24, 'line'), 10);
    expect(shotOf(s, 'F1d', 'B1a', 'fire')!.dice).toBe(2);
    const o = { ...s, ctx: { ...s.ctx, options: { ...s.ctx.options, nineGunDice: 3 as const } } };
    expect(shotOf(o, 'F1d', 'B1a', 'fire')!.dice).toBe(3);
  });
});

describe('grand battery, sight, skirmish screens (C5)', () => {
  function threeBatteries(spacing: number): S {
    let s = openTable(['F1d', 'B1d', 'B1a', 'F1a', 'F1b']);
    // three batteries of the British side: B1d and two borrowed French units turned into British batteries
    s = put(s, 'B1a', 24, 10, 0, {
      ...bty(6, 'medium9', 2),
      kind: 'artillery',
      mobility: 'foot',
    } as Partial<UnitState>);
    s = put(s, 'B1d', 24 + 3 + spacing, 10, 0, bty(6, 'medium9', 2));
    s = put(s, 'F1b', 24 - 3 - spacing, 10, 0, {
      ...bty(6, 'medium9', 2),
      kind: 'artillery',
      mobility: 'foot',
      side: 1,
    } as Partial<UnitState>);
    s = put(s, 'F1a', 24, 25, 180, inf(24, 'line'));
    return s;
  }
  it('3 batteries within 2" of one another at one target: −1 each; 2" too far apart: none', () => {
    const s = threeBatteries(1.5);
    const orders = ['B1a', 'B1d', 'F1b'].map((firer) => ({ firer, target: 'F1a' }));
    expect([...grandBatteries(s, orders)].sort()).toEqual(['B1a', 'B1d', 'F1b']);
    expect(shotOf(s, 'B1a', 'F1a', 'fire', { grandBattery: true })!.toHit).toBe(
      shotOf(s, 'B1a', 'F1a', 'fire')!.toHit - 1,
    );
    expect(grandBatteries(threeBatteries(2.5), orders).size).toBe(0);
    // at two targets: none
    expect(grandBatteries(s, [...orders.slice(0, 2), { firer: 'F1b', target: 'F1d' }]).size).toBe(0);
    // grandBatteryMin 2
    const two = { ...s, ctx: { ...s.ctx, options: { ...s.ctx.options, grandBatteryMin: 2 as const } } };
    expect(grandBatteries(two, orders.slice(0, 2)).size).toBe(2);
  });
  it('a unit between firer and target blocks the fire; an enemy skirmish screen lets artillery through at +1', () => {
    let s = duel('F1d', bty(6, 'medium68', 2), 'B1a', inf(24, 'line'), 12, ['B1b']);
    expect(shotOf(s, 'F1d', 'B1a', 'fire')!.toHit).toBe(8);
    // a friend of the target in line between them: blocked
    const blocked = put(s, 'B1b', 24, 16, 180, {
      ...inf(40, 'line', { ranks: 2 }),
      status: 'active',
    } as Partial<UnitState>);
    expect(shotOf(blocked, 'F1d', 'B1a', 'fire')).toBeNull();
    // the same unit as a skirmish screen: artillery fires through it at +1
    s = put(s, 'B1b', 24, 16, 180, { ...inf(40, 'skirmish', { ranks: 2 }), status: 'active' } as Partial<UnitState>);
    expect(shotOf(s, 'F1d', 'B1a', 'fire')).toMatchObject({ toHit: 9, throughSkirmish: true });
  });
});

describe('the fire step: volleys rolled, then applied together (C8)', () => {
  it("volley outcomes are the tables' exact distribution; both sides' hits are applied after both volleys", () => {
    let s = duel('F1a', inf(24, 'line', { ranks: 3 }), 'B1a', inf(24, 'line', { ranks: 2 }), 2);
    s = { ...s, phase: 'end' };
    s = fireStep(
      s,
      [
        { firer: 'F1a', target: 'B1a', kind: 'fire', dice: null },
        { firer: 'B1a', target: 'F1a', kind: 'return', dice: null },
      ],
      'T2c',
      undefined,
    );
    expect(s.stack.map((f) => f.t)).toEqual(['fireApply', 'volley', 'volley']);
    const o1 = cer.chanceOutcomes(s);
    expect(o1.map((o) => o.p)).toEqual(fireHitsDist(3, 8).map((d) => d.p));
    // F1a hits 3; B1a's figures are untouched until the return volley is rolled too
    s = cer.apply(s, 'hits F1a B1a 3');
    expect(figs(s, 'B1a')).toBe(24);
    const o2 = cer.chanceOutcomes(s);
    expect(o2.map((o) => o.p)).toEqual(volleyDist(s, 6, 8).map((d) => d.p));
    // B1a returns fire with all 6 dice although it is about to lose 3 figures (simultaneous)
    expect(o2.length).toBe(7);
    const log: { rule: string; text: string }[] = [];
    s = cer.apply(s, 'hits B1a F1a 2', log);
    expect(figs(s, 'B1a')).toBe(21);
    expect(figs(s, 'F1a')).toBe(22);
    expect(log.some((e) => e.rule === 'C8')).toBe(true);
    // both MEs are committed (C2)
    expect(s.elements.find((e) => e.id === 'B1')!.committed).toBe(true);
  });
  it('a volley with no collector below applies its hits at once', () => {
    let s = duel('F1a', inf(24, 'line'), 'B1a', inf(24, 'line'), 2);
    s = push(
      { ...s, phase: 'end' },
      { t: 'volley', firer: 'F1a', target: 'B1a', dice: 3, toHit: 8, kind: 'closing', band: 'effective' },
    );
    s = cer.apply(s, 'hits F1a B1a 1');
    expect(figs(s, 'B1a')).toBe(23);
  });
});
