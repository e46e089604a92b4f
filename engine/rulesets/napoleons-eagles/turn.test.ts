/**
 * Napoleon's Eagles' sequence of play [p.4-5] (in construction): the secret bids, the tie-break, the choice of A or
 * D, the 2:1 activations with the "finished" rule (A-23), and a whole game under the conformance checker. The bids are
 * sealed: two games that differ only in one side's bid give the other side byte-identical inputs until the reveal.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { checkedGames, forwardOr, kleinau, play, quick, rawScenario, scenarioOf } from '../../../test/ne-fixtures.ts';
import type { GameEvent } from '../../core/game.ts';
import { hashHex } from '../../core/hash.ts';
import { eventsFor, observationHash } from '../../core/views.ts';
import { eligible, type SeqState, victoryPoints } from './turn.ts';
import { napoleonsEagles as game } from './index.ts';

describe("Napoleon's Eagles: the period [p.4-5]", () => {
  const s0 = quick();

  it('opens with secret bids of 0 up to each side\'s turn points, every option keyed "bid N"', () => {
    expect(s0.turn).toBe(1);
    expect(s0.period).toBe(1);
    expect(game.toMove(s0)).toEqual({ kind: 'player', player: 0 });
    const bids = game.legalActions(s0);
    expect(bids).toHaveLength(s0.points[0] + 1);
    expect(bids.every((a) => /^bid \d+$/.test(a))).toBe(true);
  });

  it('both sides spend their bids; the higher chooses A or D; A activates two, D one, until A is done', () => {
    const s = play(s0, 'bid 5', 'bid 3');
    expect(s.points).toEqual([s0.points[0] - 5, s0.points[1] - 3]);
    expect(game.toMove(s)).toEqual({ kind: 'player', player: 0 });
    expect(game.legalActions(s)).toEqual(['be A', 'be D']);
    const d = play(s, 'be D'); // the winner may choose to be D: the other side is A
    expect(d.sideA).toBe(1);
    expect(game.toMove(d)).toEqual({ kind: 'player', player: 1 });
    // side A: two activations, then side D one
    const a1 = play(d, game.legalActions(d)[0]!, 'end');
    expect(game.toMove(a1)).toEqual({ kind: 'player', player: 1 });
    const a2 = play(a1, game.legalActions(a1).find((x) => x.startsWith('activate'))!, 'end');
    expect(game.toMove(a2)).toEqual({ kind: 'player', player: 0 });
    const d1 = play(a2, game.legalActions(a2)[0]!, 'end');
    expect(game.toMove(d1)).toEqual({ kind: 'player', player: 1 });
    expect(d1.units.filter((u) => u.stand)).toHaveLength(3); // unused actions became stand markers
  });

  it('equal bids go to a D6 tie-break, either side winning with probability ½', () => {
    const s = play(s0, 'bid 4', 'bid 4');
    expect(game.toMove(s).kind).toBe('chance');
    expect(game.chanceOutcomes(s).map((o) => o.p)).toEqual([0.5, 0.5]);
    const t = play(s, 'tie-break second');
    expect(game.toMove(t)).toEqual({ kind: 'player', player: 1 });
  });

  it('side A may declare "finished" only at the start of its step, once half its units have activated (A-23)', () => {
    let s = play(s0, 'bid 1', 'bid 0', 'be A');
    expect(game.legalActions(s)).not.toContain('finish'); // none activated yet
    const n = s.units.filter((u) => u.side === 0).length;
    // activate half (rounded up) of side A's units, with side D's turns between
    let done = 0;
    while (2 * done < n) {
      const who = game.toMove(s) as { player: number };
      if (who.player === 0) {
        if (s.stack.at(-1)!.t === 'pick' && game.legalActions(s).includes('finish')) break;
        s = play(s, game.legalActions(s).find((a) => a.startsWith('activate'))!, 'end');
        done++;
      } else s = play(s, game.legalActions(s).find((a) => a.startsWith('activate'))!, 'end');
    }
    while ((game.toMove(s) as { player: number }).player !== 0)
      s = play(s, game.legalActions(s).find((a) => a.startsWith('activate'))!, 'end');
    if (eligible(s, 0).length > 0) {
      expect(game.legalActions(s)).toContain('finish');
      let f = play(s, 'finish');
      // step 8: each leader moves (A-22: side A's first), here staying
      expect(f.stack.at(-1)?.t).toBe('leader');
      while (f.stack.at(-1)?.t === 'leader') f = play(f, 'stay');
      // the period ends at once (side D's unactivated units do not act) and the next one opens with bids
      expect(f.period).toBe(2);
      expect(game.legalActions(f)[0]).toBe('bid 0');
      expect(f.units.every((u) => !u.activated && !u.stand)).toBe(true);
    }
  });

  it('six periods a turn; the turn points come back each turn and unspent ones are lost [p.5]', () => {
    let s = s0;
    const rng = seedrandom.alea('periods');
    while (s.turn === 1 && !s.over) {
      const outs = game.chanceOutcomes(s);
      const acts = outs.length ? outs.map((o) => o.action) : game.legalActions(s);
      s = game.apply(s, acts[Math.floor(rng() * acts.length)]!);
    }
    expect(s.turn).toBe(2);
    expect(s.period).toBe(1);
    expect(s.points).toEqual(s.perTurn);
  });

  it('a unit moves ½ or 1 action at its rate [p.6] within its four half-actions (A-24), then ends', () => {
    const s = play(s0, 'bid 1', 'bid 0', 'be A', 'activate Q1');
    const q1 = s.units.find((u) => u.id === 'Q1')!;
    const legal = game.legalActions(s);
    // Q1: infantry, Move rating B, in column: 8" an action [p.6], 4" for half; moves stop short of other units
    expect(q1.formation).toBe('column');
    const straight = (half: string) =>
      legal
        .filter((a) => new RegExp(`^move forward ${half} [\\d.]+"$`).test(a))
        .map((a) => Number(a.split(' ')[3]!.slice(0, -1)));
    expect(straight('½')).toEqual([4]);
    expect(straight('1')[0]).toBeGreaterThan(4);
    expect(straight('1')[0]).toBeLessThanOrEqual(8);
    expect(legal).toContain('move back 1 2.00"'); // [p.7] fall back 2" an action
    expect(legal).toContain('move left 1 2.00"'); // [p.7] sidestep 2"
    const t = play(s, 'move forward ½ 4.00"');
    const moved = t.units.find((u) => u.id === 'Q1')!;
    expect(Math.hypot(moved.x - q1.x, moved.y - q1.y)).toBeCloseTo(400, 0);
    expect(moved.halves).toBe(1);
    const u = play(t, 'move back 1 2.00"', 'move back ½ 1.00"');
    expect(game.legalActions(u)).toEqual(['end']); // the budget is spent
    expect(play(u, 'end').units.find((x) => x.id === 'Q1')!.stand).toBe(false); // no action left to stand with
    const h = play(s, 'move forward ½ 4.00"', 'end');
    expect(h.units.find((x) => x.id === 'Q1')!.stand).toBe(true); // three halves left: a stand marker
  });

  it('unlimbered guns sidestep 1" an action and prolong straight forward or back a whole action [p.6-7]', () => {
    const s = play(s0, 'bid 1', 'bid 0', 'be A', 'activate QA');
    expect(game.legalActions(s).filter((a) => a.startsWith('move'))).toEqual([
      'move forward 1 2.00"', // 8-9lb foot: prolong 2"
      'move back 1 2.00"',
      'move left ½ 0.50"',
      'move left 1 1.00"',
      'move right ½ 0.50"',
      'move right 1 0.75"', // something stands close on the right: the sidestep stops short
    ]);
    expect(game.legalActions(s)).not.toContain('force march'); // [p.6] not for guns
    expect(() => game.apply(s, 'charge Q9')).toThrow(/illegal action "charge Q9"/);
  });

  it('a force march gives two more half-actions for moving only, and fatigue +2 once it is moved [p.5-6] (A-24)', () => {
    const s = play(s0, 'bid 1', 'bid 0', 'be A', 'activate Q2');
    const t = play(s, 'force march');
    // [p.5] "right after the activity was performed": not yet at the declaration
    expect(t.units.find((u) => u.id === 'Q2')).toMatchObject({ forceMarch: true, fatigue: 0, halves: 0 });
    const full = (x: SeqState) => game.legalActions(x).find((k) => /^move (forward|back|left|right) 1 /.test(k))!;
    const once = play(t, full(t));
    const u = play(once, full(once));
    expect(u.units.find((x) => x.id === 'Q2')!.halves).toBe(4);
    // the four half-actions are spent: only moving is left, with the force march's two
    expect(game.legalActions(u).every((a) => a === 'end' || a.startsWith('move') || a.startsWith('charge'))).toBe(true);
    expect(game.legalActions(u).some((a) => a.startsWith('move'))).toBe(true);
    expect(u.units.find((x) => x.id === 'Q2')!.fatigue).toBe(0);
    // the extra action moved: fatigue +2 right after it
    expect(play(u, full(u)).units.find((x) => x.id === 'Q2')).toMatchObject({ halves: 6, fatigue: 2 });
  });

  it('formation changes to the front by doctrine, facing changes by bracket, about face [p.7]', () => {
    const s = play(s0, 'bid 1', 'bid 0', 'be A', 'activate Q2');
    expect(s.units.find((u) => u.id === 'Q2')!.formation).toBe('line');
    const legal = game.legalActions(s);
    // a line turns 45° for 1 action (90° for 2, where it has room to wheel)
    expect(legal).toEqual(expect.arrayContaining(['face +45', 'face -45', 'about face']));
    expect(play(s, 'face +45').units.find((u) => u.id === 'Q2')).toMatchObject({ facing: 45, halves: 2 });
    // the French after 1807 change line to column for half an action
    const t = play(s, 'form column');
    expect(t.units.find((u) => u.id === 'Q2')).toMatchObject({ formation: 'column', halves: 1 });
    // a column turns 90° for 1 action
    expect(play(t, 'face +90').units.find((u) => u.id === 'Q2')).toMatchObject({ facing: 90, halves: 3 });
    // Q1's column has no room to form line beside the guns: not offered
    const q1 = play(s0, 'bid 1', 'bid 0', 'be A', 'activate Q1');
    expect(game.legalActions(q1)).not.toContain('form line');
  });

  it('infantry fires one or two actions at a mandatory target (A-40); the Musket Firing Table decides [p.9]', () => {
    // random play until someone fires, then the dice: exact outcomes, casualties off the target
    const rng = seedrandom.alea('fire');
    let s = s0;
    let fired = false;
    for (let ply = 0; ply < 5000 && !s.over && !fired; ply++) {
      const outs = game.chanceOutcomes(s);
      if (outs.length) {
        const top = s.stack.at(-1)!;
        if (top.t === 'fire' && top.shot.type === 'smallArms') {
          const target = top.shot.target.id;
          expect(outs.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
          const worst = outs.reduce((a, o) => (/casualt/.test(o.label ?? '') && o.p > 0 ? o : a), outs[0]!);
          const before = s.units.find((u) => u.id === target)!.figures;
          const events: GameEvent[] = [];
          const t = game.apply(s, worst.action, events);
          expect(events.some((e) => e.rule === 'p.9' && e.text.includes(`fires at ${target}`))).toBe(true);
          expect(t.units.find((u) => u.id === target)!.figures).toBeLessThanOrEqual(before);
          fired = true;
        }
        s = game.apply(s, outs[Math.floor(rng() * outs.length)]!.action);
        continue;
      }
      const acts = game.legalActions(s);
      const fire = acts.find((a) => a.startsWith('fire '));
      s = game.apply(s, forwardOr(rng, acts, fire));
    }
    expect(fired).toBe(true);
  });

  it('a unit marked by casualties checks morale at step 10 [p.11]; a retreat or rout takes effect', () => {
    const rng = seedrandom.alea('morale');
    let s = s0;
    let checked = false;
    for (let ply = 0; ply < 20_000 && !s.over && !checked; ply++) {
      const outs = game.chanceOutcomes(s);
      const top = s.stack.at(-1);
      if (top?.t === 'morale') {
        expect(outs.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
        expect(outs.map((o) => o.action)).toContain('morale pass');
        const bad = outs.find((o) => o.action === 'morale retreat') ?? outs.find((o) => o.action === 'morale rout');
        if (bad) {
          const events: GameEvent[] = [];
          const t = game.apply(s, bad.action, events);
          const u = t.units.find((x) => x.id === top.unit)!;
          expect(events.some((e) => e.rule === 'p.11' && e.text.includes(`${top.unit} checks morale`))).toBe(true);
          expect(u.marked).toBe(0);
          if (bad.action === 'morale retreat') {
            expect(u.retreating).toBe(true);
            // [p.12] its owner picks the recovery area, then the reform roll
            expect(t.stack.at(-1)).toEqual({ t: 'retreatTo', unit: top.unit });
            expect(game.legalActions(t)[0]).toBe('stand in place');
            const back = game.legalActions(t).find((k) => k.startsWith('retreat '));
            const r = game.apply(t, back ?? 'stand in place');
            expect(r.stack.at(-1)).toMatchObject({ t: 'reformRoll', unit: top.unit });
            expect(game.chanceOutcomes(r).reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
          } else expect(u.status).toBe('routed');
          checked = true;
        }
      }
      if (outs.length) {
        s = game.apply(s, outs[Math.floor(rng() * outs.length)]!.action);
        continue;
      }
      const acts = game.legalActions(s);
      const fire = acts.find((a) => a.startsWith('fire ') && a.endsWith(' 2'));
      s = game.apply(s, forwardOr(rng, acts, fire));
    }
    expect(checked).toBe(true);
  });

  it('victory points (A-79): enemy units lost 2 (guard 3), retreating at the end 1, objectives held; a margin under 3 draws', () => {
    const lost = (ids: string[], retreating: string[] = []): SeqState => ({
      ...s0,
      units: s0.units.map((u) =>
        ids.includes(u.id) ? { ...u, status: 'routed' } : retreating.includes(u.id) ? { ...u, retreating: true } : u,
      ),
    });
    const side0 = s0.units.filter((u) => u.side === 0).map((u) => u.id);
    expect(victoryPoints(lost([side0[0]!]))).toEqual([0, 2]);
    expect(victoryPoints(lost([side0[0]!], [side0[1]!]))).toEqual([0, 3]);
    expect(game.returns(lost([side0[0]!]))).toEqual([0, 0]); // 2 VP: under the draw margin of 3
    expect(game.returns(lost([side0[0]!], [side0[1]!]))).toEqual([-1, 1]);
    expect(game.resultText({ ...lost([side0[0]!], [side0[1]!]), over: true })).toMatch(
      /win on victory points, 0 to 3 \(A-79\)/,
    );
    expect(game.resultText(lost([side0[0]!], [side0[1]!]))).toMatch(/in progress .* victory points 0 to 3/);
    // a lost leader: 1 to the other side
    const leaderGone: SeqState = { ...s0, leaders: s0.leaders.map((l, i) => (i === 0 ? { ...l, lost: true } : l)) };
    expect(victoryPoints(leaderGone)).toEqual(s0.leaders[0]!.side === 0 ? [0, 1] : [1, 0]);
    // a battery whose guns were lost scores as guns lost (1), not as a unit lost (2)
    const guns: SeqState = {
      ...s0,
      units: s0.units.map((u) => (u.id === 'QA' ? { ...u, status: 'eliminated', gunsLost: true } : u)),
    };
    expect(victoryPoints(guns)).toEqual([0, 1]);
    // Kleinau: its three objectives are held by nobody at the start
    const k = kleinau();
    expect(victoryPoints(k)).toEqual([0, 0]);
  });

  it('an infantry charge [p.13]: contact ends the activation and locks both; step 9 fights it with exact dice', () => {
    const rng = seedrandom.alea('charge');
    let s = s0;
    let charged: string | null = null;
    let fought = false;
    for (let ply = 0; ply < 30_000 && !s.over && !fought; ply++) {
      const outs = game.chanceOutcomes(s);
      const top = s.stack.at(-1);
      if (top?.t === 'closeCheck' || top?.t === 'closeFight') {
        expect(outs.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
        if (top.t === 'closeFight') {
          const events: GameEvent[] = [];
          const o = outs[Math.floor(rng() * outs.length)]!;
          const t = game.apply(s, o.action, events);
          expect(events.some((e) => e.rule === 'p.13 steps 5-9')).toBe(true);
          const c = s.closes[top.close]!;
          expect(t.units.find((u) => u.id === c.charger)!.locked).toBe(false);
          fought = true;
          s = t;
          continue;
        }
      }
      if (outs.length) {
        s = game.apply(s, outs[Math.floor(rng() * outs.length)]!.action);
        continue;
      }
      const acts = game.legalActions(s);
      const charge = acts.find((a) => a.startsWith('charge '));
      if (charge) {
        const t = game.apply(s, charge);
        const id = (s.stack.at(-1) as { unit: string }).unit;
        const target = charge.slice('charge '.length);
        expect(t.units.find((u) => u.id === id)!.locked).toBe(true);
        expect(t.units.find((u) => u.id === target)!.locked).toBe(true);
        expect(t.closes.at(-1)).toMatchObject({ charger: id, defender: target });
        expect(t.stack.at(-1)?.t === 'act' && (t.stack.at(-1) as { unit: string }).unit === id).toBe(false);
        charged = id;
        s = t;
        continue;
      }
      s = game.apply(s, forwardOr(rng, acts));
    }
    expect(charged).not.toBeNull();
    expect(fought).toBe(true);
  });

  it('a battery fires canister at a target in its close band [p.8]: exact outcomes, ammunition dice [p.11]', () => {
    const s = play(s0, 'bid 1', 'bid 0', 'be A');
    const qa = s.units.find((u) => u.id === 'QA')!;
    const enemy = s.units.find((u) => u.side === 1 && u.formation !== 'skirmish')!;
    // the enemy brought 3" in front of the guns, facing them
    const near: SeqState = {
      ...s,
      units: s.units.map((u) => (u.id === enemy.id ? { ...u, x: qa.x, y: qa.y + 300 + 50, facing: 180 } : u)),
    };
    const t = play(near, 'activate QA');
    const shots = game.legalActions(t).filter((a) => a.startsWith('canister '));
    // [p.10] each with or without rapid fire (Normal fatigue)
    expect(shots).toEqual([
      `canister ${enemy.id} 1`,
      `canister ${enemy.id} 1 rapid`,
      `canister ${enemy.id} 2`,
      `canister ${enemy.id} 2 rapid`,
    ]);
    const u = play(t, `canister ${enemy.id} 2`);
    const outs = game.chanceOutcomes(u);
    expect(outs.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
    const events: GameEvent[] = [];
    game.apply(u, outs.at(-1)!.action, events);
    expect(events.find((e) => e.rule === 'p.8')?.text).toMatch(new RegExp(`QA fires canister at ${enemy.id}`));
  });

  it('close actions tire both sides; a tired unit rests one level an action [p.5]', () => {
    const s = play(s0, 'bid 1', 'bid 0', 'be A');
    const tired: SeqState = { ...s, units: s.units.map((u) => (u.id === 'Q1' ? { ...u, fatigue: 2 } : u)) };
    const t = play(tired, 'activate Q1');
    expect(game.legalActions(t)).toContain('rest');
    const r = play(t, 'rest');
    expect(r.units.find((u) => u.id === 'Q1')).toMatchObject({ fatigue: 1, halves: 2 });
    expect(game.legalActions(play(s, 'activate Q1'))).not.toContain('rest'); // nothing to recover
  });

  it("step 1: a unit beyond its commander's radius is out of command [p.16]; its moves keep to A-27", () => {
    const j = rawScenario('quick-test');
    const q2 = j.sides[0].units.find((u: { id: string }) => u.id === 'Q2');
    q2.x = 31; // Foy (with Q1 at 13") commands within 15": Q2's centre is 18" away
    const v = game.validateScenario(j);
    if (!v.ok) throw new Error(JSON.stringify(v.problems));
    const s = game.initialState(v.value);
    expect(s.units.find((u) => u.id === 'Q2')!.ooc).toBe(true);
    expect(s.units.find((u) => u.id === 'Q1')!.ooc).toBe(false);
    const t = play(s, 'bid 1', 'bid 0', 'be A', 'activate Q2');
    const moves = game.legalActions(t).filter((a) => a.startsWith('move'));
    // no move ends farther from Foy (or nearer the enemy): away from him is not offered
    expect(moves.some((a) => a.startsWith('move right'))).toBe(false);
    expect(game.legalActions(t).some((a) => a.startsWith('charge'))).toBe(false);
  });

  it('thresholds [p.11]: an army with half its units lost rolls at the next turn; failing, it concedes (A-79)', () => {
    const side0 = s0.units.filter((u) => u.side === 0).map((u) => u.id);
    let s: SeqState = {
      ...s0,
      units: s0.units.map((u) => (side0.slice(0, 2).includes(u.id) ? { ...u, status: 'routed' } : u)),
    };
    const rng = seedrandom.alea('threshold');
    while (s.stack.at(-1)?.t !== 'threshold' && !s.over) {
      // [p.11] note 1: no leader influence here (artillery.test.ts has it)
      if (s.stack.at(-1)?.t === 'thresholdInfluence') {
        s = game.apply(s, 'influence 0');
        continue;
      }
      const outs = game.chanceOutcomes(s);
      const acts = outs.length ? outs.map((o) => o.action) : game.legalActions(s);
      s = game.apply(s, acts[Math.floor(rng() * acts.length)]!);
    }
    expect(s.turn).toBe(2);
    const outs = game.chanceOutcomes(s);
    expect(outs.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
    // D20 ≤ 8 passes: 8 in 20
    expect(outs.find((o) => o.action === 'threshold pass')!.p).toBeCloseTo(8 / 20, 12);
    const t = game.apply(s, 'threshold fail');
    expect(t.over).toBe(true);
    expect(t.conceded).toBe(0);
    expect(game.returns(t)).toEqual([-1, 1]);
    expect(game.resultText(t)).toMatch(/concedes \(A-79\)/);
  });

  it('step 8: a leader joins a unit within 20" or leaves his own (A-21, A-22); command follows him', () => {
    let s = play(s0, 'bid 1', 'bid 0', 'be A');
    while (s.stack.at(-1)?.t !== 'leader') {
      const acts = game.legalActions(s);
      s = play(s, acts.includes('finish') ? 'finish' : (acts.find((a) => a.startsWith('activate')) ?? 'end'));
    }
    const id = (s.stack.at(-1) as { id: string }).id;
    const legal = game.legalActions(s);
    expect(legal[0]).toBe('stay');
    const join = legal.find((a) => a.startsWith('join '));
    expect(join).toBeDefined();
    const t = play(s, join!);
    expect(t.leaders.find((l) => l.id === id)!.attached).toBe(join!.slice(5));
  });

  it('retreat status [p.12]: the reform roll sets the recovery owed; the unit spends actions recovering', () => {
    const s = play(s0, 'bid 1', 'bid 0', 'be A');
    const back: SeqState = {
      ...s,
      units: s.units.map((u) => (u.id === 'Q1' ? { ...u, retreating: true, recovery: 2 } : u)),
    };
    const t = play(back, 'activate Q1');
    expect(game.legalActions(t)).toEqual(['recover']); // all its actions go to recovering
    const r = play(t, 'recover');
    expect(r.units.find((u) => u.id === 'Q1')).toMatchObject({ retreating: true, recovery: 1 });
    const done = play(r, 'recover');
    expect(done.units.find((u) => u.id === 'Q1')).toMatchObject({
      retreating: false,
      recovery: 0,
      formation: 'column',
    });
  });

  it('cavalry charges cavalry [p.13] at its charge distance by weight [p.6]', () => {
    const k = kleinau();
    const f5 = k.units.find((u) => u.id === 'F5')!;
    // A5 brought 6" in front of F5, facing it; everything else far from F5's path
    const near: SeqState = {
      ...k,
      units: k.units.map((u) =>
        u.id === 'A5'
          ? { ...u, x: f5.x, y: f5.y + 600 * (f5.facing === 0 ? 1 : -1), facing: (f5.facing + 180) % 360 }
          : u,
      ),
    };
    let s = near;
    // F5's side wins the bid and activates F5
    const side = f5.side;
    s = play(s, side === 0 ? 'bid 1' : 'bid 0', side === 0 ? 'bid 0' : 'bid 1', 'be A', 'activate F5');
    const charges = game.legalActions(s).filter((a) => a.startsWith('charge '));
    expect(charges).toContain('charge A5');
  });

  it('solid shot [p.8-10]: aimed at an enemy unit beyond canister range, the ball at risk to every unit on its line', () => {
    const s = play(s0, 'bid 1', 'bid 0', 'be A', 'activate QA');
    const shots = game.legalActions(s).filter((a) => a.startsWith('shot '));
    expect(shots.length).toBeGreaterThan(0);
    const t = play(s, shots.find((a) => a.endsWith(' 2'))!);
    const top = t.stack.at(-1)!;
    expect(top.t === 'fire' && top.shot.type === 'solidShot').toBe(true);
    const outs = game.chanceOutcomes(t);
    expect(outs.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
    const events: GameEvent[] = [];
    game.apply(t, outs.at(-1)!.action, events);
    expect(events.find((e) => e.rule === 'p.8')?.text).toMatch(/QA fires solid shot at /);
  });

  it('cavalry charging foot rides it down or is turned back [p.14-15]: exact over every check', () => {
    const q2 = s0.units.find((u) => u.id === 'Q2')!;
    const near: SeqState = {
      ...s0,
      units: s0.units.map((u) => (u.id === 'BC' ? { ...u, x: q2.x, y: q2.y + 700, facing: 180 } : u)),
    };
    let s = play(near, 'bid 0', 'bid 1', 'be A', 'activate BC');
    expect(game.legalActions(s)).toContain('charge Q2');
    s = play(s, 'charge Q2');
    expect(s.closes.at(-1)).toMatchObject({ charger: 'BC', defender: 'Q2', rideDown: true });
    const rng = seedrandom.alea('ride');
    while (s.stack.at(-1)?.t !== 'rideDown') {
      const acts = game.legalActions(s);
      if (!acts.length) {
        s = play(s, game.chanceOutcomes(s)[0]!.action);
        continue;
      }
      s = play(
        s,
        acts.includes('finish')
          ? 'finish'
          : (acts.find((a) => a.startsWith('activate')) ?? acts[Math.floor(rng() * acts.length)]!),
      );
    }
    const outs = game.chanceOutcomes(s);
    expect(outs.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
    // Q2 stands in line: held (1.5 infantry to a horseman) or ridden down, as the figures in contact say
    expect(outs.some((o) => /defenderRiddenDown|cavalryTurnedBack/.test(o.action))).toBe(true);
    const events: GameEvent[] = [];
    const t = game.apply(s, outs[0]!.action, events);
    expect(events.some((e) => e.rule === 'p.14' && e.text.startsWith('BC charges Q2'))).toBe(true);
    expect(t.units.find((u) => u.id === 'BC')!.locked).toBe(false);
  });

  it('a charged unit that kept its defence action may fire it at the charger [p.13 steps 3-4]', () => {
    const q2 = s0.units.find((u) => u.id === 'Q2')!;
    const b1 = s0.units.find((u) => u.id === 'B1')!;
    const near: SeqState = {
      ...s0,
      units: s0.units.map((u) => (u.id === 'B1' ? { ...u, x: q2.x, y: q2.y + 300, facing: 180 } : u)),
    };
    let s = play(near, 'bid 0', 'bid 1', 'be A', 'activate B1');
    expect(b1.side).toBe(1);
    s = play(s, 'charge Q2');
    expect(s.units.find((u) => u.id === 'Q2')).toMatchObject({ locked: true, stand: true }); // §5.4
    while (s.stack.at(-1)?.t !== 'closeCheck') {
      const acts = game.legalActions(s);
      s = play(s, acts.includes('finish') ? 'finish' : (acts.find((a) => a.startsWith('activate')) ?? acts[0]!));
    }
    s = play(s, 'defender stands');
    expect(s.stack.at(-1)).toMatchObject({ t: 'defence' });
    expect(game.legalActions(s)).toEqual(['defence fire', 'no defence action']);
    const t = play(s, 'defence fire');
    const top = t.stack.at(-1)!;
    expect(top.t === 'fire' && top.shot.type === 'smallArms' && top.shot.defence === 'infantry').toBe(true);
    expect(t.units.find((u) => u.id === 'Q2')!.stand).toBe(false);
    expect(t.stack.at(-2)).toMatchObject({ t: 'closeFight' }); // then the melee
  });

  it('a road column on the road moves 10" an action along it [p.6] (A-14: area terrain ignored)', () => {
    const k = kleinau();
    // F1 put in road column on the Kleinau road (x = 24"), clear of the guns
    const onRoad: SeqState = {
      ...k,
      units: k.units.map((u) => (u.id === 'F1' ? { ...u, x: 2400, y: 1400, formation: 'roadColumn' } : u)),
    };
    const s = play(onRoad, 'bid 1', 'bid 0', 'be A', 'activate F1');
    const road = game.legalActions(s).filter((a) => a.startsWith('road '));
    expect(road).toContain('road ½ 5.00"');
    expect(road.some((a) => /^road 1 (\d+\.\d+)"$/.test(a) && Number(a.slice(7, -1)) > 8)).toBe(true); // past the 8" column rate
  });

  it('a scenario turning on optional rules not built yet is refused, naming them; the shipped Kleinau plays', () => {
    const j = rawScenario('the-mill-at-kleinau');
    expect(() => kleinau()).not.toThrow();
    j.options.visibility = true;
    const v = game.validateScenario(j);
    if (!v.ok) throw new Error('Kleinau with visibility should validate');
    expect(() => game.initialState(v.value)).toThrow(/visibility \[p\.20\]/);
  });

  it("a unit moving into cavalry's front may be counter-charged (A-64) [p.15]", () => {
    const q2 = s0.units.find((u) => u.id === 'Q2')!;
    const near: SeqState = {
      ...s0,
      units: s0.units.map((u) => (u.id === 'BC' ? { ...u, x: q2.x, y: q2.y + 1000, facing: 180 } : u)),
    };
    let s = play(near, 'bid 1', 'bid 0', 'be A', 'activate Q2');
    const fwd = game.legalActions(s).find((a) => /^move forward ½ [\d.]+"$/.test(a))!;
    s = play(s, fwd);
    expect(s.stack.at(-1)).toEqual({ t: 'counter', cavalry: 'BC', mover: 'Q2' });
    expect(game.toMove(s)).toEqual({ kind: 'player', player: 1 });
    expect(game.legalActions(s)).toEqual(['counter-charge', 'hold']);
    s = play(s, 'counter-charge');
    // the raw morale rating, no modifiers
    const outs = game.chanceOutcomes(s);
    expect(outs.map((o) => o.action).sort()).toEqual(['counter charges', 'counter stays']);
    const t = play(s, 'counter charges');
    expect(t.closes.at(-1)).toMatchObject({ charger: 'BC', defender: 'Q2', rideDown: true });
    expect(t.units.find((u) => u.id === 'BC')).toMatchObject({ locked: true, activated: true });
    // Q2's activation is over; a full action unused became a stand marker
    expect(t.stack.some((f) => f.t === 'act' && f.unit === 'Q2')).toBe(false);
    expect(t.units.find((u) => u.id === 'Q2')).toMatchObject({ locked: true, stand: true });
    const held = play(s, 'counter stays');
    expect(held.units.find((u) => u.id === 'BC')).toMatchObject({ activated: true, halves: 2, stand: true });
  });

  for (const id of ['quick-test', 'the-mill-at-kleinau'])
    it(`${id}: random games keep the Game contract at every step, to the end`, () => {
      checkedGames(() => scenarioOf(id), id, 3);
    });
});

describe("Napoleon's Eagles: the bids are sealed until the reveal", () => {
  const s0 = quick();
  it("two games differing only in the first side's bid give the second side byte-identical inputs", () => {
    const seen = ['bid 0', 'bid 7', 'bid 20'].map((bid) => {
      const events: GameEvent[] = [];
      const s = game.apply(s0, bid, events);
      return JSON.stringify({
        legal: game.legalActions(s),
        describe: game.describeDecision!(s),
        view: game.viewAction!(s0, bid, 1),
        observation: game.observe(s, 1),
        hash: hashHex(observationHash(game, s, 1)),
        events: eventsFor(events, 1),
        hidden: game.hidden!(s, 1),
      });
    });
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).toBe(seen[0]);
    // the control: the bidder itself, and the full state's hash, do tell the bids apart
    const own = ['bid 0', 'bid 7'].map((bid) => game.viewAction!(s0, bid, 0));
    expect(own[0]).not.toBe(own[1]);
    expect(hashHex(game.hash(game.apply(s0, 'bid 0')))).not.toBe(hashHex(game.hash(game.apply(s0, 'bid 7'))));
  });
  it('the reveal names both bids', () => {
    const events: GameEvent[] = [];
    play(s0, 'bid 6');
    game.apply(game.apply(s0, 'bid 6'), 'bid 2', events);
    expect(events.map((e) => e.text).join(' ')).toMatch(/the bids are revealed: 6 and 2/);
  });
});
