import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import { type Mover, type StepWorld, legalSteps } from './steps.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const map = AreaMap.parse(
  JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')),
);

const world = (enemy: number[] = [], full: number[] = [], friendsFull = false): StepWorld => ({
  map,
  enemyBlocks: (a) => enemy.includes(a),
  enemyUnits: (a) => enemy.includes(a),
  fits: (a) => !full.includes(a),
  cornersAllFullOfFriends: () => friendsFull,
});
const mover = (o: Partial<Mover> = {}): Mover => ({
  classes: ['infantry'],
  inCommand: true,
  roadAligned: null,
  hasLong: false,
  longIn: () => false,
  ...o,
});

describe('movement steps [13.1–13.7, 13.11, 9.4]', () => {
  it('lists affordable steps with the cheapest mode: the road along 13–18', () => {
    const s = legalSteps(world(), mover({ classes: ['cavalry'] }), 14, 1);
    expect(s.find((x) => x.to === 15)).toEqual({ to: 15, mode: 'road', cost: 0.5 });
    expect(s.find((x) => x.to === 8)).toBeUndefined(); // the village costs cavalry 2
  });
  it('a long counter uses the road only when aligned along it (A-30) and not into another LC [13.6]', () => {
    expect(legalSteps(world(), mover({ hasLong: true, roadAligned: null }), 14, 1).find((x) => x.to === 15)!.mode).toBe(
      'normal',
    );
    expect(
      legalSteps(world(), mover({ hasLong: true, roadAligned: 'main-road' }), 14, 1).find((x) => x.to === 15)!.mode,
    ).toBe('road');
    expect(
      legalSteps(world(), mover({ hasLong: true, roadAligned: 'main-road', longIn: (a) => a === 15 }), 14, 1).find(
        (x) => x.to === 15,
      )!.mode,
    ).toBe('normal');
  });
  it('no road rate next to the enemy [13.34]; never into enemy units [13.12]; stacking [13.6]', () => {
    expect(legalSteps(world([22]), mover({ classes: ['cavalry'] }), 15, 2).find((x) => x.to === 16)).toEqual({
      to: 16,
      mode: 'normal',
      cost: 2,
    });
    expect(legalSteps(world([16]), mover(), 15, 2).some((x) => x.to === 16)).toBe(false);
    expect(legalSteps(world([], [16]), mover(), 15, 2).some((x) => x.to === 16)).toBe(false);
  });
  it('out of command: not into areas next to the enemy [9.4]', () => {
    const s = legalSteps(world([11]), mover({ inCommand: false }), 9, 2).map((x) => x.to);
    expect(s).not.toContain(10);
    expect(s).toContain(8);
  });
  it('diagonals: enemy corners close them; all-friendly full corners too [13.11 B1, B2]', () => {
    expect(legalSteps(world([10]), mover(), 9, 2).some((x) => x.to === 16)).toBe(false); // corner 10
    expect(legalSteps(world(), mover(), 9, 2).some((x) => x.to === 16)).toBe(true);
    expect(legalSteps(world([], [], true), mover(), 9, 2).some((x) => x.to === 16)).toBe(false);
  });
});
