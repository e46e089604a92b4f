/** Tiny reference games with dice and with a hidden choice, for testing search agents against known answers. */
import type { Game } from '../../engine/core/game.ts';
import { hashValue } from '../../engine/core/hash.ts';

/** What the toy games share: text actions that are their own keys, full observation, no evaluation. */
const plain = {
  apply<S, A>(this: { applyUnchecked(s: S, a: A): S }, s: S, a: A): S {
    return this.applyUnchecked(s, a);
  },
  observe: <S>(s: S) => s as unknown,
  sampleState: <S>(s: S) => s,
  evaluate: () => 0,
  actionKey: (a: string) => a,
  describeAction: (_s: unknown, a: string) => a,
  hash: (s: unknown) => hashValue(s),
  render: (s: unknown) => JSON.stringify(s),
  resultText: (s: unknown) => JSON.stringify(s),
};

/**
 * Dice choice: player 0 picks "safe" (then wins on a D6 of 3+, EV +1/3) or "bold" (wins only on a 6, EV −2/3).
 * A chance node decides; the exact best action is "safe".
 */
export interface DiceState {
  readonly pick: '' | 'safe' | 'bold';
  readonly roll: number;
}
export const diceChoice: Game<DiceState, string, { id: string }> = {
  id: 'dice-choice',
  title: 'Dice choice (reference)',
  version: 1,
  players: ['P', 'Q'],
  defaultScenario: 'standard',
  validateScenario: () => ({ ok: true, value: { id: 'standard' } }),
  initialState: () => ({ pick: '', roll: 0 }),
  toMove: (s) => (s.roll ? { kind: 'terminal' } : s.pick ? { kind: 'chance' } : { kind: 'player', player: 0 }),
  legalActions: (s) => (s.pick ? [] : ['safe', 'bold']),
  chanceOutcomes: (s) =>
    s.pick && !s.roll ? [1, 2, 3, 4, 5, 6].map((f) => ({ action: `d${f}`, p: 1 / 6, label: `D6 = ${f}` })) : [],
  chanceKey: () => 'roll',
  applyUnchecked: (s, a) =>
    a.startsWith('d') ? { ...s, roll: Number(a.slice(1)) } : { ...s, pick: a as 'safe' | 'bold' },
  returns: (s) => {
    const win = s.pick === 'safe' ? s.roll >= 3 : s.roll === 6;
    return win ? [1, -1] : [-1, 1];
  },
  ...plain,
};

/**
 * Hidden guess: player 0 secretly hides a coin Left or Right; player 1 then guesses. A correct guess wins for
 * player 1. Player 1's observation does not include the coin; `sampleState` re-draws it.
 */
export interface GuessState {
  readonly coin: '' | 'L' | 'R';
  readonly guess: '' | 'L' | 'R';
}
export const hiddenGuess: Game<GuessState, string, { id: string }> = {
  id: 'hidden-guess',
  title: 'Hidden guess (reference)',
  version: 1,
  players: ['Hider', 'Seeker'],
  defaultScenario: 'standard',
  validateScenario: () => ({ ok: true, value: { id: 'standard' } }),
  initialState: () => ({ coin: '', guess: '' }),
  toMove: (s) => (s.guess ? { kind: 'terminal' } : { kind: 'player', player: s.coin ? 1 : 0 }),
  legalActions: (s) => (s.guess ? [] : s.coin ? ['guess L', 'guess R'] : ['hide L', 'hide R']),
  chanceOutcomes: () => [],
  chanceKey: () => '',
  applyUnchecked: (s, a) =>
    a.startsWith('hide') ? { ...s, coin: a.slice(5) as 'L' | 'R' } : { ...s, guess: a.slice(6) as 'L' | 'R' },
  returns: (s) => (s.guess === s.coin ? [-1, 1] : [1, -1]),
  ...plain,
  observe: (s, p) => (p === 0 ? s : { coin: s.coin ? '?' : '', guess: s.guess }),
  sampleState: (s, p, u) => (p === 1 && s.coin && !s.guess ? { ...s, coin: u() < 0.5 ? 'L' : 'R' } : s),
  viewAction: (_s, a, viewer) => (a.startsWith('hide') && viewer === 1 ? 'Hider hides (sealed)' : a),
  hidden: (s, p) => p === 1 && !!s.coin && !s.guess,
};

/**
 * Twin dice: player 0 picks "a" or "b", two names for the same thing, then three D6 are rolled; the result is the
 * total's distance from its mean, scaled to [-1, 1]. Any difference a search sees between "a" and "b" is luck.
 */
export interface TwinState {
  readonly pick: '' | 'a' | 'b';
  readonly dice: readonly number[];
}
export const twinDice: Game<TwinState, string, { id: string }> = {
  id: 'twin-dice',
  title: 'Twin dice (reference)',
  version: 1,
  players: ['P', 'Q'],
  defaultScenario: 'standard',
  validateScenario: () => ({ ok: true, value: { id: 'standard' } }),
  initialState: () => ({ pick: '', dice: [] }),
  toMove: (s) =>
    s.dice.length === 3 ? { kind: 'terminal' } : s.pick ? { kind: 'chance' } : { kind: 'player', player: 0 },
  legalActions: (s) => (s.pick ? [] : ['a', 'b']),
  chanceOutcomes: (s) =>
    s.pick && s.dice.length < 3
      ? [1, 2, 3, 4, 5, 6].map((f) => ({ action: `d${f}`, p: 1 / 6, label: `D6 = ${f}` }))
      : [],
  chanceKey: () => 'roll',
  applyUnchecked: (s, a) =>
    a.startsWith('d') ? { ...s, dice: [...s.dice, Number(a.slice(1))] } : { ...s, pick: a as 'a' | 'b' },
  returns: (s) => {
    const v = (s.dice.reduce((x, y) => x + y, 0) - 10.5) / 7.5;
    return [v, -v];
  },
  ...plain,
};
