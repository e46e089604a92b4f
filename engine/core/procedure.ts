/**
 * The procedure runtime: a ruleset declares one handler per frame kind, and the runtime owns the rest — the stack of
 * pending frames in the state, who decides, the settle loop that runs automatic frames with a guard, the validating
 * apply, and chance keys.
 *
 * A rule procedure ("charge → defensive fire → combat → resolve → follow-up") is a stack of frames. The top frame is
 * a decision (a player chooses among legal actions), a chance node (the driver picks an outcome class) or an
 * automatic step (the rules act). A handler steps its frame with the frame already popped, and starts other
 * procedures by pushing their frames: flows talk through the stack, not by calling each other. When the stack is
 * empty the ruleset's `idle` says what comes next (the next phase, the next turn, or the end of the game).
 *
 * Chance keys are unique by construction: every chance step advances the state's `nChance`, whichever frame it was.
 *
 * A frame that changes stage in place (a charge that is a decision, then a roll, then automatic) has a `staged`
 * handler: `advance` takes its automatic steps with the frame on top, `owner` says who decides now (null: the dice).
 * `upkeep` runs before every settle step, for bookkeeping the rules keep current at all times. `checkHandler` builds
 * the commonest chance frame, a check with re-rolls that then continues.
 *
 * `Handlers` is a mapped type over the frame union, so a frame kind without a handler is a compile error; a frame
 * whose kind has no handler at run time (a malformed state) throws naming it.
 */
import { checkWithRerolls } from './dice.ts';
import { type ChanceOutcome, type GameEvent, IllegalActionError, type ToMove } from './game.ts';

export type Log = GameEvent[] | undefined;

/** What the runtime needs in a state: the stack of pending frames and the count of chance steps taken. */
export interface ProcedureState<F extends { readonly t: string }> {
  readonly stack: readonly F[];
  readonly nChance: number;
}

/** A player decides: `legal` lists the choices; `step` applies one (the frame already popped). */
export interface DecisionHandler<S, F, A> {
  readonly kind: 'decision';
  owner(f: F, s: S): number;
  legal(s: S, f: F): readonly A[];
  step(s: S, f: F, a: A, log: Log): S;
  /** `step` takes the state with the frame still on top (`KeepsTop`). */
  readonly keepsTop?: boolean;
  /** A frame with nothing to decide is dropped by the settle loop (e.g. an activation slot when none is left). */
  skip?(s: S, f: F): boolean;
  describe?(s: S, f: F): string;
}

/** The dice decide: `outcomes` lists the classes with exact probabilities; `step` applies the one drawn. */
export interface ChanceHandler<S, F, A> {
  readonly kind: 'chance';
  outcomes(s: S, f: F): readonly ChanceOutcome<A>[];
  step(s: S, f: F, a: A, log: Log): S;
  /** `step` takes the state with the frame still on top (`KeepsTop`). */
  readonly keepsTop?: boolean;
  describe?(s: S, f: F): string;
}

/** The rules act with no choice: `run` gets the state with the frame popped. */
export interface AutoHandler<S, F> {
  readonly kind: 'auto';
  run(s: S, f: F, log: Log): S;
  /** `run` takes the state with the frame still on top (`KeepsTop`). */
  readonly keepsTop?: boolean;
}

/**
 * A frame that stays on the stack while it is played and changes stage (a charge is a decision at one stage, a roll at
 * the next, an automatic step at a third; a segment is a decision until nothing is left to do in it): `advance` takes
 * one automatic step with the frame still on top (null when it awaits a decision or an outcome), `owner` says who
 * decides at the frame as it stands (null: a chance node), and `step` applies an action or outcome with the frame
 * popped, like the other handlers (a frame that goes on pushes its next stage back).
 */
export interface StagedHandler<S, F, A> {
  readonly kind: 'staged';
  advance(s: S, f: F, log: Log): S | null;
  owner(f: F, s: S): number | null;
  legal(s: S, f: F): readonly A[];
  outcomes(s: S, f: F): readonly ChanceOutcome<A>[];
  step(s: S, f: F, a: A, log: Log): S;
  /** `step` takes the state with the frame still on top (`KeepsTop`). */
  readonly keepsTop?: boolean;
  describe?(s: S, f: F): string;
}

/**
 * `keepsTop` (decision, chance, automatic and staged handlers): the handler's `step` (or `run`) gets the state with its
 * frame still on top instead of popped, for a ruleset whose steps start by pushing the frame back (the same state,
 * without popping and pushing it: two state copies fewer per step). A chance step's state still has its counter
 * advanced. Public API. @public
 */
export type KeepsTop = { readonly keepsTop?: boolean };

/**
 * Sealed choices revealed together (secret bids, written orders): the frame stays on top while its owners choose in
 * turn, each choice hidden from every other player, and when the last owner has chosen `reveal` gets them all with the
 * frame popped. The runtime keeps the choices made so far on the frame (its `sealed` field, which the ruleset never
 * writes), and gives the ruleset its per-viewer views: redacted action keys and events, observations, `hidden`,
 * `sampleState` and `sealedRound` (see `Procedure`). Public API. @public
 */
export interface SealedHandler<S, F, A> {
  readonly kind: 'sealed';
  /** The rule that seals, cited by the event each choice emits. */
  readonly rule: string;
  /** Who chooses, in turn; a player may appear more than once (one order per formation). Never reads the choices. */
  owners(s: S, f: F): readonly number[];
  /** The `i`-th owner's options: they may depend on its own earlier choices in the round (`mine`), never on another's. */
  legal(s: S, f: F, i: number, mine: readonly A[]): readonly A[];
  /** The round is complete (the frame popped): reveal the choices, citing the rule that reveals, and go on. */
  reveal(s: S, f: F, choices: readonly A[], log: Log): S;
  /** What the owner reads when it chooses `a` (default: "chooses <key> (sealed)"). */
  text?(s: S, f: F, i: number, a: A): string;
  /**
   * What every other player reads of the `i`-th choice, as its event and as the action's key (default "player N
   * chooses (sealed)"); the same whatever was chosen, and equal to no action's key.
   */
  sealedText?(s: S, f: F, i: number): string;
  describe?(s: S, f: F, i: number): string;
}

export type Handler<S, F, A> =
  | DecisionHandler<S, F, A>
  | ChanceHandler<S, F, A>
  | AutoHandler<S, F>
  | StagedHandler<S, F, A>
  | SealedHandler<S, F, A>;

/** One handler per frame kind, by the frame's `t`. */
export type Handlers<S, F extends { readonly t: string }, A> = {
  readonly [K in F['t']]: Handler<S, Extract<F, { readonly t: K }>, A>;
};

export interface ProcedureSpec<S extends ProcedureState<F>, F extends { readonly t: string }, A> {
  readonly handlers: Handlers<S, F, A>;
  /** The stack is empty: push what comes next, or return a finished state. */
  idle(s: S, log: Log): S;
  /** Is the game over? (A finished state has nothing more to settle.) */
  finished(s: S): boolean;
  /** Run before each settle step, and on the state settle returns (e.g. bookkeeping the board needs after every step of play). */
  upkeep?(s: S, log: Log): S;
  /** Checked before each settle step: the game ends here (e.g. a side has nothing left) — the ended state, or null. */
  conclude?(s: S, log: Log): S | null;
  /** The part of the chance key before the counter, e.g. "t3/" for the turn (default: none). */
  chancePrefix?(s: S): string;
  /** The canonical text of an action, for refusing one that is not offered. */
  actionKey(a: A): string;
  /**
   * A copy of `s` with `patch` over it (default: a spread). A ruleset whose states are wide objects may give one that
   * builds every copy as one object literal: V8 copies states of one shape much faster than it spreads states whose
   * shapes have drifted (see docs/benchmarks.md).
   */
  with?(s: S, patch: Partial<ProcedureState<F>>): S;
  /** The most automatic steps one settle may take before it is declared a loop (default 100,000). */
  readonly guard?: number;
}

export class UnknownFrameError extends Error {
  readonly code = 'engine/unknown-frame';
  constructor(readonly frame: string) {
    super(`no handler for frame kind "${frame}"`);
  }
}

/** The runtime built from a spec: the parts of `Game` that follow from the frames. */
export interface Procedure<S, A> {
  top(s: S): { readonly t: string } | undefined;
  toMove(s: S): ToMove;
  legalActions(s: S): readonly A[];
  chanceOutcomes(s: S): readonly ChanceOutcome<A>[];
  /** Names the chance event about to be drawn; unique within a game. */
  chanceKey(s: S): string;
  /** Validating apply: the action must be among the options offered (compared by key). */
  apply(s: S, a: A, log?: GameEvent[]): S;
  /** The fast path for search: the caller guarantees the action is offered. */
  applyUnchecked(s: S, a: A, log?: GameEvent[]): S;
  /** Run automatic frames (and `idle`) until a decision, a chance node or the end. */
  settle(s: S, log?: GameEvent[]): S;
  describe(s: S): string;
  /** What `viewer` sees of `a` taken at `s` (`Game.viewAction`): a sealed choice is redacted for the other players. */
  viewAction(s: S, a: A, viewer: number): string;
  /** Does `s` hold a sealed choice `viewer` cannot see (`Game.hidden`)? */
  hidden(s: S, viewer: number): boolean;
  /** `s` as `viewer` may see it: the other owners' sealed choices replaced by null (for `Game.observe`). */
  redact(s: S, viewer: number): S;
  /** `s` with the sealed choices `viewer` cannot see drawn afresh with `u` from their owners' options (`Game.sampleState`). */
  sampleSealed(s: S, viewer: number, u: () => number): S;
  /** The open round of sealed choices, if any (`Game.sealedRound`). */
  sealedRound(
    s: S,
  ): { readonly start: S; readonly choices: readonly { readonly player: number; readonly action: A }[] } | undefined;
}

/** The choices a sealed frame holds so far (kept by the runtime on the frame). */
function sealedOf<A>(f: object): readonly A[] {
  return (f as { readonly sealed?: readonly A[] }).sealed ?? [];
}

/** The state with frames pushed (the last one on top). */
export function push<S extends { readonly stack: readonly unknown[] }>(s: S, ...frames: S['stack'][number][]): S {
  return { ...s, stack: [...s.stack, ...frames] };
}
/** The state with its top frame removed. Public API. @public */
export function pop<S extends { readonly stack: readonly unknown[] }>(s: S): S {
  return { ...s, stack: s.stack.slice(0, -1) };
}
/** The top frame, if any. Public API. @public */
export function topFrame<S extends { readonly stack: readonly unknown[] }>(s: S): S['stack'][number] | undefined {
  return s.stack[s.stack.length - 1];
}

export function procedure<S extends ProcedureState<F>, F extends { readonly t: string }, A>(
  spec: ProcedureSpec<S, F, A>,
): Procedure<S, A> {
  const guard = spec.guard ?? 100_000;
  const handlerOf = (f: F): Handler<S, F, A> => {
    const h = (spec.handlers as Record<string, Handler<S, F, A> | undefined>)[f.t];
    if (!h) throw new UnknownFrameError(f.t);
    return h;
  };
  const top = (s: S): F | undefined => s.stack[s.stack.length - 1];
  const copy = spec.with;
  // without the spec's `with`, each copy is a spread with the changed field written out (a spread of a patch object
  // would be slower)
  /** The state with its top frame removed. */
  const popTop = (s: S): S => {
    const stack = s.stack.slice(0, -1);
    return copy ? copy(s, { stack }) : { ...s, stack };
  };

  function settle(s0: S, log?: GameEvent[]): S {
    let s = s0;
    for (let n = 0; n < guard; n++) {
      if (spec.upkeep) s = spec.upkeep(s, log);
      if (spec.finished(s)) return s;
      const ended = spec.conclude?.(s, log);
      if (ended) return ended;
      const f = top(s);
      if (!f) {
        s = spec.idle(s, log);
        continue;
      }
      const h = handlerOf(f);
      if (h.kind === 'auto') s = h.keepsTop ? h.run(s, f, log) : h.run(popTop(s), f, log);
      else if (h.kind === 'decision' && h.skip?.(s, f)) s = popTop(s);
      else if (h.kind === 'sealed' && h.owners(s, f).length === 0) s = h.reveal(popTop(s), f, [], log);
      else if (h.kind === 'staged') {
        const next = h.advance(s, f, log);
        if (next === null) return s;
        s = next;
      } else return s;
    }
    throw new Error(
      `settle: no decision or chance node reached in ${guard} automatic steps (top frame: ${top(s)?.t ?? 'none'})`,
    );
  }

  function offered(s: S): readonly A[] {
    const f = top(s);
    if (!f || spec.finished(s)) return [];
    const h = handlerOf(f);
    if (h.kind === 'decision') return h.legal(s, f);
    if (h.kind === 'chance') return h.outcomes(s, f).map((o) => o.action);
    if (h.kind === 'staged') return h.owner(f, s) === null ? h.outcomes(s, f).map((o) => o.action) : h.legal(s, f);
    if (h.kind === 'sealed') return sealedLegal(h, s, f);
    return [];
  }
  function sealedLegal(h: SealedHandler<S, F, A>, s: S, f: F): readonly A[] {
    const chosen = sealedOf<A>(f);
    const owners = h.owners(s, f);
    const i = chosen.length;
    return h.legal(
      s,
      f,
      i,
      chosen.filter((_, j) => owners[j] === owners[i]),
    );
  }
  /** The state with its top frame replaced. */
  const withTop = (s: S, f: F): S => {
    const stack = [...s.stack.slice(0, -1), f];
    return copy ? copy(s, { stack }) : { ...s, stack };
  };
  /** The state with the chance counter advanced, and its top frame removed unless `keep`. */
  const counted = (s: S, keep: boolean): S => {
    const nChance = s.nChance + 1;
    if (keep) return copy ? copy(s, { nChance }) : { ...s, nChance };
    const stack = s.stack.slice(0, -1);
    return copy ? copy(s, { stack, nChance }) : { ...s, stack, nChance };
  };
  /** The open sealed frame on top, with its handler, owners and choices. */
  function openSealed(
    s: S,
  ): { h: SealedHandler<S, F, A>; f: F; owners: readonly number[]; chosen: readonly A[] } | null {
    const f = top(s);
    if (!f || spec.finished(s)) return null;
    const h = handlerOf(f);
    if (h.kind !== 'sealed') return null;
    return { h, f, owners: h.owners(s, f), chosen: sealedOf<A>(f) };
  }
  const sealedText = (h: SealedHandler<S, F, A>, s: S, f: F, i: number, owner: number): string =>
    h.sealedText?.(s, f, i) ?? `player ${owner + 1} chooses (sealed)`;
  const isChance = (h: Handler<S, F, A>, s: S, f: F): boolean =>
    h.kind === 'chance' || (h.kind === 'staged' && h.owner(f, s) === null);

  function applyUnchecked(s: S, a: A, log?: GameEvent[]): S {
    const f = top(s);
    if (!f) throw new Error('apply: nothing to decide (the stack is empty)');
    const h = handlerOf(f);
    if (h.kind === 'auto') throw new Error(`apply: frame "${f.t}" is automatic; settle the state first`);
    if (h.kind === 'sealed') {
      const owners = h.owners(s, f);
      const chosen = [...sealedOf<A>(f), a];
      const i = chosen.length - 1;
      const owner = owners[i]!;
      log?.push({
        rule: h.rule,
        text: h.text?.(s, f, i, a) ?? `chooses ${spec.actionKey(a)} (sealed)`,
        to: [owner],
        redacted: sealedText(h, s, f, i, owner),
      });
      if (chosen.length < owners.length) return withTop(s, { ...f, sealed: chosen });
      return settle(h.reveal(popTop(s), f, chosen, log), log);
    }
    // every chance step advances the counter, whichever frame it was: chance keys never repeat
    if (h.keepsTop) return settle(h.step(isChance(h, s, f) ? counted(s, true) : s, f, a, log), log);
    return settle(h.step(isChance(h, s, f) ? counted(s, false) : popTop(s), f, a, log), log);
  }

  return {
    top,
    toMove(s) {
      if (spec.finished(s)) return { kind: 'terminal' };
      const f = top(s);
      if (!f) return { kind: 'terminal' };
      const h = handlerOf(f);
      if (h.kind === 'decision') return { kind: 'player', player: h.owner(f, s) };
      if (h.kind === 'chance') return { kind: 'chance' };
      if (h.kind === 'staged') {
        const p = h.owner(f, s);
        return p === null ? { kind: 'chance' } : { kind: 'player', player: p };
      }
      if (h.kind === 'sealed') return { kind: 'player', player: h.owners(s, f)[sealedOf(f).length]! };
      throw new Error(`toMove: frame "${f.t}" is automatic; the state was not settled`);
    },
    legalActions(s) {
      const f = top(s);
      if (!f || spec.finished(s)) return [];
      const h = handlerOf(f);
      if (h.kind === 'staged') return h.owner(f, s) === null ? [] : h.legal(s, f);
      if (h.kind === 'sealed') return sealedLegal(h, s, f);
      return h.kind === 'decision' ? h.legal(s, f) : [];
    },
    chanceOutcomes(s) {
      const f = top(s);
      if (!f || spec.finished(s)) return [];
      const h = handlerOf(f);
      if (h.kind === 'staged') return h.owner(f, s) === null ? h.outcomes(s, f) : [];
      return h.kind === 'chance' ? h.outcomes(s, f) : [];
    },
    chanceKey: (s) => `${spec.chancePrefix?.(s) ?? ''}c${s.nChance}`,
    apply(s, a, log) {
      if (spec.finished(s)) throw new IllegalActionError(spec.actionKey(a), 'the game is over');
      const key = spec.actionKey(a);
      if (!offered(s).some((x) => spec.actionKey(x) === key)) {
        const asked = describe(s);
        throw new IllegalActionError(
          key,
          `not among the ${top(s)?.t ?? 'current'} options here${asked ? ` (the decision: "${asked}")` : ''}`,
        );
      }
      return applyUnchecked(s, a, log);
    },
    applyUnchecked,
    settle,
    describe,
    viewAction(s, a, viewer) {
      const o = openSealed(s);
      if (o) {
        const i = o.chosen.length;
        const owner = o.owners[i]!;
        if (viewer !== owner) return sealedText(o.h, s, o.f, i, owner);
      }
      return spec.actionKey(a);
    },
    hidden(s, viewer) {
      const o = openSealed(s);
      return !!o && o.chosen.some((_, j) => o.owners[j] !== viewer);
    },
    redact(s, viewer) {
      const o = openSealed(s);
      if (!o || !o.chosen.some((_, j) => o.owners[j] !== viewer)) return s;
      return withTop(s, { ...o.f, sealed: o.chosen.map((a, j) => (o.owners[j] === viewer ? a : null)) });
    },
    sampleSealed(s, viewer, u) {
      const o = openSealed(s);
      if (!o || !o.chosen.some((_, j) => o.owners[j] !== viewer)) return s;
      const drawn: A[] = [];
      for (let j = 0; j < o.chosen.length; j++) {
        const owner = o.owners[j]!;
        if (owner === viewer) {
          drawn.push(o.chosen[j]!);
          continue;
        }
        const options = o.h.legal(
          s,
          o.f,
          j,
          drawn.filter((_, k) => o.owners[k] === owner),
        );
        drawn.push(options[Math.floor(u() * options.length)]!);
      }
      return withTop(s, { ...o.f, sealed: drawn });
    },
    sealedRound(s) {
      const o = openSealed(s);
      if (!o || !o.chosen.length) return undefined;
      const { sealed: _open, ...fresh } = o.f as F & { readonly sealed?: unknown };
      return {
        start: withTop(s, fresh as unknown as F),
        choices: o.chosen.map((action, j) => ({ player: o.owners[j]!, action })),
      };
    },
  };

  function describe(s: S): string {
    const f = top(s);
    if (!f) return '';
    const h = handlerOf(f);
    if (h.kind === 'sealed') return h.describe?.(s, f, sealedOf(f).length) ?? '';
    return h.kind === 'auto' ? '' : (h.describe?.(s, f) ?? '');
  }
}

/** What a check frame carries: a die roll of `need` or more after `mod`, with `rerolls` re-rolls of a failure. */
export interface CheckFields {
  readonly need: number;
  readonly mod: number;
  readonly rerolls: number;
}

/**
 * A check-then-continue frame, the commonest procedure of all: roll one die against a target with re-rolls of failure,
 * then go on with the result (which re-roll passed is part of the outcome, for rules that use re-rolls up). The
 * ruleset says how an outcome is written as its action and read back, and what follows.
 */
export function checkHandler<S, F extends CheckFields, A>(o: {
  /** Sides of the die (default 6). */
  readonly die?: number;
  readonly action: (pass: boolean, used: number) => A;
  readonly read: (a: A) => { readonly pass: boolean; readonly used: number };
  /** What follows the roll (the frame already popped). */
  readonly then: (s: S, f: F, pass: boolean, used: number, log: Log) => S;
  readonly describe?: (s: S, f: F) => string;
}): ChanceHandler<S, F, A> {
  const label = (pass: boolean, used: number) =>
    pass ? (used ? `pass after ${used} re-roll${used > 1 ? 's' : ''}` : 'pass') : 'fail';
  return {
    kind: 'chance',
    outcomes: (_s, f) =>
      checkWithRerolls(o.die ?? 6, f.need, f.mod, f.rerolls).map(({ value: { pass, used }, p }) => ({
        action: o.action(pass, used),
        p,
        label: label(pass, used),
      })),
    step: (s, f, a, log) => {
      const r = o.read(a);
      return o.then(s, f, r.pass, r.used, log);
    },
    ...(o.describe ? { describe: o.describe } : {}),
  };
}
