import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { plotInput, plotSvg, xTicks } from './plot.ts';
import type { Metrics } from './run.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHIPPED = join(ROOT, 'data', 'models', 'march-of-eagles', 'farm-on-the-ridge-bootstrap');

function trainPlot(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bin/eagles.ts'), 'train', 'plot', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The x axes' tick labels (the y axes' are anchored at their end). */
function xLabels(svg: string): string[] {
  return [...svg.matchAll(/text-anchor="middle" font-size="10">([^<]*)</g)].map((m) => m[1]!);
}

const metric = (iteration: number, extra: Partial<Metrics> = {}): Metrics => ({
  iteration,
  t: '2026-11-25T00:00:00.000Z',
  elapsedMs: 1000 * iteration,
  games: 10 * iteration,
  samples: 100 * iteration,
  source: iteration ? 'selfplay' : 'imitation',
  policyLoss: 1 / (iteration + 1),
  valueLoss: 0.5,
  gamesPerHour: 100,
  learnerSamplesPerSec: 100,
  evalVs: { random: 0.5 + iteration / 10 },
  promoted: true,
  best: `checkpoints/iter-${iteration}`,
  backend: 'cpu',
  ...extra,
});

describe('train plot', () => {
  it('ticks whole iterations only, however few there are', () => {
    expect(xTicks(0, 1)).toEqual([0, 1]);
    expect(xTicks(-1, 0)).toEqual([-1, 0]);
    expect(xTicks(0, 5)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(xTicks(-1, 3)).toEqual([-1, 0, 1, 2, 3]);
    for (const [a, b] of [
      [0, 2],
      [-1, 7],
      [0, 13],
      [100, 1500],
    ] as const)
      for (const t of xTicks(a, b)) expect(Number.isInteger(t)).toBe(true);
    // a bootstrap-only run: the untrained network at −1 and the bootstrap at 0, nothing in between
    const svg = plotSvg([metric(0, { evalBefore: { random: 0.3 } })], 't');
    expect(xLabels(svg.slice(svg.indexOf('evaluation score')))).toEqual(['untrained', '0']);
    for (const l of xLabels(svg)) expect(l).toMatch(/^(-?\d+|untrained)$/);
    const five = plotSvg(
      [0, 1, 2, 3, 4, 5].map((i) => metric(i)),
      't',
    );
    for (const l of xLabels(five)) expect(l).toMatch(/^-?\d+$/);
  });

  it('names the run in its title, not the folder it was read from', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'eagles-plot-')), 'my-run');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'run.json'),
      JSON.stringify({
        format: 'eagles-train-run',
        version: 1,
        options: { ruleset: 'march-of-eagles', scenario: 'farm-on-the-ridge', evalGames: 40, opponentGames: 40 },
        iteration: 2,
        games: 20,
        samples: 200,
        best: 'checkpoints/iter-2',
        elapsedMs: 2000,
        command: 'eagles train',
      }),
    );
    writeFileSync(join(dir, 'metrics.jsonl'), `${[0, 1, 2].map((i) => JSON.stringify(metric(i))).join('\n')}\n`);
    const out = join(dir, 'plot.svg');
    const r = trainPlot(dir, '--out', out);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const svg = readFileSync(out, 'utf8');
    expect(svg).toContain('>march-of-eagles / farm-on-the-ridge: my-run<');
    expect(svg).not.toContain(dirname(dir));
    expect(svg).not.toContain(tmpdir());
    expect(plotInput(dir).title).toBe('march-of-eagles / farm-on-the-ridge: my-run');
  });

  it('draws a shipped model folder from its metrics.jsonl and model.json', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'eagles-plot-')), 'model.svg');
    const r = trainPlot('data/models/march-of-eagles/farm-on-the-ridge-bootstrap', '--out', out);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const svg = readFileSync(out, 'utf8');
    expect(svg).toContain('>march-of-eagles / farm-on-the-ridge: farm-on-the-ridge-bootstrap<');
    expect(svg).toMatch(/bootstrap learning[\s\S]*evaluation score \(1 = all won\), with 95% intervals/);
    // by name, as neural:model= takes it
    const byName = `${out}.byname.svg`;
    expect(trainPlot('march-of-eagles/farm-on-the-ridge-bootstrap', '--out', byName).code).toBe(0);
    expect(readFileSync(byName, 'utf8')).toBe(svg);
    // the games behind each score come from the recorded training command
    expect(plotInput(join(ROOT, 'data/models/age-of-eagles/saint-aubin-bootstrap')).games).toEqual({
      vsBest: 40,
      vsOpponents: 20,
    });
  });

  it('says what is missing from a folder it cannot draw', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eagles-plot-'));
    expect(() => plotInput(dir)).toThrow(/neither a training run \(no run\.json\) nor a model folder/);
    copyFileSync(join(SHIPPED, 'model.json'), join(dir, 'model.json'));
    expect(() => plotInput(dir)).toThrow(/has no metrics\.jsonl/);
  });
});
