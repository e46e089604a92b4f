import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hashHex, hashValue, hashValueFresh, setHashDebug } from './hash.ts';

describe('structural Zobrist hash', () => {
  it('pins golden values (changing them is a versioned, deliberate change)', () => {
    expect(hashHex(hashValue({ a: 1, b: 'x', c: [1, 2, 3], d: true, e: null }))).toBe(GOLDEN.object);
    expect(hashHex(hashValue([]))).toBe(GOLDEN.empty);
    expect(hashHex(hashValue(0.5))).toBe(GOLDEN.half);
  });

  it('ignores property order and undefined properties', () => {
    expect(hashValue({ a: 1, b: 2 })).toEqual(hashValue({ b: 2, a: 1 }));
    expect(hashValue({ a: 1, z: undefined })).toEqual(hashValue({ a: 1 }));
  });

  it('distinguishes values, positions and types', () => {
    const hs = [
      hashValue([1, 2]),
      hashValue([2, 1]),
      hashValue({ a: 1 }),
      hashValue({ b: 1 }),
      hashValue('1'),
      hashValue(1),
      hashValue([1]),
      hashValue({ 0: 1 }),
    ];
    expect(new Set(hs.map(hashHex)).size).toBe(hs.length);
  });

  it('is identical in another process', () => {
    const code = `import('${new URL('./hash.ts', import.meta.url).pathname}').then(m => process.stdout.write(m.hashHex(m.hashValue({ a: 1, b: 'x', c: [1, 2, 3], d: true, e: null }))))`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', code], { encoding: 'utf8' });
    expect(out).toBe(GOLDEN.object);
  });

  it('reuses cached sub-hashes and, in debug mode, catches a mutated object', () => {
    const inner = { x: 1 };
    const outer = { inner };
    const h1 = hashValue(outer);
    (inner as { x: number }).x = 2; // forbidden: states are immutable
    expect(hashValue(outer)).toEqual(h1); // the cache hides the mutation…
    expect(hashValueFresh(outer)).not.toEqual(h1); // …a fresh recomputation does not
    setHashDebug(true);
    try {
      expect(() => hashValue(outer)).toThrow(/mutated/);
    } finally {
      setHashDebug(false);
    }
  });
});

const GOLDEN = { object: 'a0485cbedb5aebf6', empty: '4e84e4797a9ef063', half: 'b05a00342891cc92' };
