/**
 * Charge! Eagles Rising, the tactical phase's own flow [T2, T3; T2a, T2c, T2d; Movement; Movement Notes; Terrain;
 * Skill Tests; C2, C6, C7, C8, C11]: each side's ME activations in turn, their units' Hold / Move / Fire / Move & Fire,
 * the simultaneous fire of the activated ME with the enemy's return fire (fire.ts), recovery, and then the side's
 * charges (charges.ts `beginCharges`).
 *
 * The flow (frames.ts `TacticalFrame`), for the active side (T2: `s.firstSide`, T3: the other):
 * - `activation` [T2a]: `activate ME` for an ME not activated this phase (C8: at most once), or `end activations`.
 * - per unit of the ME, in order, `unitAction`: `hold U`, `fire U T`, a move (`move U DIR FRAC [FORM|dq]`) or a
 *   formation change in place (`form U FORM`); after a move, `moveFire` offers the fire of Move & Fire (`fire U T` |
 *   `no fire U`): "units may not move after firing", so a unit's one decision is its whole action.
 * - after a move, one `moveTest` (chance) for every skill test the move calls for, then `moved`, which calls the
 *   charges chapter's `afterEnemyMove` (C8 opportunity charges).
 * - `t2c` [T2c; C8]: every enemy unit fired on may return fire once per enemy ME activation (`returnFire`: `return U
 *   T` | `no return U`, the non-active side decides); then `fireResolve`: all the ME's fire and the return fire in
 *   one simultaneous step (fire.ts `fireStep`: rolled, then applied together).
 * - `recoverAll` [T2d]: each unit may try to remove disorder (`recover U` → casualties.ts skill test 'recover' with
 *   `safe`; `no recover U`); BLOWN goes automatically if the unit did not move this phase (C11); only one of B or D.
 * - `activationsDone`: the side's charges (charges.ts `beginCharges`, T2b/T2e); `tacticalEnd` clears the per-phase
 *   flags and `s.tactical`.
 *
 * The move menu (digest §9, kept small for search): DIR ∈ fwd, l22, r22, l45, r45 (a wheel of 22.5° or 45° to the
 * left or right, then straight ahead), back (straight back, facing kept: the retiring rates), left, right (a shift,
 * facing kept); FRAC ∈ 1/4, 1/2, 3/4, 1 of the allowance left after any formation-change cost; `dq` (fwd and the
 * wheels, the whole allowance): double quick; FORM after a move (fwd, l45, r45 with 1/2 or 1): a formation change at
 * its end. `form U FORM` changes formation (or about-faces) in place; a garrison leaves its BUA by forming line or
 * column at its centre, and infantry whose centre stands in an empty BUA may garrison it.
 *
 * Readings (the README lists them):
 * - Allowance [Movement]: the tactical rate of the formation the unit moves in (tables.ts `moveRate`: C6 armored as
 *   heavy, march column at the column rate, squares at the square rate, blown cavalry at its blown rate); a move
 *   `back` uses the retiring rates (C6: "a move with a net rearward displacement, facing kept"); wheels and shifts are
 *   not retiring. Double quick adds +5" foot / +8" mounted (BOOK vs DIGEST 2 in tables.ts) and the unit is disordered
 *   at its end (C6). The tactical double quick's skill test is not rolled: its only failure is disorder, which the
 *   move gives anyway. Artillery does not double quick.
 * - Costs [Movement Notes; C6]: a formation change, an about face or a shift costs 2" (infantry), 4" (cavalry), and
 *   limbering or unlimbering `limberCost` (2"); a shift pays the cost once plus its distance. A formation change is
 *   made at the END of the move (a column advances, then deploys), at the allowance of the formation it moves in;
 *   artillery limbers at the START (and then moves at the limbered rate) and unlimbers at the end. The footprint's
 *   front-edge centre stays where it is when it changes formation (an about face turns about its centre).
 * - Wheels [Movement Notes]: "measured at the outer flank": a wheel pivots on the inner front corner and costs the arc
 *   its outer flank travels (frontage × angle in radians), then the unit advances straight ahead.
 * - Terrain [Terrain; C6]: the move's cost is its length plus the terrain's extra costs (shape.ts `moveCost` with
 *   tables.ts `terrainExtraCost`); a move goes straight as far as its budget, the table's edge, other units and
 *   impassable ground allow (it stops short of them). Disorder: an area whose row says "Disordered" (auto) or
 *   "Disordered while moving" disorders a unit that moves in it (the footprint in it at some point of the move); a
 *   "pass skill test for not Disordered" row (rough ground; light woods for skirmishers; every linear obstacle and
 *   stream crossed; a steep rise whose edge the unit's centre crosses) calls for one skill test for the move.
 * - Skill tests [Skill Tests]: a formation change (not an about face or a shift) where the unit's new footprint lies in
 *   an enemy's threat zone: +1, failure disordered but the change is made (C6); retiring cavalry starting or ending in
 *   a threat zone; the terrain test. Each is rolled as one chance node per move (`moveTest`: the unit stays in order
 *   only if it passes them all, exactly Π P(pass)); none is rolled for a unit already disordered (failure could not
 *   change it). The modifiers are the sheets' (attached leader, column / Linear-doctrine line, worn, spent, out of
 *   command or integrity, the threat-zone +1); cover counts only for tests caused by fire (C11).
 * - Interpenetration (C6): none, but the stated passage of lines: a column (or march column) may pass through ONE
 *   friendly infantry battalion in line if both start within 2" and the line has not moved this phase; it may not end
 *   on it. Enemy units may not be touched by a move (contact is a charge's).
 * - Orders (C2, digest §6.1): Reserve units may not Fire or Move & Fire (they return and give closing fire only) and a
 *   move must end ≥ 10" from every enemy or not closer to the nearest; Withdraw moves must end farther from the
 *   nearest enemy (a formation change in place: not closer); Hold moves must end within 6" of the anchor (a unit
 *   already beyond: not farther). An ME with no order moves freely. C7: an ME that moved strategically this turn may
 *   only Fire or Hold (no Move, no formation change).
 * - Artillery (C8): Move & Fire only by prolonging (an unlimbered battery's move without limbering; heavy foot
 *   artillery cannot prolong); a battery that limbers, unlimbers or moves limbered does not fire this activation.
 * - "Moved" (charges, blown recovery): a move, a wheel, a shift or a formation change in place all count.
 * - Fire [T2c; C8]: the `fire U T` choices are recorded in `tactical.fireQueue` and resolved together after the last
 *   unit of the ME has acted, so a later unit's move may take a target out of an earlier firer's sight (the fire is
 *   then lost, said so). Return fire: each enemy unit that was a target, at any unit of the active ME in its arc,
 *   range and sight, once per enemy ME activation (`phase.returnFiredVs`); it does not set the unit's `fired` flag.
 * - Recovery [T2d; C11]: offered to every disordered unit of the activated ME (no unit is charging yet: charges come
 *   after the activations, C8). `safe`: no enemy unit within its own tactical move of the unit (edge to edge), or a
 *   friendly unit in the unit's front arc nearer than the nearest enemy (shape.ts `openFrontage` false: "behind a
 *   friendly unit"). A blown cavalry unit that did not move loses BLOWN automatically unless it is also disordered, when
 *   it chooses which to remove (`unblow U` | `recover U`), "either blown or disorder in 1 phase".
 * - C8 abandoned guns: the crew re-mans an abandoned battery when its ME is activated, if no enemy is within 1".
 * - Cavalry doubling (optional in the sheets) is not offered.
 */
import {
  IN,
  type Vec,
  bbox,
  boxDistance,
  dist,
  pointInPolygon,
  pointPolygonDistance,
  polygonDistance,
  wheel,
} from '../../geometry/geometry.ts';
import type { AutoHandler, ChanceHandler, DecisionHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { afterEnemyMove, beginCharges } from './charges.ts';
import { attachedInspiration, outOfCommand } from './casualties.ts';
import { canFire, fireStep, fireTargets } from './fire.ts';
import type { TacticalFrame } from './frames.ts';
import { type TerrainRow, gap, inThreatZone, moveCost, openFrontage, polyOf, rectOf, sizeOf } from './shape.ts';
import {
  HOLD_ANCHOR_RADIUS,
  MOVEMENT_NOTES,
  type TerrainDisorder,
  moveBonus,
  moveRate,
  skillNumber,
  skillTestDist,
  terrainExtraCost,
  terrainRow,
} from './tables.ts';
import type { Formation, Order, Side, TacticalState, UnitState } from './types.ts';
import { NO_PHASE_FLAGS } from './types.ts';
import {
  type Action,
  type S,
  elementOf,
  elementUnits,
  inches,
  onTable,
  orderOfElement,
  other,
  placed,
  say,
  sideName,
  unitOf,
  unitsOf,
  updElement,
  updUnit,
} from './state.ts';

type F<K extends TacticalFrame['t']> = Extract<TacticalFrame, { t: K }>;

// ---------------------------------------------------------------------------------------------------------------------
// The phase: begin, end
// ---------------------------------------------------------------------------------------------------------------------

/** [T2, T3] the first side's (T2) or the second side's (T3) tactical phase: its ME activations, then its charges. */
export function beginTactical(which: 'T2' | 'T3'): (s: S, log: Log) => S {
  return (s, log) => {
    const first = s.firstSide ?? 0;
    const side: Side = which === 'T2' ? first : other(first);
    const tactical: TacticalState = {
      activeSide: side,
      activeElement: null,
      charges: [],
      reactions: [],
      fireQueue: [],
      cacQueue: [],
      exploitQueue: [],
    };
    say(log, which, `${sideName(s, side)}'s tactical phase: ME activations (T2a)`);
    const t: S = { ...clearPhase(s), tactical };
    return push(t, { t: 'tacticalEnd', side }, { t: 'activationsDone', side }, { t: 'activation', side });
  };
}

/** Per-phase flags cleared, no ME activated. */
function clearPhase(s: S): S {
  return {
    ...s,
    units: s.units.map((u) => (u.phase === NO_PHASE_FLAGS ? u : { ...u, phase: NO_PHASE_FLAGS })),
    elements: s.elements.map((e) => (e.activatedThisPhase ? { ...e, activatedThisPhase: false } : e)),
  };
}

function tac(s: S): TacticalState {
  if (!s.tactical) throw new Error('no tactical phase under way');
  return s.tactical;
}
const updTac = (s: S, patch: Partial<TacticalState>): S => ({ ...s, tactical: { ...tac(s), ...patch } });
const updPhase = (s: S, id: string, patch: Partial<UnitState['phase']>): S =>
  updUnit(s, id, { phase: { ...unitOf(s, id).phase, ...patch } });

// ---------------------------------------------------------------------------------------------------------------------
// T2a: activations
// ---------------------------------------------------------------------------------------------------------------------

/** [T2a; C8] the MEs a side may still activate this phase. */
function activatable(s: S, side: Side): string[] {
  return s.elements
    .filter((e) => e.side === side && !e.broken && !e.activatedThisPhase && elementUnits(s, e).length > 0)
    .map((e) => e.id);
}

const activationHandler: DecisionHandler<S, F<'activation'>, Action> = {
  kind: 'decision',
  owner: (f) => f.side,
  legal: (s, f) => [...activatable(s, f.side).map((e) => `activate ${e}`), 'end activations'],
  skip: (s, f) => activatable(s, f.side).length === 0,
  step(s, f, a, log) {
    if (a === 'end activations') {
      say(log, 'T2a', `${sideName(s, f.side)} end their ME activations`);
      return s;
    }
    const id = a.slice('activate '.length);
    const e = elementOf(s, id);
    let t = updElement(s, id, { activatedThisPhase: true });
    t = updTac(t, { activeElement: id, fireQueue: [] });
    say(
      log,
      'T2a',
      `${sideName(s, f.side)} activate ${e.name}${e.strategicMoveThisTurn ? ' (moved strategically: Fire or Hold only, C7)' : ''}`,
    );
    // C8: an abandoned battery's crew re-mans it at its ME's next activation, if no enemy is within 1"
    for (const u of elementUnits(t, e))
      if (u.kind === 'artillery' && u.abandoned) {
        const near = unitsOf(t, other(u.side)).some((x) => gap(placed(t, u), placed(t, x)) <= IN);
        if (!near) {
          t = updUnit(t, u.id, { abandoned: false });
          say(log, 'C8', `${u.name}'s crew re-man the guns`);
        }
      }
    const units = elementUnits(t, e).map((u) => ({ t: 'unitAction' as const, unit: u.id }));
    return push(t, f, { t: 'recoverAll', element: id }, { t: 't2c', element: id }, ...units.reverse());
  },
  describe: (s, f) => `${sideName(s, f.side)}: activate an ME or end the activations [T2a]`,
};

const activationsDoneHandler: AutoHandler<S, F<'activationsDone'>> = {
  kind: 'auto',
  run: (s, f, log) => beginCharges(updTac(s, { activeElement: null }), f.side, log),
};

const tacticalEndHandler: AutoHandler<S, F<'tacticalEnd'>> = {
  kind: 'auto',
  run(s, f, log) {
    say(log, s.phase === 'T3' ? 'T3' : 'T2', `${sideName(s, f.side)}'s tactical phase ends`);
    return { ...clearPhase(s), tactical: null };
  },
};

// ---------------------------------------------------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------------------------------------------------

type Dir = 'fwd' | 'l22' | 'r22' | 'l45' | 'r45' | 'back' | 'left' | 'right';
const DIRS: readonly Dir[] = ['fwd', 'l22', 'r22', 'l45', 'r45', 'back', 'left', 'right'];
const WHEEL_DEG: Readonly<Record<Dir, number>> = {
  fwd: 0,
  l22: -22.5,
  r22: 22.5,
  l45: -45,
  r45: 45,
  back: 0,
  left: 0,
  right: 0,
};
const FRACS: Readonly<Record<string, number>> = { '1/4': 0.25, '1/2': 0.5, '3/4': 0.75, '1': 1 };

/** A formation a unit may change to, or `about` (about face). */
type Change = Formation | 'about';

/** A move (`dir` null: a formation change in place). */
export interface MoveSpec {
  readonly dir: Dir | null;
  readonly frac: number;
  readonly change: Change | null;
  readonly dq: boolean;
}

/** A move as planned: the unit where it ends, and what the move brings. */
export interface PlannedMove {
  readonly unit: UnitState;
  /** Distance moved by the centre (1/100"), the wheel's arc included. */
  readonly moved: number;
  readonly retiring: boolean;
  /** Disordered by the move itself (terrain, double quick). */
  readonly disorder: readonly string[];
  /** Skill tests the move calls for. */
  readonly tests: readonly MoveTestReason[];
  /** C8: a battery that prolonged (may Move & Fire). */
  readonly prolonged: boolean;
  readonly text: string;
}

export type MoveTestReason = 'terrain' | 'formationChange' | 'retiringCavalry';

const changeCost = (s: S, u: UnitState): number =>
  u.kind === 'artillery'
    ? s.ctx.options.limberCost
    : MOVEMENT_NOTES.formationChangeCost[u.kind === 'cavalry' ? 'cavalry' : 'infantry'];

/** [Movement] a unit's tactical rate in a formation (inches), or null: it cannot move so. */
function rateOf(u: UnitState, formation: Formation, retiring: boolean): number | null {
  if (u.kind === 'infantry') {
    if (formation === 'garrison') return null;
    return moveRate({ arm: 'infantry', formation: formation as 'line', retiring }, 'tactical');
  }
  if (u.kind === 'cavalry')
    return moveRate(
      { arm: 'cavalry', weight: u.weight, formation: formation as 'line', blown: u.blown, retiring },
      'tactical',
    );
  return moveRate(
    { arm: 'artillery', gun: u.gunType, horse: u.mobility === 'horse', prolong: formation === 'unlimbered' },
    'tactical',
  );
}

/** The formations a unit may change to (C4: Skirmish for light units only). */
function changesFor(s: S, u: UnitState): Change[] {
  if (u.kind === 'artillery') return [u.formation === 'limbered' ? 'unlimbered' : 'limbered'];
  if (u.kind === 'cavalry') {
    const f: Change[] = ['line', 'column'];
    if (u.weight === 'light') f.push('skirmish');
    return [...f.filter((x) => x !== u.formation), 'about'];
  }
  if (u.formation === 'garrison') return ['line', 'column'];
  const f: Change[] = ['line', 'column', 'marchColumn', 'solidSquare'];
  if (u.light || s.ctx.options.skirmishers === 'anyInfantry') f.push('skirmish');
  const out = f.filter((x) => x !== u.formation && !(x === 'solidSquare' && u.formation === 'hastySquare'));
  if (emptyBuaUnder(s, u)) out.push('garrison');
  return [...out, 'about'];
}

/** A BUA under the unit's centre that no unit garrisons. */
function emptyBuaUnder(s: S, u: UnitState): string | null {
  const b = s.ctx.buas.find((x) => pointInPolygon(u.pos, x.polygon));
  if (!b) return null;
  return s.units.some((x) => onTable(x) && x.kind === 'infantry' && x.garrison === b.id) ? null : b.id;
}

/** The unit with a new formation, its front-edge centre kept (an about face turns about its centre). */
function reform(s: S, u: UnitState, to: Change): UnitState {
  if (to === 'about') return { ...u, facing: (u.facing + 180) % 360 } as UnitState;
  if (to === 'garrison') {
    const b = s.ctx.buas.find((x) => x.id === emptyBuaUnder(s, u))!;
    return { ...u, formation: 'garrison', garrison: b.id, pos: b.centre } as UnitState;
  }
  if (u.kind === 'infantry' && u.formation === 'garrison') return { ...u, formation: to, garrison: null } as UnitState; // out at the BUA's centre
  const d0 = sizeOf(placed(s, u)).depth;
  const n = { ...u, formation: to } as UnitState;
  const d1 = sizeOf(placed(s, n)).depth;
  const h = (u.facing * Math.PI) / 180;
  const back = ((d1 - d0) / 2) * IN;
  return { ...n, pos: { x: Math.round(u.pos.x - Math.sin(h) * back), y: Math.round(u.pos.y - Math.cos(h) * back) } };
}

const cost = (row: TerrainRow, arm: 'infantry' | 'cavalry' | 'artillery') =>
  terrainExtraCost(row === 'muddy' ? 'mud' : row, arm);

/** On the table, not on another unit (but `pass`), not touching an enemy. */
function fits(s: S, u: UnitState, pass: string | null): boolean {
  const p = polyOf(placed(s, u));
  if (p.some((q) => q.x < 0 || q.y < 0 || q.x > s.ctx.width || q.y > s.ctx.height)) return false;
  const box = bbox(p);
  for (const x of s.units) {
    if (x.id === u.id || x.id === pass || !onTable(x)) continue;
    const xp = polyOf(placed(s, x));
    // apart by their boxes: clear (the polygons are at least as far apart)
    if (boxDistance(box, bbox(xp)) >= 1) continue;
    const g = polygonDistance(p, xp);
    if (g <= 0 || (x.side !== u.side && g < 1)) return false;
  }
  return true;
}

/** [Movement Notes] passage of lines: the friendly line a column may pass through (both within 2", line unmoved). */
function passable(s: S, u: UnitState): string | null {
  if (u.kind !== 'infantry' || (u.formation !== 'column' && u.formation !== 'marchColumn')) return null;
  const me = placed(s, u);
  const l = s.units.find(
    (x) =>
      onTable(x) &&
      x.side === u.side &&
      x.id !== u.id &&
      x.kind === 'infantry' &&
      x.formation === 'line' &&
      !x.phase.moved &&
      gap(me, placed(s, x)) <= MOVEMENT_NOTES.passageOfLinesWithin * IN,
  );
  return l?.id ?? null;
}

/** The nearest enemy's distance, edge to edge (1/100"). */
function nearestEnemy(s: S, u: UnitState): number {
  let best = Number.POSITIVE_INFINITY;
  for (const e of unitsOf(s, other(u.side))) best = Math.min(best, gap(placed(s, u), placed(s, e)));
  return best;
}

/** [C2, §6.1] may the unit end here under its ME's order? */
function orderAllows(s: S, order: Order | null, from: UnitState, to: UnitState, moved: boolean): boolean {
  if (!order) return true;
  if (order.type === 'hold') {
    const r = HOLD_ANCHOR_RADIUS * IN;
    const d1 = pointPolygonDistance(order.point, polyOf(placed(s, to)));
    return d1 <= r || d1 <= pointPolygonDistance(order.point, polyOf(placed(s, from))) + 1;
  }
  if (order.type === 'reserve') {
    const e1 = nearestEnemy(s, to);
    return e1 >= 10 * IN || e1 >= nearestEnemy(s, from) - 1;
  }
  if (order.type === 'withdraw') {
    const e0 = nearestEnemy(s, from);
    const e1 = nearestEnemy(s, to);
    return moved ? e1 > e0 : e1 >= e0 - 1;
  }
  return true;
}

/** In an enemy infantry or cavalry unit's threat zone (C5)? */
function inEnemyThreatZone(s: S, u: UnitState): boolean {
  const body = polyOf(placed(s, u));
  return unitsOf(s, other(u.side)).some((e) => e.kind !== 'artillery' && inThreatZone(placed(s, e), body));
}

/** How a terrain row disorders this unit [Terrain]. */
function disorderRule(row: TerrainRow, u: UnitState, formation: Formation): TerrainDisorder {
  const r = terrainRow(row === 'muddy' ? 'mud' : row).disorder;
  if (u.kind === 'cavalry') return r.cavalry;
  if (u.kind === 'artillery') return r.artillery;
  return formation === 'skirmish' ? r.skirmishers : r.formedInfantry;
}

/**
 * [Movement; Movement Notes; Terrain; C6] a move planned on the state as it is: where the unit ends and what the move
 * brings, or null when it may not make it (no allowance, nothing moves, off the table, its order forbids it).
 */
/**
 * Plans by units array (the state's units, orders and MEs decide a plan): the legal menu, the scripted player and the
 * step that carries a move out ask for the same plans, often on states that differ only in their stack.
 */
const planMemo = new WeakMap<
  readonly UnitState[],
  {
    readonly elements: S['elements'];
    readonly formations: S['formations'];
    readonly plans: Map<string, PlannedMove | null>;
  }
>();

export function planMove(s: S, id: string, m: MoveSpec): PlannedMove | null {
  let memo = planMemo.get(s.units);
  if (!memo || memo.elements !== s.elements || memo.formations !== s.formations) {
    memo = { elements: s.elements, formations: s.formations, plans: new Map() };
    planMemo.set(s.units, memo);
  }
  const key = `${id}|${m.dir}|${m.frac}|${m.change}|${m.dq}`;
  let plan = memo.plans.get(key);
  if (plan === undefined) {
    plan = computePlan(s, id, m);
    memo.plans.set(key, plan);
  }
  return plan;
}

function computePlan(s: S, id: string, m: MoveSpec): PlannedMove | null {
  const u0 = unitOf(s, id);
  const order = orderOfElement(s, elementOf(s, u0.element));
  const C = changeCost(s, u0);
  // ---- a formation change in place
  if (m.dir === null) {
    if (!m.change || !changesFor(s, u0).includes(m.change)) return null;
    const rate = u0.kind === 'infantry' && u0.formation === 'garrison' ? C : rateOf(u0, u0.formation, false);
    if (rate === null || rate < C) return null;
    const u1 = { ...reform(s, u0, m.change), phase: { ...u0.phase, moved: true } } as UnitState;
    if (!fits(s, u1, null) || !orderAllows(s, order, u0, u1, false)) return null;
    const tests: MoveTestReason[] = [];
    if (m.change !== 'about' && !u0.disordered && inEnemyThreatZone(s, u1)) tests.push('formationChange');
    const what = m.change === 'about' ? 'about-faces' : `forms ${m.change}`;
    return {
      unit: u1,
      moved: 0,
      retiring: false,
      disorder: [],
      tests,
      prolonged: false,
      text: `${u0.name} ${what} (${C}")`,
    };
  }
  if (u0.kind === 'infantry' && u0.formation === 'garrison') return null;
  if (m.change && m.change !== 'about' && !changesFor(s, u0).includes(m.change)) return null;
  if (m.dq && u0.kind === 'artillery') return null;
  const limberFirst = u0.kind === 'artillery' && m.change === 'limbered';
  const start = limberFirst ? reform(s, u0, 'limbered') : u0;
  const retiring = m.dir === 'back';
  let A = rateOf(u0, start.formation, retiring);
  if (A === null) return null;
  if (m.dq) A += moveBonus('doubleQuick', u0.kind === 'cavalry', 'tactical') ?? 0;
  const shift = m.dir === 'left' || m.dir === 'right';
  const used = (m.change ? C : 0) + (shift ? C : 0);
  if (used > A) return null;
  const budget = m.frac * (A - used) * IN;
  // the wheel, at the outer flank
  const theta = WHEEL_DEG[m.dir];
  let p1: UnitState = start;
  let arc = 0;
  if (theta !== 0) {
    const r = wheel(rectOf(placed(s, start)), theta < 0 ? 'L' : 'R', Math.abs(theta));
    arc = (r.w * Math.abs(theta) * Math.PI) / 180;
    p1 = { ...start, pos: { x: r.x, y: r.y }, facing: r.h } as UnitState;
  }
  if (arc > budget) return null;
  const heading =
    m.dir === 'back'
      ? p1.facing + 180
      : m.dir === 'left'
        ? p1.facing - 90
        : m.dir === 'right'
          ? p1.facing + 90
          : p1.facing;
  const hv = { x: Math.sin((heading * Math.PI) / 180), y: Math.cos((heading * Math.PI) / 180) };
  const at = (d: number): UnitState =>
    ({ ...p1, pos: { x: Math.round(p1.pos.x + hv.x * d), y: Math.round(p1.pos.y + hv.y * d) } }) as UnitState;
  const pass = passable(s, u0);
  const sFrom = placed(s, start);
  const costOk = (d: number) => {
    const to = at(d);
    const mc = moveCost(s.ctx, sFrom, placed(s, to), cost);
    const extra = mc.cost - dist(start.pos, to.pos);
    return !mc.impassable && arc + d + extra <= budget + 1;
  };
  // as far as the budget, the edge, other units and impassable ground allow
  const maxD = budget - arc;
  if (theta !== 0 && !fits(s, p1, pass)) return null;
  let clear = 0;
  const STEP = IN / 2;
  for (let d = Math.min(STEP, maxD); ; d = Math.min(d + STEP, maxD)) {
    if (!fits(s, at(d), pass)) break;
    clear = d;
    if (d >= maxD) break;
  }
  let d = clear;
  if (!costOk(d)) {
    let lo = 0;
    let hi = d;
    while (hi - lo > IN / 4) {
      const mid = (lo + hi) / 2;
      if (costOk(mid)) lo = mid;
      else hi = mid;
    }
    d = lo;
  }
  if (pass) while (d > 0 && !fits(s, at(d), null)) d = Math.max(0, d - STEP); // may not end on the line it passes
  d = Math.round(d);
  if (d < IN / 4 && theta === 0) return null; // nothing moved: a change in place is `form`
  let u1 = at(d);
  if (theta !== 0 && d === 0 && !fits(s, u1, null)) return null;
  const prolonged = u0.kind === 'artillery' && u0.formation === 'unlimbered' && !m.change;
  if (m.change && !limberFirst) {
    u1 = reform(s, u1, m.change);
    if (!fits(s, u1, null)) return null;
  }
  u1 = { ...u1, phase: { ...u0.phase, moved: true } } as UnitState;
  if (!orderAllows(s, order, u0, u1, true)) return null;
  // [Terrain] disorder and tests
  const mc = moveCost(s.ctx, sFrom, placed(s, u1), cost);
  const disorder: string[] = [];
  let terrainTest = false;
  for (const row of mc.areas) {
    const rule = disorderRule(row, u0, start.formation);
    if (row === 'steepRise') {
      const inRise = (p: Vec) => s.ctx.rises.some((r) => pointInPolygon(p, r.polygon));
      if (inRise(u0.pos) !== inRise(u1.pos) && rule === 'test') terrainTest = true;
      continue;
    }
    if (rule === 'auto' || rule === 'whileMoving') disorder.push(row);
    else if (rule === 'test') terrainTest = true;
  }
  for (const row of mc.crossed)
    if (disorderRule(row === 'ford' ? 'stream' : row, u0, start.formation) === 'test') terrainTest = true;
  if (m.dq) disorder.push('double quick');
  const tests: MoveTestReason[] = [];
  const willBeDisordered = u0.disordered || disorder.length > 0;
  if (!willBeDisordered) {
    if (terrainTest) tests.push('terrain');
    if (m.change && m.change !== 'about' && inEnemyThreatZone(s, u1)) tests.push('formationChange');
    if (u0.kind === 'cavalry' && retiring && (inEnemyThreatZone(s, u0) || inEnemyThreatZone(s, u1)))
      tests.push('retiringCavalry');
  }
  const moved = arc + d;
  const how =
    m.dir === 'back'
      ? 'retires'
      : shift
        ? `shifts ${m.dir}`
        : theta
          ? `wheels ${Math.abs(theta)}° ${theta < 0 ? 'left' : 'right'} and advances`
          : 'advances';
  const text = `${u0.name} ${limberFirst ? 'limbers and ' : ''}${how} ${inches(moved)}${m.dq ? ' at the double quick' : ''}${m.change && !limberFirst ? (m.change === 'about' ? ', then about-faces' : `, then forms ${m.change}`) : ''}${retiring ? ' (retiring rate)' : ''}`;
  return { unit: u1, moved, retiring, disorder, tests, prolonged, text };
}

/** The key of a move. */
function moveKey(id: string, m: MoveSpec): Action {
  if (m.dir === null) return `form ${id} ${m.change}`;
  const frac = Object.entries(FRACS).find(([, v]) => v === m.frac)![0];
  return `move ${id} ${m.dir} ${m.dq ? 'dq' : frac}${m.change ? ` ${m.change}` : ''}`;
}

/** A move's key read back. */
export function parseMove(a: Action): { id: string; m: MoveSpec } | null {
  const p = a.split(' ');
  if (p[0] === 'form' && p.length === 3)
    return { id: p[1]!, m: { dir: null, frac: 1, change: p[2] as Change, dq: false } };
  if (p[0] !== 'move' || p.length < 4) return null;
  const dq = p[3] === 'dq';
  return {
    id: p[1]!,
    m: { dir: p[2] as Dir, frac: dq ? 1 : FRACS[p[3]!]!, change: (p[4] as Change | undefined) ?? null, dq },
  };
}

/** The menu of moves a unit is offered (see the header). */
function moveSpecs(s: S, u: UnitState): MoveSpec[] {
  const out: MoveSpec[] = [];
  const fracs = Object.values(FRACS);
  const changes = changesFor(s, u);
  for (const c of changes) out.push({ dir: null, frac: 1, change: c, dq: false });
  if (u.kind === 'infantry' && u.formation === 'garrison') return out;
  if (u.kind === 'artillery') {
    const prolong = u.formation === 'unlimbered';
    for (const dir of DIRS)
      for (const frac of prolong ? [0.5, 1] : fracs) out.push({ dir, frac, change: null, dq: false });
    // limber first and move; or move and unlimber at the end
    if (prolong)
      for (const dir of DIRS) for (const frac of fracs) out.push({ dir, frac, change: 'limbered', dq: false });
    else
      for (const dir of ['fwd', 'l45', 'r45'] as const)
        for (const frac of [0.5, 1]) out.push({ dir, frac, change: 'unlimbered', dq: false });
    return out;
  }
  for (const dir of DIRS) for (const frac of fracs) out.push({ dir, frac, change: null, dq: false });
  for (const dir of ['fwd', 'l22', 'r22', 'l45', 'r45'] as const) out.push({ dir, frac: 1, change: null, dq: true });
  for (const dir of ['fwd', 'l45', 'r45'] as const)
    for (const frac of [0.5, 1])
      for (const c of changes) if (c !== 'garrison' && c !== 'about') out.push({ dir, frac, change: c, dq: false });
  return out;
}

/** [T2a; C2, C7, C8] what a unit of the activated ME may do. */
export function unitOptions(s: S, id: string): Action[] {
  const u = unitOf(s, id);
  if (!onTable(u)) return [];
  const e = elementOf(s, u.element);
  const order = orderOfElement(s, e);
  const out: Action[] = [`hold ${id}`];
  if (order?.type !== 'reserve') for (const t of fireTargets(s, id, 'fire')) out.push(`fire ${id} ${t}`);
  if (e.strategicMoveThisTurn && s.ctx.options.strategicMoversTactical === 'fireOnly') return out;
  for (const m of moveSpecs(s, u)) if (planMove(s, id, m)) out.push(moveKey(id, m));
  return out;
}

/** Record a unit's fire for the ME's simultaneous step [T2c]. */
function queueFire(s: S, firer: string, target: string, log: Log): S {
  say(log, 'T2a', `${unitOf(s, firer).name} will fire at ${unitOf(s, target).name} (T2c: simultaneous)`);
  const t = updPhase(s, firer, { fired: true });
  return updTac(t, { fireQueue: [...tac(t).fireQueue, { firer, target, kind: 'fire', dice: null }] });
}

/** Apply a planned move: the unit moved, its disorder, then its tests, the op-charge hook and Move & Fire. */
function doMove(s: S, id: string, pm: PlannedMove, log: Log): S {
  say(log, 'Movement', pm.text);
  const before = unitOf(s, id);
  let t = updUnit(s, id, { ...pm.unit, disordered: pm.unit.disordered || pm.disorder.length > 0 });
  if (pm.disorder.length && !before.disordered)
    say(
      log,
      pm.disorder.includes('double quick') ? 'Movement' : 'Terrain',
      `${pm.unit.name} is disordered (${pm.disorder.join(', ')})`,
    );
  const frames: TacticalFrame[] = [];
  const u = unitOf(t, id);
  const order = orderOfElement(t, elementOf(t, u.element));
  // [T2a] Move & Fire: infantry after any move; artillery only by prolonging (C8)
  // [Movement notes] a change of formation or an about face is movement: done in place, it is the move of Move & Fire
  const moved = pm.moved > 0 || pm.unit.formation !== before.formation || pm.unit.facing !== before.facing;
  const mayFire = order?.type !== 'reserve' && canFire(t, u) && (u.kind !== 'artillery' || pm.prolonged) && moved;
  if (mayFire && fireTargets(t, id, 'fire').length) frames.push({ t: 'moveFire', unit: id });
  if (pm.moved > 0 || pm.unit.formation !== before.formation) frames.push({ t: 'moved', unit: id });
  if (pm.tests.length) frames.push({ t: 'moveTest', unit: id, reasons: pm.tests });
  t = push(t, ...frames);
  return t;
}

const unitActionHandler: DecisionHandler<S, F<'unitAction'>, Action> = {
  kind: 'decision',
  owner: (f, s) => unitOf(s, f.unit).side,
  legal: (s, f) => unitOptions(s, f.unit),
  skip: (s, f) => !onTable(unitOf(s, f.unit)),
  step(s, f, a, log) {
    const p = a.split(' ');
    if (p[0] === 'hold') {
      say(log, 'T2a', `${unitOf(s, f.unit).name} holds`);
      return s;
    }
    if (p[0] === 'fire') return queueFire(s, f.unit, p[2]!, log);
    const mv = parseMove(a);
    if (!mv) throw new Error(`not a T2a action: "${a}"`);
    const pm = planMove(s, f.unit, mv.m);
    if (!pm) throw new Error(`no such move now: "${a}"`);
    return doMove(s, f.unit, pm, log);
  },
  describe: (s, f) => {
    const u = unitOf(s, f.unit);
    return `${u.name} (${u.formation}${u.disordered ? ', disordered' : ''}): hold, move, fire or move & fire [T2a]`;
  },
};

const moveFireHandler: DecisionHandler<S, F<'moveFire'>, Action> = {
  kind: 'decision',
  owner: (f, s) => unitOf(s, f.unit).side,
  legal: (s, f) => [...fireTargets(s, f.unit, 'fire').map((t) => `fire ${f.unit} ${t}`), `no fire ${f.unit}`],
  skip: (s, f) => !onTable(unitOf(s, f.unit)),
  step: (s, f, a, log) => (a.startsWith('no fire') ? s : queueFire(s, f.unit, a.split(' ')[2]!, log)),
  describe: (s, f) => `${unitOf(s, f.unit).name} has moved: fire (Move & Fire) or not [T2a]`,
};

/** [Skill Tests] the modified number of one of a move's tests. */
export function moveTestNumber(s: S, id: string, reason: MoveTestReason): number {
  const u = unitOf(s, id);
  return (
    skillNumber({
      cls: u.class,
      leader: attachedInspiration(s, u),
      infantryColumnOrLinearLine:
        u.kind === 'infantry' && (u.formation === 'column' || (u.formation === 'line' && u.doctrine === 'linear')),
      disordered: u.disordered,
      worn: u.worn,
      spent: u.spent,
      outOfCommandOrIntegrity: outOfCommand(s, u),
      formationChangeInThreatZone: reason === 'formationChange',
    }) ?? 13
  );
}

const TEST_TEXT: Readonly<Record<MoveTestReason, string>> = {
  terrain: 'terrain: pass for not disordered',
  formationChange: 'formation change within a threat zone, +1',
  retiringCavalry: 'retiring cavalry in a threat zone',
};

/** The chance a unit passes all of a move's tests (independent 2D6 each). */
export function movePassChance(s: S, id: string, reasons: readonly MoveTestReason[]): number {
  let p = 1;
  for (const r of reasons) p *= skillTestDist(moveTestNumber(s, id, r)).find((d) => d.value)?.p ?? 0;
  return p;
}

const moveTestHandler: ChanceHandler<S, F<'moveTest'>, Action> = {
  kind: 'chance',
  outcomes: (s, f) => {
    const p = unitOf(s, f.unit).disordered ? 1 : movePassChance(s, f.unit, f.reasons);
    const out = [{ action: `movetest ${f.unit} pass`, p, label: 'passes' }];
    if (p < 1) out.push({ action: `movetest ${f.unit} fail`, p: 1 - p, label: 'fails: disordered' });
    return out.filter((o) => o.p > 0);
  },
  step(s, f, a, log) {
    const u = unitOf(s, f.unit);
    const tests = f.reasons.map((r) => `${TEST_TEXT[r]}: 2D6 ≥ ${moveTestNumber(s, f.unit, r)}`).join('; ');
    if (a.endsWith('pass')) {
      say(log, 'Skill Tests', `${u.name} passes (${tests})`);
      return s;
    }
    say(
      log,
      'Skill Tests',
      `${u.name} fails (${tests}): disordered${f.reasons.includes('formationChange') ? '; the change is made (C6)' : ''}`,
    );
    return updUnit(s, f.unit, { disordered: true });
  },
  describe: (s, f) =>
    `${unitOf(s, f.unit).name}'s skill test${f.reasons.length > 1 ? 's' : ''} (${f.reasons.map((r) => TEST_TEXT[r]).join('; ')}) [Skill Tests]`,
};

const movedHandler: AutoHandler<S, F<'moved'>> = {
  kind: 'auto',
  run: (s, f, log) => (onTable(unitOf(s, f.unit)) ? afterEnemyMove(s, f.unit, log) : s),
};

// ---------------------------------------------------------------------------------------------------------------------
// T2c: return fire, then all the fire at once
// ---------------------------------------------------------------------------------------------------------------------

/** [T2c; C8] the active-ME units an enemy unit fired on may return fire at (none if it already did vs this ME). */
function returnTargets(s: S, id: string, element: string): string[] {
  const u = unitOf(s, id);
  if (!onTable(u) || u.phase.returnFiredVs.includes(element) || !canFire(s, u)) return [];
  if (s.ctx.options.returnFire !== 'oncePerEnemyActivation') return [];
  return fireTargets(
    s,
    id,
    'return',
    elementUnits(s, element).map((x) => x.id),
  );
}

const t2cHandler: AutoHandler<S, F<'t2c'>> = {
  kind: 'auto',
  run(s, f) {
    const fired = [
      ...new Set(
        tac(s)
          .fireQueue.filter((o) => o.kind === 'fire')
          .map((o) => o.target),
      ),
    ];
    const frames = fired
      .filter((id) => returnTargets(s, id, f.element).length > 0)
      .map((unit) => ({ t: 'returnFire' as const, unit, element: f.element }));
    return push(s, { t: 'fireResolve', element: f.element }, ...frames.reverse());
  },
};

const returnFireHandler: DecisionHandler<S, F<'returnFire'>, Action> = {
  kind: 'decision',
  owner: (f, s) => unitOf(s, f.unit).side,
  legal: (s, f) => [...returnTargets(s, f.unit, f.element).map((t) => `return ${f.unit} ${t}`), `no return ${f.unit}`],
  skip: (s, f) => returnTargets(s, f.unit, f.element).length === 0,
  step(s, f, a, log) {
    if (a.startsWith('no return')) return s;
    const target = a.split(' ')[2]!;
    say(log, 'T2c', `${unitOf(s, f.unit).name} will return fire at ${unitOf(s, target).name} (C8)`);
    const u = unitOf(s, f.unit);
    const t = updPhase(s, f.unit, { returnFiredVs: [...u.phase.returnFiredVs, f.element] });
    return updTac(t, { fireQueue: [...tac(t).fireQueue, { firer: f.unit, target, kind: 'return', dice: null }] });
  },
  describe: (s, f) =>
    `${unitOf(s, f.unit).name} was fired on: return fire (once per enemy ME activation) or not [T2c, C8]`,
};

const fireResolveHandler: AutoHandler<S, F<'fireResolve'>> = {
  kind: 'auto',
  run(s, _f, log) {
    const orders = tac(s).fireQueue;
    if (!orders.length) return s;
    return fireStep(updTac(s, { fireQueue: [] }), orders, 'T2c', log);
  },
};

// ---------------------------------------------------------------------------------------------------------------------
// T2d: recovery
// ---------------------------------------------------------------------------------------------------------------------

/** A unit's own tactical move (inches) as it stands: "within 1 move" [Skill Tests]. */
function ownMove(u: UnitState): number {
  if (u.kind === 'infantry' && u.formation === 'garrison')
    return rateOf({ ...u, formation: 'line' }, 'line', false) ?? 0;
  return rateOf(u, u.formation, false) ?? 0;
}

/** [Skill Tests] recovering "if no enemy units within 1 move or behind friendly unit" (−3). */
export function recoverySafe(s: S, id: string): boolean {
  const u = unitOf(s, id);
  const me = placed(s, u);
  const enemies = unitsOf(s, other(u.side));
  const far = enemies.every((e) => gap(me, placed(s, e)) > ownMove(e) * IN);
  if (far) return true;
  const friends = unitsOf(s, u.side)
    .filter((x) => x.id !== id)
    .map((x) => placed(s, x));
  return !openFrontage(
    me,
    friends,
    enemies.map((e) => placed(s, e)),
  );
}

const recoverAllHandler: AutoHandler<S, F<'recoverAll'>> = {
  kind: 'auto',
  run(s, f, log) {
    let t = s;
    const frames: TacticalFrame[] = [];
    for (const u of elementUnits(t, f.element)) {
      if (u.phase.charging) continue;
      const blownOff = u.kind === 'cavalry' && u.blown && !u.phase.moved;
      if (blownOff && !u.disordered) {
        t = updPhase(updUnit(t, u.id, { blown: false }), u.id, { recoveryTried: true });
        say(log, 'T2d', `${u.name} did not move: BLOWN removed (C11)`);
        continue;
      }
      if (u.disordered && !u.phase.recoveryTried) frames.push({ t: 'recover', unit: u.id });
    }
    return push(t, ...frames.reverse());
  },
};

const recoverHandler: DecisionHandler<S, F<'recover'>, Action> = {
  kind: 'decision',
  owner: (f, s) => unitOf(s, f.unit).side,
  legal: (s, f) => {
    const u = unitOf(s, f.unit);
    const blownOff = u.kind === 'cavalry' && u.blown && !u.phase.moved;
    return [`recover ${f.unit}`, blownOff ? `unblow ${f.unit}` : `no recover ${f.unit}`];
  },
  skip: (s, f) => !onTable(unitOf(s, f.unit)) || !unitOf(s, f.unit).disordered,
  step(s, f, a, log) {
    const u = unitOf(s, f.unit);
    if (a.startsWith('unblow')) {
      say(log, 'T2d', `${u.name} did not move: BLOWN removed (C11); it stays disordered (one of B or D a phase)`);
      return updPhase(updUnit(s, f.unit, { blown: false }), f.unit, { recoveryTried: true });
    }
    if (a.startsWith('no recover')) return s;
    const t = updPhase(s, f.unit, { recoveryTried: true });
    return push(t, { t: 'skill', unit: f.unit, reason: 'recover', safe: recoverySafe(s, f.unit) });
  },
  describe: (s, f) => `${unitOf(s, f.unit).name} is disordered: try to recover (a skill test) or not [T2d]`,
};

export const tacticalHandlers = {
  activation: activationHandler,
  activationsDone: activationsDoneHandler,
  tacticalEnd: tacticalEndHandler,
  unitAction: unitActionHandler,
  moveFire: moveFireHandler,
  moveTest: moveTestHandler,
  moved: movedHandler,
  t2c: t2cHandler,
  returnFire: returnFireHandler,
  fireResolve: fireResolveHandler,
  recoverAll: recoverAllHandler,
  recover: recoverHandler,
};
