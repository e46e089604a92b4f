/**
 * Exact dice distributions and the display helpers that turn an outcome class into concrete faces.
 *
 * The engine owns no RNG. A chance node lists outcome classes that the rules distinguish ("3 hits", "sum 9")
 * with exact probabilities (computed from integer counts over 6^n, so they sum to 1 up to float rounding).
 * Whoever drives the game chooses the outcome; `facesFor*` produce faces consistent with a class for display,
 * using a caller-supplied uniform generator in [0, 1).
 */

import { facesForSumK, sumCountsK, type Uniform } from './dice.ts';

export type { Uniform };

/** counts[s] = number of ways nD6 sums to s (index 0..6n). */
export function sumCounts(n: number): readonly number[] {
  return sumCountsK(n, 6);
}

/** Exact distribution of the sum of nD6: [{sum, p}] for every reachable sum, ascending. */
export function sumDistribution(n: number): { sum: number; p: number }[] {
  const c = sumCounts(n);
  const den = 6 ** n;
  const out: { sum: number; p: number }[] = [];
  for (let s = n; s <= 6 * n; s++) out.push({ sum: s, p: c[s]! / den });
  return out;
}

/** P(first die = f | sum of nD6 = s), for f = 1..6 (only the reachable ones). */
export function firstDieGivenSum(n: number, s: number): { face: number; p: number }[] {
  const total = sumCounts(n)[s] ?? 0;
  if (!total) throw new Error(`firstDieGivenSum: ${n}D6 cannot sum to ${s}`);
  const rest = n - 1 > 0 ? sumCounts(n - 1) : [1];
  const out: { face: number; p: number }[] = [];
  for (let f = 1; f <= 6; f++) {
    const w = rest[s - f] ?? 0;
    if (w) out.push({ face: f, p: w / total });
  }
  return out;
}

/** Binomial coefficients. */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** Probability that a D6 (after adding `mod`) scores at least `need`: faces f with f + mod >= need. */
export function pSuccess(need: number, mod = 0): number {
  let w = 0;
  for (let f = 1; f <= 6; f++) if (f + mod >= need) w++;
  return w / 6;
}

/** Faces of nD6 summing to `sum`, drawn uniformly among the compositions. */
export function facesForSum(n: number, sum: number, u: Uniform): number[] {
  return facesForSumK(n, 6, sum, u);
}

function faceIn(lo: number, hi: number, u: Uniform): number {
  return lo + Math.min(hi - lo, Math.floor(u() * (hi - lo + 1)));
}

/**
 * n dice of which exactly `hits` score at least `need` (natural face + `mod`), for display.
 * `six` forces (true) or forbids (false) at least one natural 6 among them, when that is consistent.
 */
export function facesForHits(
  n: number,
  need: number,
  mod: number,
  hits: number,
  six: boolean | undefined,
  u: Uniform,
): number[] {
  const lowHit = Math.max(1, Math.min(6, need - mod));
  const faces: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i < hits) faces.push(faceIn(lowHit, six === false ? 5 : 6, u));
    else faces.push(faceIn(1, Math.max(1, lowHit - 1), u));
  }
  if (six === true && !faces.includes(6)) {
    const idx = faces.findIndex((f) => f + mod >= need);
    faces[idx >= 0 ? idx : 0] = 6;
  }
  for (let i = faces.length - 1; i > 0; i--) {
    const j = Math.floor(u() * (i + 1));
    [faces[i], faces[j]] = [faces[j]!, faces[i]!];
  }
  return faces;
}

/** A single die face at or above (pass) / below (fail) a target, for display. */
export function faceForCheck(need: number, mod: number, pass: boolean, u: Uniform): number {
  const lowPass = Math.max(1, Math.min(7, need - mod));
  if (pass) return faceIn(Math.min(6, lowPass), 6, u);
  return faceIn(1, Math.max(1, lowPass - 1), u);
}
