/**
 * Napoleon's Eagles scenario files: the shipped ones validate; the digest's §10.5 load facts of "The Mill at Kleinau"
 * hold; every rating string parses (or is refused naming its wrong part); every kind of bad file is refused with one
 * problem naming its JSON path.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dist, polygonDistance, polygonsOverlap } from '../../geometry/geometry.ts';
import { insidePolygon } from '../../tabletop/validate.ts';
import {
  ADAPTATIONS,
  DEFAULT_OPTIONS,
  type Scenario,
  type UnitSpec,
  unitFootprint,
  unitPolygon,
  validateScenario,
} from './scenario.ts';
import {
  bounce,
  howitzerDamageBonus,
  rangeBand,
  solidShotCasualties,
  solidShotDamagePerHit,
  solidShotHitFaces,
} from './tables.ts';
import { footprintRect, parseRating, ratingProblem } from './types.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'napoleons-eagles');
const load = (id: string) => JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8'));

function valid(id: string): Scenario {
  const v = validateScenario(load(id));
  if (!v.ok) throw new Error(JSON.stringify(v.problems));
  return v.value;
}

/** The problems of Kleinau changed by `edit`, as "path: message" lines. */
// biome-ignore lint/suspicious/noExplicitAny: the test edits the parsed JSON file freely
function problems(edit: (j: any) => void): string[] {
  const j = load('the-mill-at-kleinau');
  edit(j);
  const v = validateScenario(j);
  return v.ok ? [] : v.problems.map((p) => `${p.path}: ${p.message}`);
}

const kleinau = valid('the-mill-at-kleinau');
const units = new Map<string, UnitSpec>(kleinau.sides.flatMap((s) => s.units.map((u) => [u.id, u] as const)));
const unit = (id: string) => units.get(id)!;
const leaders = new Map(kleinau.sides.flatMap((s) => s.leaders.map((l) => [l.id, l] as const)));
/** A leader's position (every Kleinau leader stands at a point). */
const at = (id: string) => ({ x: leaders.get(id)!.x!, y: leaders.get(id)!.y! });
const terrain = (id: string) => kleinau.terrain.find((t) => t.id === id)!;
/** A-4 footprint centre (the "centroid" of §10.5). */
const centroid = (u: UnitSpec) => footprintRect(u.x, u.y, u.facing, unitFootprint(u));
const r2 = (n: number) => Math.round(n * 100) / 100;

describe("Napoleon's Eagles scenarios", () => {
  it('ships Kleinau (digest §10) and a quick test, both valid, with the defaults filled in', () => {
    const q = valid('quick-test');
    expect(q.turns).toBe(4);
    expect(q.sides.map((s) => s.units.length)).toEqual([3, 3]);
    expect(q.options).toEqual(DEFAULT_OPTIONS);
    expect(q.victory).toEqual({
      unitLost: 2,
      guardUnitLost: 3,
      retreatingAtEnd: 1,
      batteryGunsLost: 1,
      leaderLost: 1,
      suddenDeath: true,
      drawMargin: 3,
      objectives: [],
    });
    expect(q.sides.map((s) => s.turnPoints)).toEqual([20, 20]);
    // [p.16] default bonuses by rank
    expect(q.sides[0].leaders.map((l) => [l.id, l.moraleBonus, l.meleeBonus, l.initiative])).toEqual([
      ['Ney', 3, 5, undefined],
      ['Foy', 1, 5, 5],
    ]);
    expect(DEFAULT_OPTIONS).toMatchObject({
      writtenOrders: false,
      misreadOrders: false,
      outOfControlCavalry: false,
      carbines: false,
      caissons: false,
      fires: false,
      weather: false,
      smoke: false,
      secondBounce: false,
      supportedLine: false,
      visibility: false,
      activationRatio: { a: 2, d: 1 },
      thresholdFraction: 0.5,
      solidShotTable: 'closeIsCanister',
      solidShotCover: -4,
      leaderMove: 20,
      rapidFireDefenceFatigue: 3,
      neutralisedAt: 'allGuns',
    });
  });

  it('lists every ADAPTATION A-1…A-79 once, each choice with an option whose default is the digest reading', () => {
    expect(ADAPTATIONS.map((a) => a.id)).toEqual(Array.from({ length: 79 }, (_, i) => `A-${i + 1}`));
    for (const a of ADAPTATIONS) if (a.option) expect(a.option in DEFAULT_OPTIONS, a.id).toBe(true);
    // the fixed readings may be stated
    expect(problems((j) => (j.options['A-5'] = 'digest'))).toEqual([]);
  });
});

describe('The Mill at Kleinau: §10.1-10.4 as loaded', () => {
  it('§10.1 table, length and configuration', () => {
    expect(kleinau.table).toEqual({ width: 48, height: 36 });
    expect(kleinau.turns).toBe(2);
    expect(kleinau.year).toBe(1809);
    expect(kleinau.windFrom).toBe('W');
    expect(kleinau.weather).toBe('clear');
    expect(kleinau.sides.map((s) => [s.name, s.homeEdge, s.turnPoints])).toEqual([
      ['French', 'south', 20],
      ['Austrian', 'north', 18],
    ]);
    expect(kleinau.options).toMatchObject({
      writtenOrders: false, // command and control option #1
      leaderInitiative: true,
      activationRatio: { a: 2, d: 1 },
      thresholdFraction: 0.5,
      organicSkirmishers: true,
      carbines: true,
      outOfControlCavalry: true,
      caissons: false,
      fires: false,
      weather: false,
      visibility: false,
      smoke: false,
      secondBounce: false,
      supportedLine: false,
      solidShotTable: 'closeIsCanister',
    });
    expect(kleinau.sides[0].doctrine).toEqual({
      frenchPost1807: true,
      prussian1806: false,
      austrianMass: false,
      grandBatteryAllowed: false,
    });
    expect(kleinau.sides[1].doctrine).toMatchObject({ austrianMass: true, grandBatteryAllowed: true });
    expect(kleinau.sides[0].napoleonPresent).toBe(false);
  });

  it('§10.2 terrain', () => {
    expect(kleinau.terrain.map((t) => `${t.id}:${t.type}`)).toEqual([
      'T1:road',
      'T2:river',
      'T3:bridge',
      'V1:block',
      'V2:block',
      'T5:woods',
      'T6:hill',
      'T7:mud',
      'T8:hedge',
    ]);
    expect(terrain('T1')).toMatchObject({
      points: [
        [24, 0],
        [24, 36],
      ],
    });
    expect(terrain('T2')).toMatchObject({
      name: 'Kleinbach',
      width: 1,
      crossable: true,
      actionsToCross: 1,
      disorders: true,
    });
    expect(terrain('T3')).toMatchObject({ river: 'T2', road: 'T1', capacity: 8 });
    expect(terrain('V1')).toMatchObject({ name: 'the mill', sw: [25, 20], brickOrStone: true });
    expect(terrain('V2')).toMatchObject({ sw: [25, 24], brickOrStone: false });
    // V2 is orthogonally adjacent to V1 (shares its north side)
    const [v1, v2] = [terrain('V1'), terrain('V2')] as { sw: [number, number] }[];
    expect([v2!.sw[0] - v1!.sw[0], v2!.sw[1] - v1!.sw[1]]).toEqual([0, 4]);
    expect(terrain('T5')).toMatchObject({ name: 'Eichwald', density: 'light' });
    expect(terrain('T6')).toMatchObject({
      name: 'Galgenberg',
      level: 1,
      slope: 'gentle',
      ridge: [
        [33, 27],
        [45, 27],
      ],
    });
    expect(terrain('T7')).toMatchObject({
      ground: 'marsh',
      polygon: [
        [14, 19],
        [20, 19],
        [20, 23],
        [14, 23],
      ],
    });
    expect(terrain('T8')).toMatchObject({
      type: 'hedge',
      points: [
        [20, 24],
        [25, 24],
      ],
    });
  });

  it('§10.3 orders of battle: every unit, rating, deployment', () => {
    const rows = [...units.values()].map((u) => [
      u.id,
      u.kind,
      u.kind === 'artillery' ? `${u.cannons}+${u.howitzers}` : u.figures,
      u.rating,
      u.x,
      u.y,
      u.facing,
      u.formation,
    ]);
    expect(rows).toEqual([
      ['F1', 'infantry', 24, 'B17C45', 19, 6, 0, 'column'],
      ['F2', 'infantry', 24, 'B17C45', 31, 6, 0, 'column'],
      ['F3', 'infantry', 18, 'A17B45', 10, 6, 0, 'line'],
      ['F4', 'artillery', '5+1', 'B16B25', 25, 6, 0, 'unlimbered'],
      ['F5', 'cavalry', 12, 'A17C35', 38, 6, 0, 'column'],
      ['A1', 'infantry', 30, 'B16C40', 22, 31, 180, 'column'],
      ['A2', 'infantry', 30, 'B16C40', 31, 31, 180, 'column'],
      ['A3', 'infantry', 24, 'B15C35', 12, 31, 180, 'line'],
      ['A4', 'artillery', '8+0', 'B15B25', 38, 27.5, 180, 'unlimbered'],
      ['A5', 'cavalry', 16, 'B16C40', 44, 32, 180, 'column'],
    ]);
    expect(kleinau.sides.map((s) => s.units.length)).toEqual([5, 5]);
    expect(parseRating(unit('F3').rating)).toEqual({ move: 'A', morale: 17, fire: 'B', melee: 45 });
    expect(parseRating(unit('A4').rating)).toEqual({ move: 'B', morale: 15, fire: 'B', melee: 25 });
    expect(unit('F1')).toMatchObject({ troopClass: 'line', ranks: 3, organicSkirmishers: true, lightInfantry: false });
    expect(unit('F3')).toMatchObject({ troopClass: 'light', ranks: 3, lightInfantry: true, organicSkirmishers: true });
    expect(unit('F4')).toMatchObject({ arm: 'foot', calibre: '6lb', cannons: 5, howitzers: 1 });
    expect(unit('F5')).toMatchObject({ weight: 'light', carbines: true });
    expect(unit('A3')).toMatchObject({ troopClass: 'light', lightInfantry: true, organicSkirmishers: false });
    expect(unit('A4')).toMatchObject({ arm: 'foot', calibre: '6lb', cannons: 8, howitzers: 0 });
    expect(unit('A5')).toMatchObject({ weight: 'medium', carbines: false });
  });

  it('§10.3 leaders and which leader commands whom', () => {
    expect(
      [...leaders.values()].map((l) => [
        l.id,
        l.rank,
        l.superior,
        l.radius,
        l.moraleBonus,
        l.meleeBonus,
        l.initiative,
        l.x,
        l.y,
      ]),
    ).toEqual([
      ['L-F0', 'army', undefined, 40, 3, 5, undefined, 24, 0.5],
      ['L-F1', 'division', 'L-F0', 15, 1, 5, 5, 24, 2],
      ['L-A0', 'army', undefined, 40, 3, 5, undefined, 26, 35.5],
      ['L-A1', 'division', 'L-A0', 18, 1, 5, 5, 28, 33.5],
    ]);
    const commands = (l: string) => [...units.values()].filter((u) => u.commander === l).map((u) => u.id);
    expect(commands('L-F1')).toEqual(['F1', 'F2', 'F3', 'F4', 'F5']);
    expect(commands('L-A1')).toEqual(['A1', 'A2', 'A3', 'A4', 'A5']);
    expect(commands('L-F0')).toEqual([]);
  });

  it('§10.4 victory conditions', () => {
    expect(kleinau.victory).toEqual({
      unitLost: 2,
      guardUnitLost: 3,
      retreatingAtEnd: 1,
      batteryGunsLost: 1,
      leaderLost: 1,
      suddenDeath: true,
      drawMargin: 3,
      objectives: [
        { id: 'obj-V1', name: 'Kleinau: the mill', vp: 2, block: 'V1', within: 2, hold: 'lastHeld' },
        { id: 'obj-V2', name: 'Kleinau', vp: 2, block: 'V2', within: 2, hold: 'lastHeld' },
        { id: 'obj-T3', name: 'the Kleinbach bridge', vp: 1, terrain: 'T3', within: 2, hold: 'present' },
      ],
    });
  });
});

describe('The Mill at Kleinau: §10.5 expected initial derived facts', () => {
  it('footprints (A-4)', () => {
    const size = (id: string) => {
      const f = unitFootprint(unit(id));
      return `${f.width.toFixed(2)} x ${f.depth.toFixed(2)}`;
    };
    expect(Object.fromEntries([...units.keys()].map((id) => [id, size(id)]))).toEqual({
      F1: '3.00 x 1.50',
      F2: '3.00 x 1.50',
      F3: '6.75 x 0.50',
      F4: '2.00 x 1.50',
      F5: '2.25 x 4.00',
      A1: '3.75 x 1.50',
      A2: '3.75 x 1.50',
      A3: '9.00 x 0.50',
      A4: '3.00 x 1.50',
      A5: '3.00 x 4.00',
    });
    expect(unitFootprint(unit('F1')).frontRank).toBe(8); // ceil(24/3)
    expect(unitFootprint(unit('F5')).frontRank).toBe(3); // ceil(12/4)
  });

  it('no footprints overlap', () => {
    const polys = [...units.values()].map(unitPolygon);
    for (let a = 0; a < polys.length; a++)
      for (let b = a + 1; b < polys.length; b++) expect(polygonsOverlap(polys[a]!, polys[b]!)).toBe(false);
  });

  it('all units are in command at turn 1, period 1 (distances to the footprint centroids)', () => {
    const d = (l: string, u: string) => {
      const c = centroid(unit(u));
      return dist(at(l), c);
    };
    expect([r2(centroid(unit('F3')).x), r2(centroid(unit('F3')).y)]).toEqual([10, 5.75]);
    expect(r2(d('L-F1', 'F3'))).toBe(14.49);
    expect(r2(d('L-F1', 'F5'))).toBe(14.14);
    expect([r2(centroid(unit('A3')).x), r2(centroid(unit('A3')).y)]).toEqual([12, 31.25]);
    expect(r2(d('L-A1', 'A3'))).toBe(16.16);
    expect(r2(d('L-A1', 'A5'))).toBe(16.01);
    for (const u of units.values()) {
      const l = leaders.get(u.commander)!;
      expect(d(l.id, u.id), u.id).toBeLessThanOrEqual(l.radius);
      const sup = leaders.get(l.superior!)!;
      expect(dist(at(l.id), at(sup.id))).toBeLessThanOrEqual(sup.radius);
    }
  });

  it("F4's mandatory target is A1: A4 outside the arc, A1 nearest at long range, A2 farther", () => {
    const f4 = unitPolygon(unit('F4'));
    // the fire arc's right ray from F4's front-right corner (26, 6), 22.5° east of north
    const rightRay = (y: number) => 26 + (y - 6) * Math.tan((22.5 * Math.PI) / 180);
    for (const c of unitPolygon(unit('A4'))) expect(c.x).toBeGreaterThan(rightRay(c.y));
    const a1 = polygonDistance(f4, unitPolygon(unit('A1')));
    const a2 = polygonDistance(f4, unitPolygon(unit('A2')));
    expect(r2(dist({ x: 24, y: 6 }, { x: 23.875, y: 31 }))).toBe(25);
    expect(r2(a1)).toBe(25);
    expect(r2(a2)).toBe(25.19); // "25.2"
    expect(a2).toBeGreaterThan(a1);
    // 6lb long range, bounce 6"; B rating at long on the default table hits on 5-6
    expect(rangeBand('6lb', a1)).toBe('long');
    expect(bounce('6lb', 'long')).toBe(6);
    expect(parseRating(unit('F4').rating).fire).toBe('B');
    expect(solidShotHitFaces('B', 'long', kleinau.options.solidShotTable)).toEqual([5, 6]);
    // the howitzer's shell band (16-40"); A1 in column: (5 + 2) × 2 = 14 → 2 casualties and a fraction roll of 2
    const damage = solidShotDamagePerHit({
      cannons: 5,
      howitzerBonus: howitzerDamageBonus(1, a1),
      target: 'troops',
      inWoodsOrBuildings: false,
      dense: unit('A1').formation === 'column',
    });
    expect(damage).toBe(14);
    expect([1, 2, 3, 4, 5, 6].map((r) => solidShotCasualties(damage, r))).toEqual([3, 3, 2, 2, 2, 2]);
  });

  it('A4\'s mandatory target is F5 at 21.5" long range; F2 in the arc but farther; A4 0.5" behind the crest', () => {
    const a4 = unitPolygon(unit('A4'));
    const f5 = polygonDistance(a4, unitPolygon(unit('F5')));
    const f2 = polygonDistance(a4, unitPolygon(unit('F2')));
    expect(r2(f5)).toBe(21.5);
    expect(rangeBand('6lb', f5)).toBe('long');
    expect(r2(f2)).toBe(21.87); // "about 21.9"
    expect(f2).toBeGreaterThan(f5);
    // F2 inside A4's arc: west of A4's front-left corner (39.5, 27.5) and (36.5, 27.5) within the 22.5° rays
    const leftRay = (y: number) => 36.5 - (27.5 - y) * Math.tan((22.5 * Math.PI) / 180);
    expect(unitPolygon(unit('F2')).some((c) => c.x >= leftRay(c.y))).toBe(true);
    const damage = solidShotDamagePerHit({
      cannons: 8,
      howitzerBonus: howitzerDamageBonus(0, f5),
      target: 'troops',
      inWoodsOrBuildings: false,
      dense: unit('F5').formation === 'column',
    });
    expect(damage).toBe(16);
    expect([1, 2, 3, 4, 5, 6].map((r) => solidShotCasualties(damage, r))).toEqual([3, 3, 3, 3, 2, 2]);
    // A4 stands on the level-1 Galgenberg, behind (north of) its ridge line; no other unit is on the hill
    const hill = terrain('T6') as { polygon: [number, number][] };
    expect([...units.values()].filter((u) => insidePolygon([u.x, u.y], hill.polygon)).map((u) => u.id)).toEqual(['A4']);
    const ridge = (terrain('T6') as { ridge: [number, number][] }).ridge;
    expect(unit('A4').y - ridge[0]![1]).toBe(0.5);
  });

  it('turn points, the stream and the bridge', () => {
    // the first period's bidding starts with 20 French and 18 Austrian turn points
    expect(kleinau.sides.map((s) => s.turnPoints)).toEqual([20, 18]);
    // crossing T2: in column; 1 action in the stream, then disordered on the north bank
    expect(unit('F1').formation).toBe('column');
    expect(terrain('T2')).toMatchObject({ crossable: true, actionsToCross: 1, disorders: true });
    // on the bridge F1 (24 figures) needs ceil(24/8) = 3 actions
    const f1 = unit('F1');
    expect(f1.kind === 'infantry' && Math.ceil(f1.figures / (terrain('T3') as { capacity: number }).capacity)).toBe(3);
  });
});

describe('parseRating [p.4] (A-1)', () => {
  const BOOK = ['B16C30']; // [p.4] the book's one example
  const KLEINAU = [...new Set([...units.values()].map((u) => u.rating))];

  it("parses the book's example and every scenario rating, agreeing with tables.ts", () => {
    expect(parseRating('B16C30')).toEqual({ move: 'B', morale: 16, fire: 'C', melee: 30 });
    expect(KLEINAU).toEqual(['B17C45', 'A17B45', 'B16B25', 'A17C35', 'B16C40', 'B15C35', 'B15B25']);
    // the four parts, read independently of the parser: letter, digits, letter, digits [p.4]
    for (const s of [...BOOK, ...KLEINAU, 'A18R45', 'C9E100', 'A2D20']) {
      const [, move, morale, fire, melee] = /^(\D)(\d+)(\D)(\d+)$/.exec(s)!;
      expect(parseRating(s), s).toEqual({ move, morale: Number(morale), fire, melee: Number(melee) });
    }
    expect(parseRating('A18R45').fire).toBe('R');
    expect(parseRating('C9E100')).toEqual({ move: 'C', morale: 9, fire: 'E', melee: 100 });
  });

  it('names the wrong part of a bad rating', () => {
    expect(() => parseRating('b16C30')).toThrow(/must start with the Move rating A, B or C, not "b"/);
    expect(() => parseRating('D16C30')).toThrow(/Move rating A, B or C, not "D"/);
    expect(() => parseRating('BC30')).toThrow(/Morale rating after the Move letter is a 1- or 2-digit number/);
    expect(() => parseRating('B123C30')).toThrow(/Morale rating .* not "123"/);
    expect(() => parseRating('B16F30')).toThrow(
      /Fire rating after the Morale number is A, B, C, D, E or R \(Rifle\), not "F"/,
    );
    expect(() => parseRating('B16C3')).toThrow(/Melee value after the Fire letter is a 2- or 3-digit number, not "3"/);
    expect(() => parseRating('B16C1000')).toThrow(/Melee value .* not "1000"/);
    expect(() => parseRating('B16C30!')).toThrow(/unexpected "!" after the Melee value/);
    expect(() => parseRating('')).toThrow(/Move–Morale–Fire–Melee/);
    expect(ratingProblem('B16C30')).toBeUndefined();
  });
});

describe('bad files are refused with one problem naming its path', () => {
  it('an unknown key, with the key it misspells', () => {
    expect(problems((j) => (j.sides[0].units[0].figurs = 24))).toEqual([
      '$.sides[0].units[0]: unknown key "figurs" (did you mean "figures"?)',
    ]);
    expect(problems((j) => (j.sides[1].leaders[1].initiatve = 5))).toEqual([
      '$.sides[1].leaders[1]: unknown key "initiatve" (did you mean "initiative"?)',
    ]);
    expect(problems((j) => (j.terrain[2].capacty = 8))).toEqual([
      '$.terrain[2]: unknown key "capacty" (did you mean "capacity"?)',
    ]);
    expect(problems((j) => (j.victory.objectives[0].VP = 2))).toEqual([
      '$.victory.objectives[0]: unknown key "VP" (did you mean "vp"?)',
    ]);
  });

  it('a unit off the table', () => {
    expect(problems((j) => (j.sides[0].units[4].x = 47.5))).toEqual([
      '$.sides[0].units[4]: unit F5\'s footprint corner point (48.625, 6) is off the 48"×36" table',
    ]);
    expect(problems((j) => (j.sides[1].leaders[0].y = 36.5))).toEqual([
      '$.sides[1].leaders[0]: leader L-A0 point (26, 36.5) is off the 48"×36" table',
    ]);
    expect(problems((j) => (j.terrain[3].sw = [45, 20]))).toEqual([
      '$.terrain[3]: building block V1\'s corner point (49, 24) is off the 48"×36" table',
    ]);
  });

  it('a duplicate id', () => {
    expect(problems((j) => (j.sides[1].units[0].id = 'F1'))).toEqual([
      '$.sides[1].units[0].id: duplicate id "F1" (first used at $.sides[0].units[0].id)',
    ]);
    expect(problems((j) => (j.terrain[4].id = 'V1'))).toEqual([
      '$.victory.objectives[1].block: no building block "V2" in the terrain',
      '$.terrain[4].id: duplicate id "V1" (first used at $.terrain[3].id)',
    ]);
  });

  it('a bad rating string', () => {
    expect(problems((j) => (j.sides[0].units[0].rating = 'B17X45'))).toEqual([
      '$.sides[0].units[0].rating: "B17X45" is not a unit rating: the Fire rating after the Morale number is A, B, C, D, E or R (Rifle), not "X" (e.g. "B16C30": Move B, Morale 16, Fire C, Melee 30 [p.4])',
    ]);
    expect(problems((j) => (j.sides[0].units[3].rating = 'B16R25'))).toEqual([
      '$.sides[0].units[3].rating: fire letter R (Rifle class) is for infantry, not artillery [p.9] (A-1)',
    ]);
  });

  it('an unknown option name', () => {
    expect(problems((j) => (j.options.secondBounse = true))).toEqual([
      '$.options: unknown key "secondBounse" (did you mean "secondBounce"?)',
    ]);
    expect(problems((j) => (j.options.solidShotTabel = 'extremeBlank'))).toEqual([
      '$.options: unknown key "solidShotTabel" (did you mean "solidShotTable"?)',
    ]);
  });

  it('a bad option value', () => {
    expect(problems((j) => (j.options.solidShotTable = 'closeIsBlank'))).toEqual([
      '$.options.solidShotTable: solidShotTable (A-45): one of "closeIsCanister", "extremeBlank" (default "closeIsCanister")',
    ]);
    expect(problems((j) => (j.options.carbines = 'yes'))).toEqual([
      '$.options.carbines: carbines [p.15]: true or false (default false, off)',
    ]);
    expect(problems((j) => (j.options.thresholdFraction = 0.45))).toEqual([
      '$.options.thresholdFraction: thresholdFraction [p.11]: one of 0.5, 0.4, 0.6 (default 0.5)',
    ]);
    expect(problems((j) => (j.options.activationRatio = { a: 2, d: 2 }))).toEqual([
      '$.options.activationRatio: side A must move more units than side D [p.4]',
    ]);
    expect(problems((j) => (j.options['A-5'] = 'cap4'))).toEqual([
      '$.options["A-5"]: A-5 (Fatigue above Exhausted): only the digest\'s reading is implemented (capped at 3); set it to "digest" or leave it out',
    ]);
    expect(problems((j) => (j.options.misreadOrders = true))).toEqual([
      '$.options.misreadOrders: misread orders need written orders (options.writtenOrders) [p.17-18]',
    ]);
  });

  it('what the book forbids in an order of battle', () => {
    expect(problems((j) => (j.sides[0].units[0].formation = 'skirmish'))).toEqual([
      '$.sides[0].units[0].formation: only all-light-infantry units form skirmish screens [p.18]',
    ]);
    expect(problems((j) => (j.sides[0].units[0].commander = 'L-F0'))).toEqual([
      '$.sides[0].units[0].commander: only division (and some corps) commanders move units [p.16]; L-F0 is the army commander',
    ]);
    expect(problems((j) => (j.sides[0].units[0].commander = 'L-A1'))).toEqual([
      '$.sides[0].units[0].commander: no leader "L-A1" on this side',
    ]);
    expect(problems((j) => (j.sides[0].leaders[1].superior = undefined))).toEqual([
      '$.sides[0].leaders[1]: a division leader needs "superior" (the leader above him) [p.16]',
    ]);
    expect(problems((j) => (j.sides[0].leaders[0].initiative = 8))).toEqual([
      '$.sides[0].leaders[0].initiative: army commanders have no initiative number ("Army commanders don\'t need them") [p.17]',
    ]);
    expect(problems((j) => (j.sides[1].doctrine.frenchPost1807 = true))).toEqual([
      '$.sides[1].doctrine.frenchPost1807: frenchPost1807 is for French armies [p.7]',
    ]);
    expect(problems((j) => (j.sides[0].units[1].x = 25))).toEqual(['$.sides[0].units[3]: unit F4 overlaps unit F2']);
    expect(problems((j) => (j.sides[0].units[3].hits = 6))).toEqual([
      '$.sides[0].units[3].hits: 6 hits neutralise a battery of 6 guns [p.10] (A-50)',
    ]);
    expect(
      problems((j) => {
        j.terrain[5].density = 'dense';
        j.sides[0].units[4].x = 10;
        j.sides[0].units[4].y = 14;
      }),
    ).toEqual(['$.sides[0].units[4]: cavalry cannot enter dense woods T5 [p.19]']);
    expect(problems((j) => (j.terrain[2].capacity = 20))).toEqual([
      '$.terrain[2].capacity: a bridge takes 4 to 12 figures an action [p.6]',
    ]);
    expect(problems((j) => (j.terrain[4].sw = [27, 22]))).toEqual([
      '$.terrain[4].sw: building blocks V1 and V2 overlap (blocks are 4" × 4" [p.19])',
    ]);
    expect(problems((j) => (j.weather = 'heavyRain'))).toEqual([
      '$.weather: weather "heavyRain" needs the optional rule options.weather [p.20]',
    ]);
  });
});
