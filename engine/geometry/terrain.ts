/**
 * Generic terrain for tabletop rulesets: area features (polygons) and linear features (polylines), classified by
 * their effect (movement, cover, line of sight, slope) rather than by name, so any ruleset can map its own
 * terrain names onto them. Also: line of sight.
 */
import {
  type Polygon,
  boxGap,
  type Rect,
  type Vec,
  dist,
  fractionInside,
  pointInPolygon,
  polygonPolylineDistance,
  polygonsOverlap,
  rectCorners,
  segmentCrossesPolygon,
  segmentCrossesPolyline,
} from './geometry.ts';

export type Cover = 'none' | 'soft' | 'hard';

export interface TerrainArea {
  readonly id: string;
  /** The ruleset's name for it, e.g. "woods", "building", "hill". */
  readonly kind: string;
  readonly polygon: Polygon;
  readonly difficult: boolean;
  readonly impassable: boolean;
  readonly cover: Cover;
  /** Blocks line of sight across it. */
  readonly blocksLos: boolean;
  /**
   * Units whose centre lies inside within this distance of the edge see out and are seen across that edge
   * (e.g. the edge of a wood). 0 = no such allowance.
   */
  readonly seeThroughEdge: number;
  /** A hill's crest point: a slope rises toward it everywhere inside the polygon. */
  readonly crest?: Vec;
}

export interface TerrainLine {
  readonly id: string;
  readonly kind: string;
  readonly points: readonly Vec[];
  /** Crossing it is a linear obstacle. */
  readonly obstacle: boolean;
  /** Cover given to a unit within `coverDepth` behind it when the line of fire or attack crosses it. */
  readonly cover: Cover;
  readonly coverDepth: number;
  readonly blocksLos: boolean;
}

export interface Terrain {
  readonly areas: readonly TerrainArea[];
  readonly lines: readonly TerrainLine[];
}

export const NO_TERRAIN: Terrain = { areas: [], lines: [] };

export function isDifficultAt(t: Terrain, p: Vec): boolean {
  return t.areas.some((a) => a.difficult && pointInPolygon(p, a.polygon));
}

/** Does the footprint overlap an impassable area? */
export function hitsImpassable(t: Terrain, poly: Polygon): boolean {
  return t.areas.some((a) => a.impassable && polygonsOverlap(poly, a.polygon));
}

/** Fraction of the path p→q through difficult terrain. */
export function difficultFraction(t: Terrain, p: Vec, q: Vec): number {
  const polys = t.areas.filter((a) => a.difficult).map((a) => a.polygon);
  return fractionInside(p, q, polys);
}

/** The linear obstacles whose line the footprint path crosses (any corner path crossing counts). */
export function obstaclesCrossed(t: Terrain, from: Rect, to: Rect): TerrainLine[] {
  const a = rectCorners(from);
  const b = rectCorners(to);
  const out: TerrainLine[] = [];
  for (const l of t.lines) {
    if (!l.obstacle) continue;
    let hit = segmentCrossesPolyline(from, to, l.points);
    for (let i = 0; !hit && i < 4; i++) hit = segmentCrossesPolyline(a[i]!, b[i]!, l.points);
    if (hit) out.push(l);
  }
  return out;
}

/** Is `p` on a slope rising in direction `dirDeg` (within 90° of the direction to the crest)? */
export function upSlope(t: Terrain, p: Vec, dirDeg: number): boolean {
  for (const a of t.areas) {
    if (!a.crest || !pointInPolygon(p, a.polygon)) continue;
    if (dist(p, a.crest) < 1) continue;
    const toCrest = (Math.atan2(a.crest.x - p.x, a.crest.y - p.y) * 180) / Math.PI;
    let diff = Math.abs(((dirDeg - toCrest) % 360) + 360) % 360;
    if (diff > 180) diff = 360 - diff;
    if (diff < 90) return true;
  }
  return false;
}

/** Height rank on hills: 0 off any hill, otherwise 1 + closeness to crest (bigger is higher). */
export function heightAt(t: Terrain, p: Vec): number {
  let best = 0;
  for (const a of t.areas) {
    if (!a.crest || !pointInPolygon(p, a.polygon)) continue;
    best = Math.max(best, 1 + 1 / (1 + dist(p, a.crest)));
  }
  return best;
}

/** Best cover the footprint gets from areas it is in (centre inside). */
export function areaCover(t: Terrain, p: Vec): Cover {
  let c: Cover = 'none';
  for (const a of t.areas) {
    if (a.cover === 'none' || !pointInPolygon(p, a.polygon)) continue;
    if (a.cover === 'hard') return 'hard';
    c = 'soft';
  }
  return c;
}

/** Cover from linear features crossed by the segment from → target, with the target within coverDepth of it. */
export function lineCover(t: Terrain, from: Vec, targetPoly: Polygon, targetCentre: Vec): Cover {
  let c: Cover = 'none';
  for (const l of t.lines) {
    if (l.cover === 'none') continue;
    if (!segmentCrossesPolyline(from, targetCentre, l.points)) continue;
    if (boxGap(targetPoly, l.points) > l.coverDepth) continue;
    if (polygonPolylineDistance(targetPoly, l.points) > l.coverDepth) continue;
    if (l.cover === 'hard') return 'hard';
    c = 'soft';
  }
  return c;
}

/**
 * Line of sight from p to q against terrain and blocking footprints. Areas that block LOS block the segment,
 * except where an end point lies inside the area within its see-through allowance of the edge.
 */
export function lineOfSight(t: Terrain, p: Vec, q: Vec, blockers: readonly Polygon[]): boolean {
  for (const b of blockers) if (segmentCrossesPolygon(p, q, b)) return false;
  for (const l of t.lines) if (l.blocksLos && segmentCrossesPolyline(p, q, l.points)) return false;
  for (const a of t.areas) {
    if (!a.blocksLos) continue;
    if (!segmentCrossesPolygon(p, q, a.polygon)) continue;
    if (a.seeThroughEdge > 0) {
      // allowed if the only part of the segment inside the area is near an end point lying within the allowance
      const inside = segmentInsideLength(p, q, a.polygon);
      const pIn = pointInPolygon(p, a.polygon);
      const qIn = pointInPolygon(q, a.polygon);
      const allowance = (pIn ? a.seeThroughEdge : 0) + (qIn ? a.seeThroughEdge : 0);
      if ((pIn || qIn) && inside <= allowance + 1) continue;
    }
    return false;
  }
  return true;
}

/** Length of the part of p→q inside the polygon (sampled). */
function segmentInsideLength(p: Vec, q: Vec, poly: Polygon, samples = 32): number {
  return fractionInside(p, q, [poly], samples) * dist(p, q);
}
