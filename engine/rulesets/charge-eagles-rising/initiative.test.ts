/**
 * S6 and T1 (initiative.ts) through their frames: the digest's §10.6 initiative vector (French 2D6 + 1 against British
 * 2D6 + 0) and the exact probability of the winner, ties re-rolled, checked against a count of the 36 × 36 rolls; the
 * winner's choice setting `firstSide`, `previousFirstSide` and the next S4's `strategicFirst` (C7); T1's attaching and
 * detaching, the first side first, a leader acting once, "reachable" within 40", and attached leaders following their
 * units.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IN } from '../../geometry/geometry.ts';
import type { GameEvent } from '../../core/game.ts';
import type { Frame } from './frames.ts';
import { cer } from './rules.ts';
import { initialState, parseScenario } from './scenario.ts';
import type { S } from './state.ts';
import { leaderOf, unitOf, updUnit } from './state.ts';
import { initiativeFactors, leaderOptions, leadersFollow } from './initiative.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'charge-eagles-rising');
const json = (id: string) => JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8'));
const chapel = (): S => initialState(parseScenario(json('the-chapel-crossroads'))) as S;
/** A stop at the bottom of the stack: a decision of T1 for a side with a leader to move (never skipped). */
const STOP: Frame = { t: 'initiativeChoice', side: 1 };
const top = (s: S) => s.stack[s.stack.length - 1]!;
const begin = (s: S, phase: 'S6' | 'T1', log?: GameEvent[]) =>
  cer.settle({ ...s, phase, stack: [STOP, { t: 'phase', phase }] }, log);

/** P(A wins) with 2D6 + a against 2D6 + b, ties re-rolled: a count of the 1296 rolls. */
function countWin(a: number, b: number): number {
  let win = 0;
  let lose = 0;
  for (let i = 1; i <= 6; i++)
    for (let j = 1; j <= 6; j++)
      for (let k = 1; k <= 6; k++)
        for (let l = 1; l <= 6; l++) {
          const d = i + j + a - (k + l + b);
          if (d > 0) win++;
          else if (d < 0) lose++;
        }
  return win / (win + lose);
}

describe('S6 tactical initiative', () => {
  it('§10.6: French CC Average vs British Good (British +1), French more MEs on Attack (+1), British more Shaken (−1)', () => {
    let s = chapel();
    // B1 Shaken: 82 strength, 28 lost (34%)
    s = updUnit(updUnit(s, 'B1a', { figures: 10 }), 'B1b', { figures: 10 });
    const [fr, br] = initiativeFactors(s);
    expect(fr).toMatchObject({ ccAbilityGreater: false, moreMesOnAttack: true, moreMesShakenOrDemoralized: false });
    expect(br).toMatchObject({ ccAbilityGreater: true, moreMesOnAttack: false, moreMesShakenOrDemoralized: true });
    expect([fr.mod, br.mod]).toEqual([1, 0]);
    s = begin(s, 'S6');
    expect(top(s)).toEqual({ t: 'initiative' });
    const o = cer.chanceOutcomes(s);
    expect(o.map((x) => x.action)).toEqual(['initiative won by French', 'initiative won by British']);
    expect(o[0]!.p).toBeCloseTo(countWin(1, 0), 12);
    expect(o[0]!.p + o[1]!.p).toBeCloseTo(1, 12);
    expect(o[0]!.p).toBeGreaterThan(0.6);
  });

  it('§11 at the start: British CC better (+1), French more MEs on Attack (+1): even, 1/2 each', () => {
    const s = begin(chapel(), 'S6');
    const [fr, br] = initiativeFactors(s);
    expect([fr.mod, br.mod]).toEqual([1, 1]);
    for (const x of cer.chanceOutcomes(s)) expect(x.p).toBeCloseTo(0.5, 12);
  });

  it('the winner chooses 1st or 2nd: firstSide, previousFirstSide, and the next S4 to the side going second (C7)', () => {
    const log: GameEvent[] = [];
    let s = begin({ ...chapel(), firstSide: 1 }, 'S6');
    s = cer.apply(s, 'initiative won by French', log);
    expect(top(s)).toEqual({ t: 'initiativeChoice', side: 0 });
    expect(cer.legalActions(s)).toEqual(['initiative first', 'initiative second']);
    const second = cer.apply(s, 'initiative second', log);
    expect([second.firstSide, second.previousFirstSide, second.strategicFirst]).toEqual([1, 1, 0]);
    const first = cer.apply(s, 'initiative first');
    expect([first.firstSide, first.previousFirstSide, first.strategicFirst]).toEqual([0, 1, 1]);
    expect(log.filter((e) => e.rule === 'S6').length).toBe(2);
  });
});

describe('T1 attaching and detaching leaders', () => {
  it('the first side, then the second; a leader acts once; done ends the side', () => {
    let s = begin({ ...chapel(), firstSide: 1 }, 'T1');
    expect(top(s)).toMatchObject({ t: 'leaders', side: 1 });
    const opts = cer.legalActions(s);
    // B1's brigadier: his four units; the CC: any British unit; none attached yet (nothing to detach)
    expect(opts).toContain('attach B1-L B1a');
    expect(opts).toContain('attach B1-L B1d');
    expect(opts).not.toContain('attach B1-L B2a');
    expect(opts).toContain('attach B-CC B2a');
    expect(opts.some((a) => a.startsWith('detach'))).toBe(false);
    expect(opts.at(-1)).toBe('done');
    s = cer.apply(s, 'attach B1-L B1b');
    expect(leaderOf(s, 'B1-L')).toMatchObject({ attachedTo: 'B1b', pos: unitOf(s, 'B1b').pos });
    expect(unitOf(s, 'B1b').attachedLeader).toBe('B1-L');
    // he has acted: no more options of his; B1b is taken for the others
    const again = cer.legalActions(s);
    expect(again.some((a) => a.includes('B1-L'))).toBe(false);
    expect(again).not.toContain('attach B-CC B1b');
    s = cer.apply(s, 'done');
    expect(top(s)).toMatchObject({ t: 'leaders', side: 0 });
    // the French: F1's general is attached to F1a (from the scenario): he may detach or move to another unit
    const fr = cer.legalActions(s);
    expect(fr).toContain('detach F1-L');
    expect(fr).toContain('attach F1-L F1b');
    s = cer.apply(s, 'attach F1-L F1b');
    expect(unitOf(s, 'F1a').attachedLeader).toBeNull();
    expect(unitOf(s, 'F1b').attachedLeader).toBe('F1-L');
    s = cer.apply(s, 'done');
    expect(top(s)).toEqual(STOP);
  });

  it('detach: the leader stays where the unit is', () => {
    let s = begin({ ...chapel(), firstSide: 0 }, 'T1');
    const at = unitOf(s, 'F1a').pos;
    s = cer.apply(s, 'detach F1-L');
    expect(leaderOf(s, 'F1-L')).toMatchObject({ attachedTo: null, pos: at });
    expect(unitOf(s, 'F1a').attachedLeader).toBeNull();
  });

  it('"reachable": within the general\'s 40" move; inactive leaders do nothing; a side with nothing to do is skipped', () => {
    let s = chapel();
    // the British CC at (24, 45): F… his own units only; put B2a 41" away from him
    s = updUnit(s, 'B2a', { pos: { x: 10 * IN, y: 2 * IN } });
    expect(leaderOptions(s, 1, [])).not.toContain('attach B-CC B2a');
    expect(leaderOptions(s, 1, [])).toContain('attach B-CC B1a');
    // every French leader knocked out: the French T1 is skipped
    const ko = { ...s, leaders: s.leaders.map((l) => (l.side === 0 ? { ...l, status: 'knockedOut' as const } : l)) };
    expect(leaderOptions(ko, 0, [])).toEqual(['done']);
    const t = begin({ ...ko, firstSide: 0 }, 'T1');
    expect(top(t)).toMatchObject({ t: 'leaders', side: 1 });
  });

  it('an attached leader follows his unit; a leader whose unit is gone is detached', () => {
    let s = chapel();
    s = updUnit(s, 'F1a', { pos: { x: 20 * IN, y: 14 * IN } });
    expect(leaderOf(s, 'F1-L').pos).not.toEqual(unitOf(s, 'F1a').pos);
    const f = leadersFollow(s);
    expect(leaderOf(f, 'F1-L').pos).toEqual({ x: 20 * IN, y: 14 * IN });
    // nothing moved: the same state
    expect(leadersFollow(f)).toBe(f);
    const gone = leadersFollow(updUnit(f, 'F1a', { status: 'broken' }));
    expect(leaderOf(gone, 'F1-L').attachedTo).toBeNull();
    // settle runs it (the procedure's upkeep)
    const settled = cer.settle({ ...s, stack: [STOP] });
    expect(leaderOf(settled, 'F1-L').pos).toEqual({ x: 20 * IN, y: 14 * IN });
  });
});
