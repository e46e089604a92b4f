/** Charges and Bayonet & Sabre: the digest's §10.4 vectors and the charge's whole path through the turn. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../core/game.ts';
import { meleeModifiers } from './combat.ts';
import { ageOfEagles as g } from './index.ts';
import { unitOf, updLeader, updUnit } from './state.ts';
import type { Action, AoeState, Combat, Unit } from './types.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'age-of-eagles');
function start(): AoeState {
  const v = g.validateScenario(JSON.parse(readFileSync(join(DIR, 'saint-aubin.json'), 'utf8')));
  if (!v.ok) throw new Error('invalid');
  return g.initialState(v.value);
}
const IN = 100;

/** Play the options named by key, in order, collecting events. */
function play(s0: AoeState, keys: string[], events: GameEvent[] = []): AoeState {
  let s = s0;
  for (const k of keys) {
    const tm = g.toMove(s);
    const opts: Action[] = tm.kind === 'chance' ? g.chanceOutcomes(s).map((o) => o.action) : [...g.legalActions(s)];
    const a = opts.find((x) => g.actionKey(x) === k);
    if (!a)
      throw new Error(
        `"${k}" is not offered at "${g.describeDecision?.(s)}": ${opts.map((x) => g.actionKey(x)).join(' | ')}`,
      );
    s = g.apply(s, a, events);
  }
  return s;
}

/** §10.4's first combat: Heavy Elite cavalry with a Charismatic leader against Regular 2-rank infantry in Line. */
function digestCombat(square: boolean): { s: AoeState; c: Combat } {
  let s = start();
  s = updUnit(s, 'C1', { wt: 'Heavy', x: 30 * IN, y: 9 * IN + 50 + 37, h: 0 } as Partial<Unit>);
  s = updUnit(s, 'J1', { x: 30 * IN, y: 11 * IN, h: 180, hits: 1, f: square ? 'Square' : 'Line' } as Partial<Unit>);
  s = updLeader(s, 'Morand', { att: 'C1' });
  s = updLeader(s, 'Picton', { att: '' });
  return { s, c: { def: 'J1', atts: [{ u: 'C1', face: 'front' }], bt: false, fought: false } };
}

describe('Bayonet & Sabre DRMs (digest §10.4)', () => {
  it('Heavy Elite cavalry with a Charismatic leader against Regular infantry in Line in the open: +7 against +1', () => {
    const { s, c } = digestCombat(false);
    const m = meleeModifiers(s, c);
    expect([m.amod, m.dmod]).toEqual([7, 1]);
    expect(m.text).toMatch(/charismaticLeader \+2.*cavalryVsInfantryOpen \+2.*heavyCavalry \+1.*elite \+2/);
    expect(m.text).toMatch(/outnumber3to2 \+1.*perHit -1.*regular \+1/);
  });
  it('the same charge against a Square: +2 against +1', () => {
    const { s, c } = digestCombat(true);
    expect(meleeModifiers(s, c)).toMatchObject({ amod: 2, dmod: 1 });
  });
  it('cavalry attacking infantry in a BUA (cover 3): the defender +3 for cover and +1 for 6 stands against 4', () => {
    let s = start();
    s = updUnit(s, 'J1', { x: 24 * IN, y: 24 * IN, bua: 'mill', hits: 0 } as Partial<Unit>);
    s = updLeader(s, 'Picton', { att: '' });
    s = updUnit(s, 'C1', { x: 24 * IN, y: 22.5 * IN - 50, h: 0, dis: true } as Partial<Unit>);
    const m = meleeModifiers(s, { def: 'J1', atts: [{ u: 'C1', face: 'rear' }], bt: false, fought: false });
    expect(m.text).toMatch(/disorderedEtc -2/);
    expect(m.text).toMatch(/defenders J1 \+5 \(outnumber3to2 \+1, cover \+3, regular \+1\)/);
  });
});

describe('a charge from order to result', () => {
  it('is offered, passes its check, lets the target try square, goes in, and is fought in the Bayonet & Sabre phase', () => {
    let s = start();
    s = updUnit(s, 'J1', { x: 30 * IN, y: 14 * IN, h: 180 } as Partial<Unit>);
    const ev: GameEvent[] = [];
    s = play(s, ['initiative A', 'be first', 'leaders done', 'pick C1'], ev);
    expect(g.legalActions(s).map((a) => g.actionKey(a))).toContain('order charge J1');
    s = play(s, ['order charge J1', 'march 1', 'try square', 'march 3'], ev);
    expect(ev.map((e) => e.text)).toContain('J1: Hold Ground: fails to form square');
    expect(s.combats).toEqual([{ def: 'J1', atts: [{ u: 'C1', face: 'front' }], bt: false, fought: false }]);
    // the rest of the March phase, the fire steps (J1 may fire only at C1; A1 may not fire at J1, in contact)
    s = play(s, ['end march', 'leader moves done'], ev);
    expect(g.legalActions(s).map((a) => g.actionKey(a))).toEqual(['fire at C1', 'hold fire']);
    s = play(s, ['hold fire'], ev);
    expect(g.legalActions(s).map((a) => g.actionKey(a))).not.toContain('fire at J1');
    s = play(s, ['hold fire'], ev);
    // the combat: cuirassiers (Armoured Heavy, Elite) against J1 with its attached leader
    expect(g.describeDecision?.(s)).toMatch(/^Bayonet & Sabre at J1/);
    s = play(s, ['melee 0'], ev);
    expect(ev.some((e) => /Shattered!/.test(e.text))).toBe(true);
    expect(unitOf(s, 'J1')).toMatchObject({ hits: 2, dis: true });
    // the leader is captured, and replaced (never Charismatic) as the Allies' March phase begins (A10)
    expect(ev.map((e) => e.text)).toEqual(
      expect.arrayContaining(['Picton is captured', 'a replacement for Picton takes command, attached to J1']),
    );
    expect(s.leaders.find((l) => l.id === 'Picton')).toMatchObject({ captured: false, charismatic: false, att: 'J1' });
    expect(s.combats).toEqual([]);
  });

  it('a 0 result leaves both sides in contact, disordered, a hit each, to fight again', () => {
    let s = start();
    s = updUnit(s, 'J1', { x: 30 * IN, y: 14 * IN, h: 180 } as Partial<Unit>);
    s = play(s, ['initiative A', 'be first', 'leaders done', 'pick C1', 'order charge J1', 'march 1', 'no square']);
    s = play(s, ['end march', 'leader moves done', 'hold fire', 'hold fire', 'melee 3']);
    expect(unitOf(s, 'J1')).toMatchObject({ hits: 1, dis: true });
    expect(unitOf(s, 'C1')).toMatchObject({ hits: 1, dis: true });
    expect(s.combats).toEqual([{ def: 'J1', atts: [{ u: 'C1', face: 'front' }], bt: false, fought: true }]);
  });
});

describe('built-up areas', () => {
  it('a unit within reach of the vacant mill may enter it, occupying the block and ending its move', () => {
    let s = start();
    s = updUnit(s, 'I1', { x: 24 * IN, y: 18 * IN } as Partial<Unit>);
    s = play(s, ['initiative A', 'be first', 'leaders done', 'pick I1', 'order move', 'march 0']);
    expect(g.legalActions(s).map((a) => g.actionKey(a))).toContain('enter mill');
    s = play(s, ['enter mill']);
    expect(unitOf(s, 'I1')).toMatchObject({ bua: 'mill', x: 24 * IN, y: 24 * IN });
  });
});
