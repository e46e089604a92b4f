/**
 * The `neural` agent: a trained policy/value network, played directly (`mode=policy`: the network's most likely
 * action) or as the guide of a PUCT search (`mode=puct`, `sims` simulations per decision). Models are tfjs layers
 * models saved by the trainer (`model.json` + `weights.bin`); the model's ruleset and encoding must match the game.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Agent, Decision, DecisionContext } from '../agent.ts';
import { AgentSpecError } from '../agent.ts';
import { loadTf } from './backend.ts';
import { NetBatcher } from './evaluator.ts';
import { loadModel, readModelMeta, type ModelMeta } from './model.ts';
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
export function loadNet(dir: string): Promise<{ batcher: NetBatcher; meta: ModelMeta }> {
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
  readonly mode: 'policy' | 'puct';
  readonly sims: number;
  readonly c: number;
  /** Sampling temperature (0: best action). */
  readonly temp: number;
}

export class NeuralAgent implements Agent {
  readonly dir: string;
  readonly meta: ModelMeta;
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

  async decide(ctx: DecisionContext): Promise<Decision> {
    const { game, legal, rng } = ctx;
    if (game.id !== this.meta.ruleset) throw new Error(`model ${this.dir} was trained for ${this.meta.ruleset}, not ${game.id}`);
    if (!game.encoding) throw new Error(`ruleset ${game.id} has no observation encoding`);
    if (game.encoding.id !== this.meta.encoding)
      throw new Error(`model ${this.dir} uses encoding ${this.meta.encoding}; this build encodes ${game.encoding.id} (retrain or use a matching build)`);
    const { batcher } = await loadNet(this.dir);
    const state = ctx.state;
    if (this.opts.mode === 'policy') {
      const r = await batcher.evaluate(encodeRequest(game.encoding, game.hiddenInformation ? ctx.observation : state, ctx.player, legal));
      const pri = Array.from(r.priors);
      const i = this.opts.temp > 0 ? pickByVisits(pri, this.opts.temp, rng) : pickByVisits(pri, 0, rng);
      const ranked = pri.map((p, j) => ({ p, j })).sort((a, b) => b.p - a.p).slice(0, 5);
      return {
        action: legal[i],
        explanation: {
          chosen: game.actionKey(legal[i]),
          winProbability: (r.value + 1) / 2,
          alternatives: ranked.map((x) => ({ action: game.actionKey(legal[x.j]), note: `policy ${(x.p * 100).toFixed(1)}%` })),
          text: `network policy ${(pri[i]! * 100).toFixed(1)}%, value ${r.value.toFixed(2)}`,
        },
      };
    }
    const search = new PuctSearch(game, batcher, { ...DEFAULT_PUCT, sims: this.opts.sims, cPuct: this.opts.c }, rng);
    const res = await search.run(state);
    const i = pickByVisits(res.visits, this.opts.temp, rng, res.priors);
    const ranked = res.visits.map((v, j) => ({ v, j })).sort((a, b) => b.v - a.v).slice(0, 5);
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
