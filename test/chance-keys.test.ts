/**
 * Conformance: `Game.chanceKey` names each chance event of a game once. The arena's keyed dice draw from a generator
 * keyed by (match seed, chanceKey), and paired matches replay the same draws by key, so two chance events of one game
 * with the same key would get the same draw. For every registered ruleset and every shipped scenario, seeded random
 * games record the key at each chance node and no key may repeat within a game.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { loadScenario, scenarioIds } from '../arena/catalog.ts';
import { playRandomGame } from '../arena/random-play.ts';
import { RULESETS } from '../engine/rulesets/index.ts';

const GAMES = 100;
/** Scenarios without dice (checked to have none, so the list cannot hide a broken check). */
const NO_DICE = new Set(['goofspiel/three-descending', 'tic-tac-toe/standard']);

describe('chance keys are unique within a game', () => {
  it('every registered ruleset ships scenarios to check', () => {
    for (const rid of Object.keys(RULESETS)) expect(scenarioIds(rid).length, rid).toBeGreaterThan(0);
  });
  for (const rid of Object.keys(RULESETS))
    for (const sid of scenarioIds(rid))
      it(`${rid} / ${sid}: ${GAMES} seeded random games`, () => {
        const { game, scenario } = loadScenario(rid, sid);
        let events = 0;
        const repeats: string[] = [];
        for (let g = 0; g < GAMES; g++) {
          const seen = new Set<string>();
          playRandomGame(game, scenario, seedrandom.alea(`chance-keys/${rid}/${sid}/${g}`), {
            onStep: (s) => {
              if (game.toMove(s).kind !== 'chance') return;
              events++;
              const k = game.chanceKey(s);
              if (seen.has(k)) repeats.push(`game ${g}: ${k}`);
              seen.add(k);
            },
          });
        }
        if (NO_DICE.has(`${rid}/${sid}`)) expect(events, 'a scenario listed as without dice rolled some').toBe(0);
        else expect(events).toBeGreaterThan(0);
        expect(repeats.slice(0, 10), `${repeats.length} of ${events} chance events reuse a key of their game`).toEqual(
          [],
        );
      }, 120_000);
});
