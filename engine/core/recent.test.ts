import { describe, expect, it } from 'vitest';
import { RecentMemo } from './recent.ts';

describe('RecentMemo', () => {
  it('remembers by identity, overwrites the oldest key first and replaces a key set again', () => {
    const m = new RecentMemo<object, number>(2);
    const [a, b, c] = [{}, {}, {}];
    m.set(a, 1);
    m.set(b, 2);
    expect([m.get(a), m.get(b), m.has(c)]).toEqual([1, 2, false]);
    expect(m.get({})).toBeUndefined(); // an equal object is another key
    m.set(a, 3); // a again: its slot, b stays
    expect([m.get(a), m.get(b)]).toEqual([3, 2]);
    m.set(c, 4); // the oldest slot written (a's) goes
    expect([m.has(a), m.get(b), m.get(c)]).toEqual([false, 2, 4]);
  });

  it('refuses a size that is not a whole number of at least 1', () => {
    expect(() => new RecentMemo(0)).toThrow(/size must be/);
    expect(() => new RecentMemo(1.5)).toThrow(/size must be/);
  });
});
