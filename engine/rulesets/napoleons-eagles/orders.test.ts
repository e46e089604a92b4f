/**
 * Napoleon's Eagles: A-28's order conditions on the optional written orders [p.17], on the shipped Kleinau scenario
 * (written orders on): the bounded menu of orders with a condition, sealed like every order until the reveal; each
 * condition template (`afterTurns`, `whenObjectiveTaken`, `whenEnemyWithdraws`, `onArrivalSwitchTo`) switching the
 * division to its follow-on order in the orders' upkeep; a changed order arriving with its condition; the encoding of
 * a condition.
 */
import { describe, expect, it } from 'vitest';
import { kleinau, playInto, setUnits, top } from '../../../test/ne-fixtures.ts';
import type { GameEvent } from '../../core/game.ts';
import { hashHex } from '../../core/hash.ts';
import { eventsFor, observationHash } from '../../core/views.ts';
import { neEncoding } from './encoding.ts';
import { napoleonsEagles as game } from './index.ts';
import { runtime, type SeqState } from './turn.ts';

const written = () =>
  kleinau((j) => {
    j.options.leaderInitiative = false;
    j.options.writtenOrders = true;
  });
/** The French division's order, then the Austrian's, written at the start (both take effect at once). */
const orders = (french: string, austrian = 'order L-A1 defend here', ev?: GameEvent[]) =>
  playInto(written(), ev, french, austrian);
/** The upkeep after a change made by hand (a settle runs it first). */
const upkept = (s: SeqState, ev?: GameEvent[]) => runtime.settle(s, ev);
const said = (ev: GameEvent[], re: RegExp) => ev.some((e) => e.rule === 'p.17' && re.test(e.text));

describe("Napoleon's Eagles: A-28's order conditions [p.17]", () => {
  it('a bounded menu: the six orders first, then the conditions after the book\'s examples, every key "order …"', () => {
    const keys = game.legalActions(written());
    const base = keys.filter((k) => !k.includes(' then '));
    const withCondition = keys.filter((k) => k.includes(' then '));
    // 3 objectives: attack 3, defend here and 3, withdraw, pursuit, maneuver 3, reserve
    expect(base).toHaveLength(13);
    expect(keys.slice(0, 13)).toEqual(base);
    expect(keys.every((k) => k.startsWith('order L-F1 '))).toBe(true);
    // holds then an attack after 1 or 2 turns (2 × 2 × 3), withdrawals for 1 or 2 turns, the defended objective
    // taken (3), holds turning to pursuit (2), attacks then pursuit (3), manoeuvres then another attack (3 × 2)
    expect(withCondition).toHaveLength(12 + 2 + 3 + 2 + 3 + 6);
    expect(withCondition).toEqual(
      expect.arrayContaining([
        'order L-F1 defend here then attack obj-V1 after 2',
        'order L-F1 reserve then attack obj-T3 after 1',
        'order L-F1 withdraw then defend here after 1',
        'order L-F1 defend obj-V2 then withdraw if obj-V2 taken',
        'order L-F1 reserve then pursuit if enemy withdraws',
        'order L-F1 attack obj-V1 then pursuit on arrival',
        'order L-F1 maneuver obj-T3 then attack obj-V1 on arrival',
      ]),
    );
  });

  it("sealed: two games differing only in the first side's condition give the other side identical inputs", () => {
    const s0 = written();
    const seen = [
      'order L-F1 defend here',
      'order L-F1 defend here then attack obj-V1 after 1',
      'order L-F1 defend here then pursuit if enemy withdraws',
    ].map((a) => {
      const events: GameEvent[] = [];
      const s = game.apply(s0, a, events);
      return JSON.stringify({
        legal: game.legalActions(s),
        describe: game.describeDecision!(s),
        view: game.viewAction!(s0, a, 1),
        observation: game.observe(s, 1),
        hash: hashHex(observationHash(game, s, 1)),
        events: eventsFor(events, 1),
        hidden: game.hidden!(s, 1),
      });
    });
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).toBe(seen[0]);
    // revealed with the order: the written condition is public then, as the orders are
    const ev: GameEvent[] = [];
    const t = orders('order L-F1 defend here then attack obj-V1 after 1', undefined, ev);
    expect(
      said(ev, /L-F1's order is written and takes effect at once: Defend .*, then attack obj-V1 after 1 turn \(A-28\)/),
    ).toBe(true);
    expect(t.orders?.['L-F1']).toMatchObject({ condition: { kind: 'afterTurns', turns: 1 }, then: 'attack obj-V1' });
  });

  it('afterTurns(n): "attack after holding for two turns": the hold switches at the orders step n turns on', () => {
    const s = orders('order L-F1 defend here then attack obj-V1 after 2');
    expect(s.orders?.['L-F1']).toMatchObject({
      order: 'Defend',
      condition: { kind: 'afterTurns', turns: 2, from: 1 },
      then: 'attack obj-V1',
    });
    // Kleinau is two turns long: at its last period (12) the hold is still on
    const last = runtime.settle({ ...s, stack: [], turn: 2, period: 6, sideA: null });
    expect(last.orders?.['L-F1']?.order).toBe('Defend');
    // after one turn: turn 1's last period (6) still holding; turn 2's first (7): the attack
    const one = orders('order L-F1 defend here then attack obj-V1 after 1');
    expect(runtime.settle({ ...one, stack: [], turn: 1, period: 6, sideA: null }).orders?.['L-F1']?.order).toBe(
      'Defend',
    );
    const ev: GameEvent[] = [];
    const after = runtime.settle({ ...one, stack: [], turn: 2, period: 1, sideA: null }, ev);
    expect(after.orders?.['L-F1']).toEqual({ order: 'Attack', target: 'obj-V1' });
    expect(said(ev, /L-F1's order switches \(1 turn has passed, A-28\): Attack obj-V1/)).toBe(true);
    // a withdrawal for one turn, then Defend about the division's leader
    const w = orders('order L-F1 withdraw then defend here after 1');
    const w7 = runtime.settle({ ...w, stack: [], turn: 2, period: 1, sideA: null });
    expect(w7.orders?.['L-F1']).toMatchObject({ order: 'Defend', at: expect.any(Object) });
    expect(w7.orders?.['L-F1']?.condition).toBeUndefined();
  });

  it('whenObjectiveTaken(id): "withdraw if the hill is taken": when the enemy holds the objective it defends', () => {
    const s = orders('order L-F1 attack obj-V1', 'order L-A1 defend obj-V1 then withdraw if obj-V1 taken');
    expect(s.orders?.['L-A1']).toMatchObject({
      order: 'Defend',
      condition: { kind: 'objectiveTaken', objective: 'obj-V1' },
    });
    // Austrians in the mill hold it: nothing happens; the French in it take it
    const own = upkept(setUnits(s, { A1: { inBlocks: { V1: 8 } } }));
    expect(own.orders?.['L-A1']?.order).toBe('Defend');
    const ev: GameEvent[] = [];
    const taken = upkept(setUnits(s, { F1: { inBlocks: { V1: 8 } } }), ev);
    expect(taken.orders?.['L-A1']).toEqual({ order: 'Withdraw' });
    expect(said(ev, /L-A1's order switches \(the enemy has taken obj-V1, A-28\): Withdraw/)).toBe(true);
    // (and the French attack, its objective taken, turns to Defend there as before: no condition)
    expect(taken.orders?.['L-F1']?.order).toBe('Defend');
  });

  it('whenEnemyWithdraws: "attack if the enemy is seen withdrawing": an enemy unit in retreat status', () => {
    const s = orders('order L-F1 defend here then pursuit if enemy withdraws');
    expect(s.orders?.['L-F1']).toMatchObject({ order: 'Defend', condition: { kind: 'enemyWithdraws' } });
    expect(upkept(s).orders?.['L-F1']?.order).toBe('Defend');
    const ev: GameEvent[] = [];
    const t = upkept(setUnits(s, { A2: { retreating: true, recovery: 3 } }), ev);
    expect(t.orders?.['L-F1']).toEqual({ order: 'Pursuit' });
    expect(said(ev, /switches \(the enemy is seen withdrawing: a unit in retreat status, A-28\): Pursuit/)).toBe(true);
    // a reserve with a condition that turns to Defend/Hold (the Austrians within 24" at Kleinau's start) keeps it
    const r: GameEvent[] = [];
    const reserve = orders('order L-F1 reserve then pursuit if enemy withdraws', undefined, r);
    expect(reserve.orders?.['L-F1']).toMatchObject({
      order: 'Defend',
      condition: { kind: 'enemyWithdraws' },
      then: 'pursuit',
    });
    expect(said(r, /turns to Defend\/Hold \(an enemy within 24"\), its condition kept \(A-28\)/)).toBe(true);
    expect(upkept(setUnits(reserve, { A2: { retreating: true } })).orders?.['L-F1']?.order).toBe('Pursuit');
  });

  it('onArrivalSwitchTo(order): the objective reached, the follow-on in place of Defend', () => {
    const s = orders('order L-F1 maneuver obj-V1 then attack obj-V2 on arrival');
    expect(s.orders?.['L-F1']).toMatchObject({ order: 'Maneuver', target: 'obj-V1', condition: { kind: 'onArrival' } });
    expect(upkept(s).orders?.['L-F1']?.order).toBe('Maneuver');
    const ev: GameEvent[] = [];
    const there = upkept(setUnits(s, { F1: { inBlocks: { V1: 8 } } }), ev);
    expect(there.orders?.['L-F1']).toEqual({ order: 'Attack', target: 'obj-V2' });
    expect(said(ev, /L-F1's order is done \(obj-V1 reached, A-28\): Attack obj-V2/)).toBe(true);
    // an attack then the pursuit
    const a = orders('order L-F1 attack obj-V1 then pursuit on arrival');
    expect(upkept(setUnits(a, { F1: { inBlocks: { V1: 8 } } })).orders?.['L-F1']).toEqual({ order: 'Pursuit' });
    // without a condition: Defend there, as before
    const plain = orders('order L-F1 maneuver obj-V1');
    expect(upkept(setUnits(plain, { F1: { inBlocks: { V1: 8 } } })).orders?.['L-F1']?.order).toBe('Defend');
  });

  it('a changed order arrives with its condition: its turns counted from the period it takes effect', () => {
    let s = orders('order L-F1 attack obj-V1');
    s = runtime.settle({ ...s, stack: [], period: 2, sideA: null });
    expect(top(s)).toMatchObject({ t: 'orders', first: false });
    const ch = playInto(s, undefined, 'order L-F1 reserve then attack obj-V2 after 1', 'order L-A1 keep');
    const d = game.apply(ch, 'delay L-F1 2');
    expect(d.pendingOrders).toEqual([
      {
        division: 'L-F1',
        order: { order: 'Reserve', condition: { kind: 'afterTurns', turns: 1 }, then: 'attack obj-V2' },
        at: 4,
      },
    ]);
    // far from the enemy (no Reserve trigger): it takes effect at period 4 and counts from there
    const far = setUnits(d, {
      A1: { status: 'routed' },
      A2: { status: 'routed' },
      A3: { status: 'routed' },
      A5: { status: 'routed' },
      A4: { x: 44 * 100, y: 33 * 100 },
    });
    const p4 = runtime.settle({ ...far, stack: [], period: 4, sideA: null });
    expect(p4.orders?.['L-F1']).toMatchObject({
      order: 'Reserve',
      condition: { kind: 'afterTurns', turns: 1, from: 4 },
    });
    const p9 = runtime.settle({ ...p4, stack: [], turn: 2, period: 3, sideA: null });
    expect(p9.orders?.['L-F1']?.order).toBe('Reserve');
    const p10 = runtime.settle({ ...p4, stack: [], turn: 2, period: 4, sideA: null });
    expect(p10.orders?.['L-F1']).toEqual({ order: 'Attack', target: 'obj-V2' });
  });

  it('the encoding tells a condition, its turns and its follow-on apart', () => {
    const s = written();
    const keys = [
      'order L-F1 defend here',
      'order L-F1 defend here then attack obj-V1 after 1',
      'order L-F1 defend here then attack obj-V1 after 2',
      'order L-F1 defend here then pursuit if enemy withdraws',
      'order L-F1 reserve then pursuit if enemy withdraws',
      'order L-F1 defend obj-V1 then withdraw if obj-V1 taken',
      'order L-F1 attack obj-V1 then pursuit on arrival',
      'order L-F1 attack obj-V1',
    ];
    const out = new Float32Array(keys.length * neEncoding.actionSize);
    neEncoding.encodeActions(s, 0, keys, out);
    const rows = keys.map((_, i) =>
      Array.from(out.slice(i * neEncoding.actionSize, (i + 1) * neEncoding.actionSize)).join(),
    );
    expect(new Set(rows).size).toBe(keys.length);
  });
});
