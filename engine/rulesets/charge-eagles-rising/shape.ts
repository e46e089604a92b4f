/**
 * Charge! Eagles Rising table geometry on the shared miniatures kit (engine/geometry, engine/tabletop): footprints of
 * every formation (C4, digest §3.1), unit size classes (C4), arcs and sectors, threat zones, the tactical and
 * strategic distances, the skirmish band, the cavalry zone of control, brigade integrity, open frontage, unanchored
 * flanks, supported artillery and flank fire (C5, §3.2), line of sight (C5, §3.3), and the cost of a move over the
 * sheet's terrain with the terrain it enters (C6, §3.4; the sheet's terrain table).
 *
 * Conventions (the kit's, as Age of Eagles' shape.ts): lengths are integer 1/100" (`IN` = 100); a unit's position is
 * the CENTRE OF ITS FOOTPRINT (the digest's convention); facings are degrees clockwise from north. Inputs are the
 * plain types below, so this module depends on nothing else of the ruleset: the caller passes the terrain's extra
 * costs per inch (the sheet's terrain table, `tables.ts`).
 */
import {
  IN,
  type Polygon,
  type Rect,
  type Sector,
  type Vec,
  closestPointOnSegment,
  fromLocal,
  headingVec,
  pointInPolygon,
  pointPolygonDistance,
  polygonDistance,
  polygonPolylineDistance,
  polygonsOverlap,
  rectCorners,
  sectorOf,
  segmentCrossesPolygon,
  segmentCrossesPolyline,
  segmentLengthInside,
} from '../../geometry/geometry.ts';
import { clipConvex, edgeArc } from '../../tabletop/arcs.ts';
import { samplePoints } from '../../tabletop/sight.ts';

export type Arm = 'infantry' | 'cavalry' | 'artillery';

/**
 * [§3.1, C4] the formations a footprint is drawn for: infantry line, attack column, march column, square (hasty and
 * solid alike), skirmish; cavalry line, column, skirmish; a battery limbered or unlimbered.
 */
export type ShapeFormation = 'line' | 'column' | 'march' | 'square' | 'skirmish' | 'limbered' | 'unlimbered';

/** What a footprint is built from: figures (infantry, cavalry) or guns (artillery), and infantry's ranks. */
export interface ShapeOf {
  readonly arm: Arm;
  readonly formation: ShapeFormation;
  /** Figures (infantry, cavalry) or guns (artillery) now on the table. */
  readonly strength: number;
  /** [§2.3] infantry ranks in line: 2 or 3 (ignored for cavalry and artillery). */
  readonly ranks?: 2 | 3;
}

/** A unit on the table: its shape, footprint centre (1/100") and facing. */
export interface Placed extends ShapeOf {
  readonly x: number;
  readonly y: number;
  readonly facing: number;
}

/** C4: an infantry figure's frontage and a rank's depth. */
const FIGURE = IN / 2;
/** C4: a cavalry stand of 3 figures, 1.5" wide and 1.25" deep. */
const STAND_FIGURES = 3;
const STAND_W = 1.5 * IN;
const STAND_D = 1.25 * IN;
/** C4: a gun's frontage unlimbered; a battery's depth unlimbered; a limber's width and the team's extra length. */
const GUN = IN / 2;
const BATTERY_D = 1.5 * IN;
const LIMBER_W = IN;
const LIMBER_EXTRA = IN;

const ceilDiv = (a: number, b: number) => Math.ceil(Math.max(0, a) / b);

/** [§2.4, C4] cavalry stands: 3 figures a stand, rounded up. */
export function stands(figures: number): number {
  return ceilDiv(figures, STAND_FIGURES);
}

/** The formations an arm may take (C4: skirmish is for light infantry and light cavalry; the caller checks that). */
export function formationFits(arm: Arm, f: ShapeFormation): boolean {
  if (arm === 'artillery') return f === 'limbered' || f === 'unlimbered';
  if (arm === 'cavalry') return f === 'line' || f === 'column' || f === 'skirmish';
  return f !== 'limbered' && f !== 'unlimbered';
}

/**
 * [§3.1, C4] the footprint's frontage `w` and depth `d` in 1/100":
 * - infantry line of r ranks: ceil(N/r) figures wide, r ranks deep, ½" a figure and a rank;
 * - attack column: 4 figures wide, ceil(N/4) deep; march column: 2 wide, ceil(N/2) deep;
 * - square: a side of ½" × ceil(N/4) (four fronts); skirmish: one loose line N × ½" wide, 1" deep;
 * - cavalry: stands of 1.5" × 1.25" all abreast (line), 2 abreast (column), abreast with 1.5" gaps (skirmish);
 * - battery: ½" a gun × 1.5" unlimbered; 1" wide × (½" a gun + 1") limbered.
 * A unit down to nothing keeps the footprint of one figure, stand or gun, so it is never a point.
 */
export function footprintSize(s: ShapeOf): { readonly w: number; readonly d: number } {
  if (!formationFits(s.arm, s.formation)) throw new Error(`${s.arm} cannot be in ${s.formation} formation (C4)`);
  const n = Math.max(1, s.strength);
  if (s.arm === 'artillery')
    return s.formation === 'limbered' ? { w: LIMBER_W, d: n * GUN + LIMBER_EXTRA } : { w: n * GUN, d: BATTERY_D };
  if (s.arm === 'cavalry') {
    const k = stands(n);
    if (s.formation === 'line') return { w: k * STAND_W, d: STAND_D };
    if (s.formation === 'skirmish') return { w: k * STAND_W + (k - 1) * STAND_W, d: STAND_D };
    return { w: Math.min(k, 2) * STAND_W, d: ceilDiv(k, 2) * STAND_D };
  }
  const r = s.ranks ?? 3;
  switch (s.formation) {
    case 'line':
      return { w: ceilDiv(n, r) * FIGURE, d: Math.min(n, r) * FIGURE };
    case 'column':
      return { w: Math.min(n, 4) * FIGURE, d: ceilDiv(n, 4) * FIGURE };
    case 'march':
      return { w: Math.min(n, 2) * FIGURE, d: ceilDiv(n, 2) * FIGURE };
    case 'square': {
      const side = ceilDiv(n, 4) * FIGURE;
      return { w: side, d: side };
    }
    default:
      return { w: n * FIGURE, d: IN };
  }
}

/**
 * [§3.1, C4] infantry's front-rank figures, which set its fire dice (§6.10): ceil(N/r) in line, 4 in attack column,
 * 2 in march column, ceil(N/4) in square (one face), ceil(N/2) in skirmish (firing as 2-rank). 0 for other arms.
 */
export function frontRankFigures(s: ShapeOf): number {
  if (s.arm !== 'infantry' || s.strength <= 0) return 0;
  const n = s.strength;
  switch (s.formation) {
    case 'line':
      return ceilDiv(n, s.ranks ?? 3);
    case 'column':
      return Math.min(n, 4);
    case 'march':
      return Math.min(n, 2);
    case 'square':
      return ceilDiv(n, 4);
    case 'skirmish':
      return ceilDiv(n, 2);
    default:
      return 0;
  }
}

/** [§3.1] the ranks infantry fires as: its own in line, column and square; 2 in skirmish (C4). */
export function firingRanks(s: ShapeOf): 2 | 3 {
  return s.formation === 'skirmish' ? 2 : (s.ranks ?? 3);
}

export type SizeClass = 'small' | 'standard' | 'large' | 'extraLarge';
export const SIZE_ORDER: readonly SizeClass[] = ['small', 'standard', 'large', 'extraLarge'];

/** [§3.1, C4] the unit size classes by current strength, for "unit mass" and "extra large" (§6.11, §6.13). */
const SIZE_LIMITS: Readonly<Record<Arm, readonly [number, number, number]>> = {
  // the largest strength of small, standard and large; above the last is extra large
  infantry: [16, 30, 40],
  cavalry: [8, 15, 20],
  artillery: [4, 8, 12],
};
export function sizeClass(arm: Arm, strength: number): SizeClass {
  const [small, standard, large] = SIZE_LIMITS[arm];
  if (strength <= small) return 'small';
  if (strength <= standard) return 'standard';
  if (strength <= large) return 'large';
  return 'extraLarge';
}

/** [§6.13] "unit mass": one unit is 2 size classes larger than its opponent. */
export function twoSizesLarger(a: SizeClass, b: SizeClass): boolean {
  return SIZE_ORDER.indexOf(a) - SIZE_ORDER.indexOf(b) >= 2;
}

/** The footprint as an oriented rectangle (centre, frontage, depth, facing). */
export function rectOf(p: Placed): Rect {
  const { w, d } = footprintSize(p);
  return { x: p.x, y: p.y, w, d, h: p.facing };
}

/** The footprint's corners: front-left, front-right, rear-right, rear-left. */
export function polyOf(p: Placed): Polygon {
  return rectCorners(rectOf(p));
}

/** The front edge, left end first. */
export function frontEdge(p: Placed): [Vec, Vec] {
  const r = rectOf(p);
  return [fromLocal(r, -r.w / 2, r.d / 2), fromLocal(r, r.w / 2, r.d / 2)];
}

/** A flank edge, front end first. */
export function flankEdge(p: Placed, flank: 'left' | 'right'): [Vec, Vec] {
  const r = rectOf(p);
  const u = flank === 'left' ? -r.w / 2 : r.w / 2;
  return [fromLocal(r, u, r.d / 2), fromLocal(r, u, -r.d / 2)];
}

/** Edge-to-edge distance between two units (1/100"). */
export function gap(a: Placed, b: Placed): number {
  return polygonDistance(polyOf(a), polyOf(b));
}

/**
 * [§3.2, C5] the sector of `of` in which `p` lies: the front and rear sectors are bounded by rays from the corners at
 * 45° outward, the flanks take the rest. A square has four fronts (§3.1): every point is in its front.
 */
export function sectorFrom(of: Placed, p: Vec): Sector {
  if (of.formation === 'square') return 'front';
  return sectorOf(rectOf(of), p);
}

/** The sector of `of` from which `by` comes: the sector holding `by`'s footprint centre. */
export function attackSector(of: Placed, by: Placed): Sector {
  return sectorFrom(of, { x: by.x, y: by.y });
}

/** [§3.2, C5] the front arc out to `reach`: ahead of the front edge, bounded by rays at 45° outward. */
export function frontArc(p: Placed, reach: number): Polygon {
  return edgeArc(rectOf(p), 45, reach);
}

/** [§3.2] a body at least partly in `p`'s front arc within `reach` (edge to edge); a square looks every way. */
export function inFrontArcWithin(p: Placed, body: Polygon, reach: number): boolean {
  if (p.formation === 'square') return polygonDistance(polyOf(p), body) <= reach;
  const part = clipConvex(body, frontArc(p, reach));
  return part.length >= 3 && polygonDistance(part, polyOf(p)) <= reach;
}

/** [§6.9, C5] threat zones: 10" ahead of cavalry, 5" ahead of infantry; artillery has none. */
export function threatReach(arm: Arm): number {
  return arm === 'cavalry' ? 10 * IN : arm === 'infantry' ? 5 * IN : 0;
}

/**
 * [§3.2, C5] is any part of `body` in `enemy`'s threat zone: ahead of the enemy's front-edge line and within its reach
 * of the front edge (10" cavalry, 5" infantry)? A square's zone is on all four sides.
 */
export function inThreatZone(enemy: Placed, body: Polygon): boolean {
  const reach = threatReach(enemy.arm);
  if (!reach) return false;
  if (enemy.formation === 'square') return polygonDistance(polyOf(enemy), body) <= reach;
  const r = rectOf(enemy);
  // the region ahead of the front line within reach of the front edge lies inside this box; measure to the part in it
  const ahead: Polygon = [
    fromLocal(r, -r.w / 2 - reach, r.d / 2),
    fromLocal(r, r.w / 2 + reach, r.d / 2),
    fromLocal(r, r.w / 2 + reach, r.d / 2 + reach),
    fromLocal(r, -r.w / 2 - reach, r.d / 2 + reach),
  ];
  const part = clipConvex(body, ahead);
  if (part.length < 3) return false;
  return polygonPolylineDistance(part, frontEdge(enemy)) <= reach;
}

/** [§3.2] "tactical" (<10"): within 10" of any enemy unit; otherwise "strategic" (>10"). */
export const TACTICAL_DISTANCE = 10 * IN;
export function isTactical(unit: Placed, enemies: readonly Placed[]): boolean {
  const me = polyOf(unit);
  return enemies.some((e) => polygonDistance(me, polyOf(e)) <= TACTICAL_DISTANCE);
}

/** [§3.2, §6.6] the skirmish band: within 10" and more than 3" of an opponent. */
export function inSkirmishBand(distance: number): boolean {
  return distance <= 10 * IN && distance > 3 * IN;
}

/**
 * [§6.6, §3.2] the cavalry zone of control: a rectangle 3" wide and 10" long projecting forward from the centre of the
 * cavalry unit's front edge.
 */
export function cavalryZoc(cav: Placed): Polygon {
  const r = rectOf(cav);
  const v = r.d / 2;
  return [
    fromLocal(r, -1.5 * IN, v),
    fromLocal(r, 1.5 * IN, v),
    fromLocal(r, 1.5 * IN, v + 10 * IN),
    fromLocal(r, -1.5 * IN, v + 10 * IN),
  ];
}

/** [§6.6] units "lying partly inside any cavalry ZOC" add no skirmish points and cannot be hit. */
export function inAnyZoc(unit: Placed, cavalry: readonly Placed[]): boolean {
  const me = polyOf(unit);
  return cavalry.some((c) => polygonsOverlap(me, cavalryZoc(c)));
}

/** [§3.2, C2] brigade integrity is lost when a unit is more than 6" from every other unit of its ME. */
export function outOfIntegrity(unit: Placed, mates: readonly Placed[]): boolean {
  if (!mates.length) return false;
  const me = polyOf(unit);
  return mates.every((m) => polygonDistance(me, polyOf(m)) > 6 * IN);
}

/**
 * [§3.2, C9] open frontage: no friendly unit lies in the unit's front arc closer than the nearest enemy. With no enemy
 * at all the frontage is open.
 */
export function openFrontage(unit: Placed, friends: readonly Placed[], enemies: readonly Placed[]): boolean {
  const me = polyOf(unit);
  let nearest = Number.POSITIVE_INFINITY;
  for (const e of enemies) nearest = Math.min(nearest, polygonDistance(me, polyOf(e)));
  if (!Number.isFinite(nearest)) return true;
  return !friends.some((f) => {
    const fp = polyOf(f);
    return polygonDistance(me, fp) < nearest && inFrontArcWithin(unit, fp, nearest);
  });
}

/**
 * [§3.2, §6.11 step 7] an unanchored flank: no friendly unit, built-up area or impassable ground within 2" of that
 * flank edge. `anchors` are the BUAs' and impassable areas' polygons.
 */
export function unanchoredFlank(
  unit: Placed,
  flank: 'left' | 'right',
  friends: readonly Placed[],
  anchors: readonly Polygon[],
): boolean {
  const edge = flankEdge(unit, flank);
  const near = (poly: Polygon) => polygonPolylineDistance(poly, edge) <= 2 * IN;
  return !friends.some((f) => near(polyOf(f))) && !anchors.some(near);
}

/** [§3.2] supported artillery: a friendly infantry or cavalry unit within 1". */
export function supportedArtillery(battery: Placed, friends: readonly Placed[]): boolean {
  const me = polyOf(battery);
  return friends.some((f) => f.arm !== 'artillery' && polygonDistance(me, polyOf(f)) <= IN);
}

/** [§6.10, C5] flank fire: the firer's centre lies in the target's flank or rear sector (a square has none). */
export function flankFire(firer: Placed, target: Placed): boolean {
  return attackSector(target, firer) !== 'front';
}

/** [§6.11 step 5] a pursuer may contact a new target lying within 22.5° either side of its charge direction. */
export function withinPursuitCone(from: Vec, direction: number, target: Polygon): boolean {
  return target.some((p) => {
    const dx = p.x - from.x;
    const dy = p.y - from.y;
    if (dx === 0 && dy === 0) return true;
    const bearing = (Math.atan2(dx, dy) * 180) / Math.PI;
    const diff = Math.abs(((bearing - direction + 540) % 360) - 180);
    return diff <= 22.5;
  });
}

/** "Retiring" (C6): a move with a net rearward displacement, facing kept. */
export function isRetiring(facing: number, from: Vec, to: Vec): boolean {
  const f = headingVec(facing);
  return (to.x - from.x) * f.x + (to.y - from.y) * f.y < 0;
}

// ---------- terrain (§3.3, §3.4) ----------

/** [§3.4] the sheet's area terrain. */
export type AreaKind =
  | 'rough'
  | 'mud'
  | 'lightWoods'
  | 'orchard'
  | 'denseWoods'
  | 'woodenBua'
  | 'stoneBua'
  | 'steepRise';
/** [§3.4] the sheet's linear terrain: obstacles, fordable streams, bridges and fords over them, roads. */
export type LineKind = 'minorObstacle' | 'majorObstacle' | 'stream' | 'bridge' | 'ford' | 'road';

export interface AreaFeature {
  readonly id: string;
  readonly kind: AreaKind;
  readonly polygon: Polygon;
}
export interface LineFeature {
  readonly id: string;
  readonly kind: LineKind;
  readonly points: readonly Vec[];
}
export interface ChargeTerrain {
  readonly areas: readonly AreaFeature[];
  readonly lines: readonly LineFeature[];
}

/** [§3.3, C5] how far into an area a line of sight may run: dense woods 1", light woods 2", orchards 4", BUAs 0. */
export function sightDepth(kind: AreaKind): number {
  switch (kind) {
    case 'denseWoods':
      return IN;
    case 'lightWoods':
      return 2 * IN;
    case 'orchard':
      return 4 * IN;
    case 'woodenBua':
    case 'stoneBua':
      return 0;
    default:
      return Number.POSITIVE_INFINITY;
  }
}

const isBua = (k: AreaKind) => k === 'woodenBua' || k === 'stoneBua';

/** One end of a sight line: a point, the unit it belongs to, and the BUA it garrisons if any. */
export interface SightEnd {
  readonly at: Vec;
  readonly unit?: Placed;
  readonly garrisonOf?: string;
}

/**
 * [§3.3, C5] is the straight line between two points clear?
 * - other units' footprints block (`blockers`: every footprint but the two ends');
 * - BUAs block, except for their own garrison (an end garrisoning it sees out and is seen);
 * - woods and orchards block a line running more than 1" (dense), 2" (light) or 4" (orchard) inside them, in total;
 * - a steep rise blocks a line between two points both off it (both below it) that crosses it;
 * - a unit on a steep rise sees over lower units (off the rise) more than 3" from it, and is seen over them.
 */
export function clearSight(
  t: ChargeTerrain,
  a: SightEnd,
  b: SightEnd,
  blockers: readonly { readonly poly: Polygon; readonly unit?: Placed }[],
): boolean {
  const rises = t.areas.filter((x) => x.kind === 'steepRise');
  const onRise = (p: Vec) => rises.some((r) => pointInPolygon(p, r.polygon));
  const aHigh = onRise(a.at);
  const bHigh = onRise(b.at);
  for (const bl of blockers) {
    if (!segmentCrossesPolygon(a.at, b.at, bl.poly)) continue;
    const c = bl.unit ? { x: bl.unit.x, y: bl.unit.y } : centroid(bl.poly);
    if (!onRise(c)) {
      // a unit on a rise sees over lower units more than 3" from it
      if (aHigh && polygonDistanceToPoint(bl.poly, a.at) > 3 * IN) continue;
      if (bHigh && polygonDistanceToPoint(bl.poly, b.at) > 3 * IN) continue;
    }
    return false;
  }
  for (const ar of t.areas) {
    if (ar.kind === 'steepRise') {
      if (!aHigh && !bHigh && segmentCrossesPolygon(a.at, b.at, ar.polygon)) return false;
      continue;
    }
    const depth = sightDepth(ar.kind);
    if (!Number.isFinite(depth)) continue;
    if (isBua(ar.kind) && (a.garrisonOf === ar.id || b.garrisonOf === ar.id)) continue;
    const inside = segmentLengthInside(a.at, b.at, ar.polygon);
    if (inside > depth + 1) return false;
  }
  return true;
}

function centroid(p: Polygon): Vec {
  let x = 0;
  let y = 0;
  for (const v of p) {
    x += v.x;
    y += v.y;
  }
  return { x: x / p.length, y: y / p.length };
}

function polygonDistanceToPoint(p: Polygon, q: Vec): number {
  return pointPolygonDistance(q, p);
}

function pointPolylineDistance(p: Vec, line: readonly Vec[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 1; i < line.length; i++) {
    const c = closestPointOnSegment(p, line[i - 1]!, line[i]!);
    best = Math.min(best, Math.hypot(c.x - p.x, c.y - p.y));
  }
  return best;
}

/**
 * [§3.3, §6.10] does `viewer` see any part of `target`? Lines from the viewer's front edge (its ends and middle; every
 * side of a square, a garrison from anywhere in its BUA) to the target's corners and edge middles; the first clear
 * line decides. `others` are every other unit on the table (their footprints block).
 */
export function sees(
  t: ChargeTerrain,
  viewer: Placed & { readonly garrisonOf?: string },
  target: Placed & { readonly garrisonOf?: string },
  others: readonly Placed[],
): boolean {
  const blockers = others.map((u) => ({ poly: polyOf(u), unit: u }));
  const from = eyePoints(viewer);
  const to = samplePoints(polyOf(target));
  for (const p of from)
    for (const q of to)
      if (
        clearSight(
          t,
          { at: p, unit: viewer, ...(viewer.garrisonOf ? { garrisonOf: viewer.garrisonOf } : {}) },
          { at: q, unit: target, ...(target.garrisonOf ? { garrisonOf: target.garrisonOf } : {}) },
          blockers,
        )
      )
        return true;
  return false;
}

function eyePoints(p: Placed & { readonly garrisonOf?: string }): Vec[] {
  if (p.formation === 'square' || p.garrisonOf) return samplePoints(polyOf(p));
  const [l, r] = frontEdge(p);
  return [l, { x: (l.x + r.x) / 2, y: (l.y + r.y) / 2 }, r];
}

/** Extra movement cost per inch (areas) or per crossing (lines) for an arm: the sheet's terrain table, from tables.ts. */
export type ExtraCost = (kind: AreaKind | LineKind, arm: Arm) => number;

/** What a straight move costs and what it meets (C6). */
export interface MoveCost {
  /** Inches of allowance used, in 1/100": the distance plus the terrain's extra costs. */
  readonly cost: number;
  /** Area kinds the footprint is in at any point of the move (for disorder and skill tests, §3.4). */
  readonly areas: readonly AreaKind[];
  /** Linear features crossed (obstacles, streams, bridges, fords), by kind. */
  readonly crossed: readonly LineKind[];
  /** Contours (steep rises' edges) crossed going up. */
  readonly contoursUp: number;
  /** Wholly along a road (for the strategic road bonus, §6.5). */
  readonly onRoad: boolean;
  /** Impassable for this arm (an extra cost of `Infinity`, e.g. artillery over a major obstacle). */
  readonly impassable: boolean;
}

/**
 * [§3.4, C6] the cost of moving a footprint straight from `from` to `to` (same facing or not): each area's extra cost
 * per inch along the worst of the tracks of its centre and corners, each linear obstacle, stream or bridge once per
 * crossing (a bridge or ford over a stream replaces the stream's cost; a column crosses a ford at full speed), and 2"
 * for each contour climbed (the caller's `extra('steepRise', arm)`). Mud is in addition to the other terrain.
 */
export function moveCost(
  t: ChargeTerrain,
  arm: Arm,
  formation: ShapeFormation,
  from: Placed,
  to: Placed,
  extra: ExtraCost,
): MoveCost {
  const a = [{ x: from.x, y: from.y }, ...polyOf(from)];
  const b = [{ x: to.x, y: to.y }, ...polyOf(to)];
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  let areaExtra = 0;
  const areas = new Set<AreaKind>();
  let contoursUp = 0;
  let impassable = false;
  for (const ar of t.areas) {
    if (ar.kind === 'steepRise') {
      const wasOn = pointInPolygon({ x: from.x, y: from.y }, ar.polygon);
      const isOn = pointInPolygon({ x: to.x, y: to.y }, ar.polygon);
      if (!wasOn && isOn) contoursUp++;
      if (polygonsOverlap(polyOf(to), ar.polygon) || polygonsOverlap(polyOf(from), ar.polygon)) areas.add(ar.kind);
      continue;
    }
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, segmentLengthInside(a[i]!, b[i]!, ar.polygon));
    const touches = worst > 0 || polygonsOverlap(polyOf(to), ar.polygon) || polygonsOverlap(polyOf(from), ar.polygon);
    if (!touches) continue;
    areas.add(ar.kind);
    const per = extra(ar.kind, arm);
    if (!Number.isFinite(per)) impassable = true;
    else areaExtra += (worst / IN) * per * IN;
  }
  const crossed: LineKind[] = [];
  let lineExtra = 0;
  const crosses = (l: LineFeature) => a.some((p, i) => segmentCrossesPolyline(p, b[i]!, l.points));
  const bridges = t.lines.filter((l) => (l.kind === 'bridge' || l.kind === 'ford') && crosses(l));
  for (const l of t.lines) {
    if (l.kind === 'road' || l.kind === 'bridge' || l.kind === 'ford') continue;
    if (!crosses(l)) continue;
    if (l.kind === 'stream' && bridges.length) continue; // crossed at the bridge or ford instead
    crossed.push(l.kind);
    const per = extra(l.kind, arm);
    if (!Number.isFinite(per)) impassable = true;
    else lineExtra += per * IN;
  }
  for (const l of bridges) {
    crossed.push(l.kind);
    if (l.kind === 'ford' && (formation === 'column' || formation === 'march')) continue; // [§3.4] full speed
    const per = extra(l.kind === 'ford' ? 'stream' : 'bridge', arm);
    if (!Number.isFinite(per)) impassable = true;
    else lineExtra += per * IN;
  }
  const climb = contoursUp * extra('steepRise', arm) * IN;
  const roads = t.lines.filter((l) => l.kind === 'road');
  const onRoad =
    roads.length > 0 &&
    roads.some(
      (r) =>
        pointPolylineDistance(a[0]!, r.points) <= IN / 2 &&
        pointPolylineDistance(b[0]!, r.points) <= IN / 2 &&
        pointPolylineDistance({ x: (a[0]!.x + b[0]!.x) / 2, y: (a[0]!.y + b[0]!.y) / 2 }, r.points) <= IN / 2,
    );
  return {
    cost: Math.round(distance + areaExtra + lineExtra + climb),
    areas: [...areas],
    crossed,
    contoursUp,
    onRoad,
    impassable,
  };
}
