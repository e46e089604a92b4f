/**
 * Every ruleset the engine knows, by id. Goofspiel is the reference game for sealed choices revealed together: it is
 * registered so that the drivers, the arena, the bot protocol and the tests play hidden information end to end.
 */
import type { AnyGame } from '../core/game.ts';
import { marchOfEagles } from './march-of-eagles/index.ts';
import { eaglesOfTheEmpire } from './eagles-of-the-empire/index.ts';
import { goofspiel } from '../reference/goofspiel.ts';
import { kuhnPoker } from '../reference/kuhn.ts';

export const RULESETS: Readonly<Record<string, AnyGame>> = {
  [marchOfEagles.id]: marchOfEagles,
  [eaglesOfTheEmpire.id]: eaglesOfTheEmpire,
  [goofspiel.id]: goofspiel,
  [kuhnPoker.id]: kuhnPoker,
};

export function getRuleset(id: string): AnyGame {
  const g = RULESETS[id];
  if (!g) throw new Error(`unknown ruleset "${id}"; known: ${Object.keys(RULESETS).join(', ')}`);
  return g;
}
