/** March of Eagles scenario files: typos, geometry, duplicates and hills are refused, one line each with its path. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateScenario } from './scenario.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'march-of-eagles');
const load = (id: string) => JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8'));
/** A scenario file as read: untyped JSON, to be broken on purpose. */
type Json = ReturnType<typeof load>;

/** The problems of The Farm on the Ridge (fixed deployment, a hill, an objective) changed by `edit`, as lines. */
function problems(edit: (j: Json) => void, id = 'farm-on-the-ridge'): string[] {
  const j = load(id);
  edit(j);
  const v = validateScenario(j);
  return v.ok ? [] : v.problems.map((p) => `${p.path}: ${p.message}`);
}

describe('March of Eagles scenario files', () => {
  it('accepts the shipped scenarios', () => {
    for (const id of ['open-field', 'woods-walls-hill', 'farm-on-the-ridge'])
      expect(problems(() => {}, id)).toEqual([]);
  });

  it('refuses unknown keys at every level, suggesting the key a near miss stands for', () => {
    expect(problems((j) => (j.armies[0].battalions[0].Light = true))).toEqual([
      '$.armies[0].battalions[0]: unknown key "Light" (did you mean "light"?)',
    ]);
    expect(problems((j) => (j.terrain[4].crests = j.terrain[4].crest))).toEqual([
      '$.terrain[4]: unknown key "crests" (did you mean "crest"?)',
    ]);
    expect(problems((j) => (j.deployment.A.battalions[0].facnig = 0))).toEqual([
      '$.deployment.A.battalions[0]: unknown key "facnig" (did you mean "facing"?)',
    ]);
    expect(problems((j) => (j.options = { M5_covr: 'modifiers' }))).toEqual([
      '$.options: unknown key "M5_covr" (did you mean "M5_cover"?)',
    ]);
    expect(problems((j) => (j.table.depth = 48))).toEqual([
      '$.table: unknown key "depth"; allowed here: width, height',
    ]);
    expect(problems((j) => (j.deployment.B.battalions[0].formation = 'Lin'))).toEqual([
      '$.deployment.B.battalions[0].formation: Invalid option: expected one of "Line"|"Column"',
    ]);
    expect(problems((j) => (j.points = [200, 'x']))).toEqual([
      '$.points: points are a whole number, or a pair [A, B] of whole numbers (one budget per army)',
    ]);
    expect(problems((j) => (j.deployment = 'alternating'))).toEqual([
      '$.deployment: deployment is "alternate" or { "A": …, "B": … } (each side\'s edge, battalions and Supreme Commander)',
    ]);
    expect(problems((j) => (j.deployment.A.sc = { x: 24, Y: 3 }))).toEqual([
      '$.deployment.A.sc: the Supreme Commander is { "attach": a battalion id } or { "x", "y": a point in inches }',
    ]);
  });

  it('refuses anything off the table, naming the item and the table size, and numbers that are not finite', () => {
    expect(problems((j) => (j.deployment.A.sc = { x: 500, y: -40 }))).toEqual([
      '$.deployment.A.sc: Supreme Commander point (500, -40) is off the 48"×48" table [Supreme Commander] [Setting up a battle] (M1)',
    ]);
    expect(problems((j) => (j.deployment.B.battalions[1].y = 60))).toEqual([
      '$.deployment.B.battalions[1]: battalion "F2" at (32, 60) is off the 48"×48" table',
    ]);
    expect(problems((j) => (j.objectives[0].y = 1e9))).toEqual([
      '$.objectives[0]: objective "farm" point (24, 1000000000) is off the 48"×48" table [Winning: objectives] [Setting up a battle] (M1)',
    ]);
    expect(problems((j) => (j.terrain[2].polygon[0] = [1e15, 10]))[0]).toMatch(
      /^\$\.terrain\[2\]\.polygon\[0\]: woods "wood" point \(1000000000000000, 10\) is off the 48"×48" table/,
    );
    // JSON reads 1e999 as Infinity
    expect(problems((j) => (j.objectives[0].x = Number.POSITIVE_INFINITY))).toEqual([
      '$.objectives[0].x: Invalid input: expected number, received Infinity',
    ]);
  });

  it('refuses duplicate terrain and objective ids and a second deployment entry for one battalion', () => {
    expect(problems((j) => (j.terrain[1].id = 'wood'))[0]).toMatch(
      /^\$\.terrain\[2\]\.id: duplicate terrain id "wood"/,
    );
    expect(problems((j) => j.objectives.push({ id: 'farm', x: 1, y: 1 }))[0]).toMatch(
      /^\$\.objectives\[1\]\.id: duplicate objective id "farm"/,
    );
    expect(problems((j) => j.deployment.A.battalions.push({ ...j.deployment.A.battalions[0] }))).toContain(
      '$.deployment.A.battalions[3].id: battalion "B1" is placed twice',
    );
  });

  it("refuses a hill whose crest is outside the hill's polygon", () => {
    expect(problems((j) => (j.terrain[4].crest = [1, 1]))).toEqual([
      '$.terrain[4].crest: the crest of hill "hill" is not inside the hill (M4: slopes rise toward the crest)',
    ]);
  });
});
