/**
 * Deployment by alternate placement in a set-up zone, for any miniatures ruleset.
 *
 * A ruleset describes where a piece may stand as *bands*: one layout of the piece (formation, screen, depth row)
 * with its polygons laid out at x = 0, slid along the zone on a grid. This module enumerates those placements in a
 * fixed scan order, packs pieces first-fit, and answers the question that keeps alternate deployment from dead
 * ends: "after this placement, can the rest of the side's pieces still be placed?".
 *
 * Why first-fit gives a guarantee, not just a good guess: let the side's unplaced pieces be packed first-fit in a
 * fixed order, and offer a placement only if the first-fit packing of the remaining pieces still succeeds after
 * it. If the packing succeeds now, placing its first piece where the packing put it leaves every other piece facing
 * exactly the obstacles it faced in that packing, so the packing of the rest succeeds again: at least one placement
 * is always offered, and the side never reaches a piece with nowhere to stand.
 *
 * Nothing here knows a ruleset: the ruleset passes its layouts, its grid and its test of the standing world
 * (table edges, impassable ground, troops already placed).
 */
import { type Box, type Polygon, bbox, polygonsOverlap, sweptBox } from '../geometry/geometry.ts';

/** One layout of a piece, laid out at x = 0; `rear` orders the bands for packing (lower packs first). */
export interface Band<T> {
  readonly tag: T;
  readonly polys: readonly Polygon[];
  readonly rear: number;
}

/** One concrete placement: a band slid to centre x, with each polygon's box. */
export interface Placement<T> {
  readonly tag: T;
  readonly x: number;
  readonly polys: readonly Polygon[];
  readonly boxes: readonly Box[];
  readonly box: Box;
  /** Every polygon is an axis-aligned rectangle, so boxes meeting means polygons meeting (the fast, exact test). */
  readonly boxy: boolean;
}

/** The grid along the zone: centres at grid, 2·grid, … strictly inside (0, width), with the whole piece on the table. */
export interface Lattice {
  readonly width: number;
  readonly grid: number;
}

/** Does the standing world (table, ground, pieces already placed) allow this placement? */
export type WorldClear<T> = (p: Placement<T>) => boolean;

/** The centre x positions of the lattice at which a piece spanning [minX, maxX] around its centre stays on the table. */
export function latticeXs(l: Lattice, minX: number, maxX: number): number[] {
  const out: number[] = [];
  if (l.grid <= 0) return out;
  for (let x = l.grid; x < l.width; x += l.grid) if (x + minX >= 0 && x + maxX <= l.width) out.push(x);
  return out;
}

/** Is the polygon an axis-aligned rectangle (4 corners, every edge horizontal or vertical)? */
function isAxisRect(p: Polygon): boolean {
  if (p.length !== 4) return false;
  for (let i = 0; i < 4; i++) {
    const a = p[i]!;
    const b = p[(i + 1) % 4]!;
    if (a.x !== b.x && a.y !== b.y) return false;
  }
  return true;
}

/** A set of polygons as a placement (for pieces already standing, or a band slid to x). */
export function asPlacement<T>(tag: T, x: number, polys: readonly Polygon[]): Placement<T> {
  return { tag, x, polys, boxes: polys.map(bbox), box: sweptBox(polys), boxy: polys.every(isAxisRect) };
}

/** A band slid to centre x. */
function slide<T>(b: Band<T>, x: number): Placement<T> {
  return asPlacement(
    b.tag,
    x,
    b.polys.map((p) => p.map((c) => ({ x: c.x + x, y: c.y }))),
  );
}

interface Slides {
  readonly width: number;
  readonly grid: number;
  readonly xs: readonly number[];
  readonly made: (Placement<unknown> | undefined)[];
}
const slideCache = new WeakMap<Band<unknown>, Slides>();

function slidesOf(b: Band<unknown>, l: Lattice): Slides {
  let c = slideCache.get(b);
  if (c && c.width === l.width && c.grid === l.grid) return c;
  const box = sweptBox(b.polys);
  const xs = latticeXs(l, box.minX, box.maxX);
  c = { width: l.width, grid: l.grid, xs, made: new Array(xs.length) };
  slideCache.set(b, c);
  return c;
}

/** The i-th placement of a band along the lattice, made when first asked for and kept with the (immutable) band. */
function slideAt<T>(b: Band<T>, c: Slides, i: number): Placement<T> {
  let p = c.made[i];
  if (!p) c.made[i] = p = slide(b, c.xs[i]!);
  return p as Placement<T>;
}

/** Every placement of one band along the lattice, west to east. */
export function bandPlacements<T>(b: Band<T>, l: Lattice): readonly Placement<T>[] {
  const c = slidesOf(b, l);
  return c.xs.map((_, i) => slideAt(b, c, i));
}

/** Does some placement of the band pass `ok`? Placements are made only as far as the first that does. */
export function someBandPlacement<T>(b: Band<T>, l: Lattice, ok: (p: Placement<T>) => boolean): boolean {
  const c = slidesOf(b, l);
  for (let i = 0; i < c.xs.length; i++) if (ok(slideAt(b, c, i))) return true;
  return false;
}

const scanCache = new WeakMap<
  readonly Band<unknown>[],
  { width: number; grid: number; order: readonly Band<unknown>[] }
>();

/** A piece's bands in packing order: by `rear`, ties in the given order. */
function bandOrder<T>(bands: readonly Band<T>[], l: Lattice): readonly Band<T>[] {
  const c = scanCache.get(bands);
  if (c && c.width === l.width && c.grid === l.grid) return c.order as Band<T>[];
  const order = bands
    .map((b, i) => ({ b, i }))
    .sort((p, q) => p.b.rear - q.b.rear || p.i - q.i)
    .map((x) => x.b);
  scanCache.set(bands, { width: l.width, grid: l.grid, order });
  return order;
}

function boxesMeet(a: Box, b: Box): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

/** Do two placements share any area or boundary? */
export function placementsOverlap(a: Placement<unknown>, b: Placement<unknown>): boolean {
  if (!boxesMeet(a.box, b.box)) return false;
  const exact = a.boxy && b.boxy;
  for (let i = 0; i < a.polys.length; i++)
    for (let j = 0; j < b.polys.length; j++)
      if (boxesMeet(a.boxes[i]!, b.boxes[j]!) && (exact || polygonsOverlap(a.polys[i]!, b.polys[j]!))) return true;
  return false;
}

/** A piece to pack: its bands (the lattice turns them into placements). */
export interface Piece<T> {
  readonly id: string;
  readonly bands: readonly Band<T>[];
}

export interface Packing<T> {
  /** The placement each piece took, in piece order, up to the first piece that found none. */
  readonly taken: readonly Placement<T>[];
  /** Index of the first piece with nowhere to stand, or -1 when every piece was placed. */
  readonly stuck: number;
}

/**
 * First-fit: each piece in order takes the first placement in scan order that the world allows and that overlaps
 * no placement taken before it (nor any of `extra`).
 */
export function firstFit<T>(
  pieces: readonly Piece<T>[],
  l: Lattice,
  clear: WorldClear<T>,
  extra: readonly Placement<T>[] = [],
): Packing<T> {
  const taken: Placement<T>[] = [];
  let prevBands: readonly Band<T>[] | undefined;
  let fromBand = 0;
  let fromX = 0;
  for (let i = 0; i < pieces.length; i++) {
    const bands = pieces[i]!.bands;
    const order = bandOrder(bands, l);
    // a piece identical to the one before cannot stand anywhere that one was refused: scan on from its place
    let bi = bands === prevBands ? fromBand : 0;
    let k = bands === prevBands ? fromX : 0;
    let got: Placement<T> | undefined;
    for (; bi < order.length && !got; bi++, k = 0) {
      const b = order[bi]!;
      const c = slidesOf(b, l);
      // east to west: menus probe each band from the west, so the packing of the rest keeps out of their way and
      // the fast path of leavesRoom answers most probes
      for (; k < c.xs.length; k++) {
        const p = slideAt(b, c, c.xs.length - 1 - k);
        if (overlapsAny(p, extra) || overlapsAny(p, taken) || !clear(p)) continue;
        got = p;
        fromBand = bi;
        fromX = k + 1;
        break;
      }
    }
    if (!got) return { taken, stuck: i };
    taken.push(got);
    prevBands = bands;
  }
  return { taken, stuck: -1 };
}

function overlapsAny(p: Placement<unknown>, qs: readonly Placement<unknown>[]): boolean {
  for (let i = 0; i < qs.length; i++) if (placementsOverlap(p, qs[i]!)) return true;
  return false;
}

/**
 * Does placing a piece at `c` leave room for `rest` (the side's other unplaced pieces, in packing order)?
 * `restPacking` is `firstFit(rest)` without `c`, computed once per decision. When `c` overlaps none of its
 * placements the packing with `c` is the same packing (c only blocks places the first fit never took), so the
 * answer is immediate; otherwise the rest is packed again from the first piece whose place `c` takes.
 */
export function leavesRoom<T>(
  c: Placement<T>,
  rest: readonly Piece<T>[],
  restPacking: Packing<T>,
  l: Lattice,
  clear: WorldClear<T>,
): boolean {
  // First-fit is not monotone (blocking a place can steer a piece somewhere better), so a rest that did not fit
  // without c is packed again with it.
  if (restPacking.stuck >= 0) return firstFit(rest, l, clear, [c]).stuck < 0;
  const first = restPacking.taken.findIndex((t) => placementsOverlap(c, t));
  if (first < 0) return true;
  const again = firstFit(rest.slice(first), l, clear, [c, ...restPacking.taken.slice(0, first)]);
  return again.stuck < 0;
}
