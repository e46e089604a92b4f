/**
 * Age of Eagles on the procedure runtime (engine/core/procedure.ts): one handler per frame kind, each from the chapter
 * of the sheets that owns it, and the sequence of play for when nothing is pending.
 *
 * | module | decisions | chance | automatic |
 * |---|---|---|---|
 * | `turn.ts` [Play Sequence, Initiative Phase] (A2, A12) | initChoice | initRoll | |
 * | `march.ts` [March Phase, March Table, TMMs] (A5, A10) | leaders, pickUnit, order, move, leaderMove | march | |
 * | `fire.ts` [Volley & Cannonade] (A6, A8) | fireTarget | shot | fireApply |
 * | `combat.ts` [Bayonet & Sabre] (A7) | react, afterCombat | melee | bsNext |
 */
import { NotImplementedRuleError } from '../../core/game.ts';
import { type Handlers, procedure } from '../../core/procedure.ts';
import { fireHandlers } from './fire.ts';
import { marchHandlers } from './march.ts';
import { actionKey } from './notation.ts';
import { idle, turnHandlers } from './turn.ts';
import type { Action, AoeState, Frame } from './types.ts';

/** A frame of a chapter not built yet refuses by name. */
const notBuilt = (rule: string) => ({
  kind: 'auto' as const,
  run: (): never => {
    throw new NotImplementedRuleError(rule, 'not built yet');
  },
});

const handlers: Handlers<AoeState, Frame, Action> = {
  ...turnHandlers,
  ...marchHandlers,
  ...fireHandlers,
  react: notBuilt('Forming Square / A5 countercharge'),
  afterCombat: notBuilt('Bayonet & Sabre results'),
  melee: notBuilt('Bayonet & Sabre'),
  bsNext: notBuilt('Bayonet & Sabre'),
};

export const aoe = procedure<AoeState, Frame, Action>({
  handlers,
  idle,
  finished: (s) => s.result !== null,
  chancePrefix: (s) => `t${s.turn}/`,
  actionKey,
  guard: 10_000,
});
