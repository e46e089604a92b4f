import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import {
  facesForHits,
  facesForSum,
  faceForCheck,
  firstDieGivenSum,
  sumDistribution,
  choose,
  pSuccess,
} from './chance.ts';

describe('exact dice distributions', () => {
  it('2D6 and 3D6 sums are exact and sum to 1', () => {
    const d2 = sumDistribution(2);
    expect(d2.find((x) => x.sum === 7)!.p).toBe(6 / 36);
    expect(d2.find((x) => x.sum === 2)!.p).toBe(1 / 36);
    const d3 = sumDistribution(3);
    expect(d3.find((x) => x.sum === 10)!.p).toBe(27 / 216);
    for (const n of [1, 2, 3, 4]) expect(sumDistribution(n).reduce((a, b) => a + b.p, 0)).toBeCloseTo(1, 12);
  });

  it('first die given the sum (the M7 first-die rule)', () => {
    expect(firstDieGivenSum(2, 12)).toEqual([{ face: 6, p: 1 }]);
    const seven = firstDieGivenSum(2, 7);
    expect(seven).toHaveLength(6);
    for (const o of seven) expect(o.p).toBeCloseTo(1 / 6, 12);
    expect(firstDieGivenSum(3, 4).map((o) => o.face)).toEqual([1, 2]);
  });

  it('combinatorics and single-die success', () => {
    expect(choose(5, 2)).toBe(10);
    expect(pSuccess(4)).toBe(0.5);
    expect(pSuccess(5, -1)).toBe(1 / 6);
    expect(pSuccess(2, 2)).toBe(1);
  });

  it('display faces are consistent with their class', () => {
    const u = seedrandom.alea('faces');
    for (let i = 0; i < 200; i++) {
      const n = 1 + (i % 4);
      const sum = n + Math.floor(u() * (5 * n + 1));
      const f = facesForSum(n, sum, u);
      expect(f.length).toBe(n);
      expect(f.reduce((a, b) => a + b, 0)).toBe(sum);
      expect(f.every((x) => x >= 1 && x <= 6)).toBe(true);
      const hits = Math.floor(u() * (n + 1));
      const h = facesForHits(n, 4, 0, hits, hits > 0 ? true : undefined, u);
      expect(h.filter((x) => x >= 4).length).toBe(hits);
      if (hits > 0) expect(h).toContain(6);
      expect(faceForCheck(4, 0, true, u)).toBeGreaterThanOrEqual(4);
      expect(faceForCheck(4, 0, false, u)).toBeLessThan(4);
    }
  });
});
