/**
 * Test fixtures for the Napoleon's Eagles tests (engine/rulesets/napoleons-eagles/*.test.ts): the shipped scenarios
 * (optionally patched), playing action keys that must be on offer, playing on with quiet choices until a position,
 * units moved by hand, and seeded random games under the conformance checker. Test support only (no I/O beyond
 * reading the shipped data files).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import seedrandom from 'seedrandom';
import { expect } from 'vitest';
import { type AgentKind, playChecked } from '../arena/conformance.ts';
import type { GameEvent } from '../engine/core/game.ts';
import { napoleonsEagles as game } from '../engine/rulesets/napoleons-eagles/index.ts';
import type { Scenario } from '../engine/rulesets/napoleons-eagles/scenario.ts';
import type { SeqState, SeqUnit } from '../engine/rulesets/napoleons-eagles/turn.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'scenarios', 'napoleons-eagles');

// biome-ignore lint/suspicious/noExplicitAny: scenario JSON edited in place
export type Json = Record<string, any>;

/** A shipped scenario's JSON, as shipped (Kleinau with its optional rules on). */
export const rawScenario = (id: string): Json => JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8'));

/** A scenario's JSON validated, failing with the problems listed. */
export function validated(j: unknown): Scenario {
  const v = game.validateScenario(j);
  if (!v.ok) throw new Error(JSON.stringify(v.problems));
  return v.value;
}

/** A shipped scenario's JSON, with `edit` applied, validated. */
export function scenarioOf(id: string, edit?: (j: Json) => void): Scenario {
  const j = rawScenario(id);
  edit?.(j);
  return validated(j);
}
/** quick-test's initial state, with `edit` applied to its JSON. */
export const quick = (edit?: (j: Json) => void): SeqState => game.initialState(scenarioOf('quick-test', edit));
/** Kleinau's initial state, with `edit` applied to its JSON. */
export const kleinau = (edit?: (j: Json) => void): SeqState =>
  game.initialState(scenarioOf('the-mill-at-kleinau', edit));

/** The frame on top of the stack. */
export const top = (s: SeqState) => s.stack.at(-1);
/** What may be played: the legal actions and the chance outcomes. */
export const offered = (s: SeqState) => [...game.legalActions(s), ...game.chanceOutcomes(s).map((o) => o.action)];

/** Applies `keys` in turn, each of which must be on offer, collecting the events into `events` when given. */
export function playInto(s: SeqState, events: GameEvent[] | undefined, ...keys: string[]): SeqState {
  let t = s;
  for (const k of keys) {
    if (!offered(t).includes(k)) throw new Error(`"${k}" is not offered at ${top(t)?.t}: ${offered(t).join(', ')}`);
    t = game.apply(t, k, events);
  }
  return t;
}
/** Applies `keys` in turn, each of which must be on offer. */
export const play = (s: SeqState, ...keys: string[]): SeqState => playInto(s, undefined, ...keys);
/** Applies `keys` in turn, each of which must be on offer, with the events they logged. */
export function withEvents(s: SeqState, ...keys: string[]): { t: SeqState; events: GameEvent[] } {
  const events: GameEvent[] = [];
  return { t: playInto(s, events, ...keys), events };
}

/** Units moved or changed: `patch` by id, in 1/100" (front-centre) and degrees. */
export const setUnits = (s: SeqState, patch: Record<string, Partial<SeqUnit>>): SeqState => ({
  ...s,
  units: s.units.map((u) => (patch[u.id] ? { ...u, ...patch[u.id] } : u)),
});

/** The chance of the outcomes whose keys match `re`. */
export const pOf = (s: SeqState, re: RegExp) =>
  game
    .chanceOutcomes(s)
    .filter((o) => re.test(o.action))
    .reduce((a, o) => a + o.p, 0);

/** A choice to prefer: a key, or a test on the keys (the first key passing it). */
type Prefer = string | ((key: string) => boolean);
/** Any activation. */
export const activation = (a: string) => a.startsWith('activate');
/** The quiet choices, in this order: finish, end, stay, hold, no defence action, stand in place. */
export const QUIET = ['finish', 'end', 'stay', 'hold', 'no defence action', 'stand in place'] as const;

/**
 * Plays on until `stop` holds (at most `cap` plies): the dice take `dice`'s pick or else their first outcome; a decision
 * takes the first of `prefer` on offer, or else the first legal action.
 */
export function playOn(
  s0: SeqState,
  stop: (s: SeqState) => boolean,
  prefer: readonly Prefer[],
  { dice, cap = 3000 }: { dice?: (s: SeqState) => string | undefined; cap?: number } = {},
): SeqState {
  let s = s0;
  for (let i = 0; i < cap && !stop(s); i++) {
    const outs = game.chanceOutcomes(s);
    if (outs.length) {
      s = game.apply(s, dice?.(s) ?? outs[0]!.action);
      continue;
    }
    const acts = game.legalActions(s);
    let pick: string | undefined;
    for (const p of prefer) {
      pick = typeof p === 'string' ? (acts.includes(p) ? p : undefined) : acts.find(p);
      if (pick !== undefined) break;
    }
    s = game.apply(s, pick ?? acts[0]!);
  }
  if (!stop(s)) throw new Error('the position was not reached');
  return s;
}

/**
 * Plays on with quiet choices (side A finishes as soon as it may, units end at once, leaders stay, then the first
 * activation, then bid 0; dice take their first outcome unless `dice` picks one) until `stop` holds.
 */
export const quietly = (
  s0: SeqState,
  stop: (s: SeqState) => boolean,
  dice?: (s: SeqState) => string | undefined,
  cap = 3000,
): SeqState =>
  playOn(s0, stop, ['finish', 'end', 'stay', 'stand in place', 'hold', activation, 'bid 0'], { dice, cap });

/** A random walk's decision: `first` when there is one, else a random `move forward 1 …`, else any random action. */
export function forwardOr(rng: () => number, acts: readonly string[], first?: string): string {
  if (first !== undefined) return first;
  const move = acts.filter((a) => a.startsWith('move forward 1'));
  return move.length ? move[Math.floor(rng() * move.length)]! : acts[Math.floor(rng() * acts.length)]!;
}

/**
 * `games` seeded games (seeds `${seed}/0`, `${seed}/1`, …) to the end under the conformance checker (the Game contract
 * checked at every step), seated by `seats`; each must play.
 */
export function checkedGames(
  scenario: () => Scenario,
  seed: string,
  games: number,
  seats: (g: number) => readonly [AgentKind, AgentKind] = () => ['random', 'random'],
): void {
  for (let g = 0; g < games; g++) {
    const r = playChecked(game, scenario(), seedrandom.alea(`${seed}/${g}`), {
      seats: seats(g),
      maxPlies: 20_000,
      freeze: true,
      optionsEvery: 7,
      optionsCap: 4,
    });
    expect(r.plies).toBeGreaterThan(0);
  }
}
