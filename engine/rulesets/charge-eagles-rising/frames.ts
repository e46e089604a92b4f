/**
 * Charge! Eagles Rising: every kind of frame on the procedure stack (engine/core/procedure.ts), by phase. A frame is a
 * decision, a chance node or an automatic step; rules.ts maps each kind to its chapter's handler. Frames hold ids and
 * small data only (states are hashed and compared).
 */
import type { Vec } from '../../geometry/geometry.ts';
import type { FireKind, Phase, Side } from './types.ts';
import type { RangeBand } from './tables.ts';

/** The turn's sequence: one automatic frame begins a phase (rules.ts). */
type PhaseFrame = { readonly t: 'phase'; readonly phase: Phase };

/** [Ranged Fire] one volley's hits, recorded until the fire step applies them together (fire.ts, C8). */
export interface FireHit {
  readonly firer: string;
  readonly target: string;
  readonly hits: number;
  readonly kind: FireKind;
  readonly band: RangeBand;
}

/** Ranged fire (fire.ts) [Ranged Fire; T2c; C3, C8]. */
export type FireFrame =
  /** [Ranged Fire] one unit's fire at one target: its hits (chance), recorded in the nearest collector below. */
  | {
      readonly t: 'volley';
      readonly firer: string;
      readonly target: string;
      readonly dice: number;
      readonly toHit: number;
      readonly kind: FireKind;
      readonly band: RangeBand;
    }
  /** [T2c, C8] all fire is simultaneous: the volleys above record their hits here, then all are applied together. */
  | { readonly t: 'fireApply'; readonly rule: string; readonly hits: readonly FireHit[] };

/** The tactical phase's own flow (tactical.ts) [T2a, T2c, T2d; C6, C8]. */
export type TacticalFrame =
  /** [T2a] the active side activates an ME not yet activated (C8: once), or ends its activations. */
  | { readonly t: 'activation'; readonly side: Side }
  /** [T2b] after the activations: the side's charges (charges.ts). */
  | { readonly t: 'activationsDone'; readonly side: Side }
  /** [T2, T3] the phase's end: per-phase flags cleared. */
  | { readonly t: 'tacticalEnd'; readonly side: Side }
  /** [T2a] one unit of the activated ME: hold, move, fire or move & fire. */
  | { readonly t: 'unitAction'; readonly unit: string }
  /** [T2a] Move & Fire: the fire after the move, or none. */
  | { readonly t: 'moveFire'; readonly unit: string }
  /** [Skill Tests] the tests a move calls for (terrain, formation change in a threat zone, retiring cavalry). */
  | {
      readonly t: 'moveTest';
      readonly unit: string;
      readonly reasons: readonly ('terrain' | 'formationChange' | 'retiringCavalry')[];
    }
  /** [C8] a completed Move: the enemy's opportunity charges (charges.ts `afterEnemyMove`). */
  | { readonly t: 'moved'; readonly unit: string }
  /** [T2c] the ME's fire is declared: the enemy's return fire, then all of it at once. */
  | { readonly t: 't2c'; readonly element: string }
  /** [T2c, C8] a unit fired on: return fire at one unit of the active ME, or not. */
  | { readonly t: 'returnFire'; readonly unit: string; readonly element: string }
  /** [T2c] the ME's fire and the return fire, simultaneous (fire.ts `fireStep`). */
  | { readonly t: 'fireResolve'; readonly element: string }
  /** [T2d] the activated ME's recovery: BLOWN off if unmoved, recovery choices. */
  | { readonly t: 'recoverAll'; readonly element: string }
  /** [T2d] a disordered unit: try to recover (a skill test), or not (or, blown and unmoved, remove BLOWN instead). */
  | { readonly t: 'recover'; readonly unit: string };

/** S1-S2 (orders.ts). */
export type OrderFrame =
  /** [S1] both sides write their orders, sealed: one choice per recipient (C7); keys start with `order`. */
  | { readonly t: 'orders' }
  /** [S1, Leader Casualties] a leader's strategic check: 2D6 ≥ 11, then the table (one chance node). */
  | { readonly t: 'leaderCheck'; readonly leader: string }
  /** [Leader Casualties] a lost leader's replacement: 2D6 for his grade. */
  | { readonly t: 'replacement'; readonly leader: string }
  /** [S2, Issuing Orders] the acceptance roll of the order written for `to`. */
  | { readonly t: 'accept'; readonly side: Side; readonly to: string }
  /** [S2, Off Board Force Arrival] an ME's arrival roll. */
  | { readonly t: 'arrival'; readonly element: string };

/** S3 (morale.ts): the scan for the next test (armies already tested this S3), and one test of an ME, MF or Army. */
export type MoraleFrame =
  | { readonly t: 'moraleScan'; readonly armiesTested: readonly Side[] }
  /** [Morale Table] `id` is the ME's or MF's ('' for the Army). */
  | {
      readonly t: 'morale';
      readonly level: 'element' | 'formation' | 'army';
      readonly id: string;
      readonly side: Side;
    };

/** One ME's skirmish fire in S5 (C9): planned when S5 begins, its dice recorded as they fall. */
export interface SkirmishFire {
  /** The firing ME and its target ME. */
  readonly from: string;
  readonly at: string;
  readonly points: number;
  /** Its qualifying units, and the target's units it may hit. */
  readonly firers: readonly string[];
  readonly targets: readonly string[];
  /** The hits of its D10 (null: not rolled yet), and the unit each hit fell on so far. */
  readonly hits: number | null;
  readonly hit: readonly string[];
}

/** S5 (skirmish.ts): every ME's fire with its dice; a damaged battery's test ("or limber and withdraw 6""). */
export type SkirmishFrame =
  | { readonly t: 'skirmish'; readonly fire: readonly SkirmishFire[] }
  | { readonly t: 'skirmishGuns'; readonly unit: string };

/** S6 and T1 (initiative.ts): the roll, the winner's choice, each side's attaching and detaching. */
export type InitiativeFrame =
  | { readonly t: 'initiative' }
  | { readonly t: 'initiativeChoice'; readonly side: Side }
  | { readonly t: 'leaders'; readonly side: Side; readonly acted: readonly string[] };

/** Losses and tests any chapter may call for (casualties.ts). */
export type SkillFrame =
  /** [Skill Tests] a unit's test: worn or spent (first reached, C11), KIAs from skirmish fire, removing disorder. */
  | {
      readonly t: 'skill';
      readonly unit: string;
      readonly reason: 'worn' | 'spent' | 'skirmishKia' | 'recover';
      /** Removing disorder with no enemy within 1 move, or behind a friendly unit (−3). */
      readonly safe?: boolean;
    }
  /** [Leader Casualties] the tactical check: a D6 for each KIA on the leader's unit, any 6 → the table. */
  | { readonly t: 'leaderTactical'; readonly leader: string; readonly kias: number };

/** Why a charge chapter test is rolled (charges.ts, cac.ts) [Skill Tests; Cavalry Pull Up/Recall; Result explanations]. */
export type ChargeTestReason =
  | 'closing'
  | 'counterCharge'
  | 'face'
  | 'pullUpSquare'
  | 'pullUpEvade'
  | 'squareLoss'
  | 'cavTie'
  | 'rallyBack'
  | 'notExploit'
  | 'refight';

/** T2b, the C8 op-charges and T2e (charges.ts). Distances in frames are 1/100". */
export type ChargeFrame =
  /** [T2b] the side declares its charges, one at a time, until `done charges`. */
  | { readonly t: 'declareCharges'; readonly side: Side }
  /** [C8] the non-active side may op-charge the unit that just moved. */
  | { readonly t: 'opCharge'; readonly side: Side; readonly moved: string }
  /** [T2b] the defender declares a reaction for each of its charged units. */
  | { readonly t: 'reactions'; readonly side: Side }
  /** [Changing Formation to Square] the square test, the cavalry having begun `beganAt` (1/100") away. */
  | { readonly t: 'squareTest'; readonly unit: string; readonly beganAt: number }
  /** A test of the charge chapters; `want` is the option a British "not exploit" test is for. */
  | {
      readonly t: 'chargeTest';
      readonly unit: string;
      readonly reason: ChargeTestReason;
      readonly kias?: number;
      readonly artillery?: boolean;
      readonly band?: string;
      readonly want?: string;
    }
  /** [T2e] the next charged unit's resolution (or, none left, the close assaults). */
  | { readonly t: 'resolveCharges' }
  /** [T2e] 1-2: evades, counter-charges, chargers to 1", closing fire. */
  | { readonly t: 'closeIn'; readonly target: string }
  /** [T2e] 3: collects the closing fire's hits (fire.ts volleys), applies them, then the combined closing tests. */
  | {
      readonly t: 'closingTests';
      readonly target: string;
      readonly targetAt: Vec;
      readonly collect: true;
      readonly hits: readonly FireHit[];
    }
  /** [T2e] 4-5: combined charges, square pull-ups, evaded targets. */
  | { readonly t: 'closeRest'; readonly target: string; readonly targetAt: Vec }
  /** [Cavalry Pull Up/Recall] cavalry charging a square: pull up (a test) or charge home. */
  | { readonly t: 'pullUp'; readonly charger: string }
  /** [Movement notes] the target evaded or was removed: pull up, take position or pursue. */
  | { readonly t: 'afterEvade'; readonly charger: string; readonly targetAt: Vec }
  /** [T2e] 6-7: contact, the unanchored flank, the CAC queued. */
  | { readonly t: 'contact'; readonly target: string }
  /** The end of the side's charges: D & B "at the end of phase" for the cavalry listed; the queues cleared. */
  | { readonly t: 'chargesDone'; readonly blowAtEnd: readonly string[] };

/** Close assault combat (cac.ts). */
export type CacFrame =
  /** [T2e] the next CAC: initial ones first, then exploitation moves and 2nd CACs (C13). */
  | { readonly t: 'cacs' }
  /** [Close Assault Combat] one CAC roll: lead units first (C13). */
  | {
      readonly t: 'cac';
      readonly attackers: readonly string[];
      readonly defenders: readonly string[];
      readonly second: boolean;
    }
  /** [Result explanations] the victorious attacker's option. */
  | { readonly t: 'cacWin'; readonly unit: string; readonly band: string; readonly loserAt: Vec }
  /** [Infantry results explanations] 0: unable to re-fight, fall back 2" or 4" in line, disordered (C13). */
  | { readonly t: 'cacTieFallBack'; readonly unit: string }
  /** [Close Assault Combat] an exploitation move: into a new target (a 2nd CAC) or not. */
  | { readonly t: 'exploit'; readonly unit: string };

/** S4 (strategic.ts). */
export type StrategicFrame =
  /** [S4, C7] a side's strategic moves: its arrivals enter, then each of its MEs chooses in turn. */
  | { readonly t: 'strategicSide'; readonly side: Side }
  /** [S4] an ME's one strategic choice: `strategic <ME> none` or a group move. */
  | { readonly t: 'strategic'; readonly element: string }
  /** [S4, Skill Tests] a force march's one skill test for the ME: fail → 1 KIA a unit. */
  | { readonly t: 'forceMarch'; readonly element: string };

export type Frame =
  | PhaseFrame
  | OrderFrame
  | SkillFrame
  | MoraleFrame
  | StrategicFrame
  | SkirmishFrame
  | InitiativeFrame
  | TacticalFrame
  | FireFrame
  | ChargeFrame
  | CacFrame;
