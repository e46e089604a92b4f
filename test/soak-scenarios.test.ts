/** The Napoleon's Eagles soak scenarios (test/data/napoleons-eagles-soak): each loads, its optional rules on or off. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../arena/catalog.ts';

const DIR = join(import.meta.dirname, 'data', 'napoleons-eagles-soak');

describe('napoleons-eagles soak scenarios', () => {
  for (const [file, base] of [
    ['qt-on', 'quick-test'],
    ['qt-off', 'quick-test'],
    ['kl-on', 'the-mill-at-kleinau'],
    ['kl-off', 'the-mill-at-kleinau'],
  ] as const)
    it(`${file}: ${base} with every optional rule ${file.endsWith('-on') ? 'on' : 'off'}`, () => {
      const path = join(DIR, `${file}.json`);
      const { scenario, game } = loadScenario('napoleons-eagles', path);
      const shipped = loadScenario('napoleons-eagles', base).scenario;
      const on = file.endsWith('-on');
      // the book's optional rules [p.4–5, p.11, p.15–24] as the file sets them, read as written
      const raw = JSON.parse(readFileSync(path, 'utf8')).options as Record<string, unknown>;
      const flags = Object.entries(raw).filter(([, v]) => typeof v === 'boolean');
      expect(flags.length).toBeGreaterThan(10);
      // visibility refuses until built: it stays off in both
      for (const [k, v] of flags) {
        expect([k, v]).toEqual([k, on && k !== 'visibility']);
        expect([k, scenario.options[k]]).toEqual([k, v]);
      }
      // the armies are the shipped scenario's
      expect(JSON.stringify(scenario.sides)).toBe(JSON.stringify(shipped.sides));
      expect(game.initialState(scenario)).toBeTruthy();
    });
});
