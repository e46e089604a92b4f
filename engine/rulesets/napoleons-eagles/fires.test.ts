/**
 * Napoleon's Eagles: the fire sources of p.20 that need scenario data: sappers (start fires on 11-20, put them out on
 * 16-20), howitzers with incendiary shells (7-20) and, A-75, rocket batteries (4-20, no other fire effect). The
 * scenario format's accepted and refused cases, then each played through the registered game on Kleinau with the
 * book's numbers, against the same position without the new data.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { type Json, kleinau, playInto, rawScenario, scenarioOf, setUnits, top } from '../../../test/ne-fixtures.ts';
import { playChecked } from '../../../arena/conformance.ts';
import type { GameEvent } from '../../core/game.ts';
import { extinguishCrewsDist, extinguishDist, fireStartDistOf } from './buildings.ts';
import { napoleonsEagles as game } from './index.ts';
import { validateScenario } from './scenario.ts';
import { type Frame, internals, runtime, type SeqState, unitOf } from './turn.ts';

/** The state with `frames` as its stack (the last on top), settled: a position at a chosen step. */
const at = (s: SeqState, ...frames: Frame[]): SeqState => runtime.settle({ ...s, stack: frames, sideA: 0 });
const probs = (s: SeqState) => Object.fromEntries(game.chanceOutcomes(s).map((o) => [o.action, o.p]));
const endOf = (s: SeqState) => runtime.settle({ ...s, stack: [{ t: 'endPeriod' }], sideA: 0 });
const unitJ = (j: Json, id: string): Json =>
  j.sides.flatMap((s: Json) => s.units).find((u: Json) => u.id === id) as Json;

/** Kleinau's problems after `edit`, as "path: message" lines. */
function problems(edit: (j: Json) => void): string[] {
  const j = rawScenario('the-mill-at-kleinau');
  edit(j);
  const v = validateScenario(j);
  return v.ok ? [] : v.problems.map((p) => `${p.path}: ${p.message}`);
}

/** Kleinau with the fires rule, the wind from the west, and `extra`. */
const fires =
  (extra?: (j: Json) => void) =>
  (j: Json): void => {
    j.options.fires = true;
    j.windFrom = 'W';
    extra?.(j);
  };

describe('the scenario format: sappers, incendiary shells, rockets [p.20] (A-75)', () => {
  it('accepts sappers, a howitzer battery with incendiary shells and a rocket battery under options.fires', () => {
    const j = rawScenario('the-mill-at-kleinau');
    fires((x) => {
      unitJ(x, 'F1').sappers = true;
      unitJ(x, 'F4').incendiary = true; // 5 cannons, 1 howitzer
      unitJ(x, 'A4').rockets = true; // 8 launchers, no howitzers
    })(j);
    const v = validateScenario(j);
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    const u = new Map(v.value.sides.flatMap((s) => s.units.map((x) => [x.id, x] as const)));
    expect(u.get('F1')).toMatchObject({ kind: 'infantry', sappers: true });
    expect(u.get('F4')).toMatchObject({ kind: 'artillery', incendiary: true, howitzers: 1 });
    expect(u.get('A4')).toMatchObject({ kind: 'artillery', rockets: true, cannons: 8 });
    // a unit without them is read as before (no new keys filled in)
    expect(u.get('F2')).not.toHaveProperty('sappers');
    expect(u.get('A1')).not.toHaveProperty('sappers');
  });

  it('refuses incendiary shells on a battery without howitzers, in one line naming the unit', () => {
    expect(problems(fires((j) => (unitJ(j, 'A4').incendiary = true)))).toEqual([
      '$.sides[1].units[3].incendiary: A4 has no howitzers: only howitzers can fire incendiary shells [p.20]',
    ]);
  });

  it('refuses each without options.fires, by name', () => {
    expect(problems((j) => (unitJ(j, 'F1').sappers = true))).toEqual([
      '$.sides[0].units[0].sappers: F1: sappers need the optional rule options.fires (they start and put out fires) [p.20]',
    ]);
    expect(problems((j) => (unitJ(j, 'F4').incendiary = true))).toEqual([
      '$.sides[0].units[3].incendiary: F4: incendiary shells need the optional rule options.fires [p.20]',
    ]);
    expect(problems((j) => (unitJ(j, 'A4').rockets = true))).toEqual([
      '$.sides[1].units[3].rockets: A4: rockets only start fires (A-75): a rocket battery needs the optional rule options.fires [p.20]',
    ]);
  });

  it('refuses a rocket battery with howitzers, sappers on cavalry or artillery, rockets on infantry', () => {
    expect(problems(fires((j) => (unitJ(j, 'F4').rockets = true)))).toEqual([
      "$.sides[0].units[3].rockets: F4: a rocket battery's launchers are its cannons; it has no howitzers (A-75)",
    ]);
    expect(problems(fires((j) => (unitJ(j, 'F5').sappers = true)))).toHaveLength(1);
    expect(problems(fires((j) => (unitJ(j, 'A4').sappers = true)))).toHaveLength(1);
    expect(problems(fires((j) => (unitJ(j, 'A1').rockets = true)))).toHaveLength(1);
    expect(problems(fires((j) => (unitJ(j, 'A1').sappers = 'yes')))).toHaveLength(1);
  });
});

describe('sappers [p.20]: start fires on 11-20, put them out on 16-20', () => {
  const sappers = (on: boolean, extra?: (j: Json) => void) =>
    fires((j) => {
      j.terrain.find((t: Json) => t.id === 'V1').fires = 1;
      if (on) unitJ(j, 'A1').sappers = true;
      extra?.(j);
    });

  it('eight sappers setting a fire in V2 roll four D20s, each 11-20 (other soldiers: 20)', () => {
    const c = (on: boolean) => {
      const s = setUnits(kleinau(sappers(on)), { A1: { inBlocks: { V2: 8 } } });
      return playInto(endOf(s), undefined, 'set fire V2 by A1', 'burn V1 1');
    };
    expect(top(c(true))).toEqual({ t: 'ignite', block: 'V2', source: 'sappers', rolls: 4 });
    expect(probs(c(true))['ignite V2 1']).toBeCloseTo(1 - (10 / 20) ** 4, 12);
    expect(probs(c(false))['ignite V2 1']).toBeCloseTo(1 - (19 / 20) ** 4, 12);
    const ev: GameEvent[] = [];
    game.apply(c(true), 'ignite V2 1', ev);
    expect(ev.some((e) => e.rule === 'p.20' && /4 D20 \(sappers, 11-20\).*a fire starts \(1\)/.test(e.text))).toBe(
      true,
    );
  });

  it('brick or stone: −1, so 12-20 on the die', () => {
    const s = setUnits(kleinau(sappers(true)), { A1: { inBlocks: { V1: 4 } } });
    // V1 (the mill) is brick and burning: the sappers in it start one more
    const c = playInto(endOf(s), undefined, 'set fire V1 by A1', 'burn V1 1');
    expect(top(c)).toEqual({ t: 'ignite', block: 'V1', source: 'sappers', rolls: 2 });
    expect(probs(c)['ignite V1 2']).toBeCloseTo(1 - (11 / 20) ** 2, 12);
  });

  it('sappers and other soldiers in one block: each on its column, one fire at most', () => {
    const s = setUnits(kleinau(sappers(true)), { A1: { inBlocks: { V2: 4 } }, A2: { inBlocks: { V2: 6 } } });
    const c = playInto(endOf(s), undefined, 'set fire V2 by A1', 'set fire V2 by A2', 'burn V1 1');
    expect(top(c)).toEqual({ t: 'ignite', block: 'V2', source: 'soldiers', rolls: 3, sapperRolls: 2 });
    expect(probs(c)).toEqual({
      'ignite V2 0': expect.closeTo((19 / 20) ** 3 * (10 / 20) ** 2, 12),
      'ignite V2 1': expect.closeTo(1 - (19 / 20) ** 3 * (10 / 20) ** 2, 12),
    });
    expect(fireStartDistOf(0, [{ source: 'soldiers', rolls: 1 }], false)).toEqual([
      { value: 0, p: 19 / 20 },
      { value: 1, p: 1 / 20 },
    ]);
  });

  it('eight sappers putting out a fire roll two D20s, each 16-20 (other soldiers: 20)', () => {
    const e = (on: boolean) => {
      const s = setUnits(kleinau(sappers(on)), { A1: { inBlocks: { V2: 8 } } });
      return playInto(endOf(s), undefined, 'extinguish V1 by A1 in V2');
    };
    expect(top(e(true))).toEqual({ t: 'extinguish', block: 'V1' });
    expect(probs(e(true))).toEqual({
      'extinguish V1 1': expect.closeTo((15 / 20) ** 2, 12),
      'extinguish V1 0': expect.closeTo(1 - (15 / 20) ** 2, 12),
    });
    expect(probs(e(false))['extinguish V1 0']).toBeCloseTo(39 / 400, 12);
    const ev: GameEvent[] = [];
    const out = game.apply(e(true), 'extinguish V1 0', ev);
    expect(out.blockFires?.V1).toBe(0);
    expect(ev.some((e) => e.rule === 'p.20' && /2 D20 of sappers, 16-20/.test(e.text))).toBe(true);
  });

  it('sappers and others on one fire: the pools counted apart, every success one fire less', () => {
    // four sappers (one D20, 16-20) and four others (one D20, 20) on two fires
    expect(extinguishCrewsDist(2, 4, 4)).toEqual([
      { value: 2, p: (15 * 19) / 400 },
      { value: 1, p: (5 * 19 + 15 * 1) / 400 },
      { value: 0, p: 5 / 400 },
    ]);
    // three sappers and three others: no D20 at all (one per four of each)
    expect(extinguishCrewsDist(2, 3, 3)).toEqual([{ value: 2, p: 1 }]);
    expect(extinguishDist(1, 4, true)).toEqual([
      { value: 1, p: 15 / 20 },
      { value: 0, p: 5 / 20 },
    ]);
  });

  it('the scripted player puts fires out (sappers first) and never sets its own block burning', () => {
    const s = setUnits(kleinau(sappers(true)), { A1: { inBlocks: { V2: 8 } } });
    const c = endOf(s);
    const acts = game.legalActions(c);
    expect(acts).toEqual(['crews done', 'extinguish V1 by A1 in V2', 'set fire V2 by A1']);
    const sc = game.policyScores!(c, acts);
    expect(sc[1]).toBeGreaterThan(sc[0]!);
    expect(sc[2]).toBeLessThan(sc[0]!);
    expect(game.describeAction!(c, acts[1]!)).toMatch(/sappers 16-20/);
  });
});

describe('incendiary shells [p.20]: only howitzers, 7-20 at a block', () => {
  const battery = (incendiary: boolean) =>
    setUnits(
      kleinau(
        fires((j) => {
          unitJ(j, 'F4').incendiary = incendiary;
        }),
      ),
      { A1: { inBlocks: { V2: 8 } } },
    );

  it("F4's one howitzer firing at A1 in V2 rolls the Incendiary column (7-20), the shell's (17-20) without", () => {
    const fired = (incendiary: boolean) => {
      const s = playInto(at(battery(incendiary), { t: 'act', unit: 'F4' }), undefined, 'shot A1 1');
      expect(top(s)?.t).toBe('fire');
      // the shot's outcome, whatever it is: then the block's fire-starting D20
      return game.apply(s, game.chanceOutcomes(s)[0]!.action);
    };
    const inc = fired(true);
    expect(inc.stack.find((f) => f.t === 'ignite')).toEqual({
      t: 'ignite',
      block: 'V2',
      source: 'incendiary',
      rolls: 1,
    });
    const ig = at(inc, inc.stack.find((f) => f.t === 'ignite')!);
    expect(probs(ig)['ignite V2 1']).toBeCloseTo(14 / 20, 12);
    const ev: GameEvent[] = [];
    game.apply(ig, 'ignite V2 1', ev);
    expect(ev.some((e) => /1 D20 \(incendiary shells, 7-20\)/.test(e.text))).toBe(true);
    const shell = fired(false);
    expect(shell.stack.find((f) => f.t === 'ignite')).toMatchObject({ source: 'shell', rolls: 1 });
  });

  it('brick or stone: −1 (8-20 on the die)', () => {
    const s = at(kleinau(fires()), { t: 'ignite', block: 'V1', source: 'incendiary', rolls: 2 });
    expect(probs(s)['ignite V1 1']).toBeCloseTo(1 - (7 / 20) ** 2, 12);
  });
});

describe('rockets (A-75): a rocket battery fires only at units in blocks, 4-20 a launcher, nothing else', () => {
  const rockets = (extra?: Record<string, Json>) =>
    setUnits(
      kleinau(
        fires((j) => {
          const f4 = unitJ(j, 'F4');
          f4.rockets = true;
          f4.howitzers = 0;
        }),
      ),
      { A1: { inBlocks: { V2: 8 } }, ...extra },
    );

  it('offers `rockets A1` (A1 in a block) and no canister or solid shot, at units in the open none', () => {
    const keys = game.legalActions(at(rockets(), { t: 'act', unit: 'F4' }));
    expect(keys.filter((k) => /^(rockets|shot|canister|fire) /.test(k))).toEqual(['rockets A1']);
    // A1 out of the town: nothing to fire at
    const open = game.legalActions(at(rockets({ A1: { inBlocks: {} } }), { t: 'act', unit: 'F4' }));
    expect(open.filter((k) => /^(rockets|shot|canister|fire) /.test(k))).toEqual([]);
    // limbered: no rockets
    const lim = game.legalActions(at(rockets({ F4: { formation: 'limbered' } }), { t: 'act', unit: 'F4' }));
    expect(lim.some((k) => k.startsWith('rockets '))).toBe(false);
  });

  it('one action; one D20 a bearing launcher on the Rockets column (4-20); no casualties or morale mark', () => {
    const s0 = rockets();
    const ev: GameEvent[] = [];
    const s = playInto(at(s0, { t: 'act', unit: 'F4' }), ev, 'rockets A1');
    const f = top(s);
    expect(f).toMatchObject({ t: 'ignite', block: 'V2', source: 'rockets' });
    const n = (f as { rolls: number }).rolls;
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(5);
    expect(probs(s)['ignite V2 1']).toBeCloseTo(1 - (3 / 20) ** n, 12);
    expect(unitOf(s, 'F4').halves).toBe(2);
    expect(ev.some((e) => e.rule === 'A-75' && /F4 fires rockets at A1 in V2/.test(e.text))).toBe(true);
    const t = game.apply(s, 'ignite V2 1');
    expect(t.blockFires?.V2).toBe(1);
    expect(unitOf(t, 'A1')).toMatchObject({ figures: unitOf(s0, 'A1').figures, marked: 0 });
    expect(unitOf(t, 'F4').ammo).toBe(unitOf(s0, 'F4').ammo);
  });

  it('brick or stone: −1 (5-20 on the die); a block with four fires is no target', () => {
    const s = at(kleinau(fires()), { t: 'ignite', block: 'V1', source: 'rockets', rolls: 1 });
    expect(probs(s)['ignite V1 1']).toBeCloseTo(16 / 20, 12);
    const full = rockets();
    const four = { ...full, blockFires: { V2: 4 } };
    const keys = game.legalActions(at(four, { t: 'act', unit: 'F4' }));
    expect(keys.some((k) => k.startsWith('rockets '))).toBe(false);
  });

  it('a charged rocket battery has no defence fire (no canister); it may abandon its guns', () => {
    const charged = (rocket: boolean) => {
      const s0 = rocket
        ? rockets({ A1: { x: 2500, y: 1000, facing: 180 } })
        : setUnits(kleinau(fires()), { A1: { x: 2500, y: 1000, facing: 180 } });
      const c = { charger: 'A1', defender: 'F4', chargerInContact: 10, defenderInContact: 5 };
      return {
        ...s0,
        closes: [c as SeqState['closes'][number]],
        stack: [...s0.stack, { t: 'defence', close: 0 } as Frame],
      };
    };
    expect(game.legalActions(charged(false))).toContain('defence fire');
    const keys = game.legalActions(charged(true));
    expect(keys).toContain('abandon guns');
    expect(keys.some((k) => k.startsWith('defence fire'))).toBe(false);
    expect(game.describeAction!(at(rockets(), { t: 'act', unit: 'F4' }), 'rockets A1')).toMatch(/4-20.*A-75/);
  });
});

describe('all three in play', () => {
  it('random games (and the scripted player) keep the Game contract at every step, real dice included', () => {
    // the Austrians start in the town (A1 in V2, A2 in the burning mill), sappers on both sides; F4 fires incendiary
    // shells (odd games) or is a rocket battery (even games)
    const inTown = (rockets: boolean) =>
      fires((j) => {
        for (const id of ['F1', 'F2', 'A1', 'A2']) unitJ(j, id).sappers = true;
        const f4 = unitJ(j, 'F4');
        if (rockets) {
          f4.rockets = true;
          f4.howitzers = 0;
        } else f4.incendiary = true;
        j.terrain.find((t: Json) => t.id === 'V1').fires = 1;
      });
    const town = Object.create(game) as typeof game;
    town.initialState = (sc) =>
      setUnits(game.initialState(sc), {
        A1: { figures: 12, inBlocks: { V2: 12 } },
        A2: { figures: 12, inBlocks: { V1: 12 } },
      });
    // the chance nodes met: each new source is reached
    const seen = new Set<string>();
    town.chanceOutcomes = (s) => {
      const f = top(s);
      if (f?.t === 'ignite') seen.add(`ignite ${f.source}${f.sapperRolls ? ' and sappers' : ''}`);
      if (f?.t === 'extinguish') seen.add(`extinguish${internals.crewSplit(s, f.block).sappers ? ' sappers' : ''}`);
      return game.chanceOutcomes(s);
    };
    for (let g = 0; g < 4; g++) {
      const r = playChecked(
        town,
        scenarioOf('the-mill-at-kleinau', inTown(g % 2 === 0)),
        seedrandom.alea(`fires/${g}`),
        {
          seats: g === 2 ? ['heuristic', 'heuristic'] : g === 3 ? ['heuristic', 'random'] : ['random', 'random'],
          maxPlies: 20_000,
          freeze: true,
          optionsEvery: 7,
          optionsCap: 4,
        },
      );
      expect(r.plies).toBeGreaterThan(0);
    }
    expect([...seen].sort()).toEqual(
      expect.arrayContaining(['extinguish sappers', 'ignite incendiary', 'ignite rockets', 'ignite sappers']),
    );
  });
});
