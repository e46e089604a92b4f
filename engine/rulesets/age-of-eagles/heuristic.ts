/**
 * Scripted preferences for Age of Eagles (`Game.policyScores`): the tactics the quick-reference sheets imply. Pure
 * scoring of the legal actions at the top frame, higher = better for the player to move, one finite number each.
 * Each unit gets a role per state (cached per state object, so a decision costs ~0.1 ms):
 *
 * - March phase [Play Sequence b1–b3]: a silenced battery rallies first; a disordered unit is left alone when its
 *   March roll risks Broken or Routs, else it is moved (the same roll rallies it on 4+); the nearest mobile unit
 *   marches on an objective its side does not hold (A12: −5 loss points), round by a ford or a bridge in March Column
 *   when a stream is in the way (lining up with the crossing, then a road move over a bridge); cavalry hunts the enemy
 *   it would charge best (limbered or unlimbered guns, disordered or Open Order troops: the B&S modifiers of
 *   tables.ts, less the risk of a square), closes to 8" of it, and charges it when the order is offered; infantry
 *   closes to volley range (2", the enemy in its front arc, ideally outside the enemy's) only on an enemy within 9"
 *   (measured: an infantry advance across the table loses more to fire than it wins), in the formation its March
 *   Mode does not penalise, deploying into Line near the enemy; units with nothing to do step out of effective cannon
 *   fire; a battery unlimbers where it has targets and limbers to close in only when it has none and time to spare;
 *   leaders attach to and ride with the units that have work to do (+2/+3 on the March table); the March phase ends
 *   once no unit has a useful order (an unordered unit holds without rolling).
 * - Volley & Cannonade: the target with the best expected effect (the results table's odds on D10 + the DRMs fire.ts
 *   applies, valued in loss points, disorder and silencing, a removal or a wrecked battery counted extra, the hits
 *   already waiting in the step counted, A6); holding fire is never preferred.
 * - Reactions and results: infantry charged by cavalry forms square; cavalry countercharges unless clearly outmatched;
 *   cavalry recalls after a combat, carrying the position only at good odds.
 *
 * `tuning` holds the few numbers the measurements against a random player chose (see heuristic.test.ts).
 */
import {
  type Rect,
  type Vec,
  headingTo,
  headingVec,
  normDeg,
  polygonDistance,
  rectCorners,
  segmentsIntersect,
  translate,
  wheel as wheelRect,
} from '../../geometry/geometry.ts';
import {
  alongRoad,
  armOf,
  moveCost,
  coverLevel,
  enfiladed,
  fireRange,
  footprint,
  inFrontArc,
  nearestDistanceToPoint,
  onRoad,
  poly,
} from './shape.ts';
import { shots } from './fire.ts';
import { roadKind } from './manoeuvre.ts';
import { IN, onTable, unitOf } from './state.ts';
import {
  FIRE_RESULTS,
  HITS_TO_REMOVE,
  batteryFirePoints,
  bayonetDrm,
  inconsistentWithMarchMode,
  infantryMoverKind,
  movementRate,
  rollOn,
} from './tables.ts';
import type { Action, AoeState, Frame, InfFormation, CavFormation, Order, Side, Unit } from './types.ts';

/** Infantry halts this far (edge to edge) from its enemy: inside volley range (3"), outside the 1" separation. */
const VOLLEY_STAND = 2 * IN;

/** Tuning knobs (read at each call; tests and experiments may change them). */
const tuning = {
  /** Infantry stands off at this distance until the last turn (0: closes to volley range at once). */
  standOff: 0,
  /** Penalty for ending in an enemy infantry unit's front arc within musketry. */
  exposed: 0.7,
  /** Infantry advances at all. */
  infantryAdvance: true,
  /** Infantry advances on an enemy only this near (edge to edge). */
  advanceWithin: 9 * IN,
  /** Cavalry hunts. */
  hunt: true,
  /** Cavalry closes to this distance of its prey (1/100"), inside its charge reach for next turn. */
  huntAt: 8 * IN,
  /** Charge only at this B&S edge (plus the target's weakness) or better. */
  chargeBar: 2,
  /** The edge lost to a possible square. */
  squareRisk: 1.5,
  /** Cost (1/100") per enemy fire point on a crossing, choosing the crossing to take. */
  crossDanger: 0,
  /** An objective taker forms March Column this near its crossing's waypoint. */
  columnNear: 8 * IN,
  /** Units with this many hits are not sent for an objective. */
  takerHits: 3,
  /** In this many last turns, a side not ahead on loss points pushes its infantry on. */
  pushTurns: 0,
  /** An unlimbered battery with no effective target (8+ fire points) limbers to close in. */
  batteryAdvance: false,
  /** Idle units step out of effective cannon fire. */
  shelter: true,
  /** Infantry advances only on a weakened enemy (disordered, hit, limbered, in column) within this distance. */
  weakWithin: 0,
};
/** Volley range [Fire Points at Range]. */
const VOLLEY = 3 * IN;
/** Skirmish / musketry reach. */
const MUSKETRY = 6 * IN;
/** Battery reach. */
const CANNON = 24 * IN;
/** Fire points that give a battery a chance of a hit (DRM −2: Telling Fire on a 10). */
const EFFECTIVE_FP = 8;
/** Beyond this, infantry marches in its March Mode's formation; nearer it deploys into Line. */
const DEPLOY = 6.5 * IN;
/** Cavalry stays this far from enemy infantry and guns when it has nothing to charge. */
const CAV_SAFE = 8 * IN;
/** A unit within this of an objective point holds it (A12: 3"), with a margin. */
const OBJ_NEAR = 2.5 * IN;

function angleDiff(a: number, b: number): number {
  const d = Math.abs((((a - b) % 360) + 360) % 360);
  return d > 180 ? 360 - d : d;
}

const topOf = (s: AoeState): Frame | undefined => s.stack[s.stack.length - 1];

type Role = 'rally' | 'objective' | 'advance' | 'hold' | 'away' | 'battery' | 'charge' | 'hunt' | 'shelter';

interface UnitInfo {
  /** Nearest enemy on the table (edge to edge) and the distance; Infinity when none. */
  readonly foe: Unit | undefined;
  readonly d: number;
  /** The objective point this unit should take, if any. */
  readonly goal: Vec | undefined;
  /** A waypoint on the way to `goal` (a ford or bridge to line up with, then cross), if the way is not straight. */
  readonly via: Waypoint | undefined;
  /** The enemy a cavalry unit hunts (closes to charge reach of), if any. */
  readonly prey: Unit | undefined;
  readonly role: Role;
  /** How much the unit wants an order this March phase (≤ 0: hold). */
  readonly want: number;
}

interface Facts {
  readonly info: Map<string, UnitInfo>;
}

const cache = new WeakMap<AoeState, Facts>();

function facts(s: AoeState): Facts {
  let f = cache.get(s);
  if (!f) {
    f = computeFacts(s);
    cache.set(s, f);
  }
  return f;
}

function nearestFoe(u: Unit, on: readonly Unit[]): { foe: Unit | undefined; d: number } {
  let foe: Unit | undefined;
  let d = Infinity;
  const p = poly(u);
  for (const o of on) {
    if (o.side === u.side) continue;
    const x = polygonDistance(p, poly(o));
    if (x < d) {
      d = x;
      foe = o;
    }
  }
  return { foe, d };
}

/** An enemy worth closing on with infantry: disordered, hit, limbered, or in a column that fires badly. */
function weakened(t: Unit): boolean {
  if (t.k === 'bat') return t.limbered || t.dis;
  if (t.k === 'cav') return false;
  return t.dis || t.hits > 0 || t.f === 'MarchColumn' || t.f === 'Masse' || t.f === 'Square';
}

/** [Movement] A4 the places a stream may be crossed: its fords' middles and its bridges (where a road crosses it). */
interface Crossing {
  readonly x: number;
  readonly y: number;
  /** The stream's direction there (degrees), for lining up across it. */
  readonly along: number;
  readonly seg: readonly [Vec, Vec];
}

const crossingCache = new WeakMap<AoeState['ctx'], Crossing[]>();

function crossings(ctx: AoeState['ctx']): Crossing[] {
  let out = crossingCache.get(ctx);
  if (out) return out;
  out = [];
  for (const st of ctx.streams) {
    const pts = st.points;
    for (let i = 0; i + 1 < pts.length; i++) {
      const a = pts[i]!;
      const b = pts[i + 1]!;
      const along = headingTo(a, b);
      for (const f of st.fords) {
        const x = (f.from + f.to) / 2;
        if ((a.x - x) * (b.x - x) > 0 || a.x === b.x) continue;
        const t = (x - a.x) / (b.x - a.x);
        out.push({ x, y: a.y + t * (b.y - a.y), along, seg: [a, b] });
      }
      for (const road of ctx.roads)
        for (let j = 0; j + 1 < road.length; j++) {
          const p = road[j]!;
          const q = road[j + 1]!;
          if (!segmentsIntersect(a, b, p, q)) continue;
          const den = (b.x - a.x) * (q.y - p.y) - (b.y - a.y) * (q.x - p.x);
          if (den === 0) continue;
          const t = ((p.x - a.x) * (q.y - p.y) - (p.y - a.y) * (q.x - p.x)) / den;
          out.push({ x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y), along, seg: [a, b] });
        }
    }
  }
  crossingCache.set(ctx, out);
  return out;
}

/** A waypoint at a crossing: the point, the direction across (a unit vector), and whether it is the lining-up point. */
interface Waypoint extends Vec {
  readonly across: Vec;
  readonly lineUp: boolean;
}

/** Does the straight way from `p` to `q` cross a stream? */
function crossesStream(ctx: AoeState['ctx'], p: Vec, q: Vec): boolean {
  for (const st of ctx.streams)
    for (let i = 0; i + 1 < st.points.length; i++)
      if (segmentsIntersect(p, q, st.points[i]!, st.points[i + 1]!)) return true;
  return false;
}

/**
 * The waypoint on the way from unit `u` to `goal` when a stream is in the way: the crossing (ford or bridge) with the
 * shortest way round; 3" short of it on this side until the unit is lined up with it, then 3" beyond it.
 */
function route(ctx: AoeState['ctx'], u: Unit, goal: Vec, on: readonly Unit[]): Waypoint | undefined {
  if (!crossesStream(ctx, u, goal)) return undefined;
  const best = bestCrossing(ctx, u, goal, on);
  if (!best) return undefined;
  // the normal across the stream, pointing to the unit's side
  const nv = headingVec(best.along + 90);
  let nx = nv.x;
  let ny = nv.y;
  const side = (u.x - best.x) * nx + (u.y - best.y) * ny;
  if (side < 0) {
    nx = -nx;
    ny = -ny;
  }
  // lateral offset from the crossing's line
  const lat = Math.abs((u.x - best.x) * -ny + (u.y - best.y) * nx);
  // the direction across, toward the goal
  const across = { x: -nx, y: -ny };
  if (lat <= 50 && Math.abs(side) <= 6 * IN)
    return { x: best.x - nx * 3 * IN, y: best.y - ny * 3 * IN, across, lineUp: false };
  return { x: best.x + nx * 3 * IN, y: best.y + ny * 3 * IN, across, lineUp: true };
}

/** The length of the way from `u` to `goal`, round by the best crossing when a stream is in the way (+1 turn). */
function wayLength(ctx: AoeState['ctx'], u: Unit, goal: Vec, on: readonly Unit[]): number {
  const direct = nearestDistanceToPoint(u, goal.x, goal.y);
  if (!crossesStream(ctx, u, goal)) return direct;
  const c = bestCrossing(ctx, u, goal, on);
  return c ? crossingCost(u, goal, c, on) + rateOf(u) : 1000 * IN;
}

/** The way round by crossing `c`, with each effective enemy gun on the crossing counted as 1" per fire point. */
function crossingCost(u: Unit, goal: Vec, c: Crossing, on: readonly Unit[]): number {
  const at: Unit = { ...u, x: Math.round(c.x), y: Math.round(c.y) };
  return (
    Math.hypot(c.x - u.x, c.y - u.y) +
    Math.hypot(goal.x - c.x, goal.y - c.y) +
    (tuning.crossDanger ? cannonDanger(on, at) * tuning.crossDanger : 0)
  );
}

function bestCrossing(ctx: AoeState['ctx'], u: Unit, goal: Vec, on: readonly Unit[]): Crossing | undefined {
  let best: Crossing | undefined;
  let bl = Infinity;
  for (const c of crossings(ctx)) {
    const l = crossingCost(u, goal, c, on);
    if (l < bl) {
      bl = l;
      best = c;
    }
  }
  return best;
}

/** A12 loss points: 5 per unit removed, 1 per hit on the table, −5 per objective held. */
function lossPointsOf(s: AoeState, side: Side): number {
  let p = 0;
  for (const u of s.units) if (u.side === side) p += u.gone ? 5 : u.hits;
  for (const h of s.held) if (h === side) p -= 5;
  return p;
}

/** Basic move of a unit that can move (infantry in Square and BUA occupants: 0). */
function rateOf(u: Unit): number {
  if (u.bua) return 0;
  if (u.k === 'bat') return movementRate(u.mob === 'Foot' ? 'footArtillery' : 'horseArtillery').basic * IN;
  if (u.k === 'cav') return movementRate('cavalry').basic * IN;
  const k = infantryMoverKind(u.f);
  return k ? movementRate(k).basic * IN : movementRate('infantryLine').basic * IN;
}

/** Can the battery hit anything now if unlimbered in place (front arc), with effect (8 fire points or more)? */
function batteryHasTargets(u: Unit, on: readonly Unit[], minFp = EFFECTIVE_FP): boolean {
  if (u.k !== 'bat') return false;
  for (const o of on) {
    if (o.side === u.side || !inFrontArc(u, o)) continue;
    const fp = batteryFirePoints(u.guns, u.cal, fireRange(u, o) / IN, u.damaged);
    if (fp !== null && fp >= minFp) return true;
  }
  return false;
}

/** The most fire points an enemy battery able to fire (unlimbered, not silenced) has on unit `v` now. */
function cannonDanger(on: readonly Unit[], v: Unit): number {
  let worst = 0;
  for (const b of on) {
    if (b.k !== 'bat' || b.side === v.side || b.limbered || b.dis || !inFrontArc(b, v)) continue;
    const fp = batteryFirePoints(b.guns, b.cal, fireRange(b, v) / IN, b.damaged);
    if (fp !== null && fp > worst) worst = fp;
  }
  return worst;
}

/** Weak targets a charge should go for, and the rough B&S edge of `u` charging `t` (A7 modifiers, front attack). */
function chargeEdge(s: AoeState, u: Unit, t: Unit): number {
  if (u.k === 'bat') return -9;
  const tInf = t.k === 'inf';
  const tSquare = tInf && t.f === 'Square';
  const tMasse = tInf && t.f === 'Masse';
  const charge =
    u.k === 'cav' && tInf
      ? tSquare
        ? ('cavalryVsSquare' as const)
        : tMasse
          ? ('cavalryVsMasse' as const)
          : ('cavalryVsInfantryOpen' as const)
      : u.k === 'inf' && tSquare
        ? ('infantryVsSquare' as const)
        : null;
  const stands = (x: Unit) => (x.k === 'bat' ? 1 : x.k === 'cav' ? 4 : 6);
  const mine = bayonetDrm({
    leader: 'none',
    stands: stands(u),
    enemyStands: stands(t),
    charge,
    lancersVsInfantryOpen: u.k === 'cav' && u.lancers && charge === 'cavalryVsInfantryOpen',
    cavalryWeight: u.k === 'cav' && u.wt !== 'Light' ? u.wt : null,
    breakthrough: false,
    disorderedEtc: u.dis,
    hitsThisFirePhase: u.fpHits,
    cover: 0,
    outflanked: false,
    hits: u.hits,
    troopClass: u.cls,
  }).total;
  const theirs = bayonetDrm({
    leader: 'none',
    stands: stands(t),
    enemyStands: stands(u),
    charge: null,
    lancersVsInfantryOpen: false,
    cavalryWeight: t.k === 'cav' && t.wt !== 'Light' ? t.wt : null,
    breakthrough: false,
    disorderedEtc: t.dis || (t.k === 'inf' && t.f === 'OpenOrder') || (t.k === 'bat' && t.limbered),
    hitsThisFirePhase: t.fpHits,
    cover: coverLevel(s, t, u),
    outflanked: !enfiladedSafe(u, t),
    hits: t.hits,
    troopClass: t.k === 'bat' ? null : t.cls,
  }).total;
  return mine - theirs;
}

/** Attacking from the front (not a flank or rear): the −3 outflanked does not apply. */
function enfiladedSafe(u: Unit, t: Unit): boolean {
  return !enfiladed(u, t);
}

function computeFacts(s: AoeState): Facts {
  const on = onTable(s);
  const info = new Map<string, UnitInfo>();
  const near = new Map<string, { foe: Unit | undefined; d: number }>();
  for (const u of on) {
    // infantry and guns close on foot and guns (cavalry comes and goes); cavalry on anything
    const n = nearestFoe(u, u.k === 'cav' ? on : on.filter((o) => o.k !== 'cav' || o.side === u.side));
    near.set(u.id, n.foe ? n : nearestFoe(u, on));
  }
  // objectives: the nearest mobile unit (by time to get there) goes for each one its side does not hold securely
  const goals = new Map<string, Vec>();
  for (const side of [0, 1] as const)
    s.ctx.objectives.forEach((o, i) => {
      // a unit a Withering volley could remove (3+ hits, `tuning.takerHits`) is not sent
      const mine = on.filter(
        (u) => u.side === side && u.k !== 'bat' && !goals.has(u.id) && rateOf(u) > 0 && u.hits < tuning.takerHits,
      );
      const enemyNear = on.some((u) => u.side !== side && nearestDistanceToPoint(u, o.x, o.y) <= 3 * IN);
      const ownNear = on.some((u) => u.side === side && nearestDistanceToPoint(u, o.x, o.y) <= OBJ_NEAR);
      if (s.held[i] === side && !enemyNear && ownNear) {
        // keep the holder where it is
        for (const u of on)
          if (u.side === side && nearestDistanceToPoint(u, o.x, o.y) <= OBJ_NEAR) {
            goals.set(u.id, o);
            break;
          }
        return;
      }
      let best: Unit | undefined;
      let bt = Infinity;
      for (const u of mine) {
        // a speed by arm, not formation, so the choice does not flip when the taker forms column
        const t = wayLength(s.ctx, u, o, on) / (u.k === 'cav' ? 12 * IN : 9 * IN) + u.hits;
        if (t < bt) {
          bt = t;
          best = u;
        }
      }
      if (best) goals.set(best.id, o);
    });
  // A12: a side not ahead on loss points pushes its infantry forward in the last turns
  const lp = [lossPointsOf(s, 0), lossPointsOf(s, 1)];
  const notAhead = [lp[0]! >= lp[1]!, lp[1]! >= lp[0]!];
  for (const u of on) {
    const { foe, d } = near.get(u.id)!;
    const goal = goals.get(u.id);
    let role: Role = 'hold';
    let want = 0;
    let prey: Unit | undefined;
    if (u.dis && (u.k === 'bat' || marchMod(s, u) < 0)) {
      // a silenced battery must rally to fire; troops whose roll risks Broken or Routs are left alone
      role = 'rally';
      want = u.k === 'bat' ? 8 : -1;
    } else if (u.k === 'bat') {
      role = 'battery';
      // an unlimbered battery keeps firing at whatever it reaches; it limbers to close in only with time to spare
      if (u.limbered) want = 7;
      else
        want =
          batteryHasTargets(u, on, tuning.batteryAdvance ? EFFECTIVE_FP : 0) || !foe || s.turn >= s.ctx.turns - 1
            ? 0
            : 3;
    } else if (goal) {
      role = 'objective';
      want = nearestDistanceToPoint(u, goal.x, goal.y) > OBJ_NEAR ? 6 : 0;
    } else if (u.k === 'cav') {
      const t = bestCharge(s, u, on);
      if (t) {
        role = 'charge';
        prey = t;
        want = 6;
      } else {
        prey = tuning.hunt ? huntTarget(s, u, on) : undefined;
        if (prey) {
          role = 'hunt';
          const dp = polygonDistance(poly(u), poly(prey));
          want = Math.abs(dp - tuning.huntAt) > 2 * IN || !inFrontArc(u, prey) ? 4 : 0;
        } else if (d < CAV_SAFE) {
          role = 'away';
          want = 3;
        }
      }
    } else if (u.k === 'inf' && !u.dis && bestCharge(s, u, on)) {
      role = 'charge';
      prey = bestCharge(s, u, on);
      want = 6;
    } else if (u.hits >= 3 && d < MUSKETRY) {
      role = 'away';
      want = 4;
    } else if (
      foe &&
      tuning.infantryAdvance &&
      (d <= tuning.advanceWithin ||
        (d <= tuning.weakWithin && weakened(foe)) ||
        (notAhead[u.side] && s.turn > s.ctx.turns - tuning.pushTurns))
    ) {
      role = 'advance';
      const facing = inFrontArc(u, foe);
      if (d > VOLLEY) want = 5 + Math.min(2, (CANNON - Math.min(CANNON, d)) / (12 * IN));
      else if (!facing) want = 4;
    }
    // nothing to do but stand under effective cannon fire: step out of it (range or arc)
    if (role === 'hold' && u.k !== 'bat' && tuning.shelter && rateOf(u) > 0 && cannonDanger(on, u) >= EFFECTIVE_FP) {
      role = 'shelter';
      want = 2;
    }
    const via = role === 'objective' && goal ? route(s.ctx, u, goal, on) : undefined;
    info.set(u.id, { foe, d, goal, via, prey, role, want });
  }
  return { info };
}

/** The best charge target of `u` within a full move, or undefined if none looks worth it. */
function bestCharge(s: AoeState, u: Unit, on: readonly Unit[]): Unit | undefined {
  let best: Unit | undefined;
  let bv = 0;
  for (const t of on) {
    if (t.side === u.side || !inFrontArc(u, t)) continue;
    if (polygonDistance(poly(u), poly(t)) > rateOf(u)) continue;
    const v = chargeValue(s, u, t);
    if (v > bv) {
      bv = v;
      best = t;
    }
  }
  return best;
}

/** The enemy cavalry `u` should close on: the best charge worth, less its distance (batteries and the weak first). */
function huntTarget(s: AoeState, u: Unit, on: readonly Unit[]): Unit | undefined {
  let best: Unit | undefined;
  let bv = -0.5;
  for (const t of on) {
    if (t.side === u.side || crossesStream(s.ctx, u, t)) continue;
    const v = chargeValue(s, u, t) - polygonDistance(poly(u), poly(t)) / (24 * IN);
    if (v > bv) {
      bv = v;
      best = t;
    }
  }
  return best;
}

/** Worth of `u` charging `t`: the B&S edge, plus weakness of the target; > 0 worth trying. */
function chargeValue(s: AoeState, u: Unit, t: Unit): number {
  const weak =
    (t.dis ? 1 : 0) +
    (t.k === 'inf' && t.f === 'OpenOrder' ? 1 : 0) +
    (t.k === 'bat' && t.limbered ? 1.5 : 0) +
    (t.k !== 'bat' ? t.hits * 0.3 : 0);
  // [Forming Square] infantry charged by cavalry may form square (cavalry −3 instead of +2): count the risk
  const squareRisk =
    u.k === 'cav' && t.k === 'inf' && t.f !== 'Square' && t.f !== 'MarchColumn' && !t.bua ? tuning.squareRisk : 0;
  return chargeEdge(s, u, t) + weak - tuning.chargeBar - squareRisk;
}

function info(s: AoeState, id: string): UnitInfo {
  return (
    facts(s).info.get(id) ?? {
      foe: undefined,
      d: Infinity,
      goal: undefined,
      via: undefined,
      prey: undefined,
      role: 'hold',
      want: 0,
    }
  );
}

// ---------- fire ----------

/** Threat a unit poses (guns and infantry fire; cavalry charges). */
function threat(t: Unit): number {
  return t.k === 'bat' ? (t.limbered ? 0.6 : 1) : t.k === 'inf' ? 0.8 : 0.5;
}

/** Expected worth (in loss points, roughly) of a shot at `t` with D10 + `drm`. */
function shotValue(s: AoeState, t: Unit, drm: number, cannon: boolean): number {
  // hits already waiting for this step (A6) count toward a removal
  let pendingHits = 0;
  let pendingDis = false;
  let pendingDamage = 0;
  for (const p of s.pending) {
    if (p.target !== t.id) continue;
    if (p.result === 'withering') pendingHits += 2;
    if (p.result === 'telling') pendingHits += 1;
    if (p.result !== 'desultory' && (p.cannon || p.result !== 'lively')) pendingDis = true;
    if (p.result === 'telling' || p.result === 'withering') pendingDamage++;
  }
  let v = 0;
  for (const { value, p } of rollOn(FIRE_RESULTS, drm)) {
    const row = FIRE_RESULTS[value]!;
    if (row.cannonadeOnly && !cannon) continue;
    if (t.k === 'bat') {
      if (row.battery === 'wrecked' || (row.battery === 'damaged' && (t.damaged || pendingDamage > 0))) v += 8 * p;
      else if (row.battery === 'damaged') v += 2 * p;
      else if (row.battery === 'silenced' && !t.dis && !pendingDis) v += (t.limbered ? 0.3 : 1) * p;
      continue;
    }
    if (row.troopHits) {
      const before = t.hits + pendingHits;
      const after = before + row.troopHits;
      v += row.troopHits * p;
      if (before < HITS_TO_REMOVE && after >= HITS_TO_REMOVE) v += 4 * p;
    }
    if (row.troopsDisordered && !t.dis && !pendingDis) v += 0.4 * threat(t) * p;
  }
  return v;
}

function fireScores(s: AoeState, f: Extract<Frame, { t: 'fireTarget' }>, actions: readonly Action[]): number[] {
  const u = unitOf(s, f.u);
  const byTarget = new Map(shots(s, u).map((x) => [x.target.id, x]));
  return actions.map((a) => {
    if (a.a !== 'fire') return -1;
    const t = unitOf(s, a.target);
    const sh = byTarget.get(a.target);
    // a shot the estimate cannot read (a rule built after this heuristic): still better than holding
    if (!sh) return 0.05;
    return 0.05 + shotValue(s, t, sh.drm, sh.cannon) * 10 + threat(t) * 0.01;
  });
}

// ---------- march: picks, orders, moves ----------

/**
 * The formation to march in far from the enemy: the present one unless its March Mode penalises it (a change costs
 * half a move, A11), else the one the mode likes.
 */
function marchFormation(u: Unit): InfFormation | CavFormation {
  if (u.k === 'cav') return u.f === 'MarchColumn' ? 'Line' : u.f;
  if (u.k !== 'inf') return 'Line';
  if ((u.f === 'Line' || u.f === 'FieldColumn') && !inconsistentWithMarchMode(u.mm, u.f)) return u.f;
  return u.mm === 'Linear' ? 'Line' : 'FieldColumn';
}

/** A rough March table DRM for a move order (A10 leaders, column, class, hits, cohesion). */
function marchMod(s: AoeState, u: Unit): number {
  let m = 0;
  let att = 0;
  let det = 0;
  for (const l of s.leaders) {
    if (l.side !== u.side || l.captured || !(l.army || l.div === u.div)) continue;
    if (l.att === u.id) att = Math.max(att, l.charismatic ? 3 : 2);
    else if (!l.att && Math.hypot(l.x - u.x, l.y - u.y) <= 12 * IN) det = Math.max(det, l.charismatic ? 2 : 1);
  }
  m += Math.min(4, att + det);
  if (
    u.k !== 'bat' &&
    !u.bua &&
    (u.f === 'FieldColumn' || u.f === 'MarchColumn' || u.f === 'Masse' || u.f === 'Square')
  )
    m += 1;
  if (u.k !== 'bat') m += u.cls === 'Elite' ? 1 : u.cls === 'Conscript' ? -1 : 0;
  return m - u.hits - s.sides[u.side].cohesion;
}

/** The formation the unit should be in for its role and distance. */
function wantedFormation(s: AoeState, u: Unit, i: UnitInfo): InfFormation | CavFormation | null {
  if (u.k === 'bat') return null;
  // a ford or a bridge is passed in March Column (A4: 2" and 1" gaps)
  if (i.role === 'objective' && i.via && Math.hypot(u.x - i.via.x, u.y - i.via.y) <= tuning.columnNear)
    return 'MarchColumn';
  if (u.k === 'cav') return i.d > 16 * IN && onRoad(s.ctx, u) ? 'MarchColumn' : 'Line';
  if (u.light && u.f === 'OpenOrder') return 'OpenOrder';
  if (i.role === 'objective') return i.d > DEPLOY ? marchFormation(u) : 'Line';
  if (i.d > 20 * IN && onRoad(s.ctx, u)) return 'MarchColumn';
  return i.d > DEPLOY ? marchFormation(u) : 'Line';
}

/** The bearing the unit should face/move along. */
function bearingOf(u: Unit, i: UnitInfo): number {
  if (i.role === 'objective' && i.goal) return headingTo(u, i.via ?? i.goal);
  if (i.prey) return headingTo(u, i.prey);
  if (i.foe) return headingTo(u, i.foe);
  return u.h;
}

function pickScores(s: AoeState, actions: readonly Action[]): number[] {
  return actions.map((a) => {
    if (a.a === 'endMarch') return 0;
    if (a.a !== 'pick') return -1;
    const w = info(s, a.u).want;
    return w > 0 ? w : w - 1;
  });
}

function orderScore(s: AoeState, u: Unit, i: UnitInfo, o: Order): number {
  const bearing = bearingOf(u, i);
  const wanted = wantedFormation(s, u, i);
  switch (o.o) {
    case 'hold':
      return 0.5;
    case 'rally':
      // the same roll as a move rallies the unit on 4+ (Shaken or better): moving orders are worth as much, and more
      return u.dis ? (u.k === 'bat' ? 10 : 3) : -1;
    case 'charge': {
      const t = unitOf(s, o.target);
      const v = chargeValue(s, u, t);
      return v > 0 ? 6 + v : v - 1;
    }
    case 'limber':
      if (u.k !== 'bat') return -1;
      return i.role === 'battery' && !batteryHasTargets(u, onTable(s), tuning.batteryAdvance ? EFFECTIVE_FP : 0)
        ? 5
        : -2;
    case 'unlimber':
      if (u.k !== 'bat') return -1;
      return batteryHasTargets(u, onTable(s)) ||
        i.d < 10 * IN ||
        // it cannot close in: a stream in the way
        (i.foe && crossesStream(s.ctx, u, i.foe) && batteryHasTargets(u, onTable(s), 0)) ||
        (s.turn >= s.ctx.turns - 1 && batteryHasTargets(u, onTable(s), 0))
        ? 7
        : 1;
    case 'move': {
      if (u.k === 'bat') return u.limbered ? (batteryHasTargets(u, onTable(s)) ? 3 : 5) : 0;
      if (i.role === 'hold') return 0.2;
      const fit = wanted === null || u.f === wanted ? 1.5 : 0;
      const turn = i.role === 'away' ? 0 : angleDiff(u.h, bearing) / 60;
      return 3.6 + fit - turn;
    }
    case 'form': {
      if (o.f === 'Square') return u.k === 'inf' && i.foe?.k === 'cav' && i.d < 4 * IN ? 4 : -3;
      const fit = o.f === wanted ? 1.5 : o.f === 'MarchColumn' ? -1.5 : o.f === 'Masse' ? -0.5 : 0;
      const turn = angleDiff(o.h, bearing) / 60;
      const about = angleDiff(o.h, u.h) > 135 && i.role !== 'away' ? 0.3 : 0;
      // moving after the change (half a move) is worth it only while the unit still has ground to cover
      const moveBonus = o.thenMove ? (i.role === 'hold' || (i.role === 'advance' && i.d <= VOLLEY) ? -0.2 : 0.4) : 0;
      return 3 + fit - turn - about + moveBonus - 0.3;
    }
  }
}

function orderScores(s: AoeState, f: Extract<Frame, { t: 'order' }>, actions: readonly Action[]): number[] {
  const u = unitOf(s, f.u);
  const i = info(s, f.u);
  return actions.map((a) => (a.a === 'order' ? orderScore(s, u, i, a.order) : -1));
}

/** Where the action would leave the unit (approximate: terrain and legality backing-off ignored). */
function endRect(s: AoeState, u: Unit, a: Action, dist: number): Rect | null {
  const r0 = footprint(u);
  switch (a.a) {
    case 'stay':
      return r0;
    case 'move':
      return translate(r0, normDeg(u.h + a.dir), dist * a.frac);
    case 'wheel':
      return wheelRect(r0, a.side, a.deg);
    case 'road': {
      const rate = movementRate(roadKind(u));
      const base = rateOf(u);
      if (rate.road === null || base <= 0) return null;
      const q = alongRoad(s.ctx, u, u.h, (rate.road * IN * dist * a.frac) / base);
      return q ? { ...r0, x: q.x, y: q.y, h: q.h } : null;
    }
    default:
      return null;
  }
}

function moveScores(s: AoeState, f: Extract<Frame, { t: 'move' }>, actions: readonly Action[]): number[] {
  const u = unitOf(s, f.u);
  const i = info(s, f.u);
  return actions.map((a) => moveScore(s, u, i, f, a));
}

function moveScore(s: AoeState, u: Unit, i: UnitInfo, f: Extract<Frame, { t: 'move' }>, a: Action): number {
  const foe = i.foe;
  if (a.a === 'enter') {
    const obj = s.ctx.objectives.some((o) => o.bua === a.block);
    return obj ? 50 : i.role === 'advance' ? 0.5 : -0.5;
  }
  // [Built Up Areas] a unit holding a block stays in it unless it must go
  if (a.a === 'leave') return i.role === 'away' ? 1 : -1;
  {
    const r0 = endRect(s, u, a, f.allow.dist);
    if (!r0) return -5;
    // a move across a stream away from fords and bridges goes nowhere (A4): read it as staying put
    // (a road move follows the road over its bridges)
    const blocked = a.a !== 'stay' && a.a !== 'road' && !Number.isFinite(moveCost(s.ctx, armOf(u), footprint(u), r0));
    const r = blocked ? footprint(u) : r0;
    const pen = blocked ? 0.5 : 0;
    const back = a.a === 'move' && a.dir === 180;
    if (i.role === 'objective' && i.via) {
      const dx = r.x - i.via.x;
      const dy = r.y - i.via.y;
      if (!i.via.lineUp) return -Math.hypot(dx, dy) / IN - pen;
      // lining up with the crossing: the offset across the line of the crossing counts most (a ford is 2" wide, a
      // bridge 1"); a column on the road crosses a bridge by a road move
      const lat = Math.abs(dx * i.via.across.y - dy * i.via.across.x);
      const along = Math.abs(dx * i.via.across.x + dy * i.via.across.y);
      return -(3 * lat + along) / IN - pen + (onRoad(s.ctx, r) ? 1 : 0);
    }
    if (i.role === 'objective' && i.goal) {
      const dg = Math.hypot(r.x - i.goal.x, r.y - i.goal.y);
      // stop inside the holding radius (3" of the point, edge of the unit) rather than the point itself
      return -Math.max(0, dg - OBJ_NEAR) / IN - (back ? 0.5 : 0) - pen;
    }
    if (!foe) return a.a === 'stay' ? 0 : -0.1;
    const d = polygonDistance(rectCorners(r), poly(foe));
    const face = angleDiff(r.h, headingTo(r, foe)) / 45;
    if (i.role === 'away') return Math.min(d, 10 * IN) / IN - (back ? 0 : 0.2);
    if (i.role === 'shelter') {
      const v: Unit = { ...u, x: Math.round(r.x), y: Math.round(r.y), h: normDeg(Math.round(r.h)) };
      return -cannonDanger(onTable(s), v) / 2 - (d < MUSKETRY ? 2 : 0) - pen - (a.a === 'stay' ? 0 : 0.1);
    }
    if ((i.role === 'hunt' || i.role === 'charge') && i.prey) {
      const dp = polygonDistance(rectCorners(r), poly(i.prey));
      const fp = angleDiff(r.h, headingTo(r, i.prey)) / 45;
      if (u.k === 'inf') return -Math.abs(dp - VOLLEY_STAND) / IN - fp * 1.5 - (back ? 3 : 0) - pen;
      // cavalry closes to charge reach, never backs off its prey; out of musketry of the other enemies on the way
      const risk = d < MUSKETRY && foe.id !== i.prey.id ? 2 : 0;
      const off = dp > tuning.huntAt ? dp - tuning.huntAt : (tuning.huntAt - dp) * 0.2;
      return -off / IN - fp - risk - pen;
    }
    if (u.k === 'cav') return -Math.abs(d - CAV_SAFE - IN) / IN - face * 0.5;
    if (u.k === 'bat') {
      // close to canister-ish range but stay out of musketry
      const ideal = 8 * IN;
      return -Math.abs(d - ideal) / IN - face - (d < MUSKETRY + IN ? 4 : 0);
    }
    // infantry: halt inside volley range with the enemy in its front arc, ideally outside the enemy's (enfilade, no
    // fire back); never walk backwards when advancing
    const v: Unit = { ...u, x: Math.round(r.x), y: Math.round(r.y), h: normDeg(Math.round(r.h)) };
    const iSee = d <= MUSKETRY && inFrontArc(v, foe);
    const theySee = d <= MUSKETRY && foe.k === 'inf' && inFrontArc(foe, v);
    const ideal = tuning.standOff && s.turn < s.ctx.turns ? tuning.standOff : VOLLEY_STAND;
    return (
      -Math.abs(d - ideal) / IN - face * 0.5 + (iSee ? 1.5 : 0) - (theySee ? tuning.exposed : 0) - (back ? 3 : 0) - pen
    );
  }
}

// ---------- leaders ----------

/** Own units within 12" of point p (centres, a cheap proxy for A10 reach). */
function unitsNear(s: AoeState, side: Side, p: Vec): number {
  let n = 0;
  for (const u of onTable(s))
    if (u.side === side && u.k !== 'bat' && Math.hypot(u.x - p.x, u.y - p.y) <= 12 * IN)
      n += info(s, u.id).want > 0 ? 2 : 1;
  return n;
}

function leaderScores(s: AoeState, p: Side, actions: readonly Action[]): number[] {
  return actions.map((a) => {
    switch (a.a) {
      case 'doneLeaders':
      case 'doneLeaderMoves':
        return 0;
      case 'attach': {
        // [TMMs] an attached leader gives +2/+3 to the one unit's March roll: ride with a unit that must move, one
        // leader to a unit (the detached +1/+2 is lost to the others, so only for units with orders to carry out)
        const u = unitOf(s, a.u);
        if (u.k === 'bat') return -0.5;
        const taken = s.leaders.some((l) => l.att === u.id && !l.captured);
        const w = info(s, u.id).want;
        return taken || w <= 0 ? -0.5 : 1 + w / 10;
      }
      case 'detach': {
        // stay with a unit that still has work to do
        const l = s.leaders.find((x) => x.id === a.l);
        return l && info(s, l.att).want > 0 ? -0.5 : 0.2;
      }
      case 'leaderTo': {
        const l = s.leaders.find((x) => x.id === a.l);
        const u = unitOf(s, a.u);
        if (!l) return -1;
        // ride to a unit with a charge or an objective to carry out, to attach to it next March phase
        const w = info(s, u.id).want;
        if (u.k !== 'bat' && w >= 4 && !s.leaders.some((x) => x.att === u.id && !x.captured)) return 1 + w / 10;
        const gain = unitsNear(s, p, u) - unitsNear(s, p, l);
        return gain > 0 ? gain * 0.5 : -0.5;
      }
      default:
        return -1;
    }
  });
}

// ---------- the entry point ----------

/** One finite score per legal action at the top decision, higher = better for the player to move. */
export function policyScores(s: AoeState, actions: readonly Action[]): number[] {
  const f = topOf(s);
  if (!f) return actions.map(() => 0);
  switch (f.t) {
    case 'initChoice':
      // the 1st player moves and fires first; on the last turn the 2nd player has the last word
      return actions.map((a) => ((a.a === 'first') === s.turn < s.ctx.turns ? 1 : 0));
    case 'leaders':
    case 'leaderMove':
      return leaderScores(s, f.p, actions);
    case 'pickUnit':
      return pickScores(s, actions);
    case 'order':
      return orderScores(s, f, actions);
    case 'move':
      return moveScores(s, f, actions);
    case 'fireTarget':
      return fireScores(s, f, actions);
    case 'react': {
      const u = unitOf(s, f.u);
      const by = unitOf(s, f.by);
      return actions.map((a) => {
        switch (a.a) {
          case 'square':
            return u.k === 'inf' && by.k === 'cav' ? 2 : -1;
          case 'noSquare':
            return 0;
          case 'countercharge':
            return u.k === 'cav' && chargeEdge(s, u, by) >= -1 ? 1 : -0.5;
          case 'stand':
            return 0;
          default:
            return -1;
        }
      });
    }
    case 'afterCombat': {
      const u = unitOf(s, f.u);
      const i = info(s, f.u);
      return actions.map((a) => {
        if (a.a === 'recall') return 0.5 + a.frac;
        if (a.a === 'carry') return i.foe && chargeValue(s, u, i.foe) > 0 ? 2 : 0;
        return -1;
      });
    }
    default:
      return actions.map(() => 0);
  }
}
