/**
 * The scripted player (heuristic.ts): one finite score per legal action at every decision, the tactics it is meant to
 * show, and its strength: the argmax of its scores against a uniformly random player, 20 seeded games per scenario
 * and seat.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { policyScores } from './heuristic.ts';
import { ageOfEagles as game } from './index.ts';
import type { Scenario } from './scenario.ts';
import { unitOf, updUnit } from './state.ts';
import type { Action, AoeState, Frame, Side } from './types.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'age-of-eagles');

function load(id: string): Scenario {
  const v = game.validateScenario(JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8')));
  if (!v.ok) throw new Error(JSON.stringify(v.problems));
  return v.value;
}

const argmax = (xs: readonly number[]): number => {
  let b = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i]! > xs[b]!) b = i;
  return b;
};

function sample(s: AoeState, rng: () => number): Action {
  const o = game.chanceOutcomes(s);
  let r = rng();
  for (let k = 0; k < o.length - 1; k++) {
    r -= o[k]!.p;
    if (r < 0) return o[k]!.action;
  }
  return o[o.length - 1]!.action;
}

/** One game: `seat` plays the heuristic's argmax, the other seat uniformly random; every score checked finite. */
function play(sc: Scenario, seat: Side, seed: string): { winner: number; decisions: number } {
  const rng = seedrandom.alea(seed);
  let s = game.initialState(sc);
  let decisions = 0;
  for (let ply = 0; ply < 20_000; ply++) {
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') return { winner: s.result?.winner ?? -1, decisions };
    if (tm.kind === 'chance') {
      s = game.apply(s, sample(s, rng));
      continue;
    }
    const legal = game.legalActions(s);
    if (tm.player === seat) {
      const sc2 = policyScores(s, legal);
      if (sc2.length !== legal.length || !sc2.every(Number.isFinite))
        throw new Error(`${s.stack[s.stack.length - 1]?.t}: scores ${sc2.join(' ')} for ${legal.length} actions`);
      decisions++;
      s = game.apply(s, legal[argmax(sc2)]!);
    } else s = game.apply(s, legal[Math.floor(rng() * legal.length)]!);
  }
  throw new Error(`${seed}: no end in 20000 plies`);
}

/** `s` with `f` on top of its stack (to ask for the scores of a decision the engine may not reach by itself). */
const withTop = (s: AoeState, f: Frame): AoeState => ({ ...s, stack: [...s.stack, f] });

describe('Age of Eagles scripted player', () => {
  const qt = game.initialState(load('quick-test'));

  it('forms square when charged by cavalry, and countercharges with cavalry', () => {
    const sq = policyScores(withTop(qt, { t: 'react', p: 1, u: 'A2', by: 'FC' }), [{ a: 'square' }, { a: 'noSquare' }]);
    expect(sq[0]).toBeGreaterThan(sq[1]!);
    const cc = policyScores(withTop(qt, { t: 'react', p: 1, u: 'AC', by: 'FC' }), [
      { a: 'countercharge' },
      { a: 'stand' },
    ]);
    expect(cc[0]).toBeGreaterThan(cc[1]!);
  });

  it('never prefers holding fire, and fires at the most damaging target', () => {
    // FA (6 light guns) with two targets: the one in March Column at short range beats one in Line far off
    let s = updUnit(qt, 'A2', { x: 1900, y: 1500, f: 'MarchColumn' } as Partial<AoeState['units'][number]>);
    s = withTop(s, { t: 'fireTarget', p: 0, u: 'FA' });
    const acts: Action[] = [{ a: 'fire', target: 'A3' }, { a: 'fire', target: 'A2' }, { a: 'holdFire' }];
    const sc = policyScores(s, acts);
    expect(sc[1]).toBeGreaterThan(sc[0]!);
    expect(Math.min(sc[0]!, sc[1]!)).toBeGreaterThan(sc[2]!);
  });

  it('rallies a silenced battery first, and ends the March phase when no unit has a useful order', () => {
    const s = withTop(updUnit(qt, 'FA', { dis: true }), { t: 'pickUnit', p: 0 });
    const acts: Action[] = ['F1', 'F2', 'FC', 'FA'].map((u) => ({ a: 'pick', u }) as Action);
    const sc = policyScores(s, [...acts, { a: 'endMarch' }]);
    expect(argmax(sc)).toBe(3);
    const order = policyScores(withTop(s, { t: 'order', p: 0, u: 'FA' }), [
      { a: 'order', order: { o: 'move' } },
      { a: 'order', order: { o: 'rally' } },
    ]);
    expect(order[1]).toBeGreaterThan(order[0]!);
    expect(unitOf(s, 'FA').dis).toBe(true);
  });

  it('charges a limbered battery in reach with heavy cavalry rather than walking', () => {
    let s = updUnit(qt, 'AB', { limbered: true } as Partial<AoeState['units'][number]>);
    s = updUnit(s, 'FC', { x: 1900, y: 2000 });
    s = withTop(s, { t: 'order', p: 0, u: 'FC' });
    const sc = policyScores(s, [
      { a: 'order', order: { o: 'move' } },
      { a: 'order', order: { o: 'charge', target: 'AB' } },
    ]);
    expect(sc[1]).toBeGreaterThan(sc[0]!);
  });

  const tally: { scenario: string; seat: Side; wins: number; games: number }[] = [];
  for (const id of ['quick-test', 'saint-aubin'])
    for (const seat of [0, 1] as const)
      it(`${id}, seat ${seat === 0 ? 'A' : 'B'}: the argmax of the scores against a random player`, () => {
        const sc = load(id);
        let wins = 0;
        const n = 20;
        for (let g = 0; g < n; g++) if (play(sc, seat, `heuristic/${id}/${seat}/${g}`).winner === seat) wins++;
        tally.push({ scenario: id, seat, wins, games: n });
        console.log(`heuristic vs random, ${id} seat ${seat === 0 ? 'A' : 'B'}: ${wins}/${n} wins`);
        // every scenario and seat well above a random player's share of wins (draws count as not won)
        expect(wins / n).toBeGreaterThanOrEqual(0.5);
      });

  it('wins at least 80% of all those games', () => {
    const wins = tally.reduce((t, x) => t + x.wins, 0);
    const games = tally.reduce((t, x) => t + x.games, 0);
    console.log(`heuristic vs random overall: ${wins}/${games} (${((100 * wins) / games).toFixed(1)}%)`);
    expect(games).toBe(80);
    expect(wins / games).toBeGreaterThanOrEqual(0.8);
  });
});
