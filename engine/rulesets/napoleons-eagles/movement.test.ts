/**
 * Napoleon's Eagles: the movement and formation rules wired into the game [p.6-7, p.12, p.16-17], played through the
 * registered game on the shipped quick-test scenario (variants built here): the volunteer retreat [p.7] and retreats
 * by other paths than straight back (§8.3.7, A-67), the p.12 retreat example, rout moves off the table (A-69), facing
 * an enemy at any angle in a bracket (A-30), line on a flank and the refused flank [p.7], and the leaders' free moves
 * (A-21).
 */
import { describe, expect, it } from 'vitest';
import { play, quick, setUnits, top, withEvents } from '../../../test/ne-fixtures.ts';
import { napoleonsEagles as game } from './index.ts';
import { recoveryDist } from './morale.ts';
import { centreOf, footprint } from './shape.ts';
import { internals, type SeqState, unitOf } from './turn.ts';

const body = (s: SeqState, id: string) => internals.tableUnit(s, unitOf(s, id));

describe("Napoleon's Eagles: retreats [p.7, p.12]", () => {
  // Q2 (a French line, facing north) moved up to (25, 13), B1 brought 8" in front of it, B2 and BC sent more than 12"
  // off (B1 the only threat)
  const facing = () =>
    setUnits(quick(), {
      Q2: { y: 1300 },
      B1: { x: 2500, y: 2100, facing: 180 },
      B2: { x: 500, y: 2300 },
      BC: { x: 500, y: 1700, formation: 'column' },
    });

  it('a unit may volunteer to retreat instead of moving: its recovery area and reform roll (p.12)', () => {
    const s = play(facing(), 'bid 1', 'bid 0', 'be A', 'activate Q2');
    const { t, events } = withEvents(s, 'volunteer retreat');
    expect(events.some((e) => e.rule === 'p.7' && /Q2 volunteers to retreat/.test(e.text))).toBe(true);
    expect(top(t)).toEqual({ t: 'retreatTo', unit: 'Q2' });
    expect(unitOf(t, 'Q2')).toMatchObject({ retreating: true, halves: 4 });
    // stand, straight back toward the home edge, and directly away from B1 (and 30° either side: off the table
    // edge here at 20")
    const keys = game.legalActions(t);
    expect(keys).toEqual(expect.arrayContaining(['stand in place', 'retreat 4"', 'retreat away 10"']));
    const away = play(t, 'retreat away 10"');
    const q2 = unitOf(away, 'Q2');
    // B1 stands straight ahead: directly away is due south, facing the way it went
    expect(q2.facing).toBe(180);
    expect(q2.y).toBeLessThan(unitOf(s, 'Q2').y);
    // 10" is one retreat action, then the reform D6: 1-2 one action, 3-4 two, 5-6 three (B16: no modifier)
    expect(top(away)).toEqual({ t: 'reformRoll', unit: 'Q2', inches: 10 });
    expect(game.chanceOutcomes(away).map((o) => [o.action, o.p])).toEqual([
      ['reform 2', 1 / 3],
      ['reform 3', 1 / 3],
      ['reform 4', 1 / 3],
    ]);
    // its activation is over
    expect(t.stack.some((f) => f.t === 'act' && f.unit === 'Q2')).toBe(false);
  });

  it('the p.12 example: 26" is 3 retreat actions; a reform roll of 3 two more: five to recover', () => {
    const s = quick();
    const d = recoveryDist(internals.retreatInput(s, 'Q2', 26));
    expect(d.find((x) => x.value === 5)!.p).toBeCloseTo(1 / 3, 12); // a 3 or a 4
    expect(d.map((x) => x.value)).toEqual([4, 5, 6]);
  });

  it('a retreat passes through friends only when forced, disordering them', () => {
    // Q1 put right behind Q2 and QA beside: straight back and away run through a friend
    const s0 = facing();
    const q2 = unitOf(s0, 'Q2');
    const s = setUnits(s0, {
      Q1: { x: q2.x, y: q2.y - 300, facing: 0, formation: 'line' },
      B1: { x: q2.x, y: q2.y + 600, facing: 180 },
    });
    const t = play(s, 'bid 1', 'bid 0', 'be A', 'activate Q2', 'volunteer retreat');
    const keys = game.legalActions(t);
    // every move runs into Q1 (a line as wide as Q2) or off the table: offered, as forced, with Q1 disordered
    const moves = keys.filter((k) => k !== 'stand in place');
    expect(moves.length).toBeGreaterThan(0);
    const { t: after, events } = withEvents(t, moves[0]!);
    expect(unitOf(after, 'Q1').disordered).toBe(true);
    expect(events.some((e) => e.rule === 'p.12' && /forced through Q1: disordered/.test(e.text))).toBe(true);
  });
});

describe("Napoleon's Eagles: routs [p.12] (A-69)", () => {
  /** `id` fails its morale check in retreat status: it routs (the check's frame put on the stack). */
  const routs = (s: SeqState, id: string) => {
    const t = play(s, 'bid 1', 'bid 0', 'be A');
    return withEvents(
      { ...setUnits(t, { [id]: { retreating: true } }), stack: [...t.stack, { t: 'morale', unit: id }] },
      'morale rout',
    );
  };

  it('a routing unit leaves the table directly away from the enemy, disordering friends in its 3" path', () => {
    const s0 = quick();
    const q2 = unitOf(s0, 'Q2');
    // B1 due north of Q2, Q1 2" behind it: the rout runs south through Q1 to the home edge
    const s = setUnits(s0, {
      B1: { x: q2.x, y: q2.y + 600, facing: 180 },
      Q1: { x: q2.x + 100, y: q2.y - 250, facing: 0, formation: 'column' },
    });
    const { t, events } = routs(s, 'Q2');
    expect(unitOf(t, 'Q2')).toMatchObject({ status: 'routed', y: 0, facing: 180 });
    expect(unitOf(t, 'Q1').disordered).toBe(true);
    expect(unitOf(t, 'Q1').marked).toBeGreaterThan(0); // within 4": a morale check [p.12]
    expect(events.some((e) => e.rule === 'A-69' && /Q2 routs off the table.*through Q1: disordered/.test(e.text))).toBe(
      true,
    );
  });

  it('a routing unit that is surrounded surrenders (A-35)', () => {
    const s0 = quick();
    const q2 = unitOf(s0, 'Q2');
    // Q2 (a line 6" wide) hemmed in: B1 in front, B2 behind, BC across its right; the table's east edge 5" off
    const s = setUnits(s0, {
      Q2: { x: 3100, y: 1200 },
      B1: { x: 3100, y: 1200 + 250, facing: 180 },
      B2: { x: 3100, y: 1200 - 250, facing: 0, formation: 'line' },
      BC: { x: 2650, y: 1150, facing: 90, formation: 'column' },
    });
    expect(q2).toBeDefined();
    const { t, events } = routs(s, 'Q2');
    expect(unitOf(t, 'Q2').status).toBe('surrendered');
    expect(events.some((e) => e.rule === 'p.12' && /surrounded \(A-35\): it surrenders/.test(e.text))).toBe(true);
  });
});

describe("Napoleon's Eagles: facing and formations [p.7]", () => {
  it('A-30: a line may turn to face an enemy within 24" at its exact bearing, at its bracket cost', () => {
    const s0 = quick();
    const q2 = unitOf(s0, 'Q2');
    // B1 10" ahead and 6" to the right of Q2: atan(6/10) = 31° (the ≤45° bracket, one action for a line)
    const s = setUnits(s0, { B1: { x: q2.x + 600, y: q2.y + 1000, facing: 180 } });
    const t = play(s, 'bid 1', 'bid 0', 'be A', 'activate Q2');
    const key = game.legalActions(t).find((a) => /^face \+\d+ B1$/.test(a))!;
    expect(key).toBeDefined();
    const { t: u, events } = withEvents(t, key);
    const deg = Number(key.split(' ')[1]);
    expect(unitOf(u, 'Q2')).toMatchObject({ facing: deg, halves: 2 });
    const c = centreOf(body(u, 'B1'));
    expect(Math.round((Math.atan2(c.x - q2.x, c.y - q2.y) * 180) / Math.PI)).toBe(deg);
    expect(events.some((e) => e.rule === 'A-30' && e.text.includes('to face B1'))).toBe(true);
  });

  it('a column deploys into line on either flank: two actions for infantry, the line running from its corner', () => {
    // Q1 (a column of 24) moved to (12, 8), room on both sides
    const t = play(setUnits(quick(), { Q1: { x: 1200, y: 800 } }), 'bid 1', 'bid 0', 'be A', 'activate Q1');
    expect(game.legalActions(t)).toEqual(expect.arrayContaining(['form line left', 'form line right']));
    const col = body(t, 'Q1');
    const l = play(t, 'form line left');
    expect(unitOf(l, 'Q1')).toMatchObject({ formation: 'line', halves: 4, facing: 0 });
    // the line's right end at the column's front-right corner... its front-right corner is the column's front-left
    const [fl] = footprint(col);
    const [, lr] = footprint(body(l, 'Q1'));
    expect(Math.hypot(lr!.x - fl!.x, lr!.y - fl!.y)).toBeLessThan(2);
    expect(play(t, 'form line right').units.find((u) => u.id === 'Q1')!.x).toBeGreaterThan(unitOf(t, 'Q1').x);
  });

  it('a line refuses one flank for one action (¼ of its figures, rounded up), and brings it back', () => {
    const t = play(quick(), 'bid 1', 'bid 0', 'be A', 'activate Q2');
    expect(game.legalActions(t)).toEqual(expect.arrayContaining(['form refused left', 'form refused right']));
    const r = play(t, 'form refused right');
    expect(unitOf(r, 'Q2')).toMatchObject({ formation: 'line', refused: 'right', halves: 2 });
    expect(body(r, 'Q2')).toMatchObject({ formation: 'refusedFlank', refused: { side: 'right' } });
    // only back into line from there
    const keys = game.legalActions(r).filter((a) => a.startsWith('form '));
    expect(keys).toEqual(['form line']);
    const back = play(r, 'form line');
    expect(unitOf(back, 'Q2').refused).toBeUndefined();
    expect(unitOf(back, 'Q2').halves).toBe(4);
  });

  it('a battery limbers facing its front or its rear', () => {
    // QA moved up to (18, 10): room behind it
    const t = play(setUnits(quick(), { QA: { y: 1000 } }), 'bid 1', 'bid 0', 'be A', 'activate QA');
    const rear = play(t, 'form limbered rear');
    expect(unitOf(rear, 'QA')).toMatchObject({ formation: 'limbered', facing: 180 });
    expect(unitOf(play(t, 'form limbered'), 'QA')).toMatchObject({ formation: 'limbered', facing: 0 });
  });
});

describe("Napoleon's Eagles: the leaders' free moves in step 8 (A-21)", () => {
  it('a leader may ride to the centre of his command, unattached, up to 20"', () => {
    let s = play(quick(), 'bid 1', 'bid 0', 'be A');
    for (let i = 0; i < 200 && !(top(s)?.t === 'leader' && (top(s) as { id: string }).id === 'Foy'); i++) {
      const acts = game.legalActions(s);
      s = play(s, acts.includes('finish') ? 'finish' : (acts.find((a) => a.startsWith('activate')) ?? acts[0]!));
    }
    expect(game.legalActions(s)).toEqual(expect.arrayContaining(['stay', 'leave', 'go centre']));
    const { t, events } = withEvents(s, 'go centre');
    const foy = t.leaders.find((l) => l.id === 'Foy')!;
    expect(foy.attached).toBeNull();
    // the centre of Q1, Q2 and QA
    const cs = ['Q1', 'Q2', 'QA'].map((id) => centreOf(body(s, id)));
    expect(foy.x).toBeCloseTo(cs.reduce((a, p) => a + p.x, 0) / 3, -1);
    expect(foy.y).toBeCloseTo(cs.reduce((a, p) => a + p.y, 0) / 3, -1);
    expect(events.some((e) => e.rule === 'A-21' && /Foy rides to the centre of his command/.test(e.text))).toBe(true);
  });
});
