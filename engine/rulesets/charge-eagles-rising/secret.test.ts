/**
 * Secret orders (C7): two games that differ only in side A's written orders give side B byte-identical inputs —
 * observations, the events as B reads them, its options and what it reads of A's choices — until S2; every option of
 * a secret-order decision starts with `order`; search's sampled states keep B's own orders and redraw A's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { eventFor, type GameEvent } from '../../core/game.ts';
import { chargeEaglesRising as game } from './index.ts';
import { parseScenario } from './scenario.ts';
import { orderOptions } from './orders.ts';
import { type S, updCommand } from './state.ts';

const scenario = (id: string) =>
  parseScenario(JSON.parse(readFileSync(`data/scenarios/charge-eagles-rising/${id}.json`, 'utf8')));

/** Plays from the start until S2 begins; A picks its options by `pickA`, B always its last, chance its first. */
function untilS2(id: string, pickA: (options: readonly string[]) => string) {
  let s = game.initialState(scenario(id));
  const seenByB: string[] = [];
  const all: GameEvent[] = [];
  let guard = 0;
  while (s.phase === 'S1' && guard++ < 500) {
    const log: GameEvent[] = [];
    const tm = game.toMove(s);
    let a: string;
    if (tm.kind === 'chance') a = game.chanceOutcomes(s)[0]!.action;
    else if (tm.kind === 'player') {
      const opts = game.legalActions(s);
      expect(opts.every((o) => o.startsWith('order'))).toBe(true);
      if (tm.player === 1) seenByB.push(`options ${JSON.stringify(opts)} ${game.describeDecision!(s)}`);
      a = tm.player === 0 ? pickA(opts) : opts[opts.length - 1]!;
    } else break;
    seenByB.push(`view ${game.viewAction!(s, a, 1)}`);
    seenByB.push(`obs ${JSON.stringify(game.observe(s, 1))}`);
    s = game.apply(s, a, log);
    all.push(...log);
    for (const e of log) seenByB.push(`event ${JSON.stringify(eventFor(e, 1))}`);
  }
  return { s, seenByB, all };
}

describe('[S1, C7] written orders are secret until S2', () => {
  for (const id of ['the-chapel-crossroads', 'quick-test'])
    it(`${id}: B's inputs do not depend on A's orders`, () => {
      const keep = untilS2(id, (o) => o[0]!);
      const attack = untilS2(id, (o) => o.find((x) => / attack /.test(x)) ?? o[0]!);
      // the two games did differ for A
      expect(keep.s.secret[0].orders.length).toBe(0);
      expect(attack.s.secret[0].orders.length).toBeGreaterThan(0);
      expect(JSON.stringify(keep.all)).not.toBe(JSON.stringify(attack.all));
      expect(attack.seenByB).toEqual(keep.seenByB);
      // A reads its own orders; B's observation carries none of them
      expect(game.render(attack.s, 0)).toMatch(/written \(secret\)/);
      expect(game.render(attack.s, 1)).not.toMatch(/written \(secret\): F|written \(secret\): Q/);
      expect((game.observe(attack.s, 1) as S).secret[0].orders).toEqual([]);
      expect(game.hidden!(attack.s, 1)).toBe(true);
      expect(game.hidden!(attack.s, 0)).toBe(attack.s.secret[1].orders.length > 0);
    });

  it("search's sampled states keep B's own orders and redraw A's from A's options", () => {
    const { s } = untilS2('the-chapel-crossroads', (o) => o.find((x) => / attack /.test(x)) ?? o[0]!);
    const u = seedrandom.alea('sample');
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const t = game.sampleState(s, 1, u);
      expect(t.secret[1]).toEqual(s.secret[1]);
      for (const w of t.secret[0].orders) expect(w.issuedTurn).toBe(s.turn);
      seen.add(JSON.stringify(t.secret[0].orders));
    }
    // the true orders are not simply copied: several different drawings
    expect(seen.size).toBeGreaterThan(3);
  });
});

describe('[Issuing Orders] C2: one order in transit per recipient', () => {
  it('while a messenger is due, this turn included (its acceptance roll is in this S2), the only option is to keep', () => {
    const s0 = game.initialState(scenario('the-chapel-crossroads'));
    const at = (turn: number) => {
      const s = updCommand(s0, 'F2', { messengerArrivesTurn: turn });
      return orderOptions(s, 0, s.elements.find((e) => e.id === 'F2')!);
    };
    expect(at(0).length).toBeGreaterThan(1); // none travelling: a new order may be written
    expect(at(s0.turn + 1)).toEqual(['order F2 keep']);
    expect(at(s0.turn)).toEqual(['order F2 keep']); // due in this turn's S2: a second order would be a second roll
  });
});
