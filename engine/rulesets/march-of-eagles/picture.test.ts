/** The March of Eagles picture: every battalion once with its side, real footprints in inches, a complete legend. */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../arena/catalog.ts';
import type { TablePicture } from '../../core/picture.ts';
import { offTable, rectOf, unexplained } from '../../../test/picture-checks.ts';
import { marchOfEagles as game } from './index.ts';
import { firingGroups } from './shape.ts';
import { patch } from '../../../test/moe-fixtures.ts';
import type { MoeState } from './types.ts';

const start = (id?: string): MoeState => game.initialState(loadScenario(game.id, id).scenario);
const pic = (s: MoeState) => game.picture!(s) as TablePicture;

/** Plays the first offered action (and the first chance outcome) until the armies are set up. */
function deployed(s: MoeState): MoeState {
  while (s.phase === 'pregame') {
    const tm = game.toMove(s);
    const a = tm.kind === 'chance' ? game.chanceOutcomes(s)[0]!.action : game.legalActions(s)[0]!;
    s = game.apply(s, a);
  }
  return s;
}

describe('March of Eagles picture', () => {
  it('the default scenario: nothing is drawn before set-up; once set up, every battalion once with its side', () => {
    const s0 = start();
    expect(pic(s0).pieces).toEqual([]);
    const s = deployed(s0);
    const p = pic(s);
    expect(p.kind).toBe('table');
    expect([p.width, p.height]).toEqual([72, 48]);
    for (const b of s.units) {
      const mine = p.pieces.filter((x) => x.id === b.id);
      expect(mine, b.id).toHaveLength(1);
      expect(mine[0]!.side).toBe(b.side);
      expect(mine[0]!.points).toHaveLength(4);
    }
    expect(p.pieces.filter((x) => x.id.startsWith('SC-')).map((x) => x.points.length)).toEqual([1, 1]);
    expect(offTable(p)).toEqual([]);
    expect(unexplained(p)).toEqual([]);
  });

  it("footprints in inches at the scenario's places, y down the page (The Farm on the Ridge, fixed deployment)", () => {
    const s = start('farm-on-the-ridge');
    const p = pic(s);
    // B1: 24 Rankers less 5 skirmishers = 19, 5 groups of 1.6" in line, at (12, 8) facing north (M2)
    const b1 = p.pieces.find((x) => x.id === 'B1')!;
    const r1 = rectOf(b1.points);
    expect(firingGroups(s.units.find((u) => u.id === 'B1')!)).toBe(5);
    expect(r1.w).toBeCloseTo(8);
    expect(r1.d).toBeCloseTo(1.6);
    expect(r1.centre[0]).toBeCloseTo(12);
    expect(r1.centre[1]).toBeCloseTo(48 - 8);
    expect(b1.facing).toBe(0);
    // facing north (up the page): the front edge is the upper long side
    expect(b1.front!.map((q) => q[1])).toEqual([40 - 0.8, 40 - 0.8]);
    expect(b1.markers).toContain('L');
    // its screen, 2" in front (M3)
    const sc = p.pieces.find((x) => x.id === 'B1.s')!;
    expect(rectOf(sc.points).centre[1]).toBeCloseTo(40 - 0.8 - 2 - 0.4);
    // B2: 24 Rankers, 6 groups in column two wide: 3.2" × 4.8"
    const b2 = rectOf(p.pieces.find((x) => x.id === 'B2')!.points);
    expect([b2.w, b2.d].map((v) => Math.round(v * 100) / 100)).toEqual([3.2, 4.8]);
    expect(p.pieces.find((x) => x.id === 'B2')!.markers).toEqual(expect.arrayContaining(['C', 'Dr1', 'Sg1']));
    // the terrain, the objective and the hill's crest, each explained
    expect(p.terrain.map((t) => t.kind).sort()).toEqual(['building', 'hedge', 'hill', 'wall', 'woods']);
    expect(p.terrain.find((t) => t.kind === 'hedge')!.line).toBe(true);
    expect(p.marks!.map((m) => [m.label, m.at])).toEqual([
      ['obj farm', [24, 24]],
      ['crest', [39, 30]],
    ]);
    expect(offTable(p)).toEqual([]);
    expect(unexplained(p)).toEqual([]);
  });

  it('markers follow the state, and each is explained', () => {
    let s = start('farm-on-the-ridge');
    s = patch(s, 'B1', { dis: true, brk: true, cas: 3 });
    const p = pic(s);
    expect(p.pieces.find((x) => x.id === 'B1')!.markers).toEqual(expect.arrayContaining(['D', 'BR', '-3']));
    expect(unexplained(p)).toEqual([]);
    // a legend entry only for codes in use
    expect(p.legend.map((e) => e.code)).not.toContain('RL');
  });

  it('reaches: shooting bands and the attack reach into the front arc', () => {
    const p = pic(start('farm-on-the-ridge'));
    const b1 = p.pieces.find((x) => x.id === 'B1')!;
    // 8" frontage: the arc's apex 4" behind the front edge's middle, so a band of R" is drawn with radius 4 + R
    expect(b1.reach!.map((r) => [r.label.split(',')[0], r.radius])).toEqual([
      ['shooting', 10],
      ['shooting', 16],
      ['shooting', 22],
      ['attack reach 12" (line)', 16],
    ]);
    expect(b1.reach![0]!.arc).toEqual([315, 45]);
    expect(b1.reach![0]!.from).toEqual([12, 40 - 0.8 + 4]);
  });
  it('through a seeded game every battalion on the table is drawn once, on the table, and every code is explained', () => {
    const u = seedrandom.alea('picture');
    let s = start('woods-walls-hill');
    const seen = new Set<string>();
    for (let i = 0; i < 800 && game.toMove(s).kind !== 'terminal'; i++) {
      const p = pic(s);
      expect(unexplained(p), `step ${i}`).toEqual([]);
      // bodies, Supreme Commanders, terrain and marks (a screen placed after a move may hang off the table edge: the
      // engine offers 'screen left' for a column 4" from the west edge, a finding for manoeuvre.ts, not the picture)
      expect(
        offTable(p).filter((x) => !/^(piece|front of) \S+\.s /.test(x)),
        `step ${i}`,
      ).toEqual([]);
      for (const b of s.units) expect(p.pieces.filter((q) => q.id === b.id).length, b.id).toBe(b.on ? 1 : 0);
      for (const q of p.pieces) for (const m of q.markers) seen.add(m);
      const os = game.toMove(s).kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s);
      s = game.apply(s, os[Math.floor(u() * os.length)]!);
    }
    expect([...seen].some((m) => ['A', 'D', 'E', 'BR'].includes(m))).toBe(true);
  });
});
