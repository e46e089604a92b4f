/**
 * Napoleon's Eagles morale, retreat, fatigue, thresholds, leaders and command (morale.ts): the book's worked examples
 * as golden tests (retreat p.12, thresholds p.11, leader losses p.16, rest p.5), the digest's §9 vectors (M-8, M-9,
 * M-14, R-1 … R-14, S-6 … S-11, and the morale parts of C-9 … C-18, A-5, A-16), exact distributions (sums to 1, equal
 * to a brute-force count over every die), faces consistent with their class, and edges.
 */
import { describe, expect, it } from 'vitest';
import { IN } from '../../geometry/geometry.ts';
import {
  type CommandLeader,
  type CommandUnit,
  type MoraleInput,
  type MoraleResult,
  OUT_OF_COMMAND,
  READINGS,
  RETREAT,
  type RetreatInput,
  type ThresholdInput,
  attachedLeaderFate,
  canForceMarch,
  checkDivisions,
  closeActionInRetreat,
  defaultLeaderBonus,
  defenceChangeAllowed,
  divisionCommitted,
  failureResult,
  fatigueAfterEvent,
  fatigueIncrease,
  inGeneralVicinity,
  initiativeDist,
  initiativeFace,
  initiativeRollsDue,
  isSurrounded,
  leaderLossDist,
  leaderLossFace,
  leaderMoraleBonus,
  leadersInCommand,
  misreadAsOrder,
  misreadDist,
  misreadFaces,
  misreadManoeuvreObjectiveOk,
  modifiedMorale,
  moraleDist,
  moraleFaces,
  moraleModifiers,
  moraleWithRetreatDist,
  moraleWithRetreatFaces,
  mostly,
  orderChangeModifiers,
  orderDelayDist,
  orderDelayFace,
  outOfCommandMoveAllowed,
  outOfCommandUnits,
  recoveredFormation,
  recoveryActions,
  recoveryDist,
  reformDist,
  reformFace,
  reformModifiers,
  replaceLeader,
  reserveBecomesDefend,
  resolveMorale,
  rest,
  retreatAllowed,
  retreatDistanceActions,
  retreatPlacement,
  routProximityMarks,
  spendRecovery,
  staffOfficerFor,
  supported,
  thresholdCount,
  thresholdDist,
  thresholdFaces,
  thresholdModifiers,
  thresholdPenalty,
  thresholdRollDue,
} from './morale.ts';
import type { Body } from './shape.ts';
import { MISREAD_TABLE, type Order } from './tables.ts';
import type { LeaderStatic } from './types.ts';

/** A seeded uniform source for the display helpers. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const sum = (d: readonly { p: number }[]) => d.reduce((t, x) => t + x.p, 0);
const probOf = <T>(d: readonly { value: T; p: number }[], v: T) => d.find((x) => x.value === v)?.p ?? 0;

/** A 24-figure line infantry battalion, Morale 16, fresh, checking a step 10 mark. */
const base: MoraleInput = {
  check: 'marked',
  kind: 'infantry',
  formation: 'line',
  morale: 16,
  originalFigures: 24,
  figures: 24,
  fatigue: 0,
};

/** Brute force: every tuple of D20s the check can use, resolved by `resolveMorale`, counted. */
function bruteForce(i: MoraleInput): Map<MoraleResult, number> {
  const n =
    (i.inBuilding && i.kind === 'infantry' ? 0 : i.check === 'loser' && i.inRetreat ? 0 : 1) +
    (i.check === 'charged' && i.chargedByEchelon && i.kind !== 'cavalry' ? 1 : 0) +
    (i.surrounded && i.check !== 'surrounded' && i.check !== 'counterCharge' ? 1 : 0);
  const counts = new Map<MoraleResult, number>();
  const rec = (prefix: number[]) => {
    if (prefix.length === n) {
      const r = resolveMorale(i, prefix).result;
      counts.set(r, (counts.get(r) ?? 0) + 1 / 20 ** n);
      return;
    }
    for (let f = 1; f <= 20; f++) rec([...prefix, f]);
  };
  rec([]);
  return counts;
}

function expectDistMatchesBruteForce(i: MoraleInput): void {
  const d = moraleDist(i);
  expect(sum(d)).toBeCloseTo(1, 12);
  const b = bruteForce(i);
  expect(new Set(d.map((x) => x.value))).toEqual(new Set([...b].filter(([, p]) => p > 0).map(([v]) => v)));
  for (const x of d) expect(x.p).toBeCloseTo(b.get(x.value)!, 12);
  const u = lcg(7);
  for (const x of d) {
    const f = moraleFaces(i, x.value, u);
    expect(resolveMorale(i, [...f, 1, 1, 1]).result).toBe(x.value);
    expect(f.every((v) => Number.isInteger(v) && v >= 1 && v <= 20)).toBe(true);
  }
}

const line = (x: number, y: number, figures = 20, facing = 0): Body => ({
  troop: 'threeRankInfantry',
  formation: 'line',
  figures,
  at: { x: x * IN, y: y * IN, facing },
});

// =====================================================================================================================

describe('morale modifiers [p.12, p.11, p.13-16]', () => {
  it('every modifier cites a page; the fresh unit has none', () => {
    expect(moraleModifiers(base)).toEqual([]);
    expect(modifiedMorale(base)).toBe(16);
    const all = moraleModifiers({
      ...base,
      fatigue: 2,
      figures: 9,
      disordered: true,
      supported: true,
      behindCover: true,
      firedOnFlank: true,
      twelvePounders: true,
      leaderBonus: 2,
      thresholdFailed: true,
    });
    for (const m of all) expect(m.cite).toMatch(/p\.\d+/);
    expect(all.map((m) => [m.id, m.value])).toEqual([
      ['supported', 1],
      ['behindCover', 2],
      ['perTwoFiguresLost', -7],
      ['disordered', -1],
      ['twelvePounders', -1],
      ['firedOnFlank', -2],
      ['tired', -2],
      ['overHalfCasualties', -3],
      ['leader', 2],
      ['thresholdFailed', -4],
    ]);
  });

  it('§9.5 R-5: Morale 16, 5 figures lost, Fatigued, supported, fired on from the flank → 12', () => {
    const i: MoraleInput = { ...base, figures: 19, fatigue: 1, supported: true, firedOnFlank: true };
    expect(modifiedMorale(i)).toBe(12);
    expect(moraleDist(i)).toEqual([
      { value: 'pass', p: 12 / 20 },
      { value: 'retreat', p: 8 / 20 },
    ]);
  });

  it('§9.5 R-6: Morale 18, 13 of 24 figures lost → −6 −3 = 9', () => {
    const i: MoraleInput = { ...base, morale: 18, figures: 11 };
    expect(moraleModifiers(i).map((m) => m.value)).toEqual([-6, -3]);
    expect(modifiedMorale(i)).toBe(9);
  });

  it('retreat status −5 includes disorder (no extra −1) [p.12]', () => {
    const i: MoraleInput = { ...base, inRetreat: true, disordered: true };
    expect(moraleModifiers(i).map((m) => m.id)).toEqual(['retreatStatus']);
    expect(modifiedMorale(i)).toBe(11);
  });

  it('fatigue −1/−2/−3 [p.12]; exactly 50% casualties is not "more than 50%"', () => {
    expect([0, 1, 2, 3].map((f) => modifiedMorale({ ...base, fatigue: f as 0 | 1 | 2 | 3 }))).toEqual([16, 15, 14, 13]);
    expect(modifiedMorale({ ...base, figures: 12 })).toBe(16 - 6);
    expect(modifiedMorale({ ...base, figures: 11 })).toBe(16 - 6 - 3);
  });

  it('§9.2 A-5 and A-16: artillery fired on by artillery +2; infantry/cavalry by 12lb at ≤10" −1 (not artillery)', () => {
    const bat: MoraleInput = { ...base, kind: 'artillery', formation: 'unlimbered', originalFigures: 8, figures: 8 };
    expect(modifiedMorale({ ...bat, artilleryFiredOnByArtillery: true })).toBe(18);
    expect(modifiedMorale({ ...base, artilleryFiredOnByArtillery: true })).toBe(16);
    expect(modifiedMorale({ ...base, twelvePounders: true })).toBe(15);
    expect(modifiedMorale({ ...bat, twelvePounders: true })).toBe(16);
    // step 10 flags only count at step 10
    expect(modifiedMorale({ ...base, check: 'charged', firedOnFlank: true, twelvePounders: true })).toBe(16);
  });

  it('cavalry charging infantry: line −3, heavy −1, flank −4; square +3 instead of −3 [p.12]', () => {
    const heavy = { kind: 'cavalry' as const, weight: 'heavy' as const, figures: 12 };
    const c: MoraleInput = { ...base, check: 'charged', enemy: heavy, arc: 'flank' };
    expect(moraleModifiers(c).map((m) => [m.id, m.value])).toEqual([
      ['chargedByHeavyCavalry', -1],
      ['flankCharged', -4],
      ['lineOrColumnChargedByCavalry', -3],
    ]);
    const sq: MoraleInput = { ...c, formation: 'square', arc: 'front' };
    expect(moraleModifiers(sq).map((m) => [m.id, m.value])).toEqual([
      ['squareVsCavalry', 3],
      ['chargedByHeavyCavalry', -1],
    ]);
    // heavy cavalry charged by heavy cavalry: no −1; light cavalry: −1
    const cav: MoraleInput = { ...c, kind: 'cavalry', formation: 'line', arc: 'front', weight: 'heavy' };
    expect(modifiedMorale(cav)).toBe(16);
    expect(modifiedMorale({ ...cav, weight: 'light' })).toBe(15);
  });

  it('square against infantry not in square −1; outnumbered 2× −2, 3× −3 (close action only) [p.12]', () => {
    const inf = { kind: 'infantry' as const, formation: 'column' as const, figures: 48 };
    expect(modifiedMorale({ ...base, check: 'charged', formation: 'square', enemy: inf })).toBe(16 - 1 - 2);
    expect(modifiedMorale({ ...base, check: 'charged', enemy: { ...inf, figures: 72 } })).toBe(13);
    expect(modifiedMorale({ ...base, check: 'charged', enemy: { ...inf, figures: 47 } })).toBe(16);
    expect(modifiedMorale({ ...base, enemy: { ...inf, figures: 72 } })).toBe(16); // step 10: no outnumbering
  });

  it('charger: flank +1, charging artillery hit −3, out-of-control +3 (C-18) [p.12, p.15]', () => {
    const ch: MoraleInput = { ...base, check: 'charging', arc: 'flank', enemy: { kind: 'infantry', figures: 10 } };
    expect(modifiedMorale(ch)).toBe(17);
    expect(modifiedMorale({ ...ch, arc: 'front', chargingArtilleryHit: true })).toBe(13);
    const cav: MoraleInput = { ...ch, kind: 'cavalry', arc: 'front', outOfControl: true };
    expect(moraleModifiers(cav)).toEqual([{ id: 'outOfControlClosing', value: 3, cite: 'p.15' }]);
  });

  it('§9.4 C-10, C-11: step 4 +2 after a two-action infantry charger; against cavalry by reaction distance', () => {
    const inf = { kind: 'infantry' as const, figures: 20 };
    const step4: MoraleInput = { ...base, check: 'defenceChange', enemy: inf, chargerUsedBothActions: true };
    expect(modifiedMorale(step4)).toBe(18);
    expect(modifiedMorale({ ...step4, chargerUsedBothActions: false })).toBe(16);
    expect(moraleDist({ ...step4, morale: 10 })).toEqual([
      { value: 'pass', p: 12 / 20 },
      { value: 'disordered', p: 8 / 20 },
    ]);
    const cav = { kind: 'cavalry' as const, weight: 'light' as const, figures: 12 };
    const vsCav = (d: number): MoraleInput => ({ ...base, check: 'defenceChange', enemy: cav, reactionDistance: d });
    expect([9, 10, 11, 12, 16, 19].map(defenceChangeAllowed)).toEqual([false, false, true, true, true, true]);
    expect(() => modifiedMorale(vsCav(9))).toThrow(RangeError); // (a) 9": not allowed
    expect(modifiedMorale(vsCav(12))).toBe(16 - 3); // (c) 12": no bonus (line −3)
    expect(modifiedMorale(vsCav(16))).toBe(16 - 3 + 2); // (d) 6" + 10" = 16": +2
    expect(modifiedMorale(vsCav(19))).toBe(16 - 3 + 2); // (b) 9" + 10" = 19": +2
  });

  it('§9.5 R-12: an attached leader +1 division, +2 corps, +3 army; a staff officer nothing [p.16]', () => {
    expect(['division', 'corps', 'army', 'grandBattery'].map((r) => defaultLeaderBonus(r as 'army'))).toEqual([
      { morale: 1, melee: 5 },
      { morale: 2, melee: 5 },
      { morale: 3, melee: 5 },
      { morale: 1, melee: 5 },
    ]);
    expect(leaderMoraleBonus({ moraleBonus: 2, staffOfficer: false })).toBe(2);
    expect(leaderMoraleBonus({ moraleBonus: 2, staffOfficer: true })).toBe(0);
    expect(leaderMoraleBonus(null)).toBe(0);
    expect(modifiedMorale({ ...base, leaderBonus: 3 })).toBe(19);
  });
});

describe('morale outcomes: exact distributions [p.11-15]', () => {
  it('D20 ≤ modified morale passes; ≤0 always fails, ≥20 always passes (no automatic faces)', () => {
    expect(moraleDist({ ...base, morale: 20 })).toEqual([{ value: 'pass', p: 1 }]);
    expect(moraleDist({ ...base, morale: 25 })).toEqual([{ value: 'pass', p: 1 }]);
    expect(moraleDist({ ...base, morale: 3, fatigue: 3 })).toEqual([{ value: 'retreat', p: 1 }]);
    expect(moraleDist({ ...base, morale: 1 })).toEqual([
      { value: 'pass', p: 1 / 20 },
      { value: 'retreat', p: 19 / 20 },
    ]);
  });

  it('§9.5 R-7: a unit in retreat status that fails routs [p.12]', () => {
    const i: MoraleInput = { ...base, inRetreat: true };
    expect(moraleDist(i)).toEqual([
      { value: 'pass', p: 11 / 20 },
      { value: 'rout', p: 9 / 20 },
    ]);
    expect(failureResult(true)).toBe('rout');
    expect(failureResult(false)).toBe('retreat');
  });

  it('§9.5 R-8: surrounded → checks again: fail surrenders, pass rallies; a routing unit surrenders [p.12]', () => {
    const i: MoraleInput = { ...base, surrounded: true };
    expect(moraleDist(i)).toEqual([
      { value: 'pass', p: 16 / 20 },
      { value: 'rally', p: (4 * 16) / 400 },
      { value: 'surrender', p: (4 * 4) / 400 },
    ]);
    expect(resolveMorale(i, [17, 3])).toEqual({ result: 'rally', used: 2 });
    expect(resolveMorale(i, [17, 18])).toEqual({ result: 'surrender', used: 2 });
    expect(resolveMorale(i, [16, 20])).toEqual({ result: 'pass', used: 1 });
    expect(moraleDist({ ...i, inRetreat: true })).toEqual([
      { value: 'pass', p: 11 / 20 },
      { value: 'surrender', p: 9 / 20 },
    ]);
    expect(moraleDist({ ...base, check: 'surrounded' })).toEqual([
      { value: 'rally', p: 16 / 20 },
      { value: 'surrender', p: 4 / 20 },
    ]);
  });

  it('step 2: infantry charged by infantry retreats on a failure; by cavalry is ridden down [p.13, p.14]', () => {
    const inf = { kind: 'infantry' as const, figures: 20 };
    expect(moraleDist({ ...base, check: 'charged', enemy: inf })).toEqual([
      { value: 'pass', p: 16 / 20 },
      { value: 'retreat', p: 4 / 20 },
    ]);
    const cav = { kind: 'cavalry' as const, weight: 'medium' as const, figures: 12 };
    expect(moraleDist({ ...base, check: 'charged', formation: 'square', enemy: cav })).toEqual([
      { value: 'pass', p: 19 / 20 },
      { value: 'riddenDown', p: 1 / 20 },
    ]);
    // cavalry charged by cavalry fights a 6.6.3 close action: a failure is a retreat
    expect(probOf(moraleDist({ ...base, kind: 'cavalry', check: 'charged', enemy: cav }), 'retreat')).toBeCloseTo(
      4 / 20,
      12,
    );
  });

  it('§9.4 C-16: echelon cavalry → two step 2 checks, both must pass [p.7]', () => {
    const cav = { kind: 'cavalry' as const, weight: 'light' as const, figures: 12, formation: 'echelon' as const };
    const i: MoraleInput = { ...base, check: 'charged', formation: 'column', enemy: cav, chargedByEchelon: true };
    expect(modifiedMorale(i)).toBe(13);
    expect(moraleDist(i)).toEqual([
      { value: 'pass', p: 169 / 400 },
      { value: 'riddenDown', p: 231 / 400 },
    ]);
    expect(resolveMorale(i, [13, 14]).result).toBe('riddenDown');
    expect(resolveMorale(i, [13, 1]).result).toBe('pass');
    // cavalry charged by echelon cavalry: one check
    expect(moraleDist({ ...i, kind: 'cavalry', formation: 'line' })).toHaveLength(2);
    expect(probOf(moraleDist({ ...i, kind: 'cavalry', formation: 'line' }), 'pass')).toBeCloseTo(16 / 20, 12);
  });

  it('§9.4 C-12: ridden down → step 7 check with −1: fail routs, pass retreats [p.14]', () => {
    const cav = { kind: 'cavalry' as const, weight: 'light' as const, figures: 12 };
    const i: MoraleInput = {
      ...base,
      check: 'riddenDown',
      formation: 'column',
      originalFigures: 18,
      figures: 12,
      enemy: cav,
    };
    expect(moraleModifiers(i).map((m) => [m.id, m.value])).toEqual([
      ['perTwoFiguresLost', -3],
      ['riddenDown', -1],
      ['lineOrColumnChargedByCavalry', -3],
    ]);
    expect(modifiedMorale(i)).toBe(9);
    expect(moraleDist(i)).toEqual([
      { value: 'retreat', p: 9 / 20 },
      { value: 'rout', p: 11 / 20 },
    ]);
  });

  it('step 5: a failed charger halts (retreats or stops 2", the owner chooses) [p.13]', () => {
    expect(moraleDist({ ...base, check: 'charging', morale: 12 })).toEqual([
      { value: 'pass', p: 12 / 20 },
      { value: 'halt', p: 8 / 20 },
    ]);
  });

  it('step 8: the loser routs on a failure, retreats on a pass; +2 if it charged; in retreat status routs unrolled', () => {
    const l: MoraleInput = { ...base, check: 'loser', enemy: { kind: 'infantry', figures: 20 } };
    expect(moraleDist(l)).toEqual([
      { value: 'retreat', p: 16 / 20 },
      { value: 'rout', p: 4 / 20 },
    ]);
    expect(modifiedMorale({ ...l, loserWasCharger: true })).toBe(18);
    expect(moraleDist({ ...l, inRetreat: true })).toEqual([{ value: 'rout', p: 1 }]);
    expect(resolveMorale({ ...l, inRetreat: true }, [])).toEqual({ result: 'rout', used: 0 });
    expect(moraleFaces({ ...l, inRetreat: true }, 'rout', lcg(1))).toEqual([]);
  });

  it('§9.4 C-17: a counter-charge check takes no modifiers at all [p.15]', () => {
    const i: MoraleInput = {
      ...base,
      kind: 'cavalry',
      check: 'counterCharge',
      fatigue: 3,
      figures: 4,
      thresholdFailed: true,
      leaderBonus: 2,
    };
    expect(moraleModifiers(i)).toEqual([]);
    expect(moraleDist(i)).toEqual([
      { value: 'pass', p: 16 / 20 },
      { value: 'noCounterCharge', p: 4 / 20 },
    ]);
  });

  it('§9.5 R-14: infantry in buildings is exempt [p.19]', () => {
    const i: MoraleInput = { ...base, inBuilding: true, morale: 1 };
    expect(moraleDist(i)).toEqual([{ value: 'pass', p: 1 }]);
    expect(moraleFaces(i, 'pass', lcg(2))).toEqual([]);
    expect(() => moraleFaces(i, 'retreat', lcg(2))).toThrow(RangeError);
  });

  it('closed form equals the brute-force count, sums to 1, faces fit, across many situations', () => {
    const cav = { kind: 'cavalry' as const, weight: 'heavy' as const, figures: 30 };
    const checks: MoraleInput[] = [];
    for (const m of [-3, 0, 1, 7, 12, 19, 20, 24])
      for (const check of [
        'marked',
        'charged',
        'defenceChange',
        'charging',
        'riddenDown',
        'loser',
        'surrounded',
      ] as const)
        for (const inRetreat of [false, true])
          for (const surrounded of [false, true])
            checks.push({
              ...base,
              morale: m,
              check,
              inRetreat,
              surrounded,
              enemy: check === 'defenceChange' ? { kind: 'infantry', figures: 20 } : cav,
              chargedByEchelon: m === 12,
            });
    checks.push({ ...base, check: 'counterCharge', morale: 9 }, { ...base, inBuilding: true });
    for (const i of checks) expectDistMatchesBruteForce(i);
  });
});

describe('retreat and recovery [p.12, p.7]', () => {
  const inf: RetreatInput = { kind: 'infantry', distance: 26, morale: 16, troopClass: 'line' };

  it('golden p.12: 26" (26/10 = 3 actions) and a reform roll of 3 (2 actions) → 5 actions of recovery (R-1)', () => {
    expect(retreatDistanceActions(inf)).toBe(3);
    expect(recoveryActions(inf, 3)).toBe(5);
    expect(recoveryDist(inf)).toEqual([
      { value: 4, p: 2 / 6 },
      { value: 5, p: 2 / 6 },
      { value: 6, p: 2 / 6 },
    ]);
    expect(reformFace(inf, 5, lcg(3))).toBeGreaterThanOrEqual(3);
    expect(reformFace(inf, 5, lcg(3))).toBeLessThanOrEqual(4);
  });

  it('golden p.12 note: standing in place (0") → only the reform roll (R-2: roll 5 → 3)', () => {
    const i = { ...inf, distance: 0 };
    expect(retreatDistanceActions(i)).toBe(0);
    expect(recoveryActions(i, 5)).toBe(3);
    expect(recoveryActions(i, 1)).toBe(1);
  });

  it('R-3: cavalry 30" at 12" an action = 3, roll 6 +1 (7+) = 4 → 7', () => {
    const c: RetreatInput = { kind: 'cavalry', distance: 30, morale: 16 };
    expect(reformModifiers(c)).toEqual([{ id: 'cavalry', value: 1, cite: 'p.12' }]);
    expect(recoveryActions(c, 6)).toBe(7);
    expect(reformDist(c)).toEqual([
      { value: 1, p: 1 / 6 },
      { value: 2, p: 2 / 6 },
      { value: 3, p: 2 / 6 },
      { value: 4, p: 1 / 6 },
    ]);
  });

  it('R-4: Guard (original morale 22) 10", roll 1 −1 = 0 reads 1-2 → 1 + 1 = 2', () => {
    const g: RetreatInput = { kind: 'infantry', distance: 10, morale: 22, troopClass: 'guard' };
    expect(reformModifiers(g).map((m) => m.value)).toEqual([-1]);
    expect(recoveryActions(g, 1)).toBe(2);
    expect(retreatDistanceActions({ ...g, distance: 10.01 })).toBe(2); // "round up"
  });

  it('reform modifiers: ridden down +1, green/militia +1 [p.12]', () => {
    const r: RetreatInput = { kind: 'infantry', distance: 0, morale: 12, troopClass: 'militia', riddenDown: true };
    expect(reformModifiers(r).map((m) => m.id)).toEqual(['riddenDown', 'green']);
    expect(recoveryActions(r, 5)).toBe(4); // 5 + 2 = 7+
    expect(reformModifiers({ ...r, troopClass: 'green', riddenDown: false }).map((m) => m.value)).toEqual([1]);
  });

  it('§9.5 R-13: artillery may limber (+1 recovery action, A-57) then retreat; horse at 12", foot at 10"', () => {
    const foot: RetreatInput = { kind: 'artillery', arm: 'foot', distance: 12, morale: 15, artillery: 'limber' };
    expect(recoveryActions(foot, 3)).toBe(2 + 1 + 2);
    const horse: RetreatInput = { ...foot, arm: 'horse' };
    expect(recoveryActions(horse, 3)).toBe(1 + 1 + 2);
    expect(recoveryActions({ ...horse, artillery: 'limbered' }, 3)).toBe(1 + 2);
    expect(recoveryActions({ ...horse, artillery: 'abandon' }, 3)).toBe(2 + 2); // the crew on foot
    expect(recoveryActions({ ...foot, artillery: 'stand', distance: 0 }, 3)).toBe(2);
    expect(() => retreatDistanceActions({ ...foot, artillery: 'stand' })).toThrow(RangeError);
    expect(() => retreatDistanceActions({ ...foot, distance: -1 })).toThrow(RangeError);
    expect(() => recoveryActions(foot, 7)).toThrow(RangeError);
  });

  it('a check with its retreat: one distribution over pass, rout and the recovery owed', () => {
    const d = moraleWithRetreatDist({ ...base, morale: 12 }, inf);
    expect(sum(d)).toBeCloseTo(1, 12);
    expect(d.map((x) => [x.label, x.p])).toEqual([
      ['pass', 12 / 20],
      ['retreat, 4 recovery actions', (8 / 20) * (2 / 6)],
      ['retreat, 5 recovery actions', (8 / 20) * (2 / 6)],
      ['retreat, 6 recovery actions', (8 / 20) * (2 / 6)],
    ]);
  });

  it('a combined outcome has consistent dice: D20s and, for a retreat, the reform D6', () => {
    const i: MoraleInput = { ...base, morale: 12 };
    const g = lcg(11);
    for (const o of moraleWithRetreatDist(i, inf)) {
      const f = moraleWithRetreatFaces(i, inf, o.value, g);
      expect(resolveMorale(i, f.d20s).result).toBe(o.value.result);
      if (o.value.result === 'retreat') expect(recoveryActions(inf, f.reformD6!)).toBe(o.value.recovery);
      else expect(f.reformD6).toBeUndefined();
    }
    expect(() => moraleWithRetreatFaces(i, inf, { result: 'retreat' }, g)).toThrow(RangeError);
  });

  it('A-67: a retreat ends facing its way, farther from every enemy within 12", never within 1" of one', () => {
    const table = { width: 100 * IN, height: 100 * IN };
    const u = line(50, 50);
    const enemy = line(50, 53, 20, 180); // 3" north, facing it (y 53..53.5)
    const back = retreatPlacement(u, 180, 26);
    expect(back.at).toEqual({ x: 50 * IN, y: 24 * IN, facing: 180 });
    expect(retreatPlacement(u, 180, 0)).toBe(u);
    expect(retreatAllowed(table, u, back, [enemy])).toEqual({ ok: true, inches: 26 });
    expect(retreatDistanceActions({ kind: 'infantry', distance: 26, morale: 16 })).toBe(3);
    // toward the enemy: closer, and within 1" on the way
    expect(retreatAllowed(table, u, retreatPlacement(u, 0, 2), [enemy]).ok).toBe(false);
    // sideways 2": no farther from the enemy (its front still overlaps)
    expect(retreatAllowed(table, u, retreatPlacement(u, 90, 2), [enemy]).ok).toBe(false);
    // off the table
    expect(retreatAllowed(table, u, retreatPlacement(u, 180, 60), [enemy]).ok).toBe(false);
    // past another enemy within 1"
    const other = line(52, 30, 4, 0);
    expect(retreatAllowed(table, u, back, [enemy, other]).ok).toBe(false);
    // standing in place is always allowed (distance 0)
    expect(retreatAllowed(table, u, u, [enemy])).toEqual({ ok: true, inches: 0 });
  });

  it('A-68: recovery actions are spent on activation; at 0 the unit recovers into column', () => {
    expect(spendRecovery(5, 2)).toEqual({ remaining: 3, recovered: false, leftover: 0 });
    expect(spendRecovery(1, 2)).toEqual({ remaining: 0, recovered: true, leftover: 1 });
    expect(spendRecovery(2, 2)).toEqual({ remaining: 0, recovered: true, leftover: 0 });
    expect(spendRecovery(0, 2)).toEqual({ remaining: 0, recovered: true, leftover: 2 });
    expect(recoveredFormation('infantry')).toBe('column');
    expect(recoveredFormation('cavalry')).toBe('column');
    expect(recoveredFormation('artillery')).toBe('limbered');
    expect(RETREAT).toMatchObject({ gap: 3, meleePenalty: -20, moralePenalty: -5, recoveredFormation: 'column' });
  });

  it('§9.4 C-9: charged in retreat status with 1 action left: fights at −5 morale; wins → recovered, loses → routs', () => {
    expect(modifiedMorale({ ...base, check: 'charged', inRetreat: true })).toBe(11);
    expect(closeActionInRetreat(true)).toBe('recovered');
    expect(closeActionInRetreat(false)).toBe('rout');
  });
});

describe('support, rout proximity and surrender geometry [p.11-12], A-35', () => {
  it('supported: edge to edge ≤ 4"', () => {
    const u = line(0, 0); // 7.5" wide, from x −3.75 to 3.75
    expect(supported(u, [{ body: line(11.5, 0) }])).toBe(true); // gap 4"
    expect(supported(u, [{ body: line(11.6, 0) }])).toBe(false);
    expect(supported(u, [{ body: line(11.5, 0), inRetreat: true }])).toBe(false);
  });

  it('§9.5 R-7: friendly units within 4" of a routing unit are marked; infantry in buildings is not', () => {
    const routing = line(0, 0);
    const marks = routProximityMarks(routing, [
      { id: 'near', body: line(11.5, 0) },
      { id: 'far', body: line(12, 0) },
      { id: 'behind', body: line(0, -4.5) },
      { id: 'house', body: line(-11, 0), inBuilding: true },
    ]);
    expect(marks).toEqual(['near', 'behind']);
  });

  it('surrounded: no way out of enemies within 12"; skirmishers and retreating enemies are no threat', () => {
    const table = { width: 100 * IN, height: 100 * IN };
    const u = line(50, 50); // x 46.25..53.75, y 49.5..50
    // boxed in: north 1" away, south 0.5", west and east 1.25" (4-figure lines facing it)
    const box = [line(50, 51.5), line(50, 49), line(45, 50, 4, 90), line(55, 49.7, 4, 270)];
    const enemies = box.map((body) => ({ body }));
    expect(isSurrounded(table, u, enemies)).toBe(true);
    // the north open: a 3" move north gets farther from every threat
    expect(isSurrounded(table, u, enemies.slice(1))).toBe(false);
    // the same box of skirmishers or retreating units: no threats → not surrounded
    expect(
      isSurrounded(
        table,
        u,
        box.map((body) => ({ body, skirmish: true })),
      ),
    ).toBe(false);
    expect(
      isSurrounded(
        table,
        u,
        box.map((body) => ({ body, inRetreat: true })),
      ),
    ).toBe(false);
    // an enemy more than 12" away: no threat
    expect(isSurrounded(table, u, [{ body: line(50, 70) }])).toBe(false);
    // impassable terrain given by the caller closes the north
    const wall = [
      { x: 40 * IN, y: 51 * IN },
      { x: 60 * IN, y: 51 * IN },
      { x: 60 * IN, y: 52 * IN },
      { x: 40 * IN, y: 52 * IN },
    ];
    expect(isSurrounded(table, u, enemies.slice(1), [wall])).toBe(true);
  });

  it('surrounded in a corner of the table: the edges close the way out', () => {
    const table = { width: 100 * IN, height: 100 * IN };
    const u = line(3.75, 0.5); // x 0..7.5, y 0..0.5, against the south and west edges
    const front = line(3.75, 2, 20, 180); // y 2..2.5
    const right = line(8.5, 1, 4, 270); // x 8.5..9, y 0.25..1.75
    expect(isSurrounded(table, u, [{ body: front }, { body: right }])).toBe(true);
    expect(isSurrounded(table, u, [{ body: right }])).toBe(false); // north is open
  });
});

describe('fatigue and rest [p.5, p.20]', () => {
  it('§9.3 M-8: force march Normal → Tired, Fatigued → Exhausted, Tired not allowed; hot Normal → Exhausted', () => {
    expect(fatigueAfterEvent(0, 'forceMarch')).toBe(2);
    expect(fatigueAfterEvent(1, 'forceMarch')).toBe(3);
    expect(canForceMarch(2)).toBe(false);
    expect(canForceMarch(3)).toBe(false);
    expect(() => fatigueAfterEvent(2, 'forceMarch')).toThrow(RangeError);
    expect(fatigueAfterEvent(0, 'forceMarch', { hot: true })).toBe(3);
  });

  it("close action +1, cavalry that did not close +1, rapid fire +3 (A-49; the defence sentence's +2 as an option), capped (A-5)", () => {
    expect(fatigueAfterEvent(0, 'closeAction')).toBe(1);
    expect(fatigueAfterEvent(3, 'closeAction')).toBe(3);
    expect(fatigueAfterEvent(1, 'cavalryChargedNotClosed')).toBe(2);
    expect(fatigueAfterEvent(0, 'rapidFire')).toBe(3);
    expect(fatigueIncrease('rapidFire', { asDefence: true })).toBe(3);
    expect(fatigueIncrease('rapidFire', { asDefence: true, rapidFireDefence: 2 })).toBe(2);
  });

  it('§9.3 M-14: hot weather, both actions used → +1 [p.20]', () => {
    expect(fatigueAfterEvent(0, 'hotBothActions')).toBe(1);
  });

  it('golden p.5 / M-9: a Tired unit rests 2 actions → Normal; a Fatigued unit rests 1 → Normal', () => {
    expect(rest(2, 2)).toBe(0);
    expect(rest(1, 1)).toBe(0);
    expect(rest(3, 1)).toBe(2);
    expect(rest(0, 2)).toBe(0);
    expect(rest(2, 2, true)).toBe(2); // no rest in retreat status
  });
});

describe('threshold checks [p.11]', () => {
  const u = (status: 'active' | 'routed' | 'surrendered' | 'eliminated', inRetreat = false) => ({ status, inRetreat });

  it('§9.5 R-9: 5 of 10 units routed or retreating → the army rolls; D20 ≤ 8 (≤ 9 French with Napoleon)', () => {
    const army = [u('routed'), u('surrendered'), u('eliminated'), u('active', true), u('active', true)];
    const all = [...army, u('active'), u('active'), u('active'), u('active'), u('active')];
    expect(thresholdCount(all)).toEqual({ lost: 5, total: 10 });
    expect(thresholdRollDue(all)).toBe(true);
    expect(thresholdRollDue(all.slice(1))).toBe(false); // 4 of 9
    expect(thresholdRollDue(all.slice(1), 0.4)).toBe(true);
    expect(thresholdRollDue(all, 0.6)).toBe(false);
    expect(thresholdDist({ scope: 'army' })).toEqual([
      { value: { pass: true, leaderLost: false }, p: 0.4, label: 'pass' },
      { value: { pass: false, leaderLost: false }, p: 0.6, label: 'fail' },
    ]);
    const nap: ThresholdInput = { scope: 'army', french: true, napoleonPresent: true };
    expect(
      probOf(
        thresholdDist(nap).map((d) => ({ ...d, value: d.label })),
        'pass',
      ),
    ).toBeCloseTo(0.45, 12);
    expect(thresholdPenalty(true, false)).toBe(-4);
    expect(thresholdPenalty(false, true)).toBe(-4);
    expect(thresholdPenalty(false, false)).toBe(0);
  });

  it('golden p.11 / R-10: influence +4 → pass on ≤ 12, and a D10 of 1-4 loses the leader', () => {
    const t: ThresholdInput = { scope: 'division', influence: 4 };
    expect(thresholdModifiers(t)).toEqual([{ id: 'leaderInfluence', value: 4, cite: 'p.11 note 1' }]);
    const d = thresholdDist(t);
    expect(sum(d)).toBeCloseTo(1, 12);
    expect(d.map((x) => [x.label, x.p])).toEqual([
      ['pass', (12 * 6) / 200],
      ['pass, leader lost', (12 * 4) / 200],
      ['fail', (8 * 6) / 200],
      ['fail, leader lost', (8 * 4) / 200],
    ]);
    const g = lcg(5);
    for (const x of d) {
      const f = thresholdFaces(t, x.value, g);
      expect(f.d20 <= 12).toBe(x.value.pass);
      expect(f.d10! <= 4).toBe(x.value.leaderLost);
    }
    expect(() => thresholdModifiers({ scope: 'army', influence: 7 })).toThrow(RangeError);
    expect(() => thresholdFaces({ scope: 'army' }, { pass: true, leaderLost: true }, g)).toThrow(RangeError);
  });

  it('division modifiers: elite +1, Guard +2 (Old/Middle +5), militia −1, Spanish −1, out of command −3, leader lost −3', () => {
    const div: ThresholdInput = {
      scope: 'division',
      mostlyElite: true,
      guard: 'oldMiddle',
      mostlyMilitia: true,
      mostlySpanish: true,
      outOfCommand: true,
      leaderLost: true,
    };
    expect(thresholdModifiers(div).map((m) => [m.id, m.value])).toEqual([
      ['elite', 1],
      ['oldMiddleGuard', 5],
      ['militia', -1],
      ['spanish', -1],
      ['outOfCommand', -3],
      ['leaderLost', -3],
    ]);
    expect(thresholdModifiers({ ...div, guard: 'french' }).find((m) => m.id === 'frenchGuard')?.value).toBe(2);
    // the army roll: Spanish and leader lost (READINGS 3), not the division-only ones
    expect(thresholdModifiers({ ...div, scope: 'army' }).map((m) => m.id)).toEqual(['spanish', 'leaderLost']);
    // a modified target of 8 − 8 = 0 always fails; 8 + 12 always passes
    expect(thresholdDist({ ...div, guard: undefined, mostlyElite: false }).map((x) => x.label)).toEqual(['fail']);
    expect(
      thresholdDist({ scope: 'division', influence: 6, guard: 'oldMiddle', mostlyElite: true }).map((x) => x.label),
    ).toEqual(['pass', 'pass, leader lost']);
  });

  it('army first; divisions unless the army failed; "mostly" is more than half; general vicinity (A-70)', () => {
    expect(checkDivisions('failed')).toBe(false);
    expect(checkDivisions('passed')).toBe(true);
    expect(checkDivisions('notDue')).toBe(true);
    expect([mostly(3, 6), mostly(4, 6), mostly(0, 0)]).toEqual([false, true, false]);
    const div = [line(0, 0), line(10, 0)];
    expect(inGeneralVicinity({ x: 5 * IN, y: 9.75 * IN }, 10, div)).toBe(true);
    expect(inGeneralVicinity({ x: 5 * IN, y: 9.8 * IN }, 10, div)).toBe(false);
    expect(inGeneralVicinity({ x: 0, y: 0 }, 10, [])).toBe(false);
  });
});

describe('leader losses and staff officers [p.16]', () => {
  it('golden p.16 / R-11: 1-2 casualties → D10 of 1; 3-4 → 1-2; 5-6 → 1-3; 7 → 1-4', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((c) => leaderLossDist(c)[0])).toEqual([
      { value: true, p: 0.1 },
      { value: true, p: 0.1 },
      { value: true, p: 0.2 },
      { value: true, p: 0.2 },
      { value: true, p: 0.3 },
      { value: true, p: 0.3 },
      { value: true, p: 0.4 },
    ]);
    for (const c of [0, 1, 5, 19, 20, 30]) expect(sum(leaderLossDist(c))).toBeCloseTo(1, 12);
    expect(leaderLossDist(0)).toEqual([{ value: false, p: 1 }]);
    expect(leaderLossDist(20)).toEqual([{ value: true, p: 1 }]);
    const g = lcg(9);
    expect(leaderLossFace(5, true, g)).toBeLessThanOrEqual(3);
    expect(leaderLossFace(5, false, g)).toBeGreaterThan(3);
    expect(leaderLossFace(0, false, g)).toBeNull();
    expect(() => leaderLossFace(0, true, g)).toThrow(RangeError);
  });

  it('a lost leader is replaced by a staff officer: no bonuses, same radius, base initiative; command flagged', () => {
    const ney: LeaderStatic = {
      id: 'ney',
      side: 0,
      name: 'Ney',
      rank: 'corps',
      superior: 'nap',
      radius: 25,
      moraleBonus: 3,
      meleeBonus: 10,
      initiative: 11,
      misread: 1,
      spyglass: true,
      staffOfficer: false,
    };
    const s = staffOfficerFor(ney);
    expect(s).toMatchObject({ moraleBonus: 0, meleeBonus: 0, radius: 25, initiative: 8, staffOfficer: true });
    expect(leaderMoraleBonus(s)).toBe(0);
    expect(staffOfficerFor({ ...ney, rank: 'division', initiative: 3 }).initiative).toBe(5);
    expect(staffOfficerFor({ ...ney, initiative: null }).initiative).toBeNull();
    expect(replaceLeader({ id: 'ney', attachedTo: 'u1', x: 5, y: 6 })).toEqual({
      id: 'ney',
      attachedTo: null,
      x: 5,
      y: 6,
      replaced: true,
      originalLeaderLost: true,
      lost: true,
    });
  });

  it('A-22: an attached leader is lost with a unit that surrenders or is eliminated; placed if it routs near friends', () => {
    expect(attachedLeaderFate('surrendered')).toBe('lost');
    expect(attachedLeaderFate('eliminated', 1)).toBe('lost');
    expect(attachedLeaderFate('routed', 20)).toBe('placed');
    expect(attachedLeaderFate('routed', 21)).toBe('lost');
    expect(attachedLeaderFate('routed')).toBe('lost');
    expect(attachedLeaderFate('retreat')).toBe('stays');
  });
});

describe('command and control [p.16-17]', () => {
  const L = (id: string, rank: CommandLeader['rank'], superior: string, x: number, radius: number): CommandLeader => ({
    id,
    rank,
    superior,
    x: x * IN,
    y: 0,
    radius,
  });
  const leaders = [L('A', 'army', '', 0, 40), L('C', 'corps', 'A', 50, 20), L('D', 'division', 'C', 55, 10)];
  const units: CommandUnit[] = [
    { id: 'u1', commander: 'D', body: line(60, 0) },
    { id: 'u2', commander: 'D', body: line(70, 0) },
    { id: 'u3', commander: 'C', body: line(35, 0) },
  ];

  it('a corps leader outside the army radius puts every unit under him out of command [p.16]', () => {
    expect(Object.fromEntries(leadersInCommand(leaders))).toEqual({ A: true, C: false, D: false });
    expect(outOfCommandUnits(leaders, units)).toEqual(['u1', 'u2', 'u3']);
    expect(initiativeRollsDue(leaders)).toEqual(['C']);
  });

  it('§9.6 S-10: initiative 8, D20 = 7 → the corps leader is in command this period [p.17]', () => {
    expect(initiativeDist(8)).toEqual([
      { value: true, p: 0.4 },
      { value: false, p: 0.6 },
    ]);
    expect(initiativeDist(null)).toEqual([{ value: true, p: 1 }]);
    expect(initiativeDist(25)).toEqual([{ value: true, p: 1 }]);
    expect(initiativeFace(8, true, lcg(4))).toBeLessThanOrEqual(8);
    const passed = new Set(['C']);
    expect(leadersInCommand(leaders, { initiativePassed: passed }).get('C')).toBe(true);
    // u2 is 15" from D (radius 10): out by distance; u3 is the corps leader's own unit, 15" from him
    expect(outOfCommandUnits(leaders, units, { initiativePassed: passed })).toEqual(['u2']);
  });

  it('radius measured to the footprint centre (shape.ts commandDistance); an independent corps is in command', () => {
    const ls = [
      L('A', 'army', '', 0, 40),
      { ...L('C', 'corps', 'A', 50, 20), independent: true },
      L('D', 'division', 'C', 55, 10),
    ];
    expect(outOfCommandUnits(ls, [{ id: 'in', commander: 'D', body: line(64.9, 0) }])).toEqual([]); // 9.90" to the centre
    expect(outOfCommandUnits(ls, [{ id: 'out', commander: 'D', body: line(65.1, 0) }])).toEqual(['out']);
    expect(outOfCommandUnits(ls, [{ id: 'x', commander: 'nobody', body: line(0, 0) }])).toEqual(['x']);
  });

  it("option #2: leaders are never out of command; units still need their leader's radius [p.17]", () => {
    expect(outOfCommandUnits(leaders, units, { option: 2 })).toEqual(['u2']);
  });

  it('§9.6 S-11: out of command: may not charge, may fire at a threat; no move away from the commander or toward an enemy', () => {
    expect(OUT_OF_COMMAND).toMatchObject({
      mayCharge: false,
      mayFireAtThreat: true,
      mayMove: true,
      thresholdModifier: -3,
    });
    const before = { commander: 15, enemies: [20, 30] };
    expect(outOfCommandMoveAllowed(before, { commander: 12, enemies: [20, 31] })).toBe(true);
    expect(outOfCommandMoveAllowed(before, { commander: 16, enemies: [20, 31] })).toBe(false);
    expect(outOfCommandMoveAllowed(before, { commander: 12, enemies: [19, 31] })).toBe(false);
    expect(outOfCommandMoveAllowed(before, before)).toBe(true);
  });
});

describe('written orders, option #2 [p.17-18]', () => {
  it('§9.6 S-6: French, leaders 26" apart (+2), enemy within 12" (+1), D6 3 → 5 periods', () => {
    const c = {
      nationality: 'french' as const,
      from: 'Defend' as Order,
      to: 'Attack' as Order,
      leadersDistance: 26,
      enemyWithin12OrCommitted: true,
    };
    expect(orderChangeModifiers(c).map((m) => [m.id, m.value])).toEqual([
      ['french', -1],
      ['per12Inches', 2],
      ['enemyWithin12OrCommitted', 1],
    ]);
    const d = orderDelayDist(c);
    expect(d).toEqual([3, 4, 5, 6, 7, 8].map((value) => ({ value, p: 1 / 6 })));
    expect(orderDelayFace(c, 5, lcg(1))).toBe(3);
  });

  it('§9.6 S-7: British cavalry division, leaders touching (−2), D6 2 → −1 → next period', () => {
    const c = {
      nationality: 'british' as const,
      cavalryDivision: true,
      from: 'Attack' as Order,
      to: 'Defend' as Order,
      leadersDistance: 0,
    };
    expect(orderChangeModifiers(c).map((m) => m.value)).toEqual([-1, -2]);
    expect(orderDelayDist(c)).toEqual([
      { value: 1, p: 4 / 6 },
      { value: 2, p: 1 / 6 },
      { value: 3, p: 1 / 6 },
    ]);
  });

  it('order-change modifiers: Napoleon −2, attack → pursuit −1, reserve −3, nations (A-7), leader lost, weather', () => {
    const m = (o: object) =>
      orderChangeModifiers({ nationality: 'british', from: 'Defend', to: 'Attack', leadersDistance: 5, ...o }).map(
        (x) => [x.id, x.value],
      );
    expect(m({ nationality: 'french', napoleonArmyCommander: true })).toEqual([['frenchWithNapoleon', -2]]);
    expect(m({ from: 'Attack', to: 'Pursuit' })).toEqual([['attackToPursuit', -1]]);
    expect(m({ from: 'Reserve' })).toEqual([['onReserve', -3]]);
    expect(m({ nationality: 'spanish' })).toEqual([['spanishOrPre1806Prussian', 2]]);
    expect(m({ nationality: 'prussian', prussian1806: true })).toEqual([['spanishOrPre1806Prussian', 2]]);
    expect(m({ nationality: 'prussian' })).toEqual([['austrianRussianOrPost1806Prussian', 1]]);
    expect(m({ nationality: 'austrian' })).toEqual([['austrianRussianOrPost1806Prussian', 1]]);
    expect(m({ nationality: 'russian', leaderLost: true, badWeather: true, leadersDistance: 2 })).toEqual([
      ['leadersTouching', -2],
      ['austrianRussianOrPost1806Prussian', 1],
      ['leaderLost', 2],
      ['badWeather', 2],
    ]);
    expect(m({ leadersDistance: 11.9 })).toEqual([]);
    expect(m({ leadersDistance: 36 })).toEqual([['per12Inches', 3]]);
    for (const c of [{}, { from: 'Reserve' as Order }, { leadersDistance: 100 }])
      expect(
        sum(orderDelayDist({ nationality: 'french', from: 'Defend', to: 'Attack', leadersDistance: 5, ...c })),
      ).toBeCloseTo(1, 12);
  });

  it('§9.6 S-8: D20 19 misreads (18 with a +1 poor officer); Attack with D6 2 → Manoeuvre', () => {
    const d0 = misreadDist('Attack');
    expect(sum(d0)).toBeCloseTo(1, 12);
    expect(d0).toEqual([
      { value: 'asWritten', p: 18 / 20 },
      { value: 'W', p: 2 / 120 },
      { value: 'M', p: 2 / 120 },
      { value: 'D', p: 8 / 120 },
    ]);
    expect(probOf(misreadDist('Attack', 1), 'asWritten')).toBeCloseTo(17 / 20, 12);
    expect(probOf(misreadDist('Attack', 2), 'asWritten')).toBeCloseTo(16 / 20, 12);
    const f = misreadFaces('Attack', 1, 'M', lcg(3));
    expect(f.d20).toBeGreaterThanOrEqual(18);
    expect(f.d6).toBe(2);
    expect(misreadFaces('Attack', 0, 'asWritten', lcg(3)).d20).toBeLessThanOrEqual(18);
    expect(misreadAsOrder('M')).toBe('Maneuver');
    expect(misreadManoeuvreObjectiveOk(10)).toBe(true);
    expect(misreadManoeuvreObjectiveOk(9.9)).toBe(false);
  });

  it('§9.6 S-9: every row of the misread table, through the distribution', () => {
    const rows: Record<Order, string> = {
      Attack: 'WMDDDD',
      Defend: 'WMAAAA',
      Withdraw: 'DDDMAA',
      Pursuit: 'MMDDDA',
      Maneuver: 'WDDDAA',
      Reserve: 'WWMMAA',
    };
    for (const [o, row] of Object.entries(rows) as [Order, string][]) {
      expect(MISREAD_TABLE[o].join('')).toBe(row);
      const d = misreadDist(o);
      for (const letter of 'ADWM') {
        const n = [...row].filter((c) => c === letter).length;
        expect(probOf(d, letter as 'A')).toBeCloseTo((2 / 20) * (n / 6), 12);
      }
    }
  });

  it('committed at half the division within 12"; Reserve turns to Defend at 24" [p.17]', () => {
    expect(divisionCommitted([10, 12, 13, 30])).toBe(true);
    expect(divisionCommitted([10, 12.5, 13, 30])).toBe(false);
    expect(divisionCommitted([])).toBe(false);
    expect(reserveBecomesDefend(24)).toBe(true);
    expect(reserveBecomesDefend(24.1)).toBe(false);
  });
});

describe('readings', () => {
  it('every interpretation is listed', () => {
    expect(READINGS.length).toBeGreaterThanOrEqual(12);
  });
});
