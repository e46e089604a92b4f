import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import { reverseSlopePossible, squareAllowed, squareTarget } from './stances.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const map = AreaMap.parse(
  JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')),
);

describe('defensive stances [17.0–17.24]', () => {
  it('square needs infantry outnumbering cavalry and artillery [17.1]', () => {
    expect(
      squareAllowed(
        [
          { kind: 'infantry', sp: 5 },
          { kind: 'artillery', sp: 2 },
        ],
        true,
      ).ok,
    ).toBe(true);
    expect(
      squareAllowed(
        [
          { kind: 'infantry', sp: 3 },
          { kind: 'artillery', sp: 2 },
          { kind: 'cavalry', sp: 1 },
        ],
        true,
      ),
    ).toMatchObject({ ok: false });
    expect(squareAllowed([{ kind: 'cavalry', sp: 3 }], true)).toMatchObject({ ok: false });
    expect(squareAllowed([{ kind: 'infantry', sp: 5 }], false)).toMatchObject({ ok: false });
  });
  it('square under duress: the largest unit’s morale plus the senior non-cavalry leader [17.12]', () => {
    expect(
      squareTarget(
        [
          { steps: 4, morale: 4 },
          { steps: 2, morale: 5 },
        ],
        2,
      ),
    ).toBe(6);
  });
  it('reverse slope where the area has a slope or escarpment (East Slope 17, not West Meadow 9) [17.21]', () => {
    expect(reverseSlopePossible(map, 17)).toBe(true);
    expect(reverseSlopePossible(map, 9)).toBe(false);
  });
});
