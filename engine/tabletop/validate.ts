/** Checks of scenario geometry shared by miniatures rulesets: everything on the table, polygons that are real areas. */
import { type Vec, pointInPolygon, segmentsIntersect } from '../geometry/geometry.ts';
import type { Problem } from '../core/game.ts';

type Pt = readonly [number, number];

const v = ([x, y]: Pt): Vec => ({ x, y });

/** Twice the signed area (shoelace). */
function area2(ps: readonly Pt[]): number {
  let a = 0;
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i]!;
    const q = ps[(i + 1) % ps.length]!;
    a += p[0] * q[1] - q[0] * p[1];
  }
  return a;
}

/** Points of `ps` off a table of `width` × `height` inches, as problems at `path[i]`. */
export function offTable(ps: readonly Pt[], width: number, height: number, path: string, what: string): Problem[] {
  const out: Problem[] = [];
  ps.forEach(([x, y], i) => {
    if (!(x >= 0 && x <= width && y >= 0 && y <= height))
      out.push({ path: `${path}[${i}]`, message: `${what} point (${x}, ${y}) is off the ${width}"×${height}" table` });
  });
  return out;
}

/** A terrain polygon must lie on the table, enclose some area and not cross itself. */
export function polygonProblems(
  ps: readonly Pt[],
  width: number,
  height: number,
  path: string,
  what: string,
): Problem[] {
  const out = offTable(ps, width, height, path, what);
  const n = ps.length;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      // edges i and j: neighbours share a corner and are not a crossing
      if (j === i + 1 || (i === 0 && j === n - 1)) continue;
      if (segmentsIntersect(v(ps[i]!), v(ps[(i + 1) % n]!), v(ps[j]!), v(ps[(j + 1) % n]!))) {
        // a crossing polygon's signed area can cancel to 0: say what is wrong once, not "no area" as well
        out.push({ path, message: `${what} crosses itself (edges ${i} and ${j})` });
        return out;
      }
    }
  if (Math.abs(area2(ps)) < 1e-9) out.push({ path, message: `${what} encloses no area` });
  return out;
}

/** A line of terrain (hedge, wall, road) must lie on the table and have some length. */
export function polylineProblems(
  ps: readonly Pt[],
  width: number,
  height: number,
  path: string,
  what: string,
): Problem[] {
  const out = offTable(ps, width, height, path, what);
  if (ps.every((p) => p[0] === ps[0]![0] && p[1] === ps[0]![1])) out.push({ path, message: `${what} has no length` });
  return out;
}

/** Is the point inside (or on) the polygon? */
export function insidePolygon(p: Pt, ps: readonly Pt[]): boolean {
  return pointInPolygon(v(p), ps.map(v));
}

/** Ids used twice in one list, as problems at `path[i].id`. */
export function duplicateIds(items: readonly { readonly id: string }[], path: string, what: string): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  items.forEach((t, i) => {
    if (seen.has(t.id)) out.push({ path: `${path}[${i}].id`, message: `duplicate ${what} id "${t.id}"` });
    seen.add(t.id);
  });
  return out;
}
