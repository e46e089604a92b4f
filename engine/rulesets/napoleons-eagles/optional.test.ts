/**
 * Napoleon's Eagles: the four optional rules the shipped Kleinau turns on, played through the game: carbines [p.15],
 * company skirmishers [p.18], leader initiative [p.17] and out-of-control cavalry [p.15], with the book's numbers.
 * Each is also shown off: the same position without the rule plays differently.
 */
import { describe, expect, it } from 'vitest';
import { type Json, kleinau, play, quietly, setUnits, top } from '../../../test/ne-fixtures.ts';
import type { GameEvent } from '../../core/game.ts';
import { resolveFire } from './fire.ts';
import { type SeqState, type SeqUnit, unitOf } from './turn.ts';
import { napoleonsEagles as game } from './index.ts';

/** Plays on with quiet choices (test/ne-fixtures.ts `quietly`, at most 2000 plies) until `stop` holds. */
const until = (s0: SeqState, stop: (s: SeqState) => boolean, dice?: (s: SeqState) => string | undefined) =>
  quietly(s0, stop, dice, 2000);
const probOf = (s: SeqState, action: string) => game.chanceOutcomes(s).find((o) => o.action === action)?.p ?? 0;

describe("Napoleon's Eagles: carbines [p.15] (optional)", () => {
  // Kleinau: F5, the 7e Hussards (carbines), at (38, 6) facing 0; A5, the Chevaulegers (no carbines), put 3" ahead
  const at3 = (s: SeqState, inches = 3) => {
    const f5 = unitOf(s, 'F5');
    return setUnits(s, { A5: { x: f5.x, y: f5.y + inches * 100, facing: 180 } });
  };

  it('cavalry with carbines fires one or two actions at the carbine bands (2"/3"/4"), then may still charge', () => {
    const s = play(at3(kleinau()), 'bid 1', 'bid 0', 'be A', 'activate F5');
    const legal = game.legalActions(s);
    expect(legal).toContain('fire A5 1');
    expect(legal).toContain('fire A5 2');
    const t = play(s, 'fire A5 1');
    const f = top(t)!;
    if (f.t !== 'fire' || f.shot.type !== 'smallArms') throw new Error('a small-arms fire frame');
    expect(f.shot.weapon).toBe('carbine');
    // 3" is the carbine's medium band [p.9]: the −1 medium-range modifier, and the rating C adds nothing
    const r = resolveFire(f.shot, t.sc.options);
    expect(r.rolls[0]!.modifiers.map((m) => m.id)).toContain('mediumRange');
    expect(game.chanceOutcomes(t).reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
    const events: GameEvent[] = [];
    const after = game.apply(t, game.chanceOutcomes(t)[0]!.action, events);
    expect(events.some((e) => e.rule === 'p.15' && e.text.startsWith('F5 fires at A5'))).toBe(true);
    // "fire their carbines on the first action then charge into melee for the second action"
    expect(top(after)).toEqual({ t: 'act', unit: 'F5' });
    expect(game.legalActions(after)).toContain('charge A5');
  });

  it('no carbine fire beyond 4" (no extreme band), without the rule (A-37), or by cavalry without carbines', () => {
    const far = play(at3(kleinau(), 5), 'bid 1', 'bid 0', 'be A', 'activate F5');
    expect(game.legalActions(far).some((a) => a.startsWith('fire '))).toBe(false);
    const off = play(at3(kleinau((j) => (j.options.carbines = false))), 'bid 1', 'bid 0', 'be A', 'activate F5');
    expect(game.legalActions(off).some((a) => a.startsWith('fire '))).toBe(false);
    // A5 has no carbines: facing F5 3" away, it may charge but not fire
    const a5 = play(at3(kleinau()), 'bid 0', 'bid 1', 'be A', 'activate A5');
    expect(game.legalActions(a5)).toContain('charge F5');
    expect(game.legalActions(a5).some((a) => a.startsWith('fire '))).toBe(false);
  });

  it('a charged cavalry unit with carbines may fire them as its defence action [p.13 step 4]', () => {
    const reach = (s: SeqState) =>
      until(play(s, 'bid 0', 'bid 1', 'be A', 'activate A5', 'charge F5'), (t) => top(t)?.t === 'closeCheck');
    const s = play(reach(at3(kleinau())), 'defender stands');
    expect(top(s)).toEqual({ t: 'defence', close: 0 });
    const t = play(s, 'defence fire');
    const f = top(t)!;
    expect(f.t === 'fire' && f.shot.type === 'smallArms' && f.shot.weapon === 'carbine' && f.shot.defence).toBe(
      'cavalry',
    );
    // without the rule the hussars have no defence fire: the melee follows at once
    const off = play(reach(at3(kleinau((j) => (j.options.carbines = false)))), 'defender stands');
    expect(top(off)?.t).toBe('closeFight');
  });
});

describe("Napoleon's Eagles: company skirmishers [p.18] (optional)", () => {
  // F1 (1/24e Ligne, organic skirmishers) in column at (19, 6) facing 0: its front edge runs y = 6, x 17.5–20.5.
  // A1 (IR 4, infantry column) is put facing it, `d` inches in front, and activated to fire at it.
  const fireAtF1 = (s0: SeqState, a1: Partial<SeqUnit>, f1: Partial<SeqUnit> = {}) => {
    const s = play(setUnits(s0, { A1: a1, F1: f1 }), 'bid 0', 'bid 1', 'be A', 'activate A1');
    const key = game.legalActions(s).find((a) => /^fire F1 1$/.test(a));
    if (!key) throw new Error(`A1 cannot fire at F1: ${game.legalActions(s).join(', ')}`);
    const f = top(play(s, key))!;
    if (f.t !== 'fire' || f.shot.type !== 'smallArms') throw new Error('a small-arms fire frame');
    return resolveFire(f.shot, s.sc.options).rolls[0]!.modifiers.map((m) => `${m.id} ${m.value}`);
  };
  const ahead = (d: number): Partial<SeqUnit> => ({ x: 1900, y: 600 + d * 100, facing: 180 });

  it('enemies firing from within 4" of its front get −1', () => {
    expect(fireAtF1(kleinau(), ahead(3))).toContain('organicSkirmishers -1');
    expect(fireAtF1(kleinau(), ahead(4))).toContain('organicSkirmishers -1');
    expect(fireAtF1(kleinau(), ahead(5))).not.toContain('organicSkirmishers -1');
    // the rule off: the same shot has no −1
    expect(
      fireAtF1(
        kleinau((j) => (j.options.organicSkirmishers = false)),
        ahead(3),
      ),
    ).not.toContain('organicSkirmishers -1');
  });

  it('not when the unit is in square, disordered or in retreat status', () => {
    expect(fireAtF1(kleinau(), ahead(3), { formation: 'square' })).not.toContain('organicSkirmishers -1');
    expect(fireAtF1(kleinau(), ahead(3), { disordered: true })).not.toContain('organicSkirmishers -1');
    expect(fireAtF1(kleinau(), ahead(3), { retreating: true, recovery: 1 })).not.toContain('organicSkirmishers -1');
  });

  it('they do not cover its flanks: a firer 2" off its right flank, level with its front, gets no −1', () => {
    // A1 facing west (270) with its front edge 2" right of F1's right end, 1" behind F1's front line
    const mods = fireAtF1(kleinau(), { x: 2050 + 200 + 75, y: 500, facing: 270 });
    expect(mods).not.toContain('organicSkirmishers -1');
    expect(mods).not.toContain('skirmishers -3');
  });
});

describe("Napoleon's Eagles: leader initiative [p.17] (optional)", () => {
  // Marshal Aubert (army, radius 40") moved to (0, 36): GdD Bressac at (24, 2) is 41.6" from him, outside his
  // command distance; Bressac's initiative is 5 (the divisional basic value)
  const far = (j: Json) => {
    j.sides[0].leaders[0].x = 0;
    j.sides[0].leaders[0].y = 36;
  };

  it("a leader outside his superior's distance rolls D20 ≤ his initiative: exactly 5/20 at step 1", () => {
    const s = kleinau(far);
    expect(top(s)).toEqual({ t: 'initiative', leader: 'L-F1', initiative: 5 });
    expect(game.toMove(s).kind).toBe('chance');
    expect(game.chanceOutcomes(s).map((o) => [o.action, o.p])).toEqual([
      ['initiative pass', 5 / 20],
      ['initiative fail', 15 / 20],
    ]);
    // a better leader (initiative 8) passes 8 in 20
    const good = kleinau((j) => {
      far(j);
      j.sides[0].leaders[1].initiative = 8;
    });
    expect(probOf(good, 'initiative pass')).toBeCloseTo(8 / 20, 12);
  });

  it('passing keeps him and his units in command this period; failing puts them out of command [p.16]', () => {
    const s = kleinau(far);
    const events: GameEvent[] = [];
    const pass = game.apply(s, 'initiative pass', events);
    expect(
      events.some((e) => e.rule === 'p.17' && /L-F1 rolls for initiative \(D20 ≤ 5\): in command/.test(e.text)),
    ).toBe(true);
    expect(pass.initiativePassed).toEqual(['L-F1']);
    expect(unitOf(pass, 'F1').ooc).toBe(false); // F1 is within Bressac's 15"
    expect(top(pass)?.t).toBe('bid');
    const fail = game.apply(s, 'initiative fail');
    for (const id of ['F1', 'F2', 'F3', 'F4', 'F5']) expect(unitOf(fail, id).ooc).toBe(true);
    // the rule off: no roll, and his units are out of command
    const off = kleinau((j) => {
      far(j);
      j.options.leaderInitiative = false;
    });
    expect(top(off)?.t).toBe('bid');
    expect(unitOf(off, 'F1').ooc).toBe(true);
  });

  it('he must roll again every period he is out of distance; leaders within it never roll', () => {
    const pass = game.apply(kleinau(far), 'initiative pass');
    const next = until(pass, (t) => t.period === 2 && top(t)?.t === 'initiative');
    expect(top(next)).toEqual({ t: 'initiative', leader: 'L-F1', initiative: 5 });
    expect(next.initiativePassed).toEqual([]);
    // as shipped every leader is within his superior's distance: no roll
    expect(top(kleinau())?.t).toBe('bid');
  });
});

describe("Napoleon's Eagles: out-of-control cavalry [p.15] (optional)", () => {
  // F5 (hussars) charges A1 (IR 4, column) put 5" ahead of it; A1 is ridden down and retreats
  const rideDown = (s0: SeqState) => {
    const f5 = unitOf(s0, 'F5');
    const s = play(
      setUnits(s0, { A1: { x: f5.x, y: f5.y + 500, facing: 180 } }),
      'bid 1',
      'bid 0',
      'be A',
      'activate F5',
    );
    const at9 = until(play(s, 'charge A1'), (t) => top(t)?.t === 'rideDown');
    const won = game
      .chanceOutcomes(at9)
      .find((o) => /defenderRiddenDown at step 6.*the defender retreats/.test(o.action))!.action;
    return game.apply(at9, won);
  };
  const rolls = (s: SeqState) => top(s)?.t === 'oocRoll' || top(s)?.t === 'oocLeader';

  it('after a ride-down the cavalry rolls D20 +1 (ridden down): out of control on a modified 20, 2 in 20', () => {
    const s = until(rideDown(kleinau()), rolls);
    expect(top(s)).toMatchObject({ t: 'oocRoll', unit: 'F5', leader: 0 });
    expect(probOf(s, 'out of control')).toBeCloseTo(2 / 20, 12);
    expect(probOf(s, 'in control')).toBeCloseTo(18 / 20, 12);
    const events: GameEvent[] = [];
    const t = game.apply(s, 'out of control', events);
    expect(events.some((e) => e.rule === 'p.15' && /F5 rolls for control.*\+1 riddenDown/.test(e.text))).toBe(true);
    expect(unitOf(t, 'F5').outOfControl).toBe(true);
    // the flag lasts into the next period (the charge comes at its step 2b)
    const next = until(t, (x) => x.period === 2 && top(x)?.t === 'bid');
    expect(unitOf(next, 'F5').outOfControl).toBe(true);
    // the rule off: no roll after the same ride-down, to the next period
    let off = rideDown(kleinau((j) => (j.options.outOfControlCavalry = false)));
    let rolled = false;
    off = until(off, (x) => (rolled ||= rolls(x)) || (x.period === 2 && top(x)?.t === 'bid'));
    expect(rolled).toBe(false);
    expect(unitOf(off, 'A1').retreating).toBe(true); // the same ride-down
  });

  it("a leader with the cavalry: the controller's choice of −1 (1 in 20) or +1 (3 in 20)", () => {
    const s = until(
      rideDown(
        kleinau((j) => {
          j.sides[0].leaders[1].attached = 'F5';
          delete j.sides[0].leaders[1].x;
          delete j.sides[0].leaders[1].y;
        }),
      ),
      rolls,
    );
    expect(top(s)).toMatchObject({ t: 'oocLeader', unit: 'F5' });
    expect(game.toMove(s)).toEqual({ kind: 'player', player: 0 });
    expect(game.legalActions(s)).toEqual(['leader −1', 'leader +1']);
    expect(probOf(play(s, 'leader −1'), 'out of control')).toBeCloseTo(1 / 20, 12);
    expect(probOf(play(s, 'leader +1'), 'out of control')).toBeCloseTo(3 / 20, 12);
  });

  // F5 out of control; an enemy put 37° off its facing, about 7" away: out of an ordinary charge's 10°
  const runaway = (target: 'A1' | 'A5', edit?: (j: Json) => void) => {
    const k = kleinau(edit);
    const f5 = unitOf(k, 'F5');
    return setUnits(k, { F5: { outOfControl: true }, [target]: { x: f5.x + 600, y: f5.y + 700, facing: 180 } });
  };

  it('next period it moves before all other units and charges the closest enemy in sight within 16" (A-20)', () => {
    const s = runaway('A5');
    // not an ordinary charge: A5 is 37° off F5's front
    expect(
      game.legalActions(play(setUnits(s, { F5: { outOfControl: false } }), 'bid 1', 'bid 0', 'be A', 'activate F5')),
    ).not.toContain('charge A5');
    // the Austrians are side A, yet F5 charges first, at step 2b, before side A's first unit
    const events: GameEvent[] = [];
    let t = s;
    for (const a of ['bid 0', 'bid 1', 'be A']) t = game.apply(t, a, events);
    expect(events.some((e) => e.rule === 'p.15' && e.text.startsWith('out-of-control cavalry moves before all'))).toBe(
      true,
    );
    expect(events.some((e) => e.rule === 'p.15' && e.text.startsWith('F5 is out of control: it charges A5'))).toBe(
      true,
    );
    expect(t.closes).toHaveLength(1);
    expect(t.closes[0]).toMatchObject({ charger: 'F5', defender: 'A5', outOfControl: true });
    expect(unitOf(t, 'F5')).toMatchObject({ activated: true, locked: true, outOfControl: false });
    expect(unitOf(t, 'F5').x).toBeGreaterThan(unitOf(s, 'F5').x + 300); // off at an angle, after a free pivot
    expect(unitOf(t, 'A5')).toMatchObject({ locked: true, stand: true });
    // A5, charged in its front, may meet the charge with a counter-charge; held, side A's first step
    expect(top(t)).toMatchObject({ t: 'counter', cavalry: 'A5', mover: 'F5' });
    expect(top(game.apply(t, 'hold'))).toMatchObject({ t: 'pick', p: 1 });
  });

  it('+3 to close: its step 5 check fails 3 in 20 less often', () => {
    const at9 = until(play(runaway('A5'), 'bid 1', 'bid 0', 'be A'), (t) => top(t)?.t === 'closeCheck');
    const fight = play(at9, 'defender stands');
    expect(top(fight)?.t).toBe('closeFight');
    const halts = (s: SeqState) =>
      game
        .chanceOutcomes(s)
        .filter((o) => o.action.includes('the charger halts'))
        .reduce((a, o) => a + o.p, 0);
    const tame: SeqState = { ...fight, closes: fight.closes.map((c) => ({ ...c, outOfControl: false })) };
    // F5's morale 17: fails on 18-20 (3 in 20); out of control 17 + 3 = 20: never
    expect(halts(tame)).toBeCloseTo(3 / 20, 12);
    expect(halts(fight)).toBe(0);
  });

  it('a win by out-of-control cavalry adds +1 to its next roll: a ride-down then is 3 in 20', () => {
    const at9 = until(play(runaway('A1'), 'bid 1', 'bid 0', 'be A'), (t) => top(t)?.t === 'rideDown');
    expect(at9.closes[0]).toMatchObject({ charger: 'F5', defender: 'A1', outOfControl: true, rideDown: true });
    const won = game.chanceOutcomes(at9).find((o) => /defenderRiddenDown.*the defender retreats/.test(o.action))!;
    const s = until(game.apply(at9, won.action), (t) => top(t)?.t === 'oocRoll');
    expect(probOf(s, 'out of control')).toBeCloseTo(3 / 20, 12);
  });

  it('with no enemy in sight within 16" it is back in control, and activates as usual', () => {
    const s = setUnits(kleinau(), { F5: { outOfControl: true } }); // the nearest Austrian is over 20" away
    const events: GameEvent[] = [];
    let t = s;
    for (const a of ['bid 1', 'bid 0', 'be A']) t = game.apply(t, a, events);
    expect(
      events.some((e) => e.rule === 'p.15' && /F5: no enemy .* within 16": it is back in control/.test(e.text)),
    ).toBe(true);
    expect(unitOf(t, 'F5')).toMatchObject({ outOfControl: false, activated: false });
    expect(game.legalActions(t)).toContain('activate F5');
  });
});
