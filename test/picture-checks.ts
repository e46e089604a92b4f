/** Checks shared by the rulesets' `picture` tests (engine/core/picture.ts): points on the table, a complete legend. */
import type { MapPicture, PicturePiece, Pt, TablePicture } from '../engine/core/picture.ts';

const EPS = 1e-6;

/** Every point of a table picture's terrain, pieces (footprints and front edges) and marks that is off the table. */
export function offTable(p: TablePicture): string[] {
  const out: string[] = [];
  const check = (what: string, q: Pt) => {
    if (!(q[0] >= -EPS && q[0] <= p.width + EPS && q[1] >= -EPS && q[1] <= p.height + EPS))
      out.push(`${what} (${q[0]}, ${q[1]})`);
  };
  for (const t of p.terrain) for (const q of t.points) check(`terrain ${t.label ?? t.kind}`, q);
  for (const pc of p.pieces) {
    for (const q of pc.points) check(`piece ${pc.id}`, q);
    for (const q of pc.front ?? []) check(`front of ${pc.id}`, q);
  }
  for (const m of p.marks ?? []) check(`mark ${m.label}`, m.at);
  return out;
}

/** Codes a picture uses (markers, terrain kinds, mark labels) that its legend does not explain. */
export function unexplained(p: TablePicture | MapPicture, labels = false): string[] {
  const known = new Set(p.legend.map((e) => e.code));
  const used = new Set<string>();
  const pieces: Pick<PicturePiece, 'markers' | 'label'>[] =
    p.kind === 'table' ? [...p.pieces] : p.stacks.flatMap((s) => s.pieces);
  for (const pc of pieces) {
    for (const m of pc.markers) used.add(m);
    if (labels) used.add(pc.label);
  }
  if (p.kind === 'table') {
    for (const t of p.terrain) used.add(t.kind);
    for (const m of p.marks ?? []) used.add(m.label);
  }
  return [...used].filter((c) => !known.has(c));
}

/** The centre (mean of the corners) and the side lengths of a rectangular footprint: [front edge, flank]. */
export function rectOf(points: readonly Pt[]): { centre: Pt; w: number; d: number } {
  const n = points.length;
  const centre: Pt = [points.reduce((a, q) => a + q[0], 0) / n, points.reduce((a, q) => a + q[1], 0) / n];
  const len = (a: Pt, b: Pt) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  return { centre, w: len(points[0]!, points[1]!), d: len(points[1]!, points[2]!) };
}
