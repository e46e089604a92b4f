/**
 * The tables of The Age of Eagles (Regimental 1:60) checked cell by cell against the quick-reference sheets' text
 * (test/data/age-of-eagles-regimental-qrs.txt, a copy of the seed, read here), then against the digest's §10 worked vectors and at
 * the boundaries. Each table's lines are located by their headings and the numbers and labels parsed out of the text,
 * so a mistyped cell fails. The text was extracted from a PDF: empty cells are dropped, values of a group come before
 * their conditions, superscript note markers trail the condition; each parser says how it reads its table.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BATTERY_FIRE_POINTS,
  BOOK_VS_DIGEST,
  BS_DRMS,
  BS_NOTES,
  BS_RESULTS,
  BUA,
  type BsSideEffect,
  CAVALRY_VS_INFANTRY_REPLACEMENTS,
  CHARGE_CHECKED_RETREAT,
  DISTANCES,
  FIRE_POINT_DRMS,
  FIRE_RESULTS,
  FIRER_DISORDERED_OR_DAMAGED_MULTIPLIER,
  FORMATIONS,
  FORM_SQUARE_MIN_ROLL,
  HITS_TO_REMOVE,
  INCONSISTENT_FORMATIONS_PRINTED,
  MARCH_DRMS,
  MARCH_LEADER_DRM_CAP,
  MARCH_TABLE_DISORDERED,
  MARCH_TABLE_GOOD_ORDER,
  MAX_BATTERIES_PER_TARGET,
  MOVEMENT_NOTES,
  MOVEMENT_RATES,
  MUSKET_FIRE_POINTS,
  type MarchDrmInput,
  type MarchResult,
  PLAY_SEQUENCE,
  RANGE_BANDS,
  SCALE,
  SPECIAL_RULES,
  SQUARE_FIRE_POINTS_PER_STAND,
  TARGET_DRMS,
  TEXT_READINGS,
  UNIT_SIZES,
  batteryFirePoints,
  bayonetDrm,
  bayonetResult,
  bsNoteApplies,
  fireEffect,
  firePointDrm,
  fireResult,
  inconsistentWithMarchMode,
  infantryMoverKind,
  marchDrm,
  marchResult,
  movementRate,
  musketFirePoints,
  outnumberDrm,
  rangeBand,
  targetDrm,
} from './tables.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// the sheets' text, kept with the tests (a copy of shared/seeds/age-of-eagles-regimental-qrs.txt)
const QRS = join(ROOT, 'test', 'data', 'age-of-eagles-regimental-qrs.txt');

/** The sheet's non-empty lines, trimmed (a missing copy fails every test here: nothing is skipped). */
const LINES: string[] = readFileSync(QRS, 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '');
const TEXT = LINES.join('\n');

/** The index of the first line equal to `line` at or after `from` (fails the test if absent). */
function at(line: string, from = 0): number {
  const i = LINES.indexOf(line, from);
  if (i < 0) throw new Error(`sheet line not found: ${line}`);
  return i;
}
/** The lines strictly between `start` (found from `from`) and the next `end`. */
function between(start: string, end: string, from = 0): string[] {
  const s = at(start, from);
  return LINES.slice(s + 1, at(end, s + 1));
}
/** A row label ("9 or more", "6, 7, 8", "Less than 0", "-1,-2,-3", "4 or less") as [min, max]. */
function rowRange(label: string): [number, number] {
  let m: RegExpMatchArray | null;
  if ((m = label.match(/^(-?\d+) or more$/))) return [Number(m[1]), Infinity];
  if ((m = label.match(/^(-?\d+) or less$/))) return [-Infinity, Number(m[1])];
  if ((m = label.match(/^Less than (-?\d+)$/))) return [-Infinity, Number(m[1]) - 1];
  const ns = label.split(',').map((x) => Number(x.trim()));
  if (ns.some((n) => !Number.isInteger(n))) throw new Error(`not a row label: ${label}`);
  return [Math.min(...ns), Math.max(...ns)];
}
const isRowLabel = (l: string) => /^(-?\d+ or (more|less)|Less than -?\d+|-?\d+(, ?-?\d+)*)$/.test(l);
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
/** "+1/+2" or "-1,-2,-3" or "+1" as numbers. */
const nums = (printed: string) => printed.split(/[/,]/).map((x) => Number(x));

describe('cell by cell against the sheets (QRS text)', () => {
  describe('[March Table]', () => {
    // Read as: a header (DIE RESULT, EFFECTS, Disorder/Silenced, EFFECTS, Good Order), then per row three lines:
    // the row label, the Disorder/Silenced cell, the Good Order cell. The table ends at the movement table's "Unit".
    const body = between('March Table', 'Unit');
    const header = body.slice(0, 5);
    const rows = body.slice(5);
    const parsed: { label: string; d: string; g: string }[] = [];
    for (let i = 0; i < rows.length; i += 3) parsed.push({ label: rows[i]!, d: rows[i + 1]!, g: rows[i + 2]! });

    it('has the two columns and six rows', () => {
      expect(header).toEqual(['DIE RESULT', 'EFFECTS', 'Disorder/Silenced', 'EFFECTS', 'Good Order']);
      expect(parsed.map((r) => r.label)).toEqual(MARCH_TABLE_DISORDERED.map((r) => r.rows));
      expect(parsed.map((r) => r.label)).toEqual(MARCH_TABLE_GOOD_ORDER.map((r) => r.rows));
      expect(parsed.every((r) => isRowLabel(r.label))).toBe(true);
    });

    /** The flags a cell's words imply. */
    function fromText(text: string): Partial<MarchResult> {
      const removed = /removed from play/.test(text);
      const retreat = /retreats a full move/.test(text)
        ? 'fullMove'
        : /beyond enemy musketry range/.test(text)
          ? 'beyondMusketry'
          : 'none';
      const rallies = /\brallies\b/.test(text);
      return {
        name: text.slice(0, text.indexOf('.')),
        text,
        move: /moves normally/.test(text) ? 'full' : /moves half|may move half/.test(text) ? 'half' : 'none',
        formationChange: /except to square or limber\/unlimber/.test(text)
          ? 'squareOrLimber'
          : /except to square\)/.test(text)
            ? 'squareOnly'
            : /moves normally/.test(text)
              ? 'any'
              : 'none', // "cannot … change formation", or a retreat / removal
        rallies,
        removesSilenced: rallies && !/remains silenced/.test(text),
        retreat,
        disorderedAfter: removed || /remains disordered|full move disordered/.test(text),
        hits: Number(text.match(/lose (\d+) stand/)?.[1] ?? 0), // A8: a stand lost = a hit
        removed,
      };
    }

    for (const [col, table] of [
      ['d', MARCH_TABLE_DISORDERED],
      ['g', MARCH_TABLE_GOOD_ORDER],
    ] as const) {
      it(`${col === 'd' ? 'Disorder/Silenced' : 'Good Order'} column, every cell`, () => {
        parsed.forEach((row, i) => {
          const data = table[i]!;
          const [min, max] = rowRange(row.label);
          expect({ min: data.min, max: data.max }).toEqual({ min, max });
          expect(data).toMatchObject(fromText(row[col]));
        });
      });
    }

    it('[Forming Square] "at least Cautious or Rally": thresholds and formsSquare flags', () => {
      const line = LINES.find((l) => l.startsWith('Infantry (not in march column) may form square'))!;
      const [, go, dis] = line.match(/at least (\w+) or (\w+) on March table/)!;
      expect(LINES).toContain('A unit will successfully form square on a roll of at least Cautious or Rally.');
      const goRow = MARCH_TABLE_GOOD_ORDER.find((r) => r.name === go)!;
      const dRow = MARCH_TABLE_DISORDERED.find((r) => r.name === dis)!;
      expect(FORM_SQUARE_MIN_ROLL).toEqual({ goodOrder: goRow.min, disordered: dRow.min });
      for (const r of [...MARCH_TABLE_GOOD_ORDER, ...MARCH_TABLE_DISORDERED]) {
        expect(r.formsSquare).toBe(r.min >= FORM_SQUARE_MIN_ROLL[r.column]);
      }
    });
  });

  describe('[Movement]', () => {
    // Read as: header Unit/Basic/Road/Rough/Ford, then a row name followed by its value cells. Empty cells are
    // dropped by the extraction: 4 values = Basic, Road, Rough, Ford; 3 values = Basic, Road, Ford (Rough empty).
    const body = between('Ford', 'TACTICAL MOVEMENT MODIFIERS', at('Unit'));
    const isValue = (l: string) => /^(-?\d+”|-|x⅓)$/.test(l);
    const rows: { label: string; cells: string[] }[] = [];
    for (const l of body) {
      if (isValue(l)) rows.at(-1)!.cells.push(l);
      else rows.push({ label: l, cells: [] });
    }
    const inches = (c: string) => Number(c.replace('”', ''));

    it('header and row names', () => {
      expect(LINES.slice(at('Unit'), at('Unit') + 5)).toEqual(['Unit', 'Basic', 'Road', 'Rough', 'Ford']);
      expect(rows.map((r) => r.label)).toEqual(MOVEMENT_RATES.map((r) => r.label));
    });
    it('every cell; the Rough cell missing exactly where A11 fills it', () => {
      rows.forEach((row, i) => {
        const data = MOVEMENT_RATES[i]!;
        expect([3, 4]).toContain(row.cells.length);
        const [basic, road, ...rest] = row.cells as [string, string, ...string[]];
        const rough = rest.length === 2 ? rest[0]! : null;
        const ford = rest.at(-1)!;
        expect(data.basic).toBe(inches(basic));
        expect(data.road).toBe(road === '-' ? null : inches(road));
        expect(data.fordDeduction).toBe(-inches(ford));
        if (rough === null) expect(data.roughSource).toBe('A11');
        else {
          expect(data.roughSource).toBe('sheet');
          expect(rough).toBe('x⅓');
          expect(data.rough).toBeCloseTo(1 / 3, 12);
        }
      });
    });
    it('[Forming Square] box: passage of lines, formation change, prolong', () => {
      expect(Number(TEXT.match(/Minus (\d+)” per unit penetrated for Passage of Lines/)![1])).toBe(
        MOVEMENT_NOTES.passageOfLinesPerUnit,
      );
      expect(TEXT).toContain('Minus a half move to change formation.');
      expect(MOVEMENT_NOTES.formationChangeCost).toBe(0.5);
      expect(Number(TEXT.match(/A battery can prolong (\d+)” without limbering/)![1])).toBe(
        MOVEMENT_NOTES.batteryProlong,
      );
    });
  });

  describe('[Tactical Movement Modifiers]', () => {
    // Read as: a DRM line ("+1/+2", "-2", …) then its condition line; "•" lines continue the condition above.
    const body = between('TACTICAL MOVEMENT MODIFIERS', 'Regimental Scale');
    const rows: { printed: string; text: string; bullets: string[] }[] = [];
    for (let i = 0; i < body.length; i++) {
      const l = body[i]!;
      if (/^[+-]\d(\/[+-]\d)?$/.test(l)) rows.push({ printed: l, text: body[++i]!, bullets: [] });
      else if (l.startsWith('• ')) rows.at(-1)!.bullets.push(l.slice(2));
      else throw new Error(`unexpected line in the modifiers: ${l}`);
    }
    it('every row: printed DRM, its numbers, the condition text', () => {
      expect(rows.map((r) => r.printed)).toEqual(MARCH_DRMS.map((r) => r.printed));
      rows.forEach((r, i) => {
        expect(MARCH_DRMS[i]!.values).toEqual(nums(r.printed));
        expect(MARCH_DRMS[i]!.sheetText).toBe(r.text);
      });
    });
    it('the −2 list and the leader cap "Max 4 pts" (A10)', () => {
      expect(rows.find((r) => r.printed === '-2')!.bullets).toEqual(INCONSISTENT_FORMATIONS_PRINTED);
      expect(Number(rows[0]!.text.match(/Max (\d+) pts/)![1])).toBe(MARCH_LEADER_DRM_CAP);
      expect(Number(rows[0]!.text.match(/within (\d+)”/)![1])).toBe(DISTANCES.detachedLeaderRadius);
      expect(Number(TEXT.match(/Friendly units within (\d+)” of both flanks/)![1])).toBe(DISTANCES.secureFlanks);
      expect(Number(TEXT.match(/friendly units within (\d+)” of each flank/)![1])).toBe(DISTANCES.secureFlanks);
    });
  });

  describe('[Fire Points at Range]', () => {
    // Read as: five range headers, then a row name followed by its cells. Battery cells are "Heavy/Light"; musket
    // rows print two cells, the 3" value and "1 Sk" (skirmish fire) in the 6" column.
    const body = between('FIRE POINTS AT RANGE', 'FIRE POINT MODIFIERS');
    const ranges = body.slice(0, 5);
    const rows: { label: string; cells: string[] }[] = [];
    for (const l of body.slice(5)) {
      if (/^(\d+(\.\d+)?(\/\d+)?|1 Sk)$/.test(l)) rows.at(-1)!.cells.push(l);
      else rows.push({ label: l, cells: [] });
    }
    it('range columns', () => {
      expect(ranges.map((r) => Number(r.replace('”', '')))).toEqual([...RANGE_BANDS]);
    });
    it('battery rows, every Heavy/Light cell', () => {
      const batteries = rows.filter((r) => /gun battery/.test(r.label));
      expect(batteries.map((r) => r.label)).toEqual(['8 gun battery (Heavy/Light)', '6 gun battery (Heavy/Light)']);
      for (const r of batteries) {
        const guns = Number(r.label.match(/^(\d+) gun/)![1]) as 6 | 8;
        expect(r.cells).toHaveLength(5);
        expect(BATTERY_FIRE_POINTS[guns].Heavy).toEqual(r.cells.map((c) => Number(c.split('/')[0])));
        expect(BATTERY_FIRE_POINTS[guns].Light).toEqual(r.cells.map((c) => Number(c.split('/')[1])));
      }
    });
    it('musket rows: per stand at 3", "1 Sk" at 6"', () => {
      const muskets = rows.filter((r) => /Musket/.test(r.label));
      expect(muskets.map((r) => r.label)).toEqual(['2-Rank Musket', '3-Rank Musket']);
      for (const r of muskets) {
        const key = r.label.startsWith('2') ? 'TwoRank' : 'ThreeRank';
        expect(r.cells).toHaveLength(2);
        expect(MUSKET_FIRE_POINTS[key].volley).toBe(Number(r.cells[0]));
        expect(r.cells[1]).toMatch(/^\d+ Sk$/);
        expect(MUSKET_FIRE_POINTS[key].skirmish).toBe(Number(r.cells[1]!.split(' ')[0]));
      }
    });
    it('fire point notes: squares, BUA ½, firer disordered (no value printed: A6)', () => {
      expect(Number(TEXT.match(/Squares fire at (\d+) fire point per stand/)![1])).toBe(SQUARE_FIRE_POINTS_PER_STAND);
      expect(TEXT).toContain('All stands in a BUA fire at ½ effect and cannot skirmish fire.');
      expect(BUA.fireMultiplier).toBe(0.5);
      const fpm = between('FIRE POINT MODIFIERS', 'DIE ROLL MODIFIERS', at('FIRE POINTS AT RANGE'));
      expect(fpm).toEqual(['Firer disordered or damaged gun.']); // the value is missing: the gap A6 fills
      expect(FIRER_DISORDERED_OR_DAMAGED_MULTIPLIER).toBe(0.5);
      expect(TEXT.match(/A maximum of (\w+) batteries can fire on any one unit/)![1]).toBe(
        ['zero', 'one', 'two', 'three'][MAX_BATTERIES_PER_TARGET],
      );
    });
  });

  describe('[V&C DRM]', () => {
    // Read as: pairs of lines, DRM then label, from "DIE ROLL MODIFIERS" to the results' "DIE RESULT". Labels
    // "N pts." / "Less than N fire points" / "N or more points" are the conversion; "Target …" the target rows.
    const body = between('DIE ROLL MODIFIERS', 'DIE RESULT', at('FIRE POINT MODIFIERS'));
    const pairs: { printed: string; label: string }[] = [];
    for (let i = 0; i < body.length; i += 2) pairs.push({ printed: body[i]!, label: body[i + 1]! });
    const conv = pairs.filter((p) => !p.label.startsWith('Target'));
    const targets = pairs.filter((p) => p.label.startsWith('Target'));

    it('the fire-point conversion, every row', () => {
      expect(conv.map((p) => p.label)).toEqual(FIRE_POINT_DRMS.map((r) => r.printed));
      conv.forEach((p, i) => {
        const r = FIRE_POINT_DRMS[i]!;
        expect(r.drm).toBe(Number(p.printed));
        const less = p.label.match(/^Less than (\d+) fire points$/);
        if (less) {
          expect(r.min).toBe(0);
          expect(FIRE_POINT_DRMS[i + 1]!.min).toBe(Number(less[1]));
        } else expect(r.min).toBe(Number(p.label.match(/^(\d+) (pts\.|or more points)$/)![1]));
      });
    });
    it('the target rows, every row', () => {
      expect(targets.map((p) => p.label)).toEqual(TARGET_DRMS.map((r) => r.sheetText));
      targets.forEach((p, i) => {
        expect(TARGET_DRMS[i]!.printed).toBe(p.printed);
        expect(TARGET_DRMS[i]!.values).toEqual(nums(p.printed));
      });
      expect(TEXT).toContain('Target in Field Column gets +1 DRM.'); // [Differences: Fire Points]
    });
  });

  describe('[V&C Results]', () => {
    // Read as: "DIE RESULT", "EFFECTS", then pairs row label / effect text up to "Bayonet & Sabre".
    const start = at('DIE RESULT', at('FIRE POINT MODIFIERS'));
    const body = between('EFFECTS', 'Bayonet & Sabre', start);
    const rows: { label: string; text: string }[] = [];
    for (let i = 0; i < body.length; i += 2) rows.push({ label: body[i]!, text: body[i + 1]! });

    it('every row: range, name, effects read from the words', () => {
      expect(rows.map((r) => r.label)).toEqual(FIRE_RESULTS.map((r) => r.rows));
      rows.forEach((row, i) => {
        const r = FIRE_RESULTS[i]!;
        const [min, max] = rowRange(row.label);
        const t = row.text;
        expect(r).toMatchObject({
          min,
          max,
          name: t.slice(0, t.indexOf('.')),
          text: t,
          troopsDisordered: /troops disordered/i.test(t),
          troopHits: Number(t.match(/take (\d+) hits?/)?.[1] ?? 0),
          battery: /gun stand wrecked/.test(t)
            ? 'wrecked'
            : /gun stand damaged/.test(t)
              ? 'damaged'
              : /gun stand silenced/.test(t)
                ? 'silenced'
                : 'none',
          chargeChecked: /Charge checked/.test(t),
          cannonadeOnly: /cannonade only/.test(t) && /Musketry no effect/.test(t),
        });
      });
    });
    it('charge checked: 2" retreat ([B&S notes]) and for Telling Fire ([Differences])', () => {
      expect(Number(TEXT.match(/Retreat charging unit (\d+)” from enemy/)![1])).toBe(CHARGE_CHECKED_RETREAT);
      expect(TEXT).toContain('Charge checked for Telling Fire.');
      expect(fireResult(8).chargeChecked).toBe(true);
    });
  });

  describe('[B&S DRM]', () => {
    // Read as: groups, each a run of value lines ("+1", "-3") then a run of condition lines. Equal runs pair one to
    // one; a run of values before a single condition is one row with several values (cover +1/+2/+3). A trailing
    // " 1" / " 2" after a condition is its note marker ("3:2" has no space before the digit, so is no marker).
    const s = at('Bayonet & Sabre', at('FIRE POINT MODIFIERS'));
    const body = between('DIE ROLL MODIFIERS', 'DIE', s);
    const rows: { values: number[]; sheetText: string; note: number | null }[] = [];
    let vals: number[] = [];
    let conds: string[] = [];
    const flush = () => {
      if (conds.length === vals.length) conds.forEach((c, i) => rows.push(row([vals[i]!], c)));
      else if (conds.length === 1) rows.push(row(vals, conds[0]!));
      else throw new Error(`cannot pair ${vals} with ${conds}`);
      vals = [];
      conds = [];
    };
    const row = (values: number[], c: string) => {
      const m = c.match(/^(.*\S) ([12])$/);
      return m ? { values, sheetText: m[1]!, note: Number(m[2]) } : { values, sheetText: c, note: null };
    };
    for (const l of body) {
      if (/^[+-]\d$/.test(l)) {
        if (conds.length) flush();
        vals.push(Number(l));
      } else conds.push(l);
    }
    flush();

    it('every row: values, condition text, note marker', () => {
      expect(BS_DRMS.map((r) => ({ values: [...r.values], sheetText: r.sheetText, note: r.note }))).toEqual(rows);
    });
    it('the notes', () => {
      const notes = between('Notes:', 'Only the front rank of stands fire in Bayonet & Sabre combat.');
      expect(notes).toEqual([`1. ${BS_NOTES[1]}`, `2. ${BS_NOTES[2]}`]);
    });
    it('[Differences: Forming Square] the cavalry v infantry replacements agree with the page-2 values', () => {
      const i = at('Replace Cavalry charging Infantry DRMs with:');
      const list = LINES.slice(i + 1, i + 4).map((l) => l.match(/^• ([+-]\d) (.*)$/)!);
      expect(list.map((m) => ({ value: Number(m[1]), sheetText: m[2] }))).toEqual(
        CAVALRY_VS_INFANTRY_REPLACEMENTS.map(({ value, sheetText }) => ({ value, sheetText })),
      );
      for (const r of CAVALRY_VS_INFANTRY_REPLACEMENTS) {
        expect(BS_DRMS.find((d) => d.id === r.id)!.values).toEqual([r.value]);
      }
    });
  });

  describe('[B&S Results]', () => {
    // Read as: "DIE", "DIFF.", "EFFECTS", then per row: the differential label, the name, and cells opened by
    // "DEFENDER:", "ATTACKER:" or "ATTACKER & DEFENDER:"; any other line continues the cell above (the 1–3
    // defender's "Hold position if square v cavalry."). The table ends at "Notes:".
    const s = at('DIE', at('FIRE POINT MODIFIERS'));
    const body = LINES.slice(s + 3, at('Notes:', s));
    const rows: { label: string; name: string; defender: string; attacker: string }[] = [];
    let cell: 'defender' | 'attacker' | 'both' | null = null;
    for (let i = 0; i < body.length; i++) {
      const l = body[i]!;
      let m: RegExpMatchArray | null;
      if (isRowLabel(l)) {
        rows.push({ label: l, name: body[++i]!, defender: '', attacker: '' });
        cell = null;
      } else if ((m = l.match(/^(DEFENDER|ATTACKER|ATTACKER & DEFENDER): (.*)$/))) {
        const r = rows.at(-1)!;
        cell = m[1] === 'DEFENDER' ? 'defender' : m[1] === 'ATTACKER' ? 'attacker' : 'both';
        if (cell !== 'attacker') r.defender = m[2]!;
        if (cell !== 'defender') r.attacker = m[2]!;
      } else {
        const r = rows.at(-1)!;
        if (cell === 'defender' || cell === 'both') r.defender += ` ${l}`;
        if (cell === 'attacker' || cell === 'both') r.attacker += ` ${l}`;
      }
    }

    /** What a cell's words say. */
    function fromText(t: string): Omit<BsSideEffect, 'text'> {
      const retreat = t.match(/retreat (\d+)\s*”?\s*from enemy/i);
      return {
        hits: Number(t.match(/Takes? (\d+) hits?/)?.[1] ?? (/lose one troop stand/.test(t) ? 1 : 0)), // A8
        troopsDisordered: /Troops disordered|Both sides are disordered/.test(t),
        gunsSilenced: /guns silenced|and silenced|disordered\/silenced/.test(t),
        troops: retreat
          ? { retreat: Number(retreat[1]) }
          : /Troops full retreat|retreat a full move/.test(t)
            ? { retreat: 'fullMove' }
            : /^Hold position\./.test(t)
              ? 'hold'
              : /^Occupy enemy position/.test(t)
                ? 'occupy'
                : 'stay',
        guns: /Guns limber and full retreat/.test(t)
          ? 'limberAndFullRetreat'
          : /guns retreat silenced/.test(t)
            ? 'retreatSilenced'
            : /gun stand wrecked/.test(t)
              ? 'wreckOneStand'
              : 'stay',
        loseAllGunsIfDefeatedByCavalry: /Lose all guns if defeated by cavalry/.test(t),
        leaderCaptured: /Leader captured/.test(t),
        breakthrough: /^Breakthrough charge/.test(t)
          ? 'all'
          : /Cavalry must breakthrough/.test(t)
            ? 'cavalryMust'
            : 'none',
        cavalryMayRecall: /Countercharging cavalry may carry the position or recall/.test(t)
          ? 'countercharging'
          : /Cavalry may recall up to a full move after 1st combat/.test(t)
            ? 'afterFirstCombat'
            : 'no',
        counterchargingCavalryMayCarry: /may carry the position/.test(t),
        cavalryDisordered: /Cavalry disordered/.test(t),
        holdIfSquareVsCavalry: /Hold position if square v cavalry/.test(t),
        cavalryVsSquareRetreat: t.match(/cavalry v square then retreat disordered (\d+)/)
          ? Number(t.match(/retreat disordered (\d+)/)![1])
          : null,
        loseBreakthroughModifier: /Lose breakthrough modifier/.test(t),
      };
    }

    it('every row: differential, label, both cells word for word', () => {
      expect(LINES.slice(s, s + 3)).toEqual(['DIE', 'DIFF.', 'EFFECTS']);
      expect(rows.map((r) => r.label)).toEqual(BS_RESULTS.map((r) => r.rows));
      rows.forEach((row, i) => {
        const r = BS_RESULTS[i]!;
        expect([r.min, r.max]).toEqual(rowRange(row.label));
        expect(r.sheetLabel).toBe(row.name);
        expect(norm(r.defender.text)).toBe(norm(row.defender));
        expect(norm(r.attacker.text)).toBe(norm(row.attacker));
      });
    });
    it('every row: the structured effects agree with the words', () => {
      rows.forEach((row, i) => {
        const r = BS_RESULTS[i]!;
        const { text: _d, ...def } = r.defender;
        const { text: _a, ...att } = r.attacker;
        expect({ rows: r.rows, defender: def }).toEqual({ rows: r.rows, defender: fromText(row.defender) });
        expect({ rows: r.rows, attacker: att }).toEqual({ rows: r.rows, attacker: fromText(row.attacker) });
      });
    });
    it('the 0 row: the sheet says "Shattered!", the digest disputes it (BOOK vs DIGEST)', () => {
      expect(rows.find((r) => r.label === '0')!.name).toBe('Shattered!');
      expect(bayonetResult(0).sheetLabel).toBe('Shattered!');
      expect(bayonetResult(0).digestLabel).not.toBeNull();
      expect(BOOK_VS_DIGEST.some((b) => b.includes('0 differential'))).toBe(true);
    });
  });

  describe('other lists', () => {
    it('[Play Sequence]', () => {
      const body = between('Play Sequence', 'Forming Square');
      const phases = body.filter((l) => /Phase$/.test(l));
      expect(phases).toEqual(PLAY_SEQUENCE.map((p) => p.phase));
      for (const p of PLAY_SEQUENCE) {
        const i = body.indexOf(p.phase);
        expect(body.slice(i + 1, i + 1 + p.steps.length)).toEqual([...p.steps]);
      }
    });
    it('[Formations] on page 1 and [Differences: Formations] on page 3', () => {
      const want = FORMATIONS.map((f) => `${f.name} (${f.aoe})`);
      expect(between('Formations', 'Built-up Areas')).toEqual(want);
      expect(between('Formations', 'Forming Square', at('Differences to Age of Eagles'))).toEqual(want);
    });
    it('[Regimental Scale] and [Differences: Scale, Units, Hits]', () => {
      expect(Number(TEXT.match(/Ground Scale\. 1” = (\d+) yards/)![1])).toBe(SCALE.yardsPerInch);
      expect(Number(TEXT.match(/1 figure=(\d+) troops/)![1])).toBe(SCALE.troopsPerFigure);
      expect(Number(TEXT.match(/Infantry stand = (\d+) infantry/)![1])).toBe(SCALE.infantryPerStand);
      expect(Number(TEXT.match(/Cavalry stand = (\d+) cavalry/)![1])).toBe(SCALE.cavalryPerStand);
      expect(
        TEXT.match(/Artillery stand = (\d+)-(\d+) guns/)!
          .slice(1)
          .map(Number),
      ).toEqual([...SCALE.gunsPerArtilleryStand]);
      expect(Number(TEXT.match(/Game Turn = (\d+) minutes/)![1])).toBe(SCALE.minutesPerTurn);
      const inf = TEXT.match(/Infantry are all (\d+) stand units, representing (\d+) troops or (\d+) battalions/)!;
      expect(inf.slice(1).map(Number)).toEqual([
        UNIT_SIZES.infantry.stands,
        UNIT_SIZES.infantry.troops,
        UNIT_SIZES.infantry.battalions,
      ]);
      const cav = TEXT.match(/Cavalry are all (\d+) stand units, representing (\d+) troops or (\d+) squadrons/)!;
      expect(cav.slice(1).map(Number)).toEqual([
        UNIT_SIZES.cavalry.stands,
        UNIT_SIZES.cavalry.troops,
        UNIT_SIZES.cavalry.squadrons,
      ]);
      expect(
        TEXT.match(/Batteries are (\d+) gun stand for (\d+) and (\d+) gun batteries/)!
          .slice(1)
          .map(Number),
      ).toEqual([UNIT_SIZES.battery.stands, ...UNIT_SIZES.battery.guns]);
      const removal = [...TEXT.matchAll(/When a unit takes (\d+) hits it is removed from play/g)].map((m) =>
        Number(m[1]),
      );
      expect(removal).toEqual([HITS_TO_REMOVE, HITS_TO_REMOVE]); // page 2 and page 3
    });
    it('[Special Rules]', () => {
      expect(between('Special Rules', '2 of 3').map((l) => l.replace(/^• /, ''))).toEqual([...SPECIAL_RULES]);
    });
    it('[Built-up Areas]', () => {
      const m = TEXT.match(/BUAs are made up of one or more (\d+)” x (\d+)” blocks/)!;
      expect([Number(m[1]), Number(m[2])]).toEqual([BUA.blockSize, BUA.blockSize]);
      expect(TEXT).toContain('A BUA block can accommodate a single unit.');
      expect(TEXT).toContain('All stands in a BUA block count for Bayonet & Sabre combat.');
      expect(TEXT).toContain('Cavalry attacking a unit in a BUA are always Disordered.');
      expect(TEXT).toContain('Skirmish fire is not allowed from a BUA.');
      expect(TEXT).toContain('except for friendly units moving in March Column through the BUA');
    });
  });
});

describe('lookups at the boundaries', () => {
  it('March table: modified rolls −1, 0, 1, 9, 11 and every row edge', () => {
    const d = (n: number) => marchResult(n, true).name;
    const g = (n: number) => marchResult(n, false).name;
    expect([-5, -1, 0, 1, 2, 3, 4, 5, 6, 8, 9, 11, 20].map(d)).toEqual([
      'Routs',
      'Routs',
      'Broken',
      'Broken',
      'Wavering',
      'Wavering',
      'Shaken',
      'Shaken',
      'Rally',
      'Rally',
      'Elan',
      'Elan',
      'Elan',
    ]);
    expect([-5, -1, 0, 1, 2, 3, 4, 5, 6, 8, 9, 11, 20].map(g)).toEqual([
      'Fall Back',
      'Fall Back',
      'Retire',
      'Retire',
      'Hold Ground',
      'Hold Ground',
      'Cautious',
      'Cautious',
      'En Avant',
      'En Avant',
      'A la Bayonette',
      'A la Bayonette',
      'A la Bayonette',
    ]);
    expect(() => marchResult(2.5, false)).toThrow(RangeError);
  });
  it('March table rows tile the integers with no gap or overlap', () => {
    for (const t of [MARCH_TABLE_DISORDERED, MARCH_TABLE_GOOD_ORDER, FIRE_RESULTS, BS_RESULTS]) {
      for (let i = 1; i < t.length; i++) expect(t[i]!.max).toBe(t[i - 1]!.min - 1);
      expect(t[0]!.max).toBe(Infinity);
      expect(t.at(-1)!.min).toBe(-Infinity);
    }
  });
  it('fire points → DRM at 0, 3.5, 4, 6, 12, 16, 50 and between values (A6: the lower)', () => {
    const cases: [number, number][] = [
      [0, -5],
      [3.5, -5],
      [4, -4],
      [5.9, -4],
      [6, -3],
      [7.5, -3],
      [8, -2],
      [10, -1],
      [11.99, -1],
      [12, 0],
      [15, 0],
      [16, 1],
      [21, 1],
      [22, 2],
      [29, 2],
      [30, 3],
      [39, 3],
      [40, 4],
      [49.5, 4],
      [50, 5],
      [120, 5],
    ];
    for (const [fp, drm] of cases) expect([fp, firePointDrm(fp)]).toEqual([fp, drm]);
    expect(() => firePointDrm(-1)).toThrow(RangeError);
  });
  it('range bands: 3, 3.1, 6, 6.1, 24, 24.1', () => {
    expect([0, 3, 3.1, 6, 6.1, 12, 18, 24, 24.1].map(rangeBand)).toEqual([0, 0, 1, 1, 2, 2, 3, 4, null]);
  });
  it('fire results at 4, 5, 6, 7, 8, 10, 11', () => {
    expect([-3, 4, 5, 6, 7, 8, 10, 11, 15].map((n) => fireResult(n).name)).toEqual([
      'Desultory Fire',
      'Desultory Fire',
      'Lively Fire',
      'Galling Fire',
      'Galling Fire',
      'Telling Fire',
      'Telling Fire',
      'Withering Fire',
      'Withering Fire',
    ]);
  });
  it('B&S differentials ±7, ±6, ±4, ±3, ±1, 0', () => {
    const r = (n: number) => `${bayonetResult(n).rows}`;
    expect([-9, -7, -6, -4, -3, -1, 0, 1, 3, 4, 6, 7, 12].map(r)).toEqual([
      '-7 or less',
      '-7 or less',
      '-4,-5,-6',
      '-4,-5,-6',
      '-1,-2,-3',
      '-1,-2,-3',
      '0',
      '1, 2, 3',
      '1, 2, 3',
      '4, 5, 6',
      '4, 5, 6',
      '7 or more',
      '7 or more',
    ]);
    expect(bayonetResult(7).defender.hits).toBe(2);
    expect(bayonetResult(-7).attacker.hits).toBe(2);
    expect(bayonetResult(0).attacker.hits).toBe(1); // A8
  });
  it('outnumbering at exactly 3:2, 2:1, 3:1, 4:1', () => {
    expect([
      outnumberDrm(6, 4),
      outnumberDrm(5, 4),
      outnumberDrm(8, 4),
      outnumberDrm(12, 4),
      outnumberDrm(16, 4),
    ]).toEqual([1, 0, 2, 3, 4]);
    expect(outnumberDrm(7, 1)).toBe(4);
    expect(outnumberDrm(4, 6)).toBe(0);
  });
  it('notes 1 and 2 (A7)', () => {
    expect(bsNoteApplies(1, { qualifyingStands: 5, totalStands: 10, qualifyingUnits: 1 })).toBe(true);
    expect(bsNoteApplies(1, { qualifyingStands: 4, totalStands: 10, qualifyingUnits: 1 })).toBe(false);
    expect(bsNoteApplies(2, { qualifyingStands: 1, totalStands: 10, qualifyingUnits: 1 })).toBe(true);
    expect(bsNoteApplies(2, { qualifyingStands: 0, totalStands: 10, qualifyingUnits: 0 })).toBe(false);
  });
  it('movement: A11 rows by formation; rough values', () => {
    expect(infantryMoverKind('MarchColumn')).toBe('infantryColumn');
    expect(infantryMoverKind('Masse')).toBe('infantryLine');
    expect(infantryMoverKind('Square')).toBeNull();
    expect(movementRate('infantryColumn').rough).toBe(0.5);
    expect(movementRate('openOrder').rough).toBe(1);
    expect(movementRate('horseArtillery')).toMatchObject({ basic: 9, road: 12, fordDeduction: 3 });
  });
  it('the March-mode −2 (page-1 table)', () => {
    expect(inconsistentWithMarchMode('Linear', 'FieldColumn')).toBe(true);
    expect(inconsistentWithMarchMode('Linear', 'Masse')).toBe(true);
    expect(inconsistentWithMarchMode('Linear', 'Line')).toBe(false);
    expect(inconsistentWithMarchMode('Columnar', 'Line')).toBe(true);
    expect(inconsistentWithMarchMode('Columnar', 'Masse')).toBe(false);
    expect(inconsistentWithMarchMode('Impulse', 'Line')).toBe(false);
  });
  it('every BOOK vs DIGEST and text reading is recorded', () => {
    expect(BOOK_VS_DIGEST.length).toBeGreaterThanOrEqual(3);
    expect(TEXT_READINGS.length).toBeGreaterThanOrEqual(5);
  });
});

describe('digest §10 worked vectors', () => {
  const line = (
    musket: 'TwoRank' | 'ThreeRank',
    stands: number,
    range: number,
    o: Partial<{ square: boolean; inBua: boolean; disordered: boolean }> = {},
  ) => musketFirePoints({ musket, firingStands: stands, range, square: false, inBua: false, disordered: false, ...o });

  it('§10.1 fire-point lookups', () => {
    const fp = (x: { fp: number } | null) => [x!.fp, firePointDrm(x!.fp)];
    expect(fp(line('TwoRank', 6, 2.5))).toEqual([15, 0]);
    expect(fp(line('ThreeRank', 6, 3))).toEqual([12, 0]);
    expect(fp(line('TwoRank', 3, 3))).toEqual([7.5, -3]);
    expect(fp(line('ThreeRank', 2, 3))).toEqual([4, -4]);
    expect(fp(line('TwoRank', 1, 3))).toEqual([2.5, -5]);
    expect(fp(line('TwoRank', 6, 3, { square: true }))).toEqual([6, -3]);
    expect(fp(line('TwoRank', 6, 3, { inBua: true }))).toEqual([7.5, -3]);
    expect(fp(line('TwoRank', 6, 3, { disordered: true }))).toEqual([7.5, -3]);
    const sk = line('ThreeRank', 6, 5)!;
    expect(sk).toEqual({ fp: 6, skirmish: true });
    const skDrm =
      firePointDrm(sk.fp) +
      targetDrm({
        fieldColumnAboutFacedLimberedOrChanged: false,
        marchColumnMasseSquareOrEnfiladed: false,
        openOrderOrSkirmishFire: true,
        cover: 0,
      });
    expect(skDrm).toBe(-5);
    expect(line('TwoRank', 6, 5, { inBua: true })).toBeNull(); // no skirmish fire from a BUA
    expect(line('TwoRank', 6, 6.1)).toBeNull();
    const ranges = [2, 5, 10, 15, 20];
    const bat = (g: 6 | 8, c: 'Heavy' | 'Light') => ranges.map((r) => batteryFirePoints(g, c, r)!);
    expect(bat(8, 'Heavy')).toEqual([24, 18, 14, 10, 8]);
    expect(bat(8, 'Heavy').map(firePointDrm)).toEqual([2, 1, 0, -1, -2]);
    expect(bat(8, 'Light')).toEqual([20, 12, 10, 8, 6]);
    expect(bat(8, 'Light').map(firePointDrm)).toEqual([1, 0, -1, -2, -3]);
    expect(bat(6, 'Heavy')).toEqual([18, 14, 10, 8, 6]);
    expect(bat(6, 'Heavy').map(firePointDrm)).toEqual([1, 0, -1, -2, -3]);
    expect(bat(6, 'Light')).toEqual([14, 10, 8, 6, 4]);
    expect(bat(6, 'Light').map(firePointDrm)).toEqual([0, -1, -2, -3, -4]);
    expect(batteryFirePoints(8, 'Heavy', 2, true)).toBe(12);
    expect(firePointDrm(batteryFirePoints(8, 'Heavy', 2, true)!)).toBe(0);
    expect(batteryFirePoints(6, 'Light', 24.5)).toBeNull();
  });

  it('§10.2 fire results', () => {
    const t = (o: Partial<Parameters<typeof targetDrm>[0]>) =>
      targetDrm({
        fieldColumnAboutFacedLimberedOrChanged: false,
        marchColumnMasseSquareOrEnfiladed: false,
        openOrderOrSkirmishFire: false,
        cover: 0,
        ...o,
      });
    // 8-gun Heavy at 2" vs Masse, D10 5 → 9 Telling: disordered + 1 hit, charge checked
    const a = 5 + firePointDrm(batteryFirePoints(8, 'Heavy', 2)!) + t({ marchColumnMasseSquareOrEnfiladed: true });
    expect(a).toBe(9);
    expect(fireEffect(a, 'cannonade')).toMatchObject({ troopsDisordered: true, troopHits: 1, chargeChecked: true });
    expect(fireResult(a).name).toBe('Telling Fire');
    // 2-rank Line at 3" vs Line in cover 1, D10 7 → 6 Galling
    const b = 7 + firePointDrm(line('TwoRank', 6, 3)!.fp) + t({ cover: 1 });
    expect([b, fireResult(b).name]).toEqual([6, 'Galling Fire']);
    expect(fireEffect(b, 'musketry')).toMatchObject({ troopsDisordered: true, troopHits: 0 });
    // Lively: musketry no effect; cannonade disordered or silenced
    expect(fireEffect(5, 'musketry')).toMatchObject({ troopsDisordered: false, battery: 'none' });
    expect(fireEffect(5, 'cannonade')).toMatchObject({ troopsDisordered: true, battery: 'silenced' });
    // 6-gun Light at 15" vs limbered battery, D10 10 → 8 Telling: damaged
    const c =
      10 + firePointDrm(batteryFirePoints(6, 'Light', 15)!) + t({ fieldColumnAboutFacedLimberedOrChanged: true });
    expect([c, fireEffect(c, 'cannonade').battery]).toEqual([8, 'damaged']);
    // 2-rank Line at 3" vs Open Order, D10 10 → 8 Telling
    const d = 10 + firePointDrm(15) + t({ openOrderOrSkirmishFire: true });
    expect([d, fireResult(d).name]).toEqual([8, 'Telling Fire']);
    // 3-rank skirmish at 5" (−5) vs enfiladed Line (+2), D10 9 → 6 Galling
    const e = 9 + firePointDrm(6) + t({ openOrderOrSkirmishFire: true, marchColumnMasseSquareOrEnfiladed: true });
    expect([e, fireResult(e).name]).toEqual([6, 'Galling Fire']);
    // A6: +1 and +2 rows not cumulative
    expect(t({ fieldColumnAboutFacedLimberedOrChanged: true, marchColumnMasseSquareOrEnfiladed: true })).toBe(2);
  });

  it('§10.3 March table', () => {
    const base: MarchDrmInput = {
      detachedLeader: 'none',
      attachedLeader: 'none',
      formation: 'Line',
      movingInconsistently: false,
      secureFlanks: false,
      troopClass: 'Regular',
      hits: 0,
      disorderedCavalryCharging: false,
      cohesionLevel: 0,
    };
    const m1 = marchDrm({ ...base, detachedLeader: 'plain', formation: 'FieldColumn', hits: 1 }).total;
    expect(m1).toBe(1);
    expect(marchResult(4 + m1, false)).toMatchObject({
      name: 'Cautious',
      move: 'half',
      formationChange: 'squareOrLimber',
    });
    const m2 = marchDrm({
      ...base,
      formation: 'FieldColumn',
      movingInconsistently: inconsistentWithMarchMode('Linear', 'FieldColumn'),
    }).total;
    expect(m2).toBe(-1);
    expect(marchResult(1 + m2, false).name).toBe('Retire');
    const m3 = marchDrm({ ...base, attachedLeader: 'charismatic', troopClass: 'Conscript' }).total;
    expect(m3).toBe(2);
    expect(marchResult(7 + m3, true)).toMatchObject({ name: 'Elan', rallies: true, move: 'full' });
    const m4 = marchDrm({
      ...base,
      formation: 'Line',
      disorderedCavalryCharging: true,
      hits: 2,
      cohesionLevel: 1,
    }).total;
    expect(m4).toBe(-6);
    expect(marchResult(5 + m4, true)).toMatchObject({ name: 'Routs', removed: true });
    const m5 = marchDrm({
      ...base,
      attachedLeader: 'charismatic',
      detachedLeader: 'charismatic',
      secureFlanks: true,
      troopClass: 'Elite',
    });
    expect(m5.total).toBe(6); // leaders 3 + 2 = 5 → capped at 4 (A10); +1 flanks; +1 Elite
    expect(marchResult(3 + m5.total, false).name).toBe('A la Bayonette');
    // forming square: Good Order needs D10 ≥ 4, disordered ≥ 6 with no modifiers
    expect(marchDrm(base).total).toBe(0);
    expect([3, 4].map((n) => marchResult(n, false).formsSquare)).toEqual([false, true]);
    expect([5, 6].map((n) => marchResult(n, true).formsSquare)).toEqual([false, true]);
  });

  it('§10.4 Bayonet & Sabre', () => {
    const side = {
      leader: 'none',
      stands: 4,
      enemyStands: 6,
      charge: null,
      lancersVsInfantryOpen: false,
      cavalryWeight: null,
      breakthrough: false,
      disorderedEtc: false,
      hitsThisFirePhase: 0,
      cover: 0,
      outflanked: false,
      hits: 0,
      troopClass: null,
    } as const;
    // Heavy Elite cavalry with a Charismatic leader v Regular infantry in Line in the open with 1 hit
    const att = bayonetDrm({
      ...side,
      leader: 'charismatic',
      charge: 'cavalryVsInfantryOpen',
      cavalryWeight: 'Heavy',
      troopClass: 'Elite',
    });
    const def = bayonetDrm({ ...side, stands: 6, enemyStands: 4, hits: 1, troopClass: 'Regular' });
    expect([att.total, def.total]).toEqual([7, 1]);
    const r1 = bayonetResult(6 + att.total - (4 + def.total));
    expect([r1.rows, r1.sheetLabel]).toEqual(['7 or more', 'Shattered!']);
    expect(r1.defender).toMatchObject({
      hits: 2,
      troopsDisordered: true,
      troops: { retreat: 'fullMove' },
      leaderCaptured: true,
    });
    expect(r1.attacker.breakthrough).toBe('all');
    // the same charge against a Square
    const att2 = bayonetDrm({
      ...side,
      leader: 'charismatic',
      charge: 'cavalryVsSquare',
      cavalryWeight: 'Heavy',
      troopClass: 'Elite',
    });
    expect(att2.total).toBe(2);
    const r2 = bayonetResult(4 + att2.total - (6 + def.total));
    expect([r2.rows, r2.sheetLabel]).toEqual(['-1,-2,-3', 'Withdrawal!']);
    expect(r2.attacker).toMatchObject({
      troopsDisordered: true,
      troops: { retreat: 2 },
      cavalryMayRecall: 'afterFirstCombat',
    });
    expect(r2.defender.troops).toBe('hold');
    // differential 2, infantry v square: the square retreats 2" disordered (not cavalry), the attacker occupies
    const r3 = bayonetResult(2);
    expect(r3.defender).toMatchObject({ troopsDisordered: true, troops: { retreat: 2 }, holdIfSquareVsCavalry: true });
    expect(r3.attacker).toMatchObject({ troops: 'occupy', cavalryVsSquareRetreat: 2 });
    // differential 0: both disordered, 1 hit each, breakthrough modifier lost
    const r4 = bayonetResult(0);
    for (const s of [r4.attacker, r4.defender]) {
      expect(s).toMatchObject({ troopsDisordered: true, hits: 1, loseBreakthroughModifier: true });
    }
    // cavalry attacks infantry in a BUA (cover 3): cavalry disordered −2; defender +3 cover, +1 outnumber (6 v 4)
    const att5 = bayonetDrm({ ...side, disorderedEtc: BUA.cavalryAttackingAlwaysDisordered });
    const def5 = bayonetDrm({ ...side, stands: 6, enemyStands: 4, cover: 3 });
    expect(att5.parts).toEqual([['disorderedEtc', -2]]);
    expect(def5.parts).toEqual([
      ['outnumber3to2', 1],
      ['cover', 3],
    ]);
  });
});
