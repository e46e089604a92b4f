/**
 * The tables of Napoleon's Eagles checked cell by cell against the rulebook's text kept in
 * test/data/napoleons-eagles-tables.txt (verbatim seed lines, each prefixed with its seed line number), then against
 * the digest's reconstructions (A-41, A-45 …) and its §9 test vectors, and at the lookups' edges. Each legible table is
 * parsed from its seed lines (found by number and checked by pattern), so a mistyped cell fails.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ACTIVATION_RATIOS,
  AMMO_LEVELS,
  ARTILLERY,
  ARTILLERY_MOVE,
  BASIC_MORALE,
  BOOK_READINGS,
  BOUNCE,
  BUILDING_FIGHT_MODIFIERS,
  BUILDINGS,
  CANISTER_BONUS,
  CASUALTY_CHART,
  CASUALTY_CHART_COLUMNS,
  CASUALTY_ROLL_MODIFIERS,
  CAVALRY_CHARGE,
  CAVALRY_MOVE,
  CHARGE,
  COMMAND_RADIUS,
  CROSSINGS,
  DAMAGE_PER_CASUALTY,
  ENFILADE_FACTOR,
  FACING_CHANGE,
  FATIGUE_INCREASE,
  FATIGUE_LEVELS,
  FATIGUE_PENALTY,
  FIRE_MODIFIERS,
  FIRE_RATING_MODIFIER,
  FIRE_START,
  FIRES,
  FIRING,
  FORMATION_CHANGE,
  type FireModifierInput,
  HOWITZER,
  INFANTRY_MOVE,
  INITIATIVE,
  LEADER_BONUS,
  MELEE_MODIFIERS,
  MELEE_VALUE_GUIDE,
  MISREAD,
  MISREAD_TABLE,
  MORALE_BONUSES,
  MORALE_DISTANCES,
  MORALE_MODIFIERS,
  MUD_AFTER_PERIODS,
  MUSKET_NO_EFFECT_MAX,
  MUSKET_TABLE,
  MUSKET_TABLE_COLUMNS,
  type MeleeInput,
  ORDER_CHANGE_MODIFIERS,
  OTHER_MOVES,
  OUT_OF_CONTROL_CHARGE,
  OUT_OF_CONTROL_MODIFIERS,
  OUT_OF_CONTROL_MORALE_BONUS,
  type Order,
  RANGE_LIMITS,
  RANGE_MODIFIER,
  REFORM_MODIFIERS,
  REFORM_TABLE,
  RETREAT_INCHES_PER_ACTION,
  SCALE,
  SKIRMISH,
  SMOKE,
  SOLID_SHOT_DAMAGE,
  SOLID_SHOT_DAMAGE_WOODS_OR_BUILDINGS_ALT,
  SOLID_SHOT_HITS,
  SOLID_SHOT_PRINTED,
  TERRAIN_MOVE,
  THRESHOLD,
  THRESHOLD_MODIFIERS,
  TURN,
  VISIBILITY,
  VISIBILITY_MULTIPLIER,
  WEATHER,
  ammoAfter,
  ammoDice,
  artilleryBases,
  artilleryFieldMove,
  artilleryMoveRow,
  bounce,
  buildingSuperiority,
  canisterGuns,
  canisterRowFigures,
  casualtyMoraleModifier,
  cavalryReaction,
  closeActionCasualties,
  closeActionCasualtiesDist,
  enfiladeValue,
  facingChangeCost,
  fatigueAfter,
  fireGrowth,
  fireModifier,
  fireStarts,
  hasEnfiladeBonus,
  howitzerDamageBonus,
  influenceCostsLeader,
  interveningScreenSplit,
  leaderLossMaxRoll,
  leaderLost,
  lineHoldsAgainstCavalry,
  meleeValue,
  misreadOrder,
  moraleCheckDist,
  moralePasses,
  musketFireCasualties,
  musketFireDist,
  musketRowFigures,
  musketTableColumn,
  neutralisedAtHits,
  orderDelay,
  outnumberedModifier,
  outOfControl,
  parseRating,
  rangeBand,
  refusedFlankFigures,
  reformActions,
  retreatActions,
  rideDownCasualties,
  secondBounceZone,
  solidShotCasualties,
  solidShotCasualtiesDist,
  solidShotDamagePerHit,
  solidShotHitFaces,
  terrainMultiplier,
  thresholdDue,
  thresholdPasses,
} from './tables.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// the rulebook's table regions, kept with the tests (verbatim lines of shared/seeds/napoleons-eagles.txt)
const DATA = readFileSync(join(ROOT, 'test', 'data', 'napoleons-eagles-tables.txt'), 'utf8');

/** Seed line number → the line as in the seed (a missing copy fails every test here: nothing is skipped). */
const SEED = new Map<number, string>();
for (const l of DATA.split('\n')) {
  const m = /^(\d{4})\|(.*)$/.exec(l);
  if (m) SEED.set(Number(m[1]), m[2]!);
}
/** Seed line `n`, trimmed, with runs of spaces kept (fails if the region was not kept). */
function L(n: number): string {
  const s = SEED.get(n);
  if (s === undefined) throw new Error(`seed line ${n} is not in test/data`);
  return s.trim();
}
/** The non-empty seed lines a..b, trimmed. */
function span(a: number, b: number): string[] {
  const out: string[] = [];
  for (let n = a; n <= b; n++) if (L(n) !== '') out.push(L(n));
  return out;
}
/** Seed lines a..b as one string, spaces collapsed and the en dash read as a minus. */
const text = (a: number, b: number) => span(a, b).join(' ').replace(/–/g, '-').replace(/\s+/g, ' ');
/** The first capture of `re` in seed lines a..b, as a number ("½" / "¾" / "1/2" read as fractions). */
function num(a: number, b: number, re: RegExp): number {
  const m = re.exec(text(a, b));
  if (!m) throw new Error(`no ${re} in seed lines ${a}-${b}`);
  return frac(m[1]!);
}
function frac(s: string): number {
  const f: Record<string, number> = {
    '½': 1 / 2,
    '¾': 3 / 4,
    '¼': 1 / 4,
    '3/4': 3 / 4,
    '1/2': 1 / 2,
    '1/4': 1 / 4,
    '1/8': 1 / 8,
  };
  return f[s] ?? Number(s.replace('–', '-'));
}
const inches = (s: string) => Number(s.replace('”', ''));

describe('the test data is the seed text', () => {
  it('keeps every region with its line numbers, in order', () => {
    const numbers = [...SEED.keys()];
    expect(numbers.length).toBeGreaterThan(1000);
    for (let i = 1; i < numbers.length; i++) expect(numbers[i]!).toBeGreaterThan(numbers[i - 1]!);
    expect(L(736)).toBe('Musket Firing Table (Vertical = # of Figures, Horizontal = 1xD6 Die Roll)');
    expect(L(1185)).toBe('Close action casualty chart:');
  });
});

describe('cell by cell against the book', () => {
  describe('[p.9] Musket Firing Table', () => {
    // Read as: the heading line of 14 column labels, then per row "figures cell cell …" with the empty cells on the
    // left dropped by the extraction: each row is right-aligned under the headings.
    const header = L(738).split(/\s+/);
    const rows = span(739, 751).map((l) => l.split(/\s+/).map(Number));

    it('the column headings', () => {
      expect(header).toEqual(MUSKET_TABLE_COLUMNS.map((c) => c.label));
      for (const c of MUSKET_TABLE_COLUMNS) {
        const ns = c.label.replace('+', '').split(',').map(Number);
        expect(c.min).toBe(Math.min(...ns));
        expect(c.max).toBe(c.label.endsWith('+') ? Infinity : Math.max(...ns));
      }
    });
    it('every row, every cell (right-aligned)', () => {
      expect(rows.map((r) => r[0])).toEqual([...MUSKET_TABLE.keys()]);
      for (const [figures, ...cells] of rows) {
        expect(cells.length).toBeLessThanOrEqual(14);
        const full = [...new Array<number>(14 - cells.length).fill(0), ...cells];
        expect([figures, MUSKET_TABLE.get(figures!)]).toEqual([figures, full]);
      }
    });
    it('the staircase: each row one column further left than the row above (A-41)', () => {
      const counts = rows.map((r) => r.length - 1);
      expect(counts).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 14, 14, 14]);
    });
    it('the note: −5 or less has no effect', () => {
      expect(num(753, 753, /Die rolls of (-\d) or less will have no effect/)).toBe(MUSKET_NO_EFFECT_MAX);
      expect(musketTableColumn(-5)).toBeNull();
      expect(musketTableColumn(-4)).toBe(0);
    });
    it('the closed form (A-41) equals every printed cell except row 4 at 12+', () => {
      for (const [row, cells] of MUSKET_TABLE) {
        cells.forEach((v, col) => {
          const start = 10 - row / 4;
          const c = col + 1;
          const formula = c < start ? 0 : 2 * (Math.floor((c - start) / 5) + 1);
          if (row === 4 && col === 13) expect([v, formula]).toEqual([2, 4]);
          else expect([row, col, v]).toEqual([row, col, formula]);
        });
      }
    });
  });

  describe('[p.9] range table and Solid Shot Firing Table', () => {
    it('small arms: musket, rifle, carbine', () => {
      const mus = /^Musket up to (\d+)” up to (\d+)” up to (\d+)” up to (\d+)”/.exec(L(756))!;
      expect(RANGE_LIMITS.musket).toEqual(mus.slice(1).map(Number));
      const rif = /^Rifle (\d+)” (\d+)” (\d+)” (\d+)”/.exec(L(757))!;
      expect(RANGE_LIMITS.rifle).toEqual(rif.slice(1).map(Number));
      const car = /^Carbines (\d+)” (\d+)” (\d+)” --/.exec(L(758))!;
      expect(RANGE_LIMITS.carbine).toEqual([...car.slice(1).map(Number), null]);
      expect(L(755)).toMatch(/^Close Medium Long Extreme/);
    });
    it('artillery: every band limit and bounce, the close band marked canister', () => {
      const names = { '12 lb': '12lb', '8-9 lb': '8-9lb', '6 lb': '6lb', '4 lb': '4lb', '2-3 lb': '2-3lb' } as const;
      const seen: string[] = [];
      for (let n = 759; n <= 763; n++) {
        const m =
          /^(12 lb|8-9 lb|6 lb|4 lb|2-3 lb) (\d+)”\((\d+)\) \* (\d+)”\((\d+)\) (\d+)”\((\d+)\) (\d+)”\((\d+)\)/.exec(
            L(n),
          )!;
        const cal = names[m[1] as keyof typeof names];
        seen.push(cal);
        const v = m.slice(2).map(Number);
        expect([cal, RANGE_LIMITS[cal]]).toEqual([cal, [v[0], v[2], v[4], v[6]]]);
        expect([cal, BOUNCE[cal]]).toEqual([cal, [v[1], v[3], v[5], v[7]]]);
      }
      expect(seen).toEqual(Object.keys(BOUNCE));
      expect(num(764, 764, /cannister range for artillery; (\d+)”for howitzers/)).toBe(HOWITZER.canisterRange);
    });
    it('Solid Shot Firing Table: the printed cells, and both A-45 readings built from them', () => {
      const a = /A Hit ([\d,]+) ([\d,]+) ([\d,]+)$/.exec(L(756))!.slice(1);
      const b = /B Hit ([\d,]+) ([\d,]+) ([\d,]+)$/.exec(L(757))!.slice(1);
      expect(SOLID_SHOT_PRINTED).toEqual({ A: a, B: b });
      const faces = (cells: string[]) => cells.map((c) => c.split(',').map(Number));
      expect(SOLID_SHOT_HITS.closeIsCanister).toEqual({ A: [null, ...faces(a)], B: [null, ...faces(b)] });
      expect(SOLID_SHOT_HITS.extremeBlank).toEqual({ A: [...faces(a), null], B: [...faces(b), null] });
      expect(L(755)).toMatch(/• Close Medium Long Extreme$/); // four headings over three cells: the A-45 gap
    });
    it('damage modifiers when a hit is scored', () => {
      const t = text(758, 763);
      const v = (re: RegExp) => Number(re.exec(t)![1]);
      expect(v(/([+-]\d) for each howitzer in the battery/)).toBe(SOLID_SHOT_DAMAGE.perHowitzer);
      expect(v(/([+-]\d) for firing at unlimbered artillery/)).toBe(SOLID_SHOT_DAMAGE.unlimberedArtillery);
      expect(v(/([+-]\d) for firing at limbered artillery/)).toBe(SOLID_SHOT_DAMAGE.limberedArtillery);
      expect(v(/([+-]\d) for firing at skirmishers/)).toBe(SOLID_SHOT_DAMAGE.skirmishers);
      expect(v(/([+-]\d) for firing at troops in buildings or woods/)).toBe(SOLID_SHOT_DAMAGE.woodsOrBuildings);
      // the book's other value, p.19 woods and p.20 buildings
      expect(num(1865, 1867, /will receive a (-\d) damage modifier/)).toBe(SOLID_SHOT_DAMAGE_WOODS_OR_BUILDINGS_ALT);
      expect(num(1936, 1939, /will receive a (-\d) damage modifier/)).toBe(SOLID_SHOT_DAMAGE_WOODS_OR_BUILDINGS_ALT);
      expect(num(780, 789, /will receive a (-\d) damage modifier/)).toBe(SOLID_SHOT_DAMAGE.woodsOrBuildings);
    });
  });

  describe('[p.9] die roll modifiers', () => {
    // Read as: three columns run together on each line; every entry starts with a sign and a number followed by a
    // space ("2-3lb" is no entry: no space after "-3"). The first piece of a line is column 1, and so on.
    const cols: string[][] = [[], [], []];
    for (let n = 767; n <= 776; n++) {
      L(n)
        .split(/\s+(?=[+-]\d+ )/)
        .map((p) => p.trim().replace(/\s+/g, ' '))
        .forEach((p, i) => cols[i]!.push(p));
    }
    const printed = [...cols[0]!, ...cols[1]!, ...cols[2]!];
    const p9 = FIRE_MODIFIERS.filter((r) => r.page === 9);

    it('every entry, in column order, and its value', () => {
      expect(cols.map((c) => c.length)).toEqual([10, 8, 8]);
      expect(p9.map((r) => r.printed)).toEqual(printed);
      for (const r of p9) expect(r.value).toBe(Number(/^([+-]\d+) /.exec(r.printed)![1]));
    });
    it('the lookups read the same cells', () => {
      const v = (id: string) => FIRE_MODIFIERS.find((r) => r.id === id)!.value;
      expect(FIRE_RATING_MODIFIER).toEqual({
        A: v('ratingA'),
        B: v('ratingB'),
        C: 0,
        D: v('ratingD'),
        E: v('ratingE'),
        R: v('rifleClass'),
      });
      expect(CANISTER_BONUS).toEqual({
        '12lb': v('canister12lb'),
        '8-9lb': v('canister8to9lb'),
        '6lb': v('canister6lb'),
        '4lb': v('canister4lb'),
        '2-3lb': v('canister2to3lb'),
      });
      expect(RANGE_MODIFIER).toEqual({
        close: 0,
        medium: v('mediumRange'),
        long: v('longRange'),
        extreme: v('extremeRange'),
      });
      expect(FATIGUE_PENALTY.fire).toEqual([0, v('fatigued'), v('tired'), v('exhausted')]);
    });
    it('[p.18-20] the modifiers given in the text', () => {
      const v = (id: string) => FIRE_MODIFIERS.find((r) => r.id === id)!.value;
      expect(num(1833, 1838, /Skirmish screens fire as normal, but an additional modifier of (-\d)/)).toBe(
        v('firerIsSkirmishScreen'),
      );
      expect(num(1833, 1838, /firing at skirmish screens have an additional modifier of (-\d)/)).toBe(v('skirmishers'));
      expect(num(1833, 1838, /receive a (-\d) modifier to the die roll/)).toBe(v('skirmishersCanister'));
      expect(num(1771, 1784, /die roll modifier of (-\d) if they are within/)).toBe(v('organicSkirmishers'));
      expect(num(1771, 1784, /within (\d)” of the unit’s front/)).toBe(FIRING.organicSkirmisherRange);
      expect(num(2005, 2006, /muskets fire with a (-\d)/)).toBe(v('lightRain'));
      expect(num(2007, 2008, /muskets fire with a (-\d)/)).toBe(v('heavyRain'));
      expect(num(2012, 2013, /muskets fire with a (-\d)/)).toBe(v('lightSnow'));
      expect(num(2014, 2015, /muskets fire with a (-\d)/)).toBe(v('heavySnow'));
      expect(text(2007, 2008)).toContain('no rapid fire allowed');
      expect(Object.entries(WEATHER).map(([w, x]) => [w, x.rapidFire])).toEqual([
        ['lightRain', true],
        ['heavyRain', false],
        ['lightSnow', true],
        ['heavySnow', true],
        ['hot', true],
      ]);
      expect(num(2051, 2061, /there is a (-\d) modifier to the firing unit’s die roll/)).toBe(v('smoke'));
      expect(num(2051, 2061, /receives a (-\d) to their hit die roll/)).toBe(SMOKE.solidShotHitDie);
      expect(num(1849, 1855, /modifier of (-\d) to the die roll when firing through light woods/)).toBe(
        v('lightWoods'),
      );
      expect(num(1858, 1863, /modifier of (-\d) to the die roll when firing through dense woods/)).toBe(
        v('denseWoods'),
      );
      expect(num(1849, 1855, /Maximum range for firing inside is (\d)”/)).toBe(FIRING.woodsMaxRange.lightWoods);
      expect(num(1858, 1863, /Maximum range for firing inside is (\d)”/)).toBe(FIRING.woodsMaxRange.denseWoods);
      expect(num(1935, 1937, /a (-\d) modifier is applied to the die roll/)).toBe(BUILDINGS.fireInModifier);
      expect(num(872, 878, /There is a (-\d) die roll modifier when firing at unlimbered artillery/)).toBe(
        v('unlimberedArtillery'),
      );
      expect(num(872, 878, /There is a (-\d) damage modifier for firing at unlimbered artillery/)).toBe(
        SOLID_SHOT_DAMAGE.unlimberedArtillery,
      );
    });
  });

  describe('[p.6] movement rates', () => {
    it('infantry: every cell', () => {
      expect(L(378).split(/\s+/)).toEqual(['Rating', 'Line', 'Column', 'Skirmish', 'Road', 'Col.', 'Square']);
      for (let n = 380; n <= 382; n++) {
        const m = /^([ABC])\s+(\d+)”\s+(\d+)”\s+(\d+)”\s+(\d+)”, on road\s+(\d+”|-)$/.exec(L(n))!;
        const r = INFANTRY_MOVE[m[1] as 'A' | 'B' | 'C'];
        expect([m[1], r]).toEqual([
          m[1],
          {
            line: inches(m[2]!),
            column: inches(m[3]!),
            skirmish: inches(m[4]!),
            roadColumn: inches(m[5]!),
            square: m[6] === '-' ? null : inches(m[6]!),
          },
        ]);
      }
    });
    it('cavalry and the cavalry charge distance: every cell', () => {
      const weights = { Light: 'light', Medium: 'medium', Heavy: 'heavy' } as const;
      for (let n = 389; n <= 391; n++) {
        const m = /^([ABC])\s+(\d+)”\s+(\d+)”\s+(\d+)”\s+(\d+)”, on road\s+(Light|Medium|Heavy) Cav\.\s+(\d+)”$/.exec(
          L(n),
        )!;
        expect(CAVALRY_MOVE[m[1] as 'A' | 'B' | 'C']).toEqual({
          line: inches(m[2]!),
          column: inches(m[3]!),
          skirmish: inches(m[4]!),
          roadColumn: inches(m[5]!),
        });
        expect(CAVALRY_CHARGE[weights[m[6] as keyof typeof weights]]).toBe(Number(m[7]));
      }
      // [p.15] counter charge distances are the same
      for (let n = 1411; n <= 1413; n++) {
        const m = /^(Light|Medium|Heavy) Cav\.\s+(\d+)$/.exec(L(n))!;
        expect(CAVALRY_CHARGE[weights[m[1] as keyof typeof weights]]).toBe(Number(m[2]));
      }
      expect(num(1431, 1433, /will charge up to (\d+)”/)).toBe(OUT_OF_CONTROL_CHARGE);
    });
    it('artillery: every cell', () => {
      expect(L(397).split(/\s+/)).toEqual(['Artillery:', 'Field', 'Movement', 'Prolong', 'Road', 'Movement']);
      const rows = span(400, 403).map(
        (l) =>
          /^(Horse 3lb-6lb|Foot 3lb-6lb|Foot 8lb-9lb|Foot 12lb)\s+(\d+)”\s+(\d+)”\s+(\d+)”\s+(\d+)”, on road$/.exec(l)!,
      );
      expect(rows.map((m) => m[1])).toEqual(Object.values(ARTILLERY_MOVE).map((r) => r.label));
      Object.values(ARTILLERY_MOVE).forEach((r, i) => {
        const m = rows[i]!;
        expect([r.fieldA, r.fieldB, r.prolong, r.road]).toEqual(m.slice(2).map(inches));
      });
    });
    it('leaders, crews, caissons, fall back, sidestep, skirmishers, retreats', () => {
      expect(num(368, 369, /All (\d+)”, in step #8/)).toBe(OTHER_MOVES.leaderPerAction);
      expect(num(206, 207, /can move up to (\d+)” during this step/)).toBe(TURN.leaderMoveStep8);
      expect(num(830, 832, /movement rate of (\d+)" per action/)).toBe(OTHER_MOVES.crewRunningForCover);
      expect(num(936, 940, /movement of (\d+)” per action/)).toBe(OTHER_MOVES.caisson);
      expect(num(473, 476, /moved backward (\d+)” per action/)).toBe(OTHER_MOVES.fallBack);
      expect(num(478, 480, /may move (\d+)” per action left or/)).toBe(OTHER_MOVES.sidestepInfantryCavalry);
      expect(num(478, 480, /can only move (\d+)” left or right/)).toBe(OTHER_MOVES.sidestepArtillery);
      expect(num(1805, 1807, /may move up to (\d+)” per action/)).toBe(OTHER_MOVES.skirmishScreen);
      expect(num(1049, 1049, /one action for every (\d+)” moved/)).toBe(
        RETREAT_INCHES_PER_ACTION.infantryOrFootArtillery,
      );
      expect(num(1050, 1050, /one action for every (\d+)” moved/)).toBe(
        RETREAT_INCHES_PER_ACTION.cavalryOrHorseArtillery,
      );
    });
    it('[p.6, p.19, p.20] terrain', () => {
      expect(text(435, 436)).toContain('Gentle Slopes; no movement penalties');
      expect(num(437, 438, /can only use up to (¾) of the unit’s movement/)).toBe(TERRAIN_MOVE.steepSlope.infantry);
      expect(num(439, 440, /can only use up to (½) of the unit’s movement/)).toBe(TERRAIN_MOVE.extremeSlope.cavalry);
      expect(num(441, 441, /movement is (½) for all units/)).toBe(TERRAIN_MOVE.mud.artillery);
      expect(num(1849, 1850, /Infantry units can only use up to (3\/4) of their/)).toBe(
        TERRAIN_MOVE.lightWoods.infantry,
      );
      expect(num(1849, 1850, /(1\/2) movement for artillery and cavalry/)).toBe(TERRAIN_MOVE.lightWoods.cavalry);
      expect(TERRAIN_MOVE.lightWoods.artillery).toBe(TERRAIN_MOVE.lightWoods.cavalry);
      expect(num(1858, 1859, /can only use up to (1\/2) of their/)).toBe(TERRAIN_MOVE.denseWoods.infantry);
      expect(text(1858, 1859)).toContain('Artillery and cavalry cannot enter.');
      expect([TERRAIN_MOVE.denseWoods.cavalry, TERRAIN_MOVE.denseWoods.artillery]).toEqual([0, 0]);
      expect(num(2016, 2017, /movement (½) over deep snow/)).toBe(TERRAIN_MOVE.fallenSnow.infantry);
      const bridge = /(\d+) to (\d+) figures may cross over a bridge/.exec(text(433, 434))!;
      expect(bridge.slice(1).map(Number)).toEqual([...CROSSINGS.bridgeFiguresPerAction]);
      const river = /it will take (\d+) to (\d+) actions/.exec(text(442, 445))!;
      expect(river.slice(1).map(Number)).toEqual([...CROSSINGS.riverActions]);
      expect(num(2009, 2010, /follows after (\d+) periods of heavy/)).toBe(MUD_AFTER_PERIODS.heavyRain);
      expect(num(2009, 2010, /rain or (\d+) periods of light rain/)).toBe(MUD_AFTER_PERIODS.lightRain);
    });
  });

  describe('[p.7] facing and formation changes', () => {
    it('facing: line and column brackets', () => {
      const t = text(487, 497);
      expect(num(487, 497, /change facing up to (\d+)º \(adjustment\) without cost/)).toBe(
        FACING_CHANGE.line[0]!.maxDeg,
      );
      const line =
        /in line may change facing up to (\d+)º at the cost of (\d+) action and (\d+)º at the cost of (\d+) actions/.exec(
          t,
        )!;
      expect(FACING_CHANGE.line.slice(1)).toEqual([
        { maxDeg: Number(line[1]), actions: Number(line[2]) },
        { maxDeg: Number(line[3]), actions: Number(line[4]) },
      ]);
      const col =
        /in column may change facing up to (\d+)º at the cost of (½) an action, up to (\d+)º at the cost of (\d+) action and up to (\d+)º at the cost of (\d+) actions/.exec(
          t,
        )!;
      expect(FACING_CHANGE.column.slice(1)).toEqual([
        { maxDeg: Number(col[1]), actions: frac(col[2]!) },
        { maxDeg: Number(col[3]), actions: Number(col[4]) },
        { maxDeg: Number(col[5]), actions: Number(col[6]) },
      ]);
      expect(num(487, 497, /cannot face more than (\d+)º in one move/)).toBe(FACING_CHANGE.column.at(-1)!.maxDeg);
      expect(num(548, 557, /cannot make more than a (\d+) degree facing change/)).toBe(
        FACING_CHANGE.echelon.at(-1)!.maxDeg,
      );
    });
    it('formation changes, line on the flank, echelon, refusing a flank, about face, limbering', () => {
      expect(text(516, 519)).toMatch(/cost 1 action except/);
      expect(num(520, 520, /C to L, L to C cost (½) action/)).toBe(FORMATION_CHANGE.frenchPost1807ColumnLine);
      expect(num(521, 521, /C to L, L to C cost (\d) actions/)).toBe(FORMATION_CHANGE.prussian1806ColumnLine);
      expect(num(522, 522, /C to S, S to C cost (½) action/)).toBe(FORMATION_CHANGE.austrianMassColumnSquare);
      expect(text(526, 529)).toContain('cost one action. Cavalry changing from L to E, E to L, (E = Echelon) cost ½');
      expect([FORMATION_CHANGE.cavalry, FORMATION_CHANGE.cavalryEchelon]).toEqual([1, 0.5]);
      expect(text(537, 542)).toContain('at the cost of two actions');
      expect(text(537, 542)).toContain('at a cost of only one action');
      expect([FORMATION_CHANGE.lineOnFlankInfantry, FORMATION_CHANGE.lineOnFlankPrussian1806OrCavalry]).toEqual([2, 1]);
      expect(num(548, 550, /it will cost (½) an action/)).toBe(FORMATION_CHANGE.cavalryEchelon);
      expect(num(563, 567, /using up to (¼) \(25%\)/)).toBe(FORMATION_CHANGE.refuseFlankFraction);
      expect(text(563, 567)).toContain('costs one action');
      expect(num(466, 468, /It takes artillery (\d) action to limber/)).toBe(FORMATION_CHANGE.limberOrUnlimber);
      expect(text(482, 484)).toContain('It takes one action for a unit to perform an about face');
      expect(text(1786, 1791)).toContain('It takes one action to form a skirmish line');
      expect(text(1786, 1791)).toContain('It takes two actions to reform the unit');
      expect([FORMATION_CHANGE.formSkirmish, FORMATION_CHANGE.reformFromSkirmish]).toEqual([1, 2]);
    });
  });

  describe('[p.13] close actions', () => {
    it('Close action casualty chart: headings and every cell', () => {
      const head = /^D6 (1-2 figs) (3-4 figs) (5-6 figs) (7-8 figs)\s+(9\+ figs)$/.exec(L(1186))!;
      expect(head.slice(1)).toEqual(CASUALTY_CHART_COLUMNS.map((c) => c.label));
      for (const c of CASUALTY_CHART_COLUMNS) {
        const m = /^(\d+)(?:-(\d+)|\+) figs$/.exec(c.label)!;
        expect([c.min, c.max]).toEqual([Number(m[1]), m[2] ? Number(m[2]) : Infinity]);
      }
      const rows = span(1187, 1193).map((l) => l.split(/\s+/).map(Number));
      expect(rows.map((r) => r[0])).toEqual([1, 2, 3, 4, 5, 6, 7]);
      rows.forEach((r, i) => expect(CASUALTY_CHART[i]).toEqual(r.slice(1)));
    });
    it('step 7 modifiers; step 8 +2 for a charger that lost; step 4 +2', () => {
      expect(num(1176, 1176, /\+(\d) for the winning side/)).toBe(CASUALTY_ROLL_MODIFIERS.winner);
      expect(num(1177, 1177, /\+(\d) for cavalry versus cavalry/)).toBe(CASUALTY_ROLL_MODIFIERS.cavalryVsCavalry);
      expect(num(1178, 1178, /\+(\d) for charging unit if attacking the flank/)).toBe(
        CASUALTY_ROLL_MODIFIERS.chargerOnFlank,
      );
      expect(num(1179, 1181, /Add \+(\d) to the die roll if the losing unit was the charging unit/)).toBe(
        MORALE_BONUSES.loserWasCharger,
      );
      expect(num(1161, 1165, /add 2 \(\+(\d)\) to the die roll if the charging unit used both actions/)).toBe(
        CHARGE.infantryChargerBothActionsBonus,
      );
      expect(num(1166, 1168, /stop (\d)” from target/)).toBe(CHARGE.chargerFailedStop);
    });
    it('melee value guide: every range', () => {
      const pairs = span(1225, 1229).flatMap((l) => [...l.matchAll(/([a-z/ ]+?)\s+(\d+)-(\d+)/g)]);
      const want: [string, keyof typeof MELEE_VALUE_GUIDE][] = [
        ['militia/landwher', 'militia'],
        ['light cavalry', 'lightCavalry'],
        ['regulars/line', 'regulars'],
        ['medium cavalry', 'mediumCavalry'],
        ['grenadiers/vets', 'grenadiers'],
        ['heavy cavalry', 'heavyCavalry'],
        ['guards', 'guards'],
        ['guard cavalry', 'guardCavalry'],
        ['foot artillery', 'footArtillery'],
        ['horse artillery', 'horseArtillery'],
      ];
      expect(pairs.map((m) => m[1]!.trim())).toEqual(want.map(([label]) => label));
      pairs.forEach((m, i) => expect([...MELEE_VALUE_GUIDE[want[i]![1]]]).toEqual([Number(m[2]), Number(m[3])]));
    });
    it('modifiers to melee value: every line, then the [p.16] leader bonus', () => {
      const lines = span(1232, 1247);
      const book = MELEE_MODIFIERS.slice(0, -1);
      expect(book.map((r) => r.printed)).toEqual(lines);
      for (const r of book) expect(r.value).toBe(Number(/^([+-]\d+)/.exec(r.printed)![1]));
      expect(FATIGUE_PENALTY.melee).toEqual([0, -5, -10, -15]);
      const leader = MELEE_MODIFIERS.at(-1)!;
      expect(num(1472, 1475, /a bonus of \+(\d+) to their melee value/)).toBe(leader.value);
      expect(leader.value).toBe(LEADER_BONUS.melee);
    });
    it('[p.14] enfilade values and the 2x bonus', () => {
      expect(num(1279, 1279, /For 2 rank infantry = (\d) per figure/)).toBe(ENFILADE_FACTOR.twoRankInfantry);
      expect(num(1280, 1280, /For 3 rank infantry = (\d) per figure/)).toBe(ENFILADE_FACTOR.threeRankInfantry);
      expect(num(1281, 1281, /For artillery = (\d) per actual gun/)).toBe(ENFILADE_FACTOR.artillery);
      expect(num(1282, 1282, /For cavalry = (\d) per figure/)).toBe(ENFILADE_FACTOR.cavalry);
      expect(num(1285, 1285, /\+(\d) melee value bonus to the unit with 2x/)).toBe(
        MELEE_MODIFIERS.find((r) => r.id === 'enfilade')!.value,
      );
      // the book's examples (i)-(iii), digest C-3
      const t = text(1288, 1295);
      expect(enfiladeValue('twoRankInfantry', 10)).toBe(Number(/in line have an enfilade value of (\d+)/.exec(t)![1]));
      expect(enfiladeValue('threeRankInfantry', 4)).toBe(
        Number(/first rank have an enfilade value of (\d+)/.exec(t)![1]),
      );
      expect(enfiladeValue('threeRankInfantry', 9)).toBe(
        Number(/9 figures .* enfilade value of (\d+)\. \(iv\)/.exec(t)![1]),
      );
      expect(hasEnfiladeBonus(24, 12)).toBe(true); // (iv)
    });
    it('[p.14] partial contact, ride-downs, reaction distances, squares', () => {
      expect(num(1262, 1267, /least (1\/2) or more of its own frontage/)).toBe(CHARGE.fullContactFraction);
      expect(num(1268, 1271, /modifier of (-\d+) to its melee value/)).toBe(
        MELEE_MODIFIERS.find((r) => r.id === 'partialContact')!.value,
      );
      expect(num(1306, 1308, /frontage of ([\d.]+) infantry to 1 cavalry/)).toBe(CHARGE.rideDownFrontageRatio);
      expect(text(1308, 1312)).toContain('one figure casualty for every two cavalry figures');
      expect(num(1308, 1312, /defending unit had (\d+) or more figures/)).toBe(
        CHARGE.rideDownCavalryLossIfDefenderFigures,
      );
      expect(num(1330, 1331, /charged within (\d+)” or less/)).toBe(CHARGE.reactionNoChangeMax);
      expect(num(1332, 1334, /charged from (\d+)” or more/)).toBe(CHARGE.reactionBonusMin);
      expect(num(1332, 1334, /get a plus two \(\+(\d)\)/)).toBe(CHARGE.reactionBonus);
      expect(num(1334, 1336, /then add (\d+)” to the total move distance/)).toBe(CHARGE.changedBeforeChargeAdds);
      expect(text(1337, 1340)).toContain('stop two inches from target and go up one fatigue level');
      expect(num(1352, 1356, /squares fire (1\/8) of their figures per side/)).toBe(FIRING.squareFractionPerSide);
      expect(num(1352, 1356, /and so fire (1\/2) of their total figures/)).toBe(FIRING.squareFractionVsCavalry);
      expect(num(1370, 1371, /the (\d+)º front arc/)).toBe(CHARGE.frontArcDeg);
      expect(num(421, 424, /move oblique up to ([\d.]+)°/)).toBe(CHARGE.obliqueMoveDeg);
      expect(num(421, 424, /straight ahead within a (\d+)° angle/)).toBe(CHARGE.chargeAngleDeg);
      expect(num(1399, 1403, /frontage within (\d+) degrees/)).toBe(CHARGE.counterChargeAngleDeg);
      expect(num(572, 574, /only fire up to ([\d.]+)º to/)).toBe(FIRING.arcDeg);
      expect(num(2066, 2069, /more than (\d+) figures/)).toBe(FIRING.defenceFireFrontageException);
    });
    it('[p.15] out-of-control cavalry: every modifier, the 20 and the +3', () => {
      const rows = span(1422, 1428).map((l) => /^([-+/]+)(\d) (?:if )?(.*)$/.exec(l)!);
      const values = rows.map((m) => (m[1] === '-/+' ? [-Number(m[2]), Number(m[2])] : [Number(m[1]! + m[2])]));
      expect(OUT_OF_CONTROL_MODIFIERS.map((r) => [...r.values])).toEqual(values);
      expect(rows.map((m) => m[3])).toEqual([
        'guard cavalry',
        'leader is attached to unit (controllers choice)',
        'Cossacks',
        'the charge was made by out-of-control cavalry',
        'British cavalry',
        'the enemy unit was ridden down',
        'the defending unit was completely destroyed',
      ]);
      expect(num(1417, 1420, /On a (\d+), the unit is out of control/)).toBe(20);
      expect(num(1434, 1437, /an additional \+(\d) morale bonus/)).toBe(OUT_OF_CONTROL_MORALE_BONUS);
    });
  });

  describe('[p.11-12] morale', () => {
    it('basic morale ratings: every row', () => {
      const rows = span(1010, 1013).map((l) => /^(.+?)\s+(\d+)-(\d+)$/.exec(l)!);
      expect(rows.map((m) => m[1])).toEqual(['Militia/Landwher', 'Regulars/Line', 'Grenadiers/Vets', 'Guards']);
      const keys = ['militia', 'regulars', 'grenadiers', 'guards'] as const;
      rows.forEach((m, i) => expect([...BASIC_MORALE[keys[i]!]]).toEqual([Number(m[2]), Number(m[3])]));
    });
    it('morale modifiers: every line, its value', () => {
      const lines = span(1017, 1038);
      expect(MORALE_MODIFIERS.map((r) => r.printed)).toEqual(lines);
      for (const r of MORALE_MODIFIERS) expect(r.value).toBe(Number(/^([+-]\d+)/.exec(r.printed)![1]));
      const v = (id: string) => MORALE_MODIFIERS.find((r) => r.id === id)!.value;
      expect(FATIGUE_PENALTY.morale).toEqual([0, v('fatigued'), v('tired'), v('exhausted')]);
      expect(num(1017, 1017, /units within (\d)”/)).toBe(MORALE_DISTANCES.support);
    });
    it('the D20 test and the step-specific bonuses', () => {
      expect(text(1003, 1008)).toContain('needs to roll the unit’s modified morale number or lower on a D20');
      expect(num(1434, 1437, /\+(\d) morale bonus/)).toBe(MORALE_BONUSES.outOfControlClosing);
      expect(num(950, 953, /receive a (-\d) to their morale checks/)).toBe(MORALE_BONUSES.thresholdFailed);
    });
    it('retreat: reform roll table and modifiers', () => {
      const rows = span(1056, 1059).map(
        (l) => /^Die roll of (\d+)(?:-(\d+)|\+)\s+= (One|Two|Three|Four) Actions?$/.exec(l)!,
      );
      const words = { One: 1, Two: 2, Three: 3, Four: 4 } as const;
      rows.forEach((m, i) => {
        const r = REFORM_TABLE[i]!;
        expect(r.actions).toBe(words[m[3] as keyof typeof words]);
        expect(r.max).toBe(m[2] ? Number(m[2]) : Infinity);
        if (i > 0) expect(r.min).toBe(Number(m[1]));
      });
      expect(REFORM_TABLE[0]!.min).toBe(-Infinity); // the digest's unnumbered ADAPTATION: ≤0 reads 1-2
      expect(num(1060, 1060, /^(-\d) if the unit’s original morale was (?:\d+) or greater/)).toBe(
        REFORM_MODIFIERS.originalMorale20,
      );
      expect(num(1060, 1060, /original morale was (\d+) or greater/)).toBe(20);
      expect(num(1061, 1061, /^\+(\d) to the die roll for cavalry units/)).toBe(REFORM_MODIFIERS.cavalry);
      expect(num(1062, 1062, /^\+(\d) to the die roll if the unit was ridden down/)).toBe(REFORM_MODIFIERS.riddenDown);
      expect(num(1063, 1063, /^\+(\d) for untrained, green, landwehr, or militia/)).toBe(REFORM_MODIFIERS.green);
    });
    it('retreat, rout and surrender distances', () => {
      expect(num(1040, 1042, /requires a (\d)” gap/)).toBe(MORALE_DISTANCES.gap);
      expect(num(1117, 1117, /require a (\d) inch gap/)).toBe(MORALE_DISTANCES.gap);
      expect(num(1120, 1121, /within (\d)” of a/)).toBe(MORALE_DISTANCES.routProximity);
      expect(num(994, 997, /within (\d)” of a friendly unit that was routed/)).toBe(MORALE_DISTANCES.routProximity);
      expect(num(1127, 1129, /within (\d+) inches/)).toBe(MORALE_DISTANCES.surroundThreat);
    });
    it('threshold checks: percentages, pass number, penalty, every modifier, leader influence', () => {
      expect(num(945, 950, /If the number is (\d+)% or more/) / 100).toBe(THRESHOLD.fraction);
      expect(num(950, 951, /passes on a roll of 1 to (\d+)/)).toBe(THRESHOLD.passMax);
      expect(num(957, 957, /passes on a roll of 1 to (\d+)/)).toBe(THRESHOLD.passMax);
      expect(num(951, 953, /receive a (-\d) to their morale checks/)).toBe(THRESHOLD.failMorale);
      const opts = /at (\d+)% or even (\d+)%/.exec(text(963, 965))!;
      expect(opts.slice(1).map((x) => Number(x) / 100)).toEqual([...THRESHOLD.fractionOptions]);
      const mods = span(970, 976).map((l) => Number(/^([+-]\d)/.exec(l)![1]));
      const gd = /\(\+(\d) for Old\/Middle Gd\)/.exec(L(972))!;
      const byId = Object.fromEntries(THRESHOLD_MODIFIERS.map((r) => [r.id, r.value]));
      expect([
        byId.napoleon,
        byId.elite,
        byId.frenchGuard,
        byId.militia,
        byId.spanish,
        byId.outOfCommand,
        byId.leaderLost,
      ]).toEqual(mods);
      expect(byId.oldMiddleGuard).toBe(Number(gd[1]));
      expect(L(969)).toBe('+? for leader influence1.');
      expect(num(980, 981, /may add up to a \+(\d) modifier/)).toBe(THRESHOLD.leaderInfluenceMax);
      expect(byId.leaderInfluence).toBe(THRESHOLD.leaderInfluenceMax);
      expect(text(982, 986)).toContain('Roll a D10 during the threshold roll');
      expect(THRESHOLD.leaderRiskDie).toBe(10);
    });
  });

  describe('[p.10-11] artillery', () => {
    it('rapid fire, howitzers, crews, caissons', () => {
      expect(num(799, 801, /suffers an increase of three \((\d)\) fatigue levels/)).toBe(ARTILLERY.rapidFireFatigue);
      expect(text(799, 802)).toContain('the resulting casualties are doubled');
      expect(text(799, 802)).toContain('must roll double the D6’s');
      expect(num(805, 807, /maximum range of (\d+) inches/)).toBe(HOWITZER.shellMax);
      expect(num(806, 808, /minimum range of (\d+) inches/)).toBe(HOWITZER.shellMin);
      expect(num(809, 811, /the target is within (\d+) to (?:\d+) inches/)).toBe(HOWITZER.shellMin);
      expect(text(810, 812)).toContain('adds two damage points per howitzer');
      expect(HOWITZER.damagePerHowitzer).toBe(2);
      expect(num(816, 817, /which is (\d)”/)).toBe(HOWITZER.canisterRange);
      expect(text(824, 826)).toContain('may add one extra hit');
      expect(text(936, 938)).toContain('it will take two casualties to destroy');
      expect(ARTILLERY.caissonHitsToDestroy).toBe(2);
    });
    it('ammunition: the three levels', () => {
      expect(L(902).split(/\s+/)).toEqual(['Ammo', 'loss', '1st', '“6”', '2nd', '“6”', '3rd', '“6”']);
      expect(L(903)).toBe(`Firing battery  ${AMMO_LEVELS.slice(1).join(' ')}`);
      expect(text(915, 918)).toContain('will run out of ammo after a 2nd “6” is rolled');
      expect(ammoAfter(1, 1, true)).toBe(3);
    });
  });

  describe('[p.3-5] scale, turn, fatigue', () => {
    it('scale and frontages', () => {
      expect(num(95, 95, /approximately (\d+) minutes/)).toBe(SCALE.minutesPerAction);
      expect(/approximately (\d+) to (\d+) soldiers/.exec(L(97))!.slice(1).map(Number)).toEqual([
        ...SCALE.soldiersPerFigure,
      ]);
      expect(num(98, 98, /One inch = (\d+) yards/)).toBe(SCALE.yardsPerInch);
      expect(num(102, 102, /= (1\/2)” per figure/)).toBe(SCALE.frontagePerFigure.twoRankInfantry);
      expect(L(103)).toMatch(/= 3\/8” per figure/);
      expect(SCALE.frontagePerFigure.threeRankInfantry).toBe(3 / 8);
      expect(num(104, 104, /= (3\/4)” per figure/)).toBe(SCALE.frontagePerFigure.cavalry);
      expect(num(105, 105, /= (\d)” per gun model/)).toBe(SCALE.frontagePerFigure.artilleryPerGunModel);
      const t = text(115, 120);
      expect(t).toContain('represents one to three actual field guns');
      expect(artilleryBases(2)).toBe(1); // "A two gun regimental battery would consist of one base"
      expect(artilleryBases(6)).toBe(2); // "a six gun battery would have two bases"
      expect(artilleryBases(8)).toBe(3); // "a battery of eight guns would have three bases"
    });
    it('turn, periods, actions, turn points, ratios', () => {
      expect(num(137, 140, /there are (\d+) actions/)).toBe(TURN.actionsPerTurn);
      expect(num(137, 140, /played out in (\d+) periods/)).toBe(TURN.periodsPerTurn);
      expect(num(137, 140, /(\d+) actions per period/)).toBe(TURN.actionsPerPeriod);
      expect(text(242, 244)).toContain('each side receives twenty turn points');
      expect(TURN.turnPoints).toBe(20);
      expect(text(222, 223)).toContain('Side A must move at least one half (½) of their units');
      const t = text(225, 232);
      expect(t).toContain('side A move three and side D move two');
      expect(t).toContain('side A move four and side D move two');
      expect(t).toContain('side A move five and side D move three');
      expect(ACTIVATION_RATIOS.map((r) => `${r.a}:${r.d}`)).toEqual(['2:1', '3:2', '4:2', '5:3']);
    });
    it('fatigue levels, increases and recovery', () => {
      expect(span(325, 328).map((l) => l.replace(/^\d\) /, ''))).toEqual([...FATIGUE_LEVELS]);
      expect(text(334, 336)).toContain('increased by two');
      expect(FATIGUE_INCREASE.forceMarch).toBe(2);
      expect(text(338, 341)).toContain('fatigue level is increased by one');
      expect(text(343, 345)).toContain('fatigue level is increased by three after firing');
      expect(text(2022, 2026)).toContain('fatigue level is increased by one');
      expect(text(2022, 2026)).toContain('increased by three instead of the normal two');
      expect([FATIGUE_INCREASE.hotBothActions, FATIGUE_INCREASE.forceMarchHot]).toEqual([1, 3]);
      expect(text(355, 358)).toContain('To recover from one fatigue level requires one action of rest');
    });
  });

  describe('[p.16-18] leaders and orders', () => {
    it('leader bonus, command radii, initiative', () => {
      const t = text(1472, 1475);
      expect(
        /bonus of \+(\d) for morale checks \(corps leaders give \+(\d), and army leaders \+(\d)\)/
          .exec(t)!
          .slice(1)
          .map(Number),
      ).toEqual([LEADER_BONUS.morale.division, LEADER_BONUS.morale.corps, LEADER_BONUS.morale.army]);
      expect(num(1481, 1483, /A \+(\d+) melee value instead of \+5/)).toBe(LEADER_BONUS.meleeChargeLeader);
      expect(num(1481, 1483, /maybe a \+(\d) for the more timid/)).toBe(LEADER_BONUS.meleeTimid);
      for (let n = 1525; n <= 1527; n++) {
        const m = /^(Army|Corps|Division)\s+(\d+)-(\d+) inches$/.exec(L(n))!;
        expect([...COMMAND_RADIUS[m[1]!.toLowerCase() as 'army']]).toEqual([Number(m[2]), Number(m[3])]);
      }
      expect(num(1570, 1571, /Basic values are (\d+) for Corps/)).toBe(INITIATIVE.corps);
      expect(num(1570, 1571, /and (\d+) for Divisional leaders/)).toBe(INITIATIVE.division);
    });
    it("leader losses: the book's three brackets", () => {
      const t = text(1486, 1491);
      expect(t).toContain(
        '1 or 2 figure casualties = 1; 3 or 4 figure casualties = 1 or 2; 5 or 6 figures = 1, 2, or 3',
      );
      expect([1, 2, 3, 4, 5, 6].map(leaderLossMaxRoll)).toEqual([1, 1, 2, 2, 3, 3]);
    });
    it('changing orders: every modifier', () => {
      // Read as: one modifier per line opening with its sign; two lines continue the one above.
      const lines = text(1674, 1686);
      const values = span(1674, 1686)
        .filter((l) => /^[+-]\d/.test(l))
        .map((l) => Number(/^([+-]\d)/.exec(l)![1]));
      const napoleon = Number(/\((-\d) if Napoleon is Army commander\)/.exec(lines)![1]);
      const ours = ORDER_CHANGE_MODIFIERS.filter((r) => r.id !== 'frenchWithNapoleon').map((r) => r.value);
      expect(ours).toEqual(values);
      expect(ORDER_CHANGE_MODIFIERS.find((r) => r.id === 'frenchWithNapoleon')!.value).toBe(napoleon);
      expect(text(1669, 1672)).toContain('A total result of one or less equals the next period');
    });
    it('misinterpreted orders: every cell, and the 19-20', () => {
      expect(L(1700)).toBe('Original Order 1 2 3 4 5 6');
      const rows = span(1701, 1706).map((l) => l.split(/\s+/));
      expect(rows.map((r) => r[0])).toEqual(Object.keys(MISREAD_TABLE));
      for (const [order, ...cells] of rows) expect(MISREAD_TABLE[order as Order]).toEqual(cells);
      expect(num(1690, 1691, /On a die roll of (\d+) or 20/)).toBe(MISREAD.min);
      expect(num(1691, 1693, /add \+(\d) to this die roll for poor officers/)).toBe(MISREAD.poorOfficer);
      expect(num(1691, 1693, /and \+(\d) for exceptionally bad/)).toBe(MISREAD.veryBadOfficer);
    });
  });

  describe('[p.18-20] skirmishers, buildings, fires, weather, visibility, smoke', () => {
    it('skirmish screens', () => {
      expect(num(1793, 1796, /frontage of (\d)” per figure/)).toBe(SKIRMISH.frontagePerFigure);
      expect(text(1794, 1796)).toContain('a skirmish screen of 12 figures must have a frontage of no less than 24”');
      expect(text(1812, 1815)).toContain('must stop one inch from formed enemy units and other enemy skirmishers');
      expect(SKIRMISH.standOff).toBe(1);
      expect(num(1826, 1828, /(1\/4) \(25%\) of the/)).toBe(FIRING.interveningScreenShare);
    });
    it('building blocks, building fights, firing out', () => {
      expect(num(1877, 1877, /represented by (\d)” gray/)).toBe(BUILDINGS.blockSize);
      expect(text(1882, 1884)).toContain('a maximum of twelve figures per block (eight being ideal for flexibility)');
      expect([BUILDINGS.maxFigures, BUILDINGS.idealFigures]).toEqual([12, 8]);
      expect(text(1895, 1896)).toContain('no more then six figures total may attack one side');
      expect(BUILDINGS.maxAttackersPerSide).toBe(6);
      const mods = span(1900, 1907).map((l) => Number(/^([+-]\d)/.exec(l)![1]));
      expect(BUILDING_FIGHT_MODIFIERS.map((r) => r.value)).toEqual(mods);
      expect(text(1909, 1910)).toContain('rolled a 6 (unmodified) the opposing player looses two figures');
      expect(text(1931, 1934)).toContain('If a block contains eight or more figures');
      expect(num(1931, 1934, /within (\d)”/)).toBe(BUILDINGS.fireOutRange);
      expect(text(1931, 1934)).toContain('a roll of six on one D6 is needed to inflict two figure casualties');
    });
    it('fires: starting, extinguishing, accumulating and spreading', () => {
      expect(L(1956).split(/\s+/)).toEqual(['Shell', 'Incendiary', 'Rockets', 'Sappers', 'Soldiers']);
      expect(L(1957).split(/\s+/)).toEqual(Object.values(FIRE_START).map((b) => b.label));
      for (const b of Object.values(FIRE_START)) {
        const [lo, hi] = b.label.split('-').map(Number);
        expect([b.min, b.max]).toEqual([lo, hi ?? lo]);
      }
      expect(num(1962, 1963, /^(-\d) to the die roll if most of the buildings/)).toBe(FIRES.brickOrStone);
      expect(L(1988)).toBe('Sappers All others');
      expect(L(1989).split(/\s+/)).toEqual([FIRES.extinguish.sappers.label, FIRES.extinguish.others.label]);
      expect(L(1995).split(/\s+/)).toEqual([FIRES.accumulate.label, FIRES.accumulateAndSpread.label]);
      expect(text(1949, 1954)).toContain('The maximum number of fires that can exist in a block is four');
      expect(text(1949, 1954)).toContain('when three fires are present in a block, no troops can enter');
      expect(text(1945, 1947)).toContain('for every two figures in a block');
      expect(text(1970, 1973)).toContain('one D20 for every four figures');
    });
    it('visibility: every distance and multiplier', () => {
      const d = span(2030, 2034).map((l) => Number(/at (\d+)”/.exec(l)![1]));
      expect(d).toEqual([
        VISIBILITY.largeMasses,
        VISIBILITY.formations,
        VISIBILITY.infantryFromCavalry,
        VISIBILITY.unitTypes,
        VISIBILITY.fullIdentity,
      ]);
      expect(num(2035, 2036, /may add (\d+)”/)).toBe(VISIBILITY.spyglass);
      const m = span(2039, 2043).map((l) => l.replace(/^♦ /, ''));
      expect(m).toEqual([
        'light rain and snow = ½ visibility distance',
        'heavy rain and snow = ¼ visibility distance',
        'fog = ¼ or less visibility distance',
        'haze, mist = ½ to ¾ visibility distance',
        'light haze = ¾',
      ]);
      expect(VISIBILITY_MULTIPLIER).toEqual({
        lightRainOrSnow: [0.5, 0.5],
        heavyRainOrSnow: [0.25, 0.25],
        fog: [0, 0.25],
        hazeOrMist: [0.5, 0.75],
        lightHaze: [0.75, 0.75],
      });
    });
    it('smoke and the second bounce', () => {
      expect(text(2052, 2053)).toContain('fires for two consecutive actions');
      expect(SMOKE.consecutiveFireActions).toBe(2);
      expect(text(2192, 2193)).toContain('This second bounce is half the length of the first bounce');
      expect(secondBounceZone(8)).toEqual({ from: 12, to: 16 });
    });
  });
});

describe('lookups at the edges', () => {
  it('range bands: each limit is in its band, just past it the next; beyond extreme null', () => {
    expect([0, 2, 2.01, 4, 4.01, 6, 6.01, 8, 8.01].map((r) => rangeBand('musket', r))).toEqual([
      'close',
      'close',
      'medium',
      'medium',
      'long',
      'long',
      'extreme',
      'extreme',
      null,
    ]);
    expect([4, 4.1, 12, 12.1].map((r) => rangeBand('rifle', r))).toEqual(['close', 'medium', 'extreme', null]);
    expect([3, 4, 4.01].map((r) => rangeBand('carbine', r))).toEqual(['medium', 'long', null]);
    expect([10, 10.1, 20, 40, 64, 64.1].map((r) => rangeBand('12lb', r))).toEqual([
      'close',
      'medium',
      'medium',
      'long',
      'extreme',
      null,
    ]);
    expect([6, 6.1, 36, 36.1].map((r) => rangeBand('2-3lb', r))).toEqual(['close', 'medium', 'extreme', null]);
    expect(() => rangeBand('musket', -1)).toThrow(RangeError);
  });
  it('musket table: columns at the edges, rows between and beyond the table (A-41)', () => {
    expect([-9, -5, -4, -3, -2, -1, 0, 3, 4, 8, 9, 11, 12, 30].map(musketTableColumn)).toEqual([
      null,
      null,
      0,
      1,
      2,
      2,
      3,
      6,
      6,
      10,
      10,
      12,
      13,
      13,
    ]);
    expect([0, 1, 2, 3, 5, 6, 10, 18, 48, 50, 60].map(musketRowFigures)).toEqual([
      0, 0, 4, 4, 4, 8, 12, 20, 48, 52, 60,
    ]);
    expect(musketFireCasualties(1, 12)).toBe(0);
    expect(musketFireCasualties(48, -5)).toBe(0);
    expect(musketFireCasualties(48, -4)).toBe(2);
    expect(musketFireCasualties(96, 12)).toBe(2 * (Math.floor((14 - (10 - 24)) / 5) + 1));
    expect(() => musketFireCasualties(20, 2.5)).toThrow(RangeError);
  });
  it('casualty chart: roll clamped to 1..7, figures 0 read the 1-2 column', () => {
    expect([-2, 0, 1, 7, 8, 9].map((r) => closeActionCasualties(r, 9))).toEqual([2, 2, 2, 6, 6, 6]);
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 40].map((f) => closeActionCasualties(5, f))).toEqual([
      2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 4,
    ]);
  });
  it('facing changes at each bracket edge', () => {
    expect([0, 10, 10.5, 45, 46, 90, 91].map((d) => facingChangeCost('line', d))).toEqual([0, 0, 1, 1, 2, 2, null]);
    expect([10, 45, 90, 135, 136].map((d) => facingChangeCost('column', d))).toEqual([0, 0.5, 1, 2, null]);
    expect([-45, 46].map((d) => facingChangeCost('echelon', d))).toEqual([1, null]);
  });
  it('fatigue clamps at Normal and Exhausted (A-5)', () => {
    expect(fatigueAfter(2, 2)).toBe(3);
    expect(fatigueAfter(0, -1)).toBe(0);
    expect(fatigueAfter(1, FATIGUE_INCREASE.rapidFire)).toBe(3);
  });
  it('melee value floor (A-62) and retreat status replacing disordered', () => {
    const base: MeleeInput = {
      base: 30,
      squareVsInfantry: false,
      higherGround: false,
      behind: 'none',
      echelonVsCavalry: false,
      lightOrMediumVsHeavy: false,
      partialContact: false,
      disordered: false,
      roadColumn: false,
      retreatStatus: false,
      fatigue: 0,
      enfilade: false,
      arc: 'front',
      leaderBonus: 0,
    };
    expect(meleeValue({ ...base, retreatStatus: true, disordered: true })).toBe(10);
    expect(meleeValue({ ...base, retreatStatus: true, roadColumn: true, fatigue: 3 })).toBe(5);
    expect(meleeValue({ ...base, arc: 'flankRear', leaderBonus: 5, enfilade: true })).toBe(55);
  });
  it('morale, reform, orders, leaders, threshold at their edges', () => {
    expect([moralePasses(12, 12), moralePasses(13, 12)]).toEqual([true, false]);
    const m12 = moraleCheckDist(12);
    expect(m12.map((x) => x.value)).toEqual(['pass', 'fail']);
    expect(m12[0]!.p).toBeCloseTo(12 / 20, 12);
    expect(moraleCheckDist(25).map((x) => x.value)).toEqual(['pass']);
    expect(moraleCheckDist(0).map((x) => x.value)).toEqual(['fail']);
    expect([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8].map(reformActions)).toEqual([1, 1, 1, 1, 2, 2, 3, 3, 4, 4]);
    expect([orderDelay(1, -4), orderDelay(2, -1), orderDelay(3, 0)]).toEqual([1, 1, 3]);
    expect([0, 1, 19, 20, 30].map(leaderLossMaxRoll)).toEqual([0, 1, 10, 10, 10]);
    expect(leaderLost(1, 0)).toBe(false);
    expect([thresholdDue(4, 10), thresholdDue(5, 10), thresholdDue(4, 10, 0.4), thresholdDue(0, 0)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect([thresholdPasses(8, 0), thresholdPasses(9, 0), thresholdPasses(14, 6)]).toEqual([true, false, true]);
    expect([outnumberedModifier(10, 19), outnumberedModifier(10, 20), outnumberedModifier(10, 30)]).toEqual([
      0, -2, -3,
    ]);
    expect([casualtyMoraleModifier(24, 24), casualtyMoraleModifier(24, 23), casualtyMoraleModifier(24, 12)]).toEqual([
      0, 0, -6,
    ]);
    expect(() => misreadOrder('Attack', 7)).toThrow(RangeError);
  });
  it('artillery helpers at the edges', () => {
    expect([15.9, 16, 40, 40.1].map((r) => howitzerDamageBonus(2, r))).toEqual([0, 4, 4, 0]);
    expect([6, 6.1].map((r) => canisterGuns(6, 2, r))).toEqual([8, 6]);
    expect([ammoDice(1, false), ammoDice(2, false), ammoDice(1, true), ammoDice(2, true)]).toEqual([1, 2, 2, 4]);
    expect([ammoAfter(0, 1, false), ammoAfter(2, 1, false), ammoAfter(3, 2, false), ammoAfter(0, 1, true)]).toEqual([
      1, 3, 3, 1,
    ]);
    expect(solidShotHitFaces('B', 'close')).toEqual([]);
    expect(solidShotHitFaces('B', 'extreme', 'extremeBlank')).toEqual([]);
    expect(solidShotHitFaces('E', 'medium')).toEqual([4, 5, 6]); // C/D/E read the B row
    expect(solidShotHitFaces('A', 'extreme', 'closeIsCanister', true)).toEqual([6]); // smoke −1 on the die
    expect(solidShotHitFaces('B', 'extreme', 'closeIsCanister', true)).toEqual([]);
    expect(() => solidShotCasualties(9)).toThrow(RangeError);
    expect(
      solidShotDamagePerHit({
        cannons: 6,
        howitzerBonus: 0,
        target: 'skirmishers',
        inWoodsOrBuildings: false,
        dense: true,
      }),
    ).toBe(0);
    expect(bounce('8-9lb', 'long')).toBe(8);
    expect([terrainMultiplier([], 'cavalry'), terrainMultiplier(['steepSlope', 'lightWoods'], 'cavalry')]).toEqual([
      1, 0.5,
    ]);
    expect(buildingSuperiority(4, 2)).toBe(1);
    expect([
      buildingSuperiority(5, 2),
      buildingSuperiority(6, 2),
      buildingSuperiority(8, 2),
      buildingSuperiority(3, 0),
    ]).toEqual([1, 2, 3, 3]);
    expect([fireGrowth(13), fireGrowth(14), fireGrowth(18), fireGrowth(19)]).toEqual([
      'none',
      'accumulate',
      'accumulate',
      'accumulateAndSpread',
    ]);
    expect([
      fireStarts('soldiers', 20, false),
      fireStarts('soldiers', 20, true),
      fireStarts('rockets', 4, false),
    ]).toEqual([true, false, true]);
    expect(influenceCostsLeader(1, 0)).toBe(false);
    expect(neutralisedAtHits(8, false)).toBe(8);
    expect(refusedFlankFigures(25)).toBe(7);
    expect(interveningScreenSplit(20)).toEqual({ atScreen: 5, atTarget: 15 });
    expect(interveningScreenSplit(18)).toEqual({ atScreen: 5, atTarget: 13 });
  });
  it('distributions sum to 1 and match the table', () => {
    expect(musketFireDist(20, 0).map((x) => x.value)).toEqual([2]);
    expect(musketFireDist(20, 0)[0]!.p).toBeCloseTo(1, 12);
    const d = musketFireDist(20, -5);
    expect(d.map((x) => x.value)).toEqual([0, 2]);
    expect(d[0]!.p).toBeCloseTo(5 / 6, 12);
    const c = closeActionCasualtiesDist(10, 1);
    expect(c.reduce((s, x) => s + x.p, 0)).toBeCloseTo(1, 12);
    expect(c.map((x) => x.value)).toEqual([2, 4, 6]);
    expect(solidShotCasualtiesDist(3).map((x) => [x.value, x.p])).toEqual([
      [0, 0.5],
      [1, 0.5],
    ]);
    expect(solidShotCasualtiesDist(24)).toEqual([{ value: 4, p: 1 }]);
  });
  it('every reading is recorded', () => {
    expect(BOOK_READINGS.length).toBeGreaterThanOrEqual(8);
    expect(parseRating('B16C30')).toEqual({ move: 'B', morale: 16, fire: 'C', melee: 30 });
    expect(parseRating('A17R45').fire).toBe('R');
    expect(() => parseRating('D16C30')).toThrow(RangeError);
    expect(() => parseRating('B16F30')).toThrow(RangeError);
  });
});

describe('digest §9 test vectors that touch the tables', () => {
  const fire = (o: Partial<FireModifierInput>) =>
    fireModifier({
      fire: 'C',
      twoRank: false,
      fatigue: 0,
      firerIsSkirmishScreen: false,
      canister: null,
      band: 'close',
      target: 'formed',
      cover: 'none',
      organicSkirmishers: false,
      weather: 'clear',
      throughSmoke: false,
      ...o,
    });

  it('§9.1 F-1, F-2 (book p.8): 20 and 40 figures at modified 4', () => {
    const mod = fire({ fatigue: 1, band: rangeBand('musket', 4)!, target: 'columnOrSquare' });
    expect(mod).toBe(0);
    expect(musketFireCasualties(20, 4 + mod)).toBe(2);
    expect(musketFireCasualties(40, 4 + mod)).toBe(4);
    // the book's own example text
    expect(text(651, 658)).toContain(
      'The resulting number is 4. Reference this with 20 figures to reveal that 2 figure',
    );
    expect(text(661, 668)).toContain('Reference this with 40 figures (2 actions x 20 figs) to reveal that 4 figure');
  });
  it('§9.1 F-3 … F-7', () => {
    expect(musketFireCasualties(4, 12)).toBe(2); // F-3
    for (const row of MUSKET_TABLE.keys()) expect(musketFireCasualties(row, -5)).toBe(0); // F-4
    expect([
      musketFireCasualties(48, -2),
      musketFireCasualties(36, -4),
      musketFireCasualties(32, -4),
      musketFireCasualties(8, 11),
    ]).toEqual([4, 2, 0, 4]); // F-5
    expect(musketFireCasualties(18, 1)).toBe(2); // F-6 (A-41: row 20)
    expect(musketFireCasualties(60, 1)).toBe(6); // F-7 (A-41 closed form)
  });
  it('§9.1 F-8, F-9, F-10, F-12', () => {
    const f8 = fire({ fire: 'A', twoRank: true, band: rangeBand('musket', 2)!, target: 'columnOrSquare' });
    expect(musketFireCasualties(24, 6 + f8)).toBe(6); // 6 + 2 + 2 + 2 = 12
    const f9 = fire({ fire: 'R', band: rangeBand('rifle', 7)!, target: 'skirmishers' });
    expect([5 + f9, musketFireCasualties(12, 5 + f9)]).toEqual([0, 0]);
    expect(interveningScreenSplit(20)).toEqual({ atScreen: 5, atTarget: 15 }); // F-10
    expect(musketRowFigures(15)).toBe(16);
    expect(24 * FIRING.squareFractionVsCavalry).toBe(12); // F-12
  });
  it('§9.2 A-1, A-8, A-9: canister rows', () => {
    expect([canisterRowFigures(6, 1), canisterRowFigures(6, 2)]).toEqual([12, 24]); // A-1 (book p.8)
    expect(text(676, 682)).toContain('(6 guns equals the 12 row)');
    const a8 = 3 + fire({ fire: 'B', canister: '6lb' });
    expect(a8).toBe(8);
    expect(musketFireCasualties(canisterRowFigures(6, 1), a8)).toBe(2);
    expect(musketFireCasualties(canisterRowFigures(6, 2), a8)).toBe(4);
    expect(musketFireCasualties(canisterRowFigures(6, 1), a8) * ARTILLERY.rapidFireCasualtyMultiplier).toBe(4);
    expect(fatigueAfter(0, ARTILLERY.rapidFireFatigue)).toBe(3);
    expect(ammoDice(1, true)).toBe(2);
    expect(canisterRowFigures(canisterGuns(6, 2, 5), 1)).toBe(16);
    expect(canisterGuns(6, 2, 7)).toBe(6);
    expect(rangeBand('12lb', 7)).toBe('close');
  });
  it('§9.2 A-2 (book p.9), A-3, A-4, A-5: solid shot', () => {
    // French 12lb, 6 cannons + 2 howitzers, B, 2 actions, line at 14" (medium, bounce 10), column at 18"
    expect(rangeBand('12lb', 14)).toBe('medium');
    expect(bounce('12lb', 'medium')).toBe(10);
    const hits = (dice: number[]) => dice.filter((d) => solidShotHitFaces('B', 'medium').includes(d)).length;
    for (const t of ['closeIsCanister', 'extremeBlank'] as const) {
      expect(solidShotHitFaces('B', 'medium', t).includes(5) && !solidShotHitFaces('B', 'medium', t).includes(2)).toBe(
        true,
      );
    }
    expect([hits([5, 2]), hits([6, 5])]).toEqual([1, 2]);
    const bonus = howitzerDamageBonus(2, 14);
    expect(bonus).toBe(0);
    const line = solidShotDamagePerHit({
      cannons: 6,
      howitzerBonus: bonus,
      target: 'troops',
      inWoodsOrBuildings: false,
      dense: false,
    });
    const col = solidShotDamagePerHit({
      cannons: 6,
      howitzerBonus: 0,
      target: 'troops',
      inWoodsOrBuildings: false,
      dense: true,
    });
    expect([solidShotCasualties(1 * line), solidShotCasualties(2 * col)]).toEqual([1, 4]);
    expect(text(714, 724)).toContain('24 damage points total, which means four figures are casualties (24 ÷ 6 = 4)');
    expect(DAMAGE_PER_CASUALTY).toBe(6);
    // 3 damage points: D6 1-3 → 1
    expect([1, 2, 3, 4, 5, 6].map((f) => solidShotCasualties(3, f))).toEqual([1, 1, 1, 0, 0, 0]);
    // A-4: single column at 18", 1 hit: (6 + 2×2) × 2 = 20 → 3 + fraction 2
    const a4 = solidShotDamagePerHit({
      cannons: 6,
      howitzerBonus: howitzerDamageBonus(2, 18),
      target: 'troops',
      inWoodsOrBuildings: false,
      dense: true,
    });
    expect(a4).toBe(20);
    expect([solidShotCasualties(a4, 2), solidShotCasualties(a4, 3)]).toEqual([4, 3]);
    // at unlimbered artillery, 1 hit: 6 − 4 = 2 → D6 ≤ 2
    const a5 = solidShotDamagePerHit({
      cannons: 6,
      howitzerBonus: 0,
      target: 'unlimberedArtillery',
      inWoodsOrBuildings: false,
      dense: false,
    });
    expect([a5, solidShotCasualties(a5, 2), solidShotCasualties(a5, 3)]).toEqual([2, 1, 0]);
    expect(MORALE_MODIFIERS.find((r) => r.id === 'artilleryFiredOnByArtillery')!.value).toBe(2);
  });
  it('§9.2 A-10, A-11, A-12, A-15', () => {
    expect([2, 6, 8].map(artilleryBases)).toEqual([1, 2, 3]);
    expect([neutralisedAtHits(8, false), neutralisedAtHits(6, false), neutralisedAtHits(6, true)]).toEqual([8, 6, 7]);
    expect([ammoAfter(0, 1, false), ammoAfter(1, 1, false), ammoAfter(2, 1, false)]).toEqual([1, 2, 3]);
    expect(AMMO_LEVELS[3]).toBe('Out of ammo');
    expect(ammoAfter(1, 1, true)).toBe(3); // regimental: out at the 2nd six
    expect(ammoDice(2, true)).toBe(4);
  });
  it('§9.3 M-1, M-5, M-7, M-8, M-12', () => {
    expect([INFANTRY_MOVE.A.line, INFANTRY_MOVE.B.line, INFANTRY_MOVE.C.line]).toEqual([6, 4, 2]);
    expect([INFANTRY_MOVE.A.square, INFANTRY_MOVE.B.square, INFANTRY_MOVE.C.square]).toEqual([2, 1, null]);
    expect([CAVALRY_MOVE.A.line, CAVALRY_MOVE.B.line, CAVALRY_MOVE.C.line, CAVALRY_MOVE.B.column]).toEqual([
      8, 6, 4, 9,
    ]);
    expect([artilleryFieldMove(artilleryMoveRow('foot', '12lb'), 'A'), artilleryFieldMove('foot12', 'B')]).toEqual([
      6, 4,
    ]);
    expect(ARTILLERY_MOVE.foot12.prolong).toBe(1);
    expect(artilleryMoveRow('foot', '4lb')).toBe('foot3to6');
    expect(artilleryMoveRow('horse', '2-3lb')).toBe('horse3to6');
    expect(artilleryFieldMove('foot3to6', 'C')).toBe(6); // C uses the B column
    expect([facingChangeCost('line', 60), facingChangeCost('column', 60), facingChangeCost('column', 100)]).toEqual([
      2, 1, 2,
    ]); // M-5
    expect(facingChangeCost('column', 140)).toBeNull();
    expect(refusedFlankFigures(24)).toBe(6); // M-7
    // M-8: force march from Normal → Tired; Fatigued → Exhausted; hot from Normal → Exhausted
    expect(fatigueAfter(0, FATIGUE_INCREASE.forceMarch)).toBe(2);
    expect(fatigueAfter(1, FATIGUE_INCREASE.forceMarch)).toBe(3);
    expect(fatigueAfter(0, FATIGUE_INCREASE.forceMarchHot)).toBe(3);
    expect(INFANTRY_MOVE.B.column * TERRAIN_MOVE.lightWoods.infantry).toBe(6); // M-12
    expect(CAVALRY_MOVE.A.column * TERRAIN_MOVE.lightWoods.cavalry).toBe(4.5);
  });
  it('§9.4 C-1 (book p.13): melee totals with enfilade and flank', () => {
    const t = text(1203, 1212);
    const mv = (o: Partial<MeleeInput>) =>
      meleeValue({
        base: 40,
        squareVsInfantry: false,
        higherGround: false,
        behind: 'none',
        echelonVsCavalry: false,
        lightOrMediumVsHeavy: false,
        partialContact: false,
        disordered: false,
        roadColumn: false,
        retreatStatus: false,
        fatigue: 0,
        enfilade: false,
        arc: 'front',
        leaderBonus: 0,
        ...o,
      });
    expect([4 * mv({ enfilade: true }), 2 * mv({ arc: 'flankSide' }), 3 * mv({})]).toEqual([180, 100, 120]);
    expect(t).toContain('P1 rolls a 4 which gives a total of 180 (4x45=180)');
    expect(t).toContain('P2 rolls a 2 which gives a total of 100 (2x50=100)');
    // C-19: light cavalry MV 35, Tired, vs heavy cavalry
    expect(mv({ base: 35, lightOrMediumVsHeavy: true, fatigue: 2 })).toBe(20);
  });
  it('§9.4 C-4, C-5, C-6: casualty chart', () => {
    expect(closeActionCasualties(5 + CASUALTY_ROLL_MODIFIERS.winner, 10)).toBe(6);
    expect(
      closeActionCasualties(6 + CASUALTY_ROLL_MODIFIERS.winner + CASUALTY_ROLL_MODIFIERS.cavalryVsCavalry, 4),
    ).toBe(4);
    expect(closeActionCasualties(4, 2)).toBe(0);
  });
  it('§9.4 C-11, C-12, C-13: cavalry reaction, ride-down', () => {
    expect(cavalryReaction(9, false)).toEqual({ distance: 9, changesAllowed: false, bonus: 0 });
    expect(cavalryReaction(9, true)).toEqual({ distance: 19, changesAllowed: true, bonus: 2 });
    expect(cavalryReaction(12, false)).toEqual({ distance: 12, changesAllowed: true, bonus: 0 });
    expect(cavalryReaction(6, true)).toEqual({ distance: 16, changesAllowed: true, bonus: 2 });
    expect(cavalryReaction(10, false).changesAllowed).toBe(false);
    expect(rideDownCasualties(12, 18)).toEqual({ inflicted: 6, suffered: 1 }); // C-12
    expect(rideDownCasualties(13, 5)).toEqual({ inflicted: 6, suffered: 0 });
    expect([lineHoldsAgainstCavalry(18, 12), lineHoldsAgainstCavalry(17, 12)]).toEqual([true, false]); // C-13
    expect(MORALE_MODIFIERS.find((r) => r.id === 'riddenDown')!.value).toBe(-1);
  });
  it('§9.4 C-18: out of control', () => {
    expect(outOfControl(18, 2)).toBe(true);
    expect(outOfControl(18, 1)).toBe(false);
    expect(OUT_OF_CONTROL_CHARGE).toBe(16);
  });
  it('§9.5 R-1 … R-6: recovery actions and modified morale', () => {
    expect(retreatActions(26, false) + reformActions(3)).toBe(5); // R-1 (book p.12)
    expect(text(1073, 1077)).toContain(
      'moves the unit 26” (26/10 = 3 actions) to a recovery area and rolled a 3 (2 actions)',
    );
    expect(retreatActions(0, false) + reformActions(5)).toBe(3);
    expect(retreatActions(30, true) + reformActions(6 + REFORM_MODIFIERS.cavalry)).toBe(7);
    expect(retreatActions(10, false) + reformActions(1 + REFORM_MODIFIERS.originalMorale20)).toBe(2);
    const v = (id: string) => MORALE_MODIFIERS.find((r) => r.id === id)!.value;
    expect(16 + casualtyMoraleModifier(24, 19) + v('fatigued') + v('supported') + v('firedOnFlank')).toBe(12);
    expect(18 + casualtyMoraleModifier(24, 11)).toBe(9);
  });
  it('§9.5 R-9, R-10, R-11, R-12: threshold, leader influence, leader loss, leader bonus', () => {
    expect(thresholdDue(5, 10)).toBe(true);
    expect([thresholdPasses(8, 0), thresholdPasses(9, 0), thresholdPasses(9, 1)]).toEqual([true, false, true]);
    expect([1, 4, 5].map((d) => influenceCostsLeader(d, 4))).toEqual([true, true, false]); // R-10 (book p.11)
    expect([1, 2, 3, 4, 5, 6, 7].map(leaderLossMaxRoll)).toEqual([1, 1, 2, 2, 3, 3, 4]);
    expect([leaderLost(1, 2), leaderLost(2, 2), leaderLost(4, 7), leaderLost(5, 7)]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect([
      LEADER_BONUS.morale.division,
      LEADER_BONUS.melee,
      LEADER_BONUS.morale.corps,
      LEADER_BONUS.morale.army,
    ]).toEqual([1, 5, 2, 3]);
  });
  it('§9.6 S-1, S-6, S-7, S-8, S-9: turn points and orders', () => {
    expect(TURN.turnPoints).toBe(20);
    const m = (id: string) => ORDER_CHANGE_MODIFIERS.find((r) => r.id === id)!.value;
    expect(orderDelay(3, m('french') + Math.floor(26 / 12) * m('per12Inches') + m('enemyWithin12OrCommitted'))).toBe(5);
    expect(orderDelay(2, m('cavalryDivision') + m('leadersTouching'))).toBe(1);
    expect(misreadOrder('Attack', 2)).toBe('M'); // S-8
    expect(Object.values(MISREAD_TABLE).map((r) => r.join(' '))).toEqual([
      'W M D D D D',
      'W M A A A A',
      'D D D M A A',
      'M M D D D A',
      'W D D D A A',
      'W W M M A A',
    ]); // S-9
  });
  it('§9.7 B-1, B-3, B-4, B-5, B-6', () => {
    const def =
      3 + BUILDING_FIGHT_MODIFIERS.find((r) => r.id === 'defenderInBuilding')!.value + buildingSuperiority(12, 6);
    expect([def, 4 + buildingSuperiority(6, 12)]).toEqual([5, 4]); // B-1: the defender holds
    expect([8 >= BUILDINGS.fireOutMinFigures, 7 >= BUILDINGS.fireOutMinFigures]).toEqual([true, false]); // B-3
    expect(BUILDINGS.fireOutCasualties).toBe(2);
    expect(BUILDINGS.fireInModifier).toBe(-5); // B-4
    expect([fireStarts('shell', 17, true), fireStarts('shell', 17, false)]).toEqual([false, true]); // B-5
    expect([fireGrowth(15), fireGrowth(19)]).toEqual(['accumulate', 'accumulateAndSpread']); // B-6
    expect([FIRES.noEntryAt, FIRES.maxPerBlock]).toEqual([3, 4]); // B-8
  });
  it('§6.3.1 rates not in §9: leaders 20" in step 8 (A-21), skirmish screens, retreats', () => {
    expect(OTHER_MOVES.leaderPerAction * 2).toBe(TURN.leaderMoveStep8);
    expect(SKIRMISH.move).toBe(8);
    expect(RETREAT_INCHES_PER_ACTION).toEqual({ infantryOrFootArtillery: 10, cavalryOrHorseArtillery: 12 });
    expect(CAVALRY_CHARGE).toEqual({ light: 14, medium: 13, heavy: 12 });
  });
  it('§6.4.6 firer, range and target modifiers combine (A-42: one cover modifier; weather not on canister)', () => {
    expect(fire({ cover: 'buildings' })).toBe(-5);
    expect(fire({ weather: 'heavyRain', canister: '12lb' })).toBe(6);
    expect(fire({ weather: 'heavyRain' })).toBe(-3);
    expect(fire({ target: 'skirmishers', canister: '4lb' })).toBe(3 - 4);
    expect(
      fire({
        fire: 'E',
        fatigue: 3,
        band: 'extreme',
        firerIsSkirmishScreen: true,
        throughSmoke: true,
        organicSkirmishers: true,
      }),
    ).toBe(-2 - 3 - 5 - 1 - 2 - 1);
    expect(fire({ target: 'limberedArtillery', band: 'long', twoRank: true })).toBe(-1 - 3 + 2);
  });
});
