/**
 * S3 morale (morale.ts) through its frames: the digest's §10.4 vectors as the exact probabilities of the `morale`
 * chance node, who tests (triggers, at most once, the Army at ⅓ lost with new losses), the results (Disordered,
 * Retire 0/1 with their moves and KIAs, garrisons staying, Broken removing the command), the cascade with its caps, an
 * MF testing when one of its MEs breaks, a broken Army ending the game (C14), and the triggers reset.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IN } from '../../geometry/geometry.ts';
import type { GameEvent } from '../../core/game.ts';
import type { Frame } from './frames.ts';
import { cer } from './rules.ts';
import { initialState, parseScenario } from './scenario.ts';
import type { S } from './state.ts';
import { elementOf, unitOf, updCommand, updUnit } from './state.ts';
import { commandTest } from './morale.ts';
import { type MoraleTriggers, NO_TRIGGERS, type UnitClass } from './types.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'charge-eagles-rising');
const json = (id: string) => JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8'));
/** A decision frame at the bottom of the stack: settle stops there when the phase is done (S4 is another chapter). */
const STOP: Frame = { t: 'initiativeChoice', side: 0 };
const chapel = (): S => initialState(parseScenario(json('the-chapel-crossroads'))) as S;

/** Start S3 on a state: settle to its first test (or to the stop). */
function s3(s: S, log?: GameEvent[]): S {
  return cer.settle({ ...s, phase: 'S3', stack: [STOP, { t: 'phase', phase: 'S3' }] }, log);
}
const top = (s: S) => s.stack[s.stack.length - 1]!;
const outcomes = (s: S) => Object.fromEntries(cer.chanceOutcomes(s).map((o) => [o.action, o.p]));
const trig = (patch: Partial<MoraleTriggers>): MoraleTriggers => ({ ...NO_TRIGGERS, ...patch });
const n36 = (n: number) => n / 36;

function figures(s: S, id: string): number {
  const u = unitOf(s, id);
  return u.kind === 'artillery' ? u.guns : u.figures;
}
function setClass(s: S, ids: readonly string[], cls: UnitClass): S {
  let t = s;
  for (const id of ids) t = updUnit(t, id, { class: cls });
  return t;
}
function setFigures(s: S, id: string, figures: number): S {
  const u = unitOf(s, id);
  return updUnit(s, id, u.kind === 'artillery' ? { guns: figures } : { figures });
}
function setLeader(s: S, id: string, patch: Partial<S['leaders'][number]>): S {
  return { ...s, leaders: s.leaders.map((l) => (l.id === id ? { ...l, ...patch } : l)) };
}
/** An ME that can get any result on the Fresh row: Militia (−2), Uninspiring leader. */
function weak(s: S, me: string): S {
  const e = elementOf(s, me);
  return setLeader(setClass(s, e.units, 'militia'), e.leader, { inspiration: 'uninspiring' });
}
function expectP(o: Record<string, number>, key: string, p: number) {
  expect(o[key] ?? 0, key).toBeCloseTo(p, 12);
}

describe('§10.4 morale vectors, through the morale frame', () => {
  it('ME at 40% lost (Shaken), Veteran (+1), Inspirational leader (+2): 4 → 7 Retire 0, 6 → 9 Carry On', () => {
    let s = chapel();
    // F1: 86 strength; 34 lost = 39.5% (Shaken); majority Veteran (52 figures against the battery's 18)
    s = setClass(s, ['F1a', 'F1b', 'F1c'], 'veteran');
    s = setFigures(setFigures(setFigures(s, 'F1a', 10), 'F1b', 10), 'F1c', 14);
    s = updCommand(s, 'F1', { moraleTriggers: trig({ tookKia: true }) });
    s = s3(s);
    expect(top(s)).toEqual({ t: 'morale', level: 'element', id: 'F1', side: 0 });
    const m = commandTest(s, 'F1');
    expect([m.state, m.mod, m.cls, m.leader]).toEqual(['shaken', 3, 'veteran', 'inspirational']);
    const o = outcomes(s);
    // Shaken: ≤3 Broken, 4-5 Retire 1, 6-7 Retire 0, 8 Disorder, 9+ Carry On; 2D6 + 3
    expectP(o, 'morale F1 broken', 0);
    expectP(o, 'morale F1 retire1', n36(1)); // 2D6 + 3 ∈ 4-5: a 2
    expect(Object.keys(o).sort()).toEqual([
      'morale F1 carryOn',
      'morale F1 disorder',
      'morale F1 retire0',
      'morale F1 retire1',
    ]);
  });

  it('the Shaken Veteran row exactly: Retire 1 on 2, Retire 0 on 3-4 (4 → 7), Disorder on 5, Carry On on 6+ (6 → 9)', () => {
    let s = chapel();
    s = setClass(s, ['F1a', 'F1b', 'F1c'], 'veteran');
    s = setFigures(setFigures(setFigures(s, 'F1a', 10), 'F1b', 10), 'F1c', 14);
    s = s3(updCommand(s, 'F1', { moraleTriggers: trig({ tookKia: true }) }));
    const o = outcomes(s);
    expectP(o, 'morale F1 retire1', n36(1));
    expectP(o, 'morale F1 retire0', n36(2 + 3));
    expectP(o, 'morale F1 disorder', n36(4));
    expectP(o, 'morale F1 carryOn', n36(5 + 6 + 5 + 4 + 3 + 2 + 1));
  });

  it('Fresh ME, Militia (−2), Uninspiring (0): 2 Broken, 3 Retire 1, 4-5 Retire 0, 6-7 Disorder, 8+ Carry On', () => {
    let s = chapel();
    s = setClass(s, ['B1a', 'B1b', 'B1c', 'B1d'], 'militia');
    s = setLeader(s, 'B1-L', { inspiration: 'uninspiring' });
    s = s3(updCommand(s, 'B1', { moraleTriggers: trig({ tookKia: true }) }));
    expect(top(s)).toMatchObject({ t: 'morale', id: 'B1' });
    const o = outcomes(s);
    expectP(o, 'morale B1 broken', n36(1));
    expectP(o, 'morale B1 retire1', n36(2));
    expectP(o, 'morale B1 retire0', n36(3 + 4));
    expectP(o, 'morale B1 disorder', n36(5 + 6));
    expectP(o, 'morale B1 carryOn', n36(5 + 4 + 3 + 2 + 1));
  });

  it('Demoralized Regular ME, no leader: Broken on 2D6 ≤ 5 (10/36), Carry On only on 12', () => {
    let s = chapel();
    // B1: 82 strength; leave 40 (51% lost)
    s = setFigures(setFigures(setFigures(s, 'B1a', 10), 'B1b', 10), 'B1c', 2);
    s = setFigures(s, 'B1d', 6);
    s = setClass(s, ['B1b', 'B1c'], 'regular');
    s = setLeader(s, 'B1-L', { status: 'knockedOut', backAfterTurn: 2 });
    s = s3(updCommand(s, 'B1', { moraleTriggers: trig({ tookKia: true }) }));
    expect(commandTest(s, 'B1')).toMatchObject({ state: 'demoralized', mod: 0, leader: null });
    const o = outcomes(s);
    expectP(o, 'morale B1 broken', n36(10));
    expectP(o, 'morale B1 carryOn', n36(1));
  });

  it('a Guard ME after a Conscript ME broke within 18", more than 2× its size: Disordered at worst', () => {
    let s = chapel();
    // B1 Guard, Demoralized (41 of 82), leader knocked out: uncapped it could break (2D6 + 3 ≤ 5)
    s = setClass(s, ['B1a', 'B1b', 'B1c', 'B1d'], 'guard');
    s = setFigures(setFigures(setFigures(setFigures(s, 'B1a', 10), 'B1b', 10), 'B1c', 3), 'B1d', 6);
    s = setLeader(s, 'B1-L', { status: 'knockedOut', backAfterTurn: 2 });
    // B2 Conscript, Shaken (8 of 12 figures) so that it can break
    s = setFigures(setClass(s, ['B2a'], 'conscript'), 'B2a', 8);
    s = s3(updCommand(s, 'B2', { moraleTriggers: trig({ tookKia: true }) }));
    expect(top(s)).toMatchObject({ t: 'morale', id: 'B2' });
    const log: GameEvent[] = [];
    s = cer.apply(s, 'morale B2 broken', log);
    expect(unitOf(s, 'B2a').status).toBe('broken');
    expect(elementOf(s, 'B2').broken).toBe(true);
    // the cascade: B1 (41 strength, skill 4) tests against B2 (8, skill 8): both caps → Disordered at worst
    expect(top(s)).toMatchObject({ t: 'morale', id: 'B1' });
    expect(elementOf(s, 'B1').moraleTriggers.nearbyBreaks).toEqual([{ broken: 'B2', skill: 8, strength: 8 }]);
    const m = commandTest(s, 'B1');
    expect([m.state, m.mod, m.worst]).toEqual(['demoralized', 3, 'disorder']);
    const o = outcomes(s);
    expect(Object.keys(o).sort()).toEqual(['morale B1 carryOn', 'morale B1 disorder']);
    // Demoralized: Carry On on 12+ → 2D6 ≥ 9; everything below is Disordered
    expectP(o, 'morale B1 carryOn', n36(4 + 3 + 2 + 1));
    expectP(o, 'morale B1 disorder', n36(26));
    expect(log.map((e) => e.rule)).toContain('Morale');
  });

  it('the caps one at a time: > 2 skill levels → Retire 0 at worst; > 2× size → Retire 1 at worst', () => {
    // skill only: B1 Guard but B2 as large as it (B2 84 figures)
    let s = chapel();
    s = setClass(s, ['B1a', 'B1b', 'B1c', 'B1d'], 'guard');
    s = setClass(s, ['B2a'], 'conscript');
    s = updUnit(s, 'B2a', { figuresStart: 84, figures: 56 });
    s = s3(updCommand(s, 'B2', { moraleTriggers: trig({ tookKia: true }) }));
    s = cer.apply(s, 'morale B2 broken');
    expect(commandTest(s, 'B1').worst).toBe('retire0');
    // size only: B1 Regular (skill 7 against 8: 1 level)
    let t = chapel();
    t = setFigures(setClass(t, ['B2a'], 'conscript'), 'B2a', 8);
    t = s3(updCommand(t, 'B2', { moraleTriggers: trig({ tookKia: true }) }));
    t = cer.apply(t, 'morale B2 broken');
    expect(commandTest(t, 'B1').worst).toBe('retire1');
    // an own trigger besides the break: uncapped
    const u = updCommand(t, 'B1', {
      moraleTriggers: { ...elementOf(t, 'B1').moraleTriggers, tookKia: true },
    });
    expect(commandTest(u, 'B1').worst).toBe('broken');
  });
});

describe('S3: who tests, and the results', () => {
  it('nobody with a trigger: nobody tests, S3 ends at once', () => {
    const s = s3(chapel());
    expect(top(s)).toEqual(STOP);
  });

  it('Disordered: every unit of the ME disordered in place', () => {
    let s = s3(updCommand(chapel(), 'F1', { moraleTriggers: trig({ lostCac: true }) }));
    const before = unitOf(s, 'F1a').pos;
    s = cer.apply(s, 'morale F1 disorder');
    for (const id of ['F1a', 'F1b', 'F1c', 'F1d']) expect(unitOf(s, id).disordered).toBe(true);
    expect(unitOf(s, 'F1a').pos).toEqual(before);
    expect(unitOf(s, 'F2a').disordered).toBe(false);
    expect(top(s)).toEqual(STOP);
    expect(elementOf(s, 'F1').moraleTriggers).toEqual(NO_TRIGGERS);
  });

  it('Retire 0: disordered, infantry back 8" and artillery limbered back 8", straight away from the nearest enemy, facing kept', () => {
    let s = s3(updCommand(weak(chapel(), 'F1'), 'F1', { moraleTriggers: trig({ tookKia: true }) }));
    const a0 = unitOf(s, 'F1c');
    s = cer.apply(s, 'morale F1 retire0');
    const a1 = unitOf(s, 'F1c');
    expect(a1.disordered).toBe(true);
    expect(a1.facing).toBe(a0.facing);
    // F1c (the screen at y 15) retires south, away from the hamlet: 8" unless blocked by its own units behind
    expect(a1.pos.y).toBeLessThan(a0.pos.y);
    const d = unitOf(s, 'F1d');
    expect(d.kind === 'artillery' && d.formation).toBe('limbered');
    expect(d.disordered).toBe(true);
    // the battery (farther back) moved first: a full 8" back from y 8 toward the south edge, stopped by the edge
    expect(d.pos.y).toBeLessThan(8 * IN);
    for (const id of ['F1a', 'F1b', 'F1c', 'F1d']) expect(figures(s, id)).toBe(figures(chapel(), id));
  });

  it('Retire 1: 1 KIA each as well (WORN/SPENT tests follow), no trigger for the next S3; a garrison stays, disordered', () => {
    let s = s3(updCommand(weak(chapel(), 'B1'), 'B1', { moraleTriggers: trig({ tookKia: true }) }));
    const c0 = unitOf(s, 'B1c');
    s = cer.apply(s, 'morale B1 retire1');
    const c1 = unitOf(s, 'B1c');
    expect(c1.pos).toEqual(c0.pos);
    expect(c1.disordered).toBe(true);
    expect(c1.kind === 'infantry' && c1.formation).toBe('garrison');
    expect(figures(s, 'B1a')).toBe(23);
    expect(c1.kind === 'infantry' && c1.figures).toBe(15);
    const d = unitOf(s, 'B1d');
    expect(d.kind === 'artillery' && d.guns).toBe(5);
    // B1b moved 8" straight away from its nearest enemy (F1c, the screen to the south)
    const b0 = unitOf(chapel(), 'B1b').pos;
    const b1 = unitOf(s, 'B1b').pos;
    expect(Math.hypot(b1.x - b0.x, b1.y - b0.y)).toBeCloseTo(8 * IN, -1);
    expect(b1.y).toBeGreaterThan(b0.y);
    // B1a is stopped short by the light dragoons behind it
    expect(unitOf(s, 'B1a').pos.y).toBeGreaterThan(unitOf(chapel(), 'B1a').pos.y);
    expect(top(s)).toEqual(STOP);
    expect(elementOf(s, 'B1').moraleTriggers).toEqual(NO_TRIGGERS);
  });

  it('Carry On changes nothing but the triggers', () => {
    let s = s3(updCommand(chapel(), 'F2', { moraleTriggers: trig({ unitBroken: true }) }));
    const before = s.units;
    s = cer.apply(s, 'morale F2 carryOn');
    expect(s.units).toEqual(before);
    expect(elementOf(s, 'F2').moraleTested).toBe(true);
  });

  it('each command tests at most once an S3; a later cascade does not make it test again', () => {
    let s = chapel();
    s = updCommand(s, 'B1', { moraleTriggers: trig({ tookKia: true }) });
    s = updCommand(weak(s, 'B2'), 'B2', { moraleTriggers: trig({ tookKia: true }) });
    s = s3(s);
    expect(top(s)).toMatchObject({ id: 'B1' });
    s = cer.apply(s, 'morale B1 carryOn');
    expect(top(s)).toMatchObject({ id: 'B2' });
    s = cer.apply(s, 'morale B2 broken');
    // B1 is within 18" of B2 but has tested: S3 ends (the British army lost 12 of 94: Fresh, no army test)
    expect(top(s)).toEqual(STOP);
    expect(elementOf(s, 'B1').moraleTriggers).toEqual(NO_TRIGGERS);
    expect(s.armies[1].newLosses).toBe(false);
  });

  it('an ME more than 18" from the break does not test', () => {
    let s = weak(chapel(), 'F2');
    // F2 breaks; F1's nearest unit (F1b at x 28, the battery at 24) is within 18": it tests; the British never
    s = s3(updCommand(s, 'F2', { moraleTriggers: trig({ tookKia: true }) }));
    s = cer.apply(s, 'morale F2 broken');
    expect(top(s)).toMatchObject({ id: 'F1' });
    // move F2 far away instead: nobody tests
    let t = weak(chapel(), 'F2');
    t = updUnit(updUnit(t, 'F2a', { pos: { x: 44 * IN, y: 30 * IN } }), 'F2b', { pos: { x: 46 * IN, y: 44 * IN } });
    t = updUnit(t, 'F1b', { pos: { x: 24 * IN, y: 4 * IN } });
    t = s3(updCommand(t, 'F2', { moraleTriggers: trig({ tookKia: true }) }));
    t = cer.apply(t, 'morale F2 broken');
    expect(top(t)).toEqual(STOP);
  });
});

describe('S3: MFs and the Army', () => {
  function withDivision(): S {
    const j = json('the-chapel-crossroads');
    const fr = j.sides[0];
    const order = fr.elements[0].order;
    for (const e of fr.elements) delete e.order;
    fr.formations = [
      {
        id: 'FD',
        name: 'the division',
        leader: { id: 'FD-L', command: 'average', inspiration: 'uninspiring', x: 30, y: 4 },
        order,
        elements: ['F1', 'F2'],
      },
    ];
    return initialState(parseScenario(j)) as S;
  }

  it('an MF tests when one of its MEs breaks, on its whole strength; its other MEs within 18" test too', () => {
    let s = s3(updCommand(weak(weak(withDivision(), 'F1'), 'F2'), 'F2', { moraleTriggers: trig({ tookKia: true }) }));
    s = cer.apply(s, 'morale F2 broken');
    // MEs first: F1 (within 18" of F2), then the MF
    expect(top(s)).toMatchObject({ t: 'morale', level: 'element', id: 'F1' });
    s = cer.apply(s, 'morale F1 carryOn');
    expect(top(s)).toMatchObject({ t: 'morale', level: 'formation', id: 'FD' });
    // FD: 110 strength, 24 lost (21.8%): Fresh; Militia majority (F1), Uninspiring: 2D6 − 2
    expect(commandTest(s, 'FD')).toMatchObject({ state: 'fresh', mod: -2 });
    expectP(outcomes(s), 'morale FD broken', n36(1));
    s = cer.apply(s, 'morale FD broken');
    for (const id of ['F1a', 'F1b', 'F1c', 'F1d']) expect(unitOf(s, id).status).toBe('broken');
    expect(s.formations[0]!.broken).toBe(true);
    expect(elementOf(s, 'F1').broken).toBe(true);
    // the French army lost everything on the table: it tests (≥ ⅓ lost, new losses)
    expect(top(s)).toMatchObject({ t: 'morale', level: 'army', side: 0 });
  });

  it('the Army tests at ≥ 33⅓% lost with new losses; Broken ends the game (C14)', () => {
    let s = chapel();
    // the British: 94; B1a, B1b to 2 figures, B1c to 4 = 56 lost (59.6%): Demoralized
    s = setFigures(setFigures(setFigures(s, 'B1a', 2), 'B1b', 2), 'B1c', 4);
    s = { ...s, armies: [s.armies[0], { ...s.armies[1], newLosses: true }] };
    s = s3(s);
    expect(top(s)).toMatchObject({ t: 'morale', level: 'army', side: 1 });
    const o = outcomes(s);
    // CC Inspirational +2; majority class Regular (2 + 18 + 12 against Veteran 2 + 4): Broken on 2D6 + 2 ≤ 5
    expectP(o, 'morale British army broken', n36(1 + 2));
    expectP(o, 'morale British army carryOn', n36(6));
    const log: GameEvent[] = [];
    const t = cer.apply(s, 'morale British army broken', log);
    expect(t.armies[1].broken).toBe(true);
    expect(t.result).toMatchObject({ winner: 0 });
    expect(log.some((e) => e.rule === 'C14')).toBe(true);
  });

  it('without new losses the Army does not test, however much it has lost', () => {
    let s = setFigures(setFigures(chapel(), 'B1a', 4), 'B1b', 4);
    s = s3(s);
    expect(top(s)).toEqual(STOP);
  });

  it('Army Disordered applies to every ME of the army on the table', () => {
    let s = setFigures(setFigures(chapel(), 'B1a', 4), 'B1b', 4);
    s = { ...s, armies: [s.armies[0], { ...s.armies[1], newLosses: true }] };
    s = cer.apply(s3(s), 'morale British army disorder');
    for (const id of ['B1a', 'B1b', 'B1c', 'B1d', 'B2a']) expect(unitOf(s, id).disordered).toBe(true);
    expect(unitOf(s, 'F1a').disordered).toBe(false);
    expect(s.result).toBeNull();
    expect(s.armies[1].newLosses).toBe(false);
  });
});
