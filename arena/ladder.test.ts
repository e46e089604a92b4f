import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addBot, ladderTable, nextPairing, openLadder, runLadder } from './ladder.ts';

describe('ladder', () => {
  it('the Python and TypeScript reference bots join a ladder, play, and are rated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eagles-ladder-'));
    const { store } = openLadder(dir, 'write', {
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
    // seeds are secret and random now (commit-reveal), so four games cannot promise an order: only a sorted table
    expect(table.map((t) => t.name).sort()).toEqual(['py', 'scripted', 'ts']);
    expect(table.map((t) => t.ordinal)).toEqual([...table.map((t) => t.ordinal)].sort((x, y) => y - x));
  }, 120_000);
  it('refuses bots that would run unsandboxed unless told --unsafe-bots; a bot cannot reach the ladder database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eagles-ladder-'));
    const db = join(dir, 'arena.sqlite');
    const { store } = openLadder(dir, 'write', {
      ruleset: 'march-of-eagles',
      scenarios: ['farm-on-the-ridge'],
      seed: 'l',
      decisionMs: 10_000,
      gameTimeoutMs: 120_000,
    });
    addBot(store, 'rogue', `ext:cmd=node test/bots/escape-bot.cjs read:${db} write:${dir}/probe,sandbox=limits`);
    addBot(store, 'scripted', 'heuristic');
    store.close();
    await expect(runLadder(dir, 1, 1)).rejects.toThrow(
      /"ext:cmd=node .*" would run without the bubblewrap sandbox \(sandbox=limits\).*--unsafe-bots/,
    );
    // told, it runs; the same bot in the sandbox is tried next
    await runLadder(dir, 1, 1, { unsafeBots: true });
    const { store: s2 } = openLadder(dir, 'write');
    expect(s2.games()[0]!.error).toMatch(/read=ok.*write=ok/); // the control: unsandboxed, it reaches the run folder
    s2.close();
    const sandboxed = mkdtempSync(join(tmpdir(), 'eagles-ladder-'));
    const db2 = join(sandboxed, 'arena.sqlite');
    const { store: s3 } = openLadder(sandboxed, 'write', {
      ruleset: 'march-of-eagles',
      scenarios: ['farm-on-the-ridge'],
      seed: 'l',
      decisionMs: 10_000,
      gameTimeoutMs: 120_000,
    });
    addBot(s3, 'rogue', `ext:cmd=node test/bots/escape-bot.cjs read:${db2} write:${db2},sandbox=bwrap`);
    addBot(s3, 'scripted', 'heuristic');
    s3.close();
    await runLadder(sandboxed, 1, 1);
    const { store: s4 } = openLadder(sandboxed);
    const g = s4.games()[0]!;
    s4.close();
    expect(g.error).toMatch(/read=ENOENT write=(EROFS|ENOENT)/);
    expect(g.forfeit).toBe(g.seats.indexOf('rogue'));
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
