/**
 * The rules of Eagles of the Empire as one procedure runtime: whose move it is, the legal actions, the chance
 * outcomes, applying an action and settling the automatic steps, each answered by the procedure of the frame on top
 * of the stack (procedures.ts), and with the stack empty by the sequence of play (flow.ts `idle`).
 *
 * This is the one module that imports every flow, so each has registered its frames before any of these is called:
 * use the ruleset through this module (or index.ts), not through a flow module.
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { IllegalActionError } from '../../core/game.ts';
import { idle, updateControl } from './flow.ts';
import './action.ts';
import './retreat-flow.ts';
import './charge-flow.ts';
import './grand-charge.ts';
import './assault-flow.ts';
import './end-flow.ts';
import { normalizeLines } from './lines.ts';
import { procedureOf } from './procedures.ts';
import { type Log, top } from './state.ts';
import type { Action, EState, Side } from './types.ts';

export { initialState, victoryPoints } from './flow.ts';
export { top } from './state.ts';

export function toMoveOf(s: EState): { kind: 'player'; player: Side } | { kind: 'chance' } | { kind: 'terminal' } {
  if (s.result) return { kind: 'terminal' };
  const f = top(s);
  if (!f) throw new Error('eagles-of-the-empire: no pending decision in a live state (settle was skipped)');
  const d = procedureOf(f).decider(s, f);
  return d === null ? { kind: 'chance' } : { kind: 'player', player: d };
}

export function legalActions(s: EState): Action[] {
  const f = top(s);
  if (!f || s.result) return [];
  return procedureOf(f).legal(s, f);
}

export function chanceOutcomes(s: EState): ChanceOutcome<Action>[] {
  const f = top(s);
  if (!f) return [];
  return procedureOf(f).chance(s, f);
}

/** Apply an action or chance outcome to the frame on top (the caller settles afterwards). */
export function step(s: EState, a: Action, log: Log): EState {
  const f = top(s);
  if (!f) throw new IllegalActionError(a.k, 'the game is over');
  return procedureOf(f).step(s, f, a, log);
}

/** Run automatic steps until a decision or chance node is on top (or the game ends). */
export function settle(s0: EState, log: Log): EState {
  let s = s0;
  for (let guard = 0; guard < 10_000; guard++) {
    s = normalizeLines(s, log); // [16.1–16.8] extended lines after every step of play
    s = updateControl(s, log); // objectives change hands
    if (s.result) return s;
    const f = top(s);
    const next = f ? procedureOf(f).settle(s, f, log) : idle(s, log);
    if (next === null) return s;
    s = next;
  }
  throw new Error('eagles-of-the-empire: settle did not reach a decision');
}
