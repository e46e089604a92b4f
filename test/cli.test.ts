/** The `eagles` command as a user runs it: real processes, exit codes and messages. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'eagles-cli-'));

function eagles(args: string[], input?: string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bin/eagles.ts'), ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('eagles CLI', () => {
  it('plays a full game between bots and prints JSON with the result, seed and final hash — the same in two processes', () => {
    const a = eagles(['play', '--p1', 'random', '--p2', 'random', '--seed', '11', '--json']);
    expect(a.code).toBe(0);
    const ja = JSON.parse(a.out);
    expect(ja).toMatchObject({ ruleset: 'march-of-eagles', scenario: 'open-field', seed: '11' });
    expect(ja.result.returns).toHaveLength(2);
    expect(ja.finalHash).toMatch(/^[0-9a-f]{16}$/);
    const b = eagles(['play', '--seed', '11', '--json']);
    expect(JSON.parse(b.out).finalHash).toBe(ja.finalHash);
  });

  it('refuses a --replay it could not write before playing, not after the game', () => {
    const dir = eagles(['play', '--seed', '3', '--replay', tmp]);
    expect(dir.code).toBe(2);
    expect(dir.err).toMatch(/--replay .* is a folder; name a file/);
    const missing = eagles(['play', '--seed', '3', '--replay', join(tmp, 'no-such-folder', 'r.msgpack')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/folder .*no-such-folder does not exist/);
    expect(dir.out + missing.out).not.toMatch(/Result:/); // no game was played
  });

  it('writes a replay that verifies and shows; a corrupt replay fails clearly', () => {
    const file = join(tmp, 'g.replay');
    expect(eagles(['play', '--scenario', 'farm-on-the-ridge', '--seed', '3', '--replay', file, '--json']).code).toBe(0);
    const v = eagles(['replay', 'verify', file]);
    expect(v.code).toBe(0);
    expect(v.out).toMatch(/OK/);
    const show = eagles(['replay', 'show', file]);
    expect(show.code).toBe(0);
    expect(show.out).toMatch(/Result:/);
    const bytes = readFileSync(file);
    const bad = join(tmp, 'bad.replay');
    writeFileSync(bad, bytes.subarray(0, 100));
    const c = eagles(['replay', 'verify', bad]);
    expect(c.code).not.toBe(0);
    expect(c.err).toMatch(/bad\.replay: not a/);
    expect(c.err).not.toMatch(/at .*\.ts:\d+/); // no stack trace
    expect(eagles(['replay', 'verify', join(tmp, 'missing.replay')]).err).toMatch(/not found/);
  });

  it('lists rulesets and agents; validates scenario files with every problem and its JSON path', () => {
    expect(eagles(['rulesets']).out).toMatch(/open-field {2}\(default\)/);
    expect(eagles(['agents']).out).toMatch(/random/);
    const ok = eagles(['scenario', 'validate', 'data/scenarios/march-of-eagles/woods-walls-hill.json']);
    expect(ok.code).toBe(0);
    const scen = JSON.parse(readFileSync(join(ROOT, 'data/scenarios/march-of-eagles/open-field.json'), 'utf8'));
    scen.armies[0].battalions[0].rankers = 50;
    scen.table.width = 60;
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, JSON.stringify(scen));
    const r = eagles(['scenario', 'validate', bad]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/\$\.table\.width/);
    writeFileSync(bad, '{ not json');
    expect(eagles(['scenario', 'validate', bad]).err).toMatch(/not valid JSON/);
  });

  it('refuses unknown agents, rulesets, scenarios and flags with a clear message and a non-zero exit', () => {
    const a = eagles(['play', '--p1', 'nosuch']);
    expect(a.code).not.toBe(0);
    expect(a.err).toMatch(/unknown agent "nosuch".*known agents: .*random/);
    expect(eagles(['play', '--p1', 'random:depth=3']).err).toMatch(/has no parameter "depth"/);
    expect(eagles(['play', '--ruleset', 'chess']).err).toMatch(/unknown ruleset "chess"/);
    expect(eagles(['play', '--scenario', 'nowhere']).err).toMatch(/unknown scenario "nowhere".*open-field/);
    const f = eagles(['play', '--frobnicate']);
    expect(f.code).toBe(2);
    expect(f.err).toMatch(/Unknown argument/);
    expect(eagles(['play', '--help']).out).toMatch(/--p1/);
    // a training run refuses a misspelt evaluation opponent before it plays or writes anything
    const run = join(tmp, 'train-bad-opponent');
    const t = eagles(['train', '--scenario', 'farm-on-the-ridge', '--run', run, '--opponents', 'random', 'heurstic']);
    expect(t.code).toBe(2);
    expect(t.err).toMatch(/--opponents: unknown agent "heurstic"/);
    expect(existsSync(run)).toBe(false);
  });

  it('lets a person play from piped input, and an illegal typed action stops with an error, keeping the record', () => {
    const lines = Array.from({ length: 3000 }, () => '1').join('\n');
    const ok = eagles(
      ['play', '--scenario', 'farm-on-the-ridge', '--human', 'A', '--p2', 'random', '--seed', '2'],
      lines,
    );
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/A to act — .*\nChoose a number or type the action/);
    expect(ok.out).toMatch(/\[Initiative\]/);
    expect(ok.out).toMatch(/Result:/);
    const file = join(tmp, 'human.replay');
    const bad = eagles(
      ['play', '--scenario', 'farm-on-the-ridge', '--human', 'A', '--seed', '2', '--replay', file],
      '1\n1\nmarch to paris\n',
    );
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/illegal action: "march to paris" is not one of the \d+ legal actions/);
    expect(existsSync(file)).toBe(true);
    const v = eagles(['replay', 'show', file]);
    expect(v.out).toMatch(/unfinished/);
  });
});

describe('eagles CLI with search agents', () => {
  it('plays mcts against heuristic with explanations', () => {
    const r = eagles([
      'play',
      '--scenario',
      'farm-on-the-ridge',
      '--p1',
      'mcts:it=30,depth=4',
      '--p2',
      'heuristic',
      '--seed',
      '4',
      '--explain',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/A mcts:it=30,depth=4: .* \(win \d+%\) — 30 iterations/);
    expect(r.out).toMatch(/B heuristic: .* — scripted preference/);
    expect(r.out).toMatch(/Result:/);
  });
});

describe('eagles arena', () => {
  it('a round robin killed mid-run resumes with no game lost or played twice, then prints ratings', async () => {
    const { spawn } = await import('node:child_process');
    const out = join(tmp, 'tour');
    const args = [
      '--import',
      'tsx',
      join(ROOT, 'bin/eagles.ts'),
      'arena',
      'run',
      '--agents',
      'random',
      'heuristic',
      'mcts:it=10,depth=2',
      '--games',
      '20',
      '--scenario',
      'farm-on-the-ridge',
      '--workers',
      '2',
      '--out',
      out,
    ];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
    const { Store } = await import('../arena/store.ts');
    const lines = () => {
      if (!Store.exists(out)) return 0;
      try {
        const st = Store.open(out, 'read');
        const n = st.games().length;
        st.close();
        return n;
      } catch {
        return 0; // being created
      }
    };
    for (let i = 0; i < 600 && lines() < 3; i++) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const before = lines();
    expect(before).toBeGreaterThanOrEqual(3);
    expect(before).toBeLessThan(60);
    expect(eagles(['arena', 'status', '--out', out]).out).toMatch(new RegExp(`${before}/60 games recorded`));
    const r = eagles(['arena', 'run', '--out', out, '--resume']);
    expect(r.code).toBe(0);
    const store = Store.open(out, 'read');
    const ids = store.games().map((g) => g.id);
    store.close();
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    expect(r.out).toMatch(/Elo +±95%/);
    const t = JSON.parse(eagles(['arena', 'table', '--out', out, '--json']).out);
    expect(t.ratings.map((x: { player: string }) => x.player)).toContain('heuristic');
  }, 180_000);
});

describe('eagles arena configs', () => {
  it('prints a head-to-head match as a score with its 95% interval', () => {
    const r = eagles([
      'arena',
      'run',
      '--agents',
      'heuristic',
      'random',
      '--games',
      '4',
      '--scenario',
      'farm-on-the-ridge',
      '--workers',
      '1',
      '--out',
      join(tmp, 'h2h'),
    ]);
    expect(r.code).toBe(0);
    const m = r.out.match(/heuristic vs random: (\d+)W (\d+)D (\d+)L = ([\d.]+)% \(95% CI ([\d.]+)–([\d.]+)%\)/);
    expect(m).not.toBeNull();
    expect(Number(m![1]) + Number(m![2]) + Number(m![3])).toBe(4);
    expect(Number(m![5])).toBeLessThan(Number(m![4]));
    expect(Number(m![6])).toBeGreaterThanOrEqual(Number(m![4]));
    // and by the side it played: two games on each
    expect(r.out).toMatch(/on farm-on-the-ridge as side A: [\d.]+% over 2 games \(95% CI/);
    expect(r.out).toMatch(/on farm-on-the-ridge as side B: [\d.]+% over 2 games \(95% CI/);
  });
  it('runs a gauntlet from a YAML config and refuses a bad one with the field named', () => {
    const cfg = join(tmp, 'gauntlet.yaml');
    writeFileSync(
      cfg,
      'scenarios: [farm-on-the-ridge]\nagents: [heuristic, random, "mcts:it=5,depth=2"]\nformat: gauntlet\ngames: 2\nseed: y\n',
    );
    const r = eagles(['arena', 'run', '--config', cfg, '--out', join(tmp, 'g1'), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).games).toBe(4);
    writeFileSync(cfg, 'scenarios: [farm-on-the-ridge]\nagents: [heuristic]\ngames: 2\n');
    const bad = eagles(['arena', 'run', '--config', cfg, '--out', join(tmp, 'g2')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/\$\.agents: .*2/);
  });
  it('bench times each scenario of a ruleset after its warm-up and prints the table as JSON', () => {
    const r = eagles(['bench', '--ruleset', 'tic-tac-toe', '--seconds', '0.2', '--warmup', '0.1', '--json']);
    expect(r.code).toBe(0);
    const { rows } = JSON.parse(r.out);
    expect(rows.map((x: { ruleset: string; scenario: string }) => `${x.ruleset}/${x.scenario}`)).toEqual([
      'tic-tac-toe/standard',
    ]);
    expect(rows[0].plies).toBeGreaterThan(0);
    expect(rows[0].pliesPerSec).toBeGreaterThan(0);
  });
  it('bench --baseline refuses a missing ruleset, a directory that is not a checkout and a bad warm-up in one line', () => {
    const noRuleset = eagles(['bench', '--baseline', '.']);
    expect(noRuleset.code).not.toBe(0);
    expect(noRuleset.err).toMatch(/--baseline needs --ruleset/);
    const nowhere = eagles(['bench', '--baseline', join(tmp, 'nowhere'), '--ruleset', 'tic-tac-toe']);
    expect(nowhere.code).not.toBe(0);
    expect(nowhere.err).toMatch(/--baseline: no such directory/);
    const rounds = eagles(['bench', '--baseline', '.', '--ruleset', 'tic-tac-toe', '--rounds=0']); // the = form too
    expect(rounds.code).not.toBe(0);
    expect(rounds.err).toMatch(/--rounds must be a whole number/);
    const warm = eagles(['bench', '--ruleset', 'tic-tac-toe', '--warmup', '-1']);
    expect(warm.code).not.toBe(0);
    expect(warm.err).toMatch(/--warmup must be/);
    const it0 = eagles(['bench', '--baseline', '.', '--search', '--ruleset', 'tic-tac-toe', '--it', '0']);
    expect(it0.code).not.toBe(0);
    expect(it0.err).toMatch(/--it must be a whole number/);
  });
  it('bench --baseline --search times the default MCTS of both checkouts and checks they searched alike', () => {
    const r = eagles([
      'bench',
      '--baseline',
      '.',
      '--search',
      '--ruleset',
      'tic-tac-toe',
      '--rounds',
      '1',
      '--seconds',
      '0.3',
      '--warmup',
      '0',
      '--it',
      '20',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/default MCTS speed on tic-tac-toe\/standard/);
    expect(r.out).toMatch(/baseline it\/s \(CPU\)/);
    expect(r.out).toMatch(/same searches: the first \d+ searches/);
  });
  it('bench --decisions prints the regret of each agent on sampled March of Eagles positions, and refuses bad sizes', () => {
    const args = [
      'bench',
      '--decisions',
      '--scenario',
      'farm-on-the-ridge',
      '--positions',
      '3',
      '--playouts',
      '2',
      '--candidates',
      '2',
      '--it',
      '4',
    ];
    const r = eagles([...args, '--agents', 'heuristic', 'mcts:leaf=random', '--json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out);
    expect(rows.map((x: { agent: string }) => x.agent)).toEqual(['heuristic', 'mcts:leaf=random']);
    for (const x of rows) {
      expect(x.decisions).toBe(3);
      expect(x.meanRegret).toBeGreaterThanOrEqual(0);
    }
    expect(rows[0].scripted).toBe(1);
    const bad = eagles([...args.slice(0, -2), '--positions', '0']);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/--positions must be a whole number ≥ 1/);
  });
});
