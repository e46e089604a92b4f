/**
 * MCTS speed on the reference game, side by side in one run: our `mcts` agent (plain UCT settings: random
 * playouts to the end, no widening, no priors, no reuse), boardgame.io's MCTSBot (devDependency) on the same
 * tic-tac-toe and iteration budget, and a bare minimal UCT written here as the floor.
 */
import { createRequire } from 'node:module';
import seedrandom from 'seedrandom';
import { IsMctsSearch } from '../agents/ismcts.ts';
import { DEFAULT_MCTS, MctsSearch } from '../agents/mcts.ts';
import { LINES, ticTacToe } from '../engine/reference/tictactoe.ts';

function winner(c: number[]): number {
  for (const [a, b, d] of LINES) if (c[a!] && c[a!] === c[b!] && c[a!] === c[d!]) return c[a!]!;
  return c.every((x) => x) ? 0 : -1;
}

/** The floor: a bare UCT over a mutable 9-cell array, with allocation-free random playouts. */
export function bareUct(iterations: number, rng: () => number): number {
  interface N {
    move: number;
    player: number;
    kids: N[];
    untried: number[];
    n: number;
    w: number;
    parent: N | null;
  }
  const root: N = { move: -1, player: 2, kids: [], untried: [0, 1, 2, 3, 4, 5, 6, 7, 8], n: 0, w: 0, parent: null };
  const b = new Int8Array(9);
  const free = new Int8Array(9);
  for (let it = 0; it < iterations; it++) {
    b.fill(0);
    let node = root;
    let toMove = 1;
    while (!node.untried.length && node.kids.length) {
      let best = node.kids[0]!;
      let bs = -Infinity;
      const ln = Math.log(node.n);
      for (const k of node.kids) {
        const u = k.w / k.n + Math.sqrt((2 * ln) / k.n);
        if (u > bs) {
          bs = u;
          best = k;
        }
      }
      node = best;
      b[node.move] = toMove;
      toMove = 3 - toMove;
    }
    let w = winner(b as unknown as number[]);
    if (node.untried.length && w < 0) {
      const i = Math.floor(rng() * node.untried.length);
      const m = node.untried[i]!;
      node.untried[i] = node.untried[node.untried.length - 1]!;
      node.untried.pop();
      b[m] = toMove;
      const untried: number[] = [];
      for (let j = 0; j < 9; j++) if (!b[j]) untried.push(j);
      const child: N = { move: m, player: toMove, kids: [], untried, n: 0, w: 0, parent: node };
      node.kids.push(child);
      node = child;
      toMove = 3 - toMove;
      w = winner(b as unknown as number[]);
    }
    let nf = 0;
    for (let j = 0; j < 9; j++) if (!b[j]) free[nf++] = j;
    while (w < 0) {
      const i = Math.floor(rng() * nf);
      b[free[i]!] = toMove;
      free[i] = free[--nf]!;
      toMove = 3 - toMove;
      w = winner(b as unknown as number[]);
    }
    for (let n: N | null = node; n; n = n.parent) {
      n.n++;
      n.w += w === 0 ? 0.5 : w === n.player ? 1 : 0;
    }
  }
  return root.n;
}

/** boardgame.io's MCTSBot on the same tic-tac-toe, `iterations` from the empty board: wall and CPU milliseconds. */
async function boardgameIo(iterations: number): Promise<Timing | { error: string }> {
  try {
    const require = createRequire(import.meta.url);
    const { MCTSBot } = require('boardgame.io/ai');
    const { InitializeGame } = require('boardgame.io/internal');
    const game = {
      setup: () => ({ cells: Array(9).fill(null) }),
      moves: {
        clickCell: ({ G, playerID }: { G: { cells: (string | null)[] }; playerID: string }, id: number) => {
          G.cells[id] = playerID;
        },
      },
      endIf: ({ G, ctx }: { G: { cells: (string | null)[] }; ctx: { currentPlayer: string } }) => {
        for (const [a, b, d] of LINES)
          if (G.cells[a!] !== null && G.cells[a!] === G.cells[b!] && G.cells[a!] === G.cells[d!])
            return { winner: ctx.currentPlayer };
        if (G.cells.every((c) => c !== null)) return { draw: true };
        return undefined;
      },
      turn: { minMoves: 1, maxMoves: 1 },
    };
    const bot = new MCTSBot({
      game,
      seed: 'bench',
      iterations,
      playoutDepth: 9,
      enumerate: (G: { cells: (string | null)[] }) =>
        G.cells.flatMap((c, i) => (c === null ? [{ move: 'clickCell', args: [i] }] : [])),
    });
    const state = InitializeGame({ game });
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await bot.play(state, '0');
    return done(t0, c0);
  } catch (e) {
    return { error: `boardgame.io not available (${(e as Error).message.split('\n')[0]})` };
  }
}

/** Wall-clock and CPU milliseconds of one run (CPU time counts this process's threads, the collector's helpers too). */
interface Timing {
  ms: number;
  cpuMs: number;
}
function done(t0: number, c0: NodeJS.CpuUsage): Timing {
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000 };
}
const median = (xs: number[]) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length % 2 ? a[a.length >> 1]! : (a[a.length / 2 - 1]! + a[a.length / 2]!) / 2;
};

/** Our MCTS with plain UCT settings (random playouts to the end, no widening, priors, reuse or pairing), one search. */
export function oursOnTicTacToe(iterations: number): Timing {
  const search = new MctsSearch(
    ticTacToe,
    {
      ...DEFAULT_MCTS,
      leaf: 'random',
      depth: Infinity,
      widenK: 0,
      prior: false,
      reuse: false,
      paired: false,
      c: Math.SQRT2,
    },
    seedrandom.alea('bench'),
  );
  const s0 = ticTacToe.initialState({ id: 'standard' });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  search.search(s0, { iterations });
  return done(t0, c0);
}

function bareOnTicTacToe(iterations: number): Timing {
  const rng = seedrandom.alea('bench');
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  bareUct(iterations, rng);
  return done(t0, c0);
}

/**
 * Our MCTS, the bare UCT and boardgame.io's MCTSBot on tic-tac-toe at each budget, in one run: after a warm-up,
 * `rounds` rounds each time the three once, in turn. Times are medians over the rounds; the ratios are medians of the
 * ratios within each round (both sides of a ratio measured moments apart, which a shared machine's load disturbs
 * least), by wall clock and by CPU time. `timeOverBareUct`: our time over the bare UCT's (the framework's overhead;
 * 1 is the floor); `speedOverBoardgameIo`: our speed over boardgame.io's.
 */
export async function mctsBench(budgets: readonly number[] = [2000, 20_000], rounds = 7) {
  const perSec = (iterations: number, ms: number) => (iterations * 1000) / ms;
  const rows = [];
  for (const iterations of budgets) {
    oursOnTicTacToe(iterations);
    bareOnTicTacToe(iterations);
    const bgWarm = await boardgameIo(Math.min(200, iterations));
    const ours: Timing[] = [];
    const bare: Timing[] = [];
    const bg: Timing[] = [];
    for (let r = 0; r < rounds; r++) {
      ours.push(oursOnTicTacToe(iterations));
      bare.push(bareOnTicTacToe(iterations));
      if (!('error' in bgWarm)) {
        const t = await boardgameIo(iterations);
        if (!('error' in t)) bg.push(t);
      }
    }
    const sum = (ts: Timing[]) => {
      const ms = median(ts.map((t) => t.ms));
      return { ms, cpuMs: median(ts.map((t) => t.cpuMs)), iterationsPerSec: perSec(iterations, ms) };
    };
    const ratio = (a: Timing[], b: Timing[], k: keyof Timing) => median(a.map((t, i) => t[k] / b[i]![k]));
    rows.push({
      iterations,
      ours: sum(ours),
      bareUct: sum(bare),
      boardgameIo: bg.length === rounds ? sum(bg) : { error: 'error' in bgWarm ? bgWarm.error : 'boardgame.io failed' },
      timeOverBareUct: { wall: ratio(ours, bare, 'ms'), cpu: ratio(ours, bare, 'cpuMs') },
      speedOverBoardgameIo:
        bg.length === rounds ? { wall: ratio(bg, ours, 'ms'), cpu: ratio(bg, ours, 'cpuMs') } : null,
    });
  }
  return { game: 'tic-tac-toe (empty board)', rounds, rows };
}

/**
 * MCTS on the hidden-information reference game, Goofspiel with 4 cards (prizes from the highest down), with plain UCT
 * settings: iterations/s where the first bidder decides (one shared tree until its sealed bid splits it) and where
 * the second bidder decides (every iteration restarts the round, one tree per player), with each search's estimate
 * of the game's value (0 by symmetry: a win probability near 50%).
 */
export async function mctsSealed(iterations = 20_000) {
  const { goofspiel } = await import('../engine/reference/goofspiel.ts');
  const s0 = goofspiel.initialState({ id: 'bench', cards: 4, order: 'descending' });
  const cfg = {
    ...DEFAULT_MCTS,
    leaf: 'random',
    depth: Infinity,
    widenK: 0,
    prior: false,
    reuse: false,
    paired: false,
    c: 1,
  } as const;
  return [
    ['first bidder (public root)', s0],
    ['second bidder (the first bid sealed)', goofspiel.apply(s0, 'bid 2')],
  ].map(([where, s]) => {
    const tm = goofspiel.toMove(s as typeof s0);
    const search = new IsMctsSearch(goofspiel, cfg, seedrandom.alea('bench'));
    const { stats, visits, value } = search.search(s, { iterations });
    let best = '';
    let n = -1;
    for (const a of goofspiel.legalActions(s as typeof s0)) if (visits(a) > n) [best, n] = [a, visits(a)];
    const win = (value(best) + 1) / 2;
    return {
      where: where as string,
      player: tm.kind === 'player' ? tm.player : -1,
      iterationsPerSec: (stats.iterations * 1000) / stats.ms,
      choice: best,
      winProbability: win,
    };
  });
}

/** MCTS iterations/s on the sample armies: a turn-2 open-field position reached by seeded random play. */
export async function mctsSampleArmies(ms = 1000) {
  const { loadScenario } = await import('./catalog.ts');
  const { searchPosition } = await import('./random-play.ts');
  const { game, scenario } = loadScenario('march-of-eagles', 'open-field');
  const s = searchPosition(game, scenario, seedrandom.alea('mcts-bench'));
  const rows: { leaf: string; iterationsPerSec: number }[] = [];
  for (const [leaf, cfg] of [
    ['scripted rollout, 120 plies, paired dice (default)', {}],
    ['scripted rollout to the end', { depth: Infinity, paired: false }],
    ['scripted rollout (ε 0.25), 10 plies', { leaf: 'heuristic', depth: 10, epsilon: 0.25 }],
    ['random rollout, 20 plies', { leaf: 'eval', depth: 20 }],
    ['evaluation only', { leaf: 'eval', depth: 0 }],
    ['random rollout to the end', { leaf: 'random', depth: Infinity }],
  ] as const) {
    const search = new MctsSearch(game, { ...DEFAULT_MCTS, early: false, ...cfg }, seedrandom.alea('x'));
    const { stats } = search.search(s, { ms });
    rows.push({ leaf, iterationsPerSec: (stats.iterations * 1000) / stats.ms });
  }
  return rows;
}
