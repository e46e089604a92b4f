/**
 * Charge! Eagles Rising: the data model. The command tree (digest §2.1: Army → Manoeuvre Formations (MF) → Manoeuvre
 * Elements (ME) → units, with leaders and command ranges), the unit classes and arms (§2.2–2.5), the markers (§2.6),
 * the footprints of §3.1 (ADAPTATION C4), and everything §4 "State to track" lists, as plain readonly data: no classes,
 * Maps or functions in a state, so it hashes (engine/core/hash.ts) and is never mutated. No rules are played here.
 *
 * Sources: the quick-reference sheets (`shared/seeds/charge-eagles-rising-qrs.txt`, "the sheets": they win) and the
 * digest (`shared/rules/charge-eagles-rising.md`). ADAPTATIONs are the digest's C1–C14 (options.ts).
 *
 * Units of measure (digest conventions). Scenario files: inches, whole degrees. State: positions in 1/100" (`IN` =
 * 100, engine/geometry) as `Vec`, headings integer degrees clockwise from north, footprints as the geometry's `Rect`.
 * A unit's position is its FOOTPRINT CENTRE. Origin south-west, +x east, +y north.
 *
 * Dice are chance nodes of the Game interface (the driver draws them), so a state holds no RNG.
 *
 * Secret orders (S1, ADAPTATION C7): each side's written orders live in `secret[side]` until the S2 reveal; an
 * observation for one side blanks the other's `secret` entry, and nothing else in the state depends on it before S2.
 */
import { IN, type Polygon, type Rect, type Vec } from '../../geometry/geometry.ts';
import type { Terrain } from '../../geometry/terrain.ts';
import type { ProcedureState } from '../../core/procedure.ts';
import type { Options } from './options.ts';
import type { CommandRating, Inspiration, UnitClass } from './tables.ts';

// ---------------------------------------------------------------------------------------------------------------------
// Sides and classes (§2.2)
// ---------------------------------------------------------------------------------------------------------------------

/** The two sides in scenario order; players are named by the sides' names. */
export type Side = 0 | 1;

/** The class ladder of the sheets, worst to best (skill numbers 10 … 4), as tables.ts transcribes it. */
export { UNIT_CLASSES, type UnitClass } from './tables.ts';

/** §2.3: the nationalities the sheets name (British/KGL/Portuguese counter-charge, French/Russian pull-up). */
export type Nationality = 'british' | 'kgl' | 'portuguese' | 'french' | 'russian' | 'other';
export const NATIONALITIES: readonly Nationality[] = ['british', 'kgl', 'portuguese', 'french', 'russian', 'other'];

export type UnitKind = 'infantry' | 'cavalry' | 'artillery';

/** "Linear doctrine infantry in line" −1 skill. */
type Doctrine = 'linear' | 'columnar';
/** Fire dice: 1d10 per 3 (3-rank) or 2 (2-rank) front-rank figures. */
export type Ranks = 2 | 3;
type Weapon = 'musket' | 'rifle';
/** "Charging cavalry each grade heavier (light/medium/heavy/armored)"; armored moves as heavy (C6). */
type CavalryWeight = 'light' | 'medium' | 'heavy' | 'armored';
/** Light 3–4 pdr, Medium 6–8 pdr, Medium 9 pdr, Heavy 12 pdr. */
type GunType = 'light' | 'medium68' | 'medium9' | 'heavy';
type Mobility = 'foot' | 'horse';
/** Artillery class 1/2/3 for fire (C12: Guard/Elite 1, Regular/Veteran 2, others 3). */
export type CrewClass = 1 | 2 | 3;

/** C12: the crew class a battery of this unit class has when the scenario does not say. */
export function crewClassOf(c: UnitClass): CrewClass {
  if (c === 'guard' || c === 'oldGuard' || c === 'elite' || c === 'grenadier') return 1;
  if (c === 'regular' || c === 'veteran') return 2;
  return 3;
}

// ---------------------------------------------------------------------------------------------------------------------
// Formations (§2.3–2.5)
// ---------------------------------------------------------------------------------------------------------------------

/** Infantry: `garrison` is Garrison(buaId), the BUA in `garrison`. */
export type InfantryFormation =
  | 'line'
  | 'column'
  | 'marchColumn'
  | 'hastySquare'
  | 'solidSquare'
  | 'skirmish'
  | 'garrison';
/** Cavalry: Skirmish for light cavalry only (C4). */
export type CavalryFormation = 'line' | 'column' | 'skirmish';
export type ArtilleryFormation = 'unlimbered' | 'limbered';
export type Formation = InfantryFormation | CavalryFormation | ArtilleryFormation;

export const FORMATIONS: Readonly<Record<UnitKind, readonly Formation[]>> = {
  infantry: ['line', 'column', 'marchColumn', 'hastySquare', 'solidSquare', 'skirmish', 'garrison'],
  cavalry: ['line', 'column', 'skirmish'],
  artillery: ['unlimbered', 'limbered'],
};

// ---------------------------------------------------------------------------------------------------------------------
// Footprints (§3.1, ADAPTATION C4), inches
// ---------------------------------------------------------------------------------------------------------------------

/** C4: an infantry figure takes 0.5" of frontage; each rank is 0.5" deep. */
const FIGURE_FRONTAGE = 0.5;
const RANK_DEPTH = 0.5;
/** C4: a cavalry stand is 3 figures, 1.5" wide × 1.25" deep. */
const CAVALRY_STAND = { figures: 3, width: 1.5, depth: 1.25 } as const;
/** C4: a gun takes 0.5" of frontage, 1.5" deep unlimbered; limbered 1" wide × (0.5" a gun + 1"). */
const GUN_FRONTAGE = 0.5;
const GUN_DEPTH = 1.5;
/** C4: a Skirmish screen is one loose line 1" deep. */
const SKIRMISH_DEPTH = 1;

export type FootprintInput =
  | {
      readonly kind: 'infantry';
      readonly formation: Exclude<InfantryFormation, 'garrison'>;
      readonly figures: number;
      readonly ranks: Ranks;
    }
  | { readonly kind: 'cavalry'; readonly formation: CavalryFormation; readonly figures: number }
  | { readonly kind: 'artillery'; readonly formation: ArtilleryFormation; readonly guns: number };

export interface FootprintSize {
  /** Along the front edge, inches. */
  readonly width: number;
  /** Front to back, inches. */
  readonly depth: number;
  /** Front-rank figures for small-arms dice (one face of a square; 0 for cavalry and artillery). */
  readonly frontRank: number;
}

/** Cavalry stands: ceil(figures / 3) (C4). */
const cavalryStands = (figures: number): number => Math.ceil(figures / CAVALRY_STAND.figures);

/**
 * §3.1 (C4) footprint of a unit in inches. A garrison has none of its own (it is its BUA), so it is not an input.
 * Line ceil(N/r) × r; attack column 4 × ceil(N/4); march column 2 × ceil(N/2); square side 0.5·ceil(N/4); skirmish
 * N × 0.5" by 1" (front rank ceil(N/2), firing as 2-rank); cavalry stands abreast (line), 2 wide (column) or with
 * stand-wide gaps (skirmish); a battery 0.5" a gun × 1.5", limbered 1" × (0.5" a gun + 1").
 */
export function footprintSize(u: FootprintInput): FootprintSize {
  if (u.kind === 'artillery')
    return u.formation === 'limbered'
      ? { width: 1, depth: GUN_FRONTAGE * u.guns + 1, frontRank: 0 }
      : { width: GUN_FRONTAGE * u.guns, depth: GUN_DEPTH, frontRank: 0 };
  if (u.kind === 'cavalry') {
    const n = cavalryStands(u.figures);
    const { width: w, depth: d } = CAVALRY_STAND;
    if (u.formation === 'line') return { width: n * w, depth: d, frontRank: 0 };
    if (u.formation === 'column') return { width: Math.min(2, n) * w, depth: Math.ceil(n / 2) * d, frontRank: 0 };
    return { width: (2 * n - 1) * w, depth: d, frontRank: 0 };
  }
  const n = u.figures;
  switch (u.formation) {
    case 'line': {
      const front = Math.ceil(n / u.ranks);
      return { width: front * FIGURE_FRONTAGE, depth: u.ranks * RANK_DEPTH, frontRank: front };
    }
    case 'column': {
      const front = Math.min(4, n);
      return { width: front * FIGURE_FRONTAGE, depth: Math.ceil(n / 4) * RANK_DEPTH, frontRank: front };
    }
    case 'marchColumn': {
      const front = Math.min(2, n);
      return { width: front * FIGURE_FRONTAGE, depth: Math.ceil(n / 2) * RANK_DEPTH, frontRank: front };
    }
    case 'hastySquare':
    case 'solidSquare': {
      const face = Math.ceil(n / 4);
      return { width: face * FIGURE_FRONTAGE, depth: face * FIGURE_FRONTAGE, frontRank: face };
    }
    case 'skirmish':
      return { width: n * FIGURE_FRONTAGE, depth: SKIRMISH_DEPTH, frontRank: Math.ceil(n / 2) };
  }
}

/** The footprint rectangle in 1/100" of a unit centred at `pos` (1/100") facing `facing` degrees. */
export function footprintRect(pos: Vec, facing: number, size: FootprintSize): Rect {
  return { x: pos.x, y: pos.y, w: Math.round(size.width * IN), d: Math.round(size.depth * IN), h: facing };
}

// ---------------------------------------------------------------------------------------------------------------------
// Leaders and command (§2.1, §6.1, §6.2)
// ---------------------------------------------------------------------------------------------------------------------

/** Command range class: Army/Wing CO 36", Corps CO 30", Division or Cav Brigade 12" (C2: ME leaders). */
export type LeaderLevel = 'armyWing' | 'corps' | 'division' | 'cavBrigade';
export const LEADER_LEVELS: readonly LeaderLevel[] = ['armyWing', 'corps', 'division', 'cavBrigade'];
/** Command rating, worst to best: order acceptance number 8 … 4, range bonus −3" … +9". */
export { COMMAND_RATINGS } from './tables.ts';
/** Inspiration, worst to best: morale and CAC 0 … +3, skill 0 … −3. */
export { INSPIRATIONS, type Inspiration } from './tables.ts';

/** §6.2: knocked out (back after `backAfterTurn`), incapacitated, KIA, captured. */
type LeaderStatus = 'active' | 'knockedOut' | 'incapacitated' | 'kia' | 'captured';

/** What a leader commands: the army (the CC), an MF or an ME. */
type LeaderRole = 'army' | 'formation' | 'element';

export interface LeaderState {
  readonly id: string;
  readonly side: Side;
  readonly name: string;
  readonly role: LeaderRole;
  /** The MF or ME id he commands ('' for the CC, who commands the army). */
  readonly commands: string;
  readonly level: LeaderLevel;
  readonly command: CommandRating;
  readonly inspiration: Inspiration;
  /** 1/100"; while attached, the attached unit's centre. Off the table (with an off-board ME): the entry point. */
  readonly pos: Vec;
  /** T1: the unit he is attached to, or null. */
  readonly attachedTo: string | null;
  readonly status: LeaderStatus;
  /** Knocked out: the last turn he is out ("for 1 turn": until the end of the next turn). 0 otherwise. */
  readonly backAfterTurn: number;
  /** Off the table with his off-board ME until it arrives. */
  readonly offBoard: boolean;
  /** §6.2: a replacement rolled for a lost leader, taking over at the next S1; until then the command has none. */
  readonly replacement: {
    readonly command: CommandRating;
    readonly inspiration: Inspiration;
    readonly takesOverTurn: number;
  } | null;
}

// ---------------------------------------------------------------------------------------------------------------------
// Orders (§6.1, ADAPTATION C2)
// ---------------------------------------------------------------------------------------------------------------------

export type OrderType = 'attack' | 'hold' | 'advance' | 'reserve' | 'withdraw';
export const ORDER_TYPES: readonly OrderType[] = ['attack', 'hold', 'advance', 'reserve', 'withdraw'];

/** An order and its point: the objective (Attack, Advance), the anchor (Hold, Reserve) or the destination (Withdraw). */
export interface Order {
  readonly type: OrderType;
  /** 1/100". */
  readonly point: Vec;
  /** The scenario objective the point is, or null for a free point. */
  readonly objective: string | null;
}

/** C2: an order is accepted as Attack or Hold commits the command for good; so do fire, skirmish and CAC. */
export const COMMITTING_ORDERS: readonly OrderType[] = ['attack', 'hold'];

/**
 * A written order, sealed in its side's `secret` from S1 until the S2 reveal; by messenger (out of the CC's range)
 * it waits there until `arrivesTurn`. S2 rolls its acceptance in turn `arrivesTurn`.
 */
export interface WrittenOrder {
  /** The MF or independent ME it goes to (C2). */
  readonly to: string;
  readonly order: Order;
  readonly issuedTurn: number;
  /** The turn whose S2 rolls its acceptance (the issuing turn when in range; later by messenger). */
  readonly arrivesTurn: number;
}

/** What a side has written in secret: this S1's orders and those still travelling by messenger. */
export interface SideSecret {
  readonly orders: readonly WrittenOrder[];
}

// ---------------------------------------------------------------------------------------------------------------------
// Morale (§6.4, ADAPTATION C10)
// ---------------------------------------------------------------------------------------------------------------------

/** A friendly MF/ME that broke within 18", captured when it broke, for the caps on the tester's result. */
interface NearbyBreak {
  readonly broken: string;
  /** Its skill number (majority class) and strength when it broke. */
  readonly skill: number;
  readonly strength: number;
}

/** C10: why a command must test at the next S3, recorded since the last one. */
export interface MoraleTriggers {
  readonly tookKia: boolean;
  readonly lostCac: boolean;
  readonly unitBroken: boolean;
  /** An MF: one of its MEs broke. */
  readonly elementBroken: boolean;
  readonly nearbyBreaks: readonly NearbyBreak[];
}

export const NO_TRIGGERS: MoraleTriggers = {
  tookKia: false,
  lostCac: false,
  unitBroken: false,
  elementBroken: false,
  nearbyBreaks: [],
};

// ---------------------------------------------------------------------------------------------------------------------
// Army, MF, ME (§2.1)
// ---------------------------------------------------------------------------------------------------------------------

/** What MFs and MEs share: a leader, an order, acceptance attempts, commitment, strength and morale. */
interface CommandBase {
  readonly id: string;
  readonly side: Side;
  readonly name: string;
  /** The commanding leader's id ('' while he is lost and his replacement has not taken over). */
  readonly leader: string;
  /** The order in force (revealed). An ME inside an MF follows its MF's (C2 `orderRecipients`). */
  readonly order: Order | null;
  /** C2: consecutive failed acceptance attempts (−1 to the number a full hour of them). */
  readonly orderAttempts: number;
  /** C2: committed for good (accepted Attack or Hold, fired, fired on, skirmished, fought a CAC). */
  readonly committed: boolean;
  /** The messenger (ADC) marker: an order on its way, public from the S2 reveal; the content stays in `secret`. */
  readonly messengerArrivesTurn: number;
  /** Strength at the start (figures + guns × C3), for % lost. */
  readonly startStrength: number;
  /** §6.4 "Broken": the whole command removed. */
  readonly broken: boolean;
  readonly moraleTriggers: MoraleTriggers;
  /** Tested this S3 (each at most once, C10). */
  readonly moraleTested: boolean;
}

/** A Manoeuvre Formation: a division or corps of MEs. */
export interface FormationState extends CommandBase {
  readonly kind: 'formation';
  readonly elements: readonly string[];
}

/** §6.3: an ME scheduled to arrive from off the table. */
interface OffBoard {
  /** On a table edge, 1/100". */
  readonly entry: Vec;
  readonly facing: number;
  readonly earliestTurn: number;
  /** Arrival rolled and passed: enters in this turn's S4. */
  readonly arriving: boolean;
}

/** A Manoeuvre Element: a brigade, or an independent battalion or regiment (the "tactical element"). */
export interface ElementState extends CommandBase {
  readonly kind: 'element';
  /** Its MF, or null for an independent ME. */
  readonly formation: string | null;
  readonly units: readonly string[];
  /** Off the table until it arrives; null once on it (or if it started there). */
  readonly offBoard: OffBoard | null;
  /** S4: it moved strategically this turn (C7: its units may only Fire or Hold this tactical phase). */
  readonly strategicMoveThisTurn: boolean;
  /** T2a: activated in this tactical phase (C8: at most once). */
  readonly activatedThisPhase: boolean;
}

export interface ArmyState {
  readonly side: Side;
  readonly name: string;
  readonly nationality: Nationality;
  /** The army/wing CC's leader id. */
  readonly cc: string;
  readonly formations: readonly string[];
  /** Every ME, independent or in an MF. */
  readonly elements: readonly string[];
  readonly startStrength: number;
  /** New losses since the last S3 (C10: the Army tests when ≥ 33⅓% lost and this is set). */
  readonly newLosses: boolean;
  /** Its Army morale test gave Broken: defeated (C14). */
  readonly broken: boolean;
}

// ---------------------------------------------------------------------------------------------------------------------
// Units (§2.3–2.5) and markers (§2.6)
// ---------------------------------------------------------------------------------------------------------------------

/** Off the table (with its off-board ME), on it, or gone: broken (removed) or captured (abandoned guns). */
type UnitStatus = 'offBoard' | 'active' | 'broken' | 'captured';

/** Per tactical phase (cleared at the end of each). */
export interface PhaseFlags {
  readonly moved: boolean;
  readonly fired: boolean;
  readonly charging: boolean;
  /** [T2c] it gave defensive (closing) fire in this phase's charges (once: "may split fire between multiple attackers"). */
  readonly closingFired: boolean;
  /** CACs fought this phase (C13: at most `maxCacPerPhase`; after the 2nd, disordered for any further). */
  readonly cacCount: number;
  /** Set by the result of its 1st CAC: the longest exploitation allowed, inches (0: none). */
  readonly exploitMax: number;
  /** C8: the enemy MEs whose activation it has returned fire against. */
  readonly returnFiredVs: readonly string[];
  /** T2d: a recovery attempt was made. */
  readonly recoveryTried: boolean;
}

export const NO_PHASE_FLAGS: PhaseFlags = {
  moved: false,
  fired: false,
  charging: false,
  closingFired: false,
  cacCount: 0,
  exploitMax: 0,
  returnFiredVs: [],
  recoveryTried: false,
};

interface UnitBase {
  readonly id: string;
  readonly side: Side;
  readonly name: string;
  /** Its ME. */
  readonly element: string;
  readonly class: UnitClass;
  readonly nationality: Nationality;
  /** Footprint centre, 1/100" (a garrison: its BUA's centre). */
  readonly pos: Vec;
  /** Integer degrees clockwise from north. */
  readonly facing: number;
  readonly status: UnitStatus;
  // ----- markers (§2.6; life cycles §6.14) -----
  readonly disordered: boolean;
  /** C11: ≥ ⅓ lost. */
  readonly worn: boolean;
  /** C11: ≥ ½ lost (replaces Worn's penalties). */
  readonly spent: boolean;
  /** C11: tested on first becoming worn / spent. */
  readonly wornTested: boolean;
  readonly spentTested: boolean;
  readonly attachedLeader: string | null;
  readonly phase: PhaseFlags;
}

export interface InfantryState extends UnitBase {
  readonly kind: 'infantry';
  readonly doctrine: Doctrine;
  readonly ranks: Ranks;
  readonly weapon: Weapon;
  /** May take Skirmish formation (C4). */
  readonly light: boolean;
  /** "Sappers supporting attack into cover" +2. */
  readonly sappers: boolean;
  /** An attached 2-gun 3-pdr section, not modelled: +1 d10 of small-arms fire. */
  readonly regimentalGuns: boolean;
  /** C9: skirmish combat value (before the Skirmish-formation multiplier). */
  readonly scv: number;
  readonly figuresStart: number;
  readonly figures: number;
  readonly formation: InfantryFormation;
  /** The BUA it garrisons (formation `garrison`), else null. */
  readonly garrison: string | null;
}

interface CavalryState extends UnitBase {
  readonly kind: 'cavalry';
  readonly weight: CavalryWeight;
  readonly lancers: boolean;
  readonly figuresStart: number;
  readonly figures: number;
  readonly formation: CavalryFormation;
  readonly blown: boolean;
}

interface ArtilleryState extends UnitBase {
  readonly kind: 'artillery';
  readonly gunType: GunType;
  readonly mobility: Mobility;
  readonly crewClass: CrewClass;
  readonly gunsStart: number;
  readonly guns: number;
  readonly formation: ArtilleryFormation;
  /** "Limbered at the start of the turn" counts as limbered for fire at it. */
  readonly limberedAtTurnStart: boolean;
  readonly suppressed: boolean;
  /** C8: the crew abandoned the guns (re-manned at its ME's next activation if no enemy within 1"). */
  readonly abandoned: boolean;
}

export type UnitState = InfantryState | CavalryState | ArtilleryState;

/** A unit's current strength for % lost: figures, or guns × the C3 weight. */
export function unitStrength(u: UnitState, gunStrength: number): number {
  if (u.status === 'broken' || u.status === 'captured') return 0;
  return u.kind === 'artillery' ? u.guns * gunStrength : u.figures;
}

/** A unit's starting strength. */
export function unitStartStrength(u: UnitState, gunStrength: number): number {
  return u.kind === 'artillery' ? u.gunsStart * gunStrength : u.figuresStart;
}

// ---------------------------------------------------------------------------------------------------------------------
// The table (static: from the scenario, shared by every state of a game)
// ---------------------------------------------------------------------------------------------------------------------

type BuaMaterial = 'wooden' | 'stone';
/** Cover it gives: light (+1 to hit), medium or heavy (+2). */
type CoverGrade = 'light' | 'medium' | 'heavy';
/** "Infantry garrisoning light/medium/heavy/fortified BUA" +1/+2/+3/+4 in CAC. */
type GarrisonGrade = 'light' | 'medium' | 'heavy' | 'fortified';

export interface Bua {
  readonly id: string;
  readonly name: string;
  readonly polygon: Polygon;
  readonly material: BuaMaterial;
  readonly cover: CoverGrade;
  readonly garrison: GarrisonGrade;
  /** Centre of its polygon (a garrison's position). */
  readonly centre: Vec;
}

/** A steep rise: a polygon with its number of contours (−2" each crossed; skill test or disordered). */
interface Rise {
  readonly id: string;
  readonly polygon: Polygon;
  readonly contours: number;
}

/** A scenario objective (C14: 3 VP held). */
export interface Objective {
  readonly id: string;
  readonly name: string;
  readonly point: Vec;
  /** The terrain it is (its area counts as "in"), or null for a point. */
  readonly terrain: string | null;
  readonly vp: number;
}

type Edge = 'north' | 'south' | 'east' | 'west';

/**
 * Everything static: table, terrain (as the geometry's `Terrain`: area kinds `bua`, `lightWoods`, `denseWoods`,
 * `orchard`, `rough`, `muddy`, `steepRise`, `ford`, `bridge`; line kinds `road`, `stream`, `minorObstacle`,
 * `majorObstacle`), BUAs and rises with their own data, objectives, and the options. All lengths 1/100".
 */
export interface Ctx {
  readonly scenarioId: string;
  readonly width: number;
  readonly height: number;
  /** C14: the game's length. */
  readonly turns: number;
  readonly terrain: Terrain;
  readonly buas: readonly Bua[];
  readonly rises: readonly Rise[];
  readonly objectives: readonly Objective[];
  readonly homeEdges: readonly [Edge, Edge];
  readonly options: Options;
}

// ---------------------------------------------------------------------------------------------------------------------
// The tactical phase (§4 "During tactical phases")
// ---------------------------------------------------------------------------------------------------------------------

/** T2b: a declared charge (or a C8 opportunity charge), with where the charger began. */
export interface DeclaredCharge {
  readonly charger: string;
  readonly target: string;
  readonly doubleQuick: boolean;
  readonly opportunity: boolean;
  /** Where it began and the distance to its target then (1/100"), for square tests and pull-ups. */
  readonly from: Vec;
  readonly fromFacing: number;
  readonly startDistance: number;
  /** How far it got: declared, halted at 1" (failed to close / infantry of a combined charge), pulled up, in contact. */
  readonly stage: 'declared' | 'halted' | 'pulledUp' | 'recalled' | 'contact';
}

export type ReactionKind =
  | 'stand'
  | 'formSquare'
  | 'faceCharger'
  | 'counterChargeAttempt'
  | 'counterCharge'
  | 'evade'
  | 'abandonEvade'
  | 'fireEvade'
  | 'limberMove';

/** A defender's reaction to the charges at it (declared per charged unit before any movement). */
export interface Reaction {
  readonly unit: string;
  readonly reaction: ReactionKind;
  /** Abandon/fire and evade: the formed infantry it evades to. */
  readonly toUnit: string | null;
}

export type FireKind = 'fire' | 'return' | 'closing';

/** One unit's fire in a simultaneous step: computed together, applied together. */
export interface FireOrder {
  readonly firer: string;
  readonly target: string;
  readonly kind: FireKind;
  /** Dice given to this target when a defender splits its fire (all its dice when null). */
  readonly dice: number | null;
}

/** A close assault waiting: lead units first (C13). */
export interface PendingCac {
  readonly attackers: readonly string[];
  readonly defenders: readonly string[];
  /** An exploitation contact or a 0-row re-fight: a 2nd CAC, after all initial ones (C13). */
  readonly second: boolean;
}

interface Exploitation {
  readonly unit: string;
  /** Inches allowed by the 1st CAC's result. */
  readonly maxDistance: number;
  readonly disorderAtEnd: boolean;
}

export interface TacticalState {
  readonly activeSide: Side;
  readonly activeElement: string | null;
  readonly charges: readonly DeclaredCharge[];
  readonly reactions: readonly Reaction[];
  readonly fireQueue: readonly FireOrder[];
  readonly cacQueue: readonly PendingCac[];
  readonly exploitQueue: readonly Exploitation[];
}

// ---------------------------------------------------------------------------------------------------------------------
// The game state (§4)
// ---------------------------------------------------------------------------------------------------------------------

/** S1 … S6, then T1, T2 (the first side), T3 (the second side); `end` between turns. */
export type Phase = 'S1' | 'S2' | 'S3' | 'S4' | 'S5' | 'S6' | 'T1' | 'T2' | 'T3' | 'end';

export interface GameResult {
  /** The winner, or -1 for a draw. */
  readonly winner: Side | -1;
  readonly vp: readonly [number, number];
  readonly text: string;
}

/** A frame of the procedure stack (engine/core/procedure.ts); the engine's frame union refines it. */
interface BaseFrame {
  readonly t: string;
}

export interface CerState<F extends BaseFrame = BaseFrame> extends ProcedureState<F> {
  /** The scenario's static table and options (one object shared by every state of a game). */
  readonly ctx: Ctx;
  readonly turn: number;
  readonly phase: Phase;
  /** S6: the side that goes first in this turn's tactical phase (null before the first S6). */
  readonly firstSide: Side | null;
  readonly previousFirstSide: Side | null;
  /** C7: the side that makes its S4 strategic moves first this turn. */
  readonly strategicFirst: Side;
  readonly armies: readonly [ArmyState, ArmyState];
  readonly formations: readonly FormationState[];
  readonly elements: readonly ElementState[];
  readonly leaders: readonly LeaderState[];
  readonly units: readonly UnitState[];
  /** Each side's sealed orders (S1 to S2) and orders on their way by messenger; visible to that side only. */
  readonly secret: readonly [SideSecret, SideSecret];
  /** While T2/T3 runs. */
  readonly tactical: TacticalState | null;
  readonly result: GameResult | null;
}
