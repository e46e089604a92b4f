/** Uniformly random legal moves, from the agent's own RNG. */
import type { Agent, DecisionContext, Decision } from './agent.ts';

export class RandomAgent implements Agent {
  constructor(readonly spec = 'random') {}
  async decide(ctx: DecisionContext): Promise<Decision> {
    const i = Math.min(ctx.legal.length - 1, Math.floor(ctx.rng() * ctx.legal.length));
    const action = ctx.legal[i];
    return {
      action,
      explanation: {
        chosen: ctx.game.actionKey(action),
        text: `uniformly random among ${ctx.legal.length} legal actions`,
      },
    };
  }
}
