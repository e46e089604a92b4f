/**
 * Terrain classes with per-arm effects, for miniatures rulesets. A ruleset names its arms (e.g. 'infantry' |
 * 'cavalry' | 'artillery') and gives each terrain kind a class: per arm, a movement multiplier and, for linear
 * features, a cost per crossing; and a cover class. The single `difficult` flag of `engine/geometry/terrain.ts`
 * remains the reading for a ruleset whose difficult ground is a rule of its own rather than a multiplier: a class
 * can name the arms it is difficult for, and `areaFlags` turns a class into that reading for one arm.
 */
import { type Rect, type Vec, pointInPolygon, rectCorners, segmentCrossesPolyline } from '../geometry/geometry.ts';
import type { Cover, Terrain, TerrainArea, TerrainLine } from '../geometry/terrain.ts';

export interface TerrainClass<Arm extends string> {
  /** Movement multiplier per arm: 1 open, 0.5 half speed, 0 impassable. An arm not listed moves at 1. */
  readonly move?: Partial<Readonly<Record<Arm, number>>>;
  /** Movement (units) a crossing of a linear feature of this class costs, per arm. An arm not listed pays 0. */
  readonly crossing?: Partial<Readonly<Record<Arm, number>>>;
  /** The arms for which it is difficult ground; by default, those it slows without stopping (0 < multiplier < 1). */
  readonly difficult?: readonly Arm[];
  readonly cover: Cover;
}

/** A ruleset's classes by terrain kind (`TerrainArea.kind` / `TerrainLine.kind`). */
export type TerrainClasses<Arm extends string> = Readonly<Record<string, TerrainClass<Arm>>>;

/** The class's movement multiplier for `arm`. */
function moveFactor<Arm extends string>(c: TerrainClass<Arm>, arm: Arm): number {
  return c.move?.[arm] ?? 1;
}

/** Is the class difficult ground for `arm`? */
export function isDifficultFor<Arm extends string>(c: TerrainClass<Arm>, arm: Arm): boolean {
  if (c.difficult) return c.difficult.includes(arm);
  const f = moveFactor(c, arm);
  return f > 0 && f < 1;
}

/** The flags of an area of this class as one arm reads them (the single-reading `TerrainArea` fields). */
export function areaFlags<Arm extends string>(
  c: TerrainClass<Arm>,
  arm: Arm,
): { difficult: boolean; impassable: boolean; cover: Cover } {
  return { difficult: isDifficultFor(c, arm), impassable: moveFactor(c, arm) === 0, cover: c.cover };
}

/** An area's multiplier for `arm`: from its class, else 0 if impassable, else 1. */
function areaFactor<Arm extends string>(classes: TerrainClasses<Arm>, arm: Arm, a: TerrainArea): number {
  const c = classes[a.kind];
  if (c) return moveFactor(c, arm);
  return a.impassable ? 0 : 1;
}

/** The slowest multiplier for `arm` among the areas containing `p` (1 in the open). */
export function moveFactorAt<Arm extends string>(t: Terrain, classes: TerrainClasses<Arm>, arm: Arm, p: Vec): number {
  let f = 1;
  for (const a of t.areas) if (pointInPolygon(p, a.polygon)) f = Math.min(f, areaFactor(classes, arm, a));
  return f;
}

/** Is `p` on difficult ground for `arm`? Areas whose kind has no class keep their own `difficult` flag. */
export function difficultAt<Arm extends string>(t: Terrain, classes: TerrainClasses<Arm>, arm: Arm, p: Vec): boolean {
  for (const a of t.areas) {
    if (!pointInPolygon(p, a.polygon)) continue;
    const c = classes[a.kind];
    if (c ? isDifficultFor(c, arm) : a.difficult) return true;
  }
  return false;
}

/**
 * The movement a straight path p→q uses for `arm`: each of `samples` equal parts costs its length divided by the
 * multiplier at its middle; Infinity through ground impassable to the arm.
 */
export function pathCost<Arm extends string>(
  t: Terrain,
  classes: TerrainClasses<Arm>,
  arm: Arm,
  p: Vec,
  q: Vec,
  samples = 32,
): number {
  const part = Math.hypot(q.x - p.x, q.y - p.y) / samples;
  let cost = 0;
  for (let i = 0; i < samples; i++) {
    const s = (i + 0.5) / samples;
    const f = moveFactorAt(t, classes, arm, { x: p.x + (q.x - p.x) * s, y: p.y + (q.y - p.y) * s });
    if (f <= 0) return Number.POSITIVE_INFINITY;
    cost += part / f;
  }
  return cost;
}

/** The linear features a footprint moving from → to crosses (its centre's or any corner's path). */
export function linesCrossed(t: Terrain, from: Rect, to: Rect): TerrainLine[] {
  const a = rectCorners(from);
  const b = rectCorners(to);
  const out: TerrainLine[] = [];
  for (const l of t.lines) {
    let hit = segmentCrossesPolyline(from, to, l.points);
    for (let i = 0; !hit && i < 4; i++) hit = segmentCrossesPolyline(a[i]!, b[i]!, l.points);
    if (hit) out.push(l);
  }
  return out;
}

/** What crossing the linear features between from → to costs `arm` (units), one crossing per feature. */
export function crossingCost<Arm extends string>(
  t: Terrain,
  classes: TerrainClasses<Arm>,
  arm: Arm,
  from: Rect,
  to: Rect,
): number {
  let cost = 0;
  for (const l of linesCrossed(t, from, to)) cost += classes[l.kind]?.crossing?.[arm] ?? 0;
  return cost;
}
