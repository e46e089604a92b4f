/**
 * [Bayonet & Sabre (3rd) Phase] both sides resolve all charges, countercharges and breakthroughs, applying results
 * immediately (A7: combats in ascending id order of the defending unit). Not built yet: charges are never offered in
 * play until it is, and a state holding a combat is refused by name.
 */
import { NotImplementedRuleError } from '../../core/game.ts';
import type { Log } from '../../core/procedure.ts';
import type { AoeState } from './types.ts';

/** [Bayonet & Sabre] the phase: nothing to do without combats. */
export function startBayonetSabre(s: AoeState, _log: Log): AoeState {
  if (s.combats.length)
    throw new NotImplementedRuleError(
      'Bayonet & Sabre',
      `${s.combats.length} combat(s) pending; close combat is not built yet`,
    );
  return s;
}
