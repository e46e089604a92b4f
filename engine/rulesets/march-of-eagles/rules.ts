/**
 * The March of Eagles on the procedure runtime (engine/core/procedure.ts): one handler per frame kind, each from the
 * chapter of the rulebook that owns it, and the turn sequence for when nothing is pending. A chapter starts another
 * chapter's procedure by pushing its frame.
 *
 * | module | decisions | chance | automatic |
 * |---|---|---|---|
 * | `setup.ts` [Setting up a battle] | chooseSide, skirm, firstPlacer, place, placeX, placeSC | rollOff | |
 * | `activation.ts` [Initiative, Activation, Supreme Commander] | initChoice, slot, orders, scDest | initRoll, scRoll | execute |
 * | `manoeuvre.ts` [Manoeuvre, Disorder] | moveDist, wheelAngle, formFacing, screenPlace | dist, firstDie, obstacle | |
 * | `shooting.ts` [Accuracy, Skirmishers] | screenTarget | volley, charPick | |
 * | `attacks.ts` [Aggression, Defensive fire] | defFire | dfBand | charge, afterDefFire, contact |
 * | `combat.ts` [Combat process, Risk to characters] | followUp | combat, combatChars | |
 * | `resolve.ts` [Resolve] | | check, run | |
 *
 * The `slot` frame is dropped when its side has nothing left to activate. With the stack empty, `turn.ts` [Sequence]
 * pushes what comes next; before every automatic step `winning.ts` ends the game early when a side has no unbroken
 * battalion left (M20).
 *
 * Rule references in brackets name the rulebook section ([Manoeuvre], [Accuracy], …) and, for rulings the book
 * leaves open, the digest's ADAPTATION number (M1–M25, shared/rules/march-of-eagles.md §8).
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { type Handlers, procedure } from '../../core/procedure.ts';
import { activation } from './activation.ts';
import { attacks } from './attacks.ts';
import { combat } from './combat.ts';
import { manoeuvres } from './manoeuvre.ts';
import { actionKey } from './notation.ts';
import { resolve } from './resolve.ts';
import { setup } from './setup.ts';
import { shooting } from './shooting.ts';
import { withState } from './state.ts';
import { idle } from './turn.ts';
import type { Action, Frame, MoeState } from './types.ts';
import { earlyEnd } from './winning.ts';

const handlers: Handlers<MoeState, Frame, Action> = {
  ...setup,
  ...activation,
  ...manoeuvres,
  ...shooting,
  ...attacks,
  ...combat,
  ...resolve,
};

/** The runtime: who moves, what is offered, the validating and the fast apply, chance keys `t<turn>/c<n>`. */
export const moe = procedure<MoeState, Frame, Action>({
  handlers,
  idle,
  finished: (s) => s.result !== null || s.phase === 'over',
  conclude: earlyEnd,
  chancePrefix: (s) => `t${s.turn}/`,
  actionKey,
  with: withState,
  guard: 10_000,
});

export const chanceOutcomes = (s: MoeState): readonly ChanceOutcome<Action>[] => moe.chanceOutcomes(s);
