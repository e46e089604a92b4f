/**
 * Charge! Eagles Rising, charges [T2b, T2e; Movement notes; Changing Formation to Square; Skill Tests; Cavalry Pull
 * Up/Recall; C8, C11]: the side's charge declarations, the defender's reactions, opportunity charges after an enemy
 * move, and the resolution of every charge up to contact, when its close assault is queued for cac.ts.
 *
 * The flow (frames.ts `ChargeFrame`): `beginCharges` pushes `declareCharges` (the active side, one `charge U T` at a
 * time, `done charges`), then `reactions` (the other side, one reaction per charged unit, square and face tests rolled
 * at once), then `resolveCharges`, which takes the charged units one by one in declaration order: `closeIn` (evades,
 * counter-charges meeting halfway, chargers to 1", closing fire), `closingTests` (the one combined test, C11),
 * `closeRest` (combined charges, square pull-ups, evaded or removed targets) and `contact` (the unanchored flank, the
 * CAC queued). None left: cac.ts's `cacs` fights the CACs, and `chargesDone` ends the side's charges.
 *
 * Readings (the sheets and the digest leave these open; the README lists them):
 * - Who may charge (T2b): infantry in line or column and cavalry in line or column, not blown, that neither moved nor
 *   fired this phase, nor moved strategically this turn (C7), whose ME's order permits a charge (tables' ORDER_TYPES:
 *   Attack; an op-charge: Attack, Hold or Advance, cavalry only, not disordered). Infantry in square, march column,
 *   skirmish order or a garrison, cavalry in skirmish order and artillery never charge (the sheets give them no charge).
 * - Reach: the charger wheels once at its start to face the nearest point of its target (C8 "one wheel") and goes
 *   straight in; the move's cost over the terrain (C6, shape's `moveCost`) must be within its tactical move, plus the
 *   double-quick bonus (+5" foot, +8" mounted; BOOK vs DIGEST 2 of tables.ts) when declared. `dq` is offered only when
 *   the target is out of reach without it (it auto-disorders, C6, so it is never better when not needed). The test the
 *   sheets ask for a tactical double quick is not rolled: its failure (disordered) is what double quick does anyway.
 * - Frontage [CAC Modifiers *]: a unit in line attacked from its front takes at most two chargers (three if extra
 *   large: "unless extra large" gives no number); each charger in line must meet more than half its frontage with the
 *   target's, each column all of it, with a 1" (two figures; cavalry 1.5", a stand) gap between chargers: the sum
 *   must fit the target's frontage.
 * - "Cavalry & infantry may declare a charge on 1 target, but only 1 may close" (C8): the cavalry closes and the
 *   infantry halts at 1"; if every cavalry charger fails its closing test, the cavalry recalls to where it began
 *   (disordered) and the infantry closes.
 * - Reactions are declared per charged unit before any movement; the square test (and the face test) is rolled then
 *   (digest §6.12), against the nearest cavalry charger's starting distance (edge to edge). A disordered cavalry
 *   counter-charge is not tested: the failure (disordered, it still counter-charges) changes nothing.
 * - Artillery [Movement notes]: abandon & evade to formed infantry within 4" (the guns stay, abandoned: a charger that
 *   reaches them captures them, C8); fire & evade to infantry within 1" (it gives closing fire, then the crew leaves
 *   the guns); horse artillery limbers and moves 10" straight away from the charge (its 12" less the 2" limber, C6).
 *   A battery that stands supported by infantry (within 1") has that infantry fight the CAC as lead unit; supported
 *   only by cavalry, the cavalry fights it at the halt (C13 lead units).
 * - An evade is "straight back 10"", facing kept, stopping short of other units and the table edge.
 * - Op-charges (C8) are declared after the move (`opCharge`), the moved unit reacts at once, and they are resolved in
 *   T2e with the side's charges, the op-charger's combined test always taken (−2 cavalry charging; failure:
 *   disordered, it still charges).
 * - Pursuit (target evaded or removed): pull up if it began less than half its move away (British: a test; failing,
 *   it takes position); take position at the target's spot (D if it began more than half its move away); pursue up
 *   to 8" beyond the target's spot, into a new target within 22.5° (a CAC fought with the initial ones, charging,
 *   with no closing fire), disordered and blown at the end of that move ("D & B at end of move"), so a new target is
 *   fought D & B, and judged from where the pursuit began. Infantry whose target evaded takes position.
 * - Defensive (closing) fire (T2e, fire.ts `shotOf` kind 'closing') is not a choice: the charged unit (unless it
 *   evaded or counter-charges; fire & evade at +1) and every other unit of its side that is not charging fire, each at
 *   the nearest charger of that target it can hit (no split), a grand battery found among them (C5); a unit gives
 *   closing fire once in a phase's charges ("may split fire between multiple attackers": one unit's fire, not one per
 *   charged friend); a charged battery supported only by cavalry does not fire ("not fire if supported by Cav"). Its
 *   hits are collected and applied together (C8) before the tests.
 * - The closing test's uphill trigger: the path from where the charger began climbs a contour. Its triggers are those
 *   of C11 (disordered, uphill, closing-fire KIAs, worn, spent) plus an op-charge (always tested, C8).
 * - Failing infantry deploys in line 1" away, disordered, and fires at its target at once (fire.ts `fireStep`).
 * - "Major linear obstacle: Auto disorder if charged across": the charger is disordered at contact.
 */
import {
  IN,
  type Polygon,
  type Vec,
  closestPointOnSegment,
  dist,
  headingTo,
  headingVec,
  normDeg,
  polygonDistance,
  polygonsOverlap,
  segmentCrossesPolyline,
} from '../../geometry/geometry.ts';
import type { ChanceHandler, DecisionHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { attachedInspiration, fallBack, figuresOf, outOfCommand } from './casualties.ts';
import { type Shot, applyFireHits, canHit, fireStep, fireTargets, grandBatteries, shotOf } from './fire.ts';
import type { ChargeFrame, ChargeTestReason, Frame } from './frames.ts';
import {
  attackSector,
  gap,
  inFrontArcWithin,
  inThreatZone,
  moveCost,
  polyOf,
  sees,
  sizeOf,
  supportedArtillery,
  unanchoredFlank,
  withinPursuitCone,
  type TerrainRow,
} from './shape.ts';
import {
  MOVEMENT_NOTES,
  type SkillInput,
  moveBonus,
  moveRate,
  orderType,
  skillNumber,
  skillTestDist,
  squareOutcomeDist,
  squareRow,
  terrainExtraCost,
  type SquareOutcome,
} from './tables.ts';
import type { DeclaredCharge, Reaction, ReactionKind, Side, TacticalState, UnitState } from './types.ts';
import {
  type Action,
  type S,
  elementOf,
  inches,
  onTable,
  orderOfElement,
  other,
  placed,
  say,
  unitOf,
  unitsOf,
  updCommand,
  updUnit,
} from './state.ts';

type H<K extends ChargeFrame['t']> = Extract<ChargeFrame, { t: K }>;

// ---------------------------------------------------------------------------------------------------------------------
// The tactical state's charge parts
// ---------------------------------------------------------------------------------------------------------------------

export function tac(s: S): TacticalState {
  if (!s.tactical) throw new Error('charges are played in the tactical phase only');
  return s.tactical;
}
export function updTactical(s: S, patch: Partial<TacticalState>): S {
  return { ...s, tactical: { ...tac(s), ...patch } };
}
export function chargeOf(s: S, charger: string): DeclaredCharge | undefined {
  return s.tactical?.charges.find((c) => c.charger === charger);
}
function updCharge(s: S, charger: string, patch: Partial<DeclaredCharge>): S {
  return updTactical(s, { charges: tac(s).charges.map((c) => (c.charger === charger ? { ...c, ...patch } : c)) });
}
/**
 * A pursuit's or an exploitation's new contact is judged from where that move began (flank or rear, artillery's arc,
 * the obstacle crossed), not from where the first charge did: the charge record's start moves there.
 */
export function chargeFromHere(s: S, charger: string, from: Vec, fromFacing: number): S {
  return updCharge(s, charger, { from, fromFacing });
}
/** The charges still under way at a target (declared, not yet halted, pulled up, recalled or in contact). */
function activeAt(s: S, target: string): DeclaredCharge[] {
  return tac(s).charges.filter((c) => c.target === target && c.stage === 'declared' && onTable(unitOf(s, c.charger)));
}
function reactionOf(s: S, unit: string): Reaction | undefined {
  return s.tactical?.reactions.find((r) => r.unit === unit);
}
const EVADES: readonly ReactionKind[] = ['evade', 'abandonEvade', 'fireEvade', 'limberMove'];

/** Move a unit (and its attached leader) to a position and facing. */
export function placeUnit(s: S, id: string, pos: Vec, facing: number): S {
  const u = unitOf(s, id);
  let t = updUnit(s, id, { pos, facing });
  if (u.attachedLeader) t = { ...t, leaders: t.leaders.map((l) => (l.id === u.attachedLeader ? { ...l, pos } : l)) };
  return t;
}
const setFlags = (s: S, id: string, patch: Partial<UnitState['phase']>): S =>
  updUnit(s, id, { phase: { ...unitOf(s, id).phase, ...patch } });

// ---------------------------------------------------------------------------------------------------------------------
// Geometry of a charge
// ---------------------------------------------------------------------------------------------------------------------

function closestOn(poly: Polygon, p: Vec): Vec {
  let best = poly[0]!;
  let bd = Number.POSITIVE_INFINITY;
  for (let i = 0; i < poly.length; i++) {
    const c = closestPointOnSegment(p, poly[i]!, poly[(i + 1) % poly.length]!);
    const d = dist(c, p);
    if (d < bd) {
      bd = d;
      best = c;
    }
  }
  return best;
}

/**
 * Where `u` stands when it has gone straight at `targetPoly` until `goal` (1/100") from it: one wheel at the start to
 * face the nearest point of the target (C8), then straight in. `goal` 1 is contact (a hundredth of an inch).
 */
export function approach(s: S, u: UnitState, targetPoly: Polygon, goal: number): { pos: Vec; facing: number } {
  const c = closestOn(targetPoly, u.pos);
  const dir = headingTo(u.pos, c);
  const facing = Math.round(normDeg(dir)) % 360;
  const v = headingVec(dir);
  const at = (d: number): UnitState =>
    ({ ...u, pos: { x: Math.round(u.pos.x + v.x * d), y: Math.round(u.pos.y + v.y * d) }, facing }) as UnitState;
  const gapAt = (d: number) => polygonDistance(polyOf(placed(s, at(d))), targetPoly);
  if (gapAt(0) <= goal) return { pos: u.pos, facing };
  let lo = 0;
  let hi = dist(u.pos, c);
  for (let i = 0; i < 30 && hi - lo > 1; i++) {
    const mid = (lo + hi) / 2;
    if (gapAt(mid) >= goal) lo = mid;
    else hi = mid;
  }
  return { pos: at(lo).pos, facing };
}

/** [Terrain] C6 extra costs, with the sheet's row names. */
const extraCost = (row: TerrainRow, arm: UnitState['kind']) => terrainExtraCost(row === 'muddy' ? 'mud' : row, arm);

/** [Movement] a unit's tactical move, inches (null: it has none, a garrison). */
export function tacticalMove(u: UnitState): number | null {
  if (u.kind === 'infantry')
    return u.formation === 'garrison'
      ? null
      : moveRate({ arm: 'infantry', formation: u.formation, retiring: false }, 'tactical');
  if (u.kind === 'cavalry')
    return moveRate(
      { arm: 'cavalry', weight: u.weight, formation: u.formation, blown: u.blown, retiring: false },
      'tactical',
    );
  return moveRate({ arm: 'artillery', gun: u.gunType, horse: u.mobility === 'horse', prolong: false }, 'tactical');
}

/** The charge's path from where `u` stands into contact with `target`: its cost and what it crosses. */
export function chargePath(s: S, u: UnitState, target: UnitState) {
  const to = approach(s, u, polyOf(placed(s, target)), 1);
  const moved = { ...u, pos: to.pos, facing: to.facing } as UnitState;
  const c = moveCost(s.ctx, placed(s, u), placed(s, moved), extraCost);
  return { ...to, cost: c.cost, impassable: c.impassable, contoursUp: c.contoursUp, crossed: c.crossed };
}

/** [T2b] C8 reach: the path's cost within the tactical move (+ double quick). */
function reaches(s: S, u: UnitState, target: UnitState, dq: boolean): boolean {
  const rate = tacticalMove(u);
  if (rate === null) return false;
  const bonus = dq ? (moveBonus('doubleQuick', u.kind === 'cavalry', 'tactical') ?? 0) : 0;
  const p = chargePath(s, u, target);
  return !p.impassable && p.cost <= (rate + bonus) * IN;
}

/** [T2b] target at least partly in the front arc, within reach, with LOS. */
function inArcAndSight(s: S, u: UnitState, target: UnitState, reachInches: number): boolean {
  const me = placed(s, u);
  const body = polyOf(placed(s, target));
  if (!inFrontArcWithin(me, body, reachInches * IN)) return false;
  const others = s.units.filter((x) => x.id !== u.id && x.id !== target.id && onTable(x)).map((x) => placed(s, x));
  return sees(s.ctx, me, placed(s, target), others);
}

// ---------------------------------------------------------------------------------------------------------------------
// [T2b] who may charge whom
// ---------------------------------------------------------------------------------------------------------------------

/** [T2b] may `u` charge at all (op: a C8 opportunity charge)? */
export function mayCharge(s: S, u: UnitState, op: boolean): boolean {
  if (!onTable(u) || u.kind === 'artillery') return false;
  // T2d "may attempt to recover … if not charging": a unit that tried to recover (or had BLOWN removed) this phase
  // does not charge in it (C8 puts the charges after the activations, so the recovery comes first)
  if (u.phase.moved || u.phase.fired || u.phase.charging || u.phase.recoveryTried) return false;
  if (s.tactical?.charges.some((c) => c.charger === u.id)) return false;
  if (u.kind === 'infantry' && u.formation !== 'line' && u.formation !== 'column') return false;
  if (u.kind === 'cavalry' && (u.formation === 'skirmish' || u.blown)) return false;
  const e = elementOf(s, u.element);
  if (e.strategicMoveThisTurn) return false; // C7 "fireOnly"
  const order = orderOfElement(s, e);
  if (!order) return false;
  const row = orderType(order.type);
  if (op) return u.kind === 'cavalry' && !u.disordered && row.opCharge && s.ctx.options.opCharges === 'afterEnemyMove';
  return row.charge;
}

/** [§3.1, C4] a unit's size class by current strength, with the scenario's `sizeClasses` table. */
export function unitSize(s: S, u: UnitState): 'small' | 'standard' | 'large' | 'extraLarge' {
  const [small, standard, large] = s.ctx.options.sizeClasses[u.kind];
  const n = figuresOf(u).now;
  return n <= small ? 'small' : n <= standard ? 'standard' : n <= large ? 'large' : 'extraLarge';
}

/**
 * [CAC Modifiers *] "A unit in line may be attacked frontally by a maximum of two units unless extra large. The
 * target must present >50% of its frontage to each attacking unit and provided there is > 2 fig/1 stand gap between
 * attacking columns with all attacking column stands in contact with the defending unit."
 */
export function frontageAllows(s: S, charger: UnitState, target: UnitState): boolean {
  // "a unit in line": infantry or cavalry (artillery has no line)
  if ((target.kind !== 'infantry' && target.kind !== 'cavalry') || target.formation !== 'line') return true;
  const tp = placed(s, target);
  const frontal = (u: UnitState) => attackSector(tp, placed(s, u)) === 'front';
  if (!frontal(charger)) return true;
  const others = tac(s)
    .charges.filter((c) => c.target === target.id)
    .map((c) => unitOf(s, c.charger))
    .filter((u) => onTable(u) && frontal(u));
  const max = unitSize(s, target) === 'extraLarge' ? 3 : 2;
  if (others.length + 1 > max) return false;
  const all = [...others, charger];
  let need = 0;
  for (const u of all) {
    const w = sizeOf(placed(s, u)).width;
    need += u.formation === 'line' ? w / 2 : w;
  }
  for (let i = 1; i < all.length; i++) need += all[i]!.kind === 'cavalry' || all[i - 1]!.kind === 'cavalry' ? 1.5 : 1;
  return need <= sizeOf(tp).width + 1e-9;
}

/** The charges `u` may declare now: `[target, dq]`. */
export function chargeOptions(s: S, u: UnitState, op: boolean, only?: string): { target: string; dq: boolean }[] {
  if (!mayCharge(s, u, op)) return [];
  const rate = tacticalMove(u);
  if (rate === null) return [];
  const dqBonus = op ? 0 : (moveBonus('doubleQuick', u.kind === 'cavalry', 'tactical') ?? 0);
  const out: { target: string; dq: boolean }[] = [];
  for (const t of unitsOf(s, other(u.side))) {
    if (only && t.id !== only) continue;
    if (t.kind === 'artillery' && t.abandoned && !onTable(t)) continue;
    if (!inArcAndSight(s, u, t, rate + dqBonus)) continue;
    if (!frontageAllows(s, u, t)) continue;
    if (reaches(s, u, t, false)) out.push({ target: t.id, dq: false });
    else if (dqBonus && reaches(s, u, t, true)) out.push({ target: t.id, dq: true });
  }
  return out;
}

function declare(s: S, u: UnitState, target: string, dq: boolean, op: boolean, log: Log): S {
  const t = unitOf(s, target);
  const d = gap(placed(s, u), placed(s, t));
  say(
    log,
    op ? 'C8' : 'T2b',
    `${u.name} ${op ? 'opportunity-charges' : 'charges'} ${t.name}${dq ? ' at the double quick' : ''} from ${inches(d)}`,
  );
  const charge: DeclaredCharge = {
    charger: u.id,
    target,
    doubleQuick: dq,
    opportunity: op,
    from: u.pos,
    fromFacing: u.facing,
    startDistance: Math.round(d),
    stage: 'declared',
  };
  return setFlags(updTactical(s, { charges: [...tac(s).charges, charge] }), u.id, { charging: true });
}

// ---------------------------------------------------------------------------------------------------------------------
// The two hooks
// ---------------------------------------------------------------------------------------------------------------------

/**
 * [T2b] after the active side's ME activations: push the charge declarations of `side` (and everything they bring:
 * reactions, T2e, close assaults, exploitation). Returns the state unchanged when no unit of the side may charge and
 * no opportunity charge waits to be resolved.
 */
export function beginCharges(s: S, side: Side, log: Log): S {
  const any = unitsOf(s, side).some((u) => chargeOptions(s, u, false).length > 0);
  const pending = (s.tactical?.charges ?? []).some((c) => c.stage === 'declared');
  if (!any && !pending) return s;
  say(log, 'T2b', `${s.armies[side].name} declares its charges`);
  return push(
    s,
    { t: 'chargesDone', blowAtEnd: [] },
    { t: 'resolveCharges' },
    { t: 'reactions', side: other(side) },
    { t: 'declareCharges', side },
  );
}

/**
 * [C8] after an active unit completes a Move in T2a: push the non-active side's opportunity-charge choice when one of
 * its cavalry units may declare one against `moved`. Returns the state unchanged when none may.
 */
export function afterEnemyMove(s: S, moved: string, _log: Log): S {
  if (s.ctx.options.opCharges !== 'afterEnemyMove' || !s.tactical) return s;
  const m = unitOf(s, moved);
  if (!onTable(m)) return s;
  const side = other(m.side);
  if (!opChargers(s, side, moved).length) return s;
  return push(s, { t: 'opCharge', side, moved });
}

function opChargers(s: S, side: Side, moved: string): UnitState[] {
  return unitsOf(s, side).filter((u) => u.kind === 'cavalry' && chargeOptions(s, u, true, moved).length > 0);
}

// ---------------------------------------------------------------------------------------------------------------------
// Decisions: declarations, op-charges, reactions
// ---------------------------------------------------------------------------------------------------------------------

const declareHandler: DecisionHandler<S, H<'declareCharges'>, Action> = {
  kind: 'decision',
  owner: (f) => f.side,
  legal(s, f) {
    const out: Action[] = [];
    for (const u of unitsOf(s, f.side))
      for (const o of chargeOptions(s, u, false)) out.push(`charge ${u.id} ${o.target}${o.dq ? ' dq' : ''}`);
    out.push('done charges');
    return out;
  },
  skip: (s, f) => !unitsOf(s, f.side).some((u) => chargeOptions(s, u, false).length > 0),
  step(s, f, a, log) {
    if (a === 'done charges') {
      say(log, 'T2b', `${s.armies[f.side].name} has declared all its charges`);
      return s;
    }
    const [, id, target, dq] = a.split(' ');
    return push(declare(s, unitOf(s, id!), target!, dq === 'dq', false, log), f);
  },
  describe: (s, f) => `${s.armies[f.side].name}: declare a charge, or done [T2b]`,
};

const opChargeHandler: DecisionHandler<S, H<'opCharge'>, Action> = {
  kind: 'decision',
  owner: (f) => f.side,
  legal: (s, f) => [...opChargers(s, f.side, f.moved).map((u) => `op-charge ${u.id} ${f.moved}`), 'no op-charge'],
  skip: (s, f) => !onTable(unitOf(s, f.moved)) || !opChargers(s, f.side, f.moved).length,
  step(s, f, a, log) {
    if (a === 'no op-charge') return s;
    const u = unitOf(s, a.split(' ')[1]!);
    const t = declare(s, u, f.moved, false, true, log);
    // the moved unit reacts at once (its side's reactions frame), and another cavalry unit may still op-charge
    return push(t, f, { t: 'reactions', side: unitOf(s, f.moved).side });
  },
  describe: (s, f) => `${s.armies[f.side].name}: opportunity-charge ${unitOf(s, f.moved).name}? [C8]`,
};

/** The side's charged units still to react, in declaration order. */
function toReact(s: S, side: Side): UnitState[] {
  const seen = new Set<string>();
  const out: UnitState[] = [];
  for (const c of tac(s).charges) {
    if (c.stage !== 'declared' || seen.has(c.target)) continue;
    seen.add(c.target);
    const u = unitOf(s, c.target);
    if (u.side === side && onTable(u) && !reactionOf(s, u.id)) out.push(u);
  }
  return out;
}

/** The nearest cavalry charger's starting distance (1/100"), or null when no cavalry charges `unit`. */
function cavalryBegan(s: S, unit: string): number | null {
  const d = activeAt(s, unit)
    .filter((c) => unitOf(s, c.charger).kind === 'cavalry')
    .map((c) => c.startDistance);
  return d.length ? Math.min(...d) : null;
}
const BRITISH = ['british', 'kgl', 'portuguese'];

/** [T2b] the reactions open to a charged unit (each `react U …`), filtered by legality. */
function reactionOptions(s: S, u: UnitState): Action[] {
  const cs = activeAt(s, u.id);
  const chargers = cs.map((c) => unitOf(s, c.charger));
  const cav = chargers.some((c) => c.kind === 'cavalry');
  const out: Action[] = [`react ${u.id} stand`];
  const me = placed(s, u);
  if (u.kind === 'infantry') {
    const fixed = u.formation === 'hastySquare' || u.formation === 'solidSquare' || u.formation === 'garrison';
    const began = cavalryBegan(s, u.id);
    if (cav && !fixed && began !== null && squareRow(began / IN).onPass !== 'notAllowed')
      out.push(`react ${u.id} square`);
    const flank = chargedInFlankOrRear(s, u.id);
    if (flank && !fixed) out.push(`react ${u.id} face`);
    if (
      BRITISH.includes(u.nationality) &&
      !cav &&
      chargers.length &&
      (u.formation === 'line' || u.formation === 'column')
    )
      out.push(`react ${u.id} counter-charge`);
  } else if (u.kind === 'cavalry') {
    const e = elementOf(s, u.element);
    const order = orderOfElement(s, e);
    const facing = chargers.some((c) => inFrontArcWithin(me, polyOf(placed(s, c)), (tacticalMove(u) ?? 0) * IN));
    if (order && orderType(order.type).cavalryCounterCharge && !u.blown && u.formation !== 'skirmish' && facing)
      out.push(`react ${u.id} counter-charge`);
    out.push(`react ${u.id} evade`);
  } else if (!u.abandoned && u.formation === 'unlimbered') {
    const N = MOVEMENT_NOTES as unknown as Record<string, number>;
    const beyond = (cavIn: number, infIn: number) =>
      cs.every((c) => c.startDistance > (unitOf(s, c.charger).kind === 'cavalry' ? cavIn : infIn) * IN);
    const friends = unitsOf(s, u.side).filter(
      (x) => x.kind === 'infantry' && x.formation !== 'skirmish' && x.formation !== 'garrison',
    );
    if (beyond(N.abandonIfCavalryBeyond ?? 5, N.abandonIfInfantryBeyond ?? 4))
      for (const f of friends)
        if (gap(me, placed(s, f)) <= (N.gunnerEvade ?? 4) * IN) out.push(`react ${u.id} abandon ${f.id}`);
    if (beyond(3, 2))
      for (const f of friends) if (gap(me, placed(s, f)) <= IN) out.push(`react ${u.id} fire-evade ${f.id}`);
    if (u.mobility === 'horse' && beyond(10, 6)) out.push(`react ${u.id} limber`);
  }
  return out;
}

const REACTION_OF: Readonly<Record<string, ReactionKind>> = {
  stand: 'stand',
  square: 'formSquare',
  face: 'faceCharger',
  evade: 'evade',
  abandon: 'abandonEvade',
  'fire-evade': 'fireEvade',
  limber: 'limberMove',
};

const reactionsHandler: DecisionHandler<S, H<'reactions'>, Action> = {
  kind: 'decision',
  owner: (f) => f.side,
  legal: (s, f) => {
    const u = toReact(s, f.side)[0];
    return u ? reactionOptions(s, u) : [];
  },
  skip: (s, f) => !toReact(s, f.side).length,
  step(s, f, a, log) {
    const [, id, word, to] = a.split(' ');
    const u = unitOf(s, id!);
    const kind: ReactionKind =
      word === 'counter-charge'
        ? u.kind === 'cavalry'
          ? 'counterCharge'
          : 'counterChargeAttempt'
        : REACTION_OF[word!]!;
    let t = updTactical(s, { reactions: [...tac(s).reactions, { unit: u.id, reaction: kind, toUnit: to ?? null }] });
    say(log, 'T2b', `${u.name} ${REACTION_TEXT[kind]}${to ? ` (to ${unitOf(s, to).name})` : ''}`);
    t = push(t, f);
    if (kind === 'formSquare') return push(t, { t: 'squareTest', unit: u.id, beganAt: cavalryBegan(s, u.id)! });
    if (kind === 'faceCharger') return push(t, { t: 'chargeTest', unit: u.id, reason: 'face' });
    if (kind === 'counterCharge') t = setFlags(t, u.id, { charging: true });
    return t;
  },
  describe: (s, f) => {
    const u = toReact(s, f.side)[0];
    return u ? `${u.name} is charged: its reaction [T2b]` : '';
  },
};

const REACTION_TEXT: Readonly<Record<ReactionKind, string>> = {
  stand: 'stands',
  formSquare: 'tries to form square',
  faceCharger: 'tries to face the charge',
  counterChargeAttempt: 'will try to counter-charge after defensive fire',
  counterCharge: 'counter-charges (C8: they meet halfway)',
  evade: 'evades straight back 10"',
  abandonEvade: 'abandons its guns, the gunners evading to formed infantry',
  fireEvade: 'will fire, then evade to the infantry',
  limberMove: 'limbers and moves away',
};

// ---------------------------------------------------------------------------------------------------------------------
// Skill tests of the charge chapters
// ---------------------------------------------------------------------------------------------------------------------

/** The skill input every test shares: class, leader, column/linear line, disorder, worn/spent, command (C2). */
function baseSkill(s: S, u: UnitState): SkillInput {
  return {
    cls: u.class,
    leader: attachedInspiration(s, u),
    infantryColumnOrLinearLine:
      u.kind === 'infantry' && (u.formation === 'column' || (u.formation === 'line' && u.doctrine === 'linear')),
    disordered: u.disordered,
    worn: u.worn,
    spent: u.spent,
    outOfCommandOrIntegrity: outOfCommand(s, u),
  };
}

/**
 * [Changing Formation to Square] the square test's number (null: not allowed) for cavalry that began `beganAt`.
 * Forming square is a formation change: "Formation change vs flank/rear charge +2" when a charge under way at the
 * unit began in its flank or rear (C11 replaces only the threat-zone +1 by the square's distance modifiers).
 */
export function squareNumber(s: S, id: string, beganAt: number): number | null {
  return skillNumber({
    ...baseSkill(s, unitOf(s, id)),
    squareVsCavalryAt: beganAt / IN,
    formationChangeVsFlankRear: chargedInFlankOrRear(s, id),
  });
}

/** A charge under way at `id` began in its flank or rear (the sector of the unit the charger started from). */
function chargedInFlankOrRear(s: S, id: string): boolean {
  const me = placed(s, unitOf(s, id));
  return activeAt(s, id).some((c) => attackSector(me, { ...placed(s, unitOf(s, c.charger)), pos: c.from }) !== 'front');
}

/** [Skill Tests] the number of a charge chapter test. */
export function chargeTestNumber(s: S, f: H<'chargeTest'>): number {
  const u = unitOf(s, f.unit);
  const b = baseSkill(s, u);
  const fr = u.nationality === 'french' || u.nationality === 'russian';
  const brit = u.kind === 'cavalry' && u.nationality === 'british';
  const win3 = f.band !== undefined && f.band !== '1-2' && f.band !== '0';
  let i: SkillInput = b;
  switch (f.reason) {
    case 'closing': // C11: one combined test; "Cavalry charging (not recall or pull-up) -2"
      i = {
        ...b,
        cavalryCharging: u.kind === 'cavalry',
        closingFireKias: f.kias ?? 0,
        closeRangeArtilleryKias: !!f.artillery,
      };
      break;
    case 'face': {
      // formation change vs a flank/rear charge +2; within a threat zone +1
      const body = polyOf(placed(s, u));
      const tz = activeAt(s, u.id).some((c) => inThreatZone(placed(s, unitOf(s, c.charger)), body));
      i = { ...b, formationChangeVsFlankRear: true, formationChangeInThreatZone: tz };
      break;
    }
    case 'pullUpSquare':
    case 'pullUpEvade':
      i = { ...b, frenchRussianPullUpOrRecall: fr, britishPullUpOrRecallUnder3: brit };
      break;
    case 'rallyBack':
    case 'notExploit':
      i = {
        ...b,
        frenchRussianPullUpOrRecall: fr,
        britishPullUpOrRecallUnder3: brit && !win3,
        britishRecallAfter3: brit && win3,
      };
      break;
    default:
      i = b;
  }
  return skillNumber(i) ?? 13;
}

const squareTestHandler: ChanceHandler<S, H<'squareTest'>, Action> = {
  kind: 'chance',
  outcomes: (s, f) => {
    const u = unitOf(s, f.unit);
    const n = squareNumber(s, f.unit, f.beganAt);
    return squareOutcomeDist(n, f.beganAt / IN, u.disordered).map((d) => ({
      action: `square ${f.unit} ${d.value}`,
      p: d.p,
      label: SQUARE_TEXT[d.value],
    }));
  },
  step(s, f, a, log) {
    const r = a.split(' ')[2] as SquareOutcome;
    const u = unitOf(s, f.unit);
    const n = squareNumber(s, f.unit, f.beganAt);
    say(
      log,
      'Changing Formation to Square',
      `${u.name}: 2D6 vs ${n} (cavalry began ${inches(f.beganAt)} away): ${SQUARE_TEXT[r]}`,
    );
    if (r === 'solid') return updUnit(s, f.unit, { formation: 'solidSquare' });
    if (r === 'hasty') return updUnit(s, f.unit, { formation: 'hastySquare' });
    if (r === 'hastyDisordered') return updUnit(s, f.unit, { formation: 'hastySquare', disordered: true });
    if (r === 'disorderedNoSquare') return updUnit(s, f.unit, { disordered: true });
    return s;
  },
  describe: (s, f) =>
    `${unitOf(s, f.unit).name}'s square test: 2D6 ≥ ${squareNumber(s, f.unit, f.beganAt)} [Changing Formation to Square]`,
};

const SQUARE_TEXT: Readonly<Record<SquareOutcome, string>> = {
  solid: 'solid square',
  hasty: 'hasty square',
  hastyDisordered: 'failed: hasty square, disordered',
  disorderedNoSquare: 'failed, already disordered: no square, disordered',
  notAllowed: 'no test allowed: cavalry began < 2" away',
};

/** What follows a charge chapter test (cac.ts registers its reasons). */
export type TestFollow = (s: S, f: H<'chargeTest'>, pass: boolean, log: Log) => S;
const FOLLOW: Partial<Record<ChargeTestReason, TestFollow>> = {};
export function onChargeTest(reason: ChargeTestReason, follow: TestFollow): void {
  FOLLOW[reason] = follow;
}

const TEST_TEXT: Readonly<Record<ChargeTestReason, string>> = {
  closing: 'the closing test (C11: one combined test)',
  counterCharge: 'the counter-charge attempt after defensive fire',
  face: 'facing a flank/rear charge',
  pullUpSquare: 'pulling up before the square',
  pullUpEvade: 'pulling up after its target evaded',
  squareLoss: 'cavalry losing to a square',
  cavTie: 'cavalry after a 0 result against infantry',
  rallyBack: 'rallying back 6"',
  notExploit: 'not exploiting after a 3+ win',
  refight: 'worn or spent, before re-fighting (C13)',
};

const chargeTestHandler: ChanceHandler<S, H<'chargeTest'>, Action> = {
  kind: 'chance',
  outcomes: (s, f) => {
    const n = chargeTestNumber(s, f);
    return skillTestDist(n).map((d) => ({
      action: `test ${f.unit} ${f.reason} ${d.value ? 'pass' : 'fail'}`,
      p: d.p,
      label: d.value ? `pass (2D6 ≥ ${n})` : `fail (2D6 < ${n})`,
    }));
  },
  step(s, f, a, log) {
    const pass = a.endsWith('pass');
    const u = unitOf(s, f.unit);
    if (!onTable(u)) return s;
    say(
      log,
      'Skill Tests',
      `${u.name} ${pass ? 'passes' : 'fails'} ${TEST_TEXT[f.reason]} (2D6 ${pass ? '≥' : '<'} ${chargeTestNumber(s, f)})`,
    );
    const follow = FOLLOW[f.reason] ?? LOCAL_FOLLOW[f.reason];
    return follow ? follow(s, f, pass, log) : s;
  },
  describe: (s, f) =>
    `${unitOf(s, f.unit).name}: ${TEST_TEXT[f.reason]}, 2D6 ≥ ${chargeTestNumber(s, f)} [Skill Tests]`,
};

// ---------------------------------------------------------------------------------------------------------------------
// [T2e] resolution
// ---------------------------------------------------------------------------------------------------------------------

/** A straight move of up to `inchesMax` on `heading`, stopping short of other units and the table's edge. */
export function slide(s: S, id: string, heading: number, inchesMax: number, facing: number): S {
  const u = unitOf(s, id);
  const v = headingVec(heading);
  const others = s.units.filter((x) => x.id !== id && onTable(x)).map((x) => polyOf(placed(s, x)));
  let done = 0;
  const step = IN / 4;
  for (let d = step; d <= inchesMax * IN + 1e-9; d += step) {
    const pos = { x: Math.round(u.pos.x + v.x * d), y: Math.round(u.pos.y + v.y * d) };
    const p = polyOf(placed(s, { ...u, pos, facing } as UnitState));
    if (p.some((q) => q.x < 0 || q.y < 0 || q.x > s.ctx.width || q.y > s.ctx.height)) break;
    if (others.some((o) => polygonsOverlap(p, o))) break;
    done = d;
  }
  return placeUnit(s, id, { x: Math.round(u.pos.x + v.x * done), y: Math.round(u.pos.y + v.y * done) }, facing);
}

const resolveHandler = {
  kind: 'auto' as const,
  run(s: S, _f: H<'resolveCharges'>, log: Log): S {
    const c = tac(s).charges.find((x) => x.stage === 'declared' && onTable(unitOf(s, x.charger)));
    if (!c) {
      say(log, 'T2e', 'every charge has been resolved: the close assaults');
      return push(s, { t: 'cacs' });
    }
    return push(s, { t: 'resolveCharges' }, { t: 'closeIn', target: c.target });
  },
};

/** [T2e 1-2] evades, counter-charges, chargers to 1", defensive (closing) fire. */
const closeInHandler = {
  kind: 'auto' as const,
  run(s: S, f: H<'closeIn'>, log: Log): S {
    let t = s;
    const target = unitOf(t, f.target);
    const targetAt = target.pos;
    const r = reactionOf(t, f.target)?.reaction ?? 'stand';
    const cs = activeAt(t, f.target);
    const lead = unitOf(t, cs[0]!.charger);
    if (onTable(target)) {
      if (r === 'evade') {
        t = slide(t, f.target, normDeg(target.facing + 180), MOVEMENT_NOTES.cavalryEvade, target.facing);
        say(
          log,
          'Movement notes',
          `${target.name} evades straight back ${inches(dist(targetAt, unitOf(t, f.target).pos))}`,
        );
      } else if (r === 'abandonEvade') {
        t = updUnit(t, f.target, { abandoned: true });
        say(
          log,
          'Movement notes',
          `${target.name}'s gunners abandon the guns and evade (C8: the guns are taken if reached)`,
        );
      } else if (r === 'limberMove') {
        // C6: limbering costs 2" of its 12"
        const away = headingTo(lead.pos, target.pos);
        t = updUnit(t, f.target, { formation: 'limbered' });
        t = slide(t, f.target, away, 10, Math.round(away) % 360);
        say(
          log,
          'Movement notes',
          `${target.name} limbers and moves away ${inches(dist(targetAt, unitOf(t, f.target).pos))}`,
        );
      } else if (r === 'counterCharge') {
        // C8: they meet halfway
        const g = gap(placed(t, target), placed(t, lead));
        const half = approach(t, target, polyOf(placed(t, lead)), Math.max(1, Math.round(g / 2)));
        t = placeUnit(t, f.target, half.pos, half.facing);
        t = setFlags(t, f.target, { charging: true, moved: true });
        say(log, 'C8', `${target.name} counter-charges ${lead.name}: they meet halfway`);
      }
    }
    const tgt = unitOf(t, f.target);
    const evaded = !onTable(tgt) || EVADES.includes(r);
    const next: ChargeFrame = { t: 'closingTests', target: f.target, targetAt, collect: true, hits: [] };
    if (evaded && r !== 'fireEvade') return push(t, next);
    // [T2e] the chargers close to 1" for the defensive fire
    for (const c of cs) {
      const u = unitOf(t, c.charger);
      const to = approach(t, u, polyOf(placed(t, tgt)), MOVEMENT_NOTES.infantryHaltsAt * IN);
      t = placeUnit(t, u.id, to.pos, to.facing);
      t = setFlags(t, u.id, { moved: true });
    }
    say(log, 'T2e', `${cs.map((c) => unitOf(t, c.charger).name).join(' and ')} close to 1" of ${tgt.name}`);
    return closingFire(
      push(t, next),
      f.target,
      r,
      cs.map((c) => c.charger),
      log,
    );
  },
};

/**
 * [T2c, T2e] defensive (closing) fire at the chargers of `target` (fire.ts `shotOf`, kind 'closing'): the charged
 * unit (unless it evaded or counter-charges; fire & evade +1) and every other unit of its side not charging, each at
 * the nearest charger it can hit, "even if they have fired this phase"; a grand battery found among them (C5). The
 * volleys record their hits in the `closingTests` frame below them (a collector), which applies them.
 */
function closingFire(s: S, target: string, r: ReactionKind, chargers: readonly string[], log: Log): S {
  const tgt = unitOf(s, target);
  // [T2b] a charged battery "may fire if Arty is supported by Inf … or not fire if supported by Cav"
  const silent = tgt.kind === 'artillery' && unitOf(s, defendersOf(s, tgt)[0]!).kind === 'cavalry';
  const firers = unitsOf(s, tgt.side).filter(
    (u) =>
      !u.phase.charging &&
      !u.phase.closingFired &&
      !(silent && u.id === target) &&
      (u.id !== target ||
        r === 'stand' ||
        r === 'formSquare' ||
        r === 'faceCharger' ||
        r === 'counterChargeAttempt' ||
        r === 'fireEvade'),
  );
  const orders: { firer: string; target: string }[] = [];
  for (const u of firers) {
    const can = fireTargets(s, u.id, 'closing', chargers);
    if (!can.length) continue;
    const me = placed(s, u);
    const near = can.sort((x, y) => gap(me, placed(s, unitOf(s, x))) - gap(me, placed(s, unitOf(s, y))))[0]!;
    orders.push({ firer: u.id, target: near });
  }
  if (!orders.length) return s;
  const gb = grandBatteries(s, orders);
  const shots: Shot[] = [];
  for (const o of orders) {
    const ch = unitOf(s, o.target);
    const sh = shotOf(s, o.firer, o.target, 'closing', {
      grandBattery: gb.has(o.firer),
      targetCharging: ch.kind === 'cavalry' ? 'cavalry' : 'infantry',
      firingAndEvading: o.firer === target && r === 'fireEvade',
    });
    if (sh && canHit(sh)) shots.push(sh);
  }
  if (!shots.length) return s;
  let t = s;
  for (const sh of shots) t = setFlags(commitElement(t, unitOf(t, sh.firer)), sh.firer, { closingFired: true });
  say(log, 'T2e', `defensive fire at the chargers of ${tgt.name}: ${shots.map((x) => x.text).join('; ')}`);
  return push(
    t,
    ...shots
      .map((sh) => ({
        t: 'volley' as const,
        firer: sh.firer,
        target: sh.target,
        dice: sh.dice,
        toHit: sh.toHit,
        kind: sh.kind,
        band: sh.band,
      }))
      .reverse(),
  );
}

/** C2: an ME (and its MF) that fires or fights a CAC is committed for good. */
export function commitElement(s: S, u: UnitState): S {
  const e = elementOf(s, u.element);
  let t = e.committed ? s : updCommand(s, e.id, { committed: true });
  if (e.formation) t = updCommand(t, e.formation, { committed: true });
  return t;
}

/** [T2e 3] the chargers' combined closing tests (C11) and the British counter-charge test. */
const closingTestsHandler = {
  kind: 'auto' as const,
  run(s: S, f: H<'closingTests'>, log: Log): S {
    let t = s;
    const r = reactionOf(t, f.target)?.reaction;
    if (r === 'fireEvade' && onTable(unitOf(t, f.target))) {
      t = updUnit(t, f.target, { abandoned: true });
      say(log, 'Movement notes', `${unitOf(t, f.target).name} has fired: its gunners evade, leaving the guns`);
    }
    const tests: ChargeFrame[] = [];
    for (const c of activeAt(t, f.target)) {
      const u = unitOf(t, c.charger);
      const mine = f.hits.filter((h) => h.target === u.id);
      const kias = Math.min(
        figuresOf(u).now,
        mine.reduce((n, h) => n + h.hits, 0),
      );
      // [Skill Tests] "Close range Arty KIA's while closing +1" (C11: once)
      const artillery = mine.some((h) => h.hits > 0 && h.band === 'close' && unitOf(t, h.firer).kind === 'artillery');
      const path = moveCost(
        t.ctx,
        placed(t, { ...u, pos: c.from, facing: c.fromFacing } as UnitState),
        placed(t, u),
        extraCost,
      );
      const uphill = path.contoursUp > 0;
      if (u.disordered || uphill || kias > 0 || u.worn || u.spent || c.opportunity || kias >= figuresOf(u).now)
        tests.push({ t: 'chargeTest', unit: u.id, reason: 'closing', kias, artillery });
    }
    if (r === 'counterChargeAttempt' && onTable(unitOf(t, f.target)))
      tests.push({ t: 'chargeTest', unit: f.target, reason: 'counterCharge' });
    t = push(t, { t: 'closeRest', target: f.target, targetAt: f.targetAt }, ...tests.reverse());
    // the closing fire's hits, applied together (C8), with everything applyKias brings (run before the tests)
    return f.hits.length ? applyFireHits(t, f.hits, 'T2e', log) : t;
  },
};

/** [Skill Tests: Effects of failing] "Worn/Spent: retire 1 move as column disordered facing enemy". */
export function wornRetire(s: S, id: string, rule: string, log: Log): S {
  const u = unitOf(s, id);
  let t = updUnit(s, id, { disordered: true });
  let rate = 6;
  if (u.kind === 'infantry') {
    t = updUnit(t, id, { formation: 'column' });
    rate = moveRate({ arm: 'infantry', formation: 'column', retiring: true }, 'tactical') ?? 6;
  } else if (u.kind === 'cavalry') {
    t = updUnit(t, id, { formation: 'column' });
    rate =
      moveRate({ arm: 'cavalry', weight: u.weight, formation: 'column', retiring: true, blown: false }, 'tactical') ??
      6;
  }
  return fallBack(t, id, rate, 'keep', rule, log);
}

const LOCAL_FOLLOW: Partial<Record<ChargeTestReason, TestFollow>> = {
  closing(s, f, pass, log) {
    const u = unitOf(s, f.unit);
    const c = chargeOf(s, f.unit);
    if (pass || !c) return s;
    if (u.worn || u.spent) {
      say(
        log,
        'Skill Tests',
        `${u.name} is worn or spent: it retires 1 move as column, disordered, and does not close`,
      );
      return wornRetire(updCharge(s, u.id, { stage: 'halted' }), u.id, 'Skill Tests', log);
    }
    if (u.kind === 'infantry') {
      // "Charging infantry fail, deploy in line 1" from defender, disordered and fire"
      say(
        log,
        'Skill Tests',
        `${u.name} fails to close: it deploys in line 1" from ${unitOf(s, c.target).name}, disordered, and fires`,
      );
      let t = updCharge(updUnit(s, u.id, { formation: 'line', disordered: true }), u.id, { stage: 'halted' });
      t = setFlags(t, u.id, { charging: false, fired: true });
      return fireStep(t, [{ firer: u.id, target: c.target, kind: 'fire', dice: null }], 'Skill Tests', log);
    }
    const combined = activeAt(s, c.target).some((x) => unitOf(s, x.charger).kind === 'infantry');
    const cavLeft = activeAt(s, c.target).filter((x) => x.charger !== u.id && unitOf(s, x.charger).kind === 'cavalry');
    if (combined && !cavLeft.length) {
      // C8: "If the infantry closes, the cavalry will recall"
      say(log, 'Movement notes', `${u.name} fails its test and recalls, disordered: the infantry closes (C8)`);
      const t = placeUnit(updUnit(s, u.id, { disordered: true }), u.id, c.from, c.fromFacing);
      return updCharge(t, u.id, { stage: 'recalled' });
    }
    say(log, 'Skill Tests', `${u.name} is disordered but still charges`);
    return updUnit(s, u.id, { disordered: true });
  },
  counterCharge(s, f, pass, log) {
    if (pass) {
      say(log, 'C8', `${unitOf(s, f.unit).name} counter-charges: it counts as charging (+1)`);
      return setFlags(s, f.unit, { charging: true });
    }
    return updUnit(s, f.unit, { disordered: true });
  },
  face(s, f, pass, log) {
    const u = unitOf(s, f.unit);
    if (!pass) return updUnit(s, f.unit, { disordered: true });
    const c = activeAt(s, f.unit).find(
      (x) => attackSector(placed(s, u), { ...placed(s, unitOf(s, x.charger)), pos: x.from }) !== 'front',
    );
    if (!c) return s;
    const h = Math.round(normDeg(headingTo(u.pos, c.from))) % 360;
    say(log, 'Movement notes', `${u.name} turns to face ${unitOf(s, c.charger).name}`);
    return updUnit(s, f.unit, { facing: h });
  },
  pullUpSquare(s, f, pass, log) {
    const c = chargeOf(s, f.unit);
    if (!c) return s;
    const u = unitOf(s, f.unit);
    if (!pass) {
      say(log, 'Cavalry Pull Up/Recall', `${u.name} fails to pull up: it continues its charge into the square`);
      return s;
    }
    say(
      log,
      'Cavalry Pull Up/Recall',
      `${u.name} pulls up and returns to its original position (not disordered or blown)`,
    );
    return updCharge(placeUnit(s, u.id, c.from, c.fromFacing), u.id, { stage: 'pulledUp' });
  },
  pullUpEvade(s, f, pass, log) {
    const c = chargeOf(s, f.unit);
    if (!c) return s;
    if (pass) {
      say(log, 'Movement notes', `${unitOf(s, f.unit).name} pulls up`);
      return updCharge(s, f.unit, { stage: 'pulledUp' });
    }
    const [x, y] = (f.want ?? '').split(',').map(Number);
    return takePosition(
      s,
      f.unit,
      x !== undefined && y !== undefined && Number.isFinite(x) && Number.isFinite(y)
        ? { x, y }
        : unitOf(s, c.target).pos,
      log,
    );
  },
};

/** [Movement notes] the charger takes the target's position (D if it began more than ½ its move away). */
function takePosition(s: S, id: string, at: Vec, log: Log): S {
  const u = unitOf(s, id);
  const c = chargeOf(s, id);
  const facing = Math.round(normDeg(headingTo(u.pos, at))) % 360;
  let t = slide(s, id, headingTo(u.pos, at), dist(u.pos, at) / IN, facing);
  t = setFlags(t, id, { moved: true });
  const half = c && c.startDistance > ((tacticalMove(u) ?? 0) * IN) / 2;
  say(
    log,
    'Movement notes',
    `${u.name} takes position${half && u.kind === 'cavalry' ? ', disordered (it moved more than half its move)' : ''}`,
  );
  if (half && u.kind === 'cavalry') t = updUnit(t, id, { disordered: true });
  return c ? updCharge(t, id, { stage: 'halted' }) : t;
}

/** [T2e 4-5] combined charges, square pull-ups, evaded or removed targets. */
const closeRestHandler = {
  kind: 'auto' as const,
  run(s: S, f: H<'closeRest'>, log: Log): S {
    let t = s;
    let cs = activeAt(t, f.target);
    if (!cs.length) return t;
    const target = unitOf(t, f.target);
    const r = reactionOf(t, f.target)?.reaction ?? 'stand';
    // C8: "If the cavalry closes, infantry will halt at 1""
    const cav = cs.filter((c) => unitOf(t, c.charger).kind === 'cavalry');
    if (cav.length && cav.length < cs.length) {
      for (const c of cs)
        if (unitOf(t, c.charger).kind === 'infantry') {
          t = updCharge(t, c.charger, { stage: 'halted' });
          say(log, 'Movement notes', `${unitOf(t, c.charger).name} halts at 1": the cavalry closes (C8)`);
        }
      cs = activeAt(t, f.target);
    }
    const frames: ChargeFrame[] = [{ t: 'contact', target: f.target }];
    const gone = !onTable(target) || EVADES.includes(r) || (target.kind === 'artillery' && target.abandoned);
    if (gone) {
      // abandoned guns reached are taken (C8)
      if (onTable(target) && target.kind === 'artillery' && target.abandoned) {
        t = updUnit(t, f.target, { status: 'captured' });
        say(log, 'C8', `${unitOf(t, cs[0]!.charger).name} reaches the abandoned guns of ${target.name}: captured`);
      }
      for (const c of cs) {
        const u = unitOf(t, c.charger);
        if (u.kind === 'cavalry') frames.push({ t: 'afterEvade', charger: u.id, targetAt: f.targetAt });
        else t = takePosition(t, u.id, f.targetAt, log);
      }
    } else if (target.kind === 'infantry' && (target.formation === 'hastySquare' || target.formation === 'solidSquare'))
      for (const c of cs) if (unitOf(t, c.charger).kind === 'cavalry') frames.push({ t: 'pullUp', charger: c.charger });
    return push(t, ...frames);
  },
};

const pullUpHandler: DecisionHandler<S, H<'pullUp'>, Action> = {
  kind: 'decision',
  owner: (f, s) => unitOf(s, f.charger).side,
  legal: (_s, f) => [`pull up ${f.charger}`, `charge home ${f.charger}`],
  skip: (s, f) => chargeOf(s, f.charger)?.stage !== 'declared' || !onTable(unitOf(s, f.charger)),
  step(s, f, a, log) {
    if (a.startsWith('charge home')) {
      say(log, 'Cavalry Pull Up/Recall', `${unitOf(s, f.charger).name} charges home into the square`);
      return s;
    }
    return push(s, { t: 'chargeTest', unit: f.charger, reason: 'pullUpSquare' });
  },
  describe: (s, f) =>
    `${unitOf(s, f.charger).name} faces a square: pull up (a skill test) or charge home [Cavalry Pull Up/Recall]`,
};

/** [Movement notes] the new targets a pursuit may contact: enemy units within 22.5° and 8" beyond the target's spot. */
function pursuitTargets(s: S, charger: string, targetAt: Vec): UnitState[] {
  const u = unitOf(s, charger);
  const c = chargeOf(s, charger);
  const dir = headingTo(c?.from ?? u.pos, targetAt);
  const there = placed(s, { ...u, pos: targetAt, facing: Math.round(normDeg(dir)) % 360 } as UnitState);
  return unitsOf(s, other(u.side)).filter((e) => {
    const body = polyOf(placed(s, e));
    return (
      withinPursuitCone(targetAt, dir, body) && polygonDistance(polyOf(there), body) <= MOVEMENT_NOTES.pursueUpTo * IN
    );
  });
}

const afterEvadeHandler: DecisionHandler<S, H<'afterEvade'>, Action> = {
  kind: 'decision',
  owner: (f, s) => unitOf(s, f.charger).side,
  legal(s, f) {
    const u = unitOf(s, f.charger);
    const c = chargeOf(s, f.charger)!;
    const out: Action[] = [];
    if (c.startDistance < ((tacticalMove(u) ?? 0) * IN) / 2) out.push(`pull up ${u.id}`);
    out.push(`take position ${u.id}`, `pursue ${u.id}`);
    for (const e of pursuitTargets(s, u.id, f.targetAt)) out.push(`pursue ${u.id} ${e.id}`);
    return out;
  },
  skip: (s, f) => chargeOf(s, f.charger)?.stage !== 'declared' || !onTable(unitOf(s, f.charger)),
  step(s, f, a, log) {
    const u = unitOf(s, f.charger);
    const c = chargeOf(s, f.charger)!;
    if (a.startsWith('pull up')) {
      // "British cavalry attempts to pull-up after target evades": a test
      if (u.nationality === 'british')
        return push(s, { t: 'chargeTest', unit: u.id, reason: 'pullUpEvade', want: `${f.targetAt.x},${f.targetAt.y}` });
      say(log, 'Movement notes', `${u.name} pulls up (it had moved less than half its move: not disordered)`);
      return updCharge(s, u.id, { stage: 'pulledUp' });
    }
    if (a.startsWith('take position')) return takePosition(s, u.id, f.targetAt, log);
    const [, , newTarget] = a.split(' ');
    const dir = headingTo(c.from, f.targetAt);
    const facing = Math.round(normDeg(dir)) % 360;
    let t = placeUnit(s, u.id, f.targetAt, facing);
    t = setFlags(t, u.id, { moved: true });
    // [Movement notes] "(D & B at end of move)": the pursuit's own move, so a pursuer that contacts a new target
    // fights it disordered and blown (unlike victorious cavalry, D & B "at the end of phase")
    const spent = { disordered: true, blown: true } as const;
    if (!newTarget) {
      t = updUnit(slide(t, u.id, dir, MOVEMENT_NOTES.pursueUpTo, facing), u.id, spent);
      say(
        log,
        'Movement notes',
        `${u.name} pursues up to 8" beyond ${unitOf(s, c.target).name}'s position: disordered and blown at the end of the move`,
      );
      return updCharge(t, u.id, { stage: 'halted' });
    }
    const e = unitOf(t, newTarget);
    const to = approach(t, unitOf(t, u.id), polyOf(placed(t, e)), 1);
    t = chargeFromHere(updUnit(placeUnit(t, u.id, to.pos, to.facing), u.id, spent), u.id, f.targetAt, facing);
    say(
      log,
      'Movement notes',
      `${u.name} pursues into ${e.name} (within 22.5°): disordered and blown at the end of the move, a new close assault`,
    );
    t = updCharge(t, u.id, { stage: 'contact' });
    return updTactical(t, {
      cacQueue: [...tac(t).cacQueue, { attackers: [u.id], defenders: [newTarget], second: false }],
    });
  },
  describe: (s, f) =>
    `${unitOf(s, f.charger).name}'s target is gone: pull up, take position or pursue [Movement notes]`,
};

/** Mark a cavalry unit for D & B at the end of the phase (the `chargesDone` frame's list). */
export function blowAtEnd(s: S, id: string): S {
  let i = s.stack.length - 1;
  while (i >= 0 && s.stack[i]!.t !== 'chargesDone') i--;
  if (i < 0) return updUnit(s, id, { disordered: true, ...(unitOf(s, id).kind === 'cavalry' ? { blown: true } : {}) });
  const f = s.stack[i] as H<'chargesDone'>;
  if (f.blowAtEnd.includes(id)) return s;
  const stack = s.stack.slice() as Frame[];
  stack[i] = { ...f, blowAtEnd: [...f.blowAtEnd, id] };
  return { ...s, stack };
}

/** [T2e 6-7] contact: double quick and major obstacles disorder, the unanchored flank, the CAC queued. */
const contactHandler = {
  kind: 'auto' as const,
  run(s: S, f: H<'contact'>, log: Log): S {
    let t = s;
    const cs = activeAt(t, f.target);
    const target = unitOf(t, f.target);
    if (!cs.length || !onTable(target)) return t;
    const tp = polyOf(placed(t, target));
    for (const c of cs) {
      const u = unitOf(t, c.charger);
      const crossed = t.ctx.terrain.lines.some(
        (l) => l.kind === 'majorObstacle' && segmentCrossesPolyline(c.from, target.pos, l.points),
      );
      const to = approach(t, u, tp, 1);
      t = placeUnit(t, u.id, to.pos, to.facing);
      t = setFlags(updCharge(t, u.id, { stage: 'contact' }), u.id, { moved: true });
      if (c.doubleQuick) {
        t = updUnit(t, u.id, { disordered: true });
        say(log, 'Movement', `${u.name} charged at the double quick: disordered (C6)`);
      }
      if (crossed) {
        t = updUnit(t, u.id, { disordered: true });
        say(log, 'Terrain', `${u.name} charged across a major linear obstacle: disordered`);
      }
    }
    // [CAC Modifiers] "Infantry with an unanchored flank attacked by cavalry: Auto Disordered"
    if (
      target.kind === 'infantry' &&
      (target.formation === 'line' ||
        target.formation === 'column' ||
        target.formation === 'marchColumn' ||
        target.formation === 'skirmish')
    ) {
      const me = placed(t, target);
      const friends = unitsOf(t, target.side)
        .filter((x) => x.id !== target.id)
        .map((x) => placed(t, x));
      const anchors = t.ctx.buas.map((b) => b.polygon);
      for (const c of cs) {
        const u = unitOf(t, c.charger);
        if (u.kind !== 'cavalry') continue;
        const sector = attackSector(me, { ...placed(t, u), pos: c.from });
        const flanks: ('left' | 'right')[] =
          sector === 'left' ? ['left'] : sector === 'right' ? ['right'] : sector === 'rear' ? ['left', 'right'] : [];
        if (flanks.some((fl) => unanchoredFlank(me, fl, friends, anchors))) {
          t = updUnit(t, target.id, { disordered: true });
          say(
            log,
            'Close Assault Modifiers',
            `${target.name}'s unanchored flank is attacked by cavalry: auto disordered`,
          );
          break;
        }
      }
    }
    const attackers = cs.map((c) => c.charger);
    return updTactical(t, {
      cacQueue: [...tac(t).cacQueue, { attackers, defenders: defendersOf(t, target), second: false }],
    });
  },
};

/**
 * C13 lead units of the defence: the charged unit; a battery that stood supported by infantry has the infantry fight
 * ("Inf will CAC"); supported only by cavalry, the cavalry defends at the halt.
 */
function defendersOf(s: S, target: UnitState): string[] {
  if (target.kind !== 'artillery') return [target.id];
  const me = placed(s, target);
  const friends = unitsOf(s, target.side).filter((x) => x.id !== target.id);
  if (
    !supportedArtillery(
      me,
      friends.map((x) => placed(s, x)),
    )
  )
    return [target.id];
  const near = (k: UnitState['kind']) =>
    friends
      .filter((x) => x.kind === k && gap(me, placed(s, x)) <= IN)
      .sort((a, b) => gap(me, placed(s, a)) - gap(me, placed(s, b)));
  const sup = near('infantry')[0] ?? near('cavalry')[0];
  return sup ? [sup.id, target.id] : [target.id];
}

/** The end of the side's charges: "D & B at the end of phase"; the queues cleared. */
const chargesDoneHandler = {
  kind: 'auto' as const,
  run(s: S, f: H<'chargesDone'>, log: Log): S {
    let t = s;
    for (const id of f.blowAtEnd) {
      const u = unitOf(t, id);
      if (!onTable(u)) continue;
      t = updUnit(t, id, { disordered: true, ...(u.kind === 'cavalry' ? { blown: true } : {}) });
      say(log, 'Result Cavalry results explanations', `${u.name}: disordered and blown at the end of the phase`);
    }
    return t.tactical ? updTactical(t, { charges: [], reactions: [], cacQueue: [], exploitQueue: [] }) : t;
  },
};

export const chargeHandlers = {
  declareCharges: declareHandler,
  opCharge: opChargeHandler,
  reactions: reactionsHandler,
  squareTest: squareTestHandler,
  chargeTest: chargeTestHandler,
  resolveCharges: resolveHandler,
  closeIn: closeInHandler,
  closingTests: closingTestsHandler,
  closeRest: closeRestHandler,
  pullUp: pullUpHandler,
  afterEvade: afterEvadeHandler,
  contact: contactHandler,
  chargesDone: chargesDoneHandler,
};
