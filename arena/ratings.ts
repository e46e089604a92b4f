/**
 * Ratings for finished tournaments: Bradley–Terry maximum-likelihood Elo (draws count half a win for each side)
 * with 95% intervals from the observed Fisher information, a W/D/L crosstable, and SPRT to decide early whether
 * A is stronger than B. Plain maths, small and tested; no I/O.
 */

export interface GameResult {
  readonly a: string;
  readonly b: string;
  /** Score of `a`: 1 win, 0.5 draw, 0 loss. */
  readonly score: number;
}

export interface Rating {
  readonly player: string;
  /** Elo, anchored so the mean rating is 0. */
  readonly elo: number;
  /** Half-width of the 95% interval. */
  readonly ci95: number;
  readonly games: number;
  readonly score: number;
}

const ELO = 400 / Math.LN10;

/**
 * Maximum-likelihood Bradley–Terry strengths by Hunter's MM iterations, on the Elo scale, mean-anchored.
 * A player with all wins or all losses has no finite estimate: its rating is clamped to ±800 from the rest and its
 * interval reported as Infinity.
 */
export function bradleyTerry(results: readonly GameResult[]): Rating[] {
  const players = [...new Set(results.flatMap((r) => [r.a, r.b]))].sort();
  const idx = new Map(players.map((p, i) => [p, i]));
  const n = players.length;
  const wins = new Array<number>(n).fill(0);
  const games = new Array<number>(n).fill(0);
  const pair: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const r of results) {
    const i = idx.get(r.a)!;
    const j = idx.get(r.b)!;
    wins[i]! += r.score;
    wins[j]! += 1 - r.score;
    games[i]!++;
    games[j]!++;
    pair[i]![j]!++;
    pair[j]![i]!++;
  }
  // a tiny prior (one draw against a virtual average player) keeps perfect scores finite and the MM stable
  const PRIOR = 0.5;
  let g = new Array<number>(n).fill(1);
  for (let iter = 0; iter < 10_000; iter++) {
    const next = g.map((gi, i) => {
      let den = (2 * PRIOR) / (gi + 1);
      for (let j = 0; j < n; j++) if (pair[i]![j]) den += pair[i]![j]! / (gi + g[j]!);
      return (wins[i]! + PRIOR) / den;
    });
    // normalise to geometric mean 1
    const lm = next.reduce((s, x) => s + Math.log(x), 0) / n;
    const norm = next.map((x) => x / Math.exp(lm));
    const delta = Math.max(...norm.map((x, i) => Math.abs(Math.log(x) - Math.log(g[i]!))));
    g = norm;
    if (delta < 1e-10) break;
  }
  const theta = g.map((x) => Math.log(x));
  // observed information (Hessian of −log L) for θ, with the mean-zero constraint handled by a pseudo-inverse
  const H: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const m = pair[i]![j]!;
      if (!m) continue;
      const p = 1 / (1 + Math.exp(theta[j]! - theta[i]!));
      const w = m * p * (1 - p);
      H[i]![i]! += w;
      H[j]![j]! += w;
      H[i]![j]! -= w;
      H[j]![i]! -= w;
    }
  const cov = pseudoInverse(H);
  return players.map((player, i) => {
    const extreme = wins[i] === 0 || wins[i] === games[i];
    return {
      player,
      elo: theta[i]! * ELO,
      ci95: extreme ? Infinity : 1.96 * Math.sqrt(Math.max(0, cov[i]![i]!)) * ELO,
      games: games[i]!,
      score: games[i] ? wins[i]! / games[i]! : 0,
    };
  });
}

/** Moore–Penrose inverse of a symmetric Laplacian-like matrix: invert H + J/n, then subtract J/n. */
function pseudoInverse(H: number[][]): number[][] {
  const n = H.length;
  const A = H.map((row) => row.map((x) => x + 1 / n));
  const inv = invert(A);
  return inv.map((row) => row.map((x) => x - 1 / n));
}

function invert(M: number[][]): number[][] {
  const n = M.length;
  const A = M.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[p]![c]!)) p = r;
    [A[c], A[p]] = [A[p]!, A[c]!];
    const d = A[c]![c]!;
    if (Math.abs(d) < 1e-12) throw new Error('ratings: the results do not connect all players');
    for (let k = 0; k < 2 * n; k++) A[c]![k]! /= d;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = A[r]![c]!;
      if (f) for (let k = 0; k < 2 * n; k++) A[r]![k]! -= f * A[c]![k]!;
    }
  }
  return A.map((row) => row.slice(n));
}

export interface CrossCell {
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly score: number;
}

/** W/D/L from each row player's point of view against each column player. */
export function crosstable(results: readonly GameResult[]): {
  players: string[];
  cells: Record<string, Record<string, CrossCell>>;
} {
  const players = [...new Set(results.flatMap((r) => [r.a, r.b]))].sort();
  const cells: Record<string, Record<string, { wins: number; draws: number; losses: number; score: number }>> = {};
  for (const p of players) {
    cells[p] = {};
    for (const q of players) if (p !== q) cells[p]![q] = { wins: 0, draws: 0, losses: 0, score: 0 };
  }
  const add = (p: string, q: string, s: number) => {
    const c = cells[p]![q]!;
    if (s === 1) c.wins++;
    else if (s === 0) c.losses++;
    else c.draws++;
    c.score += s;
  };
  for (const r of results) {
    add(r.a, r.b, r.score);
    add(r.b, r.a, 1 - r.score);
  }
  return { players, cells };
}

export interface SprtResult {
  readonly llr: number;
  readonly lower: number;
  readonly upper: number;
  /** 'H1' (A is stronger by at least elo1), 'H0' (by at most elo0), or 'continue'. */
  readonly decision: 'H0' | 'H1' | 'continue';
}

/**
 * Sequential probability ratio test of H0: elo(A−B) = elo0 against H1: elo(A−B) = elo1, from A's per-game
 * scores, with the normal approximation of the log-likelihood ratio (as chess-engine testing does).
 */
export function sprt(scores: readonly number[], elo0: number, elo1: number, alpha = 0.05, beta = 0.05): SprtResult {
  const lower = Math.log(beta / (1 - alpha));
  const upper = Math.log((1 - beta) / alpha);
  const N = scores.length;
  if (N < 2) return { llr: 0, lower, upper, decision: 'continue' };
  const mean = scores.reduce((a, b) => a + b, 0) / N;
  const v = scores.reduce((a, b) => a + (b - mean) ** 2, 0) / N;
  if (v === 0) {
    const d = mean > expected(elo1) ? 'H1' : mean < expected(elo0) ? 'H0' : 'continue';
    return { llr: d === 'H1' ? upper : d === 'H0' ? lower : 0, lower, upper, decision: d };
  }
  const s0 = expected(elo0);
  const s1 = expected(elo1);
  const llr = ((s1 - s0) * (2 * mean - s0 - s1) * N) / (2 * v);
  return { llr, lower, upper, decision: llr >= upper ? 'H1' : llr <= lower ? 'H0' : 'continue' };
}

/** Expected score for an Elo difference. */
export function expected(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

/** 95% Wilson score interval of a win rate (draws count half: pass the score, not the wins). */
export function wilson(wins: number, n: number, z = 1.96): [number, number] {
  if (!n) return [0, 1];
  const p = wins / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}
