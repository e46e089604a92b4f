/** The digest's §11 "exercised paths" on The Mill at Saint-Aubin, played through the game. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { meleeModifiers } from './combat.ts';
import { shots } from './fire.ts';
import { ageOfEagles as g } from './index.ts';
import { unitOf, updLeader, updUnit } from './state.ts';
import type { Action, AoeState, Unit } from './types.ts';

const IN = 100;
function start(): AoeState {
  const v = g.validateScenario(
    JSON.parse(
      readFileSync(join(import.meta.dirname, '../../../data/scenarios/age-of-eagles/saint-aubin.json'), 'utf8'),
    ),
  );
  if (!v.ok) throw new Error('invalid');
  return g.initialState(v.value);
}
function play(s0: AoeState, keys: string[]): AoeState {
  let s = s0;
  for (const k of keys) {
    const tm = g.toMove(s);
    const opts: Action[] = tm.kind === 'chance' ? g.chanceOutcomes(s).map((o) => o.action) : [...g.legalActions(s)];
    const a = opts.find((x) => g.actionKey(x) === k);
    if (!a) throw new Error(`"${k}" not offered: ${opts.map((x) => g.actionKey(x)).join(' | ')}`);
    s = g.apply(s, a);
  }
  return s;
}

describe('The Mill at Saint-Aubin (digest §11)', () => {
  it('A1 firing at J1 in Line: about 21", the 18.1–24" band: 8 fire points, −2', () => {
    const s = start();
    const j1 = shots(s, unitOf(s, 'A1')).find((x) => x.target.id === 'J1')!;
    expect(j1).toMatchObject({ fp: 8, drm: -2, cannon: true });
  });

  it('I1 in March Column on the road marches 12" up it', () => {
    let s = start();
    s = updUnit(s, 'I1', { x: 21 * IN, y: 5 * IN, f: 'MarchColumn' } as Partial<Unit>);
    s = play(s, ['initiative A', 'be first', 'leaders done', 'pick I1', 'order move', 'march 0']);
    expect(g.legalActions(s).map((a) => g.actionKey(a))).toContain('road full');
    s = play(s, ['road full']);
    expect(unitOf(s, 'I1')).toMatchObject({ x: 21 * IN, y: 17 * IN });
  });

  it('C1 charging J2 in Open Order: J2 takes the −2, the cavalry +2 for infantry in the open', () => {
    let s = start();
    s = updUnit(s, 'C1', { x: 12 * IN, y: 31 * IN, h: 0 } as Partial<Unit>);
    const m = meleeModifiers(s, { def: 'J2', atts: [{ u: 'C1', face: 'front' }], bt: false, fought: false });
    expect(m.text).toMatch(/cavalryVsInfantryOpen \+2/);
    expect(m.text).toMatch(/defenders J2 .*disorderedEtc -2/);
  });

  it('J1 may try to form square against C1; the mill, once entered, disorders the cavalry that attack it', () => {
    let s = start();
    // C1 north of the stream, below J1's front
    s = updUnit(s, 'C1', { x: 24 * IN, y: 31 * IN, h: 0 } as Partial<Unit>);
    s = play(s, ['initiative A', 'be first', 'leaders done', 'pick C1']);
    expect(g.legalActions(s).map((a) => g.actionKey(a))).toContain('order charge J1');
    s = play(s, ['order charge J1', 'march 0']);
    expect(g.legalActions(s).map((a) => g.actionKey(a))).toEqual(['try square', 'no square']);
    let t = start();
    t = updLeader(updUnit(t, 'J1', { x: 24 * IN, y: 24 * IN, bua: 'mill' } as Partial<Unit>), 'Picton', { att: 'J1' });
    t = updUnit(t, 'C1', { x: 24 * IN, y: 18 * IN, h: 0 } as Partial<Unit>);
    t = play(t, ['initiative A', 'be first', 'leaders done', 'pick C1', 'order charge J1', 'march 0']);
    expect(unitOf(t, 'C1')).toMatchObject({ dis: true });
    expect(t.combats.map((c) => c.def)).toEqual(['J1']);
  });

  it('the stream stops moves except at the ford and the bridge', () => {
    let s = start();
    s = updUnit(s, 'K1', { x: 38 * IN, y: 31.5 * IN, h: 180 } as Partial<Unit>);
    s = play(s, ['initiative B', 'be first', 'leaders done', 'pick K1', 'order move', 'march 0']);
    // K1 in Line, 4" wide, stands 1" north of the stream away from the ford: no move takes it across
    const ahead = g.legalActions(s).filter((a) => a.a === 'move' && a.dir === 0);
    expect(ahead.length).toBeGreaterThan(0);
    for (const a of ahead) expect(unitOf(g.apply(s, a), 'K1').y).toBeGreaterThan(30.5 * IN);
    // J2 in March Column (1" wide) crosses the 2" ford (2" of its allowance); a 6" Line would not fit it
    let t = play(start(), ['initiative B', 'be first', 'leaders done']);
    t = updUnit(t, 'J2', { x: 11 * IN, y: 33 * IN, f: 'MarchColumn', h: 180 } as Partial<Unit>);
    t = play(t, ['pick J2', 'order move', 'march 0']);
    const across = g.legalActions(t).filter((a) => a.a === 'move' && a.dir === 0);
    expect(across.some((a) => unitOf(g.apply(t, a), 'J2').y < 29.5 * IN)).toBe(true);
  });
});
