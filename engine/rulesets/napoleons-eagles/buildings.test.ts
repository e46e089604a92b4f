/**
 * Napoleon's Eagles buildings [p.19-20]: the digest's §9.7 B-1 … B-8 vectors and R-14 as golden tests through the
 * town model (the book itself has no worked example on buildings: its p.19-20 rules are tested sentence by sentence),
 * A-72's entry placement, block moves and cohesion, leaving, block fights with their push-outs (the book's overcrowding
 * against A-73), fire out and in, and the optional fires, with exact distributions.
 */
import { describe, expect, it } from 'vitest';
import type { Dist } from '../../core/dice.ts';
import {
  type BlockAttack,
  type BlockUnit,
  type Town,
  applyBlockFight,
  blockAttackDist,
  blockAttackFight,
  blockAttackProblem,
  blockCasualties,
  blockFireTarget,
  blockMove,
  blockMoveProblem,
  downwindBlock,
  enter,
  entryBan,
  entryPlacement,
  entryPlacementProblem,
  extinguishDist,
  exitPoint,
  fireGrowthDist,
  fireOutDist,
  fireOutProblem,
  fireStartDist,
  groups,
  leave,
  leaveProblem,
  mainBody,
  moraleExempt,
  mostlyOf,
  orderBlockFights,
  pushOut,
  separated,
  sideToward,
  soldierStartRolls,
  spreadFire,
  stepNineProblem,
} from './buildings.ts';
import type { Mod } from './close.ts';
import { type SmallArmsShot, outcomeOfFaces, resolveFire } from './fire.ts';
import type { BlockState, Compass } from './types.ts';

/** A block at grid cell (cx, cy): SW corner in 1/100", 4" = 400. */
const blk = (id: string, cx: number, cy: number, extra: Partial<BlockState> = {}): BlockState => ({
  id,
  x: cx * 400,
  y: cy * 400,
  brickOrStone: false,
  wallSides: [],
  fires: 0,
  ...extra,
});

const inf = (id: string, side: 0 | 1, figures: number, inBlocks: Record<string, number> = {}): BlockUnit => ({
  id,
  side,
  kind: 'infantry',
  troopClass: 'line',
  figures,
  inBlocks,
});

/** V W X Y Z in a row (y = 0), N1 north of X. */
const V = blk('V', -1, 0);
const W = blk('W', 0, 0);
const X = blk('X', 1, 0);
const Y = blk('Y', 2, 0);
const Z = blk('Z', 3, 0);
const N1 = blk('N1', 1, 1);

const town = (blocks: readonly BlockState[], units: readonly BlockUnit[]): Town => ({ blocks, units });
const unit = (t: Town, id: string) => t.units.find((u) => u.id === id)!;
const total = (ms: readonly Mod[]) => ms.reduce((s, x) => s + x.value, 0);
const ids = (ms: readonly Mod[]) => ms.map((x) => `${x.id} ${x.value}`);
const mass = <T>(d: readonly Dist<T>[]) => d.reduce((s, x) => s + x.p, 0);
const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 12);

const outside = (target: string, face: Compass, unitId: string, figures: number, side: 0 | 1 = 0): BlockAttack => ({
  side,
  target,
  face,
  from: 'outside',
  attackers: [{ unit: unitId, figures }],
});

describe('§9.7 B-1 … B-8 and R-14 (golden)', () => {
  // B-1: 6 infantry figures outside attack a block side held by 12 defenders
  const b1 = town([X], [inf('D1', 1, 12, { X: 12 }), inf('A1', 0, 24)]);
  const a1 = outside('X', 'S', 'A1', 6);

  it('B-1: attacker 4 vs defender 3 + 1 (in building) + 1 (2:1) = 5: the defender holds', () => {
    const f = blockAttackFight(b1, a1);
    expect(ids(f.attackerMods)).toEqual([]);
    expect(ids(f.defenderMods)).toEqual(['defenderInBuilding 1', 'twoToOne 1']);
    expect(4 + total(f.attackerMods)).toBe(4);
    expect(3 + total(f.defenderMods)).toBe(5);
    const r = applyBlockFight(b1, a1, { winner: 'defender', attackerLosses: 0, defenderLosses: 0 });
    expect(r.town).toEqual(b1);
    expect([r.retreats, r.leftTown, r.advanced]).toEqual([[], [], false]);
  });

  it("B-1: a natural 6 kills 2 of the opponent's figures; a defender pushed out of its only block retreats", () => {
    // attacker 6 beats 3 + 2: the defender loses 2 (10 left), is pushed out, most of it is outside: it retreats
    const r = applyBlockFight(b1, a1, { winner: 'attacker', attackerLosses: 0, defenderLosses: 2 });
    expect(r.losses).toEqual({ D1: 2 });
    expect(unit(r.town, 'D1')).toMatchObject({ figures: 10, inBlocks: {} });
    expect(r.leftTown).toEqual([{ unit: 'D1', figures: 10, via: 'X', face: 'N' }]); // away from the attack
    expect(r.retreats).toEqual(['D1']);
    // both sixes: both lose two, the defender holds
    const s = applyBlockFight(b1, a1, { winner: 'defender', attackerLosses: 2, defenderLosses: 2 });
    expect([unit(s.town, 'A1').figures, unit(s.town, 'D1').inBlocks]).toEqual([22, { X: 10 }]);
    expect(s.retreats).toEqual([]);
    // the exact distribution: the attacker wins on (4,1) (5,1) (5,2) (6,1) (6,2) (6,3) only (a tie holds, A-73)
    const d = blockAttackDist(b1, a1);
    close(mass(d), 1);
    close(mass(d.filter((x) => x.value.retreats.includes('D1'))), 6 / 36);
    close(mass(d.filter((x) => x.value.losses.D1 === 2)), 1 / 6);
    close(mass(d.filter((x) => x.value.losses.A1 === 2 && x.value.winner === 'defender')), 1 / 6);
  });

  it('B-2: 7 attackers on one block side are illegal, also from two attacks on the same side', () => {
    expect(blockAttackProblem(b1, outside('X', 'S', 'A1', 7))).toMatch(/no more than 6 figures/);
    expect(blockAttackProblem(b1, outside('X', 'S', 'A1', 6))).toBeUndefined();
    const two = town([X], [inf('D1', 1, 12, { X: 12 }), inf('A1', 0, 24), inf('A2', 0, 24)]);
    expect(stepNineProblem(two, [outside('X', 'S', 'A1', 4), outside('X', 'S', 'A2', 3)])).toMatch(/side S of X/);
    expect(stepNineProblem(two, [outside('X', 'S', 'A1', 4), outside('X', 'W', 'A2', 3)])).toBeUndefined();
  });

  it('B-3: a block of 8 fires out at 5" (a 6 inflicts 2); 7 figures cannot; the limits on the target', () => {
    const t = town([X], [inf('D1', 1, 5, { X: 5 }), inf('D2', 1, 3, { X: 3 })]); // 8 figures of one side
    const f = { side: 1 as const, block: 'X', range: 5, targetInBuildings: false };
    expect(fireOutDist(t, f)).toEqual([
      { value: 0, p: 5 / 6 },
      { value: 2, p: 1 / 6 },
    ]);
    const seven = town([X], [inf('D1', 1, 7, { X: 7 })]);
    expect(fireOutProblem(seven, f)).toMatch(/eight or more/);
    expect(() => fireOutDist(seven, f)).toThrow(/eight or more/);
    expect(fireOutProblem(t, { ...f, range: 6 })).toBeUndefined();
    expect(fireOutProblem(t, { ...f, range: 6.5 })).toMatch(/within 6"/);
    expect(fireOutProblem(t, { ...f, targetInBuildings: true })).toMatch(/not in buildings/);
    expect(fireOutProblem(t, f, ['X'])).toMatch(/this period/);
  });

  it('B-4 and R-14: fire into a block is at −5, takes no morale mark, and its casualties come from the block', () => {
    const t = town([X], [inf('D1', 1, 7, { X: 7 }), inf('D2', 1, 5, { X: 5 })]);
    const target = blockFireTarget(t, 'X', 1);
    expect(target).toMatchObject({ kind: 'infantry', formation: 'line', cover: 'buildings', figures: 12 });
    const s: SmallArmsShot = {
      type: 'smallArms',
      weapon: 'musket',
      fire: 'A',
      fatigue: 0,
      actions: 1,
      figures: 48,
      twoRank: false,
      range: 1,
      target,
    };
    const roll = resolveFire(s).rolls[0]!;
    expect(roll.modifiers.find((m) => m.value === -5)?.id).toBe('buildings');
    const o = outcomeOfFaces(s, [{ roll: 'fire:X', faces: [6] }]); // 6 + 2 − 5 = 3, row 48 → 4
    expect(o.targets[0]).toMatchObject({ casualties: 4, moraleMark: false });
    const c = blockCasualties(t, 'X', 4); // the larger unit there first, one figure at a time
    expect(c.losses).toEqual({ D1: 3, D2: 1 });
    expect([unit(c.town, 'D1'), unit(c.town, 'D2')].map((u) => [u.figures, u.inBlocks.X])).toEqual([
      [4, 4],
      [4, 4],
    ]);
  });

  it('B-5: a howitzer shell at a brick block starts a fire on 18-20 only (a 17 − 1 = 16 does not)', () => {
    expect(fireStartDist(0, 'shell', 1, true)).toEqual([
      { value: 0, p: 17 / 20 },
      { value: 1, p: 3 / 20 },
    ]);
    expect(fireStartDist(0, 'shell', 1, false)[1]).toEqual({ value: 1, p: 4 / 20 });
    // one fire however many dice show it; two howitzers: 1 − (17/20)²
    close(fireStartDist(1, 'shell', 2, true).find((x) => x.value === 2)!.p, 1 - (17 / 20) ** 2);
    expect(fireStartDist(0, 'incendiary', 1, false)[1]!.p).toBeCloseTo(14 / 20, 12);
    // soldiers: one D20 per two figures that did not fight
    expect(soldierStartRolls(9, 2)).toBe(3);
    expect(fireStartDist(0, 'soldiers', soldierStartRolls(8, 0), false)[1]!.p).toBeCloseTo(1 - (19 / 20) ** 4, 12);
    expect(fireStartDist(0, 'soldiers', 0, false)).toEqual([{ value: 0, p: 1 }]);
  });

  it('B-6: a burning block rolls 15 → one more fire; 19 → one more and it spreads downwind', () => {
    const d = fireGrowthDist(1);
    expect(d.map((x) => [x.value.fires, x.value.spreads])).toEqual([
      [1, false],
      [2, false],
      [2, true],
    ]);
    expect(d.map((x) => x.p * 20).map(Math.round)).toEqual([13, 5, 2]); // 1-13, 14-18, 19-20
    const t = town([W, X, Y], []);
    expect(downwindBlock(t, 'X', 'W')?.id).toBe('Y'); // the wind from the west blows east
    expect(spreadFire(t, 'X', 'W').blocks.map((b) => b.fires)).toEqual([0, 0, 1]);
    expect(spreadFire(t, 'Y', 'W')).toEqual(t); // nothing downwind
  });

  it('B-7: 8 figures (not sappers) roll 2 D20s; a 20 and a 12 put out one fire', () => {
    const d = extinguishDist(2, 8, false);
    expect(d.map((x) => x.value)).toEqual([2, 1, 0]);
    // exactly one 20 of two dice: 2 × 1 × 19 of 400 ((20, 12) among them)
    close(d.find((x) => x.value === 1)!.p, 38 / 400);
    close(d.find((x) => x.value === 0)!.p, 1 / 400);
    close(extinguishDist(1, 4, true).find((x) => x.value === 0)!.p, 5 / 20); // sappers 16-20
    expect(extinguishDist(3, 3, true)).toEqual([{ value: 3, p: 1 }]); // fewer than 4 figures: no roll
  });

  it('B-8: no troops enter a block with 3 fires; 4 fires at most', () => {
    const t = town([X, blk('Y', 2, 0, { fires: 3 })], [inf('A1', 0, 12, { X: 12 }), inf('A2', 0, 12)]);
    expect(entryBan(t, 'Y', 0)).toMatch(/3 fires|no entry at 3/);
    expect(entryPlacement(t, 'A2', 'Y', ['Y'])).toMatch(/no entry at 3/);
    expect(blockMoveProblem(t, { unit: 'A1', from: 'X', to: 'Y', figures: 2 })).toMatch(/no entry at 3/);
    expect(fireStartDist(4, 'incendiary', 3, false)).toEqual([{ value: 4, p: 1 }]);
    expect(fireGrowthDist(4).map((x) => [x.value.fires, x.value.spreads, Math.round(x.p * 20)])).toEqual([
      [4, false, 18],
      [4, true, 2],
    ]);
    const two = town([X, blk('Y', 2, 0, { fires: 2 })], []);
    expect(entryBan(two, 'Y', 0)).toBeUndefined();
  });
});

describe('blocks and entering them [p.19] (A-72)', () => {
  const row = [W, X, Y, N1];

  it('the grid: orthogonal neighbours only, never diagonally', () => {
    const t = town([...row, blk('D', 2, 1)], []);
    expect(sideToward(t, 'X', 'Y')).toBe('E');
    expect(sideToward(t, 'X', 'N1')).toBe('N');
    expect(sideToward(t, 'X', 'D')).toBeUndefined();
    expect(exitPoint(X, 'S')).toEqual({ x: 600, y: 0, facing: 180 });
    expect(exitPoint(X, 'E')).toEqual({ x: 800, y: 200, facing: 90 });
  });

  it('12 figures in the entry block, the rest in a touched adjacent block', () => {
    const t = town(row, [inf('A1', 0, 24)]);
    expect(entryPlacement(t, 'A1', 'X', ['X', 'Y'])).toEqual({ X: 12, Y: 12 });
    const e = enter(t, 'A1', { X: 12, Y: 12 });
    expect(unit(e, 'A1').inBlocks).toEqual({ X: 12, Y: 12 });
    expect(entryPlacementProblem(t, 'A1', 'X', ['X', 'Y'], { X: 6, Y: 12, W: 6 })).toBeUndefined(); // as pleased
    expect(entryPlacementProblem(e, 'A1', 'X', ['X', 'Y'], { X: 12, Y: 12 })).toMatch(/already in the buildings/);
  });

  it('overflow into empty adjacent blocks; illegal when the figures cannot all be placed', () => {
    const t = town(row, [inf('A1', 0, 30)]);
    expect(entryPlacement(t, 'A1', 'X', ['X'])).toEqual({ X: 12, N1: 12, W: 6 });
    // friends in the untouched neighbours: not empty, so no overflow there
    const full = town(row, [inf('A1', 0, 30), inf('F1', 0, 6, { W: 2, N1: 2, Y: 2 })]);
    expect(entryPlacement(full, 'A1', 'X', ['X'])).toMatch(/18 of A1's figures cannot be placed/);
    // a touched friendly block takes what it has room for
    expect(entryPlacement(full, 'A1', 'X', ['X', 'Y', 'W'])).toEqual({ X: 12, W: 10, Y: 8 });
    // friends already in the entry block leave less room
    const shared = town(row, [inf('A1', 0, 12), inf('F1', 0, 4, { X: 4 })]);
    expect(entryPlacement(shared, 'A1', 'X', ['X'])).toEqual({ X: 8, N1: 4 });
  });

  it('no entry into enemy figures; only infantry; a placement is checked as the player makes it', () => {
    const t = town(
      [...row, blk('D', 2, 1)],
      [inf('A1', 0, 24), inf('E1', 1, 4, { Y: 4 }), { ...inf('C1', 0, 12), kind: 'cavalry' }],
    );
    expect(entryPlacement(t, 'A1', 'Y', ['Y'])).toMatch(/enemy figures/);
    expect(entryPlacement(t, 'A1', 'X', ['X', 'Y'])).toEqual({ X: 12, N1: 12 }); // Y is enemy: N1 is empty
    expect(entryPlacementProblem(t, 'C1', 'X', ['X'], { X: 12 })).toMatch(/only infantry/);
    expect(entryPlacementProblem(t, 'A1', 'X', ['X', 'W'], { X: 8, W: 16 })).toMatch(/room for 12/);
    expect(entryPlacementProblem(t, 'A1', 'X', ['X', 'W'], { X: 8, W: 8 })).toMatch(/16 of A1's 24/);
    expect(entryPlacementProblem(t, 'A1', 'X', ['X', 'D'], { X: 12, D: 12 })).toMatch(/not orthogonally adjacent/);
    expect(entryPlacementProblem(t, 'A1', 'X', ['W'], { X: 12, W: 12 })).toMatch(/within 1"/);
    expect(entryPlacementProblem(t, 'A1', 'X', ['X', 'W'], { X: 8, W: 10, N1: 6 })).toBeUndefined();
  });
});

describe('moving between blocks and unit cohesion [p.19]', () => {
  const row = [V, W, X, Y, Z, N1];

  it('one action moves up to 12 figures to an adjacent block with room; no diagonals', () => {
    const t = town(row, [inf('D1', 1, 24, { X: 12, Y: 12 })]);
    expect(blockMoveProblem(t, { unit: 'D1', from: 'Y', to: 'Z', figures: 6 })).toBeUndefined();
    expect(blockMove(t, { unit: 'D1', from: 'Y', to: 'Z', figures: 6 }).units[0]!.inBlocks).toEqual({
      X: 12,
      Y: 6,
      Z: 6,
    });
    expect(blockMoveProblem(t, { unit: 'D1', from: 'Y', to: 'Z', figures: 13 })).toMatch(/up to 12/);
    expect(blockMoveProblem(t, { unit: 'D1', from: 'Y', to: 'N1', figures: 6 })).toMatch(/no diagonals/);
    expect(blockMoveProblem(t, { unit: 'D1', from: 'Y', to: 'X', figures: 1 })).toMatch(/room for 0/);
    // the whole of Y to Z would leave X and Z apart
    expect(blockMoveProblem(t, { unit: 'D1', from: 'Y', to: 'Z', figures: 12 })).toMatch(/same or adjacent blocks/);
    expect(blockMoveProblem(t, { unit: 'D1', from: 'X', to: 'N1', figures: 12 })).toMatch(/same or adjacent/);
    expect(blockMoveProblem(t, { unit: 'D1', from: 'X', to: 'N1', figures: 6 })).toBeUndefined();
  });

  it('separated figures rejoin the main body (the majority): toward it, and first', () => {
    const t = town(row, [inf('D1', 1, 16, { W: 4, Y: 12 })]);
    expect(groups(t, unit(t, 'D1').inBlocks)).toEqual([['W'], ['Y']]);
    expect(mainBody(t, unit(t, 'D1'))).toEqual(['Y']);
    expect(separated(t, unit(t, 'D1'))).toBe(true);
    expect(blockMoveProblem(t, { unit: 'D1', from: 'W', to: 'X', figures: 4 })).toBeUndefined();
    expect(blockMoveProblem(t, { unit: 'D1', from: 'W', to: 'V', figures: 4 })).toMatch(/toward the main body/);
    expect(blockMoveProblem(t, { unit: 'D1', from: 'Y', to: 'Z', figures: 4 })).toMatch(/rejoin the main body/);
    const joined = blockMove(t, { unit: 'D1', from: 'W', to: 'X', figures: 4 });
    expect(separated(joined, unit(joined, 'D1'))).toBe(false);
  });

  it('figures outside the town rejoin into an edge block at or next to their unit', () => {
    const t = town(row, [inf('D1', 1, 20, { Y: 12 })]); // 8 outside
    expect(separated(t, unit(t, 'D1'))).toBe(true);
    expect(blockMoveProblem(t, { unit: 'D1', from: 'outside', to: 'Y', figures: 8 })).toMatch(/room for 0/);
    expect(blockMoveProblem(t, { unit: 'D1', from: 'outside', to: 'Z', figures: 8 })).toBeUndefined();
    expect(blockMoveProblem(t, { unit: 'D1', from: 'outside', to: 'V', figures: 8 })).toMatch(/next to them/);
    expect(blockMoveProblem(t, { unit: 'D1', from: 'outside', to: 'Z', figures: 9 })).toMatch(/has 8 figures/);
    expect(blockMoveProblem(t, { unit: 'D1', from: 'Y', to: 'Z', figures: 2 })).toMatch(/rejoin the main body/);
  });

  it('leaving: by an open side, the whole unit, in column and disordered, 1 action to reform', () => {
    const t = town([W, X, Y], [inf('D1', 1, 20, { X: 12, Y: 8 })]);
    expect(leaveProblem(t, 'D1', 'X', 'E')).toMatch(/leads into block Y/);
    expect(leaveProblem(t, 'D1', 'W', 'W')).toMatch(/no figures in block W/);
    expect(leaveProblem(t, 'D1', 'X', 'S')).toBeUndefined();
    const l = leave(t, 'D1', 'X', 'S');
    expect(l).toMatchObject({ formation: 'column', disordered: true, reformActions: 1, at: { x: 600, y: 0 } });
    expect(unit(l.town, 'D1').inBlocks).toEqual({});
    expect(moraleExempt(unit(t, 'D1'))).toBe(true);
    expect(moraleExempt(unit(l.town, 'D1'))).toBe(false);
  });
});

describe('block fights [p.19] (A-73)', () => {
  const inside = (target: string, face: Compass, from: string, u: string, figures: number): BlockAttack => ({
    side: 0,
    target,
    face,
    from,
    attackers: [{ unit: u, figures }],
  });
  const win = { winner: 'attacker' as const, attackerLosses: 0, defenderLosses: 0 };

  it('BOOK vs DIGEST 1: overcrowding pushes back through a full friendly block (A-73 alone sends them out)', () => {
    const t = town([W, X, Y, Z], [inf('A1', 0, 6, { W: 6 }), inf('D1', 1, 8, { X: 8 }), inf('D2', 1, 12, { Y: 12 })]);
    const a = inside('X', 'W', 'W', 'A1', 6);
    const f = blockAttackFight(t, a);
    expect([ids(f.attackerMods), ids(f.defenderMods)]).toEqual([[], []]); // both in buildings, 6 vs 8
    const r = applyBlockFight(t, a, win, { advance: true });
    expect(unit(r.town, 'D1').inBlocks).toEqual({ Z: 8 }); // past the full Y
    expect(unit(r.town, 'A1').inBlocks).toEqual({ X: 6 }); // the winners advance
    expect([r.retreats, r.leftTown, r.advanced]).toEqual([[], [], true]);
    // with nowhere to go they leave the town, away from the attack (X's east side is Y: another open side)
    const noZ = town([W, X, Y], t.units);
    const s = applyBlockFight(noZ, a, win);
    expect(s.leftTown).toEqual([{ unit: 'D1', figures: 8, via: 'X', face: 'N' }]);
    expect(s.retreats).toEqual(['D1']);
    expect(unit(s.town, 'A1').inBlocks).toEqual({ W: 6 }); // no advance chosen
  });

  it('pushed into a friendly block with room; the whole unit retreats only when most of it is out', () => {
    // D1 7 in X and 5 in N1, D2 fills N1; Y is the enemy's: D1's 7 leave, 7 of 12 are out: it retreats
    const units = [inf('A1', 0, 6, { W: 6 }), inf('A2', 0, 6, { Y: 6 })];
    const a = inside('X', 'W', 'W', 'A1', 6);
    const out = town([W, X, Y, N1], [...units, inf('D1', 1, 12, { X: 7, N1: 5 }), inf('D2', 1, 7, { N1: 7 })]);
    const r = applyBlockFight(out, a, win);
    expect(r.retreats).toEqual(['D1']);
    expect(unit(r.town, 'D1').inBlocks).toEqual({});
    // D1 5 in X, 7 in N1 with D2's 5: 5 are out of 12, it stays (separated) and is still in buildings
    const stay = town([W, X, Y, N1], [...units, inf('D1', 1, 12, { X: 5, N1: 7 }), inf('D2', 1, 5, { N1: 5 })]);
    const s = applyBlockFight(stay, a, win);
    expect(s.retreats).toEqual([]);
    expect(s.leftTown).toEqual([{ unit: 'D1', figures: 5, via: 'X', face: 'S' }]); // E is Y, N is N1
    expect(moraleExempt(unit(s.town, 'D1'))).toBe(true);
    expect(separated(s.town, unit(s.town, 'D1'))).toBe(true);
    // room in N1: all pushed there
    const room = town([W, X, Y, N1], [...units, inf('D1', 1, 12, { X: 4, N1: 8 })]);
    expect(unit(applyBlockFight(room, a, win).town, 'D1').inBlocks).toEqual({ N1: 12 });
  });

  it('a losing attacker stays where it is; its natural-6 losses come from the attacking figures', () => {
    const t = town([W, X], [inf('A1', 0, 10, { W: 10 }), inf('D1', 1, 8, { X: 8 })]);
    const a = inside('X', 'W', 'W', 'A1', 6);
    const r = applyBlockFight(t, a, { winner: 'defender', attackerLosses: 2, defenderLosses: 0 });
    expect(unit(r.town, 'A1')).toMatchObject({ figures: 8, inBlocks: { W: 8 } });
    expect(unit(r.town, 'D1').inBlocks).toEqual({ X: 8 });
  });

  it('an outside charger that wins may advance by entering the block with its whole unit (A-72)', () => {
    const t = town([W, X, Y], [inf('A1', 0, 20), inf('D1', 1, 4, { X: 4 })]);
    const a = outside('X', 'S', 'A1', 6);
    const f = blockAttackFight(t, a);
    expect(ids(f.defenderMods)).toEqual(['defenderInBuilding 1']);
    expect(ids(f.attackerMods)).toEqual([]); // 6 vs 4: no 2:1
    const r = applyBlockFight(t, a, win, { advance: true, touching: ['X', 'W'] });
    expect(unit(r.town, 'D1').inBlocks).toEqual({ W: 4 }); // nearest first, by id
    expect(unit(r.town, 'A1').inBlocks).toEqual({ X: 12, Y: 8 }); // W is the enemy's now
    const p = applyBlockFight(t, a, win, { advance: true, touching: ['X', 'W'], prefer: ['Y'] });
    expect(unit(p.town, 'D1').inBlocks).toEqual({ Y: 4 });
    expect(unit(p.town, 'A1').inBlocks).toEqual({ X: 12, W: 8 });
    // no room for the whole unit: no advance
    const big = town([X], [inf('A1', 0, 20), inf('D1', 1, 4, { X: 4 })]);
    const b = applyBlockFight(big, a, win, { advance: true });
    expect([b.advanced, unit(b.town, 'A1').inBlocks]).toEqual([false, {}]);
  });

  it('who may attack: enemy-held targets, across the named side, infantry, figures it has', () => {
    const t = town(
      [W, X, N1],
      [
        inf('A1', 0, 10, { W: 10 }),
        inf('D1', 1, 8, { X: 8 }),
        inf('A3', 0, 24),
        { ...inf('C1', 0, 12), kind: 'cavalry' },
      ],
    );
    expect(blockAttackProblem(t, inside('X', 'N', 'W', 'A1', 6))).toMatch(/not across side N/);
    expect(blockAttackProblem(t, inside('X', 'W', 'W', 'A1', 6))).toBeUndefined();
    expect(blockAttackProblem(t, inside('W', 'E', 'X', 'A1', 6))).toMatch(/no enemy figures/);
    expect(blockAttackProblem(t, outside('X', 'W', 'A3', 6))).toMatch(/faces block W/);
    expect(blockAttackProblem(t, outside('X', 'S', 'C1', 6))).toMatch(/only infantry/);
    expect(blockAttackProblem(t, outside('X', 'S', 'A1', 6))).toMatch(/attacks from a block/);
    // a block that fires out does not attack; a figure fights once
    const fo = { side: 0 as const, block: 'W', range: 3, targetInBuildings: false };
    expect(stepNineProblem(t, [inside('X', 'W', 'W', 'A1', 6)], [fo])).toMatch(/either attacks or fires out/);
    expect(stepNineProblem(t, [], [fo, fo])).toMatch(/once/);
    expect(stepNineProblem(t, [], [fo])).toBeUndefined();
  });

  it('the modifiers: wall side, "most are" light / guards or grenadiers / militia or green (> half)', () => {
    const units: BlockUnit[] = [
      { ...inf('L1', 0, 4), troopClass: 'light' },
      { ...inf('L2', 0, 4), troopClass: 'line' },
      { ...inf('G1', 1, 6, { X: 6 }), troopClass: 'grenadier' },
      { ...inf('G2', 1, 5, { X: 5 }), troopClass: 'militia' },
      { ...inf('M1', 0, 6), troopClass: 'green' },
    ];
    const t = town([blk('X', 1, 0, { wallSides: ['S'] })], units);
    expect(
      mostlyOf(t, [
        { unit: 'L1', figures: 4 },
        { unit: 'L2', figures: 2 },
      ]),
    ).toBe('light');
    expect(
      mostlyOf(t, [
        { unit: 'L1', figures: 3 },
        { unit: 'L2', figures: 3 },
      ]),
    ).toBe('other');
    expect(
      mostlyOf(t, [
        { unit: 'G1', figures: 6 },
        { unit: 'G2', figures: 5 },
      ]),
    ).toBe('guardsOrGrenadiers');
    const a: BlockAttack = {
      side: 0,
      target: 'X',
      face: 'S',
      from: 'outside',
      attackers: [{ unit: 'M1', figures: 5 }],
    };
    const f = blockAttackFight(t, a);
    expect(ids(f.attackerMods)).toEqual(['militia -1']);
    expect(ids(f.defenderMods)).toEqual(['defenderInBuilding 1', 'wallSide 1', 'twoToOne 1', 'guardsOrGrenadiers 1']);
    expect(ids(blockAttackFight(t, { ...a, face: 'E' }).defenderMods)).not.toContain('wallSide 1');
  });

  it('A-73: block fights side A first; pushOut with nowhere to go leaves every unit out', () => {
    const fights = [
      { side: 1 as const, n: 1 },
      { side: 0 as const, n: 2 },
      { side: 1 as const, n: 3 },
    ];
    expect(orderBlockFights(fights, 1).map((x) => x.n)).toEqual([1, 3, 2]);
    expect(orderBlockFights(fights, 0).map((x) => x.n)).toEqual([2, 1, 3]);
    const t = town([X], [inf('D1', 1, 5, { X: 5 }), inf('D2', 1, 7, { X: 7 })]);
    expect(pushOut(t, 'X', 1, 'W').leftTown).toEqual([
      { unit: 'D2', figures: 7, via: 'X', face: 'E' },
      { unit: 'D1', figures: 5, via: 'X', face: 'E' },
    ]);
  });
});
