/**
 * The order-writing heuristic [S1] (C2, C7): at the start of The Chapel Crossroads each command keeps the order the
 * scenario gave it when it already goes for its objective, a command that has lost half its strength withdraws, and a
 * side that holds an objective holds it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chargeEaglesRising as game } from './index.ts';
import { desiredOrder, policyScores } from './heuristic.ts';
import { parseScenario } from './scenario.ts';
import { commandOf } from './state.ts';
import type { S } from './state.ts';

const start = () =>
  game.initialState(
    parseScenario(JSON.parse(readFileSync('data/scenarios/charge-eagles-rising/the-chapel-crossroads.json', 'utf8'))),
  );

/** The heuristic's choice at each recipient of the sealed orders, in order. */
function picks(s0: S): string[] {
  let s = s0;
  const out: string[] = [];
  while (s.stack.at(-1)?.t === 'orders') {
    const opts = game.legalActions(s);
    const sc = policyScores(s, opts);
    const best = opts[sc.indexOf(Math.max(...sc))]!;
    out.push(best);
    s = game.apply(s, best);
  }
  return out;
}

describe('[S1] the order-writing heuristic', () => {
  it('the Chapel Crossroads, turn 1: the British hold the hamlet they garrison; the French attack it', () => {
    const s = start();
    expect(desiredOrder(s, 1, commandOf(s, 'B1'))).toEqual({ type: 'hold', point: 'chapel' });
    expect(desiredOrder(s, 0, commandOf(s, 'F1'))?.type).toBe('attack');
    const p = picks(s);
    expect(p.find((a) => a.startsWith('order B1 '))).toBe('order B1 keep');
    expect(p.find((a) => a.startsWith('order F1 '))).toBe('order F1 keep');
    expect(p).toHaveLength(4);
  });
  it('a command that has lost half its strength withdraws home', () => {
    const s0 = start();
    const s: S = {
      ...s0,
      units: s0.units.map((u) =>
        u.element === 'F2' && u.kind === 'cavalry' ? { ...u, figures: Math.floor(u.figuresStart / 2) } : u,
      ),
    };
    expect(desiredOrder(s, 0, commandOf(s, 'F2'))).toEqual({ type: 'withdraw', point: 'home' });
    const p = picks(s);
    expect(p.find((a) => a.startsWith('order F2 '))).toBe('order F2 withdraw home');
  });
});
