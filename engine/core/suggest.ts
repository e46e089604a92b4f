/** "Did you mean": the known name nearest a misspelt one, and zod objects that refuse unknown keys with it. */
import { z } from 'zod';

/**
 * Edit distance with transpositions (optimal string alignment): the fewest one-character insertions, deletions,
 * substitutions and swaps of neighbours turning `a` into `b` ("jsno" is one edit from "json").
 */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The known name `word` most likely misspells: one differing only in case, else the nearest within 2 edits (1 for
 * words of 3 or 4 characters, none for shorter ones, where any name is a couple of edits away).
 */
export function suggest(word: string, known: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  const limit = word.length <= 2 ? 0 : word.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestD = limit + 1;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best;
}

/** One line naming each unknown key, with the key it probably misspells or else the keys allowed there. */
function unknownKeys(keys: readonly string[], known: readonly string[]): string {
  const hints = keys.map((k) => {
    const s = suggest(k, known);
    return s === undefined ? JSON.stringify(k) : `${JSON.stringify(k)} (did you mean "${s}"?)`;
  });
  const head = `unknown key${keys.length === 1 ? '' : 's'} ${hints.join(', ')}`;
  return keys.every((k) => suggest(k, known) !== undefined) ? head : `${head}; allowed here: ${known.join(', ')}`;
}

/** `z.strictObject` whose unknown-key problem names each unknown key and suggests the known key it may misspell. */
export function strictObject<const S extends z.ZodRawShape>(shape: S) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? unknownKeys(iss.keys, known) : undefined),
  });
}
