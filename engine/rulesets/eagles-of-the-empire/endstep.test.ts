import { describe, expect, it } from 'vitest';
import { type Candidate, rallyTarget, recoveryBlocked, replacementCandidates } from './endstep.ts';

describe('End Step [15.1–15.3]', () => {
  it('rally: no roll when no LC faces an enemy LC; else the better of morale and tactical + initiative (A-48)', () => {
    expect(rallyTarget([], { tactical: 2, initiative: 4 })).toBeNull();
    expect(rallyTarget([4, 5], { tactical: 2, initiative: 4 })).toBe(6);
    expect(rallyTarget([5], { tactical: 1, initiative: 2 })).toBe(5);
  });
  it('recovery names the condition that stops it [15.2] (A-49)', () => {
    const ok = {
      isLong: true,
      lostSteps: true,
      belowStart: true,
      nearestEnemyLcDistance: 3,
      inEnemyArtilleryReach: false,
      adjacentEnemyCavalry: false,
      withChainLeader: true,
      inCommand: true,
      routed: false,
    };
    expect(recoveryBlocked(ok)).toBeNull();
    expect(recoveryBlocked({ ...ok, nearestEnemyLcDistance: 1 })).toMatch(/adjacent/);
    expect(recoveryBlocked({ ...ok, inEnemyArtilleryReach: true })).toMatch(/artillery/);
    expect(recoveryBlocked({ ...ok, belowStart: false })).toMatch(/starting step/);
  });
  it('replacement follows the priority lists [15.32–15.34]', () => {
    const c = (id: string, role: Candidate['role'], ofFormation = true, available = true): Candidate => ({
      id,
      role,
      ofFormation,
      available,
    });
    const pool = [
      c('roussel', 'divisionBrigade'),
      c('colmar', 'force'),
      c('lenoir', 'staffOfficer', false),
      c('line', 'lineOfficer', false),
    ];
    expect(replacementCandidates('formation', pool)).toEqual(['roussel']); // A: must be promoted
    expect(replacementCandidates('formation', pool.slice(1))).toEqual(['colmar']); // B
    expect(replacementCandidates('formation', pool.slice(2))).toEqual(['lenoir', 'line']); // C
    expect(replacementCandidates('formation', [])).toEqual(['generic']); // D: the 1-0-1
    expect(replacementCandidates('chiefOfStaff', pool)).toEqual(['lenoir']);
    expect(replacementCandidates('chiefOfStaff', [c('line', 'lineOfficer', false)])).toEqual(['line']);
    expect(replacementCandidates('armyCommander', [c('aubrac', 'formation', false), c('colmar', 'force')])).toEqual([
      'aubrac',
    ]);
  });
});
