/**
 * Napoleon's Eagles geometry: footprints (A-4), arcs (A-11), fire arc and bearing figures (A-38), the mandatory target
 * (A-40), range bands [p.9], terrain (A-14, A-15), levels and sight (A-17, [p.8]), overhead fire (§3.7), move menus
 * ([p.6-7], A-9, §6.3.10), charges and contact (A-54, [p.14]), ride-downs ([p.14-15], A-32) and enfilade ([p.14], A-63).
 * Lengths in 1/100" (IN = 100); a unit's position is the centre of its front edge; north is +y, facing 0.
 */
import { describe, expect, it } from 'vitest';
import { IN, type Polygon, type Vec, polygonsOverlap, rectCorners } from '../../geometry/geometry.ts';
import {
  type Body,
  type Face,
  type FiringFigure,
  type MoveKind,
  type Troop,
  type NeTable,
  type Placement,
  type TableUnit,
  type TerrainPiece,
  arcOf,
  bandOf,
  bearing,
  bearingFigures,
  blockAt,
  blocksAdjacent,
  canSee,
  centreOf,
  chargeContacts,
  commandDistance,
  coverFrom,
  enfiladeContest,
  enfiladeOf,
  fireTargets,
  attackArc,
  blocksSight,
  firingFigures,
  footprint,
  frontEdge,
  fullContact,
  inFrontArc,
  sightBetween,
  terrainUnder,
  unitLevel,
  groundLevel,
  inCounterChargeZone,
  inFireArc,
  layout,
  lineOfFireClear,
  mandatoryTargets,
  onRoad,
  pathOnRoad,
  pathUnder,
  maxRange,
  moveMenu,
  moveMultiplier,
  parts,
  pivot,
  reform,
  pathCrossings,
  rectOf,
  rideDown,
  solidShotRange,
  terrainReach,
  unitDistance,
} from './shape.ts';

const at = (xIn: number, yIn: number, facing = 0): Placement => ({ x: xIn * IN, y: yIn * IN, facing });
let n = 0;
function unit(side: string, b: Omit<Body, 'at'>, p: Placement, id = `u${++n}`): TableUnit {
  return { id, side, ...b, at: p };
}
const line3 = (figures: number) => ({ troop: 'threeRankInfantry' as const, formation: 'line' as const, figures });
const line2 = (figures: number) => ({ troop: 'twoRankInfantry' as const, formation: 'line' as const, figures });
const col3 = (figures: number) => ({ troop: 'threeRankInfantry' as const, formation: 'column' as const, figures });
const cav = (formation: Body['formation'], figures: number) => ({ troop: 'cavalry' as const, formation, figures });
const box = (x0: number, y0: number, x1: number, y1: number): Polygon => [
  { x: x0 * IN, y: y0 * IN },
  { x: x1 * IN, y: y0 * IN },
  { x: x1 * IN, y: y1 * IN },
  { x: x0 * IN, y: y1 * IN },
];
const table = (pieces: TerrainPiece[] = []): NeTable => ({ width: 96 * IN, height: 72 * IN, pieces });
const OPEN = table();
const frontEdgeCentre = (b: Body): Vec => {
  const [l, r] = frontEdge(b);
  return { x: Math.round((l.x + r.x) / 2), y: Math.round((l.y + r.y) / 2) };
};

describe('footprints (§2.3-2.4, A-4)', () => {
  it('[p.8] the firing example: 20 figures of three-rank infantry in line are 20 × 3/8" = 7.5" by 1/2"', () => {
    expect(layout({ ...line3(20), at: at(0, 0) })).toEqual({ w: 750, d: 50, front: 20 });
  });
  it('[p.14] example (ii): 12 three-rank figures in column have 4 in the first rank: 1.5" × 1.5"', () => {
    expect(layout({ ...col3(12), at: at(0, 0) })).toEqual({ w: 150, d: 150, front: 4 });
    expect(layout({ ...col3(12), columnFront: 6, at: at(0, 0) })).toEqual({ w: 225, d: 100, front: 6 });
  });
  it('two-rank line, road column, supported line [p.24], square [p.14]', () => {
    expect(layout({ ...line2(10), at: at(0, 0) })).toEqual({ w: 500, d: 50, front: 10 });
    expect(layout({ ...line2(20), formation: 'roadColumn', at: at(0, 0) })).toEqual({ w: 100, d: 500, front: 2 });
    expect(layout({ ...line2(20), formation: 'supportedLine', at: at(0, 0) })).toEqual({ w: 500, d: 100, front: 10 });
    // 24 figures: side ceil(24/4) × 1/2" = 3"; fires N/8 = 3 per face
    expect(layout({ ...line2(24), formation: 'square', at: at(0, 0) })).toEqual({ w: 300, d: 300, front: 3 });
    // a tiny square is never under 1"
    expect(layout({ ...line2(4), formation: 'square', at: at(0, 0) }).w).toBe(IN);
  });
  it('[p.18] a skirmish screen of 12 figures needs 24" of frontage', () => {
    expect(layout({ ...line2(12), formation: 'skirmish', at: at(0, 0) })).toEqual({ w: 2400, d: 50, front: 12 });
  });
  it('cavalry: 3/4" a figure and 1" deep; column ceil(N/4) wide; echelon as line (A-4)', () => {
    expect(layout({ ...cav('line', 8), at: at(0, 0) })).toEqual({ w: 600, d: 100, front: 8 });
    expect(layout({ ...cav('column', 12), at: at(0, 0) })).toEqual({ w: 225, d: 400, front: 3 });
    expect(layout({ ...cav('echelon', 8), at: at(0, 0) })).toEqual(layout({ ...cav('line', 8), at: at(0, 0) }));
  });
  it('[p.3] artillery: 6 guns on 2 bases 1" × 1.5"; massed two deep [p.10]; limbered in file', () => {
    const guns = (formation: Body['formation'], figures: number) => ({
      troop: 'artillery' as const,
      formation,
      figures,
    });
    expect(layout({ ...guns('unlimbered', 6), at: at(0, 0) })).toEqual({ w: 200, d: 150, front: 6 });
    expect(layout({ ...guns('massed', 8), at: at(0, 0) })).toEqual({ w: 200, d: 300, front: 8 });
    expect(layout({ ...guns('limbered', 6), at: at(0, 0) })).toEqual({ w: 100, d: 600, front: 0 });
  });
  it('§3.1 the position is the front-centre: the footprint lies behind it, turned with the facing', () => {
    const u: Body = { ...line2(10), at: at(10, 10, 90) }; // facing east
    expect(rectOf(u)).toMatchObject({ x: 975, y: 1000, w: 500, d: 50, h: 90 });
    expect(centreOf(u)).toEqual({ x: 975, y: 1000 });
    expect(bearing(-10)).toBe(350);
    expect(bearing(22.5 + 360)).toBe(22.5);
  });
  it('[p.7] refused flank: up to ¼ of the figures (rounded up) turned back 90° at one end, an L', () => {
    const u: Body = { ...line2(20), formation: 'refusedFlank', refused: { side: 'left' }, at: at(10, 10) };
    const [main, refused] = parts(u);
    expect(main!.front).toBe(15);
    expect(refused!.front).toBe(5);
    expect(refused!.rect.h).toBe(270); // faces the left flank
    expect(refused!.rect.w).toBe(250);
    const poly = footprint(u);
    expect(poly).toHaveLength(6);
    // the refused part is outside the main part's left flank, level with its front
    expect(
      polygonsOverlap(
        rectCorners(main!.rect),
        rectCorners({ ...refused!.rect, w: refused!.rect.w - 2, d: refused!.rect.d - 2 }),
      ),
    ).toBe(false);
    expect(Math.min(...poly.map((p) => p.x))).toBeCloseTo(1000 - 375 - 50);
    const right = footprint({ ...u, refused: { side: 'right', figures: 2 } });
    expect(Math.max(...right.map((p) => p.x))).toBeCloseTo(1000 + 450 + 50);
  });
});

describe('formation and facing changes ([p.7], §2.4, A-3, A-30)', () => {
  const column: Body = { ...col3(12), at: at(20, 20) };
  it('to the front: the front-centre and facing are kept; a square’s front face is centred there; losses shrink in place', () => {
    const l = reform(column, 'line');
    expect(l.at).toEqual(column.at);
    expect(footprint(l)[0]).toEqual({ x: 2000 - 225, y: 2000 });
    const sq = reform(column, 'square');
    expect(frontEdgeCentre(sq)).toEqual({ x: 2000, y: 2000 });
    const fewer = { ...l, figures: 10 };
    expect(footprint(fewer).every((p) => p.x >= 2000 - 225 - 1e-9 && p.x <= 2000 + 225 + 1e-9)).toBe(true);
  });
  it('line on the flank runs from the column’s front corner outward', () => {
    const left = reform(column, 'line', { flank: 'left' }); // the column's front-left corner is at x = 19.25"
    const fp = footprint(left);
    expect(Math.max(...fp.map((p) => p.x))).toBeCloseTo(1925);
    expect(Math.min(...fp.map((p) => p.x))).toBeCloseTo(1925 - 450);
    expect(left.at.facing).toBe(0);
  });
  it('limbering to the rear: the column faces about from the battery’s rear edge', () => {
    const bat: Body = { troop: 'artillery', formation: 'unlimbered', figures: 6, at: at(20, 20) };
    const lim = reform(bat, 'limbered', { rear: true });
    expect(lim.at).toEqual({ x: 2000, y: 1850, facing: 180 });
  });
  it('A-30 pivots: about the front-centre, or wheeling on a front corner that stays put', () => {
    const l: Body = { ...line2(10), at: at(20, 20) }; // 5" wide
    expect(pivot(l, 10).at).toEqual({ x: 2000, y: 2000, facing: 10 });
    const w = pivot(l, 90, 'left'); // turning right on its left corner: the right end swings back, facing east
    expect(w.at).toEqual({ x: 1750, y: 1750, facing: 90 });
    expect(footprint(w)[0]).toEqual(
      expect.objectContaining({ x: expect.closeTo(1750, 6), y: expect.closeTo(2000, 6) }),
    );
    const r = pivot(l, -45, 'right');
    // turning left on its right corner: the left end swings back; the corner stays (to the rounding of the position)
    expect(Math.abs(footprint(r)[1]!.x - 2250)).toBeLessThan(1);
    expect(Math.abs(footprint(r)[1]!.y - 2000)).toBeLessThan(1);
  });
});

describe('arcs (§3.3, A-11)', () => {
  const u: Body = { ...line2(10), at: at(20, 20) }; // 5" wide, facing north, front edge y = 20"
  it('front and rear between 45° rays from the corners, flanks the rest', () => {
    expect(arcOf(u, { x: 2000, y: 3000 })).toBe('front');
    expect(arcOf(u, { x: 2000 + 250 + 900, y: 2000 + 1000 })).toBe('front'); // 9" out at 10" ahead: inside 45°
    expect(arcOf(u, { x: 2000 + 250 + 1100, y: 2000 + 1000 })).toBe('right');
    expect(arcOf(u, { x: 1000, y: 2000 })).toBe('left');
    expect(arcOf(u, { x: 2000, y: 1000 })).toBe('rear');
  });
  it('a square is all front; a point facing the refused part is in front (a frontal charge on it)', () => {
    expect(arcOf({ ...u, formation: 'square', figures: 24 }, { x: 2000, y: 1000 })).toBe('front');
    const r: Body = { ...line2(20), formation: 'refusedFlank', refused: { side: 'left' }, at: at(20, 20) };
    expect(arcOf(r, { x: 1000, y: 1980 })).toBe('front');
    expect(arcOf(r, { x: 3500, y: 1980 })).toBe('right');
  });
});

describe('fire arc, bearing figures and range (§6.4.2-6.4.4, A-12, A-38)', () => {
  const firer = unit('A', line3(20), at(20, 10), 'firer');
  // the p.8 example: a column 4" in front, facing the firer (front edge 4" ahead)
  const column = unit('B', col3(12), at(20, 14, 180), 'column');
  it('[p.8] firing example: the column is in the 22.5° arc at 4", the medium band (−1)', () => {
    expect(inFireArc(firer, column)).toBe(true);
    const figs: FiringFigure[] = firingFigures(firer);
    expect(figs).toHaveLength(20); // the front rank, 3/8" each
    expect(figs[0]!.b.x - figs[0]!.a.x).toBeCloseTo(37.5);
    const b = bearingFigures(OPEN, [firer, column], firer, column, maxRange(OPEN, firer, 'musket'));
    expect(b!.range).toBe(400);
    expect(bandOf('musket', b!.range)).toBe('medium');
    // the end figure at each end of the 7.5" line does not reach the 1.5" column in its own arc
    expect(b!.figures).toBe(18);
    // the book's example fires all 20 figures: the whole front rank once the target is in the arc
    expect(bearingFigures(OPEN, [firer, column], firer, column, 800, true)!.figures).toBe(20);
  });
  it('[p.9] range bands: a range on a limit is in that band; the 12lb reaches 64"', () => {
    expect(bandOf('musket', 200)).toBe('close');
    expect(bandOf('musket', 401)).toBe('long');
    expect(bandOf('musket', 801)).toBeNull();
    expect(bandOf('12lb', 6400)).toBe('extreme');
    expect(bandOf('carbine', 500)).toBeNull();
  });
  it('A-12 solid shot measures from the centre of the front edge to the point of aim', () => {
    const bat = unit('A', { troop: 'artillery', formation: 'unlimbered', figures: 6 }, at(10, 10));
    expect(solidShotRange(bat, { x: 1000, y: 3000 })).toBe(2000);
    expect(bandOf('6lb', solidShotRange(bat, { x: 1000, y: 3000 }))).toBe('long');
  });
  it('a target off to the side is out of the arc; a friend in the way stops the figures behind it [p.8]', () => {
    const wide = unit('B', col3(12), at(34, 14, 180));
    expect(inFireArc(firer, wide)).toBe(false);
    const friend = unit('A', { ...line3(8), formation: 'column', columnFront: 8 }, at(20, 12)); // 3" wide, 2" ahead
    const b = bearingFigures(OPEN, [firer, column, friend], firer, column, 800);
    expect(b!.figures).toBeLessThan(18);
  });
  it('[p.14] a square fires N/8 from the face toward the target; every face is a front', () => {
    const sq = unit('A', { ...line2(24), formation: 'square' }, at(20, 10), 'sq'); // 3" a side, 3 a face
    const south = unit('B', col3(12), at(20, 3), 'south'); // 3.5" behind its front face, 4" ahead of its rear face
    expect(inFireArc(sq, south)).toBe(true);
    expect(bearingFigures(OPEN, [sq, south], sq, south, 800)).toEqual({ figures: 3, range: 400 });
  });
  it('A-12 distances: edge to edge; command distance to the footprint centre', () => {
    expect(unitDistance(firer, column)).toBe(400);
    expect(commandDistance({ x: 2000, y: 0 }, firer)).toBeCloseTo(975);
  });
  it('[p.19] the range inside woods is at most 4" (light) or 2" (dense)', () => {
    const t = table([{ type: 'woods', id: 'w', polygon: box(0, 0, 40, 12), dense: false }]);
    expect(maxRange(t, firer, 'musket')).toBe(400);
    expect(maxRange(OPEN, firer, 'rifle')).toBe(1200);
  });
});

describe('the mandatory target (§6.4.3, A-40)', () => {
  const firer = unit('A', line2(20), at(20, 10), 'f');
  const near = unit('B', col3(12), at(20, 14, 180), 'near'); // 4"
  const far = unit('B', line3(12), at(22, 16, 180), 'far'); // 6"
  const screen = unit('B', { ...line2(2), formation: 'skirmish' }, at(20, 12, 180), 'screen'); // 2", 4" wide
  it('the nearest eligible non-skirmisher, ignoring a nearer screen (fire passes through enemy screens)', () => {
    const all = [firer, near, far, screen];
    expect(fireTargets(OPEN, all, firer, 'musket').map((x) => x.id)).toEqual(['screen', 'near', 'far']);
    expect(mandatoryTargets(OPEN, all, firer, 'musket').map((x) => x.id)).toEqual(['near']);
  });
  it('ties within 0.25" are the owner’s choice; screens only when nothing else; none into close actions', () => {
    const twin = unit('B', col3(12), at(16, 14.2, 180), 'twin');
    expect(
      mandatoryTargets(OPEN, [firer, near, twin], firer, 'musket')
        .map((x) => x.id)
        .sort(),
    ).toEqual(['near', 'twin']);
    expect(mandatoryTargets(OPEN, [firer, screen], firer, 'musket').map((x) => x.id)).toEqual(['screen']);
    const locked = { ...near, inCloseAction: true };
    expect(mandatoryTargets(OPEN, [firer, locked, far], firer, 'musket').map((x) => x.id)).toEqual(['far']);
  });
});

describe('terrain (§3.5, A-14, A-15)', () => {
  const t = table([
    { type: 'hill', id: 'h1', polygon: box(0, 0, 30, 30), level: 1, slope: 'steep' },
    { type: 'hill', id: 'h2', polygon: box(5, 5, 15, 15), level: 2 },
    { type: 'woods', id: 'lw', polygon: box(40, 0, 60, 20), dense: false },
    { type: 'woods', id: 'dw', polygon: box(40, 30, 60, 50), dense: true },
    { type: 'mud', id: 'm', polygon: box(70, 0, 80, 10) },
    {
      type: 'wall',
      id: 'wall',
      points: [
        { x: 7000, y: 3000 },
        { x: 9000, y: 3000 },
      ],
    },
    { type: 'block', id: 'b1', x: 8200, y: 6000, brickOrStone: true },
    { type: 'block', id: 'b2', x: 8600, y: 6000, brickOrStone: false },
  ]);
  it('A-17 ground levels: nested hills stack', () => {
    expect(groundLevel(t, { x: 1000, y: 1000 })).toBe(2);
    expect(groundLevel(t, { x: 2500, y: 2500 })).toBe(1);
    expect(groundLevel(t, { x: 3500, y: 2500 })).toBe(0);
  });
  it('[p.6, p.19] multipliers: steep ¾, light woods ¾ infantry ½ cavalry, dense woods bars cavalry, mud ½', () => {
    const sq = (x: number, y: number) => rectCorners({ x: x * IN, y: y * IN, w: 100, d: 100, h: 0 });
    expect(moveMultiplier(t, 'infantry', sq(20, 20))).toBe(0.75);
    expect(moveMultiplier(t, 'cavalry', sq(50, 10))).toBe(0.5);
    expect(moveMultiplier(t, 'cavalry', sq(50, 40))).toBe(0);
    expect(moveMultiplier(t, 'artillery', sq(75, 5))).toBe(0.5);
    expect(moveMultiplier(t, 'infantry', sq(35, 60))).toBe(1);
  });
  it('A-14 the allowance is spent at 1/m an inch once the footprint touches: 2" open then 4" × ¾ = 5" of 6"', () => {
    const u: Body = { ...line2(4), at: at(50, 22, 180) }; // 2" short of the light woods, facing south into them
    expect(terrainReach(t, u, 180, 600)).toBe(500);
    expect(terrainReach(t, u, 0, 600)).toBe(600);
  });
  it('the terrain a footprint touches and the terrain its centre is in (A-15 "in woods")', () => {
    const u: Body = { ...line2(8), at: at(41, 10) }; // 4" wide, half in the light woods
    const under = terrainUnder(t, footprint(u));
    expect(under.touches.map((p) => p.id)).toEqual(['lw']);
    expect(under.centreIn.map((p) => p.id)).toEqual(['lw']);
    expect(terrainUnder(t, footprint({ ...u, at: at(38.5, 10) })).centreIn).toEqual([]);
  });
  it('[p.19] 4" blocks: lookup and orthogonal adjacency', () => {
    expect(blockAt(t, { x: 8300, y: 6100 })?.id).toBe('b1');
    expect(blockAt(t, { x: 9000, y: 6000 })).toBeUndefined();
    expect(blocksAdjacent({ x: 8200, y: 6000 }, { x: 8600, y: 6000 })).toBe(true);
    expect(blocksAdjacent({ x: 8200, y: 6000 }, { x: 8600, y: 6400 })).toBe(false);
  });
  it('A-15 behind a wall within 1" when the line of fire crosses it; in woods by the centre; buildings', () => {
    const behind: Body = { ...line2(4), at: at(80, 29, 0) }; // front edge 1" south of the wall... facing north
    expect(coverFrom(t, behind, { x: 8000, y: 4000 })).toBe('walls');
    expect(coverFrom(t, behind, { x: 8000, y: 1000 })).toBe('none');
    expect(coverFrom(t, { ...line2(4), at: at(50, 10) }, { x: 0, y: 0 })).toBe('lightWoods');
    expect(coverFrom(t, { ...line2(4), formation: 'column', at: at(82, 61) }, { x: 0, y: 0 })).toBe('buildings');
  });
  it('A-14 A-29 roads: 1/2" either side of the line; a path on the road; the terrain a path crosses', () => {
    const r = table([
      {
        type: 'road',
        id: 'rd',
        points: [
          { x: 0, y: 1000 },
          { x: 9600, y: 1000 },
        ],
      },
      { type: 'mud', id: 'm', polygon: box(30, 0, 40, 20) },
    ]);
    expect(onRoad(r, { x: 500, y: 1040 })).toBe(true);
    expect(onRoad(r, { x: 500, y: 1060 })).toBe(false);
    expect(pathOnRoad(r, { x: 500, y: 1000 }, { x: 1500, y: 1000 })).toBe(true);
    expect(pathOnRoad(r, { x: 500, y: 1000 }, { x: 1500, y: 1200 })).toBe(false);
    const col: Body = { ...line2(8), formation: 'roadColumn', at: at(25, 10, 90) };
    expect(pathUnder(r, col, { ...col, at: at(35, 10, 90) }).map((p) => p.id)).toEqual(['rd', 'm']);
    expect(terrainReach(r, col, 90, 1000)).toBeLessThan(1000);
    expect(terrainReach(r, col, 90, 1000, pathOnRoad(r, { x: 2500, y: 1000 }, { x: 3500, y: 1000 }))).toBe(1000);
  });
  it('crossings of a path: rivers, bridges, walls, hedges', () => {
    const from: Body = { ...line2(4), at: at(80, 28) };
    const to: Body = { ...line2(4), at: at(80, 32) };
    expect(pathCrossings(t, from, to).walls).toEqual(['wall']);
    const r = table([
      {
        type: 'river',
        id: 'r',
        points: [
          { x: 0, y: 1300 },
          { x: 9600, y: 1300 },
        ],
        crossable: true,
        actionsToCross: 2,
        disorders: true,
      },
      { type: 'bridge', id: 'br', polygon: box(19, 12, 21, 14), capacity: 8 },
      {
        type: 'hedge',
        id: 'hg',
        points: [
          { x: 0, y: 1500 },
          { x: 9600, y: 1500 },
        ],
      },
    ]);
    const col: Body = { ...line2(8), formation: 'roadColumn', at: at(20, 11) };
    expect(pathCrossings(r, col, { ...col, at: at(20, 16) })).toEqual({
      rivers: ['r'],
      bridges: ['br'],
      walls: [],
      hedges: ['hg'],
    });
    const behind: Body = { ...line2(4), at: at(20, 14.6, 180) }; // facing south, just behind the hedge (to the south)
    expect(coverFrom(r, behind, { x: 2000, y: 2500 })).toBe('hedges');
  });
});

describe('levels and line of sight (§3.6 [p.8], A-17)', () => {
  // the observer on a level-1 hill, a blocking line at ground level 10" away (X = 10"): blind for 10" beyond it
  const hill: TerrainPiece = { type: 'hill', id: 'h', polygon: box(0, 0, 40, 6), level: 1 };
  const obs = unit('A', col3(12), at(20, 5), 'obs'); // front edge at y = 5", centre on the hill
  const blocker = unit('B', line3(40), at(20, 15.5), 'blocker'); // 15" wide, y 15"..15.5"
  const hidden = unit('B', col3(12), at(20, 24, 180), 'hidden'); // 8.5" behind: y 24"..25.5"
  const seen = unit('B', col3(12), at(20, 27, 180), 'seen'); // 11.5" behind
  it('[p.8] example: from a level-1 hill past a ground-level unit 10" away, blind for 10" (B = X)', () => {
    const t = table([hill]);
    expect(unitLevel(t, obs)).toBe(1);
    expect(unitLevel(t, blocker)).toBe(0);
    // one sight line straight down the middle: X = 10" (5" to 15"), the far side at 15.5", blind to 25.5"
    const line = (yIn: number) =>
      sightBetween(t, [obs, blocker], obs, hidden, { x: 2000, y: 500 }, { x: 2000, y: yIn * IN });
    expect(line(25)).toBe(false);
    expect(line(26)).toBe(true);
    expect(canSee(t, [obs, blocker, hidden], obs, hidden)).toBe(false);
    expect(canSee(t, [obs, blocker, seen], obs, seen)).toBe(true);
    // (the hidden unit is itself a level-one feature: with it on the table, the one behind is in its blind spot)
    expect(canSee(t, [obs, blocker, hidden, seen], obs, seen)).toBe(false);
  });
  it('[p.8] at the same level the unit blocks; two levels up the blind spot halves (A = X/2)', () => {
    const all = [obs, blocker, hidden, seen];
    expect(canSee(OPEN, all, obs, seen)).toBe(false);
    const two = table([{ ...hill, level: 2 } as TerrainPiece]);
    const mid = unit('B', col3(12), at(20, 22, 180), 'mid'); // 6.5"-8" behind; X/2 = 5"
    expect(canSee(two, [...all, mid], obs, mid)).toBe(true);
  });
  it('[p.8] skirmishers and unlimbered artillery do not block sight', () => {
    const troops: Troop[] = ['twoRankInfantry', 'cavalry'];
    for (const troop of troops)
      expect(blocksSight({ troop, formation: 'skirmish', figures: 4, at: at(0, 0) })).toBe(false);
    expect(blocksSight({ troop: 'artillery', formation: 'limbered', figures: 6, at: at(0, 0) })).toBe(true);
    const screen = { ...blocker, formation: 'skirmish' as const, figures: 8 };
    expect(canSee(OPEN, [obs, screen, seen], obs, seen)).toBe(true);
    const guns = unit('B', { troop: 'artillery', formation: 'unlimbered', figures: 6 }, at(20, 15.5));
    expect(canSee(OPEN, [obs, guns, seen], obs, seen)).toBe(true);
  });
  it('A-17 step 5: woods are seen into up to 4" (light); deeper they block like a level-one feature', () => {
    const t = table([{ type: 'woods', id: 'w', polygon: box(0, 20, 40, 40), dense: false }]);
    expect(canSee(t, [obs, hidden], obs, hidden)).toBe(true); // its near edge 4" in
    const deep = unit('B', col3(12), at(20, 27, 180));
    expect(canSee(t, [obs, deep], obs, deep)).toBe(false);
  });
  it('[p.19-20] a building block hides what is behind it, not the troops in it', () => {
    const t = table([{ type: 'block', id: 'b', x: 2000, y: 2000, brickOrStone: true }]);
    const inside = unit('B', col3(12), at(20, 20.75, 180), 'in'); // centred in the block
    expect(canSee(t, [obs, inside], obs, inside)).toBe(true);
    const behindIt = unit('B', col3(12), at(20, 30, 180));
    expect(canSee(t, [obs, behindIt], obs, behindIt)).toBe(false);
  });
  it('A-17 a hill between two units below it blocks; with a ridge line, the crest does', () => {
    const low = unit('A', col3(12), at(20, 2), 'low'); // off the hill
    const t = table([{ type: 'hill', id: 'h', polygon: box(10, 10, 30, 12), level: 1 }]);
    expect(canSee(t, [low, seen], low, seen)).toBe(false);
    const r = table([
      {
        type: 'hill',
        id: 'h',
        polygon: box(0, 20, 40, 40),
        level: 1,
        ridges: [
          [
            { x: 0, y: 3000 },
            { x: 4000, y: 3000 },
          ],
        ],
      },
    ]);
    const foot = unit('B', col3(12), at(20, 45, 180)); // on the ground beyond the hill
    const slope = unit('B', col3(12), at(20, 26, 180)); // on the near slope
    expect(canSee(r, [low, foot], low, foot)).toBe(false);
    expect(canSee(r, [low, slope], low, slope)).toBe(true);
    // A-17 literally: a unit on the hill beyond the crest (level 1, above the crest's base) sees, and is seen from,
    // the ground outside its blind zone (X = its 4" to the crest): there is no reverse slope in a level model
    const beyond = unit('B', col3(12), at(20, 34, 180));
    expect(canSee(r, [low, beyond], low, beyond)).toBe(true);
  });
});

describe('overhead fire (§3.7 [p.8])', () => {
  const hill: TerrainPiece = { type: 'hill', id: 'h', polygon: box(0, 0, 40, 6), level: 2 };
  const bat = unit('A', { troop: 'artillery', formation: 'unlimbered', figures: 6 }, at(20, 5), 'bat');
  const friend = unit('A', line3(16), at(20, 8.5), 'friend'); // 3" ahead at ground level
  const target = unit('B', col3(12), at(20, 30, 180), 'target');
  const from: Vec = { x: 2000, y: 500 };
  const to: Vec = { x: 2000, y: 3000 };
  it('no fire through friends; solid shot passes over them with a clear line of sight (height)', () => {
    const t = table([hill]);
    const all = [bat, friend, target];
    expect(lineOfFireClear(t, all, bat, target, from, to)).toBe(false);
    expect(lineOfFireClear(t, all, bat, target, from, to, true)).toBe(true);
    expect(lineOfFireClear(OPEN, all, bat, target, from, to, true)).toBe(false);
  });
  it('enemy units are no bar to the line of fire (only to sight)', () => {
    const enemy = { ...friend, side: 'B' };
    expect(lineOfFireClear(OPEN, [bat, enemy, target], bat, target, from, to)).toBe(true);
  });
});

describe('move menus (§6.3.2, A-9, §6.3.10)', () => {
  const mover = unit('A', line2(8), at(20, 10), 'm'); // 4" wide
  it('[p.6-7] straight and 22.5° oblique, after the free 10° turn: a finite menu of ends', () => {
    const ends = moveMenu(OPEN, [mover], mover, { allowance: 400, freeTurn: true });
    const full = ends.filter((e) => e.distance === 400);
    expect(full).toHaveLength(9);
    const ahead = full.find((e) => e.turn === 0 && e.oblique === 0)!;
    expect(ahead.at).toEqual({ x: 2000, y: 1400, facing: 0 });
    const oblique = full.find((e) => e.turn === 0 && e.oblique === 22.5)!;
    expect(oblique.at).toEqual({ x: 2153, y: 1370, facing: 0 }); // facing kept
    expect(full.find((e) => e.turn === 10 && e.oblique === 0)!.at.facing).toBe(10);
    expect(ends.some((e) => e.distance === 100)).toBe(true); // ¼ of it
  });
  it('A-9 stops 1" short of formed enemy; a screen is no stand-off for formed troops', () => {
    const enemy = unit('B', line2(8), at(20, 13.5, 180)); // 3.5" ahead
    const ends = moveMenu(OPEN, [mover, enemy], mover, { allowance: 400 });
    expect(Math.max(...ends.filter((e) => e.oblique === 0).map((e) => e.distance))).toBe(250);
    const screen = unit('B', { ...line2(2), formation: 'skirmish' }, at(20, 13.5, 180));
    const past = moveMenu(OPEN, [mover, screen], mover, { allowance: 400 });
    // it may not run through the enemy screen, but may come up to it (to the 1/4" step short of touching)
    expect(Math.max(...past.filter((e) => e.oblique === 0).map((e) => e.distance))).toBe(325);
  });
  it('§6.3.10 formed troops pass through friends (both disordered) but never end on them; screens go around', () => {
    const friend = unit('A', line2(8), at(20, 12.5), 'friend'); // 2" ahead, 1/2" deep
    const ends = moveMenu(OPEN, [mover, friend], mover, { allowance: 400 }).filter((e) => e.oblique === 0);
    const full = ends.find((e) => e.distance === 400)!;
    expect(full.through).toEqual(['friend']);
    expect(ends.every((e) => e.distance <= 200 || e.distance >= 300)).toBe(true);
    const scr = unit('A', { ...line2(2), formation: 'skirmish' }, at(20, 10), 's');
    const sEnds = moveMenu(OPEN, [scr, friend], scr, { allowance: 400 });
    expect(Math.max(...sEnds.map((e) => e.distance))).toBeLessThanOrEqual(200);
    expect(new Set(sEnds.map((e) => e.oblique))).toEqual(new Set([0])); // [p.19] forward or back only
  });
  it('[p.7] fall back and sidestep keep the facing', () => {
    const back = moveMenu(OPEN, [mover], mover, { allowance: 200, kind: 'back', fractions: [1] });
    expect(back.map((e) => e.at)).toEqual([{ x: 2000, y: 800, facing: 0 }]);
    const right: MoveKind = 'right';
    const side = moveMenu(OPEN, [mover], mover, { allowance: 200, kind: right, fractions: [1] });
    expect(side.map((e) => e.at)).toEqual([{ x: 2200, y: 1000, facing: 0 }]);
  });
  it('[p.6] 6.3.8 a river stops a line; a column crosses on the bridge; blocks are not entered by a move', () => {
    const t = table([
      {
        type: 'river',
        id: 'r',
        points: [
          { x: 0, y: 1300 },
          { x: 9600, y: 1300 },
        ],
        crossable: true,
        actionsToCross: 2,
        disorders: true,
      },
      { type: 'bridge', id: 'br', polygon: box(19, 12, 21, 14), capacity: 8 },
    ]);
    const ends = moveMenu(t, [mover], mover, { allowance: 600 }).filter((e) => e.oblique === 0);
    expect(Math.max(...ends.map((e) => e.distance))).toBeLessThan(300);
    const column = unit('A', { ...line2(8), formation: 'roadColumn' }, at(20, 10), 'rc'); // 1" wide, 2" deep
    const over = moveMenu(t, [column], column, { allowance: 600 }).filter((e) => e.oblique === 0);
    expect(Math.max(...over.map((e) => e.distance))).toBe(600);
    const town = table([{ type: 'block', id: 'b', x: 2000, y: 1500, brickOrStone: false }]);
    const stop = moveMenu(town, [mover], mover, { allowance: 600 }).filter((e) => e.oblique === 0);
    expect(Math.max(...stop.map((e) => e.distance))).toBe(275); // the block's edge is 3" ahead: a 1/4" step short
  });
});

describe('charges and contact (§6.6.2, A-54, [p.14] partial contact)', () => {
  const target = unit('B', line2(20), at(20, 30, 180), 'target'); // 10" wide, front edge y = 30"
  it('straight ahead to the front: distance to first contact, full contact', () => {
    const c = unit('A', cav('line', 8), at(20, 20), 'cav'); // 6" wide
    const all = [c, target];
    const r = chargeContacts(OPEN, all, c, target, 1300).find((x) => x.turn === 0)!;
    expect(r.distance).toBe(1000);
    expect(r.face).toBe('front');
    expect(r.arc).toBe('front');
    expect(r.at).toEqual({ x: 2000, y: 3000, facing: 0 });
    expect(r.overlap).toBe(600);
    expect(r.full).toBe(true);
    expect(chargeContacts(OPEN, all, c, target, 900)).toEqual([]); // out of reach
  });
  it('the free turn ≤10°, and only within it: the corridor', () => {
    const c = unit('A', cav('line', 4), at(26.6, 20)); // 3" wide, 25.1"..28.1": just clear of the target's end at 25"
    const rs = chargeContacts(OPEN, [c, target], c, target, 1400);
    expect(rs.length).toBeGreaterThan(0);
    expect(rs.every((x) => x.turn < 0)).toBe(true);
    // angle contact: conformed flush with the front, facing it squarely
    expect(rs.every((x) => x.at.facing === 0 && x.at.y === 3000)).toBe(true);
    const wide = unit('A', cav('line', 4), at(50, 20));
    expect(chargeContacts(OPEN, [wide, target], wide, target, 1400)).toEqual([]);
  });
  it('A-54 slides to the centre of the overlap; kept at first contact if that would overlap another unit (partial, −10)', () => {
    const c = unit('A', cav('line', 8), at(27, 20), 'cav'); // spans 24"..30"; the target 15"..25"
    const r = chargeContacts(OPEN, [c, target], c, target, 1300).find((x) => x.turn === 0)!;
    expect(r.at.x).toBe(2450); // the overlap 24"..25" has its centre at 24.5"
    expect(r.overlap).toBe(350);
    expect(r.full).toBe(true);
    // a unit beside the target (25"..33"): the slide would overlap it, so the cavalry stays where it struck, with 1"
    // of its 6" against the 10" front: partial contact
    const neighbour = unit('B', line2(8), at(29, 30, 180), 'n');
    const kept = chargeContacts(OPEN, [c, target, neighbour], c, target, 1300).find((x) => x.turn === 0)!;
    expect(kept.conformed).toBe(false);
    expect(kept.at).toEqual({ x: 2700, y: 3000, facing: 0 });
    expect(kept.overlap).toBe(100);
    expect(kept.full).toBe(false);
    // a unit in the way short of the target: no charge that way
    const between = unit('B', line2(4), at(28, 25, 180), 'between');
    expect(chargeContacts(OPEN, [c, target, between], c, target, 1300).filter((x) => x.turn === 0)).toEqual([]);
  });
  it('[p.14] ½ or more of either frontage in contact is full engagement', () => {
    expect(fullContact(300, 600, 1000)).toBe(true); // half the charger's
    expect(fullContact(250, 600, 500)).toBe(true); // half the defender's side
    expect(fullContact(250, 600, 1000)).toBe(false);
  });
  it('[p.14] full contact with ½ of the charger’s own frontage against a wider line', () => {
    const wideTarget = unit('B', line2(40), at(20, 30, 180), 'wt'); // 20"
    const big = unit('A', cav('line', 16), at(20, 20)); // 12"
    const r = chargeContacts(OPEN, [big, wideTarget], big, wideTarget, 1300).find((x) => x.turn === 0)!;
    expect(r.full).toBe(true);
  });
  it('A-11 the arc is where the charger’s centre was at the start: a flank charge strikes the flank', () => {
    const t2 = unit('B', line2(20), at(20, 30, 90), 'east'); // faces east; its left flank is to the north
    const c = unit('A', cav('column', 8), at(19.75, 40, 180), 'c'); // north of it, over its depth
    const r = chargeContacts(OPEN, [c, t2], c, t2, 1300).find((x) => x.turn === 0)!;
    expect(r.arc).toBe('left');
    expect(attackArc(t2, c)).toBe('left');
    const face: Face = r.face;
    expect(face).toBe('left');
    expect(r.at.facing).toBe(180);
  });
  it('[p.15] the counter-charge zone: straight ahead within 10°', () => {
    const c = unit('A', cav('line', 8), at(20, 20));
    expect(inCounterChargeZone(c, { ...line2(4), at: at(20, 30) }, 1400)).toBe(true);
    expect(inCounterChargeZone(c, { ...line2(4), at: at(30, 25) }, 1400)).toBe(false);
  });
});

describe('ride-downs: the geometry ([p.14-15] §6.6.5, A-32)', () => {
  const ahead = { x: 2000, y: 2500 };
  it('example 1: cavalry frontally charging a column rides it down', () => {
    expect(rideDown({ ...col3(12), at: at(20, 20) }, { ...cav('line', 8), at: at(20, 25, 180) }, ahead)).toEqual({
      case: 'column',
      protected: false,
    });
  });
  it('example 2: a line charged frontally holds with ≥ 1.5 infantry figures per cavalry figure, fractions to the cavalry', () => {
    const cv: Body = { ...cav('line', 8), at: at(20, 25, 180) };
    expect(rideDown({ ...line3(12), at: at(20, 20) }, cv, ahead).protected).toBe(true);
    expect(rideDown({ ...line3(11), at: at(20, 20) }, cv, ahead).protected).toBe(false);
    // 9 cavalry figures need 13.5: 13 infantry are not enough
    expect(rideDown({ ...line3(13), at: at(20, 20) }, { ...cv, figures: 9 }, ahead).protected).toBe(false);
  });
  it('example 3: half or more of the cavalry started outside the 45° front arc: ridden down', () => {
    const inf: Body = { ...line3(24), at: at(20, 20) }; // 9" wide
    const flank = { x: 2000 + 450 + 500, y: 2000 + 200 }; // 5" off the right end, 2" ahead: outside 45°
    expect(rideDown(inf, { ...cav('line', 8), at: at(0, 0) }, flank)).toEqual({
      case: 'outsideFrontArc',
      protected: false,
    });
    // the same cavalry as a body: its centre (half or more of it) outside the arc
    const cv: Body = { ...cav('line', 8), at: { x: flank.x, y: flank.y + 50, facing: 225 } };
    expect(inFrontArc(inf, cv)).toBe(false);
    expect(inFrontArc(inf, { ...cv, at: at(20, 25, 180) })).toBe(true);
  });
  it('squares hold; artillery is ridden down; a refused part charged counts as a line of k figures (A-32)', () => {
    const cv: Body = { ...cav('line', 4), at: at(0, 0) };
    expect(rideDown({ ...line3(24), formation: 'square', at: at(20, 20) }, cv, ahead).protected).toBe(true);
    expect(rideDown({ troop: 'artillery', formation: 'unlimbered', figures: 6, at: at(20, 20) }, cv, ahead).case).toBe(
      'artillery',
    );
    const refused: Body = { ...line3(24), formation: 'refusedFlank', refused: { side: 'left' }, at: at(20, 20) };
    // charged on the refused part (6 figures) from the left by 4 cavalry figures: 6 ≥ 6 holds
    expect(rideDown(refused, cv, { x: 1000, y: 1980 })).toEqual({ case: 'line', protected: true });
    expect(rideDown(refused, { ...cv, figures: 5 }, { x: 1000, y: 1980 }).protected).toBe(false);
  });
});

describe('enfilade ([p.14], A-63)', () => {
  it('examples (i)-(iii): 10 two-rank in line 30; 12 three-rank in column, 4 in front, 8; 9 three-rank in line 18', () => {
    expect(enfiladeOf({ ...line2(10), at: at(0, 0) })).toBe(30);
    expect(enfiladeOf({ ...col3(12), at: at(0, 0) })).toBe(8);
    expect(enfiladeOf({ ...line3(9), at: at(0, 0) })).toBe(18);
    expect(enfiladeOf({ troop: 'artillery', formation: 'unlimbered', figures: 6, at: at(0, 0) })).toBe(12);
  });
  it('example (iv): two columns with a combined 12 charge a line of 24 on its front: the line gets the +5', () => {
    const line: Body = { ...line3(12), at: at(20, 20) }; // 24
    const a = { id: 'a', body: { ...col3(9), at: at(19, 24, 180) }, start: { x: 1900, y: 2500 } }; // 3 in front: 6
    const b = { id: 'b', body: { ...col3(9), at: at(21, 24, 180) }, start: { x: 2100, y: 2500 } };
    const r = enfiladeContest(line, [a, b]);
    expect(r).toEqual({ combined: ['a', 'b'], attackers: 12, defender: 24, attackerBonus: false, defenderBonus: true });
  });
  it('A-63 a flank charger takes its +10 instead and stays out of the comparison', () => {
    const line: Body = { ...line3(12), at: at(20, 20) };
    const front = { id: 'f', body: { ...col3(9), at: at(20, 24, 180) }, start: { x: 2000, y: 2500 } };
    const flank = { id: 'k', body: { ...col3(30), at: at(10, 20, 90) }, start: { x: 900, y: 1950 } };
    expect(arcOf(line, flank.start)).toBe('left');
    expect(enfiladeContest(line, [front, flank]).combined).toEqual(['f']);
  });
});
