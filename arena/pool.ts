/**
 * Matches in a worker pool (piscina): a worker gets plain data (ruleset, scenario, seed, agent specs, budget) and
 * returns the result, timings and the replay. A game that throws, overruns its time limit or kills its worker is
 * returned as a record with the reason — the pool replaces the worker and the run goes on.
 */
import os from 'node:os';
import Piscina from 'piscina';
import { killGroup } from '../agents/sandbox.ts';
import { CLOCK_BYTES, type MatchOutcome, type MatchTask } from './match-worker.ts';

/** A finished game, or one that died: then `error` says why and `forfeit` names the player on the move, if any. */
export type PoolResult = (MatchOutcome & { error?: undefined }) | { id: string; error: string; forfeit?: number };

/** Where a run's games are played: this machine's worker pool, or a queue that workers on any machine serve. */
export interface GamePool {
  play(task: MatchTask): Promise<PoolResult>;
  /** The game's result is recorded: what the pool kept for it may go. */
  settle?(id: string): Promise<void>;
  close(): Promise<void>;
}

export class MatchPool implements GamePool {
  private pool: Piscina;
  /** Games running now; at most `workers`, so a game's clock starts when it starts, not when it is queued. */
  private running = 0;
  private waiting: (() => void)[] = [];
  constructor(
    readonly workers = os.cpus().length,
    /** Wall-clock limit per game in ms (the worker running it is ended). */
    readonly gameTimeoutMs = 30 * 60_000,
    /** Limit per agent decision in ms, enforced from outside the worker (0 = none). */
    readonly decisionMs = 0,
  ) {
    this.pool = new Piscina({
      filename: new URL('./match-worker-boot.mjs', import.meta.url).href,
      minThreads: 1,
      maxThreads: workers,
      idleTimeout: 60_000,
    });
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
    let why = '';
    const stop = (reason: string) => {
      if (!ac.signal.aborted) {
        why = reason;
        ac.abort();
      }
    };
    const timer = setTimeout(
      () => stop(`game exceeded its ${this.gameTimeoutMs} ms limit; the worker was ended`),
      this.gameTimeoutMs,
    );
    // who is deciding, and since when: written by the worker, read here (no messages on the hot path)
    const sab = new SharedArrayBuffer(CLOCK_BYTES);
    const who = new Int32Array(sab, 0, 1);
    const since = new Float64Array(sab, 8, 1);
    const watchdog =
      this.decisionMs > 0
        ? setInterval(
            () => {
              const p = Atomics.load(who, 0) - 1;
              if (p >= 0 && Date.now() - since[0]! > this.decisionMs)
                stop(`player ${p} overran the ${this.decisionMs} ms decision clock; the worker was ended`);
            },
            Math.min(50, this.decisionMs),
          )
        : undefined;
    try {
      return (await this.pool.run({ ...task, clock: sab }, { signal: ac.signal })) as MatchOutcome;
    } catch (e) {
      const msg = why || `worker failed: ${(e as Error).message}`;
      // a worker that died or hung during a decision: that player loses the game
      const deciding = Atomics.load(who, 0) - 1;
      return deciding >= 0 ? { id: task.id, error: msg, forfeit: deciding } : { id: task.id, error: msg };
    } finally {
      clearTimeout(timer);
      if (watchdog) clearInterval(watchdog);
      // a worker ended mid-game cannot close its bots: end their process groups from here
      for (const g of new Int32Array(sab, 16, 8)) if (g > 0) killGroup(g);
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
