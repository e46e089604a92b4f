/**
 * Age of Eagles geometry on the shared tabletop layer: footprints per arm and formation (A3), firing stands and edges,
 * the front arc and the four sectors, ranges and their bands, line of sight, cover, secure flanks, leader distance,
 * and the ground for movement (rough, roads, streams with fords and bridges), with the scenario's terrain turned into
 * the Ctx pieces. Lengths in 1/100" (`IN`), headings in degrees clockwise from north, positions are footprint centres;
 * a unit in a BUA block stands at the block's centre (whoever moves it in sets its x, y to the block's).
 */
import {
  IN,
  type Polygon,
  type Rect,
  type Sector,
  type Vec,
  closestPointOnSegment,
  dist,
  fromLocal,
  fx,
  headingTo,
  normDeg,
  pointInPolygon,
  pointPolygonDistance,
  polygonDistance,
  polygonPolylineDistance,
  polygonsOverlap,
  rectCorners,
  sectorOf,
  segmentsIntersect,
} from '../../geometry/geometry.ts';
import type { Cover, Terrain, TerrainArea, TerrainLine } from '../../geometry/terrain.ts';
import { blockFootprint, memo } from '../../tabletop/footprint.ts';
import { coverAgainst, frontSees } from '../../tabletop/sight.ts';
import { type TerrainClasses, areaFlags, crossingCost, pathCost } from '../../tabletop/terrain.ts';
import type { TerrainSpec } from './scenario.ts';
import type { AoeState, Block, CavFormation, Ctx, Face, InfFormation, Unit } from './types.ts';

// ---------- numbers ----------

/** A3: an infantry stand is 1" × 0.75". */
const INF_STAND = { w: IN, d: 75 } as const;
/** A3: a cavalry stand is 1" × 1". */
const CAV_STAND = { w: IN, d: IN } as const;
/** A3: a gun stand (limbered or unlimbered) is 1" × 1.25". */
const GUN_STAND = { w: IN, d: 125 } as const;
/** [Built Up Areas] a BUA block is 3" × 3". */
const BLOCK_SIZE = 3 * IN;
/** A3: Open Order is 6 stands side by side with 0.5" gaps (8.5" wide). */
const OPEN_ORDER_GAP = 50;
/** A4 (digest §3.3, choice of this module): a road is the ground within 0.5" of its polyline. */
const ROAD_HALF_WIDTH = 50;
/** [Volley & Cannonade] the range columns: up to 3", 6", 12", 18", 24". */
const RANGE_LIMITS: readonly number[] = [3 * IN, 6 * IN, 12 * IN, 18 * IN, 24 * IN];
/** [Secure Flanks] friendly units within 3" of each flank. */
const FLANK_REACH = 3 * IN;
/** [Tactical Movement Modifiers] / A10: a leader within 12" of the nearest point of the unit. */
export const LEADER_REACH = 12 * IN;
/** A4: a firer on a hill ignores intervening units off the hills more than 3" from the target. */
const HILL_OVERLOOK = 3 * IN;
/** A4: woods block sight except into or out of the first 1". */
const WOODS_EDGE = IN;
/** Slack for ≤ comparisons of float distances (units). */
const EPS = 1e-3;
/** Reach of the drawn front arc: beyond any table (96" × 96"). */
const ARC_REACH = 200 * IN;
/** A hill's see-through allowance: any length, so a segment with an end on the hill is never blocked by it. */
const HILL_SEE = 1000 * IN;

/** The sides of a unit a footprint edge or sector can be named by. */
export type Flank = 'left' | 'right';

// ---------- footprints (A3) ----------

/** A3 layouts: files × ranks of stands per arm and formation. */
const INF_LAYOUT: Readonly<Record<InfFormation, { files: number; ranks: number }>> = {
  Line: { files: 6, ranks: 1 },
  FieldColumn: { files: 3, ranks: 2 },
  Masse: { files: 2, ranks: 3 },
  MarchColumn: { files: 1, ranks: 6 },
  OpenOrder: { files: 6, ranks: 1 }, // with gaps, below
  Square: { files: 2, ranks: 3 }, // all stands face out on 4 sides
};
const CAV_LAYOUT: Readonly<Record<CavFormation, { files: number; ranks: number }>> = {
  Line: { files: 4, ranks: 1 },
  FieldColumn: { files: 2, ranks: 2 },
  MarchColumn: { files: 1, ranks: 4 },
};

/** The rectangle of a BUA block [Built Up Areas]: 3" × 3", square to the table (no facing). */
export function blockRect(b: { readonly x: number; readonly y: number }): Rect {
  return { x: b.x, y: b.y, w: BLOCK_SIZE, d: BLOCK_SIZE, h: 0 };
}

/**
 * A3: the footprint `u` would have with its centre at (x, y), facing `h`, in formation `f`. A unit in a BUA block
 * occupies the block (centred on it, no facing).
 */
export function rectAt(u: Unit, x: number, y: number, h: number, f?: InfFormation | CavFormation): Rect {
  if (u.bua !== '') return blockRect({ x, y }); // [Built Up Areas] the 3" × 3" block, no facing
  const c = { x, y };
  if (u.k === 'bat') return blockFootprint(c, h, 1, 1, GUN_STAND.w, GUN_STAND.d); // A3: one gun stand
  if (u.k === 'cav') {
    const l = CAV_LAYOUT[(f ?? u.f) as CavFormation] ?? CAV_LAYOUT.Line;
    return blockFootprint(c, h, l.files, l.ranks, CAV_STAND.w, CAV_STAND.d);
  }
  const form = (f ?? u.f) as InfFormation;
  if (form === 'OpenOrder') return { x, y, w: 6 * INF_STAND.w + 5 * OPEN_ORDER_GAP, d: INF_STAND.d, h }; // A3: 8.5"
  const l = INF_LAYOUT[form];
  return blockFootprint(c, h, l.files, l.ranks, INF_STAND.w, INF_STAND.d);
}

const rects = memo<Unit, Rect>((u) => rectAt(u, u.x, u.y, u.h));
const polys = memo<Unit, Polygon>((u) => rectCorners(rects.get(u)));

/** A3: the unit's footprint (memoised per unit object). */
export function footprint(u: Unit): Rect {
  return rects.get(u);
}
/** The footprint's corners: front-left, front-right, rear-right, rear-left. */
export function poly(u: Unit): Polygon {
  return polys.get(u);
}
export function centre(u: Unit): Vec {
  return { x: u.x, y: u.y };
}

/** A copy that changed nothing its footprint depends on reuses the original's cached footprint. */
export function inheritGeometry(from: Unit, to: Unit): void {
  if (from.k !== to.k || from.x !== to.x || from.y !== to.y || from.h !== to.h || from.bua !== to.bua) return;
  if (from.k !== 'bat' && to.k !== 'bat' && from.f !== to.f) return;
  rects.inherit(from, to);
  polys.inherit(from, to);
}

// ---------- firing stands (§3.1, A6) ----------

/** Squares and BUA occupants have four fronts: no flank or rear (§3.2). */
export function fourFronts(u: Unit): boolean {
  return u.bua !== '' || (u.k === 'inf' && u.f === 'Square');
}

/**
 * §3.1 front-rank (firing) stands: Line 6, Field Column 3, Masse 2, March Column 1, Open Order 6, Square all 6, in a
 * BUA all 6; a battery its 1 gun stand; cavalry never fire.
 */
export function firingStands(u: Unit): number {
  if (u.k === 'cav') return 0;
  if (u.k === 'bat') return 1;
  if (u.bua !== '') return 6;
  return u.f === 'Square' ? 6 : INF_LAYOUT[u.f].files;
}

/** The rectangles whose front edges a unit faces out of: its footprint, or each of the four sides of a square/block. */
function fronts(u: Unit): Rect[] {
  const r = footprint(u);
  if (!fourFronts(u)) return [r];
  const side = { ...r, w: r.d, d: r.w };
  return [r, { ...side, h: (r.h + 90) % 360 }, { ...r, h: (r.h + 180) % 360 }, { ...side, h: (r.h + 270) % 360 }];
}

/**
 * A4: the front edges of the firing stands, as segments. Line, columns and Masse: the footprint's front edge (their
 * front rank spans it); Open Order: the six stands' edges, gaps excluded; a battery: its gun stand's front edge;
 * squares and BUA occupants: all four edges.
 */
export function firingEdges(u: Unit): [Vec, Vec][] {
  const r = footprint(u);
  const c = rectCorners(r);
  if (fourFronts(u))
    return [
      [c[0]!, c[1]!],
      [c[1]!, c[2]!],
      [c[2]!, c[3]!],
      [c[3]!, c[0]!],
    ];
  if (u.k === 'inf' && u.f === 'OpenOrder') {
    const out: [Vec, Vec][] = [];
    for (let i = 0; i < 6; i++) {
      const u0 = -r.w / 2 + i * (INF_STAND.w + OPEN_ORDER_GAP);
      out.push([fromLocal(r, u0, r.d / 2), fromLocal(r, u0 + INF_STAND.w, r.d / 2)]);
    }
    return out;
  }
  return [[c[0]!, c[1]!]];
}

// ---------- arcs and sectors (§3.2) ----------

/**
 * The part of `r`'s `sector` (front, right, rear or left: the region beyond that edge between the 45° rays from its
 * corners) within `reach` of the edge, as a polygon. `inset` pulls the rays' starts in from the corners along the
 * edge, so a body touching only a corner from the next sector is not in it.
 */
function sectorPolygon(r: Rect, sector: Sector, reach: number, inset = 0): Polygon {
  const hw = r.w / 2;
  const hd = r.d / 2;
  const R = reach;
  const i = inset;
  const local: [number, number][] =
    sector === 'front'
      ? [
          [-hw + i, hd],
          [hw - i, hd],
          [hw - i + R, hd + R],
          [-hw + i - R, hd + R],
        ]
      : sector === 'rear'
        ? [
            [hw - i, -hd],
            [-hw + i, -hd],
            [-hw + i - R, -hd - R],
            [hw - i + R, -hd - R],
          ]
        : sector === 'right'
          ? [
              [hw, hd - i],
              [hw, -hd + i],
              [hw + R, -hd + i - R],
              [hw + R, hd - i + R],
            ]
          : [
              [-hw, -hd + i],
              [-hw, hd - i],
              [-hw - R, hd - i + R],
              [-hw - R, -hd + i - R],
            ];
  return local.map(([a, b]) => fromLocal(r, a, b));
}

/**
 * §3.2: the face of `target` in whose sector `p` lies (sectors bounded by 45° rays from the corners; a point on a ray
 * counts for the front or rear). Squares and BUA occupants have four fronts: always 'front'.
 */
export function faceOf(target: Unit, p: Vec): Face {
  if (fourFronts(target)) return 'front';
  return sectorOf(footprint(target), p);
}

/** §3.2: enfiladed = the firer's centre is in the target's flank or rear sector. */
export function enfiladed(firer: Unit, target: Unit): boolean {
  return faceOf(target, centre(firer)) !== 'front';
}

/**
 * §3.2: is `target` (a unit or a polygon) at least partly in `u`'s front arc (in any of the four for a square or a BUA
 * occupant)? A body touching only a front corner from the flank is not.
 */
export function inFrontArc(u: Unit, target: Unit | Polygon): boolean {
  const tp = isPolygon(target) ? target : poly(target);
  return fronts(u).some((r) => polygonsOverlap(tp, sectorPolygon(r, 'front', ARC_REACH, 1)));
}
function isPolygon(t: Unit | Polygon): t is Polygon {
  return Array.isArray(t);
}

// ---------- range (A4) ----------

/** A4: from the nearest firing stand's front edge to the nearest point of `target` (units; 0 in contact). */
export function rangeTo(firer: Unit, target: Polygon): number {
  let best = Number.POSITIVE_INFINITY;
  for (const [a, b] of firingEdges(firer)) best = Math.min(best, polygonPolylineDistance(target, [a, b]));
  return best;
}
/** A4 range between two units: from the firer's nearest firing stand's front edge to the target's nearest point. */
export function fireRange(firer: Unit, target: Unit): number {
  return rangeTo(firer, poly(target));
}

/**
 * [Volley & Cannonade] the range column: 0 up to 3", 1 for 3.1"–6", 2 to 12", 3 to 18", 4 to 24", 5 beyond (the
 * first column whose limit is ≥ the range).
 */
export function rangeBand(units: number): number {
  for (let i = 0; i < RANGE_LIMITS.length; i++) if (units <= RANGE_LIMITS[i]! + EPS) return i;
  return RANGE_LIMITS.length;
}

// ---------- line of sight (A4) ----------

/** The units still on the table. */
function onTable(s: Pick<AoeState, 'units'>): Unit[] {
  return s.units.filter((u) => u.gone === '');
}

/** Is `p` on a hill (inside a hill polygon)? */
function onHillAt(ctx: Pick<Ctx, 'terrain'>, p: Vec): boolean {
  return ctx.terrain.areas.some((a) => a.kind === 'hill' && pointInPolygon(p, a.polygon));
}
/** A4: a unit is on a hill when its centre is. */
function onHill(ctx: Pick<Ctx, 'terrain'>, u: Unit): boolean {
  return onHillAt(ctx, centre(u));
}

/**
 * A4: the bodies that block sight from `firer` to `target`: every other unit's footprint, friend or foe; a firer on
 * a hill ignores those off the hills more than 3" (edge to edge) from the target.
 */
function blockersFor(s: Pick<AoeState, 'ctx' | 'units'>, firer: Unit, target: Unit): Polygon[] {
  const high = onHill(s.ctx, firer);
  const tp = poly(target);
  const out: Polygon[] = [];
  for (const o of onTable(s)) {
    if (o.id === firer.id || o.id === target.id) continue;
    if (high && !onHill(s.ctx, o) && polygonDistance(poly(o), tp) > HILL_OVERLOOK + EPS) continue;
    out.push(poly(o));
  }
  return out;
}

/** The terrain as seen by the occupants of blocks `a` and `b`: their own blocks do not block them (A4). */
function terrainFor(t: Terrain, a: string, b: string): Terrain {
  if (a === '' && b === '') return t;
  return { areas: t.areas.filter((x) => x.kind !== 'bua' || (x.id !== a && x.id !== b)), lines: t.lines };
}

/**
 * A4 line of sight: a straight line from a point of a front edge of `firer` (each of the four for a square or a BUA
 * occupant) to a sampled point of `target` (corners and edge middles) inside that front's arc, past other units'
 * footprints, woods (except into or out of their first 1"), BUA blocks other than the two units' own, and hills when
 * neither end is on the hill.
 */
export function lineOfSight(s: Pick<AoeState, 'ctx' | 'units'>, firer: Unit, target: Unit): boolean {
  const t = terrainFor(s.ctx.terrain, firer.bua, target.bua);
  const blockers = blockersFor(s, firer, target);
  const tp = poly(target);
  // the edge is sampled a hair in from its corners, so a neighbour in contact at a corner does not block it
  return fronts(firer).some((r) => frontSees(t, { ...r, w: r.w - 2 }, tp, blockers));
}

/** Whether `firer` sees `target` to fire at or charge it: at least partly in its front arc, and in sight (A4). */
export function canSee(s: Pick<AoeState, 'ctx' | 'units'>, firer: Unit, target: Unit): boolean {
  return inFrontArc(firer, poly(target)) && lineOfSight(s, firer, target);
}

// ---------- cover (§3.3) ----------

const COVER_LEVEL: Readonly<Record<Cover, 0 | 1 | 2>> = { none: 0, soft: 1, hard: 2 };

/**
 * §3.3 cover level of `target` against fire or an attack from `from` (a point, or a unit's centre): in a BUA
 * block, the block's scenario cover (1–3); in woods (centre inside), 1; behind a hedge 1 or a wall 2 when the line from
 * `from` to its centre crosses it and the target is within 1" of it; otherwise 0.
 */
export function coverLevel(s: Pick<AoeState, 'ctx'>, target: Unit, from: Vec | Unit): 0 | 1 | 2 | 3 {
  if (target.bua !== '') return s.ctx.blocks.find((b) => b.id === target.bua)?.cover ?? 3; // [Built Up Areas]
  return COVER_LEVEL[coverAgainst(s.ctx.terrain, poly(target), centre(target), { x: from.x, y: from.y })];
}

// ---------- other distances (§3.4) ----------

/** Edge-to-edge distance between two units' footprints (0 when they touch or overlap). */
export function unitDistance(a: Unit, b: Unit): number {
  return polygonDistance(poly(a), poly(b));
}

/** The flank edge of a footprint: front corner then rear corner. */
function flankEdge(r: Rect, side: Flank): [Vec, Vec] {
  const c = rectCorners(r);
  return side === 'left' ? [c[0]!, c[3]!] : [c[1]!, c[2]!];
}

/**
 * [Secure Flanks] a friendly unit (on the table, not `u`) within 3" of `u`'s `side` flank edge and at least partly in
 * that flank's sector (so a unit straight behind or ahead does not count).
 */
export function flankCovered(s: Pick<AoeState, 'units'>, u: Unit, side: Flank): boolean {
  const r = footprint(u);
  const zone = sectorPolygon(r, side, FLANK_REACH, 1);
  const edge = flankEdge(r, side);
  return onTable(s).some(
    (o) =>
      o.side === u.side &&
      o.id !== u.id &&
      polygonsOverlap(poly(o), zone) &&
      polygonPolylineDistance(poly(o), edge) <= FLANK_REACH + EPS,
  );
}
/** [Secure Flanks] friendly units within 3" of each flank (one on the left, one on the right). */
export function secureFlanks(s: Pick<AoeState, 'units'>, u: Unit): boolean {
  return flankCovered(s, u, 'left') && flankCovered(s, u, 'right');
}

/** From the point (x, y) to the nearest point of the unit's footprint (0 inside it), e.g. to an objective. */
export function nearestDistanceToPoint(u: Unit, x: number, y: number): number {
  return pointPolygonDistance({ x, y }, poly(u));
}

/** §3.4: from a leader at `p` to the nearest point of the unit (0 inside it). */
export function leaderDistance(p: Vec, u: Unit): number {
  return pointPolygonDistance(p, poly(u));
}
/** §3.4: a leader at `p` is within 12" of the unit. */
export function leaderInReach(p: Vec, u: Unit): boolean {
  return leaderDistance(p, u) <= LEADER_REACH + EPS;
}

// ---------- ground for movement (§3.3, §6.3, A11) ----------

/** The arms as the movement table reads them [Movement rates]. */
export type Arm = 'infantry' | 'openOrder' | 'cavalry' | 'artillery' | 'leader';

/** The movement-table row of a unit. */
export function armOf(u: Unit): Arm {
  if (u.k === 'cav') return 'cavalry';
  if (u.k === 'bat') return 'artillery';
  return u.f === 'OpenOrder' ? 'openOrder' : 'infantry';
}

const ROUGH_KINDS: ReadonlySet<string> = new Set(['woods', 'rough']);
const classCache = new Map<number, TerrainClasses<Arm>>();

/**
 * [Movement rates] the terrain classes: rough (woods, rough ground) ×`infantryRough` for infantry (A11, option
 * A11_infantryRough), ×1 for Open Order, ×⅓ for cavalry, artillery and leaders; a stream is impassable; a ford costs
 * 2" (infantry, cavalry) or 3" (artillery, leaders) per crossing; hedges and walls cost nothing; cover: woods soft (1),
 * hedge soft (1), wall hard (2), BUA hard (its level is the block's).
 */
function terrainClasses(infantryRough = 0.5): TerrainClasses<Arm> {
  let c = classCache.get(infantryRough);
  if (c) return c;
  const rough = { infantry: infantryRough, openOrder: 1, cavalry: 1 / 3, artillery: 1 / 3, leader: 1 / 3 };
  const never = Number.POSITIVE_INFINITY;
  c = {
    woods: { move: rough, cover: 'soft' },
    rough: { move: rough, cover: 'none' },
    hill: { cover: 'none' },
    bua: { cover: 'hard' },
    hedge: { cover: 'soft' },
    wall: { cover: 'hard' },
    stream: {
      crossing: { infantry: never, openOrder: never, cavalry: never, artillery: never, leader: never },
      cover: 'none',
    },
    ford: {
      crossing: { infantry: 2 * IN, openOrder: 2 * IN, cavalry: 2 * IN, artillery: 3 * IN, leader: 3 * IN },
      cover: 'none',
    },
  };
  classCache.set(infantryRough, c);
  return c;
}

/** §3.3: is `p` in rough ground (woods or a rough area)? */
export function roughAt(ctx: Pick<Ctx, 'terrain'>, p: Vec): boolean {
  return ctx.terrain.areas.some((a) => ROUGH_KINDS.has(a.kind) && pointInPolygon(p, a.polygon));
}

/** The BUA block holding `p`, if any. */
export function blockAt(ctx: Pick<Ctx, 'blocks'>, p: Vec): Block | undefined {
  const h = BLOCK_SIZE / 2;
  return ctx.blocks.find((b) => Math.abs(p.x - b.x) <= h && Math.abs(p.y - b.y) <= h);
}

/** Distance from `p` to a polyline. */
function polylineDistance(p: Vec, line: readonly Vec[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i + 1 < line.length; i++)
    best = Math.min(best, dist(p, closestPointOnSegment(p, line[i]!, line[i + 1]!)));
  return best;
}

/** Is `p` on a road (within 0.5" of a road's polyline; a 1"-wide column on the road has its centre there)? */
export function onRoad(ctx: Pick<Ctx, 'roads'>, p: Vec): boolean {
  return ctx.roads.some((r) => polylineDistance(p, r) <= ROAD_HALF_WIDTH + EPS);
}

/** [Movement rates] A11: does the straight path from → to stay on roads the whole way (sampled every 0.25")? */
export function pathOnRoad(ctx: Pick<Ctx, 'roads'>, from: Vec, to: Vec): boolean {
  const n = Math.max(1, Math.ceil(dist(from, to) / 25));
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    if (!onRoad(ctx, { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t })) return false;
  }
  return true;
}

/**
 * [Movement rates] A11: a road move: from `p` (within 0.5" of a road; the nearest road is taken) `distance` along the
 * road, in its direction nearer `heading`, stopping at the road's end. The centre lands on the road's line, facing
 * along it; `moved` is the length actually travelled. Null off the roads.
 */
export function alongRoad(
  ctx: Pick<Ctx, 'roads'>,
  p: Vec,
  heading: number,
  distance: number,
): { x: number; y: number; h: number; moved: number } | null {
  let best: { road: readonly Vec[]; cum: number[]; s: number; d: number; seg: number } | null = null;
  for (const road of ctx.roads) {
    const cum = arcLengths(road);
    for (let i = 0; i + 1 < road.length; i++) {
      const q = closestPointOnSegment(p, road[i]!, road[i + 1]!);
      const d = dist(p, q);
      if (d <= ROAD_HALF_WIDTH + EPS && (!best || d < best.d))
        best = { road, cum, s: cum[i]! + dist(road[i]!, q), d, seg: i };
    }
  }
  if (!best) return null;
  const { road, cum, seg } = best;
  const along = headingTo(road[seg]!, road[seg + 1]!);
  const diff = Math.abs(((heading - along + 540) % 360) - 180);
  const sign = diff <= 90 ? 1 : -1;
  const total = cum[cum.length - 1]!;
  const s1 = Math.min(total, Math.max(0, best.s + sign * distance));
  const q = pointAt(road, cum, s1);
  // the heading of the road where the move ends, in the direction of travel
  const a = pointAt(road, cum, Math.max(0, Math.min(total, s1 - sign)));
  const b = pointAt(road, cum, Math.max(0, Math.min(total, s1 + sign)));
  const h = dist(a, b) > 0 ? headingTo(a, b) : normDeg(sign > 0 ? along : along + 180);
  return { x: Math.round(q.x), y: Math.round(q.y), h, moved: Math.abs(s1 - best.s) };
}

/**
 * [Movement rates] the allowance a footprint moving from → to uses: its centre's path with each inch in rough costing
 * 1/k inches, plus each ford crossed (2" or 3"); Infinity across a stream away from fords and bridges (its centre's
 * or a corner's path crosses the stream's bank line).
 */
export function moveCost(ctx: Pick<Ctx, 'terrain' | 'options'>, arm: Arm, from: Rect, to: Rect): number {
  return groundCost(ctx, arm, from, to) + crossCost(ctx, arm, from, to);
}

/** The path part of `moveCost`: each inch in rough costing 1/k inches. */
export function groundCost(ctx: Pick<Ctx, 'terrain' | 'options'>, arm: Arm, from: Rect, to: Rect): number {
  return pathCost(ctx.terrain, terrainClasses(ctx.options.A11_infantryRough), arm, from, to);
}

/** The crossing part of `moveCost`: each ford crossed (2" or 3"), Infinity across a stream. */
export function crossCost(ctx: Pick<Ctx, 'terrain' | 'options'>, arm: Arm, from: Rect, to: Rect): number {
  return crossingCost(ctx.terrain, terrainClasses(ctx.options.A11_infantryRough), arm, from, to);
}

// ---------- scenario terrain → Ctx pieces ----------

/** The Ctx pieces the scenario's terrain makes, in 1/100". */
export interface BuiltTerrain {
  readonly terrain: Terrain;
  readonly blocks: Ctx['blocks'];
  readonly roads: Ctx['roads'];
  readonly streams: Ctx['streams'];
}

/** Cumulative lengths along a polyline. */
function arcLengths(pts: readonly Vec[]): number[] {
  const cum = [0];
  for (let i = 1; i < pts.length; i++) cum.push(cum[i - 1]! + dist(pts[i - 1]!, pts[i]!));
  return cum;
}
/** The point at length `s` along a polyline. */
function pointAt(pts: readonly Vec[], cum: readonly number[], s: number): Vec {
  for (let i = 0; i + 1 < pts.length; i++) {
    const a = cum[i]!;
    const b = cum[i + 1]!;
    if (s <= b || i + 2 === pts.length) {
      const t = b > a ? Math.min(1, Math.max(0, (s - a) / (b - a))) : 0;
      const p = pts[i]!;
      const q = pts[i + 1]!;
      return { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t };
    }
  }
  return pts[pts.length - 1]!;
}

/**
 * Cuts a polyline into runs by class: `cuts` are lengths along it where the class may change; each piece between
 * two cuts takes the class of its middle (null: left out). Runs keep the original vertices inside them; points are
 * rounded to whole units.
 */
function splitPolyline<K extends string>(
  pts: readonly Vec[],
  cuts: readonly number[],
  classify: (mid: Vec, s: number) => K | null,
): { kind: K; points: Vec[] }[] {
  const cum = arcLengths(pts);
  const total = cum[cum.length - 1]!;
  const at = [0, total, ...cuts.filter((c) => c > 0 && c < total)].sort((a, b) => a - b);
  const out: { kind: K; points: Vec[] }[] = [];
  const round = (p: Vec) => ({ x: Math.round(p.x), y: Math.round(p.y) });
  let run: { kind: K; from: number; to: number } | null = null;
  const flush = () => {
    if (!run) return;
    const points = [round(pointAt(pts, cum, run.from))];
    for (let i = 0; i < pts.length; i++) if (cum[i]! > run.from && cum[i]! < run.to) points.push(round(pts[i]!));
    points.push(round(pointAt(pts, cum, run.to)));
    out.push({ kind: run.kind, points });
    run = null;
  };
  for (let i = 0; i + 1 < at.length; i++) {
    const a = at[i]!;
    const b = at[i + 1]!;
    if (b - a < 1e-9) continue;
    const k = classify(pointAt(pts, cum, (a + b) / 2), (a + b) / 2);
    if (run && k === run.kind) run.to = b;
    else {
      flush();
      if (k !== null) run = { kind: k, from: a, to: b };
    }
  }
  flush();
  return out;
}

/**
 * A4 streams: the banks to cross, split into 'stream' runs (impassable), 'ford' runs (the fords' x extents, 0.01"
 * wider each side so a unit exactly as wide as the ford fits) and gaps where a road crosses (a bridge: the road's
 * 0.5" either side of the crossing, measured across the road, plus 0.02").
 */
function streamLines(
  pts: readonly Vec[],
  fords: readonly { from: number; to: number }[],
  roads: readonly (readonly Vec[])[],
): { kind: 'stream' | 'ford'; points: Vec[] }[] {
  const cum = arcLengths(pts);
  const cuts: number[] = [];
  const bridges: [number, number][] = [];
  const fordX = fords.map((f) => ({ from: f.from - 1, to: f.to + 1 }));
  for (let i = 0; i + 1 < pts.length; i++) {
    const a = pts[i]!;
    const b = pts[i + 1]!;
    const len = cum[i + 1]! - cum[i]!;
    for (const f of fordX)
      for (const xb of [f.from, f.to])
        if ((a.x - xb) * (b.x - xb) < 0) cuts.push(cum[i]! + ((xb - a.x) / (b.x - a.x)) * len);
    for (const road of roads)
      for (let j = 0; j + 1 < road.length; j++) {
        const p = road[j]!;
        const q = road[j + 1]!;
        if (!segmentsIntersect(a, b, p, q)) continue;
        const dx = b.x - a.x;
        const dy = b.y - a.y;
        const ex = q.x - p.x;
        const ey = q.y - p.y;
        const den = dx * ey - dy * ex;
        if (den === 0 || len === 0) continue;
        const t = ((p.x - a.x) * ey - (p.y - a.y) * ex) / den;
        const sin = Math.abs(den) / (len * Math.hypot(ex, ey));
        const g = (ROAD_HALF_WIDTH + 2) / Math.max(sin, 0.2);
        const s0 = cum[i]! + t * len;
        bridges.push([s0 - g, s0 + g]);
        cuts.push(s0 - g, s0 + g);
      }
  }
  return splitPolyline<'stream' | 'ford'>(pts, cuts, (mid, s) => {
    if (bridges.some(([lo, hi]) => s >= lo && s <= hi)) return null;
    return fordX.some((f) => mid.x >= f.from && mid.x <= f.to) ? 'ford' : 'stream';
  });
}

/**
 * The scenario's terrain (inches) as the Ctx pieces (1/100"): BUA blocks (areas that block sight, hard cover, and the
 * `blocks` list), roads (polylines; no area), streams (impassable bank lines with fords and bridges cut out, and the
 * `streams` list), woods (rough, cover 1, blocking sight except 1" in), rough (no cover, no sight effect), hills
 * (blocking sight only when neither end is on them), hedges (cover 1) and walls (cover 2) within 1" behind, no
 * movement cost.
 */
export function buildTerrain(spec: readonly TerrainSpec[]): BuiltTerrain {
  const classes = terrainClasses();
  const flags = (kind: string) => areaFlags(classes[kind]!, 'infantry');
  const pt = ([x, y]: readonly [number, number]): Vec => ({ x: fx(x), y: fx(y) });
  const areas: TerrainArea[] = [];
  const lines: TerrainLine[] = [];
  const blocks: Block[] = [];
  const roads: Vec[][] = [];
  const streams: { points: Vec[]; fords: { from: number; to: number }[] }[] = [];
  for (const t of spec) if (t.type === 'road') roads.push(t.points.map(pt));
  for (const t of spec) {
    switch (t.type) {
      case 'bua': {
        const b: Block = { id: t.id, x: fx(t.x), y: fx(t.y), cover: t.cover };
        blocks.push(b);
        // [Built Up Areas] A4: a block blocks sight (its occupant sees out and is seen: lineOfSight drops its block)
        areas.push({
          id: t.id,
          kind: 'bua',
          polygon: rectCorners(blockRect(b)),
          ...flags('bua'),
          blocksLos: true,
          seeThroughEdge: 0,
        });
        break;
      }
      case 'woods': // §3.3: rough, cover 1; A4: blocks sight except into or out of the first 1"
        areas.push({
          id: t.id,
          kind: 'woods',
          polygon: t.polygon.map(pt),
          ...flags('woods'),
          blocksLos: true,
          seeThroughEdge: WOODS_EDGE,
        });
        break;
      case 'rough': // §3.3: broken ground, marsh: rough, no cover, no effect on sight
        areas.push({
          id: t.id,
          kind: 'rough',
          polygon: t.polygon.map(pt),
          ...flags('rough'),
          blocksLos: false,
          seeThroughEdge: 0,
        });
        break;
      case 'hill': // A4: blocks a line crossing it when neither end is on it (any length in from an end on it)
        areas.push({
          id: t.id,
          kind: 'hill',
          polygon: t.polygon.map(pt),
          ...flags('hill'),
          blocksLos: true,
          seeThroughEdge: HILL_SEE,
        });
        break;
      case 'hedge': // §3.3: cover 1 within 1" behind, no movement cost
      case 'wall': // §3.3: cover 2 within 1" behind, no movement cost
        lines.push({
          id: t.id,
          kind: t.type,
          points: t.points.map(pt),
          obstacle: false,
          cover: classes[t.type]!.cover,
          coverDepth: IN,
          blocksLos: false,
        });
        break;
      case 'stream': {
        // A4: impassable except at fords and where a road crosses (a bridge)
        const points = t.points.map(pt);
        const fords = t.fords.map((f) => ({ from: fx(f.from), to: fx(f.to) }));
        streams.push({ points, fords });
        streamLines(points, fords, roads).forEach((run, i) =>
          lines.push({
            id: `${t.id}.${i}`,
            kind: run.kind,
            points: run.points,
            obstacle: run.kind === 'stream',
            cover: 'none',
            coverDepth: 0,
            blocksLos: false,
          }),
        );
        break;
      }
      case 'road':
        break;
    }
  }
  return { terrain: { areas, lines }, blocks, roads, streams };
}
