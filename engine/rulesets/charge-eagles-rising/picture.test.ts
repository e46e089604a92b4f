/**
 * The Charge! Eagles Rising picture (picture.ts): every unit on the table once with its side and its real footprint
 * (C4), a garrison as its BUA, leaders as points, all on the table, every code in the legend; footprints and fire
 * bands measured; the terrain and objectives; markers through a seeded game; written orders never drawn (C7).
 */
import { readFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { offTable, rectOf, unexplained } from '../../../test/picture-checks.ts';
import type { TablePicture } from '../../core/picture.ts';
import { chargeEaglesRising as game } from './index.ts';
import { parseScenario } from './scenario.ts';
import type { S } from './state.ts';
import type { UnitState } from './types.ts';

const scenario = (id: string) =>
  parseScenario(JSON.parse(readFileSync(`data/scenarios/charge-eagles-rising/${id}.json`, 'utf8')));
const start = (id = 'the-chapel-crossroads'): S => game.initialState(scenario(id));
const pic = (s: S, viewer?: number) => game.picture!(s, viewer) as TablePicture;

describe('Charge! Eagles Rising picture', () => {
  it('the Chapel Crossroads: every unit once with its side, leaders as points, all on the table, all explained', () => {
    const s = start();
    const p = pic(s);
    expect([p.kind, p.width, p.height]).toEqual(['table', 48, 48]);
    for (const u of s.units) {
      const mine = p.pieces.filter((x) => x.id === u.id);
      expect(mine, u.id).toHaveLength(u.status === 'active' ? 1 : 0);
      if (u.status === 'active') {
        expect(mine[0]!.side).toBe(u.side);
        expect(mine[0]!.points.length).toBeGreaterThanOrEqual(4);
      }
    }
    const leaders = s.leaders.filter((l) => !l.offBoard);
    for (const l of leaders)
      expect(
        p.pieces.filter((x) => x.id === l.id).map((x) => [x.side, x.points.length]),
        l.id,
      ).toEqual([[l.side, 1]]);
    expect(p.pieces).toHaveLength(s.units.filter((u) => u.status === 'active').length + leaders.length);
    expect(offTable(p)).toEqual([]);
    expect(unexplained(p)).toEqual([]);
    // both sides see the same table
    expect(pic(s, 0)).toEqual(pic(s, 1));
  });

  it('footprints (C4): a column of 24, a 6-gun battery and its bands, a garrison drawn as its BUA', () => {
    const p = pic(start());
    // F1a: 24 figures in attack column, 4 abreast at 0.5" = 2" wide, 6 ranks of 0.5" = 3" deep, centred (20, 10), north
    const f1 = p.pieces.find((x) => x.id === 'F1a')!;
    const r1 = rectOf(f1.points);
    expect(r1.w).toBeCloseTo(2);
    expect(r1.d).toBeCloseTo(3);
    expect(r1.centre[0]).toBeCloseTo(20);
    expect(r1.centre[1]).toBeCloseTo(48 - 10);
    expect(f1.front).toEqual([
      [19, 36.5],
      [21, 36.5],
    ]);
    expect(f1.facing).toBe(0);
    expect(f1.markers).toContain('C');
    // its musket bands (3", 4") in the front arc, its charge reach and a 5" threat zone (C5)
    expect(f1.reach!.filter((r) => r.label.startsWith('Muskets')).map((r) => r.arc)).toEqual([
      [315, 45],
      [315, 45],
    ]);
    expect(f1.reach!.some((r) => r.label.startsWith('charge reach'))).toBe(true);
    expect(f1.reach!.find((r) => r.label.startsWith('threat zone'))!.radius).toBe(5);
    // F1d: 6 guns unlimbered, 0.5" a gun = 3" × 1.5"; medium 6-8 pdr bands 6, 16, 37"
    const f1d = p.pieces.find((x) => x.id === 'F1d')!;
    const rd = rectOf(f1d.points);
    expect([rd.w, rd.d].map((x) => Math.round(x * 100) / 100)).toEqual([3, 1.5]);
    expect(f1d.markers).toContain('UNL');
    const bands = f1d.reach!.filter((r) => / range, to /.test(r.label)).map((r) => r.label);
    expect(bands.map((b) => /to (\d+)"/.exec(b)![1])).toEqual(['6', '16', '37']);
    // B1c garrisons the hamlet: its piece is the BUA, fires all round, no front edge
    const b1c = p.pieces.find((x) => x.id === 'B1c')!;
    expect(b1c.markers).toContain('GAR');
    expect(b1c.front).toBeUndefined();
    expect([...b1c.points].sort()).toEqual(
      [
        [22, 20],
        [26, 20],
        [26, 16],
        [22, 16],
      ].sort(),
    );
    expect(b1c.reach!.filter((r) => r.label.startsWith('Rifles')).every((r) => r.arc === undefined)).toBe(true);
    // the British face south: their front edge is down the page
    const b1a = p.pieces.find((x) => x.id === 'B1a')!;
    expect(b1a.facing).toBe(180);
    expect(b1a.front![0][1]).toBeGreaterThan(rectOf(b1a.points).centre[1]);
  });

  it('terrain of every kind in the scenarios, lines as lines; objectives and leaders', () => {
    const p = pic(start());
    expect(p.terrain.map((t) => t.kind)).toEqual(
      expect.arrayContaining(['bua', 'woods light', 'obstacle minor', 'steep rise', 'road']),
    );
    expect(p.terrain.find((t) => t.kind === 'road')!.line).toBe(true);
    expect(p.terrain.find((t) => t.kind === 'bua')!.label).toMatch(/stone, heavy cover/);
    expect(p.terrain.find((t) => t.kind === 'steep rise')!.label).toMatch(/1 contour/);
    expect(p.marks!.find((m) => m.label === 'obj chapel')!.at).toEqual([24, 18]);
    const cc = p.pieces.find((x) => x.id === 'F-CC')!;
    expect(cc.reach![0]!.label).toMatch(/command range \d+"/);
    const q = pic(start('quick-test'));
    expect(q.terrain.map((t) => t.kind)).toEqual(expect.arrayContaining(['orchard', 'road']));
    expect(unexplained(q)).toEqual([]);
    expect(offTable(q)).toEqual([]);
  });

  it('the markers of the sheets (§2.6) and losses', () => {
    const s0 = start();
    const mark = (u: UnitState): UnitState => {
      if (u.kind === 'cavalry') return { ...u, disordered: true, worn: true, blown: true, figures: u.figures - 4 };
      if (u.kind === 'artillery') return { ...u, disordered: true, worn: true, suppressed: true, guns: u.guns - 1 };
      return { ...u, disordered: true, worn: true, spent: true, figures: u.figures - 12 };
    };
    const s: S = { ...s0, units: s0.units.map((u) => (['F2a', 'F1d', 'F1a'].includes(u.id) ? mark(u) : u)) };
    const p = pic(s);
    const m = (id: string) => p.pieces.find((x) => x.id === id)!.markers;
    expect(m('F2a')).toEqual(expect.arrayContaining(['DISORDER', 'WORN', 'BLOWN', '-4']));
    expect(m('F1d')).toEqual(expect.arrayContaining(['DISORDER', 'WORN', 'SUPPRESSED', '-1']));
    // SPENT replaces WORN
    expect(m('F1a')).toEqual(expect.arrayContaining(['DISORDER', 'SPENT', '-12']));
    expect(m('F1a')).not.toContain('WORN');
    expect(unexplained(p)).toEqual([]);
  });

  it('markers follow a seeded game; the legend explains each; written orders are never drawn (C7)', () => {
    const u = seedrandom.alea('picture');
    let s = start();
    const seen = new Set<string>();
    let secret = 0;
    for (let i = 0; i < 500 && game.toMove(s).kind !== 'terminal'; i++) {
      const p = pic(s);
      expect(unexplained(p)).toEqual([]);
      expect(offTable(p)).toEqual([]);
      for (const x of s.units)
        expect(p.pieces.filter((q) => q.id === x.id && q.side === x.side).length, x.id).toBe(
          x.status === 'active' ? 1 : 0,
        );
      for (const q of p.pieces) for (const m of q.markers) seen.add(m);
      if (s.secret[0].orders.length || s.secret[1].orders.length) {
        secret++;
        const blank: S = { ...s, secret: [{ orders: [] }, { orders: [] }] };
        expect(pic(s, 1)).toEqual(pic(blank, 1));
      }
      const tm = game.toMove(s);
      const os = tm.kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s);
      s = game.apply(s, os[Math.floor(u() * os.length)]!);
    }
    expect(secret).toBeGreaterThan(0);
    expect([...seen].some((m) => ['MOVED', 'FIRED', 'DISORDER', 'CHG'].includes(m))).toBe(true);
  }, 120_000);
});
