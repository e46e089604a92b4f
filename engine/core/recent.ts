/**
 * A memo of the last few keys by identity: `size` slots, the oldest overwritten first. For answers worked out per
 * immutable object (a state, its units array) and asked for again within a step or two of the engine. A `WeakMap`
 * remembers every key while it lives, but each entry is an ephemeron the collector must trace, and an engine makes
 * a new key at every step: most entries are written, read once or twice, and dropped. This one allocates nothing
 * per entry and keeps at most `size` keys (and their values) alive.
 */
export class RecentMemo<K extends object, V> {
  private readonly keys: (K | undefined)[];
  private readonly values: (V | undefined)[];
  private next = 0;

  constructor(readonly size: number) {
    if (!(Number.isInteger(size) && size >= 1))
      throw new Error(`RecentMemo: size must be a whole number ≥ 1 (got ${size})`);
    this.keys = new Array<K | undefined>(size).fill(undefined);
    this.values = new Array<V | undefined>(size).fill(undefined);
  }

  /** The value remembered for `key` (by identity), or undefined. */
  get(key: K): V | undefined {
    const ks = this.keys;
    for (let i = 0; i < ks.length; i++) if (ks[i] === key) return this.values[i];
    return undefined;
  }

  has(key: K): boolean {
    const ks = this.keys;
    for (let i = 0; i < ks.length; i++) if (ks[i] === key) return true;
    return false;
  }

  /** Remembers `value` for `key`, in place of the key's old value or of the oldest entry. */
  set(key: K, value: V): void {
    const ks = this.keys;
    for (let i = 0; i < ks.length; i++)
      if (ks[i] === key) {
        this.values[i] = value;
        return;
      }
    ks[this.next] = key;
    this.values[this.next] = value;
    this.next = (this.next + 1) % ks.length;
  }
}
