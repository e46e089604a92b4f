/**
 * Stacking [13.6–13.64] and long-counter conformation [13.7–13.93] in one area, as pure functions of the map's area:
 * the engine (world.ts) checks moves, retreats, advances, arrivals and deployments with them, and the scenario
 * validator (scenario.ts) the set-up, the reinforcement groups and the deployments made at set-up, so that both hold
 * the same limits.
 */
import type { Area, Conformation } from '../../areas/map.ts';

/** The area's maximum of strength points, per side [13.61, 13.63] (leaders and HQs count 0). */
export const spFits = (a: Area, sp: number): boolean => sp <= a.stack.max;

/** The area's maximum of infantry long counters [13.63, 13.7]. */
export const longCountersFit = (a: Area, n: number): boolean => n <= a.stack.maxLC;

/** Conformation `x` of area `a` cannot be held together with `y` by another long counter: the map excludes the pair [13.8, 13.93]. */
export function excludes(a: Area, x: string, y: string): boolean {
  return !!(
    a.conformations.find((c) => c.id === x)?.exclusiveWith.includes(y) ||
    a.conformations.find((c) => c.id === y)?.exclusiveWith.includes(x)
  );
}

/**
 * Conformations a long counter may take in area `a` beside the long counters holding `taken` [13.72, 13.8, 13.93]: one
 * a long counter fits, that no long counter there holds and that none of theirs excludes.
 */
export function freeConformations(a: Area, taken: readonly string[]): Conformation[] {
  return a.conformations.filter((c) => c.fitsLong && !taken.includes(c.id) && !taken.some((t) => excludes(a, c.id, t)));
}
