/**
 * Golden data files for every ruleset × shipped scenario (test/golden/<ruleset>/): a seeded random game's replay,
 * re-played by the replay verifier so that a change of play names the first step that differs, and perft counts
 * from the initial state. A change here means play changed: bump the ruleset version and rewrite them with
 * `npx tsx test/golden/write.ts`, saying why in the commit.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, scenarioIds } from '../arena/catalog.ts';
import { verifyReplay } from '../engine/core/replay.ts';
import { RULESETS } from '../engine/rulesets/index.ts';
import { GOLDEN_SEED, perftCounts } from './golden/golden.ts';

const dir = join(import.meta.dirname, 'golden');

for (const game of Object.values(RULESETS))
  describe(`golden files: ${game.id}`, () => {
    for (const id of scenarioIds(game.id)) {
      const replayFile = join(dir, game.id, `${id}.replay.json`);
      const perftFile = join(dir, game.id, `${id}.perft.json`);
      it(`${id}: the golden replay (seed ${GOLDEN_SEED}) re-plays step by step`, () => {
        expect(existsSync(replayFile), `${replayFile} is missing: run npx tsx test/golden/write.ts`).toBe(true);
        const r = JSON.parse(readFileSync(replayFile, 'utf8'));
        expect(r.seed).toBe(GOLDEN_SEED);
        const v = verifyReplay(game, r);
        expect(v.message).toMatch(/steps verified/);
        expect(r.result).not.toBeNull();
      });
      it(`${id}: perft counts from the initial state`, () => {
        expect(existsSync(perftFile), `${perftFile} is missing: run npx tsx test/golden/write.ts`).toBe(true);
        const want = JSON.parse(readFileSync(perftFile, 'utf8')) as { depth: number; counts: number[] };
        const { scenario } = loadScenario(game.id, id);
        expect(perftCounts(game, game.initialState(scenario), want.depth)).toEqual(want.counts);
      });
    }
  });
