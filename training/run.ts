/**
 * A training run in a folder:
 *
 *   run.json             options and progress (iteration, games, samples, best checkpoint), rewritten atomically
 *   metrics.jsonl        one line per iteration: losses, speeds, evaluations, promotion
 *   shards/              samples, shard-<iteration>-<n>.msgpack
 *   checkpoints/iter-N/  every checkpoint (tfjs model.json + weights.bin)
 *   checkpoints/initial/ a bootstrapped run's untrained network (its seeded initial weights), evaluated first
 *   best/                the current best network (what self-play uses, and what to ship)
 *
 * Iteration 0 is the bootstrap: the scripted player's games, imitated. Each later iteration: self-play with the best
 * network in the worker pool (network requests batched in this thread), learner steps over the replay window, a new
 * checkpoint, then an evaluation in the arena pool with paired seeds against the best network (promoted at the gate)
 * and against fixed opponents. `--resume` continues from run.json.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  appendFileSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import { join, resolve } from 'node:path';
import seedrandom from 'seedrandom';
import { loadTf, type LoadedTf } from '../agents/neural/backend.ts';
import { NetBatcher } from '../agents/neural/evaluator.ts';
import {
  buildModel,
  DEFAULT_NET,
  loadModel,
  saveModel,
  type ModelMeta,
  type NetShape,
} from '../agents/neural/model.ts';
import { DEFAULT_PUCT } from '../agents/neural/puct.ts';
import { loadScenario } from '../arena/catalog.ts';
import { MatchPool } from '../arena/pool.ts';
import { wilson } from '../arena/ratings.ts';
import { DEFAULT_LEARNER, Learner } from './learner.ts';
import type { GameRecord, Sample } from './selfplay.ts';
import { playInPool } from './pool.ts';
import { listShards, readShard, writeShard } from './shards.ts';

export interface TrainOptions {
  readonly ruleset: string;
  readonly scenario: string;
  readonly hours: number;
  /** Stop after this many iterations (after the bootstrap), whatever the time. */
  readonly iterations: number;
  readonly workers: number;
  readonly bootstrapGames: number;
  readonly bootstrapSteps: number;
  /** Positions kept per bootstrap game (0: all). */
  readonly bootstrapKeep: number;
  readonly gamesPerIteration: number;
  /** Games each worker task plays at once (their network requests batch together). */
  readonly concurrent: number;
  readonly sims: number;
  readonly tempMoves: number;
  readonly stepsPerIteration: number;
  readonly window: number;
  readonly batch: number;
  readonly lr: number;
  /** Paired games of each evaluation (new checkpoint vs best). */
  readonly evalGames: number;
  /** Promote when the new checkpoint scores at least this against the best. */
  readonly gate: number;
  /** Fixed opponents for the evaluation, and games against each. */
  readonly opponents: readonly string[];
  readonly opponentGames: number;
  /** How the checkpoints play in evaluations: policy or puct. */
  readonly evalMode: 'policy' | 'puct';
  readonly evalSims: number;
  readonly hidden: number;
  readonly seed: string;
  readonly backend?: string;
}

export const DEFAULT_TRAIN: Omit<TrainOptions, 'ruleset' | 'scenario'> = {
  hours: 1,
  iterations: Infinity,
  workers: Math.max(1, os.cpus().length),
  bootstrapGames: 400,
  bootstrapSteps: 1500,
  bootstrapKeep: 0,
  gamesPerIteration: 64,
  concurrent: 8,
  sims: 32,
  tempMoves: 12,
  stepsPerIteration: 300,
  window: 60_000,
  batch: 128,
  lr: 1e-3,
  evalGames: 40,
  gate: 0.55,
  opponents: ['random', 'heuristic'],
  opponentGames: 40,
  evalMode: 'puct',
  evalSims: 32,
  hidden: DEFAULT_NET.hidden,
  seed: 'train',
};

export interface RunState {
  readonly format: 'eagles-train-run';
  readonly version: 1;
  readonly options: TrainOptions;
  iteration: number;
  games: number;
  samples: number;
  best: string;
  elapsedMs: number;
  command: string;
}

export interface Metrics {
  readonly iteration: number;
  readonly t: string;
  readonly elapsedMs: number;
  readonly games: number;
  readonly samples: number;
  /** What iteration 0 learned from: the scripted player's games, or nothing (`--bootstrap-games 0`: the untrained network). */
  readonly source: 'imitation' | 'untrained' | 'selfplay';
  readonly policyLoss: number;
  readonly valueLoss: number;
  readonly gamesPerHour: number;
  readonly learnerSamplesPerSec: number;
  readonly evalVsBest?: number;
  readonly evalVs?: Readonly<Record<string, number>>;
  /** Iteration 0 of a bootstrapped run only: the untrained (seeded initial) network's scores against the fixed opponents. */
  readonly evalBefore?: Readonly<Record<string, number>>;
  readonly promoted: boolean;
  readonly best: string;
  readonly backend: string;
  /** Iteration 0 only: the bootstrap learner's mean losses over each 100 Adam steps (its learning curve). */
  readonly bootstrapCurve?: readonly { readonly step: number; readonly policy: number; readonly value: number }[];
}

export interface Progress {
  phase: string;
  iteration: number;
  games: number;
  samples: number;
  done?: number;
  total?: number;
  last?: Metrics;
}

export class RunError extends Error {}

function writeJsonAtomic(file: string, v: unknown): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(v, null, 2));
  renameSync(`${file}.tmp`, file);
}

export function readRunState(dir: string): RunState {
  const f = join(dir, 'run.json');
  if (!existsSync(f)) throw new RunError(`${dir} is not a training run (no run.json); start one without --resume`);
  let st: RunState;
  try {
    st = JSON.parse(readFileSync(f, 'utf8'));
  } catch (e) {
    throw new RunError(`${f} is not valid JSON: ${(e as Error).message}`);
  }
  if (st.format !== 'eagles-train-run' || st.version !== 1)
    throw new RunError(`${f} is not a version-1 eagles training run`);
  return st;
}

export function readMetrics(dir: string): Metrics[] {
  const f = join(dir, 'metrics.jsonl');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as Metrics;
      } catch {
        throw new RunError(`${f}: line ${i + 1} is not valid JSON`);
      }
    });
}

export class TrainingRun {
  private tfl!: LoadedTf;
  private shape!: NetShape;
  private state!: RunState;
  private stopRequested = false;
  private t0 = 0;
  private elapsed0 = 0;
  /** The ruleset and validated scenario data, loaded once in start(). */
  private sc!: ReturnType<typeof loadScenario>;

  constructor(
    readonly dir: string,
    private readonly onProgress: (p: Progress) => void = () => {},
    /** Play the training games through this Redis queue (redis://HOST:PORT), served by `eagles worker`. */
    private readonly queue?: string,
  ) {}

  /** Ask the run to stop at the next safe point (after the current phase is saved). */
  stop(): void {
    this.stopRequested = true;
  }

  private elapsedMs(): number {
    return this.elapsed0 + (Date.now() - this.t0);
  }

  private timeUp(): boolean {
    return this.stopRequested || this.elapsedMs() >= this.state.options.hours * 3_600_000;
  }

  async start(opts: TrainOptions, resume: boolean, command: string): Promise<RunState> {
    const dir = this.dir;
    if (resume) {
      this.state = readRunState(dir);
    } else {
      if (existsSync(join(dir, 'run.json')))
        throw new RunError(
          `${dir} already holds a training run; add --resume to continue it, or choose another --run folder`,
        );
      mkdirSync(join(dir, 'shards'), { recursive: true });
      this.state = {
        format: 'eagles-train-run',
        version: 1,
        options: opts,
        iteration: -1,
        games: 0,
        samples: 0,
        best: '',
        elapsedMs: 0,
        command,
      };
      writeJsonAtomic(join(dir, 'run.json'), this.state);
    }
    // on resume, a new --hours extends the budget from now
    if (resume)
      this.state = {
        ...this.state,
        options: {
          ...this.state.options,
          hours: this.state.elapsedMs / 3_600_000 + opts.hours,
          iterations: opts.iterations,
        },
      };
    this.t0 = Date.now();
    this.elapsed0 = this.state.elapsedMs;
    const o = this.state.options;
    this.sc = loadScenario(o.ruleset, o.scenario);
    const { game } = this.sc;
    if (!game.encoding) throw new RunError(`ruleset ${o.ruleset} has no observation encoding to train on`);
    this.tfl = await loadTf(o.backend);
    this.shape = {
      stateSize: game.encoding.stateSize,
      actionSize: game.encoding.actionSize,
      hidden: o.hidden,
      actHidden: DEFAULT_NET.actHidden,
    };
    return this.state;
  }

  get backend(): string {
    return this.tfl.note;
  }

  private meta(iteration: number, trainedOn = this.state.samples): ModelMeta {
    const o = this.state.options;
    const { game } = this.sc;
    return {
      format: 'eagles-model',
      version: 1,
      ruleset: o.ruleset,
      scenario: o.scenario,
      encoding: game.encoding!.id,
      shape: this.shape,
      iteration,
      trainedOn,
      command: this.state.command,
      created: new Date().toISOString(),
    };
  }

  private window(size = this.state.options.window): Sample[] {
    const enc = this.sc.game.encoding!;
    const files = listShards(join(this.dir, 'shards')).reverse();
    const out: Sample[] = [];
    for (const f of files) {
      const { samples } = readShard(f, { encoding: enc.id, stateSize: enc.stateSize, actionSize: enc.actionSize });
      for (const x of samples) out.push(x); // (spreading a shard's samples into push overflows the stack)
      if (out.length >= size) break;
    }
    return out.slice(0, size);
  }

  private async playGames(
    mode: 'imitation' | 'puct',
    n: number,
    iteration: number,
    batcher: NetBatcher | null,
  ): Promise<{ records: GameRecord[]; ms: number }> {
    const o = this.state.options;
    const { scenario } = this.sc;
    const cfg = { puct: { ...DEFAULT_PUCT, sims: o.sims, noiseFrac: 0.25 }, tempMoves: o.tempMoves, maxPlies: 20_000 };
    const phase = mode === 'imitation' ? 'bootstrap games' : 'self-play';
    const onGame = (done: number) =>
      this.onProgress({
        phase,
        iteration,
        games: this.state.games + done,
        samples: this.state.samples,
        done,
        total: n,
      });
    if (this.queue) {
      const { playInQueue } = await import('./queue.ts');
      return playInQueue({
        url: this.queue,
        // the same run folder finds the same jobs after a restart
        run: createHash('sha256').update(resolve(this.dir)).digest('hex').slice(0, 12),
        ruleset: o.ruleset,
        scenario: o.scenario,
        mode,
        games: n,
        seedPrefix: `${o.seed}/${iteration}`,
        concurrent: mode === 'imitation' ? 10 : o.concurrent,
        ...(mode === 'imitation' && o.bootstrapKeep > 0 ? { keep: o.bootstrapKeep } : {}),
        cfg,
        ...(mode === 'puct' ? { modelDir: join(this.dir, 'best') } : {}),
        onGame,
      });
    }
    return playInPool({
      ruleset: o.ruleset,
      scenario,
      mode,
      games: n,
      seedPrefix: `${o.seed}/${iteration}`,
      workers: o.workers,
      concurrent: mode === 'imitation' ? 10 : o.concurrent,
      ...(mode === 'imitation' && o.bootstrapKeep > 0 ? { keep: o.bootstrapKeep } : {}),
      cfg,
      batcher,
      onGame,
    });
  }

  private saveSamples(iteration: number, source: 'imitation' | 'selfplay', records: GameRecord[]): number {
    const o = this.state.options;
    const enc = this.sc.game.encoding!;
    const samples = records.flatMap((r) => r.samples);
    writeShard(
      join(this.dir, 'shards', `shard-${String(iteration).padStart(4, '0')}-0.msgpack`),
      {
        ruleset: o.ruleset,
        scenario: o.scenario,
        encoding: enc.id,
        stateSize: enc.stateSize,
        actionSize: enc.actionSize,
        source,
        iteration,
        games: records.length,
        created: new Date().toISOString(),
      },
      samples,
    );
    return samples.length;
  }

  /**
   * Paired-seed games of `a` against `b` in the arena pool; returns a's score in [0, 1]. `round` names the seeds
   * (an iteration, or 'initial' for the untrained network), `iteration` is for progress lines.
   */
  private async evaluate(
    a: string,
    b: string,
    games: number,
    iteration: number,
    label: string,
    round: number | string = iteration,
  ): Promise<number> {
    const o = this.state.options;
    const pool = new MatchPool(o.workers, 30 * 60_000);
    let score = 0;
    let done = 0;
    try {
      const jobs: Promise<void>[] = [];
      for (let i = 0; i < games; i++) {
        const seat = i % 2;
        const agents = seat === 0 ? [a, b] : [b, a];
        jobs.push(
          pool
            .play({
              id: `${label}-${i}`,
              ruleset: o.ruleset,
              scenario: o.scenario,
              seed: `${o.seed}/eval/${round}/${Math.floor(i / 2)}`,
              agents,
            })
            .then((r) => {
              if (r.error !== undefined) throw new RunError(`evaluation game ${label}-${i} failed: ${r.error}`);
              const ret = r.returns[seat]!;
              score += ret > 0 ? 1 : ret < 0 ? 0 : 0.5;
              done++;
              this.onProgress({
                phase: `evaluation ${label}`,
                iteration,
                games: this.state.games,
                samples: this.state.samples,
                done,
                total: games,
              });
            }),
        );
      }
      await Promise.all(jobs);
    } finally {
      await pool.close();
    }
    return score / games;
  }

  private spec(dir: string): string {
    const o = this.state.options;
    return `neural:model=${resolve(dir)},mode=${o.evalMode}${o.evalMode === 'puct' ? `,sims=${o.evalSims}` : ''}`;
  }

  private record(m: Metrics): void {
    appendFileSync(join(this.dir, 'metrics.jsonl'), `${JSON.stringify(m)}\n`);
  }

  private save(): void {
    this.state.elapsedMs = this.elapsedMs();
    writeJsonAtomic(join(this.dir, 'run.json'), this.state);
  }

  /** Run until the time budget or iteration count is spent (or `stop()`); the run can be resumed afterwards. */
  async loop(): Promise<RunState> {
    const tf = this.tfl.tf;
    const o = this.state.options;
    const u = seedrandom(`${o.seed}/learner/${this.state.iteration}`);
    const ckpt = (i: number) => join(this.dir, 'checkpoints', `iter-${String(i).padStart(4, '0')}`);
    let model: ReturnType<typeof buildModel>;
    if (this.state.iteration < 0) {
      // bootstrap: imitate the scripted player so the first network is not random
      model = buildModel(tf, this.shape, o.seed);
      const learner = new Learner(tf, model, this.shape, { ...DEFAULT_LEARNER, lr: o.lr, batch: o.batch });
      let pl = NaN;
      let vl = NaN;
      const curve: { step: number; policy: number; value: number }[] = [];
      let gph = 0;
      let sps = 0;
      let evalBefore: Record<string, number> | undefined;
      if (o.bootstrapGames > 0) {
        // the untrained network against the fixed opponents, so the curves start where learning started
        if (o.opponentGames > 0 && o.opponents.length) {
          // trained on nothing, even when a resumed run already has its bootstrap games on disk
          await saveModel(tf, model, join(this.dir, 'checkpoints', 'initial'), this.meta(0, 0));
          evalBefore = await this.fixedOpponents(join(this.dir, 'checkpoints', 'initial'), 0, 'initial');
        }
        const shard0 = join(this.dir, 'shards', 'shard-0000-0.msgpack');
        const done = existsSync(shard0) ? readShard(shard0) : null;
        if (done && done.header.games === o.bootstrapGames) {
          // resumed during the bootstrap: its games are already on disk
          this.state.games = done.header.games;
          this.state.samples = done.samples.length;
        } else {
          const { records, ms } = await this.playGames('imitation', o.bootstrapGames, 0, null);
          const n = this.saveSamples(0, 'imitation', records);
          this.state.games += records.length;
          this.state.samples += n;
          gph = records.length / (ms / 3_600_000);
        }
        this.save();
        // the bootstrap learns from all its games, whatever the replay window
        const win = this.window(Math.max(o.window, this.state.samples));
        const t = Date.now();
        let seen = 0;
        for (let done = 0; done < o.bootstrapSteps; done += 100) {
          const steps = Math.min(100, o.bootstrapSteps - done);
          const l = learner.train(win, steps, u);
          pl = l.policy;
          vl = l.value;
          seen += l.samples;
          curve.push({ step: done + steps, policy: l.policy, value: l.value });
          this.onProgress({
            phase: 'bootstrap learning',
            iteration: 0,
            games: this.state.games,
            samples: this.state.samples,
            done: done + 100,
            total: o.bootstrapSteps,
          });
        }
        sps = seen / ((Date.now() - t) / 1000);
      }
      await saveModel(tf, model, ckpt(0), this.meta(0));
      rmSync(join(this.dir, 'best'), { recursive: true, force: true });
      cpSync(ckpt(0), join(this.dir, 'best'), { recursive: true });
      this.state.iteration = 0;
      this.state.best = ckpt(0);
      this.save();
      const m: Metrics = {
        iteration: 0,
        t: new Date().toISOString(),
        elapsedMs: this.elapsedMs(),
        games: this.state.games,
        samples: this.state.samples,
        source: o.bootstrapGames > 0 ? 'imitation' : 'untrained',
        policyLoss: pl,
        valueLoss: vl,
        gamesPerHour: gph,
        learnerSamplesPerSec: sps,
        promoted: true,
        best: ckpt(0),
        backend: this.tfl.backend,
        evalVs: await this.fixedOpponents(ckpt(0), 0),
        ...(evalBefore ? { evalBefore } : {}),
        ...(curve.length ? { bootstrapCurve: curve } : {}),
      };
      this.record(m);
      this.onProgress({
        phase: 'iteration done',
        iteration: 0,
        games: this.state.games,
        samples: this.state.samples,
        last: m,
      });
    } else {
      // resume: the learner continues from the latest checkpoint
      model = (await loadModel(tf, ckpt(this.state.iteration))).model;
    }
    const learner = new Learner(tf, model, this.shape, { ...DEFAULT_LEARNER, lr: o.lr, batch: o.batch });
    let its = 0;
    while (!this.timeUp() && its < o.iterations) {
      const it = this.state.iteration + 1;
      const best = (await loadModel(tf, join(this.dir, 'best'))).model;
      const batcher = new NetBatcher(tf, best, this.shape, 256);
      const { records, ms } = await this.playGames('puct', o.gamesPerIteration, it, batcher);
      best.dispose();
      const n = this.saveSamples(it, 'selfplay', records);
      this.state.games += records.length;
      this.state.samples += n;
      const win = this.window();
      const t = Date.now();
      let pl = 0;
      let vl = 0;
      let seen = 0;
      const chunks = Math.ceil(o.stepsPerIteration / 50);
      for (let c = 0; c < chunks; c++) {
        const l = learner.train(win, 50, u);
        pl += l.policy / chunks;
        vl += l.value / chunks;
        seen += l.samples;
        this.onProgress({
          phase: 'learning',
          iteration: it,
          games: this.state.games,
          samples: this.state.samples,
          done: (c + 1) * 50,
          total: chunks * 50,
        });
      }
      const sps = seen / ((Date.now() - t) / 1000);
      await saveModel(tf, model, ckpt(it), this.meta(it));
      const vsBest = await this.evaluate(
        this.spec(ckpt(it)),
        this.spec(join(this.dir, 'best')),
        o.evalGames,
        it,
        'vs best',
      );
      const promoted = vsBest >= o.gate;
      if (promoted) {
        rmSync(join(this.dir, 'best'), { recursive: true, force: true });
        cpSync(ckpt(it), join(this.dir, 'best'), { recursive: true });
        this.state.best = ckpt(it);
      }
      const evalVs = await this.fixedOpponents(ckpt(it), it);
      this.state.iteration = it;
      this.save();
      const m: Metrics = {
        iteration: it,
        t: new Date().toISOString(),
        elapsedMs: this.elapsedMs(),
        games: this.state.games,
        samples: this.state.samples,
        source: 'selfplay',
        policyLoss: pl,
        valueLoss: vl,
        gamesPerHour: records.length / (ms / 3_600_000),
        learnerSamplesPerSec: sps,
        evalVsBest: vsBest,
        evalVs,
        promoted,
        best: this.state.best,
        backend: this.tfl.backend,
      };
      this.record(m);
      this.onProgress({
        phase: 'iteration done',
        iteration: it,
        games: this.state.games,
        samples: this.state.samples,
        last: m,
      });
      its++;
    }
    this.save();
    return this.state;
  }

  private async fixedOpponents(dir: string, it: number, round: number | string = it): Promise<Record<string, number>> {
    const o = this.state.options;
    const out: Record<string, number> = {};
    const who = round === 'initial' ? 'untrained ' : '';
    for (const opp of o.opponents)
      if (o.opponentGames > 0)
        out[opp] = await this.evaluate(this.spec(dir), opp, o.opponentGames, it, `${who}vs ${opp}`, round);
    return out;
  }
}

/** 95% interval of a score over n games (for progress lines). */
export function scoreText(score: number, n: number): string {
  const [lo, hi] = wilson(score * n, n);
  return `${(score * 100).toFixed(1)}% [${(lo * 100).toFixed(0)}–${(hi * 100).toFixed(0)}]`;
}
