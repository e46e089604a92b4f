/**
 * Arcs of any angle off an edge, for miniatures rulesets whose fire or charge arcs are not the 45° sectors of
 * `sectorOf`: the region ahead of a segment of a footprint's front edge, bounded by rays from the segment's ends
 * turned outward by the ruleset's angle, as a convex polygon; whether a body reaches into it; and the part of a body
 * inside it (convex clipping), to measure to. The ruleset passes the angle and the reach.
 */
import { type Polygon, type Rect, type Vec, fromLocal, pointInPolygon, polygonsOverlap } from '../geometry/geometry.ts';

const RAD = Math.PI / 180;

/**
 * The arc ahead of the part of `r`'s front edge from `u0` to `u1` (local, right of centre positive), bounded by rays
 * from the ends turned `angleDeg` outward from the facing, out to `reach` ahead of the edge: a convex quadrilateral
 * (left end, right end, right far corner, left far corner).
 */
export function edgeArc(r: Rect, angleDeg: number, reach: number, u0 = -r.w / 2, u1 = r.w / 2): Polygon {
  const v = r.d / 2;
  const spread = Math.tan(angleDeg * RAD) * reach;
  return [
    fromLocal(r, u0, v),
    fromLocal(r, u1, v),
    fromLocal(r, u1 + spread, v + reach),
    fromLocal(r, u0 - spread, v + reach),
  ];
}

/** Does the body reach into the arc (share any area or boundary with it)? */
export function inArc(arc: Polygon, body: Polygon): boolean {
  return polygonsOverlap(arc, body);
}

function side(a: Vec, b: Vec, p: Vec): number {
  return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

/**
 * The part of `subject` inside the convex polygon `clip` (Sutherland–Hodgman; either winding). Empty when they do not
 * overlap; a non-convex subject may come back with zero-width seams, which do not change distances measured to it.
 */
export function clipConvex(subject: Polygon, clip: Polygon): Vec[] {
  let out: Vec[] = [...subject];
  let area = 0;
  for (let i = 0; i < clip.length; i++) area += side(clip[0]!, clip[i]!, clip[(i + 1) % clip.length]!);
  const s = area >= 0 ? 1 : -1;
  for (let i = 0; i < clip.length && out.length; i++) {
    const a = clip[i]!;
    const b = clip[(i + 1) % clip.length]!;
    const input = out;
    out = [];
    for (let j = 0; j < input.length; j++) {
      const p = input[j]!;
      const q = input[(j + 1) % input.length]!;
      const sp = s * side(a, b, p);
      const sq = s * side(a, b, q);
      if (sp >= 0) out.push(p);
      if ((sp >= 0 && sq < 0) || (sp < 0 && sq >= 0)) {
        const t = sp / (sp - sq);
        out.push({ x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t });
      }
    }
  }
  return out;
}

/**
 * Where the segment p→q meets a shape (a closed polygon, or an open polyline): the first and last parameters t in
 * [0, 1] of its crossings, an end inside a closed polygon counting as a crossing at that end; null when it misses.
 */
export function segmentSpan(p: Vec, q: Vec, shape: readonly Vec[], closed: boolean): [number, number] | null {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const n = closed ? shape.length : shape.length - 1;
  for (let i = 0; i < n; i++) {
    const a = shape[i]!;
    const b = shape[(i + 1) % shape.length]!;
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    const den = dx * ey - dy * ex;
    if (den === 0) continue;
    const t = ((a.x - p.x) * ey - (a.y - p.y) * ex) / den;
    const u = ((a.x - p.x) * dy - (a.y - p.y) * dx) / den;
    if (t < 0 || t > 1 || u < 0 || u > 1) continue;
    lo = Math.min(lo, t);
    hi = Math.max(hi, t);
  }
  if (closed) {
    if (pointInPolygon(p, shape)) lo = 0;
    if (pointInPolygon(q, shape)) hi = 1;
    if (lo === 0 && hi === Number.NEGATIVE_INFINITY) hi = 1;
    if (hi === 1 && lo === Number.POSITIVE_INFINITY) lo = 0;
  }
  return lo <= hi ? [lo, hi] : null;
}
