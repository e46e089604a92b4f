/**
 * Napoleon's Eagles close actions: the book's examples [p.13-15, p.19] as golden tests, every §9 C-* and B-* vector of
 * the digest, exact distributions (summing to 1, checked against brute-force enumeration of the dice), ties and faces.
 */
import { describe, expect, it } from 'vitest';
import type { Dist } from '../../core/dice.ts';
import {
  CLOSE_READINGS,
  type MeleeResult,
  type MoraleInput,
  blockFight,
  blockFightFaces,
  blockFireOut,
  cancelledCloseAction,
  casualtyFace,
  casualtyRoll,
  cavalryVsScreen,
  chargerCheck,
  closeActionFatigue,
  counterChargeCheck,
  defenceActionAvailable,
  defenceChangeCheck,
  defenderCheck,
  enfilade,
  enfiladeBonuses,
  loserCheck,
  mayCharge,
  mass,
  meleeFaces,
  meleeInput,
  meleeResultOf,
  meleeRoll,
  meleeValueMods,
  meleeWinner,
  moraleCheck,
  moraleFace,
  mustLeaveTown,
  outOfControlCheck,
  resolveCavalryCharge,
  resolveCloseAction,
  retreatStatusAfter,
  rideDownDecision,
  rideDownLosses,
  riddenDownCheck,
  severalChargersLosers,
  severalChargersMelee,
  squareDefenceFireFigures,
} from './close.ts';
import { BUILDINGS, FIRES, closeActionCasualties, fireGrowth, fireStarts } from './tables.ts';

const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 12);
const sums1 = <T>(d: readonly Dist<T>[]) => close(mass(d), 1);
const pOf = <T>(d: readonly Dist<T>[], v: T) =>
  d.filter((x) => JSON.stringify(x.value) === JSON.stringify(v)).reduce((t, x) => t + x.p, 0);
const ids = (mods: readonly { id: string; value: number }[]) => mods.map((x) => `${x.id} ${x.value}`);
/** A deterministic uniform source cycling through a few points. */
function seq(...xs: number[]) {
  let k = 0;
  return () => xs[k++ % xs.length]!;
}
const unit = (rating: number, figures: number, over: Partial<MoraleInput> = {}): MoraleInput => ({
  rating,
  originalFigures: figures,
  currentFigures: figures,
  ...over,
});

describe('the book, p.13 Example-1 (C-1): P1 and P2 charge S1', () => {
  // S1 a 3-rank column of 12 with 4 in front (enfilade 8); P1 a 2-rank line of 10 (30) on its front; P2 on its flank
  const s1 = enfilade('threeRankInfantry', 4);
  const p1 = enfilade('twoRankInfantry', 10);
  const e = enfiladeBonuses(s1, [
    { value: p1, arc: 'front', face: 'front' },
    { value: enfilade('twoRankInfantry', 10), arc: 'flankSide', face: 'left' },
  ]);
  const P1 = meleeValueMods(meleeInput(40, { enfilade: e.charger[0] }));
  const P2 = meleeValueMods(meleeInput(40, { enfilade: e.charger[1], arc: 'flankSide' }));
  const S1 = meleeValueMods(meleeInput(40));
  it('P1 = 40 + 5 (enfilade) = 45; P2 = 40 + 10 (flank) = 50; S1 = 40 (A-63: only the frontal P1 combines)', () => {
    expect(e).toEqual({ combined: 30, charger: [true, false], defender: [false, false] });
    expect([P1.value, P2.value, S1.value]).toEqual([45, 50, 40]);
    expect(ids(P1.mods)).toEqual(['enfilade 5']);
    expect(ids(P2.mods)).toEqual(['flankSide 10']);
    expect(P2.mods[0]!.cite).toBe('p.13');
  });
  it('P1 rolls 4 (180), P2 rolls 2 (100), S1 one die of 3 (120): S1 loses to P1, beats P2', () => {
    const a = { mv: 45, base: 40 };
    const b = { mv: 50, base: 40 };
    const s = { mv: 40, base: 40 };
    expect([45 * 4, 50 * 2, 40 * 3]).toEqual([180, 100, 120]);
    expect(meleeResultOf(a, s, 4, 3)).toBe('chargerWins');
    expect(meleeResultOf(b, s, 2, 3)).toBe('defenderWins');
    const r = severalChargersLosers(['chargerWins', 'defenderWins']);
    expect(r).toEqual({ defenderLost: true, chargersLost: [false, true] });
  });
  it('A-65: one defender die for both pairings: P(S1 loses to P1 and beats P2) = 32/216 exactly', () => {
    const d = severalChargersMelee([
      { charger: { mv: 45, base: 40 }, defender: { mv: 40, base: 40 } },
      { charger: { mv: 50, base: 40 }, defender: { mv: 40, base: 40 } },
    ]);
    sums1(d);
    close(pOf(d, ['chargerWins', 'defenderWins']), 32 / 216);
    // per-charger dice (option): independent pairings
    const q = severalChargersMelee(
      [
        { charger: { mv: 45, base: 40 }, defender: { mv: 40, base: 40 } },
        { charger: { mv: 50, base: 40 }, defender: { mv: 40, base: 40 } },
      ],
      'perCharger',
    );
    sums1(q);
    const w1 = pOf(meleeRoll({ mv: 45, base: 40 }, { mv: 40, base: 40 }), 'chargerWins');
    const l2 = pOf(meleeRoll({ mv: 50, base: 40 }, { mv: 40, base: 40 }), 'defenderWins');
    close(pOf(q, ['chargerWins', 'defenderWins']), w1 * l2);
  });
  it('casualty dice per pairing; step 8: S1 checks as loser, P2 with +2 as a charger; fatigue +1 for all three', () => {
    const s1Check = loserCheck(unit(16, 12), { wasCharger: false });
    const p2Check = loserCheck(unit(16, 12), { wasCharger: true });
    expect(s1Check.target).toBe(16);
    expect(p2Check.target).toBe(18);
    expect(ids(p2Check.mods)).toEqual(['loserWasCharger 2']);
    close(pOf(p2Check.dist, 'routs'), 2 / 20);
    expect([closeActionFatigue(0), closeActionFatigue(1), closeActionFatigue(3)]).toEqual([1, 2, 3]);
    // S1 beat P2 on its flank, lost to P1: each pairing its own casualty die, +1 to the pairing's winner only
    const s1VsP2 = casualtyRoll({
      ownInContact: 4,
      chargersInContact: 10,
      winner: true,
      cavalryVsCavalry: false,
      chargerOnFlank: false,
    });
    const p2VsS1 = casualtyRoll({
      ownInContact: 10,
      chargersInContact: 10,
      winner: false,
      cavalryVsCavalry: false,
      chargerOnFlank: true,
    });
    expect(ids(s1VsP2.mods)).toEqual(['winner 1']);
    expect(ids(p2VsS1.mods)).toEqual(['chargerOnFlank 1']);
  });
});

describe('the book, p.13 Example-2 (C-2): R1 (50) charges F1 (40), then F2 (40) charges R1', () => {
  it('R1 vs F1 first; if R1 retreats there, F2 vs R1 is cancelled (A-65): F2 stays, +1 fatigue only if cavalry', () => {
    const d = meleeRoll({ mv: 50, base: 50 }, { mv: 40, base: 40 });
    sums1(d);
    // brute force: 50c > 40d
    let w = 0;
    let t = 0;
    for (let c = 1; c <= 6; c++)
      for (let f = 1; f <= 6; f++) {
        if (50 * c > 40 * f) w++;
        if (50 * c === 40 * f) t++;
      }
    close(pOf(d, 'chargerWins'), w / 36);
    close(pOf(d, 'tieChargerWins'), t / 36); // 50×4 = 40×5: the higher unmodified MV (R1) wins
    expect(cancelledCloseAction(false)).toEqual({ cancelled: true, chargerFatigue: 0 });
    expect(cancelledCloseAction(true)).toEqual({ cancelled: true, chargerFatigue: 1 });
  });
});

describe('the book, p.14 enfilade examples (C-3)', () => {
  it('(i) 10 two-rank figures in line = 30; (ii) 3-rank column of 12, 4 in front = 8; (iii) 9 three-rank in line = 18', () => {
    expect(enfilade('twoRankInfantry', 10)).toBe(30);
    expect(enfilade('threeRankInfantry', 4)).toBe(8);
    expect(enfilade('threeRankInfantry', 9)).toBe(18);
    expect(enfilade('artillery', 6)).toBe(12);
    expect(enfilade('cavalry', 12)).toBe(12);
  });
  it('(iv) two columns totalling 12 charge a line of 24: the line gets +5 against both columns', () => {
    const e = enfiladeBonuses(24, [
      { value: 6, arc: 'front', face: 'front' },
      { value: 6, arc: 'front', face: 'front' },
    ]);
    expect(e).toEqual({ combined: 12, charger: [false, false], defender: [true, true] });
    // one of them alone (6) against 24 also gives the line its bonus; 13 combined would not
    expect(enfiladeBonuses(24, [{ value: 13, arc: 'front', face: 'front' }]).defender).toEqual([false]);
  });
  it('A-63 options: flank chargers stay out (sameFace) or combine (all); a square counts N/8 figures', () => {
    const ch = [
      { value: 8, arc: 'front' as const, face: 'front' },
      { value: 8, arc: 'flankSide' as const, face: 'left' },
    ];
    expect(enfiladeBonuses(8, ch).charger).toEqual([false, false]);
    expect(enfiladeBonuses(8, ch, 'all').charger).toEqual([true, true]);
    expect(enfilade('threeRankInfantry', 0, { figures: 24 })).toBe(6);
  });
});

describe('melee values and the melee roll [p.13-14]', () => {
  it('C-19: light cavalry MV 35, tired, against heavy cavalry: 35 − 5 − 10 = 20', () => {
    const v = meleeValueMods(meleeInput(35, { lightOrMediumVsHeavy: true, fatigue: 2 }));
    expect(v.value).toBe(20);
    expect(ids(v.mods)).toEqual(['lightOrMediumVsHeavy -5', 'tired -10']);
  });
  it('C-8: partial contact −10 to the charger; C-16: echelon vs non-echelon cavalry −5', () => {
    expect(meleeValueMods(meleeInput(45, { partialContact: true })).value).toBe(35);
    expect(meleeValueMods(meleeInput(45, { echelonVsCavalry: true })).value).toBe(40);
  });
  it('C-9: retreat status −20 replaces the disordered −10; A-62 floors at 5', () => {
    const v = meleeValueMods(meleeInput(40, { retreatStatus: true, disordered: true }));
    expect(v.value).toBe(20);
    expect(ids(v.mods)).toEqual(['retreatStatus -20']);
    const f = meleeValueMods(meleeInput(20, { retreatStatus: true, fatigue: 3 }));
    expect(f.value).toBe(5);
    expect(ids(f.mods)).toEqual(['retreatStatus -20', 'exhausted -15', 'floor 20']);
  });
  it('every modifier of the p.13 list, and the leader [p.16]', () => {
    const v = meleeValueMods(
      meleeInput(100, {
        squareVsInfantry: true,
        higherGround: true,
        behind: 'wall',
        roadColumn: true,
        arc: 'flankRear',
        leaderBonus: 10,
      }),
    );
    expect(v.value).toBe(100 - 5 - 5 - 10 - 15 + 15 + 10);
    expect(meleeValueMods(meleeInput(40, { behind: 'hedge' })).value).toBe(35);
  });
  it('C-7 ties: equal totals go to the higher unmodified MV, both roll as losers; equal bases re-fight', () => {
    const a = { mv: 40, base: 45 }; // 45 fatigued
    const b = { mv: 40, base: 40 };
    expect(meleeResultOf(a, b, 3, 3)).toBe('tieChargerWins');
    expect(meleeResultOf(b, a, 3, 3)).toBe('tieDefenderWins');
    expect(meleeResultOf(b, b, 3, 3)).toBe('refight');
    expect(meleeWinner('tieChargerWins')).toEqual({ winner: 'charger', bothLosersForCasualties: true });
    expect(meleeWinner('refight')).toEqual({ winner: null, bothLosersForCasualties: true });
    expect(meleeWinner('defenderWins')).toEqual({ winner: 'defender', bothLosersForCasualties: false });
    const d = meleeRoll(b, b);
    sums1(d);
    close(pOf(d, 'refight'), 6 / 36);
    close(pOf(d, 'chargerWins'), 15 / 36);
    const t = meleeRoll(a, b);
    close(pOf(t, 'tieChargerWins'), 6 / 36);
    expect(pOf(t, 'refight')).toBe(0);
  });
  it('melee distributions match brute force for many MVs and sum to 1', () => {
    for (const [x, y, bx, by] of [
      [45, 40, 45, 40],
      [5, 65, 30, 65],
      [50, 20, 50, 25],
      [35, 35, 40, 40],
    ] as const) {
      const d = meleeRoll({ mv: x, base: bx }, { mv: y, base: by });
      sums1(d);
      const n = new Map<MeleeResult, number>();
      for (let c = 1; c <= 6; c++)
        for (let f = 1; f <= 6; f++) {
          const r = meleeResultOf({ mv: x, base: bx }, { mv: y, base: by }, c, f);
          n.set(r, (n.get(r) ?? 0) + 1);
        }
      for (const [r, k] of n) close(pOf(d, r), k / 36);
    }
  });
  it('faces consistent with a chosen melee result', () => {
    const a = { mv: 45, base: 40 };
    const b = { mv: 40, base: 40 };
    for (const r of meleeRoll(a, b)) {
      const [c, d] = meleeFaces(a, b, r.value, seq(0.1, 0.7, 0.4));
      expect(meleeResultOf(a, b, c, d)).toBe(r.value);
    }
    expect(() => meleeFaces(a, b, 'refight', seq(0.5))).toThrow();
  });
  it('several chargers with one defender die: three chargers against brute force over 6^4', () => {
    const pairs = [
      { charger: { mv: 45, base: 40 }, defender: { mv: 40, base: 40 } },
      { charger: { mv: 50, base: 40 }, defender: { mv: 35, base: 40 } },
      { charger: { mv: 30, base: 30 }, defender: { mv: 45, base: 40 } },
    ];
    const d = severalChargersMelee(pairs);
    sums1(d);
    const n = new Map<string, number>();
    for (let f = 1; f <= 6; f++)
      for (let a = 1; a <= 6; a++)
        for (let b = 1; b <= 6; b++)
          for (let c = 1; c <= 6; c++) {
            const k = [a, b, c].map((x, i) => meleeResultOf(pairs[i]!.charger, pairs[i]!.defender, x, f)).join(',');
            n.set(k, (n.get(k) ?? 0) + 1);
          }
    expect(d.length).toBe(n.size);
    for (const x of d) close(x.p, n.get(x.value.join(','))! / 1296);
  });
});

describe('the Close Action Casualty Chart [p.13] (C-4, C-5, C-6)', () => {
  it('C-4: the winner with 10 figures in contact rolls 5 (+1): row 6, 9+ → 6', () => {
    const r = casualtyRoll({
      ownInContact: 10,
      chargersInContact: 10,
      winner: true,
      cavalryVsCavalry: false,
      chargerOnFlank: false,
    });
    expect(r.column).toBe(10);
    expect(closeActionCasualties(5 + 1, 10)).toBe(6);
    expect(r.dist).toEqual([
      { value: 2, p: 1 / 6 },
      { value: 4, p: 3 / 6 },
      { value: 6, p: 2 / 6 },
    ]);
  });
  it('C-5: cavalry vs cavalry winner, 4 in contact, rolls 6 (+2) = 8 → row 7, 3-4 → 4', () => {
    const r = casualtyRoll({
      ownInContact: 4,
      chargersInContact: 4,
      winner: true,
      cavalryVsCavalry: true,
      chargerOnFlank: false,
    });
    expect(ids(r.mods)).toEqual(['winner 1', 'cavalryVsCavalry 1']);
    expect(closeActionCasualties(6 + 2, 4)).toBe(4);
    expect(casualtyFace(4, 2, 4, seq(0.99))).toBeGreaterThanOrEqual(4);
    sums1(r.dist);
  });
  it('C-6: a loser with 2 in contact rolls 4 → 0; the 1-2 column only hurts on 5+', () => {
    const r = casualtyRoll({
      ownInContact: 2,
      chargersInContact: 6,
      winner: false,
      cavalryVsCavalry: false,
      chargerOnFlank: false,
    });
    expect(closeActionCasualties(4, 2)).toBe(0);
    expect(r.dist).toEqual([
      { value: 0, p: 4 / 6 },
      { value: 2, p: 2 / 6 },
    ]);
  });
  it("A-59 option casualtyColumn 'chargersInContact': both sides read the chargers' figures in contact", () => {
    const r = casualtyRoll({
      ownInContact: 2,
      chargersInContact: 9,
      winner: false,
      cavalryVsCavalry: false,
      chargerOnFlank: false,
      column: 'chargersInContact',
    });
    expect(r.column).toBe(9);
    expect(r.dist[0]).toEqual({ value: 2, p: 2 / 6 });
  });
  it('casualty faces read back to the class', () => {
    for (const x of casualtyRoll({
      ownInContact: 7,
      chargersInContact: 7,
      winner: true,
      cavalryVsCavalry: true,
      chargerOnFlank: true,
    }).dist) {
      const f = casualtyFace(7, 3, x.value, seq(0.3));
      expect(closeActionCasualties(f + 3, 7)).toBe(x.value);
    }
  });
});

describe('morale checks of the procedure [p.12-15]', () => {
  it('step 2 (p.13): one check; failure retreats (or routs in retreat status, C-9: −5)', () => {
    const d = defenderCheck(unit(16, 20, { supported: true, flankCharged: true }));
    expect(d.target).toBe(13);
    expect(ids(d.mods)).toEqual(['supported 1', 'flankCharged -4']);
    expect(d.dist).toEqual([
      { value: 'stands', p: 13 / 20 },
      { value: 'retreats', p: 7 / 20 },
    ]);
    const r = defenderCheck(unit(16, 20, { retreatStatus: true, disordered: true }));
    expect(r.target).toBe(11);
    expect(pOf(r.dist, 'routs')).toBeCloseTo(9 / 20, 12);
  });
  it('C-16: infantry charged by cavalry in echelon takes two checks (must pass both)', () => {
    const one = defenderCheck(unit(18, 20, { lineOrColumnChargedByCavalry: true }), {
      cavalryVsInfantryOrArtillery: true,
    });
    const two = defenderCheck(unit(18, 20, { lineOrColumnChargedByCavalry: true }), {
      cavalryVsInfantryOrArtillery: true,
      echelon: true,
    });
    expect(one.target).toBe(15);
    expect(two.checks).toBe(2);
    close(pOf(two.dist, 'stands'), (15 / 20) ** 2);
    close(pOf(two.dist, 'riddenDown'), 1 - (15 / 20) ** 2);
  });
  it('p.19: infantry in buildings take no step 2 check', () => {
    expect(defenderCheck(unit(5, 12), { inBuilding: true }).dist).toEqual([{ value: 'stands', p: 1 }]);
  });
  it('step 3: a defence action needs an unused action or a stand marker, and not retreat status', () => {
    expect(defenceActionAvailable({ unusedActions: 1, standMarker: false, retreatStatus: false })).toBe(true);
    expect(defenceActionAvailable({ unusedActions: 0, standMarker: true, retreatStatus: false })).toBe(true);
    expect(defenceActionAvailable({ unusedActions: 0, standMarker: false, retreatStatus: false })).toBe(false);
    expect(defenceActionAvailable({ unusedActions: 2, standMarker: false, retreatStatus: true })).toBe(false);
  });
  it('C-10: an infantry charger used both actions; the defender changes formation with +2; failure disordered', () => {
    const c = defenceChangeCheck(unit(15, 20), { chargerUsedBothActions: true });
    expect(c.allowed).toBe(true);
    expect(c.target).toBe(17);
    expect(ids(c.mods)).toEqual(['chargerUsedBothActions 2']);
    expect(c.dist).toEqual([
      { value: 'changed', p: 17 / 20 },
      { value: 'disordered', p: 3 / 20 },
    ]);
  });
  it('C-11: reaction distance (a) 9" none; (b) 9"+10" = 19" +2; (c) 12" no bonus; (d) 6"+10" = 16" +2', () => {
    const u = unit(15, 20, { lineOrColumnChargedByCavalry: true });
    const a = defenceChangeCheck(u, { cavalry: { chargeDistance: 9, changedBeforeCharge: false } });
    const b = defenceChangeCheck(u, { cavalry: { chargeDistance: 9, changedBeforeCharge: true } });
    const c = defenceChangeCheck(u, { cavalry: { chargeDistance: 12, changedBeforeCharge: false } });
    const d = defenceChangeCheck(u, { cavalry: { chargeDistance: 6, changedBeforeCharge: true } });
    expect([a.allowed, a.reactionDistance, a.dist]).toEqual([false, 9, []]);
    expect([b.allowed, b.reactionDistance, b.target]).toEqual([true, 19, 14]);
    expect([c.allowed, c.reactionDistance, c.target]).toEqual([true, 12, 12]);
    expect([d.allowed, d.reactionDistance, d.target]).toEqual([true, 16, 14]);
    expect(ids(d.mods)).toContain('reaction16 2');
  });
  it('step 5: the charger closes or fails; cavalry that fails +1 fatigue, infantry none; out of control +3', () => {
    const inf = chargerCheck(unit(16, 20, { chargingFlank: true }), { cavalry: false });
    expect(inf.target).toBe(17);
    expect(inf.fatigueIfFails).toBe(0);
    const cav = chargerCheck(unit(16, 12, { chargingArtilleryHit: true }), { cavalry: true, outOfControl: true });
    expect(cav.target).toBe(16);
    expect(ids(cav.mods)).toEqual(['chargingArtilleryHit -3', 'outOfControlClosing 3']);
    expect(cav.fatigueIfFails).toBe(1);
  });
  it('step 8: loser in retreat status routs without a check; artillery abandons its guns (C-9)', () => {
    expect(loserCheck(unit(20, 20, { retreatStatus: true }), { wasCharger: false }).dist).toEqual([
      { value: 'routs', p: 1 },
    ]);
    expect(loserCheck(unit(15, 6), { wasCharger: false, artillery: true }).gunsAbandoned).toBe(true);
    expect(retreatStatusAfter(true)).toBe('recovers');
    expect(retreatStatusAfter(false)).toBe('routs');
  });
  it('the full modifier list: casualties, fatigue, outnumbering, square, heavy cavalry, leader, threshold', () => {
    const c = moraleCheck(
      unit(18, 24, {
        currentFigures: 11,
        fatigue: 1,
        enemyFigures: 33,
        squareVsCavalry: true,
        chargedByHeavyCavalry: true,
        behindCover: true,
        leaderBonus: 2,
        thresholdFailed: true,
      }),
    );
    // 13 lost: −6 −3; fatigued −1; 33 vs 11: −3; square +3; heavy −1; cover +2; leader +2; threshold −4
    expect(c.target).toBe(18 - 9 - 1 - 3 + 3 - 1 + 2 + 2 - 4);
    expect(ids(c.mods)).toContain('outnumbered3 -3');
    expect(moraleCheck(unit(16, 12, { enemyFigures: 24, squareVsInfantry: true })).target).toBe(16 - 2 - 1);
  });
  it('D20 faces consistent with pass and fail', () => {
    expect(moraleFace(12, true, seq(0.99))).toBe(12);
    expect(moraleFace(12, false, seq(0))).toBe(13);
    expect(() => moraleFace(20, false, seq(0.5))).toThrow();
  });
});

describe('combined resolution, steps 5-9 (resolveCloseAction)', () => {
  const side = (rating: number, mv: number, figs: number) => ({
    morale: unit(rating, figs),
    melee: meleeInput(mv),
    inContact: 6,
    cavalry: false,
  });
  it('a charger that always closes and always wins: exact casualty and rout chances (33/120 rout)', () => {
    const d = resolveCloseAction({ charger: side(20, 60, 12), defender: side(16, 5, 12) });
    sums1(d);
    expect(d.every((x) => x.value.closed && x.value.winner === 'charger' && x.value.chargerFatigue === 1)).toBe(true);
    close(
      d.filter((x) => x.value.loser === 'routs').reduce((t, x) => t + x.p, 0),
      (4 + 10 + 12 + 7) / 120,
    );
    close(
      d.filter((x) => x.value.defenderLosses === 6).reduce((t, x) => t + x.p, 0),
      1 / 6,
    );
    close(
      d.filter((x) => x.value.chargerLosses === 4).reduce((t, x) => t + x.p, 0),
      2 / 6,
    );
  });
  it('the charger that fails step 5: cavalry +1 fatigue, no melee', () => {
    const c = { ...side(10, 40, 12), cavalry: true };
    const d = resolveCloseAction({ charger: c, defender: { ...side(16, 40, 12), cavalry: true } });
    sums1(d);
    close(
      d.filter((x) => !x.value.closed).reduce((t, x) => t + x.p, 0),
      10 / 20,
    );
    expect(d.find((x) => !x.value.closed)!.value.chargerFatigue).toBe(1);
  });
  it('ties with equal bases re-fight (no loser, both fatigue +1); memoised by inputs', () => {
    const i = { charger: side(20, 40, 12), defender: side(16, 40, 12) };
    const d = resolveCloseAction(i);
    sums1(d);
    close(
      d.filter((x) => x.value.melee === 'refight').reduce((t, x) => t + x.p, 0),
      6 / 36,
    );
    expect(d.filter((x) => x.value.melee === 'refight').every((x) => x.value.loser === null)).toBe(true);
    expect(resolveCloseAction({ ...i })).toBe(d);
  });
  it('A-33: a re-fight starts at step 6 (no step 5 check); A-59 option changes the defender column', () => {
    const i = { charger: side(1, 40, 12), defender: side(16, 40, 12) };
    expect(resolveCloseAction(i).some((x) => !x.value.closed)).toBe(true);
    const r = resolveCloseAction({ ...i, refight: true });
    sums1(r);
    expect(r.every((x) => x.value.closed)).toBe(true);
    const small = { ...side(16, 40, 12), inContact: 2 };
    const own = resolveCloseAction({ charger: side(20, 40, 12), defender: small, refight: true });
    const book = resolveCloseAction({
      charger: side(20, 40, 12),
      defender: small,
      refight: true,
      options: { casualtyColumn: 'chargersInContact' },
    });
    const p4 = (d: typeof own) => d.filter((x) => x.value.chargerLosses === 4).reduce((t, x) => t + x.p, 0);
    expect(p4(own)).toBe(0); // the 1-2 column never gives 4
    expect(p4(book)).toBeGreaterThan(0);
  });
  it('a defender in retreat status that wins recovers; loses → routs', () => {
    const def = {
      ...side(16, 40, 12),
      morale: unit(16, 12, { retreatStatus: true }),
      melee: meleeInput(40, { retreatStatus: true }),
    };
    const d = resolveCloseAction({ charger: side(20, 40, 12), defender: def });
    sums1(d);
    expect(d.filter((x) => x.value.winner === 'charger').every((x) => x.value.loser === 'routs')).toBe(true);
    expect(d.filter((x) => x.value.winner === 'defender').every((x) => x.value.winnerRecovers)).toBe(true);
  });
});

describe('cavalry against infantry or artillery, ride-downs [p.14-15]', () => {
  it('C-12: 12 cavalry figures ride down an 18-figure column: 6 to the column, 1 to the cavalry; step 7 with −1', () => {
    expect(rideDownDecision({ defender: 'infantry', formation: 'column', outsideFrontArc: false })).toMatchObject({
      riddenDown: true,
      why: 'column',
    });
    expect(rideDownLosses(12, 18)).toEqual({ toDefender: 6, toCavalry: 1 });
    expect(rideDownLosses(12, 5)).toEqual({ toDefender: 6, toCavalry: 0 });
    const c = riddenDownCheck(unit(16, 18, { currentFigures: 12 }));
    expect(ids(c.mods)).toEqual(['casualties -3', 'riddenDown -1']);
    expect(c.dist).toEqual([
      { value: 'retreats', p: 12 / 20 },
      { value: 'routs', p: 8 / 20 },
    ]);
  });
  it('C-13 and ride-down example 2: a 12-figure cavalry front against a line of 18 (held) and 17 (ridden down)', () => {
    const o = {
      defender: 'infantry' as const,
      formation: 'line' as const,
      outsideFrontArc: false,
      cavalryFrontRank: 12,
    };
    expect(rideDownDecision({ ...o, lineFigures: 18 })).toMatchObject({ riddenDown: false, why: 'lineHeld' });
    expect(rideDownDecision({ ...o, lineFigures: 17 })).toMatchObject({ riddenDown: true, why: 'lineRiddenDown' });
    // fractions favour the cavalry: 7 cavalry need 10.5, so 10 infantry are ridden down and 11 hold
    expect(rideDownDecision({ ...o, cavalryFrontRank: 7, lineFigures: 10 }).riddenDown).toBe(true);
    expect(rideDownDecision({ ...o, cavalryFrontRank: 7, lineFigures: 11 }).riddenDown).toBe(false);
  });
  it('C-14 and ride-down example 3: half or more of the cavalry started outside the 45° front arc', () => {
    const o = {
      defender: 'infantry' as const,
      formation: 'line' as const,
      outsideFrontArc: true,
      cavalryFrontRank: 8,
      lineFigures: 24,
    };
    expect(rideDownDecision(o)).toMatchObject({ riddenDown: true, why: 'outsideFrontArc' });
    expect(rideDownDecision({ ...o, facedCharge: true }).riddenDown).toBe(false);
    expect(rideDownDecision({ ...o, formation: 'square' }).riddenDown).toBe(false);
  });
  it('C-15: a square that passed is not ridden down; artillery always is; the square fires N/2', () => {
    expect(rideDownDecision({ defender: 'infantry', formation: 'square', outsideFrontArc: false })).toMatchObject({
      riddenDown: false,
      why: 'square',
    });
    expect(rideDownDecision({ defender: 'artillery', formation: 'other', outsideFrontArc: false }).riddenDown).toBe(
      true,
    );
    expect(squareDefenceFireFigures(24)).toBe(12);
    expect(squareDefenceFireFigures(15)).toBe(7);
  });
  it('the whole charge, exact: a line in echelon-charge, the cavalry closes and rides down', () => {
    const d = resolveCavalryCharge({
      cavalry: { morale: unit(18, 12), figures: 12 },
      defender: { morale: unit(16, 18, { lineOrColumnChargedByCavalry: true }), figures: 18 },
      echelon: true,
      riddenDownIfCloses: true,
    });
    sums1(d);
    const stand = 169 / 400;
    // step 7: 16 − 3 (line charged by cavalry) − 3 (6 lost) − 1 (ridden down) = 9
    close(
      pOf(d, {
        result: 'defenderRiddenDown',
        atStep: 2,
        defenderLosses: 6,
        cavalryLosses: 1,
        defender: 'routs',
        cavalryFatigue: 1,
        defenderFatigue: 1,
      }),
      (1 - stand) * (11 / 20),
    );
    close(
      pOf(d, {
        result: 'cavalryFailed',
        atStep: 5,
        defenderLosses: 0,
        cavalryLosses: 0,
        defender: 'stands',
        cavalryFatigue: 1,
        defenderFatigue: 0,
      }),
      stand * (2 / 20),
    );
    close(
      pOf(d, {
        result: 'defenderRiddenDown',
        atStep: 6,
        defenderLosses: 6,
        cavalryLosses: 1,
        defender: 'retreats',
        cavalryFatigue: 1,
        defenderFatigue: 1,
      }),
      stand * (18 / 20) * (9 / 20),
    );
  });
  it('a square holds: the cavalry that closes is turned back (no casualties), +1 fatigue both', () => {
    const d = resolveCavalryCharge({
      cavalry: { morale: unit(16, 12), figures: 12 },
      defender: { morale: unit(16, 24, { squareVsCavalry: true }), figures: 24 },
      riddenDownIfCloses: false,
    });
    sums1(d);
    close(
      pOf(d, {
        result: 'cavalryTurnedBack',
        atStep: 6,
        defenderLosses: 0,
        cavalryLosses: 0,
        defender: 'stands',
        cavalryFatigue: 1,
        defenderFatigue: 1,
      }),
      (19 / 20) * (16 / 20),
    );
  });
  it('a ridden-down unit in retreat status routs (A-60 with p.12)', () => {
    expect(riddenDownCheck(unit(16, 12, { retreatStatus: true })).dist).toEqual([{ value: 'routs', p: 1 }]);
    const d = defenderCheck(unit(16, 12, { retreatStatus: true }), { cavalryVsInfantryOrArtillery: true });
    close(pOf(d.dist, 'riddenDownRouts'), 9 / 20);
  });
});

describe('cavalry against skirmishers, counter-charges, out of control [p.15, p.19]', () => {
  it('A-61: the screen loses the figures in the frontage, the rest checks as a loser', () => {
    const d = cavalryVsScreen({ cavalry: unit(15, 12), screen: unit(16, 8), figuresInFrontage: 4 });
    sums1(d);
    close(pOf(d, { closed: false, removed: 0, screen: 'stands' }), 5 / 20);
    // 4 of 8 lost: −2 → 14
    close(pOf(d, { closed: true, removed: 4, screen: 'routs' }), (15 / 20) * (6 / 20));
    const gone = cavalryVsScreen({ cavalry: unit(20, 12), screen: unit(16, 3), figuresInFrontage: 4 });
    expect(gone).toEqual([{ value: { closed: true, removed: 3, screen: 'gone' }, p: 1 }]);
  });
  it('C-17: counter-charge on the raw rating (no modifiers): 16 → 16/20; failure stays', () => {
    const c = counterChargeCheck(16);
    expect(c.mods).toEqual([]);
    expect(c.dist).toEqual([
      { value: 'charges', p: 16 / 20 },
      { value: 'stays', p: 4 / 20 },
    ]);
  });
  it('C-18: British cavalry that rode down its target (+2): a D20 of 18 makes 20, out of control (3/20)', () => {
    const c = outOfControlCheck({ british: true, riddenDown: true });
    expect(ids(c.mods)).toEqual(['british 1', 'riddenDown 1']);
    expect(c.target).toBe(18);
    close(pOf(c.dist, 'outOfControl'), 3 / 20);
    close(pOf(outOfControlCheck({ guard: true, leader: -1 }).dist, 'outOfControl'), 0);
    close(pOf(outOfControlCheck({}).dist, 'outOfControl'), 1 / 20);
  });
});

describe('close actions in buildings [p.19-20] (B-1 … B-8)', () => {
  it('B-1: 6 outside attack 12 in the block; attacker 4, defender 3 + 1 (in building) + 1 (2:1) = 5 holds', () => {
    const b = blockFight({ attacker: { figures: 6 }, defender: { figures: 12 }, attackerOutside: true });
    expect(ids(b.attackerMods)).toEqual([]);
    expect(ids(b.defenderMods)).toEqual(['defenderInBuilding 1', 'twoToOne 1']);
    expect(b.defenderMods.every((x) => x.cite === 'p.19')).toBe(true);
    sums1(b.dist);
    const [a, d] = blockFightFaces(
      b.attackerMods,
      b.defenderMods,
      { winner: 'defender', attackerLosses: 0, defenderLosses: 0 },
      seq(0.5),
    );
    expect(a).toBeLessThanOrEqual(d + 2);
    // attacker wins iff a > d + 2 (a tie holds for the defender, A-73): (4,1),(5,1),(5,2),(6,1),(6,2),(6,3)
    close(
      b.dist.filter((x) => x.value.winner === 'attacker').reduce((t, x) => t + x.p, 0),
      6 / 36,
    );
    // a natural 6 kills two: both sides on (6,6)
    close(pOf(b.dist, { winner: 'defender', attackerLosses: 2, defenderLosses: 2 }), 1 / 36);
    close(
      b.dist.filter((x) => x.value.defenderLosses === 2).reduce((t, x) => t + x.p, 0),
      1 / 6,
    );
  });
  it('B-2: 7 attackers on one side are illegal (at most 6)', () => {
    expect(() => blockFight({ attacker: { figures: 7 }, defender: { figures: 12 }, attackerOutside: true })).toThrow(
      /at most 6/,
    );
  });
  it('block modifiers: wall side, 3:1 and 4:1, light, guards or grenadiers, militia', () => {
    const b = blockFight({
      attacker: { figures: 3, mostly: 'militia' },
      defender: { figures: 12, mostly: 'guardsOrGrenadiers' },
      attackerOutside: false,
      wallSide: true,
    });
    expect(ids(b.attackerMods)).toEqual(['militia -1']);
    expect(ids(b.defenderMods)).toEqual(['wallSide 1', 'fourToOne 3', 'guardsOrGrenadiers 1']);
    const c = blockFight({
      attacker: { figures: 6, mostly: 'light' },
      defender: { figures: 2 },
      attackerOutside: false,
    });
    expect(ids(c.attackerMods)).toEqual(['threeToOne 2', 'lightInfantry 1']);
    expect(mustLeaveTown(7, 12)).toBe(true);
    expect(mustLeaveTown(6, 12)).toBe(false);
  });
  it('B-3: 8 figures fire out at 5" (a 6 inflicts 2); 7 figures cannot; beyond 6" cannot', () => {
    expect(blockFireOut(8, 5)).toEqual([
      { value: 0, p: 5 / 6 },
      { value: 2, p: 1 / 6 },
    ]);
    expect(blockFireOut(7, 5)).toBeNull();
    expect(blockFireOut(12, 6.5)).toBeNull();
  });
  it('B-4 … B-8: firing into buildings −5; shells, fire growth, extinguishing, no entry at 3 fires', () => {
    expect(BUILDINGS.fireInModifier).toBe(-5);
    expect(fireStarts('shell', 17, true)).toBe(false);
    expect(fireStarts('shell', 17, false)).toBe(true);
    expect(fireGrowth(15)).toBe('accumulate');
    expect(fireGrowth(19)).toBe('accumulateAndSpread');
    // B-7: 8 figures (not sappers) roll 8/4 = 2 D20s; a 20 extinguishes one fire, a 12 nothing
    expect(8 / FIRES.figuresPerExtinguishRoll).toBe(2);
    expect([20, 12].filter((r) => r >= FIRES.extinguish.others.min).length).toBe(1);
    expect([FIRES.noEntryAt, FIRES.maxPerBlock]).toEqual([3, 4]);
  });
});

it('CLOSE_READINGS lists every interpretation', () => {
  expect(CLOSE_READINGS.length).toBe(15);
});

describe('who may charge whom (digest 6.6.1)', () => {
  it('infantry never charges cavalry [p.15] or screens; cavalry charges screens but not blocks or into woods', () => {
    const inf = { kind: 'infantry' as const, formation: 'column' as const };
    const cav = { kind: 'cavalry' as const, formation: 'echelon' as const };
    expect(mayCharge(inf, 'cavalry').ok).toBe(false);
    expect(mayCharge(inf, 'screen').ok).toBe(false);
    expect(mayCharge(inf, 'block').ok).toBe(true);
    expect(mayCharge(inf, 'infantry', true).ok).toBe(true);
    expect(mayCharge({ ...inf, formation: 'square' }, 'infantry').ok).toBe(false);
    expect(mayCharge(cav, 'screen').ok).toBe(true);
    expect(mayCharge(cav, 'block').ok).toBe(false);
    expect(mayCharge(cav, 'infantry', true).ok).toBe(false);
    expect(mayCharge({ ...cav, outOfCommand: true }, 'artillery').ok).toBe(false);
    expect(mayCharge({ ...cav, retreatStatus: true }, 'artillery').ok).toBe(false);
    expect(mayCharge({ kind: 'artillery', formation: 'other' }, 'infantry').ok).toBe(false);
  });
});
