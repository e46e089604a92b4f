/**
 * A person playing at the terminal (`eagles play --human`), driven through standard input as a real process: `undo`
 * takes back to their previous decision, `save FILE` and `--resume FILE` stop and go on with a game, and Ctrl-C saves
 * the game and says how to resume it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
// tsx by path, so that the CLI can run in another folder (Ctrl-C saves to the current folder)
const NODE_ARGS = ['--import', join(ROOT, 'node_modules/tsx/dist/loader.mjs'), join(ROOT, 'bin/eagles.ts')];
const tmp = mkdtempSync(join(tmpdir(), 'eagles-play-'));
const GAME = ['play', '--scenario', 'farm-on-the-ridge', '--human', 'A', '--p2', 'random', '--seed', '5'];

function eagles(args: string[], input: string, cwd = ROOT) {
  const r = spawnSync(process.execPath, [...NODE_ARGS, ...args], { cwd, input, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const ones = (n: number) => '1\n'.repeat(n);
const finalHash = (out: string) => /final hash ([0-9a-f]{16})/.exec(out)?.[1];
/** The decisions asked, in order ("A to act — …" lines). */
const asked = (out: string) => out.split('\n').filter((l) => l.startsWith('A to act'));

describe('eagles play at the terminal: undo, save, resume, Ctrl-C', () => {
  it('undo takes back to the previous decision: the game goes on as if the move had been the new one', () => {
    const straight = eagles(GAME, `1\n1\n2\n${ones(3000)}`);
    expect(straight.code).toBe(0);
    const undone = eagles(GAME, `1\n1\n1\nundo\n2\n${ones(3000)}`);
    expect(undone.code).toBe(0);
    expect(undone.out).toMatch(/Taken back to your previous decision \(step \d+\)\./);
    expect(finalHash(undone.out)).toBeDefined();
    expect(finalHash(undone.out)).toBe(finalHash(straight.out));
    // the decision taken back is asked again
    const a = asked(undone.out);
    expect(a[4]).toBe(a[2]); // asked at the 4th decision, the undo goes back to the 3rd
    // without the undo the game differs (the test can tell)
    expect(finalHash(eagles(GAME, ones(3000)).out)).not.toBe(finalHash(straight.out));
  });

  it('undo at the first decision says there is nothing to take back and asks again', () => {
    const r = eagles(GAME, `undo\n${ones(3000)}`);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/nothing to take back: this is your first decision/);
    expect(finalHash(r.out)).toBe(finalHash(eagles(GAME, ones(3000)).out));
  });

  it('save FILE writes the game so far; --resume FILE goes on from its end with the same seed and seats', () => {
    const file = join(tmp, 'saved.replay');
    const first = eagles(GAME, `1\n1\nsave ${file}\n`);
    expect(first.out).toMatch(
      /saved the game so far \(\d+ steps\) to .*saved\.replay; go on with: npx eagles play --resume/,
    );
    expect(existsSync(file)).toBe(true);
    const rest = eagles(['play', '--resume', file], ones(3000));
    expect(rest.code).toBe(0);
    expect(rest.out).toMatch(/Resuming .*saved\.replay: \d+ steps played so far\./);
    expect(rest.out).toMatch(/A: human {3}B: random/);
    expect(rest.out).toMatch(/seed 5/);
    expect(finalHash(rest.out)).toBe(finalHash(eagles(GAME, ones(3000)).out));
    // a finished game cannot be resumed; the saved game's scenario is not replaced
    const done = join(tmp, 'done.replay');
    expect(eagles([...GAME, '--replay', done], ones(3000)).code).toBe(0);
    const over = eagles(['play', '--resume', done], '');
    expect(over.code).not.toBe(0);
    expect(over.err).toMatch(/that game is over/);
    const other = eagles(['play', '--resume', file, '--scenario', 'open-field'], '');
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/drop --scenario/);
  });

  it('Ctrl-C saves the game to eagles-<seed>.replay, prints how to resume, and exits non-zero', async () => {
    const dir = mkdtempSync(join(tmp, 'ctrl-c-'));
    const child = spawn(process.execPath, [...NODE_ARGS, ...GAME.slice(0, -1), '77'], { cwd: dir });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((done) => {
      let sent = 0;
      child.stdout.on('data', (d) => {
        out += d;
        // answer two decisions, then press Ctrl-C at the third
        const prompts = out.split('Choose a number').length - 1;
        if (prompts > sent && sent < 2) {
          sent++;
          child.stdin.write('1\n');
        } else if (prompts >= 3 && !child.killed) child.kill('SIGINT');
      });
      child.on('exit', (c) => done(c));
    });
    expect(code).toBe(130);
    const lines = err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      'interrupted: the game so far is saved; go on with: npx eagles play --resume eagles-77.replay',
    );
    expect(existsSync(join(dir, 'eagles-77.replay'))).toBe(true);
    const rest = eagles(['play', '--resume', 'eagles-77.replay'], ones(3000), dir);
    expect(rest.code).toBe(0);
    expect(rest.out).toMatch(/Result:/);
  }, 120_000);
});
