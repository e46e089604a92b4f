/** Training games in this machine's worker pool (piscina), each worker batching its network requests here. */
import { MessageChannel } from 'node:worker_threads';
import Piscina from 'piscina';
import type { NetBatcher } from '../agents/neural/evaluator.ts';
import type { GameRecord, SelfPlayConfig } from './selfplay.ts';
import type { SelfPlayTask } from './selfplay-worker.ts';

/**
 * Play training games in a piscina pool: `imitation` (scripted player) or `puct` (network-guided self-play; every
 * worker task gets a MessagePort to `batcher`, which batches requests from all workers in this thread).
 */
export async function playInPool(o: {
  ruleset: string;
  scenario: unknown;
  mode: 'imitation' | 'puct';
  games: number;
  seedPrefix: string;
  /** The first game's number in the seeds (`seedPrefix/first`, …): a share of a larger set. */
  first?: number;
  workers: number;
  concurrent: number;
  cfg: SelfPlayConfig;
  batcher: NetBatcher | null;
  /** Imitation: positions kept per game. */
  keep?: number;
  onGame?: (done: number) => void;
}): Promise<{ records: GameRecord[]; ms: number }> {
  if (o.mode === 'puct' && !o.batcher) throw new Error('self-play needs a network');
  const pool = new Piscina({
    filename: new URL('./selfplay-worker-boot.mjs', import.meta.url).href,
    minThreads: o.workers,
    maxThreads: o.workers,
  });
  const t = Date.now();
  // records in task order, not completion order, so the same seeds give the same samples in the same order
  const byTask: GameRecord[][] = [];
  let finished = 0;
  const tasks: Promise<void>[] = [];
  for (let i = 0; i < o.games; i += o.concurrent) {
    const seeds = Array.from(
      { length: Math.min(o.concurrent, o.games - i) },
      (_, j) => `${o.seedPrefix}/${(o.first ?? 0) + i + j}`,
    );
    let task: SelfPlayTask = {
      ruleset: o.ruleset,
      scenario: o.scenario,
      seeds,
      mode: o.mode,
      cfg: o.cfg,
      epsilon: 0.1,
      ...(o.keep ? { keep: o.keep } : {}),
    };
    let ch: MessageChannel | null = null;
    if (o.mode === 'puct') {
      ch = new MessageChannel();
      o.batcher!.serve(ch.port1);
      task = { ...task, port: ch.port2 };
    }
    const slot = byTask.push([]) - 1;
    tasks.push(
      (
        pool.run(
          task,
          ch
            ? { transferList: [ch.port2] as unknown as NonNullable<Parameters<Piscina['run']>[1]>['transferList'] }
            : {},
        ) as Promise<{ games: GameRecord[] }>
      )
        .then((r) => {
          byTask[slot] = r.games;
          finished += r.games.length;
          o.onGame?.(finished);
        })
        .finally(() => ch?.port1.close()),
    );
  }
  try {
    await Promise.all(tasks);
  } finally {
    await pool.destroy();
  }
  return { records: byTask.flat(), ms: Date.now() - t };
}
