/** `bench --phases` (arena/phase-bench.ts): every timed ply is charged to one decision kind, and the shares add up. */
import { describe, expect, it } from 'vitest';
import { ticTacToe } from '../engine/reference/tictactoe.ts';
import { loadScenario } from './catalog.ts';
import { phaseBench, printPhaseBench } from './phase-bench.ts';
import { playRandomGame } from './random-play.ts';
import seedrandom from 'seedrandom';

describe('bench --phases', () => {
  it('charges the procedure runtime frame kind on top; chance nodes are marked', () => {
    const { game, scenario } = loadScenario('march-of-eagles', 'open-field');
    const r = phaseBench(game, scenario, 2, 'p', 0);
    const kinds = r.rows.map((x) => x.kind);
    expect(kinds).toContain('orders');
    expect(kinds).toContain('check (chance)');
    expect(r.rows.reduce((a, x) => a + x.plies, 0)).toBe(r.plies);
    expect(r.rows.reduce((a, x) => a + x.share, 0)).toBeCloseTo(1, 9);
    // the same seeded games as a plain random loop drawing from the same stream: the same number of plies
    const rng = seedrandom.alea('p');
    const plies = playRandomGame(game, scenario, rng).plies + playRandomGame(game, scenario, rng).plies;
    expect(r.plies).toBe(plies);
    const lines: string[] = [];
    printPhaseBench(r, game.id, 'open-field', (l) => lines.push(l));
    expect(lines[0]).toMatch(/march-of-eagles \/ open-field, 2 seeded random games/);
    expect(lines.length).toBe(r.rows.length + 2);
  });

  it('a game without a frame stack reads as plain decisions', () => {
    const r = phaseBench(ticTacToe, { id: 'standard' }, 5, 'p', 0);
    expect(r.rows.map((x) => x.kind)).toEqual(['decision']);
  });
});
