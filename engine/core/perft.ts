/**
 * perft: count the leaves of the game tree to a depth, counting each chance outcome as a branch (so chance nodes
 * are plies). `divide` gives the count under each first action. Used with hand-counted tiny positions as a
 * regression fence on the legal-action generator.
 */
import type { Game } from './game.ts';

export function perft<S, A>(game: Game<S, A>, s: S, depth: number): number {
  if (depth === 0) return 1;
  const tm = game.toMove(s);
  if (tm.kind === 'terminal') return 1;
  const acts = tm.kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s);
  if (depth === 1) return acts.length;
  let n = 0;
  for (const a of acts) n += perft(game, game.applyUnchecked(s, a), depth - 1);
  return n;
}

export function divide<S, A>(game: Game<S, A>, s: S, depth: number): Record<string, number> {
  const tm = game.toMove(s);
  const acts = tm.kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s);
  const out: Record<string, number> = {};
  for (const a of acts) out[game.actionKey(a)] = perft(game, game.applyUnchecked(s, a), depth - 1);
  return out;
}
