/** Supreme Commander, joining combats, terrain on the move, interpenetration, rally, routing, pre-game, objectives. */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../arena/catalog.ts';
import { B_CHARGES_AND_WINS, chargedLine, tinyState, patch } from '../../../test/moe-fixtures.ts';
import { declineSCs, playKeys } from '../../../test/moe-fixtures.ts';

import { IN } from '../../geometry/geometry.ts';
import { marchOfEagles as game } from './index.ts';
import { combatModifier } from './combat.ts';
import { initiativeBonus } from './activation.ts';
import { objectiveHolder } from './winning.ts';
import { shotDice } from './shooting.ts';
import { allPolys } from './shape.ts';
import { top, unit, upd, push } from './state.ts';
import type { Engagement, MoeState } from './types.ts';
import { type GameEvent, formatEvent } from '../../core/game.ts';

const play = playKeys;
const keys = (s: MoeState) =>
  game.toMove(s).kind === 'chance'
    ? game.chanceOutcomes(s).map((o) => game.actionKey(o.action))
    : game.legalActions(s).map((a) => game.actionKey(a));
const start = ['roll:winner A', 'go-first self'];

describe('[Supreme Commander]', () => {
  const base = () =>
    tinyState({
      a: [
        { id: 'A1', x: 24, y: 10 },
        { id: 'A2', x: 10, y: 10 },
      ],
      b: [
        { id: 'B1', x: 24, y: 10.8 + 6 + 0.8 },
        { id: 'B2', x: 42, y: 44 },
      ],
      scA: { attach: 'A1' },
    });
  it('the battalion he is with takes no MANOEUVRE check and shoots at +1 per die; the others drop a level', () => {
    let s = play(base(), [...start, 'activate A1', 'move A1 0']);
    expect(top(s)!.t).toBe('dist'); // straight to the 2D6 roll
    const sh = shotDice(s, unit(s, 'A1'), false, unit(s, 'B1'), false, null, false)!;
    expect(sh.mod).toBe(1);
    s = play(base(), [...start, 'activate A2', 'move A2 0']);
    expect(top(s)).toMatchObject({ t: 'check', need: 5 }); // Drilled acting as Green
  });
  it('+3 in combat while attached', () => {
    const s0 = base();
    const e: Engagement = {
      id: 'E1',
      att: 'A1',
      def: 'B1',
      rounds: 1,
      bonus: '',
      started: 1,
      joiners: [],
      fought: false,
      face: 'front',
    };
    const s = { ...s0, engs: [e] };
    const log: import('../../core/game.ts').GameEvent[] = [];
    combatModifier(s, e, 'att', log);
    expect(log[0]!.text).toMatch(/\+3 Supreme Commander/);
    const alone = {
      ...s,
      sides: [{ ...s.sides[0], sc: { ...s.sides[0].sc, att: '' } }, s.sides[1]] as MoeState['sides'],
    };
    expect(combatModifier(s, e, 'att') - combatModifier(alone, e, 'att')).toBe(3);
  });
  it('killed by fire: not replaced, the army drops a level for good, his battalion tests RESOLVE, one less for initiative', () => {
    let s = base();
    expect(initiativeBonus(s, 0)).toBe(1);
    s = push(s, { t: 'charPick', u: 'A1', defensive: false, hits: 2 });
    expect(keys(s)).toEqual(['roll:char sc']); // the only Character present
    s = game.applyUnchecked(s, { k: 'c-char', which: 'sc' });
    expect(s.sides[0].scKilled).toBe(true);
    expect(unit(s, 'A1').trig & 4).toBe(4);
    expect(unit(s, 'A1').rk).toBe(23); // the other hit took a Ranker
    expect(initiativeBonus(s, 0)).toBe(0);
  });
  it('free 4D6 move at the start of a slot: join a friend in reach, then the same slot goes on', () => {
    let s = play(base(), [...start, 'sc-move', 'roll:sum 14']);
    // A2's line is 9.2" away (in reach); the point 3" behind it is 14.5" away (out of reach)
    expect(keys(s)).toEqual(['sc-stay', 'sc-behind A1', 'sc-join A2']);
    s = play(s, ['sc-join A2']);
    expect(s.sides[0].sc.att).toBe('A2');
    expect(top(s)).toMatchObject({ t: 'slot', p: 0 });
    expect(keys(s)).not.toContain('sc-move'); // once per turn
  });
});

describe('M15: the free move instead of an activation when a side has none left', () => {
  it('A, out of battalions, is offered only its Supreme Commander; then B activates the rest', () => {
    const s0 = tinyState({
      a: [{ id: 'A1', x: 24, y: 10 }],
      b: [
        { id: 'B1', x: 10, y: 40 },
        { id: 'B2', x: 38, y: 40 },
      ],
    });
    let s = play(s0, [...start, 'activate A1', 'pass A1', 'activate B1', 'pass B1']);
    expect(top(s)).toMatchObject({ t: 'slot', p: 0 });
    expect(keys(s)).toEqual(['sc-move']);
    s = play(s, ['sc-move', 'roll:sum 9', 'sc-stay']);
    expect(top(s)).toMatchObject({ t: 'slot', p: 1 });
    expect(keys(s)).toEqual(['sc-move', 'activate B2']);
  });
});

describe('[Aggression] joining an existing combat (§6.8)', () => {
  function engaged(started: number): MoeState {
    let s = tinyState({
      a: [
        { id: 'A1', x: 24, y: 20 },
        { id: 'A2', x: 40, y: 24.2, facing: 270 },
      ],
      b: [
        { id: 'B1', x: 24, y: 21.6 + 0.8, formation: 'Line' },
        { id: 'B2', x: 6, y: 44 },
      ],
    });
    const e: Engagement = {
      id: 'E1',
      att: 'A1',
      def: 'B1',
      rounds: 1,
      bonus: '',
      started,
      joiners: [],
      fought: false,
      face: 'front',
    };
    s = { ...s, engs: [e], nEng: 1 };
    s = upd(upd(s, 'A1', { eng: 'E1' }), 'B1', { eng: 'E1' });
    return s;
  }
  it('not in the turn the combat started', () => {
    const s = play({ ...engaged(1) }, [...start, 'activate A2']);
    expect(keys(s)).not.toContain('attack A2 B1');
  });
  it('into the flank: no defensive fire, the enemy is disordered, +2 counts this turn when it was the first activation', () => {
    let s = engaged(0);
    s = play(s, [...start, 'activate A2', 'attack A2 B1', 'roll:pass', 'roll:sum 12']); // 10.4" to B1's flank
    expect(top(s)!.t).toBe('slot'); // no defensive-fire decision
    expect(unit(s, 'B1').dis).toBe(true);
    expect(s.engs[0]!.joiners).toEqual([{ id: 'A2', side: 0, from: 1 }]);
    const e = s.engs[0]!;
    const withJoin = combatModifier(s, e, 'att');
    const without = combatModifier({ ...s, engs: [{ ...e, joiners: [] }] }, { ...e, joiners: [] }, 'att');
    expect(withJoin - without).toBe(2);
  });
});

describe('[Manoeuvre] terrain, obstacles and interpenetration', () => {
  it('a move that starts in difficult terrain rolls 1D6; entering woods disorders', () => {
    const wood = {
      type: 'woods',
      id: 'w',
      polygon: [
        [10, 5],
        [38, 5],
        [38, 30],
        [10, 30],
      ],
    };
    let s = tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 40 }], terrain: [wood] });
    s = play(s, [...start, 'activate A1']);
    expect(keys(s)).not.toContain('wheel A1 L'); // no wheels in difficult terrain
    s = play(s, ['move A1 0', 'roll:pass']);
    expect(top(s)).toMatchObject({ t: 'dist', n: 1 });
    s = play(s, ['roll:sum 4', 'distance 4']);
    expect(unit(s, 'A1')).toMatchObject({ y: 1400, dis: true });
  });
  it('more than half of the rolled move over difficult terrain: first die only', () => {
    const wood = {
      type: 'woods',
      id: 'w',
      polygon: [
        [10, 12],
        [38, 12],
        [38, 30],
        [10, 30],
      ],
    };
    let s = tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 44 }], terrain: [wood] });
    s = play(s, [...start, 'activate A1', 'move A1 0', 'roll:pass', 'roll:sum 8']);
    expect(top(s)).toMatchObject({ t: 'firstDie', n: 2, sum: 8 });
    expect(keys(s)).toEqual(['roll:die 2', 'roll:die 3', 'roll:die 4', 'roll:die 5', 'roll:die 6']);
    s = play(s, ['roll:die 3']);
    expect(top(s)).toMatchObject({ t: 'moveDist', allow: 300 });
  });
  it('crossing a hedge costs 1D6 and a battalion that cannot clear it stops against it', () => {
    const hedge = {
      type: 'hedge',
      id: 'h',
      points: [
        [10, 14],
        [38, 14],
      ],
    };
    let s = tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 44 }], terrain: [hedge] });
    s = play(s, [...start, 'activate A1', 'move A1 0', 'roll:pass', 'roll:sum 8']);
    expect(top(s)).toMatchObject({ t: 'obstacle' });
    s = play(s, ['roll:die 4']);
    expect(top(s)).toMatchObject({ t: 'moveDist', allow: 400 });
    // 4" left: clearing the hedge at y 14 needs 3.2" + 1.6" = 4.8", so the line stops with its front edge short of it
    expect(keys(s)).toEqual(['distance 1', 'distance 2', 'distance 3']);
    s = play(s, ['distance 3']);
    expect(unit(s, 'A1').y).toBe(1300);
  });
  it('passing through a friendly battalion disorders it (M21); ending on it is not offered', () => {
    let s = tinyState({
      a: [
        { id: 'A1', x: 24, y: 8, formation: 'Column' },
        { id: 'A2', x: 24, y: 12 },
      ],
      b: [{ id: 'B1', x: 24, y: 44 }],
    });
    s = play(s, [...start, 'activate A1', 'move A1 0', 'roll:pass', 'roll:sum 16']);
    const opts = keys(s);
    s = play(s, [opts.at(-1)!]);
    expect(unit(s, 'A1').y).toBeGreaterThan(1200 + 240);
    expect(unit(s, 'A2').dis).toBe(true);
  });
  it('the 4" separation stops a move short of the enemy', () => {
    let s = tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 10.8 + 7 + 0.8 }] });
    s = play(s, [...start, 'activate A1', 'move A1 0', 'roll:pass', 'roll:sum 12']);
    expect(keys(s).at(-1)).toBe('distance 3'); // 7" gap, 4" must remain
  });
});

describe('[Resolve] rally and routing', () => {
  it('RALLY: pass halts the battalion; it stands the next turn and reforms at its end', () => {
    let s = tinyState({
      a: [
        { id: 'A1', x: 24, y: 20 },
        { id: 'A2', x: 6, y: 4 },
      ],
      b: [
        { id: 'B1', x: 24, y: 44 },
        { id: 'B2', x: 40, y: 44 },
      ],
    });
    s = patch(s, 'A1', { brk: true, dis: true });
    s = play(s, [...start, 'activate A1', 'rally A1', 'roll:pass']);
    expect(unit(s, 'A1')).toMatchObject({ ral: true, stand: 2 });
    s = play(s, ['activate B1', 'pass B1', 'activate A2', 'pass A2', 'activate B2', 'pass B2', ...declineSCs]);
    expect(s.turn).toBe(2);
    expect(unit(s, 'A1').y).toBe(2000); // did not run in the compulsory moves
    s = play(s, ['roll:winner B', 'go-first self', 'activate B1', 'pass B1']);
    expect(keys(s)).toContain('activate A1');
    s = play(s, ['activate A1']);
    expect(keys(s)).toEqual(['pass A1']);
    s = play(s, ['pass A1', 'activate B2', 'pass B2', 'activate A2', 'pass A2', ...declineSCs]);
    expect(s.turn).toBe(3);
    expect(unit(s, 'A1')).toMatchObject({ brk: false, ral: false, dis: false, stand: 0 });
  });
  it('a broken battalion that passes runs 3D6 in the compulsory moves and leaves the table at its edge', () => {
    let s = tinyState({
      a: [
        { id: 'A1', x: 24, y: 6 },
        { id: 'A2', x: 40, y: 20 },
      ],
      b: [
        { id: 'B1', x: 24, y: 44 },
        { id: 'B2', x: 6, y: 44 },
      ],
    });
    s = patch(s, 'A1', { brk: true });
    s = play(s, [
      ...start,
      'activate A1',
      'pass A1',
      'activate B1',
      'pass B1',
      'activate A2',
      'pass A2',
      'activate B2',
      'pass B2',
      ...declineSCs,
    ]);
    expect(top(s)).toMatchObject({ t: 'run', u: 'A1' });
    s = play(s, ['roll:sum 10']);
    expect(unit(s, 'A1')).toMatchObject({ on: false, gone: 'routed' });
  });
});

describe('[Setting up a battle] the full pre-game', () => {
  it('roll-off, side choice, skirmishers for every battalion, alternate placement outside 12" of the centre line, SCs last', () => {
    const { scenario } = loadScenario('march-of-eagles', 'woods-walls-hill');
    let s = game.initialState(scenario);
    expect(top(s)!.t).toBe('rollOff');
    s = play(s, ['roll:winner B', 'side south']);
    expect(s.sides[1].edge).toBe('south');
    expect(s.sides[0].edge).toBe('north');
    const rng = seedrandom.alea('pregame');
    const frames: string[] = [];
    while (s.phase === 'pregame') {
      frames.push(top(s)!.t);
      const l = game.legalActions(s);
      s = game.apply(s, l[Math.floor(rng() * l.length)]!);
    }
    expect(frames.filter((f) => f === 'skirm')).toHaveLength(9);
    expect(frames.indexOf('firstPlacer')).toBe(9);
    expect(frames.filter((f) => f === 'place')).toHaveLength(9);
    expect(frames.slice(-2)).toEqual(['placeSC', 'placeSC']);
    for (const b of s.units) {
      expect(b.on).toBe(true);
      for (const p of allPolys(b))
        for (const c of p) {
          if (s.sides[b.side].edge === 'south') expect(c.y).toBeLessThanOrEqual(12 * IN + 1);
          else expect(c.y).toBeGreaterThanOrEqual(36 * IN - 1);
        }
    }
    expect(s.turn).toBe(1);
    expect(top(s)!.t).toBe('initRoll');
  });
});

describe('[Winning] objectives (scenario option)', () => {
  it('held by an unbroken battalion within 3" with no enemy within 3"', () => {
    const s = tinyState({ a: [{ id: 'A1', x: 24, y: 20 }], b: [{ id: 'B1', x: 24, y: 40 }] });
    expect(objectiveHolder(s, { x: 2400, y: 2300 })).toBe(0);
    expect(objectiveHolder(patch(s, 'A1', { brk: true }), { x: 2400, y: 2300 })).toBe(-1);
    expect(objectiveHolder(patch(s, 'B1', { y: 2600 }), { x: 2400, y: 2300 })).toBe(-1);
  });
});

describe('[Disorder] a close-order battalion entering difficult terrain is disordered however it got there', () => {
  const go = (s: MoeState) => play(s, ['roll:winner A', 'go-first self']);
  it('a wheel that ends in woods', () => {
    // a wood just ahead of the line's right half: wheeling left swings the right flank (and the centre) into it
    const wood = {
      type: 'woods',
      id: 'w',
      polygon: [
        [20, 11.5],
        [40, 11.5],
        [40, 20],
        [20, 20],
      ],
    };
    let s = go(tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 40 }], terrain: [wood] }));
    s = play(s, ['activate A1', 'wheel A1 L', 'roll:pass', 'roll:sum 6']);
    const angles = keys(s);
    s = play(s, [angles[angles.length - 1]!]);
    expect(unit(s, 'A1').h).not.toBe(0);
    expect(unit(s, 'A1').dis).toBe(true);
  });
  it('a charge that contacts an enemy in woods, and one that falls short after setting out from woods', () => {
    // B1 stands 1.9" inside a wood (visible: within 2" of its edge); A1's contact position is inside it
    const wood = {
      type: 'woods',
      id: 'w',
      polygon: [
        [10, 15.7],
        [38, 15.7],
        [38, 30],
        [10, 30],
      ],
    };
    let s = go(
      tinyState({
        a: [
          { id: 'A1', x: 24, y: 10 },
          { id: 'A2', x: 6, y: 4 },
        ],
        b: [
          { id: 'B1', x: 24, y: 17.6 },
          { id: 'B2', x: 42, y: 44 },
        ],
        terrain: [wood],
      }),
    );
    s = play(s, ['activate A1', 'attack A1 B1', 'roll:pass', 'roll:sum 12', 'defensive-fire no']);
    expect(unit(s, 'A1').eng).toBe('E1');
    expect(unit(s, 'A1').dis).toBe(true);
    // A1 sets out from just inside a copse (1D6) and falls short: it moved within difficult terrain
    const copse = {
      type: 'woods',
      id: 'c',
      polygon: [
        [10, 7],
        [38, 7],
        [38, 10.4],
        [10, 10.4],
      ],
    };
    s = go(
      tinyState({
        a: [
          { id: 'A1', x: 24, y: 10 },
          { id: 'A2', x: 6, y: 4 },
        ],
        b: [
          { id: 'B1', x: 24, y: 20.6 },
          { id: 'B2', x: 42, y: 44 },
        ],
        terrain: [copse],
      }),
    );
    s = play(s, ['activate A1', 'attack A1 B1', 'roll:pass', 'roll:sum 3']);
    expect(unit(s, 'A1')).toMatchObject({ eng: '', y: 1300, dis: true });
  });
  it('a fall-back into woods, and the winner following up into them', () => {
    const wood = {
      type: 'woods',
      id: 'w',
      polygon: [
        [10, 2],
        [38, 2],
        [38, 10.8],
        [10, 10.8],
      ],
    };
    const events: GameEvent[] = [];
    let s = play(chargedLine(11, [wood]), [...B_CHARGES_AND_WINS], events);
    // the loser falls back 2" straight back [Combat process], into the wood
    expect(unit(s, 'A1')).toMatchObject({ y: 900, dis: true });
    expect(unit(s, 'B1').dis).toBe(false);
    s = play(s, ['roll:pass', 'follow-up yes'], events);
    expect(unit(s, 'B1').dis).toBe(true);
    const log = events.map(formatEvent).join('\n');
    expect(log).toMatch(/\[Disorder\] A1 falls back into difficult terrain: disordered/);
    expect(log).toMatch(/\[Disorder\] B1 follows up into difficult terrain: disordered/);
  });
});
