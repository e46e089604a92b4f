/**
 * Charge! Eagles Rising geometry against the digest's §3 (C4, C5, C6) and the sheet's terrain table: footprints and
 * front ranks (the §3.1 examples and §10.1's vectors), size classes at their edges, arcs, threat zones, the 10" and 3"
 * distances, the cavalry zone of control, integrity, open frontage, anchored flanks, line of sight and move costs,
 * and §11's geometric facts (The Chapel Crossroads).
 */
import { describe, expect, it } from 'vitest';
import { IN, type Polygon, type Vec } from '../../geometry/geometry.ts';
import type { TerrainArea, TerrainLine } from '../../geometry/terrain.ts';
import {
  type ChargeTerrain,
  type ExtraCost,
  type Placed,
  type TerrainRow,
  attackSector,
  cavalryZoc,
  clearSight,
  flankFire,
  frontRankFigures,
  gap,
  inAnyZoc,
  inFrontArcWithin,
  inSkirmishBand,
  inThreatZone,
  isRetiring,
  isTactical,
  moveCost,
  openFrontage,
  outOfIntegrity,
  polyOf,
  sees,
  sizeOf,
  sizeClass,
  supportedArtillery,
  twoSizesLarger,
  unanchoredFlank,
  withinPursuitCone,
} from './shape.ts';

type Shape = Placed extends infer P ? (P extends unknown ? Omit<P, 'pos' | 'facing' | 'body'> : never) : never;
const inches = (s: { width: number; depth: number }) => [s.width, s.depth];
const at = (s: Shape, x: number, y: number, facing = 0): Placed =>
  ({ ...s, pos: { x: x * IN, y: y * IN }, facing }) as Placed;
const inf = (
  n: number,
  formation: 'line' | 'column' | 'marchColumn' | 'hastySquare' | 'skirmish' = 'line',
  ranks: 2 | 3 = 3,
): Shape => ({ kind: 'infantry', formation, figures: n, ranks });
const cav = (n: number, formation: 'line' | 'column' | 'skirmish' = 'line'): Shape => ({
  kind: 'cavalry',
  formation,
  figures: n,
});
const bty = (n: number, formation: 'limbered' | 'unlimbered' = 'unlimbered'): Shape => ({
  kind: 'artillery',
  formation,
  guns: n,
});
const size = (s: Shape) => inches(sizeOf(at(s, 0, 0)));
const area = (id: string, kind: string, polygon: Polygon): TerrainArea => ({
  id,
  kind,
  polygon,
  difficult: false,
  impassable: false,
  cover: 'none',
  blocksLos: false,
  seeThroughEdge: 0,
});
const line = (id: string, kind: string, points: Vec[]): TerrainLine => ({
  id,
  kind,
  points,
  obstacle: kind !== 'road',
  cover: 'none',
  coverDepth: 0,
  blocksLos: false,
});
const box = (x0: number, y0: number, x1: number, y1: number) => [
  { x: x0 * IN, y: y0 * IN },
  { x: x1 * IN, y: y0 * IN },
  { x: x1 * IN, y: y1 * IN },
  { x: x0 * IN, y: y1 * IN },
];

describe('[§3.1, C4] footprints and front ranks', () => {
  it("the digest's 24-figure, 12-figure and 6-gun examples", () => {
    expect(size(inf(24, 'line', 3))).toEqual([4, 1.5]);
    expect(size(inf(24, 'line', 2))).toEqual([6, 1]);
    expect(size(inf(24, 'column'))).toEqual([2, 3]);
    expect(size(inf(24, 'marchColumn'))).toEqual([1, 6]);
    expect(size(inf(24, 'hastySquare'))).toEqual([3, 3]);
    expect(size(inf(24, 'skirmish'))).toEqual([12, 1]);
    expect(size(cav(12, 'line'))).toEqual([6, 1.25]);
    expect(size(cav(12, 'column'))).toEqual([3, 2.5]);
    expect(size(cav(12, 'skirmish'))).toEqual([10.5, 1.25]);
    expect(size(bty(6, 'unlimbered'))).toEqual([3, 1.5]);
    expect(size(bty(6, 'limbered'))).toEqual([1, 4]);
  });
  it('rounding up: odd figures, a part stand', () => {
    expect(size(inf(23, 'line', 3))).toEqual([4, 1.5]);
    expect(size(inf(25, 'column'))).toEqual([2, 3.5]);
    expect(size(cav(13, 'line'))).toEqual([7.5, 1.25]);
    expect(size(cav(5, 'column'))).toEqual([3, 1.25]);
  });
  it("front-rank figures: §10.1's vectors", () => {
    expect(frontRankFigures(at(inf(24, 'line', 3), 0, 0))).toBe(8); // ceil(8/3) = 3 d10
    expect(frontRankFigures(at(inf(24, 'line', 2), 0, 0))).toBe(12); // 6 d10
    expect(frontRankFigures(at(inf(16, 'skirmish'), 0, 0))).toBe(8); // 4 d10 as 2-rank
    expect(frontRankFigures(at(inf(24, 'column'), 0, 0))).toBe(4);
    expect(frontRankFigures(at(inf(24, 'marchColumn'), 0, 0))).toBe(2);
    expect(frontRankFigures(at(inf(24, 'hastySquare'), 0, 0))).toBe(6);
    expect(frontRankFigures(at(cav(12), 0, 0))).toBe(0);
  });
});

describe('[§3.1, C4] size classes', () => {
  it('at each edge, for each arm', () => {
    expect([16, 17, 30, 31, 40, 41].map((n) => sizeClass('infantry', n))).toEqual([
      'small',
      'standard',
      'standard',
      'large',
      'large',
      'extraLarge',
    ]);
    expect([8, 9, 15, 16, 20, 21].map((n) => sizeClass('cavalry', n))).toEqual([
      'small',
      'standard',
      'standard',
      'large',
      'large',
      'extraLarge',
    ]);
    expect([4, 5, 8, 9, 12, 13].map((n) => sizeClass('artillery', n))).toEqual([
      'small',
      'standard',
      'standard',
      'large',
      'large',
      'extraLarge',
    ]);
  });
  it('unit mass: two classes larger', () => {
    expect(twoSizesLarger('large', 'small')).toBe(true);
    expect(twoSizesLarger('large', 'standard')).toBe(false);
    expect(twoSizesLarger('small', 'large')).toBe(false);
  });
});

describe('[§3.2, C5] arcs, zones and distances', () => {
  const line = at(inf(24, 'line', 2), 20, 20); // 6" × 1", front edge at y 20.5, x 17–23
  it('sectors: front, flank and rear by the 45° corner rays; a square is all front', () => {
    expect(attackSector(line, at(cav(12), 20, 30))).toBe('front');
    expect(attackSector(line, at(cav(12), 30, 20))).toBe('right');
    expect(attackSector(line, at(cav(12), 10, 20))).toBe('left');
    expect(attackSector(line, at(cav(12), 20, 10))).toBe('rear');
    expect(attackSector(at(inf(24, 'hastySquare'), 20, 20), at(cav(12), 20, 10))).toBe('front');
    expect(flankFire(at(bty(6), 35, 20, 270), line)).toBe(true);
    expect(flankFire(at(bty(6), 20, 35, 180), line)).toBe(false);
  });
  it('front arc: partly inside counts; beyond the reach or behind does not', () => {
    expect(inFrontArcWithin(line, polyOf(at(inf(24, 'column'), 26, 24)), 10 * IN)).toBe(true);
    expect(inFrontArcWithin(line, polyOf(at(inf(24, 'column'), 20, 35)), 10 * IN)).toBe(false);
    expect(inFrontArcWithin(line, polyOf(at(inf(24, 'column'), 20, 15)), 10 * IN)).toBe(false);
  });
  it('threat zones: 5" ahead of infantry, 10" ahead of cavalry, none behind, all round a square', () => {
    const probe = (y: number, x = 20) => polyOf(at(inf(4, 'column'), x, y)); // 2" × 0.5"
    // the probe's near edge is at y − 0.25
    expect(inThreatZone(line, probe(25.6))).toBe(true); // 4.85" ahead
    expect(inThreatZone(line, probe(25.9))).toBe(false); // 5.15" ahead
    expect(inThreatZone(line, probe(12))).toBe(false); // behind
    // ahead of the front line, off to the side: 3" past the flank and 3" ahead, 4.2" from the corner
    expect(inThreatZone(line, probe(23.75, 27))).toBe(true);
    const horse = at(cav(12), 20, 20);
    expect(inThreatZone(horse, probe(30.5))).toBe(true);
    expect(inThreatZone(horse, probe(31))).toBe(false);
    expect(inThreatZone(at(bty(6), 20, 20), probe(22))).toBe(false);
    expect(inThreatZone(at(inf(24, 'hastySquare'), 20, 20), probe(13.5))).toBe(true);
    expect(inThreatZone(at(inf(24, 'hastySquare'), 20, 20), probe(13))).toBe(false);
  });
  it('tactical within 10" edge to edge; the skirmish band (3", 10"]', () => {
    const them = at(inf(24, 'line', 2), 20, 31); // rear edge at 30.5: 10" from the front edge at 20.5
    expect(gap(line, them)).toBe(10 * IN);
    expect(isTactical(line, [them])).toBe(true);
    expect(isTactical(line, [at(inf(24, 'line', 2), 20, 31.01)])).toBe(false);
    expect([3 * IN, 3 * IN + 1, 10 * IN, 10 * IN + 1].map(inSkirmishBand)).toEqual([false, true, true, false]);
  });
  it('the cavalry zone of control: 3" wide, 10" long, from the front edge centre', () => {
    const horse = at(cav(12), 20, 20); // front edge at y 20.625
    const z = cavalryZoc(horse);
    expect(z.map((p) => [p.x / IN, p.y / IN])).toEqual([
      [18.5, 20.625],
      [21.5, 20.625],
      [21.5, 30.625],
      [18.5, 30.625],
    ]);
    expect(inAnyZoc(at(inf(24, 'line', 2), 24, 25), [horse])).toBe(true); // x 21–27 reaches 21.5
    expect(inAnyZoc(at(inf(24, 'line', 2), 25, 25), [horse])).toBe(false); // x 22–28
    expect(inAnyZoc(at(inf(24, 'line', 2), 20, 31.2), [horse])).toBe(false); // beyond the 10"
  });
  it('brigade integrity: more than 6" from every other unit of the ME', () => {
    const a = at(inf(24, 'line', 2), 20, 20);
    expect(outOfIntegrity(a, [at(inf(24, 'line', 2), 32, 20)])).toBe(false); // 6" flank to flank
    expect(outOfIntegrity(a, [at(inf(24, 'line', 2), 32.5, 20)])).toBe(true);
    expect(outOfIntegrity(a, [])).toBe(false);
  });
  it('open frontage: no friend in the front arc nearer than the nearest enemy', () => {
    const enemy = at(inf(24, 'line', 2), 20, 28, 180);
    expect(openFrontage(line, [], [enemy])).toBe(true);
    expect(openFrontage(line, [at(inf(24, 'line', 2), 20, 24)], [enemy])).toBe(false);
    expect(openFrontage(line, [at(inf(24, 'line', 2), 20, 16)], [enemy])).toBe(true); // behind
    expect(openFrontage(line, [at(inf(24, 'line', 2), 40, 24)], [enemy])).toBe(true); // out of the arc
  });
  it('anchored flanks: a friend, a BUA or impassable ground within 2" of the flank edge', () => {
    expect(unanchoredFlank(line, 'left', [], [])).toBe(true);
    expect(unanchoredFlank(line, 'left', [at(inf(24, 'line', 2), 12, 20)], [])).toBe(false); // 2" away
    expect(unanchoredFlank(line, 'left', [at(inf(24, 'line', 2), 11.9, 20)], [])).toBe(true); // 2.1" away
    expect(unanchoredFlank(line, 'right', [at(inf(24, 'line', 2), 12, 20)], [])).toBe(true);
    expect(unanchoredFlank(line, 'right', [], [box(24.5, 18, 28, 22)])).toBe(false);
    expect(unanchoredFlank(line, 'right', [], [box(25.5, 18, 28, 22)])).toBe(true);
  });
  it('supported artillery: friendly infantry or cavalry within 1"', () => {
    const b = at(bty(6), 20, 20);
    expect(supportedArtillery(b, [at(inf(24, 'line', 2), 25.5, 20)])).toBe(true); // 1" apart
    expect(supportedArtillery(b, [at(inf(24, 'line', 2), 25.6, 20)])).toBe(false);
    expect(supportedArtillery(b, [at(bty(6), 24, 20)])).toBe(false);
  });
  it('the pursuit cone (22.5°) and retiring moves', () => {
    expect(withinPursuitCone({ x: 0, y: 0 }, 0, [{ x: 4 * IN, y: 10 * IN }])).toBe(true); // 21.8°
    expect(withinPursuitCone({ x: 0, y: 0 }, 0, [{ x: 5 * IN, y: 10 * IN }])).toBe(false); // 26.6°
    expect(isRetiring(0, { x: 0, y: 0 }, { x: 3, y: -1 })).toBe(true);
    expect(isRetiring(0, { x: 0, y: 0 }, { x: 3, y: 1 })).toBe(false);
  });
});

// the sheet's terrain table: extra inches per inch, per crossing or per contour (infantry, cavalry, artillery)
const COSTS: Record<TerrainRow, [number, number, number]> = {
  minorObstacle: [1.5, 2, 2],
  majorObstacle: [1.5, 2, Number.POSITIVE_INFINITY],
  stream: [1.5, 3, 3],
  bridge: [1.25, 2, 2],
  rough: [1.5, 2, 2],
  muddy: [1.25, 2, 2.5],
  lightWoods: [1.5, 3, 3],
  orchard: [1.25, 2, 2],
  denseWoods: [2, 4, 5],
  woodenBua: [2, 4, 4],
  stoneBua: [2, 4, 4],
  steepRise: [2, 2, 2],
};
const extra: ExtraCost = (k, arm) => COSTS[k][arm === 'infantry' ? 0 : arm === 'cavalry' ? 1 : 2];
const hline = (y: number, x0 = 0, x1 = 48): Vec[] => [
  { x: x0 * IN, y: y * IN },
  { x: x1 * IN, y: y * IN },
];
const chapel = {
  id: 'chapel',
  name: 'Chapel',
  polygon: box(22, 28, 26, 32),
  material: 'stone' as const,
  cover: 'heavy' as const,
  garrison: 'heavy' as const,
  centre: { x: 24 * IN, y: 30 * IN },
};

describe('[§3.3, C5] line of sight', () => {
  const t: ChargeTerrain = {
    terrain: {
      areas: [area('wood', 'lightWoods', box(10, 10, 20, 20)), area('thicket', 'denseWoods', box(30, 10, 40, 20))],
      lines: [],
    },
    buas: [chapel],
    rises: [{ id: 'rise', polygon: box(0, 40, 48, 44), contours: 1 }],
  };
  const p = (x: number, y: number) => ({ at: { x: x * IN, y: y * IN } });
  it('woods: a line may run 2" into light woods and 1" into dense woods, no further', () => {
    expect(clearSight(t, p(5, 15), p(11.9, 15), [])).toBe(true);
    expect(clearSight(t, p(5, 15), p(12.2, 15), [])).toBe(false);
    expect(clearSight(t, p(25, 15), p(30.9, 15), [])).toBe(true);
    expect(clearSight(t, p(25, 15), p(31.2, 15), [])).toBe(false);
    expect(clearSight(t, p(5, 15), p(25, 15), [])).toBe(false); // right through
  });
  it('a BUA blocks, but not for its own garrison', () => {
    expect(clearSight(t, p(24, 25), p(24, 35), [])).toBe(false);
    const garrison = {
      kind: 'infantry' as const,
      formation: 'garrison' as const,
      figures: 16,
      ranks: 2 as const,
      pos: { x: 24 * IN, y: 30 * IN },
      facing: 180,
      garrison: 'chapel',
      body: chapel.polygon,
    };
    expect(clearSight(t, { at: { x: 24 * IN, y: 30 * IN }, unit: garrison }, p(24, 35), [])).toBe(true);
  });
  it('a steep rise blocks a line between two points below it; a unit on it sees over lower units past 3"', () => {
    expect(clearSight(t, p(5, 38), p(5, 46), [])).toBe(false);
    expect(clearSight(t, p(5, 38), p(5, 42), [])).toBe(true);
    const lower = at(inf(24, 'line', 2), 5, 30);
    const blocker = [{ poly: polyOf(lower), unit: lower }];
    expect(clearSight(t, p(5, 42), p(5, 22), blocker)).toBe(true);
    expect(clearSight(t, p(5, 33), p(5, 22), blocker)).toBe(false);
    const near = at(inf(24, 'line', 2), 5, 38); // within 3" of the observer on the rise
    expect(clearSight(t, p(5, 40.5), p(5, 22), [{ poly: polyOf(near), unit: near }])).toBe(false);
  });
  it('units see past the ends of a blocking unit; not through it', () => {
    const open: ChargeTerrain = { terrain: { areas: [], lines: [] }, buas: [], rises: [] };
    const firer = at(inf(24, 'line', 2), 24, 2);
    const target = at(inf(24, 'line', 2), 24, 8, 180);
    expect(sees(open, firer, target, [])).toBe(true);
    expect(sees(open, firer, target, [at(inf(40, 'line', 2), 24, 5)])).toBe(false);
    expect(sees(open, firer, target, [at(inf(4, 'column'), 24, 5)])).toBe(true);
  });
});

describe('[§3.4, C6] the cost of a move', () => {
  const t: ChargeTerrain = {
    terrain: {
      areas: [
        area('wood', 'lightWoods', box(10, 10, 30, 20)),
        area('bridge', 'bridge', box(23, 34.5, 25, 35.5)),
        area('ford', 'ford', box(5, 34.5, 7, 35.5)),
      ],
      lines: [
        line('hedge', 'minorObstacle', hline(30)),
        line('brook', 'stream', hline(35)),
        line('road', 'road', [
          { x: 24 * IN, y: 0 },
          { x: 24 * IN, y: 48 * IN },
        ]),
      ],
    },
    buas: [],
    rises: [{ id: 'rise', polygon: box(0, 40, 48, 48), contours: 1 }],
  };
  it('light woods: an infantry inch costs 2.5" (extra 1.5" an inch)', () => {
    const col = inf(24, 'column');
    const c = moveCost(t, at(col, 20, 12), at(col, 20, 16), extra);
    expect(c.cost).toBe(4 * IN + 4 * 1.5 * IN);
    expect(c.areas).toEqual(['lightWoods']);
  });
  it('an obstacle once per crossing; a stream at a bridge or ford pays that instead', () => {
    const ln = inf(24, 'line', 2);
    const c = moveCost(t, at(ln, 40, 28), at(ln, 40, 32), extra);
    expect(c.cost).toBe(4 * IN + 1.5 * IN);
    expect(c.crossed).toEqual(['minorObstacle']);
    const col = inf(24, 'marchColumn');
    const road = moveCost(t, at(col, 24, 33.5), at(col, 24, 39), extra);
    expect(road.crossed).toEqual(['bridge']);
    expect(road.cost).toBe(5.5 * IN + 1.25 * IN);
    expect(road.onRoad).toBe(true);
    expect(moveCost(t, at(inf(8, 'line'), 24, 33), at(inf(8, 'line'), 24, 37), extra).impassable).toBe(true);
    const ford = moveCost(t, at(inf(4, 'column'), 6, 34), at(inf(4, 'column'), 6, 36), extra);
    expect(ford.crossed).toEqual(['ford']);
    expect(ford.cost).toBe(2 * IN); // a column crosses a ford at full speed
    const fordLine = moveCost(t, at(inf(4, 'line'), 6, 34), at(inf(4, 'line'), 6, 36), extra);
    expect(fordLine.cost).toBe(2 * IN + 1.5 * IN);
    const anywhere = moveCost(t, at(inf(4, 'column'), 40, 34), at(inf(4, 'column'), 40, 36), extra);
    expect(anywhere.crossed).toEqual(['stream']);
    expect(anywhere.cost).toBe(2 * IN + 1.5 * IN);
  });
  it('a contour climbed costs 2"; a major obstacle is impassable to artillery', () => {
    const c = moveCost(t, at(cav(12), 40, 38), at(cav(12), 40, 41), extra);
    expect(c.contoursUp).toBe(1);
    expect(c.cost).toBe(3 * IN + 2 * IN);
    const wall: ChargeTerrain = {
      terrain: { areas: [], lines: [line('wall', 'majorObstacle', hline(10))] },
      buas: [],
      rises: [],
    };
    expect(moveCost(wall, at(bty(6, 'limbered'), 5, 5), at(bty(6, 'limbered'), 5, 15), extra).impassable).toBe(true);
    expect(moveCost(wall, at(inf(8), 5, 5), at(inf(8), 5, 15), extra).impassable).toBe(false);
  });
  it('a stone BUA costs its row', () => {
    const town: ChargeTerrain = { terrain: { areas: [], lines: [] }, buas: [chapel], rises: [] };
    const c = moveCost(town, at(inf(4, 'column'), 24, 25), at(inf(4, 'column'), 24, 29), extra);
    expect(c.areas).toEqual(['stoneBua']);
    expect(c.cost).toBeGreaterThan(4 * IN + 2 * IN * 1.2);
  });
});

describe("§11 The Chapel Crossroads: the digest's geometric facts", () => {
  it('F1c\'s skirmish line (20 figures, 10" × 1") has its front at y 15.5, 12.5" from the hamlet', () => {
    const f1c = at(inf(20, 'skirmish'), 24, 15);
    const s = sizeOf(f1c);
    expect(inches(s)).toEqual([10, 1]);
    expect(Math.max(...polyOf(f1c).map((p) => p.y)) / IN).toBe(15.5);
    const hamlet = box(22, 28, 26, 32);
    const b1c = { poly: hamlet };
    expect((hamlet[0]!.y - 15.5 * IN) / IN).toBe(12.5);
    expect(isTactical(f1c, [at(inf(24, 'line', 2), 18, 36, 180)])).toBe(false);
    expect(b1c.poly).toBe(hamlet);
  });
  it('F2a charging B1a from 8" away: it begins in B1a\'s front arc', () => {
    const b1a = at(inf(24, 'line', 2), 18, 36, 180);
    const f2a = at(cav(12), 18, 26.875, 0); // front edge at 27.5, B1a's front at 35.5: 8"
    expect(gap(b1a, f2a)).toBe(8 * IN);
    expect(attackSector(b1a, f2a)).toBe('front');
  });
});
