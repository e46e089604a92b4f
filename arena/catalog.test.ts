/** Loading scenario files: map ids that are paths, misspelt rulesets, and a long problem list capped in the message. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_DIR, ScenarioError, loadScenarioFile } from './catalog.ts';

const tmp = mkdtempSync(join(tmpdir(), 'eagles-catalog-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const shipped = (ruleset: string, id: string) =>
  JSON.parse(readFileSync(join(DATA_DIR, 'scenarios', ruleset, `${id}.json`), 'utf8'));

/** The ScenarioError loading `json` from a file throws (fails the test if it loads). */
function refusal(json: unknown): ScenarioError {
  const file = join(tmp, 'scenario.json');
  writeFileSync(file, JSON.stringify(json));
  try {
    loadScenarioFile(file);
  } catch (e) {
    if (e instanceof ScenarioError) return e;
    throw e;
  }
  throw new Error('the scenario loaded');
}

describe('loadScenarioFile', () => {
  it('loads the shipped area-map scenario with its map embedded', () => {
    const file = join(DATA_DIR, 'scenarios', 'eagles-of-the-empire', 'hohenwald-1809.json');
    expect(loadScenarioFile(file).scenario.mapData.id).toBe('hohenwald-1809');
  });

  it('refuses a map id that is a path before reading any file', () => {
    for (const map of ['../../etc', '../../maps/eagles-of-the-empire/hohenwald-1809', '/etc/passwd']) {
      const e = refusal({ ...shipped('eagles-of-the-empire', 'hohenwald-1809'), map });
      expect(e.problems).toEqual([
        {
          path: '$.map',
          message: `map id ${JSON.stringify(map)} is not a map name: a map id is lower-case letters, digits and - (the file data/maps/eagles-of-the-empire/<id>.json)`,
        },
      ]);
    }
  });

  it('suggests the ruleset a misspelt one stands for, and knows no ruleset by an Object property name', () => {
    const e = refusal({ ...shipped('march-of-eagles', 'open-field'), ruleset: 'march-of-eagle' });
    expect(e.problems[0]!.message).toMatch(
      /^unknown ruleset "march-of-eagle" \(did you mean "march-of-eagles"\?\); known: /,
    );
    expect(refusal({ ruleset: 'toString' }).problems[0]!.message).toMatch(/^unknown ruleset "toString"; known: /);
  });

  it('lists the first 20 problems in its message and counts the rest, keeping all of them', () => {
    const j = shipped('march-of-eagles', 'open-field');
    j.objectives = Array.from({ length: 75 }, (_, i) => ({ id: `o${i}`, x: 1e15, y: 1 }));
    const e = refusal(j);
    expect(e.problems).toHaveLength(75);
    const lines = e.message.split('\n');
    expect(lines[0]).toMatch(/scenario\.json is not a valid scenario \(75 problems\):$/);
    expect(
      lines.slice(1, 21).every((l) => /^ {2}\$\.objectives\[\d+\]: objective "o\d+" point .* is off/.test(l)),
    ).toBe(true);
    expect(lines.slice(21)).toEqual(['  … and 55 more problems']);
    expect(refusal({ ...j, objectives: [], turns: 0 }).message.split('\n')).toHaveLength(2);
  });
});
