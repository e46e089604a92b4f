/**
 * `bench --baseline DIR`: this checkout's engine against another checkout's (say the commit before a speed-up), in
 * one run on one machine. Each round runs the two in turn, in fresh processes (arena/engine-compare-child.ts), on the
 * same seeded random games after a warm-up; the order alternates between rounds so a drift in the machine's load
 * falls on both. Speeds are by CPU time (the figure to trust on a shared machine) and by wall clock; the ratio is the
 * median of the rounds' ratios. The final positions of the first games are compared: when the two engines do not
 * end the same games in the same states, the ratio compares different work, and the result says so.
 *
 * The baseline is any checkout of this project with arena/catalog.ts, arena/random-play.ts, engine/core/hash.ts and
 * engine/rulesets/index.ts, and its dependencies installed (`git worktree add /tmp/base <commit>` and a
 * `node_modules` link will do).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CompareOptions {
  readonly baseline: string;
  readonly ruleset: string;
  readonly scenario?: string;
  readonly rounds: number;
  readonly warmup: number;
  readonly seconds: number;
  /** Seconds allowed beyond the warm-up and the timed run before a side is stopped (default 120). */
  readonly grace?: number;
  /**
   * Time the default MCTS instead of random games: searches of `iterations` (default 200) on the scenario's search
   * position (arena/engine-compare-child.ts), compared by iterations per CPU second and by their root values.
   */
  readonly search?: boolean;
  readonly iterations?: number;
}

interface SideRun {
  readonly games: number;
  readonly plies: number;
  /** CPU seconds of the timed games (user + system, the collector's threads included). */
  readonly cpu: number;
  readonly wall: number;
  readonly cpuPliesPerSec: number;
  readonly wallPliesPerSec: number;
}

export interface CompareResult {
  /** `games`: random games, plies counted; `search`: MCTS searches, iterations counted (in the `plies` fields). */
  readonly work: 'games' | 'search';
  readonly baseline: string;
  readonly current: string;
  readonly ruleset: string;
  readonly scenario: string;
  readonly rounds: readonly { readonly baseline: SideRun; readonly current: SideRun; readonly cpuRatio: number }[];
  /** Median over the rounds of current / baseline plies per CPU second. */
  readonly cpuRatio: number;
  readonly wallRatio: number;
  /** Games whose final positions were compared (the first of each run), and the first that differed (-1: none). */
  readonly comparedGames: number;
  readonly firstDifferentGame: number;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const KEEP = 200;
/** Seconds allowed beyond the warm-up and the timed run before a side is stopped. */
const GRACE_SECONDS = 120;
/** The prefix of the child's own error line (engine-compare-child.ts). */
const CHILD_ERROR = 'engine-compare: ';
const NEEDS = ['arena/catalog.ts', 'arena/random-play.ts', 'engine/core/hash.ts', 'engine/rulesets/index.ts'];

function median(xs: readonly number[]): number {
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

function runSide(
  root: string,
  o: CompareOptions,
  label: string,
): SideRun & { readonly hashes: string[]; readonly scenario: string } {
  const args = JSON.stringify({
    root,
    ruleset: o.ruleset,
    scenario: o.scenario,
    warmup: o.warmup,
    seconds: o.seconds,
    keep: KEEP,
    ...(o.search ? { search: true, iterations: o.iterations ?? 200 } : {}),
  });
  // a game that never ends (or an engine that hangs) must not hang the bench: the warm-up, the timed seconds and a
  // generous allowance for starting up and for the last game
  const limit = Math.ceil(o.warmup + o.seconds + (o.grace ?? GRACE_SECONDS));
  const r = spawnSync(process.execPath, [join(HERE, 'engine-compare-boot.mjs'), args], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    timeout: limit * 1000,
    killSignal: 'SIGKILL',
  });
  const failed = (why: string) => new Error(`bench --baseline: the ${label} engine (${root}) failed: ${why}`);
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT')
    throw failed(`it did not finish within ${limit} s (a game that does not end?)`);
  if (r.status !== 0) {
    // the child's own one-line message is marked; otherwise the first line of whatever Node printed
    const lines = (r.stderr ?? '').split('\n').map((l) => l.trim());
    const own = lines.find((l) => l.startsWith(CHILD_ERROR));
    const why =
      own?.slice(CHILD_ERROR.length) ??
      lines.find((l) => /error/i.test(l)) ??
      lines.find((l) => l) ??
      (r.signal ? `killed by ${r.signal}` : (r.error?.message ?? `exit code ${r.status}`));
    throw failed(why);
  }
  let out: { scenario: string; games: number; plies: number; cpu: number; wall: number; hashes: string[] };
  try {
    out = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '');
  } catch {
    throw failed('it did not print its result (one line of JSON) last');
  }
  return { ...out, cpuPliesPerSec: out.plies / out.cpu, wallPliesPerSec: out.plies / out.wall };
}

/** Checks the options and the baseline checkout; throws a one-line error naming what is wrong. */
export function checkCompareOptions(o: CompareOptions): void {
  const dir = resolve(o.baseline);
  if (!existsSync(dir)) throw new Error(`--baseline: no such directory "${o.baseline}"`);
  const missing = NEEDS.filter((p) => !existsSync(join(dir, p)));
  if (missing.length)
    throw new Error(`--baseline: "${o.baseline}" is not a checkout of this project (no ${missing.join(', ')})`);
  if (!Number.isInteger(o.rounds) || o.rounds < 1)
    throw new Error(`--rounds must be a whole number ≥ 1 (got ${o.rounds})`);
  if (!(o.warmup >= 0)) throw new Error(`--warmup must be a number of seconds ≥ 0 (got ${o.warmup})`);
  if (o.search && !existsSync(join(dir, 'agents/mcts.ts')))
    throw new Error(`--baseline: "${o.baseline}" has no agents/mcts.ts to search with`);
  if (o.iterations !== undefined && !(Number.isInteger(o.iterations) && o.iterations >= 1))
    throw new Error(`--it must be a whole number ≥ 1 (got ${o.iterations})`);
}

export function compareEngines(o: CompareOptions, onRound?: (i: number) => void): CompareResult {
  checkCompareOptions(o);
  const base = resolve(o.baseline);
  const rounds: { baseline: SideRun; current: SideRun; cpuRatio: number; wallRatio: number }[] = [];
  let compared = Number.POSITIVE_INFINITY;
  let firstDiff = -1;
  let scenario = o.scenario ?? '';
  for (let i = 0; i < o.rounds; i++) {
    onRound?.(i);
    // alternate who goes first, so a change in the machine's load between the two runs of a round evens out
    const [first, second] = i % 2 === 0 ? ([base, ROOT] as const) : ([ROOT, base] as const);
    const a = runSide(first, o, first === base ? 'baseline' : 'current');
    const b = runSide(second, o, second === base ? 'baseline' : 'current');
    const [bl, cur] = first === base ? [a, b] : [b, a];
    scenario = cur.scenario;
    const n = Math.min(bl.hashes.length, cur.hashes.length);
    compared = Math.min(compared, n);
    for (let g = 0; g < n && firstDiff < 0; g++) if (bl.hashes[g] !== cur.hashes[g]) firstDiff = g;
    const side = ({ hashes: _h, scenario: _s, ...r }: typeof bl): SideRun => r;
    rounds.push({
      baseline: side(bl),
      current: side(cur),
      cpuRatio: cur.cpuPliesPerSec / bl.cpuPliesPerSec,
      wallRatio: cur.wallPliesPerSec / bl.wallPliesPerSec,
    });
  }
  return {
    work: o.search ? 'search' : 'games',
    baseline: base,
    current: ROOT,
    ruleset: o.ruleset,
    scenario,
    rounds: rounds.map(({ wallRatio: _w, ...r }) => r),
    cpuRatio: median(rounds.map((r) => r.cpuRatio)),
    wallRatio: median(rounds.map((r) => r.wallRatio)),
    comparedGames: Number.isFinite(compared) ? compared : 0,
    firstDifferentGame: firstDiff,
  };
}

export function printComparison(r: CompareResult): void {
  const search = r.work === 'search';
  const unit = search ? 'it/s' : 'plies/s';
  console.log(
    `${search ? 'default MCTS' : 'engine'} speed on ${r.ruleset}/${r.scenario}: this checkout against ${r.baseline}`,
  );
  console.log(`round  baseline ${unit} (CPU)  current ${unit} (CPU)  current/baseline`);
  const w = unit.length + 15;
  r.rounds.forEach((x, i) =>
    console.log(
      `${String(i + 1).padStart(5)}  ${Math.round(x.baseline.cpuPliesPerSec).toLocaleString('en').padStart(w)}  ${Math.round(
        x.current.cpuPliesPerSec,
      )
        .toLocaleString('en')
        .padStart(w - 1)}  ${x.cpuRatio.toFixed(2).padStart(15)}×`,
    ),
  );
  console.log(`median: ${r.cpuRatio.toFixed(2)}× by CPU time, ${r.wallRatio.toFixed(2)}× by wall clock`);
  console.log(
    r.firstDifferentGame < 0
      ? search
        ? `same searches: the first ${r.comparedGames} searches of every run had the same iterations and root values with both engines`
        : `same games: the first ${r.comparedGames} games of every run ended in the same positions with both engines`
      : search
        ? `DIFFERENT SEARCHES: search ${r.firstDifferentGame + 1} had a different root value, so the engines did different work and the ratio is not like for like`
        : `DIFFERENT GAMES: game ${r.firstDifferentGame + 1} ended in a different position, so the engines did different work and the ratio is not like for like`,
  );
}
