/**
 * What each player may see: the per-viewer side of the `Game` interface, for drivers, agents, logs and replays.
 *
 * A viewer is a player index; a negative viewer is the omniscient record (a replay, an umpire, a test), which sees
 * everything. A ruleset with no hidden information (no `viewAction`, no `hidden`) shows every viewer everything, and
 * every helper here reduces to the plain key, events and state hash.
 */
import { type AnyGame, type GameEvent, type Player, eventFor } from './game.ts';
import { type Hash64, hashValue } from './hash.ts';

/** Does this ruleset ever hide anything from anyone? */
export function hasHiddenInformation(game: AnyGame): boolean {
  return !!(game.viewAction || game.hidden);
}

/** What `viewer` sees of action (or chance outcome) `a` taken at `s`: its key, or the ruleset's redacted text. */
export function actionView(game: AnyGame, s: unknown, a: unknown, viewer: Player): string {
  if (viewer < 0 || !game.viewAction) return game.actionKey(a);
  return game.viewAction(s, a, viewer);
}

/** The events as `viewer` reads them (secrets not addressed to the viewer redacted). */
export function eventsFor(events: readonly GameEvent[], viewer: Player): GameEvent[] {
  return events.map((e) => eventFor(e, viewer));
}

/**
 * The hash of what `viewer` observes at `s`: the state hash when the ruleset hides nothing, else the hash of the
 * viewer's observation, so that two states the viewer cannot tell apart hash alike for it.
 */
export function observationHash(game: AnyGame, s: unknown, viewer: Player): Hash64 {
  if (viewer < 0 || !hasHiddenInformation(game)) return game.hash(s);
  return hashValue(game.observe(s, viewer));
}
