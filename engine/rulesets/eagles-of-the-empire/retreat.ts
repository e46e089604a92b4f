/**
 * Retreats [20.0–20.3] and the rout rule's arithmetic [19.0–19.2]. Pure.
 */
import type { AreaId, AreaMap } from '../../areas/map.ts';
import { entryCost, type MoveClass } from './movement.ts';

export interface RetreatWorld {
  readonly map: AreaMap;
  /** Enemy combat units in the area. */
  readonly enemyUnits: (a: AreaId) => boolean;
  /** Enemy combat units or HQ in the area ("enemy-occupied", A-47). */
  readonly enemyOccupied: (a: AreaId) => boolean;
  /** The whole retreating group fits (stacking and long-counter limits [13.6, 13.7]). */
  readonly fits: (a: AreaId) => boolean;
}

/**
 * Areas the group in `from` may retreat into, all together [20.0]: adjacent (diagonally only under [13.11] A and B1),
 * open to every class in the group, free of enemy combat units, within stacking; areas next to enemy-occupied areas
 * only when there is no other [20.0]. Empty: the units that must retreat are eliminated [20.1].
 */
export function retreatAreas(w: RetreatWorld, from: AreaId, classes: readonly MoveClass[]): AreaId[] {
  const { map } = w;
  const legal: AreaId[] = [];
  for (const to of map.neighbours(from)) {
    if (w.enemyUnits(to) || !w.fits(to)) continue;
    const b = map.boundary(from, to)!;
    if (b.kind === 'point' && b.corners.some((c) => w.enemyUnits(c))) continue; // [13.11 B1]
    if (classes.some((c) => entryCost(map, from, to, c) === Infinity)) continue; // prohibited terrain
    legal.push(to);
  }
  const safe = legal.filter((a) => !map.neighbours(a).some((n) => n !== from && w.enemyOccupied(n)));
  return safe.length ? safe : legal;
}

/** [19.0]: a long counter routs-checks when this segment's losses exceed half the steps it began it with. */
export function mustCheckRout(stepsAtSegmentStart: number, lostThisSegment: number): boolean {
  return lostThisSegment * 2 > stepsAtSegmentStart;
}

/**
 * Rout test [19.1]: d6 + modifiers ≤ area morale holds. +1 after a combined-arms or massed-column attack, +1 when the
 * area is densely stacked, −1 for an elite unit, −1 in a stance that helped against that attack (a square against a
 * charge). Cascade tests [19.21] use none of these but −1 for non-elite infantry and artillery, −2 for non-elite
 * cavalry; elite units, leaders and HQs do not cascade [19.2].
 */
export function routModifier(
  o:
    | { cascade?: false; combinedOrMassed?: boolean; dense?: boolean; elite?: boolean; helpfulStance?: boolean }
    | { cascade: true; kind: 'infantry' | 'artillery' | 'cavalry' },
): number {
  if (o.cascade) return o.kind === 'cavalry' ? -2 : -1;
  return (o.combinedOrMassed ? 1 : 0) + (o.dense ? 1 : 0) - (o.elite ? 1 : 0) - (o.helpfulStance ? 1 : 0);
}

/** P(the unit holds): d6 + modifier ≤ morale. */
export function holdChance(morale: number, modifier: number): number {
  let w = 0;
  for (let d = 1; d <= 6; d++) if (d + modifier <= morale) w++;
  return w / 6;
}
