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
  'farm-on-the-ridge': { initial: '64d9501638809bf3', seed1: '414499d44d5f0837', plies: 243 },
  'open-field': { initial: '3322fc657893ede3', seed1: '4605c5050a85d2a5', plies: 398 },
  'woods-walls-hill': { initial: '154654b406ae8cd6', seed1: '941b012b2a20b328', plies: 408 },
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
