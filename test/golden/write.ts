/**
 * Writes the golden data files: for every registered ruleset × shipped scenario, a seeded random game's replay
 * (test/golden/<ruleset>/<scenario>.replay.json) and perft counts from the initial state
 * (test/golden/<ruleset>/<scenario>.perft.json). Run only when play changes on purpose, and say why in the commit:
 *   npx tsx test/golden/write.ts [--ruleset R]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RandomAgent } from '../../agents/random.ts';
import { loadScenario, scenarioIds } from '../../arena/catalog.ts';
import { runMatch } from '../../arena/match.ts';
import { GOLDEN_SEED, perftCounts, perftDepth } from './golden.ts';
import { RULESETS } from '../../engine/rulesets/index.ts';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.includes('--ruleset') ? process.argv[process.argv.indexOf('--ruleset') + 1] : undefined;
for (const game of Object.values(RULESETS)) {
  if (only && game.id !== only) continue;
  mkdirSync(join(here, game.id), { recursive: true });
  for (const id of scenarioIds(game.id)) {
    const { scenario } = loadScenario(game.id, id);
    const m = await runMatch({
      game,
      scenario,
      scenarioId: id,
      seed: GOLDEN_SEED,
      agents: [new RandomAgent(), new RandomAgent()],
    });
    if (m.aborted) throw new Error(`${game.id}/${id}: ${m.aborted}`);
    writeFileSync(join(here, game.id, `${id}.replay.json`), `${JSON.stringify(m.replay)}\n`);
    const perft = perftCounts(game, game.initialState(scenario), perftDepth(game.id));
    writeFileSync(
      join(here, game.id, `${id}.perft.json`),
      `${JSON.stringify({ depth: perftDepth(game.id), counts: perft }, null, 1)}\n`,
    );
    console.log(`${game.id}/${id}: ${m.plies} plies, perft ${perft.join(' ')}`);
  }
}
