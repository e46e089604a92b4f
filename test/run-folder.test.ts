/**
 * Run folders: one writer at a time, a start that is atomic under kill -9, and a refused `add-bot` that leaves
 * nothing behind. Real processes, as a user runs them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, eagles, ROOT } from './eagles-cli.ts';
import { RunFolderBusyError, Store } from '../arena/store.ts';

const tmp = mkdtempSync(join(tmpdir(), 'eagles-runs-'));
const ttt = (out: string, games = '4') => [
  'arena',
  'run',
  '--ruleset',
  'tic-tac-toe',
  '--agents',
  'random',
  'heuristic',
  '--games',
  games,
  '--workers',
  '1',
  '--out',
  out,
];

describe('a run folder has one writer', () => {
  it('a second writer is refused with a clear message; readers never wait; the lock ends with its holder', () => {
    const dir = join(tmp, 'locked');
    const a = Store.create(dir, { tournament: '{}' }, 'exists');
    expect(() => Store.open(dir, 'write')).toThrow(RunFolderBusyError);
    expect(() => Store.open(dir, 'write')).toThrow(/in use by another eagles process/);
    const reader = Store.open(dir, 'read');
    expect(reader.getMeta('tournament')).toBe('{}');
    reader.close();
    a.close();
    const b = Store.open(dir, 'write');
    b.close();
  });

  it('a second `arena run` on a folder in use is refused (not "UNIQUE constraint failed"), and status still reads it', async () => {
    const out = join(tmp, 'busy');
    const child = spawn(
      process.execPath,
      [
        ...CLI,
        'arena',
        'run',
        '--agents',
        'random',
        'heuristic',
        '--games',
        '400',
        '--scenario',
        'farm-on-the-ridge',
        '--workers',
        '1',
        '--out',
        out,
      ],
      { cwd: ROOT, stdio: 'ignore' },
    );
    try {
      for (let i = 0; i < 400 && !existsSync(join(out, 'arena.sqlite')); i++)
        await new Promise((r) => setTimeout(r, 50));
      const again = eagles(['arena', 'run', '--out', out, '--resume']);
      expect(again.code).not.toBe(0);
      expect(again.err).toMatch(/^eagles: error: .*busy is in use by another eagles process/m);
      expect(again.err).not.toMatch(/UNIQUE|SQLITE/);
      const fresh = eagles([...ttt(out)]);
      expect(fresh.err).toMatch(/in use by another eagles process/);
      expect(eagles(['arena', 'status', '--out', out]).code).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.on('exit', r));
    }
    // its holder gone, the folder resumes
    expect(eagles(['arena', 'status', '--out', out]).code).toBe(0);
  }, 120_000);
});

describe('starting a run is atomic', () => {
  it('a start killed while building its database leaves a folder a new run accepts (the partial file is cleared)', () => {
    const out = join(tmp, 'partial');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'arena.sqlite.partial-99999'), 'half a database');
    const r = eagles(ttt(out));
    expect(r.err).not.toMatch(/error/);
    expect(r.code).toBe(0);
    expect(readdirSync(out).filter((f) => f.includes('partial'))).toEqual([]);
  }, 60_000);

  it('kill -9 at any moment of a start: the folder is then either resumable or free for a new run', async () => {
    for (const ms of [400, 900, 1400]) {
      const out = join(tmp, `kill-${ms}`);
      const child = spawn(process.execPath, [...CLI, ...ttt(out, '40')], { cwd: ROOT, stdio: 'ignore' });
      await new Promise((r) => setTimeout(r, ms));
      child.kill('SIGKILL');
      await new Promise((r) => child.on('exit', r));
      const next = Store.exists(out) ? eagles(['arena', 'run', '--out', out, '--resume']) : eagles(ttt(out, '40'));
      expect(next.err, `killed at ${ms} ms`).not.toMatch(/error/);
      expect(next.code, `killed at ${ms} ms`).toBe(0);
    }
  }, 120_000);
});

describe('ladder add-bot refused', () => {
  it('with a bad scenario or a bad spec, leaves no database behind', () => {
    const out = join(tmp, 'ladder-bad');
    const sc = eagles(['ladder', 'add-bot', '--out', out, '--name', 'a', '--spec', 'random', '--scenario', 'nope']);
    expect(sc.code).not.toBe(0);
    expect(sc.err).toMatch(/nope/);
    expect(existsSync(join(out, 'arena.sqlite'))).toBe(false);
    const spec = eagles(['ladder', 'add-bot', '--out', out, '--name', 'a', '--spec', 'nosuchagent']);
    expect(spec.code).not.toBe(0);
    expect(spec.err).toMatch(/unknown agent "nosuchagent"/);
    expect(existsSync(join(out, 'arena.sqlite'))).toBe(false);
    const ok = eagles(['ladder', 'add-bot', '--out', out, '--name', 'a', '--spec', 'random']);
    expect(ok.code).toBe(0);
    expect(existsSync(join(out, 'arena.sqlite'))).toBe(true);
  }, 60_000);
});
