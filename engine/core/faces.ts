/**
 * Shared pieces of `Game.rollAsk` / `Game.outcomeForFaces` (assistant mode: a person rolls real dice and enters the
 * faces): checking that faces are on the dice asked for, words for dice and modifiers, and faces for display found by
 * going through every combination of a few dice.
 */

/** "2D6", "D20", "3D6 + D10": the dice of a roll in words. */
function diceWords(dice: readonly number[]): string {
  const groups: [number, number][] = [];
  for (const k of dice) {
    const last = groups[groups.length - 1];
    if (last && last[0] === k) last[1]++;
    else groups.push([k, 1]);
  }
  return groups.map(([k, n]) => `${n > 1 ? n : ''}D${k}`).join(' + ');
}

/**
 * A one-line refusal when `faces` are not one face of each die of `dice` (wrong count, not a whole number, off the
 * die), naming the roll; undefined when they are.
 */
function offDice(what: string, dice: readonly number[], faces: readonly number[]): string | undefined {
  if (faces.length !== dice.length)
    return `${what}: enter ${dice.length} ${dice.length === 1 ? 'die' : 'dice'} (${diceWords(dice)}), not ${faces.length}`;
  for (let i = 0; i < dice.length; i++) {
    const f = faces[i]!;
    if (!Number.isInteger(f) || f < 1 || f > dice[i]!)
      return `${what}: ${f} is not a face of a D${dice[i]} (die ${i + 1} of ${diceWords(dice)})`;
  }
  return undefined;
}

/** A modifier in words: "", " + 2", " − 1". */
export function plus(mod: number): string {
  return mod > 0 ? ` + ${mod}` : mod < 0 ? ` − ${-mod}` : '';
}

/** "the die", "dice 3–5": a span of dice by position (1-based, inclusive). */
export function diceSpan(from: number, to: number): string {
  return from === to ? `die ${from}` : `dice ${from}–${to}`;
}

/**
 * Faces for display when there are few dice (at most `limit` combinations): one of the combinations for which `fits`
 * holds, drawn uniformly with `u`; undefined when none does or there are too many to go through.
 */
export function facesAmong(
  dice: readonly number[],
  fits: (faces: readonly number[]) => boolean,
  u: () => number,
  limit = 1296,
): number[] | undefined {
  const total = dice.reduce((a, k) => a * k, 1);
  if (total > limit) return undefined;
  const found: number[][] = [];
  for (let i = 0; i < total; i++) {
    let n = i;
    const faces = dice.map((k) => {
      const f = (n % k) + 1;
      n = Math.floor(n / k);
      return f;
    });
    if (fits(faces)) found.push(faces);
  }
  return found.length ? found[Math.min(found.length - 1, Math.floor(u() * found.length))] : undefined;
}

/**
 * A chance node as real dice: what is rolled (in words, naming the roll), the sides of each die, and how faces read —
 * the outcome's action, or a one-line reason they cannot be. For rulesets whose actions are not strings.
 */
export interface RealRoll<A> {
  readonly what: string;
  readonly dice: readonly number[];
  readonly read: (faces: readonly number[]) => A | string;
}

/** `Game.rollAsk` and `Game.outcomeForFaces` from a ruleset's `roll` at each chance node (undefined: no dice there). */
export function realDice<S, A>(
  roll: (s: S) => RealRoll<A> | undefined,
): {
  rollAsk(s: S): { readonly what: string; readonly dice: readonly number[] } | undefined;
  outcomeForFaces(s: S, faces: readonly number[]): { readonly action: A } | { readonly error: string };
} {
  return {
    rollAsk(s) {
      const r = roll(s);
      return r && { what: r.what, dice: r.dice };
    },
    outcomeForFaces(s, faces) {
      const r = roll(s);
      if (!r) return { error: 'no dice are rolled at this chance node: choose its outcome instead' };
      const off = offDice(r.what, r.dice, faces);
      if (off) return { error: off };
      const a = r.read(faces);
      return typeof a === 'string' ? { error: a } : { action: a };
    },
  };
}
