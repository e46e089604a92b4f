import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { loadScenario } from '../../../arena/catalog.ts';
import { sampleOutcome } from '../../../arena/dice.ts';
import { tinyState, patch } from '../../../test/moe-fixtures.ts';
import { playKeys } from '../../../test/moe-fixtures.ts';

import { marchOfEagles as game } from './index.ts';
import { policyScores } from './heuristic.ts';
import { top } from './state.ts';
import type { MoeState } from './types.ts';
import { fx } from '../../geometry/geometry.ts';

const play = playKeys;
function best(s: MoeState): string {
  const l = game.legalActions(s);
  const sc = policyScores(s, l);
  return game.actionKey(l[sc.indexOf(Math.max(...sc))]!);
}

describe('scripted tactics (heuristic)', () => {
  it('rallies a broken battalion', () => {
    const s = tinyState({
      a: [
        { id: 'A1', x: 24, y: 10 },
        { id: 'A2', x: 6, y: 4 },
      ],
      b: [{ id: 'B1', x: 24, y: 40 }],
    });
    expect(best(play(patch(s, 'A1', { brk: true }), ['roll:winner A', 'go-first self', 'activate A1']))).toBe(
      'rally A1',
    );
  });
  it('shoots a target at short range rather than walking', () => {
    const s = tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 10.8 + 6 + 0.8 }] });
    expect(best(play(s, ['roll:winner A', 'go-first self', 'activate A1']))).toBe('shoot A1 B1');
  });
  it('advances toward a distant enemy', () => {
    const s = tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 40 }] });
    expect(best(play(s, ['roll:winner A', 'go-first self', 'activate A1']))).toMatch(/^(move A1 0|form A1)$/);
  });
  it('gives defensive fire and stops a move at effective range', () => {
    const s = tinyState({
      a: [
        { id: 'A1', x: 24, y: 10, formation: 'Column' },
        { id: 'A2', x: 6, y: 4 },
      ],
      b: [
        { id: 'B1', x: 24, y: 10 + 2.4 + 8 + 0.8 },
        { id: 'B2', x: 42, y: 44 },
      ],
    });
    const df = play(s, ['roll:winner A', 'go-first self', 'activate A1', 'attack A1 B1', 'roll:pass', 'roll:sum 12']);
    expect(top(df)!.t).toBe('defFire');
    expect(best(df)).toBe('defensive-fire yes');
    const mv = play(tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 10.8 + 16 + 0.8 }] }), [
      'roll:winner A',
      'go-first self',
      'activate A1',
      'move A1 0',
      'roll:pass',
      'roll:sum 12',
    ]);
    // 16" away: the move that ends nearest 7" from the enemy (12 × ¾ = 9" → 7" left)
    expect(best(mv)).toBe('distance 9');
  });
});

describe('scenarios won on objectives (§7 scenario option)', () => {
  const s0 = tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 44 }] });
  const onObjectives = (s: MoeState, x: number, y: number): MoeState => ({
    ...s,
    ctx: { ...s.ctx, victory: 'objectives', objectives: [{ id: 'o', x: fx(x), y: fx(y) }] },
  });
  const orders = (s: MoeState) => play(s, ['roll:winner A', 'go-first self', 'activate A1']);
  it('marches a battalion with no enemy near toward an objective its side does not hold', () => {
    expect(best(orders(s0))).toBe('move A1 0'); // on battalions: straight at the enemy
    expect(best(orders(onObjectives(s0, 40, 14)))).toBe('move A1 +45'); // the objective is off to the right
  });
  it('keeps a battalion on an objective it holds', () => {
    const held = orders(onObjectives(s0, 24, 12));
    const l = game.legalActions(held);
    const sc = policyScores(held, l);
    const pass = sc[l.findIndex((a) => game.actionKey(a) === 'pass A1')]!;
    l.forEach((a, i) => {
      if (/^(move|back) /.test(game.actionKey(a))) expect(sc[i]).toBeLessThan(pass);
    });
  });
  it('values holding an objective, the more so near the last turn; not at all where battalions decide', () => {
    const held = onObjectives(s0, 24, 12);
    expect(game.evaluate(s0, 0)).toBeCloseTo(0, 12);
    expect(game.evaluate(held, 0)).toBeGreaterThan(0.2);
    expect(game.evaluate(held, 1)).toBeCloseTo(-game.evaluate(held, 0), 12);
    expect(game.evaluate({ ...held, turn: held.ctx.turns }, 0)).toBeGreaterThan(0.9);
    expect(game.evaluate({ ...held, ctx: { ...held.ctx, victory: 'battalions' } }, 0)).toBeCloseTo(0, 12);
    expect(game.evaluate(onObjectives(s0, 24, 30), 0)).toBeCloseTo(0, 12); // held by nobody
  });
});

describe('evaluation (fitted to results, §7)', () => {
  const s0 = tinyState({
    a: [
      { id: 'A1', x: 24, y: 10 },
      { id: 'A2', x: 12, y: 10 },
    ],
    b: [
      { id: 'B1', x: 24, y: 40 },
      { id: 'B2', x: 12, y: 40 },
    ],
  });
  it('is zero-sum and 0 for mirror armies', () => {
    expect(game.evaluate(s0, 0)).toBeCloseTo(0, 12);
    const hurt = patch(s0, 'B1', { dis: true });
    expect(game.evaluate(hurt, 0)).toBeCloseTo(-game.evaluate(hurt, 1), 12);
  });
  it('rises as the enemy loses men or battalions, and weighs strength more near the last turn (§7)', () => {
    const mid = { ...s0, turn: s0.ctx.turns / 2 };
    expect(game.evaluate(patch(mid, 'B1', { brk: true }), 0)).toBeGreaterThan(0.2);
    expect(game.evaluate(patch(s0, 'B1', { rk: 12, cas: 12 }), 0)).toBeGreaterThan(0.2);
    const late = { ...mid, turn: s0.ctx.turns };
    expect(game.evaluate(patch(late, 'B1', { brk: true }), 0)).toBeGreaterThan(
      game.evaluate(patch(mid, 'B1', { brk: true }), 0),
    );
    expect(game.evaluate(patch(late, 'A1', { brk: true }), 0)).toBeLessThan(-0.5);
    expect(game.evaluate(patch(late, 'B1', { brk: true }), 0)).toBeLessThan(1);
  });
  it('is asked for only at quiet positions by search: between activations, not with a volley or a test pending', () => {
    const sA = tinyState({ a: [{ id: 'A1', x: 24, y: 10 }], b: [{ id: 'B1', x: 24, y: 10.8 + 6 + 0.8 }] });
    const slot = play(sA, ['roll:winner A', 'go-first self']);
    expect(top(slot)?.t).toBe('slot');
    expect(game.quiet!(slot)).toBe(true);
    const orders = play(slot, ['activate A1']);
    expect(top(orders)?.t).toBe('orders');
    expect(game.quiet!(orders)).toBe(true);
    const volley = play(orders, ['shoot A1 B1']);
    expect(top(volley)?.t).toBe('volley');
    expect(game.quiet!(volley)).toBe(false);
    expect(game.quiet!({ ...slot, phase: 'resolve' })).toBe(false); // end-of-turn rallies and routs still to roll
    expect(game.quiet!({ ...volley, phase: 'pregame' })).toBe(true); // deployment: nothing rolled changes the count
  });
  it('is the result itself once the game is over', () => {
    expect(game.evaluate({ ...s0, result: { winner: 1 } } as MoeState, 0)).toBe(-1);
    expect(game.evaluate({ ...s0, result: { winner: -1 } } as MoeState, 1)).toBe(0);
  });
});

describe('scripted tactics with no enemy left on the table (M20_earlyEnd off)', () => {
  it('gives one finite score per action at every decision of a game played on to the last turn', () => {
    let s = tinyState({
      a: [
        { id: 'A1', x: 24, y: 10 },
        { id: 'A2', x: 10, y: 6 },
      ],
      b: [{ id: 'B1', x: 24, y: 40 }],
      turns: 2,
      options: { M20_earlyEnd: false },
    });
    s = patch(s, 'B1', { on: false, gone: 'destroyed' });
    s = play(s, ['roll:winner A', 'go-first self', 'activate A1', 'move A1 0', 'roll:pass']);
    let decisions = 0;
    for (let ply = 0; game.toMove(s).kind !== 'terminal' && ply < 500; ply++) {
      if (game.toMove(s).kind === 'chance') {
        s = game.apply(s, game.chanceOutcomes(s)[0]!.action);
        continue;
      }
      const l = game.legalActions(s);
      const sc = policyScores(s, l);
      expect(sc.length).toBe(l.length);
      expect(sc.every(Number.isFinite), `${top(s)?.t}: ${sc.join(' ')}`).toBe(true);
      decisions++;
      s = game.apply(s, l[sc.indexOf(Math.max(...sc))]!);
    }
    expect(game.toMove(s).kind).toBe('terminal');
    expect(decisions).toBeGreaterThan(3);
  });
});

describe('the scripted first choice (Game.greedyAction)', () => {
  // heuristic rollouts take greedyAction for the first of the best of policyScores over the menu: it must be that
  // action exactly, though it leaves out untested the orders that cannot be first
  it('is the first legal action with the highest score, in scripted play on every scenario', () => {
    const chosen = new Map<string, number>();
    let decisions = 0;
    for (const id of ['open-field', 'woods-walls-hill', 'farm-on-the-ridge']) {
      const { game: g, scenario } = loadScenario('march-of-eagles', id);
      for (let n = 0; n < 6; n++) {
        const rng = seedrandom.alea(`greedy-${id}-${n}`);
        let s = g.initialState(scenario) as MoeState;
        for (let ply = 0; ply < 3000; ply++) {
          const tm = g.toMove(s);
          if (tm.kind === 'terminal') break;
          if (tm.kind === 'chance') {
            s = g.applyUnchecked(s, sampleOutcome(g.chanceOutcomes(s), rng()).action) as MoeState;
            continue;
          }
          const legal = g.legalActions(s);
          const sc = policyScores(s, legal);
          let first = 0;
          for (let i = 1; i < sc.length; i++) if (sc[i]! > sc[first]!) first = i;
          const a = g.greedyAction!(s);
          expect(g.actionKey(a), `${id} game ${n} ply ${ply}`).toBe(g.actionKey(legal[first]!));
          decisions++;
          const k = a.k === 'shoot' && a.target === '-' ? 'screen' : a.k;
          if (top(s)?.t === 'orders') chosen.set(k, (chosen.get(k) ?? 0) + 1);
          if (a.k === 'screenTarget' && a.target !== '-')
            chosen.set('screen target', (chosen.get('screen target') ?? 0) + 1);
          // mostly the scripted choice, sometimes another, so that the games go everywhere
          s = g.applyUnchecked(s, rng() < 0.7 ? a : legal[Math.floor(rng() * legal.length)]!) as MoeState;
        }
      }
    }
    expect(decisions).toBeGreaterThan(2000);
    // the orders that are left out when they cannot be first were among those chosen
    expect(chosen.get('form') ?? 0).toBeGreaterThan(0);
    expect(chosen.get('shoot') ?? 0).toBeGreaterThan(0);
    expect(chosen.get('move') ?? 0).toBeGreaterThan(0);
    expect(chosen.get('screen target') ?? 0).toBeGreaterThan(0);
  });
});
