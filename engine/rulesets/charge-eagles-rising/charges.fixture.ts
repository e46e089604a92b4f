/**
 * Test fixtures for the charge chapters (charges.test.ts, cac.test.ts): The Chapel Crossroads in a tactical phase with
 * a sentinel below (the next S1's sealed orders, where the procedure stops once the charges are done), units placed
 * in inches, and playing actions and chance outcomes by key through rules.ts `cer`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameEvent } from '../../core/game.ts';
import { IN } from '../../geometry/geometry.ts';
import { cer } from './rules.ts';
import { initialState, parseScenario } from './scenario.ts';
import { type S, updElement, updUnit } from './state.ts';
import type { OrderType, UnitState } from './types.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'charge-eagles-rising');
const chapel = initialState(parseScenario(JSON.parse(readFileSync(join(DIR, 'the-chapel-crossroads.json'), 'utf8'))));

/** The Chapel Crossroads in side `active`'s tactical phase, with a sentinel (the next S1's sealed orders) below. */
export function tacticalState(active: 0 | 1 = 0): S {
  return {
    ...(chapel as S),
    phase: 'T2',
    stack: [{ t: 'orders' }],
    tactical: {
      activeSide: active,
      activeElement: null,
      charges: [],
      reactions: [],
      fireQueue: [],
      cacQueue: [],
      exploitQueue: [],
    },
  };
}
/** Put a unit at (x, y) inches facing `facing`, with a patch. */
export function at(s: S, id: string, x: number, y: number, facing: number, patch: Partial<UnitState> = {}): S {
  return updUnit(s, id, { pos: { x: x * IN, y: y * IN }, facing, ...patch });
}
export function order(s: S, element: string, type: OrderType): S {
  const e = s.elements.find((x) => x.id === element)!;
  return updElement(s, element, { order: { ...e.order!, type } });
}
const top = (s: S) => s.stack[s.stack.length - 1]!;
/** Apply the offered action or chance outcome whose key starts with `key`. */
export function play(s: S, key: string, log?: GameEvent[]): S {
  const offered = [...cer.legalActions(s), ...cer.chanceOutcomes(s).map((o) => o.action)];
  const a = offered.find((x) => x === key) ?? offered.find((x) => x.startsWith(key));
  if (!a) throw new Error(`"${key}" is not offered at ${top(s).t}: ${offered.join(' | ')}`);
  return cer.apply(s, a, log);
}
/** End the declarations when they are still open (the frame is dropped when no charge is left to declare). */
export function done(s: S): S {
  return top(s).t === 'declareCharges' ? play(s, 'done charges') : s;
}
/** Play chance nodes whose key starts with one of `prefixes` (the first outcome otherwise) until a decision. */
export function rollOn(s: S, prefixes: readonly string[] = []): S {
  let t = s;
  for (let i = 0; i < 50 && cer.toMove(t).kind === 'chance'; i++) {
    const outs = cer.chanceOutcomes(t).map((o) => o.action);
    const a = outs.find((x) => prefixes.some((p) => x.startsWith(p))) ?? outs[0]!;
    t = cer.apply(t, a);
  }
  return t;
}
