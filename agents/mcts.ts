/**
 * Monte Carlo tree search over the engine's `Game` interface, for two-player zero-sum games with dice.
 *
 * - Decision nodes select by UCT from the point of view of the player to move.
 * - Chance nodes sample an outcome from the node's exact distribution with the agent's own RNG; once every outcome
 *   has a child, the node's value is the exact expectation Σ p·Q instead of the sample mean.
 * - Hidden information: when the game declares hidden decisions, every iteration starts from a fresh
 *   determinization `game.sampleState(root, player, rng)` and nodes keep no state (information-set style: the tree is
 *   keyed by action text, and only actions legal in the current determinization are considered).
 * - Progressive widening: a decision node considers its first ⌈k·N^α⌉ actions, ordered by the ruleset's scripted
 *   preferences when it has them (random order otherwise).
 * - Leaves: random rollout, heuristic rollout (ε-greedy over the scripted preferences), or a truncated rollout of
 *   `depth` plies followed by the ruleset's evaluation (optionally played on to a quiet position first).
 * - Budgets by iterations (deterministic for a seed) or milliseconds; the tree is reused between decisions when the
 *   new position is in it; a single legal action is returned without search.
 */
import type { AnyGame, ChanceOutcome } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import seedrandom from 'seedrandom';
import type { Agent, Alternative, Decision, DecisionContext } from './agent.ts';

export interface MctsConfig {
  /** Iterations per decision (used when `ms` is not set). */
  readonly iterations: number;
  /** Milliseconds per decision; overrides `iterations` (not deterministic). */
  readonly ms?: number;
  /** UCT exploration constant (values are in [-1, 1]). */
  readonly c: number;
  readonly leaf: 'random' | 'heuristic' | 'eval';
  /** Rollout plies before the ruleset's evaluation is used (Infinity: play to the end). */
  readonly depth: number;
  /**
   * Once a rollout reaches `depth`, play on at most this many plies to a position the ruleset calls quiet before
   * evaluating it (0: evaluate at `depth` whatever is pending). Rulesets without `quiet` evaluate at `depth`.
   */
  readonly quiet: number;
  /** Progressive widening k and α (k = 0 turns it off). */
  readonly widenK: number;
  readonly widenAlpha: number;
  /** Order new actions by the ruleset's scripted preferences (else random). */
  readonly prior: boolean;
  /** Random-move probability in heuristic rollouts. */
  readonly epsilon: number;
  readonly reuse: boolean;
  /**
   * With a time budget, stop as soon as the most-visited root action cannot be overtaken in the time left (at the
   * rate measured so far), the way a chess engine stops on a settled move; the choice is the one the full budget
   * would make, sooner. Iteration budgets always run to the end, so equal-budget comparisons stay exact. Off by
   * default: the time it saves would otherwise grow the subtree that tree reuse hands to the next decision (on
   * open-field at 1 s, on the same 26 seeds, 46.2% against the scripted player with it and 59.6% without).
   */
  readonly early: boolean;
  /**
   * Paired dice (common random numbers): the k-th iteration through each root action draws its dice, in the tree and
   * in the rollout, from the same random stream, so root actions are compared on the same luck and the difference
   * between them is measured with less noise.
   */
  readonly paired: boolean;
  /**
   * Sequential halving at the root over the first `sh` actions in prior order (0: UCT at the root). The budget is split
   * into ⌈log₂ sh⌉ equal rounds; in each, the surviving actions are visited in turn, and the worse half by mean value is
   * dropped at its end. Below the root the search is unchanged. It spends the budget on telling the best move apart
   * (simple regret) rather than on visiting it (cumulative regret), which is what a move choice needs. It always uses
   * its whole budget (`early` does not apply).
   */
  readonly sh: number;
}

/**
 * Defaults tuned on The March of Eagles against the scripted player: rollouts by the scripted player itself (no random
 * moves) cut at 120 plies (about a third of an open-field game) and then valued by the ruleset's fitted evaluation,
 * paired dice at the root, and narrow progressive widening over the scripted preferences (k = 1, α = 0.3) with a low
 * exploration constant, so the search spends its budget choosing among the few moves the tactics favour.
 *
 * A rollout that reaches 120 plies with something half-resolved (a volley, test or combat pending) plays on up to 20
 * plies to the next quiet position before it is valued (about 1% more plies per iteration): on 200 scripted
 * open-field games the evaluation's mean squared error against the outcome falls from 0.873 at a random ply to 0.858
 * at the next quiet one (1.3 plies on, on average).
 *
 * At 1 s per decision on open-field (paired seeds, sides swapped): these defaults (quiet=20) 70.0% over 200 games
 * (139W 2D 59L, 95% CI 63.3–75.9%; 57.5% as side A, 82.5% as side B); without quiet play 67.3% over 200 games
 * (133W 3D 64L, 95% CI 60.5–73.4%; 52.0% as side A, 82.5% as side B, where scripted self-play gives side A 41.5%); the former
 * defaults (whole-game rollouts, unpaired) 59.0% pooled over 133 games (on the 26 seeds both played: 59.6% against
 * 65.4%); rollouts cut at 60 plies 50% over 20 (the evaluation's bias costs more than the rollouts' noise). On
 * farm-on-the-ridge: these defaults 72.8% over 200 games (145W 1D 54L, 95% CI 66.2–78.4%; 76.0% as side A, 69.5% as
 * side B); without quiet play 68.8% over 200 games (136W 3D 61L, 95% CI 62.0–74.8%; 74.0% as side A, 63.5% as
 * side B); whole-game rollouts with early=true 70.8% over 200 games (141W 1D 58L, 95% CI 64.1–76.6%);
 * 250 iterations per decision with c = 0.5 about 65% over 160 games, c = 1.0 62.5% and 60 iterations 45% (20 games
 * each), ε = 0.25 rollouts cut at 10 plies with the hand evaluation 27.5%.
 *
 * Decision quality at 1 s on open-field (`eagles bench --decisions`-style measurement on 240 positions; mean regret
 * against 160-playout values of the scripted player's top five moves, lower is better; standard error about 0.006,
 * and repeated runs of one timed setting differ by about as much): the scripted player 0.064; whole-game rollouts
 * 0.060, with paired dice 0.057; cut at 120 plies 0.054, with paired dice 0.048 and 0.055 in two runs; paired and cut at
 * 60 plies 0.062, 200 plies 0.058, 300 plies 0.059; cut at 120 and paired with c = 0.3 0.052, c = 1 0.060. Sequential
 * halving at the root (`sh`) on top: sh=2 0.058, sh=3 0.054, sh=4 0.058, sh=5 0.053 (no gain the bench can see, so it
 * stays off); with whole-game rollouts, sh=4 0.064.
 */
export const DEFAULT_MCTS: MctsConfig = {
  iterations: 1000,
  c: 0.5,
  leaf: 'heuristic',
  depth: 120,
  quiet: 20,
  widenK: 1,
  widenAlpha: 0.3,
  prior: true,
  epsilon: 0,
  reuse: true,
  early: false,
  paired: true,
  sh: 0,
};

type Node = DecisionNode | ChanceNode | TerminalNode;

interface DecisionNode {
  readonly kind: 'd';
  readonly player: number;
  /** Cached for perfect-information search (null under determinization). */
  state: unknown;
  actions: unknown[] | null;
  keys: string[] | null;
  /** Children by action key (determinized search, where legal lists vary). */
  children: Map<string, Node>;
  /** Children aligned with `actions` (perfect-information search, where `actions` is cached). */
  kids: (Node | undefined)[];
  n: number;
  /** Sum of values for player 0. */
  w: number;
}
interface ChanceNode {
  readonly kind: 'c';
  state: unknown;
  /** Cached outcomes and their keys (perfect-information search only). */
  outcomes: ChanceOutcome<unknown>[] | null;
  okeys: string[] | null;
  /** Children by outcome key. */
  children: Map<string, Node>;
  expanded: number;
  n: number;
  w: number;
}
interface TerminalNode {
  readonly kind: 't';
  readonly v: number;
  /** Reached the same way in every iteration, so `v` is its value (else: the running mean of the payoffs seen). */
  readonly det: boolean;
  n: number;
  w: number;
}

export interface SearchStats {
  iterations: number;
  ms: number;
  nodes: number;
  reused: number;
  /** The search stopped before its time budget: the leading action could no longer be overtaken. */
  settled: boolean;
}

/** A position's value for player 0 in [-1, 1], used where a cut rollout is valued. */
export type LeafValue = (s: unknown) => number;

/**
 * A second judge mixed into every leaf value, AlphaGo's way: a leaf is worth `weight`·value(the position the rollout
 * starts from) + (1 − `weight`)·(the rollout's result).
 */
export interface LeafMix {
  readonly value: LeafValue;
  readonly weight: number;
}

/** A choice of the open sealed round the search restarts before: the searcher's own by key ('' for the others'). */
interface Replayed {
  readonly player: number;
  readonly key: string;
}

export class MctsSearch {
  private root: Node | null = null;
  /** One root per player when something at the root is hidden from a player other than the searcher. */
  private rootSplit: Node[] | null = null;
  /** The player the search decides for, and its decision node (the root, unless the search restarts a sealed round). */
  private searcher = 0;
  private decision: DecisionNode | null = null;
  private nodes = 0;
  private byHash = new Map<string, DecisionNode>();
  /** The stream chance outcomes and rollouts draw from: the agent's RNG, or the iteration's paired stream. */
  private draw: () => number;
  private pairBase = 0;

  constructor(
    readonly game: AnyGame,
    readonly cfg: MctsConfig,
    private readonly rng: () => number,
    /** Values a rollout's last position for player 0 in [-1, 1] in place of the ruleset's evaluation (e.g. a value network). */
    private readonly leafValue?: LeafValue,
    /** Mixed with each rollout's result (see `LeafMix`). */
    private readonly mix?: LeafMix,
  ) {
    if (mix && !(mix.weight >= 0 && mix.weight <= 1))
      throw new Error(`mcts: leaf mix weight ${mix.weight} is not in [0, 1]`);
    if (game.players.length !== 2) throw new Error('mcts: only two-player games are supported');
    this.draw = rng;
  }

  /**
   * A node for state `s`; `det` when the node is reached with the same state in every iteration (no hidden value was
   * re-drawn on the way), so that it may keep the state and cache its actions, outcomes and value.
   */
  private makeNode(s: unknown, det: boolean): Node {
    this.nodes++;
    const g = this.game;
    const tm = g.toMove(s);
    if (tm.kind === 'terminal') {
      const r = g.returns(s);
      return { kind: 't', v: r[0]!, det, n: 0, w: 0 };
    }
    const keep = det ? s : null;
    if (tm.kind === 'chance')
      return { kind: 'c', state: keep, outcomes: null, okeys: null, children: new Map(), expanded: 0, n: 0, w: 0 };
    const node: DecisionNode = {
      kind: 'd',
      player: tm.player,
      state: keep,
      actions: null,
      keys: null,
      children: new Map(),
      kids: [],
      n: 0,
      w: 0,
    };
    if (keep !== null && this.cfg.reuse) this.byHash.set(hashHex(g.hash(s)), node);
    return node;
  }

  /** Value of a node for player 0: the exact expectation at a fully expanded chance node. */
  private value(n: Node): number {
    // under determinization a terminal's payoff can depend on hidden values: use its running mean
    if (n.kind === 't') return n.det ? n.v : n.n ? n.w / n.n : n.v;
    if (n.kind === 'c' && n.outcomes && n.okeys && n.expanded === n.outcomes.length) {
      let v = 0;
      for (let i = 0; i < n.outcomes.length; i++) v += n.outcomes[i]!.p * this.value(n.children.get(n.okeys[i]!)!);
      return v;
    }
    return n.n ? n.w / n.n : 0;
  }

  /**
   * The scripted preferences of `mover` at `s`, read from what the mover can see: where `s` holds something hidden
   * from it, they are scored on a state re-drawn from its point of view, so its model never uses another's secret.
   */
  private scores(s: unknown, actions: readonly unknown[], mover: number, u: () => number): number[] {
    const g = this.game;
    const view = g.hidden?.(s, mover) ? g.sampleState(s, mover, u) : s;
    return g.policyScores!(view, actions);
  }

  private orderActions(s: unknown, actions: unknown[], mover: number): unknown[] {
    const g = this.game;
    if (this.cfg.widenK <= 0) return actions; // every action is tried before UCT: order does not matter
    if (this.cfg.prior && g.policyScores) {
      const sc = this.scores(s, actions, mover, this.rng);
      const idx = actions.map((_, i) => i);
      // ties broken randomly (deterministically from the agent's RNG)
      const jitter = idx.map(() => this.rng() * 1e-6);
      idx.sort((a, b) => sc[b]! + jitter[b]! - (sc[a]! + jitter[a]!));
      return idx.map((i) => actions[i]);
    }
    const a = actions.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.rng() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }

  private sampleIndex(outs: readonly ChanceOutcome<unknown>[]): number {
    let r = this.draw();
    for (let i = 0; i < outs.length; i++) {
      if (r < outs[i]!.p) return i;
      r -= outs[i]!.p;
    }
    return outs.length - 1;
  }

  private rolloutAction(s: unknown, legal: readonly unknown[], mover: number): unknown {
    const g = this.game;
    if (this.cfg.leaf === 'heuristic' && g.policyScores && this.draw() >= this.cfg.epsilon) {
      const sc = this.scores(s, legal, mover, this.draw);
      let best = 0;
      for (let i = 1; i < sc.length; i++) if (sc[i]! > sc[best]!) best = i;
      return legal[best];
    }
    return legal[Math.floor(this.draw() * legal.length)];
  }

  /** Leaf evaluation for player 0. */
  private evaluateLeaf(s0: unknown): number {
    if (!this.mix) return this.rollout(s0);
    const w = this.mix.weight;
    return w * this.mix.value(s0) + (1 - w) * this.rollout(s0);
  }

  /** A rollout's result for player 0: the outcome, or the value of the position where it is cut. */
  private rollout(s0: unknown): number {
    const g = this.game;
    let s = s0;
    const limit =
      this.cfg.leaf === 'eval' ? this.cfg.depth : Number.isFinite(this.cfg.depth) ? this.cfg.depth : 100_000;
    for (let d = 0; ; d++) {
      const tm = g.toMove(s);
      if (tm.kind === 'terminal') return g.returns(s)[0]!;
      if (d >= limit && (d >= limit + this.cfg.quiet || !g.quiet || g.quiet(s)))
        return this.leafValue ? this.leafValue(s) : g.evaluate(s, 0);
      if (tm.kind === 'chance') {
        const outs = g.chanceOutcomes(s);
        s = g.applyUnchecked(s, outs[this.sampleIndex(outs)]!.action);
      } else s = g.applyUnchecked(s, this.rolloutAction(s, g.legalActions(s), tm.player));
    }
  }

  /** A decision node's actions in prior order with their keys (cached when the node keeps its state). */
  private actionsAt(node: DecisionNode, s: unknown, mover: number): { actions: unknown[]; keys: string[] } {
    if (node.state !== null && node.actions && node.keys) return { actions: node.actions, keys: node.keys };
    const actions = this.orderActions(s, this.game.legalActions(s) as unknown[], mover);
    const keys = actions.map((a) => this.game.actionKey(a));
    if (node.state !== null) {
      node.actions = actions;
      node.keys = keys;
    }
    return { actions, keys };
  }

  /** Is action (or outcome) `a`, with key `key`, seen as itself by every player? */
  private isPublic(s: unknown, a: unknown, key: string): boolean {
    const g = this.game;
    if (!g.viewAction) return true;
    for (let q = 0; q < g.players.length; q++) if (g.viewAction(s, a, q) !== key) return false;
    return true;
  }

  /**
   * One iteration from the root state `rs`; `forced` names the decision's action to go through and its visit number;
   * `replay` is the open round of sealed choices the search restarts before (the searcher's own choices, by key, are
   * replayed; the other players' are chosen by their own trees).
   *
   * The trees: while every step so far was seen alike by every player, all players share one node (the plain MCTS
   * tree). At the first step some player sees differently (a sealed bid, a hidden card), the iteration splits into one
   * tree per player, each keyed by what its player sees (multi-observer information-set MCTS): a player choosing
   * there selects by the statistics of its own tree, so its choice cannot depend on what it did not see.
   */
  private iterate(rs: unknown, forced?: { key: string; k: number }, replay?: readonly Replayed[]): void {
    const g = this.game;
    const path: Node[] = [];
    let node = this.root!;
    let split: Node[] | null = this.rootSplit ? this.rootSplit.slice() : null;
    if (split) path.push(...split);
    else path.push(node);
    let s = rs;
    let v: number | null = null;
    let r = 0; // replayed choices so far
    let prelude = !!replay; // restarting before the decision: every step is taken, none is a leaf
    for (;;) {
      const cur = split ? split[0]! : node;
      if (cur.kind === 't') {
        v = cur.det ? cur.v : g.returns(s)[0]!;
        break;
      }
      if (cur.kind === 'c') {
        const det = !split && cur.state !== null;
        if (det) s = cur.state;
        let outs = det ? cur.outcomes : null;
        let okeys = det ? cur.okeys : null;
        if (!outs || !okeys) {
          outs = g.chanceOutcomes(s) as ChanceOutcome<unknown>[];
          okeys = outs.map((o) => g.actionKey(o.action));
          if (det) {
            cur.outcomes = outs;
            cur.okeys = okeys;
          }
        }
        const i = this.sampleIndex(outs);
        const next = g.applyUnchecked(s, outs[i]!.action);
        if (!split && this.isPublic(s, outs[i]!.action, okeys[i]!)) {
          let child = cur.children.get(okeys[i]!);
          s = next;
          if (!child) {
            child = this.makeNode(next, det);
            cur.children.set(okeys[i]!, child);
            cur.expanded++;
            path.push(child);
            if (prelude) {
              node = child;
              continue;
            }
            v = this.evaluateLeaf(next);
            break;
          }
          node = child;
          path.push(child);
          continue;
        }
        const fresh = this.descendSplit(
          (split ??= g.players.map(() => cur)),
          s,
          outs[i]!.action,
          okeys[i]!,
          -1,
          next,
          path,
        );
        s = next;
        if (fresh && !prelude) {
          v = this.evaluateLeaf(next);
          break;
        }
        continue;
      }
      // decision node: the mover selects in its own tree
      const p = cur.player;
      const sel = (split ? split[p]! : node) as DecisionNode;
      const cached = sel.state !== null;
      if (cached) s = sel.state;
      const { actions, keys } = this.actionsAt(sel, s, p);
      let replayed: string | undefined;
      if (prelude && r < replay!.length) {
        const c = replay![r++]!;
        if (c.player === this.searcher) replayed = c.key;
      } else if (prelude) {
        // the restart has reached the searcher's decision: the same node in its tree at every iteration
        prelude = false;
        if (this.decision === null) this.decision = sel;
        else if (this.decision !== sel) throw new Error('mcts: the restarted round reached a different decision node');
      }
      const atDecision = sel === this.decision;
      const d = sel;
      const unexpanded = (i: number) => (cached ? d.kids[i] === undefined : !d.children.has(keys[i]!));
      let pick = -1; // an action to expand
      let best = -1; // a child to go down into
      const must = replayed ?? (forced && atDecision ? forced.key : undefined);
      if (must !== undefined) {
        const i = keys.indexOf(must);
        if (i < 0) throw new Error(`mcts: action ${must} is not legal in this determinization`);
        if (unexpanded(i)) pick = i;
        else best = i;
      } else {
        const allowed =
          this.cfg.widenK > 0
            ? Math.min(
                actions.length,
                Math.max(1, Math.floor(this.cfg.widenK * Math.pow(sel.n + 1, this.cfg.widenAlpha))),
              )
            : actions.length;
        for (let i = 0; i < allowed; i++)
          if (unexpanded(i)) {
            pick = i;
            break;
          }
        if (pick < 0) {
          // UCT among the allowed children, from the mover's point of view
          const sign = p === 0 ? 1 : -1;
          const logN = Math.log(Math.max(1, sel.n));
          let bestScore = -Infinity;
          for (let i = 0; i < allowed; i++) {
            const ch = cached ? sel.kids[i]! : sel.children.get(keys[i]!)!;
            const q = sign * this.value(ch);
            const u = q + this.cfg.c * Math.sqrt(logN / Math.max(1, ch.n));
            if (u > bestScore) {
              bestScore = u;
              best = i;
            }
          }
        }
      }
      const i = pick >= 0 ? pick : best;
      const a = actions[i];
      const key = keys[i]!;
      // paired dice: the decision's k-th visit of this action (numbered by sequential halving, else by the child's visits)
      if (atDecision) {
        const ch = pick >= 0 ? undefined : cached ? sel.kids[i] : sel.children.get(key);
        this.pair(forced ? forced.k : (ch?.n ?? 0));
      }
      const next = g.applyUnchecked(s, a);
      if (!split && this.isPublic(s, a, key)) {
        s = next;
        if (pick >= 0) {
          const child = this.makeNode(next, cached);
          sel.children.set(key, child);
          if (cached) sel.kids[i] = child;
          path.push(child);
          if (prelude) {
            node = child;
            continue;
          }
          v = this.evaluateLeaf(next);
          break;
        }
        node = cached ? sel.kids[i]! : sel.children.get(key)!;
        path.push(node);
        if (node.kind === 't' && node.det) {
          v = node.v;
          break;
        }
        continue;
      }
      this.descendSplit((split ??= g.players.map(() => sel)), s, a, key, p, next, path, cached ? i : -1);
      s = next;
      if (pick >= 0 && !prelude) {
        v = this.evaluateLeaf(next);
        break;
      }
    }
    for (const n of path) {
      n.n++;
      n.w += v!;
    }
    this.draw = this.rng;
  }

  /**
   * Step every player's tree by what that player sees of `a` (taken at `s` by `mover`, -1 for chance), creating the
   * nodes it lacks; `kid` is the action's index when the mover's node caches its children by index. Returns whether
   * any node was created.
   */
  private descendSplit(
    split: Node[],
    s: unknown,
    a: unknown,
    key: string,
    mover: number,
    next: unknown,
    path: Node[],
    kid = -1,
  ): boolean {
    const g = this.game;
    let fresh = false;
    const from = split.slice();
    for (let q = 0; q < split.length; q++) {
      const n = from[q] as DecisionNode | ChanceNode;
      const view = q === mover ? key : g.viewAction ? g.viewAction(s, a, q) : key;
      // players that shared a node and see this step alike still share one: the node and its path are counted once
      const twin = from.findIndex((m, r) => r < q && m === n && (r === mover ? key : g.viewAction!(s, a, r)) === view);
      if (twin >= 0) {
        split[q] = split[twin]!;
        continue;
      }
      let c = n.children.get(view);
      if (!c) {
        c = this.makeNode(next, false);
        n.children.set(view, c);
        if (n.kind === 'c') n.expanded++;
        else if (q === mover && kid >= 0) n.kids[kid] = c;
        fresh = true;
      }
      split[q] = c;
      path.push(c);
    }
    return fresh;
  }

  /** With paired dice, the rest of this iteration draws from the stream of the root action's k-th visit. */
  private pair(k: number): void {
    if (this.cfg.paired) this.draw = seedrandom.alea(`${this.pairBase}:${k}`);
  }

  /** Search from `state` for the player to move and return the root's children statistics. */
  search(
    state: unknown,
    budget: { iterations?: number; ms?: number },
  ): { root: DecisionNode; stats: SearchStats; choice?: string } {
    const g = this.game;
    const t0 = performance.now();
    const tm = g.toMove(state);
    if (tm.kind !== 'player') throw new Error('mcts: search called at a state that is not a decision');
    const player = tm.player;
    this.searcher = player;
    // Hiddenness is decided here, per position: one the searcher sees whole is searched from itself, with one tree
    // kept between decisions. One that hides something from it is re-drawn from its point of view at every iteration,
    // and inside an open round of sealed choices the search restarts at the round's start (see `Game.sealedRound`).
    // (a round whose choices so far are all the searcher's own hides nothing from it: no restart)
    const open = g.sealedRound?.(state);
    const round = open?.choices.some((c) => c.player !== player) ? open : undefined;
    const hiddenRoot = !!round || !!g.hidden?.(state, player);
    const replay: Replayed[] | undefined = round?.choices.map((c) => ({
      player: c.player,
      key: c.player === player ? g.actionKey(c.action) : '',
    }));
    const rootState = (): unknown => {
      if (!hiddenRoot) return state;
      const d = g.sampleState(state, player, this.rng);
      return round ? (g.sealedRound!(d)?.start ?? d) : d;
    };
    const rs0 = rootState();
    // something at the root the searcher sees and another player does not (its own card): one tree per player from the start
    const blind = !!g.hidden && g.players.some((_, q) => q !== player && g.hidden!(rs0, q));
    let reused = 0;
    let root: Node | undefined;
    if (this.cfg.reuse && !hiddenRoot && !blind) {
      const found = this.byHash.get(hashHex(g.hash(state)));
      if (found) {
        root = found;
        reused = found.n;
      }
    }
    this.byHash = new Map();
    this.rootSplit = null;
    if (!root) {
      this.nodes = 0;
      if (blind) {
        this.rootSplit = g.players.map(() => this.makeNode(rs0, !hiddenRoot));
        root = this.rootSplit[player]!;
      } else root = this.makeNode(rs0, !hiddenRoot);
    } else if (root.kind === 'd') {
      // re-index the kept subtree for the next reuse
      const stack: Node[] = [root];
      while (stack.length) {
        const n = stack.pop()!;
        if (n.kind === 'd') {
          if (n.state !== null) this.byHash.set(hashHex(g.hash(n.state)), n);
          for (const c of n.children.values()) stack.push(c);
        } else if (n.kind === 'c') for (const c of n.children.values()) stack.push(c);
      }
    }
    if (root.kind !== 'd') throw new Error('mcts: search called at a state that is not a decision');
    this.root = root;
    this.decision = round ? null : root;
    if (this.cfg.paired) this.pairBase = Math.floor(this.rng() * 0x100000000); // drawn only when used: unpaired searches keep their sequence
    const ms = budget.ms ?? this.cfg.ms;
    const iters = budget.iterations ?? this.cfg.iterations;
    if (this.cfg.sh >= 2 && !round) {
      const { done, choice } = this.halving(root, rootState, t0, ms, iters);
      return {
        root,
        stats: { iterations: done, ms: performance.now() - t0, nodes: this.nodes, reused, settled: false },
        choice,
      };
    }
    let done = 0;
    let settled = false;
    let rootKeys: string[] | undefined;
    for (;;) {
      if (ms !== undefined) {
        // checked every iteration: with whole-game rollouts one iteration can take tens of milliseconds
        const el = performance.now() - t0;
        if (el >= ms) break;
        if (
          this.cfg.early &&
          done >= 16 &&
          (done & 7) === 0 &&
          this.settled(
            root,
            (rootKeys ??= g.legalActions(state).map((a: unknown) => g.actionKey(a))),
            ((ms - el) * done) / Math.max(el, 1e-3),
          )
        ) {
          settled = true;
          break;
        }
      } else if (done >= iters) break;
      this.iterate(done === 0 ? rs0 : rootState(), undefined, replay);
      done++;
    }
    if (this.decision === null) {
      // a restarted round reaches the decision in its first iteration: make sure there was one
      this.iterate(rs0, undefined, replay);
      done++;
    }
    return {
      root: this.decision!,
      stats: { iterations: done, ms: performance.now() - t0, nodes: this.nodes, reused, settled },
    };
  }

  /**
   * Sequential halving over the root's first `sh` actions in prior order: ⌈log₂ m⌉ rounds of equal budget (time or
   * iterations); in each the survivors are visited in turn, each visit numbered for paired dice, and the worse half by
   * mean value (for the mover; ties to the prior order) is dropped. Every candidate is visited at least once.
   */
  private halving(
    root: DecisionNode,
    rootState: () => unknown,
    t0: number,
    ms: number | undefined,
    iters: number,
  ): { done: number; choice: string } {
    const { keys } = this.actionsAt(root, root.state ?? rootState(), root.player);
    let alive = keys.slice(0, Math.min(this.cfg.sh, keys.length));
    const rounds = Math.max(1, Math.ceil(Math.log2(alive.length)));
    const visits = new Map(alive.map((k) => [k, 0]));
    const sign = root.player === 0 ? 1 : -1;
    const mean = (k: string) => {
      const c = root.children.get(k);
      return c && c.n ? sign * this.value(c) : -Infinity;
    };
    let done = 0;
    for (let r = 0; r < rounds && alive.length > 1; r++) {
      const last = r === rounds - 1;
      const endMs = ms === undefined ? 0 : (ms * (r + 1)) / rounds;
      const endIt = last ? iters : Math.floor((iters * (r + 1)) / rounds);
      for (let i = 0; ; i = (i + 1) % alive.length) {
        const k = alive[i]!;
        // rounds before the last end only after a whole turn, so the survivors have had the same (paired) dice
        const spent = ms !== undefined ? performance.now() - t0 >= endMs : done >= endIt;
        if (spent && root.children.get(k)?.n && (last || i === 0)) break;
        this.iterate(rootState(), { key: k, k: visits.get(k)! });
        visits.set(k, visits.get(k)! + 1);
        done++;
      }
      const order = alive.map((k, i) => ({ k, i, q: mean(k) })).sort((a, b) => b.q - a.q || a.i - b.i);
      alive = order.slice(0, Math.ceil(alive.length / 2)).map((o) => o.k);
    }
    return { done, choice: alive[0]! };
  }

  /** Is the most-visited root child out of reach: ahead of the runner-up by more than `remaining` more iterations could make up? */
  private settled(root: DecisionNode, keys: readonly string[], remaining: number): boolean {
    let first = 0;
    let second = 0;
    for (const k of keys) {
      // by the actions' keys: a node shared by every player's tree also holds the others' views of its actions
      const c = root.children.get(k);
      if (!c) continue;
      if (c.n > first) {
        second = first;
        first = c.n;
      } else if (c.n > second) second = c.n;
    }
    return first - second > remaining;
  }

  /** Value of a child for the mover, for reporting. */
  childValue(root: DecisionNode, key: string): number {
    const ch = root.children.get(key);
    if (!ch) return 0;
    return (root.player === 0 ? 1 : -1) * this.value(ch);
  }

  describeChance(node: Node | undefined, player: number): string | undefined {
    if (!node || node.kind !== 'c' || !node.outcomes || !node.okeys) return undefined;
    const sign = player === 0 ? 1 : -1;
    const okeys = node.okeys;
    const outs = node.outcomes
      .map((o, i) => ({ o, i }))
      .sort((a, b) => b.o.p - a.o.p)
      .slice(0, 4)
      .map(({ o, i }) => {
        const c = node.children.get(okeys[i]!);
        return `${o.label} ${(o.p * 100).toFixed(0)}%${c && c.n ? ` (value ${(sign * this.value(c)).toFixed(2)})` : ''}`;
      });
    return `odds: ${outs.join(', ')}`;
  }
}

export class MctsAgent implements Agent {
  private search: MctsSearch | null = null;
  constructor(
    readonly spec: string,
    readonly cfg: MctsConfig,
    /** Replaces the ruleset's evaluation at the end of cut rollouts (see `MctsSearch`). */
    private readonly leafValue?: LeafValue,
    /** Mixed with each rollout's result (see `LeafMix`). */
    private readonly mix?: LeafMix,
  ) {}

  reset(): void {
    this.search = null;
  }

  async decide(ctx: DecisionContext): Promise<Decision> {
    const { game, legal } = ctx;
    if (legal.length === 1)
      return { action: legal[0], explanation: { chosen: game.actionKey(legal[0]), text: 'the only legal action' } };
    if (!this.search || this.search.game !== game)
      this.search = new MctsSearch(game, this.cfg, ctx.rng, this.leafValue, this.mix);
    const { root, stats, choice } = this.search.search(ctx.state, ctx.budget);
    const keys = legal.map((a) => game.actionKey(a));
    let best = choice !== undefined ? keys.indexOf(choice) : -1;
    if (choice !== undefined && best < 0)
      throw new Error(`mcts: sequential halving chose ${choice}, which is not legal here`);
    let bestN = -1;
    let bestQ = -Infinity;
    if (best < 0)
      keys.forEach((k, i) => {
        const ch = root.children.get(k);
        const n = ch ? ch.n : 0;
        const q = this.search!.childValue(root, k);
        if (n > bestN || (n === bestN && q > bestQ)) {
          best = i;
          bestN = n;
          bestQ = q;
        }
      });
    const alternatives: Alternative[] = keys
      .map((k) => ({ action: k, visits: root.children.get(k)?.n ?? 0, value: this.search!.childValue(root, k) }))
      .filter((a) => a.visits > 0)
      .sort((a, b) => b.visits - a.visits)
      .slice(0, 6);
    const q = this.search.childValue(root, keys[best]!);
    const odds = this.search.describeChance(root.children.get(keys[best]!), root.player);
    return {
      action: legal[best],
      explanation: {
        chosen: keys[best]!,
        winProbability: (q + 1) / 2,
        alternatives,
        text: `${stats.iterations} iterations in ${stats.ms.toFixed(0)} ms${choice !== undefined ? ` (sequential halving over ${Math.min(this.cfg.sh, legal.length)} moves)` : ''}${stats.settled ? ' (settled early)' : ''}${stats.reused ? ` (reused ${stats.reused} visits)` : ''}${odds ? `; ${odds}` : ''}`,
      },
      stats: {
        iterations: stats.iterations,
        ms: stats.ms,
        nodes: stats.nodes,
        reused: stats.reused,
        iterationsPerSecond: (stats.iterations * 1000) / Math.max(1e-3, stats.ms),
      },
    };
  }
}
