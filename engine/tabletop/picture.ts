/**
 * Helpers for the miniatures rulesets' `Game.picture` (engine/core/picture.ts): the table's fixed-point lengths
 * (1/100", origin at the south-west corner, +y north) turned into the picture's inches (y down the page, north up),
 * footprints with their front edge, front-arc reaches, terrain, and a legend that explains exactly the codes used.
 */
import type { LegendEntry, PictureReach, PictureTerrain, Pt } from '../core/picture.ts';
import { IN, type Polygon, type Rect, type Vec, fromLocal, rectCorners } from '../geometry/geometry.ts';
import type { Terrain } from '../geometry/terrain.ts';

const r3 = (v: number) => Math.round(v * 1000) / 1000;
/** A bearing in [0, 360), kept to 1/100° (some rulesets turn by fractions of a degree). */
const deg = (h: number) => (((Math.round(h * 100) % 36000) + 36000) % 36000) / 100;

/** A table `height` units deep (1/100"): points, polygons and lengths in picture inches. */
export interface TableFrame {
  pt(p: Vec): Pt;
  poly(p: Polygon): Pt[];
  /** A length in picture inches. */
  len(units: number): number;
  /** A rectangle footprint: its corners, its front edge (front-left, front-right as seen from above) and facing. */
  rect(r: Rect): { points: Pt[]; front: [Pt, Pt]; facing: number };
}

export function tableFrame(height: number): TableFrame {
  const pt = (p: Vec): Pt => [r3(p.x / IN), r3((height - p.y) / IN)];
  return {
    pt,
    poly: (p) => p.map(pt),
    len: (u) => r3(u / IN),
    rect(r) {
      const c = rectCorners(r).map(pt);
      return { points: c, front: [c[0]!, c[1]!], facing: deg(r.h) };
    },
  };
}

/**
 * A reach into the arc ahead of rectangle `r`'s front edge, bounded by rays turned `angle`° outward from the front
 * corners (45° by default), out to `reach` ahead of the edge: drawn as the sector from the point where those rays meet
 * (behind the front edge's centre), ±`angle` about the facing, with radius the apex's distance to the front edge plus
 * `reach` — exact straight ahead and along the corner rays, a little short between.
 */
export function frontArcReach(f: TableFrame, r: Rect, reach: number, label: string, angle = 45): PictureReach {
  const back = r.w / 2 / Math.tan((angle * Math.PI) / 180);
  const apex = fromLocal(r, 0, r.d / 2 - back);
  const h = deg(r.h);
  return { label, radius: f.len(back + reach), arc: [deg(h - angle), deg(h + angle)], from: f.pt(apex) };
}

/** A sector of radius `reach` from the middle of rectangle `r`'s front edge, ±`angle`° about its facing. */
export function aheadReach(f: TableFrame, r: Rect, reach: number, label: string, angle: number): PictureReach {
  const h = deg(r.h);
  return { label, radius: f.len(reach), arc: [deg(h - angle), deg(h + angle)], from: f.pt(fromLocal(r, 0, r.d / 2)) };
}

/** A full circle about a point (default: the piece's centre). */
export function circleReach(f: TableFrame, radius: number, label: string, from?: Vec): PictureReach {
  return from ? { label, radius: f.len(radius), from: f.pt(from) } : { label, radius: f.len(radius) };
}

/** The shared terrain as picture terrain: areas as polygons, lines as polylines; `kind` names each. */
export function pictureTerrain(
  f: TableFrame,
  t: Terrain,
  kind: (k: string, id: string) => string = (k) => k,
): PictureTerrain[] {
  return [
    ...t.areas.map((a) => ({ kind: kind(a.kind, a.id), points: f.poly(a.polygon), label: a.id })),
    ...t.lines.map((l) => ({ kind: kind(l.kind, l.id), points: f.poly(l.points), line: true, label: l.id })),
  ];
}

/** Collects the codes a picture uses, each with its explanation, in first-use order. */
export class Legend {
  private readonly m = new Map<string, string>();
  /** Notes `code` as used (the first explanation given wins) and returns it. */
  use(code: string, text: string): string {
    if (!this.m.has(code)) this.m.set(code, text);
    return code;
  }
  entries(): LegendEntry[] {
    return [...this.m].map(([code, text]) => ({ code, text }));
  }
}
