/** Real dice (rollAsk / outcomeForFaces) at Age of Eagles' chance nodes, reached in play. */
import { describe, expect, it } from 'vitest';
import { loadScenario, scenarioIds } from '../../../arena/catalog.ts';
import { chanceNodes, checkRollAt } from '../../../test/real-dice-checks.ts';
import { ageOfEagles as game } from './index.ts';
import { FIRE_RESULTS, rowIndex } from './tables.ts';
import type { AoeState } from './types.ts';

const kindOf = (s: AoeState) => s.stack[s.stack.length - 1]?.t ?? '?';

const nodes = new Map<string, AoeState[]>();
for (const id of scenarioIds(game.id)) {
  const { scenario } = loadScenario(game.id, id);
  for (const [k, list] of chanceNodes(game, () => game.initialState(scenario), kindOf, { seeds: 6, per: 4 }))
    nodes.set(k, [...(nodes.get(k) ?? []), ...list].slice(0, 8));
}
// a combat rarely comes up in random play: one pushed onto a position reached in play
{
  const s = nodes.get('march')![0]!;
  const def = s.units.find((u) => !u.gone)!.id;
  nodes.set('melee', [
    ...(nodes.get('melee') ?? []),
    { ...s, stack: [...s.stack, { t: 'melee', def, amod: 2, dmod: -1 }] },
  ]);
}
const first = (k: string) => nodes.get(k)![0]!;

describe('Age of Eagles: real dice at chance nodes reached in play', () => {
  it('covers every kind of roll: initiative, the March table, fire, combat', () => {
    expect([...nodes.keys()].sort()).toEqual(['initRoll', 'march', 'melee', 'shot']);
  });

  it('at each: every outcome shown as faces maps back, combinations give listed outcomes, faces off the dice are refused', () => {
    for (const [k, list] of nodes)
      for (const s of list) {
        const r = checkRollAt(game, s);
        expect(r.what, k).toBeTruthy();
        expect(r.problems, k).toEqual([]);
      }
  });
});

describe('Age of Eagles: rolls read from faces', () => {
  it('the initiative: D10 each, a tie refused as rolled again (A2)', () => {
    const s = first('initRoll');
    expect(game.rollAsk!(s)!.dice).toEqual([10, 10]);
    expect(game.outcomeForFaces!(s, [7, 3])).toEqual({ action: { a: 'initWin', side: 0 } });
    expect(game.outcomeForFaces!(s, [2, 9])).toEqual({ action: { a: 'initWin', side: 1 } });
    const r = game.outcomeForFaces!(s, [4, 4]);
    expect('error' in r && r.error).toMatch(/^turn \d+'s initiative \[Initiative Phase\] \(A2\): 4 each is a tie/);
  });

  it('a shot: the D10 plus its DRM read on the fire results; an 11 on a D10 is refused, naming the shot', () => {
    const s = first('shot');
    const f = s.stack[s.stack.length - 1] as Extract<AoeState['stack'][number], { t: 'shot' }>;
    const ask = game.rollAsk!(s)!;
    expect(ask.dice).toEqual([10]);
    expect(ask.what).toContain(`${f.u}'s`);
    for (let x = 1; x <= 10; x++)
      expect(game.outcomeForFaces!(s, [x])).toEqual({
        action: { a: 'shotRoll', r: rowIndex(FIRE_RESULTS, x + f.drm) },
      });
    const r = game.outcomeForFaces!(s, [11]);
    expect('error' in r && r.error).toMatch(/\[Volley & Cannonade\].*11 is not a face of a D10/);
  });

  it('combat: D10 each side, read as the differential', () => {
    const s = first('melee');
    expect(game.rollAsk!(s)!.dice).toEqual([10, 10]);
    expect(game.rollAsk!(s)!.what).toMatch(/\[Bayonet & Sabre\]: D10.* for the attacker, D10.* for the defender/);
    const r = game.outcomeForFaces!(s, [3]);
    expect('error' in r && r.error).toMatch(/enter 2 dice \(2D10\), not 1/);
  });
});
