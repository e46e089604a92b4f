/**
 * Napoleon's Eagles (1:30, 15mm): the data model. What a unit, leader, battery, building block or smoke cloud *is*
 * (static, from the scenario) and what the engine must track about it (mutable state, digest §4) as readonly
 * interfaces; the rating string parser; the A-4 footprint sizes. No rules are played here.
 *
 * Page citations `// [p.N]` follow the digest's page map (`shared/rules/napoleons-eagles.md` §0); ADAPTATIONs are the
 * digest's A-1…A-79 (see `ADAPTATIONS` in scenario.ts). THE BOOK WINS where it and the digest disagree.
 *
 * Units of measure. Scenario files: inches and whole degrees. Engine state (A-8): positions in 1/100" (integers,
 * `IN` = 100, see engine/geometry), bearings in 1/100° clockwise from north (integers). A unit's position is the
 * centre of its FRONT EDGE [digest 3.1] (not the footprint centre, as in Age of Eagles), with its bearing.
 */
import type { Rect } from '../../geometry/geometry.ts';
import {
  type AmmoLevel,
  type Calibre,
  type CavalryWeight,
  type FatigueLevel,
  type FireRating,
  type LeaderRank,
  type MoveRating,
  type Order,
  SCALE,
  type UnitRating,
  type Weather,
  artilleryBases,
} from './tables.ts';

export type { AmmoLevel, Calibre, CavalryWeight, FatigueLevel, FireRating, MoveRating, UnitRating };
export { parseRating, RATING_PATTERN, ratingProblem } from './tables.ts';

// ---------------------------------------------------------------------------------------------------------------------
// The unit rating string [p.4]
// ---------------------------------------------------------------------------------------------------------------------

// parseRating, ratingProblem and RATING_PATTERN live with the rating tables (tables.ts) and are re-exported here.

// ---------------------------------------------------------------------------------------------------------------------
// Sides, kinds, classes [p.3-4, p.12-13]; digest §2.2
// ---------------------------------------------------------------------------------------------------------------------

/** The two sides, in scenario order (the digest's S1 and S2). */
export type Side = 0 | 1;

/** [p.4] "A unit … represents a battalion of infantry, a battery of artillery, or regiment of cavalry." */
export type UnitKind = 'infantry' | 'cavalry' | 'artillery';

/**
 * Infantry troop class (digest §2.2): militia/landwehr, green/untrained, line/regular, light, grenadier/veteran/elite,
 * guard. Used by: basic morale and melee guides [p.12, p.13]; threshold "mostly elite or seasoned" +1 / "mostly
 * militia or green" −1 [p.11]; reform +1 for "untrained, green, landwehr, or militia" [p.12]; building fights
 * "light infantry" +1, "guards or grenadiers" +1, "militia/landwehr or green" −1 [p.19].
 */
export type TroopClass = 'militia' | 'green' | 'line' | 'light' | 'grenadier' | 'guard';
export const TROOP_CLASSES: readonly TroopClass[] = ['militia', 'green', 'line', 'light', 'grenadier', 'guard'];

/** [p.11] Guard grades: "French Gd" +2, "Old/Middle Gd" +5 on the division threshold roll. */
export type GuardGrade = 'young' | 'middle' | 'old';

/** [p.3, p.9] infantry rank training: two-rank (1/2" a figure, +2 fire) or three-rank (3/8"). */
export type RankTraining = 2 | 3;

/**
 * the small arm, stored apart from the Fire letter. Fire letter R means a rifle with the +1 [p.9]; a unit given
 * `rifle` with another letter uses rifle ranges without the +1. Cavalry fire only with the optional carbine rule
 * [p.15]; artillery has 'none'.
 */
export type Weapon = 'musket' | 'rifle' | 'carbine' | 'none';

/** [p.6, p.10] artillery arm. */
export type ArtilleryArm = 'foot' | 'horse';

// ---------------------------------------------------------------------------------------------------------------------
// Formations and facing [p.4, p.7, p.14, p.18-19, p.24]; digest §2.4-2.5
// ---------------------------------------------------------------------------------------------------------------------

/**
 * [p.7] C column of divisions, RC road column, S square (infantry only), E echelon (cavalry only), L line; [p.18]
 * skirmish order (light infantry only; A-2: light cavalry behind an option); artillery limbered/unlimbered [p.7].
 */
export type Formation =
  | 'line'
  | 'column'
  | 'roadColumn'
  | 'square'
  | 'echelon'
  | 'skirmish'
  | 'limbered'
  | 'unlimbered';

/** The formations each kind may take (A-53, digest §2.4; cavalry skirmish only under the A-2 option). */
export const FORMATIONS: Readonly<Record<UnitKind, readonly Formation[]>> = {
  infantry: ['line', 'column', 'roadColumn', 'square', 'skirmish'],
  cavalry: ['line', 'column', 'roadColumn', 'echelon', 'skirmish'],
  artillery: ['limbered', 'unlimbered'],
};

/**
 * Variants of a formation (digest §2.4): [p.7] a line may refuse one flank (¼ of its figures turned back 90°); [p.7]
 * echelon steps back to the left or right; [p.10] massed artillery stands two deep; [p.24] optional supported line.
 */
export interface FormationVariant {
  readonly refused?: 'left' | 'right';
  readonly echelon?: 'left' | 'right';
  readonly massed?: boolean;
  readonly supported?: boolean;
}

/**
 * [p.4] every unit has one facing, a bearing perpendicular to its front edge; a square faces all four ways. The
 * arcs: front and rear 45° arcs from the corners, flanks between; fire arc 22.5° [p.8]; charge 10° [p.6].
 */
export type Arc = 'front' | 'flankSide' | 'flankRear';

// ---------------------------------------------------------------------------------------------------------------------
// Footprints: width × depth from figures, formation and variant [p.3]
// ---------------------------------------------------------------------------------------------------------------------

export interface FootprintInput {
  readonly kind: UnitKind;
  readonly formation: Formation;
  /** Infantry and cavalry: current figures. */
  readonly figures?: number;
  /** Infantry rank training (frontage 1/2" or 3/8" a figure). */
  readonly ranks?: RankTraining;
  /** figures in a column's first rank, overriding ceil(N/3) (infantry) or ceil(N/4) (cavalry). */
  readonly columnFront?: number;
  /** Artillery: guns (cannons + howitzers); the bases are ceil(guns/3) [p.3]. */
  readonly guns?: number;
  readonly variant?: FormationVariant;
}

export interface FootprintSize {
  /** Along the front edge, inches. */
  readonly width: number;
  /** Front to back, inches. */
  readonly depth: number;
  /** front-rank figures (the firing figures; guns for artillery; per face for a square; 0 limbered). */
  readonly frontRank: number;
}

/** [p.3] frontage a figure (inches): 2-rank infantry 1/2", 3-rank 3/8", cavalry 3/4". */
export function figureFrontage(kind: 'infantry' | 'cavalry', ranks: RankTraining = 3): number {
  if (kind === 'cavalry') return SCALE.frontagePerFigure.cavalry;
  return ranks === 2 ? SCALE.frontagePerFigure.twoRankInfantry : SCALE.frontagePerFigure.threeRankInfantry;
}

/** [p.19] a skirmish screen has "a frontage of 2” per figure" (A-4: exactly 2", one straight line, 1/2" deep). */
export const SKIRMISH_FRONTAGE_PER_FIGURE = 2;
export const SKIRMISH_DEPTH = 0.5;
/** [p.3] an artillery base is 1" × 1-1/2". */
export const ARTILLERY_BASE = { width: 1, depth: 1.5 } as const;

/**
 * A-4: the footprint of a unit, width × depth in inches, with its front-rank figures. Lines and echelons are N·f × d;
 * a supported line ceil(N/2)·f × 2d; a column F·f × ceil(N/F)·d (F = columnFront or ceil(N/3) infantry, ceil(N/4)
 * cavalry); a road column 2f × ceil(N/2)·d; a square a side of max(ceil(N/4)·f, 1"); a skirmish screen 2"·N × 1/2";
 * unlimbered artillery bases·1" × 1.5" (massed ceil(bases/2)·1" × 3"); limbered 1" × 3"·bases. A refused flank is
 * given as its bounding box: the main part (N − k)·f wide, k = ceil(N/4) figures turned back at one end.
 */
export function footprintSize(u: FootprintInput): FootprintSize {
  if (u.kind === 'artillery') {
    const guns = u.guns ?? 0;
    const bases = artilleryBases(guns);
    if (u.formation === 'limbered')
      return { width: ARTILLERY_BASE.width, depth: 2 * ARTILLERY_BASE.depth * bases, frontRank: 0 };
    if (u.variant?.massed)
      return { width: Math.ceil(bases / 2) * ARTILLERY_BASE.width, depth: 2 * ARTILLERY_BASE.depth, frontRank: guns };
    return { width: bases * ARTILLERY_BASE.width, depth: ARTILLERY_BASE.depth, frontRank: guns };
  }
  const n = u.figures ?? 0;
  const f = figureFrontage(u.kind, u.ranks);
  const d = u.kind === 'cavalry' ? SCALE.depth.cavalry : SCALE.depth.infantry;
  switch (u.formation) {
    case 'line':
    case 'echelon': {
      if (u.variant?.supported) {
        const front = Math.ceil(n / 2);
        return { width: front * f, depth: 2 * d, frontRank: front };
      }
      if (u.variant?.refused) {
        const k = Math.ceil(n / 4);
        return { width: (n - k) * f, depth: Math.max(d, k * f), frontRank: n - k };
      }
      return { width: n * f, depth: d, frontRank: n };
    }
    case 'column': {
      const front = Math.min(n, u.columnFront ?? Math.ceil(n / (u.kind === 'cavalry' ? 4 : 3)));
      return { width: front * f, depth: Math.ceil(n / Math.max(1, front)) * d, frontRank: front };
    }
    case 'roadColumn':
      return { width: 2 * f, depth: Math.ceil(n / 2) * d, frontRank: Math.min(2, n) };
    case 'square': {
      const side = Math.max(Math.ceil(n / 4) * f, 1);
      return { width: side, depth: side, frontRank: Math.floor(n / 8) };
    }
    case 'skirmish':
      return { width: SKIRMISH_FRONTAGE_PER_FIGURE * n, depth: SKIRMISH_DEPTH, frontRank: n };
    default:
      throw new RangeError(`${u.kind} cannot be ${u.formation}`);
  }
}

/** The footprint rectangle (centre, width, depth, heading) of a unit whose FRONT-EDGE centre is at (x, y) facing h°. */
export function footprintRect(x: number, y: number, h: number, size: FootprintSize): Rect {
  const r = (h * Math.PI) / 180;
  return {
    x: x - (Math.sin(r) * size.depth) / 2,
    y: y - (Math.cos(r) * size.depth) / 2,
    w: size.width,
    d: size.depth,
    h,
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Nationality and doctrine [p.7, p.10-11, p.15, p.17]; digest §2.9
// ---------------------------------------------------------------------------------------------------------------------

export type Nationality =
  | 'french'
  | 'austrian'
  | 'russian'
  | 'prussian'
  | 'british'
  | 'spanish'
  | 'portuguese'
  | 'german'
  | 'italian'
  | 'other';

/** Doctrine flags (digest §2.9). A-7: "1806 Prussian" = "pre-1806" = year ≤ 1806; "post-1806" = year ≥ 1807. */
export interface Doctrine {
  /** [p.7] French after 1807: infantry C↔L ½ action. */
  readonly frenchPost1807: boolean;
  /** [p.7] 1806 Prussians: infantry C↔L 2 actions, line on the flank 1 action; [p.17] orders +2. */
  readonly prussian1806: boolean;
  /** [p.7] Austrian mass: infantry C↔S ½ action. */
  readonly austrianMass: boolean;
  /** [p.10] grand batteries: "French, Austrian and Russian armies only". */
  readonly grandBatteryAllowed: boolean;
}

/** [p.10] the armies that may form grand batteries. */
export const GRAND_BATTERY_NATIONS: readonly Nationality[] = ['french', 'austrian', 'russian'];

// ---------------------------------------------------------------------------------------------------------------------
// Static unit data (from the scenario; never changes in play) — digest §2.2, §2.11 UnitStatic
// ---------------------------------------------------------------------------------------------------------------------

interface UnitStaticBase {
  readonly id: string;
  readonly side: Side;
  readonly name: string;
  /** [p.4] the rating string and its parts. */
  readonly rating: string;
  readonly move: MoveRating;
  readonly morale: number;
  readonly fire: FireRating;
  readonly melee: number;
  readonly weapon: Weapon;
  readonly nationality: Nationality;
  /** [p.16] the leader who moves it ("Only the divisional commanders move units"; some corps commanders too). */
  readonly commander: string;
}

export interface InfantryStatic extends UnitStaticBase {
  readonly kind: 'infantry';
  readonly troopClass: TroopClass;
  readonly guard?: GuardGrade;
  readonly ranks: RankTraining;
  /** [p.18] a unit "made up entirely of light infantry" may form a skirmish screen. */
  readonly lightInfantry: boolean;
  /** [p.18] optional company skirmishers (voltigeurs, light companies): never on the table. */
  readonly organicSkirmishers: boolean;
  /** [p.3] starting figures (doubled from the 1:60 lists). */
  readonly originalFigures: number;
  /** A-4 override of the column's first rank. */
  readonly columnFront?: number;
}

export interface CavalryStatic extends UnitStaticBase {
  readonly kind: 'cavalry';
  /** [p.6] light 14", medium 13", heavy 12" charges; [p.13] −5 light/medium against heavy. */
  readonly weight: CavalryWeight;
  /** [p.15] out-of-control −1 guard; [p.13] guard cavalry melee 60-65. */
  readonly guard: boolean;
  /** [p.15] out-of-control +1 Cossacks. */
  readonly cossack: boolean;
  /** [p.15] out-of-control +1 British cavalry. */
  readonly british: boolean;
  /** [p.15] optional carbines. */
  readonly carbines: boolean;
  readonly originalFigures: number;
  readonly columnFront?: number;
}

export interface ArtilleryStatic extends UnitStaticBase {
  readonly kind: 'artillery';
  readonly arm: ArtilleryArm;
  readonly calibre: Calibre;
  /** [p.8] cannons give solid-shot damage; [p.10] howitzers +2 each at 16-40" and canister within 6". */
  readonly cannons: number;
  readonly howitzers: number;
  /** [p.3] ceil(guns / 3) bases. */
  readonly bases: number;
  /** [p.11] regimental guns run out of ammunition on the 2nd "6". */
  readonly regimental: boolean;
  /** [p.10] French Guard and Prussian Guard batteries take one extra hit. */
  readonly guardBattery: boolean;
}

export type UnitStatic = InfantryStatic | CavalryStatic | ArtilleryStatic;

// ---------------------------------------------------------------------------------------------------------------------
// Markers and per-unit state [p.5]; digest §2.7, §4
// ---------------------------------------------------------------------------------------------------------------------

/** [p.11-12] why a unit is marked for a morale check (white marker); checked in marking order. */
export interface MoraleMark {
  /** Order of marking this period. */
  readonly seq: number;
  readonly casualties: boolean; // [p.11] took casualties from fire
  readonly firedOnFlank: boolean; // [p.12] −2
  readonly twelvePounders: boolean; // [p.12] −1 fired on by 12lb at ≤10"
  readonly routNearby: boolean; // [p.11] within 4" of a friendly unit that routed
  readonly passedThrough: boolean; // [p.11] a retreating friendly unit passed through
  readonly other: readonly string[];
}

/** [p.12] retreat status: the recovery actions still owed; 0 re-forms in column. */
export interface RetreatState {
  readonly remainingActions: number;
}

/** [p.11-12] a unit leaves play routed, surrendered or eliminated (A-43: below 2 figures; A-50: neutralised). */
export type UnitStatus = 'active' | 'routed' | 'surrendered' | 'eliminated';

/** [p.10] the guns of a battery (digest §2.10): manned, abandoned (crew elsewhere), spiked or destroyed. */
export type GunsState = 'manned' | 'abandoned' | 'spiked' | 'destroyed';

/** where a battery's crew is once it leaves its guns. */
export interface CrewState {
  readonly x: number;
  readonly y: number;
  readonly facing: number;
  /** Figures = guns − hits. */
  readonly figures: number;
  readonly inCover: boolean;
}

/**
 * The mutable state of one unit (digest §4 "Per unit", §2.11 UnitDynamic). Positions 1/100", bearings 1/100° (A-8).
 */
export interface UnitState {
  readonly id: string;
  /** Infantry, cavalry: figures left [p.5 black casualty markers]. Artillery: guns (constant). */
  readonly figures: number;
  /** Artillery: crew hits [p.10]; neutralised at guns (+1 guard). 0 for others. */
  readonly hits: number;
  /** Front-edge centre and bearing. */
  readonly x: number;
  readonly y: number;
  readonly facing: number;
  readonly formation: Formation;
  readonly variant: FormationVariant;
  /** [p.6] disordered: one full action to reform. */
  readonly disordered: boolean;
  readonly fatigue: FatigueLevel;
  /** [p.5] blue "moved" marker: activated this period. */
  readonly activated: boolean;
  /** half-actions spent this period (budget 4; a force march adds 2 for movement only). */
  readonly actionsUsedHalves: number;
  readonly forceMarchUsed: boolean;
  /** [p.5] green stand marker: one reserved defence action. */
  readonly stand: boolean;
  /** consecutive fire actions at one target in this activation; [p.20] smoke after two. */
  readonly consecutiveFireActions: number;
  readonly lastFireTarget: string;
  /** [p.13] used both actions before contact (the defender's +2). */
  readonly usedBothActionsBeforeContact: boolean;
  /** [p.16] brown out-of-command marker (step 1 to step 11). */
  readonly outOfCommand: boolean;
  readonly moraleMark: MoraleMark | null;
  readonly retreat: RetreatState | null;
  /** [p.12] ridden down by cavalry (reform +1, morale −1). */
  readonly riddenDown: boolean;
  readonly status: UnitStatus;
  /** In a close action queued or being fought (id of the close action). */
  readonly lockedIn: string | null;
  /** [p.11] ammunition 0 normal … 3 out. Artillery only (0 for others). */
  readonly ammo: AmmoLevel;
  readonly guns: GunsState;
  readonly crew: CrewState | null;
  /** [p.19] figures per building block occupied (empty: in the open). */
  readonly inBlocks: Readonly<Record<string, number>>;
  /** [p.6] A-31: inside a river or on a bridge, actions still to spend. */
  readonly riverCrossing: { readonly river: string; readonly actionsLeft: number } | null;
  /** [p.15] optional: out of control, moves in step 2b of the next period. */
  readonly outOfControl: boolean;
  readonly attachedLeader: string | null;
  /** [p.10] overrunning captured guns: the battery and the period it began. */
  readonly overrun: { readonly battery: string; readonly period: number } | null;
  /** [p.11] optional caisson resupply: the caisson and the period it began. */
  readonly caissonService: { readonly caisson: string; readonly startedPeriod: number } | null;
  /** [p.20] hot weather: used both actions this period (+1 fatigue). */
  readonly usedBothActions: boolean;
}

// ---------------------------------------------------------------------------------------------------------------------
// Leaders, staff and command [p.3, p.10-11, p.16-18]; digest §2.8
// ---------------------------------------------------------------------------------------------------------------------

/**
 * [p.16] army, corps and division commanders; [p.10] a grand battery commander (appointed from a division leader,
 * whose old post passes to a staff officer). A staff officer [p.16] is a replacement: see `staffOfficer`.
 */
export type LeaderRole = LeaderRank | 'grandBattery';

/** The ranks a leader's superior may have. */
export const SUPERIOR_RANKS: Readonly<Record<LeaderRole, readonly LeaderRole[]>> = {
  army: [],
  corps: ['army'],
  division: ['corps', 'army'],
  grandBattery: ['corps', 'army'],
};

/** A leader's data from the scenario [p.16-18]. */
export interface LeaderStatic {
  readonly id: string;
  readonly side: Side;
  readonly name: string;
  readonly rank: LeaderRole;
  /** The leader above him ('' for the army commander). */
  readonly superior: string;
  /** [p.16] option #1: army 35-45", corps 15-30", division 10-20" ("can also be applied to … command radius"). */
  readonly radius: number;
  /** [p.16] +1 division, +2 corps, +3 army; historical values differ. */
  readonly moraleBonus: number;
  /** [p.16] +5; +10 for a leader who can lead a charge; +0 timid. */
  readonly meleeBonus: number;
  /** [p.17] optional initiative: base 8 corps, 5 division; army commanders have none. */
  readonly initiative: number | null;
  /** [p.18] optional misread: +1 poor officer, +2 very bad. */
  readonly misread: 0 | 1 | 2;
  /** [p.20] optional visibility: +20" with a spyglass. */
  readonly spyglass: boolean;
  /** [p.16] a staff officer in place of a lost leader: no bonuses, keeps the command distance open. */
  readonly staffOfficer: boolean;
}

/** A leader's mutable state (digest §4 "Per leader"). */
export interface LeaderState {
  readonly id: string;
  /** Position 1/100" (the centre of his radius; the attached unit's front centre while attached). */
  readonly x: number;
  readonly y: number;
  readonly attachedTo: string | null;
  /** [p.16] lost: removed and replaced by a staff officer. */
  readonly lost: boolean;
  /** The current holder is a staff officer replacing him. */
  readonly replaced: boolean;
  /** [p.11, p.17] the command's original leader was incapacitated (threshold −3, orders +2). */
  readonly originalLeaderLost: boolean;
  /** [p.17] in command this period (after any initiative roll). */
  readonly inCommand: boolean;
  /** [p.17] option #2: the division's order, and a change on its way. */
  readonly order: WrittenOrder | null;
  readonly pendingOrder: { readonly order: WrittenOrder; readonly arrivesPeriod: number } | null;
}

/** [p.17] A-28: the condition templates an order may carry. */
export type OrderCondition =
  | { readonly c: 'afterTurns'; readonly n: number }
  | { readonly c: 'whenObjectiveTaken'; readonly objective: string }
  | { readonly c: 'whenEnemyWithdraws' }
  | { readonly c: 'onArrivalSwitchTo'; readonly order: Order };

/** [p.17] a written order (option #2): Attack, Defend, Withdraw, Pursuit, Maneuver, Reserve. */
export interface WrittenOrder {
  readonly order: Order;
  /** Objective or location (Attack, Maneuver), or the area to hold (Defend). */
  readonly objective?: string;
  readonly x?: number;
  readonly y?: number;
  readonly condition?: OrderCondition;
}

// ---------------------------------------------------------------------------------------------------------------------
// Other entities [p.10-11, p.19-20]; digest §2.10
// ---------------------------------------------------------------------------------------------------------------------

/** [p.19] a building block: a 4" square; up to 12 figures; 0..4 fires [p.20]. */
export const BLOCK_SIZE = 4;

export type Compass = 'N' | 'E' | 'S' | 'W';

export interface BlockState {
  readonly id: string;
  /** South-west corner, 1/100". */
  readonly x: number;
  readonly y: number;
  /** [p.20] −1 to start fires when most buildings are brick or stone. */
  readonly brickOrStone: boolean;
  /** [p.19] sides that are a wall or prepared defence (+1 to the defender). */
  readonly wallSides: readonly Compass[];
  /** [p.20] optional fires, 0..4; no entry at 3. */
  readonly fires: number;
}

/** [p.11] optional caisson: 8"/action, destroyed by two casualties; resupplies one battery. */
export interface CaissonState {
  readonly id: string;
  readonly side: Side;
  readonly x: number;
  readonly y: number;
  readonly facing: number;
  readonly hits: number;
  readonly servicing: string | null;
  readonly destroyed: boolean;
}

/** [p.20] optional smoke (A-78): a 2"-deep rectangle in front of the firer, removed in step 12 of the next period. */
export interface SmokeCloud {
  readonly x: number;
  readonly y: number;
  readonly facing: number;
  readonly width: number;
  readonly expiresAfterPeriod: number;
}

/** guns left on the table, with their owner. */
export interface AbandonedGuns {
  readonly battery: string;
  readonly x: number;
  readonly y: number;
  readonly facing: number;
  readonly heldBy: Side;
}

/** A close action waiting for step 9, in contact order [p.13] (digest §4). */
export interface CloseAction {
  readonly id: string;
  readonly defender: string;
  readonly chargers: readonly {
    readonly unit: string;
    readonly arc: Arc;
    readonly distance: number;
    readonly partial: boolean;
    readonly usedBothActions: boolean;
    readonly changedBeforeCharge: boolean;
    readonly counterCharge: boolean;
  }[];
}

// ---------------------------------------------------------------------------------------------------------------------
// Game state (digest §4 "Global")
// ---------------------------------------------------------------------------------------------------------------------

/** [p.4] steps 1-11 of a period, plus the digest's step 0 (orders) and 12 (housekeeping). */
export type Step = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12;

export interface SideState {
  readonly name: string;
  readonly nationality: Nationality;
  readonly doctrine: Doctrine;
  /** [p.5] turn points each game turn (20, or the scenario's uneven number) and what is left this turn. */
  readonly turnPointsPerTurn: number;
  readonly turnPoints: number;
  readonly bid: number | null;
  /** [p.11] failed its threshold this game turn: −4 morale (the army, or these divisions by leader id). */
  readonly armyThresholdFailed: boolean;
  readonly divisionsFailed: readonly string[];
  /** [p.11] Napoleon on the battlefield (+1 French threshold); army commander (orders −2). */
  readonly napoleonPresent: boolean;
  readonly napoleonArmyCommander: boolean;
  /** Units activated this period. */
  readonly activated: number;
}

/** The whole game (digest §4): plain readonly data. */
export interface NeState {
  readonly scenarioId: string;
  readonly turn: number;
  /** 1..6 [p.4]. */
  readonly period: number;
  readonly step: Step;
  readonly sides: readonly [SideState, SideState];
  /** Side A this period (the other is D), or null before bidding. */
  readonly sideA: Side | null;
  /** units left in the current sub-step, and whether side A declared "finished". */
  readonly stepUnitsLeft: number;
  readonly aFinished: boolean;
  readonly activeUnit: string | null;
  readonly units: readonly UnitState[];
  readonly leaders: readonly LeaderState[];
  readonly closeActions: readonly CloseAction[];
  /** Morale marks, in marking order. */
  readonly markSeq: number;
  readonly blocks: readonly BlockState[];
  readonly caissons: readonly CaissonState[];
  readonly smoke: readonly SmokeCloud[];
  readonly abandoned: readonly AbandonedGuns[];
  /** [p.20] optional weather; rain periods count toward mud. */
  readonly weather: WeatherState;
  readonly result: null | { readonly winner: Side | -1; readonly vp: readonly [number, number]; readonly text: string };
}

export type WeatherKind = 'clear' | Weather;

export interface WeatherState {
  readonly kind: WeatherKind;
  readonly heavyRainPeriods: number;
  readonly lightRainPeriods: number;
  readonly mud: boolean;
  readonly fallenSnow: boolean;
}
