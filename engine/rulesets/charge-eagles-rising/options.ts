/**
 * Charge! Eagles Rising: the rules options. The quick-reference sheets (the book) leave gaps that the digest
 * (`shared/rules/charge-eagles-rising.md` §8) fills with fourteen groups of ADAPTATIONs, C1–C14. Every reading in
 * them is a named option here whose default is the digest's reading. An option lists the readings it accepts; the
 * ones the engine does not play (yet) are refused by `checkOptions` with a one-line error naming the option, the
 * value and the C-number. A value outside an option's list, or an option name that does not exist, is refused the
 * same way (with the name it probably misspells).
 *
 * Policy for what counts as played: the digest's reading always; a numeric alternative that only changes a
 * parameter the engine reads (a distance, a fraction, a modifier) as well; a categorical alternative (another
 * procedure) only once the engine builds it, which is when its value joins `played`.
 *
 * This module depends on nothing in the ruleset (types.ts and scenario.ts import it).
 */
import { z } from 'zod';
import type { Problem } from '../../core/game.ts';
import { strictObject, suggest } from '../../core/suggest.ts';
import { SKIRMISH_VALUES, type SkirmishValues } from './tables.ts';

/** The digest's ADAPTATION groups. */
type AdaptationId = `C${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14}`;

type Lit = string | number | boolean;

/** One named option: the readings it accepts, the digest's (the default), and those the engine plays. */
export interface OptionSpec<V extends Lit = Lit> {
  readonly c: AdaptationId;
  /** What the option decides, in a few words. */
  readonly what: string;
  readonly values: readonly V[];
  readonly default: V;
  readonly played: readonly V[];
  /** What each accepted value means (the default's text is the digest's reading). */
  readonly means: Readonly<Record<string, string>>;
}

function opt<const V extends readonly Lit[]>(
  c: AdaptationId,
  what: string,
  values: V,
  dflt: V[number],
  played: readonly V[number][],
  means: Readonly<Record<string, string>>,
): OptionSpec<V[number]> & { readonly values: V } {
  return { c, what, values, default: dflt, played, means };
}

/** Every value playable (a parameter the engine reads). */
const all = <const V extends readonly Lit[]>(v: V): readonly V[number][] => v;

/**
 * The named options with a list of readings, by ADAPTATION. `means` gives the reading of each value; the default's
 * is the digest's text.
 */
export const OPTION_SPECS = {
  // ----- C1: scale -----
  turnMinutes: opt('C1', 'minutes a turn represents', [15, 20, 30], 15, all([15, 20, 30]), {
    15: '1 turn = 15 minutes: "per hour" = every 4 turns',
    20: '"per hour" = every 3 turns',
    30: '"per hour" = every 2 turns',
  }),

  // ----- C2: orders, structure, acceptance, messengers, integrity -----
  orderTypes: opt(
    'C2',
    'the order types',
    ['attackHoldAdvanceReserveWithdraw'],
    'attackHoldAdvanceReserveWithdraw',
    ['attackHoldAdvanceReserveWithdraw'],
    {
      attackHoldAdvanceReserveWithdraw:
        'five orders (Attack, Hold, Advance, Reserve, Withdraw) with the §6.1 table of what each permits',
    },
  ),
  orderRecipients: opt('C2', 'who receives an order', ['formation', 'element'], 'formation', ['formation'], {
    formation: 'an MF (all its MEs follow its order) or an independent ME',
    element: 'every ME separately, also inside an MF',
  }),
  orderIssuer: opt('C2', 'who issues orders', ['commander', 'chain'], 'commander', ['commander'], {
    commander: 'the army/wing CC issues every order; ranges measured from him',
    chain: "an MF leader issues his MEs' orders",
  }),
  acceptanceSigns: opt('C2', 'how the acceptance modifiers apply', ['helpful', 'printed'], 'helpful', ['helpful'], {
    helpful:
      'target = rating + CC modifier − floor((attempts − 1)/per hour) − 2 if uncommitted; 2D6 (+2 if the CC is attached) ≥ target',
    printed: 'every modifier added to the number as printed (CC attached +2 to the number: harder)',
  }),
  messengerDelayTurns: opt('C2', 'turns a messenger takes', [1, 2], 1, all([1, 2]), {
    1: 'the messenger arrives at the next S1 and the order is rolled in that S2',
    2: 'two turns later',
  }),
  brigadeIntegrity: opt('C2', 'brigade integrity distance (inches)', [6, 4, 8], 6, all([6, 4, 8]), {
    6: 'a unit more than 6" from every other unit of its ME is out of integrity',
    4: '4"',
    8: '8"',
  }),

  // ----- C3: losses and fire -----
  kia: opt('C3', 'what one KIA is', ['figureOrGun'], 'figureOrGun', ['figureOrGun'], {
    figureOrGun: '1 KIA = one figure (infantry, cavalry) or one gun (artillery); each fire hit = 1 KIA',
  }),
  gunStrength: opt('C3', 'strength points a gun counts for % lost', [3, 2, 4], 3, all([3, 2, 4]), {
    3: 'strength = figures + 3 × guns',
    2: 'figures + 2 × guns',
    4: 'figures + 4 × guns',
  }),
  nineGunDice: opt('C3', 'd10s a 9-gun battery rolls', [2, 3], 2, all([2, 3]), {
    2: '9 guns = 2d10 (the sheet gives 6–8 and 10+)',
    3: '9 guns = 3d10',
  }),
  smallArmsAboveTen: opt('C3', 'small arms to-hit above 10', ['naturalTen', 'noHit'], 'naturalTen', ['naturalTen'], {
    naturalTen: 'the artillery rule: a natural 10, then a d10 > 6 (11), > 8 (12); 13+ impossible',
    noHit: 'small arms cannot hit above 10',
  }),
  artilleryCloseRange: opt(
    'C3',
    'close-range artillery modifiers',
    ['restored', 'asExtracted'],
    'restored',
    ['restored'],
    {
      restored:
        'heavy −2, medium −1, light −1 at close range (minus signs lost in extraction restored: close range must help)',
      asExtracted: 'heavy +2, medium +1, light +1 as the extracted text reads',
    },
  ),

  // ----- C4: unit sizes and footprints -----
  footprints: opt('C4', 'footprints', ['digest'], 'digest', ['digest'], {
    digest:
      'infantry 0.5" a figure and 0.5" a rank; column 4 wide, march column 2 wide; square side 0.5 × ceil(N/4); cavalry 3 figures a 1.5" × 1.25" stand; guns 0.5" × 1.5"; limbered 1" × (0.5" a gun + 1")',
  }),
  skirmishers: opt('C4', 'who may take Skirmish formation', ['lightOnly', 'anyInfantry'], 'lightOnly', ['lightOnly'], {
    lightOnly: 'light infantry battalions and light cavalry only',
    anyInfantry: 'any infantry battalion',
  }),
  compressedFrontage: opt('C4', 'compressed frontage', [false, true], false, [false], {
    false: 'no compressed frontage',
    true: 'compressed frontage exists (its rules are in the missing book)',
  }),

  // ----- C5: arcs, zones, sight -----
  threatZone: opt('C5', 'shape of a threat zone', ['front', 'allRound'], 'front', ['front'], {
    front: 'points ahead of the enemy\'s front-edge line within 10" (cavalry) or 5" (infantry)',
    allRound: 'any point within 10" / 5" of the enemy',
  }),
  arcs: opt('C5', 'arcs, open frontage, sight, flank fire', ['digest'], 'digest', ['digest'], {
    digest:
      "front/fire arc from the front corners at 45°; open frontage: no friend in the front arc nearer than the nearest enemy; LOS per §3.3; flank fire: the battery's centre in the target's flank or rear sector",
  }),
  grandBatteryMin: opt('C5', 'batteries that make a grand battery', [3, 2], 3, all([3, 2]), {
    3: '3 or more batteries at one target in one fire step, each within 2" of another',
    2: '2 or more',
  }),

  // ----- C6: movement -----
  terrainCost: opt('C6', 'what a terrain value is', ['extra', 'total'], 'extra', ['extra'], {
    extra: 'an extra cost per 1" (light woods: an infantry inch costs 2.5")',
    total: 'the total cost per 1"',
  }),
  limberCost: opt('C6', 'inches to limber or unlimber', [2, 0, 4], 2, all([2, 0, 4]), {
    2: 'limber or unlimber costs 2"',
    0: 'free',
    4: '4"',
  }),
  interpenetration: opt(
    'C6',
    'moving through friends',
    ['passageOfLinesOnly'],
    'passageOfLinesOnly',
    ['passageOfLinesOnly'],
    {
      passageOfLinesOnly:
        'only the stated passage of lines; retiring = a net rearward move at retiring rates, facing kept',
    },
  ),

  // ----- C7: hidden orders, sequence, approach, initiative -----
  secretOrders: opt('C7', 'how orders are written', ['sealed', 'open'], 'sealed', ['sealed'], {
    sealed: 'sequential hidden commits: side A then side B write in secret, revealed at S2',
    open: 'orders written openly',
  }),
  strategicFirst: opt(
    'C7',
    'who moves first in S4',
    ['previousSecond', 'initiativeWinner'],
    'previousSecond',
    ['previousSecond'],
    {
      previousSecond:
        "the side that went second in the previous tactical phase (turn 1: the scenario's `strategicFirst`)",
      initiativeWinner: 'the previous initiative winner',
    },
  ),
  attackStandOff: opt('C7', "how close an Attack order's strategic move may end (inches)", [3, 5], 3, all([3, 5]), {
    3: 'an ME on Attack orders may end its strategic move 3" from the enemy',
    5: '5"',
  }),
  initiativeTies: opt('C7', 'initiative ties', ['reroll', 'previousFirst'], 'reroll', ['reroll'], {
    reroll: 'each side rolls 2D6 + modifiers; re-roll ties',
    previousFirst: 'a tie keeps the previous first side',
  }),
  strategicMoversTactical: opt(
    'C7',
    'what a unit that moved strategically may do',
    ['fireOnly', 'any'],
    'fireOnly',
    ['fireOnly'],
    {
      fireOnly: "it may Fire or Hold in this turn's tactical phase, not Move or Charge",
      any: 'no restriction',
    },
  ),

  // ----- C8: inside T2, return fire, op-charges, reactions -----
  chargeDeclaration: opt(
    'C8',
    'when charges are declared',
    ['afterActivations', 'perActivation'],
    'afterActivations',
    ['afterActivations'],
    {
      afterActivations: "non-charge ME activations first, then all the side's charges at once (T2b), then T2e",
      perActivation: "charges declared within each ME's activation",
    },
  ),
  returnFire: opt(
    'C8',
    'return fire',
    ['oncePerEnemyActivation', 'none'],
    'oncePerEnemyActivation',
    ['oncePerEnemyActivation'],
    {
      oncePerEnemyActivation: 'each unit fired on may return fire once per enemy ME activation, simultaneously',
      none: 'no return fire',
    },
  ),
  opCharges: opt('C8', 'opportunity charges', ['afterEnemyMove', 'off'], 'afterEnemyMove', ['afterEnemyMove'], {
    afterEnemyMove: 'a non-active cavalry unit may op-charge an enemy that completed a Move in its front arc and reach',
    off: 'no opportunity charges',
  }),
  chargeRulings: opt('C8', 'the §6.11 rulings', ['digest'], 'digest', ['digest'], {
    digest:
      'counter-charges meet halfway (both charging); abandoned guns captured on contact; combined cavalry/infantry charge: the cavalry closes unless its test fails; British counter-charge counts as charging (+1), failure disordered; square at 2–5": hasty; charge reach = tactical move (+ double quick), one wheel',
  }),

  // ----- C9: skirmish combat -----
  skirmishPairing: opt('C9', 'whom an ME skirmishes with', ['nearestElement'], 'nearestElement', ['nearestElement'], {
    nearestElement: 'each ME with qualifying units picks the nearest enemy ME with units in the band and rolls 1 d10',
  }),
  skirmishHits: opt('C9', 'how skirmish hits are allocated', ['uniformRandom'], 'uniformRandom', ['uniformRandom'], {
    uniformRandom: 'each hit to a uniformly random unit of the target ME in the band of the firing ME',
  }),
  skirmishCavalryTargets: opt('C9', 'cavalry as skirmish targets', [false, true], false, [false], {
    false: 'cavalry cannot be hit by skirmish fire',
    true: 'cavalry may be hit',
  }),

  // ----- C10: morale triggers -----
  moraleTriggers: opt('C10', 'when ME, MF and Army morale is tested', ['digest', 'everyTurn'], 'digest', ['digest'], {
    digest:
      'an ME tests after a KIA, a lost CAC or a unit broken since the last S3, or when a friendly MF/ME within 18" breaks; an MF when one of its MEs breaks; the Army when ≥ 33⅓% lost with new losses; each at most once an S3',
    everyTurn: 'every ME tests every S3',
  }),
  retireDirection: opt(
    'C10',
    'where a retire goes',
    ['awayFromNearestEnemy', 'towardHomeEdge'],
    'awayFromNearestEnemy',
    ['awayFromNearestEnemy'],
    {
      awayFromNearestEnemy: 'straight away from the nearest enemy, facing unchanged; artillery limbers and retreats 8"',
      towardHomeEdge: "toward the side's home edge",
    },
  ),

  // ----- C11: markers and tests -----
  wornAt: opt('C11', 'losses that make a unit Worn', ['1/3', '1/4'], '1/3', all(['1/3', '1/4']), {
    '1/3': 'Worn at ⅓ of its starting figures or guns lost',
    '1/4': 'at ¼',
  }),
  spentAt: opt('C11', 'losses that make a unit Spent', ['1/2', '2/3'], '1/2', all(['1/2', '2/3']), {
    '1/2': 'Spent at ½ lost',
    '2/3': 'at ⅔',
  }),
  chargeTest: opt('C11', 'tests a charger takes', ['combined', 'each'], 'combined', ['combined'], {
    combined:
      'one combined closing test in T2e with every applicable modifier; worn/spent also tested when first reached',
    each: 'one test per trigger',
  }),
  suppression: opt('C11', 'how long SUPPRESSED lasts', ['endOfTurn', 'nextActivation'], 'endOfTurn', ['endOfTurn'], {
    endOfTurn: 'removed at the end of the current turn',
    nextActivation: "removed after the battery's next activation",
  }),
  blownRecoveryMoving: opt('C11', 'blown recovery while moving', [false, true], false, [false], {
    false: 'BLOWN is removed automatically in T2d only if the unit did not move this phase',
    true: 'a moving unit may test to remove BLOWN',
  }),
  autoPass: opt('C11', 'automatic passes and failures', ['lowNumber', 'snakeEyesFails'], 'lowNumber', ['lowNumber'], {
    lowNumber: 'a modified skill number ≤ 2 passes; above 12 fails',
    snakeEyesFails: 'a natural 2 always fails',
  }),
  toHitFloor: opt('C11', 'the lowest to-hit number', [2, 1], 2, all([2, 1]), {
    2: 'never below 2: a natural 1 always misses',
    1: 'a natural 1 may hit',
  }),

  // ----- C12: missing table entries -----
  superiorArrivalDrm: opt('C12', 'Superior leader on the arrival table', [3, 2], 3, all([3, 2]), {
    3: 'Superior +3',
    2: 'Superior +2 (as Excellent)',
  }),
  oldGuardMoraleDrm: opt('C12', 'Old Guard on the morale table', [3, 4], 3, all([3, 4]), {
    3: 'as Guard, +3',
    4: '+4',
  }),
  landwehrArrivalDrm: opt('C12', 'Landwehr on the arrival table', [-1, -2], -1, all([-1, -2]), {
    '-1': 'as Conscript, −1',
    '-2': 'as Militia, −2',
  }),
  artilleryCac: opt(
    'C12',
    'artillery close assault value',
    ['byCrewClass', 'byUnitClass'],
    'byCrewClass',
    ['byCrewClass'],
    {
      byCrewClass: 'crew class 1 = 7, 2 = 6, 3 = 5',
      byUnitClass: "the battery's unit class on the MG table",
    },
  ),
  arrivalLeader: opt(
    'C12',
    'whose quality counts on the arrival table',
    ['ownLeader', 'commander'],
    'ownLeader',
    ['ownLeader'],
    {
      ownLeader: 'the arriving ME\'s own leader ("CC/DC")',
      commander: 'the army CC',
    },
  ),
  delayedArrival: opt('C12', 'what "Delayed" means', ['rollNextS2', 'nextTurn'], 'rollNextS2', ['rollNextS2'], {
    rollNextS2: 'roll again next S2',
    nextTurn: 'arrives automatically next turn',
  }),
  replacementShift: opt('C12', "what a replacement leader's grade shifts", ['both', 'command'], 'both', ['both'], {
    both: 'command rating and inspiration both shift one step, bounded at the ends',
    command: 'only the command rating',
  }),

  // ----- C13: close assault -----
  multiUnitCac: opt('C13', 'several units in one CAC', ['leadUnit', 'sumOfUnits'], 'leadUnit', ['leadUnit'], {
    leadUnit:
      'each side fights with a lead unit (the first charger; the charged unit); others give the greater-number modifier; KIAs to lead units, FB/Ret/Broken to all',
    sumOfUnits: 'every unit adds its value',
  }),
  cavalryGrade: opt('C13', 'the "each grade heavier" modifier', ['absolute', 'relative'], 'absolute', ['absolute'], {
    absolute: 'light/medium/heavy/armored 0/+1/+2/+3 for charging or counter-charging cavalry',
    relative: '+1 for each grade heavier than the opponent',
  }),
  waveAttacks: opt('C13', 'cavalry wave attacks (rule 9.4.2.7, missing)', [false, true], false, [false], {
    false: 'no wave attacks: the "1st rank in wave attack" clause never triggers',
    true: 'wave attacks as rule 9.4.2.7 (not in the sheets)',
  }),
  cacRulings: opt('C13', 'the §6.13 rulings', ['digest'], 'digest', ['digest'], {
    digest:
      'Broken = removed; the 0 row: deploy into line and re-fight at once as a 2nd CAC (worn/spent test first), else fall back 2" or 4"; exploitation contact = a 2nd CAC after all initial ones, as charging, no closing fire',
  }),
  cavalryZeroVsCavalry: opt(
    'C13',
    'the 0 result between cavalry',
    ['bothFallBack', 'chargerFallsBack'],
    'bothFallBack',
    ['bothFallBack'],
    {
      bothFallBack: 'both cavalry units fall back 12" D & B',
      chargerFallsBack: 'only the charger falls back',
    },
  ),
  maxCacPerPhase: opt('C13', 'CACs a unit may fight a phase', [2, 3], 2, all([2, 3]), {
    2: 'at most two',
    3: 'at most three',
  }),

  // ----- C14: game end and victory (length: the scenario's `turns`, 8 by default) -----
  elementDefeatFraction: opt(
    'C14',
    'share of MEs broken or removed that defeats a side',
    ['1/2', '2/3'],
    '1/2',
    all(['1/2', '2/3']),
    {
      '1/2': 'at the end of a turn, 50% or more of its MEs (by starting count) broken or removed: defeated',
      '2/3': '⅔ or more',
    },
  ),
  lossVpStep: opt('C14', 'percent of enemy strength lost per VP', [5, 10], 5, all([5, 10]), {
    5: "+1 VP per full 5% of the enemy's starting strength lost",
    10: 'per full 10%',
  }),
  objectiveVp: opt('C14', 'VP per objective held', [3, 1, 5], 3, all([3, 1, 5]), {
    3: '+3 per objective held (a formed unit in or within 3", no enemy within 3")',
    1: '+1',
    5: '+5',
  }),
} as const;

export type OptionName = keyof typeof OPTION_SPECS;
type ListValue<K extends OptionName> = (typeof OPTION_SPECS)[K]['values'][number];

/** C9: skirmish combat values by battalion (App. B is missing). */
type ScvValues = SkirmishValues;

/** C4: the largest strength of each size class (small, standard, large; above: extra large), by arm. */
interface SizeClasses {
  readonly infantry: readonly [number, number, number];
  readonly cavalry: readonly [number, number, number];
  readonly artillery: readonly [number, number, number];
}

export type Options = { readonly [K in OptionName]: ListValue<K> } & {
  readonly scv: ScvValues;
  readonly sizeClasses: SizeClasses;
};

/** C9: the digest's skirmish values (tables.ts). */
const DEFAULT_SCV: ScvValues = SKIRMISH_VALUES;

const DEFAULT_SIZE_CLASSES: SizeClasses = {
  infantry: [16, 30, 40],
  cavalry: [8, 15, 20],
  artillery: [4, 8, 12],
};

// ---------------------------------------------------------------------------------------------------------------------
// The ADAPTATIONs (digest §8)
// ---------------------------------------------------------------------------------------------------------------------

export interface Adaptation {
  readonly id: AdaptationId;
  readonly title: string;
  /** What the sheets leave open. */
  readonly gap: string;
  /** The digest's reading (the defaults of its options). */
  readonly reading: string;
  readonly options: readonly (OptionName | 'scv' | 'sizeClasses')[];
}

const optionsOf = (c: AdaptationId): OptionName[] =>
  (Object.keys(OPTION_SPECS) as OptionName[]).filter((k) => OPTION_SPECS[k].c === c);

const A = (id: AdaptationId, title: string, gap: string, reading: string, extra: ('scv' | 'sizeClasses')[] = []) => ({
  id,
  title,
  gap,
  reading,
  options: [...optionsOf(id), ...extra],
});

/** Every ADAPTATION of the digest, C1–C14, with the options that carry its readings. */
export const ADAPTATIONS: readonly Adaptation[] = [
  A('C1', 'Scale', 'no ground or time scale', '1 turn = 15 minutes ("per hour" = 4 turns); inches only'),
  A(
    'C2',
    'Orders and command structure',
    'order types and what each permits; acceptance modifiers; messenger delay; ME/MF structure; brigade integrity',
    'five orders (Attack, Hold, Advance, Reserve, Withdraw); Army → optional MFs → MEs, each ME with one Division/Cav Brigade-level leader; the CC issues all orders; a messenger arrives next S1; integrity = within 6" of another unit of the ME',
  ),
  A(
    'C3',
    'Losses and fire',
    'what a KIA is; fire hits; 9 guns; the >10 rule for small arms; lost minus signs on close-range artillery',
    '1 KIA = 1 figure or 1 gun (strength = figures + 3 × guns); each hit = 1 KIA; 9 guns = 2d10; the same >10 rule for small arms; close-range values −2/−1/−1',
  ),
  A(
    'C4',
    'Unit sizes and footprints',
    'unit sizes, figures per rank, stands, footprints, size classes, skirmish eligibility, compressed frontage',
    'digest §3.1 footprints; 0.5" a figure; 3 cavalry figures a stand; Skirmish for light units only; no compressed frontage; size classes by current strength',
    ['sizeClasses'],
  ),
  A(
    'C5',
    'Arcs, zones and sight',
    'arcs, threat zones, open frontage, LOS, grand battery, flank fire',
    '§3.2/§3.3 definitions; threat zone = ahead of the front edge within 10" (cavalry) or 5" (infantry); grand battery = 3+ batteries each within 2" of another',
  ),
  A(
    'C6',
    'Movement',
    'whether terrain values are extra or total; retiring; shifts; limber cost; interpenetration',
    'extra cost per inch; rearward moves at retiring rates; limber −2"; only the stated passage of lines',
  ),
  A(
    'C7',
    'Secrecy and sequence',
    'hidden simultaneous orders; order of strategic moves; how close Attack orders may get; initiative dice',
    'sequential hidden commits; the previous second side moves first; Attack ≥ 3"; initiative 2D6 + modifiers, re-roll ties; strategic movers may only Fire',
  ),
  A(
    'C8',
    'Tactical sequence and reactions',
    '"except T2b"; return fire; op-charge trigger; counter-charge geometry; abandoned guns; combined charges; British counter-charge; square at 2–5"',
    'non-charge ME activations first, then all charges together; one return fire per enemy ME activation; op-charge after an enemy move within reach; meet halfway; §6.11 rulings',
  ),
  A(
    'C9',
    'Skirmish combat',
    'skirmish combat values (App. B missing); the "by brigade" pairing; hit allocation; cavalry targets',
    'SCV line Regular+ 2, line Conscript− 1, light 4, rifles 5, ×2 in Skirmish, cavalry/artillery/squares/march columns 0; nearest enemy ME; uniform random allocation; cavalry not hit',
    ['scv'],
  ),
  A(
    'C10',
    'Morale triggers',
    'when ME/MF/Army morale tests are taken; retire direction',
    'the §6.4 triggers; retire straight away from the nearest enemy',
  ),
  A(
    'C11',
    'Markers and tests',
    'when a unit becomes Worn/Spent; combined charge tests; suppression duration; blown recovery while moving; automatic passes',
    'Worn at ⅓ losses, Spent at ½; one combined closing test; suppression lasts the turn; no blown recovery if moving; a modified number ≤ 2 passes automatically; to-hit never below 2',
  ),
  A(
    'C12',
    'Missing table entries',
    'Superior leader on arrival, Old Guard morale, Landwehr arrival, artillery CAC value; "delayed"; replacement grades',
    "Superior +3; Old Guard as Guard; Landwehr as Conscript; artillery MG by crew class; delayed = roll again next S2; both ladders shift; the arriving ME's own leader; crew class by unit class (Guard/Elite 1, Regular/Veteran 2, others 3)",
  ),
  A(
    'C13',
    'Close assault',
    'multi-unit CACs; "each grade heavier"; wave attacks (9.4.2.7 missing); the ambiguous 0 row; cavalry 0 result vs cavalry; Broken',
    'lead-unit rule; absolute grade bonus; no wave attacks; the 0-row procedure of §6.13; both cavalry fall back; Broken = removed; at most two CACs a unit a phase',
  ),
  A(
    'C14',
    'Game end and victory',
    'game length; victory',
    '8 turns (the scenario may say otherwise); defeat when the Army breaks or 50% of MEs are broken or removed; otherwise VP from 5% steps of enemy losses and 3 per objective held',
  ),
];

// ---------------------------------------------------------------------------------------------------------------------
// Schema, defaults and the check
// ---------------------------------------------------------------------------------------------------------------------

const fmt = (v: unknown) => JSON.stringify(v);

function listSchema(name: OptionName) {
  const s = OPTION_SPECS[name];
  const vals = s.values as readonly [Lit, ...Lit[]];
  return z
    .literal(vals, {
      error: (iss) =>
        `option ${name} = ${fmt(iss.input)} is not a reading of ${s.c} (${s.what}): one of ${vals.map(fmt).join(', ')} (default ${fmt(s.default)})`,
    })
    .default(s.default as never);
}

const int = (lo: number, hi: number) => z.number().int().min(lo).max(hi);

const scvSchema = strictObject({
  lineRegularOrBetter: int(0, 20).default(DEFAULT_SCV.lineRegularOrBetter),
  lineConscriptOrWorse: int(0, 20).default(DEFAULT_SCV.lineConscriptOrWorse),
  light: int(0, 20).default(DEFAULT_SCV.light),
  rifle: int(0, 20).default(DEFAULT_SCV.rifle),
  skirmishFormation: int(1, 4).default(DEFAULT_SCV.skirmishFormation),
}).default(DEFAULT_SCV);

const ascending = (arm: string) =>
  z
    .tuple([int(1, 500), int(1, 500), int(1, 500)])
    .refine(([a, b, c]) => a < b && b < c, `the largest small, standard and large ${arm} strengths, ascending (C4)`);

const sizeSchema = strictObject({
  infantry: ascending('infantry').default([...DEFAULT_SIZE_CLASSES.infantry]),
  cavalry: ascending('cavalry').default([...DEFAULT_SIZE_CLASSES.cavalry]),
  artillery: ascending('artillery').default([...DEFAULT_SIZE_CLASSES.artillery]),
}).default({
  infantry: [...DEFAULT_SIZE_CLASSES.infantry],
  cavalry: [...DEFAULT_SIZE_CLASSES.cavalry],
  artillery: [...DEFAULT_SIZE_CLASSES.artillery],
});

const listShape = Object.fromEntries(
  (Object.keys(OPTION_SPECS) as OptionName[]).map((k) => [k, listSchema(k)]),
) as unknown as {
  [K in OptionName]: z.ZodType<ListValue<K>>;
};

/** The scenario's `options` block: strict (an unknown option is refused with the name it probably misspells). */
export const optionsSchema = strictObject({
  ...listShape,
  scv: scvSchema,
  sizeClasses: sizeSchema,
}) as unknown as z.ZodType<Options, unknown>;

/** Every option at the digest's reading. */
export const DEFAULT_OPTIONS: Options = optionsSchema.parse({});

/** Options whose value the engine does not play, each as a one-line problem naming the option, value and C-number. */
export function optionProblems(o: Options, path = '$.options'): Problem[] {
  const out: Problem[] = [];
  for (const k of Object.keys(OPTION_SPECS) as OptionName[]) {
    const s = OPTION_SPECS[k] as OptionSpec;
    const v = o[k] as Lit;
    if (!s.played.includes(v))
      out.push({
        path: `${path}.${k}`,
        message: `option ${k} = ${fmt(v)} (${s.means[String(v)]}) is not played by this engine (${s.c}); played: ${s.played.map(fmt).join(', ')}`,
      });
  }
  return out;
}

/** "1/3" → 0.333… */
export function fraction(f: string): number {
  const [a, b] = f.split('/').map(Number);
  return a! / b!;
}

/** A refused rules option: one line naming the option and the value. */
export class OptionError extends Error {
  readonly code = 'options/refused';
}

/**
 * Options from untrusted input (a scenario's block, a command line), defaults filled in. Throws an `OptionError` whose
 * one-line message names the first option refused and its value: an unknown name (with the name it may misspell), a
 * value that is not a reading of its ADAPTATION, or a reading the engine does not play.
 */
export function checkOptions(raw: unknown = {}): Options {
  if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw)))
    throw new OptionError(`options: an object of named rules options, not ${fmt(raw)}`);
  const known = [...Object.keys(OPTION_SPECS), 'scv', 'sizeClasses'];
  for (const k of Object.keys(raw as object))
    if (!known.includes(k)) {
      const near = suggest(k, known);
      throw new OptionError(
        `option ${k} = ${fmt((raw as Record<string, unknown>)[k])} does not exist${near ? ` (did you mean "${near}"?)` : ''}`,
      );
    }
  const r = optionsSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    const where = i.path.join('.');
    throw new OptionError(i.message.startsWith('option ') ? i.message : `option ${where}: ${i.message}`);
  }
  const p = optionProblems(r.data);
  if (p.length) throw new OptionError(p[0]!.message);
  return r.data;
}
