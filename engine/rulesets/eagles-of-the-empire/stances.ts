/**
 * Defensive stances [17.0–17.24]: when a side's units in an area may form square, the square-under-duress
 * roll's target, and where reverse slope is possible. Pure.
 */
import type { AreaId, AreaMap } from '../../areas/map.ts';

export interface StanceUnit {
  readonly kind: 'infantry' | 'cavalry' | 'artillery' | 'hq';
  readonly sp: number;
  /** Part of an extended line: no square, no reverse slope [16.9]. */
  readonly extended?: boolean;
  readonly routed?: boolean;
}

/** [17.1] a side may form square in an area with at least 1 infantry SP and less cavalry + artillery SP than infantry SP. */
export function squareAllowed(units: readonly StanceUnit[], scenarioAllows: boolean): { ok: boolean; why?: string } {
  if (!scenarioAllows) return { ok: false, why: 'the scenario forbids squares [17.0]' };
  if (units.some((u) => u.kind === 'infantry' && (u.extended || u.routed)))
    return { ok: false, why: 'an extended line or a routed unit cannot form square [16.9] (A-46)' };
  const inf = units.filter((u) => u.kind === 'infantry').reduce((a, u) => a + u.sp, 0);
  const other = units.filter((u) => u.kind === 'cavalry' || u.kind === 'artillery').reduce((a, u) => a + u.sp, 0);
  if (inf < 1) return { ok: false, why: 'no infantry strength in the area [17.1]' };
  if (other >= inf)
    return { ok: false, why: `cavalry and artillery (${other} SP) are not fewer than the infantry (${inf} SP) [17.1]` };
  return { ok: true };
}

/**
 * Square under duress [17.12]: d6 ≤ the morale of the largest infantry unit (most steps; ties: the owner's better, A-12)
 * plus the tactical rating of the senior non-cavalry, non-artillery leader present; the attached-artillery +1 of
 * [18.3] does not count.
 */
export function squareTarget(
  infantry: readonly { steps: number; morale: number }[],
  seniorLeaderTactical: number,
): number {
  if (!infantry.length) throw new Error('square under duress needs infantry [17.12]');
  const most = Math.max(...infantry.map((u) => u.steps));
  const morale = Math.max(...infantry.filter((u) => u.steps === most).map((u) => u.morale));
  return morale + seniorLeaderTactical;
}

/** [17.21] reverse slope needs a slope or escarpment boundary on the area, on either side of it. */
export function reverseSlopePossible(map: AreaMap, area: AreaId): boolean {
  return map.sideNeighbours(area).some((n) => {
    const b = map.boundary(area, n)!;
    return b.terrain.includes('slope') || b.terrain.includes('escarpment');
  });
}
