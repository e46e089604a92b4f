import { describe, expect, it } from 'vitest';
import { type AttachFacts, assignmentLimit, attachBlocked } from './assignment.ts';

describe('Assignment Segment [11.1–11.29]', () => {
  it('the HQ assigns up to its radius, +1 with the CoS; without an HQ the army commander (A-22)', () => {
    expect(assignmentLimit({ hqRadius: 3, cosWithHq: true, armyCommanderRadius: 4 })).toBe(4);
    expect(assignmentLimit({ hqRadius: 3, cosWithHq: false, armyCommanderRadius: 4 })).toBe(3);
    expect(assignmentLimit({ hqRadius: null, cosWithHq: false, armyCommanderRadius: 5 })).toBe(5);
  });
  it('attachment rules [11.21–11.23, 14.71] (A-23)', () => {
    const ok: AttachFacts = {
      artKind: 'foot',
      artFormation: 'f-II',
      artActive: true,
      artArea: 14,
      lcFormation: 'f-I',
      lcActive: true,
      lcArea: 14,
      lcAttached: 0,
      lcMassedColumn: false,
      lcRouted: false,
    };
    expect(attachBlocked(ok)).toBeNull(); // the body text lets foot artillery attach across formations
    expect(attachBlocked({ ...ok, sameFormation: 'all' })).toMatch(/A-23/);
    expect(attachBlocked({ ...ok, artKind: 'heavy' })).toMatch(/11\.21/);
    expect(attachBlocked({ ...ok, artKind: 'horse' })).toMatch(/11\.22/);
    expect(attachBlocked({ ...ok, lcAttached: 2 })).toMatch(/11\.23/);
    expect(attachBlocked({ ...ok, lcArea: 7 })).toMatch(/11\.2/);
    expect(attachBlocked({ ...ok, lcMassedColumn: true })).toMatch(/14\.71/);
    expect(attachBlocked({ ...ok, markerAttached: 1 })).toMatch(/16\.6/); // one per extended-line marker
    expect(attachBlocked({ ...ok, markerAttached: 0 })).toBeNull();
    expect(attachBlocked({ ...ok, artKind: 'mortar' })).toBeNull(); // the literal text lets mortars attach
    expect(attachBlocked({ ...ok, artKind: 'mortar', highAngleCannotAttach: true })).toMatch(/A-23/);
  });
});
