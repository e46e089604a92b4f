/**
 * Contact by moving straight and conforming, for miniatures rulesets whose charges run straight ahead into a target
 * and are then turned flush with the side they struck: the exact distance a body travels along a heading before it
 * first touches another, and the overlap of two edges (how much of a front is in contact). Knows no ruleset.
 */
import { type Polygon, type Vec, headingVec } from '../geometry/geometry.ts';

/** Distance along the unit vector `d` from `p` to the segment a–b (Infinity when the ray misses it). */
function rayToSegment(p: Vec, d: Vec, a: Vec, b: Vec): number {
  const ex = b.x - a.x;
  const ey = b.y - a.y;
  const den = d.x * ey - d.y * ex;
  if (Math.abs(den) < 1e-12) return Number.POSITIVE_INFINITY;
  const t = ((a.x - p.x) * ey - (a.y - p.y) * ex) / den;
  const u = ((a.x - p.x) * d.y - (a.y - p.y) * d.x) / den;
  return t >= -1e-9 && u >= -1e-9 && u <= 1 + 1e-9 ? Math.max(0, t) : Number.POSITIVE_INFINITY;
}

function vertexRays(pts: Polygon, d: Vec, poly: Polygon): number {
  let best = Number.POSITIVE_INFINITY;
  for (const p of pts)
    for (let i = 0; i < poly.length; i++)
      best = Math.min(best, rayToSegment(p, d, poly[i]!, poly[(i + 1) % poly.length]!));
  return best;
}

/**
 * How far `mover` travels along heading `dirDeg` before it first touches `target` (both polygons not overlapping at
 * the start): the least of each mover vertex's ray to a target edge and each target vertex's reversed ray to a mover
 * edge. Infinity when it never does.
 */
export function sweepDistance(mover: Polygon, target: Polygon, dirDeg: number): number {
  const d = headingVec(dirDeg);
  const back = { x: -d.x, y: -d.y };
  return Math.min(vertexRays(mover, d, target), vertexRays(target, back, mover));
}

/**
 * The overlap of segment p (p0→p1) with segment q (q0→q1) projected on q's line: the sub-segment of q that p covers,
 * as parameters along q and its length; null when they do not overlap. Used for how much of a front touches a side.
 */
export function edgeOverlap(p0: Vec, p1: Vec, q0: Vec, q1: Vec): { from: number; to: number; length: number } | null {
  const ex = q1.x - q0.x;
  const ey = q1.y - q0.y;
  const l2 = ex * ex + ey * ey;
  if (l2 === 0) return null;
  const s0 = ((p0.x - q0.x) * ex + (p0.y - q0.y) * ey) / l2;
  const s1 = ((p1.x - q0.x) * ex + (p1.y - q0.y) * ey) / l2;
  const from = Math.max(0, Math.min(s0, s1));
  const to = Math.min(1, Math.max(s0, s1));
  if (to <= from) return null;
  return { from, to, length: (to - from) * Math.sqrt(l2) };
}
