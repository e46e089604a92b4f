/** Real dice (rollAsk / outcomeForFaces) at The March of Eagles' chance nodes, reached in play. */
import { describe, expect, it } from 'vitest';
import { loadScenario, scenarioIds } from '../../../arena/catalog.ts';
import { chanceNodes, checkRollAt } from '../../../test/real-dice-checks.ts';
import { chargedLine, playKeys } from '../../../test/moe-fixtures.ts';
import { marchOfEagles as game } from './index.ts';
import { push, top, upd } from './state.ts';
import type { MoeState } from './types.ts';

const kindOf = (s: MoeState) => top(s)?.t ?? '?';

describe('March of Eagles: real dice at chance nodes reached in play', () => {
  const nodes = new Map<string, MoeState[]>();
  for (const id of scenarioIds(game.id)) {
    const { scenario } = loadScenario(game.id, id);
    for (const [k, list] of chanceNodes(game, () => game.initialState(scenario), kindOf, { seeds: 10, per: 4 }))
      nodes.set(k, [...(nodes.get(k) ?? []), ...list].slice(0, 8));
  }

  it('reaches every kind of chance node but the range band (below) in play', () => {
    const kinds = ['rollOff', 'initRoll', 'scRoll', 'dist', 'firstDie', 'obstacle', 'check', 'volley', 'charPick'];
    for (const k of [...kinds, 'combat', 'combatChars', 'run']) expect([...nodes.keys()], k).toContain(k);
  });

  it('at each: every outcome shown as faces maps back, combinations give listed outcomes, faces off the dice are refused', () => {
    for (const [k, list] of nodes)
      for (const s of list) {
        const r = checkRollAt(game, s);
        expect(r.problems, k).toEqual([]);
        if (k === 'charPick') expect(r.what).toBeUndefined();
        else expect(r.what, k).toBeTruthy();
      }
  });
});

describe('March of Eagles: rolls read from faces', () => {
  it('defensive fire: the range band on a D6 (M9: a 2 is long), then the defensive volley', () => {
    let s = playKeys(chargedLine(10), [
      'roll:winner B',
      'go-first self',
      'activate B1',
      'attack B1 A1',
      'roll:pass',
      'roll:sum 12',
      'defensive-fire yes',
    ]);
    expect(kindOf(s)).toBe('dfBand');
    expect(game.rollAsk!(s)!.dice).toEqual([6]);
    const band = (x: number) => {
      const r = game.outcomeForFaces!(s, [x]);
      return 'action' in r && r.action.k === 'c-band' ? r.action.band : r;
    };
    expect([1, 2, 3, 4, 5, 6].map(band)).toEqual(['long', 'long', 'medium', 'medium', 'medium', 'short']);
    expect(checkRollAt(game, s).problems).toEqual([]);
    s = game.apply(s, { k: 'c-band', band: 'short' });
    expect(kindOf(s)).toBe('volley');
    expect(game.rollAsk!(s)!.what).toMatch(/defensive fire at B1/);
    expect(checkRollAt(game, s).problems).toEqual([]);
  });

  it('the initiative: a tie after the officers is refused, naming the roll (M6)', () => {
    const s = chargedLine(10);
    expect(kindOf(s)).toBe('initRoll');
    const ask = game.rollAsk!(s)!;
    expect(ask.dice).toEqual([6, 6]);
    expect(ask.what).toMatch(/initiative/);
    const r = game.outcomeForFaces!(s, [3, 3]);
    expect('error' in r && r.error).toMatch(/^turn 1's initiative .*tie/);
    expect(game.outcomeForFaces!(s, [2, 5])).toEqual({ action: { k: 'c-win', side: 1 } });
    expect('error' in game.outcomeForFaces!(s, [7, 1])).toBe(true);
    expect('error' in game.outcomeForFaces!(s, [1])).toBe(true);
  });

  it('a check with two drummers: the first passing die of three, re-rolls in order', () => {
    let s = playKeys(chargedLine(10), ['roll:winner B', 'go-first self', 'activate B1', 'attack B1 A1']);
    expect(kindOf(s)).toBe('check');
    const f = top(s) as Extract<ReturnType<typeof top>, { t: 'check' }>;
    s = push({ ...s, stack: s.stack.slice(0, -1) }, { ...f, kind: 'manoeuvre', need: 4, mod: 0, rerolls: 2 });
    const ask = game.rollAsk!(s)!;
    expect(ask.dice).toEqual([6, 6, 6]);
    expect(ask.what).toMatch(/dice 2–3 are drummer re-rolls/);
    expect(game.outcomeForFaces!(s, [5, 1, 1])).toEqual({ action: { k: 'c-check', pass: true, used: 0 } });
    expect(game.outcomeForFaces!(s, [2, 1, 4])).toEqual({ action: { k: 'c-check', pass: true, used: 2 } });
    expect(game.outcomeForFaces!(s, [2, 1, 3])).toEqual({ action: { k: 'c-check', pass: false, used: 2 } });
    expect(checkRollAt(game, s).problems).toEqual([]);
  });

  it('a volley at a battalion with Characters: hits, a hitting 6, and a sergeant re-roll of the first miss', () => {
    let s = chargedLine(10);
    s = upd(s, 'A1', { off: 1 });
    s = upd(s, 'B1', { sgt: 1 });
    s = push(s, {
      t: 'volley',
      shooter: 'B1',
      target: 'A1',
      screen: false,
      tscreen: false,
      dice: 3,
      need: 4,
      mod: 0,
      rerolls: 1,
      defensive: false,
    });
    const ask = game.rollAsk!(s)!;
    expect(ask.dice).toEqual([6, 6, 6, 6]);
    expect(ask.what).toMatch(/3D6, each 4\+ hits .*die 4 is the sergeant re-roll/);
    expect(game.outcomeForFaces!(s, [4, 5, 4, 6])).toEqual({ action: { k: 'c-hits', hits: 3, six: false, used: 0 } });
    expect(game.outcomeForFaces!(s, [1, 2, 6, 6])).toEqual({ action: { k: 'c-hits', hits: 2, six: true, used: 1 } });
    expect(checkRollAt(game, s).problems).toEqual([]);
  });

  it("the first die of a charge's roll must be able to make the sum; the risk to Characters reads die by die", () => {
    let s = chargedLine(10);
    s = push(s, {
      t: 'firstDie',
      u: 'B1',
      n: 2,
      sum: 11,
      then: { k: 'charge', target: 'A1', face: 'front', dis: false } as never,
    });
    const r = game.outcomeForFaces!(s, [1]);
    expect('error' in r && r.error).toMatch(/first of its 2D6 that made 11: a first die of 1 cannot make 11/);
    expect(game.outcomeForFaces!(s, [5])).toEqual({ action: { k: 'c-die', face: 5 } });
    expect(checkRollAt(game, s).refused).toBeDefined();

    let t = upd(chargedLine(10), 'A1', { drum: 1, off: 1 });
    t = { ...t, engs: [{ id: 'E1', att: 'B1', def: 'A1' } as never] };
    t = push(t, { t: 'combatChars', e: 'E1', win: 'B1', lose: 'A1' });
    const ask = game.rollAsk!(t)!;
    expect(ask.dice).toEqual([6, 6]);
    expect(ask.what).toMatch(/die 1 for the drummer, die 2 for the officer/);
    expect(game.outcomeForFaces!(t, [4, 3])).toEqual({
      action: { k: 'c-lost', drum: 1, sgt: 0, ens: 0, off: 0, sc: 0 },
    });
    expect(checkRollAt(game, t).problems).toEqual([]);
  });
});
