/**
 * Napoleon's Eagles: charges and close actions as pure rule functions [p.13-15, p.19] (digest §6.6, §6.11.3). Not yet
 * wired into a game: every function takes plain numbers and flags, returns the modifiers it applied (each citing its
 * page or ADAPTATION) and an EXACT distribution over the outcome classes the rules distinguish (probabilities from
 * integer counts of the dice, summing to 1), with a helper giving dice faces consistent with a chosen class. No
 * randomness: faces are drawn from a `Uniform` the caller supplies.
 *
 * The procedures (THE BOOK WINS; the digest's ADAPTATIONs where the book is silent):
 * - Infantry vs infantry or artillery, cavalry vs cavalry [p.13]: 1 contact, 2 defender's morale (one check),
 *   3 defence action available, 4 defence action (fire / face / formation; the changes need a check), 5 charger's
 *   morale, 6 melee MV × D6, 7 casualties (D6 + modifiers on the chart), 8 loser's morale, 9 fatigue +1 both.
 * - Cavalry against infantry or artillery [p.14]: 2 the defender's check (two if the cavalry is in echelon [p.7]),
 *   failure = ridden down; 4 reaction distance; 5 the cavalry's check; 6 ride-down unless square or a line held from
 *   the front with ≥ 1.5 infantry per cavalry figure; 7 ridden-down units check again (−1); 8 fatigue +1 both.
 * - Buildings [p.19]: D6 each side with the block modifiers, higher wins, an unmodified 6 kills two.
 *
 * Interpretations (book vs digest) are listed in `CLOSE_READINGS` below and cited inline.
 */
import type { Dist, Uniform } from '../../core/dice.ts';
import type { Options } from './scenario.ts';
import {
  BUILDINGS,
  BUILDING_FIGHT_MODIFIERS,
  type BuildingFightId,
  CASUALTY_ROLL_MODIFIERS,
  type EnfiladeKind,
  FATIGUE_PENALTY,
  type FatigueLevel,
  MELEE_MODIFIERS,
  MELEE_VALUE_FLOOR,
  MORALE_BONUSES,
  MORALE_MODIFIERS,
  type MeleeInput,
  type MeleeModifierId,
  type MoraleModifierId,
  OUT_OF_CONTROL_MODIFIERS,
  type OutOfControlId,
  buildingSuperiority,
  casualtyMoraleModifier,
  cavalryReaction,
  closeActionCasualties,
  enfiladeValue,
  fatigueAfter,
  lineHoldsAgainstCavalry,
  meleeValue,
  outOfControl,
  outnumberedModifier,
  rideDownCasualties,
} from './tables.ts';

/** Interpretations made here, book against digest; each is cited where used. */
export const CLOSE_READINGS: readonly string[] = [
  '1. [p.13] step 4 "+2 to the die roll" and step 8 "+2 to the die roll" are favourable: +2 to the modified morale ' +
    '(A-66; a lower D20 passes, so a literal +2 on the die would hurt).',
  '2. [p.13] step 4\'s +2 "if the charging unit used both actions" applies in the p.13 procedure (infantry chargers, ' +
    'and cavalry against cavalry); against cavalry charging infantry or artillery the p.14 reaction distance decides.',
  '3. [p.13] step 7 column: the book reads "number of charging figures in contact (melee frontage)", the digest ' +
    "(A-59) the rolling side's own figures in contact: scenario option casualtyColumn ('ownInContact' default, " +
    "'chargersInContact' = the book's words: both sides read the chargers' figures in contact).",
  '4. [p.13] step 7 "+1 for charging unit if attacking the flank": the book\'s "flank" is "flank (side or rear)" ' +
    '(p.12 morale list), so a rear charge also gets it (the digest says the same).',
  "5. [p.13] steps 7 and 8: casualties are applied before the loser's check, which counts them (−1 per two figures " +
    'lost, −3 beyond 50%, outnumbering with the figures left). Fatigue +1 is step 9, after the check.',
  '6. [p.14] ties: the higher UNMODIFIED MV wins but both roll casualties as losers (no +1); the tie-loser takes the ' +
    'step 8 check. Equal unmodified MVs: re-fought next period (A-33: casualties now as losers, fatigue +1, no step 8).',
  '7. [p.14] cavalry in echelon: the infantry or artillery charged takes two step 2 checks and must pass both [p.7].',
  '8. [p.14] step 2 failure against cavalry = ridden down (A-60: ride-down casualties, the step 7 check, fatigue +1). ' +
    'A defender in retreat status that fails routs [p.12] (ridden down and routed; no second check).',
  '9. [p.14] cavalry turned back by a square or a held line retreats (the retreat procedure, no morale check, no ' +
    'melee, no casualties); step 8 fatigue +1 still applies to both (the cavalry closed).',
  '10. [p.14] ride-down casualties: floor(cavalry figures / 2) inflicted; 1 suffered if the defender had ≥ 6 figures ' +
    'before the ride-down (artillery: guns − hits, A-60).',
  '11. [p.13] A-65 several chargers: the defender rolls one melee die for all (Example-1; option defenderMeleeDice ' +
    "'perCharger' rolls one per charger), and one casualty die per pairing; it is the loser if it loses to any.",
  '12. [p.14] A-63 enfilade with several chargers: chargers on the same face as the first frontal one combine; flank ' +
    "and rear chargers take +10/+15 instead (option enfiladeChargers 'all' combines every charger).",
  '13. [p.19] block fights: a tie holds for the defender (A-73); no fatigue; the outside charger takes its step 5 ' +
    'check, the defenders none (infantry in buildings are exempt from morale checks).',
  '14. [p.14] a square fires ½ of its figures at charging cavalry: floor(N/2).',
  '15. [p.15] counter-charge morale: the raw rating, no modifiers; out-of-control roll: D20 + modifiers ≥ 20.',
];

// ---------------------------------------------------------------------------------------------------------------------
// Modifiers and small helpers
// ---------------------------------------------------------------------------------------------------------------------

/** One modifier applied, with where it comes from. */
export interface Mod {
  readonly id: string;
  readonly value: number;
  readonly cite: string;
}

const m = (id: string, value: number, cite: string): Mod => ({ id, value, cite });
const total = (mods: readonly Mod[]): number => mods.reduce((t, x) => t + x.value, 0);

/** Merge equal classes (by `key`) of a list of weighted outcomes, in order of first appearance. */
function merge<T>(items: readonly Dist<T>[], key: (v: T) => string): Dist<T>[] {
  const out = new Map<string, { value: T; p: number }>();
  for (const it of items) {
    if (it.p <= 0) continue;
    const k = key(it.value);
    const e = out.get(k);
    if (e) e.p += it.p;
    else out.set(k, { value: it.value, p: it.p });
  }
  return [...out.values()];
}

/** Uniform choice among `n` candidates. */
function choose<T>(cands: readonly T[], u: Uniform, what: string): T {
  if (!cands.length) throw new RangeError(`no dice faces give ${what}`);
  return cands[Math.min(cands.length - 1, Math.floor(u() * cands.length))]!;
}

const FACES6 = [1, 2, 3, 4, 5, 6] as const;
const FACES20 = Array.from({ length: 20 }, (_, i) => i + 1);

// ---------------------------------------------------------------------------------------------------------------------
// Who may charge whom [p.13-15, p.18-19] (digest 6.6.1)
// ---------------------------------------------------------------------------------------------------------------------

/** `crew`: a battery's crew without its guns, in the open (A-51: eliminated on contact, no close action). */
export type ChargeTarget = 'infantry' | 'screen' | 'cavalry' | 'artillery' | 'block' | 'caisson' | 'crew';

/**
 * Digest 6.6.1: may `charger` charge `target`? Infantry may not charge cavalry [p.15] nor skirmish screens (formed
 * infantry pushes them back, A-36); cavalry may charge screens [p.19] but not building blocks (digest ADAPTATION);
 * skirmishers and artillery never charge; infantry charges from line or column, cavalry from line, column or
 * echelon; not out of command [p.16], not in retreat status [p.12], not already locked in a close action;
 * cavalry never in or into woods [p.19].
 */
export function mayCharge(
  charger: {
    readonly kind: 'infantry' | 'cavalry' | 'artillery';
    readonly formation: 'line' | 'column' | 'echelon' | 'roadColumn' | 'square' | 'skirmish' | 'other';
    readonly outOfCommand?: boolean;
    readonly retreatStatus?: boolean;
    readonly locked?: boolean;
    readonly inWoods?: boolean;
  },
  target: ChargeTarget,
  targetInWoods = false,
): { readonly ok: boolean; readonly why: string } {
  const no = (why: string) => ({ ok: false, why });
  if (charger.kind === 'artillery') return no('artillery never charges (A-53)');
  if (charger.formation === 'skirmish') return no('skirmishers never charge (digest 6.6.1)');
  if (charger.outOfCommand) return no('out of command units cannot charge [p.16]');
  if (charger.retreatStatus) return no('units in retreat status cannot charge [p.12]');
  if (charger.locked) return no('already locked in a close action [p.13]');
  const from = charger.kind === 'infantry' ? ['line', 'column'] : ['line', 'column', 'echelon'];
  if (!from.includes(charger.formation)) return no(`${charger.kind} charges only from ${from.join(', ')} (A-53)`);
  if (charger.kind === 'infantry') {
    if (target === 'cavalry') return no('infantry cannot charge cavalry [p.15]');
    if (target === 'screen') return no('formed infantry pushes screens back (A-36)');
    return { ok: true, why: 'p.13' };
  }
  if (charger.inWoods || targetInWoods) return no('only infantry charges in woods [p.19]');
  if (target === 'block') return no('only infantry attacks building blocks (digest ADAPTATION, p.19)');
  return { ok: true, why: target === 'screen' ? 'p.19, A-61' : 'p.13-14' };
}

// ---------------------------------------------------------------------------------------------------------------------
// Morale checks [p.11-12] in close actions
// ---------------------------------------------------------------------------------------------------------------------

/** What a close-action morale check needs to know about the unit checking. */
export interface MoraleInput {
  /** The unit's morale rating (before modifiers). */
  readonly rating: number;
  /** Figures at the start of the game and now (artillery: guns and guns − hits, A-50). */
  readonly originalFigures: number;
  readonly currentFigures: number;
  /** All enemy figures in the same close action, for the outnumbering −2/−3; 0 or absent: not counted. */
  readonly enemyFigures?: number;
  readonly fatigue?: FatigueLevel;
  readonly supported?: boolean;
  readonly chargingFlank?: boolean; // charger's checks: flank or rear (A-66 list, digest 6.7.3)
  readonly behindCover?: boolean;
  readonly squareVsCavalry?: boolean;
  readonly squareVsInfantry?: boolean;
  readonly disordered?: boolean;
  readonly retreatStatus?: boolean;
  readonly chargedByHeavyCavalry?: boolean; // infantry or light/medium cavalry charged by heavy cavalry
  readonly flankCharged?: boolean; // side or rear
  readonly lineOrColumnChargedByCavalry?: boolean;
  readonly chargingArtilleryHit?: boolean; // charging artillery's front and took hits from its defence fire
  /** [p.16] an attached leader's morale bonus (+1 division, +2 corps, +3 army, or his own). */
  readonly leaderBonus?: number;
  /** [p.11] the army or division failed its threshold this turn: −4. */
  readonly thresholdFailed?: boolean;
}

const MV = (id: MoraleModifierId) => MORALE_MODIFIERS.find((r) => r.id === id)!.value;

/** [p.12] the morale modifiers of a close-action check (cumulative), each cited. */
export function moraleModifiers(i: MoraleInput): Mod[] {
  const out: Mod[] = [];
  const add = (on: boolean | undefined, id: MoraleModifierId) => {
    if (on) out.push(m(id, MV(id), 'p.12'));
  };
  add(i.supported, 'supported');
  add(i.chargingFlank, 'chargingFlank');
  add(i.behindCover, 'behindCover');
  add(i.squareVsCavalry, 'squareVsCavalry');
  const lost = casualtyMoraleModifier(i.originalFigures, i.currentFigures);
  if (lost) out.push(m('casualties', lost, 'p.12 (−1 per two figures lost, −3 beyond 50%)'));
  // [p.12] retreat status includes the disordered penalty
  if (i.retreatStatus) add(true, 'retreatStatus');
  else add(i.disordered, 'disordered');
  add(i.squareVsInfantry, 'squareVsInfantry');
  add(i.chargedByHeavyCavalry, 'chargedByHeavyCavalry');
  add(i.flankCharged, 'flankCharged');
  add(i.lineOrColumnChargedByCavalry, 'lineOrColumnChargedByCavalry');
  add(i.chargingArtilleryHit, 'chargingArtilleryHit');
  const f = FATIGUE_PENALTY.morale[i.fatigue ?? 0];
  if (f) out.push(m(['', 'fatigued', 'tired', 'exhausted'][i.fatigue ?? 0]!, f, 'p.12'));
  if (i.enemyFigures) {
    const o = outnumberedModifier(i.currentFigures, i.enemyFigures);
    if (o) out.push(m(o === MV('outnumbered3') ? 'outnumbered3' : 'outnumbered2', o, 'p.12, A-66'));
  }
  if (i.leaderBonus) out.push(m('leader', i.leaderBonus, 'p.16'));
  if (i.thresholdFailed) out.push(m('thresholdFailed', MORALE_BONUSES.thresholdFailed, 'p.11'));
  return out;
}

/** A D20 morale check: the modifiers, the modified morale, and P(pass)/P(fail). */
export interface Check<T extends string> {
  readonly mods: readonly Mod[];
  readonly target: number;
  readonly dist: Dist<T>[];
}

/** P(D20 ≤ target), exact. */
export function passChance(target: number): number {
  return Math.max(0, Math.min(20, Math.floor(target))) / 20;
}

function checkDist<T extends string>(target: number, pass: T, fail: T, times = 1): Dist<T>[] {
  // exact from integer counts: k passing faces of 20, each of `times` checks
  const k = Math.max(0, Math.min(20, Math.floor(target))) ** times;
  const n = 20 ** times;
  return [
    { value: pass, p: k / n },
    { value: fail, p: (n - k) / n },
  ].filter((x) => x.p > 0);
}

/** [p.11-12] a plain close-action morale check: D20 ≤ modified morale passes. */
export function moraleCheck(i: MoraleInput, extra: readonly Mod[] = []): Check<'pass' | 'fail'> {
  const mods = [...moraleModifiers(i), ...extra];
  const target = i.rating + total(mods);
  return { mods, target, dist: checkDist(target, 'pass', 'fail') };
}

/** A D20 face that passes (≤ target) or fails (> target) a check at `target`. */
export function moraleFace(target: number, pass: boolean, u: Uniform): number {
  return choose(
    FACES20.filter((f) => f <= target === pass),
    u,
    `a ${pass ? 'pass' : 'fail'} at ${target}`,
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// Step 2: the defender's morale check [p.13, p.14]
// ---------------------------------------------------------------------------------------------------------------------

export type DefenderCheck = 'stands' | 'retreats' | 'routs' | 'riddenDown' | 'riddenDownRouts';

/**
 * Step 2 [p.13-14]: one check however many charged. `cavalryVsInfantryOrArtillery`: failure is a ride-down;
 * `echelon`: the cavalry is in echelon, two checks that must both pass [p.7]. A defender in retreat status that fails
 * routs [p.12]. Infantry in buildings are exempt [p.19]: they always stand.
 */
export function defenderCheck(
  i: MoraleInput,
  o: {
    readonly cavalryVsInfantryOrArtillery?: boolean;
    readonly echelon?: boolean;
    readonly inBuilding?: boolean;
  } = {},
): Check<DefenderCheck> & { readonly checks: number } {
  if (o.inBuilding) return { mods: [], target: 20, checks: 0, dist: [{ value: 'stands', p: 1 }] };
  const c = moraleCheck(i);
  const checks = o.cavalryVsInfantryOrArtillery && o.echelon ? 2 : 1;
  const fail: DefenderCheck = o.cavalryVsInfantryOrArtillery
    ? i.retreatStatus
      ? 'riddenDownRouts'
      : 'riddenDown'
    : i.retreatStatus
      ? 'routs'
      : 'retreats';
  return { mods: c.mods, target: c.target, checks, dist: checkDist(c.target, 'stands', fail, checks) };
}

// ---------------------------------------------------------------------------------------------------------------------
// Steps 3-4: the defence action [p.13-14]
// ---------------------------------------------------------------------------------------------------------------------

/**
 * Step 3 [p.13]: a defence action needs one unused action or a stand marker from this period; none if both actions
 * were used. Digest ADAPTATION: none in retreat status.
 */
export function defenceActionAvailable(o: {
  readonly unusedActions: number;
  readonly standMarker: boolean;
  readonly retreatStatus: boolean;
}): boolean {
  return !o.retreatStatus && (o.unusedActions >= 1 || o.standMarker);
}

export interface DefenceChange extends Check<'changed' | 'disordered'> {
  /** Whether a facing or formation change may be tried at all. */
  readonly allowed: boolean;
  /** [p.14] the cavalry's reaction distance (charge distance, +10" if it changed facing or formation first). */
  readonly reactionDistance?: number;
}

/**
 * Step 4 [p.13-14]: a defence facing or formation change needs a morale check; failure = disordered and (digest
 * ADAPTATION A-58) no change. Against an infantry charger (p.13 procedure, also cavalry vs cavalry), +2 if the charger
 * used both actions before contact (CLOSE_READINGS 1-2). Against cavalry charging infantry or artillery [p.14]: not
 * allowed at a reaction distance ≤ 10", +2 at ≥ 16".
 */
export function defenceChangeCheck(
  i: MoraleInput,
  o: {
    readonly chargerUsedBothActions?: boolean;
    readonly cavalry?: { readonly chargeDistance: number; readonly changedBeforeCharge: boolean };
  },
): DefenceChange {
  const extra: Mod[] = [];
  let reactionDistance: number | undefined;
  if (o.cavalry) {
    const r = cavalryReaction(o.cavalry.chargeDistance, o.cavalry.changedBeforeCharge);
    reactionDistance = r.distance;
    if (!r.changesAllowed) return { allowed: false, reactionDistance, mods: [], target: 0, dist: [] };
    if (r.bonus) extra.push(m('reaction16', r.bonus, 'p.14 (charged from 16" or more; A-66)'));
  } else if (o.chargerUsedBothActions)
    extra.push(m('chargerUsedBothActions', MORALE_BONUSES.defenceChangeChargerUsedBothActions, 'p.13 step 4; A-66'));
  const c = moraleCheck(i, extra);
  return {
    allowed: true,
    ...(reactionDistance === undefined ? {} : { reactionDistance }),
    mods: c.mods,
    target: c.target,
    dist: checkDist(c.target, 'changed', 'disordered'),
  };
}

/** [p.14] a square fires ½ of its figures at charging cavalry (1/8 a side, four ranks deep): floor(N/2). */
export function squareDefenceFireFigures(figures: number): number {
  return Math.floor(figures / 2);
}

// ---------------------------------------------------------------------------------------------------------------------
// Step 5: the charger's morale check [p.13-15]
// ---------------------------------------------------------------------------------------------------------------------

export interface ChargerCheck extends Check<'closes' | 'fails'> {
  /** Fatigue the charger gains if it fails (cavalry +1 [p.5, p.14]; infantry 0 [p.13]). */
  readonly fatigueIfFails: number;
}

/**
 * Step 5 [p.13]: pass = closes; fail = retreat or stop 2" short (the charger's choice), close action over. Cavalry
 * that does not close gains a fatigue level [p.5, p.14, p.15]; out-of-control cavalry +3 to close [p.15].
 */
export function chargerCheck(
  i: MoraleInput,
  o: { readonly cavalry: boolean; readonly outOfControl?: boolean },
): ChargerCheck {
  const extra = o.outOfControl ? [m('outOfControlClosing', MORALE_BONUSES.outOfControlClosing, 'p.15')] : [];
  const c = moraleCheck(i, extra);
  return { ...c, dist: checkDist(c.target, 'closes', 'fails'), fatigueIfFails: o.cavalry ? 1 : 0 };
}

// ---------------------------------------------------------------------------------------------------------------------
// Step 6: melee values and the melee roll [p.13-14]
// ---------------------------------------------------------------------------------------------------------------------

const MELEE_MOD = (id: MeleeModifierId) => MELEE_MODIFIERS.find((r) => r.id === id)!.value;

/** [p.13] the modified MV (tables.meleeValue) with every modifier it applied, cited. A-62 floors it at 5. */
export function meleeValueMods(i: MeleeInput): { readonly value: number; readonly mods: readonly Mod[] } {
  const mods: Mod[] = [];
  const add = (on: boolean, id: MeleeModifierId, cite = 'p.13') => {
    if (on) mods.push(m(id, MELEE_MOD(id), cite));
  };
  add(i.squareVsInfantry, 'squareVsInfantry');
  add(i.higherGround, 'higherGround');
  add(i.behind === 'hedge', 'behindHedge');
  add(i.behind === 'wall', 'behindWall');
  add(i.echelonVsCavalry, 'echelonVsCavalry');
  add(i.lightOrMediumVsHeavy, 'lightOrMediumVsHeavy');
  add(i.partialContact, 'partialContact', 'p.13, p.14');
  add(i.retreatStatus, 'retreatStatus', 'p.13, p.12');
  add(!i.retreatStatus && i.disordered, 'disordered');
  add(i.roadColumn, 'roadColumn');
  const f = FATIGUE_PENALTY.melee[i.fatigue];
  if (f) mods.push(m(['', 'fatigued', 'tired', 'exhausted'][i.fatigue]!, f, 'p.13'));
  add(i.enfilade, 'enfilade', 'p.13, p.14');
  add(i.arc === 'flankSide', 'flankSide');
  add(i.arc === 'flankRear', 'flankRear');
  if (i.leaderBonus) mods.push(m('leader', i.leaderBonus, 'p.16'));
  const raw = i.base + total(mods);
  const value = meleeValue(i);
  if (value !== raw) mods.push(m('floor', value - raw, `A-62 (floored at ${MELEE_VALUE_FLOOR})`));
  return { value, mods };
}

/** A neutral MeleeInput: base only; spread the flags that apply over it. */
export function meleeInput(base: number, over: Partial<MeleeInput> = {}): MeleeInput {
  return {
    base,
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
    ...over,
  };
}

/** One side in the melee roll: the modified MV and the unmodified (base) MV for ties [p.14]. */
export interface MeleeSide {
  readonly mv: number;
  readonly base: number;
}

/**
 * The melee result: a clear win, a tie decided by the higher unmodified MV (both then roll casualties as losers), or a
 * re-fight next period (equal unmodified MVs) [p.14].
 */
export type MeleeResult = 'chargerWins' | 'defenderWins' | 'tieChargerWins' | 'tieDefenderWins' | 'refight';

/** [p.13-14] the result of a given pair of faces. */
export function meleeResultOf(charger: MeleeSide, defender: MeleeSide, cFace: number, dFace: number): MeleeResult {
  const a = charger.mv * cFace;
  const b = defender.mv * dFace;
  if (a > b) return 'chargerWins';
  if (b > a) return 'defenderWins';
  if (charger.base > defender.base) return 'tieChargerWins';
  if (defender.base > charger.base) return 'tieDefenderWins';
  return 'refight';
}

/** Step 6 [p.13]: each side rolls 1D6 × its modified MV; exact over the 36 pairs of faces. */
export function meleeRoll(charger: MeleeSide, defender: MeleeSide): Dist<MeleeResult>[] {
  const items: Dist<MeleeResult>[] = [];
  for (const c of FACES6)
    for (const d of FACES6) items.push({ value: meleeResultOf(charger, defender, c, d), p: 1 / 36 });
  return merge(items, (v) => v);
}

/** Faces [charger, defender] giving `result`. */
export function meleeFaces(charger: MeleeSide, defender: MeleeSide, result: MeleeResult, u: Uniform): [number, number] {
  const pairs: [number, number][] = [];
  for (const c of FACES6)
    for (const d of FACES6) if (meleeResultOf(charger, defender, c, d) === result) pairs.push([c, d]);
  return choose(pairs, u, result);
}

/** Who won, and whether both count as losers for casualties [p.14]. */
export function meleeWinner(r: MeleeResult): {
  readonly winner: 'charger' | 'defender' | null;
  readonly bothLosersForCasualties: boolean;
} {
  if (r === 'chargerWins' || r === 'tieChargerWins')
    return { winner: 'charger', bothLosersForCasualties: r !== 'chargerWins' };
  if (r === 'defenderWins' || r === 'tieDefenderWins')
    return { winner: 'defender', bothLosersForCasualties: r !== 'defenderWins' };
  return { winner: null, bothLosersForCasualties: true };
}

/**
 * [p.13] several chargers against one defender: MV per pairing (`pairs[k]`: charger k and the defender's MV against
 * it), each charger its own die; A-65 the defender one die for all (option defenderMeleeDice 'perCharger': one per
 * pairing). Classes: the results per charger, in order.
 */
export function severalChargersMelee(
  pairs: readonly { readonly charger: MeleeSide; readonly defender: MeleeSide }[],
  defenderDice: Options['defenderMeleeDice'] = 'one',
): Dist<readonly MeleeResult[]>[] {
  const key = (v: readonly MeleeResult[]) => v.join(',');
  const cross = (per: readonly Dist<MeleeResult>[][]): Dist<readonly MeleeResult[]>[] => {
    let acc: Dist<readonly MeleeResult[]>[] = [{ value: [], p: 1 }];
    for (const d of per) {
      const next: Dist<readonly MeleeResult[]>[] = [];
      for (const a of acc) for (const x of d) next.push({ value: [...a.value, x.value], p: a.p * x.p });
      acc = next;
    }
    return acc;
  };
  if (defenderDice === 'perCharger') return merge(cross(pairs.map((q) => meleeRoll(q.charger, q.defender))), key);
  const items: Dist<readonly MeleeResult[]>[] = [];
  for (const d of FACES6) {
    const per = pairs.map((q) =>
      merge(
        FACES6.map((c) => ({ value: meleeResultOf(q.charger, q.defender, c, d), p: 1 / 6 })),
        (v) => v,
      ),
    );
    for (const x of cross(per)) items.push({ value: x.value, p: x.p / 6 });
  }
  return merge(items, key);
}

/** the defender is the loser if it loses to any charger; each charger that lost is a loser too. */
export function severalChargersLosers(results: readonly MeleeResult[]): {
  readonly defenderLost: boolean;
  readonly chargersLost: readonly boolean[];
} {
  return {
    defenderLost: results.some((r) => meleeWinner(r).winner === 'charger'),
    chargersLost: results.map((r) => meleeWinner(r).winner === 'defender'),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Enfilade [p.14]
// ---------------------------------------------------------------------------------------------------------------------

/** [p.14] enfilade value from front-rank figures (artillery: actual guns); a square N/8 figures (A-63, digest 6.6.9). */
export function enfilade(
  kind: EnfiladeKind,
  frontRankFiguresOrGuns: number,
  square?: { readonly figures: number },
): number {
  return enfiladeValue(kind, square ? Math.floor(square.figures / 8) : frontRankFiguresOrGuns);
}

/**
 * [p.14] the +5 enfilade bonus (2x or more) of a defender against its chargers. A-63 (option enfiladeChargers
 * 'sameFace', default): only chargers on the same face as the first frontal charger combine; flank and rear chargers
 * stay out. 'all': every charger combines. Returns, per charger, whether it gets +5, and whether the defender gets
 * +5 against it.
 */
export function enfiladeBonuses(
  defender: number,
  chargers: readonly {
    readonly value: number;
    readonly arc: 'front' | 'flankSide' | 'flankRear';
    readonly face?: string;
  }[],
  rule: Options['enfiladeChargers'] = 'sameFace',
): { readonly combined: number; readonly charger: readonly boolean[]; readonly defender: readonly boolean[] } {
  const first = chargers.find((c) => c.arc === 'front');
  const inIt = chargers.map((c) => (rule === 'all' ? true : !!first && c.arc === 'front' && c.face === first.face));
  const combined = chargers.reduce((t, c, k) => t + (inIt[k] ? c.value : 0), 0);
  const att = combined > 0 && combined >= 2 * defender;
  const def = defender > 0 && combined > 0 && defender >= 2 * combined;
  return { combined, charger: inIt.map((x) => x && att), defender: inIt.map((x) => x && def) };
}

// ---------------------------------------------------------------------------------------------------------------------
// Step 7: casualties [p.13]
// ---------------------------------------------------------------------------------------------------------------------

export interface CasualtyRoll {
  readonly mods: readonly Mod[];
  /** The figures count that picks the chart's column. */
  readonly column: number;
  /** Casualties inflicted on the opponent. */
  readonly dist: Dist<number>[];
}

/**
 * Step 7 [p.13]: one D6 + modifiers on the Close Action Casualty Chart; the result is inflicted on the opponent.
 * Column (CLOSE_READINGS 3): `ownInContact` (A-59 default) the rolling side's own figures in contact;
 * `chargersInContact` the charger's figures in contact (the book's words), the same for both sides.
 */
export function casualtyRoll(o: {
  readonly ownInContact: number;
  readonly chargersInContact: number;
  readonly winner: boolean; // a clear winner (false for both sides after a tie)
  readonly cavalryVsCavalry: boolean;
  readonly chargerOnFlank: boolean; // this side is a charger that struck the flank or rear
  readonly column?: Options['casualtyColumn'];
}): CasualtyRoll {
  const mods: Mod[] = [];
  if (o.winner) mods.push(m('winner', CASUALTY_ROLL_MODIFIERS.winner, 'p.13'));
  if (o.cavalryVsCavalry) mods.push(m('cavalryVsCavalry', CASUALTY_ROLL_MODIFIERS.cavalryVsCavalry, 'p.13'));
  if (o.chargerOnFlank) mods.push(m('chargerOnFlank', CASUALTY_ROLL_MODIFIERS.chargerOnFlank, 'p.13, p.12'));
  const column = (o.column ?? 'ownInContact') === 'ownInContact' ? o.ownInContact : o.chargersInContact;
  const t = total(mods);
  const dist = merge(
    FACES6.map((f) => ({ value: closeActionCasualties(f + t, column), p: 1 / 6 })),
    (v) => String(v),
  ).sort((a, b) => a.value - b.value);
  return { mods, column, dist };
}

/**
 * [p.13 step 7] a melee's two casualty rolls (A-65: one each way), for the result's winner `w`: [the charger's, the
 * defender's], each side's own figures in contact (or the charger's, per `column`); a charger on the flank or rear adds
 * its +1 to the charger's.
 */
export function meleeCasualtyRolls(
  w: { readonly winner: 'charger' | 'defender' | null; readonly bothLosersForCasualties: boolean },
  chargerInContact: number,
  defenderInContact: number,
  cavalryVsCavalry: boolean,
  chargerOnFlank: boolean,
  column: Options['casualtyColumn'] | undefined,
): [CasualtyRoll, CasualtyRoll] {
  const side = (who: 'charger' | 'defender', ownInContact: number, flank: boolean) =>
    casualtyRoll({
      ownInContact,
      chargersInContact: chargerInContact,
      winner: w.winner === who && !w.bothLosersForCasualties,
      cavalryVsCavalry,
      chargerOnFlank: flank,
      column,
    });
  return [side('charger', chargerInContact, chargerOnFlank), side('defender', defenderInContact, false)];
}

/** A D6 face giving `casualties` on the chart with modifier `mod` at `column`. */
export function casualtyFace(column: number, mod: number, casualties: number, u: Uniform): number {
  return choose(
    FACES6.filter((f) => closeActionCasualties(f + mod, column) === casualties),
    u,
    `${casualties} casualties`,
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// Step 8: the loser's morale check; step 9 fatigue [p.13, p.12]
// ---------------------------------------------------------------------------------------------------------------------

export type LoserResult = 'retreats' | 'routs';

/**
 * Step 8 [p.13]: fail = rout, pass = retreat; +2 if the loser was the charging unit (A-66: favourable). A loser in
 * retreat status routs without checking [p.12]. Artillery that loses abandons its guns [p.12, p.14].
 */
export function loserCheck(
  i: MoraleInput,
  o: { readonly wasCharger: boolean; readonly artillery?: boolean },
): Check<LoserResult> & { readonly gunsAbandoned: boolean } {
  const gunsAbandoned = !!o.artillery;
  if (i.retreatStatus)
    return {
      mods: [m('retreatStatus', 0, 'p.12: loses in retreat status → routs')],
      target: 0,
      gunsAbandoned,
      dist: [{ value: 'routs', p: 1 }],
    };
  const extra = o.wasCharger ? [m('loserWasCharger', MORALE_BONUSES.loserWasCharger, 'p.13 step 8; A-66')] : [];
  const c = moraleCheck(i, extra);
  return { ...c, gunsAbandoned, dist: checkDist(c.target, 'retreats', 'routs') };
}

/** Step 9 [p.13] / cavalry step 8 [p.14]: fatigue +1 (A-5: capped at Exhausted). */
export function closeActionFatigue(level: FatigueLevel): FatigueLevel {
  return fatigueAfter(level, 1);
}

/** [p.12] a unit in retreat status that wins a close action recovers at once; one that loses routs (6.6.15). */
export function retreatStatusAfter(won: boolean): 'recovers' | 'routs' {
  return won ? 'recovers' : 'routs';
}

/**
 * C-2 / A-65: a close action whose defender has already retreated or routed is cancelled; the charger stays at its
 * contact position, and cavalry still gains +1 fatigue.
 */
export function cancelledCloseAction(chargerIsCavalry: boolean): {
  readonly cancelled: true;
  readonly chargerFatigue: number;
} {
  return { cancelled: true, chargerFatigue: chargerIsCavalry ? 1 : 0 };
}

// ---------------------------------------------------------------------------------------------------------------------
// Steps 5-9 combined: one charger against one defender (the common case), memoised
// ---------------------------------------------------------------------------------------------------------------------

export interface CloseSide {
  readonly morale: MoraleInput;
  readonly melee: MeleeInput;
  /** Own figures in contact. */
  readonly inContact: number;
  readonly cavalry: boolean;
  readonly artillery?: boolean;
}

export interface CloseActionInput {
  readonly charger: CloseSide;
  readonly defender: CloseSide;
  /** The charger's step 5 morale input may differ from its melee-time one (e.g. took hits from defence fire). */
  readonly chargerOutOfControl?: boolean;
  /** a re-fought tie starts at step 6, with no step 5 check. */
  readonly refight?: boolean;
  /**
   * [p.15] A-64: the defender is cavalry that counter-charged its own charger: both count as chargers, so a losing
   * defender takes the step 8 check with +2 too.
   */
  readonly defenderCharged?: boolean;
  readonly options?: Partial<Pick<Options, 'casualtyColumn'>>;
}

/** One class of the whole resolution from step 5. */
export interface CloseOutcome {
  readonly closed: boolean;
  readonly melee: MeleeResult | null;
  readonly winner: 'charger' | 'defender' | null;
  readonly chargerLosses: number;
  readonly defenderLosses: number;
  /** The loser's step 8 result (null: no loser, i.e. not closed or re-fight). */
  readonly loser: LoserResult | null;
  /** A winner in retreat status recovers at once [p.12]. */
  readonly winnerRecovers: boolean;
  readonly gunsAbandoned: boolean;
  readonly chargerFatigue: number;
  readonly defenderFatigue: number;
}

const outcomeKey = (o: CloseOutcome) =>
  `${o.closed}|${o.melee}|${o.winner}|${o.chargerLosses}|${o.defenderLosses}|${o.loser}|${o.winnerRecovers}|${o.gunsAbandoned}|${o.chargerFatigue}|${o.defenderFatigue}`;

const memo = new Map<string, Dist<CloseOutcome>[]>();
const MEMO_MAX = 4096;

/**
 * Steps 5-9 [p.13-14] of a close action between one charger and one defender (infantry vs infantry or artillery,
 * cavalry vs cavalry), after the defender stood (step 2) and any defence action (step 4) has been applied to the
 * inputs. Exact over the charger's D20, both melee D6s, both casualty D6s and the loser's D20 (CLOSE_READINGS 5-6).
 */
export function resolveCloseAction(i: CloseActionInput): Dist<CloseOutcome>[] {
  const key = JSON.stringify(i);
  const hit = memo.get(key);
  if (hit) return hit;
  const out: Dist<CloseOutcome>[] = [];
  const c5 = chargerCheck(i.charger.morale, { cavalry: i.charger.cavalry, outOfControl: i.chargerOutOfControl });
  const pClose = i.refight ? 1 : (c5.dist.find((d) => d.value === 'closes')?.p ?? 0);
  const none = {
    melee: null,
    winner: null,
    chargerLosses: 0,
    defenderLosses: 0,
    loser: null,
    winnerRecovers: false,
    gunsAbandoned: false,
    defenderFatigue: 0,
  } as const;
  if (pClose < 1) out.push({ value: { ...none, closed: false, chargerFatigue: c5.fatigueIfFails }, p: 1 - pClose });
  if (pClose > 0) {
    const cmv = meleeValue(i.charger.melee);
    const dmv = meleeValue(i.defender.melee);
    const melee = meleeRoll({ mv: cmv, base: i.charger.melee.base }, { mv: dmv, base: i.defender.melee.base });
    const cvc = i.charger.cavalry && i.defender.cavalry;
    const flank = i.charger.melee.arc !== 'front';
    const col = i.options?.casualtyColumn ?? 'ownInContact';
    for (const r of melee) {
      const w = meleeWinner(r.value);
      const [cc, dc] = meleeCasualtyRolls(w, i.charger.inContact, i.defender.inContact, cvc, flank, col);
      for (const toDef of cc.dist)
        for (const toChg of dc.dist) {
          const p = pClose * r.p * toDef.p * toChg.p;
          const base = {
            closed: true,
            melee: r.value,
            winner: w.winner,
            chargerLosses: toChg.value,
            defenderLosses: toDef.value,
            chargerFatigue: 1,
            defenderFatigue: 1,
          };
          if (!w.winner) {
            out.push({ value: { ...base, loser: null, winnerRecovers: false, gunsAbandoned: false }, p });
            continue;
          }
          const chargerLost = w.winner === 'defender';
          const los = chargerLost ? i.charger : i.defender;
          const win = chargerLost ? i.defender : i.charger;
          const lossesL = chargerLost ? toChg.value : toDef.value;
          const lossesW = chargerLost ? toDef.value : toChg.value;
          const lc = loserCheck(
            {
              ...los.morale,
              currentFigures: Math.max(0, los.morale.currentFigures - lossesL),
              ...(los.morale.enemyFigures ? { enemyFigures: Math.max(0, los.morale.enemyFigures - lossesW) } : {}),
            },
            { wasCharger: chargerLost || !!i.defenderCharged, artillery: los.artillery },
          );
          for (const l of lc.dist)
            out.push({
              value: {
                ...base,
                loser: l.value,
                winnerRecovers: !!win.morale.retreatStatus,
                gunsAbandoned: lc.gunsAbandoned,
              },
              p: p * l.p,
            });
        }
    }
  }
  const res = merge(out, outcomeKey);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(key, res);
  return res;
}

// ---------------------------------------------------------------------------------------------------------------------
// Cavalry against infantry or artillery: ride-downs, squares [p.14-15]
// ---------------------------------------------------------------------------------------------------------------------

export type RideDownDecision =
  | 'column'
  | 'lineHeld'
  | 'lineRiddenDown'
  | 'outsideFrontArc'
  | 'square'
  | 'artillery'
  | 'faced';

/**
 * Step 6 [p.14-15] if the cavalry closed: the target is ridden down except infantry in square, or an infantry line hit
 * from the front with ≥ 1.5 infantry figures per cavalry figure (A-32: front ranks, exactly; fractions favour the
 * cavalry). Half or more of the cavalry starting outside the 45° front arc rides the unit down unless it faced the
 * charge or formed square (step 3). Artillery has no exception.
 */
export function rideDownDecision(o: {
  readonly defender: 'infantry' | 'artillery';
  readonly formation: 'line' | 'column' | 'square' | 'other';
  /** Half or more of the cavalry started outside the infantry's 45° front arc. */
  readonly outsideFrontArc: boolean;
  /** The infantry turned to face the charge in its defence action (then the charge counts as frontal). */
  readonly facedCharge?: boolean;
  /** Front-rank figures of the line part charged, and of the charging cavalry. */
  readonly lineFigures?: number;
  readonly cavalryFrontRank?: number;
}): { readonly riddenDown: boolean; readonly why: RideDownDecision; readonly cite: string } {
  if (o.defender === 'artillery') return { riddenDown: true, why: 'artillery', cite: 'p.14' };
  if (o.formation === 'square') return { riddenDown: false, why: 'square', cite: 'p.14' };
  if (o.outsideFrontArc && !o.facedCharge) return { riddenDown: true, why: 'outsideFrontArc', cite: 'p.14-15' };
  if (o.formation === 'line') {
    const held = lineHoldsAgainstCavalry(o.lineFigures ?? 0, o.cavalryFrontRank ?? 0);
    return held
      ? { riddenDown: false, why: 'lineHeld', cite: 'p.14-15, A-32' }
      : { riddenDown: true, why: 'lineRiddenDown', cite: 'p.14-15, A-32' };
  }
  return { riddenDown: true, why: 'column', cite: 'p.15' };
}

/** [p.14] ride-down casualties (CLOSE_READINGS 10). */
export function rideDownLosses(
  cavalryFigures: number,
  defenderFigures: number,
): { readonly toDefender: number; readonly toCavalry: number } {
  const r = rideDownCasualties(cavalryFigures, defenderFigures);
  return { toDefender: r.inflicted, toCavalry: r.suffered };
}

/**
 * Step 7 [p.14]: a ridden-down unit checks again with −1 (ridden down); fail = rout, pass = retreat. A-60: the
 * ride-down casualties are applied first and counted. Ridden-down artillery abandons its guns. Already in retreat
 * status: routs (CLOSE_READINGS 8).
 */
export function riddenDownCheck(
  i: MoraleInput,
  artillery = false,
): Check<LoserResult> & { readonly gunsAbandoned: boolean } {
  if (i.retreatStatus)
    return {
      mods: [m('retreatStatus', 0, 'p.12: fails in retreat status → routs')],
      target: 0,
      gunsAbandoned: artillery,
      dist: [{ value: 'routs', p: 1 }],
    };
  const c = moraleCheck(i, [m('riddenDown', MV('riddenDown'), 'p.12, p.14')]);
  return { ...c, gunsAbandoned: artillery, dist: checkDist(c.target, 'retreats', 'routs') };
}

/** One class of a cavalry charge against infantry or artillery, from step 2. */
export interface CavalryChargeOutcome {
  readonly result: 'defenderRiddenDown' | 'cavalryFailed' | 'cavalryTurnedBack';
  /** The step 2 failure or a ride-down after closing. */
  readonly atStep: 2 | 5 | 6;
  readonly defenderLosses: number;
  readonly cavalryLosses: number;
  readonly defender: 'stands' | LoserResult;
  readonly cavalryFatigue: number;
  readonly defenderFatigue: number;
}

/**
 * Steps 2-8 [p.14] of cavalry charging infantry or artillery, exact over every D20: the defender's step 2 check (two
 * if in echelon), the cavalry's step 5 check, the ride-down decision (given, from rideDownDecision after any defence
 * action), the ride-down casualties and the step 7 check. `defender.morale` is the step 2 input; the step 7 check
 * counts the ride-down casualties.
 */
export function resolveCavalryCharge(i: {
  readonly cavalry: { readonly morale: MoraleInput; readonly figures: number; readonly outOfControl?: boolean };
  readonly defender: {
    readonly morale: MoraleInput;
    readonly figures: number;
    readonly artillery?: boolean;
    readonly inBuilding?: boolean;
  };
  readonly echelon?: boolean;
  /** The ride-down decision if the cavalry closes. */
  readonly riddenDownIfCloses: boolean;
  /**
   * The step 2 check already rolled (its own chance node, so that a defence action can come between): 'stood' goes on
   * from step 5, 'failed' is the ride-down of step 2.
   */
  readonly from?: 'stood' | 'failed';
}): Dist<CavalryChargeOutcome>[] {
  const out: Dist<CavalryChargeOutcome>[] = [];
  const rideDown = (atStep: 2 | 6, p: number) => {
    const l = rideDownLosses(i.cavalry.figures, i.defender.figures);
    const morale = {
      ...i.defender.morale,
      currentFigures: Math.max(0, i.defender.morale.currentFigures - l.toDefender),
    };
    for (const c of riddenDownCheck(morale, i.defender.artillery).dist)
      out.push({
        value: {
          result: 'defenderRiddenDown',
          atStep,
          defenderLosses: l.toDefender,
          cavalryLosses: l.toCavalry,
          defender: c.value,
          cavalryFatigue: 1,
          defenderFatigue: 1,
        },
        p: p * c.p,
      });
  };
  const s2 = defenderCheck(i.defender.morale, {
    cavalryVsInfantryOrArtillery: true,
    echelon: i.echelon,
    inBuilding: i.defender.inBuilding,
  });
  const step2 =
    i.from === 'stood'
      ? [{ value: 'stands' as const, p: 1 }]
      : i.from === 'failed'
        ? [{ value: 'riddenDown' as const, p: 1 }]
        : s2.dist;
  for (const d of step2) {
    if (d.value !== 'stands') {
      rideDown(2, d.p);
      continue;
    }
    const c5 = chargerCheck(i.cavalry.morale, { cavalry: true, outOfControl: i.cavalry.outOfControl });
    for (const c of c5.dist) {
      const p = d.p * c.p;
      if (c.value === 'fails')
        out.push({
          value: {
            result: 'cavalryFailed',
            atStep: 5,
            defenderLosses: 0,
            cavalryLosses: 0,
            defender: 'stands',
            cavalryFatigue: 1,
            defenderFatigue: 0,
          },
          p,
        });
      else if (i.riddenDownIfCloses) rideDown(6, p);
      else
        out.push({
          value: {
            result: 'cavalryTurnedBack',
            atStep: 6,
            defenderLosses: 0,
            cavalryLosses: 0,
            defender: 'stands',
            cavalryFatigue: 1,
            defenderFatigue: 1,
          },
          p,
        });
    }
  }
  return merge(out, (v) => JSON.stringify(v));
}

// ---------------------------------------------------------------------------------------------------------------------
// Cavalry against skirmishers [p.19], counter-charges and out-of-control cavalry [p.15]
// ---------------------------------------------------------------------------------------------------------------------

/**
 * [p.19] A-61: cavalry charging a skirmish screen. No step 2 check; the cavalry's step 5 check; if it closes, the
 * `figuresInFrontage` skirmish figures are removed and the rest of the screen checks as a loser (fail → rout, pass →
 * retreat). The cavalry gains +1 fatigue either way and counts as the winner for the out-of-control roll.
 */
export function cavalryVsScreen(i: {
  readonly cavalry: MoraleInput;
  readonly screen: MoraleInput;
  readonly figuresInFrontage: number;
  readonly outOfControl?: boolean;
}): Dist<{ readonly closed: boolean; readonly removed: number; readonly screen: LoserResult | 'stands' | 'gone' }>[] {
  const out: Dist<{ closed: boolean; removed: number; screen: LoserResult | 'stands' | 'gone' }>[] = [];
  for (const c of chargerCheck(i.cavalry, { cavalry: true, outOfControl: i.outOfControl }).dist) {
    if (c.value === 'fails') {
      out.push({ value: { closed: false, removed: 0, screen: 'stands' }, p: c.p });
      continue;
    }
    const removed = Math.min(i.figuresInFrontage, i.screen.currentFigures);
    const left = i.screen.currentFigures - removed;
    if (left <= 0) {
      out.push({ value: { closed: true, removed, screen: 'gone' }, p: c.p });
      continue;
    }
    for (const l of loserCheck({ ...i.screen, currentFigures: left }, { wasCharger: false }).dist)
      out.push({ value: { closed: true, removed, screen: l.value }, p: c.p * l.p });
  }
  return out;
}

/** [p.15] counter-charge: a morale check with no modifiers (the raw rating). Fail: stays, loses the stand marker. */
export function counterChargeCheck(rating: number): Check<'charges' | 'stays'> {
  return { mods: [], target: rating, dist: checkDist(rating, 'charges', 'stays') };
}

/** [p.15] out-of-control roll (optional rule outOfControlCavalry): D20 + modifiers ≥ 20 (BOOK vs DIGEST 3). */
export function outOfControlCheck(o: {
  readonly guard?: boolean;
  /** The owner's choice when a leader is attached: −1 or +1 (0: none attached). */
  readonly leader?: -1 | 0 | 1;
  readonly cossacks?: boolean;
  readonly byOutOfControl?: boolean;
  readonly british?: boolean;
  readonly riddenDown?: boolean;
  readonly destroyed?: boolean;
}): Check<'outOfControl' | 'inControl'> {
  const mods: Mod[] = [];
  const v = (id: OutOfControlId) => OUT_OF_CONTROL_MODIFIERS.find((r) => r.id === id)!.values[0]!;
  const add = (on: boolean | undefined, id: OutOfControlId) => {
    if (on) mods.push(m(id, v(id), 'p.15'));
  };
  add(o.guard, 'guard');
  if (o.leader) mods.push(m('leaderAttached', o.leader, 'p.15'));
  add(o.cossacks, 'cossacks');
  add(o.byOutOfControl, 'byOutOfControl');
  add(o.british, 'british');
  add(o.riddenDown, 'riddenDown');
  add(o.destroyed, 'destroyed');
  const t = total(mods);
  const p = FACES20.filter((f) => outOfControl(f, t)).length / 20;
  return {
    mods,
    target: 20 - t,
    dist: [
      { value: 'outOfControl' as const, p },
      { value: 'inControl' as const, p: 1 - p },
    ].filter((x) => x.p > 0),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Close actions in buildings [p.19]
// ---------------------------------------------------------------------------------------------------------------------

export type Mostly = 'light' | 'guardsOrGrenadiers' | 'militia' | 'other';

export interface BlockFightSide {
  readonly figures: number;
  readonly mostly?: Mostly;
}

export interface BlockFightOutcome {
  readonly winner: 'attacker' | 'defender';
  /** Figures each side loses to the opponent's unmodified 6 (0 or 2). */
  readonly attackerLosses: number;
  readonly defenderLosses: number;
}

const BF = (id: BuildingFightId) => BUILDING_FIGHT_MODIFIERS.find((r) => r.id === id)!.value;

function blockSideMods(own: BlockFightSide, enemy: BlockFightSide, defenderExtras: readonly Mod[]): Mod[] {
  const mods: Mod[] = [...defenderExtras];
  const s = buildingSuperiority(own.figures, enemy.figures);
  if (s) mods.push(m(s === 1 ? 'twoToOne' : s === 2 ? 'threeToOne' : 'fourToOne', s, 'p.19'));
  if (own.mostly === 'light') mods.push(m('lightInfantry', BF('lightInfantry'), 'p.19'));
  if (own.mostly === 'guardsOrGrenadiers') mods.push(m('guardsOrGrenadiers', BF('guardsOrGrenadiers'), 'p.19'));
  if (own.mostly === 'militia') mods.push(m('militia', BF('militia'), 'p.19'));
  return mods;
}

/**
 * [p.19] an attack on one block side: each player rolls 1D6 + modifiers, the higher total wins (A-73: a tie holds for
 * the defender), an unmodified 6 costs the opponent two figures (both sides may). At most 6 attacking figures a side.
 * The loser is pushed out of the block; no fatigue. Exact over the 36 pairs.
 */
export function blockFight(i: {
  readonly attacker: BlockFightSide;
  readonly defender: BlockFightSide;
  /** The defender is in the building and the attacker is not (an outside charge). */
  readonly attackerOutside: boolean;
  readonly wallSide?: boolean;
}): {
  readonly attackerMods: readonly Mod[];
  readonly defenderMods: readonly Mod[];
  readonly dist: Dist<BlockFightOutcome>[];
} {
  if (i.attacker.figures > BUILDINGS.maxAttackersPerSide)
    throw new RangeError(`at most ${BUILDINGS.maxAttackersPerSide} figures may attack one side of a block [p.19]`);
  const dx: Mod[] = [];
  if (i.attackerOutside) dx.push(m('defenderInBuilding', BF('defenderInBuilding'), 'p.19'));
  if (i.wallSide) dx.push(m('wallSide', BF('wallSide'), 'p.19'));
  const attackerMods = blockSideMods(i.attacker, i.defender, []);
  const defenderMods = blockSideMods(i.defender, i.attacker, dx);
  const items: Dist<BlockFightOutcome>[] = [];
  for (const a of FACES6)
    for (const d of FACES6) items.push({ value: blockFightOf(attackerMods, defenderMods, a, d), p: 1 / 36 });
  return {
    attackerMods,
    defenderMods,
    dist: merge(items, (v) => `${v.winner}|${v.attackerLosses}|${v.defenderLosses}`),
  };
}

function blockFightOf(am: readonly Mod[], dm: readonly Mod[], a: number, d: number): BlockFightOutcome {
  const k = BUILDINGS.naturalSixKills;
  return {
    winner: a + total(am) > d + total(dm) ? 'attacker' : 'defender',
    attackerLosses: d === 6 ? k : 0,
    defenderLosses: a === 6 ? k : 0,
  };
}

/** Faces [attacker, defender] of a block fight giving `o`. */
export function blockFightFaces(
  attackerMods: readonly Mod[],
  defenderMods: readonly Mod[],
  o: BlockFightOutcome,
  u: Uniform,
): [number, number] {
  const pairs: [number, number][] = [];
  for (const a of FACES6)
    for (const d of FACES6) {
      const r = blockFightOf(attackerMods, defenderMods, a, d);
      if (r.winner === o.winner && r.attackerLosses === o.attackerLosses && r.defenderLosses === o.defenderLosses)
        pairs.push([a, d]);
    }
  return choose(pairs, u, 'that block fight');
}

/** [p.19] the whole unit retreats once the majority of its figures are pushed out of the town. */
export function mustLeaveTown(figuresOutside: number, figures: number): boolean {
  return figuresOutside * 2 > figures;
}

/** Sum check helper for tests and callers: the total probability of a distribution. */
export function mass<T>(d: readonly Dist<T>[]): number {
  return d.reduce((t, x) => t + x.p, 0);
}

/**
 * [p.19] in step 9 a block of 8 or more figures may fire out at troops outside buildings within 6" instead of
 * attacking: a 6 on one D6 inflicts two figure casualties. Null when it may not fire.
 */
export function blockFireOut(figures: number, range: number): Dist<number>[] | null {
  if (figures < BUILDINGS.fireOutMinFigures || range > BUILDINGS.fireOutRange) return null;
  return [
    { value: 0, p: 5 / 6 },
    { value: BUILDINGS.fireOutCasualties, p: 1 / 6 },
  ];
}
