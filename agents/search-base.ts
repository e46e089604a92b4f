/**
 * What the two Monte Carlo searches share (`MctsSearch` for perfect information, `IsMctsSearch` for hidden
 * information): their settings, leaf values, action ordering by the scripted preferences, rollouts and chance draws.
 */
import type { AnyGame, ChanceOutcome } from '../engine/core/game.ts';
import seedrandom from 'seedrandom';

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

/** Settings, leaves, rollouts and chance draws, for both searches. */
export abstract class SearchBase {
  /** The stream chance outcomes and rollouts draw from: the agent's RNG, or the iteration's paired stream. */
  protected draw: () => number;
  protected pairBase = 0;

  constructor(
    readonly game: AnyGame,
    readonly cfg: MctsConfig,
    protected readonly rng: () => number,
    /** Values a rollout's last position for player 0 in [-1, 1] in place of the ruleset's evaluation (e.g. a value network). */
    protected readonly leafValue?: LeafValue,
    /** Mixed with each rollout's result (see `LeafMix`). */
    protected readonly mix?: LeafMix,
  ) {
    if (mix && !(mix.weight >= 0 && mix.weight <= 1))
      throw new Error(`mcts: leaf mix weight ${mix.weight} is not in [0, 1]`);
    if (game.players.length !== 2) throw new Error('mcts: only two-player games are supported');
    this.draw = rng;
  }

  /**
   * The scripted preferences of `mover` at `s`, read from what the mover can see: where `s` holds something hidden
   * from it, they are scored on a state re-drawn from its point of view, so its model never uses another's secret.
   */
  protected scores(s: unknown, actions: readonly unknown[], mover: number, u: () => number): number[] {
    const g = this.game;
    const view = g.hidden?.(s, mover) ? g.sampleState(s, mover, u) : s;
    return g.policyScores!(view, actions);
  }

  protected orderActions(s: unknown, actions: unknown[], mover: number): unknown[] {
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

  protected sampleIndex(outs: readonly ChanceOutcome<unknown>[]): number {
    let r = this.draw();
    for (let i = 0; i < outs.length; i++) {
      if (r < outs[i]!.p) return i;
      r -= outs[i]!.p;
    }
    return outs.length - 1;
  }

  /**
   * A rollout's move: with heuristic leaves, the scripted first choice (the ruleset's `greedyAction` where it gives one
   * and `mover` sees the whole state, else the best of the scored menu), or with probability ε a random legal move.
   */
  protected rolloutAction(s: unknown, mover: number): unknown {
    const g = this.game;
    if (this.cfg.leaf === 'heuristic' && g.policyScores && this.draw() >= this.cfg.epsilon) {
      if (g.greedyAction && !g.hidden?.(s, mover)) return g.greedyAction(s);
      const legal = g.legalActions(s);
      const sc = this.scores(s, legal, mover, this.draw);
      let best = 0;
      for (let i = 1; i < sc.length; i++) if (sc[i]! > sc[best]!) best = i;
      return legal[best];
    }
    const legal = g.legalActions(s);
    return legal[Math.floor(this.draw() * legal.length)];
  }

  /** Leaf evaluation for player 0. */
  protected evaluateLeaf(s0: unknown): number {
    if (!this.mix) return this.rollout(s0);
    const w = this.mix.weight;
    return w * this.mix.value(s0) + (1 - w) * this.rollout(s0);
  }

  /** A rollout's result for player 0: the outcome, or the value of the position where it is cut. */
  protected rollout(s0: unknown): number {
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
      } else s = g.applyUnchecked(s, this.rolloutAction(s, tm.player));
    }
  }

  /** With paired dice, the rest of this iteration draws from the stream of the root action's k-th visit. */
  protected pair(k: number): void {
    if (this.cfg.paired) this.draw = seedrandom.alea(`${this.pairBase}:${k}`);
  }
}
