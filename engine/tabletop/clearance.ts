/**
 * Clearance for miniatures rulesets: is a position on the table, off impassable ground, clear of obstacle lines and
 * other bodies, and far enough from the enemy? The ruleset says which bodies count, which are friends, what each
 * occupies and how far apart hostile troops must stay; this module knows no ruleset.
 */
import {
  type Box,
  type Polygon,
  bbox,
  boxDistance,
  onTable,
  polygonDistanceCapped,
  polygonTouchesPolyline,
  polygonsOverlap,
} from '../geometry/geometry.ts';
import { type Terrain, hitsImpassable } from '../geometry/terrain.ts';

/** The table: its size (units) and terrain. */
export interface Table {
  readonly width: number;
  readonly height: number;
  readonly terrain: Terrain;
}

/**
 * The ruleset's accessors over its own unit type, given once (no allocation per test): which units count as seen
 * from a mover, which are its friends, and what each occupies.
 */
export interface BodyView<T> {
  /** Counts at all (e.g. on the table and not the mover itself). */
  counts(o: T, mover: T): boolean;
  /** A friend of the mover (friends are only kept from overlapping; enemies are kept at the separation). */
  friendly(o: T, mover: T): boolean;
  /** The body a move may not overlap. */
  body(o: T): Polygon;
  /** Everything the enemy separation is measured to: the body and any screens. */
  troops(o: T): readonly Polygon[];
}

/** The units on the table as seen from one mover. */
export interface Bodies<T> {
  readonly view: BodyView<T>;
  readonly list: readonly T[];
  readonly mover: T;
}

/** The ruleset's numbers for clearance. */
export interface ClearanceRules {
  /** Minimum distance between hostile troops (units); 0 for none. */
  readonly separation: number;
}

/** Distance below which a separation that was already broken counts as having shrunk (rounding slack, units). */
const SLACK = 1;

/** Nearest enemy troops to any of `polys`, capped at `cap`: only smaller values matter. */
export function nearestEnemy<T>(bodies: Bodies<T>, polys: readonly Polygon[], cap: number): number {
  const { view, mover } = bodies;
  let best = cap;
  for (const e of bodies.list) {
    if (!view.counts(e, mover) || view.friendly(e, mover)) continue;
    for (const ep of view.troops(e)) {
      for (const p of polys) {
        const d = polygonDistanceCapped(p, ep, best);
        if (d < best) best = d;
      }
    }
  }
  return best;
}

/** What the fast box test also keeps clear of, besides the table edges, impassable ground and the enemy. */
export interface BoxClearOptions {
  /** Friends' bodies. */
  readonly friends: boolean;
  /** Obstacle lines. */
  readonly obstacles: boolean;
}

/**
 * Conservative fast path: is the box clear of the table edges, impassable ground, obstacle lines (if asked),
 * friends' bodies (if asked) and enemy troops by the separation? If so, every position inside it is clear.
 */
export function boxClear<T>(
  table: Table,
  bodies: Bodies<T>,
  box: Box,
  rules: ClearanceRules,
  opts: BoxClearOptions,
): boolean {
  if (box.minX < 0 || box.minY < 0 || box.maxX > table.width || box.maxY > table.height) return false;
  for (const a of table.terrain.areas) if (a.impassable && boxDistance(box, bbox(a.polygon)) === 0) return false;
  if (opts.obstacles)
    for (const l of table.terrain.lines) if (l.obstacle && boxDistance(box, bbox(l.points)) === 0) return false;
  const { view, mover } = bodies;
  for (const o of bodies.list) {
    if (!view.counts(o, mover)) continue;
    if (view.friendly(o, mover)) {
      if (opts.friends && boxDistance(box, bbox(view.body(o))) === 0) return false;
    } else for (const p of view.troops(o)) if (boxDistance(box, bbox(p)) < rules.separation) return false;
  }
  return true;
}

/** Every polygon on the table and the first (the body) off impassable ground. */
export function onGround(table: Table, polys: readonly Polygon[]): boolean {
  for (const p of polys) if (!onTable(p, table.width, table.height)) return false;
  return !hitsImpassable(table.terrain, polys[0]!);
}

/**
 * A position on a path (`polys`: the body first, then any screens): on the table, the body off impassable ground, and
 * no closer than the separation to enemy troops unless it already was (`startSep`), in which case no closer than that.
 */
export function pathClear<T>(
  table: Table,
  bodies: Bodies<T>,
  polys: readonly Polygon[],
  startSep: number,
  rules: ClearanceRules,
): boolean {
  if (!onGround(table, polys)) return false;
  const d = nearestEnemy(bodies, polys, rules.separation);
  return !(d < rules.separation && d < startSep - SLACK);
}

/** An end position: the body overlaps no counted body (friend or enemy) and touches no obstacle line. */
export function endClear<T>(table: Table, bodies: Bodies<T>, body: Polygon): boolean {
  const { view, mover } = bodies;
  for (const o of bodies.list) {
    if (!view.counts(o, mover)) continue;
    if (polygonsOverlap(body, view.body(o))) return false;
  }
  for (const l of table.terrain.lines) if (l.obstacle && polygonTouchesPolyline(body, l.points)) return false;
  return true;
}
