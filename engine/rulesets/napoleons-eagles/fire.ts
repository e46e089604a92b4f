/**
 * Napoleon's Eagles (1:30, 15mm): musket, rifle and carbine fire, canister, solid shot (with howitzer shell), firing
 * out of buildings, rapid fire and ammunition, as pure rule functions (digest §6.4, §6.5, §6.10, §6.11.4). Not yet
 * wired into a game.
 *
 * A shot is a small explicit description (the firer's rating and fatigue, its firing figures or guns, 1 or 2 actions,
 * the range, the targets with their formation and cover, the optional rules in play). `resolveFire` gives the
 * modifiers applied to each roll, each citing the book's page and the digest's ADAPTATION where one is used, and the
 * EXACT distribution over the outcome classes (casualties per target, solid-shot hits and fraction rolls, morale
 * marks and their reasons, elimination and neutralisation, ammunition sixes and level, rapid-fire fatigue). Nothing
 * here draws a random number: the game's driver picks an outcome. `fireFaces` gives dice faces consistent with a
 * chosen outcome (for a human at a physical table), and `outcomeOfFaces` reads faces entered by hand.
 *
 * Page citations `[p.N]` follow the digest's page map (`shared/rules/napoleons-eagles.md` §0). THE BOOK WINS where it
 * and the digest disagree; the readings this file makes are listed in `FIRE_READINGS`.
 */
import type { Dist, Uniform } from '../../core/dice.ts';
import { DEFAULT_OPTIONS, type Options } from './scenario.ts';
import {
  type AmmoLevel,
  type Calibre,
  FATIGUE_INCREASE,
  FIRE_MODIFIERS,
  FIRING,
  type FatigueLevel,
  type FireCover,
  type FireModifierId,
  type FireRating,
  type FireWeather,
  HOWITZER,
  RANGE_LIMITS,
  type RangeBand,
  type SmallArm,
  BUILDINGS,
  WEATHER,
  ammoAfter,
  ammoDice,
  bounce,
  canisterGuns,
  canisterRowFigures,
  fatigueAfter,
  howitzerDamageBonus,
  interveningScreenSplit,
  leaderLossMaxRoll,
  musketFireCasualties,
  musketRowFigures,
  neutralisedAtHits,
  rangeBand,
  secondBounceZone,
  solidShotDamagePerHit,
  solidShotHitFaces,
  DAMAGE_PER_CASUALTY,
  ARTILLERY,
} from './tables.ts';
import type { Formation, GunsState } from './types.ts';

/** The readings this file makes where the book is silent or reads two ways (book vs digest included). */
export const FIRE_READINGS: readonly string[] = [
  '1. [p.9] the die roll modifiers are cumulative; A-42: of the cover modifiers (walls/redoubts, hedges/prepared ' +
    'defences, light woods, dense woods, buildings) only the single worst applies, and a woods modifier counts once ' +
    'whether the target is in the woods or the fire passes through them [p.19].',
  '2. [p.9] "+2 for firing at columns/squares": road columns count as columns; A-42 and [p.21] note 2: disordered and ' +
    'retreat-status units are formed targets in their last formation (no skirmisher modifier, but the column/square ' +
    '+2 if in one). The p.21 flank-line "dense target" rule is solid shot only (as the book says).',
  '3. [p.20] weather: the book says "muskets fire with a -2…"; A-42 applies it to rifles and carbines too, never to ' +
    'canister or solid shot. Heavy rain forbids rapid fire.',
  '4. [p.9] "+2 for two-rank training" is a unit attribute: it applies to small-arms fire of two-rank infantry in any ' +
    'formation (a skirmish screen too); never to canister.',
  '5. [p.18] the organic-skirmisher −1 applies to die-roll fire (small arms and canister) at the parent unit, not to ' +
    'solid-shot hit dice; none when the parent is in square, disordered or in retreat status.',
  '6. [p.19] intervening screen: infantry firers only (screens included; not cavalry carbines, not artillery); the ' +
    'split is of the figures that fire, round(N/4) halves up at the screen, each share then doubled for two actions.',
  '7. [p.8, p.10] canister: the row is 2 × guns firing × actions; howitzers count only within 6"; canister is allowed ' +
    'within the calibre\'s close band ("* notes cannister range"). Defence fire is at contact (range 0, close band).',
  '8. [p.10] the howitzer +2 per howitzer goes to the first unit along the bounce only (the one the caller lists ' +
    'first), and only on a hit (automatic: damage is only counted for hits); R is the range to the point of aim.',
  '9. [p.11] ammunition: one D6 per action (doubled for rapid fire) after every firing, canister or solid shot, ' +
    'normal or defence; each 6 one step; regimental guns are out at the 2nd six.',
  '10. [p.10] rapid fire: casualties ×2 (solid shot: after the fraction roll, per unit), fatigue +3 after firing; as a ' +
    'defence action the option rapidFireDefenceFatigue (A-49, default +3, alternative the p.5 "+2").',
  '11. [p.10] neutralisation at hits = guns (+1 French/Prussian Guard): the option neutralisedAt (A-50) picks all ' +
    'guns (default, the book\'s "a battery of eight guns can take eight hits") or cannons only (the book\'s ' +
    '"number of cannons").',
  '12. [p.11] a caisson fired on is destroyed at two casualties; no die or damage modifier applies to it (the book ' +
    'lists none) and it takes no morale check.',
  '13. [p.19] infantry in buildings are exempt from morale checks: casualties give them no morale mark.',
  '14. [p.19] figures firing out of a block: 8 to 12 figures, target within 6", a natural 6 on one D6 inflicts 2; no ' +
    'modifiers, no ammunition, no actions doubling (A-74: once a period, or as a defence action).',
  '15. A-46 bounce: each inch uphill or over soft ground uses 2" of bounce; woods and buildings end it at their edge; ' +
    'A-52 the optional second bounce is the nominal zone P + 1.5b … P + 2b, lost if the first bounce was stopped.',
  '16. [p.12] the morale modifiers "fired on flank" (−2), "inf/cav fired upon by 12lb guns at 10" or less" (−1) and ' +
    '"artillery being fired upon by other artillery" (+2) follow being fired upon, not casualties (the digest ties ' +
    'them to the casualty mark): they are reported for every target, hit or not. The 12lb range is the range to the ' +
    'target (canister) or to the point of aim (solid shot, as A-48 uses the band of P).',
  '17. [p.21] note 4 "line formations" hit on the flank at 45° or more are dense: cavalry echelon counts as a line. ' +
    '[p.10] massed artillery fires all its guns and is not a dense target; grand batteries have no fire modifier.',
];

// ---------------------------------------------------------------------------------------------------------------------
// Options, shots, outcomes
// ---------------------------------------------------------------------------------------------------------------------

/** The scenario options (scenario.ts) fire reads; defaults are the digest's readings and optional rules off. */
export type FireOptions = Pick<
  Options,
  | 'solidShotCover'
  | 'solidShotTable'
  | 'rapidFireDefenceFatigue'
  | 'neutralisedAt'
  | 'organicSkirmishers'
  | 'weather'
  | 'smoke'
  | 'carbines'
  | 'secondBounce'
>;

function withDefaults(o: Partial<FireOptions> | undefined): FireOptions {
  const d = DEFAULT_OPTIONS;
  return {
    solidShotCover: o?.solidShotCover ?? d.solidShotCover,
    solidShotTable: o?.solidShotTable ?? d.solidShotTable,
    rapidFireDefenceFatigue: o?.rapidFireDefenceFatigue ?? d.rapidFireDefenceFatigue,
    neutralisedAt: o?.neutralisedAt ?? d.neutralisedAt,
    organicSkirmishers: o?.organicSkirmishers ?? d.organicSkirmishers,
    weather: o?.weather ?? d.weather,
    smoke: o?.smoke ?? d.smoke,
    carbines: o?.carbines ?? d.carbines,
    secondBounce: o?.secondBounce ?? d.secondBounce,
  };
}

/** A unit fired at (or at risk on a bounce), as the rules see it. */
export interface FireTargetDesc {
  /** A label for the outcome (the unit's id). */
  readonly id: string;
  /** `crew`: a battery's crew without its guns, fired at in the open as a target in open order (a reading). */
  readonly kind: 'infantry' | 'cavalry' | 'artillery' | 'caisson' | 'crew';
  /** Infantry/cavalry formation (in retreat status: the last one, A-42); artillery limbered or unlimbered. */
  readonly formation: Formation;
  /** [p.10] massed artillery counts as limbered for enemy fire. */
  readonly massed?: boolean;
  /** Every cover that applies (A-42 takes the worst); woods the fire passes through count too [p.19]. */
  readonly cover?: FireCover | readonly FireCover[];
  readonly retreatStatus?: boolean;
  readonly disordered?: boolean;
  /** [p.18] optional rule: the target has organic skirmishers and the firer is within 4" of its front. */
  readonly organicSkirmishers?: boolean;
  /** [p.12] the firer is in the target's flank or rear (morale −2 if marked). */
  readonly firedOnFromFlank?: boolean;
  /** [p.21] solid shot: degrees between the line of flight and the target's facing axis (a line at ≥45° is dense). */
  readonly flightAngle?: number;
  /** Infantry/cavalry: current figures, for A-43 elimination below 2. */
  readonly figures?: number;
  /** Artillery: guns (cannons + howitzers), cannons, hits already taken, guard battery [p.10]. */
  readonly guns?: number;
  readonly cannons?: number;
  readonly hits?: number;
  readonly guardBattery?: boolean;
  /** Caisson: casualties already taken [p.11]. */
  readonly caissonHits?: number;
  /** [p.10] A-51 a crew: its figures (guns − hits when it left them); at 0 it is gone. */
  readonly crewFigures?: number;
  /** [p.16] a leader is attached (the leader-loss roll follows casualties). */
  readonly leaderAttached?: boolean;
}

interface ShotCommon {
  readonly fire: FireRating;
  readonly fatigue: FatigueLevel;
  readonly actions: 1 | 2;
  /** [p.20] optional smoke: the line of fire passes through smoke. */
  readonly throughSmoke?: boolean;
  /** [p.20] optional weather. */
  readonly weather?: FireWeather;
  /** Defence fire against a charger of this kind [p.13-14, p.21]: close range, all front-rank figures. */
  readonly defence?: 'infantry' | 'cavalry';
}

/** [p.8-9, p.15, p.18-19] musket, rifle or carbine fire. */
export interface SmallArmsShot extends ShotCommon {
  readonly type: 'smallArms';
  readonly weapon: SmallArm;
  /** Firing figures for one action (see `firingFigureCount`); doubled here for two actions. */
  readonly figures: number;
  readonly twoRank?: boolean;
  readonly skirmishScreen?: boolean;
  /** [p.19] the firer is inside woods: maximum range 4" (light) or 2" (dense). */
  readonly firerInWoods?: 'light' | 'dense';
  /** Inches; ignored for defence fire (close). */
  readonly range: number;
  readonly target: FireTargetDesc;
  /** [p.19] an enemy skirmish screen between the firer and the target, and its range. */
  readonly screen?: { readonly unit: FireTargetDesc; readonly range: number };
}

interface ArtilleryCommon extends ShotCommon {
  readonly calibre: Calibre;
  /** Guns that bear: cannons and howitzers. */
  readonly cannons: number;
  readonly howitzers: number;
  readonly rapid?: boolean;
  readonly ammo: AmmoLevel;
  readonly regimental?: boolean;
}

/** [p.8] canister. */
export interface CanisterShot extends ArtilleryCommon {
  readonly type: 'canister';
  readonly range: number;
  readonly target: FireTargetDesc;
}

/** [p.8-10] solid shot at a point of aim `range` inches away; `atRisk` the units on the bounce, first one first. */
export interface SolidShot extends ArtilleryCommon {
  readonly type: 'solidShot';
  readonly range: number;
  readonly atRisk: readonly FireTargetDesc[];
}

/** [p.19] figures in a building block firing out. */
export interface BuildingFireOutShot {
  readonly type: 'buildingFireOut';
  readonly figures: number;
  readonly range: number;
  readonly target: FireTargetDesc;
}

export type Shot = SmallArmsShot | CanisterShot | SolidShot | BuildingFireOutShot;

/** One modifier applied to a roll (die modifier, or solid-shot damage), with its source. */
export interface AppliedModifier {
  readonly id: string;
  readonly value: number;
  /** Page and ADAPTATION, e.g. "p.9", "p.19, A-42". */
  readonly cite: string;
  readonly text: string;
}

/** One roll of a shot: what is rolled, at what, and how it is modified. */
export interface RollSpec {
  /** The name used by `fireFaces`/`outcomeOfFaces`, e.g. "fire:T1", "hit:T1". */
  readonly roll: string;
  readonly target: string;
  readonly dice: number;
  /** Musket Firing Table: the figures counted (two actions doubled) and the row read. */
  readonly figures?: number;
  readonly row?: number;
  /** Die modifiers (table rolls) or the solid-shot hit faces and damage per hit. */
  readonly modifiers: readonly AppliedModifier[];
  readonly total: number;
  readonly hitFaces?: readonly number[];
  readonly damagePerHit?: number;
  readonly damageModifiers?: readonly AppliedModifier[];
}

export type MoraleReason = 'firedOnFlank' | 'twelvePounders' | 'artilleryFiredOnByArtillery';

/** What one target suffers. */
export interface TargetEffect {
  readonly id: string;
  /** Figures lost; for artillery, crew hits; for a caisson, casualties [p.11]. */
  readonly casualties: number;
  /** Solid shot: hit dice that scored, damage points, and the fraction roll. */
  readonly hits?: number;
  readonly damage?: number;
  readonly fraction?: 'none' | 'made' | 'missed';
  /**
   * [p.11] marked for a morale check (at least one casualty). `moraleReasons`: the [p.12] modifiers that "being fired
   * upon" gives this period, recorded whether or not a casualty was inflicted (the book's words), for any check the
   * unit makes.
   */
  readonly moraleMark: boolean;
  readonly moraleReasons: readonly MoraleReason[];
  /** A-43 below 2 figures; A-50 a neutralised battery; [p.11] a caisson at 2 casualties. */
  readonly eliminated: boolean;
  /** [p.10] artillery: the hits reach the neutralisation number. */
  readonly neutralised: boolean;
  /** [p.16] an attached leader is lost on a D10 ≤ this (0: no roll). */
  readonly leaderLossUpTo: number;
}

export interface FireOutcome {
  readonly targets: readonly TargetEffect[];
  /** [p.11] artillery: the ammunition dice, the sixes, the level after, out of ammunition. */
  readonly ammo: null | {
    readonly dice: number;
    readonly sixes: number;
    readonly level: AmmoLevel;
    readonly out: boolean;
  };
  /** [p.10] rapid fire: the firer's fatigue before and after. */
  readonly fatigue: null | { readonly from: FatigueLevel; readonly to: FatigueLevel };
}

export interface FireChance extends Dist<FireOutcome> {
  readonly label: string;
}

export interface FireResolution {
  readonly type: Shot['type'];
  readonly rolls: readonly RollSpec[];
  /** [p.20] optional smoke: the firer places smoke (two actions, not a skirmish screen). */
  readonly smoke: boolean;
  readonly outcomes: readonly FireChance[];
}

// ---------------------------------------------------------------------------------------------------------------------
// Who may fire, which figures [p.8, p.14, p.21], defence actions [p.5]
// ---------------------------------------------------------------------------------------------------------------------

export interface FirerStatus {
  readonly kind: 'infantry' | 'cavalry' | 'artillery';
  readonly formation: Formation;
  readonly retreatStatus?: boolean;
  readonly inRiver?: boolean;
  /** Locked in a close action; `defenceFire` when this is the defender's defence fire. */
  readonly inCloseAction?: boolean;
  readonly defenceFire?: boolean;
  readonly ammo?: AmmoLevel;
  readonly guns?: GunsState;
  readonly neutralised?: boolean;
  /** Cavalry with carbines (optional rule [p.15]). */
  readonly carbines?: boolean;
}

/** §6.4.1 why this unit may not fire, or undefined. */
export function mayFireProblem(u: FirerStatus, options?: Partial<FireOptions>): string | undefined {
  const o = withDefaults(options);
  if (u.retreatStatus) return 'a unit in retreat status may not fire (§6.4.1)';
  if (u.inRiver) return 'a unit in a river may not fire (A-31)';
  if (u.inCloseAction && !u.defenceFire) return 'a unit in a close action fires only its defence fire (A-18)';
  if (u.kind === 'cavalry') {
    if (!o.carbines) return 'cavalry fire only with the optional carbine rule [p.15] (A-37)';
    if (!u.carbines) return 'this cavalry has no carbines [p.15]';
  }
  if (u.kind === 'artillery') {
    if (u.formation !== 'unlimbered') return 'limbered artillery may not fire [p.7]';
    if ((u.ammo ?? 0) >= 3) return 'out of ammunition [p.11]';
    if (u.guns !== undefined && u.guns !== 'manned') return `the guns are ${u.guns} [p.10]`;
    if (u.neutralised) return 'a neutralised battery may not fire [p.10] (A-50)';
  }
  return undefined;
}

/**
 * [p.8, p.14, p.21] A-38 the figures that fire for one action: normal fire the bearing figures (a square N/8, its one
 * face); defence fire all front-rank figures (only the bearing ones over 24 [p.21]), a square N/2 against cavalry
 * [p.14] and N/8 against infantry.
 */
export function firingFigureCount(i: {
  readonly formation: Formation;
  readonly figures: number;
  readonly frontRank: number;
  readonly bearing: number;
  readonly defence?: 'infantry' | 'cavalry';
}): number {
  if (i.formation === 'square') {
    const frac = i.defence === 'cavalry' ? FIRING.squareFractionVsCavalry : FIRING.squareFractionPerSide;
    return Math.floor(i.figures * frac);
  }
  if (i.defence) return i.frontRank > FIRING.defenceFireFrontageException ? i.bearing : i.frontRank;
  return i.bearing;
}

/** [p.5, p.13] step 3: a defence action needs one whole unused action (A-24: ≤ 2 of 4 halves used); none in retreat. */
export function defenceActionAvailable(actionsUsedHalves: number, retreatStatus = false): boolean {
  return !retreatStatus && actionsUsedHalves <= 2;
}

/** [p.11] caissons: contact in period p; resupplied at the end of period p + 1; may fire from period p + 2. */
export function caissonResupply(contactPeriod: number): {
  readonly resuppliedEndOf: number;
  readonly firesFrom: number;
} {
  return {
    resuppliedEndOf: contactPeriod + ARTILLERY.caissonResupplyPeriods,
    firesFrom: contactPeriod + ARTILLERY.caissonResupplyPeriods + 1,
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Bounce [p.9-10, p.24]
// ---------------------------------------------------------------------------------------------------------------------

/** A stretch of ground beyond the point of aim: open, uphill or soft ('slow'), or woods/buildings ('stop'). */
export interface BounceLeg {
  readonly length: number;
  readonly ground: 'open' | 'slow' | 'stop';
}

/**
 * [p.9-10] A-46 the ground the bounce covers beyond the point of aim: `bounce(calibre, band)` inches, each inch uphill
 * or over soft ground using 2"; it ends at woods or buildings; past the legs given the ground is open. With the
 * optional second bounce [p.24] (A-52) the second zone, unless the first was stopped.
 */
export function bounceZones(
  calibre: Calibre,
  band: RangeBand,
  legs: readonly BounceLeg[] = [],
  secondBounce = false,
): { readonly first: number; readonly stopped: boolean; readonly second: { from: number; to: number } | null } {
  const b = bounce(calibre, band);
  let left = b;
  let at = 0;
  let stopped = false;
  for (const leg of legs) {
    if (left <= 0) break;
    if (leg.ground === 'stop') {
      stopped = true;
      left = 0;
      break;
    }
    const cost = leg.ground === 'slow' ? 2 : 1;
    const go = Math.min(leg.length, left / cost);
    at += go;
    left -= go * cost;
  }
  at += Math.max(0, left);
  return { first: at, stopped, second: secondBounce && !stopped ? secondBounceZone(b) : null };
}

// ---------------------------------------------------------------------------------------------------------------------
// Modifiers
// ---------------------------------------------------------------------------------------------------------------------

function row(id: FireModifierId, cite?: string): AppliedModifier {
  const r = FIRE_MODIFIERS.find((x) => x.id === id)!;
  return { id, value: r.value, cite: cite ?? `p.${r.page}`, text: r.printed };
}

const COVER_MOD: Readonly<Record<Exclude<FireCover, 'none'>, FireModifierId>> = {
  walls: 'behindWalls',
  hedges: 'behindHedges',
  lightWoods: 'lightWoods',
  denseWoods: 'denseWoods',
  buildings: 'buildings',
};
const COVER_PAGE: Readonly<Record<Exclude<FireCover, 'none'>, string>> = {
  walls: 'p.9',
  hedges: 'p.9',
  lightWoods: 'p.9, p.19',
  denseWoods: 'p.9, p.19',
  buildings: 'p.9, p.20',
};

function covers(t: FireTargetDesc): FireCover[] {
  const c = t.cover;
  if (c === undefined) return [];
  return (typeof c === 'string' ? [c] : [...c]).filter((x) => x !== 'none');
}

/** A-42 the single worst cover modifier, or null. */
function worstCover(t: FireTargetDesc): AppliedModifier | null {
  let best: AppliedModifier | null = null;
  for (const c of covers(t)) {
    if (c === 'none') continue;
    const m = row(COVER_MOD[c], `${COVER_PAGE[c]}, A-42`);
    if (!best || m.value < best.value) best = m;
  }
  return best;
}

const DENSE_FORMATIONS: readonly Formation[] = ['column', 'roadColumn', 'square'];
const troops = (t: FireTargetDesc) => t.kind === 'infantry' || t.kind === 'cavalry';
/** A-42 [p.21] a skirmish screen that is not disordered or in retreat status. */
const isScreen = (t: FireTargetDesc) => t.formation === 'skirmish' && !t.disordered && !t.retreatStatus;

/** [p.9, p.18-20] the die modifiers of small-arms fire (`canister` null) or canister fire, in the book's order. */
function dieModifiers(
  s: {
    readonly fire: FireRating;
    readonly fatigue: FatigueLevel;
    readonly twoRank?: boolean;
    readonly skirmishScreen?: boolean;
    readonly throughSmoke?: boolean;
    readonly weather?: FireWeather;
  },
  canister: Calibre | null,
  band: RangeBand,
  t: FireTargetDesc,
  o: FireOptions,
): AppliedModifier[] {
  const out: AppliedModifier[] = [];
  const rating: Partial<Record<FireRating, FireModifierId>> = {
    A: 'ratingA',
    B: 'ratingB',
    D: 'ratingD',
    E: 'ratingE',
    R: 'rifleClass',
  };
  const r = rating[s.fire];
  if (r) out.push(row(r));
  if (canister) {
    const id = (
      {
        '12lb': 'canister12lb',
        '8-9lb': 'canister8to9lb',
        '6lb': 'canister6lb',
        '4lb': 'canister4lb',
        '2-3lb': 'canister2to3lb',
      } as const
    )[canister];
    out.push(row(id));
  }
  if (troops(t) && DENSE_FORMATIONS.includes(t.formation))
    out.push(row('columnOrSquare', t.retreatStatus || t.disordered ? 'p.9, p.21, A-42' : 'p.9'));
  if (s.twoRank && !canister) out.push(row('twoRankTraining'));
  if (!canister && band !== 'close') out.push(row(`${band}Range` as FireModifierId));
  if (s.fatigue > 0) out.push(row((['fatigued', 'tired', 'exhausted'] as const)[s.fatigue - 1]!));
  if (t.kind === 'artillery') {
    if (t.formation === 'unlimbered' && !t.massed) out.push(row('unlimberedArtillery', 'p.9, p.10'));
    else out.push(row('limberedArtillery', t.massed ? 'p.9, p.10 (massed)' : 'p.9'));
  }
  const cover = worstCover(t);
  if (cover) out.push(cover);
  // [p.10] A-51 a crew without its guns: a handful of gunners on foot, fired at as a target in open order (a reading:
  // the skirmishers' row, -3 small arms, -4 canister [p.19])
  if (t.kind === 'crew')
    out.push(canister ? row('skirmishersCanister', 'p.19, A-51') : row('skirmishers', 'p.9, p.19, A-51'));
  if (troops(t) && isScreen(t)) out.push(canister ? row('skirmishersCanister') : row('skirmishers', 'p.9, p.19'));
  if (s.skirmishScreen) out.push(row('firerIsSkirmishScreen'));
  if (
    o.organicSkirmishers &&
    t.organicSkirmishers &&
    t.kind === 'infantry' &&
    t.formation !== 'square' &&
    !t.disordered &&
    !t.retreatStatus
  )
    out.push(row('organicSkirmishers'));
  if (o.weather && !canister && s.weather && s.weather !== 'clear' && s.weather !== 'hot')
    out.push(row(s.weather, 'p.20, A-42'));
  if (o.smoke && s.throughSmoke) out.push(row('smoke'));
  return out;
}

const sum = (ms: readonly AppliedModifier[]) => ms.reduce((a, m) => a + m.value, 0);

// ---------------------------------------------------------------------------------------------------------------------
// Problems
// ---------------------------------------------------------------------------------------------------------------------

function smallArmsBand(s: SmallArmsShot, range: number): RangeBand | string {
  if (s.defence) return 'close';
  const cap = s.firerInWoods ? FIRING.woodsMaxRange[s.firerInWoods === 'light' ? 'lightWoods' : 'denseWoods'] : null;
  if (cap !== null && range > cap) return `firing inside ${s.firerInWoods} woods: at most ${cap}" [p.19]`;
  return rangeBand(s.weapon, range) ?? `out of ${s.weapon} range (${range}") [p.9]`;
}

/** Why this shot cannot be made, or undefined. */
export function shotProblem(s: Shot, options?: Partial<FireOptions>): string | undefined {
  const o = withDefaults(options);
  if (s.type === 'buildingFireOut') {
    if (s.figures < BUILDINGS.fireOutMinFigures) return `a block fires out with 8 or more figures [p.19]`;
    if (s.figures > BUILDINGS.maxFigures) return `a block holds at most 12 figures [p.19]`;
    if (s.range > BUILDINGS.fireOutRange) return `the target must be within 6" [p.19]`;
    return undefined;
  }
  if (s.actions !== 1 && s.actions !== 2) return 'a fire is 1 or 2 actions [p.8]';
  if (s.defence && s.actions !== 1) return 'a defence action is one action [p.5, p.13]';
  if (s.type === 'smallArms') {
    if (s.weapon === 'carbine' && !o.carbines) return 'carbines are an optional rule [p.15] (A-37)';
    if (!Number.isInteger(s.figures) || s.figures < 0) return 'firing figures must be a whole number';
    const b = smallArmsBand(s, s.range);
    if (b !== 'close' && b !== 'medium' && b !== 'long' && b !== 'extreme') return b;
    if (s.screen) {
      if (s.weapon === 'carbine') return 'the intervening-screen split is for infantry fire [p.19]';
      const bs = smallArmsBand(s, s.screen.range);
      if (bs !== 'close' && bs !== 'medium' && bs !== 'long' && bs !== 'extreme') return bs;
    }
    return undefined;
  }
  if (s.ammo >= 3 || (s.regimental && s.ammo >= 2)) return 'out of ammunition [p.11]';
  if (s.rapid) {
    if (s.fatigue !== ARTILLERY.rapidFireMaxFatigue) return 'rapid fire needs Normal fatigue [p.10]';
    if (o.weather && s.weather && s.weather !== 'clear' && !WEATHER[s.weather].rapidFire)
      return 'no rapid fire in heavy rain [p.20]';
  }
  if (s.cannons + s.howitzers <= 0) return 'no guns fire';
  if (s.type === 'canister') {
    const r = s.defence ? 0 : s.range;
    if (r > RANGE_LIMITS[s.calibre][0]!) return `canister only within ${RANGE_LIMITS[s.calibre][0]}" [p.9]`;
    if (canisterGuns(s.cannons, s.howitzers, r) === 0) return 'howitzers fire canister only within 6" [p.10]';
    return undefined;
  }
  if (s.defence) return 'defence fire is canister [p.13-14]';
  const band = rangeBand(s.calibre, s.range);
  if (!band) return `the point of aim is beyond extreme range (${s.range}") [p.9]`;
  if (solidShotHitFaces(s.fire, band, o.solidShotTable).length === 0)
    return band === 'close'
      ? 'within canister range the Solid Shot Firing Table has no cell: use canister (A-45)'
      : 'no solid-shot hit is possible at extreme range under extremeBlank (A-45)';
  if (s.atRisk.length === 0) return 'no unit on the line of the bounce';
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------------
// Components: independent groups of dice, read exactly by enumeration
// ---------------------------------------------------------------------------------------------------------------------

type Part = { readonly t: 'target'; readonly e: TargetEffect } | { readonly t: 'ammo'; readonly sixes: number };

interface Sub {
  readonly roll: string;
  readonly dice: number;
  /** Is this roll made, given the faces of the subs before it? */
  readonly needed?: (before: readonly number[]) => boolean;
}

interface Component {
  readonly subs: readonly Sub[];
  readonly read: (faces: readonly number[]) => Part;
}

const partKey = (p: Part) => JSON.stringify(p);

function diceOf(c: Component): number {
  return c.subs.reduce((a, s) => a + s.dice, 0);
}

/** Every face tuple of `n` D6 (n ≤ 5 here), in order. */
const tupleCache = new Map<number, readonly (readonly number[])[]>();
function tuples(n: number): readonly (readonly number[])[] {
  let t = tupleCache.get(n);
  if (t) return t;
  let acc: number[][] = [[]];
  for (let i = 0; i < n; i++) acc = acc.flatMap((a) => [1, 2, 3, 4, 5, 6].map((f) => [...a, f]));
  t = acc;
  tupleCache.set(n, t);
  return t;
}

function componentDist(c: Component): { part: Part; p: number }[] {
  const n = diceOf(c);
  const m = new Map<string, { part: Part; w: number }>();
  for (const f of tuples(n)) {
    const part = c.read(f);
    const k = partKey(part);
    const e = m.get(k);
    if (e) e.w++;
    else m.set(k, { part, w: 1 });
  }
  const den = 6 ** n;
  return [...m.values()].map((x) => ({ part: x.part, p: x.w / den }));
}

// ---------------------------------------------------------------------------------------------------------------------
// Effects
// ---------------------------------------------------------------------------------------------------------------------

interface Firer {
  readonly artillery: boolean;
  readonly calibre: Calibre | null;
  readonly range: number;
  readonly rapidMultiplier: number;
}

function effectOn(
  t: FireTargetDesc,
  casualties: number,
  f: Firer,
  o: FireOptions,
  extra: Partial<TargetEffect> = {},
): TargetEffect {
  // a caisson is a piece [p.11]; a crew has no morale rules (A-51: a reading)
  const checks =
    t.kind !== 'caisson' && t.kind !== 'crew' && !(t.kind === 'infantry' && covers(t).includes('buildings'));
  const marked = checks && casualties > 0;
  const reasons: MoraleReason[] = [];
  if (checks) {
    if (t.firedOnFromFlank) reasons.push('firedOnFlank');
    if (troops(t) && f.calibre === '12lb' && f.range <= 10) reasons.push('twelvePounders');
    if (t.kind === 'artillery' && f.artillery) reasons.push('artilleryFiredOnByArtillery');
  }
  let eliminated = false;
  let neutralised = false;
  if (troops(t) && t.figures !== undefined) eliminated = t.figures - casualties < 2;
  if (t.kind === 'artillery' && t.guns !== undefined) {
    const guns = o.neutralisedAt === 'cannons' ? (t.cannons ?? t.guns) : t.guns;
    neutralised = (t.hits ?? 0) + casualties >= neutralisedAtHits(guns, !!t.guardBattery);
    eliminated = neutralised;
  }
  if (t.kind === 'caisson') eliminated = (t.caissonHits ?? 0) + casualties >= ARTILLERY.caissonHitsToDestroy;
  // [p.10] A-51 casualties remove crew figures: a crew at 0 is gone
  if (t.kind === 'crew') eliminated = (t.crewFigures ?? 0) - casualties <= 0;
  return {
    id: t.id,
    casualties,
    ...extra,
    moraleMark: marked,
    moraleReasons: reasons,
    eliminated,
    neutralised,
    leaderLossUpTo: t.leaderAttached && casualties > 0 ? leaderLossMaxRoll(casualties) : 0,
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Building the rolls of a shot
// ---------------------------------------------------------------------------------------------------------------------

interface Plan {
  readonly rolls: RollSpec[];
  readonly components: Component[];
  readonly fatigue: FireOutcome['fatigue'];
  readonly ammo: null | { readonly dice: number; readonly level: AmmoLevel; readonly regimental: boolean };
  readonly smoke: boolean;
}

function tableRoll(
  target: FireTargetDesc,
  figures: number,
  mods: AppliedModifier[],
  f: Firer,
  o: FireOptions,
  rolls: RollSpec[],
): Component {
  const total = sum(mods);
  const name = `fire:${target.id}`;
  rolls.push({
    roll: name,
    target: target.id,
    dice: 1,
    figures,
    row: musketRowFigures(figures),
    modifiers: mods,
    total,
  });
  return {
    subs: [{ roll: name, dice: 1 }],
    read: (faces) => ({
      t: 'target',
      e: effectOn(target, musketFireCasualties(figures, faces[0]! + total) * f.rapidMultiplier, f, o),
    }),
  };
}

function plan(s: Shot, o: FireOptions): Plan {
  const rolls: RollSpec[] = [];
  const components: Component[] = [];
  if (s.type === 'buildingFireOut') {
    const f: Firer = { artillery: false, calibre: null, range: s.range, rapidMultiplier: 1 };
    const name = `fire:${s.target.id}`;
    rolls.push({ roll: name, target: s.target.id, dice: 1, modifiers: [], total: 0, hitFaces: [6] });
    components.push({
      subs: [{ roll: name, dice: 1 }],
      read: (faces) => ({
        t: 'target',
        e: effectOn(s.target, faces[0] === BUILDINGS.fireOutNeeds ? BUILDINGS.fireOutCasualties : 0, f, o),
      }),
    });
    return { rolls, components, fatigue: null, ammo: null, smoke: false };
  }
  const smoke = o.smoke && s.actions === 2 && !(s.type === 'smallArms' && s.skirmishScreen);
  if (s.type === 'smallArms') {
    const f: Firer = { artillery: false, calibre: null, range: s.range, rapidMultiplier: 1 };
    const twoRank = s.weapon !== 'carbine' && !!s.twoRank;
    const firer = { ...s, twoRank };
    if (s.screen) {
      const split = interveningScreenSplit(s.figures);
      const bs = smallArmsBand(s, s.screen.range) as RangeBand;
      const ms = dieModifiers(firer, null, bs, s.screen.unit, o);
      const fs: Firer = { ...f, range: s.screen.range };
      components.push(tableRoll(s.screen.unit, split.atScreen * s.actions, ms, fs, o, rolls));
      const b = smallArmsBand(s, s.range) as RangeBand;
      components.push(
        tableRoll(s.target, split.atTarget * s.actions, dieModifiers(firer, null, b, s.target, o), f, o, rolls),
      );
    } else {
      const b = smallArmsBand(s, s.range) as RangeBand;
      components.push(
        tableRoll(s.target, s.figures * s.actions, dieModifiers(firer, null, b, s.target, o), f, o, rolls),
      );
    }
    return { rolls, components, fatigue: null, ammo: null, smoke };
  }
  // artillery
  const rapid = !!s.rapid;
  const fatigue = rapid
    ? {
        from: s.fatigue,
        to: fatigueAfter(s.fatigue, s.defence ? o.rapidFireDefenceFatigue : FATIGUE_INCREASE.rapidFire),
      }
    : null;
  const ammo = { dice: ammoDice(s.actions, rapid), level: s.ammo, regimental: !!s.regimental };
  const mult = rapid ? ARTILLERY.rapidFireCasualtyMultiplier : 1;
  if (s.type === 'canister') {
    const range = s.defence ? 0 : s.range;
    const f: Firer = { artillery: true, calibre: s.calibre, range, rapidMultiplier: mult };
    const guns = canisterGuns(s.cannons, s.howitzers, range);
    const mods = dieModifiers(s, s.calibre, 'close', s.target, o);
    components.push(tableRoll(s.target, canisterRowFigures(guns, s.actions), mods, f, o, rolls));
  } else {
    const band = rangeBand(s.calibre, s.range)!;
    const f: Firer = { artillery: true, calibre: s.calibre, range: s.range, rapidMultiplier: mult };
    const hitFaces = solidShotHitFaces(s.fire, band, o.solidShotTable, o.smoke && !!s.throughSmoke);
    const hitMods: AppliedModifier[] =
      o.smoke && s.throughSmoke
        ? [{ id: 'smoke', value: -1, cite: 'p.20', text: 'a -1 to their hit die roll when firing through smoke' }]
        : [];
    s.atRisk.forEach((t, i) => {
      const { dph, mods } = damagePerHit(s, t, i === 0, o);
      const hitRoll = `hit:${t.id}`;
      const fracRoll = `fraction:${t.id}`;
      rolls.push({
        roll: hitRoll,
        target: t.id,
        dice: s.actions,
        modifiers: hitMods,
        total: sum(hitMods),
        hitFaces,
        damagePerHit: dph,
        damageModifiers: mods,
      });
      const hitsOf = (faces: readonly number[]) => faces.filter((x) => hitFaces.includes(x)).length;
      components.push({
        subs: [
          { roll: hitRoll, dice: s.actions },
          { roll: fracRoll, dice: 1, needed: (before) => (hitsOf(before) * dph) % DAMAGE_PER_CASUALTY > 0 },
        ],
        read: (faces) => {
          const hits = hitsOf(faces.slice(0, s.actions));
          const damage = hits * dph;
          const frac = damage % DAMAGE_PER_CASUALTY;
          const made = frac > 0 && faces[s.actions]! <= frac;
          const cas = (Math.floor(damage / DAMAGE_PER_CASUALTY) + (made ? 1 : 0)) * mult;
          const fraction = frac === 0 ? 'none' : made ? 'made' : 'missed';
          return { t: 'target', e: effectOn(t, cas, f, o, { hits, damage, fraction }) };
        },
      });
    });
  }
  components.push({
    subs: [{ roll: 'ammo', dice: ammo.dice }],
    read: (faces) => ({ t: 'ammo', sixes: faces.filter((x) => x === 6).length }),
  });
  rolls.push({ roll: 'ammo', target: '', dice: ammo.dice, modifiers: [], total: 0, hitFaces: [6] });
  return { rolls, components, fatigue, ammo, smoke };
}

/** [p.8-10] damage per hit on the unit at risk (A-47: add, floor at 0, then double for a dense target). */
function damagePerHit(
  s: SolidShot,
  t: FireTargetDesc,
  first: boolean,
  o: FireOptions,
): { dph: number; mods: AppliedModifier[] } {
  const mods: AppliedModifier[] = [{ id: 'cannons', value: s.cannons, cite: 'p.8', text: 'the number of cannons' }];
  const hb = first ? howitzerDamageBonus(s.howitzers, s.range) : 0;
  if (hb) mods.push({ id: 'howitzers', value: hb, cite: 'p.9, p.10', text: '+2 for each howitzer in the battery' });
  let target: 'troops' | 'unlimberedArtillery' | 'limberedArtillery' | 'skirmishers' = 'troops';
  if (t.kind === 'artillery') {
    target = t.formation === 'unlimbered' && !t.massed ? 'unlimberedArtillery' : 'limberedArtillery';
    mods.push(
      target === 'unlimberedArtillery'
        ? { id: 'unlimberedArtillery', value: -4, cite: 'p.9, p.10', text: '-4 for firing at unlimbered artillery' }
        : { id: 'limberedArtillery', value: -2, cite: 'p.9, p.10', text: '-2 for firing at limbered artillery' },
    );
  } else if ((troops(t) && isScreen(t)) || t.kind === 'crew') {
    // [p.10] A-51 a crew without its guns: in open order (a reading), as skirmishers
    target = 'skirmishers';
    mods.push({
      id: 'skirmishers',
      value: -8,
      cite: t.kind === 'crew' ? 'p.9, p.19, A-51' : 'p.9, p.19',
      text: '-8 for firing at skirmishers',
    });
  }
  const cs = covers(t);
  const inWoodsOrBuildings = cs.some((c) => c === 'lightWoods' || c === 'denseWoods' || c === 'buildings');
  if (inWoodsOrBuildings)
    mods.push({
      id: 'woodsOrBuildings',
      value: o.solidShotCover,
      cite: 'p.9, p.10, p.19, p.20, A-44',
      text: '-4 for firing at troops in buildings or woods (p.19/p.20: -2)',
    });
  const dense =
    troops(t) &&
    (DENSE_FORMATIONS.includes(t.formation) ||
      !!t.retreatStatus ||
      ((t.formation === 'line' || t.formation === 'echelon') && (t.flightAngle ?? 0) >= 45));
  if (dense)
    mods.push({
      id: 'dense',
      value: 0,
      cite: t.retreatStatus || !DENSE_FORMATIONS.includes(t.formation) ? 'p.8, p.21, A-47' : 'p.8, A-47',
      text: 'damage points doubled (column or square; retreat status; a line hit on its flank at 45° or more)',
    });
  const dph = solidShotDamagePerHit({
    cannons: s.cannons,
    howitzerBonus: hb,
    target,
    inWoodsOrBuildings,
    dense,
    woodsOrBuildingsModifier: o.solidShotCover,
  });
  return { dph, mods };
}

// ---------------------------------------------------------------------------------------------------------------------
// Resolution
// ---------------------------------------------------------------------------------------------------------------------

function assemble(parts: readonly Part[], p: Plan): FireOutcome {
  const targets: TargetEffect[] = [];
  let sixes = 0;
  for (const x of parts) {
    if (x.t === 'target') targets.push(x.e);
    else sixes = x.sixes;
  }
  let ammo: FireOutcome['ammo'] = null;
  if (p.ammo) {
    const level = ammoAfter(p.ammo.level, sixes, p.ammo.regimental);
    ammo = { dice: p.ammo.dice, sixes, level, out: level >= 3 };
  }
  return { targets, ammo, fatigue: p.fatigue };
}

/** A short label of an outcome, e.g. "T1 2 cas (morale), ammo 1×6 → Running low". */
export function outcomeLabel(o: FireOutcome): string {
  const bits = o.targets.map((t) => {
    let s = `${t.id} ${t.casualties} cas`;
    if (t.hits !== undefined)
      s += ` (${t.hits} hit${t.hits === 1 ? '' : 's'}, ${t.damage} dmg, fraction ${t.fraction})`;
    if (t.eliminated) s += t.neutralised ? ' neutralised' : ' eliminated';
    return s;
  });
  if (o.ammo) bits.push(`ammo ${o.ammo.sixes}×6 → level ${o.ammo.level}${o.ammo.out ? ' (out)' : ''}`);
  if (o.fatigue) bits.push(`fatigue ${o.fatigue.from} → ${o.fatigue.to}`);
  return bits.join('; ');
}

/** A stable key of an outcome (equal outcomes, equal keys). */
export function outcomeKey(o: FireOutcome): string {
  return JSON.stringify(o);
}

const MEMO_CAP = 4096;
const memo = new Map<string, FireResolution>();

/**
 * Resolve a shot: the rolls with their modifiers, and the exact distribution over outcome classes (probabilities sum
 * to 1). Memoised by the shot and options. Throws a RangeError naming the rule when the shot cannot be made.
 */
export function resolveFire(s: Shot, options?: Partial<FireOptions>): FireResolution {
  const o = withDefaults(options);
  const key = JSON.stringify([s, o]);
  const hit = memo.get(key);
  if (hit) return hit;
  const problem = shotProblem(s, o);
  if (problem) throw new RangeError(problem);
  const p = plan(s, o);
  let acc: { parts: Part[]; p: number }[] = [{ parts: [], p: 1 }];
  for (const c of p.components) {
    const d = componentDist(c);
    const next: { parts: Part[]; p: number }[] = [];
    for (const a of acc) for (const x of d) next.push({ parts: [...a.parts, x.part], p: a.p * x.p });
    acc = next;
  }
  const outcomes: FireChance[] = acc.map((a) => {
    const value = assemble(a.parts, p);
    return { value, p: a.p, label: outcomeLabel(value) };
  });
  const res: FireResolution = { type: s.type, rolls: p.rolls, smoke: p.smoke, outcomes };
  if (memo.size >= MEMO_CAP) memo.clear();
  memo.set(key, res);
  return res;
}

/**
 * The outcome classes merged by their effect on the game only (casualties, marks, elimination, ammunition, fatigue),
 * dropping the solid-shot hits/damage/fraction detail: fewer chance branches for a search.
 */
export function effectsOnly(outcomes: readonly FireChance[]): FireChance[] {
  const m = new Map<string, FireChance>();
  for (const x of outcomes) {
    const value: FireOutcome = {
      ...x.value,
      targets: x.value.targets.map(({ hits: _h, damage: _d, fraction: _f, ...rest }) => rest),
      ammo: x.value.ammo && { ...x.value.ammo, sixes: 0 },
    };
    const k = outcomeKey(value);
    const e = m.get(k);
    m.set(k, { value, p: (e?.p ?? 0) + x.p, label: outcomeLabel(value) });
  }
  return [...m.values()];
}

/** One roll's faces, named as in `RollSpec.roll`. */
export interface FaceRoll {
  readonly roll: string;
  readonly faces: readonly number[];
}

function shownRolls(c: Component, faces: readonly number[]): FaceRoll[] {
  const out: FaceRoll[] = [];
  let at = 0;
  for (const sub of c.subs) {
    const mine = faces.slice(at, at + sub.dice);
    if (!sub.needed || sub.needed(faces.slice(0, at))) out.push({ roll: sub.roll, faces: mine });
    at += sub.dice;
  }
  return out;
}

/**
 * Dice faces consistent with a chosen outcome, one set per roll (drawn uniformly among the consistent ones with the
 * caller's uniform source), for display at a physical table. A fraction die appears only when a fraction roll is made.
 */
export function fireFaces(s: Shot, outcome: FireOutcome, u: Uniform, options?: Partial<FireOptions>): FaceRoll[] {
  const o = withDefaults(options);
  const problem = shotProblem(s, o);
  if (problem) throw new RangeError(problem);
  const p = plan(s, o);
  const out: FaceRoll[] = [];
  let ti = 0;
  for (const c of p.components) {
    const want: Part =
      c.subs[0]!.roll === 'ammo'
        ? { t: 'ammo', sixes: outcome.ammo?.sixes ?? 0 }
        : { t: 'target', e: outcome.targets[ti++]! };
    const k = partKey(want);
    const fits = tuples(diceOf(c)).filter((f) => partKey(c.read(f)) === k);
    if (!fits.length) throw new RangeError(`no dice give ${outcomeLabel(outcome)}`);
    const f = fits[Math.min(fits.length - 1, Math.floor(u() * fits.length))]!;
    out.push(...shownRolls(c, f));
  }
  return out;
}

/** Read faces entered by hand (one entry per roll made, named as in `RollSpec.roll`) into the outcome they give. */
export function outcomeOfFaces(s: Shot, rolls: readonly FaceRoll[], options?: Partial<FireOptions>): FireOutcome {
  const o = withDefaults(options);
  const problem = shotProblem(s, o);
  if (problem) throw new RangeError(problem);
  const p = plan(s, o);
  const byName = new Map(rolls.map((r) => [r.roll, r.faces]));
  const parts: Part[] = [];
  for (const c of p.components) {
    const faces: number[] = [];
    for (const sub of c.subs) {
      const needed = !sub.needed || sub.needed(faces);
      const got = byName.get(sub.roll);
      if (needed && (!got || got.length !== sub.dice))
        throw new RangeError(`roll ${sub.roll}: ${sub.dice} D6 needed, got ${got ? got.length : 'none'}`);
      const fs = needed ? got! : Array.from({ length: sub.dice }, () => 1);
      for (const f of fs)
        if (!Number.isInteger(f) || f < 1 || f > 6) throw new RangeError(`${sub.roll}: ${f} is no D6`);
      faces.push(...fs);
    }
    parts.push(c.read(faces));
  }
  return assemble(parts, p);
}

// ---------------------------------------------------------------------------------------------------------------------
// Small helpers for callers
// ---------------------------------------------------------------------------------------------------------------------

/** [p.9] the canister close band limit (inches) of a calibre; howitzers 6" [p.10]. */
export function canisterRange(calibre: Calibre): number {
  return RANGE_LIMITS[calibre][0]!;
}

/** [p.10] does a battery's howitzer shell count at range R (16"–40")? */
export function shellInRange(range: number): boolean {
  return range >= HOWITZER.shellMin && range <= HOWITZER.shellMax;
}

/** The exact probability of each casualty count for one target of a resolution (marginal). */
export function casualtyMarginal(r: FireResolution, targetId: string): Dist<number>[] {
  const m = new Map<number, number>();
  for (const x of r.outcomes) {
    const t = x.value.targets.find((e) => e.id === targetId);
    if (t) m.set(t.casualties, (m.get(t.casualties) ?? 0) + x.p);
  }
  return [...m].sort((a, b) => a[0] - b[0]).map(([value, p]) => ({ value, p }));
}

/** The brief's name for `fireFaces`. */
export const diceFaces = fireFaces;
