/**
 * Charge! Eagles Rising: the procedure (engine/core/procedure.ts) that plays the sheets' turn sequence [Turn
 * Sequence]. Each phase is begun by its chapter when the stack runs empty (`idle`): S1-S2 orders.ts, S3 morale.ts,
 * S4 strategic.ts, S5 skirmish.ts, S6 and T1 initiative.ts, T2 and T3 tactical.ts (the first side, then the second),
 * and the end of the turn (victory.ts). One handler per frame kind; a frame kind without one is a compile error.
 */
import { type Handlers, type Log, procedure } from '../../core/procedure.ts';
import type { Frame } from './frames.ts';
import { casualtyHandlers } from './casualties.ts';
import { cacHandlers } from './cac.ts';
import { chargeHandlers } from './charges.ts';
import { fireHandlers } from './fire.ts';
import { beginTactical, tacticalHandlers } from './tactical.ts';
import { beginS1, beginS2, orderHandlers } from './orders.ts';
import { beginS4, strategicHandlers } from './strategic.ts';
import type { Action, S } from './state.ts';
import type { Phase } from './types.ts';
import { beginS3, moraleHandlers } from './morale.ts';
import { beginS5, skirmishHandlers } from './skirmish.ts';
import { beginS6, beginT1, initiativeHandlers, leadersFollow } from './initiative.ts';
import { beginEnd } from './victory.ts';

/** The sheets' sequence of phases in a turn; `end` closes the turn (C14's checks) before the next S1. */
export const PHASES: readonly Phase[] = ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'T1', 'T2', 'T3', 'end'];

/** Each phase's beginning: pushes the phase's frames (none: the phase has nothing to do and the next begins). */
const BEGIN: Readonly<Record<Phase, (s: S, log: Log) => S>> = {
  S1: beginS1,
  S2: beginS2,
  S3: beginS3,
  S4: beginS4,
  S5: beginS5,
  S6: beginS6,
  T1: beginT1,
  T2: beginTactical('T2'),
  T3: beginTactical('T3'),
  end: beginEnd,
};

/** The next phase (after `end`, the next turn's S1). */
function advance(s: S, log: Log): S {
  const i = PHASES.indexOf(s.phase);
  if (s.phase === 'end') {
    const turn = s.turn + 1;
    log?.push({ rule: 'Turn Sequence', text: `turn ${turn} begins: the strategic phase` });
    return BEGIN.S1({ ...s, turn, phase: 'S1' }, log);
  }
  const phase = PHASES[i + 1]!;
  return BEGIN[phase]({ ...s, phase }, log);
}

const handlers: Handlers<S, Frame, Action> = {
  phase: {
    kind: 'auto',
    run: (s, f, log) => BEGIN[f.phase]({ ...s, phase: f.phase }, log),
  },
  ...orderHandlers,
  ...strategicHandlers,
  ...casualtyHandlers,
  ...moraleHandlers,
  ...skirmishHandlers,
  ...initiativeHandlers,
  ...fireHandlers,
  ...tacticalHandlers,
  ...chargeHandlers,
  ...cacHandlers,
};

export const cer = procedure<S, Frame, Action>({
  handlers,
  idle: advance,
  finished: (s) => s.result !== null,
  // [T1] an attached leader's position follows his unit (initiative.ts)
  upkeep: leadersFollow,
  chancePrefix: (s) => `t${s.turn}/`,
  actionKey: (a) => a,
});
