/**
 * PUCT search guided by a policy/value network (AlphaZero style) over the engine's `Game` interface, with the
 * engine's explicit chance nodes: each simulation samples a chance outcome from its exact distribution with the
 * search's own RNG. Forced moves (one legal action) and single-outcome chance events are passed through without a
 * node or a network call. Dirichlet noise at the root and visit-count temperature are for self-play.
 *
 * Hidden information (a ruleset with `viewAction`/`hidden`), searched the way `agents/mcts.ts` does it:
 * - at the root, when the searcher cannot see everything (`hidden`) or a round of sealed choices is open
 *   (`sealedRound`), every simulation starts from a fresh determinization `game.sampleState(root, player, rng)`;
 *   inside a sealed round it restarts from the round's start, replaying the searcher's own earlier choices by key while
 *   the other players choose by their own trees, so what it thinks they chose never depends on what they chose;
 * - while every step is seen alike by every player, all players share one tree; at the first step some player sees
 *   differently, the simulation splits into one tree per player, each keyed by that player's view of each step (its
 *   `viewAction`, refined by the hash of what it observes after the step, so a reveal is told apart); a player to move
 *   selects, and is expanded, in its own tree only;
 * - the network is only ever given the mover's observation `game.observe(s, mover)`, at the first visit of the
 *   mover's own node, which stands for what the mover knows: a node's priors and value are a function of the mover's
 *   information only. Nodes keep no state (what is reached one way may hold different hidden values at each
 *   simulation): legal actions and terminal payoffs are read from each simulation's state, and a forced move is taken
 *   without a choice or a network call but still steps each tree by its player's view of it.
 * Perfect-information rulesets keep the plain search (one tree, states and legal actions cached by position).
 */
import { hashHex } from '../../engine/core/hash.ts';
import { hasHiddenInformation, observationHash } from '../../engine/core/views.ts';
import type { Encoding } from '../../engine/core/encoding.ts';
import type { ChanceOutcome, Game } from '../../engine/core/game.ts';
import { type Replayed, searchRoot } from '../sealed-restart.ts';
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

/**
 * A node of the hidden-information search: one information set of its tree's owner (or, before the trees split, of
 * every player). Its decision statistics are filled in when the owner first moves from it (`keys` null until then);
 * at the other players' moves it only holds the children, keyed by the owner's view of each step.
 */
interface HNode {
  /** The mover's legal actions at expansion, by key, with the network's priors over them. */
  keys: string[] | null;
  priors: Float32Array | null;
  n: number[];
  /** Sum of values from the mover's view, per action. */
  w: number[];
  visits: number;
  /** The network's value for the mover at expansion. */
  v0: number;
  readonly children: Map<string, HNode>;
}

/** What a PUCT choice reads of a node. */
interface Stats {
  readonly keys: readonly string[];
  readonly priors: Float32Array;
  readonly n: readonly number[];
  readonly w: readonly number[];
  readonly visits: number;
  readonly v0: number;
}

const hnode = (): HNode => ({ keys: null, priors: null, n: [], w: [], visits: 0, v0: 0, children: new Map() });

/** The node under `key` in `m`, made when missing. */
function at(m: Map<string, HNode>, key: string): HNode {
  let c = m.get(key);
  if (!c) {
    c = hnode();
    m.set(key, c);
  }
  return c;
}

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
  /** The network's value of the root for the player to move (of its observation, under hidden information). */
  readonly rootValue: number;
  /** The search's value of the decision for the player to move: its root actions' mean values weighted by visits. */
  readonly value: number;
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

  /** Perfect information: the network's reply at `s` (the state is what the player to move sees). */
  private async expand(s: S, player: number, actions: readonly A[]): Promise<DNode> {
    const g = this.game;
    const r = await this.net.evaluate(encodeRequest(this.enc, s, player, actions));
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
    const i = this.select(d);
    if (i < 0) {
      // no action scores (a broken network reply): value the node as it stands
      const m = d.visits ? d.w.reduce((a, b) => a + b, 0) / d.visits : d.v0;
      return d.player === 0 ? m : -m;
    }
    const next = this.forward(g.applyUnchecked(s, (d.actions as readonly A[])[i]!));
    const v0 = await this.simulate(next, d.kids[i], (n) => (d.kids[i] = n));
    const v = d.player === 0 ? v0 : -v0;
    d.n[i]!++;
    d.w[i]! += v;
    d.visits++;
    return v0;
  }

  /** The PUCT choice among `d`'s actions (indices into `d.keys`; `legal`: only these may be chosen, -1 if none is). */
  private puct(d: Stats, legal?: ReadonlySet<string>): number {
    const sq = Math.sqrt(d.visits + 1);
    let wsum = 0;
    for (const x of d.w) wsum += x;
    const parentQ = d.visits ? wsum / d.visits : d.v0;
    let best = -1;
    let bv = -Infinity;
    for (let i = 0; i < d.keys.length; i++) {
      if (legal && !legal.has(d.keys[i]!)) continue;
      const q = d.n[i] ? d.w[i]! / d.n[i]! : parentQ - this.cfg.fpu;
      const u = q + (this.cfg.cPuct * d.priors[i]! * sq) / (1 + d.n[i]!);
      if (u > bv) {
        bv = u;
        best = i;
      }
    }
    return best;
  }

  /** Perfect information: the PUCT choice at `d` (an index into its cached actions). */
  private select(d: DNode): number {
    return this.puct(d);
  }

  /** Search from `root` (a decision of the player to move with ≥ 1 legal action). */
  async run(root: S, sims = this.cfg.sims): Promise<PuctResult<A>> {
    const g = this.game;
    const tm = g.toMove(root);
    if (tm.kind !== 'player') throw new Error('puct: the root must be a player decision');
    if (hasHiddenInformation(g)) return this.runHidden(root, tm.player, sims);
    const actions = g.legalActions(root);
    const rootNode = await this.expand(root, tm.player, actions);
    if (this.cfg.noiseFrac > 0 && actions.length > 1) {
      const noise = dirichlet(this.cfg.dirichletAlpha, actions.length, this.rng);
      for (let i = 0; i < actions.length; i++)
        rootNode.priors[i] = (1 - this.cfg.noiseFrac) * rootNode.priors[i]! + this.cfg.noiseFrac * noise[i]!;
    }
    if (actions.length > 1)
      for (let it = 0; it < sims; it++) {
        const ri = this.select(rootNode);
        if (ri < 0) continue;
        const next = this.forward(g.applyUnchecked(root, actions[ri]!));
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
      value: searchValue(rootNode.n, rootNode.w, rootNode.v0),
      sims: actions.length > 1 ? sims : 0,
    };
  }

  // ---- hidden information (see the header) ----

  /** The searcher, its tree's root, the other players' roots by their observation of the root, and its decision node. */
  private searcher = 0;
  private shared: HNode | null = null;
  private mine: HNode | null = null;
  private others: Map<string, HNode>[] | null = null;
  private decision: HNode | null = null;

  /** The tree child for what `viewer` sees of step `a` (key `key`, by `mover`, -1 for chance) from `s` to `next`. */
  private viewKey(s: S, a: A, key: string, mover: number, next: S, viewer: number): string {
    const g = this.game;
    const view = viewer === mover || !g.viewAction ? key : g.viewAction(s, a, viewer);
    return `${view}\n${hashHex(observationHash(g, next, viewer))}`;
  }

  private isPublic(s: S, a: A, key: string): boolean {
    const g = this.game;
    if (!g.viewAction) return true;
    for (let q = 0; q < g.players.length; q++) if (g.viewAction(s, a, q) !== key) return false;
    return true;
  }

  /** The network's reply for `mover` at `s`, from its observation only; root noise at the searcher's decision. */
  private async expandHidden(d: HNode, s: S, mover: number, legal: readonly A[]): Promise<void> {
    const g = this.game;
    const r = await this.net.evaluate(encodeRequest(this.enc, g.observe(s, mover) as S, mover, legal));
    const k = legal.length;
    d.keys = legal.map((a) => g.actionKey(a));
    d.priors = r.priors;
    d.n = new Array(k).fill(0);
    d.w = new Array(k).fill(0);
    d.v0 = r.value;
    if (d === this.decision && this.cfg.noiseFrac > 0 && k > 1) {
      const noise = dirichlet(this.cfg.dirichletAlpha, k, this.rng);
      for (let i = 0; i < k; i++)
        d.priors[i] = (1 - this.cfg.noiseFrac) * d.priors[i]! + this.cfg.noiseFrac * noise[i]!;
    }
  }

  private sampleOutcome(o: readonly ChanceOutcome<A>[]): A {
    let x = this.rng();
    for (const c of o) {
      x -= c.p;
      if (x < 0) return c.action;
    }
    return o[o.length - 1]!.action;
  }

  /** Search for `player` at `root` in a ruleset with hidden information (see the header). */
  private async runHidden(root: S, player: number, sims: number): Promise<PuctResult<A>> {
    const g = this.game;
    const actions = g.legalActions(root);
    const keys = actions.map((a) => g.actionKey(a));
    if (actions.length < 2) {
      const r = await this.net.evaluate(encodeRequest(this.enc, g.observe(root, player) as S, player, actions));
      const priors = Array.from(r.priors);
      return {
        actions,
        keys,
        visits: keys.map(() => 0),
        priors,
        q: keys.map(() => NaN),
        rootValue: r.value,
        value: r.value,
        sims: 0,
      };
    }
    this.searcher = player;
    const start = searchRoot(g, root, player, this.rng);
    const round = start.replay !== undefined;
    const replay = start.replay;
    const rootState = start.draw;
    const rs0 = rootState();
    // something at the (re-drawn) root hidden from someone: one tree per player from the start, the others' trees
    // rooted by what they observe of each draw
    const split = !!g.hidden && g.players.some((_, q) => g.hidden!(rs0, q));
    this.shared = split ? null : hnode();
    this.mine = split ? hnode() : null;
    this.others = split ? g.players.map(() => new Map()) : null;
    this.decision = round ? null : (this.shared ?? this.mine);
    for (let it = 0; it < sims; it++) await this.iterateHidden(it === 0 ? rs0 : rootState(), replay);
    const d = this.decision;
    if (!d?.keys) throw new Error('puct: the search never reached its decision');
    const idx = keys.map((k) => d.keys!.indexOf(k));
    if (idx.some((i) => i < 0)) throw new Error('puct: the decision node does not offer the legal actions of the root');
    const n = idx.map((i) => d.n[i]!);
    const w = idx.map((i) => d.w[i]!);
    return {
      actions,
      keys,
      visits: n,
      priors: idx.map((i) => d.priors![i]!),
      q: n.map((x, j) => (x ? w[j]! / x : NaN)),
      rootValue: d.v0,
      value: searchValue(n, w, d.v0),
      sims,
    };
  }

  /**
   * One simulation from root state `rs`; `replay` is the open sealed round it restarts before. The mover at each step
   * selects (and is expanded) in its own tree; the trees are shared until the first step some player sees differently.
   */
  private async iterateHidden(rs: S, replay?: readonly Replayed[]): Promise<void> {
    const g = this.game;
    let s = rs;
    let node = this.shared;
    let split: HNode[] | null = this.others
      ? g.players.map((_, q) =>
          q === this.searcher ? this.mine! : at(this.others![q]!, hashHex(observationHash(g, rs, q))),
        )
      : null;
    const edges: { d: HNode; i: number; mover: number }[] = [];
    let r = 0;
    let prelude = !!replay; // restarting before the decision: every step is taken, none is a leaf
    let v: number;
    for (;;) {
      const tm = g.toMove(s);
      if (tm.kind === 'terminal') {
        v = g.returns(s)[0]!;
        break;
      }
      let a: A;
      let mover = -1;
      if (tm.kind === 'chance') {
        const o = g.chanceOutcomes(s);
        a = o.length === 1 ? o[0]!.action : this.sampleOutcome(o);
      } else {
        const p = tm.player;
        mover = p;
        const legal = g.legalActions(s);
        const sel = split ? split[p]! : node!;
        let must: string | undefined;
        if (prelude && r < replay!.length) {
          const c = replay![r++]!;
          if (c.player === this.searcher) must = c.key;
        } else if (prelude) {
          // the restart has reached the searcher's decision: the same node of its tree at every simulation
          prelude = false;
          if (this.decision === null) this.decision = sel;
          else if (this.decision !== sel)
            throw new Error('puct: the restarted round reached a different decision node');
        }
        if (legal.length === 1 && sel !== this.decision) a = legal[0]!;
        else {
          if (!sel.keys) {
            await this.expandHidden(sel, s, p, legal);
            if (!prelude && sel !== this.decision) {
              v = p === 0 ? sel.v0 : -sel.v0;
              break;
            }
          }
          const legalKeys = new Set(legal.map((x) => g.actionKey(x)));
          const i = must !== undefined ? sel.keys!.indexOf(must) : this.puct(sel as Stats, legalKeys);
          if (must !== undefined && (i < 0 || !legalKeys.has(must)))
            throw new Error(`puct: the replayed action ${must} is not legal in this determinization`);
          if (i < 0) {
            // none of the node's actions is legal in this determinization: value it as it stands
            const m = sel.visits ? sel.w.reduce((x, y) => x + y, 0) / sel.visits : sel.v0;
            v = p === 0 ? m : -m;
            break;
          }
          const key = sel.keys![i]!;
          a = legal.find((x) => g.actionKey(x) === key)!;
          edges.push({ d: sel, i, mover: p });
        }
      }
      const key = g.actionKey(a);
      const next = g.applyUnchecked(s, a);
      if (!split && this.isPublic(s, a, key)) node = at(node!.children, key);
      else {
        const from = node;
        split ??= g.players.map(() => from!);
        for (let q = 0; q < split.length; q++)
          split[q] = at(split[q]!.children, this.viewKey(s, a, key, mover, next, q));
      }
      s = next;
    }
    for (const e of edges) {
      e.d.n[e.i]!++;
      e.d.w[e.i]! += e.mover === 0 ? v : -v;
      e.d.visits++;
    }
  }
}

/** The visit-weighted mean of per-action value sums (`v0` before any visit). */
function searchValue(n: readonly number[], w: readonly number[], v0: number): number {
  let tn = 0;
  let tw = 0;
  for (let i = 0; i < n.length; i++) {
    tn += n[i]!;
    tw += w[i]!;
  }
  return tn ? tw / tn : v0;
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
