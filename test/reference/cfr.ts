/**
 * Tabular counterfactual regret minimisation (CFR+: regret matching+, alternating updates, linearly weighted average
 * strategy) over any small two-player zero-sum `Game`, by full traversal with every chance outcome enumerated at its
 * probability. A test tool for hidden information: information sets are keyed by the acting player's
 * `observationHash(game, s, player)`, so the solution is only right when `observe` shows the player exactly what it
 * may see. An observation that leaks a hidden card merges nothing and solves a different (perfect-information) game;
 * one that forgets something the player saw merges states that should stay apart.
 *
 * The game tree is built once (it must be small: Kuhn poker, a few cards of Goofspiel); `returns(s)[0]` is player 0's
 * payoff and player 1's is its negation.
 */
import type { AnyGame } from '../../engine/core/game.ts';
import { hashHex } from '../../engine/core/hash.ts';
import { observationHash } from '../../engine/core/views.ts';

type Node =
  | { readonly kind: 'terminal'; readonly u0: number }
  | { readonly kind: 'chance'; readonly children: readonly number[]; readonly probs: readonly number[] }
  | {
      readonly kind: 'player';
      readonly player: number;
      readonly infoset: number;
      readonly children: readonly number[];
    };

interface Infoset {
  readonly key: string;
  readonly player: number;
  readonly actions: readonly string[];
  /** What the player sees there, for people reading a solution. */
  readonly label: string;
  readonly regret: Float64Array;
  /** This pass's counterfactual regrets, added to `regret` when the pass ends (every state sees the same strategy). */
  readonly pending: Float64Array;
  readonly strategySum: Float64Array;
}

export interface CfrResult {
  /** Expected payoff to player 0 when both play the average strategy (computed exactly over the tree). */
  readonly value: number;
  /** How much a best response gains against the average strategy, summed over both players (0 at an equilibrium). */
  readonly exploitability: number;
  /** The average strategy per information set (key: player and observation hash), per action key. */
  readonly strategy: Readonly<
    Record<string, { readonly player: number; readonly label: string; readonly probs: Record<string, number> }>
  >;
  readonly iterations: number;
  readonly nodes: number;
  readonly infosets: number;
}

/** Solve `game` from the initial state of `scenario` with `iterations` CFR+ iterations. */
export function solveCfr(game: AnyGame, scenario: unknown, iterations: number): CfrResult {
  const nodes: Node[] = [];
  const infosets: Infoset[] = [];
  const byKey = new Map<string, number>();

  function build(s: unknown): number {
    const id = nodes.length;
    nodes.push({ kind: 'terminal', u0: 0 }); // placeholder, filled in below
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') {
      const r = game.returns(s);
      if (Math.abs(r[0]! + r[1]!) > 1e-12) throw new Error(`not zero-sum at a terminal: ${JSON.stringify(r)}`);
      nodes[id] = { kind: 'terminal', u0: r[0]! };
    } else if (tm.kind === 'chance') {
      const outs = game.chanceOutcomes(s);
      const children = outs.map((o) => build(game.applyUnchecked(s, o.action)));
      nodes[id] = { kind: 'chance', children, probs: outs.map((o) => o.p) };
    } else {
      const p = tm.player;
      const legal = game.legalActions(s);
      const actions = legal.map((a) => game.actionKey(a));
      const key = `${p}:${hashHex(observationHash(game, s, p))}`;
      let ix = byKey.get(key);
      if (ix === undefined) {
        ix = infosets.length;
        byKey.set(key, ix);
        const n = actions.length;
        const label = game.render(s, p);
        infosets.push({
          key,
          player: p,
          actions,
          label,
          regret: new Float64Array(n),
          pending: new Float64Array(n),
          strategySum: new Float64Array(n),
        });
      } else if (infosets[ix]!.actions.join('|') !== actions.join('|'))
        throw new Error(`information set ${key}: legal actions differ between states the player cannot tell apart`);
      const children = legal.map((a) => build(game.applyUnchecked(s, a)));
      nodes[id] = { kind: 'player', player: p, infoset: ix, children };
    }
    return id;
  }
  const root = build(game.initialState(scenario));

  /** Regret matching+: play in proportion to positive regret, uniformly when there is none. */
  function current(I: Infoset, out: Float64Array): void {
    let sum = 0;
    for (let k = 0; k < out.length; k++) sum += out[k] = Math.max(0, I.regret[k]!);
    for (let k = 0; k < out.length; k++) out[k] = sum > 0 ? out[k]! / sum : 1 / out.length;
  }
  function average(I: Infoset): Float64Array {
    const n = I.actions.length;
    let sum = 0;
    for (let k = 0; k < n; k++) sum += I.strategySum[k]!;
    return I.strategySum.map((x) => (sum > 0 ? x / sum : 1 / n));
  }

  /** One CFR+ pass updating `i`'s regrets: returns the value to `i` of the subtree under the current strategies. */
  function walk(id: number, i: number, reachI: number, reachO: number, weight: number): number {
    const n = nodes[id]!;
    if (n.kind === 'terminal') return i === 0 ? n.u0 : -n.u0;
    if (n.kind === 'chance') {
      let v = 0;
      for (let k = 0; k < n.children.length; k++)
        v += n.probs[k]! * walk(n.children[k]!, i, reachI, reachO * n.probs[k]!, weight);
      return v;
    }
    const I = infosets[n.infoset]!;
    const sigma = new Float64Array(n.children.length);
    current(I, sigma);
    if (n.player !== i) {
      let v = 0;
      for (let k = 0; k < sigma.length; k++)
        v += sigma[k]! * walk(n.children[k]!, i, reachI, reachO * sigma[k]!, weight);
      return v;
    }
    const vs = new Float64Array(sigma.length);
    let v = 0;
    for (let k = 0; k < sigma.length; k++) {
      vs[k] = walk(n.children[k]!, i, reachI * sigma[k]!, reachO, weight);
      v += sigma[k]! * vs[k]!;
    }
    for (let k = 0; k < sigma.length; k++) {
      I.pending[k]! += reachO * (vs[k]! - v);
      I.strategySum[k]! += weight * reachI * sigma[k]!;
    }
    return v;
  }

  for (let t = 1; t <= iterations; t++)
    for (const i of [0, 1]) {
      walk(root, i, 1, 1, t);
      for (const I of infosets)
        if (I.player === i)
          for (let k = 0; k < I.regret.length; k++) {
            I.regret[k] = Math.max(0, I.regret[k]! + I.pending[k]!);
            I.pending[k] = 0;
          }
    }

  const avg = infosets.map(average);
  function evaluate(id: number): number {
    const n = nodes[id]!;
    if (n.kind === 'terminal') return n.u0;
    const probs = n.kind === 'chance' ? n.probs : avg[n.infoset]!;
    let v = 0;
    for (let k = 0; k < n.children.length; k++) v += probs[k]! * evaluate(n.children[k]!);
    return v;
  }
  const value = evaluate(root);
  const exploitability =
    bestResponse(nodes, infosets, avg, root, 0) - value + bestResponse(nodes, infosets, avg, root, 1) + value;

  const strategy: Record<string, { player: number; label: string; probs: Record<string, number> }> = {};
  infosets.forEach((I, ix) => {
    strategy[I.key] = {
      player: I.player,
      label: I.label,
      probs: Object.fromEntries(I.actions.map((a, k) => [a, avg[ix]![k]!])),
    };
  });
  return { value, exploitability, strategy, iterations, nodes: nodes.length, infosets: infosets.length };
}

/**
 * The value to `br` of its best response to the fixed strategies `avg` of the other player. With perfect recall, an
 * information set's choice only affects the subtrees below it, so the information sets are fixed deepest first (by how
 * many of `br`'s own decisions precede them), each maximising its counterfactual value summed over its states.
 */
function bestResponse(
  nodes: readonly Node[],
  infosets: readonly Infoset[],
  avg: readonly Float64Array[],
  root: number,
  br: number,
): number {
  const sign = br === 0 ? 1 : -1;
  const choice = new Map<number, number>();
  // each of br's nodes with the probability that chance and the opponent reach it, and br's depth there
  const at = new Map<number, { node: number; reach: number }[]>();
  const depth = new Map<number, number>();
  (function collect(id: number, reach: number, d: number): void {
    const n = nodes[id]!;
    if (n.kind === 'terminal') return;
    if (n.kind === 'chance') {
      n.children.forEach((c, k) => collect(c, reach * n.probs[k]!, d));
      return;
    }
    if (n.player === br) {
      const list = at.get(n.infoset) ?? [];
      list.push({ node: id, reach });
      at.set(n.infoset, list);
      depth.set(n.infoset, d);
      for (const c of n.children) collect(c, reach, d + 1);
    } else n.children.forEach((c, k) => collect(c, reach * avg[n.infoset]![k]!, d));
  })(root, 1, 0);

  function value(id: number): number {
    const n = nodes[id]!;
    if (n.kind === 'terminal') return sign * n.u0;
    if (n.kind === 'chance') return n.children.reduce((v, c, k) => v + n.probs[k]! * value(c), 0);
    if (n.player === br) return value(n.children[choice.get(n.infoset)!]!);
    return n.children.reduce((v, c, k) => v + avg[n.infoset]![k]! * value(c), 0);
  }
  const order = [...at.keys()].sort((a, b) => depth.get(b)! - depth.get(a)!);
  for (const ix of order) {
    let best = 0;
    let bestV = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < infosets[ix]!.actions.length; k++) {
      let v = 0;
      for (const { node, reach } of at.get(ix)!)
        v += reach * value((nodes[node] as { readonly children: readonly number[] }).children[k]!);
      if (v > bestV + 1e-12) [best, bestV] = [k, v];
    }
    choice.set(ix, best);
  }
  return value(root);
}
