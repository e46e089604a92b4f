/** One seeded random game: uniform legal actions, chance outcomes by their exact probabilities. */
import type { AnyGame } from '../engine/core/game.ts';
import { sampleOutcome } from './dice.ts';

export interface RandomGameOptions {
  /** Use the validating `apply` (slower; catches illegal transitions) instead of `applyUnchecked`. */
  readonly checked?: boolean;
  /** Called before every step with the state and the number of legal actions (0 at chance nodes). */
  readonly onStep?: (s: unknown, legalCount: number) => void;
}

export function playRandomGame(
  game: AnyGame,
  scenario: unknown,
  rng: () => number,
  o: RandomGameOptions = {},
): { state: unknown; plies: number; last: string } {
  let s = game.initialState(scenario);
  let plies = 0;
  let last = '';
  for (;;) {
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') return { state: s, plies, last };
    let a: unknown;
    if (tm.kind === 'chance') {
      o.onStep?.(s, 0);
      a = sampleOutcome(game.chanceOutcomes(s), rng()).action;
    } else {
      const l = game.legalActions(s);
      o.onStep?.(s, l.length);
      if (!l.length) throw new Error(`no legal actions at a decision node (after "${last}")`);
      a = l[Math.floor(rng() * l.length)];
    }
    if (o.checked) last = game.actionKey(a);
    s = o.checked ? game.apply(s, a) : game.applyUnchecked(s, a);
    plies++;
  }
}

/**
 * The position seeded random play reaches first at a player's decision with more than two choices, from turn 2 where
 * the state counts turns (`turn`): a mid-game position to time searches on (the bench's sample-armies position on
 * March of Eagles' open-field). Only the `Game` interface is used, so it drives any checkout's engine.
 */
export function searchPosition(game: AnyGame, scenario: unknown, rng: () => number): unknown {
  let s = game.initialState(scenario);
  while (
    !(((s as { turn?: number }).turn ?? 2) >= 2 && game.toMove(s).kind === 'player' && game.legalActions(s).length > 2)
  ) {
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') throw new Error('the game ended before a position with a choice to search');
    const l = tm.kind === 'chance' ? null : game.legalActions(s);
    s = game.applyUnchecked(
      s,
      l ? l[Math.floor(rng() * l.length)] : sampleOutcome(game.chanceOutcomes(s), rng()).action,
    );
  }
  return s;
}
