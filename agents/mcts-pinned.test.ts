/**
 * The search itself, pinned: hashes of the root statistics (each child's key, visits, value sum and value), the node
 * count, the sequential-halving choice and the RNG's next draw after each search, over reference games and toys with
 * the settings that take different paths (UCT, widening, priors' random order, tree reuse, chance nodes, paired dice,
 * sequential halving, cut rollouts). The hashes were taken before the search was rewritten for speed; a change that
 * moves any of them changes what the search does, not only how fast.
 */
import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import type { AnyGame } from '../engine/core/game.ts';
import { goofspiel } from '../engine/reference/goofspiel.ts';
import { ticTacToe } from '../engine/reference/tictactoe.ts';
import { diceChoice, twinDice } from '../test/reference/toys.ts';
import { IsMctsSearch } from './ismcts.ts';
import { DEFAULT_MCTS, type MctsConfig, MctsSearch } from './mcts.ts';

const bench: MctsConfig = {
  ...DEFAULT_MCTS,
  leaf: 'random',
  depth: Infinity,
  widenK: 0,
  prior: false,
  reuse: false,
  paired: false,
  c: Math.SQRT2,
};
const plain: MctsConfig = { ...DEFAULT_MCTS, leaf: 'random', depth: Infinity, widenK: 0 };
const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** Searches each state in turn with one search object (so the tree is reused where it can be) and hashes the results. */
function run(game: AnyGame, cfg: MctsConfig, seed: string, states: unknown[], iterations: number): string {
  const rng = seedrandom.alea(seed);
  const search = new MctsSearch(game, cfg, rng);
  const out: string[] = [];
  for (const s of states) {
    const { root, stats, choice } = search.search(s, { iterations });
    const parts: string[] = [];
    for (const [k, c] of root.children) parts.push(`${k}:${c.n}:${c.w}:${search.childValue(root, k)}`);
    out.push(`${parts.join(',')}|${stats.nodes}|${stats.reused}|${stats.iterations}|${choice}`);
  }
  out.push(String(rng()));
  return hash(out.join('\n'));
}
const line = (moves: number[]) => {
  const out = [ticTacToe.initialState({ id: 'standard' })];
  for (const m of moves) out.push(ticTacToe.applyUnchecked(out[out.length - 1]!, m));
  return out;
};

describe('the search, pinned by its root statistics', () => {
  const t0 = ticTacToe.initialState({ id: 'standard' });
  const d0 = diceChoice.initialState({ id: 'standard' });
  const w0 = twinDice.initialState({ id: 'standard' });
  it.each([
    [
      'tic-tac-toe, the speed bench, 2,000 iterations',
      () => run(ticTacToe, bench, 'bench', [t0], 2000),
      '82688babdc8dd3f7',
    ],
    [
      'tic-tac-toe, the speed bench, 20,000 iterations',
      () => run(ticTacToe, bench, 'bench', [t0], 20000),
      'ea004c62f78558aa',
    ],
    [
      'tic-tac-toe, tree reuse along a line',
      () =>
        run(
          ticTacToe,
          plain,
          'r',
          line([4, 0, 8]).filter((_, i) => i % 2 === 0),
          1500,
        ),
      '3e82f14b2a937249',
    ],
    [
      'tic-tac-toe, the defaults',
      () => run(ticTacToe, DEFAULT_MCTS, 'dflt', line([4, 0, 8, 2]), 800),
      '7ae5cccddd0c59dc',
    ],
    [
      'tic-tac-toe, sequential halving',
      () => run(ticTacToe, { ...plain, sh: 4 }, 'sh', line([4, 0]), 700),
      '57d9579f791e05d5',
    ],
    [
      'tic-tac-toe, widening in random order',
      () => run(ticTacToe, { ...plain, widenK: 2, widenAlpha: 0.5 }, 'wd', [t0], 3000),
      'f04f272b0643732d',
    ],
    ['dice choice (chance nodes)', () => run(diceChoice, plain, 's3', [d0], 600), 'a883b86cbbdfd400'],
    [
      'dice choice, cut rollouts',
      () => run(diceChoice, { ...plain, leaf: 'eval', depth: 1 }, 's4', [d0], 600),
      'd01695a9761d737f',
    ],
    [
      'twin dice, paired',
      () => run(twinDice, { ...plain, c: 100, paired: true }, 'twins', [w0], 400),
      '0f77593ee8b9cdcd',
    ],
    [
      'twin dice, unpaired',
      () => run(twinDice, { ...plain, c: 100, paired: false }, 'twins', [w0], 400),
      '996fee70ae913e2a',
    ],
    [
      'twin dice, sequential halving on paired dice',
      () => run(twinDice, { ...plain, sh: 2, paired: true }, 'twins', [w0], 400),
      '1b76819c6181d295',
    ],
    [
      'twin dice, scripted rollouts played on to a quiet position',
      () => run(twinDice, { ...plain, leaf: 'heuristic', depth: 1, quiet: 2 }, 'q', [w0], 50),
      '019693f2ca734973',
    ],
  ])('%s', (_name, f, expected) => {
    expect(f()).toBe(expected);
  });
  it('Goofspiel (information-set search), at both bidders', () => {
    const g0 = goofspiel.initialState({ id: 'bench', cards: 4, order: 'descending' });
    const got = [g0, goofspiel.apply(g0, 'bid 2')].map((s) => {
      const search = new IsMctsSearch(goofspiel, { ...plain, reuse: false, paired: false, c: 1 }, seedrandom.alea('g'));
      const { stats, visits, value } = search.search(s, { iterations: 3000 });
      const parts = goofspiel.legalActions(s).map((a) => `${a}:${visits(a)}:${value(a)}`);
      return hash(`${parts.join(',')}|${stats.nodes}`);
    });
    expect(got).toEqual(['441a899382d767d5', '73ba79775cd8475a']);
  });
});
