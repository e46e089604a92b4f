/**
 * Cavalry charge lanes [10.0, 10.1, 10.11]: the target is exactly two areas away along a straight
 * line — the centre-to-centre segment passes through exactly one other area and runs along no boundary — through an
 * intervening area empty of all units and leaders; neither that area nor the target is town, village, woods or swamp;
 * no boundary on the path is a slope crossed uphill or an escarpment; diagonal steps meet [13.11]; the target holds an
 * enemy combat unit or HQ. Pure: occupancy comes from the caller.
 */
import { traceLos } from '../../areas/los.ts';
import type { AreaId, AreaMap } from '../../areas/map.ts';

const BANNED_AREA = new Set(['town', 'city', 'village', 'hamlet', 'woods', 'forest', 'swamp']);

export interface LaneWorld {
  readonly map: AreaMap;
  /** Anything at all in the area (units, leaders, HQ of either side). */
  readonly occupied: (a: AreaId) => boolean;
  /** Enemy combat units or HQ in the area. */
  readonly enemyTarget: (a: AreaId) => boolean;
  /** Enemy combat units in the area (for the diagonal rule [13.11 B1]). */
  readonly enemyUnits: (a: AreaId) => boolean;
  /** An enemy infantry long counter adjacent to `a` has `a` in its front set [10.11]. */
  readonly frontOfEnemyLc: (a: AreaId) => boolean;
}

export interface Lane {
  readonly via: AreaId;
  readonly target: AreaId;
}

export type LaneVerdict =
  | { readonly ok: true; readonly via: AreaId }
  | { readonly ok: false; readonly rule: string; readonly why: string };

function crossingBanned(map: AreaMap, from: AreaId, to: AreaId): string | null {
  const b = map.boundary(from, to)!;
  const kinds = b.kind === 'point' ? b.crossingTerrain : b.terrain;
  if (kinds.includes('escarpment')) return `the escarpment between ${from} and ${to}`;
  if (kinds.includes('slope') && b.up === to) return `the slope up from ${from} to ${to}`;
  if (kinds.includes('river')) return `the river between ${from} and ${to}`;
  return null;
}

/** Why a charge from `origin` at `target` is illegal, or its intervening area. */
export function checkLane(w: LaneWorld, origin: AreaId, target: AreaId): LaneVerdict {
  const { map } = w;
  if (w.frontOfEnemyLc(origin))
    return { ok: false, rule: '10.11', why: `area ${origin} is in front of an enemy infantry long counter` };
  if (map.range(origin, target) !== 2)
    return { ok: false, rule: '10.1', why: `the target must be two areas away (it is ${map.range(origin, target)})` };
  if (!w.enemyTarget(target)) return { ok: false, rule: '10.1', why: `area ${target} holds no enemy unit (A-15)` };
  const t = traceLos(map, origin, target);
  if (t.areas.length !== 1 || t.along.length)
    return {
      ok: false,
      rule: '10.1',
      why: `the line from ${origin} to ${target} does not pass through exactly one area (A-14)`,
    };
  const via = t.areas[0]!;
  if (w.occupied(via)) return { ok: false, rule: '10.1', why: `the intervening area ${via} is not empty (A-14)` };
  for (const a of [via, target]) {
    const ban = areaBan(map, a);
    if (ban) return { ok: false, ...ban };
  }
  for (const [a, b] of [
    [origin, via],
    [via, target],
  ] as const) {
    const ban = crossingBan(w, a, b);
    if (ban) return { ok: false, ...ban };
  }
  return { ok: true, via };
}

export interface StepBan {
  readonly rule: string;
  readonly why: string;
}

/** [10.0] charging cavalry may not enter a town, village, woods or swamp (and the TEC's like kinds). */
function areaBan(map: AreaMap, a: AreaId): StepBan | null {
  const bad = map.area(a).terrain.find((k) => BANNED_AREA.has(k));
  return bad ? { rule: '10.0', why: `cavalry may not charge into ${bad} (area ${a})` } : null;
}

/** [10.0] the crossing from `a` into `b` (escarpment, slope uphill, river), and a diagonal step's corners [13.11]. */
function crossingBan(w: LaneWorld, a: AreaId, b: AreaId): StepBan | null {
  const ban = crossingBanned(w.map, a, b);
  if (ban) return { rule: '10.0', why: `a charge may not cross ${ban}` };
  const bd = w.map.boundary(a, b)!;
  if (bd.kind === 'point' && bd.corners.some((c) => w.enemyUnits(c)))
    return { rule: '13.11', why: `a corner of the diagonal step ${a}→${b} holds enemy units` };
  return null;
}

/**
 * Why charging cavalry may not step from `from` into the adjacent area `to`, or null: the same area and crossing bans
 * every step of a charge lane meets (`checkLane`) [10.0, 13.11]. A pursuit is such a step: it enters one
 * adjacent area regardless of movement cost "unless the terrain is prohibited [10.0]", and all other charge rules
 * but the two-area range apply [10.92].
 */
export function chargeStepBan(w: LaneWorld, from: AreaId, to: AreaId): StepBan | null {
  if (!w.map.boundary(from, to)) return { rule: '10.92', why: `area ${to} is not adjacent to area ${from}` };
  return areaBan(w.map, to) ?? crossingBan(w, from, to);
}

/**
 * What a lane from `origin` at `target` (two areas apart) owes to the map alone, worked out once per map and pair:
 * the line through exactly one area, the terrain bans of that area and the target, and the crossings (escarpment,
 * slope uphill, river); with the corners of each diagonal step, which must hold no enemy units [13.11].
 */
interface StaticLane {
  readonly via: AreaId | null;
  readonly corners: readonly (readonly AreaId[])[];
}
const staticLanes = new WeakMap<AreaMap, Map<AreaId, Map<AreaId, StaticLane>>>();
function staticLane(map: AreaMap, origin: AreaId, target: AreaId): StaticLane {
  let byOrigin = staticLanes.get(map);
  if (!byOrigin) staticLanes.set(map, (byOrigin = new Map()));
  let byTarget = byOrigin.get(origin);
  if (!byTarget) byOrigin.set(origin, (byTarget = new Map()));
  let l = byTarget.get(target);
  if (!l) {
    const t = traceLos(map, origin, target);
    const via = t.areas.length === 1 && !t.along.length ? t.areas[0]! : null;
    const ok =
      via !== null &&
      !areaBan(map, via) &&
      !areaBan(map, target) &&
      !crossingBanned(map, origin, via) &&
      !crossingBanned(map, via, target);
    const corners: AreaId[][] = [];
    if (ok)
      for (const [a, b] of [
        [origin, via],
        [via, target],
      ] as const) {
        const bd = map.boundary(a, b)!;
        if (bd.kind === 'point') corners.push(bd.corners as AreaId[]);
      }
    byTarget.set(target, (l = { via: ok ? via : null, corners }));
  }
  return l;
}
/** The areas two away from each area, in the map's order. */
const rangeTwo = new WeakMap<AreaMap, Map<AreaId, readonly AreaId[]>>();
function areasTwoAway(map: AreaMap, origin: AreaId): readonly AreaId[] {
  let m = rangeTwo.get(map);
  if (!m) rangeTwo.set(map, (m = new Map()));
  let out = m.get(origin);
  if (!out) m.set(origin, (out = map.json.areas.filter((a) => map.range(origin, a.id) === 2).map((a) => a.id)));
  return out;
}

/** Every legal lane from `origin`, by target id: the lanes `checkLane` allows, its map facts looked up once. */
export function chargeLanes(w: LaneWorld, origin: AreaId): Lane[] {
  const out: Lane[] = [];
  if (w.frontOfEnemyLc(origin)) return out; // [10.11] every lane from here fails checkLane's first test
  for (const target of areasTwoAway(w.map, origin)) {
    if (!w.enemyTarget(target)) continue;
    const l = staticLane(w.map, origin, target);
    if (l.via === null || w.occupied(l.via)) continue; // (A-14) [10.0]
    let clear = true;
    for (const cs of l.corners) for (const c of cs) if (w.enemyUnits(c)) clear = false; // [13.11]
    if (clear) out.push({ via: l.via, target });
  }
  return out;
}

/**
 * A charge succeeds [10.4] when the defenders lost more than half their strength to it (printed SP of every
 * unit in the target area before and after) and it inflicted at least as many step losses as the cavalry suffered
 * from the defender's first fire; otherwise it is repelled [10.5].
 */
export function chargeSucceeds(o: {
  defenderSpBefore: number;
  defenderSpAfter: number;
  stepsInflicted: number;
  cavalryStepsLost: number;
}): boolean {
  return (o.defenderSpBefore - o.defenderSpAfter) * 2 > o.defenderSpBefore && o.stepsInflicted >= o.cavalryStepsLost;
}

/**
 * The area a successful Grand Charge may continue into [10.83] (A-21, text T1): the line from the centre of the area
 * before the target (`before`) through the target's centre, extended into the next side-adjacent area; it must hold
 * enemy units and be legal charge terrain, and the crossing into it must be allowed. Null when there is none.
 */
export function continueTarget(w: LaneWorld, before: AreaId, target: AreaId): AreaId | null {
  const { map } = w;
  const [ax, ay] = map.area(before).center;
  const [bx, by] = map.area(target).center;
  const dx = bx - ax;
  const dy = by - ay;
  let best: AreaId | null = null;
  let bestCos = Math.SQRT1_2; // within 45° of the line
  for (const n of map.sideNeighbours(target)) {
    if (n === before) continue;
    const [cx, cy] = map.area(n).center;
    const ex = cx - bx;
    const ey = cy - by;
    const cos = (dx * ex + dy * ey) / (Math.hypot(dx, dy) * Math.hypot(ex, ey) || 1);
    if (cos > bestCos) {
      bestCos = cos;
      best = n;
    }
  }
  if (best === null || !w.enemyUnits(best)) return null;
  if (map.area(best).terrain.some((k) => BANNED_AREA.has(k))) return null;
  if (crossingBanned(map, target, best)) return null;
  return best;
}
