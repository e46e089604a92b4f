/** Exact dice distributions for any die, checked against hand counts and against brute-force enumeration. */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import {
  check,
  checkWithRerolls,
  classify,
  faceForClass,
  facesForPool,
  facesForSumK,
  modifiedRoll,
  opposed,
  pool,
  rollOff,
  sumDist,
} from './dice.ts';
import { sumDistribution } from './chance.ts';

const total = (d: readonly { p: number }[]) => d.reduce((s, x) => s + x.p, 0);

/** Every sequence of n faces of a k-sided die. */
function* rolls(n: number, k: number): Generator<number[]> {
  if (n === 0) {
    yield [];
    return;
  }
  for (const rest of rolls(n - 1, k)) for (let f = 1; f <= k; f++) yield [...rest, f];
}

describe('sums of nDk', () => {
  it('2D6 has 7 at 6/36, agrees with the D6-only helper, and sums to 1', () => {
    const d = sumDist(2, 6);
    expect(d.find((x) => x.value === 7)!.p).toBeCloseTo(6 / 36, 15);
    expect(d.map((x) => [x.value, x.p])).toEqual(sumDistribution(2).map((x) => [x.sum, x.p]));
    expect(total(d)).toBeCloseTo(1, 12);
  });
  it('D10, 2D10 and D20 against enumeration', () => {
    for (const [n, k] of [
      [1, 10],
      [2, 10],
      [1, 20],
      [3, 4],
    ] as const) {
      const count = new Map<number, number>();
      for (const r of rolls(n, k))
        count.set(
          r.reduce((a, b) => a + b, 0),
          (count.get(r.reduce((a, b) => a + b, 0)) ?? 0) + 1,
        );
      expect(sumDist(n, k).map((x) => [x.value, x.p])).toEqual(
        [...count].sort((a, b) => a[0] - b[0]).map(([s, c]) => [s, c / k ** n]),
      );
    }
  });
  it('refuses a roll that is not one', () => {
    expect(() => sumDist(2, 0)).toThrow(/2D0 is not a roll/);
  });
});

describe('a die plus a modifier read through a table', () => {
  it('D10 + 3 on a table from "less than 0" to "9 or more"', () => {
    const row = (t: number) => (t >= 9 ? '9+' : t < 0 ? '<0' : String(t));
    const d = modifiedRoll(10, 3, row);
    expect(d.map((x) => x.value)).toEqual(['4', '5', '6', '7', '8', '9+']);
    expect(d.find((x) => x.value === '9+')!.p).toBeCloseTo(5 / 10, 15);
    expect(total(d)).toBeCloseTo(1, 12);
    const u = seedrandom.alea('f');
    for (let i = 0; i < 50; i++) expect(faceForClass(10, 3, row, '9+', u)).toBeGreaterThanOrEqual(6);
  });
  it('classify groups any distribution', () => {
    expect(classify(sumDist(2, 6), (s) => (s >= 10 ? 'high' : 'low')).map((x) => [x.value, +x.p.toFixed(6)])).toEqual([
      ['low', +(30 / 36).toFixed(6)],
      ['high', +(6 / 36).toFixed(6)],
    ]);
  });
});

describe('checks', () => {
  it('D6 needing 4 with one re-roll passes 3/4; a natural 1 always fails on a D10', () => {
    expect(check(6, 4, 0, { rerolls: 1 })).toEqual([
      { value: true, p: 0.75 },
      { value: false, p: 0.25 },
    ]);
    expect(check(10, 2, 5, { autoFail: 1 })[1]).toEqual({ value: false, p: 0.1 });
    expect(check(6, 1)).toEqual([{ value: true, p: 1 }]);
  });
  it('which re-roll was used', () => {
    const d = checkWithRerolls(6, 4, 0, 2);
    expect(d.map((x) => [x.value.pass, x.value.used, x.p])).toEqual([
      [true, 0, 0.5],
      [true, 1, 0.25],
      [true, 2, 0.125],
      [false, 2, 0.125],
    ]);
  });
});

describe('pools against a target number', () => {
  it('matches brute force: 4D6 needing 5, naturals tracked', () => {
    const want = new Map<string, number>();
    for (const r of rolls(4, 6)) {
      const key = `${r.filter((f) => f >= 5).length}/${r.filter((f) => f === 6).length}`;
      want.set(key, (want.get(key) ?? 0) + 1 / 6 ** 4);
    }
    const got = pool(4, 6, 5, 0, { naturals: true });
    expect(got.length).toBe(want.size);
    for (const x of got) expect(x.p).toBeCloseTo(want.get(`${x.value.hits}/${x.value.naturals}`)!, 12);
  });
  it('re-rolls of failures: 1D6 needing 4 with one re-roll hits 3/4; 2 dice, 1 re-roll, by enumeration', () => {
    expect(pool(1, 6, 4, 0, { rerolls: 1 }).map((x) => [x.value.hits, x.p])).toEqual([
      [0, 0.25],
      [1, 0.75],
    ]);
    // 2 dice needing 4 with one re-roll for the first failure: enumerate the 3 dice that could be rolled
    const want = [0, 0, 0];
    for (const [a, b, c] of rolls(3, 6)) {
      let hits = 0;
      let rr = 1;
      for (const f of [a!, b!]) {
        if (f >= 4) hits++;
        else if (rr) {
          rr--;
          if (c! >= 4) hits++;
        }
      }
      want[hits]! += 1 / 216;
    }
    const got = pool(2, 6, 4, 0, { rerolls: 1 });
    got.forEach((x) => expect(x.p).toBeCloseTo(want[x.value.hits]!, 12));
    expect(total(got)).toBeCloseTo(1, 12);
  });
  it('big D10 pools stay normalised; faces for display agree with the class', () => {
    const d = pool(20, 10, 7, -1, { naturals: true, autoFail: 1 });
    expect(total(d)).toBeCloseTo(1, 10);
    const u = seedrandom.alea('pool');
    for (const x of d.filter((_, i) => i % 7 === 0)) {
      const f = facesForPool(20, 10, 7, -1, x.value, u, { naturals: true, autoFail: 1 });
      expect(f.length).toBe(20);
      expect(f.filter((v) => v > 1 && v - 1 >= 7).length).toBe(x.value.hits);
      expect(f.filter((v) => v === 10).length).toBe(x.value.naturals);
    }
  });
});

describe('opposed rolls', () => {
  it('D10 + 2 against D10: differential from −7 to 11, P(+2) = 10/100', () => {
    const d = opposed(10, 2, 0);
    expect(d[0]!.value).toBe(-7);
    expect(d[d.length - 1]!.value).toBe(11);
    expect(d.find((x) => x.value === 2)!.p).toBeCloseTo(0.1, 15);
    expect(total(d)).toBeCloseTo(1, 12);
  });
  it('a roll-off with ties re-rolled is 50/50 when even, and favours the modifier', () => {
    expect(rollOff(6)).toEqual([
      { value: 0, p: 0.5 },
      { value: 1, p: 0.5 },
    ]);
    expect(rollOff(6, 1)[0]!.p).toBeCloseTo(21 / 31, 12); // 21 wins, 5 ties, 10 losses of 36
  });
});

describe('display faces for sums', () => {
  it('always sum to the class and stay on the die', () => {
    const u = seedrandom.alea('sum');
    for (let i = 0; i < 200; i++) {
      const f = facesForSumK(3, 10, 4 + (i % 24), u);
      expect(f.reduce((a, b) => a + b, 0)).toBe(4 + (i % 24));
      expect(f.every((x) => x >= 1 && x <= 10)).toBe(true);
    }
    expect(() => facesForSumK(2, 6, 13, u)).toThrow(/cannot sum to 13/);
  });
});
