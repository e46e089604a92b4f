/**
 * Round-robin tournaments with paired seeds: every pairing plays N games, in seat-swapped pairs sharing a seed (so the
 * dice for each event are the same and luck cancels). Games run in the worker pool; every finished game is appended at
 * once to `results.jsonl` in the run folder (its replay beside it), so a killed run loses nothing and `resume`
 * plays only the games not yet recorded. Ratings (Bradley–Terry Elo with intervals) and a crosstable summarise it.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { createAgent } from '../agents/registry.ts';
import { getRuleset } from '../engine/rulesets/index.ts';
import { loadScenario } from './catalog.ts';
import type { MatchTask } from './match-worker.ts';
import { MatchPool } from './pool.ts';
import { type GameResult, type Rating, bradleyTerry, crosstable } from './ratings.ts';

export const tournamentSchema = z.object({
  ruleset: z.string().default('march-of-eagles'),
  scenarios: z.array(z.string()).min(1),
  agents: z.array(z.string()).min(2),
  /** Games per pairing (rounded up to an even number: seat-swapped pairs). */
  games: z.number().int().positive(),
  seed: z.string().default('tournament'),
  budget: z.object({ ms: z.number().positive().optional(), iterations: z.number().int().positive().optional() }).optional(),
  gameTimeoutMs: z.number().positive().default(30 * 60_000),
});
export type TournamentConfig = z.infer<typeof tournamentSchema>;

export interface GameRecord {
  readonly id: string;
  readonly scenario: string;
  readonly seed: string;
  /** Agent spec per seat. */
  readonly seats: readonly string[];
  readonly returns?: readonly number[];
  readonly text?: string;
  readonly plies?: number;
  readonly finalHash?: string;
  /** Why the game has no result (worker died, time limit), if so. */
  readonly error?: string;
  readonly forfeit?: number;
}

export function schedule(cfg: TournamentConfig): MatchTask[] {
  const tasks: MatchTask[] = [];
  const pairs = Math.ceil(cfg.games / 2);
  for (let i = 0; i < cfg.agents.length; i++)
    for (let j = i + 1; j < cfg.agents.length; j++)
      for (let k = 0; k < pairs; k++) {
        const scenario = cfg.scenarios[k % cfg.scenarios.length]!;
        const seed = `${cfg.seed}/${i}-${j}/${k}`;
        for (const swap of [0, 1]) {
          const seats = swap ? [cfg.agents[j]!, cfg.agents[i]!] : [cfg.agents[i]!, cfg.agents[j]!];
          tasks.push({ id: `${i}-${j}-${k}-${swap}`, ruleset: cfg.ruleset, scenario, seed, agents: seats, ...(cfg.budget ? { budget: cfg.budget } : {}) });
        }
      }
  return tasks;
}

/** Read the records so far; a line cut short by a kill is skipped (its game is played again on resume). */
export function readRecords(dir: string): { records: GameRecord[]; skipped: number } {
  const file = join(dir, 'results.jsonl');
  if (!existsSync(file)) return { records: [], skipped: 0 };
  const records: GameRecord[] = [];
  let skipped = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as GameRecord);
    } catch {
      skipped++;
    }
  }
  return { records, skipped };
}

export function readConfig(dir: string): TournamentConfig {
  const file = join(dir, 'tournament.json');
  if (!existsSync(file)) throw new Error(`${dir} is not a tournament folder (no tournament.json)`);
  const r = tournamentSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!r.success) throw new Error(`${file}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}

export interface RunOptions {
  readonly dir: string;
  readonly workers: number;
  readonly resume: boolean;
  readonly onProgress?: (done: number, total: number) => void;
}

/** Run (or resume) a tournament; returns the records of every game now recorded. */
export async function runTournament(cfg0: TournamentConfig | null, o: RunOptions): Promise<GameRecord[]> {
  const cfgFile = join(o.dir, 'tournament.json');
  let cfg: TournamentConfig;
  if (o.resume) {
    cfg = readConfig(o.dir);
    // a kill while writing can leave a partial last line: cut it off so new records start on a line of their own
    const file = join(o.dir, 'results.jsonl');
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8');
      if (text.length && !text.endsWith('\n')) truncateSync(file, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
    }
  } else {
    if (!cfg0) throw new Error('a tournament needs a configuration');
    if (existsSync(cfgFile)) throw new Error(`${o.dir} already holds a tournament: use --resume to continue it, or another --out`);
    cfg = cfg0;
    // refuse bad input before any game: unknown ruleset, scenario or agent
    getRuleset(cfg.ruleset);
    for (const sc of cfg.scenarios) loadScenario(cfg.ruleset, sc);
    for (const a of cfg.agents) createAgent(a);
    if (new Set(cfg.agents).size !== cfg.agents.length) throw new Error('each agent spec may appear only once');
    mkdirSync(join(o.dir, 'replays'), { recursive: true });
    writeFileSync(cfgFile, JSON.stringify(cfg, null, 2));
  }
  const tasks = schedule(cfg);
  const done = new Set(readRecords(o.dir).records.map((r) => r.id));
  const todo = tasks.filter((t) => !done.has(t.id));
  const pool = new MatchPool(o.workers, cfg.gameTimeoutMs);
  let finished = tasks.length - todo.length;
  o.onProgress?.(finished, tasks.length);
  try {
    await Promise.all(
      todo.map(async (t) => {
        const r = await pool.play(t);
        const base = { id: t.id, scenario: t.scenario, seed: t.seed, seats: t.agents };
        let rec: GameRecord;
        if (r.error !== undefined) rec = { ...base, error: r.error };
        else {
          writeFileSync(join(o.dir, 'replays', `${t.id}.replay`), r.replay);
          rec = { ...base, returns: r.returns, text: r.text, plies: r.plies, finalHash: r.finalHash, ...(r.forfeit !== undefined ? { forfeit: r.forfeit } : {}) };
        }
        appendFileSync(join(o.dir, 'results.jsonl'), JSON.stringify(rec) + '\n'); // one line per finished game
        finished++;
        o.onProgress?.(finished, tasks.length);
      }),
    );
  } finally {
    await pool.close();
  }
  return readRecords(o.dir).records;
}

/** Ratings and crosstable from the recorded games (games without a result are left out and counted). */
export function standings(records: readonly GameRecord[]): { ratings: Rating[]; table: ReturnType<typeof crosstable>; games: number; voided: number } {
  const results: GameResult[] = [];
  let voided = 0;
  for (const r of records) {
    if (!r.returns) {
      voided++;
      continue;
    }
    results.push({ a: r.seats[0]!, b: r.seats[1]!, score: r.returns[0]! > r.returns[1]! ? 1 : r.returns[0]! < r.returns[1]! ? 0 : 0.5 });
  }
  const ratings = results.length ? bradleyTerry(results).sort((a, b) => b.elo - a.elo) : [];
  return { ratings, table: crosstable(results), games: results.length, voided };
}
