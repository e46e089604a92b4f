import { valueCheck } from './value-check.ts';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pack } from 'msgpackr';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { loadTf } from '../agents/neural/backend.ts';
import type { NetEvaluator, NetRequest } from '../agents/neural/evaluator.ts';
import { buildModel } from '../agents/neural/model.ts';
import { DEFAULT_PUCT } from '../agents/neural/puct.ts';
import { loadScenario } from '../arena/catalog.ts';
import { runMatch } from '../arena/match.ts';
import { createAgent } from '../agents/registry.ts';
import { ticTacToe } from '../engine/reference/tictactoe.ts';
import { Learner } from './learner.ts';
import { plotSvg, xTicks } from './plot.ts';
import { DEFAULT_TRAIN, TrainingRun, readMetrics, readRunState } from './run.ts';
import { imitationGame, selfPlayGame, type Sample } from './selfplay.ts';
import { ShardError, readShard, writeShard } from './shards.ts';

class UniformNet implements NetEvaluator {
  async evaluate(req: NetRequest) {
    return { value: 0, priors: new Float32Array(req.k).fill(1 / req.k) };
  }
}

const header = {
  ruleset: 'tic-tac-toe',
  scenario: 'standard',
  encoding: 'tic-tac-toe/v1',
  stateSize: 19,
  actionSize: 9,
  source: 'selfplay',
  iteration: 1,
  games: 1,
  created: 'now',
};

describe('training games', () => {
  it('self-play records the visit distribution and the outcome for the mover', async () => {
    const r = await selfPlayGame(ticTacToe, ticTacToe.initialState({ id: 'standard' }), 's', new UniformNet(), {
      puct: { ...DEFAULT_PUCT, sims: 30, noiseFrac: 0.25 },
      tempMoves: 2,
      maxPlies: 100,
    });
    expect(r.samples.length).toBeGreaterThanOrEqual(4); // forced last moves are not recorded
    for (const [i, x] of r.samples.entries()) {
      expect(x.pi.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      expect(x.a.length).toBe(x.k * 9);
      // samples alternate X, O, X, … (tic-tac-toe has no forced moves before the last)
      const mover = i % 2;
      expect(x.z).toBe(r.returns[mover]);
    }
  });

  it('imitation targets are the scripted player’s choices', async () => {
    const { game, scenario } = loadScenario('march-of-eagles', 'farm-on-the-ridge');
    const r = await imitationGame(game, game.initialState(scenario), 'i', 0.1, 20_000);
    expect(r.samples.length).toBeGreaterThan(20);
    expect(Math.abs(r.returns[0]!)).toBeLessThanOrEqual(1);
    for (const x of r.samples) {
      expect(x.s.length).toBe(game.encoding!.stateSize);
      expect(x.pi.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      expect(x.s.every(Number.isFinite) && x.a.every(Number.isFinite)).toBe(true);
    }
  });
});

describe('shards', () => {
  const samples: Sample[] = [
    {
      s: new Float32Array(19).fill(0.5),
      a: new Float32Array(18).fill(1),
      k: 2,
      pi: Float32Array.from([0.25, 0.75]),
      z: -1,
    },
  ];
  it('round-trip exactly', () => {
    const f = join(mkdtempSync(join(tmpdir(), 'eagles-shard-')), 'shard-0001-0.msgpack');
    writeShard(f, header, samples);
    const r = readShard(f, { encoding: 'tic-tac-toe/v1', stateSize: 19, actionSize: 9 });
    expect(r.header.games).toBe(1);
    expect(Array.from(r.samples[0]!.pi)).toEqual([0.25, 0.75]);
    expect(r.samples[0]!.z).toBe(-1);
  });
  it('are deflated (version 2) and version-1 plain msgpack shards still read', () => {
    const d = mkdtempSync(join(tmpdir(), 'eagles-shard-'));
    const f = join(d, 'shard-0001-0.msgpack');
    writeShard(f, header, samples);
    expect(readFileSync(f).subarray(0, 8).toString()).toBe('EGSHARD2');
    expect(readShard(f).header.version).toBe(2);
    const v1 = join(d, 'shard-0002-0.msgpack');
    const x = samples[0]!;
    const bytes = (a: Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    writeFileSync(
      v1,
      pack({
        header: { format: 'eagles-shard', version: 1, ...header },
        samples: [{ s: bytes(x.s), a: bytes(x.a), k: x.k, pi: bytes(x.pi), z: x.z }],
      }),
    );
    expect(readShard(v1).samples[0]!.z).toBe(-1);
  });
  it('refuse corrupt files and other encodings by name', () => {
    const d = mkdtempSync(join(tmpdir(), 'eagles-shard-'));
    const f = join(d, 'shard-0001-0.msgpack');
    writeShard(f, header, samples);
    expect(() => readShard(f, { encoding: 'march-of-eagles/v1', stateSize: 485, actionSize: 66 })).toThrow(
      /encoded with tic-tac-toe\/v1/,
    );
    const bad = join(d, 'shard-0002-0.msgpack');
    writeFileSync(bad, readFileSync(f).subarray(0, 40));
    expect(() => readShard(bad)).toThrow(ShardError);
  });
});

describe('plot axes', () => {
  it('tick the first value, then round steps', () => {
    expect(xTicks(-1, 21)).toEqual([-1, 5, 10, 15, 20]);
    expect(xTicks(0, 7)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(xTicks(100, 1500)).toEqual([100, 400, 600, 800, 1000, 1200, 1400]);
    expect(xTicks(1, 1)).toEqual([1]);
    expect(xTicks(0, 1)).toEqual([0, 1]); // whole iterations only
  });
});

describe('learner', () => {
  it('fits a policy and value target', async () => {
    const { tf } = await loadTf();
    const shape = { stateSize: 19, actionSize: 9, hidden: 32, actHidden: 16 };
    const enc = ticTacToe.encoding!;
    // target: always the centre when it is free, value +1 for X to move
    const data: Sample[] = [];
    const u = seedrandom('l');
    for (let i = 0; i < 64; i++) {
      const cells = Array.from({ length: 9 }, (_, j) => (j === 4 ? 0 : u() < 0.3 ? 1 + Math.floor(u() * 2) : 0));
      const s = { cells, toMove: 0 as const, winner: null };
      const legal = ticTacToe.legalActions(s);
      const st = new Float32Array(19);
      enc.encodeState(s, 0, st);
      const a = new Float32Array(legal.length * 9);
      enc.encodeActions(s, 0, legal, a);
      data.push({ s: st, a, k: legal.length, pi: Float32Array.from(legal, (c) => (c === 4 ? 1 : 0)), z: 1 });
    }
    const L = new Learner(tf, buildModel(tf, shape), shape, { lr: 3e-3, batch: 32, l2: 0, valueWeight: 1 });
    const before = L.train(data, 5, u);
    const after = L.train(data, 150, u);
    expect(after.policy).toBeLessThan(before.policy * 0.3);
    expect(after.value).toBeLessThan(before.value * 0.3);
  });
});

describe('a training run', () => {
  it('bootstraps, self-plays, learns, evaluates, resumes, plots, and its network plays', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'eagles-run-')), 'run');
    const opts = {
      ...DEFAULT_TRAIN,
      ruleset: 'march-of-eagles',
      scenario: 'farm-on-the-ridge',
      hours: 1,
      iterations: 1,
      workers: 1,
      bootstrapGames: 6,
      bootstrapSteps: 20,
      gamesPerIteration: 2,
      concurrent: 2,
      sims: 4,
      stepsPerIteration: 10,
      evalGames: 2,
      opponents: ['random'],
      opponentGames: 2,
      evalMode: 'policy' as const,
      hidden: 16,
    };
    const phases = new Set<string>();
    const run = new TrainingRun(dir, (p) => phases.add(p.phase));
    await run.start(opts, false, 'test');
    const st = await run.loop();
    expect(st.iteration).toBe(1);
    expect([...phases]).toEqual(
      expect.arrayContaining([
        'evaluation untrained vs random',
        'bootstrap games',
        'self-play',
        'learning',
        'evaluation vs best',
        'evaluation vs random',
      ]),
    );
    // the untrained network was saved and evaluated before the bootstrap learned anything
    expect(existsSync(join(dir, 'checkpoints', 'initial', 'model.json'))).toBe(true);
    expect(
      JSON.parse(readFileSync(join(dir, 'checkpoints', 'initial', 'model.json'), 'utf8')).userDefinedMetadata.eagles
        .trainedOn,
    ).toBe(0);
    await expect(new TrainingRun(dir).start(opts, false, 'test')).rejects.toThrow(/already holds a training run/);
    const again = new TrainingRun(dir);
    await again.start({ ...opts, iterations: 1 }, true, 'test');
    expect((await again.loop()).iteration).toBe(2);
    const m = readMetrics(dir);
    expect(m.map((x) => x.iteration)).toEqual([0, 1, 2]);
    expect(m[1]!.evalVsBest).toBeGreaterThanOrEqual(0);
    expect(readRunState(dir).games).toBe(6 + 2 + 2);
    // the bootstrap's learning curve: one point per 100 Adam steps (20 steps here: one point, at step 20)
    expect(m[0]!.bootstrapCurve?.map((c) => c.step)).toEqual([20]);
    expect(m[0]!.bootstrapCurve![0]!.policy).toBeCloseTo(m[0]!.policyLoss, 9);
    expect(m[1]!.bootstrapCurve).toBeUndefined();
    expect(Object.keys(m[0]!.evalBefore ?? {})).toEqual(['random']);
    expect(m[0]!.evalBefore!.random).toBeGreaterThanOrEqual(0);
    expect(m[1]!.evalBefore).toBeUndefined();
    // the score curves start at the untrained network, one step left of iteration 0
    expect(plotSvg(m, 'test')).toMatch(/>untrained</);
    expect(plotSvg(m.slice(1), 'test')).not.toMatch(/>untrained</);
    // with the games behind each score, every score point gets its 95% interval (none without)
    const scores =
      m.filter((x) => x.evalVsBest !== undefined).length + m.filter((x) => x.evalVs?.random !== undefined).length + 1; // + the untrained point
    expect(plotSvg(m, 'test', { vsBest: 2, vsOpponents: 2 }).match(/class="ci"/g)).toHaveLength(scores);
    expect(plotSvg(m, 'test')).not.toMatch(/class="ci"/);
    expect(m.map((x) => x.source)).toEqual(['imitation', 'selfplay', 'selfplay']);
    expect(plotSvg(m, 'test')).toMatch(
      /^<svg[\s\S]*bootstrap learning[\s\S]*Adam step[\s\S]*policy loss[\s\S]*vs random[\s\S]*<\/svg>$/,
    );
    expect(plotSvg(m.slice(1), 'test')).not.toMatch(/bootstrap learning/);
    // the bootstrap alone: its own panel and the scores, no per-iteration loss panel of one point
    expect(plotSvg(m.slice(0, 1), 'test')).toMatch(/bootstrap learning[\s\S]*evaluation score/);
    expect(plotSvg(m.slice(0, 1), 'test')).not.toMatch(/training loss/);
    expect(existsSync(join(dir, 'best', 'model.json'))).toBe(true);
    const { game, scenario, id } = loadScenario('march-of-eagles', 'farm-on-the-ridge');
    const res = await runMatch({
      game,
      scenario,
      scenarioId: id,
      seed: 'x',
      agents: [createAgent(`neural:model=${join(dir, 'best')},mode=puct,sims=4`), createAgent('random')],
    });
    expect(res.aborted).toBeUndefined();
    expect(game.toMove(res.finalState).kind).toBe('terminal');
  }, 120_000);

  it('bootstraps reproducibly: the same seed gives the same weights, another seed other weights', async () => {
    const opts = {
      ...DEFAULT_TRAIN,
      ruleset: 'march-of-eagles',
      scenario: 'farm-on-the-ridge',
      iterations: 0,
      workers: 2,
      concurrent: 1, // several tasks, so completion order can differ from seed order
      bootstrapGames: 4,
      bootstrapKeep: 5,
      bootstrapSteps: 30,
      opponentGames: 0,
      hidden: 16,
    };
    const weights = async (seed: string) => {
      const dir = join(mkdtempSync(join(tmpdir(), 'eagles-run-')), 'run');
      const run = new TrainingRun(dir);
      await run.start({ ...opts, seed }, false, 'test');
      await run.loop();
      return { bin: readFileSync(join(dir, 'best', 'weights.bin')), curve: readMetrics(dir)[0]!.bootstrapCurve };
    };
    const a = await weights('r1');
    const b = await weights('r1');
    const c = await weights('r2');
    expect(a.bin.length).toBeGreaterThan(1000);
    expect(a.bin.equals(b.bin)).toBe(true);
    expect(a.curve).toEqual(b.curve);
    expect(a.bin.equals(c.bin)).toBe(false);
    // --bootstrap-games 0: iteration 0 is the untrained network, labelled so, with no loss
    const dir = join(mkdtempSync(join(tmpdir(), 'eagles-run-')), 'run');
    const run = new TrainingRun(dir);
    await run.start({ ...opts, bootstrapGames: 0, seed: 'r1' }, false, 'test');
    await run.loop();
    const m0 = readMetrics(dir)[0]!;
    expect(m0.source).toBe('untrained');
    expect(Number.isFinite(m0.policyLoss)).toBe(false); // NaN in memory, null in metrics.jsonl
    expect(m0.bootstrapCurve).toBeUndefined();
  }, 120_000);
});

describe('value-check', () => {
  it('scores a judge by its squared error against the result, on held-out scripted games, repeatably', () => {
    const { game, scenario } = loadScenario('march-of-eagles', 'farm-on-the-ridge');
    const same = valueCheck(game, scenario, (s) => game.evaluate(s, 0), 6, 'vc');
    expect(same.positions).toBeGreaterThan(0);
    expect(same.mseNet).toBe(same.mseEval);
    const zero = valueCheck(game, scenario, () => 0, 6, 'vc');
    expect(zero.positions).toBe(same.positions);
    expect(zero.mseNet).toBe(zero.mseZero);
    expect(zero.mseZero).toBeGreaterThan(0);
    expect(zero.mseZero).toBeLessThanOrEqual(1);
    const wrong = valueCheck(game, scenario, (s) => -game.evaluate(s, 0), 6, 'vc');
    expect(wrong.mseNet).toBeGreaterThan(wrong.mseEval);
  });
});
