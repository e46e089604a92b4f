/** State of an Eagles of the Empire game: plain, readonly data (see the digest §4). */
import type { AreaId, AreaMap } from '../../areas/map.ts';
import type { Scenario, Step } from './scenario.ts';

export type Side = 0 | 1;
export type Weather = 'clear' | 'rain' | 'fog' | 'snow';

export interface UnitState {
  readonly id: string;
  readonly side: Side;
  readonly kind: 'infantry' | 'cavalry' | 'artillery';
  readonly long: boolean;
  readonly steps: readonly Step[];
  readonly step: number;
  readonly startStep: number;
  /** Area, or null before arrival / after elimination. */
  readonly area: AreaId | null;
  readonly eliminated: boolean;
  /** Conformation id (long counters and artillery outside all-around areas) [13.9]. */
  readonly conf: string | null;
  /** Current formation (assignments change it [11.12]). */
  readonly formation: string;
  readonly attachedTo: string | null;
  /** Steps lost so far (recovered steps still count for victory [15.22]). */
  readonly lost: number;
  /** Routed [19.1] (optional rule). */
  readonly routed: boolean;
  /** In square [17.1]. */
  readonly square: boolean;
  /** The target of the Massed Column it declared this turn [14.7], or null. */
  readonly mc: AreaId | null;
  /** In Reverse Slope Defence [17.2]. */
  readonly rs: boolean;
  /** The combat it made this turn: charged, bombarded or assaulted [10.7, 12.61, 14.65]. */
  readonly acted: 'charge' | 'bombard' | 'assault' | null;
  /** Movement points spent this turn [13.1] and whether its move is over; whether it refaced before moving [13.9]. */
  readonly mp: number;
  readonly moveDone: boolean;
  readonly refaced: boolean;
  /** Artillery detached voluntarily this turn: −1 MA [11.29]. */
  readonly detached: boolean;
  /** An extended-line marker [16.0]: the long counter it extends and its fraction (2: a "1/2", 3: a "1/3"); null otherwise. Off the map (area null) while not deployed. */
  readonly ext: { readonly lc: string; readonly div: 2 | 3 } | null;
  /** The SP this part of an extended line holds [16.1, 16.7] (the LC's and each marker's share); null when not extended. */
  readonly xsp: number | null;
}

export interface LeaderState {
  readonly id: string;
  readonly side: Side;
  /** On the map at an area, off-map (division leaders, staff held for replacement, not yet arrived), or eliminated. */
  readonly area: AreaId | null;
  readonly status: 'on' | 'off' | 'dead' | 'promoted';
  /** An army or intermediate commander moves once per turn [13.4]; a leader's own move is over. */
  readonly moved: boolean;
}

interface FormationState {
  readonly id: string;
  readonly side: Side;
  /** Leader counter on its "Activated" side [8.16, 8.17]. */
  readonly activated: boolean;
  /** Still activated after a failed rally: may not activate this turn, nor move or attack [15.11]. */
  readonly failedRally: boolean;
}

interface HqState {
  readonly area: AreaId | null;
  readonly lost: boolean;
}

export interface Reinforcement {
  readonly id: string;
  readonly due: number;
  readonly delayed: boolean;
  readonly arrived: boolean;
  /** Set when the group could neither arrive (no enemy-free area) nor be delayed: it never arrives [6.0]. */
  readonly lapsed?: boolean;
}

interface Ctx {
  readonly scenario: Scenario;
  readonly map: AreaMap;
}

export type Frame =
  // decisions
  | { readonly t: 'reinf'; readonly p: Side; readonly g: string }
  | { readonly t: 'reinfPlace'; readonly p: Side; readonly g: string; readonly areas: readonly AreaId[] }
  | { readonly t: 'face'; readonly p: Side; readonly u: string }
  | { readonly t: 'firstChoice'; readonly p: Side }
  | { readonly t: 'attempt'; readonly p: Side }
  | { readonly t: 'select'; readonly p: Side; readonly left: number }
  // chance
  | { readonly t: 'weather' }
  | { readonly t: 'firstRoll' }
  | { readonly t: 'actDie'; readonly p: Side }
  | { readonly t: 'courier'; readonly p: Side; readonly area: AreaId }
  | { readonly t: 'cbi'; readonly p: Side; readonly leader: string }
  // automatic continuations
  | { readonly t: 'command'; readonly p: Side }
  // the Action Phase [8.14]: segments and their procedures (action.ts)
  | PhaseFrame
  | {
      readonly t: 'fire';
      readonly p: Side;
      readonly from: AreaId;
      readonly to: AreaId;
      readonly units: readonly string[];
    }
  | {
      readonly t: 'bomb';
      readonly p: Side;
      readonly from: AreaId;
      readonly to: AreaId;
      readonly units: readonly string[];
      readonly cb: boolean;
      readonly stage: 'roll' | 'losses' | 'rout';
      readonly hits: number | null;
    }
  | {
      readonly t: 'move';
      readonly p: Side;
      readonly units: readonly string[];
      readonly leaders: readonly string[];
      readonly hq: boolean;
      readonly at: AreaId;
      readonly moved: boolean;
      readonly road: string | null;
      readonly boost?: boolean;
    }
  | {
      readonly t: 'routMove';
      readonly p: Side;
      readonly u: string;
      readonly left: number;
      readonly path: readonly AreaId[];
      readonly attackers: readonly AreaId[];
      readonly initial: boolean;
      readonly mp: number | null;
      readonly riders?: readonly string[];
    }
  | { readonly t: 'displace'; readonly p: Side; readonly l: string; readonly options: readonly AreaId[] }
  | {
      readonly t: 'retreatTo';
      readonly p: Side;
      readonly units: readonly string[];
      readonly from: AreaId;
      readonly options: readonly AreaId[];
      readonly voluntary: boolean;
    }
  | {
      readonly t: 'roll';
      readonly dice: readonly { readonly n: number; readonly drm: number }[];
      readonly why: string;
      readonly rule: string;
    }
  | LossFrame
  | { readonly t: 'leaderCheck'; readonly l: string; readonly mod: number; readonly rule: string }
  | {
      readonly t: 'routCheck';
      readonly u: string;
      readonly mod: number;
      readonly cascade: boolean;
      readonly attackers: readonly AreaId[];
      readonly retest: boolean;
    }
  | AssaultFrame
  | ChargeFrame
  | GrandChargeFrame
  | EndFrame;

/** A Grand Charge being declared [10.8–10.81]: the common first area, the target, the cavalry, the launch roll. */
export interface GrandChargeFrame {
  readonly t: 'gc';
  readonly p: Side;
  readonly leader: string;
  readonly stage: 'first' | 'target' | 'gather' | 'launch';
  readonly first: AreaId | null;
  readonly target: AreaId | null;
  readonly units: readonly string[];
}

/** A cavalry charge or pursuit in progress [10.0–10.94]. */
export interface ChargeFrame {
  readonly t: 'charge';
  readonly p: Side;
  readonly origin: AreaId;
  /** The intervening area (null in a pursuit, which enters an adjacent area [10.92]). */
  readonly via: AreaId | null;
  readonly target: AreaId;
  readonly units: readonly string[];
  /** Leaders riding with the cavalry. */
  readonly escort: readonly string[];
  readonly stage:
    | 'gather'
    | 'squareCheck'
    | 'squareAsk'
    | 'squareRoll'
    | 'defFire'
    | 'defLoss'
    | 'atkFire'
    | 'atkLoss'
    | 'result'
    | 'occupy'
    | 'pursuitRoll'
    | 'pursuitChoice'
    | 'pursuitHeavy'
    | 'pursuitGo'
    | 'advanceChoice'
    | 'repulseLoss'
    | 'repulseBack'
    | 'gcAfter'
    | 'rout';
  /** Grand Charge [10.8]: each unit's origin area; `bonus` is the +1 on all attack dice [10.82]; no pursuit. */
  readonly grand?: {
    readonly origins: Readonly<Record<string, AreaId>>;
    readonly bonus: boolean;
    readonly continued: boolean;
  };
  readonly failedSquare: boolean;
  /** Defenders' SP and steps, and the cavalry's steps, when the charge began (A-17). */
  readonly defSp0: number;
  readonly def0: Readonly<Record<string, number>>;
  readonly cav0: Readonly<Record<string, number>>;
  readonly defIds: readonly string[];
  readonly pursuit: boolean;
  /** Units that retreated into a pursued area and may not fire at the pursuers [10.93]. */
  readonly noFire: readonly string[];
  /** Heavy cavalry that chose to join the pursuit [10.91]. */
  readonly withHeavy: readonly string[];
  readonly die: number | null;
  readonly hits: number | null;
}

/** End Step frames (end-flow.ts) [15.0–15.3]. */
export type EndFrame =
  | {
      readonly t: 'endSeq';
      readonly stage: 'free' | 'rally' | 'routRally' | 'recovery' | 'replace';
      readonly done: readonly string[];
    }
  | { readonly t: 'freeRally'; readonly p: Side; readonly options: readonly string[] }
  | { readonly t: 'rallyRoll'; readonly f: string; readonly target: number }
  | { readonly t: 'routRally'; readonly u: string; readonly target: number }
  | { readonly t: 'recoverRoll'; readonly u: string }
  | { readonly t: 'replace'; readonly p: Side; readonly post: string; readonly options: readonly string[] };

/** The Action Phase of side `p`: the current segment and its bookkeeping. */
export interface PhaseFrame {
  readonly t: 'phase';
  readonly p: Side;
  readonly seg: Segment;
  /** Units in command, as determined at the start of the phase [9.0]. */
  readonly inCmd: readonly string[];
  /** Artillery SP fired this segment per "from>to" (8 SP cap, A-24) and areas assaulted this segment [14.64]. */
  readonly bomb: Readonly<Record<string, number>>;
  readonly assaulted: readonly AreaId[];
  /** Rout bookkeeping per segment: steps a unit had when it first lost one this segment, steps lost, and units already checked. */
  readonly segStart: Readonly<Record<string, number>>;
  readonly segLost: Readonly<Record<string, number>>;
  readonly routChecked: readonly string[];
  /** Units and leaders whose assignment changed this segment: one change each per Assignment Segment [11.0] (no cycles). */
  readonly done?: readonly string[];
  /** A Grand Charge's phase [10.8]: it holds only the charge and ends with it, activating no formation. */
  readonly grand?: boolean;
}
export type Segment = 'charge' | 'assign' | 'bombard' | 'move' | 'assault';

/** Losses being allocated one hit at a time by the struck side's owner. */
export interface LossFrame {
  readonly t: 'loss';
  readonly p: Side;
  readonly area: AreaId;
  readonly hits: number;
  readonly cb: boolean;
  readonly lostNow: Readonly<Record<string, number>>;
  readonly first: boolean;
  readonly rule: string;
  /** Which units may be struck (assault: the units that took part); null: every unit of the side in the area. */
  readonly only: readonly string[] | null;
  /** Leaders accompanying charging cavalry: +1 on their casualty check [3.2, 10.2]. */
  readonly escort?: readonly string[];
}

/** An assault in progress [14.0–14.5]. */
export interface AssaultFrame {
  readonly t: 'assault';
  readonly p: Side;
  readonly target: AreaId;
  /** Attacking units, and the attacking area the defender fires at. */
  readonly units: readonly string[];
  readonly firedAt: AreaId | null;
  /** The attacking units in the area the defender fired at. */
  readonly struckIds: readonly string[];
  readonly stage:
    | 'gather'
    | 'beforeRetreat'
    | 'defTarget'
    | 'rollA'
    | 'rollD'
    | 'mcLoss'
    | 'atkChoice'
    | 'atkStand'
    | 'defChoice'
    | 'defStand'
    | 'apply'
    | 'retreat'
    | 'advance'
    | 'rout';
  readonly hitsA: number;
  readonly hitsD: number;
  /** The attacker's and defender's decisions: stand, retreat, or forced (a failed stand). */
  readonly atk: 'stand' | 'retreat' | 'forced' | null;
  readonly def: 'stand' | 'retreat' | 'forced' | 'elite' | null;
  readonly combined: boolean;
  readonly vacated: boolean;
  /** A Massed Column assault [14.7–14.78]: the defender fires first and its hits land before the attacker fires. */
  readonly mc?: boolean;
}

type Phase = 'prep' | 'activation' | 'end' | 'over';

interface Result {
  /** 0, 1, or -1 for a draw. */
  readonly winner: number;
  readonly level: 'decisive' | 'marginal' | 'draw';
  readonly vp: readonly [number, number];
  readonly reason: string;
}

export interface EState {
  readonly ctx: Ctx;
  readonly turn: number;
  readonly phase: Phase;
  readonly weather: Weather;
  readonly weatherSet: boolean;
  readonly firstPlayer: Side | null;
  readonly units: readonly UnitState[];
  readonly leaders: readonly LeaderState[];
  readonly hq: readonly [HqState | null, HqState | null];
  readonly formations: readonly FormationState[];
  readonly reinf: readonly Reinforcement[];
  /** Activation bookkeeping [8.1, 8.13]: whose attempt is next, the previous attempt, failures in a row by one side. */
  readonly acting: Side;
  readonly prev: { readonly p: Side; readonly failed: boolean } | null;
  readonly sameSideFails: number;
  /** Formations activated in the current Action Phase [8.14]. */
  readonly active: readonly string[];
  /** Command-by-Initiative results this turn [9.3]; courier rolls this segment [9.12]. */
  readonly cbi: Readonly<Record<string, boolean>>;
  readonly courier: Readonly<Record<string, boolean>>;
  /** Objective control: area → side. */
  readonly control: Readonly<Record<string, Side>>;
  /** Movement this turn by leaders (MP spent [13.4]) and by each side's HQ (MP spent, move made [13.5]). */
  readonly leaderMp: Readonly<Record<string, number>>;
  readonly hqMp: readonly [number, number];
  readonly hqMoved: readonly [boolean, boolean];
  /** Reserve units assigned this turn per side [11.11]; artillery leaders' assigned formations [11.14]. */
  readonly assigned: readonly [number, number];
  readonly artLeaderOf: Readonly<Record<string, string>>;
  /** Replacements [15.3]: the leader (or the generic 1-0-1, A-50) now filling an eliminated or promoted leader's post. */
  readonly standIn: Readonly<Record<string, string>>;
  /** Posts whose holder fell, once per fall, for victory points. */
  readonly fallen: readonly string[];
  /** The End Step's procedures [15.1–15.3] have been started this turn. */
  readonly endDone: boolean;
  readonly stack: readonly Frame[];
  /** Chance steps taken so far; the procedure runtime advances it once at every chance step (`chanceKey`). */
  readonly nChance: number;
  readonly result: Result | null;
}

export type Action =
  | { readonly k: 'arrive'; readonly g: string }
  | { readonly k: 'delay'; readonly g: string }
  | { readonly k: 'placeAt'; readonly area: AreaId }
  | { readonly k: 'face'; readonly u: string; readonly conf: string }
  | { readonly k: 'first'; readonly self: boolean }
  | { readonly k: 'roll' }
  | { readonly k: 'pass' }
  | { readonly k: 'grandCharge'; readonly leader: string }
  | { readonly k: 'select'; readonly f: string }
  // the Action Phase
  | { readonly k: 'next' }
  | { readonly k: 'fire'; readonly u: string; readonly to: AreaId }
  | { readonly k: 'shoot'; readonly cb: boolean }
  | { readonly k: 'mvUnit'; readonly u: string }
  | { readonly k: 'mvStack'; readonly area: AreaId }
  | { readonly k: 'mvLeader'; readonly l: string }
  | { readonly k: 'mvWithLeader'; readonly u: string; readonly l: string }
  | { readonly k: 'mvHq' }
  | { readonly k: 'to'; readonly area: AreaId; readonly mode: 'normal' | 'road' | 'trail' }
  | { readonly k: 'stop' }
  | { readonly k: 'routOff' }
  | { readonly k: 'hit'; readonly u: string }
  | { readonly k: 'goTo'; readonly area: AreaId }
  | { readonly k: 'square'; readonly area: AreaId; readonly on: boolean }
  | { readonly k: 'assault'; readonly target: AreaId }
  | { readonly k: 'join'; readonly u: string }
  | { readonly k: 'resolve' }
  | { readonly k: 'fireAt'; readonly area: AreaId }
  | { readonly k: 'stand' }
  | { readonly k: 'retreat' }
  | { readonly k: 'advance'; readonly u: string }
  | { readonly k: 'charge'; readonly area: AreaId; readonly target: AreaId }
  | { readonly k: 'escort'; readonly l: string }
  | { readonly k: 'pursue'; readonly sign: -1 | 0 | 1 }
  | { readonly k: 'attach'; readonly u: string; readonly lc: string }
  | { readonly k: 'detach'; readonly u: string }
  | { readonly k: 'reserve'; readonly u: string; readonly to: string }
  | { readonly k: 'artLeader'; readonly l: string; readonly to: string }
  | { readonly k: 'deploy'; readonly id: string }
  | { readonly k: 'reabsorb'; readonly id: string }
  | { readonly k: 'gcFirst'; readonly area: AreaId }
  | { readonly k: 'gcTarget'; readonly target: AreaId }
  | { readonly k: 'gcAfter'; readonly mode: 'continue' | 'return' }
  | { readonly k: 'reverseSlope'; readonly u: string; readonly on: boolean }
  | { readonly k: 'massedColumn'; readonly u: string; readonly target: AreaId }
  | { readonly k: 'extend'; readonly u: string; readonly to: readonly AreaId[] }
  | { readonly k: 'retract'; readonly u: string; readonly into: AreaId }
  // chance outcomes
  | { readonly k: 'c-weather'; readonly w: Weather; readonly faces: readonly number[] }
  | { readonly k: 'c-first'; readonly winner: Side }
  | { readonly k: 'c-die'; readonly face: number }
  | { readonly k: 'c-hits'; readonly n: number }
  | { readonly k: 'c-pass'; readonly ok: boolean };
