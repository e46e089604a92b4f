/**
 * One conformance suite over every registered ruleset × shipped scenario: a new ruleset gets all of it by registering
 * (engine/rulesets/index.ts) and shipping a scenario. Random games (and one with the scripted player) run through
 * the validating `apply` on deep-frozen states with the `Game` contract checked at every step (arena/conformance.ts:
 * legal actions, unique keys, finite policy scores, exact chance distributions, chance keys used once, every sampled
 * option applying, rule citations, cached hashes, the ply cap), and a game played by the match driver round-trips
 * through the replay format and the replay verifier. Golden replays and perft counts: test/golden.test.ts.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { RandomAgent } from '../agents/random.ts';
import { loadScenario, scenarioIds } from '../arena/catalog.ts';
import { type AgentKind, type GameFault, playChecked } from '../arena/conformance.ts';
import { runMatch } from '../arena/match.ts';
import type { AnyGame } from '../engine/core/game.ts';
import { decodeReplay, encodeReplay, verifyReplay } from '../engine/core/replay.ts';
import { RULESETS } from '../engine/rulesets/index.ts';

const GAMES = 3;
const PLY_CAP = 20_000;

/** One random game (random, or the scripted player on seat A) checked at every step; the fault, if any, as text. */
function fault(game: AnyGame, scenario: unknown, seed: string, seats: readonly [AgentKind, AgentKind]): string {
  try {
    playChecked(game, scenario, seedrandom.alea(seed), {
      seats,
      maxPlies: PLY_CAP,
      freeze: true,
      optionsEvery: 10,
      optionsCap: 12,
      hashEvery: 25,
    });
    return '';
  } catch (e) {
    const f = e as GameFault;
    return `ply ${f.ply}, after "${f.last}": ${f.message}`;
  }
}

describe('every registered ruleset declares what the suite needs', () => {
  for (const game of Object.values(RULESETS))
    it(`${game.id}: a citation pattern and at least one shipped scenario`, () => {
      expect(game.citation, `${game.id} has no Game.citation`).toBeInstanceOf(RegExp);
      expect(scenarioIds(game.id).length).toBeGreaterThan(0);
    });
});

for (const game of Object.values(RULESETS))
  describe(`conformance: ${game.id}`, () => {
    for (const id of scenarioIds(game.id)) {
      it(`${id}: ${GAMES} random games keep the Game contract at every step`, () => {
        const { scenario } = loadScenario(game.id, id);
        for (let g = 0; g < GAMES; g++) {
          const seats =
            g === 0 && game.policyScores ? (['heuristic', 'random'] as const) : (['random', 'random'] as const);
          expect(
            fault(game, scenario, `conformance/${game.id}/${id}/${g}`, seats),
            `game ${g} (${seats.join(' vs ')})`,
          ).toBe('');
        }
      });
      it(`${id}: a driven game round-trips through the replay format and verifies`, async () => {
        const { scenario } = loadScenario(game.id, id);
        const m = await runMatch({
          game,
          scenario,
          scenarioId: id,
          seed: `conformance/${id}`,
          agents: [new RandomAgent(), new RandomAgent()],
        });
        expect(m.aborted).toBeUndefined();
        const back = decodeReplay(encodeReplay(m.replay));
        expect(back).toEqual(m.replay);
        const v = verifyReplay(game, back);
        expect(v.message).toMatch(/steps verified/);
        expect(v.ok).toBe(true);
      });
    }
  });
