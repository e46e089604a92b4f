/**
 * Shared tabletop geometry for the miniatures rulesets. Knows no ruleset.
 *
 * Conventions: origin at the south-west table corner, +x east, +y north. Lengths are integer fixed point in
 * 1/100 inch (`IN` = 100 units = 1") so stored positions, and therefore hashes, are exact; intermediate maths is
 * float and every stored result goes through `fx`. Headings are integer degrees clockwise from north.
 */

export const IN = 100;
/** Inches → fixed-point units (rounded: the one rounding function for stored lengths). */
export function fx(inches: number): number {
  return Math.round(inches * IN);
}

export interface Vec {
  readonly x: number;
  readonly y: number;
}
export type Polygon = readonly Vec[];

/** An oriented rectangle: centre, frontage `w`, depth `d`, heading `h` (degrees clockwise from north). */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly d: number;
  readonly h: number;
}

const RAD = Math.PI / 180;
export function headingVec(h: number): Vec {
  return { x: Math.sin(h * RAD), y: Math.cos(h * RAD) };
}
export function normDeg(h: number): number {
  return ((Math.round(h) % 360) + 360) % 360;
}
/** Heading (integer degrees) from a to b. */
export function headingTo(a: Vec, b: Vec): number {
  return normDeg(Math.atan2(b.x - a.x, b.y - a.y) / RAD);
}
export function dist(a: Vec, b: Vec): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Corners in order front-left, front-right, rear-right, rear-left. */
export function rectCorners(r: Rect): Vec[] {
  const f = headingVec(r.h);
  const rt = { x: f.y, y: -f.x }; // right-hand side
  const hw = r.w / 2;
  const hd = r.d / 2;
  const p = [
    { x: r.x + f.x * hd - rt.x * hw, y: r.y + f.y * hd - rt.y * hw },
    { x: r.x + f.x * hd + rt.x * hw, y: r.y + f.y * hd + rt.y * hw },
    { x: r.x - f.x * hd + rt.x * hw, y: r.y - f.y * hd + rt.y * hw },
    { x: r.x - f.x * hd - rt.x * hw, y: r.y - f.y * hd - rt.y * hw },
  ];
  // boxed at birth: every rectangle's corners then have one shape, and `bbox` finds the box without a miss
  (p as unknown as { [BOX]?: Box })[BOX] = boundingBox(p);
  return p;
}

/** Point in local rectangle frame: u to the right, v forward. */
function toLocal(r: Rect, p: Vec): { u: number; v: number } {
  const f = headingVec(r.h);
  const dx = p.x - r.x;
  const dy = p.y - r.y;
  return { u: dx * f.y - dy * f.x, v: dx * f.x + dy * f.y };
}
export function fromLocal(r: Rect, u: number, v: number): Vec {
  const f = headingVec(r.h);
  return { x: r.x + u * f.y + v * f.x, y: r.y - u * f.x + v * f.y };
}

export type Sector = 'front' | 'left' | 'right' | 'rear';

/**
 * Which sector of rectangle `r` holds point `p`: front and rear sectors are bounded by rays from the corners
 * angled 45° outward; flanks take the rest. Points inside the rectangle count as front.
 */
export function sectorOf(r: Rect, p: Vec): Sector {
  const { u, v } = toLocal(r, p);
  const hw = r.w / 2;
  const hd = r.d / 2;
  if (v >= hd && Math.abs(u) - hw <= v - hd) return 'front';
  if (v <= -hd && Math.abs(u) - hw <= -v - hd) return 'rear';
  if (Math.abs(u) <= hw && Math.abs(v) <= hd) return 'front';
  return u > 0 ? 'right' : 'left';
}

/** True if `p` lies in the front arc of `r` (ahead of the front edge, within the 45° corner rays). */
export function inFrontArc(r: Rect, p: Vec, eps = 0.5): boolean {
  const { u, v } = toLocal(r, p);
  const hd = r.d / 2;
  return v >= hd - eps && Math.abs(u) - r.w / 2 <= v - hd + eps;
}

export function translate(r: Rect, dirDeg: number, distance: number): Rect {
  const v = headingVec(dirDeg);
  return { x: Math.round(r.x + v.x * distance), y: Math.round(r.y + v.y * distance), w: r.w, d: r.d, h: r.h };
}

/** Wheel: pivot on the front-left (side 'L') or front-right ('R') corner by `deg` towards that side. */
export function wheel(r: Rect, side: 'L' | 'R', deg: number): Rect {
  const c = rectCorners(r);
  const pivot = side === 'L' ? c[0]! : c[1]!;
  const a = (side === 'L' ? -deg : deg) * RAD;
  const dx = r.x - pivot.x;
  const dy = r.y - pivot.y;
  // rotate clockwise by a (headings grow clockwise)
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const nx = pivot.x + dx * cos + dy * sin;
  const ny = pivot.y - dx * sin + dy * cos;
  return { x: Math.round(nx), y: Math.round(ny), w: r.w, d: r.d, h: normDeg(r.h + (side === 'L' ? -deg : deg)) };
}

// ---------- polygon predicates ----------

function cross(o: Vec, a: Vec, b: Vec): number {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

function on(a: Vec, b: Vec, c: Vec): boolean {
  return (
    Math.min(a.x, b.x) <= c.x && c.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= c.y && c.y <= Math.max(a.y, b.y)
  );
}

export function segmentsIntersect(p1: Vec, p2: Vec, q1: Vec, q2: Vec): boolean {
  const d1 = cross(q1, q2, p1);
  const d2 = cross(q1, q2, p2);
  const d3 = cross(p1, p2, q1);
  const d4 = cross(p1, p2, q2);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  if (d1 === 0 && on(q1, q2, p1)) return true;
  if (d2 === 0 && on(q1, q2, p2)) return true;
  if (d3 === 0 && on(p1, p2, q1)) return true;
  if (d4 === 0 && on(p1, p2, q2)) return true;
  return false;
}

export function pointInPolygon(p: Vec, poly: Polygon): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!;
    const b = poly[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

function pointSegmentDistance(p: Vec, a: Vec, b: Vec): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const l2 = dx * dx + dy * dy;
  let t = l2 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2 : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

export function closestPointOnSegment(p: Vec, a: Vec, b: Vec): Vec {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const l2 = dx * dx + dy * dy;
  let t = l2 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2 : 0;
  t = Math.max(0, Math.min(1, t));
  return { x: a.x + t * dx, y: a.y + t * dy };
}

export function segmentDistance(p1: Vec, p2: Vec, q1: Vec, q2: Vec): number {
  if (segmentsIntersect(p1, p2, q1, q2)) return 0;
  return Math.min(
    pointSegmentDistance(p1, q1, q2),
    pointSegmentDistance(p2, q1, q2),
    pointSegmentDistance(q1, p1, p2),
    pointSegmentDistance(q2, p1, p2),
  );
}

export interface Box {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}
const boxCache = new WeakMap<Polygon, Box>();
const BOX = Symbol('bbox');
/**
 * Axis-aligned bounding box of a polygon: a rectangle's corners carry theirs under a symbol key (invisible to hashing,
 * JSON and structured clone), other polygons' are kept in a WeakMap.
 */
export function bbox(p: Polygon): Box {
  const own = (p as unknown as { [BOX]?: Box })[BOX];
  if (own) return own;
  let b = boxCache.get(p);
  if (b) return b;
  // only rectangles' corners carry their box (given at birth, so they all keep one shape); boxes of other polygons
  // are kept aside: a symbol added to arrays of every origin gave them thousands of shapes, and made every lookup slow
  b = boundingBox(p);
  boxCache.set(p, b);
  return b;
}
/** Gap between two boxes (0 when they touch or overlap). */
export function boxDistance(A: Box, B: Box): number {
  const dx = Math.max(0, A.minX - B.maxX, B.minX - A.maxX);
  const dy = Math.max(0, A.minY - B.maxY, B.minY - A.maxY);
  return dx === 0 ? dy : dy === 0 ? dx : Math.hypot(dx, dy);
}

/** The box around several polygons, optionally swept by a translation (dx, dy). */
export function sweptBox(polys: readonly Polygon[], dx = 0, dy = 0): Box {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of polys) {
    const b = bbox(p);
    minX = Math.min(minX, b.minX, b.minX + dx);
    minY = Math.min(minY, b.minY, b.minY + dy);
    maxX = Math.max(maxX, b.maxX, b.maxX + dx);
    maxY = Math.max(maxY, b.maxY, b.maxY + dy);
  }
  return { minX, minY, maxX, maxY };
}

/** Gap between two polygons' bounding boxes: a lower bound on their edge-to-edge distance. */
export function boxGap(a: Polygon, b: Polygon): number {
  const A = bbox(a);
  const B = bbox(b);
  const dx = Math.max(0, A.minX - B.maxX, B.minX - A.maxX);
  const dy = Math.max(0, A.minY - B.maxY, B.minY - A.maxY);
  return dx === 0 ? dy : dy === 0 ? dx : Math.hypot(dx, dy);
}

/** Distance from a point to a polygon's area (0 inside). */
export function pointPolygonDistance(p: Vec, poly: Polygon): number {
  if (pointInPolygon(p, poly)) return 0;
  let best = Infinity;
  for (let i = 0; i < poly.length; i++)
    best = Math.min(best, pointSegmentDistance(p, poly[i]!, poly[(i + 1) % poly.length]!));
  return best;
}

/** Do two simple polygons (convex or not) overlap (share interior or boundary)? */
export function polygonsOverlap(a: Polygon, b: Polygon): boolean {
  if (boxGap(a, b) > 0) return false;
  for (let i = 0; i < a.length; i++) {
    const a1 = a[i]!;
    const a2 = a[(i + 1) % a.length]!;
    for (let j = 0; j < b.length; j++) if (segmentsIntersect(a1, a2, b[j]!, b[(j + 1) % b.length]!)) return true;
  }
  return pointInPolygon(a[0]!, b) || pointInPolygon(b[0]!, a);
}

/** min(cap, edge-to-edge distance): skips the exact computation when the bounding boxes are already ≥ cap apart. */
export function polygonDistanceCapped(a: Polygon, b: Polygon, cap: number): number {
  if (boxGap(a, b) >= cap) return cap;
  return Math.min(cap, polygonDistance(a, b));
}

/**
 * Edge-to-edge distance between polygons; 0 when they overlap. Polygons that do not overlap have no crossing edges,
 * so the closest pair of points is a vertex of one and a point on an edge of the other: each vertex–edge pair is
 * measured once, as a squared distance, with one square root at the end (the hot path of every ruleset on a table).
 */
export function polygonDistance(a: Polygon, b: Polygon): number {
  if (polygonsOverlap(a, b)) return 0; // it rejects boxes apart first
  return Math.sqrt(Math.min(vertexEdgeDist2(a, b), vertexEdgeDist2(b, a)));
}

/** Smallest squared distance from a vertex of `pts` to an edge of `poly`. */
function vertexEdgeDist2(pts: Polygon, poly: Polygon): number {
  let best = Infinity;
  const n = poly.length;
  for (let j = 0; j < n; j++) {
    const a = poly[j]!;
    const b = poly[j + 1 === n ? 0 : j + 1]!;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const l2 = dx * dx + dy * dy;
    for (let i = 0; i < pts.length; i++) {
      const p = pts[i]!;
      let t = l2 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const ex = p.x - (a.x + t * dx);
      const ey = p.y - (a.y + t * dy);
      const d2 = ex * ex + ey * ey;
      if (d2 < best) best = d2;
    }
  }
  return best;
}

/** Does the polygon touch or cross the polyline? (bounding-box rejection first) */
export function polygonTouchesPolyline(a: Polygon, line: readonly Vec[]): boolean {
  if (boxGap(a, line) > 0) return false;
  return polygonPolylineDistance(a, line) === 0;
}

/** Distance from polygon to polyline (0 if they touch or cross). */
export function polygonPolylineDistance(a: Polygon, line: readonly Vec[]): number {
  let best = Infinity;
  for (let i = 0; i < a.length; i++) {
    const a1 = a[i]!;
    const a2 = a[(i + 1) % a.length]!;
    for (let j = 0; j + 1 < line.length; j++) {
      const d = segmentDistance(a1, a2, line[j]!, line[j + 1]!);
      if (d < best) best = d;
    }
  }
  if (line.length && pointInPolygon(line[0]!, a)) return 0;
  return best;
}

export function segmentCrossesPolygon(p: Vec, q: Vec, poly: Polygon): boolean {
  const b = bbox(poly);
  if (
    Math.max(p.x, q.x) < b.minX ||
    Math.min(p.x, q.x) > b.maxX ||
    Math.max(p.y, q.y) < b.minY ||
    Math.min(p.y, q.y) > b.maxY
  )
    return false;
  if (pointInPolygon(p, poly) || pointInPolygon(q, poly)) return true;
  for (let i = 0; i < poly.length; i++)
    if (segmentsIntersect(p, q, poly[i]!, poly[(i + 1) % poly.length]!)) return true;
  return false;
}

/**
 * The exact length of segment p→q lying inside `poly` (any simple polygon, convex or not): the segment is cut where it
 * crosses the polygon's edges and each piece whose middle is inside counts.
 */
export function segmentLengthInside(p: Vec, q: Vec, poly: Polygon): number {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const len = Math.hypot(dx, dy);
  if (len === 0) return 0;
  const b = bbox(poly);
  if (
    Math.max(p.x, q.x) < b.minX ||
    Math.min(p.x, q.x) > b.maxX ||
    Math.max(p.y, q.y) < b.minY ||
    Math.min(p.y, q.y) > b.maxY
  )
    return 0;
  const ts = [0, 1];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!;
    const c = poly[(i + 1) % poly.length]!;
    const ex = c.x - a.x;
    const ey = c.y - a.y;
    const den = dx * ey - dy * ex;
    if (den === 0) continue; // parallel: its ends are cut by the neighbouring edges
    const t = ((a.x - p.x) * ey - (a.y - p.y) * ex) / den;
    const u = ((a.x - p.x) * dy - (a.y - p.y) * dx) / den;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) ts.push(t);
  }
  ts.sort((x, y) => x - y);
  let inside = 0;
  for (let i = 1; i < ts.length; i++) {
    const t0 = ts[i - 1]!;
    const t1 = ts[i]!;
    if (t1 - t0 <= 1e-12) continue;
    const m = (t0 + t1) / 2;
    if (pointInPolygon({ x: p.x + dx * m, y: p.y + dy * m }, poly)) inside += t1 - t0;
  }
  return inside * len;
}

export function segmentCrossesPolyline(p: Vec, q: Vec, line: readonly Vec[]): boolean {
  for (let j = 0; j + 1 < line.length; j++) if (segmentsIntersect(p, q, line[j]!, line[j + 1]!)) return true;
  return false;
}

/** Fraction of segment p→q lying inside any of the polygons, sampled at `samples` midpoints. */
export function fractionInside(p: Vec, q: Vec, polys: readonly Polygon[], samples = 24): number {
  if (!polys.length) return 0;
  let n = 0;
  for (let i = 0; i < samples; i++) {
    const t = (i + 0.5) / samples;
    const s = { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t };
    if (polys.some((poly) => pointInPolygon(s, poly))) n++;
  }
  return n / samples;
}

function boundingBox(poly: Polygon): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of poly) {
    if (p.x < minX) minX = p.x;
    if (p.y < minY) minY = p.y;
    if (p.x > maxX) maxX = p.x;
    if (p.y > maxY) maxY = p.y;
  }
  return { minX, minY, maxX, maxY };
}

/** Is the polygon wholly on a table of width × height (fixed-point)? */
export function onTable(poly: Polygon, width: number, height: number): boolean {
  const b = boundingBox(poly);
  return b.minX >= 0 && b.minY >= 0 && b.maxX <= width && b.maxY <= height;
}
