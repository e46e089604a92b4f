/**
 * Training benchmarks (`eagles bench --train`): network evaluations/s unbatched and batched per available tfjs
 * backend, learner samples/s per backend, and self-play games/hour through the worker pool with batched inference.
 */
import os from 'node:os';
import seedrandom from 'seedrandom';
import { loadTf } from '../agents/neural/backend.ts';
import { NetBatcher } from '../agents/neural/evaluator.ts';
import { DEFAULT_NET, buildModel, type NetShape } from '../agents/neural/model.ts';
import { DEFAULT_PUCT } from '../agents/neural/puct.ts';
import { loadScenario } from '../arena/catalog.ts';
import { Learner } from './learner.ts';
import { playInPool } from './pool.ts';
import { imitationGame, type Sample } from './selfplay.ts';

interface BackendRow {
  backend: string;
  note: string;
  unbatchedPerSec: number;
  batchedPerSec: number;
  batch: number;
  learnerSamplesPerSec: number;
  error?: string;
}

export interface TrainBench {
  scenario: string;
  shape: NetShape;
  meanActions: number;
  backends: BackendRow[];
  selfPlay: {
    workers: number;
    games: number;
    sims: number;
    gamesPerHour: number;
    decisionsPerGame: number;
    backend: string;
  };
}

export async function trainBench(o: {
  scenario: string;
  seconds: number;
  selfPlayGames: number;
  sims: number;
  workers?: number;
  backends?: string[];
}): Promise<TrainBench> {
  const { game, scenario, id } = loadScenario('march-of-eagles', o.scenario);
  const enc = game.encoding!;
  const shape: NetShape = { stateSize: enc.stateSize, actionSize: enc.actionSize, ...DEFAULT_NET };
  // real positions and action lists, from scripted games
  const samples: Sample[] = [];
  for (let i = 0; samples.length < 2000; i++)
    samples.push(...(await imitationGame(game, game.initialState(scenario), `bench-${i}`, 0.1, 20_000)).samples);
  const reqs = samples.slice(0, 512).map((x) => ({ state: x.s, actions: x.a, k: x.k }));
  const meanActions = reqs.reduce((a, r) => a + r.k, 0) / reqs.length;
  const rows: BackendRow[] = [];
  for (const b of o.backends ?? ['node', 'wasm', 'cpu']) {
    let tfl: Awaited<ReturnType<typeof loadTf>>;
    try {
      tfl = await loadTf(b);
    } catch (e) {
      rows.push({
        backend: b,
        note: '',
        unbatchedPerSec: 0,
        batchedPerSec: 0,
        batch: 0,
        learnerSamplesPerSec: 0,
        error: (e as Error).message.split('\n')[0]!,
      });
      continue;
    }
    const { tf } = tfl;
    const model = buildModel(tf, shape);
    const ms = o.seconds * 1000;
    // unbatched: one request at a time
    const single = new NetBatcher(tf, model, shape, 1);
    let n = 0;
    let t = performance.now();
    while (performance.now() - t < ms / 3) await single.evaluate(reqs[n++ % reqs.length]!);
    const unbatched = n / ((performance.now() - t) / 1000);
    // batched: 64 requests in flight
    const batch = 64;
    const many = new NetBatcher(tf, model, shape, batch);
    n = 0;
    t = performance.now();
    while (performance.now() - t < ms / 3) {
      await Promise.all(Array.from({ length: batch }, (_, j) => many.evaluate(reqs[(n + j) % reqs.length]!)));
      n += batch;
    }
    const batched = n / ((performance.now() - t) / 1000);
    const learner = new Learner(tf, model, shape);
    const u = seedrandom('bench');
    learner.train(samples, 2, u); // warm-up
    let seen = 0;
    t = performance.now();
    while (performance.now() - t < ms / 3) seen += learner.train(samples, 5, u).samples;
    rows.push({
      backend: tfl.backend,
      note: tfl.note,
      unbatchedPerSec: unbatched,
      batchedPerSec: batched,
      batch,
      learnerSamplesPerSec: seen / ((performance.now() - t) / 1000),
    });
    model.dispose();
  }
  // self-play through the pool, inference batched in this thread on the default backend
  const tfl = await loadTf();
  const model = buildModel(tfl.tf, shape);
  const batcher = new NetBatcher(tfl.tf, model, shape, 256);
  const workers = o.workers ?? os.cpus().length;
  const cfg = { puct: { ...DEFAULT_PUCT, sims: o.sims, noiseFrac: 0.25 }, tempMoves: 12, maxPlies: 20_000 };
  const sp = await playInPool({
    ruleset: 'march-of-eagles',
    scenario,
    mode: 'puct',
    games: o.selfPlayGames,
    seedPrefix: 'bench',
    workers,
    concurrent: 8,
    cfg,
    batcher,
  });
  const decisions = sp.records.reduce((a, r) => a + r.samples.length, 0) / sp.records.length;
  return {
    scenario: id,
    shape,
    meanActions,
    backends: rows,
    selfPlay: {
      workers,
      games: sp.records.length,
      sims: o.sims,
      gamesPerHour: sp.records.length / (sp.ms / 3_600_000),
      decisionsPerGame: decisions,
      backend: tfl.backend,
    },
  };
}

export function printTrainBench(r: TrainBench): void {
  console.log(
    `network ${r.shape.stateSize}→${r.shape.hidden}→${r.shape.hidden} state trunk, ${r.shape.actionSize}→${r.shape.actHidden} per action; ${r.scenario} positions (mean ${r.meanActions.toFixed(1)} legal actions)`,
  );
  console.log('backend      evals/s unbatched  evals/s batched (64)  learner samples/s');
  for (const b of r.backends) {
    if (b.error) console.log(`${b.backend.padEnd(11)}  unavailable: ${b.error}`);
    else
      console.log(
        `${b.backend.padEnd(11)}  ${b.unbatchedPerSec.toFixed(0).padStart(17)}  ${b.batchedPerSec.toFixed(0).padStart(20)}  ${b.learnerSamplesPerSec.toFixed(0).padStart(17)}`,
      );
  }
  const s = r.selfPlay;
  console.log(
    `\nself-play: ${s.games} games, ${s.sims} PUCT simulations per decision, ${s.workers} workers + batched inference (${s.backend}) in the main thread`,
  );
  console.log(
    `  ${s.gamesPerHour.toFixed(0)} games/hour, ${s.decisionsPerGame.toFixed(0)} recorded decisions per game (target ≥ 1,000 games/hour)`,
  );
}
