/**
 * How the chapters of Eagles of the Empire hand their frames to the procedure runtime (engine/core/procedure.ts):
 * each chapter exports `Handlers` for the frame kinds it owns, and rules.ts assembles them into the runtime. Play is
 * a stack of frames (types.ts `Frame`); the runtime asks only the handler of the frame on top, so chapters talk by
 * pushing frames, not by calling each other. A frame of a kind without a handler is refused by name
 * (`UnknownFrameError`, raised by the runtime).
 *
 * A chapter states its frames' rules in one place per frame (`FrameRules`: who decides, what they may do, what chance
 * offers, how an action or outcome is applied, how the frame advances by itself), and plays them where they stand:
 * a frame stays on the stack while it is played and changes stage. The adapters below ask the runtime to hand the
 * chapter's step the state with its frame still on top (`keepsTop`: no popping and pushing it back), and choose the kind of handler the frame is: a `decision`, a `chance` node, an `auto`matic step, or `staged` for a
 * frame that is a decision at one stage and a roll or an automatic step at another (a charge, an assault, a segment
 * with nothing left to do).
 *
 * Starting a procedure is usually pushing its frame. Where the start is more than a push (it validates the
 * declaration, logs it, or reads the board first), the owning chapter provides an entry here and other chapters call
 * it through `entry`, never by importing that chapter.
 *
 * This module depends on no chapter (types only).
 */
import type { ChanceOutcome } from '../../core/game.ts';
import type { AutoHandler, ChanceHandler, DecisionHandler, StagedHandler } from '../../core/procedure.ts';
import type { AreaId } from '../../areas/map.ts';
import type { Log } from './state.ts';
import type { Action, EState, Frame, PhaseFrame, Side, UnitState } from './types.ts';

type FrameKind = Frame['t'];
export type FrameOf<K extends FrameKind> = Extract<Frame, { readonly t: K }>;

/** How a chapter plays its frames, each asked with the frame on top of the stack. */
export interface FrameRules<F extends Frame = Frame> {
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

/** A frame its owner always decides at; `skip`: it lapses (is dropped) without a decision. */
export function decision<F extends Frame>(
  r: FrameRules<F>,
  skip?: (s: EState, f: F) => boolean,
): DecisionHandler<EState, F, Action> {
  return {
    kind: 'decision',
    keepsTop: true,
    owner: (f, s) => r.decider(s, f) as Side,
    legal: (s, f) => r.legal(s, f),
    step: (s, f, a, log) => r.step(s, f, a, log),
    ...(skip ? { skip } : {}),
  };
}

/** A frame that is always a roll. */
export function chance<F extends Frame>(r: FrameRules<F>): ChanceHandler<EState, F, Action> {
  return {
    kind: 'chance',
    keepsTop: true,
    outcomes: (s, f) => r.chance(s, f),
    step: (s, f, a, log) => r.step(s, f, a, log),
  };
}

/** A frame the rules always play by themselves. */
export function auto<F extends Frame>(r: FrameRules<F>): AutoHandler<EState, F> {
  return {
    kind: 'auto',
    keepsTop: true,
    run(s, f, log) {
      const next = r.settle(s, f, log);
      if (next === null) throw new Error(`eagles-of-the-empire: the automatic frame '${f.t}' did not advance`);
      return next;
    },
  };
}

/** A frame whose stages differ: a decision, a roll or an automatic step, as it stands. */
export function staged<F extends Frame>(r: FrameRules<F>): StagedHandler<EState, F, Action> {
  return {
    kind: 'staged',
    keepsTop: true,
    advance: (s, f, log) => r.settle(s, f, log),
    owner: (f, s) => r.decider(s, f),
    legal: (s, f) => r.legal(s, f),
    outcomes: (s, f) => r.chance(s, f),
    step: (s, f, a, log) => r.step(s, f, a, log),
  };
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
  if (!e) throw new Error(`eagles-of-the-empire: no entry '${k}' is provided; rules.ts loads every chapter`);
  return e as Entries[K];
}
