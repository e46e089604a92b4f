/**
 * Napoleon's Eagles: the buildings [p.19-20] played by the registered game (index.ts): entering a block with A-72's
 * placement, moving between blocks and leaving, the step 9 block fight (the digest's B-1, as an exact distribution),
 * fire out (B-3) and fire into a block (B-4: −5, no morale mark), the morale exemption, objective blocks held by the
 * figures in them (A-79), and random games on a town table and on Kleinau under the conformance checker.
 */
import { describe, expect, it } from 'vitest';
import { checkedGames, offered, play, rawScenario, top, validated } from '../../../test/ne-fixtures.ts';
import type { GameEvent } from '../../core/game.ts';
import { resolveFire } from './fire.ts';
import { napoleonsEagles as game } from './index.ts';
import type { Scenario } from './scenario.ts';
import { type SeqState, unitOf, victoryPoints } from './turn.ts';

/**
 * Kleinau's village (V1 the mill, x 25-29 y 20-24; V2 north of it, y 24-28) with the stream, bridge and hedge taken
 * away, and a few units by it: F1 (12 figures) 0.5" south of V1, F2 (24) 2" east of V2 facing it, A3 (12, line) 0.5"
 * north of V2; F9 and A9 far off. The leaders stand close enough that everyone is in command.
 */
function townScenario(over: { f1?: number; a3?: number } = {}): Scenario {
  const j = rawScenario('the-mill-at-kleinau');
  j.id = 'town-test';
  j.terrain = j.terrain.filter((t: { id: string }) => !['T2', 'T3', 'T8'].includes(t.id));
  j.victory.objectives = j.victory.objectives.filter((o: { id: string }) => o.id !== 'obj-T3');
  j.options.leaderInitiative = false;
  const [fr, au] = j.sides;
  fr.leaders[1].x = 27;
  fr.leaders[1].y = 12;
  const inf = { kind: 'infantry', troopClass: 'line', ranks: 3, rating: 'B17C45' };
  fr.units = [
    { ...inf, id: 'F1', figures: over.f1 ?? 12, commander: 'L-F1', x: 27, y: 19.5, facing: 0, formation: 'column' },
    { ...inf, id: 'F2', figures: 24, commander: 'L-F1', x: 31, y: 26, facing: 270, formation: 'column' },
    { ...inf, id: 'F9', figures: 12, commander: 'L-F1', x: 10, y: 6, facing: 0, formation: 'column' },
  ];
  au.units = [
    {
      ...inf,
      id: 'A3',
      figures: over.a3 ?? 12,
      rating: 'B16C40',
      commander: 'L-A1',
      x: 27,
      y: 28.5,
      facing: 180,
      formation: 'column',
    },
    {
      ...inf,
      id: 'A9',
      figures: 12,
      rating: 'B16C40',
      commander: 'L-A1',
      x: 40,
      y: 33,
      facing: 180,
      formation: 'column',
    },
  ];
  return validated(j);
}

/** Applies `key`, collecting the events. */
function logged(s: SeqState, key: string): { s: SeqState; events: GameEvent[] } {
  const events: GameEvent[] = [];
  return { s: game.apply(s, key, events), events };
}
/** Plays on, with the first-listed choice (bids 0, stay, end, no defence, done), until `until` holds. */
function playUntil(s: SeqState, until: (s: SeqState) => boolean, prefer: readonly string[] = []): SeqState {
  let t = s;
  for (let n = 0; n < 500 && !until(t); n++) {
    const l = offered(t);
    const k =
      prefer.find((p) => l.includes(p)) ??
      ['bid 0', 'stay', 'end', 'no defence action', 'blocks done', 'stand in place', 'stay'].find((p) =>
        l.includes(p),
      ) ??
      l[0]!;
    t = game.apply(t, k);
  }
  if (!until(t)) throw new Error(`not reached; at ${top(t)?.t}: ${offered(t).join(', ')}`);
  return t;
}
const setUnit = (s: SeqState, id: string, patch: Record<string, unknown>): SeqState => ({
  ...s,
  units: s.units.map((u) => (u.id === id ? { ...u, ...patch } : u)),
});

/** Period 1: the French bid 1 and are side A; F1 and F9 activate, then A3, then F2, then A9 (2:1). */
function opening(sc = townScenario()) {
  const s0 = game.initialState(sc);
  return play(s0, 'bid 1', 'bid 0', 'be A', 'activate F1');
}

describe("Napoleon's Eagles: entering, moving in and leaving buildings [p.19] (A-72)", () => {
  it('infantry within 1" enters for one action with the canonical placement or eight a block; only infantry', () => {
    const s = opening(townScenario({ f1: 18 }));
    const enters = game.legalActions(s).filter((a) => a.startsWith('enter '));
    // 18 figures: 12 in the mill, 6 in the empty block next to it; or eight a block first ("eight being ideal")
    expect(enters).toEqual(['enter V1 V1:12 V2:6', 'enter V1 V1:10 V2:8']);
    const { s: t, events } = logged(s, 'enter V1 V1:12 V2:6');
    const f1 = unitOf(t, 'F1');
    expect(f1.inBlocks).toEqual({ V1: 12, V2: 6 });
    expect(f1.halves).toBe(2);
    // its body is the mill on the table: the middle of V1's north side, facing north
    expect([f1.x, f1.y, f1.facing]).toEqual([2700, 2400, 0]);
    expect(events.some((e) => e.rule === 'p.19' && e.text.includes('enters block V1'))).toBe(true);
    // in blocks: no fire, move, formation change or charge; a block move or leaving
    const menu = game.legalActions(t);
    expect(menu.filter((a) => /^(fire|move|form|face|charge|road) /.test(a))).toEqual([]);
    expect(menu).toContain('blockMove V1 V2 6');
  });

  it('a unit whose figures cannot all be placed may not enter (A-72); cavalry never enters', () => {
    // 30 figures: 12 in V2, 12 in V1, 6 left over
    const j = rawScenario('the-mill-at-kleinau');
    const s = opening(townScenario({ a3: 30 }));
    const t = play(s, 'end', 'activate F9', 'end', 'activate A3');
    expect(game.legalActions(t).some((a) => a.startsWith('enter '))).toBe(false);
    // a cavalry unit beside the mill is offered no entry
    j.sides[0].units = [
      {
        id: 'F5',
        kind: 'cavalry',
        weight: 'light',
        figures: 12,
        rating: 'A17C35',
        commander: 'L-F1',
        x: 27,
        y: 19.5,
        facing: 0,
        formation: 'column',
      },
    ];
    j.sides[0].leaders[1].y = 12;
    j.terrain = j.terrain.filter((x: { id: string }) => !['T2', 'T3', 'T8'].includes(x.id));
    j.victory.objectives = j.victory.objectives.filter((o: { id: string }) => o.id !== 'obj-T3');
    j.options.leaderInitiative = false;
    const c = play(game.initialState(validated(j)), 'bid 1', 'bid 0', 'be A', 'activate F5');
    expect(game.legalActions(c).some((a) => a.startsWith('enter '))).toBe(false);
  });

  it('moves figures to an adjacent block (1 action, up to 12, no diagonals) and leaves in column, disordered', () => {
    let s = play(opening(), 'enter V1 V1:12');
    expect(game.legalActions(s).filter((a) => a.startsWith('blockMove'))).toEqual([
      'blockMove V1 V2 12',
      'blockMove V1 V2 6',
    ]);
    s = play(s, 'blockMove V1 V2 6');
    expect(unitOf(s, 'F1').inBlocks).toEqual({ V1: 6, V2: 6 });
    expect(unitOf(s, 'F1').halves).toBe(4);
    // the next period: it leaves by the mill's south side
    s = playUntil(s, (t) => t.period === 2 && top(t)?.t === 'act' && (top(t) as { unit: string }).unit === 'F1', [
      'bid 1',
      'be A',
      'activate F1',
    ]);
    const leaves = game.legalActions(s).filter((a) => a.startsWith('leave '));
    expect(leaves).toEqual(expect.arrayContaining(['leave V1 S', 'leave V1 E', 'leave V2 E']));
    expect(leaves).not.toContain('leave V2 N'); // A3 stands there
    expect(leaves).not.toContain('leave V1 N'); // V1's north side leads into V2
    const { s: t, events } = logged(s, 'leave V1 S');
    const f1 = unitOf(t, 'F1');
    expect(f1.inBlocks).toEqual({});
    expect(f1).toMatchObject({ formation: 'column', disordered: true, facing: 180, halves: 2 });
    // its rear edge on the mill's south side (y = 20"), facing away from the block
    expect(f1.y).toBeLessThan(2000);
    expect(events.some((e) => e.rule === 'p.19' && e.text.includes('leaves the buildings'))).toBe(true);
    expect(game.legalActions(t)).toContain('reform');
  });
});

/** F1 in the mill (12), A3 in V2 (12), F2 charging V2's east side: the state at the first step 9 decision. */
function fightSetup(charge = true): SeqState {
  let s = play(opening(), 'enter V1 V1:12', 'end', 'activate F9', 'end', 'activate A3', 'enter V2 V2:12', 'end');
  s = play(s, 'activate F2');
  if (charge) {
    expect(game.legalActions(s)).toContain('charge block V2 E');
    s = play(s, 'charge block V2 E');
  } else s = play(s, 'end');
  return playUntil(s, (t) => top(t)?.t.startsWith('block') === true);
}

describe("Napoleon's Eagles: close actions in buildings [p.19] (A-73, A-74)", () => {
  it('B-1: six figures charging a block side held by 12 fight at step 9, an exact distribution over the 36 pairs', () => {
    let s = fightSetup();
    expect(unitOf(s, 'F2')).toMatchObject({ locked: true, x: 2900, y: 2600, facing: 270 });
    // the block may fire out at its charger as its defence action (A3 kept an action); it declines here
    expect(top(s)?.t).toBe('blockDefence');
    expect(game.legalActions(s)).toEqual(['defence fire out', 'no defence action']);
    s = play(s, 'no defence action');
    // the charger's step 5 check (no step 2 check for the defenders)
    expect(top(s)?.t).toBe('blockCheck');
    expect(game.chanceOutcomes(s).map((o) => o.action)).toEqual(['charger closes', 'charger fails']);
    s = play(s, 'charger closes');
    // side A's declarations: the mill may attack V2 (no: F1 stays out of it) or fire out at nothing outside
    s = playUntil(s, (t) => top(t)?.t === 'blockFight');
    // B-1: attacker 6 figures, no modifier; defender +1 in the building, +1 for 2:1 (12 to 6)
    const dist = Object.fromEntries(game.chanceOutcomes(s).map((o) => [o.action, o.p * 36]));
    const near = Object.fromEntries(Object.entries(dist).map(([k, v]) => [k, Math.round(v * 1e9) / 1e9]));
    expect(near).toEqual({
      'block attacker wins, losses 0/0': 3,
      'block attacker wins, losses 0/2': 3,
      'block defender wins, losses 0/0': 22,
      'block defender wins, losses 0/2': 2,
      'block defender wins, losses 2/0': 5,
      'block defender wins, losses 2/2': 1,
    });
    const { s: held, events } = logged(s, 'block defender wins, losses 2/0');
    expect(events.some((e) => e.rule === 'p.19' && /defender \+1 defenderInBuilding, \+1 twoToOne/.test(e.text))).toBe(
      true,
    );
    // the charger lost two figures and stays outside (R7); the defenders hold
    expect(unitOf(held, 'F2')).toMatchObject({ figures: 22, inBlocks: {} });
    expect(unitOf(held, 'A3').inBlocks).toEqual({ V2: 12 });
  });

  it('a won block: the defenders pushed out of the town retreat (R9); the charger advances only if it fits (R8)', () => {
    let s = play(fightSetup(), 'no defence action', 'charger closes');
    s = playUntil(s, (t) => top(t)?.t === 'blockFight');
    s = play(s, 'block attacker wins, losses 0/2');
    // A3's 10 figures cannot go into the French-held mill: out of the town, so the whole unit retreats [p.19]
    expect(unitOf(s, 'A3')).toMatchObject({ figures: 10, inBlocks: {}, retreating: true, formation: 'column' });
    expect(top(s)).toEqual({ t: 'retreatTo', unit: 'A3' });
    // F2's 24 figures would need 12 more places beside V2 (the mill is full): A-72 refuses, so no advance is offered
    expect(unitOf(s, 'F2').inBlocks).toEqual({});
  });

  it('figures in a block attack the adjacent block at step 9 (no "in building" bonus) and advance into it', () => {
    let s = fightSetup(false);
    expect(top(s)).toEqual({ t: 'blockDeclare', p: 0 });
    expect(game.legalActions(s)).toEqual(['attack V1 V2 6', 'blocks done']);
    s = play(s, 'attack V1 V2 6', 'blocks done');
    s = playUntil(s, (t) => top(t)?.t === 'blockFight');
    // 6 against 12: the defender's +1 for 2:1 only; the attacker wins on a face 2 more than the defender's
    const p = Object.fromEntries(game.chanceOutcomes(s).map((o) => [o.action, Math.round(o.p * 36 * 1e9) / 1e9]));
    expect(p['block attacker wins, losses 0/0']! + p['block attacker wins, losses 0/2']!).toBe(10);
    s = play(s, 'block attacker wins, losses 0/0');
    expect(game.legalActions(s)).toEqual(['advance', 'stay']);
    s = play(s, 'advance');
    expect(unitOf(s, 'F1').inBlocks).toEqual({ V1: 6, V2: 6 });
    expect(unitOf(s, 'A3')).toMatchObject({ inBlocks: {}, retreating: true });
  });

  it('B-3: a block of 8+ figures fires out within 6" at step 9 (a 6 on one D6: two casualties); 7 cannot', () => {
    let s = fightSetup(false);
    // the French (side A) have nothing outside the town in the Austrians' reach; the Austrians' V2 may fire at F2
    s = playUntil(s, (t) => top(t)?.t === 'blockDeclare' && (top(t) as { p: number }).p === 1);
    expect(game.legalActions(s)).toContain('fire out V2 F2');
    s = play(s, 'fire out V2 F2');
    expect(top(s)?.t).toBe('fire');
    const out = game.chanceOutcomes(s);
    expect(out.map((o) => o.p)).toEqual([5 / 6, 1 / 6]);
    const hit = out.find((o) => o.p === 1 / 6)!.action;
    const { s: t, events } = logged(s, hit);
    expect(unitOf(t, 'F2').figures).toBe(22);
    expect(events.some((e) => e.rule === 'p.19' && e.text.includes('out of the block at F2'))).toBe(true);
    // once a period: no second fire out from V2
    expect(game.legalActions(t).filter((a) => a.startsWith('fire out V2'))).toEqual([]);
    // seven figures in the block: no fire out
    let u = fightSetup(false);
    u = setUnit(u, 'A3', { figures: 7, inBlocks: { V2: 7 } });
    u = playUntil(u, (t) => t.period === 2 || (top(t)?.t === 'blockDeclare' && (top(t) as { p: number }).p === 1));
    expect(game.legalActions(u).filter((a) => a.startsWith('fire out'))).toEqual([]);
  });

  it('B-4: fire into a block is normal fire at −5, its casualties from the block, and gives no morale mark', () => {
    let s = play(opening(), 'enter V1 V1:12', 'end', 'activate F9', 'end', 'activate A3', 'enter V2 V2:12', 'end');
    // F2 in line: 24 figures, two actions (48 on the table at −5)
    s = play(setUnit(play(s, 'activate F2'), 'F2', { formation: 'line' }), 'fire A3 2');
    const f = top(s);
    if (f?.t !== 'fire') throw new Error('no fire frame');
    const r = resolveFire(f.shot, s.sc.options);
    const mods = r.rolls.flatMap((x) => x.modifiers.map((m) => [m.id, m.value]));
    expect(mods).toContainEqual(['buildings', -5]);
    // the worst outcome for A3: its figures come out of V2, and it is not marked [p.19]
    const t = game
      .chanceOutcomes(s)
      .map((o) => game.apply(s, o.action))
      .sort((x, y) => unitOf(x, 'A3').figures - unitOf(y, 'A3').figures)[0]!;
    const a3 = unitOf(t, 'A3');
    expect(a3.figures).toBeLessThan(12);
    expect(a3.inBlocks).toEqual({ V2: a3.figures });
    expect(a3.marked).toBe(0);
  });
});

describe("Napoleon's Eagles: buildings, morale and objectives [p.19] (A-79)", () => {
  it('a marked unit in buildings takes no morale check at step 10; the same unit in the open does', () => {
    const at10 = (inside: boolean) => {
      let s = play(opening(), 'enter V1 V1:12', 'end', 'activate F9', 'end', 'activate A3');
      s = inside ? play(s, 'enter V2 V2:12') : s;
      s = setUnit(s, 'A3', { marked: 1 });
      const events: GameEvent[] = [];
      let t = s;
      for (let n = 0; n < 300 && !(top(t)?.t === 'morale' || t.period === 2); n++) {
        const l = offered(t);
        const k = ['end', 'bid 0', 'stay', 'no defence action', 'blocks done'].find((p) => l.includes(p)) ?? l[0]!;
        t = game.apply(t, k, events);
      }
      return { t, events };
    };
    const inside = at10(true);
    expect(inside.t.period).toBe(2);
    expect(unitOf(inside.t, 'A3').marked).toBe(0);
    expect(inside.events.some((e) => e.rule === 'p.19' && e.text.includes('A3 is in buildings: exempt'))).toBe(true);
    const outside = at10(false);
    expect(top(outside.t)).toEqual({ t: 'morale', unit: 'A3' });
  });

  it('an objective block is held by the side with figures in it, not by units beside it', () => {
    let s = play(opening(), 'enter V1 V1:12', 'end', 'activate F9', 'end', 'activate A3', 'end');
    s = playUntil(s, (t) => t.period === 2);
    // F1 in the mill holds it; A3, 0.5" from V2 but outside it, does not hold V2
    expect(s.held).toMatchObject({ 'obj-V1': 0, 'obj-V2': -1 });
    expect(victoryPoints(s)).toEqual([2, 0]);
  });
});

describe("Napoleon's Eagles: buildings in whole games (the conformance checker)", () => {
  const runs: [string, () => Scenario, number][] = [
    ['the town table', () => townScenario(), 6],
    ['Kleinau', () => validated(rawScenario('the-mill-at-kleinau')), 4],
  ];
  for (const [name, sc, games] of runs)
    it(`${name}: random and scripted games keep the Game contract to the end`, { timeout: 120_000 }, () => {
      checkedGames(sc, `town/${name}`, games, (g) => (g % 2 ? ['heuristic', 'random'] : ['random', 'random']));
    });
});
