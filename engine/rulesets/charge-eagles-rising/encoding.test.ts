/**
 * The observation encoding (encoding.ts) over seeded random games on both scenarios: the layouts are contiguous and
 * their sizes match; every state is encoded for both seats, and at decisions every cell is written, finite, within
 * [-1, 2], deterministic and seat-symmetric (test/encoding-checks.ts), with the legal actions mostly told apart; every
 * legal action of a few hundred random plies encodes without NaN; two games that differ only in side A's S1 orders give
 * side B identical encodings until S2 (C7), while A's own orders show in its view; unknown keys are "other"; states
 * beyond the caps are refused by name.
 */
import { readFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { type Tally, checkEncodingAt, expectContiguousLayouts } from '../../../test/encoding-checks.ts';
import { ACTION_TYPES, MAX_UNITS, actionBlock, actionType, stateBlock } from './encoding.ts';
import { chargeEaglesRising as game } from './index.ts';
import { parseScenario } from './scenario.ts';
import type { S } from './state.ts';

const enc = game.encoding!;
const scenario = (id: string) =>
  parseScenario(JSON.parse(readFileSync(`data/scenarios/charge-eagles-rising/${id}.json`, 'utf8')));
const PAIRS = ['units', 'leaders', 'commands'] as const;

const stateOf = (s: S, p: number): Float32Array => {
  const out = new Float32Array(enc.stateSize);
  enc.encodeState(s, p, out);
  return out;
};
const actionsOf = (s: S, p: number, legal: readonly string[]): Float32Array => {
  const out = new Float32Array(legal.length * enc.actionSize);
  enc.encodeActions(s, p, legal, out);
  return out;
};
const bytes = (v: Float32Array) => Buffer.from(v.buffer).toString('hex');

/** A seeded random game of at most `maxPlies`: both seats' states encoded, every `every`-th decision fully checked. */
function playAndCheck(id: string, seed: string, t: Tally, maxPlies: number, every: number): number {
  const rng = seedrandom.alea(seed);
  let s = game.initialState(scenario(id));
  let n = 0;
  let ply = 0;
  for (; ply < maxPlies; ply++) {
    for (const p of [0, 1])
      for (const x of stateOf(s, p)) if (!Number.isFinite(x)) throw new Error(`${seed} ply ${ply}: NaN`);
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') break;
    if (tm.kind === 'chance') {
      const o = game.chanceOutcomes(s);
      let r = rng();
      let k = 0;
      for (; k < o.length - 1; k++) {
        r -= o[k]!.p;
        if (r < 0) break;
      }
      s = game.apply(s, o[k]!.action);
      continue;
    }
    const legal = game.legalActions(s);
    if (legal.length >= 2 && n++ % every === 0)
      checkEncodingAt({ enc, key: (a) => a, s, p: tm.player, legal, pairs: PAIRS, tally: t });
    else
      for (const x of actionsOf(s, tm.player, legal)) if (!Number.isFinite(x)) throw new Error(`${seed}: NaN action`);
    s = game.apply(s, legal[Math.floor(rng() * legal.length)]!);
  }
  return ply;
}

const total: Tally = { decisions: 0, distinct: 0, clashes: [] };

describe('charge-eagles-rising/v1 encoding', () => {
  it('has contiguous, documented layouts whose sizes match', () => {
    expectContiguousLayouts(enc);
    expect(enc.id).toBe('charge-eagles-rising/v1');
    expect(stateBlock('mine: units').size % MAX_UNITS).toBe(0);
    for (const name of PAIRS) expect(stateBlock(`mine: ${name}`).size).toBe(stateBlock(`theirs: ${name}`).size);
    expect(actionBlock('type').size).toBe(ACTION_TYPES.length);
  });

  for (const id of ['quick-test', 'the-chapel-crossroads'])
    it(`${id}: random games encode completely, in range, deterministically and symmetrically`, () => {
      let plies = 0;
      for (let g = 0; g < 2; g++) plies += playAndCheck(id, `encoding/${id}/${g}`, total, 400, 2);
      expect(plies).toBeGreaterThan(150);
    }, 120_000);

  it('tells the legal actions of at least 95% of decisions apart', () => {
    expect(total.decisions).toBeGreaterThan(50);
    const rate = total.distinct / total.decisions;
    console.log(
      `charge-eagles-rising/v1: ${total.distinct}/${total.decisions} decisions tell every legal action apart; ${total.clashes.join('; ')}`,
    );
    expect(rate, total.clashes.join('; ')).toBeGreaterThanOrEqual(0.95);
  });

  it('[S1, C7] shows B the same until S2 whatever A wrote; A sees its own orders', () => {
    /**
     * Plays from the start to the first acceptance roll of S2, not applying it (its outcome reveals the order): A by
     * `pickA`, B its last option, chance its first outcome. B's state and action encodings at every step.
     */
    const untilReveal = (pickA: (o: readonly string[]) => string) => {
      let s = game.initialState(scenario('the-chapel-crossroads'));
      const seen: string[] = [];
      const mineA: string[] = [];
      for (let guard = 0; guard < 500; guard++) {
        seen.push(bytes(stateOf(s, 1)));
        mineA.push(bytes(stateOf(s, 0)));
        const tm = game.toMove(s);
        if (s.stack.at(-1)?.t === 'accept' || s.phase === 'S3' || tm.kind === 'terminal') break;
        let a: string;
        if (tm.kind === 'chance') a = game.chanceOutcomes(s)[0]!.action;
        else {
          const opts = game.legalActions(s);
          if (tm.player === 1) seen.push(bytes(actionsOf(s, 1, opts)));
          a = tm.player === 0 ? pickA(opts) : opts[opts.length - 1]!;
        }
        s = game.apply(s, a);
      }
      return { s, seen, mineA };
    };
    // two games in which A writes to the same commands, different orders
    const attack = untilReveal((o) => o.find((x) => / attack /.test(x)) ?? o[0]!);
    const hold = untilReveal((o) => o.find((x) => / withdraw /.test(x)) ?? o[0]!);
    expect(attack.s.stack.at(-1)?.t).toBe('accept');
    const orders = (x: typeof attack) => x.s.secret[0].orders.map((w) => `${w.to} ${w.order.type}`);
    expect(orders(attack).length).toBeGreaterThan(0);
    expect(orders(attack)).not.toEqual(orders(hold));
    expect(orders(attack).map((x) => x.split(' ')[0])).toEqual(orders(hold).map((x) => x.split(' ')[0]));
    // A's own view shows what it wrote
    expect(attack.mineA).not.toEqual(hold.mineA);
    const w = stateBlock('written');
    const cut = (s: S, p: number) => Array.from(stateOf(s, p).subarray(w.offset, w.offset + w.size));
    expect(cut(attack.s, 0)).not.toEqual(cut(hold.s, 0));
    // B's encodings, byte for byte, at every step, S1's reveal and S2's start included
    expect(attack.seen.length).toBe(hold.seen.length);
    const differ = attack.seen.findIndex((x, i) => x !== hold.seen[i]);
    expect(differ, "the first of B's inputs that differs").toBe(-1);
    expect(cut(attack.s, 1)).toEqual(cut(hold.s, 1));
  });

  it('encodes every legal action of a few hundred random plies without NaN', () => {
    for (const id of ['quick-test', 'the-chapel-crossroads']) {
      const rng = seedrandom.alea(`actions/${id}`);
      let s = game.initialState(scenario(id));
      let decisions = 0;
      for (let ply = 0; ply < 300; ply++) {
        const tm = game.toMove(s);
        if (tm.kind === 'terminal') s = game.initialState(scenario(id));
        else if (tm.kind === 'chance') {
          const o = game.chanceOutcomes(s);
          s = game.apply(s, o[Math.floor(rng() * o.length)]!.action);
        } else {
          const legal = game.legalActions(s);
          for (const p of [0, 1]) {
            const v = actionsOf(s, p, legal);
            for (let i = 0; i < v.length; i++)
              if (!Number.isFinite(v[i]!)) throw new Error(`${legal[Math.floor(i / enc.actionSize)]}: NaN`);
          }
          decisions++;
          s = game.apply(s, legal[Math.floor(rng() * legal.length)]!);
        }
      }
      expect(decisions).toBeGreaterThan(50);
    }
  }, 120_000);

  it('parses action keys by type; unknown keys are "other" and never throw', () => {
    const cases: [string, string][] = [
      ['order Q1 keep', 'order'],
      ['order Q1 attack crossing', 'order'],
      ['strategic Q1 N half column', 'strategic'],
      ['strategic Q1 road N full', 'strategic'],
      ['initiative first', 'initiative'],
      ['attach Q1-L Q1a', 'attach'],
      ['detach Q1-L', 'detach'],
      ['done', 'done'],
      ['done charges', 'done'],
      ['activate Q1', 'activate'],
      ['end activations', 'end'],
      ['hold Q1a', 'hold'],
      ['form Q1a line', 'form'],
      ['move Q1a l22 1/2 column', 'move'],
      ['fire Q1a A1a', 'fire'],
      ['return Q1a A1a', 'return'],
      ['no fire Q1a', 'no'],
      ['no op-charge', 'no'],
      ['recover Q1a', 'recover'],
      ['unblow Q1a', 'unblow'],
      ['charge Q1a A1a dq', 'charge'],
      ['charge home Q1a', 'charge'],
      ['op-charge Q1a A1a', 'op-charge'],
      ['react Q1a square', 'react'],
      ['pull up Q1a', 'pull'],
      ['take ground Q1a wheel -22.5', 'take'],
      ['exploit Q1a 7', 'exploit'],
      ['rally back Q1a', 'rally'],
      ['halt Q1a', 'halt'],
      ['something new', 'other'],
      ['', 'other'],
    ];
    for (const [key, type] of cases) expect(actionType(key), key).toBe(type);
    const s = game.initialState(scenario('quick-test'));
    const keys = cases.map(([k]) => k);
    const v = actionsOf(s, 0, keys);
    for (const x of v) expect(Number.isFinite(x)).toBe(true);
    const at = (k: string, block: string, i: number) =>
      v[keys.indexOf(k) * enc.actionSize + actionBlock(block).offset + i];
    expect(at('something new', 'type', ACTION_TYPES.indexOf('other'))).toBe(1);
    // the move: l22 (index 1), half the allowance, then column
    expect(at('move Q1a l22 1/2 column', 'move', 1)).toBe(1);
    expect(at('move Q1a l22 1/2 column', 'move', 8)).toBe(0.5);
    // double quick, done charges, take ground's wheel
    expect(at('charge Q1a A1a dq', 'flags', 6)).toBe(1);
    expect(at('done charges', 'flags', 4)).toBe(1);
    expect(at('done', 'flags', 4)).toBe(0);
    expect(at('take ground Q1a wheel -22.5', 'win', 0)).toBeCloseTo(-0.5);
    // the unit and its target by slot: Q1a is the viewer's (A's? the quick-test's first side) first unit
    const q1a = s.units
      .filter((u) => u.side === s.units.find((x) => x.id === 'Q1a')?.side)
      .findIndex((u) => u.id === 'Q1a');
    if (q1a >= 0) {
      const side0 = s.units.find((x) => x.id === 'Q1a')!.side === 0;
      expect(at('fire Q1a A1a', 'unit', (side0 ? 0 : MAX_UNITS) + q1a)).toBe(1);
    }
  });

  it('refuses a state beyond its caps, naming the cap', () => {
    const s = game.initialState(scenario('quick-test'));
    const u0 = s.units.find((u) => u.side === 0)!;
    const extra = Array.from({ length: MAX_UNITS }, (_, i) => ({ ...u0, id: `${u0.id}#${i}` }));
    const big: S = { ...s, units: [...s.units, ...extra] };
    expect(() => enc.check!(big)).toThrow(/24 unit slots per side; side 0/);
    expect(() => enc.encodeState(big, 0, new Float32Array(enc.stateSize))).toThrow(/unit slots/);
    expect(() => enc.check!(s)).not.toThrow();
  });
});
