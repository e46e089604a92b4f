import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeReplay, verifyReplay } from '../engine/core/replay.ts';
import { getRuleset } from '../engine/rulesets/index.ts';
import { Store } from './store.ts';
import { runTournament, schedule, seatSplit, standings, tournamentSchema } from './tournament.ts';

const cfg = (o: object) => tournamentSchema.parse({ scenarios: ['farm-on-the-ridge'], games: 2, ...o });
const tmp = () => mkdtempSync(join(tmpdir(), 'eagles-tour-'));

describe('tournaments in the worker pool', () => {
  it('schedules seat-swapped pairs that share a seed', () => {
    const t = schedule(cfg({ agents: ['random', 'heuristic', 'mcts:it=5'], games: 4 }));
    expect(t).toHaveLength(3 * 4);
    expect(t[0]!.seed).toBe(t[1]!.seed);
    expect(t[0]!.agents).toEqual(['random', 'heuristic']);
    expect(t[1]!.agents).toEqual(['heuristic', 'random']);
  });

  it('runs on two workers, stores verifiable replays, and rates the agents', async () => {
    const dir = tmp();
    const recs = await runTournament(cfg({ agents: ['random', 'heuristic'] }), { dir, workers: 2, resume: false });
    expect(recs).toHaveLength(2);
    const st = standings(recs);
    expect(st.ratings[0]!.player).toBe('heuristic');
    const store = Store.open(dir, 'read');
    const rp = decodeReplay(store.replay(recs[0]!.id)!);
    store.close();
    expect(verifyReplay(getRuleset('march-of-eagles'), rp).ok).toBe(true);
    await expect(
      runTournament(cfg({ agents: ['random', 'heuristic'] }), { dir, workers: 1, resume: false }),
    ).rejects.toThrow(/--resume/);
  });

  it('splits a head-to-head score by scenario and seat', () => {
    const g = (scenario: string, seats: string[], returns?: number[]) => ({
      id: `${scenario}${seats}${returns}`,
      scenario,
      seed: 's',
      seats,
      ...(returns ? { returns } : {}),
    });
    const recs = [
      g('x', ['m', 'h'], [1, -1]),
      g('x', ['h', 'm'], [1, -1]),
      g('x', ['m', 'h'], [0, 0]),
      g('x', ['h', 'm'], [-1, 1]),
      g('y', ['m', 'h'], [-1, 1]),
      g('y', ['m', 'h']), // no result: left out
      g('y', ['m', 'r'], [1, -1]), // another pairing: left out
    ];
    expect(seatSplit(recs, 'm', 'h')).toEqual([
      { scenario: 'x', seat: 0, games: 2, score: 1.5 },
      { scenario: 'x', seat: 1, games: 2, score: 1 },
      { scenario: 'y', seat: 0, games: 1, score: 0 },
    ]);
  });

  it('gauntlet: the first agent against each other; an SPRT stops a clear match early', async () => {
    expect(schedule(cfg({ agents: ['a', 'b', 'c'], format: 'gauntlet', games: 2 })).map((t) => t.id)).toEqual([
      '0-1-0-0',
      '0-1-0-1',
      '0-2-0-0',
      '0-2-0-1',
    ]);
    const dir = tmp();
    const recs = await runTournament(
      cfg({ agents: ['heuristic', 'random'], games: 200, sprt: { elo0: 0, elo1: 100 } }),
      { dir, workers: 2, resume: false },
    );
    expect(recs.length).toBeLessThan(200);
    expect(recs.length).toBeGreaterThanOrEqual(2);
  });

  it('resumes: only the games not recorded are played, nothing twice', async () => {
    const dir = tmp();
    await runTournament(cfg({ agents: ['random', 'heuristic'], games: 4 }), { dir, workers: 2, resume: false });
    const store = Store.open(dir, 'read');
    expect(store.games()).toHaveLength(4);
    store.deleteGames(['0-1-1-0', '0-1-1-1']); // as if the run had been killed before these finished
    store.close();
    const recs = await runTournament(null, { dir, workers: 2, resume: true });
    const ids = recs.map((r) => r.id).sort();
    expect(ids).toEqual(
      schedule(cfg({ agents: ['random', 'heuristic'], games: 4 }))
        .map((t) => t.id)
        .sort(),
    );
    expect(new Set(ids).size).toBe(4);
  });

  it('survives a crashing, a worker-killing and a hanging bot; the rest of the run goes on', async () => {
    const dir = tmp();
    const recs = await runTournament(
      cfg({ agents: ['random', 'test-crash', 'test-exit', 'test-hang'], decisionMs: 2000 }),
      { dir, workers: 2, resume: false },
    );
    expect(recs).toHaveLength(12);
    const byPair = (a: string, b: string) => recs.filter((r) => r.seats.includes(a) && r.seats.includes(b));
    const randomWon = (r: (typeof recs)[number]) => r.returns![r.seats.indexOf('random')] === 1;
    // a throwing agent, one that kills its worker and one that hangs all lose, with the reason recorded
    expect(byPair('random', 'test-crash').every(randomWon)).toBe(true);
    expect(byPair('random', 'test-exit').every((r) => randomWon(r) && /worker failed/.test(r.error ?? ''))).toBe(true);
    expect(
      byPair('random', 'test-hang').every(
        (r) => randomWon(r) && /overran the 2000 ms decision clock/.test(r.error ?? ''),
      ),
    ).toBe(true);
    expect(standings(recs).ratings[0]!.player).toBe('random');
  }, 120_000);
});
