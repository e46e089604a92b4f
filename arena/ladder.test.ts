import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addBot, ladderTable, nextPairing, openLadder, runLadder } from './ladder.ts';

describe('ladder', () => {
  it('the Python and TypeScript reference bots join a ladder, play, and are rated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eagles-ladder-'));
    const { store } = openLadder(dir, {
      ruleset: 'march-of-eagles',
      scenarios: ['farm-on-the-ridge'],
      seed: 'l',
      decisionMs: 10_000,
      gameTimeoutMs: 120_000,
    });
    addBot(store, 'py', 'ext:cmd=python3 arena/bots/random_bot.py');
    addBot(store, 'ts', 'ext:cmd=node --import ./node_modules/tsx/dist/loader.mjs arena/bots/random-bot.ts');
    addBot(store, 'scripted', 'heuristic');
    expect(() => addBot(store, 'py', 'random')).toThrow(/already on the ladder/);
    expect(() => addBot(store, 'x', 'nosuch')).toThrow(/unknown agent/);
    store.close();
    const bots = await runLadder(dir, 4, 2);
    expect(bots.reduce((a, b) => a + b.games, 0)).toBe(8);
    const { store: s2 } = openLadder(dir);
    const games = s2.games();
    expect(games).toHaveLength(4);
    expect(games.every((g) => g.returns && !g.error)).toBe(true);
    expect(games.some((g) => g.seats.includes('py'))).toBe(true);
    const table = ladderTable(s2);
    s2.close();
    expect(table[0]!.name).toBe('scripted');
  }, 120_000);
  it('pairs the bot with fewest games against the closest rating', () => {
    const bots = [
      { name: 'a', spec: 'x', mu: 30, sigma: 2, games: 5 },
      { name: 'b', spec: 'x', mu: 20, sigma: 2, games: 1 },
      { name: 'c', spec: 'x', mu: 21, sigma: 2, games: 9 },
    ];
    expect(nextPairing(bots).map((b) => b.name)).toEqual(['b', 'c']);
  });
});
