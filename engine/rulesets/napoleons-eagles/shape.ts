/**
 * Napoleon's Eagles table geometry on the shared miniatures kit (engine/tabletop, engine/geometry): footprints of every
 * formation from figures and frontage (A-4), facing, the 45° arcs (A-11) and the 22.5° fire arc with the figures that
 * bear (A-38), the mandatory target (A-40), measuring and range bands (A-12, [p.9]), terrain lookups (A-14, A-15),
 * line of sight over levels (A-17, [p.8]) and overhead fire ([p.8], §3.7), move menus with the 22.5° oblique and the
 * free 10° turn ([p.6-7]), clearance (A-9, §6.3.10), the charge corridor and contact conforming (A-54, [p.14]), and the
 * geometric halves of ride-downs ([p.14-15], A-32) and enfilade ([p.14], A-63).
 *
 * Conventions (the kit's, as Age of Eagles' shape.ts): lengths are integer 1/100" (`IN` = 100); stored positions are
 * whole units; bearings are degrees clockwise from north, kept to 1/100° (A-8: `bearing`). A unit's position is the
 * CENTRE OF ITS FRONT EDGE (§3.1), unlike Age of Eagles (footprint centre): `rectOf` turns one into the other.
 * Inputs are the simple types below, so this module depends on nothing else of the ruleset but its tables.
 */
import {
  IN,
  type Polygon,
  type Rect,
  type Sector,
  type Vec,
  closestPointOnSegment,
  dist,
  fromLocal,
  headingVec,
  pointInPolygon,
  polygonDistance,
  polygonPolylineDistance,
  polygonsOverlap,
  rectCorners,
  sectorOf,
  segmentCrossesPolygon,
  segmentCrossesPolyline,
  translate,
} from '../../geometry/geometry.ts';
import type { Terrain, TerrainArea, TerrainLine } from '../../geometry/terrain.ts';
import { clipConvex, edgeArc } from '../../tabletop/arcs.ts';
import { type Bodies, type BodyView, type Table, endClear, onGround, pathClear } from '../../tabletop/clearance.ts';
import { edgeOverlap, sweepDistance } from '../../tabletop/conform.ts';
import { type LevelObstacle, levelSight } from '../../tabletop/levels.ts';
import { straightMenu } from '../../tabletop/movement.ts';
import { samplePoints } from '../../tabletop/sight.ts';
import {
  CHARGE,
  ENFILADE_RATIO,
  type EnfiladeKind,
  FIRING,
  type FireCover,
  type MoverArm,
  RANGE_LIMITS,
  type RangeBand,
  SCALE,
  SKIRMISH,
  TERRAIN_MOVE,
  type TerrainMove,
  type Weapon,
  artilleryBases,
  BUILDINGS,
  enfiladeValue,
  lineHoldsAgainstCavalry,
  rangeBand,
  refusedFlankFigures,
} from './tables.ts';

// ---------- numbers ----------

/** Inches → units, for the tables' inch figures. */
const inch = (n: number): number => Math.round(n * IN);
/** A-9: the 1" stand-off of non-charging moves from formed enemy units; [p.19] screens also from enemy screens. */
const STAND_OFF = inch(SKIRMISH.standOff);
/** A-40: targets equally near within 0.25" are the owner's choice. */
const TARGET_TIE = 25;
/** A-15: a linear obstacle within 1" of the footprint gives cover. */
const COVER_DEPTH = IN;
/** A-14: the path is costed in 1/4" steps. */
const PATH_STEP = 25;
/** Reach of a drawn arc: beyond any table. */
const ARC_REACH = 200 * IN;
/** [p.19-20] a building block is a 4" square. */
const BLOCK = inch(BUILDINGS.blockSize);
/** §2.3 ADAPTATION: a skirmish screen is 1/2" deep. */
const SCREEN_DEPTH = IN / 2;
/** [p.7] the free facing adjustment; [p.6] oblique moves; [p.6] the charge angle. */
const FREE_TURN = 10;
const OBLIQUE = CHARGE.obliqueMoveDeg;
/** [p.8] the 22.5° fire arc. ([p.15] the 45° front arc, CHARGE.frontArcDeg, is the kit's `sectorOf`.) */
const FIRE_ARC = FIRING.arcDeg;

/** a bearing normalised to [0, 360) and kept to 1/100°. */
export function bearing(deg: number): number {
  const c = Math.round(deg * 100);
  return (((c % 36000) + 36000) % 36000) / 100;
}

// ---------- input types ----------

/** [p.3] §2.3 the troop types, by frontage and enfilade factor. */
export type Troop = 'twoRankInfantry' | 'threeRankInfantry' | 'cavalry' | 'artillery';

/**
 * §2.4 formations: line; column of divisions C (the book's column of manoeuvre; it has no separate "attack column");
 * road column RC; square S; skirmish order; refused flank [p.7]; cavalry echelon E [p.7]; the optional supported line
 * [p.24]; artillery unlimbered, limbered, and massed (unlimbered two deep) [p.10].
 */
export type Formation =
  | 'line'
  | 'column'
  | 'roadColumn'
  | 'square'
  | 'skirmish'
  | 'refusedFlank'
  | 'echelon'
  | 'supportedLine'
  | 'unlimbered'
  | 'limbered'
  | 'massed';

/** §3.1: the centre of the front edge (units) and the facing (degrees, 1/100°). */
export interface Placement {
  readonly x: number;
  readonly y: number;
  readonly facing: number;
}

export interface Body {
  readonly troop: Troop;
  readonly formation: Formation;
  /** Current figures; for artillery, the battery's actual guns (cannons and howitzers). */
  readonly figures: number;
  /** a column's front-rank figures, when the army list gives it. */
  readonly columnFront?: number;
  /** [p.7] the refused end and how many figures are turned back (at most ¼, rounded up: the default). */
  readonly refused?: { readonly side: 'left' | 'right'; readonly figures?: number };
  readonly at: Placement;
  /**
   * [p.19] in a building block: no formation, the body is the 4" block itself (`at` the middle of the block's side it
   * faces), all round like a square (6.11.1: no unit structure, so no flank or rear).
   */
  readonly inBlock?: boolean;
}

/** A unit on the table. */
export interface TableUnit extends Body {
  readonly id: string;
  readonly side: string;
  /** in contact, awaiting its close action: may not be fired at. */
  readonly inCloseAction?: boolean;
}

/** §3.5 terrain pieces, in units. */
export type TerrainPiece =
  | {
      readonly type: 'hill';
      readonly id: string;
      readonly polygon: Polygon;
      /** Its level: the ground inside is at this level (nested hills stack: the highest containing hill wins). */
      readonly level: number;
      readonly slope?: 'gentle' | 'steep' | 'extreme';
      /** [p.8] crest lines: when given, they (not the hill's outline) block sight. */
      readonly ridges?: readonly (readonly Vec[])[];
    }
  | { readonly type: 'woods'; readonly id: string; readonly polygon: Polygon; readonly dense: boolean }
  | { readonly type: 'mud' | 'fields'; readonly id: string; readonly polygon: Polygon }
  | {
      readonly type: 'river';
      readonly id: string;
      readonly points: readonly Vec[];
      readonly crossable: boolean;
      readonly actionsToCross: number;
      readonly disorders: boolean;
    }
  /** A bridge deck over a river (a road's crossing), with its figures per action [p.6]. */
  | { readonly type: 'bridge'; readonly id: string; readonly polygon: Polygon; readonly capacity: number }
  | { readonly type: 'road'; readonly id: string; readonly points: readonly Vec[] }
  | { readonly type: 'wall' | 'hedge'; readonly id: string; readonly points: readonly Vec[] }
  /** [p.19] a 4" × 4" building block, square to the table, centred at (x, y). */
  | {
      readonly type: 'block';
      readonly id: string;
      readonly x: number;
      readonly y: number;
      readonly brickOrStone: boolean;
    };

export interface NeTable {
  readonly width: number;
  readonly height: number;
  readonly pieces: readonly TerrainPiece[];
  /** A-38 option `bearingFigures: "allFront"`: every front-rank figure fires once any bears (the book's p.8 reading). */
  readonly allFront?: boolean;
}

// ---------- footprints (§2.3-2.4, A-4) ----------

/** [p.3] frontage per figure (artillery: per base) and depth, in inches, from SCALE (widths are rounded once). */
function frontageIn(t: Troop): number {
  return t === 'artillery' ? SCALE.frontagePerFigure.artilleryPerGunModel : SCALE.frontagePerFigure[t];
}
function depthIn(t: Troop): number {
  return t === 'artillery' ? SCALE.depth.artillery : t === 'cavalry' ? SCALE.depth.cavalry : SCALE.depth.infantry;
}

/** One rectangular part of a footprint that faces one way and fires from its front edge. */
export interface Part {
  readonly rect: Rect;
  /** Front-rank (firing) figures or guns along its front edge. */
  readonly front: number;
  readonly role: 'main' | 'refused' | 'face';
}

/** A-4 the refused figures k: as asked, at most ¼ rounded up [p.7], at least 1. */
function refusedCount(b: Body): number {
  const most = refusedFlankFigures(b.figures);
  return Math.max(1, Math.min(most, b.refused?.figures ?? most));
}

/** A-4 a column's front rank: `columnFront`, else ceil(N/3) infantry, ceil(N/4) cavalry. */
function columnFront(b: Body): number {
  return b.columnFront ?? Math.ceil(b.figures / (b.troop === 'cavalry' ? 4 : 3));
}

/** k figures' frontage in units (a module function: a closure in `layout` would cost on every footprint's path). */
function frontage(fIn: number, k: number): number {
  return inch(k * fIn);
}

/** A-4 width × depth (units) and front-rank figures of the whole formation (the main part of a refused line). */
export function layout(b: Body): { w: number; d: number; front: number } {
  const fIn = frontageIn(b.troop);
  const dIn = depthIn(b.troop);
  const d = inch(dIn);
  const n = b.figures;
  if (b.inBlock) return { w: BLOCK, d: BLOCK, front: n };
  switch (b.formation) {
    case 'line':
    case 'echelon': // echelon as line (the book gives no shape)
      return { w: frontage(fIn, n), d, front: n };
    case 'supportedLine': // [p.24] two rows, only the front one fires
      return { w: frontage(fIn, Math.ceil(n / 2)), d: 2 * d, front: Math.ceil(n / 2) };
    case 'column': {
      const F = columnFront(b);
      return { w: frontage(fIn, F), d: inch(Math.ceil(n / F) * dIn), front: F };
    }
    case 'roadColumn':
      return { w: frontage(fIn, 2), d: inch(Math.ceil(n / 2) * dIn), front: 2 };
    case 'square': // [p.14] N/8 per face, the square four ranks deep; side max(ceil(N/4)·f, 1")
      return {
        w: Math.max(frontage(fIn, Math.ceil(n / 4)), IN),
        d: Math.max(frontage(fIn, Math.ceil(n / 4)), IN),
        front: Math.floor(n / 8),
      };
    case 'skirmish': // [p.18] 2" per figure
      return { w: n * inch(SKIRMISH.frontagePerFigure), d: SCREEN_DEPTH, front: n };
    case 'refusedFlank':
      return { w: frontage(fIn, n - refusedCount(b)), d, front: n - refusedCount(b) };
    case 'unlimbered': // [p.3] bases of 1" × 1.5"; every gun fires
      return { w: frontage(fIn, artilleryBases(n)), d, front: n };
    case 'massed': // [p.10] two stands deep, "one stand deep for firing": all guns fire
      return { w: frontage(fIn, Math.ceil(artilleryBases(n) / 2)), d: 2 * d, front: n };
    case 'limbered': // A-4 gun and team in file: 1" × 3" per base; does not fire
      return { w: frontage(fIn, 1), d: 2 * d * artilleryBases(n), front: 0 };
  }
}

/** The rectangle `w` × `d` whose front edge is centred at `p`, facing p.facing. */
function rectBehind(p: Placement, w: number, d: number): Rect {
  const v = headingVec(p.facing);
  return { x: p.x - (v.x * d) / 2, y: p.y - (v.y * d) / 2, w, d, h: p.facing };
}

/** §3.1: the main footprint rectangle (for a refused line, its main part). */
export function rectOf(b: Body): Rect {
  const l = layout(b);
  return rectBehind(b.at, l.w, l.d);
}

/**
 * [p.7] A-4 the refused part: k figures rolled back 90° at the chosen end, facing that flank, its rear against the
 * main part's flank and its front edge running back from the main part's front corner line.
 */
function refusedRect(b: Body): Rect {
  const main = rectOf(b);
  const kw = inch(refusedCount(b) * frontageIn(b.troop));
  const d = inch(depthIn(b.troop));
  const s = b.refused?.side === 'right' ? 1 : -1;
  const c = fromLocal(main, s * (main.w / 2 + d / 2), main.d / 2 - kw / 2);
  return { x: c.x, y: c.y, w: kw, d, h: bearing(b.at.facing + s * 90) };
}

/** The parts a body faces and fires out of: one; a refused line two; a square its four faces. */
export function parts(b: Body): Part[] {
  const r = rectOf(b);
  const l = layout(b);
  if (b.formation === 'refusedFlank')
    return [
      { rect: r, front: l.front, role: 'main' },
      { rect: refusedRect(b), front: refusedCount(b), role: 'refused' },
    ];
  if (b.formation === 'square') {
    const c = { x: r.x, y: r.y };
    return [0, 90, 180, 270].map((a) => ({
      rect: { ...c, w: r.w, d: r.d, h: bearing(r.h + a) },
      front: l.front,
      role: 'face',
    }));
  }
  return [{ rect: r, front: l.front, role: 'main' }];
}

/**
 * §3.2 the footprint polygon: a rectangle (corners front-left, front-right, rear-right, rear-left), or for a refused
 * line the L of its two parts.
 */
export function footprint(b: Body): Polygon {
  const r = rectOf(b);
  if (b.formation !== 'refusedFlank') return rectCorners(r);
  const k = inch(refusedCount(b) * frontageIn(b.troop));
  const d = inch(depthIn(b.troop));
  const hw = r.w / 2;
  const hd = r.d / 2;
  const s = b.refused?.side === 'right' ? -1 : 1; // mirror for the right
  const pts: [number, number][] = [
    [-hw - d, hd],
    [hw, hd],
    [hw, -hd],
    [-hw, -hd],
    [-hw, hd - k],
    [-hw - d, hd - k],
  ];
  const out = pts.map(([u, v]) => fromLocal(r, s * u, v));
  return s < 0 ? out.reverse() : out;
}

/** The centre of the footprint (of the main part for a refused line). */
export function centreOf(b: Body): Vec {
  const r = rectOf(b);
  return { x: r.x, y: r.y };
}

/** §3.2 the front edge of the main part: left end, right end. */
export function frontEdge(b: Body): [Vec, Vec] {
  const c = rectCorners(rectOf(b));
  return [c[0]!, c[1]!];
}

/** §2.5: squares face all round. */
function allRound(b: Body): boolean {
  return b.formation === 'square' || b.inBlock === true;
}

/** [p.8] skirmishers and unlimbered artillery do not block line of sight. */
export function blocksSight(b: Body): boolean {
  return b.formation !== 'skirmish' && b.formation !== 'unlimbered' && b.formation !== 'massed';
}

// ---------- formation and facing changes: where the new footprint stands ([p.7], §2.4, A-3, A-30) ----------

/**
 * §2.4 [p.7] "all formation changes are to the front": the new formation keeps the centre of the front edge and the
 * facing (a square's front face is centred there; A-3 a unit that loses figures shrinks about it too). Options:
 * `flank` deploys a column into line on its left or right flank: the line runs from the column's front corner on that
 * side outward, facing kept; `rear` limbers a battery facing its rear: the column's front edge is the battery's old
 * rear edge, facing reversed.
 */
export function reform(
  b: Body,
  to: Formation,
  opts: { readonly flank?: 'left' | 'right'; readonly rear?: boolean; readonly refused?: Body['refused'] } = {},
): Body {
  const next: Body = { ...b, formation: to, ...(opts.refused ? { refused: opts.refused } : {}) };
  if (opts.flank) {
    const c = frontEdge(b)[opts.flank === 'left' ? 0 : 1];
    const w = layout(next).w;
    const r = rectOf(b);
    const s = opts.flank === 'left' ? -1 : 1;
    const p = fromLocal({ ...r, x: c.x, y: c.y, d: 0 }, (s * w) / 2, 0);
    return { ...next, at: { ...b.at, x: Math.round(p.x), y: Math.round(p.y) } };
  }
  if (opts.rear) {
    const r = rectOf(b);
    const p = fromLocal(r, 0, -r.d / 2);
    return { ...next, at: { x: Math.round(p.x), y: Math.round(p.y), facing: bearing(b.at.facing + 180) } };
  }
  return next;
}

/**
 * [p.7] A-30 a change of facing by `deg` (clockwise positive): about the front-centre ('centre'), or a wheel on the
 * front-left or front-right corner. Positions are rounded to whole units, bearings to 1/100°.
 */
export function pivot(b: Body, deg: number, about: 'centre' | 'left' | 'right' = 'centre'): Body {
  const facing = bearing(b.at.facing + deg);
  if (about === 'centre') return { ...b, at: { ...b.at, facing } };
  const [l, r] = frontEdge(b);
  const corner = about === 'left' ? l : r;
  const half = layout(b).w / 2;
  const v = headingVec(facing);
  const right = { x: v.y, y: -v.x }; // the new right-hand direction
  const s = about === 'left' ? 1 : -1;
  return {
    ...b,
    at: { x: Math.round(corner.x + s * right.x * half), y: Math.round(corner.y + s * right.y * half), facing },
  };
}

// ---------- arcs (§3.3, A-11) ----------

/**
 * A-11 the arc of `b` holding `p`: front and rear between 45° rays from the corners, flanks the rest; a square is all
 * front; a point in the front arc of a refused part is in front (a charge into it is frontal).
 */
export function arcOf(b: Body, p: Vec): Sector {
  if (allRound(b)) return 'front';
  const ps = parts(b);
  const main = sectorOf(ps[0]!.rect, p);
  if (main !== 'front' && ps[1] && sectorOf(ps[1].rect, p) === 'front') return 'front';
  return main;
}

/** A-11 the part of `b` whose front arc holds `p` (the refused part if it is there), else the main part. */
function partFacing(b: Body, p: Vec): Part {
  const ps = parts(b);
  for (const q of ps) if (sectorOf(q.rect, p) === 'front' && q.role !== 'main') return q;
  if (b.formation === 'square') {
    const inFront = ps.find((q) => sectorOf(q.rect, p) === 'front');
    if (inFront) return inFront;
  }
  return ps[0]!;
}

/** A-11 where the attacker is: the centre of its footprint (at the start of its charge, or when firing). */
export function attackArc(defender: Body, attacker: Body): Sector {
  return arcOf(defender, centreOf(attacker));
}

/** [p.15] A-11 half or more of a unit is in the 45° front arc when its centre is. */
export function inFrontArc(b: Body, other: Body): boolean {
  return attackArc(b, other) === 'front';
}

// ---------- terrain (§3.5, A-14, A-15) ----------

interface Built {
  readonly kit: Map<MoverArm, Table>;
  /** The terrain's level obstacles, each with the block it is (if one): its occupants see out and are seen. */
  readonly obstacles: { readonly ob: LevelObstacle; readonly block?: Polygon }[];
  readonly hills: Extract<TerrainPiece, { type: 'hill' }>[];
}
const built = new WeakMap<NeTable, Built>();

const SLOPE_KIND: Readonly<Record<'gentle' | 'steep' | 'extreme', TerrainMove>> = {
  gentle: 'gentleSlope',
  steep: 'steepSlope',
  extreme: 'extremeSlope',
};

/** The square polygon of a block. */
function blockPolygon(b: { readonly x: number; readonly y: number }): Polygon {
  return rectCorners({ x: b.x, y: b.y, w: BLOCK, d: BLOCK, h: 0 });
}

/** The movement kind of an area piece (null: no multiplier), for A-14. */
function moveKind(p: TerrainPiece): TerrainMove | null {
  if (p.type === 'hill') return SLOPE_KIND[p.slope ?? 'gentle'];
  if (p.type === 'woods') return p.dense ? 'denseWoods' : 'lightWoods';
  if (p.type === 'mud') return 'mud';
  return null;
}

function polygonOf(p: TerrainPiece): Polygon | null {
  if (p.type === 'block') return blockPolygon(p);
  return 'polygon' in p ? p.polygon : null;
}

function build(t: NeTable): Built {
  let b = built.get(t);
  if (b) return b;
  const hills = t.pieces.filter((p): p is Extract<TerrainPiece, { type: 'hill' }> => p.type === 'hill');
  const kit = new Map<MoverArm, Table>();
  for (const arm of ['infantry', 'cavalry', 'artillery'] as MoverArm[]) {
    const areas: TerrainArea[] = [];
    const lines: TerrainLine[] = [];
    for (const p of t.pieces) {
      const poly = polygonOf(p);
      if (poly) {
        const k = moveKind(p);
        // blocks are entered by the building rules ([p.19], 6.11.2), never by a normal move
        const impassable = p.type === 'block' || (k !== null && TERRAIN_MOVE[k][arm] === 0);
        const difficult = k !== null && TERRAIN_MOVE[k][arm] > 0 && TERRAIN_MOVE[k][arm] < 1;
        const cover = p.type === 'block' || p.type === 'woods' ? 'soft' : 'none';
        areas.push({
          id: p.id,
          kind: k ?? p.type,
          polygon: poly,
          difficult,
          impassable,
          cover,
          blocksLos: false,
          seeThroughEdge: 0,
        });
      } else if (p.type === 'river' || p.type === 'wall' || p.type === 'hedge') {
        // rivers are checked by `riverClear` (bridges), walls and hedges are crossed at an action cost
        lines.push({
          id: p.id,
          kind: p.type,
          points: p.points,
          obstacle: false,
          cover: p.type === 'river' ? 'none' : 'soft',
          coverDepth: COVER_DEPTH,
          blocksLos: false,
        });
      }
    }
    const terrain: Terrain = { areas, lines };
    kit.set(arm, { width: t.width, height: t.height, terrain });
  }
  const obstacles: { ob: LevelObstacle; block?: Polygon }[] = [];
  const ground = (poly: Polygon) => groundLevelIn(hills, centroid(poly));
  for (const p of t.pieces) {
    if (p.type === 'hill') {
      if (p.ridges?.length)
        for (const r of p.ridges) obstacles.push({ ob: { shape: r, closed: false, base: p.level - 1, top: p.level } });
      else obstacles.push({ ob: { shape: p.polygon, closed: true, base: p.level - 1, top: p.level } });
    } else if (p.type === 'woods') {
      // [p.8] level-one; A-17 step 5: seen into and out of up to the firing range inside (4" light, 2" dense)
      const g = ground(p.polygon);
      const seeInside = inch(p.dense ? FIRING.woodsMaxRange.denseWoods : FIRING.woodsMaxRange.lightWoods);
      obstacles.push({ ob: { shape: p.polygon, closed: true, base: g, top: g + 1, seeInside } });
    } else if (p.type === 'block') {
      const poly = blockPolygon(p);
      const g = ground(poly);
      obstacles.push({ ob: { shape: poly, closed: true, base: g, top: g + 1 }, block: poly });
    }
  }
  b = { kit, obstacles, hills };
  built.set(t, b);
  return b;
}

function centroid(poly: Polygon): Vec {
  let x = 0;
  let y = 0;
  for (const p of poly) {
    x += p.x;
    y += p.y;
  }
  return { x: x / poly.length, y: y / poly.length };
}

function groundLevelIn(hills: readonly Extract<TerrainPiece, { type: 'hill' }>[], p: Vec): number {
  let l = 0;
  for (const h of hills) if (h.level > l && pointInPolygon(p, h.polygon)) l = h.level;
  return l;
}

/** A-17 step 1: the ground level at `p` (0 off the hills, else the highest hill holding it). */
export function groundLevel(t: NeTable, p: Vec): number {
  return groundLevelIn(build(t).hills, p);
}

/** A-17 step 3: a unit stands at the ground level of its footprint centre. */
export function unitLevel(t: NeTable, b: Body): number {
  return groundLevel(t, centreOf(b));
}

/** The terrain pieces a footprint touches, and those its centre is in (A-15: "in woods or buildings"). */
export function terrainUnder(t: NeTable, poly: Polygon): { touches: TerrainPiece[]; centreIn: TerrainPiece[] } {
  const c = centroid(poly);
  const touches: TerrainPiece[] = [];
  const centreIn: TerrainPiece[] = [];
  for (const p of t.pieces) {
    const area = polygonOf(p);
    if (area) {
      if (polygonsOverlap(poly, area)) touches.push(p);
      if (pointInPolygon(c, area)) centreIn.push(p);
    } else if ('points' in p && polygonPolylineDistance(poly, p.points) === 0) touches.push(p);
  }
  return { touches, centreIn };
}

/** [p.19] the block holding `p`, if any. */
export function blockAt(t: NeTable, p: Vec): Extract<TerrainPiece, { type: 'block' }> | undefined {
  const h = BLOCK / 2;
  for (const q of t.pieces) if (q.type === 'block' && Math.abs(p.x - q.x) <= h && Math.abs(p.y - q.y) <= h) return q;
  return undefined;
}

/** This module's reading (no width in the book): a road is the ground within 1/2" of its line, a road column's half. */
const ROAD_HALF_WIDTH = IN / 2;

/** Is `p` on a road? */
export function onRoad(t: NeTable, p: Vec): boolean {
  for (const r of t.pieces) {
    if (r.type !== 'road') continue;
    for (let i = 0; i + 1 < r.points.length; i++)
      if (dist(p, closestPointOnSegment(p, r.points[i]!, r.points[i + 1]!)) <= ROAD_HALF_WIDTH + 1e-6) return true;
  }
  return false;
}

/** [p.6] A-14 A-29: does the front-centre's straight path stay on roads (sampled every 1/4")? Then a road column moves at the road rate and ignores area terrain. */
export function pathOnRoad(t: NeTable, from: Vec, to: Vec): boolean {
  const n = Math.max(1, Math.ceil(dist(from, to) / PATH_STEP));
  for (let i = 0; i <= n; i++)
    if (!onRoad(t, { x: from.x + ((to.x - from.x) * i) / n, y: from.y + ((to.y - from.y) * i) / n })) return false;
  return true;
}

/** The terrain pieces the footprint touches anywhere along a straight move from → to (sampled every 1/4"). */
export function pathUnder(t: NeTable, from: Body, to: Body): TerrainPiece[] {
  const n = Math.max(1, Math.ceil(dist(from.at, to.at) / PATH_STEP));
  const seen = new Set<TerrainPiece>();
  for (let i = 0; i <= n; i++) {
    const k = i / n;
    const at: Placement = {
      ...to.at,
      x: from.at.x + (to.at.x - from.at.x) * k,
      y: from.at.y + (to.at.y - from.at.y) * k,
    };
    for (const p of terrainUnder(t, footprint({ ...to, at })).touches) seen.add(p);
  }
  return t.pieces.filter((p) => seen.has(p));
}

/** 6.11.1 blocks orthogonally adjacent (sharing a side): a unit's figures stay in one block or adjacent ones. */
export function blocksAdjacent(a: { x: number; y: number }, b: { x: number; y: number }): boolean {
  const dx = Math.abs(a.x - b.x);
  const dy = Math.abs(a.y - b.y);
  return (dx === BLOCK && dy === 0) || (dx === 0 && dy === BLOCK);
}

/** the smallest movement multiplier of the features a footprint touches (1 in the open, 0 impassable). */
export function moveMultiplier(t: NeTable, arm: MoverArm, poly: Polygon): number {
  let m = 1;
  for (const p of t.pieces) {
    const area = polygonOf(p);
    if (!area || !polygonsOverlap(poly, area)) continue;
    if (p.type === 'block') return 0;
    const k = moveKind(p);
    if (k) m = Math.min(m, TERRAIN_MOVE[k][arm]);
  }
  return m;
}

/** A move's arm for the terrain table: artillery, cavalry, or infantry (skirmishers are infantry). */
function moverArm(b: Body): MoverArm {
  return b.troop === 'artillery' ? 'artillery' : b.troop === 'cavalry' ? 'cavalry' : 'infantry';
}

/** The body placed elsewhere (moved, turned). */
function placed(b: Body, at: Placement): Body {
  return { ...b, at };
}

/**
 * A-14 how far (units) `b` gets along heading `dir` on `allowance` (units): each 1/4" step costs its length over the
 * smallest multiplier under the footprint at the step's middle; stops where the ground is impassable. A road column
 * on a road passes `ignoreAreas` (A-14: roads override area terrain).
 */
export function terrainReach(t: NeTable, b: Body, dir: number, allowance: number, ignoreAreas = false): number {
  if (ignoreAreas) return allowance;
  const arm = moverArm(b);
  const v = headingVec(dir);
  let left = allowance;
  let d = 0;
  while (left > 1e-9) {
    const mid = d + PATH_STEP / 2;
    const m = moveMultiplier(t, arm, footprint(placed(b, { ...b.at, x: b.at.x + v.x * mid, y: b.at.y + v.y * mid })));
    if (m <= 0) break;
    const cost = PATH_STEP / m;
    if (cost >= left) {
      d += left * m;
      break;
    }
    left -= cost;
    d += PATH_STEP;
  }
  return Math.floor(d);
}

/** The linear features and bridges the straight path of a footprint from → to crosses (corner and centre paths). */
export function pathCrossings(
  t: NeTable,
  from: Body,
  to: Body,
): { rivers: string[]; bridges: string[]; walls: string[]; hedges: string[] } {
  const out = { rivers: [] as string[], bridges: [] as string[], walls: [] as string[], hedges: [] as string[] };
  const a = [...footprint(from), centreOf(from)];
  const b = [...footprint(to), centreOf(to)];
  const n = Math.min(a.length, b.length);
  for (const p of t.pieces) {
    if (p.type === 'river' || p.type === 'wall' || p.type === 'hedge') {
      let hit = false;
      for (let i = 0; !hit && i < n; i++) hit = segmentCrossesPolyline(a[i]!, b[i]!, p.points);
      if (hit) (p.type === 'river' ? out.rivers : p.type === 'wall' ? out.walls : out.hedges).push(p.id);
    } else if (p.type === 'bridge') {
      let hit = false;
      for (let i = 0; !hit && i < n; i++) hit = segmentCrossesPolygon(a[i]!, b[i]!, p.polygon);
      if (hit) out.bridges.push(p.id);
    }
  }
  return out;
}

/**
 * [p.6] 6.3.8: a footprint touching a river must be a column or road column (limbered guns) on a bridge deck: every
 * bit of the river inside it (sampled every 1/10") lies on a bridge. Fording is the river procedure, not a move.
 */
function riverClear(t: NeTable, b: Body, poly: Polygon): boolean {
  const column = b.formation === 'column' || b.formation === 'roadColumn' || b.formation === 'limbered';
  for (const p of t.pieces) {
    if (p.type !== 'river' || polygonPolylineDistance(poly, p.points) > 0) continue;
    if (!column) return false;
    const decks = t.pieces.filter((q) => q.type === 'bridge').map((q) => (q as { polygon: Polygon }).polygon);
    for (let i = 0; i + 1 < p.points.length; i++) {
      const s = p.points[i]!;
      const e = p.points[i + 1]!;
      const n = Math.max(1, Math.ceil(dist(s, e) / 10));
      for (let j = 0; j <= n; j++) {
        const q = { x: s.x + ((e.x - s.x) * j) / n, y: s.y + ((e.y - s.y) * j) / n };
        if (pointInPolygon(q, poly) && !decks.some((d) => pointInPolygon(q, d))) return false;
      }
    }
  }
  return true;
}

/**
 * A-15 the cover a target has against a firer at `from`: in a block (buildings), behind a wall or hedge within 1" of
 * its footprint that the line of fire to its centre crosses, or with its centre in woods; the one worth most to it.
 */
export function coverFrom(t: NeTable, target: Body, from: Vec): FireCover {
  const poly = footprint(target);
  const c = centreOf(target);
  const found = new Set<FireCover>();
  if (blockAt(t, c)) found.add('buildings');
  for (const p of t.pieces) {
    if ((p.type === 'wall' || p.type === 'hedge') && segmentCrossesPolyline(from, c, p.points))
      if (polygonPolylineDistance(poly, p.points) <= COVER_DEPTH) found.add(p.type === 'wall' ? 'walls' : 'hedges');
    if (p.type === 'woods' && pointInPolygon(c, p.polygon)) found.add(p.dense ? 'denseWoods' : 'lightWoods');
  }
  for (const k of ['buildings', 'walls', 'denseWoods', 'hedges', 'lightWoods'] as FireCover[])
    if (found.has(k)) return k;
  return 'none';
}

// ---------- line of sight and lines of fire (§3.6, §3.7, A-17) ----------

/** Is `u` the body `b` (the same object, or a copy of the same unit)? */
function same(u: TableUnit, b: Body): boolean {
  return u === b || ('id' in b && (b as TableUnit).id === u.id);
}

/** the level obstacles between `observer` and `target`: terrain, and every other unit that blocks sight [p.8]. */
function sightObstacles(t: NeTable, units: readonly TableUnit[], observer: Body, target: Body): LevelObstacle[] {
  // [p.20] 6.11.4 troops in buildings fire out and are fired at: their own blocks do not hide them
  const ends = [centreOf(observer), centreOf(target)];
  const out: LevelObstacle[] = [];
  for (const o of build(t).obstacles) if (!o.block || !ends.some((e) => pointInPolygon(e, o.block!))) out.push(o.ob);
  for (const u of units) {
    if (same(u, observer) || same(u, target) || !blocksSight(u)) continue;
    const g = unitLevel(t, u);
    out.push({ shape: footprint(u), closed: true, base: g, top: g + 1 });
  }
  return out;
}

/** The points of a body looked at: its corners, edge middles, and along its edges every 1/2". */
function lookPoints(poly: Polygon): Vec[] {
  const out = samplePoints(poly);
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!;
    const b = poly[(i + 1) % poly.length]!;
    const n = Math.floor(dist(a, b) / 50);
    for (let j = 1; j < n; j++) out.push({ x: a.x + ((b.x - a.x) * j) / n, y: a.y + ((b.y - a.y) * j) / n });
  }
  return out;
}

/**
 * §3.6 A-17 line of sight from a point of the observer's front edge to a point of the target, at the two units'
 * ground levels, past terrain and other units by the level rule (same level blocks; Δ levels up, blind for X/Δ).
 */
export function sightBetween(
  t: NeTable,
  units: readonly TableUnit[],
  observer: Body,
  target: Body,
  from: Vec,
  to: Vec,
): boolean {
  return levelSight(
    { at: from, level: unitLevel(t, observer) },
    { at: to, level: unitLevel(t, target) },
    sightObstacles(t, units, observer, target),
  );
}

/** A-17 does any point of the observer's front edge (any face of a square) see any point of the target? */
export function canSee(t: NeTable, units: readonly TableUnit[], observer: Body, target: Body): boolean {
  const obs = sightObstacles(t, units, observer, target);
  const lo = unitLevel(t, observer);
  const lt = unitLevel(t, target);
  const pts = lookPoints(footprint(target));
  for (const part of parts(observer)) {
    const c = rectCorners(part.rect);
    // the front edge's ends (a hair in, so a neighbour touching a corner does not blind it), middle, and nearest point
    const ends = [0.001, 0.5, 0.999].map((k) => ({
      x: c[0]!.x + (c[1]!.x - c[0]!.x) * k,
      y: c[0]!.y + (c[1]!.y - c[0]!.y) * k,
    }));
    for (const q of pts)
      for (const p of [closestPointOnSegment(q, c[0]!, c[1]!), ...ends])
        if (levelSight({ at: p, level: lo }, { at: q, level: lt }, obs)) return true;
  }
  return false;
}

/**
 * §3.7 [p.8] a line of fire from `from` to `to`: no friendly unit of `firer`'s side crossed (screens included), except
 * that solid shot (`overhead`) may pass over friends when the line of sight over them is clear by the level rule.
 */
export function lineOfFireClear(
  t: NeTable,
  units: readonly TableUnit[],
  firer: TableUnit,
  target: Body,
  from: Vec,
  to: Vec,
  overhead = false,
): boolean {
  for (const u of units) {
    if (u.id === firer.id || u.side !== firer.side || same(u, target)) continue;
    if (!segmentCrossesPolygon(from, to, footprint(u))) continue;
    if (!overhead) return false;
    const g = unitLevel(t, u);
    const ob: LevelObstacle = { shape: footprint(u), closed: true, base: g, top: g + 1 };
    if (!levelSight({ at: from, level: unitLevel(t, firer) }, { at: to, level: unitLevel(t, target) }, [ob]))
      return false;
  }
  return true;
}

// ---------- fire arc, bearing figures, range (§6.4.2, §6.4.4, A-12, A-38) ----------

/** [p.9] a weapon's longest range (units); [p.19] inside woods at most 4" (light) or 2" (dense). */
export function maxRange(t: NeTable, firer: Body, weapon: Weapon): number {
  const limits = RANGE_LIMITS[weapon];
  let r = inch(Math.max(...limits.map((x) => x ?? 0)));
  for (const p of t.pieces)
    if (p.type === 'woods' && pointInPolygon(centreOf(firer), p.polygon))
      r = Math.min(r, inch(p.dense ? FIRING.woodsMaxRange.denseWoods : FIRING.woodsMaxRange.lightWoods));
  return r;
}

/** One firing figure: its segment of a front edge and its 22.5° arc. */
export interface FiringFigure {
  readonly a: Vec;
  readonly b: Vec;
  readonly arc: Polygon;
}

/** A-38 the front-rank figures of each part, each with its share of the front edge and its own 22.5° arc. */
export function firingFigures(b: Body, reach = ARC_REACH): FiringFigure[] {
  const out: FiringFigure[] = [];
  for (const p of parts(b)) {
    const w = p.rect.w;
    for (let i = 0; i < p.front; i++) {
      const u0 = -w / 2 + (i * w) / p.front;
      const u1 = -w / 2 + ((i + 1) * w) / p.front;
      out.push({
        a: fromLocal(p.rect, u0, p.rect.d / 2),
        b: fromLocal(p.rect, u1, p.rect.d / 2),
        arc: edgeArc(p.rect, FIRE_ARC, reach, u0, u1),
      });
    }
  }
  return out;
}

/** [p.8] §3.3: is the target at least partly inside the unit's 22.5° fire arc (of any part)? */
export function inFireArc(b: Body, target: Body): boolean {
  const tp = footprint(target);
  return parts(b).some((p) => polygonsOverlap(edgeArc(p.rect, FIRE_ARC, ARC_REACH), tp));
}

/** The fixed-point range (whole units) of a float distance. */
const units = (d: number): number => Math.round(d);

/** What one figure sees of a target: the range to the part of it inside its arc, and whether it bears. */
function figureBears(
  t: NeTable,
  all: readonly TableUnit[],
  firer: TableUnit,
  target: Body,
  fig: FiringFigure,
  range: number,
  obstacles: LevelObstacle[],
  levels: [number, number],
): number | null {
  const piece = clipConvex(footprint(target), fig.arc);
  if (piece.length < 2) return null;
  const r = units(polygonPolylineDistance(piece, [fig.a, fig.b]));
  if (r > range) return null;
  const pts = lookPoints(piece);
  for (const q of pts) {
    const p = closestPointOnSegment(q, fig.a, fig.b);
    if (units(dist(p, q)) > range) continue;
    if (!lineOfFireClear(t, all, firer, target, p, q)) continue;
    if (levelSight({ at: p, level: levels[0] }, { at: q, level: levels[1] }, obstacles)) return r;
  }
  return null;
}

/**
 * A-38 the figures that bear on `target` (its own 22.5° arc reaches it, within `range`, line of fire free of friends,
 * in sight), and the range (A-12: from the nearest point of a bearing figure's front edge that has the target in its
 * arc to the closest point of the target; whole units). A square's normal fire is from its one face that bears most
 * ([p.14]: N/8 per face). Null when none bears. `allFront`: the book's reading of its p.8 example, where every
 * front-rank figure fires once the target is in the arc of any of them (see the test of the p.8 example).
 */
export function bearingFigures(
  t: NeTable,
  all: readonly TableUnit[],
  firer: TableUnit,
  target: Body,
  range: number,
  allFront = false,
): { figures: number; range: number } | null {
  const obstacles = sightObstacles(t, all, firer, target);
  const levels: [number, number] = [unitLevel(t, firer), unitLevel(t, target)];
  const figs = firingFigures(firer, range + IN);
  const perPart = firer.formation === 'square' ? layout(firer).front : figs.length;
  let best: { figures: number; range: number } | null = null;
  for (let s = 0; s < figs.length; s += Math.max(1, perPart)) {
    let n = 0;
    let r = Number.POSITIVE_INFINITY;
    for (const fig of figs.slice(s, s + Math.max(1, perPart))) {
      const fr = figureBears(t, all, firer, target, fig, range, obstacles, levels);
      if (fr === null) continue;
      n++;
      r = Math.min(r, fr);
    }
    if (allFront && n > 0) n = Math.min(perPart, figs.length - s);
    if (n > 0 && (!best || n > best.figures || (n === best.figures && r < best.range))) best = { figures: n, range: r };
  }
  return best;
}

/** [p.9] the range band of a range in units (a range on a limit is in that band); null beyond extreme. */
export function bandOf(weapon: Weapon, range: number): RangeBand | null {
  return rangeBand(weapon, units(range) / IN);
}

/** A-12 solid shot: from the centre of the battery's front edge to the point of aim (whole units). */
export function solidShotRange(battery: Body, aim: Vec): number {
  return units(dist({ x: battery.at.x, y: battery.at.y }, aim));
}

/** A-12 the distance between two units: closest points of their footprints (0 touching). */
export function unitDistance(a: Body, b: Body): number {
  return polygonDistance(footprint(a), footprint(b));
}

/** A-12 the point command is measured to: the unit's footprint centre. */
export function commandCentre(b: Body): Vec {
  return centroid(footprint(b));
}

/** A-12 command distance: from the leader's position to the unit's footprint centre. */
export function commandDistance(leader: Vec, b: Body): number {
  return dist(leader, commandCentre(b));
}

/** An eligible target of a firer, with its range and bearing figures. */
export interface FireTarget {
  readonly id: string;
  readonly range: number;
  readonly figures: number;
  readonly screen: boolean;
}

/**
 * §6.4.3 A-40 the eligible targets of `firer` with `weapon`: enemy units not in a close action, in its fire arc, with
 * at least one figure bearing within the weapon's range (woods cap it); nearest first.
 */
export function fireTargets(t: NeTable, all: readonly TableUnit[], firer: TableUnit, weapon: Weapon): FireTarget[] {
  const range = maxRange(t, firer, weapon);
  const out: FireTarget[] = [];
  for (const u of all) {
    if (u.side === firer.side || u.inCloseAction) continue;
    if (polygonDistance(footprint(firer), footprint(u)) > range + IN) continue;
    const b = bearingFigures(t, all, firer, u, range, t.allFront === true);
    if (b) out.push({ id: u.id, range: b.range, figures: b.figures, screen: u.formation === 'skirmish' });
  }
  return out.sort((a, b) => a.range - b.range || (a.id < b.id ? -1 : 1));
}

/**
 * §6.4.3 A-40 the mandatory target as a geometric query: the nearest eligible non-skirmisher, with every other one
 * within 0.25" of it (the owner's choice); screens only when no other target is eligible. Empty when none.
 */
export function mandatoryTargets(
  t: NeTable,
  all: readonly TableUnit[],
  firer: TableUnit,
  weapon: Weapon,
): FireTarget[] {
  const ts = fireTargets(t, all, firer, weapon);
  const formed = ts.filter((x) => !x.screen);
  const pool = formed.length ? formed : ts;
  if (!pool.length) return [];
  const near = pool[0]!.range;
  return pool.filter((x) => x.range <= near + TARGET_TIE);
}

// ---------- clearance and movement (§6.3.2, §6.3.10, A-9, A-30) ----------

/** §6.3.10 formed (anything but a skirmish screen). */
const formed = (b: Body): boolean => b.formation !== 'skirmish';

// The two views a mover can have (formed, or a screen), built once: no closures made per call on the hot path
const countsOther = (o: TableUnit, m: TableUnit) => o.id !== m.id;
const sameSide = (o: TableUnit, m: TableUnit) => o.side === m.side;
const bodyOfUnit = (o: TableUnit) => footprint(o);
const FORMED_VIEW: BodyView<TableUnit> = {
  counts: countsOther,
  friendly: sameSide,
  body: bodyOfUnit,
  // A-9: formed movers keep 1" from formed enemies
  troops: (o) => (formed(o) ? [footprint(o)] : []),
};
const SCREEN_VIEW: BodyView<TableUnit> = {
  counts: countsOther,
  friendly: sameSide,
  body: bodyOfUnit,
  // A-9: screens keep 1" from formed enemies and enemy screens
  troops: (o) => [footprint(o)],
};

// formed infantry that cannot push a screen back stops 1" from it (formed, it keeps 1" from screens too)
const FORMED_SCREENS_VIEW: BodyView<TableUnit> = { ...SCREEN_VIEW };

/** The kit's view of the table's units as seen from a mover (A-9 and [p.19] stand-offs). */
function view(mover: TableUnit, fromScreens = false): BodyView<TableUnit> {
  return formed(mover) ? (fromScreens ? FORMED_SCREENS_VIEW : FORMED_VIEW) : SCREEN_VIEW;
}

/** One end of a move menu. */
export interface MoveEnd {
  readonly at: Placement;
  /** The free turn taken first (degrees, − left). */
  readonly turn: number;
  /** The heading of travel relative to the facing after the turn. */
  readonly oblique: number;
  readonly distance: number;
  /** §6.3.10 friendly formed units passed through (both become disordered). */
  readonly through: readonly string[];
}

export type MoveKind = 'forward' | 'back' | 'left' | 'right';

export interface MoveAsk {
  /** Allowance in units (the tables' rate × IN). */
  readonly allowance: number;
  /** [p.6] forward (with obliques), [p.7] fall back, sidestep left or right. */
  readonly kind?: MoveKind;
  /** Fractions of the furthest legal distance offered (the whole is always offered). */
  readonly fractions?: readonly number[];
  /** [p.7] offer the free ≤10° turn first (−10, 0, +10). */
  readonly freeTurn?: boolean;
  /** a road column on a road ignores area terrain. */
  readonly onRoad?: boolean;
  /** A-36: a formed mover keeps its 1" stand-off from enemy screens too (formed infantry that cannot push them). */
  readonly fromScreens?: boolean;
}

/**
 * §6.3.10: may `mover` be at `poly` on its path? On the table, off impassable ground and the river (except a column on
 * a bridge), never overlapping an enemy (screens included), a screen never through friendly formed units, and 1"
 * from formed enemies (and from enemy screens, for a screen) unless already closer and not closing.
 */
function pathOk(
  t: NeTable,
  all: readonly TableUnit[],
  mover: TableUnit,
  poly: Polygon,
  startSep: number,
  fromScreens = false,
): boolean {
  const table = build(t).kit.get(moverArm(mover))!;
  const bodies: Bodies<TableUnit> = { view: view(mover, fromScreens), list: all, mover };
  if (!pathClear(table, bodies, [poly], startSep, { separation: STAND_OFF })) return false;
  if (!riverClear(t, mover, poly)) return false;
  for (const o of all) {
    if (o.id === mover.id) continue;
    const friend = o.side === mover.side;
    if (friend && (formed(mover) || !formed(o))) continue;
    if (polygonsOverlap(poly, footprint(o))) return false;
  }
  return true;
}

/** An end position: on the ground, overlapping no unit, off the river (bridges aside). */
function endOk(t: NeTable, all: readonly TableUnit[], mover: TableUnit, poly: Polygon): boolean {
  const table = build(t).kit.get(moverArm(mover))!;
  const bodies: Bodies<TableUnit> = { view: view(mover), list: all, mover };
  return onGround(table, [poly]) && endClear(table, bodies, poly) && riverClear(t, mover, poly);
}

/** The distance to the nearest enemy troops the mover keeps its stand-off from (capped). */
function separationNow(all: readonly TableUnit[], mover: TableUnit, fromScreens = false): number {
  let best = STAND_OFF * 10;
  const v = view(mover, fromScreens);
  const poly = footprint(mover);
  for (const o of all) {
    if (o.id === mover.id || o.side === mover.side) continue;
    for (const p of v.troops(o)) best = Math.min(best, polygonDistance(poly, p));
  }
  return best;
}

const FRACTIONS: readonly number[] = [0.25, 0.5, 0.75, 1];

/**
 * §6.3.2 the finite menu of a straight move: after an optional free turn of ≤10° about the front-centre (A-30), a move
 * straight ahead or up to 22.5° oblique (facing kept), or straight back or sideways, to fractions of the furthest
 * legal distance: the allowance cut by terrain (A-14), the path clear (A-9, §6.3.10), each end backed off by 1/4"
 * until it overlaps nothing. Screens move forward and back only [p.19].
 */
export function moveMenu(t: NeTable, all: readonly TableUnit[], mover: TableUnit, ask: MoveAsk): MoveEnd[] {
  const kind = ask.kind ?? 'forward';
  const turns = ask.freeTurn ? [-FREE_TURN, 0, FREE_TURN] : [0];
  const screen = mover.formation === 'skirmish';
  const obliques = kind === 'forward' && !screen ? [-OBLIQUE, 0, OBLIQUE] : [0];
  const base = kind === 'back' ? 180 : kind === 'left' ? -90 : kind === 'right' ? 90 : 0;
  const fromScreens = ask.fromScreens ?? false;
  const startSep = separationNow(all, mover, fromScreens);
  const out: MoveEnd[] = [];
  for (const turn of turns) {
    const turned: TableUnit = { ...mover, at: { ...mover.at, facing: bearing(mover.at.facing + turn) } };
    if (
      turn !== 0 &&
      !(pathOk(t, all, turned, footprint(turned), startSep, fromScreens) && endOk(t, all, turned, footprint(turned)))
    )
      continue;
    for (const ob of obliques) {
      const dir = bearing(turned.at.facing + base + ob);
      const allow = terrainReach(t, turned, dir, ask.allowance, ask.onRoad);
      const r0 = rectOf(turned);
      const at = (r: Rect): TableUnit => ({
        ...turned,
        at: { ...turned.at, x: turned.at.x + (r.x - Math.round(r0.x)), y: turned.at.y + (r.y - Math.round(r0.y)) },
      });
      const rr = { ...r0, x: Math.round(r0.x), y: Math.round(r0.y) };
      const ds = straightMenu({
        rect: rr,
        dir,
        allow,
        fractions: ask.fractions ?? FRACTIONS,
        step: PATH_STEP,
        clear: false,
        pathOk: (r) => pathOk(t, all, at(r), footprint(at(r)), startSep, fromScreens),
        endOk: (r) => endOk(t, all, at(r), footprint(at(r))),
      });
      for (const d of ds) {
        if (d === 0 && (turn !== 0 || ob !== 0)) continue;
        const end = at(translate(rr, dir, d));
        out.push({ at: end.at, turn, oblique: ob, distance: d, through: passedThrough(all, turned, dir, d) });
      }
    }
  }
  return out;
}

/** a screen pushed back by formed infantry: where it ends and how far it went. */
export interface PushedScreen {
  readonly id: string;
  readonly at: Placement;
  readonly distance: number;
}

/** A-36: the step in which a screen's push-back is measured (1/20"), and the farthest a screen is pushed. */
const PUSH_STEP = 5;
const PUSH_CAP = 24 * IN;

/**
 * A-36 [p.19] "skirmish screens are always pushed back by the formed enemy infantry keeping a one to two inch distance
 * between them": along the move from `mover` (its start) to `end` (sampled every 1/4"), each enemy screen that the
 * mover would come within `keep` (units) of is displaced straight back (its own rear) by the least distance (in 1/20"
 * steps) that keeps `keep` between them, at no cost. The screens pushed (none if no screen is met), or null when one
 * cannot go (other units, impassable ground, an obstacle line, the river or the table edge in the way, or pushed more
 * than 24"): the digest's "the mover stops at 1"". `all` is the table without the mover's own change.
 */
export function screenPushes(
  t: NeTable,
  all: readonly TableUnit[],
  mover: TableUnit,
  end: Placement,
  keep: number,
): PushedScreen[] | null {
  const screens = all.filter((o) => o.side !== mover.side && o.formation === 'skirmish' && !o.inBlock);
  if (!screens.length) return [];
  const d = Math.hypot(end.x - mover.at.x, end.y - mover.at.y);
  const samples: Polygon[] = [];
  for (let s = 0; ; s += PATH_STEP) {
    const f = d === 0 ? 1 : Math.min(1, s / d);
    const at = {
      x: mover.at.x + (end.x - mover.at.x) * f,
      y: mover.at.y + (end.y - mover.at.y) * f,
      facing: end.facing,
    };
    samples.push(footprint(placed(mover, at)));
    if (f >= 1) break;
  }
  const out: PushedScreen[] = [];
  for (const sc of screens) {
    const back = headingVec(bearing(sc.at.facing + 180));
    const moved = (k: number): Placement => ({
      x: Math.round(sc.at.x + back.x * k),
      y: Math.round(sc.at.y + back.y * k),
      facing: sc.at.facing,
    });
    // a screen the mover does not close on is not pushed (a move away, or past it farther than it stands)
    const start = polygonDistance(footprint(sc), samples[0]!);
    if (samples.every((poly) => polygonDistance(footprint(sc), poly) >= Math.min(keep, start) - 0.5)) continue;
    let k = 0;
    for (const poly of samples) {
      while (polygonDistance(footprint(placed(sc, moved(k))), poly) < keep - 0.5) {
        k += PUSH_STEP;
        if (k > PUSH_CAP) return null;
      }
    }
    if (k > 0) out.push({ id: sc.id, at: moved(k), distance: k });
  }
  if (!out.length) return out;
  // the screens' new places: each must be a legal end with the mover at its end and the others pushed
  const after = all.map((o) => {
    if (o.id === mover.id) return { ...o, at: end };
    const p = out.find((x) => x.id === o.id);
    return p ? { ...o, at: p.at } : o;
  });
  for (const p of out) {
    const sc = after.find((o) => o.id === p.id)!;
    if (!endOk(t, after, sc, footprint(sc))) return null;
  }
  return out;
}

/** §6.3.10 the friendly formed units a straight path sweeps across (sampled every 1/4"). */
function passedThrough(all: readonly TableUnit[], mover: TableUnit, dir: number, d: number): string[] {
  const v = headingVec(dir);
  const hit = new Set<string>();
  for (let s = 0; s <= d; s += PATH_STEP) {
    const poly = footprint(placed(mover, { ...mover.at, x: mover.at.x + v.x * s, y: mover.at.y + v.y * s }));
    for (const o of all)
      if (o.id !== mover.id && o.side === mover.side && formed(o) && polygonsOverlap(poly, footprint(o))) hit.add(o.id);
  }
  return [...hit].sort();
}

// ---------- charges: corridor, contact, conforming (§6.6.2, A-54) ----------

export type Face = 'front' | 'left' | 'right' | 'rear';

/** The outward normal bearing of a face of a rectangle. */
function faceBearing(r: Rect, face: Face): number {
  return bearing(r.h + (face === 'front' ? 0 : face === 'right' ? 90 : face === 'rear' ? 180 : 270));
}
function faceSeg(r: Rect, face: Face): [Vec, Vec] {
  const c = rectCorners(r);
  if (face === 'front') return [c[0]!, c[1]!];
  if (face === 'right') return [c[1]!, c[2]!];
  if (face === 'rear') return [c[2]!, c[3]!];
  return [c[3]!, c[0]!];
}

/** A charge that reaches its target. */
export interface ChargeContact {
  /** The free turn (≤10°) taken before running straight ahead. */
  readonly turn: number;
  /** §3.4 the straight distance from the front-centre to first contact (units). */
  readonly distance: number;
  /** Where the front edge first touches. */
  readonly first: Placement;
  /** After conforming; the first-contact placement when conforming would overlap another unit. */
  readonly at: Placement;
  readonly conformed: boolean;
  /** The side of the defender struck (of the part struck: a refused part's front is its own). */
  readonly face: Face;
  readonly part: Part['role'];
  /** A-11 arc from the charger's footprint centre at the start. */
  readonly arc: Sector;
  /** [p.14] length of the charger's front in contact with the face. */
  readonly overlap: number;
  /** [p.14] full engagement: ≥ ½ of the charger's frontage or ≥ ½ of the side struck in contact; else −10 MV. */
  readonly full: boolean;
}

/** The charge menu's free turns: −10° … +10° in 2.5° steps, and the turn aiming the front-centre at the target. */
function chargeTurns(charger: Body, target: Body): number[] {
  const out = new Set<number>();
  for (let a = -FREE_TURN; a <= FREE_TURN; a += 2.5) out.add(a);
  const c = centroid(footprint(target));
  const aim = (Math.atan2(c.x - charger.at.x, c.y - charger.at.y) * 180) / Math.PI;
  let rel = bearing(aim - charger.at.facing);
  if (rel > 180) rel = Math.round((rel - 360) * 100) / 100;
  if (Math.abs(rel) <= FREE_TURN) out.add(rel);
  return [...out].sort((a, b) => a - b);
}

/**
 * A-54 contact: the side struck (the target face nearest the charger's front that most faces it), the charger rotated
 * about the contact point flush with that side, and slid so its front-centre is at the centre of the overlap of the
 * two edges. Returns the conformed placement and the side.
 */
function conform(target: Body, charger: Body): { at: Placement; face: Face; part: Part['role']; rect: Rect } {
  const cp = footprint(charger);
  const front = frontEdge(charger);
  const d = headingVec(charger.at.facing);
  let best: { r: Rect; face: Face; part: Part['role']; score: number } | null = null;
  const ps = target.formation === 'square' ? [parts(target)[0]!] : parts(target);
  for (const p of ps) {
    for (const face of ['front', 'right', 'rear', 'left'] as Face[]) {
      const [a, b] = faceSeg(p.rect, face);
      const gap = Math.min(
        polygonPolylineDistance(cp, [a, b]),
        dist(closestPointOnSegment(front[0], a, b), front[0]),
        dist(closestPointOnSegment(front[1], a, b), front[1]),
      );
      if (gap > 2) continue;
      const n = headingVec(faceBearing(p.rect, face));
      const score = -(n.x * d.x + n.y * d.y) - gap / 100;
      if (!best || score > best.score) best = { r: p.rect, face, part: p.role, score };
    }
  }
  const b = best ?? { r: parts(target)[0]!.rect, face: 'front' as Face, part: 'main' as const, score: 0 };
  const [a, e] = faceSeg(b.r, b.face);
  const len = dist(a, e);
  const ux = (e.x - a.x) / len;
  const uy = (e.y - a.y) / len;
  // the charger's front edge laid on the side: its extent along the side, by projection of its current ends
  const s0 = (front[0].x - a.x) * ux + (front[0].y - a.y) * uy;
  const s1 = (front[1].x - a.x) * ux + (front[1].y - a.y) * uy;
  const w = layout(charger).w;
  const mid = (s0 + s1) / 2;
  let lo = Math.max(0, mid - w / 2);
  let hi = Math.min(len, mid + w / 2);
  if (hi < lo) lo = hi = Math.min(len, Math.max(0, mid));
  const s = (lo + hi) / 2;
  const at: Placement = {
    x: Math.round(a.x + ux * s),
    y: Math.round(a.y + uy * s),
    facing: bearing(faceBearing(b.r, b.face) + 180),
  };
  return { at, face: b.face, part: b.part, rect: b.r };
}

/** [p.14] the length of `charger`'s front edge in contact with `face` of `r` (projected on the side). */
function contactLength(charger: Body, r: Rect, face: Face): number {
  const [p0, p1] = frontEdge(charger);
  const [q0, q1] = faceSeg(r, face);
  if (polygonPolylineDistance(footprint(charger), [q0, q1]) > 2) return 0;
  return edgeOverlap(p0, p1, q0, q1)?.length ?? 0;
}

/** [p.14] full engagement: at least ½ of either frontage in contact (the defender's being the side struck). */
export function fullContact(overlap: number, chargerFrontage: number, sideLength: number): boolean {
  const half = CHARGE.fullContactFraction;
  return overlap + 0.5 >= half * chargerFrontage || overlap + 0.5 >= half * sideLength;
}

/**
 * §6.6.2 the charge corridor of `charger` against `target` within `reach` (units): for each free turn of ≤10°, run
 * straight ahead until the front touches; the target must be reached within the reach (cut by terrain, A-14), with
 * the path through no other unit and on the ground, and in sight at the start. Each contact is conformed.
 */
export function chargeContacts(
  t: NeTable,
  all: readonly TableUnit[],
  charger: TableUnit,
  target: TableUnit,
  reach: number,
): ChargeContact[] {
  if (!canSee(t, all, charger, target)) return [];
  const out: ChargeContact[] = [];
  const arc = attackArc(target, charger);
  const tp = footprint(target);
  const table = build(t).kit.get(moverArm(charger))!;
  for (const turn of chargeTurns(charger, target)) {
    const turned: TableUnit = { ...charger, at: { ...charger.at, facing: bearing(charger.at.facing + turn) } };
    const poly = footprint(turned);
    if (turn !== 0 && all.some((o) => o.id !== charger.id && polygonsOverlap(poly, footprint(o)))) continue;
    const d = sweepDistance(poly, tp, turned.at.facing);
    if (!Number.isFinite(d)) continue;
    if (d > terrainReach(t, turned, turned.at.facing, reach) + 1) continue;
    // the path passes through no other unit: nothing else is met first
    const blocked = all.some(
      (o) => o.id !== charger.id && o.id !== target.id && sweepDistance(poly, footprint(o), turned.at.facing) < d - 1,
    );
    if (blocked) continue;
    const v = headingVec(turned.at.facing);
    let onTable = true;
    for (let s = 0; s <= d && onTable; s += PATH_STEP * 4)
      onTable = onGround(table, [
        footprint(placed(turned, { ...turned.at, x: turned.at.x + v.x * s, y: turned.at.y + v.y * s })),
      ]);
    if (!onTable) continue;
    const first: Placement = {
      ...turned.at,
      x: Math.round(turned.at.x + v.x * d),
      y: Math.round(turned.at.y + v.y * d),
    };
    const hit = placed(turned, first);
    const c = conform(target, hit);
    const moved = placed(turned, c.at);
    const clash = all.some(
      (o) => o.id !== charger.id && o.id !== target.id && polygonsOverlap(footprint(moved), footprint(o)),
    );
    const final = clash ? hit : moved;
    const overlap = contactLength(final, c.rect, c.face);
    const side = c.face === 'front' || c.face === 'rear' ? c.rect.w : c.rect.d;
    out.push({
      turn,
      distance: units(d),
      first,
      at: final.at,
      conformed: !clash,
      face: c.face,
      part: c.part,
      arc,
      overlap: units(overlap),
      full: fullContact(overlap, layout(charger).w, side),
    });
  }
  return out;
}

/** [p.15] 6.6.11 is `mover` (its centre) in `cavalry`'s counter-charge zone: straight ahead within 10°, out to `reach`? */
export function inCounterChargeZone(cavalry: Body, mover: Body, reach: number): boolean {
  const r = rectOf(cavalry);
  const zone = edgeArc(r, CHARGE.counterChargeAngleDeg, reach);
  return polygonsOverlap(zone, footprint(mover));
}

// ---------- ride-downs and enfilade: the geometric halves ([p.14-15], A-32, A-63) ----------

export type RideDownCase = 'column' | 'line' | 'outsideFrontArc' | 'square' | 'artillery' | 'screen';

/**
 * §6.6.5 the ride-down case of cavalry charging from `start` (its footprint centre at the start of the charge), and
 * whether the infantry is protected once the cavalry closes: a square is (if it passed), a line charged from the front
 * is iff its front-rank figures of the part struck are ≥ 1.5 × the cavalry's front rank (A-32, exactly); columns,
 * units charged from outside their 45° front arc, and artillery are ridden down.
 */
export function rideDown(defender: Body, cavalry: Body, start: Vec): { case: RideDownCase; protected: boolean } {
  if (defender.formation === 'square') return { case: 'square', protected: true };
  if (defender.troop === 'artillery') return { case: 'artillery', protected: false };
  if (defender.formation === 'skirmish') return { case: 'screen', protected: false };
  if (arcOf(defender, start) !== 'front') return { case: 'outsideFrontArc', protected: false };
  const lineLike =
    defender.formation === 'line' || defender.formation === 'refusedFlank' || defender.formation === 'supportedLine';
  if (!lineLike) return { case: 'column', protected: false };
  const inf = partFacing(defender, start).front;
  return { case: 'line', protected: lineHoldsAgainstCavalry(inf, layout(cavalry).front) };
}

/** [p.14] enfilade kind of a body. */
function enfiladeKind(b: Body): EnfiladeKind {
  return b.troop;
}

/** [p.14] enfilade value: front-rank figures × factor (artillery per actual gun); a square N/8. */
export function enfiladeOf(b: Body): number {
  return enfiladeValue(enfiladeKind(b), b.troop === 'artillery' ? b.figures : layout(b).front);
}

/**
 * [p.14] A-63 the enfilade comparison of a defender against its chargers: the chargers on the same side as the first
 * frontal one (by the side their front touches) combine; flank and rear chargers take their +10/+15 instead and stay
 * out. Returns the combined chargers and who gets the +5.
 */
export function enfiladeContest(
  defender: Body,
  chargers: readonly { readonly id: string; readonly body: Body; readonly start: Vec }[],
): { combined: string[]; attackers: number; defender: number; attackerBonus: boolean; defenderBonus: boolean } {
  const frontal = chargers.filter((c) => arcOf(defender, c.start) === 'front');
  const first = frontal[0];
  const face = first ? partFacing(defender, first.start).role : null;
  const combined = frontal.filter((c) => partFacing(defender, c.start).role === face);
  const att = combined.reduce((s, c) => s + enfiladeOf(c.body), 0);
  const def =
    defender.formation === 'refusedFlank' && face === 'refused'
      ? enfiladeValue(enfiladeKind(defender), refusedCount(defender))
      : enfiladeOf(defender);
  return {
    combined: combined.map((c) => c.id),
    attackers: att,
    defender: def,
    attackerBonus: att > 0 && att >= ENFILADE_RATIO * def,
    defenderBonus: combined.length > 0 && def > 0 && def >= ENFILADE_RATIO * att,
  };
}
