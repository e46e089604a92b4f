/** Contact rectangles against each face, and the face segments. */
import { describe, expect, it } from 'vitest';
import { type Rect, polygonDistance, polygonsOverlap, rectCorners } from '../geometry/geometry.ts';
import { type Face, contactRect, faceSegment } from './contact.ts';

const target: Rect = { x: 1000, y: 1000, w: 400, d: 100, h: 0 }; // facing north

describe('contactRect', () => {
  it('stands against each face, facing it, the gap off', () => {
    expect(contactRect(target, 'front', 300, 80, 1)).toEqual({ x: 1000, y: 1091, w: 300, d: 80, h: 180 });
    expect(contactRect(target, 'rear', 300, 80, 1)).toEqual({ x: 1000, y: 909, w: 300, d: 80, h: 0 });
    expect(contactRect(target, 'left', 300, 80, 1)).toEqual({ x: 759, y: 1000, w: 300, d: 80, h: 90 });
    expect(contactRect(target, 'right', 300, 80, 1)).toEqual({ x: 1241, y: 1000, w: 300, d: 80, h: 270 });
  });
  it('never overlaps the target and touches it within the gap, at any heading', () => {
    for (const h of [0, 30, 135, 270])
      for (const face of ['front', 'rear', 'left', 'right'] as Face[]) {
        const t = { ...target, h };
        const c = rectCorners(contactRect(t, face, 300, 80, 2));
        expect(polygonsOverlap(c, rectCorners(t))).toBe(false);
        expect(polygonDistance(c, rectCorners(t))).toBeLessThanOrEqual(3);
      }
  });
});

describe('faceSegment', () => {
  it('is the edge of the face, left to right as seen from outside', () => {
    expect(faceSegment(target, 'front')).toEqual([
      { x: 800, y: 1050 },
      { x: 1200, y: 1050 },
    ]);
    expect(faceSegment(target, 'rear')).toEqual([
      { x: 1200, y: 950 },
      { x: 800, y: 950 },
    ]);
    expect(faceSegment(target, 'left')[0]).toEqual({ x: 800, y: 950 });
    expect(faceSegment(target, 'right')[1]).toEqual({ x: 1200, y: 950 });
  });
});
