/**
 * Monte Carlo tree search over the engine's `Game` interface, for two-player zero-sum games with dice.
 *
 * - Decision nodes select by UCT from the point of view of the player to move.
 * - Chance nodes sample an outcome from the node's exact distribution with the agent's own RNG; once every outcome
 *   has a child, the node's value is the exact expectation Σ p·Q instead of the sample mean.
 * - Hidden information: the agent searches a ruleset that declares it (`viewAction`, `hidden`) with `IsMctsSearch`
 *   (agents/ismcts.ts), which cannot cheat; this search is for perfect information.
 * - Progressive widening: a decision node considers its first ⌈k·N^α⌉ actions, ordered by the ruleset's scripted
 *   preferences when it has them (random order otherwise).
 * - Leaves: random rollout, heuristic rollout (ε-greedy over the scripted preferences), or a truncated rollout of
 *   `depth` plies followed by the ruleset's evaluation (optionally played on to a quiet position first).
 * - Budgets by iterations (deterministic for a seed) or milliseconds; the tree is reused between decisions when the
 *   new position is in it; a single legal action is returned without search.
 */
import type { ChanceOutcome } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import { hasHiddenInformation } from '../engine/core/views.ts';
import type { Agent, Alternative, Decision, DecisionContext } from './agent.ts';
import { IsMctsSearch } from './ismcts.ts';
import { type LeafMix, type LeafValue, type MctsConfig, SearchBase, type SearchStats } from './search-base.ts';

export { DEFAULT_MCTS, type LeafMix, type LeafValue, type MctsConfig } from './search-base.ts';

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
  n: number;
  w: number;
}

/** MCTS for rulesets with perfect information (hidden information: `IsMctsSearch`). */
export class MctsSearch extends SearchBase {
  private root: Node | null = null;
  private nodes = 0;
  private byHash = new Map<string, DecisionNode>();

  private makeNode(s: unknown): Node {
    this.nodes++;
    const g = this.game;
    const tm = g.toMove(s);
    if (tm.kind === 'terminal') {
      const r = g.returns(s);
      return { kind: 't', v: r[0]!, n: 0, w: 0 };
    }
    const keep = s;
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
    if (n.kind === 't') return n.v;
    if (n.kind === 'c' && n.outcomes && n.okeys && n.expanded === n.outcomes.length) {
      let v = 0;
      for (let i = 0; i < n.outcomes.length; i++) v += n.outcomes[i]!.p * this.value(n.children.get(n.okeys[i]!)!);
      return v;
    }
    return n.n ? n.w / n.n : 0;
  }

  /** A decision node's actions in prior order with their keys (cached when the node keeps its state). */
  private actionsAt(node: DecisionNode, s: unknown): { actions: unknown[]; keys: string[] } {
    if (node.state !== null && node.actions && node.keys) return { actions: node.actions, keys: node.keys };
    const actions = this.orderActions(s, this.game.legalActions(s) as unknown[], node.player);
    const keys = actions.map((a) => this.game.actionKey(a));
    if (node.state !== null) {
      node.actions = actions;
      node.keys = keys;
    }
    return { actions, keys };
  }

  /** One iteration from the root state `rs`; `forced` names the root action to go through and its visit number. */
  private iterate(rs: unknown, forced?: { key: string; k: number }): void {
    const g = this.game;
    const path: Node[] = [];
    let node = this.root!;
    let s = rs;
    let v: number | null = null;
    for (;;) {
      path.push(node);
      if (node.kind === 't') {
        v = node.v;
        break;
      }
      if (node.kind === 'c') {
        if (node.state !== null) s = node.state;
        let outs = node.outcomes;
        let okeys = node.okeys;
        if (!outs || !okeys) {
          outs = g.chanceOutcomes(s) as ChanceOutcome<unknown>[];
          okeys = outs.map((o) => g.actionKey(o.action));
          if (node.state !== null) {
            node.outcomes = outs;
            node.okeys = okeys;
          }
        }
        const i = this.sampleIndex(outs);
        const next = g.applyUnchecked(s, outs[i]!.action);
        let child = node.children.get(okeys[i]!);
        if (!child) {
          child = this.makeNode(next);
          node.children.set(okeys[i]!, child);
          node.expanded++;
          path.push(child);
          s = next;
          v = this.evaluateLeaf(next);
          break;
        }
        s = next;
        node = child;
        continue;
      }
      // decision node
      if (node.state !== null) s = node.state;
      const cached = node.state !== null;
      const { actions, keys } = this.actionsAt(node, s);
      const atRoot = path.length === 1;
      const d = node;
      const unexpanded = (i: number) => (cached ? d.kids[i] === undefined : !d.children.has(keys[i]!));
      let pick = -1; // an action to expand
      let best = -1; // a child to go down into
      if (forced && atRoot) {
        // sequential halving chose the root action
        const i = keys.indexOf(forced.key);
        if (i < 0) throw new Error(`mcts: root action ${forced.key} is not legal in this determinization`);
        if (unexpanded(i)) pick = i;
        else best = i;
      } else {
        const allowed =
          this.cfg.widenK > 0
            ? Math.min(
                actions.length,
                Math.max(1, Math.floor(this.cfg.widenK * Math.pow(node.n + 1, this.cfg.widenAlpha))),
              )
            : actions.length;
        for (let i = 0; i < allowed; i++)
          if (unexpanded(i)) {
            pick = i;
            break;
          }
        if (pick < 0) {
          // UCT among the allowed children, from the mover's point of view
          const sign = node.player === 0 ? 1 : -1;
          const logN = Math.log(Math.max(1, node.n));
          let bestScore = -Infinity;
          for (let i = 0; i < allowed; i++) {
            const ch = cached ? node.kids[i]! : node.children.get(keys[i]!)!;
            const q = sign * this.value(ch);
            const u = q + this.cfg.c * Math.sqrt(logN / Math.max(1, ch.n));
            if (u > bestScore) {
              bestScore = u;
              best = i;
            }
          }
        }
      }
      if (pick >= 0) {
        if (atRoot) this.pair(forced ? forced.k : 0);
        const next = g.applyUnchecked(s, actions[pick]);
        const child = this.makeNode(next);
        node.children.set(keys[pick]!, child);
        if (cached) node.kids[pick] = child;
        path.push(child);
        s = next;
        v = this.evaluateLeaf(next);
        break;
      }
      s = g.applyUnchecked(s, actions[best]);
      node = cached ? node.kids[best]! : node.children.get(keys[best]!)!;
      // paired dice: the root action's k-th visit (numbered by sequential halving, else by the child's visits)
      if (atRoot) this.pair(forced ? forced.k : node.n);
      if (node.kind === 't') {
        path.push(node);
        v = node.v;
        break;
      }
    }
    for (const n of path) {
      n.n++;
      n.w += v!;
    }
    this.draw = this.rng;
  }

  /** Search from `state` for the player to move and return the root's children statistics. */
  search(
    state: unknown,
    budget: { iterations?: number; ms?: number },
  ): { root: DecisionNode; stats: SearchStats; choice?: string } {
    const g = this.game;
    const t0 = performance.now();
    let reused = 0;
    let root: Node | undefined;
    if (this.cfg.reuse) {
      const found = this.byHash.get(hashHex(g.hash(state)));
      if (found) {
        root = found;
        reused = found.n;
      }
    }
    this.byHash = new Map();
    if (!root) {
      this.nodes = 0;
      root = this.makeNode(state);
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
    if (this.cfg.paired) this.pairBase = Math.floor(this.rng() * 0x100000000); // drawn only when used: unpaired searches keep their sequence
    const ms = budget.ms ?? this.cfg.ms;
    const iters = budget.iterations ?? this.cfg.iterations;
    if (this.cfg.sh >= 2) {
      const { done, choice } = this.halving(root, state, t0, ms, iters);
      return {
        root,
        stats: { iterations: done, ms: performance.now() - t0, nodes: this.nodes, reused, settled: false },
        choice,
      };
    }
    let done = 0;
    let settled = false;
    for (;;) {
      if (ms !== undefined) {
        // checked every iteration: with whole-game rollouts one iteration can take tens of milliseconds
        const el = performance.now() - t0;
        if (el >= ms) break;
        if (
          this.cfg.early &&
          done >= 16 &&
          (done & 7) === 0 &&
          this.settled(root, ((ms - el) * done) / Math.max(el, 1e-3))
        ) {
          settled = true;
          break;
        }
      } else if (done >= iters) break;
      this.iterate(state);
      done++;
    }
    return { root, stats: { iterations: done, ms: performance.now() - t0, nodes: this.nodes, reused, settled } };
  }

  /**
   * Sequential halving over the root's first `sh` actions in prior order: ⌈log₂ m⌉ rounds of equal budget (time or
   * iterations); in each the survivors are visited in turn, each visit numbered for paired dice, and the worse half by
   * mean value (for the mover; ties to the prior order) is dropped. Every candidate is visited at least once.
   */
  private halving(
    root: DecisionNode,
    state: unknown,
    t0: number,
    ms: number | undefined,
    iters: number,
  ): { done: number; choice: string } {
    const { keys } = this.actionsAt(root, root.state ?? state);
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
        this.iterate(state, { key: k, k: visits.get(k)! });
        visits.set(k, visits.get(k)! + 1);
        done++;
      }
      const order = alive.map((k, i) => ({ k, i, q: mean(k) })).sort((a, b) => b.q - a.q || a.i - b.i);
      alive = order.slice(0, Math.ceil(alive.length / 2)).map((o) => o.k);
    }
    return { done, choice: alive[0]! };
  }

  /** Is the most-visited root child out of reach: ahead of the runner-up by more than `remaining` more iterations could make up? */
  private settled(root: DecisionNode, remaining: number): boolean {
    let first = 0;
    let second = 0;
    for (const c of root.children.values()) {
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
  private search: MctsSearch | IsMctsSearch | null = null;
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
      this.search = hasHiddenInformation(game)
        ? new IsMctsSearch(game, this.cfg, ctx.rng, this.leafValue, this.mix)
        : new MctsSearch(game, this.cfg, ctx.rng, this.leafValue, this.mix);
    let visits: (k: string) => number;
    let value: (k: string) => number;
    let odds: (k: string) => string | undefined = () => undefined;
    let stats: SearchStats;
    let choice: string | undefined;
    if (this.search instanceof IsMctsSearch) ({ stats, visits, value } = this.search.search(ctx.state, ctx.budget));
    else {
      const m = this.search;
      const r = m.search(ctx.state, ctx.budget);
      ({ stats, choice } = r);
      visits = (k) => r.root.children.get(k)?.n ?? 0;
      value = (k) => m.childValue(r.root, k);
      odds = (k) => m.describeChance(r.root.children.get(k), r.root.player);
    }
    const keys = legal.map((a) => game.actionKey(a));
    let best = choice !== undefined ? keys.indexOf(choice) : -1;
    if (choice !== undefined && best < 0)
      throw new Error(`mcts: sequential halving chose ${choice}, which is not legal here`);
    let bestN = -1;
    let bestQ = -Infinity;
    if (best < 0)
      keys.forEach((k, i) => {
        const n = visits(k);
        const q = value(k);
        if (n > bestN || (n === bestN && q > bestQ)) {
          best = i;
          bestN = n;
          bestQ = q;
        }
      });
    const alternatives: Alternative[] = keys
      .map((k) => ({ action: k, visits: visits(k), value: value(k) }))
      .filter((a) => a.visits > 0)
      .sort((a, b) => b.visits - a.visits)
      .slice(0, 6);
    const q = value(keys[best]!);
    const o = odds(keys[best]!);
    return {
      action: legal[best],
      explanation: {
        chosen: keys[best]!,
        winProbability: (q + 1) / 2,
        alternatives,
        text: `${stats.iterations} iterations in ${stats.ms.toFixed(0)} ms${choice !== undefined ? ` (sequential halving over ${Math.min(this.cfg.sh, legal.length)} moves)` : ''}${stats.settled ? ' (settled early)' : ''}${stats.reused ? ` (reused ${stats.reused} visits)` : ''}${o ? `; ${o}` : ''}`,
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
