import { describe, expect, it } from 'vitest';
import { type LossUnit, allocate, hitChoices } from './losses.ts';

const lc = (id: string, steps: number, longSteps = steps, o: Partial<LossUnit> = {}): LossUnit => ({
  id,
  kind: 'infantry',
  long: true,
  longStepsLeft: longSteps,
  attachedTo: null,
  massedColumn: false,
  stepsLeft: steps,
  lostNow: 0,
  ...o,
});
const art = (id: string, steps: number, o: Partial<LossUnit> = {}): LossUnit => ({
  id,
  kind: 'artillery',
  long: false,
  attachedTo: null,
  massedColumn: false,
  stepsLeft: steps,
  lostNow: 0,
  ...o,
});

describe('loss allocation, one hit at a time (A-42)', () => {
  it('DV-12: the first hit on the LC, the second forced onto the artillery, the third the owner’s choice', () => {
    const units = [lc('LC', 3), art('A', 2)];
    expect(hitChoices(units, { firstLoss: true }).ids).toEqual(['LC']);
    const asked: string[][] = [];
    const lost = allocate(units, 3, {}, (ids) => (asked.push([...ids]), 'LC'));
    expect(asked).toEqual([['LC', 'A']]);
    expect(Object.fromEntries(lost)).toEqual({ LC: 2, A: 1 });
  });
  it('DV-13: four hits on LC (4 steps) + artillery (2): even spread leaves SP 6 → 2 either way', () => {
    const lcSp = [4, 3, 2, 1];
    const artSp = [2, 1, 0];
    const lost = allocate([lc('LC', 4, 3), art('A', 2)], 4, {}, () => 'LC');
    // the rule forces the 4th hit onto the artillery (no unit loses a 3rd step before every unit has lost 2); the
    // digest's DV-13 text puts it on the LC, but the total left is the same: 2 of 6 SP, more than half lost
    expect(Object.fromEntries(lost)).toEqual({ LC: 2, A: 2 });
    expect(lcSp[lost.get('LC')!]! + artSp[lost.get('A')!]!).toBe(2);
  });
  it('attached artillery is exempt until its LC becomes a short counter; the HQ until it is alone', () => {
    const units = [lc('LC', 4, 2), art('att', 2, { attachedTo: 'LC' }), { ...art('hq', 1), kind: 'hq' as const }];
    const order: string[] = [];
    const lost = allocate(units, 4, {}, (ids) => {
      order.push(ids.join('|'));
      return ids[0]!;
    });
    // hits 1–2 must go to the LC (the artillery is exempt while it is long); once it is a short counter the artillery
    // joins, and the even spread sends hits 3–4 to it; the HQ never takes one while others live — no choice arises
    expect(order).toEqual([]);
    expect(Object.fromEntries(lost)).toEqual({ LC: 2, att: 2 });
    expect(hitChoices([{ ...art('hq', 1), kind: 'hq' }], { firstLoss: true }).ids).toEqual(['hq']);
  });
  it('massed column takes the hits first, two steps each; counter-battery strikes artillery only, two steps each (DV-20)', () => {
    expect(hitChoices([lc('MC', 4, 4, { massedColumn: true }), lc('LC', 4)], { firstLoss: true })).toEqual({
      ids: ['MC'],
      steps: 2,
    });
    const five = [
      art('a1', 2),
      art('a2', 2),
      art('a3', 2),
      art('a4', 2),
      art('park', 1, { artilleryPark: true }),
      lc('LC', 4),
    ];
    const lost = allocate(five, 3, { counterBattery: true }, (ids) => ids[0]!);
    expect([...lost.values()].reduce((a, b) => a + b, 0)).toBe(6);
    expect(lost.has('LC')).toBe(false);
  });
  it('wastes hits beyond the steps available [14.3]', () => {
    const lost = allocate([art('A', 1)], 5, {}, (ids) => ids[0]!);
    expect(Object.fromEntries(lost)).toEqual({ A: 1 });
  });
});
