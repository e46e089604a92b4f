import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import { type RetreatWorld, holdChance, mustCheckRout, retreatAreas, routModifier } from './retreat.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const map = AreaMap.parse(
  JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')),
);
const w = (enemy: number[], full: number[] = []): RetreatWorld => ({
  map,
  enemyUnits: (a) => enemy.includes(a),
  enemyOccupied: (a) => enemy.includes(a),
  fits: (a) => !full.includes(a),
});

describe('retreats [20.0–20.3] on Hohenwald', () => {
  it('prefers areas not adjacent to the enemy, and falls back to them when nothing else is open', () => {
    // infantry in 10 beaten from 9: 4 and 16 touch 9 diagonally, 3 and 15 have 9 as a corner
    expect(retreatAreas(w([9]), 10, ['infantry'])).toEqual([5, 11, 17]);
    // with 12 held too, every open area touches the enemy: all of them are allowed
    expect(retreatAreas(w([9, 12]), 10, ['infantry'])).toEqual([4, 5, 11, 16, 17]);
  });
  it('cavalry cannot retreat into the swamp; a full area is closed; diagonals need enemy-free corners', () => {
    expect(retreatAreas(w([9]), 10, ['cavalry'])).not.toContain(4);
    expect(retreatAreas(w([9], [16]), 10, ['infantry'])).not.toContain(16);
    expect(retreatAreas(w([9, 11]), 10, ['infantry'])).not.toContain(5); // 10→5 passes corners 4 and 11
  });
  it('with no legal area the retreating units are eliminated [20.1]', () => {
    expect(retreatAreas(w([1, 7, 8, 2, 3, 9, 14, 13, 15]), 8, ['infantry'])).toEqual([]);
  });
});

describe('rout [19.0–19.2] (A-46)', () => {
  it('checks when the losses exceed half the steps held at the segment start', () => {
    expect(mustCheckRout(5, 2)).toBe(false);
    expect(mustCheckRout(5, 3)).toBe(true);
    expect(mustCheckRout(4, 2)).toBe(false);
  });
  it('modifiers and odds', () => {
    expect(routModifier({ combinedOrMassed: true, dense: true, elite: true })).toBe(1);
    expect(routModifier({ cascade: true, kind: 'cavalry' })).toBe(-2);
    expect(holdChance(4, 1)).toBeCloseTo(3 / 6, 12);
    expect(holdChance(4, -2)).toBe(1);
  });
});
