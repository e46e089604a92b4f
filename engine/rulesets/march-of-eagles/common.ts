/**
 * What the chapters share: the decision owner and description helpers, the 4" separation and the legality of a
 * position [Manoeuvre] (M8, M21), the point behind a battalion (M15, M23), roll-offs (M6), and entering difficult ground
 * [Disorder], interpenetration (M21) and falling back, which moves, charges, follow-ups and combats all cause.
 */
import { rollOff } from '../../core/dice.ts';
import type { ChanceOutcome } from '../../core/game.ts';
import type { Handlers, Log } from '../../core/procedure.ts';
import { difficultFraction, isDifficultAt } from '../../geometry/terrain.ts';
import {
  type Box,
  IN,
  type Polygon,
  type Rect,
  dist,
  fromLocal,
  headingTo,
  normDeg,
  polygonsOverlap,
  rectCorners,
  translate,
} from '../../geometry/geometry.ts';
import {
  type Bodies,
  type BodyView,
  type ClearanceRules,
  boxClear as clearBox,
  endClear,
  nearestEnemy,
  onGround,
  pathClear,
} from '../../tabletop/clearance.ts';
import { furthestAlong } from '../../tabletop/movement.ts';
import { allPolys, footprint, poly, screenRectFor } from './shape.ts';
import { ev, unit, upd } from './state.ts';
import type { Action, Bn, Frame, MoeState, Side } from './types.ts';

/** A partial update of a battalion, built field by field. */
export type BnPatch = { -readonly [K in keyof Bn]?: Bn[K] };
/** The handlers a chapter contributes: one per frame kind it owns (rules.ts assembles them all). */
export type MoeHandlers<K extends Frame['t']> = Pick<Handlers<MoeState, Frame, Action>, K>;
export const SEPARATION = 4 * IN; // [Manoeuvre] minimum separation between hostile troops
export const STEP = 25; // path sampling step: 1/4"

/** A decision frame's owner: the side named in it. */
export const owner = (f: { readonly p: Side }): number => f.p;
/** A battalion as a decision names it: "name (id)". */
export const named = (s: MoeState, id: string) => `${unit(s, id).name} (${id})`;
/** A length for a decision's text, in inches to a tenth. */
export const inches = (u: number) => `${(u / IN).toFixed(1)}"`;

/** The enemy battalions on the table. */
export function enemiesOn(s: MoeState, side: Side): Bn[] {
  return s.units.filter((u) => u.on && u.side !== side);
}

/** Clearance's view of battalions: the others on the table count, friends by side, bodies and screens. */
const BATTALIONS: BodyView<Bn> = {
  counts: (o, b) => o.on && o.id !== b.id,
  friendly: (o, b) => o.side === b.side,
  body: poly,
  troops: allPolys,
};
/** The table as seen from `b`. */
export function bodiesFor(s: MoeState, b: Bn): Bodies<Bn> {
  return { view: BATTALIONS, list: s.units, mover: b };
}
/** [Manoeuvre] the 4" separation, for the shared clearance tests. */
export const CLEARANCE: ClearanceRules = { separation: SEPARATION };

/** Nearest enemy troops (bodies and screens), capped at the 4" separation: only smaller values matter (M8). */
export function minEnemyDistance(s: MoeState, b: Bn, polys: readonly Polygon[]): number {
  return nearestEnemy(bodiesFor(s, b), polys, SEPARATION);
}

/** Body and screen polygons of `b` if its body stood at `r`. */
export function polysAt(b: Bn, r: Rect): Polygon[] {
  const sr = screenRectFor(b, r);
  return sr ? [rectCorners(r), rectCorners(sr)] : [rectCorners(r)];
}

/**
 * Conservative fast path: is the box `box` clear of the table edges, impassable ground, obstacle lines (if asked),
 * other bodies (friends, if asked) and enemy troops by the 4" separation? If so, every position inside it is legal.
 */
export function boxClear(s: MoeState, b: Bn, box: Box, friendsToo: boolean, obstaclesToo: boolean): boolean {
  return clearBox(s.ctx, bodiesFor(s, b), box, CLEARANCE, { friends: friendsToo, obstacles: obstaclesToo });
}

/**
 * A non-attack position is legal on the path: on the table, off impassable terrain, and no closer than 4" to enemy
 * troops unless already closer, in which case the distance may not shrink (M8).
 */
export function pathOk(s: MoeState, b: Bn, r: Rect, startSep: number): boolean {
  return pathClear(s.ctx, bodiesFor(s, b), polysAt(b, r), startSep, CLEARANCE);
}

/** No overlap with other battalions' bodies at the end of a move (M21). */
export function endOk(s: MoeState, b: Bn, r: Rect): boolean {
  return endClear(s.ctx, bodiesFor(s, b), rectCorners(r));
}

/** In an engagement (a combat not yet ended). */
export function engaged(b: Bn): boolean {
  return b.eng !== '';
}

/** The point 3" behind a battalion, where a Supreme Commander may stand (M23, M15). */
export function behindPoint(b: Bn): { x: number; y: number } {
  const r = footprint(b);
  const p = fromLocal(r, 0, -r.d / 2 - 3 * IN);
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

/** A roll-off (D6 + modifiers each): M6, ties re-rolled, so each side's chance is its share of the decisive results. */
export function winOutcomes(mods: [number, number]): ChanceOutcome<Action>[] {
  // M6: ties are re-rolled, so each side's chance is its share of the rolls that do not tie
  return rollOff(6, mods[0], mods[1]).map(({ value: side, p }) => ({
    action: { k: 'c-win', side },
    p,
    label: `side ${side === 0 ? 'A' : 'B'} wins`,
  }));
}

/**
 * [Disorder] "A close order unit which enters difficult terrain is disordered", however it got there: a move, a wheel,
 * a charge (whether it contacts or falls short), a join, a follow-up or a fall-back. Entering is judged as for moves:
 * the centre's path crosses difficult ground or ends on it.
 */
export function enterGround(s: MoeState, id: string, from: Rect, to: Rect, log: Log, how: string): MoeState {
  const b = unit(s, id);
  if (b.dis || (from.x === to.x && from.y === to.y)) return s;
  if (!(difficultFraction(s.ctx.terrain, from, to) > 0 || isDifficultAt(s.ctx.terrain, to))) return s;
  ev(log, 'Disorder', `${b.name} ${how} into difficult terrain: disordered`);
  return upd(s, id, { dis: true, reform: false });
}

/** M21: close-order friends passed through become disordered. */
export function passThroughDisorder(s: MoeState, b: Bn, from: Rect, to: Rect, log: Log): MoeState {
  let ns = s;
  const d = dist(from, to);
  if (d < 1) return ns;
  const dir = headingTo(from, to);
  for (const f of s.units) {
    if (!f.on || f.side !== b.side || f.id === b.id || f.dis) continue;
    const fp = poly(f);
    let hit = false;
    for (let x = 0; x <= d && !hit; x += IN) hit = polygonsOverlap(rectCorners(translate(from, dir, x)), fp);
    if (hit) {
      ns = upd(ns, f.id, { dis: true });
      ev(log, 'Disorder', `${f.name} is interpenetrated by ${b.name}: disordered`);
    }
  }
  return ns;
}

/** Fall back straight to the rear up to `inches2` (stopping at the table edge or impassable ground), facing as before. */
export function fallBack(s: MoeState, id: string, inches2: number, log: Log, rule: string): MoeState {
  const b = unit(s, id);
  const r = footprint(b);
  const dir = normDeg(b.h + 180);
  const d = furthestAlong(r, dir, inches2, STEP, (rr) => onGround(s.ctx, [rectCorners(rr)]));
  const nr = translate(r, dir, d);
  ev(log, rule, `${b.name} falls back ${(d / IN).toFixed(1)}"`);
  return enterGround(upd(s, id, { x: nr.x, y: nr.y }), id, r, nr, log, 'falls back');
}
