/**
 * Age of Eagles on the procedure runtime (engine/core/procedure.ts): one handler per frame kind, each from the chapter
 * of the sheets that owns it, and the sequence of play for when nothing is pending.
 *
 * | module | decisions | chance | automatic |
 * |---|---|---|---|
 * | `turn.ts` [Play Sequence, Initiative Phase] (A2, A12) | initChoice | initRoll | |
 * | `march.ts` [March Phase, March Table, TMMs] (A5, A10) | leaders, pickUnit, order, move, leaderMove | march | |
 * | `fire.ts` [Volley & Cannonade] (A6, A8) | fireTarget | shot | fireApply |
 * | `charge.ts` [Charges, Forming Square] (A5) | react | | chargeIn |
 * | `combat.ts` [Bayonet & Sabre] (A7, A8, A9) | afterCombat | melee | bsNext |
 */
import { type Handlers, procedure } from '../../core/procedure.ts';
import { chargeHandlers } from './charge.ts';
import { combatHandlers } from './combat.ts';
import { fireHandlers } from './fire.ts';
import { marchHandlers } from './march.ts';
import { actionKey } from './notation.ts';
import { idle, turnHandlers } from './turn.ts';
import type { Action, AoeState, Frame } from './types.ts';

const handlers: Handlers<AoeState, Frame, Action> = {
  ...turnHandlers,
  ...marchHandlers,
  ...fireHandlers,
  ...chargeHandlers,
  ...combatHandlers,
};

export const aoe = procedure<AoeState, Frame, Action>({
  handlers,
  idle,
  finished: (s) => s.result !== null,
  chancePrefix: (s) => `t${s.turn}/`,
  actionKey,
  guard: 10_000,
});
