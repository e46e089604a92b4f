/**
 * Charge! Eagles Rising close assault combat (cac.ts): the digest's §10.5 vectors (modifier totals and result cells
 * through the engine), a capture on the winner's doubles, exploitation as a 2nd CAC after the initial ones (C13), the
 * 0 row's re-fight, and the chance node's exact distribution.
 */
import { describe, expect, it } from 'vitest';
import { push } from '../../core/procedure.ts';
import { IN } from '../../geometry/geometry.ts';
import { cacMods } from './cac.ts';
import { at, play, tacticalState } from './charges.fixture.ts';
import { cer } from './rules.ts';
import { type S, unitOf, updLeader, updUnit } from './state.ts';
import type { UnitState } from './types.ts';

const top = (s: S) => s.stack[s.stack.length - 1]!;
const charging = (s: S, id: string) => updUnit(s, id, { phase: { ...unitOf(s, id).phase, charging: true } });
/** A CAC queued as T2e queues it, the close assaults under way (above the end of the charges and the sentinel). */
function fight(s: S, attackers: string[], defenders: string[]): S {
  const t: S = { ...s, tactical: { ...s.tactical!, cacQueue: [{ attackers, defenders, second: false }] } };
  return cer.settle(push(t, { t: 'chargesDone', blowAtEnd: [] }, { t: 'cacs' }));
}
const figures = (s: S, id: string) => (unitOf(s, id) as UnitState & { figures: number }).figures;

/** F1a (French Regular column, Inspirational leader attached) charging B1a (British Regular 6" line) from the front. */
function columnAgainstLine(): S {
  let s = at(tacticalState(0), 'F1a', 18, 35.5 - 1.5, 0);
  s = charging(s, 'F1a');
  return s;
}

describe('§10.5 close assault vectors', () => {
  it('French column charging with an Inspirational leader 2D6 + 9 against the British line at the halt 2D6 + 8 (2× wider +2)', () => {
    const s = columnAgainstLine();
    expect(cacMods(s, { attackers: ['F1a'], defenders: ['B1a'], second: false })).toEqual({ attacker: 9, defender: 8 });
  });

  it('rolls 8 and 7 → 17 vs 15, 2: W 1 KIA & D, L 1 KIA, FB 6" D; the French may take ground and wheel in line, D', () => {
    let s = fight(columnAgainstLine(), ['F1a'], ['B1a']);
    const b1a = unitOf(s, 'B1a').pos;
    s = play(s, 'cac attacker 1-2');
    s = play(s, 'leader F1-L noEffect'); // the tactical leader check for F1a's KIA
    expect([figures(s, 'F1a'), unitOf(s, 'F1a').disordered]).toEqual([23, true]);
    expect([figures(s, 'B1a'), unitOf(s, 'B1a').disordered]).toEqual([23, true]);
    expect(unitOf(s, 'B1a').pos.y - b1a.y).toBeCloseTo(6 * IN, -1);
    expect(s.elements.find((e) => e.id === 'B1')!.moraleTriggers.lostCac).toBe(true);
    expect(top(s).t).toBe('cacWin');
    expect(cer.legalActions(s)).toEqual([
      'take ground F1a wheel -45',
      'take ground F1a wheel -22.5',
      'take ground F1a wheel 0',
      'take ground F1a wheel 22.5',
      'take ground F1a wheel 45',
      'hold F1a',
    ]);
    s = play(s, 'take ground F1a wheel 22.5');
    expect(unitOf(s, 'F1a')).toMatchObject({ formation: 'line', disordered: true, facing: 23 });
  });

  it('armored Elite cuirassiers, Charismatic, 14 against a solid square 14; losing 1-2: the square test, FB 5" D not blown', () => {
    let s = at(tacticalState(0), 'F2a', 18, 35.5 - 0.625 - 1.5, 0);
    s = updUnit(s, 'B1a', { formation: 'solidSquare' });
    s = updUnit(s, 'F2a', { attachedLeader: 'F2-L' });
    s = updLeader(s, 'F2-L', { attachedTo: 'F2a' });
    s = charging(s, 'F2a');
    expect(cacMods(s, { attackers: ['F2a'], defenders: ['B1a'], second: false })).toEqual({
      attacker: 14,
      defender: 14,
    });
    s = fight(s, ['F2a'], ['B1a']);
    const y = unitOf(s, 'F2a').pos.y;
    s = play(s, 'cac defender 1-2');
    // "0 KIA, check Cavalry Results": Elite 5, Charismatic −3, out of command +2 (C2) = 4: 33/36
    expect(top(s)).toMatchObject({ t: 'chargeTest', unit: 'F2a', reason: 'squareLoss' });
    expect(cer.chanceOutcomes(s).find((o) => o.action === 'test F2a squareLoss pass')!.p).toBeCloseTo(33 / 36, 12);
    const failed = play(s, 'test F2a squareLoss fail');
    const ff = unitOf(failed, 'F2a');
    expect([ff.disordered, ff.kind === 'cavalry' && ff.blown]).toEqual([true, true]);
    expect(y - ff.pos.y).toBeCloseTo(12 * IN, -1);
    s = play(s, 'test F2a squareLoss pass');
    const f = unitOf(s, 'F2a');
    expect([figures(s, 'F2a'), f.disordered, f.kind === 'cavalry' && f.blown]).toEqual([12, true, false]);
    expect(y - f.pos.y).toBeCloseTo(5 * IN, -1);
  });

  it('cavalry beats cavalry by 6: W 1 KIA only if its 2D6 was lower; L 3 KIA, Ret 12" D & B; exploit up to 10"', () => {
    const base = () => {
      let s = at(tacticalState(0), 'B2a', 30, 20, 180);
      s = charging(at(s, 'F2a', 30, 20 - 0.625 - 0.625, 0), 'F2a');
      return fight(s, ['F2a'], ['B2a']);
    };
    let s = play(base(), 'cac attacker 5-7');
    expect([figures(s, 'F2a'), figures(s, 'B2a')]).toEqual([12, 9]);
    const b = unitOf(s, 'B2a');
    expect([b.disordered, b.kind === 'cavalry' && b.blown, b.facing]).toEqual([true, true, 0]);
    expect(cer.legalActions(s)).toContain('exploit F2a 10');
    expect(cer.legalActions(s)).toContain('rally back F2a');
    s = play(base(), 'cac attacker 5-7 lower');
    expect([figures(s, 'F2a'), figures(s, 'B2a')]).toEqual([11, 9]);
  });

  it('two battalions against one: greater number 2:1, +1', () => {
    let s = columnAgainstLine();
    s = charging(at(s, 'F1b', 21.5, 35.5 - 1.5, 0), 'F1b');
    const one = cacMods(s, { attackers: ['F1a'], defenders: ['B1a'], second: false });
    const two = cacMods(s, { attackers: ['F1a', 'F1b'], defenders: ['B1a'], second: false });
    expect(two.attacker - one.attacker).toBe(1);
    expect(two.defender).toBe(one.defender);
  });

  it('infantry garrisoning the heavy stone hamlet: +3 (Veteran 7 + 3 = 10)', () => {
    const s = charging(at(tacticalState(0), 'F1a', 24, 28 - 1.5, 0), 'F1a');
    expect(cacMods(s, { attackers: ['F1a'], defenders: ['B1c'], second: false }).defender).toBe(10);
  });
});

describe('the CAC chance node', () => {
  it('is one node of outcome classes with exact probabilities summing to 1, ties included', () => {
    const s = fight(columnAgainstLine(), ['F1a'], ['B1a']);
    const o = cer.chanceOutcomes(s);
    expect(o.reduce((n, x) => n + x.p, 0)).toBeCloseTo(1, 12);
    expect(o.map((x) => x.action)).toContain('cac tie');
    expect(o.map((x) => x.action)).toContain('cac defender 1-2 doubles');
    // the attacker's +1 edge: its winner never rolled lower, nor the defender's (it needs 2+ more on the dice)
    expect(o.some((x) => x.action.endsWith('lower'))).toBe(false);
    // a tie: 2D6 + 9 = 2D6 + 8
    let tie = 0;
    for (let a = 2; a <= 12; a++)
      for (let b = 2; b <= 12; b++) if (a + 9 === b + 8) tie += (6 - Math.abs(a - 7)) * (6 - Math.abs(b - 7));
    expect(o.find((x) => x.action === 'cac tie')!.p).toBeCloseTo(tie / 1296, 12);
  });
});

describe('victorious charging cavalry: "D & B at the end of phase" [Result explanations]', () => {
  const blownAtEnd = (s: S) =>
    (s.stack.find((f) => f.t === 'chargesDone') as { readonly blowAtEnd: readonly string[] }).blowAtEnd;
  /** B2a (light dragoons, line) at the halt, or counter-charging, against F2a (and F2b beside it) charging. */
  function cavalryFight(twoChargers: boolean, counterCharging: boolean): S {
    let s = at(tacticalState(0), 'B2a', 30, 20, 180);
    s = charging(at(s, 'F2a', 30, 20 - 0.625 - 0.625, 0), 'F2a');
    if (counterCharging) s = charging(s, 'B2a');
    if (twoChargers) s = charging(at(s, 'F2b', 24, 20 - 0.625 - 0.625, 0), 'F2b');
    return fight(s, twoChargers ? ['F2a', 'F2b'] : ['F2a'], ['B2a']);
  }
  it('every winning cavalry unit of the attacking side, the lead and the others', () => {
    const s = play(cavalryFight(true, false), 'cac attacker 5-7');
    expect(blownAtEnd(s).slice().sort()).toEqual(['F2a', 'F2b']);
  });
  it("a defender's counter-charging cavalry that wins counts as charging (C8); one that stood does not", () => {
    // a defender has no winner's options: the phase's charges end at once, and their D & B list is applied
    const counter = play(cavalryFight(false, true), 'cac defender 1-2');
    expect(top(counter).t).toBe('orders');
    expect(unitOf(counter, 'B2a')).toMatchObject({ disordered: true, blown: true });
    const stood = play(cavalryFight(false, false), 'cac defender 1-2');
    expect(top(stood).t).toBe('orders');
    expect(unitOf(stood, 'B2a')).toMatchObject({ disordered: false, blown: false });
  });
});

describe('capture and exploitation (C13)', () => {
  /** B1a (line, facing south) wins against F1a (the F1 leader attached) in front of it; F1b 2" off its front-right. */
  function britishAttack(): S {
    let s = tacticalState(1);
    s = at(s, 'B1a', 18, 20, 180);
    s = at(s, 'F1a', 18, 19.5 - 1.5, 0);
    s = at(s, 'F1b', 22, 16, 0);
    s = at(s, 'F1c', 36, 4, 0); // the skirmish screen out of the way
    s = charging(s, 'B1a');
    return fight(s, ['B1a'], ['F1a']);
  }
  it("the winner's doubles capture the loser's attached leader [Leader Casualties]", () => {
    const s = play(britishAttack(), 'cac attacker 3-4 doubles');
    expect(s.leaders.find((l) => l.id === 'F1-L')!.status).toBe('captured');
    expect(unitOf(s, 'F1a').attachedLeader).toBe(null);
    expect(top(s).t).toBe('replacement');
    const t = play(britishAttack(), 'cac attacker 3-4');
    expect(t.leaders.find((l) => l.id === 'F1-L')!.status).toBe('active');
    expect(figures(s, 'F1a')).toBe(22);
  });

  it('exploit 5" after a 3-4 win, into a new target after all initial CACs: a 2nd CAC, charging, no closing fire', () => {
    let s = play(britishAttack(), 'cac attacker 3-4');
    s = cer.settle(s);
    while (top(s).t !== 'cacWin') s = play(s, cer.chanceOutcomes(s)[0]!.action);
    expect(cer.legalActions(s)).toContain('exploit B1a 5');
    s = play(s, 'exploit B1a 5');
    expect(unitOf(s, 'B1a').phase.exploitMax).toBe(5);
    expect(top(s)).toMatchObject({ t: 'exploit', unit: 'B1a' });
    expect(cer.legalActions(s)).toEqual(['exploit B1a into F1b', 'exploit B1a ahead', 'halt B1a']);
    s = play(s, 'exploit B1a into F1b');
    expect(top(s)).toMatchObject({ t: 'cac', attackers: ['B1a'], defenders: ['F1b'], second: true });
    // "disordered after exploitation": Regular 6 + charging 1 − D 2 + its 6" line against a 2" column 2 + F1b's left
    // flank 3 (B1a comes from outside F1b's front sector) = 10
    expect(unitOf(s, 'B1a').disordered).toBe(true);
    expect(cacMods(s, { attackers: ['B1a'], defenders: ['F1b'], second: true }).attacker).toBe(10);
    // after its 2nd CAC it may not exploit again (maxCacPerPhase 2)
    s = play(s, 'cac attacker 5-7');
    while (cer.toMove(s).kind === 'chance') s = play(s, cer.chanceOutcomes(s)[0]!.action);
    expect(top(s).t).toBe('cacWin');
    expect(cer.legalActions(s).some((a) => a.startsWith('exploit'))).toBe(false);
    expect(unitOf(s, 'B1a').phase.cacCount).toBe(2);
  });

  it('the 0 row, infantry against infantry: both disordered and 1 KIA, the attacker re-fights at once in line', () => {
    let s = play(fight(columnAgainstLine(), ['F1a'], ['B1a']), 'cac tie');
    while (cer.toMove(s).kind === 'chance' && top(s).t !== 'cac') s = play(s, cer.chanceOutcomes(s)[0]!.action);
    expect(top(s)).toMatchObject({ t: 'cac', attackers: ['F1a'], defenders: ['B1a'], second: true });
    expect([figures(s, 'F1a'), figures(s, 'B1a')]).toEqual([23, 23]);
    expect(unitOf(s, 'F1a')).toMatchObject({ formation: 'line', disordered: true });
    // a second tie: no CAC left (2 a phase): fall back 2" or 4" in line, disordered
    s = play(s, 'cac tie');
    while (cer.toMove(s).kind === 'chance') s = play(s, cer.chanceOutcomes(s)[0]!.action);
    expect(cer.legalActions(s)).toEqual(['fall back F1a 2', 'fall back F1a 4']);
  });
});
