/** Digest §10.5 worked combat, and the attack → defensive fire → combat → resolve procedure. */
import { describe, expect, it } from 'vitest';
import { B_CHARGES_AND_WINS, chargedLine, tinyState } from '../../../test/moe-fixtures.ts';
import { playKeys } from '../../../test/moe-fixtures.ts';
import { formatEvent, type GameEvent } from '../../core/game.ts';
import { marchOfEagles as game } from './index.ts';
import { combatModifier } from './combat.ts';
import { push, top, unit, upd } from './state.ts';
import type { Engagement, MoeState } from './types.ts';

const play = playKeys;

/** French Bn 1 (Drilled 24, drummer + ensign, Column) has charged British 2nd Bn (36, 2 drummers + 2 sergeants, Line) behind a hedge. */
function hedgeCombat(): MoeState {
  let s = tinyState({
    natA: 'British',
    natB: 'French',
    a: [
      { id: 'B2', rankers: 36, drummers: 2, sergeants: 2, x: 24, y: 20 },
      { id: 'BX', x: 6, y: 4 },
    ],
    b: [
      { id: 'F1', rankers: 24, drummers: 1, ensigns: 1, formation: 'Column', x: 24, y: 24 },
      { id: 'FX', x: 42, y: 44 },
    ],
    terrain: [
      {
        type: 'hedge',
        id: 'h',
        points: [
          [10, 21.2],
          [38, 21.2],
        ],
      },
    ],
  });
  const e: Engagement = {
    id: 'E1',
    att: 'F1',
    def: 'B2',
    rounds: 0,
    bonus: 'att',
    started: 1,
    joiners: [],
    fought: true,
    face: 'front',
  };
  s = { ...s, engs: [e], nEng: 1 };
  s = upd(s, 'F1', { eng: 'E1' });
  return upd(s, 'B2', { eng: 'E1' });
}

describe('[Combat process] digest §10.5', () => {
  it('French D6+13 (6 groups, +6 column charge, +2 Characters, −1 enemy in soft cover); British D6+13 (9 groups, +4 Characters)', () => {
    const s = hedgeCombat();
    const e = s.engs[0]!;
    expect(combatModifier(s, e, 'att')).toBe(13);
    expect(combatModifier(s, e, 'def')).toBe(13);
  });

  it('French 5 vs British 2: French win by 3; British take 6, fall back 2", test RESOLVE on 5+ (4+ with −1); French take 2', () => {
    let s = hedgeCombat();
    s = push(s, { t: 'combat', e: 'E1', ma: 13, md: 13 });
    const outcomes = game.chanceOutcomes(s);
    expect(outcomes.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 12);
    expect(outcomes.find((o) => o.label.startsWith('attacker wins by 3'))!.p).toBeCloseTo(6 / 36, 12); // differences 3,4,5
    const events: GameEvent[] = [];
    s = play(s, ['roll:combat A3'], events);
    // 4 British Characters at risk, each lost on 4–6
    const lost = game.chanceOutcomes(s);
    expect(lost.find((o) => game.actionKey(o.action) === 'roll:lost d0 s0 e0 o0 c0')!.p).toBeCloseTo(1 / 16, 12);
    s = play(s, ['roll:lost d1 s0 e0 o0 c0'], events);
    expect(unit(s, 'F1').rk).toBe(22);
    expect(unit(s, 'B2').rk).toBe(31); // 6 casualties: a drummer and 5 Rankers
    expect(unit(s, 'B2').drum).toBe(1);
    expect(unit(s, 'B2').y).toBe(1800); // fell back 2"
    const f = top(s)!;
    expect(f).toMatchObject({ t: 'check', u: 'B2', kind: 'resolve', need: 4, mod: -1 });
    expect(events.map(formatEvent).join('\n')).toMatch(/\[Combat process\] F1 wins by 3 or more/);
    // fail → breaks and runs 3D6 toward the south edge; the engagement ends
    s = play(s, ['roll:fail', 'roll:sum 10']);
    expect(unit(s, 'B2').brk).toBe(true);
    expect(unit(s, 'B2').y).toBe(800);
    expect(s.engs).toHaveLength(0);
  });

  it('a tie: no casualties, the combat continues without charge bonuses', () => {
    let s = push(hedgeCombat(), { t: 'combat', e: 'E1', ma: 13, md: 13 });
    s = play(s, ['roll:combat T']);
    expect(s.engs[0]!.bonus).toBe('');
    expect(unit(s, 'B2').rk).toBe(36);
    expect(combatModifier(s, s.engs[0]!, 'att')).toBe(7); // 13 − 6 charge bonus
  });

  it('the loser passes: the winner chooses to follow up (charge bonus next round) or both stand', () => {
    let s = push(hedgeCombat(), { t: 'combat', e: 'E1', ma: 13, md: 13 });
    s = play(s, ['roll:combat D', 'roll:pass']);
    expect(top(s)).toMatchObject({ t: 'followUp', p: 0, win: 'B2' });
    const up = play(s, ['follow-up yes']);
    expect(up.engs[0]!.bonus).toBe('def');
    const stand = play(s, ['follow-up no']);
    expect(stand.engs).toHaveLength(0);
    expect(unit(stand, 'B2').stand).toBe(stand.turn + 1);
    expect(unit(stand, 'F1').stand).toBe(stand.turn + 1);
  });
});

describe('[Aggression] attack procedure on a tiny table', () => {
  const base = () =>
    tinyState({
      a: [
        { id: 'A1', x: 24, y: 10, formation: 'Column' },
        { id: 'A2', x: 6, y: 4 },
      ],
      b: [
        { id: 'B1', x: 24, y: 10 + 2.4 + 8 + 0.8 },
        { id: 'B2', x: 42, y: 44 },
      ], // 8" from the column's front
    });
  function toSlot(s: MoeState): MoeState {
    return play(s, ['roll:winner A', 'go-first self']);
  }
  it('declare, BRAVERY, 3D6 charge, defensive fire declined, contact and a combat fought at once', () => {
    const events: GameEvent[] = [];
    let s = toSlot(base());
    s = play(s, ['activate A1', 'attack A1 B1', 'roll:pass', 'roll:sum 12'], events);
    expect(top(s)).toMatchObject({ t: 'defFire', p: 1 });
    s = play(s, ['defensive-fire no'], events);
    expect(top(s)!.t).toBe('combat');
    expect(unit(s, 'A1').eng).toBe('E1');
    const log = events.map(formatEvent).join('\n');
    expect(log).toMatch(/\[Aggression\] A1 declares an attack on B1's front/);
    expect(log).toMatch(/\[Aggression\] A1 passes its BRAVERY check/);
    expect(log).toMatch(/\[Combat process\] A1: D6 \+6 firing groups \+6 charge in column/);
  });
  it('a battalion charged from behind has no group that can see the attacker: no defensive fire is offered', () => {
    const rear = tinyState({
      a: [
        { id: 'A1', x: 24, y: 10, formation: 'Column' },
        { id: 'A2', x: 6, y: 4 },
      ],
      b: [
        { id: 'B1', x: 24, y: 10 + 2.4 + 8 + 0.8, facing: 0 },
        { id: 'B2', x: 42, y: 44 },
      ],
    });
    const s = play(play(rear, ['roll:winner A', 'go-first self']), [
      'activate A1',
      'attack A1 B1',
      'roll:pass',
      'roll:sum 12',
    ]);
    expect(top(s)!.t).toBe('combat');
    expect(s.engs[0]!.face).toBe('rear');
  });
  it('a short charge moves the full distance and stands next turn (not disordered if attacked)', () => {
    let s = toSlot(base());
    s = play(s, ['activate A1', 'attack A1 B1', 'roll:pass', 'roll:sum 5']);
    const a = unit(s, 'A1');
    expect(a.eng).toBe('');
    expect(a.stand).toBe(s.turn + 1);
    expect(a.standDis).toBe(false);
    expect(a.y).toBe(1500); // moved 5" straight at the target
  });
  it('defensive fire that hits makes the attacker test RESOLVE at once; a failure breaks it', () => {
    let s = toSlot(base());
    s = play(s, ['activate A1', 'attack A1 B1', 'roll:pass', 'roll:sum 12', 'defensive-fire yes', 'roll:band short']);
    const v = top(s)!;
    expect(v).toMatchObject({ t: 'volley', defensive: true, dice: 8, need: 4, mod: -1 }); // 6 groups + 2 (column) at −1
    s = play(s, ['roll:hits 3']);
    expect(top(s)).toMatchObject({ t: 'check', u: 'A1', kind: 'resolve' });
    s = play(s, ['roll:fail', 'roll:sum 9']);
    expect(unit(s, 'A1').brk).toBe(true);
    expect(unit(s, 'B1').act).toBe(true); // defensive fire used its activation (M24)
  });
  it('M20: a side left with no unbroken battalion on the table loses at once', () => {
    let s = toSlot(
      tinyState({
        a: [{ id: 'A1', x: 24, y: 10, formation: 'Column' }],
        b: [{ id: 'B1', x: 24, y: 10 + 2.4 + 8 + 0.8 }],
      }),
    );
    s = play(s, [
      'activate A1',
      'attack A1 B1',
      'roll:pass',
      'roll:sum 12',
      'defensive-fire yes',
      'roll:band short',
      'roll:hits 3',
      'roll:fail',
    ]);
    expect(game.toMove(s).kind).toBe('terminal');
    expect(game.returns(s)).toEqual([-1, 1]);
    expect(game.resultText(s)).toMatch(/Red \(B\) wins: Blue has no unbroken battalion/);
  });
});

describe('rulings where the book decides (see the ruleset README)', () => {
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
  it('[Manoeuvre] in difficult terrain only straight ahead and back are offered: an oblique is neither', () => {
    const keysAt = (terrain: unknown[]) => {
      const s = play(tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 40 }], terrain }), [
        'roll:winner A',
        'go-first self',
        'activate A1',
      ]);
      return game
        .legalActions(s)
        .map((a) => game.actionKey(a))
        .filter((k) => k.startsWith('move') || k.startsWith('back'));
    };
    expect(keysAt([wood])).toEqual(['move A1 0', 'back A1']);
    expect(keysAt([])).toEqual([
      'move A1 0',
      'move A1 -22.5',
      'move A1 +22.5',
      'move A1 -45',
      'move A1 +45',
      'back A1',
    ]);
  });
  it('[Resolve] "It takes casualties": the combat winner tests RESOLVE in the RESOLVE phase; the loser at once', () => {
    const events: GameEvent[] = [];
    let s = play(chargedLine(10), [...B_CHARGES_AND_WINS], events);
    expect(unit(s, 'B1').trig & 1).toBe(1); // took casualties
    expect(top(s)).toMatchObject({ t: 'check', u: 'A1', kind: 'resolve' });
    s = play(s, ['roll:pass', 'follow-up no'], events);
    // play on to the RESOLVE phase: the other activations pass
    for (let i = 0; i < 20 && !(top(s)?.t === 'check' && (top(s) as { u: string }).u === 'B1'); i++) {
      const keys =
        game.toMove(s).kind === 'chance'
          ? game.chanceOutcomes(s).map((o) => game.actionKey(o.action))
          : game.legalActions(s).map((a) => game.actionKey(a));
      s = play(s, [keys.find((k) => k.startsWith('pass ')) ?? keys.find((k) => k === 'sc-stay') ?? keys[0]!], events);
    }
    expect(top(s)).toMatchObject({ t: 'check', u: 'B1', kind: 'resolve' });
    s = play(s, ['roll:fail'], events);
    const log = events.map(formatEvent);
    // each RESOLVE roll is told once, and the consequence after it
    expect(log.filter((l) => /A1 (passes|fails) its RESOLVE check/.test(l))).toHaveLength(1);
    expect(log.filter((l) => /B1 (passes|fails) its RESOLVE check/.test(l))).toHaveLength(1);
    expect(log).toContain('[Resolve] B1 breaks');
  });
});
