/**
 * Fire resolution of Napoleon's Eagles: the book's firing example (p.8) and artillery example (p.9) number by number,
 * every §9.1 (F-*) and §9.2 (A-*) vector of the digest, exact distributions (sum to 1, faces round-trip), and edges.
 */
import { describe, expect, it } from 'vitest';
import {
  type CanisterShot,
  type FireOutcome,
  type FireResolution,
  type FireTargetDesc,
  type Shot,
  type SmallArmsShot,
  type SolidShot,
  bounceZones,
  caissonResupply,
  casualtyMarginal,
  defenceActionAvailable,
  effectsOnly,
  fireFaces,
  firingFigureCount,
  mayFireProblem,
  outcomeKey,
  outcomeOfFaces,
  resolveFire,
  shotProblem,
} from './fire.ts';
import { artilleryBases, fireModifier, musketFireCasualties } from './tables.ts';

const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-12);
const total = (r: FireResolution) => r.outcomes.reduce((a, x) => a + x.p, 0);
const only = (r: FireResolution): FireOutcome => {
  expect(r.outcomes).toHaveLength(1);
  close(r.outcomes[0]!.p, 1);
  return r.outcomes[0]!.value;
};
const ids = (r: FireResolution, roll = 0) => r.rolls[roll]!.modifiers.map((m) => `${m.id}${m.value}`);
/** A fixed "uniform" source, for faces. */
const seq = (xs: number[]) => {
  let i = 0;
  return () => xs[i++ % xs.length]!;
};

const column: FireTargetDesc = { id: 'T', kind: 'infantry', formation: 'column' };
const line: FireTargetDesc = { id: 'L', kind: 'infantry', formation: 'line' };

/** [p.8] Example of firing-1: a 20-figure C-rated three-rank battalion, fatigued, at a column 4" away. */
const p8: SmallArmsShot = {
  type: 'smallArms',
  weapon: 'musket',
  fire: 'C',
  fatigue: 1,
  actions: 1,
  figures: 20,
  twoRank: false,
  range: 4,
  target: column,
};

/** [p.9] Example of artillery fire: French 12lb, six cannons and two howitzers, B, two actions, solid shot at 14". */
const p9: SolidShot = {
  type: 'solidShot',
  calibre: '12lb',
  fire: 'B',
  fatigue: 0,
  cannons: 6,
  howitzers: 2,
  actions: 2,
  range: 14,
  ammo: 0,
  atRisk: [line, { id: 'C', kind: 'infantry', formation: 'column' }],
};

const canister6: CanisterShot = {
  type: 'canister',
  calibre: '6lb',
  fire: 'B',
  fatigue: 0,
  cannons: 6,
  howitzers: 0,
  actions: 1,
  range: 5,
  ammo: 0,
  target: line,
};

describe('[p.8] the firing example (golden)', () => {
  it('one action: +2 column, −1 fatigued, −1 medium = 0; a 4 reads row 20, column "3,4": 2 casualties', () => {
    const r = resolveFire(p8);
    expect(r.rolls).toHaveLength(1);
    const roll = r.rolls[0]!;
    expect(roll.figures).toBe(20);
    expect(roll.row).toBe(20);
    expect(ids(r)).toEqual(['columnOrSquare2', 'mediumRange-1', 'fatigued-1']);
    expect(roll.modifiers.map((m) => m.cite)).toEqual(['p.9', 'p.9', 'p.9']);
    expect(roll.total).toBe(0);
    const o = outcomeOfFaces(p8, [{ roll: 'fire:T', faces: [4] }]);
    expect(o.targets[0]!.casualties).toBe(2);
    expect(o.targets[0]!.moraleMark).toBe(true); // [p.11] a figure casualty from fire
    expect(o.ammo).toBeNull();
    // every face of the D6 reads 2 on row 20 at modified 1..6
    expect(only(r).targets[0]!.casualties).toBe(2);
  });

  it('two actions: row 40 (2 × 20), modified 4 → 4 casualties', () => {
    const s = { ...p8, actions: 2 as const };
    const r = resolveFire(s);
    expect(r.rolls[0]!.figures).toBe(40);
    expect(r.rolls[0]!.row).toBe(40);
    expect(r.rolls[0]!.total).toBe(0);
    expect(outcomeOfFaces(s, [{ roll: 'fire:T', faces: [4] }]).targets[0]!.casualties).toBe(4);
    expect(only(r).targets[0]!.casualties).toBe(4);
  });

  it('the total equals the tables’ fireModifier for the same inputs', () => {
    const m = fireModifier({
      fire: 'C',
      twoRank: false,
      fatigue: 1,
      firerIsSkirmishScreen: false,
      canister: null,
      band: 'medium',
      target: 'columnOrSquare',
      cover: 'none',
      organicSkirmishers: false,
      weather: 'clear',
      throughSmoke: false,
    });
    expect(resolveFire(p8).rolls[0]!.total).toBe(m);
  });
});

describe('[p.9] the artillery example (golden; A-2)', () => {
  for (const table of ['closeIsCanister', 'extremeBlank'] as const) {
    it(`line: 5, 2 → 1 hit × 6 = 6 → 1 casualty, no fraction; column: 6, 5 → 2 × 12 = 24 → 4 (${table})`, () => {
      const r = resolveFire(p9, { solidShotTable: table });
      const lineRoll = r.rolls.find((x) => x.roll === 'hit:L')!;
      const colRoll = r.rolls.find((x) => x.roll === 'hit:C')!;
      expect(lineRoll.dice).toBe(2); // 2xD6 for two actions
      expect(lineRoll.damagePerHit).toBe(6); // six cannons
      expect(colRoll.damagePerHit).toBe(12); // doubled for the column
      // the howitzers add nothing at 14" (minimum 16")
      expect(lineRoll.damageModifiers!.map((m) => m.id)).toEqual(['cannons']);
      expect(colRoll.damageModifiers!.map((m) => m.id)).toEqual(['cannons', 'dense']);
      expect(r.rolls.find((x) => x.roll === 'ammo')!.dice).toBe(2);
      const o = outcomeOfFaces(
        p9,
        [
          { roll: 'hit:L', faces: [5, 2] },
          { roll: 'hit:C', faces: [6, 5] },
          { roll: 'ammo', faces: [3, 1] },
        ],
        { solidShotTable: table },
      );
      expect(o.targets[0]).toMatchObject({ id: 'L', hits: 1, damage: 6, fraction: 'none', casualties: 1 });
      expect(o.targets[1]).toMatchObject({ id: 'C', hits: 2, damage: 24, fraction: 'none', casualties: 4 });
      expect(o.ammo).toEqual({ dice: 2, sixes: 0, level: 0, out: false });
      close(total(r), 1);
    });
  }

  it('the line at 14" is medium range (12lb: up to 20"), bounce 10"', () => {
    expect(bounceZones('12lb', 'medium').first).toBe(10);
  });
});

describe('§9.1 fire vectors', () => {
  const at = (figures: number, mod: number) => musketFireCasualties(figures, mod);
  it('F-1, F-2: the p.8 example (above) as plain table reads', () => {
    expect(at(20, 4)).toBe(2);
    expect(at(40, 4)).toBe(4);
  });
  it('F-3: row 4 at modified 12 → 2 (the printed cap)', () => {
    expect(at(4, 12)).toBe(2);
    const s: SmallArmsShot = { ...p8, figures: 4, fatigue: 0, range: 1, fire: 'A', twoRank: true };
    // 6 + 2 (A) + 2 (column) + 2 (two-rank) = 12 → 2
    expect(outcomeOfFaces(s, [{ roll: 'fire:T', faces: [6] }]).targets[0]!.casualties).toBe(2);
  });
  it('F-4: any row at −5 or less → 0', () => {
    for (const n of [4, 24, 48, 60]) for (const m of [-5, -6, -12]) expect(at(n, m)).toBe(0);
    // a shot whose best face is −5: every outcome 0, no morale mark
    const s: SmallArmsShot = {
      ...p8,
      fire: 'E',
      fatigue: 3,
      range: 8,
      target: { ...line, cover: 'buildings' },
    };
    const r = resolveFire(s);
    expect(r.rolls[0]!.total).toBe(-2 - 5 - 3 - 5); // E, extreme, exhausted, buildings
    const o = only(r);
    expect(o.targets[0]!.casualties).toBe(0);
    expect(o.targets[0]!.moraleMark).toBe(false);
  });
  it('F-5: row 48 at −2 → 4; 36 at −4 → 2; 32 at −4 → 0; 8 at 11 → 4', () => {
    expect([at(48, -2), at(36, -4), at(32, -4), at(8, 11)]).toEqual([4, 2, 0, 4]);
  });
  it('F-6: 18 figures, one action, modified 1 → row 20 → 2', () => {
    const s: SmallArmsShot = { ...p8, figures: 18, fatigue: 0, range: 2, target: line };
    const r = resolveFire(s);
    expect(r.rolls[0]!.row).toBe(20);
    expect(r.rolls[0]!.total).toBe(0);
    expect(outcomeOfFaces(s, [{ roll: 'fire:L', faces: [1] }]).targets[0]!.casualties).toBe(2);
  });
  it('F-7: 30 figures for two actions (60), modified 1 → closed form 6', () => {
    const s: SmallArmsShot = { ...p8, figures: 30, actions: 2, fatigue: 0, range: 2, target: line };
    const r = resolveFire(s);
    expect(r.rolls[0]!.figures).toBe(60);
    expect(outcomeOfFaces(s, [{ roll: 'fire:L', faces: [1] }]).targets[0]!.casualties).toBe(6);
  });
  it('F-8: A-rated two-rank, 24 figures, square at 2", Normal, D6 6 → 12 → row 24, 12+ → 6', () => {
    const s: SmallArmsShot = {
      ...p8,
      fire: 'A',
      twoRank: true,
      fatigue: 0,
      figures: 24,
      range: 2,
      target: { id: 'Q', kind: 'infantry', formation: 'square' },
    };
    const r = resolveFire(s);
    expect(r.rolls[0]!.total).toBe(6);
    expect(outcomeOfFaces(s, [{ roll: 'fire:Q', faces: [6] }]).targets[0]!.casualties).toBe(6);
  });
  it('F-9: R class, 12 figures, at a screen 7" (rifle long), D6 5 → 0 → row 12, column 0 → 0', () => {
    const s: SmallArmsShot = {
      ...p8,
      weapon: 'rifle',
      fire: 'R',
      fatigue: 0,
      figures: 12,
      range: 7,
      target: { id: 'S', kind: 'infantry', formation: 'skirmish' },
    };
    const r = resolveFire(s);
    expect(ids(r)).toEqual(['rifleClass1', 'longRange-3', 'skirmishers-3']);
    expect(r.rolls[0]!.total).toBe(-5);
    expect(outcomeOfFaces(s, [{ roll: 'fire:S', faces: [5] }]).targets[0]!.casualties).toBe(0);
  });
  it('F-10: a 20-figure line with a screen between: 5 at the screen (−3), 15 (row 16) at the target', () => {
    const s: SmallArmsShot = {
      ...p8,
      fatigue: 0,
      range: 5,
      target: line,
      screen: { unit: { id: 'S', kind: 'infantry', formation: 'skirmish' }, range: 3 },
    };
    const r = resolveFire(s);
    expect(r.rolls.map((x) => [x.roll, x.figures, x.row])).toEqual([
      ['fire:S', 5, 4],
      ['fire:L', 15, 16],
    ]);
    expect(ids(r, 0)).toEqual(['mediumRange-1', 'skirmishers-3']);
    expect(ids(r, 1)).toEqual(['longRange-3']);
    close(total(r), 1);
    // two actions: each share doubled
    const r2 = resolveFire({ ...s, actions: 2 });
    expect(r2.rolls.map((x) => x.figures)).toEqual([10, 30]);
    // not for cavalry carbines (infantry only), and never for artillery (no screen field on artillery shots)
    expect(shotProblem({ ...s, weapon: 'carbine', range: 2 }, { carbines: true })).toMatch(/infantry/);
  });
  it('F-11: organic skirmishers −1 (optional); none in square, disordered or retreat status', () => {
    const t: FireTargetDesc = { ...line, organicSkirmishers: true };
    const s: SmallArmsShot = { ...p8, fatigue: 0, range: 3, target: t };
    expect(ids(resolveFire(s, { organicSkirmishers: true }))).toContain('organicSkirmishers-1');
    expect(resolveFire(s, { organicSkirmishers: true }).rolls[0]!.modifiers.at(-1)!.cite).toBe('p.18');
    expect(ids(resolveFire(s))).not.toContain('organicSkirmishers-1'); // the rule is optional, off by default
    for (const x of [{ formation: 'square' as const }, { disordered: true }, { retreatStatus: true }])
      expect(ids(resolveFire({ ...s, target: { ...t, ...x } }, { organicSkirmishers: true }))).not.toContain(
        'organicSkirmishers-1',
      );
    // fired on from the flank: the caller does not set the flag (organic screens cover the front only)
  });
  it('F-12: a 24-figure square charged by cavalry fires 12 (row 12) at close range', () => {
    const n = firingFigureCount({ formation: 'square', figures: 24, frontRank: 3, bearing: 3, defence: 'cavalry' });
    expect(n).toBe(12);
    const s: SmallArmsShot = { ...p8, fatigue: 0, figures: n, range: 7, defence: 'cavalry', target: line };
    const r = resolveFire(s);
    expect(r.rolls[0]!.row).toBe(12);
    expect(ids(r)).toEqual([]); // close range: no range modifier
    expect(firingFigureCount({ formation: 'square', figures: 24, frontRank: 3, bearing: 3 })).toBe(3); // N/8
    expect(firingFigureCount({ formation: 'square', figures: 24, frontRank: 3, bearing: 3, defence: 'infantry' })).toBe(
      3,
    );
    expect(firingFigureCount({ formation: 'line', figures: 20, frontRank: 20, bearing: 7, defence: 'cavalry' })).toBe(
      20,
    );
    expect(firingFigureCount({ formation: 'line', figures: 30, frontRank: 30, bearing: 11, defence: 'cavalry' })).toBe(
      11,
    );
    expect(firingFigureCount({ formation: 'line', figures: 20, frontRank: 20, bearing: 7 })).toBe(7);
  });
  it('F-13: two consecutive actions place smoke (optional); the next fire through it gets −2', () => {
    expect(resolveFire({ ...p8, actions: 2 }, { smoke: true }).smoke).toBe(true);
    expect(resolveFire({ ...p8, actions: 2 }).smoke).toBe(false); // option off
    expect(resolveFire({ ...p8, actions: 1 }, { smoke: true }).smoke).toBe(false);
    expect(resolveFire({ ...p8, actions: 2, skirmishScreen: true }, { smoke: true }).smoke).toBe(false);
    const through = resolveFire({ ...p8, throughSmoke: true }, { smoke: true });
    expect(ids(through)).toContain('smoke-2');
    expect(through.rolls[0]!.total).toBe(-2);
  });
});

describe('§9.2 artillery vectors', () => {
  it('A-1: a 6-gun battery with canister reads row 12; two actions row 24', () => {
    expect(resolveFire(canister6).rolls[0]!.row).toBe(12);
    expect(resolveFire({ ...canister6, actions: 2 }).rolls[0]!.row).toBe(24);
  });
  it('A-2: the p.9 example (above)', () => {
    expect(resolveFire(p9).rolls.map((r) => r.roll)).toEqual(['hit:L', 'hit:C', 'ammo']);
  });
  it('A-3: 3 damage points in total: D6 1-3 → 1 casualty; 4-6 → 0', () => {
    const s: SolidShot = { ...p9, cannons: 3, howitzers: 0, actions: 1, atRisk: [line] };
    const r = resolveFire(s);
    expect(r.rolls[0]!.damagePerHit).toBe(3);
    for (let f = 1; f <= 6; f++) {
      const o = outcomeOfFaces(s, [
        { roll: 'hit:L', faces: [6] },
        { roll: 'fraction:L', faces: [f] },
        { roll: 'ammo', faces: [1] },
      ]);
      expect(o.targets[0]!.casualties).toBe(f <= 3 ? 1 : 0);
      expect(o.targets[0]!.fraction).toBe(f <= 3 ? 'made' : 'missed');
    }
    // P(1 casualty) = P(hit 4-6) × P(fraction 1-3) = 1/2 × 1/2
    close(casualtyMarginal(r, 'L').find((x) => x.value === 1)!.p, 1 / 4);
  });
  it('A-4: a column at 18", one action, a 4: (6 + 2 × 2) × 2 = 20 → 3 + fraction 2 (D6 ≤ 2 → +1)', () => {
    const s: SolidShot = { ...p9, actions: 1, range: 18, atRisk: [column] };
    const r = resolveFire(s);
    expect(r.rolls[0]!.damagePerHit).toBe(20);
    expect(r.rolls[0]!.damageModifiers!.map((m) => `${m.id}${m.value}`)).toEqual(['cannons6', 'howitzers4', 'dense0']);
    const go = (f: number) =>
      outcomeOfFaces(s, [
        { roll: 'hit:T', faces: [4] },
        { roll: 'fraction:T', faces: [f] },
        { roll: 'ammo', faces: [2] },
      ]).targets[0]!.casualties;
    expect([1, 2, 3, 6].map(go)).toEqual([4, 4, 3, 3]);
  });
  it('A-5: solid shot at unlimbered artillery, 1 hit: 6 − 4 = 2 → D6 ≤ 2 → 1 hit; artillery fired on by artillery', () => {
    const bat: FireTargetDesc = { id: 'B', kind: 'artillery', formation: 'unlimbered', guns: 6, hits: 0 };
    const s: SolidShot = { ...p9, actions: 1, atRisk: [bat] };
    expect(resolveFire(s).rolls[0]!.damagePerHit).toBe(2);
    const o = outcomeOfFaces(s, [
      { roll: 'hit:B', faces: [5] },
      { roll: 'fraction:B', faces: [2] },
      { roll: 'ammo', faces: [2] },
    ]);
    expect(o.targets[0]).toMatchObject({
      casualties: 1,
      moraleMark: true,
      moraleReasons: ['artilleryFiredOnByArtillery'],
    });
    // massed artillery counts as limbered: −2
    expect(resolveFire({ ...s, atRisk: [{ ...bat, massed: true }] }).rolls[0]!.damagePerHit).toBe(4);
  });
  it('A-6: a line hit from 60° off its facing axis is dense: damage doubled; at 30° it is not', () => {
    const s: SolidShot = { ...p9, actions: 1, atRisk: [{ ...line, flightAngle: 60 }] };
    expect(resolveFire(s).rolls[0]!.damagePerHit).toBe(12);
    expect(resolveFire({ ...s, atRisk: [{ ...line, flightAngle: 30 }] }).rolls[0]!.damagePerHit).toBe(6);
    // [p.21] retreat status counts as column against solid shot
    expect(resolveFire({ ...s, atRisk: [{ ...line, retreatStatus: true }] }).rolls[0]!.damagePerHit).toBe(12);
  });
  it('A-7: 8lb shot aimed at 30" (long, bounce 8"), the whole path uphill → 4"', () => {
    expect(bounceZones('8-9lb', 'long', [{ length: 30, ground: 'slow' }]).first).toBe(4);
    expect(bounceZones('8-9lb', 'long', [{ length: 2, ground: 'slow' }]).first).toBe(6); // 2" uses 4"
    const stopped = bounceZones(
      '8-9lb',
      'long',
      [
        { length: 3, ground: 'open' },
        { length: 1, ground: 'stop' },
      ],
      true,
    );
    expect(stopped).toEqual({ first: 3, stopped: true, second: null });
    expect(bounceZones('8-9lb', 'long', [], true).second).toEqual({ from: 12, to: 16 });
  });
  it('A-8: 6lb B, 6 guns, canister at a line 5", Normal, D6 3 → 8 → row 12 "8,9" → 2; 2 actions → 4; rapid → 4', () => {
    const r = resolveFire(canister6);
    expect(ids(r)).toEqual(['ratingB1', 'canister6lb4']);
    expect(r.rolls[0]!.total).toBe(5);
    const faces = (s: CanisterShot, f: number, ammo: number[]) =>
      outcomeOfFaces(s, [
        { roll: 'fire:L', faces: [f] },
        { roll: 'ammo', faces: ammo },
      ]);
    expect(faces(canister6, 3, [1]).targets[0]!.casualties).toBe(2);
    expect(faces({ ...canister6, actions: 2 }, 3, [1, 1]).targets[0]!.casualties).toBe(4);
    const rapid = { ...canister6, rapid: true };
    const o = faces(rapid, 3, [1, 6]);
    expect(o.targets[0]!.casualties).toBe(4);
    expect(o.fatigue).toEqual({ from: 0, to: 3 }); // Normal → Exhausted
    expect(o.ammo).toEqual({ dice: 2, sixes: 1, level: 1, out: false });
  });
  it('A-9: 6 cannons + 2 howitzers, canister at 5" → row 16; 12lb at 7" → howitzers excluded, row 12', () => {
    expect(resolveFire({ ...canister6, howitzers: 2 }).rolls[0]!.row).toBe(16);
    expect(resolveFire({ ...canister6, calibre: '12lb', howitzers: 2, range: 7 }).rolls[0]!.row).toBe(12);
  });
  it('A-10: guns → bases 2 → 1, 6 → 2, 8 → 3', () => {
    expect([2, 6, 8].map(artilleryBases)).toEqual([1, 2, 3]);
  });
  it('A-11: neutralised at 8 hits (8 guns), 6 (6 guns), 7 (6-gun Guard); option cannons only', () => {
    const hitOn = (t: FireTargetDesc, o = {}) =>
      outcomeOfFaces(
        { ...canister6, target: t },
        [
          { roll: 'fire:B', faces: [6] },
          { roll: 'ammo', faces: [1] },
        ],
        o,
      ).targets[0]!;
    const bat = (guns: number, hits: number, guardBattery = false): FireTargetDesc => ({
      id: 'B',
      kind: 'artillery',
      formation: 'unlimbered',
      guns,
      hits,
      guardBattery,
    });
    // 6 + 1 + 4 − 3 = 8 → row 12, "8,9" → 2 hits
    expect(hitOn(bat(8, 6))).toMatchObject({ casualties: 2, neutralised: true, eliminated: true });
    expect(hitOn(bat(8, 5)).neutralised).toBe(false);
    expect(hitOn(bat(6, 4)).neutralised).toBe(true);
    expect(hitOn(bat(6, 4, true)).neutralised).toBe(false);
    expect(hitOn(bat(6, 5, true)).neutralised).toBe(true);
    expect(hitOn({ ...bat(8, 4), cannons: 6 }, { neutralisedAt: 'cannons' }).neutralised).toBe(true);
    expect(hitOn({ ...bat(8, 4), cannons: 6 }).neutralised).toBe(false);
  });
  it('A-12: sixes 1, 2, 3 → running low, critical, out; a regimental gun is out at the 2nd six', () => {
    const lvl = (ammo: 0 | 1 | 2, regimental = false) =>
      outcomeOfFaces({ ...canister6, ammo, regimental }, [
        { roll: 'fire:L', faces: [1] },
        { roll: 'ammo', faces: [6] },
      ]).ammo!;
    expect([lvl(0).level, lvl(1).level, lvl(2).level]).toEqual([1, 2, 3]);
    expect(lvl(2).out).toBe(true);
    expect(lvl(1, true)).toMatchObject({ level: 3, out: true });
    expect(shotProblem({ ...canister6, ammo: 3 })).toMatch(/ammunition/);
    expect(shotProblem({ ...canister6, ammo: 2, regimental: true })).toMatch(/ammunition/);
    // P(a six among 2 dice) = 11/36
    const r = resolveFire({ ...canister6, actions: 2 });
    const p = r.outcomes.filter((x) => x.value.ammo!.sixes > 0).reduce((a, x) => a + x.p, 0);
    close(p, 11 / 36);
  });
  it('A-13: a caisson in contact in period 4: resupplied at the end of period 5; fires in period 6', () => {
    expect(caissonResupply(4)).toEqual({ resuppliedEndOf: 5, firesFrom: 6 });
  });
  it('A-14: a battery that fired both actions has no defence action', () => {
    expect(defenceActionAvailable(4)).toBe(false);
    expect(defenceActionAvailable(2)).toBe(true);
    expect(defenceActionAvailable(0, true)).toBe(false);
  });
  it('A-15: rapid fire with 2 actions: 4 ammunition dice, casualties ×2, fatigue +3', () => {
    const s = { ...canister6, actions: 2 as const, rapid: true };
    const r = resolveFire(s);
    expect(r.rolls.find((x) => x.roll === 'ammo')!.dice).toBe(4);
    const o = outcomeOfFaces(s, [
      { roll: 'fire:L', faces: [3] },
      { roll: 'ammo', faces: [6, 6, 1, 1] },
    ]);
    expect(o.targets[0]!.casualties).toBe(8);
    expect(o.fatigue).toEqual({ from: 0, to: 3 });
    expect(o.ammo).toEqual({ dice: 4, sixes: 2, level: 2, out: false });
    close(total(r), 1);
    // as a defence action: the option A-49 (+3 default, +2 alternative)
    const d = { ...s, actions: 1 as const, defence: 'cavalry' as const };
    expect(shotProblem({ ...s, defence: 'cavalry' })).toMatch(/one action/);
    expect(resolveFire(d, { rapidFireDefenceFatigue: 2 }).outcomes[0]!.value.fatigue).toEqual({ from: 0, to: 2 });
    expect(resolveFire(d).outcomes[0]!.value.fatigue).toEqual({ from: 0, to: 3 });
  });
  it('A-16: 12lb canister hitting infantry at 9" → the −1 morale reason (12lb at ≤10")', () => {
    const s: CanisterShot = { ...canister6, calibre: '12lb', range: 9 };
    const o = outcomeOfFaces(s, [
      { roll: 'fire:L', faces: [6] },
      { roll: 'ammo', faces: [1] },
    ]);
    expect(o.targets[0]!.moraleReasons).toEqual(['twelvePounders']);
    // [p.12] "fired upon": the reason stands with no casualty too (no mark)
    const miss = outcomeOfFaces({ ...s, target: { ...line, cover: 'buildings', kind: 'cavalry' }, fire: 'E' }, [
      { roll: 'fire:L', faces: [1] },
      { roll: 'ammo', faces: [1] },
    ]);
    expect(miss.targets[0]).toMatchObject({ casualties: 0, moraleMark: false, moraleReasons: ['twelvePounders'] });
    const o6 = outcomeOfFaces(canister6, [
      { roll: 'fire:L', faces: [6] },
      { roll: 'ammo', faces: [1] },
    ]);
    expect(o6.targets[0]!.moraleReasons).toEqual([]);
  });
});

describe('modifiers (§6.4.6)', () => {
  it('A-42: only the worst cover counts (walls −3 over light woods −1), cited', () => {
    const r = resolveFire({ ...p8, target: { ...line, cover: ['lightWoods', 'walls'] } });
    const cover = r.rolls[0]!.modifiers.filter((m) => ['behindWalls', 'lightWoods'].includes(m.id));
    expect(cover).toEqual([{ id: 'behindWalls', value: -3, cite: 'p.9, A-42', text: expect.any(String) }]);
    expect(ids(resolveFire({ ...p8, target: { ...line, cover: ['hedges', 'denseWoods'] } }))).toContain('denseWoods-3');
  });
  it('canister: no range or two-rank modifier, skirmishers −4, limbered −1, column +2; weather only small arms', () => {
    const screen: FireTargetDesc = { id: 'S', kind: 'infantry', formation: 'skirmish' };
    expect(ids(resolveFire({ ...canister6, target: screen }))).toEqual([
      'ratingB1',
      'canister6lb4',
      'skirmishersCanister-4',
    ]);
    const lim: FireTargetDesc = { id: 'B', kind: 'artillery', formation: 'limbered' };
    expect(ids(resolveFire({ ...canister6, target: lim }))).toContain('limberedArtillery-1');
    expect(ids(resolveFire({ ...canister6, target: column }))).toContain('columnOrSquare2');
    const rain = { weather: true };
    expect(ids(resolveFire({ ...canister6, weather: 'lightRain' }, rain))).not.toContain('lightRain-2');
    expect(ids(resolveFire({ ...p8, weather: 'lightRain' }, rain))).toContain('lightRain-2');
    expect(ids(resolveFire({ ...p8, weather: 'heavySnow' }, rain))).toContain('heavySnow-2');
    expect(ids(resolveFire({ ...p8, weather: 'lightRain' }))).not.toContain('lightRain-2'); // option off
  });
  it('firer: ratings, rifle class, fatigue, two-rank, screen −1; disordered screens are formed targets [p.21]', () => {
    const s: SmallArmsShot = { ...p8, fire: 'D', fatigue: 2, twoRank: true, skirmishScreen: true, target: line };
    expect(ids(resolveFire(s))).toEqual([
      'ratingD-1',
      'twoRankTraining2',
      'mediumRange-1',
      'tired-2',
      'firerIsSkirmishScreen-1',
    ]);
    const ds: FireTargetDesc = { id: 'S', kind: 'infantry', formation: 'skirmish', disordered: true };
    expect(ids(resolveFire({ ...p8, target: ds }))).not.toContain('skirmishers-3');
    // a retreating column keeps its column for the +2, cited with p.21
    const rc = resolveFire({ ...p8, target: { ...column, retreatStatus: true } });
    expect(rc.rolls[0]!.modifiers[0]).toMatchObject({ id: 'columnOrSquare', cite: 'p.9, p.21, A-42' });
    // unlimbered artillery −3
    expect(ids(resolveFire({ ...p8, target: { id: 'B', kind: 'artillery', formation: 'unlimbered' } }))).toContain(
      'unlimberedArtillery-3',
    );
  });
  it('carbines: optional, cavalry ranges 2/3/4", no extreme, no two-rank', () => {
    const c: SmallArmsShot = { ...p8, weapon: 'carbine', twoRank: true, range: 4, fatigue: 0, target: line };
    expect(shotProblem(c)).toMatch(/optional/);
    expect(ids(resolveFire(c, { carbines: true }))).toEqual(['longRange-3']);
    expect(shotProblem({ ...c, range: 5 }, { carbines: true })).toMatch(/range/);
  });
});

describe('solid shot details', () => {
  it('A-45: closeIsCanister forbids a point of aim in the close band; extremeBlank forbids extreme', () => {
    expect(shotProblem({ ...p9, range: 8 })).toMatch(/canister/);
    expect(shotProblem({ ...p9, range: 8 }, { solidShotTable: 'extremeBlank' })).toBeUndefined();
    expect(shotProblem({ ...p9, range: 50 })).toBeUndefined();
    expect(shotProblem({ ...p9, range: 50 }, { solidShotTable: 'extremeBlank' })).toMatch(/extreme/);
    expect(shotProblem({ ...p9, range: 65 })).toMatch(/beyond/);
    // A hits 5-6 at extreme (default reading)
    const r = resolveFire({ ...p9, fire: 'A', range: 50, actions: 1, atRisk: [column] });
    expect(r.rolls[0]!.hitFaces).toEqual([5, 6]);
  });
  it('the howitzer +2 each goes to the first unit only; smoke −1 on the hit die (optional)', () => {
    const s: SolidShot = { ...p9, range: 20, atRisk: [line, column] };
    const r = resolveFire(s);
    expect(r.rolls[0]!.damagePerHit).toBe(10);
    expect(r.rolls[1]!.damagePerHit).toBe(12);
    expect(resolveFire({ ...s, throughSmoke: true }, { smoke: true }).rolls[0]!.hitFaces).toEqual([5, 6]);
    expect(resolveFire({ ...s, throughSmoke: true }).rolls[0]!.hitFaces).toEqual([4, 5, 6]);
  });
  it('skirmishers −8 (floored at 0, A-47); woods −4 or the A-44 option −2', () => {
    const scr: FireTargetDesc = { id: 'S', kind: 'infantry', formation: 'skirmish' };
    expect(resolveFire({ ...p9, atRisk: [scr] }).rolls[0]!.damagePerHit).toBe(0);
    const w: FireTargetDesc = { ...column, cover: 'lightWoods' };
    expect(resolveFire({ ...p9, atRisk: [w] }).rolls[0]!.damagePerHit).toBe(4);
    expect(resolveFire({ ...p9, atRisk: [w] }, { solidShotCover: -2 }).rolls[0]!.damagePerHit).toBe(8);
  });
  it('rapid fire doubles the casualties after the fraction roll', () => {
    const s: SolidShot = { ...p9, cannons: 3, howitzers: 0, actions: 1, rapid: true, atRisk: [line] };
    const o = outcomeOfFaces(s, [
      { roll: 'hit:L', faces: [6] },
      { roll: 'fraction:L', faces: [1] },
      { roll: 'ammo', faces: [1, 1] },
    ]);
    expect(o.targets[0]!.casualties).toBe(2);
  });
  it('rapid fire needs Normal fatigue and no heavy rain', () => {
    expect(shotProblem({ ...canister6, rapid: true, fatigue: 1 })).toMatch(/Normal/);
    expect(shotProblem({ ...canister6, rapid: true, weather: 'heavyRain' }, { weather: true })).toMatch(/rain/);
    expect(shotProblem({ ...canister6, rapid: true, weather: 'lightRain' }, { weather: true })).toBeUndefined();
  });
});

describe('applying results (§6.4.8)', () => {
  it('A-43: a unit left below 2 figures is eliminated; a leader attached risks D10 ≤ ceil(cas/2)', () => {
    const t: FireTargetDesc = { ...column, figures: 3, leaderAttached: true, firedOnFromFlank: true };
    const o = outcomeOfFaces({ ...p8, target: t }, [{ roll: 'fire:T', faces: [4] }]);
    expect(o.targets[0]).toMatchObject({ casualties: 2, eliminated: true, leaderLossUpTo: 1 });
    expect(o.targets[0]!.moraleReasons).toEqual(['firedOnFlank']);
  });
  it('infantry in buildings take no morale mark [p.19]; a caisson is destroyed at 2 casualties [p.11]', () => {
    const b: FireTargetDesc = { ...line, cover: 'buildings' };
    const s: SmallArmsShot = { ...p8, figures: 48, fire: 'A', range: 1, fatigue: 0, target: b };
    const o = outcomeOfFaces(s, [{ roll: 'fire:L', faces: [6] }]); // 6 + 2 − 5 = 3 → row 48 → 4
    expect(o.targets[0]).toMatchObject({ casualties: 4, moraleMark: false });
    const cais: FireTargetDesc = { id: 'K', kind: 'caisson', formation: 'limbered', caissonHits: 0 };
    const k = outcomeOfFaces({ ...p8, target: cais }, [{ roll: 'fire:K', faces: [4] }]);
    expect(k.targets[0]).toMatchObject({ casualties: 2, eliminated: true, moraleMark: false });
  });
});

describe('firing out of buildings [p.19] (A-74)', () => {
  it('8-12 figures, within 6": a 6 on one D6 → 2 casualties', () => {
    const s: Shot = { type: 'buildingFireOut', figures: 8, range: 6, target: line };
    const r = resolveFire(s);
    close(casualtyMarginal(r, 'L').find((x) => x.value === 2)!.p, 1 / 6);
    close(total(r), 1);
    expect(outcomeOfFaces(s, [{ roll: 'fire:L', faces: [6] }]).targets[0]!.casualties).toBe(2);
    expect(outcomeOfFaces(s, [{ roll: 'fire:L', faces: [5] }]).targets[0]!.casualties).toBe(0);
    expect(shotProblem({ ...s, figures: 7 })).toMatch(/8 or more/);
    expect(shotProblem({ ...s, range: 6.5 })).toMatch(/6"/);
  });
});

describe('edges', () => {
  it('12+ column: row 24 at modified 12 or more → 6; row 4 never more than 2', () => {
    const s: SmallArmsShot = { ...p8, fire: 'A', twoRank: true, fatigue: 0, figures: 24, range: 1, target: column };
    // +6: faces 6 → 12 → 6 casualties; 5 → 11 → 4
    const m = casualtyMarginal(resolveFire(s), 'T');
    expect(m.map((x) => x.value)).toEqual([4, 6]);
    close(m[1]!.p, 1 / 6);
  });
  it('extreme range: musket 8" (−5), rifle 12"; beyond is refused; inside woods 4"/2"', () => {
    expect(ids(resolveFire({ ...p8, range: 8 }))).toContain('extremeRange-5');
    expect(ids(resolveFire({ ...p8, weapon: 'rifle', range: 12 }))).toContain('extremeRange-5');
    expect(() => resolveFire({ ...p8, range: 8.5 })).toThrow(/range/);
    expect(shotProblem({ ...p8, firerInWoods: 'light', range: 4.5 })).toMatch(/woods/);
    expect(shotProblem({ ...p8, firerInWoods: 'dense', range: 2 })).toBeUndefined();
  });
  it('one or no firing figure inflicts nothing', () => {
    expect(only(resolveFire({ ...p8, figures: 1, fire: 'A', range: 1 })).targets[0]!.casualties).toBe(0);
  });
  it('who may fire (§6.4.1)', () => {
    expect(mayFireProblem({ kind: 'infantry', formation: 'line' })).toBeUndefined();
    expect(mayFireProblem({ kind: 'infantry', formation: 'line', retreatStatus: true })).toMatch(/retreat/);
    expect(mayFireProblem({ kind: 'cavalry', formation: 'line', carbines: true })).toMatch(/carbine/);
    expect(mayFireProblem({ kind: 'cavalry', formation: 'line', carbines: true }, { carbines: true })).toBeUndefined();
    expect(mayFireProblem({ kind: 'artillery', formation: 'limbered' })).toMatch(/limbered/);
    expect(mayFireProblem({ kind: 'artillery', formation: 'unlimbered', ammo: 3 })).toMatch(/ammunition/);
    expect(mayFireProblem({ kind: 'artillery', formation: 'unlimbered', guns: 'abandoned' })).toMatch(/abandoned/);
    expect(mayFireProblem({ kind: 'infantry', formation: 'line', inCloseAction: true })).toMatch(/close action/);
    expect(mayFireProblem({ kind: 'infantry', formation: 'line', inCloseAction: true, defenceFire: true })).toBe(
      undefined,
    );
  });
});

describe('exact distributions', () => {
  const shots: Shot[] = [
    p8,
    { ...p8, actions: 2 },
    p9,
    { ...p9, range: 30, fire: 'A', rapid: true, atRisk: [line, column, { ...line, id: 'X', flightAngle: 50 }] },
    canister6,
    { ...canister6, actions: 2, rapid: true, ammo: 1 },
    { ...canister6, howitzers: 2, target: { id: 'B', kind: 'artillery', formation: 'unlimbered', guns: 6, hits: 5 } },
    { ...p8, screen: { unit: { id: 'S', kind: 'infantry', formation: 'skirmish' }, range: 3 }, fatigue: 0, range: 5 },
    { type: 'buildingFireOut', figures: 12, range: 2, target: column },
  ];
  it('every distribution sums to 1, its classes are distinct, and each has positive probability', () => {
    for (const s of shots) {
      const r = resolveFire(s);
      close(total(r), 1);
      const keys = r.outcomes.map((x) => outcomeKey(x.value));
      expect(new Set(keys).size).toBe(keys.length);
      for (const x of r.outcomes) expect(x.p).toBeGreaterThan(0);
      close(
        effectsOnly(r.outcomes).reduce((a, x) => a + x.p, 0),
        1,
      );
    }
  });
  it('faces drawn for every outcome read back as that outcome', () => {
    for (const s of shots) {
      const r = resolveFire(s);
      let k = 0;
      for (const x of r.outcomes) {
        const faces = fireFaces(
          s,
          x.value,
          seq(
            [
              [0.13, 0.71],
              [0.42, 0.99],
              [0.05, 0.5, 0.37],
            ][k++ % 3]!,
          ),
        );
        for (const f of faces) for (const d of f.faces) expect(d >= 1 && d <= 6).toBe(true);
        expect(outcomeKey(outcomeOfFaces(s, faces))).toBe(outcomeKey(x.value));
      }
    }
  });
  it('a fraction die is shown only when a fraction roll is made', () => {
    const o = outcomeOfFaces(p9, [
      { roll: 'hit:L', faces: [5, 2] },
      { roll: 'hit:C', faces: [6, 5] },
      { roll: 'ammo', faces: [1, 1] },
    ]);
    const f = fireFaces(p9, o, seq([0.5]));
    expect(f.map((x) => x.roll)).toEqual(['hit:L', 'hit:C', 'ammo']);
    expect(() => outcomeOfFaces(p9, [{ roll: 'hit:L', faces: [5] }])).toThrow(/hit:L/);
  });
  it('the p.9 example’s exact chances: line (B medium, 4-6, 2 dice) 0/1/2 hits = 1/4, 1/2, 1/4', () => {
    const m = casualtyMarginal(resolveFire(p9), 'L');
    expect(m.map((x) => x.value)).toEqual([0, 1, 2]);
    close(m[0]!.p, 1 / 4);
    close(m[1]!.p, 1 / 2);
    close(m[2]!.p, 1 / 4);
    const c = casualtyMarginal(resolveFire(p9), 'C');
    expect(c.map((x) => x.value)).toEqual([0, 2, 4]);
    close(c[2]!.p, 1 / 4);
  });
  it('memoised: the same shot gives the same resolution object', () => {
    expect(resolveFire({ ...p9 })).toBe(resolveFire({ ...p9 }));
  });
});
