import { describe, expect, it } from 'vitest';
import {
  IN,
  fx,
  headingTo,
  inFrontArc,
  onTable,
  polygonDistance,
  polygonsOverlap,
  rectCorners,
  sectorOf,
  segmentDistance,
  type Vec,
  translate,
  wheel,
  type Rect,
  segmentLengthInside,
  fractionInside,
} from './geometry.ts';
import { type Terrain, lineOfSight, obstaclesCrossed, upSlope, difficultFraction, lineCover } from './terrain.ts';

const line: Rect = { x: fx(24), y: fx(10), w: fx(8), d: fx(1.6), h: 0 }; // facing north

describe('oriented rectangles', () => {
  it('corners follow heading (front-left, front-right, rear-right, rear-left)', () => {
    const c = rectCorners(line);
    expect(c[0]).toEqual({ x: fx(20), y: fx(10.8) });
    expect(c[1]).toEqual({ x: fx(28), y: fx(10.8) });
    const east = rectCorners({ ...line, h: 90 });
    expect(east[0]!.x).toBeCloseTo(fx(24.8));
    expect(east[0]!.y).toBeCloseTo(fx(14));
  });

  it('sectors: front and rear bounded by 45° corner rays, flanks otherwise', () => {
    expect(sectorOf(line, { x: fx(24), y: fx(20) })).toBe('front');
    expect(sectorOf(line, { x: fx(31), y: fx(14) })).toBe('front'); // 3" right of the corner, 3.2" ahead: inside 45°
    expect(sectorOf(line, { x: fx(32), y: fx(14) })).toBe('right'); // 4" right, 3.2" ahead: outside
    expect(sectorOf(line, { x: fx(34), y: fx(12) })).toBe('right');
    expect(sectorOf(line, { x: fx(14), y: fx(10) })).toBe('left');
    expect(sectorOf(line, { x: fx(24), y: fx(2) })).toBe('rear');
    expect(inFrontArc(line, { x: fx(24), y: fx(30) })).toBe(true);
    expect(inFrontArc(line, { x: fx(24), y: fx(5) })).toBe(false);
  });

  it('edge-to-edge distance and overlap', () => {
    const other: Rect = { ...line, y: fx(16) }; // fronts 16-0.8 = 15.2 vs 10.8 → 4.4"
    expect(polygonDistance(rectCorners(line), rectCorners(other)) / IN).toBeCloseTo(4.4, 6);
    expect(polygonsOverlap(rectCorners(line), rectCorners({ ...line, x: fx(27) }))).toBe(true);
    expect(polygonDistance(rectCorners(line), rectCorners({ ...line, x: fx(27) }))).toBe(0);
  });

  it('edge-to-edge distance equals the brute force over every pair of edges, at any angle', () => {
    // the reference: smallest distance between any two edges (0 when any cross, or one polygon holds the other)
    const brute = (a: Vec[], b: Vec[]): number => {
      if (polygonsOverlap(a, b)) return 0;
      let best = Infinity;
      for (let i = 0; i < a.length; i++)
        for (let j = 0; j < b.length; j++)
          best = Math.min(best, segmentDistance(a[i]!, a[(i + 1) % a.length]!, b[j]!, b[(j + 1) % b.length]!));
      return best;
    };
    let seed = 7;
    const r = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let touching = 0;
    for (let k = 0; k < 2000; k++) {
      const a: Rect = {
        x: fx(20 + r() * 10),
        y: fx(10 + r() * 10),
        w: fx(1 + r() * 8),
        d: fx(0.5 + r() * 3),
        h: Math.floor(r() * 360),
      };
      const b: Rect = {
        x: fx(20 + r() * 10),
        y: fx(10 + r() * 10),
        w: fx(1 + r() * 8),
        d: fx(0.5 + r() * 3),
        h: Math.floor(r() * 360),
      };
      const pa = rectCorners(a);
      const pb = rectCorners(b);
      const want = brute(pa, pb);
      if (want === 0) touching++;
      expect(polygonDistance(pa, pb)).toBeCloseTo(want, 6);
      expect(polygonDistance(pb, pa)).toBeCloseTo(want, 6);
    }
    expect(touching).toBeGreaterThan(100); // both branches exercised
    expect(touching).toBeLessThan(1900);
  });

  it('translation keeps facing; a wheel pivots on the inner front corner', () => {
    const m = translate(line, 45, fx(10));
    expect(m.h).toBe(0);
    expect(m.x - line.x).toBe(Math.round(fx(10) * Math.SQRT1_2));
    const w = wheel(line, 'R', 90);
    expect(w.h).toBe(90);
    const before = rectCorners(line)[1]!;
    const after = rectCorners(w)[1]!; // the front-right corner is the pivot when wheeling right
    expect(after.x).toBeCloseTo(before.x, -1);
    expect(after.y).toBeCloseTo(before.y, -1);
  });

  it('headings and the table', () => {
    expect(headingTo({ x: 0, y: 0 }, { x: 0, y: 10 })).toBe(0);
    expect(headingTo({ x: 0, y: 0 }, { x: 10, y: 0 })).toBe(90);
    expect(onTable(rectCorners(line), fx(48), fx(48))).toBe(true);
    expect(onTable(rectCorners({ ...line, x: fx(2) }), fx(48), fx(48))).toBe(false);
  });
});

const wood = {
  id: 'w',
  kind: 'woods',
  polygon: [
    { x: fx(10), y: fx(10) },
    { x: fx(20), y: fx(10) },
    { x: fx(20), y: fx(20) },
    { x: fx(10), y: fx(20) },
  ],
  difficult: true,
  impassable: false,
  cover: 'soft' as const,
  blocksLos: true,
  seeThroughEdge: fx(2),
};
const hedge = {
  id: 'h',
  kind: 'hedge',
  points: [
    { x: fx(30), y: fx(30) },
    { x: fx(44), y: fx(30) },
  ],
  obstacle: true,
  cover: 'soft' as const,
  coverDepth: IN,
  blocksLos: false,
};
const hill = {
  id: 'k',
  kind: 'hill',
  polygon: [
    { x: fx(30), y: fx(0) },
    { x: fx(44), y: fx(0) },
    { x: fx(44), y: fx(10) },
    { x: fx(30), y: fx(10) },
  ],
  difficult: false,
  impassable: false,
  cover: 'none' as const,
  blocksLos: false,
  seeThroughEdge: 0,
  crest: { x: fx(37), y: fx(5) },
};
const terrain: Terrain = { areas: [wood, hill], lines: [hedge] };

describe('terrain and line of sight (drawn as small maps)', () => {
  // y
  // 20 +----------+
  //    |  wood    |
  // 10 +----------+
  //    10         20
  it('a wood blocks sight through it', () => {
    expect(lineOfSight(terrain, { x: fx(5), y: fx(15) }, { x: fx(25), y: fx(15) }, [])).toBe(false);
    expect(lineOfSight(terrain, { x: fx(5), y: fx(25) }, { x: fx(25), y: fx(25) }, [])).toBe(true);
  });
  it('a unit just inside the wood edge sees out and is seen (within 2")', () => {
    expect(lineOfSight(terrain, { x: fx(11), y: fx(15) }, { x: fx(2), y: fx(15) }, [])).toBe(true);
    expect(lineOfSight(terrain, { x: fx(15), y: fx(15) }, { x: fx(2), y: fx(15) }, [])).toBe(false);
  });
  it('other footprints block sight', () => {
    const blocker = rectCorners({ x: fx(30), y: fx(40), w: fx(4), d: fx(2), h: 0 });
    expect(lineOfSight(terrain, { x: fx(30), y: fx(35) }, { x: fx(30), y: fx(45) }, [blocker])).toBe(false);
  });
  it('difficult fraction, slopes, obstacles and hedge cover', () => {
    expect(difficultFraction(terrain, { x: fx(5), y: fx(15) }, { x: fx(25), y: fx(15) })).toBeCloseTo(0.5, 1);
    expect(upSlope(terrain, { x: fx(37), y: fx(1) }, 0)).toBe(true); // heading for the crest
    expect(upSlope(terrain, { x: fx(37), y: fx(1) }, 180)).toBe(false);
    const r: Rect = { x: fx(37), y: fx(27), w: fx(4), d: fx(1.6), h: 0 };
    expect(obstaclesCrossed(terrain, r, translate(r, 0, fx(6))).map((l) => l.id)).toEqual(['h']);
    const shooterSide = rectCorners({ x: fx(37), y: fx(29), w: fx(4), d: fx(1.6), h: 180 });
    expect(lineCover(terrain, { x: fx(37), y: fx(20) }, shooterSide, { x: fx(37), y: fx(29) })).toBe('none'); // hedge not between them
    const beyond = rectCorners({ x: fx(37), y: fx(31.5), w: fx(4), d: fx(1), h: 180 });
    expect(lineCover(terrain, { x: fx(37), y: fx(20) }, beyond, { x: fx(37), y: fx(31.5) })).toBe('soft');
  });
});

describe('segmentLengthInside', () => {
  const square = [
    { x: 0, y: 0 },
    { x: 100, y: 0 },
    { x: 100, y: 100 },
    { x: 0, y: 100 },
  ];
  // an L: the notch x 50–100, y 50–100 is outside
  const ell = [
    { x: 0, y: 0 },
    { x: 100, y: 0 },
    { x: 100, y: 50 },
    { x: 50, y: 50 },
    { x: 50, y: 100 },
    { x: 0, y: 100 },
  ];
  it('through, into, within and beside a square', () => {
    expect(segmentLengthInside({ x: -50, y: 50 }, { x: 150, y: 50 }, square)).toBeCloseTo(100, 9);
    expect(segmentLengthInside({ x: -50, y: 50 }, { x: 30, y: 50 }, square)).toBeCloseTo(30, 9);
    expect(segmentLengthInside({ x: 10, y: 10 }, { x: 40, y: 50 }, square)).toBeCloseTo(50, 9);
    expect(segmentLengthInside({ x: -50, y: -10 }, { x: 150, y: -10 }, square)).toBe(0);
    // the diagonal, corner to corner and beyond
    expect(segmentLengthInside({ x: -10, y: -10 }, { x: 110, y: 110 }, square)).toBeCloseTo(100 * Math.SQRT2, 9);
  });
  it('a non-convex polygon: the piece across the notch is outside', () => {
    expect(segmentLengthInside({ x: -10, y: 75 }, { x: 110, y: 75 }, ell)).toBeCloseTo(50, 9);
    expect(segmentLengthInside({ x: 75, y: -10 }, { x: 75, y: 110 }, ell)).toBeCloseTo(50, 9);
    expect(segmentLengthInside({ x: 25, y: 25 }, { x: 25, y: 25 }, ell)).toBe(0);
  });
  it('agrees with fine sampling on random segments', () => {
    let seed = 7;
    const r = () => {
      seed = (seed * 16807) % 2147483647;
      return (seed / 2147483647) * 160 - 30;
    };
    for (let i = 0; i < 200; i++) {
      const p = { x: r(), y: r() };
      const q = { x: r(), y: r() };
      const exact = segmentLengthInside(p, q, ell);
      const sampled = fractionInside(p, q, [ell], 20000) * Math.hypot(q.x - p.x, q.y - p.y);
      expect(Math.abs(exact - sampled)).toBeLessThan(0.05);
    }
  });
});
