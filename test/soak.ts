/**
 * Soak (not in CI): random games over many seeds on every shipped scenario, checked at every step by the conformance
 * suite's checker (arena/conformance.ts). Usage:
 *   npx tsx test/soak.ts [--games 10000] [--first 0] [--ruleset march-of-eagles|eagles-of-the-empire|all] [--scenario ID|all|file]
 * Every game is played through the validating `apply`, so an illegal listed action would fail it too.
 *
 * Generated scenarios (arena/scenario-soak.ts; a small size runs in CI as test/generated-scenarios.test.ts):
 *   npx tsx test/soak.ts --generated 1000 [--ruleset R|all] [--seed S] [--first 0] [--games-per 1]
 *                        [--agents random,heuristic] [--max-plies 20000] [--out tmp/soak-failures]
 *                        [--options-every 10] [--options-cap 40|all]
 * draws N scenarios per ruleset with a `randomScenario` hook, validates them and plays each accepted one (random vs
 * random, the heuristic on each seat vs random), asserting the Game contract at every step. Each failing scenario is
 * written to the --out folder as a scenario file (`--scenario <file>` replays it) beside failures.json; exit 1 on any
 * failure. `--generated 1 --first I --seed S --ruleset R` replays scenario I of a run alone.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { loadScenario, scenarioIds } from '../arena/catalog.ts';
import { RULESETS } from '../engine/rulesets/index.ts';
import { type GameFault, playChecked } from '../arena/conformance.ts';
import { type AgentKind, type SoakFailure, formatSoakReport, soakGenerated } from '../arena/scenario-soak.ts';

const arg = (k: string, d: string) => {
  const i = process.argv.indexOf(`--${k}`);
  return i >= 0 ? process.argv[i + 1]! : d;
};
const rs = arg('ruleset', 'all');
// every legal option (or chance outcome) is applied at every n-th node, at most `cap` of them spread over the list:
// --options-every 1 --options-cap all applies every option at every node (slow, thorough)
const optionsEvery = () => Math.max(1, Number(arg('options-every', '10')));
const optionsCap = () =>
  arg('options-cap', '40') === 'all' ? Number.POSITIVE_INFINITY : Math.max(1, Number(arg('options-cap', '40')));

if (process.argv.includes('--generated')) process.exit(generated());

const games = Number(arg('games', '10000'));
// --first F plays seeds F..F+games-1, so a long soak can run in chunks (or resume after a stop)
const first = Number(arg('first', '0'));
const which = arg('scenario', 'all');
const jobs = (rs === 'all' ? Object.keys(RULESETS) : [rs]).flatMap((r) =>
  (which === 'all' ? scenarioIds(r) : [which]).map((id) => [r, id] as const),
);
let failures = 0;
for (const [rid, id] of jobs) {
  const { game, scenario } = loadScenario(rid, id);
  const t0 = performance.now();
  let plies = 0;
  for (let g = first; g < first + games; g++) {
    // the conformance suite's checks at every step (arena/conformance.ts); every 4th game the scripted player holds A
    const seats =
      g % 4 === 3 && game.policyScores ? (['heuristic', 'random'] as const) : (['random', 'random'] as const);
    try {
      plies += playChecked(game, scenario, seedrandom.alea(`soak/${rid}/${id}/${g}`), {
        seats,
        maxPlies: 20_000,
        freeze: false,
        optionsEvery: optionsEvery(),
        optionsCap: optionsCap(),
        hashEvery: 50,
      }).plies;
    } catch (e) {
      const f = e as GameFault;
      failures++;
      console.error(
        `${rid}/${id} seed ${g} (${seats.join(' vs ')}), ply ${f.ply} after "${f.last}": ${f.message}${f.where ? `\n  at ${f.where}` : ''}`,
      );
    }
    if ((g + 1 - first) % 250 === 0)
      console.log(
        `${rid}/${id}: ${g + 1 - first} games (seeds ${first}..${g}), ${failures} failures, ${(plies / ((performance.now() - t0) / 1000)).toFixed(0)} plies/s`,
      );
  }
}
console.log(failures ? `${failures} FAILURES` : 'no failures');
process.exit(failures ? 1 : 0);

/** The generated-scenario soak over every ruleset with a scenario generator; returns the exit code. */
function generated(): number {
  const n = Number(arg('generated', '100'));
  const seed = arg('seed', 'soak');
  const out = arg('out', join('tmp', 'soak-failures'));
  const agents = arg('agents', 'random,heuristic').split(',') as AgentKind[];
  const ids = (rs === 'all' ? Object.keys(RULESETS) : [rs]).filter((id) => {
    if (RULESETS[id]?.randomScenario) return true;
    console.log(`${id}: no scenario generator (Game.randomScenario); skipped`);
    return false;
  });
  const all: SoakFailure[] = [];
  for (const id of ids) {
    const step = Math.max(1, Math.round(n / 20));
    const report = soakGenerated(RULESETS[id]!, {
      scenarios: n,
      seed,
      first: Number(arg('first', '0')),
      agents,
      gamesPerScenario: Number(arg('games-per', '1')),
      maxPlies: Number(arg('max-plies', '20000')),
      optionsEvery: optionsEvery(),
      optionsCap: optionsCap(),
      onScenario: (i, r) => {
        if ((r.drawn % step === 0 || r.drawn === n) && n > 1)
          console.log(
            `${id}: ${r.drawn}/${n} scenarios, ${r.accepted} accepted, ${r.games} games, ${r.failures.length} failures, ${r.seconds.toFixed(0)} s`,
          );
      },
    });
    console.log(formatSoakReport(report));
    all.push(...report.failures);
  }
  if (!all.length) {
    console.log('no failures');
    return 0;
  }
  // one file per failing scenario (loadable as it is), and the failures without their JSON in failures.json
  mkdirSync(out, { recursive: true });
  const fileFor = (f: SoakFailure) =>
    f.json === null ? null : join(out, `${f.ruleset}-${seed.replace(/[^A-Za-z0-9_-]/g, '_')}-${f.scenario}.json`);
  const files = new Set<string>();
  for (const f of all) {
    const file = fileFor(f);
    if (file && !files.has(file)) writeFileSync(file, JSON.stringify(f.json, null, 1));
    if (file) files.add(file);
  }
  const summary = all.map(({ json: _, ...f }) => ({ ...f, file: fileFor({ json: _, ...f }) }));
  writeFileSync(join(out, 'failures.json'), JSON.stringify(summary, null, 1));
  console.log(`${all.length} FAILURES; ${files.size} scenario files and failures.json in ${out}`);
  return 1;
}
