import { describe, expect, it } from 'vitest';
import { areaMorale, baseAreaMorale, type MoraleUnit } from './morale.ts';

const u = (o: Partial<MoraleUnit>): MoraleUnit => ({
  kind: 'infantry',
  long: false,
  elite: false,
  morale: 4,
  stepsLeft: 1,
  ...o,
});

describe('area morale [18.0–18.5] (A-43)', () => {
  it('the largest long counter sets it; ties go to the lower morale', () => {
    expect(
      baseAreaMorale([u({ long: true, morale: 5, stepsLeft: 5 }), u({ long: true, morale: 3, stepsLeft: 4 })]),
    ).toBe(5);
    expect(
      baseAreaMorale([u({ long: true, morale: 5, stepsLeft: 4 }), u({ long: true, morale: 3, stepsLeft: 4 })]),
    ).toBe(3);
  });
  it('an elite long counter sets it even when smaller [18.5]; attached artillery adds 1 [18.3]', () => {
    expect(
      baseAreaMorale([
        u({ long: true, morale: 3, stepsLeft: 5 }),
        u({ long: true, elite: true, morale: 5, stepsLeft: 2 }),
      ]),
    ).toBe(5);
    expect(baseAreaMorale([u({ long: true, morale: 4, stepsLeft: 4, attachedArtillery: true })])).toBe(5);
  });
  it('without a long counter the steps vote, artillery as 3, equal votes to the lower [18.1, 18.2]', () => {
    // cavalry a2-5 (1 vote... 2 steps left at morale 5) + artillery 2 steps (3) → tie → 3
    expect(
      baseAreaMorale([
        u({ kind: 'cavalry', morale: 5, stepsLeft: 2 }),
        u({ kind: 'artillery', morale: 3, stepsLeft: 2 }),
      ]),
    ).toBe(3);
    expect(
      baseAreaMorale([u({ kind: 'cavalry', morale: 5, stepsLeft: 2 }), u({ kind: 'artillery', stepsLeft: 1 })]),
    ).toBe(5);
    expect(baseAreaMorale([{ ...u({}), kind: 'hq' }])).toBeNull();
  });
  it('adds the senior leader’s rating [18.4]', () => {
    expect(areaMorale([u({ long: true, morale: 4, stepsLeft: 3 })], 2)).toBe(6);
  });
});
