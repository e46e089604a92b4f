/** Line of sight over height levels: same level blocks; one level up, a blind zone X long; two levels up, X/2. */
import { describe, expect, it } from 'vitest';
import { rectCorners } from '../geometry/geometry.ts';
import { type LevelObstacle, blindZone, levelSight } from './levels.ts';

const IN = 100;
// an obstacle on the ground (a unit, level-one) 10" east of an observer at x = 0, 1" deep
const wall: LevelObstacle = {
  shape: rectCorners({ x: 1050, y: 0, w: 100, d: 400, h: 90 }),
  closed: true,
  base: 0,
  top: 1,
};
const at = (x: number, level: number) => ({ at: { x: x * IN, y: 0 }, level });

describe('levelSight', () => {
  it('is blocked at the same level, whatever the distance behind', () => {
    expect(levelSight(at(0, 0), at(30, 0), [wall])).toBe(false);
  });
  it('one level up: blind for X behind the obstacle (the X = 10" example)', () => {
    expect(levelSight(at(0, 1), at(20, 0), [wall])).toBe(false); // 9" behind the far side
    expect(levelSight(at(0, 1), at(22, 0), [wall])).toBe(true); // 11" behind
  });
  it('two levels up: blind for X/2', () => {
    expect(levelSight(at(0, 2), at(15, 0), [wall])).toBe(false);
    expect(levelSight(at(0, 2), at(17, 0), [wall])).toBe(true);
  });
  it('is symmetric: a low observer sees a high target past the obstacle as the target would see it', () => {
    expect(levelSight(at(22, 0), at(0, 1), [wall])).toBe(true);
    expect(levelSight(at(20, 0), at(0, 1), [wall])).toBe(false);
  });
  it('a target at the obstacle top level is not hidden by it', () => {
    expect(levelSight(at(0, 1), at(12, 1), [wall])).toBe(true);
  });
  it('ends inside an area see out within its allowance', () => {
    const wood: LevelObstacle = {
      ...wall,
      shape: rectCorners({ x: 1500, y: 0, w: 1000, d: 1000, h: 0 }),
      seeInside: 4 * IN,
    };
    expect(levelSight(at(0, 0), at(13, 0), [wood])).toBe(true); // 3" inside
    expect(levelSight(at(0, 0), at(16, 0), [wood])).toBe(false); // 6" inside
  });
  it('blindZone', () => {
    expect(blindZone(10, 1, 0)).toBe(10);
    expect(blindZone(10, 2, 0)).toBe(5);
    expect(blindZone(10, 0, 0)).toBe(Number.POSITIVE_INFINITY);
  });
});
