/**
 * The Age of Eagles (Regimental Scale 1:60): every table of the quick-reference sheets, as typed data and pure lookups.
 *
 * Source: `shared/seeds/age-of-eagles-regimental-qrs.txt` (3 pages: play sequence, March table, movement, fire and
 * combat tables, and a page of "Differences to Age of Eagles"). The sheets are the book and win; the implementation
 * digest `shared/rules/age-of-eagles.md` fills gaps with ADAPTATIONs A1–A12. Citations name the sheet table in
 * brackets (`// [March Table]`, `// [V&C Results]`, `// [B&S DRM]`, `// [Differences: Units]` …) and the A-number
 * where a gap is filled. Where the digest reads the sheets differently, the code follows the sheet (or, where the
 * sheet cannot be read literally, says why not) and explains it in a `// BOOK vs DIGEST:` comment, all collected in
 * `BOOK_VS_DIGEST`. Extraction damage in the sheet text and how it was read is collected in `TEXT_READINGS`.
 *
 * No I/O, no randomness: rolls are D10 plus modifiers (A1) and come in as numbers.
 */

// ---------------------------------------------------------------------------------------------------------------------
// Dice, scale and units
// ---------------------------------------------------------------------------------------------------------------------

import { type Dist, classify, modifiedRoll, opposed } from '../../core/dice.ts';

/** A1: the sheets never name the die; the table ranges (March "<0".."9+", fire "≤4".."11+") fit one D10. */
export const DIE_SIDES = 10;

/** The row of a table (best first, each row a range of modified rolls or differentials) that `total` reads. */
export function rowIndex(rows: readonly { readonly min: number; readonly max: number }[], total: number): number {
  return rows.findIndex((r) => total >= r.min && total <= r.max);
}

/** A1: D10 + `mod` read on `rows`: each row it can reach with its exact probability, in table order. */
export function rollOn(rows: readonly { readonly min: number; readonly max: number }[], mod: number): Dist<number>[] {
  return modifiedRoll(DIE_SIDES, mod, (total) => rowIndex(rows, total)).sort((a, b) => a.value - b.value);
}

/** A1: one D10 each side, (attacker + `amod`) − (defender + `dmod`), read on a differential table, in table order. */
export function opposedOn(
  rows: readonly { readonly min: number; readonly max: number }[],
  amod: number,
  dmod: number,
): Dist<number>[] {
  return classify(opposed(DIE_SIDES, amod, dmod), (d) => rowIndex(rows, d)).sort((a, b) => a.value - b.value);
}

/** [Regimental Scale] and [Differences: Scale]. */
export const SCALE = {
  yardsPerInch: 80, // [Regimental Scale] Ground Scale. 1" = 80 yards
  troopsPerFigure: 60, // [Differences: Scale] 1 figure=60 troops
  infantryPerStand: 240, // [Regimental Scale] Infantry stand = 240 infantry
  cavalryPerStand: 120, // [Regimental Scale] Cavalry stand = 120 cavalry
  gunsPerArtilleryStand: [6, 8], // [Regimental Scale] Artillery stand = 6-8 guns
  minutesPerTurn: 20, // [Regimental Scale] Game Turn = 20 minutes
} as const;

/** [Differences: Units] fixed unit sizes (stands) and what they represent. */
export const UNIT_SIZES = {
  infantry: { stands: 6, troops: 1440, battalions: 2 }, // Infantry are all 6 stand units, 1440 troops or 2 battalions
  cavalry: { stands: 4, troops: 480, squadrons: 4 }, // Cavalry are all 4 stand units, 480 troops or 4 squadrons
  battery: { stands: 1, guns: [6, 8] }, // Batteries are 1 gun stand for 6 and 8 gun batteries
} as const;

// [Differences: Units] "Russians use half batteries of 6 guns": a scenario gives them `guns: 6` (BatteryGuns).

/** [B&S notes] and [Differences: Hits] "When a unit takes 5 hits it is removed from play." (no stand removal) */
export const HITS_TO_REMOVE = 5;

// ---------------------------------------------------------------------------------------------------------------------
// Play sequence
// ---------------------------------------------------------------------------------------------------------------------

/** [Play Sequence] The phases of a game turn, each step as printed. */
export const PLAY_SEQUENCE = [
  { phase: 'Initiative Phase', steps: ['Sides roll for initiative.'] }, // A2 says how
  {
    phase: 'March (1st) Phase',
    steps: [
      'a. Replace, attach & detach leader.',
      'b. Repeat for all units moving:',
      'b1. Select unit and state orders',
      'b2. Conduct March table check.',
      'b3. Move unit',
      'c. Move detached leaders.',
    ],
  },
  {
    phase: 'Volley & Cannonade (2nd) Phase',
    steps: ['a. Resolve all enemy unit fire', 'b. Resolve all friendly unit fire.'],
  },
  {
    phase: 'Bayonet & Sabre (3rd) Phase',
    steps: [
      'Both sides simultaneously resolve all charges,',
      'countercharges and breakthroughs, applying results immediately.',
    ],
  },
] as const;

// ---------------------------------------------------------------------------------------------------------------------
// Formations
// ---------------------------------------------------------------------------------------------------------------------

export type Formation = 'Line' | 'FieldColumn' | 'Masse' | 'MarchColumn' | 'OpenOrder' | 'Square';

/** [Formations] (page 1) = [Differences: Formations] (page 3): this game's formations and their AoE 2nd-ed. names. */
export const FORMATIONS: readonly { readonly formation: Formation; readonly name: string; readonly aoe: string }[] = [
  { formation: 'Line', name: 'Line', aoe: 'equivalent to Line Of Battle' },
  { formation: 'FieldColumn', name: 'Field Column', aoe: 'equivalent to LoBS' },
  { formation: 'Masse', name: 'Masse', aoe: 'equivalent to Masse' },
  { formation: 'MarchColumn', name: 'March Column', aoe: 'equivalent to March Column' },
  { formation: 'OpenOrder', name: 'Open Order', aoe: 'equivalent to Tirailleur but available to all Light Infantry' },
  { formation: 'Square', name: 'Square', aoe: 'all stands face out on 4 sides' },
];

// ---------------------------------------------------------------------------------------------------------------------
// March table
// ---------------------------------------------------------------------------------------------------------------------

/** Which column of the March table a unit reads: disordered troops and silenced batteries, or Good Order. */
export type MarchColumn = 'disordered' | 'goodOrder';
/** How far a result lets the unit move: its full (basic) move, half of it, or not at all. */
type MarchMove = 'full' | 'half' | 'none';
/** Formation changes a result permits: any, none, only forming square, or square and limber/unlimber. */
type FormationChange = 'any' | 'none' | 'squareOnly' | 'squareOrLimber';

export interface MarchResult {
  readonly name: string; // as printed, without the full stop
  readonly column: MarchColumn;
  readonly rows: string; // the row label as printed ("9 or more", "6, 7, 8", …, "Less than 0")
  readonly min: number; // lowest modified roll of the row (-Infinity for "Less than 0")
  readonly max: number; // highest modified roll of the row (Infinity for "9 or more")
  readonly text: string; // the sheet's whole cell
  readonly move: MarchMove;
  readonly formationChange: FormationChange;
  readonly rallies: boolean; // removes the disordered marker
  readonly removesSilenced: boolean; // removes a battery's silenced marker
  readonly retreat: 'none' | 'fullMove' | 'beyondMusketry';
  readonly disorderedAfter: boolean; // ends the roll disordered / silenced
  readonly hits: number; // hits taken (A8: "lose 1 stand" = 1 hit)
  readonly removed: boolean; // the entire unit is removed from play
  readonly formsSquare: boolean; // a successful square roll ("at least Cautious or Rally") [Forming Square]
}

const LESS_THAN_0 = { rows: 'Less than 0', min: -Infinity, max: -1 } as const;
const ROWS_9 = { rows: '9 or more', min: 9, max: Infinity } as const;
const ROWS_6 = { rows: '6, 7, 8', min: 6, max: 8 } as const;
const ROWS_4 = { rows: '4, 5', min: 4, max: 5 } as const;
const ROWS_2 = { rows: '2, 3', min: 2, max: 3 } as const;
const ROWS_0 = { rows: '0, 1', min: 0, max: 1 } as const;

/** [March Table] the Disorder/Silenced column, best row first. */
export const MARCH_TABLE_DISORDERED: readonly MarchResult[] = [
  {
    name: 'Elan',
    column: 'disordered',
    ...ROWS_9,
    text: 'Elan. Unit rallies and moves normally.',
    move: 'full',
    formationChange: 'any', // moves normally
    rallies: true,
    removesSilenced: true, // "Unit rallies" (the digest §2.5 reads it so too)
    retreat: 'none',
    disorderedAfter: false,
    hits: 0,
    removed: false,
    formsSquare: true, // better than Rally
  },
  {
    name: 'Rally',
    column: 'disordered',
    ...ROWS_6,
    text: 'Rally. Unit rallies and moves half, but cannot change formation (except to square).',
    move: 'half',
    formationChange: 'squareOnly',
    rallies: true,
    removesSilenced: true, // [Special Rules] "A Rally roll will remove a silenced marker."
    retreat: 'none',
    disorderedAfter: false,
    hits: 0,
    removed: false,
    formsSquare: true, // [Forming Square] at least … Rally
  },
  {
    name: 'Shaken',
    column: 'disordered',
    ...ROWS_4,
    text: 'Shaken. Unit rallies but cannot move or change formation. Battery remains silenced.',
    move: 'none',
    formationChange: 'none',
    rallies: true, // troops rally …
    removesSilenced: false, // … but a battery remains silenced
    retreat: 'none',
    disorderedAfter: false,
    hits: 0,
    removed: false,
    formsSquare: false,
  },
  {
    name: 'Wavering',
    column: 'disordered',
    ...ROWS_2,
    text: 'Wavering. Unit remains disordered /silenced and cannot move or change formation.',
    move: 'none',
    formationChange: 'none',
    rallies: false,
    removesSilenced: false,
    retreat: 'none',
    disorderedAfter: true,
    hits: 0,
    removed: false,
    formsSquare: false,
  },
  {
    name: 'Broken',
    column: 'disordered',
    ...ROWS_0,
    text: 'Broken. Unit retreats a full move disordered/silenced and troops lose 1 stand.',
    move: 'none',
    formationChange: 'none',
    rallies: false,
    removesSilenced: false,
    retreat: 'fullMove', // A9: straight away from the nearest enemy, facing kept
    disorderedAfter: true,
    hits: 1, // A8: "troops lose 1 stand" = 1 hit ([Differences: Hits] there is no stand removal)
    removed: false,
    formsSquare: false,
  },
  {
    name: 'Routs',
    column: 'disordered',
    ...LESS_THAN_0,
    text: 'Routs. Entire unit removed from play.',
    move: 'none',
    formationChange: 'none',
    rallies: false,
    removesSilenced: false,
    retreat: 'none',
    disorderedAfter: true,
    hits: 0,
    removed: true,
    formsSquare: false,
  },
];

/** [March Table] the Good Order column, best row first. */
export const MARCH_TABLE_GOOD_ORDER: readonly MarchResult[] = [
  {
    name: 'A la Bayonette',
    column: 'goodOrder',
    ...ROWS_9,
    text: 'A la Bayonette. Unit moves normally.',
    move: 'full',
    formationChange: 'any',
    rallies: false,
    removesSilenced: false,
    retreat: 'none',
    disorderedAfter: false,
    hits: 0,
    removed: false,
    formsSquare: true, // better than Cautious
  },
  {
    name: 'En Avant',
    column: 'goodOrder',
    ...ROWS_6,
    text: 'En Avant. Unit moves normally.',
    move: 'full',
    formationChange: 'any',
    rallies: false,
    removesSilenced: false,
    retreat: 'none',
    disorderedAfter: false,
    hits: 0,
    removed: false,
    formsSquare: true, // better than Cautious
  },
  {
    name: 'Cautious',
    column: 'goodOrder',
    ...ROWS_4,
    text: 'Cautious. Unit may move half but cannot change formation (except to square or limber/unlimber).',
    move: 'half',
    formationChange: 'squareOrLimber',
    rallies: false,
    removesSilenced: false,
    retreat: 'none',
    disorderedAfter: false,
    hits: 0,
    removed: false,
    formsSquare: true, // [Forming Square] at least Cautious
  },
  {
    name: 'Hold Ground',
    column: 'goodOrder',
    ...ROWS_2,
    text: 'Hold Ground. Unit cannot move or change formation.',
    move: 'none',
    formationChange: 'none',
    rallies: false,
    removesSilenced: false,
    retreat: 'none',
    disorderedAfter: false,
    hits: 0,
    removed: false,
    formsSquare: false,
  },
  {
    name: 'Retire',
    column: 'goodOrder',
    ...ROWS_0,
    text: 'Retire. Unit retreats beyond enemy musketry range.',
    move: 'none',
    formationChange: 'none',
    rallies: false,
    removesSilenced: false,
    retreat: 'beyondMusketry', // A9: at most a full move, to > 6" from every enemy infantry; not disordered
    disorderedAfter: false,
    hits: 0,
    removed: false,
    formsSquare: false,
  },
  {
    name: 'Fall Back',
    column: 'goodOrder',
    ...LESS_THAN_0,
    text: 'Fall Back. Unit retreats a full move disordered/silenced.',
    move: 'none',
    formationChange: 'none',
    rallies: false,
    removesSilenced: false,
    retreat: 'fullMove', // A9
    disorderedAfter: true,
    hits: 0,
    removed: false,
    formsSquare: false,
  },
];

function assertInteger(n: number, what: string): void {
  if (!Number.isInteger(n)) throw new RangeError(`${what} must be an integer, got ${n}`);
}

/** [March Table] the result of a modified roll (D10 + Tactical Movement Modifiers), in the unit's column. */
export function marchResult(modifiedRoll: number, disorderedOrSilenced: boolean): MarchResult {
  assertInteger(modifiedRoll, 'modified March roll');
  const table = disorderedOrSilenced ? MARCH_TABLE_DISORDERED : MARCH_TABLE_GOOD_ORDER;
  return table.find((r) => modifiedRoll >= r.min && modifiedRoll <= r.max)!;
}

/**
 * [Forming Square] "rolling at least Cautious or Rally on March table": the lowest modified roll that forms square
 * (Good Order: Cautious 4; disordered: Rally 6).
 */
export const FORM_SQUARE_MIN_ROLL: Readonly<Record<MarchColumn, number>> = {
  goodOrder: 4, // Cautious
  disordered: 6, // Rally
};

// ---------------------------------------------------------------------------------------------------------------------
// Tactical Movement Modifiers (March DRMs)
// ---------------------------------------------------------------------------------------------------------------------

export type MarchDrmId =
  | 'detachedLeader'
  | 'attachedLeader'
  | 'column'
  | 'inconsistentMarchMode'
  | 'secureFlanks'
  | 'eliteConscript'
  | 'perHit'
  | 'disorderedCavalryCharge'
  | 'perCohesionLevel';

export interface MarchDrmRow {
  readonly id: MarchDrmId;
  readonly printed: string; // the DRM cell as printed
  readonly values: readonly number[]; // its numbers (alternatives separated by "/")
  readonly sheetText: string; // the condition cell as printed (first line)
  readonly condition: string; // what the engine tests
}

/** [Tactical Movement Modifiers] in sheet order. */
export const MARCH_DRMS: readonly MarchDrmRow[] = [
  {
    id: 'detachedLeader',
    printed: '+1/+2',
    values: [1, 2],
    sheetText: 'Detached Division to Army Leader within 12”/Charismatic Leader. Max 4 pts',
    // BOOK vs DIGEST: the sheet prints "Detached Division to Army Leader"; the digest (A10) reads "to" as "or": the
    // unit's own division leader or the army leader, detached (not attached to any unit) within 12"; only the best
    // one counts. Read literally the row names no leader the unit could measure to, so the digest reading is used.
    condition:
      'A10: the unit’s own division leader or the army leader, detached, within 12" of the unit: +1, or +2 if he is ' +
      'Charismatic; only the best such leader counts',
  },
  {
    id: 'attachedLeader',
    printed: '+2/+3',
    values: [2, 3],
    sheetText: 'Attached Leader/Charismatic Leader.',
    condition: 'a leader attached to the unit: +2, or +3 if he is Charismatic',
  },
  {
    id: 'column',
    printed: '+1',
    values: [1],
    sheetText: 'Unit in Column, Masse or Square',
    condition: 'the unit is in Field Column, March Column, Masse or Square ("Column" read as either column)',
  },
  {
    id: 'inconsistentMarchMode',
    printed: '-2',
    values: [-2],
    sheetText: 'Unit wanting to move in a formation inconsistent with March Mode:',
    condition:
      'the unit will move in a formation inconsistent with its March Mode: Linear infantry in Field Column or Masse; ' +
      'Columnar infantry in Line; Impulse infantry never ([Differences: March Mode])',
  },
  {
    id: 'secureFlanks',
    printed: '+1',
    values: [1],
    sheetText: 'Secure Flanks (Friendly units within 3” of both flanks)',
    condition: 'friendly units within 3" of both flanks ([Differences: Secure Flanks]: of each flank)',
  },
  {
    id: 'eliteConscript',
    printed: '+1/-1',
    values: [1, -1],
    sheetText: 'Elite/Conscript',
    condition: 'Elite +1, Conscript -1 (Regular 0)',
  },
  { id: 'perHit', printed: '-1', values: [-1], sheetText: 'Each hit on unit', condition: '-1 per hit on the unit' },
  {
    id: 'disorderedCavalryCharge',
    printed: '-3',
    values: [-3],
    sheetText: 'Unit is Disordered Cavalry moving into Charge Combat',
    condition: 'disordered cavalry ordered to charge',
  },
  {
    id: 'perCohesionLevel',
    printed: '-1',
    values: [-1],
    sheetText: 'Each Army Cohesion level',
    condition: '-1 per Army Cohesion level (A12: level 1 at ≥ 25% of starting units removed, level 2 at ≥ 50%)',
  },
];

/** [Tactical Movement Modifiers] "Max 4 pts": A10, the leader DRMs together count at most +4. */
export const MARCH_LEADER_DRM_CAP = 4;

/** [Tactical Movement Modifiers] the −2 row's list, as printed under it. */
export const INCONSISTENT_FORMATIONS_PRINTED = ['Linear Infantry in Field Column/Masse', 'Columnar Infantry in Line'];

export type MarchMode = 'Linear' | 'Columnar' | 'Impulse';
type TroopClass = 'Elite' | 'Regular' | 'Conscript';
export type LeaderKind = 'none' | 'plain' | 'charismatic';

/**
 * [Tactical Movement Modifiers] the −2 row: is `formation` inconsistent with `mode`? [Differences: March Mode] "March
 * Mode doesn't restrict the formations that a unit can adopt"; it only costs −2 when moving.
 */
export function inconsistentWithMarchMode(mode: MarchMode, formation: Formation): boolean {
  // The table lists Masse as well for Linear infantry; the differences page names only Field Column (TEXT_READINGS).
  if (mode === 'Linear') return formation === 'FieldColumn' || formation === 'Masse';
  if (mode === 'Columnar') return formation === 'Line';
  return false; // [Differences: March Mode] Impulse Infantry have no inconsistent formations
}

export interface MarchDrmInput {
  readonly detachedLeader: LeaderKind; // best eligible detached leader within 12" (A10)
  readonly attachedLeader: LeaderKind; // best leader attached to the unit
  readonly formation: Formation | null; // null: a battery, or a unit in a BUA (no formation)
  readonly movingInconsistently: boolean; // infantry moving in a formation inconsistent with its March Mode
  readonly secureFlanks: boolean;
  readonly troopClass: TroopClass;
  readonly hits: number;
  readonly disorderedCavalryCharging: boolean;
  readonly cohesionLevel: number; // A12: 0, 1 or 2
}

/** [Tactical Movement Modifiers] the total March DRM and its non-zero parts, in sheet order. */
export function marchDrm(i: MarchDrmInput): {
  readonly total: number;
  readonly parts: readonly [MarchDrmId, number][];
} {
  const parts: [MarchDrmId, number][] = [];
  const leaderValue = (k: LeaderKind, row: MarchDrmId) => {
    const v = MARCH_DRMS.find((r) => r.id === row)!.values;
    return k === 'none' ? 0 : k === 'plain' ? v[0]! : v[1]!;
  };
  const detached = leaderValue(i.detachedLeader, 'detachedLeader');
  const attached = leaderValue(i.attachedLeader, 'attachedLeader');
  // A10 "Max 4 pts": cap the leader total; report the cap on the attached part (it is the larger one).
  const over = Math.max(0, detached + attached - MARCH_LEADER_DRM_CAP);
  if (detached) parts.push(['detachedLeader', detached]);
  if (attached) parts.push(['attachedLeader', attached - over]);
  const f = i.formation;
  if (f === 'FieldColumn' || f === 'MarchColumn' || f === 'Masse' || f === 'Square') parts.push(['column', 1]);
  if (i.movingInconsistently) parts.push(['inconsistentMarchMode', -2]);
  if (i.secureFlanks) parts.push(['secureFlanks', 1]);
  if (i.troopClass !== 'Regular') parts.push(['eliteConscript', i.troopClass === 'Elite' ? 1 : -1]);
  if (i.hits) parts.push(['perHit', -i.hits]);
  if (i.disorderedCavalryCharging) parts.push(['disorderedCavalryCharge', -3]);
  if (i.cohesionLevel) parts.push(['perCohesionLevel', -i.cohesionLevel]);
  return { total: parts.reduce((t, [, v]) => t + v, 0), parts: parts.filter(([, v]) => v !== 0) };
}

// ---------------------------------------------------------------------------------------------------------------------
// Movement
// ---------------------------------------------------------------------------------------------------------------------

export type MoverKind =
  | 'infantryColumn'
  | 'infantryLine'
  | 'openOrder'
  | 'cavalry'
  | 'footArtillery'
  | 'horseArtillery'
  | 'leader';

export interface MovementRate {
  readonly kind: MoverKind;
  readonly label: string; // the row as printed
  readonly basic: number; // inches: the full move
  readonly road: number | null; // inches; null where the sheet prints "-" (no road rate)
  /** Rough: a multiplier ×k (each inch inside rough costs 1/k inches, A11). */
  readonly rough: number;
  readonly roughSource: 'sheet' | 'A11'; // 'A11': the sheet leaves the cell empty
  readonly fordDeduction: number; // inches deducted once per ford crossing (the sheet's "-2”" / "-3”")
}

/** [Movement] Unit / Basic / Road / Rough / Ford. */
export const MOVEMENT_RATES: readonly MovementRate[] = [
  // A11: the Rough cell of the three infantry rows is empty on the sheet; infantry ×½, Open Order ×1 (skirmishers).
  {
    kind: 'infantryColumn',
    label: 'Infantry Column',
    basic: 9,
    road: 12,
    rough: 1 / 2,
    roughSource: 'A11',
    fordDeduction: 2,
  },
  {
    kind: 'infantryLine',
    label: 'Infantry Line',
    basic: 6,
    road: null,
    rough: 1 / 2,
    roughSource: 'A11',
    fordDeduction: 2,
  },
  { kind: 'openOrder', label: 'Open Order', basic: 12, road: null, rough: 1, roughSource: 'A11', fordDeduction: 2 },
  { kind: 'cavalry', label: 'Cavalry', basic: 12, road: 15, rough: 1 / 3, roughSource: 'sheet', fordDeduction: 2 },
  {
    kind: 'footArtillery',
    label: 'Foot Artillery',
    basic: 6,
    road: 9,
    rough: 1 / 3,
    roughSource: 'sheet',
    fordDeduction: 3,
  },
  {
    kind: 'horseArtillery',
    label: 'Horse Artillery',
    basic: 9,
    road: 12,
    rough: 1 / 3,
    roughSource: 'sheet',
    fordDeduction: 3,
  },
  { kind: 'leader', label: 'Leaders', basic: 12, road: 15, rough: 1 / 3, roughSource: 'sheet', fordDeduction: 3 },
];

/** [Movement] the row for a mover. */
export function movementRate(kind: MoverKind): MovementRate {
  return MOVEMENT_RATES.find((r) => r.kind === kind)!;
}

/**
 * A11: which infantry row a formation moves by. Column = Field and March Column; Masse uses the Line rate; a Square
 * cannot move except by changing formation (null).
 */
export function infantryMoverKind(f: Formation): MoverKind | null {
  if (f === 'FieldColumn' || f === 'MarchColumn') return 'infantryColumn';
  if (f === 'Line' || f === 'Masse') return 'infantryLine';
  if (f === 'OpenOrder') return 'openOrder';
  return null;
}

/** [Forming Square] box (page 1): the movement deductions and the battery prolong, as printed. */
export const MOVEMENT_NOTES = {
  passageOfLinesPerUnit: 3, // Minus 3" per unit penetrated for Passage of Lines.
  formationChangeCost: 0.5, // Minus a half move to change formation (fraction of the move).
  batteryProlong: 1, // A battery can prolong 1" without limbering.
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// Volley & Cannonade: fire points
// ---------------------------------------------------------------------------------------------------------------------

/** [Fire Points at Range] the column limits, inches: a range uses the first column whose limit is ≥ it. */
export const RANGE_BANDS = [3, 6, 12, 18, 24] as const;

/** [Fire Points at Range] the column index of a range (0 = 3"), or null beyond 24". */
export function rangeBand(range: number): number | null {
  if (!(range >= 0)) throw new RangeError(`range must be ≥ 0, got ${range}`);
  const i = RANGE_BANDS.findIndex((limit) => range <= limit);
  return i < 0 ? null : i;
}

export type Calibre = 'Heavy' | 'Light';
export type BatteryGuns = 6 | 8;

/** [Fire Points at Range] battery rows "8 gun battery (Heavy/Light)", "6 gun battery (Heavy/Light)", per column. */
export const BATTERY_FIRE_POINTS: Readonly<Record<BatteryGuns, Readonly<Record<Calibre, readonly number[]>>>> = {
  8: { Heavy: [24, 18, 14, 10, 8], Light: [20, 12, 10, 8, 6] },
  6: { Heavy: [18, 14, 10, 8, 6], Light: [14, 10, 8, 6, 4] },
};

export type MusketType = 'TwoRank' | 'ThreeRank';

/**
 * [Fire Points at Range] musket rows: per firing stand at 3", and "1 Sk" (skirmish fire, 1 per stand) in the 6"
 * column; nothing beyond 6". A6: skirmish fire is 1 per front-rank stand at 3.1"–6".
 */
export const MUSKET_FIRE_POINTS: Readonly<Record<MusketType, { readonly volley: number; readonly skirmish: number }>> =
  {
    TwoRank: { volley: 2.5, skirmish: 1 }, // 2-Rank Musket: 2.5 / 1 Sk
    ThreeRank: { volley: 2, skirmish: 1 }, // 3-Rank Musket: 2 / 1 Sk
  };

/** [B&S notes] and [Differences: Fire Points] "Squares fire at 1 fire point per stand." (A6: all 6, 3" only) */
export const SQUARE_FIRE_POINTS_PER_STAND = 1;
/** [Differences: Fire Points] "All stands in a BUA fire at ½ effect and cannot skirmish fire." */
const BUA_FIRE_MULTIPLIER = 0.5;
/**
 * [Fire Point Modifiers] "Firer disordered or damaged gun." The sheet prints no value (lost in extraction or never
 * there); A6: ×½, stacking with the BUA ½.
 */
export const FIRER_DISORDERED_OR_DAMAGED_MULTIPLIER = 0.5;
/** [Differences: Volley and Cannonade] at most two batteries fire on one unit unless no other target is available. */
export const MAX_BATTERIES_PER_TARGET = 2;

/** [Fire Points at Range] a battery's fire points at `range` (×½ if it has a damaged gun, A6), or null out of range. */
export function batteryFirePoints(guns: BatteryGuns, calibre: Calibre, range: number, damaged = false): number | null {
  const band = rangeBand(range);
  if (band === null) return null;
  const fp = BATTERY_FIRE_POINTS[guns][calibre][band]!;
  return damaged ? fp * FIRER_DISORDERED_OR_DAMAGED_MULTIPLIER : fp;
}

export interface MusketFireInput {
  readonly musket: MusketType;
  readonly firingStands: number; // front-rank stands (all 6 in a Square or a BUA), A6
  readonly range: number;
  readonly square: boolean;
  readonly inBua: boolean;
  readonly disordered: boolean;
}

/** [Fire Points at Range] infantry fire points, and whether it is skirmish fire; null if it cannot fire at `range`. */
export function musketFirePoints(i: MusketFireInput): { readonly fp: number; readonly skirmish: boolean } | null {
  const band = rangeBand(i.range);
  if (band === null || band > 1) return null; // muskets print values in the 3" and 6" columns only
  const skirmish = band === 1;
  if (skirmish && (i.inBua || i.square)) return null; // BUA: cannot skirmish fire; Square: A6 3" only
  const per = i.square ? SQUARE_FIRE_POINTS_PER_STAND : MUSKET_FIRE_POINTS[i.musket][skirmish ? 'skirmish' : 'volley'];
  let fp = per * i.firingStands;
  if (i.inBua) fp *= BUA_FIRE_MULTIPLIER;
  if (i.disordered) fp *= FIRER_DISORDERED_OR_DAMAGED_MULTIPLIER; // A6
  return { fp, skirmish };
}

/** [V&C DRM] one row of the fire-point conversion: `min` fire points (inclusive) give `drm`. */
export interface FirePointDrmRow {
  readonly drm: number;
  readonly min: number; // lowest fire points of the row; the first row is "Less than 4" (min 0)
  readonly printed: string; // the label as printed
}

/** [V&C DRM] fire points → DRM. A6: a total between two listed values uses the lower one (the row below). */
export const FIRE_POINT_DRMS: readonly FirePointDrmRow[] = [
  { drm: -5, min: 0, printed: 'Less than 4 fire points' },
  { drm: -4, min: 4, printed: '4 pts.' },
  { drm: -3, min: 6, printed: '6 pts.' },
  { drm: -2, min: 8, printed: '8 pts.' },
  { drm: -1, min: 10, printed: '10 pts.' },
  { drm: 0, min: 12, printed: '12 pts.' },
  { drm: 1, min: 16, printed: '16 pts.' },
  { drm: 2, min: 22, printed: '22 pts.' },
  { drm: 3, min: 30, printed: '30 pts.' },
  { drm: 4, min: 40, printed: '40 pts.' },
  { drm: 5, min: 50, printed: '50 or more points' },
];

/** [V&C DRM] the DRM for a fire-point total (A6: between two values, the lower). */
export function firePointDrm(fp: number): number {
  if (!(fp >= 0)) throw new RangeError(`fire points must be ≥ 0, got ${fp}`);
  let drm = FIRE_POINT_DRMS[0]!.drm;
  for (const r of FIRE_POINT_DRMS) if (fp >= r.min) drm = r.drm;
  return drm;
}

export type TargetDrmId = 'fieldColumnEtc' | 'marchColumnEtc' | 'openOrderOrSkirmish' | 'cover';

/** [V&C DRM] the target rows, in sheet order. */
export const TARGET_DRMS: readonly {
  readonly id: TargetDrmId;
  readonly printed: string;
  readonly values: readonly number[];
  readonly sheetText: string;
  readonly condition: string;
}[] = [
  {
    id: 'fieldColumnEtc',
    printed: '+1',
    values: [1],
    sheetText: 'Target in Field Column, about-faced, limbered or changed formation',
    condition: 'target in Field Column, about-faced, limbered or changed formation this player turn',
  },
  {
    id: 'marchColumnEtc',
    printed: '+2',
    values: [2],
    sheetText: 'Target in March Column, Masse, Square or Enfiladed',
    condition: 'target in March Column, Masse or Square, or enfiladed (A6: not cumulative with the +1 row)',
  },
  {
    id: 'openOrderOrSkirmish',
    printed: '-2',
    values: [-2],
    sheetText: 'Target in Open Order or Skirmisher (3.1” to 6”)',
    // BOOK vs DIGEST: the sheet says "Target in Open Order or Skirmisher (3.1” to 6”)"; the digest (A6) reads the
    // second half as "the fire is Skirmisher fire (3.1" to 6")". No unit is a "Skirmisher" target in this game and
    // the range matches the "1 Sk" column, so the digest reading is used; it applies once.
    condition: 'target in Open Order, or skirmish fire at 3.1"–6" (applies once)',
  },
  {
    id: 'cover',
    printed: '-1,-2,-3',
    values: [-1, -2, -3],
    sheetText: 'Target in cover (per scenario)',
    condition: 'target in cover level 1 / 2 / 3 (per scenario, A4)',
  },
];

export interface TargetDrmInput {
  readonly fieldColumnAboutFacedLimberedOrChanged: boolean;
  readonly marchColumnMasseSquareOrEnfiladed: boolean;
  readonly openOrderOrSkirmishFire: boolean;
  readonly cover: 0 | 1 | 2 | 3;
}

/** [V&C DRM] the target DRM (A6: the +1 and +2 rows are not cumulative, the −2 applies once). */
export function targetDrm(i: TargetDrmInput): number {
  const up = i.marchColumnMasseSquareOrEnfiladed ? 2 : i.fieldColumnAboutFacedLimberedOrChanged ? 1 : 0;
  return up + (i.openOrderOrSkirmishFire ? -2 : 0) - i.cover;
}

// ---------------------------------------------------------------------------------------------------------------------
// Volley & Cannonade: results
// ---------------------------------------------------------------------------------------------------------------------

export type FireSource = 'musketry' | 'cannonade';
export type BatteryFireEffect = 'none' | 'silenced' | 'damaged' | 'wrecked';

export interface FireResult {
  readonly name: string;
  readonly rows: string;
  readonly min: number;
  readonly max: number;
  readonly text: string;
  readonly troopsDisordered: boolean;
  readonly troopHits: number;
  readonly battery: BatteryFireEffect; // "1 gun stand …"; wrecked = the battery (1 gun stand) is removed
  readonly chargeChecked: boolean;
  readonly cannonadeOnly: boolean; // Lively: "From cannonade only … Musketry no effect."
}

/**
 * [V&C Results] the Volley & Cannonade table, best row first. [Differences: Volley and Cannonade] it is "the simpler
 * Fire & Fury type table with the same effects as AoE".
 */
export const FIRE_RESULTS: readonly FireResult[] = [
  {
    name: 'Withering Fire',
    rows: '11 or more',
    min: 11,
    max: Infinity,
    text: 'Withering Fire. Troops disordered and take 2 hits. 1 gun stand wrecked. Charge checked.',
    troopsDisordered: true,
    troopHits: 2,
    battery: 'wrecked',
    chargeChecked: true,
    cannonadeOnly: false,
  },
  {
    name: 'Telling Fire',
    rows: '8, 9, 10',
    min: 8,
    max: 10,
    text: 'Telling Fire. Troops disordered and take 1 hit or 1 gun stand damaged. Charge checked.',
    troopsDisordered: true,
    troopHits: 1,
    battery: 'damaged', // A8: a second "damaged" wrecks the battery
    chargeChecked: true, // [Differences: Volley and Cannonade] "Charge checked for Telling Fire."
    cannonadeOnly: false,
  },
  {
    name: 'Galling Fire',
    rows: '6, 7',
    min: 6,
    max: 7,
    text: 'Galling Fire. Troops disordered or 1 gun stand silenced.',
    troopsDisordered: true,
    troopHits: 0,
    battery: 'silenced',
    chargeChecked: false,
    cannonadeOnly: false,
  },
  {
    name: 'Lively Fire',
    rows: '5',
    min: 5,
    max: 5,
    text: 'Lively Fire. From cannonade only, troops disordered or 1 gun stand silenced. Musketry no effect.',
    troopsDisordered: true,
    troopHits: 0,
    battery: 'silenced',
    chargeChecked: false,
    cannonadeOnly: true,
  },
  {
    name: 'Desultory Fire',
    rows: '4 or less',
    min: -Infinity,
    max: 4,
    text: 'Desultory Fire. No effect.',
    troopsDisordered: false,
    troopHits: 0,
    battery: 'none',
    chargeChecked: false,
    cannonadeOnly: false,
  },
];

/** [V&C Results] the row of a modified fire roll (D10 + DRMs). */
export function fireResult(modifiedRoll: number): FireResult {
  assertInteger(modifiedRoll, 'modified fire roll');
  return FIRE_RESULTS.find((r) => modifiedRoll >= r.min && modifiedRoll <= r.max)!;
}

/** [V&C Results] what a modified roll does, given the fire's source (Lively: cannonade only, musketry no effect). */
export function fireEffect(
  modifiedRoll: number,
  source: FireSource,
): {
  readonly result: FireResult;
  readonly troopsDisordered: boolean;
  readonly troopHits: number;
  readonly battery: BatteryFireEffect;
  readonly chargeChecked: boolean;
} {
  const result = fireResult(modifiedRoll);
  if (result.cannonadeOnly && source === 'musketry') {
    return { result, troopsDisordered: false, troopHits: 0, battery: 'none', chargeChecked: false };
  }
  const { troopsDisordered, troopHits, battery, chargeChecked } = result;
  return { result, troopsDisordered, troopHits, battery, chargeChecked };
}

/** [B&S notes] "Charge checked: Retreat charging unit 2” from enemy. Cavalry may recall up to a full move." */
export const CHARGE_CHECKED_RETREAT = 2;

// ---------------------------------------------------------------------------------------------------------------------
// Bayonet & Sabre: DRMs
// ---------------------------------------------------------------------------------------------------------------------

/** [B&S notes] 1: "If half or more participating stands"; 2: "If one or more participating units". */
export type BsNote = 1 | 2;
export const BS_NOTES: Readonly<Record<BsNote, string>> = {
  1: 'If half or more participating stands',
  2: 'If one or more participating units',
};

/**
 * [B&S notes] (A7) does a row with this note apply to a side? Note 1: half or more of the side's participating stands
 * qualify. Note 2: one or more participating units qualify. No note: nothing to count (true).
 */
export function bsNoteApplies(
  note: BsNote | null,
  q: { readonly qualifyingStands: number; readonly totalStands: number; readonly qualifyingUnits: number },
): boolean {
  if (note === 1) return q.totalStands > 0 && 2 * q.qualifyingStands >= q.totalStands;
  if (note === 2) return q.qualifyingUnits >= 1;
  return true; // no note: the row's own wording decides (leaders, outnumbering, breakthrough, outflanked …)
}

export type BsDrmId =
  | 'leader'
  | 'charismaticLeader'
  | 'outnumber3to2'
  | 'outnumber2to1'
  | 'outnumber3to1'
  | 'outnumber4to1'
  | 'cavalryVsInfantryOpen'
  | 'cavalryVsSquare'
  | 'cavalryVsMasse'
  | 'infantryVsSquare'
  | 'lancersVsInfantryOpen'
  | 'heavyCavalry'
  | 'armouredHeavyCavalry'
  | 'breakthrough'
  | 'disorderedEtc'
  | 'hitsThisFirePhase'
  | 'cover'
  | 'outflanked'
  | 'perHit'
  | 'regular'
  | 'elite';

export interface BsDrmRow {
  readonly id: BsDrmId;
  readonly values: readonly number[]; // several for "+1 +2 +3 … per level" rows (cover)
  readonly sheetText: string; // the condition as printed, without the note marker
  readonly note: BsNote | null; // the superscript note marker printed after the condition
  readonly side: 'attacker' | 'defender' | 'either'; // whose total it joins (from the wording)
  readonly condition: string;
}

/**
 * [B&S DRM] in sheet order. The extraction prints each group's values first and its conditions after, with the note
 * markers as a trailing " 1" / " 2"; see TEXT_READINGS.
 */
export const BS_DRMS: readonly BsDrmRow[] = [
  {
    id: 'leader',
    values: [1],
    sheetText: 'Leader Attached',
    note: null,
    side: 'either',
    condition: 'a leader attached to a participating unit',
  },
  {
    id: 'charismaticLeader',
    values: [2],
    sheetText: 'Charismatic Leader Attached',
    note: null,
    side: 'either',
    condition: 'a Charismatic leader attached (instead of +1)',
  },
  {
    id: 'outnumber3to2',
    values: [1],
    sheetText: 'Outnumber enemy 3:2',
    note: null,
    side: 'either',
    condition: 'stands ≥ 1.5 × the enemy’s (A7)',
  },
  {
    id: 'outnumber2to1',
    values: [2],
    sheetText: '2:1',
    note: null,
    side: 'either',
    condition: 'stands ≥ 2 × the enemy’s',
  },
  {
    id: 'outnumber3to1',
    values: [3],
    sheetText: '3:1',
    note: null,
    side: 'either',
    condition: 'stands ≥ 3 × the enemy’s',
  },
  {
    id: 'outnumber4to1',
    values: [4],
    sheetText: '4:1 or greater',
    note: null,
    side: 'either',
    condition: 'stands ≥ 4 × the enemy’s',
  },
  {
    id: 'cavalryVsInfantryOpen',
    values: [2],
    sheetText: 'Cavalry charging Infantry in Open and not in Square or Masse',
    note: 2,
    side: 'attacker',
    condition: 'cavalry charging infantry in the open (A7: not in cover or a BUA), not in Square or Masse',
  },
  {
    id: 'cavalryVsSquare',
    values: [-3],
    sheetText: 'Cavalry charging Infantry in Square',
    note: 2,
    side: 'attacker',
    condition: 'cavalry charging a Square',
  },
  {
    id: 'cavalryVsMasse',
    values: [-2],
    sheetText: 'Cavalry charging Infantry in Masse',
    note: 2,
    side: 'attacker',
    condition: 'cavalry charging infantry in Masse',
  },
  {
    id: 'infantryVsSquare',
    values: [1],
    sheetText: 'Infantry charging Infantry in Square',
    note: 2,
    side: 'attacker',
    condition: 'infantry charging a Square',
  },
  {
    id: 'lancersVsInfantryOpen',
    values: [1],
    sheetText: 'Lancers charging Infantry in Open',
    note: 1,
    side: 'attacker',
    condition: 'lancers charging infantry in the open',
  },
  { id: 'heavyCavalry', values: [1], sheetText: 'Heavy Cavalry', note: 1, side: 'either', condition: 'Heavy cavalry' },
  {
    id: 'armouredHeavyCavalry',
    values: [2],
    sheetText: 'Armoured Heavy Cavalry',
    note: 1,
    side: 'either',
    condition: 'Armoured Heavy cavalry (instead of +1)',
  },
  {
    id: 'breakthrough',
    values: [1],
    sheetText: 'Breakthrough Charge',
    note: null,
    side: 'attacker',
    condition: 'a breakthrough charge (lost after a 0 result)',
  },
  {
    id: 'disorderedEtc',
    values: [-2],
    sheetText: 'Disordered Unit, Non-countercharging Cavalry, Open Order Unit or Unattached Battery - (not cumulative)',
    note: 1,
    side: 'either',
    condition: 'disordered, non-countercharging cavalry, Open Order, or an unattached battery: −2 once',
  },
  {
    id: 'hitsThisFirePhase',
    values: [-1],
    sheetText: 'Each hit during Current Fire Phase',
    note: null,
    side: 'either',
    condition: '−1 per hit received in the current fire phase (lead unit, A7)',
  },
  {
    id: 'cover',
    values: [1, 2, 3],
    sheetText: 'Defending in or behind Cover',
    note: 1,
    side: 'defender',
    condition: 'defending in or behind cover level 1 / 2 / 3 (A4)',
  },
  {
    id: 'outflanked',
    values: [-3],
    sheetText: 'Defender outflanked or attacked in the Rear',
    note: null,
    side: 'defender',
    condition: 'an attacker contacts a flank or the rear (A4)',
  },
  {
    id: 'perHit',
    values: [-1],
    sheetText: 'Each hit on Unit',
    note: 1,
    side: 'either',
    condition: '−1 per hit on the unit (lead unit, A7)',
  },
  { id: 'regular', values: [1], sheetText: 'Units are Regular', note: 1, side: 'either', condition: 'Regular' },
  { id: 'elite', values: [2], sheetText: 'Units are Elite', note: 1, side: 'either', condition: 'Elite' },
];

/**
 * [Differences: Forming Square] "Replace Cavalry charging Infantry DRMs with": the page-3 list, as printed. It agrees
 * with the page-2 rows except that it omits "in Open" from the +2 row (TEXT_READINGS).
 */
export const CAVALRY_VS_INFANTRY_REPLACEMENTS: readonly {
  readonly value: number;
  readonly sheetText: string;
  readonly id: BsDrmId;
}[] = [
  { value: -3, sheetText: 'Cavalry charging Infantry in Square', id: 'cavalryVsSquare' },
  { value: -2, sheetText: 'Cavalry charging Infantry in Masse', id: 'cavalryVsMasse' },
  { value: 2, sheetText: 'Cavalry charging Infantry not in Square or Masse', id: 'cavalryVsInfantryOpen' },
];

/** [B&S DRM] outnumbering: the DRM for `own` stands against `enemy` stands (3:2 +1, 2:1 +2, 3:1 +3, 4:1+ +4). */
export function outnumberDrm(own: number, enemy: number): number {
  if (enemy <= 0) return own > 0 ? 4 : 0;
  const r = own / enemy;
  return r >= 4 ? 4 : r >= 3 ? 3 : r >= 2 ? 2 : r >= 1.5 ? 1 : 0;
}

type CavalryWeight = 'Light' | 'Heavy' | 'ArmouredHeavy';

/** One side of a Bayonet & Sabre combat, with the note tests (A7) already applied by the caller. */
export interface BsSideInput {
  readonly leader: LeaderKind;
  readonly stands: number;
  readonly enemyStands: number;
  readonly charge: 'cavalryVsInfantryOpen' | 'cavalryVsSquare' | 'cavalryVsMasse' | 'infantryVsSquare' | null;
  readonly lancersVsInfantryOpen: boolean;
  readonly cavalryWeight: CavalryWeight | null; // the side's qualifying cavalry weight (note 1), or null
  readonly breakthrough: boolean;
  readonly disorderedEtc: boolean; // note 1 applied; not cumulative
  readonly hitsThisFirePhase: number;
  readonly cover: 0 | 1 | 2 | 3; // defender only
  readonly outflanked: boolean; // defender only
  readonly hits: number;
  readonly troopClass: TroopClass | null; // note 1 applied; null: no class applies
}

const bsValue = (id: BsDrmId, i = 0) => BS_DRMS.find((r) => r.id === id)!.values[i]!;

/** [B&S DRM] a side's total DRM and its non-zero parts. */
export function bayonetDrm(i: BsSideInput): { readonly total: number; readonly parts: readonly [BsDrmId, number][] } {
  const parts: [BsDrmId, number][] = [];
  if (i.leader !== 'none') parts.push(i.leader === 'charismatic' ? ['charismaticLeader', 2] : ['leader', 1]);
  const out = outnumberDrm(i.stands, i.enemyStands);
  const outIds: BsDrmId[] = ['outnumber3to2', 'outnumber2to1', 'outnumber3to1', 'outnumber4to1'];
  if (out) parts.push([outIds[out - 1]!, bsValue(outIds[out - 1]!)]);
  if (i.charge) parts.push([i.charge, bsValue(i.charge)]);
  if (i.lancersVsInfantryOpen) parts.push(['lancersVsInfantryOpen', bsValue('lancersVsInfantryOpen')]);
  if (i.cavalryWeight === 'Heavy') parts.push(['heavyCavalry', bsValue('heavyCavalry')]);
  if (i.cavalryWeight === 'ArmouredHeavy') parts.push(['armouredHeavyCavalry', bsValue('armouredHeavyCavalry')]);
  if (i.breakthrough) parts.push(['breakthrough', bsValue('breakthrough')]);
  if (i.disorderedEtc) parts.push(['disorderedEtc', bsValue('disorderedEtc')]);
  if (i.hitsThisFirePhase) parts.push(['hitsThisFirePhase', -i.hitsThisFirePhase]);
  if (i.cover) parts.push(['cover', bsValue('cover', i.cover - 1)]);
  if (i.outflanked) parts.push(['outflanked', bsValue('outflanked')]);
  if (i.hits) parts.push(['perHit', -i.hits]);
  if (i.troopClass === 'Regular') parts.push(['regular', bsValue('regular')]);
  if (i.troopClass === 'Elite') parts.push(['elite', bsValue('elite')]);
  return { total: parts.reduce((t, [, v]) => t + v, 0), parts };
}

// ---------------------------------------------------------------------------------------------------------------------
// Bayonet & Sabre: results
// ---------------------------------------------------------------------------------------------------------------------

/** What one side does on a Bayonet & Sabre result. Distances in inches. */
export interface BsSideEffect {
  readonly text: string; // as printed (the 1–3 defender cell spans two lines in the extraction)
  readonly hits: number;
  readonly troopsDisordered: boolean;
  readonly gunsSilenced: boolean;
  /** Troops: 'hold' (hold position), 'occupy' (occupy enemy position), retreat N" from the enemy, or a full move. */
  readonly troops: 'hold' | 'occupy' | 'stay' | { readonly retreat: number | 'fullMove' };
  readonly guns: 'stay' | 'retreatSilenced' | 'limberAndFullRetreat' | 'wreckOneStand';
  readonly loseAllGunsIfDefeatedByCavalry: boolean;
  readonly leaderCaptured: boolean;
  readonly breakthrough: 'none' | 'all' | 'cavalryMust'; // a half move towards the closest enemy
  readonly cavalryMayRecall: 'no' | 'afterFirstCombat' | 'countercharging'; // up to a full move
  readonly counterchargingCavalryMayCarry: boolean;
  readonly cavalryDisordered: boolean; // −7 or less, defender: A7, defending countercharging cavalry
  readonly holdIfSquareVsCavalry: boolean; // 1–3 defender
  readonly cavalryVsSquareRetreat: number | null; // 1–3 attacker: "retreat disordered 2"
  readonly loseBreakthroughModifier: boolean; // 0 result
}

export interface BsResult {
  readonly rows: string; // the DIFF. cell as printed
  readonly min: number;
  readonly max: number;
  readonly sheetLabel: string; // the name as printed
  readonly digestLabel: string | null; // how the digest reads the name, where it differs
  readonly defender: BsSideEffect;
  readonly attacker: BsSideEffect;
}

const NO: Omit<BsSideEffect, 'text'> = {
  hits: 0,
  troopsDisordered: false,
  gunsSilenced: false,
  troops: 'stay',
  guns: 'stay',
  loseAllGunsIfDefeatedByCavalry: false,
  leaderCaptured: false,
  breakthrough: 'none',
  cavalryMayRecall: 'no',
  counterchargingCavalryMayCarry: false,
  cavalryDisordered: false,
  holdIfSquareVsCavalry: false,
  cavalryVsSquareRetreat: null,
  loseBreakthroughModifier: false,
};
const DEFENDER_HOLDS_CC = 'Hold position. Countercharging cavalry may carry the position or recall up to a full move.';
const HOLD_CC: BsSideEffect = {
  ...NO,
  text: DEFENDER_HOLDS_CC,
  troops: 'hold',
  cavalryMayRecall: 'countercharging',
  counterchargingCavalryMayCarry: true,
};

const ZERO_TEXT =
  'Both sides are disordered/silenced, and each lose one troop stand or one gun stand wrecked. Lose breakthrough modifier.';
const ZERO_SIDE: BsSideEffect = {
  ...NO,
  text: ZERO_TEXT,
  hits: 1, // A8: "lose one troop stand" = 1 hit
  troopsDisordered: true,
  gunsSilenced: true,
  guns: 'wreckOneStand', // a battery is 1 gun stand: it is removed
  loseBreakthroughModifier: true,
};

/** [B&S Results] by differential (attacker total − defender total), from "7 or more" down to "-7 or less". */
export const BS_RESULTS: readonly BsResult[] = [
  {
    rows: '7 or more',
    min: 7,
    max: Infinity,
    sheetLabel: 'Shattered!',
    digestLabel: null,
    defender: {
      ...NO,
      text:
        'Takes 2 hits. Troops disordered and guns silenced. Troops full retreat and guns retreat silenced. Lose all ' +
        'guns if defeated by cavalry. Leader captured.',
      hits: 2,
      troopsDisordered: true,
      gunsSilenced: true,
      troops: { retreat: 'fullMove' },
      guns: 'retreatSilenced',
      loseAllGunsIfDefeatedByCavalry: true,
      leaderCaptured: true,
    },
    attacker: {
      ...NO,
      text: 'Breakthrough charge a half move towards closest enemy.',
      breakthrough: 'all',
    },
  },
  {
    rows: '4, 5, 6',
    min: 4,
    max: 6,
    sheetLabel: 'Driven Back!',
    digestLabel: null,
    defender: {
      ...NO,
      // TEXT: the sheet prints "Retreat 4from enemy" (the inch mark lost): read as 4".
      text:
        'Take 1 hit. Troops disordered and guns silenced. Retreat 4from enemy. Guns limber and full retreat. Lose all ' +
        'guns if defeated by cavalry.',
      hits: 1,
      troopsDisordered: true,
      gunsSilenced: true,
      troops: { retreat: 4 },
      guns: 'limberAndFullRetreat',
      loseAllGunsIfDefeatedByCavalry: true,
    },
    attacker: {
      ...NO,
      text: 'Occupy enemy position. Cavalry must breakthrough charge a half move towards closest enemy.',
      troops: 'occupy',
      breakthrough: 'cavalryMust',
    },
  },
  {
    rows: '1, 2, 3',
    min: 1,
    max: 3,
    sheetLabel: 'Withdrawal!',
    digestLabel: null,
    defender: {
      ...NO,
      // TEXT: "Hold position if square v cavalry." is extracted on a line of its own after the DEFENDER cell.
      text:
        'Troops disordered and silenced. Troops retreat 2” from enemy. Cavalry may recall up to a full move after 1st ' +
        'combat. Guns limber and full retreat. Hold position if square v cavalry.',
      troopsDisordered: true,
      gunsSilenced: true,
      troops: { retreat: 2 },
      guns: 'limberAndFullRetreat',
      cavalryMayRecall: 'afterFirstCombat',
      holdIfSquareVsCavalry: true,
    },
    attacker: {
      ...NO,
      // TEXT: "retreat disordered 2." (the inch mark lost): read as 2".
      text:
        'Occupy enemy position, except if cavalry v square then retreat disordered 2. Cavalry may recall up to a full ' +
        'move after 1st combat.',
      troops: 'occupy',
      cavalryVsSquareRetreat: 2,
      cavalryMayRecall: 'afterFirstCombat',
    },
  },
  {
    rows: '0',
    min: 0,
    max: 0,
    // BOOK vs DIGEST: the sheet labels the 0 row "Shattered!" (as 7+ and −7−); the digest calls that label a TEXT
    // ISSUE ("evidently wrong") and gives the row no name. The sheet's label is kept; the effects (both sides
    // disordered/silenced, 1 hit (A8) or the gun stand wrecked, breakthrough modifier lost) are the same either way.
    sheetLabel: 'Shattered!',
    digestLabel: '(unnamed: the digest reads "Shattered!" as a text issue)',
    defender: ZERO_SIDE,
    attacker: ZERO_SIDE,
  },
  {
    rows: '-1,-2,-3',
    min: -3,
    max: -1,
    sheetLabel: 'Withdrawal!',
    digestLabel: null,
    defender: HOLD_CC,
    attacker: {
      ...NO,
      text: 'Troops disordered. Retreat 2” from enemy. Cavalry may recall up to a full move after 1st combat.',
      troopsDisordered: true,
      troops: { retreat: 2 },
      cavalryMayRecall: 'afterFirstCombat',
    },
  },
  {
    rows: '-4,-5,-6',
    min: -6,
    max: -4,
    sheetLabel: 'Driven Back!',
    digestLabel: null,
    defender: HOLD_CC,
    attacker: {
      ...NO,
      // TEXT: "retreat 4 from enemy" (the inch mark lost): read as 4".
      text: 'Take 1 hit. Troops disordered and retreat 4 from enemy.',
      hits: 1,
      troopsDisordered: true,
      troops: { retreat: 4 },
    },
  },
  {
    rows: '-7 or less',
    min: -Infinity,
    max: -7,
    sheetLabel: 'Shattered!',
    digestLabel: null,
    defender: {
      ...HOLD_CC,
      text: 'Hold position. Cavalry disordered. Countercharging cavalry may carry the position or recall up to a full move.',
      cavalryDisordered: true, // A7: the defending countercharging cavalry becomes disordered
    },
    attacker: {
      ...NO,
      text: 'Take 2 hits. Troops disordered and retreat a full move. Leader captured.',
      hits: 2,
      troopsDisordered: true,
      troops: { retreat: 'fullMove' },
      leaderCaptured: true,
    },
  },
];

/** [B&S Results] the row of a differential (attacker's modified roll − defender's). */
export function bayonetResult(differential: number): BsResult {
  assertInteger(differential, 'Bayonet & Sabre differential');
  return BS_RESULTS.find((r) => differential >= r.min && differential <= r.max)!;
}

// ---------------------------------------------------------------------------------------------------------------------
// Other lists: special rules, BUAs, distances
// ---------------------------------------------------------------------------------------------------------------------

/** [Special Rules] (page 1), as printed. */
export const SPECIAL_RULES = [
  'Artillery must now roll on the March table.',
  'A Rally roll will remove a silenced marker.',
  'Artillery are automatically attached to any friendly infantry/cavalry unit they are in contact with.',
  'Only 1 attacking unit can contact each face of the defending unit.',
] as const;

/** [Built-up Areas] and [Differences: Built Up Areas]. */
export const BUA = {
  blockSize: 3, // BUAs are made up of one or more 3" x 3" blocks
  unitsPerBlock: 1, // A BUA block can accommodate a single unit
  fireMultiplier: BUA_FIRE_MULTIPLIER, // All stands in a BUA fire at ½ effect
  skirmishFire: false, // Skirmish fire is not allowed from a BUA
  allStandsCountInBayonet: true, // All stands in a BUA block count for Bayonet & Sabre combat
  cavalryAttackingAlwaysDisordered: true, // Cavalry attacking a unit in a BUA are always Disordered
  leavingCostsFullMove: true, // When leaving a BUA the unit spends a full move reforming
  marchColumnMayPassFriendly: true, // except for friendly units moving in March Column through the BUA
} as const;

/** Distances printed in the sheets, inches. */
export const DISTANCES = {
  secureFlanks: 3, // [Tactical Movement Modifiers] Friendly units within 3" of both flanks
  detachedLeaderRadius: 12, // [Tactical Movement Modifiers] … within 12"
  chargeCheckedRetreat: CHARGE_CHECKED_RETREAT, // [B&S notes] Retreat charging unit 2" from enemy
  musketRange: RANGE_BANDS[0], // [Fire Points at Range] musket 3" column
  skirmishRange: RANGE_BANDS[1], // [Fire Points at Range] "1 Sk" in the 6" column
  maxArtilleryRange: RANGE_BANDS[4], // [Fire Points at Range] 24"
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// Book vs digest, and text readings
// ---------------------------------------------------------------------------------------------------------------------

/** Every place the digest reads the sheets differently; the code follows the sheet unless it says why not. */
export const BOOK_VS_DIGEST: readonly string[] = [
  '[B&S Results] 0: the sheet labels the 0 differential "Shattered!"; the digest calls the label a TEXT ISSUE ' +
    '("evidently wrong") and leaves the row unnamed. The sheet label is kept (sheetLabel); effects are identical.',
  '[Tactical Movement Modifiers] +1/+2: the sheet prints "Detached Division to Army Leader within 12”"; the digest ' +
    '(A10) reads "Division or Army leader". Taken literally the row names no leader the unit could measure to, so the ' +
    'digest reading is used (own division leader or army leader, detached, within 12"; best one only).',
  '[V&C DRM] −2: the sheet prints "Target in Open Order or Skirmisher (3.1” to 6”)"; the digest (A6) reads it as ' +
    '"target in Open Order, or the fire is skirmish fire (3.1"–6")". No "Skirmisher" targets exist and the range is ' +
    'the "1 Sk" band, so the digest reading is used (once, not cumulative).',
  '[Tactical Movement Modifiers] −2: the digest says "ADAPTATION A10 uses the table (Field Column and Masse)" but A10 ' +
    "is the leader adaptation; the sheet's own page-1 table (Field Column/Masse for Linear) is followed here, no A-number.",
];

/** How damaged or ambiguous sheet text was read (not disagreements with the digest). */
export const TEXT_READINGS: readonly string[] = [
  '[Movement] the extraction drops empty cells: infantry rows print 3 values (Basic, Road or "-", Ford); the empty ' +
    'one is Rough (A11 fills it: ×½, Open Order ×1). Other rows print 4 values.',
  '[Fire Points at Range] musket rows print 2 values: the 3" column and "1 Sk" in the 6" column; 12"–24" are empty.',
  '[Fire Point Modifiers] "Firer disordered or damaged gun." has no value on the sheet; A6 uses ×½.',
  '[B&S DRM] the extraction prints each group\'s values first, then its conditions; a trailing " 1" / " 2" on a ' +
    'condition is the superscript note marker. "+1 +2 +3 / Defending in or behind Cover" is one row with three values.',
  '[B&S Results] "Retreat 4from enemy" (4-6 defender), "retreat disordered 2." (1-3 attacker) and "retreat 4 from ' +
    'enemy" (−4..−6 attacker) lost their inch marks: read as 4", 2" and 4".',
  '[B&S Results] the 1-3 DEFENDER cell ends with "Hold position if square v cavalry." on a separate line.',
  '[Differences: March Mode] names only Field Column as inconsistent for Linear infantry; the page-1 table says Field ' +
    'Column/Masse. The table is used (the digest does the same).',
  '[Differences: Forming Square] the cavalry replacement list says "+2 Cavalry charging Infantry not in Square or ' +
    'Masse" without the page-2 "in Open"; the page-2 row (in the open) is used (the digest does the same).',
];
