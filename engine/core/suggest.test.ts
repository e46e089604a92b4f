/** The "did you mean" helper: case slips and near misses find their key; names far from every key find none. */
import { describe, expect, it } from 'vitest';
import { strictObject, suggest } from './suggest.ts';
import { z } from 'zod';

describe('suggest', () => {
  const keys = ['light', 'rifles', 'quality', 'M5_cover', 'x', 'y'];
  it('finds a key differing in case, or within 2 edits (1 for short words)', () => {
    expect(suggest('Light', keys)).toBe('light');
    expect(suggest('X', keys)).toBe('x');
    expect(suggest('rilfes', keys)).toBe('rifles');
    expect(suggest('qualty', keys)).toBe('quality');
    expect(suggest('M5_covr', keys)).toBe('M5_cover');
    expect(suggest('ligt', keys)).toBe('light');
  });
  it('counts two swapped neighbours as one edit', () => {
    expect(suggest('jsno', ['json', 'seed'])).toBe('json');
    expect(suggest('sede', ['json', 'seed'])).toBe('seed');
  });
  it('finds nothing for names far from every key, or short ones that are not a case slip', () => {
    expect(suggest('roof', keys)).toBeUndefined();
    expect(suggest('z', keys)).toBeUndefined();
    expect(suggest('lgt', keys)).toBeUndefined();
    expect(suggest('colour', keys)).toBeUndefined();
  });
  it('strictObject names each unknown key with its suggestion, or the keys allowed', () => {
    const s = strictObject({ light: z.boolean(), rifles: z.boolean() });
    const msg = (v: unknown) => s.safeParse(v).error?.issues.map((i) => i.message);
    expect(msg({ light: true, rifles: false, Light: true })).toEqual(['unknown key "Light" (did you mean "light"?)']);
    expect(msg({ light: true, rifles: false, Light: true, roof: 1 })).toEqual([
      'unknown keys "Light" (did you mean "light"?), "roof"; allowed here: light, rifles',
    ]);
    expect(msg({ light: 1, rifles: false })).toEqual(['Invalid input: expected boolean, received number']);
  });
});
