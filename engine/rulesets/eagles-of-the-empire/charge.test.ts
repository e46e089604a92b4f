import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import { type LaneWorld, chargeLanes, chargeSucceeds, checkLane } from './charge.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const map = AreaMap.parse(JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')));

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
    expect(checkLane(world([11]), 9, 11)).toMatchObject({ ok: false, rule: '10.0', why: expect.stringMatching(/slope up from 10 to 11/) });
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
    expect(chargeSucceeds({ defenderSpBefore: 7, defenderSpAfter: 4, stepsInflicted: 3, cavalryStepsLost: 1 })).toBe(false);
    expect(chargeSucceeds({ defenderSpBefore: 6, defenderSpAfter: 2, stepsInflicted: 4, cavalryStepsLost: 3 })).toBe(true);
    expect(chargeSucceeds({ defenderSpBefore: 6, defenderSpAfter: 2, stepsInflicted: 4, cavalryStepsLost: 5 })).toBe(false);
  });
});
