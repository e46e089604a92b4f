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
  'farm-on-the-ridge': { initial: '774bece2d9fd6e2d', seed1: '34b41e8ea7013b93', plies: 245 },
  'open-field': { initial: '57184ebcc2d456f8', seed1: '9b7551264a97879c', plies: 370 },
  'woods-walls-hill': { initial: 'cf56210c5b1b33a9', seed1: '6e82b56103410f95', plies: 405 },
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
