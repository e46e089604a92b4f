/**
 * The observation encoding (encoding.ts) over seeded random games on every shipped scenario and a few generated
 * ones: every cell written, finite and within [-1, 2]; deterministic; seat-symmetric (my blocks seen by one seat are
 * the opponent's blocks seen by the other); the legal actions of a decision told apart; states beyond the caps refused.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { loadScenario, scenarioIds } from '../../../arena/catalog.ts';
import { playRandomGame } from '../../../arena/random-play.ts';
import { type EScenario, eaglesOfTheEmpire as game } from './index.ts';
import { MAX_AREAS, MAX_UNITS, eaglesEncoding as enc, stateBlock } from './encoding.ts';
import type { Action, EState, Side } from './types.ts';

/** Extra cells on each side of the written range: they must stay untouched. */
const PAD = 3;

function encodeStateChecked(s: EState, p: Side): Float32Array {
  const buf = new Float32Array(enc.stateSize + 2 * PAD).fill(Number.NaN);
  enc.encodeState(s, p, buf, PAD);
  for (let i = 0; i < buf.length; i++) {
    const inside = i >= PAD && i < PAD + enc.stateSize;
    if (inside !== Number.isFinite(buf[i]!))
      throw new Error(`state cell ${i - PAD} ${inside ? 'not written or not finite' : 'written outside the range'}`);
  }
  return buf.subarray(PAD, PAD + enc.stateSize);
}

function encodeActionsChecked(s: EState, p: Side, legal: readonly Action[]): Float32Array {
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

const PAIRS = ['side', 'areas', 'units'] as const;
const PREF = enc.actionLayout.find((b) => b.name === 'preference')!;

interface Tally {
  decisions: number;
  distinct: number;
  /** A few decisions whose actions share a vector, for the failure message. */
  clashes: string[];
}

/** Every check at one decision state with at least two legal actions. */
function checkDecision(s: EState, t: Tally): void {
  enc.check!(s);
  const tm = game.toMove(s);
  if (tm.kind !== 'player') throw new Error('not a decision');
  const p = tm.player as Side;
  const legal = game.legalActions(s);
  const st = encodeStateChecked(s, p);
  inRange(st, 'state');
  const acts = encodeActionsChecked(s, p, legal);
  inRange(acts, 'actions');
  // deterministic (also after encoding the other seat's view)
  const other = encodeStateChecked(s, (1 - p) as Side);
  expect(encodeStateChecked(s, p)).toEqual(st);
  expect(encodeActionsChecked(s, p, legal)).toEqual(acts);
  // seat-symmetric: my blocks seen by p are the opponent's blocks seen by the other seat, and the reverse
  for (const name of PAIRS) {
    const mine = stateBlock(`mine: ${name}`);
    const theirs = stateBlock(`theirs: ${name}`);
    const cut = (v: Float32Array, b: typeof mine) => Array.from(v.subarray(b.offset, b.offset + b.size));
    expect(cut(st, mine), `mine: ${name}`).toEqual(cut(other, theirs));
    expect(cut(st, theirs), `theirs: ${name}`).toEqual(cut(other, mine));
  }
  // the legal actions told apart by what they are: the scripted preference block is left out (its rank alone would
  // tell any two actions apart)
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

function playAndCheck(scenario: EScenario, seed: string, t: Tally, every = 1): number {
  let n = 0;
  const r = playRandomGame(game, scenario, seedrandom.alea(seed), {
    onStep: (s, legal) => {
      if (legal < 2) return;
      if (n++ % every === 0) checkDecision(s as EState, t);
    },
  });
  return r.plies;
}

const total: Tally = { decisions: 0, distinct: 0, clashes: [] };

describe('eagles-of-the-empire/v1 encoding', () => {
  it('has contiguous, documented layouts and the caps it declares', () => {
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
    expect(enc.id).toBe('eagles-of-the-empire/v1');
    expect(enc.version).toBe(1);
    expect(stateBlock('areas').size % MAX_AREAS).toBe(0);
    expect(stateBlock('mine: units').size % MAX_UNITS).toBe(0);
    for (const name of PAIRS) expect(stateBlock(`mine: ${name}`).size).toBe(stateBlock(`theirs: ${name}`).size);
  });

  for (const id of scenarioIds('eagles-of-the-empire'))
    it(`${id}: random games encode completely, in range, deterministically and symmetrically`, () => {
      const { scenario } = loadScenario('eagles-of-the-empire', id);
      for (let g = 0; g < 3; g++) playAndCheck(scenario, `encoding/${id}/${g}`, total);
    });

  it('generated scenarios: the same, within the caps', () => {
    let played = 0;
    for (let k = 0; played < 4 && k < 20; k++) {
      const v = game.validateScenario(game.randomScenario!(seedrandom.alea(`encoding/gen/${k}`)));
      if (!v.ok) continue;
      enc.check!(game.initialState(v.value));
      playAndCheck(v.value, `encoding/gen/${k}/play`, total);
      played++;
    }
    expect(played).toBe(4);
  });

  it('tells the legal actions of at least 95% of decisions apart', () => {
    expect(total.decisions).toBeGreaterThan(500);
    const rate = total.distinct / total.decisions;
    console.log(
      `eagles-of-the-empire/v1: ${total.distinct}/${total.decisions} decisions (${(rate * 100).toFixed(2)}%) give every legal action its own vector (preference block left out)`,
    );
    expect(rate, total.clashes.join('; ')).toBeGreaterThanOrEqual(0.95);
  });

  it('refuses a state beyond its caps, naming the cap', () => {
    const { scenario } = loadScenario('eagles-of-the-empire', 'hohenwald-outposts');
    const s = game.initialState(scenario) as EState;
    const u0 = s.units.find((u) => u.side === 0)!;
    const extra = Array.from({ length: MAX_UNITS }, (_, i) => ({ ...u0, id: `${u0.id}#${i}` }));
    const big: EState = { ...s, units: [...s.units, ...extra] };
    expect(() => enc.check!(big)).toThrow(/48 unit slots per side \(MAX_UNITS\)/);
    expect(() => enc.encodeState(big, 0, new Float32Array(enc.stateSize))).toThrow(/MAX_UNITS/);
    expect(() => enc.check!(s)).not.toThrow();
  });
});
