/**
 * Napoleon's Eagles: real dice at a physical table (dice-faces.ts). At each kind of chance frame, reached in random
 * games or in constructed positions: every face combination (all of them up to 8000, else a sample) reads into a listed
 * outcome, with the outcome classes' exact probabilities when all are read; every outcome is reached; each outcome's
 * `diceFaces` maps back to it; faces off the dice, a wrong number of dice and an impossible combination are refused
 * with a reason naming the roll.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { type Json, kleinau, play, quick, rawScenario, setUnits, top, validated } from '../../../test/ne-fixtures.ts';
import { outcomeForFaces, rollAsk } from './dice-faces.ts';
import { napoleonsEagles as game } from './index.ts';
import { type Frame, runtime, type SeqState } from './turn.ts';

/** The faces of combination `i` of `dice` (the first die varying fastest). */
const facesOf = (dice: readonly number[], i: number) =>
  dice.map((k) => {
    const f = (i % k) + 1;
    i = Math.floor(i / k);
    return f;
  });

/** The contract of `rollAsk`/`outcomeForFaces` at `s`; returns the roll's words. */
function checkRoll(s: SeqState, rng: () => number = seedrandom('faces')): string {
  const ask = rollAsk(s);
  expect(ask, `no roll at ${top(s)?.t}`).toBeDefined();
  const { what, dice } = ask!;
  expect(what.length).toBeGreaterThan(10);
  const outs = game.chanceOutcomes(s);
  const total = dice.reduce((a, k) => a * k, 1);
  const all = total <= 8000;
  const n = all ? total : 3000;
  const count = new Map<string, number>();
  let refused = 0;
  for (let i = 0; i < n; i++) {
    const faces = facesOf(dice, all ? i : Math.floor(rng() * total));
    const r = outcomeForFaces(s, faces);
    if ('error' in r) {
      refused++;
      expect(r.error).toMatch(/tie-break/); // only the bids' equal D6s are no outcome
      continue;
    }
    expect(outs.map((o) => o.action)).toContain(r.action);
    count.set(r.action, (count.get(r.action) ?? 0) + 1);
  }
  if (all)
    for (const o of outs)
      expect((count.get(o.action) ?? 0) / (n - refused), `${what}: ${o.action}`).toBeCloseTo(o.p, 12);
  // the faces shown for each outcome map back to it (a morale check shows only the dice it used: the rest padded)
  for (const o of outs) {
    const shown = game.diceFaces?.(s, o.action, rng);
    if (!shown) continue;
    const faces = [...shown, ...dice.slice(shown.length).map(() => 1)];
    expect(outcomeForFaces(s, faces), `${what}: ${shown.join(' ')}`).toEqual({ action: o.action });
  }
  // off the dice, or the wrong number of dice: refused, naming the roll
  const name = what.split(':')[0]!;
  for (const bad of [
    [dice[0]! + 1, ...dice.slice(1).map(() => 1)],
    [0, ...dice.slice(1).map(() => 1)],
    [1.5, ...dice.slice(1).map(() => 1)],
    [...dice.map(() => 1), 1],
  ]) {
    const r = outcomeForFaces(s, bad);
    expect('error' in r && r.error.startsWith(name), `${bad.join(' ')} at ${what}`).toBe(true);
  }
  return what;
}

/** The first state (playing `games` random games) at each kind of chance frame that rolls dice, `per` of each. */
function harvest(s0: SeqState, games: number, per = 2): Map<string, SeqState[]> {
  const found = new Map<string, SeqState[]>();
  for (let g = 0; g < games; g++) {
    const rng = seedrandom(`dice-faces ${g}`);
    let s = s0;
    for (let ply = 0; ply < 4000 && !s.over; ply++) {
      const outs = game.chanceOutcomes(s);
      if (outs.length) {
        const t = top(s)!.t;
        const got = found.get(t) ?? [];
        if (got.length < per && rollAsk(s)) found.set(t, [...got, s]);
        let x = rng();
        s = game.apply(s, (outs.find((o) => (x -= o.p) < 0) ?? outs.at(-1)!).action);
      } else {
        const legal = game.legalActions(s);
        s = game.apply(s, legal[Math.floor(rng() * legal.length)]!);
      }
    }
  }
  return found;
}

/** Every built optional rule on (as the soak's kl-on scenario). */
const allOn = (j: Json) =>
  Object.assign(j.options, {
    writtenOrders: true,
    caissons: true,
    fires: true,
    weather: true,
    smoke: true,
    secondBounce: true,
    supportedLine: true,
    misreadOrders: true,
    tableFlanks: true,
  });

/** The state with `frames` as its stack (the last on top), settled. */
const at = (s: SeqState, ...frames: Frame[]): SeqState => runtime.settle({ ...s, stack: frames, sideA: 0 });

/** Plays on (first chance outcome; quiet choices first) until `stop`. */
function until(s0: SeqState, stop: (s: SeqState) => boolean, prefer: readonly string[] = []): SeqState {
  let s = s0;
  const quiet = [...prefer, 'bid 0', 'finish', 'end', 'stay', 'hold', 'no defence action', 'stand in place'];
  for (let i = 0; i < 3000 && !stop(s); i++) {
    const outs = game.chanceOutcomes(s);
    if (outs.length) s = game.apply(s, outs[0]!.action);
    else {
      const acts = game.legalActions(s);
      s = game.apply(s, quiet.find((q) => acts.includes(q)) ?? acts.find((a) => a.startsWith('activate')) ?? acts[0]!);
    }
  }
  if (!stop(s)) throw new Error('not reached');
  return s;
}

/** quick-test with units and leaders moved (inches), and an optional French heavy cavalry regiment FC. */
function variant(moves: Record<string, Json>, fc?: Json, options: Json = {}, leaders: Record<string, Json> = {}) {
  const j = rawScenario('quick-test');
  for (const side of j.sides) for (const u of side.units) Object.assign(u, moves[u.id] ?? {});
  for (const side of j.sides) for (const l of side.leaders) if (leaders[l.id]) Object.assign(l, leaders[l.id]);
  if (fc) {
    const foy = j.sides[0].leaders.find((l: Json) => l.id === 'Foy');
    delete foy.attached;
    Object.assign(foy, { x: fc.x, y: Math.max(1, fc.y - 3) });
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
  }
  j.options = { ...(j.options ?? {}), ...options };
  return game.initialState(validated(j));
}

describe("Napoleon's Eagles: real dice for the chance nodes (rollAsk, outcomeForFaces)", () => {
  it('random games on quick-test and on Kleinau with every optional rule: each roll reads its faces', () => {
    const kinds = new Set<string>();
    for (const [s0, games] of [
      [quick(), 2],
      [kleinau(allOn), 2],
    ] as const)
      for (const [t, states] of harvest(s0, games)) {
        kinds.add(t);
        for (const s of states) checkRoll(s);
      }
    expect([...kinds]).toEqual(
      expect.arrayContaining(['tiebreak', 'fire', 'reformRoll', 'morale', 'closeCheck', 'orderDelay', 'misread']),
    );
  });

  it("the bids' tie-break: a D6 each, the higher wins; equal faces are refused (rolled again)", () => {
    const s = play(quick(), 'bid 1', 'bid 1');
    expect(top(s)?.t).toBe('tiebreak');
    expect(rollAsk(s)?.dice).toEqual([6, 6]);
    expect(outcomeForFaces(s, [5, 2])).toEqual({ action: 'tie-break first' });
    expect(outcomeForFaces(s, [1, 6])).toEqual({ action: 'tie-break second' });
    expect(outcomeForFaces(s, [4, 4])).toEqual({ error: expect.stringMatching(/tie-break: 4 and 4 are equal/) });
    expect(outcomeForFaces(s, [7, 1])).toEqual({ error: expect.stringMatching(/^equal bids: .*7 is no face of a D6/) });
    checkRoll(s);
  });

  it('leader loss (D10), threshold with influence (D20 and D10), initiative (D20)', () => {
    const s0 = quick();
    const loss = { ...s0, stack: [...s0.stack, { t: 'leaderLoss', leader: 'Foy', upTo: 3 } as const] };
    expect(rollAsk(loss)).toEqual({ what: "Foy's leader loss roll: D10, lost on 3 or less [p.16]", dice: [10] });
    expect(outcomeForFaces(loss, [3])).toEqual({ action: 'leader lost' });
    expect(outcomeForFaces(loss, [4])).toEqual({ action: 'leader safe' });
    checkRoll(loss);
    // a certain loss is no roll
    expect(rollAsk({ ...loss, stack: [...s0.stack, { t: 'leaderLoss', leader: 'Foy', upTo: 10 }] })).toBeUndefined();
    const th = { ...s0, stack: [...s0.stack, { t: 'threshold', side: 1, division: 'Pack', influence: 3 } as const] };
    expect(rollAsk(th)?.dice).toEqual([20, 10]);
    expect(checkRoll(th)).toMatch(/division Pack's threshold roll: D20, \d+ or less passes; a D10, 3 or less/);
    const far = (j: Json) => {
      j.sides[0].leaders[0].x = 0;
      j.sides[0].leaders[0].y = 36;
    };
    const ini = until(kleinau(far), (t) => top(t)?.t === 'initiative');
    expect(rollAsk(ini)?.dice).toEqual([20]);
    expect(outcomeForFaces(ini, [5])).toEqual({ action: 'initiative pass' });
    expect(outcomeForFaces(ini, [6])).toEqual({ action: 'initiative fail' });
    checkRoll(ini);
  });

  it('fires in buildings: putting out (a D20 per four figures), burning, starting fires', () => {
    const burning = (j: Json) => {
      j.options.fires = true;
      j.windFrom = 'W';
      j.terrain.find((t: Json) => t.id === 'V1').fires = 1;
    };
    const end = (s: SeqState) => at(s, { t: 'endPeriod' });
    const burn = end(kleinau(burning));
    expect(top(burn)).toEqual({ t: 'burn', block: 'V1' });
    expect(outcomeForFaces(burn, [13])).toEqual({ action: 'burn V1 1' });
    expect(outcomeForFaces(burn, [14])).toEqual({ action: 'burn V1 2' });
    expect(outcomeForFaces(burn, [19])).toEqual({ action: 'burn V1 2 spreads' });
    checkRoll(burn);
    const crews = end(setUnits(kleinau(burning), { A1: { inBlocks: { V2: 8 } } }));
    const ext = play(crews, 'extinguish V1 by A1 in V2');
    expect(top(ext)).toEqual({ t: 'extinguish', block: 'V1' });
    expect(rollAsk(ext)?.dice).toEqual([20, 20]);
    expect(outcomeForFaces(ext, [20, 3])).toEqual({ action: 'extinguish V1 0' });
    checkRoll(ext);
    const ign = play(crews, 'set fire V2 by A1', 'burn V1 1');
    expect(rollAsk(ign)?.dice).toEqual([20, 20, 20, 20]);
    expect(outcomeForFaces(ign, [1, 2, 20, 3])).toEqual({ action: 'ignite V2 1' });
    checkRoll(ign);
    checkRoll(at(kleinau(burning), { t: 'ignite', block: 'V2', source: 'shell', rolls: 2 }));
  });

  it('fires: sappers (11-20 to start, 16-20 to put out), incendiary shells (7-20), rockets (4-20, A-75)', () => {
    const sappers = (j: Json) => {
      j.options.fires = true;
      j.windFrom = 'W';
      j.terrain.find((t: Json) => t.id === 'V1').fires = 1;
      j.sides[1].units.find((u: Json) => u.id === 'A1').sappers = true;
    };
    const end = (s: SeqState) => at(s, { t: 'endPeriod' });
    // eight sappers on V1's fire: two D20s, each 16-20 puts one out
    const crews = end(setUnits(kleinau(sappers), { A1: { inBlocks: { V2: 8 } }, A2: { inBlocks: { V2: 4 } } }));
    const ext = play(crews, 'extinguish V1 by A1 in V2', 'crews done');
    expect(rollAsk(ext)?.dice).toEqual([20, 20]);
    expect(rollAsk(ext)?.what).toMatch(/sappers, each 16-20/);
    expect(outcomeForFaces(ext, [15, 15])).toEqual({ action: 'extinguish V1 1' });
    expect(outcomeForFaces(ext, [15, 16])).toEqual({ action: 'extinguish V1 0' });
    checkRoll(ext);
    // with four others: the sappers' two dice first (16-20), then the others' one (20)
    const both = play(crews, 'extinguish V1 by A1 in V2', 'extinguish V1 by A2 in V2');
    expect(rollAsk(both)?.dice).toEqual([20, 20, 20]);
    expect(outcomeForFaces(both, [1, 1, 19])).toEqual({ action: 'extinguish V1 1' });
    expect(outcomeForFaces(both, [1, 1, 20])).toEqual({ action: 'extinguish V1 0' });
    expect(outcomeForFaces(both, [1, 16, 1])).toEqual({ action: 'extinguish V1 0' });
    checkRoll(both);
    // sappers and soldiers starting a fire in V2 (not brick): soldiers' dice 20, then the sappers' 11-20
    const ign = play(crews, 'set fire V2 by A1', 'set fire V2 by A2', 'burn V1 1');
    expect(top(ign)).toEqual({ t: 'ignite', block: 'V2', source: 'soldiers', rolls: 2, sapperRolls: 4 });
    expect(rollAsk(ign)?.dice).toEqual([20, 20, 20, 20, 20, 20]);
    expect(outcomeForFaces(ign, [11, 11, 10, 10, 10, 10])).toEqual({ action: 'ignite V2 0' });
    expect(outcomeForFaces(ign, [1, 1, 10, 10, 10, 11])).toEqual({ action: 'ignite V2 1' });
    expect(outcomeForFaces(ign, [20, 1, 1, 1, 1, 1])).toEqual({ action: 'ignite V2 1' });
    checkRoll(ign);
    const base = kleinau(sappers);
    // incendiary shells: 7-20 (V2), 8-20 in the brick mill (V1)
    const inc = at(base, { t: 'ignite', block: 'V2', source: 'incendiary', rolls: 1 });
    expect(outcomeForFaces(inc, [6])).toEqual({ action: 'ignite V2 0' });
    expect(outcomeForFaces(inc, [7])).toEqual({ action: 'ignite V2 1' });
    checkRoll(inc);
    const incBrick = at(base, { t: 'ignite', block: 'V1', source: 'incendiary', rolls: 1 });
    expect(outcomeForFaces(incBrick, [7])).toEqual({ action: 'ignite V1 1' });
    expect(outcomeForFaces(incBrick, [8])).toEqual({ action: 'ignite V1 2' });
    // rockets: 4-20 a launcher
    const rk = at(base, { t: 'ignite', block: 'V2', source: 'rockets', rolls: 3 });
    expect(rollAsk(rk)?.what).toMatch(/3 D20 \(rockets \(A-75\), 4-20\)/);
    expect(outcomeForFaces(rk, [3, 3, 3])).toEqual({ action: 'ignite V2 0' });
    expect(outcomeForFaces(rk, [3, 4, 1])).toEqual({ action: 'ignite V2 1' });
    checkRoll(rk);
    // sappers alone: 11-20
    const sap = at(base, { t: 'ignite', block: 'V2', source: 'sappers', rolls: 2 });
    expect(outcomeForFaces(sap, [10, 10])).toEqual({ action: 'ignite V2 0' });
    expect(outcomeForFaces(sap, [10, 11])).toEqual({ action: 'ignite V2 1' });
    checkRoll(sap);
  });

  it('cavalry: the step 2 check, a defence change, the ride-down (its D20s), the out-of-control roll', () => {
    const flank = variant(
      { Q1: { x: 3, y: 3 }, Q2: { y: 8 }, QA: { x: 10, y: 18 }, BC: { x: 9, y: 9, facing: 90 } },
      undefined,
      { outOfControlCavalry: true },
      { Pack: { x: 9, y: 13 }, Foy: { attached: undefined, x: 25, y: 5 } },
    );
    let s = play(flank, 'bid 0', 'bid 1', 'be A', 'activate BC', 'charge Q2');
    s = until(s, (t) => top(t)?.t === 'closeCheck');
    checkRoll(s);
    // two checks against cavalry in echelon [p.7]
    const ech = setUnits(s, { BC: { formation: 'echelon' } });
    if (ech.closes[0]!.rideDown) {
      expect(rollAsk(ech)?.dice).toEqual([20, 20]);
      checkRoll(ech);
    }
    s = play(s, 'defender stands');
    expect(top(s)?.t).toBe('defence');
    const sq = play(s, 'defence form square');
    expect(top(sq)?.t).toBe('defenceChange');
    checkRoll(sq);
    const ride = until(play(sq, 'defence disordered'), (t) => top(t)?.t === 'rideDown');
    expect(rollAsk(ride)?.dice).toEqual([20, 20]);
    checkRoll(ride);
    const won = game.chanceOutcomes(ride).find((o) => /defenderRiddenDown/.test(o.action))!.action;
    const ooc = until(game.apply(ride, won), (t) => top(t)?.t === 'oocRoll', ['leader +1']);
    expect(checkRoll(ooc)).toMatch(/out-of-control roll: D20/);
  });

  it('several chargers: each step 5 check, the melee D6s (one defender die or one per charger), casualties, losers', () => {
    const s0 = (options: Json = {}) =>
      variant(
        { B1: { x: 22.5, y: 7.5, formation: 'column' }, B2: { x: 27.5, y: 7.5, formation: 'column' } },
        undefined,
        options,
        { Pack: { x: 25, y: 12 } },
      );
    for (const mode of ['one', 'perCharger']) {
      let t = play(s0({ defenderMeleeDice: mode }), 'bid 0', 'bid 1', 'be A', 'activate B1', 'charge Q2');
      t = play(t, 'activate B2', 'charge Q2');
      t = until(t, (x) => top(x)?.t === 'closeCheck');
      t = play(t, 'defender stands');
      if (top(t)?.t === 'defence') t = play(t, 'no defence action');
      expect(top(t)?.t).toBe('multiClose');
      checkRoll(t);
      t = play(t, 'charger closes', 'charger closes');
      expect(top(t)?.t).toBe('multiMelee');
      expect(rollAsk(t)?.dice).toEqual(mode === 'one' ? [6, 6, 6] : [6, 6, 6, 6]);
      checkRoll(t);
      const r = game.chanceOutcomes(t).find((o) => /B1 chargerWins, B2 defenderWins/.test(o.action))!.action;
      const cas = play(t, r);
      expect(top(cas)?.t).toBe('multiCasualty');
      checkRoll(cas);
      const loser = until(cas, (x) => top(x)?.t === 'closeLoser');
      checkRoll(loser);
    }
  });

  it('one charger against one defender: the whole close action from step 5, its six dice', () => {
    let s = play(
      variant({ B1: { x: 25, y: 7.5, formation: 'column' } }, undefined, {}, { Pack: { x: 25, y: 12 } }),
      'bid 0',
      'bid 1',
      'be A',
      'activate B1',
      'charge Q2',
    );
    s = until(s, (t) => top(t)?.t === 'closeCheck');
    s = play(s, 'defender stands');
    s = until(s, (t) => top(t)?.t === 'closeFight');
    expect(rollAsk(s)?.dice).toEqual([20, 6, 6, 6, 6, 20]);
    checkRoll(s);
    // a re-fight has no step 5 check
    const f = top(s) as Extract<Frame, { t: 'closeFight' }>;
    const re = { ...s, stack: [...s.stack.slice(0, -1), { ...f, refight: true }] };
    expect(rollAsk(re)?.dice).toEqual([6, 6, 6, 6, 20]);
    checkRoll(re);
  });

  it('cavalry against a skirmish screen (A-61): its check to close, the screen’s check', () => {
    let s = play(
      variant(
        { B2: { x: 20, y: 8, formation: 'skirmish' }, Q1: { x: 3, y: 3 }, QA: { x: 3, y: 16 } },
        { x: 12, y: 6, facing: 0 },
        {},
        { Pack: { x: 18, y: 14 } },
      ),
      'bid 1',
      'bid 0',
      'be A',
      'activate FC',
      'charge B2',
    );
    s = until(s, (t) => top(t)?.t === 'screenCharge');
    expect(rollAsk(s)?.dice).toEqual([20, 20]);
    checkRoll(s);
  });

  it("the buildings: a block charger's check, the block fight's two D6s", () => {
    const j = rawScenario('the-mill-at-kleinau');
    j.terrain = j.terrain.filter((t: { id: string }) => !['T2', 'T3', 'T8'].includes(t.id));
    j.victory.objectives = j.victory.objectives.filter((o: { id: string }) => o.id !== 'obj-T3');
    j.options.leaderInitiative = false;
    const [fr, au] = j.sides;
    fr.leaders[1].x = 27;
    fr.leaders[1].y = 12;
    const inf = { kind: 'infantry', troopClass: 'line', ranks: 3, rating: 'B17C45', formation: 'column' };
    fr.units = [
      { ...inf, id: 'F1', figures: 12, commander: 'L-F1', x: 27, y: 19.5, facing: 0 },
      { ...inf, id: 'F2', figures: 24, commander: 'L-F1', x: 31, y: 26, facing: 270 },
      { ...inf, id: 'F9', figures: 12, commander: 'L-F1', x: 10, y: 6, facing: 0 },
    ];
    au.units = [
      { ...inf, id: 'A3', figures: 12, rating: 'B16C40', commander: 'L-A1', x: 27, y: 28.5, facing: 180 },
      { ...inf, id: 'A9', figures: 12, rating: 'B16C40', commander: 'L-A1', x: 40, y: 33, facing: 180 },
    ];
    let s = play(game.initialState(validated(j)), 'bid 1', 'bid 0', 'be A', 'activate F1', 'enter V1 V1:12', 'end');
    s = play(s, 'activate F9', 'end', 'activate A3', 'enter V2 V2:12', 'end', 'activate F2', 'charge block V2 E');
    s = until(s, (t) => top(t)?.t === 'blockCheck', ['blocks done']);
    expect(checkRoll(s)).toMatch(/^F2's check to close on block V2: D20/);
    s = until(play(s, 'charger closes'), (t) => top(t)?.t === 'blockFight', ['blocks done']);
    expect(rollAsk(s)?.dice).toEqual([6, 6]);
    // an attacker's 6 against a defender's 5 (+2): the defender holds the tie, two attackers' casualties to it
    expect(outcomeForFaces(s, [6, 5])).toEqual({ action: 'block defender wins, losses 0/2' });
    checkRoll(s);
  });
});
