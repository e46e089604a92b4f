/**
 * Soak (not in CI): random games over many seeds must never throw. Usage:
 *   npx tsx test/soak.ts [--games 10000] [--ruleset march-of-eagles|eagles-of-the-empire|all] [--scenario ID|all]
 * Every game is played through the validating `apply`, so an illegal listed action would fail it too.
 */
import seedrandom from 'seedrandom';
import { loadScenario, scenarioIds } from '../arena/catalog.ts';
import { RULESETS } from '../engine/rulesets/index.ts';
import { playRandomGame } from '../arena/random-play.ts';

const arg = (k: string, d: string) => {
  const i = process.argv.indexOf(`--${k}`);
  return i >= 0 ? process.argv[i + 1]! : d;
};
const games = Number(arg('games', '10000'));
const which = arg('scenario', 'all');
const rs = arg('ruleset', 'all');
const jobs = (rs === 'all' ? Object.keys(RULESETS) : [rs]).flatMap((r) => (which === 'all' ? scenarioIds(r) : [which]).map((id) => [r, id] as const));
let failures = 0;
for (const [rid, id] of jobs) {
  const { game, scenario } = loadScenario(rid, id);
  const t0 = performance.now();
  let plies = 0;
  for (let g = 0; g < games; g++) {
    try {
      plies += playRandomGame(game, scenario, seedrandom.alea(`soak/${rid}/${id}/${g}`), {
        checked: true,
        onStep: (s, n) => {
          // invariants: unique action keys, chance probabilities summing to 1
          if (n) {
            const keys = game.legalActions(s).map((a: unknown) => game.actionKey(a));
            if (new Set(keys).size !== keys.length) throw new Error(`duplicate action keys: ${keys.join(' | ')}`);
          } else {
            const sum = game.chanceOutcomes(s).reduce((t: number, o: { p: number }) => t + o.p, 0);
            if (Math.abs(sum - 1) > 1e-9) throw new Error(`chance probabilities sum to ${sum}`);
          }
        },
      }).plies;
    } catch (e) {
      failures++;
      console.error(`${rid}/${id} seed ${g}: ${(e as Error).stack}`);
    }
    if ((g + 1) % 1000 === 0) console.log(`${rid}/${id}: ${g + 1} games, ${failures} failures, ${(plies / ((performance.now() - t0) / 1000)).toFixed(0)} plies/s`);
  }
}
console.log(failures ? `${failures} FAILURES` : 'no failures');
process.exit(failures ? 1 : 0);
