/**
 * Tournaments with paired seeds: every pairing plays N games in seat-swapped pairs sharing a seed (so the dice for
 * each event are the same and luck cancels). Formats: round robin, or gauntlet (the first agent against each of the
 * others). Games run in the worker pool; each finished game is stored at once in the run folder's SQLite database
 * (with its replay), so a killed run loses nothing recorded and `resume` plays only the games still missing. With two
 * agents an SPRT can stop the run as soon as it decides. Ratings (Bradley–Terry Elo with intervals) and a crosstable
 * summarise it.
 */
import { z } from 'zod';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExtAgent } from '../agents/ext.ts';
import { createAgent } from '../agents/registry.ts';
import { bwrapUnavailable, sandboxMode } from '../agents/sandbox.ts';
import { getRuleset } from '../engine/rulesets/index.ts';
import { loadScenario } from './catalog.ts';
import type { MatchTask } from './match-worker.ts';
import { type GamePool, MatchPool, type PoolResult } from './pool.ts';
import { newRunId, QueuePool } from './queue.ts';
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

export function openTournament(dir: string, mode: 'read' | 'write' = 'read'): { store: Store; cfg: TournamentConfig } {
  const store = Store.open(dir, mode);
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
      ...(r.forfeit !== undefined ? { forfeit: r.forfeit, ...(r.aborted ? { error: r.aborted } : {}) } : {}),
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

/** A game that ended by forfeit or failure, with its reason. */
export interface Failure {
  readonly id: string;
  readonly seats: readonly string[];
  /** The seat (its agent or bot name) that forfeited, if one did. */
  readonly forfeited?: string;
  readonly reason: string;
}

export function failures(records: readonly GameRecord[]): Failure[] {
  return records
    .filter((r) => r.error !== undefined)
    .map((r) => ({
      id: r.id,
      seats: r.seats,
      ...(r.forfeit !== undefined ? { forfeited: r.seats[r.forfeit]! } : {}),
      reason: r.error!,
    }));
}

/** Failures as text lines, the first `max` of them. */
export function failureLines(fs: readonly Failure[], max = 20): string[] {
  if (!fs.length) return [];
  const lines = fs
    .slice(0, max)
    .map((f) => `  ${f.id}: ${f.forfeited ? `${f.forfeited} forfeits` : 'no result'}: ${f.reason}`);
  if (fs.length > max) lines.push(`  … and ${fs.length - max} more (--json lists them all)`);
  return [`forfeits and failures (${fs.length}):`, ...lines];
}

/** Write one recorded game's replay file (for `replay verify` / `replay show`). */
export function exportReplay(store: Store, id: string, file: string): void {
  const ids = store.games().map((g) => g.id);
  if (!ids.includes(id)) {
    const near = ids.filter((x) => x.startsWith(id.split('-')[0]!)).slice(0, 5);
    throw new Error(`no game "${id}" in ${store.dir}${near.length ? `; games like it: ${near.join(', ')}` : ''}`);
  }
  const r = store.replay(id);
  if (!r) throw new Error(`game "${id}" in ${store.dir} has no replay (its worker died before it could return one)`);
  writeFileSync(file, r);
}

export interface RunOptions {
  readonly dir: string;
  readonly workers: number;
  readonly resume: boolean;
  readonly onProgress?: (done: number, total: number, pool?: GamePool) => void;
  /** Run external bots without the bubblewrap sandbox where it cannot run (refused otherwise). */
  readonly unsafeBots?: boolean;
  /** Play through this Redis queue (redis://HOST:PORT), served by `eagles worker`, instead of the local pool. */
  readonly queue?: string;
  /** Queue mode: games enqueued at once (default 256). */
  readonly inFlight?: number;
}

/**
 * The run's pool: the local worker pool, or the queue. A queued run keeps its run id in its database, so a resumed
 * coordinator finds the jobs it enqueued before.
 */
export function gamePool(
  store: Store,
  limits: { gameTimeoutMs: number; decisionMs: number },
  o: { workers: number; queue?: string | undefined },
): GamePool {
  if (!o.queue) return new MatchPool(o.workers, limits.gameTimeoutMs, limits.decisionMs);
  let run = store.getMeta('queueRun');
  if (!run) {
    run = newRunId();
    store.setMeta('queueRun', run);
  }
  return new QueuePool(o.queue, run, limits.gameTimeoutMs, limits.decisionMs);
}

/**
 * Refuse external bots that would run without the full sandbox (bubblewrap missing or unusable, or `sandbox=limits`
 * asked for), unless the organiser says `--unsafe-bots`.
 */
export function refuseUnsandboxed(specs: readonly string[], unsafe: boolean | undefined): void {
  if (unsafe) return;
  for (const spec of specs) {
    const a = createAgent(spec);
    if (!(a instanceof ExtAgent)) continue;
    const mode = sandboxMode(a.sandbox);
    if (mode !== 'bwrap')
      throw new Error(
        `bot "${spec}" would run without the bubblewrap sandbox (${a.sandbox === 'limits' ? 'sandbox=limits' : bwrapUnavailable()}); install bubblewrap, or pass --unsafe-bots to run it with resource limits only`,
      );
  }
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
  if (o.resume) ({ store, cfg } = openTournament(o.dir, 'write'));
  else {
    if (!cfg0) throw new Error('a tournament needs a configuration');
    cfg = cfg0;
    // refuse bad input before any game: unknown ruleset, scenario or agent
    getRuleset(cfg.ruleset);
    for (const sc of cfg.scenarios) loadScenario(cfg.ruleset, sc);
    for (const a of cfg.agents) createAgent(a);
    if (new Set(cfg.agents).size !== cfg.agents.length) throw new Error('each agent spec may appear only once');
    if (cfg.sprt && cfg.agents.length !== 2) throw new Error('an SPRT needs exactly two agents');
    store = Store.create(
      o.dir,
      { tournament: JSON.stringify(cfg) },
      `${o.dir} already holds a tournament: use --resume to continue it, or another --out`,
    );
  }
  try {
    refuseUnsandboxed(cfg.agents, o.unsafeBots);
    const hide = [resolve(o.dir)];
    const tasks = schedule(cfg).map((t) => ({ ...t, hide }));
    const done = new Set(store.games().map((r) => r.id));
    const todo = tasks.filter((t) => !done.has(t.id));
    let finished = tasks.length - todo.length;
    o.onProgress?.(finished, tasks.length);
    if (sprtState(cfg, store.games())?.decision !== 'continue' && cfg.sprt) return store.games();
    const pool = gamePool(store, cfg, o);
    let stopped = false;
    try {
      let next = 0;
      const worker = async () => {
        while (!stopped && next < todo.length) {
          const t = todo[next++]!;
          const r = await pool.play(t);
          store.recordGame(toRecord(t, r), r.error === undefined ? r.replay : null);
          await pool.settle?.(t.id);
          finished++;
          o.onProgress?.(finished, tasks.length, pool);
          if (cfg.sprt && sprtState(cfg, store.games())!.decision !== 'continue') stopped = true;
        }
      };
      const inFlight = o.queue ? (o.inFlight ?? 256) : o.workers;
      await Promise.all(Array.from({ length: Math.max(1, inFlight) }, worker));
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
