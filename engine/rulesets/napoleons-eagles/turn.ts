/**
 * [p.4-5] The game turn and its six periods: turn points each game turn, the secret turn-point bids of step 2
 * (sealed and revealed together, the D6 tie-break, the winner's choice of side A or D), and the activations of steps
 * 3-7 at the A/D ratio with the "finished" rule (A-23). Steps 8-12 (leaders, close actions, morale, markers,
 * housekeeping) close the period.
 *
 * In construction: the sequence of play only. A unit's activation offers `end` (its unused actions become a stand
 * marker); movement, fire and the rest plug into `activation` as they are built. Every rule not yet built throws
 * NotImplementedRuleError by name rather than being skipped.
 */
import type { Dist } from '../../core/dice.ts';
import { NotImplementedRuleError } from '../../core/game.ts';
import { type Handlers, type Log, type ProcedureState, procedure, push } from '../../core/procedure.ts';
import { type Macro, macros, type PlanStep, resolveStep, type StepContext } from './macros.ts';
import { bodyOf, figuresOf, IN, moveRatingOf, tableOf } from './board.ts';
import {
  type CommandBody,
  type CommandLines,
  type CommandSide,
  type LineReach,
  commandLines,
  commandPathBetween,
  commandPathLength,
  pathDecides,
  reachLength,
  reachText,
} from './command.ts';
import type { CommandOptions } from './morale.ts';
import type { ObjectiveSpec, Scenario, UnitSpec } from './scenario.ts';
import {
  type Attackers,
  type BlockAttack,
  applyBlockFight,
  blockAttackFight,
  blockAttackProblem,
  blockMove,
  blockMoveProblem,
  enter,
  entryBan,
  entryPlacement,
  entryPlacementProblem,
  exitPoint,
  figuresIn,
  figuresOutside,
  fireOutProblem,
  leaveProblem,
  moraleExempt,
  neighbours,
  openSides,
  orderBlockFights,
  room,
  sideToward,
  type Town,
} from './buildings.ts';
import {
  closestPointOnSegment,
  headingTo,
  headingVec,
  type Polygon,
  polygonDistance,
  polygonPolylineDistance,
  polygonsOverlap,
  segmentCrossesPolygon,
  pointInPolygon,
} from '../../geometry/geometry.ts';
import {
  type MoraleReason,
  bounceZones,
  type BounceLeg,
  type CanisterShot,
  canisterRange,
  type SolidShot,
  type FireTargetDesc,
  type BuildingFireOutShot,
  firingFigureCount,
  outcomeKey,
  resolveFire,
  type SmallArmsShot,
  shotProblem,
} from './fire.ts';
import {
  type CloseActionInput,
  type CloseOutcome,
  type MoraleInput as CloseMoraleInput,
  defenderCheck,
  type CavalryChargeOutcome,
  type BlockFightOutcome,
  type MeleeResult,
  meleeCasualtyRolls,
  cavalryVsScreen,
  defenceChangeCheck,
  loserCheck,
  meleeValueMods,
  meleeWinner,
  severalChargersMelee,
  chargerCheck,
  defenceActionAvailable,
  counterChargeCheck,
  enfiladeBonuses,
  type ChargeTarget,
  mayCharge,
  outOfControlCheck,
  meleeInput,
  resolveCavalryCharge,
  resolveCloseAction,
} from './close.ts';
import {
  type CommandLeader,
  type CommandUnit,
  type MoraleInput,
  type MoraleResult,
  moraleDist,
  outOfCommandMoveAllowed,
  outOfCommandUnits,
  initiativeDist,
  initiativeRollsDue,
  canForceMarch,
  type RetreatInput,
  retreatAllowed,
  retreatPlacement,
  supported,
  recoveredFormation,
  recoveryDist,
  rest,
  isSurrounded,
  type SurroundEnemy,
  type ThresholdInput,
  type ThresholdUnit,
  thresholdDist,
  thresholdRollDue,
  inGeneralVicinity,
} from './morale.ts';
// [p.10] grand batteries (A-56)
import {
  formingPoint,
  leavesGrandBattery,
  mayAppointGrandBattery,
  mayJoinGrandBattery,
  staffOfficerFor,
} from './morale.ts';
import {
  arcOf,
  bandOf,
  type ChargeContact,
  chargeContacts,
  rideDown as shapeRideDown,
  commandDistance,
  centreOf,
  enfiladeOf,
  fireTargets,
  inCounterChargeZone,
  type NeTable,
  onRoad,
  terrainUnder,
  unitLevel,
  groundLevel,
  pathOnRoad,
  solidShotRange,
  coverFrom,
  footprint,
  frontEdge,
  type MoveAsk,
  type MoveEnd,
  type MoveKind,
  type PushedScreen,
  screenPushes,
  canSee,
  layout,
  mandatoryTargets,
  moveMenu,
  pivot,
  reform,
  type Placement,
  type TableUnit,
  unitDistance,
} from './shape.ts';
import {
  type AmmoLevel,
  artilleryFieldMove,
  BUILDINGS,
  ARTILLERY_MOVE,
  CAVALRY_CHARGE,
  cavalryReaction,
  type FacingFormation,
  FATIGUE_INCREASE,
  type FatigueLevel,
  FORMATION_CHANGE,
  fatigueAfter,
  FIRING,
  INITIATIVE,
  leaderLossMaxRoll,
  meleeValue,
  bounce,
  facingChangeCost,
  artilleryMoveRow,
  CAVALRY_MOVE,
  INFANTRY_MOVE,
  OTHER_MOVES,
  parseRating,
  refusedFlankFigures,
  SCALE,
} from './tables.ts';
import type { BlockState, Compass, Formation, Side } from './types.ts';
// the optional caissons [p.11], fires [p.20] and written orders [p.17-18]
import { downwindBlock, extinguishCrewsDist, fireGrowthDist, fireStartDistOf, soldierStartRolls } from './buildings.ts';
import {
  divisionCommitted,
  MISREAD_MEANING,
  misreadDist,
  misreadManoeuvreObjectiveOk,
  type OrderChangeInput,
  orderChangeModifiers,
  orderDelayDist,
  type ReceivedOrder,
} from './morale.ts';
import {
  ARTILLERY,
  FIRE_START,
  FIRES,
  type FireSource,
  ORDER_CHANGE_DISTANCES,
  ORDER_DISTANCES,
  type Order,
} from './tables.ts';

export type Action = string;

/** A-23: the activation ratio, side A's units per step against side D's (2:1 by default, or 3:2, 4:2, 5:3 [p.4]). */
export interface Ratio {
  readonly a: number;
  readonly d: number;
}

export type Frame =
  /** [p.4 step 2] both sides bid in secret. */
  | { readonly t: 'bid' }
  /** [p.5] equal bids: each side rolls a D6, re-rolled while equal. */
  | { readonly t: 'tiebreak' }
  /** [p.5] the higher bidder chooses to be side A or side D. */
  | { readonly t: 'chooseAD'; readonly p: Side }
  /** [p.4 steps 3 and 5] the side picks its next unit to activate (side A may declare "finished", A-23). */
  | { readonly t: 'pick'; readonly p: Side; readonly left: number; readonly start: boolean }
  /** One unit's activation: a sequence of primitives until END (A-24). */
  /** One unit's activation: a sequence of primitives until END (A-24); `plan`: the rest of a chosen plan (§8.4). */
  | { readonly t: 'act'; readonly unit: string; readonly plan?: readonly PlanStep[] }
  /** [p.13] step 2 of a close action: the defender's morale check (one for all its chargers, `group`, A-65). */
  | { readonly t: 'closeCheck'; readonly close: number; readonly group?: readonly number[] }
  /** [p.13-14 steps 3-4] the defender's defence action, if it kept one: fire, face the charge, change formation (A-58). */
  | { readonly t: 'defence'; readonly close: number; readonly group?: readonly number[] }
  /** [p.13-14 step 4] a defence facing or formation change's morale check (A-58: failure disorders, no change). */
  | { readonly t: 'defenceChange'; readonly close: number; readonly change: string; readonly group: readonly number[] }
  /** [p.13] A-65: one defender's close actions, in the order of its first contact. */
  | { readonly t: 'closeGroup'; readonly closes: readonly number[] }
  /** [p.14-15] cavalry charging infantry or artillery: steps 5-8 with the ride-down (`from`: step 2's result). */
  | { readonly t: 'rideDown'; readonly close: number; readonly from?: 'stood' | 'failed' }
  /**
   * [p.13-14] steps 5-9 of a close action, one charger against one defender (A-33: `refight` after a tie; `closed`:
   * its step 5 check already passed, A-65).
   */
  | { readonly t: 'closeFight'; readonly close: number; readonly refight: boolean; readonly closed?: boolean }
  /** [p.13 step 5] A-65: one of several chargers checks morale to close. */
  | {
      readonly t: 'multiClose';
      readonly closes: readonly number[];
      readonly k: number;
      readonly closed: readonly number[];
    }
  /** [p.13 step 6] A-65: the melee of several chargers and their defender (one defender die, or one per charger). */
  | { readonly t: 'multiMelee'; readonly closes: readonly number[] }
  /** [p.13 step 7] A-65: one pairing's casualty dice, each way. */
  | { readonly t: 'multiCasualty'; readonly close: number; readonly result: MeleeResult }
  /** [p.13 steps 8-9] A-65: the losers' checks, fatigue once. */
  | { readonly t: 'multiLosers'; readonly closes: readonly number[]; readonly results: readonly MeleeResult[] }
  /** [p.13 step 8] a loser's morale check (+2 for a charger): rout or retreat. */
  | { readonly t: 'closeLoser'; readonly close: number; readonly who: 'charger' | 'defender' }
  /** [p.19] A-61: cavalry charging a skirmish screen: its step 5 check, the figures in its frontage, the rest's check. */
  | { readonly t: 'screenCharge'; readonly close: number }
  /** [p.11] a threshold roll at the start of a game turn: the army's, then (if it passed) a division's. */
  | { readonly t: 'threshold'; readonly side: Side; readonly division: string | null; readonly influence?: number }
  /** [p.11] note 1: the army's or division's leader, in the general vicinity (A-70), adds up to +6 at a D10 risk. */
  | { readonly t: 'thresholdInfluence'; readonly side: Side; readonly division: string | null }
  /** [p.4 step 10] a marked unit's morale check (A-34: in marking order). */
  | { readonly t: 'morale'; readonly unit: string }
  /** [p.12] a unit entering retreat status rolls its reform D6: the recovery actions it owes (after `inches`). */
  | {
      readonly t: 'reformRoll';
      readonly unit: string;
      readonly inches: number;
      /** [p.12] A-57 a battery that limbered before it retreated (+1 recovery action). */
      readonly limber?: boolean;
    }
  /** [p.12] its owner chooses the recovery area: where it stands, or straight back toward its home edge (A-67). */
  | { readonly t: 'retreatTo'; readonly unit: string }
  /** [p.15] A-64: an enemy moved or charged into a cavalry unit's counter-charge zone: its owner may counter-charge. */
  | { readonly t: 'counter'; readonly cavalry: string; readonly mover: string }
  /** [p.15] the counter-charge check: the raw morale rating, no modifiers. */
  | { readonly t: 'counterCheck'; readonly cavalry: string; readonly mover: string }
  /** [p.16] a leader with a unit that took casualties: D10, lost on `upTo` or less. */
  | { readonly t: 'leaderLoss'; readonly leader: string; readonly upTo: number }
  /** [p.4 step 8] a leader moves up to 20" (A-21): joins a unit, leaves his unit, or stays (A-22: side A's first). */
  | { readonly t: 'leader'; readonly id: string }
  /** [p.10] A-56 step 8: the staff officer holding an appointed grand battery commander's old command moves. */
  | { readonly t: 'staffOfficer'; readonly leader: string }
  /** [p.10] A-56 step 1: an unlimbered battery within a grand battery officer's radius: its owner declares it or not. */
  | { readonly t: 'grandBattery'; readonly unit: string; readonly officer: string }
  /** [p.10] A-56 step 1: the grand battery declarations are made: the initiative rolls, the command marking, the bids. */
  | { readonly t: 'grandBatteryDone' }
  /** [p.4 step 9] the close actions, after the leaders. */
  | { readonly t: 'step9' }
  /** [p.4 step 9] A-73: the building fights, after the ordinary close actions. */
  | { readonly t: 'blocks' }
  /** [p.13 steps 3-4] A-74: a charged block's defence action, one fire-out roll at its charger. */
  | { readonly t: 'blockDefence'; readonly i: number }
  /** [p.13 step 5] A-73: the charger of a block checks morale (no step 2 check for the defenders). */
  | { readonly t: 'blockCheck'; readonly i: number }
  /** [p.19] step 9: a side declares its attacks from blocks and its fire-outs, one at a time (R10). */
  | { readonly t: 'blockDeclare'; readonly p: Side }
  /** A-73: the declared block fights in order, side A's first. */
  | { readonly t: 'blockFights' }
  /** [p.19] one block fight: a D6 each. */
  | { readonly t: 'blockFight'; readonly i: number }
  /** [p.19] the winning attackers may advance into the block (R8). */
  | { readonly t: 'blockAdvance'; readonly i: number; readonly o: BlockFightOutcome }
  /** [p.4 step 10] after the close actions: the marked units' checks, then the period's end. */
  | { readonly t: 'step10' }
  /** [p.4 step 10] the next marked unit's check. */
  | { readonly t: 'nextMorale' }
  /** [p.4 steps 11-12] the period's end: markers off, the next period, turn or the end (`done`: step 12's optional rules). */
  | { readonly t: 'endPeriod'; readonly done?: boolean }
  /** [p.8-9] the dice of a fire action (two actions at one target: one resolution, figures doubled). */
  | {
      readonly t: 'fire';
      readonly firer: string;
      readonly shot: SmallArmsShot | CanisterShot | SolidShot | BuildingFireOutShot;
      /** [p.24] optional: the units at risk only on the ball's second bounce (A-52). */
      readonly secondBounce?: readonly string[];
    }
  /** [p.17] optional: a leader outside his superior's command distance rolls D20 ≤ his initiative number. */
  | { readonly t: 'initiative'; readonly leader: string; readonly initiative: number }
  /** [p.4 step 1] after any initiative rolls: units out of command are marked, then the bids of step 2. */
  | { readonly t: 'command' }
  /** [p.15] optional: a leader is with the winning cavalry: his owner adds −1 or +1 to its out-of-control roll. */
  | { readonly t: 'oocLeader'; readonly unit: string; readonly win: CavalryWin }
  /** [p.15] optional: the winning cavalry's D20; a modified 20 or more and it is out of control next period. */
  | { readonly t: 'oocRoll'; readonly unit: string; readonly win: CavalryWin; readonly leader: -1 | 0 | 1 }
  /** [p.15] A-20 step 2b: out-of-control cavalry charges the closest enemy in sight within 16", or regains control. */
  | { readonly t: 'runaway'; readonly unit: string }
  /** [p.15] A-20 step 2b: its owner picks among enemies equally close (within 0.25", as A-40). */
  | { readonly t: 'runawayTarget'; readonly unit: string }
  /** [p.11] optional caissons: a caisson's move in step 8 (a reading: with the leaders). */
  | { readonly t: 'caisson'; readonly id: string }
  /** [p.20] optional fires, A-19 step 12 (c): a side sets figures to put out or start fires. */
  | { readonly t: 'crews'; readonly p: Side }
  /** [p.10] A-51: a battery's crew without its guns moves in step 8 (runs for cover, returns, re-mans, spikes). */
  | { readonly t: 'artCrew'; readonly id: string }
  /** [p.10, p.13] A-51: a crew charges the enemy unit on its guns to retake them: an infantry close action, its MV. */
  | { readonly t: 'crewCharge'; readonly id: string; readonly target: string }
  /** [p.20] the next stage of step 12 (c): putting out, then accumulating and spreading, then soldiers' fires. */
  | { readonly t: 'fires'; readonly stage: 'extinguish' | 'burn' | 'ignite' }
  /** [p.20] the D20s putting out a block's fires. */
  | { readonly t: 'extinguish'; readonly block: string }
  /** [p.20] a burning block's D20: accumulating, spreading. */
  | { readonly t: 'burn'; readonly block: string }
  /**
   * [p.20] the D20s to start a fire in a block: a battery's howitzer shells (incendiary shells), a rocket battery's
   * launchers (A-75), or figures in it (sappers, soldiers); `sapperRolls`: sappers' dice rolled with soldiers' ones.
   */
  | {
      readonly t: 'ignite';
      readonly block: string;
      readonly source: FireSource;
      readonly rolls: number;
      readonly sapperRolls?: number;
    }
  /** [p.17] option #2, A-19 step 0: each side writes its divisions' orders (sealed), at the start or as changes. */
  | { readonly t: 'orders'; readonly first: boolean }
  /** [p.17] the D6 (with modifiers) of the periods a changed order takes. */
  | { readonly t: 'orderDelay'; readonly division: string; readonly order: DivisionOrder }
  /** [p.17] a changed order arrives. */
  | { readonly t: 'orderArrives'; readonly division: string; readonly order: DivisionOrder }
  /** [p.18] optional misreads: the D20, then the table's D6. */
  | { readonly t: 'misread'; readonly division: string; readonly order: DivisionOrder }
  /** [p.18] a misread M: its objective. */
  | { readonly t: 'misreadObjective'; readonly division: string }
  /** A-19: step 0 (orders) is done: the period's step 1. */
  | { readonly t: 'periodStart' };

/** [p.15] what a cavalry unit's win gives its out-of-control roll. */
export interface CavalryWin {
  /** The charge was made by out-of-control cavalry (+1). */
  readonly byOutOfControl: boolean;
  /** The enemy unit was ridden down (+1). */
  readonly riddenDown: boolean;
  /** The defending unit was completely destroyed (+1). */
  readonly destroyed: boolean;
}

export interface SeqUnit {
  readonly id: string;
  readonly side: Side;
  /** §3.1 the centre of the front edge (1/100") and the facing (degrees). */
  readonly x: number;
  readonly y: number;
  readonly facing: number;
  readonly formation: Formation;
  /** Figures; a battery's guns. */
  readonly figures: number;
  /** A-24: half-actions spent this period (budget 4). */
  readonly halves: number;
  /** [p.6] disordered (passing through friends, §6.3.10). */
  readonly disordered: boolean;
  /** Figures at the start (casualty modifiers [p.12], thresholds [p.11]). */
  readonly originalFigures: number;
  /** [p.11] marked for a morale check at step 10, with the mark's order (A-34; 0: not marked). */
  readonly marked: number;
  /** [p.12] what being fired on this period adds to its check (flank fire, 12lb guns, artillery on artillery). */
  readonly reasons: readonly MoraleReason[];
  /** [p.12] in retreat status (its retreat move and recovery are not built yet: it only ends its activations). */
  readonly retreating: boolean;
  /** [p.10, p.14] a battery's guns lost (abandoned or ridden down): scored as guns lost (A-79), not a unit lost. */
  readonly gunsLost: boolean;
  /** [p.11] a battery's ammunition: 0 normal … 3 out. */
  readonly ammo: AmmoLevel;
  /** [p.5] fatigue: 0 normal, 1 fatigued, 2 tired, 3 exhausted (A-5). */
  readonly fatigue: FatigueLevel;
  /** [p.4 step 1, p.16] out of command this period (the brown marker). */
  readonly ooc: boolean;
  /** [p.12] in retreat status: the recovery actions still owed. */
  readonly recovery: number;
  /** [p.12] ridden down by cavalry (the reform roll's +1). */
  readonly riddenDown: boolean;
  /** [p.6] force-marched this period: two more half-actions, for movement only (A-24). */
  readonly forceMarch: boolean;
  /** [p.5] activated this period (the blue "moved" marker). */
  readonly activated: boolean;
  /** [p.5] a stand marker: one action kept for defence. */
  readonly stand: boolean;
  /** Routed, surrendered or eliminated units are not eligible (A-23). */
  readonly status: 'active' | 'routed' | 'surrendered' | 'eliminated';
  /** Locked in a close action: counts as activated (A-23, [p.5]). */
  readonly locked: boolean;
  /** [p.15] optional: out of control after winning a close action; it charges at the next period's step 2b (A-20). */
  readonly outOfControl: boolean;
  /** [p.19] figures per building block (empty: in the open); figures minus their sum are outside the town (R2). */
  readonly inBlocks: Readonly<Record<string, number>>;
  /** [p.24] optional: an infantry line formed as a supported line (two rows; only the front one fires). */
  readonly supported?: boolean;
  /** [p.5] optional table flanks: the flank it stood in at the start of the period (it activates there). */
  readonly flank?: number;
  /** [p.20] optional smoke: the actions it has fired in this period's activation (smoke at two, A-78). */
  readonly fired?: number;
  /** [p.14] changed facing or formation in this period's activation (a cavalry charge's reaction distance +10"). */
  readonly changed?: boolean;
  /** [p.10] A-50 a battery's crew hits: it moves and fires with all its guns until they neutralise it. */
  readonly hits?: number;
  /** [p.10] massed artillery: unlimbered two stands deep, a limbered target for enemy fire. */
  readonly massed?: boolean;
  /** [p.7] a line with one flank refused (up to ¼ of its figures rolled back 90°). */
  readonly refused?: 'left' | 'right';
}

/** [p.20] optional smoke (A-78): a 2"-deep rectangle in front of the firer, as wide as its frontage. */
export interface SmokeCloud {
  /** The unit that made it. */
  readonly by: string;
  readonly poly: Polygon;
  /** Removed at the end of this period (counted from the game's first, 1-based): the one after it was made. */
  readonly until: number;
}

/** A charge that reached its target (§6.6.2): resolved at step 9. */
export interface CloseContact {
  readonly charger: string;
  readonly defender: string;
  /** Cavalry on infantry or artillery (the ride-down procedure [p.14]), or the melee of p.13. */
  readonly rideDown: boolean;
  /** [p.14] full engagement (else the charger's −10 for partial contact). */
  readonly full: boolean;
  /** A-11 the arc of the defender the charge came into. */
  readonly arc: 'front' | 'flankSide' | 'flankRear';
  /** The charger's front-centre when it began its charge (A-11, the ride-down arc [p.14-15]). */
  readonly start: { readonly x: number; readonly y: number };
  /** A-59 figures in contact on each side. */
  readonly chargerInContact: number;
  readonly defenderInContact: number;
  /** [p.15] the charge of out-of-control cavalry: +3 to close, +1 on its own out-of-control roll if it wins. */
  readonly outOfControl?: boolean;
  /** [p.14] A-63 the side of the defender struck (chargers on the same face as the first frontal one combine). */
  readonly face?: string;
  /** [p.14] the charge's straight distance (inches): the cavalry's reaction distance, +10" if it changed first. */
  readonly distance?: number;
  /** [p.14] cavalry that changed facing or formation earlier in its activation (+10" to the reaction distance). */
  readonly changedFirst?: boolean;
  /** [p.13 step 4] the charger used both its actions before contact (the charge was its second action): +2. */
  readonly usedBoth?: boolean;
  /** [p.15] A-64: the cavalry charged met its charger with a counter-charge (no step 2, no defence action). */
  readonly counter?: boolean;
  /** [p.14-15] the defender faced the charge as its defence action (A-58: the charge counts as frontal). */
  readonly faced?: boolean;
  /** [p.19] A-61: cavalry charging a skirmish screen. */
  readonly screen?: boolean;
  /** In retreat status at contact (A-65: a unit that retreats or routs in an earlier close action is gone from it). */
  readonly chargerWasRetreating?: boolean;
  readonly defenderWasRetreating?: boolean;
  /**
   * [p.14] A-33: a tie of equal melee values, fought again first in the next period's step 9 (no step 2 check, no
   * defence action, no closing check); both stay in contact, locked, until then.
   */
  readonly refight?: boolean;
}

export interface SeqLeader {
  readonly id: string;
  readonly side: Side;
  /** [p.16] lost: a staff officer stands in his place (no bonuses, same radius). */
  readonly lost: boolean;
  /** His position (1/100") when not attached. */
  readonly x: number;
  readonly y: number;
  readonly attached: string | null;
}

export interface SeqState extends ProcedureState<Frame> {
  /** The scenario (shared by every state of a game; not hashed). */
  readonly sc: Scenario;
  readonly scenarioId: string;
  readonly turns: number;
  readonly turn: number;
  /** 1..6 [p.4]; 0 before the first period of a turn. */
  readonly period: number;
  /** [p.5] turn points each game turn, and what is left of them this turn. */
  readonly perTurn: readonly [number, number];
  readonly points: readonly [number, number];
  /** The bids of the last reveal (public once revealed). */
  readonly bids: readonly [number, number] | null;
  readonly sideA: Side | null;
  readonly ratio: Ratio;
  /** Units side A has activated this period, and whether it declared "finished" (A-23). */
  readonly aActivated: number;
  /** The side whose step was the last one taken this period (null before the first). */
  readonly lastStep: Side | null;
  readonly aFinished: boolean;
  readonly units: readonly SeqUnit[];
  /** [p.16] the leaders: where they stand, and the unit each is attached to. */
  readonly leaders: readonly SeqLeader[];
  /** [p.4 step 9] this period's close actions, in the order the contacts happened. */
  readonly closes: readonly CloseContact[];
  /** [p.11] failed thresholds this game turn: each army's, and the divisions (leader ids) whose units take −4. */
  readonly armyFailed: readonly [boolean, boolean];
  readonly divisionsFailed: readonly string[];
  /** A-79 sudden death: the side whose army failed its threshold concedes. */
  readonly conceded: Side | 'both' | null;
  /** [p.17] optional: the leaders whose initiative roll put them in command this period. */
  readonly initiativePassed: readonly string[];
  /** A-79: who holds each scenario objective (by id; -1 nobody yet), checked at the end of every period. */
  readonly held: Readonly<Record<string, Side | -1>>;
  /** [p.19] A-74: the blocks that fired out this period (once a period). */
  readonly firedOut: readonly string[];
  /** [p.19] A-73: this period's attacks on blocks, fought at step 9 after the ordinary close actions. */
  readonly blockAttacks: readonly PendingBlockAttack[];
  /**
   * [p.5] optional table flanks: each flank's own turn points, bids and sides A and D (the top-level `points`, `bids`,
   * `sideA`, `aActivated`, `aFinished` and `lastStep` are the flank `flank`'s while it plays); `flankOrder` the order
   * the flanks take their steps this period, the highest bid first.
   */
  readonly flanks?: readonly FlankState[];
  readonly flank?: number;
  readonly flankOrder?: readonly number[];
  /** [p.20] optional weather (A-76): periods of rain so far, a heavy one counting 2; mud at 18. */
  readonly rain?: number;
  /** [p.20] optional smoke on the table (A-78). */
  readonly smoke?: readonly SmokeCloud[];
  /** [p.11] optional caissons. */
  readonly caissons?: readonly SeqCaisson[];
  /** [p.20] optional fires (A-75): the fires burning in each block, once they change (by block id). */
  readonly blockFires?: Readonly<Record<string, number>>;
  /** [p.20] this period's fire crews (A-19 step 12 (c)). */
  readonly crews?: readonly FireCrew[];
  /** [p.10] A-51: guns left on the table by their crews (abandoned, neutralised or lost in a close action). */
  readonly abandoned?: readonly AbandonedGuns[];
  /** [p.10] A-51: batteries' crews without their guns (pieces moved in step 8, a reading). */
  readonly artCrews?: readonly ArtilleryCrew[];
  /** [p.17] option #2: each division's order in force (by its leader's id), and the changes on their way. */
  readonly orders?: Readonly<Record<string, DivisionOrder>>;
  readonly pendingOrders?: readonly PendingOrder[];
  /** A-19 step 0: the period (from the game's first) whose orders step was taken. */
  readonly ordersAt?: number;
  /** [p.10] A-56: the leaders appointed grand battery commanders in play, with their staff officers' places. */
  readonly appointed?: readonly Appointment[];
  /** [p.10] A-56: the batteries declared members of a grand battery, each with its officer (by battery id). */
  readonly gbMembers?: Readonly<Record<string, string>>;
  readonly over: boolean;
}

/** [p.5] optional table flanks: one flank's turn points and this period's bids and sides. */
export interface FlankState {
  readonly points: readonly [number, number];
  readonly bids: readonly [number, number] | null;
  readonly sideA: Side | null;
  readonly aActivated: number;
  readonly aFinished: boolean;
  readonly lastStep: Side | null;
}

/** A side by its scenario name (the players are the scenario's sides in order: "first", "second"). */
const nameOf = (s: SeqState, p: number) => s.sc.sides[p]?.name ?? (p === 0 ? 'the first side' : 'the second side');
const sideName = (s: SeqState, p: Side) =>
  s.sideA === null ? nameOf(s, p) : `${nameOf(s, p)} (side ${p === s.sideA ? 'A' : 'D'})`;
const bidOf = (a: Action) => Number(a.slice(4));

/** [p.5] with table flanks, a unit plays in the flank it stood in at the start of the period (the digest's reading). */
const inFlank = (s: SeqState, u: SeqUnit) => s.flanks === undefined || u.flank === s.flank;
/** A-23: units that may still activate this period (with table flanks, in the flank playing [p.5]). */
export const eligible = (s: SeqState, p: Side): SeqUnit[] =>
  s.units.filter((u) => u.side === p && u.status === 'active' && !u.activated && !u.locked && inFlank(s, u));
/** A-23: side A's units that count for the half rule (on the table, not routed, surrendered or eliminated). */
const counted = (s: SeqState, p: Side) =>
  s.units.filter((u) => u.side === p && u.status === 'active' && inFlank(s, u)).length;

const updUnit = (s: SeqState, id: string, patch: Partial<SeqUnit>): SeqState => ({
  ...s,
  units: s.units.map((u) => (u.id === id ? { ...u, ...patch } : u)),
});

/** The next activation step: side A's `ratio.a` units, then side D's `ratio.d`, until side A is done (steps 3-7). */
function nextStep(s: SeqState, justActed: Side | null, log: Log): SeqState {
  if (s.flanks) return nextFlankStep(s, justActed, log);
  const a = s.sideA!;
  const d = (1 - a) as Side;
  const aLeft = eligible(s, a).length;
  if (s.aFinished || aLeft === 0) {
    // [p.4 step 7] side A is done: side D's unactivated units do not act this period
    return closePeriod(s, log);
  }
  if (justActed === a && eligible(s, d).length > 0)
    return push(s, { t: 'pick', p: d, left: Math.min(s.ratio.d, eligible(s, d).length), start: true });
  return push(s, { t: 'pick', p: a, left: Math.min(s.ratio.a, aLeft), start: true });
}

// ---------------------------------------------------------------------------------------------------------------------
// [p.5] Table flanks (optional rule tableFlanks)
// ---------------------------------------------------------------------------------------------------------------------

/** [p.5] "divide the game table into halves": split across the sides' home edges (a reading: halves, never thirds). */
function flankNames(sc: Scenario): readonly [string, string] {
  const e = sc.sides[0].homeEdge;
  return e === 'north' || e === 'south' ? ['west flank', 'east flank'] : ['south flank', 'north flank'];
}

/** [p.5] the flank a unit stands in: the half of the table holding its centre (the digest's reading). */
function flankOf(s: SeqState, u: SeqUnit): number {
  const c = centreOf(tableUnit(s, u));
  const e = s.sc.sides[0].homeEdge;
  const t = tableOf(s.sc);
  return e === 'north' || e === 'south' ? (c.x < t.width / 2 ? 0 : 1) : c.y < t.height / 2 ? 0 : 1;
}

/** [p.5] ", on the west flank" while a flank plays, else nothing. */
const flankText = (s: SeqState) => (s.flanks ? ` on the ${flankNames(s.sc)[s.flank!]}` : '');

const flankFields = (s: SeqState | FlankState): FlankState => ({
  points: s.points,
  bids: s.bids,
  sideA: s.sideA,
  aActivated: s.aActivated,
  aFinished: s.aFinished,
  lastStep: s.lastStep,
});

/** [p.5] the flank playing is put away and flank `k` takes the table's turn-point fields. */
function switchFlank(s: SeqState, k: number): SeqState {
  const flanks = s.flanks!.map((f, i) => (i === s.flank ? flankFields(s) : f));
  return { ...s, flanks, ...flankFields(flanks[k]!), flank: k };
}

/**
 * [p.5] the start of a period with table flanks: each unit plays in the flank it stands in now; every flank's bids
 * and sides are cleared (its turn points kept), and the first flank bids.
 */
function startFlanks(s: SeqState, log: Log): SeqState {
  const names = flankNames(s.sc);
  const units = s.units.map((u) => {
    const flank = flankOf(s, u);
    return u.flank === flank ? u : { ...u, flank };
  });
  const t0 = switchFlank({ ...s, units }, s.flank ?? 0);
  const flanks = t0.flanks!.map((f) => ({
    ...f,
    bids: null,
    sideA: null,
    aActivated: 0,
    aFinished: false,
    lastStep: null,
  }));
  const t = { ...t0, flanks, flank: 0, ...flankFields(flanks[0]!) };
  log?.push({
    rule: 'p.5',
    text: `table flanks: the ${names[0]} bids first, then the ${names[1]}, each with its own turn points`,
  });
  return t;
}

/**
 * [p.5] a flank's bids are decided: the next flank bids, or, all done, the flanks take their steps in turn, the one
 * with the highest bid first ("the flank with the highest turn points bid has choice which unit moves first"), and the
 * out-of-control cavalry of step 2b (A-20) moves before all of them.
 */
function flankBidDone(s: SeqState, log: Log): SeqState {
  const k = s.flank!;
  if (k + 1 < s.flanks!.length) {
    log?.push({ rule: 'p.5', text: `the ${flankNames(s.sc)[k + 1]} bids` });
    return push(switchFlank(s, k + 1), { t: 'bid' });
  }
  const saved = switchFlank(s, k);
  const high = (f: FlankState) => Math.max(...(f.bids ?? [0, 0]));
  const order = saved
    .flanks!.map((_, i) => i)
    .sort((a, b) => high(saved.flanks![b]!) - high(saved.flanks![a]!) || a - b);
  const names = flankNames(s.sc);
  log?.push({
    rule: 'p.5',
    text: `the flanks take their steps in turn, the highest bid first: ${order.map((i) => names[i]).join(', then ')}`,
  });
  return step2b({ ...switchFlank(saved, order[0]!), flankOrder: order }, log);
}

/**
 * [p.5] steps 3-7 with table flanks: after a step of one flank, the next flank in turn that is not done takes its
 * step (each flank by its own side A and side D, the A/D ratio and A-23's "finished"); when every flank is done the
 * period goes on to step 8, side A of the highest-bidding flank first.
 */
function nextFlankStep(s: SeqState, justActed: Side | null, log: Log): SeqState {
  const order = s.flankOrder!;
  const at = order.indexOf(s.flank!);
  for (let i = justActed === null ? 0 : 1; i <= order.length; i++) {
    const t = switchFlank(s, order[(at + i) % order.length]!);
    if (t.sideA === null || t.aFinished || eligible(t, t.sideA).length === 0) continue;
    return nextStepOf(t, t.lastStep);
  }
  log?.push({ rule: 'p.5', text: 'every flank is done: the period goes on' });
  return closePeriod(switchFlank(s, order[0]!), log);
}

/** The next step of the flank playing (as `nextStep` without flanks; it is not done). */
function nextStepOf(s: SeqState, justActed: Side | null): SeqState {
  const a = s.sideA!;
  const d = (1 - a) as Side;
  if (justActed === a && eligible(s, d).length > 0)
    return push(s, { t: 'pick', p: d, left: Math.min(s.ratio.d, eligible(s, d).length), start: true });
  return push(s, { t: 'pick', p: a, left: Math.min(s.ratio.a, eligible(s, a).length), start: true });
}

/**
 * [p.4 steps 8-12] leaders (not built yet: none move), close actions (charges are not built yet: none), the morale
 * checks of marked units in marking order (A-34), then markers off and the next period.
 */
function closePeriod(s0: SeqState, log: Log): SeqState {
  // step 8: the leaders move, side A's first (A-22)
  const a = s0.sideA ?? 0;
  const order = [...s0.leaders.filter((l) => l.side === a), ...s0.leaders.filter((l) => l.side !== a)];
  if (order.length) log?.push({ rule: 'p.4 step 8', text: "the leaders move, side A's first (A-22)" });
  // [p.11] optional caissons move after the leaders (a reading)
  return push(
    s0,
    { t: 'step9' },
    // [p.10] A-51 the crews without their guns after the caissons (a reading)
    ...crewFrames(s0),
    ...caissonFrames(s0),
    // [p.10] A-56: a staff officer in an appointed grand battery commander's old post moves after him
    ...order
      .flatMap((l): Frame[] =>
        appointmentOf(s0, l.id)
          ? [
              { t: 'leader', id: l.id },
              { t: 'staffOfficer', leader: l.id },
            ]
          : [{ t: 'leader', id: l.id }],
      )
      .reverse(),
  );
}

/** [p.4 step 9] the close actions in the order the contacts happened, then step 10. */
function step9(s0: SeqState, log: Log): SeqState {
  if (s0.closes.length) {
    log?.push({
      rule: 'p.4 step 9',
      text: `close actions: ${s0.closes.map((c) => `${c.charger} on ${c.defender}`).join(', ')}`,
    });
    return push(s0, { t: 'blocks' }, ...closeGroups(s0).reverse());
  }
  return blockStep(s0, log);
}

/**
 * [p.13] "resolve the close actions in the order which they occurred": one defender's chargers together (A-65: one
 * step 2 check, one defence action, one melee), at the place of its first contact; a counter-charge met head on
 * (A-64) stands alone.
 */
function closeGroups(s: SeqState): Frame[] {
  const groups: number[][] = [];
  const byDefender = new Map<string, number[]>();
  s.closes.forEach((c, i) => {
    const g = byDefender.get(c.defender);
    if (c.refight) groups.push([i]);
    else if (g && !c.counter) g.push(i);
    else {
      const n = [i];
      groups.push(n);
      if (!c.counter) byDefender.set(c.defender, n);
    }
  });
  return groups.map((closes) => ({ t: 'closeGroup' as const, closes }));
}

/**
 * [p.13] A-65 a close action cancelled: its defender (or charger) retreated, routed or is gone since the contact. The
 * charger stays where it is; cavalry still gains its fatigue level (C-2).
 */
function cancelClose(s: SeqState, c: CloseContact, log: Log): SeqState {
  log?.push({
    rule: 'p.13',
    text: `${c.charger} against ${c.defender}: cancelled, one side is gone from it (A-65)${specOf(s, c.charger).kind === 'cavalry' ? `; ${c.charger} +1 fatigue` : ''}`,
  });
  let t = updUnit(s, c.charger, { locked: false });
  const u = unitOf(t, c.charger);
  if (specOf(t, c.charger).kind === 'cavalry' && u.status === 'active')
    t = updUnit(t, c.charger, { fatigue: fatigueAfter(u.fatigue, 1) });
  return unitOf(t, c.defender).status === 'active' ? updUnit(t, c.defender, { locked: false }) : t;
}

/** [p.13] one defender's close actions: the live ones go on from step 2 (A-61: a screen, A-64: met head on, none). */
function closeGroup(s0: SeqState, closes: readonly number[], log: Log): SeqState {
  let s = s0;
  const live: number[] = [];
  for (const i of closes) {
    if (closeAlive(s, s.closes[i]!)) live.push(i);
    else s = cancelClose(s, s.closes[i]!, log);
  }
  if (!live.length) return s;
  const c = s.closes[live[0]!]!;
  // [p.14] A-33: a tie carried over from the last period is fought again, straight to the melee
  if (c.refight) return push(s, { t: 'closeFight', close: live[0]!, refight: true });
  // [p.15] A-64: the counter-charge check replaced the step 2 check, and there is no defence action
  if (c.counter) return push(s, { t: 'closeFight', close: live[0]!, refight: false });
  // [p.19] A-61: the screen takes no step 2 check; it may fire at the cavalry with a defence action
  if (c.screen) {
    const t = push(
      s,
      { t: 'screenCharge', close: live[0]! },
      ...live
        .slice(1)
        .map((i) => ({ t: 'closeGroup' as const, closes: [i] }))
        .reverse(),
    );
    return defenceOptions(t, live[0]!, [live[0]!]).length > 1 ? push(t, { t: 'defence', close: live[0]! }) : t;
  }
  return push(s, { t: 'closeCheck', close: live[0]!, group: live });
}

/** [p.13-14] after step 4: the ride-downs one by one and the melee chargers together (A-65), in contact order. */
function closeRest(s: SeqState, closes: readonly number[]): SeqState {
  const melee = closes.filter((i) => !s.closes[i]!.rideDown);
  const frames: Frame[] = [];
  let meleeDone = false;
  for (const i of closes) {
    if (s.closes[i]!.rideDown) frames.push({ t: 'rideDown', close: i, from: 'stood' });
    else if (!meleeDone) {
      meleeDone = true;
      frames.push(
        melee.length === 1
          ? { t: 'closeFight', close: i, refight: false }
          : { t: 'multiClose', closes: melee, k: 0, closed: [] },
      );
    }
  }
  return push(s, ...frames.reverse());
}

/** [p.4 step 10] the morale checks of marked units not in a close action this period, in marking order (A-34). */
function moraleStep(s0: SeqState, log: Log): SeqState {
  if (s0.units.some((u) => u.marked > 0 && u.status === 'active'))
    log?.push({ rule: 'p.4 step 10', text: 'the morale checks of marked units, in marking order (A-34)' });
  // one at a time: a rout marks its neighbours, who check in turn
  return push(s0, { t: 'endPeriod' }, { t: 'nextMorale' });
}

/** The next marked unit's check, if any (A-34: marking order). */
function nextMorale(s0: SeqState, log: Log): SeqState {
  // [p.19] infantry in buildings are exempt from morale checks: their marks come off unchecked
  let s = s0;
  const town = townOf(s0);
  for (const u of s0.units)
    if (u.marked > 0 && u.status === 'active' && inTown(u) && moraleExempt(town.units.find((x) => x.id === u.id)!)) {
      s = updUnit(s, u.id, { marked: 0 });
      log?.push({ rule: 'p.19', text: `${u.id} is in buildings: exempt from its morale check` });
    }
  const next = s.units.filter((u) => u.marked > 0 && u.status === 'active').sort((a, b) => a.marked - b.marked)[0];
  return next ? push(s, { t: 'nextMorale' }, { t: 'morale', unit: next.id }) : s;
}

/** [p.11-12] a unit routs: every friendly unit within 4" of it is marked for a morale check. */
function rout(s: SeqState, id: string, log: Log): SeqState {
  const u = unitOf(s, id);
  // A-43: a unit its casualties destroyed (below 2 figures) is gone: it does not rout (the soak found a ridden-down
  // unit of no figures routing from an undefined centre)
  if (u.status !== 'active') return s;
  const body = tableUnit(s, u);
  let t = routMove(updUnit(s, id, { marked: 0 }), id, log);
  const near = t.units.filter(
    (o) =>
      o.side === u.side &&
      o.id !== id &&
      o.status === 'active' &&
      !o.marked &&
      unitDistance(body, tableUnit(t, o)) <= 4 * IN,
  );
  for (const o of near) t = updUnit(t, o.id, { marked: Math.max(0, ...t.units.map((x) => x.marked)) + 1 });
  log?.push({
    rule: 'p.12',
    text: `${id} routs${near.length ? `: ${near.map((o) => o.id).join(', ')} within 4" must check morale` : ''}`,
  });
  return t;
}

/**
 * [p.12] A-69 the rout move, resolved at once: "routing units move until they leave the field … away from all known
 * enemy units (directly away if possible) and require a 3 inch gap". The way taken is the first open one of: directly
 * away from the nearest enemy, toward the home edge, then the 16 compass points nearest "directly away"; a way is a 3"
 * corridor from the unit's centre to the table edge that meets no enemy unit (skirmishers included) and leads away
 * from the nearest enemy (less than 90° off directly away). Friendly units in the corridor are disordered (1 action to
 * reform). A routing unit that is surrounded (A-35) surrenders. With no open way but not surrounded (the way out is
 * blocked farther off), it routs straight toward its home edge (a reading). It leaves the table: status routed.
 */
function routMove(s: SeqState, id: string, log: Log): SeqState {
  const u = unitOf(s, id);
  const body = tableUnit(s, u);
  const table = tableOf(s.sc);
  const enemies = s.units.filter((o) => o.side !== u.side && o.status === 'active').map((o) => tableUnit(s, o));
  const foes: SurroundEnemy[] = enemies.map((e) => ({
    body: e,
    ...(e.formation === 'skirmish' ? { skirmish: true } : {}),
    ...(unitOf(s, e.id).retreating ? { inRetreat: true } : {}),
  }));
  if (isSurrounded(table, body, foes)) {
    log?.push({ rule: 'p.12', text: `${id} routs but is surrounded (A-35): it surrenders` });
    return updUnit(s, id, { status: 'surrendered' });
  }
  const c = centreOf(body);
  const edge = s.sc.sides[u.side]!.homeEdge;
  const home = edge === 'south' ? 180 : edge === 'north' ? 0 : edge === 'east' ? 90 : 270;
  const nearest = [...enemies].sort((a, b) => unitDistance(body, a) - unitDistance(body, b))[0];
  const away = nearest ? headingTo(centreOf(nearest), c) : home;
  const off = (a: number, b: number) => Math.abs(((((a - b) % 360) + 540) % 360) - 180);
  const dirs = [
    away,
    home,
    ...Array.from({ length: 16 }, (_, k) => k * 22.5).sort((a, b) => off(a, away) - off(b, away)),
  ];
  const corridor = (dir: number) => {
    const v = headingVec(dir);
    const reach = Math.min(
      v.x > 1e-9 ? (table.width - c.x) / v.x : v.x < -1e-9 ? c.x / -v.x : Number.POSITIVE_INFINITY,
      v.y > 1e-9 ? (table.height - c.y) / v.y : v.y < -1e-9 ? c.y / -v.y : Number.POSITIVE_INFINITY,
    );
    const e = { x: c.x + v.x * reach, y: c.y + v.y * reach };
    const w = { x: v.y * 1.5 * IN, y: -v.x * 1.5 * IN };
    const poly: Polygon = [
      { x: c.x + w.x, y: c.y + w.y },
      { x: e.x + w.x, y: e.y + w.y },
      { x: e.x - w.x, y: e.y - w.y },
      { x: c.x - w.x, y: c.y - w.y },
    ];
    return { poly, end: e };
  };
  let way = dirs.find((d) => {
    if (nearest && off(d, away) >= 90) return false;
    const { poly } = corridor(d);
    return !enemies.some((e) => polygonsOverlap(poly, footprint(e)));
  });
  if (way === undefined) way = home;
  const { poly, end } = corridor(way);
  const through = s.units.filter(
    (o) =>
      o.side === u.side &&
      o.id !== id &&
      o.status === 'active' &&
      !o.disordered &&
      polygonsOverlap(poly, footprint(tableUnit(s, o))),
  );
  let t = updUnit(s, id, {
    status: 'routed',
    x: Math.round(end.x),
    y: Math.round(end.y),
    facing: Math.round(way) % 360,
  });
  for (const o of through) t = updUnit(t, o.id, { disordered: true });
  log?.push({
    rule: 'A-69',
    text: `${id} routs off the table (heading ${Math.round(way)}°)${through.length ? `, through ${through.map((o) => o.id).join(', ')}: disordered` : ''}`,
  });
  return t;
}

// ---------------------------------------------------------------------------------------------------------------------
// [p.20] Smoke (optional rule smoke)
// ---------------------------------------------------------------------------------------------------------------------

/** The period counted from the game's first (1-based). */
const periodIndex = (s: SeqState) => (s.turn - 1) * 6 + s.period;

/** [p.20] A-78 the smoke a unit makes: 2" deep straight in front of its front edge, as wide as it, for a period more. */
function smokeCloud(s: SeqState, id: string): SmokeCloud {
  const b = tableUnit(s, unitOf(s, id));
  const [l, r] = frontEdge(b);
  const f = (b.at.facing * Math.PI) / 180;
  const v = { x: Math.sin(f) * SMOKE_DEPTH * IN, y: Math.cos(f) * SMOKE_DEPTH * IN };
  return {
    by: id,
    poly: [l, r, { x: r.x + v.x, y: r.y + v.y }, { x: l.x + v.x, y: l.y + v.y }],
    until: periodIndex(s) + 1,
  };
}
const SMOKE_DEPTH = 2;

/**
 * [p.20] A-78 does the line of fire from the firer's front-centre to the target's closest point cross smoke (the
 * firer's own included, unless `own` is false)?
 */
function smokeBetween(s: SeqState, firer: TableUnit, target: TableUnit, own = true): boolean {
  if (!s.sc.options.smoke || !s.smoke?.length) return false;
  const from = { x: firer.at.x, y: firer.at.y };
  const to = nearestPoint(footprint(target), from);
  return s.smoke.some((c) => (own || c.by !== firer.id) && segmentCrossesPolygon(from, to, c.poly));
}

/**
 * A-16 with the option smokeBlocksLos: smoke is a level-one feature [p.8] that blocks the line of sight (a reading:
 * not the firer's own, which lies on every line it fires along); by default it never does [p.20].
 */
const smokeBlocks = (s: SeqState, firer: TableUnit, target: TableUnit) =>
  s.sc.options.smokeBlocksLos && smokeBetween(s, firer, target, false);

/** [p.20] optional smoke: whether the shot passes through smoke (fire.ts gives −2, or −1 on solid-shot hit dice). */
function smoked<T extends SmallArmsShot | CanisterShot | SolidShot>(s: SeqState, firer: string, shot: T): T {
  if (!s.sc.options.smoke) return shot;
  const target = shot.type === 'solidShot' ? shot.atRisk[0]?.id : shot.target.id;
  const tu = target === undefined ? undefined : s.units.find((u) => u.id === target);
  // [p.10] A-51 a crew fired at: its body
  const crew = target === undefined ? undefined : crewOfTarget(s, target);
  const tb = tu ? tableUnit(s, tu) : crew ? crewTargetBody(s, crew) : undefined;
  if (!tb) return shot;
  return smokeBetween(s, tableUnit(s, unitOf(s, firer)), tb) ? { ...shot, throughSmoke: true } : shot;
}

/** [p.20] smoke is "present for the next period, after which it is removed" (A-19 step 12d); fire counts restart. */
function smokeAtEnd(s: SeqState, log: Log): SeqState {
  if (!s.sc.options.smoke) return s;
  const now = periodIndex(s);
  const gone = (s.smoke ?? []).filter((c) => c.until <= now);
  if (gone.length) log?.push({ rule: 'p.20', text: `the smoke of ${gone.map((c) => c.by).join(', ')} clears` });
  return {
    ...s,
    smoke: (s.smoke ?? []).filter((c) => c.until > now),
    units: s.units.map((u) => (u.fired ? { ...u, fired: 0 } : u)),
  };
}

/** [p.20] optional weather: the mud counter (A-76) and rain over the whole table. */
const MUD_AT = 18;
const RAIN_PERIODS: Readonly<Record<string, number>> = { lightRain: 1, heavyRain: 2 };

/**
 * [p.20] optional weather at the period's end (A-19 step 12e): in hot temperatures a unit that used both actions this
 * period is a fatigue level more tired; rain counts toward mud, which "follows after 9 periods of heavy rain or 18
 * periods of light rain" (A-76: one counter, a heavy period counting 2, mud at 18).
 */
function weatherAtEnd(s: SeqState, log: Log): SeqState {
  if (!s.sc.options.weather) return s;
  let t = s;
  if (s.sc.weather === 'hot') {
    const tired = s.units.filter((u) => u.status === 'active' && u.halves >= BUDGET);
    for (const u of tired) t = updUnit(t, u.id, { fatigue: fatigueAfter(u.fatigue, 1) });
    if (tired.length)
      log?.push({
        rule: 'p.20',
        text: `hot temperatures: ${tired.map((u) => u.id).join(', ')} used both actions: fatigue +1`,
      });
  }
  const wet = RAIN_PERIODS[s.sc.weather] ?? 0;
  if (wet) {
    const rain = (s.rain ?? 0) + wet;
    if ((s.rain ?? 0) < MUD_AT && rain >= MUD_AT)
      log?.push({ rule: 'p.20', text: 'after so much rain the ground is mud: movement ½ over open ground (A-76)' });
    t = { ...t, rain };
  }
  return t;
}

const muddy = new WeakMap<Scenario, NeTable>();

/**
 * [p.20] the table a unit moves over: with mud from the rain, the whole table is muddy ground (½ for infantry, cavalry
 * and artillery; A-76: with other terrain the smaller multiplier; a road column on a road ignores it, A-14).
 */
function moveTable(s: SeqState): NeTable {
  const t = tableOf(s.sc);
  if (!s.sc.options.weather || (s.rain ?? 0) < MUD_AT) return t;
  let m = muddy.get(s.sc);
  if (!m) {
    const all = [
      { x: 0, y: 0 },
      { x: t.width, y: 0 },
      { x: t.width, y: t.height },
      { x: 0, y: t.height },
    ];
    m = { ...t, pieces: [...t.pieces, { type: 'mud', id: 'weather:mud', polygon: all }] };
    muddy.set(s.sc, m);
  }
  return m;
}

/** [p.20] optional weather: the scenario's weather goes with every shot (fire.ts applies it to small arms, A-42). */
function weathered<T extends SmallArmsShot | CanisterShot | SolidShot>(s: SeqState, shot: T): T {
  return s.sc.options.weather && s.sc.weather !== 'clear' ? { ...shot, weather: s.sc.weather } : shot;
}

/** [p.4 steps 11-12] markers off; the next period, turn, or the end of the game. */
function endPeriod(s00: SeqState, log: Log): SeqState {
  // [p.10] A-51 overruns and crews caught in the open, before the period's close actions are cleared
  const s0 = gunsAtEnd(smokeAtEnd(weatherAtEnd(s00, log), log), log);
  // [p.14] A-33 tied close actions go on into the next period's step 9, first, their units still in contact
  const refights = s0.closes.filter((c) => c.refight === true && closeAlive(s0, c));
  const inContact = new Set(refights.flatMap((c) => [c.charger, c.defender]));
  const s: SeqState = {
    ...s0,
    // [p.5 step 11] moved and stand markers come off
    units: s0.units.map((u) =>
      u.activated || u.stand || u.halves || u.locked || u.forceMarch || u.ooc || u.reasons.length
        ? {
            ...u,
            activated: false,
            stand: false,
            halves: 0,
            locked: inContact.has(u.id),
            forceMarch: false,
            ooc: false,
            reasons: [],
          }
        : u,
    ),
    closes: refights,
    firedOut: [],
    blockAttacks: [],
    aActivated: 0,
    aFinished: false,
    lastStep: null,
    sideA: null,
  };
  log?.push({ rule: 'p.4 step 11', text: `end of period ${s.period} of turn ${s.turn}: markers removed` });
  const t = holdObjectives(s, log);
  if (t.period < 6) return startPeriod({ ...t, period: t.period + 1 }, log);
  if (t.turn < t.turns) return startTurn({ ...t, turn: t.turn + 1 }, log);
  const v = victoryPoints(t);
  log?.push({ rule: 'A-79', text: `the game ends after turn ${t.turn}: ${resultOf(t, v)}` });
  return { ...t, over: true };
}

/**
 * [p.5] a new game turn: each side's turn points (unused ones from the last turn are lost); [p.11] then the threshold
 * rolls that are due, the army's first; the −4 of a failed one lasts the game turn.
 */
function startTurn(s0: SeqState, log: Log): SeqState {
  log?.push({
    rule: 'p.5',
    text: `turn ${s0.turn}: turn points ${s0.perTurn[0]} and ${s0.perTurn[1]} (last turn's unused points are lost)`,
  });
  const s: SeqState = {
    ...s0,
    points: s0.perTurn,
    period: 1,
    armyFailed: [false, false],
    divisionsFailed: [],
    // [p.5] table flanks: each flank has its own turn points
    ...(s0.flanks ? { flanks: s0.flanks.map((f) => ({ ...f, points: s0.perTurn })) } : {}),
  };
  const due = ([0, 1] as const).filter((side) =>
    thresholdRollDue(thresholdUnits(s, side, null), s.sc.options.thresholdFraction),
  );
  if (!due.length) return afterThresholds(s, log);
  return push(s, ...due.reverse().flatMap((side) => thresholdFrames(side, null)));
}

/** The units of an army, or of a division (those its leader commands), for a threshold [p.11]. */
function thresholdUnits(s: SeqState, side: Side, division: string | null): ThresholdUnit[] {
  return s.units
    .filter((u) => u.side === side && (division === null || specOf(s, u.id).commander === division))
    .map((u) => ({ status: u.status, inRetreat: u.retreating }));
}

/** After the thresholds: the game goes on (its first period), or ends by sudden death (A-79). */
function afterThresholds(s: SeqState, log: Log): SeqState {
  if (s.conceded !== null) {
    log?.push({
      rule: 'A-79',
      text:
        s.conceded === 'both'
          ? 'both armies failed their thresholds: the game ends drawn'
          : `${s.sc.sides[s.conceded]!.name} concede: their army failed its threshold`,
    });
    return { ...s, over: true };
  }
  return startPeriod(s, log);
}

/**
 * [p.4 steps 1-2] a period begins: with the optional leader initiative [p.17], each corps or divisional leader outside
 * his superior's command distance rolls first (the book's "the player can try": the digest always rolls, and a try
 * costs nothing); then units out of command are marked, then the secret bids.
 */
function startPeriod(s0: SeqState, log: Log): SeqState {
  // [p.17] A-19 step 0: written orders first
  if (s0.sc.options.writtenOrders && s0.ordersAt !== periodIndex(s0)) return ordersStep(s0, log);
  // [p.10] A-56: at the start of the period, members that limbered and left leave; then the declarations
  const s1 = leaveGrandBatteries(s0, log);
  const joins = grandBatteryCandidates(s1);
  if (!joins.length) return stepOne(s1, log);
  return push(
    s1,
    { t: 'grandBatteryDone' },
    ...joins.reverse().map((j) => ({ t: 'grandBattery' as const, unit: j.unit, officer: j.officer })),
  );
}

/** [p.4 step 1] after the grand battery declarations (A-56): the initiative rolls [p.17], then command and the bids. */
function stepOne(s0: SeqState, log: Log): SeqState {
  const s: SeqState = s0.initiativePassed.length ? { ...s0, initiativePassed: [] } : s0;
  const due = initiativeDue(s);
  if (!due.length) return markAndBid(s, log);
  log?.push({
    rule: 'p.17',
    text: `leader initiative: ${due.map((d) => d.leader).join(', ')} outside his superior's command distance, rolls`,
  });
  return push(s, { t: 'command' }, ...due.reverse().map((d) => ({ t: 'initiative' as const, ...d })));
}

/** [p.4 steps 1-2] units out of command are marked, then both sides bid in secret. */
function markAndBid(s0: SeqState, log: Log): SeqState {
  const s1 = markCommand(s0, log);
  const s = s1.flanks ? startFlanks(s1, log) : s1;
  log?.push({ rule: 'p.4 step 2', text: `period ${s.period} of turn ${s.turn}: both sides bid turn points in secret` });
  return push(s, { t: 'bid' });
}

/**
 * [p.17] optional: the corps and divisional leaders outside their superior's command distance this period, each with
 * his initiative number (a staff officer standing in for a lost leader has his rank's basic value, 8 or 5). Option #2
 * (written orders) has no leader command distances, so no rolls.
 */
function initiativeDue(s: SeqState): { leader: string; initiative: number }[] {
  if (!s.sc.options.leaderInitiative || s.sc.options.writtenOrders) return [];
  return s.sc.sides.flatMap((side, i) =>
    initiativeRollsDue(commandLeaders(s, i as Side), commandOptions(s)).map((id) => {
      // [p.10] A-56: the staff officer in an appointed leader's old post has the rank's basic value too
      const staff = staffOf(id);
      const spec = side.leaders.find((l) => l.id === (staff ?? id))!;
      const base = spec.rank === 'corps' ? INITIATIVE.corps : INITIATIVE.division;
      return { leader: id, initiative: staff || leaderOf(s, id).lost ? base : (spec.initiative ?? base) };
    }),
  );
}

const leaderOf = (s: SeqState, id: string): SeqLeader => s.leaders.find((l) => l.id === id)!;

/** A leader's position: with the unit he is attached to (its front-centre), else where he stands. */
function leaderAt(s: SeqState, id: string): { x: number; y: number } {
  const l = leaderOf(s, id);
  if (l.attached) {
    const u = s.units.find((x) => x.id === l.attached && x.status === 'active');
    if (u) return { x: u.x, y: u.y };
  }
  return { x: l.x, y: l.y };
}

/**
 * [p.4 step 8] a leader's moves (A-21: up to 20" in step 8): stay; join a friendly unit whose front-centre is within
 * reach (A-22: attach); or leave his unit where it stands.
 */
function leaderMoves(s: SeqState, id: string): { key: string; to: Partial<SeqLeader> }[] {
  const l = leaderOf(s, id);
  const at = leaderAt(s, id);
  const reach = s.sc.options.leaderMove * IN;
  const out: { key: string; to: Partial<SeqLeader> }[] = [{ key: 'stay', to: {} }];
  if (l.attached) out.push({ key: 'leave', to: { attached: null, x: at.x, y: at.y } });
  // [p.10] A-56: a division leader appointed grand battery commander rides to the forming point
  const forming = appointable(s, id) ? formingPointOf(s, id) : null;
  for (const u of s.units)
    if (
      u.side === l.side &&
      u.status === 'active' &&
      u.id !== l.attached &&
      Math.hypot(u.x - at.x, u.y - at.y) <= reach
    )
      out.push({ key: `join ${u.id}`, to: { attached: u.id, x: u.x, y: u.y } });
  out.push(...leaderFreeMoves(s, id, at, reach));
  if (forming) out.push({ key: 'appoint grand battery', to: { attached: null, ...forming } });
  return out;
}

/**
 * A-21, A-22, §8.3.8 a leader's free move in step 8, unattached ("leaders ignore terrain … and pass freely through
 * units"; the figure is no real position): `go centre`, toward the centre of the units he commands, and `go superior`,
 * toward his superior until 1" inside the superior's command radius: each as far as his move allows (20", or 10"
 * under A-21's other value), offered when it moves him at least 1".
 */
function leaderFreeMoves(
  s: SeqState,
  id: string,
  at: { x: number; y: number },
  reach: number,
): { key: string; to: Partial<SeqLeader> }[] {
  const l = leaderOf(s, id);
  const spec = s.sc.sides[l.side]!.leaders.find((x) => x.id === id)!;
  // the units he commands now (A-56: a grand battery's members answer to its officer)
  const mine = s.units.filter((u) => u.status === 'active' && commanderOf(s, u.id) === id);
  return freeMoves(s, l.side, spec.superior, mine, at, reach);
}

/** A-21 the free moves (`go centre`, `go superior`) of a leader or staff officer at `at` commanding `mine`. */
function freeMoves(
  s: SeqState,
  side: Side,
  superior: string | undefined,
  mine: readonly SeqUnit[],
  at: { x: number; y: number },
  reach: number,
): { key: string; to: Partial<SeqLeader> }[] {
  const out: { key: string; to: Partial<SeqLeader> }[] = [];
  const toward = (key: string, goal: { x: number; y: number }, stopShort: number) => {
    const d = Math.hypot(goal.x - at.x, goal.y - at.y);
    const go = Math.min(reach, d - stopShort);
    if (go < IN) return;
    const x = Math.round(at.x + ((goal.x - at.x) / d) * go);
    const y = Math.round(at.y + ((goal.y - at.y) / d) * go);
    const t = tableOf(s.sc);
    if (x < 0 || y < 0 || x > t.width || y > t.height) return;
    out.push({ key, to: { attached: null, x, y } });
  };
  if (mine.length) {
    const cs = mine.map((u) => centreOf(tableUnit(s, u)));
    toward(
      'go centre',
      { x: cs.reduce((a, p) => a + p.x, 0) / cs.length, y: cs.reduce((a, p) => a + p.y, 0) / cs.length },
      0,
    );
  }
  const sup = superior ? s.sc.sides[side]!.leaders.find((x) => x.id === superior) : undefined;
  if (sup) toward('go superior', leaderAt(s, sup.id), Math.max(0, sup.radius - 1) * IN);
  return out;
}

/**
 * [p.4 step 1, p.16] option #1: a unit is out of command outside its commander's radius, or when its commander or a
 * leader above him is out of his superior's radius (leaders do not move yet: step 8 is not built).
 */
function markCommand(s: SeqState, log: Log): SeqState {
  // [p.17] a leader whose initiative roll succeeded is in command this period
  const out = outOfCommandNow(s, new Set(s.initiativePassed));
  if (out.size && log) {
    const t = outOfCommandText(s, out);
    log.push({ rule: t.a26 ? 'A-26' : 'p.16', text: `out of command: ${t.text}` });
  }
  return {
    ...s,
    units: s.units.map((u) => (u.ooc === out.has(u.id) ? u : { ...u, ooc: out.has(u.id) })),
  };
}

/**
 * [p.16] the units out of command where they stand now (option #1's chain of radii, or option #2), measured along
 * A-26's command lines unless the option commandLines is "straight".
 */
function outOfCommandNow(s: SeqState, initiativePassed: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  const o = commandOptions(s, initiativePassed);
  s.sc.sides.forEach((_side, i) => {
    for (const id of outOfCommandUnits(commandLeaders(s, i as Side), commandUnits(s, i as Side), o)) out.add(id);
  });
  return out;
}

/** [p.16] a side's units on the table, each with the leader who commands it. */
function commandUnits(s: SeqState, side: Side): CommandUnit[] {
  return s.units
    .filter((u) => u.side === side && u.status === 'active')
    .map((u) => ({ id: u.id, commander: commanderOf(s, u.id), body: tableUnit(s, u) }));
}

// ---------------------------------------------------------------------------------------------------------------------
// [p.16] A-26 command lines (command.ts; the option commandLines)
// ---------------------------------------------------------------------------------------------------------------------

/** The option's reading: A-26's paths (the default), or A-12's straight distance. */
const paths = (s: SeqState) => s.sc.options.commandLines !== 'straight';

const bodiesCache = new WeakMap<readonly SeqUnit[], CommandBody[]>();
/** The units on the table as the command lines see them (their zones of control), once per units array. */
function commandBodies(s: SeqState): CommandBody[] {
  let b = bodiesCache.get(s.units);
  if (!b) {
    b = s.units.filter((u) => u.status === 'active').map((u) => ({ ...tableUnit(s, u), retreating: u.retreating }));
    bodiesCache.set(s.units, b);
  }
  return b;
}

const linesCache = new WeakMap<readonly SeqUnit[], { readonly key: string; readonly lines: CommandLines }>();
/**
 * A-26 both sides' command lines where everyone stands now, with the crossing contest: found once a period (step 1's
 * initiative rolls and marking, and the turn's threshold rolls, share them: cached by the units array and what the
 * lines run between).
 */
function linesNow(s: SeqState): CommandLines {
  const leaderLines = !s.sc.options.writtenOrders;
  const sides: CommandSide[] = s.sc.sides.map((_x, i) => ({
    side: String(i),
    leaders: commandLeaders(s, i as Side),
    units: commandUnits(s, i as Side),
    leaderLines,
  }));
  const key = JSON.stringify(sides.map((x) => [x.leaders, x.units.map((u) => [u.id, u.commander])]));
  const hit = linesCache.get(s.units);
  if (hit?.key === key) return hit.lines;
  const lines = commandLines(s.sc, commandBodies(s), sides);
  linesCache.set(s.units, { key, lines });
  return lines;
}

/** [p.16-17] the command test's options now: option #1 or #2, the initiative passed, A-26's line lengths. */
function commandOptions(s: SeqState, initiativePassed: ReadonlySet<string> = new Set()): CommandOptions {
  const option = s.sc.options.writtenOrders ? 2 : 1;
  if (!paths(s)) return { option, initiativePassed };
  const lines = linesNow(s);
  return {
    option,
    initiativePassed,
    lineLength: (l, to) => {
      const r = ('body' in to ? lines.units : lines.leaders).get(to.id);
      if (r && r.from === l.id) return reachLength(r);
      return 'body' in to ? commandDistance(l, to.body) : Math.hypot(l.x - to.x, l.y - to.y);
    },
  };
}

/**
 * [p.16] the out-of-command units for the log: where A-26 (a path round the enemy, or a broken line) puts a unit or a
 * leader above it out of command though the straight distance would not, it says so.
 */
function outOfCommandText(s: SeqState, out: ReadonlySet<string>): { text: string; a26: boolean } {
  if (!paths(s)) return { text: [...out].join(', '), a26: false };
  const lines = linesNow(s);
  let a26 = false;
  const why = (id: string): string => {
    const r = lines.units.get(id);
    let c: LineReach | undefined = r && pathDecides(r) ? r : undefined;
    let by = '';
    for (let l = r?.from, n = 0; !c && l && n < 8; n++) {
      const up = lines.leaders.get(l);
      if (up && pathDecides(up)) {
        c = up;
        by = `${l}: `;
      }
      l = up?.from;
    }
    if (!c) return id;
    a26 = true;
    return `${id} (${by}${reachText(c)})`;
  };
  const text = [...out].map(why).join(', ');
  return { text, a26 };
}

/** A-27: a commander's distance to a unit's body: its command path (A-26), or the straight distance. */
function commandLength(s: SeqState, side: Side, at: { x: number; y: number }, b: TableUnit): number {
  return paths(s) ? commandPathLength(s.sc, String(side), commandBodies(s), at, b) : commandDistance(at, b);
}

/**
 * [p.17] the distance between two leaders for an order change: A-26's path round the enemy (the straight distance
 * when there is no way round, or under the option commandLines "straight").
 */
function leadersLength(s: SeqState, side: Side, a: { x: number; y: number }, b: { x: number; y: number }): number {
  const straight = Math.hypot(a.x - b.x, a.y - b.y);
  if (!paths(s)) return straight;
  const d = commandPathBetween(s.sc, String(side), commandBodies(s), a, b);
  return Number.isFinite(d) ? d : straight;
}

/**
 * [p.16] a side's leaders where they stand now, for the command chain; [p.10] A-56 an appointed grand battery
 * commander is "treated as a division commander under his original superior" (§6.2.2), and the staff officer in his
 * old post commands the rest of his division, under the same superior.
 */
function commandLeaders(s: SeqState, side: Side): CommandLeader[] {
  return s.sc.sides[side]!.leaders.flatMap((l) => {
    const a = appointmentOf(s, l.id);
    const me: CommandLeader = {
      id: l.id,
      rank: a ? 'grandBattery' : l.rank,
      superior: l.superior ?? '',
      radius: l.radius,
      ...leaderAt(s, l.id),
    };
    if (!a) return [me];
    // [p.16] the staff officer: the same command radius, no bonuses (morale.ts staffOfficerFor)
    const st = staffOfficerFor({
      ...l,
      side,
      name: l.name ?? l.id,
      superior: l.superior ?? '',
      initiative: l.initiative ?? null,
    });
    return [me, { id: staffId(l.id), rank: st.rank, superior: st.superior, radius: st.radius, x: a.x, y: a.y }];
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// Grand batteries [p.10] (A-56; morale.ts GRAND_BATTERY_READINGS)
// ---------------------------------------------------------------------------------------------------------------------

/** [p.10] a leader appointed grand battery commander in step 8 (A-56), and the staff officer in his old post. */
export interface Appointment {
  /** The appointed leader (his scenario id), who commands the grand battery from the forming point on. */
  readonly leader: string;
  /** Where the staff officer holding his old command stands (1/100"). */
  readonly x: number;
  readonly y: number;
}

const STAFF = ' (staff officer)';
/** The command id of the staff officer holding an appointed leader's old command [p.10, p.16]. */
export const staffId = (leader: string): string => `${leader}${STAFF}`;
/** The appointed leader whose old post a command id's staff officer holds, if it is one. */
const staffOf = (id: string): string | undefined => (id.endsWith(STAFF) ? id.slice(0, -STAFF.length) : undefined);
const appointmentOf = (s: SeqState, leader: string): Appointment | undefined =>
  s.appointed?.find((a) => a.leader === leader);

/**
 * [p.16, p.10] who a unit answers to now, for out-of-command purposes: a grand battery's member its officer (A-56);
 * a unit of an appointed leader's old division the staff officer in his post; else its scenario commander.
 */
function commanderOf(s: SeqState, id: string): string {
  const m = s.gbMembers?.[id];
  if (m) return m;
  const c = specOf(s, id).commander;
  return appointmentOf(s, c) ? staffId(c) : c;
}

/** Where a command figure stands: a leader (with his unit when attached), or a staff officer in an appointed post. */
function commandPoint(s: SeqState, id: string): { x: number; y: number } {
  const a = appointmentOf(s, staffOf(id) ?? '');
  return a ? { x: a.x, y: a.y } : leaderAt(s, id);
}

/** Where a division's command stands (its leader, or the staff officer holding it since his appointment, A-56). */
const divisionAt = (s: SeqState, d: string) => commandPoint(s, appointmentOf(s, d) ? staffId(d) : d);

/** [p.10] the side's grand battery officers: its scenario `grandBattery` leaders and those appointed (A-56). */
function grandBatteryOfficers(s: SeqState, side: Side): string[] {
  return s.sc.sides[side]!.leaders.filter((l) => l.rank === 'grandBattery' || appointmentOf(s, l.id)).map((l) => l.id);
}

/** The side's unlimbered batteries on the table, guns not lost [p.10]. */
const unlimberedBatteries = (s: SeqState, side: Side) =>
  s.units.filter(
    (u) =>
      u.side === side &&
      u.status === 'active' &&
      !u.gunsLost &&
      u.formation === 'unlimbered' &&
      specOf(s, u.id).kind === 'artillery',
  );

/** [p.10] may this leader be appointed grand battery commander at his step 8 move (GRAND_BATTERY_READINGS 1-3)? */
function appointable(s: SeqState, id: string): boolean {
  const l = leaderOf(s, id);
  const side = s.sc.sides[l.side]!;
  const spec = side.leaders.find((x) => x.id === id)!;
  return mayAppointGrandBattery({
    allowed: side.doctrine.grandBatteryAllowed,
    rank: spec.rank,
    lost: l.lost,
    staffOfficer: spec.staffOfficer,
    attached: l.attached !== null,
    sideHasGrandBattery: grandBatteryOfficers(s, l.side).length > 0,
    unlimberedBatteries: unlimberedBatteries(s, l.side).length,
  });
}

/** A-56 the forming point: toward the centroid of the side's unlimbered batteries, as far as his move allows. */
function formingPointOf(s: SeqState, id: string): { x: number; y: number } {
  const l = leaderOf(s, id);
  const p = formingPoint(
    leaderAt(s, id),
    unlimberedBatteries(s, l.side).map((u) => centreOf(tableUnit(s, u))),
    s.sc.options.leaderMove * IN,
  );
  const t = tableOf(s.sc);
  return { x: Math.min(t.width, Math.max(0, p.x)), y: Math.min(t.height, Math.max(0, p.y)) };
}

/**
 * [p.10] an officer's command radius (inches) and his command distance to a unit (1/100"): measured as command is,
 * along A-26's command path (or straight, A-12, under the option commandLines "straight").
 */
function fromOfficer(s: SeqState, officer: string, u: SeqUnit) {
  const spec = s.sc.sides[u.side]!.leaders.find((l) => l.id === officer)!;
  return {
    unlimbered: u.formation === 'unlimbered',
    distance: commandLength(s, u.side, leaderAt(s, officer), tableUnit(s, u)),
    radius: spec.radius,
  };
}

/** A-56 at step 1: members that limbered and left their officer's radius leave (those gone from the table too). */
function leaveGrandBatteries(s: SeqState, log: Log): SeqState {
  const m = s.gbMembers;
  if (!m) return s;
  const kept: Record<string, string> = {};
  for (const [id, officer] of Object.entries(m)) {
    const u = unitOf(s, id);
    if (u.status !== 'active' || u.gunsLost) continue;
    if (leavesGrandBattery(fromOfficer(s, officer, u))) {
      log?.push({
        rule: 'A-56',
        text: `${id} limbered and left ${officer}'s command radius: it leaves the grand battery for ${specOf(s, id).commander}'s command [p.10]`,
      });
      continue;
    }
    kept[id] = officer;
  }
  if (Object.keys(kept).length === Object.keys(m).length) return s;
  const { gbMembers: _, ...rest } = s;
  return Object.keys(kept).length ? { ...rest, gbMembers: kept } : rest;
}

/**
 * A-56 at step 1: the batteries that may be declared members now: unlimbered, guns not lost, within a grand battery
 * officer's command radius, not already his; with two officers in reach, the nearer (side by side, in scenario order).
 */
function grandBatteryCandidates(s: SeqState): { unit: string; officer: string }[] {
  const out: { unit: string; officer: string }[] = [];
  for (const side of [0, 1] as const) {
    const officers = grandBatteryOfficers(s, side);
    if (!officers.length) continue;
    for (const u of unlimberedBatteries(s, side)) {
      const now = commanderOf(s, u.id);
      let best: { officer: string; d: number } | null = null;
      for (const o of officers) {
        if (o === now) continue;
        const b = fromOfficer(s, o, u);
        if (mayJoinGrandBattery(b) && (!best || b.distance < best.d)) best = { officer: o, d: b.distance };
      }
      if (best) out.push({ unit: u.id, officer: best.officer });
    }
  }
  return out;
}

/** [p.10] A-56 step 8: the staff officer's moves: stay, or ride (A-21) toward his units' centre or his superior. */
function staffMoves(s: SeqState, leader: string): { key: string; to: Partial<SeqLeader> }[] {
  const a = appointmentOf(s, leader)!;
  const l = leaderOf(s, leader);
  const spec = s.sc.sides[l.side]!.leaders.find((x) => x.id === leader)!;
  const mine = s.units.filter((u) => u.status === 'active' && commanderOf(s, u.id) === staffId(leader));
  return [
    { key: 'stay', to: {} },
    ...freeMoves(s, l.side, spec.superior, mine, { x: a.x, y: a.y }, s.sc.options.leaderMove * IN),
  ];
}

/**
 * [p.10] A-56 step 8: the leader is appointed grand battery commander: he rides to the forming point (`to`), and a
 * staff officer (no bonuses [p.16]) takes his old command where he stood.
 */
function appoint(s: SeqState, id: string, to: Partial<SeqLeader>, log: Log): SeqState {
  const from = leaderAt(s, id);
  log?.push({
    rule: 'p.10',
    text: `${id} is appointed grand battery commander (A-56): he rides ${inches(Math.hypot(to.x! - from.x, to.y! - from.y))} to the forming point (${(to.x! / IN).toFixed(1)}, ${(to.y! / IN).toFixed(1)}); a staff officer, who gives no bonus, takes his old command [p.16]`,
  });
  return {
    ...s,
    leaders: s.leaders.map((l) => (l.id === id ? { ...l, ...to } : l)),
    appointed: [...(s.appointed ?? []), { leader: id, x: from.x, y: from.y }],
  };
}

/** [p.16] the melee bonus of the leader attached to a unit (+5, or his own). */
function leaderMeleeBonus(s: SeqState, id: string): number {
  const l = s.leaders.find((x) => x.attached === id);
  return l && !l.lost ? s.sc.sides[l.side]!.leaders.find((x) => x.id === l.id)!.meleeBonus : 0;
}

/** [p.16] a leader roll after casualties to the unit he is attached to (`upTo`: lost on a D10 of this or less). */
function leaderRoll(s: SeqState, unit: string, upTo: number): SeqState {
  const l = s.leaders.find((x) => x.attached === unit && !x.lost);
  return l && upTo > 0 ? push(s, { t: 'leaderLoss', leader: l.id, upTo }) : s;
}

/**
 * [p.13-15] a close action's casualties to one unit: figures off, the leader loss roll [p.16] ("for every two figure
 * casualties that a unit receives and a leader is attached"), and A-43's elimination below 2 figures (not artillery).
 */
function closeCasualties(s: SeqState, id: string, lost: number): SeqState {
  const u = unitOf(s, id);
  const figures = Math.max(0, u.figures - lost);
  let t = updUnit(s, id, { figures });
  if (lost > 0) t = leaderRoll(t, id, leaderLossMaxRoll(lost));
  return figures < 2 && specOf(t, id).kind !== 'artillery' ? updUnit(t, id, { status: 'eliminated' }) : t;
}

/** [p.16] the morale bonus of the leader attached to a unit (a staff officer gives none). */
function leaderBonus(s: SeqState, id: string): number {
  const l = s.leaders.find((x) => x.attached === id);
  return l && !l.lost ? s.sc.sides[l.side]!.leaders.find((x) => x.id === l.id)!.moraleBonus : 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// Buildings [p.19-20] (A-72, A-73, A-74): buildings.ts's rules played on the period's state
// ---------------------------------------------------------------------------------------------------------------------

/** A block attack waiting for step 9 (A-73); `off` once its charger failed its step 5 check or was lost. */
export interface PendingBlockAttack extends BlockAttack {
  readonly off?: boolean;
}

const townBlocks = new WeakMap<Scenario, BlockState[]>();

/** [p.19] the scenario's blocks as buildings.ts sees them (their fires change only with the `fires` rule, not built). */
function blocksOf(sc: Scenario): BlockState[] {
  let b = townBlocks.get(sc);
  if (!b) {
    b = sc.terrain.flatMap((t) =>
      t.type === 'block'
        ? [
            {
              id: t.id,
              x: Math.round(t.sw[0] * IN),
              y: Math.round(t.sw[1] * IN),
              brickOrStone: t.brickOrStone,
              wallSides: t.wallSides,
              fires: t.fires,
            },
          ]
        : [],
    );
    townBlocks.set(sc, b);
  }
  return b;
}

const BLOCK_SIZE = BUILDINGS.blockSize * IN;

/** A block's square (1/100"). */
function blockSquare(b: BlockState): Polygon {
  return [
    { x: b.x, y: b.y },
    { x: b.x + BLOCK_SIZE, y: b.y },
    { x: b.x + BLOCK_SIZE, y: b.y + BLOCK_SIZE },
    { x: b.x, y: b.y + BLOCK_SIZE },
  ];
}

const blockById = (s: SeqState, id: string) => blocksOf(s.sc).find((b) => b.id === id)!;

/** [p.19] a unit with figures in blocks. */
const inTown = (u: SeqUnit) => Object.keys(u.inBlocks).length > 0;

/** The town: the blocks and the units on the table (a unit gone holds no figures, A-43). */
function townOf(s: SeqState): Town {
  return {
    // [p.20] optional fires: the fires burning now
    blocks: blocksNow(s),
    units: s.units
      .filter((u) => u.status === 'active')
      .map((u) => {
        const spec = specOf(s, u.id);
        return {
          id: u.id,
          side: u.side,
          kind: spec.kind,
          ...(spec.kind === 'infantry' ? { troopClass: spec.troopClass } : {}),
          figures: u.figures,
          inBlocks: u.inBlocks,
        };
      }),
  };
}

/** The block holding most of a unit's figures (ties: the first by id): where its body is on the table. */
function mainBlock(u: SeqUnit): string | undefined {
  let best: string | undefined;
  let most = 0;
  for (const id of Object.keys(u.inBlocks).sort()) if (u.inBlocks[id]! > most) [best, most] = [id, u.inBlocks[id]!];
  return best;
}

/** Facing square to the block grid (a body in a block is the block). */
const square90 = (f: number) => (Math.round(f / 90) * 90) % 360;

/** [p.19] a unit in blocks stands, as a body, on its main block: `at` the middle of the side it faces. */
function placeInTown(s: SeqState, id: string): SeqState {
  const u = unitOf(s, id);
  const m = mainBlock(u);
  if (!m) return s;
  const b = blockById(s, m);
  const facing = square90(u.facing);
  const v = headingVec(facing);
  const h = BLOCK_SIZE / 2;
  return updUnit(s, id, { x: Math.round(b.x + h + v.x * h), y: Math.round(b.y + h + v.y * h), facing });
}

/** Write a town back: each unit's figures and blocks, and where its body stands. */
function withTown(s: SeqState, town: Town): SeqState {
  let t = s;
  for (const b of town.units) {
    const u = unitOf(t, b.id);
    if (u.inBlocks === b.inBlocks && u.figures === b.figures) continue;
    t = placeInTown(updUnit(t, b.id, { inBlocks: b.inBlocks, figures: b.figures }), b.id);
  }
  return t;
}

/**
 * [p.20] fire casualties of a unit in blocks come from the block fired at (its main block, where its body is), then
 * its other blocks, largest first; `figures` is already reduced. A unit gone (A-43) leaves the town.
 */
function townLosses(s: SeqState, id: string, n: number): SeqState {
  const u = unitOf(s, id);
  if (u.status !== 'active') return updUnit(s, id, { inBlocks: {} });
  const m = mainBlock(u)!;
  const rest = Object.keys(u.inBlocks)
    .filter((k) => k !== m)
    .sort((a, b) => u.inBlocks[b]! - u.inBlocks[a]! || (a < b ? -1 : 1));
  const inBlocks: Record<string, number> = { ...u.inBlocks };
  let left = n;
  for (const k of [m, ...rest]) {
    const take = Math.min(left, inBlocks[k]!);
    inBlocks[k] = inBlocks[k]! - take;
    if (inBlocks[k] === 0) delete inBlocks[k];
    left -= take;
  }
  // what is left of the casualties fell on its figures outside (R2)
  return placeInTown(updUnit(s, id, { inBlocks }), id);
}

/** [p.19] A-72 the blocks within 1" of a body (the blocks it may enter, and overflow into). */
function touchingBlocks(s: SeqState, body: TableUnit): string[] {
  const poly = footprint(body);
  return blocksOf(s.sc)
    .filter((b) => polygonDistance(poly, blockSquare(b)) <= IN)
    .map((b) => b.id)
    .sort();
}

/** A placement as text: "V1:12 V2:6". */
const placementKey = (p: Readonly<Record<string, number>>) =>
  Object.keys(p)
    .sort()
    .map((k) => `${k}:${p[k]}`)
    .join(' ');

/**
 * [p.19] A-72 the placements offered for entering `entry` (the book: "figures are placed as pleased"; the menu keeps
 * two): the canonical one (as many as fit in the entry block, R3), and eight a block first ("eight being ideal for
 * flexibility" [p.19]), then up to twelve, in the same order.
 */
function entryPlacements(town: Town, u: SeqUnit, entry: string, touching: readonly string[]): Record<string, number>[] {
  const out: Record<string, number>[] = [];
  const first = entryPlacement(town, u.id, entry, touching);
  if (typeof first === 'string') return out;
  out.push(first);
  const order = [
    entry,
    ...neighbours(town, entry)
      .map((b) => b.id)
      .sort()
      .filter((b) => touching.includes(b)),
    ...neighbours(town, entry)
      .map((b) => b.id)
      .sort()
      .filter((b) => !touching.includes(b) && figuresIn(town, b) === 0),
  ];
  const eight: Record<string, number> = {};
  let left = u.figures;
  for (const cap of [BUILDINGS.idealFigures, BUILDINGS.maxFigures])
    for (const b of order) {
      if (entryBan(town, b, u.side)) continue;
      const n = Math.min(left, cap - (eight[b] ?? 0), room(town, b) - (eight[b] ?? 0));
      if (n > 0) {
        eight[b] = (eight[b] ?? 0) + n;
        left -= n;
      }
    }
  if (
    left === 0 &&
    placementKey(eight) !== placementKey(first) &&
    !entryPlacementProblem(town, u.id, entry, touching, eight)
  )
    out.push(eight);
  return out;
}

/** R4: where a unit leaving block `via` by side `side` stands: in column, its rear on that side, facing away. */
function leaveBody(s: SeqState, u: SeqUnit, via: string, side: Compass): TableUnit {
  const e = exitPoint(blockById(s, via), side);
  const v = headingVec(e.facing);
  const spec = specOf(s, u.id);
  const d = layout(bodyOf(spec, u.side, e, 'column', u.figures)).d + 1;
  return bodyOf(spec, u.side, { x: e.x + v.x * d, y: e.y + v.y * d, facing: e.facing }, 'column', u.figures);
}

/** The body stands clear of every block (blocks are entered by the rules of p.19, never stood on). */
function clearOfBlocks(s: SeqState, body: TableUnit): boolean {
  const poly = footprint(body);
  return !blocksOf(s.sc).some((b) => polygonsOverlap(poly, blockSquare(b)));
}

/**
 * [p.19] the building primitives of a unit's activation: infantry outside enters a block within 1" (A-72, 1 action);
 * a unit in blocks moves figures to an adjacent block (1 action, up to 12: all it may, or half) or leaves the town
 * (1 action, R4: column, disordered).
 */
function townMenu(s: SeqState, u: SeqUnit, left: number): Primitive[] {
  const out: Primitive[] = [];
  const spec = specOf(s, u.id);
  if (spec.kind !== 'infantry' || left < 2 || u.locked || !blocksOf(s.sc).length) return out;
  const town = townOf(s);
  const id = u.id;
  if (!inTown(u)) {
    // A-27: out of command, no move may end closer to an enemy: it does not enter (a reading)
    if (u.ooc) return out;
    const touching = touchingBlocks(s, tableUnit(s, u));
    for (const entry of touching) {
      if (entryBan(town, entry, u.side)) continue;
      for (const p of entryPlacements(town, u, entry, touching)) {
        if (entryPlacementProblem(town, id, entry, touching, p)) continue;
        out.push({
          key: `enter ${entry} ${placementKey(p)}`,
          apply(t, log) {
            log?.push({ rule: 'p.19', text: `${id} enters block ${entry}: ${placementKey(p)} (1 action, A-72)` });
            const v = withTown(t, enter(townOf(t), id, p));
            return updUnit(v, id, { halves: u.halves + 2, disordered: false });
          },
        });
      }
    }
    return out;
  }
  const me = town.units.find((x) => x.id === id)!;
  // [p.5] rest: an action that does nothing else recovers a fatigue level
  if (u.fatigue > 0)
    out.push({
      key: 'rest',
      apply(t, log) {
        log?.push({ rule: 'p.5', text: `${id} rests in the buildings (fatigue ${u.fatigue} → ${u.fatigue - 1})` });
        return updUnit(t, id, { fatigue: rest(u.fatigue, 1), halves: u.halves + 2 });
      },
    });
  const froms: (string | 'outside')[] = [
    ...Object.keys(u.inBlocks).sort(),
    ...(figuresOutside(me) > 0 ? ['outside'] : []),
  ];
  for (const from of froms) {
    const have = from === 'outside' ? figuresOutside(me) : u.inBlocks[from]!;
    const tos =
      from === 'outside'
        ? town.blocks.map((b) => b.id).sort()
        : neighbours(town, from)
            .map((b) => b.id)
            .sort();
    for (const to of tos) {
      const most = Math.min(have, BUILDINGS.maxFigures, room(town, to));
      for (const n of [...new Set([most, Math.floor(have / 2)])]) {
        if (n < 1) continue;
        const m = { unit: id, from, to, figures: n };
        if (blockMoveProblem(town, m)) continue;
        out.push({
          key: `blockMove ${from} ${to} ${n}`,
          apply(t, log) {
            log?.push({
              rule: 'p.19',
              text: `${id} moves ${n} figure${n === 1 ? '' : 's'} from ${from === 'outside' ? 'outside the town' : `block ${from}`} to block ${to} (1 action)`,
            });
            return updUnit(withTown(t, blockMove(townOf(t), m)), id, { halves: u.halves + 2 });
          },
        });
      }
    }
  }
  for (const via of Object.keys(u.inBlocks).sort())
    for (const side of openSides(town, via)) {
      if (leaveProblem(town, id, via, side)) continue;
      const body = leaveBody(s, u, via, side);
      if (!fits(s, body, id) || !clearOfBlocks(s, body)) continue;
      out.push({
        key: `leave ${via} ${side}`,
        apply(t, log) {
          log?.push({
            rule: 'p.19',
            text: `${id} leaves the buildings by side ${side} of block ${via}: in column, disordered (1 action)`,
          });
          return updUnit(t, id, {
            inBlocks: {},
            x: body.at.x,
            y: body.at.y,
            facing: body.at.facing,
            formation: 'column',
            disordered: true,
            halves: u.halves + 2,
          });
        },
      });
    }
  return out;
}

/** Figures of a side already attacking one side of a block (A-73: at most 6 over all the attacks on it). */
function onFace(s: SeqState, target: string, face: Compass): number {
  return s.blockAttacks
    .filter((a) => !a.off && a.target === target && a.face === face)
    .reduce((n, a) => n + a.attackers.reduce((m, x) => m + x.figures, 0), 0);
}

/** [p.6] a charge's reach (inches): infantry its move for one action, cavalry its charge distance by weight. */
function chargeReach(spec: UnitSpec, u: SeqUnit): number | null {
  return spec.kind === 'infantry'
    ? rate(spec, u, 'forward')
    : spec.kind === 'cavalry'
      ? CAVALRY_CHARGE[spec.weight]
      : null;
}

/** A charger's formation as mayCharge reads it. */
const chargeFormation = (u: SeqUnit): 'line' | 'column' | 'echelon' | 'other' =>
  u.formation === 'line' || u.formation === 'column' || u.formation === 'echelon' ? u.formation : 'other';

/** [p.13] a unit as a charger (mayCharge): its kind, formation, retreat status, command and woods. */
const chargerOf = (kind: 'infantry' | 'cavalry', u: SeqUnit, inWoodsNow: boolean) => ({
  kind,
  formation: chargeFormation(u),
  retreatStatus: u.retreating,
  outOfCommand: u.ooc,
  inWoods: inWoodsNow,
});

/** The straightest of a charge's contacts: the least turn, then the shortest run. */
const straightest = (contacts: readonly ChargeContact[]) =>
  [...contacts].sort((a, b) => Math.abs(a.turn) - Math.abs(b.turn) || a.distance - b.distance)[0]!;

/**
 * [p.6, p.13] a charge by `mover` at `target` (a unit, or a caisson's body) as a `as` target, within `reach` inches: the
 * straightest contact, if the charger may charge it and reaches it (across the mud like any move, p.20); else null.
 */
function chargeAt(
  s: SeqState,
  u: SeqUnit,
  kind: 'infantry' | 'cavalry',
  all: readonly TableUnit[],
  mover: TableUnit,
  target: TableUnit,
  as: ChargeTarget,
  reach: number,
): ChargeContact | null {
  const table = tableOf(s.sc);
  if (!mayCharge(chargerOf(kind, u, inWoods(table, mover)), as, inWoods(table, target)).ok) return null;
  const contacts = chargeContacts(moveTable(s), all, mover, target, reach * IN);
  return contacts.length ? straightest(contacts) : null;
}

/**
 * [p.19] A-73 an infantry charge on a block: one action to the middle of one of its open sides, square to it, if that
 * is within its one-action move and in its front arc (a reading: the charge's path is not measured), its body on the
 * table and clear of other units and blocks. At most 6 figures attack a side.
 */
function blockCharges(s: SeqState, u: SeqUnit, reach: number, inWoodsNow: boolean): Primitive[] {
  const spec = specOf(s, u.id);
  const out: Primitive[] = [];
  if (spec.kind !== 'infantry' || inTown(u)) return out;
  const formation = u.formation === 'line' || u.formation === 'column' ? u.formation : 'other';
  const ok = mayCharge(
    {
      kind: 'infantry',
      formation,
      retreatStatus: u.retreating,
      outOfCommand: u.ooc,
      locked: u.locked,
      inWoods: inWoodsNow,
    },
    'block',
  );
  if (!ok.ok) return out;
  const town = townOf(s);
  const enemy = (1 - u.side) as Side;
  const mover = tableUnit(s, u);
  for (const b of town.blocks) {
    if (figuresIn(town, b.id, enemy) === 0) continue;
    for (const face of openSides(town, b.id)) {
      const e = exitPoint(b, face);
      const d = Math.hypot(e.x - u.x, e.y - u.y);
      if (d > reach * IN || arcOf(mover, { x: e.x, y: e.y }) !== 'front') continue;
      const room6 = BUILDINGS.maxAttackersPerSide - onFace(s, b.id, face);
      const n = Math.min(room6, u.figures);
      if (n < 1) continue;
      const body = bodyOf(spec, u.side, { x: e.x, y: e.y, facing: (e.facing + 180) % 360 }, u.formation, u.figures);
      const v = headingVec(e.facing);
      const clear = { ...body, at: { ...body.at, x: body.at.x + v.x, y: body.at.y + v.y } };
      // a hair off the block's side: touching it (and its occupants) is no overlap
      if (!fits(s, clear, u.id) || !clearOfBlocks(s, clear)) continue;
      const attack: PendingBlockAttack = {
        side: u.side,
        target: b.id,
        face,
        from: 'outside',
        attackers: [{ unit: u.id, figures: n }],
      };
      if (blockAttackProblem(town, attack)) continue;
      out.push({
        key: `charge block ${b.id} ${face}`,
        apply(t, log) {
          log?.push({
            rule: 'p.19',
            text: `${u.id} charges side ${face} of block ${b.id} with ${n} figures (${inches(d)}; fought at step 9, A-73)`,
          });
          let w = updUnit(t, u.id, {
            x: body.at.x,
            y: body.at.y,
            facing: body.at.facing,
            halves: u.halves + 2,
            locked: true,
          });
          // §5.4 the defenders charged before they activated are locked with a stand marker (their defence action)
          for (const x of w.units)
            if (x.side === enemy && (x.inBlocks[b.id] ?? 0) > 0)
              w = updUnit(w, x.id, { locked: true, ...(x.activated ? {} : { activated: true, stand: true }) });
          // the charge ends the activation: its frame is dropped
          return { ...w, stack: w.stack.slice(0, -1), blockAttacks: [...w.blockAttacks, attack] };
        },
      });
    }
  }
  return out;
}

/**
 * [p.4 step 9] A-73: after the ordinary close actions, the building fights: each charge on a block gets the block's
 * defence fire-out (A-74) and the charger's step 5 check; then side A, then side D, declares the attacks from its
 * blocks and fires out; then the fights, side A's first.
 */
function blockStep(s: SeqState, log: Log): SeqState {
  if (!s.blockAttacks.length && !s.units.some((u) => u.status === 'active' && inTown(u))) return moraleStep(s, log);
  const a = s.sideA ?? 0;
  const charges = s.blockAttacks.flatMap((x, i) => (x.from === 'outside' && !x.off ? [i] : []));
  log?.push({ rule: 'A-73', text: "building fights, after the ordinary close actions: side A's first" });
  return push(
    s,
    { t: 'step10' },
    { t: 'blockFights' },
    { t: 'blockDeclare', p: (1 - a) as Side },
    { t: 'blockDeclare', p: a },
    ...charges.reverse().flatMap((i) => [
      { t: 'blockCheck' as const, i },
      { t: 'blockDefence' as const, i },
    ]),
  );
}

/** A declared attack as it stands now: its units still on the table, their figures no more than they have there. */
function liveAttack(s: SeqState, a: PendingBlockAttack): PendingBlockAttack {
  const attackers = a.attackers.flatMap((x) => {
    const u = unitOf(s, x.unit);
    if (u.status !== 'active') return [];
    const have = a.from === 'outside' ? (inTown(u) ? 0 : u.figures) : (u.inBlocks[a.from] ?? 0);
    const n = Math.min(x.figures, have);
    return n > 0 ? [{ unit: x.unit, figures: n }] : [];
  });
  return { ...a, attackers };
}

/** The attack `i` if it may be fought now (a push or a loss may have emptied a block), else null. */
function fightable(s: SeqState, i: number): PendingBlockAttack | null {
  const a0 = s.blockAttacks[i];
  if (!a0 || a0.off) return null;
  const a = liveAttack(s, a0);
  return a.attackers.length && !blockAttackProblem(townOf(s), a) ? a : null;
}

const blockFightKey = (o: BlockFightOutcome) =>
  `block ${o.winner} wins, losses ${o.attackerLosses}/${o.defenderLosses}`;

/** The figures of `side` in block `id` that kept a defence action (a stand marker or an unused action) [p.13]. */
function blockDefender(s: SeqState, id: string, side: Side): SeqUnit | undefined {
  return s.units.find(
    (u) =>
      u.side === side &&
      u.status === 'active' &&
      (u.inBlocks[id] ?? 0) > 0 &&
      defenceActionAvailable({
        unusedActions: (BUDGET - u.halves) / 2,
        standMarker: u.stand,
        retreatStatus: u.retreating,
      }),
  );
}

/** [p.19] a block's fire out at a unit (A-74), as fire.ts's shot: a 6 on one D6 inflicts two. */
function fireOutShot(s: SeqState, block: string, side: Side, target: SeqUnit, range: number): BuildingFireOutShot {
  const b = blockById(s, block);
  const centre = { x: b.x + BLOCK_SIZE / 2, y: b.y + BLOCK_SIZE / 2 };
  const tb = tableUnit(s, target);
  const firer: TableUnit = {
    id: block,
    side: String(side),
    troop: 'threeRankInfantry',
    formation: 'line',
    figures: figuresIn(townOf(s), block, side),
    at: { ...centre, facing: 0 },
    inBlock: true,
  };
  return {
    type: 'buildingFireOut',
    figures: figuresIn(townOf(s), block, side),
    range: range / IN,
    target: targetDesc(s, tableOf(s.sc), tb, firer),
  };
}

/** [p.19] A-74 the enemy units a block of 8+ figures may fire out at now: outside the town, within 6", in sight. */
function fireOutTargets(s: SeqState, block: string, side: Side): { u: SeqUnit; range: number }[] {
  const town = townOf(s);
  if (s.firedOut.includes(block) || figuresIn(town, block, side) < BUILDINGS.fireOutMinFigures) return [];
  const b = blockById(s, block);
  const sq = blockSquare(b);
  // the block's own occupants do not hide its fire (A-17: they are the observer)
  const all = s.units
    .filter((x) => x.status === 'active' && !(inTown(x) && mainBlock(x) === block))
    .map((x) => tableUnit(s, x));
  const out: { u: SeqUnit; range: number }[] = [];
  for (const u of s.units) {
    if (u.side === side || u.status !== 'active' || inTown(u) || u.locked) continue;
    const tb = tableUnit(s, u);
    const range = polygonDistance(sq, footprint(tb));
    const f = fireOutProblem(town, { side, block, range: range / IN, targetInBuildings: false }, s.firedOut);
    if (f) continue;
    // the block as the observer: its side facing the target (its centre the block's)
    const c = { x: b.x + BLOCK_SIZE / 2, y: b.y + BLOCK_SIZE / 2 };
    const facing = square90(headingTo(c, centreOf(tb)));
    const v = headingVec(facing);
    const at = { x: c.x + (v.x * BLOCK_SIZE) / 2, y: c.y + (v.y * BLOCK_SIZE) / 2, facing };
    const eye: TableUnit = { ...tb, id: block, side: String(side), at, inBlock: true };
    if (!canSee(tableOf(s.sc), all, eye, tb)) continue;
    out.push({ u, range });
  }
  return out;
}

/** Step 9's declarations of a side in its blocks (R10): an attack on an adjacent enemy block, or a fire out. */
function blockDeclarations(s: SeqState, p: Side): { key: string; apply: (t: SeqState, log: Log) => SeqState }[] {
  const out: { key: string; apply: (t: SeqState, log: Log) => SeqState }[] = [];
  const town = townOf(s);
  const used = (from: string, unit: string) =>
    s.blockAttacks
      .filter((a) => !a.off && a.from === from)
      .reduce((n, a) => n + (a.attackers.find((x) => x.unit === unit)?.figures ?? 0), 0);
  for (const from of town.blocks.map((b) => b.id).sort()) {
    if (figuresIn(town, from, p) === 0 || s.firedOut.includes(from)) continue;
    // the side's figures there not yet attacking, the unit with most first (R6)
    const free = s.units
      .filter((u) => u.side === p && u.status === 'active' && (u.inBlocks[from] ?? 0) > 0)
      .map((u) => ({ unit: u.id, figures: u.inBlocks[from]! - used(from, u.id) }))
      .filter((x) => x.figures > 0)
      .sort((a, b) => b.figures - a.figures || (a.unit < b.unit ? -1 : 1));
    const freeN = free.reduce((n, x) => n + x.figures, 0);
    for (const to of neighbours(town, from)) {
      if (figuresIn(town, to.id, (1 - p) as Side) === 0) continue;
      const face = sideToward(town, to.id, from)!;
      const n = Math.min(freeN, BUILDINGS.maxAttackersPerSide - onFace(s, to.id, face));
      if (n < 1) continue;
      const attackers: Attackers[] = [];
      let left = n;
      for (const x of free) {
        const k = Math.min(left, x.figures);
        if (k > 0) attackers.push({ unit: x.unit, figures: k });
        left -= k;
      }
      const attack: PendingBlockAttack = { side: p, target: to.id, face, from, attackers };
      if (blockAttackProblem(town, attack)) continue;
      out.push({
        key: `attack ${from} ${to.id} ${n}`,
        apply(t, log) {
          log?.push({ rule: 'p.19', text: `${n} figures in block ${from} attack block ${to.id} (A-73)` });
          return { ...t, blockAttacks: [...t.blockAttacks, attack] };
        },
      });
    }
    // a block attacks or fires out, not both (R10)
    if (!s.blockAttacks.some((a) => !a.off && a.from === from))
      for (const x of fireOutTargets(s, from, p))
        out.push({
          key: `fire out ${from} ${x.u.id}`,
          apply(t, log) {
            log?.push({ rule: 'p.19', text: `block ${from} fires out at ${x.u.id} (${inches(x.range)}, A-74)` });
            const shot = fireOutShot(t, from, p, x.u, x.range);
            return push({ ...t, firedOut: [...t.firedOut, from] }, { t: 'fire', firer: `block ${from}`, shot });
          },
        });
  }
  return out;
}

/**
 * [p.19] a block fight's result on the state: losses (A-43: a unit below 2 figures is gone), the loser pushed out, the
 * winner's advance, and the units most of whose figures are out of the town retreat (R9: placed outside the block
 * they left by, in column, then the p.12 retreat). No fatigue (A-73).
 */
function resolveBlockFight(
  s: SeqState,
  a: PendingBlockAttack,
  o: BlockFightOutcome,
  advance: boolean,
  log: Log,
): SeqState {
  const attacker0 = unitOf(s, a.attackers[0]!.unit);
  const r = applyBlockFight(townOf(s), a, o, { advance, touching: advanceTouching(s, a) });
  let t = withTown(s, r.town);
  const lossText = Object.entries(r.losses)
    .map(([id, n]) => `${id} −${n}`)
    .join(', ');
  log?.push({
    rule: 'p.19',
    text: `block ${a.target}: the ${r.winner} wins${lossText ? ` (${lossText})` : ''}${r.advanced ? '; the winners advance into it' : ''}`,
  });
  for (const [id, n] of Object.entries(r.losses)) {
    t = leaderRoll(t, id, leaderLossMaxRoll(n));
    if (unitOf(t, id).figures < 2) {
      t = updUnit(t, id, { status: 'eliminated', inBlocks: {} });
      log?.push({ rule: 'A-43', text: `${id} is eliminated` });
    }
  }
  if (r.advanced && a.from === 'outside') t = updUnit(t, attacker0.id, { disordered: false });
  for (const id of r.retreats) {
    if (unitOf(t, id).status !== 'active') continue;
    const l = r.leftTown.find((x) => x.unit === id);
    const via = l?.via ?? a.target;
    const town = townOf(t);
    const side = l?.face ?? openSides(town, via)[0] ?? 'N';
    const u = unitOf(t, id);
    const body = leaveBody(t, { ...u, inBlocks: {} }, via, side);
    log?.push({ rule: 'p.19', text: `most of ${id} is pushed out of the town: it retreats` });
    t = updUnit(t, id, { inBlocks: {}, x: body.at.x, y: body.at.y, facing: body.at.facing, formation: 'column' });
    t = enterRetreat(t, id);
  }
  return t;
}

/** R8: an outside winner's advance enters by A-72 from where it stands (the blocks within 1" of it). */
function advanceTouching(s: SeqState, a: PendingBlockAttack): string[] {
  return a.from === 'outside' ? touchingBlocks(s, tableUnit(s, unitOf(s, a.attackers[0]!.unit))) : [];
}

/** [p.13 steps 3-4] A-74 a charged block's defence action: one fire-out roll at its charger, if it may. */
function blockDefenceShot(s: SeqState, i: number): { unit: SeqUnit; shot: BuildingFireOutShot } | null {
  const a = fightable(s, i);
  if (a?.from !== 'outside') return null;
  const side = (1 - a.side) as Side;
  const unit = blockDefender(s, a.target, side);
  if (!unit) return null;
  const charger = unitOf(s, a.attackers[0]!.unit);
  const range = polygonDistance(blockSquare(blockById(s, a.target)), footprint(tableUnit(s, charger)));
  const f = { side, block: a.target, range: range / IN, targetInBuildings: false };
  if (fireOutProblem(townOf(s), f, s.firedOut)) return null;
  return { unit, shot: fireOutShot(s, a.target, side, charger, range) };
}

/** [p.13 step 5] A-73 the charger of a block checks morale (the defenders take no step 2 check). */
function blockChargerCheck(s: SeqState, i: number) {
  const a = fightable(s, i);
  if (a?.from !== 'outside') return null;
  const u = unitOf(s, a.attackers[0]!.unit);
  return chargerCheck(
    {
      rating: parseRating(specOf(s, u.id).rating).morale,
      originalFigures: u.originalFigures,
      currentFigures: u.figures,
      enemyFigures: figuresIn(townOf(s), a.target, (1 - a.side) as Side),
      leaderBonus: leaderBonus(s, u.id),
      thresholdFailed: thresholdFailed(s, u.id),
      fatigue: u.fatigue,
      disordered: u.disordered,
      retreatStatus: u.retreating,
      supported: isSupported(s, u),
    },
    { cavalry: false },
  );
}

const offAttack = (s: SeqState, i: number): SeqState => ({
  ...s,
  blockAttacks: s.blockAttacks.map((x, j) => (j === i ? { ...x, off: true } : x)),
});

type BlockFrameKind =
  | 'blocks'
  | 'blockDefence'
  | 'blockCheck'
  | 'blockDeclare'
  | 'blockFights'
  | 'blockFight'
  | 'blockAdvance';

const blockHandlers: Pick<Handlers<SeqState, Frame, Action>, BlockFrameKind> = {
  blocks: { kind: 'auto', run: (s, _f, log) => blockStep(s, log) },
  blockDefence: {
    kind: 'decision',
    owner: (f, s) => 1 - s.blockAttacks[f.i]!.side,
    legal: () => ['defence fire out', 'no defence action'],
    skip: (s, f) => blockDefenceShot(s, f.i) === null,
    step(s, f, a, log) {
      if (a === 'no defence action') return s;
      const x = blockDefenceShot(s, f.i)!;
      const b = s.blockAttacks[f.i]!;
      log?.push({
        rule: 'A-74',
        text: `block ${b.target} fires out at its charger ${b.attackers[0]!.unit} as ${x.unit.id}'s defence action`,
      });
      const t = updUnit({ ...s, firedOut: [...s.firedOut, b.target] }, x.unit.id, { stand: false });
      return push(t, { t: 'fire', firer: `block ${b.target}`, shot: x.shot });
    },
    describe: (s, f) => `block ${s.blockAttacks[f.i]!.target} is charged: fire out at the charger? (A-74)`,
  },
  blockCheck: {
    kind: 'chance',
    outcomes: (s, f) =>
      blockChargerCheck(s, f.i)?.dist.map((d) => ({ action: `charger ${d.value}`, p: d.p, label: d.value })) ?? [
        { action: 'charge void', p: 1, label: 'the charger is gone' },
      ],
    step(s, f, a, log) {
      const x = s.blockAttacks[f.i]!;
      const id = x.attackers[0]!.unit;
      if (a === 'charger closes') {
        log?.push({ rule: 'p.13 step 5', text: `${id} passes its check and closes on block ${x.target} (A-73)` });
        return s;
      }
      if (a === 'charge void') return offAttack(s, f.i);
      // [p.13 step 5] a charger that fails stops 2" short (the charger's choice, "retreat or stop 2" short": a reading)
      const u = unitOf(s, id);
      const v = headingVec(u.facing);
      const back = { ...tableUnit(s, u), at: { x: u.x - 2 * IN * v.x, y: u.y - 2 * IN * v.y, facing: u.facing } };
      const ok = fits(s, back, id) && clearOfBlocks(s, back);
      log?.push({
        rule: 'p.13 step 5',
        text: `${id} fails its check: it does not close on block ${x.target}${ok ? ' and stops 2" short' : ''}`,
      });
      return updUnit(offAttack(s, f.i), id, {
        locked: false,
        ...(ok ? { x: Math.round(back.at.x), y: Math.round(back.at.y) } : {}),
      });
    },
    describe: (s, f) => `${s.blockAttacks[f.i]!.attackers[0]!.unit} checks morale to close on the block [p.13 step 5]`,
  },
  blockDeclare: {
    kind: 'decision',
    owner: (f) => f.p,
    legal: (s, f) => [...blockDeclarations(s, f.p).map((d) => d.key), 'blocks done'],
    skip: (s, f) => blockDeclarations(s, f.p).length === 0,
    step(s, f, a, log) {
      if (a === 'blocks done') return s;
      return blockDeclarations(s, f.p)
        .find((d) => d.key === a)!
        .apply(push(s, f), log);
    },
    describe: (s, f) =>
      `${sideName(s, f.p)}: step 9 in the buildings: attack an adjacent block or fire out (each block once) [p.19]`,
  },
  blockFights: {
    kind: 'auto',
    run(s) {
      const live = s.blockAttacks.flatMap((a, i) => (a.off ? [] : [{ side: a.side, i }]));
      const ordered = orderBlockFights(live, s.sideA ?? 0);
      return push(s, ...ordered.reverse().map((x) => ({ t: 'blockFight' as const, i: x.i })));
    },
  },
  blockFight: {
    kind: 'chance',
    outcomes(s, f) {
      const a = fightable(s, f.i);
      if (!a) return [{ action: 'block fight void', p: 1, label: 'the attack cannot be made now' }];
      return blockAttackFight(townOf(s), a).dist.map((d) => ({
        action: blockFightKey(d.value),
        p: d.p,
        label: blockFightKey(d.value),
      }));
    },
    step(s, f, a, log) {
      const x = fightable(s, f.i);
      if (!x) {
        log?.push({ rule: 'p.19', text: `the attack on block ${s.blockAttacks[f.i]!.target} cannot be made now` });
        return s;
      }
      const fight = blockAttackFight(townOf(s), x);
      const o = fight.dist.find((d) => blockFightKey(d.value) === a)!.value;
      const mods = (ms: readonly { id: string; value: number }[]) =>
        ms.map((m) => `${m.value > 0 ? '+' : ''}${m.value} ${m.id}`).join(', ') || 'none';
      log?.push({
        rule: 'p.19',
        text: `${x.attackers.map((y) => `${y.figures} of ${y.unit}`).join(', ')} attack side ${x.face} of block ${x.target} (D6 each; attacker ${mods(fight.attackerMods)}; defender ${mods(fight.defenderMods)})`,
      });
      // R8: the winner's choice to advance, when it can (A-72: an outside charger must fit all its figures in)
      if (
        o.winner === 'attacker' &&
        applyBlockFight(townOf(s), x, o, { advance: true, touching: advanceTouching(s, x) }).advanced
      )
        return push(s, { t: 'blockAdvance', i: f.i, o });
      return resolveBlockFight(s, x, o, false, log);
    },
    describe: (s, f) => `the fight for block ${s.blockAttacks[f.i]!.target} [p.19]`,
  },
  blockAdvance: {
    kind: 'decision',
    owner: (f, s) => s.blockAttacks[f.i]!.side,
    legal: () => ['advance', 'stay'],
    step: (s, f, a, log) => resolveBlockFight(s, fightable(s, f.i)!, f.o, a === 'advance', log),
    describe: (s, f) => `the attackers won block ${s.blockAttacks[f.i]!.target}: advance into it? [p.19]`,
  },
};

/** §8.4: where a move would leave the unit, and where an enemy stands, for the steps of a plan. */
function stepContext(s: SeqState, id: string): StepContext {
  const seen = new Map<string, { x: number; y: number } | undefined>();
  return {
    after(key) {
      if (seen.has(key)) return seen.get(key);
      const p = activation(s, id).find((x) => x.key === key);
      const u = p ? unitOf(p.apply(push(s, { t: 'act', unit: id }), undefined), id) : undefined;
      const at = u ? { x: u.x, y: u.y } : undefined;
      seen.set(key, at);
      return at;
    },
    enemyAt(eid) {
      const e = s.units.find((x) => x.id === eid && x.status === 'active');
      return e ? { x: e.x, y: e.y } : undefined;
    },
  };
}

/**
 * §8.4: the plans a unit may choose at the start of its activation (all four half-actions left, A-24), toward its three
 * nearest enemies within 30"; none in retreat status, locked in a close action or in buildings.
 */
function planMenu(s: SeqState, id: string, keys: readonly string[]): Macro[] {
  // it depends on what the unit's menu depends on: kept with the menu (cached per units and leaders arrays)
  const menu = activation(s, id);
  let m = plans.get(menu);
  if (!m) plans.set(menu, (m = planMenuOf(s, id, keys)));
  return m;
}

const plans = new WeakMap<readonly Primitive[], Macro[]>();

function planMenuOf(s: SeqState, id: string, keys: readonly string[]): Macro[] {
  const u = unitOf(s, id);
  if (u.halves !== 0 || u.retreating || u.locked || !keys.some((k) => k.startsWith('move '))) return [];
  const enemies = s.units
    .filter((e) => e.side !== u.side && e.status === 'active')
    .map((e) => ({ id: e.id, d: Math.hypot(e.x - u.x, e.y - u.y) }))
    .filter((e) => e.d <= 30 * IN)
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((e) => e.id);
  return macros(keys, enemies, stepContext(s, id));
}

/** The frames of the optional caissons [p.11], fires [p.20] and written orders [p.17-18]. */
type OptionalFrameKind =
  | 'caisson'
  | 'artCrew'
  | 'crewCharge'
  | 'crews'
  | 'fires'
  | 'extinguish'
  | 'burn'
  | 'ignite'
  | 'orders'
  | 'orderDelay'
  | 'orderArrives'
  | 'misread'
  | 'misreadObjective'
  | 'periodStart';

/** [p.17] the `i`-th owner of a round of written orders: its side and division. */
function orderOwner(s: SeqState, i: number): { side: Side; division: string } {
  const all = ([0, 1] as const).flatMap((side) => orderDivisions(s, side).map((division) => ({ side, division })));
  return all[i]!;
}

/** [p.17] the divisions that write orders: those with units on the table. */
const orderDivisions = (s: SeqState, side: Side) => divisionsOf(s, side).filter((d) => divisionUnits(s, d).length > 0);

/** [p.20] the figures set to put out the fires of a block: sappers' (16-20) and all others' (20), pooled apart. */
function crewSplit(s: SeqState, block: string): { sappers: number; others: number } {
  let sappers = 0;
  let others = 0;
  for (const c of s.crews ?? [])
    if (c.task === 'extinguish' && c.target === block) {
      if (isSappers(s, c.unit)) sappers += c.figures;
      else others += c.figures;
    }
  return { sappers, others };
}

/** [p.20] a unit of sappers (the scenario's `sappers: true`, infantry). */
const isSappers = (s: SeqState, id: string) => {
  const spec = specOf(s, id);
  return spec.kind === 'infantry' && !!spec.sappers;
};

/** [p.20] the ignite frame's dice as fire-start groups (sappers' dice rolled with soldiers' ones). */
const igniteDice = (f: Extract<Frame, { t: 'ignite' }>) => [
  { source: f.source, rolls: f.rolls },
  ...(f.sapperRolls ? [{ source: 'sappers' as const, rolls: f.sapperRolls }] : []),
];

/** [p.20] the ignite frame's dice in words: "4 D20 (soldiers, 20) and 2 D20 (sappers, 11-20)". */
function igniteText(f: Extract<Frame, { t: 'ignite' }>): string {
  const name: Record<FireSource, string> = {
    shell: 'howitzer shells',
    incendiary: 'incendiary shells',
    rockets: 'rockets (A-75)',
    sappers: 'sappers',
    soldiers: 'soldiers',
  };
  return igniteDice(f)
    .map((d) => `${d.rolls} D20 (${name[d.source]}, ${FIRE_START[d.source].label})`)
    .join(' and ');
}

const optionalHandlers: Pick<Handlers<SeqState, Frame, Action>, OptionalFrameKind> = {
  // [p.10] A-51 a crew without its guns: its step 8 move (a reading: with the leaders and caissons)
  artCrew: {
    kind: 'decision',
    owner: (f, s) => crewsOn(s).find((c) => c.id === f.id)!.side,
    legal: (s, f) => crewMoves(s, f.id).map((m) => m.key),
    skip: (s, f) => !crewsOn(s).some((c) => c.id === f.id),
    step: (s, f, a, log) =>
      crewMoves(s, f.id)
        .find((m) => m.key === a)!
        .apply(s, log),
    describe: (_s, f) =>
      `the crew of ${f.id}: run for cover, return to its guns, re-man or spike them, or charge the enemy on them [p.10] (A-51)`,
  },
  // [p.10, p.13] A-51 a crew charges the enemy unit on its guns: the p.13 close action with the battery's MV
  crewCharge: {
    kind: 'chance',
    outcomes: (s, f) =>
      crewChargeDist(s, f.id, f.target).map((d) => ({
        action: `retake ${crewChargeKey(d.value)}`,
        p: d.p,
        label: crewChargeKey(d.value),
      })),
    step(s, f, a, log) {
      const o = crewChargeDist(s, f.id, f.target).find((d) => `retake ${crewChargeKey(d.value)}` === a)!.value;
      return crewChargeResult(s, f.id, f.target, o, log);
    },
    describe: (_s, f) =>
      `the crew of ${f.id} charges ${f.target} on its guns: ${f.target}'s check, then the melee with the battery's MV (A-51) [p.13]`,
  },
  // [p.11] a caisson's step 8 move (a reading: with the leaders)
  caisson: {
    kind: 'decision',
    owner: (f, s) => (s.caissons ?? []).find((c) => c.id === f.id)!.side,
    legal: (s, f) => caissonMoves(s, f.id).map((m) => m.key),
    skip: (s, f) => !caissonsOn(s).some((c) => c.id === f.id && c.servicing === null),
    step: (s, f, a, log) =>
      caissonMoves(s, f.id)
        .find((m) => m.key === a)!
        .apply(s, log),
    describe: (_s, f) =>
      `caisson ${f.id}: stay, come up behind a battery (to resupply one out of ammunition), or move 16" [p.11]`,
  },
  // [p.20] a side sets figures in blocks to put out fires or start them, one group at a time
  crews: {
    kind: 'decision',
    owner: (f) => f.p,
    legal: (s, f) => ['crews done', ...crewOptions(s, f.p).map((c) => c.key)],
    skip: (s, f) => crewOptions(s, f.p).length === 0,
    step(s, f, a, log) {
      if (a === 'crews done') return s;
      const { crew } = crewOptions(s, f.p).find((c) => c.key === a)!;
      const who = isSappers(s, crew.unit) ? ' (sappers)' : '';
      log?.push({
        rule: 'p.20',
        text:
          crew.task === 'extinguish'
            ? `${crew.figures} figures of ${crew.unit}${who} in ${crew.block} try to put out a fire in ${crew.target}`
            : `${crew.figures} figures of ${crew.unit}${who} try to start a fire in ${crew.block}`,
      });
      return push({ ...s, crews: [...(s.crews ?? []), crew] }, f);
    },
    describe: (s, f) => `${nameOf(s, f.p)}: set figures in blocks to put out fires or start one [p.20], or done`,
  },
  fires: { kind: 'auto', run: (s, f, log) => fireStage(s, f.stage, log) },
  // [p.20] one D20 per four figures: sappers 16-20, all others 20 (each pooled apart); each success one fire less
  extinguish: {
    kind: 'chance',
    outcomes: (s, f) =>
      extinguishCrewsDist(firesIn(s, f.block), crewSplit(s, f.block).sappers, crewSplit(s, f.block).others).map(
        (d) => ({
          action: `extinguish ${f.block} ${d.value}`,
          p: d.p,
          label: `${d.value} fire${d.value === 1 ? '' : 's'} left in ${f.block}`,
        }),
      ),
    step(s, f, a, log) {
      const n = Number(a.split(' ')[2]);
      const c = crewSplit(s, f.block);
      const per = FIRES.figuresPerExtinguishRoll;
      const dice = [
        ...(c.sappers >= per ? [`${Math.floor(c.sappers / per)} D20 of sappers, 16-20`] : []),
        ...(c.others >= per ? [`${Math.floor(c.others / per)} D20, 20`] : []),
      ];
      log?.push({
        rule: 'p.20',
        text: `putting out the fires of ${f.block} (${dice.join(' and ')}: each success puts one out): ${firesIn(s, f.block)} → ${n}`,
      });
      return setFires(s, f.block, n);
    },
    describe: (_s, f) => `putting out the fires of ${f.block}`,
  },
  // [p.20] one D20 a burning block: 14-18 accumulates, 19-20 accumulates and spreads downwind
  burn: {
    kind: 'chance',
    outcomes: (s, f) =>
      fireGrowthDist(firesIn(s, f.block)).map((d) => ({
        action: `burn ${f.block} ${d.value.fires}${d.value.spreads ? ' spreads' : ''}`,
        p: d.p,
        label: `${d.value.fires} fires in ${f.block}${d.value.spreads ? ', spreading downwind' : ''}`,
      })),
    step(s, f, a, log) {
      const [, , n, spreads] = a.split(' ');
      let t = setFires(s, f.block, Number(n));
      const wind = s.sc.windFrom;
      const down = spreads && wind ? downwindBlock({ ...townOf(t), blocks: blocksNow(t) }, f.block, wind) : undefined;
      if (down) t = setFires(t, down.id, Math.min(FIRES.maxPerBlock, firesIn(t, down.id) + 1));
      log?.push({
        rule: 'p.20',
        text: `the fire in ${f.block} ${Number(n) > firesIn(s, f.block) ? `grows to ${n}` : `burns on (${n})`}${spreads ? (down ? ` and spreads downwind to ${down.id} (${firesIn(t, down.id)})` : wind ? ' (no block downwind)' : ' (no wind: it spreads nowhere, A-75)') : ''}`,
      });
      return t;
    },
    describe: (_s, f) => `the fire in ${f.block}: accumulating and spreading`,
  },
  // [p.20] the fire-starting D20s: shell 17-20 (incendiary 7-20) a howitzer, rockets 4-20 a launcher (A-75), sappers
  // 11-20 and soldiers 20 for each two figures; one fire at most; brick or stone −1
  ignite: {
    kind: 'chance',
    outcomes: (s, f) =>
      fireStartDistOf(firesIn(s, f.block), igniteDice(f), blockById(s, f.block).brickOrStone).map((d) => ({
        action: `ignite ${f.block} ${d.value}`,
        p: d.p,
        label: `${d.value} fire${d.value === 1 ? '' : 's'} in ${f.block}`,
      })),
    step(s, f, a, log) {
      const n = Number(a.split(' ')[2]);
      log?.push({
        rule: 'p.20',
        text: `${igniteText(f)} to start a fire in ${f.block}${blockById(s, f.block).brickOrStone ? ' (−1 brick or stone)' : ''}: ${n > firesIn(s, f.block) ? `a fire starts (${n})` : 'none starts'}`,
      });
      return setFires(s, f.block, n);
    },
    describe: (_s, f) => `starting a fire in ${f.block}`,
  },
  // [p.17] each side writes its divisions' orders, sealed; every option's key starts with "order"
  orders: {
    kind: 'sealed',
    rule: 'p.17',
    owners: (s) => ([0, 1] as const).flatMap((side) => orderDivisions(s, side).map(() => side)),
    legal(s, f, i) {
      const { division } = orderOwner(s, i);
      return (s.pendingOrders ?? []).some((p) => p.division === division)
        ? [`order ${division} keep`]
        : orderOptions(s, division, f.first);
    },
    text: (s, _f, i, a) => `${nameOf(s, orderOwner(s, i).side)} write ${a} (sealed)`,
    sealedText: (s, _f, i) =>
      `${nameOf(s, orderOwner(s, i).side)} write ${orderOwner(s, i).division}'s orders (sealed)`,
    describe: (s, f, i) =>
      `${nameOf(s, orderOwner(s, i).side)}: ${orderOwner(s, i).division}'s ${f.first ? 'orders' : 'orders: keep them or change them'} (in secret) [p.17]`,
    reveal(s, f, choices, log) {
      let t = s;
      const frames: Frame[] = [];
      for (const a of choices) {
        const w = writtenOrderOfKey(t, a);
        if (!w) continue;
        if (f.first) t = takeEffect(t, w.division, w.order, log, 'is written and takes effect at once');
        else frames.push({ t: 'orderDelay', division: w.division, order: w.order });
      }
      log?.push({
        rule: 'p.17',
        text: f.first
          ? 'the orders are revealed'
          : `the orders are revealed: ${frames.length ? `new orders for ${frames.map((x) => (x.t === 'orderDelay' ? x.division : '')).join(', ')}` : 'no changes'}`,
      });
      return push(t, ...frames.reverse());
    },
  },
  // [p.17] a changed order takes 1D6 + modifiers periods to arrive (1 or less: the next period)
  orderDelay: {
    kind: 'chance',
    outcomes: (s, f) =>
      orderDelayDist(orderChangeInput(s, f.division, f.order.order)).map((d) => ({
        action: `delay ${f.division} ${d.value}`,
        p: d.p,
        label: `${f.division}'s new order arrives in ${d.value} period${d.value === 1 ? '' : 's'}`,
      })),
    step(s, f, a, log) {
      const n = Number(a.split(' ')[2]);
      const mods = orderChangeModifiers(orderChangeInput(s, f.division, f.order.order))
        .map((m) => `${m.value > 0 ? '+' : ''}${m.value} ${m.id}`)
        .join(', ');
      log?.push({
        rule: 'p.17',
        text: `${f.division}'s new order (${orderText(f.order)}) will take effect in ${n} period${n === 1 ? '' : 's'}${mods ? ` (1D6 ${mods})` : ''}`,
      });
      return {
        ...s,
        pendingOrders: [...(s.pendingOrders ?? []), { division: f.division, order: f.order, at: periodIndex(s) + n }],
      };
    },
    describe: (_s, f) => `the D6 for how long ${f.division}'s new order takes`,
  },
  // [p.17-18] an order arrives: with misreads, the D20 first
  orderArrives: {
    kind: 'auto',
    run: (s, f, log) =>
      s.sc.options.misreadOrders
        ? push(s, { t: 'misread', division: f.division, order: f.order })
        : takeEffect(s, f.division, f.order, log, 'arrives and takes effect'),
  },
  // [p.18] D20 (+1 poor officer, +2 very bad) of 19 or more misreads it; then the table's D6
  misread: {
    kind: 'chance',
    outcomes: (s, f) =>
      misreadDist(f.order.order, officerOf(s, f.division)).map((d) => ({
        action: `misread ${f.division} ${d.value}`,
        p: d.p,
        label: d.value === 'asWritten' ? 'read as written' : `misread: ${MISREAD_MEANING[d.value]}`,
      })),
    step(s, f, a, log) {
      const r = a.split(' ')[2] as ReceivedOrder;
      const d = f.division;
      if (r === 'asWritten') return takeEffect(s, d, f.order, log, 'arrives and is read as written (the D20 under 19)');
      log?.push({ rule: 'p.18', text: `${d} misreads its order (${orderText(f.order)}): ${MISREAD_MEANING[r]}` });
      if (r === 'A') return takeEffect(s, d, { order: 'Attack', target: 'enemy' }, log, 'is misread (A)');
      if (r === 'D') return takeEffect(s, d, { order: 'Defend', at: divisionAt(s, d) }, log, 'is misread (D)');
      // W: withdraw for one game turn (this period and the next five), then defend
      if (r === 'W')
        return takeEffect(s, d, { order: 'Withdraw', until: periodIndex(s) + 5 }, log, 'is misread (W, for one turn)');
      return push(s, { t: 'misreadObjective', division: d });
    },
    describe: (_s, f) => `${f.division}: is the new order misread? [p.18]`,
  },
  // [p.18] a misread M: the digest's ADAPTATION has the controlling player pick its objective, 10" away or more
  misreadObjective: {
    kind: 'decision',
    owner: (f, s) => sideOfDivision(s, f.division),
    legal: (s, f) => misreadObjectives(s, f.division),
    step(s, f, a, log) {
      const o = a.split(' ')[2]!;
      return a.startsWith('maneuver ')
        ? takeEffect(s, f.division, { order: 'Maneuver', target: o }, log, 'is misread (M)')
        : takeEffect(
            s,
            f.division,
            { order: 'Defend', at: divisionAt(s, f.division) },
            log,
            'is misread (M, nowhere 10" away: Defend)',
          );
    },
    describe: (_s, f) =>
      `${f.division} misread its order as a manoeuvre: to which objective (10" or more away)? [p.18]`,
  },
  // A-19: step 0 is over: the period's step 1
  periodStart: { kind: 'auto', run: (s, _f, log) => startPeriod(s, log) },
};

/** [p.18] a misread M's objectives: the scenario's, 10" or more from the division's leader (none: it defends). */
function misreadObjectives(s: SeqState, d: string): string[] {
  const at = divisionAt(s, d);
  const far = objectiveIds(s).filter((o) => {
    const p = objectivePoint(s, o);
    return misreadManoeuvreObjectiveOk(Math.hypot(p.x - at.x, p.y - at.y) / IN);
  });
  return far.length ? far.map((o) => `maneuver ${d} ${o}`) : [`defend ${d} here`];
}

/** [p.18] the division leader's misread modifier (+1 poor officer, +2 very bad). */
const officerOf = (s: SeqState, d: string): 0 | 1 | 2 =>
  s.sc.sides[sideOfDivision(s, d)]!.leaders.find((l) => l.id === d)!.misread;

const handlers: Handlers<SeqState, Frame, Action> = {
  ...optionalHandlers,
  bid: {
    kind: 'sealed',
    rule: 'p.4 step 2',
    owners: () => [0, 1],
    // [p.4] any number of the points left, 0 included; every option's key starts with "bid"
    legal: (s, _f, i) => Array.from({ length: s.points[i]! + 1 }, (_, n) => `bid ${n}`),
    text: (s, _f, i, a) => `${nameOf(s, i)} bid ${bidOf(a)} of its ${s.points[i]} turn points${flankText(s)} (sealed)`,
    sealedText: (s, _f, i) => `${nameOf(s, i)} bid turn points (sealed)`,
    describe: (s, _f, i) =>
      `${nameOf(s, i)}: how many of your ${s.points[i]} turn points${flankText(s)} do you bid? (in secret)`,
    reveal(s, _f, choices, log) {
      const bids = [bidOf(choices[0]!), bidOf(choices[1]!)] as const;
      // [p.5] both sides spend what they bid
      const spent: SeqState = {
        ...s,
        bids,
        points: [s.points[0] - bids[0], s.points[1] - bids[1]],
      };
      log?.push({
        rule: 'p.4 step 2',
        text: `the bids are revealed${flankText(s)}: ${bids[0]} and ${bids[1]}; turn points left ${spent.points[0]} and ${spent.points[1]}`,
      });
      if (bids[0] === bids[1]) return push(spent, { t: 'tiebreak' });
      return push(spent, { t: 'chooseAD', p: bids[0] > bids[1] ? 0 : 1 });
    },
  },
  tiebreak: {
    kind: 'chance',
    // each side rolls a D6, equal rolls re-rolled: either wins with probability ½
    outcomes: () => [
      { action: 'tie-break first', p: 0.5, label: 'the first side rolls higher' },
      { action: 'tie-break second', p: 0.5, label: 'the second side rolls higher' },
    ],
    step(s, _f, a, log) {
      const p: Side = a === 'tie-break first' ? 0 : 1;
      log?.push({ rule: 'p.5', text: `equal bids: ${nameOf(s, p)} roll higher on the D6 and chooses` });
      return push(s, { t: 'chooseAD', p });
    },
    describe: () => 'equal bids: a D6 each, re-rolled while equal',
  },
  chooseAD: {
    kind: 'decision',
    owner: (f) => f.p,
    legal: () => ['be A', 'be D'],
    step(s, f, a, log) {
      const sideA: Side = a === 'be A' ? f.p : ((1 - f.p) as Side);
      log?.push({
        rule: 'p.5',
        text: `${nameOf(s, f.p)} choose to be side ${a === 'be A' ? 'A' : 'D'}: ${nameOf(s, sideA)} activate ${s.ratio.a} units to the other's ${s.ratio.d}`,
      });
      // [p.15] A-20 step 2b: out-of-control cavalry first, then side A's first step
      // [p.5] with table flanks, the next flank bids first
      return s.flanks ? flankBidDone({ ...s, sideA }, log) : step2b({ ...s, sideA }, log);
    },
    describe: (s, f) => `${nameOf(s, f.p)} won the bid: be side A (activate ${'more'} units first) or side D?`,
  },
  pick: {
    kind: 'decision',
    owner: (f) => f.p,
    legal(s, f) {
      const units = eligible(s, f.p).map((u) => `activate ${u.id}`);
      // A-23: side A may declare "finished" at the start of one of its steps, once it has activated half its units
      // (units of A locked by D's charges count as activated)
      const locked = s.units.filter((u) => u.side === f.p && u.locked && !u.activated && inFlank(s, u)).length;
      const mayFinish = f.p === s.sideA && f.start && 2 * (s.aActivated + locked) >= counted(s, f.p);
      return mayFinish ? [...units, 'finish'] : units;
    },
    step(s, f, a, log) {
      if (a === 'finish') {
        log?.push({ rule: 'p.4 step 7', text: `side A declares it is finished after ${s.aActivated} units` });
        // [p.5] with table flanks, only this flank is done
        return s.flanks
          ? nextFlankStep({ ...s, aFinished: true }, f.p, log)
          : closePeriod({ ...s, aFinished: true }, log);
      }
      const id = a.slice('activate '.length);
      log?.push({ rule: f.p === s.sideA ? 'p.4 step 3' : 'p.4 step 5', text: `${sideName(s, f.p)} activates ${id}` });
      const t: SeqState = {
        // [p.14] a new activation: no facing or formation changed in it yet
        ...updUnit(s, id, { activated: true, ...(unitOf(s, id).changed ? { changed: false } : {}) }),
        aActivated: s.aActivated + (f.p === s.sideA ? 1 : 0),
        lastStep: f.p,
      };
      // the rest of this step, beneath the unit's activation
      const rest = f.left > 1 ? [{ t: 'pick', p: f.p, left: f.left - 1, start: false } as const] : [];
      return push(t, ...rest, { t: 'act', unit: id });
    },
    skip: (s, f) => eligible(s, f.p).length === 0,
    describe: (s, f) => `${sideName(s, f.p)}: which unit activates next? (${f.left} this step)`,
  },
  morale: {
    kind: 'chance',
    outcomes: (s, f) =>
      moraleDist(moraleInput(s, f.unit)).map((d) => ({ action: `morale ${d.value}`, p: d.p, label: d.value })),
    step(s, f, a, log) {
      const r = a.slice('morale '.length) as MoraleResult;
      log?.push({ rule: 'p.11', text: `${f.unit} checks morale: ${r}` });
      const t = updUnit(s, f.unit, { marked: 0 });
      if (r === 'retreat') return enterRetreat(t, f.unit);
      if (r === 'rout') return rout(t, f.unit, log);
      if (r === 'surrender') return updUnit(t, f.unit, { status: 'surrendered' });
      return t;
    },
    describe: (_s, f) => `${f.unit}: a morale check, D20 against its modified morale [p.11-12]`,
  },
  retreatTo: {
    kind: 'decision',
    owner: (f, s) => unitOf(s, f.unit).side,
    legal: (s, f) => retreatChoices(s, f.unit).map((c) => c.key),
    step(s, f, a, log) {
      const c = retreatChoices(s, f.unit).find((x) => x.key === a)!;
      let t = s;
      // [p.12] A-57 (3): the crew abandons its guns and retreats as a crew: the guns are left where they stood, the
      // battery is gone (guns lost, A-79) and its crew runs to the rear at its next move (A-51, as from a lost close
      // action); it has no reform roll (a crew is a piece, not a unit)
      if (c.abandon) {
        log?.push({
          rule: 'p.12',
          text: `${f.unit} abandons its guns and retreats as a crew (A-57): the guns are left, its crew runs (A-51)`,
        });
        return abandonGuns(t, f.unit, 'retreating');
      }
      // [p.12] A-57 (1): the battery limbers (1 action: +1 recovery action) and retreats with its guns
      if (c.limber) {
        log?.push({ rule: 'p.12', text: `${f.unit} limbers its guns to retreat (A-57: +1 recovery action)` });
        t = updUnit(t, f.unit, { formation: 'limbered', massed: false });
      }
      if (c.at) {
        log?.push({
          rule: 'p.12',
          text: `${f.unit} retreats ${c.inches}" ${a.startsWith('retreat away') ? `away from the enemy${a.includes('30') ? `, ${a.split(' ')[1]!.slice(4)}°` : ''} (§8.3.7, A-67)` : 'toward its home edge (A-67)'}`,
        });
        t = updUnit(t, f.unit, { x: c.at.x, y: c.at.y, facing: c.at.facing });
        // [p.12] forced through friendly units: they are disordered (one action to reform)
        if (c.through?.length) {
          log?.push({ rule: 'p.12', text: `${f.unit} is forced through ${c.through.join(', ')}: disordered` });
          for (const o of c.through) t = updUnit(t, o, { disordered: true });
        }
      } else
        log?.push({
          rule: 'p.12',
          text: `${f.unit} stands in place in retreat status${specOf(t, f.unit).kind === 'artillery' && unitOf(t, f.unit).formation === 'unlimbered' ? ', its guns unlimbered (A-57: 0")' : ''}`,
        });
      return push(t, { t: 'reformRoll', unit: f.unit, inches: c.inches, ...(c.limber ? { limber: true } : {}) });
    },
    describe: (_s, f) => `${f.unit} retreats [p.12]: where is its recovery area?`,
  },
  reformRoll: {
    kind: 'chance',
    outcomes: (s, f) =>
      recoveryDist(retreatInput(s, f.unit, f.inches, f.limber)).map((d) => ({
        action: `reform ${d.value}`,
        p: d.p,
        label: `${d.value} recovery action${d.value === 1 ? '' : 's'}`,
      })),
    step(s, f, a, log) {
      const n = Number(a.slice('reform '.length));
      log?.push({
        rule: 'p.12',
        text: `${f.unit} is in retreat status: ${n} recovery action${n === 1 ? '' : 's'} owed`,
      });
      return updUnit(s, f.unit, { recovery: n });
    },
    describe: (_s, f) => `${f.unit}: the reform roll, 1D6 with its modifiers [p.12]`,
  },
  counter: {
    kind: 'decision',
    owner: (f, s) => unitOf(s, f.cavalry).side,
    legal: () => ['counter-charge', 'hold'],
    skip: (s, f) => counterContact(s, f.cavalry, f.mover) === null && meetingClose(s, f.cavalry, f.mover) < 0,
    step(s, f, a) {
      return a === 'hold' ? s : push(s, { t: 'counterCheck', cavalry: f.cavalry, mover: f.mover });
    },
    describe: (_s, f) => `${f.cavalry}: ${f.mover} came into its front: counter-charge it? [p.15]`,
  },
  counterCheck: {
    kind: 'chance',
    outcomes: (s, f) =>
      counterChargeCheck(parseRating(specOf(s, f.cavalry).rating).morale).dist.map((d) => ({
        action: `counter ${d.value}`,
        p: d.p,
        label: d.value,
      })),
    step(s, f, a, log) {
      const cav = unitOf(s, f.cavalry);
      if (a === 'counter stays') {
        log?.push({ rule: 'p.15', text: `${f.cavalry} fails its counter-charge check and stays` });
        // it loses its stand marker; unactivated, it counts as activated with one action used, one kept as a stand
        return updUnit(s, f.cavalry, cav.activated ? { stand: false } : { activated: true, halves: 2, stand: true });
      }
      // [p.15] A-64: the charge on the cavalry itself is met head on: the counter-charge check replaces its step 2
      // check, it has no defence action, and both count as chargers at step 8; its one action is spent
      const meet = meetingClose(s, f.cavalry, f.mover);
      if (meet >= 0) {
        log?.push({
          rule: 'p.15',
          text: `${f.cavalry} counter-charges ${f.mover}, which charges it: the charges meet (A-64: no step 2 check, no defence action)`,
        });
        const t = updUnit(s, f.cavalry, { stand: false, activated: true, halves: Math.max(cav.halves, 2) });
        return { ...t, closes: t.closes.map((x, k) => (k === meet ? { ...x, counter: true } : x)) };
      }
      const ct = counterContact(s, f.cavalry, f.mover);
      if (!ct) return s;
      const mover = unitOf(s, f.mover);
      log?.push({ rule: 'p.15', text: `${f.cavalry} counter-charges ${f.mover} (A-64)` });
      const contact = contactOf(s, cav, mover, ct);
      let t = updUnit(s, f.cavalry, {
        x: ct.at.x,
        y: ct.at.y,
        facing: ct.at.facing,
        activated: true,
        halves: 2,
        stand: false,
        locked: true,
      });
      // A-64: the mover's activation ends there; a full unused action becomes a stand marker
      const idx = t.stack.map((x) => x.t === 'act' && x.unit === f.mover).lastIndexOf(true);
      if (idx >= 0) t = { ...t, stack: [...t.stack.slice(0, idx), ...t.stack.slice(idx + 1)] };
      t = updUnit(t, f.mover, { locked: true, stand: unitOf(t, f.mover).halves <= BUDGET - 2 });
      return { ...t, closes: [...t.closes, contact] };
    },
    describe: (_s, f) => `${f.cavalry}'s counter-charge check: its morale rating, no modifiers [p.15]`,
  },
  leaderLoss: {
    kind: 'chance',
    outcomes: (_s, f) =>
      f.upTo >= 10
        ? [{ action: 'leader lost', p: 1, label: 'lost' }]
        : [
            { action: 'leader lost', p: f.upTo / 10, label: `lost (D10 ≤ ${f.upTo})` },
            { action: 'leader safe', p: 1 - f.upTo / 10, label: 'safe' },
          ],
    step(s, f, a, log) {
      if (a === 'leader safe') return s;
      log?.push({ rule: 'p.16', text: `${f.leader} is lost; a staff officer takes his place` });
      return { ...s, leaders: s.leaders.map((l) => (l.id === f.leader ? { ...l, lost: true } : l)) };
    },
    describe: (_s, f) => `the leader loss roll for ${f.leader}: D10, lost on ${f.upTo} or less [p.16]`,
  },
  step10: { kind: 'auto', run: (s, _f, log) => moraleStep(s, log) },
  nextMorale: { kind: 'auto', run: (s, _f, log) => nextMorale(s, log) },
  step9: { kind: 'auto', run: (s, _f, log) => step9(s, log) },
  ...blockHandlers,
  leader: {
    kind: 'decision',
    owner: (f, s) => leaderOf(s, f.id).side,
    legal: (s, f) => leaderMoves(s, f.id).map((m) => m.key),
    step(s, f, a, log) {
      const m = leaderMoves(s, f.id).find((x) => x.key === a)!;
      if (a === 'appoint grand battery') return appoint(s, f.id, m.to, log);
      if (a !== 'stay')
        log?.push({
          rule: a.startsWith('go ') ? 'A-21' : 'p.4 step 8',
          text: `${f.id} ${
            a === 'leave'
              ? 'leaves his unit'
              : a === 'go centre'
                ? `rides to the centre of his command (${inches(Math.hypot(m.to.x! - leaderAt(s, f.id).x, m.to.y! - leaderAt(s, f.id).y))}, unattached)`
                : a === 'go superior'
                  ? `rides toward his superior (${inches(Math.hypot(m.to.x! - leaderAt(s, f.id).x, m.to.y! - leaderAt(s, f.id).y))}, unattached)`
                  : `joins ${a.slice(5)}`
          }`,
        });
      return { ...s, leaders: s.leaders.map((l) => (l.id === f.id ? { ...l, ...m.to } : l)) };
    },
    describe: (s, f) => `step 8: where does ${f.id} go? (up to ${s.sc.options.leaderMove}", A-21)`,
  },
  // [p.10] A-56 the staff officer in an appointed grand battery commander's old post: his step 8 move
  staffOfficer: {
    kind: 'decision',
    owner: (f, s) => leaderOf(s, f.leader).side,
    legal: (s, f) => staffMoves(s, f.leader).map((m) => m.key),
    step(s, f, a, log) {
      const m = staffMoves(s, f.leader).find((x) => x.key === a)!;
      if (a === 'stay') return s;
      const from = appointmentOf(s, f.leader)!;
      log?.push({
        rule: 'A-21',
        text: `${staffId(f.leader)} rides ${a === 'go centre' ? 'to the centre of his command' : 'toward his superior'} (${inches(Math.hypot(m.to.x! - from.x, m.to.y! - from.y))}) [p.10, p.16]`,
      });
      return {
        ...s,
        appointed: s.appointed!.map((x) => (x.leader === f.leader ? { ...x, x: m.to.x!, y: m.to.y! } : x)),
      };
    },
    describe: (s, f) =>
      `step 8: where does ${staffId(f.leader)}, holding ${f.leader}'s old command, go? (up to ${s.sc.options.leaderMove}", A-21)`,
  },
  // [p.10] A-56 step 1: an unlimbered battery within a grand battery officer's radius may be declared a member
  grandBattery: {
    kind: 'decision',
    owner: (f, s) => unitOf(s, f.unit).side,
    legal: () => ['join grand battery', 'stay'],
    step(s, f, a, log) {
      if (a !== 'join grand battery') return s;
      log?.push({
        rule: 'A-56',
        text: `${f.unit} joins ${f.officer}'s grand battery: from now on under his command, not ${specOf(s, f.unit).commander}'s, for out-of-command purposes [p.10]`,
      });
      return { ...s, gbMembers: { ...s.gbMembers, [f.unit]: f.officer } };
    },
    describe: (_s, f) =>
      `step 1: ${f.unit} is unlimbered within ${f.officer}'s command radius: does it join his grand battery? (A-56)`,
  },
  grandBatteryDone: { kind: 'auto', run: (s, _f, log) => stepOne(s, log) },
  threshold: {
    kind: 'chance',
    outcomes: (s, f) =>
      thresholdDist(thresholdInput(s, f.side, f.division, f.influence)).map((d) => ({
        action: `threshold ${d.label}`,
        p: d.p,
        label: d.label,
      })),
    step(s, f, a, log) {
      const pass = a.startsWith('threshold pass');
      const who = f.division === null ? `${s.sc.sides[f.side]!.name}' army` : `division ${f.division}`;
      // [p.11] the division's −3 when it is out of command-and-control at the start of the turn
      const ooc = f.division !== null && divisionOutOfCommand(s, f.side, f.division);
      log?.push({
        rule: 'p.11',
        text: `${who} ${pass ? 'passes' : 'fails'} its threshold roll${ooc ? ' (−3: the division is out of command)' : ''}${f.influence ? ` (+${f.influence}: its leader's influence, note 1)` : ''}${pass ? '' : ': −4 to its morale this turn'}`,
      });
      let t = s;
      // [p.11] note 1: the influencing leader's D10 came up at or under his influence: a staff officer replaces him
      if (a.endsWith('leader lost')) {
        const l = thresholdLeader(s, f.side, f.division)!;
        log?.push({
          rule: 'p.11',
          text: `${l.id} becomes a casualty (D10 ≤ ${f.influence}); a staff officer takes his place (note 1)`,
        });
        t = { ...t, leaders: t.leaders.map((x) => (x.id === l.id ? { ...x, lost: true } : x)) };
      }
      if (f.division === null) {
        if (!pass) {
          t = { ...t, armyFailed: f.side === 0 ? [true, t.armyFailed[1]] : [t.armyFailed[0], true] };
          // both armies failing at the same turn's start: neither wins (a reading; A-79 does not say)
          if (s.sc.victory.suddenDeath)
            t = { ...t, conceded: t.conceded === null ? f.side : t.conceded === f.side ? f.side : 'both' };
        } else {
          // [p.11] only an army that passed checks its divisions
          const divisions = s.sc.sides[f.side]!.leaders.filter((l) => l.rank === 'division').map((l) => l.id);
          const due = divisions.filter((d) =>
            thresholdRollDue(thresholdUnits(s, f.side, d), s.sc.options.thresholdFraction),
          );
          t = push(t, ...due.reverse().flatMap((d) => thresholdFrames(f.side, d)));
        }
      } else if (!pass) t = { ...t, divisionsFailed: [...t.divisionsFailed, f.division] };
      // the last roll of the turn start: the period begins
      return t.stack.some((x) => x.t === 'threshold') ? t : afterThresholds(t, log);
    },
    describe: (s, f) =>
      `threshold roll [p.11]: ${f.division === null ? `${s.sc.sides[f.side]!.name}' army` : `division ${f.division}`}`,
  },
  thresholdInfluence: {
    kind: 'decision',
    owner: (f) => f.side,
    // [p.11] note 1: "may add up to a +6 modifier": 0..6, the D10 risk rising with it
    legal: () => [0, 1, 2, 3, 4, 5, 6].map((i) => `influence ${i}`),
    skip: (s, f) => !influenceAllowed(s, f.side, f.division),
    step(s, f, a, log) {
      const influence = Number(a.slice('influence '.length));
      const top = s.stack[s.stack.length - 1];
      if (!influence || top?.t !== 'threshold') return s;
      log?.push({
        rule: 'p.11',
        text: `${thresholdLeader(s, f.side, f.division)!.id} adds +${influence} to the threshold roll, at the risk of a D10 ≤ ${influence} (note 1, A-70)`,
      });
      return { ...s, stack: [...s.stack.slice(0, -1), { ...top, influence }] };
    },
    describe: (s, f) =>
      `threshold roll [p.11]: how much influence does ${thresholdLeader(s, f.side, f.division)?.id} add (0-6, lost on a D10 ≤ it)?`,
  },
  // A-19 step 12: (b) caisson resupply [p.11] and (c) fires [p.20] first, with those rules
  endPeriod: {
    kind: 'auto',
    run: (s, f, log) => (f.done || !(s.sc.options.caissons || s.sc.options.fires) ? endPeriod(s, log) : step12(s, log)),
  },
  closeCheck: {
    kind: 'chance',
    // [p.13-14] one check however many charged (A-65); against cavalry on foot or guns a failure is a ride-down (A-60),
    // two checks against cavalry in echelon [p.7]
    outcomes: (s, f) => {
      const c = s.closes[f.close]!;
      return defenderCheck(closeMorale(s, c, 'defender'), {
        cavalryVsInfantryOrArtillery: c.rideDown,
        echelon: c.rideDown && unitOf(s, c.charger).formation === 'echelon',
      }).dist.map((d) => ({ action: `defender ${d.value}`, p: d.p, label: d.value }));
    },
    step(s, f, a, log) {
      const c = s.closes[f.close]!;
      const group = f.group ?? [f.close];
      const r = a.slice('defender '.length);
      const by = group.map((i) => s.closes[i]!.charger).join(' and ');
      log?.push({
        rule: c.rideDown ? 'p.14 step 2' : 'p.13 step 2',
        text: `${c.defender}, charged by ${by}: ${r}${group.length > 1 ? ' (one check for all its chargers, A-65)' : ''}`,
      });
      if (r === 'stands') {
        const t = closeRest(s, group);
        // [p.13 step 3] a defender with a stand marker (or an unused action) has a defence action
        return defenceOptions(t, f.close, group).length > 1
          ? push(t, { t: 'defence', close: f.close, ...(group.length > 1 ? { group } : {}) })
          : t;
      }
      // [p.14] ridden down at step 2 by the first cavalry (A-60); its other chargers' close actions are then cancelled
      if (r === 'riddenDown' || r === 'riddenDownRouts')
        return push(
          s,
          ...group
            .slice(1)
            .map((i) => ({ t: 'closeGroup' as const, closes: [i] }))
            .reverse(),
          { t: 'rideDown', close: f.close, from: 'failed' },
        );
      // the defender gives way: the close actions are over before they are fought [p.13]
      let t = updUnit(s, c.defender, { locked: false, marked: 0 });
      for (const i of group) {
        const x = s.closes[i]!;
        t = updUnit(t, x.charger, { locked: false, marked: 0 });
        // [p.15] the charger has won it: cavalry checks for loss of control (a reading: the book's "after winning")
        t = cavalryWon(t, x.charger, { byOutOfControl: x.outOfControl === true, riddenDown: false, destroyed: false });
      }
      return r === 'routs' ? rout(t, c.defender, log) : enterRetreat(t, c.defender);
    },
    describe: (s, f) => `step 2: ${s.closes[f.close]!.defender} checks morale against the charge [p.13]`,
  },
  closeGroup: { kind: 'auto', run: (s, f, log) => closeGroup(s, f.closes, log) },
  defence: {
    kind: 'decision',
    owner: (f, s) => unitOf(s, s.closes[f.close]!.defender).side,
    legal: (s, f) => defenceOptions(s, f.close, f.group ?? [f.close]).map((o) => o.key),
    step(s, f, a, log) {
      const group = f.group ?? [f.close];
      const o = defenceOptions(s, f.close, group).find((x) => x.key === a)!;
      if (o.kind === 'none') return s;
      const c = s.closes[o.close]!;
      const rule = c.rideDown ? 'p.14 step 4' : c.screen ? 'p.19' : 'p.13 step 4';
      if (o.kind === 'abandon') return abandonAgainst(s, o.close, log);
      if (o.kind === 'fire') {
        const shot0 = defenceShot(s, c)!;
        const shot = o.rapid ? { ...shot0, rapid: true } : shot0;
        if (o.rapid)
          log?.push({
            rule: 'p.10',
            text: `${c.defender} declares rapid fire for its defence action: casualties doubled, its fatigue rises (A-49)`,
          });
        log?.push({
          rule,
          text: `${c.defender} uses its defence action: it fires at ${c.charger}${c.screen ? ' (A-61)' : ''}`,
        });
        return push(updUnit(s, c.defender, { stand: false }), {
          t: 'fire',
          firer: c.defender,
          shot: smoked(s, c.defender, weathered(s, shot)),
        });
      }
      log?.push({
        rule,
        text: `${c.defender} uses its defence action to ${o.kind === 'face' ? `face ${c.charger}` : o.refuse ? `refuse its ${o.refuse} flank (p.7)` : `form ${o.to}`}: a morale check (A-58)`,
      });
      return push(updUnit(s, c.defender, { stand: false }), {
        t: 'defenceChange',
        close: o.close,
        change: o.kind === 'face' ? 'face' : o.refuse ? `refused ${o.refuse}` : o.to!,
        group,
      });
    },
    describe: (s, f) =>
      `${s.closes[f.close]!.defender}: use its defence action to fire at ${s.closes[f.close]!.charger}? [p.13]`,
  },
  defenceChange: {
    kind: 'chance',
    outcomes: (s, f) =>
      defenceChangeCheckOf(s, f.close).dist.map((d) => ({
        action: `defence ${d.value}`,
        p: d.p,
        label: d.value,
      })),
    step(s, f, a, log) {
      const c = s.closes[f.close]!;
      const check = defenceChangeCheckOf(s, f.close);
      const mods = check.mods.map((m) => `${m.value > 0 ? '+' : ''}${m.value} ${m.id}`).join(', ');
      const rule = c.rideDown ? 'p.14 step 4' : 'p.13 step 4';
      if (a === 'defence disordered') {
        log?.push({
          rule,
          text: `${c.defender} fails its check (${check.target}${mods ? `: ${mods}` : ''}): disordered, no change (A-58)`,
        });
        return updUnit(s, c.defender, { disordered: true });
      }
      log?.push({
        rule,
        text: `${c.defender} passes its check (${check.target}${mods ? `: ${mods}` : ''}): it ${f.change === 'face' ? `faces ${c.charger}` : `forms ${f.change}`} (A-58)`,
      });
      if (f.change === 'refused left' || f.change === 'refused right')
        return refuseAgainst(s, f.group, f.change === 'refused left' ? 'left' : 'right');
      return f.change === 'face' ? faceCharge(s, f.close) : formAgainst(s, f.group, f.change as Formation);
    },
    describe: (s, f) =>
      `${s.closes[f.close]!.defender}: the morale check of its defence ${f.change === 'face' ? 'facing' : 'formation'} change [p.13-14]`,
  },
  rideDown: {
    kind: 'chance',
    outcomes: (s, f) =>
      !closeAlive(s, s.closes[f.close]!)
        ? [{ action: 'charge cancelled', p: 1, label: 'one side is gone: cancelled (A-65)' }]
        : resolveCavalryCharge(rideDownInput(s, s.closes[f.close]!, f.from)).map((d) => ({
            action: `cavalry ${rideKey(d.value)}`,
            p: d.p,
            label: rideKey(d.value),
          })),
    step(s, f, a, log) {
      const c = s.closes[f.close]!;
      if (a === 'charge cancelled') return cancelClose(s, c, log);
      const o = resolveCavalryCharge(rideDownInput(s, c, f.from)).find(
        (d) => `cavalry ${rideKey(d.value)}` === a,
      )!.value;
      log?.push({ rule: 'p.14', text: `${c.charger} charges ${c.defender}: ${rideKey(o)}` });
      let t = s;
      for (const [id, lost, tired] of [
        [c.charger, o.cavalryLosses, o.cavalryFatigue],
        [c.defender, o.defenderLosses, o.defenderFatigue],
      ] as const) {
        const u = unitOf(t, id);
        t = updUnit(t, id, { locked: false, marked: 0, fatigue: fatigueAfter(u.fatigue, tired) });
        t = closeCasualties(t, id, lost);
      }
      if (o.result === 'defenderRiddenDown') {
        // [p.15] a ride-down is a win: the cavalry checks for loss of control (after the defender's retreat), +1 for
        // the ride-down, +1 if its casualties destroyed the unit (guns abandoned are not "completely destroyed")
        t = cavalryWon(t, c.charger, {
          byOutOfControl: c.outOfControl === true,
          riddenDown: true,
          destroyed: unitOf(t, c.defender).status === 'eliminated',
        });
        // [p.14] ridden-down artillery abandons its guns
        if (specOf(t, c.defender).kind === 'artillery') {
          t = abandonGuns(t, c.defender, 'retreating');
          log?.push({ rule: 'p.10', text: `${c.defender}'s guns are abandoned: its crew runs (A-51)` });
        } else if (o.defender === 'routs') t = rout(t, c.defender, log);
        else if (o.defender === 'retreats') t = enterRetreat(updUnit(t, c.defender, { riddenDown: true }), c.defender);
      }
      // turned back by a square or a held line: the cavalry retreats, with no check (CLOSE_READINGS 8)
      if (o.result === 'cavalryTurnedBack') t = enterRetreat(t, c.charger);
      return t;
    },
    describe: (s, f) => `${s.closes[f.close]!.charger} charges home on ${s.closes[f.close]!.defender} [p.14]`,
  },
  closeFight: {
    kind: 'chance',
    // a unit gone before the melee (its defence fire, A-43) ends the close action
    outcomes: (s, f) =>
      !closeAlive(s, s.closes[f.close]!)
        ? [{ action: 'melee cancelled', p: 1, label: 'one side is gone: no melee' }]
        : resolveCloseAction(closeInput(s, s.closes[f.close]!, f.refight || f.closed === true)).map((d) => ({
            action: `melee ${closeKey(d.value)}`,
            p: d.p,
            label: closeKey(d.value),
          })),
    step(s, f, a, log) {
      const c = s.closes[f.close]!;
      if (a === 'melee cancelled') return cancelClose(s, c, log);
      const o = resolveCloseAction(closeInput(s, c, f.refight || f.closed === true)).find(
        (d) => `melee ${closeKey(d.value)}` === a,
      )!.value;
      if (o.melee === 'refight') return refightNextPeriod(closeLosses(s, c, o, true), f.close, log);
      log?.push({ rule: 'p.13 steps 5-9', text: `${c.charger} against ${c.defender}: ${closeKey(o)}` });
      let t = closeLosses(s, c, o, false);
      const loser = o.winner === 'charger' ? c.defender : o.winner === 'defender' ? c.charger : null;
      // [p.15] a winning cavalry unit checks for loss of control (after the loser's retreat)
      if (loser)
        t = cavalryWon(t, o.winner === 'charger' ? c.charger : c.defender, {
          byOutOfControl: o.winner === 'charger' && c.outOfControl === true,
          riddenDown: false,
          destroyed: unitOf(t, loser).status === 'eliminated',
        });
      if (loser && o.loser) {
        t = o.loser === 'routs' ? rout(t, loser, log) : enterRetreat(t, loser);
        log?.push({ rule: 'p.13 step 8', text: `${loser} ${o.loser === 'routs' ? 'routs' : 'retreats'}` });
      }
      const winner = o.winner === 'charger' ? c.charger : o.winner === 'defender' ? c.defender : null;
      // [p.12] a winner in retreat status recovers at once
      if (winner && o.winnerRecovers) t = updUnit(t, winner, { retreating: false });
      if (o.gunsAbandoned && loser) {
        t = abandonGuns(t, loser, 'retreating');
        log?.push({ rule: 'p.10', text: `${loser}'s guns are abandoned: its crew runs (A-51)` });
      }
      return t;
    },
    describe: (s, f) => `steps 5-9: ${s.closes[f.close]!.charger} closes with ${s.closes[f.close]!.defender} [p.13]`,
  },
  multiClose: {
    kind: 'chance',
    // [p.13 step 5] "each charger makes its own step 5 check" (A-65)
    outcomes: (s, f) => {
      const c = s.closes[f.closes[f.k]!]!;
      if (!closeAlive(s, c)) return [{ action: 'charger cancelled', p: 1, label: 'one side is gone (A-65)' }];
      return chargerCheck(closeMorale(s, c, 'charger'), {
        cavalry: specOf(s, c.charger).kind === 'cavalry',
        outOfControl: c.outOfControl,
      }).dist.map((d) => ({ action: `charger ${d.value}`, p: d.p, label: `${c.charger} ${d.value}` }));
    },
    step(s, f, a, log) {
      const i = f.closes[f.k]!;
      const c = s.closes[i]!;
      let t = s;
      let closed = f.closed;
      if (a === 'charger cancelled') t = cancelClose(t, c, log);
      else if (a === 'charger fails') {
        const cav = specOf(t, c.charger).kind === 'cavalry';
        log?.push({
          rule: 'p.13 step 5',
          text: `${c.charger} fails to close with ${c.defender}: it halts${cav ? ' (+1 fatigue)' : ''}`,
        });
        const u = unitOf(t, c.charger);
        t = updUnit(t, c.charger, { locked: false, ...(cav ? { fatigue: fatigueAfter(u.fatigue, 1) } : {}) });
      } else {
        log?.push({ rule: 'p.13 step 5', text: `${c.charger} closes with ${c.defender}` });
        closed = [...closed, i];
      }
      if (f.k + 1 < f.closes.length) return push(t, { ...f, k: f.k + 1, closed });
      if (!closed.length) return updUnit(t, c.defender, { locked: false });
      // one charger left closing: the one-to-one melee from step 6
      if (closed.length === 1) return push(t, { t: 'closeFight', close: closed[0]!, refight: false, closed: true });
      return push(t, { t: 'multiMelee', closes: closed });
    },
    describe: (s, f) => `step 5: ${s.closes[f.closes[f.k]!]!.charger} checks morale to close [p.13]`,
  },
  multiMelee: {
    kind: 'chance',
    outcomes: (s, f) =>
      severalChargersMelee(meleePairs(s, f.closes), s.sc.options.defenderMeleeDice).map((d) => ({
        action: `melee ${multiKey(s, f.closes, d.value)}`,
        p: d.p,
        label: multiKey(s, f.closes, d.value),
      })),
    step(s, f, a, log) {
      const r = severalChargersMelee(meleePairs(s, f.closes), s.sc.options.defenderMeleeDice).find(
        (d) => `melee ${multiKey(s, f.closes, d.value)}` === a,
      )!.value;
      const pairs = meleePairs(s, f.closes);
      const d = s.closes[f.closes[0]!]!.defender;
      log?.push({
        rule: 'p.13 step 6',
        text: `${d} against ${f.closes.length} chargers (A-65: ${s.sc.options.defenderMeleeDice === 'perCharger' ? 'a defender die per charger' : 'one defender die for all'}; MV ${f.closes
          .map((i, k) => `${s.closes[i]!.charger} ${pairs[k]!.charger.mv} v ${pairs[k]!.defender.mv}`)
          .join(', ')}): ${multiKey(s, f.closes, r)}`,
      });
      return push(
        s,
        { t: 'multiLosers', closes: f.closes, results: r },
        ...f.closes.map((i, k) => ({ t: 'multiCasualty' as const, close: i, result: r[k]! })).reverse(),
      );
    },
    describe: (s, f) =>
      `step 6: ${s.closes[f.closes[0]!]!.defender}'s melee against its ${f.closes.length} chargers [p.13]`,
  },
  multiCasualty: {
    kind: 'chance',
    outcomes: (s, f) =>
      pairCasualties(s, f.close, f.result).map((d) => ({
        action: `casualties ${d.value[0]}/${d.value[1]}`,
        p: d.p,
        label: `${s.closes[f.close]!.charger} loses ${d.value[0]}, ${s.closes[f.close]!.defender} ${d.value[1]}`,
      })),
    step(s, f, a, log) {
      const c = s.closes[f.close]!;
      const [toC, toD] = a.slice('casualties '.length).split('/').map(Number) as [number, number];
      log?.push({
        rule: 'p.13 step 7',
        text: `${c.charger} against ${c.defender}: casualties ${toC} to ${c.charger}, ${toD} to ${c.defender} (one die each way, A-65)`,
      });
      let t = s;
      for (const [id, lost] of [
        [c.charger, toC],
        [c.defender, toD],
      ] as const) {
        if (unitOf(t, id).status !== 'active' || lost <= 0) continue;
        t = closeCasualties(t, id, lost);
      }
      return t;
    },
    describe: (s, f) =>
      `step 7: the casualty dice of ${s.closes[f.close]!.charger} and ${s.closes[f.close]!.defender} [p.13]`,
  },
  multiLosers: { kind: 'auto', run: (s, f, log) => multiLosers(s, f.closes, f.results, log) },
  closeLoser: {
    kind: 'chance',
    outcomes: (s, f) =>
      loserCheckOf(s, f.close, f.who).dist.map((d) => ({ action: `loser ${d.value}`, p: d.p, label: d.value })),
    step(s, f, a, log) {
      const c = s.closes[f.close]!;
      const id = f.who === 'charger' ? c.charger : c.defender;
      if (unitOf(s, id).status !== 'active') return s;
      const r = a.slice('loser '.length);
      log?.push({
        rule: 'p.13 step 8',
        text: `${id} lost: ${r}${f.who === 'charger' ? ' (+2: it charged)' : ''}`,
      });
      let t = r === 'routs' ? rout(s, id, log) : enterRetreat(s, id);
      if (specOf(t, id).kind === 'artillery' && unitOf(t, id).status === 'active') {
        t = abandonGuns(t, id, 'retreating');
        log?.push({ rule: 'p.10', text: `${id}'s guns are abandoned: its crew runs (A-51)` });
      }
      return t;
    },
    describe: (s, f) =>
      `step 8: ${f.who === 'charger' ? s.closes[f.close]!.charger : s.closes[f.close]!.defender} lost: its morale check [p.13]`,
  },
  screenCharge: {
    kind: 'chance',
    outcomes: (s, f) =>
      !closeAlive(s, s.closes[f.close]!)
        ? [{ action: 'charge cancelled', p: 1, label: 'one side is gone: cancelled (A-65)' }]
        : cavalryVsScreen(screenInput(s, f.close)).map((d) => ({
            action: `screen ${screenKey(d.value)}`,
            p: d.p,
            label: screenKey(d.value),
          })),
    step(s, f, a, log) {
      const c = s.closes[f.close]!;
      if (a === 'charge cancelled') return cancelClose(s, c, log);
      const o = cavalryVsScreen(screenInput(s, f.close)).find((d) => `screen ${screenKey(d.value)}` === a)!.value;
      log?.push({ rule: 'p.19', text: `${c.charger} charges the screen ${c.defender} (A-61): ${screenKey(o)}` });
      const cav = unitOf(s, c.charger);
      let t = updUnit(s, c.charger, { locked: false, fatigue: fatigueAfter(cav.fatigue, 1) });
      t = updUnit(t, c.defender, { locked: false });
      if (!o.closed) return t;
      const scr = unitOf(t, c.defender);
      const figures = Math.max(0, scr.figures - o.removed);
      t = updUnit(t, c.defender, { figures, marked: 0 });
      t = leaderRoll(t, c.defender, leaderLossMaxRoll(o.removed));
      if (o.screen === 'gone' || figures < 2) t = updUnit(t, c.defender, { status: 'eliminated' });
      // A-61: the cavalry counts as the winner for the out-of-control roll
      t = cavalryWon(t, c.charger, {
        byOutOfControl: c.outOfControl === true,
        riddenDown: false,
        destroyed: unitOf(t, c.defender).status === 'eliminated',
      });
      if (unitOf(t, c.defender).status !== 'active') return t;
      if (o.screen === 'routs') return rout(t, c.defender, log);
      if (o.screen === 'retreats') return enterRetreat(t, c.defender);
      return t;
    },
    describe: (s, f) =>
      `${s.closes[f.close]!.charger} charges the skirmish screen ${s.closes[f.close]!.defender} [p.19]`,
  },
  fire: {
    kind: 'chance',
    // the scenario's options: the carbine rule [p.15], company skirmishers [p.18] and the ADAPTATIONs' readings
    outcomes: (s, f) =>
      resolveFire(f.shot, s.sc.options).outcomes.map((o) => ({
        action: `fire ${outcomeKey(o.value)}`,
        p: o.p,
        label: o.label,
      })),
    step(s, f, a, log) {
      const r = resolveFire(f.shot, s.sc.options);
      const o = r.outcomes.find((x) => `fire ${outcomeKey(x.value)}` === a)!;
      const mods = r.rolls
        .flatMap((x) => x.modifiers.map((m) => `${m.value > 0 ? '+' : ''}${m.value} ${m.id}`))
        .join(', ');
      log?.push({
        rule:
          f.shot.type === 'smallArms'
            ? f.shot.weapon === 'carbine'
              ? 'p.15'
              : 'p.9'
            : f.shot.type === 'buildingFireOut'
              ? 'p.19'
              : 'p.8',
        text: `${f.firer} fires ${shotText(f.shot)}: ${o.label}${mods ? ` (${mods})` : ''}`,
      });
      // [p.20] optional weather: the musket modifier (A-42: rifles and carbines too, never canister)
      const wet = r.rolls.flatMap((x) => x.modifiers).find((m) => /Rain$|Snow$/.test(m.id));
      if (wet)
        log?.push({
          rule: 'p.20',
          text: `the weather (${wet.id}) gives ${f.firer}'s small arms ${wet.value} (A-42: muskets, rifles and carbines)`,
        });
      if (f.shot.type === 'smallArms' && f.shot.screen)
        log?.push({
          rule: 'p.19',
          text: `the screen ${f.shot.screen.unit.id} is between ${f.firer} and its target: a quarter of the fire at it (−3), three quarters at the target`,
        });
      if (f.secondBounce?.length)
        log?.push({
          rule: 'p.24',
          text: `the ball's second bounce (A-52: from 1.5 to 2 first bounces past the point of aim) puts ${f.secondBounce.join(', ')} at risk`,
        });
      if ('throughSmoke' in f.shot && f.shot.throughSmoke)
        log?.push({
          rule: 'p.20',
          text: `${f.firer} fires through smoke: ${f.shot.type === 'solidShot' ? '−1 on its hit dice' : '−2'} (A-78)`,
        });
      let t = s;
      // [p.20] optional smoke: a unit that fired two actions in its activation places smoke (skirmishers never do)
      // (a block firing out [p.19] is no unit: it makes none)
      const firer = t.units.find((u) => u.id === f.firer);
      if (
        t.sc.options.smoke &&
        !('defence' in f.shot && f.shot.defence) &&
        firer?.fired === 2 &&
        firer.status === 'active' &&
        !(f.shot.type === 'smallArms' && f.shot.skirmishScreen)
      ) {
        // (a new units array: the menus, kept per units array, see the smoke)
        t = { ...t, units: [...t.units], smoke: [...(t.smoke ?? []), smokeCloud(t, f.firer)] };
        log?.push({
          rule: 'p.20',
          text: `${f.firer} has fired two actions: smoke 2" deep across its front until the end of the next period (A-78)`,
        });
      }
      // [p.11] the battery's ammunition dice
      if (o.value.ammo) t = updUnit(t, f.firer, { ammo: o.value.ammo.level });
      // [p.10] rapid fire: the battery's fatigue rises by three after firing (A-49)
      if (o.value.fatigue) {
        t = updUnit(t, f.firer, { fatigue: o.value.fatigue.to });
        log?.push({
          rule: 'p.10',
          text: `${f.firer} fired rapid fire: casualties doubled, fatigue ${o.value.fatigue.from} → ${o.value.fatigue.to}, the ammunition dice doubled (A-49)`,
        });
      }
      for (const e of o.value.targets) {
        // [p.10] A-51 a crew in the open fired on: its casualties are figures off, at 0 it is gone
        if (isCrewTarget(e.id)) {
          t = crewHit(t, e.id, e.casualties, f.firer, log);
          continue;
        }
        // [p.11] a caisson fired on: two casualties destroy it
        if (isCaisson(t, e.id)) {
          t = caissonHit(t, e.id, e.casualties, e.eliminated, f.firer, log);
          continue;
        }
        const u = unitOf(t, e.id);
        if (specOf(t, e.id).kind === 'artillery') {
          // [p.10] A-50 a battery's casualties are crew hits: it moves and fires with all its guns until they
          // neutralise it; then it is eliminated and its guns are left abandoned
          t = updUnit(t, e.id, {
            hits: (u.hits ?? 0) + e.casualties,
            ...(e.eliminated ? { status: 'eliminated' as const, gunsLost: true } : {}),
          });
          // A-50 its guns stay on the table, abandoned (A-51: no crew is left to man them)
          if (e.eliminated && u.status === 'active') t = abandonGuns(t, e.id, 'none');
          if (e.casualties)
            log?.push({
              rule: 'p.10',
              text: `${e.id} takes ${e.casualties} crew hit${e.casualties === 1 ? '' : 's'} (${(u.hits ?? 0) + e.casualties} in all)${e.eliminated ? ': neutralised, eliminated, its guns abandoned (A-50)' : ''}`,
            });
        } else {
          const figures = Math.max(0, u.figures - e.casualties);
          // A-43 a unit below 2 figures is gone
          t = updUnit(t, e.id, { figures, ...(e.eliminated ? { status: 'eliminated' as const } : {}) });
        }
        // [p.20] fire into a block: its casualties come from that block's figures
        if (inTown(u) && e.casualties > 0) t = townLosses(t, e.id, e.casualties);
        if (e.moraleReasons.length) {
          const had = unitOf(t, e.id).reasons;
          t = updUnit(t, e.id, { reasons: [...new Set([...had, ...e.moraleReasons])] });
        }
        t = leaderRoll(t, e.id, e.leaderLossUpTo);
        if (e.eliminated) log?.push({ rule: 'A-43', text: `${e.id} is eliminated` });
        else if (e.moraleMark && !unitOf(t, e.id).marked) {
          // A-34: marks are checked in the order they were made
          const seq = Math.max(0, ...t.units.map((x) => x.marked)) + 1;
          t = updUnit(t, e.id, { marked: seq });
          log?.push({ rule: 'p.11', text: `${e.id} is marked for a morale check at step 10` });
        }
      }
      // [p.20] optional fires: a battery's howitzers firing at a block roll to start a fire in it
      return shellFires(s, f.shot, t, f.firer);
    },
    describe: (_s, f) => `${f.firer} fires ${shotText(f.shot)}`,
  },
  initiative: {
    kind: 'chance',
    // [p.17] D20 ≤ the initiative number: in command for this period (exactly initiative/20)
    outcomes: (_s, f) =>
      initiativeDist(f.initiative).map((d) => ({
        action: d.value ? 'initiative pass' : 'initiative fail',
        p: d.p,
        label: d.value ? `D20 ≤ ${f.initiative}: in command` : `D20 > ${f.initiative}: out of command`,
      })),
    step(s, f, a, log) {
      const pass = a === 'initiative pass';
      log?.push({
        rule: 'p.17',
        text: `${f.leader} rolls for initiative (D20 ≤ ${f.initiative}): ${pass ? 'in command this period' : 'fails'}`,
      });
      return pass ? { ...s, initiativePassed: [...s.initiativePassed, f.leader] } : s;
    },
    describe: (_s, f) => `${f.leader}, outside his superior's command distance: D20 ≤ ${f.initiative} [p.17]`,
  },
  command: { kind: 'auto', run: (s, _f, log) => markAndBid(s, log) },
  oocLeader: {
    kind: 'decision',
    owner: (f, s) => unitOf(s, f.unit).side,
    // [p.15] "-/+1 if leader is attached to unit (controllers choice)"
    legal: () => ['leader −1', 'leader +1'],
    step: (s, f, a) => push(s, { t: 'oocRoll', unit: f.unit, win: f.win, leader: a === 'leader +1' ? 1 : -1 }),
    describe: (_s, f) => `${f.unit} won: its leader adds −1 or +1 to its out-of-control roll [p.15]`,
  },
  oocRoll: {
    kind: 'chance',
    outcomes: (s, f) =>
      outOfControlCheck(oocInput(s, f.unit, f.win, f.leader)).dist.map((d) => ({
        action: d.value === 'outOfControl' ? 'out of control' : 'in control',
        p: d.p,
        label: d.value === 'outOfControl' ? 'out of control' : 'in control',
      })),
    step(s, f, a, log) {
      const c = outOfControlCheck(oocInput(s, f.unit, f.win, f.leader));
      const mods = c.mods.map((m) => `${m.value > 0 ? '+' : ''}${m.value} ${m.id}`).join(', ');
      const out = a === 'out of control';
      log?.push({
        rule: 'p.15',
        text: `${f.unit} rolls for control after winning (D20${mods ? ` ${mods}` : ''}, out on a modified 20): ${
          out ? 'out of control: it charges the closest enemy next period' : 'in control'
        }`,
      });
      return out ? updUnit(s, f.unit, { outOfControl: true }) : s;
    },
    describe: (_s, f) => `${f.unit}: the out-of-control roll, D20 with its modifiers [p.15]`,
  },
  runaway: { kind: 'auto', run: (s, f, log) => runaway(s, f.unit, log) },
  runawayTarget: {
    kind: 'decision',
    owner: (f, s) => unitOf(s, f.unit).side,
    legal: (s, f) => runawayTargets(s, f.unit).map((x) => `runaway ${x.target}`),
    step(s, f, a, log) {
      const x = runawayTargets(s, f.unit).find((r) => `runaway ${r.target}` === a)!;
      return runawayCharge(s, f.unit, x, log);
    },
    describe: (_s, f) => `${f.unit} is out of control: which of the equally close enemies does it charge? (A-20)`,
  },
  act: {
    kind: 'decision',
    owner: (f, s) => s.units.find((u) => u.id === f.unit)!.side,
    legal: (s, f) => {
      const keys = actKeys(s, f.unit);
      // a plan under way offers its next step alone; a step no longer offered ends it (the unit chooses freely)
      if (f.plan?.length) {
        const next = resolveStep(f.plan[0]!, keys, stepContext(s, f.unit));
        if (next !== null) return [next];
      }
      return [...keys, ...planMenu(s, f.unit, keys).map((m) => m.key)];
    },
    step(s, f, a, log) {
      let plan: readonly PlanStep[] | undefined;
      let key = a;
      if (a.startsWith('plan ')) {
        // §8.4: a plan is its first primitive now, the rest pending on the unit's activation
        const m = planMenu(s, f.unit, actKeys(s, f.unit)).find((x) => x.key === a)!;
        log?.push({ rule: 'A-24', text: `${f.unit} plans: ${a.slice('plan '.length)}` });
        key = m.first;
        plan = m.plan.slice(1);
      } else if (f.plan?.length) plan = f.plan.slice(1);
      if (key === 'end') {
        const u = unitOf(s, f.unit);
        // A-24: with a full action (two halves) unused the unit shows a stand marker; a lone half is lost
        // (A-68: none for a unit in retreat status)
        // [p.11] a battery being resupplied does nothing else: no stand marker
        const stand = u.halves <= BUDGET - 2 && !u.retreating && !beingResupplied(s, f.unit);
        log?.push({
          rule: 'A-24',
          text: `${f.unit} ends its activation${stand ? ' and stands (a defence action kept)' : ''}`,
        });
        return updUnit(s, f.unit, { stand });
      }
      const p = activation(s, f.unit).find((x) => x.key === key);
      if (!p) throw new NotImplementedRuleError('A-24', `the activation primitive "${key}" is not built yet`);
      // the activation goes on while actions are left (END is always offered), after any dice the action rolls
      const t = forceMarchFatigue(
        s,
        p.apply(push(s, { t: 'act', unit: f.unit, ...(plan?.length ? { plan } : {}) }), log),
        f.unit,
        log,
      );
      // A-64: after each movement primitive or charge, cavalry it came near may counter-charge
      return /^(move|road|charge) /.test(key) ? counterTriggers(t, f.unit) : t;
    },
    describe: (s, f) => `${f.unit}: its next action (${(BUDGET - unitOf(s, f.unit).halves) / 2} left)`,
  },
};

/**
 * [p.7] the formations a unit may change to from its own, with the cost in actions by its doctrine: infantry
 * RC↔C, C↔L, C↔S, L↔S 1 (French after 1807 C↔L ½, Prussians 1806 2, Austrian mass C↔S ½); cavalry RC↔C, C↔L 1,
 * L↔E ½; artillery limbers or unlimbers for 1; light infantry forms a skirmish line for 1 [p.18].
 */
function formationChanges(s: SeqState, spec: UnitSpec, u: SeqUnit): [Formation, number][] {
  const d = s.sc.sides[u.side]!.doctrine;
  const f = u.formation;
  const out: [Formation, number][] = [];
  const add = (to: Formation, cost: number) => out.push([to, cost]);
  const C = FORMATION_CHANGE;
  if (spec.kind === 'infantry') {
    const cl = d.frenchPost1807 ? C.frenchPost1807ColumnLine : d.prussian1806 ? C.prussian1806ColumnLine : C.infantry;
    const cs = d.austrianMass ? C.austrianMassColumnSquare : C.infantry;
    if (f === 'roadColumn') add('column', C.infantry);
    if (f === 'column') add('roadColumn', C.infantry), add('line', cl), add('square', cs);
    if (f === 'line') add('column', cl), add('square', C.infantry);
    if (f === 'square') add('column', cs), add('line', C.infantry);
    if (spec.lightInfantry && f !== 'skirmish' && f !== 'square') add('skirmish', C.formSkirmish);
    if (f === 'skirmish') add('line', C.reformFromSkirmish), add('column', C.reformFromSkirmish);
  } else if (spec.kind === 'cavalry') {
    if (f === 'roadColumn') add('column', C.cavalry);
    if (f === 'column') add('roadColumn', C.cavalry), add('line', C.cavalry);
    if (f === 'line') add('column', C.cavalry), add('echelon', C.cavalryEchelon);
    if (f === 'echelon') add('line', C.cavalryEchelon);
  } else add(f === 'limbered' ? 'unlimbered' : 'limbered', C.limberOrUnlimber);
  return out;
}

/**
 * [p.7, p.10] the formation variants §8.3.3 lists, each a formation change to the unit's front with its own key:
 * - a column deploys into line on its left or right flank (`form line left|right`): infantry 2 actions, 1806 Prussians
 *   and all cavalry 1; the line runs from the column's front corner on that side, facing kept (A-4's reading);
 * - a line refuses one flank (`form refused left|right`, 1 action): ¼ of its figures rounded up (the most the book
 *   allows: the one canonical choice) rolled back 90°; and back into line (`form line`, 1 action, A-4);
 * - a battery limbers facing its rear (`form limbered rear`), or unlimbers with its guns massed two deep (`form
 *   unlimbered massed`, [p.10]: "when deploying a battery"; a limbered target for enemy fire, all guns fire).
 */
function formationVariants(s: SeqState, spec: UnitSpec, u: SeqUnit, mover: TableUnit, left: number): Primitive[] {
  const out: Primitive[] = [];
  const C = FORMATION_CHANGE;
  const offer = (key: string, cost: number, body: TableUnit, patch: Partial<SeqUnit>, text: string, rule = 'p.7') => {
    const halves = Math.round(cost * 2);
    if (halves > left || !fits(s, body, u.id)) return;
    out.push({
      key,
      apply(t, log) {
        log?.push({ rule, text: `${u.id} ${text} (${cost} action${cost === 1 ? '' : 's'})` });
        const v = updUnit(t, u.id, {
          halves: u.halves + halves,
          x: body.at.x,
          y: body.at.y,
          facing: body.at.facing,
          ...patch,
        });
        // back into line: the refused flank is no more (the field dropped, not left undefined)
        if (patch.refused !== undefined || !u.refused) return v;
        return { ...v, units: v.units.map((x) => (x.id === u.id ? (({ refused: _r, ...rest }) => rest)(x) : x)) };
      },
    });
  };
  if (spec.kind === 'infantry' || spec.kind === 'cavalry') {
    if (u.formation === 'column') {
      const cost =
        spec.kind === 'cavalry' || s.sc.sides[u.side]!.doctrine.prussian1806
          ? C.lineOnFlankPrussian1806OrCavalry
          : C.lineOnFlankInfantry;
      for (const flank of ['left', 'right'] as const)
        offer(
          `form line ${flank}`,
          cost,
          { ...mover, ...reform(mover, 'line', { flank }) },
          { formation: 'line' },
          `deploys from column into line on its ${flank} flank`,
        );
    }
    if (u.formation === 'line' && !u.supported) {
      if (u.refused)
        offer(
          'form line',
          C.refuseFlank,
          { ...mover, formation: 'line' },
          {},
          'brings its refused flank back into line (A-4)',
        );
      else
        for (const flank of ['left', 'right'] as const)
          offer(
            `form refused ${flank}`,
            C.refuseFlank,
            { ...mover, ...reform(mover, 'refusedFlank', { refused: { side: flank } }) },
            { refused: flank },
            `refuses its ${flank} flank: ${refusedFlankFigures(u.figures)} figures rolled back 90°`,
          );
    }
  }
  if (spec.kind === 'artillery') {
    if (u.formation === 'unlimbered')
      offer(
        'form limbered rear',
        C.limberOrUnlimber,
        { ...mover, ...reform(mover, 'limbered', { rear: true }) },
        { formation: 'limbered', massed: false },
        'limbers, its column facing its rear',
      );
    // more than one base of guns [p.3]: two deep is a smaller frontage
    if (u.formation === 'limbered' && u.figures > 2)
      offer(
        'form unlimbered massed',
        C.limberOrUnlimber,
        { ...mover, ...reform(mover, 'massed') },
        { formation: 'unlimbered', massed: true },
        'unlimbers with its guns massed two stands deep (a limbered target for enemy fire; all its guns fire)',
        'p.10',
      );
  }
  return out;
}

/**
 * A-30, §8.3.2 the turns that face an enemy: for each of the three nearest enemy units within 24" (edge to edge), the
 * turn (whole degrees, −180..180) from the front-centre pivot to its centre; none within the free 10° or equal to a
 * fixed bracket angle (±45°, ±90°, ±135°, offered already).
 */
function facingTargets(s: SeqState, u: SeqUnit, mover: TableUnit): { id: string; deg: number }[] {
  const out: { id: string; deg: number; d: number }[] = [];
  for (const o of s.units) {
    if (o.side === u.side || o.status !== 'active') continue;
    const e = tableUnit(s, o);
    const d = unitDistance(mover, e);
    if (d > 24 * IN) continue;
    const h = headingTo({ x: mover.at.x, y: mover.at.y }, centreOf(e));
    const deg = ((((h - mover.at.facing) % 360) + 540) % 360) - 180;
    if (Math.abs(deg) <= 10 || [45, 90, 135, 180].includes(Math.abs(deg))) continue;
    out.push({ id: o.id, deg, d });
  }
  return out
    .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
    .slice(0, 3)
    .map(({ id, deg }) => ({ id, deg }));
}

/**
 * [p.5-6] a force march's fatigue: "right after the activity was performed that will increase a unit's fatigue level,
 * the effect takes place": +2 (+3 in hot weather [p.20]) right after the primitive that spends the force march's
 * extra action (takes the unit past its normal four half-actions, A-24): a charge made with it fights at the new level
 * ("increased by two for the close action" [p.5]); a unit that never moves its extra action has not force-marched.
 */
function forceMarchFatigue(s: SeqState, t: SeqState, id: string, log: Log): SeqState {
  const u0 = unitOf(s, id);
  const u1 = unitOf(t, id);
  if (!u0.forceMarch || u0.halves > BUDGET || u1.halves <= BUDGET) return t;
  const hot = t.sc.options.weather && t.sc.weather === 'hot';
  const to = fatigueAfter(u1.fatigue, hot ? FATIGUE_INCREASE.forceMarch + 1 : FATIGUE_INCREASE.forceMarch);
  log?.push({
    rule: hot ? 'p.20' : 'p.5',
    text: `${id} has force-marched: fatigue ${u1.fatigue} → ${to}${hot ? ' (+3 in hot temperatures)' : ''}`,
  });
  return updUnit(t, id, { fatigue: to });
}

/** A body in place of unit `id`: on the table and overlapping no other unit. */
function fits(s: SeqState, body: TableUnit, id: string): boolean {
  const t = tableOf(s.sc);
  const poly = footprint(body);
  if (poly.some((p) => p.x < 0 || p.y < 0 || p.x > t.width || p.y > t.height)) return false;
  return !s.units.some(
    (o) => o.id !== id && o.status === 'active' && polygonsOverlap(poly, footprint(tableUnit(s, o))),
  );
}

/**
 * [p.12] a unit enters retreat status. Its owner may stand in place (the recovery area where it is: the retreat costs
 * no actions, only the reform roll's); a retreat move to a recovery area farther back is not offered yet.
 */
function enterRetreat(s: SeqState, id: string): SeqState {
  // A-43: a unit its casualties destroyed (below 2 figures) is gone: it does not retreat
  if (unitOf(s, id).status !== 'active') return s;
  return push(updUnit(s, id, { retreating: true, recovery: 0 }), { t: 'retreatTo', unit: id });
}

/** A recovery area on offer [p.12]: its key, inches retreated, where it ends, the friends it passes through. */
interface RetreatChoice {
  readonly key: string;
  readonly inches: number;
  readonly at?: Placement;
  readonly through?: readonly string[];
  /** A-57 (1): the battery limbers first (1 action, +1 recovery action). */
  readonly limber?: boolean;
  /** A-57 (3): the battery's crew abandons its guns and retreats as a crew. */
  readonly abandon?: boolean;
}

/**
 * [p.12] A-57 an unlimbered battery that fails a check: its owner picks (1) limber (1 action, +1 recovery action) and
 * retreat with the guns: the recovery areas of the battery limbered in place, keyed `… limbered` (`retreat 4"
 * limbered`); (2) `stand in place` unlimbered (a retreat of 0"); (3) `abandon the guns`: they are left and the crew
 * retreats as a crew (A-51). Any other unit: `retreatPaths`.
 */
function retreatChoices(s: SeqState, id: string): RetreatChoice[] {
  const u = unitOf(s, id);
  if (specOf(s, id).kind !== 'artillery' || u.formation !== 'unlimbered') return retreatPaths(s, id, tableUnit(s, u));
  // a battery whose guns were abandoned as it entered retreat status (a lost close action [p.12]): its crew runs
  if (u.status !== 'active') return [{ key: 'stand in place', inches: 0 }];
  const limbered = { ...tableUnit(s, u), ...reform(tableUnit(s, u), 'limbered') } as TableUnit;
  return [
    { key: 'stand in place', inches: 0 },
    ...retreatPaths(s, id, limbered)
      .filter((c) => c.inches > 0)
      .map((c) => ({ ...c, key: `${c.key} limbered`, limber: true })),
    { key: 'abandon the guns', inches: 0, abandon: true },
  ];
}

/**
 * [p.12] A-67 the recovery areas offered: stand, or 4", 8" or 12" straight toward the home edge; and §8.3.7's other
 * paths: directly away from the threats (the centre of the enemy units within 12", not skirmishers or units in retreat
 * status [p.12]; with none, the nearest enemy) and 30° to either side of it, one or two retreat actions far (10" and
 * 20", cavalry and horse artillery 12" and 24": part of an action costs a whole one). Each is checked by A-67 (away
 * from every enemy within 12", never within 1" of one, on the table) and must end clear of every unit. A path through
 * friendly units is offered only when no clear one is ("if a retreating unit is forced to move through another
 * unit"): the units it crosses are disordered (`through`).
 */
function retreatPaths(s: SeqState, id: string, body: TableUnit): RetreatChoice[] {
  const u = unitOf(s, id);
  const spec = specOf(s, id);
  const edge = s.sc.sides[u.side]!.homeEdge;
  const dir = edge === 'south' ? 180 : edge === 'north' ? 0 : edge === 'east' ? 90 : 270;
  const foes = s.units.filter((o) => o.side !== u.side && o.status === 'active');
  const enemies = foes.map((o) => tableUnit(s, o));
  const out: RetreatChoice[] = [{ key: 'stand in place', inches: 0 }];
  const friends = s.units.filter((o) => o.side === u.side && o.id !== id && o.status === 'active');
  const crossed = (end: TableUnit) => {
    const steps = Math.max(1, Math.ceil(Math.hypot(end.at.x - body.at.x, end.at.y - body.at.y) / (IN / 2)));
    const hit = new Set<string>();
    for (let k = 1; k <= steps; k++) {
      const at = {
        ...end.at,
        x: body.at.x + ((end.at.x - body.at.x) * k) / steps,
        y: body.at.y + ((end.at.y - body.at.y) * k) / steps,
      };
      const p = footprint({ ...end, at });
      for (const f of friends) if (!hit.has(f.id) && polygonsOverlap(p, footprint(tableUnit(s, f)))) hit.add(f.id);
    }
    return [...hit];
  };
  const all: { key: string; inches: number; at: Placement; through: string[] }[] = [];
  const consider = (key: string, d: number, inches: number) => {
    const end = { ...body, ...retreatPlacement(body, d, inches) } as TableUnit;
    if (!retreatAllowed(tableOf(s.sc), body, end, enemies).ok || !fits(s, end, id)) return;
    if (all.some((x) => Math.hypot(x.at.x - end.at.x, x.at.y - end.at.y) < IN / 4)) return;
    all.push({ key, inches, at: end.at, through: crossed(end) });
  };
  for (const inches of [4, 8, 12]) consider(`retreat ${inches}"`, dir, inches);
  const threats = foes.filter(
    (o) => o.formation !== 'skirmish' && !o.retreating && unitDistance(body, tableUnit(s, o)) <= 12 * IN,
  );
  const from = (threats.length ? threats : foes)
    .map((o) => ({ o, d: unitDistance(body, tableUnit(s, o)) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, threats.length ? threats.length : 1)
    .map((x) => centreOf(tableUnit(s, x.o)));
  if (from.length) {
    const c = centreOf(body);
    const m = {
      x: from.reduce((a, p) => a + p.x, 0) / from.length,
      y: from.reduce((a, p) => a + p.y, 0) / from.length,
    };
    const away = headingTo(m, c);
    const step = spec.kind === 'cavalry' || (spec.kind === 'artillery' && spec.arm === 'horse') ? 12 : 10;
    for (const inches of [step, 2 * step])
      for (const [name, turn] of [
        ['away', 0],
        ['away-30', -30],
        ['away+30', 30],
      ] as const)
        consider(`retreat ${name} ${inches}"`, (away + turn + 360) % 360, inches);
  }
  const clear = all.filter((x) => !x.through.length);
  for (const x of clear.length ? clear : all)
    out.push(x.through.length ? x : { key: x.key, inches: x.inches, at: x.at });
  return out;
}

/** The reform roll's inputs [p.12] for a unit that retreated `inches` (a battery that limbered first: `limber`, A-57). */
function retreatInput(s: SeqState, id: string, inches: number, limber = false): RetreatInput {
  const u = unitOf(s, id);
  const spec = specOf(s, id);
  return {
    kind: spec.kind,
    distance: inches,
    morale: parseRating(spec.rating).morale,
    riddenDown: u.riddenDown,
    ...(spec.kind === 'infantry' ? { troopClass: spec.troopClass } : {}),
    ...(spec.kind === 'artillery'
      ? { arm: spec.arm, artillery: limber ? 'limber' : u.formation === 'limbered' ? 'limbered' : 'stand' }
      : {}),
  };
}

/** A battery's part of a shot: its rating, fatigue, the guns that bear (A-38: cannons first) and its ammunition. */
function battery(spec: Extract<UnitSpec, { kind: 'artillery' }>, u: SeqUnit, bearingGuns: number, actions: 1 | 2) {
  const bearing = Math.min(bearingGuns, spec.cannons + spec.howitzers);
  const cannons = Math.min(bearing, spec.cannons);
  return {
    fire: parseRating(spec.rating).fire,
    fatigue: u.fatigue,
    actions,
    calibre: spec.calibre,
    cannons,
    howitzers: bearing - cannons,
    ammo: u.ammo,
  };
}

/** A fire action: its half-actions spent, then its dice (`secondBounce`: units at risk only on the second bounce). */
function fireAction(
  t: SeqState,
  id: string,
  halves: number,
  shot: SmallArmsShot | CanisterShot | SolidShot,
  secondBounce: readonly string[] = [],
): SeqState {
  // [p.20] optional smoke: the fire actions of this activation are counted (smoke at two, A-78)
  const fired = t.sc.options.smoke ? { fired: (unitOf(t, id).fired ?? 0) + shot.actions } : {};
  return push(updUnit(t, id, { halves, ...fired }), {
    t: 'fire',
    firer: id,
    shot: smoked(t, id, weathered(t, shot)),
    ...(secondBounce.length ? { secondBounce } : {}),
  });
}

/**
 * [p.10] A-46 the ground a ball bounces over from the point of aim `aim` along the unit vector `v`, read every ¼" for
 * the nominal bounce `length` (inches): woods and building blocks stop it at their edge ("no bounce through woods or
 * buildings"); mud and fields (soft ground) and ground rising above the point of aim's level ("travelling up hills",
 * a reading: levels are flat tops, so ground above the level the ball landed on is uphill from it) use 2" of bounce
 * an inch; the rest is open. Legs of one ground are merged.
 */
function bounceLegs(
  s: SeqState,
  aim: { x: number; y: number },
  v: { x: number; y: number },
  length: number,
): BounceLeg[] {
  const table = tableOf(s.sc);
  const base = groundLevel(table, aim);
  const step = 0.25;
  const legs: BounceLeg[] = [];
  for (let k = 0; k < length; k += step) {
    const p = { x: aim.x + v.x * (k + step / 2) * IN, y: aim.y + v.y * (k + step / 2) * IN };
    let ground: BounceLeg['ground'] = 'open';
    for (const piece of table.pieces) {
      if (piece.type === 'woods' && pointInPolygon(p, piece.polygon)) ground = 'stop';
      else if (piece.type === 'block' && Math.abs(p.x - piece.x) < 2 * IN && Math.abs(p.y - piece.y) < 2 * IN)
        ground = 'stop';
      else if (
        (piece.type === 'mud' || piece.type === 'fields') &&
        pointInPolygon(p, piece.polygon) &&
        ground === 'open'
      )
        ground = 'slow';
    }
    if (ground === 'open' && groundLevel(table, p) > base) ground = 'slow';
    const last = legs[legs.length - 1];
    if (last && last.ground === ground) legs[legs.length - 1] = { ground, length: last.length + step };
    else legs.push({ ground, length: step });
    if (ground === 'stop') break;
  }
  return legs;
}

/**
 * [p.19] "If there is an enemy skirmish screen between the target and the firing infantry unit": the nearest enemy
 * screen (not the target, not in a close action) that the line from the firer's front-centre to the target's nearest
 * point crosses (a reading: the line of fire as smoke's, A-78), with its range (edge to edge, A-12).
 */
function interveningScreen(
  s: SeqState,
  table: NeTable,
  all: readonly TableUnit[],
  firer: TableUnit,
  target: string,
): { unit: FireTargetDesc; range: number } | null {
  const t = all.find((x) => x.id === target)!;
  if (t.formation === 'skirmish') return null;
  const from = { x: firer.at.x, y: firer.at.y };
  const to = nearestPoint(footprint(t), from);
  let best: { unit: FireTargetDesc; range: number } | null = null;
  for (const o of all) {
    if (o.side === firer.side || o.id === target || o.formation !== 'skirmish' || o.inCloseAction) continue;
    if (!segmentCrossesPolygon(from, to, footprint(o))) continue;
    const range = unitDistance(firer, o) / IN;
    if (!best || range < best.range) best = { unit: targetDesc(s, table, o, firer), range };
  }
  return best;
}

/** A shot in words: the target, or the units on a ball's line. */
function shotText(shot: SmallArmsShot | CanisterShot | SolidShot | BuildingFireOutShot): string {
  if (shot.type === 'buildingFireOut') return `out of the block at ${shot.target.id} [p.19]`;
  if (shot.type === 'solidShot') return `solid shot at ${shot.atRisk.map((t) => t.id).join(', then ')} [p.8-10]`;
  return `${shot.type === 'canister' ? 'canister at' : 'at'} ${shot.target.id} ${shot.type === 'canister' ? '[p.8]' : '[p.9]'}`;
}

/** The point of `poly` nearest `p`. */
function nearestPoint(poly: Polygon, p: { x: number; y: number }): { x: number; y: number } {
  let best = poly[0]!;
  let bd = Number.POSITIVE_INFINITY;
  for (let i = 0; i < poly.length; i++) {
    const q = closestPointOnSegment(p, poly[i]!, poly[(i + 1) % poly.length]!);
    const d = Math.hypot(q.x - p.x, q.y - p.y);
    if (d < bd) [best, bd] = [q, d];
  }
  return best;
}

/** The small arm a unit fires: infantry its musket or rifle; cavalry its carbines with the optional rule [p.15]. */
function smallArm(s: SeqState, spec: UnitSpec): 'musket' | 'rifle' | 'carbine' | null {
  if (spec.kind === 'infantry') return spec.weapon ?? (parseRating(spec.rating).fire === 'R' ? 'rifle' : 'musket');
  // A-37: without the carbine rule cavalry cannot fire
  if (spec.kind === 'cavalry' && spec.carbines && s.sc.options.carbines) return 'carbine';
  return null;
}

/**
 * [p.8] a unit's small-arms fire of one or two actions at a target `ft` (its range and the figures bearing on it),
 * through an enemy screen [p.19] when there is one.
 */
function smallArmsShot(
  spec: UnitSpec,
  u: SeqUnit,
  weapon: 'musket' | 'rifle' | 'carbine',
  ft: { readonly range: number; readonly figures: number },
  actions: 1 | 2,
  target: FireTargetDesc,
  screen?: { unit: FireTargetDesc; range: number } | null,
): SmallArmsShot {
  return {
    ...(screen ? { screen } : {}),
    type: 'smallArms',
    fire: parseRating(spec.rating).fire,
    fatigue: u.fatigue,
    actions,
    weapon,
    figures: firingFigureCount({
      formation: u.formation,
      figures: u.figures,
      frontRank: ft.figures,
      bearing: ft.figures,
    }),
    twoRank: spec.kind === 'infantry' && spec.ranks === 2,
    skirmishScreen: u.formation === 'skirmish',
    range: ft.range / IN,
    target,
  };
}

/**
 * [p.18] optional company skirmishers: the firer is within 4" of the target's front (edge to edge, A-12) and in its
 * front arc, for they "do not cover a unit's flanks". Square, disorder and retreat status are fire.ts's to exclude.
 */
function organicSkirmishersScreen(s: SeqState, spec: UnitSpec, target: TableUnit, firer: TableUnit): boolean {
  if (!s.sc.options.organicSkirmishers || spec.kind !== 'infantry' || !spec.organicSkirmishers) return false;
  if (arcOf(target, { x: firer.at.x, y: firer.at.y }) !== 'front') return false;
  return polygonPolylineDistance(footprint(firer), frontEdge(target)) <= FIRING.organicSkirmisherRange * IN;
}

/** What a shot needs to know of a target [p.8-12]. */
function targetDesc(s: SeqState, table: NeTable, target: TableUnit, firer: TableUnit): FireTargetDesc {
  const tu = unitOf(s, target.id);
  const tspec = specOf(s, target.id);
  return {
    id: target.id,
    kind: tspec.kind,
    // [p.19] no formation inside buildings: fired at as a line (buildings.blockFireTarget)
    formation: inTown(tu) ? 'line' : tu.formation,
    cover: coverFrom(table, target, { x: firer.at.x, y: firer.at.y }),
    disordered: tu.disordered,
    // A-42 [p.21]: a unit in retreat status is a formed target (and its company skirmishers are not out [p.18])
    ...(tu.retreating ? { retreatStatus: true } : {}),
    ...(!inTown(tu) && organicSkirmishersScreen(s, tspec, target, firer) ? { organicSkirmishers: true } : {}),
    // [p.12] the firer in the target's flank or rear (A-11)
    firedOnFromFlank: tu.formation !== 'square' && arcOf(target, { x: firer.at.x, y: firer.at.y }) !== 'front',
    // [p.10] A-50 the battery's crew hits so far; massed guns are a limbered target
    ...(tspec.kind === 'artillery'
      ? {
          guns: tu.figures,
          cannons: tspec.cannons,
          hits: tu.hits ?? 0,
          ...(tspec.guardBattery ? { guardBattery: true } : {}),
          ...(tu.massed && tu.formation === 'unlimbered' ? { massed: true } : {}),
        }
      : { figures: tu.figures }),
  };
}

/** [p.11] a threshold roll's two frames: its leader's influence (the owner's choice, on top), then the dice. */
function thresholdFrames(side: Side, division: string | null): Frame[] {
  return [
    { t: 'threshold', side, division },
    { t: 'thresholdInfluence', side, division },
  ];
}

/** [p.11] the leader of a threshold roll: the division's leader, or the army's for the army roll. */
function thresholdLeader(s: SeqState, side: Side, division: string | null): SeqLeader | undefined {
  const id = division ?? s.sc.sides[side]!.leaders.find((l) => l.rank === 'army')?.id;
  return s.leaders.find((l) => l.id === id);
}

/**
 * [p.11] note 1: the leader may add his influence "if within the general vicinity": A-70, within his own command
 * radius of the centroid of the division's (the army's) units on the table; a lost leader's staff officer gives no
 * bonus [p.16].
 */
function influenceAllowed(s: SeqState, side: Side, division: string | null): boolean {
  const l = thresholdLeader(s, side, division);
  // [p.10] A-56: a division whose leader was appointed grand battery commander has a staff officer: no bonus [p.16]
  if (!l || l.lost || (division !== null && appointmentOf(s, l.id))) return false;
  const spec = s.sc.sides[side]!.leaders.find((x) => x.id === l.id)!;
  const units = s.units.filter(
    (u) => u.side === side && u.status === 'active' && (division === null || specOf(s, u.id).commander === division),
  );
  return inGeneralVicinity(
    leaderAt(s, l.id),
    spec.radius,
    units.map((u) => tableUnit(s, u)),
  );
}

/** A threshold roll's modifiers [p.11]: the leader's influence his owner chose (note 1), −3 for a lost leader. */
function thresholdInput(s: SeqState, side: Side, division: string | null, influence = 0): ThresholdInput {
  const sc = s.sc.sides[side]!;
  const leader = thresholdLeader(s, side, division);
  return {
    scope: division === null ? 'army' : 'division',
    french: sc.nationality === 'french',
    napoleonPresent: sc.napoleonPresent,
    ...(influence ? { influence } : {}),
    // [p.11] "−3 if the original leader has been incapacitated" (morale.ts READINGS 3: the army's too)
    ...(leader?.lost ? { leaderLost: true } : {}),
    ...(division !== null ? { outOfCommand: divisionOutOfCommand(s, side, division) } : {}),
  };
}

/**
 * [p.11] "−3 if the division is out of command-and-control": step 11 took the out-of-command markers off [p.4], so the
 * division's command is measured where it stands at the start of the game turn, by the same chain as step 1 [p.16]
 * (no initiative roll yet: those come at each period's step 1 [p.17]); out of command if any unit it commands is.
 */
function divisionOutOfCommand(s: SeqState, side: Side, division: string): boolean {
  const units = s.units.filter(
    (u) => u.side === side && u.status === 'active' && specOf(s, u.id).commander === division,
  );
  if (!units.length) return false;
  const out = outOfCommandNow(s, new Set());
  return units.some((u) => out.has(u.id));
}

/** [p.11] −4 to a unit's morale checks this game turn when its army or division failed its threshold. */
function thresholdFailed(s: SeqState, id: string): boolean {
  const u = unitOf(s, id);
  return s.armyFailed[u.side] || s.divisionsFailed.includes(specOf(s, id).commander);
}

/**
 * [p.15] A-64: the enemy cavalry that may counter-charge `mover` now: not yet activated or with a stand marker, not
 * locked or in retreat, the mover inside its counter-charge zone and reachable by a legal charge.
 */
function counterTriggers(s: SeqState, mover: string): SeqState {
  const m = unitOf(s, mover);
  if (m.status !== 'active') return s;
  const frames = s.units
    .filter((c) => c.side !== m.side && (counterContact(s, c.id, mover) !== null || meetingClose(s, c.id, mover) >= 0))
    .map((c) => ({ t: 'counter' as const, cavalry: c.id, mover }));
  return frames.length ? push(s, ...frames.reverse()) : s;
}

/**
 * [p.15] A-64 a counter-charge against a unit charging that cavalry itself: the index of `mover`'s close action on
 * `cavalry`, if the cavalry may counter-charge it (not yet moved, or with its stand marker; not in retreat status or
 * disordered; the charger in its front within 10°), else −1.
 */
function meetingClose(s: SeqState, cavalry: string, mover: string): number {
  const c = unitOf(s, cavalry);
  const spec = specOf(s, cavalry);
  if (spec.kind !== 'cavalry' || c.status !== 'active' || c.retreating || c.disordered || !c.stand) return -1;
  const i = s.closes.findIndex((x) => x.charger === mover && x.defender === cavalry && !x.counter);
  if (i < 0) return -1;
  // locked only by this charge
  if (s.closes.some((x, k) => k !== i && (x.charger === cavalry || x.defender === cavalry))) return -1;
  const reach = CAVALRY_CHARGE[spec.weight] * IN;
  return inCounterChargeZone(tableUnit(s, c), tableUnit(s, unitOf(s, mover)), reach) ? i : -1;
}

/** The contact a counter-charge of `cavalry` on `mover` would make, or null when it may not. */
function counterContact(s: SeqState, cavalry: string, mover: string) {
  const c = unitOf(s, cavalry);
  const spec = specOf(s, cavalry);
  const m = unitOf(s, mover);
  if (spec.kind !== 'cavalry' || c.status !== 'active' || m.status !== 'active') return null;
  if (c.locked || c.retreating || c.disordered || (c.activated && !c.stand)) return null;
  const reach = CAVALRY_CHARGE[spec.weight] * IN;
  const cb = tableUnit(s, c);
  const mb = tableUnit(s, m);
  if (!inCounterChargeZone(cb, mb, reach)) return null;
  const all = s.units.filter((x) => x.status === 'active').map((x) => tableUnit(s, x));
  const cts = chargeContacts(tableOf(s.sc), all, cb, mb, reach);
  return cts.length ? straightest(cts) : null;
}

/** A-27 for an out-of-command unit's move ending at `at`. */
function oocMoveOk(s: SeqState, u: SeqUnit, mover: TableUnit, all: readonly TableUnit[], at: Placement): boolean {
  // [p.10] A-56: the commander it answers to now (a grand battery's officer, a staff officer in an appointed post)
  const c = commandPoint(s, commanderOf(s, u.id));
  const enemies = all.filter((o) => o.side !== mover.side);
  const measure = (b: TableUnit) => ({
    commander: commandLength(s, u.side, c, b),
    enemies: enemies.map((o) => unitDistance(b, o)),
  });
  return outOfCommandMoveAllowed(measure(mover), measure({ ...mover, at }));
}

// ---------------------------------------------------------------------------------------------------------------------
// [p.15] Out-of-control cavalry (optional rule outOfControlCavalry)
// ---------------------------------------------------------------------------------------------------------------------

/**
 * [p.15] "After winning a close action, a cavalry unit must check to see if they lose control": the winner, if it is
 * cavalry still on the table. A leader with it gives his owner the choice of −1 or +1 first (a staff officer standing
 * in for a lost leader has no say: he gives no bonuses [p.16]).
 */
function cavalryWon(s: SeqState, id: string, win: CavalryWin): SeqState {
  if (!s.sc.options.outOfControlCavalry) return s;
  if (specOf(s, id).kind !== 'cavalry' || unitOf(s, id).status !== 'active') return s;
  const leader = s.leaders.some((l) => l.attached === id && !l.lost);
  return push(s, leader ? { t: 'oocLeader', unit: id, win } : { t: 'oocRoll', unit: id, win, leader: 0 });
}

/** [p.15] the out-of-control roll's modifiers for a cavalry unit's win. */
function oocInput(s: SeqState, id: string, win: CavalryWin, leader: -1 | 0 | 1) {
  const spec = specOf(s, id);
  const cav = spec.kind === 'cavalry' ? spec : null;
  return {
    guard: cav?.guard ?? false,
    leader,
    cossacks: cav?.cossack ?? false,
    byOutOfControl: win.byOutOfControl,
    british: cav?.british ?? false,
    riddenDown: win.riddenDown,
    destroyed: win.destroyed,
  };
}

/**
 * [p.15] A-20 step 2b, after the bids: out-of-control cavalry "will move before all other units move next period",
 * side A's first, then side D's; then side A's first step (its charge counts as the unit's activation).
 */
function step2b(s: SeqState, log: Log): SeqState {
  const a = s.sideA!;
  const ooc = [...s.units.filter((u) => u.side === a), ...s.units.filter((u) => u.side !== a)].filter(
    (u) => u.outOfControl,
  );
  if (!ooc.length) return nextStep(s, null, log);
  log?.push({
    rule: 'p.15',
    text: `out-of-control cavalry moves before all other units (A-20: side A's first): ${ooc.map((u) => u.id).join(', ')}`,
  });
  return push(s, ...ooc.reverse().map((u) => ({ t: 'runaway' as const, unit: u.id })));
}

/** [p.15] out-of-control cavalry charges "up to 16”" (A-20: its owner picks among equally close targets, A-40's 0.25"). */
const RUNAWAY_REACH = 16;
const RUNAWAY_TIE = 0.25;

/**
 * [p.15] the enemies an out-of-control cavalry unit charges: the closest (edge to edge, A-12) enemy unit it can charge,
 * in its line of sight and within 16", with every other one as close within 0.25" (its owner's choice). A-20: it first
 * pivots freely to face the target (the 10° limit does not bind it; if the pivot has no room, it charges as usual
 * within 10°); it still may not charge in or into woods [p.19]. It ignores command (it is out of control). Skirmish
 * screens are charged too ("the closest enemy unit"; A-61), but not units already in a close action.
 */
function runawayTargets(s: SeqState, id: string): { target: string; ct: ChargeContact }[] {
  const u = unitOf(s, id);
  const spec = specOf(s, id);
  if (spec.kind !== 'cavalry' || u.status !== 'active' || u.locked) return [];
  const table = tableOf(s.sc);
  const all = s.units.filter((x) => x.status === 'active').map((x) => tableUnit(s, x));
  const mover = all.find((x) => x.id === id)!;
  const found: { target: string; ct: ChargeContact; d: number }[] = [];
  for (const target of all) {
    if (target.side === mover.side || unitOf(s, target.id).locked) continue;
    // [p.19] cavalry never charges units in blocks (digest 6.11.1)
    if (inTown(unitOf(s, target.id))) continue;
    const d = unitDistance(mover, target);
    if (d > RUNAWAY_REACH * IN) continue;
    const ok = mayCharge(
      {
        kind: 'cavalry',
        formation: chargeFormation(u),
        retreatStatus: u.retreating,
        inWoods: inWoods(table, mover),
      },
      specOf(s, target.id).kind,
      inWoods(table, target),
    );
    if (!ok.ok) continue;
    // A-20: the free pivot to face the target (about the front-centre), if it has room
    const c = centreOf(target);
    const aim = Math.round(((Math.atan2(c.x - mover.at.x, c.y - mover.at.y) * 180) / Math.PI + 360) * 100) / 100;
    const faced: TableUnit = { ...mover, at: { ...mover.at, facing: aim % 360 } };
    const from = fits(s, faced, id) ? faced : mover;
    const cts = chargeContacts(table, all, from, target, RUNAWAY_REACH * IN);
    if (!cts.length) continue;
    const ct = straightest(cts);
    found.push({ target: target.id, ct, d });
  }
  if (!found.length) return [];
  const near = Math.min(...found.map((x) => x.d));
  return found
    .filter((x) => x.d <= near + RUNAWAY_TIE * IN)
    .sort((a, b) => a.d - b.d || (a.target < b.target ? -1 : 1))
    .map(({ target, ct }) => ({ target, ct }));
}

/** [p.15] A-20 step 2b: an out-of-control cavalry unit charges, or regains control with no target within 16". */
function runaway(s: SeqState, id: string, log: Log): SeqState {
  const targets = runawayTargets(s, id);
  if (!targets.length) {
    log?.push({ rule: 'p.15', text: `${id}: no enemy it can charge in sight within 16": it is back in control` });
    return updUnit(s, id, { outOfControl: false });
  }
  if (targets.length === 1) return runawayCharge(s, id, targets[0]!, log);
  return push(s, { t: 'runawayTarget', unit: id });
}

/**
 * [p.15] the out-of-control charge: into contact like any charge (§6.6.2), +3 to close at step 5, resolved at step 9;
 * it counts as the unit's activation (A-20) and ends it (A-55); the unit charged is locked (with a stand marker if it
 * had not activated, §5.4). Enemy cavalry it rode into may counter-charge (A-64).
 */
function runawayCharge(s: SeqState, id: string, x: { target: string; ct: ChargeContact }, log: Log): SeqState {
  const u = unitOf(s, id);
  const tu = unitOf(s, x.target);
  const ct = x.ct;
  log?.push({
    rule: 'p.15',
    text: `${id} is out of control: it charges ${x.target} (${inches(ct.distance)}${ct.full ? '' : ', partial contact'}; +3 to close; A-20: its activation)`,
  });
  const contact: CloseContact = { ...contactOf(s, u, tu, ct), outOfControl: true };
  let v = updUnit(s, id, {
    x: ct.at.x,
    y: ct.at.y,
    facing: ct.at.facing,
    halves: 2,
    activated: true,
    stand: false,
    locked: true,
    outOfControl: false,
  });
  v = updUnit(v, x.target, { locked: true, ...(tu.activated ? {} : { activated: true, stand: true }) });
  v = { ...v, closes: [...v.closes, contact], aActivated: v.aActivated + (u.side === v.sideA ? 1 : 0) };
  return counterTriggers(v, id);
}

/** Both units of a close action still on the table. */
const closeAlive = (s: SeqState, c: CloseContact) => inClose(s, c, 'charger') && inClose(s, c, 'defender');

/**
 * Still in close action `c`: on the table, and not gone into retreat status since the contact (A-65, C-2: a close
 * action whose defender retreated or routed in an earlier one is cancelled; Example-2's R1 the same as charger).
 */
function inClose(s: SeqState, c: CloseContact, who: 'charger' | 'defender'): boolean {
  const u = unitOf(s, who === 'charger' ? c.charger : c.defender);
  const was = who === 'charger' ? c.chargerWasRetreating : c.defenderWasRetreating;
  return u.status === 'active' && (!u.retreating || was === true);
}

/**
 * A charge's contact (§6.6.2), from the charger's position before it moved: the ride-down procedure for cavalry on foot
 * or guns [p.14]; the arc the charger started in (A-11; a square has no flank); the figures in contact on each side,
 * the overlap over each one's frontage per figure [p.3] (A-59).
 */
function contactOf(s: SeqState, charger: SeqUnit, defender: SeqUnit, ct: ChargeContact): CloseContact {
  const inContact = (u: SeqUnit) => {
    const troop = tableUnit(s, u).troop;
    const per = troop === 'artillery' ? SCALE.frontagePerFigure.artilleryPerGunModel : SCALE.frontagePerFigure[troop];
    return Math.max(1, Math.min(u.figures, Math.round(ct.overlap / (per * IN))));
  };
  return {
    charger: charger.id,
    defender: defender.id,
    start: { x: charger.x, y: charger.y },
    // [p.19] A-61: cavalry on a skirmish screen has its own procedure
    rideDown:
      specOf(s, charger.id).kind === 'cavalry' &&
      specOf(s, defender.id).kind !== 'cavalry' &&
      defender.formation !== 'skirmish',
    full: ct.full,
    arc:
      defender.formation === 'square' || ct.arc === 'front' ? 'front' : ct.arc === 'rear' ? 'flankRear' : 'flankSide',
    chargerInContact: inContact(charger),
    defenderInContact: inContact(defender),
    face: `${ct.part} ${ct.face}`,
    distance: Math.round((ct.distance / IN) * 100) / 100,
    ...(charger.changed ? { changedFirst: true } : {}),
    ...(charger.halves >= 2 ? { usedBoth: true } : {}),
    ...(defender.formation === 'skirmish' ? { screen: true } : {}),
    ...(charger.retreating ? { chargerWasRetreating: true } : {}),
    ...(defender.retreating ? { defenderWasRetreating: true } : {}),
  };
}

/** A close action's morale input for one side [p.12]. */
function closeMorale(s: SeqState, c: CloseContact, who: 'charger' | 'defender'): CloseMoraleInput {
  const u = unitOf(s, who === 'charger' ? c.charger : c.defender);
  const e = unitOf(s, who === 'charger' ? c.defender : c.charger);
  return {
    rating: parseRating(specOf(s, u.id).rating).morale,
    originalFigures: u.originalFigures,
    currentFigures: strength(u),
    enemyFigures: e.figures,
    leaderBonus: leaderBonus(s, u.id),
    thresholdFailed: thresholdFailed(s, u.id),
    fatigue: u.fatigue,
    disordered: u.disordered,
    retreatStatus: u.retreating,
    supported: isSupported(s, u),
    // [p.12] a square charged by infantry
    ...(who === 'defender' && u.formation === 'square' && specOf(s, c.charger).kind === 'infantry'
      ? { squareVsInfantry: true }
      : {}),
    // [p.12] behind cover from the charge (A-15)
    ...(who === 'defender' && coverFrom(tableOf(s.sc), tableUnit(s, u), c.start) !== 'none'
      ? { behindCover: true }
      : {}),
    ...(who === 'charger' ? { chargingFlank: c.arc !== 'front' } : { flankCharged: c.arc !== 'front' }),
  };
}

/**
 * [p.13] the ground of a close action: the side on higher ground gets its +; a charger attacking a defender behind a
 * hedge or wall takes its −; a square charged by infantry (−5).
 */
function closeGround(s: SeqState, c: CloseContact, who: 'charger' | 'defender') {
  const table = tableOf(s.sc);
  const me = tableUnit(s, unitOf(s, who === 'charger' ? c.charger : c.defender));
  const them = tableUnit(s, unitOf(s, who === 'charger' ? c.defender : c.charger));
  const higherGround = unitLevel(table, me) > unitLevel(table, them);
  // [p.14] enfilade: the side whose enfilade value is twice the other's or more; A-63 (option enfiladeChargers): the
  // defender's chargers still in contact with it combine, those on the same face as the first frontal one by default
  const defender = who === 'charger' ? them : me;
  const group = s.closes.filter(
    (x) =>
      x.defender === c.defender &&
      x.counter === c.counter &&
      (x === c || (closeAlive(s, x) && unitOf(s, x.charger).locked)),
  );
  const k = group.indexOf(c);
  const e = enfiladeBonuses(
    enfiladeOf(defender),
    group.map((x) => ({
      value: enfiladeOf(x === c && who === 'charger' ? me : tableUnit(s, unitOf(s, x.charger))),
      arc: x.arc,
      face: x.face ?? 'main front',
    })),
    s.sc.options.enfiladeChargers,
  );
  const enfilade = who === 'charger' ? e.charger[k]! : e.defender[k]!;
  const out: { higherGround: boolean; enfilade: boolean; behind?: 'hedge' | 'wall'; squareVsInfantry?: boolean } = {
    higherGround,
    enfilade,
  };
  if (who === 'charger') {
    const cover = coverFrom(table, them, c.start);
    if (cover === 'walls') out.behind = 'wall';
    else if (cover === 'hedges') out.behind = 'hedge';
  } else if (me.formation === 'square' && specOf(s, c.charger).kind === 'infantry') out.squareVsInfantry = true;
  return out;
}

/** Steps 5-9's inputs: each side's morale, melee value and figures in contact (A-59). */
function closeInput(s: SeqState, c: CloseContact, refight: boolean): CloseActionInput {
  const side = (who: 'charger' | 'defender') => {
    const u = unitOf(s, who === 'charger' ? c.charger : c.defender);
    const spec = specOf(s, u.id);
    return {
      morale: closeMorale(s, c, who),
      melee: meleeInput(parseRating(spec.rating).melee, {
        ...closeGround(s, c, who),
        leaderBonus: leaderMeleeBonus(s, u.id),
        fatigue: u.fatigue,
        disordered: u.disordered,
        retreatStatus: u.retreating,
        roadColumn: u.formation === 'roadColumn',
        ...(who === 'charger' ? { partialContact: !c.full, arc: c.arc } : {}),
      }),
      inContact: who === 'charger' ? c.chargerInContact : c.defenderInContact,
      cavalry: spec.kind === 'cavalry',
      artillery: spec.kind === 'artillery',
    };
  };
  return {
    charger: side('charger'),
    defender: side('defender'),
    // [p.15] out-of-control cavalry: +3 to close
    ...(c.outOfControl ? { chargerOutOfControl: true } : {}),
    // [p.15] A-64: cavalry that met its charger with a counter-charge is a charger too (+2 on its step 8 check)
    ...(c.counter ? { defenderCharged: true } : {}),
    refight,
    options: { casualtyColumn: s.sc.options.casualtyColumn },
  };
}

/**
 * [p.13-14, p.21] the defender's defence fire at its charger, if it may: it kept a defence action (a stand marker, or
 * a whole action unused), and fires small arms (infantry, all its front-rank figures; cavalry its carbines with the
 * optional rule [p.15], a defence action being an action) or canister (unlimbered guns).
 * Facing and formation changes as defence actions are not offered yet.
 */
function defenceShot(s: SeqState, c: CloseContact): SmallArmsShot | CanisterShot | null {
  const d = unitOf(s, c.defender);
  const dspec = specOf(s, c.defender);
  const charger = unitOf(s, c.charger);
  const cspec = specOf(s, c.charger);
  if (!(d.stand || d.halves <= 2) || d.retreating) return null;
  const table = tableOf(s.sc);
  const target = targetDesc(s, table, tableUnit(s, charger), tableUnit(s, d));
  const defence = cspec.kind === 'cavalry' ? ('cavalry' as const) : ('infantry' as const);
  const weapon = smallArm(s, dspec);
  if (weapon) {
    const shot: SmallArmsShot = {
      type: 'smallArms',
      fire: parseRating(dspec.rating).fire,
      fatigue: d.fatigue,
      actions: 1,
      weapon,
      figures: firingFigureCount({
        formation: d.formation,
        figures: d.figures,
        frontRank: c.defenderInContact,
        bearing: c.defenderInContact,
        defence,
      }),
      twoRank: dspec.kind === 'infantry' && dspec.ranks === 2,
      range: 0,
      target,
      defence,
    };
    return shotProblem(shot, s.sc.options) ? null : shot;
  }
  // A-75 a rocket battery has no canister: no defence fire
  if (dspec.kind === 'artillery' && !dspec.rockets && d.formation === 'unlimbered' && d.ammo < 3) {
    const shot: CanisterShot = {
      type: 'canister',
      fire: parseRating(dspec.rating).fire,
      fatigue: d.fatigue,
      actions: 1,
      calibre: dspec.calibre,
      cannons: dspec.cannons,
      howitzers: dspec.howitzers,
      ammo: d.ammo,
      range: 0,
      target,
      defence,
    };
    return shotProblem(shot, s.sc.options) ? null : shot;
  }
  return null;
}

/** [p.19] is the body's centre in woods? */
function inWoods(t: NeTable, b: TableUnit): boolean {
  return terrainUnder(t, footprint(b)).centreIn.some((p) => p.type === 'woods');
}

/** A cavalry charge on foot or guns in words, every field that tells classes apart included. */
const rideKey = (o: CavalryChargeOutcome) =>
  `${o.result} at step ${o.atStep}, losses ${o.cavalryLosses}/${o.defenderLosses}, the defender ${o.defender}, fatigue +${o.cavalryFatigue}/+${o.defenderFatigue}`;

/** The inputs of a cavalry charge on infantry or artillery [p.14-15]: both checks and the ride-down decision. */
function rideDownInput(s: SeqState, c: CloseContact, from?: 'stood' | 'failed') {
  const cav = unitOf(s, c.charger);
  const def = unitOf(s, c.defender);
  const dspec = specOf(s, c.defender);
  const f = def.formation;
  // [p.14-15] the ride-down decision from the geometry: the cavalry's starting arc, the line's front ranks against the
  // cavalry's front rank (A-32), squares; a unit that faced the charge (A-58) is charged from its front
  const body = tableUnit(s, def);
  const v = headingVec(body.at.facing);
  const start = c.faced ? { x: body.at.x + v.x * 10 * IN, y: body.at.y + v.y * 10 * IN } : c.start;
  const decision = shapeRideDown(body, tableUnit(s, cav), start);
  return {
    // [p.15] out-of-control cavalry: +3 to close
    cavalry: {
      morale: closeMorale(s, c, 'charger'),
      figures: cav.figures,
      ...(c.outOfControl ? { outOfControl: true } : {}),
    },
    defender: {
      morale: {
        ...closeMorale(s, c, 'defender'),
        lineOrColumnChargedByCavalry: f === 'line' || f === 'column',
        squareVsCavalry: f === 'square',
      },
      figures: def.figures,
      artillery: dspec.kind === 'artillery',
    },
    echelon: cav.formation === 'echelon',
    riddenDownIfCloses: !decision.protected,
    ...(from ? { from } : {}),
  };
}

/** [p.13] A-65 each pairing's modified MVs (A-63's enfilade over the defender's chargers) for the melee roll. */
function meleePairs(s: SeqState, closes: readonly number[]) {
  return closes.map((i) => {
    const ci = closeInput(s, s.closes[i]!, true);
    return {
      charger: { mv: meleeValueMods(ci.charger.melee).value, base: ci.charger.melee.base },
      defender: { mv: meleeValueMods(ci.defender.melee).value, base: ci.defender.melee.base },
    };
  });
}

/** Several chargers' melee results in words, charger by charger. */
const multiKey = (s: SeqState, closes: readonly number[], r: readonly MeleeResult[]) =>
  closes.map((i, k) => `${s.closes[i]!.charger} ${r[k]}`).join(', ');

/**
 * [p.13 step 7] one pairing's casualty dice (A-65: one each way): [to the charger, to the defender], exact over the two
 * D6s; the +1s of p.13 (winner, cavalry against cavalry, a charger on the flank), the column per A-59.
 */
function pairCasualties(s: SeqState, i: number, result: MeleeResult): { value: [number, number]; p: number }[] {
  const c = s.closes[i]!;
  const ci = closeInput(s, c, true);
  const w = meleeWinner(result);
  const cvc = ci.charger.cavalry && ci.defender.cavalry;
  const col = s.sc.options.casualtyColumn;
  const [byC, byD] = meleeCasualtyRolls(w, ci.charger.inContact, ci.defender.inContact, cvc, c.arc !== 'front', col);
  const toD = byC.dist;
  const toC = byD.dist;
  const out = new Map<string, { value: [number, number]; p: number }>();
  for (const a of toC)
    for (const b of toD) {
      const k = `${a.value}/${b.value}`;
      const e = out.get(k);
      if (e) e.p += a.p * b.p;
      else out.set(k, { value: [a.value, b.value], p: a.p * b.p });
    }
  return [...out.values()];
}

/**
 * [p.14] A-33: a tie of equal base values (its casualties and fatigue taken): "the close action is fought again next
 * period", first in its step 9; both units stay in contact and locked until then.
 */
function refightNextPeriod(s: SeqState, i: number, log: Log): SeqState {
  const c = s.closes[i]!;
  log?.push({ rule: 'p.14', text: `${c.charger} against ${c.defender}: a tie, fought again next period (A-33)` });
  const t = { ...s, closes: s.closes.map((x, k) => (k === i ? { ...x, refight: true } : x)) };
  return updUnit(updUnit(t, c.charger, { locked: true }), c.defender, { locked: true });
}

/**
 * [p.13 steps 8-9] A-65 after several chargers' melee: the defender is the loser if it lost to any charger (one step 8
 * check), every charger that lost to it is a loser (+2); a tie of equal base values is fought again next period (A-33);
 * fatigue +1 once for each; a winner in retreat status recovers [p.12]; winning cavalry checks for loss of control.
 */
function multiLosers(s0: SeqState, closes: readonly number[], results: readonly MeleeResult[], log: Log): SeqState {
  let s = s0;
  const d = s.closes[closes[0]!]!.defender;
  const defenderLostTo = closes.find((_i, k) => meleeWinner(results[k]!).winner === 'charger');
  const refights = closes.filter((_i, k) => results[k] === 'refight');
  for (const id of [d, ...closes.map((i) => s.closes[i]!.charger)]) {
    const u = unitOf(s, id);
    if (u.status !== 'active') continue;
    s = updUnit(s, id, {
      fatigue: fatigueAfter(u.fatigue, 1),
      locked: refights.length > 0 && (id === d || refights.some((i) => s.closes[i]!.charger === id)),
      marked: 0,
    });
  }
  log?.push({ rule: 'p.13 step 9', text: `${d} and its chargers: fatigue +1 each (once, A-65)` });
  const frames: Frame[] = [];
  if (defenderLostTo !== undefined) frames.push({ t: 'closeLoser', close: defenderLostTo, who: 'defender' });
  closes.forEach((i, k) => {
    const c = s.closes[i]!;
    const w = meleeWinner(results[k]!).winner;
    if (w === 'defender') frames.push({ t: 'closeLoser', close: i, who: 'charger' });
    if (w === 'charger') {
      // [p.12] a winner in retreat status recovers; [p.15] winning cavalry checks for loss of control
      if (unitOf(s, c.charger).retreating) s = updUnit(s, c.charger, { retreating: false });
      s = cavalryWon(s, c.charger, {
        byOutOfControl: c.outOfControl === true,
        riddenDown: false,
        destroyed: unitOf(s, d).status === 'eliminated',
      });
    }
  });
  if (defenderLostTo === undefined && results.some((r) => meleeWinner(r).winner === 'defender')) {
    if (unitOf(s, d).retreating) s = updUnit(s, d, { retreating: false });
    s = cavalryWon(s, d, { byOutOfControl: false, riddenDown: false, destroyed: false });
  }
  for (const i of refights) s = refightNextPeriod(s, i, log);
  return push(s, ...frames.reverse());
}

/** [p.13 step 8] a loser's check: +2 if it charged (A-64: a counter-charging defender too); in retreat status it routs. */
function loserCheckOf(s: SeqState, i: number, who: 'charger' | 'defender') {
  const c = s.closes[i]!;
  const id = who === 'charger' ? c.charger : c.defender;
  return loserCheck(closeMorale(s, c, who), {
    wasCharger: who === 'charger' || c.counter === true,
    artillery: specOf(s, id).kind === 'artillery',
  });
}

/** [p.19] A-61's inputs: the cavalry's step 5 check, the screen's figures in its frontage, the screen's loser check. */
function screenInput(s: SeqState, i: number) {
  const c = s.closes[i]!;
  return {
    cavalry: closeMorale(s, c, 'charger'),
    screen: closeMorale(s, c, 'defender'),
    figuresInFrontage: screenFiguresStruck(s, c),
    ...(c.outOfControl ? { outOfControl: true } : {}),
  };
}

const screenKey = (o: { closed: boolean; removed: number; screen: string }) =>
  `${o.closed ? 'closes' : 'halts'}, ${o.removed} removed, the screen ${o.screen}`;

/**
 * [p.19] A-61 "removing all the skirmish figures in the cavalry unit's frontage": the figures (2" each along the
 * screen's front, in order) whose segment overlaps the cavalry's front edge projected on the screen's front line.
 */
function screenFiguresStruck(s: SeqState, c: CloseContact): number {
  const scr = unitOf(s, c.defender);
  const [a, b] = frontEdge(tableUnit(s, scr));
  const [p, q] = frontEdge(tableUnit(s, unitOf(s, c.charger)));
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / len;
  const uy = (b.y - a.y) / len;
  const s0 = (p.x - a.x) * ux + (p.y - a.y) * uy;
  const s1 = (q.x - a.x) * ux + (q.y - a.y) * uy;
  const lo = Math.max(0, Math.min(s0, s1));
  const hi = Math.min(len, Math.max(s0, s1));
  const per = len / scr.figures;
  let n = 0;
  for (let k = 0; k < scr.figures; k++) if (k * per < hi - 1 && (k + 1) * per > lo + 1) n++;
  return n;
}

/** One defence action the defender of a close may take [p.13-14] (A-58), with its stable key. */
interface DefenceOption {
  readonly key: string;
  readonly kind: 'fire' | 'face' | 'form' | 'none' | 'abandon';
  /** The close action (its charger) it is taken against. */
  readonly close: number;
  readonly to?: Formation;
  /** [p.10] a battery's defence fire as rapid fire. */
  readonly rapid?: boolean;
  /** [p.7] the flank a line refuses against a charge on that flank. */
  readonly refuse?: 'left' | 'right';
}

/**
 * [p.13-14 steps 3-4] the defence actions of the defender of `group` (its chargers, A-65: one defence action): it
 * needs a stand marker or an unused action, and not in retreat status. Fire at one charger (A-58: its pick); face a
 * charger that came in outside its front arc (A-58: turned on its centre to face it, the charger re-conformed); or a
 * formation change that costs one action or less (A-58: a square among them). Against cavalry charging foot or guns,
 * facing and formation changes are not allowed when a cavalry's reaction distance is 10" or less [p.14]. Keys: `defence
 * fire`, `defence face` (the first charger), `defence fire at X`, `defence face X` (another), `defence form F`, `no
 * defence action`.
 */
function defenceOptions(s: SeqState, close: number, group: readonly number[]): DefenceOption[] {
  const none: DefenceOption = { key: 'no defence action', kind: 'none', close };
  const opts = defenceActions(s, close, group);
  return [...opts, none];
}

function defenceActions(s: SeqState, close: number, group: readonly number[]): DefenceOption[] {
  const out: DefenceOption[] = [];
  const c0 = s.closes[close]!;
  const d = unitOf(s, c0.defender);
  if (!(d.stand || d.halves <= 2) || d.retreating || d.status !== 'active') return out;
  const live = group.filter((i) => closeAlive(s, s.closes[i]!));
  for (const i of live) {
    const c = s.closes[i]!;
    const shot = defenceShot(s, c);
    if (shot) out.push({ key: i === close ? 'defence fire' : `defence fire at ${c.charger}`, kind: 'fire', close: i });
    // [p.10] a battery at Normal fatigue may make its defence fire rapid fire (not in heavy rain)
    if (shot?.type === 'canister' && !shotProblem(weathered(s, { ...shot, rapid: true }), s.sc.options))
      out.push({
        key: i === close ? 'defence fire rapid' : `defence fire at ${c.charger} rapid`,
        kind: 'fire',
        close: i,
        rapid: true,
      });
  }
  // [p.10] "instead of using a defense action to fire the guns, the crew of the battery may abandon their guns and
  // run for cover" (A-51)
  if (specOf(s, d.id).kind === 'artillery' && !c0.screen) out.push({ key: 'abandon guns', kind: 'abandon', close });
  // A-61: a screen only fires
  if (c0.screen || d.disordered) return out;
  const changes = live.every((i) => {
    const c = s.closes[i]!;
    return !c.rideDown || cavalryReaction(c.distance ?? 0, c.changedFirst === true).changesAllowed;
  });
  if (!changes) return out;
  for (const i of live) {
    const c = s.closes[i]!;
    if (c.arc === 'front' || d.formation === 'square' || !facedBodies(s, i)) continue;
    out.push({ key: i === close ? 'defence face' : `defence face ${c.charger}`, kind: 'face', close: i });
  }
  const spec = specOf(s, d.id);
  for (const [to, cost] of formationChanges(s, spec, d)) {
    if (cost > 1 || to === 'roadColumn' || to === 'skirmish') continue;
    if (!formedBody(s, live, to)) continue;
    out.push({ key: `defence form ${to}`, kind: 'form', close, to });
  }
  // [p.7] "a unit may use this as a defense action if the unit is charged on the flank side": a line refuses the flank
  // a charger came in on (A-58: only against a flank charge)
  if (spec.kind === 'infantry' && d.formation === 'line' && !d.refused && !d.supported)
    for (const side of ['left', 'right'] as const)
      if (live.some((i) => chargedOn(s, i) === side) && refusedBody(s, live, side))
        out.push({ key: `defence form refused ${side}`, kind: 'form', close, refuse: side });
  return out;
}

/** [p.7] the flank of its defender a flank charge `i` came in on (null: a frontal charge). */
function chargedOn(s: SeqState, i: number): 'left' | 'right' | null {
  const c = s.closes[i]!;
  if (c.arc === 'front') return null;
  const d = unitOf(s, c.defender);
  const cc = centreOf(tableUnit(s, unitOf(s, c.charger)));
  const dc = centreOf(tableUnit(s, d));
  const aim = (Math.atan2(cc.x - dc.x, cc.y - dc.y) * 180) / Math.PI;
  return ((aim - d.facing + 540) % 360) - 180 >= 0 ? 'right' : 'left';
}

/** [p.7] A-58 the defender's line with a flank refused, if it fits (its chargers may touch it). */
function refusedBody(s: SeqState, group: readonly number[], side: 'left' | 'right'): TableUnit | null {
  const d = unitOf(s, s.closes[group[0]!]!.defender);
  const body = tableUnit(s, { ...d, refused: side });
  return fitsBut(s, body, [d.id, ...group.map((i) => s.closes[i]!.charger)]) ? body : null;
}

/**
 * [p.7] A-58 a refused flank against the chargers on that flank: the refused figures face them, so a charger now in
 * their front arc strikes a front (a reading: the point of refusing is to meet the charge with a front).
 */
function refuseAgainst(s: SeqState, group: readonly number[], side: 'left' | 'right'): SeqState {
  const d0 = unitOf(s, s.closes[group[0]!]!.defender);
  const body = refusedBody(s, group, side);
  if (!body) return s;
  const t = updUnit(s, d0.id, { refused: side });
  const closes = t.closes.map((c, i) =>
    group.includes(i) &&
    chargedOn(s, i) === side &&
    arcOf(body, centreOf(tableUnit(t, unitOf(t, c.charger)))) === 'front'
      ? { ...c, arc: 'front' as const }
      : c,
  );
  return { ...t, closes };
}

/** [p.13-14] the morale check of a defence change against close `i`'s charger (A-66: +2 favourable). */
function defenceChangeCheckOf(s: SeqState, i: number) {
  const c = s.closes[i]!;
  return defenceChangeCheck(
    closeMorale(s, c, 'defender'),
    c.rideDown
      ? { cavalry: { chargeDistance: c.distance ?? 0, changedBeforeCharge: c.changedFirst === true } }
      : { chargerUsedBothActions: c.usedBoth === true },
  );
}

/**
 * A-58 a defence facing change: the defender turned on its centre to face the charger of close `i`, the charger laid
 * front to front with it, centred (A-54's conforming); null when either would not fit.
 */
function facedBodies(s: SeqState, i: number): { defender: TableUnit; charger: TableUnit } | null {
  const c = s.closes[i]!;
  const d = tableUnit(s, unitOf(s, c.defender));
  const ch = tableUnit(s, unitOf(s, c.charger));
  const dc = centreOf(d);
  const cc = centreOf(ch);
  const aim = (Math.atan2(cc.x - dc.x, cc.y - dc.y) * 180) / Math.PI;
  const turned: TableUnit = { ...d, ...pivot(d, ((aim - d.at.facing + 540) % 360) - 180) };
  const charger: TableUnit = {
    ...ch,
    at: { x: turned.at.x, y: turned.at.y, facing: (Math.round(turned.at.facing * 100) / 100 + 180) % 360 },
  };
  const ok = (b: TableUnit, other: string) => fitsBut(s, b, [b.id, other]);
  if (!ok(turned, ch.id) || !ok(charger, d.id)) return null;
  return { defender: turned, charger };
}

/** A body on the table overlapping no active unit but those named. */
function fitsBut(s: SeqState, body: TableUnit, ids: readonly string[]): boolean {
  const t = tableOf(s.sc);
  const poly = footprint(body);
  if (poly.some((p) => p.x < 0 || p.y < 0 || p.x > t.width || p.y > t.height)) return false;
  return !s.units.some(
    (o) => !ids.includes(o.id) && o.status === 'active' && polygonsOverlap(poly, footprint(tableUnit(s, o))),
  );
}

/** A-58 a defence formation change: the re-formed body, if it fits (overlapping none of its chargers either). */
function formedBody(s: SeqState, group: readonly number[], to: Formation): TableUnit | null {
  const d = unitOf(s, s.closes[group[0]!]!.defender);
  const b = tableUnit(s, d);
  const body: TableUnit = { ...b, ...reform(b, to) };
  return fits(s, body, d.id) ? body : null;
}

/** [p.13-14] A-58 the charge faced: the defender turned, the charger re-conformed, the charge now frontal. */
function faceCharge(s: SeqState, i: number): SeqState {
  const c = s.closes[i]!;
  const b = facedBodies(s, i);
  if (!b) return s;
  let t = updUnit(s, c.defender, { x: b.defender.at.x, y: b.defender.at.y, facing: b.defender.at.facing });
  t = updUnit(t, c.charger, { x: b.charger.at.x, y: b.charger.at.y, facing: b.charger.at.facing });
  const w = Math.min(layout(b.defender).w, layout(b.charger).w);
  const re = contactOf(t, unitOf(t, c.charger), unitOf(t, c.defender), {
    overlap: w,
    full: true,
    arc: 'front',
    face: 'front',
    part: 'main',
    distance: Math.round((c.distance ?? 0) * IN),
  } as ChargeContact);
  const nc: CloseContact = {
    ...c,
    arc: 'front',
    faced: true,
    full: true,
    face: re.face,
    chargerInContact: re.chargerInContact,
    defenderInContact: re.defenderInContact,
  };
  return { ...t, closes: t.closes.map((x, k) => (k === i ? nc : x)) };
}

/**
 * [p.13-14] A-58 a defence formation change against the chargers of `group`: each charger no longer touching is moved
 * straight on into contact again (re-conformed, A-54); the figures in contact are counted anew; a square has no flank.
 */
function formAgainst(s: SeqState, group: readonly number[], to: Formation): SeqState {
  const d0 = unitOf(s, s.closes[group[0]!]!.defender);
  const body = formedBody(s, group, to);
  if (!body) return s;
  let t = updUnit(s, d0.id, {
    formation: to,
    x: body.at.x,
    y: body.at.y,
    ...(d0.supported ? { supported: false } : {}),
  });
  const closes = [...t.closes];
  for (const i of group) {
    const c = closes[i]!;
    const ch = unitOf(t, c.charger);
    const all = t.units.filter((x) => x.status === 'active').map((x) => tableUnit(t, x));
    const cb = all.find((x) => x.id === ch.id)!;
    const db = all.find((x) => x.id === d0.id)!;
    const gap = unitDistance(cb, db);
    const cts = chargeContacts(tableOf(t.sc), all, cb, db, gap + 2 * IN);
    const ct = [...cts].sort((a, b) => Math.abs(a.turn) - Math.abs(b.turn) || a.distance - b.distance)[0];
    if (!ct) continue;
    t = updUnit(t, ch.id, { x: ct.at.x, y: ct.at.y, facing: ct.at.facing });
    const re = contactOf(t, unitOf(t, ch.id), unitOf(t, d0.id), ct);
    closes[i] = {
      ...c,
      arc: to === 'square' ? 'front' : c.arc,
      full: re.full,
      face: re.face,
      chargerInContact: re.chargerInContact,
      defenderInContact: re.defenderInContact,
    };
  }
  return { ...t, closes };
}

/**
 * [p.13 steps 7, 9] a close action's casualties and fatigue on both sides (A-43: below 2 figures a unit is gone);
 * `stay` keeps them locked (a tie fought again, A-33).
 */
function closeLosses(s: SeqState, c: CloseContact, o: CloseOutcome, stay: boolean): SeqState {
  let t = s;
  for (const [id, lost, tired] of [
    [c.charger, o.chargerLosses, o.chargerFatigue],
    [c.defender, o.defenderLosses, o.defenderFatigue],
  ] as const) {
    const u = unitOf(t, id);
    t = updUnit(t, id, { locked: stay, marked: 0, fatigue: fatigueAfter(u.fatigue, tired) });
    t = closeCasualties(t, id, lost);
  }
  return t;
}

/** A close action's outcome class in words, every field that tells classes apart included. */
const closeKey = (o: CloseOutcome) =>
  [
    !o.closed ? 'the charger halts' : o.melee === 'refight' ? 'a tie, fought again next period' : `${o.melee}`,
    `losses ${o.chargerLosses}/${o.defenderLosses}`,
    o.loser ? `the loser ${o.loser}` : '',
    o.winnerRecovers ? 'the winner recovers' : '',
    o.gunsAbandoned ? 'guns abandoned' : '',
    `fatigue +${o.chargerFatigue}/+${o.defenderFatigue}`,
  ]
    .filter(Boolean)
    .join(', ');

/** What a step 10 check needs to know of the unit [p.11-12]. */
function moraleInput(s: SeqState, id: string): MoraleInput {
  const u = unitOf(s, id);
  const spec = specOf(s, id);
  return {
    check: 'marked',
    kind: spec.kind,
    formation: u.formation,
    morale: parseRating(spec.rating).morale,
    originalFigures: u.originalFigures,
    figures: strength(u),
    fatigue: u.fatigue,
    disordered: u.disordered,
    inRetreat: u.retreating,
    leaderBonus: leaderBonus(s, id),
    thresholdFailed: thresholdFailed(s, id),
    supported: isSupported(s, u),
    // [p.12] what being fired on this period gave the mark
    firedOnFlank: u.reasons.includes('firedOnFlank'),
    twelvePounders: u.reasons.includes('twelvePounders'),
    artilleryFiredOnByArtillery: u.reasons.includes('artilleryFiredOnByArtillery'),
  };
}

/** [p.12] A-50 a unit's strength for its casualty modifiers: its figures, a battery's guns less its crew hits. */
const strength = (u: SeqUnit) => u.figures - (u.hits ?? 0);

/** [p.12] a friendly unit, not in retreat status, within 4". */
function isSupported(s: SeqState, u: SeqUnit): boolean {
  const friends = s.units
    .filter((o) => o.side === u.side && o.id !== u.id && o.status === 'active')
    .map((o) => ({ body: tableUnit(s, o), inRetreat: o.retreating }));
  return supported(tableUnit(s, u), friends);
}

/** An objective's ground: its block [p.19], its terrain piece, or its own polygon. */
function objectiveArea(s: SeqState, o: ObjectiveSpec): Polygon {
  if (o.polygon) return o.polygon.map(([x, y]) => ({ x: Math.round(x * IN), y: Math.round(y * IN) }));
  const piece = tableOf(s.sc).pieces.find((p) => p.id === (o.block ?? o.terrain));
  if (piece?.type === 'block') {
    const h = 2 * IN;
    return [
      { x: piece.x - h, y: piece.y - h },
      { x: piece.x + h, y: piece.y - h },
      { x: piece.x + h, y: piece.y + h },
      { x: piece.x - h, y: piece.y + h },
    ];
  }
  if (piece && 'polygon' in piece) return piece.polygon;
  throw new NotImplementedRuleError('A-79', `objective ${o.id}: its ground "${o.block ?? o.terrain}" has no area`);
}

/**
 * A-79: an objective is held by the side with a formed, non-retreating unit in it or within `within`, with no formed
 * enemy there; `lastHeld` keeps the last holder, `present` only counts who is there now.
 */
function holderNow(s: SeqState, o: ObjectiveSpec): Side | -1 {
  // [p.19] a building block is held by the side with figures in it (no enemy may enter it then); nearby units do not
  if (o.block && blocksOf(s.sc).some((b) => b.id === o.block)) {
    const town = townOf(s);
    return figuresIn(town, o.block, 0) > 0 ? 0 : figuresIn(town, o.block, 1) > 0 ? 1 : -1;
  }
  const area = objectiveArea(s, o);
  const there = [false, false];
  for (const u of s.units) {
    if (u.status !== 'active' || u.retreating || u.formation === 'skirmish') continue;
    if (polygonDistance(footprint(tableUnit(s, u)), area) <= o.within * IN) there[u.side] = true;
  }
  return there[0] === there[1] ? -1 : there[0] ? 0 : 1;
}

function holdObjectives(s: SeqState, log: Log): SeqState {
  if (!s.sc.victory.objectives.length) return s;
  const held: Record<string, Side | -1> = { ...s.held };
  for (const o of s.sc.victory.objectives) {
    const now = holderNow(s, o);
    const next = o.hold === 'present' || now !== -1 ? now : (held[o.id] ?? -1);
    if (next !== (held[o.id] ?? -1) && next !== -1)
      log?.push({ rule: 'A-79', text: `${nameOf(s, next)} hold ${o.name ?? o.id}` });
    held[o.id] = next;
  }
  return { ...s, held };
}

/** A-79 victory points of each side at the end: enemy units lost or retreating, and the objectives held. */
export function victoryPoints(s: SeqState): [number, number] {
  const v = s.sc.victory;
  const vp: [number, number] = [0, 0];
  for (const u of s.units) {
    const spec = specOf(s, u.id);
    const guard = spec.kind === 'infantry' && (spec.troopClass === 'guard' || spec.guard !== undefined);
    const other = (1 - u.side) as Side;
    if (u.gunsLost) vp[other] += v.batteryGunsLost;
    else if (u.status !== 'active') vp[other] += guard ? v.guardUnitLost : v.unitLost;
    else if (u.retreating) vp[other] += v.retreatingAtEnd;
  }
  for (const l of s.leaders) if (l.lost) vp[l.side === 0 ? 1 : 0] += v.leaderLost;
  for (const o of v.objectives) {
    const h = s.held[o.id] ?? -1;
    if (h !== -1) vp[h] += o.vp;
  }
  return vp;
}

/** A-79: the higher total wins; a margin below the scenario's draw margin is a draw. */
function winnerOf(s: SeqState, vp: readonly [number, number]): Side | -1 {
  const d = vp[0] - vp[1];
  return Math.abs(d) < s.sc.victory.drawMargin ? -1 : d > 0 ? 0 : 1;
}

function resultOf(s: SeqState, vp: readonly [number, number]): string {
  if (s.conceded === 'both') return 'a draw: both armies failed their thresholds (A-79)';
  if (s.conceded !== null)
    return `${s.sc.sides[1 - s.conceded]!.name} win: ${s.sc.sides[s.conceded]!.name}' army failed its threshold and concedes (A-79)`;
  const w = winnerOf(s, vp);
  const names = s.sc.sides.map((x) => x.name);
  return `${w === -1 ? 'a draw' : `${names[w]} win`} on victory points, ${vp[0]} to ${vp[1]} (A-79)`;
}

/** A-24: four half-actions a period. */
const BUDGET = 4;

export const unitOf = (s: SeqState, id: string): SeqUnit => s.units.find((u) => u.id === id)!;
const specOf = (s: SeqState, id: string): UnitSpec => s.sc.sides.flatMap((x) => x.units).find((u) => u.id === id)!;

/** The unit as `shape.ts` sees it. */
function tableUnit(s: SeqState, u: SeqUnit): TableUnit {
  const b00 = bodyOf(specOf(s, u.id), u.side, { x: u.x, y: u.y, facing: u.facing }, u.formation, u.figures);
  // [p.10] massed guns stand two deep; [p.7] a refused line has its end rolled back 90° (A-4)
  const b0: TableUnit =
    u.massed && u.formation === 'unlimbered'
      ? { ...b00, formation: 'massed' }
      : u.refused && u.formation === 'line'
        ? { ...b00, formation: 'refusedFlank', refused: { side: u.refused } }
        : b00;
  // [p.24] a supported line is "still considered a line formation" with its figures in two rows (A-4)
  const b: TableUnit = u.supported && u.formation === 'line' ? { ...b0, formation: 'supportedLine' } : b0;
  // [p.19] a unit in blocks is its main block on the table
  const c: TableUnit = inTown(u) ? { ...b, inBlock: true } : b;
  // A-18: a unit in contact, awaiting its close action, may not be fired at
  return u.locked ? { ...c, inCloseAction: true } : c;
}

/** [p.6] inches per action for a move of `kind` in the unit's formation, or null if it cannot make that move. */
function rate(spec: UnitSpec, u: SeqUnit, kind: MoveKind): number | null {
  // [p.19] screens "can not move sideways (except for sidestep)"
  if (kind === 'left' || kind === 'right')
    return u.formation === 'square'
      ? null
      : spec.kind === 'artillery'
        ? OTHER_MOVES.sidestepArtillery
        : OTHER_MOVES.sidestepInfantryCavalry;
  const row = spec.kind === 'artillery' ? artilleryMoveRow(spec.arm, spec.calibre) : null;
  // [p.6-7] unlimbered guns prolong forward or back
  if (row && u.formation === 'unlimbered') return ARTILLERY_MOVE[row].prolong;
  if (kind === 'back') {
    if (spec.kind === 'artillery' || u.formation === 'square') return null;
    // [p.19] "Skirmish lines may move up to 8” per action forward or backwards"
    if (u.formation === 'skirmish')
      return spec.kind === 'infantry'
        ? INFANTRY_MOVE[moveRatingOf(spec)].skirmish
        : CAVALRY_MOVE[moveRatingOf(spec)].skirmish;
    return OTHER_MOVES.fallBack;
  }
  const m = moveRatingOf(spec);
  if (spec.kind === 'infantry') {
    const r = INFANTRY_MOVE[m];
    // A-29: a road column off the road moves at the column rate
    return u.formation === 'line'
      ? r.line
      : u.formation === 'square'
        ? r.square
        : u.formation === 'skirmish'
          ? r.skirmish
          : r.column;
  }
  if (spec.kind === 'cavalry') {
    const r = CAVALRY_MOVE[m];
    return u.formation === 'line' || u.formation === 'echelon'
      ? r.line
      : u.formation === 'skirmish'
        ? r.skirmish
        : r.column;
  }
  // [p.6] a limbered battery's field move
  return u.formation === 'limbered' && row ? artilleryFieldMove(row, m) : null;
}

interface Primitive {
  readonly key: Action;
  apply(s: SeqState, log: Log): SeqState;
}

const inches = (n: number) => `${(n / IN).toFixed(2)}"`;

/** The primitives a unit may take now (A-24): END always; moves of ½ or 1 action; the rest refuse by name. */
function activation(s: SeqState, id: string): Primitive[] {
  // legalActions and apply ask for the same menu (apply on the state with the frame popped): it depends only on the
  // units, the leaders and the scenario, so it is kept per units and leaders arrays (immutable, shared while unchanged)
  let byLeaders = activations.get(s.units);
  if (!byLeaders) activations.set(s.units, (byLeaders = new WeakMap()));
  let byUnit = byLeaders.get(s.leaders);
  if (!byUnit) byLeaders.set(s.leaders, (byUnit = new Map()));
  let menu = byUnit.get(id);
  // [p.11] optional caissons: fire at them and charge them
  if (!menu) byUnit.set(id, (menu = [...menuOf(s, id), ...caissonMenu(s, id)]));
  return menu;
}

const activations = new WeakMap<readonly SeqUnit[], WeakMap<readonly SeqLeader[], Map<string, Primitive[]>>>();

function menuOf(s: SeqState, id: string): Primitive[] {
  const u = unitOf(s, id);
  const out: Primitive[] = [{ key: 'end', apply: (t) => t }];
  const left = BUDGET - u.halves;
  // A-24: a force march adds two half-actions that only movement (a charge included) may spend
  const moveLeft = left + (u.forceMarch ? 2 : 0);
  if (moveLeft <= 0) return out;
  // [p.12] a unit in retreat status spends its actions recovering, one a time (A-68)
  if (u.retreating) {
    // A-68: it spends all its actions recovering (END only when none is left)
    if (left >= 2) out.length = 0;
    if (left >= 2)
      out.push({
        key: 'recover',
        apply(t, log) {
          const owed = Math.max(0, u.recovery - 1);
          log?.push({
            rule: 'p.12',
            text: owed ? `${id} recovers (${owed} action${owed === 1 ? '' : 's'} still owed)` : `${id} has recovered`,
          });
          // A-68: recovered, it re-forms in column (a battery limbered)
          const formed = owed > 0 ? {} : { formation: recoveredFormation(specOf(t, id).kind) };
          return updUnit(t, id, {
            recovery: owed,
            retreating: owed > 0,
            halves: u.halves + 2,
            ...formed,
            ...(owed > 0 ? {} : { riddenDown: false }),
          });
        },
      });
    return out;
  }
  // [p.19] a unit in blocks moves between them or leaves; it fires out at step 9 (A-74), and does nothing else
  if (inTown(u)) return [...out, ...townMenu(s, u, left)];
  // [p.10] A-51 spiking, abandoning the guns, overrunning abandoned enemy guns
  out.push(...crewMenu(s, u, left));
  const spec = specOf(s, id);
  const all = s.units.filter((x) => x.status === 'active').map((x) => tableUnit(s, x));
  const mover = all.find((x) => x.id === id)!;
  // [p.8] fire: one or two actions at a mandatory target (A-40): infantry small arms, and [p.15] the optional carbines
  // of cavalry that has them ("Cavalry may fire their carbines as an action": fire, then charge with the other)
  const weapon = smallArm(s, spec);
  // [p.10] A-51 the enemy crews in the open are targets like any other (arc, range, sight, A-40's mandatory target),
  // and may be charged; a crew in cover is neither (its body is named `crew B`, B its battery)
  const crews = openCrews(s, u.side);
  const shootable = crews.length ? [...all, ...crews] : all;
  const bodyOfTarget = (tid: string) => shootable.find((x) => x.id === tid)!;
  const descOf = (b: TableUnit) =>
    isCrewTarget(b.id) ? crewDesc(s, tableOf(s.sc), b, mover) : targetDesc(s, tableOf(s.sc), b, mover);
  if (weapon) {
    const table = tableOf(s.sc);
    for (const ft of mandatoryTargets(table, shootable, mover, weapon)) {
      // A-16 (option smokeBlocksLos): smoke blocks the line of sight
      if (smokeBlocks(s, mover, bodyOfTarget(ft.id))) continue;
      const desc = descOf(bodyOfTarget(ft.id));
      // [p.19] an enemy screen between an infantry firer and its target takes a quarter of the fire
      const screen = spec.kind === 'infantry' ? interveningScreen(s, table, shootable, mover, ft.id) : null;
      for (const actions of [1, 2] as const) {
        if (2 * actions > left) continue;
        const shot = smallArmsShot(spec, u, weapon, ft, actions, desc, screen);
        if (shotProblem(shot, s.sc.options)) continue;
        out.push({
          key: `fire ${ft.id} ${actions}`,
          apply: (t) => fireAction(t, id, u.halves + 2 * actions, shot),
        });
      }
    }
  }
  // [p.6] force march: declared once a period by a unit not tired or exhausted; its fatigue +2 comes [p.5] "right
  // after the activity was performed": when its extra action is spent (forceMarchFatigue)
  if (!u.forceMarch && canForceMarch(u.fatigue) && spec.kind !== 'artillery' && u.halves === 0)
    out.push({
      key: 'force march',
      apply(t, log) {
        log?.push({
          rule: 'p.6',
          text: `${id} force-marches: one more action, to move only (its fatigue rises when it has moved it, p.5)`,
        });
        return updUnit(t, id, { forceMarch: true });
      },
    });
  // [p.7] "instead of making a normal move, a unit may … volunteer to retreat" by the p.12 procedure: its recovery area
  // and reform roll; it takes the rest of its activation (the digest's reading). Not an unlimbered battery (it
  // retreats 0", A-57) nor a unit locked in a close action.
  if (left >= 2 && !u.locked && !(spec.kind === 'artillery' && u.formation === 'unlimbered'))
    out.push({
      key: 'volunteer retreat',
      apply(t, log) {
        log?.push({ rule: 'p.7', text: `${id} volunteers to retreat (the p.12 procedure)` });
        const v = updUnit(t, id, { halves: Math.max(u.halves, BUDGET) });
        return enterRetreat({ ...v, stack: v.stack.slice(0, -1) }, id);
      },
    });
  // [p.5] rest: an action that does nothing else recovers a fatigue level
  if (u.fatigue > 0 && left >= 2)
    out.push({
      key: 'rest',
      apply(t, log) {
        log?.push({ rule: 'p.5', text: `${id} rests (fatigue ${u.fatigue} → ${u.fatigue - 1})` });
        return updUnit(t, id, { fatigue: rest(u.fatigue, 1), halves: u.halves + 2 });
      },
    });
  // [p.6] reform: one full action clears disorder (A-25); a disordered unit changes no formation until then
  if (u.disordered && left >= 2)
    out.push({
      key: 'reform',
      apply(t, log) {
        log?.push({ rule: 'p.6', text: `${id} reforms (no longer disordered)` });
        return updUnit(t, id, { disordered: false, halves: u.halves + 2 });
      },
    });
  // [p.7] formation changes, all to the front; facing changes by the formation's brackets; about face
  if (!u.disordered) {
    // [p.7] the variants: line on a flank, a refused flank and back, limbering to the rear, massed guns [p.10]
    out.push(...formationVariants(s, spec, u, mover, left));
    // a refused line only brings its flank back (A-4: changes not listed need intermediate steps)
    for (const [to, cost] of u.refused ? [] : formationChanges(s, spec, u)) {
      const halves = Math.round(cost * 2);
      if (halves > left) continue;
      const body: TableUnit = { ...mover, ...reform(mover, to) };
      if (!fits(s, body, id)) continue;
      out.push({
        key: `form ${to}`,
        apply(t, log) {
          log?.push({ rule: 'p.7', text: `${id} forms ${to} (${cost} action${cost === 1 ? '' : 's'})` });
          return updUnit(t, id, {
            formation: to,
            halves: u.halves + halves,
            x: body.at.x,
            y: body.at.y,
            changed: true,
            ...(u.supported ? { supported: false } : {}),
            ...(u.massed ? { massed: false } : {}),
          });
        },
      });
    }
    // [p.24] optional supported line: a line forms its figures up in two rows, or back (one action, A-4's table)
    if (s.sc.options.supportedLine && spec.kind === 'infantry' && u.formation === 'line' && !u.refused && left >= 2) {
      const to = !u.supported;
      const body: TableUnit = { ...mover, formation: to ? 'supportedLine' : 'line' };
      if (fits(s, body, id))
        out.push({
          key: to ? 'form supported line' : 'form line',
          apply(t, log) {
            log?.push({
              rule: 'p.24',
              text: `${id} forms ${to ? 'a supported line (two rows: only the front one fires)' : 'a line from its supported line'} (1 action)`,
            });
            return updUnit(t, id, { supported: to, halves: u.halves + 2 });
          },
        });
    }
    const ff: FacingFormation | null =
      // A-30: unlimbered guns and skirmish screens turn as a line
      u.formation === 'line' || u.formation === 'unlimbered' || u.formation === 'skirmish'
        ? 'line'
        : u.formation === 'echelon'
          ? 'echelon'
          : u.formation === 'column' || u.formation === 'roadColumn' || u.formation === 'limbered'
            ? 'column'
            : null;
    const turns: [number, number | null, string?][] = ff
      ? [-135, -90, -45, 45, 90, 135].map((d) => [d, facingChangeCost(ff, d)])
      : [];
    // A-30: a costed bracket may stop at any angle in it: the exact bearing to each of the three nearest enemies within
    // 24" (§8.3.2 FACE(E)), at its bracket's cost (`face <enemy>`)
    if (ff)
      for (const e of facingTargets(s, u, mover))
        if (!turns.some(([d]) => d === e.deg)) turns.push([e.deg, facingChangeCost(ff, e.deg), e.id]);
    if (u.formation !== 'square') turns.push([180, FORMATION_CHANGE.aboutFace]);
    for (const [deg, cost, toward] of turns) {
      if (cost === null) continue;
      const halves = Math.round(cost * 2);
      if (halves === 0 || halves > left) continue;
      const body: TableUnit = { ...mover, ...pivot(mover, deg) };
      if (!fits(s, body, id)) continue;
      out.push({
        key: toward
          ? `face ${deg > 0 ? '+' : ''}${deg} ${toward}`
          : deg === 180
            ? 'about face'
            : `face ${deg > 0 ? '+' : ''}${deg}`,
        apply(t, log) {
          log?.push({
            rule: toward ? 'A-30' : 'p.7',
            text: `${id} ${deg === 180 && !toward ? 'about faces' : `turns ${deg}°${toward ? ` to face ${toward}` : ''}`} (${cost} action${cost === 1 ? '' : 's'})`,
          });
          return updUnit(t, id, { facing: body.at.facing, halves: u.halves + halves, changed: true });
        },
      });
    }
  }
  // [p.20] A-75 a rocket battery fires only rockets, at units in blocks
  out.push(...rocketMenu(s, u, left, mover, shootable));
  // [p.8] canister: an unlimbered battery fires one or two actions at a mandatory target within its close band;
  // solid shot at longer range (aim point, bounce) is not built yet
  if (spec.kind === 'artillery' && !spec.rockets && u.formation === 'unlimbered' && u.ammo < 3) {
    const table = tableOf(s.sc);
    for (const ft of mandatoryTargets(table, shootable, mover, spec.calibre)) {
      if (ft.range > canisterRange(spec.calibre) * IN) continue;
      if (smokeBlocks(s, mover, bodyOfTarget(ft.id))) continue;
      const desc = descOf(bodyOfTarget(ft.id));
      for (const actions of [1, 2] as const)
        for (const rapid of [false, true]) {
          if (2 * actions > left) continue;
          const shot: CanisterShot = {
            type: 'canister',
            ...battery(spec, u, ft.figures, actions),
            range: ft.range / IN,
            target: desc,
            // [p.10] rapid fire, declared before the dice: casualties ×2, fatigue +3, the ammunition dice doubled
            ...(rapid ? { rapid } : {}),
          };
          if (shotProblem(weathered(s, shot), s.sc.options)) continue;
          out.push({
            key: `canister ${ft.id} ${actions}${rapid ? ' rapid' : ''}`,
            apply: (t) => fireAction(t, id, u.halves + 2 * actions, shot),
          });
        }
    }
  }
  // [p.8-10] solid shot beyond the close band: at a point of aim on an enemy unit in arc, the ball bouncing on past
  // it; every unit on its line, friend or foe, is at risk, first one first (the ground it bounces over: A-46)
  if (spec.kind === 'artillery' && !spec.rockets && u.formation === 'unlimbered' && u.ammo < 3) {
    const table = tableOf(s.sc);
    for (const ft of fireTargets(table, shootable, mover, spec.calibre)) {
      if (ft.range <= canisterRange(spec.calibre) * IN) continue;
      if (smokeBlocks(s, mover, bodyOfTarget(ft.id))) continue;
      const band = bandOf(spec.calibre, ft.range);
      if (!band) continue;
      const target = bodyOfTarget(ft.id);
      const from = { x: mover.at.x, y: mover.at.y };
      const tpoly = footprint(target);
      const aim = nearestPoint(tpoly, from);
      const range = solidShotRange(mover, aim);
      const d = Math.hypot(aim.x - from.x, aim.y - from.y) || 1;
      // [p.10] A-46 the ground past the point of aim: uphill or soft ground halves the bounce, woods or buildings end it
      const legs = bounceLegs(s, aim, { x: (aim.x - from.x) / d, y: (aim.y - from.y) / d }, bounce(spec.calibre, band));
      const zone = bounceZones(spec.calibre, band, legs, s.sc.options.secondBounce);
      const along = (k: number) => ({
        x: aim.x + ((aim.x - from.x) / d) * k * IN,
        y: aim.y + ((aim.y - from.y) / d) * k * IN,
      });
      const far = along(zone.first);
      // [p.24] optional second bounce (A-52): the line from P + 1.5b to P + 2b; units on it roll like the first's
      const second = zone.second ? ([along(zone.second.from), along(zone.second.to)] as const) : null;
      const inFirst = (o: TableUnit) => o.id === ft.id || segmentCrossesPolygon(aim, far, footprint(o));
      const inSecond = (o: TableUnit) => second !== null && segmentCrossesPolygon(second[0], second[1], footprint(o));
      // [p.10] A-51 a crew in the open on the ball's line is at risk like a unit
      const secondOnly = shootable.filter((o) => o.id !== id && !inFirst(o) && inSecond(o)).map((o) => o.id);
      const atRisk = shootable
        .filter((o) => o.id !== id && (inFirst(o) || inSecond(o)))
        .map((o) => ({
          o,
          at: Math.hypot(nearestPoint(footprint(o), from).x - from.x, nearestPoint(footprint(o), from).y - from.y),
        }))
        .sort((a, b) => a.at - b.at)
        .map(({ o }) => descOf(o));
      for (const actions of [1, 2] as const)
        for (const rapid of [false, true]) {
          if (2 * actions > left) continue;
          const shot: SolidShot = {
            type: 'solidShot',
            ...battery(spec, u, ft.figures, actions),
            range: range / IN,
            atRisk,
            // [p.10] rapid fire, declared before the dice: casualties ×2, fatigue +3, the ammunition dice doubled
            ...(rapid ? { rapid } : {}),
          };
          if (shotProblem(weathered(s, shot), s.sc.options)) continue;
          out.push({
            key: `shot ${ft.id} ${actions}${rapid ? ' rapid' : ''}`,
            apply: (t) => fireAction(t, id, u.halves + 2 * actions, shot, secondOnly),
          });
        }
    }
  }
  // [p.6, p.13] a charge: one action, straight ahead within 10° into contact (A-54); it ends the activation.
  // Infantry against infantry or artillery; cavalry charges (ride-downs, counter-charges) are not built yet.
  // [p.6] the charge's reach: infantry its move for one action; cavalry its charge distance by weight
  const reach = chargeReach(spec, u);
  if (reach !== null && spec.kind !== 'artillery' && moveLeft >= 2 && !u.locked) {
    for (const target of all) {
      if (target.side === mover.side) continue;
      const tu = unitOf(s, target.id);
      const tspec = specOf(s, target.id);
      // units in blocks are charged on a block side (A-73: `charge block`); [p.13] a unit already in a close action may
      // be charged too (Example-2; A-65: several chargers on one unit); [p.19] cavalry may charge screens (A-61)
      if (inTown(tu)) continue;
      const ct = chargeAt(
        s,
        u,
        spec.kind,
        all,
        mover,
        target,
        target.formation === 'skirmish' ? 'screen' : tspec.kind,
        reach,
      );
      if (!ct) continue;
      out.push({
        key: `charge ${target.id}`,
        apply(t, log) {
          log?.push({
            rule: 'p.13',
            text: `${id} charges ${target.id} (${inches(ct.distance)}${ct.full ? '' : ', partial contact'})`,
          });
          const contact = contactOf(s, u, tu, ct);
          // §5.4 a defender charged before it activated is locked with a stand marker (its defence action)
          let v = updUnit(t, id, { x: ct.at.x, y: ct.at.y, facing: ct.at.facing, halves: u.halves + 2, locked: true });
          v = updUnit(v, target.id, { locked: true, ...(tu.activated ? {} : { activated: true, stand: true }) });
          // the charge ends the activation: its frame is dropped
          return { ...v, stack: v.stack.slice(0, -1), closes: [...v.closes, contact] };
        },
      });
    }
  }
  // [p.10] A-51 "a crew in the open that is charged is eliminated": a charge like any other (reach, A-54's corridor,
  // who may charge), no close action: the crew is gone on contact (one action, ending the activation)
  if (reach !== null && spec.kind !== 'artillery' && moveLeft >= 2 && !u.locked)
    for (const body of crews) {
      const ct = chargeAt(s, u, spec.kind, all, mover, body, 'crew', reach);
      if (!ct) continue;
      out.push({
        key: `charge ${body.id}`,
        apply(t, log) {
          const c = crewOfTarget(t, body.id)!;
          log?.push({
            rule: 'p.10',
            text: `${id} charges the crew of ${c.id} in the open (${inches(ct.distance)}): it is eliminated on contact, no close action (A-51)`,
          });
          const v = updUnit(t, id, { x: ct.at.x, y: ct.at.y, facing: ct.at.facing, halves: u.halves + 2 });
          const w = withCrews(
            v,
            crewsOn(v).filter((x) => x.id !== c.id),
            gunsOn(v),
          );
          // [p.6] a charge ends the activation: its frame is dropped
          return { ...w, stack: w.stack.slice(0, -1) };
        },
      });
    }
  // [p.19] the buildings: enter a block within 1" (A-72), or charge a block the enemy holds (A-73)
  out.push(...townMenu(s, u, moveLeft));
  if (reach !== null && moveLeft >= 2 && !u.locked)
    out.push(...blockCharges(s, u, reach, inWoods(tableOf(s.sc), mover)));
  // [p.6] a road move: a road column (or limbered guns) on a road, 10" an action along it, area terrain ignored (A-14)
  const table = tableOf(s.sc);
  if ((u.formation === 'roadColumn' || u.formation === 'limbered') && onRoad(table, { x: u.x, y: u.y })) {
    const roadRate =
      spec.kind === 'artillery'
        ? ARTILLERY_MOVE[artilleryMoveRow(spec.arm, spec.calibre)].road
        : spec.kind === 'infantry'
          ? INFANTRY_MOVE[moveRatingOf(spec)].roadColumn
          : CAVALRY_MOVE[moveRatingOf(spec)].roadColumn;
    for (const halves of [1, 2] as const) {
      if (halves > moveLeft) continue;
      for (const e of moveMenu(table, all, mover, {
        allowance: Math.round((roadRate * IN * halves) / 2),
        kind: 'forward',
        freeTurn: true,
        fractions: [1],
        onRoad: true,
      })) {
        if (e.distance === 0 || !pathOnRoad(table, { x: u.x, y: u.y }, { x: e.at.x, y: e.at.y })) continue;
        if (u.ooc && !oocMoveOk(s, u, mover, all, e.at)) continue;
        const turn = e.turn ? ` turn ${e.turn > 0 ? '+' : ''}${e.turn}` : '';
        const ob = e.oblique ? ` oblique ${e.oblique > 0 ? '+' : ''}${e.oblique}` : '';
        const key = `road ${halves === 1 ? '½' : '1'} ${inches(e.distance)}${turn}${ob}`;
        if (out.some((p) => p.key === key)) continue;
        out.push({
          key,
          apply(t, log) {
            log?.push({ rule: 'p.6', text: `${id} moves along the road ${inches(e.distance)}` });
            return updUnit(t, id, { x: e.at.x, y: e.at.y, facing: e.at.facing, halves: u.halves + halves });
          },
        });
      }
    }
  }
  for (const kind of ['forward', 'back', 'left', 'right'] as const) {
    const r = rate(spec, u, kind);
    if (r === null) continue;
    for (const halves of [1, 2] as const) {
      if (halves > moveLeft) continue;
      // [p.6-7] a battery prolongs (forward or back) a whole action at a time
      if (
        spec.kind === 'artillery' &&
        u.formation === 'unlimbered' &&
        kind !== 'left' &&
        kind !== 'right' &&
        halves === 1
      )
        continue;
      // [p.6] ½ action for half the allowance, 1 action for all of it (A-24)
      const ask = { allowance: Math.round((r * IN * halves) / 2), kind, freeTurn: kind === 'forward', fractions: [1] };
      const ends = pushingMenu(s, all, mover, spec, ask);
      for (const { e, pushes } of ends) {
        if (e.distance === 0 && e.turn === 0) continue;
        // [p.6-7] a prolong is straight forward or back
        if (spec.kind === 'artillery' && u.formation === 'unlimbered' && (e.turn !== 0 || e.oblique !== 0)) continue;
        // A-27: out of command, no move ends farther from the commander or closer to an enemy
        if (u.ooc && !oocMoveOk(s, u, mover, all, e.at)) continue;
        const key = `move ${kind} ${halves === 1 ? '½' : '1'} ${inches(e.distance)}${e.turn ? ` turn ${e.turn > 0 ? '+' : ''}${e.turn}` : ''}${e.oblique ? ` oblique ${e.oblique > 0 ? '+' : ''}${e.oblique}` : ''}`;
        if (out.some((p) => p.key === key)) continue;
        out.push({
          key,
          apply(t, log) {
            log?.push({ rule: 'p.6', text: `${id} moves ${key.slice(5)}` });
            let v = updUnit(t, id, { x: e.at.x, y: e.at.y, facing: e.at.facing, halves: u.halves + halves });
            // A-36 [p.19] the enemy screens in the way are pushed straight back
            for (const p of pushes) {
              log?.push({ rule: 'A-36', text: `${p.id} is pushed back ${inches(p.distance)} by ${id} (p.19)` });
              v = updUnit(v, p.id, { x: p.at.x, y: p.at.y });
            }
            // §6.3.10 passing through friends disorders both
            if (e.through.length) {
              log?.push({ rule: 'p.6', text: `${id} passes through ${e.through.join(', ')}: all disordered` });
              for (const o of [id, ...e.through]) v = updUnit(v, o, { disordered: true });
            }
            return v;
          },
        });
      }
    }
  }
  return out;
}

/**
 * A-36 [p.19] a move menu with the screens' push-back: formed infantry moves as if enemy screens were not there and
 * pushes those it closes on straight back to keep `skirmishPushBack` inches (`screenPushes`); where a screen cannot go,
 * the mover stops 1" from it instead (the menu keeping the stand-off from screens, for that turn and oblique). Anyone
 * else (cavalry, artillery, screens) has the plain menu, and no pushes.
 */
function pushingMenu(
  s: SeqState,
  all: readonly TableUnit[],
  mover: TableUnit,
  spec: UnitSpec,
  ask: MoveAsk,
): { e: MoveEnd; pushes: readonly PushedScreen[] }[] {
  const table = moveTable(s);
  const enemyScreen = (o: TableUnit) => o.side !== mover.side && o.formation === 'skirmish' && !o.inBlock;
  if (spec.kind !== 'infantry' || mover.formation === 'skirmish' || mover.inBlock || !all.some(enemyScreen))
    return moveMenu(table, all, mover, ask).map((e) => ({ e, pushes: [] }));
  const keep = s.sc.options.skirmishPushBack * IN;
  const out: { e: MoveEnd; pushes: readonly PushedScreen[] }[] = [];
  const stopped = new Set<string>();
  for (const e of moveMenu(
    table,
    all.filter((o) => !enemyScreen(o)),
    mover,
    ask,
  )) {
    const pushes = screenPushes(table, all, mover, e.at, keep);
    if (pushes) out.push({ e, pushes });
    else stopped.add(`${e.turn} ${e.oblique}`);
  }
  if (stopped.size)
    for (const e of moveMenu(table, all, mover, { ...ask, fromScreens: true }))
      if (stopped.has(`${e.turn} ${e.oblique}`)) out.push({ e, pushes: [] });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------------
// [p.11] Caissons (optional rule caissons)
// ---------------------------------------------------------------------------------------------------------------------

/** [p.11] optional caissons: a caisson is a piece, not a unit (no activation, no morale, no A-23 count). */
export interface SeqCaisson {
  readonly id: string;
  readonly side: Side;
  /** Its front-centre (1/100") and facing, as a unit's (§3.1); its body is one limbered gun's (a reading). */
  readonly x: number;
  readonly y: number;
  readonly facing: number;
  /** [p.11] casualties taken: two destroy it. */
  readonly hits: number;
  /** Destroyed by fire, captured by a charge, or spent after its resupply (a reading: one resupply a caisson). */
  readonly status: 'active' | 'destroyed' | 'captured' | 'spent';
  /** [p.11] the battery it is resupplying, and the period it made contact (counted from the game's first). */
  readonly servicing: string | null;
  readonly since: number;
}

/** [p.11] the caissons still on the table. */
const caissonsOn = (s: SeqState) => (s.caissons ?? []).filter((c) => c.status === 'active');
const isCaisson = (s: SeqState, id: string) => (s.caissons ?? []).some((c) => c.id === id);

/** [p.11] a caisson as the table sees it: the body of one limbered gun (a reading: the book gives it no size). */
function caissonBody(c: SeqCaisson): TableUnit {
  return {
    id: c.id,
    side: String(c.side),
    troop: 'artillery',
    formation: 'limbered',
    figures: 1,
    at: { x: c.x, y: c.y, facing: c.facing },
  };
}

/** A caisson changed: its fields patched (a new units array, for the menus are kept per units array). */
function updCaisson(s: SeqState, id: string, patch: Partial<SeqCaisson>): SeqState {
  return {
    ...s,
    units: [...s.units],
    caissons: (s.caissons ?? []).map((c) => (c.id === id ? { ...c, ...patch } : c)),
  };
}

/** [p.11] the caisson resupplying a battery, if any. */
const servicer = (s: SeqState, battery: string) => caissonsOn(s).find((c) => c.servicing === battery);

/**
 * [p.11] "Both the caisson and the unit may not perform any other actions while performing the reloading task": a
 * battery whose caisson made contact in an earlier period spends this one being resupplied (its activation is END
 * alone, with no stand marker).
 */
function beingResupplied(s: SeqState, battery: string): boolean {
  const c = servicer(s, battery);
  return c !== undefined && c.since < periodIndex(s);
}

/** [p.11] the point a caisson stands at to serve a battery: its front-centre on the middle of the battery's rear edge. */
function behind(s: SeqState, battery: SeqUnit): Placement {
  const body = tableUnit(s, battery);
  const c = centreOf(body);
  return { x: Math.round(2 * c.x - battery.x), y: Math.round(2 * c.y - battery.y), facing: battery.facing };
}

/** [p.11] the caisson's body fits there: on the table and clear of every unit's footprint and other caisson. */
function caissonFits(s: SeqState, c: SeqCaisson, at: Placement, except?: string): boolean {
  const poly = footprint(caissonBody({ ...c, ...at }));
  if (!onTheTable(s, poly)) return false;
  for (const u of s.units)
    if (u.status === 'active' && u.id !== except && polygonsOverlap(poly, footprint(tableUnit(s, u)))) return false;
  return !caissonsOn(s).some((o) => o.id !== c.id && polygonsOverlap(poly, footprint(caissonBody(o))));
}

/** The home edge's nearest point to a position. */
function homePoint(s: SeqState, side: Side, at: { x: number; y: number }): { x: number; y: number } {
  const { width, height } = tableOf(s.sc);
  const e = s.sc.sides[side]!.homeEdge;
  return e === 'south'
    ? { x: at.x, y: 0 }
    : e === 'north'
      ? { x: at.x, y: height }
      : e === 'west'
        ? { x: 0, y: at.y }
        : { x: width, y: at.y };
}

/**
 * [p.11] a caisson's moves in step 8 (a reading: the book gives caissons a move of 8" an action but no slot, so they
 * move with the leaders, two actions, 16", straight and free of turning penalties [p.11]; terrain is not read): stay;
 * `serve B` into contact behind a friendly battery out of ammunition and start resupplying it; `to B` into contact
 * behind any friendly battery; `toward B` 16" toward one farther away; `rear` 16" toward its home edge.
 */
function caissonMoves(s: SeqState, id: string): { key: string; apply: (t: SeqState, log: Log) => SeqState }[] {
  const c = caissonsOn(s).find((x) => x.id === id)!;
  const reach = 2 * OTHER_MOVES.caisson;
  const out: { key: string; apply: (t: SeqState, log: Log) => SeqState }[] = [{ key: 'stay', apply: (t) => t }];
  const move = (key: string, at: Placement, serve: string | null, text: string) =>
    out.push({
      key,
      apply(t, log) {
        log?.push({ rule: 'p.11', text: `caisson ${id} ${text}` });
        return updCaisson(t, id, { ...at, ...(serve ? { servicing: serve, since: periodIndex(t) } : {}) });
      },
    });
  for (const b of s.units) {
    if (b.side !== c.side || b.status !== 'active' || b.retreating || specOf(s, b.id).kind !== 'artillery') continue;
    const at = behind(s, b);
    const d = Math.hypot(at.x - c.x, at.y - c.y);
    if (d <= reach * IN) {
      if (!caissonFits(s, c, at, b.id)) continue;
      if (b.ammo >= 3 && !servicer(s, b.id))
        move(`serve ${b.id}`, at, b.id, `comes up behind ${b.id} (${inches(d)}) and starts resupplying it [p.11]`);
      else if (d > IN / 4) move(`to ${b.id}`, at, null, `comes up behind ${b.id} (${inches(d)})`);
    } else {
      const to = toward(c, at, reach);
      if (caissonFits(s, c, to)) move(`toward ${b.id}`, to, null, `moves 16" toward ${b.id}`);
    }
  }
  const home = homePoint(s, c.side, c);
  if (Math.hypot(home.x - c.x, home.y - c.y) > IN) {
    const to = toward(c, home, reach);
    const back = { ...to, facing: (to.facing + 180) % 360 };
    // it drives back: it keeps facing the enemy's way once there (a piece has no facing rule; a reading)
    const at = { x: to.x, y: to.y, facing: back.facing };
    if (caissonFits(s, c, at)) move('rear', at, null, 'moves 16" to the rear');
  }
  return out;
}

/** [p.11] the caissons' step 8 frames, side A's first (A-22's order), those resupplying staying where they are. */
function caissonFrames(s: SeqState): Frame[] {
  if (!s.sc.options.caissons) return [];
  const a = s.sideA ?? 0;
  const cs = caissonsOn(s).filter((c) => c.servicing === null);
  return [...cs.filter((c) => c.side === a), ...cs.filter((c) => c.side !== a)]
    .reverse()
    .map((c) => ({ t: 'caisson' as const, id: c.id }));
}

/** [p.11] a caisson fired on takes its casualties: two destroy it (and end its resupply). */
function caissonHit(
  s: SeqState,
  id: string,
  casualties: number,
  destroyed: boolean,
  firer: string,
  log: Log,
): SeqState {
  const c = (s.caissons ?? []).find((x) => x.id === id)!;
  if (!casualties && !destroyed) return s;
  log?.push({
    rule: 'p.11',
    text: `caisson ${id} takes ${casualties} casualt${casualties === 1 ? 'y' : 'ies'} from ${firer}${destroyed ? ': destroyed (two casualties destroy a caisson)' : ''}`,
  });
  return updCaisson(s, id, {
    hits: c.hits + casualties,
    ...(destroyed ? { status: 'destroyed' as const, servicing: null } : {}),
  });
}

/**
 * [p.11] the primitives a unit has against enemy caissons: infantry small arms and artillery (canister in its close
 * band, solid shot beyond it, the caisson the only piece at risk: a reading) at a caisson in its arc, range and sight
 * (a caisson is a target the firer may choose, not one A-40 makes it fire at: a reading); infantry and cavalry charge
 * a caisson within reach, which is "automatically captured and destroyed" (one action, ending the activation).
 */
function caissonMenu(s: SeqState, id: string): Primitive[] {
  if (!s.sc.options.caissons) return [];
  const enemy = caissonsOn(s).filter((c) => c.side !== unitOf(s, id).side);
  if (!enemy.length) return [];
  const u = unitOf(s, id);
  if (u.retreating || u.locked || inTown(u) || beingResupplied(s, id)) return [];
  const spec = specOf(s, id);
  const left = BUDGET - u.halves;
  const table = tableOf(s.sc);
  const all = s.units.filter((x) => x.status === 'active').map((x) => tableUnit(s, x));
  const mover = all.find((x) => x.id === id)!;
  const bodies = enemy.map(caissonBody);
  const out: Primitive[] = [];
  const desc = (c: SeqCaisson): FireTargetDesc => ({
    id: c.id,
    kind: 'caisson',
    formation: 'limbered',
    caissonHits: c.hits,
  });
  const weapon = spec.kind === 'infantry' ? smallArm(s, spec) : null;
  if (weapon && left >= 2)
    for (const ft of fireTargets(table, [...all, ...bodies], mover, weapon)) {
      const c = enemy.find((x) => x.id === ft.id);
      if (!c) continue;
      for (const actions of [1, 2] as const) {
        if (2 * actions > left) continue;
        const shot = smallArmsShot(spec, u, weapon, ft, actions, desc(c));
        if (shotProblem(shot, s.sc.options)) continue;
        out.push({ key: `fire ${c.id} ${actions}`, apply: (t) => fireAction(t, id, u.halves + 2 * actions, shot) });
      }
    }
  if (spec.kind === 'artillery' && !spec.rockets && u.formation === 'unlimbered' && u.ammo < 3 && left >= 2)
    for (const ft of fireTargets(table, [...all, ...bodies], mover, spec.calibre)) {
      const c = enemy.find((x) => x.id === ft.id);
      if (!c) continue;
      const close = ft.range <= canisterRange(spec.calibre) * IN;
      if (!close && !bandOf(spec.calibre, ft.range)) continue;
      const aim = nearestPoint(footprint(caissonBody(c)), { x: mover.at.x, y: mover.at.y });
      for (const actions of [1, 2] as const) {
        if (2 * actions > left) continue;
        const shot: CanisterShot | SolidShot = close
          ? { type: 'canister', ...battery(spec, u, ft.figures, actions), range: ft.range / IN, target: desc(c) }
          : {
              type: 'solidShot',
              ...battery(spec, u, ft.figures, actions),
              range: solidShotRange(mover, aim) / IN,
              atRisk: [desc(c)],
            };
        if (shotProblem(weathered(s, shot), s.sc.options)) continue;
        out.push({
          key: `${close ? 'canister' : 'shot'} ${c.id} ${actions}`,
          apply: (t) => fireAction(t, id, u.halves + 2 * actions, shot),
        });
      }
    }
  const reach = chargeReach(spec, u);
  if (reach !== null && spec.kind !== 'artillery' && left + (u.forceMarch ? 2 : 0) >= 2)
    for (const c of enemy) {
      const ct = chargeAt(s, u, spec.kind, all, mover, caissonBody(c), 'caisson', reach);
      if (!ct) continue;
      out.push({
        key: `charge ${c.id}`,
        apply(t, log) {
          log?.push({
            rule: 'p.11',
            text: `${id} charges caisson ${c.id} (${inches(ct.distance)}): it is captured and destroyed${c.servicing ? `, and ${c.servicing} is not resupplied` : ''}`,
          });
          const v = updCaisson(
            updUnit(t, id, { x: ct.at.x, y: ct.at.y, facing: ct.at.facing, halves: u.halves + 2 }),
            c.id,
            { status: 'captured', servicing: null },
          );
          // [p.6] a charge ends the activation: its frame is dropped
          return { ...v, stack: v.stack.slice(0, -1) };
        },
      });
    }
  return out;
}

/**
 * [p.11] A-19 step 12 (b): resupply completes at the end of the period after contact ("on period 4 a caisson unit is
 * moved into contact … At the end of period 5, the battery is replenished and on period 6 … may begin firing"): its
 * ammunition is Normal again (the digest: `ammo = 0`) and the caisson is spent (a reading). "If charged, the unit
 * cannot be supplied": a battery charged (or gone, or retreating) meanwhile is not, and the caisson stays by it.
 */
function caissonsAtEnd(s: SeqState, log: Log): SeqState {
  let t = s;
  for (const c of caissonsOn(s)) {
    if (c.servicing === null) continue;
    const b = t.units.find((u) => u.id === c.servicing);
    const charged =
      t.closes.some((x) => x.defender === c.servicing) || t.blockAttacks.some((x) => x.target === c.servicing);
    if (b?.status !== 'active' || b.retreating || charged) {
      log?.push({
        rule: 'p.11',
        text: `${c.servicing} ${charged ? 'was charged' : 'is gone or retreating'}: caisson ${c.id} cannot resupply it`,
      });
      t = updCaisson(t, c.id, { servicing: null });
      continue;
    }
    if (periodIndex(t) < c.since + ARTILLERY_RESUPPLY_PERIODS) continue;
    log?.push({
      rule: 'p.11',
      text: `caisson ${c.id} has resupplied ${b.id} (one full period after contact): ammunition normal, it may fire next period; the caisson is spent`,
    });
    t = updCaisson(updUnit(t, b.id, { ammo: 0 as AmmoLevel }), c.id, { servicing: null, status: 'spent' });
  }
  return t;
}
const ARTILLERY_RESUPPLY_PERIODS = ARTILLERY.caissonResupplyPeriods; // [p.11] one full period (two actions)

/** A-19 step 12 with the optional rules: (b) caisson resupply [p.11], then (c) the fires [p.20]; then the period ends. */
function step12(s: SeqState, log: Log): SeqState {
  const t = s.sc.options.caissons ? caissonsAtEnd(s, log) : s;
  return push(t, { t: 'endPeriod', done: true }, ...firesAtEnd(t));
}

// ---------------------------------------------------------------------------------------------------------------------
// [p.10] Abandoned guns, crews, spiking, overrunning and re-manning (A-51)
// ---------------------------------------------------------------------------------------------------------------------

/** [p.10] A-51: a battery's guns left on the table, a static object with an owner (the battery's id). */
export interface AbandonedGuns {
  readonly id: string;
  readonly side: Side;
  /** Where the battery stood (front-centre, 1/100") and its facing: a re-manned battery is restored there (A-51). */
  readonly x: number;
  readonly y: number;
  readonly facing: number;
  readonly formation: 'unlimbered' | 'limbered';
  readonly massed?: boolean;
  /** [p.10] the enemy unit that declared OVERRUN this period (its whole activation). */
  readonly overrunBy?: string;
}

/** [p.10] A-51: a battery's crew without its guns (the battery's id): figures = guns − hits; it cannot fire. */
export interface ArtilleryCrew {
  readonly id: string;
  readonly side: Side;
  readonly x: number;
  readonly y: number;
  readonly facing: number;
  readonly figures: number;
  /** [p.12] it lost a close action: it runs to the rear at its next move before it may return (a reading). */
  readonly retreating: boolean;
}

const gunsOn = (s: SeqState) => s.abandoned ?? [];
const crewsOn = (s: SeqState) => s.artCrews ?? [];
/** [p.10] A-51: a crew runs 6" an action; in step 8 it has its two actions (a reading). */
const CREW_RATE = 6;

/** [p.3] the guns on the table: the battery's bases as it stood. */
function gunsBody(s: SeqState, g: AbandonedGuns): TableUnit {
  const b = bodyOf(specOf(s, g.id), g.side, { x: g.x, y: g.y, facing: g.facing }, g.formation, unitOf(s, g.id).figures);
  return g.massed && g.formation === 'unlimbered' ? { ...b, formation: 'massed' } : b;
}

/** A-51 a crew's body: its battery's bases, 1" a base wide, at the book's stand depth (p.3's 1" × 1½" base). */
function crewBody(s: SeqState, c: ArtilleryCrew): TableUnit {
  return bodyOf(specOf(s, c.id), c.side, { x: c.x, y: c.y, facing: c.facing }, 'unlimbered', unitOf(s, c.id).figures);
}

/** Active units of the other side within `inches` of a body (edge to edge). */
const enemiesNear = (s: SeqState, side: Side, body: TableUnit, inches: number) =>
  s.units.filter((u) => u.side !== side && u.status === 'active' && unitDistance(tableUnit(s, u), body) <= inches * IN);

/**
 * [p.10] A-51 the guns are left: the battery is eliminated (scored as guns lost, A-79) and its guns stay on the table;
 * its crew (guns − hits, none when neutralised) goes on as a crew, `retreating` when it lost a close action [p.12].
 */
function abandonGuns(s: SeqState, id: string, crew: 'none' | 'free' | 'retreating'): SeqState {
  const u = unitOf(s, id);
  const guns: AbandonedGuns = {
    id,
    side: u.side,
    x: u.x,
    y: u.y,
    facing: u.facing,
    formation: u.formation === 'limbered' ? 'limbered' : 'unlimbered',
    ...(u.massed ? { massed: true } : {}),
  };
  const figures = Math.max(0, u.figures - (u.hits ?? 0));
  const t = updUnit(s, id, { status: 'eliminated', gunsLost: true, locked: false, marked: 0 });
  const withGuns: SeqState = { ...t, abandoned: [...gunsOn(t).filter((g) => g.id !== id), guns] };
  if (crew === 'none' || figures === 0) return withGuns;
  const c: ArtilleryCrew = {
    id,
    side: u.side,
    x: u.x,
    y: u.y,
    facing: u.facing,
    figures,
    retreating: crew === 'retreating',
  };
  return { ...withGuns, artCrews: [...crewsOn(withGuns).filter((x) => x.id !== id), c] };
}

/**
 * [p.10] the defence action of a charged battery's crew: it abandons its guns and runs for cover, one action, 6"
 * straight away from the charger (A-51; it stays where it is when that ground is not clear). The close actions against
 * it are cancelled (its chargers are in contact with the guns: taken, A-51).
 */
function abandonAgainst(s: SeqState, close: number, log: Log): SeqState {
  const c = s.closes[close]!;
  log?.push({
    rule: 'p.10',
    text: `${c.defender}'s crew abandons its guns instead of a defence action and runs for cover (A-51)`,
  });
  const t = abandonGuns(updUnit(s, c.defender, { stand: false }), c.defender, 'free');
  const crew = crewsOn(t).find((x) => x.id === c.defender);
  if (!crew) return t;
  const ch = centreOf(tableUnit(t, unitOf(t, c.charger)));
  const me = centreOf(crewBody(t, crew));
  const d = Math.hypot(me.x - ch.x, me.y - ch.y) || 1;
  const away = { x: crew.x + ((me.x - ch.x) / d) * CREW_RATE * IN, y: crew.y + ((me.y - ch.y) / d) * CREW_RATE * IN };
  const to = toward(crew, away, CREW_RATE);
  const at = { x: to.x, y: to.y, facing: (to.facing + 180) % 360 };
  if (!crewFits(t, crew, at)) return t;
  log?.push({ rule: 'p.10', text: `the crew of ${c.defender} runs ${CREW_RATE}" away from ${c.charger} (A-51)` });
  return withCrews(
    t,
    crewsOn(t).map((x) => (x.id === crew.id ? { ...x, ...at } : x)),
    gunsOn(t),
  );
}

/** A crew or its guns changed (a new units array, for the menus are kept per units array). */
function withCrews(s: SeqState, crews: readonly ArtilleryCrew[], guns: readonly AbandonedGuns[]): SeqState {
  return { ...s, units: [...s.units], artCrews: crews, abandoned: guns };
}

/** [p.10] A-51 a crew's body fits there: on the table and clear of every active unit. */
function crewFits(s: SeqState, c: ArtilleryCrew, at: Placement): boolean {
  const poly = footprint(crewBody(s, { ...c, ...at }));
  if (!onTheTable(s, poly)) return false;
  return !s.units.some((u) => u.status === 'active' && polygonsOverlap(poly, footprint(tableUnit(s, u))));
}

/** A polygon wholly on the table. */
function onTheTable(s: SeqState, poly: Polygon): boolean {
  const { width, height } = tableOf(s.sc);
  return !poly.some((p) => p.x < 0 || p.y < 0 || p.x > width || p.y > height);
}

/** A point `inches` straight toward `to` (all the way when nearer), facing the way it goes (a caisson, a crew). */
function toward(c: { x: number; y: number; facing: number }, to: { x: number; y: number }, inches: number): Placement {
  const d = Math.hypot(to.x - c.x, to.y - c.y);
  const k = d <= inches * IN ? 1 : (inches * IN) / d;
  return {
    x: Math.round(c.x + (to.x - c.x) * k),
    y: Math.round(c.y + (to.y - c.y) * k),
    facing: d > 0 ? headingTo(c, to) : c.facing,
  };
}

/** [p.10] A-51: no enemy within 2" of its guns (re-manning), none in contact with them (spiking). */
const gunsClear = (s: SeqState, g: AbandonedGuns, inches: number) =>
  enemiesNear(s, g.side, gunsBody(s, g), inches).length === 0;

/** [p.10] A-51 the battery re-manned: restored unlimbered where its guns are, with its former facing. */
function reman(s: SeqState, g: AbandonedGuns): SeqState {
  const u = unitOf(s, g.id);
  const t = updUnit(s, g.id, {
    status: 'active',
    gunsLost: false,
    x: g.x,
    y: g.y,
    facing: g.facing,
    formation: 'unlimbered',
    massed: g.massed === true,
    retreating: false,
    recovery: 0,
    locked: false,
    disordered: false,
    marked: 0,
    reasons: [],
    activated: true,
    halves: BUDGET,
    stand: false,
    figures: u.figures,
  });
  return withCrews(
    t,
    crewsOn(t).filter((c) => c.id !== g.id),
    gunsOn(t).filter((x) => x.id !== g.id),
  );
}

/** [p.10] A-51 the body of the battery restored at its guns fits (no active unit in the way). */
const remanFits = (s: SeqState, g: AbandonedGuns) =>
  fits(s, { ...gunsBody(s, g), formation: g.massed ? 'massed' : 'unlimbered' }, g.id);

/**
 * [p.10] A-51 a crew's step 8 move (a reading: the book gives crews a rate, 6" an action, but no slot; they move as
 * pieces with the leaders and caissons, two actions): `stay`; `rear` 12" toward its home edge; `to U` (cover: 1"
 * behind a friendly formed infantry unit within 12"); `to guns` (back to its guns, not taken) or `toward guns`; `reman`
 * (its guns within 6" + 1", no enemy within 2" of them: one action to reach them, one to re-man); `spike` (its guns
 * within 6" + 1", no enemy in contact: one action to reach them, one to spike). A crew from a lost close action runs to
 * the rear first (it may return "after recovering from the retreat", p.12).
 */
function crewMoves(s: SeqState, id: string): { key: string; apply: (t: SeqState, log: Log) => SeqState }[] {
  const c = crewsOn(s).find((x) => x.id === id)!;
  const reach = 2 * CREW_RATE;
  const out: { key: string; apply: (t: SeqState, log: Log) => SeqState }[] = [];
  const placeAt = (t: SeqState, at: Placement) =>
    withCrews(
      t,
      crewsOn(t).map((x) => (x.id === id ? { ...x, ...at, retreating: false } : x)),
      gunsOn(t),
    );
  const move = (key: string, at: Placement, text: string) =>
    out.push({
      key: `crews ${id} ${key}`,
      apply(t, log) {
        log?.push({ rule: 'p.10', text: `the crew of ${id} ${text} (A-51)` });
        return placeAt(t, at);
      },
    });
  const home = homePoint(s, c.side, c);
  // as far to the rear as it may go (its body on the table), facing the enemy's way
  for (const k of [1, 0.75, 0.5, 0.25]) {
    if (Math.hypot(home.x - c.x, home.y - c.y) <= IN) break;
    const to = toward(c, home, reach * k);
    const at = { x: to.x, y: to.y, facing: (to.facing + 180) % 360 };
    if (!crewFits(s, c, at)) continue;
    move('rear', at, `runs ${inches(Math.hypot(at.x - c.x, at.y - c.y))} to the rear`);
    break;
  }
  if (c.retreating) {
    if (!out.length) out.push({ key: `crews ${id} stay`, apply: (t) => placeAt(t, c) });
    return out;
  }
  out.unshift({ key: `crews ${id} stay`, apply: (t) => t });
  // cover: a friendly formed infantry unit, the crew 1" behind it (A-51)
  for (const u of s.units) {
    if (u.side !== c.side || u.status !== 'active' || u.retreating || u.formation === 'skirmish') continue;
    if (specOf(s, u.id).kind !== 'infantry' || inTown(u)) continue;
    const b = behind(s, u);
    const v = headingVec(u.facing);
    const at = { x: Math.round(b.x - v.x * (IN / 2)), y: Math.round(b.y - v.y * (IN / 2)), facing: u.facing };
    const d = Math.hypot(at.x - c.x, at.y - c.y);
    if (d <= reach * IN && crewFits(s, c, at)) move(`to ${u.id}`, at, `runs for cover behind ${u.id} (${inches(d)})`);
  }
  const g = gunsOn(s).find((x) => x.id === id);
  if (g) {
    // [p.10, p.13] A-51 an enemy unit in contact with its guns: the crew must first charge it, within its two actions
    // (a move and the charge, 12"): an infantry close action with the battery's MV (the crewCharge chance node)
    for (const e of enemiesOnGuns(s, g))
      if (unitDistance(crewBody(s, c), tableUnit(s, e)) <= reach * IN)
        out.push({
          key: `crews ${id} charge ${e.id}`,
          apply(t, log) {
            log?.push({
              rule: 'p.10',
              text: `the crew of ${id} charges ${e.id}, which is on its guns, to retake them (A-51: an infantry close action with its battery's MV)`,
            });
            return push(t, { t: 'crewCharge', id, target: e.id });
          },
        });
    const d = Math.hypot(g.x - c.x, g.y - c.y);
    const near = d <= (CREW_RATE + 1) * IN;
    if (near && gunsClear(s, g, 2) && remanFits(s, g))
      out.push({
        key: `crews ${id} reman`,
        apply(t, log) {
          log?.push({
            rule: 'p.10',
            text: `the crew of ${id} returns to its guns and re-mans them: the battery is restored unlimbered, facing as before (A-51)`,
          });
          return reman(t, g);
        },
      });
    if (near && gunsClear(s, g, 1))
      out.push({
        key: `crews ${id} spike`,
        apply(t, log) {
          log?.push({ rule: 'p.10', text: `the crew of ${id} spikes its guns: they are destroyed (A-51)` });
          return withCrews(
            t,
            crewsOn(t).filter((x) => x.id !== id),
            gunsOn(t).filter((x) => x.id !== id),
          );
        },
      });
    if (d > IN / 4 && gunsClear(s, g, 2)) {
      const to = toward(c, g, reach);
      const at = { ...to, facing: g.facing };
      if (crewFits(s, c, at)) move(d <= reach * IN ? 'to guns' : 'toward guns', at, `runs back toward its guns`);
    }
  }
  return out;
}

function crewFrames(s: SeqState): Frame[] {
  const a = s.sideA ?? 0;
  const cs = crewsOn(s);
  return [...cs.filter((c) => c.side === a), ...cs.filter((c) => c.side !== a)]
    .reverse()
    .map((c) => ({ t: 'artCrew' as const, id: c.id }));
}

/** [p.10] A-51: a crew in cover: within 1" of a friendly formed infantry unit, or in woods or buildings. */
function crewInCover(s: SeqState, c: ArtilleryCrew): boolean {
  const body = crewBody(s, c);
  if (inWoods(tableOf(s.sc), body)) return true;
  if (blocksNow(s).some((b) => polygonsOverlap(footprint(body), blockSquare(b)))) return true;
  return s.units.some(
    (u) =>
      u.side === c.side &&
      u.status === 'active' &&
      !u.retreating &&
      u.formation !== 'skirmish' &&
      specOf(s, u.id).kind === 'infantry' &&
      unitDistance(tableUnit(s, u), body) <= IN,
  );
}

/**
 * [p.10] the period's end, before the markers come off: an overrun declared this period destroys its guns if the unit
 * stayed in contact doing nothing else, neither moved nor charged (A-51: still in contact at step 12); a crew in the
 * open with an enemy in contact is taken (A-51: "a crew in the open that is charged is eliminated").
 */
function gunsAtEnd(s: SeqState, log: Log): SeqState {
  if (!gunsOn(s).length && !crewsOn(s).length) return s;
  const guns: AbandonedGuns[] = [];
  for (const g of gunsOn(s)) {
    if (g.overrunBy === undefined) {
      guns.push(g);
      continue;
    }
    const u = unitOf(s, g.overrunBy);
    const charged = s.closes.some((c) => c.defender === u.id || c.charger === u.id);
    const ok =
      u.status === 'active' && !u.retreating && !charged && unitDistance(tableUnit(s, u), gunsBody(s, g)) <= IN;
    log?.push({
      rule: 'p.10',
      text: ok
        ? `${u.id} has overrun ${g.id}'s guns: destroyed at the period's end (A-51)`
        : `${u.id} could not destroy ${g.id}'s guns (${charged ? 'charged' : 'moved, retreated or gone'})`,
    });
    if (!ok) guns.push((({ overrunBy: _o, ...rest }) => rest)(g));
  }
  const crews: ArtilleryCrew[] = [];
  for (const c of crewsOn(s)) {
    // a unit in retreat status charges nothing [p.12]: it takes no crew (a crew that beat it may stand by it)
    const taken = enemiesNear(s, c.side, crewBody(s, c), 1).filter((u) => !u.retreating)[0];
    if (taken && !crewInCover(s, c)) {
      log?.push({ rule: 'p.10', text: `the crew of ${c.id} is caught in the open by ${taken.id}: eliminated (A-51)` });
      continue;
    }
    crews.push(c);
  }
  return withCrews(s, crews, guns);
}

/** [p.10] A-51 the id a crew is fired at and charged by: `crew B`, B its battery (`fire crew B 1`, `charge crew B`). */
const crewTarget = (id: string) => `crew ${id}`;
const isCrewTarget = (id: string) => id.startsWith('crew ');
/** The crew a `crew B` target names, if it is still on the table. */
const crewOfTarget = (s: SeqState, target: string) =>
  isCrewTarget(target) ? crewsOn(s).find((c) => crewTarget(c.id) === target) : undefined;
/** A crew's body as a target (named `crew B`). */
const crewTargetBody = (s: SeqState, c: ArtilleryCrew): TableUnit => ({ ...crewBody(s, c), id: crewTarget(c.id) });

/**
 * [p.10] A-51 the crews of the other side that a unit of `side` may fire at or charge: those not in cover (within 1"
 * of friendly formed infantry, or in woods or buildings), as bodies named `crew B`.
 */
function openCrews(s: SeqState, side: Side): TableUnit[] {
  const cs = crewsOn(s);
  if (!cs.length) return [];
  return cs.filter((c) => c.side !== side && !crewInCover(s, c)).map((c) => crewTargetBody(s, c));
}

/**
 * [p.10] A-51 a crew as a fire target: in open order (fire.ts: the skirmishers' row, a reading), with any wall or hedge
 * between (A-42), its figures for its end at 0; no morale (crews have no morale rules).
 */
function crewDesc(s: SeqState, table: NeTable, body: TableUnit, firer: TableUnit): FireTargetDesc {
  const c = crewOfTarget(s, body.id)!;
  return {
    id: body.id,
    kind: 'crew',
    formation: 'skirmish',
    cover: coverFrom(table, body, { x: firer.at.x, y: firer.at.y }),
    crewFigures: c.figures,
  };
}

/** [p.10] A-51 a crew fired on: its casualties are figures off; at 0 it is gone (its guns stay, abandoned). */
function crewHit(s: SeqState, target: string, casualties: number, firer: string, log: Log): SeqState {
  const c = crewOfTarget(s, target);
  if (!c || casualties <= 0) return s;
  const left = c.figures - casualties;
  log?.push({
    rule: 'p.10',
    text: `the crew of ${c.id} takes ${casualties} casualt${casualties === 1 ? 'y' : 'ies'} from ${firer}${left > 0 ? ` (${left} figure${left === 1 ? '' : 's'} left)` : ': none left, it is gone'} (A-51)`,
  });
  return withCrews(
    s,
    left > 0
      ? crewsOn(s).map((x) => (x.id === c.id ? { ...x, figures: left } : x))
      : crewsOn(s).filter((x) => x.id !== c.id),
    gunsOn(s),
  );
}

/** [p.10] A-51 the enemy units in contact with (within 1" of) a battery's abandoned guns, not in buildings. */
const enemiesOnGuns = (s: SeqState, g: AbandonedGuns) =>
  enemiesNear(s, g.side, gunsBody(s, g), 1).filter((u) => !inTown(u));

/** [p.10, p.13] A-51 a crew's charge on the enemy unit on its guns: the step 2 check, then the melee from step 6. */
export interface CrewChargeOutcome {
  readonly step2: 'stands' | 'retreats' | 'routs';
  readonly close: CloseOutcome | null;
}

/**
 * [p.13] A-51 "resolve this as an infantry close action using the crew's MV": the crew charges as infantry, with its
 * battery's MV (its melee rating), its figures all in contact; the enemy unit has its own MV, morale and modifiers
 * (fatigue, disorder, retreat status, a leader, higher ground) and its figures in contact up to the crew's. The crew has
 * no morale rules (a reading): no step 5 check (resolveCloseAction's re-fight form, from step 6), no step 8 check.
 */
function crewCloseInput(s: SeqState, id: string, target: string): CloseActionInput {
  const c = crewsOn(s).find((x) => x.id === id)!;
  const e = unitOf(s, target);
  const espec = specOf(s, target);
  const table = tableOf(s.sc);
  const cb = crewBody(s, c);
  const eb = tableUnit(s, e);
  const crewLevel = unitLevel(table, cb);
  const enemyLevel = unitLevel(table, eb);
  const enemyIn = Math.max(1, Math.min(strength(e), c.figures));
  return {
    charger: {
      morale: {
        rating: parseRating(specOf(s, id).rating).morale,
        originalFigures: unitOf(s, id).figures,
        currentFigures: c.figures,
      },
      melee: meleeInput(parseRating(specOf(s, id).rating).melee, { higherGround: crewLevel > enemyLevel }),
      inContact: c.figures,
      cavalry: false,
    },
    defender: {
      morale: crewChargeMorale(s, id, target),
      melee: meleeInput(parseRating(espec.rating).melee, {
        higherGround: enemyLevel > crewLevel,
        leaderBonus: leaderMeleeBonus(s, target),
        fatigue: e.fatigue,
        disordered: e.disordered,
        retreatStatus: e.retreating,
        roadColumn: e.formation === 'roadColumn',
      }),
      inContact: enemyIn,
      cavalry: espec.kind === 'cavalry',
      artillery: espec.kind === 'artillery',
    },
    refight: true,
    options: { casualtyColumn: s.sc.options.casualtyColumn },
  };
}

/** [p.12] the enemy unit's morale input against a crew's charge (step 2 and step 8). */
function crewChargeMorale(s: SeqState, id: string, target: string): CloseMoraleInput {
  const c = crewsOn(s).find((x) => x.id === id)!;
  const e = unitOf(s, target);
  return {
    rating: parseRating(specOf(s, target).rating).morale,
    originalFigures: e.originalFigures,
    currentFigures: strength(e),
    enemyFigures: c.figures,
    leaderBonus: leaderBonus(s, target),
    thresholdFailed: thresholdFailed(s, target),
    fatigue: e.fatigue,
    disordered: e.disordered,
    retreatStatus: e.retreating,
    supported: isSupported(s, e),
  };
}

/**
 * [p.13] A-51 the crew's charge, exactly: the enemy unit's step 2 check (it fails: it retreats, or routs in retreat
 * status, and the crew is back at its guns), then steps 6-9 (resolveCloseAction from step 6: the melee, both casualty
 * dice, the enemy's step 8 check when it lost).
 */
function crewChargeDist(s: SeqState, id: string, target: string): Dist<CrewChargeOutcome>[] {
  const i = crewCloseInput(s, id, target);
  const out = new Map<string, { value: CrewChargeOutcome; p: number }>();
  const add = (value: CrewChargeOutcome, p: number) => {
    const k = crewChargeKey(value);
    const e = out.get(k);
    if (e) e.p += p;
    else out.set(k, { value, p });
  };
  for (const d of defenderCheck(i.defender.morale).dist) {
    if (d.value !== 'stands') {
      add({ step2: d.value === 'routs' ? 'routs' : 'retreats', close: null }, d.p);
      continue;
    }
    // a beaten crew is eliminated: its own step 8 check is not made (the classes it split are merged)
    for (const m of resolveCloseAction(i))
      add(
        {
          step2: 'stands',
          close: m.value.winner === 'charger' ? m.value : { ...m.value, loser: null, gunsAbandoned: false },
        },
        d.p * m.p,
      );
  }
  return [...out.values()];
}

/** A crew charge's outcome class in words (the crew is the charger). */
const crewChargeKey = (o: CrewChargeOutcome) =>
  o.close === null
    ? `the enemy ${o.step2} before contact`
    : [
        o.close.melee === 'refight'
          ? 'a tie on equal MVs'
          : o.close.winner === 'charger'
            ? `the crew wins${o.close.melee === 'tieChargerWins' ? ' the tie' : ''}`
            : `the enemy wins${o.close.melee === 'tieDefenderWins' ? ' the tie' : ''}`,
        `losses ${o.close.chargerLosses}/${o.close.defenderLosses}`,
        o.close.winner === 'charger' && o.close.loser ? `the enemy ${o.close.loser}` : '',
        o.close.winner === 'charger' && o.close.gunsAbandoned ? 'its guns abandoned' : '',
        o.close.winner === 'defender' && o.close.winnerRecovers ? 'the enemy recovers' : '',
      ]
        .filter(Boolean)
        .join(', ');

/** The chance of the crew's charge retaking its guns: the enemy fails its check, or loses the melee. */
function crewChargeOdds(s: SeqState, id: string, target: string): number {
  return crewChargeDist(s, id, target).reduce(
    (p, d) => p + (d.value.close === null || d.value.close.winner === 'charger' ? d.p : 0),
    0,
  );
}

/**
 * [p.10, p.13] A-51 a crew's charge played: the enemy fails its step 2 check, or loses the melee: it retreats (or routs)
 * as a close action's loser does, and the crew stands at its guns (where it stood, if the enemy is in the way), to re-man
 * them at its next step 8 with no enemy within 2"; a battery that loses abandons its own guns [p.12]. The enemy wins: the
 * crew is eliminated (a reading: a beaten crew in the open is taken, as a charged one is). A tie on equal unmodified MVs:
 * no winner, both lose their casualties, the crew stays where it charged from (A-33's fight next period needs a unit
 * locked in contact: a crew is a piece; it may charge again). The enemy gains step 9's fatigue; the crew has none.
 */
function crewChargeResult(s: SeqState, id: string, target: string, o: CrewChargeOutcome, log: Log): SeqState {
  const c = crewsOn(s).find((x) => x.id === id)!;
  const g = gunsOn(s).find((x) => x.id === id);
  const atGuns = (t: SeqState, figures: number) => {
    const home = g && crewFits(t, c, g) ? { x: g.x, y: g.y, facing: g.facing } : {};
    return withCrews(
      t,
      figures > 0
        ? crewsOn(t).map((x) => (x.id === id ? { ...x, ...home, figures } : x))
        : crewsOn(t).filter((x) => x.id !== id),
      gunsOn(t),
    );
  };
  const beaten = (t: SeqState, how: 'retreats' | 'routs') => {
    if (unitOf(t, target).status !== 'active') return t;
    return how === 'routs' ? rout(t, target, log) : enterRetreat(t, target);
  };
  if (o.close === null) {
    log?.push({
      rule: 'p.13 step 2',
      text: `${target} fails its check against the crew of ${id}'s charge: it ${o.step2}; the crew is back at its guns (A-51)`,
    });
    return beaten(atGuns(s, c.figures), o.step2 === 'routs' ? 'routs' : 'retreats');
  }
  const k = o.close;
  log?.push({
    rule: 'p.13 steps 6-9',
    text: `the crew of ${id} (MV ${meleeValue(crewCloseInput(s, id, target).charger.melee)}) against ${target}: ${crewChargeKey(o)} (A-51)`,
  });
  const e = unitOf(s, target);
  let t = updUnit(s, target, { marked: 0, fatigue: fatigueAfter(e.fatigue, k.defenderFatigue) });
  t = closeCasualties(t, target, k.defenderLosses);
  const left = c.figures - k.chargerLosses;
  if (k.winner === 'charger') {
    t = atGuns(t, left);
    if (left <= 0) log?.push({ rule: 'p.10', text: `the crew of ${id} has no figure left: it is gone (A-51)` });
    if (k.gunsAbandoned && unitOf(t, target).status === 'active') {
      t = abandonGuns(t, target, 'retreating');
      log?.push({ rule: 'p.10', text: `${target}'s guns are abandoned: its crew runs (A-51)` });
      return t;
    }
    if (k.loser) {
      log?.push({ rule: 'p.13 step 8', text: `${target} lost: ${k.loser === 'routs' ? 'it routs' : 'it retreats'}` });
      t = beaten(t, k.loser);
    }
    return t;
  }
  if (k.winner === 'defender') {
    log?.push({ rule: 'p.10', text: `the crew of ${id} is beaten: eliminated (A-51)` });
    t = withCrews(
      t,
      crewsOn(t).filter((x) => x.id !== id),
      gunsOn(t),
    );
    // [p.12] a winner in retreat status recovers at once
    return k.winnerRecovers ? updUnit(t, target, { retreating: false }) : t;
  }
  log?.push({
    rule: 'p.10',
    text: `no winner: the crew of ${id} stays where it charged from${left > 0 ? '' : ' — it has no figure left and is gone'} (A-51)`,
  });
  return withCrews(
    t,
    left > 0
      ? crewsOn(t).map((x) => (x.id === id ? { ...x, figures: left } : x))
      : crewsOn(t).filter((x) => x.id !== id),
    gunsOn(t),
  );
}

/**
 * [p.10] the crew actions of a battery in its activation: `spike` (1 action: its guns destroyed, the battery gone,
 * A-51) and `abandon` (the crew leaves its guns to run for cover: "fire for one action and then use the second action
 * to run", so one action must be left; the run is its step 8 move, A-51); of any infantry or cavalry unit, `overrun G`
 * (its whole activation, in contact with enemy guns G: destroyed at the period's end if it stays and is not charged).
 */
function crewMenu(s: SeqState, u: SeqUnit, left: number): Primitive[] {
  const out: Primitive[] = [];
  const spec = specOf(s, u.id);
  if (u.retreating || u.locked || inTown(u)) return out;
  const end = (t: SeqState) => ({ ...t, stack: t.stack.slice(0, -1) });
  if (spec.kind === 'artillery' && left >= 2) {
    out.push({
      key: 'spike',
      apply(t, log) {
        log?.push({ rule: 'p.10', text: `${u.id}'s crew spikes its guns: destroyed, the battery is gone (A-51)` });
        return end(updUnit(t, u.id, { status: 'eliminated', gunsLost: true, halves: BUDGET }));
      },
    });
    out.push({
      key: 'abandon',
      apply(t, log) {
        log?.push({ rule: 'p.10', text: `${u.id}'s crew abandons its guns to run for cover (A-51)` });
        return end(abandonGuns(t, u.id, 'free'));
      },
    });
  }
  if ((spec.kind === 'infantry' || spec.kind === 'cavalry') && u.halves === 0 && !u.forceMarch) {
    const body = tableUnit(s, u);
    for (const g of gunsOn(s)) {
      if (g.side === u.side || g.overrunBy !== undefined) continue;
      if (unitDistance(body, gunsBody(s, g)) > IN) continue;
      out.push({
        key: `overrun ${g.id}`,
        apply(t, log) {
          log?.push({
            rule: 'p.10',
            text: `${u.id} sets about destroying ${g.id}'s guns: its whole period, in place (destroyed at its end if it is not charged)`,
          });
          const v = updUnit(t, u.id, { halves: BUDGET });
          return end({ ...v, abandoned: gunsOn(v).map((x) => (x.id === g.id ? { ...x, overrunBy: u.id } : x)) });
        },
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------------
// [p.20] Fires in buildings (optional rule fires, A-75)
// ---------------------------------------------------------------------------------------------------------------------

/** [p.20] a side's figures at work at the period's end: putting out a fire in `target`, or starting one in `block`. */
export interface FireCrew {
  readonly unit: string;
  /** The block its figures are in. */
  readonly block: string;
  readonly task: 'extinguish' | 'ignite';
  /** The burning block it works on (extinguish: its own or an adjacent one). */
  readonly target: string;
  readonly figures: number;
}

/** [p.20] the fires burning in a block now (the scenario's at the start). */
const firesIn = (s: SeqState, block: string) => s.blockFires?.[block] ?? blockById(s, block).fires;

/** [p.20] with the fires rule, the blocks with the fires burning now (buildings.ts reads them for the entry ban). */
function blocksNow(s: SeqState): BlockState[] {
  const b = blocksOf(s.sc);
  return s.blockFires ? b.map((x) => ({ ...x, fires: s.blockFires![x.id] ?? x.fires })) : b;
}

const setFires = (s: SeqState, block: string, fires: number): SeqState => ({
  ...s,
  // (a new units array: the menus, kept per units array, see the entry ban)
  units: [...s.units],
  blockFires: { ...(s.blockFires ?? {}), [block]: fires },
});

/** [p.20] a unit's figures in a block fought this period (fired out, or fought a block fight or close action). */
function fought(s: SeqState, u: SeqUnit, block: string): boolean {
  return (
    u.locked ||
    s.firedOut.includes(block) ||
    s.blockAttacks.some((a) => a.target === block || a.attackers.some((x) => x.unit === u.id))
  );
}

/**
 * [p.20] the crews a side may still set to work at the period's end, one group a unit and block: figures that did
 * nothing else this period may put out a fire in their block or an adjacent burning one (one D20 per four figures);
 * figures that did not fight may try to start a fire in their block (one D20 per two), if it has fewer than four.
 */
function crewOptions(s: SeqState, p: Side): { key: string; crew: FireCrew }[] {
  const town = { ...townOf(s), blocks: blocksNow(s) };
  const done = new Set((s.crews ?? []).map((c) => `${c.unit} ${c.block}`));
  const out: { key: string; crew: FireCrew }[] = [];
  for (const u of s.units) {
    if (u.side !== p || u.status !== 'active' || !inTown(u)) continue;
    for (const block of Object.keys(u.inBlocks).sort()) {
      const n = u.inBlocks[block]!;
      if (done.has(`${u.id} ${block}`) || fought(s, u, block)) continue;
      if (u.halves === 0 && n >= FIRES.figuresPerExtinguishRoll)
        for (const b of [blockById(s, block), ...neighbours(town, block)])
          if (firesIn(s, b.id) > 0)
            out.push({
              key: `extinguish ${b.id} by ${u.id} in ${block}`,
              crew: { unit: u.id, block, task: 'extinguish', target: b.id, figures: n },
            });
      if (n >= FIRES.figuresPerStartRoll && firesIn(s, block) < FIRES.maxPerBlock)
        out.push({
          key: `set fire ${block} by ${u.id}`,
          crew: { unit: u.id, block, task: 'ignite', target: block, figures: n },
        });
    }
  }
  return out;
}

/**
 * [p.20] A-19 step 12 (c): with the fires rule, each side sets its crews (side A's first), then the fires are put out,
 * then each burning block rolls to accumulate and spread, then the soldiers' fire-starting rolls.
 */
function firesAtEnd(s: SeqState): Frame[] {
  if (!s.sc.options.fires) return [];
  const a = s.sideA ?? 0;
  return [
    { t: 'fires', stage: 'ignite' },
    { t: 'fires', stage: 'burn' },
    { t: 'fires', stage: 'extinguish' },
    { t: 'crews', p: (1 - a) as Side },
    { t: 'crews', p: a },
  ];
}

/** [p.20] the chance frames of one stage of step 12 (c), in block order. */
function fireStage(s: SeqState, stage: 'extinguish' | 'burn' | 'ignite', log: Log): SeqState {
  const crews = s.crews ?? [];
  const blocks = blocksOf(s.sc).map((b) => b.id);
  const frames: Frame[] =
    stage === 'extinguish'
      ? blocks
          .filter((b) => firesIn(s, b) > 0 && crews.some((c) => c.task === 'extinguish' && c.target === b))
          .map((block) => ({ t: 'extinguish' as const, block }))
      : stage === 'burn'
        ? blocks.filter((b) => firesIn(s, b) > 0).map((block) => ({ t: 'burn' as const, block }))
        : blocks
            .filter((b) => crews.some((c) => c.task === 'ignite' && c.block === b))
            .map((block): Frame => {
              // [p.20] sappers roll 11-20, other soldiers 20, one D20 a two figures each; one fire at most
              const rollsOf = (sappers: boolean) =>
                crews
                  .filter((c) => c.task === 'ignite' && c.block === block && isSappers(s, c.unit) === sappers)
                  .reduce((n, c) => n + soldierStartRolls(c.figures, 0), 0);
              const soldiers = rollsOf(false);
              const sappers = rollsOf(true);
              return soldiers === 0
                ? { t: 'ignite', block, source: 'sappers', rolls: sappers }
                : {
                    t: 'ignite',
                    block,
                    source: 'soldiers',
                    rolls: soldiers,
                    ...(sappers ? { sapperRolls: sappers } : {}),
                  };
            });
  if (stage === 'burn' && frames.length)
    log?.push({ rule: 'p.20', text: 'the fires burning roll to accumulate and spread (one D20 a block)' });
  const t = stage === 'ignite' ? { ...s, crews: [] } : s;
  return push(t, ...frames.reverse());
}

/**
 * [p.20] "One roll is made for each howitzer in the battery firing at the building block": after a battery with
 * howitzers fires at a unit in blocks, one D20 a bearing howitzer for the Shell column (17-20) on that unit's block;
 * a battery whose howitzers carry incendiary shells (`incendiary`) always fires them there, the Incendiary column
 * (7-20) ("Only howitzers can fire incendiary shells").
 */
function shellFires(
  s: SeqState,
  shot: SmallArmsShot | CanisterShot | SolidShot | BuildingFireOutShot,
  t: SeqState,
  firer: string,
): SeqState {
  if (!t.sc.options.fires || (shot.type !== 'canister' && shot.type !== 'solidShot') || shot.howitzers <= 0) return t;
  const aimed = shot.type === 'canister' ? [shot.target.id] : shot.atRisk.map((x) => x.id);
  const hit = aimed.map((id) => s.units.find((u) => u.id === id)).find((u) => u && inTown(u));
  const block = hit && mainBlock(hit);
  if (!block || firesIn(t, block) >= FIRES.maxPerBlock) return t;
  const spec = specOf(s, firer);
  const source = spec.kind === 'artillery' && spec.incendiary ? 'incendiary' : 'shell';
  return push(t, { t: 'ignite', block, source, rolls: shot.howitzers });
}

/**
 * [p.20] A-75 a rocket battery (`rockets`, with the fires rule): one action at an enemy unit in blocks in its arc,
 * sight and its calibre's range (the nearest battery rule: the book gives rockets none), not in smoke; one D20 a
 * bearing launcher on the Rockets column (4-20) for that unit's main block. No other fire effect: no casualties, no
 * morale mark, no ammunition dice, no smoke (A-75: rockets have no fire rules but the column).
 */
function rocketMenu(
  s: SeqState,
  u: SeqUnit,
  left: number,
  mover: TableUnit,
  shootable: readonly TableUnit[],
): Primitive[] {
  const spec = specOf(s, u.id);
  if (spec.kind !== 'artillery' || !spec.rockets || !s.sc.options.fires) return [];
  if (u.formation !== 'unlimbered' || left < 2) return [];
  const out: Primitive[] = [];
  for (const ft of fireTargets(tableOf(s.sc), shootable, mover, spec.calibre)) {
    const tu = s.units.find((x) => x.id === ft.id);
    const block = tu && inTown(tu) ? mainBlock(tu) : undefined;
    if (!block || firesIn(s, block) >= FIRES.maxPerBlock) continue;
    if (smokeBlocks(s, mover, shootable.find((x) => x.id === ft.id)!)) continue;
    const rolls = Math.min(ft.figures, spec.cannons);
    out.push({
      key: `rockets ${ft.id}`,
      apply(t, log) {
        log?.push({
          rule: 'A-75',
          text: `${u.id} fires rockets at ${ft.id} in ${block} (${inches(ft.range)}): ${rolls} D20 on the Rockets column (4-20) to start a fire, no other effect [p.20]`,
        });
        const v = updUnit(t, u.id, { halves: u.halves + 2 });
        return push(v, { t: 'ignite', block, source: 'rockets', rolls });
      },
    });
  }
  return out;
}

/** A-75 option fireEvacuation: a unit with figures in a block with 3 or more fires must leave it when it activates. */
function mustEvacuate(s: SeqState, u: SeqUnit): boolean {
  return (
    !!s.sc.options.fires &&
    !!s.sc.options.fireEvacuation &&
    Object.keys(u.inBlocks).some((b) => firesIn(s, b) >= FIRES.noEntryAt)
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// [p.17-18] Written orders (command and control option #2) and misread orders (optional rules)
// ---------------------------------------------------------------------------------------------------------------------

/** [p.17] a division's order, as written or as read (A-28's conditions are not built: an order has none). */
export interface DivisionOrder {
  readonly order: Order;
  /** Attack or manoeuvre: a scenario objective's id, or 'enemy' (the closest enemy unit, [p.18]'s misread A). */
  readonly target?: string;
  /** Defend: the area's centre (1/100"), the division leader's radius about it. */
  readonly at?: { readonly x: number; readonly y: number };
  /** [p.17] an attack (or pursuit) once committed: half the division within 12" of the enemy. */
  readonly committed?: boolean;
  /** [p.18] a misread W: withdraw until the end of this period (one game turn), then defend. */
  readonly until?: number;
  /** [p.17] A-28 a special condition written with the order: when it is met, the division switches to `then`. */
  readonly condition?: OrderCondition;
  /**
   * [p.17] A-28 the follow-on order as written (an order key's words after the division: `attack obj-V1`, `defend
   * here`, `pursuit`, `withdraw`; a defence "here" is about the division's leader when it switches).
   */
  readonly then?: string;
}

/**
 * [p.17] A-28's condition templates: `afterTurns` (`turns` game turns after the order took effect, in period `from`);
 * `objectiveTaken` (the enemy holds the objective); `enemyWithdraws` (an enemy unit is seen withdrawing: in retreat
 * status); `onArrival` (the attack's objective taken or the manoeuvre's location reached: the follow-on instead of
 * Defend there).
 */
export type OrderCondition =
  | { readonly kind: 'afterTurns'; readonly turns: number; readonly from?: number }
  | { readonly kind: 'objectiveTaken'; readonly objective: string }
  | { readonly kind: 'enemyWithdraws' }
  | { readonly kind: 'onArrival' };

/** [p.17] a changed order on its way: it takes effect at the start of period `at` (counted from the game's first). */
export interface PendingOrder {
  readonly division: string;
  readonly order: DivisionOrder;
  readonly at: number;
}

/** [p.17] a side's divisions: the leaders its units answer to, in the order of its leaders. */
function divisionsOf(s: SeqState, side: Side): string[] {
  const sd = s.sc.sides[side]!;
  const cmd = new Set(sd.units.map((u) => u.commander));
  return sd.leaders.filter((l) => cmd.has(l.id)).map((l) => l.id);
}

const sideOfDivision = (s: SeqState, d: string): Side =>
  s.sc.sides.findIndex((x) => x.leaders.some((l) => l.id === d)) as Side;

/** [p.17] the objectives an order may name (the scenario's). */
const objectiveIds = (s: SeqState) => s.sc.victory.objectives.map((o) => o.id);

/** The middle of an objective's area (1/100"). */
function objectivePoint(s: SeqState, id: string): { x: number; y: number } {
  const area = objectiveArea(s, s.sc.victory.objectives.find((o) => o.id === id)!);
  return { x: area.reduce((n, p) => n + p.x, 0) / area.length, y: area.reduce((n, p) => n + p.y, 0) / area.length };
}

/** A division's units on the table. */
const divisionUnits = (s: SeqState, d: string) =>
  s.units.filter((u) => u.status === 'active' && specOf(s, u.id).commander === d);

/** Edge-to-edge distance (1/100") from a unit's body to the nearest enemy unit (`retreating`: in retreat status only). */
function nearestEnemy(s: SeqState, u: SeqUnit, retreating = false): { d: number; id: string | null } {
  const body = tableUnit(s, u);
  let best = { d: Number.POSITIVE_INFINITY, id: null as string | null };
  for (const o of s.units)
    if (o.side !== u.side && o.status === 'active' && (!retreating || o.retreating)) {
      const d = unitDistance(body, tableUnit(s, o));
      if (d < best.d) best = { d, id: o.id };
    }
  return best;
}

/** [p.17] where an attack, pursuit or manoeuvre goes for a unit now (null: nowhere, it is free). */
function orderGoal(s: SeqState, u: SeqUnit, o: DivisionOrder): { x: number; y: number } | null {
  if (o.order === 'Pursuit' || o.target === 'enemy') {
    const e = nearestEnemy(s, u, o.order === 'Pursuit').id;
    return e ? centreOf(tableUnit(s, unitOf(s, e))) : null;
  }
  return o.target ? objectivePoint(s, o.target) : null;
}

/** [p.17] the options to write for a division: each of the six orders, with their objectives; `keep` after the first. */
function orderOptions(s: SeqState, d: string, first: boolean): string[] {
  const obj = objectiveIds(s);
  return [
    ...(first ? [] : [`order ${d} keep`]),
    ...(obj.length ? obj.map((o) => `order ${d} attack ${o}`) : [`order ${d} attack enemy`]),
    `order ${d} defend here`,
    ...obj.map((o) => `order ${d} defend ${o}`),
    `order ${d} withdraw`,
    `order ${d} pursuit`,
    ...obj.map((o) => `order ${d} maneuver ${o}`),
    `order ${d} reserve`,
    ...conditionedOptions(s, d),
  ];
}

/** [p.17] A-28 the turns an `afterTurns` condition may name. */
const CONDITION_TURNS = [1, 2] as const;

/**
 * [p.17] A-28 the orders with a condition a division may be written, a bounded menu after the book's examples: "attack
 * after holding for two turns" (`defend here` or `reserve` `then attack X after N`, N 1 or 2 turns, X each objective,
 * the nearest enemy without objectives); a withdrawal for N turns ("how many periods to withdraw": `withdraw then
 * defend here after N`); "withdraw if the hill is taken" (`defend X then withdraw if X taken`, X the objective it
 * defends); "attack if the enemy is seen withdrawing" (`defend here` or `reserve` `then pursuit if enemy withdraws`);
 * "manoeuvre … and defend" with another follow-on (`maneuver X then attack Y on arrival`, Y another objective;
 * `attack X then pursuit on arrival`). Every key starts with "order" (a sealed choice).
 */
function conditionedOptions(s: SeqState, d: string): string[] {
  const obj = objectiveIds(s);
  const attacks = obj.length ? obj.map((o) => `attack ${o}`) : ['attack enemy'];
  const out: string[] = [];
  for (const hold of ['defend here', 'reserve'])
    for (const n of CONDITION_TURNS) for (const a of attacks) out.push(`order ${d} ${hold} then ${a} after ${n}`);
  for (const n of CONDITION_TURNS) out.push(`order ${d} withdraw then defend here after ${n}`);
  for (const o of obj) out.push(`order ${d} defend ${o} then withdraw if ${o} taken`);
  for (const hold of ['defend here', 'reserve']) out.push(`order ${d} ${hold} then pursuit if enemy withdraws`);
  for (const o of obj) {
    out.push(`order ${d} attack ${o} then pursuit on arrival`);
    for (const y of obj) if (y !== o) out.push(`order ${d} maneuver ${o} then attack ${y} on arrival`);
  }
  return out;
}

/**
 * [p.17] A-28 the order a key writes, with its condition: `<order> then <follow-on> after N | if X taken | if enemy
 * withdraws | on arrival`.
 */
function writtenOrderOfKey(s: SeqState, key: string): { division: string; order: DivisionOrder } | null {
  const [base, rest] = key.split(' then ') as [string, string | undefined];
  const w = orderOfKey(s, base);
  if (!w || rest === undefined) return w;
  const m = /^(.+?) (after (\d+)|if (\S+) taken|if enemy withdraws|on arrival)$/.exec(rest);
  if (!m) return w;
  const condition: OrderCondition = m[3]
    ? { kind: 'afterTurns', turns: Number(m[3]) }
    : m[4]
      ? { kind: 'objectiveTaken', objective: m[4] }
      : m[2] === 'on arrival'
        ? { kind: 'onArrival' }
        : { kind: 'enemyWithdraws' };
  return { division: w.division, order: { ...w.order, condition, then: m[1]! } };
}

/** [p.17] A-28 a condition in words. */
function conditionText(c: OrderCondition): string {
  if (c.kind === 'afterTurns') return `after ${c.turns} turn${c.turns === 1 ? '' : 's'}`;
  if (c.kind === 'objectiveTaken') return `if the enemy takes ${c.objective}`;
  if (c.kind === 'enemyWithdraws') return 'if the enemy is seen withdrawing';
  return 'on arrival';
}

/** [p.17] the order a key writes (a defence "here" holds about the division leader's position now). */
function orderOfKey(s: SeqState, key: string): { division: string; order: DivisionOrder } | null {
  const [, division, verb, target] = key.split(' ') as [string, string, string, string | undefined];
  if (verb === 'keep') return null;
  const order: Order =
    verb === 'attack'
      ? 'Attack'
      : verb === 'defend'
        ? 'Defend'
        : verb === 'withdraw'
          ? 'Withdraw'
          : verb === 'pursuit'
            ? 'Pursuit'
            : verb === 'maneuver'
              ? 'Maneuver'
              : 'Reserve';
  if (order === 'Defend')
    return { division, order: { order, at: target === 'here' ? divisionAt(s, division) : objectivePoint(s, target!) } };
  return { division, order: { order, ...(target ? { target } : {}) } };
}

const orderText = (o: DivisionOrder) =>
  `${o.order}${o.target ? ` ${o.target}` : ''}${o.order === 'Defend' && o.at ? ` about (${inches(o.at.x)}, ${inches(o.at.y)})` : ''}${o.condition ? `, then ${o.then ?? 'defend here'} ${conditionText(o.condition)} (A-28)` : ''}`;

/**
 * [p.17] A-19 step 0 of a period with written orders: the orders arriving now take effect (with the misread roll
 * [p.18]); then each side writes, sealed, an order for each of its divisions (at the game's start: all take effect at
 * once; later: keep, or a change that takes 1D6 + modifiers periods to arrive; a division with an order on its way
 * keeps it, a reading).
 */
function ordersStep(s0: SeqState, log: Log): SeqState {
  const now = periodIndex(s0);
  const s: SeqState = { ...s0, ordersAt: now };
  const first = s.orders === undefined;
  const arriving = (s.pendingOrders ?? []).filter((p) => p.at <= now);
  const frames: Frame[] = [
    { t: 'periodStart' },
    { t: 'orders', first },
    ...arriving.reverse().map((p) => ({ t: 'orderArrives' as const, division: p.division, order: p.order })),
  ];
  if (first)
    log?.push({ rule: 'p.17', text: "each side writes its divisions' orders (sealed); they take effect at once" });
  return push({ ...s, pendingOrders: (s.pendingOrders ?? []).filter((p) => p.at > now) }, ...frames);
}

/** [p.17] an order takes effect. */
function takeEffect(s: SeqState, d: string, written: DivisionOrder, log: Log, why = 'takes effect'): SeqState {
  // [p.17] A-28 "after holding for two turns": counted from the period the order takes effect
  const c = written.condition;
  const o =
    c?.kind === 'afterTurns' && c.from === undefined
      ? { ...written, condition: { ...c, from: periodIndex(s) } }
      : written;
  log?.push({ rule: 'p.17', text: `${d}'s order ${why}: ${orderText(o)}` });
  // (a new units array: the menus, kept per units array, follow the order)
  return { ...s, units: [...s.units], orders: { ...(s.orders ?? {}), [d]: o } };
}

/** [p.17] what the order-change roll needs for a division and its new order. */
function orderChangeInput(s: SeqState, d: string, to: Order): OrderChangeInput {
  const side = sideOfDivision(s, d);
  const sd = s.sc.sides[side]!;
  const spec = sd.leaders.find((l) => l.id === d)!;
  const at = divisionAt(s, d);
  const sup = spec.superior ? leaderAt(s, spec.superior) : at;
  const units = divisionUnits(s, d);
  const from = s.orders?.[d];
  const enemyNear = s.units.some(
    (o) =>
      o.side !== side &&
      o.status === 'active' &&
      commandDistance(at, tableUnit(s, o)) <= ORDER_CHANGE_DISTANCES.enemyNear * IN,
  );
  return {
    cavalryDivision: units.length > 0 && units.every((u) => specOf(s, u.id).kind === 'cavalry'),
    nationality: sd.nationality,
    prussian1806: sd.doctrine.prussian1806 || (s.sc.year !== undefined && s.sc.year <= 1806),
    napoleonArmyCommander: sd.napoleonArmyCommander,
    from: from?.order ?? to,
    to,
    // A-26: the command path between the leaders
    leadersDistance: leadersLength(s, side, at, sup) / IN,
    enemyWithin12OrCommitted: enemyNear || !!from?.committed,
    leaderLost: leaderOf(s, d).lost,
    badWeather: !!s.sc.options.weather && s.sc.weather !== 'clear' && s.sc.weather !== 'hot',
  };
}

/**
 * [p.17] the switches orders make by themselves, kept current after every step: an attack (or pursuit) is committed
 * once half its division is within 12" of the enemy; an attack or manoeuvre whose objective its side holds (or, for a
 * manoeuvre, with half the division within 4" of it: a reading) turns to Defend there; a Reserve turns to Defend/Hold
 * when an enemy comes within 24" of one of its units; a misread W becomes Defend after its turn; a written condition
 * (A-28) that is met switches the order to its follow-on (an attack's or manoeuvre's `on arrival` in place of Defend).
 */
function ordersUpkeep(s: SeqState, log: Log): SeqState {
  if (!s.sc.options.writtenOrders || !s.orders) return s;
  let t = s;
  for (const [d, o] of Object.entries(s.orders)) {
    const units = divisionUnits(t, d);
    if (!units.length) continue;
    const side = units[0]!.side;
    const near = units.map((u) => nearestEnemy(t, u).d / IN);
    // [p.17] A-28 its written condition is met: it switches to its follow-on
    const met = conditionMet(t, o, side);
    if (met) {
      t = takeEffect(t, d, followOn(t, d, o), log, `switches (${met}, A-28)`);
      continue;
    }
    // a reserve that turns to Defend/Hold (an enemy within 24") holds on with its condition
    if (o.order === 'Reserve' && o.condition && Math.min(...near) <= ORDER_DISTANCES.reserveTrigger) {
      const hold = orderOfKey(t, `order ${d} defend here`)!.order;
      t = takeEffect(
        t,
        d,
        { ...hold, condition: o.condition, ...(o.then ? { then: o.then } : {}) },
        log,
        'turns to Defend/Hold (an enemy within 24"), its condition kept (A-28)',
      );
      continue;
    }
    if ((o.order === 'Attack' || o.order === 'Pursuit') && !o.committed && divisionCommitted(near)) {
      log?.push({ rule: 'p.17', text: `${d} is committed: half its units are within 12" of the enemy` });
      t = { ...t, units: [...t.units], orders: { ...t.orders, [d]: { ...o, committed: true } } };
      continue;
    }
    if ((o.order === 'Attack' || o.order === 'Maneuver') && o.target && o.target !== 'enemy') {
      const spec = t.sc.victory.objectives.find((x) => x.id === o.target)!;
      const area = objectiveArea(t, spec);
      const arrived =
        holderNow(t, spec) === side ||
        (o.order === 'Maneuver' &&
          units.filter((u) => polygonDistance(footprint(tableUnit(t, u)), area) <= 4 * IN).length * 2 >= units.length);
      if (arrived) {
        t = takeEffect(
          t,
          d,
          o.condition?.kind === 'onArrival' ? followOn(t, d, o) : { order: 'Defend', at: objectivePoint(t, o.target) },
          log,
          `is done (${o.target} reached${o.condition?.kind === 'onArrival' ? ', A-28' : ''})`,
        );
        continue;
      }
    }
    if (o.order === 'Reserve' && Math.min(...near) <= ORDER_DISTANCES.reserveTrigger) {
      t = takeEffect(
        t,
        d,
        { order: 'Defend', at: divisionAt(t, d) },
        log,
        'turns to Defend/Hold (an enemy within 24")',
      );
      continue;
    }
    if (o.until !== undefined && periodIndex(t) > o.until && t.ordersAt === periodIndex(t))
      t = takeEffect(
        t,
        d,
        { order: 'Defend', at: divisionAt(t, d) },
        log,
        'turns to Defend (its misread withdrawal is over)',
      );
  }
  return t;
}

/**
 * [p.17] A-28 what a division's written condition has come to (null: not met, or none): `afterTurns` at the orders step
 * of the period its turns are over; `objectiveTaken` when the other side holds the objective now (A-79's holder);
 * `enemyWithdraws` when an enemy unit on the table is in retreat status (a reading of "seen withdrawing": visibility
 * is not built). `onArrival` is the arrival's (ordersUpkeep).
 */
function conditionMet(s: SeqState, o: DivisionOrder, side: Side): string | null {
  const c = o.condition;
  if (!c) return null;
  if (c.kind === 'afterTurns') {
    const over = c.from !== undefined && periodIndex(s) >= c.from + 6 * c.turns && s.ordersAt === periodIndex(s);
    return over ? `${c.turns} turn${c.turns === 1 ? ' has' : 's have'} passed` : null;
  }
  if (c.kind === 'objectiveTaken') {
    const spec = s.sc.victory.objectives.find((x) => x.id === c.objective);
    return spec && holderNow(s, spec) === 1 - side ? `the enemy has taken ${c.objective}` : null;
  }
  if (c.kind === 'enemyWithdraws')
    return s.units.some((u) => u.side !== side && u.status === 'active' && u.retreating)
      ? 'the enemy is seen withdrawing: a unit in retreat status'
      : null;
  return null;
}

/** [p.17] A-28 the follow-on order as written (a defence "here" about the division's leader now); Defend when none. */
function followOn(s: SeqState, d: string, o: DivisionOrder): DivisionOrder {
  return orderOfKey(s, `order ${d} ${o.then ?? 'defend here'}`)?.order ?? { order: 'Defend' };
}

/** The keys a unit's order lets it take now, from its menu's keys (`after`: where the unit stands after one). */
function orderFilter(s: SeqState, u: SeqUnit, menu: readonly Primitive[]): Primitive[] {
  const d = specOf(s, u.id).commander;
  const o = s.orders?.[d];
  if (!o) return [...menu];
  const moving = (k: string) => /^(move|road|charge|enter|blockMove|leave) /.test(k);
  const charge = (k: string) => k.startsWith('charge ');
  const posAfter = (p: Primitive) => {
    const t = p.apply(push(s, { t: 'act', unit: u.id }), undefined);
    return unitOf(t, u.id);
  };
  const here = { x: u.x, y: u.y };
  const dist = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);
  const full = (k: string) => / 1 /.test(k) && /^(move forward|road) /.test(k);
  const turning = (k: string) => k === 'about face' || k.startsWith('face ');
  // [p.17] Reserve: "units on reserve orders cannot move"
  if (o.order === 'Reserve') return menu.filter((p) => !moving(p.key));
  if (o.order === 'Defend') {
    // [p.17] "cannot move outside the area they are told to defend": the division leader's radius about its centre
    const radius = s.sc.sides[u.side]!.leaders.find((l) => l.id === d)!.radius * IN;
    const c = o.at ?? divisionAt(s, d);
    return menu.filter((p) => {
      if (!moving(p.key)) return true;
      const a = posAfter(p);
      return dist(a, c) <= Math.max(radius, dist(here, c));
    });
  }
  if (o.order === 'Withdraw') {
    // [p.17] "must move 3/4 to full distance away from any enemy units": no move ends nearer the enemy, no charge; the
    // first action is a full move away when one is offered
    const now = nearestEnemy(s, u).d;
    const away = (p: Primitive) => nearestEnemy(s, posAfter(p)).d;
    const ok = menu.filter((p) => !charge(p.key) && (!moving(p.key) || away(p) >= now));
    const must = ok.filter((p) => full(p.key) && away(p) > now);
    // (or turns to make one: a line facing the enemy about-faces first)
    const turns = ok.filter((p) => turning(p.key));
    return u.halves === 0 && must.length + turns.length ? [...must, ...turns] : ok;
  }
  if (o.order === 'Maneuver') {
    // [p.17] "cannot move closer then 20” of any enemy units … if already within 20”, units must attempt to move away"
    const goal = orderGoal(s, u, o);
    const now = nearestEnemy(s, u).d;
    const stand = ORDER_DISTANCES.manoeuvreStandOff * IN;
    return menu.filter((p) => {
      if (charge(p.key)) return false;
      if (!moving(p.key)) return true;
      const a = posAfter(p);
      const e = nearestEnemy(s, a).d;
      if (now < stand) return e > now;
      return e >= stand && (!goal || dist(a, goal) <= dist(here, goal));
    });
  }
  // [p.17] Attack and Pursuit: "move at 3/4 to full move distance until the division is considered committed"
  if (o.committed) return [...menu];
  const goal = orderGoal(s, u, o);
  if (!goal) return [...menu];
  const toward = (p: Primitive) => dist(posAfter(p), goal);
  const ok = menu.filter((p) => !moving(p.key) || charge(p.key) || toward(p) <= dist(here, goal));
  // the digest's filter: an action of full movement toward the objective first, unless it charges, or (within 12"
  // of an enemy) changes formation
  const must = ok.filter((p) => (full(p.key) && toward(p) < dist(here, goal)) || charge(p.key));
  if (u.halves > 0 || !must.length) return ok;
  const close = nearestEnemy(s, u).d <= ORDER_DISTANCES.committedRange * IN;
  // (a turn toward it is allowed first)
  return ok.filter((p) => must.includes(p) || turning(p.key) || (close && p.key.startsWith('form ')));
}

/**
 * The keys of a unit's activation now: its menu with what the optional rules forbid taken out: [p.11] a battery
 * being resupplied does nothing else; A-75 a unit in a block with 3 fires leaves it (fireEvacuation); [p.17] its
 * division's written order.
 */
function actKeys(s: SeqState, id: string): string[] {
  const menu = activation(s, id);
  const o = s.sc.options;
  if (!o.caissons && !o.fires && !o.writtenOrders) return menu.map((p) => p.key);
  if (o.caissons && beingResupplied(s, id)) return ['end'];
  const u = unitOf(s, id);
  if (mustEvacuate(s, u)) {
    const out = menu.filter((p) => p.key.startsWith('leave '));
    if (out.length) return out.map((p) => p.key);
  }
  if (!o.writtenOrders) return menu.map((p) => p.key);
  const kept = orderFilter(s, u, menu).map((p) => p.key);
  return kept.includes('end') || kept.length ? kept : ['end'];
}

export const runtime = procedure<SeqState, Frame, Action>({
  handlers,
  // [p.17] written orders switch by themselves (committed, objective reached, reserve threatened)
  upkeep: (s, log) => ordersUpkeep(s, log),
  idle(s, log) {
    if (s.over) return s;
    if (s.period === 0) return startTurn(s, log);
    // a step's last activation is over: the other side's step, or side A's next
    if (s.sideA === null) return startPeriod(s, log);
    return nextStep(s, s.lastStep, log);
  },
  finished: (s) => s.over,
  actionKey: (a) => a,
  chancePrefix: (s) => `t${s.turn}p${s.period}/`,
});

/** The optional rules [p.5, p.15-24] not built yet, by option name and page: a scenario that turns one on is refused. */
const UNBUILT_OPTIONS: readonly (readonly [string, string])[] = [['visibility', 'p.20']];

export function initialSeq(sc: Scenario): SeqState {
  const on = UNBUILT_OPTIONS.filter(([k]) => (sc.options as Record<string, unknown>)[k] === true);
  if (on.length)
    throw new NotImplementedRuleError(
      on.map(([k, page]) => `${k} [${page}]`).join(', '),
      `scenario ${sc.id} turns on optional rules not built yet; turn them off in its options to play it now`,
    );
  const units: SeqUnit[] = sc.sides.flatMap((side, i) =>
    side.units.map((u) => ({
      id: u.id,
      side: i as Side,
      x: Math.round(u.x * IN),
      y: Math.round(u.y * IN),
      facing: u.facing,
      formation: u.formation,
      figures: figuresOf(u),
      halves: 0,
      disordered: false,
      originalFigures: figuresOf(u),
      marked: 0,
      reasons: [],
      retreating: false,
      gunsLost: false,
      // [p.11] a battery's ammunition as the scenario gives it (0 Normal … 3 Out)
      ammo: (u.kind === 'artillery' ? u.ammo : 0) as AmmoLevel,
      fatigue: 0 as FatigueLevel,
      ooc: false,
      forceMarch: false,
      recovery: 0,
      riddenDown: false,
      activated: false,
      stand: false,
      status: 'active' as const,
      locked: false,
      outOfControl: false,
      inBlocks: {},
      // [p.24] optional: a line given as a supported line (the schema allows it only under options.supportedLine)
      ...(u.kind === 'infantry' && u.supported ? { supported: true } : {}),
      // [p.10] A-50 a battery's crew hits taken before the battle (fewer than neutralise it: the schema checks)
      ...(u.kind === 'artillery' && u.hits ? { hits: u.hits } : {}),
      // [p.10] guns deployed massed two deep; [p.7] a line with a flank refused (the footprints the schema checked)
      ...(u.kind === 'artillery' && u.massed ? { massed: true } : {}),
      ...(u.kind === 'infantry' && u.refused ? { refused: u.refused } : {}),
    })),
  );
  const perTurn = [sc.sides[0].turnPoints ?? 20, sc.sides[1].turnPoints ?? 20] as const;
  const ratio = sc.options?.activationRatio ?? { a: 2, d: 1 };
  return {
    stack: [],
    nChance: 0,
    sc,
    scenarioId: sc.id,
    turns: sc.turns,
    turn: 1,
    period: 0,
    perTurn,
    points: perTurn,
    bids: null,
    sideA: null,
    ratio,
    aActivated: 0,
    aFinished: false,
    lastStep: null,
    units,
    leaders: sc.sides.flatMap((side, i) =>
      side.leaders.map((l) => {
        const u = l.attached ? side.units.find((x) => x.id === l.attached) : undefined;
        return {
          id: l.id,
          side: i as Side,
          x: Math.round((u ? u.x : (l.x ?? 0)) * IN),
          y: Math.round((u ? u.y : (l.y ?? 0)) * IN),
          attached: l.attached ?? null,
          lost: false,
        };
      }),
    ),
    closes: [],
    armyFailed: [false, false],
    divisionsFailed: [],
    initiativePassed: [],
    conceded: null,
    held: {},
    firedOut: [],
    blockAttacks: [],
    // [p.11] optional caissons, as the scenario places them (one serving a battery has made contact before period 1)
    ...(sc.options.caissons
      ? {
          caissons: sc.sides.flatMap((side, i) =>
            side.caissons.map((c) => ({
              id: c.id,
              side: i as Side,
              x: Math.round(c.x * IN),
              y: Math.round(c.y * IN),
              facing: c.facing,
              hits: 0,
              status: 'active' as const,
              servicing: c.servicing ?? null,
              since: 0,
            })),
          ),
        }
      : {}),
    // [p.5] optional table flanks: two flanks, each with each side's turn points
    ...(sc.options.tableFlanks
      ? {
          flanks: [0, 1].map(() => ({
            points: perTurn,
            bids: null,
            sideA: null,
            aActivated: 0,
            aFinished: false,
            lastStep: null,
          })),
          flank: 0,
          flankOrder: [0, 1],
        }
      : {}),
    over: false,
  };
}

/**
 * For the scripted player, the notation and the text picture (index.ts, heuristic.ts): a unit's scenario entry, its
 * body on the table as `shape.ts` sees it, and the state a primitive of its activation leaves (at the unit's `act`
 * frame; no events), or undefined if it is not on the unit's menu.
 */
export const internals = {
  specOf,
  tableUnit,
  gunsAtEnd,
  closeMorale,
  meleePairs,
  screenInput,
  thresholdInput,
  retreatInput,
  moraleInput,
  // the inputs of the chance nodes' rolls, for reading real dice (dice-faces.ts)
  closeInput,
  closeAlive,
  rideDownInput,
  loserCheckOf,
  defenceChangeCheckOf,
  oocInput,
  orderChangeInput,
  blockChargerCheck,
  fightable,
  townOf,
  firesIn,
  crewSplit,
  isSappers,
  igniteDice,
  igniteText,
  blockById,
  // [p.10] A-51 crews: cover (the picture), the charge to retake the guns (dice-faces.ts, the scripted player)
  crewInCover,
  crewCloseInput,
  crewChargeMorale,
  crewChargeDist,
  crewChargeOdds,
  resultText: (s: SeqState) => resultOf(s, victoryPoints(s)),
  objectiveArea,
  /**
   * For the scripted player: the odds of a charge primitive, from the charger's side, in [−1, 1]: the defender giving
   * way at step 2 or losing the melee (or being ridden down) counts +1, the charger losing or turned back −1; before
   * any defence fire. Undefined when `key` makes no close action.
   */
  chargeOdds: (s: SeqState, id: string, key: Action): number | undefined => {
    const p = activation(s, id).find((x) => x.key === key);
    if (!p) return undefined;
    const t = p.apply(push(s, { t: 'act', unit: id }), undefined);
    const c = t.closes[t.closes.length - 1];
    if (!c || t.closes.length === s.closes.length || c.charger !== id) return undefined;
    if (c.rideDown)
      return resolveCavalryCharge(rideDownInput(t, c)).reduce(
        (v, d) =>
          v + d.p * (d.value.result === 'defenderRiddenDown' ? 1 : d.value.result === 'cavalryTurnedBack' ? -1 : 0),
        0,
      );
    const giveWay = defenderCheck(closeMorale(t, c, 'defender'))
      .dist.filter((d) => d.value !== 'stands')
      .reduce((v, d) => v + d.p, 0);
    const melee = resolveCloseAction(closeInput(t, c, false)).reduce(
      (v, d) => v + d.p * (d.value.winner === 'charger' ? 1 : d.value.winner === 'defender' ? -1 : 0),
      0,
    );
    return giveWay + (1 - giveWay) * melee;
  },
  /** §8.4: the primitive a plan starts with, for the scripted player's score of the plan. */
  planFirst: (s: SeqState, id: string, key: Action): Action | null => {
    return planMenu(s, id, actKeys(s, id)).find((x) => x.key === key)?.first ?? null;
  },
  after: (s: SeqState, id: string, key: Action): SeqState | undefined =>
    activation(s, id)
      .find((p) => p.key === key)
      ?.apply(s, undefined),
  BUDGET,
};
