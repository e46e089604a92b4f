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
import type { AnyGame, ChanceOutcome } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import { hasHiddenInformation } from '../engine/core/views.ts';
import type { Agent, Alternative, Decision, DecisionContext } from './agent.ts';
import { IsMctsSearch } from './ismcts.ts';
import { type LeafMix, type LeafValue, type MctsConfig, SearchBase, type SearchStats } from './search-base.ts';

export { DEFAULT_MCTS, type LeafMix, type LeafValue, type MctsConfig } from './search-base.ts';

/**
 * A node of the tree: a decision ('d'), a chance node ('c') or a terminal position ('t'). One class for the three, so
 * the search's hot loop reads one shape.
 */
class Node {
  // the fields the selection loop reads first, so they share a cache line
  readonly kind: 'd' | 'c' | 't';
  /** Visits. */
  n: number;
  /** Sum of values for player 0. */
  w: number;
  /** A terminal position's value for player 0. */
  readonly v: number;
  /** A decision node's children aligned with `actions` (when it keeps its state, so `actions` is cached). */
  kids: (Node | undefined)[] | null;
  /** The player to move at a decision. */
  readonly player: number;
  /** The position (null under determinization). */
  readonly state: unknown;
  /** A decision node's actions in prior order (cached with the state). */
  actions: unknown[] | null;
  /** The keys of a decision node's `actions` (made when first asked for) or of a chance node's `outcomes`. */
  keys: string[] | null;
  /** A chance node's cached outcomes. */
  outcomes: ChanceOutcome<unknown>[] | null;
  /** Children by key: a chance node's, and a decision node's that keeps no state (its legal list is recomputed). */
  map: Map<string, Node> | null;
  /** A chance node's expanded outcomes. */
  expanded: number;
  /** Creation order in the search (the order children were added). */
  readonly seq: number;
  readonly game: AnyGame;
  /** A decision node's position hash, kept for tree reuse (made when the node is, with `reuse`). */
  hash: string | null;
  constructor(game: AnyGame, kind: 'd' | 'c' | 't', player: number, state: unknown, v: number, seq: number) {
    this.kind = kind;
    this.n = 0;
    this.w = 0;
    this.v = v;
    this.kids = null;
    this.player = player;
    this.state = state;
    this.actions = null;
    this.keys = null;
    this.outcomes = null;
    this.map = null;
    this.expanded = 0;
    this.seq = seq;
    this.game = game;
    this.hash = null;
  }

  /** The keys of a decision node's cached actions (or a chance node's outcomes), made once. */
  keyList(): string[] | null {
    if (this.keys || !this.actions) return this.keys;
    const keys: string[] = [];
    for (const a of this.actions) keys.push(this.game.actionKey(a));
    this.keys = keys;
    return keys;
  }

  /** Children by action or outcome key, in the order they were added (for reporting and tree walks, not the hot loop). */
  get children(): ReadonlyMap<string, Node> {
    if (this.map) return this.map;
    const m = new Map<string, Node>();
    const kids = this.kids;
    const keys = this.keyList();
    if (kids && keys) {
      const idx: number[] = [];
      for (let i = 0; i < kids.length; i++) if (kids[i]) idx.push(i);
      idx.sort((a, b) => kids[a]!.seq - kids[b]!.seq);
      for (const i of idx) m.set(keys[i]!, kids[i]!);
    }
    return m;
  }
}
type DecisionNode = Node;

/** Math.log(max(1, n)) for the visit counts most selections see, computed once (the same doubles, without the call). */
const LOG_TABLE = 1 << 16;
const LOGS = new Float64Array(LOG_TABLE);
for (let n = 1; n < LOG_TABLE; n++) LOGS[n] = Math.log(n);

/** MCTS for rulesets with perfect information (hidden information: `IsMctsSearch`). */
export class MctsSearch extends SearchBase {
  private root: Node | null = null;
  private nodes = 0;
  private seq = 0;
  private byHash = new Map<string, DecisionNode>();
  /** The current iteration's path, reused between iterations. */
  private readonly path: Node[] = [];

  private makeNode(s: unknown): Node {
    this.nodes++;
    const g = this.game;
    const tm = g.toMove(s);
    if (tm.kind === 'terminal') {
      const r = g.returns(s);
      return new Node(g, 't', -1, null, r[0]!, this.seq++);
    }
    if (tm.kind === 'chance') return new Node(g, 'c', -1, s, 0, this.seq++);
    const node = new Node(g, 'd', tm.player, s, 0, this.seq++);
    if (s !== null && this.cfg.reuse) {
      node.hash = hashHex(g.hash(s));
      this.byHash.set(node.hash, node);
    }
    return node;
  }

  /** Value of a node for player 0: the exact expectation at a fully expanded chance node. */
  private value(n: Node): number {
    if (n.kind === 't') return n.v;
    if (n.kind === 'c' && n.outcomes && n.keys && n.expanded === n.outcomes.length) {
      const map = n.map!;
      let v = 0;
      for (let i = 0; i < n.outcomes.length; i++) v += n.outcomes[i]!.p * this.value(map.get(n.keys[i]!)!);
      return v;
    }
    return n.n ? n.w / n.n : 0;
  }

  /** A node's child by key (what `children.get` gives, without building the map). */
  private child(node: Node, key: string): Node | undefined {
    if (node.map) return node.map.get(key);
    const kids = node.kids;
    const keys = node.keyList();
    if (!kids || !keys) return undefined;
    let found: Node | undefined;
    for (let i = 0; i < keys.length; i++) {
      const c = kids[i];
      if (c && keys[i] === key && (!found || c.seq > found.seq)) found = c;
    }
    return found;
  }

  /** A decision node's actions in prior order with their keys (cached when the node keeps its state). */
  private actionsAt(node: DecisionNode, s: unknown): { actions: unknown[]; keys: string[] } {
    if (node.state !== null) {
      const actions = node.actions ?? this.cacheActions(node, s);
      return { actions, keys: node.keyList()! };
    }
    const actions = this.orderActions(s, this.game.legalActions(s) as unknown[], node.player);
    const keys: string[] = [];
    for (let i = 0; i < actions.length; i++) keys.push(this.game.actionKey(actions[i]));
    return { actions, keys };
  }

  /** Orders and keeps the actions of a decision node that keeps its state, with room for their children. */
  private cacheActions(node: DecisionNode, s: unknown): unknown[] {
    const actions = this.orderActions(s, this.game.legalActions(s) as unknown[], node.player);
    node.actions = actions;
    const kids: (Node | undefined)[] = [];
    for (let i = 0; i < actions.length; i++) kids.push(undefined);
    node.kids = kids;
    return actions;
  }

  /**
   * One iteration from the root state `rs`; `forced` names the root action to go through and its visit number.
   * Written for speed: no closures or allocations of its own (`path` is reused); a decision node that keeps its state
   * keeps its ordered actions, their keys and its children in arrays.
   */
  private iterate(rs: unknown, forced?: { key: string; k: number }): void {
    const g = this.game;
    const cfg = this.cfg;
    const path = this.path;
    let len = 0;
    let node = this.root!;
    let s = rs;
    let v = 0;
    for (;;) {
      path[len++] = node;
      if (node.kind === 't') {
        v = node.v;
        break;
      }
      if (node.state !== null) s = node.state;
      if (node.kind === 'c') {
        let outs = node.outcomes;
        let okeys = node.keys;
        if (!outs || !okeys) {
          outs = g.chanceOutcomes(s) as ChanceOutcome<unknown>[];
          okeys = [];
          for (let i = 0; i < outs.length; i++) okeys.push(g.actionKey(outs[i]!.action));
          if (node.state !== null) {
            node.outcomes = outs;
            node.keys = okeys;
          }
        }
        const i = this.sampleIndex(outs);
        let map = node.map;
        if (!map) map = node.map = new Map();
        const child = map.get(okeys[i]!);
        if (!child) {
          const next = g.applyUnchecked(s, outs[i]!.action);
          const made = this.makeNode(next);
          map.set(okeys[i]!, made);
          node.expanded++;
          path[len++] = made;
          v = this.evaluateLeaf(next);
          break;
        }
        // a child that keeps its state (or a terminal one) needs no step: positions are immutable, the step would give
        // the state it keeps
        if (child.state === null && child.kind !== 't') s = g.applyUnchecked(s, outs[i]!.action);
        node = child;
        continue;
      }
      // decision node
      // a node that keeps its state keeps its actions (their keys are made only when asked for) and its children in
      // `kids`, aligned with them; one that does not has them recomputed at each visit, its children in `map`
      let actions = node.actions;
      let keys: string[] | null = null;
      if (node.state === null) ({ actions, keys } = this.actionsAt(node, s));
      else if (!actions) actions = this.cacheActions(node, s);
      const kids = node.kids;
      const map = node.map;
      const atRoot = len === 1;
      let pick = -1; // an action to expand
      let best = -1; // a child to go down into
      if (forced && atRoot) {
        // sequential halving chose the root action
        const i = (keys ?? node.keyList()!).indexOf(forced.key);
        if (i < 0) throw new Error(`mcts: root action ${forced.key} is not legal in this determinization`);
        if (kids ? kids[i] === undefined : !map?.has(keys![i]!)) pick = i;
        else best = i;
      } else {
        const allowed =
          cfg.widenK > 0
            ? Math.min(actions.length, Math.max(1, Math.floor(cfg.widenK * Math.pow(node.n + 1, cfg.widenAlpha))))
            : actions.length;
        for (let i = 0; i < allowed; i++)
          if (kids ? kids[i] === undefined : !map?.has(keys![i]!)) {
            pick = i;
            break;
          }
        if (pick < 0) {
          // UCT among the allowed children, from the mover's point of view
          const sign = node.player === 0 ? 1 : -1;
          const logN = node.n < LOG_TABLE ? LOGS[node.n]! : Math.log(node.n);
          const c = cfg.c;
          let bestScore = -Infinity;
          for (let i = 0; i < allowed; i++) {
            const ch = kids ? kids[i]! : map!.get(keys![i]!)!;
            // the value of a child (`value`, inlined but for a chance node's exact expectation)
            const q = sign * (ch.kind === 'd' ? (ch.n ? ch.w / ch.n : 0) : ch.kind === 't' ? ch.v : this.value(ch));
            const u = q + c * Math.sqrt(logN / Math.max(1, ch.n));
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
        const made = this.makeNode(next);
        if (kids) kids[pick] = made;
        else (map ?? (node.map = new Map())).set(keys![pick]!, made);
        path[len++] = made;
        v = this.evaluateLeaf(next);
        break;
      }
      node = kids ? kids[best]! : map!.get(keys![best]!)!;
      if (node.state === null && node.kind !== 't') s = g.applyUnchecked(s, actions[best]); // else as above
      // paired dice: the root action's k-th visit (numbered by sequential halving, else by the child's visits)
      if (atRoot) this.pair(forced ? forced.k : node.n);
      if (node.kind === 't') {
        path[len++] = node;
        v = node.v;
        break;
      }
    }
    for (let i = 0; i < len; i++) {
      const n = path[i]!;
      n.n++;
      n.w += v;
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
          if (n.state !== null) this.byHash.set(n.hash ?? (n.hash = hashHex(g.hash(n.state))), n);
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
      const c = this.child(root, k);
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
        if (spent && this.child(root, k)?.n && (last || i === 0)) break;
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
    const ch = this.child(root, key);
    if (!ch) return 0;
    return (root.player === 0 ? 1 : -1) * this.value(ch);
  }

  describeChance(node: Node | undefined, player: number): string | undefined {
    if (!node || node.kind !== 'c' || !node.outcomes || !node.keys) return undefined;
    const sign = player === 0 ? 1 : -1;
    const okeys = node.keys;
    const outs = node.outcomes
      .map((o, i) => ({ o, i }))
      .sort((a, b) => b.o.p - a.o.p)
      .slice(0, 4)
      .map(({ o, i }) => {
        const c = node.map?.get(okeys[i]!);
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
      const children = r.root.children;
      visits = (k) => children.get(k)?.n ?? 0;
      value = (k) => m.childValue(r.root, k);
      odds = (k) => m.describeChance(children.get(k), r.root.player);
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
