/**
 * The observation encoding (encoding.ts) over seeded random games on both scenarios: every cell written, finite and
 * within [-1, 2]; deterministic; seat-symmetric (my blocks seen by one seat are the opponent's blocks seen by the
 * other); the legal actions of a decision told apart; states beyond the caps refused by name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { type Tally, checkEncodingAt, expectContiguousLayouts } from '../../../test/encoding-checks.ts';
import { aoeEncoding as enc, MAX_UNITS, stateBlock } from './encoding.ts';
import { ageOfEagles as game } from './index.ts';
import type { Scenario } from './scenario.ts';
import type { Action, AoeState, Side } from './types.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'age-of-eagles');
const SCENARIOS = ['quick-test', 'saint-aubin'];

function load(id: string): Scenario {
  const v = game.validateScenario(JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8')));
  if (!v.ok) throw new Error(JSON.stringify(v.problems));
  return v.value;
}

const PAIRS = ['units', 'leaders'] as const;

function checkDecision(s: AoeState, p: Side, legal: readonly Action[], t: Tally): void {
  checkEncodingAt({ enc, key: (a) => game.actionKey(a), s, p, legal, pairs: PAIRS, tally: t });
}

/** A seeded random game, checking every `every`-th decision with two or more legal actions. */
function playAndCheck(sc: Scenario, seed: string, t: Tally, every = 1): void {
  const rng = seedrandom.alea(seed);
  let s = game.initialState(sc);
  let n = 0;
  for (let ply = 0; ply < 20_000; ply++) {
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') return;
    if (tm.kind === 'chance') {
      const o = game.chanceOutcomes(s);
      let r = rng();
      let k = 0;
      for (; k < o.length - 1; k++) {
        r -= o[k]!.p;
        if (r < 0) break;
      }
      s = game.apply(s, o[k]!.action);
      continue;
    }
    const legal = game.legalActions(s);
    if (legal.length >= 2 && n++ % every === 0) checkDecision(s, tm.player as Side, legal, t);
    s = game.apply(s, legal[Math.floor(rng() * legal.length)]!);
  }
  throw new Error(`${seed}: no end in 20000 plies`);
}

const total: Tally = { decisions: 0, distinct: 0, clashes: [] };

describe('age-of-eagles/v1 encoding', () => {
  it('has contiguous, documented layouts', () => {
    expectContiguousLayouts(enc);
    expect(enc.id).toBe('age-of-eagles/v1');
    expect(stateBlock('mine: units').size % MAX_UNITS).toBe(0);
    for (const name of PAIRS) expect(stateBlock(`mine: ${name}`).size).toBe(stateBlock(`theirs: ${name}`).size);
  });

  for (const id of SCENARIOS)
    it(`${id}: random games encode completely, in range, deterministically and symmetrically`, () => {
      const sc = load(id);
      for (let g = 0; g < 3; g++) playAndCheck(sc, `encoding/${id}/${g}`, total, 2);
    });

  it('tells the legal actions of at least 95% of decisions apart', () => {
    expect(total.decisions).toBeGreaterThan(200);
    const rate = total.distinct / total.decisions;
    console.log(
      `age-of-eagles/v1: ${total.distinct}/${total.decisions} decisions (${(rate * 100).toFixed(2)}%) give every legal action its own vector (preference block left out)`,
    );
    expect(rate, total.clashes.join('; ')).toBeGreaterThanOrEqual(0.95);
  });

  it('refuses a state beyond its caps, naming the cap', () => {
    const s = game.initialState(load('quick-test'));
    const u0 = s.units.find((u) => u.side === 0)!;
    const extra = Array.from({ length: MAX_UNITS }, (_, i) => ({ ...u0, id: `${u0.id}#${i}` }));
    const big: AoeState = { ...s, units: [...s.units, ...extra] };
    expect(() => enc.check!(big)).toThrow(/16 unit slots per side; side A/);
    expect(() => enc.encodeState(big, 0, new Float32Array(enc.stateSize))).toThrow(/unit slots/);
    expect(() => enc.check!(s)).not.toThrow();
  });
});
