/**
 * Piscina worker for training games: plays a task's seeds concurrently (so several games' network requests are in
 * flight at once and batch well) and returns their samples. Network requests go over the task's MessagePort to the
 * one place that owns the network (see `NetBatcher.serve`).
 */
import type { MessagePort } from 'node:worker_threads';
import { getRuleset } from '../engine/rulesets/index.ts';
import { PortEvaluator } from '../agents/neural/evaluator.ts';
import { imitationGame, selfPlayGame, type GameRecord, type SelfPlayConfig } from './selfplay.ts';

export interface SelfPlayTask {
  readonly ruleset: string;
  /** Validated scenario data (as loaded by the catalog). */
  readonly scenario: unknown;
  readonly seeds: readonly string[];
  readonly mode: 'puct' | 'imitation';
  readonly cfg: SelfPlayConfig;
  readonly epsilon: number;
  /** Imitation: positions kept per game (default all). */
  readonly keep?: number;
  readonly port?: MessagePort;
}

export default async function run(task: SelfPlayTask): Promise<{ games: GameRecord[] }> {
  const game = getRuleset(task.ruleset);
  const initial = game.initialState(task.scenario);
  if (task.mode === 'imitation')
    return {
      games: await Promise.all(
        task.seeds.map((seed) =>
          imitationGame(game, initial, seed, task.epsilon, task.cfg.maxPlies, task.keep ?? Infinity),
        ),
      ),
    };
  if (!task.port) throw new Error('self-play task without a network port');
  const net = new PortEvaluator(task.port);
  try {
    const games = await Promise.all(task.seeds.map((seed) => selfPlayGame(game, initial, seed, net, task.cfg)));
    return { games };
  } finally {
    net.close();
  }
}
