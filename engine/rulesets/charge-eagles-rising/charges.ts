/**
 * Charge! Eagles Rising, charges [T2b, T2e; Movement notes; Changing Formation to Square; C8]: BEING BUILT. The
 * tactical chapter calls the two hooks below; until this chapter is written, no charge is declared (T2b refuses by
 * name) and no opportunity charge is offered.
 */
import { NotImplementedRuleError } from '../../core/game.ts';
import type { Log } from '../../core/procedure.ts';
import type { S } from './state.ts';
import type { Side } from './types.ts';

/**
 * [T2b] after the active side's ME activations: push the charge declarations of `side` (and everything they bring:
 * reactions, T2e, close assaults, exploitation). Returns the state unchanged when no unit of the side may charge.
 */
export function beginCharges(s: S, side: Side, _log: Log): S {
  void side;
  throw new NotImplementedRuleError('T2b', 'charges are not built yet');
}

/**
 * [C8] after an active unit completes a Move in T2a: push the non-active side's opportunity-charge choice when one of
 * its cavalry units may declare one against `moved`. Returns the state unchanged when none may.
 */
export function afterEnemyMove(s: S, moved: string, _log: Log): S {
  void moved;
  return s;
}
