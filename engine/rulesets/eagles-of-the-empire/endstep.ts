/**
 * The End Step's arithmetic [15.1–15.36]: the rally roll's target, recovery eligibility, and the candidates for
 * replacing an eliminated leader in the book's priority order. Pure: the state machine supplies the facts.
 */

/**
 * Rally [15.1]: a formation with no long counter adjacent to an enemy long counter flips with no roll (null);
 * otherwise the roll must not exceed the larger of the highest unmodified morale among those long counters and the
 * formation leader's tactical + initiative (tactical: the larger of a split rating, A-11).
 */
export function rallyTarget(
  lcMoralesAdjacentToEnemy: readonly number[],
  leader: { tactical: number; initiative: number } | null,
): number | null {
  if (!lcMoralesAdjacentToEnemy.length) return null;
  return Math.max(Math.max(...lcMoralesAdjacentToEnemy), leader ? leader.tactical + leader.initiative : 0);
}

export interface RecoveryFacts {
  readonly isLong: boolean;
  readonly lostSteps: boolean;
  /** Steps above its starting step would be regained (never past the start [15.21]). */
  readonly belowStart: boolean;
  readonly nearestEnemyLcDistance: number;
  readonly inEnemyArtilleryReach: boolean;
  readonly adjacentEnemyCavalry: boolean;
  readonly withChainLeader: boolean;
  readonly inCommand: boolean;
  readonly routed: boolean;
}

/** Whether a long counter may roll to recover a step [15.2]; null when it may, else the failed condition. */
export function recoveryBlocked(f: RecoveryFacts): string | null {
  if (!f.isLong) return 'only infantry long counters recover';
  if (!f.lostSteps || !f.belowStart) return 'it has no step to regain (never past its starting step [15.21])';
  if (f.nearestEnemyLcDistance < 2) return 'an enemy infantry long counter is adjacent';
  if (f.inEnemyArtilleryReach) return 'it is within the range and line of sight of enemy artillery';
  if (f.adjacentEnemyCavalry) return 'enemy cavalry is adjacent';
  if (!f.withChainLeader) return 'no leader of its chain of command is with it';
  if (!f.inCommand) return 'it is out of command';
  if (f.routed) return 'it is routed';
  return null;
}

export type Vacancy = 'armyCommander' | 'formation' | 'force' | 'chiefOfStaff';

export interface Candidate {
  readonly id: string;
  readonly role:
    | 'armyCommander'
    | 'intermediate'
    | 'formation'
    | 'force'
    | 'divisionBrigade'
    | 'subordinate'
    | 'artillery'
    | 'chiefOfStaff'
    | 'staffOfficer'
    | 'lineOfficer';
  /** Belongs to the formation whose leader is replaced. */
  readonly ofFormation: boolean;
  readonly available: boolean;
}

/**
 * Who may replace an eliminated leader [15.31–15.35], by priority: a formation leader's division/brigade leader must be
 * promoted when one is available (A), else a force leader or non-artillery subordinate of the formation (B), else a
 * staff or line officer (C), else the generic 1-0-1 (D); a Chief of Staff only by a staff officer, else a line officer;
 * a force leader by a non-artillery subordinate of the formation or a staff or line officer. 'generic' stands for the
 * counter-less 1-0-1 leader.
 */
export function replacementCandidates(v: Vacancy, cands: readonly Candidate[]): string[] {
  const ok = cands.filter((c) => c.available);
  const ids = (xs: readonly Candidate[]) => xs.map((c) => c.id);
  const officers = ok.filter((c) => c.role === 'staffOfficer');
  const line = ok.filter((c) => c.role === 'lineOfficer');
  switch (v) {
    case 'armyCommander':
      return ids(ok.filter((c) => c.role === 'formation'));
    case 'formation': {
      const a = ok.filter((c) => c.ofFormation && c.role === 'divisionBrigade');
      if (a.length) return ids(a);
      const b = ok.filter((c) => c.ofFormation && (c.role === 'force' || c.role === 'subordinate'));
      if (b.length) return ids(b);
      const c = [...officers, ...line];
      return c.length ? ids(c) : ['generic'];
    }
    case 'force': {
      const b = ok.filter((c) => c.ofFormation && c.role === 'subordinate');
      const c = [...b, ...officers, ...line];
      return ids(c);
    }
    case 'chiefOfStaff':
      return officers.length ? ids(officers) : ids(line);
  }
}
