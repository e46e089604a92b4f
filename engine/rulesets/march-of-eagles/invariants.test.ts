/** Perft from hand-counted positions, and properties checked at every step of seeded random games. */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../arena/catalog.ts';
import { playRandomGame } from '../../../arena/random-play.ts';
import { tinyState, patch } from '../../../test/moe-fixtures.ts';
import { declineSCs, playKeys } from '../../../test/moe-fixtures.ts';
import { IllegalActionError, deepFreeze } from '../../core/game.ts';
import { hashHex, hashValueFresh } from '../../core/hash.ts';
import { divide, perft } from '../../core/perft.ts';
import { marchOfEagles as game } from './index.ts';
import { judge } from './winning.ts';
import { top, unit } from './state.ts';
import type { Action, MoeState } from './types.ts';

const play = playKeys;

describe('perft from hand-counted tiny positions (chance outcomes count as branches)', () => {
  // One Drilled 24-Ranker line each, 26" apart on an empty 48" table; SCs alone behind.
  const far = () => tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 38 }] });
  it('initiative roll (2) → go-first choice (2) → slot: activate A1 | sc-move (2)', () => {
    const s = far();
    expect(perft(game, s, 1)).toBe(2);
    expect(perft(game, s, 2)).toBe(4);
    expect(perft(game, s, 3)).toBe(8);
  });
  it('orders for an unengaged line out of range: pass, 5 moves, back, 2 wheels, change formation = 10; the SC 4D6 has 21 sums', () => {
    const s = play(far(), ['roll:winner A', 'go-first self']);
    expect(divide(game, s, 2)).toEqual({ 'activate A1': 10, 'sc-move': 21 });
    expect(perft(game, far(), 4)).toBe(4 * (10 + 21));
  });
  it('a passed formation change offers the 8 compass facings (the enemy lies due north, already among them)', () => {
    const s = play(far(), ['roll:winner A', 'go-first self', 'activate A1', 'form A1', 'roll:pass']);
    expect(game.legalActions(s).map((a) => game.actionKey(a))).toEqual(
      [0, 45, 90, 135, 180, 225, 270, 315].map((h) => `facing ${h}`),
    );
    // 8 facings after a pass; after a fail the turn passes to B, whose slot has activate B1 and sc-move
    expect(perft(game, play(far(), ['roll:winner A', 'go-first self', 'activate A1', 'form A1']), 2)).toBe(8 + 2);
  });
  it('in range: add shoot and attack (12); disordered: add reform (13); broken: pass or rally (2); standing: pass (1)', () => {
    const near = () =>
      play(tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 10.8 + 8.4 + 0.8 }] }), [
        'roll:winner A',
        'go-first self',
        'activate A1',
      ]);
    const s = near();
    expect(
      game
        .legalActions(s)
        .map((a) => game.actionKey(a))
        .filter((k) => /^(shoot|attack)/.test(k)),
    ).toEqual(['shoot A1 B1', 'attack A1 B1']);
    expect(game.legalActions(s)).toHaveLength(12);
    expect(game.legalActions(patch(s, 'A1', { dis: true }))).toHaveLength(13);
    expect(game.legalActions(patch(s, 'A1', { brk: true })).map((a) => game.actionKey(a))).toEqual([
      'pass A1',
      'rally A1',
    ]);
    expect(game.legalActions(patch(s, 'A1', { stand: s.turn })).map((a) => game.actionKey(a))).toEqual(['pass A1']);
  });
});

describe('[Winning] §7 with M20', () => {
  const s = tinyState({
    a: [
      { id: 'A1', x: 10, y: 10 },
      { id: 'A2', x: 30, y: 10 },
    ],
    b: [
      { id: 'B1', x: 10, y: 38 },
      { id: 'B2', x: 30, y: 38 },
    ],
  });
  it('most unbroken battalions on the table wins', () => {
    expect(judge(patch(s, 'B2', { brk: true }), false).winner).toBe(0);
  });
  it('level (or both at full count): fewest casualties among remaining units', () => {
    expect(judge(patch(patch(s, 'A1', { cas: 5 }), 'B1', { cas: 3 }), false).winner).toBe(1);
    const gone = patch(patch(s, 'A2', { on: false, gone: 'routed', cas: 30 }), 'B2', { brk: true, cas: 2 });
    // 1 unbroken each; A's routed battalion's 30 losses do not count ("remaining units"): A 0 vs B 2
    expect(judge(gone, false).winner).toBe(0);
  });
  it('still level: a draw', () => {
    expect(judge(s, false)).toMatchObject({ winner: -1 });
  });
});

describe('[Resolve] once per turn', () => {
  it('a battalion that tested after losing a combat does not test again in the Resolve phase', () => {
    let s = tinyState({
      a: [
        { id: 'A1', x: 24, y: 10 },
        { id: 'A2', x: 6, y: 4 },
      ],
      b: [
        { id: 'B1', x: 24, y: 38 },
        { id: 'B2', x: 42, y: 44 },
      ],
    });
    s = patch(s, 'A1', { tested: true, trig: 1 });
    // everyone passes; the Resolve phase must not push a check for A1
    s = play(s, [
      'roll:winner A',
      'go-first self',
      'activate A1',
      'pass A1',
      'activate B1',
      'pass B1',
      'activate A2',
      'pass A2',
      'activate B2',
      'pass B2',
      ...declineSCs,
    ]);
    expect(top(s)).toMatchObject({ t: 'initRoll' });
    expect(s.turn).toBe(2);
  });
  it('a pending trigger is tested in the Resolve phase; failure breaks and runs 3D6 toward the home edge', () => {
    let s = tinyState({
      a: [
        { id: 'A1', x: 24, y: 20 },
        { id: 'A2', x: 6, y: 4 },
      ],
      b: [
        { id: 'B1', x: 24, y: 38 },
        { id: 'B2', x: 42, y: 44 },
      ],
    });
    s = patch(s, 'A1', { trig: 1 });
    s = play(s, [
      'roll:winner A',
      'go-first self',
      'activate A1',
      'pass A1',
      'activate B1',
      'pass B1',
      'activate A2',
      'pass A2',
      'activate B2',
      'pass B2',
      ...declineSCs,
    ]);
    expect(top(s)).toMatchObject({ t: 'check', u: 'A1', kind: 'resolve' });
    s = play(s, ['roll:fail', 'roll:sum 11']);
    expect(unit(s, 'A1')).toMatchObject({ brk: true, y: 900, h: 180 });
    // A2 saw a friend run (LOS, any distance): it tests in the same Resolve phase
    expect(top(s)).toMatchObject({ t: 'check', u: 'A2', kind: 'resolve' });
    s = play(s, ['roll:pass']);
    // compulsory moves: A1 already ran this turn, so the next turn begins
    expect(s.turn).toBe(2);
    expect(unit(s, 'A1').y).toBe(900);
  });
});

describe('properties at every step of seeded random games', () => {
  for (const id of ['farm-on-the-ridge', 'woods-walls-hill']) {
    it(`${id}: legal lists stable and unique, chance sums to 1, hash = fresh recomputation, JSON round trip, no mutation`, () => {
      const { scenario } = loadScenario('march-of-eagles', id);
      for (let g = 0; g < 2; g++) {
        const rng = seedrandom.alea(`${id}/${g}`);
        let s = deepFreeze(game.initialState(scenario));
        let plies = 0;
        while (game.toMove(s).kind !== 'terminal') {
          const tm = game.toMove(s);
          let a: Action;
          if (tm.kind === 'chance') {
            const outs = game.chanceOutcomes(s);
            expect(outs.reduce((x, o) => x + o.p, 0)).toBeCloseTo(1, 9);
            expect(outs.every((o) => o.p > 0)).toBe(true);
            let r = rng();
            a = outs[outs.length - 1]!.action;
            for (const o of outs) {
              if (r < o.p) {
                a = o.action;
                break;
              }
              r -= o.p;
            }
          } else {
            const l1 = game.legalActions(s).map((x) => game.actionKey(x));
            const l2 = game.legalActions(s).map((x) => game.actionKey(x));
            expect(l1.length).toBeGreaterThan(0);
            expect(l2).toEqual(l1);
            expect(new Set(l1).size).toBe(l1.length);
            const legal = game.legalActions(s);
            a = legal[Math.floor(rng() * legal.length)]!;
          }
          const next = game.apply(s, a); // apply on a deep-frozen state: any mutation throws
          const h = game.hash(next);
          expect(hashHex(h)).toBe(hashHex(hashValueFresh(next)));
          if (plies % 25 === 0) expect(hashHex(game.hash(JSON.parse(JSON.stringify(next))))).toBe(hashHex(h));
          s = deepFreeze(next);
          plies++;
        }
        expect(game.legalActions(s)).toHaveLength(0);
        const r = game.returns(s);
        expect(r[0]! + r[1]!).toBe(0);
      }
    });
  }
  it('illegal actions are refused with the action named', () => {
    const { scenario } = loadScenario('march-of-eagles', 'farm-on-the-ridge');
    const s = game.initialState(scenario);
    expect(() => game.apply(s, { k: 'pass', u: 'B1' })).toThrow(/illegal action "pass B1"/);
    // the runtime names the frame on top (here the initiative roll) and refuses everything once the game is over
    expect(() => game.apply(s, { k: 'pass', u: 'B1' })).toThrow(IllegalActionError);
    expect(() => game.apply(s, { k: 'pass', u: 'B1' })).toThrow(/not among the initRoll options here/);
    const over: MoeState = { ...s, phase: 'over', result: { winner: 0, reason: 'test' }, stack: [] };
    expect(() => game.apply(over, { k: 'c-win', side: 0 })).toThrow(/the game is over/);
  });
});

describe('regressions', () => {
  it('soak seeds 955, 6136, 6867, 9826 (a formation change facing off the compass points left no legal facing) finish', async () => {
    const { scenario } = loadScenario('march-of-eagles', 'farm-on-the-ridge');
    for (const seed of [955, 6136, 6867, 9826]) {
      const r = playRandomGame(game, scenario, seedrandom.alea(`soak/farm-on-the-ridge/${seed}`), { checked: true });
      expect(game.toMove(r.state as MoeState).kind).toBe('terminal');
    }
  });
});
