/**
 * Napoleon's Eagles (1:30): morale, retreat, routing and surrender, fatigue and rest, threshold checks, leaders (bonus,
 * loss roll, staff officers) and command (radii, out-of-command, initiative, written orders' delays and misreads) as
 * pure rule functions over small explicit descriptions. Not yet wired into a game.
 *
 * Every check is an EXACT distribution over the outcome classes the rules distinguish (`Dist<T>` from engine/core/dice,
 * integer counts over 20, 400, 8000 … so the probabilities sum to 1), with a `…Faces` helper that draws dice consistent
 * with a chosen class for display. Nothing here draws a random number for the rules; the display helpers take a uniform
 * source from the caller.
 *
 * Sources: the rulebook `shared/seeds/napoleons-eagles.txt` (THE BOOK WINS) and the digest
 * `shared/rules/napoleons-eagles.md` §6.2, §6.7-6.9; `[p.N]` follows the digest's page map, `A-N` its ADAPTATIONs.
 * Where this file reads the book differently from the digest, or picks between two readings, it is in `READINGS`.
 *
 * Units: distances in the inputs are INCHES unless a name says otherwise; positions of shape.ts bodies and leaders are
 * 1/100" (`IN`), as in the engine state (A-8).
 */
import { type Dist, type Uniform, classify, sumDist } from '../../core/dice.ts';
import {
  IN,
  type Polygon,
  type Vec,
  dist,
  headingVec,
  onTable,
  polygonDistance,
  polygonsOverlap,
} from '../../geometry/geometry.ts';
import { type Body, centreOf, commandDistance, footprint, unitDistance } from './shape.ts';
import {
  type CavalryWeight,
  FATIGUE_INCREASE,
  FATIGUE_PENALTY,
  type FatigueLevel,
  FORCE_MARCH_MAX_LEVEL,
  INITIATIVE,
  LEADER_BONUS,
  MISREAD,
  MORALE_BONUSES,
  MORALE_DISTANCES,
  MORALE_MODIFIERS,
  type MisreadOrder,
  type MoraleModifierId,
  ORDER_CHANGE_DISTANCES,
  ORDER_CHANGE_MODIFIERS,
  ORDER_DISTANCES,
  type Order,
  type OrderChangeId,
  REFORM_MODIFIERS,
  REFORM_ORIGINAL_MORALE_MIN,
  THRESHOLD,
  THRESHOLD_MODIFIERS,
  type ThresholdModifierId,
  casualtyMoraleModifier,
  fatigueAfter,
  leaderLossMaxRoll,
  misreadOrder,
  orderDelay,
  outnumberedModifier,
  reformActions,
  retreatActions,
  thresholdDue,
} from './tables.ts';
import type { Formation, LeaderRole, LeaderStatic, Nationality, TroopClass, UnitKind, UnitStatus } from './types.ts';

/** How this file reads the book where the digest differs or the text allows two readings. */
export const READINGS: readonly string[] = [
  '1. [p.12] "-1 if the unit was ridden down by cavalry": the book gives no scope; the digest (6.7.3) limits it to the ' +
    'step 7 check. Here it applies to the step 7 check AND to any later check while the caller keeps the unit flagged ' +
    '`riddenDown` (types.ts UnitState.riddenDown: "reform +1, morale −1").',
  '2. [p.13, p.14] "add 2 (+2) to the die roll" (step 4) and "Add +2 to the die roll" (step 8) read as +2 to the ' +
    "modified morale, in the unit's favour (A-66): a LOWER D20 passes, so a literal +2 on the die would hurt.",
  '3. [p.11] "-3 if the original leader has been incapacitated" carries no "division" qualifier in the book, so it ' +
    'applies to the army roll too (the army commander lost); the digest (A-70) gives the army roll only Napoleon, ' +
    'Spanish and influence. The division-only modifiers (elite, Guard, militia, out of command) are worded "if the ' +
    'division …" and stay division-only.',
  '4. [p.11] "If the army passes, then the player must check each division": divisions are checked when the army ' +
    'passed OR was not due to roll; only an army failure (−4 to every unit) skips them (digest 5.2 "only if the army ' +
    'passes", read the same way).',
  '5. [p.12] surrounded: "the unit checks morale again" with the same modifiers; a unit in retreat status that fails ' +
    '(a rout) while surrounded surrenders without a second check ("A routing unit that is surrounded surrenders").',
  '6. [p.7] echelon: "two morale checks instead of the normal one": both dice are rolled and both must pass (digest).',
  '7. [p.15] a counter-charge check has "no modifiers": not even the threshold −4 or a leader\'s bonus.',
  '8. [p.5] rapid fire as a defence action: "+2 for the close action" in one sentence, +3 in the bullet and p.10: ' +
    'fatigueIncrease uses +3 (A-49, tables BOOK_READINGS 2) unless `rapidFireDefence: 2` is passed.',
  '9. [p.12] "-3 if charging artillery front and took hits from defensive fire": the charger\'s step 5 check only ' +
    '(digest); the book does not extend it to step 8.',
  '10. [p.16] staff officer: "award no bonuses … keep the command control distance open": morale 0, melee 0, the same ' +
    "command radius and the base initiative of the rank (digest 6.9); he starts detached at the lost leader's point.",
  "11. [p.16] command distances are straight lines (shape.ts commandDistance, A-12) unless the caller passes A-26's " +
    'command lines (`CommandOptions.lineLength`, command.ts: the path round enemy zones of control, opposing lines ' +
    'crossing); the game does (option commandLines "paths", the default), "straight" keeps the straight lines.',
  '12. [p.12] a battery\'s crew that abandons its guns retreats at the foot rate (10" an action); the book gives crews ' +
    'only their 6" "running for cover" rate [p.10].',
];

/** One modifier applied, with where it comes from. */
export interface Mod {
  readonly id: string;
  readonly value: number;
  /** Page and ADAPTATION, e.g. "p.12" or "p.13, A-66". */
  readonly cite: string;
}

const sumMods = (ms: readonly Mod[]): number => ms.reduce((t, m) => t + m.value, 0);
const moraleValue = (id: MoraleModifierId): number => MORALE_MODIFIERS.find((r) => r.id === id)!.value;
const clampInt = (n: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, n));

function pick<T>(xs: readonly T[], u: Uniform): T {
  if (!xs.length) throw new RangeError('no dice give that outcome');
  return xs[Math.min(xs.length - 1, Math.floor(u() * xs.length))]!;
}

/** Faces 1..k of one die. */
const faces = (k: number): number[] => Array.from({ length: k }, (_, i) => i + 1);

// =====================================================================================================================
// Unit morale checks [p.11-16]
// =====================================================================================================================

/**
 * Which check: `marked` step 10 [p.11]; close action [p.13-14] `charged` step 2, `defenceChange` step 4 (facing or
 * formation change), `charging` step 5, `riddenDown` step 7 (cavalry charges), `loser` step 8; `counterCharge` [p.15];
 * `surrounded` the second check of a unit that must retreat and cannot [p.12].
 */
export type MoraleCheck =
  | 'marked'
  | 'charged'
  | 'defenceChange'
  | 'charging'
  | 'riddenDown'
  | 'loser'
  | 'counterCharge'
  | 'surrounded';

/** The other side in a close action (all the enemy units in it, for the outnumbering count). */
export interface MoraleEnemy {
  readonly kind: UnitKind;
  /** Cavalry weight (heavy cavalry charging: −1 [p.12]). */
  readonly weight?: CavalryWeight;
  readonly formation?: Formation;
  /** Every enemy figure in the close action (A-66; artillery guns − hits). */
  readonly figures: number;
}

/** What a morale check needs to know. Optional flags default to false / absent. */
export interface MoraleInput {
  readonly check: MoraleCheck;
  readonly kind: UnitKind;
  readonly formation?: Formation;
  /** Cavalry: its weight (light/medium charged by heavy: −1). */
  readonly weight?: CavalryWeight;
  /** [p.4] the Morale rating. */
  readonly morale: number;
  /** Starting and current figures; artillery counts guns and guns − hits (A-50 via casualtyMoraleModifier). */
  readonly originalFigures: number;
  readonly figures: number;
  readonly fatigue: FatigueLevel;
  readonly disordered?: boolean;
  readonly inRetreat?: boolean;
  readonly riddenDown?: boolean;
  /** The attached leader's morale bonus (0 for a staff officer): see `leaderMoraleBonus`. */
  readonly leaderBonus?: number;
  /** [p.12] a friendly unit within 4" (A: not in retreat status; see `supported`). */
  readonly supported?: boolean;
  /** [p.12] behind cover relative to the source. */
  readonly behindCover?: boolean;
  /** [p.11] its army or division failed the threshold this game turn. */
  readonly thresholdFailed?: boolean;
  /** [p.19] infantry in a building block: exempt. */
  readonly inBuilding?: boolean;
  /** Step 10 mark flags [p.12]: fired on in the flank or rear; by 12lb guns at ≤10"; artillery by artillery. */
  readonly firedOnFlank?: boolean;
  readonly twelvePounders?: boolean;
  readonly artilleryFiredOnByArtillery?: boolean;
  /** Close action: the enemy side. */
  readonly enemy?: MoraleEnemy;
  /** Close action: the arc the charge came into (defender) or went into (charger); A: rear counts as flank. */
  readonly arc?: 'front' | 'flank' | 'rear';
  /** Echelon cavalry charging infantry or artillery: two step 2 checks [p.7]. */
  readonly chargedByEchelon?: boolean;
  /** Step 5: charging the front of artillery and took hits from its defence fire [p.12]. */
  readonly chargingArtilleryHit?: boolean;
  /** Step 5: out-of-control cavalry closing (+3) [p.15]. */
  readonly outOfControl?: boolean;
  /** Step 4: the infantry charger used both actions before contact (+2) [p.13]. */
  readonly chargerUsedBothActions?: boolean;
  /** Step 4 against cavalry: the reaction distance (charge distance, +10" after a change) [p.14]. */
  readonly reactionDistance?: number;
  /** Step 8: the loser was the charging unit (+2) [p.13]. */
  readonly loserWasCharger?: boolean;
  /** The unit cannot retreat (see `isSurrounded`): a failure that means retreat becomes a surrender check [p.12]. */
  readonly surrounded?: boolean;
}

const CLOSE_ACTION_CHECKS: readonly MoraleCheck[] = ['charged', 'defenceChange', 'charging', 'riddenDown', 'loser'];

/** The unit's role in its close action (the charger for step 5 and a charger that lost). */
function role(i: MoraleInput): 'charger' | 'defender' | null {
  if (i.check === 'charging' || (i.check === 'loser' && i.loserWasCharger)) return 'charger';
  return CLOSE_ACTION_CHECKS.includes(i.check) ? 'defender' : null;
}

/** [p.14] step 4 against cavalry: is a facing or formation change allowed at this reaction distance (> 10")? */
export function defenceChangeAllowed(reactionDistance: number): boolean {
  return reactionDistance > 10;
}

/**
 * Every modifier to the unit's Morale rating for this check, in the book's order [p.12] then the bonuses given
 * elsewhere (leader [p.16], threshold [p.11], steps 4, 5 and 8 [p.13-15]). A counter-charge check has none [p.15].
 */
export function moraleModifiers(i: MoraleInput): Mod[] {
  if (i.check === 'counterCharge') return [];
  const out: Mod[] = [];
  const add = (id: string, value: number, cite: string) => {
    if (value !== 0) out.push({ id, value, cite });
  };
  const r = role(i);
  const inClose = r !== null;
  const e = i.enemy;
  const flank = i.arc === 'flank' || i.arc === 'rear';
  const inSquare = i.kind === 'infantry' && i.formation === 'square';
  if (i.supported) add('supported', moraleValue('supported'), 'p.12');
  if (r === 'charger' && flank) add('chargingFlank', moraleValue('chargingFlank'), 'p.12');
  if (i.behindCover) add('behindCover', moraleValue('behindCover'), 'p.12, A-15');
  if (i.check === 'marked' && i.kind === 'artillery' && i.artilleryFiredOnByArtillery)
    add('artilleryFiredOnByArtillery', moraleValue('artilleryFiredOnByArtillery'), 'p.12');
  if (inClose && inSquare && e?.kind === 'cavalry') add('squareVsCavalry', moraleValue('squareVsCavalry'), 'p.12');
  const lost = Math.max(0, i.originalFigures - i.figures);
  const perTwo = Math.floor(lost / 2) * moraleValue('perTwoFiguresLost');
  add('perTwoFiguresLost', perTwo, 'p.12');
  if (i.disordered && !i.inRetreat) add('disordered', moraleValue('disordered'), 'p.12');
  if (i.riddenDown || i.check === 'riddenDown') add('riddenDown', moraleValue('riddenDown'), 'p.12, p.14');
  if (inClose && inSquare && e?.kind === 'infantry' && e.formation !== 'square')
    add('squareVsInfantry', moraleValue('squareVsInfantry'), 'p.12');
  if (
    r === 'defender' &&
    e?.kind === 'cavalry' &&
    e.weight === 'heavy' &&
    (i.kind === 'infantry' || (i.kind === 'cavalry' && i.weight !== 'heavy'))
  )
    add('chargedByHeavyCavalry', moraleValue('chargedByHeavyCavalry'), 'p.12');
  if (i.check === 'marked' && i.twelvePounders && i.kind !== 'artillery')
    add('twelvePounders', moraleValue('twelvePounders'), 'p.12');
  if (i.check === 'marked' && i.firedOnFlank) add('firedOnFlank', moraleValue('firedOnFlank'), 'p.12');
  if (r === 'defender' && flank) add('flankCharged', moraleValue('flankCharged'), 'p.12');
  if (
    r === 'defender' &&
    e?.kind === 'cavalry' &&
    i.kind === 'infantry' &&
    (i.formation === 'line' || i.formation === 'column')
  )
    add('lineOrColumnChargedByCavalry', moraleValue('lineOrColumnChargedByCavalry'), 'p.12');
  if (i.check === 'charging' && i.chargingArtilleryHit)
    add('chargingArtilleryHit', moraleValue('chargingArtilleryHit'), 'p.12');
  if (i.inRetreat) add('retreatStatus', moraleValue('retreatStatus'), 'p.12');
  add(['', 'fatigued', 'tired', 'exhausted'][i.fatigue]!, FATIGUE_PENALTY.morale[i.fatigue], 'p.12, p.5');
  const total = casualtyMoraleModifier(i.originalFigures, i.figures);
  add('overHalfCasualties', total - perTwo, 'p.12');
  if (inClose && e) add('outnumbered', outnumberedModifier(Math.max(0, i.figures), e.figures), 'p.12, A-66');
  if (i.leaderBonus) add('leader', i.leaderBonus, 'p.16');
  if (i.thresholdFailed) add('thresholdFailed', MORALE_BONUSES.thresholdFailed, 'p.11');
  if (i.check === 'charging' && i.outOfControl && i.kind === 'cavalry')
    add('outOfControlClosing', MORALE_BONUSES.outOfControlClosing, 'p.15');
  if (i.check === 'defenceChange') {
    if (e?.kind === 'cavalry') {
      const d = i.reactionDistance ?? 0;
      if (!defenceChangeAllowed(d))
        throw new RangeError(`a defence facing or formation change is not allowed against cavalry from ${d}" [p.14]`);
      if (d >= 16) add('reaction16', MORALE_BONUSES.defenceChangeReaction16, 'p.14, A-66');
    } else if (i.chargerUsedBothActions)
      add('chargerUsedBothActions', MORALE_BONUSES.defenceChangeChargerUsedBothActions, 'p.13, A-66');
  }
  if (i.check === 'loser' && i.loserWasCharger) add('loserWasCharger', MORALE_BONUSES.loserWasCharger, 'p.13, A-66');
  return out;
}

/** [p.11-12] the modified morale: the rating plus every modifier. A D20 at or below it passes (no automatic faces). */
export function modifiedMorale(i: MoraleInput): number {
  return i.morale + sumMods(moraleModifiers(i));
}

/**
 * The outcome classes of a morale check:
 * `pass` stands / closes / changes / counter-charges; `retreat` into retreat status; `rout`; `surrender`; `rally`
 * (surrounded, passed the second check: stays, disordered, A-35); `riddenDown` (step 2 against cavalry failed);
 * `disordered` (step 4 failed: no change); `halt` (step 5 failed: the owner retreats or stops 2"); `noCounterCharge`
 * (stays, loses its stand marker [p.15]).
 */
export type MoraleResult =
  | 'pass'
  | 'retreat'
  | 'rout'
  | 'surrender'
  | 'rally'
  | 'riddenDown'
  | 'disordered'
  | 'halt'
  | 'noCounterCharge';

/** Infantry in buildings are exempt from morale checks [p.19] (a surrounded check is part of no close action). */
function exempt(i: MoraleInput): boolean {
  return !!i.inBuilding && i.kind === 'infantry';
}

/** D20s of the first check: two for infantry or artillery charged by echelon cavalry [p.7]. */
export function firstDice(i: MoraleInput): number {
  if (exempt(i)) return 0;
  if (i.check === 'loser' && i.inRetreat) return 0; // [p.12] routs without checking
  return i.check === 'charged' && i.chargedByEchelon && i.kind !== 'cavalry' ? 2 : 1;
}

/** What a "retreat" becomes for a surrounded unit: a second check [p.12]. */
export function mayNeedSurrenderDie(i: MoraleInput): boolean {
  return !!i.surrounded && !exempt(i) && i.check !== 'surrounded' && i.check !== 'counterCharge';
}

/** The result before the surrender rule, from whether the first check passed. */
function baseResult(i: MoraleInput, passed: boolean): MoraleResult {
  switch (i.check) {
    case 'counterCharge':
      return passed ? 'pass' : 'noCounterCharge';
    case 'defenceChange':
      return passed ? 'pass' : 'disordered';
    case 'charging':
      return passed ? 'pass' : 'halt';
    case 'surrounded':
      return passed ? 'rally' : 'surrender';
    case 'riddenDown':
      return passed ? 'retreat' : 'rout';
    case 'loser':
      return i.inRetreat ? 'rout' : passed ? 'retreat' : 'rout';
    case 'charged':
      if (passed) return 'pass';
      if (i.enemy?.kind === 'cavalry' && i.kind !== 'cavalry') return 'riddenDown';
      return i.inRetreat ? 'rout' : 'retreat';
    case 'marked':
      return passed ? 'pass' : i.inRetreat ? 'rout' : 'retreat';
  }
}

/**
 * The result of a check from its dice (D20 faces in order: the first check's one or two dice, then the surrender
 * check's die when one is needed), and how many dice it used.
 */
export function resolveMorale(i: MoraleInput, d20s: readonly number[]): { result: MoraleResult; used: number } {
  if (exempt(i)) return { result: 'pass', used: 0 };
  const m = modifiedMorale(i);
  const n = firstDice(i);
  const first = d20s.slice(0, n);
  if (first.length < n) throw new RangeError(`this check needs ${n} D20s`);
  const passed = first.every((f) => f <= m);
  const r = baseResult(i, passed);
  if (!mayNeedSurrenderDie(i)) return { result: r, used: n };
  if (r === 'rout') return { result: 'surrender', used: n }; // a routing unit that is surrounded surrenders
  if (r !== 'retreat') return { result: r, used: n };
  const again = d20s[n];
  if (again === undefined) throw new RangeError('a surrounded unit checks morale again: one more D20');
  return { result: again <= m ? 'rally' : 'surrender', used: n + 1 };
}

/** Out of 20: faces that pass at modified morale m. */
const passCount = (m: number): number => clampInt(m, 0, 20);

/**
 * The EXACT distribution of a morale check's result, in a fixed class order; probabilities sum to 1 (integer counts
 * over 20^dice). Closed form: cheap enough for searches.
 */
export function moraleDist(i: MoraleInput): Dist<MoraleResult>[] {
  if (exempt(i)) return [{ value: 'pass', p: 1 }];
  const m = modifiedMorale(i);
  const w = passCount(m);
  const n = firstDice(i);
  const den1 = 20 ** n;
  const passW = n === 0 ? 1 : w ** n;
  const failW = n === 0 ? 0 : den1 - passW;
  const pr = n === 0 ? 'rout' : baseResult(i, true);
  const fr = baseResult(i, false);
  const counts = new Map<MoraleResult, number>();
  const surr = mayNeedSurrenderDie(i);
  const den = surr ? den1 * 20 : den1;
  const put = (r0: MoraleResult, c: number) => {
    if (!c) return;
    // [p.12] a surrounded unit that must retreat checks again (pass: rallies; fail: surrenders); one that routs surrenders
    const r = surr && r0 === 'rout' ? 'surrender' : r0;
    if (surr && r === 'retreat') {
      counts.set('rally', (counts.get('rally') ?? 0) + c * w);
      counts.set('surrender', (counts.get('surrender') ?? 0) + c * (20 - w));
      return;
    }
    counts.set(r, (counts.get(r) ?? 0) + (surr ? c * 20 : c));
  };
  if (n === 0) put(pr, 1);
  else {
    put(pr, passW);
    put(fr, failW);
  }
  return [...counts].filter(([, c]) => c > 0).map(([value, c]) => ({ value, p: c / den }));
}

/** D20 faces consistent with `result` for display (uniform among the rolls that give it). */
export function moraleFaces(i: MoraleInput, result: MoraleResult, u: Uniform): number[] {
  if (exempt(i)) {
    if (result !== 'pass') throw new RangeError('an exempt unit always passes');
    return [];
  }
  const n = firstDice(i) + (mayNeedSurrenderDie(i) ? 1 : 0);
  const hits: number[][] = [];
  const rec = (prefix: number[]) => {
    if (prefix.length === n) {
      const r = resolveMorale(i, prefix);
      if (r.result === result) hits.push(prefix.slice(0, r.used));
      return;
    }
    for (let f = 1; f <= 20; f++) rec([...prefix, f]);
  };
  rec([]);
  return pick(hits, u);
}

/** [p.16] the morale bonus an attached leader gives: his own (default by rank), none from a staff officer. */
export function leaderMoraleBonus(l: Pick<LeaderStatic, 'moraleBonus' | 'staffOfficer'> | null | undefined): number {
  return !l || l.staffOfficer ? 0 : l.moraleBonus;
}

/** [p.16] the default bonuses of a leader of this rank (a grand battery commander ranks as a division leader). */
export function defaultLeaderBonus(rank: LeaderRole): { readonly morale: number; readonly melee: number } {
  const r = rank === 'grandBattery' ? 'division' : rank;
  return { morale: LEADER_BONUS.morale[r], melee: LEADER_BONUS.melee };
}

// =====================================================================================================================
// Marks, support, rout proximity, surrender geometry [p.11-12]
// =====================================================================================================================

/** Inches → 1/100". */
const inch = (n: number): number => Math.round(n * IN);

/** [p.12] supported: a friendly unit within 4" (A: not in retreat status, not routed). */
export function supported(
  unit: Body,
  friends: readonly { readonly body: Body; readonly inRetreat?: boolean }[],
): boolean {
  return friends.some((f) => !f.inRetreat && unitDistance(unit, f.body) <= inch(MORALE_DISTANCES.support));
}

/**
 * [p.11-12] the friendly units that must check morale because `routing` routed: every unit that started within 4" of
 * it (measured from its footprint before it moves). Infantry in buildings get no mark [p.19].
 */
export function routProximityMarks(
  routing: Body,
  friends: readonly { readonly id: string; readonly body: Body; readonly inBuilding?: boolean }[],
): string[] {
  return friends
    .filter((f) => !f.inBuilding && unitDistance(routing, f.body) <= inch(MORALE_DISTANCES.routProximity))
    .map((f) => f.id);
}

/** An enemy unit for the surrender test. */
export interface SurroundEnemy {
  readonly body: Body;
  /** [p.12] enemy skirmishers and enemy units in retreat status are not threats (they still block the way). */
  readonly skirmish?: boolean;
  readonly inRetreat?: boolean;
}

/**
 * [p.12] A-35: is the unit surrounded? Threats are enemy units within 12" (edge to edge) that are neither skirmish
 * screens nor in retreat status; with none it is not surrounded. Otherwise each of 16 directions (every 22.5°) is
 * open if the unit slid 3" that way (checked every ½") stays on the table, overlaps no enemy unit and no `obstacles`
 * polygon (impassable terrain, from the caller), and ends farther from every threat. Surrounded iff none is open.
 * Friendly units do not block (a retreat may pass through them).
 */
export function isSurrounded(
  table: { readonly width: number; readonly height: number },
  unit: Body,
  enemies: readonly SurroundEnemy[],
  obstacles: readonly Polygon[] = [],
): boolean {
  const reach = inch(MORALE_DISTANCES.surroundThreat);
  const threats = enemies.filter((e) => !e.skirmish && !e.inRetreat && unitDistance(unit, e.body) <= reach);
  if (!threats.length) return false;
  const before = threats.map((t) => unitDistance(unit, t.body));
  const enemyPolys = enemies.map((e) => footprint(e.body));
  const gap = inch(MORALE_DISTANCES.gap);
  const step = IN / 2;
  for (let k = 0; k < 16; k++) {
    const v = headingVec(k * 22.5);
    let open = true;
    let moved: Body = unit;
    for (let d = step; d <= gap && open; d += step) {
      moved = { ...unit, at: { ...unit.at, x: unit.at.x + v.x * d, y: unit.at.y + v.y * d } };
      const p = footprint(moved);
      if (!onTable(p, table.width, table.height)) open = false;
      else if (enemyPolys.some((q) => polygonsOverlap(p, q)) || obstacles.some((q) => polygonsOverlap(p, q)))
        open = false;
    }
    if (open && threats.every((t, j) => unitDistance(moved, t.body) > before[j]!)) return false;
  }
  return true;
}

// =====================================================================================================================
// Retreat and recovery [p.12, p.7]
// =====================================================================================================================

/** What the reform roll and the retreat's actions need. */
export interface RetreatInput {
  readonly kind: UnitKind;
  /** Artillery arm: horse batteries retreat at 12" an action, foot at 10". */
  readonly arm?: 'foot' | 'horse';
  /** Inches moved to the recovery area, 0 to stand in place [p.12]. */
  readonly distance: number;
  /** The unit's ORIGINAL morale rating (−1 at 20 or more). */
  readonly morale: number;
  readonly troopClass?: TroopClass;
  readonly riddenDown?: boolean;
  /**
   * Artillery that failed morale: `limber` first (1 action, +1 recovery), `stand` (distance 0, unlimbered),
   * `abandon` (the crew retreats at the foot rate, READINGS 12); `limbered` it was limbered already. Default limbered.
   */
  readonly artillery?: 'limber' | 'stand' | 'abandon' | 'limbered';
}

/** [p.12] the reform roll's modifiers. */
export function reformModifiers(r: RetreatInput): Mod[] {
  const out: Mod[] = [];
  if (r.morale >= REFORM_ORIGINAL_MORALE_MIN)
    out.push({ id: 'originalMorale20', value: REFORM_MODIFIERS.originalMorale20, cite: 'p.12' });
  if (r.kind === 'cavalry') out.push({ id: 'cavalry', value: REFORM_MODIFIERS.cavalry, cite: 'p.12' });
  if (r.riddenDown) out.push({ id: 'riddenDown', value: REFORM_MODIFIERS.riddenDown, cite: 'p.12' });
  if (r.troopClass === 'militia' || r.troopClass === 'green')
    out.push({ id: 'green', value: REFORM_MODIFIERS.green, cite: 'p.12' });
  return out;
}

/** [p.12] does the unit retreat at the fast rate (cavalry, horse artillery: 12" an action)? */
function fastRetreat(r: RetreatInput): boolean {
  return r.kind === 'cavalry' || (r.kind === 'artillery' && r.arm === 'horse' && r.artillery !== 'abandon');
}

/** [p.12] the actions the retreat's distance costs: ceil(distance / 10) or / 12 ("round up"); 0 standing in place. */
export function retreatDistanceActions(r: RetreatInput): number {
  if (r.distance < 0) throw new RangeError(`a retreat distance is not negative, got ${r.distance}`);
  if (r.kind === 'artillery' && r.artillery === 'stand' && r.distance > 0)
    throw new RangeError('an unlimbered battery that stands retreats 0" (A-57)');
  return retreatActions(r.distance, fastRetreat(r));
}

/** [p.12] A-57: the extra recovery action of a battery that limbers before retreating. */
function limberAction(r: RetreatInput): number {
  return r.kind === 'artillery' && r.artillery === 'limber' ? 1 : 0;
}

/** [p.12] the reform roll: 1D6 + modifiers → 1..4 actions (a modified 0 or less reads 1-2). */
export function reformDist(r: RetreatInput): Dist<number>[] {
  const mod = sumMods(reformModifiers(r));
  return classify(sumDist(1, 6), (f) => reformActions(f + mod)).sort((a, b) => a.value - b.value);
}

/**
 * [p.12] the recovery actions the unit owes in retreat status: the retreat's actions (distance rounded up) + the reform
 * roll (+1 when a battery limbers, A-57), as an exact distribution. p.12's example: 26" and a roll of 3 → 3 + 2 = 5.
 */
export function recoveryDist(r: RetreatInput): Dist<number>[] {
  const base = retreatDistanceActions(r) + limberAction(r);
  return reformDist(r).map((d) => ({ value: d.value + base, p: d.p }));
}

/** [p.12] the recovery actions after a known reform die. */
export function recoveryActions(r: RetreatInput, d6: number): number {
  if (!Number.isInteger(d6) || d6 < 1 || d6 > 6) throw new RangeError(`D6 must be 1..6, got ${d6}`);
  return retreatDistanceActions(r) + limberAction(r) + reformActions(d6 + sumMods(reformModifiers(r)));
}

/** A reform D6 consistent with `total` recovery actions, for display. */
export function reformFace(r: RetreatInput, total: number, u: Uniform): number {
  return pick(
    faces(6).filter((f) => recoveryActions(r, f) === total),
    u,
  );
}

/** A check's result with the retreat that follows it (recovery actions owed), as one outcome class. */
export interface MoraleOutcome {
  readonly result: MoraleResult;
  /** For `retreat`: the actions owed in retreat status. */
  readonly recovery?: number;
}

/**
 * The exact distribution of a check with the retreat it may lead to (the owner's recovery area given as `retreat`):
 * each `retreat` splits by the reform roll. Labels like "retreat, 5 recovery actions".
 */
export function moraleWithRetreatDist(
  i: MoraleInput,
  retreat: RetreatInput,
): { readonly value: MoraleOutcome; readonly p: number; readonly label: string }[] {
  const out: { value: MoraleOutcome; p: number; label: string }[] = [];
  const rec = recoveryDist(retreat);
  for (const d of moraleDist(i)) {
    if (d.value !== 'retreat') {
      out.push({ value: { result: d.value }, p: d.p, label: d.value });
      continue;
    }
    for (const r of rec)
      out.push({
        value: { result: 'retreat', recovery: r.value },
        p: d.p * r.p,
        label: `retreat, ${r.value} recovery action${r.value === 1 ? '' : 's'}`,
      });
  }
  return out;
}

/**
 * A-67: the unit after a straight retreat of `inches` on bearing `dir`: it ends facing its direction of travel
 * (unchanged when it stands in place), formation kept. Positions stay whole 1/100" (A-8).
 */
export function retreatPlacement(unit: Body, dir: number, inches: number): Body {
  if (inches <= 0) return unit;
  const v = headingVec(dir);
  const d = inches * IN;
  return {
    ...unit,
    at: { x: Math.round(unit.at.x + v.x * d), y: Math.round(unit.at.y + v.y * d), facing: ((dir % 360) + 360) % 360 },
  };
}

/**
 * [p.12]: may a unit retreat straight from `unit` to `end` (a `retreatPlacement`)? The path (checked every
 * ½", in the end's formation and facing) stays on the table and never comes within 1" of an enemy unit, and the end is
 * farther (edge to edge) from every enemy unit that was within 12" at the start. The 3" gap [p.12] is the caller's
 * (friendly units passed through are disordered, RETREAT.passThroughDisorders). Returns the inches retreated too.
 */
export function retreatAllowed(
  table: { readonly width: number; readonly height: number },
  unit: Body,
  end: Body,
  enemies: readonly Body[],
): { readonly ok: boolean; readonly inches: number } {
  const total = dist(unit.at, end.at);
  const inches = total / IN;
  if (total === 0) return { ok: true, inches: 0 };
  const polys = enemies.map(footprint);
  const steps = Math.max(1, Math.ceil(total / (IN / 2)));
  for (let k = 1; k <= steps; k++) {
    const t = k / steps;
    const b: Body = {
      ...end,
      at: { ...end.at, x: unit.at.x + (end.at.x - unit.at.x) * t, y: unit.at.y + (end.at.y - unit.at.y) * t },
    };
    const p = footprint(b);
    if (!onTable(p, table.width, table.height)) return { ok: false, inches };
    if (polys.some((q) => polygonDistance(p, q) < IN)) return { ok: false, inches };
  }
  const reach = inch(MORALE_DISTANCES.surroundThreat);
  for (const e of enemies) {
    const before = unitDistance(unit, e);
    if (before <= reach && unitDistance(end, e) <= before) return { ok: false, inches };
  }
  return { ok: true, inches };
}

/** Dice consistent with a `moraleWithRetreatDist` outcome: the D20s, and the reform D6 for a retreat. */
export function moraleWithRetreatFaces(
  i: MoraleInput,
  retreat: RetreatInput,
  o: MoraleOutcome,
  u: Uniform,
): { readonly d20s: number[]; readonly reformD6?: number } {
  const d20s = moraleFaces(i, o.result, u);
  if (o.result !== 'retreat') return { d20s };
  if (o.recovery === undefined) throw new RangeError('a retreat outcome carries its recovery actions');
  return { d20s, reformD6: reformFace(retreat, o.recovery, u) };
}

/** [p.12] retreat rules that are not numbers a check returns. */
export const RETREAT = {
  gap: MORALE_DISTANCES.gap, // requires a 3” gap to retreat through (and to rout through)
  passThroughDisorders: true, // the unit moved through is disordered, one full action to reform
  recoveredFormation: 'column' as Formation, // organized into a column after recovering (artillery: limbered, A-68)
  disorderedUntilRecovered: true, // Units in retreat status remain disordered until fully recovered
  meleePenalty: -20, // [p.13] −20 MV in retreat status (includes disordered)
  moralePenalty: moraleValue('retreatStatus'), // −5
} as const;

/**
 * A-68 [p.12]: an activated unit in retreat status spends its actions on recovery, one owed action each. At 0 it has
 * recovered: no longer disordered, in column (artillery limbered), facing as it was or turned 180° (the owner's
 * choice); any whole action left over may be used normally.
 */
export function spendRecovery(
  remaining: number,
  actionsAvailable: number,
): { readonly remaining: number; readonly recovered: boolean; readonly leftover: number } {
  if (remaining < 0 || actionsAvailable < 0) throw new RangeError('recovery: negative actions');
  const spent = Math.min(remaining, Math.floor(actionsAvailable));
  const left = remaining - spent;
  return { remaining: left, recovered: left === 0, leftover: left === 0 ? Math.floor(actionsAvailable) - spent : 0 };
}

/** [p.12] the formation a unit takes on recovering: column; artillery limbered. */
export function recoveredFormation(kind: UnitKind): Formation {
  return kind === 'artillery' ? 'limbered' : 'column';
}

/** [p.12] a unit charged in retreat status fights in it: a win recovers it at once, a loss routs it. */
export function closeActionInRetreat(won: boolean): 'recovered' | 'rout' {
  return won ? 'recovered' : 'rout';
}

/** [p.12] a unit in retreat status that fails a check (or loses a close action) routs. */
export function failureResult(inRetreat: boolean): 'retreat' | 'rout' {
  return inRetreat ? 'rout' : 'retreat';
}

// =====================================================================================================================
// Fatigue and rest [p.5, p.20]
// =====================================================================================================================

/** [p.5, p.20] what raises fatigue. */
export type FatigueEvent = 'forceMarch' | 'closeAction' | 'cavalryChargedNotClosed' | 'rapidFire' | 'hotBothActions';

export interface FatigueOptions {
  /** [p.20] hot temperatures: a force march costs 3 levels. */
  readonly hot?: boolean;
  /** [p.5] rapid fire as a defence action: 3 (A-49, default) or the sentence's 2 (READINGS 8). */
  readonly rapidFireDefence?: 2 | 3;
  readonly asDefence?: boolean;
}

/** [p.5, p.20] the levels an event adds (before the A-5 cap). */
export function fatigueIncrease(e: FatigueEvent, o: FatigueOptions = {}): number {
  switch (e) {
    case 'forceMarch':
      return o.hot ? FATIGUE_INCREASE.forceMarchHot : FATIGUE_INCREASE.forceMarch;
    case 'closeAction':
      return FATIGUE_INCREASE.closeAction;
    case 'cavalryChargedNotClosed':
      return FATIGUE_INCREASE.cavalryChargedNotClosed;
    case 'rapidFire':
      return o.asDefence ? (o.rapidFireDefence ?? FATIGUE_INCREASE.rapidFire) : FATIGUE_INCREASE.rapidFire;
    case 'hotBothActions':
      return FATIGUE_INCREASE.hotBothActions;
  }
}

/** [p.5] the level right after the event (A-5: capped at Exhausted); a tired or exhausted unit may not force march. */
export function fatigueAfterEvent(level: FatigueLevel, e: FatigueEvent, o: FatigueOptions = {}): FatigueLevel {
  if (e === 'forceMarch' && !canForceMarch(level))
    throw new RangeError(`a ${['normal', 'fatigued', 'tired', 'exhausted'][level]} unit may not force march [p.5]`);
  return fatigueAfter(level, fatigueIncrease(e, o));
}

/** [p.5] "A unit that is exhausted or tired may not perform a force march." */
export function canForceMarch(level: FatigueLevel): boolean {
  return level <= FORCE_MARCH_MAX_LEVEL;
}

/**
 * [p.5] rest: each action of rest (no movement, fire, close action or anything else) recovers one level. A-71: no rest
 * in retreat status (the level is unchanged).
 */
export function rest(level: FatigueLevel, actions: number, inRetreat = false): FatigueLevel {
  if (inRetreat) return level;
  return fatigueAfter(level, FATIGUE_INCREASE.restPerAction * Math.max(0, Math.floor(actions)));
}

// =====================================================================================================================
// Threshold checks [p.11]
// =====================================================================================================================

/** A unit counted for a threshold: routed, surrendered, eliminated and retreating units count as lost. */
export interface ThresholdUnit {
  readonly status: UnitStatus;
  readonly inRetreat: boolean;
}

/** [p.11] the lost units and the total of an army or a division. */
export function thresholdCount(units: readonly ThresholdUnit[]): { readonly lost: number; readonly total: number } {
  return { lost: units.filter((u) => u.status !== 'active' || u.inRetreat).length, total: units.length };
}

/** [p.11] must the army (or division) roll: lost ≥ 50% (or the scenario's 40% / 60%)? */
export function thresholdRollDue(units: readonly ThresholdUnit[], fraction: number = THRESHOLD.fraction): boolean {
  const c = thresholdCount(units);
  return thresholdDue(c.lost, c.total, fraction);
}

/** "mostly" = more than half. */
export function mostly(count: number, total: number): boolean {
  return total > 0 && 2 * count > total;
}

/** What a threshold roll needs. */
export interface ThresholdInput {
  readonly scope: 'army' | 'division';
  /** Note 1: the leader's influence, 0..6, only if he is in the general vicinity (`inGeneralVicinity`). */
  readonly influence?: number;
  readonly french?: boolean;
  readonly napoleonPresent?: boolean;
  readonly mostlyElite?: boolean;
  readonly guard?: 'french' | 'oldMiddle';
  readonly mostlyMilitia?: boolean;
  readonly mostlySpanish?: boolean;
  /** The division is out of command-and-control, or cut off. */
  readonly outOfCommand?: boolean;
  /** Its original leader has been incapacitated (READINGS 3: the army's too). */
  readonly leaderLost?: boolean;
}

const thresholdValue = (id: ThresholdModifierId): number => THRESHOLD_MODIFIERS.find((r) => r.id === id)!.value;

/** [p.11] the threshold modifiers that apply, each cited. */
export function thresholdModifiers(t: ThresholdInput): Mod[] {
  const inf = t.influence ?? 0;
  if (!Number.isInteger(inf) || inf < 0 || inf > THRESHOLD.leaderInfluenceMax)
    throw new RangeError(`leader influence is 0..${THRESHOLD.leaderInfluenceMax}, got ${inf} [p.11]`);
  const out: Mod[] = [];
  const div = t.scope === 'division';
  if (inf) out.push({ id: 'leaderInfluence', value: inf, cite: 'p.11 note 1' });
  if (t.french && t.napoleonPresent) out.push({ id: 'napoleon', value: thresholdValue('napoleon'), cite: 'p.11' });
  if (div && t.mostlyElite) out.push({ id: 'elite', value: thresholdValue('elite'), cite: 'p.11, A-70' });
  if (div && t.guard === 'french') out.push({ id: 'frenchGuard', value: thresholdValue('frenchGuard'), cite: 'p.11' });
  if (div && t.guard === 'oldMiddle')
    out.push({ id: 'oldMiddleGuard', value: thresholdValue('oldMiddleGuard'), cite: 'p.11' });
  if (div && t.mostlyMilitia) out.push({ id: 'militia', value: thresholdValue('militia'), cite: 'p.11, A-70' });
  if (t.mostlySpanish) out.push({ id: 'spanish', value: thresholdValue('spanish'), cite: 'p.11, A-70' });
  if (div && t.outOfCommand) out.push({ id: 'outOfCommand', value: thresholdValue('outOfCommand'), cite: 'p.11' });
  if (t.leaderLost) out.push({ id: 'leaderLost', value: thresholdValue('leaderLost'), cite: 'p.11' });
  return out;
}

/** A threshold roll's outcome: passed, and whether the influencing leader became a casualty. */
export interface ThresholdResult {
  readonly pass: boolean;
  readonly leaderLost: boolean;
}

const thresholdKey = (r: ThresholdResult): string =>
  `${r.pass ? 'pass' : 'fail'}${r.leaderLost ? ', leader lost' : ''}`;

/**
 * [p.11] the exact distribution of a threshold roll: D20 ≤ 8 + modifiers passes; with influence i > 0 a D10 is
 * rolled with it and 1..i incapacitates the leader (independent of the D20). Failure: −4 to every unit's morale checks
 * for the game turn.
 */
export function thresholdDist(t: ThresholdInput): (Dist<ThresholdResult> & { readonly label: string })[] {
  const mod = sumMods(thresholdModifiers(t));
  const w = passCount(THRESHOLD.passMax + mod);
  const inf = t.influence ?? 0;
  const out: (Dist<ThresholdResult> & { label: string })[] = [];
  for (const pass of [true, false])
    for (const leaderLost of inf > 0 ? [false, true] : [false]) {
      const c20 = pass ? w : 20 - w;
      const c10 = inf > 0 ? (leaderLost ? inf : 10 - inf) : 10;
      if (c20 && c10) {
        const value = { pass, leaderLost };
        out.push({ value, p: (c20 * c10) / 200, label: thresholdKey(value) });
      }
    }
  return out;
}

/** [p.11] the dice of a threshold roll consistent with `r`: the D20 and (with influence) the D10. */
export function thresholdFaces(t: ThresholdInput, r: ThresholdResult, u: Uniform): { d20: number; d10?: number } {
  const target = THRESHOLD.passMax + sumMods(thresholdModifiers(t));
  const d20 = pick(
    faces(20).filter((f) => f <= target === r.pass),
    u,
  );
  const inf = t.influence ?? 0;
  if (!inf) {
    if (r.leaderLost) throw new RangeError('no influence, no risk to the leader');
    return { d20 };
  }
  return {
    d20,
    d10: pick(
      faces(10).filter((f) => f <= inf === r.leaderLost),
      u,
    ),
  };
}

/** [p.11] are the divisions checked after the army's roll? Not when the army failed (READINGS 4). */
export function checkDivisions(army: 'notDue' | 'passed' | 'failed'): boolean {
  return army !== 'failed';
}

/** [p.11] the morale penalty of a unit this game turn: −4 if its army or its division failed (never both). */
export function thresholdPenalty(armyFailed: boolean, divisionFailed: boolean): number {
  return armyFailed || divisionFailed ? THRESHOLD.failMorale : 0;
}

/** the leader is "in the general vicinity" if the division's centroid (of footprint centres) is in his radius. */
export function inGeneralVicinity(leader: Vec, radiusInches: number, division: readonly Body[]): boolean {
  if (!division.length) return false;
  const cs = division.map(centreOf);
  const c = { x: cs.reduce((t, p) => t + p.x, 0) / cs.length, y: cs.reduce((t, p) => t + p.y, 0) / cs.length };
  return dist(leader, c) <= radiusInches * IN;
}

// =====================================================================================================================
// Leader losses and staff officers [p.16, p.11]
// =====================================================================================================================

/**
 * [p.16] an attached leader's loss roll when his unit takes `casualties` figure casualties (fire or close action): D10
 * ≤ ceil(casualties / 2) (1-2 → 1; 3-4 → 1-2; 5-6 → 1-3 …). No casualties, no roll.
 */
export function leaderLossDist(casualties: number): Dist<boolean>[] {
  const n = leaderLossMaxRoll(casualties);
  if (n <= 0) return [{ value: false, p: 1 }];
  if (n >= 10) return [{ value: true, p: 1 }];
  return [
    { value: true, p: n / 10 },
    { value: false, p: (10 - n) / 10 },
  ];
}

/** A D10 consistent with the leader-loss result, for display (null: no roll was made). */
export function leaderLossFace(casualties: number, lost: boolean, u: Uniform): number | null {
  const n = leaderLossMaxRoll(casualties);
  if (n <= 0) {
    if (lost) throw new RangeError('no casualties, no loss');
    return null;
  }
  return pick(
    faces(10).filter((f) => f <= n === lost),
    u,
  );
}

/**
 * A-22 (digest 6.9): what happens to an attached leader when his unit leaves: surrendered or eliminated → lost;
 * routed → placed by the nearest friendly non-routing unit within 20" (`nearestFriend` inches), else lost; a retreat
 * keeps him attached.
 */
export function attachedLeaderFate(
  unit: 'surrendered' | 'eliminated' | 'routed' | 'retreat',
  nearestFriend?: number,
): 'lost' | 'placed' | 'stays' {
  if (unit === 'retreat') return 'stays';
  if (unit === 'routed' && nearestFriend !== undefined && nearestFriend <= 20) return 'placed';
  return 'lost';
}

/**
 * [p.16, p.11] a lost leader is removed and replaced by a staff officer: no bonuses, the same command radius, the base
 * initiative of the rank (READINGS 10). The command is flagged "original leader incapacitated" by `replaceLeader`.
 */
export function staffOfficerFor(l: LeaderStatic): LeaderStatic {
  const base = l.rank === 'army' ? null : l.rank === 'corps' ? INITIATIVE.corps : INITIATIVE.division;
  return {
    ...l,
    name: `staff officer (${l.name})`,
    moraleBonus: 0,
    meleeBonus: 0,
    initiative: l.initiative === null ? null : base,
    misread: 0,
    staffOfficer: true,
  };
}

/** The leader's state once a staff officer replaces him: at the same point, detached, the command flagged. */
export function replaceLeader<S extends { readonly attachedTo: string | null }>(
  s: S,
): S & { readonly replaced: true; readonly originalLeaderLost: true; readonly lost: true } {
  return { ...s, attachedTo: null, replaced: true, originalLeaderLost: true, lost: true };
}

// =====================================================================================================================
// Command and control [p.16-18]
// =====================================================================================================================

/** A leader for the command test (positions 1/100"). */
export interface CommandLeader {
  readonly id: string;
  readonly rank: LeaderRole;
  /** '' for the army commander. */
  readonly superior: string;
  readonly x: number;
  readonly y: number;
  /** Command radius, inches. */
  readonly radius: number;
  /** [p.16] a corps acting independently of the army commander (scenario). */
  readonly independent?: boolean;
}

export interface CommandUnit {
  readonly id: string;
  /** The leader who commands it (a division leader, or a corps leader with units of his own). */
  readonly commander: string;
  readonly body: Body;
}

export interface CommandOptions {
  /** [p.16-17] option #1 (default: leaders must keep within their superior's radius) or #2 (only units are tested). */
  readonly option?: 1 | 2;
  /** [p.17] optional initiative: the leaders out of their superior's radius whose D20 succeeded this period. */
  readonly initiativePassed?: ReadonlySet<string>;
  /**
   * [p.16] A-26: the command line's length (1/100") from a leader to his unit or subordinate leader, Infinity when it
   * is broken or has no way (command.ts); without it, the straight distance (A-12, READINGS 11).
   */
  readonly lineLength?: (leader: CommandLeader, to: CommandLeader | CommandUnit) => number;
}

/** [p.16] is a leader within his superior's command radius (the straight line, or A-26's path: READINGS 11)? */
export function leaderWithinSuperior(l: CommandLeader, sup: CommandLeader, o: CommandOptions = {}): boolean {
  return (o.lineLength ? o.lineLength(sup, l) : dist(l, sup)) <= sup.radius * IN;
}

/**
 * [p.16-17] the leaders in command this period: the army commander always; a leader within his superior's radius (or
 * an independent corps, or one whose initiative roll succeeded) whose superior is in command. Option #2: every leader.
 */
export function leadersInCommand(leaders: readonly CommandLeader[], o: CommandOptions = {}): Map<string, boolean> {
  const byId = new Map(leaders.map((l) => [l.id, l]));
  const memo = new Map<string, boolean>();
  const ok = (l: CommandLeader, depth: number): boolean => {
    const m = memo.get(l.id);
    if (m !== undefined) return m;
    let r: boolean;
    if (o.option === 2 || l.rank === 'army' || !l.superior) r = true;
    else {
      const sup = byId.get(l.superior);
      if (!sup || depth > leaders.length) r = false;
      else
        r =
          (l.independent === true || leaderWithinSuperior(l, sup, o) || (o.initiativePassed?.has(l.id) ?? false)) &&
          (l.independent === true || ok(sup, depth + 1));
    }
    memo.set(l.id, r);
    return r;
  };
  return new Map(leaders.map((l) => [l.id, ok(l, 0)]));
}

/** [p.16] the leaders who would need an initiative roll this period (out of their superior's radius, not the army's). */
export function initiativeRollsDue(leaders: readonly CommandLeader[], o: CommandOptions = {}): string[] {
  const byId = new Map(leaders.map((l) => [l.id, l]));
  return leaders
    .filter((l) => {
      if (l.rank === 'army' || l.independent || !l.superior) return false;
      const sup = byId.get(l.superior);
      return !!sup && !leaderWithinSuperior(l, sup, o);
    })
    .map((l) => l.id);
}

/**
 * [p.16-17] the units out of command: outside their commander's radius (shape.ts commandDistance: leader point to
 * footprint centre, A-12; or A-26's command line, `o.lineLength`), or whose commander (or any leader above him) is out
 * of command (option #1 only).
 */
export function outOfCommandUnits(
  leaders: readonly CommandLeader[],
  units: readonly CommandUnit[],
  o: CommandOptions = {},
): string[] {
  const byId = new Map(leaders.map((l) => [l.id, l]));
  const chain = leadersInCommand(leaders, o);
  return units
    .filter((u) => {
      const c = byId.get(u.commander);
      if (!c) return true;
      const d = o.lineLength ? o.lineLength(c, u) : commandDistance({ x: c.x, y: c.y }, u.body);
      return !chain.get(c.id) || d > c.radius * IN;
    })
    .map((u) => u.id);
}

/** [p.16] the out-of-command penalty (and its [p.11] threshold modifier for a division). */
export const OUT_OF_COMMAND = {
  mayMove: true, // may still move, but must attempt to re-enter command and control
  mayCharge: false, // Units out-of-command cannot charge the enemy
  mayFireAtThreat: true, // they may fire if the enemy is a threat
  thresholdModifier: thresholdValue('outOfCommand'), // −3 [p.11]
} as const;

/**
 * [p.16] A-27: may an out-of-command unit end a movement primitive here? Not farther from its commander, and not
 * closer to any known enemy unit (edge to edge; the same enemies listed before and after, in order).
 */
export function outOfCommandMoveAllowed(
  before: { readonly commander: number; readonly enemies: readonly number[] },
  after: { readonly commander: number; readonly enemies: readonly number[] },
): boolean {
  if (after.commander > before.commander) return false;
  return after.enemies.every((d, j) => d >= (before.enemies[j] ?? -Infinity));
}

/** [p.17] optional initiative: D20 ≤ the leader's number keeps him in command this period (army: always). */
export function initiativeDist(initiative: number | null): Dist<boolean>[] {
  if (initiative === null) return [{ value: true, p: 1 }];
  const w = passCount(initiative);
  return [
    { value: true, p: w / 20 },
    { value: false, p: (20 - w) / 20 },
  ].filter((d) => d.p > 0);
}

/** A D20 consistent with an initiative result. */
export function initiativeFace(initiative: number, inCommand: boolean, u: Uniform): number {
  return pick(
    faces(20).filter((f) => f <= initiative === inCommand),
    u,
  );
}

// =====================================================================================================================
// Grand batteries [p.10]
// =====================================================================================================================

/**
 * How the engine reads the grand battery rule [p.10] and A-56 where neither says (turn.ts plays them; the README
 * lists them too).
 */
export const GRAND_BATTERY_READINGS: readonly string[] = [
  '1. [p.10] "Only the French, Austrian, and Russian armies": the side\'s doctrine flag `grandBatteryAllowed` (the ' +
    'scenario refuses it for other nations).',
  "2. One grand battery a side at a time: a side with a grand battery officer (a scenario's `grandBattery` leader, " +
    'or one appointed) appoints no other. The book gives a grand battery no end, so an appointment lasts the game.',
  '3. "A leader is appointed (usually at the division level)": a division leader (not a corps or army commander, ' +
    'whose subordinates would need re-ordering), not lost, not a staff officer, not attached to a unit at the start ' +
    'of his step 8 move; offered only when his side has two or more unlimbered batteries on the table (a grand ' +
    'battery of one battery is no grand battery).',
  '4. The forming point (A-56: "by moving the chosen leader to the forming point") is where his appointment move ' +
    'ends: straight toward the centroid of his side\'s unlimbered batteries, as far as his step 8 move allows (20", ' +
    'A-21), on the table; he arrives unattached. He is then "treated as a division commander under his original ' +
    'superior" (§6.2.2), with his own radius, bonuses and initiative; later step 8s move him as any leader.',
  '5. The staff officer [p.16 machinery, `staffOfficerFor`] takes the old post where the leader stood: no bonuses, ' +
    'the same command radius, the base initiative of the rank; he moves in later step 8s (stay, toward the centre of ' +
    'the units he commands, toward his superior, 20"), never attaches. The leader was not incapacitated: no threshold ' +
    "−3 and no victory points for the enemy [p.11, A-79]; the division keeps its threshold roll, but its leader's " +
    'influence (note 1) is gone with him.',
  '6. Joining (A-56): at step 1, before the command marking, each unlimbered battery (guns not lost) within a grand ' +
    "battery officer's command radius (measured as command is: A-26's path, or A-12's straight line) that he does not " +
    "already command is offered `join grand battery` or `stay`, its owner's open choice (nothing is hidden); with two " +
    'officers in reach, the nearer. The book\'s "the participating batteries are moved to that location" is A-56\'s ' +
    '"within the radius": nothing is moved.',
  '7. Leaving (A-56 "unless the battery limbers and leaves the radius"): checked at step 1, before the declarations: a ' +
    "member that is limbered and outside its officer's radius goes back to its scenario commander. A member still " +
    'unlimbered stays one wherever it is (it is then out of command outside his radius). A member is counted in its ' +
    'old division for thresholds [p.11] and written orders [p.17]: only command changes.',
];

/** What an appointment needs to know about the leader and his side [p.10]. */
export interface GrandBatteryAppointment {
  /** The side's doctrine flag `grandBatteryAllowed` (French, Austrian, Russian). */
  readonly allowed: boolean;
  readonly rank: LeaderRole;
  readonly lost: boolean;
  readonly staffOfficer: boolean;
  readonly attached: boolean;
  /** The side already has a grand battery officer (a scenario's, or one appointed). */
  readonly sideHasGrandBattery: boolean;
  /** The side's unlimbered batteries on the table (guns not lost). */
  readonly unlimberedBatteries: number;
}

/** [p.10] may this leader be appointed grand battery commander in step 8 (GRAND_BATTERY_READINGS 1-3)? */
export function mayAppointGrandBattery(a: GrandBatteryAppointment): boolean {
  return (
    a.allowed &&
    a.rank === 'division' &&
    !a.lost &&
    !a.staffOfficer &&
    !a.attached &&
    !a.sideHasGrandBattery &&
    a.unlimberedBatteries >= 2
  );
}

/**
 * A-56 the forming point (GRAND_BATTERY_READINGS 4): from the leader's point straight toward the centroid of the
 * batteries' centres, as far as `reach` (1/100"); positions 1/100", rounded.
 */
export function formingPoint(at: Vec, batteries: readonly Vec[], reach: number): Vec {
  if (!batteries.length) return at;
  const c = {
    x: batteries.reduce((t, p) => t + p.x, 0) / batteries.length,
    y: batteries.reduce((t, p) => t + p.y, 0) / batteries.length,
  };
  const d = dist(at, c);
  const go = Math.min(reach, d);
  if (d === 0) return { x: Math.round(at.x), y: Math.round(at.y) };
  return { x: Math.round(at.x + ((c.x - at.x) / d) * go), y: Math.round(at.y + ((c.y - at.y) / d) * go) };
}

/** A battery as the grand battery rule sees it at step 1. */
export interface GrandBatteryBattery {
  readonly unlimbered: boolean;
  /** The command distance (A-12) from the officer to the battery, 1/100". */
  readonly distance: number;
  /** The officer's command radius, inches. */
  readonly radius: number;
}

/** may the battery be declared a member at step 1 (unlimbered within the officer's radius)? */
export function mayJoinGrandBattery(b: GrandBatteryBattery): boolean {
  return b.unlimbered && b.distance <= b.radius * IN;
}

/** does a member leave its grand battery (limbered and outside the officer's radius)? */
export function leavesGrandBattery(b: GrandBatteryBattery): boolean {
  return !b.unlimbered && b.distance > b.radius * IN;
}

// =====================================================================================================================
// Written orders (option #2) [p.17-18]
// =====================================================================================================================

/** What a change of orders' delay needs. */
export interface OrderChangeInput {
  readonly cavalryDivision?: boolean;
  readonly nationality: Nationality;
  /** Prussians of 1806 or before (+2); later (+1). */
  readonly prussian1806?: boolean;
  readonly napoleonArmyCommander?: boolean;
  readonly from: Order;
  readonly to: Order;
  /** Inches between the leaders (A-26 path when modelled; here as given). */
  readonly leadersDistance: number;
  readonly enemyWithin12OrCommitted?: boolean;
  readonly leaderLost?: boolean;
  readonly badWeather?: boolean;
}

const orderValue = (id: OrderChangeId): number => ORDER_CHANGE_MODIFIERS.find((r) => r.id === id)!.value;

/** [p.17] the modifiers of the order-change D6, each cited. */
export function orderChangeModifiers(c: OrderChangeInput): Mod[] {
  const out: Mod[] = [];
  const add = (id: OrderChangeId, value = orderValue(id)) => {
    if (value) out.push({ id, value, cite: 'p.17' });
  };
  if (c.cavalryDivision) add('cavalryDivision');
  if (c.nationality === 'french') add(c.napoleonArmyCommander ? 'frenchWithNapoleon' : 'french');
  if (c.from === 'Attack' && c.to === 'Pursuit') add('attackToPursuit');
  if (c.leadersDistance <= ORDER_CHANGE_DISTANCES.leadersTouching) add('leadersTouching');
  if (c.from === 'Reserve') add('onReserve');
  if (c.nationality === 'spanish' || (c.nationality === 'prussian' && c.prussian1806)) add('spanishOrPre1806Prussian');
  if (c.nationality === 'austrian' || c.nationality === 'russian' || (c.nationality === 'prussian' && !c.prussian1806))
    add('austrianRussianOrPost1806Prussian');
  add('per12Inches', Math.floor(c.leadersDistance / ORDER_CHANGE_DISTANCES.perInches) * orderValue('per12Inches'));
  if (c.enemyWithin12OrCommitted) add('enemyWithin12OrCommitted');
  if (c.leaderLost) add('leaderLost');
  if (c.badWeather) add('badWeather');
  return out;
}

/** [p.17] the exact distribution of the periods until a changed order takes effect (1D6 + mods, 1 or less → 1). */
export function orderDelayDist(c: OrderChangeInput): Dist<number>[] {
  const mod = sumMods(orderChangeModifiers(c));
  return classify(sumDist(1, 6), (f) => orderDelay(f, mod)).sort((a, b) => a.value - b.value);
}

/** A D6 consistent with a delay, for display. */
export function orderDelayFace(c: OrderChangeInput, periods: number, u: Uniform): number {
  const mod = sumMods(orderChangeModifiers(c));
  return pick(
    faces(6).filter((f) => orderDelay(f, mod) === periods),
    u,
  );
}

/** The order a leader acts on after the misread roll: as written, or the table's letter. */
export type ReceivedOrder = 'asWritten' | MisreadOrder;

/**
 * [p.18] optional misreads: in the period the order arrives, D20 (+1 poor officer, +2 very bad) of 19 or more misreads
 * it; then a D6 on the table by the original order. Exact distribution over what he acts on.
 */
export function misreadDist(order: Order, officer: 0 | 1 | 2 = 0): Dist<ReceivedOrder>[] {
  const mis = faces(20).filter((f) => f + officer >= MISREAD.min).length;
  const out = new Map<ReceivedOrder, number>([['asWritten', (20 - mis) * 6]]);
  for (let d6 = 1; d6 <= 6; d6++) {
    const o = misreadOrder(order, d6);
    out.set(o, (out.get(o) ?? 0) + mis);
  }
  return [...out].filter(([, c]) => c > 0).map(([value, c]) => ({ value, p: c / 120 }));
}

/** Dice consistent with a misread result: the D20 and, when misread, the table's D6. */
export function misreadFaces(
  order: Order,
  officer: 0 | 1 | 2,
  r: ReceivedOrder,
  u: Uniform,
): { d20: number; d6?: number } {
  const misread = r !== 'asWritten';
  const d20 = pick(
    faces(20).filter((f) => f + officer >= MISREAD.min === misread),
    u,
  );
  if (!misread) return { d20 };
  return {
    d20,
    d6: pick(
      faces(6).filter((f) => misreadOrder(order, f) === r),
      u,
    ),
  };
}

/** [p.18] what a misread order means. */
export const MISREAD_MEANING: Readonly<Record<MisreadOrder, string>> = {
  A: 'attack the closest enemy group of units in line of sight',
  D: 'defend the ground it currently occupies',
  W: 'withdraw for one turn, then defend',
  M: 'manoeuvre to an objective at least 10" away (no conditions), then defend',
};

/** [p.18] the full order a misread letter stands for. */
export function misreadAsOrder(m: MisreadOrder): Order {
  return m === 'A' ? 'Attack' : m === 'D' ? 'Defend' : m === 'W' ? 'Withdraw' : 'Maneuver';
}

/** [p.18] a misread Manoeuvre's objective must be at least 10" away. */
export function misreadManoeuvreObjectiveOk(distance: number): boolean {
  return distance >= ORDER_DISTANCES.misreadManoeuvreMin;
}

/** [p.17] an attacking division is committed when at least ½ of its units are within 12" of enemy units. */
export function divisionCommitted(enemyDistances: readonly number[]): boolean {
  const near = enemyDistances.filter((d) => d <= ORDER_DISTANCES.committedRange).length;
  return enemyDistances.length > 0 && near >= ORDER_DISTANCES.committedFraction * enemyDistances.length;
}

/** [p.17] a Reserve order becomes Defend/Hold once any enemy unit is within 24" of any unit of the division. */
export function reserveBecomesDefend(nearestEnemy: number): boolean {
  return nearestEnemy <= ORDER_DISTANCES.reserveTrigger;
}
