/** Age of Eagles scenario files: the shipped ones validate; every kind of bad file is refused with its JSON path. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateScenario } from './scenario.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'age-of-eagles');
const load = (id: string) => JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8'));

/** The problems of a file changed by `edit` (a deep copy of Saint-Aubin), as "path: message" lines. */
function problems(edit: (j: any) => void): string[] {
  const j = load('saint-aubin');
  edit(j);
  const v = validateScenario(j);
  return v.ok ? [] : v.problems.map((p) => `${p.path}: ${p.message}`);
}

describe('Age of Eagles scenarios', () => {
  it("ships Saint-Aubin (digest §11) and a quick test, both valid, with the digest's defaults filled in", () => {
    for (const id of ['saint-aubin', 'quick-test']) {
      const v = validateScenario(load(id));
      expect(v.ok, JSON.stringify(!v.ok && v.problems)).toBe(true);
    }
    const v = validateScenario(load('saint-aubin'));
    if (!v.ok) throw new Error('invalid');
    expect(v.value.options).toMatchObject({
      A12_turns: 8,
      A12_cohesion: [0.25, 0.5],
      A9_musketry: 6,
      A11_infantryRough: 0.5,
    });
    expect(v.value.sides.map((s) => s.divisions.flatMap((d) => d.units).length)).toEqual([4, 4]);
    const j2 = v.value.sides[1].divisions[0]!.units.find((u) => u.id === 'J2')!;
    expect(j2).toMatchObject({ type: 'infantry', light: true, formation: 'OpenOrder', hits: 0, disordered: false });
  });

  it('refuses unknown keys at every level, naming the path', () => {
    expect(problems((j) => (j.sides[0].divisions[0].units[0].Light = true))).toEqual([
      expect.stringMatching(/^\$\.sides\[0\]\.divisions\[0\]\.units\[0\]: .*Light/),
    ]);
    expect(problems((j) => (j.terrain[0].roof = 'slate'))[0]).toMatch(/^\$\.terrain\[0\]: .*roof/);
    expect(problems((j) => (j.options = { A1_die: 'd6' }))[0]).toMatch(/^\$\.options\.A1_die: /);
    expect(problems((j) => (j.options = { A99: 1 }))[0]).toMatch(/^\$\.options: .*A99/);
  });

  it('refuses what the sheets forbid and what the table cannot hold', () => {
    expect(problems((j) => (j.sides[0].divisions[0].units[0].formation = 'OpenOrder'))).toEqual([
      '$.sides[0].divisions[0].units[0].formation: only Light Infantry may be in Open Order [Differences]',
    ]);
    expect(problems((j) => (j.sides[0].divisions[0].units[1].hits = 5))[0]).toMatch(
      /units\[1\]\.hits: .*5 hits is removed/,
    );
    expect(problems((j) => (j.sides[0].divisions[0].units[2].x = 60))).toEqual([
      '$.sides[0].divisions[0].units[2]: unit C1\'s centre point (60, 6) is off the 48"×48" table',
    ]);
    expect(problems((j) => (j.terrain[0].x = 47))[0]).toMatch(/BUA block mill's corner point \(48\.5, 25\.5\) is off/);
    expect(
      problems(
        (j) =>
          (j.terrain[3].polygon = [
            [34, 14],
            [42, 22],
            [42, 14],
            [34, 22],
          ]),
      )[0],
    ).toMatch(/woods wood crosses itself/);
    expect(problems((j) => j.terrain.push({ type: 'bua', id: 'barn', x: 25, y: 26 }))).toEqual([
      '$.terrain: BUA blocks mill and barn overlap (blocks are 3" × 3")',
    ]);
    expect(problems((j) => (j.terrain[2].fords = [{ from: 12, to: 10 }]))).toEqual([
      '$.terrain[2].fords[0]: a ford runs from a smaller x to a larger one',
    ]);
  });

  it('refuses broken command links and duplicate ids', () => {
    expect(problems((j) => (j.sides[0].divisions[0].leader.attached = 'J1'))).toEqual([
      '$.sides[0].divisions[0].leader.attached: "J1" is not a unit of this leader\'s command [Leaders]',
    ]);
    expect(problems((j) => delete j.sides[1].armyLeader.x)).toEqual([
      '$.sides[1].armyLeader: a leader needs "attached" (a unit id) or a position x, y',
    ]);
    expect(problems((j) => (j.sides[1].divisions[0].units[0].id = 'I1'))).toEqual(
      [
        '$.sides[1].divisions[0].units[0].id: duplicate id "I1" (first used at $.sides[0].divisions[0].units[0].id)',
        '$.sides[1].divisions[0].leader.attached: "J1" is not a unit of this leader\'s command [Leaders]',
      ].reverse(),
    );
    expect(problems((j) => (j.objectives[0].bua = 'church'))).toEqual([
      '$.objectives[0].bua: no BUA block "church" in the terrain',
    ]);
  });

  it('suggests the key a misspelt one stands for, at any depth', () => {
    expect(problems((j) => (j.sides[0].divisions[0].units[0].Light = true))).toEqual([
      '$.sides[0].divisions[0].units[0]: unknown key "Light" (did you mean "light"?)',
    ]);
    expect(problems((j) => (j.sides[1].divisions[0].leader.charismatik = true))).toEqual([
      '$.sides[1].divisions[0].leader: unknown key "charismatik" (did you mean "charismatic"?)',
    ]);
    expect(problems((j) => (j.options = { A9_muskety: 6 }))).toEqual([
      '$.options: unknown key "A9_muskety" (did you mean "A9_musketry"?)',
    ]);
    expect(problems((j) => (j.terrain[2].fords[0].From = 10))).toEqual([
      '$.terrain[2].fords[0]: unknown key "From" (did you mean "from"?)',
    ]);
    expect(problems((j) => (j.objectives[0] = { id: 'o', X: 3, y: 3 }))).toEqual([
      '$.objectives[0]: an objective is { "id", "bua": a BUA block id } or { "id", "x", "y": a point in inches }',
    ]);
  });

  it('names the leader or objective off the table, and the table size, at its own path', () => {
    expect(problems((j) => (j.sides[1].armyLeader = { id: 'Wellesley', x: 500, y: -40 }))).toEqual([
      '$.sides[1].armyLeader: leader Wellesley point (500, -40) is off the 48"×48" table',
    ]);
    expect(problems((j) => j.objectives.push({ id: 'ridge', x: 3, y: 1e9 }))).toEqual([
      '$.objectives[1]: objective ridge point (3, 1000000000) is off the 48"×48" table',
    ]);
    expect(problems((j) => (j.terrain[0].x = 1e15))).toEqual([
      '$.terrain[0]: BUA block mill\'s corner point (999999999999998.5, 22.5) is off the 48"×48" table',
      '$.terrain[0]: BUA block mill\'s corner point (1000000000000001.5, 25.5) is off the 48"×48" table',
    ]);
    expect(problems((j) => (j.terrain[2].fords = [{ from: 40, to: 1e9 }]))).toEqual([
      '$.terrain[2].fords[0]: ford x 40 to 1000000000 of stream stream is off the 48"×48" table',
    ]);
    expect(problems((j) => (j.sides[0].divisions[0].units[0].y = Number.NEGATIVE_INFINITY))).toEqual([
      '$.sides[0].divisions[0].units[0].y: Invalid input: expected number, received -Infinity',
    ]);
  });
});
