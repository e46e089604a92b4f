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
  bbox,
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
import {
  type ArtilleryFormation,
  type Bua,
  type CavalryFormation,
  type Ctx,
  type FootprintSize,
  type InfantryFormation,
  type Ranks,
  type UnitKind,
  type UnitState,
  footprintRect,
  footprintSize,
} from './types.ts';

export type Arm = UnitKind;

/**
 * A unit on the table as the geometry sees it: the fields of a `UnitState` that place it (a `UnitState` is one), its
 * footprint centre `pos` (1/100") and facing. A garrison's body is its BUA: `body` (see `placedOf`).
 */
export type Placed = (
  | {
      readonly kind: 'infantry';
      readonly formation: InfantryFormation;
      readonly figures: number;
      readonly ranks: Ranks;
    }
  | { readonly kind: 'cavalry'; readonly formation: CavalryFormation; readonly figures: number }
  | { readonly kind: 'artillery'; readonly formation: ArtilleryFormation; readonly guns: number }
) & {
  readonly pos: Vec;
  readonly facing: number;
  /** A garrison's body: its BUA's polygon (it has no footprint of its own, §2.3). */
  readonly body?: Polygon;
};

/** A unit as placed, a garrison with its BUA as its body. */
export function placedOf(u: UnitState, buas: readonly Bua[]): Placed {
  if (u.kind === 'infantry' && u.formation === 'garrison') {
    const b = buas.find((x) => x.id === u.garrison);
    if (!b) throw new Error(`${u.id} garrisons an unknown BUA "${u.garrison}"`);
    return { ...u, body: b.polygon };
  }
  return u;
}

const isSquare = (p: Placed) => p.formation === 'hastySquare' || p.formation === 'solidSquare';
/** A square (four fronts, §3.1) or a garrison (its BUA) has no flank or rear. */
const allRound = (p: Placed) => isSquare(p) || p.formation === 'garrison';

/** [§3.1, C4] the footprint's size in inches (types.ts's `footprintSize`; a garrison: its BUA's bounding box). */
export function sizeOf(p: Placed): FootprintSize {
  if (p.kind === 'infantry' && p.formation === 'garrison') {
    const b = p.body ? bbox(p.body) : null;
    return { width: b ? (b.maxX - b.minX) / IN : 0, depth: b ? (b.maxY - b.minY) / IN : 0, frontRank: 0 };
  }
  if (p.kind === 'artillery') return footprintSize({ kind: 'artillery', formation: p.formation, guns: p.guns });
  if (p.kind === 'cavalry') return footprintSize({ kind: 'cavalry', formation: p.formation, figures: p.figures });
  return footprintSize({
    kind: 'infantry',
    formation: p.formation as Exclude<InfantryFormation, 'garrison'>,
    figures: p.figures,
    ranks: p.ranks,
  });
}

/** [§3.1, C4] infantry's front-rank figures, which set its fire dice (§6.10); 0 for cavalry, artillery, garrisons. */
export function frontRankFigures(p: Placed): number {
  return sizeOf(p).frontRank;
}

/** [§3.1] the ranks infantry fires as: its own in line, column and square; 2 in skirmish (C4). */
export function firingRanks(p: Placed): Ranks {
  return p.kind !== 'infantry' || p.formation === 'skirmish' ? 2 : p.ranks;
}

export type SizeClass = 'small' | 'standard' | 'large' | 'extraLarge';
const SIZE_ORDER: readonly SizeClass[] = ['small', 'standard', 'large', 'extraLarge'];

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
  return footprintRect(p.pos, p.facing, sizeOf(p));
}

/** The footprint's corners: front-left, front-right, rear-right, rear-left. */
export function polyOf(p: Placed): Polygon {
  if (p.body) return p.body;
  // a unit's state is never changed in place: its footprint is worked out once per object
  let poly = polyMemo.get(p);
  if (!poly) polyMemo.set(p, (poly = rectCorners(rectOf(p))));
  return poly;
}
const polyMemo = new WeakMap<Placed, Polygon>();

/** The front edge, left end first. */
export function frontEdge(p: Placed): [Vec, Vec] {
  const r = rectOf(p);
  return [fromLocal(r, -r.w / 2, r.d / 2), fromLocal(r, r.w / 2, r.d / 2)];
}

/** A flank edge, front end first. */
function flankEdge(p: Placed, flank: 'left' | 'right'): [Vec, Vec] {
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
function sectorFrom(of: Placed, p: Vec): Sector {
  if (allRound(of)) return 'front';
  return sectorOf(rectOf(of), p);
}

/** The sector of `of` from which `by` comes: the sector holding `by`'s footprint centre. */
export function attackSector(of: Placed, by: Placed): Sector {
  return sectorFrom(of, by.pos);
}

/** [§3.2, C5] the front arc out to `reach`: ahead of the front edge, bounded by rays at 45° outward. */
export function frontArc(p: Placed, reach: number): Polygon {
  return edgeArc(rectOf(p), 45, reach);
}

/** [§3.2] a body at least partly in `p`'s front arc within `reach` (edge to edge); a square looks every way. */
export function inFrontArcWithin(p: Placed, body: Polygon, reach: number): boolean {
  if (allRound(p)) return polygonDistance(polyOf(p), body) <= reach;
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
  const reach = threatReach(enemy.kind);
  if (!reach) return false;
  if (allRound(enemy)) return polygonDistance(polyOf(enemy), body) <= reach;
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
const TACTICAL_DISTANCE = 10 * IN;
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

/** [§3.2, C2] brigade integrity is lost when a unit is more than 6" (`brigadeIntegrity`) from every other unit of its ME. */
export function outOfIntegrity(unit: Placed, mates: readonly Placed[], within = 6 * IN): boolean {
  if (!mates.length) return false;
  const me = polyOf(unit);
  return mates.every((m) => polygonDistance(me, polyOf(m)) > within);
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
  return friends.some((f) => f.kind !== 'artillery' && polygonDistance(me, polyOf(f)) <= IN);
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

/**
 * The terrain as the scenario gives it (types.ts's `Ctx`): areas by kind (`lightWoods`, `denseWoods`, `orchard`,
 * `rough`, `muddy`, `ford`, `bridge`; BUAs and steep rises also have their own records), lines by kind (`road`,
 * `stream`, `minorObstacle`, `majorObstacle`).
 */
export type ChargeTerrain = Pick<Ctx, 'terrain' | 'buas' | 'rises'>;

/** [§3.4] the rows of the sheet's terrain table a move pays for. */
export type TerrainRow =
  | 'minorObstacle'
  | 'majorObstacle'
  | 'stream'
  | 'bridge'
  | 'rough'
  | 'muddy'
  | 'lightWoods'
  | 'orchard'
  | 'denseWoods'
  | 'woodenBua'
  | 'stoneBua'
  | 'steepRise';

/** Extra movement cost in inches per inch (areas) or per crossing (lines, contours) for an arm; `Infinity`: NA. */
export type ExtraCost = (row: TerrainRow, arm: Arm) => number;

/** [§3.3, C5] how far into an area a line of sight may run: dense woods 1", light woods 2", orchards 4". */
function sightDepth(kind: string): number {
  switch (kind) {
    case 'denseWoods':
      return IN;
    case 'lightWoods':
      return 2 * IN;
    case 'orchard':
      return 4 * IN;
    default:
      return Number.POSITIVE_INFINITY;
  }
}

/** One end of a sight line: a point and the unit it belongs to (a garrison sees out of its own BUA, §3.3). */
export interface SightEnd {
  readonly at: Vec;
  readonly unit?: UnitLike;
}
type UnitLike = Placed & { readonly garrison?: string | null };

const garrisonOf = (u: UnitLike | undefined) =>
  u && u.kind === 'infantry' && u.formation === 'garrison' ? (u.garrison ?? null) : null;

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
  const onRise = (p: Vec) => t.rises.some((r) => pointInPolygon(p, r.polygon));
  const aHigh = onRise(a.at);
  const bHigh = onRise(b.at);
  for (const bl of blockers) {
    if (!segmentCrossesPolygon(a.at, b.at, bl.poly)) continue;
    const c = bl.unit && !bl.unit.body ? bl.unit.pos : centroid(bl.poly);
    if (!onRise(c)) {
      // a unit on a rise sees over lower units more than 3" from it
      if (aHigh && pointPolygonDistance(a.at, bl.poly) > 3 * IN) continue;
      if (bHigh && pointPolygonDistance(b.at, bl.poly) > 3 * IN) continue;
    }
    return false;
  }
  if (!aHigh && !bHigh && t.rises.some((r) => segmentCrossesPolygon(a.at, b.at, r.polygon))) return false;
  const ga = garrisonOf(a.unit);
  const gb = garrisonOf(b.unit);
  for (const bua of t.buas)
    if (bua.id !== ga && bua.id !== gb && segmentLengthInside(a.at, b.at, bua.polygon) > 1) return false;
  for (const ar of t.terrain.areas) {
    const depth = sightDepth(ar.kind);
    if (!Number.isFinite(depth)) continue;
    if (segmentLengthInside(a.at, b.at, ar.polygon) > depth + 1) return false;
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
 * side of a square, a garrison from its BUA's corners and sides) to the target's corners and edge middles; the first
 * clear line decides. `others` are every other unit on the table (their footprints block).
 */
export function sees(t: ChargeTerrain, viewer: UnitLike, target: UnitLike, others: readonly Placed[]): boolean {
  const blockers = others.map((u) => ({ poly: polyOf(u), unit: u }));
  const from = eyePoints(viewer);
  const to = samplePoints(polyOf(target));
  for (const p of from)
    for (const q of to) if (clearSight(t, { at: p, unit: viewer }, { at: q, unit: target }, blockers)) return true;
  return false;
}

function eyePoints(p: Placed): Vec[] {
  if (allRound(p)) return samplePoints(polyOf(p));
  const [l, r] = frontEdge(p);
  return [l, { x: (l.x + r.x) / 2, y: (l.y + r.y) / 2 }, r];
}

/** What a straight move costs and what it meets (C6). */
export interface MoveCost {
  /** Allowance used, 1/100": the distance plus the terrain's extra costs. */
  readonly cost: number;
  /** The rows of the terrain table the footprint is in at some point of the move (disorder and tests, §3.4). */
  readonly areas: readonly TerrainRow[];
  /** Linear features crossed (obstacles, streams, bridges; `ford` where a stream is crossed at a ford). */
  readonly crossed: readonly (TerrainRow | 'ford')[];
  /** Contours climbed (steep rises entered going up, times their contours). */
  readonly contoursUp: number;
  /** Its centre stays on a road all along (for the strategic road bonus, §6.5). */
  readonly onRoad: boolean;
  /** NA for this arm: artillery over a major obstacle, or a bridge crossed by a unit not in column or limbered. */
  readonly impassable: boolean;
}

const AREA_ROWS: Readonly<Record<string, TerrainRow>> = {
  rough: 'rough',
  muddy: 'muddy',
  lightWoods: 'lightWoods',
  orchard: 'orchard',
  denseWoods: 'denseWoods',
};

/**
 * [§3.4, C6] the cost of moving a footprint straight from `from` to `to` (the facing may change): each area's extra cost
 * per inch along the worst of the tracks of its centre and corners (mud in addition to the rest); each linear obstacle
 * once per crossing; a stream once per crossing, at its bridge's cost where crossed on a bridge (column or limbered
 * only), free for a column at a ford; and the steep rise's cost for each contour climbed.
 */
export function moveCost(t: ChargeTerrain, from: Placed, to: Placed, extra: ExtraCost): MoveCost {
  const arm = from.kind;
  const column = to.formation === 'column' || to.formation === 'marchColumn' || to.formation === 'limbered';
  const a = [from.pos, ...polyOf(from)];
  const b = [to.pos, ...polyOf(to)];
  const distance = Math.hypot(to.pos.x - from.pos.x, to.pos.y - from.pos.y);
  const fromPoly = polyOf(from);
  const toPoly = polyOf(to);
  let cost = distance;
  let impassable = false;
  const areas = new Set<TerrainRow>();
  const pay = (row: TerrainRow, per: number) => {
    const x = extra(row, arm);
    if (!Number.isFinite(x)) impassable = true;
    else cost += x * per;
  };
  const worstInside = (poly: Polygon) => {
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, segmentLengthInside(a[i]!, b[i]!, poly));
    return worst;
  };
  const touches = (poly: Polygon, inside: number) =>
    inside > 0 || polygonsOverlap(toPoly, poly) || polygonsOverlap(fromPoly, poly);
  for (const ar of t.terrain.areas) {
    const row = AREA_ROWS[ar.kind];
    if (!row) continue;
    const inside = worstInside(ar.polygon);
    if (!touches(ar.polygon, inside)) continue;
    areas.add(row);
    pay(row, inside);
  }
  for (const bua of t.buas) {
    const inside = worstInside(bua.polygon);
    if (!touches(bua.polygon, inside)) continue;
    const row = bua.material === 'stone' ? 'stoneBua' : 'woodenBua';
    areas.add(row);
    pay(row, inside);
  }
  let contoursUp = 0;
  for (const r of t.rises) {
    if (!pointInPolygon(from.pos, r.polygon) && pointInPolygon(to.pos, r.polygon)) contoursUp += r.contours;
    if (polygonsOverlap(toPoly, r.polygon) || polygonsOverlap(fromPoly, r.polygon)) areas.add('steepRise');
  }
  if (contoursUp) pay('steepRise', contoursUp * IN);
  const crossed: (TerrainRow | 'ford')[] = [];
  const crossings = t.terrain.areas.filter((x) => x.kind === 'bridge' || x.kind === 'ford');
  for (const l of t.terrain.lines) {
    if (l.kind !== 'stream' && l.kind !== 'minorObstacle' && l.kind !== 'majorObstacle') continue;
    if (!a.some((p, i) => segmentCrossesPolyline(p, b[i]!, l.points))) continue;
    if (l.kind !== 'stream') {
      crossed.push(l.kind);
      pay(l.kind, IN);
      continue;
    }
    const at = crossings.find((c) => a.some((p, i) => segmentCrossesPolygon(p, b[i]!, c.polygon)));
    if (at?.kind === 'bridge') {
      crossed.push('bridge');
      if (!column)
        impassable = true; // [§3.4] "Col/Limb only"
      else pay('bridge', IN);
    } else if (at?.kind === 'ford') {
      crossed.push('ford');
      if (!column) pay('stream', IN); // [§3.4] "Column = full speed at ford"
    } else {
      crossed.push('stream');
      pay('stream', IN);
    }
  }
  const mid = { x: (from.pos.x + to.pos.x) / 2, y: (from.pos.y + to.pos.y) / 2 };
  const onRoad = t.terrain.lines.some(
    (r) => r.kind === 'road' && [from.pos, mid, to.pos].every((p) => pointPolylineDistance(p, r.points) <= IN / 2),
  );
  return { cost: Math.round(cost), areas: [...areas], crossed, contoursUp, onRoad, impassable };
}
