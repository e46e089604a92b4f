import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import { artilleryRange, bombardmentDrms, canBombard, type TargetQuery } from './bombard.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const map = AreaMap.parse(
  JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')),
);

const q = (o: Partial<TargetQuery> & Pick<TargetQuery, 'from' | 'to' | 'kind'>): TargetQuery => ({
  map,
  weather: 'clear',
  conf: null,
  troopsBlock: () => false,
  ...o,
});

describe('bombardment targeting on Hohenwald [12.4–12.57]', () => {
  it('DV-21/22: heavy artillery in snow reaches 1 area; a mortar cannot fire at an adjacent area', () => {
    expect(artilleryRange('heavy', 'snow')).toEqual({ min: 1, max: 1 });
    expect(canBombard(q({ from: 13, to: 15, kind: 'heavy', weather: 'snow' }))).toMatchObject({
      ok: false,
      rule: '12.42',
    });
    expect(canBombard(q({ from: 13, to: 14, kind: 'mortar' }))).toMatchObject({ ok: false, rule: '12.4' });
  });
  it('heavy artillery reaches 3 areas in clear weather and 2 in rain [12.41]', () => {
    expect(canBombard(q({ from: 13, to: 16, kind: 'heavy' }))).toMatchObject({ ok: true, range: 3 });
    expect(canBombard(q({ from: 13, to: 16, kind: 'heavy', weather: 'rain' }))).toMatchObject({
      ok: false,
      rule: '12.41',
    });
  });
  it('the Russian heavy battery at 18 (+1) cannot reach 15 over East Slope (+1): r3 (d) (digest §11.7)', () => {
    expect(canBombard(q({ from: 18, to: 15, kind: 'heavy' }))).toMatchObject({ ok: false, rule: '12.56' });
  });
  it('DV-24: foot artillery cannot fire two levels up at an adjacent area; Hohenberg (+2) from Mill Meadow (0) is out', () => {
    // 10 (0) → 12 (+2) is range 2; the Great Redoubt (+1) between is higher than the firer
    expect(canBombard(q({ from: 10, to: 12, kind: 'foot' }))).toMatchObject({ ok: false });
    expect(canBombard(q({ from: 11, to: 12, kind: 'foot' }))).toMatchObject({ ok: true, range: 1 });
  });
  it('woods, the town and the tree-line block; the village does not; troops block like terrain (DV-26, DV-33)', () => {
    expect(canBombard(q({ from: 1, to: 3, kind: 'foot' }))).toMatchObject({ ok: false, rule: '12.56' }); // woods at 2
    expect(canBombard(q({ from: 7, to: 9, kind: 'foot' }))).toMatchObject({ ok: true }); // village 8
    expect(canBombard(q({ from: 15, to: 17, kind: 'foot' }))).toMatchObject({ ok: false }); // town 16
    expect(canBombard(q({ from: 8, to: 10, kind: 'foot' }))).toMatchObject({ ok: false }); // tree-line 9|10
    expect(canBombard(q({ from: 13, to: 15, kind: 'foot', troopsBlock: (a) => a === 14 }))).toMatchObject({
      ok: false,
    });
    expect(canBombard(q({ from: 13, to: 15, kind: 'foot' }))).toMatchObject({ ok: true, range: 2 });
  });
  it('DV-32: a rocket ignores line of sight within its envelope; a licorne only at range 3', () => {
    expect(canBombard(q({ from: 1, to: 3, kind: 'rocket' }))).toMatchObject({ ok: true, range: 2 });
    expect(canBombard(q({ from: 7, to: 10, kind: 'licorne', troopsBlock: (a) => a === 8 || a === 9 }))).toMatchObject({
      ok: true,
      range: 3,
    });
    expect(canBombard(q({ from: 1, to: 3, kind: 'licorne' }))).toMatchObject({ ok: false, rule: '12.56' });
    expect(canBombard(q({ from: 13, to: 14, kind: 'licorne' }))).toMatchObject({ ok: false, rule: '12.4' }); // no adjacent fire
  });
  it('DV-34: the first area on the line must be in front of the battery [12.43]; all-around areas face everywhere', () => {
    expect(canBombard(q({ from: 13, to: 15, kind: 'foot', conf: 'N' }))).toMatchObject({ ok: false, rule: '12.43' });
    expect(canBombard(q({ from: 13, to: 15, kind: 'foot', conf: 'E' }))).toMatchObject({ ok: true });
    expect(canBombard(q({ from: 11, to: 17, kind: 'foot', conf: 'N' }))).toMatchObject({ ok: true }); // 11 is all-around
  });
});

describe('bombardment DRMs [12.31, 12.32]', () => {
  const base = {
    targetFlank: false,
    targetDense: false,
    targetSquare: false,
    artilleryLeader: false,
    napoleonNear: false,
    hqCosBonus: false,
    timeOfDay: 'day' as const,
    weather: 'clear' as const,
    targetCover: false,
    reverseSlope: false,
  };
  it('DV-17: 3 heavy + 2 guard with the artillery leader and Napoleon in rain: +4 capped at +2', () => {
    const units = [
      ...Array(3).fill({ kind: 'heavy', guard: false, range: 2 }),
      ...Array(2).fill({ kind: 'foot', guard: true, range: 2 }),
    ];
    expect(bombardmentDrms({ ...base, units, artilleryLeader: true, napoleonNear: true, weather: 'rain' })).toEqual([
      2, 2, 2, 2, 2,
    ]);
  });
  it('DV-18: horse artillery at range 2 on a night turn: −2 floored at −1', () => {
    expect(
      bombardmentDrms({ ...base, units: [{ kind: 'horse', guard: false, range: 2 }], timeOfDay: 'night' }),
    ).toEqual([-1]);
    // option natural6Hits: a natural 6 still hits, so the net floor is 0
    expect(
      bombardmentDrms({
        ...base,
        units: [{ kind: 'horse', guard: false, range: 2 }],
        timeOfDay: 'night',
        natural6Hits: true,
      }),
    ).toEqual([0]);
    expect(bombardmentDrms({ ...base, units: [{ kind: 'horse', guard: false, range: 1 }], timeOfDay: 'dusk' })).toEqual(
      [0],
    );
  });
});
