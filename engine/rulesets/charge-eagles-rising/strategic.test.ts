/**
 * Charge! Eagles Rising, S4 strategic moves (strategic.ts): the digest's §11 exercised path (turn 1: F1 and F2 start
 * more than 10" from every enemy; F2 on Advance stops ≥ 10" away, F1 on Attack may close to 3"), the road bonus, the
 * force march's one test and its KIAs, terrain slowing a unit, arrivals entering, the Withdraw and Hold limits,
 * nothing offered to an ME within 10" of an enemy, and the C7 order of sides. The S4 frames run on their own small
 * procedure (the chapter's handlers, plus the losses and leader frames they may push), stopping when S4 is over.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../core/game.ts';
import { type Handlers, procedure } from '../../core/procedure.ts';
import { IN, type Vec, dist } from '../../geometry/geometry.ts';
import { casualtyHandlers } from './casualties.ts';
import type { Frame } from './frames.ts';
import { orderHandlers } from './orders.ts';
import { initialState, parseScenario } from './scenario.ts';
import { gap } from './shape.ts';
import { type Action, type S, elementUnits, placed, unitOf, unitsOf } from './state.ts';
import {
  beginS4,
  entryLayout,
  forceMarchNumber,
  mayMoveStrategically,
  offerOfKey,
  strategicHandlers,
  strategicOffers,
} from './strategic.ts';
import type { Order, Side, UnitState } from './types.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'charge-eagles-rising');
const load = (id: string) => parseScenario(JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8')));
const chapel = initialState(load('the-chapel-crossroads')) as S;
const quick = initialState(load('quick-test')) as S;

const DONE = { winner: -1 as const, vp: [0, 0] as const, text: 'S4 over' };
/** S4 alone: the chapter's frames and those they push; the game "ends" when the stack runs empty. */
const s4 = procedure<S, Frame, Action>({
  handlers: { ...strategicHandlers, ...casualtyHandlers, ...orderHandlers } as unknown as Handlers<S, Frame, Action>,
  idle: (s) => ({ ...s, result: DONE }),
  finished: (s) => s.result !== null,
  actionKey: (a) => a,
});

const P = (x: number, y: number): Vec => ({ x: Math.round(x * IN), y: Math.round(y * IN) });
const inch = (n: number) => n / IN;
/** Begins S4 and settles to its first decision or roll. */
function start(s: S, log?: GameEvent[]): S {
  return s4.settle(beginS4({ ...s, phase: 'S4', stack: [], result: null }, log), log);
}
function withUnit(s: S, id: string, patch: Partial<UnitState>): S {
  return { ...s, units: s.units.map((u) => (u.id === id ? ({ ...u, ...patch } as UnitState) : u)) };
}
function withOrder(s: S, me: string, order: Order): S {
  return { ...s, elements: s.elements.map((e) => (e.id === me ? { ...e, order } : e)) };
}
/** Every unit of a side off the table (so nothing limits the other side's moves). */
function withoutSide(s: S, side: Side): S {
  return { ...s, units: s.units.map((u) => (u.side === side ? { ...u, status: 'offBoard' as const } : u)) };
}
const offer = (s: S, me: string, key: string) => {
  const o = strategicOffers(s, me).find((x) => x.key === key);
  if (!o)
    throw new Error(
      `${key} not offered: ${strategicOffers(s, me)
        .map((x) => x.key)
        .join(' | ')}`,
    );
  return o;
};
/** The closest any unit of `me` stands to an enemy unit, inches. */
function nearestEnemy(s: S, me: string): number {
  const e = s.elements.find((x) => x.id === me)!;
  let best = Number.POSITIVE_INFINITY;
  for (const u of elementUnits(s, e))
    for (const v of unitsOf(s, e.side === 0 ? 1 : 0)) best = Math.min(best, gap(placed(s, u), placed(s, v)));
  return inch(best);
}
/** The top frame's ME when it is a strategic decision. */
const deciding = (s: S) => {
  const f = s.stack[s.stack.length - 1];
  return f?.t === 'strategic' ? f.element : null;
};
/** Plays a decision `key` for the ME on top of a started S4. */
function play(s: S, key: string, log?: GameEvent[]): S {
  return s4.apply(s, key, log);
}
/** Passes every remaining decision (`none`) and every roll (first outcome) to the end of S4. */
function finish(s: S): S {
  let t = s;
  for (let i = 0; i < 50 && !t.result; i++) {
    const m = s4.toMove(t);
    if (m.kind === 'chance') t = s4.apply(t, s4.chanceOutcomes(t)[0]!.action);
    else if (m.kind === 'player') t = s4.apply(t, s4.legalActions(t)[0]!);
  }
  return t;
}
const moved = (a: S, b: S, id: string) => inch(dist(unitOf(a, id).pos, unitOf(b, id).pos));

describe('S4 on the Chapel Crossroads, turn 1 (§11 exercised path)', () => {
  it('F1 and F2 start more than 10" from every enemy, so both may move; the French (strategicFirst) move first', () => {
    expect(chapel.strategicFirst).toBe(0);
    for (const me of ['F1', 'F2']) {
      expect(nearestEnemy(chapel, me)).toBeGreaterThan(10);
      expect(mayMoveStrategically(chapel, chapel.elements.find((e) => e.id === me)!)).toBe(true);
      expect(strategicOffers(chapel, me).length).toBeGreaterThan(0);
    }
    // F1c's front is at y 15.5, the hamlet at y 28: 12.5"
    expect(nearestEnemy(chapel, 'F1')).toBeCloseTo(12.5, 5);
    const s = start(chapel);
    expect(deciding(s)).toBe('F1');
    expect(s4.toMove(s)).toEqual({ kind: 'player', player: 0 });
    expect(s4.legalActions(s)[0]).toBe('strategic F1 none');
  });

  it('every move F2 (Advance) is offered ends ≥ 10" from every enemy unit, and it moves toward its point', () => {
    for (const o of strategicOffers(chapel, 'F2')) {
      const t = s4.apply(play(start(chapel), 'strategic F1 none'), o.key);
      expect(nearestEnemy(t, 'F2'), o.key).toBeGreaterThanOrEqual(10);
      const c0 = centreOf(chapel, 'F2');
      const c1 = centreOf(t, 'F2');
      expect(dist(c1, P(40, 20)), o.key).toBeLessThan(dist(c0, P(40, 20)));
    }
    // bound to its point (bearing 355° from F2's centre): only `toward` and the compass points within 45° (N, NW)
    expect(new Set(strategicOffers(chapel, 'F2').map((o) => o.choice.route.label))).toEqual(
      new Set(['toward', 'N', 'NW']),
    );
    // `toward` stops on its point (40, 20): F2's centre (41, 8) goes 12.04"
    const o = offer(chapel, 'F2', 'strategic F2 toward half');
    expect(o.steps / 4).toBeCloseTo(12, 0);
  });

  it('F2 on Advance to a point beyond the enemy is stopped at 10" (cut short, not refused)', () => {
    const s = withOrder(chapel, 'F2', { type: 'advance', point: P(40, 46), objective: null });
    // the longest move toward it (full and half end alike: only `half` is offered)
    const o = strategicOffers(s, 'F2')
      .filter((x) => x.choice.route.label === 'toward')
      .sort((a, b) => b.steps - a.steps)[0]!;
    const t = s4.apply(play(start(s), 'strategic F1 none'), o.key);
    const d = nearestEnemy(t, 'F2');
    expect(d).toBeGreaterThanOrEqual(10);
    expect(d).toBeLessThan(10.5);
    // the same on Attack closes to 3"
    const a = withOrder(chapel, 'F2', { type: 'attack', point: P(40, 46), objective: null });
    const oa = strategicOffers(a, 'F2')
      .filter((x) => x.choice.route.label === 'toward')
      .sort((x, y) => y.steps - x.steps)[0]!;
    const ta = s4.apply(play(start(a), 'strategic F1 none'), oa.key);
    expect(nearestEnemy(ta, 'F2')).toBeGreaterThanOrEqual(3);
    expect(nearestEnemy(ta, 'F2')).toBeLessThan(3.5);
  });

  it('F1 (Attack) may close to 3" but no nearer: toward the hamlet in march column it stops 3" from it', () => {
    const closest = Math.min(
      ...strategicOffers(chapel, 'F1').map((o) => nearestEnemy(s4.apply(start(chapel), o.key), 'F1')),
    );
    expect(closest).toBeLessThan(10);
    expect(closest).toBeGreaterThanOrEqual(3);
    const log: GameEvent[] = [];
    const t = play(start(chapel), 'strategic F1 toward half column', log);
    // F1c in March Column (1" × 5") runs from y 17.5 to 25: 3" short of the hamlet at y 28
    expect(moved(chapel, t, 'F1c')).toBe(7.5);
    expect(nearestEnemy(t, 'F1')).toBeCloseTo(3, 5);
    expect(unitOf(t, 'F1c').formation).toBe('marchColumn');
    expect(unitOf(t, 'F1d').formation).toBe('limbered');
    expect(t.elements.find((e) => e.id === 'F1')!.strategicMoveThisTurn).toBe(true);
    // the attached leader goes with F1a
    expect(t.leaders.find((l) => l.id === 'F1-L')!.pos).toEqual(unitOf(t, 'F1a').pos);
    expect(log.some((e) => e.rule === 'S4' && /F1|1st Brigade/.test(e.text) && e.text.includes('C7'))).toBe(true);
    // now B1 (Hold) starts within 10" of F1: nothing is offered to it; S4 ends after B2's choice
    expect(deciding(t)).toBe('F2');
    const u = s4.apply(t, 'strategic F2 none');
    expect(deciding(u)).toBe('B2');
    expect(strategicOffers(u, 'B1')).toEqual([]);
  });

  it('unlimbered artillery that keeps its formation moves by prolonge (9"): F1 keeping formation goes 9" at most', () => {
    for (const o of strategicOffers(chapel, 'F1').filter((x) => !x.choice.column && !x.choice.force))
      expect(o.steps / 4, o.key).toBeLessThanOrEqual(9);
    expect(offer(chapel, 'F1', 'strategic F1 toward full').steps / 4).toBe(9);
  });

  it('every offered move moves, and `none` is always first', () => {
    const s = start(chapel);
    expect(s4.legalActions(s)[0]).toBe('strategic F1 none');
    for (const o of strategicOffers(chapel, 'F1')) {
      expect(o.steps).toBeGreaterThan(0);
      // a key alone gives the same move (the step does not rebuild the menu)
      expect(offerOfKey(chapel, o.key).offer?.steps, o.key).toBe(o.steps);
      expect(moved(chapel, s4.apply(s, o.key), 'F1a')).toBeGreaterThan(0);
    }
    // no two offers end in the same place
    const ends = strategicOffers(chapel, 'B2').map(
      (o) => JSON.stringify(unitOf(s4.apply(start(chapel), 'strategic F1 none'), 'B2a').pos) + o.key,
    );
    expect(new Set(ends).size).toBe(ends.length);
  });
});

function centreOf(s: S, me: string): Vec {
  const us = elementUnits(s, me);
  return { x: us.reduce((a, u) => a + u.pos.x, 0) / us.length, y: us.reduce((a, u) => a + u.pos.y, 0) / us.length };
}

describe('S4 allowances: road, force march, terrain', () => {
  // two French battalions in march column on the road (x 24), the rest of F1 gone, the British off the table
  const road = (() => {
    // the road over open ground: the hamlet it runs through is taken away (a road does not cancel its cost)
    let s: S = { ...withoutSide(chapel, 1), ctx: { ...chapel.ctx, buas: [] } };
    s = withUnit(s, 'F1a', { formation: 'marchColumn', pos: P(24, 10) });
    s = withUnit(s, 'F1b', { formation: 'marchColumn', pos: P(24, 3.5) });
    s = withUnit(s, 'F1c', { status: 'broken' });
    s = withUnit(s, 'F1d', { status: 'broken' });
    return withOrder(s, 'F1', { type: 'reserve', point: P(24, 46), objective: null });
  })();

  it('road bonus: +12" for foot in march column, the whole move on the road', () => {
    // half moves: (36 + 12) / 2 = 24" on the road, 36 / 2 = 18" off it
    expect(offer(road, 'F1', 'strategic F1 road N half').steps / 4).toBe(24);
    // (its order's point is due north: `toward` is the N heading, offered once)
    expect(offer(road, 'F1', 'strategic F1 toward half').steps / 4).toBe(18);
    // with a force march too: (36 + 12 + 12) / 2 = 30"
    expect(offer(road, 'F1', 'strategic F1 road N half force').steps / 4).toBe(30);
    const t = play(start(road), 'strategic F1 road N half');
    expect(unitOf(t, 'F1a').pos).toEqual(P(24, 34));
    expect(unitOf(t, 'F1b').pos).toEqual(P(24, 27.5));
    expect(unitOf(t, 'F1a').facing).toBe(0);
  });

  it('no road move for an ME with a unit off the road, nor for a line that does not take march column', () => {
    const off = withUnit(road, 'F1b', { pos: P(30, 3.5) });
    expect(strategicOffers(off, 'F1').some((o) => o.choice.route.kind === 'road')).toBe(false);
    const lines = withUnit(withUnit(road, 'F1a', { formation: 'line' }), 'F1b', { formation: 'line' });
    const keys = strategicOffers(lines, 'F1').map((o) => o.key);
    expect(keys.filter((k) => k.includes(' road ')).every((k) => k.includes(' column'))).toBe(true);
    // lines (6" wide × 1.5") taking march column pay 2": (36 − 2 + 12) / 2 = 23"
    expect(keys).toContain('strategic F1 road N half column');
    expect(offer(lines, 'F1', 'strategic F1 road N half column').steps / 4).toBe(23);
  });

  it('force march: one skill test for the ME (majority class, leader); a failure is 1 KIA for every unit', () => {
    // F1: Regular (7), Inspirational leader (−2) → 5; F2: Elite 12 / Regular 12 → the lower, Regular (7), Charismatic (−3) → 4
    expect(forceMarchNumber(chapel, 'F1')).toBe(5);
    expect(forceMarchNumber(chapel, 'F2')).toBe(4);
    const s = play(start(chapel), 'strategic F1 toward half force');
    expect(s4.toMove(s)).toEqual({ kind: 'chance' });
    const outs = s4.chanceOutcomes(s);
    const p = (a: string) => outs.find((o) => o.action === a)!.p;
    expect(outs.length).toBe(2);
    expect(p('forceMarch F1 pass')).toBeCloseTo(30 / 36, 12);
    expect(p('forceMarch F1 fail')).toBeCloseTo(6 / 36, 12);
    const log: GameEvent[] = [];
    const failed = finish(s4.apply(s, 'forceMarch F1 fail', log));
    for (const id of ['F1a', 'F1b', 'F1c'])
      expect((unitOf(failed, id) as { figures: number }).figures).toBe(
        (unitOf(chapel, id) as { figures: number }).figures - 1,
      );
    expect((unitOf(failed, 'F1d') as { guns: number }).guns).toBe(5);
    expect(unitOf(failed, 'F2a')).toEqual(unitOf(chapel, 'F2a'));
    expect(log.some((e) => e.rule === 'S4' && e.text.includes('fails its force-march'))).toBe(true);
    const passed = finish(s4.apply(s, 'forceMarch F1 pass'));
    expect((unitOf(passed, 'F1a') as { figures: number }).figures).toBe(24);
    // the force march goes farther than the same move without it (the 3" limit still stops it)
    expect(offer(chapel, 'F1', 'strategic F1 toward half force').steps).toBeGreaterThan(
      offer(chapel, 'F1', 'strategic F1 toward half').steps,
    );
  });

  it('terrain slows a unit, and the group goes as far as its slowest unit: light woods −1.5" an inch', () => {
    // F1a in column (2" × 3") below the light woods (x 6–14, y 20–28), F1b in the open; British off the table
    let s = withoutSide(chapel, 1);
    s = withUnit(s, 'F1a', { pos: P(10, 17) });
    s = withUnit(s, 'F1b', { pos: P(18, 17) });
    s = withUnit(s, 'F1c', { status: 'broken' });
    s = withUnit(s, 'F1d', { status: 'broken' });
    s = withOrder(s, 'F1', { type: 'reserve', point: P(10, 46), objective: null });
    // 36" a column; a track crosses all 8" of the woods: d + 1.5 × 8 = 36 → 24"
    expect(offer(s, 'F1', 'strategic F1 N full').steps / 4).toBe(24);
    const t = play(start(s), 'strategic F1 N full');
    expect(unitOf(t, 'F1a').pos).toEqual(P(10, 41));
    expect(unitOf(t, 'F1b').pos).toEqual(P(18, 41));
    // formed infantry moving in light woods is disordered; the battalion in the open is not
    expect(unitOf(t, 'F1a').disordered).toBe(true);
    expect(unitOf(t, 'F1b').disordered).toBe(false);
    // without the woods in the way: the full 36" would run off the table (48"), so the table's edge stops it at 29.5"
    const open = withUnit(s, 'F1a', { pos: P(30, 17) });
    expect(offer(open, 'F1', 'strategic F1 N full').steps / 4).toBe(29.5);
  });
});

describe('S4 arrivals', () => {
  const arriving = (s: S, me: string): S => ({
    ...s,
    turn: 2,
    elements: s.elements.map((e) =>
      e.id === me && e.offBoard ? { ...e, offBoard: { ...e.offBoard, arriving: true } } : e,
    ),
  });

  it('an arriving ME enters at its entry point in column along its facing: that is its strategic move', () => {
    const s = arriving(quick, 'A2');
    // A2a: light cavalry, 9 figures in line (3 stands: 4.5" × 1.25"), entry (24, 24) on the north edge facing 180
    expect(entryLayout(s, 'A2')).toEqual([{ id: 'A2a', pos: P(24, 23.365), facing: 180 }]);
    const log: GameEvent[] = [];
    // the French (strategicFirst) move first: A2 enters when the British turn begins
    let t = start(s, log);
    expect(unitOf(t, 'A2a').status).toBe('offBoard');
    while (deciding(t)?.startsWith('Q')) t = s4.apply(t, s4.legalActions(t)[0]!, log);
    const a = unitOf(t, 'A2a');
    expect([a.status, a.pos, a.facing]).toEqual(['active', P(24, 23.365), 180]);
    const e = t.elements.find((x) => x.id === 'A2')!;
    expect(e.offBoard).toBeNull();
    expect(e.strategicMoveThisTurn).toBe(true);
    const l = t.leaders.find((x) => x.id === 'A2-L')!;
    expect([l.offBoard, l.pos]).toEqual([false, P(24, 24)]);
    expect(log.some((x) => x.rule === 'Off Board Force Arrival' && x.text.includes('enters'))).toBe(true);
    // the British MEs choose in turn; A2, just entered, makes no other strategic move this S4
    const order: string[] = [];
    let u = t;
    while (!u.result && s4.toMove(u).kind === 'player') {
      order.push(deciding(u)!);
      u = s4.apply(u, s4.legalActions(u)[0]!);
    }
    expect(order.length).toBeGreaterThan(0);
    expect(order).not.toContain('A2');
    expect(unitOf(u, 'A2a').pos).toEqual(P(24, 23.365));
  });

  it('several units enter one behind another; a blocked entry waits for the next S4', () => {
    // give A2 a second regiment: the first unit at the head, each ½" behind the one in front
    const s0 = arriving(quick, 'A2');
    const second = { ...unitOf(s0, 'A2a'), id: 'A2b', name: 'A2b' } as UnitState;
    const s = {
      ...s0,
      units: [...s0.units, second],
      elements: s0.elements.map((e) => (e.id === 'A2' ? { ...e, units: ['A2a', 'A2b'] } : e)),
    };
    expect(entryLayout(s, 'A2')).toEqual([
      { id: 'A2a', pos: P(24, 21.615), facing: 180 },
      { id: 'A2b', pos: P(24, 23.365), facing: 180 },
    ]);
    const entered = finish(start(s));
    expect(['A2a', 'A2b'].map((id) => [unitOf(entered, id).status, unitOf(entered, id).pos])).toEqual([
      ['active', P(24, 21.615)],
      ['active', P(24, 23.365)],
    ]);
    // a unit standing on the entry point blocks it
    const blocked = withUnit(s, 'A1a', { pos: P(24, 22) });
    const t = finish(start(blocked));
    expect(unitOf(t, 'A2a').status).toBe('offBoard');
    expect(t.elements.find((e) => e.id === 'A2')!.offBoard?.arriving).toBe(true);
  });
});

describe('S4 order limits', () => {
  it('Hold moves only back toward its anchor, and stops on it', () => {
    // B2 (at (10, 42)) on Hold with its anchor 12" south at (10, 30)
    const s = withOrder(chapel, 'B2', { type: 'hold', point: P(10, 30), objective: null });
    const offers = strategicOffers(s, 'B2');
    expect(offers.length).toBeGreaterThan(0);
    for (const o of offers) {
      const t = s4.apply(play(start({ ...s, strategicFirst: 1 }), 'strategic B1 none'), o.key);
      expect(dist(unitOf(t, 'B2a').pos, P(10, 30)), o.key).toBeLessThan(dist(unitOf(s, 'B2a').pos, P(10, 30)));
    }
    expect(offers.map((o) => o.key).some((k) => / (N|NE|NW|E|W) /.test(k))).toBe(false);
    expect(offer(s, 'B2', 'strategic B2 toward full').steps / 4).toBe(12);
    // half a move is half the allowance: the light woods ahead (cavalry +3" an inch) leave 19", so 9.5"
    expect(offer(s, 'B2', 'strategic B2 toward half').steps / 4).toBe(9.5);
    // on Reserve the same ME may go anywhere (ending ≥ 10" away)
    expect(strategicOffers(chapel, 'B2').some((o) => / (N|E|W) /.test(o.key))).toBe(true);
  });

  it('Withdraw: every unit ends farther from its nearest enemy, toward its destination', () => {
    const s = withOrder(chapel, 'F2', { type: 'withdraw', point: P(44, 0), objective: null });
    const offers = strategicOffers(s, 'F2');
    expect(offers.length).toBeGreaterThan(0);
    for (const o of offers) {
      const t = s4.apply(play(start(s), 'strategic F1 none'), o.key);
      for (const id of ['F2a', 'F2b']) {
        const near = (x: S) => Math.min(...unitsOf(x, 1).map((v) => gap(placed(x, unitOf(x, id)), placed(x, v))));
        expect(near(t), `${o.key} ${id}`).toBeGreaterThan(near(s));
      }
    }
    // a destination on the enemy's side: no heading both approaches it and leaves every unit farther from the enemy
    const toward = withOrder(chapel, 'F2', { type: 'withdraw', point: P(40, 46), objective: null });
    expect(strategicOffers(toward, 'F2')).toEqual([]);
  });

  it('nothing is offered to an ME within 10" of an enemy unit, and its decision is skipped', () => {
    // F1c (Skirmish, front at y 20.5) 7.5" from the hamlet
    const s = withUnit(chapel, 'F1c', { pos: P(24, 20) });
    expect(mayMoveStrategically(s, s.elements.find((e) => e.id === 'F1')!)).toBe(false);
    expect(strategicOffers(s, 'F1')).toEqual([]);
    const t = start(s);
    expect(deciding(t)).toBe('F2');
    // nor to a broken ME
    const b = { ...chapel, elements: chapel.elements.map((e) => (e.id === 'F1' ? { ...e, broken: true } : e)) };
    expect(strategicOffers(b, 'F1')).toEqual([]);
  });

  it('C7: the side in `strategicFirst` moves first; the flag of last turn is cleared when S4 begins', () => {
    const s = {
      ...chapel,
      strategicFirst: 1 as Side,
      elements: chapel.elements.map((e) => ({ ...e, strategicMoveThisTurn: true })),
    };
    const t = start(s);
    expect(deciding(t)).toBe('B1');
    expect(t.elements.every((e) => !e.strategicMoveThisTurn)).toBe(true);
    const order: string[] = [];
    let u = t;
    while (!u.result && s4.toMove(u).kind === 'player') {
      order.push(deciding(u)!);
      u = s4.apply(u, s4.legalActions(u)[0]!);
    }
    expect(order).toEqual(['B1', 'B2', 'F1', 'F2']);
    expect(u.result).toEqual(DONE);
  });

  it("an ME leader not attached keeps his place in his command: F2's general moves by F2's displacement", () => {
    const t = s4.apply(play(start(chapel), 'strategic F1 none'), 'strategic F2 N half');
    const l0 = chapel.leaders.find((l) => l.id === 'F2-L')!.pos;
    const l1 = t.leaders.find((l) => l.id === 'F2-L')!.pos;
    expect(l1.x - l0.x).toBe(unitOf(t, 'F2a').pos.x - unitOf(chapel, 'F2a').pos.x);
    expect(l1.y - l0.y).toBe(unitOf(t, 'F2a').pos.y - unitOf(chapel, 'F2a').pos.y);
    expect(l1.y).toBeGreaterThan(l0.y);
  });
});
