/**
 * Group-sampled line of sight and cover for miniatures rulesets: which stands along a body's front edge see a
 * target (each from its front edge, inside its own front arc, past terrain and blocking bodies), whether any point of
 * an edge does (a screen), and the cover a target gets from the areas it stands in and the lines in front of it.
 * The ruleset passes its stand size and its blockers.
 */
import {
  type Polygon,
  type Rect,
  type Vec,
  closestPointOnSegment,
  fromLocal,
  inFrontArc,
  rectCorners,
} from '../geometry/geometry.ts';
import { type Cover, type Terrain, areaCover, lineCover, lineOfSight } from '../geometry/terrain.ts';

/** The points of a target that are looked at: its corners, then the middles of its edges. */
export function samplePoints(p: Polygon): Vec[] {
  const out: Vec[] = [...p];
  for (let i = 0; i < p.length; i++) {
    const a = p[i]!;
    const b = p[(i + 1) % p.length]!;
    out.push({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
  }
  return out;
}

/** The stand size a body's front is sampled by. */
export interface StandSize {
  readonly w: number;
  readonly d: number;
}

/**
 * How many stands of the front rank of `body` (files of `stand.w`) see `target`: a straight line from the stand's
 * front edge to a sampled point of the target, inside the stand's front arc, crossing no blocker or blocking terrain.
 * Counting stops at `cap` (the other files cannot add to it).
 */
export function eligibleStands(
  t: Terrain,
  body: Rect,
  stand: StandSize,
  target: Polygon,
  blockers: readonly Polygon[],
  cap: number,
): number {
  const files = Math.round(body.w / stand.w);
  const pts = samplePoints(target);
  let eligible = 0;
  for (let i = 0; i < files; i++) {
    const u0 = -body.w / 2 + i * stand.w;
    const c = fromLocal(body, u0 + stand.w / 2, body.d / 2 - stand.d / 2);
    const standRect: Rect = { x: c.x, y: c.y, w: stand.w, d: stand.d, h: body.h };
    const a = fromLocal(body, u0, body.d / 2);
    const b = fromLocal(body, u0 + stand.w, body.d / 2);
    let ok = false;
    for (const q of pts) {
      if (!inFrontArc(standRect, q)) continue;
      if (lineOfSight(t, closestPointOnSegment(q, a, b), q, blockers)) {
        ok = true;
        break;
      }
    }
    if (ok && ++eligible >= cap) break;
  }
  return Math.min(eligible, cap);
}

/** Does any point of the front edge of `r` see a sampled point of `target` inside its front arc? */
export function frontSees(t: Terrain, r: Rect, target: Polygon, blockers: readonly Polygon[]): boolean {
  const c = rectCorners(r);
  for (const q of samplePoints(target)) {
    if (!inFrontArc(r, q)) continue;
    if (lineOfSight(t, closestPointOnSegment(q, c[0]!, c[1]!), q, blockers)) return true;
  }
  return false;
}

/** The better of the cover of the areas the target's centre stands in and of the lines between it and `from`. */
export function coverAgainst(t: Terrain, target: Polygon, centre: Vec, from: Vec): Cover {
  const a = areaCover(t, centre);
  const l = lineCover(t, from, target, centre);
  if (a === 'hard' || l === 'hard') return 'hard';
  if (a === 'soft' || l === 'soft') return 'soft';
  return 'none';
}
