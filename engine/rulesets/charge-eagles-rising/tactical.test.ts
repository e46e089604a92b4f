/**
 * Charge! Eagles Rising's tactical phase (tactical.ts) on The Chapel Crossroads: T2 begins with the first side's
 * activations (C8: each ME once), a move's terrain cost and its disorder (the hedge's test, light woods' automatic
 * disorder), a formation change in a threat zone (+1, failure disordered but made, C6), the order limits (C2) and C7,
 * return fire with both sides' hits applied together (C8), and T2d recovery (the safe −3, BLOWN removed unmoved).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IN } from '../../geometry/geometry.ts';
import { cer } from './rules.ts';
import { initialState, parseScenario } from './scenario.ts';
import { sizeOf } from './shape.ts';
import { type S, placed, unitOf, updElement, updUnit } from './state.ts';
import { skillNumberFor } from './casualties.ts';
import { skillTestDist } from './tables.ts';
import { chargeOptions } from './charges.ts';
import { movePassChance, moveTestNumber, planMove, recoverySafe, unitOptions } from './tactical.ts';
import type { InfantryState, UnitState } from './types.ts';

const DIR = join(import.meta.dirname, '../../../data/scenarios/charge-eagles-rising');
const chapel = initialState(
  parseScenario(JSON.parse(readFileSync(join(DIR, 'the-chapel-crossroads.json'), 'utf8'))),
) as S;

/** The Chapel Crossroads at the start of the French T2 (after T1, the French first). */
function atT2(s: S = chapel): S {
  return cer.settle({ ...s, phase: 'T1', firstSide: 0, stack: [] } as S);
}

/** A unit with its front edge's centre at (x, yFront), facing `facing` (0 north, 180 south). */
function put(s: S, id: string, x: number, yFront: number, facing: number, patch: Partial<UnitState> = {}): S {
  const t = updUnit(s, id, { ...patch, facing } as Partial<UnitState>);
  const d = sizeOf(placed(t, unitOf(t, id))).depth;
  const y = facing === 0 ? yFront - d / 2 : yFront + d / 2;
  return updUnit(t, id, { pos: { x: Math.round(x * IN), y: Math.round(y * IN) } });
}
const figs = (s: S, id: string) => (unitOf(s, id) as InfantryState).figures;
const only = (s: S, ids: readonly string[]): S => ({
  ...s,
  units: s.units.map((u) => (ids.includes(u.id) ? u : { ...u, status: 'broken' as const })),
});

describe('T2a activations (C8)', () => {
  it('T2 begins with the first side choosing an ME; each ME is activated at most once', () => {
    let s = atT2();
    expect(s.phase).toBe('T2');
    expect(s.tactical?.activeSide).toBe(0);
    expect(cer.legalActions(s)).toEqual(['activate F1', 'activate F2', 'end activations']);
    s = cer.apply(s, 'activate F1');
    expect(s.tactical?.activeElement).toBe('F1');
    for (const u of ['F1a', 'F1b', 'F1c', 'F1d']) {
      expect(cer.describe(s)).toContain(u);
      expect(cer.legalActions(s)).toContain(`hold ${u}`);
      s = cer.apply(s, `hold ${u}`);
    }
    expect(cer.legalActions(s)).toEqual(['activate F2', 'end activations']);
  });
  it('C7: an ME that moved strategically may only Fire or Hold', () => {
    const s = atT2(updElement(chapel, 'F1', { strategicMoveThisTurn: true }));
    expect(unitOptions(s, 'F1a')).toEqual(['hold F1a']);
    expect(unitOptions(atT2(), 'F1a').length).toBeGreaterThan(40);
  });
  it('C2: a Reserve ME may not fire in its own activation, and may not close on the enemy within 10"', () => {
    let s = atT2(only(chapel, ['B2a', 'F1a']));
    s = put(s, 'F1a', 10, 34, 0, { formation: 'line' } as Partial<UnitState>);
    s = put(s, 'B2a', 10, 40, 180);
    expect(unitOptions(s, 'B2a').some((a) => a.startsWith('move B2a fwd'))).toBe(false);
    expect(unitOptions(s, 'B2a')).toContain('move B2a back 1');
  });
});

describe('movement: terrain cost and disorder (C6)', () => {
  it('crossing the hedge costs 1.5" of a column\'s 8" and calls for a skill test', () => {
    let s = atT2(only(chapel, ['F1b', 'B1b']));
    s = put(s, 'F1b', 34, 24, 0);
    const pm = planMove(s, 'F1b', { dir: 'fwd', frac: 1, change: null, dq: false })!;
    expect(pm.moved).toBe(650);
    expect(pm.tests).toEqual(['terrain']);
    expect(pm.disorder).toEqual([]);
    s = cer.apply(s, 'activate F1');
    s = cer.apply(s, 'move F1b fwd 1');
    // the test is a chance node with the skill table's chance
    const o = cer.chanceOutcomes(s);
    const pass = skillTestDist(moveTestNumber(s, 'F1b', 'terrain')).find((d) => d.value)!.p;
    expect(o.map((x) => x.action)).toEqual(['movetest F1b pass', 'movetest F1b fail']);
    expect(o[0]!.p).toBeCloseTo(pass, 12);
    s = cer.apply(s, 'movetest F1b fail');
    expect(unitOf(s, 'F1b').disordered).toBe(true);
    expect(unitOf(s, 'F1b').pos.y - unitOf(chapel, 'F1b').pos.y).toBeGreaterThan(0);
  });
  it('formed infantry moving into light woods pays 1.5" extra an inch and is disordered', () => {
    let s = atT2(only(chapel, ['F1a']));
    s = put(s, 'F1a', 10, 18, 0);
    const pm = planMove(s, 'F1a', { dir: 'fwd', frac: 1, change: null, dq: false })!;
    // 2" to the wood's edge, then 6" of allowance at 2.5" an inch: 2.4" in
    expect(pm.moved).toBeGreaterThan(420);
    expect(pm.moved).toBeLessThan(460);
    expect(pm.disorder).toEqual(['lightWoods']);
    expect(pm.tests).toEqual([]);
  });
  it('double quick adds 5" and disorders', () => {
    let s = atT2(only(chapel, ['F1a']));
    s = put(s, 'F1a', 30, 12, 0);
    const pm = planMove(s, 'F1a', { dir: 'fwd', frac: 1, change: null, dq: true })!;
    expect(pm.moved).toBe(1300);
    expect(pm.disorder).toEqual(['double quick']);
  });
  it('a move stops short of another unit; a back move uses the retiring rate', () => {
    let s = atT2(only(chapel, ['F1a', 'F1b']));
    s = put(s, 'F1a', 30, 12, 0);
    s = put(s, 'F1b', 30, 17, 0);
    const pm = planMove(s, 'F1a', { dir: 'fwd', frac: 1, change: null, dq: false })!;
    expect(pm.moved).toBeLessThan(200);
    const back = planMove(s, 'F1a', { dir: 'back', frac: 1, change: null, dq: false })!;
    expect(back.moved).toBe(600);
    expect(back.retiring).toBe(true);
  });
});

describe('a formation change within a threat zone (C6)', () => {
  it('is tested at +1; a failure disorders but the change is made', () => {
    let s = atT2(only(chapel, ['F1a', 'B1a']));
    s = put(s, 'F1a', 18, 32, 0); // B1a's front edge is at y 35.5: 3.5" away, in its 5" zone
    const pm = planMove(s, 'F1a', { dir: null, frac: 1, change: 'line', dq: false })!;
    expect(pm.tests).toEqual(['formationChange']);
    const n = moveTestNumber(s, 'F1a', 'formationChange');
    expect(n).toBe(moveTestNumber(s, 'F1a', 'terrain') + 1);
    expect(movePassChance(s, 'F1a', ['formationChange'])).toBeCloseTo(skillTestDist(n).find((d) => d.value)!.p, 12);
    // out of the zone: no test
    const far = put(s, 'F1a', 18, 25, 0);
    expect(planMove(far, 'F1a', { dir: null, frac: 1, change: 'line', dq: false })!.tests).toEqual([]);
    s = cer.apply(s, 'activate F1');
    s = cer.apply(s, 'form F1a line');
    s = cer.apply(s, 'movetest F1a fail');
    expect(unitOf(s, 'F1a')).toMatchObject({ formation: 'line', disordered: true });
  });
});

describe('T2c: fire and return fire, simultaneous (C8)', () => {
  it('the enemy unit fired on returns fire; both volleys are rolled before either loss is applied', () => {
    let s = atT2(only(chapel, ['F1a', 'F1b', 'B1a']));
    s = put(s, 'F1a', 18, 30, 0, { formation: 'line' } as Partial<UnitState>);
    s = put(s, 'F1b', 40, 10, 0);
    s = put(s, 'B1a', 18, 32, 180);
    s = cer.apply(s, 'activate F1');
    expect(cer.legalActions(s)).toContain('fire F1a B1a');
    s = cer.apply(s, 'fire F1a B1a');
    s = cer.apply(s, 'hold F1b');
    expect(cer.toMove(s)).toEqual({ kind: 'player', player: 1 });
    expect(cer.legalActions(s)).toEqual(['return B1a F1a', 'no return B1a']);
    s = cer.apply(s, 'return B1a F1a');
    expect(unitOf(s, 'B1a').phase.returnFiredVs).toEqual(['F1']);
    s = cer.apply(s, 'hits F1a B1a 2');
    expect(figs(s, 'B1a')).toBe(24);
    s = cer.apply(s, 'hits B1a F1a 3');
    expect(figs(s, 'B1a')).toBe(22);
    expect(figs(s, 'F1a')).toBe(21);
  });
});

describe('T2d: recovery (C11)', () => {
  it('a disordered unit may test to recover: −3 when no enemy is within 1 move', () => {
    let s = atT2(only(chapel, ['F1a', 'B1a']));
    s = put(s, 'F1a', 18, 12, 0, { disordered: true } as Partial<UnitState>);
    expect(recoverySafe(s, 'F1a')).toBe(true);
    s = cer.apply(s, 'activate F1');
    s = cer.apply(s, 'hold F1a');
    expect(cer.legalActions(s)).toEqual(['recover F1a', 'no recover F1a']);
    s = cer.apply(s, 'recover F1a');
    const n = skillNumberFor(s, 'F1a', 'recover', true)!;
    expect(n).toBe(skillNumberFor(s, 'F1a', 'recover', false)! - 3);
    expect(cer.chanceOutcomes(s).find((o) => o.action.endsWith('pass'))!.p).toBeCloseTo(
      skillTestDist(n).find((d) => d.value)!.p,
      12,
    );
    s = cer.apply(s, 'skill F1a pass');
    expect(unitOf(s, 'F1a').disordered).toBe(false);
    // near the enemy: not safe
    const near = put(s, 'F1a', 18, 31, 0);
    expect(recoverySafe(near, 'F1a')).toBe(false);
  });
  it('blown cavalry that did not move loses BLOWN; disordered too, it chooses which', () => {
    let s = atT2(only(chapel, ['F2a', 'F2b', 'B1a']));
    s = updUnit(s, 'F2a', { blown: true } as Partial<UnitState>);
    s = updUnit(s, 'F2b', { blown: true, disordered: true } as Partial<UnitState>);
    s = cer.apply(s, 'activate F2');
    s = cer.apply(s, 'hold F2a');
    s = cer.apply(s, 'hold F2b');
    expect(unitOf(s, 'F2a')).toMatchObject({ blown: false });
    expect(cer.legalActions(s)).toEqual(['recover F2b', 'unblow F2b']);
    s = cer.apply(s, 'unblow F2b');
    expect(unitOf(s, 'F2b')).toMatchObject({ blown: false, disordered: true });
  });
  it('"may attempt to recover … if not charging": a unit that lost BLOWN (or tried to recover) this phase does not charge', () => {
    // F2 on Attack; F2a, blown, 8" in front of B1a's line, holds: T2d takes BLOWN off (it did not move)
    const attack = { ...chapel.elements.find((e) => e.id === 'F2')!.order!, type: 'attack' as const };
    // F1a stays on the table, so the French activations go on after F2's
    let s = atT2(only(updElement(chapel, 'F2', { order: attack }), ['F1a', 'F2a', 'F2b', 'B1a']));
    s = put(s, 'F2a', 18, 35.5 - 8, 0, { blown: true } as Partial<UnitState>);
    s = put(s, 'F2b', 40, 10, 0);
    s = cer.apply(cer.apply(cer.apply(s, 'activate F2'), 'hold F2a'), 'hold F2b');
    const f2a = unitOf(s, 'F2a');
    expect(f2a).toMatchObject({ blown: false, phase: { recoveryTried: true } });
    expect(chargeOptions(s, f2a, false)).toEqual([]);
    // the same regiment, had it not recovered, could charge B1a from there
    const fresh = updUnit(s, 'F2a', { phase: { ...f2a.phase, recoveryTried: false } } as Partial<UnitState>);
    expect(chargeOptions(fresh, unitOf(fresh, 'F2a'), false).map((c) => c.target)).toContain('B1a');
  });
});

describe('Move & Fire [T2a]', () => {
  it('a change of formation in place is the move: the unit may then fire', () => {
    // F1a in column 3" in front of B1a's line: it deploys into line where it stands and may fire
    let s = atT2(only(chapel, ['F1a', 'B1a']));
    s = put(s, 'F1a', 18, 35.5 - 3, 0);
    s = cer.apply(s, 'activate F1');
    expect(cer.legalActions(s)).toContain('form F1a line');
    s = cer.apply(s, 'form F1a line');
    expect(unitOf(s, 'F1a').formation).toBe('line');
    // its threat-zone test first, then the Move & Fire choice
    expect(s.stack.map((f) => f.t)).toContain('moveFire');
  });
});
