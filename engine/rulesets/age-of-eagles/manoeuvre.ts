/**
 * [Movement] moving a unit within what its March result allows (A11): straight or oblique moves and a move back,
 * wheels, road moves, formation and facing changes in place, and the retreats the March and combat tables order
 * (A9). Menus are finite: directions relative to the facing, fractions of the furthest legal distance (always
 * offered), wheel angles; every end is legal (on the table, no overlap, at least 1" from the enemy, A11).
 */
import {
  type Rect,
  headingTo,
  normDeg,
  polygonDistance,
  polygonsOverlap,
  rectCorners,
  translate,
  wheel,
} from '../../geometry/geometry.ts';
import { wheelArc } from '../../tabletop/movement.ts';
import type { Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { addHits } from './hits.ts';
import {
  LEADER_REACH,
  alongRoad,
  armOf,
  crossCost,
  footprint,
  groundCost,
  moveCost,
  onRoad,
  poly,
  rectAt,
} from './shape.ts';
import { IN, onTable, unitOf, updUnit } from './state.ts';
import { type MoverKind, infantryMoverKind, movementRate } from './tables.ts';
import type { Action, Allowance, AoeState, CavFormation, InfFormation, Unit } from './types.ts';

/** Directions offered, relative to the facing (digest §9): ahead, obliques, and back. */
const DIRS = [0, -45, -22.5, 22.5, 45, 180];
const FRACS = [0.25, 0.5, 0.75, 1];
const WHEELS = [15, 30, 45, 90];
/** Path sampling step. */
const STEP = 25;
/** A11: a move that is not a charge may not end within 1" of an enemy unit. */
const SEPARATION = IN;
/** [Movement] minus 3" per unit penetrated for passage of lines. */
const PASSAGE = 3 * IN;

export const leaderReach = (): number => LEADER_REACH;

/** [Movement rates] the unit's basic (full) move now, 1/100" (A11: Masse the Line rate, Square 0). */
export function basicRate(_s: AoeState, u: Unit): number {
  if (u.k === 'bat') return movementRate(u.mob === 'Foot' ? 'footArtillery' : 'horseArtillery').basic * IN;
  if (u.k === 'cav') return movementRate('cavalry').basic * IN;
  const kind = infantryMoverKind(u.f);
  return kind ? movementRate(kind).basic * IN : 0;
}

/** The unit as it would stand at `r` (same formation). */
const at = (u: Unit, r: Rect): Unit => ({ ...u, x: Math.round(r.x), y: Math.round(r.y), h: normDeg(Math.round(r.h)) });

function onTableRect(s: AoeState, r: Rect): boolean {
  return rectCorners(r).every((p) => p.x >= 0 && p.y >= 0 && p.x <= s.ctx.width && p.y <= s.ctx.height);
}

/** A position the unit may pass: on the table, over no enemy, out of BUA blocks (occupying them is not built yet). */
function passable(s: AoeState, u: Unit, r: Rect): boolean {
  if (!onTableRect(s, r)) return false;
  const ps = rectCorners(r);
  for (const b of s.ctx.blocks)
    if (polygonsOverlap(ps, rectCorners({ x: b.x, y: b.y, w: 3 * IN, d: 3 * IN, h: 0 }))) return false;
  for (const o of onTable(s)) if (o.side !== u.side && o.id !== u.id && polygonsOverlap(ps, poly(o))) return false;
  return true;
}

/**
 * [Built Up Areas] the vacant blocks `u` may enter with `allow`: a block holds a single unit (an interpretation:
 * infantry or a battery; cavalry attack a BUA but do not garrison it), reached straight within the allowance across no
 * unit; entering any part of it occupies it and ends the move.
 */
function enterable(s: AoeState, u: Unit, allow: number): string[] {
  if (u.k === 'cav' || u.bua) return [];
  const out: string[] = [];
  const r0 = footprint(u);
  for (const b of s.ctx.blocks) {
    if (onTable(s).some((o) => o.bua === b.id)) continue;
    const block = rectCorners({ x: b.x, y: b.y, w: 3 * IN, d: 3 * IN, h: 0 });
    const gap = polygonDistance(rectCorners(r0), block);
    if (gap > allow) continue;
    // the straight way in crosses no unit and no stream
    const dir = normDeg(headingTo({ x: u.x, y: u.y }, { x: b.x, y: b.y }));
    const end = translate(r0, dir, gap + 1);
    if (!Number.isFinite(moveCost(s.ctx, armOf(u), r0, end))) continue;
    if (onTable(s).some((o) => o.id !== u.id && polygonsOverlap(rectCorners(end), poly(o)))) continue;
    out.push(b.id);
  }
  return out;
}

/** [Built Up Areas] leaving a block: the unit spends a full move reforming outside an edge (A11), in any formation. */
function leaveOptions(s: AoeState, u: Unit): { edge: number; f: InfFormation | CavFormation; r: Rect }[] {
  const b = s.ctx.blocks.find((x) => x.id === u.bua);
  if (!b) return [];
  const forms: (InfFormation | CavFormation)[] =
    u.k === 'bat'
      ? ['Line']
      : u.k === 'inf'
        ? ['Line', 'FieldColumn', 'Masse', 'MarchColumn', ...(u.light ? (['OpenOrder'] as const) : [])]
        : ['Line'];
  const out: { edge: number; f: InfFormation | CavFormation; r: Rect }[] = [];
  for (const edge of [0, 90, 180, 270])
    for (const f of forms) {
      const outside = { ...u, bua: '' } as Unit;
      const probe = rectAt(outside, b.x, b.y, edge, u.k === 'bat' ? undefined : f);
      // the rear edge on the block's edge: the centre 1.5" + half its depth out from the block's centre
      const c = translate({ ...probe, x: b.x, y: b.y }, edge, 1.5 * IN + probe.d / 2);
      if (endLegal(s, outside, c)) out.push({ edge, f, r: c });
    }
  return out;
}

/** A place the unit may end: passable, over no unit, at least 1" from every enemy (A11). */
function endLegal(s: AoeState, u: Unit, r: Rect): boolean {
  if (!passable(s, u, r)) return false;
  const ps = rectCorners(r);
  for (const o of onTable(s)) {
    if (o.id === u.id) continue;
    if (polygonsOverlap(ps, poly(o))) return false;
    if (o.side !== u.side && polygonDistance(ps, poly(o)) < SEPARATION) return false;
  }
  return true;
}

/**
 * The furthest distance along `dir` the allowance and the ground allow, sampled every STEP: the terrain cost is
 * summed step by step, and each friend entered costs the passage of lines once.
 */
const reaches = new WeakMap<readonly Unit[], Map<string, number>>();
function reach(s: AoeState, u: Unit, dir: number, allow: number): number {
  // cached per units array: any unit moving makes a new array
  let m = reaches.get(s.units);
  const key = `${u.id}/${dir}/${allow}`;
  const known = m?.get(key);
  if (known !== undefined) return known;
  const r0 = footprint(u);
  const arm = armOf(u);
  const friends = onTable(s).filter((o) => o.side === u.side && o.id !== u.id);
  const entered = new Set<string>();
  let spent = 0;
  let prev = r0;
  let best = 0;
  for (let d = STEP; d <= allow + 1e-9; d += STEP) {
    const r = translate(r0, dir, d);
    if (!passable(s, u, r)) break;
    // rough is summed step by step; a line (a ford) is crossed once over the whole path
    spent += groundCost(s.ctx, arm, prev, r);
    const crossing = crossCost(s.ctx, arm, r0, r);
    const ps = rectCorners(r);
    for (const o of friends)
      if (!entered.has(o.id) && polygonsOverlap(ps, poly(o))) {
        entered.add(o.id);
        spent += PASSAGE;
      }
    if (!(spent + crossing <= allow + 1e-6)) break;
    best = d;
    prev = r;
  }
  if (!m) {
    m = new Map();
    reaches.set(s.units, m);
  }
  m.set(key, best);
  return best;
}

/** The distance a `frac` of the furthest legal distance gives, backed off to a legal end (0: none). */
function distanceFor(s: AoeState, u: Unit, dir: number, frac: number, allow: number): number {
  const far = reach(s, u, dir, allow);
  let d = Math.floor((far * frac) / STEP) * STEP;
  const r0 = footprint(u);
  while (d > 0 && !endLegal(s, u, translate(r0, dir, d))) d -= STEP;
  return d;
}

/** [March b3] the moves offered within `allow`. */
export function moveMenu(s: AoeState, u: Unit, allow: Allowance): Action[] {
  const out: Action[] = [{ a: 'stay' }];
  if (u.bua) {
    // [Built Up Areas] leaving takes a full move; a half-move result keeps the unit in its block
    if (allow.dist >= basicRate(s, { ...u, bua: '' } as Unit))
      for (const o of leaveOptions(s, u)) out.push({ a: 'leave', edge: o.edge, f: o.f });
    return out;
  }
  for (const block of enterable(s, u, allow.dist)) out.push({ a: 'enter', block });
  const r0 = footprint(u);
  for (const rel of DIRS) {
    const seen = new Set<number>();
    for (const frac of FRACS) {
      const d = distanceFor(s, u, normDeg(u.h + rel), frac, allow.dist);
      if (d > 0 && !seen.has(d)) {
        seen.add(d);
        out.push({ a: 'move', dir: rel, frac });
      }
    }
  }
  // wheels pivot on a front corner; the arc of the outer corner is the distance used (A11), none after a wheel
  if (!allow.turned && !u.bua)
    for (const side of ['L', 'R'] as const)
      for (const deg of WHEELS) {
        if (wheelArc(r0.w, deg) > allow.dist) continue;
        const r = wheel(r0, side, deg);
        if (endLegal(s, u, r) && Number.isFinite(moveCost(s.ctx, armOf(u), r0, r))) out.push({ a: 'wheel', side, deg });
      }
  // A11: the road rate for March Column (infantry, cavalry) and limbered batteries, the whole move along the road
  if (roadMover(u) && onRoad(s.ctx, { x: u.x, y: u.y }))
    for (const frac of FRACS) {
      const end = roadEnd(s, u, frac, allow);
      if (
        end &&
        !out.some(
          (a) =>
            a.a === 'road' && roadEnd(s, u, a.frac, allow)?.x === end.x && roadEnd(s, u, a.frac, allow)?.y === end.y,
        )
      )
        out.push({ a: 'road', frac });
    }
  return out;
}

const roadMover = (u: Unit): boolean => (u.k === 'bat' ? u.limbered : u.f === 'MarchColumn');

/** [Movement rates] the row whose Road rate a road mover uses (A11: infantry in March Column use the Column row). */
export function roadKind(u: Unit): MoverKind {
  return u.k === 'bat'
    ? u.mob === 'Foot'
      ? 'footArtillery'
      : 'horseArtillery'
    : u.k === 'cav'
      ? 'cavalry'
      : 'infantryColumn';
}

/** A road move's end for `frac` of the road allowance (scaled like the basic one), if legal. */
function roadEnd(s: AoeState, u: Unit, frac: number, allow: Allowance): { x: number; y: number; h: number } | null {
  const rate = movementRate(roadKind(u));
  if (rate.road === null) return null;
  const base = basicRate(s, u);
  const dist = base > 0 ? (rate.road * IN * allow.dist * frac) / base : 0;
  if (dist <= 0) return null;
  const q = alongRoad(s.ctx, { x: u.x, y: u.y }, u.h, dist);
  if (!q || q.moved <= 0) return null;
  const r = rectAt(u, q.x, q.y, q.h);
  return endLegal(s, u, r) ? q : null;
}

/** Apply a move from the menu. */
export function applyMove(s: AoeState, id: string, a: Action, allow: Allowance, log: Log): AoeState {
  const u = unitOf(s, id);
  const r0 = footprint(u);
  switch (a.a) {
    case 'stay':
      return s;
    case 'move': {
      const dir = normDeg(u.h + a.dir);
      const d = distanceFor(s, u, dir, a.frac, allow.dist);
      const v = at(u, translate(r0, dir, d));
      log?.push({
        rule: 'Movement',
        text: `${id} moves ${(d / IN).toFixed(2)}" ${a.dir === 0 ? 'ahead' : a.dir === 180 ? 'back' : `obliquely (${a.dir}°)`}`,
      });
      return updUnit(s, id, { x: v.x, y: v.y });
    }
    case 'wheel': {
      const r = wheel(r0, a.side, a.deg);
      const arc = wheelArc(r0.w, a.deg);
      log?.push({ rule: 'Movement', text: `${id} wheels ${a.side === 'L' ? 'left' : 'right'} ${a.deg}°` });
      const v = at(u, r);
      const t = updUnit(s, id, { x: v.x, y: v.y, h: v.h });
      const rest = allow.dist - arc;
      return rest >= STEP ? push(t, { t: 'move', p: u.side, u: id, allow: { dist: rest, turned: true } }) : t;
    }
    case 'enter': {
      const b = s.ctx.blocks.find((x) => x.id === a.block)!;
      log?.push({ rule: 'Built Up Areas', text: `${id} occupies ${a.block}` });
      return updUnit(s, id, { x: b.x, y: b.y, bua: b.id });
    }
    case 'leave': {
      const o = leaveOptions(s, u).find((x) => x.edge === a.edge && x.f === a.f)!;
      log?.push({
        rule: 'Built Up Areas',
        text: `${id} leaves ${u.bua}, reforming ${a.f} outside its ${a.edge}° edge`,
      });
      return updUnit(s, id, {
        x: Math.round(o.r.x),
        y: Math.round(o.r.y),
        h: a.edge,
        bua: '',
        ...(u.k === 'bat' ? {} : { f: a.f }),
        changed: true,
      } as Partial<Unit>);
    }
    case 'road': {
      const q = roadEnd(s, u, a.frac, allow)!;
      log?.push({ rule: 'Movement', text: `${id} marches along the road` });
      return updUnit(s, id, { x: q.x, y: q.y, h: q.h });
    }
    default:
      throw new Error(`move: unexpected action ${a.a}`);
  }
}

/** [Movement] A11: formation and facing changes offered: each formation the unit may take, facing any of a few ways. */
export function formationChoices(s: AoeState, u: Unit): { f: InfFormation | CavFormation; h: number }[] {
  if (u.k === 'bat' || u.bua) return [];
  const forms: (InfFormation | CavFormation)[] =
    u.k === 'cav'
      ? ['Line', 'FieldColumn', 'MarchColumn']
      : ['Line', 'FieldColumn', 'Masse', 'MarchColumn', 'Square', ...(u.light ? (['OpenOrder'] as const) : [])];
  // facings: as now, either flank, about, and toward the nearest enemy (turning 90° or more is a formation change)
  const enemies = onTable(s).filter((o) => o.side !== u.side);
  let near: Unit | undefined;
  for (const o of enemies)
    if (!near || polygonDistance(poly(u), poly(o)) < polygonDistance(poly(u), poly(near))) near = o;
  const hs = new Set([u.h, normDeg(u.h + 90), normDeg(u.h + 180), normDeg(u.h + 270)]);
  if (near) hs.add(normDeg(Math.round(headingTo({ x: u.x, y: u.y }, { x: near.x, y: near.y }))));
  const out: { f: InfFormation | CavFormation; h: number }[] = [];
  for (const f of forms)
    for (const h of [...hs].sort((a, b) => a - b)) {
      if (f === u.f && h === u.h) continue;
      // a Square has four fronts: facing means nothing
      if (f === 'Square' && h !== u.h) continue;
      // in place: on the table, over no unit or block (the 1" rule is for moves, A11)
      const r = rectAt(u, u.x, u.y, h, f);
      const ps = rectCorners(r);
      if (passable(s, u, r) && !onTable(s).some((o) => o.id !== u.id && polygonsOverlap(ps, poly(o))))
        out.push({ f, h });
    }
  return out;
}

/** A11: the unit changes formation in place, centred, to face `h`. */
export function changeFormation(
  s: AoeState,
  id: string,
  f: InfFormation | CavFormation,
  h: number,
  log: Log,
): AoeState {
  const u = unitOf(s, id);
  if (u.k === 'bat') return s;
  const about = f === u.f && normDeg(h - u.h) === 180;
  log?.push({
    rule: 'Movement',
    text: about ? `${id} about-faces` : f === u.f ? `${id} turns to face ${h}°` : `${id} forms ${f} facing ${h}°`,
  });
  return updUnit(s, id, { f, h, changed: true, about } as Partial<Unit>);
}

/** The nearest enemy on the table (edge to edge). */
function nearestEnemy(s: AoeState, u: Unit): Unit | undefined {
  let best: Unit | undefined;
  let bd = Infinity;
  for (const o of onTable(s)) {
    if (o.side === u.side) continue;
    const d = polygonDistance(poly(u), poly(o));
    if (d < bd) {
      bd = d;
      best = o;
    }
  }
  return best;
}

/**
 * A9: a retreat straight away from the nearest enemy, facing kept: up to `dist`, or until `done` says it has gone far
 * enough. Friends are passed at no cost (it may not end on one); an enemy or impassable ground stops it with 1 extra
 * hit; a unit leaving the table is removed.
 */
function retreat(
  s: AoeState,
  id: string,
  dist: number,
  done: (u: Unit) => boolean,
  rule: string,
  log: Log,
  fromId?: string,
): AoeState {
  const u = unitOf(s, id);
  const e = fromId ? unitOf(s, fromId) : nearestEnemy(s, u);
  if (!e) return s;
  const dir = normDeg(headingTo({ x: e.x, y: e.y }, { x: u.x, y: u.y }));
  const r0 = footprint(u);
  let last = 0;
  let blocked = false;
  for (let d = STEP; d <= dist + 1e-9; d += STEP) {
    const r = translate(r0, dir, d);
    if (!onTableRect(s, r)) {
      log?.push({ rule, text: `${id} retreats off the table and is removed (A9)` });
      return updUnit(s, id, { gone: 'off-table' });
    }
    if (!passable(s, u, r) || !Number.isFinite(moveCost(s.ctx, armOf(u), r0, r))) {
      blocked = true;
      break;
    }
    // a retreat may end near the enemy, never on a unit
    if (!onTable(s).some((o) => o.id !== id && polygonsOverlap(rectCorners(r), poly(o)))) {
      last = d;
      if (done(at(u, r))) break;
    }
  }
  const v = at(u, translate(r0, dir, last));
  let t = updUnit(s, id, { x: v.x, y: v.y });
  log?.push({ rule, text: `${id} retreats ${(last / IN).toFixed(1)}" away from ${e.id}` });
  if (blocked) t = addHits(t, id, 1, 'A9', log);
  return t;
}

/**
 * [B&S results] A9: retreat `dist` straight away from the unit fought (`fromId`; the nearest enemy if none), facing
 * kept; blocked: 1 extra hit; off the table: removed.
 */
export function retreatBy(s: AoeState, id: string, dist: number, rule: string, log: Log, fromId?: string): AoeState {
  return retreat(s, id, dist, () => false, rule, log, fromId);
}

/** [March Table] Broken / Fall Back: retreat a full move (A9; a Square or Masse at the Line rate). */
export function retreatFull(s: AoeState, id: string, log: Log, rule = 'March Table', fromId?: string): AoeState {
  return retreat(s, id, fullMove(s, unitOf(s, id)), () => false, rule, log, fromId);
}

/** A9: a full move for retreats: the basic rate of the current formation (a Square or Masse at the Line rate). */
export function fullMove(s: AoeState, u: Unit): number {
  return basicRate(s, u) || movementRate('infantryLine').basic * IN;
}

/** [March Table] Retire: A9: the shortest distance (at most a full move) leaving it beyond enemy musketry range. */
export function retreatBeyondMusketry(s: AoeState, id: string, log: Log): AoeState {
  const range = s.ctx.options.A9_musketry * IN;
  const clear = (v: Unit) =>
    onTable(s).every(
      (o) => o.side === v.side || o.k !== 'inf' || polygonDistance(rectCorners(footprint(v)), poly(o)) > range,
    );
  if (clear(unitOf(s, id))) return s;
  const u = unitOf(s, id);
  const full = basicRate(s, u) || movementRate('infantryLine').basic * IN;
  return retreat(s, id, full, clear, 'March Table', log);
}
