/**
 * Matches in a worker pool (piscina): a worker gets plain data (ruleset, scenario, seed, agent specs, budget) and
 * returns the result, timings and the replay. A game that throws, overruns its time limit or kills its worker is
 * returned as a record with the reason — the pool replaces the worker and the run goes on.
 */
import os from 'node:os';
import Piscina from 'piscina';
import type { MatchOutcome, MatchTask } from './match-worker.ts';

export type PoolResult = (MatchOutcome & { error?: undefined }) | { id: string; error: string };

export class MatchPool {
  private pool: Piscina;
  /** Games running now; at most `workers`, so a game's clock starts when it starts, not when it is queued. */
  private running = 0;
  private waiting: (() => void)[] = [];
  constructor(
    readonly workers = os.cpus().length,
    /** Wall-clock limit per game in ms (the worker running it is ended). */
    readonly gameTimeoutMs = 30 * 60_000,
  ) {
    this.pool = new Piscina({ filename: new URL('./match-worker-boot.mjs', import.meta.url).href, minThreads: 1, maxThreads: workers, idleTimeout: 60_000 });
  }

  async play(task: MatchTask): Promise<PoolResult> {
    if (this.running >= this.workers) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await this.playNow(task);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async playNow(task: MatchTask): Promise<PoolResult> {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), this.gameTimeoutMs);
    try {
      return (await this.pool.run(task, { signal: ac.signal })) as MatchOutcome;
    } catch (e) {
      const msg = ac.signal.aborted ? `game exceeded its ${this.gameTimeoutMs} ms limit; the worker was ended` : `worker failed: ${(e as Error).message}`;
      return { id: task.id, error: msg };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
