import { loadScenario } from './arena/catalog.ts';
import { randomPlayouts } from './arena/bench.ts';
const id = process.argv[2] ?? 'farm-on-the-ridge';
const { game, scenario } = loadScenario('march-of-eagles', id);
const r = randomPlayouts(game, scenario, 8, 'p');
console.log(id, r.plies / r.seconds);
