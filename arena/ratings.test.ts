import { describe, expect, it } from 'vitest';
import { bradleyTerry, crosstable, expected, sprt, type GameResult } from './ratings.ts';

const games = (a: string, b: string, w: number, d: number, l: number): GameResult[] => [
  ...Array.from({ length: w }, () => ({ a, b, score: 1 })),
  ...Array.from({ length: d }, () => ({ a, b, score: 0.5 })),
  ...Array.from({ length: l }, () => ({ a, b, score: 0 })),
];

describe('Bradley–Terry Elo', () => {
  it('two players, 300–100: a 190.8 Elo gap, each ±19.7 at 95%', () => {
    const r = bradleyTerry(games('A', 'B', 300, 0, 100));
    const [a, b] = r;
    expect(a!.player).toBe('A');
    expect(a!.elo - b!.elo).toBeCloseTo(400 * Math.log10(3), 0); // the weak prior moves it by well under 1 Elo
    expect(a!.elo + b!.elo).toBeCloseTo(0, 9);
    expect(a!.ci95).toBeCloseTo(19.7, 0);
    expect(a!.score).toBe(0.75);
  });
  it('draws count half; three players order transitively', () => {
    const r = bradleyTerry([
      ...games('A', 'B', 30, 20, 10),
      ...games('B', 'C', 30, 20, 10),
      ...games('A', 'C', 40, 15, 5),
    ]);
    const elo = Object.fromEntries(r.map((x) => [x.player, x.elo]));
    expect(elo.A!).toBeGreaterThan(elo.B!);
    expect(elo.B!).toBeGreaterThan(elo.C!);
    expect(r.every((x) => Number.isFinite(x.ci95) && x.ci95 > 0)).toBe(true);
  });
  it('a perfect score stays finite, with an unbounded interval', () => {
    const r = bradleyTerry(games('A', 'B', 20, 0, 0));
    expect(Number.isFinite(r[0]!.elo)).toBe(true);
    expect(r[0]!.ci95).toBe(Infinity);
  });
  it('refuses results that do not connect the players', () => {
    expect(() => bradleyTerry([...games('A', 'B', 3, 0, 1), ...games('C', 'D', 2, 0, 2)])).toThrow(/do not connect/);
  });
});

describe('crosstable', () => {
  it('counts W/D/L both ways', () => {
    const t = crosstable(games('A', 'B', 3, 2, 1));
    expect(t.cells.A!.B).toEqual({ wins: 3, draws: 2, losses: 1, score: 4 });
    expect(t.cells.B!.A).toEqual({ wins: 1, draws: 2, losses: 3, score: 2 });
  });
});

describe('SPRT', () => {
  it('accepts H1 for a clearly stronger A, H0 for a clearly weaker one, and continues when unclear', () => {
    const strong = Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? 0 : 1)); // 75%
    expect(sprt(strong, 0, 50).decision).toBe('H1');
    const weak = Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? 1 : 0)); // 25%
    expect(sprt(weak, 0, 50).decision).toBe('H0');
    const even = Array.from({ length: 20 }, (_, i) => (i % 2 ? 1 : 0));
    expect(sprt(even, -20, 20).decision).toBe('continue');
    expect(expected(0)).toBe(0.5);
    expect(expected(400)).toBeCloseTo(10 / 11, 12);
  });
});
