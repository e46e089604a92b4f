/**
 * The macro layer (the digest's §8.4): a plan chosen at the start of an activation plays out as the primitives it
 * stands for, to the same state as choosing them one by one; the primitives stay legal beside it; a step no longer
 * offered ends the plan.
 */
import { describe, expect, it } from 'vitest';
import { play, quick } from '../../../test/ne-fixtures.ts';
import { hashHex } from '../../core/hash.ts';
import { napoleonsEagles as game } from './index.ts';
import { resolveStep } from './macros.ts';
import type { SeqState } from './turn.ts';

/** Plays the only legal action while there is just one (the steps of a plan), then returns. */
const forced = (s: SeqState, chance: (t: SeqState) => string) => {
  let t = s;
  const taken: string[] = [];
  for (;;) {
    const k = game.toMove(t).kind;
    if (k === 'terminal') return { t, taken };
    const a = k === 'chance' ? chance(t) : game.legalActions(t).length === 1 ? game.legalActions(t)[0]! : null;
    if (a === null || (t.stack.at(-1)?.t !== 'act' && k !== 'chance')) return { t, taken };
    taken.push(a);
    t = game.apply(t, a);
  }
};

describe("Napoleon's Eagles: plans (the digest's §8.4 macros)", () => {
  const s0 = quick();
  const start = play(s0, 'bid 1', 'bid 0', 'be A', 'activate Q1');

  it('are offered beside the primitives at the start of an activation, and not once it has spent an action', () => {
    const legal = game.legalActions(start);
    expect(legal).toContain('plan advance twice');
    expect(legal.some((a) => a.startsWith('plan close on B'))).toBe(true);
    expect(legal.some((a) => a.startsWith('move forward 1 '))).toBe(true);
    expect(legal).toContain('end');
    const moved = play(start, legal.find((a) => a.startsWith('move forward ½ '))!);
    expect(game.legalActions(moved).some((a) => a.startsWith('plan '))).toBe(false);
  });

  it('"advance twice" plays the longest straight whole-action move twice, then ends: the same state as by hand', () => {
    const viaPlan = forced(play(start, 'plan advance twice'), () => {
      throw new Error('no dice in an advance');
    });
    // by hand: the longest straight forward move, twice, then end
    const longest = (s: SeqState) =>
      game
        .legalActions(s)
        .filter((a) => /^move forward 1 [\d.]+"$/.test(a))
        .sort((a, b) => Number(b.split(' ')[3]!.slice(0, -1)) - Number(a.split(' ')[3]!.slice(0, -1)))[0]!;
    const one = play(start, longest(start));
    const two = play(one, longest(one));
    const byHand = play(two, 'end');
    expect(viaPlan.taken).toEqual([longest(one), 'end']);
    expect(hashHex(game.hash(viaPlan.t))).toBe(hashHex(game.hash(byHand)));
    expect(viaPlan.t.units.find((u) => u.id === 'Q1')!.halves).toBe(4);
  });

  it('"close on X" takes the whole-action move ending nearest X at each step', () => {
    const legal = game.legalActions(start);
    const plan = legal.find((a) => /^plan close on \S+$/.test(a))!;
    const target = plan.split(' ')[3]!;
    const e = start.units.find((u) => u.id === target)!;
    const t = play(start, plan);
    const q1 = t.units.find((u) => u.id === 'Q1')!;
    // no forward whole-action move from the start ends nearer the target
    for (const a of legal.filter((x) => /^move forward 1 /.test(x))) {
      const o = game.apply(start, a).units.find((u) => u.id === 'Q1')!;
      expect(Math.hypot(o.x - e.x, o.y - e.y)).toBeGreaterThanOrEqual(Math.hypot(q1.x - e.x, q1.y - e.y) - 1e-6);
    }
  });

  it('a plan with fire rolls the dice of the fire, then goes on; a step no longer offered ends the plan', () => {
    // find an activation with "advance and fire" in a scripted game
    let s = start;
    let found: SeqState | null = null;
    for (let i = 0; i < 3000 && !found && game.toMove(s).kind !== 'terminal'; i++) {
      if (game.toMove(s).kind === 'chance') {
        s = game.apply(s, game.chanceOutcomes(s)[0]!.action);
        continue;
      }
      const legal = game.legalActions(s);
      const fire = legal.find((a) => /^plan close on \S+ and fire$/.test(a));
      if (fire && s.stack.at(-1)?.t === 'act') {
        const after = play(s, fire);
        const f = after.stack.at(-1) as { t: string; plan?: readonly string[] };
        if (f.t === 'act' && f.plan && game.legalActions(after).some((a) => /^(fire|canister|shot) /.test(a)))
          found = s;
      }
      const sc = game.policyScores!(s, legal);
      s = game.apply(s, legal[sc.indexOf(Math.max(...sc))]!);
    }
    expect(found).not.toBeNull();
    const key = game.legalActions(found!).find((a) => /^plan close on \S+ and fire$/.test(a))!;
    const t = play(found!, key);
    const fire = game.legalActions(t);
    expect(fire.length).toBe(1);
    expect(fire[0]).toMatch(/^(fire|canister|shot) \S+ 1$/);
    const fired = play(t, fire[0]!);
    expect(game.toMove(fired).kind).toBe('chance');
    const after = play(fired, game.chanceOutcomes(fired)[0]!.action);
    // back at the unit's activation with the last step, END, pending (or its frame gone if it was destroyed)
    if (after.stack.at(-1)?.t === 'act') expect(game.legalActions(after)).toEqual(['end']);
  });

  it('resolves a step against the menu it meets: gone from the menu, the step is null', () => {
    const ctx = { after: () => undefined, enemyAt: () => undefined };
    expect(resolveStep('fire', ['end', 'fire B1 2'], ctx)).toBeNull();
    expect(resolveStep('fire', ['end', 'fire B1 2', 'fire B1 1'], ctx)).toBe('fire B1 1');
    expect(resolveStep('advance', ['move forward 1 3.00" turn +10', 'move forward 1 2.00"'], ctx)).toBe(
      'move forward 1 2.00"',
    );
    expect(resolveStep('charge B2', ['charge B1'], ctx)).toBeNull();
    expect(resolveStep('close B1', ['move forward 1 2.00"'], ctx)).toBeNull();
  });
});
