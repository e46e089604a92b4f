/**
 * Observation encodings for learning agents: a ruleset turns what one player can see into fixed-size Float32
 * features, and each legal action into its own feature vector, so a network can score however many actions a
 * position has (a pointer-style policy head) without a global action index. Where a ruleset does have a fixed action
 * index (a board of cells, say) it also exposes it, for Gym-style users with a masked fixed-size policy.
 *
 * Encodings are pure, versioned and documented block by block; they read only what `player` observes (hidden values
 * are never encoded).
 */
import type { Player } from './game.ts';

/** One named block of a feature vector, documented for people reading a network's inputs. */
export interface FeatureBlock {
  readonly name: string;
  readonly offset: number;
  readonly size: number;
  readonly doc: string;
}

export interface Encoding<S = unknown, A = unknown> {
  /** Stable id including the version, e.g. "my-ruleset/v1"; recorded in shards and models. */
  readonly id: string;
  readonly version: number;
  readonly stateSize: number;
  readonly actionSize: number;
  readonly stateLayout: readonly FeatureBlock[];
  readonly actionLayout: readonly FeatureBlock[];
  /** Refuse (clear error) a state the encoding cannot represent, e.g. more units than it has slots. */
  check?(s: S): void;
  /** Write the features of `s` as seen by `player` into `out[at .. at + stateSize)`. */
  encodeState(s: S, player: Player, out: Float32Array, at?: number): void;
  /** Write one feature vector per action into `out[at + i·actionSize ..]`, from `player`'s view. */
  encodeActions(s: S, player: Player, actions: readonly A[], out: Float32Array, at?: number): void;
  /** A fixed action index, where the ruleset has one: `size` slots, each legal action maps to one. */
  readonly fixed?: {
    readonly size: number;
    index(s: S, a: A): number;
  };
}

/** Build a layout from block sizes, checking the total. */
export function layout(blocks: readonly { name: string; size: number; doc: string }[]): {
  blocks: FeatureBlock[];
  size: number;
} {
  let off = 0;
  const out: FeatureBlock[] = [];
  for (const b of blocks) {
    out.push({ name: b.name, offset: off, size: b.size, doc: b.doc });
    off += b.size;
  }
  return { blocks: out, size: off };
}

/** The masked fixed-index view of a position (for rulesets with `fixed`): a 0/1 mask and the action per slot. */
export function fixedMask<S, A>(
  enc: Encoding<S, A>,
  s: S,
  legal: readonly A[],
): { mask: Uint8Array; actions: (A | undefined)[] } {
  if (!enc.fixed) throw new Error(`encoding ${enc.id} has no fixed action index (use the per-action features)`);
  const mask = new Uint8Array(enc.fixed.size);
  const actions: (A | undefined)[] = new Array(enc.fixed.size).fill(undefined);
  for (const a of legal) {
    const i = enc.fixed.index(s, a);
    if (!(i >= 0 && i < enc.fixed.size))
      throw new Error(`encoding ${enc.id}: action index ${i} out of range 0..${enc.fixed.size - 1}`);
    if (mask[i]) throw new Error(`encoding ${enc.id}: two legal actions share index ${i}`);
    mask[i] = 1;
    actions[i] = a;
  }
  return { mask, actions };
}

/** Render a layout as a Markdown table (for the README and `eagles train encoding`). */
export function layoutTable(blocks: readonly FeatureBlock[]): string {
  return [
    '| block | offset | size | meaning |',
    '|---|---|---|---|',
    ...blocks.map((b) => `| ${b.name} | ${b.offset} | ${b.size} | ${b.doc} |`),
  ].join('\n');
}

/** Where each unit and leader sits in an encoding's per-side slots: its side, and its index among that side's. */
export interface SideSlots {
  readonly unit: ReadonlyMap<string, { readonly side: number; readonly i: number }>;
  readonly leader: ReadonlyMap<string, { readonly side: number; readonly i: number }>;
}

const slotCache = new WeakMap<readonly object[], SideSlots>();

/**
 * Slots in state order (each side's units, then leaders, numbered in the order they stand), kept per units array: a
 * state's units array is replaced whenever a unit changes, and ids and sides never change within a game.
 */
export function sideSlots(
  units: readonly { readonly id: string; readonly side: number }[],
  leaders: readonly { readonly id: string; readonly side: number }[],
): SideSlots {
  let sl = slotCache.get(units);
  if (sl) return sl;
  const number = (xs: readonly { readonly id: string; readonly side: number }[]) => {
    const n = [0, 0];
    return new Map(xs.map((x) => [x.id, { side: x.side, i: n[x.side]!++ }] as const));
  };
  sl = { unit: number(units), leader: number(leaders) };
  slotCache.set(units, sl);
  return sl;
}
