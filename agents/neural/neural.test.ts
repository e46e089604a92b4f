import { mkdtempSync, writeFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import seedrandom from 'seedrandom';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Encoding, fixedMask, layout } from '../../engine/core/encoding.ts';
import type { Game } from '../../engine/core/game.ts';
import { ticTacToe, type TttState } from '../../engine/reference/tictactoe.ts';
import { diceChoice, hiddenGuess, type DiceState, type GuessState } from '../../test/reference/toys.ts';
import { type LoadedTf, loadTf } from './backend.ts';
import { NetBatcher, PortEvaluator, type NetEvaluator, type NetRequest } from './evaluator.ts';
import { ModelFileError, buildModel, forward, loadModel, saveModel, type NetShape } from './model.ts';
import { DEFAULT_PUCT, PuctSearch, dirichlet, pickByVisits } from './puct.ts';
import { ValueHead, networkLeafValue } from './agent.ts';
import { createAgent } from '../registry.ts';
import { AgentSpecError } from '../agent.ts';
import { loadScenario } from '../../arena/catalog.ts';
import { runMatch } from '../../arena/match.ts';

/** A network stand-in: uniform priors, value 0, and a log of what it was asked. */
class UniformNet implements NetEvaluator {
  readonly seen: NetRequest[] = [];
  async evaluate(req: NetRequest) {
    this.seen.push(req);
    return { value: 0, priors: new Float32Array(req.k).fill(1 / req.k) };
  }
}

const ttt = (cells: string): TttState => {
  const c = [...cells].map((x) => (x === 'X' ? 1 : x === 'O' ? 2 : 0));
  const xs = c.filter((x) => x === 1).length;
  const os = c.filter((x) => x === 2).length;
  return { cells: c, toMove: xs > os ? 1 : 0, winner: null };
};

const one = layout([{ name: 'x', size: 2, doc: 'test' }]);
const diceEnc: Encoding<DiceState, string> = {
  id: 'dice/v1',
  version: 1,
  stateSize: 2,
  actionSize: 2,
  stateLayout: one.blocks,
  actionLayout: one.blocks,
  encodeState: (s, _p, out, at = 0) => void (out[at] = s.pick ? 1 : 0),
  encodeActions: (_s, _p, acts, out, at = 0) => acts.forEach((a, j) => (out[at + j * 2 + (a === 'safe' ? 0 : 1)] = 1)),
};
/** Encodes the coin when the state it is given shows it: the search must only ever give it an observation. */
const guessEnc: Encoding<GuessState, string> = {
  id: 'guess/v1',
  version: 1,
  stateSize: 2,
  actionSize: 2,
  stateLayout: one.blocks,
  actionLayout: one.blocks,
  encodeState: (s, _p, out, at = 0) => {
    out[at] = s.coin === 'L' ? 1 : 0;
    out[at + 1] = s.coin === 'R' ? 1 : 0;
  },
  encodeActions: (_s, _p, acts, out, at = 0) =>
    acts.forEach((a, j) => (out[at + j * 2 + (a.endsWith('L') ? 0 : 1)] = 1)),
};

describe('PUCT search', () => {
  it('finds the immediate win and the only block in tic-tac-toe with an uninformed network', async () => {
    const win = await new PuctSearch(ticTacToe, new UniformNet(), { ...DEFAULT_PUCT, sims: 400 }, seedrandom('a')).run(
      ttt('XX.OO....'),
    );
    expect(win.keys[pickByVisits(win.visits, 0, Math.random)]).toBe('c2');
    const block = await new PuctSearch(
      ticTacToe,
      new UniformNet(),
      { ...DEFAULT_PUCT, sims: 800 },
      seedrandom('b'),
    ).run(ttt('OO.X.....'));
    expect(block.keys[pickByVisits(block.visits, 0, Math.random)]).toBe('c2');
  });
  it('prefers the higher-expectation action at a dice node', async () => {
    const g = { ...diceChoice, encoding: diceEnc } as Game<DiceState, string>;
    const r = await new PuctSearch(g, new UniformNet(), { ...DEFAULT_PUCT, sims: 300 }, seedrandom('c')).run(
      g.initialState({ id: 'standard' }),
    );
    const safe = r.keys.indexOf('safe');
    expect(r.visits[safe]).toBeGreaterThan(r.visits[1 - safe]!);
    expect(r.q[safe]!).toBeGreaterThan(r.q[1 - safe]!);
  });
  it('never shows the network the hidden choice', async () => {
    const g = { ...hiddenGuess, encoding: guessEnc } as Game<GuessState, string>;
    for (const coin of ['L', 'R'] as const) {
      const net = new UniformNet();
      await new PuctSearch(g, net, { ...DEFAULT_PUCT, sims: 50 }, seedrandom('d')).run({ coin, guess: '' });
      expect(net.seen.length).toBeGreaterThan(0);
      for (const q of net.seen) expect(Array.from(q.state)).toEqual([0, 0]);
    }
  });
  it('is deterministic for a seed and spends exactly its simulations', async () => {
    const run = async () =>
      new PuctSearch(ticTacToe, new UniformNet(), { ...DEFAULT_PUCT, sims: 120, noiseFrac: 0.25 }, seedrandom('e')).run(
        ttt('X...O....'),
      );
    const [a, b] = [await run(), await run()];
    expect(a.visits).toEqual(b.visits);
    expect(a.visits.reduce((x, y) => x + y, 0)).toBe(120);
  });
  it('draws Dirichlet noise that sums to one', () => {
    const d = dirichlet(0.3, 7, seedrandom('f'));
    expect(d.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(d.every((x) => x >= 0)).toBe(true);
  });
});

describe('encodings', () => {
  it('tic-tac-toe exposes a masked fixed-index view', () => {
    const s = ttt('X...O....');
    const { mask, actions } = fixedMask(ticTacToe.encoding!, s, ticTacToe.legalActions(s));
    expect(Array.from(mask)).toEqual([0, 1, 1, 1, 0, 1, 1, 1, 1]);
    expect(actions[5]).toBe(5);
  });
  it('layouts add up to the declared sizes', () => {
    const e = ticTacToe.encoding!;
    expect(e.stateLayout.reduce((a, b) => a + b.size, 0)).toBe(e.stateSize);
    expect(e.actionLayout.reduce((a, b) => a + b.size, 0)).toBe(e.actionSize);
  });
});

describe('network, batching and model files', () => {
  let tfl: LoadedTf;
  const shape: NetShape = { stateSize: 19, actionSize: 9, hidden: 16, actHidden: 8 };
  beforeAll(async () => {
    tfl = await loadTf();
  });

  it('names the backend it chose', () => {
    expect(['tensorflow', 'wasm', 'cpu']).toContain(tfl.backend);
    expect(tfl.tf.getBackend()).toBe(tfl.backend);
  });

  it('gives masked priors that sum to one and zero on padding', () => {
    const m = buildModel(tfl.tf, shape);
    const u = seedrandom('g');
    const b = {
      n: 2,
      k: 3,
      state: Float32Array.from({ length: 38 }, u),
      actions: Float32Array.from({ length: 54 }, u),
      mask: Float32Array.from([1, 1, 1, 1, 1, 0]),
    };
    const { priors, values } = forward(tfl.tf, m, shape, b);
    expect(priors[0]! + priors[1]! + priors[2]!).toBeCloseTo(1, 5);
    expect(priors[3]! + priors[4]!).toBeCloseTo(1, 5);
    expect(priors[5]).toBe(0);
    for (const v of values) expect(Math.abs(v)).toBeLessThanOrEqual(1);
  });

  it('batches concurrent requests into one pass with the same answers as one by one, also across a port', async () => {
    const m = buildModel(tfl.tf, shape);
    const enc = ticTacToe.encoding!;
    const reqs = ['X...O....', 'XO.......', '.........'].map((c) => {
      const s = ttt(c);
      const legal = ticTacToe.legalActions(s);
      const st = new Float32Array(enc.stateSize);
      enc.encodeState(s, s.toMove, st);
      const a = new Float32Array(legal.length * enc.actionSize);
      enc.encodeActions(s, s.toMove, legal, a);
      return { state: st, actions: a, k: legal.length };
    });
    const batched = new NetBatcher(tfl.tf, m, shape);
    const together = await Promise.all(reqs.map((r) => batched.evaluate(r)));
    expect(batched.stats.batches).toBe(1);
    const single = new NetBatcher(tfl.tf, m, shape);
    for (let i = 0; i < reqs.length; i++) {
      const r = await single.evaluate(reqs[i]!);
      expect(r.value).toBeCloseTo(together[i]!.value, 5);
      Array.from(r.priors).forEach((p, j) => expect(p).toBeCloseTo(together[i]!.priors[j]!, 5));
    }
    const ch = new MessageChannel();
    batched.serve(ch.port1);
    const remote = new PortEvaluator(ch.port2);
    const r = await remote.evaluate(reqs[0]!);
    expect(r.value).toBeCloseTo(together[0]!.value, 5);
    remote.close();
    ch.port1.close();
    expect(() => batched.evaluate({ state: new Float32Array(3), actions: new Float32Array(0), k: 0 })).toThrow(
      /state has 3 features/,
    );
  });

  it('computes the value head in plain arrays exactly as the tfjs model does', () => {
    const m = buildModel(tfl.tf, shape);
    const u = seedrandom('vh');
    // random biases too (they start at zero), so a dropped bias or activation shows
    for (const name of ['trunk1', 'trunk2', 'value_hidden', 'value']) {
      const l = m.getLayer(name);
      const [k, b] = l.getWeights();
      l.setWeights([k!, tfl.tf.tensor1d(Float32Array.from({ length: b!.shape[0]! }, () => u() - 0.5))]);
    }
    const head = new ValueHead(m);
    for (let t = 0; t < 20; t++) {
      const state = Float32Array.from({ length: shape.stateSize }, () => (u() < 0.5 ? 0 : u() * 2 - 1));
      const { values } = forward(tfl.tf, m, shape, {
        n: 1,
        k: 1,
        state,
        actions: new Float32Array(shape.actionSize),
        mask: Float32Array.from([1]),
      });
      expect(head.value(state)).toBeCloseTo(values[0]!, 5);
    }
    // as an MCTS leaf value: encoded from the mover's view, turned round for player 1
    const enc = ticTacToe.encoding!;
    const leaf = networkLeafValue(head, ticTacToe, enc);
    const s = ttt('X........');
    const x = new Float32Array(enc.stateSize);
    enc.encodeState(s, 1, x);
    expect(leaf(s)).toBeCloseTo(-head.value(x), 9);
  });

  it('plays mode=mcts with the network valuing the cut rollouts, and refuses parameters that do not apply', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eagles-mctsnet-'));
    await saveModel(tfl.tf, buildModel(tfl.tf, shape), dir, {
      format: 'eagles-model',
      version: 1,
      ruleset: 'tic-tac-toe',
      scenario: 'standard',
      encoding: 'tic-tac-toe/v1',
      shape,
      iteration: 0,
    });
    const agent = createAgent(`neural:model=${dir},mode=mcts,depth=1,quiet=0`);
    const s = ttt('XX.OO....');
    const d = await agent.decide({
      game: ticTacToe,
      player: 0,
      observation: s,
      legal: ticTacToe.legalActions(s),
      state: s,
      budget: { iterations: 300 },
      rng: seedrandom.alea('m'),
    });
    expect(ticTacToe.actionKey(d.action)).toBe('c2'); // the immediate win
    expect(d.explanation?.text).toMatch(/iterations in .*rollouts valued by the network/);
    expect(() => createAgent(`neural:model=${dir},mode=policy,ms=100`)).toThrow(/ms only applies with mode=mcts/);
    expect(() => createAgent(`neural:model=${dir},mode=mcts,sims=5`)).toThrow(AgentSpecError);
    expect(() => createAgent(`neural:model=${dir},mode=tree`)).toThrow(/policy, puct or mcts/);
    const mixed = await createAgent(`neural:model=${dir},mode=mcts,mix=0.5,depth=1,quiet=0`).decide({
      game: ticTacToe,
      player: 0,
      observation: s,
      legal: ticTacToe.legalActions(s),
      state: s,
      budget: { iterations: 300 },
      rng: seedrandom.alea('m'),
    });
    expect(ticTacToe.actionKey(mixed.action)).toBe('c2');
    expect(mixed.explanation?.text).toMatch(/leaves valued 0.5 network, 0.5 rollout/);
    expect(() => createAgent(`neural:model=${dir},mode=puct,mix=0.5`)).toThrow(/mix only applies with mode=mcts/);
    expect(() => createAgent(`neural:model=${dir},mode=mcts,mix=2`)).toThrow(/mix=2 must be a number in \[0, 1\]/);
  });

  it('saves with model.save and loads back the same function; refuses a broken model folder by name', async () => {
    const m = buildModel(tfl.tf, shape);
    const dir = mkdtempSync(join(tmpdir(), 'eagles-model-'));
    await saveModel(tfl.tf, m, dir, {
      format: 'eagles-model',
      version: 1,
      ruleset: 'tic-tac-toe',
      scenario: 'standard',
      encoding: 'tic-tac-toe/v1',
      shape,
      iteration: 3,
    });
    const { model, meta } = await loadModel(tfl.tf, dir);
    expect(meta.iteration).toBe(3);
    const b = {
      n: 1,
      k: 2,
      state: new Float32Array(19).fill(0.5),
      actions: new Float32Array(18).fill(0.25),
      mask: Float32Array.from([1, 1]),
    };
    expect(Array.from(forward(tfl.tf, model, shape, b).priors)).toEqual(
      Array.from(forward(tfl.tf, m, shape, b).priors),
    );
    const bad = mkdtempSync(join(tmpdir(), 'eagles-bad-'));
    await expect(loadModel(tfl.tf, bad)).rejects.toThrow(ModelFileError);
    mkdirSync(join(bad, 'x'));
    writeFileSync(join(bad, 'x', 'model.json'), '{not json');
    await expect(loadModel(tfl.tf, join(bad, 'x'))).rejects.toThrow(/not valid JSON/);
  });
});

describe('shipped models (data/models)', () => {
  const root = join(import.meta.dirname, '..', '..', 'data', 'models');
  const shipped = readdirSync(root).flatMap((ruleset) =>
    readdirSync(join(root, ruleset)).map((name) => `${ruleset}/${name}`),
  );
  it('are there', () => {
    expect(shipped).toEqual(
      expect.arrayContaining([
        'march-of-eagles/farm-on-the-ridge-bootstrap',
        'march-of-eagles/farm-on-the-ridge-selfplay',
      ]),
    );
  });
  it.each(shipped)(
    '%s loads by name, matches its ruleset encoding, records its command and plays a whole game',
    async (name) => {
      const meta = JSON.parse(readFileSync(join(root, name, 'model.json'), 'utf8')).userDefinedMetadata.eagles;
      const { game, scenario, id } = loadScenario(meta.ruleset, meta.scenario);
      expect(meta.encoding).toBe(game.encoding!.id);
      expect(meta.command).toMatch(/^eagles train /);
      // the README documents the command that made it: every word of it (the README may break the line)
      const readme = readFileSync(join(root, name, 'README.md'), 'utf8');
      for (const word of meta.command.replace(/^eagles /, '').split(' '))
        expect(readme, `README of ${name} lacks "${word}"`).toContain(word);
      const res = await runMatch({
        game,
        scenario,
        scenarioId: id,
        seed: 'shipped',
        agents: [createAgent(`neural:model=${name}`), createAgent('random')],
      });
      expect(res.aborted).toBeUndefined();
      expect(game.toMove(res.finalState).kind).toBe('terminal');
    },
    60_000,
  );
});
