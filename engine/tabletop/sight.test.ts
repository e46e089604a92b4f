/** Group-sampled line of sight and cover: stands along a front, their arcs, blockers and terrain; cover classes. */
import { describe, expect, it } from 'vitest';
import { type Polygon, type Rect, rectCorners } from '../geometry/geometry.ts';
import { NO_TERRAIN, type Terrain } from '../geometry/terrain.ts';
import { coverAgainst, eligibleStands, frontSees, samplePoints } from './sight.ts';

const stand = { w: 100, d: 100 };
// four stands wide facing north, front edge at y 1050, from x 800 to 1200
const shooter: Rect = { x: 1000, y: 1000, w: 400, d: 100, h: 0 };
const poly = (r: Rect): Polygon => rectCorners(r);

describe('samplePoints', () => {
  it('is the corners then the edge middles', () => {
    const p = samplePoints(poly({ x: 0, y: 0, w: 20, d: 10, h: 0 }));
    expect(p).toHaveLength(8);
    expect(p.slice(4)).toEqual([
      { x: 0, y: 5 },
      { x: 10, y: 0 },
      { x: 0, y: -5 },
      { x: -10, y: 0 },
    ]);
  });
});

describe('eligibleStands', () => {
  it('counts every stand with a target straight ahead, capped', () => {
    const target = poly({ x: 1000, y: 1600, w: 600, d: 100, h: 180 });
    expect(eligibleStands(NO_TERRAIN, shooter, stand, target, [], 10)).toBe(4);
    expect(eligibleStands(NO_TERRAIN, shooter, stand, target, [], 2)).toBe(2);
  });
  it('a target off to one side is seen only by the stands whose front arc holds it', () => {
    // a small target ahead and out to the right: only the two right-hand stands' 45° arcs reach it
    const target = poly({ x: 1400, y: 1400, w: 20, d: 20, h: 0 });
    expect(eligibleStands(NO_TERRAIN, shooter, stand, target, [], 10)).toBe(2);
    expect(eligibleStands(NO_TERRAIN, shooter, stand, poly({ x: 1000, y: 500, w: 100, d: 100, h: 0 }), [], 10)).toBe(0); // behind
  });
  it('a blocker in front of the left half stops those stands only', () => {
    const target = poly({ x: 1000, y: 1400, w: 400, d: 20, h: 180 });
    const blocker = poly({ x: 755, y: 1070, w: 510, d: 20, h: 0 }); // just ahead of the left two stands
    expect(eligibleStands(NO_TERRAIN, shooter, stand, target, [blocker], 10)).toBe(2);
  });
  it('blocking terrain counts like a blocker', () => {
    const woods: Terrain = {
      areas: [
        {
          id: 'w',
          kind: 'woods',
          polygon: poly({ x: 1000, y: 1250, w: 2000, d: 100, h: 0 }),
          difficult: true,
          impassable: false,
          cover: 'soft',
          blocksLos: true,
          seeThroughEdge: 0,
        },
      ],
      lines: [],
    };
    const target = poly({ x: 1000, y: 1600, w: 600, d: 100, h: 180 });
    expect(eligibleStands(woods, shooter, stand, target, [], 10)).toBe(0);
    expect(frontSees(woods, shooter, target, [])).toBe(false);
    expect(frontSees(NO_TERRAIN, shooter, target, [])).toBe(true);
  });
});

describe('coverAgainst', () => {
  const t: Terrain = {
    areas: [
      {
        id: 'w',
        kind: 'woods',
        polygon: poly({ x: 0, y: 0, w: 400, d: 400, h: 0 }),
        difficult: true,
        impassable: false,
        cover: 'soft',
        blocksLos: false,
        seeThroughEdge: 0,
      },
    ],
    lines: [
      {
        id: 'wall',
        kind: 'wall',
        points: [
          { x: 900, y: 200 },
          { x: 1100, y: 200 },
        ],
        obstacle: true,
        cover: 'hard',
        coverDepth: 100,
        blocksLos: false,
      },
    ],
  };
  it('takes the better of area and line cover', () => {
    const inWoods = poly({ x: 0, y: 0, w: 100, d: 50, h: 0 });
    expect(coverAgainst(t, inWoods, { x: 0, y: 0 }, { x: 0, y: 1000 })).toBe('soft');
    const behindWall = poly({ x: 1000, y: 150, w: 100, d: 50, h: 0 });
    expect(coverAgainst(t, behindWall, { x: 1000, y: 150 }, { x: 1000, y: 1000 })).toBe('hard');
    expect(coverAgainst(t, behindWall, { x: 1000, y: 150 }, { x: 1000, y: -1000 })).toBe('none'); // wall behind it
  });
});
