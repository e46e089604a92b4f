/**
 * One side of `bench --baseline` (arena/engine-compare.ts), run in its own process: seeded random games of one
 * scenario with the engine of the checkout at `root` (this file only reads that tree's registry, catalog, random
 * player and hash, so it works on older commits too). Plays `warmup` seconds of games first so the JIT settles, then
 * `seconds` of timed games from seed `bench`, and prints one JSON line: games, plies, CPU and wall seconds, and the
 * final-position hash of each of the first `keep` timed games.
 *
 * With `search`, the work is that checkout's default MCTS instead (its agents/mcts.ts and arena/dice.ts too): on the
 * position seeded random play reaches first at a player's decision with more than two choices, from turn 2 where the
 * state counts turns (the bench's sample-armies position on open-field), searches of `iterations` iterations, one
 * seed each, warm-up searches first; "games" are then searches, "plies" iterations, and each of the first `keep`
 * searches is named by its iterations and root value.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

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
  if (a.search) {
    const { MctsSearch, DEFAULT_MCTS } = await from('agents/mcts.ts');
    const { sampleOutcome } = await from('arena/dice.ts');
    const rng = seedrandom.alea('mcts-bench');
    let s = game.initialState(scenario);
    while (
      !(
        ((s as { turn?: number }).turn ?? 2) >= 2 &&
        game.toMove(s).kind === 'player' &&
        game.legalActions(s).length > 2
      )
    ) {
      const tm = game.toMove(s);
      if (tm.kind === 'terminal') throw new Error('the game ended before a position with a choice to search');
      const l = tm.kind === 'chance' ? null : game.legalActions(s);
      s = game.applyUnchecked(
        s,
        l ? l[Math.floor(rng() * l.length)] : sampleOutcome(game.chanceOutcomes(s), rng()).action,
      );
    }
    const search = (seed: string) =>
      new MctsSearch(game, { ...DEFAULT_MCTS, early: false }, seedrandom.alea(seed)).search(s, {
        iterations: a.iterations ?? 200,
      }) as { root: { w: number }; stats: { iterations: number } };
    let t0 = performance.now();
    for (let w = 0; (performance.now() - t0) / 1000 < a.warmup; w++) search(`w${w}`);
    const names: string[] = [];
    let searches = 0;
    let iterations = 0;
    const c0 = process.cpuUsage();
    t0 = performance.now();
    while ((performance.now() - t0) / 1000 < a.seconds) {
      const r = search(`x${searches}`);
      if (searches < a.keep) names.push(`${r.stats.iterations}:${r.root.w.toFixed(6)}`);
      iterations += r.stats.iterations;
      searches++;
    }
    const wall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    console.log(
      JSON.stringify({
        scenario: id,
        games: searches,
        plies: iterations,
        cpu: (c.user + c.system) / 1e6,
        wall,
        hashes: names,
      }),
    );
  } else {
    const warm = seedrandom.alea('warmup');
    let t0 = performance.now();
    while ((performance.now() - t0) / 1000 < a.warmup) playRandomGame(game, scenario, warm);
    const rng = seedrandom.alea('bench');
    const hashes: string[] = [];
    let games = 0;
    let plies = 0;
    const c0 = process.cpuUsage();
    t0 = performance.now();
    while ((performance.now() - t0) / 1000 < a.seconds) {
      const r = playRandomGame(game, scenario, rng);
      if (games < a.keep) hashes.push(hashHex(game.hash(r.state)));
      plies += r.plies;
      games++;
    }
    const wall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    console.log(JSON.stringify({ scenario: id, games, plies, cpu: (c.user + c.system) / 1e6, wall, hashes }));
  }
} catch (e) {
  // one marked line, which the parent shows as the reason
  console.error(`engine-compare: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
  process.exit(1);
}
