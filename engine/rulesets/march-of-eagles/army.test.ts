import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../arena/catalog.ts';
import { battalionPoints, maxSkirmishers, validateScenario } from './scenario.ts';
import { firingGroups, screenGroups } from './shape.ts';
import { initiativeBonus } from './activation.ts';
import type { MoeState } from './types.ts';

describe('[How to choose your army] the sample armies (digest §10.1)', () => {
  const { scenario, game } = loadScenario('march-of-eagles', 'open-field');
  it('prices every battalion as the book does and totals 200 a side', () => {
    const [brit, fr] = scenario.armies;
    expect(brit.battalions.map((b: never) => battalionPoints(b, true))).toEqual([52, 48, 34, 52, 14]);
    expect(fr.battalions.map((b: never) => battalionPoints(b, false))).toEqual([32, 40, 36, 92]);
  });
  it('[Initiative] officers plus the commander: British +4, French +2', () => {
    // place everything via a fixed-deployment copy so the battalions are on the table
    const s = game.initialState(scenario) as MoeState;
    const onTable = { ...s, units: s.units.map((u) => ({ ...u, on: true })) };
    expect(initiativeBonus(onTable, 0)).toBe(4);
    expect(initiativeBonus(onTable, 1)).toBe(2);
  });
  it('[Accuracy] firing groups: ceil(Rankers/4); skirmishers in pairs', () => {
    const bn = (rk: number, sk = 0) => ({ rk, sk }) as never;
    expect([20, 17, 16, 36, 40, 28, 24, 32].map((r) => firingGroups(bn(r)))).toEqual([5, 5, 4, 9, 10, 7, 6, 8]);
    expect(screenGroups(bn(0, 6))).toBe(3);
    expect(screenGroups(bn(0, 5))).toBe(3);
  });
  it('[Skirmishers] 20% rounded up; [Light troops] 75%', () => {
    expect([16, 20, 24, 28, 32, 36, 40, 44, 48].map((r) => maxSkirmishers(r, false))).toEqual([
      4, 4, 5, 6, 7, 8, 8, 9, 10,
    ]);
    expect(maxSkirmishers(36, true)).toBe(27);
  });
});

describe('scenario validation lists every problem with its JSON path', () => {
  const { scenario } = loadScenario('march-of-eagles', 'open-field');
  it('accepts the shipped scenarios', () => {
    for (const id of ['open-field', 'woods-walls-hill', 'farm-on-the-ridge'])
      expect(() => loadScenario('march-of-eagles', id)).not.toThrow();
  });
  it('reports sizes, Light and rifle rules and points together', () => {
    const bad = structuredClone(scenario);
    bad.armies[0].battalions[0].rankers = 38; // not a multiple of 4
    bad.armies[0].battalions[1].light = true; // Drilled Light
    bad.armies[1].battalions[0].rifles = true; // French rifles
    bad.armies[1].battalions[1].officer = 2; // schema: at most 1
    const r = validateScenario(bad);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.path)).toContain('$.armies[1].battalions[1].officer');
    const again = structuredClone(bad);
    again.armies[1].battalions[1].officer = 1;
    const r2 = validateScenario(again);
    if (r2.ok) throw new Error('should fail');
    const msgs = r2.problems.map((p) => `${p.path} ${p.message}`).join('\n');
    expect(msgs).toMatch(/\$\.armies\[0\]\.battalions\[0\]\.rankers .*multiples of 4/);
    expect(msgs).toMatch(/\$\.armies\[0\]\.battalions\[1\]\.quality .*Veteran/);
    expect(msgs).toMatch(/\$\.armies\[1\]\.battalions\[0\]\.rifles/);
    expect(msgs).toMatch(/\$\.armies\[0\] .*costs 202 points/);
  });
  it('refuses a rules option reading that is not implemented, naming it', () => {
    const bad = { ...structuredClone(scenario), options: { M6_ties: 'attacker-wins' } };
    const r = validateScenario(bad);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]!.path).toBe('$.options.M6_ties');
  });
});
