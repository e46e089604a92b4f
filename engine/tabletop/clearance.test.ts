/** Clearance: table edges, impassable ground, obstacles, friends and the enemy separation, and the fast box path. */
import { describe, expect, it } from 'vitest';
import { type Polygon, type Rect, rectCorners } from '../geometry/geometry.ts';
import type { Terrain } from '../geometry/terrain.ts';
import {
  type Bodies,
  type BodyView,
  type Table,
  boxClear,
  endClear,
  nearestEnemy,
  onGround,
  pathClear,
} from './clearance.ts';

interface Piece {
  readonly id: string;
  readonly side: number;
  readonly body: Polygon;
  readonly screen?: Polygon;
}

const sq = (x: number, y: number, s = 100): Polygon => rectCorners({ x, y, w: s, d: s, h: 0 } as Rect);
const terrain: Terrain = {
  areas: [
    {
      id: 'lake',
      kind: 'lake',
      polygon: sq(1500, 1500, 200),
      difficult: false,
      impassable: true,
      cover: 'none',
      blocksLos: false,
      seeThroughEdge: 0,
    },
  ],
  lines: [
    {
      id: 'wall',
      kind: 'wall',
      points: [
        { x: 0, y: 2500 },
        { x: 3000, y: 2500 },
      ],
      obstacle: true,
      cover: 'hard',
      coverDepth: 0,
      blocksLos: false,
    },
  ],
};
const table: Table = { width: 3000, height: 3000, terrain };
const pieces: Piece[] = [
  { id: 'me', side: 0, body: sq(500, 500) },
  { id: 'friend', side: 0, body: sq(800, 500) },
  { id: 'foe', side: 1, body: sq(500, 1200), screen: sq(500, 1000, 60) },
];
const view: BodyView<Piece> = {
  counts: (o, me) => o.id !== me.id,
  friendly: (o, me) => o.side === me.side,
  body: (o) => o.body,
  troops: (o) => (o.screen ? [o.body, o.screen] : [o.body]),
};
const from = (me: string): Bodies<Piece> => ({ view, list: pieces, mover: pieces.find((p) => p.id === me)! });
const rules = { separation: 400 };

describe('clearance', () => {
  it('measures the enemy separation to screens too, capped', () => {
    // my body's front edge is at y 550; the foe's screen's rear edge at y 970, its body at 1150
    expect(nearestEnemy(from('me'), [sq(500, 500)], 1000)).toBeCloseTo(420);
    expect(nearestEnemy(from('me'), [sq(500, 500)], 400)).toBe(400);
    // friends are never measured: seen from the friend, the same square overlaps 'me' but is still 420 from the foe
    expect(nearestEnemy(from('friend'), [sq(500, 500)], 1000)).toBeCloseTo(420);
  });
  it('keeps a path off the edges, off impassable ground and outside the separation unless already inside', () => {
    const b = from('me');
    expect(pathClear(table, b, [sq(500, 500)], 1000, rules)).toBe(true); // 420 from the screen
    expect(pathClear(table, b, [sq(500, 560)], 1000, rules)).toBe(false); // 360: breaks the separation
    expect(pathClear(table, b, [sq(500, 560)], 360, rules)).toBe(true); // already that close: may hold…
    expect(pathClear(table, b, [sq(500, 600)], 360, rules)).toBe(false); // …but not close in
    expect(pathClear(table, b, [sq(30, 300)], 1000, rules)).toBe(false); // off the west edge
    expect(pathClear(table, b, [sq(1500, 1400)], 1000, rules)).toBe(false); // in the lake
    expect(onGround(table, [sq(200, 200), sq(2990, 200)])).toBe(false); // a screen off the table counts
    expect(pathClear(table, b, [sq(500, 600)], 1000, { separation: 0 })).toBe(true);
  });
  it('ends clear of every other body and of obstacle lines', () => {
    const b = from('me');
    expect(endClear(table, b, sq(500, 500))).toBe(true); // itself does not count
    expect(endClear(table, b, sq(750, 500))).toBe(false); // overlaps the friend
    expect(endClear(table, b, sq(2000, 2480))).toBe(false); // on the wall
    expect(endClear(table, b, sq(2000, 2400))).toBe(true);
  });
  it('the box path is conservative and honours its options', () => {
    const b = from('me');
    const box = { minX: 100, minY: 100, maxX: 600, maxY: 560 };
    expect(boxClear(table, b, box, rules, { friends: false, obstacles: false })).toBe(true);
    expect(boxClear(table, b, { ...box, maxX: 760 }, rules, { friends: false, obstacles: false })).toBe(true);
    expect(boxClear(table, b, { ...box, maxX: 760 }, rules, { friends: true, obstacles: false })).toBe(false);
    expect(boxClear(table, b, { ...box, maxY: 600 }, rules, { friends: false, obstacles: false })).toBe(false);
    expect(boxClear(table, b, { ...box, minX: -1 }, rules, { friends: false, obstacles: false })).toBe(false);
    const wallBox = { minX: 2000, minY: 2400, maxX: 2100, maxY: 2600 };
    expect(boxClear(table, b, wallBox, rules, { friends: false, obstacles: false })).toBe(true);
    expect(boxClear(table, b, wallBox, rules, { friends: false, obstacles: true })).toBe(false);
    expect(
      boxClear(table, b, { minX: 1300, minY: 1300, maxX: 1420, maxY: 1420 }, rules, {
        friends: false,
        obstacles: false,
      }),
    ).toBe(false);
  });
});
