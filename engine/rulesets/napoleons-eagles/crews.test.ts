/**
 * Napoleon's Eagles: the crews of the artillery [p.10], wired into the registered game on the shipped quick-test
 * scenario (variants built here): spiking, abandoning the guns to run for cover, the crew without its guns (its step 8
 * moves, re-manning, spiking), overrunning abandoned guns, a crew caught in the open; the defence actions of p.10 and
 * p.7: the crew abandoning its guns, rapid fire, a refused flank against a flank charge. Then whole random games on both
 * scenarios under the conformance checker.
 */
import { describe, expect, it } from 'vitest';
import {
  activation,
  checkedGames,
  type Json,
  pOf,
  play,
  playOn,
  QUIET,
  scenarioOf,
  setUnits,
  top,
  withEvents,
} from '../../../test/ne-fixtures.ts';
import type { GameEvent } from '../../core/game.ts';
import { defenceChangeCheck, defenderCheck, passChance } from './close.ts';
import { casualtyMarginal, resolveFire } from './fire.ts';
import { napoleonsEagles as game } from './index.ts';
import { internals, type SeqState, type SeqUnit, unitOf } from './turn.ts';

/** quick-test with units moved (inches), leaders placed and options set. */
const variant = (moves: Record<string, Json> = {}, leaders: Record<string, Json> = {}, options: Json = {}) =>
  game.initialState(
    scenarioOf('quick-test', (j) => {
      for (const side of j.sides) for (const u of side.units) Object.assign(u, moves[u.id] ?? {});
      for (const side of j.sides) for (const l of side.leaders) if (leaders[l.id]) Object.assign(l, leaders[l.id]);
      j.options = { ...(j.options ?? {}), ...options };
    }),
  );

/** Plays on (first chance outcome; the quiet choices; a crew staying; the first activation) until `stop`. */
const until = (s0: SeqState, stop: (s: SeqState) => boolean) =>
  playOn(s0, stop, [...QUIET, (a) => a.startsWith('crews ') && a.endsWith(' stay'), activation]);
const said = (events: GameEvent[], rule: string, re: RegExp) => events.some((e) => e.rule === rule && re.test(e.text));

describe("Napoleon's Eagles: spiking and abandoning the guns in an activation [p.10] (A-51)", () => {
  it('spiking takes an action: the guns are destroyed, the battery is gone (scored as guns lost), none left behind', () => {
    const s = play(variant(), 'bid 1', 'bid 0', 'be A', 'activate QA');
    expect(game.legalActions(s)).toEqual(expect.arrayContaining(['spike', 'abandon']));
    const { t, events } = withEvents(s, 'spike');
    expect(unitOf(t, 'QA')).toMatchObject({ status: 'eliminated', gunsLost: true });
    expect(t.abandoned ?? []).toEqual([]);
    expect(t.artCrews ?? []).toEqual([]);
    expect(said(events, 'p.10', /QA's crew spikes its guns/)).toBe(true);
    // the activation is over: the French pick their next unit
    expect(top(t)?.t).not.toBe('act');
    // infantry has no guns to spike or abandon
    const q = play(variant(), 'bid 1', 'bid 0', 'be A', 'activate Q1');
    expect(game.legalActions(q).filter((a) => /^(spike|abandon)/.test(a))).toEqual([]);
  });

  it('not with less than an action left (the run is an action): after two actions of fire', () => {
    const s0 = variant();
    const qa = unitOf(s0, 'QA');
    const s = play(
      setUnits(s0, { B1: { x: qa.x, y: qa.y + 350, facing: 180 } }),
      'bid 1',
      'bid 0',
      'be A',
      'activate QA',
    );
    expect(game.legalActions(s)).toContain('abandon');
    const fired = until(play(s, 'canister B1 2'), (t) => top(t)?.t === 'act' || top(t)?.t === 'pick');
    if (top(fired)?.t === 'act') expect(game.legalActions(fired).filter((a) => /^(spike|abandon)/.test(a))).toEqual([]);
  });

  it('abandoning leaves the guns where they stood and a crew of guns − hits, which runs for cover in step 8', () => {
    const s = play(setUnits(variant(), { QA: { hits: 3 } }), 'bid 1', 'bid 0', 'be A', 'activate QA');
    const qa = unitOf(s, 'QA');
    const { t, events } = withEvents(s, 'abandon');
    expect(unitOf(t, 'QA')).toMatchObject({ status: 'eliminated', gunsLost: true });
    expect(t.abandoned).toEqual([{ id: 'QA', side: 0, x: qa.x, y: qa.y, facing: qa.facing, formation: 'unlimbered' }]);
    expect(t.artCrews).toEqual([
      { id: 'QA', side: 0, x: qa.x, y: qa.y, facing: qa.facing, figures: 5, retreating: false },
    ]);
    expect(said(events, 'p.10', /abandons its guns to run for cover/)).toBe(true);
    // step 8: its move (cover behind Q2 within 12", the rear, back to the guns, re-manning, spiking)
    const at8 = until(t, (x) => top(x)?.t === 'artCrew');
    const keys = game.legalActions(at8);
    expect(keys).toEqual(
      expect.arrayContaining(['crews QA stay', 'crews QA rear', 'crews QA to Q2', 'crews QA reman', 'crews QA spike']),
    );
    expect(keys.every((k) => k.startsWith('crews QA '))).toBe(true);
    const q2 = unitOf(at8, 'Q2');
    const { t: covered, events: ev } = withEvents(at8, 'crews QA to Q2');
    const crew = covered.artCrews![0]!;
    // 1" behind Q2's rear edge (front-centre 1" back of its 0.5"-deep line), facing as Q2
    expect(crew).toMatchObject({ x: q2.x, y: q2.y - 100, facing: q2.facing });
    expect(said(ev, 'p.10', /runs for cover behind Q2/)).toBe(true);
  });
});

describe("Napoleon's Eagles: the crew and its guns (A-51): re-manning, spiking, the retreat, caught in the open", () => {
  // QA's crew abandoned its guns at QA's place and stands 3" behind them
  const crewAt = (dy: number, patch: Json = {}, moves: Record<string, Partial<SeqUnit>> = {}) => {
    const s0 = setUnits(variant(), { QA: { status: 'eliminated', gunsLost: true }, ...moves });
    const qa = unitOf(s0, 'QA');
    return {
      ...s0,
      abandoned: [
        { id: 'QA', side: 0 as const, x: qa.x, y: qa.y, facing: qa.facing, formation: 'unlimbered' as const },
      ],
      artCrews: [
        {
          id: 'QA',
          side: 0 as const,
          x: qa.x,
          y: qa.y + dy,
          facing: qa.facing,
          figures: 8,
          retreating: false,
          ...patch,
        },
      ],
      stack: [...s0.stack, { t: 'artCrew' as const, id: 'QA' }],
    };
  };

  it('re-manning: one action to reach the guns within 6", one to re-man; the battery restored unlimbered as it faced', () => {
    const s = crewAt(-300);
    const qa = unitOf(s, 'QA');
    expect(game.toMove(s)).toEqual({ kind: 'player', player: 0 });
    const { t, events } = withEvents(s, 'crews QA reman');
    expect(unitOf(t, 'QA')).toMatchObject({
      status: 'active',
      gunsLost: false,
      formation: 'unlimbered',
      x: qa.x,
      y: qa.y,
      facing: qa.facing,
    });
    expect(t.abandoned).toEqual([]);
    expect(t.artCrews).toEqual([]);
    expect(said(events, 'p.10', /re-mans them/)).toBe(true);
    // farther than 6" + 1": it can only run toward them
    const far = game.legalActions(crewAt(-1000));
    expect(far).toContain('crews QA to guns');
    expect(far).not.toContain('crews QA reman');
  });

  it('no re-manning with an enemy within 2" of the guns; no spiking with one in contact', () => {
    const s0 = variant();
    const qa = unitOf(s0, 'QA');
    // B1 (a line 9" wide, 0.5" deep) 1.5" in front of the guns, then 0.5"
    const near = game.legalActions(crewAt(-300, {}, { B1: { x: qa.x, y: qa.y + 150, facing: 180 } }));
    expect(near).not.toContain('crews QA reman');
    expect(near).toContain('crews QA spike');
    const contact = game.legalActions(crewAt(-300, {}, { B1: { x: qa.x, y: qa.y + 50, facing: 180 } }));
    expect(contact).not.toContain('crews QA reman');
    expect(contact).not.toContain('crews QA spike');
    // spiking by the crew: the guns destroyed
    const { t, events } = withEvents(crewAt(-300), 'crews QA spike');
    expect(t.abandoned).toEqual([]);
    expect(said(events, 'p.10', /spikes its guns/)).toBe(true);
  });

  it('a crew that lost a close action runs to the rear first (it may return after its retreat, p.12)', () => {
    const s = crewAt(300, { retreating: true });
    expect(game.legalActions(s)).toEqual(['crews QA rear']);
    const t = play(s, 'crews QA rear');
    // 12" toward the French home edge (south), as far as the table lets it
    expect(t.artCrews![0]).toMatchObject({ retreating: false });
    expect(t.artCrews![0]!.y).toBeLessThan(s.artCrews[0]!.y);
  });

  it('at the period end a crew in the open with an enemy in contact is taken; in cover by formed infantry it is not', () => {
    const s0 = crewAt(-300);
    const crew = s0.artCrews[0]!;
    const open = setUnits(s0, { B1: { x: crew.x, y: crew.y + 50, facing: 180 } });
    const events: GameEvent[] = [];
    expect(internals.gunsAtEnd(open, events).artCrews).toEqual([]);
    expect(said(events, 'p.10', /caught in the open by B1/)).toBe(true);
    // Q2 put 0.5" to the crew's side: cover (A-51)
    const q2 = unitOf(open, 'Q2');
    const cover = setUnits(open, { Q2: { x: crew.x - 500, y: crew.y, formation: 'line', facing: q2.facing } });
    expect(internals.gunsAtEnd(cover, []).artCrews).toHaveLength(1);
  });
});

describe("Napoleon's Eagles: a crew fired at, charged, and charging to retake its guns [p.10, p.13] (A-51)", () => {
  // QA's guns abandoned where it stood (18, 5), facing north; its crew of `figures` at (x, y) inches; Q1 and Q2 away
  // in the south-west and south-east corners; the British wherever `moves` puts them (inches)
  const crewed = (at: { x: number; y: number }, moves: Record<string, Json> = {}, figures = 8) => {
    const s0 = setUnits(variant({ Q1: { x: 3, y: 3 }, Q2: { x: 31, y: 2 }, ...moves }), {
      QA: { status: 'eliminated', gunsLost: true },
    });
    const qa = unitOf(s0, 'QA');
    return {
      ...s0,
      abandoned: [
        { id: 'QA', side: 0 as const, x: qa.x, y: qa.y, facing: qa.facing, formation: 'unlimbered' as const },
      ],
      artCrews: [{ id: 'QA', side: 0 as const, x: at.x * 100, y: at.y * 100, facing: 0, figures, retreating: false }],
    };
  };
  const unique = (keys: readonly string[]) => expect(new Set(keys).size).toBe(keys.length);
  const actB1 = (s: SeqState) => play(s, 'bid 0', 'bid 1', 'be A', 'activate B1');

  it('a crew in the open is a target like any other: the nearest one (A-40), fired at in open order, no morale', () => {
    // B1's line 6" north of the crew, facing it; Q1 and Q2 farther off
    const s = actB1(crewed({ x: 18, y: 8 }, { B1: { x: 18, y: 14 } }));
    const keys = game.legalActions(s);
    unique(keys);
    expect(keys).toEqual(expect.arrayContaining(['fire crew QA 1', 'fire crew QA 2']));
    // A-40: the crew is the mandatory target (Q2 is not within 0.25" of its range)
    expect(keys.some((k) => /^fire Q[12] /.test(k))).toBe(false);
    expect(game.describeAction!(s, 'fire crew QA 1')).toMatch(/the crew of QA \(in the open, A-51\)/);
    const fired = play(s, 'fire crew QA 1');
    const f = top(fired);
    if (f?.t !== 'fire' || f.shot.type !== 'smallArms') throw new Error('a small-arms fire frame');
    expect(f.shot.target).toMatchObject({ id: 'crew QA', kind: 'crew', crewFigures: 8 });
    const r = resolveFire(f.shot, fired.sc.options);
    // the skirmishers' row: −3 (p.9, p.19), cited A-51
    expect(r.rolls[0]!.modifiers).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'skirmishers', value: -3, cite: 'p.9, p.19, A-51' })]),
    );
    // no morale marks for a crew
    expect(r.outcomes.every((o) => o.value.targets.every((e) => !e.moraleMark))).toBe(true);
    const hit = game.chanceOutcomes(fired).find((o) => /^crew QA [1-7] cas/.test(o.label ?? ''));
    expect(hit).toBeDefined();
    const n = Number(/crew QA (\d+) cas/.exec(hit!.label ?? '')![1]);
    const { t, events } = withEvents(fired, hit!.action);
    expect(t.artCrews).toEqual([expect.objectContaining({ id: 'QA', figures: 8 - n })]);
    expect(unitOf(t, 'QA').marked).toBe(0);
    expect(said(events, 'p.10', /the crew of QA takes \d+ casualt/)).toBe(true);
  });

  it('casualties to its last figure: the crew is gone, its guns stay', () => {
    // a crew of one figure: any casualty ends it
    const s = actB1(crewed({ x: 18, y: 8 }, { B1: { x: 18, y: 14 } }, 1));
    const fired = play(s, 'fire crew QA 2');
    const gone = game.chanceOutcomes(fired).find((o) => /^crew QA \d+ cas eliminated/.test(o.label ?? ''));
    expect(gone).toBeDefined();
    const { t, events } = withEvents(fired, gone!.action);
    expect(t.artCrews).toEqual([]);
    expect(t.abandoned).toHaveLength(1);
    expect(said(events, 'p.10', /none left, it is gone/)).toBe(true);
  });

  it('canister and solid shot take the skirmishers’ rows too (−4 on the die; −8 damage a hit)', () => {
    const crew = { id: 'crew QA', kind: 'crew', formation: 'skirmish', crewFigures: 4 } as const;
    const gun = { fire: 'C', fatigue: 0, actions: 1, calibre: '6lb', cannons: 6, howitzers: 0, ammo: 0 } as const;
    const can = resolveFire({ type: 'canister', ...gun, range: 3, target: crew });
    expect(can.rolls[0]!.modifiers).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'skirmishersCanister', value: -4 })]),
    );
    const shot = resolveFire({ type: 'solidShot', ...gun, range: 20, atRisk: [crew] });
    expect(shot.rolls[0]!.damageModifiers).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'skirmishers', value: -8, cite: 'p.9, p.19, A-51' })]),
    );
    // 4 figures: 4 casualties and more end it
    expect(can.outcomes.every((o) => o.value.targets[0]!.eliminated === o.value.targets[0]!.casualties >= 4)).toBe(
      true,
    );
  });

  it('a crew in cover (within 1" of friendly formed infantry) is not fired at nor charged', () => {
    // Q2's line (9" wide) put 0.5" west of the crew's body (its battery's 3"), abreast of it
    const open = crewed({ x: 18, y: 8 }, { B1: { x: 18, y: 14 } });
    expect(game.legalActions(actB1(open))).toContain('fire crew QA 1');
    const covered = crewed({ x: 18, y: 8 }, { B1: { x: 18, y: 14 }, Q2: { x: 11.5, y: 8, facing: 0 } });
    expect(internals.crewInCover(covered, covered.artCrews[0]!)).toBe(true);
    const keys = game.legalActions(actB1(covered));
    expect(keys.some((k) => k.includes('crew QA'))).toBe(false);
  });

  it('charged in the open, the crew is eliminated on contact: no close action; the charge ends the activation', () => {
    // B1 3.5" north of the crew, facing it
    const s = actB1(crewed({ x: 18, y: 8 }, { B1: { x: 18, y: 11.5 } }));
    const b1 = unitOf(s, 'B1');
    expect(game.describeAction!(s, 'charge crew QA')).toMatch(/eliminated on contact/);
    const { t, events } = withEvents(s, 'charge crew QA');
    expect(t.artCrews).toEqual([]);
    expect(t.closes).toEqual([]);
    expect(unitOf(t, 'B1').y).toBeLessThan(b1.y);
    expect(unitOf(t, 'B1').locked).toBe(false);
    expect(top(t)?.t).not.toBe('act');
    expect(
      said(events, 'p.10', /B1 charges the crew of QA in the open .*eliminated on contact, no close action \(A-51\)/),
    ).toBe(true);
    // out of its reach (an infantry line's one action), no charge; cavalry reaches farther
    const far = actB1(crewed({ x: 18, y: 8 }, { B1: { x: 18, y: 19 }, B2: { x: 28, y: 23 } }));
    expect(game.legalActions(far)).not.toContain('charge crew QA');
    const cav = play(
      crewed({ x: 18, y: 8 }, { BC: { x: 18, y: 18, facing: 180 } }),
      'bid 0',
      'bid 1',
      'be A',
      'activate BC',
    );
    expect(game.legalActions(cav)).toContain('charge crew QA');
  });

  // B1 in contact with QA's guns (0.5" in front of them), the crew 3" behind its guns
  const onGuns = (b1: Partial<SeqUnit> = {}) => {
    const s0 = crewed({ x: 18, y: 2 }, { B1: { x: 18, y: 5.5 } });
    const s = setUnits(s0, { B1: b1 });
    return { ...s, stack: [...s.stack, { t: 'artCrew' as const, id: 'QA' }] };
  };

  it('with an enemy on its guns the crew may charge it (not re-man or spike them), as an infantry close action', () => {
    const s = onGuns();
    const keys = game.legalActions(s);
    unique(keys);
    expect(keys).toContain('crews QA charge B1');
    expect(keys).not.toContain('crews QA reman');
    expect(keys).not.toContain('crews QA spike');
    expect(game.describeAction!(s, 'crews QA charge B1')).toMatch(/charges B1, which is on its guns/);
    // out of its two actions' reach (12"): no charge
    const far = { ...s, artCrews: [{ ...s.artCrews![0]!, x: 500, y: 2000 }] };
    expect(game.legalActions(far)).not.toContain('crews QA charge B1');
    const c = play(s, 'crews QA charge B1');
    expect(top(c)).toEqual({ t: 'crewCharge', id: 'QA', target: 'B1' });
    const outs = game.chanceOutcomes(c);
    unique(outs.map((o) => o.action));
    expect(outs.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
    // step 2: B1's check against the crew's charge
    const check = defenderCheck(internals.crewChargeMorale(c, 'QA', 'B1'));
    expect(pOf(c, /^retake the enemy retreats before contact$/)).toBeCloseTo(1 - passChance(check.target), 12);
    // the melee with the battery's MV (B16B25: 25) against B1's 45, from step 6 (a crew has no morale: no step 5)
    const i = internals.crewCloseInput(c, 'QA', 'B1');
    expect(i.charger.melee.base).toBe(25);
    expect(i.defender.melee.base).toBe(45);
    expect(i.refight).toBe(true);
    expect(pOf(c, /^retake the crew wins/)).toBeGreaterThan(0);
    expect(pOf(c, /^retake the enemy wins/)).toBeGreaterThan(0);
  });

  it('the crew wins: the enemy retreats as a close action loser, the crew stands at its guns and re-mans them next', () => {
    const c = play(onGuns(), 'crews QA charge B1');
    const win = game
      .chanceOutcomes(c)
      .find((o) => /^retake the crew wins, losses 0\/\d+, the enemy retreats$/.test(o.action));
    expect(win).toBeDefined();
    const b1 = unitOf(c, 'B1');
    const { t, events } = withEvents(c, win!.action);
    expect(unitOf(t, 'B1')).toMatchObject({ retreating: true, fatigue: b1.fatigue + 1 });
    expect(unitOf(t, 'B1').figures).toBeLessThanOrEqual(b1.figures);
    expect(top(t)).toEqual({ t: 'retreatTo', unit: 'B1' });
    const g = t.abandoned![0]!;
    expect(t.artCrews).toEqual([expect.objectContaining({ id: 'QA', figures: 8, x: g.x, y: g.y })]);
    expect(said(events, 'p.13 steps 6-9', /the crew of QA \(MV 25\) against B1: the crew wins/)).toBe(true);
    // B1 falls back 4" or more: no enemy within 2" of the guns, the crew re-mans at its next move
    const back = game.legalActions(t).find((k) => /^retreat (4|8|12)"/.test(k));
    expect(back).toBeDefined();
    let r = play(t, back!);
    r = playOn(r, (x) => top(x)?.t !== 'reformRoll', [], {});
    const again = { ...r, stack: [...r.stack, { t: 'artCrew' as const, id: 'QA' }] };
    expect(game.legalActions(again)).toContain('crews QA reman');
  });

  it('B1 fails its step 2 check: it retreats before contact, the crew back at its guns', () => {
    const c = play(onGuns(), 'crews QA charge B1');
    const { t, events } = withEvents(c, 'retake the enemy retreats before contact');
    expect(unitOf(t, 'B1')).toMatchObject({ retreating: true, figures: unitOf(c, 'B1').figures });
    expect(top(t)).toEqual({ t: 'retreatTo', unit: 'B1' });
    expect(t.artCrews![0]).toMatchObject({ figures: 8, x: t.abandoned![0]!.x, y: t.abandoned![0]!.y });
    expect(said(events, 'p.13 step 2', /B1 fails its check against the crew of QA's charge/)).toBe(true);
    // in retreat status it routs instead
    const r = play(onGuns({ retreating: true }), 'crews QA charge B1');
    expect(pOf(r, /^retake the enemy retreats before contact$/)).toBe(0);
    expect(pOf(r, /^retake the enemy routs before contact$/)).toBeGreaterThan(0);
  });

  it('the crew loses: it is eliminated; the enemy keeps the guns, with its casualties and step 9 fatigue', () => {
    const c = play(onGuns(), 'crews QA charge B1');
    const lose = game.chanceOutcomes(c).find((o) => /^retake the enemy wins, losses \d+\/[1-9]/.test(o.action));
    expect(lose).toBeDefined();
    const lost = Number(/losses \d+\/(\d+)/.exec(lose!.action)![1]);
    const b1 = unitOf(c, 'B1');
    const { t, events } = withEvents(c, lose!.action);
    expect(t.artCrews).toEqual([]);
    expect(t.abandoned).toHaveLength(1);
    expect(unitOf(t, 'B1')).toMatchObject({ retreating: false, figures: b1.figures - lost, fatigue: b1.fatigue + 1 });
    expect(said(events, 'p.10', /the crew of QA is beaten: eliminated \(A-51\)/)).toBe(true);
  });

  it('real dice: the step 2 D20, the melee and casualty D6s, the loser D20 read into the outcomes', () => {
    const c = play(onGuns(), 'crews QA charge B1');
    expect(game.rollAsk!(c)?.dice).toEqual([20, 6, 6, 6, 6, 20]);
    const read = (faces: number[]) => {
      const r = game.outcomeForFaces!(c, faces);
      if (!('action' in r)) throw new Error(r.error);
      return r.action;
    };
    expect(read([20, 1, 1, 1, 1, 1])).toBe('retake the enemy retreats before contact');
    // the crew 6 × 25 against B1's 1 × 45: the crew wins; B1 checks on its D20
    expect(read([1, 6, 1, 3, 3, 1])).toMatch(/^retake the crew wins, .*the enemy retreats$/);
    expect(read([1, 6, 1, 3, 3, 20])).toMatch(/^retake the crew wins, .*the enemy routs$/);
    expect(read([1, 1, 6, 3, 3, 1])).toMatch(/^retake the enemy wins, /);
    // every outcome is read from some faces
    const seen = new Set<string>([read([20, 1, 1, 1, 1, 1])]);
    for (let m = 0; m < 36; m++)
      for (let k = 0; k < 36; k++)
        for (const dl of [1, 20])
          seen.add(read([1, 1 + (m % 6), 1 + Math.floor(m / 6), 1 + (k % 6), 1 + Math.floor(k / 6), dl]));
    expect([...seen].sort()).toEqual(
      game
        .chanceOutcomes(c)
        .map((o) => o.action)
        .sort(),
    );
  });

  it('the scripted player charges only at good odds; its scores are finite', () => {
    const good = onGuns({ retreating: true, disordered: true, fatigue: 3 });
    const bad = onGuns();
    const score = (s: SeqState) => {
      const keys = game.legalActions(s);
      const sc = game.policyScores!(s, keys);
      expect(sc.every(Number.isFinite)).toBe(true);
      return sc[keys.indexOf('crews QA charge B1')]!;
    };
    expect(internals.crewChargeOdds(good, 'QA', 'B1')).toBeGreaterThan(internals.crewChargeOdds(bad, 'QA', 'B1'));
    expect(score(bad)).toBeLessThan(0);
    expect(score(good)).toBeGreaterThan(score(bad));
  });

  it('at the period end an enemy in retreat status takes no crew (it charges nothing, p.12)', () => {
    const s = crewed({ x: 18, y: 8 }, { B1: { x: 18, y: 8.5 } });
    expect(internals.gunsAtEnd(s, []).artCrews).toEqual([]);
    const r = setUnits(s, { B1: { retreating: true } });
    expect(internals.gunsAtEnd(r, []).artCrews).toHaveLength(1);
  });
});

describe("Napoleon's Eagles: a battery that fails a morale check [p.12] (A-57)", () => {
  // QA (8-9lb foot, 6 cannons and 2 howitzers) 10" from the French edge, facing the British, who are more than 12"
  // away; its check fails (limbered, it is a column 9" deep behind its front [p.3])
  const failed = (patch: Partial<SeqUnit> = {}) => {
    const moves = { QA: { y: 10 }, B1: { x: 5, y: 23 }, B2: { x: 32, y: 23 }, BC: { x: 5, y: 21 } };
    const s0 = setUnits(variant(moves), { QA: patch });
    const s = play({ ...s0, stack: [...s0.stack, { t: 'morale' as const, unit: 'QA' }] }, 'morale retreat');
    expect(top(s)).toEqual({ t: 'retreatTo', unit: 'QA' });
    return s;
  };
  const reform = (s: SeqState) => game.chanceOutcomes(s).map((o) => Number(o.action.slice('reform '.length)));

  it('unlimbered, its owner picks: limber and retreat with the guns, stand in place unlimbered, or abandon the guns', () => {
    const keys = game.legalActions(failed());
    expect(keys[0]).toBe('stand in place');
    expect(keys.at(-1)).toBe('abandon the guns');
    const limber = keys.slice(1, -1);
    expect(limber.length).toBeGreaterThan(0);
    expect(limber.every((k) => /^retreat .*" limbered$/.test(k))).toBe(true);
    expect(limber).toContain('retreat 4" limbered');
  });

  it('(1) limbering is an action: +1 recovery action over the same retreat limbered already', () => {
    const { t, events } = withEvents(failed(), 'retreat 4" limbered');
    const qa0 = unitOf(failed(), 'QA');
    expect(unitOf(t, 'QA')).toMatchObject({ formation: 'limbered', retreating: true, status: 'active' });
    // 4" toward the French home edge (south), the guns with it
    expect(unitOf(t, 'QA').y).toBeLessThan(qa0.y);
    expect(top(t)).toMatchObject({ t: 'reformRoll', unit: 'QA', inches: 4, limber: true });
    expect(said(events, 'p.12', /QA limbers its guns to retreat \(A-57: \+1 recovery action\)/)).toBe(true);
    const limbered = play(failed({ formation: 'limbered' }), 'retreat 4"');
    expect(top(limbered)).toEqual({ t: 'reformRoll', unit: 'QA', inches: 4 });
    expect(reform(t)).toEqual(reform(limbered).map((n) => n + 1));
    // the reform die shown for the total (the limber action counted)
    const rolled = game.apply(t, game.chanceOutcomes(t)[0]!.action);
    expect(unitOf(rolled, 'QA').recovery).toBe(reform(t)[0]);
  });

  it('(2) standing in place unlimbered: a retreat of 0", only the reform roll owed', () => {
    const { t, events } = withEvents(failed(), 'stand in place');
    expect(unitOf(t, 'QA')).toMatchObject({ formation: 'unlimbered', retreating: true, x: unitOf(failed(), 'QA').x });
    expect(top(t)).toEqual({ t: 'reformRoll', unit: 'QA', inches: 0 });
    expect(said(events, 'p.12', /stands in place in retreat status, its guns unlimbered \(A-57: 0"\)/)).toBe(true);
    // limbering costs one more than standing (the 4" is one more action still)
    expect(reform(play(failed(), 'retreat 4" limbered'))).toEqual(reform(t).map((n) => n + 2));
  });

  it('(3) abandoning the guns: they are left where they stood, the crew (guns − hits) retreats as a crew', () => {
    const s = failed({ hits: 3 });
    const qa = unitOf(s, 'QA');
    const { t, events } = withEvents(s, 'abandon the guns');
    expect(unitOf(t, 'QA')).toMatchObject({ status: 'eliminated', gunsLost: true });
    expect(t.abandoned).toEqual([{ id: 'QA', side: 0, x: qa.x, y: qa.y, facing: qa.facing, formation: 'unlimbered' }]);
    expect(t.artCrews).toEqual([
      { id: 'QA', side: 0, x: qa.x, y: qa.y, facing: qa.facing, figures: 5, retreating: true },
    ]);
    // no reform roll: the crew is a piece; back to what was on the stack
    expect(top(t)?.t).toBe('bid');
    expect(said(events, 'p.12', /QA abandons its guns and retreats as a crew \(A-57\)/)).toBe(true);
    // its step 8 move: it runs to the rear first (A-51, as a crew from a lost close action)
    const at8 = until(t, (x) => top(x)?.t === 'artCrew');
    expect(game.legalActions(at8)).toEqual(['crews QA rear']);
    const ran = play(at8, 'crews QA rear');
    expect(ran.artCrews![0]!.y).toBeLessThan(qa.y);
    expect(ran.abandoned).toHaveLength(1);
  });

  it('a battery limbered already retreats with its guns as any unit (no limber, no abandoning)', () => {
    const keys = game.legalActions(failed({ formation: 'limbered' }));
    expect(keys).toContain('retreat 4"');
    expect(keys.some((k) => k.endsWith(' limbered') || k === 'abandon the guns')).toBe(false);
  });

  it('the scripted player takes its guns back limbered, then stands, and abandons them last', () => {
    const s = failed();
    const keys = game.legalActions(s);
    const scores = game.policyScores!(s, keys);
    const best = keys[scores.indexOf(Math.max(...scores))]!;
    expect(best).toMatch(/limbered$/);
    expect(scores[keys.indexOf('abandon the guns')]).toBeLessThan(scores[keys.indexOf('stand in place')]!);
  });
});

describe("Napoleon's Eagles: overrunning abandoned guns [p.10] (A-51)", () => {
  // QA's guns abandoned; B1 in contact with them (0.5" in front), the crew gone
  const taken = () => {
    const s0 = variant();
    const qa = unitOf(s0, 'QA');
    const s = setUnits(s0, {
      QA: { status: 'eliminated', gunsLost: true },
      B1: { x: qa.x, y: qa.y + 50, facing: 180 },
    });
    return {
      ...s,
      abandoned: [
        { id: 'QA', side: 0 as const, x: qa.x, y: qa.y, facing: qa.facing, formation: 'unlimbered' as const },
      ],
    };
  };

  it('the whole activation of a unit in contact: the guns are destroyed at the period end if it was not charged', () => {
    const s = play(taken(), 'bid 0', 'bid 1', 'be A', 'activate B1');
    expect(game.legalActions(s)).toContain('overrun QA');
    // B2 is not in contact
    const b2 = play(taken(), 'bid 0', 'bid 1', 'be A', 'activate B2');
    expect(game.legalActions(b2)).not.toContain('overrun QA');
    const { t, events } = withEvents(s, 'overrun QA');
    expect(unitOf(t, 'B1').halves).toBe(4);
    expect(t.abandoned![0]!.overrunBy).toBe('B1');
    expect(top(t)?.t).not.toBe('act');
    expect(said(events, 'p.10', /B1 sets about destroying QA's guns/)).toBe(true);
    const ev: GameEvent[] = [];
    const end = internals.gunsAtEnd(t, ev);
    expect(end.abandoned).toEqual([]);
    expect(said(ev, 'p.10', /B1 has overrun QA's guns: destroyed/)).toBe(true);
    // charged this period: not destroyed, the declaration lapses
    const charged = { ...t, closes: [{ ...({} as SeqState['closes'][number]), charger: 'Q1', defender: 'B1' }] };
    const kept = internals.gunsAtEnd(charged, ev);
    expect(kept.abandoned).toHaveLength(1);
    expect(kept.abandoned![0]!.overrunBy).toBeUndefined();
    expect(said(ev, 'p.10', /could not destroy QA's guns \(charged\)/)).toBe(true);
  });

  it('played to the period end in the game: the guns are gone', () => {
    const t = until(play(taken(), 'bid 0', 'bid 1', 'be A', 'activate B1', 'overrun QA'), (x) => x.period === 2);
    expect(t.abandoned).toEqual([]);
  });
});

describe("Napoleon's Eagles: a charged battery's defence actions [p.10]", () => {
  // QA 10" from the French edge, BC (British heavy cavalry) 9" in front of it, facing it; the others out of the way
  const charged = (qa: Partial<SeqUnit> = {}, options: Json = {}) => {
    const s0 = variant(
      {
        Q1: { x: 3, y: 3 },
        Q2: { x: 30, y: 2 },
        QA: { y: 10 },
        B1: { x: 5, y: 23 },
        B2: { x: 32, y: 23 },
        BC: { x: 18, y: 19, facing: 180 },
      },
      {},
      options,
    );
    let s = play(setUnits(s0, { QA: qa }), 'bid 0', 'bid 1', 'be A', 'activate BC', 'charge QA');
    expect(s.closes[0]).toMatchObject({ charger: 'BC', defender: 'QA', rideDown: true });
    s = until(s, (t) => top(t)?.t === 'closeCheck');
    return play(s, 'defender stands');
  };

  it('fire, rapid fire or abandon the guns: the book offers the crew the choice', () => {
    const s = charged();
    expect(top(s)?.t).toBe('defence');
    expect(game.legalActions(s)).toEqual(
      expect.arrayContaining(['defence fire', 'defence fire rapid', 'abandon guns', 'no defence action']),
    );
  });

  it('rapid fire as the defence action: casualties doubled, fatigue +3 (A-49), or +2 with the p.5 option', () => {
    const s = charged();
    const fr = (t: SeqState) => {
      const f = top(t);
      if (f?.t !== 'fire') throw new Error('a fire frame');
      return Object.fromEntries(casualtyMarginal(resolveFire(f.shot, t.sc.options), 'BC').map((d) => [d.value, d.p]));
    };
    const normal = fr(play(s, 'defence fire'));
    const rapidAt = play(s, 'defence fire rapid');
    const rapid = fr(rapidAt);
    for (const [k, p] of Object.entries(normal)) expect(rapid[2 * Number(k)]).toBeCloseTo(p, 12);
    const { t, events } = withEvents(rapidAt, game.chanceOutcomes(rapidAt)[0]!.action);
    expect(unitOf(t, 'QA').fatigue).toBe(3);
    expect(said(events, 'p.10', /rapid fire/)).toBe(true);
    const two = play(charged({}, { rapidFireDefenceFatigue: 2 }), 'defence fire rapid');
    expect(unitOf(play(two, game.chanceOutcomes(two)[0]!.action), 'QA').fatigue).toBe(2);
    // not when the battery is fatigued [p.10]
    const tired = charged({ fatigue: 1 });
    expect(game.legalActions(tired)).toContain('defence fire');
    expect(game.legalActions(tired)).not.toContain('defence fire rapid');
  });

  it('abandoning instead: the guns stay, the crew runs 6" from the charger, the charge is over (the guns taken)', () => {
    const s = charged();
    const qa = unitOf(s, 'QA');
    const { t, events } = withEvents(s, 'abandon guns');
    expect(unitOf(t, 'QA')).toMatchObject({ status: 'eliminated', gunsLost: true });
    expect(t.abandoned![0]).toMatchObject({ id: 'QA', x: qa.x, y: qa.y });
    const crew = t.artCrews![0]!;
    // straight away from BC (to the south): 6"
    expect(crew.x).toBe(qa.x);
    expect(crew.y).toBe(qa.y - 600);
    expect(said(events, 'p.10', /abandons its guns instead of a defence action/)).toBe(true);
    const after = until(t, (x) => !x.closes.length || x.closes.every((c) => !unitOf(x, c.charger).locked));
    expect(unitOf(after, 'BC').locked).toBe(false);
    // the crew is not there without a defence action: the battery had used both its actions
    const spent = charged({ halves: 4, activated: true });
    expect(unitOf(spent, 'QA')).toMatchObject({ stand: false, halves: 4 });
    expect(top(spent)?.t).not.toBe('defence');
  });
});

describe("Napoleon's Eagles: refusing a flank as a defence action [p.7] (A-58)", () => {
  // BC (British heavy cavalry) 11.5" off Q2's left flank, facing it (charges.test.ts's position)
  const flank = (bc: Json = {}) =>
    variant(
      { Q1: { x: 3, y: 3 }, Q2: { y: 8 }, QA: { x: 10, y: 18 }, BC: { x: 9, y: 9, facing: 90, ...bc } },
      { Pack: { x: 9, y: 13 }, Foy: { attached: undefined, x: 25, y: 5 } },
    );
  const atDefence = (s0: SeqState) => {
    let s = play(s0, 'bid 0', 'bid 1', 'be A', 'activate BC', 'charge Q2');
    expect(s.closes[0]).toMatchObject({ charger: 'BC', defender: 'Q2', arc: 'flankSide' });
    s = until(s, (t) => top(t)?.t === 'closeCheck');
    return play(s, 'defender stands');
  };

  it('a line charged on its left flank may refuse that flank (not the other): a check, then the charge meets a front', () => {
    const s = atDefence(flank());
    expect(game.legalActions(s)).toContain('defence form refused left');
    expect(game.legalActions(s)).not.toContain('defence form refused right');
    const r = play(s, 'defence form refused left');
    expect(top(r)).toMatchObject({ t: 'defenceChange', change: 'refused left' });
    const c = r.closes[0]!;
    const target = defenceChangeCheck(internals.closeMorale(r, c, 'defender'), {
      cavalry: { chargeDistance: c.distance!, changedBeforeCharge: false },
    }).target;
    expect(pOf(r, /^defence changed$/)).toBeCloseTo(passChance(target), 12);
    const { t, events } = withEvents(r, 'defence changed');
    expect(unitOf(t, 'Q2').refused).toBe('left');
    expect(t.closes[0]!.arc).toBe('front');
    expect(said(events, 'p.14 step 4', /forms refused left/)).toBe(true);
    // failed: disordered, no change
    const f = play(r, 'defence disordered');
    expect(unitOf(f, 'Q2')).toMatchObject({ disordered: true });
    expect(unitOf(f, 'Q2').refused).toBeUndefined();
    expect(f.closes[0]!.arc).toBe('flankSide');
  });

  it('not against a frontal charge', () => {
    const s0 = variant({
      Q1: { x: 3, y: 3 },
      QA: { x: 33, y: 3 },
      Q2: { y: 8 },
      B2: { x: 32, y: 23 },
      BC: { x: 25, y: 17, facing: 180 },
    });
    let s = play(s0, 'bid 0', 'bid 1', 'be A', 'activate BC', 'charge Q2');
    expect(s.closes[0]).toMatchObject({ arc: 'front' });
    s = play(
      until(s, (t) => top(t)?.t === 'closeCheck'),
      'defender stands',
    );
    if (top(s)?.t === 'defence') expect(game.legalActions(s).some((a) => a.includes('refused'))).toBe(false);
  });
});

describe("Napoleon's Eagles: random games with the crew rules keep the Game contract", () => {
  for (const id of ['quick-test', 'the-mill-at-kleinau'])
    it(`${id}: random games to the end under the conformance checker`, () => {
      checkedGames(() => scenarioOf(id), `crews/${id}`, 2);
    });
});
