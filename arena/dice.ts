/**
 * Keyed dice for matches: the uniform draw for a chance event comes from a generator seeded by (match seed, event
 * key), so a seat-swapped rematch with the same seed sees the same dice for the same event.
 */
import seedrandom from 'seedrandom';
import type { ChanceOutcome } from '../engine/core/game.ts';

export function keyedUniform(seed: string, eventKey: string): () => number {
  return seedrandom.alea(`${seed}|${eventKey}`);
}

/** Pick an outcome by its exact probability with one uniform draw. */
export function sampleOutcome<A>(outcomes: readonly ChanceOutcome<A>[], u: number): ChanceOutcome<A> {
  let r = u;
  for (const o of outcomes) {
    if (r < o.p) return o;
    r -= o.p;
  }
  return outcomes[outcomes.length - 1]!;
}
