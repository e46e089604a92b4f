/** March of Eagles footprints, screens, eligible firing groups, cover and contact, on the shared geometry. */
import { type Polygon, type Rect, type Vec, IN, rectCorners } from '../../geometry/geometry.ts';
import type { Cover } from '../../geometry/terrain.ts';
import { type Face, contactRect as contactRectOf, faceSegment as faceSegmentOf } from '../../tabletop/contact.ts';
import { coverAgainst, eligibleStands, frontSees } from '../../tabletop/sight.ts';
import { attachedRect, blockFootprint, blockOf } from '../../tabletop/footprint.ts';
import type { Bn, MoeState } from './types.ts';

/** M2: a firing group of 4 figures is a 1.6" × 1.6" stand. */
const STAND = 160;
/** M3: a skirmish screen is 0.8" deep. */
const SCREEN_DEPTH = 80;
const STAND_SIZE = { w: STAND, d: STAND };
const CONTACT_GAP = 1;
const SCREEN_GAP = 200;
const LIGHT_GAP = 600;
const FLANK_GAP = 100;

/** [Accuracy] firing groups of four or fraction: ceil(Rankers / 4). */
export function firingGroups(b: Bn): number {
  return Math.ceil(b.rk / 4);
}
/** [Skirmishers] groups of two, fractions up. */
export function screenGroups(b: Bn): number {
  return Math.ceil(b.sk / 2);
}
/** Half strength: close order + skirmishers at or below half the starting Rankers (digest §2.2). */
export function halfStrength(b: Bn): boolean {
  return b.rk + b.sk <= b.start / 2;
}
/** [Removing casualties] frontage keeps its original groups until 50% strength, then shrinks (M2). */
function footGroups(b: Bn): number {
  return halfStrength(b) ? Math.max(1, firingGroups(b)) : b.G;
}

/** Do two copies of a battalion stand the same (what its footprint and screen depend on)? */
function sameGeometry(a: Bn, b: Bn): boolean {
  return (
    a.x === b.x &&
    a.y === b.y &&
    a.h === b.h &&
    a.f === b.f &&
    a.rk === b.rk &&
    a.sk === b.sk &&
    a.scr === b.scr &&
    a.G === b.G &&
    a.start === b.start
  );
}
/**
 * A battalion's footprint, its corners and its screen's corners, worked out when first asked for. A `Battalion` (every
 * copy the engine makes) keeps them in a private field: a spread copy (`{ ...b, x }`) never carries them, hashing,
 * JSON, structured clones and equality checks never see them, and no collector-traced `WeakMap` entry is made per
 * copy. A battalion made another way (a spread, a test's literal) keeps them in a `WeakMap`.
 */
interface Geometry {
  rect?: Rect;
  poly?: Polygon;
  screen?: Polygon | null;
}
/** Every field present from the start: the records keep one shape as they fill. */
const emptyGeometry = (): Geometry => ({ rect: undefined, poly: undefined, screen: undefined });
const looseGeometry = new WeakMap<Bn, Geometry>();

/**
 * A battalion as the engine copies it: its fields in one order, and its geometry caches in a private field, which
 * spreads, JSON, structured clones and equality checks never see. A battalion made another way (a spread, a test's
 * literal) keeps its caches in a `WeakMap`.
 */
class Battalion implements Bn {
  declare readonly id: Bn['id'];
  declare readonly name: Bn['name'];
  declare readonly side: Bn['side'];
  declare readonly q: Bn['q'];
  declare readonly light: Bn['light'];
  declare readonly rifles: Bn['rifles'];
  declare readonly british: Bn['british'];
  declare readonly start: Bn['start'];
  declare readonly rk: Bn['rk'];
  declare readonly skS: Bn['skS'];
  declare readonly sk: Bn['sk'];
  declare readonly drum: Bn['drum'];
  declare readonly sgt: Bn['sgt'];
  declare readonly ens: Bn['ens'];
  declare readonly off: Bn['off'];
  declare readonly f: Bn['f'];
  declare readonly x: Bn['x'];
  declare readonly y: Bn['y'];
  declare readonly h: Bn['h'];
  declare readonly scr: Bn['scr'];
  declare readonly G: Bn['G'];
  declare readonly on: Bn['on'];
  declare readonly placed: Bn['placed'];
  declare readonly gone: Bn['gone'];
  declare readonly act: Bn['act'];
  declare readonly dis: Bn['dis'];
  declare readonly brk: Bn['brk'];
  declare readonly ral: Bn['ral'];
  declare readonly stand: Bn['stand'];
  declare readonly standDis: Bn['standDis'];
  declare readonly reform: Bn['reform'];
  declare readonly drumU: Bn['drumU'];
  declare readonly sgtU: Bn['sgtU'];
  declare readonly ensU: Bn['ensU'];
  declare readonly offU: Bn['offU'];
  declare readonly tested: Bn['tested'];
  declare readonly trig: Bn['trig'];
  declare readonly lost: Bn['lost'];
  declare readonly ran: Bn['ran'];
  declare readonly cas: Bn['cas'];
  declare readonly eng: Bn['eng'];
  readonly #geo: Geometry;
  constructor(o: Bn, patch: Partial<Bn>) {
    this.id = o.id;
    this.name = o.name;
    this.side = o.side;
    this.q = o.q;
    this.light = o.light;
    this.rifles = o.rifles;
    this.british = o.british;
    this.start = o.start;
    this.rk = o.rk;
    this.skS = o.skS;
    this.sk = o.sk;
    this.drum = o.drum;
    this.sgt = o.sgt;
    this.ens = o.ens;
    this.off = o.off;
    this.f = o.f;
    this.x = o.x;
    this.y = o.y;
    this.h = o.h;
    this.scr = o.scr;
    this.G = o.G;
    this.on = o.on;
    this.placed = o.placed;
    this.gone = o.gone;
    this.act = o.act;
    this.dis = o.dis;
    this.brk = o.brk;
    this.ral = o.ral;
    this.stand = o.stand;
    this.standDis = o.standDis;
    this.reform = o.reform;
    this.drumU = o.drumU;
    this.sgtU = o.sgtU;
    this.ensU = o.ensU;
    this.offU = o.offU;
    this.tested = o.tested;
    this.trig = o.trig;
    this.lost = o.lost;
    this.ran = o.ran;
    this.cas = o.cas;
    this.eng = o.eng;
    Object.assign(this, patch);
    const g = Battalion.geometryOf(o, false);
    this.#geo = g && sameGeometry(o, this) ? g : emptyGeometry();
  }
  /** `b`'s geometry caches (made for a battalion made another way, when `make`). */
  static geometryOf(b: Bn, make: boolean): Geometry | undefined {
    if (#geo in b) return (b as Battalion).#geo;
    let g = looseGeometry.get(b);
    if (!g && make) looseGeometry.set(b, (g = emptyGeometry()));
    return g;
  }
}

/**
 * A copy of a battalion with `patch` over it. Every copy is a `Battalion`, so every battalion has one shape: V8 reads
 * them much faster than spread copies, whose shapes drift. A copy that moved nothing shares the geometry caches of the
 * original (they depend only on geometry); any other starts empty ones.
 */
export function withBn(o: Bn, patch: Partial<Bn>): Bn {
  return new Battalion(o, patch);
}
function geometry(b: Bn): Geometry {
  return Battalion.geometryOf(b, true)!;
}

export function footprint(b: Bn): Rect {
  const g = geometry(b);
  return (g.rect ??= rectAt(b, b.x, b.y, b.h));
}
/** M2: Line is one rank of group stands; Column is two groups wide. */
export function rectAt(b: Bn, x: number, y: number, h: number, f = b.f): Rect {
  const g = footGroups(b);
  const { files, ranks } = blockOf(g, f === 'L' ? g : 2);
  return blockFootprint({ x, y }, h, files, ranks, STAND, STAND);
}

export function poly(b: Bn): Polygon {
  const g = geometry(b);
  return (g.poly ??= rectCorners(footprint(b)));
}

/** M3: the screen's rectangle relative to a parent rectangle, or null without skirmishers. */
export function screenRectFor(b: Bn, r: Rect, pos = b.scr): Rect | null {
  if (!b.sk || !pos) return null;
  const sw = Math.max(r.w, 80 * b.sk);
  const w = pos === 'left' || pos === 'right' ? Math.min(sw, 80 * b.sk) : sw;
  if (b.light || pos === 'front')
    return attachedRect(r, 'front', { w, d: SCREEN_DEPTH, gap: b.light ? LIGHT_GAP : SCREEN_GAP });
  if (pos === 'rear') return attachedRect(r, 'rear', { w, d: SCREEN_DEPTH, gap: SCREEN_GAP });
  // on a flank the screen stands as far out as a screen as wide as the battalion would
  return attachedRect(r, pos, { w, d: SCREEN_DEPTH, gap: FLANK_GAP + (sw - w) / 2 });
}

export function screenPoly(b: Bn): Polygon | null {
  const g = geometry(b);
  if (g.screen === undefined) {
    const r = screenRectFor(b, footprint(b));
    g.screen = r ? rectCorners(r) : null;
  }
  return g.screen;
}

/** Every polygon a battalion occupies (body and screen). */
export function allPolys(b: Bn): Polygon[] {
  const s = screenPoly(b);
  return s ? [poly(b), s] : [poly(b)];
}

export function centre(b: Bn): Vec {
  return { x: b.x, y: b.y };
}

/** Range bands [Range effect table] (M4: "up to 6" includes 6). */
export function rangeFraction(rangeUnits: number, rifle: boolean): number {
  const r = rangeUnits / IN;
  if (r <= 6 + 1e-9) return 1;
  if (r <= (rifle ? 18 : 12) + 1e-9) return 0.5;
  if (r <= (rifle ? 24 : 18) + 1e-9) return 0.25;
  return 0;
}
export function maxRange(rifle: boolean): number {
  return (rifle ? 24 : 18) * IN;
}

/** Polygons that block LOS for a shot between two units: every other body and screen. */
export function blockersExcept(s: MoeState, exclude: (b: Bn, isScreen: boolean) => boolean): Polygon[] {
  const out: Polygon[] = [];
  for (const b of s.units) {
    if (!b.on) continue;
    if (!exclude(b, false)) out.push(poly(b));
    const sp = screenPoly(b);
    if (sp && !exclude(b, true)) out.push(sp);
  }
  return out;
}

/**
 * [Who can shoot] eligible firing groups of a body (front stands of its footprint; in column only the front row)
 * against a target polygon: a straight line from the stand's front edge to the target, inside the stand's front
 * arc, crossing no blocker. The count is capped at the current firing groups.
 */
export function eligibleGroups(
  s: MoeState,
  shooterRect: Rect,
  target: Polygon,
  blockers: readonly Polygon[],
  groupsNow: number,
): number {
  return eligibleStands(s.ctx.terrain, shooterRect, STAND_SIZE, target, blockers, groupsNow);
}

/** Eligible screen groups: all of them if any point of the screen's front edge sees the target in its arc. */
export function eligibleScreenGroups(
  s: MoeState,
  screenRect: Rect,
  target: Polygon,
  blockers: readonly Polygon[],
  groups: number,
): number {
  return frontSees(s.ctx.terrain, screenRect, target, blockers) ? groups : 0;
}

/** Cover of a target body against fire or attack from point `from` (woods: soft; hedge soft, wall hard, M4/M5). */
export function coverOf(s: MoeState, target: Bn, from: Vec): Cover {
  return coverAgainst(s.ctx.terrain, poly(target), centre(target), from);
}

/** The face of target `t` and the rectangle an attacker of depth/width takes in contact with it (M25), 1 unit off. */
export function contactRect(t: Bn, face: Face, attW: number, attD: number): Rect {
  return contactRectOf(footprint(t), face, attW, attD, CONTACT_GAP);
}

/** The segment of a target face, for distance-to-contact. */
export function faceSegment(t: Bn, face: Face): [Vec, Vec] {
  return faceSegmentOf(footprint(t), face);
}
