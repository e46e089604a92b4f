/**
 * PUCT search guided by a policy/value network (AlphaZero style) over the engine's `Game` interface, with the
 * engine's explicit chance nodes: each simulation samples a chance outcome from its exact distribution with the
 * search's own RNG. Forced moves (one legal action) and single-outcome chance events are passed through without a
 * node or a network call. Dirichlet noise at the root and visit-count temperature are for self-play.
 *
 * Hidden information: when the game declares it, every simulation starts from a determinization
 * `game.sampleState(root, player, rng)` and the network only ever sees what the player to move observes.
 */
import { hasHiddenInformation } from '../../engine/core/views.ts';
import type { Encoding } from '../../engine/core/encoding.ts';
import type { Game } from '../../engine/core/game.ts';
import type { NetEvaluator, NetRequest } from './evaluator.ts';

export interface PuctConfig {
  readonly sims: number;
  readonly cPuct: number;
  /** Dirichlet α and weight of root noise (0 weight: none). */
  readonly dirichletAlpha: number;
  readonly noiseFrac: number;
  /** First-play urgency: an unvisited child is valued at its parent's value minus this. */
  readonly fpu: number;
}

export const DEFAULT_PUCT: PuctConfig = { sims: 64, cPuct: 1.5, dirichletAlpha: 0.3, noiseFrac: 0, fpu: 0.2 };

interface DNode {
  readonly kind: 'd';
  readonly player: number;
  /** The legal actions at expansion (perfect information: the same at every visit). */
  readonly actions: readonly unknown[];
  readonly keys: string[];
  readonly priors: Float32Array;
  readonly n: number[];
  /** Sum of values from `player`'s view. */
  readonly w: number[];
  readonly kids: (Node | undefined)[];
  visits: number;
  /** The network's value for `player` at expansion. */
  readonly v0: number;
}
interface CNode {
  readonly kind: 'c';
  readonly kids: Map<string, Node>;
}
type Node = DNode | CNode;

/** Encode `s` and its legal actions from `player`'s view as one network request. */
export function encodeRequest<S, A>(enc: Encoding<S, A>, s: S, player: number, actions: readonly A[]): NetRequest {
  const state = new Float32Array(enc.stateSize);
  enc.encodeState(s, player, state, 0);
  const acts = new Float32Array(actions.length * enc.actionSize);
  enc.encodeActions(s, player, actions, acts, 0);
  return { state, actions: acts, k: actions.length };
}

function gamma(a: number, u: () => number): number {
  if (a < 1) return gamma(a + 1, u) * Math.pow(Math.max(u(), 1e-12), 1 / a);
  const d = a - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      const u1 = Math.max(u(), 1e-12);
      const u2 = u();
      x = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const uu = Math.max(u(), 1e-12);
    if (Math.log(uu) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

export function dirichlet(alpha: number, k: number, u: () => number): number[] {
  const g = Array.from({ length: k }, () => gamma(alpha, u));
  const s = g.reduce((a, b) => a + b, 0) || 1;
  return g.map((x) => x / s);
}

export interface PuctResult<A> {
  readonly actions: readonly A[];
  readonly keys: readonly string[];
  /** Visits per root action (aligned with `actions`). */
  readonly visits: readonly number[];
  readonly priors: readonly number[];
  /** Mean value per root action, for the player to move. */
  readonly q: readonly number[];
  /** The network's value of the root for the player to move. */
  readonly rootValue: number;
  readonly sims: number;
}

export class PuctSearch<S, A> {
  readonly enc: Encoding<S, A>;
  constructor(
    readonly game: Game<S, A>,
    readonly net: NetEvaluator,
    readonly cfg: PuctConfig,
    private readonly rng: () => number,
  ) {
    if (!game.encoding)
      throw new Error(`ruleset ${game.id} has no observation encoding (Game.encoding); the neural agent needs one`);
    if (game.players.length !== 2) throw new Error('puct: only two-player games are supported');
    this.enc = game.encoding;
  }

  private async expand(s: S, player: number, actions: readonly A[]): Promise<DNode> {
    const g = this.game;
    const view = hasHiddenInformation(g) ? (g.observe(s, player) as S) : s;
    const r = await this.net.evaluate(encodeRequest(this.enc, view, player, actions));
    const k = actions.length;
    return {
      kind: 'd',
      player,
      actions,
      keys: actions.map((a) => g.actionKey(a)),
      priors: r.priors,
      n: new Array(k).fill(0),
      w: new Array(k).fill(0),
      kids: new Array(k),
      visits: 0,
      v0: r.value,
    };
  }

  /** Follow forced moves and single-outcome dice; returns the first real decision, chance or terminal state. */
  private forward(s: S): S {
    const g = this.game;
    for (;;) {
      const tm = g.toMove(s);
      if (tm.kind === 'terminal') return s;
      if (tm.kind === 'chance') {
        const o = g.chanceOutcomes(s);
        if (o.length !== 1) return s;
        s = g.applyUnchecked(s, o[0]!.action);
        continue;
      }
      const legal = g.legalActions(s);
      if (legal.length !== 1) return s;
      s = g.applyUnchecked(s, legal[0]!);
    }
  }

  private sample(s: S): { action: A; key: string } {
    const o = this.game.chanceOutcomes(s);
    let x = this.rng();
    for (const c of o) {
      x -= c.p;
      if (x < 0) return { action: c.action, key: this.game.actionKey(c.action) };
    }
    const last = o[o.length - 1]!;
    return { action: last.action, key: this.game.actionKey(last.action) };
  }

  /** One simulation from `s` (already forwarded) into `node`; returns the value for player 0. */
  private async simulate(s: S, node: Node | undefined, setKid: (n: Node) => void): Promise<number> {
    const g = this.game;
    const tm = g.toMove(s);
    if (tm.kind === 'terminal') return g.returns(s)[0]!;
    if (tm.kind === 'chance') {
      let c = node as CNode | undefined;
      if (!c) {
        c = { kind: 'c', kids: new Map() };
        setKid(c);
      }
      const { action, key } = this.sample(s);
      const next = this.forward(g.applyUnchecked(s, action));
      const cc = c;
      return this.simulate(next, cc.kids.get(key), (n) => cc.kids.set(key, n));
    }
    if (!node) {
      const d = await this.expand(s, tm.player, g.legalActions(s));
      setKid(d);
      return tm.player === 0 ? d.v0 : -d.v0;
    }
    const d = node as DNode;
    // perfect information: the node's state, hence its legal actions, is the same at every visit
    const actions = hasHiddenInformation(g) ? g.legalActions(s) : (d.actions as readonly A[]);
    const { ni, ai } = this.select(d, actions);
    if (ni < 0) {
      // determinization left none of this node's actions legal: value it as it stands
      const m = d.visits ? d.w.reduce((a, b) => a + b, 0) / d.visits : d.v0;
      return d.player === 0 ? m : -m;
    }
    const next = this.forward(g.applyUnchecked(s, actions[ai]!));
    const v0 = await this.simulate(next, d.kids[ni], (n) => (d.kids[ni] = n));
    const v = d.player === 0 ? v0 : -v0;
    d.n[ni]!++;
    d.w[ni]! += v;
    d.visits++;
    return v0;
  }

  /**
   * PUCT choice at `d` among `actions` (the actions legal in this simulation's state). Returns the node's child
   * index and the action's index; under determinization only keys legal now are considered (-1: none is).
   */
  private select(d: DNode, actions: readonly A[]): { ni: number; ai: number } {
    const hidden = hasHiddenInformation(this.game);
    const legalKeys = hidden ? new Set(actions.map((a) => this.game.actionKey(a))) : null;
    const sq = Math.sqrt(d.visits + 1);
    let wsum = 0;
    for (const x of d.w) wsum += x;
    const parentQ = d.visits ? wsum / d.visits : d.v0;
    let best = -1;
    let bv = -Infinity;
    for (let i = 0; i < d.keys.length; i++) {
      if (legalKeys && !legalKeys.has(d.keys[i]!)) continue;
      const q = d.n[i] ? d.w[i]! / d.n[i]! : parentQ - this.cfg.fpu;
      const u = q + (this.cfg.cPuct * d.priors[i]! * sq) / (1 + d.n[i]!);
      if (u > bv) {
        bv = u;
        best = i;
      }
    }
    if (!hidden || best < 0) return { ni: best, ai: best };
    const key = d.keys[best]!;
    return { ni: best, ai: actions.findIndex((a) => this.game.actionKey(a) === key) };
  }

  /** Search from `root` (a decision of the player to move with ≥ 1 legal action). */
  async run(root: S, sims = this.cfg.sims): Promise<PuctResult<A>> {
    const g = this.game;
    const tm = g.toMove(root);
    if (tm.kind !== 'player') throw new Error('puct: the root must be a player decision');
    const actions = g.legalActions(root);
    const rootNode = await this.expand(root, tm.player, actions);
    if (this.cfg.noiseFrac > 0 && actions.length > 1) {
      const noise = dirichlet(this.cfg.dirichletAlpha, actions.length, this.rng);
      for (let i = 0; i < actions.length; i++)
        rootNode.priors[i] = (1 - this.cfg.noiseFrac) * rootNode.priors[i]! + this.cfg.noiseFrac * noise[i]!;
    }
    if (actions.length > 1)
      for (let it = 0; it < sims; it++) {
        const s = hasHiddenInformation(g) ? g.sampleState(root, tm.player, this.rng) : root;
        const legal = hasHiddenInformation(g) ? g.legalActions(s) : actions;
        const { ni: ri, ai } = this.select(rootNode, legal);
        if (ri < 0) continue;
        const next = this.forward(g.applyUnchecked(s, legal[ai]!));
        const v0 = await this.simulate(next, rootNode.kids[ri], (n) => (rootNode.kids[ri] = n));
        const v = tm.player === 0 ? v0 : -v0;
        rootNode.n[ri]!++;
        rootNode.w[ri]! += v;
        rootNode.visits++;
      }
    return {
      actions,
      keys: rootNode.keys,
      visits: rootNode.n.slice(),
      priors: Array.from(rootNode.priors),
      q: rootNode.n.map((n, i) => (n ? rootNode.w[i]! / n : NaN)),
      rootValue: rootNode.v0,
      sims: actions.length > 1 ? sims : 0,
    };
  }
}

/** Pick a root action from visit counts: argmax at temperature 0, else ∝ visits^(1/τ). */
export function pickByVisits(
  visits: readonly number[],
  temperature: number,
  u: () => number,
  priors?: readonly number[],
): number {
  if (temperature <= 0 || visits.every((v) => v === 0)) {
    let best = 0;
    for (let i = 1; i < visits.length; i++)
      if (visits[i]! > visits[best]! || (visits[i] === visits[best] && priors && priors[i]! > priors[best]!)) best = i;
    return best;
  }
  const w = visits.map((v) => Math.pow(v, 1 / temperature));
  const tot = w.reduce((a, b) => a + b, 0);
  let x = u() * tot;
  for (let i = 0; i < w.length; i++) {
    x -= w[i]!;
    if (x < 0) return i;
  }
  return w.length - 1;
}
