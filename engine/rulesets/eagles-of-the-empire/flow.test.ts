import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import { IllegalActionError, type GameEvent } from '../../core/game.ts';
import { firstPlayerOdds } from './flow.ts';
import { chanceOutcomes, initialState, legalActions, settle, step, toMoveOf, top } from './rules.ts';
import { validateScenario } from './scenario.ts';
import type { Action, EState } from './types.ts';
import { loadScenario } from '../../../test/eote-fixtures.ts';
import { eaglesOfTheEmpire as game } from './index.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const map = AreaMap.parse(
  JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')),
);
const v = validateScenario(
  JSON.parse(readFileSync(join(DATA, 'scenarios', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')),
  map,
);
if (!v.ok) throw new Error('scenario invalid');
const sc = v.value;

const start = () => settle(initialState(sc, map), undefined);
function act(s: EState, a: Action, log?: GameEvent[]): EState {
  return settle(step(s, a, log), log);
}
const die = (face: number): Action => ({ k: 'c-die', face });

describe('Eagles of the Empire turn flow (Preparation and Activation Steps)', () => {
  it('sets up Hohenwald with reinforcements and off-map leaders held back', () => {
    const s = initialState(sc, map);
    expect(s.units.filter((u) => u.area !== null)).toHaveLength(s.units.length - 3 - 3); // lancers, 9th hussars, 2nd grenadiers; R-1inf's three line markers [16.0]
    expect(s.units.filter((u) => u.ext !== null).map((u) => u.id)).toEqual(['R-1inf~h', 'R-1inf~t1', 'R-1inf~t2']);
    expect(s.leaders.find((l) => l.id === 'roussel')!.status).toBe('off');
    expect(s.leaders.find((l) => l.id === 'lasseur')!.status).toBe('off');
    expect(s.units.find((u) => u.id === 'F-1div')).toMatchObject({ area: 7, conf: 'E', long: true, step: 0 });
    expect(s.hq).toEqual([
      { area: 13, lost: false },
      { area: 18, lost: false },
    ]);
  });

  it('rolls for the first player with exact odds, ties re-rolled [7.0]', () => {
    const s = start();
    expect(top(s)!.t).toBe('firstRoll');
    const o = chanceOutcomes(s);
    expect(o.map((x) => x.p)).toEqual([firstPlayerOdds(5, 3), 1 - firstPlayerOdds(5, 3)]);
    // d6+5 vs d6+3: 26 wins, 6 losses, 4 ties of 36 → 26/32
    expect(firstPlayerOdds(5, 3)).toBeCloseTo(26 / 32, 12);
  });

  it('offers roll, pass, and a Grand Charge by the named leader [8.1, 10.8]', () => {
    let s = start();
    s = act(s, { k: 'c-first', winner: 0 });
    expect(toMoveOf(s)).toEqual({ kind: 'player', player: 0 });
    s = act(s, { k: 'first', self: true });
    expect(legalActions(s)).toEqual([{ k: 'roll' }, { k: 'pass' }, { k: 'grandCharge', leader: 'murand' }]);
    expect(() => step(s, { k: 'grandCharge', leader: 'dorval' }, undefined)).toThrow(/cannot launch a Grand Charge/);
  });

  it('RB-06: two consecutive failed attempts, one by each player, end the Activation Step', () => {
    const log: GameEvent[] = [];
    let s = act(start(), { k: 'c-first', winner: 0 });
    s = act(s, { k: 'first', self: true });
    s = act(s, { k: 'roll' }, log);
    s = act(s, die(6), log); // 6 > 5: the French fail
    expect(toMoveOf(s)).toEqual({ kind: 'player', player: 1 });
    s = act(s, { k: 'roll' }, log);
    s = act(s, die(4), log); // 4 > 3: the Russians fail → End Step → turn 2 weather roll
    expect(s.turn).toBe(2);
    expect(top(s)!.t).toBe('weather');
    expect(log.map((e) => e.rule)).toEqual(expect.arrayContaining(['8.12', '8.13', '15.4']));
    expect(chanceOutcomes(s).map((o) => [(o.action as { w: string }).w, o.p])).toEqual([
      ['clear', 0.5],
      ['fog', 1 / 6],
      ['rain', 1 / 6],
      ['snow', 1 / 6],
    ]);
  });

  it('a game where both sides always pass ends after turn 6 with the objectives deciding (Russian marginal)', () => {
    let s = start();
    const log: GameEvent[] = [];
    for (let i = 0; i < 200 && !s.result; i++) {
      const tm = toMoveOf(s);
      if (tm.kind === 'chance') s = act(s, chanceOutcomes(s)[0]!.action, log);
      else {
        const legal = legalActions(s);
        const pass = legal.find((a) => a.k === 'pass') ?? legal.find((a) => a.k === 'arrive') ?? legal[0]!;
        s = act(s, pass, log);
      }
    }
    expect(s.result).toMatchObject({ winner: 1, level: 'marginal', vp: [0, 6] });
    expect(s.units.find((u) => u.id === 'F-vist')!.area).toBe(13); // turn 3 reinforcements
    expect(s.units.find((u) => u.id === 'R-2gren')).toMatchObject({ area: 24, conf: 'N' }); // turn 4, faced by its owner
    expect(log.filter((e) => e.rule === '6.0')).toHaveLength(2);
  });

  it('activates formations on a roll, determines command, then starts the Action Phase [8.14]', () => {
    let s = act(start(), { k: 'c-first', winner: 0 });
    s = act(s, { k: 'first', self: true });
    s = act(s, { k: 'roll' });
    s = act(s, die(3)); // 5 − 3 = 2 formations (RB-03)
    expect(top(s)).toMatchObject({ t: 'select', left: 2 });
    expect(legalActions(s).map((a) => (a as { f: string }).f)).toEqual(['f-hqf', 'f-I', 'f-II', 'f-cav']);
    s = act(s, { k: 'select', f: 'f-I' });
    s = act(s, { k: 'select', f: 'f-cav' });
    expect(top(s)).toMatchObject({ t: 'phase', p: 0 });
    expect(s.active).toEqual(['f-I', 'f-cav']);
  });

  it('delays a reinforcement once, by one turn (A-51)', () => {
    let s = start();
    // pass turns 1 and 2
    for (let i = 0; i < 100 && s.turn < 3; i++) {
      const tm = toMoveOf(s);
      s =
        tm.kind === 'chance'
          ? act(s, chanceOutcomes(s)[0]!.action)
          : act(s, legalActions(s).find((a) => a.k === 'pass') ?? legalActions(s)[0]!);
    }
    while (toMoveOf(s).kind === 'chance') s = act(s, chanceOutcomes(s)[0]!.action);
    expect(top(s)).toMatchObject({ t: 'reinf', g: 'f-lcd' });
    s = act(s, { k: 'delay', g: 'f-lcd' });
    expect(s.units.find((u) => u.id === 'F-vist')!.area).toBeNull();
    expect(s.reinf.find((r) => r.id === 'f-lcd')).toMatchObject({ delayed: true, arrived: false });
  });

  describe('a reinforcement with nowhere to arrive [6.0] (A-51)', () => {
    /**
     * Hohenwald with ten more Cossack regiments and the 2nd Grenadiers set up (so f-lcd, due on turn `due`, is the only
     * group), then every area of the map held by Russian units and the French off the map, at the Reinforcement Phase
     * of turn `turn`.
     */
    function enemyEverywhere(turn: number, due = 3, delayed = false): EState {
      const sc2 = loadScenario((j) => {
        const cossacks = Array.from({ length: 10 }, (_, i) => `R-cos${i}`);
        j.sides[1].formations
          .find((f: any) => f.id === 'r-2')
          .units.push(
            ...cossacks.map((id) => ({
              id,
              name: `Cossacks ${id}`,
              kind: 'cavalry',
              cavClass: 'irregular',
              steps: ['a1-3'],
            })),
          );
        j.setup[1].find((p: any) => p.area === 22).units.push(...cossacks);
        j.setup[1].push({ area: 24, units: ['R-2gren'], leaders: [], hq: false, facing: { 'R-2gren': 'W' } });
        j.reinforcements = [{ ...j.reinforcements[0], turn: due }];
      });
      const s0 = initialState(sc2, map);
      const areas = [...map.areas.keys()];
      const russians = s0.units.filter((u) => u.side === 1 && u.ext === null).map((u) => u.id);
      expect(russians.length).toBeGreaterThanOrEqual(areas.length);
      const units = s0.units.map((u) =>
        u.side === 0
          ? { ...u, area: null }
          : u.ext === null
            ? { ...u, area: areas[russians.indexOf(u.id) % areas.length]!, conf: null }
            : u,
      );
      return { ...s0, units, turn, weatherSet: true, reinf: s0.reinf.map((r) => ({ ...r, delayed })) };
    }

    it('offers only the delay when the enemy holds every area, and refuses an arrival [6.0] (A-51)', () => {
      const s = settle(enemyEverywhere(3), undefined);
      expect(top(s)).toMatchObject({ t: 'reinf', p: 0, g: 'f-lcd' });
      expect(legalActions(s)).toEqual([{ k: 'delay', g: 'f-lcd' }]);
      expect(game.describeDecision!(s)).toMatch(
        /enemy holds every area it could arrive in: delay it one turn \[6\.0\] \(A-51\)/,
      );
      expect(() => step(s, { k: 'arrive', g: 'f-lcd' }, undefined)).toThrow(IllegalActionError);
      const d = act(s, { k: 'delay', g: 'f-lcd' });
      expect(d.reinf.find((r) => r.id === 'f-lcd')).toMatchObject({ delayed: true, arrived: false });
      expect(top(d)!.t).toBe('firstRoll');
    });

    it('a delayed group that still cannot arrive does not arrive, and play goes on [6.0] (A-51)', () => {
      const log: GameEvent[] = [];
      const s = settle(enemyEverywhere(4, 3, true), log);
      expect(s.reinf.find((r) => r.id === 'f-lcd')).toMatchObject({ arrived: false, lapsed: true });
      expect(s.units.find((u) => u.id === 'F-vist')!.area).toBeNull();
      expect(log.filter((e) => e.rule === '6.0').map((e) => e.text)).toEqual([
        expect.stringMatching(/f-lcd cannot arrive.*it does not arrive/),
      ]);
      expect(top(s)!.t).toBe('firstRoll');
    });

    it('on the last turn a group that cannot arrive cannot be delayed either: it does not arrive [6.0] (A-51)', () => {
      const log: GameEvent[] = [];
      const s = settle(enemyEverywhere(6, 6), log);
      expect(s.reinf.find((r) => r.id === 'f-lcd')).toMatchObject({ arrived: false, delayed: false, lapsed: true });
      expect(top(s)!.t).toBe('firstRoll');
      expect(log.some((e) => e.rule === '6.0' && /does not arrive/.test(e.text))).toBe(true);
    });

    it('still offers both while some area is free, and only the arrival once delayed or on the last turn (A-51)', () => {
      const free = (s: EState) => ({ ...s, units: s.units.map((u) => (u.area === 24 ? { ...u, area: 23 } : u)) }); // the East Trail End (24) is free
      expect(legalActions(settle(free(enemyEverywhere(3)), undefined))).toEqual([
        { k: 'arrive', g: 'f-lcd' },
        { k: 'delay', g: 'f-lcd' },
      ]);
      const last = settle(free(enemyEverywhere(6, 6)), undefined);
      expect(legalActions(last)).toEqual([{ k: 'arrive', g: 'f-lcd' }]);
      expect(game.describeDecision!(last)).toMatch(/bring it on now \(it cannot be delayed/);
    });
  });
});
