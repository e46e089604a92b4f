import { describe, expect, it } from 'vitest';
import { UnknownFrameError } from '../../core/procedure.ts';
import { loadScenario, map } from '../../../test/eote-fixtures.ts';
import { chanceOutcomes, handlers, initialState, legalActions, settle, step, toMoveOf } from './rules.ts';
import type { EState, Frame } from './types.ts';

describe('Eagles of the Empire on the procedure runtime (procedures.ts, rules.ts)', () => {
  const s0 = settle(initialState(loadScenario(), map), undefined);
  const unknown = { t: 'no-such-frame', p: 0 } as unknown as Frame;
  const withUnknown: EState = { ...s0, stack: [...s0.stack, unknown] };

  it('every frame kind has a handler, from the chapter that owns it', () => {
    const kinds: Frame['t'][] = [
      'reinf',
      'attempt',
      'weather',
      'command',
      'phase',
      'move',
      'roll',
      'loss',
      'routCheck',
      'retreatTo',
      'charge',
      'gc',
      'assault',
      'endSeq',
      'replace',
    ];
    for (const t of kinds) expect(handlers[t]).toBeDefined();
  });

  it('refuses a frame of a kind no flow plays, naming it, at every question the runtime asks', () => {
    const asks = [
      () => toMoveOf(withUnknown),
      () => legalActions(withUnknown),
      () => chanceOutcomes(withUnknown),
      () => step(withUnknown, { k: 'next' }, undefined),
      () => settle(withUnknown, undefined),
    ];
    for (const ask of asks) {
      expect(ask).toThrow(UnknownFrameError);
      expect(ask).toThrow(/no-such-frame/);
    }
  });
});
