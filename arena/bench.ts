/**
 * `eagles bench` (= `npm run bench`): engine speed per scenario — plies/s and random games/s on one core with the
 * driver's keyed dice — the reference game's random playouts/s, and peak memory. Printed as a table with the
 * machine, Node version and scenario hashes; `--json` prints the same as JSON.
 */
import os from 'node:os';
import seedrandom from 'seedrandom';
import type { Argv } from 'yargs';
import type { AnyGame } from '../engine/core/game.ts';
import { RULESETS } from '../engine/rulesets/index.ts';
import { ticTacToe } from '../engine/reference/tictactoe.ts';
import { loadScenario, scenarioHash, scenarioIds } from './catalog.ts';
import { playRandomGame } from './random-play.ts';

interface BenchRow {
  ruleset: string;
  scenario: string;
  scenarioHash: string;
  games: number;
  plies: number;
  seconds: number;
  pliesPerSec: number;
  gamesPerSec: number;
  avgPlies: number;
}

/** Random playouts: uniformly random actions and chance outcomes by their exact probabilities. */
function randomPlayouts(
  game: AnyGame,
  scenario: unknown,
  seconds: number,
  seed: string,
  maxGames = Infinity,
): { games: number; plies: number; seconds: number } {
  const rng = seedrandom.alea(seed);
  const t0 = performance.now();
  let games = 0;
  let plies = 0;
  while (games < maxGames && (performance.now() - t0) / 1000 < seconds) {
    const r = playRandomGame(game, scenario, rng);
    game.hash(r.state);
    plies += r.plies;
    games++;
  }
  return { games, plies, seconds: (performance.now() - t0) / 1000 };
}

function runBench(opts: { seconds: number; warmup: number; ruleset?: string; scenario?: string }) {
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 50);
  const rows: BenchRow[] = [];
  for (const game of Object.values(RULESETS)) {
    if (opts.ruleset && game.id !== opts.ruleset) continue;
    for (const id of scenarioIds(game.id)) {
      if (opts.scenario && id !== opts.scenario) continue;
      const { scenario } = loadScenario(game.id, id);
      // JIT warm-up: a few games leave a large engine half compiled and the figure well below its steady speed
      randomPlayouts(game, scenario, opts.warmup, 'warmup');
      const r = randomPlayouts(game, scenario, opts.seconds, 'bench');
      sample();
      rows.push({
        ruleset: game.id,
        scenario: id,
        scenarioHash: scenarioHash(scenario),
        games: r.games,
        plies: r.plies,
        seconds: r.seconds,
        pliesPerSec: r.plies / r.seconds,
        gamesPerSec: r.games / r.seconds,
        avgPlies: r.plies / Math.max(1, r.games),
      });
    }
  }
  randomPlayouts(ticTacToe, { id: 'standard' }, 0.3, 'warmup');
  const ref = randomPlayouts(ticTacToe, { id: 'standard' }, Math.max(1, opts.seconds / 2), 'bench');
  sample();
  clearInterval(timer);
  return {
    machine: {
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      memGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
    },
    rows,
    reference: {
      game: ticTacToe.id,
      playouts: ref.games,
      plies: ref.plies,
      seconds: ref.seconds,
      playoutsPerSec: ref.games / ref.seconds,
      pliesPerSec: ref.plies / ref.seconds,
    },
    peakRssMiB: peakRss / 2 ** 20,
    peakHeapMiB: peakHeap / 2 ** 20,
  };
}

export function benchCommands(y: Argv): Argv {
  return y.command(
    'bench',
    'Measure speed: engine plies/s and random games/s per scenario (default), or search (--mcts), the worker pool (--arena), training (--train), decision quality (--decisions)',
    (a) =>
      a
        .option('seconds', {
          type: 'number',
          default: 5,
          describe:
            'seconds of play per scenario (--train: per measurement; --baseline: timed seconds per process, default 15)',
        })
        .option('ruleset', {
          type: 'string',
          describe: 'only this ruleset; --decisions: its ruleset (default march-of-eagles)',
        })
        .option('scenario', {
          type: 'string',
          describe:
            "only this scenario; --decisions, --arena, --train: the scenario (default: the ruleset's default, open-field, farm-on-the-ridge)",
        })
        .option('mcts', {
          type: 'boolean',
          default: false,
          describe: "MCTS iterations/s on the reference game beside boardgame.io's MCTSBot and a bare UCT",
        })
        .option('iterations', {
          type: 'number',
          array: true,
          default: [2000, 20_000],
          describe: 'MCTS iterations per search for --mcts (each budget measured in turn)',
        })
        .option('rounds', {
          type: 'number',
          default: 7,
          describe:
            '--mcts: timed rounds per budget (medians are reported); --baseline: rounds of the two engines in turn (default 3)',
        })
        .option('queue', {
          type: 'string',
          describe: '--arena: also measure the queue (redis://HOST:PORT) with 1 and 2 `eagles worker` processes',
        })
        .option('arena', {
          type: 'boolean',
          default: false,
          describe: 'games/s through the worker pool (1 and 2 workers) against a bare in-process loop',
        })
        .option('games', {
          type: 'number',
          default: 400,
          describe: 'games for --arena, self-play games for --train (default 32 there)',
        })
        .option('train', {
          type: 'boolean',
          default: false,
          describe: 'network evals/s (batched, unbatched) and learner samples/s per tfjs backend; self-play games/hour',
        })
        .option('sims', {
          type: 'number',
          default: 32,
          describe: 'PUCT simulations per decision for --train self-play',
        })
        .option('decisions', {
          type: 'boolean',
          default: false,
          describe:
            'decision quality: regret of each --agents choice against scripted-playout values of the candidates',
        })
        .option('agents', {
          type: 'array',
          string: true,
          default: ['heuristic', 'mcts:ms=1000'],
          describe: 'agent specs for --decisions',
        })
        .option('positions', { type: 'number', default: 120, describe: 'positions for --decisions' })
        .option('playouts', {
          type: 'number',
          default: 160,
          describe: 'scripted playouts per candidate action for --decisions',
        })
        .option('candidates', {
          type: 'number',
          default: 5,
          describe: "the scripted player's top actions valued at each position (--decisions)",
        })
        .option('ms', {
          type: 'number',
          describe: 'milliseconds per decision for --decisions (default 1000 unless --it)',
        })
        .option('it', {
          type: 'number',
          describe: 'iterations per decision for --decisions; per search for --baseline --search (default 200)',
        })
        .option('seed', {
          type: 'string',
          default: 'decisions',
          describe: 'seed of the positions and playouts for --decisions',
        })
        .option('truth-file', {
          type: 'string',
          describe: 'cache of the --decisions truth: written once, reused when the parameters match',
        })
        .option('phases', {
          type: 'boolean',
          default: false,
          describe:
            "where the plies go: --games seeded random games of --scenario (default the ruleset's default; needs --ruleset), timed by decision kind",
        })
        .option('baseline', {
          type: 'string',
          describe:
            "another checkout of this project (e.g. a worktree of an older commit): its engine and this one's on the same seeded random games of --ruleset's --scenario, --rounds times in alternating processes, by CPU time",
        })
        .option('search', {
          type: 'boolean',
          default: false,
          describe:
            "--baseline: time the default MCTS (searches of --it iterations, default 200, on the scenario's search position) instead of random games",
        })
        .option('warmup', {
          type: 'number',
          describe:
            'seconds of games played before the timing starts, so the JIT settles: per scenario (default 2), --baseline: per process (default 5)',
        })
        .option('json', { type: 'boolean', default: false, describe: 'print JSON instead of tables' }),
    async (args) => {
      if (!(args.seconds > 0)) throw new Error('--seconds must be a positive number');
      if (args.baseline !== undefined) {
        if (!args.ruleset) throw new Error('--baseline needs --ruleset (e.g. --ruleset eagles-of-the-empire)');
        const { compareEngines, printComparison } = await import('./engine-compare.ts');
        const given = (k: string) => process.argv.some((x) => x === `--${k}` || x.startsWith(`--${k}=`));
        const r = compareEngines(
          {
            baseline: args.baseline,
            ruleset: args.ruleset,
            ...(args.scenario ? { scenario: args.scenario } : {}),
            rounds: given('rounds') ? args.rounds : 3,
            warmup: args.warmup ?? 5,
            seconds: given('seconds') ? args.seconds : 15,
            ...(args.search ? { search: true, ...(args.it !== undefined ? { iterations: args.it } : {}) } : {}),
          },
          (i) => process.stderr.isTTY && process.stderr.write(`round ${i + 1}…\r`),
        );
        if (args.json) return void console.log(JSON.stringify(r, null, 2));
        printComparison(r);
        return;
      }
      if (args.decisions) {
        const { decisionBench, printDecisionBench } = await import('./decision-bench.ts');
        for (const k of ['positions', 'playouts', 'candidates'] as const)
          if (!Number.isInteger(args[k]) || args[k] < 1)
            throw new Error(`--${k} must be a whole number ≥ 1 (got ${args[k]})`);
        if (args.ms !== undefined && !(args.ms > 0)) throw new Error(`--ms must be a positive number (got ${args.ms})`);
        if (args.it !== undefined && !(Number.isInteger(args.it) && args.it >= 1))
          throw new Error(`--it must be a whole number ≥ 1 (got ${args.it})`);
        const budget =
          args.it !== undefined && args.ms === undefined ? { iterations: args.it } : { ms: args.ms ?? 1000 };
        const tty = process.stderr.isTTY;
        const r = await decisionBench({
          ruleset: args.ruleset,
          scenario: args.scenario,
          positions: args.positions,
          playouts: args.playouts,
          candidates: args.candidates,
          agents: args.agents.map(String),
          budget,
          seed: args.seed,
          truthFile: args['truth-file'],
          onProgress: (what, done, total) => {
            if (tty) process.stderr.write(`\r${what}: ${done}/${total}   ${done === total ? '\n' : ''}`);
          },
        });
        if (args.json) return void console.log(JSON.stringify(r.rows, null, 2));
        printDecisionBench(r, args.playouts);
        return;
      }
      if (args.phases) {
        if (!args.ruleset) throw new Error('--phases needs --ruleset (e.g. --ruleset march-of-eagles)');
        const games = process.argv.includes('--games') ? args.games : 100;
        if (!Number.isInteger(games) || games < 1) throw new Error(`--games must be a whole number ≥ 1 (got ${games})`);
        const { phaseBench, printPhaseBench } = await import('./phase-bench.ts');
        const { game, scenario, id } = loadScenario(args.ruleset, args.scenario);
        const r = phaseBench(game, scenario, games);
        if (args.json) return void console.log(JSON.stringify({ ruleset: game.id, scenario: id, ...r }, null, 2));
        printPhaseBench(r, game.id, id);
        return;
      }
      if (args.train) {
        const { trainBench, printTrainBench } = await import('../training/bench.ts');
        const r = await trainBench({
          scenario: args.scenario ?? 'farm-on-the-ridge',
          seconds: args.seconds,
          selfPlayGames: process.argv.includes('--games') ? args.games : 32,
          sims: args.sims,
        });
        if (args.json) return void console.log(JSON.stringify(r, null, 2));
        printTrainBench(r);
        return;
      }
      if (args.arena) {
        const { arenaBench } = await import('./arena-bench.ts');
        const rows = [];
        for (const agents of [
          ['random', 'random'],
          ['heuristic', 'random'],
        ] as [string, string][])
          rows.push(
            await arenaBench({
              games: args.games,
              agents,
              scenario: args.scenario ?? 'open-field',
              workers: [1, 2],
              ...(args.queue ? { queue: args.queue } : {}),
            }),
          );
        if (args.json) return void console.log(JSON.stringify(rows, null, 2));
        console.log(
          `arena throughput on ${rows[0]!.scenario}, ${args.games} games each (paired seeds), ${rows[0]!.cores} cores`,
        );
        const f = (x: number, w: number) => x.toFixed(1).padStart(w);
        console.log(
          `agents              bare  bare×2 proc  pool 1w  pool 2w  2w/1w${args.queue ? '  queue 1p  queue 2p  2p/1p' : ''}`,
        );
        for (const r of rows) {
          const [w1, w2] = r.pooled;
          const q = r.queued ?? [];
          console.log(
            `${r.agents.join(' v ').padEnd(18)}${f(r.bareGamesPerSec, 6)}  ${f(r.bareTwoProcessesGamesPerSec, 11)}  ${f(w1!.gamesPerSec, 7)}  ${f(w2!.gamesPerSec, 7)}  ${(w2!.gamesPerSec / w1!.gamesPerSec).toFixed(2).padStart(5)}${q.length ? `  ${f(q[0]!.gamesPerSec, 8)}  ${f(q[1]!.gamesPerSec, 8)}  ${(q[1]!.gamesPerSec / q[0]!.gamesPerSec).toFixed(2).padStart(5)}` : ''}`,
          );
        }
        console.log(
          '(games/s; bare×2 proc: the bare loop in two processes at once, the machine ceiling for two workers; target 2w ≥ 1.8× 1w)',
        );
        return;
      }
      if (args.mcts) {
        const { mctsBench } = await import('./mcts-bench.ts');
        const m = await mctsBench(args.iterations, args.rounds);
        if (args.json)
          return void console.log(
            JSON.stringify(
              {
                ...m,
                sealed: await (await import('./mcts-bench.ts')).mctsSealed(),
                sampleArmies: await (await import('./mcts-bench.ts')).mctsSampleArmies(),
              },
              null,
              2,
            ),
          );
        console.log(
          `MCTS on ${m.game}, one core: medians of ${m.rounds} rounds, each timing the three in turn (wall clock; CPU time in brackets)`,
        );
        for (const r of m.rows) {
          console.log(`\n${r.iterations} iterations per search`);
          const row = (name: string, t: { ms?: number; cpuMs?: number; iterationsPerSec?: number; error?: string }) =>
            console.log(
              `  ${name.padEnd(26)} ${t.error ? t.error : `${t.iterationsPerSec!.toFixed(0).padStart(9)} it/s  ${t.ms!.toFixed(1).padStart(8)} ms  (${t.cpuMs!.toFixed(1)} ms CPU)`}`,
            );
          row('eagles mcts', r.ours);
          row('bare minimal UCT (floor)', r.bareUct);
          row('boardgame.io MCTSBot', r.boardgameIo);
          console.log(
            `  eagles mcts takes ${r.timeOverBareUct.wall.toFixed(2)}× the bare UCT's time (${r.timeOverBareUct.cpu.toFixed(2)}× by CPU)${r.speedOverBoardgameIo ? `; it is ${r.speedOverBoardgameIo.wall.toFixed(1)}× boardgame.io's speed (${r.speedOverBoardgameIo.cpu.toFixed(1)}× by CPU)` : ''}`,
          );
        }
        const { mctsSampleArmies, mctsSealed } = await import('./mcts-bench.ts');
        console.log('\nMCTS on sealed bids (Goofspiel, 4 cards, 20,000 iterations; the game is worth 50%):');
        for (const r of await mctsSealed())
          console.log(
            `  ${r.where.padEnd(40)} ${r.iterationsPerSec.toFixed(0).padStart(7)} it/s  chooses ${r.choice}, win ${(r.winProbability * 100).toFixed(1)}%`,
          );
        console.log('\nMCTS on the sample armies (open-field, a turn-2 position, 1 s search):');
        for (const r of await mctsSampleArmies())
          console.log(`  ${r.leaf.padEnd(40)} ${r.iterationsPerSec.toFixed(0).padStart(7)} it/s`);
        return;
      }
      if (args.warmup !== undefined && !(args.warmup >= 0))
        throw new Error(`--warmup must be a number of seconds ≥ 0 (got ${args.warmup})`);
      const r = runBench({
        seconds: args.seconds,
        warmup: args.warmup ?? 2,
        ruleset: args.ruleset,
        scenario: args.scenario,
      });
      if (args.json) return void console.log(JSON.stringify(r, null, 2));
      console.log(
        `machine: ${r.machine.cpu} (${r.machine.cores} cores, ${r.machine.memGiB} GiB), ${r.machine.platform}, Node ${r.machine.node}; one core`,
      );
      const head = ['ruleset', 'scenario', 'scenario hash', 'games', 'plies/s', 'games/s', 'plies/game'];
      const body = r.rows.map((x) => [
        x.ruleset,
        x.scenario,
        x.scenarioHash,
        String(x.games),
        x.pliesPerSec.toFixed(0),
        x.gamesPerSec.toFixed(2),
        x.avgPlies.toFixed(0),
      ]);
      body.push([
        r.reference.game,
        'standard',
        '-',
        String(r.reference.playouts),
        r.reference.pliesPerSec.toFixed(0),
        r.reference.playoutsPerSec.toFixed(0),
        (r.reference.plies / r.reference.playouts).toFixed(1),
      ]);
      const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
      const line = (cells: string[]) => cells.map((c, i) => (i < 3 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
      console.log(line(head));
      console.log(w.map((n) => '-'.repeat(n)).join('  '));
      for (const b of body) console.log(line(b));
      console.log(`peak memory: RSS ${r.peakRssMiB.toFixed(0)} MiB, heap ${r.peakHeapMiB.toFixed(0)} MiB`);
    },
  );
}
