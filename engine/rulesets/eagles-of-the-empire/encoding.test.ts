/**
 * The observation encoding (encoding.ts) over seeded random games on every shipped scenario and a few generated
 * ones: every cell written, finite and within [-1, 2]; deterministic; seat-symmetric (my blocks seen by one seat are
 * the opponent's blocks seen by the other); the legal actions of a decision told apart; states beyond the caps refused.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { loadScenario, scenarioIds } from '../../../arena/catalog.ts';
import { playRandomGame } from '../../../arena/random-play.ts';
import { type EScenario, eaglesOfTheEmpire as game } from './index.ts';
import { type Tally, checkEncodingAt, expectContiguousLayouts } from '../../../test/encoding-checks.ts';
import { MAX_AREAS, MAX_UNITS, eaglesEncoding as enc, stateBlock } from './encoding.ts';
import type { EState } from './types.ts';

const PAIRS = ['side', 'areas', 'units'] as const;

/** Every check at one decision state with at least two legal actions. */
function checkDecision(s: EState, t: Tally): void {
  const tm = game.toMove(s);
  if (tm.kind !== 'player') throw new Error('not a decision');
  const legal = game.legalActions(s);
  checkEncodingAt({ enc, key: (a) => game.actionKey(a), s, p: tm.player, legal, pairs: PAIRS, tally: t });
}

function playAndCheck(scenario: EScenario, seed: string, t: Tally, every = 1): number {
  let n = 0;
  const r = playRandomGame(game, scenario, seedrandom.alea(seed), {
    onStep: (s, legal) => {
      if (legal < 2) return;
      if (n++ % every === 0) checkDecision(s as EState, t);
    },
  });
  return r.plies;
}

const total: Tally = { decisions: 0, distinct: 0, clashes: [] };

describe('eagles-of-the-empire/v1 encoding', () => {
  it('has contiguous, documented layouts and the caps it declares', () => {
    expectContiguousLayouts(enc);
    expect(enc.id).toBe('eagles-of-the-empire/v1');
    expect(enc.version).toBe(1);
    expect(stateBlock('areas').size % MAX_AREAS).toBe(0);
    expect(stateBlock('mine: units').size % MAX_UNITS).toBe(0);
    for (const name of PAIRS) expect(stateBlock(`mine: ${name}`).size).toBe(stateBlock(`theirs: ${name}`).size);
  });

  for (const id of scenarioIds('eagles-of-the-empire'))
    it(`${id}: random games encode completely, in range, deterministically and symmetrically`, () => {
      const { scenario } = loadScenario('eagles-of-the-empire', id);
      for (let g = 0; g < 3; g++) playAndCheck(scenario, `encoding/${id}/${g}`, total);
    });

  it('generated scenarios: the same, within the caps', () => {
    let played = 0;
    for (let k = 0; played < 4 && k < 20; k++) {
      const v = game.validateScenario(game.randomScenario!(seedrandom.alea(`encoding/gen/${k}`)));
      if (!v.ok) continue;
      enc.check!(game.initialState(v.value));
      playAndCheck(v.value, `encoding/gen/${k}/play`, total);
      played++;
    }
    expect(played).toBe(4);
  });

  it('tells the legal actions of at least 95% of decisions apart', () => {
    expect(total.decisions).toBeGreaterThan(500);
    const rate = total.distinct / total.decisions;
    console.log(
      `eagles-of-the-empire/v1: ${total.distinct}/${total.decisions} decisions (${(rate * 100).toFixed(2)}%) give every legal action its own vector (preference block left out)`,
    );
    expect(rate, total.clashes.join('; ')).toBeGreaterThanOrEqual(0.95);
  });

  it('refuses a state beyond its caps, naming the cap', () => {
    const { scenario } = loadScenario('eagles-of-the-empire', 'hohenwald-outposts');
    const s = game.initialState(scenario) as EState;
    const u0 = s.units.find((u) => u.side === 0)!;
    const extra = Array.from({ length: MAX_UNITS }, (_, i) => ({ ...u0, id: `${u0.id}#${i}` }));
    const big: EState = { ...s, units: [...s.units, ...extra] };
    expect(() => enc.check!(big)).toThrow(/48 unit slots per side \(MAX_UNITS\)/);
    expect(() => enc.encodeState(big, 0, new Float32Array(enc.stateSize))).toThrow(/MAX_UNITS/);
    expect(() => enc.check!(s)).not.toThrow();
  });
});
