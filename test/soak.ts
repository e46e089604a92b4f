/**
 * Soak (not in CI): random games over many seeds must never throw. Usage:
 *   npx tsx test/soak.ts [--games 10000] [--scenario open-field|all]
 */
import seedrandom from 'seedrandom';
import { loadScenario, scenarioIds } from '../arena/catalog.ts';
import { playRandomGame } from '../arena/random-play.ts';

const arg = (k: string, d: string) => {
  const i = process.argv.indexOf(`--${k}`);
  return i >= 0 ? process.argv[i + 1]! : d;
};
const games = Number(arg('games', '10000'));
const which = arg('scenario', 'all');
const ids = which === 'all' ? scenarioIds('march-of-eagles') : [which];
let failures = 0;
for (const id of ids) {
  const { game, scenario } = loadScenario('march-of-eagles', id);
  const t0 = performance.now();
  let plies = 0;
  for (let g = 0; g < games; g++) {
    try {
      plies += playRandomGame(game, scenario, seedrandom.alea(`soak/${id}/${g}`), { checked: true }).plies;
    } catch (e) {
      failures++;
      console.error(`${id} seed ${g}: ${(e as Error).stack}`);
    }
    if ((g + 1) % 1000 === 0) console.log(`${id}: ${g + 1} games, ${failures} failures, ${(plies / ((performance.now() - t0) / 1000)).toFixed(0)} plies/s`);
  }
}
console.log(failures ? `${failures} FAILURES` : 'no failures');
process.exit(failures ? 1 : 0);
