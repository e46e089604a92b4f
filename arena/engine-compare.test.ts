import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCompareOptions, compareEngines } from './engine-compare.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = mkdtempSync(join(tmpdir(), 'eagles-compare-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A checkout whose modules are this one's, but with `hashHex` (or `playRandomGame`) given the body `body`; `mcts`
 * gives it the search modules too, with this text appended to its agents/mcts.ts.
 */
function fakeCheckout(name: string, hashBody?: string, playBody?: string, mcts?: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  if (mcts !== undefined) {
    mkdirSync(join(dir, 'agents'), { recursive: true });
    writeFileSync(join(dir, 'agents/mcts.ts'), `export * from '${join(ROOT, 'agents/mcts.ts')}';\n${mcts}\n`);
  }
  for (const p of ['arena/catalog.ts', 'arena/random-play.ts', 'engine/rulesets/index.ts', 'engine/core/hash.ts']) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    const real = join(ROOT, p);
    writeFileSync(
      join(dir, p),
      p === 'engine/core/hash.ts' && hashBody
        ? `export * from '${real}';\nexport function hashHex(): string {\n  ${hashBody}\n}\n`
        : p === 'arena/random-play.ts' && playBody
          ? `export function playRandomGame(): never {\n  ${playBody}\n}\n`
          : `export * from '${real}';\n`,
    );
  }
  return dir;
}

const quick = { ruleset: 'tic-tac-toe', rounds: 2, warmup: 0, seconds: 0.2 };

describe('bench --baseline (engine-compare)', () => {
  it('runs both engines on the same seeded games and finds them alike when the engine is the same', () => {
    const r = compareEngines({ ...quick, baseline: fakeCheckout('same') });
    expect(r.scenario).toBe('standard');
    expect(r.rounds).toHaveLength(2);
    for (const x of r.rounds) {
      expect(x.baseline.games).toBeGreaterThan(0);
      expect(x.current.plies).toBeGreaterThan(0);
      expect(x.cpuRatio).toBeGreaterThan(0);
    }
    expect(r.comparedGames).toBeGreaterThan(0);
    expect(r.firstDifferentGame).toBe(-1);
  }, 60_000);

  it('says so when the two engines end the games differently', () => {
    const r = compareEngines({ ...quick, rounds: 1, baseline: fakeCheckout('other', "return 'x';") });
    expect(r.firstDifferentGame).toBe(0);
  }, 60_000);

  it('stops a side that does not finish and says why, and shows a crashing engine in one line', () => {
    const hang = fakeCheckout('hang', undefined, 'for (;;) {}');
    expect(() => compareEngines({ ...quick, rounds: 1, grace: 3, baseline: hang })).toThrow(
      /^bench --baseline: the baseline engine \(.*hang\) failed: it did not finish within 4 s/,
    );
    const crash = fakeCheckout('crash', undefined, "throw new TypeError('boom');");
    expect(() => compareEngines({ ...quick, rounds: 1, baseline: crash })).toThrow(
      /^bench --baseline: the baseline engine \(.*crash\) failed: boom$/,
    );
  }, 60_000);

  it('with search, times the default MCTS on the same searches, and tells a different search apart', () => {
    const r = compareEngines({ ...quick, search: true, iterations: 50, baseline: fakeCheckout('search', '', '', '') });
    expect(r.work).toBe('search');
    for (const x of r.rounds) {
      expect(x.baseline.games).toBeGreaterThan(0);
      // each search is 50 iterations (tic-tac-toe's empty board has 9 choices)
      expect(x.current.plies).toBe(50 * x.current.games);
    }
    expect(r.comparedGames).toBeGreaterThan(0);
    expect(r.firstDifferentGame).toBe(-1);
    // a search with another exploration constant grows other trees from the same seeds
    const other = fakeCheckout(
      'search-other',
      '',
      '',
      `import { DEFAULT_MCTS as D } from '${join(ROOT, 'agents/mcts.ts')}';\nexport const DEFAULT_MCTS = { ...D, c: D.c * 4 };`,
    );
    expect(
      compareEngines({ ...quick, rounds: 1, search: true, iterations: 50, baseline: other }).firstDifferentGame,
    ).toBe(0);
    expect(() => checkCompareOptions({ ...quick, search: true, baseline: fakeCheckout('no-mcts') })).toThrow(
      /has no agents\/mcts\.ts to search with/,
    );
    expect(() => checkCompareOptions({ ...quick, search: true, iterations: 0, baseline: ROOT })).toThrow(/--it/);
  }, 60_000);

  it('refuses what is not a checkout, bad rounds, and names a baseline that fails', () => {
    expect(() => checkCompareOptions({ ...quick, baseline: join(tmp, 'nowhere') })).toThrow(/no such directory/);
    expect(() => checkCompareOptions({ ...quick, baseline: tmp })).toThrow(
      /not a checkout of this project \(no arena\/catalog\.ts/,
    );
    expect(() => checkCompareOptions({ ...quick, rounds: 0, baseline: ROOT })).toThrow(/--rounds/);
    expect(() => compareEngines({ ...quick, rounds: 1, scenario: 'no-such', baseline: fakeCheckout('same2') })).toThrow(
      /the (baseline|current) engine .* failed: .*no-such/,
    );
  }, 60_000);
});
