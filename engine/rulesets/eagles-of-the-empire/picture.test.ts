/** The Eagles of the Empire picture: the map's SVG, every counter on the map in exactly one stack, a full legend. */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../arena/catalog.ts';
import { unexplained } from '../../../test/picture-checks.ts';
import type { MapPicture } from '../../core/picture.ts';
import { eaglesOfTheEmpire as game } from './index.ts';
import type { EState } from './types.ts';

const start = (): EState => game.initialState(loadScenario(game.id).scenario);
const pic = (s: EState, viewer?: number) => game.picture!(s, viewer) as MapPicture;

/** The SVG's viewBox: [x, y, width, height]. */
function viewBox(svg: string): number[] {
  return /viewBox="([^"]+)"/.exec(svg)![1]!.split(' ').map(Number);
}

/** Problems of a picture against its state: stacks, the units in them, points in the SVG's box, the legend. */
function problems(s: EState, p: MapPicture): string[] {
  const out: string[] = [];
  const [x0, y0, w, h] = viewBox(p.svg);
  const ids = new Set(s.ctx.map.json.areas.map((a) => String(a.id)));
  for (const st of p.stacks) {
    if (!ids.has(st.area)) out.push(`stack in unknown area ${st.area}`);
    const [x, y] = st.at;
    if (!(x >= x0! && x <= x0! + w! && y >= y0! && y <= y0! + h!))
      out.push(`stack ${st.area} at (${x}, ${y}) off the SVG`);
  }
  for (const u of s.units) {
    const where = p.stacks.filter((st) => st.pieces.some((q) => q.id === u.id));
    const onMap = !u.eliminated && u.area !== null;
    if (where.length !== (onMap ? 1 : 0)) out.push(`${u.id} in ${where.length} stacks`);
    if (onMap && where[0]) {
      if (where[0].area !== String(u.area)) out.push(`${u.id} drawn in ${where[0].area}, stands in ${u.area}`);
      if (where[0].pieces.find((q) => q.id === u.id)!.side !== u.side) out.push(`${u.id} on the wrong side`);
    }
  }
  out.push(...unexplained(p, true).map((c) => `unexplained ${c}`));
  return out;
}

describe('Eagles of the Empire picture', () => {
  it('the default scenario: the map as SVG, every unit on the map in exactly one stack at its area, all explained', () => {
    const s = start();
    const p = pic(s);
    expect(p.kind).toBe('map');
    expect(p.svg.startsWith('<svg')).toBe(true);
    const [, , w, h] = viewBox(p.svg);
    expect([p.width, p.height]).toEqual([w, h]);
    expect(problems(s, p)).toEqual([]);
    expect(s.units.filter((u) => u.area !== null).length).toBeGreaterThan(20);
    // stacks at the area centres, in the SVG's coordinates (10 to a map unit, as renderMapSvg draws them)
    for (const st of p.stacks) {
      const c = s.ctx.map.area(Number(st.area)).center;
      expect(st.at).toEqual([c[0] * 10, c[1] * 10]);
      expect(p.svg).toContain(`<circle cx="${(c[0] * 10).toFixed(1)}" cy="${(c[1] * 10).toFixed(1)}"`);
    }
    // every counter face up: both sides see the same picture [2.0]
    expect(pic(s, 0)).toEqual(pic(s, 1));
  });

  it("a unit's code is explained: F-1div, a long counter at step A, 5 SP and morale 5, facing east", () => {
    const s = start();
    const p = pic(s);
    const st = p.stacks.find((x) => x.pieces.some((q) => q.id === 'F-1div'))!;
    expect(st.area).toBe('7');
    const u = st.pieces.find((q) => q.id === 'F-1div')!;
    expect([u.side, u.label]).toEqual([0, 'I A5-5']);
    expect(u.markers).toContain('F:E');
    const legend = new Map(p.legend.map((e) => [e.code, e.text]));
    expect(legend.get('I A5-5')).toMatch(/infantry, step A .*long counter.*5 strength points, morale 5/);
    // the leaders and the HQ stand with their units; the objectives are marked
    expect(st.pieces.some((q) => q.id === 'aubrac' && /^L/.test(q.label))).toBe(true);
    expect(p.stacks.find((x) => x.area === '13')!.pieces.map((q) => q.label)).toContain('HQ');
    const objectives = s.ctx.scenario.victory.objectives.map((o) => String(o.area));
    for (const a of objectives)
      expect(
        p.stacks.find((x) => x.area === a)!.pieces.some((q) => q.label === 'OBJ'),
        a,
      ).toBe(true);
  });

  it('through a seeded game every counter stays in exactly one stack and every code is explained', () => {
    const u = seedrandom.alea('picture');
    let s = start();
    const seen = new Set<string>();
    for (let i = 0; i < 600 && game.toMove(s).kind !== 'terminal'; i++) {
      const p = pic(s);
      expect(problems(s, p), `step ${i}`).toEqual([]);
      for (const st of p.stacks) for (const q of st.pieces) for (const m of q.markers) seen.add(m);
      const os = game.toMove(s).kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s);
      s = game.apply(s, os[Math.floor(u() * os.length)]!);
    }
    expect(seen.has('MV') || seen.has('ACT')).toBe(true);
  });
});
