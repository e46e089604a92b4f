/**
 * Shortest paths round obstacles on the table, and whether two paths cross. Knows no ruleset: the ruleset passes its
 * obstacles (simple polygons, each with an optional core), its walls (polylines a path may not cross: a river, say,
 * already cut where it may be crossed) and the table's box; the lengths are the geometry's units.
 *
 * A path enters no obstacle's interior and crosses no wall; it may run along an edge, touch a corner and go round a
 * wall's end. A shortest such path bends only at obstacle corners (an outline's convex corners, a wall's ends and the
 * outside of its bends), so it is found on the visibility graph of those corners by A* with the straight distance as
 * the heuristic; the graph's edges are tested when first needed and remembered in the map, so a map built once serves
 * many queries. A point inside an obstacle may leave it: the path's first leg ignores the outlines its start is in
 * (not their cores, unless the start is in the core too), and its last leg those its end is in. Pure; no I/O.
 */
import { type Box, type Polygon, type Vec, bbox, pointInPolygon } from '../geometry/geometry.ts';

/** An obstacle: the region a path may not enter. */
interface Obstacle {
  /** A simple polygon (convex or not), either orientation. */
  readonly outline: Polygon;
  /** The part a path leaving from inside the outline may not cross either (e.g. the body inside its zone). */
  readonly core?: Polygon;
}

/** What a path must keep out of, and the box it must keep in. */
export interface PathWorld {
  readonly obstacles?: readonly Obstacle[];
  /** Polylines a path may not cross (touching one, or going round its end, is allowed). */
  readonly walls?: readonly (readonly Vec[])[];
  /** The table: both ends and every bend of a path lie inside it (it is convex, so the whole path does). */
  readonly bounds?: Box;
}

export interface Path {
  readonly length: number;
  /** From the start to the end, with the bends between. */
  readonly points: readonly Vec[];
}

interface Prepared {
  readonly outline: Polygon;
  readonly box: Box;
  readonly core: Polygon | null;
  readonly coreBox: Box | null;
}

/** A world prepared for queries: its waypoints and the visibility between them found so far. */
export interface PathMap {
  readonly obstacles: readonly Prepared[];
  readonly walls: readonly (readonly Vec[])[];
  readonly wallBoxes: readonly Box[];
  readonly bounds: Box | null;
  /** The waypoints: the corners a shortest path may bend at. */
  readonly nodes: readonly Vec[];
  /** Visibility between two waypoints, by pair (remembered as it is found). */
  readonly seen: Map<number, boolean>;
}

/** Distances (units) below this are zero. */
const TOL = 1e-6;
/** How far a wall's bend waypoint stands off the bend, on its outside. */
const NUDGE = 1e-2;
const TAU = 2 * Math.PI;

const sub = (a: Vec, b: Vec): Vec => ({ x: a.x - b.x, y: a.y - b.y });
const len = (a: Vec, b: Vec) => Math.hypot(a.x - b.x, a.y - b.y);
/** Signed distance of c from the line a→b (positive to the left). */
function side(a: Vec, b: Vec, c: Vec): number {
  const l = len(a, b);
  const s = ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) / (l || 1);
  return Math.abs(s) <= TOL ? 0 : Math.sign(s);
}

function pointSegmentDistance(p: Vec, a: Vec, b: Vec): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const l2 = dx * dx + dy * dy;
  const t = l2 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2)) : 0;
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Is p inside the polygon and off its boundary? */
function strictlyInside(p: Vec, poly: Polygon): boolean {
  if (!pointInPolygon(p, poly)) return false;
  for (let i = 0; i < poly.length; i++)
    if (pointSegmentDistance(p, poly[i]!, poly[(i + 1) % poly.length]!) <= TOL) return false;
  return true;
}

const outside = (p: Vec, q: Vec, b: Box) =>
  Math.max(p.x, q.x) <= b.minX + TOL ||
  Math.min(p.x, q.x) >= b.maxX - TOL ||
  Math.max(p.y, q.y) <= b.minY + TOL ||
  Math.min(p.y, q.y) >= b.maxY - TOL;

/**
 * Does the segment p–q pass through the polygon's interior? Running along an edge or touching a corner does not. The
 * segment is cut where it meets the boundary; it enters if it crosses an edge properly or a piece between two
 * meeting points lies inside.
 */
export function segmentEntersPolygon(p: Vec, q: Vec, poly: Polygon, box: Box = bbox(poly)): boolean {
  if (outside(p, q, box)) return false;
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const l = Math.hypot(dx, dy);
  if (l <= TOL) return strictlyInside(p, poly);
  const at = (v: Vec) => ((v.x - p.x) * dx + (v.y - p.y) * dy) / (l * l);
  const ts = [0, 1];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!;
    const b = poly[(i + 1) % poly.length]!;
    const sa = (dx * (a.y - p.y) - dy * (a.x - p.x)) / l;
    const sb = (dx * (b.y - p.y) - dy * (b.x - p.x)) / l;
    const ka = Math.abs(sa) <= TOL ? 0 : Math.sign(sa);
    const kb = Math.abs(sb) <= TOL ? 0 : Math.sign(sb);
    if (ka * kb > 0) continue;
    if (ka === 0 && kb === 0) {
      ts.push(Math.max(0, Math.min(1, at(a))), Math.max(0, Math.min(1, at(b))));
      continue;
    }
    const f = ka === 0 ? 0 : kb === 0 ? 1 : sa / (sa - sb);
    const t = at({ x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f });
    if (t * l < -TOL || (t - 1) * l > TOL) continue;
    // through the edge's middle, strictly between p and q: from outside to inside or back
    if (ka * kb < 0 && t * l > TOL && (1 - t) * l > TOL) return true;
    ts.push(Math.max(0, Math.min(1, t)));
  }
  ts.sort((x, y) => x - y);
  for (let i = 0; i + 1 < ts.length; i++) {
    const t0 = ts[i]!;
    const t1 = ts[i + 1]!;
    if ((t1 - t0) * l <= TOL) continue;
    const m = (t0 + t1) / 2;
    if (strictlyInside({ x: p.x + dx * m, y: p.y + dy * m }, poly)) return true;
  }
  return false;
}

/** Do the segments a–b and c–d cross at one point inside both (not touching, not overlapping)? */
function properCross(a: Vec, b: Vec, c: Vec, d: Vec): boolean {
  return side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0;
}

/** The angle of d turned from r, in [0, 2π). */
function turn(r: Vec, d: Vec): number {
  let t = Math.atan2(d.y, d.x) - Math.atan2(r.y, r.x);
  while (t < 0) t += TAU;
  while (t >= TAU) t -= TAU;
  return t;
}

/**
 * At a bend v of a polyline (between its neighbours a and b), do the directions toward p and q lie strictly on
 * opposite sides of it (a line through v from p to q crossing it there)?
 */
function separatesAt(v: Vec, a: Vec, b: Vec, p: Vec, q: Vec): boolean {
  const ra = sub(a, v);
  const tb = turn(ra, sub(b, v));
  const ang = 1e-9;
  const which = (d: Vec): number => {
    const t = turn(ra, d);
    if (t < ang || t > TAU - ang || Math.abs(t - tb) < ang) return 0;
    return t < tb ? 1 : -1;
  };
  return which(sub(p, v)) * which(sub(q, v)) < 0;
}

/** Is v on the segment p–q, strictly between its ends? */
function onOpenSegment(v: Vec, p: Vec, q: Vec): boolean {
  if (side(p, q, v) !== 0) return false;
  const l = len(p, q);
  const t = ((v.x - p.x) * (q.x - p.x) + (v.y - p.y) * (q.y - p.y)) / (l * l || 1);
  return t * l > TOL && (1 - t) * l > TOL;
}

/** Does the segment p–q cross the polyline: through one of its segments, or through one of its bends side to side? */
export function segmentCrossesWall(p: Vec, q: Vec, wall: readonly Vec[]): boolean {
  for (let i = 0; i + 1 < wall.length; i++) if (properCross(p, q, wall[i]!, wall[i + 1]!)) return true;
  for (let i = 1; i + 1 < wall.length; i++)
    if (onOpenSegment(wall[i]!, p, q) && separatesAt(wall[i]!, wall[i - 1]!, wall[i + 1]!, p, q)) return true;
  return false;
}

const boxOf = (ps: readonly Vec[]): Box => bbox(ps);
const boxesApart = (a: Box, b: Box) =>
  a.maxX < b.minX - TOL || b.maxX < a.minX - TOL || a.maxY < b.minY - TOL || b.maxY < a.minY - TOL;

/**
 * Do two polylines cross properly: one passes from one side of the other to the other side, at a segment's middle or
 * at a bend? Touching, running along and meeting at an end are not crossings.
 */
export function polylinesCross(a: readonly Vec[], b: readonly Vec[]): boolean {
  if (a.length < 2 || b.length < 2 || boxesApart(boxOf(a), boxOf(b))) return false;
  for (let i = 0; i + 1 < a.length; i++) if (segmentCrossesWall(a[i]!, a[i + 1]!, b)) return true;
  for (let j = 0; j + 1 < b.length; j++) if (segmentCrossesWall(b[j]!, b[j + 1]!, a)) return true;
  // a bend of each at the same point
  for (let i = 1; i + 1 < a.length; i++)
    for (let j = 1; j + 1 < b.length; j++)
      if (len(a[i]!, b[j]!) <= TOL && separatesAt(a[i]!, a[i - 1]!, a[i + 1]!, b[j - 1]!, b[j + 1]!)) return true;
  return false;
}

/** The convex hull of points, anticlockwise (y up), without collinear points. */
export function convexHull(points: readonly Vec[]): Vec[] {
  const ps = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (ps.length < 3) return ps;
  const cross = (o: Vec, a: Vec, b: Vec) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const half = (list: Vec[]) => {
    const h: Vec[] = [];
    for (const p of list) {
      while (h.length >= 2 && cross(h[h.length - 2]!, h[h.length - 1]!, p) <= 0) h.pop();
      h.push(p);
    }
    h.pop();
    return h;
  };
  return [...half(ps), ...half([...ps].reverse())];
}

/**
 * A polygon grown by r on every side: its convex hull with each edge pushed out by r and the corners mitred (a
 * rectangle becomes one 2r longer and 2r wider); a corner sharper than 60° is bevelled instead.
 */
export function enlargeConvex(poly: Polygon, r: number): Vec[] {
  const h = convexHull(poly);
  if (h.length < 3 || r <= 0) return h;
  const normal = (a: Vec, b: Vec): Vec => {
    const l = len(a, b);
    return { x: (b.y - a.y) / l, y: -(b.x - a.x) / l };
  };
  const out: Vec[] = [];
  for (let i = 0; i < h.length; i++) {
    const prev = h[(i + h.length - 1) % h.length]!;
    const v = h[i]!;
    const next = h[(i + 1) % h.length]!;
    const n1 = normal(prev, v);
    const n2 = normal(v, next);
    const c = 1 + n1.x * n2.x + n1.y * n2.y;
    if (c >= 0.5) out.push({ x: v.x + (r * (n1.x + n2.x)) / c, y: v.y + (r * (n1.y + n2.y)) / c });
    else out.push({ x: v.x + r * n1.x, y: v.y + r * n1.y }, { x: v.x + r * n2.x, y: v.y + r * n2.y });
  }
  return out;
}

function signedArea(poly: Polygon): number {
  let a = 0;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i]!;
    const q = poly[(i + 1) % poly.length]!;
    a += p.x * q.y - q.x * p.y;
  }
  return a / 2;
}

/** Is p in the box grown by `margin` (shrunk when negative)? */
const inBox = (p: Vec, b: Box, margin = TOL) =>
  p.x >= b.minX - margin && p.x <= b.maxX + margin && p.y >= b.minY - margin && p.y <= b.maxY + margin;

/** Prepares a world for path queries: its waypoints (those off the table, on its edge or inside an obstacle dropped). */
export function pathMap(w: PathWorld): PathMap {
  const obstacles: Prepared[] = (w.obstacles ?? [])
    .filter((o) => o.outline.length >= 3)
    .map((o) => ({
      outline: o.outline,
      box: bbox(o.outline),
      core: o.core && o.core.length >= 3 ? o.core : null,
      coreBox: o.core && o.core.length >= 3 ? bbox(o.core) : null,
    }));
  const walls = (w.walls ?? []).filter((l) => l.length >= 2);
  const candidates: Vec[] = [];
  for (const o of obstacles) {
    const k = Math.sign(signedArea(o.outline));
    const n = o.outline.length;
    for (let i = 0; i < n; i++) {
      const a = o.outline[(i + n - 1) % n]!;
      const v = o.outline[i]!;
      const b = o.outline[(i + 1) % n]!;
      // a convex corner turns the way the polygon winds
      if (side(a, v, b) === k) candidates.push(v);
    }
  }
  for (const l of walls) {
    candidates.push(l[0]!, l[l.length - 1]!);
    for (let i = 1; i + 1 < l.length; i++) {
      const v = l[i]!;
      const ua = sub(l[i - 1]!, v);
      const ub = sub(l[i + 1]!, v);
      const la = Math.hypot(ua.x, ua.y);
      const lb = Math.hypot(ub.x, ub.y);
      const bis = { x: ua.x / la + ub.x / lb, y: ua.y / la + ub.y / lb };
      const lbis = Math.hypot(bis.x, bis.y);
      if (lbis < 1e-9) continue; // straight on: never a bend of a shortest path
      candidates.push({ x: v.x - (bis.x / lbis) * NUDGE, y: v.y - (bis.y / lbis) * NUDGE });
    }
  }
  const bounds = w.bounds ?? null;
  // a corner on the table's edge leaves no way round it
  const nodes = candidates.filter(
    (p) => (!bounds || inBox(p, bounds, -TOL)) && !obstacles.some((o) => strictlyInside(p, o.outline)),
  );
  return { obstacles, walls, wallBoxes: walls.map(boxOf), bounds, nodes, seen: new Map() };
}

/** The obstacles a point is inside (by index), each with whether it is inside the core too. */
function within(m: PathMap, p: Vec): Map<number, boolean> {
  const out = new Map<number, boolean>();
  m.obstacles.forEach((o, i) => {
    if (strictlyInside(p, o.outline)) out.set(i, o.core !== null && strictlyInside(p, o.core));
  });
  return out;
}

/** Is the segment p–q clear, the outlines in `skip` ignored (and their cores too where the value is true)? */
function clear(m: PathMap, p: Vec, q: Vec, skip: ReadonlyMap<number, boolean> | null): boolean {
  for (let i = 0; i < m.obstacles.length; i++) {
    const o = m.obstacles[i]!;
    const s = skip?.get(i);
    if (s === undefined) {
      if (segmentEntersPolygon(p, q, o.outline, o.box)) return false;
    } else if (!s && o.core && segmentEntersPolygon(p, q, o.core, o.coreBox!)) return false;
  }
  for (let i = 0; i < m.walls.length; i++) {
    if (!boxesTouch(p, q, m.wallBoxes[i]!)) continue;
    if (segmentCrossesWall(p, q, m.walls[i]!)) return false;
  }
  return true;
}

/** A segment's box meets the box (a wall's box may be flat). */
const boxesTouch = (p: Vec, q: Vec, b: Box) =>
  !(
    Math.max(p.x, q.x) < b.minX - TOL ||
    Math.min(p.x, q.x) > b.maxX + TOL ||
    Math.max(p.y, q.y) < b.minY - TOL ||
    Math.min(p.y, q.y) > b.maxY + TOL
  );

function nodesSee(m: PathMap, i: number, j: number): boolean {
  const n = m.nodes.length;
  const k = i < j ? i * n + j : j * n + i;
  let v = m.seen.get(k);
  if (v === undefined) {
    v = clear(m, m.nodes[i]!, m.nodes[j]!, null);
    m.seen.set(k, v);
  }
  return v;
}

/**
 * The shortest path from → to in the map's world, or null when there is none (an end off the table, walled off, or
 * every way round longer than `maxLength`).
 */
export function shortestPath(m: PathMap, from: Vec, to: Vec, maxLength = Infinity): Path | null {
  if (m.bounds && (!inBox(from, m.bounds) || !inBox(to, m.bounds))) return null;
  const direct = len(from, to);
  if (direct > maxLength + TOL) return null;
  const sf = within(m, from);
  const st = within(m, to);
  const both = new Map(sf);
  for (const [i, c] of st) both.set(i, (both.get(i) ?? false) || c);
  if (clear(m, from, to, both)) return { length: direct, points: [from, to] };
  const n = m.nodes.length;
  const goal = n;
  const at = (i: number) => (i === goal ? to : m.nodes[i]!);
  const g = new Float64Array(n + 1).fill(Infinity);
  const h = new Float64Array(n + 1);
  const prev = new Int32Array(n + 1).fill(-1);
  const closed = new Uint8Array(n + 1);
  for (let i = 0; i <= n; i++) h[i] = len(at(i), to);
  for (let i = 0; i < n; i++) {
    const d = len(from, m.nodes[i]!);
    if (d + h[i]! <= maxLength + TOL && clear(m, from, m.nodes[i]!, sf)) g[i] = d;
  }
  for (;;) {
    let u = -1;
    let best = Infinity;
    for (let i = 0; i <= n; i++)
      if (!closed[i] && g[i]! + h[i]! < best) {
        best = g[i]! + h[i]!;
        u = i;
      }
    if (u < 0 || best > maxLength + TOL) return null;
    if (u === goal) break;
    closed[u] = 1;
    const pu = m.nodes[u]!;
    const dg = g[u]! + h[u]!;
    if (!closed[goal] && dg < g[goal]! && clear(m, pu, to, st)) {
      g[goal] = dg;
      prev[goal] = u;
    }
    for (let j = 0; j < n; j++) {
      if (closed[j]) continue;
      const d = g[u]! + len(pu, m.nodes[j]!);
      if (d >= g[j]! || d + h[j]! > maxLength + TOL) continue;
      if (!nodesSee(m, u, j)) continue;
      g[j] = d;
      prev[j] = u;
    }
  }
  const points: Vec[] = [to];
  for (let i = prev[goal]!; i >= 0; i = prev[i]!) points.push(m.nodes[i]!);
  points.push(from);
  points.reverse();
  return { length: g[goal]!, points };
}

/**
 * The parts of a polyline outside the gaps (polygons): a wall that may be crossed where a gap covers it (a river at
 * its bridges, say). Each part is a polyline; a part ends where it enters a gap.
 */
export function polylineOutside(line: readonly Vec[], gaps: readonly Polygon[]): Vec[][] {
  const inGap = (p: Vec) => gaps.some((g) => pointInPolygon(p, g) && !onBoundary(p, g));
  const out: Vec[][] = [];
  let part: Vec[] = [];
  const close = () => {
    if (part.length >= 2) out.push(part);
    part = [];
  };
  for (let i = 0; i + 1 < line.length; i++) {
    const a = line[i]!;
    const b = line[i + 1]!;
    const ts = [0, 1];
    for (const g of gaps)
      for (let k = 0; k < g.length; k++) {
        const t = segmentParam(a, b, g[k]!, g[(k + 1) % g.length]!);
        if (t !== null) ts.push(t);
      }
    ts.sort((x, y) => x - y);
    const at = (t: number): Vec => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
    for (let j = 0; j + 1 < ts.length; j++) {
      const t0 = ts[j]!;
      const t1 = ts[j + 1]!;
      if (t1 - t0 <= 1e-12) continue;
      if (inGap(at((t0 + t1) / 2))) {
        close();
        continue;
      }
      if (!part.length) part.push(at(t0));
      part.push(at(t1));
    }
  }
  close();
  return out;
}

function onBoundary(p: Vec, poly: Polygon): boolean {
  for (let i = 0; i < poly.length; i++)
    if (pointSegmentDistance(p, poly[i]!, poly[(i + 1) % poly.length]!) <= TOL) return true;
  return false;
}

/** Where along a→b (0..1) it meets the segment c–d at one point, or null. */
function segmentParam(a: Vec, b: Vec, c: Vec, d: Vec): number | null {
  const rx = b.x - a.x;
  const ry = b.y - a.y;
  const sx = d.x - c.x;
  const sy = d.y - c.y;
  const den = rx * sy - ry * sx;
  if (Math.abs(den) < 1e-12) return null;
  const t = ((c.x - a.x) * sy - (c.y - a.y) * sx) / den;
  const u = ((c.x - a.x) * ry - (c.y - a.y) * rx) / den;
  return t >= 0 && t <= 1 && u >= 0 && u <= 1 ? t : null;
}
