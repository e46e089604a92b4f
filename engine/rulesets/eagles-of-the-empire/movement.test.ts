import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import { areaCost, entryCost } from './movement.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const map = AreaMap.parse(
  JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')),
);

describe('movement costs on Hohenwald with the placeholder TEC (A-29)', () => {
  it('areas: woods, village, swamp', () => {
    expect([areaCost(map, 2, 'infantry'), areaCost(map, 2, 'cavalry'), areaCost(map, 8, 'cavalry')]).toEqual([2, 3, 2]);
    expect(entryCost(map, 10, 4, 'cavalry')).toBe(Infinity); // swamp
  });
  it('slopes cost uphill only; the escarpment is closed to cavalry and artillery', () => {
    expect(entryCost(map, 10, 11, 'infantry')).toBe(2); // up to the redoubt
    expect(entryCost(map, 11, 10, 'infantry')).toBe(1);
    expect(entryCost(map, 4, 5, 'infantry')).toBe(3);
    expect(entryCost(map, 4, 5, 'cavalry')).toBe(Infinity);
    expect(entryCost(map, 3, 4, 'infantry')).toBe(4); // swamp 3 + stream 1 (downhill slope free)
  });
  it('bridge, ford, road and trail [13.3–13.36]', () => {
    expect(entryCost(map, 15, 16, 'infantry')).toBe(1); // the bridge ignores the stream
    expect(entryCost(map, 15, 16, 'cavalry')).toBe(2);
    expect(entryCost(map, 15, 16, 'cavalry', 'road')).toBe(0.5);
    expect(entryCost(map, 21, 22, 'infantry', 'trail')).toBe(2); // trail 1 + ford/slope 1
    expect(entryCost(map, 21, 22, 'artillery')).toBe(2); // ford +1 instead of the stream's +2, slope +1: greatest is 1
    expect(() => entryCost(map, 9, 10, 'infantry', 'road')).toThrow(/no road crosses 9\|10/);
  });
  it('diagonal moves pay the destination plus the crossing terrain [13.11]', () => {
    expect(entryCost(map, 9, 16, 'infantry')).toBe(2); // town 1 + stream 1
    expect(entryCost(map, 5, 12, 'infantry')).toBe(2); // diagonal up a level counts as crossing a slope (digest §11.1)
    expect(entryCost(map, 12, 5, 'infantry')).toBe(1);
  });
});
