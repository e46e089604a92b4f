/** Installing and using the `eagles` command: the lock file, the package bin, pipes, flags, suggestions, help. */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgent, listAgents } from '../agents/registry.ts';

const ROOT = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

function eagles(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bin/eagles.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('install', () => {
  it('npm ci accepts the lock file and installs without warnings; npm install leaves the lock as it is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eagles-install-'));
    for (const f of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(join(ROOT, f), join(dir, f));
    writeFileSync(join(dir, 'user.npmrc'), ''); // the project's files decide, not this machine's npm settings
    const npm = (args: string[]) =>
      spawnSync(
        'npm',
        [...args, '--offline', '--cache', join(dir, '.cache'), '--userconfig', join(dir, 'user.npmrc')],
        {
          cwd: dir,
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
    // validates the lock against package.json (every platform build named) and reviews the install scripts
    const ci = npm(['ci', '--dry-run']);
    expect(ci.stderr + ci.stdout).not.toMatch(/npm (warn|error)|looking for funding/);
    expect(ci.status).toBe(0);
    const install = npm(['install', '--package-lock-only', '--ignore-scripts']);
    expect(install.status).toBe(0);
    expect(readFileSync(join(dir, 'package-lock.json'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'package-lock.json'), 'utf8'),
    );
  }, 60_000);
});

describe('the eagles command', () => {
  it('is the package bin: `npx eagles … --json` prints JSON alone on stdout', () => {
    const bin = join(ROOT, pkg.bin.eagles);
    accessSync(bin, constants.X_OK);
    expect(readFileSync(bin, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    // --no: never fetch a package of that name from the registry
    const [name] = Object.keys(pkg.bin);
    expect(name).toBe('eagles');
    const npx = ['--no', name!, 'rulesets', '--json'];
    const r = spawnSync('npx', npx, { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).map((x: { id: string }) => x.id)).toContain('march-of-eagles');
  }, 60_000);

  it('ends quietly when the reader of its output goes away (`| head`)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bin/eagles.ts'), 'agents'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // the reader is gone before the first line
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((r) => child.on('close', r));
    expect(err).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('refuses a flag given no value, naming it, in one line with exit code 2', () => {
    for (const [args, flag] of [
      [['play', '--ruleset'], '--ruleset'],
      [['play', '--seed', '--json'], '--seed'],
      [['play', '--p1='], '--p1'],
      [['play', '-r'], '-r'],
      [['arena', 'run', '--out', join(tmpdir(), 'no-such-tournament'), '--games'], '--games'],
      [['arena', 'run', '--out', join(tmpdir(), 'no-such-tournament'), '--agents'], '--agents'],
    ] as [string[], string][]) {
      const r = eagles(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toBe(`eagles: error: ${flag} needs a value\n`);
      expect(r.out).toBe('');
    }
    expect(eagles(['play', '--scenario', 'farm-on-the-ridge', '--seed', '-3', '--json']).code).toBe(0); // a value
  });

  it('suggests the command, value, flag, agent or parameter a misspelt one may mean', () => {
    const cmd = eagles(['pley']);
    expect(cmd.code).toBe(2);
    expect(cmd.err).toMatch(/^eagles: error: unknown command "pley" \(did you mean "play"\?\); commands: .*arena/);
    expect(eagles(['arena', 'staus', '--out', 'x']).err).toMatch(
      /^eagles: error: action: unknown value "staus" \(did you mean "status"\?\); choose one of run, status/,
    );
    expect(eagles(['play', '--sed', '3']).err).toBe('eagles: error: Unknown argument --sed (did you mean --seed?)\n');
    const agent = eagles(['play', '--p1', 'heuristc']);
    expect(agent.code).not.toBe(0);
    expect(agent.err).toMatch(
      /unknown agent "heuristc" in spec "heuristc" \(did you mean "heuristic"\?\); known agents:/,
    );
    expect(() => createAgent('mcts:itt=5')).toThrow(/no parameter "itt" \(did you mean "it"\?\)/);
  });

  it('keeps the diagnostic test-* agents out of listings and messages, yet creates them', () => {
    expect(listAgents().map((f) => f.name)).not.toContain('test-crash');
    expect(createAgent('test-crash').spec).toBe('test-crash');
    expect(eagles(['agents']).out).not.toMatch(/test-/);
    expect(eagles(['agents', '--json']).out).not.toMatch(/test-/);
    const refusal = (spec: string) => {
      try {
        createAgent(spec);
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error(`${spec} was accepted`);
    };
    expect(refusal('nosuch')).toMatch(/known agents: .*random/);
    expect(refusal('nosuch')).not.toMatch(/test-/);
    expect(refusal('test-crahs')).not.toMatch(/did you mean/);
  });

  it('prints train encoding and train value-check as JSON', () => {
    const enc = JSON.parse(eagles(['train', 'encoding', '--json']).out);
    expect(enc).toMatchObject({ ruleset: 'march-of-eagles', id: 'march-of-eagles/v1' });
    expect(enc.stateLayout.at(-1).offset + enc.stateLayout.at(-1).size).toBe(enc.stateSize);
    const args = ['train', 'value-check', 'march-of-eagles/farm-on-the-ridge-bootstrap'];
    const v = eagles([...args, '--scenario', 'farm-on-the-ridge', '--games', '2', '--json']);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.out)).toMatchObject({ scenario: 'farm-on-the-ridge', games: 2, mse: { zero: 1 } });
  });

  it('describes every command, positional and option in its help', () => {
    const top = eagles(['--help']).out;
    const commands = [...top.matchAll(/^ {2}eagles ([a-z-]+)/gm)].map((m) => m[1]!);
    expect(commands).toContain('train');
    for (const c of ['', ...commands]) {
      const help = eagles(c ? [c, '--help'] : ['--help']).out;
      // an option or positional with nothing but its type after the name
      expect(
        help.match(/^ {2}(?:-\w, | {4})--[\w-]+ {2,}\[.*$|^ {2}[a-z][\w-]* {2,}\[.*$/gm),
        `eagles ${c} --help`,
      ).toBeNull();
    }
    expect(eagles(['arena', '--help']).out).not.toMatch(/results\.jsonl|tournament\.json/);
  });
});

describe('scenario validate on a badly broken file', () => {
  it('prints the first 20 problems and how many more, not thousands of lines; --json lists them all', () => {
    const j = JSON.parse(readFileSync(join(ROOT, 'data/scenarios/march-of-eagles/farm-on-the-ridge.json'), 'utf8'));
    const bn = j.armies[0].battalions[0];
    j.armies[0].battalions = Array.from({ length: 60 }, (_, i) => ({ ...bn, id: `b${i}`, Quality: 1 }));
    const file = join(mkdtempSync(join(tmpdir(), 'eagles-big-')), 'broken.json');
    writeFileSync(file, JSON.stringify(j));
    const r = eagles(['scenario', 'validate', file]);
    expect(r.code).not.toBe(0);
    const lines = r.err.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(23);
    expect(r.err).toMatch(/is not a valid scenario \(\d+ problems\)/);
    expect(r.err).toMatch(/… and \d+ more problems/);
    const json = JSON.parse(eagles(['scenario', 'validate', file, '--json']).out);
    expect(json.problems.length).toBeGreaterThan(20);
  });
});
