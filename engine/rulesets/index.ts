/** Every ruleset the engine knows, by id. */
import type { AnyGame } from '../core/game.ts';
import { marchOfEagles } from './march-of-eagles/index.ts';
import { eaglesOfTheEmpire } from './eagles-of-the-empire/index.ts';

export const RULESETS: Readonly<Record<string, AnyGame>> = {
  [marchOfEagles.id]: marchOfEagles,
  [eaglesOfTheEmpire.id]: eaglesOfTheEmpire,
};

export function getRuleset(id: string): AnyGame {
  const g = RULESETS[id];
  if (!g) throw new Error(`unknown ruleset "${id}"; known: ${Object.keys(RULESETS).join(', ')}`);
  return g;
}
