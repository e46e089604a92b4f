/**
 * Information-set Monte Carlo tree search for rulesets with hidden information (sealed bids, written orders, cards):
 * a search that cannot cheat. The `mcts` agent uses it for every ruleset that declares `viewAction` or `hidden`;
 * perfect-information rulesets keep `MctsSearch`, its speed and its results.
 *
 * - One tree per player (multi-observer ISMCTS, Cowling, Powley and Whitehouse 2012). A node of player q's tree stands
 *   for what q knows: its children are keyed by q's view of each step (`viewAction`: another player's sealed choice
 *   reads as the same redacted text whatever it was) refined by the hash of what q observes after it, so a reveal is
 *   told apart. The player to move selects by UCT over its own node's per-action statistics, so its choice cannot
 *   depend on anything it did not see; the other trees only follow.
 * - Hiddenness is decided per state: a state where nothing is hidden from anyone is a public node, one node shared by
 *   every tree and found by the state's hash. It keeps its state and its ordered actions, and public nodes are kept
 *   between decisions (tree reuse), so the public stretches of a game (most of one) are searched as cheaply as
 *   perfect information is.
 * - The root: a position the searcher cannot see whole is re-drawn from its point of view at every iteration
 *   (`sampleState`); inside an open round of sealed choices that holds another player's choice the search restarts at
 *   the round's start (`sealedRound`), replaying the searcher's own earlier choices of the round, while the others
 *   choose by their own trees: what it thinks they chose never depends on what they chose, and on a simultaneous round
 *   this is decoupled UCT. The searcher's decision is the node its tree reaches after the replay.
 * - The other players' scripted priors and rollout moves are scored on a state re-drawn from their point of view.
 * - Chance nodes sample (no exact expectation); sequential halving and paired dice are perfect-information options
 *   and are not used here.
 */
import type { AnyGame } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import { observationHash } from '../engine/core/views.ts';
import { type Replayed, searchRoot } from './sealed-restart.ts';
import { type LeafMix, type LeafValue, type MctsConfig, SearchBase, type SearchStats } from './search-base.ts';

interface Edge {
  n: number;
  /** Sum of values for player 0. */
  w: number;
}

interface INode {
  n: number;
  /** Sum of values for player 0. */
  w: number;
  /** Per action of the node's mover (by key), when its owner moves here. */
  readonly edges: Map<string, Edge>;
  /** By what the owner sees of a step and observes after it. */
  readonly children: Map<string, INode>;
  /** A public node's state (null for the others, whose state differs between iterations). */
  readonly state: unknown;
  actions: unknown[] | null;
  keys: string[] | null;
  /** The last iteration that counted this node (so a node shared by several trees is counted once). */
  stamp: number;
}

/** Public nodes kept between decisions, at most. */
const KEEP = 500_000;

const inode = (state: unknown): INode => ({
  n: 0,
  w: 0,
  edges: new Map(),
  children: new Map(),
  state,
  actions: null,
  keys: null,
  stamp: 0,
});

export class IsMctsSearch extends SearchBase {
  private publicNodes = new Map<string, INode>();
  /** Each player's root nodes, by what it observes of the iteration's root state. */
  private roots: Map<string, INode>[] = [];
  private searcher = 0;
  private decision: INode | null = null;
  private stamp = 0;
  private nodes = 0;

  constructor(game: AnyGame, cfg: MctsConfig, rng: () => number, leafValue?: LeafValue, mix?: LeafMix) {
    super(game, cfg, rng, leafValue, mix);
    if (game.viewAction && !game.hidden)
      throw new Error(
        `ismcts: ruleset ${game.id} redacts actions (viewAction) but does not say what is hidden (hidden)`,
      );
  }

  private obs(s: unknown, q: number): string {
    return hashHex(observationHash(this.game, s, q));
  }

  /** Nothing in `s` is hidden from anyone. */
  private isPublic(s: unknown): boolean {
    const g = this.game;
    for (let q = 0; q < g.players.length; q++) if (g.hidden!(s, q)) return false;
    return true;
  }

  private publicNode(s: unknown): { node: INode; fresh: boolean } {
    const h = hashHex(this.game.hash(s));
    const found = this.publicNodes.get(h);
    if (found) return { node: found, fresh: false };
    const node = inode(s);
    this.nodes++;
    this.publicNodes.set(h, node);
    return { node, fresh: true };
  }

  /** The mover's actions at `node` in prior order, with their keys (cached at public nodes). */
  private actionsAt(node: INode, s: unknown, mover: number): { actions: unknown[]; keys: string[] } {
    if (node.actions && node.keys) return { actions: node.actions, keys: node.keys };
    const actions = this.orderActions(s, this.game.legalActions(s) as unknown[], mover);
    const keys = actions.map((a) => this.game.actionKey(a));
    if (node.state !== null) {
      node.actions = actions;
      node.keys = keys;
    }
    return { actions, keys };
  }

  /** Progressive widening, then UCT over the node's per-action statistics from the mover's point of view. */
  private select(node: INode, keys: readonly string[], mover: number): number {
    const allowed =
      this.cfg.widenK > 0
        ? Math.min(keys.length, Math.max(1, Math.floor(this.cfg.widenK * Math.pow(node.n + 1, this.cfg.widenAlpha))))
        : keys.length;
    for (let i = 0; i < allowed; i++) if (!node.edges.has(keys[i]!)) return i;
    const sign = mover === 0 ? 1 : -1;
    const logN = Math.log(Math.max(1, node.n));
    let best = 0;
    let bestScore = -Infinity;
    for (let i = 0; i < allowed; i++) {
      const e = node.edges.get(keys[i]!)!;
      const u = (sign * e.w) / Math.max(1, e.n) + this.cfg.c * Math.sqrt(logN / Math.max(1, e.n));
      if (u > bestScore) {
        bestScore = u;
        best = i;
      }
    }
    return best;
  }

  /** Each player's node at the iteration's root state. */
  private rootsFor(rs: unknown): INode[] {
    const g = this.game;
    if (this.isPublic(rs)) {
      const { node } = this.publicNode(rs);
      return g.players.map(() => node);
    }
    return g.players.map((_, q) => {
      const k = this.obs(rs, q);
      let n = this.roots[q]!.get(k);
      if (!n) {
        n = inode(null);
        this.nodes++;
        this.roots[q]!.set(k, n);
      }
      return n;
    });
  }

  /** Step every tree by what its player sees of `a` (key `key`, by `mover`, -1 for chance) from `s` to `next`. */
  private step(cur: INode[], s: unknown, a: unknown, key: string, mover: number, next: unknown): boolean {
    const g = this.game;
    if (this.isPublic(next)) {
      const { node, fresh } = this.publicNode(next);
      cur.fill(node);
      return fresh;
    }
    let fresh = false;
    for (let q = 0; q < cur.length; q++) {
      const view = q === mover || !g.viewAction ? key : g.viewAction(s, a, q);
      const k = `${view}\n${this.obs(next, q)}`;
      const n = cur[q]!;
      let c = n.children.get(k);
      if (!c) {
        c = inode(null);
        this.nodes++;
        n.children.set(k, c);
        fresh = true;
      }
      cur[q] = c;
    }
    return fresh;
  }

  private iterate(rs: unknown, replay?: readonly Replayed[]): void {
    const g = this.game;
    const stamp = ++this.stamp;
    const nodes: INode[] = [];
    const edges: Edge[] = [];
    const count = (cur: readonly INode[]) => {
      for (const n of cur)
        if (n.stamp !== stamp) {
          n.stamp = stamp;
          nodes.push(n);
        }
    };
    const cur = this.rootsFor(rs);
    count(cur);
    let s = rs;
    let r = 0;
    let prelude = !!replay; // restarting before the decision: every step is taken, none is a leaf
    if (!prelude && this.decision === null) this.decision = cur[this.searcher]!;
    let v: number;
    for (;;) {
      const tm = g.toMove(s);
      if (tm.kind === 'terminal') {
        v = g.returns(s)[0]!;
        break;
      }
      let a: unknown;
      let key: string;
      let mover = -1;
      let expand = false;
      if (tm.kind === 'chance') {
        const outs = g.chanceOutcomes(s);
        a = outs[this.sampleIndex(outs)]!.action;
        key = g.actionKey(a);
      } else {
        mover = tm.player;
        const sel = cur[mover]!;
        if (prelude && r === replay!.length) {
          // the restart has reached the searcher's decision: the same node of its tree at every iteration
          prelude = false;
          if (this.decision === null) this.decision = sel;
          else if (this.decision !== sel) throw new Error('ismcts: the restarted round reached a different decision');
        }
        const { actions, keys } = this.actionsAt(sel, s, mover);
        let i: number;
        const c = prelude ? replay![r++]! : undefined;
        if (c && c.player === this.searcher) {
          i = keys.indexOf(c.key);
          if (i < 0) throw new Error(`ismcts: the replayed action ${c.key} is not legal in this determinization`);
        } else i = this.select(sel, keys, mover);
        a = actions[i];
        key = keys[i]!;
        let e = sel.edges.get(key);
        if (!e) {
          e = { n: 0, w: 0 };
          sel.edges.set(key, e);
          expand = !prelude;
        }
        edges.push(e);
      }
      const next = g.applyUnchecked(s, a);
      const fresh = this.step(cur, s, a, key, mover, next);
      count(cur);
      s = next;
      if (expand || (fresh && mover < 0 && !prelude)) {
        v = g.toMove(s).kind === 'terminal' ? g.returns(s)[0]! : this.evaluateLeaf(s);
        break;
      }
    }
    for (const n of nodes) {
      n.n++;
      n.w += v;
    }
    for (const e of edges) {
      e.n++;
      e.w += v;
    }
  }

  /** Search from `state` for the player to move; the decision's statistics by action key. */
  search(
    state: unknown,
    budget: { iterations?: number; ms?: number },
  ): { stats: SearchStats; visits: (key: string) => number; value: (key: string) => number } {
    const g = this.game;
    const t0 = performance.now();
    const tm = g.toMove(state);
    if (tm.kind !== 'player') throw new Error('ismcts: search called at a state that is not a decision');
    const player = tm.player;
    this.searcher = player;
    const root = searchRoot(g, state, player, this.rng);
    const replay = root.replay;
    const rootState = root.draw;
    if (!this.cfg.reuse || this.publicNodes.size > KEEP) this.publicNodes = new Map();
    const rs0 = rootState();
    const kept = this.isPublic(rs0) ? this.publicNodes.get(hashHex(g.hash(rs0))) : undefined;
    const reused = kept?.n ?? 0;
    if (!kept) this.nodes = 0;
    this.roots = g.players.map(() => new Map());
    this.decision = null;
    const ms = budget.ms ?? this.cfg.ms;
    const iters = budget.iterations ?? this.cfg.iterations;
    let done = 0;
    let settled = false;
    let keys: string[] | undefined;
    for (;;) {
      if (ms !== undefined) {
        const el = performance.now() - t0;
        if (el >= ms && done > 0) break;
        if (this.cfg.early && done >= 16 && (done & 7) === 0) {
          keys ??= g.legalActions(state).map((a: unknown) => g.actionKey(a));
          if (this.settled(keys, ((ms - el) * done) / Math.max(el, 1e-3))) {
            settled = true;
            break;
          }
        }
      } else if (done >= iters && done > 0) break;
      this.iterate(done === 0 ? rs0 : rootState(), replay);
      done++;
    }
    const d = this.decision!;
    const sign = player === 0 ? 1 : -1;
    return {
      stats: { iterations: done, ms: performance.now() - t0, nodes: this.nodes, reused, settled },
      visits: (k) => d.edges.get(k)?.n ?? 0,
      value: (k) => {
        const e = d.edges.get(k);
        return e && e.n ? (sign * e.w) / e.n : 0;
      },
    };
  }

  /** Is the most-visited action out of reach of the runner-up in `remaining` more iterations? */
  private settled(keys: readonly string[], remaining: number): boolean {
    const d = this.decision;
    if (!d) return false;
    let first = 0;
    let second = 0;
    for (const k of keys) {
      const n = d.edges.get(k)?.n ?? 0;
      if (n > first) {
        second = first;
        first = n;
      } else if (n > second) second = n;
    }
    return first - second > remaining;
  }
}
