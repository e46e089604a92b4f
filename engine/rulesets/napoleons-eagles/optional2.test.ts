/**
 * Napoleon's Eagles: the optional rules built after the four the shipped Kleinau turns on, played through the game
 * with the book's numbers: the second bounce [p.24], the supported line [p.24], table flanks [p.5], caissons [p.11],
 * weather [p.20], smoke [p.20], and written orders with their misreads [p.17-18]. Each is also shown off: the same
 * position without the rule plays differently.
 */
import { describe, expect, it } from 'vitest';
import {
  checkedGames,
  type Json,
  kleinau,
  play,
  quietly,
  rawScenario,
  scenarioOf,
  setUnits,
  top,
  withEvents,
} from '../../../test/ne-fixtures.ts';
import type { GameEvent } from '../../core/game.ts';
import { resolveFire } from './fire.ts';
import { napoleonsEagles as game } from './index.ts';
import { layout } from './shape.ts';
import { internals, type SeqState, unitOf } from './turn.ts';

describe("Napoleon's Eagles: the second bounce [p.24] (optional)", () => {
  // F4 (6lb, B16B25) at (25, 6) facing north; A1 put 12" ahead (medium band: a bounce of 8"), A2 14" beyond it:
  // the first bounce runs 8" past the point of aim, the second (A-52) from 12" to 16" past it
  const shotAt = (on: boolean) => {
    const s0 = kleinau((j) => (j.options.secondBounce = on));
    const s = setUnits(s0, {
      A1: { x: 2500, y: 1800, facing: 180 },
      A2: { x: 2500, y: 1800 + 1300, facing: 180 },
    });
    return play(s, 'bid 1', 'bid 0', 'be A', 'activate F4');
  };

  it('a unit 12"-16" past the point of aim is at risk, rolling as on the first bounce; not without the rule', () => {
    const s = shotAt(true);
    const { t, events } = withEvents(s, 'shot A1 1');
    const f = top(t)!;
    if (f.t !== 'fire' || f.shot.type !== 'solidShot') throw new Error('a solid-shot frame');
    expect(f.shot.atRisk.map((x) => x.id)).toEqual(['A1', 'A2']);
    expect(f.secondBounce).toEqual(['A2']);
    // both roll one D6 with the same hit faces (B at medium band)
    const r = resolveFire(f.shot, t.sc.options);
    const hit = (id: string) => r.rolls.find((x) => x.roll === `hit:${id}`)!;
    expect(hit('A2').hitFaces).toEqual(hit('A1').hitFaces);
    expect(hit('A2').dice).toBe(1);
    // the chance A2 is hit is exactly its hit faces over 6
    const hitA2 = r.outcomes
      .filter((o) => o.value.targets.some((e) => e.id === 'A2' && (e.hits ?? 0) > 0))
      .reduce((a, o) => a + o.p, 0);
    expect(hitA2).toBeCloseTo(hit('A2').hitFaces!.length / 6, 12);
    expect(hit('A2').hitFaces!.length).toBeGreaterThan(0);
    const after = game.apply(t, game.chanceOutcomes(t)[0]!.action, events);
    expect(events.some((e) => e.rule === 'p.24' && /second bounce.*A-52.*A2 at risk/.test(e.text))).toBe(true);
    expect(after).toBeDefined();
    // without the rule the ball stops 8" past the point of aim: A2 is not at risk
    const off = top(play(shotAt(false), 'shot A1 1'))!;
    if (off.t !== 'fire' || off.shot.type !== 'solidShot') throw new Error('a solid-shot frame');
    expect(off.shot.atRisk.map((x) => x.id)).toEqual(['A1']);
    expect(off.secondBounce).toBeUndefined();
  });

  it('nothing between the two bounces: a unit 9"-11" past the point of aim is missed either way', () => {
    const s0 = kleinau((j) => (j.options.secondBounce = true));
    const s = setUnits(s0, {
      A1: { x: 2500, y: 1800, facing: 180 },
      A2: { x: 2500, y: 1800 + 950, facing: 180 }, // A2's body from 9.5" to 11" past the aim point (column 1.5" deep)
    });
    const f = top(play(s, 'bid 1', 'bid 0', 'be A', 'activate F4', 'shot A1 1'))!;
    if (f.t !== 'fire' || f.shot.type !== 'solidShot') throw new Error('a solid-shot frame');
    expect(f.shot.atRisk.map((x) => x.id)).toEqual(['A1']);
  });
});

describe("Napoleon's Eagles: the supported line [p.24] (optional)", () => {
  // F3 (18 figures, line) at (10, 6) facing north; A3 (24 figures, line) put 3" ahead, facing it
  const facing = (s: SeqState) => setUnits(s, { A3: { x: 1000, y: 900, facing: 180 } });
  const firers = (s: SeqState) => {
    const f = top(play(s, 'fire A3 1'))!;
    if (f.t !== 'fire' || f.shot.type !== 'smallArms') throw new Error('a small-arms frame');
    return f.shot.figures;
  };

  it('a line forms a supported line for one action: two rows, only the front one fires (half the firepower)', () => {
    const s = play(facing(kleinau((j) => (j.options.supportedLine = true))), 'bid 1', 'bid 0', 'be A', 'activate F3');
    expect(firers(s)).toBe(18);
    const { t, events } = withEvents(s, 'form supported line');
    expect(events.some((e) => e.rule === 'p.24' && /F3 forms a supported line/.test(e.text))).toBe(true);
    expect(unitOf(t, 'F3')).toMatchObject({ formation: 'line', supported: true, halves: 2 });
    // "still considered a line formation, but with half the firepower as only the front row can fire"
    expect(firers(t)).toBe(9);
    // and back to a full line with the other action
    expect(game.legalActions(t)).toContain('form line');
    expect(game.legalActions(t)).not.toContain('form supported line');
    expect(unitOf(play(t, 'form line'), 'F3')).toMatchObject({ formation: 'line', supported: false, halves: 4 });
  });

  it('half as wide and twice as deep (A-4); a scenario may deploy one; none without the rule', () => {
    const on = kleinau((j) => {
      j.options.supportedLine = true;
      j.sides[0].units[2].supported = true;
    });
    expect(unitOf(on, 'F3').supported).toBe(true);
    // 18 three-rank figures: 9 × 3/8" wide, two rows of 1/2"; a line is 18 × 3/8" by 1/2"
    expect(layout(internals.tableUnit(on, unitOf(on, 'F3')))).toEqual({ w: 338, d: 100, front: 9 });
    const line = kleinau();
    expect(layout(internals.tableUnit(line, unitOf(line, 'F3')))).toEqual({ w: 675, d: 50, front: 18 });
    const s = play(facing(on), 'bid 1', 'bid 0', 'be A', 'activate F3');
    expect(firers(s)).toBe(9);
    // a change to column leaves the supported line behind
    const col = play(s, 'form column');
    expect(unitOf(col, 'F3')).toMatchObject({ formation: 'column', supported: false });
    // without the rule: no such formation change, and a scenario may not give one
    const off = play(facing(kleinau()), 'bid 1', 'bid 0', 'be A', 'activate F3');
    expect(game.legalActions(off).some((a) => /supported/.test(a))).toBe(false);
    const j = rawScenario('the-mill-at-kleinau');
    j.sides[0].units[2].supported = true;
    expect(game.validateScenario(j).ok).toBe(false);
  });
});

describe("Napoleon's Eagles: table flanks [p.5] (optional)", () => {
  // Kleinau split into halves at x = 24: west F1, F3 and A1, A3; east F2, F4, F5 and A2, A4, A5
  const flanks = () => kleinau((j) => (j.options.tableFlanks = true));

  it('each flank has its own turn points and its own bids: the east flank bids from 20 after the west spent', () => {
    const s = flanks();
    expect(game.describeDecision!(s)).toMatch(/west flank/);
    const { t, events } = withEvents(s, 'bid 5', 'bid 3');
    expect(events.some((e) => e.rule === 'p.4 step 2' && /revealed on the west flank: 5 and 3/.test(e.text))).toBe(
      true,
    );
    const east = play(t, 'be A');
    expect(top(east)?.t).toBe('bid');
    expect(game.describeDecision!(east)).toMatch(/east flank/);
    // the west flank's 5 and 3 came off the west flank's points, not the east's
    expect(east.points).toEqual([20, 18]);
    expect(east.flanks![0]!.points).toEqual([15, 15]);
    expect(game.legalActions(east)).toContain('bid 20');
    // without the rule: one bid for the whole table, from one pool
    const off = play(kleinau(), 'bid 5', 'bid 3', 'be A');
    expect(top(off)).toMatchObject({ t: 'pick', p: 0 });
    expect(off.points).toEqual([15, 15]);
  });

  it('the flank with the highest bid takes its steps first; each flank activates only its own units', () => {
    const { t, events } = withEvents(flanks(), 'bid 1', 'bid 0', 'be A', 'bid 0', 'bid 2', 'be A');
    expect(events.some((e) => e.rule === 'p.5' && /highest bid first: east flank, then west flank/.test(e.text))).toBe(
      true,
    );
    // east: the Austrians won (2 to 0) and are side A there: A2, A4 or A5
    expect(top(t)).toMatchObject({ t: 'pick', p: 1 });
    expect(
      game
        .legalActions(t)
        .filter((a) => a.startsWith('activate'))
        .sort(),
    ).toEqual(['activate A2', 'activate A4', 'activate A5']);
    // two Austrian units (A/D 2:1), then the west flank's step: the French are side A there (F1, F3)
    const w = play(t, 'activate A2', 'end', 'activate A4', 'end');
    expect(top(w)).toMatchObject({ t: 'pick', p: 0 });
    expect(
      game
        .legalActions(w)
        .filter((a) => a.startsWith('activate'))
        .sort(),
    ).toEqual(['activate F1', 'activate F3']);
    // the flanks then alternate: two French west, then the east flank's side D (French F2, F4, F5) one unit
    const e2 = play(w, 'activate F1', 'end', 'activate F3', 'end');
    expect(top(e2)).toMatchObject({ t: 'pick', p: 0, left: 1 });
    expect(
      game
        .legalActions(e2)
        .filter((a) => a.startsWith('activate'))
        .sort(),
    ).toEqual(['activate F2', 'activate F4', 'activate F5']);
  });
});

describe("Napoleon's Eagles: weather [p.20] (optional)", () => {
  const weather = (w: string, on = true) =>
    kleinau((j) => {
      j.options.weather = on;
      j.weather = w;
    });
  // F3 (line) fires at A3 put 3" ahead: the modifiers of its roll
  const fireMods = (s0: SeqState) => {
    const s = play(setUnits(s0, { A3: { x: 1000, y: 900, facing: 180 } }), 'bid 1', 'bid 0', 'be A', 'activate F3');
    const { t, events } = withEvents(s, 'fire A3 1');
    const f = top(t)!;
    if (f.t !== 'fire') throw new Error('a fire frame');
    game.apply(t, game.chanceOutcomes(t)[0]!.action, events);
    return { mods: resolveFire(f.shot, t.sc.options).rolls[0]!.modifiers.map((m) => `${m.id} ${m.value}`), events };
  };

  it('muskets fire −2 in light rain, −3 in heavy rain, −1 in light snow, −2 in heavy snow; not in clear weather', () => {
    expect(fireMods(weather('lightRain')).mods).toContain('lightRain -2');
    expect(fireMods(weather('heavyRain')).mods).toContain('heavyRain -3');
    expect(fireMods(weather('lightSnow')).mods).toContain('lightSnow -1');
    expect(fireMods(weather('heavySnow')).mods).toContain('heavySnow -2');
    const { events } = fireMods(weather('lightRain'));
    expect(events.some((e) => e.rule === 'p.20' && /lightRain.*F3's small arms -2/.test(e.text))).toBe(true);
    expect(fireMods(weather('clear')).mods.some((m) => /Rain|Snow/.test(m))).toBe(false);
    expect(fireMods(weather('hot')).mods.some((m) => /Rain|Snow|hot/.test(m))).toBe(false);
    // without the rule a scenario may not have weather
    const j = rawScenario('the-mill-at-kleinau');
    j.weather = 'lightRain';
    expect(game.validateScenario(j).ok).toBe(false);
  });

  it('artillery fire is normal: canister in heavy rain has no weather modifier (A-42)', () => {
    // F4 (6lb) fires canister at A2 put 4" ahead
    const s = play(
      setUnits(weather('heavyRain'), { A2: { x: 2500, y: 1000, facing: 180 } }),
      'bid 1',
      'bid 0',
      'be A',
      'activate F4',
      'canister A2 1',
    );
    const f = top(s)!;
    if (f.t !== 'fire' || f.shot.type !== 'canister') throw new Error('a canister frame');
    expect(f.shot.weather).toBe('heavyRain');
    expect(resolveFire(f.shot, s.sc.options).rolls[0]!.modifiers.some((m) => /Rain/.test(m.id))).toBe(false);
  });

  it('hot temperatures: a unit using both actions is a fatigue level more tired; a force march costs 3', () => {
    const end = (s0: SeqState) =>
      quietly(
        play(s0, 'bid 1', 'bid 0', 'be A', 'activate F3', 'move back 1 2.00"', 'move back 1 2.00"'),
        (t) => t.period === 2,
      );
    const hot = end(weather('hot'));
    expect(unitOf(hot, 'F3').fatigue).toBe(1);
    expect(unitOf(hot, 'F1').fatigue).toBe(0); // it did nothing
    expect(unitOf(end(weather('clear')), 'F3').fatigue).toBe(0);
    // [p.5] the force march's fatigue comes right after its extra action is moved, not at the declaration
    const fm = (s0: SeqState) => {
      let t = play(s0, 'bid 1', 'bid 0', 'be A', 'activate F1', 'force march');
      expect(unitOf(t, 'F1').fatigue).toBe(0);
      for (let i = 0; i < 3; i++)
        t = play(t, game.legalActions(t).find((a) => /^move (forward|back|left|right) 1 /.test(a))!);
      return unitOf(t, 'F1');
    };
    expect(fm(weather('hot')).fatigue).toBe(3);
    expect(fm(weather('clear')).fatigue).toBe(2);
  });

  it('mud after 9 periods of heavy rain (18 of light, A-76): moves over open ground are halved', () => {
    const longest = (s: SeqState) =>
      Math.max(
        ...game
          .legalActions(play(s, 'bid 1', 'bid 0', 'be A', 'activate F1'))
          .filter((a) => a.startsWith('move forward 1 '))
          .map((a) => Number.parseFloat(a.split(' ')[3]!)),
      );
    const rain = weather('heavyRain');
    // after 8 periods of heavy rain, not yet; after 9, mud
    const p9 = quietly(rain, (t) => t.turn === 2 && t.period === 3);
    expect(p9.rain).toBe(16);
    expect(longest(p9)).toBe(longest(rain));
    const { t: p10, events } = (() => {
      const ev: GameEvent[] = [];
      let t = p9;
      while (!(t.turn === 2 && t.period === 4)) {
        const outs = game.chanceOutcomes(t);
        const acts = game.legalActions(t);
        t = game.apply(
          t,
          outs.length
            ? outs[0]!.action
            : (acts.find(
                (a) =>
                  a === 'finish' ||
                  a === 'end' ||
                  a === 'stay' ||
                  a === 'hold' ||
                  a === 'bid 0' ||
                  a === 'stand in place',
              ) ??
                acts.find((a) => a.startsWith('activate')) ??
                acts[0]!),
          ev,
        );
      }
      return { t, events: ev };
    })();
    expect(p10.rain).toBe(18);
    expect(events.some((e) => e.rule === 'p.20' && /the ground is mud/.test(e.text))).toBe(true);
    expect(longest(p10)).toBeCloseTo(longest(rain) / 2, 1);
    // light rain: 18 periods
    expect(quietly(weather('lightRain'), (t) => t.turn === 2 && t.period === 4).rain).toBe(9);
  });
});

describe("Napoleon's Eagles: smoke [p.20] (optional)", () => {
  // F3 (line) and A3 (line) 3" apart, face to face
  const faced = (edit?: (j: Json) => void) =>
    setUnits(
      kleinau((j) => {
        j.options.smoke = true;
        edit?.(j);
      }),
      { A3: { x: 1000, y: 900, facing: 180 } },
    );
  /** Calm dice: morale checks pass, fire takes its first outcome. */
  const calm = (s: SeqState) => game.chanceOutcomes(s).find((o) => /pass|stands|safe/.test(o.action))?.action;
  const fireTwice = (s0: SeqState) => {
    const s = play(s0, 'bid 1', 'bid 0', 'be A', 'activate F3', 'fire A3 2');
    return withEvents(s, game.chanceOutcomes(s)[0]!.action);
  };

  it('a unit firing two actions places smoke 2" deep across its front, until the end of the next period (A-78)', () => {
    const { t, events } = fireTwice(faced());
    expect(events.some((e) => e.rule === 'p.20' && /F3 has fired two actions: smoke/.test(e.text))).toBe(true);
    expect(t.smoke).toHaveLength(1);
    expect(t.smoke![0]).toMatchObject({ by: 'F3', until: 2 });
    // F3's 18 three-rank figures: 6.75" wide (x 6.625–13.375), y 6 to 8
    const xs = t.smoke![0]!.poly.map((p) => p.x);
    const ys = t.smoke![0]!.poly.map((p) => p.y);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]).toEqual([662.5, 1337.5, 600, 800]);
    // one action makes none; nor does the rule off
    const one = play(faced(), 'bid 1', 'bid 0', 'be A', 'activate F3', 'fire A3 1');
    expect(game.apply(one, game.chanceOutcomes(one)[0]!.action).smoke ?? []).toHaveLength(0);
    const off = play(
      setUnits(kleinau(), { A3: { x: 1000, y: 900, facing: 180 } }),
      'bid 1',
      'bid 0',
      'be A',
      'activate F3',
      'fire A3 2',
    );
    expect(game.apply(off, game.chanceOutcomes(off)[0]!.action).smoke).toBeUndefined();
  });

  it('fire through it is at −2 (A3 firing back through the smoke of F3, A-78); it clears after the next period', () => {
    const p2 = quietly(fireTwice(faced()).t, (t) => t.period === 2 && top(t)?.t === 'bid', calm);
    expect(p2.smoke).toHaveLength(1);
    const s = play(p2, 'bid 0', 'bid 1', 'be A', 'activate A3');
    const { t, events } = withEvents(s, 'fire F3 1');
    const f = top(t)!;
    if (f.t !== 'fire') throw new Error('a fire frame');
    expect('throughSmoke' in f.shot && f.shot.throughSmoke).toBe(true);
    expect(resolveFire(f.shot, t.sc.options).rolls[0]!.modifiers.map((m) => `${m.id} ${m.value}`)).toContain(
      'smoke -2',
    );
    game.apply(t, game.chanceOutcomes(t)[0]!.action, events);
    expect(events.some((e) => e.rule === 'p.20' && /A3 fires through smoke: −2/.test(e.text))).toBe(true);
    // the smoke clears at the end of period 2
    const ev: GameEvent[] = [];
    let p3 = p2;
    while (p3.period !== 3) {
      const a = calm(p3) ?? game.chanceOutcomes(p3)[0]?.action;
      const acts = game.legalActions(p3);
      p3 = game.apply(
        p3,
        a ?? acts.find((x) => ['finish', 'end', 'stay', 'hold', 'bid 0', 'stand in place'].includes(x)) ?? acts[0]!,
        ev,
      );
    }
    expect(p3.smoke).toEqual([]);
    expect(ev.some((e) => e.rule === 'p.20' && /the smoke of F3 clears/.test(e.text))).toBe(true);
  });

  it("A-16: with smokeBlocksLos the smoke blocks the enemy's line of sight; by default it does not", () => {
    const fire = (edit?: (j: Json) => void) => {
      const p2 = quietly(fireTwice(faced(edit)).t, (t) => t.period === 2 && top(t)?.t === 'bid', calm);
      return game.legalActions(play(p2, 'bid 0', 'bid 1', 'be A', 'activate A3'));
    };
    expect(fire()).toContain('fire F3 1');
    expect(fire((j) => (j.options.smokeBlocksLos = true))).not.toContain('fire F3 1');
  });
});

describe("Napoleon's Eagles: every optional rule built, on at once", () => {
  /** Kleinau with every optional rule built so far turned on. */
  const allOn = (j: Json) => {
    Object.assign(j.options, {
      secondBounce: true,
      supportedLine: true,
      tableFlanks: true,
      weather: true,
      smoke: true,
    });
    j.weather = 'heavyRain';
    j.sides[0].units[2].supported = true;
  };

  it('random games keep the Game contract at every step, to the end (the conformance checker)', () => {
    checkedGames(() => scenarioOf('the-mill-at-kleinau', allOn), 'all-optional', 3);
  });
});
