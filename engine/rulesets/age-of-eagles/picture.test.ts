/** The Age of Eagles picture: every unit once with its side, A3 footprints in inches, leaders, a complete legend. */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../arena/catalog.ts';
import { offTable, rectOf, unexplained } from '../../../test/picture-checks.ts';
import type { TablePicture } from '../../core/picture.ts';
import { ageOfEagles as game } from './index.ts';
import { footprint } from './shape.ts';
import { unitOf } from './state.ts';
import type { AoeState } from './types.ts';

const start = (): AoeState => game.initialState(loadScenario(game.id).scenario);
const pic = (s: AoeState) => game.picture!(s) as TablePicture;

describe('Age of Eagles picture', () => {
  it('the default scenario: every unit once with its side, every leader a point, all on the table, all explained', () => {
    const s = start();
    const p = pic(s);
    expect([p.kind, p.width, p.height]).toEqual(['table', 48, 48]);
    for (const u of s.units) {
      const mine = p.pieces.filter((x) => x.id === u.id);
      expect(mine, u.id).toHaveLength(1);
      expect(mine[0]!.side).toBe(u.side);
      expect(mine[0]!.points).toHaveLength(4);
    }
    for (const l of s.leaders)
      expect(p.pieces.filter((x) => x.id === l.id).map((x) => [x.side, x.points.length])).toEqual([[l.side, 1]]);
    expect(offTable(p)).toEqual([]);
    expect(unexplained(p)).toEqual([]);
  });

  it("footprints in inches at the scenario's places, y down the page (A3)", () => {
    const s = start();
    const p = pic(s);
    // I1: field column, 3 stands of 1" by 2 ranks of 0.75" = 3" × 1.5", centred at (20, 10), facing north
    const i1 = p.pieces.find((x) => x.id === 'I1')!;
    const r = rectOf(i1.points);
    const fp = footprint(unitOf(s, 'I1'));
    expect([fp.w / 100, fp.d / 100]).toEqual([3, 1.5]);
    expect(r.w).toBeCloseTo(3);
    expect(r.d).toBeCloseTo(1.5);
    expect(r.centre[0]).toBeCloseTo(20);
    expect(r.centre[1]).toBeCloseTo(48 - 10);
    expect(i1.front).toEqual([
      [18.5, 37.25],
      [21.5, 37.25],
    ]);
    expect(i1.markers).toContain('FC');
    // J1 (Allies): a line of 6 stands, 6" × 0.75", facing south: its front edge is the lower one on the page
    const j1 = p.pieces.find((x) => x.id === 'J1')!;
    const rj = rectOf(j1.points);
    expect([rj.w, rj.d].map((v) => Math.round(v * 100) / 100)).toEqual([6, 0.75]);
    expect(j1.facing).toBe(180);
    expect(j1.front!.every((q) => q[1] > rj.centre[1])).toBe(true);
    // Morand rides with I1: his point is I1's centre
    expect(p.pieces.find((x) => x.id === 'Morand')!.points).toEqual([[20, 38]]);
  });

  it('terrain, objectives and reaches', () => {
    const s = start();
    const p = pic(s);
    expect(p.terrain.map((t) => t.kind).sort()).toEqual(
      expect.arrayContaining(['bua', 'ford', 'hill', 'road', 'stream', 'woods']),
    );
    const mill = p.terrain.find((t) => t.kind === 'bua')!;
    expect(rectOf(mill.points).centre).toEqual([24, 24]);
    expect(rectOf(mill.points).w).toBeCloseTo(3);
    expect(p.marks!.map((m) => [m.label, m.at])).toEqual([['obj obj-mill', [24, 24]]]);
    // a battery's five range columns and its move; an infantry line's musket and skirmish fire
    const a1 = p.pieces.find((x) => x.id === 'A1')!;
    expect(a1.reach!.filter((r) => r.label.startsWith('cannon')).map((r) => r.arc)).toHaveLength(5);
    const j1 = p.pieces.find((x) => x.id === 'J1')!;
    // 6" frontage: the 45° arc's apex 3" behind the front edge, so musket 3" is radius 6, skirmish 6" radius 9
    expect(j1.reach!.slice(0, 2).map((r) => [r.radius, r.arc])).toEqual([
      [6, [135, 225]],
      [9, [135, 225]],
    ]);
    expect(p.pieces.find((x) => x.id === 'Napoleon')!.reach![0]!.radius).toBe(12);
  });

  it('through a seeded game every unit on the table is drawn once and every code is explained', () => {
    const u = seedrandom.alea('picture');
    let s = start();
    const seen = new Set<string>();
    for (let i = 0; i < 500 && game.toMove(s).kind !== 'terminal'; i++) {
      const p = pic(s);
      expect(unexplained(p), `step ${i}`).toEqual([]);
      for (const x of s.units) expect(p.pieces.filter((q) => q.id === x.id).length, x.id).toBe(x.gone ? 0 : 1);
      for (const q of p.pieces) for (const m of q.markers) seen.add(m);
      const os = game.toMove(s).kind === 'chance' ? game.chanceOutcomes(s) : null;
      const a = os ? os[Math.floor(u() * os.length)]!.action : game.legalActions(s)[0]!;
      s = game.apply(s, a);
    }
    expect([...seen].some((m) => ['O', 'D', 'FI', 'CHG'].includes(m))).toBe(true);
  });
});
