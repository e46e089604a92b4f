/**
 * Movement menus for miniatures rulesets: a finite list of destinations for a move straight or oblique (fractions of
 * the furthest legal distance, which is always offered), a wheel (a list of angles whose outside arc fits the
 * allowance) and a change of facing. Legality is the ruleset's callback; the numbers are the ruleset's.
 */
import { type Rect, translate, wheel } from '../geometry/geometry.ts';

export interface MoveCandidate {
  readonly rect: Rect;
  /** Heading of travel. */
  readonly dir: number;
  readonly distance: number;
}

/**
 * The furthest distance ≤ `max` along `dir` such that every sampled point of the path satisfies `ok`; samples every
 * `step` units. Returns 0 when the first step already fails.
 */
export function furthestAlong(r: Rect, dir: number, max: number, step: number, ok: (r: Rect) => boolean): number {
  let best = 0;
  for (let d = step; d < max + step; d += step) {
    const dd = Math.min(d, max);
    if (!ok(translate(r, dir, dd))) break;
    best = dd;
    if (dd === max) break;
  }
  return best;
}

/** Straight-line candidates: for each fraction, that fraction of `reach` along `dir` (deduplicated). */
export function candidatesAlong(r: Rect, dir: number, reach: number, fractions: readonly number[]): MoveCandidate[] {
  const out: MoveCandidate[] = [];
  const seen = new Set<number>();
  for (const f of fractions) {
    const d = Math.round(reach * f);
    if (d <= 0 || seen.has(d)) continue;
    seen.add(d);
    out.push({ rect: translate(r, dir, d), dir, distance: d });
  }
  return out;
}

/** The arc the outside corner of a `width`-wide front travels when it wheels `angle` degrees. */
export function wheelArc(width: number, angle: number): number {
  return (width * angle * Math.PI) / 180;
}

/** Slack on a wheel's arc allowance (units), so an angle that just fits by rounding is offered. */
const ARC_SLACK = 0.5;

/** Wheel candidates: each angle whose outer-corner arc fits in `arcAllowance` (units). */
export function wheelCandidates(
  r: Rect,
  side: 'L' | 'R',
  arcAllowance: number,
  angles: readonly number[],
): { rect: Rect; angle: number }[] {
  const out: { rect: Rect; angle: number }[] = [];
  for (const a of angles) {
    if (wheelArc(r.w, a) > arcAllowance + ARC_SLACK) continue;
    out.push({ rect: wheel(r, side, a), angle: a });
  }
  return out;
}

/** A move straight along one heading (forward, back or oblique, facing kept). */
export interface StraightMove {
  readonly rect: Rect;
  /** Heading of travel. */
  readonly dir: number;
  /** Distance allowed (units). */
  readonly allow: number;
  /** Fractions of the furthest legal distance offered; the whole of it (1) is always offered. */
  readonly fractions: readonly number[];
  /** Path sampling step, and the step an end position backs off by until it is legal (units). */
  readonly step: number;
  /** The whole sweep is already known clear (a fast box test): the path need not be sampled. */
  readonly clear: boolean;
  /** Every sampled position on the path must pass. */
  pathOk(r: Rect): boolean;
  /** An end position must pass (each candidate backs off by `step` until it does). */
  endOk(r: Rect): boolean;
}

/** The distances offered for a straight move, ascending; [0] when none is legal. */
export function straightMenu(m: StraightMove): number[] {
  const reach = m.clear ? m.allow : furthestAlong(m.rect, m.dir, m.allow, m.step, m.pathOk);
  const fractions = m.fractions.includes(1) ? m.fractions : [...m.fractions, 1];
  const out: number[] = [];
  for (const c of candidatesAlong(m.rect, m.dir, reach, fractions)) {
    let d = c.distance;
    while (d > 0 && !m.endOk(translate(m.rect, m.dir, d))) d -= m.step;
    if (d > 0 && !out.includes(d)) out.push(d);
  }
  if (!out.length) out.push(0);
  return out.sort((a, c) => a - c);
}

/** The angles offered for a wheel: 0 (no wheel) then each angle that fits the arc allowance and passes `ok`. */
export function wheelMenu(
  r: Rect,
  side: 'L' | 'R',
  arcAllowance: number,
  angles: readonly number[],
  ok: (r: Rect) => boolean,
): number[] {
  const out = [0];
  for (const c of wheelCandidates(r, side, arcAllowance, angles)) if (ok(c.rect)) out.push(c.angle);
  return out;
}

/** Facings to offer: `points` evenly spaced compass headings from north, the current one and each of `toward`. */
export function facingChoices(points: number, current: number, toward: readonly number[]): number[] {
  const hs = new Set<number>([current, ...toward]);
  for (let i = 0; i < points; i++) hs.add((360 / points) * i);
  return [...hs].sort((a, c) => a - c);
}
