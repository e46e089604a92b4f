/** The Napoleon's Eagles picture: every unit once with its side, A-4 footprints in inches, leaders, a full legend. */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { scenarioOf } from '../../../test/ne-fixtures.ts';
import { offTable, rectOf, unexplained } from '../../../test/picture-checks.ts';
import type { TablePicture } from '../../core/picture.ts';
import { napoleonsEagles as game } from './index.ts';
import { layout } from './shape.ts';
import { internals, type SeqState } from './turn.ts';

const start = (): SeqState => game.initialState(scenarioOf(game.defaultScenario));
const pic = (s: SeqState, viewer?: number) => game.picture!(s, viewer) as TablePicture;

describe("Napoleon's Eagles picture", () => {
  it('the default scenario: every unit once with its side, every leader a point, all on the table, all explained', () => {
    const s = start();
    const p = pic(s);
    expect([p.kind, p.width, p.height]).toEqual(['table', 48, 36]);
    for (const u of s.units) {
      const mine = p.pieces.filter((x) => x.id === u.id);
      expect(mine, u.id).toHaveLength(1);
      expect(mine[0]!.side).toBe(u.side);
      expect(mine[0]!.points.length).toBeGreaterThanOrEqual(4);
    }
    for (const l of s.leaders) {
      const mine = p.pieces.filter((x) => x.id === l.id);
      expect(
        mine.map((x) => [x.side, x.points.length]),
        l.id,
      ).toEqual([[l.side, 1]]);
    }
    expect(p.pieces).toHaveLength(s.units.length + s.leaders.length);
    expect(offTable(p)).toEqual([]);
    expect(unexplained(p)).toEqual([]);
    // both sides see the same table (the bids are sealed, but never drawn)
    expect(pic(s, 0)).toEqual(pic(s, 1));
  });

  it('footprints: a column of 24 three-rank figures and an 8-gun battery, at their front-edge centres', () => {
    const s = start();
    const p = pic(s);
    // F1: 24 figures in column, 8 a rank at 3/8" = 3" wide, 3 ranks of 1/2" = 1.5" deep; front centre (19, 6) facing north
    const f1 = p.pieces.find((x) => x.id === 'F1')!;
    const r1 = rectOf(f1.points);
    const l1 = layout(internals.tableUnit(s, s.units.find((u) => u.id === 'F1')!));
    expect([l1.w / 100, l1.d / 100]).toEqual([3, 1.5]);
    expect(r1.w).toBeCloseTo(3);
    expect(r1.d).toBeCloseTo(1.5);
    expect(r1.centre[0]).toBeCloseTo(19);
    expect(r1.centre[1]).toBeCloseTo(36 - 6 + 0.75);
    expect(f1.front).toEqual([
      [17.5, 30],
      [20.5, 30],
    ]);
    expect(f1.markers).toContain('C');
    // A4: 8 guns, 3 bases of 1" × 1.5", front centre (38, 27.5) facing south: the body lies north of it, up the page
    const a4 = p.pieces.find((x) => x.id === 'A4')!;
    const r4 = rectOf(a4.points);
    expect(r4.w).toBeCloseTo(3);
    expect(r4.d).toBeCloseTo(1.5);
    expect(r4.centre[0]).toBeCloseTo(38);
    expect(r4.centre[1]).toBeCloseTo(36 - 27.5 - 0.75);
    expect(a4.facing).toBe(180);
    expect(a4.markers).toContain('UNL');
    // its 6lb bands: 8, 16, 32, 48" in the 22.5° fire arc
    expect(a4.reach!.filter((r) => r.label.startsWith('6lb')).map((r) => r.arc)).toEqual(Array(4).fill([157.5, 202.5]));
  });

  it('terrain: hills by level with their ridge, blocks 4" square, the river as a line; objectives as marks', () => {
    const p = pic(start());
    const kinds = p.terrain.map((t) => t.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['road', 'river', 'bridge', 'block', 'woods light', 'hill 1', 'ridge', 'mud marsh']),
    );
    const v1 = p.terrain.find((t) => t.label?.startsWith('V1'))!;
    expect(v1.points).toEqual([
      [25, 16],
      [29, 16],
      [29, 12],
      [25, 12],
    ]);
    expect(p.terrain.find((t) => t.kind === 'river')!.line).toBe(true);
    // the mill's objective at the middle of its block
    expect(p.marks!.find((m) => m.label === 'obj obj-V1')!.at).toEqual([27, 14]);
  });

  it('markers follow the state through a seeded game, and the legend explains each one', () => {
    const u = seedrandom.alea('picture');
    let s = start();
    const seen = new Set<string>();
    let sawGuns = false;
    for (let i = 0; i < 400 && game.toMove(s).kind !== 'terminal'; i++) {
      const p = pic(s);
      expect(unexplained(p)).toEqual([]);
      // a unit once, with its side; a battery's abandoned guns under its id, neutral
      for (const x of s.units)
        expect(p.pieces.filter((q) => q.id === x.id && q.side === x.side).length, x.id).toBe(
          x.status === 'active' ? 1 : 0,
        );
      for (const g of s.abandoned ?? []) expect(p.pieces.filter((q) => q.id === g.id && q.side === -1)).toHaveLength(1);
      if (s.abandoned?.length) sawGuns = true;
      for (const q of p.pieces) for (const m of q.markers) seen.add(m);
      const os = game.toMove(s).kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s);
      s = game.apply(s, os[Math.floor(u() * os.length)]!);
    }
    // the game got far enough to mark something beyond formations
    expect([...seen].some((m) => ['MV', 'D', 'MC', 'FT1', 'OC'].includes(m))).toBe(true);
    expect(sawGuns).toBe(true);
  });

  it('a disordered, tired unit in retreat status shows its markers', () => {
    const s0 = start();
    const s: SeqState = {
      ...s0,
      units: s0.units.map((u) =>
        u.id === 'F2' ? { ...u, disordered: true, fatigue: 2, retreating: true, recovery: 2, figures: 20 } : u,
      ),
    };
    const f2 = pic(s).pieces.find((x) => x.id === 'F2')!;
    expect(f2.markers).toEqual(expect.arrayContaining(['D', 'FT2', 'R2', '-4']));
    expect(unexplained(pic(s))).toEqual([]);
  });
});
