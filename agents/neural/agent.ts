/**
 * The `neural` agent: a trained policy/value network, played directly (`mode=policy`: the network's most likely
 * action), as the guide of a PUCT search (`mode=puct`, `sims` simulations per decision), or as the judge of an MCTS
 * (`mode=mcts`): the `mcts` agent's search and scripted-player rollouts, with each rollout cut at `depth` (and played
 * on to a quiet position) valued by the network's value head instead of the ruleset's fitted evaluation, the way
 * AlphaGo's first version judged its rollouts; or, with `mix=λ`, each tree leaf valued λ·network + (1 − λ)·rollout as
 * AlphaGo mixed them (the rollout's cut then valued by the ruleset's evaluation). Models are tfjs layers models saved by the trainer (`model.json` +
 * `weights.bin`); the model's ruleset and encoding must match the game.
 */
import { hasHiddenInformation } from '../../engine/core/views.ts';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Agent, Decision, DecisionContext } from '../agent.ts';
import { AgentSpecError } from '../agent.ts';
import { loadTf } from './backend.ts';
import type { LayersModel } from '@tensorflow/tfjs';
import { NetBatcher } from './evaluator.ts';
import { loadModel, readModelMeta, type ModelMeta } from './model.ts';
import { MctsAgent, type LeafValue, type MctsConfig } from '../mcts.ts';
import type { Encoding } from '../../engine/core/encoding.ts';
import type { AnyGame } from '../../engine/core/game.ts';
import { DEFAULT_PUCT, PuctSearch, encodeRequest, pickByVisits } from './puct.ts';

const DATA_MODELS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'models');

/** A model directory: as given, else under data/models/. */
export function resolveModelDir(p: string): string {
  if (existsSync(join(p, 'model.json'))) return resolve(p);
  const alt = join(DATA_MODELS, p);
  if (existsSync(join(alt, 'model.json'))) return alt;
  throw new AgentSpecError(`no model at "${p}" (looked for ${join(p, 'model.json')} and ${join(alt, 'model.json')})`);
}

const cache = new Map<string, Promise<{ batcher: NetBatcher; meta: ModelMeta }>>();

/** Load (once per thread) a model and a batcher for it. */
function loadNet(dir: string): Promise<{ batcher: NetBatcher; meta: ModelMeta }> {
  let p = cache.get(dir);
  if (!p) {
    p = (async () => {
      const { tf } = await loadTf();
      const { model, meta } = await loadModel(tf, dir);
      return { batcher: new NetBatcher(tf, model, meta.shape), meta };
    })();
    cache.set(dir, p);
  }
  return p;
}

export interface NeuralOptions {
  readonly model: string;
  readonly mode: 'policy' | 'puct' | 'mcts';
  /** The search settings for `mode=mcts`. */
  readonly mcts?: MctsConfig;
  /**
   * `mode=mcts` only: the network's weight λ in AlphaGo's mix. Each tree leaf is worth λ·(the network's value of the
   * leaf) + (1 − λ)·(the rollout's result, its cut valued by the ruleset's evaluation). Unset: the network values the
   * rollout's cut instead of the evaluation.
   */
  readonly mix?: number;
  readonly sims: number;
  readonly c: number;
  /** Sampling temperature (0: best action). */
  readonly temp: number;
}

/**
 * The network's value path (trunk → value head) copied out of the tfjs model into plain arrays, for one position at a
 * time: the search calls it once per rollout, where a tfjs call's fixed cost (tensors, kernel dispatch) is many times
 * the arithmetic. Zero inputs are skipped in the first layer (the encoding is mostly zeros).
 */
export class ValueHead {
  private readonly layers: { w: Float32Array; b: Float32Array; nIn: number; nOut: number }[];
  private readonly bufs: Float32Array[];
  constructor(model: LayersModel) {
    this.layers = ['trunk1', 'trunk2', 'value_hidden', 'value'].map((name) => {
      const [k, b] = model.getLayer(name).getWeights();
      if (!k || !b || k.shape.length !== 2)
        throw new Error(`model has no dense layer "${name}" with a kernel and bias`);
      return { w: k.dataSync() as Float32Array, b: b.dataSync() as Float32Array, nIn: k.shape[0]!, nOut: k.shape[1]! };
    });
    this.bufs = this.layers.map((l) => new Float32Array(l.nOut));
  }

  get inputSize(): number {
    return this.layers[0]!.nIn;
  }

  /** tanh(value(relu(value_hidden(relu(trunk2(relu(trunk1(x)))))))), as the model computes it. */
  value(x: Float32Array): number {
    let inp = x;
    for (let li = 0; li < this.layers.length; li++) {
      const { w, b, nIn, nOut } = this.layers[li]!;
      const out = this.bufs[li]!;
      out.set(b);
      for (let i = 0; i < nIn; i++) {
        const xi = inp[i]!;
        if (xi === 0) continue;
        const row = i * nOut;
        for (let j = 0; j < nOut; j++) out[j]! += xi * w[row + j]!;
      }
      if (li < this.layers.length - 1) for (let j = 0; j < nOut; j++) if (out[j]! < 0) out[j] = 0;
      inp = out;
    }
    return Math.tanh(inp[0]!);
  }
}

/**
 * The network's value as an MCTS leaf value for player 0: the position is encoded from the view of the player to
 * move (player 0 at a chance node), as in training: under hidden information from what that player observes of it
 * (`game.observe`), never from the state itself; the value is turned round for player 1.
 */
export function networkLeafValue(head: ValueHead, game: AnyGame, enc: Encoding<unknown, unknown>): LeafValue {
  if (head.inputSize !== enc.stateSize)
    throw new Error(`the network takes ${head.inputSize} state features; ${enc.id} has ${enc.stateSize}`);
  const state = new Float32Array(enc.stateSize);
  const hidden = hasHiddenInformation(game);
  return (s) => {
    const tm = game.toMove(s);
    const player = tm.kind === 'player' ? tm.player : 0;
    state.fill(0);
    enc.encodeState(hidden ? game.observe(s, player) : s, player, state, 0);
    const v = head.value(state);
    return player === 0 ? v : -v;
  };
}

export class NeuralAgent implements Agent {
  readonly dir: string;
  readonly meta: ModelMeta;
  private searcher: { agent: MctsAgent; game: AnyGame } | null = null;
  constructor(
    readonly spec: string,
    readonly opts: NeuralOptions,
  ) {
    this.dir = resolveModelDir(opts.model);
    try {
      this.meta = readModelMeta(this.dir);
    } catch (e) {
      throw new AgentSpecError(`agent spec "${spec}": ${(e as Error).message}`);
    }
  }

  reset(): void {
    this.searcher?.agent.reset();
  }

  async decide(ctx: DecisionContext): Promise<Decision> {
    const { game, legal, rng } = ctx;
    if (game.id !== this.meta.ruleset)
      throw new Error(`model ${this.dir} was trained for ${this.meta.ruleset}, not ${game.id}`);
    if (!game.encoding) throw new Error(`ruleset ${game.id} has no observation encoding`);
    if (game.encoding.id !== this.meta.encoding)
      throw new Error(
        `model ${this.dir} uses encoding ${this.meta.encoding}; this build encodes ${game.encoding.id} (retrain or use a matching build)`,
      );
    const { batcher } = await loadNet(this.dir);
    const state = ctx.state;
    if (this.opts.mode === 'mcts') {
      if (!this.opts.mcts) throw new Error(`agent spec "${this.spec}": mode=mcts without search settings`);
      if (!this.searcher || this.searcher.game !== game) {
        const net = networkLeafValue(new ValueHead(batcher.model), game, game.encoding);
        const agent =
          this.opts.mix === undefined
            ? new MctsAgent(this.spec, this.opts.mcts, net)
            : new MctsAgent(this.spec, this.opts.mcts, undefined, { value: net, weight: this.opts.mix });
        this.searcher = { agent, game };
      }
      const d = await this.searcher.agent.decide(ctx);
      const how =
        this.opts.mix === undefined
          ? 'rollouts valued by the network'
          : `leaves valued ${this.opts.mix} network, ${1 - this.opts.mix} rollout`;
      return d.explanation ? { ...d, explanation: { ...d.explanation, text: `${d.explanation.text}; ${how}` } } : d;
    }
    if (this.opts.mode === 'policy') {
      const r = await batcher.evaluate(
        encodeRequest(game.encoding, hasHiddenInformation(game) ? ctx.observation : state, ctx.player, legal),
      );
      const pri = Array.from(r.priors);
      const i = this.opts.temp > 0 ? pickByVisits(pri, this.opts.temp, rng) : pickByVisits(pri, 0, rng);
      const ranked = pri
        .map((p, j) => ({ p, j }))
        .sort((a, b) => b.p - a.p)
        .slice(0, 5);
      return {
        action: legal[i],
        explanation: {
          chosen: game.actionKey(legal[i]),
          winProbability: (r.value + 1) / 2,
          alternatives: ranked.map((x) => ({
            action: game.actionKey(legal[x.j]),
            note: `policy ${(x.p * 100).toFixed(1)}%`,
          })),
          text: `network policy ${(pri[i]! * 100).toFixed(1)}%, value ${r.value.toFixed(2)}`,
        },
      };
    }
    const search = new PuctSearch(game, batcher, { ...DEFAULT_PUCT, sims: this.opts.sims, cPuct: this.opts.c }, rng);
    const res = await search.run(state);
    const i = pickByVisits(res.visits, this.opts.temp, rng, res.priors);
    const ranked = res.visits
      .map((v, j) => ({ v, j }))
      .sort((a, b) => b.v - a.v)
      .slice(0, 5);
    const q = Number.isFinite(res.q[i]!) ? res.q[i]! : res.rootValue;
    return {
      action: res.actions[i],
      explanation: {
        chosen: res.keys[i]!,
        winProbability: (q + 1) / 2,
        alternatives: ranked.map((x) => ({
          action: res.keys[x.j]!,
          visits: x.v,
          value: Number.isFinite(res.q[x.j]!) ? (res.q[x.j]! + 1) / 2 : undefined,
          note: `prior ${(res.priors[x.j]! * 100).toFixed(1)}%`,
        })),
        text: `PUCT ${res.sims} simulations; network value ${res.rootValue.toFixed(2)}`,
      },
      stats: { sims: res.sims },
    };
  }
}
