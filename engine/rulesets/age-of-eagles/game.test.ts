/** Age of Eagles as built so far: random games on both scenarios keep the Game contract to the end. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { playChecked } from '../../../arena/conformance.ts';
import { ageOfEagles } from './index.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'age-of-eagles');

describe('Age of Eagles (in construction)', () => {
  for (const id of ['quick-test', 'saint-aubin'])
    it(`${id}: seeded random games keep the Game contract at every step and end with a result`, () => {
      const v = ageOfEagles.validateScenario(JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8')));
      if (!v.ok) throw new Error(JSON.stringify(v.problems));
      for (let g = 0; g < 3; g++) {
        const r = playChecked(ageOfEagles, v.value, seedrandom.alea(`${id}/${g}`), {
          seats: ['random', 'random'],
          maxPlies: 20_000,
          freeze: true,
          optionsEvery: 7,
          optionsCap: 6,
        });
        expect(r.plies).toBeGreaterThan(20);
        expect(r.returns).toHaveLength(2);
      }
    });
});
