import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import { act, loadScenario, position } from '../../../test/eote-fixtures.ts';
import { assaultDice, assaultTerrainPct } from './assault.ts';
import { legalActions, top } from './rules.ts';
import type { Frame } from './types.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const map = AreaMap.parse(
  JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')),
);

describe('assault fire [14.12–14.22]', () => {
  it('RB-15: a 4-4 LC assaults a 3-2 LC in woods: 3 dice at +1 against 3 dice at +0', () => {
    const att = assaultDice({
      role: 'attacker',
      units: [{ kind: 'infantry', sp: 4 }],
      leaderTactical: 0,
      weather: 'clear',
      targetHigher: 0,
      terrainPct: -25,
      moraleTwice: true,
    });
    const def = assaultDice({
      role: 'defender',
      units: [{ kind: 'infantry', sp: 3 }],
      leaderTactical: 0,
      weather: 'clear',
      targetHigher: 0,
      terrainPct: -25,
    });
    expect(att).toEqual([{ n: 3, drm: 1 }]);
    expect(def).toEqual([{ n: 3, drm: 0 }]); // the attacker's terrain never modifies the defender [14.12]
  });
  it('halves cavalry once, caps the leader, and exempts rifles from the weather', () => {
    expect(
      assaultDice({
        role: 'attacker',
        units: [{ kind: 'cavalry', sp: 3 }],
        leaderTactical: 5,
        weather: 'clear',
        targetHigher: 0,
      }),
    ).toEqual([{ n: 5, drm: 0 }]); // 2 + min(5, 3)
    const rain = assaultDice({
      role: 'defender',
      units: [
        { kind: 'infantry', sp: 4 },
        { kind: 'infantry', sp: 1, rifle: true },
      ],
      leaderTactical: 0,
      weather: 'rain',
      targetHigher: 0,
    });
    expect(rain).toEqual([
      { n: 3, drm: 0 },
      { n: 1, drm: 0 },
    ]);
  });
  it('caps each die at +2', () => {
    const d = assaultDice({
      role: 'attacker',
      units: [{ kind: 'infantry', sp: 4, elite: true, massedColumn: true }],
      leaderTactical: 0,
      weather: 'clear',
      targetHigher: 0,
      combinedArms: true,
    });
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

describe('attached artillery in an assault counts once [11.26, 14.12]', () => {
  const sc = loadScenario();
  // F-1div (A5-5, 5 SP) in the West Meadow (9) facing S assaults R-2inf (A4-4, facing N) in the Bridge Approach (15):
  // a side boundary with no terrain, both areas clear and level, clear weather, no leader, no cavalry, morale 5 against
  // 4 (not twice): no modifier of any kind. F-I-art (a2, 2 SP foot) is in the same area.
  function attackerRoll(attached: boolean): Extract<Frame, { t: 'roll' }> {
    let s = position(sc, 0, 'assault', ['f-I'], { 'F-1div': [9, 'S'], 'F-I-art': [9, 'S'], 'R-2inf': [15, 'N'] });
    if (attached) s = { ...s, units: s.units.map((u) => (u.id === 'F-I-art' ? { ...u, attachedTo: 'F-1div' } : u)) };
    expect(s.leaders.filter((l) => l.area === 9 || l.area === 15)).toEqual([]);
    s = act(s, { k: 'assault', target: 15 });
    expect(legalActions(s)).toEqual([{ k: 'join', u: 'F-1div' }]); // artillery never assaults on its own
    s = act(act(s, { k: 'join', u: 'F-1div' }), { k: 'resolve' });
    const f = top(s) as Extract<Frame, { t: 'roll' }>;
    expect(f).toMatchObject({ t: 'roll', rule: '14.12' });
    return f;
  }

  it('a 5-SP long counter with a 2-SP battery attached rolls 7 dice, not 9', () => {
    expect(attackerRoll(true).dice).toEqual([{ n: 7, drm: 0 }]);
  });
  it('the same long counter with the battery unattached rolls 5: the battery takes no part', () => {
    expect(attackerRoll(false).dice).toEqual([{ n: 5, drm: 0 }]);
  });
});
