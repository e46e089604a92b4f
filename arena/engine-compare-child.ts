/**
 * One side of `bench --baseline` (arena/engine-compare.ts), run in its own process: seeded random games of one
 * scenario with the engine of the checkout at `root` (this file only reads that tree's registry, catalog, random
 * player and hash, so it works on older commits too). Plays `warmup` seconds of games first so the JIT settles, then
 * `seconds` of timed games from seed `bench`, and prints one JSON line: games, plies, CPU and wall seconds, and the
 * final-position hash of each of the first `keep` timed games.
 *
 * With `search`, the work is that checkout's default MCTS instead (its agents/mcts.ts too), on the position that
 * `searchPosition` (this tree's arena/random-play.ts) reaches with that checkout's engine: searches of `iterations`
 * iterations, one seed each, warm-up searches first; "games" are then searches, "plies" iterations, and each of the
 * first `keep` searches is named by its iterations and root value.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { searchPosition } from './random-play.ts';

interface ChildArgs {
  readonly root: string;
  readonly ruleset: string;
  readonly scenario?: string;
  readonly warmup: number;
  readonly seconds: number;
  readonly keep: number;
  readonly search?: boolean;
  readonly iterations?: number;
}

const a = JSON.parse(process.argv[2] ?? '{}') as ChildArgs;
const from = (p: string) => import(pathToFileURL(join(a.root, p)).href);
try {
  const { RULESETS } = await from('engine/rulesets/index.ts');
  const { loadScenario } = await from('arena/catalog.ts');
  const { playRandomGame } = await from('arena/random-play.ts');
  const { hashHex } = await from('engine/core/hash.ts');
  const seedrandom = (await import('seedrandom')).default;
  const game = RULESETS[a.ruleset];
  if (!game) throw new Error(`unknown ruleset "${a.ruleset}" in ${a.root}`);
  const { scenario, id } = loadScenario(a.ruleset, a.scenario);
  /**
   * Runs `step` for `warmup` seconds, then for `seconds` timed, and prints the line the parent reads: steps as
   * `games`, their units of work as `plies`, CPU and wall seconds, and the names of the first `keep` timed steps.
   */
  const timed = (step: (i: number, warm: boolean) => { units: number; name: string }) => {
    let t0 = performance.now();
    for (let i = 0; (performance.now() - t0) / 1000 < a.warmup; i++) step(i, true);
    const hashes: string[] = [];
    let games = 0;
    let plies = 0;
    const c0 = process.cpuUsage();
    t0 = performance.now();
    while ((performance.now() - t0) / 1000 < a.seconds) {
      const r = step(games, false);
      if (games < a.keep) hashes.push(r.name);
      plies += r.units;
      games++;
    }
    const wall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    console.log(JSON.stringify({ scenario: id, games, plies, cpu: (c.user + c.system) / 1e6, wall, hashes }));
  };
  if (a.search) {
    const { MctsSearch, DEFAULT_MCTS } = await from('agents/mcts.ts');
    // this tree's driver, which uses only the Game interface, on that tree's engine
    const s = searchPosition(game, scenario, seedrandom.alea('mcts-bench'));
    timed((i, warm) => {
      const r = new MctsSearch(
        game,
        { ...DEFAULT_MCTS, early: false },
        seedrandom.alea(`${warm ? 'w' : 'x'}${i}`),
      ).search(s, { iterations: a.iterations ?? 200 }) as { root: { w: number }; stats: { iterations: number } };
      return { units: r.stats.iterations, name: `${r.stats.iterations}:${r.root.w.toFixed(6)}` };
    });
  } else {
    const warm = seedrandom.alea('warmup');
    const rng = seedrandom.alea('bench');
    timed((i, w) => {
      const r = playRandomGame(game, scenario, w ? warm : rng);
      // only the games compared are hashed: hashing is not the engine's work being timed
      return { units: r.plies, name: !w && i < a.keep ? hashHex(game.hash(r.state)) : '' };
    });
  }
} catch (e) {
  // one marked line, which the parent shows as the reason
  console.error(`engine-compare: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
  process.exit(1);
}
