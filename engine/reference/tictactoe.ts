/**
 * Tic-tac-toe as a reference `Game` for checking the core, the drivers and the agents against known results:
 * 255,168 distinct games, 9 first moves, perfect play draws.
 */
import type { Game } from '../core/game.ts';
import { hashValue } from '../core/hash.ts';
import { type Encoding, layout } from '../core/encoding.ts';

const TTT_STATE = layout([
  { name: 'mine', size: 9, doc: "cells holding the viewer's mark" },
  { name: 'theirs', size: 9, doc: "cells holding the opponent's mark" },
  { name: 'to move', size: 1, doc: '1 when the viewer is to move' },
]);
const TTT_ACTION = layout([{ name: 'cell', size: 9, doc: 'one-hot cell to mark' }]);

/** Encoding of the reference game: board planes from the viewer's side, one-hot cells as actions, fixed index = cell. */
const tttEncoding: Encoding<TttState, TttAction> = {
  id: 'tic-tac-toe/v1',
  version: 1,
  stateSize: TTT_STATE.size,
  actionSize: TTT_ACTION.size,
  stateLayout: TTT_STATE.blocks,
  actionLayout: TTT_ACTION.blocks,
  encodeState(s, player, out, at = 0) {
    out.fill(0, at, at + TTT_STATE.size);
    for (let i = 0; i < 9; i++) {
      const c = s.cells[i]!;
      if (c === player + 1) out[at + i] = 1;
      else if (c) out[at + 9 + i] = 1;
    }
    out[at + 18] = s.toMove === player ? 1 : 0;
  },
  encodeActions(_s, _p, actions, out, at = 0) {
    out.fill(0, at, at + actions.length * 9);
    actions.forEach((a, j) => (out[at + j * 9 + a] = 1));
  },
  fixed: { size: 9, index: (_s, a) => a },
};

export interface TttState {
  /** 9 cells: 0 empty, 1 X, 2 O. */
  readonly cells: readonly number[];
  readonly toMove: 0 | 1;
  readonly winner: -1 | 0 | 1 | null;
}
export type TttAction = number;

/** The eight lines of three. */
export const LINES = [
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
  citation: /^(mark|line|full)$/,
  // the board is always empty at the start: a scenario is only a name (and the soak's generator varies the name)
  validateScenario: (json) => {
    const j = json as { id?: unknown } | null;
    if (!j || typeof j !== 'object' || Array.isArray(j))
      return { ok: false, problems: [{ path: '$', message: 'a scenario is a JSON object' }] };
    if (typeof j.id !== 'string' || !j.id)
      return { ok: false, problems: [{ path: '$.id', message: 'a non-empty string is required' }] };
    const extra = Object.keys(j).filter((k) => !['id', 'ruleset', 'title'].includes(k));
    if (extra.length) return { ok: false, problems: extra.map((k) => ({ path: `$.${k}`, message: 'unknown field' })) };
    return { ok: true, value: { id: j.id } };
  },
  randomScenario: (u) => ({ id: `generated-${Math.floor(u() * 1e9)}` }),
  initialState: () => ({ cells: [0, 0, 0, 0, 0, 0, 0, 0, 0], toMove: 0, winner: null }),
  toMove: (s) => (s.winner !== null ? TERMINAL : MOVER[s.toMove]!),
  legalActions: (s) => {
    const out: number[] = [];
    if (s.winner === null) for (let i = 0; i < 9; i++) if (!s.cells[i]) out.push(i);
    return out;
  },
  chanceOutcomes: () => [],
  chanceKey: () => '',
  apply(s, a, events) {
    if (s.winner !== null || !Number.isInteger(a) || a < 0 || a > 8 || s.cells[a]) throw new Error(`illegal move ${a}`);
    return this.applyUnchecked(s, a, events);
  },
  applyUnchecked(s, a, events) {
    const cells = s.cells.slice();
    cells[a] = s.toMove + 1;
    const winner = winnerOf(cells);
    if (events) {
      events.push({ rule: 'mark', text: `${'XO'[s.toMove]} marks cell ${a}` });
      if (winner === -1) events.push({ rule: 'full', text: 'the board is full: a draw' });
      else if (winner !== null) events.push({ rule: 'line', text: `${'XO'[winner]} completes a line and wins` });
    }
    return { cells, toMove: s.toMove === 0 ? 1 : 0, winner };
  },
  returns: (s) => (s.winner === 0 ? [1, -1] : s.winner === 1 ? [-1, 1] : [0, 0]),
  observe: (s) => s,
  sampleState: (s) => s,
  evaluate: (s, p) => (s.winner === null || s.winner === -1 ? 0 : s.winner === p ? 1 : -1),
  actionKey: (a) => `c${a}`,
  describeAction: (_s, a) => `mark cell ${a}`,
  hash: (s) => hashValue(s),
  render: (s) =>
    [0, 3, 6]
      .map((r) =>
        s.cells
          .slice(r, r + 3)
          .map((c) => '.XO'[c])
          .join(''),
      )
      .join('\n'),
  resultText: (s) => (s.winner === -1 ? 'draw' : s.winner === null ? 'in progress' : `${'XO'[s.winner]} wins`),
  encoding: tttEncoding,
};
