/** Movement menus: furthest legal distance, fractions of it, wheels by outside arc, facings. */
import { describe, expect, it } from 'vitest';
import { type Rect, fx } from '../geometry/geometry.ts';
import {
  candidatesAlong,
  facingChoices,
  furthestAlong,
  straightMenu,
  wheelArc,
  wheelCandidates,
  wheelMenu,
} from './movement.ts';

const line: Rect = { x: fx(24), y: fx(10), w: fx(8), d: fx(1.6), h: 0 }; // facing north

describe('candidate destinations', () => {
  it('are a finite list', () => {
    const reach = furthestAlong(line, 0, fx(10), 25, (rr) => rr.y < fx(15));
    expect(reach).toBe(fx(4.75));
    expect(candidatesAlong(line, 0, fx(8), [0.25, 0.5, 0.75, 1]).map((c) => c.distance)).toEqual([
      fx(2),
      fx(4),
      fx(6),
      fx(8),
    ]);
    // a 8" frontage wheeling with 6" of allowance: 45° needs 6.28", 30° needs 4.19"
    expect(wheelCandidates(line, 'L', fx(6), [15, 30, 45]).map((c) => c.angle)).toEqual([15, 30]);
    expect(wheelArc(fx(8), 45)).toBeCloseTo(fx(6.2832), 0);
  });
  it('furthestAlong stops at the first failing step and at the allowance', () => {
    expect(furthestAlong(line, 0, fx(3), 25, () => true)).toBe(fx(3));
    expect(furthestAlong(line, 0, fx(3), 25, () => false)).toBe(0);
    expect(furthestAlong(line, 90, fx(3), 100, (rr) => rr.x <= fx(25.5))).toBe(fx(1.5) - 50);
  });
});

describe('straightMenu', () => {
  const base = { rect: line, dir: 0, allow: fx(8), step: 25, clear: false, endOk: () => true };
  it('offers fractions of the furthest legal point, always including it', () => {
    const m = straightMenu({ ...base, fractions: [0.5], pathOk: (rr) => rr.y <= fx(16) });
    expect(m).toEqual([fx(3), fx(6)]); // 1 is added
    expect(straightMenu({ ...base, fractions: [0.25, 0.5, 1], pathOk: () => true })).toEqual([fx(2), fx(4), fx(8)]);
  });
  it('skips path sampling when the sweep is known clear', () => {
    const m = straightMenu({ ...base, clear: true, fractions: [1], pathOk: () => false });
    expect(m).toEqual([fx(8)]);
  });
  it('backs an illegal end off by the step and offers 0 when nothing is legal', () => {
    // ends between 5" and 7" are illegal (a friend stands there): 8" stays, 6" backs off to 5" less a step
    const endOk = (rr: Rect) => !(rr.y > fx(15) && rr.y < fx(17));
    const m = straightMenu({ ...base, fractions: [0.75, 1], pathOk: () => true, endOk });
    expect(m).toEqual([fx(5), fx(8)]);
    expect(straightMenu({ ...base, fractions: [1], pathOk: () => false })).toEqual([0]);
  });
});

describe('wheelMenu and facings', () => {
  it('offers 0 and each fitting angle the callback allows', () => {
    expect(wheelMenu(line, 'R', fx(6), [10, 30, 45], () => true)).toEqual([0, 10, 30]);
    expect(wheelMenu(line, 'R', fx(6), [10, 30, 45], (r) => r.h < 20)).toEqual([0, 10]);
    const left = wheelMenu(line, 'L', fx(20), [90], () => true);
    expect(left).toEqual([0, 90]);
  });
  it('facings are the compass points, the current facing and each heading asked for, sorted and unique', () => {
    expect(facingChoices(4, 10, [90, 200])).toEqual([0, 10, 90, 180, 200, 270]);
    expect(facingChoices(8, 45, [])).toEqual([0, 45, 90, 135, 180, 225, 270, 315]);
  });
});
