/**
 * The checks every ruleset's observation encoding passes at a decision (used by each ruleset's encoding tests): every
 * cell written and no other (NaN-filled buffers with untouched padding), finite and within [-1, 2]; deterministic
 * (also after encoding the other seat's view); seat-symmetric ("mine: X" seen by one seat is "theirs: X" seen by the
 * other, and the reverse); and the legal actions told apart by what they are (the scripted-preference block left
 * out: its rank alone would tell any two apart), tallied so a test can require a share of distinct decisions.
 */
import { expect } from 'vitest';
import type { Encoding, FeatureBlock } from '../engine/core/encoding.ts';

/** Extra cells on each side of the written range: they must stay untouched. */
const PAD = 3;

function written(buf: Float32Array, n: number, what: string): Float32Array {
  for (let i = 0; i < buf.length; i++) {
    const inside = i >= PAD && i < PAD + n;
    if (inside !== Number.isFinite(buf[i]!))
      throw new Error(`${what} cell ${i - PAD} ${inside ? 'not written or not finite' : 'written outside the range'}`);
  }
  return buf.subarray(PAD, PAD + n);
}

function encodeStateChecked<S, A>(enc: Encoding<S, A>, s: S, p: number): Float32Array {
  const buf = new Float32Array(enc.stateSize + 2 * PAD).fill(Number.NaN);
  enc.encodeState(s, p, buf, PAD);
  return written(buf, enc.stateSize, 'state');
}

function encodeActionsChecked<S, A>(enc: Encoding<S, A>, s: S, p: number, legal: readonly A[]): Float32Array {
  const n = legal.length * enc.actionSize;
  const buf = new Float32Array(n + 2 * PAD).fill(Number.NaN);
  enc.encodeActions(s, p, legal, buf, PAD);
  return written(buf, n, 'action');
}

function inRange(v: Float32Array, what: string): void {
  for (let i = 0; i < v.length; i++)
    if (!(v[i]! >= -1 && v[i]! <= 2)) throw new Error(`${what} cell ${i} = ${v[i]} is outside [-1, 2]`);
}

/** The state and action layouts tile their vectors: blocks in order from 0, none empty, each documented. */
export function expectContiguousLayouts(enc: Encoding<unknown, unknown>): void {
  for (const [blocks, size] of [
    [enc.stateLayout, enc.stateSize],
    [enc.actionLayout, enc.actionSize],
  ] as const) {
    let off = 0;
    for (const b of blocks) {
      expect(b.offset, b.name).toBe(off);
      expect(b.size, b.name).toBeGreaterThan(0);
      expect(b.doc.length, b.name).toBeGreaterThan(10);
      off += b.size;
    }
    expect(off).toBe(size);
  }
}

export interface Tally {
  decisions: number;
  distinct: number;
  /** A few decisions whose actions share a vector, for the failure message. */
  clashes: string[];
}

/** Every check at one decision of player `p` with legal actions `legal` (see the header). */
export function checkEncodingAt<S extends { readonly stack: readonly { readonly t: string }[] }, A>(o: {
  readonly enc: Encoding<S, A>;
  readonly key: (a: A) => string;
  readonly s: S;
  readonly p: number;
  readonly legal: readonly A[];
  /** The block names that come as "mine: X" and "theirs: X". */
  readonly pairs: readonly string[];
  readonly tally: Tally;
}): void {
  const { enc, s, p, legal, tally } = o;
  enc.check?.(s);
  const block = (name: string): FeatureBlock => {
    const b = enc.stateLayout.find((x) => x.name === name);
    if (!b) throw new Error(`no state block "${name}"`);
    return b;
  };
  const st = encodeStateChecked(enc, s, p);
  inRange(st, 'state');
  const acts = encodeActionsChecked(enc, s, p, legal);
  inRange(acts, 'actions');
  const other = encodeStateChecked(enc, s, 1 - p);
  expect(encodeStateChecked(enc, s, p)).toEqual(st);
  expect(encodeActionsChecked(enc, s, p, legal)).toEqual(acts);
  for (const name of o.pairs) {
    const mine = block(`mine: ${name}`);
    const theirs = block(`theirs: ${name}`);
    const cut = (v: Float32Array, b: FeatureBlock) => Array.from(v.subarray(b.offset, b.offset + b.size));
    expect(cut(st, mine), `mine: ${name}`).toEqual(cut(other, theirs));
    expect(cut(st, theirs), `theirs: ${name}`).toEqual(cut(other, mine));
  }
  const pref = enc.actionLayout.find((b) => b.name === 'preference');
  const seen = new Map<string, number>();
  let clash = '';
  for (let j = 0; j < legal.length; j++) {
    const v = Array.from(acts.subarray(j * enc.actionSize, (j + 1) * enc.actionSize));
    const key = (pref ? [...v.slice(0, pref.offset), ...v.slice(pref.offset + pref.size)] : v).join(',');
    const k = seen.get(key);
    if (k !== undefined && !clash) clash = `${o.key(legal[k]!)} = ${o.key(legal[j]!)}`;
    seen.set(key, j);
  }
  tally.decisions++;
  if (!clash) tally.distinct++;
  else if (tally.clashes.length < 5) tally.clashes.push(`${s.stack[s.stack.length - 1]?.t}: ${clash}`);
}
