/** Straight sweeps to first contact, and edge overlap. */
import { describe, expect, it } from 'vitest';
import { rectCorners } from '../geometry/geometry.ts';
import { edgeOverlap, sweepDistance } from './conform.ts';

describe('sweepDistance', () => {
  const target = rectCorners({ x: 0, y: 1000, w: 400, d: 100, h: 0 }); // rear edge at y = 950
  it('is the gap along the heading to first touch', () => {
    expect(sweepDistance(rectCorners({ x: 0, y: 0, w: 200, d: 100, h: 0 }), target, 0)).toBeCloseTo(900);
    // a corner leads: the target's corner meets the mover's front edge
    expect(sweepDistance(rectCorners({ x: 250, y: 0, w: 200, d: 100, h: 0 }), target, 0)).toBeCloseTo(900);
  });
  it('is Infinity when the heading misses', () => {
    expect(sweepDistance(rectCorners({ x: 1000, y: 0, w: 200, d: 100, h: 0 }), target, 0)).toBe(
      Number.POSITIVE_INFINITY,
    );
  });
  it('measures at an angle', () => {
    const d = sweepDistance(rectCorners({ x: 0, y: 0, w: 100, d: 100, h: 0 }), target, 10);
    expect(d).toBeCloseTo(900 / Math.cos(Math.PI / 18), 0);
  });
});

describe('edgeOverlap', () => {
  it('is the covered part of the second edge', () => {
    const o = edgeOverlap({ x: 100, y: 0 }, { x: 500, y: 0 }, { x: 0, y: 0 }, { x: 400, y: 0 });
    expect(o).toEqual({ from: 0.25, to: 1, length: 300 });
    expect(edgeOverlap({ x: 500, y: 0 }, { x: 600, y: 0 }, { x: 0, y: 0 }, { x: 400, y: 0 })).toBeNull();
  });
});
