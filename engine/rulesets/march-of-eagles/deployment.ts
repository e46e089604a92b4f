/**
 * [Setting up a battle] Alternate placement in the set-up zones, on the shared tabletop deployment layer.
 *
 * The book: "Ensure no battalions are nearer than 30cm (12 inches) to the centre line … Each player then places a
 * battalion alternately until all are on the table." The digest's M23 quantises the zone: battalions face the enemy
 * edge, centres on an `M23_grid` lattice along the zone, and depth rows every `M23_grid` inches back from the zone's
 * front (row 0 has its front, screen included, on the 12" line). The book is silent on a side that has left itself
 * no room: ADAPTATION M23_squeeze ("keep-room") offers a placement — or a skirmisher count, which changes the
 * footprint — only if every battalion the side has still to place can still be placed (checked by first-fit
 * packing; see engine/tabletop/deployment.ts for why that never leaves a side without an option). A scenario whose
 * armies the packing cannot set up is refused at validation, naming the side and the battalions.
 */
import { IN, type Polygon, type Rect, rectCorners, sweptBox } from '../../geometry/geometry.ts';
import { hitsImpassable } from '../../geometry/terrain.ts';
import {
  type Band,
  type Lattice,
  type Packing,
  type Piece,
  type Placement,
  asPlacement,
  bandPlacements,
  firstFit,
  leavesRoom,
  placementsOverlap,
  someBandPlacement,
} from '../../tabletop/deployment.ts';
import { maxSkirmishers } from './scenario.ts';
import { allPolys, rectAt, screenRectFor, withBn } from './shape.ts';
import { sideUnits } from './state.ts';
import type { Bn, Formation, MoeState, ScreenPos, Side } from './types.ts';
import { RecentMemo } from '../../core/recent.ts';

/** A layout of a battalion in its zone: formation, screen position and depth row. */
export interface Layout {
  readonly f: Formation;
  readonly scr: ScreenPos | null;
  readonly row: number;
}

const SETUP_LINE = 12 * IN; // [Setting up a battle] no nearer than 12" to the centre line

function grid(s: MoeState): number {
  return Math.round(s.ctx.options.M23_grid * IN);
}

function lattice(s: MoeState): Lattice {
  return { width: s.ctx.width, grid: grid(s) };
}

/** The body's rectangle for a layout at centre x (M23: the front of body and screen on the row's line). */
export function layoutRect(s: MoeState, b: Bn, lay: Layout, x: number): Rect {
  const south = s.sides[b.side].edge === 'south';
  const r0 = rectAt(b, 0, 0, south ? 0 : 180, lay.f);
  const sr = screenRectFor({ ...b, f: lay.f, scr: lay.scr }, r0, lay.scr);
  let front = r0.d / 2;
  if (sr) for (const c of rectCorners(sr)) front = Math.max(front, south ? c.y : -c.y);
  const line = s.ctx.height / 2 - SETUP_LINE;
  const back = lay.row * grid(s);
  const y = south ? line - front - back : s.ctx.height - line + front + back;
  return { x, y: Math.round(y), w: r0.w, d: r0.d, h: r0.h };
}

function layoutPolys(b: Bn, lay: Layout, r: Rect): Polygon[] {
  const sr = screenRectFor({ ...b, f: lay.f, scr: lay.scr }, r, lay.scr);
  return sr ? [rectCorners(r), rectCorners(sr)] : [rectCorners(r)];
}

function screensFor(b: Bn): readonly (ScreenPos | null)[] {
  return b.sk > 0 ? (b.light ? ['front'] : ['front', 'left', 'right', 'rear']) : [null];
}

/** What a battalion's deployment footprints depend on: battalions with the same shape pack identically. */
function shapeOf(s: MoeState, b: Bn): string {
  return `${s.sides[b.side].edge}|${b.G}|${b.sk}|${b.light ? 1 : 0}`;
}

/**
 * Bands by shape and table. They depend on nothing else (not the terrain), so games on the same table share them
 * and their placements along the lattice: a new game does not lay its zone out again. Bounded by the shapes that
 * occur (battalion sizes × skirmisher counts × two edges × table sizes and grids).
 */
const bandMemo = new Map<string, Band<Layout>[]>();

/** Every layout of `b` whose rows keep it on the table, in menu order (formation, screen, row), as bands at x = 0. */
function bands(s: MoeState, b: Bn): readonly Band<Layout>[] {
  const key = `${s.ctx.width}x${s.ctx.height}/${s.ctx.options.M23_grid}/${shapeOf(s, b)}`;
  let out = bandMemo.get(key);
  if (out) return out;
  out = [];
  const south = s.sides[b.side].edge === 'south';
  for (const f of ['L', 'C'] as const)
    for (const scr of screensFor(b))
      for (let row = 0; ; row++) {
        const lay = { f, scr, row };
        const polys = layoutPolys(b, lay, layoutRect(s, b, lay, 0));
        const box = sweptBox(polys);
        if (box.minY < 0 || box.maxY > s.ctx.height) break;
        out.push({ tag: lay, polys, rear: south ? box.minY : s.ctx.height - box.maxY });
      }
  bandMemo.set(key, out);
  return out;
}

/** Placements whose body is on impassable ground (placements are kept with their bands, so this is per game). */
/** Whether a (shared) placement's body stands on impassable ground, per terrain: by the impassable polygons' text. */
const groundMemo = new Map<string, WeakMap<Placement<Layout>, boolean>>();
const groundKeys = new WeakMap<MoeState['ctx'], string>();
/** The impassable ground of a game as text: games with the same ground share ground checks and menus. */
function groundKey(s: MoeState): string {
  let key = groundKeys.get(s.ctx);
  if (key === undefined) {
    key = JSON.stringify(s.ctx.terrain.areas.filter((a) => a.impassable).map((a) => a.polygon));
    groundKeys.set(s.ctx, key);
  }
  return key;
}
function groundOf(s: MoeState): WeakMap<Placement<Layout>, boolean> {
  const key = groundKey(s);
  let m = groundMemo.get(key);
  if (!m) groundMemo.set(key, (m = new WeakMap()));
  return m;
}
const standingMemo = new WeakMap<Bn, Placement<null>>();

/** The standing world: no body on impassable ground, nothing on troops already placed (bodies and screens). */
function worldClear(s: MoeState): (p: Placement<Layout>) => boolean {
  const placed: Placement<null>[] = [];
  for (const o of s.units)
    if (o.placed) {
      let q = standingMemo.get(o);
      if (!q) standingMemo.set(o, (q = asPlacement(null, o.x, allPolys(o))));
      placed.push(q);
    }
  const imp = s.ctx.terrain.areas.filter((a) => a.impassable);
  const ground = groundOf(s);
  return (p) => {
    for (let i = 0; i < placed.length; i++) if (placementsOverlap(p, placed[i]!)) return false;
    if (!imp.length) return true;
    let bad = ground.get(p);
    if (bad === undefined) ground.set(p, (bad = hitsImpassable({ areas: imp, lines: [] }, p.polys[0]!)));
    return !bad;
  };
}

/** M23_squeeze packing order: widest first (body or screen), then id. */
function packingOrder(bs: readonly Bn[]): Bn[] {
  const width = (b: Bn) => Math.max(b.G * 160, b.sk * 80);
  return [...bs].sort((p, q) => width(q) - width(p) || (p.id < q.id ? -1 : p.id > q.id ? 1 : 0));
}

function pieces(s: MoeState, bs: readonly Bn[]): Piece<Layout>[] {
  return packingOrder(bs).map((b) => ({ id: b.id, bands: bands(s, b) }));
}

interface Memo {
  readonly clear: (p: Placement<Layout>) => boolean;
  readonly rest: Map<string, { rest: Piece<Layout>[]; packing: Packing<Layout> }>;
  readonly roomy: Map<Placement<Layout>, boolean>;
}
/** Per state (by its units array): the world test, the packings of what is left to place, and verdicts. */
const stateMemo = new RecentMemo<readonly Bn[], Memo>(4);

function memo(s: MoeState): Memo {
  let m = stateMemo.get(s.units);
  if (!m) stateMemo.set(s.units, (m = { clear: worldClear(s), rest: new Map(), roomy: new Map() }));
  return m;
}

/** The first-fit packing of side p's unplaced battalions less one of `b`'s shape (the same for any of that shape). */
function restPacking(s: MoeState, b: Bn): { rest: Piece<Layout>[]; packing: Packing<Layout> } {
  const m = memo(s);
  const key = shapeOf(s, b);
  let r = m.rest.get(key);
  if (!r) {
    let dropped = false;
    const others = sideUnits(s, b.side).filter((o) => {
      if (o.placed) return false;
      if (!dropped && shapeOf(s, o) === key) return !(dropped = true);
      return true;
    });
    const rest = pieces(s, others);
    r = { rest, packing: firstFit(rest, lattice(s), m.clear) };
    m.rest.set(key, r);
  }
  return r;
}

/** Is `c` (a placement of a battalion shaped like `b`) clear and roomy for the side's other battalions (M23_squeeze)? */
function roomy(s: MoeState, b: Bn, c: Placement<Layout>): boolean {
  const m = memo(s);
  let ok = m.roomy.get(c);
  if (ok === undefined) {
    ok = m.clear(c);
    if (ok) {
      const { rest, packing } = restPacking(s, b);
      ok = leavesRoom(c, rest, packing, lattice(s), m.clear);
    }
    m.roomy.set(c, ok);
  }
  return ok;
}

/**
 * Menus computed before, by what decides them: the table, grid and impassable ground, the side's edge, the side's
 * battalions already standing (where and how) and those still to place (id and shape). Games on one scenario ask the
 * same questions again and again (every rollout of a search, every game of a match starts from the same empty zones),
 * so the answers are kept, a bounded number of them.
 */
const menuMemo = new Map<string, readonly unknown[]>();
const MENU_MEMO_MAX = 20_000;

function sideKey(s: MoeState, p: Side): string {
  let k = `${s.ctx.width}x${s.ctx.height}/${s.ctx.options.M23_grid}/${groundKey(s)}/${s.sides[p].edge}`;
  for (const b of s.units)
    if (b.side === p)
      k += b.placed ? `|${b.id}@${b.x},${b.y},${b.h},${b.f},${b.scr},${shapeOf(s, b)}` : `|${b.id}:${shapeOf(s, b)}`;
  return k;
}

function remembered<T>(key: string, compute: () => readonly T[]): readonly T[] {
  const hit = menuMemo.get(key);
  if (hit) return hit as readonly T[];
  const v = compute();
  if (menuMemo.size >= MENU_MEMO_MAX) menuMemo.delete(menuMemo.keys().next().value!);
  menuMemo.set(key, v);
  return v;
}

/** [Setting up a battle] placement choices (battalion, formation, screen, row) with at least one legal position. */
export function placementChoices(s: MoeState, p: Side): readonly { u: string; lay: Layout }[] {
  return remembered(`place/${sideKey(s, p)}`, () => {
    const out: { u: string; lay: Layout }[] = [];
    const l = lattice(s);
    for (const b of sideUnits(s, p)) {
      if (b.placed) continue;
      for (const band of bands(s, b))
        if (someBandPlacement(band, l, (c) => roomy(s, b, c))) out.push({ u: b.id, lay: band.tag });
    }
    return out;
  });
}

/** [Setting up a battle] legal centre x positions for one layout. */
export function placementXs(s: MoeState, b: Bn, lay: Layout): number[] {
  const band = bands(s, b).find((x) => x.tag.f === lay.f && x.tag.scr === lay.scr && x.tag.row === lay.row);
  if (!band) return [];
  return bandPlacements(band, lattice(s))
    .filter((c) => roomy(s, b, c))
    .map((c) => c.x);
}

/** The battalion with `sk` skirmishers (close order, footprint groups and screen follow). */
export function withSkirmishers(b: Bn, sk: number): Bn {
  return withBn(b, {
    sk,
    skS: sk,
    rk: b.start - sk,
    G: Math.max(1, Math.ceil((b.start - sk) / 4)),
    scr: sk ? (b.light ? 'front' : b.scr) : null,
  });
}

/**
 * [Skirmishers] counts offered for `b` before placement (M23: declared before anything is placed). None is always
 * offered; a count is offered only if the side can still set up every battalion with it (M23_squeeze).
 */
export function skirmisherChoices(s: MoeState, b: Bn): readonly number[] {
  return remembered(`skirm/${b.id}/${sideKey(s, b.side)}`, () => {
    const max = maxSkirmishers(b.start, b.light);
    const out = [0];
    if (max === 0) return out;
    const others = sideUnits(s, b.side).filter((o) => !o.placed && o.id !== b.id);
    const clear = memo(s).clear;
    const l = lattice(s);
    for (let n = 1; n <= max; n++)
      if (firstFit(pieces(s, [...others, withSkirmishers(b, n)]), l, clear).stuck < 0) out.push(n);
    return out;
  });
}

/** The battalions of side `p` that the packing cannot set up in its zone (empty when it can), for validation. */
export function undeployable(s: MoeState, p: Side): string[] {
  const bs = sideUnits(s, p).filter((b) => !b.placed);
  const ps = pieces(s, bs);
  const r = firstFit(ps, lattice(s), memo(s).clear);
  return r.stuck < 0 ? [] : ps.slice(r.stuck).map((x) => x.id);
}
