/** Shared by the golden-file writer and its test. */
import type { AnyGame } from '../../engine/core/game.ts';
import { perft } from '../../engine/core/perft.ts';

export const GOLDEN_SEED = 'golden-1';
export const GOLDEN_PERFT_DEPTH = 6;

/** perft(initial, d) for d = 1 … depth (chance outcomes count as branches). */
export function perftCounts(game: AnyGame, s: unknown, depth: number): number[] {
  return Array.from({ length: depth }, (_, i) => perft(game, s, i + 1));
}
