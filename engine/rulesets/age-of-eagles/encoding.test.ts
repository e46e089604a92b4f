/**
 * The observation encoding (encoding.ts) over seeded random games on both scenarios: every cell written, finite and
 * within [-1, 2]; deterministic; seat-symmetric (my blocks seen by one seat are the opponent's blocks seen by the
 * other); the legal actions of a decision told apart; states beyond the caps refused by name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { aoeEncoding as enc, MAX_UNITS, actionBlock, stateBlock } from './encoding.ts';
import { ageOfEagles as game } from './index.ts';
import type { Scenario } from './scenario.ts';
import type { Action, AoeState, Side } from './types.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'age-of-eagles');
const SCENARIOS = ['quick-test', 'saint-aubin'];

function load(id: string): Scenario {
  const v = game.validateScenario(JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8')));
  if (!v.ok) throw new Error(JSON.stringify(v.problems));
  return v.value;
}

/** Extra cells on each side of the written range: they must stay untouched. */
const PAD = 3;

function encodeStateChecked(s: AoeState, p: Side): Float32Array {
  const buf = new Float32Array(enc.stateSize + 2 * PAD).fill(Number.NaN);
  enc.encodeState(s, p, buf, PAD);
  for (let i = 0; i < buf.length; i++) {
    const inside = i >= PAD && i < PAD + enc.stateSize;
    if (inside !== Number.isFinite(buf[i]!))
      throw new Error(`state cell ${i - PAD} ${inside ? 'not written or not finite' : 'written outside the range'}`);
  }
  return buf.subarray(PAD, PAD + enc.stateSize);
}

function encodeActionsChecked(s: AoeState, p: Side, legal: readonly Action[]): Float32Array {
  const n = legal.length * enc.actionSize;
  const buf = new Float32Array(n + 2 * PAD).fill(Number.NaN);
  enc.encodeActions(s, p, legal, buf, PAD);
  for (let i = 0; i < buf.length; i++) {
    const inside = i >= PAD && i < PAD + n;
    if (inside !== Number.isFinite(buf[i]!))
      throw new Error(`action cell ${i - PAD} ${inside ? 'not written or not finite' : 'written outside the range'}`);
  }
  return buf.subarray(PAD, PAD + n);
}

function inRange(v: Float32Array, what: string): void {
  for (let i = 0; i < v.length; i++)
    if (!(v[i]! >= -1 && v[i]! <= 2)) throw new Error(`${what} cell ${i} = ${v[i]} is outside [-1, 2]`);
}

const PAIRS = ['units', 'leaders'] as const;
const PREF = actionBlock('preference');

interface Tally {
  decisions: number;
  distinct: number;
  clashes: string[];
}

function checkDecision(s: AoeState, p: Side, legal: readonly Action[], t: Tally): void {
  enc.check!(s);
  const st = encodeStateChecked(s, p);
  inRange(st, 'state');
  const acts = encodeActionsChecked(s, p, legal);
  inRange(acts, 'actions');
  const other = encodeStateChecked(s, (1 - p) as Side);
  expect(encodeStateChecked(s, p)).toEqual(st);
  expect(encodeActionsChecked(s, p, legal)).toEqual(acts);
  for (const name of PAIRS) {
    const mine = stateBlock(`mine: ${name}`);
    const theirs = stateBlock(`theirs: ${name}`);
    const cut = (v: Float32Array, b: typeof mine) => Array.from(v.subarray(b.offset, b.offset + b.size));
    expect(cut(st, mine), `mine: ${name}`).toEqual(cut(other, theirs));
    expect(cut(st, theirs), `theirs: ${name}`).toEqual(cut(other, mine));
  }
  // told apart by what they are: the preference block is left out (its rank alone would separate any two)
  const seen = new Map<string, number>();
  let clash = '';
  for (let j = 0; j < legal.length; j++) {
    const v = Array.from(acts.subarray(j * enc.actionSize, (j + 1) * enc.actionSize));
    const key = [...v.slice(0, PREF.offset), ...v.slice(PREF.offset + PREF.size)].join(',');
    const k = seen.get(key);
    if (k !== undefined && !clash) clash = `${game.actionKey(legal[k]!)} = ${game.actionKey(legal[j]!)}`;
    seen.set(key, j);
  }
  t.decisions++;
  if (!clash) t.distinct++;
  else if (t.clashes.length < 5) t.clashes.push(`${s.stack[s.stack.length - 1]?.t}: ${clash}`);
}

/** A seeded random game, checking every `every`-th decision with two or more legal actions. */
function playAndCheck(sc: Scenario, seed: string, t: Tally, every = 1): void {
  const rng = seedrandom.alea(seed);
  let s = game.initialState(sc);
  let n = 0;
  for (let ply = 0; ply < 20_000; ply++) {
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') return;
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
    if (legal.length >= 2 && n++ % every === 0) checkDecision(s, tm.player as Side, legal, t);
    s = game.apply(s, legal[Math.floor(rng() * legal.length)]!);
  }
  throw new Error(`${seed}: no end in 20000 plies`);
}

const total: Tally = { decisions: 0, distinct: 0, clashes: [] };

describe('age-of-eagles/v1 encoding', () => {
  it('has contiguous, documented layouts', () => {
    for (const [blocks, size] of [
      [enc.stateLayout, enc.stateSize],
      [enc.actionLayout, enc.actionSize],
    ] as const) {
      let off = 0;
      for (const b of blocks) {
        expect(b.offset).toBe(off);
        expect(b.size).toBeGreaterThan(0);
        expect(b.doc.length).toBeGreaterThan(10);
        off += b.size;
      }
      expect(off).toBe(size);
    }
    expect(enc.id).toBe('age-of-eagles/v1');
    expect(stateBlock('mine: units').size % MAX_UNITS).toBe(0);
    for (const name of PAIRS) expect(stateBlock(`mine: ${name}`).size).toBe(stateBlock(`theirs: ${name}`).size);
  });

  for (const id of SCENARIOS)
    it(`${id}: random games encode completely, in range, deterministically and symmetrically`, () => {
      const sc = load(id);
      for (let g = 0; g < 3; g++) playAndCheck(sc, `encoding/${id}/${g}`, total, 2);
    });

  it('tells the legal actions of at least 95% of decisions apart', () => {
    expect(total.decisions).toBeGreaterThan(200);
    const rate = total.distinct / total.decisions;
    console.log(
      `age-of-eagles/v1: ${total.distinct}/${total.decisions} decisions (${(rate * 100).toFixed(2)}%) give every legal action its own vector (preference block left out)`,
    );
    expect(rate, total.clashes.join('; ')).toBeGreaterThanOrEqual(0.95);
  });

  it('refuses a state beyond its caps, naming the cap', () => {
    const s = game.initialState(load('quick-test'));
    const u0 = s.units.find((u) => u.side === 0)!;
    const extra = Array.from({ length: MAX_UNITS }, (_, i) => ({ ...u0, id: `${u0.id}#${i}` }));
    const big: AoeState = { ...s, units: [...s.units, ...extra] };
    expect(() => enc.check!(big)).toThrow(/16 unit slots per side; side A/);
    expect(() => enc.encodeState(big, 0, new Float32Array(enc.stateSize))).toThrow(/unit slots/);
    expect(() => enc.check!(s)).not.toThrow();
  });
});
