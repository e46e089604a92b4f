import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import { ticTacToe, type TttState } from '../engine/reference/tictactoe.ts';

function countGames(s: TttState): number {
  if (ticTacToe.toMove(s).kind === 'terminal') return 1;
  let n = 0;
  for (const a of ticTacToe.legalActions(s)) n += countGames(ticTacToe.applyUnchecked(s, a));
  return n;
}

describe('reference game: tic-tac-toe', () => {
  it('has the known 255,168 distinct games and 9 first moves', () => {
    const s = ticTacToe.initialState({ id: 'standard' });
    expect(ticTacToe.legalActions(s)).toHaveLength(9);
    expect(countGames(s)).toBe(255168);
  });

  it('never mutates its input and hashes positions, not histories', () => {
    const s0 = deepFreeze(ticTacToe.initialState({ id: 'standard' }));
    const a = ticTacToe.apply(ticTacToe.apply(deepFreeze(ticTacToe.apply(s0, 0)), 4), 8);
    const b = ticTacToe.apply(ticTacToe.apply(ticTacToe.apply(s0, 8), 4), 0);
    expect(hashHex(ticTacToe.hash(a))).toBe(hashHex(ticTacToe.hash(b)));
    expect(() => ticTacToe.apply(a, 4)).toThrow(/illegal/);
  });
});
