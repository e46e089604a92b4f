/** Shortest paths round obstacles, and crossings of paths. */
import { describe, expect, it } from 'vitest';
import type { Polygon, Vec } from '../geometry/geometry.ts';
import {
  convexHull,
  enlargeConvex,
  pathMap,
  polylineOutside,
  polylinesCross,
  segmentCrossesWall,
  segmentEntersPolygon,
  shortestPath,
} from './paths.ts';

const v = (x: number, y: number): Vec => ({ x, y });
/** An axis-aligned box from (x0, y0) to (x1, y1), anticlockwise. */
const box = (x0: number, y0: number, x1: number, y1: number): Polygon => [v(x0, y0), v(x1, y0), v(x1, y1), v(x0, y1)];
const table = { minX: 0, minY: 0, maxX: 1000, maxY: 1000 };

describe('segmentEntersPolygon', () => {
  const sq = box(100, 100, 200, 200);
  it('is true through the middle and for a diagonal between two corners', () => {
    expect(segmentEntersPolygon(v(0, 150), v(300, 150), sq)).toBe(true);
    expect(segmentEntersPolygon(v(100, 100), v(200, 200), sq)).toBe(true);
    // ends inside
    expect(segmentEntersPolygon(v(150, 150), v(150, 300), sq)).toBe(true);
  });
  it('is false along an edge, touching a corner, or outside', () => {
    expect(segmentEntersPolygon(v(0, 100), v(300, 100), sq)).toBe(false);
    expect(segmentEntersPolygon(v(100, 100), v(200, 100), sq)).toBe(false);
    expect(segmentEntersPolygon(v(0, 200), v(200, 0), sq)).toBe(false);
    expect(segmentEntersPolygon(v(0, 0), v(0, 300), sq)).toBe(false);
  });
  it('handles a non-convex polygon: a chord across the notch of an L stays out', () => {
    const ell: Polygon = [v(0, 0), v(200, 0), v(200, 100), v(100, 100), v(100, 200), v(0, 200)];
    expect(segmentEntersPolygon(v(200, 100), v(100, 200), ell)).toBe(false);
    expect(segmentEntersPolygon(v(200, 0), v(0, 200), ell)).toBe(true);
    // from a corner to a corner through the inside
    expect(segmentEntersPolygon(v(200, 100), v(0, 0), ell)).toBe(true);
  });
});

describe('segmentCrossesWall', () => {
  const wall = [v(0, 100), v(100, 100), v(200, 150)];
  it('crosses through a segment or side to side through a bend; touching does not', () => {
    expect(segmentCrossesWall(v(50, 0), v(50, 200), wall)).toBe(true);
    expect(segmentCrossesWall(v(100, 0), v(100, 200), wall)).toBe(true); // through the bend
    expect(segmentCrossesWall(v(100, 0), v(100, 100), wall)).toBe(false); // ends on it
    expect(segmentCrossesWall(v(250, 0), v(250, 300), wall)).toBe(false); // round the end
    // grazing the bend from below without crossing
    expect(segmentCrossesWall(v(0, 50), v(200, 150), wall)).toBe(false);
  });
});

describe('polylinesCross', () => {
  it('counts proper crossings, not touches', () => {
    expect(polylinesCross([v(0, 0), v(100, 100)], [v(0, 100), v(100, 0)])).toBe(true);
    expect(polylinesCross([v(0, 0), v(100, 100)], [v(100, 100), v(200, 0)])).toBe(false); // meet at an end
    expect(polylinesCross([v(0, 0), v(100, 0)], [v(50, 0), v(50, 100)])).toBe(false); // T: ends on it
    expect(polylinesCross([v(0, 0), v(200, 0)], [v(50, 0), v(150, 0)])).toBe(false); // along
    expect(polylinesCross([v(0, 0), v(100, 0)], [v(0, 10), v(100, 10)])).toBe(false);
  });
  it('counts a crossing at a bend of one, and at a bend of both', () => {
    // b bends on a's segment and goes through
    expect(polylinesCross([v(0, 50), v(200, 50)], [v(0, 0), v(100, 50), v(200, 100)])).toBe(true);
    // b bends on a's segment and comes back: a touch
    expect(polylinesCross([v(0, 50), v(200, 50)], [v(0, 0), v(100, 50), v(200, 0)])).toBe(false);
    // both bend at the same point, one passing through the other
    expect(polylinesCross([v(0, 0), v(100, 100), v(200, 0)], [v(0, 200), v(100, 100), v(200, 200)])).toBe(false);
    expect(polylinesCross([v(0, 0), v(100, 100), v(200, 0)], [v(0, 150), v(100, 100), v(100, 0)])).toBe(true);
  });
});

describe('polylineOutside', () => {
  it('cuts a polyline where gaps cover it', () => {
    const parts = polylineOutside(
      [v(0, 500), v(400, 500), v(1000, 500)],
      [box(300, 450, 350, 550), box(600, 400, 700, 600)],
    );
    expect(parts).toEqual([
      [v(0, 500), v(300, 500)],
      [v(350, 500), v(400, 500), v(600, 500)],
      [v(700, 500), v(1000, 500)],
    ]);
    expect(polylineOutside([v(0, 0), v(100, 0)], [])).toEqual([[v(0, 0), v(100, 0)]]);
    expect(polylineOutside([v(0, 0), v(100, 0)], [box(-10, -10, 110, 10)])).toEqual([]);
  });
});

describe('enlargeConvex', () => {
  it('grows a rectangle by r on every side, corners mitred', () => {
    const big = enlargeConvex(box(100, 100, 300, 200), 100);
    expect(new Set(big.map((p) => `${Math.round(p.x)},${Math.round(p.y)}`))).toEqual(
      new Set(['0,0', '400,0', '400,300', '0,300']),
    );
  });
  it('uses the hull of a non-convex polygon', () => {
    const ell: Polygon = [v(0, 0), v(200, 0), v(200, 100), v(100, 100), v(100, 200), v(0, 200)];
    expect(convexHull(ell)).toHaveLength(5);
    expect(enlargeConvex(ell, 10)).toHaveLength(5);
  });
});

describe('shortestPath', () => {
  it('is the straight line when nothing is in the way', () => {
    const m = pathMap({ obstacles: [{ outline: box(400, 400, 600, 600) }], bounds: table });
    const p = shortestPath(m, v(100, 100), v(900, 100))!;
    expect(p.length).toBeCloseTo(800);
    expect(p.points).toEqual([v(100, 100), v(900, 100)]);
  });
  it('goes round a block by its nearer corners', () => {
    const m = pathMap({ obstacles: [{ outline: box(400, 300, 600, 700) }], bounds: table });
    const p = shortestPath(m, v(100, 500), v(900, 500))!;
    // via (400, 700) and (600, 700), or the same below
    const want = 2 * Math.hypot(300, 200) + 200;
    expect(p.length).toBeCloseTo(want);
    expect(p.points).toHaveLength(4);
    expect(p.length).toBeGreaterThan(800);
  });
  it('goes round a chain of blocks, and knows a wall of them is unreachable within the table', () => {
    // a wall of blocks from the bottom edge to the top edge: no way round on the table
    const full = pathMap({ obstacles: [{ outline: box(400, -10, 600, 1010) }], bounds: table });
    expect(shortestPath(full, v(100, 500), v(900, 500))).toBeNull();
    // without the table's bounds the corners off the table are usable
    const free = pathMap({ obstacles: [{ outline: box(400, -10, 600, 1010) }] });
    expect(shortestPath(free, v(100, 500), v(900, 500))).not.toBeNull();
  });
  it('respects maxLength', () => {
    const m = pathMap({ obstacles: [{ outline: box(400, 300, 600, 700) }], bounds: table });
    expect(shortestPath(m, v(100, 500), v(900, 500), 900)).toBeNull();
    expect(shortestPath(m, v(100, 500), v(900, 500), 1000)!.length).toBeLessThan(1000);
  });
  it('does not cross a wall; goes round its end or through a gap', () => {
    const wall = [v(500, 0), v(500, 800)];
    const m = pathMap({ walls: [wall], bounds: table });
    const p = shortestPath(m, v(300, 100), v(700, 100))!;
    expect(p.points[1]).toEqual(v(500, 800));
    expect(p.length).toBeCloseTo(2 * Math.hypot(200, 700));
    // a wall cut for a bridge at y 300-400
    const cut = pathMap({
      walls: [
        [v(500, 0), v(500, 300)],
        [v(500, 400), v(500, 1000)],
      ],
      bounds: table,
    });
    const q = shortestPath(cut, v(300, 100), v(700, 100))!;
    expect(q.length).toBeCloseTo(2 * Math.hypot(200, 200));
    // a wall across the whole table
    const across = pathMap({ walls: [[v(500, 0), v(500, 1000)]], bounds: table });
    expect(shortestPath(across, v(300, 100), v(700, 100))).toBeNull();
  });
  it('does not slip through the bend of a bent wall', () => {
    // a V whose point is at (500, 500), open to the north; a straight line from (500, 200) to (500, 900) would pass the point
    const m = pathMap({ walls: [[v(300, 800), v(500, 500), v(700, 800)]], bounds: table });
    const p = shortestPath(m, v(500, 200), v(500, 700))!;
    expect(p.length).toBeGreaterThan(600);
    expect(polylinesCross(p.points, [v(300, 800), v(500, 500), v(700, 800)])).toBe(false);
  });
  it('lets a start inside an obstacle leave it, but not through its core', () => {
    const zone = box(300, 300, 700, 700);
    const core = box(400, 400, 600, 600);
    const m = pathMap({ obstacles: [{ outline: zone, core }], bounds: table });
    // from the zone's west band to the east: round the core, out through a corner of the zone
    const p = shortestPath(m, v(350, 500), v(900, 500))!;
    expect(p).not.toBeNull();
    expect(p.length).toBeGreaterThan(550);
    for (let i = 0; i + 1 < p.points.length; i++)
      expect(segmentEntersPolygon(p.points[i]!, p.points[i + 1]!, core)).toBe(false);
    // without a core it leaves straight through
    const open = pathMap({ obstacles: [{ outline: zone }], bounds: table });
    const q = shortestPath(open, v(350, 500), v(900, 500))!;
    // ...but not through the zone again after leaving: it is straight only because the leg is the first
    expect(q.length).toBeCloseTo(550);
    // an end inside: the last leg may enter
    expect(shortestPath(m, v(900, 500), v(350, 500))!.length).toBeCloseTo(p.length);
  });
  it('finds the same length as an exhaustive search over bends in a cluttered field', () => {
    const obstacles = [
      box(200, 200, 300, 600),
      box(400, 400, 500, 900),
      box(600, 100, 700, 500),
      box(800, 300, 850, 950),
    ];
    const m = pathMap({ obstacles: obstacles.map((outline) => ({ outline })), bounds: table });
    const p = shortestPath(m, v(100, 400), v(950, 600))!;
    expect(p).not.toBeNull();
    for (let i = 0; i + 1 < p.points.length; i++)
      for (const o of obstacles) expect(segmentEntersPolygon(p.points[i]!, p.points[i + 1]!, o)).toBe(false);
    // Floyd–Warshall on the full visibility graph of all corners
    const pts = [v(100, 400), v(950, 600), ...obstacles.flat()];
    const n = pts.length;
    const d = pts.map((a) =>
      pts.map((b) =>
        obstacles.some((o) => segmentEntersPolygon(a, b, o)) ? Infinity : Math.hypot(a.x - b.x, a.y - b.y),
      ),
    );
    for (let k = 0; k < n; k++)
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) d[i]![j] = Math.min(d[i]![j]!, d[i]![k]! + d[k]![j]!);
    expect(p.length).toBeCloseTo(d[0]![1]!);
    // a second query on the same map reuses what it has seen
    expect(m.seen.size).toBeGreaterThan(0);
    expect(shortestPath(m, v(100, 400), v(950, 600))!.length).toBeCloseTo(p.length);
  });
});
