/** Shared by the golden-file writer and its test. */
import type { AnyGame } from '../../engine/core/game.ts';
import { perft } from '../../engine/core/perft.ts';

export const GOLDEN_SEED = 'golden-1';
const GOLDEN_PERFT_DEPTH = 6;

/**
 * Shallower perft where a ruleset's tree is wide from the start: Napoleon's Eagles opens with two sealed bids (21 × 19)
 * and then whole activation menus, so depth 4 already visits thousands of positions; Charge! Eagles Rising opens with
 * a sealed order for each recipient (about 20 options each).
 */
const PERFT_DEPTH: Readonly<Record<string, number>> = { 'napoleons-eagles': 4, 'charge-eagles-rising': 3 };

/** The perft depth the golden files use for a ruleset. */
export const perftDepth = (ruleset: string): number => PERFT_DEPTH[ruleset] ?? GOLDEN_PERFT_DEPTH;

/** perft(initial, d) for d = 1 … depth (chance outcomes count as branches). */
export function perftCounts(game: AnyGame, s: unknown, depth: number): number[] {
  return Array.from({ length: depth }, (_, i) => perft(game, s, i + 1));
}
