/**
 * The tables of Charge! Eagles Rising checked cell by cell against the quick-reference sheets' text kept in
 * test/data/charge-eagles-rising-tables.txt (verbatim seed lines, each prefixed with its seed line number), then
 * against the digest's §10 vectors that are pure table lookups, and at the lookups' edges. Each table is parsed from
 * its seed lines (found by number and checked by pattern): the sheets are tab-separated, one table row a line, so a
 * row's cells are its tab-separated pieces. A mistyped cell in tables.ts fails here.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ABOVE_TEN,
  ARRIVAL_LEADER_FILLED,
  ARRIVAL_LEADER_QUALITY,
  ARRIVAL_ME_QUALITY,
  ARRIVAL_ME_QUALITY_PRINTED,
  ARRIVAL_TABLE,
  ARTILLERY_CAC_VALUE,
  ARTILLERY_DICE,
  ARTILLERY_MODIFIERS,
  ARTILLERY_RANGES,
  BASE_TO_HIT,
  CAC_BANDS,
  CAC_LOSERS,
  CAC_MODIFIERS,
  CAC_RESULTS,
  CAC_RULES,
  CAC_VALUE,
  CAC_VALUE_PRINTED,
  CAVALRY_FALL_BACK,
  CAVALRY_RESULTS,
  type CacCell,
  type CacLoser,
  CHARGED_PER_CROSSING,
  COMMAND_RANGE,
  type ClassRow,
  INFANTRY_RESULTS,
  INITIATIVE_MODIFIERS,
  LEADER_CASUALTY_TABLE,
  LEADER_CHECKS,
  MARKERS,
  MINUS_SIGNS_RESTORED,
  MORALE_EFFECTS,
  MORALE_LEADER_DRM,
  MORALE_RESULTS,
  MORALE_TABLE,
  MORALE_UNIT_DRM,
  MORALE_UNIT_DRM_PRINTED,
  MOVEMENT,
  MOVEMENT_NOTES,
  ORDER_MODIFIERS,
  ORDER_RATING,
  ORDER_TYPES,
  RANGE_BONUS,
  REPLACEMENT_TABLE,
  SEQUENCE_DISTANCES,
  SKILL_FAILURE,
  SKILL_MODIFIERS,
  SKILL_NUMBER,
  SKILL_NUMBER_PRINTED,
  SKILL_TEST_TRIGGERS,
  SKIRMISH_COLUMNS,
  SKIRMISH_HITS_TO_EFFECT,
  SKIRMISH_RULES,
  SKIRMISH_TABLE,
  SMALL_ARMS_MODIFIERS,
  SMALL_ARMS_RANGES,
  SOLID_SQUARE_MARGIN,
  SQUARE_TABLE,
  TERRAIN,
  TERRAIN_CHARGE_AUTO_DISORDER,
  THREAT_ZONE,
  TIE_INFANTRY,
  TURN_SEQUENCE,
  UNIT_CLASSES,
  type UnitClass,
  acceptanceNumber,
  arrivalDist,
  arrivalModifier,
  arrives,
  artilleryDice,
  artilleryRangeBand,
  artilleryToHit,
  cacBand,
  cacResult,
  cacRoll,
  cacRollDist,
  cacTotalModifier,
  cacWinnerKia,
  cavalryWinRow,
  commandRange,
  crewClass,
  dieHits,
  fireHitsDist,
  greaterNumberModifier,
  hitChance,
  infantryResultRow,
  initiativeDist,
  initiativeModifier,
  initiativeWinner,
  leaderCasualty,
  lineWiderModifier,
  moraleCap,
  moraleDist,
  moraleModifier,
  moraleResult,
  moraleState,
  moveBonus,
  moveRate,
  orderAccepted,
  orderAcceptedDist,
  orderType,
  replacementLeader,
  skillModifierValue,
  skillNumber,
  skillPasses,
  skillTestDist,
  skirmishEffect,
  skirmishHits,
  skirmishHitsDist,
  skirmishValue,
  smallArmsDice,
  smallArmsRangeBand,
  smallArmsToHit,
  squareOutcome,
  squareOutcomeDist,
  squareRow,
  strategicLeaderCasualtyDist,
  tacticalLeaderCheckDist,
  terrainExtraCost,
  twoD6AtLeast,
  wornSpent,
} from './tables.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// the sheets' table regions, kept with the tests (verbatim lines of shared/seeds/charge-eagles-rising-qrs.txt)
const DATA = readFileSync(join(ROOT, 'test', 'data', 'charge-eagles-rising-tables.txt'), 'utf8');

/** Seed line number → the line as in the seed (a missing copy fails every test here: nothing is skipped). */
const SEED = new Map<number, string>();
for (const l of DATA.split('\n')) {
  const m = /^(\d{4})\|(.*)$/.exec(l);
  if (m) SEED.set(Number(m[1]), m[2]!);
}
/** Seed line `n` as kept (fails if the region was not kept). */
function raw(n: number): string {
  const s = SEED.get(n);
  if (s === undefined) throw new Error(`seed line ${n} is not in test/data`);
  return s;
}
/** Seed line `n`, trimmed. */
const L = (n: number) => raw(n).trim();
/** The tab-separated cells of seed line `n` (trailing empty cells dropped, each trimmed). */
function cells(n: number): string[] {
  const c = raw(n)
    .replace(/[\t ]+$/, '')
    .split('\t')
    .map((x) => x.trim());
  return c;
}
/** The first capture of `re` in seed line n, as a number. */
function num(n: number, re: RegExp): number {
  const m = re.exec(L(n));
  if (!m) throw new Error(`no ${re} in seed line ${n}: ${L(n)}`);
  return Number(m[1]);
}
/** A printed signed number ("+3", "-2", "0", "+9\"") as a number; "NA" as null. */
function signed(s: string): number | null {
  if (s === 'NA') return null;
  const m = /^([+-]?\d+(?:\.\d+)?)"?$/.exec(s);
  if (!m) throw new Error(`not a number: ${s}`);
  return Number(m[1]);
}
/** "a-b", "n+", "n" as [min, max]. */
function range(label: string): [number, number] {
  let m: RegExpExecArray | null;
  if ((m = /^(\d+)-(\d+)$/.exec(label))) return [Number(m[1]), Number(m[2])];
  if ((m = /^(\d+)\+$/.exec(label))) return [Number(m[1]), Infinity];
  if ((m = /^(\d+)$/.exec(label))) return [Number(m[1]), Number(m[1])];
  throw new Error(`not a range: ${label}`);
}

/** The classes a printed class label names (test-side reading of the sheet's names). */
function classesOf(label: string): UnitClass[] {
  const names: Record<string, UnitClass> = {
    Untrained: 'untrained',
    Militia: 'militia',
    Landwehr: 'landwehr',
    Conscript: 'conscript',
    Conscripts: 'conscript',
    Regular: 'regular',
    Veteran: 'veteran',
    Elite: 'elite',
    Grenadier: 'grenadier',
    Guard: 'guard',
    'Old Guard': 'oldGuard',
  };
  return label
    .replace(/\s*\([A-Za-z]+\)/g, '')
    .split(/\s*\/\s*| or /)
    .map((n) => {
      const c = names[n.trim()];
      if (!c) throw new Error(`not a class name: ${n} in ${label}`);
      return c;
    });
}
/** Printed class rows from "label<TAB>value" cell pairs. */
function classRows(pairs: readonly (readonly [string, string])[]): ClassRow[] {
  return pairs.map(([label, v]) => ({ label, classes: classesOf(label), value: signed(v)! }));
}

describe('the test data is the seed text', () => {
  it('keeps every region with its line numbers, in order', () => {
    const numbers = [...SEED.keys()];
    expect(numbers.length).toBeGreaterThan(280);
    for (let i = 1; i < numbers.length; i++) expect(numbers[i]!).toBeGreaterThan(numbers[i - 1]!);
    expect(L(3)).toBe('Charge! Eagles Rising');
    expect(L(64)).toBe('SKIRMISH COMBAT');
    expect(L(125)).toBe('ME, MF, OR ARMY MORALE TABLE (2D6)');
    expect(L(238)).toBe('CLOSE ASSAULT COMBAT');
    expect(L(314)).toMatch(/^5\+\tVictorious charging cavalry/);
  });
});

describe('cell by cell against the sheets', () => {
  it('[Turn Sequence] every step, and its distances', () => {
    for (const s of TURN_SEQUENCE) {
      const n = [...SEED.keys()].filter((k) => k >= 9 && k <= 37).find((k) => L(k).startsWith(`${s.step}. `));
      expect([s.step, n !== undefined]).toEqual([s.step, true]);
      expect(
        L(n!)
          .slice(s.step.length + 2)
          .startsWith(s.text),
      ).toBe(true);
    }
    expect(L(7)).toBe('STRATEGIC PHASE');
    expect(L(21)).toBe('TACTICAL PHASE');
    expect(TURN_SEQUENCE.filter((s) => s.phase === 'Strategic').every((s) => s.step.startsWith('S'))).toBe(true);
    expect(num(15, /stay (\d+)" from opponents/)).toBe(SEQUENCE_DISTANCES.strategicStandOff);
    expect(num(17, /within (\d+)" &/)).toBe(SEQUENCE_DISTANCES.skirmishMax);
    expect(num(17, /& > (\d+)"/)).toBe(SEQUENCE_DISTANCES.skirmishMinExclusive);
    expect(num(33, /stops at (\d+)"/)).toBe(SEQUENCE_DISTANCES.failedChargeStopsAt);
  });

  it('[Markers] both sheets', () => {
    expect(cells(85)).toEqual([...MARKERS]);
    expect(cells(136)).toEqual([...MARKERS]);
  });

  describe('[Issuing Orders]', () => {
    it('headings', () => {
      expect(cells(40)).toEqual(['Command Ranges', '', 'Ratings Bonus', '', 'Initiative']);
      expect(cells(48)).toEqual(['Leader', 'Rating', 'Army/Wing/Corps', 'Consecutive order attempts - 1/hour']);
    });
    it('Command Ranges: every cell', () => {
      const printed = [41, 42, 43].map((n) => [cells(n)[0], signed(cells(n)[1]!)]);
      expect(COMMAND_RANGE.map((r) => [r.label, r.inches])).toEqual(printed);
    });
    it('Ratings Bonus: every cell', () => {
      const printed = Object.fromEntries(
        [41, 42, 43, 44, 45].map((n) => [cells(n)[2]!.toLowerCase(), signed(cells(n)[3]!)]),
      );
      expect(RANGE_BONUS).toEqual(printed);
    });
    it('Initiative: every cell', () => {
      expect(cells(41).slice(4)).toEqual(['CC ability > opponent', `+${INITIATIVE_MODIFIERS.ccAbilityGreater}`]);
      expect(cells(42).slice(4)).toEqual(["> # of ME's on attack", `+${INITIATIVE_MODIFIERS.moreMesOnAttack}`]);
      expect(cells(43).slice(4)).toEqual([
        "> # of ME's Shaken or Demoralized",
        String(INITIATIVE_MODIFIERS.moreMesShakenOrDemoralized),
      ]);
      expect(cells(44)[4]).toBe('High roll chooses to 1st or 2nd');
    });
    it('Leader / Rating / Army/Wing/Corps: every cell', () => {
      const printed = Object.fromEntries(
        [49, 50, 51, 52, 53].map((n) => {
          const [r, number, cc] = cells(n) as [string, string, string];
          return [r.toLowerCase(), { number: signed(number), ccModifier: signed(cc) }];
        }),
      );
      expect(ORDER_RATING).toEqual(printed);
    });
    it('the acceptance modifiers and rules', () => {
      // MINUS SIGNS 2: "- 1/hour" read as −1 per hour
      expect(Number(/attempts (-) (\d)\/hour/.exec(L(48))!.slice(1).join(''))).toBe(
        ORDER_MODIFIERS.consecutiveAttemptsPerHour,
      );
      expect(num(49, /committed (-\d)/)).toBe(ORDER_MODIFIERS.notCommitted);
      expect(num(51, /CC attached: \+(\d)/)).toBe(ORDER_MODIFIERS.ccAttached);
      expect(L(52)).toMatch(/Superior CC\* in contact w\/ MF or ME: auto pass$/);
      expect(L(50)).toMatch(/Outside of command range: one or more turn delay/);
      expect(L(46)).toMatch(/^New orders are accepted if the roll is => MF's or ME's Rating on 2d6/);
      expect(L(44)).toMatch(/^If outside CMD range \(A\/WC-CO\), then order is delayed till next Strategic turn\./);
    });
  });

  describe('[Off Board Force Arrival (2D6)]', () => {
    it('headings and the roll rows', () => {
      expect(cells(56)).toEqual(['Roll', 'Arrival?', 'ME Quality', 'Modifier', 'CC/DC Quality', 'Modifier']);
      expect(ARRIVAL_TABLE.map((r) => [r.label, r.printed])).toEqual([cells(57).slice(0, 2), cells(58).slice(0, 2)]);
      const [a, b] = ARRIVAL_TABLE.map((r) => range(r.label));
      expect(ARRIVAL_TABLE[0]!.max).toBe(a![1]);
      expect(ARRIVAL_TABLE[1]!.min).toBe(b![0]);
    });
    it('ME Quality: every cell; the C12 fills exactly the classes not printed', () => {
      const printed = classRows([57, 58, 59, 60, 61, 62].map((n) => [cells(n)[2]!, cells(n)[3]!] as const));
      expect(ARRIVAL_ME_QUALITY_PRINTED).toEqual(printed);
      for (const r of printed) for (const c of r.classes) expect([c, ARRIVAL_ME_QUALITY[c]]).toEqual([c, r.value]);
      const unprinted = UNIT_CLASSES.filter((c) => !printed.some((r) => r.classes.includes(c)));
      expect(unprinted).toEqual(['landwehr', 'grenadier', 'oldGuard']);
      expect([ARRIVAL_ME_QUALITY.landwehr, ARRIVAL_ME_QUALITY.grenadier, ARRIVAL_ME_QUALITY.oldGuard]).toEqual([
        ARRIVAL_ME_QUALITY.conscript,
        ARRIVAL_ME_QUALITY.elite,
        ARRIVAL_ME_QUALITY.guard,
      ]);
    });
    it('CC/DC Quality: every cell; Superior filled (C12)', () => {
      const printed = Object.fromEntries(
        [57, 58, 59, 60].map((n) => [cells(n)[4]!.toLowerCase(), signed(cells(n)[5]!)]),
      );
      const { superior, ...rest } = ARRIVAL_LEADER_QUALITY;
      expect(rest).toEqual(printed);
      expect(ARRIVAL_LEADER_FILLED).toEqual(['superior']);
      expect(superior).toBe(3);
      expect(cells(61).length).toBeLessThanOrEqual(4); // nothing printed under CC/DC Quality below Poor
    });
  });

  describe('[Skirmish Combat]', () => {
    it('the column headings', () => {
      const head = cells(66);
      expect(head[0]).toBe('');
      expect(head.slice(1)).toEqual(SKIRMISH_COLUMNS.map((c) => c.label));
      SKIRMISH_COLUMNS.forEach((c, i) => {
        const [min, max] = range(c.label);
        expect(c.min).toBe(min);
        // C9: totals over 22 use the 21-22 column
        expect(c.max).toBe(i === SKIRMISH_COLUMNS.length - 1 ? Infinity : max);
      });
    });
    it('every row, every cell ("-" = no hit)', () => {
      const rows = [67, 68, 69, 70, 71, 72, 73, 74, 75, 76].map((n) => cells(n));
      expect(rows.map((r) => Number(r[0]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const printed = rows.map((r) => r.slice(1).map((c) => (c === '-' ? 0 : Number(c))));
      for (const r of rows) expect(r.slice(1).every((c) => c === '-' || /^\d$/.test(c))).toBe(true);
      expect(SKIRMISH_TABLE).toEqual(printed);
    });
    it('hits to effect the target, and the notes', () => {
      expect(cells(77)).toEqual(['Number of skirmish hits to effect target:', ...Array(10).fill(''), 'Hits']);
      expect(cells(78)[0]).toBe('Formed infantry and limbered artillery');
      expect(Number(cells(78).at(-1))).toBe(SKIRMISH_HITS_TO_EFFECT.formedInfantryOrLimberedArtillery.kia);
      expect(cells(79)[0]).toBe('Deployed artillery (suppressed/KIA)');
      const [s, k] = cells(79).at(-1)!.split(' / ').map(Number);
      expect(SKIRMISH_HITS_TO_EFFECT.deployedArtillery).toEqual({ suppressed: s, kia: k });
      expect(num(80, /zone of control of (\d+)" wide/)).toBe(SKIRMISH_RULES.cavalryZoc.wide);
      expect(num(80, /wide X (\d+)" long/)).toBe(SKIRMISH_RULES.cavalryZoc.long);
      expect(num(81, /withdraw (\d+)"/)).toBe(SKIRMISH_RULES.damagedArtilleryWithdraw);
      expect(num(65, /within (\d+)" and/)).toBe(SKIRMISH_RULES.bandMax);
      expect(num(65, /and >(\d+)" of an opponent/)).toBe(SKIRMISH_RULES.bandMinExclusive);
      expect(L(82)).toBe("KIA's from skirmish fire force a skill test. Units which fail are disordered.");
    });
  });

  describe('[Movement]', () => {
    const inchesList = (s: string) =>
      s.split('/').map((x) => (x === 'NA' ? null : Number(x.replace(/^\+/, '').replace(/"$/, ''))));
    it('headings', () => {
      expect(cells(90)).toEqual(['Unit Type & Formation:', 'Tactical (<10")', 'Strategic (>10")']);
    });
    it('every row, every cell', () => {
      const rows = [91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101].map((n) => cells(n));
      expect(MOVEMENT.map((r) => r.label)).toEqual(rows.map((r) => r[0]));
      rows.forEach((r, i) => {
        const data = MOVEMENT[i]!;
        const tactical = r[1] === 'NA' ? [null, null] : inchesList(r[1]!);
        expect([data.key, data.tactical]).toEqual([data.key, tactical]);
        expect([data.key, data.strategic]).toEqual([data.key, inchesList(r[2]!)]);
        expect(data.columns.length).toBe(data.strategic.length);
        expect([data.key, data.bonus]).toEqual([data.key, r[2]!.startsWith('+')]);
      });
      // BOOK vs DIGEST 2: the tactical double quick prints no "+"
      expect(cells(101)[1]).toBe('5"/8"');
    });
    it('the formation names of each row', () => {
      for (const r of MOVEMENT) {
        const m = /\bin ([a-z]+(?:\/[a-z &]+)+)/.exec(r.label);
        const printed = r.label.includes('move/prolong')
          ? ['move', 'prolong']
          : r.label.includes('foot/mounted')
            ? ['foot', 'mounted']
            : r.columns[0] === 'any'
              ? ['any']
              : m![1]!.split('/').map((x) => x.replace(' & skirmish', '').trim());
        expect([r.key, r.columns]).toEqual([r.key, printed]);
      }
    });
    it('the movement notes', () => {
      expect(num(103, /-(\d)" \(Infantry\)/)).toBe(MOVEMENT_NOTES.formationChangeCost.infantry);
      expect(num(103, /-(\d)" \(Cavalry\)/)).toBe(MOVEMENT_NOTES.formationChangeCost.cavalry);
      expect(num(104, /start within (\d)"/)).toBe(MOVEMENT_NOTES.passageOfLinesWithin);
      expect(num(105, /infantry will halt at (\d)"/)).toBe(MOVEMENT_NOTES.infantryHaltsAt);
      expect(num(106, /evade \(back (\d+)"\)/)).toBe(MOVEMENT_NOTES.cavalryEvade);
      expect(num(106, /pursue up to (\d+)"/)).toBe(MOVEMENT_NOTES.pursueUpTo);
      expect(num(106, /within ([\d.]+)o angle/)).toBe(MOVEMENT_NOTES.newTargetAngle);
      expect(num(107, /double in\/out (\d) stand/)).toBe(MOVEMENT_NOTES.doublingStands);
      expect(num(107, /for every (\d+)" moved/)).toBe(MOVEMENT_NOTES.doublingPerInches);
      expect(num(108, /evade up to (\d+)"/)).toBe(MOVEMENT_NOTES.gunnerEvade);
      expect(num(108, /if Cav began >(\d+)"\/Inf/)).toBe(MOVEMENT_NOTES.abandonIfCavalryBeyond);
      expect(num(108, /Inf >(\d+)" OR fire/)).toBe(MOVEMENT_NOTES.abandonIfInfantryBeyond);
      expect(num(108, /Inf is w\/in (\d+)"/)).toBe(MOVEMENT_NOTES.fireAndEvadeSupportWithin);
      expect(num(108, /fire if Cav began >(\d+)"/)).toBe(MOVEMENT_NOTES.fireAndEvadeIfCavalryBeyond);
      expect(num(108, /Cav began >\d+"\/Inf >(\d+)" OR stand/)).toBe(MOVEMENT_NOTES.fireAndEvadeIfInfantryBeyond);
      expect(num(108, /if Cav >(\d+)\//)).toBe(MOVEMENT_NOTES.horseArtilleryLimberIfCavalryBeyond);
      expect(num(108, /inf\. >(\d+)"/)).toBe(MOVEMENT_NOTES.horseArtilleryLimberIfInfantryBeyond);
    });
  });

  describe('[Terrain]', () => {
    const rows = [112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123].map((n) => cells(n));
    it('headings', () => {
      expect(cells(111)).toEqual(['', 'Infantry', 'Cavalry', 'Artillery', 'Notes']);
    });
    it('every row: label, costs, per, notes; empty cells exactly where filled', () => {
      expect(TERRAIN.map((t) => t.label)).toEqual(rows.map((r) => r[0]));
      rows.forEach((r, i) => {
        const t = TERRAIN[i]!;
        const arms = ['infantry', 'cavalry', 'artillery'] as const;
        arms.forEach((arm, k) => {
          const c = r[k + 1]!;
          if (c === '') {
            expect([t.terrain, arm, t.filled.includes(arm)]).toEqual([t.terrain, arm, true]);
            expect(t.cost[arm]).toBe(t.cost.infantry); // BOOK vs DIGEST 1: the digest's value, the same as infantry's
            return;
          }
          expect(t.filled.includes(arm)).toBe(false);
          if (c === 'NA') return expect([t.terrain, arm, t.cost[arm]]).toEqual([t.terrain, arm, null]);
          const m = /^-([\d.]+)" per (1"|contour)$/.exec(c)!;
          expect([t.terrain, arm, t.cost[arm]]).toEqual([t.terrain, arm, Number(m[1])]);
          expect(t.per).toBe(m[2] === 'contour' ? 'contour' : 'inch');
        });
        expect([t.terrain, t.notes]).toEqual([t.terrain, r[4]]);
      });
    });
    it('cover and disorder read from the notes', () => {
      for (const t of TERRAIN) {
        const cover = /^Light cover/.test(t.notes)
          ? 'light'
          : /^Medium cover/.test(t.notes)
            ? 'medium'
            : /^Light or Med cover/.test(t.notes)
              ? 'lightOrMedium'
              : /^Med or Hvy cover/.test(t.notes)
                ? 'mediumOrHeavy'
                : 'none';
        expect([t.terrain, t.cover]).toEqual([t.terrain, cover]);
        if (
          /^(Crossing; )?pass skill test for not Disordered/i.test(t.notes) ||
          /otherwise, pass skill test/.test(t.notes)
        )
          expect(Object.values(t.disorder).every((d) => d === 'test')).toBe(true);
        if (/Cavalry & formed Infantry Disordered/.test(t.notes))
          expect([t.disorder.cavalry, t.disorder.formedInfantry]).toEqual(['auto', 'auto']);
        if (/Skirmish: Disordered while moving/.test(t.notes)) expect(t.disorder.skirmishers).toBe('whileMoving');
        if (/Not Disordered|In addition|Col\/Limb only/.test(t.notes))
          expect(Object.values(t.disorder).every((d) => d === 'none')).toBe(true);
      }
      const lw = TERRAIN.find((t) => t.terrain === 'lightWoods')!;
      expect(lw.notes).toMatch(/Cav Disordered\. Formed Inf Disordered while moving\. Skirmishers: pass skill test/);
      expect(lw.disorder).toEqual({
        cavalry: 'auto',
        formedInfantry: 'whileMoving',
        skirmishers: 'test',
        artillery: 'none',
      });
      expect(TERRAIN_CHARGE_AUTO_DISORDER).toEqual(
        TERRAIN.filter((t) => /Auto disorder if charged across/.test(t.notes)).map((t) => t.terrain),
      );
    });
  });

  describe('[ME, MF, or Army Morale Table (2D6)]', () => {
    it('headings', () => {
      expect(cells(126)).toEqual([
        '% Lost',
        'Broken',
        'Retire 1',
        'Retire 0',
        'Disorder',
        'Carry On',
        'Leaders',
        'Units',
      ]);
      expect(MORALE_RESULTS).toEqual(['broken', 'retire1', 'retire0', 'disorder', 'carryOn']);
    });
    it('every row, every cell: Broken "n" = n or less, contiguous bands', () => {
      [127, 128, 129].forEach((n, i) => {
        const c = cells(n);
        const row = MORALE_TABLE[i]!;
        expect(row.label).toBe(c[0]);
        expect(row.bands.map((b) => b.label)).toEqual(c.slice(1, 6));
        row.bands.forEach((b, k) => {
          const [min, max] = range(b.label);
          expect([row.state, k, b.min, b.max]).toEqual([row.state, k, k === 0 ? -Infinity : min, max]);
          if (k > 0) expect(b.min).toBe(row.bands[k - 1]!.max + 1);
        });
        // the % lost cell: "a-b%" or "a+%" (BOOK vs DIGEST 3: 33 read as one third)
        const m = /^(\d+)(?:-(\d+))?\+?% (\w+)$/.exec(c[0]!)!;
        expect(m[3]!.toLowerCase()).toBe(row.state);
        const asFraction = (p: number) => (p === 33 ? 1 / 3 : p / 100);
        expect(row.lostMin).toBe(asFraction(Number(m[1])));
        expect(row.lostBelow).toBe(m[2] ? asFraction(Number(m[2])) : Infinity);
      });
    });
    it('Leaders and Units: every cell; Old Guard filled (C12)', () => {
      const leaders = [127, 128, 129, 130].map((n) => /^(\w+) ([+-]?\d)$/.exec(cells(n)[6]!)!);
      expect(MORALE_LEADER_DRM).toEqual(Object.fromEntries(leaders.map((m) => [m[1]!.toLowerCase(), Number(m[2])])));
      const units = [127, 128, 129, 130, 131, 132, 133].map((n) => {
        const u = cells(n).at(-1)!;
        const m = /^(.+?) ([+-]?\d)$/.exec(u)!;
        return [m[1]!, m[2]!] as const;
      });
      expect(MORALE_UNIT_DRM_PRINTED).toEqual(classRows(units));
      expect(MORALE_UNIT_DRM.oldGuard).toBe(MORALE_UNIT_DRM.guard);
      for (const r of MORALE_UNIT_DRM_PRINTED) for (const c of r.classes) expect(MORALE_UNIT_DRM[c]).toBe(r.value);
    });
    it('the results text', () => {
      expect(num(132, /retreats (\d+)" \(Infantry\)/)).toBe(MORALE_EFFECTS.retireInfantry);
      expect(num(132, /or (\d+)" \(Cavalry\)/)).toBe(MORALE_EFFECTS.retireCavalry);
      expect(num(132, /Retire 1: all units take (\d) KIA/)).toBe(MORALE_EFFECTS.retire1Kia);
      expect(num(133, /if within (\d+)"/)).toBe(MORALE_EFFECTS.brokenCheckRadius);
      expect(num(133, /If > Skill (\d) levels, Retire 0 max/)).toBe(MORALE_EFFECTS.capSkillLevels);
      expect(num(133, /If > size (\d)x, Retire 1 max/)).toBe(MORALE_EFFECTS.capSizeMultiple);
      expect(L(133)).toMatch(/If both, disordered\./);
    });
  });

  describe('[Skill Tests]', () => {
    it('the triggers, in order', () => {
      expect(L(141)).toBe('Unit must roll => than skill number on 2d6 to pass the test.');
      expect(L(142)).toBe('Units must perform a skill test when:');
      expect([...SKILL_TEST_TRIGGERS]).toEqual(
        [143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155].map(L),
      );
      expect(num(147, /Cavalry threat zone =(\d+)"/)).toBe(THREAT_ZONE.cavalry);
      expect(num(147, /Infantry =(\d+)"/)).toBe(THREAT_ZONE.infantry);
    });
    it('Unit / Skill #: every cell', () => {
      expect(cells(157)).toEqual(['Unit', 'Skill #', 'Unit', 'Skill #']);
      const pairs: [string, string][] = [];
      for (const n of [158, 159, 160, 161]) pairs.push([cells(n)[0]!, cells(n)[1]!]);
      for (const n of [158, 159, 160]) pairs.push([cells(n)[2]!, cells(n)[3]!]);
      const printed = classRows(pairs).sort((a, b) => b.value - a.value);
      expect(SKILL_NUMBER_PRINTED).toEqual(printed);
      for (const c of UNIT_CLASSES) expect(SKILL_NUMBER[c]).toBe(printed.find((r) => r.classes.includes(c))!.value);
    });
    it('Modifiers to Skill #: every cell, left column then right', () => {
      expect(L(163)).toBe('Modifiers to Skill #');
      const left: [string, string][] = [];
      const right: [string, string][] = [];
      for (let n = 164; n <= 175; n++) {
        const c = cells(n);
        if (c[0]) left.push([c[0], c[1]!]);
        if (c[2]) right.push([c[2], c[3]!]);
      }
      const printed = [...left, ...right].map(([label, v]) => ({ label, value: signed(v) }));
      expect(SKILL_MODIFIERS.map(({ label, value }) => ({ label, value }))).toEqual(printed);
      // every non-zero printed value carries its sign
      for (const [, v] of [...left, ...right]) expect(/^([+-]\d|0|NA)$/.test(v)).toBe(true);
    });
    it('effects of failing, pull up / recall', () => {
      expect(L(178)).toMatch(/^Worn\/Spent: retire 1 move as column disordered facing enemy/);
      expect(num(180, /(\d) KIA per unit in ME/)).toBe(SKILL_FAILURE.doubleQuickStrategicKiaPerUnit);
      expect(num(181, /deploy in line (\d)" from defender/)).toBe(SKILL_FAILURE.chargingInfantryDeployAt);
      expect(num(181, /fall back (\d)" or more/)).toBe(SKILL_FAILURE.chargingInfantryFallBackMin);
      expect(L(184)).toContain(`Success = ${SKILL_FAILURE.pullUpPass}`);
      expect(L(184)).toContain(`Failure = ${SKILL_FAILURE.pullUpFail}`);
    });
  });

  describe('[Ranged Fire] ranges', () => {
    it('headings', () => {
      expect(cells(187)).toEqual(['Artillery Ranges', '', '', '', 'Infantry Ranges']);
      expect(cells(188)).toEqual(['Artillery', 'Close', 'Effective', 'Long', 'Small Arms', 'Effective', 'Long']);
    });
    it('artillery and small arms: every cell', () => {
      const inch = (s: string) => signed(s)!;
      expect(ARTILLERY_RANGES.map((r) => [r.label, ...r.limits])).toEqual(
        [189, 190, 191, 192].map((n) => [cells(n)[0], ...cells(n).slice(1, 4).map(inch)]),
      );
      expect(SMALL_ARMS_RANGES.map((r) => [r.label, ...r.limits])).toEqual(
        [189, 190].map((n) => [cells(n)[4], ...cells(n).slice(5, 7).map(inch)]),
      );
      expect(cells(191).length).toBe(4); // no small-arms row below Rifles
    });
  });

  describe('[Artillery Fire]', () => {
    it('base to hit, dice by guns, the >10 rule', () => {
      expect(num(195, /^Base to hit = (\d+)/)).toBe(BASE_TO_HIT);
      const m = /\((\d+)-(\d+) guns =(\d)d10, (\d+)-(\d+) guns =(\d)d10, (\d+)\+ guns =(\d)d10\)/.exec(L(195))!;
      const v = m.slice(1).map(Number);
      const printed = [
        { min: v[0], max: v[1], dice: v[2] },
        { min: v[3], max: v[4], dice: v[5] },
        { min: v[6], max: Infinity, dice: v[7] },
      ];
      expect(ARTILLERY_DICE.filter((d) => !d.filled).map(({ min, max, dice }) => ({ min, max, dice }))).toEqual(
        printed,
      );
      expect(ARTILLERY_DICE.filter((d) => d.filled).map((d) => [d.min, d.max])).toEqual([[v[4]! + 1, v[6]! - 1]]); // C3
      const t = /natural 10 and 1d10 > (\d+) for 11, > (\d+) for 12, >(\d+) for 13/.exec(L(195))!;
      expect(ABOVE_TEN).toEqual({ 11: Number(t[1]), 12: Number(t[2]), 13: Number(t[3]) });
    });
    it('every modifier row; the unsigned cells are exactly the restored minus signs', () => {
      const rows = [];
      for (let n = 196; n <= 212; n++) rows.push(cells(n));
      expect(ARTILLERY_MODIFIERS.map((r) => [r.label, r.printed])).toEqual(rows.map((r) => [r[0], r[1]]));
      const restored: [string, number][] = [];
      for (const r of ARTILLERY_MODIFIERS) {
        if (r.printed === '2x dice') {
          expect(r.values).toEqual([]);
          continue;
        }
        const parts = r.printed.split('/');
        expect(parts.length).toBe(r.values.length);
        parts.forEach((p, i) => {
          const v = Number(p);
          if (/^[+-]/.test(p) || v === 0) expect([r.id, i, r.values[i]]).toEqual([r.id, i, v]);
          else {
            restored.push([r.id, i]);
            expect([r.id, i, r.values[i]]).toEqual([r.id, i, -v]); // MINUS SIGNS 1
          }
        });
      }
      expect(restored).toEqual(MINUS_SIGNS_RESTORED.map(([id, i]) => [id, i]));
      expect(L(213)).toBe('*Not in compressed frontage or limbered at the start of the turn.');
    });
  });

  describe('[Small Arms Fire]', () => {
    it('base to hit and dice', () => {
      expect(num(216, /^Base to hit = (\d+)/)).toBe(BASE_TO_HIT);
      const three = num(216, /3 Rank Infantry: 1d10 for every (\d) figures/);
      const two = num(216, /2 Rank infantry: 1d10 for every (\d) figures/);
      expect(L(216)).toMatch(/\(round up\)\. 2 Rank/);
      expect([three, two]).toEqual([3, 2]);
      expect(smallArmsDice(7, 3)).toBe(Math.ceil(7 / three));
      expect(smallArmsDice(7, 2)).toBe(Math.ceil(7 / two));
      expect(L(216)).toMatch(/Add 1d10 if btn\. 2 gun section 3 pdr is attached/);
      expect(smallArmsDice(7, 2, true) - smallArmsDice(7, 2)).toBe(1);
    });
    it('every modifier row, every cell signed', () => {
      const rows = [];
      for (let n = 217; n <= 227; n++) rows.push(cells(n));
      expect(SMALL_ARMS_MODIFIERS.map((r) => [r.label, r.printed])).toEqual(rows.map((r) => [r[0], r[1]]));
      for (const r of SMALL_ARMS_MODIFIERS) {
        const parts = r.printed.split('/');
        for (const p of parts) expect(p).toMatch(/^[+-]\d$/);
        expect([r.id, r.values]).toEqual([r.id, parts.map(Number)]);
      }
    });
  });

  it('[Changing Formation to Square] rows and the footnote', () => {
    const rows = [230, 231, 232, 233].map(L);
    SQUARE_TABLE.forEach((r, i) => expect(rows[i]!.startsWith(r.label)).toBe(true));
    expect(SQUARE_TABLE.map((r) => r.below)).toEqual([
      num(230, /<(\d+)"/),
      num(231, /<(\d+)"/),
      num(232, /<(\d+)"/),
      Infinity,
    ]);
    expect(SQUARE_TABLE[3]!.min).toBe(num(233, /≥ (\d+)"/));
    expect(SQUARE_TABLE.slice(1).map((r) => r.min)).toEqual(SQUARE_TABLE.slice(0, 3).map((r) => r.below));
    expect(rows[0]).toMatch(/No skill test is allowed, infantry cannot form square/);
    expect(rows[2]).toMatch(/hasty square\.\* Solid square if passed by 4\+/);
    expect(num(232, /passed by (\d)\+/)).toBe(SOLID_SQUARE_MARGIN);
    expect(rows[3]).toMatch(/forms solid square on a successful test/);
    expect(SQUARE_TABLE.map((r) => r.onPass)).toEqual(['notAllowed', 'hasty', 'hastyOrSolid', 'solid']);
    // the square rows of the skill modifiers name the same bands
    const mods = SQUARE_TABLE.map((r) => SKILL_MODIFIERS.find((m) => m.id === r.modifier)!.label);
    expect(mods).toEqual([
      'Form square vs a Cav charge at 0-2"',
      'Form square vs a Cav charge at 2-5"',
      'Form square vs a Cav charge at 5-12"',
      'Form square vs a Cav charge at 12+"',
    ]);
    expect(L(234)).toMatch(
      /infantry still form hasty square but are disordered\. If already disordered, infantry does not/,
    );
  });

  describe('[Close Assault Combat]', () => {
    it('Unit Close Assault Combat Values: every cell', () => {
      expect(cells(244)).toEqual(['Unit', 'MG', 'Unit', 'MG']);
      const pairs: [string, string][] = [];
      for (const n of [245, 246, 247]) pairs.push([cells(n)[0]!, cells(n)[1]!]);
      for (const n of [245, 246, 247]) pairs.push([cells(n)[2]!, cells(n)[3]!]);
      expect(CAC_VALUE_PRINTED).toEqual(classRows(pairs));
      for (const r of CAC_VALUE_PRINTED) for (const c of r.classes) expect(CAC_VALUE[c]).toBe(r.value);
      expect(L(240)).toMatch(/^Both sides roll 2d6 \+\/- all applicable modifiers & add Unit Combat Values/);
    });
    it('Close Assault Modifiers: every row, every cell signed', () => {
      const rows = [];
      for (let n = 251; n <= 270; n++) rows.push(cells(n));
      expect(CAC_MODIFIERS.map((r) => [r.label, r.printed])).toEqual(rows.map((r) => [r[0], r[1]]));
      for (const r of CAC_MODIFIERS) {
        if (r.printed === 'Auto Disordered') {
          expect(r.values).toEqual([]);
          continue;
        }
        const parts = r.printed.split(' / ').length > 1 ? r.printed.split(' / ') : r.printed.split('/');
        const vals = parts.map((p) => Number(/^([+-]?\d)/.exec(p)![1]));
        for (const p of parts) expect(p).toMatch(/^([+-]\d|0)/);
        expect([r.id, r.values]).toEqual([r.id, vals]);
      }
    });
    it('the notes', () => {
      expect(num(271, /within (\d)" \(see 9\.4\.2\.7/)).toBe(CAC_RULES.waveAttackWithin);
      expect(L(272)).toBe(
        'Max exploitation move is set by result of the 1st CAC. After 2nd CAC unit is disordered for any further CAC.',
      );
      expect(L(273)).toBe('Units exploiting into a BUA are automatically disordered.');
      expect(L(274)).toMatch(/maximum of two units unless extra large/);
      expect(CAC_RULES.maxFrontalAttackersOnLine).toBe(2);
      expect(num(274, />(\d+)% of its frontage/) / 100).toBe(CAC_RULES.frontagePresentedOver);
      expect(num(274, /> (\d) fig\/1 stand gap/)).toBe(CAC_RULES.columnGapOverFigures);
    });

    /** Test-side reading of a results cell. */
    function parseCell(s: string): Omit<CacCell, 'printed'> {
      if (s === '0 KIA, check Cavalry Results')
        return {
          winner: { kia: 0, onlyIfWinnerRolledLower: false, disordered: false },
          loser: {
            kia: 0,
            broken: false,
            move: null,
            disordered: false,
            blown: false,
            faceAway: false,
            checkCavalryResults: true,
          },
        };
      const m = /^W: (\d) KIA( & D)?( \(if W < L 2D6\))? L: (.*)$/.exec(s);
      if (!m) throw new Error(`not a results cell: ${s}`);
      const winner = { kia: Number(m[1]), onlyIfWinnerRolledLower: !!m[3], disordered: !!m[2] };
      if (m[4] === 'Broken')
        return {
          winner,
          loser: {
            kia: 0,
            broken: true,
            move: null,
            disordered: false,
            blown: false,
            faceAway: false,
            checkCavalryResults: false,
          },
        };
      const l = /^(\d) KIA, (FB|Ret) (\d+)" D( & B)?( \(face away\))?$/.exec(m[4]!);
      if (!l) throw new Error(`not a loser cell: ${m[4]}`);
      return {
        winner,
        loser: {
          kia: Number(l[1]),
          broken: false,
          move: { kind: l[2] as 'FB' | 'Ret', inches: Number(l[3]) },
          disordered: true,
          blown: !!l[4],
          faceAway: !!l[5] || l[2] === 'Ret', // C13: Ret ends facing away
          checkCavalryResults: false,
        },
      };
    }
    const loserOf = (label: string) =>
      ({
        Infantry: 'infantry',
        Cavalry: 'cavalry',
        'Foot Artillery': 'footArtillery',
        'Horse Artillery': 'horseArtillery',
      })[label] as CacLoser;

    for (const [title, start, table] of [
      ['Infantry or Artillery defeat', 285, CAC_RESULTS.infantryOrArtillery],
      ['Cavalry defeat', 293, CAC_RESULTS.cavalry],
    ] as const) {
      it(`[${title}] every cell`, () => {
        expect(L(start)).toBe(title);
        expect(cells(start + 2)).toEqual(['Loser', ...CAC_BANDS.slice(1).map((b) => b.label)]);
        const rows = [start + 3, start + 4, start + 5, start + 6].map((n) => cells(n));
        expect(rows.map((r) => loserOf(r[0]!))).toEqual([...CAC_LOSERS]);
        for (const r of rows) {
          const loser = loserOf(r[0]!);
          r.slice(1).forEach((c, i) => {
            const data = table[loser][i]!;
            expect([loser, i, data.printed]).toEqual([loser, i, c]);
            expect([loser, i, { winner: data.winner, loser: data.loser }]).toEqual([loser, i, parseCell(c)]);
          });
          expect(r.length).toBe(5);
        }
      });
    }

    it('[Infantry results explanations] every row', () => {
      expect(L(301)).toBe('Result Infantry results explanations');
      const rows = [303, 304, 305, 306].map((n) => cells(n));
      expect(INFANTRY_RESULTS.map((r) => [r.label, r.text])).toEqual(rows.map((r) => [r[0], r[1]]));
      for (const r of INFANTRY_RESULTS) {
        const ex = [...r.text.matchAll(/exploit (\d+)"( \(no D\)| disordered|)|or (\d+)" & D/g)].map((m) =>
          m[3] ? { inches: Number(m[3]), disordered: true } : { inches: Number(m[1]), disordered: m[2] !== ' (no D)' },
        );
        expect([r.label, r.exploit]).toEqual([r.label, ex]);
        const w = /wheel (?:up to )?(\d+)°/.exec(r.text);
        expect(r.wheel).toBe(w ? Number(w[1]) : null);
      }
      expect(num(303, /& (\d) KIA/)).toBe(TIE_INFANTRY.kiaEach);
      expect(num(303, /minimum (\d)"/)).toBe(TIE_INFANTRY.fallBackMin);
      expect(num(303, /up to (\d)"/)).toBe(TIE_INFANTRY.fallBackMax);
    });
    it('[Cavalry results explanations] every row', () => {
      expect(L(308)).toBe('Result Cavalry results explanations');
      const rows = [310, 311, 312, 313, 314].map((n) => cells(n));
      expect(CAVALRY_RESULTS.map((r) => [r.label, r.text])).toEqual(rows.map((r) => [r[0], r[1]]));
      for (const r of CAVALRY_RESULTS) {
        const ex = /exploit (\d+)"/.exec(r.text);
        expect([r.id, r.exploit]).toEqual([r.id, ex ? Number(ex[1]) : null]);
        const rb = /rally back (\d)"/.exec(r.text);
        expect([r.id, r.rallyBack]).toEqual([r.id, rb ? Number(rb[1]) : null]);
      }
      expect(num(310, /fall back (\d)" disordered not blown/)).toBe(CAVALRY_FALL_BACK.squarePassed);
      expect(num(310, /Fall back (\d+)" D & B$/)).toBe(CAVALRY_FALL_BACK.otherwise);
      expect(num(312, /wheel (\d+)°/)).toBe(CAVALRY_FALL_BACK.wheel);
    });
  });

  describe('[Leader Casualties]', () => {
    it('the checks', () => {
      expect(num(278, /≥ (\d+), reroll/)).toBe(LEADER_CHECKS.strategicAtLeast);
      expect(num(279, /each KIA = 1d(\d)/)).toBe(LEADER_CHECKS.tacticalDieSides);
      expect(num(279, /If any (\d)'s are rolled/)).toBe(LEADER_CHECKS.tacticalOn);
      expect(num(281, /Knocked out for (\d) turn/)).toBe(LEADER_CHECKS.knockedOutTurns);
      expect(L(282)).toBe('*If the winner rolls doubles, the leader on the losing side is captured.');
    });
    it('the table: every cell', () => {
      const printed = [cells(280).slice(0, 2), cells(281).slice(0, 2), cells(280).slice(2, 4), cells(281).slice(2, 4)];
      expect(LEADER_CASUALTY_TABLE.map((r) => [r.label, r.printed])).toEqual(printed);
      for (const r of LEADER_CASUALTY_TABLE) expect([r.min, r.max]).toEqual(range(r.label));
    });
    it('the replacement table', () => {
      const m = /Replacement: (\d+)-(\d+) = 1 grade worse, (\d+)-(\d+) = same, (\d+)\+ = 1 grade better/.exec(L(283))!;
      const v = m.slice(1).map(Number);
      expect(REPLACEMENT_TABLE.map((r) => [r.min, r.max, r.shift])).toEqual([
        [v[0], v[1], -1],
        [v[2], v[3], 0],
        [v[4], 12, 1],
      ]);
      expect(L(283)).toMatch(/Take over next S1$/);
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// The digest's §10 vectors that are pure table lookups
// ---------------------------------------------------------------------------------------------------------------------

describe('digest §10 vectors', () => {
  it('10.1 small arms', () => {
    expect(smallArmsDice(8, 3)).toBe(3);
    expect(smallArmsToHit({ cls: 'regular', band: smallArmsRangeBand('musket', 3)!, target: 'infantryLine' })).toBe(8);
    expect(smallArmsDice(12, 2)).toBe(6);
    expect(smallArmsRangeBand('musket', 3.5)).toBe('long');
    expect(smallArmsToHit({ cls: 'regular', band: 'long', target: 'infantryLine' })).toBe(9);
    expect(smallArmsDice(8, 2)).toBe(4);
    expect(smallArmsRangeBand('rifle', 5)).toBe('long');
    expect(smallArmsToHit({ cls: 'veteran', band: 'long', target: 'infantryColumn', cover: 'light' })).toBe(9);
    expect(
      smallArmsToHit({ cls: 'elite', band: 'effective', target: 'infantryLine', targetCharging: 'infantry' }),
    ).toBe(6);
    const t = smallArmsToHit({ cls: 'regular', band: 'long', target: 'skirmish' });
    expect(t).toBe(11);
    expect(hitChance(t)).toBeCloseTo(0.1 * 0.4, 12); // a natural 10, then d10 ≥ 7
    expect([dieHits(t, 10, 7), dieHits(t, 10, 6), dieHits(t, 9)]).toEqual([true, false, false]);
    const u = smallArmsToHit({
      cls: 'militia',
      band: 'effective',
      target: 'deployedArtillery',
      cover: 'mediumOrHeavy',
      disordered: true,
      spent: true,
    });
    expect(u).toBe(16);
    expect(hitChance(u)).toBe(0);
    expect(fireHitsDist(5, u)).toEqual([{ value: 0, p: 1 }]);
    expect(smallArmsDice(9, 3, true)).toBe(4);
  });

  it('10.2 artillery', () => {
    const band6 = artilleryRangeBand('medium68', 6)!;
    expect(band6).toBe('close');
    expect(artilleryDice(6)).toBe(2);
    expect(artilleryToHit({ gun: 'medium68', crewClass: 2, band: band6, target: 'infantryColumn' })).toBe(6);
    expect(
      artilleryToHit({
        gun: 'medium68',
        crewClass: 2,
        band: artilleryRangeBand('medium68', 5)!,
        target: 'infantryLine',
        closingFire: true,
      }),
    ).toBe(6);
    expect(artilleryRangeBand('heavy', 20)).toBe('effective');
    expect(artilleryDice(8)).toBe(2);
    expect(artilleryToHit({ gun: 'heavy', crewClass: 1, band: 'effective', target: 'infantryLine' })).toBe(7);
    expect(artilleryRangeBand('light', 20)).toBe('long');
    const t = artilleryToHit({ gun: 'light', crewClass: 3, band: 'long', target: 'infantryLine' });
    expect(t).toBe(11);
    expect(artilleryRangeBand('medium9', 14)).toBe('effective');
    expect(artilleryDice(6, true, 'effective')).toBe(4);
    expect(artilleryToHit({ gun: 'medium9', crewClass: 2, band: 'effective', target: 'infantryLine' })).toBe(8);
    expect(artilleryDice(10)).toBe(3);
    expect(artilleryToHit({ gun: 'medium68', crewClass: 2, band: 'long', target: 'infantrySquare' })).toBe(7);
    expect(artilleryDice(4)).toBe(1);
    expect(
      artilleryToHit({
        gun: 'light',
        crewClass: 2,
        band: 'effective',
        target: 'limberedArtillery',
        disorderedOrSuppressed: true,
        worn: true,
      }),
    ).toBe(11);
  });

  it('10.3 skill tests', () => {
    const a = skillNumber({
      cls: 'regular',
      infantryColumnOrLinearLine: true,
      leader: 'normal',
      disordered: true,
      recoveringSafe: true,
    });
    expect(a).toBe(4);
    expect(twoD6AtLeast(a!)).toBeCloseTo(33 / 36, 12);
    const sq = skillNumber({ cls: 'regular', squareVsCavalryAt: 8 });
    expect(sq).toBe(7);
    const d = squareOutcomeDist(sq, 8, false);
    const p = (v: string) => d.filter((x) => x.value === v).reduce((s, x) => s + x.p, 0);
    expect(p('hasty') + p('solid')).toBeCloseTo(21 / 36, 12);
    expect(p('solid')).toBeCloseTo(3 / 36, 12);
    const n3 = skillNumber({ cls: 'regular', squareVsCavalryAt: 3 });
    expect(n3).toBe(10);
    expect(twoD6AtLeast(n3!)).toBeCloseTo(6 / 36, 12);
    expect(squareOutcome(9, n3, 3, false)).toBe('hastyDisordered');
    expect(squareOutcome(9, n3, 3, true)).toBe('disorderedNoSquare');
    expect(skillNumber({ cls: 'regular', squareVsCavalryAt: 1.5 })).toBeNull();
    expect(squareOutcomeDist(null, 1.5, false)).toEqual([{ value: 'notAllowed', p: 1 }]);
    const e = skillNumber({ cls: 'elite', leader: 'charismatic', cavalryCharging: true, disordered: true });
    expect(e).toBe(2);
    expect(skillTestDist(e!)).toEqual([{ value: true, p: 1 }]);
    const c = skillNumber({
      cls: 'regular',
      infantryColumnOrLinearLine: true,
      closingFireKias: 2,
      closeRangeArtilleryKias: true,
    });
    expect(c).toBe(9);
    expect(twoD6AtLeast(c!)).toBeCloseTo(10 / 36, 12);
    const w = skillNumber({ cls: 'conscript', worn: true, outOfCommandOrIntegrity: true });
    expect(w).toBe(12);
    expect(twoD6AtLeast(w!)).toBeCloseTo(1 / 36, 12);
  });

  it('10.4 morale', () => {
    const mod = moraleModifier('inspirational', 'veteran');
    expect(moraleState(0.4)).toBe('shaken');
    expect(moraleResult(4 + mod, 'shaken')).toBe('retire0');
    expect(moraleResult(6 + mod, 'shaken')).toBe('carryOn');
    const m = moraleModifier('uninspiring', 'militia');
    expect([2, 3, 5, 7, 8].map((r) => moraleResult(r + m, 'fresh'))).toEqual([
      'broken',
      'retire1',
      'retire0',
      'disorder',
      'carryOn',
    ]);
    const dem = moraleDist(moraleModifier(null, 'regular'), 'demoralized');
    expect(dem.find((x) => x.value === 'broken')!.p).toBeCloseTo(10 / 36, 12);
    expect(dem.find((x) => x.value === 'carryOn')!.p).toBeCloseTo(1 / 36, 12);
    const cap = moraleCap(SKILL_NUMBER.conscript - SKILL_NUMBER.guard, 2.5);
    expect(cap).toBe('disorder');
    expect(moraleResult(-3, 'demoralized', cap)).toBe('disorder');
  });

  it('10.5 close assault', () => {
    const french = cacTotalModifier({ arm: 'infantry', cls: 'regular', charging: true, leader: 'inspirational' });
    const british = cacTotalModifier({ arm: 'infantry', cls: 'regular', lineWiderRatio: 6 / 2 });
    expect([french, british]).toEqual([9, 8]);
    const diff = 8 + french - (7 + british);
    expect(diff).toBe(2);
    const c = cacResult('infantry', 'infantry', diff);
    expect(c.printed).toBe('W: 1 KIA & D L: 1 KIA, FB 6" D');
    expect(infantryResultRow(diff).wheel).toBe(45);
    const cuir = cacTotalModifier({
      arm: 'cavalry',
      cls: 'elite',
      charging: true,
      cavalryWeight: 'armored',
      leader: 'charismatic',
    });
    const square = cacTotalModifier({ arm: 'infantry', cls: 'regular', square: 'solid' });
    expect([cuir, square]).toEqual([14, 14]);
    expect(cacResult('infantry', 'cavalry', 1).loser.checkCavalryResults).toBe(true);
    const cc = cacResult('cavalry', 'cavalry', 6);
    expect(cc.printed).toBe('W: 1 KIA (if W < L 2D6) L: 3 KIA, Ret 12" D & B');
    expect([cacWinnerKia(cc, 5, 8), cacWinnerKia(cc, 8, 8), cacWinnerKia(cc, 9, 3)]).toEqual([1, 0, 0]);
    expect(cavalryWinRow(6).exploit).toBe(10);
    expect(greaterNumberModifier(2, 1)).toBe(1);
    expect(cacTotalModifier({ arm: 'infantry', cls: 'regular', garrison: 'heavy' }) - CAC_VALUE.regular).toBe(3);
    expect(smallArmsToHit({ cls: 'regular', band: 'effective', target: 'infantryLine', cover: 'mediumOrHeavy' })).toBe(
      10,
    );
  });

  it('10.6 orders, ranges, arrival, initiative, skirmish, leaders', () => {
    expect(acceptanceNumber({ recipient: 'good', issuer: 'excellent', attempt: 1, uncommitted: false })).toBe(4);
    const n2 = acceptanceNumber({ recipient: 'good', issuer: 'excellent', attempt: 1, uncommitted: true });
    expect(n2).toBe(2);
    expect(orderAcceptedDist(n2, false)).toEqual([{ value: true, p: 1 }]);
    const n7 = acceptanceNumber({ recipient: 'poor', issuer: 'average', attempt: 5, uncommitted: false });
    expect(n7).toBe(7);
    expect([orderAccepted(5, n7, true), orderAccepted(4, n7, true), orderAccepted(5, n7, false)]).toEqual([
      true,
      false,
      false,
    ]);
    expect(commandRange('armyWing', 'good')).toBe(39);
    expect(commandRange('division', 'poor')).toBe(9);
    const mod = arrivalModifier('veteran', 'poor');
    expect(mod).toBe(0);
    expect(arrivalDist(mod).find((d) => d.value)!.p).toBeCloseTo(26 / 36, 12);
    const fr = initiativeModifier({
      ccAbilityGreater: false,
      moreMesOnAttack: true,
      moreMesShakenOrDemoralized: false,
    });
    const br = initiativeModifier({ ccAbilityGreater: true, moreMesOnAttack: false, moreMesShakenOrDemoralized: true });
    expect([fr, br]).toEqual([1, 0]);
    expect(
      [
        [9, 6],
        [21, 10],
        [4, 7],
        [2, 10],
        [12, 9],
        [30, 1],
      ].map(([pts, d]) => skirmishHits(d!, pts!)),
    ).toEqual([1, 4, 0, 1, 2, 1]);
    expect(leaderCasualty(9)).toBe('incapacitated');
    expect(replacementLeader(11, 'good', 'normal')).toEqual({ command: 'excellent', inspiration: 'inspirational' });
    const win = cacRoll([4, 4], 0, [1, 2], 0);
    expect(win).toEqual({ band: '5-7', winner: 'A', winnerDoubles: true, winnerRolledLower: false });
  });

  it('§11 facts that are table lookups', () => {
    const n = skillNumber({ cls: 'regular', infantryColumnOrLinearLine: true, squareVsCavalryAt: 8 });
    expect(n).toBe(6);
    expect(squareOutcome(6, n, 8, false)).toBe('hasty');
    expect(squareOutcome(10, n, 8, false)).toBe('solid');
    expect(squareOutcome(9, n, 8, false)).toBe('hasty');
    expect(ARTILLERY_RANGES.find((r) => r.gun === 'medium9')!.limits).toEqual([7, 22, 42]);
    expect(
      skirmishValue({ arm: 'infantry', cls: 'veteran', light: true, weapon: 'musket', formation: 'skirmish' }),
    ).toBe(8);
    expect(
      skirmishValue({ arm: 'infantry', cls: 'veteran', light: true, weapon: 'rifle', formation: 'garrison' }),
    ).toBe(5);
    expect(orderType('reserve').charge).toBe(false);
    expect(orderType('reserve').cavalryCounterCharge).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Lookups at their edges
// ---------------------------------------------------------------------------------------------------------------------

describe('lookups at the edges', () => {
  it('skirmish: clamping and refusals', () => {
    expect(skirmishHits(10, 0)).toBe(0);
    expect(skirmishHits(10, 1)).toBe(1);
    expect(skirmishHits(10, 22)).toBe(skirmishHits(10, 99));
    expect(() => skirmishHits(0, 5)).toThrow(/skirmish D10 must be 1–10/);
    expect(() => skirmishHits(11, 5)).toThrow(RangeError);
    expect(() => skirmishHits(5, -1)).toThrow(/≥ 0/);
    expect(() => skirmishHits(5, 2.5)).toThrow(/integer/);
    const d = skirmishHitsDist(21);
    expect(d.reduce((s, x) => s + x.p, 0)).toBeCloseTo(1, 12);
    expect(d).toEqual([
      { value: 1, p: expect.closeTo(0.1, 12) },
      { value: 2, p: expect.closeTo(0.3, 12) },
      { value: 3, p: expect.closeTo(0.3, 12) },
      { value: 4, p: expect.closeTo(0.3, 12) },
    ]);
    expect(skirmishEffect('deployedArtillery', 1)).toEqual({ kia: 0, suppressed: true });
    expect(skirmishEffect('deployedArtillery', 2)).toEqual({ kia: 1, suppressed: true });
    expect(skirmishEffect('formedInfantry', 3)).toEqual({ kia: 3, suppressed: false });
    expect(() => skirmishEffect('cavalry', 1)).toThrow(/C9/);
    expect(
      skirmishValue({ arm: 'infantry', cls: 'conscript', light: false, weapon: 'musket', formation: 'line' }),
    ).toBe(1);
    expect(
      skirmishValue({ arm: 'infantry', cls: 'regular', light: false, weapon: 'musket', formation: 'column' }),
    ).toBe(2);
    expect(
      skirmishValue({ arm: 'infantry', cls: 'regular', light: true, weapon: 'musket', formation: 'hastySquare' }),
    ).toBe(0);
    expect(skirmishValue({ arm: 'cavalry', cls: 'regular', light: true, weapon: 'musket', formation: 'line' })).toBe(0);
  });

  it('morale: bands, clamping, refusals', () => {
    expect(moraleState(0)).toBe('fresh');
    expect(moraleState(0.33)).toBe('fresh'); // BOOK vs DIGEST 3
    expect(moraleState(1 / 3)).toBe('shaken');
    expect(moraleState(0.5)).toBe('demoralized');
    expect(moraleState(1)).toBe('demoralized');
    expect(() => moraleState(1.2)).toThrow(/fraction lost/);
    expect(() => moraleState(-0.1)).toThrow(RangeError);
    expect(moraleResult(-7, 'fresh')).toBe('broken');
    expect(moraleResult(40, 'demoralized')).toBe('carryOn');
    expect(moraleResult(2, 'shaken', 'retire1')).toBe('retire1');
    expect(moraleResult(2, 'shaken', 'retire0')).toBe('retire0');
    expect(moraleResult(12, 'shaken', 'disorder')).toBe('carryOn');
    expect(moraleCap(2, 2)).toBe('broken');
    expect(moraleCap(3, 2)).toBe('retire0');
    expect(moraleCap(2, 2.01)).toBe('retire1');
    expect(() => moraleResult(1.5, 'fresh')).toThrow(/integer/);
    expect(() => moraleResult(3, 'calm' as never)).toThrow(/morale state/);
    for (const st of ['fresh', 'shaken', 'demoralized'] as const)
      expect(moraleDist(0, st).reduce((s, x) => s + x.p, 0)).toBeCloseTo(1, 12);
    expect(moraleModifier('charismatic', 'oldGuard')).toBe(6);
    expect(() => moraleModifier('heroic' as never, 'regular')).toThrow(/inspiration/);
  });

  it('skill: numbers, passes, refusals', () => {
    expect(skillNumber({ cls: 'untrained' })).toBe(10);
    expect(skillNumber({ cls: 'regular', worn: true, spent: true })).toBe(10); // spent replaces worn
    expect(skillNumber({ cls: 'regular', leader: 'normal', lightCover: true })).toBe(6); // one row: −1 once
    expect(skillNumber({ cls: 'regular', leader: 'charismatic', lightCover: true })).toBe(3);
    expect(skillNumber({ cls: 'regular', squareVsCavalryAt: 12, formationChangeInThreatZone: true })).toBe(5);
    expect(skillNumber({ cls: 'regular', formationChangeInThreatZone: true })).toBe(8);
    expect(skillNumber({ cls: 'regular', britishRecallAfter3: true })).toBe(12);
    expect(skillPasses(12, 13)).toBe(false);
    expect(skillPasses(2, 2)).toBe(true);
    expect(skillPasses(2, -4)).toBe(true);
    expect(() => skillPasses(13, 7)).toThrow(/2D6 must be 2–12/);
    expect(() => skillPasses(1, 7)).toThrow(RangeError);
    expect(skillTestDist(13)).toEqual([{ value: false, p: 1 }]);
    expect(() => skillModifierValue('square0to2')).toThrow(/NA/);
    expect(() => skillNumber({ cls: 'regular', closingFireKias: -1 })).toThrow(/≥ 0/);
    expect(() => squareRow(-1)).toThrow(/≥ 0/);
    expect(squareRow(2).onPass).toBe('hasty');
    expect(squareRow(5).onPass).toBe('hastyOrSolid');
    expect(squareRow(12).onPass).toBe('solid');
    expect(twoD6AtLeast(2)).toBe(1);
    expect(twoD6AtLeast(13)).toBe(0);
    expect(twoD6AtLeast(7)).toBeCloseTo(21 / 36, 12);
  });

  it('fire: bands, dice, hit chances and distributions', () => {
    expect(artilleryRangeBand('heavy', 0)).toBe('close');
    expect(artilleryRangeBand('heavy', 8)).toBe('close');
    expect(artilleryRangeBand('heavy', 8.01)).toBe('effective');
    expect(artilleryRangeBand('heavy', 48)).toBe('long');
    expect(artilleryRangeBand('heavy', 48.01)).toBeNull();
    expect(() => artilleryRangeBand('heavy', -1)).toThrow(/≥ 0/);
    expect(() => artilleryRangeBand('huge' as never, 5)).toThrow(/gun must be/);
    expect(smallArmsRangeBand('musket', 4)).toBe('long');
    expect(smallArmsRangeBand('musket', 4.5)).toBeNull();
    expect(artilleryDice(9)).toBe(2); // C3
    expect(artilleryDice(0)).toBe(0);
    expect(artilleryDice(30)).toBe(3);
    expect(artilleryDice(6, true, 'long')).toBe(2);
    expect(artilleryDice(6, true, 'close', true)).toBe(2);
    expect(() => artilleryDice(-1)).toThrow(RangeError);
    expect(() => artilleryDice(2.5)).toThrow(/integer/);
    expect(() => smallArmsDice(8, 4 as never)).toThrow(/ranks/);
    expect(hitChance(-3)).toBeCloseTo(0.9, 12); // C11: never below 2
    expect(hitChance(2)).toBeCloseTo(0.9, 12);
    expect(hitChance(10)).toBeCloseTo(0.1, 12);
    expect(hitChance(12)).toBeCloseTo(0.02, 12);
    expect(hitChance(13)).toBe(0);
    expect(hitChance(40)).toBe(0);
    for (const t of [1, 2, 5, 8, 10, 11, 12, 13]) {
      const d = fireHitsDist(3, t);
      expect(d.reduce((s, x) => s + x.p, 0)).toBeCloseTo(1, 12);
      expect(d.reduce((s, x) => s + x.value * x.p, 0)).toBeCloseTo(3 * hitChance(t), 12);
    }
    expect(fireHitsDist(0, 5)).toEqual([{ value: 0, p: 1 }]);
    expect(() => fireHitsDist(-1, 5)).toThrow(RangeError);
    expect(dieHits(1, 1)).toBe(false); // a natural 1 always misses
    expect(dieHits(12, 10, 9)).toBe(true);
    expect(dieHits(13, 10, 10)).toBe(false);
    expect(() => dieHits(11, 10)).toThrow(/second d10/);
    expect(() => dieHits(8, 11)).toThrow(/d10 must be 1–10/);
    // close range uses no crew class; the restored minus signs make close range the best
    for (const gun of ['light', 'medium68', 'medium9', 'heavy'] as const) {
      const at = (band: 'close' | 'effective' | 'long') =>
        artilleryToHit({ gun, crewClass: 2, band, target: 'infantryLine' });
      expect(at('close')).toBeLessThan(at('effective'));
      expect(at('effective')).toBeLessThan(at('long'));
    }
    expect(artilleryToHit({ gun: 'heavy', crewClass: 3, band: 'close', target: 'infantryLine' })).toBe(6);
    expect(
      artilleryToHit({
        gun: 'heavy',
        crewClass: 2,
        band: 'close',
        target: 'limberedArtillery',
        throughSkirmishLine: true,
      }),
    ).toBe(7);
    expect(
      artilleryToHit({ gun: 'heavy', crewClass: 2, band: 'effective', target: 'cavalry', closingFire: true }),
    ).toBe(8); // closing fire −1 vs infantry only
    expect(smallArmsToHit({ cls: 'regular', band: 'long', target: 'infantryLine', cover: 'light' })).toBe(9);
    expect(smallArmsToHit({ cls: 'regular', band: 'long', target: 'infantryLine', cover: 'mediumOrHeavy' })).toBe(11);
    expect(
      smallArmsToHit({
        cls: 'guard',
        band: 'effective',
        target: 'infantryLine',
        targetCharging: 'cavalry',
        onFlankOrRear: true,
      }),
    ).toBe(7);
    expect(crewClass('oldGuard')).toBe(1);
    expect(crewClass('veteran')).toBe(2);
    expect(crewClass('landwehr')).toBe(3);
  });

  it('close assault: bands, cells, dice flags', () => {
    expect(cacBand(0)).toBe('0');
    expect(cacBand(8)).toBe('8+');
    expect(cacBand(30)).toBe('8+');
    expect(() => cacBand(-1)).toThrow(/≥ 0/);
    expect(() => cacResult('infantry', 'infantry', 0)).toThrow(/no winner/);
    expect(() => cacResult('infantry', 'dragoons' as never, 3)).toThrow(/loser/);
    expect(cacResult('artillery', 'horseArtillery', 1)).toBe(CAC_RESULTS.infantryOrArtillery.horseArtillery[0]);
    expect(cacResult('cavalry', 'footArtillery', 9).loser.broken).toBe(true);
    expect(greaterNumberModifier(3, 1)).toBe(2);
    expect(greaterNumberModifier(9, 1)).toBe(3);
    expect(greaterNumberModifier(3, 2)).toBe(0);
    expect(() => greaterNumberModifier(0, 1)).toThrow(RangeError);
    expect([lineWiderModifier(1.49), lineWiderModifier(1.5), lineWiderModifier(2)]).toEqual([0, 1, 2]);
    expect(cacTotalModifier({ arm: 'cavalry', cls: 'regular', disordered: true, cavalryAtHalt: true })).toBe(4); // once
    expect(cacTotalModifier({ arm: 'infantry', cls: 'regular', worn: true, spent: true })).toBe(3);
    expect(cacTotalModifier({ arm: 'artillery', cls: 'regular' })).toBe(ARTILLERY_CAC_VALUE[2]);
    expect(cacTotalModifier({ arm: 'cavalry', cls: 'regular', cavalryWeight: 'heavy' })).toBe(6); // not charging
    expect(cacTotalModifier({ arm: 'infantry', cls: 'regular', linearObstacleVs: 'cavalry' })).toBe(9);
    expect(() => cacRoll([0, 3], 0, [2, 2], 0)).toThrow(/CAC die/);
    expect(cacRoll([6, 5], 0, [3, 3], 5)).toEqual({
      band: '0',
      winner: null,
      winnerDoubles: false,
      winnerRolledLower: false,
    });
    expect(cacRoll([1, 2], 10, [6, 6], 0)).toEqual({
      band: '1-2',
      winner: 'A',
      winnerDoubles: false,
      winnerRolledLower: true,
    });
    const d = cacRollDist(0, 0);
    expect(d.reduce((s, x) => s + x.p, 0)).toBeCloseTo(1, 12);
    const p = (f: (c: (typeof d)[number]['value']) => boolean) =>
      d.filter((x) => f(x.value)).reduce((s, x) => s + x.p, 0);
    expect(p((c) => c.winner === 'A')).toBeCloseTo(
      p((c) => c.winner === 'B'),
      12,
    );
    // with equal modifiers the winner never rolled lower; a double for the winner is more likely than 1/6 (high doubles)
    expect(p((c) => c.winnerRolledLower)).toBe(0);
    expect(p((c) => c.band === '0')).toBeCloseTo(146 / 1296, 12);
    const e = cacRollDist(4, 0);
    const q = (f: (c: (typeof e)[number]['value']) => boolean) =>
      e.filter((x) => f(x.value)).reduce((s, x) => s + x.p, 0);
    expect(q((c) => c.winner === 'A' && c.winnerRolledLower)).toBeGreaterThan(0);
    expect(q((c) => c.winner === 'B' && c.winnerRolledLower)).toBe(0);
    expect(q(() => true)).toBeCloseTo(1, 12);
  });

  it('orders, initiative, arrival, leaders: refusals and exact chances', () => {
    expect(() => acceptanceNumber({ recipient: 'good', issuer: 'good', attempt: 0, uncommitted: false })).toThrow(
      /from 1/,
    );
    expect(acceptanceNumber({ recipient: 'good', issuer: 'good', attempt: 4, uncommitted: false })).toBe(5);
    expect(acceptanceNumber({ recipient: 'good', issuer: 'good', attempt: 9, uncommitted: false })).toBe(3);
    expect(orderAccepted(2, 12, false, true)).toBe(true);
    expect(() => orderAccepted(1, 7, false)).toThrow(RangeError);
    expect(() => commandRange('platoon' as never, 'good')).toThrow(/leader level/);
    expect(() => commandRange('corps', 'great' as never)).toThrow(/command rating/);
    expect(commandRange('cavBrigade', 'superior')).toBe(21);
    expect(commandRange('corps', 'average')).toBe(30);
    const i = initiativeDist(1, 0);
    expect(i.reduce((s, x) => s + x.p, 0)).toBeCloseTo(1, 12);
    expect(i.find((x) => x.value === 'A')!.p).toBeGreaterThan(0.5);
    expect(initiativeDist(0, 0)[0]!.p).toBeCloseTo(0.5, 12);
    expect(initiativeWinner(7, 0, 7, 0)).toBeNull();
    expect(initiativeWinner(6, 1, 7, 0)).toBeNull();
    expect(initiativeWinner(8, 0, 7, 0)).toBe('A');
    expect([arrives(5), arrives(6), arrives(-3), arrives(15)]).toEqual([false, true, false, true]);
    expect(arrivalModifier('oldGuard', 'superior')).toBe(6);
    expect(() => arrivalModifier('recruit' as never, 'good')).toThrow(/ME class/);
    expect(() => leaderCasualty(1)).toThrow(RangeError);
    expect([2, 4, 5, 7, 8, 10, 11, 12].map(leaderCasualty)).toEqual([
      'noEffect',
      'noEffect',
      'knockedOut',
      'knockedOut',
      'incapacitated',
      'incapacitated',
      'kia',
      'kia',
    ]);
    const s = strategicLeaderCasualtyDist();
    expect(s.reduce((t, x) => t + x.p, 0)).toBeCloseTo(1, 12);
    expect(s.find((x) => x.value === 'kia')!.p).toBeCloseTo((3 / 36) * (3 / 36), 12);
    expect(tacticalLeaderCheckDist(3).find((x) => x.value)!.p).toBeCloseTo(1 - (5 / 6) ** 3, 12);
    expect(tacticalLeaderCheckDist(0)).toEqual([{ value: false, p: 1 }]);
    expect(replacementLeader(2, 'poor', 'uninspiring')).toEqual({ command: 'poor', inspiration: 'uninspiring' });
    expect(replacementLeader(12, 'superior', 'charismatic')).toEqual({
      command: 'superior',
      inspiration: 'charismatic',
    });
    expect(replacementLeader(7, 'good', 'normal')).toEqual({ command: 'good', inspiration: 'normal' });
    expect(() => orderType('charge' as never)).toThrow(/order must be/);
    expect(ORDER_TYPES.filter((o) => o.charge).map((o) => o.order)).toEqual(['attack']);
    expect(ORDER_TYPES.filter((o) => o.opCharge).map((o) => o.order)).toEqual(['attack', 'hold', 'advance']);
    expect(ORDER_TYPES.filter((o) => o.committed).map((o) => o.order)).toEqual(['attack', 'hold']);
  });

  it('movement and terrain', () => {
    expect(moveRate({ arm: 'infantry', formation: 'marchColumn', retiring: false }, 'tactical')).toBe(8);
    expect(moveRate({ arm: 'infantry', formation: 'solidSquare', retiring: true }, 'strategic')).toBe(15);
    expect(moveRate({ arm: 'infantry', formation: 'line', retiring: true }, 'tactical')).toBe(3);
    expect(() => moveRate({ arm: 'infantry', formation: 'garrison', retiring: false }, 'tactical')).toThrow(
      /infantry formation/,
    );
    const cav = (weight: 'light' | 'heavy' | 'armored', formation: 'line' | 'column' | 'skirmish', blown = false) =>
      ({ arm: 'cavalry', weight, formation, blown, retiring: false }) as const;
    expect(moveRate(cav('light', 'skirmish'), 'tactical')).toBe(16);
    expect(moveRate(cav('armored', 'line'), 'tactical')).toBe(12);
    expect(moveRate(cav('heavy', 'column', true), 'strategic')).toBe(24);
    expect(() => moveRate(cav('heavy', 'skirmish'), 'tactical')).toThrow(/light cavalry/);
    expect(moveRate({ ...cav('light', 'line'), retiring: true }, 'tactical')).toBe(6);
    expect(moveRate({ arm: 'artillery', gun: 'heavy', horse: false, prolong: true }, 'tactical')).toBeNull();
    expect(moveRate({ arm: 'artillery', gun: 'heavy', horse: false, prolong: true }, 'strategic')).toBe(9);
    expect(moveRate({ arm: 'artillery', gun: 'light', horse: true, prolong: false }, 'tactical')).toBe(12);
    expect(moveRate({ arm: 'general' }, 'strategic')).toBe(80);
    expect(() => moveRate({ arm: 'general' }, 'operational' as never)).toThrow(/scale/);
    expect(moveBonus('roadBonus', false, 'tactical')).toBeNull();
    expect(moveBonus('roadBonus', true, 'strategic')).toBe(20);
    expect(moveBonus('doubleQuick', false, 'tactical')).toBe(5);
    expect(terrainExtraCost('majorObstacle', 'artillery')).toBe(Infinity);
    expect(terrainExtraCost('ford', 'cavalry')).toBe(terrainExtraCost('stream', 'cavalry'));
    expect(terrainExtraCost('road', 'infantry')).toBe(0);
    expect(terrainExtraCost('steepRise', 'cavalry')).toBe(2);
    expect(terrainExtraCost('denseWoods', 'artillery')).toBe(5);
    expect(() => terrainExtraCost('swamp' as never, 'infantry')).toThrow(/unknown terrain/);
    expect(() => terrainExtraCost('rough', 'navy' as never)).toThrow(/arm must be/);
    expect(CHARGED_PER_CROSSING.every((t) => TERRAIN.find((r) => r.terrain === t)!.per === 'inch')).toBe(true);
    expect(wornSpent(24, 17)).toBe('fresh');
    expect(wornSpent(24, 16)).toBe('worn');
    expect(wornSpent(24, 12)).toBe('spent');
    expect(() => wornSpent(0, 0)).toThrow(RangeError);
  });
});
