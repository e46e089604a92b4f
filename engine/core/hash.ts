/**
 * 64-bit structural Zobrist-style hashing of plain, immutable state data.
 *
 * A hash is a pair of uint32 halves. Every feature of a state — a (field name, value) pair inside an object, an
 * (index, value) pair inside an array — contributes `mix(key(field) , hash(value))`, and an object's hash is the
 * XOR of its features, so it does not depend on property order. Keys come from a fixed-seed generator
 * (splitmix32 over the field name), so hashes are identical across processes, runs and machines.
 *
 * Incremental by structural sharing: states are immutable, so the hash of every sub-object is cached in a
 * WeakMap; `apply` copies only the parts that change, and only those are rehashed. Debug mode
 * (`setHashDebug(true)` or EAGLES_HASH_DEBUG=1 in drivers) recomputes from scratch and compares.
 *
 * What is hashed: every own enumerable property of plain objects and arrays, numbers (by their float64 bits),
 * strings, booleans, null. `undefined`-valued properties are skipped, so `{a: undefined}` equals `{}`.
 * Changing HASH_VERSION or the seed is a deliberate, versioned change: golden values are pinned in tests.
 */

export const HASH_VERSION = 1;
const SEED = 0x45a61e5; // fixed seed for every key table

export interface Hash64 {
  readonly hi: number;
  readonly lo: number;
}

/** splitmix32-style finaliser: a bijective 32-bit mix. */
function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const strCache = new Map<string, Hash64>();

/** Hash a string into 64 bits (two independent 32-bit lanes, seeded). */
export function hashString(s: string): Hash64 {
  const c = strCache.get(s);
  if (c) return c;
  let a = SEED ^ 0x9e3779b9;
  let b = SEED ^ 0x7f4a7c15;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    a = Math.imul(a ^ ch, 0x01000193);
    b = Math.imul(b ^ ch, 0x5bd1e995) ^ (b >>> 15);
  }
  const r = { hi: fmix(a ^ s.length), lo: fmix(b + 0x632be5ab) };
  if (strCache.size < 100_000) strCache.set(s, r);
  return r;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

function hashNumber(n: number): Hash64 {
  if (Number.isInteger(n) && n >= -0x80000000 && n <= 0x7fffffff) {
    return { hi: fmix((n ^ 0x3c6ef372) >>> 0), lo: fmix((n + 0x1b873593) >>> 0) };
  }
  f64[0] = n;
  return { hi: fmix(u32[1]! ^ 0xa54ff53a), lo: fmix(u32[0]! ^ 0x510e527f) };
}

/** Combine a feature key with a value hash (order-sensitive in its two arguments). */
function mix(k: Hash64, v: Hash64): Hash64 {
  const hi = fmix((k.hi ^ Math.imul(v.lo, 0x27d4eb2f)) + v.hi);
  const lo = fmix((k.lo ^ Math.imul(v.hi, 0x165667b1)) + v.lo + 0x9e3779b9);
  return { hi, lo };
}

const TRUE: Hash64 = hashString('\u0001true');
const FALSE: Hash64 = hashString('\u0001false');
const NULL: Hash64 = hashString('\u0001null');
const ARRAY_TAG: Hash64 = hashString('\u0001array');
const OBJECT_TAG: Hash64 = hashString('\u0001object');
const indexKeys: Hash64[] = [];
function indexKey(i: number): Hash64 {
  let k = indexKeys[i];
  if (!k) {
    k = hashString('\u0002#' + i);
    indexKeys[i] = k;
  }
  return k;
}

const cache = new WeakMap<object, Hash64>();
let debug = false;

export function setHashDebug(on: boolean): void {
  debug = on;
}

function compute(v: unknown, useCache: boolean): Hash64 {
  switch (typeof v) {
    case 'number':
      return hashNumber(v);
    case 'string':
      return hashString(v);
    case 'boolean':
      return v ? TRUE : FALSE;
    case 'undefined':
      return NULL;
    case 'object': {
      if (v === null) return NULL;
      if (useCache) {
        const c = cache.get(v);
        if (c) return c;
      }
      let hi: number;
      let lo: number;
      if (Array.isArray(v)) {
        hi = ARRAY_TAG.hi ^ v.length;
        lo = ARRAY_TAG.lo;
        for (let i = 0; i < v.length; i++) {
          const m = mix(indexKey(i), compute(v[i], useCache));
          hi ^= m.hi;
          lo ^= m.lo;
        }
      } else {
        hi = OBJECT_TAG.hi;
        lo = OBJECT_TAG.lo;
        const o = v as Record<string, unknown>;
        for (const k in o) {
          const x = o[k];
          if (x === undefined) continue;
          const m = mix(hashString(k), compute(x, useCache));
          hi ^= m.hi;
          lo ^= m.lo;
        }
      }
      const r = { hi: hi >>> 0, lo: lo >>> 0 };
      if (useCache) cache.set(v, r);
      return r;
    }
    default:
      throw new Error(`hash: cannot hash a value of type ${typeof v}`);
  }
}

/** Hash any plain data value. Objects must not be mutated after they are first hashed. */
export function hashValue(v: unknown): Hash64 {
  const h = compute(v, true);
  if (debug) {
    const fresh = compute(v, false);
    if (fresh.hi !== h.hi || fresh.lo !== h.lo) {
      throw new Error(
        `hash: incremental hash ${hashHex(h)} differs from full recomputation ${hashHex(fresh)}: a hashed object was mutated`,
      );
    }
  }
  return h;
}

/** Recompute a hash ignoring every cached sub-hash. */
export function hashValueFresh(v: unknown): Hash64 {
  return compute(v, false);
}

export function hashHex(h: Hash64): string {
  return h.hi.toString(16).padStart(8, '0') + h.lo.toString(16).padStart(8, '0');
}

export function hashEquals(a: Hash64, b: Hash64): boolean {
  return a.hi === b.hi && a.lo === b.lo;
}
