/** Age of Eagles geometry: footprints (A3), firing stands, arcs and sectors, ranges, sight, cover and distances (A4). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Polygon, type Vec, IN, fx, rectCorners } from '../../geometry/geometry.ts';
import { lineOfSight as terrainSight } from '../../geometry/terrain.ts';
import { type Scenario, type TerrainSpec, type UnitSpec, validateScenario } from './scenario.ts';
import {
  alongRoad,
  blockAt,
  buildTerrain,
  canSee,
  coverLevel,
  enfiladed,
  faceOf,
  fireRange,
  firingEdges,
  firingStands,
  flankCovered,
  footprint,
  inFrontArc,
  inheritGeometry,
  leaderDistance,
  leaderInReach,
  lineOfSight,
  moveCost,
  nearestDistanceToPoint,
  onRoad,
  pathOnRoad,
  poly,
  rangeBand,
  rangeTo,
  rectAt,
  roughAt,
  secureFlanks,
  unitDistance,
} from './shape.ts';
import type { Battery, Cavalry, CavFormation, Ctx, InfFormation, Infantry, Side, Unit } from './types.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'age-of-eagles');
function saintAubin(): Scenario {
  const v = validateScenario(JSON.parse(readFileSync(join(DIR, 'saint-aubin.json'), 'utf8')));
  if (!v.ok) throw new Error(JSON.stringify(v.problems));
  return v.value;
}
const SC = saintAubin();

function ctxOf(terrain: readonly TerrainSpec[]): Ctx {
  return {
    scenarioId: 't',
    width: 48 * IN,
    height: 48 * IN,
    turns: 8,
    ...buildTerrain(terrain),
    objectives: [],
    options: SC.options,
  };
}
const OPEN = ctxOf([]);

const base = {
  div: 'D',
  hits: 0,
  fpHits: 0,
  dis: false,
  changed: false,
  about: false,
  bua: '',
  gone: '',
  ordered: false,
  fired: false,
  broke: false,
  fought: false,
  checked: false,
} as const;
let n = 0;
/** Positions in inches, as in the digest. */
function inf(x: number, y: number, h: number, f: InfFormation, more: Partial<Infantry> = {}): Infantry {
  return {
    ...base,
    id: `i${n++}`,
    side: 0,
    k: 'inf',
    cls: 'Regular',
    ranks: 2,
    mm: 'Linear',
    light: f === 'OpenOrder',
    f,
    x: fx(x),
    y: fx(y),
    h,
    ...more,
  };
}
function cav(x: number, y: number, h: number, f: CavFormation, more: Partial<Cavalry> = {}): Cavalry {
  return {
    ...base,
    id: `c${n++}`,
    side: 0,
    k: 'cav',
    cls: 'Regular',
    wt: 'Light',
    lancers: false,
    cc: false,
    f,
    x: fx(x),
    y: fx(y),
    h,
    ...more,
  };
}
function bat(x: number, y: number, h: number, more: Partial<Battery> = {}): Battery {
  return {
    ...base,
    id: `b${n++}`,
    side: 0,
    k: 'bat',
    guns: 8,
    cal: 'Heavy',
    mob: 'Foot',
    limbered: false,
    damaged: false,
    x: fx(x),
    y: fx(y),
    h,
    ...more,
  };
}
const board = (ctx: Ctx, ...units: Unit[]) => ({ ctx, units });
/** A small square target (a point, nearly) at (x, y) inches. */
const dot = (x: number, y: number): Polygon => rectCorners({ x: fx(x), y: fx(y), w: 2, d: 2, h: 0 });
const P = (x: number, y: number): Vec => ({ x: fx(x), y: fx(y) });
const size = (u: Unit) => [footprint(u).w / IN, footprint(u).d / IN];

describe('footprints (A3, §3.1)', () => {
  it('infantry: stands 1" × 0.75" in each formation', () => {
    expect(size(inf(24, 24, 0, 'Line'))).toEqual([6, 0.75]);
    expect(size(inf(24, 24, 0, 'FieldColumn'))).toEqual([3, 1.5]);
    expect(size(inf(24, 24, 0, 'Masse'))).toEqual([2, 2.25]);
    expect(size(inf(24, 24, 0, 'MarchColumn'))).toEqual([1, 4.5]);
    expect(size(inf(24, 24, 0, 'OpenOrder'))).toEqual([8.5, 0.75]);
    expect(size(inf(24, 24, 0, 'Square'))).toEqual([2, 2.25]);
  });
  it('cavalry: stands 1" × 1"; a battery one gun stand 1" × 1.25", limbered or not', () => {
    expect(size(cav(24, 24, 0, 'Line'))).toEqual([4, 1]);
    expect(size(cav(24, 24, 0, 'FieldColumn'))).toEqual([2, 2]);
    expect(size(cav(24, 24, 0, 'MarchColumn'))).toEqual([1, 4]);
    expect(size(bat(24, 24, 0))).toEqual([1, 1.25]);
    expect(size(bat(24, 24, 0, { limbered: true }))).toEqual([1, 1.25]);
  });
  it('a unit in a BUA block occupies the 3" × 3" block, square to the table whatever its facing', () => {
    const u = inf(24, 24, 37, 'Line', { bua: 'mill' });
    expect(footprint(u)).toEqual({ x: 2400, y: 2400, w: 300, d: 300, h: 0 });
    expect(poly(u)).toHaveLength(4);
  });
  it('is centred on the unit and faces its heading; memoised per object; a copy that moved nothing inherits it', () => {
    const u = inf(10, 20, 90, 'Line');
    expect(footprint(u)).toEqual({ x: 1000, y: 2000, w: 600, d: 75, h: 90 });
    expect(footprint(u)).toBe(footprint(u));
    const v = { ...u, hits: 2 };
    inheritGeometry(u, v);
    expect(footprint(v)).toBe(footprint(u));
    const w = { ...u, f: 'Masse' as const };
    inheritGeometry(u, w);
    expect(footprint(w)).not.toBe(footprint(u));
    expect(footprint(w).w).toBe(200);
    expect(rectAt(u, 0, 0, 180, 'MarchColumn')).toEqual({ x: 0, y: 0, w: 100, d: 450, h: 180 });
  });
});

describe('firing stands (§3.1, A6)', () => {
  it('front rank per formation; squares and BUA occupants all six; a battery 1; cavalry none', () => {
    const counts = (['Line', 'FieldColumn', 'Masse', 'MarchColumn', 'OpenOrder', 'Square'] as const).map((f) =>
      firingStands(inf(24, 24, 0, f)),
    );
    expect(counts).toEqual([6, 3, 2, 1, 6, 6]);
    expect(firingStands(inf(24, 24, 0, 'MarchColumn', { bua: 'mill' }))).toBe(6);
    expect(firingStands(bat(24, 24, 0))).toBe(1);
    expect(firingStands(cav(24, 24, 0, 'Line'))).toBe(0);
  });
  it('firing edges: the front edge; Open Order its six stands without the gaps; a square its four edges', () => {
    expect(firingEdges(inf(24, 24, 0, 'Line'))).toHaveLength(1);
    const oo = firingEdges(inf(24, 24, 0, 'OpenOrder'));
    expect(oo).toHaveLength(6);
    expect(oo.map(([a, b]) => [Math.round(a.x), Math.round(b.x)])).toEqual([
      [1975, 2075],
      [2125, 2225],
      [2275, 2375],
      [2425, 2525],
      [2575, 2675],
      [2725, 2825],
    ]);
    expect(firingEdges(inf(24, 24, 0, 'Square'))).toHaveLength(4);
  });
});

describe('arcs and sectors (§3.2)', () => {
  // a Line facing north centred on (24, 24): front corners (21, 24.375) and (27, 24.375), rear at y 23.625
  const t = inf(24, 24, 0, 'Line');
  it('points either side of the 45° rays from the corners', () => {
    expect(faceOf(t, P(28, 25.475))).toBe('front'); // 1" out, 1.1" ahead of the front edge
    expect(faceOf(t, P(28, 25.275))).toBe('right'); // 1" out, 0.9" ahead
    expect(faceOf(t, P(20, 25.475))).toBe('front');
    expect(faceOf(t, P(20, 25.275))).toBe('left');
    expect(faceOf(t, P(28, 22.525))).toBe('rear'); // 1.1" behind the rear edge
    expect(faceOf(t, P(28, 22.725))).toBe('right');
    expect(faceOf(t, P(20, 22.525))).toBe('rear');
    expect(faceOf(t, P(20, 22.725))).toBe('left');
    expect(faceOf(t, P(24, 10))).toBe('rear');
  });
  it('turns with the heading', () => {
    const e = inf(24, 24, 90, 'Line'); // facing east: its front edge is x 24.375
    expect(faceOf(e, P(30, 24))).toBe('front');
    expect(faceOf(e, P(24, 30))).toBe('left');
    expect(faceOf(e, P(24, 18))).toBe('right');
  });
  it('squares and BUA occupants have four fronts', () => {
    const sq = inf(24, 24, 0, 'Square');
    const occ = inf(24, 24, 0, 'Line', { bua: 'mill' });
    for (const p of [P(30, 24), P(24, 10), P(18, 24), P(24, 30)]) {
      expect(faceOf(sq, p)).toBe('front');
      expect(faceOf(occ, p)).toBe('front');
    }
  });
  it('enfiladed: the firer centre in the flank or rear sector', () => {
    expect(enfiladed(bat(24, 30, 180), t)).toBe(false);
    expect(enfiladed(bat(32, 24.5, 270), t)).toBe(true);
    expect(enfiladed(bat(24, 16, 0), t)).toBe(true);
    expect(enfiladed(bat(32, 24.5, 270), inf(24, 24, 0, 'Square'))).toBe(false);
  });
  it('a target at least partly in the front arc', () => {
    const f = inf(24, 10, 0, 'Line'); // front edge y 10.375 from x 21 to 27
    expect(inFrontArc(f, dot(24, 20))).toBe(true);
    // centred outside the right ray (x 27 + 3 at 3" ahead) but its left end inside it
    expect(inFrontArc(f, inf(32, 13.375, 180, 'FieldColumn'))).toBe(true);
    expect(inFrontArc(f, dot(32, 13.375))).toBe(false);
    expect(inFrontArc(f, dot(24, 8))).toBe(false); // behind
    // touching only the front-right corner from the flank
    expect(inFrontArc(f, rectCorners({ x: 2750, y: 1000, w: 100, d: 75, h: 0 }))).toBe(false);
    // in contact on the front edge
    expect(inFrontArc(f, rectCorners({ x: 2400, y: 1075, w: 600, d: 75, h: 180 }))).toBe(true);
    // a square sees all round
    expect(inFrontArc(inf(24, 10, 0, 'Square'), dot(24, 6))).toBe(true);
  });
});

describe('range and range bands (A4)', () => {
  it('bands: up to 3", 3.1"–6", 6.1"–12", 12.1"–18", 18.1"–24", beyond', () => {
    expect([300, 310, 600, 610, 1200, 1210, 1800, 1810, 2400, 2410].map(rangeBand)).toEqual([
      0, 1, 1, 2, 2, 3, 3, 4, 4, 5,
    ]);
  });
  it('from the nearest firing stand front edge to the nearest point of the target', () => {
    const f = inf(24, 10, 0, 'Line'); // front edge y 10.375
    const at = (gap: number) => inf(24, 10.375 + gap + 0.375, 180, 'Line');
    expect(fireRange(f, at(3))).toBeCloseTo(300, 6);
    expect(rangeBand(fireRange(f, at(3)))).toBe(0);
    expect(rangeBand(fireRange(f, at(3.1)))).toBe(1);
    expect(rangeBand(fireRange(f, at(6)))).toBe(1);
    expect(rangeBand(fireRange(f, at(6.1)))).toBe(2);
    // a target off to the side is measured from the front corner
    expect(rangeTo(f, dot(30, 14.375))).toBeCloseTo(500 - 1.4, 0);
    // Open Order measures from its stands, not from the gaps between them
    const oo = inf(24, 10, 0, 'OpenOrder'); // a gap spans x 20.75–21.25
    expect(rangeTo(oo, dot(21, 11.375))).toBeCloseTo(Math.hypot(24, 99), 0);
    // a square fires from all four edges
    expect(rangeTo(inf(24, 10, 0, 'Square'), dot(28, 10))).toBeCloseTo(300 - 1, 6);
    expect(rangeTo(f, rectCorners(footprint(at(0))))).toBe(0);
  });
});

describe('line of sight (A4)', () => {
  const firer = bat(24, 10, 0); // front edge y 10.625, x 23.5–24.5
  const target = bat(24, 22, 180);
  it('is blocked by another unit, friend or foe, not by the firer or the target', () => {
    const mid = inf(24, 16, 0, 'Line');
    expect(lineOfSight(board(OPEN, firer, target), firer, target)).toBe(true);
    expect(lineOfSight(board(OPEN, firer, target, mid), firer, target)).toBe(false);
    expect(lineOfSight(board(OPEN, firer, target, { ...mid, side: 1 as Side }), firer, target)).toBe(false);
    expect(lineOfSight(board(OPEN, firer, target, { ...mid, gone: 'hits' as const }), firer, target)).toBe(true);
    expect(lineOfSight(board(OPEN, firer, target, inf(34, 16, 0, 'Line')), firer, target)).toBe(true);
    expect(canSee(board(OPEN, firer, target), firer, target)).toBe(true);
    expect(canSee(board(OPEN, firer, target), { ...firer, h: 180 }, target)).toBe(false);
  });
  it('woods block, except into or out of the first 1"', () => {
    const wood: TerrainSpec = {
      type: 'woods',
      id: 'w',
      polygon: [
        [20, 14],
        [28, 14],
        [28, 18],
        [20, 18],
      ],
      cover: 1,
    };
    const ctx = ctxOf([wood]);
    expect(lineOfSight(board(ctx, firer, target), firer, target)).toBe(false);
    // a target whose front edge is 0.5" inside the wood's south edge is seen; 1.5" inside it is not
    const near = inf(24, 14.5 + 0.375, 180, 'Line');
    const deep = inf(24, 15.5 + 0.375, 180, 'Line');
    expect(lineOfSight(board(ctx, firer, near), firer, near)).toBe(true);
    expect(lineOfSight(board(ctx, firer, deep), firer, deep)).toBe(false);
    // a firer 0.5" inside the north edge sees out; 1.5" inside it does not
    const out = inf(24, 17.5 - 0.375, 0, 'Line');
    const inner = inf(24, 16.5 - 0.375, 0, 'Line');
    const beyond = inf(24, 24, 180, 'Line');
    expect(lineOfSight(board(ctx, out, beyond), out, beyond)).toBe(true);
    expect(lineOfSight(board(ctx, inner, beyond), inner, beyond)).toBe(false);
  });
  it('a BUA block blocks; its occupant sees out and is seen', () => {
    const ctx = ctxOf([{ type: 'bua', id: 'm', x: 24, y: 16, cover: 2 }]);
    expect(lineOfSight(board(ctx, firer, target), firer, target)).toBe(false);
    const occ = inf(24, 16, 0, 'Line', { bua: 'm', side: 1 });
    expect(lineOfSight(board(ctx, firer, occ), firer, occ)).toBe(true);
    expect(lineOfSight(board(ctx, occ, firer), occ, firer)).toBe(true);
    expect(blockAt(ctx, P(25.4, 17.4))?.id).toBe('m');
    expect(blockAt(ctx, P(25.6, 17.4))).toBeUndefined();
  });
  it('a hill blocks a line crossing it when neither end is on it', () => {
    const hill: TerrainSpec = {
      type: 'hill',
      id: 'h',
      polygon: [
        [20, 14],
        [28, 14],
        [28, 18],
        [20, 18],
      ],
    };
    const ctx = ctxOf([hill]);
    expect(lineOfSight(board(ctx, firer, target), firer, target)).toBe(false);
    const up = bat(24, 16, 0);
    expect(lineOfSight(board(ctx, up, target), up, target)).toBe(true);
    expect(lineOfSight(board(ctx, firer, up), firer, up)).toBe(true);
  });
  it('a firer on a hill sees over units off the hills more than 3" from the target', () => {
    const hill: TerrainSpec = {
      type: 'hill',
      id: 'h',
      polygon: [
        [18, 12],
        [30, 12],
        [30, 18],
        [18, 18],
      ],
    };
    const ctx = ctxOf([hill]);
    const up = bat(24, 16.5, 0); // front edge y 17.125
    const low = inf(24, 19, 0, 'Line'); // y 18.625–19.375, off the hill
    const far = bat(24, 26, 180); // 6" and more from the intervening unit
    const close = bat(24, 21.5, 180); // its near edge 1.5" from it
    expect(lineOfSight(board(ctx, up, low, far), up, far)).toBe(true);
    expect(lineOfSight(board(ctx, up, low, close), up, close)).toBe(false);
    // a unit on the hill still blocks; and from off the hill the far unit is hidden
    const up2 = bat(24, 15.5, 0); // front edge y 16.125
    const high = inf(24, 17.75, 0, 'FieldColumn'); // y 17–18.5, its centre on the hill
    expect(lineOfSight(board(ctx, up2, high, far), up2, far)).toBe(false);
    const flat = bat(24, 16.5, 0);
    expect(lineOfSight(board(OPEN, flat, low, far), flat, far)).toBe(false);
  });
});

describe('cover (§3.3)', () => {
  const line = (type: 'hedge' | 'wall'): TerrainSpec => ({
    type,
    id: type,
    points: [
      [18, 20],
      [30, 20],
    ],
  });
  it('woods 1; hedge 1 and wall 2 within 1" behind them from the firer; a BUA its scenario cover', () => {
    const t = inf(24, 20.5, 180, 'Line'); // y 20.125–20.875: just north of the line
    const south = P(24, 10);
    const north = P(24, 30);
    expect(coverLevel({ ctx: OPEN }, t, south)).toBe(0);
    expect(coverLevel({ ctx: ctxOf([line('hedge')]) }, t, south)).toBe(1);
    expect(coverLevel({ ctx: ctxOf([line('wall')]) }, t, south)).toBe(2);
    expect(coverLevel({ ctx: ctxOf([line('wall')]) }, t, north)).toBe(0); // the wall is not between them
    expect(coverLevel({ ctx: ctxOf([line('hedge')]) }, inf(24, 22, 180, 'Line'), south)).toBe(0); // 1.6" behind
    expect(coverLevel({ ctx: ctxOf([line('hedge')]) }, bat(24, 10, 0), inf(24, 21, 180, 'Line'))).toBe(0);
    const wood: TerrainSpec = {
      type: 'woods',
      id: 'w',
      polygon: [
        [20, 14],
        [28, 14],
        [28, 18],
        [20, 18],
      ],
      cover: 1,
    };
    expect(coverLevel({ ctx: ctxOf([wood]) }, inf(24, 16, 180, 'Line'), south)).toBe(1);
    const bua: TerrainSpec = { type: 'bua', id: 'm', x: 24, y: 24, cover: 2 };
    expect(coverLevel({ ctx: ctxOf([bua]) }, inf(24, 24, 0, 'Line', { bua: 'm' }), south)).toBe(2);
    expect(coverLevel({ ctx: ctxOf([{ ...bua, cover: 3 }]) }, inf(24, 24, 0, 'Line', { bua: 'm' }), south)).toBe(3);
  });
});

describe('other distances (§3.4)', () => {
  const u = inf(24, 10, 0, 'Line'); // x 21–27
  it('secure flanks: a friendly unit within 3" of each flank edge, beside it', () => {
    const left = inf(17.5, 10, 0, 'Line'); // right edge x 20.5: 0.5" off
    const right = inf(30.5, 10, 0, 'Line');
    expect(secureFlanks({ units: [u, left, right] }, u)).toBe(true);
    expect(secureFlanks({ units: [u, left] }, u)).toBe(false);
    expect(secureFlanks({ units: [u, left, { ...right, side: 1 as Side }] }, u)).toBe(false);
    expect(secureFlanks({ units: [u, left, { ...right, gone: 'routed' as const }] }, u)).toBe(false);
    // 2.9" and 3.1" off the right flank edge (a 1"-wide column: its left edge at x 27 + gap)
    expect(flankCovered({ units: [u, inf(27 + 2.9 + 0.5, 10, 0, 'MarchColumn')] }, u, 'right')).toBe(true);
    expect(flankCovered({ units: [u, inf(27 + 3.1 + 0.5, 10, 0, 'MarchColumn')] }, u, 'right')).toBe(false);
    // a unit 1.25" straight behind is within 3" of both flank edges' rear corners but beside neither
    const behind = inf(24, 8, 0, 'Line');
    expect(flankCovered({ units: [u, behind] }, u, 'left')).toBe(false);
    expect(flankCovered({ units: [u, behind] }, u, 'right')).toBe(false);
  });
  it('leader within 12" of the nearest point of the unit; edge-to-edge distances', () => {
    expect(leaderDistance({ x: 2400, y: 2237.5 }, u)).toBeCloseTo(1200, 6); // 12" ahead of the front edge
    expect(leaderInReach({ x: 2400, y: 2237.5 }, u)).toBe(true);
    expect(leaderInReach(P(24, 22.5), u)).toBe(false);
    expect(leaderDistance(P(24, 10), u)).toBe(0);
    expect(nearestDistanceToPoint(u, fx(30), fx(10))).toBeCloseTo(300, 6);
    expect(unitDistance(u, inf(24, 14, 180, 'Line'))).toBeCloseTo(325, 6); // 13.625 − 10.375
  });
});

describe('ground for movement (§3.3, §6.3, A11)', () => {
  const wood: TerrainSpec = {
    type: 'woods',
    id: 'w',
    polygon: [
      [20, 14],
      [28, 14],
      [28, 18],
      [20, 18],
    ],
    cover: 1,
  };
  const rough: TerrainSpec = {
    type: 'rough',
    id: 'r',
    polygon: [
      [2, 2],
      [6, 2],
      [6, 6],
      [2, 6],
    ],
  };
  const ctx = ctxOf([wood, rough]);
  const r = (u: Unit) => footprint(u);
  it('rough at a point; the cost of a path through rough per arm', () => {
    expect(roughAt(ctx, P(24, 16))).toBe(true);
    expect(roughAt(ctx, P(4, 4))).toBe(true);
    expect(roughAt(ctx, P(24, 12))).toBe(false);
    const a = r(inf(24, 14, 0, 'MarchColumn'));
    const b = r(inf(24, 18, 0, 'MarchColumn'));
    expect(moveCost(ctx, 'infantry', a, b)).toBeCloseTo(800, 6); // 4" at ×½
    expect(moveCost(ctx, 'openOrder', a, b)).toBeCloseTo(400, 6);
    expect(moveCost(ctx, 'cavalry', a, b)).toBeCloseTo(1200, 6); // ×⅓
    expect(moveCost(ctx, 'artillery', a, b)).toBeCloseTo(1200, 6);
    expect(moveCost(OPEN, 'infantry', a, b)).toBeCloseTo(400, 6);
  });
  it('roads: within 0.5" of the polyline', () => {
    const c = ctxOf(SC.terrain);
    expect(onRoad(c, P(21, 10))).toBe(true);
    expect(onRoad(c, P(21.5, 10))).toBe(true);
    expect(onRoad(c, P(21.6, 10))).toBe(false);
    expect(pathOnRoad(c, P(21, 10), P(21, 22))).toBe(true);
    expect(pathOnRoad(c, P(21, 10), P(23, 22))).toBe(false);
    // a road move follows the road the way the unit faces, onto its line, stopping at the road's end
    expect(alongRoad(c, P(21.3, 10), 10, 12 * IN)).toEqual({ x: 2100, y: 2200, h: 0, moved: 1200 });
    expect(alongRoad(c, P(21, 10), 180, 12 * IN)).toEqual({ x: 2100, y: 0, h: 180, moved: 1000 });
    expect(alongRoad(c, P(22, 10), 0, 12 * IN)).toBeNull();
    const bent = { roads: [[P(0, 0), P(10, 0), P(10, 10)]] };
    expect(alongRoad(bent, P(8, 0), 90, 5 * IN)).toEqual({ x: 1000, y: 300, h: 0, moved: 500 });
  });
  it('streams: impassable except at fords (−2"/−3" each crossing) and bridges (a road crossing)', () => {
    const c = ctxOf(SC.terrain);
    const kinds = c.terrain.lines.map((l) => [l.kind, l.points[0]!.x, l.points[l.points.length - 1]!.x]);
    expect(kinds).toEqual([
      ['stream', 0, 999],
      ['ford', 999, 1201],
      ['stream', 1201, 2048],
      ['stream', 2152, 4800],
    ]);
    const mc = (x: number, y: number) => r(inf(x, y, 0, 'MarchColumn'));
    expect(moveCost(c, 'infantry', mc(11, 26), mc(11, 34))).toBeCloseTo(1000, 6); // 8" + the ford's 2"
    expect(moveCost(c, 'artillery', mc(11, 26), mc(11, 34))).toBeCloseTo(1100, 6); // + 3"
    expect(moveCost(c, 'infantry', mc(21, 26), mc(21, 34))).toBeCloseTo(800, 6); // the bridge
    expect(moveCost(c, 'infantry', mc(30, 26), mc(30, 34))).toBe(Number.POSITIVE_INFINITY);
    // a Field Column (3" wide) does not fit on the bridge, nor a 6" Line in the 2" ford
    expect(moveCost(c, 'infantry', r(inf(21, 26, 0, 'FieldColumn')), r(inf(21, 34, 0, 'FieldColumn')))).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(moveCost(c, 'infantry', r(inf(11, 26, 0, 'Line')), r(inf(11, 34, 0, 'Line')))).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(c.streams).toEqual([
      {
        points: [
          { x: 0, y: 3000 },
          { x: 4800, y: 3000 },
        ],
        fords: [{ from: 1000, to: 1200 }],
      },
    ]);
  });
});

describe('Saint-Aubin (digest §11)', () => {
  const ctx = ctxOf(SC.terrain);
  const spec = (id: string): UnitSpec =>
    SC.sides.flatMap((s) => s.divisions.flatMap((d) => d.units)).find((u) => u.id === id)!;
  const at = (id: string, side: Side): Unit => {
    const s = spec(id);
    const pos = { x: fx(s.x), y: fx(s.y), h: s.facing, side, id };
    if (s.type === 'battery') return { ...bat(0, 0, 0), ...pos };
    if (s.type === 'cavalry') return { ...cav(0, 0, 0, s.formation), ...pos };
    return { ...inf(0, 0, 0, s.formation), ...pos };
  };
  const units = [
    at('I1', 0),
    at('I2', 0),
    at('C1', 0),
    at('A1', 0),
    at('J1', 1),
    at('J2', 1),
    at('K1', 1),
    at('B1', 1),
  ];
  const a1 = units[3]!;
  const j1 = units[4]!;
  it('builds the mill block, the road, the stream, the wood and the hill', () => {
    expect(ctx.blocks).toEqual([{ id: 'mill', x: 2400, y: 2400, cover: 3 }]);
    expect(ctx.roads).toEqual([
      [
        { x: 2100, y: 0 },
        { x: 2100, y: 4800 },
      ],
    ]);
    expect(ctx.terrain.areas.map((a) => a.kind)).toEqual(['bua', 'woods', 'hill']);
  });
  it('A1 at (24, 12) fires at J1 in Line at (24, 34): 21", the 18.1–24" band, in sight west of the mill', () => {
    expect(fireRange(a1, j1)).toBeCloseTo(2100, 6);
    expect(rangeBand(fireRange(a1, j1))).toBe(4);
    expect(inFrontArc(a1, j1)).toBe(true);
    expect(enfiladed(a1, j1)).toBe(false);
    // the centre-to-centre line runs through the mill block …
    expect(terrainSight(ctx.terrain, a1, j1, [])).toBe(false);
    // … but the gun's front edge sees J1's western stands past the mill's west side (x 22.5), and as well its
    // eastern stands past the east side (x 25.5); the middle of J1's front is hidden from the whole gun edge
    expect(terrainSight(ctx.terrain, P(23.5, 12.625), P(21, 33.625), [])).toBe(true);
    expect(terrainSight(ctx.terrain, P(24.5, 12.625), P(27, 33.625), [])).toBe(true);
    for (const x of [23.5, 24, 24.5]) expect(terrainSight(ctx.terrain, P(x, 12.625), P(24, 33.625), [])).toBe(false);
    expect(lineOfSight({ ctx, units }, a1, j1)).toBe(true);
    expect(coverLevel({ ctx }, j1, a1)).toBe(0);
  });
  it('I1 stands 1" west of the road at x 21; a March Column on the road takes the bridge', () => {
    const i1 = units[0]!;
    expect(onRoad(ctx, i1)).toBe(false);
    expect(onRoad(ctx, { x: fx(21), y: i1.y })).toBe(true);
    expect(poly(i1).some((p) => p.x >= 2100)).toBe(true); // its 3" Field Column overlaps the road line
    expect(pathOnRoad(ctx, P(21, 10), P(21, 22))).toBe(true);
    const mc = (y: number) => footprint(inf(21, y, 0, 'MarchColumn'));
    expect(moveCost(ctx, 'infantry', mc(24), mc(36))).toBeCloseTo(1200, 6);
  });
  it('the leaders: Napoleon at (24, 4) reaches I1, I2 and A1 but not C1 (12.09" to its nearest corner)', () => {
    for (const i of [0, 1, 3]) expect(leaderInReach(P(24, 4), units[i]!)).toBe(true);
    expect(leaderDistance(P(24, 4), units[2]!)).toBeCloseTo(Math.hypot(1200, 150), 6);
    expect(leaderInReach(P(24, 4), units[2]!)).toBe(false);
    expect(leaderInReach(P(24, 44), j1)).toBe(true);
    expect(unitDistance(units[0]!, units[1]!)).toBeCloseTo(550, 6); // I1 x ≤ 21.5, I2 (Masse) x ≥ 27
  });
});
