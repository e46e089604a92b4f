/**
 * Area morale [18.0–18.5]: one value per side per area taking part in a combat.
 *  - an elite infantry long counter sets it, even if not the largest [18.5] (several: the largest, ties the lower);
 *  - else the largest infantry long counter by current steps [18.0] (ties: the lower morale);
 *  - else the morale most represented among the remaining steps, each unit voting its current morale once per step,
 *    artillery as 3 [18.1]; equal votes: the lower [18.2];
 *  - a long counter with attached artillery counts +1 [18.3]; reverse slope +1 [17.22]; massed column +1 [14.73];
 *  - plus the tactical rating of the senior leader present in the chain of command of the area's units [18.4].
 */

export interface MoraleUnit {
  readonly kind: 'infantry' | 'cavalry' | 'artillery' | 'hq';
  readonly long: boolean;
  readonly elite: boolean;
  /** Current step's printed morale (artillery: 3 [2.21]). */
  readonly morale: number;
  readonly stepsLeft: number;
  readonly attachedArtillery?: boolean;
  readonly reverseSlope?: boolean;
  readonly massedColumn?: boolean;
}

function lcValue(u: MoraleUnit): number {
  return u.morale + (u.attachedArtillery ? 1 : 0) + (u.reverseSlope ? 1 : 0) + (u.massedColumn ? 1 : 0);
}

function pickLc(lcs: readonly MoraleUnit[]): MoraleUnit {
  const most = Math.max(...lcs.map((u) => u.stepsLeft));
  return lcs.filter((u) => u.stepsLeft === most).sort((a, b) => a.morale - b.morale)[0]!;
}

/** The area's morale before the leader [18.0–18.3, 18.5], or null when the side has no unit with morale there. */
export function baseAreaMorale(units: readonly MoraleUnit[]): number | null {
  const lcs = units.filter((u) => u.kind === 'infantry' && u.long && u.stepsLeft > 0);
  const elite = lcs.filter((u) => u.elite);
  if (elite.length) return lcValue(pickLc(elite));
  if (lcs.length) return lcValue(pickLc(lcs));
  const votes = new Map<number, number>();
  for (const u of units) {
    if (u.kind === 'hq' || u.stepsLeft <= 0) continue;
    const m = u.kind === 'artillery' ? 3 : u.morale + (u.reverseSlope ? 1 : 0);
    votes.set(m, (votes.get(m) ?? 0) + u.stepsLeft);
  }
  if (!votes.size) return null;
  const top = Math.max(...votes.values());
  return Math.min(...[...votes].filter(([, n]) => n === top).map(([m]) => m));
}

/** Area morale with the senior leader's tactical rating added [18.4]. */
export function areaMorale(units: readonly MoraleUnit[], seniorLeaderTactical: number): number | null {
  const b = baseAreaMorale(units);
  return b === null ? null : b + seniorLeaderTactical;
}
