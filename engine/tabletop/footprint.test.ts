/** Footprints: blocks of stands, squares, attached rectangles and inheritable caches. */
import { describe, expect, it } from 'vitest';
import { type Rect, rectCorners } from '../geometry/geometry.ts';
import { memo, attachedRect, blockFootprint, blockOf, sameOn, squareFootprint } from './footprint.ts';

describe('formations', () => {
  it('a block is files × ranks of stands', () => {
    expect(blockFootprint({ x: 5, y: 6 }, 90, 4, 2, 100, 50)).toEqual({ x: 5, y: 6, w: 400, d: 100, h: 90 });
    expect(blockOf(6, 6)).toEqual({ files: 6, ranks: 1 }); // a line
    expect(blockOf(5, 2)).toEqual({ files: 2, ranks: 3 }); // a column two wide, the odd stand in a third rank
    expect(blockOf(1, 2)).toEqual({ files: 1, ranks: 1 });
  });
  it('a square puts a quarter of the stands on each face', () => {
    expect(squareFootprint({ x: 0, y: 0 }, 0, 8, 100, 40)).toMatchObject({ w: 200, d: 200 });
    expect(squareFootprint({ x: 0, y: 0 }, 0, 9, 100, 40)).toMatchObject({ w: 300, d: 300 });
    expect(squareFootprint({ x: 0, y: 0 }, 0, 1, 100, 80)).toMatchObject({ w: 160, d: 160 }); // two stands deep
  });
});

describe('attachedRect', () => {
  const parent: Rect = { x: 1000, y: 1000, w: 400, d: 100, h: 0 }; // facing north (+y)
  const a = { w: 300, d: 50, gap: 20 };
  it('in front and behind, centred at the gap', () => {
    expect(attachedRect(parent, 'front', a)).toEqual({ x: 1000, y: 1095, w: 300, d: 50, h: 0 });
    expect(attachedRect(parent, 'rear', a)).toEqual({ x: 1000, y: 905, w: 300, d: 50, h: 0 });
  });
  it('on a flank, beside it at the gap with the fronts level', () => {
    const l = attachedRect(parent, 'left', a);
    expect(l).toEqual({ x: 630, y: 1025, w: 300, d: 50, h: 0 });
    expect(rectCorners(l)[0]!.y).toBe(rectCorners(parent)[0]!.y); // fronts level
    expect(rectCorners(parent)[0]!.x - rectCorners(l)[1]!.x).toBe(20); // the gap
    expect(attachedRect(parent, 'right', a).x).toBe(1370);
  });
  it('turns with the parent', () => {
    const east = attachedRect({ ...parent, h: 90 }, 'front', a);
    expect(east).toEqual({ x: 1095, y: 1000, w: 300, d: 50, h: 90 });
  });
});

describe('memo', () => {
  it('computes once per object and lets an equal copy inherit', () => {
    let n = 0;
    const m = memo<{ x: number; tag: string }, number | null>((o) => {
      n++;
      return o.x > 0 ? o.x * 2 : null;
    });
    const a = { x: 3, tag: 'a' };
    expect(m.get(a)).toBe(6);
    expect(m.get(a)).toBe(6);
    expect(n).toBe(1);
    const z = { x: 0, tag: 'z' };
    expect(m.get(z)).toBe(null);
    expect(m.get(z)).toBe(null);
    expect(n).toBe(2); // null is cached too
    const b = { ...a, tag: 'b' };
    expect(sameOn(a, b, ['x'])).toBe(true);
    expect(sameOn(a, b, ['x', 'tag'])).toBe(false);
    m.inherit(a, b);
    expect(m.get(b)).toBe(6);
    expect(n).toBe(2);
  });
});
