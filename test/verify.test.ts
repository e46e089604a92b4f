/**
 * Verifiable results: any tampering with a replay fails `replay verify`, naming the step or field — the seed, the
 * dice, the mover of a step, the options, the result text, the agents — and against its run folder, the game it
 * claims to be. Ladder seeds are committed before the game and revealed after it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { eagles } from './eagles-cli.ts';
import { RandomAgent } from '../agents/random.ts';
import { loadScenario } from '../arena/catalog.ts';
import { addBot, openLadder, runLadder } from '../arena/ladder.ts';
import { runMatch } from '../arena/match.ts';
import { runTournament } from '../arena/tournament.ts';
import { commitment, verifyMatchReplay } from '../arena/verify.ts';
import { decodeReplay, encodeReplay, type Replay } from '../engine/core/replay.ts';
import { getRuleset } from '../engine/rulesets/index.ts';

const tmp = mkdtempSync(join(tmpdir(), 'eagles-verify-'));
const game = getRuleset('march-of-eagles');
const clone = (r: Replay): Replay => decodeReplay(encodeReplay(r));

let base: Replay;
beforeAll(async () => {
  const { scenario } = loadScenario('march-of-eagles', 'farm-on-the-ridge');
  const m = await runMatch({
    game,
    scenario,
    scenarioId: 'farm-on-the-ridge',
    seed: '42',
    agents: [new RandomAgent(), new RandomAgent()],
  });
  base = clone({ ...m.replay, agents: ['random', 'random'] });
});

describe('replay verify: a replay agrees with itself and with its dice', () => {
  it('the untouched replay verifies, counting the chance outcomes drawn from the seed', () => {
    const v = verifyMatchReplay(game, base);
    expect(v.ok, v.message).toBe(true);
    expect(v.message).toMatch(/\d+ chance outcomes drawn from the seed/);
  });
  it('another seed fails at the first chance step whose dice differ', () => {
    const v = verifyMatchReplay(game, { ...clone(base), seed: '43' });
    expect(v.ok).toBe(false);
    expect(v.message).toMatch(/^step \d+: the dice of seed "43" give/);
  });
  it('a changed player field, options, result text, scenario hash or agent list fails, naming the field', () => {
    const p = clone(base);
    const i = p.steps.findIndex((s) => s.c === 0);
    (p.steps[i] as { p: number }).p = 1 - p.steps[i]!.p;
    expect(verifyMatchReplay(game, p).message).toMatch(new RegExp(`^step ${i + 1} .*field p is`));
    expect(verifyMatchReplay(game, { ...clone(base), options: { maxTurns: 3 } }).message).toMatch(/^field options/);
    const t = clone(base);
    expect(t.result).not.toBeNull();
    expect(verifyMatchReplay(game, { ...t, result: { ...t.result!, text: 'B wins gloriously' } }).message).toMatch(
      /^field result\.text/,
    );
    expect(verifyMatchReplay(game, { ...clone(base), scenarioHash: '0123456789abcdef' }).message).toMatch(
      /^field scenarioHash/,
    );
    expect(verifyMatchReplay(game, { ...clone(base), agents: ['random', 'nosuch'] }).message).toMatch(
      /^field agents\[1\]: no agent "nosuch"/,
    );
    expect(verifyMatchReplay(game, { ...clone(base), agents: ['random'] }).message).toMatch(/^field agents: 1 agents/);
    // an env-server client's seat, and the hidden diagnostic agents, are names a record may hold
    expect(verifyMatchReplay(game, { ...clone(base), agents: ['env-client', 'test-crash'] }).ok).toBe(true);
  });
});

describe('replay verify --run: the game its run folder recorded', () => {
  it('an exported tournament game verifies against its folder; with its agents swapped it does not', async () => {
    const dir = join(tmp, 'tour');
    await runTournament(
      {
        ruleset: 'march-of-eagles',
        scenarios: ['farm-on-the-ridge'],
        agents: ['random', 'heuristic'],
        format: 'round-robin',
        games: 2,
        seed: 't',
        gameTimeoutMs: 120_000,
        decisionMs: 0,
      },
      { dir, workers: 1, resume: false },
    );
    const status = JSON.parse(eagles(['arena', 'status', '--out', dir, '--json']).out) as { games: string[] };
    const file = join(tmp, 'g.replay');
    const ex = eagles(['arena', 'export', '--out', dir, '--game', status.games[0]!, '--file', file]);
    expect(ex.code, ex.err).toBe(0);
    const ok = eagles(['replay', 'verify', file, '--run', dir]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/OK — .*matches the game recorded in/);
    const r = decodeReplay(readFileSync(file));
    const swapped = join(tmp, 'swapped.replay');
    writeFileSync(swapped, encodeReplay({ ...r, agents: [r.agents[1]!, r.agents[0]!] }));
    expect(verifyMatchReplay(game, decodeReplay(readFileSync(swapped))).ok).toBe(true); // alone, unprovable
    const bad = eagles(['replay', 'verify', swapped, '--run', dir]);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(
      /replay verification failed: field (agents: .* recorded the seed|finalHash: .*its agents or steps were changed)/,
    );
    const missing = eagles(['arena', 'export', '--out', dir, '--game', 'nope', '--file', file]);
    expect(missing.err).toMatch(/no game "nope"/);
  }, 120_000);

  it('a ladder publishes each seed commitment before its game and the seed after; a changed seed fails', async () => {
    const dir = join(tmp, 'ladder');
    const { store } = openLadder(dir, 'write', {
      ruleset: 'tic-tac-toe',
      scenarios: [getRuleset('tic-tac-toe').defaultScenario],
      decisionMs: 10_000,
      gameTimeoutMs: 60_000,
    });
    addBot(store, 'r', 'random');
    addBot(store, 'h', 'heuristic');
    // a commitment published before its game carries no seed yet
    store.commit('L0', () => ({ seed: 'cafe', commitment: commitment('cafe') }));
    expect(store.commitments()).toEqual([expect.objectContaining({ id: 'L0', seed: null })]);
    store.close();
    await runLadder(dir, 2, 1);
    const seeds = JSON.parse(eagles(['ladder', 'seeds', '--out', dir, '--json']).out) as {
      id: string;
      seed: string;
      commitment: string;
      verified: boolean;
    }[];
    expect(seeds).toEqual([expect.objectContaining({ id: 'L0', seed: 'cafe', verified: true })]);
    const file = join(tmp, 'l.replay');
    expect(eagles(['ladder', 'export', '--out', dir, '--game', 'L0-1', '--file', file]).code).toBe(0);
    expect(eagles(['replay', 'verify', file, '--run', dir]).code).toBe(0);
    const r = decodeReplay(readFileSync(file));
    // tic-tac-toe has no dice: only the run folder can catch a changed seed
    const reseeded = join(tmp, 'reseeded.replay');
    writeFileSync(reseeded, encodeReplay({ ...r, seed: 'beef' }));
    const bad = eagles(['replay', 'verify', reseeded, '--run', dir, '--json']);
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.out)).toMatchObject({ ok: false, message: expect.stringMatching(/^field seed/) });
  }, 120_000);
});

describe('forfeit reasons', () => {
  it('show in arena status and arena table, as text and as JSON, escaped', () => {
    const dir = join(tmp, 'forfeits');
    const run = eagles([
      'arena',
      'run',
      '--ruleset',
      'tic-tac-toe',
      '--agents',
      'random',
      'test-crash',
      '--games',
      '2',
      '--workers',
      '1',
      '--out',
      dir,
    ]);
    expect(run.code, run.err).toBe(0);
    const status = eagles(['arena', 'status', '--out', dir]);
    expect(status.out).toMatch(/forfeits and failures \(2\):\n {2}\S+: test-crash forfeits: .*test-crash/);
    const sj = JSON.parse(eagles(['arena', 'status', '--out', dir, '--json']).out);
    expect(sj.failures).toHaveLength(2);
    expect(sj.failures[0]).toMatchObject({ forfeited: 'test-crash', reason: expect.any(String) });
    const table = eagles(['arena', 'table', '--out', dir]);
    expect(table.out).toMatch(/forfeits and failures \(2\):/);
    expect(JSON.parse(eagles(['arena', 'table', '--out', dir, '--json']).out).failures).toEqual(sj.failures);
  }, 120_000);
});
