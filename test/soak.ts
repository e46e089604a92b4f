/**
 * Soak (not in CI): random games over many seeds must never throw. Usage:
 *   npx tsx test/soak.ts [--games 10000] [--scenario open-field|all]
 */
import seedrandom from 'seedrandom';
import { loadScenario, scenarioIds } from '../arena/catalog.ts';
import { sampleOutcome } from '../arena/dice.ts';

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
    const rng = seedrandom.alea(`soak/${id}/${g}`);
    let s = game.initialState(scenario);
    let last = '';
    try {
      while (game.toMove(s).kind !== 'terminal') {
        const tm = game.toMove(s);
        let a;
        if (tm.kind === 'chance') a = sampleOutcome(game.chanceOutcomes(s), rng()).action;
        else {
          const l = game.legalActions(s);
          if (!l.length) throw new Error('no legal actions at a decision node');
          a = l[Math.floor(rng() * l.length)];
        }
        last = game.actionKey(a);
        s = game.apply(s, a);
        plies++;
      }
    } catch (e) {
      failures++;
      console.error(`${id} seed ${g}: after "${last}": ${(e as Error).stack}`);
    }
    if ((g + 1) % 1000 === 0) console.log(`${id}: ${g + 1} games, ${failures} failures, ${(plies / ((performance.now() - t0) / 1000)).toFixed(0)} plies/s`);
  }
}
console.log(failures ? `${failures} FAILURES` : 'no failures');
process.exit(failures ? 1 : 0);
