/**
 * [p.14] A-33: "If both sides have the same melee value then the close action is fought again next period": a tie of
 * equal base values keeps both units in contact and locked through the next period's activations, and is fought
 * again first in its step 9, straight to the melee (no step 2 check, no defence action, no closing check).
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { forwardOr, quick } from '../../../test/ne-fixtures.ts';
import { napoleonsEagles as game } from './index.ts';
import type { SeqState } from './turn.ts';

/** Plays seeded games, charging a unit whenever it can, until a melee offers a tie of equal values; returns the state there. */
function atATie(): SeqState {
  for (let g = 0; g < 40; g++) {
    const rng = seedrandom.alea(`tie-${g}`);
    let s = quick();
    for (let ply = 0; ply < 20_000 && game.toMove(s).kind !== 'terminal'; ply++) {
      const top = s.stack.at(-1);
      const outs = game.chanceOutcomes(s);
      if (top?.t === 'closeFight' && outs.some((o) => /a tie, fought again/.test(o.action))) return s;
      if (outs.length) {
        s = game.apply(s, outs[Math.floor(rng() * outs.length)]!.action);
        continue;
      }
      const acts = game.legalActions(s);
      // a charge that makes a close action (not a block's, nor a crew's: A-51's crew charged is simply eliminated)
      const charge = acts.find(
        (a) => a.startsWith('charge ') && !a.startsWith('charge block') && !a.startsWith('charge crew '),
      );
      s = game.apply(s, forwardOr(rng, acts, charge));
    }
  }
  throw new Error('no tie offered in 40 games');
}

describe("Napoleon's Eagles: a tied close action is fought again next period [p.14] (A-33)", () => {
  it('keeps both in contact through the next period and fights them first in its step 9, straight to the melee', () => {
    const s = atATie();
    const f = s.stack.at(-1) as { t: 'closeFight'; close: number };
    const c = s.closes[f.close]!;
    const tie = game.chanceOutcomes(s).find((o) => /a tie, fought again/.test(o.action))!;
    const events: { rule: string; text: string }[] = [];
    let t = game.apply(s, tie.action, events);
    expect(events.some((e) => e.rule === 'p.14' && /fought again next period \(A-33\)/.test(e.text))).toBe(true);
    // not fought again now: no melee of the same pair is waiting on the stack
    expect(t.stack.some((x) => x.t === 'closeFight' && (x as { close: number }).close === f.close)).toBe(false);
    // carried (the period may already have ended in the same step: its close actions are then the next period's)
    expect(t.closes.find((x) => x.charger === c.charger && x.defender === c.defender)?.refight).toBe(true);
    // play on (no charges) to the next period's step 9
    const rng = seedrandom.alea('after-tie');
    const period = s.period;
    let sawLocked = false;
    for (let ply = 0; ply < 20_000; ply++) {
      if (game.toMove(t).kind === 'terminal') break;
      const top = t.stack.at(-1);
      if (t.period !== period && top?.t === 'pick') {
        // the next period: both still in contact, neither offered an activation
        expect(t.units.find((u) => u.id === c.charger)!.locked).toBe(true);
        expect(t.units.find((u) => u.id === c.defender)!.locked).toBe(true);
        expect(game.legalActions(t)).not.toContain(`activate ${c.charger}`);
        expect(game.legalActions(t)).not.toContain(`activate ${c.defender}`);
        sawLocked = true;
      }
      if (t.period !== period && (top?.t === 'closeCheck' || top?.t === 'closeFight' || top?.t === 'defence')) {
        // the first close action of that step 9 is the tie, fought again straight away
        expect(top.t).toBe('closeFight');
        const g = top as { close: number; refight: boolean };
        expect(t.closes[g.close]).toMatchObject({ charger: c.charger, defender: c.defender, refight: true });
        expect(g.refight).toBe(true);
        expect(sawLocked).toBe(true);
        return;
      }
      const outs = game.chanceOutcomes(t);
      if (outs.length) {
        t = game.apply(t, outs[Math.floor(rng() * outs.length)]!.action);
        continue;
      }
      const acts = game.legalActions(t).filter((a) => !a.startsWith('charge') && !a.includes(' charge'));
      t = game.apply(t, acts.includes('end') ? 'end' : acts[Math.floor(rng() * acts.length)]!);
    }
    throw new Error('the tie was not fought again in the next period');
  });
});
