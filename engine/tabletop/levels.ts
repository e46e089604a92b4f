/**
 * Line of sight over height levels, for miniatures rulesets that stack features in whole levels (ground 0, a level-k
 * hill k, a level-one feature standing one level above its ground). An obstacle has a base (the ground it stands on)
 * and a top. An observer no higher than the base is blocked by it unless the target is above the base, in which case
 * the test is made from the target's end (sight is symmetric); an observer Δ levels above the base sees past it
 * except for a blind zone behind it `X / Δ` long, X the observer's distance to it (so X for one level, X/2 for two).
 * Ends inside an area within its see-through allowance (e.g. the edge of a wood) ignore it. The ruleset passes its
 * obstacles and the levels of the two ends.
 */
import { type Vec, dist, pointInPolygon } from '../geometry/geometry.ts';
import { segmentSpan } from './arcs.ts';

export interface LevelObstacle {
  /** A closed polygon (an area, a body) or an open polyline (a ridge, a wall). */
  readonly shape: readonly Vec[];
  readonly closed: boolean;
  /** The level of the ground it stands on. */
  readonly base: number;
  /** The level of its top (base + 1 for a level-one feature). */
  readonly top: number;
  /** An end inside the area sees out (and is seen) if the sight line runs no more than this inside it (units). */
  readonly seeInside?: number;
}

/** An end of a sight line and the level of the ground it stands on. */
export interface LevelPoint {
  readonly at: Vec;
  readonly level: number;
}

/** Does the obstacle block sight from `o` to `t` (looking from `o`)? */
function hides(o: LevelPoint, t: LevelPoint, ob: LevelObstacle, span: [number, number], len: number): boolean {
  if (o.level <= ob.base) return t.level <= ob.base;
  if (t.level > ob.base) return false;
  const delta = o.level - ob.base;
  const x = span[0] * len; // from the observer to the obstacle
  const behind = (1 - span[1]) * len; // from the far side of the obstacle to the target
  return behind <= x / delta;
}

/** Is the sight line inside the area near an end, within that end's allowance? */
function seesThrough(a: Vec, b: Vec, ob: LevelObstacle, span: [number, number], len: number): boolean {
  if (!ob.closed || !ob.seeInside) return false;
  const aIn = span[0] === 0 && pointInPolygon(a, ob.shape);
  const bIn = span[1] === 1 && pointInPolygon(b, ob.shape);
  if (!aIn && !bIn) return false;
  const inside = (span[1] - span[0]) * len;
  return inside <= (aIn ? ob.seeInside : 0) + (bIn ? ob.seeInside : 0) + 1;
}

/**
 * Line of sight between two points at their levels past `obstacles`: each obstacle the segment meets hides the
 * target from the observer (or, when the observer is not above it but the target is, the observer from the target).
 */
export function levelSight(o: LevelPoint, t: LevelPoint, obstacles: readonly LevelObstacle[]): boolean {
  const len = dist(o.at, t.at);
  for (const ob of obstacles) {
    const span = segmentSpan(o.at, t.at, ob.shape, ob.closed);
    if (!span) continue;
    if (seesThrough(o.at, t.at, ob, span, len)) continue;
    const back: [number, number] = [1 - span[1], 1 - span[0]];
    if (o.level <= ob.base ? hides(t, o, ob, back, len) : hides(o, t, ob, span, len)) return false;
  }
  return true;
}

/** The blind zone behind an obstacle: `x / (observer − base)` long, or Infinity when the observer is not above it. */
export function blindZone(x: number, observerLevel: number, base: number): number {
  const delta = observerLevel - base;
  return delta <= 0 ? Number.POSITIVE_INFINITY : x / delta;
}
