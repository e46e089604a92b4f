/**
 * The procedure runtime's registry. Play is a stack of frames (types.ts `Frame`); every kind of frame has one
 * procedure, registered by the flow module that owns it, which says who decides at the frame, what they may do, what
 * chance offers, how an action or outcome is applied and how the frame advances by itself. The runtime (rules.ts)
 * only ever asks the procedure of the frame on top of the stack, so flows talk by pushing frames, not by calling each
 * other; rules.ts imports every flow once, so all are registered before play starts. A frame of a kind nobody
 * registered is refused by name (`UnknownFrameError`).
 *
 * Starting a procedure is usually pushing its frame. Where the start is more than a push (it validates the
 * declaration, logs it, or reads the board first), the owning flow provides an entry here and other flows call it
 * through `entry`, never by importing that flow.
 *
 * This follows engine/core/procedure.ts (one handler per frame kind, flows talking through the stack) but keeps the
 * ruleset's frames as they are: a frame here stays on the stack while it is played and changes stage (a charge frame
 * is a decision at one stage, a roll or an automatic step at the next), so a procedure says per frame, not per kind,
 * who acts; the core runtime's per-kind handlers with the frame popped first would change the state and its hashes.
 *
 * This module depends on no flow (types only).
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { UnknownFrameError } from '../../core/procedure.ts';
import type { AreaId } from '../../areas/map.ts';
import type { Log } from './state.ts';
import type { Action, EState, Frame, PhaseFrame, Side, UnitState } from './types.ts';

export type FrameKind = Frame['t'];
export type FrameOf<K extends FrameKind> = Extract<Frame, { readonly t: K }>;

/** How one kind of frame is played. */
export interface Procedure<F extends Frame = Frame> {
  /** Who decides at the frame; null: a chance node, or an automatic frame (settled before anyone is asked). */
  decider(s: EState, f: F): Side | null;
  /** The actions open to the decider (none at chance and automatic frames). */
  legal(s: EState, f: F): Action[];
  /** The outcomes of a chance node with their exact probabilities (none at decisions). */
  chance(s: EState, f: F): ChanceOutcome<Action>[];
  /** Apply an action or a chance outcome; throws `IllegalActionError` for anything the frame does not take. */
  step(s: EState, f: F, a: Action, log: Log): EState;
  /** Advance an automatic frame by one step; null when the frame awaits a decision or a chance outcome. */
  settle(s: EState, f: F, log: Log): EState | null;
}

const procedures = new Map<FrameKind, Procedure>();

/** Register the procedure that plays `kinds` (once per kind, from the module that owns the frames). */
export function register<K extends FrameKind>(kinds: readonly K[], p: Procedure<FrameOf<K>>): void {
  for (const k of kinds) {
    if (procedures.has(k)) throw new Error(`eagles-of-the-empire: two procedures registered for the frame kind '${k}'`);
    procedures.set(k, p as unknown as Procedure);
  }
}

/** The procedure of frame `f`; a kind of frame no flow registered is an engine error naming it. */
export function procedureOf(f: Frame): Procedure {
  const p = procedures.get(f.t);
  if (!p) throw new UnknownFrameError(f.t);
  return p;
}

/** The ways into procedures that are more than pushing a frame, by the flow that provides them. */
export interface Entries {
  /** charge-flow.ts: the Cavalry Charge Segment's choices [10.0, 10.7, 10.71], a declared charge [10.0], a launched Grand Charge [10.8]. */
  readonly charge: {
    options(s: EState, p: Side): { area: AreaId; target: AreaId; via: AreaId }[];
    start(s: EState, f: PhaseFrame, origin: AreaId, via: AreaId, target: AreaId, log: Log): EState;
    startGrand(
      s: EState,
      p: Side,
      main: AreaId,
      via: AreaId,
      target: AreaId,
      units: string[],
      escort: string[],
      origins: Record<string, AreaId>,
    ): EState;
  };
  /** assault-flow.ts: the areas that may be assaulted now [14.64], declared Massed Columns still due [14.7], a declared assault [14.0]. */
  readonly assault: {
    targets(s: EState, p: Side): AreaId[];
    pendingMassedColumns(s: EState, p: Side): UnitState[];
    start(s: EState, f: PhaseFrame, target: AreaId, log: Log): EState;
  };
  /** grand-charge.ts: whether a leader may declare a Grand Charge now [10.8]. */
  readonly grandCharge: {
    canGrandCharge(s: EState, p: Side, leader: string): boolean;
  };
}

const entries: { -readonly [K in keyof Entries]?: Entries[K] } = {};

/** Provide a flow's entry (once, from the module that owns the procedure). */
export function provide<K extends keyof Entries>(k: K, e: Entries[K]): void {
  if (entries[k]) throw new Error(`eagles-of-the-empire: two entries provided for '${k}'`);
  entries[k] = e;
}

/** A flow's entry; missing only if its module was never loaded (an engine error). */
export function entry<K extends keyof Entries>(k: K): Entries[K] {
  const e = entries[k];
  if (!e) throw new Error(`eagles-of-the-empire: no entry '${k}' is provided; rules.ts registers every flow`);
  return e as Entries[K];
}
