/**
 * Every ruleset the engine knows, by id. The reference games are registered too, so that every command, the arena,
 * the bot protocol, the Python client and the tests play them end to end: tic-tac-toe (perfect information), Goofspiel
 * (sealed bids revealed together) and Kuhn poker (a card dealt face down).
 */
import type { AnyGame } from '../core/game.ts';
import { marchOfEagles } from './march-of-eagles/index.ts';
import { eaglesOfTheEmpire } from './eagles-of-the-empire/index.ts';
import { ageOfEagles } from './age-of-eagles/index.ts';
import { napoleonsEagles } from './napoleons-eagles/index.ts';
import { chargeEaglesRising } from './charge-eagles-rising/index.ts';
import { goofspiel } from '../reference/goofspiel.ts';
import { ticTacToe } from '../reference/tictactoe.ts';
import { kuhnPoker } from '../reference/kuhn.ts';

export const RULESETS: Readonly<Record<string, AnyGame>> = {
  [marchOfEagles.id]: marchOfEagles,
  [eaglesOfTheEmpire.id]: eaglesOfTheEmpire,
  [ageOfEagles.id]: ageOfEagles,
  [napoleonsEagles.id]: napoleonsEagles,
  [chargeEaglesRising.id]: chargeEaglesRising,
  [goofspiel.id]: goofspiel,
  [ticTacToe.id]: ticTacToe,
  [kuhnPoker.id]: kuhnPoker,
};

export function getRuleset(id: string): AnyGame {
  const g = RULESETS[id];
  if (!g) throw new Error(`unknown ruleset "${id}"; known: ${Object.keys(RULESETS).join(', ')}`);
  return g;
}
