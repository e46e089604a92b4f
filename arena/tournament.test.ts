import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeReplay, verifyReplay } from '../engine/core/replay.ts';
import { getRuleset } from '../engine/rulesets/index.ts';
import { readRecords, runTournament, schedule, standings, tournamentSchema } from './tournament.ts';

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
    const rp = decodeReplay(readFileSync(join(dir, 'replays', `${recs[0]!.id}.replay`)));
    expect(verifyReplay(getRuleset('march-of-eagles'), rp).ok).toBe(true);
    await expect(runTournament(cfg({ agents: ['random', 'heuristic'] }), { dir, workers: 1, resume: false })).rejects.toThrow(/--resume/);
  });

  it('resumes after a kill: a cut-off last line is replayed, nothing is played twice', async () => {
    const dir = tmp();
    await runTournament(cfg({ agents: ['random', 'heuristic'], games: 4 }), { dir, workers: 2, resume: false });
    const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4);
    // as if killed while writing the third record
    writeFileSync(join(dir, 'results.jsonl'), lines.slice(0, 2).join('\n') + '\n' + lines[2]!.slice(0, 20));
    expect(readRecords(dir)).toMatchObject({ skipped: 1 });
    const recs = await runTournament(null, { dir, workers: 2, resume: true });
    const ids = recs.map((r) => r.id).sort();
    expect(ids).toEqual(schedule(cfg({ agents: ['random', 'heuristic'], games: 4 })).map((t) => t.id).sort());
    expect(new Set(ids).size).toBe(4);
  });

  it('survives a crashing, a worker-killing and a hanging bot; the rest of the run goes on', async () => {
    const dir = tmp();
    const recs = await runTournament(cfg({ agents: ['random', 'test-crash', 'test-exit', 'test-hang'], gameTimeoutMs: 3000 }), { dir, workers: 2, resume: false });
    expect(recs).toHaveLength(12);
    const byPair = (a: string, b: string) => recs.filter((r) => r.seats.includes(a) && r.seats.includes(b));
    // a throwing agent forfeits
    for (const r of byPair('random', 'test-crash')) expect(r.returns![r.seats.indexOf('random')]).toBe(1);
    // a dead worker and a hang leave a record with the reason
    expect(byPair('random', 'test-exit').every((r) => /worker failed/.test(r.error ?? ''))).toBe(true);
    expect(byPair('random', 'test-hang').every((r) => /exceeded its 3000 ms limit/.test(r.error ?? ''))).toBe(true);
    expect(existsSync(join(dir, 'tournament.json'))).toBe(true);
  }, 120_000);
});
