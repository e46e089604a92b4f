/**
 * Exact dice distributions for any die (D6, D10, D20, …), grouped into the outcome classes a rule distinguishes,
 * and faces consistent with a class for display.
 *
 * Rulesets build chance nodes from these: a sum of nDk, a pool of dice against a target number (with re-rolls of
 * failures and "natural" top faces tracked), an opposed roll read as a differential, a pass/fail check. Every
 * distribution is computed from integer counts over k^n where they fit in a double exactly, so the probabilities sum
 * to 1 up to float rounding and equal classes compare equal. Nothing here draws a random number: the display helpers
 * take a uniform source from the caller.
 */
/** A uniform source in [0, 1), supplied by whoever drives the game. */
export type Uniform = () => number;

/** One outcome class and its probability. */
export interface Dist<T> {
  readonly value: T;
  readonly p: number;
}

/** counts[s] = number of ways nDk sums to s (index 0..n·k). */
const countsCache = new Map<string, readonly number[]>();
export function sumCountsK(n: number, k: number): readonly number[] {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(k) || k < 1)
    throw new RangeError(`sumCountsK: ${n}D${k} is not a roll`);
  const key = `${n}d${k}`;
  const c = countsCache.get(key);
  if (c) return c;
  let dist = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array<number>(dist.length + k).fill(0);
    for (let s = 0; s < dist.length; s++) {
      const w = dist[s]!;
      if (w) for (let f = 1; f <= k; f++) next[s + f]! += w;
    }
    dist = next;
  }
  dist.length = n * k + 1;
  for (let i = 0; i < dist.length; i++) dist[i] ??= 0;
  countsCache.set(key, dist);
  return dist;
}

/** The sum of nDk: every reachable sum, ascending. */
export function sumDist(n: number, k: number): Dist<number>[] {
  const c = sumCountsK(n, k);
  const den = k ** n;
  const out: Dist<number>[] = [];
  for (let s = n; s <= n * k; s++) out.push({ value: s, p: c[s]! / den });
  return out;
}

/**
 * Group a distribution into classes: `classOf` names the class of each value (e.g. a table row for "D10 + 3"),
 * and classes are listed in order of first appearance with their summed probability.
 */
export function classify<T, C extends string | number>(d: readonly Dist<T>[], classOf: (v: T) => C): Dist<C>[] {
  const m = new Map<C, number>();
  for (const o of d) {
    const c = classOf(o.value);
    m.set(c, (m.get(c) ?? 0) + o.p);
  }
  return [...m].map(([value, p]) => ({ value, p }));
}

/** A single die plus a modifier, read through a table: `row(total)` names the row (e.g. clamped "9 or more"). */
export function modifiedRoll<C extends string | number>(k: number, mod: number, row: (total: number) => C): Dist<C>[] {
  return classify(sumDist(1, k), (f) => row(f + mod));
}

/** Faces succeeding on one die: natural face + mod ≥ need, except that `autoFail` faces and below always fail. */
function successes(k: number, need: number, mod: number, autoFail: number, autoPass: number): number {
  let w = 0;
  for (let f = 1; f <= k; f++) if (f > autoFail && (f >= autoPass || f + mod >= need)) w++;
  return w;
}

export interface CheckOptions {
  /** Faces at or below this always fail ("a natural 1 always misses"): default 0 (none). */
  readonly autoFail?: number;
  /** Faces at or above this always pass: default k + 1 (none). */
  readonly autoPass?: number;
  /** Re-rolls of a failure, each taken at once (a drummer, an ensign). */
  readonly rerolls?: number;
}

/** A pass/fail check on one die (natural face + mod ≥ need), with re-rolls of failure. */
export function check(k: number, need: number, mod = 0, o: CheckOptions = {}): Dist<boolean>[] {
  const w = successes(k, need, mod, o.autoFail ?? 0, o.autoPass ?? k + 1);
  const q = (k - w) / k;
  const fail = q ** ((o.rerolls ?? 0) + 1);
  return [
    { value: true, p: 1 - fail },
    { value: false, p: fail },
  ].filter((x) => x.p > 0);
}

/** P(pass on the i-th try, i = 0 … rerolls) and P(fail): which re-roll was used matters to some rules. */
export function checkWithRerolls(
  k: number,
  need: number,
  mod: number,
  rerolls: number,
  o: CheckOptions = {},
): Dist<{ pass: boolean; used: number }>[] {
  const p = successes(k, need, mod, o.autoFail ?? 0, o.autoPass ?? k + 1) / k;
  const out: Dist<{ pass: boolean; used: number }>[] = [];
  for (let i = 0; i <= rerolls; i++) {
    const pi = p * (1 - p) ** i;
    if (pi > 0) out.push({ value: { pass: true, used: i }, p: pi });
  }
  if (p < 1) out.push({ value: { pass: false, used: rerolls }, p: (1 - p) ** (rerolls + 1) });
  return out;
}

/** A pool's result: successes, and how many of the dice showed the top face (a "natural" 6 or 10). */
export interface PoolResult {
  readonly hits: number;
  readonly naturals: number;
}

export interface PoolOptions extends CheckOptions {
  /** Track natural top faces among the successes (default false: naturals are always 0). */
  readonly naturals?: boolean;
}

/**
 * n dice each succeeding on natural face + mod ≥ need. Failures re-rolled (`rerolls` of them in all, taken on the
 * first failures), with naturals counted among the final faces when asked. Classes: (hits, naturals).
 */
export function pool(n: number, k: number, need: number, mod = 0, o: PoolOptions = {}): Dist<PoolResult>[] {
  const autoFail = o.autoFail ?? 0;
  const autoPass = o.autoPass ?? k + 1;
  const wTop = o.naturals && k > autoFail && (k >= autoPass || k + mod >= need) ? 1 : 0; // the top face, if a success
  const wHit = successes(k, need, mod, autoFail, autoPass) - wTop;
  const wMiss = k - wHit - wTop;
  // state: (hits, naturals, re-rolls left) after each die; a failure with a re-roll left is rolled again
  let states = new Map<string, { h: number; t: number; r: number; p: number }>([
    ['0/0/' + (o.rerolls ?? 0), { h: 0, t: 0, r: o.rerolls ?? 0, p: 1 }],
  ]);
  const add = (m: typeof states, h: number, t: number, r: number, p: number) => {
    if (!p) return;
    const key = `${h}/${t}/${r}`;
    const e = m.get(key);
    if (e) m.set(key, { ...e, p: e.p + p });
    else m.set(key, { h, t, r, p });
  };
  for (let i = 0; i < n; i++) {
    const next: typeof states = new Map();
    for (const s of states.values()) {
      // the die, re-rolled on failure while re-rolls last: the chance it ends a plain hit, a natural, or a miss
      let reach = s.p;
      for (let r = s.r; ; r--) {
        add(next, s.h + 1, s.t, r, (reach * wHit) / k);
        add(next, s.h + 1, s.t + 1, r, (reach * wTop) / k);
        if (r === 0 || !wMiss) {
          add(next, s.h, s.t, r, (reach * wMiss) / k);
          break;
        }
        reach = (reach * wMiss) / k;
      }
    }
    states = next;
  }
  const out = new Map<string, Dist<PoolResult>>();
  for (const s of states.values()) {
    const key = `${s.h}/${s.t}`;
    const e = out.get(key);
    out.set(key, { value: { hits: s.h, naturals: s.t }, p: (e?.p ?? 0) + s.p });
  }
  return [...out.values()].sort((a, b) => a.value.hits - b.value.hits || a.value.naturals - b.value.naturals);
}

/** Two sides roll (aDk + modA) and (bDk + modB); the classes are the differential A − B. */
export function opposed(k: number, modA = 0, modB = 0, nA = 1, nB = 1): Dist<number>[] {
  const { counts, den } = opposedCounts(k, modA, modB, nA, nB);
  return [...counts].sort((p, q) => p[0] - q[0]).map(([value, c]) => ({ value, p: c / den }));
}

/** Integer counts of each differential over k^(nA + nB): classes are divided once, so equal ones come out equal. */
function opposedCounts(
  k: number,
  modA: number,
  modB: number,
  nA: number,
  nB: number,
): { counts: Map<number, number>; den: number } {
  const a = sumCountsK(nA, k);
  const b = sumCountsK(nB, k);
  const counts = new Map<number, number>();
  for (let x = nA; x <= nA * k; x++)
    for (let y = nB; y <= nB * k; y++) {
      const d = x + modA - (y + modB);
      counts.set(d, (counts.get(d) ?? 0) + a[x]! * b[y]!);
    }
  return { counts, den: k ** (nA + nB) };
}

/** An opposed roll read as a winner (0 = A, 1 = B), re-rolling ties: the tie's share goes out in proportion. */
export function rollOff(k: number, modA = 0, modB = 0): Dist<0 | 1>[] {
  const { counts } = opposedCounts(k, modA, modB, 1, 1);
  let win = 0;
  let lose = 0;
  for (const [d, c] of counts)
    if (d > 0) win += c;
    else if (d < 0) lose += c;
  if (win + lose === 0) throw new RangeError('rollOff: every roll ties');
  const out: Dist<0 | 1>[] = [];
  if (win) out.push({ value: 0, p: win / (win + lose) });
  if (lose) out.push({ value: 1, p: lose / (win + lose) });
  return out;
}

// ---------- display: faces consistent with a class ----------

function pick(weights: readonly number[], u: Uniform): number {
  const total = weights.reduce((s, w) => s + w, 0);
  let r = u() * total;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i]!;
    if (r < 0) return i;
  }
  return weights.length - 1;
}

/** Faces of nDk summing to `sum`, drawn uniformly among the compositions. */
export function facesForSumK(n: number, k: number, sum: number, u: Uniform): number[] {
  if (!(sumCountsK(n, k)[sum] ?? 0)) throw new RangeError(`${n}D${k} cannot sum to ${sum}`);
  const faces: number[] = [];
  let left = sum;
  for (let i = n; i >= 1; i--) {
    if (i === 1) {
      faces.push(left);
      break;
    }
    const rest = sumCountsK(i - 1, k);
    const w = Array.from({ length: k }, (_, f) => rest[left - (f + 1)] ?? 0);
    const f = pick(w, u) + 1;
    faces.push(f);
    left -= f;
  }
  return faces;
}

/** One face of a k-sided die whose total (face + mod) falls in the class `row` names, for display. */
export function faceForClass<C>(k: number, mod: number, row: (total: number) => C, cls: C, u: Uniform): number {
  const fits = Array.from({ length: k }, (_, i) => (row(i + 1 + mod) === cls ? 1 : 0));
  if (!fits.some(Boolean)) throw new RangeError(`no face of a D${k} + ${mod} reads ${String(cls)}`);
  return pick(fits, u) + 1;
}

/**
 * Final faces of a pool with exactly `r.hits` successes, `r.naturals` of them on the top face when naturals are
 * tracked (re-rolled dice are not shown).
 */
export function facesForPool(
  n: number,
  k: number,
  need: number,
  mod: number,
  r: PoolResult,
  u: Uniform,
  o: PoolOptions = {},
): number[] {
  const autoFail = o.autoFail ?? 0;
  const autoPass = o.autoPass ?? k + 1;
  const all = Array.from({ length: k }, (_, i) => i + 1);
  const ok = (f: number) => f > autoFail && (f >= autoPass || f + mod >= need);
  // with naturals tracked, a plain hit is any succeeding face but the top one
  const plain = all.filter((f) => ok(f) && !(o.naturals && f === k));
  const miss = all.filter((f) => !ok(f));
  const bad =
    r.hits > n ||
    r.naturals > r.hits ||
    (r.naturals > 0 && !(o.naturals && ok(k))) ||
    (r.hits > r.naturals && !plain.length) ||
    (r.hits < n && !miss.length);
  if (bad) throw new RangeError(`no faces of ${n}D${k} give ${r.hits} hits (${r.naturals} natural)`);
  const any = (fs: readonly number[]) =>
    fs[
      pick(
        fs.map(() => 1),
        u,
      )
    ]!;
  const faces: number[] = [];
  for (let i = 0; i < r.naturals; i++) faces.push(k);
  for (let i = r.naturals; i < r.hits; i++) faces.push(any(plain));
  for (let i = r.hits; i < n; i++) faces.push(any(miss));
  for (let i = faces.length - 1; i > 0; i--) {
    const j = Math.floor(u() * (i + 1));
    [faces[i], faces[j]] = [faces[j]!, faces[i]!];
  }
  return faces;
}
