import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import type { GameEvent } from '../../core/game.ts';
import { act, loadScenario, position, unitOf } from '../../../test/eote-fixtures.ts';
import { type LaneWorld, chargeLanes, chargeStepBan, chargeSucceeds, checkLane } from './charge.ts';
import { chanceOutcomes, legalActions, toMoveOf, top } from './rules.ts';
import type { Action, EState } from './types.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const map = AreaMap.parse(
  JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')),
);

const world = (enemy: number[], occupied: number[] = [], front: number[] = []): LaneWorld => ({
  map,
  occupied: (a) => occupied.includes(a) || enemy.includes(a),
  enemyTarget: (a) => enemy.includes(a),
  enemyUnits: (a) => enemy.includes(a),
  frontOfEnemyLc: (a) => front.includes(a),
});

describe('charge lanes [10.0, 10.1, 10.11] on Hohenwald (digest §11.7)', () => {
  it('the straight lane 7 → 14 → 21', () => {
    expect(checkLane(world([21]), 7, 21)).toEqual({ ok: true, via: 14 });
  });
  it('banned lanes: into the village (7 → 8 → 9 passes the village), uphill 9 → 10 → 11, the town, woods', () => {
    expect(checkLane(world([9]), 7, 9)).toMatchObject({ ok: false, rule: '10.0' });
    expect(checkLane(world([11]), 9, 11)).toMatchObject({
      ok: false,
      rule: '10.0',
      why: expect.stringMatching(/slope up from 10 to 11/),
    });
    expect(checkLane(world([16]), 14, 16)).toMatchObject({ ok: false, rule: '10.0' });
    expect(checkLane(world([3]), 1, 3)).toMatchObject({ ok: false }); // woods at 2
  });
  it('downhill is allowed: 11 → 10 → 9', () => {
    expect(checkLane(world([9]), 11, 9)).toEqual({ ok: true, via: 10 });
  });
  it('needs an empty intervening area, an enemy target two areas away, and no enemy LC facing the origin', () => {
    expect(checkLane(world([21], [14]), 7, 21)).toMatchObject({ ok: false, rule: '10.1' });
    expect(checkLane(world([]), 7, 21)).toMatchObject({ ok: false, rule: '10.1' });
    expect(checkLane(world([14]), 7, 14)).toMatchObject({ ok: false, rule: '10.1' });
    expect(checkLane(world([21], [], [7]), 7, 21)).toMatchObject({ ok: false, rule: '10.11' });
  });
  it('lists every legal lane from an origin', () => {
    expect(chargeLanes(world([21, 9, 3]), 7).map((l) => l.target)).toEqual([21]);
  });
});

describe('charge result [10.4, 10.5]', () => {
  it('DV-12 is repelled (3 of 7 SP lost); DV-13 succeeds (4 of 6 lost, 4 steps against 3)', () => {
    expect(chargeSucceeds({ defenderSpBefore: 7, defenderSpAfter: 4, stepsInflicted: 3, cavalryStepsLost: 1 })).toBe(
      false,
    );
    expect(chargeSucceeds({ defenderSpBefore: 6, defenderSpAfter: 2, stepsInflicted: 4, cavalryStepsLost: 3 })).toBe(
      true,
    );
    expect(chargeSucceeds({ defenderSpBefore: 6, defenderSpAfter: 2, stepsInflicted: 4, cavalryStepsLost: 5 })).toBe(
      false,
    );
  });
});

describe('pursuit obeys the charge bans [10.92, 10.0] (A-20)', () => {
  const sc = loadScenario();
  // the 7th Hussars and 5th Chasseurs (light, 2 SP each) in Mühlenhof (3) charge R-2inf (A4-4, facing N) in the Bridge
  // Approach (15) through the West Meadow (9); three hits take it to d1 and the charge succeeds [10.4]
  function chargeAndRetreatTo(
    dest: number,
    moves: Record<string, [number | null, string | null]> = {},
  ): { s: EState; log: GameEvent[]; stages: string[] } {
    let s = position(sc, 0, 'charge', ['f-I'], {
      'F-I-hart': [null, null],
      'F-7hus': [3, null],
      'F-5chas': [3, null],
      colmar: [3, null],
      'R-2inf': [15, 'N'],
      ...moves,
    });
    const log: GameEvent[] = [];
    const stages: string[] = [];
    const note = () => {
      const f = top(s);
      if (f?.t === 'charge') stages.push(f.stage);
    };
    for (const a of [
      { k: 'charge', area: 3, target: 15 },
      { k: 'join', u: 'F-7hus' },
      { k: 'join', u: 'F-5chas' },
      { k: 'resolve' },
      { k: 'stand' },
      { k: 'c-hits', n: 0 },
      { k: 'c-hits', n: 3 },
    ] as Action[]) {
      s = act(s, a, log);
      note();
    }
    expect(unitOf(s, 'R-2inf').step).toBe(3); // d1: 3 of its 4 SP lost
    expect(top(s)).toMatchObject({ t: 'retreatTo', p: 1, from: 15 });
    expect(legalActions(s)).toContainEqual({ k: 'goTo', area: dest });
    s = act(s, { k: 'goTo', area: dest }, log);
    note();
    return { s, log, stages };
  }

  it('no pursuit roll and no pursuit when the defenders retreat into a town: cavalry may not charge into one [10.0]', () => {
    const { s, log, stages } = chargeAndRetreatTo(16); // Hohenwald is a town
    expect(map.area(16).terrain).toContain('town');
    expect(unitOf(s, 'R-2inf').area).toBe(16);
    expect(unitOf(s, 'F-7hus').area).toBe(15); // the cavalry occupy the target [10.6] and stay there
    expect(stages).not.toContain('pursuitRoll');
    expect(s.stack.some((f) => f.t === 'charge')).toBe(false); // the charge is over: rout checks follow [19.0]
    const e = log.find((x) => x.rule === '10.92');
    expect(e?.text).toMatch(/area 16.*town.*\[10\.0\]/);
    expect(log.some((x) => x.rule === '10.91')).toBe(false);
  });

  it('no pursuit along a diagonal whose corner holds enemy units, as for any charge step [10.92, 13.11] (A-14)', () => {
    const { s, log, stages } = chargeAndRetreatTo(22); // 15 → 22 passes the corner of Hohenwald (16), held by R-3inf
    expect(stages).not.toContain('pursuitRoll');
    expect(s.stack.some((f) => f.t === 'charge')).toBe(false);
    expect(log.find((x) => x.rule === '10.92')?.text).toMatch(/area 22.*\[13\.11\]/);
  });

  it('a pursuit into open ground is rolled for as before [10.91]', () => {
    // with the French II Corps gone from the Staging Ground (14), the Ford Meadow (21) is a retreat away from the enemy
    // [20.0]; the pursuit would enter it downhill across the slope
    const away: Record<string, [null, null]> = {
      'F-3div': [null, null],
      'F-4div': [null, null],
      'F-II-art': [null, null],
      'F-2volt': [null, null],
      dorval: [null, null],
    };
    const { s, log, stages } = chargeAndRetreatTo(21, away);
    expect(stages).toContain('pursuitRoll');
    expect(toMoveOf(s).kind).toBe('chance');
    expect(chanceOutcomes(s)).toHaveLength(6);
    expect(log.some((x) => x.rule === '10.92')).toBe(false);
    // a low roll: the light cavalry pursue (morale 5) and charge the retreated infantry in area 21 [10.91]
    const t = act(s, { k: 'c-die', face: 1 }, log);
    const go = act(t, { k: 'pursue', sign: 0 }, log);
    expect(log.some((x) => x.rule === '10.91' && /pursue into area 21/.test(x.text))).toBe(true);
    expect(go.stack.some((f) => f.t === 'charge' && f.pursuit && f.target === 21)).toBe(true);
  });

  it('the shared step check bans every terrain and crossing a charge may not enter, and diagonal corners held by the enemy', () => {
    expect(chargeStepBan(world([]), 15, 16)).toMatchObject({ rule: '10.0', why: expect.stringMatching(/town/) });
    expect(chargeStepBan(world([]), 10, 4)).toMatchObject({ rule: '10.0', why: expect.stringMatching(/swamp/) });
    expect(chargeStepBan(world([]), 10, 11)).toMatchObject({
      rule: '10.0',
      why: expect.stringMatching(/slope up from 10 to 11/),
    });
    expect(chargeStepBan(world([]), 11, 10)).toBeNull(); // downhill
    expect(chargeStepBan(world([]), 15, 21)).toBeNull();
    expect(chargeStepBan(world([16]), 15, 22)).toMatchObject({ rule: '13.11' }); // the 15–22 diagonal passes Hohenwald (16)
    expect(chargeStepBan(world([]), 15, 22)).toBeNull();
  });
});
