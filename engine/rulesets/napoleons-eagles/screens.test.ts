/**
 * Napoleon's Eagles: the skirmish screens' push-back by formed infantry [p.19] (A-36, option `skirmishPushBack`): played
 * through the registered game on the shipped quick-test scenario with a screen put in the way.
 */
import { describe, expect, it } from 'vitest';
import { type Json, play, quick, setUnits, withEvents } from '../../../test/ne-fixtures.ts';
import { napoleonsEagles as game } from './index.ts';
import { footprint } from './shape.ts';
import { polygonDistance } from '../../geometry/geometry.ts';
import { internals, type SeqState, unitOf } from './turn.ts';

const body = (s: SeqState, id: string) => internals.tableUnit(s, unitOf(s, id));
const gap = (s: SeqState, a: string, b: string) => polygonDistance(footprint(body(s, a)), footprint(body(s, b))) / 100;
const opt = (push: number) => (j: Json) => {
  j.options = { ...(j.options ?? {}), skirmishPushBack: push };
};
/** The farthest whole-action forward move straight ahead offered. */
const ahead = (s: SeqState) => game.legalActions(s).find((k) => /^move forward 1 [\d.]+"$/.test(k))!;

describe("Napoleon's Eagles: formed infantry pushes screens back [p.19] (A-36)", () => {
  // B2 as a 4-figure screen (8" wide) 3" in front of Q2's line, facing it; its rear is open
  const facing = (push: number, patch: Record<string, Json> = {}) =>
    setUnits(quick(opt(push)), {
      B2: { x: 2500, y: 700, facing: 180, formation: 'skirmish', figures: 4 },
      ...patch,
    });

  for (const push of [1, 2])
    it(`skirmishPushBack ${push}: the screen goes straight back to keep ${push}" from the line, at no cost`, () => {
      const s = play(facing(push), 'bid 1', 'bid 0', 'be A', 'activate Q2');
      const key = ahead(s);
      // the move is as long as on an empty table: the screen does not stop it
      const bare = play(
        setUnits(quick(opt(push)), { B2: { x: 500, y: 2300 } }),
        'bid 1',
        'bid 0',
        'be A',
        'activate Q2',
      );
      expect(key).toBe(ahead(bare));
      const { t, events } = withEvents(s, key);
      const b2 = unitOf(t, 'B2');
      expect(b2.x).toBe(2500);
      expect(b2.facing).toBe(180);
      expect(b2.y).toBeGreaterThan(700);
      expect(b2.halves).toBe(unitOf(s, 'B2').halves);
      expect(gap(t, 'Q2', 'B2')).toBeGreaterThanOrEqual(push - 0.01);
      expect(gap(t, 'Q2', 'B2')).toBeLessThan(push + 0.06);
      expect(events.some((e) => e.rule === 'A-36' && /B2 is pushed back [\d.]+" by Q2/.test(e.text))).toBe(true);
    });

  it('a screen that cannot go back (a unit behind it) stops the line 1" from it', () => {
    const s = play(
      facing(2, { B1: { x: 2500, y: 760, facing: 180, formation: 'column' } }),
      'bid 1',
      'bid 0',
      'be A',
      'activate Q2',
    );
    const { t, events } = withEvents(s, ahead(s));
    expect(unitOf(t, 'B2').y).toBe(700);
    expect(events.some((e) => e.rule === 'A-36')).toBe(false);
    expect(gap(t, 'Q2', 'B2')).toBeGreaterThanOrEqual(0.99);
    expect(gap(t, 'Q2', 'B2')).toBeLessThan(1.3);
  });

  // Q1 as a French 4-figure screen 5" in front of BC (cavalry) and, to its side, B2 as a British screen facing it
  const french = (push: number) =>
    setUnits(quick(opt(push)), {
      Q1: { x: 3140, y: 1500, facing: 0, formation: 'skirmish', figures: 4 },
      Q2: { x: 1000, y: 400 },
    });

  for (const push of [1, 2])
    it(`skirmishPushBack ${push}: cavalry moving on a screen does not push it`, () => {
      const s = play(french(push), 'bid 0', 'bid 1', 'be A', 'activate BC');
      const moves = game.legalActions(s).filter((k) => k.startsWith('move forward'));
      expect(moves.length).toBeGreaterThan(0);
      let nearest = Infinity;
      for (const k of moves) {
        const { t, events } = withEvents(s, k);
        expect(unitOf(t, 'Q1')).toMatchObject({ x: 3140, y: 1500 });
        expect(events.some((e) => e.rule === 'A-36')).toBe(false);
        nearest = Math.min(nearest, gap(t, 'BC', 'Q1'));
      }
      // it rides up to the screen (A-9: screens are not formed, no stand-off), closer than any push-back would leave
      expect(nearest).toBeLessThan(0.3);
    });

  for (const push of [1, 2])
    it(`skirmishPushBack ${push}: a screen moving on a screen does not push it, and keeps 1" [p.19]`, () => {
      const s0 = setUnits(french(push), {
        B2: { x: 3140, y: 2100, facing: 180, formation: 'skirmish', figures: 4 },
        BC: { x: 500, y: 2300 },
      });
      const s = play(s0, 'bid 0', 'bid 1', 'be A', 'activate B2');
      const moves = game.legalActions(s).filter((k) => k.startsWith('move forward'));
      expect(moves.length).toBeGreaterThan(0);
      let nearest = Infinity;
      for (const k of moves) {
        const { t, events } = withEvents(s, k);
        expect(unitOf(t, 'Q1')).toMatchObject({ x: 3140, y: 1500 });
        expect(events.some((e) => e.rule === 'A-36')).toBe(false);
        expect(gap(t, 'B2', 'Q1')).toBeGreaterThanOrEqual(0.99);
        nearest = Math.min(nearest, gap(t, 'B2', 'Q1'));
      }
      // it goes up to its 1" stand-off
      expect(nearest).toBeLessThan(1.3);
    });
});
