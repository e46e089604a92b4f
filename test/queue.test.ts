/**
 * Runs on a queue (BullMQ on a real Redis, Debian's redis-server on a free loopback port): worker processes on the
 * queue play the games the local pool would, and no game is lost or recorded twice when a worker, the coordinator or
 * Redis itself is killed. Real processes and SIGKILL throughout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { GAMES_QUEUE, redisConnection } from '../arena/queue.ts';
import { Store } from '../arena/store.ts';
import { runTournament } from '../arena/tournament.ts';
import { DEFAULT_TRAIN, readMetrics, TrainingRun } from '../training/run.ts';
import { redisUnavailable, startRedis, type TestRedis } from './redis.ts';

const ROOT = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'eagles-queue-'));
const live: ChildProcess[] = [];
const redises: TestRedis[] = [];

interface Proc {
  readonly proc: ChildProcess;
  out: string;
  err: string;
  readonly exited: Promise<number | null>;
}
function eagles(args: string[], env: Record<string, string> = {}): Proc {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bin/eagles.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  live.push(proc);
  const p: Proc = {
    proc,
    out: '',
    err: '',
    exited: new Promise((r) => proc.on('exit', (code) => r(code))),
  };
  proc.stdout!.on('data', (d) => {
    p.out += d;
  });
  proc.stderr!.on('data', (d) => {
    p.err += d;
  });
  return p;
}
const worker = (url: string, extra: string[] = [], env: Record<string, string> = {}) =>
  eagles(['worker', '--queue', url, '--workers', '1', '--lock-ms', '1000', ...extra], env);
const until = async (what: () => boolean, ms = 60_000) => {
  const t0 = Date.now();
  while (!what()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
};
const kill = async (p: Proc) => {
  p.proc.kill('SIGKILL');
  await p.exited;
};
const recorded = (dir: string): string[] => {
  if (!Store.exists(dir)) return [];
  try {
    const s = Store.open(dir, 'read');
    const ids = s.games().map((g) => g.id);
    s.close();
    return ids;
  } catch {
    return [];
  }
};
const run = (out: string, url: string, agents = ['random', 'heuristic'], games = '6') => [
  'arena',
  'run',
  '--agents',
  ...agents,
  '--games',
  games,
  '--scenario',
  'farm-on-the-ridge',
  '--out',
  out,
  '--queue',
  url,
];
const SLOW = ['mcts:it=60,depth=8', 'random']; // a few seconds a game: long enough to be killed in the middle

afterEach(async () => {
  for (const p of live.splice(0)) if (p.exitCode === null) p.kill('SIGKILL');
  for (const r of redises.splice(0)) await r.kill();
});

const noRedis = redisUnavailable();
describe.skipIf(noRedis !== null && !process.env.CI)(`queue mode${noRedis ? ` (${noRedis})` : ''}`, () => {
  it('two worker processes play every game once, the same games the local pool plays, with progress', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const w = [worker(redis.url), worker(redis.url)];
    const out = join(tmp, 'two-workers');
    const c = eagles(run(out, redis.url, ['random', 'heuristic'], '10'));
    expect(await c.exited, c.err).toBe(0);
    expect(c.err).toMatch(/10\/10 games, [\d.]+\/s \| [12] workers/); // as last polled (every second)
    const ids = recorded(out);
    expect(new Set(ids).size).toBe(10);
    expect(w.every((x) => /played, \d+ plies/.test(x.err))).toBe(true); // both served
    // the same games, to the hash, as the local pool
    const local = join(tmp, 'local');
    await runTournament(
      {
        ruleset: 'march-of-eagles',
        scenarios: ['farm-on-the-ridge'],
        agents: ['random', 'heuristic'],
        format: 'round-robin',
        games: 10,
        seed: 'tournament',
        gameTimeoutMs: 30 * 60_000,
        decisionMs: 0,
      },
      { dir: local, workers: 2, resume: false },
    );
    const hashes = (dir: string) => {
      const s = Store.open(dir, 'read');
      const h = Object.fromEntries(s.games().map((g) => [g.id, g.finalHash]));
      s.close();
      return h;
    };
    expect(hashes(out)).toEqual(hashes(local));
  }, 180_000);

  it('a worker killed mid-game: the game stalls and another worker plays it; none lost, none twice', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const a = worker(redis.url);
    const out = join(tmp, 'killed-worker');
    const c = eagles(run(out, redis.url, SLOW, '4'));
    await until(() => /serving/.test(a.err));
    await new Promise((r) => setTimeout(r, 1500)); // a game under way on a
    expect(a.err).not.toMatch(/played/);
    await kill(a);
    const b = worker(redis.url);
    expect(await c.exited, c.err).toBe(0);
    const ids = recorded(out);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(b.err.match(/played/g)).toHaveLength(4); // including the one a was playing
  }, 180_000);

  it('a coordinator killed mid-run resumes: games finished meanwhile are collected, none played twice', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const w = worker(redis.url);
    const out = join(tmp, 'killed-coordinator');
    const c = eagles(run(out, redis.url, SLOW, '6'));
    await until(() => recorded(out).length >= 1, 120_000);
    await kill(c);
    const before = recorded(out).length;
    expect(before).toBeLessThan(6);
    const r = eagles(['arena', 'run', '--out', out, '--resume', '--queue', redis.url]);
    expect(await r.exited, r.err).toBe(0);
    const ids = recorded(out);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    // each game was played once: the worker's log has one line per game
    expect(w.err.match(/played/g)).toHaveLength(6);
  }, 180_000);

  it('Redis killed and restarted with its append-only file: the run completes with nothing lost', async () => {
    const dir = mkdtempSync(join(tmp, 'aof-'));
    const redis = await startRedis({ dir });
    redises.push(redis);
    worker(redis.url);
    const out = join(tmp, 'redis-restart');
    const c = eagles(run(out, redis.url, SLOW, '4'));
    await until(() => recorded(out).length >= 1, 120_000);
    await redis.kill();
    await new Promise((r) => setTimeout(r, 1000));
    await redis.restart();
    expect(await c.exited, c.err).toBe(0);
    const ids = recorded(out);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
  }, 180_000);

  it('a worker on other code refuses the game by ruleset version, puts it back and stops', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const q = new Queue(GAMES_QUEUE, { connection: redisConnection(redis.url) });
    try {
      const task = {
        id: 'g',
        ruleset: 'march-of-eagles',
        scenario: 'farm-on-the-ridge',
        seed: '1',
        agents: ['random', 'random'],
      };
      await q.add(
        'game',
        { run: 'r', task, rulesetVersion: 999, scenarioHash: 'x', gameTimeoutMs: 60_000, decisionMs: 0 },
        { jobId: 'r.g' },
      );
      const w = worker(redis.url);
      expect(await w.exited).toBe(3);
      expect(w.err).toMatch(/refused game g: the run plays march-of-eagles v999; this worker has v\d+/);
      expect(w.err).toMatch(/eagles: error: this worker cannot play the run's games/);
      const job = await q.getJob('r.g');
      expect(['delayed', 'waiting']).toContain(await job!.getState()); // still there for a worker on the run's code
    } finally {
      await q.close();
    }
  }, 60_000);

  it('workers run only what the coordinator allows: unsigned jobs with a secret, external programs without one', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const marker = join(tmp, 'ran');
    const q = new Queue(GAMES_QUEUE, { connection: redisConnection(redis.url) });
    try {
      const task = {
        id: 'evil',
        ruleset: 'march-of-eagles',
        scenario: 'farm-on-the-ridge',
        seed: '1',
        agents: [`ext:cmd=node test/bots/escape-bot.cjs write:${marker},sandbox=limits`, 'random'],
      };
      const { loadScenario, scenarioHash } = await import('../arena/catalog.ts');
      const { game, scenario } = loadScenario('march-of-eagles', 'farm-on-the-ridge');
      const data = {
        run: 'x',
        task,
        rulesetVersion: game.version,
        scenarioHash: scenarioHash(scenario),
        gameTimeoutMs: 60_000,
        decisionMs: 0,
      };
      await q.add('game', data, { jobId: 'x.evil', attempts: 1 });
      const signed = worker(redis.url, [], { EAGLES_QUEUE_SECRET: 'organiser-secret' });
      await until(() => /refused game evil/.test(signed.err));
      expect(signed.err).toMatch(/not signed with this worker's EAGLES_QUEUE_SECRET/);
      await kill(signed);
      await q.add('game', data, { jobId: 'x.evil2', attempts: 1 });
      const plain = worker(redis.url);
      await until(() => /refused game evil/.test(plain.err));
      expect(plain.err).toMatch(/runs an external program .*only from signed jobs or with --allow-ext/);
      expect(existsSync(marker)).toBe(false);
      // allowed to run external programs, it still refuses one that would run outside bubblewrap
      await kill(plain);
      await q.add('game', data, { jobId: 'x.evil3', attempts: 1 });
      const ext = worker(redis.url, ['--allow-ext']);
      await until(() => /refused game evil/.test(ext.err));
      expect(ext.err).toMatch(/would run here without the bubblewrap sandbox \(sandbox=limits\).*--unsafe-bots/);
      expect(existsSync(marker)).toBe(false);
      await kill(ext);
      // a signed run with the same secret is played (the coordinator signs)
      const ok = worker(redis.url, [], { EAGLES_QUEUE_SECRET: 'organiser-secret' });
      const out = join(tmp, 'signed');
      const c = eagles(run(out, redis.url, ['random', 'heuristic'], '2'), { EAGLES_QUEUE_SECRET: 'organiser-secret' });
      expect(await c.exited, c.err).toBe(0);
      expect(recorded(out)).toHaveLength(2);
      expect(ok.err).not.toMatch(/refused game 0-1/);
    } finally {
      await q.close();
    }
  }, 120_000);

  it('a password-protected Redis: the URL carries it; a wrong one is a clear error', async () => {
    const redis = await startRedis({ password: 's3cret' });
    redises.push(redis);
    worker(redis.url);
    const out = join(tmp, 'password');
    const c = eagles(run(out, redis.url, ['random', 'heuristic'], '2'));
    expect(await c.exited, c.err).toBe(0);
    const bad = eagles(
      run(join(tmp, 'bad-password'), `redis://:wrong@127.0.0.1:${redis.port}`, ['random', 'heuristic'], '2'),
    );
    expect(await bad.exited).not.toBe(0);
    expect(bad.err).toMatch(/eagles: error: .*(WRONGPASS|invalid username-password|NOAUTH)/i);
  }, 120_000);

  it('a ladder runs its games through the queue, pairs in flight at once, rated as at home', async () => {
    const redis = await startRedis();
    redises.push(redis);
    worker(redis.url);
    worker(redis.url);
    const out = join(tmp, 'ladder');
    for (const [name, spec] of [
      ['scripted', 'heuristic'],
      ['rand', 'random'],
      ['rand2', 'random'],
    ]) {
      const add = eagles(['ladder', 'add-bot', '--out', out, '--name', name!, '--spec', spec!]);
      expect(await add.exited, add.err).toBe(0);
    }
    const r = eagles(['ladder', 'run', '--out', out, '--games', '8', '--queue', redis.url, '--json']);
    expect(await r.exited, r.err).toBe(0);
    const ids = recorded(out);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
    const seeds = eagles(['ladder', 'seeds', '--out', out, '--json']);
    await seeds.exited;
    expect(JSON.parse(seeds.out).every((c: { verified: boolean }) => c.verified)).toBe(true);
  }, 180_000);

  it('training games go through the queue: the network by version, the same bootstrap games as at home', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const w = worker(redis.url);
    const opts = {
      ...DEFAULT_TRAIN,
      ruleset: 'march-of-eagles',
      scenario: 'farm-on-the-ridge',
      iterations: 1,
      workers: 1,
      bootstrapGames: 4,
      bootstrapSteps: 10,
      gamesPerIteration: 2,
      concurrent: 2,
      sims: 4,
      stepsPerIteration: 10,
      evalGames: 2,
      opponents: ['random'],
      opponentGames: 2,
      evalMode: 'policy' as const,
      hidden: 16,
    };
    const queued = join(tmp, 'train-queued');
    const q = new TrainingRun(queued, () => undefined, redis.url);
    await q.start(opts, false, 'test');
    expect((await q.loop()).iteration).toBe(1);
    expect(w.err).toMatch(/training games [^\n]*\/0\/0…3: played/); // bootstrap, imitation
    expect(w.err).toMatch(/training games [^\n]*\/1\/0…1: played/); // self-play with the network
    const local = join(tmp, 'train-local');
    const l = new TrainingRun(local);
    await l.start(opts, false, 'test');
    await l.loop();
    const boot = (dir: string) => readMetrics(dir).find((m) => m.iteration === 0)!;
    expect(boot(queued).samples).toBe(boot(local).samples);
    expect(boot(queued).games).toBe(boot(local).games);
  }, 240_000);

  it('a bad --queue URL is refused in one line', async () => {
    const c = eagles(run(join(tmp, 'bad-url'), 'http://127.0.0.1:1'));
    expect(await c.exited).not.toBe(0);
    expect(c.err).toMatch(/^eagles: error: --queue http:\/\/127.0.0.1:1: expected redis:\/\/HOST:PORT/m);
    const w = worker('nonsense');
    expect(await w.exited).not.toBe(0);
    expect(w.err).toMatch(/--queue nonsense: not a URL/);
  }, 60_000);
});
