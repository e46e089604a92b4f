import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diceChoice } from '../test/reference/toys.ts';
import { decisionBenchOn } from './decision-bench.ts';

// dice choice: "safe" is worth +1/3 to the mover, "bold" −2/3, so a wrong choice costs exactly 1
const base = { positions: 40, playouts: 400, candidates: 2, budget: { iterations: 600 }, seed: 't' };

describe('decision bench', () => {
  it('values the candidates by playouts and scores each agent by its regret', async () => {
    const r = await decisionBenchOn(diceChoice, { id: 'standard' }, 'standard', {
      ...base,
      agents: ['mcts:leaf=random', 'random'],
    });
    expect(r.truth).toHaveLength(40);
    const t = r.truth[0]!;
    expect(t.keys).toEqual(['safe', 'bold']);
    expect(t.values[0]).toBeCloseTo(1 / 3, 1);
    expect(t.values[1]).toBeCloseTo(-2 / 3, 1);
    const [search, random] = r.rows;
    expect(search!.meanRegret).toBe(0);
    expect(search!.best).toBe(1);
    expect(random!.meanRegret).toBeGreaterThan(0.6 * 0.5);
    expect(random!.meanRegret).toBeLessThan(1.4 * 0.5);
    expect(random!.best + random!.meanRegret / (t.values[0]! - t.values[1]!)).toBeCloseTo(1, 1);
  });
  it('caches the truth and refuses a cache made with other parameters', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'eagles-db-')), 'truth.json');
    const a = await decisionBenchOn(diceChoice, { id: 'standard' }, 'standard', {
      ...base,
      positions: 4,
      agents: ['random'],
      truthFile: file,
    });
    const cached = JSON.parse(readFileSync(file, 'utf8'));
    cached.truth[0].values = [0.5, 0.25]; // a cached value is used as it stands
    writeFileSync(file, JSON.stringify(cached));
    const b = await decisionBenchOn(diceChoice, { id: 'standard' }, 'standard', {
      ...base,
      positions: 4,
      agents: ['random'],
      truthFile: file,
    });
    expect(b.truth[0]!.values).toEqual([0.5, 0.25]);
    expect(b.truth[1]).toEqual(a.truth[1]);
    await expect(
      decisionBenchOn(diceChoice, { id: 'standard' }, 'standard', {
        ...base,
        positions: 5,
        agents: ['random'],
        truthFile: file,
      }),
    ).rejects.toThrow(/truth file .* was made for .*"positions":4/);
    writeFileSync(file, '{ broken');
    await expect(
      decisionBenchOn(diceChoice, { id: 'standard' }, 'standard', {
        ...base,
        positions: 4,
        agents: ['random'],
        truthFile: file,
      }),
    ).rejects.toThrow(/not readable JSON/);
  });
  it('names a bad agent spec before doing any work', async () => {
    await expect(
      decisionBenchOn(diceChoice, { id: 'standard' }, 'standard', { ...base, agents: ['mcts:leaf=magic'] }),
    ).rejects.toThrow(/leaf=magic/);
  });
});
