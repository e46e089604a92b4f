/**
 * Golden hashes: the initial state of every shipped scenario and the final state of a seeded random game.
 * A change here means play changed: bump the ruleset version or explain why in the commit, then update the pins.
 */
import { describe, expect, it } from 'vitest';
import { RandomAgent } from '../agents/random.ts';
import { loadScenario, scenarioIds } from '../arena/catalog.ts';
import { runMatch } from '../arena/match.ts';
import { hashHex } from '../engine/core/hash.ts';

const GOLDEN: Record<string, { initial: string; seed1: string; plies: number }> = {
  'farm-on-the-ridge': { initial: '1adb14382f643ae3', seed1: '3f46ddfa5abba927', plies: 243 },
  'open-field': { initial: '86c5b2eca26fb931', seed1: '5a0f4cd1459fd283', plies: 408 },
  'woods-walls-hill': { initial: '4c6932f24d7e09d8', seed1: '40c37556c1731015', plies: 428 },
};

describe('golden hashes', () => {
  it('every shipped scenario has pinned values', () => {
    expect(Object.keys(GOLDEN).sort()).toEqual(scenarioIds('march-of-eagles'));
  });
  for (const id of scenarioIds('march-of-eagles')) {
    it(`${id}: initial state and the seed-1 random game`, async () => {
      const { game, scenario } = loadScenario('march-of-eagles', id);
      const initial = hashHex(game.hash(game.initialState(scenario)));
      const r = await runMatch({ game, scenario, scenarioId: id, seed: '1', agents: [new RandomAgent(), new RandomAgent()] });
      const got = { initial, seed1: r.replay.finalHash, plies: r.plies };
      if (process.env.EAGLES_PRINT_GOLDEN) console.log(`'${id}': ${JSON.stringify(got)},`);
      expect(got).toEqual(GOLDEN[id]);
    });
  }
});
