import { describe, expect, it } from 'vitest';
import {
  activations,
  bombardmentDrm,
  chargeDefenceDice,
  diceFor,
  extendedSplit,
  grandChargeLaunches,
  leaderBonus,
  leaderCasualtyModifier,
  leaderLossChance,
  movementAllowance,
  pursuit,
  repulseFireDice,
  stackingLimits,
  subgroupDice,
} from './tables.ts';

describe('Dice Table [21.0] (RB-DT vectors, A-01)', () => {
  const table: Record<number, [number, number, number, number]> = {
    1: [1, 1, 0, 2],
    2: [2, 1, 1, 3],
    3: [2, 2, 1, 4],
    4: [3, 2, 1, 5],
    5: [4, 3, 1, 7],
    6: [5, 3, 2, 8],
    7: [5, 4, 2, 9],
    8: [6, 4, 2, 10],
    9: [7, 5, 2, 12],
    10: [8, 5, 3, 13],
  };
  it('reproduces every cell', () => {
    for (const [base, [m25, m50, m75, p25]] of Object.entries(table)) {
      const b = Number(base);
      expect([diceFor(b, -25), diceFor(b, -50), diceFor(b, -75), diceFor(b, 25)], `base ${b}`).toEqual([
        m25,
        m50,
        m75,
        p25,
      ]);
    }
  });
  it('adds percentages before converting, and extends beyond the table', () => {
    expect(diceFor(4, -25 + 25)).toBe(4);
    expect(diceFor(6, -25 - 50)).toBe(2);
    expect(diceFor(3, -100)).toBe(0);
    expect(diceFor(12, -25)).toBe(9);
    expect(diceFor(12, 25)).toBe(15);
  });
});

describe('leaders [3.1, 3.2]', () => {
  it('RB-01/02: the bonus is capped at the units’ strength', () => {
    expect(2 + leaderBonus(3, 2)).toBe(4);
    expect(3 + leaderBonus(3, 3)).toBe(6);
  });
  it('DV-04..07: casualty modifiers', () => {
    expect(11 + leaderCasualtyModifier({ stepsLost: 3, allEliminated: false })).toBe(12);
    expect(9 + leaderCasualtyModifier({ accompanying: true, stepsLost: 2, allEliminated: true })).toBe(12);
    expect(11 + leaderCasualtyModifier({ stepsLost: 2, allEliminated: false })).toBe(11);
    expect(9 + leaderCasualtyModifier({ stepsLost: 1, allEliminated: true, hqEliminated: true })).toBe(12);
    expect(leaderCasualtyModifier({ accompanying: true, stepsLost: 9, allEliminated: true, hqEliminated: true })).toBe(
      3,
    );
    expect(leaderLossChance(0)).toBeCloseTo(1 / 36, 12);
    expect(leaderLossChance(3)).toBeCloseTo(10 / 36, 12);
  });
});

describe('activation [8.1–8.13]', () => {
  it('RB-03..06, DV-01/02', () => {
    expect(activations(5, 3, 9)).toBe(2);
    expect(activations(2, 2, 9)).toBe(1);
    expect(activations(5, 6, 9)).toBe('fail');
    expect(activations(2, 4, 9)).toBe('fail');
    expect(activations(4, 1, 3)).toBe(3);
    expect(activations(4, 1, 2)).toBe(2);
    expect(activations(3, 4, 5)).toBe('fail');
  });
});

describe('cavalry charges [10.2–10.91]', () => {
  it('DV-08/09: the defender’s dice, and enfiladed units that cannot fire', () => {
    const units = [
      { kind: 'infantry' as const, sp: 5, canFire: true },
      { kind: 'artillery' as const, sp: 2, canFire: true },
      { kind: 'cavalry' as const, sp: 2, canFire: true },
    ];
    expect(chargeDefenceDice(units, 2)).toBe(10);
    expect(chargeDefenceDice([{ ...units[0]!, canFire: false }, { ...units[1]!, canFire: false }, units[2]!], 2)).toBe(
      6,
    );
  });
  it('DV-10: subgroups by DRM keep the plain total (6 dice, 2 at +1)', () => {
    const r = subgroupDice(
      [
        { id: 1, sp: 3, pct: -25, drm: 1, leaderMay: true },
        { id: 2, sp: 2, pct: -25, drm: 0, leaderMay: true },
      ],
      3,
      0,
    );
    expect(r.dice.reduce((a, d) => a + d.n, 0)).toBe(6);
    expect(r.dice.find((d) => d.drm === 1)!.n).toBe(2);
  });
  it('DV-11: a failed square gives every charging die +1', () => {
    const r = subgroupDice([{ id: 1, sp: 3, pct: 0, drm: 0, leaderMay: true }], 0, 1);
    expect(r.dice).toEqual([{ n: 3, drm: 1 }]);
  });
  it('DV-12: the repulse fire (the LC only, halved)', () => {
    expect(
      repulseFireDice([
        { kind: 'infantry', sp: 3, canFire: true },
        { kind: 'artillery', sp: 1, canFire: true },
      ]),
    ).toBe(2);
  });
  it('DV-14/15: pursuit with the leader added or subtracted', () => {
    expect(pursuit(5, 2, 4).subtract).toBe(true);
    expect(pursuit(2, 2, 4).add).toBe(true); // cannot avoid pursuing
    expect(pursuit(3, 2, 4).add).toBe(false);
  });
  it('DV-16: a Grand Charge launches only on less than the rating', () => {
    expect(grandChargeLaunches(4, 4)).toBe(false);
    expect(grandChargeLaunches(3, 4)).toBe(true);
  });
});

describe('bombardment DRM caps [12.31, 12.32]', () => {
  it('DV-17: +5 −1 is capped at +2; DV-18: −2 is floored at −1', () => {
    expect(bombardmentDrm(5, 1)).toBe(2);
    expect(bombardmentDrm(0, 2)).toBe(-1);
  });
});

describe('movement and stacking [13.2, 13.63]', () => {
  it('RB-22: allowances', () => {
    expect(
      ['leader', 'cavalry', 'horse-artillery', 'hq', 'infantry', 'artillery', 'infantry-with-artillery'].map((k) =>
        movementAllowance(k as never),
      ),
    ).toEqual([4, 3, 3, 2, 2, 2, 1]);
  });
  it('DV-35: out of command in rain with attached artillery floors at 1; the artillery leader adds after the floor', () => {
    expect(movementAllowance('infantry-with-artillery', { outOfCommand: true, weather: 'rain' })).toBe(1);
    expect(movementAllowance('artillery', { weather: 'snow', artilleryLeader: true })).toBe(2);
  });
  it('RB-20/21: area classes', () => {
    expect(stackingLimits('normal')).toEqual({ max: 15, denseFrom: 11, maxLC: 1 });
    expect(stackingLimits('circle2')).toEqual({ max: 21, denseFrom: 15, maxLC: 2 });
    expect(stackingLimits('circle3')).toEqual({ max: 25, denseFrom: 18, maxLC: 3 });
    expect(stackingLimits('town', 2)).toEqual({ max: 12, denseFrom: null, maxLC: 2 });
  });
});

describe('extended lines [16.1–16.8]', () => {
  it('RB-16..19', () => {
    expect(extendedSplit(5, 'half')).toEqual({ lc: 3, markers: [2] });
    expect(extendedSplit(2, 'half')).toEqual({ lc: 1, markers: [1] });
    expect(extendedSplit(1, 'half')).toEqual({ lc: 1, markers: [] });
    expect(extendedSplit(5, 'thirds')).toEqual({ lc: 3, markers: [1, 1] });
  });
  it('DV-61: a 7-SP long counter with two 1/3 markers → 2 and 2, the LC 3', () => {
    expect(extendedSplit(7, 'thirds')).toEqual({ lc: 3, markers: [2, 2] });
  });
});
