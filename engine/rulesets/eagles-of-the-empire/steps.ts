/**
 * One movement step [13.1–13.7, 13.11, 9.4]: where a mover group may go next from its area
 * with the movement points it has left, and at what cost, in normal, road or trail mode. Pure: occupancy and
 * stacking come from the caller.
 */
import type { AreaId, AreaMap } from '../../areas/map.ts';
import { entryCost, type MoveClass, type MoveMode } from './movement.ts';

export interface StepWorld {
  readonly map: AreaMap;
  /** Enemy combat units (or the enemy HQ, A-56) in the area: never entered [13.12]. */
  readonly enemyBlocks: (a: AreaId) => boolean;
  /** Enemy combat units in the area (diagonal corners [13.11 B1], road use [13.34]). */
  readonly enemyUnits: (a: AreaId) => boolean;
  /** The group fits in the area now (stacking SP [13.6] and long-counter limits [13.7]). */
  readonly fits: (a: AreaId) => boolean;
  /** Every corner area of a diagonal holds friendly units and the group fits in none of them [13.11 B2]. */
  readonly cornersAllFullOfFriends: (corners: readonly AreaId[]) => boolean;
}

export interface Mover {
  readonly classes: readonly MoveClass[];
  readonly inCommand: boolean;
  /** The group includes a long counter aligned along this road, if any [13.35]. */
  readonly roadAligned: string | null;
  /** The group includes a long counter (no road move into an area holding one [13.6]). */
  readonly hasLong: boolean;
  /** The area already holds a long counter (for that road rule). */
  readonly longIn: (a: AreaId) => boolean;
}

export interface StepOption {
  readonly to: AreaId;
  readonly mode: MoveMode;
  readonly cost: number;
}

function adjacentToEnemy(w: StepWorld, a: AreaId): boolean {
  for (const n of w.map.neighbours(a)) if (w.enemyBlocks(n)) return true;
  return false;
}

/** Steps the group may take from `from` with `mpLeft` (half points allowed), cheapest mode per destination first. */
export function legalSteps(w: StepWorld, m: Mover, from: AreaId, mpLeft: number): StepOption[] {
  const { map } = w;
  const out: StepOption[] = [];
  for (const to of map.neighbours(from)) {
    if (w.enemyBlocks(to)) continue; // [13.12]
    if (!w.fits(to)) continue; // [13.6, 13.7]
    // [9.4] out of command: no entering an area next to the enemy
    if (!m.inCommand && adjacentToEnemy(w, to)) continue;
    const b = map.boundary(from, to)!;
    if (b.kind === 'point') {
      let enemyCorner = false;
      for (const c of b.corners)
        if (w.enemyUnits(c)) {
          enemyCorner = true;
          break;
        }
      if (enemyCorner) continue; // [13.11 B1]
      if (w.cornersAllFullOfFriends(b.corners)) continue; // [13.11 B2]
    }
    // the modes in order, normal first: [13.34] no road or trail rate when entering an area adjacent to an enemy unit
    let road = false;
    let trail = false;
    if (b.kind === 'side') {
      let nearEnemy = false;
      for (const n of map.neighbours(to))
        if (w.enemyUnits(n)) {
          nearEnemy = true;
          break;
        }
      if (!nearEnemy) {
        road =
          !!b.road &&
          (!m.hasLong || (m.roadAligned !== null && roadThrough(map, m.roadAligned, from, to))) &&
          !(m.hasLong && m.longIn(to));
        trail = !!b.trail;
      }
    }
    let best: StepOption | null = null;
    for (let i = 0; i < 3; i++) {
      const mode: MoveMode = i === 0 ? 'normal' : i === 1 ? 'road' : 'trail';
      if ((i === 1 && !road) || (i === 2 && !trail)) continue;
      let cost = 0;
      for (const c of m.classes) cost = Math.max(cost, entryCost(map, from, to, c, mode)); // a stack pays its highest cost
      if (cost <= mpLeft && (!best || cost < best.cost)) best = { to, mode, cost };
    }
    if (best) out.push(best);
  }
  return out.sort((a, b) => a.to - b.to);
}

/** Whether road `id` runs across `from`|`to`. */
function roadThrough(map: AreaMap, id: string, from: AreaId, to: AreaId): boolean {
  const r = map.json.roads.find((x) => x.id === id);
  if (!r) return false;
  for (let i = 1; i < r.areas.length; i++) {
    const a = r.areas[i - 1]!;
    const b = r.areas[i]!;
    if ((a === from && b === to) || (a === to && b === from)) return true;
  }
  return false;
}
