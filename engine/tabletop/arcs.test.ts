/** Arcs off an edge at any angle, convex clipping, and where a segment meets a shape. */
import { describe, expect, it } from 'vitest';
import { type Rect, rectCorners } from '../geometry/geometry.ts';
import { clipConvex, edgeArc, inArc, segmentSpan } from './arcs.ts';

const r: Rect = { x: 0, y: 0, w: 400, d: 100, h: 0 }; // front edge y = 50, from x = -200 to 200

describe('edgeArc', () => {
  it('spreads from the ends of the edge by the angle', () => {
    const a = edgeArc(r, 45, 1000);
    expect(a[0]).toEqual({ x: -200, y: 50 });
    expect(a[2]!.x).toBeCloseTo(1200);
    expect(a[2]!.y).toBeCloseTo(1050);
  });
  it('a part of the edge gets its own arc; a body reaches into it or not', () => {
    const a = edgeArc(r, 22.5, 1000, 150, 200);
    const near = rectCorners({ x: 250, y: 400, w: 40, d: 40, h: 0 });
    const wide = rectCorners({ x: 600, y: 200, w: 40, d: 40, h: 0 });
    expect(inArc(a, near)).toBe(true);
    expect(inArc(a, wide)).toBe(false);
  });
});

describe('clipConvex', () => {
  it('keeps the part inside, whatever the winding', () => {
    const sq = rectCorners({ x: 0, y: 0, w: 200, d: 200, h: 0 });
    const half = rectCorners({ x: 100, y: 0, w: 200, d: 400, h: 0 });
    const c = clipConvex(sq, half);
    const xs = c.map((p) => p.x);
    expect(Math.min(...xs)).toBeCloseTo(0);
    expect(Math.max(...xs)).toBeCloseTo(100);
    expect(clipConvex(sq, [...half].reverse()).length).toBe(c.length);
    expect(clipConvex(sq, rectCorners({ x: 1000, y: 0, w: 10, d: 10, h: 0 }))).toEqual([]);
  });
});

describe('segmentSpan', () => {
  const sq = rectCorners({ x: 500, y: 0, w: 200, d: 200, h: 0 });
  it('is where the segment enters and leaves a polygon', () => {
    expect(segmentSpan({ x: 0, y: 0 }, { x: 1000, y: 0 }, sq, true)).toEqual([0.4, 0.6]);
    expect(segmentSpan({ x: 0, y: 0 }, { x: 500, y: 0 }, sq, true)).toEqual([0.8, 1]);
    expect(segmentSpan({ x: 0, y: 500 }, { x: 1000, y: 500 }, sq, true)).toBeNull();
  });
  it('and where it crosses a polyline', () => {
    expect(
      segmentSpan(
        { x: 0, y: 0 },
        { x: 1000, y: 0 },
        [
          { x: 250, y: -10 },
          { x: 250, y: 10 },
        ],
        false,
      ),
    ).toEqual([0.25, 0.25]);
  });
});
