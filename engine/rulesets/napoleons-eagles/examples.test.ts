/**
 * Napoleon's Eagles: the book's worked examples and the digest's §9 vectors, audited. The table below maps each one
 * to the golden test that checks it (file › test name). "here" means this file: a test was added because none checked
 * the example with the book's inputs and results, or the existing check was indirect.
 *
 * THE BOOK'S WORKED EXAMPLES (page: example → test)
 *  p.3   six-gun battery = 2 bases (A-10)           → fire.test.ts › "A-10: guns → bases 2 → 1, 6 → 2, 8 → 3"
 *  p.4   rating "B16C30"                             → scenario.test.ts (parseRating('B16C30'), "the book's one example")
 *  p.5   battery fires both actions, no defence      → fire.test.ts › "A-14: a battery that fired both actions has no defence action"
 *  p.5   rest examples 1) and 2)                     → morale.test.ts › "golden p.5 / M-9 …"; here › "p.5 rest example 2): … fires without penalty"
 *  p.8   LOS example (X = 10", B = 10")              → shape.test.ts › "[p.8] example: from a level-1 hill …"; here › "§9.7 L-1 …"
 *  p.8   firing example 1 (one action)               → fire.test.ts › "[p.8] the firing example (golden)" › "one action: …"; here › "p.8 firing example: the geometry …"
 *  p.8   firing example 2 (two actions)              → fire.test.ts › "[p.8] the firing example (golden)" › "two actions: row 40 …"
 *  p.8   canister: 6 guns = row 12, 2 actions row 24 → fire.test.ts › "A-1: a 6-gun battery with canister reads row 12; two actions row 24"
 *  p.9   artillery example (line 1 cas., column 4)   → fire.test.ts › "[p.9] the artillery example (golden; A-2)" (both A-45 readings)
 *  p.10  bounce for an 8lb shot (diagram missing)    → fire.test.ts › "A-7: 8lb shot aimed at 30" …" (the bounce table only)
 *  p.10  neutralisation (8 guns 8 hits, 6 guns 6)    → fire.test.ts › "A-11: neutralised at 8 hits …"
 *  p.11  caisson (period 4 → end of 5 → fires 6)     → fire.test.ts › "A-13: a caisson in contact in period 4 …"
 *  p.11  threshold example (+4 influence, D10 1-4)   → morale.test.ts › "golden p.11 / R-10: …"; tables.test.ts › "§9.5 R-9, R-10, R-11, R-12 …"
 *  p.12  retreat example (26" + roll 3 = 5 actions)  → morale.test.ts › "golden p.12: 26" …"; movement.test.ts › "the p.12 example: …"
 *  p.12  retreat at 0" (reform roll only)            → morale.test.ts › "golden p.12 note: standing in place …"
 *  p.12  close action in retreat status example      → morale.test.ts › "§9.4 C-9: …"; close.test.ts › "a defender in retreat status that wins recovers; loses → routs"
 *  p.13  close-action Example-1 (P1, P2, S1)         → close.test.ts › "the book, p.13 Example-1 (C-1) …" (4 tests); tables.test.ts › "§9.4 C-1 …"
 *  p.13  close-action Example-2 (R1, F1, F2)         → close.test.ts › "the book, p.13 Example-2 (C-2) …" (A-65 cancellation); the order of resolution
 *                                                      is turn.ts's closeGroups (contact order), not a pure module: no golden test (see the report)
 *  p.14  enfilade (i), (ii), (iii)                   → close.test.ts › "the book, p.14 enfilade examples (C-3)" › "(i) …"; shape.test.ts › "examples (i)-(iii) …"
 *  p.14  enfilade (iv)                               → close.test.ts › "(iv) two columns totalling 12 …"; shape.test.ts › "example (iv): …"
 *  p.14  ride-downs, first set (1), (2), (3)         → shape.test.ts › "ride-downs: the geometry" › "example 1 …", "example 2 …", "example 3 …";
 *                                                      close.test.ts › "C-13 and ride-down example 2 …", "C-14 and ride-down example 3 …"
 *  p.15  ride-downs, second set 1. (held), 2. (not)  → close.test.ts › "C-13 and ride-down example 2 …"; tables.test.ts › "§9.4 C-11, C-12, C-13 …"
 *  p.15  carbines: fire first action, then charge    → optional.test.ts (carbines [p.15])
 *  p.16  leader loss (1-2 → 1; 3-4 → 1-2; 5-6 → 1-3)  → morale.test.ts › "golden p.16 / R-11: …"
 *  p.18  skirmish example (form 1 action, move 8")   → here › "p.18 skirmish example (M-10): …"
 *  p.18  12-figure screen ≥ 24" frontage             → shape.test.ts › "[p.18] a skirmish screen of 12 figures needs 24" of frontage"; here › "§9.3 M-11 …"
 *  p.19-20 buildings: the book has no worked example; its rules are the digest's B-1 … B-8 (below)
 *  p.21  Notes 6, 7, 8                               → the digest's N-6, N-7, N-8 (below)
 *  p.22  1:60 → 1:30 doubling                        → here › "§9.3 M-15 …"
 *
 * THE DIGEST'S §9 VECTORS (id → test)
 *  F-1, F-2  fire.test.ts › "[p.8] the firing example (golden)" (both tests) and "F-1, F-2: the p.8 example …"
 *  F-3 … F-13  fire.test.ts › "§9.1 fire vectors" › "F-3: …" … "F-13: …" (one test each); tables.test.ts › "§9.1 F-3 … F-7", "§9.1 F-8, F-9, F-10, F-12"
 *  A-1 … A-16  fire.test.ts › "§9.2 artillery vectors" › "A-1: …" … "A-16: …" (one test each); A-2 also "[p.9] the artillery example (golden; A-2)"
 *  M-1       tables.test.ts › "§9.3 M-1, M-5, M-7, M-8, M-12" (part); here › "§9.3 M-1: every rate of the p.6 tables"
 *  M-2, M-3, M-4, M-6  here › "§9.3 M-2 …", "§9.3 M-3 …", "§9.3 M-4 …", "§9.3 M-6 …"
 *  M-5, M-7, M-12  tables.test.ts › "§9.3 M-1, M-5, M-7, M-8, M-12"
 *  M-8       morale.test.ts › "§9.3 M-8: …"; tables.test.ts › "§9.3 M-1, M-5, M-7, M-8, M-12"
 *  M-9       morale.test.ts › "golden p.5 / M-9 …"; here › "p.5 rest example 2) …"
 *  M-10, M-11  here › "p.18 skirmish example (M-10) …", "§9.3 M-11 …"; shape.test.ts (M-11)
 *  M-13      shape.test.ts › "§6.3.10 formed troops pass through friends (both disordered) …"; here › "§9.3 M-13 …" (the reform cost)
 *  M-14      morale.test.ts › "§9.3 M-14: hot weather, both actions used → +1 [p.20]"
 *  M-15      here › "§9.3 M-15 …"
 *  C-1, C-2, C-3  close.test.ts (the p.13 and p.14 examples above)
 *  C-4, C-5, C-6  close.test.ts › "C-4: …", "C-5: …", "C-6: …"
 *  C-7       close.test.ts › "C-7 ties: …" (the pure result; the re-fight's timing is turn.ts's: see the report)
 *  C-8, C-16, C-19  close.test.ts › "C-8: partial contact …", "C-16: …", "C-19: …"
 *  C-9       close.test.ts › "C-9: retreat status −20 …"; morale.test.ts › "§9.4 C-9: …"
 *  C-10, C-11  close.test.ts › "C-10: …", "C-11: reaction distance …"; morale.test.ts › "§9.4 C-10, C-11: …"
 *  C-12 … C-15  close.test.ts › "C-12: …", "C-13 and ride-down example 2 …", "C-14 and ride-down example 3 …", "C-15: …"
 *  C-17, C-18  close.test.ts › "C-17: …", "C-18: …"; morale.test.ts › "§9.4 C-17: …"
 *  R-1 … R-4  morale.test.ts › "golden p.12: …" (R-1), "golden p.12 note …" (R-2), "R-3: …", "R-4: …"
 *  R-5, R-6, R-12  morale.test.ts › "§9.5 R-5: …", "§9.5 R-6: …", "§9.5 R-12: …"
 *  R-7, R-8, R-13, R-14  morale.test.ts › "§9.5 R-7: …" (both), "§9.5 R-8: …", "§9.5 R-13: …", "§9.5 R-14: …"; buildings.test.ts (R-14)
 *  R-9, R-10, R-11  morale.test.ts › "§9.5 R-9: …", "golden p.11 / R-10: …", "golden p.16 / R-11: …"
 *  S-1       tables.test.ts › "§9.6 S-1, S-6, …"; turn.test.ts › "six periods a turn; the turn points come back each turn …"
 *  S-2       turn.test.ts › "both sides spend their bids; the higher chooses A or D …"; here › "§9.6 S-2 …"
 *  S-3       turn.test.ts › "equal bids go to a D6 tie-break, either side winning with probability ½"
 *  S-4       turn.test.ts › "side A may declare "finished" only at the start of its step, once half its units have activated (A-23)"
 *  S-5       here › "§9.6 S-5 …"
 *  S-6 … S-11  morale.test.ts › "§9.6 S-6: …" … "§9.6 S-11: …"; tables.test.ts (S-6 … S-9)
 *  L-1 … L-4  shape.test.ts › "levels and line of sight (§3.6 [p.8], A-17)"; here › "§9.7 L-1 …", "§9.7 L-2 …", "§9.7 L-3 …", "§9.7 L-4 …"
 *  B-1 … B-8  buildings.test.ts › "§9.7 B-1 … B-8 and R-14 (golden)" (one test each, B-1 two); close.test.ts › "close actions in buildings …"
 *  N-2       fire.test.ts › "A-6: …" (retreat status as a column to solid shot), "firer: … disordered screens are formed targets [p.21]";
 *            here › "§9.8 N-2 …"
 *  N-6, N-8  here › "§9.8 N-6 …", "§9.8 N-8 …"
 *  N-7       close.test.ts › "C-10: …"; morale.test.ts › "§9.4 C-10, C-11: …"; here › "§9.8 N-7 …"
 *
 * Readings tested here where the book is ambiguous are named in the test.
 */
import { describe, expect, it } from 'vitest';
import { IN } from '../../geometry/geometry.ts';
import { tableOf } from './board.ts';
import { type FireTargetDesc, type SmallArmsShot, outcomeOfFaces, resolveFire } from './fire.ts';
import { defenceChangeAllowed, fatigueAfterEvent, moraleModifiers, rest } from './morale.ts';
import {
  type Body,
  type NeTable,
  type Placement,
  type TableUnit,
  type TerrainPiece,
  bandOf,
  bearingFigures,
  canSee,
  fireTargets,
  layout,
  maxRange,
} from './shape.ts';
import {
  ACTIVATION_RATIOS,
  ARTILLERY_MOVE,
  CAVALRY_MOVE,
  FORMATION_CHANGE,
  INFANTRY_MOVE,
  SCALE,
  SKIRMISH,
  TURN,
  artilleryFieldMove,
  rangeBand,
} from './tables.ts';

// ---------------------------------------------------------------------------------------------------------------------
// helpers (lengths in 1/100"; a unit's position is the centre of its front edge; facing 0 is north, +y)
// ---------------------------------------------------------------------------------------------------------------------

const at = (xIn: number, yIn: number, facing = 0): Placement => ({ x: xIn * IN, y: yIn * IN, facing });
const unit = (id: string, side: string, b: Omit<Body, 'at'>, p: Placement, extra: Partial<TableUnit> = {}) =>
  ({ id, side, ...b, at: p, ...extra }) as TableUnit;
const line3 = (figures: number) => ({ troop: 'threeRankInfantry' as const, formation: 'line' as const, figures });
const col3 = (figures: number) => ({ troop: 'threeRankInfantry' as const, formation: 'column' as const, figures });
const table = (pieces: TerrainPiece[] = []): NeTable => ({ width: 96 * IN, height: 72 * IN, pieces });
const OPEN = table();
const box = (x0: number, y0: number, x1: number, y1: number) => [
  { x: x0 * IN, y: y0 * IN },
  { x: x1 * IN, y: y0 * IN },
  { x: x1 * IN, y: y1 * IN },
  { x: x0 * IN, y: y1 * IN },
];

/** [p.8] Example of firing-1: a 20-figure C-rated three-rank battalion in line, fatigued, one action. */
const column: FireTargetDesc = { id: 'T', kind: 'infantry', formation: 'column' };
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

// ---------------------------------------------------------------------------------------------------------------------
// the book's examples not (or only indirectly) tested elsewhere
// ---------------------------------------------------------------------------------------------------------------------

describe('the book’s worked examples', () => {
  it('p.8 firing example: the geometry — a line of 20 at a column 4" ahead: medium band, the book fires all 20 figures', () => {
    // Reading: "only the front rank figures of a unit may fire", with the target in the unit's 22.5° arc, and the
    // example's "Reference this with 20 figures": every front-rank figure fires (shape.ts's `allFront`). The book does
    // not give the column's size or place; this is the digest's 12-figure column (A-4: 4 in front, 1.5") dead ahead.
    const firer = unit('F', 'a', line3(20), at(20, 10));
    const target = unit('T', 'b', col3(12), at(20, 14, 180));
    expect(layout(firer)).toEqual({ w: 750, d: 50, front: 20 }); // 20 × 3/8" = 7.5"
    const b = bearingFigures(OPEN, [firer, target], firer, target, maxRange(OPEN, firer, 'musket'), true);
    expect(b).toEqual({ figures: 20, range: 4 * IN });
    expect(bandOf('musket', b!.range)).toBe('medium');
    // and the rest of the example from those 20 figures: +2 column, −1 fatigued, −1 medium; a 4 → 2 casualties
    const r = resolveFire({ ...p8, figures: b!.figures, range: b!.range / IN });
    expect(r.rolls[0]!.total).toBe(0);
    expect(
      outcomeOfFaces({ ...p8, figures: b!.figures }, [{ roll: 'fire:T', faces: [4] }]).targets[0]!.casualties,
    ).toBe(2);
  });

  it("A-38 option bearingFigures: the digest counts each figure's own arc (18 here); 'allFront' gives the book's 20", () => {
    const firer = unit('F', 'a', line3(20), at(20, 10));
    const target = unit('T', 'b', col3(12), at(20, 14, 180));
    const [arcs] = fireTargets(OPEN, [firer, target], firer, 'musket');
    const [book] = fireTargets({ ...OPEN, allFront: true }, [firer, target], firer, 'musket');
    expect(arcs!.figures).toBe(18);
    expect(book!.figures).toBe(20);
    expect(book!.range).toBe(4 * IN);
    // the scenario option reaches the game's table (board.ts)
    const sc = (options: Record<string, unknown>) =>
      ({ table: { width: 24, height: 24 }, terrain: [], options }) as never;
    expect(tableOf(sc({ bearingFigures: 'allFront' })).allFront).toBe(true);
    expect(tableOf(sc({ bearingFigures: 'arcs' })).allFront).toBeUndefined();
  });

  it('p.5 rest example 2): a Fatigued unit rests one action → Normal, and fires its second action without penalty', () => {
    expect(rest(1, 1)).toBe(0);
    const ids = (fatigue: 0 | 1) => resolveFire({ ...p8, fatigue }).rolls[0]!.modifiers.map((m) => m.id);
    expect(ids(1)).toContain('fatigued');
    expect(ids(rest(1, 1) as 0)).not.toContain('fatigued');
    // example 1): a Tired unit rests two complete actions → Normal
    expect(rest(2, 2)).toBe(0);
  });

  it('p.18 skirmish example (M-10): a French light battalion forms a skirmish line (1 action), then moves it 8" (1 action)', () => {
    expect(FORMATION_CHANGE.formSkirmish).toBe(1);
    expect(SKIRMISH.move).toBe(8);
    expect(FORMATION_CHANGE.formSkirmish + 1).toBe(TURN.actionsPerPeriod); // both of its two actions
    expect(FORMATION_CHANGE.reformFromSkirmish).toBe(2); // "It takes two actions to reform the unit"
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// §9.3 movement, formations, fatigue
// ---------------------------------------------------------------------------------------------------------------------

describe('§9.3 movement vectors without a test elsewhere', () => {
  it('§9.3 M-1: every rate of the p.6 tables', () => {
    expect(INFANTRY_MOVE).toEqual({
      A: { line: 6, column: 8, skirmish: 8, roadColumn: 10, square: 2 },
      B: { line: 4, column: 8, skirmish: 8, roadColumn: 10, square: 1 },
      C: { line: 2, column: 8, skirmish: 8, roadColumn: 10, square: null }, // "-": a C square cannot move
    });
    for (const r of ['A', 'B', 'C'] as const)
      expect(CAVALRY_MOVE[r]).toEqual({ line: { A: 8, B: 6, C: 4 }[r], column: 9, skirmish: 10, roadColumn: 10 });
    expect([
      artilleryFieldMove('foot12', 'A'),
      artilleryFieldMove('foot12', 'B'),
      ARTILLERY_MOVE.foot12.prolong,
    ]).toEqual([6, 4, 1]);
  });

  it('§9.3 M-2 [p.6]: both actions used to move double the distance: a B line moves 8"', () => {
    expect(INFANTRY_MOVE.B.line * TURN.actionsPerPeriod).toBe(8);
  });

  it('§9.3 M-3 (A-24): a French post-1807 column of Move A forms line (½ action), then moves ½ an action: 3"', () => {
    expect(FORMATION_CHANGE.frenchPost1807ColumnLine).toBe(0.5);
    const left = TURN.actionsPerPeriod - FORMATION_CHANGE.frenchPost1807ColumnLine - 1; // one more action kept
    expect(left).toBe(0.5);
    expect(INFANTRY_MOVE.A.line * left).toBe(3);
  });

  it('§9.3 M-4 [p.7]: 1806 Prussian C→L 2 actions; Austrian mass C→S ½; cavalry L→E ½', () => {
    expect([
      FORMATION_CHANGE.prussian1806ColumnLine,
      FORMATION_CHANGE.austrianMassColumnSquare,
      FORMATION_CHANGE.cavalryEchelon,
    ]).toEqual([2, 0.5, 0.5]);
    expect([FORMATION_CHANGE.infantry, FORMATION_CHANGE.cavalry]).toEqual([1, 1]); // everything else 1
  });

  it('§9.3 M-6 [p.7]: column → line on the flank: infantry 2 actions, 1806 Prussians 1, cavalry 1', () => {
    expect([FORMATION_CHANGE.lineOnFlankInfantry, FORMATION_CHANGE.lineOnFlankPrussian1806OrCavalry]).toEqual([2, 1]);
  });

  it('§9.3 M-11 [p.18]: a 12-figure skirmish screen has a frontage of at least 24"', () => {
    expect(12 * SKIRMISH.frontagePerFigure).toBe(24);
    const screen: Body = { troop: 'twoRankInfantry', formation: 'skirmish', figures: 12, at: at(0, 0) };
    expect(layout(screen).w).toBeGreaterThanOrEqual(24 * IN);
  });

  it('§9.3 M-13 [p.6]: two formed units passing through each other are disordered, one full action each to reform', () => {
    expect(FORMATION_CHANGE.reform).toBe(1);
    // disordered: −1 morale [p.12] (and −10 MV, close.test.ts) until reformed
    const m = moraleModifiers({
      check: 'marked',
      kind: 'infantry',
      formation: 'line',
      morale: 16,
      originalFigures: 24,
      figures: 24,
      fatigue: 0,
      disordered: true,
    });
    expect(m.map((x) => [x.id, x.value])).toEqual([['disordered', -1]]);
  });

  it('§9.3 M-15 [p.3, p.22]: 1:60 battalions of 12 and 9 figures are 24 and 18 at 1:30', () => {
    expect([12, 9].map((n) => n * SCALE.fromOneToSixty)).toEqual([24, 18]);
  });

  it('§9.3 M-8 [p.6]: after a force march from Normal the unit is Tired', () => {
    expect(fatigueAfterEvent(0, 'forceMarch')).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// §9.6 sequence
// ---------------------------------------------------------------------------------------------------------------------

describe('§9.6 sequence vectors', () => {
  it('§9.6 S-2: bids 5 and 3 of 20: the bids are spent, 15 and 17 remain', () => {
    expect([TURN.turnPoints - 5, TURN.turnPoints - 3]).toEqual([15, 17]);
  });
  it('§9.6 S-5 [p.4]: the 3:2 ratio option: side A activates 3 a step, side D 2 (the default is 2:1)', () => {
    expect(ACTIVATION_RATIOS.find((r) => r.isDefault)).toMatchObject({ a: 2, d: 1 });
    expect(ACTIVATION_RATIOS.some((r) => r.a === 3 && r.d === 2)).toBe(true);
    for (const r of ACTIVATION_RATIOS) expect(r.a).toBeGreaterThan(r.d); // "side A must move more units then side D"
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// §9.7 line of sight [p.8]: the digest's numbers
// ---------------------------------------------------------------------------------------------------------------------

describe('§9.7 line of sight [p.8]', () => {
  // the observer's front edge at y = 5" on a hill (0..6"); a ground-level line at 15"-15.5" (X = 10")
  const hill = (level: number): TerrainPiece => ({ type: 'hill', id: 'h', polygon: box(0, 0, 40, 6), level });
  const obs = unit('O', 'a', col3(12), at(20, 5));
  const blocker = unit('K', 'b', line3(40), at(20, 15.5));
  /** An enemy column facing the observer, its nearest edge `d` inches from the observer's front edge. */
  const targetAt = (d: number) => unit('T', 'b', col3(12), at(20, 5 + d, 180));

  it('§9.7 L-1: from a level-1 hill, blind for 10" past the obstacle 10" away: a target 15" away is hidden, 21" seen', () => {
    const t = table([hill(1)]);
    expect(canSee(t, [obs, blocker, targetAt(15)], obs, targetAt(15))).toBe(false);
    expect(canSee(t, [obs, blocker, targetAt(21)], obs, targetAt(21))).toBe(true);
  });

  it('§9.7 L-2: from a level-2 hill the blind spot is halved (A = ½X = 5")', () => {
    const t = table([hill(2)]);
    expect(canSee(t, [obs, blocker, targetAt(12)], obs, targetAt(12))).toBe(false); // 1.5"-3" past the obstacle
    expect(canSee(t, [obs, blocker, targetAt(16)], obs, targetAt(16))).toBe(true); // 5.5" past it
  });

  it('§9.7 L-3: observer and obstacle at the same level: blocked', () => {
    expect(canSee(OPEN, [obs, blocker, targetAt(21)], obs, targetAt(21))).toBe(false);
  });

  it('§9.7 L-4: an enemy skirmish screen or unlimbered artillery between does not block sight', () => {
    const screen = unit('S', 'b', { troop: 'twoRankInfantry', formation: 'skirmish', figures: 8 }, at(20, 15.5));
    const guns = unit('G', 'b', { troop: 'artillery', formation: 'unlimbered', figures: 6 }, at(20, 15.5));
    expect(canSee(OPEN, [obs, screen, targetAt(21)], obs, targetAt(21))).toBe(true);
    expect(canSee(OPEN, [obs, guns, targetAt(21)], obs, targetAt(21))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// §9.8 the Notes page [p.21]
// ---------------------------------------------------------------------------------------------------------------------

describe('§9.8 the Notes page [p.21]', () => {
  const line: FireTargetDesc = { id: 'A', kind: 'infantry', formation: 'line' };

  it('§9.8 N-2: disordered and retreating units are formed targets; retreat status is a column to solid shot', () => {
    const s: SmallArmsShot = { ...p8, fatigue: 0, range: 2, target: { ...line, formation: 'skirmish' } };
    const formed = (t: FireTargetDesc) => resolveFire({ ...s, target: t }).rolls[0]!.modifiers.map((m) => m.id);
    // a screen is −3 to fire at; disordered or in retreat status, it is a formed target (no skirmisher modifier)
    expect(formed(s.target)).toContain('skirmishers');
    expect(formed({ ...s.target, disordered: true })).not.toContain('skirmishers');
    expect(formed({ ...s.target, retreatStatus: true })).not.toContain('skirmishers');
    const ball = resolveFire({
      type: 'solidShot',
      calibre: '12lb',
      fire: 'B',
      fatigue: 0,
      cannons: 6,
      howitzers: 0,
      actions: 1,
      range: 14,
      ammo: 0,
      atRisk: [{ ...line, retreatStatus: true }],
    });
    expect(ball.rolls[0]!.damagePerHit).toBe(12); // 6 cannons, doubled as a column
  });

  it('§9.8 N-6: D fires two actions at A 1" away: close range (no range modifier), its figures doubled', () => {
    expect(rangeBand('musket', 1)).toBe('close');
    const s: SmallArmsShot = { ...p8, fatigue: 0, actions: 2, range: 1, target: line };
    const r = resolveFire(s);
    expect(r.rolls[0]!.figures).toBe(40);
    expect(r.rolls[0]!.modifiers.map((m) => m.id)).toEqual([]);
  });

  it('§9.8 N-7: A fired one action then charged (both actions used): D facing/formation check +2', () => {
    // [p.13 step 4] infantry charge: the +2 when the charger used both actions before contact
    const m = moraleModifiers({
      check: 'defenceChange',
      kind: 'infantry',
      formation: 'line',
      morale: 16,
      originalFigures: 24,
      figures: 24,
      fatigue: 0,
      enemy: { kind: 'infantry', figures: 20 },
      chargerUsedBothActions: true,
    });
    expect(m.map((x) => [x.id, x.value])).toContainEqual(['chargerUsedBothActions', 2]);
    // against cavalry the reaction distance decides instead [p.14]: within 10" no change at all
    expect(defenceChangeAllowed(10)).toBe(false);
  });

  it('§9.8 N-8: units cannot fire into close actions: a unit in contact is no target', () => {
    const bat = unit('B', 'a', { troop: 'artillery', formation: 'unlimbered', figures: 6 }, at(20, 10));
    const target = unit('T', 'b', col3(12), at(20, 16, 180));
    expect(fireTargets(OPEN, [bat, target], bat, '6lb').map((x) => x.id)).toEqual(['T']);
    const locked = { ...target, inCloseAction: true };
    expect(fireTargets(OPEN, [bat, locked], bat, '6lb')).toEqual([]);
  });
});
