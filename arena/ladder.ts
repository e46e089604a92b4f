/**
 * An ongoing ladder: bots are added by name and spec; each `run` plays more games in the worker pool, pairing the
 * bot with the fewest games against the closest-rated other bot, in seat-swapped pairs sharing a seed. Live ratings
 * are OpenSkill (Weng–Lin, the `openskill` package); each game's result and the rating update are stored in one
 * SQLite transaction.
 */
import { ordinal, rate, rating } from 'openskill';
import { createAgent } from '../agents/registry.ts';
import { getRuleset } from '../engine/rulesets/index.ts';
import { loadScenario } from './catalog.ts';
import type { MatchTask } from './match-worker.ts';
import type { GamePool, PoolResult } from './pool.ts';
import { type BotRow, Store } from './store.ts';
import { gamePool, refuseUnsandboxed, toRecord } from './tournament.ts';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { commitment } from './verify.ts';

export interface LadderConfig {
  readonly ruleset: string;
  readonly scenarios: readonly string[];
  /** Unused since game seeds became secret (commit-reveal); kept so older ladders open. */
  readonly seed?: string;
  readonly decisionMs: number;
  readonly gameTimeoutMs: number;
}

/**
 * Open a ladder (`read` for tables, `write` to add bots or play), or create it from `create` if the folder holds
 * none: a new ladder's ruleset and scenarios are checked before anything is written.
 */
export function openLadder(
  dir: string,
  mode: 'read' | 'write' = 'read',
  create?: LadderConfig,
): { store: Store; cfg: LadderConfig } {
  if (create && !Store.exists(dir)) {
    getRuleset(create.ruleset);
    for (const s of create.scenarios) loadScenario(create.ruleset, s);
    const store = Store.create(dir, { ladder: JSON.stringify(create) }, `${dir} already holds a run`);
    return { store, cfg: create };
  }
  const store = Store.open(dir, mode);
  const raw = store.getMeta('ladder');
  if (!raw) {
    store.close();
    throw new Error(`${dir} is not a ladder (no ladder configuration)`);
  }
  return { store, cfg: JSON.parse(raw) as LadderConfig };
}

export function addBot(store: Store, name: string, spec: string): BotRow {
  if (!/^[A-Za-z0-9_.-]{1,40}$/.test(name)) throw new Error(`bot name "${name}": use 1–40 letters, digits, _ . -`);
  if (store.bots().some((b) => b.name === name)) throw new Error(`a bot named "${name}" is already on the ladder`);
  createAgent(spec); // refuse a bad spec now
  const r = rating();
  const row = { name, spec, mu: r.mu, sigma: r.sigma, games: 0 };
  store.addBot(row);
  return row;
}

/** Next pairing: the bot with the fewest games against the closest-rated other bot (ties by name). */
export function nextPairing(bots: readonly BotRow[]): [BotRow, BotRow] {
  if (bots.length < 2) throw new Error('a ladder needs at least two bots');
  const sorted = [...bots].sort((a, b) => a.games - b.games || a.name.localeCompare(b.name));
  const a = sorted[0]!;
  const b = [...bots]
    .filter((x) => x !== a)
    .sort(
      (x, y) => Math.abs(ordinal(x) - ordinal(a)) - Math.abs(ordinal(y) - ordinal(a)) || x.name.localeCompare(y.name),
    )[0]!;
  return [a, b];
}

export interface LadderRunOptions {
  readonly onProgress?: (done: number, total: number, pool?: GamePool) => void;
  /** Run external bots without the bubblewrap sandbox (refused otherwise). */
  readonly unsafeBots?: boolean;
  /** Play through this Redis queue instead of the local pool. */
  readonly queue?: string;
}

/** The next pair index: one past the highest recorded (`L<k>-<seat>`; older ladders numbered pairs by game count). */
function nextPairIndex(store: Store): number {
  let k = -1;
  for (const g of store.games()) {
    const m = /^L(\d+)-[01]$/.exec(g.id);
    if (m) k = Math.max(k, Number(m[1]));
  }
  return k + 1;
}

/**
 * Play `games` more ladder games. Pairs are chosen as games finish, counting games in flight, so several pairs can be
 * in play at once: as many as the local pool has workers, or many more through a queue.
 */
export async function runLadder(
  dir: string,
  games: number,
  workers: number,
  o: LadderRunOptions = {},
): Promise<BotRow[]> {
  const { store, cfg } = openLadder(dir, 'write');
  let pool: GamePool;
  try {
    refuseUnsandboxed(
      store.bots().map((b) => b.spec),
      o.unsafeBots,
    );
    if (store.bots().length < 2) throw new Error('a ladder needs at least two bots');
    pool = gamePool(store, cfg, { workers, queue: o.queue });
  } catch (e) {
    store.close();
    throw e;
  }
  const hide = [resolve(dir)];
  const busy = new Map<string, number>();
  const inFlight = (name: string, d: number) => busy.set(name, (busy.get(name) ?? 0) + d);
  let k = nextPairIndex(store);
  let started = 0;
  let done = 0;
  const record = (t: MatchTask, r: PoolResult, names: string[]) => {
    const rec = { ...toRecord(t, r), seats: names };
    const cur = Object.fromEntries(store.bots().map((x) => [x.name, x]));
    const updates: BotRow[] = [];
    if (rec.returns) {
      const [p, q] = [cur[names[0]!]!, cur[names[1]!]!];
      const rank = rec.returns[0]! > rec.returns[1]! ? [1, 2] : rec.returns[0]! < rec.returns[1]! ? [2, 1] : [1, 1];
      const [[np], [nq]] = rate([[{ mu: p.mu, sigma: p.sigma }], [{ mu: q.mu, sigma: q.sigma }]], { rank });
      updates.push(
        { ...p, mu: np!.mu, sigma: np!.sigma, games: p.games + 1 },
        { ...q, mu: nq!.mu, sigma: nq!.sigma, games: q.games + 1 },
      );
    }
    store.recordGame(rec, r.error === undefined ? r.replay : null, updates);
  };
  const lane = async () => {
    while (started < games) {
      const n = Math.min(2, games - started);
      started += n;
      const [a, b] = nextPairing(store.bots().map((x) => ({ ...x, games: x.games + (busy.get(x.name) ?? 0) })));
      const pairIndex = k++;
      const scenario = cfg.scenarios[pairIndex % cfg.scenarios.length]!;
      // commit-reveal: a secret random seed, its SHA-256 published before the game, the seed with its record
      const seed = store.commit(`L${pairIndex}`, () => {
        const s = randomBytes(16).toString('hex');
        return { seed: s, commitment: commitment(s) };
      });
      const pair: { task: MatchTask; names: string[] }[] = [
        {
          task: { id: `L${pairIndex}-0`, ruleset: cfg.ruleset, scenario, seed, agents: [a.spec, b.spec], hide },
          names: [a.name, b.name],
        },
        {
          task: { id: `L${pairIndex}-1`, ruleset: cfg.ruleset, scenario, seed, agents: [b.spec, a.spec], hide },
          names: [b.name, a.name],
        },
      ].slice(0, n);
      inFlight(a.name, n);
      inFlight(b.name, n);
      await Promise.all(
        pair.map(async ({ task, names }) => {
          const r = await pool.play(task);
          record(task, r, names);
          await pool.settle?.(task.id);
          inFlight(a.name, -1);
          inFlight(b.name, -1);
          done++;
          o.onProgress?.(done, games, pool);
        }),
      );
    }
  };
  try {
    o.onProgress?.(0, games);
    const lanes = o.queue ? 64 : Math.max(1, Math.ceil(workers / 2));
    await Promise.all(Array.from({ length: lanes }, lane));
    return store.bots();
  } finally {
    await pool.close();
    store.close();
  }
}

export function ladderTable(store: Store): (BotRow & { ordinal: number })[] {
  return store
    .bots()
    .map((b) => ({ ...b, ordinal: ordinal({ mu: b.mu, sigma: b.sigma }) }))
    .sort((x, y) => y.ordinal - x.ordinal);
}
