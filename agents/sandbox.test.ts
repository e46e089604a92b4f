/**
 * External bots are untrusted code: each escape a hostile bot tries fails, its processes end with its game, and what
 * it prints cannot drive the terminal. The bot (test/bots/escape-bot.cjs) reports each attempt's result on stderr,
 * which the forfeit reason quotes.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path, { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../arena/catalog.ts';
import { runMatch } from '../arena/match.ts';
import { MatchPool } from '../arena/pool.ts';
import { RandomAgent } from './random.ts';
import { createAgent } from './registry.ts';
import { bwrapUnavailable, parseCommand } from './sandbox.ts';

const { game, scenario } = loadScenario('march-of-eagles', 'farm-on-the-ridge');
const play = (spec: string, hide: string[] = []) =>
  runMatch({
    game,
    scenario,
    scenarioId: 'farm-on-the-ridge',
    seed: '8',
    agents: [createAgent(spec), new RandomAgent()],
    host: { hide },
  });
const bot = (attempts: string, params = '') => `ext:cmd=node test/bots/escape-bot.cjs ${attempts}${params}`;
/** Processes whose command line holds `marker` (pgrep -f), other than pgrep itself. */
const running = (marker: string): string[] => {
  try {
    return execFileSync('pgrep', ['-f', marker]).toString().trim().split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
};
const settle = async (marker: string) => {
  for (let i = 0; i < 40 && running(marker).length; i++) await new Promise((r) => setTimeout(r, 50));
  return running(marker);
};

describe('a bot starts from an argument vector, never a shell', () => {
  it('shell operators, globs, variables and comments are refused, naming them', () => {
    expect(() => createAgent('ext:cmd=python3 bot.py; touch /tmp/x')).toThrow(/shell operator ";"/);
    expect(() => parseCommand('s', 'python3 bot.py | tee log')).toThrow(/shell operator "\|"/);
    expect(() => parseCommand('s', 'python3 bot.py && rm -rf x')).toThrow(/shell operator "&&"/);
    expect(() => parseCommand('s', 'python3 bot.py > out')).toThrow(/shell operator ">"/);
    expect(() => parseCommand('s', 'python3 *.py')).toThrow(/the glob \*\.py/);
    expect(() => parseCommand('s', 'python3 $HOME/bot.py')).toThrow(/shell variables \(\$HOME\)/);
    expect(() => parseCommand('s', 'python3 bot.py # note')).toThrow(/a comment/);
    expect(() => parseCommand('s', '   ')).toThrow(/command is empty/);
  });
  it('quotes group words, as documented', () => {
    expect(parseCommand('s', `sh -c 'sleep 1; echo "hi"' "two words" a\\ b`)).toEqual([
      'sh',
      '-c',
      'sleep 1; echo "hi"',
      'two words',
      'a b',
    ]);
  });
  it('the injected command of a spec does not run', async () => {
    const marker = path.join(os.tmpdir(), `eagles-injected-${process.pid}`);
    expect(() => createAgent(`ext:cmd=python3 arena/bots/random_bot.py; touch ${marker}`)).toThrow();
    // quoted, the would-be command is only an argument: the bot runs and plays, nothing else does
    const r = await play(`ext:cmd=python3 arena/bots/random_bot.py '; touch ${marker}'`);
    expect(r.aborted).toBeUndefined();
    expect(() => readFileSync(marker)).toThrow();
  });
});

describe('the bot process group ends with its game', () => {
  it('a bot that hangs after starting a child: both are ended when it forfeits (in-process match)', async () => {
    const marker = `${100_000 + Math.floor(Math.random() * 800_000)}.25`;
    const r = await play(bot(`spawn:${marker}`, ',hello=400'));
    expect(r.aborted).toMatch(/no "ready" after hello within 400 ms/);
    expect(await settle(marker)).toEqual([]);
  });
  it('a worker ended by the decision clock: the pool ends the bot and its children', async () => {
    const marker = `${100_000 + Math.floor(Math.random() * 800_000)}.5`;
    const pool = new MatchPool(1, 60_000, 500);
    try {
      const r = await pool.play({
        id: 'g',
        ruleset: 'march-of-eagles',
        scenario: 'farm-on-the-ridge',
        seed: '1',
        agents: [bot(`spawn:${marker}`, ',hello=60000'), 'random'],
      });
      expect(r.error).toMatch(/overran the 500 ms decision clock/);
      expect(await settle(marker)).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});

describe('a bot does not outlive an interrupted server', () => {
  it('Ctrl-C (SIGINT) or SIGTERM on `eagles play` ends the bot and what it started', async () => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      const marker = `${100_000 + Math.floor(Math.random() * 800_000)}.75`;
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'bin/eagles.ts',
          'play',
          '--ruleset',
          'tic-tac-toe',
          '--p1',
          `ext:cmd=node test/bots/escape-bot.cjs spawn:${marker},hello=60000,sandbox=limits`,
          '--p2',
          'random',
        ],
        { stdio: 'ignore' },
      );
      // wait for the child itself (`sleep MARKER`), not only the bot whose command line names the marker too
      const sleeper = `^sleep ${marker}`;
      for (let i = 0; i < 200 && running(sleeper).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(running(sleeper).length, 'the bot started its child').toBeGreaterThan(0);
      child.kill(sig);
      await new Promise((r) => child.on('exit', r));
      expect(await settle(marker), `after ${sig}`).toEqual([]);
    }
  }, 60_000);
});

describe('what a bot prints', () => {
  it('control characters reach the terminal escaped', async () => {
    const r = await play(bot('ansi'));
    expect(r.aborted).toContain('\\u001b[2J\\u001b]0;owned\\u0007 cleared');
    expect(r.aborted!.includes(String.fromCharCode(27))).toBe(false);
  });
  it('a bot that floods its output is cut at the documented message size', async () => {
    const r = await play(bot('flood:300000'));
    expect(r.aborted).toMatch(/sent a message longer than 65536 bytes/);
  });
});

describe('resource limits and a bare environment (both sandboxes)', () => {
  beforeAll(() => {
    process.env.EAGLES_SECRET_TEST = 'hunter2';
  });
  afterAll(() => {
    delete process.env.EAGLES_SECRET_TEST;
  });
  it('no inherited secrets, a fresh empty folder, few open files', async () => {
    const r = await play(bot('env:EAGLES_SECRET_TEST envcount cwd files:1000', ',sandbox=limits'));
    expect(r.aborted).toMatch(/env=unset/);
    expect(Number(/envcount=(\d+)/.exec(r.aborted!)![1])).toBeLessThanOrEqual(6);
    expect(r.aborted).toMatch(/cwd=home\(0\)/);
    expect(r.aborted).toMatch(/files=EMFILE\(2\d\d\)/);
  });
  it('a bot past its memory limit fails to allocate or is ended; under the limit it allocates', async () => {
    const over = await play(bot('mem:400', ',sandbox=limits,mem=256'));
    expect(over.aborted).toMatch(/mem=(?!ok)|exited \(SIG/);
    const under = await play(bot('mem:100', ',sandbox=limits,mem=512'));
    expect(under.aborted).toMatch(/mem=ok\(100\)/);
  });
  it('a bot past its CPU seconds is ended by the kernel', async () => {
    const r = await play(bot('cpu', ',sandbox=limits,cpu=1,hello=20000'));
    expect(r.aborted).toMatch(/exited \((SIGXCPU|SIGKILL)\)/);
  });
});

const noBwrap = bwrapUnavailable();
describe.skipIf(noBwrap !== null && !process.env.CI)(`the bubblewrap sandbox${noBwrap ? ` (${noBwrap})` : ''}`, () => {
  let runDir: string;
  let server: Server;
  let port = 0;
  const repoFile = path.resolve('escape-test-probe.txt');
  beforeAll(async () => {
    runDir = mkdtempSync(path.join(process.cwd(), 'tmp-run-'));
    writeFileSync(path.join(runDir, 'arena.sqlite'), 'the real results');
    server = createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
    process.env.EAGLES_SECRET_TEST = 'hunter2';
  });
  afterAll(() => {
    server.close();
    rmSync(runDir, { recursive: true, force: true });
    rmSync(repoFile, { force: true });
    delete process.env.EAGLES_SECRET_TEST;
  });
  it('the run folder is invisible and read-only, the system read-only, the network and secrets out of reach', async () => {
    const db = path.join(runDir, 'arena.sqlite');
    const r = await play(
      bot(
        `read:${db} write:${db} list:${runDir} write:${repoFile} write:/etc/eagles-probe net:${port} env:EAGLES_SECRET_TEST cwd write:./mine`,
        ',sandbox=bwrap',
      ),
      [runDir],
    );
    const why = r.aborted!;
    expect(why).toMatch(/read=ENOENT/);
    expect(why).toMatch(/write=(EROFS|ENOENT)/);
    expect(why).toMatch(/list=ok\(0\)/);
    expect(why).not.toMatch(/write=ok .*write=ok .*write=ok/); // only its own folder is writable
    expect(why).toMatch(/net=(ENETUNREACH|ECONNREFUSED|EACCES)/);
    expect(why).toMatch(/env=unset/);
    expect(why).toMatch(/cwd=home\(0\) write=ok/);
    expect(readFileSync(db, 'utf8')).toBe('the real results');
    expect(() => readFileSync(repoFile)).toThrow();
    expect(() => readFileSync('/etc/eagles-probe')).toThrow();
    // the control: the same bot outside the sandbox reaches all of it
    const open = await play(bot(`read:${db} net:${port}`, ',sandbox=limits'));
    expect(open.aborted).toMatch(/read=ok\(16\) net=ok/);
  });
  it('the reference bots play inside it', async () => {
    const r = await play('ext:cmd=python3 arena/bots/random_bot.py,sandbox=bwrap');
    expect(r.aborted).toBeUndefined();
  });
  it('a bot whose program lives under /tmp still sees it (read-only), though /tmp is private', async () => {
    const dir = mkdtempSync('/tmp/eagles-botsrc-');
    const other = join(mkdtempSync('/tmp/eagles-other-'), 'secret.txt');
    writeFileSync(other, 'not yours');
    try {
      writeFileSync(join(dir, 'bot.py'), readFileSync('arena/bots/random_bot.py'));
      const r = await play(`ext:cmd=python3 ${join(dir, 'bot.py')},sandbox=bwrap`);
      expect(r.aborted).toBeUndefined();
      const peek = await play(bot(`read:${other} write:${join(dir, 'bot.py')}`, ',sandbox=bwrap'));
      expect(peek.aborted).toMatch(/read=ENOENT write=(EROFS|ENOENT)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(dirname(other), { recursive: true, force: true });
    }
  });
});
