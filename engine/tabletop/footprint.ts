/**
 * Footprints for miniatures rulesets: block formations (files × ranks of stands), squares, rectangles attached to a
 * parent (screens, limbers, commanders) at the ruleset's gaps, and per-object caches that a copy which moved
 * nothing can inherit.
 */
import { type Rect, type Vec, fromLocal } from '../geometry/geometry.ts';

/** A footprint laid out as `files` stands wide and `ranks` stands deep, each stand `standW` × `standD`. */
export function blockFootprint(
  centre: Vec,
  heading: number,
  files: number,
  ranks: number,
  standW: number,
  standD: number,
): Rect {
  return { x: centre.x, y: centre.y, w: files * standW, d: ranks * standD, h: heading };
}

/** `stands` arranged at most `maxFiles` wide: a line is `maxFiles` ≥ stands, a column of two is `maxFiles` 2. */
export function blockOf(stands: number, maxFiles: number): { files: number; ranks: number } {
  return { files: Math.min(maxFiles, stands), ranks: Math.ceil(stands / maxFiles) };
}

/**
 * A square of `stands`: a quarter of them (fractions up, at least one) on each face, so a side `perFace × standW`
 * wide, and never less than two stands deep.
 */
export function squareFootprint(centre: Vec, heading: number, stands: number, standW: number, standD: number): Rect {
  const side = Math.max(Math.max(1, Math.ceil(stands / 4)) * standW, 2 * standD);
  return { x: centre.x, y: centre.y, w: side, d: side, h: heading };
}

export type Attach = 'front' | 'rear' | 'left' | 'right';

/** The size of an attached rectangle and its gap from the parent's edge. */
export interface Attachment {
  readonly w: number;
  readonly d: number;
  /** From the parent's front (or rear) edge to the attachment's; or from the parent's flank to its near side. */
  readonly gap: number;
}

/**
 * A rectangle attached to a parent: in front or behind, centred on it `gap` away; on a flank, `gap` beside it with
 * its front level with the parent's front. Centres are rounded to whole units; it faces as the parent does.
 */
export function attachedRect(r: Rect, pos: Attach, a: Attachment): Rect {
  const hd = r.d / 2;
  const ad = a.d / 2;
  let c: Vec;
  if (pos === 'front') c = fromLocal(r, 0, hd + a.gap + ad);
  else if (pos === 'rear') c = fromLocal(r, 0, -hd - a.gap - ad);
  else if (pos === 'left') c = fromLocal(r, -(r.w / 2 + a.gap + a.w / 2), hd - ad);
  else c = fromLocal(r, r.w / 2 + a.gap + a.w / 2, hd - ad);
  return { x: Math.round(c.x), y: Math.round(c.y), w: a.w, d: a.d, h: r.h };
}

/** A value computed once per (immutable) object, e.g. a unit's footprint. */
export interface Memo<T extends object, V> {
  get(o: T): V;
  /** `to` reuses what was computed for `from` (the caller knows they agree on everything the value depends on). */
  inherit(from: T, to: T): void;
}

/** A `Memo` of `compute`, held weakly by object. */
export function memo<T extends object, V>(compute: (o: T) => V): Memo<T, V> {
  const m = new WeakMap<T, V>();
  return {
    get(o) {
      let v = m.get(o);
      if (v === undefined) {
        v = compute(o);
        m.set(o, v);
      }
      return v;
    },
    inherit(from, to) {
      if (m.has(from)) m.set(to, m.get(from) as V);
    },
  };
}

/** Do `a` and `b` agree on every key listed (e.g. everything a footprint depends on)? */
export function sameOn<T>(a: T, b: T, keys: readonly (keyof T)[]): boolean {
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}
