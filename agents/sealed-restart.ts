/**
 * Where an information-set search starts (`IsMctsSearch`, and the PUCT search's hidden-information path): a position
 * the searcher cannot see whole is re-drawn from its point of view at every iteration (`sampleState`), and inside an
 * open round of sealed choices that holds another player's choice the search restarts at the round's start
 * (`sealedRound`), replaying the searcher's own earlier choices of the round by key; the other players' choices
 * (keyed '') are left to their own trees. A round whose choices so far are all the searcher's own hides nothing from
 * it: no restart.
 */
import type { Game } from '../engine/core/game.ts';

/** A choice of the open sealed round the search restarts before: the searcher's own by key ('' for the others'). */
export interface Replayed {
  readonly player: number;
  readonly key: string;
}

export interface SearchRoot<S> {
  /** Whether every iteration draws its own root (something is hidden from the searcher, or a round is restarted). */
  readonly hidden: boolean;
  /** The open round's choices to replay, when the search restarts one. */
  readonly replay: readonly Replayed[] | undefined;
  /** The root state of one iteration. */
  draw(): S;
}

export function searchRoot<S, A>(g: Game<S, A>, state: S, player: number, rng: () => number): SearchRoot<S> {
  const open = g.sealedRound?.(state);
  const round = open?.choices.some((c) => c.player !== player) ? open : undefined;
  const hidden = !!round || !!g.hidden?.(state, player);
  return {
    hidden,
    replay: round?.choices.map((c) => ({ player: c.player, key: c.player === player ? g.actionKey(c.action) : '' })),
    draw() {
      if (!hidden) return state;
      const d = g.sampleState(state, player, rng);
      return round ? (g.sealedRound!(d)?.start ?? d) : d;
    },
  };
}
