import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../core/game.ts';
import { hitDistribution } from './loss-flow.ts';
import { areaMoraleOf } from './world.ts';
import { chanceOutcomes, initialState, legalActions, settle, toMoveOf, top, victoryPoints } from './rules.ts';
import type { EState, Frame, PhaseFrame, Segment, Side } from './types.ts';
import { act, loadScenario, map, position as at, unitOf } from '../../../test/eote-fixtures.ts';

const sc = loadScenario();

const binom = (n: number, k: number, p: number) => {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
  return c * p ** k * (1 - p) ** (n - k);
};

/** A position in side `p`'s Action Phase at segment `seg`, with units moved (area, conformation) and formations active. */
const position = (
  p: Side,
  seg: Segment,
  active: string[],
  moves: Record<string, [number | null, string | null]>,
  extra: Partial<PhaseFrame> = {},
): EState => at(sc, p, seg, active, moves, extra);

describe('Eagles of the Empire Action Phase: bombardment [12.0–12.72]', () => {
  // French heavy H1 (2 SP) and foot G1 (1 SP) in West Meadow (9) facing south; R-2inf (A4-4) with Pahlen in the Bridge
  // Approach (15), facing north
  const setup = () =>
    position(0, 'bombard', ['f-hqf'], {
      H1: [9, 'S'],
      G1: [9, 'S'],
      H2: [null, null],
      H3: [null, null],
      G2: [null, null],
      'R-2inf': [15, 'N'],
      pahlen: [15, null],
    });

  it('offers fire at targets in range and LOS, forms a fire group, and rolls the exact hit distribution [12.1]', () => {
    let s = setup();
    expect(top(s)).toMatchObject({ t: 'phase', seg: 'bombard' });
    const fires = legalActions(s).filter((a) => a.k === 'fire');
    expect(fires).toContainEqual({ k: 'fire', u: 'H1', to: 15 });
    expect(fires).toContainEqual({ k: 'fire', u: 'G1', to: 15 });
    const east = position(0, 'bombard', ['f-hqf'], {
      H1: [9, 'E'],
      G1: [null, null],
      H2: [null, null],
      H3: [null, null],
      G2: [null, null],
    });
    expect(legalActions(east)).not.toContainEqual({ k: 'fire', u: 'H1', to: 10 }); // the 9|10 tree-line blocks [12.54a]
    s = act(s, { k: 'fire', u: 'H1', to: 15 });
    expect(legalActions(s)).toEqual([
      { k: 'fire', u: 'G1', to: 15 },
      { k: 'shoot', cb: false },
    ]);
    s = act(s, { k: 'fire', u: 'G1', to: 15 });
    s = act(s, { k: 'shoot', cb: false });
    expect(toMoveOf(s).kind).toBe('chance');
    // 3 SP, no modifiers in clear daylight at range 1 against a front: 3 dice hitting on a 6
    const o = chanceOutcomes(s);
    expect(o.map((x) => x.p)).toEqual([0, 1, 2, 3].map((k) => binom(3, k, 1 / 6)).map((p) => expect.closeTo(p, 12)));
    expect(unitOf(s, 'H1').acted).toBe('bombard'); // [12.61]
  });

  it('applies hits to the lone long counter, checks leaders [3.2] and rout when more than half its steps go [19.0]', () => {
    let s = setup();
    s = act(act(act(s, { k: 'fire', u: 'H1', to: 15 }), { k: 'fire', u: 'G1', to: 15 }), { k: 'shoot', cb: false });
    const log: GameEvent[] = [];
    s = act(s, { k: 'c-hits', n: 3 }, log);
    expect(unitOf(s, 'R-2inf')).toMatchObject({ step: 3, lost: 3 }); // A4 → d1: 3 of its 4 steps
    // Pahlen is there: casualty check at +1 (3 steps lost) → 2d6+1 ≥ 12 = 3/36
    expect(top(s)).toMatchObject({ t: 'leaderCheck', l: 'pahlen', mod: 1 });
    expect(chanceOutcomes(s).find((x) => (x.action as { ok: boolean }).ok === false)!.p).toBeCloseTo(3 / 36, 12);
    s = act(s, { k: 'c-pass', ok: true });
    expect(top(s)).toMatchObject({ t: 'routCheck', u: 'R-2inf', cascade: false });
    // area morale: d-step morale 2, + Pahlen's 1 → hold on 1–3
    expect(chanceOutcomes(s)[0]!.p).toBeCloseTo(3 / 6, 12);
    s = act(s, { k: 'c-pass', ok: false }, log);
    expect(unitOf(s, 'R-2inf').routed).toBe(true);
    expect(top(s)).toMatchObject({ t: 'routMove', u: 'R-2inf', initial: true });
    // every option increases the distance from the firing area [19.11]
    const goes = legalActions(s).filter((a) => a.k === 'goTo');
    expect(goes.length).toBeGreaterThan(0);
    for (const a of goes) expect(map.range((a as { area: number }).area, 9)).toBeGreaterThan(map.range(15, 9));
    expect(log.map((e) => e.rule)).toEqual(expect.arrayContaining(['12.1', '12.2', '19.1']));
    // [19.14] Pahlen may go with the routing unit: he then moves with it
    expect(legalActions(s)).toContainEqual({ k: 'escort', l: 'pahlen' });
    s = act(s, { k: 'escort', l: 'pahlen' }, log);
    expect(log.at(-1)!.rule).toBe('19.14');
    expect(legalActions(s).some((a) => a.k === 'escort')).toBe(false);
    const to = (goes[0] as { area: number }).area;
    s = act(s, { k: 'goTo', area: to });
    expect(s.leaders.find((l) => l.id === 'pahlen')!.area).toBe(to);
    expect(unitOf(s, 'R-2inf').area).toBe(to);
  });

  it('lets a router in a map-edge area flee off the map, eliminated [19.23]', () => {
    // R-2inf in Ford Meadow (21, on the southern edge) bombarded from the Staging Ground (14)
    let s = position(0, 'bombard', ['f-hqf'], {
      H1: [14, 'E'],
      G1: [null, null],
      H2: [14, 'E'],
      H3: [null, null],
      G2: [null, null],
      'R-2inf': [21, 'N'],
      pahlen: [10, null],
    });
    expect(map.isEdge(21)).toBe(true);
    s = act(act(act(s, { k: 'fire', u: 'H1', to: 21 }), { k: 'fire', u: 'H2', to: 21 }), { k: 'shoot', cb: false });
    expect(chanceOutcomes(s).map((o) => o.action)).toContainEqual({ k: 'c-hits', n: 3 });
    s = act(s, { k: 'c-hits', n: 3 });
    while (top(s)?.t === 'loss') s = act(s, legalActions(s)[0]!);
    expect(top(s)).toMatchObject({ t: 'routCheck', u: 'R-2inf' });
    s = act(s, { k: 'c-pass', ok: false });
    expect(legalActions(s)).toContainEqual({ k: 'routOff' });
    const log: GameEvent[] = [];
    s = act(s, { k: 'routOff' }, log);
    expect(unitOf(s, 'R-2inf').eliminated).toBe(true);
    expect(log[0]!.rule).toBe('19.23');
  });

  it('caps a firing area at 8 SP per target over the segment [12.62] (A-24)', () => {
    const s = position(
      0,
      'bombard',
      ['f-hqf'],
      { H1: [9, 'S'], G1: [9, 'S'], H2: [null, null], H3: [null, null], G2: [null, null], 'R-2inf': [15, 'N'] },
      { bomb: { '9>15': 7 } },
    );
    expect(legalActions(s).filter((a) => a.k === 'fire' && a.to === 15)).toEqual([{ k: 'fire', u: 'G1', to: 15 }]);
  });

  it('computes binomial sums of mixed DRMs exactly (A-02)', () => {
    const d = hitDistribution([
      { n: 1, drm: 1 },
      { n: 1, drm: -1 },
    ]);
    expect(d[2]).toBeCloseTo((2 / 6) * 0, 12); // a die at −1 never hits
    expect(d[1]).toBeCloseTo(2 / 6, 12);
  });
});

describe('Eagles of the Empire Action Phase: movement [13.0–13.94]', () => {
  it('moves a long counter by paying area costs, never into the enemy, and faces it at the end [13.1, 13.12, 13.9]', () => {
    let s = position(0, 'move', ['f-I'], { 'F-1div': [9, 'E'], 'F-2div': [null, null] });
    expect(legalActions(s)).toContainEqual({ k: 'mvUnit', u: 'F-1div' });
    s = act(s, { k: 'mvUnit', u: 'F-1div' });
    const to = legalActions(s)
      .filter((a) => a.k === 'to')
      .map((a) => (a as { area: number }).area);
    expect(to).not.toContain(10); // R-2inf is there
    expect(to).toContain(2); // woods cost 2: within MA 2
    s = act(s, { k: 'to', area: 3, mode: 'normal' });
    expect(unitOf(s, 'F-1div')).toMatchObject({ area: 3, mp: 1 });
    // 1 MP left: no woods (2) from here
    expect(legalActions(s).some((a) => a.k === 'to' && a.area === 2)).toBe(false);
    s = act(s, { k: 'stop' });
    expect(top(s)).toMatchObject({ t: 'face', u: 'F-1div' });
    s = act(s, { k: 'face', u: 'F-1div', conf: 'S' });
    expect(unitOf(s, 'F-1div')).toMatchObject({ conf: 'S', moveDone: true });
    expect(legalActions(s)).not.toContainEqual({ k: 'mvUnit', u: 'F-1div' });
  });

  it('hands an objective to the side whose combat units are alone in it (A-53)', () => {
    let s = position(0, 'move', ['f-I'], { 'F-1div': [15, 'E'], 'R-3inf': [null, null], 'R-jag': [null, null] });
    expect(s.control['16']).toBe(1);
    const vp = victoryPoints(s);
    const log: GameEvent[] = [];
    s = act(act(s, { k: 'mvUnit', u: 'F-1div' }), { k: 'to', area: 16, mode: 'normal' }, log);
    expect(s.control['16']).toBe(0);
    expect(log.map((e) => e.rule)).toContain('A-53');
    const objective = sc.victory.objectives.find((o) => o.area === 16)!;
    expect(victoryPoints(s)).toEqual([vp[0] + objective.vp[0], vp[1] - objective.vp[1]]);
  });

  it('forms square by intent for 1 MP when infantry outnumbers the rest [17.11] (A-44)', () => {
    let s = position(0, 'move', ['f-I'], { 'F-1div': [9, 'E'], 'F-2div': [null, null] });
    expect(legalActions(s)).toContainEqual({ k: 'square', area: 9, on: true });
    s = act(s, { k: 'square', area: 9, on: true });
    expect(unitOf(s, 'F-1div')).toMatchObject({ square: true, mp: 1 });
    expect(legalActions(s)).not.toContainEqual({ k: 'mvUnit', u: 'F-1div' }); // squares do not move [17.15]
  });

  it('gives one unattached foot artillery unit +1 MA when the artillery leader starts and moves with it [13.24]', () => {
    // the Guard foot battery G1 (MA 2) with Dourane, the French artillery leader, in the West Road (13)
    let s = position(0, 'move', ['f-hqf'], {});
    expect(legalActions(s)).toContainEqual({ k: 'mvWithLeader', u: 'G1', l: 'dourane' });
    const log: GameEvent[] = [];
    s = act(s, { k: 'mvWithLeader', u: 'G1', l: 'dourane' }, log);
    expect(log.map((e) => e.rule)).toEqual(['13.24']);
    s = act(act(s, { k: 'to', area: 20, mode: 'normal' }), { k: 'to', area: 21, mode: 'normal' });
    // 2 MP spent over clear ground: alone it would be done; with the leader a third clear area is open
    expect(legalActions(s).filter((a) => a.k === 'to')).toEqual([{ k: 'to', area: 20, mode: 'normal' }]);
    s = act(s, { k: 'to', area: 20, mode: 'normal' });
    expect(unitOf(s, 'G1')).toMatchObject({ area: 20, mp: 3 });
    expect(s.leaders.find((l) => l.id === 'dourane')!.area).toBe(20);
    expect(legalActions(s).filter((a) => a.k === 'to')).toEqual([]);
    // horse artillery gets no boost, and the leader gives it once: he has moved
    while (top(s)?.t !== 'phase') s = act(s, legalActions(s).find((a) => a.k === 'stop' || a.k === 'face')!);
    expect(legalActions(s).some((a) => a.k === 'mvWithLeader')).toBe(false);
    const alone = act(position(0, 'move', ['f-hqf'], {}), { k: 'mvUnit', u: 'G1' });
    expect(
      legalActions(
        act(act(alone, { k: 'to', area: 20, mode: 'normal' }), { k: 'to', area: 21, mode: 'normal' }),
      ).filter((a) => a.k === 'to'),
    ).toEqual([]);
  });
});

describe('Eagles of the Empire Action Phase: assault [14.0–14.5]', () => {
  // F-1div (A5-5) in 9 facing E assaults R-2inf (A4-4, Pahlen) in 10
  const setup = () => position(0, 'assault', ['f-I'], { 'F-1div': [9, 'E'], 'F-2div': [null, null] });

  it('gathers, fires simultaneously, and an attacker who falls back reduces both sides’ losses [14.4 (a)]', () => {
    let s = setup();
    expect(legalActions(s)).toContainEqual({ k: 'assault', target: 10 });
    s = act(s, { k: 'assault', target: 10 });
    expect(legalActions(s)).toEqual([{ k: 'join', u: 'F-1div' }]);
    s = act(s, { k: 'join', u: 'F-1div' });
    s = act(s, { k: 'resolve' });
    // attacker: 5 SP across the stream and tree-line, −25% (A-29) → 4 dice; morale 5 is not twice the Russian 4 + 1
    expect(chanceOutcomes(s)).toHaveLength(5);
    s = act(s, { k: 'c-hits', n: 2 });
    // defender: 4 SP + Pahlen 1 = 5 dice
    expect(chanceOutcomes(s)).toHaveLength(6);
    s = act(s, { k: 'c-hits', n: 1 });
    expect(toMoveOf(s)).toEqual({ kind: 'player', player: 0 });
    expect(legalActions(s)).toEqual([{ k: 'stand' }, { k: 'retreat' }]);
    s = act(s, { k: 'retreat' });
    // 2 hits on the defender − 1, 1 hit on the attacker − 1
    expect(unitOf(s, 'R-2inf')).toMatchObject({ step: 1 });
    while (toMoveOf(s).kind === 'chance')
      s = act(s, chanceOutcomes(s).find((o) => (o.action as { ok?: boolean }).ok !== false)!.action);
    expect(unitOf(s, 'F-1div').step).toBe(0);
    expect(top(s)).toMatchObject({ t: 'retreatTo', p: 0, from: 9 });
    const dest = (legalActions(s)[0] as { area: number }).area;
    s = act(s, legalActions(s)[0]!);
    if (top(s)?.t === 'face') s = act(s, legalActions(s)[0]!);
    expect(unitOf(s, 'F-1div').area).toBe(dest);
    expect(unitOf(s, 'F-1div').acted).toBe('assault');
    // a target is assaulted once per segment [14.64]
    expect(legalActions(s)).not.toContainEqual({ k: 'assault', target: 10 });
  });

  it('an attacker that stands rolls against its area morale; a defender who falls back is reduced and the attacker may advance [14.41, 14.4 (b), 14.5]', () => {
    let s = setup();
    s = act(act(act(s, { k: 'assault', target: 10 }), { k: 'join', u: 'F-1div' }), { k: 'resolve' });
    s = act(act(s, { k: 'c-hits', n: 2 }), { k: 'c-hits', n: 2 });
    s = act(s, { k: 'stand' });
    expect(chanceOutcomes(s)[0]!.p).toBeCloseTo(5 / 6, 12); // morale 5 (no leader with it)
    s = act(s, { k: 'c-pass', ok: true });
    expect(toMoveOf(s)).toEqual({ kind: 'player', player: 1 });
    s = act(s, { k: 'retreat' });
    expect(unitOf(s, 'R-2inf').step).toBe(1); // 2 − 1
    while (toMoveOf(s).kind === 'chance') s = act(s, chanceOutcomes(s)[0]!.action);
    s = act(s, legalActions(s)[0]!); // the retreat area
    if (top(s)?.t === 'face') s = act(s, legalActions(s)[0]!);
    expect(legalActions(s)).toEqual([{ k: 'advance', u: 'F-1div' }, { k: 'stop' }]);
    s = act(s, { k: 'advance', u: 'F-1div' });
    expect(unitOf(s, 'F-1div').area).toBe(10);
    // Pahlen, alone now, is displaced by the Russian player [3.13]
    expect(top(s)).toMatchObject({ t: 'displace', p: 1, l: 'pahlen' });
    s = act(s, legalActions(s)[0]!);
    while (top(s)?.t === 'face') s = act(s, legalActions(s)[0]!);
    // the only participant has advanced: the advance ends by itself
    // it advanced: its 2 losses are not reduced [14.4 (b)]
    expect(unitOf(s, 'F-1div').step).toBe(2);
  });
});

describe('Eagles of the Empire Action Phase: cavalry charge [10.0–10.6]', () => {
  // the 1st Cuirassiers (a3-6, heavy) in Oberdorf (8) charge R-2inf (A4-4, facing W, with Pahlen) in Mill Meadow (10) through 9
  const setup = () =>
    position(0, 'charge', ['f-cav'], {
      'F-1cuir': [8, null],
      'F-carab': [null, null],
      'F-3drag': [null, null],
      'F-gha': [null, null],
    });

  it('offers the square under duress, fires the defence first, then the charge; a charge that fails is repelled [10.24, 10.2, 10.5]', () => {
    let s = setup();
    expect(legalActions(s)).toContainEqual({ k: 'charge', area: 8, target: 10 });
    s = act(s, { k: 'charge', area: 8, target: 10 });
    expect(legalActions(s)).toEqual([{ k: 'join', u: 'F-1cuir' }]);
    s = act(s, { k: 'join', u: 'F-1cuir' });
    s = act(s, { k: 'resolve' });
    expect(unitOf(s, 'F-1cuir').acted).toBe('charge'); // [10.7]
    expect(toMoveOf(s)).toEqual({ kind: 'player', player: 1 });
    expect(legalActions(s)).toEqual([{ k: 'square', area: 10, on: true }, { k: 'stand' }]);
    s = act(s, { k: 'stand' });
    // defence: ceil(4 / 2) + Pahlen's 1 = 3 dice, natural sixes
    expect(chanceOutcomes(s)).toHaveLength(4);
    s = act(s, { k: 'c-hits', n: 0 });
    // attack: 3 SP across the stream (−25%, A-29) → 2 dice at +1 for heavy cavalry [10.22]
    const o = chanceOutcomes(s);
    expect(o).toHaveLength(3);
    expect(o[2]!.p).toBeCloseTo((2 / 6) ** 2, 12);
    const log: GameEvent[] = [];
    s = act(s, { k: 'c-hits', n: 2 }, log);
    expect(unitOf(s, 'R-2inf').step).toBe(2);
    while (top(s)?.t === 'leaderCheck') s = act(s, { k: 'c-pass', ok: true }, log);
    // 2 of 4 SP is not more than half: repelled, and the infantry fires again: ceil(2 / 2) = 1 die [10.51]
    expect(log.map((e) => e.rule)).toContain('10.5');
    expect(chanceOutcomes(s)).toHaveLength(2);
    s = act(s, { k: 'c-hits', n: 0 });
    expect(top(s)).toMatchObject({ t: 'retreatTo', p: 0, from: 8 }); // back past the origin [10.52]
  });

  it('a square formed under duress halves the charge [17.12, 10.24]', () => {
    let s = act(act(act(setup(), { k: 'charge', area: 8, target: 10 }), { k: 'join', u: 'F-1cuir' }), { k: 'resolve' });
    s = act(s, { k: 'square', area: 10, on: true });
    // d6 ≤ morale 4 + Pahlen 1
    expect(chanceOutcomes(s)[0]!.p).toBeCloseTo(5 / 6, 12);
    s = act(s, { k: 'c-pass', ok: true });
    expect(unitOf(s, 'R-2inf').square).toBe(true);
    s = act(s, { k: 'c-hits', n: 0 });
    // 3 SP at −25% −50% → 1 die [10.24]
    expect(chanceOutcomes(s)).toHaveLength(2);
  });
});

describe('Eagles of the Empire Action Phase: assignment [11.0–11.29]', () => {
  it('attaches active artillery to a long counter in its area; the LC then moves 1 and carries it [11.2, 11.25]', () => {
    let s = position(0, 'assign', ['f-I'], {});
    expect(legalActions(s)).toContainEqual({ k: 'attach', u: 'F-I-art', lc: 'F-1div' });
    s = act(s, { k: 'attach', u: 'F-I-art', lc: 'F-1div' });
    expect(unitOf(s, 'F-I-art').attachedTo).toBe('F-1div');
    // one change per unit per Assignment Segment (no attach–detach cycles): nothing is left to assign, so the
    // segment passes by itself [8.14]
    expect(top(s)).toMatchObject({ seg: 'bombard' });
    expect(legalActions(s)).not.toContainEqual({ k: 'detach', u: 'F-I-art' });
    s = act(s, { k: 'next' }); // → movement
    expect(top(s)).toMatchObject({ seg: 'move' });
    expect(legalActions(s)).not.toContainEqual({ k: 'mvUnit', u: 'F-I-art' });
    s = act(s, { k: 'mvUnit', u: 'F-1div' });
    s = act(s, { k: 'to', area: 8, mode: 'normal' });
    expect(unitOf(s, 'F-I-art').area).toBe(8);
    expect(legalActions(s).filter((a) => a.k === 'to')).toEqual([]); // MA 1 with attached artillery
  });

  it('assigns reserves only while the HQ formation is active, up to its radius (+1 with the CoS) [11.1, 11.11]', () => {
    expect(legalActions(position(0, 'assign', ['f-I'], {})).some((a) => a.k === 'reserve')).toBe(false);
    let s = position(0, 'assign', ['f-hqf'], {});
    expect(legalActions(s)).toContainEqual({ k: 'reserve', u: 'G1', to: 'f-I' });
    // the French HQ radius + 1 for Berthaud with it
    const limit = sc.sides[0].hq!.radius + 1;
    for (let i = 0; i < limit; i++) s = act(s, legalActions(s).find((a) => a.k === 'reserve')!);
    expect(legalActions(s).some((a) => a.k === 'reserve')).toBe(false);
  });
});

describe('Eagles of the Empire: Reverse Slope Defence [17.2–17.24, 12.32] (A-28, A-45)', () => {
  const withRs = (s: EState, id: string): EState => ({
    ...s,
    units: s.units.map((u) => (u.id === id ? { ...u, rs: true } : u)),
  });

  it('is entered at 1 MP where the area has a slope, only by sides the scenario allows; the unit must leave it to move', () => {
    // R-1inf on the East Slope (17), which has slope boundaries to 16 and 23; the Russians may use reverse slopes
    let s = position(1, 'move', ['r-1'], {});
    expect(legalActions(s)).toContainEqual({ k: 'reverseSlope', u: 'R-1inf', on: true });
    const before = areaMoraleOf(s, 1, 17, false);
    s = act(s, { k: 'reverseSlope', u: 'R-1inf', on: true });
    expect(unitOf(s, 'R-1inf')).toMatchObject({ rs: true, mp: 1 });
    expect(areaMoraleOf(s, 1, 17, false)).toBe(before! + 1); // +1 morale to its infantry [17.22]
    expect(legalActions(s)).not.toContainEqual({ k: 'mvUnit', u: 'R-1inf' });
    expect(legalActions(s)).toContainEqual({ k: 'reverseSlope', u: 'R-1inf', on: false });
    // the French may not (allow.reverseSlope is false for them)
    const f = position(0, 'move', ['f-I'], { 'F-1div': [17, 'E'], 'R-1inf': [null, null] });
    expect(legalActions(f).some((a) => a.k === 'reverseSlope')).toBe(false);
  });

  it('takes −1 on bombardment whose line crosses the slope into its area, and ends when the unit leaves the area', () => {
    const base = position(0, 'bombard', ['f-hqf'], {
      H1: [16, 'E'],
      G1: [16, 'E'],
      H2: [null, null],
      H3: [null, null],
      G2: [null, null],
    });
    const fire = (s: EState) =>
      act(act(act(s, { k: 'fire', u: 'H1', to: 17 }), { k: 'fire', u: 'G1', to: 17 }), { k: 'shoot', cb: false });
    const plain = chanceOutcomes(fire(base)).map((o) => o.p);
    const rs = chanceOutcomes(fire(withRs(base, 'R-1inf'))).map((o) => o.p);
    expect(plain).toEqual(hitDistribution([{ n: 3, drm: 0 }]).map((p) => expect.closeTo(p, 12)));
    expect(rs).toEqual(
      hitDistribution([{ n: 3, drm: -1 }])
        .slice(0, rs.length)
        .map((p) => expect.closeTo(p, 12)),
    );
    expect(rs[0]!).toBeGreaterThan(plain[0]!);
  });
});

describe('Eagles of the Empire: Massed Column [14.7–14.78] (A-41)', () => {
  // F-3div (A4-4, long) in the Staging Ground (14); the Russian R-3inf (long) and R-jag hold Hohenwald (16), two away
  const declared = () => {
    let s = position(0, 'move', ['f-II'], {});
    expect(legalActions(s)).toContainEqual({ k: 'massedColumn', u: 'F-3div', target: 16 });
    s = act(s, { k: 'massedColumn', u: 'F-3div', target: 16 });
    s = act(s, { k: 'to', area: 15, mode: 'normal' });
    return act(s, { k: 'stop' });
  };

  it('is declared against an enemy long counter not adjacent, moves up to face it, and must assault it', () => {
    let s = declared();
    expect(unitOf(s, 'F-3div')).toMatchObject({ area: 15, mc: 16, conf: 'E' }); // front toward 16 [14.62]
    expect(legalActions(position(1, 'move', ['r-1'], {})).some((a) => a.k === 'massedColumn')).toBe(false); // Russians may not
    s = act(s, { k: 'next' });
    expect(top(s)).toMatchObject({ seg: 'assault' });
    expect(legalActions(s)).toEqual([{ k: 'assault', target: 16 }]); // no other assault, no "next" first
  });

  it('lapses when its target is empty by the Assault Segment, and other assaults stay open (A-41)', () => {
    const s0 = declared();
    const moved = {
      ...s0,
      units: s0.units.map((u) => (u.id === 'R-3inf' || u.id === 'R-jag' ? { ...u, area: 18 } : u)),
    };
    const log: GameEvent[] = [];
    const s = act(moved, { k: 'next' }, log);
    expect(unitOf(s, 'F-3div').mc).toBeNull();
    expect(log.some((e) => e.rule === '14.7' && /lapses/.test(e.text))).toBe(true);
  });

  it('resolves like a charge: the defender fires first (+1), its hits cost the column two steps each, then the column fires', () => {
    let s = act(declared(), { k: 'next' });
    s = act(s, { k: 'assault', target: 16 });
    expect(top(s)).toMatchObject({ t: 'assault', mc: true, units: ['F-3div'] });
    s = act(s, { k: 'resolve' });
    const roll = top(s) as Extract<Frame, { t: 'roll' }>;
    expect(roll).toMatchObject({ t: 'roll', rule: '14.72' });
    expect(roll.dice.every((d) => d.drm >= 1)).toBe(true); // +1 for defending infantry and artillery [14.72]
    const log: GameEvent[] = [];
    s = act(s, { k: 'c-hits', n: 1 }, log);
    expect(unitOf(s, 'F-3div').lost).toBe(2); // one hit, two steps [14.74, 14.76]
    expect(top(s)).toMatchObject({ t: 'roll', rule: '14.12' }); // now the column's fire
    s = act(s, { k: 'c-hits', n: 0 }, log);
    expect(top(s)).toMatchObject({ t: 'assault', stage: 'defChoice', atk: 'stand' }); // the column never retreats [14.75]
  });
});

describe('Eagles of the Empire: the Grand Charge [10.8–10.83] (A-21)', () => {
  function declare(): EState {
    let s = settle(initialState(sc, map), undefined);
    s = act(act(s, { k: 'c-first', winner: 0 }), { k: 'first', self: true });
    expect(legalActions(s)).toContainEqual({ k: 'grandCharge', leader: 'murand' });
    s = act(s, { k: 'grandCharge', leader: 'murand' });
    const firsts = legalActions(s);
    expect(firsts.length).toBeGreaterThan(0);
    expect(firsts.every((a) => a.k === 'gcFirst')).toBe(true);
    s = act(s, firsts[0]!);
    const targets = legalActions(s);
    expect(targets.every((a) => a.k === 'gcTarget')).toBe(true);
    s = act(s, targets[0]!);
    // join every eligible unit, then declare
    for (let a = legalActions(s).find((x) => x.k === 'join'); a; a = legalActions(s).find((x) => x.k === 'join'))
      s = act(s, a);
    return act(s, { k: 'resolve' });
  }

  it("launches on a d6 below the leader's tactical rating; a failure is a failed activation attempt", () => {
    const s = declare();
    expect(toMoveOf(s)).toEqual({ kind: 'chance' });
    // Murand is tactical 3: launched on 1–2
    expect(chanceOutcomes(s).map((o) => [o.action, o.p])).toEqual([
      [{ k: 'c-pass', ok: true }, 2 / 6],
      [{ k: 'c-pass', ok: false }, 4 / 6],
    ]);
    const failed = act(s, { k: 'c-pass', ok: false });
    expect(failed.prev).toEqual({ p: 0, failed: true });
    expect(top(failed)).toMatchObject({ t: 'attempt', p: 1 });
  });

  it('a launched Grand Charge charges from several origins with +1 on every attack die and activates no formation', () => {
    const g = top(declare()) as Extract<Frame, { t: 'gc' }>;
    const log: GameEvent[] = [];
    let s = act(declare(), { k: 'c-pass', ok: true }, log);
    const f = top(s) as Extract<Frame, { t: 'charge' }>;
    expect(f.t).toBe('charge');
    expect(f.grand).toMatchObject({ bonus: true, continued: false });
    expect(Object.keys(f.grand!.origins).sort()).toEqual([...g.units].sort());
    expect(f.via).toBe(g.first);
    expect(f.target).toBe(g.target);
    for (const id of g.units) expect(unitOf(s, id).acted).toBe('charge'); // [10.7]
    expect(s.stack.some((x) => x.t === 'phase' && x.grand)).toBe(true);
    // play the charge through (first outcome / first option) until the activation passes to the Russians
    for (let i = 0; i < 500 && !(top(s)!.t === 'attempt'); i++) {
      const tm = toMoveOf(s);
      s = act(s, tm.kind === 'chance' ? chanceOutcomes(s)[0]!.action : legalActions(s)[0]!, log);
    }
    expect(top(s)).toMatchObject({ t: 'attempt', p: 1 });
    expect(s.formations.filter((x) => x.activated)).toEqual([]);
    expect(s.stack.some((x) => x.t === 'phase')).toBe(false);
    expect(log.map((e) => e.rule)).toEqual(expect.arrayContaining(['10.8', '10.2']));
  });
});
