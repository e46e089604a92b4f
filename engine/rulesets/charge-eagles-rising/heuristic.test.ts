/**
 * The order-writing heuristic [S1] (C2, C7): at the start of The Chapel Crossroads each command keeps the order the
 * scenario gave it when it already goes for its objective, a command that has lost half its strength withdraws, and a
 * side that holds an objective holds it.
 */
import { readFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { IN } from '../../geometry/geometry.ts';
import { at, done, order, play, tacticalState } from './charges.fixture.ts';
import { beginCharges } from './charges.ts';
import { shotOf } from './fire.ts';
import { chargeEaglesRising as game } from './index.ts';
import { desiredOrder, policyScores } from './heuristic.ts';
import { cer } from './rules.ts';
import { inThreatZone, polyOf } from './shape.ts';
import { parseMove, planMove } from './tactical.ts';
import { parseScenario } from './scenario.ts';
import { commandOf, placed, unitOf, updUnit } from './state.ts';
import type { S } from './state.ts';
import { hitChance } from './tables.ts';
import type { UnitState } from './types.ts';

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

// ---------------------------------------------------------------------------------------------------------------------
// Every decision frame, and the tactics
// ---------------------------------------------------------------------------------------------------------------------

/** The best-scoring action (the first of the ties). */
function best(s: S): string {
  const opts = game.legalActions(s);
  const sc = policyScores(s, opts);
  return opts[sc.indexOf(Math.max(...sc))]!;
}

/** Play `n` random games of a scenario, checking the scores at every decision; the decision kinds met. */
function randomGames(id: string, n: number): Set<string> {
  const sc = parseScenario(JSON.parse(readFileSync(`data/scenarios/charge-eagles-rising/${id}.json`, 'utf8')));
  const kinds = new Set<string>();
  for (let g = 0; g < n; g++) {
    const u = seedrandom.alea(`heuristic/${id}/${g}`);
    let s = game.initialState(sc);
    for (let ply = 0; ply < 20000; ply++) {
      const tm = game.toMove(s);
      if (tm.kind === 'terminal') break;
      if (tm.kind === 'chance') {
        const outs = game.chanceOutcomes(s);
        let r = u();
        let pick = outs[outs.length - 1]!;
        for (const o of outs) {
          if (r < o.p) {
            pick = o;
            break;
          }
          r -= o.p;
        }
        s = game.apply(s, pick.action);
        continue;
      }
      const legal = game.legalActions(s);
      const scores = policyScores(s, legal);
      const kind = s.stack.at(-1)!.t;
      kinds.add(kind);
      expect(scores, `${kind}: ${legal.join(' | ')}`).toHaveLength(legal.length);
      expect(
        scores.every((x) => Number.isFinite(x)),
        `${kind}: ${scores.join(', ')}`,
      ).toBe(true);
      // half the decisions by the scripted player, so that its own choices are met too
      const i = u() < 0.5 ? Math.floor(u() * legal.length) : scores.indexOf(Math.max(...scores));
      s = game.apply(s, legal[i]!);
    }
  }
  return kinds;
}

describe('policyScores at every decision', () => {
  it('random and scripted games of both scenarios: a finite score per legal action at every decision frame', () => {
    const kinds = new Set([...randomGames('quick-test', 4), ...randomGames('the-chapel-crossroads', 2)]);
    for (const k of ['orders', 'strategic', 'activation', 'unitAction', 'returnFire', 'recover', 'leaders'])
      expect(kinds, [...kinds].join(', ')).toContain(k);
  }, 120_000);
});

describe('tactics', () => {
  it('[T2a] fires at the target of the best expected hits (dice × hit chance), not at the far one', () => {
    // F1d (6 medium guns) facing north: B1a at 5" (close range), B1b at 20" (effective)
    let s = at(tacticalState(0), 'F1d', 24, 20, 0);
    s = at(s, 'B1a', 21, 26.5, 180);
    s = at(s, 'B1b', 30, 41.5, 180);
    s = { ...s, stack: [...s.stack, { t: 'unitAction', unit: 'F1d' }] };
    const opts = game.legalActions(s);
    expect(opts).toContain('fire F1d B1a');
    expect(opts).toContain('fire F1d B1b');
    const ev = (t: string) => {
      const sh = shotOf(s, 'F1d', t, 'fire')!;
      return sh.dice * hitChance(sh.toHit);
    };
    expect(ev('B1a')).toBeGreaterThan(ev('B1b'));
    expect(best(s)).toBe('fire F1d B1a');
    // the far target alone: it is still fired at rather than held
    const far = at(s, 'B1a', 2, 2, 180);
    expect(best(far)).toBe('fire F1d B1b');
  });

  it('[T2a] a column does not march into the threat zone of enemy cavalry in column; fire is returned', () => {
    // F1a in column facing north, the British light dragoons 14" ahead facing south (threat zone 10")
    let s = at(tacticalState(0), 'F1a', 10, 16, 0);
    s = at(s, 'B2a', 10, 31, 180);
    s = { ...s, stack: [...s.stack, { t: 'unitAction', unit: 'F1a' }] };
    const opts = game.legalActions(s);
    const sc = policyScores(s, opts);
    const pick = best(s);
    const intoZone = (a: string) => {
      const mv = parseMove(a);
      const pm = mv && planMove(s, 'F1a', mv.m);
      if (!pm) return false;
      const u = pm.unit;
      const column = u.kind === 'infantry' && (u.formation === 'column' || u.formation === 'marchColumn');
      return column && inThreatZone(placed(s, unitOf(s, 'B2a')), polyOf(placed(s, u)));
    };
    expect(opts.some(intoZone)).toBe(true);
    expect(intoZone(pick)).toBe(false);
    const worstInto = Math.max(...opts.map((a, i) => (intoZone(a) ? sc[i]! : Number.NEGATIVE_INFINITY)));
    expect(worstInto).toBeLessThan(sc[opts.indexOf('hold F1a')]!);
    // [T2c] fired on, a unit that can hit returns fire
    let r = at(tacticalState(1), 'F1a', 18, 31.5, 0, { formation: 'line' } as Partial<UnitState>);
    r = { ...r, stack: [...r.stack, { t: 'returnFire', unit: 'F1a', element: 'B1' }] };
    expect(game.legalActions(r)).toContain('return F1a B1a');
    const ro = game.legalActions(r);
    const rs = policyScores(r, ro);
    expect(rs[ro.indexOf('return F1a B1a')]).toBeGreaterThan(rs[ro.indexOf('no return F1a')]!);
  });

  it('[T2b] a line charged by cavalry from 8" forms square (the test passes on 6+)', () => {
    let s = order(tacticalState(0), 'F2', 'attack');
    s = at(s, 'F2a', 18, 35.5 - 8 - 0.625, 0);
    s = cer.settle(beginCharges(s, 0, []));
    s = done(play(s, 'charge F2a B1a'));
    expect(s.stack.at(-1)!.t).toBe('reactions');
    expect(game.legalActions(s)).toContain('react B1a square');
    expect(best(s)).toBe('react B1a square');
  });

  it('[T2b] cavalry charges a disordered line in reach, but not a square', () => {
    const setUp = (patch: Partial<UnitState>) => {
      let s = order(tacticalState(0), 'F2', 'attack');
      s = at(s, 'F2a', 18, 35.5 - 1.5 - 0.625, 0);
      s = updUnit(s, 'B1a', patch);
      s = at(s, 'B2a', 46, 46, 180); // the light dragoons out of reach
      return cer.settle(beginCharges(s, 0, []));
    };
    const disordered = setUp({ disordered: true });
    expect(disordered.stack.at(-1)!.t).toBe('declareCharges');
    expect(best(disordered)).toBe('charge F2a B1a');
    const square = setUp({ formation: 'solidSquare' } as Partial<UnitState>);
    expect(game.legalActions(square)).toContain('charge F2a B1a');
    expect(best(square)).toBe('done charges');
  });

  it('[Result explanations] a cavalry winner by 3-4 exploits into a weak enemy within 7", else rallies back', () => {
    let s = order(tacticalState(0), 'F2', 'attack');
    s = at(s, 'F2a', 18, 30, 0, { phase: { ...unitOf(s, 'F2a').phase, charging: true, cacCount: 1 } });
    const win = (t: S): S => ({
      ...t,
      stack: [...t.stack, { t: 'cacWin', unit: 'F2a', band: '3-4', loserAt: { x: 18 * IN, y: 32 * IN } }],
    });
    // nobody near: rally back
    let alone = at(s, 'B1a', 2, 2, 180);
    alone = at(alone, 'B1b', 46, 2, 180);
    alone = at(alone, 'B1d', 46, 46, 180);
    alone = at(alone, 'B2a', 2, 46, 180);
    const a = win(alone);
    expect(game.legalActions(a)).toContain('exploit F2a 7');
    expect(best(a)).toBe('rally back F2a');
    // a disordered battery 4" ahead: exploit
    let prey = at(alone, 'B1d', 18, 36, 180, { disordered: true } as Partial<UnitState>);
    prey = win(prey);
    expect(best(prey)).toBe('exploit F2a 7');
  });
});
