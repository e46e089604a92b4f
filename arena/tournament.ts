/**
 * Tournaments with paired seeds: every pairing plays N games in seat-swapped pairs sharing a seed (so the dice for
 * each event are the same and luck cancels). Formats: round robin, or gauntlet (the first agent against each of the
 * others). Games run in the worker pool; each finished game is stored at once in the run folder's SQLite database
 * (with its replay), so a killed run loses nothing recorded and `resume` plays only the games still missing. With two
 * agents an SPRT can stop the run as soon as it decides. Ratings (Bradley–Terry Elo with intervals) and a crosstable
 * summarise it.
 */
import { z } from 'zod';
import { createAgent } from '../agents/registry.ts';
import { getRuleset } from '../engine/rulesets/index.ts';
import { loadScenario } from './catalog.ts';
import type { MatchTask } from './match-worker.ts';
import { MatchPool, type PoolResult } from './pool.ts';
import { type GameResult, type Rating, bradleyTerry, crosstable, sprt, type SprtResult } from './ratings.ts';
import { type GameRecord, Store } from './store.ts';

export type { GameRecord };

export const tournamentSchema = z
  .object({
    ruleset: z.string().default('march-of-eagles'),
    scenarios: z.array(z.string()).min(1),
    agents: z.array(z.string()).min(2),
    format: z.enum(['round-robin', 'gauntlet']).default('round-robin'),
    /** Games per pairing (rounded up to an even number: seat-swapped pairs). */
    games: z.number().int().positive(),
    seed: z.string().default('tournament'),
    budget: z
      .object({ ms: z.number().positive().optional(), iterations: z.number().int().positive().optional() })
      .optional(),
    /** Wall-clock limit per game and per decision (0 = none), in ms. */
    gameTimeoutMs: z
      .number()
      .positive()
      .default(30 * 60_000),
    decisionMs: z.number().min(0).default(0),
    /** Two agents only: stop when the SPRT of elo0 against elo1 (A = first agent) decides. */
    sprt: z
      .object({ elo0: z.number(), elo1: z.number(), alpha: z.number().default(0.05), beta: z.number().default(0.05) })
      .optional(),
  })
  .strict();
export type TournamentConfig = z.infer<typeof tournamentSchema>;

export function schedule(cfg: TournamentConfig): MatchTask[] {
  const tasks: MatchTask[] = [];
  const pairs = Math.ceil(cfg.games / 2);
  const pairings: [number, number][] = [];
  for (let i = 0; i < cfg.agents.length; i++)
    for (let j = i + 1; j < cfg.agents.length; j++) if (cfg.format === 'round-robin' || i === 0) pairings.push([i, j]);
  // interleave pairings so an interrupted or SPRT-stopped run is balanced
  for (let k = 0; k < pairs; k++)
    for (const [i, j] of pairings) {
      const scenario = cfg.scenarios[k % cfg.scenarios.length]!;
      const seed = `${cfg.seed}/${i}-${j}/${k}`;
      for (const swap of [0, 1]) {
        const seats = swap ? [cfg.agents[j]!, cfg.agents[i]!] : [cfg.agents[i]!, cfg.agents[j]!];
        tasks.push({
          id: `${i}-${j}-${k}-${swap}`,
          ruleset: cfg.ruleset,
          scenario,
          seed,
          agents: seats,
          ...(cfg.budget ? { budget: cfg.budget } : {}),
        });
      }
    }
  return tasks;
}

export function openTournament(dir: string): { store: Store; cfg: TournamentConfig } {
  const store = new Store(dir, false);
  const raw = store.getMeta('tournament');
  if (!raw) {
    store.close();
    throw new Error(`${dir} is not a tournament folder (no configuration recorded)`);
  }
  return { store, cfg: tournamentSchema.parse(JSON.parse(raw)) };
}

/** Turn a pool result into the record kept: a dead game's forfeiter loses. */
export function toRecord(t: MatchTask, r: PoolResult): GameRecord {
  const base = { id: t.id, scenario: t.scenario, seed: t.seed, seats: t.agents };
  // an engine failure is no result for either seat: kept as an error, not scored as a draw
  if (r.error === undefined && r.aborted !== undefined && r.forfeit === undefined)
    return { ...base, error: r.aborted, text: r.text, plies: r.plies, finalHash: r.finalHash };
  if (r.error === undefined)
    return {
      ...base,
      returns: r.returns,
      text: r.text,
      plies: r.plies,
      finalHash: r.finalHash,
      ...(r.forfeit !== undefined ? { forfeit: r.forfeit } : {}),
    };
  if (r.forfeit !== undefined)
    return {
      ...base,
      returns: t.agents.map((_, i) => (i === r.forfeit ? -1 : 1)),
      text: `${t.agents[r.forfeit]} forfeits: ${r.error}`,
      error: r.error,
      forfeit: r.forfeit,
    };
  return { ...base, error: r.error };
}

export interface RunOptions {
  readonly dir: string;
  readonly workers: number;
  readonly resume: boolean;
  readonly onProgress?: (done: number, total: number) => void;
}

function scoreOf(r: GameRecord, agent: string): number | null {
  if (!r.returns) return null;
  const seat = r.seats.indexOf(agent);
  const o = 1 - seat;
  return r.returns[seat]! > r.returns[o]! ? 1 : r.returns[seat]! < r.returns[o]! ? 0 : 0.5;
}

export function sprtState(cfg: TournamentConfig, records: readonly GameRecord[]): SprtResult | null {
  if (!cfg.sprt || cfg.agents.length !== 2) return null;
  const scores = records.map((r) => scoreOf(r, cfg.agents[0]!)).filter((x): x is number => x !== null);
  return sprt(scores, cfg.sprt.elo0, cfg.sprt.elo1, cfg.sprt.alpha, cfg.sprt.beta);
}

/** Run (or resume) a tournament; returns the records of every game now stored. */
export async function runTournament(cfg0: TournamentConfig | null, o: RunOptions): Promise<GameRecord[]> {
  let store: Store;
  let cfg: TournamentConfig;
  if (o.resume) ({ store, cfg } = openTournament(o.dir));
  else {
    if (!cfg0) throw new Error('a tournament needs a configuration');
    if (Store.exists(o.dir))
      throw new Error(`${o.dir} already holds a tournament: use --resume to continue it, or another --out`);
    cfg = cfg0;
    // refuse bad input before any game: unknown ruleset, scenario or agent
    getRuleset(cfg.ruleset);
    for (const sc of cfg.scenarios) loadScenario(cfg.ruleset, sc);
    for (const a of cfg.agents) createAgent(a);
    if (new Set(cfg.agents).size !== cfg.agents.length) throw new Error('each agent spec may appear only once');
    if (cfg.sprt && cfg.agents.length !== 2) throw new Error('an SPRT needs exactly two agents');
    store = new Store(o.dir, true);
    store.setMeta('tournament', JSON.stringify(cfg));
  }
  try {
    const tasks = schedule(cfg);
    const done = new Set(store.games().map((r) => r.id));
    const todo = tasks.filter((t) => !done.has(t.id));
    let finished = tasks.length - todo.length;
    o.onProgress?.(finished, tasks.length);
    if (sprtState(cfg, store.games())?.decision !== 'continue' && cfg.sprt) return store.games();
    const pool = new MatchPool(o.workers, cfg.gameTimeoutMs, cfg.decisionMs);
    let stopped = false;
    try {
      let next = 0;
      const worker = async () => {
        while (!stopped && next < todo.length) {
          const t = todo[next++]!;
          const r = await pool.play(t);
          store.recordGame(toRecord(t, r), r.error === undefined ? r.replay : null);
          finished++;
          o.onProgress?.(finished, tasks.length);
          if (cfg.sprt && sprtState(cfg, store.games())!.decision !== 'continue') stopped = true;
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, o.workers) }, worker));
    } finally {
      await pool.close();
    }
    return store.games();
  } finally {
    store.close();
  }
}

/**
 * Agent `a`'s score against `b` by the seat it played, per scenario: many battles favour one side (in scripted
 * self-play, side A scores 41.5% on open-field and 65% on farm-on-the-ridge), so an agent's gain can differ widely
 * between seats even when the paired total hides it.
 */
export function seatSplit(
  records: readonly GameRecord[],
  a: string,
  b: string,
): { scenario: string; seat: number; games: number; score: number }[] {
  const acc = new Map<string, { scenario: string; seat: number; games: number; score: number }>();
  for (const r of records) {
    const seat = r.seats.indexOf(a);
    if (seat < 0 || !r.seats.includes(b)) continue;
    const sc = scoreOf(r, a);
    if (sc === null) continue;
    const k = `${r.scenario}\u0000${seat}`;
    const e = acc.get(k) ?? { scenario: r.scenario, seat, games: 0, score: 0 };
    e.games++;
    e.score += sc;
    acc.set(k, e);
  }
  return [...acc.values()].sort((x, y) => x.scenario.localeCompare(y.scenario) || x.seat - y.seat);
}

/** Ratings and crosstable from the stored games (games without a result are left out and counted). */
export function standings(records: readonly GameRecord[]): {
  ratings: Rating[];
  table: ReturnType<typeof crosstable>;
  games: number;
  voided: number;
} {
  const results: GameResult[] = [];
  let voided = 0;
  for (const r of records) {
    const sc = scoreOf(r, r.seats[0]!);
    if (sc === null) {
      voided++;
      continue;
    }
    results.push({ a: r.seats[0]!, b: r.seats[1]!, score: sc });
  }
  const ratings = results.length ? bradleyTerry(results).sort((a, b) => b.elo - a.elo) : [];
  return { ratings, table: crosstable(results), games: results.length, voided };
}
