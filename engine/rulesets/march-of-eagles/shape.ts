/** March of Eagles footprints, screens, eligible firing groups, cover and contact, on the shared geometry. */
import {
  type Polygon,
  type Rect,
  type Vec,
  IN,
  fromLocal,
  inFrontArc,
  polygonDistance,
  rectCorners,
  closestPointOnSegment,
} from '../../geometry/geometry.ts';
import { type Cover, areaCover, blockFootprint, lineCover, lineOfSight } from '../../geometry/terrain.ts';
import type { Bn, MoeState } from './types.ts';

/** M2: a firing group of 4 figures is a 1.6" × 1.6" stand. */
export const STAND = 160;
/** M3: a skirmish screen is 0.8" deep. */
export const SCREEN_DEPTH = 80;
const SCREEN_GAP = 200;
const LIGHT_GAP = 600;
const FLANK_GAP = 100;

/** [Accuracy] firing groups of four or fraction: ceil(Rankers / 4). */
export function firingGroups(b: Bn): number {
  return Math.ceil(b.rk / 4);
}
/** [Skirmishers] groups of two, fractions up. */
export function screenGroups(b: Bn): number {
  return Math.ceil(b.sk / 2);
}
/** Half strength: close order + skirmishers at or below half the starting Rankers (digest §2.2). */
export function halfStrength(b: Bn): boolean {
  return b.rk + b.sk <= b.start / 2;
}
/** [Removing casualties] frontage keeps its original groups until 50% strength, then shrinks (M2). */
export function footGroups(b: Bn): number {
  return halfStrength(b) ? Math.max(1, firingGroups(b)) : b.G;
}

const rectCache = new WeakMap<Bn, Rect>();
const GEOMETRY_KEYS = ['x', 'y', 'h', 'f', 'rk', 'sk', 'scr', 'G', 'start'] as const;

/** A copy that moved nothing reuses the footprint caches of the original (they depend only on geometry). */
export function inheritGeometry(from: Bn, to: Bn): void {
  for (const k of GEOMETRY_KEYS) if (from[k] !== to[k]) return;
  const r = rectCache.get(from);
  if (r) rectCache.set(to, r);
  const p = polyCache.get(from);
  if (p) polyCache.set(to, p);
  if (screenCache.has(from)) screenCache.set(to, screenCache.get(from)!);
}
export function footprint(b: Bn): Rect {
  let r = rectCache.get(b);
  if (r) return r;
  r = rectAt(b, b.x, b.y, b.h);
  rectCache.set(b, r);
  return r;
}
/** M2: Line is one rank of group stands; Column is two groups wide. */
export function rectAt(b: Bn, x: number, y: number, h: number, f = b.f): Rect {
  const g = footGroups(b);
  return f === 'L'
    ? blockFootprint({ x, y }, h, g, 1, STAND, STAND)
    : blockFootprint({ x, y }, h, Math.min(2, g), Math.ceil(g / 2), STAND, STAND);
}

const polyCache = new WeakMap<Bn, Polygon>();
export function poly(b: Bn): Polygon {
  let p = polyCache.get(b);
  if (!p) {
    p = rectCorners(footprint(b));
    polyCache.set(b, p);
  }
  return p;
}

/** M3: the screen's rectangle relative to a parent rectangle, or null without skirmishers. */
export function screenRectFor(b: Bn, r: Rect, pos = b.scr): Rect | null {
  if (!b.sk || !pos) return null;
  const sw = Math.max(r.w, 80 * b.sk);
  const hd = r.d / 2;
  const sd = SCREEN_DEPTH / 2;
  let c: Vec;
  if (b.light || pos === 'front') c = fromLocal(r, 0, hd + (b.light ? LIGHT_GAP : SCREEN_GAP) + sd);
  else if (pos === 'rear') c = fromLocal(r, 0, -hd - SCREEN_GAP - sd);
  else if (pos === 'left') c = fromLocal(r, -(r.w / 2 + FLANK_GAP + sw / 2), hd - sd);
  else c = fromLocal(r, r.w / 2 + FLANK_GAP + sw / 2, hd - sd);
  return {
    x: Math.round(c.x),
    y: Math.round(c.y),
    w: pos === 'left' || pos === 'right' ? Math.min(sw, 80 * b.sk) : sw,
    d: SCREEN_DEPTH,
    h: r.h,
  };
}

const screenCache = new WeakMap<Bn, Polygon | null>();
export function screenPoly(b: Bn): Polygon | null {
  if (screenCache.has(b)) return screenCache.get(b)!;
  const r = screenRectFor(b, footprint(b));
  const p = r ? rectCorners(r) : null;
  screenCache.set(b, p);
  return p;
}

/** Every polygon a battalion occupies (body and screen). */
export function allPolys(b: Bn): Polygon[] {
  const s = screenPoly(b);
  return s ? [poly(b), s] : [poly(b)];
}

export function centre(b: Bn): Vec {
  return { x: b.x, y: b.y };
}

/** Range bands [Range effect table] (M4: "up to 6" includes 6). */
export function rangeFraction(rangeUnits: number, rifle: boolean): number {
  const r = rangeUnits / IN;
  if (r <= 6 + 1e-9) return 1;
  if (r <= (rifle ? 18 : 12) + 1e-9) return 0.5;
  if (r <= (rifle ? 24 : 18) + 1e-9) return 0.25;
  return 0;
}
export function maxRange(rifle: boolean): number {
  return (rifle ? 24 : 18) * IN;
}

/** Polygons that block LOS for a shot between two units: every other body and screen. */
export function blockersExcept(s: MoeState, exclude: (b: Bn, isScreen: boolean) => boolean): Polygon[] {
  const out: Polygon[] = [];
  for (const b of s.units) {
    if (!b.on) continue;
    if (!exclude(b, false)) out.push(poly(b));
    const sp = screenPoly(b);
    if (sp && !exclude(b, true)) out.push(sp);
  }
  return out;
}

function samplePoints(p: Polygon): Vec[] {
  const out: Vec[] = [...p];
  for (let i = 0; i < p.length; i++) {
    const a = p[i]!;
    const b = p[(i + 1) % p.length]!;
    out.push({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
  }
  return out;
}

/**
 * [Who can shoot] eligible firing groups of a body (front stands of its footprint; in column only the front row)
 * against a target polygon: a straight line from the stand's front edge to the target, inside the stand's front
 * arc, crossing no blocker. The count is capped at the current firing groups.
 */
export function eligibleGroups(
  s: MoeState,
  shooterRect: Rect,
  target: Polygon,
  blockers: readonly Polygon[],
  groupsNow: number,
): number {
  const files = Math.round(shooterRect.w / STAND);
  const pts = samplePoints(target);
  let eligible = 0;
  for (let i = 0; i < files; i++) {
    const u0 = -shooterRect.w / 2 + i * STAND;
    const standRect: Rect = { ...shooterRect, ...fromLocalRect(shooterRect, u0 + STAND / 2), w: STAND, d: STAND };
    const a = fromLocal(shooterRect, u0, shooterRect.d / 2);
    const b = fromLocal(shooterRect, u0 + STAND, shooterRect.d / 2);
    let ok = false;
    for (const q of pts) {
      if (!inFrontArc(standRect, q)) continue;
      const from = closestPointOnSegment(q, a, b);
      if (lineOfSight(s.ctx.terrain, from, q, blockers)) {
        ok = true;
        break;
      }
    }
    if (ok && ++eligible >= groupsNow) break; // capped: the other files cannot add to it
  }
  return Math.min(eligible, groupsNow);
}

function fromLocalRect(r: Rect, u: number): { x: number; y: number } {
  const c = fromLocal(r, u, r.d / 2 - STAND / 2);
  return { x: c.x, y: c.y };
}

/** Eligible screen groups: all of them if any point of the screen's front edge sees the target in its arc. */
export function eligibleScreenGroups(
  s: MoeState,
  screenRect: Rect,
  target: Polygon,
  blockers: readonly Polygon[],
  groups: number,
): number {
  const pts = samplePoints(target);
  const c = rectCorners(screenRect);
  for (const q of pts) {
    if (!inFrontArc(screenRect, q)) continue;
    const from = closestPointOnSegment(q, c[0]!, c[1]!);
    if (lineOfSight(s.ctx.terrain, from, q, blockers)) return groups;
  }
  return 0;
}

/** Cover of a target body against fire or attack from point `from` (woods: soft; hedge soft, wall hard, M4/M5). */
export function coverOf(s: MoeState, target: Bn, from: Vec): Cover {
  const a = areaCover(s.ctx.terrain, centre(target));
  const l = lineCover(s.ctx.terrain, from, poly(target), centre(target));
  if (a === 'hard' || l === 'hard') return 'hard';
  if (a === 'soft' || l === 'soft') return 'soft';
  return 'none';
}

export function distanceBetween(a: Polygon, b: Polygon): number {
  return polygonDistance(a, b);
}

/** The face of target `t` and the rectangle an attacker of depth/width takes in contact with it (M25). */
export function contactRect(t: Bn, face: 'front' | 'left' | 'right' | 'rear', attW: number, attD: number): Rect {
  const r = footprint(t);
  let c: Vec;
  let h: number;
  switch (face) {
    case 'front':
      c = fromLocal(r, 0, r.d / 2 + attD / 2 + 1);
      h = r.h + 180;
      break;
    case 'rear':
      c = fromLocal(r, 0, -r.d / 2 - attD / 2 - 1);
      h = r.h;
      break;
    case 'left':
      c = fromLocal(r, -r.w / 2 - attD / 2 - 1, 0);
      h = r.h + 90;
      break;
    case 'right':
      c = fromLocal(r, r.w / 2 + attD / 2 + 1, 0);
      h = r.h + 270;
      break;
  }
  return { x: Math.round(c.x), y: Math.round(c.y), w: attW, d: attD, h: ((h % 360) + 360) % 360 };
}

/** The segment of a target face, for distance-to-contact. */
export function faceSegment(t: Bn, face: 'front' | 'left' | 'right' | 'rear'): [Vec, Vec] {
  const c = rectCorners(footprint(t)); // FL, FR, RR, RL
  switch (face) {
    case 'front':
      return [c[0]!, c[1]!];
    case 'right':
      return [c[1]!, c[2]!];
    case 'rear':
      return [c[2]!, c[3]!];
    case 'left':
      return [c[3]!, c[0]!];
  }
}
