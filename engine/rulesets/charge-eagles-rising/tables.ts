/**
 * Charge! Eagles Rising: every table of the quick-reference sheets, as typed data and pure lookups.
 *
 * Source: `shared/seeds/charge-eagles-rising-qrs.txt` (four sheets: turn sequence, orders, off-board arrival, skirmish
 * combat; movement, terrain, morale; skill tests, ranged fire, square; close assault, leader casualties). The sheets
 * are the book and win; the implementation digest `shared/rules/charge-eagles-rising.md` fills their gaps with
 * ADAPTATIONs C1–C14. The table lines are kept verbatim in `test/data/charge-eagles-rising-tables.txt`. Citations name
 * the sheet table in brackets (`// [Skirmish Combat]`, `// [Skill Tests: Modifiers]`, `// [CAC: Cavalry defeat]` …)
 * and the C-number where a gap is filled (`// C9`).
 *
 * No I/O, no clock, no randomness: rolls come in as numbers; the `…Dist` helpers give exact distributions built on
 * engine/core/dice.ts. The string values (classes 'regular' … 'oldGuard', ratings 'poor' … 'superior', inspirations,
 * leader levels, orders, formations, gun types, terrain kinds) are spelled as in this ruleset's types.ts and shape.ts,
 * but this module imports nothing of the ruleset, so it stands alone; `terrainExtraCost` has shape.ts's `ExtraCost`
 * signature. C4's size classes live in shape.ts.
 *
 * BOOK vs DIGEST (the book wins where it is clear; where it is not, the reading used is stated)
 * 1. [Terrain] Steep rise: the sheet prints "-2" per contour" in the Infantry column only; the Cavalry and Artillery
 *    cells are empty. The digest (§3.4) prints −2" per contour for all three arms. Empty cells elsewhere in the sheet
 *    mean "not given", not "free", and the digest's value is the only one offered, so cavalry and artillery pay −2"
 *    per contour, marked `filled: ['cavalry', 'artillery']` (C6).
 * 2. [Movement] Double quick, tactical: the sheet prints "5"/8"" (no plus sign; the strategic cell is "+12"/+20"");
 *    the digest prints "+5" / +8"". A flat 5"/8" would be slower than a column's 8" move, so it is a bonus added to the
 *    move or charge (C6), as the digest says.
 * 3. [Morale] % lost rows: the sheet prints "0-33%", "33-50%", "50+%" (the boundaries belong to two rows); the digest
 *    reads 0 to under ⅓, ⅓ to under ½, ½ or more. 33% is read as one third (the same as the C11 Worn threshold); the
 *    readings differ only for a loss between 33% and 33⅓%, which is Fresh here.
 * 4. [Square] the skill-modifier rows print the cavalry's distance as "0-2"", "2-5"", "5-12"", "12+"" (boundaries in
 *    two rows); the square table prints "<2"", "<5"", "<12"", "≥ 12"". The square table decides: [0,2), [2,5), [5,12),
 *    [12,∞), as in the digest.
 * 5. [Square] "Cavalry began <5" away: Pass = Infantry form": the form is not named; the digest (C8) reads a hasty
 *    square, with the footnote's failure rule (marked * only on the <12" and ≥12" rows) applied to it too.
 * 6. [Off Board Force Arrival] "Delayed*": the footnote is missing. C12: roll again at the next S2. The quality lists
 *    omit Landwehr, Grenadier, Old Guard (ME) and Superior (leader): C12 reads them as Conscript, Elite, Guard, +3.
 * 7. [Artillery Fire] dice for 9 guns: the sheet gives 1-5, 6-8 and 10+ guns; C3 reads 9 guns as 2d10.
 * 8. [Issuing Orders] "CC attached: +2" sits in a column of modifiers to the rating number, where + makes acceptance
 *    harder; C2 applies it to the roll (+2 to 2D6), so that each modifier helps as its name implies.
 * 9. [CAC Modifiers] "Charging cavalry each grade heavier (light/medium/heavy/armored) 0/+1/+2/+3": "each grade
 *    heavier" could be relative to the opponent; the values are printed per grade, and C13 reads them as absolute.
 * 10. [CAC Modifiers] "Cavalry or infantry in line vs line/column wider (1.5x or 2x wider)": read (digest) as the
 *    unit in line being at least 1.5× / 2× as wide as its opponent.
 * 11. [Skirmish Combat] "Deployed artillery (suppressed/KIA) 1 / 2": 1 hit suppresses, 2 hits are 1 KIA; beyond the
 *    sheet, each further pair of hits is another KIA (`skirmishEffect`).
 * 12. [Morale] Old Guard is missing from the unit modifiers: C12 reads it as Guard (+3).
 * No cell of a table the digest reprints differs from the sheet (skirmish, morale, movement, terrain, skill, ranges,
 * modifiers, CAC values and both CAC results tables were compared cell by cell); the items above are gaps and readings.
 *
 * MINUS SIGNS (decided from each table's logic)
 * 1. [Artillery Fire] "Heavy guns at close/effective/long ranges 2/0/+1", "Medium … 1/0/+1", "Light … 1/0/+2": the
 *    close-range values lost their minus signs. Close range must help (to-hit is "base 8 … modifiers change the to-hit
 *    number", lower is easier; long range is +1/+2, canister range is the guns' best), so they are −2 / −1 / −1 (the
 *    digest's TEXT ISSUE and C3 agree).
 * 2. [Issuing Orders] "Consecutive order attempts - 1/hour": the "-" stands apart from the 1; read as the minus of
 *    "−1 per hour" (a modifier to the rating number, like "-2" on the next line), not as a dash before "1 per hour"
 *    (a limit of one attempt an hour). C1: per 4 consecutive turns, −floor((attempts − 1) / 4).
 * 3. [Skirmish Combat] the "-" cells are "no hit" (0), not lost numbers: every row rises left to right.
 * 4. [Morale] "0" in the Fresh Broken column is a value (a modified roll of 0 or less), not a lost "-": the rows'
 *    Broken cells are 0 / 3 / 5 and each next column starts one above.
 * Every other signed value on the sheets prints its sign (checked by the tests: a printed value without a sign is
 * either 0, one of the above, or not a modifier).
 *
 * OTHER READINGS
 * - Spent replaces Worn wherever both have modifiers (skill +3, fire +2, CAC −3), as the digest's §6.14 says.
 * - "Units is disordered or Cavalry receiving charge at the halt -2" is one row: −2 once if either applies.
 * - "Normal leader attached &/or light cover -1" is one row: −1 once for a Normal leader, light cover or both; the
 *   other leader rows add to it (light cover counts only for tests caused by fire, C11).
 * - "Target is in light cover and/or long range +1" is one row: +1 once; medium/heavy cover at long range is +1 +2 (C3).
 * - "Target is limbered artillery or fire through skirmish line +1" is one row: +1 once.
 * - Artillery fire "If base to hit > 10, must roll natural 10 and 1d10 > 6 for 11, > 8 for 12, >10 for 13": a natural
 *   10 and then a second d10 above 6 / 8 / 10 (13 and above cannot hit); to-hit never below 2 (C11). C3: the same for
 *   small arms.
 */

import { type Dist, classify, opposed, pool, sumCountsK, sumDist } from '../../core/dice.ts';

// ---------------------------------------------------------------------------------------------------------------------
// Shared: classes, leaders, bands, 2D6
// ---------------------------------------------------------------------------------------------------------------------

/** The class ladder the sheets use (digest §2.2), worst to best. */
export const UNIT_CLASSES = [
  'untrained',
  'militia',
  'landwehr',
  'conscript',
  'regular',
  'veteran',
  'elite',
  'grenadier',
  'guard',
  'oldGuard',
] as const;
export type UnitClass = (typeof UNIT_CLASSES)[number];

/** A leader's command rating (orders, ranges, arrival) [Issuing Orders]. */
export const COMMAND_RATINGS = ['poor', 'average', 'good', 'excellent', 'superior'] as const;
export type CommandRating = (typeof COMMAND_RATINGS)[number];

/** A leader's inspiration (morale, skill, CAC) [Morale: Leaders]. */
export const INSPIRATIONS = ['uninspiring', 'normal', 'inspirational', 'charismatic'] as const;
export type Inspiration = (typeof INSPIRATIONS)[number];

/** A row of a sheet table printed for one or more classes: `label` as printed. */
export interface ClassRow {
  readonly label: string;
  readonly classes: readonly UnitClass[];
  readonly value: number;
}

/** Per-class values from printed rows plus the C12 fills; every class exactly once. */
function byClass(rows: readonly ClassRow[], fills: Partial<Record<UnitClass, number>> = {}): Record<UnitClass, number> {
  const out: Partial<Record<UnitClass, number>> = {};
  for (const r of rows)
    for (const c of r.classes) {
      if (c in out) throw new Error(`class ${c} printed twice`);
      out[c] = r.value;
    }
  for (const [c, v] of Object.entries(fills) as [UnitClass, number][]) {
    if (c in out) throw new Error(`class ${c} is printed: no fill`);
    out[c] = v;
  }
  for (const c of UNIT_CLASSES) if (!(c in out)) throw new Error(`class ${c} has no value`);
  return out as Record<UnitClass, number>;
}

function assertInteger(n: number, what: string): void {
  if (!Number.isInteger(n)) throw new RangeError(`${what} must be an integer, got ${n}`);
}
function assertRoll(n: number, min: number, max: number, what: string): void {
  assertInteger(n, what);
  if (n < min || n > max) throw new RangeError(`${what} must be ${min}–${max}, got ${n}`);
}
function assertOneOf<T extends string>(v: T, all: readonly T[], what: string): void {
  if (!all.includes(v)) throw new RangeError(`${what} must be one of ${all.join(', ')}, got ${String(v)}`);
}

/** A band of a table read by a number, `min`..`max` inclusive (±Infinity at open ends), `label` as printed. */
export interface Band {
  readonly label: string;
  readonly min: number;
  readonly max: number;
}

/** dice.ts `classify`, for classes that may also be booleans (it groups by value identity; its bound is type-level). */
function group<T, C extends string | number | boolean>(d: readonly Dist<T>[], classOf: (v: T) => C): Dist<C>[] {
  return classify(d, (v) => classOf(v) as unknown as string) as unknown as Dist<C>[];
}

/**
 * 2D6 + `mod` read through `row`: every class with its exact probability, in order of first appearance. The classes
 * are grouped on dice.ts's integer counts of each sum and divided once, so a certain class has p exactly 1.
 */
export function roll2D6On<C extends string | number | boolean>(mod: number, row: (total: number) => C): Dist<C>[] {
  const counts = sumCountsK(2, 6);
  const bySum: Dist<number>[] = [];
  for (let s = 2; s <= 12; s++) bySum.push({ value: s, p: counts[s]! });
  return group(bySum, (s) => row(s + mod)).map((d) => ({ value: d.value, p: d.p / 36 }));
}

/** P(2D6 ≥ n), exact (n ≤ 2 is 1, n > 12 is 0). */
export function twoD6AtLeast(n: number): number {
  return roll2D6On(0, (s) => s >= n).find((d) => d.value === true)?.p ?? 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// Turn sequence [Turn Sequence]
// ---------------------------------------------------------------------------------------------------------------------

/** [Turn Sequence] the steps as printed (the bullet under T2e is kept with T2e). */
export const TURN_SEQUENCE = [
  { phase: 'Strategic', step: 'S1', text: 'Both sides issue or change orders. Leader casualties check.' },
  {
    phase: 'Strategic',
    step: 'S2',
    text: 'Both sides accept orders, reveal accepted orders & check for off-board arrivals.',
  },
  { phase: 'Strategic', step: 'S3', text: 'Conduct morale tests & make compulsory moves.' },
  {
    phase: 'Strategic',
    step: 'S4',
    text: 'Both sides conduct strategic moves; stay 10" from opponents unless on attack orders.',
  },
  {
    phase: 'Strategic',
    step: 'S5',
    text: 'ME\'s within 10" & > 3" conduct skirmish combat by brigade or division.',
  },
  { phase: 'Strategic', step: 'S6', text: 'Tactical initiative determination; high roll decides to go 1st or 2nd.' },
  { phase: 'Tactical', step: 'T1', text: 'Both sides attach/detach leaders.' },
  { phase: 'Tactical', step: 'T2a', text: 'ACTIVE SIDE A: Player chooses a tactical element' },
  { phase: 'Tactical', step: 'T2b', text: 'Declare all charging units at a target at the same time.' },
  { phase: 'Tactical', step: 'T2c', text: 'All fire is simultaneous (& sequential).' },
  { phase: 'Tactical', step: 'T2d', text: 'A unit may attempt to recover from disorder if not charging' },
  { phase: 'Tactical', step: 'T2e', text: 'Conduct all defensive fire, skill tests' },
  { phase: 'Tactical', step: 'T3', text: 'Repeat steps T2a-T2e for side B (formerly the non-phasing player).' },
] as const;

/** [Turn Sequence] distances in the steps. */
export const SEQUENCE_DISTANCES = {
  strategicStandOff: 10, // S4: stay 10" from opponents unless on attack orders
  skirmishMax: 10, // S5: within 10"
  skirmishMinExclusive: 3, // S5: & > 3"
  failedChargeStopsAt: 1, // T2e: charging units which fail to close stops at 1"
} as const;

/** [Markers] the sheets' marker set. */
export const MARKERS = ['DISORDER', 'WORN', 'SPENT', 'BLOWN', 'SUPPRESSED'] as const;

// ---------------------------------------------------------------------------------------------------------------------
// Issuing orders [Issuing Orders], C1, C2
// ---------------------------------------------------------------------------------------------------------------------

export type LeaderLevel = 'armyWing' | 'corps' | 'division' | 'cavBrigade';

/** [Issuing Orders: Command Ranges] inches, by the leader's level. */
export const COMMAND_RANGE = [
  { label: 'Army/Wing CO', levels: ['armyWing'], inches: 36 },
  { label: 'Corps CO', levels: ['corps'], inches: 30 },
  { label: 'Division or Cav Brigade', levels: ['division', 'cavBrigade'], inches: 12 },
] as const satisfies readonly { label: string; levels: readonly LeaderLevel[]; inches: number }[];

/** [Issuing Orders: Ratings Bonus] inches added to the command range, by command rating. */
export const RANGE_BONUS: Readonly<Record<CommandRating, number>> = {
  superior: 9, // +9"
  excellent: 6, // +6"
  good: 3, // +3"
  average: 0, // 0
  poor: -3, // -3"
};

/** [Issuing Orders] a leader's command range in inches (digest §10.6: Army CO Good = 39", Division Poor = 9"). */
export function commandRange(level: LeaderLevel, rating: CommandRating): number {
  assertOneOf(rating, COMMAND_RATINGS, 'command rating');
  const row = COMMAND_RANGE.find((r) => (r.levels as readonly LeaderLevel[]).includes(level));
  if (!row) throw new RangeError(`leader level must be ArmyWing, Corps, Division or CavBrigade, got ${String(level)}`);
  return row.inches + RANGE_BONUS[rating];
}

/**
 * [Issuing Orders: Leader / Rating / Army/Wing/Corps] the recipient MF/ME leader's rating number (the 2D6 must reach
 * it), and the issuing Army/Wing/Corps CC's modifier to that number.
 */
export const ORDER_RATING: Readonly<Record<CommandRating, { readonly number: number; readonly ccModifier: number }>> = {
  poor: { number: 8, ccModifier: 1 },
  average: { number: 7, ccModifier: 0 },
  good: { number: 6, ccModifier: -1 },
  excellent: { number: 5, ccModifier: -2 },
  superior: { number: 4, ccModifier: -3 },
};

/** [Issuing Orders] the other acceptance modifiers (C2 places each on the number or the roll). */
export const ORDER_MODIFIERS = {
  consecutiveAttemptsPerHour: -1, // Consecutive order attempts - 1/hour (to the number; MINUS SIGNS 2)
  turnsPerHour: 4, // C1: 1 turn = 15 minutes
  notCommitted: -2, // Formation has not been committed -2 (to the number)
  ccAttached: 2, // CC attached: +2 (C2: to the roll)
  superiorCcInContact: 'auto pass', // Superior CC* in contact w/ MF or ME: auto pass (*Superior Wing/Army Commander)
  outsideCommandRange: 'delay', // one or more turn delay (Mark with messenger/ADC); C2: arrives next S1
} as const;

export interface AcceptanceInput {
  readonly recipient: CommandRating; // the MF's or ME's leader
  readonly issuer: CommandRating; // the Army/Wing/Corps CC
  readonly attempt: number; // 1 for the first consecutive attempt at this order, 2 for the next, …
  readonly uncommitted: boolean;
}

/** [Issuing Orders] C2: the number 2D6 (+2 if the CC is attached) must reach for a new order to be accepted. */
export function acceptanceNumber(i: AcceptanceInput): number {
  assertOneOf(i.recipient, COMMAND_RATINGS, 'recipient rating');
  assertOneOf(i.issuer, COMMAND_RATINGS, 'issuer rating');
  assertInteger(i.attempt, 'attempt');
  if (i.attempt < 1) throw new RangeError(`attempt counts from 1, got ${i.attempt}`);
  const hours = Math.floor((i.attempt - 1) / ORDER_MODIFIERS.turnsPerHour);
  return (
    ORDER_RATING[i.recipient].number +
    ORDER_RATING[i.issuer].ccModifier +
    hours * ORDER_MODIFIERS.consecutiveAttemptsPerHour +
    (i.uncommitted ? ORDER_MODIFIERS.notCommitted : 0)
  );
}

/** [Issuing Orders] "New orders are accepted if the roll is => MF's or ME's Rating on 2d6" (C2: CC attached +2). */
export function orderAccepted(roll: number, number: number, ccAttached: boolean, superiorCcInContact = false): boolean {
  assertRoll(roll, 2, 12, '2D6');
  if (superiorCcInContact) return true;
  return roll + (ccAttached ? ORDER_MODIFIERS.ccAttached : 0) >= number;
}

/** The chance a new order is accepted. */
export function orderAcceptedDist(number: number, ccAttached: boolean, superiorCcInContact = false): Dist<boolean>[] {
  if (superiorCcInContact) return [{ value: true, p: 1 }];
  return roll2D6On(ccAttached ? ORDER_MODIFIERS.ccAttached : 0, (t) => t >= number);
}

export type OrderType = 'attack' | 'hold' | 'advance' | 'reserve' | 'withdraw';

export interface OrderTypeRow {
  readonly order: OrderType;
  readonly point: 'objective' | 'anchor' | 'destination';
  readonly strategicMove: string;
  /** S4 (C7): how close to the enemy its units may end a strategic move, inches. */
  readonly strategicMinToEnemy: number;
  readonly tactical: string;
  readonly charge: boolean; // may declare charges in T2b
  readonly cavalryCounterCharge: boolean;
  readonly opCharge: boolean; // C8: op-charges need Attack, Hold or Advance
  readonly committed: boolean; // accepting it commits the ME
}

/** C2 (digest §6.1): the five order types the sheets refer to but never list. */
export const ORDER_TYPES: readonly OrderTypeRow[] = [
  {
    order: 'attack',
    point: 'objective',
    strategicMove: 'toward the objective; may end within 10" of the enemy (but not within 3")',
    strategicMinToEnemy: 3,
    tactical: 'Move, Fire, Move & Fire, Charge',
    charge: true,
    cavalryCounterCharge: true,
    opCharge: true,
    committed: true,
  },
  {
    order: 'hold',
    point: 'anchor',
    strategicMove: 'only back toward the anchor',
    strategicMinToEnemy: 10,
    tactical: 'Move/Fire/Move & Fire; units must end within 6" of the anchor; cavalry may counter-charge and op-charge',
    charge: false,
    cavalryCounterCharge: true,
    opCharge: true,
    committed: true,
  },
  {
    order: 'advance',
    point: 'objective',
    strategicMove: 'toward the objective; must end ≥ 10" from all enemy units',
    strategicMinToEnemy: 10,
    tactical: 'Move, Fire, Move & Fire; no charges except cavalry counter-charges and op-charges',
    charge: false,
    cavalryCounterCharge: true,
    opCharge: true,
    committed: false,
  },
  {
    order: 'reserve',
    point: 'anchor',
    strategicMove: 'anywhere, ending ≥ 10" from the enemy',
    strategicMinToEnemy: 10,
    tactical: 'Move (ending ≥ 10" from the enemy, or not closer); return fire and closing fire only',
    charge: false,
    cavalryCounterCharge: true,
    opCharge: false,
    committed: false,
  },
  {
    order: 'withdraw',
    point: 'destination',
    strategicMove: 'toward the destination; each unit must end farther from the nearest enemy',
    strategicMinToEnemy: 10,
    tactical: 'Move (ending farther from the nearest enemy), Fire, Move & Fire; no charges',
    charge: false,
    cavalryCounterCharge: false,
    opCharge: false,
    committed: false,
  },
];

/** C2: a Hold order's units must end within 6" of the anchor (brigade integrity, 6", is the option `brigadeIntegrity`). */
export const HOLD_ANCHOR_RADIUS = 6;

/** C2: the row of an order type. */
export function orderType(order: OrderType): OrderTypeRow {
  const r = ORDER_TYPES.find((o) => o.order === order);
  if (!r) throw new RangeError(`order must be one of ${ORDER_TYPES.map((o) => o.order).join(', ')}, got ${order}`);
  return r;
}

// ---------------------------------------------------------------------------------------------------------------------
// Initiative [Issuing Orders: Initiative], C7
// ---------------------------------------------------------------------------------------------------------------------

/** [Initiative] modifiers to a side's 2D6 (C7: each side rolls 2D6, ties re-rolled). */
export const INITIATIVE_MODIFIERS = {
  ccAbilityGreater: 1, // CC ability > opponent +1
  moreMesOnAttack: 1, // > # of ME's on attack +1
  moreMesShakenOrDemoralized: -1, // > # of ME's Shaken or Demoralized -1
} as const;

export interface InitiativeInput {
  readonly ccAbilityGreater: boolean;
  readonly moreMesOnAttack: boolean;
  readonly moreMesShakenOrDemoralized: boolean;
}

/** [Initiative] a side's modifier. */
export function initiativeModifier(i: InitiativeInput): number {
  return (
    (i.ccAbilityGreater ? INITIATIVE_MODIFIERS.ccAbilityGreater : 0) +
    (i.moreMesOnAttack ? INITIATIVE_MODIFIERS.moreMesOnAttack : 0) +
    (i.moreMesShakenOrDemoralized ? INITIATIVE_MODIFIERS.moreMesShakenOrDemoralized : 0)
  );
}

/** C7: who wins the initiative (the high roll chooses to go 1st or 2nd): 2D6 + modA vs 2D6 + modB, ties re-rolled. */
export function initiativeDist(modA: number, modB: number): Dist<'A' | 'B'>[] {
  const d = opposed(6, modA, modB, 2, 2);
  const a = d.filter((x) => x.value > 0).reduce((s, x) => s + x.p, 0);
  const b = d.filter((x) => x.value < 0).reduce((s, x) => s + x.p, 0);
  const out: Dist<'A' | 'B'>[] = [];
  if (a > 0) out.push({ value: 'A', p: a / (a + b) });
  if (b > 0) out.push({ value: 'B', p: b / (a + b) });
  return out;
}

/** C7: the winner of one initiative roll-off, or null on a tie (roll again). */
export function initiativeWinner(rollA: number, modA: number, rollB: number, modB: number): 'A' | 'B' | null {
  assertRoll(rollA, 2, 12, '2D6 of A');
  assertRoll(rollB, 2, 12, '2D6 of B');
  const d = rollA + modA - (rollB + modB);
  return d > 0 ? 'A' : d < 0 ? 'B' : null;
}

// ---------------------------------------------------------------------------------------------------------------------
// Off-board force arrival [Off Board Force Arrival (2D6)], C12
// ---------------------------------------------------------------------------------------------------------------------

/** [Off Board Force Arrival] the roll's rows (C12: "Delayed*" = roll again next S2). */
export const ARRIVAL_TABLE = [
  { label: '2-5', min: -Infinity, max: 5, arrives: false, printed: 'Delayed*' },
  { label: '6-12', min: 6, max: Infinity, arrives: true, printed: 'Arrives this turn' },
] as const;

/** [Off Board Force Arrival: ME Quality] as printed. */
export const ARRIVAL_ME_QUALITY_PRINTED: readonly ClassRow[] = [
  { label: 'Untrained/Militia', classes: ['untrained', 'militia'], value: -2 },
  { label: 'Conscript', classes: ['conscript'], value: -1 },
  { label: 'Regular', classes: ['regular'], value: 0 },
  { label: 'Veteran', classes: ['veteran'], value: 1 },
  { label: 'Elite', classes: ['elite'], value: 2 },
  { label: 'Guard', classes: ['guard'], value: 3 },
];
/** C12: Landwehr as Conscript, Grenadier as Elite, Old Guard as Guard. */
export const ARRIVAL_ME_QUALITY: Readonly<Record<UnitClass, number>> = byClass(ARRIVAL_ME_QUALITY_PRINTED, {
  landwehr: -1,
  grenadier: 2,
  oldGuard: 3,
});

/** [Off Board Force Arrival: CC/DC Quality] (C12: Superior, not printed, +3; the leader is the ME's own). */
export const ARRIVAL_LEADER_QUALITY: Readonly<Record<CommandRating, number>> = {
  excellent: 2,
  good: 1,
  average: 0,
  poor: -1,
  superior: 3, // C12
};
export const ARRIVAL_LEADER_FILLED: readonly CommandRating[] = ['superior'];

/** [Off Board Force Arrival] the modifier for an ME of class `cls` led by a `leader`-rated commander. */
export function arrivalModifier(cls: UnitClass, leader: CommandRating): number {
  assertOneOf(cls, UNIT_CLASSES, 'ME class');
  assertOneOf(leader, COMMAND_RATINGS, 'leader rating');
  return ARRIVAL_ME_QUALITY[cls] + ARRIVAL_LEADER_QUALITY[leader];
}

/** [Off Board Force Arrival] does a modified roll arrive this turn (2-5 delayed, 6-12 arrives; beyond read as ends). */
export function arrives(modifiedRoll: number): boolean {
  assertInteger(modifiedRoll, 'modified roll');
  return ARRIVAL_TABLE.find((r) => modifiedRoll >= r.min && modifiedRoll <= r.max)!.arrives;
}

export function arrivalDist(mod: number): Dist<boolean>[] {
  return roll2D6On(mod, arrives);
}

// ---------------------------------------------------------------------------------------------------------------------
// Skirmish combat [Skirmish Combat], C9
// ---------------------------------------------------------------------------------------------------------------------

/** [Skirmish Combat] the point-total columns (C9: totals over 22 use the 21-22 column). */
export const SKIRMISH_COLUMNS: readonly Band[] = [
  { label: '1-2', min: 1, max: 2 },
  { label: '3-4', min: 3, max: 4 },
  { label: '5-6', min: 5, max: 6 },
  { label: '7-8', min: 7, max: 8 },
  { label: '9-10', min: 9, max: 10 },
  { label: '11-12', min: 11, max: 12 },
  { label: '13-14', min: 13, max: 14 },
  { label: '15-16', min: 15, max: 16 },
  { label: '17-18', min: 17, max: 18 },
  { label: '19-20', min: 19, max: 20 },
  { label: '21-22', min: 21, max: Infinity },
];

/** [Skirmish Combat] hits by D10 (row 1..10) and point column; "-" = 0 (MINUS SIGNS 3). */
export const SKIRMISH_TABLE: readonly (readonly number[])[] = [
  [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1], // 1
  [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2], // 2
  [0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2], // 3
  [0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2], // 4
  [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3], // 5
  [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3], // 6
  [0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3], // 7
  [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4], // 8
  [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4], // 9
  [1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4], // 10
];

/** [Skirmish Combat] hits scored by an ME with `points` skirmish points rolling `d10` (0 points: no fire, 0 hits). */
export function skirmishHits(d10: number, points: number): number {
  assertRoll(d10, 1, 10, 'skirmish D10');
  assertInteger(points, 'skirmish points');
  if (points < 0) throw new RangeError(`skirmish points must be ≥ 0, got ${points}`);
  if (points === 0) return 0;
  const col = SKIRMISH_COLUMNS.findIndex((c) => points >= c.min && points <= c.max);
  return SKIRMISH_TABLE[d10 - 1]![col]!;
}

/** [Skirmish Combat] the hits of one D10 roll at `points`, exactly. */
export function skirmishHitsDist(points: number): Dist<number>[] {
  skirmishHits(1, points); // validates
  return classify(sumDist(1, 10), (f) => skirmishHits(f, points)).sort((a, b) => a.value - b.value);
}

/** [Skirmish Combat] "Number of skirmish hits to effect target" (reading 11 for deployed artillery beyond 2 hits). */
export const SKIRMISH_HITS_TO_EFFECT = {
  formedInfantryOrLimberedArtillery: { kia: 1 }, // Formed infantry and limbered artillery 1
  deployedArtillery: { suppressed: 1, kia: 2 }, // Deployed artillery (suppressed/KIA) 1 / 2
} as const;

/** [Skirmish Combat] the effect of `hits` skirmish hits on one target (C9: cavalry cannot be targets). */
export function skirmishEffect(
  target: 'formedInfantry' | 'limberedArtillery' | 'deployedArtillery' | 'cavalry',
  hits: number,
): { readonly kia: number; readonly suppressed: boolean } {
  assertInteger(hits, 'hits');
  if (hits < 0) throw new RangeError(`hits must be ≥ 0, got ${hits}`);
  if (target === 'cavalry') throw new RangeError('C9: cavalry cannot be targets of skirmish fire');
  if (target === 'deployedArtillery') {
    const d = SKIRMISH_HITS_TO_EFFECT.deployedArtillery;
    return { kia: Math.floor(hits / d.kia), suppressed: hits >= d.suppressed };
  }
  if (target !== 'formedInfantry' && target !== 'limberedArtillery')
    throw new RangeError(`skirmish target must be formedInfantry, limberedArtillery or deployedArtillery: ${target}`);
  return { kia: hits * SKIRMISH_HITS_TO_EFFECT.formedInfantryOrLimberedArtillery.kia, suppressed: false };
}

/** [Skirmish Combat] the notes under the table. */
export const SKIRMISH_RULES = {
  bandMax: 10, // within 10"
  bandMinExclusive: 3, // and >3" of an opponent
  cavalryZoc: { wide: 3, long: 10 }, // zone of control of 3" wide X 10" long & negate all skirmish combat
  damagedArtilleryWithdraw: 6, // must pass a skill test or limber and withdraw 6"
  kiaForcesSkillTest: true, // Units which fail are disordered
} as const;

/**
 * C9 (Appendix B is missing): a battalion's skirmish combat value, by the digest. These are the defaults of the `scv`
 * rules option (options.ts), which a scenario may change.
 */
export const SKIRMISH_VALUES = {
  lineRegularOrBetter: 2,
  lineConscriptOrWorse: 1,
  light: 4,
  rifle: 5,
  /** Multiplier for a battalion in Skirmish formation. */
  skirmishFormation: 2,
} as const;

export type SkirmishValues = { readonly [K in keyof typeof SKIRMISH_VALUES]: number };

export type ScvFormation = 'line' | 'column' | 'marchColumn' | 'hastySquare' | 'solidSquare' | 'skirmish' | 'garrison';

export interface ScvInput {
  readonly arm: 'infantry' | 'cavalry' | 'artillery';
  readonly cls: UnitClass;
  readonly light: boolean;
  readonly weapon: 'musket' | 'rifle';
  readonly formation: ScvFormation;
}

/** C9: an infantry battalion's SCV, rifle before light before line (the scenario's value, before formation). */
export function skirmishBase(u: Omit<ScvInput, 'arm' | 'formation'>, v: SkirmishValues = SKIRMISH_VALUES): number {
  if (u.weapon === 'rifle') return v.rifle;
  if (u.light) return v.light;
  return UNIT_CLASSES.indexOf(u.cls) >= UNIT_CLASSES.indexOf('regular')
    ? v.lineRegularOrBetter
    : v.lineConscriptOrWorse;
}

/**
 * C9: the skirmish points a unit with SCV `scv` adds to its ME's: ×2 in Skirmish formation; 0 for cavalry,
 * artillery, squares and march columns.
 */
export function skirmishPoints(
  arm: ScvInput['arm'],
  formation: ScvFormation,
  scv: number,
  v: SkirmishValues = SKIRMISH_VALUES,
): number {
  if (arm !== 'infantry') return 0;
  if (formation === 'hastySquare' || formation === 'solidSquare' || formation === 'marchColumn') return 0;
  return formation === 'skirmish' ? scv * v.skirmishFormation : scv;
}

/** C9: the SCV a unit adds to its ME's skirmish points, with the digest's values (rifle before light before line). */
export function skirmishValue(u: ScvInput): number {
  return skirmishPoints(u.arm, u.formation, u.arm === 'infantry' ? skirmishBase(u) : 0);
}

// ---------------------------------------------------------------------------------------------------------------------
// Movement [Movement], C6
// ---------------------------------------------------------------------------------------------------------------------

type MoveRowKey =
  | 'infantry'
  | 'retiringInfantry'
  | 'lightCavalry'
  | 'cavalry'
  | 'retiringCavalry'
  | 'generals'
  | 'lightMediumFootArtillery'
  | 'heavyFootArtillery'
  | 'horseArtillery'
  | 'roadBonus'
  | 'doubleQuick';

export interface MoveRow {
  readonly key: MoveRowKey;
  readonly label: string; // the row label as printed
  readonly columns: readonly string[]; // what each value is, in the printed order
  readonly tactical: readonly (number | null)[]; // inches (<10"); null = "NA"
  readonly strategic: readonly (number | null)[]; // inches (>10")
  readonly bonus: boolean; // the values are added to a move (road, double quick: BOOK vs DIGEST 2)
}

/** [Movement] every row, values in the printed order. */
export const MOVEMENT: readonly MoveRow[] = [
  {
    key: 'infantry',
    label: 'Infantry in square/line/column/skirmish',
    columns: ['square', 'line', 'column', 'skirmish'],
    tactical: [4, 5, 8, 10],
    strategic: [18, 24, 36, 36],
    bonus: false,
  },
  {
    key: 'retiringInfantry',
    label: 'Retiring infantry in square/line/column/skirmish',
    columns: ['square', 'line', 'column', 'skirmish'],
    tactical: [4, 3, 6, 8],
    strategic: [15, 20, 33, 33],
    bonus: false,
  },
  {
    key: 'lightCavalry',
    label: 'Light cavalry in line/column & skirmish/blown',
    columns: ['line', 'column', 'blown'], // column & skirmish share a value
    tactical: [14, 16, 8],
    strategic: [36, 48, 26],
    bonus: false,
  },
  {
    key: 'cavalry',
    label: 'Medium or Heavy cavalry in line/column/blown',
    columns: ['line', 'column', 'blown'],
    tactical: [12, 14, 7],
    strategic: [36, 48, 24],
    bonus: false,
  },
  {
    key: 'retiringCavalry',
    label: 'Retiring cavalry in line/column (skill test in threat zone)',
    columns: ['any'],
    tactical: [6],
    strategic: [24],
    bonus: false,
  },
  { key: 'generals', label: "Generals & ADC's", columns: ['any'], tactical: [40], strategic: [80], bonus: false },
  {
    key: 'lightMediumFootArtillery',
    label: 'Light or medium foot artillery move/prolong',
    columns: ['move', 'prolong'],
    tactical: [8, 2],
    strategic: [36, 9],
    bonus: false,
  },
  {
    key: 'heavyFootArtillery',
    label: 'Heavy foot artillery move/prolong',
    columns: ['move', 'prolong'],
    tactical: [6, null],
    strategic: [36, 9],
    bonus: false,
  },
  {
    key: 'horseArtillery',
    label: 'Horse artillery move/prolong',
    columns: ['move', 'prolong'],
    tactical: [12, 2],
    strategic: [48, 9],
    bonus: false,
  },
  {
    key: 'roadBonus',
    label: 'Road bonus foot/mounted in march column or limbered Arty',
    columns: ['foot', 'mounted'],
    tactical: [null, null], // NA
    strategic: [12, 20],
    bonus: true,
  },
  {
    key: 'doubleQuick',
    label:
      "Double Quick foot/mounted (Auto disordered, strategic - must pass a skill test or 1 KIA for all Btn's/units)",
    columns: ['foot', 'mounted'],
    tactical: [5, 8], // printed "5"/8"" without "+": BOOK vs DIGEST 2
    strategic: [12, 20],
    bonus: true,
  },
];

export type Scale = 'tactical' | 'strategic';
type InfantryFormation = 'line' | 'column' | 'marchColumn' | 'hastySquare' | 'solidSquare' | 'skirmish' | 'garrison';
type CavalryWeight = 'light' | 'medium' | 'heavy' | 'armored';
export type GunType = 'light' | 'medium68' | 'medium9' | 'heavy';

export type Mover =
  | { readonly arm: 'infantry'; readonly formation: InfantryFormation; readonly retiring: boolean }
  | {
      readonly arm: 'cavalry';
      readonly weight: CavalryWeight;
      readonly formation: 'line' | 'column' | 'skirmish';
      readonly blown: boolean;
      readonly retiring: boolean;
    }
  | { readonly arm: 'artillery'; readonly gun: GunType; readonly horse: boolean; readonly prolong: boolean }
  | { readonly arm: 'general' };

/** C6: the movement column of each infantry formation (March Column at the column rate, squares at the square rate). */
const INFANTRY_MOVE_COLUMN: Readonly<Record<Exclude<InfantryFormation, 'garrison'>, string>> = {
  line: 'line',
  column: 'column',
  marchColumn: 'column',
  hastySquare: 'square',
  solidSquare: 'square',
  skirmish: 'skirmish',
};

function moveRow(key: MoveRowKey): MoveRow {
  return MOVEMENT.find((r) => r.key === key)!;
}
function moveCell(key: MoveRowKey, column: string, scale: Scale): number | null {
  const r = moveRow(key);
  const i = r.columns.indexOf(column);
  if (i < 0) throw new Error(`no column ${column} in ${key}`);
  return r[scale][i]!;
}

/**
 * [Movement] a unit's move in inches, or null where the sheet prints NA (heavy foot artillery cannot prolong
 * tactically). C6: Armored cavalry moves as heavy, March Column at the column rate, squares (hasty or solid) at the
 * square rate; retiring cavalry uses its one rate whatever its formation; blown cavalry its blown rate.
 */
export function moveRate(m: Mover, scale: Scale): number | null {
  if (scale !== 'tactical' && scale !== 'strategic') throw new RangeError(`scale must be tactical or strategic`);
  switch (m.arm) {
    case 'infantry': {
      const col = (INFANTRY_MOVE_COLUMN as Readonly<Record<string, string | undefined>>)[m.formation]; // garrison: none
      if (!col)
        throw new RangeError(
          `infantry formation must be one of ${Object.keys(INFANTRY_MOVE_COLUMN).join(', ')}, got ${String(m.formation)}`,
        );
      return moveCell(m.retiring ? 'retiringInfantry' : 'infantry', col, scale);
    }
    case 'cavalry': {
      if (m.formation === 'skirmish' && m.weight !== 'light')
        throw new RangeError('C4: only light cavalry may use Skirmish formation');
      if (m.retiring) return moveCell('retiringCavalry', 'any', scale);
      const key = m.weight === 'light' ? 'lightCavalry' : 'cavalry';
      return moveCell(key, m.blown ? 'blown' : m.formation === 'line' ? 'line' : 'column', scale);
    }
    case 'artillery': {
      const key = m.horse ? 'horseArtillery' : m.gun === 'heavy' ? 'heavyFootArtillery' : 'lightMediumFootArtillery';
      return moveCell(key, m.prolong ? 'prolong' : 'move', scale);
    }
    case 'general':
      return moveCell('generals', 'any', scale);
  }
  throw new RangeError(`unknown mover ${JSON.stringify(m)}`);
}

/** [Movement] road bonus (strategic only; NA tactically) and double-quick bonus, inches, foot or mounted. */
export function moveBonus(kind: 'roadBonus' | 'doubleQuick', mounted: boolean, scale: Scale): number | null {
  return moveCell(kind, mounted ? 'mounted' : 'foot', scale);
}

/** [Movement Notes] the numbers of the notes. */
export const MOVEMENT_NOTES = {
  formationChangeCost: { infantry: 2, cavalry: 4, artillery: 2 }, // -2" (Infantry), -4" (Cavalry); C6: limber -2"
  passageOfLinesWithin: 2, // both start within 2" & line doesn't move (only 1 Btn.)
  infantryHaltsAt: 1, // If the cavalry closes, infantry will halt at 1"
  cavalryEvade: 10, // evade (back 10")
  pursueUpTo: 8, // May pursue up to 8" from defender's original position
  newTargetAngle: 22.5, // May contact another target within 22.5o angle
  doublingStands: 1, // Cavalry may double in/out 1 stand to both sides
  doublingPerInches: 5, // for every 5" moved or charged
  gunnerEvade: 4, // Gunners may abandon Arty & evade up to 4" to formed inf.
  abandonIfCavalryBeyond: 5, // if Cav began >5"
  abandonIfInfantryBeyond: 4, // Inf >4"
  fireAndEvadeSupportWithin: 1, // fire & evade if friendly Inf is w/in 1"
  fireAndEvadeIfCavalryBeyond: 3, // & fire if Cav began >3"
  fireAndEvadeIfInfantryBeyond: 2, // /Inf >2"
  horseArtilleryLimberIfCavalryBeyond: 10, // HA limber & move if Cav >10
  horseArtilleryLimberIfInfantryBeyond: 6, // / inf. >6"
} as const;

export type Terrain =
  | 'minorObstacle'
  | 'majorObstacle'
  | 'stream'
  | 'bridge'
  | 'rough'
  | 'mud'
  | 'lightWoods'
  | 'orchard'
  | 'denseWoods'
  | 'woodenBua'
  | 'stoneBua'
  | 'steepRise';
export type MoverArm = 'infantry' | 'cavalry' | 'artillery';
type Cover = 'none' | 'light' | 'lightOrMedium' | 'medium' | 'mediumOrHeavy';
/** How a terrain disorders a mover: never, on a failed skill test, always, or while moving inside it. */
export type TerrainDisorder = 'none' | 'test' | 'auto' | 'whileMoving';

export interface TerrainRow {
  readonly terrain: Terrain;
  readonly label: string; // as printed
  /** Extra inches of allowance per 1" (per contour for a steep rise) (C6); null = "NA" (impassable). */
  readonly cost: Readonly<Record<MoverArm, number | null>>;
  readonly per: 'inch' | 'contour';
  readonly filled: readonly MoverArm[]; // cells the sheet leaves empty, filled from the digest (BOOK vs DIGEST 1)
  readonly notes: string; // as printed
  readonly cover: Cover;
  readonly disorder: Readonly<{
    cavalry: TerrainDisorder;
    formedInfantry: TerrainDisorder;
    skirmishers: TerrainDisorder;
    artillery: TerrainDisorder;
  }>;
}

const allTest = { cavalry: 'test', formedInfantry: 'test', skirmishers: 'test', artillery: 'test' } as const;
const noDisorder = { cavalry: 'none', formedInfantry: 'none', skirmishers: 'none', artillery: 'none' } as const;
const buaDisorder = { cavalry: 'auto', formedInfantry: 'auto', skirmishers: 'whileMoving', artillery: 'none' } as const;

/** [Terrain] every row: the cost per arm as printed (sign dropped: a deduction from the move), notes, cover. */
export const TERRAIN: readonly TerrainRow[] = [
  {
    terrain: 'minorObstacle',
    label: 'Minor linear obstacle',
    cost: { infantry: 1.5, cavalry: 2, artillery: 2 },
    per: 'inch',
    filled: [],
    notes: 'Crossing; pass skill test for not Disordered (D).',
    cover: 'none',
    disorder: allTest,
  },
  {
    terrain: 'majorObstacle',
    label: 'Major linear obstacle',
    cost: { infantry: 1.5, cavalry: 2, artillery: null },
    per: 'inch',
    filled: [],
    notes: 'Auto disorder if charged across, otherwise, pass skill test for not Disordered.',
    cover: 'none',
    disorder: allTest, // auto when charged across: TERRAIN_CHARGE_AUTO_DISORDER
  },
  {
    terrain: 'stream',
    label: 'Fordable river/stream',
    cost: { infantry: 1.5, cavalry: 3, artillery: 3 },
    per: 'inch',
    filled: [],
    notes: 'Column = full speed at ford. pass skill test for not Disordered.',
    cover: 'none',
    disorder: allTest,
  },
  {
    terrain: 'bridge',
    label: 'Bridge',
    cost: { infantry: 1.25, cavalry: 2, artillery: 2 },
    per: 'inch',
    filled: [],
    notes: 'Col/Limb only. Defend as linear obs.',
    cover: 'none',
    disorder: noDisorder,
  },
  {
    terrain: 'rough',
    label: 'Rough ground',
    cost: { infantry: 1.5, cavalry: 2, artillery: 2 },
    per: 'inch',
    filled: [],
    notes: 'Pass skill test for not Disordered.',
    cover: 'none',
    disorder: allTest,
  },
  {
    terrain: 'mud',
    label: 'Muddy',
    cost: { infantry: 1.25, cavalry: 2, artillery: 2.5 },
    per: 'inch',
    filled: [],
    notes: 'In addition to other terrain penalties',
    cover: 'none',
    disorder: noDisorder,
  },
  {
    terrain: 'lightWoods',
    label: 'Light woods',
    cost: { infantry: 1.5, cavalry: 3, artillery: 3 },
    per: 'inch',
    filled: [],
    notes: 'Light cover. Cav Disordered. Formed Inf Disordered while moving. Skirmishers: pass skill test for not D.',
    cover: 'light',
    disorder: { cavalry: 'auto', formedInfantry: 'whileMoving', skirmishers: 'test', artillery: 'none' },
  },
  {
    terrain: 'orchard',
    label: 'Orchards',
    cost: { infantry: 1.25, cavalry: 2, artillery: 2 },
    per: 'inch',
    filled: [],
    notes: 'Light cover. Not Disordered.',
    cover: 'light',
    disorder: noDisorder,
  },
  {
    terrain: 'denseWoods',
    label: 'Dense woods',
    cost: { infantry: 2, cavalry: 4, artillery: 5 },
    per: 'inch',
    filled: [],
    notes: 'Medium cover. Cavalry & formed Infantry Disordered. Skirmish: Disordered while moving.',
    cover: 'medium',
    disorder: buaDisorder,
  },
  {
    terrain: 'woodenBua',
    label: 'Wooden BUA',
    cost: { infantry: 2, cavalry: 4, artillery: 4 },
    per: 'inch',
    filled: [],
    notes: 'Light or Med cover. Cavalry & formed Infantry Disordered. Skirmish: Disordered while moving.',
    cover: 'lightOrMedium',
    disorder: buaDisorder,
  },
  {
    terrain: 'stoneBua',
    label: 'Stone BUA',
    cost: { infantry: 2, cavalry: 4, artillery: 4 },
    per: 'inch',
    filled: [],
    notes: 'Med or Hvy cover. Cavalry & formed Infantry Disordered. Skirmish: Disordered while moving.',
    cover: 'mediumOrHeavy',
    disorder: buaDisorder,
  },
  {
    terrain: 'steepRise',
    label: 'Steep rise',
    cost: { infantry: 2, cavalry: 2, artillery: 2 },
    per: 'contour',
    filled: ['cavalry', 'artillery'], // BOOK vs DIGEST 1
    notes: 'Pass skill test for not Disordered',
    cover: 'none',
    disorder: allTest,
  },
];

/** [Terrain] Major linear obstacle: "Auto disorder if charged across". */
export const TERRAIN_CHARGE_AUTO_DISORDER: readonly Terrain[] = ['majorObstacle'];

/** [Terrain] the row of a terrain. */
export function terrainRow(t: Terrain): TerrainRow {
  const r = TERRAIN.find((x) => x.terrain === t);
  if (!r) throw new RangeError(`unknown terrain ${String(t)}`);
  return r;
}

/** C6 (digest §3.4): linear obstacles, streams (fords) and bridges charge their value once per crossing. */
export const CHARGED_PER_CROSSING: readonly Terrain[] = ['minorObstacle', 'majorObstacle', 'stream', 'bridge'];

/**
 * [Terrain] C6: the extra inches of allowance a terrain costs an arm: per inch moved inside an area, once per crossing
 * of a linear feature (`CHARGED_PER_CROSSING`), per contour climbed for a steep rise; `Infinity` where the sheet
 * prints NA. `ford` (a ford over a stream) costs what the stream costs (the caller applies "Column = full speed at
 * ford"); `road` costs nothing. The signature of shape.ts's `ExtraCost`.
 */
export function terrainExtraCost(kind: Terrain | 'ford' | 'road', arm: MoverArm): number {
  if (kind === 'road') return 0;
  const r = terrainRow(kind === 'ford' ? 'stream' : kind);
  const c = r.cost[arm];
  if (c === undefined) throw new RangeError(`arm must be infantry, cavalry or artillery, got ${String(arm)}`);
  return c === null ? Number.POSITIVE_INFINITY : c;
}

// ---------------------------------------------------------------------------------------------------------------------
// Morale [ME, MF, or Army Morale Table (2D6)], C10, C12
// ---------------------------------------------------------------------------------------------------------------------

export type MoraleState = 'fresh' | 'shaken' | 'demoralized';
export const MORALE_RESULTS = ['broken', 'retire1', 'retire0', 'disorder', 'carryOn'] as const;
export type MoraleResult = (typeof MORALE_RESULTS)[number];

export interface MoraleRow {
  readonly state: MoraleState;
  readonly label: string; // the % lost cell as printed
  readonly lostMin: number; // fraction lost, inclusive (BOOK vs DIGEST 3)
  readonly lostBelow: number; // fraction lost, exclusive
  /** The modified-roll bands of each result, in MORALE_RESULTS order, as printed. */
  readonly bands: readonly Band[];
}

/** [Morale Table] the three rows (Broken "0" / "3" / "5" = that or less; Carry On "n+" = that or more). */
export const MORALE_TABLE: readonly MoraleRow[] = [
  {
    state: 'fresh',
    label: '0-33% Fresh',
    lostMin: 0,
    lostBelow: 1 / 3,
    bands: [
      { label: '0', min: -Infinity, max: 0 },
      { label: '1', min: 1, max: 1 },
      { label: '2-3', min: 2, max: 3 },
      { label: '4-5', min: 4, max: 5 },
      { label: '6+', min: 6, max: Infinity },
    ],
  },
  {
    state: 'shaken',
    label: '33-50% Shaken',
    lostMin: 1 / 3,
    lostBelow: 1 / 2,
    bands: [
      { label: '3', min: -Infinity, max: 3 },
      { label: '4-5', min: 4, max: 5 },
      { label: '6-7', min: 6, max: 7 },
      { label: '8', min: 8, max: 8 },
      { label: '9+', min: 9, max: Infinity },
    ],
  },
  {
    state: 'demoralized',
    label: '50+% Demoralized',
    lostMin: 1 / 2,
    lostBelow: Infinity,
    bands: [
      { label: '5', min: -Infinity, max: 5 },
      { label: '6-7', min: 6, max: 7 },
      { label: '8-9', min: 8, max: 9 },
      { label: '10-11', min: 10, max: 11 },
      { label: '12+', min: 12, max: Infinity },
    ],
  },
];

/** [Morale Table: Leaders] DRM by the ME/MF leader's (or the CC's) inspiration; 0 if absent or knocked out. */
export const MORALE_LEADER_DRM: Readonly<Record<Inspiration, number>> = {
  charismatic: 3,
  inspirational: 2,
  normal: 1,
  uninspiring: 0,
};

/** [Morale Table: Units] as printed. */
export const MORALE_UNIT_DRM_PRINTED: readonly ClassRow[] = [
  { label: 'Untrained', classes: ['untrained'], value: -3 },
  { label: 'Militia', classes: ['militia'], value: -2 },
  { label: 'Landwehr / Conscript', classes: ['landwehr', 'conscript'], value: -1 },
  { label: 'Regular', classes: ['regular'], value: 0 },
  { label: 'Veteran', classes: ['veteran'], value: 1 },
  { label: 'Elite/Grenadier', classes: ['elite', 'grenadier'], value: 2 },
  { label: 'Guard', classes: ['guard'], value: 3 },
];
/** C12: Old Guard as Guard. */
export const MORALE_UNIT_DRM: Readonly<Record<UnitClass, number>> = byClass(MORALE_UNIT_DRM_PRINTED, { oldGuard: 3 });

/** [Morale Table] the results' effects. */
export const MORALE_EFFECTS = {
  retireInfantry: 8, // retreats 8" (Infantry)
  retireCavalry: 16, // or 16" (Cavalry)
  retire1Kia: 1, // Retire 1: all units take 1 KIA
  brokenCheckRadius: 18, // Friendly MF/ME army morale check if within 18"
  capSkillLevels: 2, // If > Skill 2 levels, Retire 0 max
  capSizeMultiple: 2, // If > size 2x, Retire 1 max
} as const;

/** [Morale Table] the state for a fraction lost (figures + guns × 3, C3), BOOK vs DIGEST 3. */
export function moraleState(lostFraction: number): MoraleState {
  if (!(lostFraction >= 0 && lostFraction <= 1)) throw new RangeError(`fraction lost must be 0–1, got ${lostFraction}`);
  return MORALE_TABLE.find((r) => lostFraction >= r.lostMin && lostFraction < r.lostBelow)!.state;
}

/** [Morale Table] the DRM: the leader's inspiration (null = none) plus the ME's class. */
export function moraleModifier(leader: Inspiration | null, cls: UnitClass): number {
  if (leader !== null) assertOneOf(leader, INSPIRATIONS, 'leader inspiration');
  assertOneOf(cls, UNIT_CLASSES, 'unit class');
  return (leader === null ? 0 : MORALE_LEADER_DRM[leader]) + MORALE_UNIT_DRM[cls];
}

/**
 * [Morale Table] "Broken: … If > Skill 2 levels, Retire 0 max. If > size 2x, Retire 1 max. If both, disordered."
 * `skillLevelsBetter` = the broken ME's skill number − the tester's (the ladder 10 … 4, digest §6.4: 3 or more is
 * "more than 2 levels"); `sizeMultiple` = the tester's strength / the broken ME's. The worst result allowed.
 */
export function moraleCap(skillLevelsBetter: number, sizeMultiple: number): MoraleResult {
  const skill = skillLevelsBetter > MORALE_EFFECTS.capSkillLevels;
  const size = sizeMultiple > MORALE_EFFECTS.capSizeMultiple;
  return skill && size ? 'disorder' : skill ? 'retire0' : size ? 'retire1' : 'broken';
}

/**
 * [Morale Table] the result of a modified 2D6 on a state's row, no worse than `worst` (a cap after a friendly
 * break, `moraleCap`).
 */
export function moraleResult(modifiedRoll: number, state: MoraleState, worst: MoraleResult = 'broken'): MoraleResult {
  assertInteger(modifiedRoll, 'modified morale roll');
  const row = MORALE_TABLE.find((r) => r.state === state);
  if (!row) throw new RangeError(`morale state must be Fresh, Shaken or Demoralized, got ${String(state)}`);
  assertOneOf(worst, MORALE_RESULTS, 'worst result');
  const i = row.bands.findIndex((b) => modifiedRoll >= b.min && modifiedRoll <= b.max);
  return MORALE_RESULTS[Math.max(i, MORALE_RESULTS.indexOf(worst))]!;
}

export function moraleDist(mod: number, state: MoraleState, worst: MoraleResult = 'broken'): Dist<MoraleResult>[] {
  return roll2D6On(mod, (t) => moraleResult(t, state, worst));
}

// ---------------------------------------------------------------------------------------------------------------------
// Skill tests [Skill Tests], C11
// ---------------------------------------------------------------------------------------------------------------------

/** [Skill Tests] "Units must perform a skill test when:" as printed. */
export const SKILL_TEST_TRIGGERS = [
  'Double quick (Tactical) or Force marching (Strategic)',
  'Disordered unit attempts to charge',
  'Charging uphill',
  'Cavalry attempts to opportunity charge or if disordered, counter-charge',
  'Change formation within threat zone of an enemy (Cavalry threat zone =10", Infantry =5")',
  'Unit attempts to remove disorder',
  "KIA's from skirmish fire",
  "Charging unit takes KIA's from defensive fire",
  'British/KGL, Portuguese infantry attempt to counter-charge after defensive fire',
  'Cavalry attempts to pull-up if infantry form square or recall after a CAC',
  'British cavalry attempts to pull-up after target evades, or attempts to not exploit after 3+ win',
  'Unit is worn',
  'Unit is spent',
] as const;

/** [Skill Tests] threat zones: Cavalry threat zone =10", Infantry =5" (C5: ahead of the front edge). */
export const THREAT_ZONE = { cavalry: 10, infantry: 5 } as const;

/** [Skill Tests: Unit / Skill #] as printed. */
export const SKILL_NUMBER_PRINTED: readonly ClassRow[] = [
  { label: 'Untrained (U)', classes: ['untrained'], value: 10 },
  { label: 'Landwehr (L) or Militia (M)', classes: ['landwehr', 'militia'], value: 9 },
  { label: 'Conscripts (C)', classes: ['conscript'], value: 8 },
  { label: 'Regular (R)', classes: ['regular'], value: 7 },
  { label: 'Veteran (V)', classes: ['veteran'], value: 6 },
  { label: 'Elite (E) or Grenadier (Gr)', classes: ['elite', 'grenadier'], value: 5 },
  { label: 'Guard (G) or Old Guard (OG)', classes: ['guard', 'oldGuard'], value: 4 },
];
export const SKILL_NUMBER: Readonly<Record<UnitClass, number>> = byClass(SKILL_NUMBER_PRINTED);

export type SkillModifierId =
  | 'charismatic'
  | 'inspirational'
  | 'normalOrLightCover'
  | 'uninspiring'
  | 'columnOrLinearLine'
  | 'mediumHardCoverFromFire'
  | 'cavalryCharging'
  | 'frenchRussianPullUpOrRecall'
  | 'disordered'
  | 'formationChangeVsFlankRear'
  | 'recoveringSafe'
  | 'square0to2'
  | 'square2to5'
  | 'square5to12'
  | 'square12plus'
  | 'formationChangeInThreatZone'
  | 'closingFireKia'
  | 'closeRangeArtilleryKias'
  | 'outOfCommandOrIntegrity'
  | 'worn'
  | 'spent'
  | 'britishPullUpOrRecallUnder3'
  | 'britishRecallAfter3';

/** [Skill Tests: Modifiers to Skill #] left column then right column, as printed; null = "NA" (not allowed). */
export const SKILL_MODIFIERS: readonly {
  readonly id: SkillModifierId;
  readonly label: string;
  readonly value: number | null;
}[] = [
  { id: 'charismatic', label: 'Charismatic leader attached', value: -3 },
  { id: 'inspirational', label: 'Inspiration leader attached', value: -2 },
  { id: 'normalOrLightCover', label: 'Normal leader attached &/or light cover', value: -1 },
  { id: 'uninspiring', label: 'Uninspiring leader attached', value: 0 },
  { id: 'columnOrLinearLine', label: 'Infantry in column or Linear doctrine infantry in line', value: -1 },
  { id: 'mediumHardCoverFromFire', label: 'Infantry in med/hard cover from fire', value: -2 },
  { id: 'cavalryCharging', label: 'Cavalry charging (not recall or pull-up)', value: -2 },
  { id: 'frenchRussianPullUpOrRecall', label: 'French & Russian Pull up or Recall', value: -2 },
  { id: 'disordered', label: 'Unit is disordered', value: 2 },
  { id: 'formationChangeVsFlankRear', label: 'Formation change vs flank/rear charge', value: 2 },
  {
    id: 'recoveringSafe',
    label: 'Recovering disorder if no enemy units within 1 move or behind friendly unit',
    value: -3,
  },
  { id: 'square0to2', label: 'Form square vs a Cav charge at 0-2"', value: null },
  { id: 'square2to5', label: 'Form square vs a Cav charge at 2-5"', value: 3 },
  { id: 'square5to12', label: 'Form square vs a Cav charge at 5-12"', value: 0 },
  { id: 'square12plus', label: 'Form square vs a Cav charge at 12+"', value: -2 },
  { id: 'formationChangeInThreatZone', label: 'Formation change within threat zone', value: 1 },
  { id: 'closingFireKia', label: 'Each KIA from closing fire', value: 1 },
  { id: 'closeRangeArtilleryKias', label: "Close range Arty KIA's while closing", value: 1 },
  { id: 'outOfCommandOrIntegrity', label: 'Out of Command range &/or Brg Integ.', value: 2 },
  { id: 'worn', label: 'Unit is worn', value: 2 },
  { id: 'spent', label: 'Unit is spent', value: 3 },
  { id: 'britishPullUpOrRecallUnder3', label: 'British cav. pull-up or recall <3 win', value: 2 },
  { id: 'britishRecallAfter3', label: 'British cavalry recall after a 3+ win', value: 5 },
];

/** The value of a skill modifier (0 for NA is never returned: NA is refused). */
export function skillModifierValue(id: SkillModifierId): number {
  const r = SKILL_MODIFIERS.find((m) => m.id === id);
  if (!r) throw new RangeError(`unknown skill modifier ${id}`);
  if (r.value === null) throw new RangeError(`${r.label}: NA (no skill test is allowed)`);
  return r.value;
}

export interface SkillInput {
  readonly cls: UnitClass;
  readonly leader?: Inspiration | null; // attached leader
  readonly lightCover?: boolean; // C11: only for tests caused by fire
  readonly mediumHardCoverFromFire?: boolean;
  readonly infantryColumnOrLinearLine?: boolean;
  readonly cavalryCharging?: boolean;
  readonly frenchRussianPullUpOrRecall?: boolean;
  readonly disordered?: boolean;
  readonly formationChangeVsFlankRear?: boolean;
  readonly recoveringSafe?: boolean;
  /** Form square: where the cavalry began its charge, inches (replaces the threat-zone +1, C11). */
  readonly squareVsCavalryAt?: number;
  readonly formationChangeInThreatZone?: boolean;
  readonly closingFireKias?: number;
  readonly closeRangeArtilleryKias?: boolean; // C11: +1 once
  readonly outOfCommandOrIntegrity?: boolean;
  readonly worn?: boolean;
  readonly spent?: boolean; // replaces worn
  readonly britishPullUpOrRecallUnder3?: boolean;
  readonly britishRecallAfter3?: boolean;
}

/** [Changing Formation to Square] the distance rows (BOOK vs DIGEST 4, 5). */
export const SQUARE_TABLE = [
  { label: 'Cavalry began <2" away', min: 0, below: 2, modifier: 'square0to2', onPass: 'notAllowed' },
  { label: 'Cavalry began <5" away', min: 2, below: 5, modifier: 'square2to5', onPass: 'hasty' },
  { label: 'Cavalry began <12" away', min: 5, below: 12, modifier: 'square5to12', onPass: 'hastyOrSolid' },
  { label: 'If cavalry began ≥ 12" away', min: 12, below: Infinity, modifier: 'square12plus', onPass: 'solid' },
] as const;
/** [Changing Formation to Square] "Solid square if passed by 4+". */
export const SOLID_SQUARE_MARGIN = 4;

/** [Changing Formation to Square] the row for the distance the cavalry began its charge at. */
export function squareRow(cavalryBeganAt: number): (typeof SQUARE_TABLE)[number] {
  if (!(cavalryBeganAt >= 0)) throw new RangeError(`distance must be ≥ 0, got ${cavalryBeganAt}`);
  return SQUARE_TABLE.find((r) => cavalryBeganAt >= r.min && cavalryBeganAt < r.below)!;
}

/**
 * [Skill Tests] the modified skill number, or null when no test is allowed (form square against cavalry that began
 * < 2" away). Readings: OTHER READINGS in the header; C11 for cover, the square rows and the artillery +1.
 */
export function skillNumber(i: SkillInput): number | null {
  assertOneOf(i.cls, UNIT_CLASSES, 'unit class');
  const v = skillModifierValue;
  let n = SKILL_NUMBER[i.cls];
  const leader = i.leader ?? null;
  if (leader !== null) assertOneOf(leader, INSPIRATIONS, 'leader inspiration');
  if (leader === 'charismatic') n += v('charismatic');
  if (leader === 'inspirational') n += v('inspirational');
  if (leader === 'normal' || i.lightCover) n += v('normalOrLightCover');
  if (i.mediumHardCoverFromFire) n += v('mediumHardCoverFromFire');
  if (i.infantryColumnOrLinearLine) n += v('columnOrLinearLine');
  if (i.cavalryCharging) n += v('cavalryCharging');
  if (i.frenchRussianPullUpOrRecall) n += v('frenchRussianPullUpOrRecall');
  if (i.disordered) n += v('disordered');
  if (i.formationChangeVsFlankRear) n += v('formationChangeVsFlankRear');
  if (i.recoveringSafe) n += v('recoveringSafe');
  if (i.squareVsCavalryAt !== undefined) {
    const row = squareRow(i.squareVsCavalryAt);
    if (row.onPass === 'notAllowed') return null;
    n += v(row.modifier);
  } else if (i.formationChangeInThreatZone) n += v('formationChangeInThreatZone');
  const k = i.closingFireKias ?? 0;
  assertInteger(k, 'closing-fire KIAs');
  if (k < 0) throw new RangeError(`closing-fire KIAs must be ≥ 0, got ${k}`);
  n += k * v('closingFireKia');
  if (i.closeRangeArtilleryKias) n += v('closeRangeArtilleryKias');
  if (i.outOfCommandOrIntegrity) n += v('outOfCommandOrIntegrity');
  if (i.spent) n += v('spent');
  else if (i.worn) n += v('worn');
  if (i.britishPullUpOrRecallUnder3) n += v('britishPullUpOrRecallUnder3');
  if (i.britishRecallAfter3) n += v('britishRecallAfter3');
  return n;
}

/** [Skill Tests] "Unit must roll => than skill number on 2d6" (C11: ≤ 2 passes automatically, > 12 never). */
export function skillPasses(roll: number, number: number): boolean {
  assertRoll(roll, 2, 12, '2D6');
  assertInteger(number, 'skill number');
  return roll >= number;
}

export function skillTestDist(number: number): Dist<boolean>[] {
  assertInteger(number, 'skill number');
  return roll2D6On(0, (t) => t >= number);
}

export type SquareOutcome = 'solid' | 'hasty' | 'hastyDisordered' | 'disorderedNoSquare' | 'notAllowed';

/**
 * [Changing Formation to Square] the outcome of a square test rolled `roll` against the modified `number`
 * (`skillNumber` with `squareVsCavalryAt`), for cavalry that began `cavalryBeganAt` inches away.
 */
export function squareOutcome(
  roll: number,
  number: number | null,
  cavalryBeganAt: number,
  alreadyDisordered: boolean,
): SquareOutcome {
  const row = squareRow(cavalryBeganAt);
  if (row.onPass === 'notAllowed' || number === null) return 'notAllowed';
  if (!skillPasses(roll, number)) return alreadyDisordered ? 'disorderedNoSquare' : 'hastyDisordered';
  if (row.onPass === 'hastyOrSolid') return roll >= number + SOLID_SQUARE_MARGIN ? 'solid' : 'hasty';
  return row.onPass;
}

export function squareOutcomeDist(
  number: number | null,
  cavalryBeganAt: number,
  alreadyDisordered: boolean,
): Dist<SquareOutcome>[] {
  if (number === null || squareRow(cavalryBeganAt).onPass === 'notAllowed') return [{ value: 'notAllowed', p: 1 }];
  return roll2D6On(0, (t) => squareOutcome(t, number, cavalryBeganAt, alreadyDisordered));
}

/** [Skill Tests: Effects of failing a skill test] and [Cavalry Pull Up/Recall], as data. */
export const SKILL_FAILURE = {
  wornSpent: 'retire 1 move as column disordered facing enemy (Artillery limbers)',
  others: 'disordered (cavalry attempting to charge/counter-charge continue to charge), except recall and pull up',
  doubleQuickStrategicKiaPerUnit: 1, // Double quick failure in strategic movement: 1 KIA per unit in ME
  chargingInfantryDeployAt: 1, // deploy in line 1" from defender, disordered and fire
  chargingInfantryFallBackMin: 4, // If unable, fall back 4" or more disordered
  pullUpPass: 'return to its original position (not Disordered or Blown)',
  pullUpFail: 'continue charge into the target unit',
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// Ranged fire [Ranged Fire], [Artillery Fire], [Small Arms Fire], C3, C11
// ---------------------------------------------------------------------------------------------------------------------

export type RangeBand = 'close' | 'effective' | 'long';

/** [Ranged Fire: Artillery Ranges] upper limit of each band, inches (a band runs from the previous limit, exclusive). */
export const ARTILLERY_RANGES: readonly {
  readonly gun: GunType;
  readonly label: string;
  readonly limits: readonly [number, number, number];
}[] = [
  { gun: 'light', label: 'Light (3-4 pdrs)', limits: [5, 11, 24] },
  { gun: 'medium68', label: 'Medium (6-8 pdrs)', limits: [6, 16, 37] },
  { gun: 'medium9', label: 'Medium (9 pdrs)', limits: [7, 22, 42] },
  { gun: 'heavy', label: 'Heavy (12 pdrs)', limits: [8, 22, 48] },
];

/** [Ranged Fire: Infantry Ranges] Effective and Long, inches. */
export const SMALL_ARMS_RANGES: readonly {
  readonly weapon: 'musket' | 'rifle';
  readonly label: string;
  readonly limits: readonly [number, number];
}[] = [
  { weapon: 'musket', label: 'Muskets', limits: [3, 4] },
  { weapon: 'rifle', label: 'Rifles', limits: [4, 6] },
];

function bandOf<B extends string>(limits: readonly number[], bands: readonly B[], inches: number): B | null {
  if (!(inches >= 0)) throw new RangeError(`range must be ≥ 0 inches, got ${inches}`);
  const i = limits.findIndex((l) => inches <= l);
  return i < 0 ? null : bands[i]!;
}

/** [Ranged Fire] an artillery range band, or null beyond long range. */
export function artilleryRangeBand(gun: GunType, inches: number): RangeBand | null {
  const r = ARTILLERY_RANGES.find((x) => x.gun === gun);
  if (!r) throw new RangeError(`gun must be Light, Medium68, Medium9 or Heavy, got ${String(gun)}`);
  return bandOf(r.limits, ['close', 'effective', 'long'] as const, inches);
}

/** [Ranged Fire] a small-arms range band (effective or long), or null beyond long range. */
export function smallArmsRangeBand(weapon: 'musket' | 'rifle', inches: number): 'effective' | 'long' | null {
  const r = SMALL_ARMS_RANGES.find((x) => x.weapon === weapon);
  if (!r) throw new RangeError(`weapon must be Musket or Rifle, got ${String(weapon)}`);
  return bandOf(r.limits, ['effective', 'long'] as const, inches);
}

/** [Artillery Fire] / [Small Arms Fire] "Base to hit = 8". */
export const BASE_TO_HIT = 8;
/** C11: the to-hit number never goes below 2 (a natural 1 always misses). */
export const MIN_TO_HIT = 2;
/** [Artillery Fire] to-hit above 10: a natural 10, then a second d10 must exceed this (13: > 10, never). */
export const ABOVE_TEN: Readonly<Record<11 | 12 | 13, number>> = { 11: 6, 12: 8, 13: 10 };

/** [Artillery Fire] dice by guns: 1-5 = 1d10, 6-8 = 2d10, 10+ = 3d10 (C3: 9 guns = 2d10). */
export const ARTILLERY_DICE: readonly (Band & { readonly dice: number; readonly filled?: true })[] = [
  { label: '1-5', min: 1, max: 5, dice: 1 },
  { label: '6-8', min: 6, max: 8, dice: 2 },
  { label: '9', min: 9, max: 9, dice: 2, filled: true }, // C3
  { label: '10+', min: 10, max: Infinity, dice: 3 },
];

/**
 * [Artillery Fire] d10s a battery rolls; "Flank fire (not at long range or infantry column) 2x dice" (C5: the
 * battery's centre in the target's flank or rear sector).
 */
export function artilleryDice(
  guns: number,
  flankFire = false,
  band: RangeBand = 'close',
  targetInfantryColumn = false,
): number {
  assertInteger(guns, 'guns');
  if (guns < 0) throw new RangeError(`guns must be ≥ 0, got ${guns}`);
  if (guns === 0) return 0;
  const d = ARTILLERY_DICE.find((b) => guns >= b.min && guns <= b.max)!.dice;
  return flankFire && band !== 'long' && !targetInfantryColumn ? 2 * d : d;
}

/** [Small Arms Fire] d10s: 3 ranks 1 per 3 front-rank figures, 2 ranks 1 per 2 (round up); +1 regimental guns. */
export function smallArmsDice(frontRankFigures: number, ranks: 2 | 3, regimentalGuns = false): number {
  assertInteger(frontRankFigures, 'front-rank figures');
  if (frontRankFigures < 0) throw new RangeError(`front-rank figures must be ≥ 0, got ${frontRankFigures}`);
  if (ranks !== 2 && ranks !== 3) throw new RangeError(`ranks must be 2 or 3, got ${ranks}`);
  return Math.ceil(frontRankFigures / ranks) + (regimentalGuns ? 1 : 0);
}

export type FireModifierId =
  | 'crewClass'
  | 'heavyRange'
  | 'mediumRange'
  | 'lightRange'
  | 'grandBattery'
  | 'closingFireVsInfantry'
  | 'targetInfantryColumn'
  | 'targetSquare'
  | 'targetDeployedArtilleryOrSkirmish'
  | 'targetLimberedOrThroughSkirmish'
  | 'targetLightCover'
  | 'targetMediumHeavyCover'
  | 'disorderedOrSuppressed'
  | 'firingAndEvading'
  | 'worn'
  | 'spent'
  | 'flankFire';

export interface FireModifierRow<Id extends string> {
  readonly id: Id;
  readonly label: string; // as printed
  readonly printed: string; // the value cell as printed
  readonly values: readonly number[]; // per the label's "a/b/c" alternatives; [] for "2x dice"
}

/** [Artillery Fire] the modifier rows (MINUS SIGNS 1 for the three close-range values). */
export const ARTILLERY_MODIFIERS: readonly FireModifierRow<FireModifierId>[] = [
  {
    id: 'crewClass',
    label: 'Class 1/2/3 artillery at effective and long ranges',
    printed: '-1/0/+1',
    values: [-1, 0, 1],
  },
  { id: 'heavyRange', label: 'Heavy guns at close/effective/long ranges', printed: '2/0/+1', values: [-2, 0, 1] },
  { id: 'mediumRange', label: 'Medium guns at close/effective/long ranges', printed: '1/0/+1', values: [-1, 0, 1] },
  { id: 'lightRange', label: 'Light guns at close/effective/long ranges', printed: '1/0/+2', values: [-1, 0, 2] },
  { id: 'grandBattery', label: 'Grand battery firing', printed: '-1', values: [-1] },
  { id: 'closingFireVsInfantry', label: 'Closing fire (vs infantry only)', printed: '-1', values: [-1] },
  { id: 'targetInfantryColumn', label: 'Target is infantry in column', printed: '-1', values: [-1] },
  { id: 'targetSquare', label: 'Target is infantry in square', printed: '-2', values: [-2] },
  {
    id: 'targetDeployedArtilleryOrSkirmish',
    label: 'Target is deployed artillery* or skirmish formation',
    printed: '+2',
    values: [2],
  },
  {
    id: 'targetLimberedOrThroughSkirmish',
    label: 'Target is limbered artillery or fire through skirmish line',
    printed: '+1',
    values: [1],
  },
  { id: 'targetLightCover', label: 'Target is in light cover', printed: '+1', values: [1] },
  { id: 'targetMediumHeavyCover', label: 'Target is in medium or heavy cover', printed: '+2', values: [2] },
  { id: 'disorderedOrSuppressed', label: 'Disordered or suppressed fire', printed: '+1', values: [1] },
  { id: 'firingAndEvading', label: 'Firing & evading', printed: '+1', values: [1] },
  { id: 'worn', label: 'Artillery is worn +1', printed: '+1', values: [1] },
  { id: 'spent', label: 'Artillery is spent', printed: '+2', values: [2] },
  { id: 'flankFire', label: 'Flank fire (not at long range or infantry column)', printed: '2x dice', values: [] },
];

/** MINUS SIGNS 1: the cells whose printed sign was restored: [row id, index in values]. */
export const MINUS_SIGNS_RESTORED: readonly (readonly [FireModifierId, number])[] = [
  ['heavyRange', 0],
  ['mediumRange', 0],
  ['lightRange', 0],
];

function fmod<Id extends string>(rows: readonly FireModifierRow<Id>[], id: Id, i = 0): number {
  return rows.find((r) => r.id === id)!.values[i]!;
}

export type FireTarget =
  | 'infantryLine' // any target without a row of its own (line, march column, garrison, cavalry, …)
  | 'infantryColumn'
  | 'infantrySquare'
  | 'skirmish'
  | 'deployedArtillery'
  | 'limberedArtillery'
  | 'cavalry'
  | 'dismountedCavalry';
type TargetCover = 'none' | 'light' | 'mediumOrHeavy';

export interface ArtilleryFireInput {
  readonly gun: GunType;
  readonly crewClass: 1 | 2 | 3;
  readonly band: RangeBand;
  readonly target: FireTarget;
  readonly cover?: TargetCover;
  readonly grandBattery?: boolean;
  readonly closingFire?: boolean; // −1 only vs infantry
  readonly throughSkirmishLine?: boolean;
  readonly disorderedOrSuppressed?: boolean;
  readonly firingAndEvading?: boolean;
  readonly worn?: boolean;
  readonly spent?: boolean; // replaces worn
}

const INFANTRY_TARGETS: readonly FireTarget[] = ['infantryLine', 'infantryColumn', 'infantrySquare', 'skirmish'];
const BAND_INDEX: Readonly<Record<RangeBand, number>> = { close: 0, effective: 1, long: 2 };

/** [Artillery Fire] the modified to-hit number (before the C11 floor and the >10 rule: see `hitChance`). */
export function artilleryToHit(i: ArtilleryFireInput): number {
  const b = BAND_INDEX[i.band];
  if (b === undefined) throw new RangeError(`band must be close, effective or long, got ${String(i.band)}`);
  if (![1, 2, 3].includes(i.crewClass)) throw new RangeError(`crew class must be 1, 2 or 3, got ${i.crewClass}`);
  const m = (id: FireModifierId, k = 0) => fmod(ARTILLERY_MODIFIERS, id, k);
  let n = BASE_TO_HIT;
  if (i.band !== 'close') n += m('crewClass', i.crewClass - 1);
  const size = i.gun === 'heavy' ? 'heavyRange' : i.gun === 'light' ? 'lightRange' : 'mediumRange';
  if (!['light', 'medium68', 'medium9', 'heavy'].includes(i.gun)) throw new RangeError(`unknown gun ${String(i.gun)}`);
  n += m(size, b);
  if (i.grandBattery) n += m('grandBattery');
  if (i.closingFire && INFANTRY_TARGETS.includes(i.target)) n += m('closingFireVsInfantry');
  if (i.target === 'infantryColumn') n += m('targetInfantryColumn');
  if (i.target === 'infantrySquare') n += m('targetSquare');
  if (i.target === 'deployedArtillery' || i.target === 'skirmish') n += m('targetDeployedArtilleryOrSkirmish');
  if (i.target === 'limberedArtillery' || i.throughSkirmishLine) n += m('targetLimberedOrThroughSkirmish');
  if (i.cover === 'light') n += m('targetLightCover');
  if (i.cover === 'mediumOrHeavy') n += m('targetMediumHeavyCover');
  if (i.disorderedOrSuppressed) n += m('disorderedOrSuppressed');
  if (i.firingAndEvading) n += m('firingAndEvading');
  if (i.spent) n += m('spent');
  else if (i.worn) n += m('worn');
  return n;
}

export type SmallArmsModifierId =
  | 'lightCoverOrLong'
  | 'mediumHeavyCover'
  | 'targetDeployedArtilleryOrSkirmish'
  | 'targetDismountedCavalry'
  | 'firingAtCharging'
  | 'eliteFiring'
  | 'untrainedFiring'
  | 'disordered'
  | 'worn'
  | 'spent'
  | 'flankOrRear';

/** [Small Arms Fire] the modifier rows. */
export const SMALL_ARMS_MODIFIERS: readonly FireModifierRow<SmallArmsModifierId>[] = [
  { id: 'lightCoverOrLong', label: 'Target is in light cover and/or long range', printed: '+1', values: [1] },
  { id: 'mediumHeavyCover', label: 'Target is in medium or heavy cover', printed: '+2', values: [2] },
  {
    id: 'targetDeployedArtilleryOrSkirmish',
    label: 'Target is deployed artillery* or skirmish formation',
    printed: '+2',
    values: [2],
  },
  { id: 'targetDismountedCavalry', label: 'Target is dismounted cavalry', printed: '+2', values: [2] },
  { id: 'firingAtCharging', label: 'Infantry firing at charging infantry/cavalry', printed: '-1/+1', values: [-1, 1] },
  { id: 'eliteFiring', label: 'Elite, Grenadier, Guard or Old Guard class unit firing', printed: '-1', values: [-1] },
  { id: 'untrainedFiring', label: 'Untrained, Militia or Landwehr class unit firing', printed: '+1', values: [1] },
  { id: 'disordered', label: 'Disordered fire', printed: '+1', values: [1] },
  { id: 'worn', label: 'Infantry is worn', printed: '+1', values: [1] },
  { id: 'spent', label: 'Infantry is spent', printed: '+2', values: [2] },
  { id: 'flankOrRear', label: 'On Target Flank or Rear', printed: '-1', values: [-1] },
];

/** [Small Arms Fire] the firer's class modifier (digest §2.2). */
const SMALL_ARMS_CLASS_MODIFIER: Readonly<Record<UnitClass, number>> = {
  untrained: 1,
  militia: 1,
  landwehr: 1,
  conscript: 0,
  regular: 0,
  veteran: 0,
  elite: -1,
  grenadier: -1,
  guard: -1,
  oldGuard: -1,
};

export interface SmallArmsInput {
  readonly cls: UnitClass;
  readonly band: 'effective' | 'long';
  readonly target: FireTarget;
  readonly cover?: TargetCover;
  readonly targetCharging?: 'infantry' | 'cavalry' | null;
  readonly disordered?: boolean;
  readonly worn?: boolean;
  readonly spent?: boolean; // replaces worn
  readonly onFlankOrRear?: boolean;
}

/** [Small Arms Fire] the modified to-hit number (OTHER READINGS: light cover and/or long = +1 once). */
export function smallArmsToHit(i: SmallArmsInput): number {
  assertOneOf(i.cls, UNIT_CLASSES, 'unit class');
  if (i.band !== 'effective' && i.band !== 'long') throw new RangeError(`small-arms band must be effective or long`);
  const m = (id: SmallArmsModifierId, k = 0) => fmod(SMALL_ARMS_MODIFIERS, id, k);
  let n = BASE_TO_HIT;
  if (i.cover === 'light' || i.band === 'long') n += m('lightCoverOrLong');
  if (i.cover === 'mediumOrHeavy') n += m('mediumHeavyCover');
  if (i.target === 'deployedArtillery' || i.target === 'skirmish') n += m('targetDeployedArtilleryOrSkirmish');
  if (i.target === 'dismountedCavalry') n += m('targetDismountedCavalry');
  if (i.targetCharging === 'infantry') n += m('firingAtCharging', 0);
  if (i.targetCharging === 'cavalry') n += m('firingAtCharging', 1);
  n += SMALL_ARMS_CLASS_MODIFIER[i.cls];
  if (i.disordered) n += m('disordered');
  if (i.spent) n += m('spent');
  else if (i.worn) n += m('worn');
  if (i.onFlankOrRear) n += m('flankOrRear');
  return n;
}

/** [Artillery Fire] C3, C11: the chance one d10 hits at a modified to-hit number, exactly. */
export function hitChance(toHit: number): number {
  assertInteger(toHit, 'to-hit number');
  const t = Math.max(MIN_TO_HIT, toHit);
  if (t <= 10) return (11 - t) / 10;
  if (t <= 13) return (1 / 10) * ((10 - ABOVE_TEN[t as 11 | 12 | 13]) / 10);
  return 0;
}

/**
 * [Artillery Fire] / [Small Arms Fire] the hits (= KIA, C3) of `dice` d10 at `toHit`, exactly, through dice.ts's
 * `pool`. To-hit 11 and 12 roll a natural 10 and then a second d10: the pair is read as one d100 whose faces
 * 91–100 are a natural 10 (face 90 + the second die), so "> 6" is face ≥ 97 and "> 8" face ≥ 99.
 */
export function fireHitsDist(dice: number, toHit: number): Dist<number>[] {
  assertInteger(dice, 'dice');
  if (dice < 0) throw new RangeError(`dice must be ≥ 0, got ${dice}`);
  assertInteger(toHit, 'to-hit number');
  const t = Math.max(MIN_TO_HIT, toHit);
  if (t > 12 || dice === 0) return [{ value: 0, p: 1 }];
  const d = t <= 10 ? pool(dice, 10, t) : pool(dice, 100, 90 + ABOVE_TEN[t as 11 | 12] + 1);
  return classify(d, (r) => r.hits).sort((a, b) => a.value - b.value);
}

/** [Artillery Fire] one die's result: `d10`, and `second` when the first is a natural 10 and to-hit is above 10. */
export function dieHits(toHit: number, d10: number, second?: number): boolean {
  assertRoll(d10, 1, 10, 'd10');
  assertInteger(toHit, 'to-hit number');
  const t = Math.max(MIN_TO_HIT, toHit);
  if (t <= 10) return d10 >= t;
  if (t > 13 || d10 !== 10) return false;
  if (second === undefined) throw new RangeError(`to-hit ${t}: a natural 10 needs the second d10`);
  assertRoll(second, 1, 10, 'second d10');
  return second > ABOVE_TEN[t as 11 | 12 | 13];
}

/** C12: crew class by the battery's class (Guard/Elite 1, Regular/Veteran 2, others 3). */
export function crewClass(cls: UnitClass): 1 | 2 | 3 {
  assertOneOf(cls, UNIT_CLASSES, 'unit class');
  if (cls === 'guard' || cls === 'oldGuard' || cls === 'elite' || cls === 'grenadier') return 1;
  if (cls === 'regular' || cls === 'veteran') return 2;
  return 3;
}

// ---------------------------------------------------------------------------------------------------------------------
// Close assault [Close Assault Combat], C12, C13
// ---------------------------------------------------------------------------------------------------------------------

/** [Unit Close Assault Combat Values] as printed (MG). */
export const CAC_VALUE_PRINTED: readonly ClassRow[] = [
  { label: 'Old Guard', classes: ['oldGuard'], value: 9 },
  { label: 'Guard/Grenadier', classes: ['guard', 'grenadier'], value: 8 },
  { label: 'Elite/Veteran', classes: ['elite', 'veteran'], value: 7 },
  { label: 'Regular', classes: ['regular'], value: 6 },
  { label: 'Conscript/Landwehr', classes: ['conscript', 'landwehr'], value: 5 },
  { label: 'Untrained/Militia', classes: ['untrained', 'militia'], value: 4 },
];
export const CAC_VALUE: Readonly<Record<UnitClass, number>> = byClass(CAC_VALUE_PRINTED);
/** C12: artillery's CAC value by crew class. */
export const ARTILLERY_CAC_VALUE: Readonly<Record<1 | 2 | 3, number>> = { 1: 7, 2: 6, 3: 5 };

type CacModifierId =
  | 'leader'
  | 'charging'
  | 'disorderedOrCavalryAtHalt'
  | 'flankOrRear'
  | 'artilleryOutsideArc'
  | 'cavalryGrade'
  | 'unitMass'
  | 'greaterNumber'
  | 'lance'
  | 'lineWider'
  | 'vsSquareOrSkirmish'
  | 'hastySquare'
  | 'solidSquare'
  | 'garrison'
  | 'linearObstacle'
  | 'sappers'
  | 'blown'
  | 'worn'
  | 'spent'
  | 'unanchoredFlank';

export interface CacModifierRow {
  readonly id: CacModifierId;
  readonly label: string; // as printed
  readonly printed: string; // value cell as printed
  readonly values: readonly number[]; // [] = "Auto Disordered"
}

/** [Close Assault Modifiers] every row. */
export const CAC_MODIFIERS: readonly CacModifierRow[] = [
  {
    id: 'leader',
    label: 'Attached leader bonus (Uninspiring/Normal/Inspirational/Charismatic)',
    printed: '0/+1/+2/+3',
    values: [0, 1, 2, 3],
  },
  { id: 'charging', label: 'Units is charging', printed: '+1', values: [1] },
  {
    id: 'disorderedOrCavalryAtHalt',
    label: 'Units is disordered or Cavalry receiving charge at the halt',
    printed: '-2',
    values: [-2],
  },
  { id: 'flankOrRear', label: 'Attacking a flank or rear', printed: '+3', values: [3] },
  { id: 'artilleryOutsideArc', label: "Attacking artillery outside of gun's fire arc", printed: '+3', values: [3] },
  {
    id: 'cavalryGrade',
    label: 'Charging cavalry each grade heavier (light/medium/heavy/armored)',
    printed: '0/+1/+2/+3',
    values: [0, 1, 2, 3],
  },
  { id: 'unitMass', label: 'Unit mass (one unit is 2 sizes larger than opponent)', printed: '+1', values: [1] },
  { id: 'greaterNumber', label: 'Greater number of units—2:1/3:1/4:1*', printed: '+1/+2/+3', values: [1, 2, 3] },
  { id: 'lance', label: 'Lance armed cavalry versus infantry', printed: '+1', values: [1] },
  {
    id: 'lineWider',
    label: 'Cavalry or infantry in line vs line/column wider (1.5x or 2x wider)',
    printed: '+1/+2',
    values: [1, 2],
  },
  {
    id: 'vsSquareOrSkirmish',
    label: 'Infantry attacking a square or any vs. skirmish formation',
    printed: '+3',
    values: [3],
  },
  { id: 'hastySquare', label: 'Infantry in hasty square vs cavalry', printed: '+5', values: [5] },
  { id: 'solidSquare', label: 'Infantry in solid square vs cavalry', printed: '+8', values: [8] },
  {
    id: 'garrison',
    label: 'Infantry garrisoning light/medium/heavy/fortified BUA',
    printed: '+1/+2/+3/+4',
    values: [1, 2, 3, 4],
  },
  {
    id: 'linearObstacle',
    label: 'Infantry or deployed artillery defending a linear obstacle +1 vs Inf +3 vs Cav',
    printed: '+1 vs Inf / +3 vs Cav',
    values: [1, 3],
  },
  { id: 'sappers', label: 'Sappers supporting attack into cover', printed: '+2', values: [2] },
  { id: 'blown', label: 'Cavalry is blown', printed: '-2', values: [-2] },
  { id: 'worn', label: 'Unit is worn', printed: '-2', values: [-2] },
  { id: 'spent', label: 'Unit is spent', printed: '-3', values: [-3] },
  {
    id: 'unanchoredFlank',
    label: 'Infantry with an unanchored flank attacked by cavalry',
    printed: 'Auto Disordered',
    values: [],
  },
];

/** [Close Assault Combat] the notes under the modifiers. */
export const CAC_RULES = {
  waveAttackWithin: 4, // 'Wave Attacks' if side unit &/or 2nd rank is within 4" (9.4.2.7 missing; C13: not played)
  waveAttacksImplemented: false, // C13
  maxCacsPerPhase: 2, // C13; "After 2nd CAC unit is disordered for any further CAC"
  exploitIntoBuaDisordered: true, // Units exploiting into a BUA are automatically disordered
  maxFrontalAttackersOnLine: 2, // *A unit in line may be attacked frontally by a maximum of two units unless extra large
  frontagePresentedOver: 0.5, // The target must present >50% of its frontage to each attacking unit
  columnGapOverFigures: 2, // > 2 fig/1 stand gap between attacking columns
} as const;

type GarrisonGrade = 'light' | 'medium' | 'heavy' | 'fortified';

export interface CacSideInput {
  readonly arm: 'infantry' | 'cavalry' | 'artillery';
  readonly cls: UnitClass; // artillery: pass crewClass instead
  readonly crewClass?: 1 | 2 | 3;
  readonly leader?: Inspiration | null;
  readonly charging?: boolean;
  readonly disordered?: boolean;
  readonly cavalryAtHalt?: boolean; // cavalry receiving a charge at the halt
  readonly flankOrRear?: boolean;
  readonly artilleryOutsideArc?: boolean;
  readonly cavalryWeight?: CavalryWeight; // charging (or counter-charging, C13) cavalry's grade
  readonly unitMass?: boolean; // 2 sizes larger than the opponent
  readonly units?: number; // units on this side
  readonly opponentUnits?: number;
  readonly lanceVsInfantry?: boolean;
  readonly lineWiderRatio?: number; // own frontage / opponent's, when this side is in line
  readonly vsSquareOrSkirmish?: boolean; // infantry attacking a square, or any vs skirmish formation
  readonly square?: 'hasty' | 'solid' | null; // infantry in square vs cavalry
  readonly garrison?: GarrisonGrade | null;
  readonly linearObstacleVs?: 'infantry' | 'cavalry' | null;
  readonly sappers?: boolean;
  readonly blown?: boolean;
  readonly worn?: boolean;
  readonly spent?: boolean; // replaces worn
}

/** [Close Assault Modifiers] "Greater number of units—2:1/3:1/4:1": +1 / +2 / +3 (4:1 or more is +3). */
export function greaterNumberModifier(own: number, opponent: number): number {
  assertInteger(own, 'units');
  assertInteger(opponent, 'opponent units');
  if (own < 1 || opponent < 1) throw new RangeError(`each side has at least 1 unit, got ${own}:${opponent}`);
  const v = CAC_MODIFIERS.find((r) => r.id === 'greaterNumber')!.values;
  const ratio = Math.min(4, Math.floor(own / opponent));
  return ratio >= 2 ? v[ratio - 2]! : 0;
}

/** [Close Assault Modifiers] "in line vs line/column wider (1.5x or 2x wider)": BOOK vs DIGEST 10. */
export function lineWiderModifier(ratio: number): number {
  if (!(ratio > 0)) throw new RangeError(`frontage ratio must be > 0, got ${ratio}`);
  const v = CAC_MODIFIERS.find((r) => r.id === 'lineWider')!.values;
  return ratio >= 2 ? v[1]! : ratio >= 1.5 ? v[0]! : 0;
}

/** [Close Assault Combat] one side's combat value plus all its modifiers (add its 2D6 to get its total). */
export function cacTotalModifier(i: CacSideInput): number {
  const v = (id: CacModifierId, k = 0) => CAC_MODIFIERS.find((r) => r.id === id)!.values[k]!;
  let n: number;
  if (i.arm === 'artillery') {
    const c = i.crewClass ?? crewClass(i.cls);
    n = ARTILLERY_CAC_VALUE[c];
  } else {
    assertOneOf(i.cls, UNIT_CLASSES, 'unit class');
    n = CAC_VALUE[i.cls];
  }
  const leader = i.leader ?? null;
  if (leader !== null) {
    assertOneOf(leader, INSPIRATIONS, 'leader inspiration');
    n += v('leader', INSPIRATIONS.indexOf(leader));
  }
  if (i.charging) n += v('charging');
  if (i.disordered || (i.arm === 'cavalry' && i.cavalryAtHalt)) n += v('disorderedOrCavalryAtHalt');
  if (i.flankOrRear) n += v('flankOrRear');
  if (i.artilleryOutsideArc) n += v('artilleryOutsideArc');
  if (i.arm === 'cavalry' && i.charging && i.cavalryWeight)
    n += v('cavalryGrade', ['light', 'medium', 'heavy', 'armored'].indexOf(i.cavalryWeight));
  if (i.unitMass) n += v('unitMass');
  if (i.units !== undefined || i.opponentUnits !== undefined)
    n += greaterNumberModifier(i.units ?? 1, i.opponentUnits ?? 1);
  if (i.lanceVsInfantry) n += v('lance');
  if (i.lineWiderRatio !== undefined) n += lineWiderModifier(i.lineWiderRatio);
  if (i.vsSquareOrSkirmish) n += v('vsSquareOrSkirmish');
  if (i.square === 'hasty') n += v('hastySquare');
  if (i.square === 'solid') n += v('solidSquare');
  if (i.garrison) n += v('garrison', ['light', 'medium', 'heavy', 'fortified'].indexOf(i.garrison));
  if (i.linearObstacleVs === 'infantry') n += v('linearObstacle', 0);
  if (i.linearObstacleVs === 'cavalry') n += v('linearObstacle', 1);
  if (i.sappers) n += v('sappers');
  if (i.blown) n += v('blown');
  if (i.spent) n += v('spent');
  else if (i.worn) n += v('worn');
  return n;
}

/** [CAC Results] the difference bands (0 = a tie: the result explanations' "0" rows). */
export const CAC_BANDS: readonly Band[] = [
  { label: '0', min: 0, max: 0 },
  { label: '1-2', min: 1, max: 2 },
  { label: '3-4', min: 3, max: 4 },
  { label: '5-7', min: 5, max: 7 },
  { label: '8+', min: 8, max: Infinity },
];
export type CacBand = '0' | '1-2' | '3-4' | '5-7' | '8+';

/** [CAC Results] the band of a difference (higher total − lower total). */
export function cacBand(difference: number): CacBand {
  assertInteger(difference, 'difference');
  if (difference < 0) throw new RangeError(`difference must be ≥ 0 (higher total − lower), got ${difference}`);
  return CAC_BANDS.find((b) => difference >= b.min && difference <= b.max)!.label as CacBand;
}

export type CacLoser = 'infantry' | 'cavalry' | 'footArtillery' | 'horseArtillery';
export const CAC_LOSERS: readonly CacLoser[] = ['infantry', 'cavalry', 'footArtillery', 'horseArtillery'];

interface CacWinnerEffect {
  readonly kia: number;
  readonly onlyIfWinnerRolledLower: boolean; // "(if W < L 2D6)": the KIA only if W's natural 2D6 < L's
  readonly disordered: boolean;
}
interface CacLoserEffect {
  readonly kia: number;
  readonly broken: boolean;
  readonly move: { readonly kind: 'FB' | 'Ret'; readonly inches: number } | null;
  readonly disordered: boolean;
  readonly blown: boolean;
  readonly faceAway: boolean;
  readonly checkCavalryResults: boolean; // "0 KIA, check Cavalry Results": see CAVALRY_RESULTS 'loss1to2'
}
export interface CacCell {
  readonly printed: string;
  readonly winner: CacWinnerEffect;
  readonly loser: CacLoserEffect;
}

const W = (kia: number, o: Partial<CacWinnerEffect> = {}): CacWinnerEffect => ({
  kia,
  onlyIfWinnerRolledLower: false,
  disordered: false,
  ...o,
});
const L = (kia: number, kind: 'FB' | 'Ret', inches: number, o: Partial<CacLoserEffect> = {}): CacLoserEffect => ({
  kia,
  broken: false,
  move: { kind, inches },
  disordered: true,
  blown: false,
  faceAway: false,
  checkCavalryResults: false,
  ...o,
});
const BROKEN: CacLoserEffect = {
  kia: 0,
  broken: true,
  move: null,
  disordered: false,
  blown: false,
  faceAway: false,
  checkCavalryResults: false,
};
const cell = (printed: string, winner: CacWinnerEffect, loser: CacLoserEffect): CacCell => ({ printed, winner, loser });

/**
 * [CAC: Infantry or Artillery defeat] (the winner is infantry or artillery) and [CAC: Cavalry defeat] (the winner is
 * cavalry): by loser row, the 1-2 / 3-4 / 5-7 / 8+ cells. C13: Broken = removed; FB = straight away, facing kept;
 * Ret = the same, ending facing away.
 */
export const CAC_RESULTS: Readonly<
  Record<'infantryOrArtillery' | 'cavalry', Readonly<Record<CacLoser, readonly [CacCell, CacCell, CacCell, CacCell]>>>
> = {
  infantryOrArtillery: {
    infantry: [
      cell('W: 1 KIA & D L: 1 KIA, FB 6" D', W(1, { disordered: true }), L(1, 'FB', 6)),
      cell('W: 1 KIA L: 2 KIA, FB 6" D', W(1), L(2, 'FB', 6)),
      cell(
        'W: 1 KIA (if W < L 2D6) L: 3 KIA, FB 8" D (face away)',
        W(1, { onlyIfWinnerRolledLower: true }),
        L(3, 'FB', 8, { faceAway: true }),
      ),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
    ],
    cavalry: [
      cell('0 KIA, check Cavalry Results', W(0), {
        kia: 0,
        broken: false,
        move: null,
        disordered: false,
        blown: false,
        faceAway: false,
        checkCavalryResults: true,
      }),
      cell('W: 1 KIA L: 1 KIA, FB 12" D & B', W(1), L(1, 'FB', 12, { blown: true })),
      cell('W: 0 KIA L: 2 KIA, FB 12" D & B', W(0), L(2, 'FB', 12, { blown: true })),
      cell('W: 0 KIA L: 2 KIA, FB 12" D & B', W(0), L(2, 'FB', 12, { blown: true })),
    ],
    footArtillery: [
      cell('W: 1 KIA L: Broken', W(1), BROKEN),
      cell('W: 1 KIA L: Broken', W(1), BROKEN),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
    ],
    horseArtillery: [
      cell('W: 1 KIA L: 1 KIA, FB 9" D', W(1), L(1, 'FB', 9)),
      cell('W: 1 KIA L: Broken', W(1), BROKEN),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
    ],
  },
  cavalry: {
    infantry: [
      cell('W: 1 KIA L: 2 KIA, FB 6" D', W(1), L(2, 'FB', 6)),
      cell('W: 1 KIA L: Broken', W(1), BROKEN),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
    ],
    cavalry: [
      cell('W: 1 KIA L: 1 KIA, FB 12" D & B', W(1), L(1, 'FB', 12, { blown: true })),
      cell('W: 1 KIA L: 2 KIA, Ret 12" D & B', W(1), L(2, 'Ret', 12, { blown: true, faceAway: true })),
      cell(
        'W: 1 KIA (if W < L 2D6) L: 3 KIA, Ret 12" D & B',
        W(1, { onlyIfWinnerRolledLower: true }),
        L(3, 'Ret', 12, { blown: true, faceAway: true }),
      ),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
    ],
    footArtillery: [
      cell('W: 1 KIA L: Broken', W(1), BROKEN),
      cell('W: 1 KIA (if W < L 2D6) L: Broken', W(1, { onlyIfWinnerRolledLower: true }), BROKEN),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
    ],
    horseArtillery: [
      cell('W: 1 KIA L: 1 KIA, FB 9" D', W(1), L(1, 'FB', 9)),
      cell('W: 1 KIA (if W < L 2D6) L: Broken', W(1, { onlyIfWinnerRolledLower: true }), BROKEN),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
      cell('W: 0 KIA L: Broken', W(0), BROKEN),
    ],
  },
};

/** [CAC Results] the cell for a winner's arm, the loser's row and a non-zero difference (0: see the explanations). */
export function cacResult(winner: 'infantry' | 'artillery' | 'cavalry', loser: CacLoser, difference: number): CacCell {
  const band = cacBand(difference);
  if (band === '0')
    throw new RangeError('a difference of 0 has no winner: read INFANTRY_RESULTS / CAVALRY_RESULTS "0"');
  if (!['infantry', 'artillery', 'cavalry'].includes(winner))
    throw new RangeError(`winner must be infantry, artillery or cavalry, got ${String(winner)}`);
  assertOneOf(loser, CAC_LOSERS, 'loser');
  const table = CAC_RESULTS[winner === 'cavalry' ? 'cavalry' : 'infantryOrArtillery'];
  return table[loser][CAC_BANDS.findIndex((b) => b.label === band) - 1]!;
}

/** The KIAs the winner takes in `c`, given the natural 2D6 of both sides ("(if W < L 2D6)"). */
export function cacWinnerKia(c: CacCell, winnerRoll: number, loserRoll: number): number {
  assertRoll(winnerRoll, 2, 12, "winner's 2D6");
  assertRoll(loserRoll, 2, 12, "loser's 2D6");
  return c.winner.onlyIfWinnerRolledLower && !(winnerRoll < loserRoll) ? 0 : c.winner.kia;
}

/**
 * The outcome class of one CAC roll: the band of the difference of the totals, the winner (null on a 0), and the
 * dice flags the tables read: [Leader Casualties] "If the winner rolls doubles, the leader on the losing side is
 * captured", and "(if W < L 2D6)": the winner's natural 2D6 lower than the loser's.
 */
export interface CacRollClass {
  readonly band: CacBand;
  readonly winner: 'A' | 'B' | null;
  readonly winnerDoubles: boolean;
  readonly winnerRolledLower: boolean;
}

function cacKey(c: CacRollClass): string {
  return `${c.band}|${c.winner}|${c.winnerDoubles}|${c.winnerRolledLower}`;
}

/** Classify one CAC roll: each side's two dice and its total modifier (`cacTotalModifier`). */
export function cacRoll(
  a: readonly [number, number],
  modA: number,
  b: readonly [number, number],
  modB: number,
): CacRollClass {
  for (const f of [...a, ...b]) assertRoll(f, 1, 6, 'CAC die');
  const ra = a[0] + a[1];
  const rb = b[0] + b[1];
  const d = ra + modA - (rb + modB);
  if (d === 0) return { band: '0', winner: null, winnerDoubles: false, winnerRolledLower: false };
  const [w, l, wd] = d > 0 ? ([ra, rb, a] as const) : ([rb, ra, b] as const);
  return {
    band: cacBand(Math.abs(d)),
    winner: d > 0 ? 'A' : 'B',
    winnerDoubles: wd[0] === wd[1],
    winnerRolledLower: w < l,
  };
}

/** Every CAC outcome class with its exact probability (over the 6^4 faces, counts divided once). */
export function cacRollDist(modA: number, modB: number): Dist<CacRollClass>[] {
  const faces = sumDist(1, 6).map((d) => d.value);
  const counts = new Map<string, { c: CacRollClass; n: number }>();
  for (const a0 of faces)
    for (const a1 of faces)
      for (const b0 of faces)
        for (const b1 of faces) {
          const c = cacRoll([a0, a1], modA, [b0, b1], modB);
          const k = cacKey(c);
          const e = counts.get(k);
          if (e) e.n++;
          else counts.set(k, { c, n: 1 });
        }
  const order = (c: CacRollClass) => (c.winner === 'B' ? -1 : 1) * CAC_BANDS.findIndex((b) => b.label === c.band);
  return [...counts.values()]
    .sort((x, y) => order(x.c) - order(y.c) || cacKey(x.c).localeCompare(cacKey(y.c)))
    .map(({ c, n }) => ({ value: c, p: n / 6 ** 4 }));
}

/** [Infantry results explanations] the winning side's options by difference band. */
export const INFANTRY_RESULTS: readonly {
  readonly label: string;
  readonly bands: readonly CacBand[];
  readonly text: string;
  readonly wheel: number | null; // take ground & wheel up to (degrees)
  readonly exploit: readonly { readonly inches: number; readonly disordered: boolean }[];
}[] = [
  {
    label: '0',
    bands: ['0'],
    text: 'Inf vs Inf or Arty: all units disordered & 1 KIA. Worn or spent? Re-fight CAC in line formation. If unable to deploy into line fall back minimum 2" up to 4" in line formation disordered.',
    wheel: null,
    exploit: [],
  },
  {
    label: '1-2',
    bands: ['1-2'],
    text: 'Attacker may take ground & wheel up to 45° in line formation disordered. If unable to deploy into line fall back until able to form line formation.',
    wheel: 45,
    exploit: [],
  },
  {
    label: '3-4',
    bands: ['3-4'],
    text: 'Attacker may take ground & wheel 45° or exploit 5" disordered after exploitation.',
    wheel: 45,
    exploit: [{ inches: 5, disordered: true }],
  },
  {
    label: '5+',
    bands: ['5-7', '8+'],
    text: 'Attacker may take ground & wheel 45° or exploit 3" (no D) or 6" & D at end.',
    wheel: 45,
    exploit: [
      { inches: 3, disordered: false },
      { inches: 6, disordered: true },
    ],
  },
];

/** [Infantry results explanations] 0 row (C13): all units disordered and 1 KIA; fall back 2"–4" if unable to re-fight. */
export const TIE_INFANTRY = { kiaEach: 1, fallBackMin: 2, fallBackMax: 4 } as const;

/** [Cavalry results explanations] by result, as printed, with their numbers. */
export const CAVALRY_RESULTS: readonly {
  readonly id: 'loss1to2' | 'tie' | 'win1to2' | 'win3to4' | 'win5plus';
  readonly label: string;
  readonly bands: readonly CacBand[];
  readonly text: string;
  readonly exploit: number | null; // inches
  readonly rallyBack: number | null; // inches, after a passed skill test
}[] = [
  {
    id: 'loss1to2',
    label: 'Loss 1-2',
    bands: ['1-2'],
    text: 'Cavalry loss vs square: Pass skill test = fall back 5" disordered not blown, unless 1st rank in wave attack, exploit 5" D from back of square. Fail = Fall back 12" D & B. Cavalry losing vs all others: Fall back 12" D & B',
    exploit: 5, // only the wave attack's 1st rank (C13: never)
    rallyBack: null,
  },
  {
    id: 'tie',
    label: '0',
    bands: ['0'],
    text: 'Cav vs Inf: Skill Test if Pass may exploit 5" from back of square & D before contact with new target. D&B at end of Exploitation. Fail FB 12" D & B Cav vs. Cav or Cav vs. Art or Fail = fall back 12" D & B.',
    exploit: 5,
    rallyBack: null,
  },
  {
    id: 'win1to2',
    label: '1-2',
    bands: ['1-2'],
    text: 'Victorious charging cavalry may take ground, wheel 45° OR pass skill test to rally back 6" D & B at the end of phase.',
    exploit: null,
    rallyBack: 6,
  },
  {
    id: 'win3to4',
    label: '3-4',
    bands: ['3-4'],
    text: 'Victorious charging cavalry may take ground, wheel 45° OR exploit 7" OR pass skill test to rally back 6". D & B at the end of phase.',
    exploit: 7,
    rallyBack: 6,
  },
  {
    id: 'win5plus',
    label: '5+',
    bands: ['5-7', '8+'],
    text: 'Victorious charging cavalry may take ground, wheel 45° OR exploit 10" OR pass skill test to rally back 6". D & B at the end of phase.',
    exploit: 10,
    rallyBack: 6,
  },
];

/** [Cavalry results explanations] the fall-backs: vs a square after a passed test, and otherwise. */
export const CAVALRY_FALL_BACK = { squarePassed: 5, otherwise: 12, wheel: 45 } as const;

/** [Cavalry results explanations] a victorious cavalry unit's row for a difference band. */
export function cavalryWinRow(difference: number): (typeof CAVALRY_RESULTS)[number] {
  const band = cacBand(difference);
  if (band === '0') return CAVALRY_RESULTS.find((r) => r.id === 'tie')!;
  return CAVALRY_RESULTS.find((r) => r.id !== 'loss1to2' && r.bands.includes(band))!;
}

/** [Infantry results explanations] the row for a difference. */
export function infantryResultRow(difference: number): (typeof INFANTRY_RESULTS)[number] {
  const band = cacBand(difference);
  return INFANTRY_RESULTS.find((r) => r.bands.includes(band))!;
}

// ---------------------------------------------------------------------------------------------------------------------
// Leader casualties [Leader Casualties], C12
// ---------------------------------------------------------------------------------------------------------------------

export type LeaderCasualty = 'noEffect' | 'knockedOut' | 'incapacitated' | 'kia';

/** [Leader Casualties] the 2D6 table. */
export const LEADER_CASUALTY_TABLE: readonly (Band & { readonly result: LeaderCasualty; readonly printed: string })[] =
  [
    { label: '2-4', min: 2, max: 4, result: 'noEffect', printed: 'No Effect' },
    { label: '5-7', min: 5, max: 7, result: 'knockedOut', printed: 'Knocked out for 1 turn*' },
    { label: '8-10', min: 8, max: 10, result: 'incapacitated', printed: 'Incapacitated for rest of battle**' },
    { label: '11-12', min: 11, max: 12, result: 'kia', printed: 'KIA' },
  ];

/** [Leader Casualties] the checks that lead to the table. */
export const LEADER_CHECKS = {
  strategicAtLeast: 11, // Strategic leader casualty check (2d6), ≥ 11, reroll and consult table
  tacticalDieSides: 6, // Tactical leader for each KIA = 1d6
  tacticalOn: 6, // If any 6's are rolled, consult chart
  knockedOutTurns: 1,
} as const;

export function leaderCasualty(roll: number): LeaderCasualty {
  assertRoll(roll, 2, 12, 'leader casualty 2D6');
  return LEADER_CASUALTY_TABLE.find((r) => roll >= r.min && roll <= r.max)!.result;
}

/** [Leader Casualties] the strategic check and the table in one: exact. */
export function strategicLeaderCasualtyDist(): Dist<LeaderCasualty>[] {
  const hit = twoD6AtLeast(LEADER_CHECKS.strategicAtLeast);
  const table = roll2D6On(0, leaderCasualty);
  return table.map((d) => ({ value: d.value, p: d.p * hit + (d.value === 'noEffect' ? 1 - hit : 0) }));
}

/** [Leader Casualties] the tactical check for `kias` KIAs on the leader's unit: does the table get rolled? */
export function tacticalLeaderCheckDist(kias: number): Dist<boolean>[] {
  assertInteger(kias, 'KIAs');
  if (kias < 0) throw new RangeError(`KIAs must be ≥ 0, got ${kias}`);
  if (kias === 0) return [{ value: false, p: 1 }];
  return group(pool(kias, LEADER_CHECKS.tacticalDieSides, LEADER_CHECKS.tacticalOn), (r) => r.hits > 0);
}

/** [Leader Casualties] "**Replacement: 2-6 = 1 grade worse, 7-10 = same, 11+ = 1 grade better." */
export const REPLACEMENT_TABLE: readonly (Band & { readonly shift: -1 | 0 | 1 })[] = [
  { label: '2-6', min: 2, max: 6, shift: -1 },
  { label: '7-10', min: 7, max: 10, shift: 0 },
  { label: '11+', min: 11, max: 12, shift: 1 },
];

/** C12: the replacement's command rating and inspiration, each shifted one grade, bounded at the ends. */
export function replacementLeader(
  roll: number,
  command: CommandRating,
  inspiration: Inspiration,
): { readonly command: CommandRating; readonly inspiration: Inspiration } {
  assertRoll(roll, 2, 12, 'replacement 2D6');
  assertOneOf(command, COMMAND_RATINGS, 'command rating');
  assertOneOf(inspiration, INSPIRATIONS, 'inspiration');
  const s = REPLACEMENT_TABLE.find((r) => roll >= r.min && roll <= r.max)!.shift;
  const shift = <T>(ladder: readonly T[], v: T) =>
    ladder[Math.min(ladder.length - 1, Math.max(0, ladder.indexOf(v) + s))]!;
  return { command: shift(COMMAND_RATINGS, command), inspiration: shift(INSPIRATIONS, inspiration) };
}

// ---------------------------------------------------------------------------------------------------------------------
// Strength, worn/spent, victory (digest ADAPTATIONs C3, C11, C14; C4 size classes are in shape.ts)
// ---------------------------------------------------------------------------------------------------------------------

/** C3: strength for % lost counts figures plus guns × 3. C11: Worn at ⅓ lost, Spent at ½. */
const STRENGTH = { gunWeight: 3, wornAt: 1 / 3, spentAt: 1 / 2, figuresPerCavalryStand: 3 } as const;

export function wornSpent(start: number, now: number): 'fresh' | 'worn' | 'spent' {
  if (!(start > 0) || !(now >= 0) || now > start) throw new RangeError(`strength must be 0 ≤ now ≤ start, start > 0`);
  const lost = (start - now) / start;
  return lost >= STRENGTH.spentAt ? 'spent' : lost >= STRENGTH.wornAt ? 'worn' : 'fresh';
}

/** C14: game length and victory. */
export const VICTORY = {
  turns: 8,
  mesBrokenForDefeat: 1 / 2, // 50% or more of its MEs (by starting count) broken or removed
  vpPerLossStep: 1, // +1 per full 5% of the enemy's starting strength lost
  lossStep: 0.05,
  vpPerObjective: 3,
  objectiveRadius: 3,
} as const;
