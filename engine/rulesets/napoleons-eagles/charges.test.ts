/**
 * Napoleon's Eagles: the charge and skirmisher rules wired into the game [p.11, p.13-15, p.18-19]: the division's
 * out-of-command −3 on its threshold roll; a counter-charge meeting a charge on the cavalry itself; defence
 * actions against charges (A-58: fire, face, form square; the cavalry's reaction distance); several chargers on one
 * unit with enfilade; skirmish screens (their moves, intervening screens, cavalry charging screens, A-61).
 * Positions are variants of the shipped scenarios; probabilities are exact.
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
  rawScenario,
  scenarioOf,
  top,
  validated,
} from '../../../test/ne-fixtures.ts';
import type { GameEvent } from '../../core/game.ts';
import { chargerCheck, cavalryVsScreen, defenceChangeCheck, passChance, severalChargersMelee } from './close.ts';
import { napoleonsEagles as game } from './index.ts';
import { enfiladeOf } from './shape.ts';
import { internals, type SeqState, unitOf } from './turn.ts';

/** quick-test with units moved (inches) and, optionally, a French heavy cavalry regiment FC. */
function variant(
  moves: Record<string, Json>,
  fc?: Json,
  options: Json = {},
  leaders: Record<string, Json> = {},
): SeqState {
  const j = rawScenario('quick-test');
  for (const side of j.sides) for (const u of side.units) Object.assign(u, moves[u.id] ?? {});
  for (const side of j.sides) for (const l of side.leaders) if (leaders[l.id]) Object.assign(l, leaders[l.id]);
  if (fc) {
    // Foy detached, placed by the cavalry so that it is in command [p.16]
    const foy = j.sides[0].leaders.find((l: Json) => l.id === 'Foy');
    delete foy.attached;
    Object.assign(foy, { x: fc.x, y: Math.max(1, fc.y - 3) });
  }
  if (fc)
    j.sides[0].units.push({
      id: 'FC',
      kind: 'cavalry',
      weight: 'heavy',
      figures: 12,
      rating: 'B17C50',
      commander: 'Foy',
      formation: 'line',
      ...fc,
    });
  j.options = { ...(j.options ?? {}), ...options };
  return game.initialState(validated(j));
}
/** Plays on (first chance outcome; finish, end, stay, hold, activate) until `stop`. */
const until = (s0: SeqState, stop: (s: SeqState) => boolean) => playOn(s0, stop, [...QUIET, activation]);

describe("Napoleon's Eagles: the division's out-of-command −3 on its threshold roll [p.11]", () => {
  it('is measured at the start of the turn (step 11 took the markers off): 8 in 20, or 5 in 20 out of command', () => {
    const s0 = variant({});
    const at = (s: SeqState): SeqState => ({
      ...s,
      stack: [...s.stack, { t: 'threshold', side: 1, division: 'Pack' }],
    });
    const inCommand = at(s0);
    expect(pOf(inCommand, /^threshold pass/)).toBeCloseTo(8 / 20, 12);
    // Pack far from his units: the whole division is out of his command radius
    const away: SeqState = { ...s0, leaders: s0.leaders.map((l) => (l.id === 'Pack' ? { ...l, x: 100, y: 100 } : l)) };
    expect(away.units.every((u) => !u.ooc)).toBe(true); // no marker is needed
    expect(pOf(at(away), /^threshold pass/)).toBeCloseTo(5 / 20, 12);
    const events: GameEvent[] = [];
    game.apply(at(away), game.chanceOutcomes(at(away))[0]!.action, events);
    expect(events.some((e) => e.rule === 'p.11' && e.text.includes('−3: the division is out of command'))).toBe(true);
  });
});

describe("Napoleon's Eagles: a counter-charge against a unit charging the cavalry itself [p.15] (A-64)", () => {
  // FC (French heavy cavalry) 8" in front of BC, face to face
  const s0 = variant({}, { x: 31.4, y: 12.5, facing: 0 });
  it('replaces the step 2 check: no defence action, and both count as chargers at step 8 (+2)', () => {
    let s = play(s0, 'bid 1', 'bid 0', 'be A', 'activate FC', 'charge BC');
    expect(top(s)).toEqual({ t: 'counter', cavalry: 'BC', mover: 'FC' });
    expect(game.legalActions(s)).toEqual(['counter-charge', 'hold']);
    s = play(s, 'counter-charge');
    // the raw morale rating (17), no modifiers
    expect(pOf(s, /^counter charges$/)).toBeCloseTo(17 / 20, 12);
    const events: GameEvent[] = [];
    s = game.apply(s, 'counter charges', events);
    expect(events.some((e) => e.rule === 'p.15' && /charges meet \(A-64/.test(e.text))).toBe(true);
    expect(s.closes[0]).toMatchObject({ charger: 'FC', defender: 'BC', counter: true });
    expect(unitOf(s, 'BC')).toMatchObject({ stand: false, locked: true });
    const fight = until(s, (t) => top(t)?.t === 'closeFight' || top(t)?.t === 'closeCheck');
    expect(top(fight)?.t).toBe('closeFight'); // no step 2 check
    // +2 for a losing BC: it routs less often than as a plain defender
    const plain: SeqState = { ...fight, closes: fight.closes.map((c) => ({ ...c, counter: false })) };
    const routs = (t: SeqState) => pOf(t, /^melee (chargerWins|tieChargerWins).*the loser routs/);
    expect(routs(fight)).toBeGreaterThan(0);
    expect(routs(fight)).toBeLessThan(routs(plain));
    expect(game.chanceOutcomes(fight).reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
  });
  it('held, the charge is an ordinary one: the step 2 check, and BC keeps its defence action', () => {
    const s = play(s0, 'bid 1', 'bid 0', 'be A', 'activate FC', 'charge BC', 'hold');
    expect(s.closes[0]!.counter).toBeUndefined();
    expect(unitOf(s, 'BC').stand).toBe(true);
    expect(top(until(s, (t) => top(t)?.t === 'closeCheck'))?.t).toBe('closeCheck');
  });
});

describe("Napoleon's Eagles: defence actions against charges [p.13-15] (A-58)", () => {
  // BC (British heavy cavalry) 11.5" off Q2's left flank, facing it; Q1 and the guns out of the way
  const flank = (bc: Json = {}) =>
    variant(
      { Q1: { x: 3, y: 3 }, Q2: { y: 8 }, QA: { x: 10, y: 18 }, BC: { x: 9, y: 9, facing: 90, ...bc } },
      undefined,
      {},
      { Pack: { x: 9, y: 13 }, Foy: { attached: undefined, x: 25, y: 5 } },
    );
  const atDefence = (s0: SeqState, changed = false) => {
    let s = play(s0, 'bid 0', 'bid 1', 'be A', 'activate BC');
    if (changed) s = { ...s, units: s.units.map((u) => (u.id === 'BC' ? { ...u, changed: true } : u)) };
    s = play(s, 'charge Q2');
    expect(s.closes[0]).toMatchObject({ charger: 'BC', defender: 'Q2', rideDown: true, arc: 'flankSide' });
    s = until(s, (t) => top(t)?.t === 'closeCheck');
    return play(s, 'defender stands');
  };
  it('A-43: a unit ridden down to fewer than 2 figures is gone, not routing (the soak found it routing from nowhere)', () => {
    const s0 = atDefence(flank());
    const few = { ...s0, units: s0.units.map((u) => (u.id === 'Q2' ? { ...u, figures: 2 } : u)) };
    const s = until(play(few, 'no defence action'), (t) => top(t)?.t === 'rideDown');
    const gone = game
      .chanceOutcomes(s)
      .find((o) => /defenderRiddenDown.*losses \d+\/([2-9]|\d\d).*the defender routs/.test(o.action));
    expect(gone).toBeDefined();
    const t = game.apply(s, gone!.action);
    const q2 = t.units.find((u) => u.id === 'Q2')!;
    expect(q2.status).toBe('eliminated');
    expect(Number.isFinite(q2.x) && Number.isFinite(q2.y) && Number.isFinite(q2.facing)).toBe(true);
  });

  it("[p.16] a ride-down's casualties bring the leader loss roll for the leader with the unit ridden down", () => {
    const withFoy = variant(
      { Q1: { x: 3, y: 3 }, Q2: { y: 8 }, QA: { x: 10, y: 18 }, BC: { x: 9, y: 9, facing: 90 } },
      undefined,
      {},
      { Pack: { x: 9, y: 13 }, Foy: { attached: 'Q2' } },
    );
    const s = until(play(atDefence(withFoy), 'no defence action'), (t) => top(t)?.t === 'rideDown');
    const hit = game.chanceOutcomes(s).find((o) => /defenderRiddenDown.*losses \d+\/([2-9]|\d\d)/.test(o.action))!;
    expect(
      hit,
      game
        .chanceOutcomes(s)
        .map((o) => o.action)
        .join('; '),
    ).toBeDefined();
    const t = game.apply(s, hit.action);
    const lost = Number(/losses \d+\/(\d+)/.exec(hit.action)![1]);
    // the roll is waiting: lost on a D10 of ceil(casualties / 2) or less
    expect(t.stack.some((f) => f.t === 'leaderLoss' && f.leader === 'Foy' && f.upTo === Math.ceil(lost / 2))).toBe(
      true,
    );
  });

  it('cavalry charging from more than 10": fire, face or form square; the check as the book says', () => {
    const s = atDefence(flank());
    expect(top(s)?.t).toBe('defence');
    const acts = game.legalActions(s);
    expect(acts).toEqual(expect.arrayContaining(['defence face', 'defence form square', 'no defence action']));
    const sq = play(s, 'defence form square');
    expect(top(sq)).toMatchObject({ t: 'defenceChange', change: 'square' });
    const c = sq.closes[0]!;
    expect(c.distance).toBeGreaterThan(10);
    expect(c.distance).toBeLessThan(16);
    const target = defenceChangeCheck(internals.closeMorale(sq, c, 'defender'), {
      cavalry: { chargeDistance: c.distance!, changedBeforeCharge: false },
    }).target;
    expect(pOf(sq, /^defence changed$/)).toBeCloseTo(passChance(target), 12);
    // formed square: the cavalry cannot ride it down; turned back if it closes [p.14]
    const formed = play(sq, 'defence changed');
    expect(unitOf(formed, 'Q2').formation).toBe('square');
    const ride = until(formed, (t) => top(t)?.t === 'rideDown');
    const outs = game.chanceOutcomes(ride);
    expect(outs.some((o) => o.action.includes('defenderRiddenDown'))).toBe(false);
    const cavPass = chargerCheck(internals.closeMorale(ride, ride.closes[0]!, 'charger'), { cavalry: true }).dist.find(
      (d) => d.value === 'closes',
    )!.p;
    expect(pOf(ride, /cavalryTurnedBack/)).toBeCloseTo(cavPass, 12);
    // failing: disordered, no change; charged outside its front arc, it is ridden down if the cavalry closes
    const dis = play(sq, 'defence disordered');
    expect(unitOf(dis, 'Q2')).toMatchObject({ formation: 'line', disordered: true });
    const ride2 = until(dis, (t) => top(t)?.t === 'rideDown');
    const cavPass2 = chargerCheck(internals.closeMorale(ride2, ride2.closes[0]!, 'charger'), {
      cavalry: true,
    }).dist.find((d) => d.value === 'closes')!.p;
    expect(pOf(ride2, /defenderRiddenDown at step 6/)).toBeCloseTo(cavPass2, 12);
    expect(pOf(ride2, /cavalryTurnedBack/)).toBe(0);
  });
  it('+2 at a reaction distance of 16" or more (A-66): the cavalry turned before charging adds 10"', () => {
    const a = play(atDefence(flank()), 'defence face');
    const b = play(atDefence(flank(), true), 'defence face');
    expect(b.closes[0]!.changedFirst).toBe(true);
    expect(pOf(b, /^defence changed$/) - pOf(a, /^defence changed$/)).toBeCloseTo(2 / 20, 12);
    // facing the charge: the charger laid front to front, the charge frontal
    const faced = play(a, 'defence changed');
    expect(faced.closes[0]).toMatchObject({ arc: 'front', faced: true });
    expect(unitOf(faced, 'BC').facing).toBeCloseTo((unitOf(faced, 'Q2').facing + 180) % 360, 1);
  });
  it('within 10" only fire is left [p.14]', () => {
    const s = atDefence(flank({ x: 13.5 }));
    expect(s.closes[0]!.distance).toBeLessThanOrEqual(10);
    expect(game.legalActions(s).filter((a) => a !== 'defence fire')).toEqual(['no defence action']);
  });
});

describe("Napoleon's Eagles: several chargers on one unit [p.13] (A-65, A-63)", () => {
  // B1 and B2 in column, side by side 3" in front of Q2's line
  const s0 = (options: Json = {}) =>
    variant(
      { B1: { x: 22.5, y: 7.5, formation: 'column' }, B2: { x: 27.5, y: 7.5, formation: 'column' } },
      undefined,
      options,
      { Pack: { x: 25, y: 12 } },
    );
  const toMelee = (s: SeqState) => {
    let t = play(s, 'bid 0', 'bid 1', 'be A', 'activate B1', 'charge Q2', 'activate B2', 'charge Q2');
    expect(t.closes.map((c) => [c.charger, c.defender])).toEqual([
      ['B1', 'Q2'],
      ['B2', 'Q2'],
    ]);
    t = until(t, (x) => top(x)?.t === 'closeCheck');
    expect(top(t)).toMatchObject({ group: [0, 1] }); // one step 2 check for both
    t = play(t, 'defender stands');
    if (top(t)?.t === 'defence') t = play(t, 'no defence action');
    expect(top(t)).toMatchObject({ t: 'multiClose', k: 0 });
    t = play(t, 'charger closes');
    return play(t, 'charger closes');
  };
  it('one defender die for all (A-65), or one per charger; the two columns combine against the line (A-63)', () => {
    const one = toMelee(s0());
    expect(top(one)).toMatchObject({ t: 'multiMelee', closes: [0, 1] });
    const pairs = internals.meleePairs(one, [0, 1]);
    // [p.14] A-63: the two columns on Q2's front combine: alone B2 would leave Q2 twice its value (+5), together not
    const v = (id: string) => enfiladeOf(internals.tableUnit(one, unitOf(one, id)));
    expect(v('Q2')).toBeGreaterThanOrEqual(2 * v('B2'));
    expect(v('Q2')).toBeLessThan(2 * (v('B1') + v('B2')));
    expect(pairs.map((p) => p.defender.mv)).toEqual([40, 40]);
    const dist = severalChargersMelee(pairs, 'one');
    const outs = game.chanceOutcomes(one);
    expect(outs).toHaveLength(dist.length);
    expect(outs.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
    const per = toMelee(s0({ defenderMeleeDice: 'perCharger' }));
    expect(game.chanceOutcomes(per)).toHaveLength(severalChargersMelee(pairs, 'perCharger').length);
    // both chargers beaten with one defender roll: the defender's 6 beats both more often than two separate dice
    const both = (t: SeqState) => pOf(t, /B1 defenderWins, B2 defenderWins/);
    expect(both(one)).toBeGreaterThan(both(per));
    // a result: casualty dice per pairing, then the losers' checks
    const won = play(one, outs.find((o) => /B1 chargerWins, B2 defenderWins/.test(o.action))!.action);
    expect(top(won)).toMatchObject({ t: 'multiCasualty', close: 0 });
    const after = until(won, (t) => top(t)?.t === 'closeLoser');
    expect(top(after)).toMatchObject({ who: 'defender' });
    expect(after.stack.some((f) => f.t === 'closeLoser' && f.who === 'charger' && f.close === 1)).toBe(true);
  });
});

describe("Napoleon's Eagles: skirmish screens [p.18-19]", () => {
  // B2 (light infantry) as a screen 5" in front of B1's line, both facing Q2's line
  const s0 = (fc?: Json, b1: Json = {}) =>
    variant(
      {
        B2: { x: 20, y: 8, formation: 'skirmish' },
        B1: b1,
        Q1: { x: 3, y: 3 },
        QA: { x: 3, y: 16 },
      },
      fc,
      {},
      { Pack: { x: 18, y: 14 } },
    );
  it('moves 8" forward or back and sidesteps [p.19]; formed infantry may not charge it [p.19]', () => {
    const s = play(s0(), 'bid 0', 'bid 1', 'be A', 'activate B2');
    const acts = game.legalActions(s);
    expect(acts).toContain('move back 1 8.00"');
    expect(acts.some((a) => a.startsWith('move left'))).toBe(true);
    expect(acts.some((a) => /oblique/.test(a))).toBe(false);
    const q = play(s0(), 'bid 1', 'bid 0', 'be A', 'activate Q2');
    expect(game.legalActions(q)).not.toContain('charge B2');
  });
  it('an enemy screen between an infantry firer and its target takes a quarter of the fire [p.19]', () => {
    const s = play(s0(undefined, { x: 25, y: 12 }), 'bid 1', 'bid 0', 'be A', 'activate Q2');
    const fire = game.legalActions(s).find((a) => a.startsWith('fire B1 '));
    expect(fire).toBeDefined();
    const t = play(s, fire!);
    const f = top(t)!;
    expect(f.t === 'fire' && f.shot.type === 'smallArms' && f.shot.screen?.unit.id).toBe('B2');
    const events: GameEvent[] = [];
    game.apply(t, game.chanceOutcomes(t)[0]!.action, events);
    expect(events.some((e) => e.rule === 'p.19' && e.text.includes('a quarter of the fire'))).toBe(true);
  });
  it('formed cavalry charges it (A-61): no step 2 check, the figures in its frontage removed, the rest checks', () => {
    let s = play(s0({ x: 12, y: 6, facing: 0 }), 'bid 1', 'bid 0', 'be A', 'activate FC');
    expect(game.legalActions(s)).toContain('charge B2');
    s = play(s, 'charge B2');
    expect(s.closes[0]).toMatchObject({ charger: 'FC', defender: 'B2', rideDown: false, screen: true });
    s = until(s, (t) => top(t)?.t === 'screenCharge' || top(t)?.t === 'closeCheck');
    expect(top(s)?.t).toBe('screenCharge');
    const input = internals.screenInput(s, 0);
    // FC's 12 heavy horse in line are 12" wide? the screen's 2" figures in that frontage
    expect(input.figuresInFrontage).toBeGreaterThan(0);
    expect(input.figuresInFrontage).toBeLessThanOrEqual(unitOf(s, 'B2').figures);
    const dist = cavalryVsScreen(input);
    const outs = game.chanceOutcomes(s);
    expect(outs).toHaveLength(dist.length);
    const halts = chargerCheck(input.cavalry, { cavalry: true }).dist.find((d) => d.value === 'fails')!.p;
    expect(pOf(s, /^screen halts/)).toBeCloseTo(halts, 12);
    const closes = outs.find((o) => o.action.startsWith('screen closes'))!;
    const events: GameEvent[] = [];
    const t = game.apply(s, closes.action, events);
    expect(unitOf(t, 'B2').figures).toBe(unitOf(s, 'B2').figures - input.figuresInFrontage);
    expect(unitOf(t, 'FC').fatigue).toBe(unitOf(s, 'FC').fatigue + 1);
    expect(events.some((e) => e.rule === 'p.19' && e.text.includes('(A-61)'))).toBe(true);
  });
});

describe("Napoleon's Eagles: whole random games with the charge rules under the conformance checker", () => {
  for (const id of ['quick-test', 'the-mill-at-kleinau'])
    it(`${id}: random games`, () => {
      checkedGames(() => scenarioOf(id), `charges/${id}`, 2);
    });
});
