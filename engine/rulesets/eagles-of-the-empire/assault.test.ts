import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import { assaultDice, assaultTerrainPct } from './assault.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const map = AreaMap.parse(JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')));

describe('assault fire [14.12–14.22]', () => {
  it('RB-15: a 4-4 LC assaults a 3-2 LC in woods: 3 dice at +1 against 3 dice at +0', () => {
    const att = assaultDice({ role: 'attacker', units: [{ kind: 'infantry', sp: 4 }], leaderTactical: 0, weather: 'clear', targetHigher: 0, terrainPct: -25, moraleTwice: true });
    const def = assaultDice({ role: 'defender', units: [{ kind: 'infantry', sp: 3 }], leaderTactical: 0, weather: 'clear', targetHigher: 0, terrainPct: -25 });
    expect(att).toEqual([{ n: 3, drm: 1 }]);
    expect(def).toEqual([{ n: 3, drm: 0 }]); // the attacker's terrain never modifies the defender [14.12]
  });
  it('halves cavalry once, caps the leader, and exempts rifles from the weather', () => {
    expect(assaultDice({ role: 'attacker', units: [{ kind: 'cavalry', sp: 3 }], leaderTactical: 5, weather: 'clear', targetHigher: 0 })).toEqual([{ n: 5, drm: 0 }]); // 2 + min(5, 3)
    const rain = assaultDice({ role: 'defender', units: [{ kind: 'infantry', sp: 4 }, { kind: 'infantry', sp: 1, rifle: true }], leaderTactical: 0, weather: 'rain', targetHigher: 0 });
    expect(rain).toEqual([{ n: 3, drm: 0 }, { n: 1, drm: 0 }]);
  });
  it('caps each die at +2', () => {
    const d = assaultDice({ role: 'attacker', units: [{ kind: 'infantry', sp: 4, elite: true, massedColumn: true }], leaderTactical: 0, weather: 'clear', targetHigher: 0, combinedArms: true });
    expect(d).toEqual([{ n: 4, drm: 2 }]);
  });
  it('terrain on Hohenwald: the town, the bridge, a hedgerow, the redoubt', () => {
    expect(assaultTerrainPct(map, 17, 16)).toBe(-50); // town
    expect(assaultTerrainPct(map, 15, 16)).toBe(-100); // town −50 and the bridge −50
    expect(assaultTerrainPct(map, 14, 15)).toBe(-25); // hedgerow
    expect(assaultTerrainPct(map, 10, 11)).toBe(-25); // defensive works; the slope has no assault modifier
    expect(() => assaultTerrainPct(map, 9, 16)).toThrow(/14\.61/);
  });
});
