/**
 * Small pure helpers for drawing random values from a uniform source `u` (values in [0, 1)), used by the rulesets'
 * scenario generators (`Game.randomScenario`). No Math.random anywhere: the same `u` sequence gives the same draws.
 */

export type Uniform = () => number;

/** An integer in [lo, hi], both included. */
export function int(u: Uniform, lo: number, hi: number): number {
  return lo + Math.min(hi - lo, Math.floor(u() * (hi - lo + 1)));
}

/** A real number in [lo, hi). */
export function real(u: Uniform, lo: number, hi: number): number {
  return lo + u() * (hi - lo);
}

/** True with probability `p`. */
export function chance(u: Uniform, p: number): boolean {
  return u() < p;
}

export function pick<T>(u: Uniform, xs: readonly T[]): T {
  if (!xs.length) throw new Error('pick from an empty list');
  return xs[int(u, 0, xs.length - 1)]!;
}

/** One of `choices`, each drawn with probability proportional to its weight. */
export function weighted<T>(u: Uniform, choices: readonly (readonly [T, number])[]): T {
  const total = choices.reduce((t, [, w]) => t + w, 0);
  let r = u() * total;
  for (const [v, w] of choices) {
    if (r < w) return v;
    r -= w;
  }
  return choices[choices.length - 1]![0];
}

/** A shuffled copy (Fisher–Yates). */
export function shuffle<T>(u: Uniform, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = int(u, 0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** `n` distinct elements of `xs` in their original order (all of them when n ≥ xs.length). */
export function subset<T>(u: Uniform, xs: readonly T[], n: number): T[] {
  const keep = new Set(
    shuffle(
      u,
      xs.map((_, i) => i),
    ).slice(0, n),
  );
  return xs.filter((_, i) => keep.has(i));
}

/** `x` rounded to a multiple of `step` (files store short decimals, not float noise). */
export function roundTo(x: number, step: number): number {
  const r = Number((Math.round(x / step) * step).toFixed(6));
  return r === 0 ? 0 : r; // no -0 in files
}
