/**
 * Napoleon's Eagles (1:30 ratio, 15mm): every numeric table and modifier list of the rulebook, as typed data and pure
 * lookups.
 *
 * Source: `shared/seeds/napoleons-eagles.txt`, a PDF text extraction of the rulebook; the table regions are kept
 * verbatim in `test/data/napoleons-eagles-tables.txt`. Page citations `// [p.N]` follow the page map of the digest
 * `shared/rules/napoleons-eagles.md` §0. Where the extraction garbled a table (the Musket Firing Table's staircase,
 * the Solid Shot Firing Table's missing column) or the book is silent, the digest's reconstruction is used and cited
 * by its ADAPTATION number (`// A-45`). THE BOOK WINS over the digest where they disagree: every such place is in
 * `BOOK_VS_DIGEST` below; places where the book contradicts itself or is ambiguous are in `BOOK_READINGS`.
 *
 * No I/O, no randomness: rolls come in as numbers; the `…Dist` helpers give exact distributions from engine/core.
 *
 * BOOK vs DIGEST
 * 1. [p.13] Close Action Casualty Chart, column: the book cross-references the die "with number of charging figures in
 *    contact (melee frontage)"; the digest (A-59) reads the column as the *rolling side's own* figures in contact. No
 *    cell differs: `closeActionCasualties` takes the count the caller passes and names it `figuresInContact`; the
 *    rules code must choose the count (the book's words favour the melee frontage, the same for both sides).
 * 2. [p.10] Artillery crew casualties: the book says a battery is neutralised at hits equal to "the number of cannons
 *    in the battery. That is, a battery of eight guns can take eight hits"; the digest (6.5.9) counts all guns,
 *    howitzers included. The book's own example counts guns, and "cannons (not howitzers)" is spelled out where the
 *    book means to exclude howitzers (solid-shot damage), so `neutralisedAtHits` takes the battery's guns; the rules
 *    code decides whether to pass cannons only (see BOOK_READINGS 4).
 * 3. [p.15] Out-of-control cavalry: the book says "On a 20, the unit is out of control" with modifiers; the digest
 *    says "a modified 20 or more". With modifiers both mean the same (`outOfControl` uses modified ≥ 20).
 * No other table cell of the digest disagrees with the book; the reconstructions the book leaves open are A-numbered
 * where they are used.
 */

import { type Dist, classify, modifiedRoll, sumDist } from '../../core/dice.ts';

/** Where the book contradicts itself or reads two ways, and what the tables use. */
export const BOOK_READINGS: readonly string[] = [
  '1. A-44 solid-shot damage against troops in or on the edge of woods or buildings: −4 in the p.9 table and the p.10 ' +
    'bounce text, −2 in the p.19 woods text and the p.20 buildings text. Default −4 (the quick-reference value); ' +
    'SOLID_SHOT_DAMAGE_WOODS_OR_BUILDINGS_ALT holds −2.',
  '2. A-49 rapid-fire fatigue: +3 "after firing" (p.5 bullet, p.10) but "+2 for the close action" when rapid fire is a ' +
    'defence action (p.5). Always +3.',
  '3. A-21 leader move: "up to 20”" in step 8 (p.4) and "All 10”, in step #8" (p.6). 10" per action, 20" in step 8.',
  '4. [p.10] neutralisation "equal to the number of cannons … a battery of eight guns can take eight hits": read as ' +
    'all guns (the digest), see BOOK vs DIGEST 2.',
  '5. A-45 Solid Shot Firing Table: four column headings, three values per row. Default closeIsCanister (the values ' +
    'are Medium/Long/Extreme); alternative extremeBlank (Close/Medium/Long).',
  '6. A-41 Musket Firing Table: the extraction drops the empty cells on the left of every row; the rows are read ' +
    'right-aligned under the 14 column headings. The 4-figure row prints 2 at 12+ (the staircase would give 4): kept.',
  '7. [p.9] the Musket Firing Table has no column for −5 or less; its note says "Die rolls of –5 or less will have no ' +
    'effect" (the digest prints that as a "≤−5" column of zeros).',
  '8. [p.20] visibility "fog = ¼ or less" and "haze, mist = ½ to ¾" are ranges: the table keeps both ends.',
];

// ---------------------------------------------------------------------------------------------------------------------
// Rows, dice
// ---------------------------------------------------------------------------------------------------------------------

/** A row or column of a table read by a number: `min`..`max` inclusive (±Infinity for open ends). */
export interface Band {
  readonly label: string; // as printed
  readonly min: number;
  readonly max: number;
}

function bandIndex(bands: readonly Band[], n: number): number {
  return bands.findIndex((b) => n >= b.min && n <= b.max);
}

function assertInteger(n: number, what: string): void {
  if (!Number.isInteger(n)) throw new RangeError(`${what} must be an integer, got ${n}`);
}

// ---------------------------------------------------------------------------------------------------------------------
// Ratings [p.4]
// ---------------------------------------------------------------------------------------------------------------------

export type MoveRating = 'A' | 'B' | 'C';
export type FireRating = 'A' | 'B' | 'C' | 'D' | 'E' | 'R';

export interface UnitRating {
  readonly move: MoveRating;
  readonly morale: number;
  readonly fire: FireRating;
  readonly melee: number;
}

/** [p.4] "Move – Morale – Fire – Melee", e.g. "B16C30". A-1: `^([A-C])(\d{1,2})([A-ER])(\d{2,3})$`. */
export const RATING_PATTERN = /^([A-C])(\d{1,2})([A-ER])(\d{2,3})$/;

/**
 * What is wrong with a rating string, in words, or undefined when it is a rating. The string is read left to right
 * as the book orders the ratings [p.4]: a Move letter A–C, a Morale number (1–2 digits), a Fire letter A–E or R
 * (Rifle class), a Melee value (2–3 digits) (A-1).
 */
export function ratingProblem(s: string): string | undefined {
  const example = 'e.g. "B16C30": Move B, Morale 16, Fire C, Melee 30 [p.4]';
  if (typeof s !== 'string' || s.length === 0) return `a unit rating is Move–Morale–Fire–Melee, ${example}`;
  if (RATING_PATTERN.test(s)) return undefined;
  const m = /^([A-Za-z]?)(\d*)([A-Za-z]?)(\d*)(.*)$/.exec(s)!;
  const [, move, morale, fire, melee, rest] = m as unknown as [string, string, string, string, string, string];
  const what = `"${s}" is not a unit rating`;
  if (!/^[A-C]$/.test(move))
    return `${what}: it must start with the Move rating A, B or C${move ? `, not "${move}"` : ''} (${example})`;
  if (morale.length < 1 || morale.length > 2)
    return `${what}: the Morale rating after the Move letter is a 1- or 2-digit number${morale ? `, not "${morale}"` : ''} (${example})`;
  if (!/^[A-ER]$/.test(fire))
    return `${what}: the Fire rating after the Morale number is A, B, C, D, E or R (Rifle)${fire ? `, not "${fire}"` : ''} (${example})`;
  if (melee.length < 2 || melee.length > 3)
    return `${what}: the Melee value after the Fire letter is a 2- or 3-digit number${melee ? `, not "${melee}"` : ''} (${example})`;
  return `${what}: unexpected "${rest}" after the Melee value (${example})`;
}

/** [p.4] the four ratings of a rating string; a RangeError naming the wrong part when it is not one (A-1). */
export function parseRating(s: string): UnitRating {
  const problem = ratingProblem(s);
  if (problem !== undefined) throw new RangeError(problem);
  const m = RATING_PATTERN.exec(s)!;
  return { move: m[1] as MoveRating, morale: Number(m[2]), fire: m[3] as FireRating, melee: Number(m[4]) };
}

/** [p.9] fire rating on the musket/canister die: +2 A, +1 B, (C 0), −1 D, −2 E, +1 R (Rifle) class. */
export const FIRE_RATING_MODIFIER: Readonly<Record<FireRating, number>> = { A: 2, B: 1, C: 0, D: -1, E: -2, R: 1 };

// ---------------------------------------------------------------------------------------------------------------------
// Scale [p.3], turn structure [p.4-5]
// ---------------------------------------------------------------------------------------------------------------------

/** [p.3] Game Scale for 15mm Figures @ 1:30 Ratio. */
export const SCALE = {
  minutesPerAction: 5, // One action = approximately 5 minutes
  soldiersPerFigure: [25, 30], // One figure = approximately 25 to 30 soldiers
  yardsPerInch: 30, // One inch = 30 yards
  frontagePerFigure: { twoRankInfantry: 1 / 2, threeRankInfantry: 3 / 8, cavalry: 3 / 4, artilleryPerGunModel: 1 },
  depth: { infantry: 1 / 2, cavalry: 1, artillery: 3 / 2 }, // recommended stand depths
  gunsPerBase: [1, 3], // one gun model … represents one to three actual field guns
  fromOneToSixty: 2, // [p.3, p.22] "For 1:30, double the number of figures"
} as const;

/** [p.3] "A two gun regimental battery would consist of one base, a six gun … two bases, … eight guns … three": A-4. */
export function artilleryBases(guns: number): number {
  return Math.ceil(guns / 3);
}

/** [p.4] game turn, periods and actions; [p.5] turn points. */
export const TURN = {
  periodsPerTurn: 6, // In one Game Turn there are 12 actions that are played out in 6 periods
  actionsPerPeriod: 2, // 2 actions per period
  actionsPerTurn: 12,
  turnPoints: 20, // [p.5] each side receives twenty turn points (uneven: scenario, e.g. 20 and 18)
  tieBreakDie: 6, // [p.4] roll one D6 to break the tie
  sideAMinFraction: 1 / 2, // [p.4] Side A must move at least one half (½) of their units
  leaderMoveStep8: 20, // [p.4] up to 20” (A-21)
} as const;

/** [p.4] Side A and D ratios: units moved per step. The default and the book's three options. */
export const ACTIVATION_RATIOS: readonly { readonly a: number; readonly d: number; readonly isDefault: boolean }[] = [
  { a: 2, d: 1, isDefault: true }, // Side A moves two units while side D only moves one unit
  { a: 3, d: 2, isDefault: false }, // side A move three and side D move two
  { a: 4, d: 2, isDefault: false }, // or have side A move four and side D move two
  { a: 5, d: 3, isDefault: false }, // For larger battles … side A move five and side D move three
];

// ---------------------------------------------------------------------------------------------------------------------
// Fatigue [p.5, p.20]
// ---------------------------------------------------------------------------------------------------------------------

export type FatigueLevel = 0 | 1 | 2 | 3;
/** [p.5] Normal, Fatigued, Tired, Exhausted. */
export const FATIGUE_LEVELS = ['Normal', 'Fatigued', 'Tired', 'Exhausted'] as const;

/** [p.9] fire die, [p.12] morale, [p.13] melee value, by fatigue level. */
export const FATIGUE_PENALTY: Readonly<Record<'fire' | 'morale' | 'melee', readonly [0, number, number, number]>> = {
  fire: [0, -1, -2, -3], // -1 if fatigued, -2 if tired, -3 if exhausted
  morale: [0, -1, -2, -3],
  melee: [0, -5, -10, -15],
};

/** [p.5, p.20] fatigue increases. */
export const FATIGUE_INCREASE = {
  forceMarch: 2, // increased by two
  forceMarchHot: 3, // [p.20] hot temperatures: three instead of the normal two
  closeAction: 1, // after the full completion of a close action
  cavalryChargedNotClosed: 1, // cavalry that charged but did not close
  rapidFire: 3, // increased by three after firing (A-49: also as a defence action)
  hotBothActions: 1, // [p.20] a unit uses both actions during a period
  restPerAction: -1, // one action of rest recovers one level
} as const;

/** [p.5] a unit that is tired or exhausted may not force march. */
export const FORCE_MARCH_MAX_LEVEL: FatigueLevel = 1;

/** A-5: fatigue after a change of `by` levels, kept in Normal..Exhausted. */
export function fatigueAfter(level: FatigueLevel, by: number): FatigueLevel {
  return Math.min(3, Math.max(0, level + by)) as FatigueLevel;
}

// ---------------------------------------------------------------------------------------------------------------------
// Movement [p.6-7]
// ---------------------------------------------------------------------------------------------------------------------

export interface InfantryRates {
  readonly line: number;
  readonly column: number;
  readonly skirmish: number;
  readonly roadColumn: number; // on road (A-29: off road at the Column rate)
  readonly square: number | null; // null: "-" (cannot move)
}

/** [p.6] Infantry (All types), inches per action, by Move rating. */
export const INFANTRY_MOVE: Readonly<Record<MoveRating, InfantryRates>> = {
  A: { line: 6, column: 8, skirmish: 8, roadColumn: 10, square: 2 },
  B: { line: 4, column: 8, skirmish: 8, roadColumn: 10, square: 1 },
  C: { line: 2, column: 8, skirmish: 8, roadColumn: 10, square: null },
};

/** [p.6] Cavalry (Light, Medium, Heavy), inches per action. [p.7] echelon moves at the line rate. */
export const CAVALRY_MOVE: Readonly<Record<MoveRating, Omit<InfantryRates, 'square'>>> = {
  A: { line: 8, column: 9, skirmish: 10, roadColumn: 10 },
  B: { line: 6, column: 9, skirmish: 10, roadColumn: 10 },
  C: { line: 4, column: 9, skirmish: 10, roadColumn: 10 },
};

export type CavalryWeight = 'light' | 'medium' | 'heavy';

/** [p.6] Cavalry Charge Distance (one action only) = [p.15] counter charge distance. */
export const CAVALRY_CHARGE: Readonly<Record<CavalryWeight, number>> = { light: 14, medium: 13, heavy: 12 };
/** [p.15] Out of control cavalry will charge up to 16”. */
export const OUT_OF_CONTROL_CHARGE = 16;

export type ArtilleryMoveRow = 'horse3to6' | 'foot3to6' | 'foot8to9' | 'foot12';
export interface ArtilleryRates {
  readonly label: string;
  readonly fieldA: number; // limbered, A-rated
  readonly fieldB: number; // limbered, B-rated (A-1: also C)
  readonly prolong: number; // unlimbered, A & B
  readonly road: number; // on road, A & B
}

/** [p.6] Artillery: Field Movement (A-Rated, B-Rated), Prolong, Road Movement. */
export const ARTILLERY_MOVE: Readonly<Record<ArtilleryMoveRow, ArtilleryRates>> = {
  horse3to6: { label: 'Horse 3lb-6lb', fieldA: 9, fieldB: 8, prolong: 3, road: 10 },
  foot3to6: { label: 'Foot 3lb-6lb', fieldA: 8, fieldB: 6, prolong: 3, road: 10 },
  foot8to9: { label: 'Foot 8lb-9lb', fieldA: 7, fieldB: 5, prolong: 2, road: 10 },
  foot12: { label: 'Foot 12lb', fieldA: 6, fieldB: 4, prolong: 1, road: 10 },
};

export type Calibre = '12lb' | '8-9lb' | '6lb' | '4lb' | '2-3lb';

/** A-29: the movement row of a battery (2-3lb and 4lb batteries use the 3lb-6lb rows; horse always that row). */
export function artilleryMoveRow(arm: 'foot' | 'horse', calibre: Calibre): ArtilleryMoveRow {
  if (arm === 'horse') return 'horse3to6';
  return calibre === '12lb' ? 'foot12' : calibre === '8-9lb' ? 'foot8to9' : 'foot3to6';
}

/** [p.6] Field Movement of a limbered battery, by its Move rating (A-1: C uses the B column). */
export function artilleryFieldMove(row: ArtilleryMoveRow, move: MoveRating): number {
  return move === 'A' ? ARTILLERY_MOVE[row].fieldA : ARTILLERY_MOVE[row].fieldB;
}

/** Other movement rates, inches per action. */
export const OTHER_MOVES = {
  leaderPerAction: 10, // [p.6] Leaders: All 10”, in step #8 (A-21: two actions, 20")
  crewRunningForCover: 6, // [p.10] Crews have a movement rate of 6" per action
  caisson: 8, // [p.11] Caissons have a movement of 8” per action
  fallBack: 2, // [p.7] moved backward 2” per action
  sidestepInfantryCavalry: 2, // [p.7] 2” per action left or right
  sidestepArtillery: 1, // [p.7] Artillery can only move 1” left or right per action
  skirmishScreen: 8, // [p.19] Skirmish lines may move up to 8” per action
} as const;

/** [p.12] Movement rates for retreating units: one action for every 10" / 12" moved. */
export const RETREAT_INCHES_PER_ACTION = { infantryOrFootArtillery: 10, cavalryOrHorseArtillery: 12 } as const;

export type TerrainMove =
  | 'gentleSlope'
  | 'steepSlope'
  | 'extremeSlope'
  | 'mud'
  | 'lightWoods'
  | 'denseWoods'
  | 'fallenSnow';
export type MoverArm = 'infantry' | 'cavalry' | 'artillery';

/** [p.6, p.19, p.20] movement multipliers of terrain (0: may not enter). A-14 spends them per inch. */
export const TERRAIN_MOVE: Readonly<Record<TerrainMove, Readonly<Record<MoverArm, number>>>> = {
  gentleSlope: { infantry: 1, cavalry: 1, artillery: 1 }, // no movement penalties
  steepSlope: { infantry: 3 / 4, cavalry: 3 / 4, artillery: 3 / 4 }, // up to ¾ of the unit’s movement
  extremeSlope: { infantry: 1 / 2, cavalry: 1 / 2, artillery: 1 / 2 }, // up to ½
  mud: { infantry: 1 / 2, cavalry: 1 / 2, artillery: 1 / 2 }, // Mud / Soft Ground / Sand; movement is ½ for all
  lightWoods: { infantry: 3 / 4, cavalry: 1 / 2, artillery: 1 / 2 }, // [p.19]
  denseWoods: { infantry: 1 / 2, cavalry: 0, artillery: 0 }, // [p.19] Artillery and cavalry cannot enter
  fallenSnow: { infantry: 1 / 2, cavalry: 1 / 2, artillery: 1 / 2 }, // [p.20] ½ over deep snow (players decide)
};

/** A-14: the multiplier where features overlap (the smallest); open ground is 1. */
export function terrainMultiplier(features: readonly TerrainMove[], arm: MoverArm): number {
  return features.reduce((m, f) => Math.min(m, TERRAIN_MOVE[f][arm]), 1);
}

/** [p.6] bridges and rivers. */
export const CROSSINGS = {
  bridgeFiguresPerAction: [4, 12], // 4 to 12 figures may cross over a bridge per action
  riverActions: [1, 4], // it will take 1 to 4 actions (players choose) to cross
} as const;

export type FacingFormation = 'line' | 'column' | 'echelon';

/**
 * [p.7] Facing changes, in actions, by the largest angle of each bracket; null beyond the last: line ≤10° free, ≤45° 1,
 * ≤90° 2; column ≤10° free, ≤45° ½, ≤90° 1, ≤135° 2, "cannot face more than 135º in one move"; echelon as line but
 * "cannot make more than a 45 degree facing change".
 */
export const FACING_CHANGE: Readonly<Record<FacingFormation, readonly { maxDeg: number; actions: number }[]>> = {
  line: [
    { maxDeg: 10, actions: 0 },
    { maxDeg: 45, actions: 1 },
    { maxDeg: 90, actions: 2 },
  ],
  column: [
    { maxDeg: 10, actions: 0 },
    { maxDeg: 45, actions: 0.5 },
    { maxDeg: 90, actions: 1 },
    { maxDeg: 135, actions: 2 },
  ],
  echelon: [
    { maxDeg: 10, actions: 0 },
    { maxDeg: 45, actions: 1 },
  ],
};

/** [p.7] the cost in actions of turning `deg` degrees (either way), or null if not allowed in one move. */
export function facingChangeCost(f: FacingFormation, deg: number): number | null {
  const a = Math.abs(deg);
  return FACING_CHANGE[f].find((b) => a <= b.maxDeg)?.actions ?? null;
}

/** [p.7] formation change costs, in actions. */
export const FORMATION_CHANGE = {
  infantry: 1, // RC↔C, C↔L, C↔S, L↔S cost 1 action
  frenchPost1807ColumnLine: 0.5, // French after 1807 C to L, L to C cost ½ action
  prussian1806ColumnLine: 2, // 1806 Prussians C to L, L to C cost 2 actions
  austrianMassColumnSquare: 0.5, // Austrian mass C to S, S to C cost ½ action
  cavalry: 1, // RC↔C, C↔L cost one action
  cavalryEchelon: 0.5, // L to E, E to L cost ½ an action
  lineOnFlankInfantry: 2, // at the cost of two actions
  lineOnFlankPrussian1806OrCavalry: 1, // 1806 Prussian infantry plus all cavalry … only one action
  refuseFlank: 1, // costs one action
  refuseFlankFraction: 1 / 4, // up to ¼ (25%) of the figures in the unit (rounding up)
  limberOrUnlimber: 1, // It takes artillery 1 action to limber or unlimber
  aboutFace: 1, // It takes one action … about face
  formSkirmish: 1, // [p.18] one action to form a skirmish line
  reformFromSkirmish: 2, // [p.18] two actions to reform the unit
  reform: 1, // [p.6] one full action to reform
} as const;

/** [p.7] the most figures a line may refuse: ¼ of its figures, rounding up. */
export function refusedFlankFigures(figures: number): number {
  return Math.ceil(figures * FORMATION_CHANGE.refuseFlankFraction);
}

// ---------------------------------------------------------------------------------------------------------------------
// Fire: range bands [p.9]
// ---------------------------------------------------------------------------------------------------------------------

export type RangeBand = 'close' | 'medium' | 'long' | 'extreme';
export const RANGE_BANDS: readonly RangeBand[] = ['close', 'medium', 'long', 'extreme'];
export type SmallArm = 'musket' | 'rifle' | 'carbine';
export type Weapon = SmallArm | Calibre;

/** [p.9] the range table: the upper limit of each band, inches ("up to"); null where the book prints "--". */
export const RANGE_LIMITS: Readonly<Record<Weapon, readonly [number, number, number, number | null]>> = {
  musket: [2, 4, 6, 8], // up to 2” up to 4” up to 6” up to 8”
  rifle: [4, 6, 8, 12],
  carbine: [2, 3, 4, null], // Carbines 2” 3” 4” --
  '12lb': [10, 20, 40, 64],
  '8-9lb': [10, 20, 36, 54],
  '6lb': [8, 16, 32, 48],
  '4lb': [8, 16, 30, 44],
  '2-3lb': [6, 12, 28, 36],
};

/** [p.9] "Number in parentheses is bounce for solid shot", per band. */
export const BOUNCE: Readonly<Record<Calibre, readonly [number, number, number, number]>> = {
  '12lb': [12, 10, 8, 6],
  '8-9lb': [10, 8, 8, 4],
  '6lb': [8, 8, 6, 4],
  '4lb': [8, 6, 6, 4],
  '2-3lb': [4, 4, 4, 2],
};

/** [p.9] "* Notes cannister range for artillery; 6”for howitzers": the close band; [p.10] howitzer shell band. */
export const HOWITZER = { canisterRange: 6, shellMin: 16, shellMax: 40, damagePerHowitzer: 2 } as const;

/** [p.9] the band a range falls in (a range equal to a limit is in that band), or null beyond the last band. */
export function rangeBand(weapon: Weapon, range: number): RangeBand | null {
  if (!(range >= 0)) throw new RangeError(`range must be ≥ 0, got ${range}`);
  const i = RANGE_LIMITS[weapon].findIndex((limit) => limit !== null && range <= limit);
  return i < 0 ? null : RANGE_BANDS[i]!;
}

/** [p.9] die roll modifiers for range: −1 medium, −3 long, −5 extreme (canister is always close: none). */
export const RANGE_MODIFIER: Readonly<Record<RangeBand, number>> = { close: 0, medium: -1, long: -3, extreme: -5 };

// ---------------------------------------------------------------------------------------------------------------------
// Musket Firing Table [p.9]
// ---------------------------------------------------------------------------------------------------------------------

/** [p.9] the column headings (modified 1xD6), left to right. */
export const MUSKET_TABLE_COLUMNS: readonly Band[] = [
  { label: '-4', min: -4, max: -4 },
  { label: '-3', min: -3, max: -3 },
  { label: '-2,-1', min: -2, max: -1 },
  { label: '0', min: 0, max: 0 },
  { label: '1', min: 1, max: 1 },
  { label: '2', min: 2, max: 2 },
  { label: '3,4', min: 3, max: 4 },
  { label: '5', min: 5, max: 5 },
  { label: '6', min: 6, max: 6 },
  { label: '7', min: 7, max: 7 },
  { label: '8,9', min: 8, max: 9 },
  { label: '10', min: 10, max: 10 },
  { label: '11', min: 11, max: 11 },
  { label: '12+', min: 12, max: Infinity },
];

/** [p.9] "Note: Die rolls of –5 or less will have no effect." */
export const MUSKET_NO_EFFECT_MAX = -5;

/**
 * [p.9] Musket Firing Table (Vertical = # of Figures, Horizontal = 1xD6 Die Roll): figure casualties per column of
 * MUSKET_TABLE_COLUMNS. A-41: the extraction drops the empty cells on the left; each printed row is right-aligned
 * under the headings (0 in the dropped cells). Row 4 prints 2 at 12+ (kept).
 */
export const MUSKET_TABLE: ReadonlyMap<number, readonly number[]> = new Map([
  [4, [0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2]],
  [8, [0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 4, 4]],
  [12, [0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 4, 4, 4]],
  [16, [0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 4, 4, 4, 4]],
  [20, [0, 0, 0, 0, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4]],
  [24, [0, 0, 0, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6]],
  [28, [0, 0, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6]],
  [32, [0, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6]],
  [36, [2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6]],
  [40, [2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 6]],
  [44, [2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8]],
  [48, [2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8, 8]],
]);

/** [p.9] the column index of a modified roll, or null for −5 or less (no effect). */
export function musketTableColumn(modifiedRoll: number): number | null {
  assertInteger(modifiedRoll, 'modified fire roll');
  return modifiedRoll <= MUSKET_NO_EFFECT_MAX ? null : bandIndex(MUSKET_TABLE_COLUMNS, modifiedRoll);
}

/** A-41: the row for `figures` firing (already doubled for two actions): 4 × round(N/4), halves up; 0 for N ≤ 1. */
export function musketRowFigures(figures: number): number {
  assertInteger(figures, 'figures firing');
  return figures <= 1 ? 0 : 4 * Math.max(1, Math.floor(figures / 4 + 0.5));
}

/**
 * [p.9] figure casualties for `figures` firing at a modified D6 roll. Rows 4–48 read the table (A-41 rounds counts
 * between rows); above 48 the closed form of A-41 extends the staircase: column c (1-based), k = row/4, start = 10 − k,
 * casualties = 2 × (⌊(c − start)/5⌋ + 1) when c ≥ start.
 */
export function musketFireCasualties(figures: number, modifiedRoll: number): number {
  const col = musketTableColumn(modifiedRoll);
  const row = musketRowFigures(figures);
  if (col === null || row === 0) return 0;
  const printed = MUSKET_TABLE.get(row);
  if (printed) return printed[col]!;
  const c = col + 1;
  const start = 10 - row / 4;
  return c < start ? 0 : 2 * (Math.floor((c - start) / 5) + 1);
}

/** The exact casualty distribution of one D6 + `mod` on the Musket Firing Table. */
export function musketFireDist(figures: number, mod: number): Dist<number>[] {
  return modifiedRoll(6, mod, (total) => musketFireCasualties(figures, total)).sort((a, b) => a.value - b.value);
}

/** [p.8] canister reads the row for twice the guns firing, doubled again for two actions ("6 guns equals the 12 row"). */
export function canisterRowFigures(gunsFiring: number, actions: 1 | 2): number {
  return 2 * gunsFiring * actions;
}

/**
 * [p.10] "For cannister ranges, which is 6”, just count the howitzers as part of the total guns firing": the guns that
 * fire canister at `range` (the howitzers only within 6").
 */
export function canisterGuns(cannons: number, howitzers: number, range: number): number {
  return cannons + (range <= HOWITZER.canisterRange ? howitzers : 0);
}

// ---------------------------------------------------------------------------------------------------------------------
// Fire modifiers [p.9, p.18-20]
// ---------------------------------------------------------------------------------------------------------------------

export type FireModifierId =
  | 'ratingA'
  | 'ratingB'
  | 'ratingD'
  | 'ratingE'
  | 'rifleClass'
  | 'canister12lb'
  | 'canister8to9lb'
  | 'canister6lb'
  | 'canister4lb'
  | 'canister2to3lb'
  | 'columnOrSquare'
  | 'twoRankTraining'
  | 'mediumRange'
  | 'longRange'
  | 'extremeRange'
  | 'fatigued'
  | 'tired'
  | 'exhausted'
  | 'unlimberedArtillery'
  | 'limberedArtillery'
  | 'behindWalls'
  | 'behindHedges'
  | 'lightWoods'
  | 'denseWoods'
  | 'buildings'
  | 'skirmishers'
  | 'skirmishersCanister'
  | 'firerIsSkirmishScreen'
  | 'organicSkirmishers'
  | 'lightRain'
  | 'heavyRain'
  | 'lightSnow'
  | 'heavySnow'
  | 'smoke';

export interface FireModifierRow {
  readonly id: FireModifierId;
  readonly value: number;
  readonly printed: string; // the book's words
  readonly page: number;
}

/** [p.9] "Die roll modifiers:" (three columns, in column order), then the rules text elsewhere that adds to them. */
export const FIRE_MODIFIERS: readonly FireModifierRow[] = [
  { id: 'ratingA', value: 2, printed: '+2 for A rated units', page: 9 },
  { id: 'ratingB', value: 1, printed: '+1 for B rated units', page: 9 },
  { id: 'ratingD', value: -1, printed: '-1 for D rated units', page: 9 },
  { id: 'ratingE', value: -2, printed: '-2 for E rated units', page: 9 },
  { id: 'rifleClass', value: 1, printed: '+1 for R (Rifle) class units', page: 9 },
  { id: 'canister12lb', value: 6, printed: '+6 for 12lb cannister shot', page: 9 },
  { id: 'canister8to9lb', value: 5, printed: '+5 for 8-9lb cannister shot', page: 9 },
  { id: 'canister6lb', value: 4, printed: '+4 for 6lb cannister shot', page: 9 },
  { id: 'canister4lb', value: 3, printed: '+3 for 4lb cannister shot', page: 9 },
  { id: 'canister2to3lb', value: 2, printed: '+2 for 2-3lb cannister shot', page: 9 },
  { id: 'columnOrSquare', value: 2, printed: '+2 for firing at columns/squares', page: 9 },
  { id: 'twoRankTraining', value: 2, printed: '+2 for two-rank training', page: 9 },
  { id: 'mediumRange', value: -1, printed: '-1 medium range', page: 9 },
  { id: 'longRange', value: -3, printed: '-3 long range', page: 9 },
  { id: 'extremeRange', value: -5, printed: '-5 extreme range', page: 9 },
  { id: 'fatigued', value: -1, printed: '-1 if fatigued', page: 9 },
  { id: 'tired', value: -2, printed: '-2 if tired', page: 9 },
  { id: 'exhausted', value: -3, printed: '-3 if exhausted', page: 9 },
  { id: 'unlimberedArtillery', value: -3, printed: '-3 firing at unlimbered artillery', page: 9 },
  { id: 'limberedArtillery', value: -1, printed: '-1 firing at limbered artillery', page: 9 },
  { id: 'behindWalls', value: -3, printed: '-3 firing at units behind walls, redoubts', page: 9 },
  { id: 'behindHedges', value: -2, printed: '-2 firing at units behind hedges, prepared defenses', page: 9 },
  { id: 'lightWoods', value: -1, printed: '-1 if target in light woods', page: 9 },
  { id: 'denseWoods', value: -3, printed: '-3 if target in dense woods', page: 9 },
  { id: 'buildings', value: -5, printed: '-5 if target in buildings', page: 9 },
  { id: 'skirmishers', value: -3, printed: '-3 firing at skirmishers', page: 9 },
  // [p.19] "Artillery using cannister shot when firing at skirmisher screens, receive a –4 modifier" (replaces −3)
  { id: 'skirmishersCanister', value: -4, printed: 'receive a –4 modifier to the die roll', page: 19 },
  // [p.19] "Skirmish screens fire as normal, but an additional modifier of –1 is applied to their die roll."
  { id: 'firerIsSkirmishScreen', value: -1, printed: 'an additional modifier of –1', page: 19 },
  // [p.18] optional: firing at a unit with organic skirmishers from within 4" of its front
  { id: 'organicSkirmishers', value: -1, printed: 'a die roll modifier of –1', page: 18 },
  { id: 'lightRain', value: -2, printed: 'muskets fire with a -2', page: 20 }, // optional weather, muskets
  { id: 'heavyRain', value: -3, printed: 'muskets fire with a -3', page: 20 },
  { id: 'lightSnow', value: -1, printed: '-1 modifier', page: 20 },
  { id: 'heavySnow', value: -2, printed: 'a -2 modifier', page: 20 },
  // [p.20] optional smoke: muskets/rifles and artillery using canister
  { id: 'smoke', value: -2, printed: 'there is a -2 modifier', page: 20 },
];

const fireValue = (id: FireModifierId) => FIRE_MODIFIERS.find((r) => r.id === id)!.value;

/** [p.9] canister bonus by calibre. */
export const CANISTER_BONUS: Readonly<Record<Calibre, number>> = {
  '12lb': fireValue('canister12lb'),
  '8-9lb': fireValue('canister8to9lb'),
  '6lb': fireValue('canister6lb'),
  '4lb': fireValue('canister4lb'),
  '2-3lb': fireValue('canister2to3lb'),
};

export type FireCover = 'none' | 'hedges' | 'walls' | 'lightWoods' | 'denseWoods' | 'buildings';
export type FireWeather = 'clear' | 'lightRain' | 'heavyRain' | 'lightSnow' | 'heavySnow' | 'hot';

export interface FireModifierInput {
  readonly fire: FireRating;
  readonly twoRank: boolean;
  readonly fatigue: FatigueLevel;
  readonly firerIsSkirmishScreen: boolean;
  readonly canister: Calibre | null; // canister shot from a battery of this calibre (no range modifier)
  readonly band: RangeBand; // ignored for canister
  readonly target: 'formed' | 'columnOrSquare' | 'unlimberedArtillery' | 'limberedArtillery' | 'skirmishers';
  readonly cover: FireCover; // the single worst (A-42)
  readonly organicSkirmishers: boolean; // optional rule; the caller tests the 4" / front / formation conditions
  readonly weather: FireWeather; // optional; small arms only (A-42)
  readonly throughSmoke: boolean; // optional
}

/** [p.9] the total die roll modifier of one musket, rifle, carbine or canister fire (A-42: one cover modifier). */
export function fireModifier(i: FireModifierInput): number {
  let m = FIRE_RATING_MODIFIER[i.fire];
  if (i.twoRank && !i.canister) m += fireValue('twoRankTraining');
  m += FATIGUE_PENALTY.fire[i.fatigue];
  if (i.firerIsSkirmishScreen) m += fireValue('firerIsSkirmishScreen');
  if (i.canister) m += CANISTER_BONUS[i.canister];
  else m += RANGE_MODIFIER[i.band];
  if (i.target === 'columnOrSquare') m += fireValue('columnOrSquare');
  if (i.target === 'unlimberedArtillery') m += fireValue('unlimberedArtillery');
  if (i.target === 'limberedArtillery') m += fireValue('limberedArtillery');
  if (i.target === 'skirmishers') m += fireValue(i.canister ? 'skirmishersCanister' : 'skirmishers');
  const cover: Record<FireCover, number> = {
    none: 0,
    hedges: fireValue('behindHedges'),
    walls: fireValue('behindWalls'),
    lightWoods: fireValue('lightWoods'),
    denseWoods: fireValue('denseWoods'),
    buildings: fireValue('buildings'),
  };
  m += cover[i.cover];
  if (i.organicSkirmishers) m += fireValue('organicSkirmishers');
  if (!i.canister && i.weather !== 'clear' && i.weather !== 'hot') m += fireValue(i.weather);
  if (i.throughSmoke) m += fireValue('smoke');
  return m;
}

/** [p.8, p.19] which figures fire. */
export const FIRING = {
  arcDeg: 22.5, // [p.8] only fire up to 22.5º to their front arc
  squareFractionPerSide: 1 / 8, // [p.14] squares fire 1/8 of their figures per side
  squareFractionVsCavalry: 1 / 2, // [p.14] and so fire 1/2 of their total figures when charged by cavalry
  defenceFireFrontageException: 24, // [p.21] exceptions … frontage of the defending unit be more than 24 figures
  interveningScreenShare: 1 / 4, // [p.19] 1/4 (25%) of the firing unit must fire at the skirmishers
  woodsMaxRange: { lightWoods: 4, denseWoods: 2 }, // [p.19] Maximum range for firing inside
  organicSkirmisherRange: 4, // [p.18] within 4” of the unit’s front
} as const;

/** [p.19] A-41-style rounding of the intervening-screen share: round(N/4), halves up, at the screen; the rest on. */
export function interveningScreenSplit(figures: number): { readonly atScreen: number; readonly atTarget: number } {
  const atScreen = Math.floor(figures * FIRING.interveningScreenShare + 0.5);
  return { atScreen, atTarget: figures - atScreen };
}

// ---------------------------------------------------------------------------------------------------------------------
// Solid shot [p.8-10, p.24]
// ---------------------------------------------------------------------------------------------------------------------

export type SolidShotTable = 'closeIsCanister' | 'extremeBlank';

/**
 * [p.9] Solid Shot Firing Table, as printed: "A Hit 3,4,5,6 4,5,6 5,6" / "B Hit 4,5,6 5,6 6" (three cells under four
 * headings Close/Medium/Long/Extreme).
 */
export const SOLID_SHOT_PRINTED: Readonly<Record<'A' | 'B', readonly [string, string, string]>> = {
  A: ['3,4,5,6', '4,5,6', '5,6'],
  B: ['4,5,6', '5,6', '6'],
};

/**
 * A-45: the faces that hit, per band (null: no solid-shot hit possible). closeIsCanister (default): the printed cells
 * are Medium/Long/Extreme and the close band is canister only; extremeBlank: Close/Medium/Long, nothing at extreme.
 */
export const SOLID_SHOT_HITS: Readonly<
  Record<SolidShotTable, Readonly<Record<'A' | 'B', readonly (readonly number[] | null)[]>>>
> = {
  closeIsCanister: {
    A: [null, [3, 4, 5, 6], [4, 5, 6], [5, 6]],
    B: [null, [4, 5, 6], [5, 6], [6]],
  },
  extremeBlank: {
    A: [[3, 4, 5, 6], [4, 5, 6], [5, 6], null],
    B: [[4, 5, 6], [5, 6], [6], null],
  },
};

/** A-1: the Solid Shot row of a battery's fire rating (A reads A; B, C, D, E read B; R reads B). */
export function solidShotRow(fire: FireRating): 'A' | 'B' {
  return fire === 'A' ? 'A' : 'B';
}

/** A-45: the faces of one hit die that hit at `band` (empty: none), with the optional smoke −1 on the die [p.20]. */
export function solidShotHitFaces(
  fire: FireRating,
  band: RangeBand,
  table: SolidShotTable = 'closeIsCanister',
  throughSmoke = false,
): readonly number[] {
  const faces = SOLID_SHOT_HITS[table][solidShotRow(fire)][RANGE_BANDS.indexOf(band)];
  if (!faces) return [];
  const need = Math.min(...faces) - (throughSmoke ? SMOKE.solidShotHitDie : 0);
  return [1, 2, 3, 4, 5, 6].filter((f) => f >= need);
}

/** [p.9] Damage modifiers when a hit is scored. */
export const SOLID_SHOT_DAMAGE = {
  perHowitzer: HOWITZER.damagePerHowitzer, // +2 for each howitzer in the battery (16"–40" only, [p.10])
  unlimberedArtillery: -4, // -4 for firing at unlimbered artillery
  limberedArtillery: -2, // -2 for firing at limbered artillery
  skirmishers: -8, // -8 for firing at skirmishers
  woodsOrBuildings: -4, // -4 for firing at troops in buildings or woods (A-44; p.19/p.20 say −2)
} as const;
/** A-44 option: the −2 of the p.19 woods and p.20 buildings text. */
export const SOLID_SHOT_DAMAGE_WOODS_OR_BUILDINGS_ALT = -2;
/** [p.8] "one figure casualty for every 6 damage points"; column or square doubles. */
export const DAMAGE_PER_CASUALTY = 6;
export const DENSE_TARGET_DAMAGE_MULTIPLIER = 2;

/** [p.10] +2 damage per howitzer when the target is within 16–40" (first unit along the bounce only, if hit). */
export function howitzerDamageBonus(howitzers: number, range: number): number {
  return range >= HOWITZER.shellMin && range <= HOWITZER.shellMax ? howitzers * HOWITZER.damagePerHowitzer : 0;
}

export interface SolidShotDamageInput {
  readonly cannons: number; // cannons, not howitzers [p.8]
  readonly howitzerBonus: number; // howitzerDamageBonus, or 0 for units after the first along the bounce
  readonly target: 'troops' | 'unlimberedArtillery' | 'limberedArtillery' | 'skirmishers';
  readonly inWoodsOrBuildings: boolean;
  readonly dense: boolean; // column or square, retreat status, or a line hit from ≥45° on its flank [p.21]
  readonly woodsOrBuildingsModifier?: number; // A-44: default −4, option −2
}

/** [p.8-9] damage points per hit: A-47 add the modifiers, floor at 0, then double for a dense target. */
export function solidShotDamagePerHit(i: SolidShotDamageInput): number {
  let d = i.cannons + i.howitzerBonus;
  if (i.target !== 'troops') d += SOLID_SHOT_DAMAGE[i.target];
  if (i.inWoodsOrBuildings) d += i.woodsOrBuildingsModifier ?? SOLID_SHOT_DAMAGE.woodsOrBuildings;
  d = Math.max(0, d);
  return i.dense ? d * DENSE_TARGET_DAMAGE_MULTIPLIER : d;
}

/**
 * [p.8] casualties from `damage` points on one unit: one per 6, and one fraction roll "for 3 damage points the player
 * will need to roll a 1, 2, or 3": `fractionRoll` is the D6 (needed only when damage is not a multiple of 6).
 */
export function solidShotCasualties(damage: number, fractionRoll?: number): number {
  const whole = Math.floor(damage / DAMAGE_PER_CASUALTY);
  const fraction = damage % DAMAGE_PER_CASUALTY;
  if (fraction === 0) return whole;
  if (fractionRoll === undefined) throw new RangeError(`damage ${damage} needs a fraction roll`);
  return whole + (fractionRoll <= fraction ? 1 : 0);
}

/** The exact casualty distribution of `damage` points (the fraction roll's D6 included). */
export function solidShotCasualtiesDist(damage: number): Dist<number>[] {
  if (damage % DAMAGE_PER_CASUALTY === 0) return [{ value: damage / DAMAGE_PER_CASUALTY, p: 1 }];
  return classify(sumDist(1, 6), (f) => solidShotCasualties(damage, f)).sort((a, b) => a.value - b.value);
}

/** [p.9-10] the bounce at a band: halved uphill or over soft ground (A-46: each such inch costs 2" of bounce). */
export function bounce(calibre: Calibre, band: RangeBand): number {
  return BOUNCE[calibre][RANGE_BANDS.indexOf(band)]!;
}

/** [p.24] optional second bounce: half as long, half a first bounce downrange (A-52: from P + 1.5b to P + 2b). */
export function secondBounceZone(firstBounce: number): { readonly from: number; readonly to: number } {
  return { from: 1.5 * firstBounce, to: 2 * firstBounce };
}

/** [p.10] rapid fire, ammunition, crews. */
export const ARTILLERY = {
  rapidFireCasualtyMultiplier: 2, // the resulting casualties are doubled
  rapidFireFatigue: FATIGUE_INCREASE.rapidFire, // three (3) fatigue levels (A-49)
  rapidFireAmmoDiceMultiplier: 2, // must roll double the D6’s
  rapidFireMaxFatigue: 0 as FatigueLevel, // must have a normal fatigue level ([p.20] not in heavy rain)
  guardBatteryExtraHits: 1, // French Guard and Prussian Guard batteries may add one extra hit
  caissonHitsToDestroy: 2, // [p.11] two casualties to destroy a caisson
  caissonResupplyPeriods: 1, // [p.11] one full period (two actions)
  overrunPeriods: 1, // [p.10] one full period (two actions) to destroy the guns
  spikeActions: 1, // [p.10] one action … to spike their guns
} as const;

/** [p.10] the hits that neutralise a battery: its guns (BOOK vs DIGEST 2), +1 for French or Prussian Guard. */
export function neutralisedAtHits(guns: number, guardBattery: boolean): number {
  return guns + (guardBattery ? ARTILLERY.guardBatteryExtraHits : 0);
}

/** [p.11] ammunition levels, one step per "6" rolled. */
export const AMMO_LEVELS = ['Normal', 'Running low', 'Critical levels', 'Out of ammo'] as const;
export type AmmoLevel = 0 | 1 | 2 | 3;
/** [p.11] the face that costs ammunition. */
export const AMMO_LOSS_FACE = 6;

/** [p.10-11] ammunition dice after a firing: one per action, doubled for rapid fire. */
export function ammoDice(actions: 1 | 2, rapidFire: boolean): number {
  return actions * (rapidFire ? ARTILLERY.rapidFireAmmoDiceMultiplier : 1);
}

/** [p.11] the level after `sixes`; regimental guns run out at the 2nd "6". Returns 3 when out. */
export function ammoAfter(level: AmmoLevel, sixes: number, regimental: boolean): AmmoLevel {
  const next = Math.min(3, level + sixes) as AmmoLevel;
  return regimental && next >= 2 ? 3 : next;
}

// ---------------------------------------------------------------------------------------------------------------------
// Close actions [p.13-15]
// ---------------------------------------------------------------------------------------------------------------------

/** [p.13] Close action casualty chart: the columns (figures in contact, see BOOK vs DIGEST 1). */
export const CASUALTY_CHART_COLUMNS: readonly Band[] = [
  { label: '1-2 figs', min: 1, max: 2 },
  { label: '3-4 figs', min: 3, max: 4 },
  { label: '5-6 figs', min: 5, max: 6 },
  { label: '7-8 figs', min: 7, max: 8 },
  { label: '9+ figs', min: 9, max: Infinity },
];

/** [p.13] Close action casualty chart: rows D6 1..7 (index 0 = 1), cells per column. */
export const CASUALTY_CHART: readonly (readonly number[])[] = [
  [0, 0, 0, 0, 2],
  [0, 0, 0, 2, 2],
  [0, 0, 2, 2, 4],
  [0, 2, 2, 4, 4],
  [2, 2, 4, 4, 4],
  [2, 4, 4, 6, 6],
  [2, 4, 6, 6, 6],
];

/** [p.13] step 7 modifiers. */
export const CASUALTY_ROLL_MODIFIERS = {
  winner: 1, // +1 for the winning side
  cavalryVsCavalry: 1, // +1 for cavalry versus cavalry engagements
  chargerOnFlank: 1, // +1 for charging unit if attacking the flank
} as const;

/**
 * [p.13] casualties inflicted on the opponent: the modified D6 is read on rows 1..7 (above 7 reads 7: the chart's
 * last row; the roll cannot go below 1) and `figuresInContact` picks the column (0 reads the 1-2 column).
 */
export function closeActionCasualties(modifiedRoll: number, figuresInContact: number): number {
  assertInteger(modifiedRoll, 'modified casualty roll');
  const row = Math.min(7, Math.max(1, modifiedRoll));
  const col = Math.max(0, bandIndex(CASUALTY_CHART_COLUMNS, Math.max(1, figuresInContact)));
  return CASUALTY_CHART[row - 1]![col]!;
}

/** The exact distribution of one D6 + `mod` on the casualty chart. */
export function closeActionCasualtiesDist(figuresInContact: number, mod: number): Dist<number>[] {
  return modifiedRoll(6, mod, (t) => closeActionCasualties(t, figuresInContact)).sort((a, b) => a.value - b.value);
}

export type TroopClass = 'militia' | 'regulars' | 'grenadiers' | 'guards';

/** [p.13] Melee Values: "standards for basic values" ([min, max]). */
export const MELEE_VALUE_GUIDE = {
  militia: [30, 35], // militia/landwher
  regulars: [40, 45], // regulars/line
  grenadiers: [50, 55], // grenadiers/vets
  guards: [60, 65],
  lightCavalry: [30, 35],
  mediumCavalry: [40, 45],
  heavyCavalry: [50, 55],
  guardCavalry: [60, 65],
  footArtillery: [20, 30],
  horseArtillery: [20, 30],
} as const;

export type MeleeModifierId =
  | 'squareVsInfantry'
  | 'higherGround'
  | 'behindHedge'
  | 'echelonVsCavalry'
  | 'lightOrMediumVsHeavy'
  | 'partialContact'
  | 'disordered'
  | 'behindWall'
  | 'roadColumn'
  | 'retreatStatus'
  | 'fatigued'
  | 'tired'
  | 'exhausted'
  | 'enfilade'
  | 'flankSide'
  | 'flankRear'
  | 'leader';

/** [p.13] "Modifiers to melee value;" in book order, then [p.16] the attached leader's +5. */
export const MELEE_MODIFIERS: readonly {
  readonly id: MeleeModifierId;
  readonly value: number;
  readonly printed: string;
}[] = [
  { id: 'squareVsInfantry', value: -5, printed: '-5 if in square vs. infantry not in square' },
  { id: 'higherGround', value: -5, printed: '-5 if charging a unit on higher ground' },
  { id: 'behindHedge', value: -5, printed: '-5 if charging a unit behind hedge, prepared defenses' },
  { id: 'echelonVsCavalry', value: -5, printed: '-5 cavalry in echelon vs. cavalry not in echelon' },
  { id: 'lightOrMediumVsHeavy', value: -5, printed: '-5 if light or medium cavalry against heavy cavalry' },
  { id: 'partialContact', value: -10, printed: '-10 for partial contact (see page 14)' },
  { id: 'disordered', value: -10, printed: '-10 if unit disordered' },
  { id: 'behindWall', value: -10, printed: '-10 if charging a unit behind wall, redoubts' },
  { id: 'roadColumn', value: -15, printed: '-15 if in road column' },
  { id: 'retreatStatus', value: -20, printed: '-20 if in retreat status (includes disordered penalty)' },
  { id: 'fatigued', value: -5, printed: '-5 if fatigued' },
  { id: 'tired', value: -10, printed: '-10  if tired' },
  { id: 'exhausted', value: -15, printed: '-15 if exhausted' },
  { id: 'enfilade', value: 5, printed: '+5 for enfilade. (the unit with 2X or more enfilade)' },
  { id: 'flankSide', value: 10, printed: '+10 if charging the enemy’s flank side' },
  { id: 'flankRear', value: 15, printed: '+15 if charging the enemy’s flank rear' },
  // [p.16] "a bonus of +5 to their melee value" (+10 for a leader who can lead a charge, +0 for a timid one)
  { id: 'leader', value: 5, printed: 'a bonus of +5 to their melee value' },
];

/** A-62: the lowest modified melee value. */
export const MELEE_VALUE_FLOOR = 5;

export interface MeleeInput {
  readonly base: number;
  readonly squareVsInfantry: boolean;
  readonly higherGround: boolean;
  readonly behind: 'none' | 'hedge' | 'wall'; // the defender's obstacle (charger only)
  readonly echelonVsCavalry: boolean;
  readonly lightOrMediumVsHeavy: boolean;
  readonly partialContact: boolean; // charger only
  readonly disordered: boolean;
  readonly roadColumn: boolean;
  readonly retreatStatus: boolean; // includes the disordered penalty
  readonly fatigue: FatigueLevel;
  readonly enfilade: boolean;
  readonly arc: 'front' | 'flankSide' | 'flankRear'; // charger only
  readonly leaderBonus: number; // 0, or the attached leader's melee bonus (5 default)
}

const meleeValueOf = (id: MeleeModifierId) => MELEE_MODIFIERS.find((r) => r.id === id)!.value;

/** [p.13] the modified melee value (A-62: floored at 5). Retreat status replaces the disordered −10. */
export function meleeValue(i: MeleeInput): number {
  let v = i.base;
  if (i.squareVsInfantry) v += meleeValueOf('squareVsInfantry');
  if (i.higherGround) v += meleeValueOf('higherGround');
  if (i.behind === 'hedge') v += meleeValueOf('behindHedge');
  if (i.behind === 'wall') v += meleeValueOf('behindWall');
  if (i.echelonVsCavalry) v += meleeValueOf('echelonVsCavalry');
  if (i.lightOrMediumVsHeavy) v += meleeValueOf('lightOrMediumVsHeavy');
  if (i.partialContact) v += meleeValueOf('partialContact');
  if (i.retreatStatus) v += meleeValueOf('retreatStatus');
  else if (i.disordered) v += meleeValueOf('disordered');
  if (i.roadColumn) v += meleeValueOf('roadColumn');
  v += FATIGUE_PENALTY.melee[i.fatigue];
  if (i.enfilade) v += meleeValueOf('enfilade');
  if (i.arc !== 'front') v += meleeValueOf(i.arc);
  v += i.leaderBonus;
  return Math.max(MELEE_VALUE_FLOOR, v);
}

export type EnfiladeKind = 'twoRankInfantry' | 'threeRankInfantry' | 'artillery' | 'cavalry';

/** [p.14] Enfilade values: per front-rank figure (artillery: per actual gun). */
export const ENFILADE_FACTOR: Readonly<Record<EnfiladeKind, number>> = {
  twoRankInfantry: 3,
  threeRankInfantry: 2,
  artillery: 2,
  cavalry: 1,
};
/** [p.14] "+5 melee value bonus to the unit with 2x the enfilade value." */
export const ENFILADE_RATIO = 2;

export function enfiladeValue(kind: EnfiladeKind, frontRankFiguresOrGuns: number): number {
  return ENFILADE_FACTOR[kind] * frontRankFiguresOrGuns;
}

/** [p.14] does a side with enfilade value `own` get the +5 against `opponent` (2x or more)? */
export function hasEnfiladeBonus(own: number, opponent: number): boolean {
  return own > 0 && own >= ENFILADE_RATIO * opponent;
}

/** [p.14] partial contact, cavalry against infantry and artillery. */
export const CHARGE = {
  fullContactFraction: 1 / 2, // at least 1/2 or more of its own frontage … or … of the defender
  rideDownFrontageRatio: 1.5, // 1.5 infantry to 1 cavalry or greater
  rideDownCasualtyPerCavalryFigures: 2, // one figure casualty for every two cavalry figures
  rideDownCavalryLossIfDefenderFigures: 6, // one figure casualty if the defending unit had 6 or more figures
  reactionNoChangeMax: 10, // charged within 10” or less: 2 and 3 cannot be performed
  reactionBonusMin: 16, // charged from 16” or more: +2
  reactionBonus: 2,
  changedBeforeChargeAdds: 10, // add 10” to the total move distance when determining reaction rolls
  infantryChargerBothActionsBonus: 2, // [p.13] add 2 (+2) if the charging unit used both actions before contact
  chargerFailedStop: 2, // [p.13] stop 2” from target
  frontArcDeg: 45, // [p.15] the 45º front arc
  chargeAngleDeg: 10, // [p.6] straight ahead within a 10° angle
  obliqueMoveDeg: 22.5, // [p.6] move oblique up to 22.5° or less
  counterChargeAngleDeg: 10, // [p.15] moves/charges to its frontage within 10 degrees
} as const;

/** [p.14] step 4 against cavalry: what a defence facing or formation change may do at this reaction distance. */
export function cavalryReaction(
  chargeDistance: number,
  changedFacingOrFormationFirst: boolean,
): { readonly distance: number; readonly changesAllowed: boolean; readonly bonus: number } {
  const distance = chargeDistance + (changedFacingOrFormationFirst ? CHARGE.changedBeforeChargeAdds : 0);
  if (distance <= CHARGE.reactionNoChangeMax) return { distance, changesAllowed: false, bonus: 0 };
  return { distance, changesAllowed: true, bonus: distance >= CHARGE.reactionBonusMin ? CHARGE.reactionBonus : 0 };
}

/** [p.14] A-32: an infantry line charged from the front is not ridden down with ≥ 1.5 figures per cavalry figure. */
export function lineHoldsAgainstCavalry(infantryFigures: number, cavalryFigures: number): boolean {
  return infantryFigures >= CHARGE.rideDownFrontageRatio * cavalryFigures;
}

/** [p.14] ride-down casualties: inflicted by the cavalry, and suffered by it. */
export function rideDownCasualties(
  cavalryFigures: number,
  defenderFigures: number,
): { readonly inflicted: number; readonly suffered: number } {
  return {
    inflicted: Math.floor(cavalryFigures / CHARGE.rideDownCasualtyPerCavalryFigures),
    suffered: defenderFigures >= CHARGE.rideDownCavalryLossIfDefenderFigures ? 1 : 0,
  };
}

export type OutOfControlId =
  | 'guard'
  | 'leaderAttached'
  | 'cossacks'
  | 'byOutOfControl'
  | 'british'
  | 'riddenDown'
  | 'destroyed';

/** [p.15] Out-of-Control Cavalry (optional): D20, "On a 20" after these modifiers. */
export const OUT_OF_CONTROL_MODIFIERS: readonly { readonly id: OutOfControlId; readonly values: readonly number[] }[] =
  [
    { id: 'guard', values: [-1] }, // -1 if guard cavalry
    { id: 'leaderAttached', values: [-1, 1] }, // -/+1 if leader is attached to unit (controllers choice)
    { id: 'cossacks', values: [1] }, // +1 if Cossacks
    { id: 'byOutOfControl', values: [1] }, // +1 if the charge was made by out-of-control cavalry
    { id: 'british', values: [1] }, // +1 if British cavalry
    { id: 'riddenDown', values: [1] }, // +1 if the enemy unit was ridden down
    { id: 'destroyed', values: [1] }, // +1 if the defending unit was completely destroyed
  ];
export const OUT_OF_CONTROL_ON = 20;
/** [p.15] "an additional +3 morale bonus to close into close action" */
export const OUT_OF_CONTROL_MORALE_BONUS = 3;

/** [p.15] is the cavalry out of control after a D20 of `roll` with total modifier `mod` (BOOK vs DIGEST 3)? */
export function outOfControl(roll: number, mod: number): boolean {
  return roll + mod >= OUT_OF_CONTROL_ON;
}

// ---------------------------------------------------------------------------------------------------------------------
// Morale [p.11-12]
// ---------------------------------------------------------------------------------------------------------------------

/** [p.12] Basic morale ratings ([min, max]). */
export const BASIC_MORALE: Readonly<Record<TroopClass, readonly [number, number]>> = {
  militia: [10, 15], // Militia/Landwher
  regulars: [15, 18], // Regulars/Line
  grenadiers: [18, 21], // Grenadiers/Vets
  guards: [22, 23],
};

export type MoraleModifierId =
  | 'supported'
  | 'chargingFlank'
  | 'behindCover'
  | 'artilleryFiredOnByArtillery'
  | 'squareVsCavalry'
  | 'perTwoFiguresLost'
  | 'disordered'
  | 'riddenDown'
  | 'squareVsInfantry'
  | 'chargedByHeavyCavalry'
  | 'twelvePounders'
  | 'firedOnFlank'
  | 'flankCharged'
  | 'lineOrColumnChargedByCavalry'
  | 'chargingArtilleryHit'
  | 'retreatStatus'
  | 'fatigued'
  | 'tired'
  | 'exhausted'
  | 'overHalfCasualties'
  | 'outnumbered2'
  | 'outnumbered3';

/** [p.12] "Morale Modifiers:" in book order (added to the morale rating; a D20 ≤ the total passes). */
export const MORALE_MODIFIERS: readonly {
  readonly id: MoraleModifierId;
  readonly value: number;
  readonly printed: string;
}[] = [
  { id: 'supported', value: 1, printed: '+1 if being supported by one or more units within 4”' },
  { id: 'chargingFlank', value: 1, printed: '+1 if charging the flank of an enemy unit.' },
  { id: 'behindCover', value: 2, printed: '+2 if behind cover (woods, hedge, redoubts, etc.)' },
  { id: 'artilleryFiredOnByArtillery', value: 2, printed: '+2 if artillery being fired upon by other artillery' },
  { id: 'squareVsCavalry', value: 3, printed: '+3 infantry in square vs. cavalry' },
  { id: 'perTwoFiguresLost', value: -1, printed: '-1 for every two figures below original strength' },
  { id: 'disordered', value: -1, printed: '-1 if unit disordered' },
  { id: 'riddenDown', value: -1, printed: '-1 if the unit was ridden down by cavalry' },
  { id: 'squareVsInfantry', value: -1, printed: '-1 infantry in square vs. infantry not in square' },
  { id: 'chargedByHeavyCavalry', value: -1, printed: '-1 infantry or lt/med cavalry being charged by hvy cavalry' },
  { id: 'twelvePounders', value: -1, printed: '-1 inf/cav fired upon by 12lb guns at a range of 10” or less' },
  { id: 'firedOnFlank', value: -2, printed: '-2 if enemy fired on flank (side or rear)' },
  { id: 'flankCharged', value: -4, printed: '-4 if flank being charged (side or rear)' },
  { id: 'lineOrColumnChargedByCavalry', value: -3, printed: '-3 infantry in line/column being charged by cavalry' },
  {
    id: 'chargingArtilleryHit',
    value: -3,
    printed: '-3 if charging artillery front and took hits from defensive fire',
  },
  { id: 'retreatStatus', value: -5, printed: '-5 if in retreat status (includes disordered penalty)' },
  { id: 'fatigued', value: -1, printed: '-1 if fatigued' },
  { id: 'tired', value: -2, printed: '-2 if tired' },
  { id: 'exhausted', value: -3, printed: '-3 if exhausted' },
  { id: 'overHalfCasualties', value: -3, printed: '-3 if the unit has taken more than 50% casualties' },
  { id: 'outnumbered2', value: -2, printed: '-2 if out numbered by 2X in figures (close action only)' },
  { id: 'outnumbered3', value: -3, printed: '-3 if out numbered by 3X or more (close action only)' },
];

const moraleValue = (id: MoraleModifierId) => MORALE_MODIFIERS.find((r) => r.id === id)!.value;

/** Morale bonuses given elsewhere in the book. */
export const MORALE_BONUSES = {
  defenceChangeChargerUsedBothActions: CHARGE.infantryChargerBothActionsBonus, // [p.13] step 4 (A-66: favourable)
  defenceChangeReaction16: CHARGE.reactionBonus, // [p.14] step 4 vs cavalry from ≥16"
  loserWasCharger: 2, // [p.13] step 8: Add +2 … if the losing unit was the charging unit (A-66)
  outOfControlClosing: OUT_OF_CONTROL_MORALE_BONUS, // [p.15]
  thresholdFailed: -4, // [p.11] −4 to their morale checks for that game turn
} as const;

/** [p.12] −1 per two figures below original strength, and −3 more above 50% casualties (artillery: hits, A-50). */
export function casualtyMoraleModifier(originalFigures: number, currentFigures: number): number {
  const lost = Math.max(0, originalFigures - currentFigures);
  const perTwo = Math.floor(lost / 2) * moraleValue('perTwoFiguresLost');
  return perTwo + (lost * 2 > originalFigures ? moraleValue('overHalfCasualties') : 0);
}

/** [p.12] close-action outnumbering in figures (A-66: own against all enemy figures in the close action). */
export function outnumberedModifier(ownFigures: number, enemyFigures: number): number {
  if (enemyFigures >= 3 * ownFigures) return moraleValue('outnumbered3');
  if (enemyFigures >= 2 * ownFigures) return moraleValue('outnumbered2');
  return 0;
}

/** [p.11-12] a D20 of the modified morale number or lower passes. */
export function moralePasses(d20: number, modifiedMorale: number): boolean {
  return d20 <= modifiedMorale;
}

/** The exact chance of passing at `modifiedMorale` (D20 ≤ it). */
export function moraleCheckDist(modifiedMorale: number): Dist<'pass' | 'fail'>[] {
  return classify(sumDist(1, 20), (f): 'pass' | 'fail' => (moralePasses(f, modifiedMorale) ? 'pass' : 'fail'));
}

/** [p.12] reform roll: one D6 → actions. The digest's unnumbered ADAPTATION (6.7.5): a modified 0 or less reads 1-2. */
export const REFORM_TABLE: readonly (Band & { readonly actions: number })[] = [
  { label: '1-2', min: -Infinity, max: 2, actions: 1 },
  { label: '3-4', min: 3, max: 4, actions: 2 },
  { label: '5-6', min: 5, max: 6, actions: 3 },
  { label: '7+', min: 7, max: Infinity, actions: 4 },
];

/** [p.12] reform roll modifiers. */
export const REFORM_MODIFIERS = {
  originalMorale20: -1, // -1 if the unit’s original morale was 20 or greater
  cavalry: 1, // +1 to the die roll for cavalry units
  riddenDown: 1, // +1 to the die roll if the unit was ridden down by cavalry
  green: 1, // +1 for untrained, green, landwehr, or militia type of units
} as const;
export const REFORM_ORIGINAL_MORALE_MIN = 20;

/** [p.12] reform actions of a modified reform roll. */
export function reformActions(modifiedRoll: number): number {
  assertInteger(modifiedRoll, 'modified reform roll');
  return REFORM_TABLE[bandIndex(REFORM_TABLE, modifiedRoll)]!.actions;
}

/** [p.12] retreat actions: one per 10" (infantry, foot artillery) or 12" (cavalry, horse artillery), rounded up. */
export function retreatActions(distance: number, fast: boolean): number {
  return Math.ceil(
    distance /
      (fast ? RETREAT_INCHES_PER_ACTION.cavalryOrHorseArtillery : RETREAT_INCHES_PER_ACTION.infantryOrFootArtillery),
  );
}

/** [p.12] distances of the morale rules. */
export const MORALE_DISTANCES = {
  support: 4, // supported by one or more units within 4”
  routProximity: 4, // within 4” of a friendly unit that was routed
  gap: 3, // requires a 3” gap to retreat through
  surroundThreat: 12, // an enemy unit is within 12 inches
} as const;

/** [p.11] Threshold checks. */
export const THRESHOLD = {
  fraction: 0.5, // 50% or more
  fractionOptions: [0.4, 0.6], // 40% or even 60% instead of the default 50%
  passMax: 8, // passes on a roll of 1 to 8
  die: 20,
  failMorale: -4, // -4 to their morale checks for that game turn
  leaderInfluenceMax: 6, // may add up to a +6 modifier
  leaderRiskDie: 10, // Roll a D10 … equal to or less than the commander’s influence
} as const;

export type ThresholdModifierId =
  | 'leaderInfluence'
  | 'napoleon'
  | 'elite'
  | 'frenchGuard'
  | 'oldMiddleGuard'
  | 'militia'
  | 'spanish'
  | 'outOfCommand'
  | 'leaderLost';

/** [p.11] Threshold modifiers (the leader influence is the owner's 0..6). */
export const THRESHOLD_MODIFIERS: readonly { readonly id: ThresholdModifierId; readonly value: number }[] = [
  { id: 'leaderInfluence', value: 6 }, // +? for leader influence (note 1: up to +6)
  { id: 'napoleon', value: 1 }, // +1 for French if Napoleon is present on the battlefield
  { id: 'elite', value: 1 }, // +1 if the division is mostly elite or seasoned units
  { id: 'frenchGuard', value: 2 }, // +2 if the division is French Gd
  { id: 'oldMiddleGuard', value: 5 }, // (+5 for Old/Middle Gd) instead
  { id: 'militia', value: -1 }, // -1 if the division is mostly militia or green units
  { id: 'spanish', value: -1 }, // -1 if the army/division is mostly Spanish
  { id: 'outOfCommand', value: -3 }, // -3 if the division is out of command-and-control or cut off
  { id: 'leaderLost', value: -3 }, // -3 if the original leader has been incapacitated
];

/** [p.11] is a threshold roll due: `lost` (routed, surrendered, eliminated, retreating) ≥ fraction of `total`? */
export function thresholdDue(lost: number, total: number, fraction: number = THRESHOLD.fraction): boolean {
  return total > 0 && lost >= fraction * total;
}

/** [p.11] A-70: the roll passes on D20 ≤ 8 + modifiers. */
export function thresholdPasses(d20: number, mod: number): boolean {
  return d20 <= THRESHOLD.passMax + mod;
}

/** [p.11] note 1: the leader becomes a casualty on a D10 ≤ his influence. */
export function influenceCostsLeader(d10: number, influence: number): boolean {
  return influence > 0 && d10 <= influence;
}

// ---------------------------------------------------------------------------------------------------------------------
// Leaders [p.16-18]
// ---------------------------------------------------------------------------------------------------------------------

export type LeaderRank = 'army' | 'corps' | 'division';

/** [p.16] Leader Bonus (defaults; historical leaders may differ). */
export const LEADER_BONUS = {
  morale: { division: 1, corps: 2, army: 3 }, // +1 … (corps leaders give +2, and army leaders +3)
  melee: 5, // a bonus of +5 to their melee value
  meleeChargeLeader: 10, // A +10 melee value instead of +5 for leaders that can lead a charge
  meleeTimid: 0, // maybe a +0 for the more timid leaders
} as const;

/** [p.16] Command and Control Option #1: command distances, inches ([min, max]). */
export const COMMAND_RADIUS: Readonly<Record<LeaderRank, readonly [number, number]>> = {
  army: [35, 45],
  corps: [15, 30],
  division: [10, 20],
};

/** [p.17] Leader Initiative Numbers (optional): basic values, rolled on a D20 or less. */
export const INITIATIVE = { corps: 8, division: 5 } as const;

/** [p.16] talking: one action for every 10” between the leaders. */
export const MESSAGE_INCHES_PER_ACTION = 10;

/**
 * [p.16] Leader Losses: "1 or 2 figure casualties = 1; 3 or 4 … = 1 or 2; 5 or 6 figures = 1, 2, or 3… etc.": the
 * highest D10 that incapacitates an attached leader (0: no roll).
 */
export function leaderLossMaxRoll(casualties: number): number {
  return Math.min(10, Math.ceil(Math.max(0, casualties) / 2));
}

export function leaderLost(d10: number, casualties: number): boolean {
  return d10 <= leaderLossMaxRoll(casualties);
}

export type OrderChangeId =
  | 'cavalryDivision'
  | 'french'
  | 'frenchWithNapoleon'
  | 'attackToPursuit'
  | 'leadersTouching'
  | 'onReserve'
  | 'spanishOrPre1806Prussian'
  | 'austrianRussianOrPost1806Prussian'
  | 'per12Inches'
  | 'enemyWithin12OrCommitted'
  | 'leaderLost'
  | 'badWeather';

/** [p.17] Changing Orders: 1D6 + these = periods until the new order takes effect (≤1: next period). */
export const ORDER_CHANGE_MODIFIERS: readonly { readonly id: OrderChangeId; readonly value: number }[] = [
  { id: 'cavalryDivision', value: -1 }, // -1 for cavalry divisions
  { id: 'french', value: -1 }, // -1 for French
  { id: 'frenchWithNapoleon', value: -2 }, // (-2 if Napoleon is Army commander)
  { id: 'attackToPursuit', value: -1 }, // -1 if the division is to change from attack to pursuit orders
  { id: 'leadersTouching', value: -2 }, // -2 if leaders are within 2” or touching bases
  { id: 'onReserve', value: -3 }, // -3 if the division is on a reserve order
  { id: 'spanishOrPre1806Prussian', value: 2 }, // +2 for Spanish or pre-1806 Prussians
  { id: 'austrianRussianOrPost1806Prussian', value: 1 }, // +1 for Austrians, Russians or post-1806 Prussians
  { id: 'per12Inches', value: 1 }, // +1 for every 12” distance between leaders
  { id: 'enemyWithin12OrCommitted', value: 1 }, // +1 if any enemy unit is within 12” … or … committed
  { id: 'leaderLost', value: 2 }, // +2 if original leader has been incapacitated
  { id: 'badWeather', value: 2 }, // +2 if bad weather (fog, snow, rain)
];
/** [p.17] the distances of the order-change modifiers. */
export const ORDER_CHANGE_DISTANCES = { leadersTouching: 2, perInches: 12, enemyNear: 12 } as const;

/** [p.17] the periods until a changed order takes effect: "A total result of one or less equals the next period". */
export function orderDelay(d6: number, mod: number): number {
  return Math.max(1, d6 + mod);
}

/** [p.17] the orders' distances. */
export const ORDER_DISTANCES = {
  attackSpeedFraction: 3 / 4, // 3/4 to full move distance
  committedFraction: 1 / 2, // At least 1/2 or more of the division
  committedRange: 12, // within 12” of the enemy
  manoeuvreStandOff: 20, // closer then 20” of any enemy units
  reserveTrigger: 24, // within 24” of any unit in the division
  misreadManoeuvreMin: 10, // [p.18] the objective must be least 10” or more away
} as const;

export type Order = 'Attack' | 'Defend' | 'Withdraw' | 'Pursuit' | 'Maneuver' | 'Reserve';
export type MisreadOrder = 'A' | 'D' | 'W' | 'M';

/** [p.18] Misinterpreting of Orders: the new order by original order and D6 (1..6). */
export const MISREAD_TABLE: Readonly<Record<Order, readonly MisreadOrder[]>> = {
  Attack: ['W', 'M', 'D', 'D', 'D', 'D'],
  Defend: ['W', 'M', 'A', 'A', 'A', 'A'],
  Withdraw: ['D', 'D', 'D', 'M', 'A', 'A'],
  Pursuit: ['M', 'M', 'D', 'D', 'D', 'A'],
  Maneuver: ['W', 'D', 'D', 'D', 'A', 'A'],
  Reserve: ['W', 'W', 'M', 'M', 'A', 'A'],
};
/** [p.18] "On a die roll of 19 or 20, the orders were misread" (+1 poor officers, +2 exceptionally bad ones). */
export const MISREAD = { min: 19, poorOfficer: 1, veryBadOfficer: 2 } as const;

export function misreadOrder(order: Order, d6: number): MisreadOrder {
  assertInteger(d6, 'D6');
  if (d6 < 1 || d6 > 6) throw new RangeError(`D6 must be 1..6, got ${d6}`);
  return MISREAD_TABLE[order][d6 - 1]!;
}

// ---------------------------------------------------------------------------------------------------------------------
// Skirmishers [p.18-19]
// ---------------------------------------------------------------------------------------------------------------------

/** [p.18-19] skirmish screens. */
export const SKIRMISH = {
  frontagePerFigure: 2, // a frontage of 2” per figure … 12 figures … no less than 24”
  move: OTHER_MOVES.skirmishScreen, // up to 8” per action forward or backwards
  standOff: 1, // must stop one inch from formed enemy units and other enemy skirmishers
  pushBack: [1, 2], // pushed back … keeping a one to two inch distance (A-36: 1")
  formActions: FORMATION_CHANGE.formSkirmish,
  reformActions: FORMATION_CHANGE.reformFromSkirmish,
  fireModifier: fireValue('firerIsSkirmishScreen'), // −1
  targetModifier: fireValue('skirmishers'), // −3
  canisterTargetModifier: fireValue('skirmishersCanister'), // −4
  solidShotDamage: SOLID_SHOT_DAMAGE.skirmishers, // −8
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// Buildings and fires [p.19-20]
// ---------------------------------------------------------------------------------------------------------------------

/** [p.19-20] building blocks. */
export const BUILDINGS = {
  blockSize: 4, // 4” gray or brown squares
  maxFigures: 12, // a maximum of twelve figures per block
  idealFigures: 8, // (eight being ideal for flexibility)
  enterActions: 1, // one action to enter a block and one action to travel to an adjacent block
  maxAttackersPerSide: 6, // no more then six figures total may attack one side of a building block
  naturalSixKills: 2, // a 6 (unmodified) … the opposing player looses two figures
  fireOutMinFigures: 8, // eight or more figures … may fire out
  fireOutRange: 6, // The target must be within 6”
  fireOutNeeds: 6, // a roll of six on one D6
  fireOutCasualties: 2, // to inflict two figure casualties
  fireInModifier: fireValue('buildings'), // [p.20] a -5 modifier is applied to the die roll
  leaveReformActions: 1, // disordered and require one action to reform into a column
} as const;

export type BuildingFightId =
  | 'defenderInBuilding'
  | 'wallSide'
  | 'twoToOne'
  | 'threeToOne'
  | 'fourToOne'
  | 'lightInfantry'
  | 'guardsOrGrenadiers'
  | 'militia';

/** [p.19] Close Actions in Buildings: each side's D6 modifiers. */
export const BUILDING_FIGHT_MODIFIERS: readonly { readonly id: BuildingFightId; readonly value: number }[] = [
  { id: 'defenderInBuilding', value: 1 }, // +1 if defender in building and attacker is not
  { id: 'wallSide', value: 1 }, // +1 if defending a wall or prepared defense side of a block
  { id: 'twoToOne', value: 1 }, // +1 for 2 to 1
  { id: 'threeToOne', value: 2 }, // +2 for 3 to 1
  { id: 'fourToOne', value: 3 }, // +3 for 4 to 1 or greater
  { id: 'lightInfantry', value: 1 }, // +1 if most are light infantry
  { id: 'guardsOrGrenadiers', value: 1 }, // +1 if most are guards or grenadiers
  { id: 'militia', value: -1 }, // -1 if most are militia/landwehr or green
];

/** [p.19] the numerical superiority modifier of the larger side (0 for the smaller). */
export function buildingSuperiority(own: number, enemy: number): number {
  if (enemy <= 0) return own > 0 ? 3 : 0;
  const r = own / enemy;
  return r >= 4 ? 3 : r >= 3 ? 2 : r >= 2 ? 1 : 0;
}

export type FireSource = 'shell' | 'incendiary' | 'rockets' | 'sappers' | 'soldiers';

/** [p.20] Starting Fires in Buildings (optional): the D20 rolls that start a fire. */
export const FIRE_START: Readonly<Record<FireSource, Band>> = {
  shell: { label: '17-20', min: 17, max: 20 },
  incendiary: { label: '7-20', min: 7, max: 20 }, // only howitzers can fire incendiary shells
  rockets: { label: '4-20', min: 4, max: 20 },
  sappers: { label: '11-20', min: 11, max: 20 },
  soldiers: { label: '20', min: 20, max: 20 },
};

/** [p.20] fires in a block. */
export const FIRES = {
  brickOrStone: -1, // -1 to the die roll if most of the buildings in the block are made of brick or stone
  maxPerBlock: 4, // The maximum number of fires that can exist in a block is four
  noEntryAt: 3, // when three fires are present in a block, no troops can enter
  figuresPerStartRoll: 2, // one roll … for every two figures in a block
  figuresPerExtinguishRoll: 4, // one D20 for every four figures
  extinguish: {
    sappers: { label: '16-20', min: 16, max: 20 },
    others: { label: '20', min: 20, max: 20 },
  },
  accumulate: { label: '14-18', min: 14, max: 18 },
  accumulateAndSpread: { label: '19-20', min: 19, max: 20 },
} as const;

/** [p.20] does a D20 start a fire (brick or stone −1)? */
export function fireStarts(source: FireSource, d20: number, brickOrStone: boolean): boolean {
  const t = d20 + (brickOrStone ? FIRES.brickOrStone : 0);
  return t >= FIRE_START[source].min && t <= FIRE_START[source].max;
}

/** [p.20] the end-of-period roll for a burning block. */
export function fireGrowth(d20: number): 'none' | 'accumulate' | 'accumulateAndSpread' {
  if (d20 >= FIRES.accumulateAndSpread.min) return 'accumulateAndSpread';
  return d20 >= FIRES.accumulate.min ? 'accumulate' : 'none';
}

// ---------------------------------------------------------------------------------------------------------------------
// Weather, visibility, smoke [p.20]
// ---------------------------------------------------------------------------------------------------------------------

export type Weather = 'lightRain' | 'heavyRain' | 'lightSnow' | 'heavySnow' | 'hot';

/** [p.20] Weather Effects (optional): the musket modifier, and whether rapid fire is allowed. */
export const WEATHER: Readonly<Record<Weather, { readonly musket: number; readonly rapidFire: boolean }>> = {
  lightRain: { musket: fireValue('lightRain'), rapidFire: true },
  heavyRain: { musket: fireValue('heavyRain'), rapidFire: false }, // no rapid fire allowed
  lightSnow: { musket: fireValue('lightSnow'), rapidFire: true },
  heavySnow: { musket: fireValue('heavySnow'), rapidFire: true },
  hot: { musket: 0, rapidFire: true },
};

/** [p.20] mud follows 9 periods of heavy rain or 18 of light rain; movement ½ (TERRAIN_MOVE.mud). */
export const MUD_AFTER_PERIODS = { heavyRain: 9, lightRain: 18 } as const;

/** [p.20] Visibility (optional): what can be observed, and how far, inches. */
export const VISIBILITY = {
  largeMasses: 260, // Large masses of troops can be seen at 260”
  formations: 64, // Troop formations (columns/lines) can be seen at 64”
  infantryFromCavalry: 48, // Infantry can be distinguished from cavalry at 48”
  unitTypes: 26, // Types of units can be distinguished at 26”
  fullIdentity: 12, // Full identity of a unit can be observed at 12”
  spyglass: 20, // may add 20” to the above distance
} as const;

/** [p.20] visibility multipliers ([least, most]; fog "¼ or less", haze/mist "½ to ¾"). */
export const VISIBILITY_MULTIPLIER = {
  lightRainOrSnow: [1 / 2, 1 / 2],
  heavyRainOrSnow: [1 / 4, 1 / 4],
  fog: [0, 1 / 4],
  hazeOrMist: [1 / 2, 3 / 4],
  lightHaze: [3 / 4, 3 / 4],
} as const;

/** [p.20] Smoke (optional). */
export const SMOKE = {
  smallArmsAndCanister: fireValue('smoke'), // -2 … with muskets/rifles and artillery using cannister
  solidShotHitDie: -1, // solid shot (ball) receives a -1 to their hit die roll
  consecutiveFireActions: 2, // if that unit fires for two consecutive actions
  periods: 1, // present for the next period
  depth: 2, // A-78: a 2"-deep rectangle
} as const;
