/**
 * `eagles train`: a self-play training run with a progress display; `eagles train plot DIR` draws its curves;
 * `eagles train encoding` prints a ruleset's feature layout.
 */
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import type { Argv } from 'yargs';
import { layoutTable } from '../engine/core/encoding.ts';
import { getRuleset } from '../engine/rulesets/index.ts';
import { createAgent } from '../agents/registry.ts';
import { CliError } from '../arena/commands.ts';
import { loadScenario } from '../arena/catalog.ts';
import { plotInput, plotSvg } from './plot.ts';
import { valueCheck } from './value-check.ts';
import { DEFAULT_TRAIN, RunError, TrainingRun, readMetrics, scoreText, type Metrics, type Progress } from './run.ts';

function metricsLine(m: Metrics): string {
  const evs = Object.entries(m.evalVs ?? {}).map(
    ([k, v]) =>
      `vs ${k} ${(v * 100).toFixed(0)}%${m.evalBefore?.[k] !== undefined ? ` (untrained ${(m.evalBefore[k]! * 100).toFixed(0)}%)` : ''}`,
  );
  return [
    `iteration ${m.iteration} (${m.source})`,
    `${m.games} games, ${m.samples} samples`,
    ...(m.source === 'untrained'
      ? ['untrained network: no loss yet']
      : [
          `loss policy ${m.policyLoss.toFixed(3)} value ${m.valueLoss.toFixed(3)}`,
          `${m.gamesPerHour.toFixed(0)} games/h`,
          `learner ${m.learnerSamplesPerSec.toFixed(0)} samples/s`,
        ]),
    ...(m.evalVsBest !== undefined
      ? [`vs best ${(m.evalVsBest * 100).toFixed(0)}%${m.promoted ? ' → promoted' : ''}`]
      : []),
    ...evs,
  ].join(' | ');
}

export function trainCommands(y: Argv): Argv {
  return y.command(
    'train [action] [dir]',
    'Train a policy/value network by self-play (train plot DIR: draw the curves; train encoding: feature layout; train value-check MODEL: score its value head)',
    (a) =>
      a
        .positional('action', {
          choices: ['plot', 'encoding', 'value-check'] as const,
          describe:
            "plot: write DIR/training.svg; encoding: print the layout; value-check: score a model's value head against the evaluation",
        })
        .positional('dir', {
          type: 'string',
          describe:
            'plot: the run or model folder (or a model name under data/models/); value-check: the model (folder or name)',
        })
        .option('ruleset', { type: 'string', default: 'march-of-eagles', describe: 'ruleset id' })
        .option('scenario', { type: 'string', describe: 'scenario id or file (default: the ruleset default)' })
        .option('run', { type: 'string', describe: 'run folder (default runs/<ruleset>-<scenario>)' })
        .option('queue', {
          type: 'string',
          describe:
            'run: play the training games through this Redis queue (redis://HOST:PORT), served by `eagles worker`',
        })
        .option('hours', {
          type: 'number',
          default: DEFAULT_TRAIN.hours,
          describe: 'wall-clock budget (on --resume: more hours from now)',
        })
        .option('iterations', { type: 'number', describe: 'stop after this many self-play iterations' })
        .option('resume', { type: 'boolean', default: false, describe: 'continue the run in --run' })
        .option('workers', {
          type: 'number',
          default: os.cpus().length,
          describe: 'self-play and evaluation worker threads',
        })
        .option('bootstrap-games', {
          type: 'number',
          default: DEFAULT_TRAIN.bootstrapGames,
          describe: 'scripted-player games imitated first (0 = start random)',
        })
        .option('bootstrap-steps', {
          type: 'number',
          default: DEFAULT_TRAIN.bootstrapSteps,
          describe: 'learner steps on the bootstrap games',
        })
        .option('bootstrap-keep', {
          type: 'number',
          default: 0,
          describe: 'positions kept per bootstrap game (0 = all): more games, same memory',
        })
        .option('games', {
          type: 'number',
          default: DEFAULT_TRAIN.gamesPerIteration,
          describe: 'self-play games per iteration (value-check: held-out games)',
        })
        .option('sims', {
          type: 'number',
          default: DEFAULT_TRAIN.sims,
          describe: 'PUCT simulations per self-play decision',
        })
        .option('steps', {
          type: 'number',
          default: DEFAULT_TRAIN.stepsPerIteration,
          describe: 'learner steps per iteration',
        })
        .option('window', {
          type: 'number',
          default: DEFAULT_TRAIN.window,
          describe: 'replay window (most recent samples)',
        })
        .option('batch', { type: 'number', default: DEFAULT_TRAIN.batch, describe: 'learner batch size (samples)' })
        .option('lr', { type: 'number', default: DEFAULT_TRAIN.lr, describe: 'learning rate (Adam)' })
        .option('eval-games', {
          type: 'number',
          default: DEFAULT_TRAIN.evalGames,
          describe: 'paired games of each checkpoint against the best',
        })
        .option('gate', {
          type: 'number',
          default: DEFAULT_TRAIN.gate,
          describe: 'promotion threshold (score against the best)',
        })
        .option('opponents', {
          type: 'string',
          array: true,
          default: [...DEFAULT_TRAIN.opponents],
          describe: 'fixed evaluation opponents (agent specs)',
        })
        .option('opponent-games', {
          type: 'number',
          default: DEFAULT_TRAIN.opponentGames,
          describe: 'games against each of --opponents per evaluation (0 = none)',
        })
        .option('eval-mode', {
          choices: ['policy', 'puct'] as const,
          default: DEFAULT_TRAIN.evalMode,
          describe: 'how checkpoints play in evaluations',
        })
        .option('eval-sims', {
          type: 'number',
          default: DEFAULT_TRAIN.evalSims,
          describe: 'PUCT simulations per decision in evaluations (--eval-mode puct)',
        })
        .option('hidden', { type: 'number', default: DEFAULT_TRAIN.hidden, describe: 'trunk width' })
        .option('seed', {
          type: 'string',
          default: DEFAULT_TRAIN.seed,
          describe: "the run's seed (value-check: of the held-out games)",
        })
        .option('backend', {
          choices: ['auto', 'node', 'wasm', 'cpu'] as const,
          describe: 'tfjs backend (default: EAGLES_TF_BACKEND or auto)',
        })
        .option('out', { type: 'string', describe: 'plot: SVG file (default DIR/training.svg)' })
        .option('json', { type: 'boolean', default: false, describe: 'encoding, value-check: print JSON' }),
    async (args) => {
      if (args.json && args.action !== 'encoding' && args.action !== 'value-check')
        throw new CliError('--json: only train encoding and train value-check print JSON', 2);
      if (args.action === 'encoding') {
        const g = getRuleset(args.ruleset);
        if (!g.encoding) throw new CliError(`ruleset ${g.id} has no observation encoding`);
        if (args.json) {
          const { id, version, stateSize, stateLayout, actionSize, actionLayout, fixed } = g.encoding;
          const out = { ruleset: g.id, id, version, stateSize, stateLayout, actionSize, actionLayout };
          return void console.log(JSON.stringify(fixed ? { ...out, fixedSize: fixed.size } : out, null, 2));
        }
        console.log(
          `# ${g.encoding.id}\n\nstate: ${g.encoding.stateSize} floats\n\n${layoutTable(g.encoding.stateLayout)}\n\nper action: ${g.encoding.actionSize} floats\n\n${layoutTable(g.encoding.actionLayout)}`,
        );
        if (g.encoding.fixed) console.log(`\nfixed action index: ${g.encoding.fixed.size} slots`);
        return;
      }
      if (args.action === 'plot') {
        if (!args.dir)
          throw new CliError('train plot needs a run or model folder (or a model name): eagles train plot DIR', 2);
        try {
          // a shipped model may be named as for neural:model= (march-of-eagles/farm-on-the-ridge-bootstrap)
          const dir = existsSync(args.dir)
            ? args.dir
            : (await import('../agents/neural/agent.ts')).resolveModelDir(args.dir);
          const { metrics, title, games } = plotInput(dir);
          const svg = plotSvg(metrics, title, games);
          const out = args.out ?? join(dir, 'training.svg');
          writeFileSync(out, svg);
          console.log(`wrote ${out}`);
        } catch (e) {
          throw new CliError((e as Error).message);
        }
        return;
      }
      if (args.action === 'value-check') {
        if (!args.dir)
          throw new CliError(
            'train value-check needs a model: eagles train value-check MODEL --scenario S [--games N]',
            2,
          );
        const games = args.games;
        if (!(Number.isInteger(games) && games > 0))
          throw new CliError(`--games must be a positive whole number (got ${games})`, 2);
        const { game, scenario, id } = loadScenario(args.ruleset, args.scenario);
        if (!game.encoding) throw new CliError(`ruleset ${game.id} has no observation encoding`);
        const { loadTf } = await import('../agents/neural/backend.ts');
        const { loadModel } = await import('../agents/neural/model.ts');
        const { ValueHead, networkLeafValue, resolveModelDir } = await import('../agents/neural/agent.ts');
        let r: ReturnType<typeof valueCheck>;
        try {
          const dir = resolveModelDir(args.dir);
          const { tf } = await loadTf(args.backend);
          const { model, meta } = await loadModel(tf, dir);
          if (meta.ruleset !== game.id || meta.encoding !== game.encoding.id)
            throw new Error(
              `model ${dir} is for ${meta.ruleset} (${meta.encoding}), not ${game.id} (${game.encoding.id})`,
            );
          r = valueCheck(game, scenario, networkLeafValue(new ValueHead(model), game, game.encoding), games, args.seed);
        } catch (e) {
          throw new CliError((e as Error).message);
        }
        if (args.json)
          return void console.log(
            JSON.stringify({
              ruleset: game.id,
              scenario: id,
              model: args.dir,
              seed: args.seed,
              games: r.games,
              positions: r.positions,
              mse: { evaluation: r.mseEval, network: r.mseNet, zero: r.mseZero },
            }),
          );
        console.log(
          `${game.id} / ${id}: ${r.positions} positions from ${r.games} held-out scripted games (seed ${args.seed})`,
        );
        console.log(
          `mean squared error against the result: evaluation ${r.mseEval.toFixed(4)}, network ${r.mseNet.toFixed(4)}, always 0 ${r.mseZero.toFixed(4)}`,
        );
        return;
      }
      if (args.dir) throw new CliError(`unexpected argument "${args.dir}" (did you mean --run ${args.dir}?)`, 2);
      const { game, id } = loadScenario(args.ruleset, args.scenario);
      if (!game.encoding) throw new CliError(`ruleset ${game.id} has no observation encoding to train on`);
      for (const [k, v] of Object.entries({
        hours: args.hours,
        workers: args.workers,
        games: args.games,
        sims: args.sims,
        steps: args.steps,
        window: args.window,
        batch: args.batch,
      }))
        if (!(Number.isFinite(v) && v > 0)) throw new CliError(`--${k} must be a positive number (got ${v})`, 2);
      if (!(args.gate > 0 && args.gate <= 1)) throw new CliError(`--gate must be in (0, 1] (got ${args.gate})`, 2);
      // a misspelt opponent fails now, not after the bootstrap
      for (const spec of args.opponents) {
        try {
          await createAgent(spec).close?.();
        } catch (e) {
          throw new CliError(`--opponents: ${(e as Error).message}`, 2);
        }
      }
      const dir = args.run ?? join('runs', `${game.id}-${id}`);
      if (!args.resume && existsSync(join(dir, 'run.json')))
        throw new CliError(`${dir} already holds a training run; add --resume to continue it, or pick another --run`);
      const tty = process.stderr.isTTY;
      const bar = tty
        ? new cliProgress.SingleBar(
            {
              format: '{phase} |{bar}| {value}/{total} | iteration {iteration} | {games} games | {samples} samples',
              hideCursor: true,
              clearOnComplete: true,
            },
            cliProgress.Presets.shades_classic,
          )
        : null;
      let phase = '';
      const onProgress = (p: Progress) => {
        if (p.last) {
          bar?.stop();
          phase = '';
          console.log(metricsLine(p.last));
          return;
        }
        if (p.phase !== phase) {
          phase = p.phase;
          if (bar) {
            bar.stop();
            bar.start(p.total ?? 1, p.done ?? 0, {
              phase: p.phase,
              iteration: p.iteration,
              games: p.games,
              samples: p.samples,
            });
          } else process.stderr.write(`iteration ${p.iteration}: ${p.phase}…\n`);
        }
        bar?.update(p.done ?? 0, { phase: p.phase, iteration: p.iteration, games: p.games, samples: p.samples });
      };
      const run = new TrainingRun(dir, onProgress, args.queue);
      let interrupts = 0;
      const onSig = () => {
        interrupts++;
        if (interrupts > 1) {
          bar?.stop();
          process.stderr.write('\nstopped; resume from the last finished iteration with --resume\n');
          process.exit(130);
        }
        process.stderr.write('\nstopping after this iteration (Ctrl-C again to quit now)\n');
        run.stop();
      };
      process.on('SIGINT', onSig);
      try {
        const st = await run.start(
          {
            ruleset: game.id,
            scenario: id,
            hours: args.hours,
            iterations: args.iterations ?? Infinity,
            workers: args.workers,
            bootstrapGames: args['bootstrap-games'],
            bootstrapSteps: args['bootstrap-steps'],
            bootstrapKeep: args['bootstrap-keep'],
            gamesPerIteration: args.games,
            concurrent: DEFAULT_TRAIN.concurrent,
            sims: args.sims,
            tempMoves: DEFAULT_TRAIN.tempMoves,
            stepsPerIteration: args.steps,
            window: args.window,
            batch: args.batch,
            lr: args.lr,
            evalGames: args['eval-games'],
            gate: args.gate,
            opponents: args.opponents,
            opponentGames: args['opponent-games'],
            evalMode: args['eval-mode'],
            evalSims: args['eval-sims'],
            hidden: args.hidden,
            seed: args.seed,
            ...(args.backend ? { backend: args.backend } : {}),
          },
          args.resume,
          `eagles ${process.argv.slice(2).join(' ')}`,
        );
        console.log(
          `training ${st.options.ruleset} / ${st.options.scenario} in ${dir} on tfjs ${run.backend}${args.resume ? `, resuming after iteration ${st.iteration}` : ''}`,
        );
        const end = await run.loop();
        bar?.stop();
        const last = readMetrics(dir).at(-1);
        console.log(
          `stopped after iteration ${end.iteration}: ${end.games} games, ${end.samples} samples; best network ${end.best}`,
        );
        if (last?.evalVs)
          for (const [k, v] of Object.entries(last.evalVs))
            console.log(`  latest vs ${k}: ${scoreText(v, st.options.opponentGames)}`);
        console.log(
          `play it: npm run eagles -- play --p2 neural:model=${join(dir, 'best')}    curves: npm run eagles -- train plot ${dir}`,
        );
      } catch (e) {
        bar?.stop();
        if (e instanceof RunError) throw new CliError(e.message);
        throw e;
      } finally {
        process.off('SIGINT', onSig);
      }
    },
  );
}
