/**
 * Tic-tac-toe as a reference `Game` for checking the core, the drivers and the agents against known results:
 * 255,168 distinct games, 9 first moves, perfect play draws.
 */
import type { Game } from '../../engine/core/game.ts';
import { hashValue } from '../../engine/core/hash.ts';

export interface TttState {
  /** 9 cells: 0 empty, 1 X, 2 O. */
  readonly cells: readonly number[];
  readonly toMove: 0 | 1;
  readonly winner: -1 | 0 | 1 | null;
}
export type TttAction = number;

const LINES = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
] as const;

function winnerOf(c: readonly number[]): -1 | 0 | 1 | null {
  for (const [a, b, d] of LINES) if (c[a] && c[a] === c[b] && c[a] === c[d]) return (c[a]! - 1) as 0 | 1;
  return c.every((x) => x) ? -1 : null;
}

const TERMINAL = { kind: 'terminal' } as const;
const MOVER = [{ kind: 'player', player: 0 } as const, { kind: 'player', player: 1 } as const];

export const ticTacToe: Game<TttState, TttAction, { id: string }> = {
  id: 'tic-tac-toe',
  title: 'Tic-tac-toe (reference)',
  version: 1,
  players: ['X', 'O'],
  defaultScenario: 'standard',
  validateScenario: (json) =>
    json && typeof json === 'object' && (json as { id?: unknown }).id === 'standard'
      ? { ok: true, value: { id: 'standard' } }
      : { ok: false, problems: [{ path: '$.id', message: 'the only scenario is "standard"' }] },
  initialState: () => ({ cells: [0, 0, 0, 0, 0, 0, 0, 0, 0], toMove: 0, winner: null }),
  toMove: (s) => (s.winner !== null ? TERMINAL : MOVER[s.toMove]!),
  legalActions: (s) => {
    const out: number[] = [];
    if (s.winner === null) for (let i = 0; i < 9; i++) if (!s.cells[i]) out.push(i);
    return out;
  },
  chanceOutcomes: () => [],
  chanceKey: () => '',
  apply(s, a) {
    if (s.winner !== null || !Number.isInteger(a) || a < 0 || a > 8 || s.cells[a]) throw new Error(`illegal move ${a}`);
    return this.applyUnchecked(s, a);
  },
  applyUnchecked(s, a) {
    const cells = s.cells.slice();
    cells[a] = s.toMove + 1;
    return { cells, toMove: s.toMove === 0 ? 1 : 0, winner: winnerOf(cells) };
  },
  returns: (s) => (s.winner === 0 ? [1, -1] : s.winner === 1 ? [-1, 1] : [0, 0]),
  observe: (s) => s,
  sampleState: (s) => s,
  evaluate: (s, p) => (s.winner === null || s.winner === -1 ? 0 : s.winner === p ? 1 : -1),
  actionKey: (a) => `c${a}`,
  describeAction: (_s, a) => `mark cell ${a}`,
  hash: (s) => hashValue(s),
  render: (s) => [0, 3, 6].map((r) => s.cells.slice(r, r + 3).map((c) => '.XO'[c]).join('')).join('\n'),
  resultText: (s) => (s.winner === -1 ? 'draw' : s.winner === null ? 'in progress' : `${'XO'[s.winner]} wins`),
};
