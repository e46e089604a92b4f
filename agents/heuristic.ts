/**
 * The scripted player: takes the best action by the ruleset's own scripted preferences (`Game.policyScores`),
 * breaking ties with its RNG. `epsilon` plays a random legal action with that probability (a weaker, livelier
 * opponent). A ruleset without scripted preferences is refused by name.
 */
import type { Agent, Decision, DecisionContext } from './agent.ts';

export class HeuristicAgent implements Agent {
  constructor(
    readonly spec: string,
    readonly epsilon = 0,
  ) {}
  async decide(ctx: DecisionContext): Promise<Decision> {
    const { game, legal, rng } = ctx;
    if (!game.policyScores) throw new Error(`ruleset ${game.id} has no scripted heuristic yet (Game.policyScores)`);
    if (this.epsilon > 0 && rng() < this.epsilon) {
      const a = legal[Math.floor(rng() * legal.length)];
      return { action: a, explanation: { chosen: game.actionKey(a), text: `random move (epsilon ${this.epsilon})` } };
    }
    const sc = game.policyScores(ctx.state, legal);
    if (sc.length !== legal.length || !sc.every(Number.isFinite))
      throw new Error(
        `ruleset ${game.id}'s scripted preferences gave ${sc.length} scores for ${legal.length} actions, or a score that is not a finite number`,
      );
    let best: number[] = [];
    let top = -Infinity;
    sc.forEach((v, i) => {
      if (v > top + 1e-9) {
        top = v;
        best = [i];
      } else if (Math.abs(v - top) <= 1e-9) best.push(i);
    });
    const pick = best[Math.floor(rng() * best.length)]!;
    const ranked = sc
      .map((v, i) => ({ i, v }))
      .sort((a, b) => b.v - a.v)
      .slice(0, 5);
    return {
      action: legal[pick],
      explanation: {
        chosen: game.actionKey(legal[pick]),
        alternatives: ranked.map((r) => ({ action: game.actionKey(legal[r.i]), value: r.v })),
        text: `scripted preference ${top.toFixed(2)}`,
      },
    };
  }
}
