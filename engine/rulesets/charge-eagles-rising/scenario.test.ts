/**
 * Charge! Eagles Rising scenario files and rules options: both shipped scenarios load and build a start; the digest's
 * §11 facts of "The Chapel Crossroads" hold as loaded; every ADAPTATION C1–C14 is a named option at the digest's
 * reading, and a reading the engine does not play is refused by name; every kind of bad file is refused with one
 * one-line problem naming its JSON path.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../core/game.ts';
import { hashEquals, hashValue } from '../../core/hash.ts';
import { type Vec, polygonDistance, pointInPolygon, rectCorners } from '../../geometry/geometry.ts';
import {
  ADAPTATIONS,
  DEFAULT_OPTIONS,
  OPTION_SPECS,
  type OptionName,
  type OptionSpec,
  OptionError,
  checkOptions,
} from './options.ts';
import { type Scenario, ScenarioFormatError, initialState, parseScenario, validateScenario } from './scenario.ts';
import { type CerState, type UnitState, footprintRect, footprintSize } from './types.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'charge-eagles-rising');
const load = (id: string) => JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8'));

const chapelSc: Scenario = parseScenario(load('the-chapel-crossroads'));
const chapel: CerState = initialState(chapelSc);
const unit = (s: CerState, id: string) => s.units.find((u) => u.id === id)!;
const leader = (s: CerState, id: string) => s.leaders.find((l) => l.id === id)!;
const element = (s: CerState, id: string) => s.elements.find((e) => e.id === id)!;
const inches = (p: Vec) => [p.x / 100, p.y / 100];
/** A unit's footprint polygon (1/100"). */
function body(u: UnitState): Vec[] {
  if (u.kind === 'infantry' && u.formation === 'garrison')
    return [...chapel.ctx.buas.find((b) => b.id === u.garrison)!.polygon];
  const size =
    u.kind === 'artillery'
      ? footprintSize({ kind: 'artillery', formation: u.formation, guns: u.guns })
      : u.kind === 'cavalry'
        ? footprintSize({ kind: 'cavalry', formation: u.formation, figures: u.figures })
        : footprintSize({
            kind: 'infantry',
            formation: u.formation as Exclude<typeof u.formation, 'garrison'>,
            figures: u.figures,
            ranks: u.ranks,
          });
  return rectCorners(footprintRect(u.pos, u.facing, size));
}

describe('shipped scenarios', () => {
  it('both load, build a start at turn 1 S1 with empty sealed orders, and use the digest defaults', () => {
    for (const id of ['the-chapel-crossroads', 'quick-test']) {
      const v = validateScenario(load(id));
      expect(v.ok ? [] : v.problems, id).toEqual([]);
      if (!v.ok) continue;
      expect(v.value.options).toEqual(DEFAULT_OPTIONS);
      const s = initialState(v.value);
      expect([s.turn, s.phase, s.stack.length, s.nChance, s.firstSide, s.tactical, s.result]).toEqual([
        1,
        'S1',
        0,
        0,
        null,
        null,
        null,
      ]);
      expect(s.secret).toEqual([{ orders: [] }, { orders: [] }]);
    }
  });

  it('a start is plain data: JSON round trip equal, hashable, the same hash built twice, not mutated by hashing', () => {
    const s = initialState(parseScenario(load('the-chapel-crossroads')));
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    const frozen = deepFreeze(initialState(parseScenario(load('the-chapel-crossroads'))));
    expect(hashEquals(hashValue(s), hashValue(frozen))).toBe(true);
    const q = initialState(parseScenario(load('quick-test')));
    expect(hashEquals(hashValue(s), hashValue(q))).toBe(false);
    // a sealed order changes the hash (two states that differ only in it are told apart)
    const sealed: CerState = {
      ...s,
      secret: [
        {
          orders: [
            {
              to: 'F2',
              order: { type: 'attack', point: { x: 2400, y: 3000 }, objective: 'chapel' },
              issuedTurn: 1,
              arrivesTurn: 1,
            },
          ],
        },
        s.secret[1],
      ],
    };
    expect(hashEquals(hashValue(s), hashValue(sealed))).toBe(false);
  });

  it('the default scenario is the Chapel Crossroads; the quick test has an off-board ME arriving from turn 2', () => {
    const q = initialState(parseScenario(load('quick-test')));
    expect(q.ctx.turns).toBe(4);
    expect(q.units.map((u) => [u.id, u.side, u.element, u.status])).toEqual([
      ['Q1a', 0, 'Q1', 'active'],
      ['Q1b', 0, 'Q1', 'active'],
      ['A1a', 1, 'A1', 'active'],
      ['A1b', 1, 'A1', 'active'],
      ['A2a', 1, 'A2', 'offBoard'],
    ]);
    expect(element(q, 'A2').offBoard).toEqual({
      entry: { x: 2400, y: 2400 },
      facing: 180,
      earliestTurn: 2,
      arriving: false,
    });
    expect(inches(unit(q, 'A2a').pos)).toEqual([24, 24]);
    expect(leader(q, 'A2-L')).toMatchObject({ offBoard: true, level: 'cavBrigade', pos: { x: 2400, y: 2400 } });
    expect(q.ctx.objectives).toEqual([
      { id: 'crossing', name: 'the crossing', point: { x: 1500, y: 1200 }, terrain: null, vp: 3 },
    ]);
    // C12: a battery given only its class gets the crew class of it
    expect(unit(q, 'A1b')).toMatchObject({ class: 'regular', crewClass: 2, guns: 4 });
    // C3: strength = figures + 3 × guns
    expect(q.armies.map((a) => a.startStrength)).toEqual([48, 20 + 12 + 9]);
  });
});

describe('The Chapel Crossroads (digest §11) as loaded', () => {
  it('table, length, terrain and the objective', () => {
    expect([chapel.ctx.width, chapel.ctx.height, chapel.ctx.turns]).toEqual([4800, 4800, 8]);
    expect(chapel.ctx.homeEdges).toEqual(['south', 'north']);
    expect(chapel.ctx.terrain.areas.map((a) => [a.id, a.kind, a.cover, a.polygon.map(inches)])).toEqual([
      [
        'hamlet',
        'bua',
        'hard',
        [
          [22, 28],
          [26, 28],
          [26, 32],
          [22, 32],
        ],
      ],
      [
        'wood',
        'lightWoods',
        'soft',
        [
          [6, 20],
          [14, 20],
          [14, 28],
          [6, 28],
        ],
      ],
      [
        'rise',
        'steepRise',
        'none',
        [
          [34, 36],
          [44, 36],
          [44, 44],
          [34, 44],
        ],
      ],
    ]);
    expect(chapel.ctx.terrain.lines.map((l) => [l.id, l.kind, l.obstacle, l.points.map(inches)])).toEqual([
      [
        'hedge',
        'minorObstacle',
        true,
        [
          [28, 26],
          [40, 26],
        ],
      ],
      [
        'road',
        'road',
        false,
        [
          [24, 0],
          [24, 48],
        ],
      ],
    ]);
    expect(chapel.ctx.buas).toEqual([
      expect.objectContaining({
        id: 'hamlet',
        material: 'stone',
        cover: 'heavy',
        garrison: 'heavy',
        centre: { x: 2400, y: 3000 },
      }),
    ]);
    expect(chapel.ctx.rises).toEqual([expect.objectContaining({ id: 'rise', contours: 1 })]);
    expect(chapel.ctx.objectives).toEqual([
      { id: 'chapel', name: 'the chapel hamlet', point: { x: 2400, y: 3000 }, terrain: 'hamlet', vp: 3 },
    ]);
    // the road passes through the hamlet
    expect(pointInPolygon({ x: 2400, y: 3000 }, chapel.ctx.buas[0]!.polygon)).toBe(true);
  });

  it('armies, commanders and MEs with their leaders and orders', () => {
    expect(chapel.armies.map((a) => [a.name, a.nationality, a.cc, a.elements, a.formations])).toEqual([
      ['French', 'french', 'F-CC', ['F1', 'F2'], []],
      ['British', 'british', 'B-CC', ['B1', 'B2'], []],
    ]);
    expect(
      chapel.leaders.map((l) => [
        l.id,
        l.role,
        l.commands,
        l.level,
        l.command,
        l.inspiration,
        inches(l.pos),
        l.attachedTo,
      ]),
    ).toEqual([
      ['F-CC', 'army', '', 'armyWing', 'average', 'normal', [24, 3], null],
      ['F1-L', 'element', 'F1', 'division', 'good', 'inspirational', [20, 10], 'F1a'],
      ['F2-L', 'element', 'F2', 'cavBrigade', 'excellent', 'charismatic', [41, 5], null],
      ['B-CC', 'army', '', 'armyWing', 'good', 'inspirational', [24, 45], null],
      ['B1-L', 'element', 'B1', 'division', 'average', 'normal', [26, 39], null],
      ['B2-L', 'element', 'B2', 'cavBrigade', 'good', 'normal', [10, 44.5], null],
    ]);
    expect(unit(chapel, 'F1a').attachedLeader).toBe('F1-L');
    expect(
      chapel.elements.map((e) => [
        e.id,
        e.name,
        e.leader,
        e.order?.type,
        e.order && inches(e.order.point),
        e.order?.objective,
        e.committed,
      ]),
    ).toEqual([
      ['F1', '1st Brigade', 'F1-L', 'attack', [24, 30], 'chapel', true],
      ['F2', 'Cuirassier Brigade', 'F2-L', 'advance', [40, 20], null, false],
      ['B1', 'Brigade', 'B1-L', 'hold', [24, 30], 'chapel', true],
      ['B2', 'Light Dragoons', 'B2-L', 'reserve', [10, 42], null, false],
    ]);
    // S6 initiative inputs: the British CC is better (+1 British); the French have more MEs on Attack (+1 French)
    expect([leader(chapel, 'B-CC').command, leader(chapel, 'F-CC').command]).toEqual(['good', 'average']);
    const onAttack = (side: number) =>
      chapel.elements.filter((e) => e.side === side && e.order?.type === 'attack').length;
    expect([onAttack(0), onAttack(1)]).toEqual([1, 0]);
    expect(chapel.strategicFirst).toBe(0);
  });

  it('every unit: kind, class, make-up, formation, centre and facing', () => {
    expect(
      chapel.units.map((u) => [
        u.id,
        u.element,
        u.kind,
        u.class,
        u.kind === 'artillery' ? u.guns : u.figures,
        u.formation,
        inches(u.pos),
        u.facing,
      ]),
    ).toEqual([
      ['F1a', 'F1', 'infantry', 'regular', 24, 'column', [20, 10], 0],
      ['F1b', 'F1', 'infantry', 'regular', 24, 'column', [28, 10], 0],
      ['F1c', 'F1', 'infantry', 'veteran', 20, 'skirmish', [24, 15], 0],
      ['F1d', 'F1', 'artillery', 'regular', 6, 'unlimbered', [24, 8], 0],
      ['F2a', 'F2', 'cavalry', 'elite', 12, 'line', [38, 8], 0],
      ['F2b', 'F2', 'cavalry', 'regular', 12, 'column', [44, 8], 0],
      ['B1a', 'B1', 'infantry', 'regular', 24, 'line', [18, 36], 180],
      ['B1b', 'B1', 'infantry', 'veteran', 24, 'line', [30, 36], 180],
      ['B1c', 'B1', 'infantry', 'veteran', 16, 'garrison', [24, 30], 180],
      ['B1d', 'B1', 'artillery', 'regular', 6, 'unlimbered', [38, 39], 180],
      ['B2a', 'B2', 'cavalry', 'regular', 12, 'line', [10, 42], 180],
    ]);
    expect(unit(chapel, 'F1a')).toMatchObject({ ranks: 3, doctrine: 'columnar', weapon: 'musket', light: false });
    expect(unit(chapel, 'F1c')).toMatchObject({ ranks: 3, light: true });
    expect(unit(chapel, 'F1d')).toMatchObject({
      gunType: 'medium68',
      mobility: 'foot',
      crewClass: 2,
      limberedAtTurnStart: false,
    });
    expect(unit(chapel, 'F2a')).toMatchObject({ weight: 'armored', blown: false });
    expect(unit(chapel, 'F2b')).toMatchObject({ weight: 'medium' });
    expect(unit(chapel, 'B1a')).toMatchObject({
      ranks: 2,
      doctrine: 'linear',
      weapon: 'musket',
      nationality: 'british',
    });
    expect(unit(chapel, 'B1c')).toMatchObject({ weapon: 'rifle', light: true, garrison: 'hamlet' });
    expect(unit(chapel, 'B1d')).toMatchObject({ gunType: 'medium9', crewClass: 2 });
    expect(unit(chapel, 'B2a')).toMatchObject({ weight: 'light' });
    expect(chapel.units.every((u) => u.status === 'active' && !u.disordered && !u.worn && !u.spent)).toBe(true);
  });

  it('§3.1 footprints: F1a 2" × 3", F1c 10" × 1", B1a 6" × 1", F2a 6" × 1.25", F2b 3" × 2.5", F1d 3" × 1.5"', () => {
    const sizes = Object.fromEntries(
      ['F1a', 'F1c', 'B1a', 'F2a', 'F2b', 'F1d'].map((id) => {
        const xs = body(unit(chapel, id)).map((p) => p.x);
        const ys = body(unit(chapel, id)).map((p) => p.y);
        return [id, [(Math.max(...xs) - Math.min(...xs)) / 100, (Math.max(...ys) - Math.min(...ys)) / 100]];
      }),
    );
    expect(sizes).toEqual({
      F1a: [2, 3],
      F1c: [10, 1],
      B1a: [6, 1],
      F2a: [6, 1.25],
      F2b: [3, 2.5],
      F1d: [3, 1.5],
    });
  });

  it('starting strength: French F1 86, F2 24, total 110; British B1 82, B2 12, total 94', () => {
    expect(chapel.elements.map((e) => [e.id, e.startStrength])).toEqual([
      ['F1', 86],
      ['F2', 24],
      ['B1', 82],
      ['B2', 12],
    ]);
    expect(chapel.armies.map((a) => a.startStrength)).toEqual([110, 94]);
  });

  it('turn 1 S4: every French unit starts more than 10" from every British unit; F1c\'s front is 12.5" from the hamlet', () => {
    const french = chapel.units.filter((u) => u.side === 0);
    const british = chapel.units.filter((u) => u.side === 1);
    let min = Number.POSITIVE_INFINITY;
    for (const f of french) for (const b of british) min = Math.min(min, polygonDistance(body(f), body(b)));
    expect(min / 100).toBeGreaterThan(10);
    expect(Math.max(...body(unit(chapel, 'F1c')).map((p) => p.y)) / 100).toBe(15.5);
    expect(polygonDistance(body(unit(chapel, 'F1c')), chapel.ctx.buas[0]!.polygon) / 100).toBe(12.5);
    expect(min).toBe(polygonDistance(body(unit(chapel, 'F1c')), body(unit(chapel, 'B1c'))));
  });

  it('S5 skirmish values (C9): F1c light 4 (8 in Skirmish), B1c rifles 5, line battalions 2, others 0', () => {
    expect(chapel.units.map((u) => [u.id, u.kind === 'infantry' ? u.scv : 0])).toEqual([
      ['F1a', 2],
      ['F1b', 2],
      ['F1c', 4],
      ['F1d', 0],
      ['F2a', 0],
      ['F2b', 0],
      ['B1a', 2],
      ['B1b', 2],
      ['B1c', 5],
      ['B1d', 0],
      ['B2a', 0],
    ]);
    expect(DEFAULT_OPTIONS.scv.skirmishFormation * 4).toBe(8);
  });

  it('B1d stands on the steep rise; B1c garrisons the hamlet; no unit overlaps another', () => {
    const rise = chapel.ctx.rises[0]!.polygon;
    expect(body(unit(chapel, 'B1d')).every((p) => pointInPolygon(p, rise))).toBe(true);
    expect(unit(chapel, 'B1c').pos).toEqual(chapel.ctx.buas[0]!.centre);
    const placed = chapel.units.filter((u) => u.kind !== 'infantry' || u.formation !== 'garrison');
    for (let a = 0; a < placed.length; a++)
      for (let b = a + 1; b < placed.length; b++)
        expect(
          polygonDistance(body(placed[a]!), body(placed[b]!)),
          `${placed[a]!.id}/${placed[b]!.id}`,
        ).toBeGreaterThan(0);
  });
});

describe('rules options: the ADAPTATIONs C1–C14', () => {
  const names = Object.keys(OPTION_SPECS) as OptionName[];

  it('lists C1…C14 once each, every one carried by named options', () => {
    expect(ADAPTATIONS.map((a) => a.id)).toEqual(Array.from({ length: 14 }, (_, i) => `C${i + 1}`));
    for (const a of ADAPTATIONS) expect(a.options.length, a.id).toBeGreaterThan(0);
    const carried = ADAPTATIONS.flatMap((a) => a.options);
    expect(new Set(carried).size).toBe(carried.length);
    expect([...carried].sort()).toEqual([...names, 'scv', 'sizeClasses'].sort());
  });

  it('every option defaults to the digest reading, which is accepted, played and explained', () => {
    for (const k of names) {
      const s = OPTION_SPECS[k] as OptionSpec;
      expect(DEFAULT_OPTIONS[k], k).toBe(s.default);
      expect(s.values.includes(s.default), k).toBe(true);
      expect(s.played.includes(s.default), k).toBe(true);
      for (const v of s.values) expect(s.means[String(v)], `${k} ${v}`).toBeTruthy();
    }
    expect(checkOptions({})).toEqual(DEFAULT_OPTIONS);
    expect(checkOptions(undefined)).toEqual(DEFAULT_OPTIONS);
    expect(DEFAULT_OPTIONS).toMatchObject({
      turnMinutes: 15,
      messengerDelayTurns: 1,
      brigadeIntegrity: 6,
      gunStrength: 3,
      nineGunDice: 2,
      artilleryCloseRange: 'restored',
      skirmishers: 'lightOnly',
      threatZone: 'front',
      terrainCost: 'extra',
      limberCost: 2,
      secretOrders: 'sealed',
      attackStandOff: 3,
      chargeDeclaration: 'afterActivations',
      moraleTriggers: 'digest',
      wornAt: '1/3',
      spentAt: '1/2',
      superiorArrivalDrm: 3,
      oldGuardMoraleDrm: 3,
      landwehrArrivalDrm: -1,
      waveAttacks: false,
      cavalryGrade: 'absolute',
      maxCacPerPhase: 2,
      elementDefeatFraction: '1/2',
      lossVpStep: 5,
      objectiveVp: 3,
      scv: { lineRegularOrBetter: 2, lineConscriptOrWorse: 1, light: 4, rifle: 5, skirmishFormation: 2 },
      sizeClasses: { infantry: [16, 30, 40], cavalry: [8, 15, 20], artillery: [4, 8, 12] },
    });
  });

  it('a played alternative is accepted', () => {
    expect(checkOptions({ turnMinutes: 20, wornAt: '1/4', scv: { light: 3 } })).toMatchObject({
      turnMinutes: 20,
      wornAt: '1/4',
      scv: { light: 3, rifle: 5 },
    });
  });

  it('every reading the engine does not play is refused in one line naming the option, the value and the C-number', () => {
    let refused = 0;
    for (const k of names) {
      const s = OPTION_SPECS[k] as OptionSpec;
      for (const v of s.values.filter((x) => !s.played.includes(x))) {
        refused++;
        expect(() => checkOptions({ [k]: v }), `${k}=${v}`).toThrow(OptionError);
        try {
          checkOptions({ [k]: v });
        } catch (e) {
          const m = (e as Error).message;
          expect(m).toContain(`option ${k} = ${JSON.stringify(v)}`);
          expect(m).toContain(`(${s.c})`);
          expect(m).not.toContain('\n');
        }
      }
    }
    expect(refused).toBeGreaterThanOrEqual(20);
    expect(() => checkOptions({ waveAttacks: true })).toThrow(/option waveAttacks = true .*not played.*C13/);
    expect(() => checkOptions({ artilleryCloseRange: 'asExtracted' })).toThrow(/artilleryCloseRange = "asExtracted"/);
  });

  it('an unknown option, a value that is no reading, a bad table are refused by name', () => {
    expect(() => checkOptions({ waveAttack: true })).toThrow(
      'option waveAttack = true does not exist (did you mean "waveAttacks"?)',
    );
    expect(() => checkOptions({ turnMinutes: 17 })).toThrow(/^option turnMinutes = 17 is not a reading of C1/);
    expect(() => checkOptions({ scv: { rifle: -1 } })).toThrow(/^option scv\.rifle: /);
    expect(() => checkOptions({ sizeClasses: { cavalry: [9, 8, 20] } })).toThrow(
      /^option sizeClasses\.cavalry: .*ascending \(C4\)/,
    );
    expect(() => checkOptions([1])).toThrow(/^options: an object/);
  });

  it('options given outside the file are checked by name when the game starts', () => {
    expect(initialState(chapelSc, { lossVpStep: 10 }).ctx.options.lossVpStep).toBe(10);
    expect(() => initialState(chapelSc, { orderIssuer: 'chain' })).toThrow(/option orderIssuer = "chain"/);
    expect(initialState(chapelSc, { gunStrength: 4 }).armies.map((a) => a.startStrength)).toEqual([
      68 + 24 + 24,
      64 + 24 + 12,
    ]);
  });
});

describe('malformed scenarios are refused, each with one one-line problem naming what is wrong', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the test edits the parsed JSON freely
  type J = any;
  type Edit = (j: J) => void;
  const F1 = (j: J) => j.sides[0].elements[0];
  const F2 = (j: J) => j.sides[0].elements[1];
  const B1 = (j: J) => j.sides[1].elements[0];
  const cases: [string, Edit, string, string | RegExp][] = [
    ['no title', (j) => delete j.title, '$.title', 'missing (expected string)'],
    ['another ruleset', (j) => (j.ruleset = 'napoleons-eagles'), '$.ruleset', 'charge-eagles-rising'],
    ['a misspelt key', (j) => ((j.turn = 8), delete j.turns), '$', 'unknown key "turn" (did you mean "turns"?)'],
    ['no turns', (j) => (j.turns = 0), '$.turns', /too small/i],
    ['a tiny table', (j) => (j.table.width = 5), '$.table.width', /too small/i],
    ['negative figures', (j) => (F1(j).units[0].figures = -3), '$.sides[0].elements[0].units[0].figures', /too small/i],
    [
      'an unknown unit kind',
      (j) => (F1(j).units[0].kind = 'dragoon'),
      '$.sides[0].elements[0].units[0].kind',
      'unit kind: one of',
    ],
    ['an unknown class', (j) => (F1(j).units[0].class = 'superb'), '$.sides[0].elements[0].units[0].class', 'veteran'],
    ['four ranks', (j) => (F1(j).units[0].ranks = 4), '$.sides[0].elements[0].units[0].ranks', 'ranks: 2 or 3'],
    [
      'a misspelt unit key',
      (j) => (F2(j).units[0].lancer = true),
      '$.sides[0].elements[1].units[0]',
      'unknown key "lancer" (did you mean "lancers"?)',
    ],
    [
      'a fractional facing',
      (j) => (F1(j).units[0].facing = 12.5),
      '$.sides[0].elements[0].units[0].facing',
      'whole degrees',
    ],
    [
      'off the table',
      (j) => (F2(j).units[1].x = 47.5),
      '$.sides[0].elements[1].units[1]',
      /F2b's footprint corner point .* off the 48"×48" table/,
    ],
    [
      'overlapping units',
      (j) => (F1(j).units[1].x = 21),
      '$.sides[0].elements[0].units[1]',
      'unit F1b overlaps unit F1a',
    ],
    [
      'a line battalion in skirmish',
      (j) => (F1(j).units[0].formation = 'skirmish'),
      '$.sides[0].elements[0].units[0].formation',
      'only light infantry take Skirmish formation (C4)',
    ],
    [
      'heavy cavalry in skirmish',
      (j) => (F2(j).units[0].formation = 'skirmish'),
      '$.sides[0].elements[1].units[0].formation',
      'only light cavalry take Skirmish formation (C4)',
    ],
    [
      'a garrison of a missing BUA',
      (j) => (B1(j).units[2].garrison = 'church'),
      '$.sides[1].elements[0].units[2].garrison',
      'no BUA "church" in the terrain',
    ],
    [
      'a garrison with a position',
      (j) => Object.assign(B1(j).units[2], { x: 24, y: 30 }),
      '$.sides[1].elements[0].units[2]',
      'a garrison stands in its BUA: no x, y',
    ],
    [
      'a garrison without formation garrison',
      (j) => Object.assign(B1(j).units[0], { garrison: 'hamlet' }),
      '$.sides[1].elements[0].units[0].garrison',
      'only a unit in formation "garrison" names a BUA',
    ],
    [
      'a unit without a position',
      (j) => delete F1(j).units[1].y,
      '$.sides[0].elements[0].units[1]',
      'unit F1b needs a position x, y',
    ],
    [
      'a battery without class or crew class',
      (j) => delete F1(j).units[3].crewClass,
      '$.sides[0].elements[0].units[3]',
      'a battery needs "class" or "crewClass"',
    ],
    [
      'a leader attached to another ME',
      (j) => (F1(j).leader.attached = 'F2a'),
      '$.sides[0].elements[0].leader.attached',
      'F1-L may only attach to a unit of his own command',
    ],
    [
      'a leader attached to an enemy',
      (j) => (F1(j).leader.attached = 'B1a'),
      '$.sides[0].elements[0].leader.attached',
      '"B1a" is not a unit of French',
    ],
    [
      'a leader nowhere',
      (j) => (delete F2(j).leader.x, delete F2(j).leader.y),
      '$.sides[0].elements[1].leader',
      'a leader needs "attached" (a unit id) or a position x, y',
    ],
    [
      'a leader attached and placed',
      (j) => Object.assign(F1(j).leader, { x: 20, y: 8 }),
      '$.sides[0].elements[0].leader',
      'either attached to a unit or placed at x, y, not both',
    ],
    [
      'an ME leader at army level',
      (j) => (F1(j).leader.level = 'armyWing'),
      '$.sides[0].elements[0].leader.level',
      'an ME leader is division or cavBrigade level, not armyWing (C2)',
    ],
    [
      'a CC at division level',
      (j) => (j.sides[1].cc.level = 'division'),
      '$.sides[1].cc.level',
      'an army CC is armyWing or corps level, not division (C2)',
    ],
    ['a poor-ish rating', (j) => (j.sides[1].cc.command = 'fair'), '$.sides[1].cc.command', 'superior'],
    [
      'an order at an unknown objective',
      (j) => (F1(j).order.objective = 'church'),
      '$.sides[0].elements[0].order.objective',
      'no objective "church" in the scenario',
    ],
    [
      'an order with objective and point',
      (j) => Object.assign(F1(j).order, { x: 1, y: 1 }),
      '$.sides[0].elements[0].order',
      'not both',
    ],
    ['an unknown order type', (j) => (F1(j).order.type = 'charge'), '$.sides[0].elements[0].order.type', 'withdraw'],
    [
      'an order point off the table',
      (j) => (F2(j).order.x = 60),
      '$.sides[0].elements[1].order',
      /off the 48"×48" table/,
    ],
    [
      'an independent ME without an order',
      (j) => delete B1(j).order,
      '$.sides[1].elements[0]',
      'ME B1 needs an "order" (it is not in an MF)',
    ],
    [
      'an MF of a missing ME',
      (j) =>
        (j.sides[0].formations = [
          {
            id: 'D1',
            leader: { id: 'D1-L', command: 'good', inspiration: 'normal', x: 30, y: 2 },
            order: { type: 'attack', objective: 'chapel' },
            elements: ['F9'],
          },
        ]),
      '$.sides[0].formations[0].elements[0]',
      '"F9" is not an ME of French',
    ],
    [
      'an ME with its own order inside an MF',
      (j) =>
        (j.sides[0].formations = [
          {
            id: 'D1',
            leader: { id: 'D1-L', command: 'good', inspiration: 'normal', x: 30, y: 2 },
            order: { type: 'attack', objective: 'chapel' },
            elements: ['F1'],
          },
        ]),
      '$.sides[0].elements[0].order',
      'ME F1 is in MF D1 and follows its order (C2): give the order to the MF',
    ],
    [
      'an ME in two MFs',
      (j) => (
        (j.sides[0].formations = ['D1', 'D2'].map((id) => ({
          id,
          leader: { id: `${id}-L`, command: 'good', inspiration: 'normal', x: 30, y: 2 },
          order: { type: 'advance', x: 30, y: 20 },
          elements: ['F2'],
        }))),
        delete F2(j).order
      ),
      '$.sides[0].formations[1].elements[0]',
      'ME F2 is already in MF D1',
    ],
    [
      'an off-board entry inside the table',
      (j) => {
        F2(j).offBoard = { x: 20, y: 20, earliestTurn: 2 };
        for (const u of F2(j).units) delete u.x, delete u.y;
        delete F2(j).leader.x;
        delete F2(j).leader.y;
      },
      '$.sides[0].elements[1].offBoard',
      'an off-board ME enters on a table edge: (20, 20) is not on the 48"×48" table\'s edge',
    ],
    [
      'an off-board arrival after the last turn',
      (j) => {
        F2(j).offBoard = { x: 48, y: 10, earliestTurn: 9 };
        for (const u of F2(j).units) delete u.x, delete u.y;
        delete F2(j).leader.x;
        delete F2(j).leader.y;
      },
      '$.sides[0].elements[1].offBoard.earliestTurn',
      "turn 9 is after the game's last turn (8)",
    ],
    [
      'an off-board unit with a position',
      (j) => {
        F2(j).offBoard = { x: 48, y: 10, earliestTurn: 2 };
        delete F2(j).units[1].x;
        delete F2(j).units[1].y;
        delete F2(j).leader.x;
        delete F2(j).leader.y;
      },
      '$.sides[0].elements[1].units[0]',
      'a unit of an off-board ME has no x, y',
    ],
    [
      'a duplicate id',
      (j) => (F1(j).units[1].id = 'F2a'),
      '$.sides[0].elements[1].units[0].id',
      'duplicate id "F2a" (first used at $.sides[0].elements[0].units[1].id)',
    ],
    [
      'strategicFirst not a side',
      (j) => (j.strategicFirst = 'Prussians'),
      '$.strategicFirst',
      '"Prussians" is not a side (one of "French", "British")',
    ],
    ['two sides of one name', (j) => (j.sides[1].name = 'French'), '$.sides[1].name', 'both sides are named "French"'],
    ['an unknown terrain type', (j) => (j.terrain[1].type = 'swamp'), '$.terrain[1].type', 'terrain type: one of'],
    [
      'a self-crossing wood',
      (j) =>
        (j.terrain[1].polygon = [
          [6, 20],
          [14, 28],
          [14, 20],
          [6, 28],
        ]),
      '$.terrain[1].polygon',
      'woods wood crosses itself',
    ],
    [
      'a wooden BUA with heavy cover',
      (j) => (j.terrain[0].material = 'wooden'),
      '$.terrain[0].cover',
      'a wooden BUA gives light or medium cover, not heavy',
    ],
    [
      'a ford away from any stream',
      (j) =>
        j.terrain.push({
          type: 'ford',
          id: 'ford',
          stream: 'road',
          polygon: [
            [1, 1],
            [2, 1],
            [2, 2],
          ],
        }),
      '$.terrain[5].stream',
      'no stream "road" in the terrain for ford ford',
    ],
    [
      'an objective on a line',
      (j) => (j.objectives[0].terrain = 'hedge'),
      '$.objectives[0].terrain',
      'objective terrain hedge is a linearObstacle line, not an area',
    ],
    [
      'an objective of terrain and point',
      (j) => Object.assign(j.objectives[0], { x: 1, y: 1 }),
      '$.objectives[0]',
      'either "terrain" (an area id) or a point x, y, not both',
    ],
    [
      'a reading the engine does not play',
      (j) => (j.options = { waveAttacks: true }),
      '$.options.waveAttacks',
      /option waveAttacks = true .* not played by this engine \(C13\)/,
    ],
    [
      'an unknown option',
      (j) => (j.options = { waveattacks: false }),
      '$.options',
      'unknown key "waveattacks" (did you mean "waveAttacks"?)',
    ],
    [
      'an option value that is no reading',
      (j) => (j.options = { turnMinutes: 17 }),
      '$.options.turnMinutes',
      'option turnMinutes = 17 is not a reading of C1',
    ],
  ];

  it.each(cases)('%s', (_what, edit, path, message) => {
    const j = load('the-chapel-crossroads');
    edit(j);
    const v = validateScenario(j);
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.problems.map((p) => p.path)).toEqual([path]);
    const [p] = v.problems;
    if (typeof message === 'string') expect(p!.message).toContain(message);
    else expect(p!.message).toMatch(message);
    expect(p!.message).not.toContain('\n');
    expect(() => parseScenario(j)).toThrow(ScenarioFormatError);
    expect(() => parseScenario(j)).toThrow(`${path}: ${p!.message}`);
  });

  it('several problems are all listed; parseScenario says the first in one line and counts the rest', () => {
    const j = load('quick-test');
    j.sides[0].elements[0].units[0].figures = 0;
    j.sides[1].elements[0].units[0].ranks = 5;
    const v = validateScenario(j);
    expect(v.ok ? [] : v.problems.map((p) => p.path)).toEqual([
      '$.sides[0].elements[0].units[0].figures',
      '$.sides[1].elements[0].units[0].ranks',
    ]);
    expect(() => parseScenario(j)).toThrow(
      /^\$\.sides\[0\]\.elements\[0\]\.units\[0\]\.figures: .* \(and 1 more problem\)$/,
    );
    expect(() => parseScenario('not json')).toThrow(ScenarioFormatError);
  });
});
