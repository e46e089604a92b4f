/**
 * Arena throughput: the same set of games (paired seeds) played by a bare in-process loop, then through the worker
 * pool with 1 and with 2 workers; beside them, the machine's own ceiling (the bare loop in 2 separate processes at
 * once), and, given a Redis URL, the queue with 1 and 2 `eagles worker` processes. Prints games/s and the ratios.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createAgent } from '../agents/registry.ts';
import { loadScenario } from './catalog.ts';
import { runMatch } from './match.ts';
import type { MatchTask } from './match-worker.ts';
import { type GamePool, MatchPool } from './pool.ts';
import { newRunId, QueuePool } from './queue.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Games/s of `tasks` through `pool`, after a warm-up of `warm` games. */
async function throughput(pool: GamePool, tasks: readonly MatchTask[], warm: number): Promise<number> {
  await Promise.all(Array.from({ length: warm }, (_, i) => pool.play({ ...tasks[i % tasks.length]!, id: `warm${i}` })));
  const t0 = performance.now();
  await Promise.all(tasks.map((t) => pool.play(t)));
  return tasks.length / ((performance.now() - t0) / 1000);
}

/**
 * The bare loop in `n` processes at once, each playing its share after its own warm-up: total games over the span
 * from the first start to the last finish (the machine's ceiling for `n` workers).
 */
async function bareProcesses(n: number, tasks: readonly MatchTask[], scenario: string): Promise<number> {
  const code = `
    import { createAgent } from ${JSON.stringify(`${ROOT}agents/registry.ts`)};
    import { loadScenario } from ${JSON.stringify(`${ROOT}arena/catalog.ts`)};
    import { runMatch } from ${JSON.stringify(`${ROOT}arena/match.ts`)};
    const tasks = JSON.parse(process.env.EAGLES_BENCH_TASKS);
    const start = Number(process.env.EAGLES_BENCH_START);
    const { game, scenario, id } = loadScenario('march-of-eagles', ${JSON.stringify(scenario)});
    const play = (t, seed) => runMatch({ game, scenario, scenarioId: id, seed, agents: t.agents.map((s) => createAgent(s)) });
    for (const t of tasks.slice(0, 8)) await play(t, 'warm/' + t.seed);
    while (Date.now() < start) await new Promise((r) => setTimeout(r, 5));
    for (const t of tasks) await play(t, t.seed);
    process.stdout.write(JSON.stringify({ end: Date.now() }));`;
  // every process starts its timed games at the same moment, after its own boot and warm-up
  const start = Date.now() + 15_000;
  const ends = await Promise.all(
    Array.from(
      { length: n },
      (_, k) =>
        new Promise<number>((resolve, reject) => {
          const c = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
            cwd: ROOT,
            env: {
              ...process.env,
              EAGLES_BENCH_TASKS: JSON.stringify(tasks.filter((_, i) => i % n === k)),
              EAGLES_BENCH_START: String(start),
            },
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let out = '';
          c.stdout!.on('data', (d) => {
            out += d;
          });
          c.on('exit', (code) =>
            code === 0
              ? resolve((JSON.parse(out) as { end: number }).end)
              : reject(new Error(`bench child: exit ${code}`)),
          );
        }),
    ),
  );
  return tasks.length / ((Math.max(...ends) - start) / 1000);
}

export async function arenaBench(o: {
  games: number;
  agents: [string, string];
  scenario: string;
  workers: number[];
  queue?: string;
}) {
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
  const twoProcesses = await bareProcesses(2, tasks, o.scenario);
  const pooled: { workers: number; gamesPerSec: number }[] = [];
  for (const w of o.workers) {
    const pool = new MatchPool(w);
    // start the threads and let each one's JIT warm up (short runs otherwise measure compilation, not play)
    pooled.push({ workers: w, gamesPerSec: await throughput(pool, tasks, 8 * w) });
    await pool.close();
  }
  const queued: { processes: number; gamesPerSec: number }[] = [];
  if (o.queue)
    for (const n of o.workers) {
      const workers = Array.from({ length: n }, () =>
        spawn(
          process.execPath,
          ['--import', 'tsx', `${ROOT}bin/eagles.ts`, 'worker', '--queue', o.queue!, '--workers', '1'],
          { cwd: ROOT, stdio: 'ignore' },
        ),
      );
      const pool = new QueuePool(o.queue, newRunId(), 30 * 60_000, 0);
      try {
        queued.push({ processes: n, gamesPerSec: await throughput(pool, tasks, 8 * n) });
      } finally {
        await pool.close();
        for (const w of workers) w.kill('SIGTERM');
      }
    }
  return {
    scenario: o.scenario,
    agents: o.agents,
    games: o.games,
    cores: os.cpus().length,
    bareGamesPerSec: bare,
    bareTwoProcessesGamesPerSec: twoProcesses,
    pooled,
    ...(o.queue ? { queued } : {}),
  };
}
