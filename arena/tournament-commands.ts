/** `eagles arena run | status | table | export`, `eagles ladder add-bot | run | table | export`: tournaments in the worker pool, resumable, with ratings. */
import os from 'node:os';
import { readFileSync } from 'node:fs';
import cliProgress from 'cli-progress';
import type { Argv } from 'yargs';
import { CliError } from './commands.ts';
import { parse as parseYaml } from 'yaml';
import type { GamePool } from './pool.ts';
import { QueuePool } from './queue.ts';
import type { Store } from './store.ts';
import {
  exportReplay,
  failureLines,
  failures,
  openTournament,
  runTournament,
  schedule,
  seatSplit,
  sprtState,
  standings,
  tournamentSchema,
  type TournamentConfig,
} from './tournament.ts';
import { wilson } from './ratings.ts';

/**
 * Progress on stderr: a bar on a terminal (games/s, and in queue mode the workers seen), else a line every 10 games.
 */
function progressReporter(label: string, json: boolean) {
  const bar =
    json || !process.stderr.isTTY
      ? null
      : new cliProgress.SingleBar(
          {
            format: `${label} {bar} {value}/{total} | {speed} games/s{workers} | ETA {eta_formatted}`,
            stream: process.stderr,
          },
          cliProgress.Presets.shades_classic,
        );
  const t0 = performance.now();
  let first = -1;
  return {
    update: (done: number, total: number, pool?: GamePool) => {
      const workers = pool instanceof QueuePool ? ` | ${pool.workers} workers` : '';
      if (first < 0) {
        first = done;
        bar?.start(total, done, { speed: '0.0', workers });
      }
      const speed = ((done - first) / Math.max((performance.now() - t0) / 1000, 1e-3)).toFixed(2);
      bar?.update(done, { speed, workers });
      if (!bar && !json && done % 10 === 0) process.stderr.write(`${done}/${total} ${label}, ${speed}/s${workers}\n`);
    },
    stop: () => bar?.stop(),
  };
}

function exportCommand(
  dir: string,
  game: string | undefined,
  file: string | undefined,
  what: string,
  open: (dir: string) => { store: Store },
): void {
  if (!game || !file) throw new CliError(`${what} export needs --game ID and --file REPLAY`, 2);
  const { store } = open(dir);
  try {
    exportReplay(store, game, file);
  } finally {
    store.close();
  }
  console.error(`wrote the replay of ${game} to ${file} (check it with: eagles replay verify ${file} --run ${dir})`);
}

function printTable(dir: string, json: boolean): void {
  const { store, cfg } = openTournament(dir);
  const records = store.games();
  store.close();
  const st = standings(records);
  const total = schedule(cfg).length;
  const sp = sprtState(cfg, records);
  const [a, b] = cfg.agents;
  const seats = cfg.agents.length === 2 ? seatSplit(records, a!, b!) : [];
  if (json)
    return void console.log(
      JSON.stringify(
        {
          dir,
          games: st.games,
          voided: st.voided,
          scheduled: total,
          ratings: st.ratings,
          crosstable: st.table,
          ...(seats.length ? { seats } : {}),
          ...(sp ? { sprt: sp } : {}),
          failures: failures(records),
        },
        null,
        2,
      ),
    );
  console.log(
    `${dir}: ${st.games} games rated, ${st.voided} without a result, ${total - records.length} still to play (of ${total})`,
  );
  if (sp)
    console.log(
      `SPRT ${cfg.agents[0]} vs ${cfg.agents[1]} (elo0 ${cfg.sprt!.elo0}, elo1 ${cfg.sprt!.elo1}): LLR ${sp.llr.toFixed(2)} in [${sp.lower.toFixed(2)}, ${sp.upper.toFixed(2)}] → ${sp.decision === 'H1' ? `${cfg.agents[0]} is stronger` : sp.decision === 'H0' ? `${cfg.agents[0]} is not stronger` : 'undecided'}`,
    );
  const w = Math.max(6, ...st.ratings.map((r) => r.player.length));
  console.log(`${'agent'.padEnd(w)}  ${'Elo'.padStart(6)}  ${'±95%'.padStart(6)}  ${'games'.padStart(5)}  score`);
  for (const r of st.ratings)
    console.log(
      `${r.player.padEnd(w)}  ${r.elo.toFixed(0).padStart(6)}  ${Number.isFinite(r.ci95) ? r.ci95.toFixed(0).padStart(6) : '   inf'}  ${String(r.games).padStart(5)}  ${(r.score * 100).toFixed(1)}%`,
    );
  const ps = st.table.players;
  const c = cfg.agents.length === 2 ? st.table.cells[a!]?.[b!] : undefined;
  if (c) {
    // a head-to-head match: the first agent's score with its 95% interval, then by the seat it played
    const n = c.wins + c.draws + c.losses;
    const [lo, hi] = wilson(c.score, n);
    console.log(
      `\n${a} vs ${b}: ${c.wins}W ${c.draws}D ${c.losses}L = ${((c.score / n) * 100).toFixed(1)}% (95% CI ${(lo * 100).toFixed(1)}–${(hi * 100).toFixed(1)}%)`,
    );
    for (const x of seats) {
      const [l, h] = wilson(x.score, x.games);
      console.log(
        `  on ${x.scenario} as side ${x.seat === 0 ? 'A' : 'B'}: ${((x.score / x.games) * 100).toFixed(1)}% over ${x.games} games (95% CI ${(l * 100).toFixed(1)}–${(h * 100).toFixed(1)}%)`,
      );
    }
  }
  if (ps.length) {
    console.log('\ncrosstable (row vs column: W-D-L)');
    console.log(''.padEnd(w) + ps.map((p) => `  ${p.slice(0, 12).padStart(12)}`).join(''));
    for (const p of ps)
      console.log(
        p.padEnd(w) +
          ps
            .map((q) =>
              p === q
                ? '  ' + '-'.padStart(12)
                : `  ${`${st.table.cells[p]![q]!.wins}-${st.table.cells[p]![q]!.draws}-${st.table.cells[p]![q]!.losses}`.padStart(12)}`,
            )
            .join(''),
      );
  }
  const fl = failureLines(failures(records));
  if (fl.length) console.log(`\n${fl.join('\n')}`);
}

/** Options `arena run` and `ladder run` share: where the games are played, how bots run, and the output. */
const RUN_OPTIONS = {
  queue: {
    type: 'string',
    describe: 'run: play through this Redis queue (redis://HOST:PORT), served by `eagles worker`, not the local pool',
  },
  'unsafe-bots': {
    type: 'boolean',
    default: false,
    describe: 'run: allow external bots without the bubblewrap sandbox (resource limits only)',
  },
  json: { type: 'boolean', default: false, describe: 'print JSON instead of text' },
} as const;

export function tournamentCommands(y: Argv): Argv {
  return y.command(
    'arena <action>',
    'Tournaments in the worker pool: run | status | table | export',
    (a) =>
      a
        .positional('action', {
          choices: ['run', 'status', 'table', 'export'] as const,
          describe:
            "run: play the tournament (or --resume it); status: games recorded; table: ratings and crosstable; export: one game's replay to --file",
        })
        .option('game', { type: 'string', describe: 'export: the game id (as listed by status --json)' })
        .option('file', { type: 'string', describe: 'export: the replay file to write' })
        .option('out', {
          type: 'string',
          demandOption: true,
          describe: 'tournament folder: its arena.sqlite holds the configuration, results and replays',
        })
        .option('config', {
          type: 'string',
          describe:
            'run: JSON or YAML config file (ruleset, scenarios, agents, format, games, seed, budget, gameTimeoutMs, decisionMs, sprt)',
        })
        .option('format', {
          choices: ['round-robin', 'gauntlet'] as const,
          default: 'round-robin' as const,
          describe: 'run: round robin, or the first agent against each of the others',
        })
        .option('decision-ms', {
          type: 'number',
          default: 0,
          describe: 'run: per-decision clock in ms (0 = none); an agent over it forfeits',
        })
        .option('game-ms', { type: 'number', default: 30 * 60_000, describe: 'run: per-game wall-clock limit in ms' })
        .option('sprt', {
          type: 'string',
          describe: 'run (two agents): stop when the SPRT elo0,elo1 decides, e.g. 0,50',
        })
        .option('agents', {
          type: 'string',
          array: true,
          describe: 'run: agent specs, space-separated (e.g. --agents random heuristic mcts:it=200,depth=6)',
        })
        .option('scenario', {
          type: 'string',
          describe: 'run: comma-separated scenario ids (default: the ruleset default)',
        })
        .option('ruleset', { type: 'string', default: 'march-of-eagles', describe: 'run: the ruleset played' })
        .option('games', {
          type: 'number',
          default: 10,
          describe: 'run: games per pairing, rounded up to even (seat-swapped pairs sharing a seed)',
        })
        .option('seed', {
          type: 'string',
          default: 'tournament',
          describe: "run: the seed every game's seed derives from",
        })
        .option('workers', { type: 'number', default: os.cpus().length, describe: 'run: worker threads' })
        .option('resume', {
          type: 'boolean',
          default: false,
          describe: 'run: continue the tournament in --out, playing only unrecorded games',
        })
        .option('in-flight', {
          type: 'number',
          default: 256,
          describe: 'run --queue: games enqueued at a time',
        })
        .options(RUN_OPTIONS),
    async (args) => {
      const dir = args.out;
      if (args.action === 'table') return printTable(dir, args.json);
      if (args.action === 'export') return exportCommand(dir, args.game, args.file, 'arena', openTournament);
      if (args.action === 'status') {
        const { store, cfg } = openTournament(dir);
        const records = store.games();
        store.close();
        const out = {
          dir,
          scheduled: schedule(cfg).length,
          recorded: records.length,
          withoutResult: records.filter((r) => !r.returns).length,
          agents: cfg.agents,
          games: records.map((r) => r.id),
          failures: failures(records),
        };
        if (args.json) return void console.log(JSON.stringify(out));
        console.log(
          `${dir}: ${out.recorded}/${out.scheduled} games recorded (${out.withoutResult} without a result); agents: ${out.agents.join(', ')}`,
        );
        for (const l of failureLines(out.failures)) console.log(l);
        return;
      }
      if (!(args.workers >= 1)) throw new CliError('--workers must be at least 1', 2);
      let cfg: TournamentConfig | null = null;
      if (!args.resume) {
        let raw: unknown;
        if (args.config) {
          try {
            const text = readFileSync(args.config, 'utf8');
            raw = /\.ya?ml$/i.test(args.config) ? parseYaml(text) : JSON.parse(text);
          } catch (e) {
            throw new CliError(`${args.config}: ${(e as Error).message}`);
          }
        } else {
          if (!args.agents?.length) throw new CliError('arena run needs --agents (or --config)', 2);
          const sp = args.sprt?.split(',').map(Number);
          if (sp && (sp.length !== 2 || sp.some((x) => !Number.isFinite(x))))
            throw new CliError('--sprt takes two Elo bounds, e.g. --sprt 0,50', 2);
          raw = {
            ruleset: args.ruleset,
            scenarios: args.scenario
              ? args.scenario.split(',')
              : [(await import('../engine/rulesets/index.ts')).getRuleset(args.ruleset).defaultScenario],
            agents: args.agents.map(String),
            format: args.format,
            games: args.games,
            seed: args.seed,
            gameTimeoutMs: args['game-ms'],
            decisionMs: args['decision-ms'],
            ...(sp ? { sprt: { elo0: sp[0], elo1: sp[1] } } : {}),
          };
        }
        const r = tournamentSchema.safeParse(raw);
        if (!r.success)
          throw new CliError(
            `bad tournament configuration: ${r.error.issues.map((i) => `$.${i.path.join('.')}: ${i.message}`).join('; ')}`,
            2,
          );
        cfg = r.data;
      }
      const progress = progressReporter('games', args.json);
      const records = await runTournament(cfg, {
        dir,
        workers: args.workers,
        resume: args.resume,
        unsafeBots: args['unsafe-bots'],
        ...(args.queue ? { queue: args.queue, inFlight: args['in-flight'] } : {}),
        onProgress: progress.update,
      });
      progress.stop();
      if (args.json) console.log(JSON.stringify({ dir, recorded: records.length, ...standings(records) }));
      else printTable(dir, false);
    },
  );
}

export function ladderCommands(y: Argv): Argv {
  return y.command(
    'ladder <action>',
    'An ongoing ladder with live OpenSkill ratings: add-bot | run | table | export | seeds',
    (a) =>
      a
        .positional('action', {
          choices: ['add-bot', 'run', 'table', 'export', 'seeds'] as const,
          describe:
            "add-bot: enter a bot; run: play --games more games; table: the ratings; export: one game's replay to --file; seeds: each game's seed commitment, and its seed once played",
        })
        .option('game', { type: 'string', describe: 'export: the game id (as listed by table --json)' })
        .option('file', { type: 'string', describe: 'export: the replay file to write' })
        .option('out', {
          type: 'string',
          demandOption: true,
          describe: 'ladder folder: its arena.sqlite holds the bots, results and replays',
        })
        .option('name', { type: 'string', describe: 'add-bot: the bot name' })
        .option('spec', {
          type: 'string',
          describe: 'add-bot: its agent spec (e.g. heuristic, or ext:cmd=python3 my_bot.py)',
        })
        .option('ruleset', {
          type: 'string',
          default: 'march-of-eagles',
          describe: 'add-bot on a new ladder: its ruleset',
        })
        .option('scenario', {
          type: 'string',
          describe: 'add-bot on a new ladder: comma-separated scenarios (default: the ruleset default)',
        })
        .option('decision-ms', { type: 'number', default: 30_000, describe: 'new ladder: per-decision clock in ms' })
        .option('game-ms', { type: 'number', default: 30 * 60_000, describe: 'new ladder: per-game limit in ms' })
        .option('games', { type: 'number', default: 10, describe: 'run: games to play' })
        .option('workers', { type: 'number', default: os.cpus().length, describe: 'run: worker threads' })
        .options(RUN_OPTIONS),
    async (args) => {
      const { addBot, ladderTable, openLadder, runLadder } = await import('./ladder.ts');
      if (args.action === 'export')
        return exportCommand(args.out, args.game, args.file, 'ladder', (d) => openLadder(d));
      if (args.action === 'seeds') {
        // commit-reveal dice: each game's seed commitment is listed before the game, its seed after
        const { store } = openLadder(args.out);
        const { commitment } = await import('./verify.ts');
        const rows = store.commitments().map((c) => ({
          ...c,
          games: [`${c.id}-0`, `${c.id}-1`],
          ...(c.seed !== null ? { verified: commitment(c.seed) === c.commitment } : {}),
        }));
        store.close();
        if (args.json) return void console.log(JSON.stringify(rows, null, 2));
        for (const c of rows)
          console.log(
            `${c.id}  ${c.published}  sha256 ${c.commitment}  ${c.seed === null ? '(seed revealed after the game)' : `seed ${c.seed} ${c.verified ? 'matches' : 'DOES NOT MATCH'}`}`,
          );
        return;
      }
      if (args.action === 'add-bot') {
        if (!args.name || !args.spec) throw new CliError('ladder add-bot needs --name and --spec', 2);
        const { getRuleset } = await import('../engine/rulesets/index.ts');
        const { createAgent } = await import('../agents/registry.ts');
        createAgent(args.spec); // a bad spec is refused before a new ladder is written
        const { store } = openLadder(args.out, 'write', {
          ruleset: args.ruleset,
          scenarios: args.scenario ? args.scenario.split(',') : [getRuleset(args.ruleset).defaultScenario],
          decisionMs: args['decision-ms'],
          gameTimeoutMs: args['game-ms'],
        });
        try {
          const row = addBot(store, args.name, args.spec);
          console.log(args.json ? JSON.stringify(row) : `added ${row.name} (${row.spec}) to the ladder in ${args.out}`);
        } finally {
          store.close();
        }
        return;
      }
      if (args.action === 'run') {
        if (!(args.games >= 1)) throw new CliError('--games must be at least 1', 2);
        const progress = progressReporter('ladder games', args.json);
        await runLadder(args.out, args.games, args.workers, {
          onProgress: progress.update,
          unsafeBots: args['unsafe-bots'],
          ...(args.queue ? { queue: args.queue } : {}),
        });
        progress.stop();
      }
      const { store } = openLadder(args.out);
      const rows = ladderTable(store);
      const records = store.games();
      store.close();
      if (args.json)
        return void console.log(
          JSON.stringify({ bots: rows, games: records.map((r) => r.id), failures: failures(records) }, null, 2),
        );
      const w = Math.max(4, ...rows.map((r) => r.name.length));
      console.log(
        `${'bot'.padEnd(w)}  ${'rating'.padStart(7)}  ${'mu'.padStart(6)}  ${'sigma'.padStart(5)}  games  spec`,
      );
      for (const r of rows)
        console.log(
          `${r.name.padEnd(w)}  ${r.ordinal.toFixed(2).padStart(7)}  ${r.mu.toFixed(2).padStart(6)}  ${r.sigma.toFixed(2).padStart(5)}  ${String(r.games).padStart(5)}  ${r.spec}`,
        );
      console.log('(rating = mu − 3·sigma, OpenSkill)');
      const fl = failureLines(failures(records));
      if (fl.length) console.log(`\n${fl.join('\n')}`);
    },
  );
}
