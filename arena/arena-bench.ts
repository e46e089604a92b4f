/**
 * Arena throughput: the same set of games (paired seeds) played by a bare in-process loop, then through the worker
 * pool with 1 and with 2 workers; prints games/s and the ratios.
 */
import os from 'node:os';
import { createAgent } from '../agents/registry.ts';
import { loadScenario } from './catalog.ts';
import { runMatch } from './match.ts';
import { MatchPool } from './pool.ts';
import type { MatchTask } from './match-worker.ts';

export async function arenaBench(o: { games: number; agents: [string, string]; scenario: string; workers: number[] }) {
  const tasks: MatchTask[] = Array.from({ length: o.games }, (_, i) => ({
    id: `b${i}`,
    ruleset: 'march-of-eagles',
    scenario: o.scenario,
    seed: `bench/${i >> 1}`,
    agents: i % 2 ? [o.agents[1], o.agents[0]] : [o.agents[0], o.agents[1]],
  }));
  const { game, scenario, id } = loadScenario('march-of-eagles', o.scenario);
  for (const t of tasks.slice(0, 8))
    await runMatch({
      game,
      scenario,
      scenarioId: id,
      seed: `warm/${t.seed}`,
      agents: t.agents.map((s) => createAgent(s)),
    });
  let t0 = performance.now();
  for (const t of tasks)
    await runMatch({ game, scenario, scenarioId: id, seed: t.seed, agents: t.agents.map((s) => createAgent(s)) });
  const bare = o.games / ((performance.now() - t0) / 1000);
  const pooled: { workers: number; gamesPerSec: number }[] = [];
  for (const w of o.workers) {
    const pool = new MatchPool(w);
    // start the threads and let each one's JIT warm up (short runs otherwise measure compilation, not play)
    await Promise.all(
      Array.from({ length: 8 * w }, (_, i) => pool.play({ ...tasks[i % tasks.length]!, id: `warm${i}` })),
    );
    t0 = performance.now();
    await Promise.all(tasks.map((t) => pool.play(t)));
    pooled.push({ workers: w, gamesPerSec: o.games / ((performance.now() - t0) / 1000) });
    await pool.close();
  }
  return {
    scenario: o.scenario,
    agents: o.agents,
    games: o.games,
    cores: os.cpus().length,
    bareGamesPerSec: bare,
    pooled,
  };
}
