/** Terrain classes: per-arm multipliers, crossing costs, cover, and the single `difficult` reading. */
import { describe, expect, it } from 'vitest';
import { type Polygon, type Rect, fx, translate } from '../geometry/geometry.ts';
import type { Terrain } from '../geometry/terrain.ts';
import {
  type TerrainClasses,
  areaFlags,
  crossingCost,
  difficultAt,
  isDifficultFor,
  linesCrossed,
  moveFactorAt,
  pathCost,
} from './terrain.ts';

type Arm = 'foot' | 'horse' | 'guns';
const classes: TerrainClasses<Arm> = {
  forest: { move: { foot: 0.5, horse: 0.25, guns: 0 }, cover: 'soft' },
  marsh: { move: { foot: 0.5 }, difficult: ['foot', 'horse'], cover: 'none' },
  stream: { crossing: { foot: fx(1), horse: fx(2) }, cover: 'none' },
  fence: { crossing: { horse: fx(3) }, cover: 'soft' },
};
const box = (x0: number, y0: number, x1: number, y1: number): Polygon => [
  { x: fx(x0), y: fx(y0) },
  { x: fx(x1), y: fx(y0) },
  { x: fx(x1), y: fx(y1) },
  { x: fx(x0), y: fx(y1) },
];
const area = (id: string, kind: string, polygon: Polygon, difficult = false) => ({
  id,
  kind,
  polygon,
  difficult,
  impassable: false,
  cover: 'none' as const,
  blocksLos: false,
  seeThroughEdge: 0,
});
const line = (id: string, kind: string, y: number) => ({
  id,
  kind,
  points: [
    { x: 0, y: fx(y) },
    { x: fx(48), y: fx(y) },
  ],
  obstacle: false,
  cover: 'none' as const,
  coverDepth: 0,
  blocksLos: false,
});
const terrain: Terrain = {
  areas: [
    area('f', 'forest', box(10, 10, 20, 20)),
    area('m', 'marsh', box(30, 10, 40, 20)),
    area('r', 'rough', box(0, 30, 10, 40), true),
  ],
  lines: [line('s', 'stream', 25), line('x', 'fence', 27), line('d', 'ditch', 28)],
};

describe('terrain classes', () => {
  it('reads a multiplier per arm, the slowest where areas overlap, 1 in the open or unclassed', () => {
    const inForest = { x: fx(15), y: fx(15) };
    expect(moveFactorAt(terrain, classes, 'foot', inForest)).toBe(0.5);
    expect(moveFactorAt(terrain, classes, 'horse', inForest)).toBe(0.25);
    expect(moveFactorAt(terrain, classes, 'guns', inForest)).toBe(0);
    expect(moveFactorAt(terrain, classes, 'horse', { x: fx(35), y: fx(15) })).toBe(1); // marsh: not listed
    expect(moveFactorAt(terrain, classes, 'foot', { x: fx(5), y: fx(35) })).toBe(1); // rough has no class
  });
  it('difficult: named arms, else slowed but passable; unclassed areas keep their flag', () => {
    expect(isDifficultFor(classes.forest!, 'foot')).toBe(true);
    expect(isDifficultFor(classes.forest!, 'guns')).toBe(false); // impassable, not difficult
    expect(isDifficultFor(classes.marsh!, 'horse')).toBe(true);
    expect(isDifficultFor(classes.marsh!, 'guns')).toBe(false);
    expect(difficultAt(terrain, classes, 'horse', { x: fx(35), y: fx(15) })).toBe(true);
    expect(difficultAt(terrain, classes, 'guns', { x: fx(35), y: fx(15) })).toBe(false);
    expect(difficultAt(terrain, classes, 'guns', { x: fx(5), y: fx(35) })).toBe(true);
    expect(difficultAt(terrain, classes, 'foot', { x: fx(25), y: fx(15) })).toBe(false);
    expect(areaFlags(classes.forest!, 'guns')).toEqual({ difficult: false, impassable: true, cover: 'soft' });
    expect(areaFlags(classes.forest!, 'foot')).toEqual({ difficult: true, impassable: false, cover: 'soft' });
  });
  it('a path costs its length over the multiplier, Infinity through impassable ground', () => {
    const p = { x: fx(5), y: fx(15) };
    const q = { x: fx(25), y: fx(15) }; // 20": 10" open, 10" forest
    expect(pathCost(terrain, classes, 'foot', p, q)).toBeCloseTo(fx(30), 0);
    expect(pathCost(terrain, classes, 'horse', p, q)).toBeCloseTo(fx(50), 0);
    expect(pathCost(terrain, classes, 'guns', p, q)).toBe(Number.POSITIVE_INFINITY);
    expect(pathCost(terrain, classes, 'guns', { x: fx(5), y: fx(5) }, { x: fx(25), y: fx(5) })).toBeCloseTo(fx(20), 0);
  });
  it('crossing linear features costs per feature and arm', () => {
    const r: Rect = { x: fx(20), y: fx(23), w: fx(4), d: fx(1), h: 0 };
    const to = translate(r, 0, fx(6)); // crosses the stream, the fence and the ditch
    expect(linesCrossed(terrain, r, to).map((l) => l.id)).toEqual(['s', 'x', 'd']);
    expect(crossingCost(terrain, classes, 'foot', r, to)).toBe(fx(1));
    expect(crossingCost(terrain, classes, 'horse', r, to)).toBe(fx(5));
    expect(crossingCost(terrain, classes, 'guns', r, to)).toBe(0);
    expect(crossingCost(terrain, classes, 'horse', r, translate(r, 0, fx(1)))).toBe(0);
  });
});
