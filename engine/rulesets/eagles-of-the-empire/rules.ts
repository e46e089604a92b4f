/**
 * The rules of Eagles of the Empire on the procedure runtime (engine/core/procedure.ts): one handler per frame kind,
 * each from the chapter of the rulebook that owns it, and the sequence of play for when nothing is pending. A chapter
 * starts another chapter's procedure by pushing its frame (or through an entry, procedures.ts).
 *
 * | module | decisions | chance | automatic | staged |
 * |---|---|---|---|---|
 * | `flow.ts` [5.0–9.0] | reinf, reinfPlace, face, firstChoice, attempt, select | weather, firstRoll, actDie, courier, cbi | command | |
 * | `action.ts` [8.14] | | | | phase |
 * | `bombard-flow.ts` [12.0–12.72] | fire | | bomb | |
 * | `move-flow.ts` [13.0–13.94] | move | | | |
 * | `loss-flow.ts` [A-42, 3.2, 3.13, 19.0–19.31] | displace | roll, leaderCheck, routCheck | | loss, routMove |
 * | `retreat-flow.ts` [20.0–20.1] | | | | retreatTo |
 * | `charge-flow.ts` [10.0–10.94] | | | | charge |
 * | `grand-charge.ts` [10.8–10.81] | | | | gc |
 * | `assault-flow.ts` [14.0–14.8] | | | | assault |
 * | `end-flow.ts` [15.0–15.3] | freeRally, replace | rallyRoll, routRally, recoverRoll | endSeq | |
 *
 * The Assignment Segment's choices (assign-flow.ts [11.0–11.33]) are actions of the `phase` frame.
 *
 * A staged frame stays on the stack while it changes stage: a decision at one stage, a roll or an automatic step at
 * another (a segment passes by itself when nothing is left to do in it [8.14]). The `face` decision lapses when the
 * unit no longer needs a facing. Before every step of play the runtime's upkeep normalizes extended lines [16.1–16.8]
 * and hands objectives over (A-53); with the stack empty `flow.ts`'s `idle` pushes what comes next.
 *
 * Use the ruleset through this module (or index.ts), not through a chapter.
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { type Handler, type Handlers, UnknownFrameError, procedure } from '../../core/procedure.ts';
import { actionPhase } from './action.ts';
import { bombardment } from './bombard-flow.ts';
import { casualtyHandlers } from './loss-flow.ts';
import { movement } from './move-flow.ts';
import { assaults } from './assault-flow.ts';
import { charges } from './charge-flow.ts';
import { endHandlers } from './end-flow.ts';
import { idle, sequence } from './flow.ts';
import { updateControl } from './victory.ts';
import { grandCharges } from './grand-charge.ts';
import { normalizeLines } from './lines.ts';
import { actionKey } from './notation.ts';
import { retreats } from './retreat-flow.ts';
import { type Log, pop, top } from './state.ts';
import { describeFrame } from './words.ts';
import type { Action, EState, Frame, Side } from './types.ts';

export { initialState } from './setup.ts';
export { victoryPoints } from './victory.ts';
export { top } from './state.ts';

export const handlers: Handlers<EState, Frame, Action> = worded({
  ...sequence,
  ...actionPhase,
  ...bombardment,
  ...movement,
  ...casualtyHandlers,
  ...retreats,
  ...charges,
  ...grandCharges,
  ...assaults,
  ...endHandlers,
});

/** Every handler a player or the dice act at says what is asked there (words.ts). */
function worded(hs: Handlers<EState, Frame, Action>): Handlers<EState, Frame, Action> {
  const out: Record<string, Handler<EState, Frame, Action>> = {};
  for (const [k, h] of Object.entries(hs) as [string, Handler<EState, Frame, Action>][])
    out[k] =
      h.kind === 'auto' || h.kind === 'sealed'
        ? h
        : { ...h, describe: (s: EState, f: Frame) => describeFrame(s, f, () => eote.legalActions(s)) };
  return out as Handlers<EState, Frame, Action>;
}

/** The runtime: who moves, what is offered, the validating and the fast apply, chance keys `t<turn>/c<n>`. */
export const eote = procedure<EState, Frame, Action>({
  handlers,
  idle: (s, log) => idle(s, log) ?? s,
  finished: (s) => s.result !== null,
  // [16.1–16.8] extended lines after every step of play; objectives change hands
  upkeep: (s, log) => updateControl(normalizeLines(s, log), log),
  chancePrefix: (s) => `t${s.turn}/`,
  actionKey,
  guard: 10_000,
});

export const toMoveOf = (s: EState): { kind: 'player'; player: Side } | { kind: 'chance' } | { kind: 'terminal' } =>
  eote.toMove(s) as { kind: 'player'; player: Side } | { kind: 'chance' } | { kind: 'terminal' };
export const legalActions = (s: EState): readonly Action[] => eote.legalActions(s);
export const chanceOutcomes = (s: EState): readonly ChanceOutcome<Action>[] => eote.chanceOutcomes(s);
/** Run the automatic steps (and the sequence of play) until a decision, a chance node or the end of the game. */
export const settle = (s: EState, log: Log): EState => eote.settle(s, log);

/** Apply an action or chance outcome to the frame on top without settling (for tests; play goes through `eote.apply`). */
export function step(s: EState, a: Action, log: Log): EState {
  const f = top(s);
  if (!f) throw new Error('eagles-of-the-empire: nothing to decide (the stack is empty)');
  const h = (handlers as Record<string, Handler<EState, Frame, Action> | undefined>)[f.t];
  if (!h) throw new UnknownFrameError(f.t);
  if (h.kind === 'auto' || h.kind === 'sealed')
    throw new Error(`eagles-of-the-empire: frame '${f.t}' is not stepped by hand; settle the state first`);
  return h.keepsTop ? h.step(s, f, a, log) : h.step(pop(s), f, a, log);
}
