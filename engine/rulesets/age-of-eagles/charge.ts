/**
 * [Charges] A5: who may charge what, how far, and the charge going in: the target's reactions during the enemy March
 * phase ([Forming Square]; A5 countercharge), the move into contact, and the combat it starts for the Bayonet & Sabre
 * phase. Also what a charger in contact suffers from fire ("charge checked").
 */
import type { AutoHandler, DecisionHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { type Rect, normDeg, polygonsOverlap, rectCorners, sectorOf, translate } from '../../geometry/geometry.ts';
import { contactRect } from '../../tabletop/contact.ts';
import { wheelArc } from '../../tabletop/movement.ts';
import { basicRate } from './manoeuvre.ts';
import { armOf, blockRect, centre, footprint, fourFronts, inFrontArc, lineOfSight, moveCost, poly } from './shape.ts';
import { IN, onTable, unitOf, updUnit } from './state.ts';
import { marchModifier } from './tmm.ts';
import type { Action, AoeState, Combat, Face, Frame, Unit } from './types.ts';

type F<T extends Frame['t']> = Extract<Frame, { t: T }>;

/** A5: infantry not in March Column, Square or a BUA, and cavalry, may charge; batteries never. */
export function mayCharge(u: Unit): boolean {
  if (u.gone || u.bua) return false;
  if (u.k === 'cav') return true;
  return u.k === 'inf' && u.f !== 'MarchColumn' && u.f !== 'Square';
}

/** The body a charger contacts: the target's footprint, or its BUA block's outside edge (BUA). */
const targetRect = (s: AoeState, t: Unit): Rect => {
  if (!t.bua) return footprint(t);
  const b = s.ctx.blocks.find((x) => x.id === t.bua)!;
  return blockRect(b);
};

/** The face of `t` a unit coming from `p` contacts: the one in whose sector `p` lies (any edge of a square or block). */
const contactFace = (s: AoeState, t: Unit, u: Unit): Face => sectorOf(targetRect(s, t), centre(u));

/** The attackers already on each face of `t`'s combat (1 attacking unit per face, [Charges]). */
function faceTaken(s: AoeState, t: Unit, face: Face): boolean {
  return s.combats.some((c) => c.def === t.id && c.atts.some((a) => a.face === face && !unitOf(s, a.u).gone));
}

/**
 * A5: where `u` would stand in contact with `t`: its footprint against the face in whose sector its centre lies, reached
 * within its full move (one wheel, then straight; terrain costs) along a path crossing no other unit. Null if not.
 */
export function contactFor(s: AoeState, u: Unit, t: Unit): { rect: Rect; face: Face } | null {
  const r0 = footprint(u);
  const face = contactFace(s, t, u);
  if (faceTaken(s, t, face)) return null;
  const c = contactRect(targetRect(s, t), face, r0.w, r0.d, 0);
  // the wheel is the turn to the contact heading; the rest is straight
  const turn = Math.abs(((c.h - r0.h + 540) % 360) - 180);
  const allowance = basicRate(s, u);
  const arc = turn ? wheelArc(r0.w, turn) : 0;
  const cost = arc + moveCost(s.ctx, armOf(u), r0, c);
  if (!(cost <= allowance + 1)) return null;
  // the path and the end cross no other unit (the target is touched, not crossed)
  const others = onTable(s).filter((o) => o.id !== u.id && o.id !== t.id);
  const steps = Math.max(1, Math.ceil(Math.hypot(c.x - r0.x, c.y - r0.y) / 50));
  for (let i = 1; i <= steps; i++) {
    const r = { ...c, x: r0.x + ((c.x - r0.x) * i) / steps, y: r0.y + ((c.y - r0.y) * i) / steps };
    const ps = rectCorners(r);
    if (ps.some((p) => p.x < 0 || p.y < 0 || p.x > s.ctx.width || p.y > s.ctx.height)) return null;
    if (others.some((o) => polygonsOverlap(ps, poly(o)))) return null;
  }
  // the contact rectangle touches the target's edge: shrink it a hair for the overlap test against the target itself
  const inner = rectCorners({ ...c, w: c.w - 4, d: c.d - 4 });
  if (polygonsOverlap(inner, rectCorners(targetRect(s, t)))) return null;
  return { rect: c, face };
}

/** A5: the enemies `u` may charge: at least partly in its front arc, in sight, reachable with a free face. */
export function chargeTargets(s: AoeState, u: Unit): Unit[] {
  if (!mayCharge(u)) return [];
  return onTable(s).filter(
    (t) => t.side !== u.side && inFrontArc(u, t) && lineOfSight(s, u, t) && contactFor(s, u, t) !== null,
  );
}

/**
 * [Charges] the charger passed its March check with a normal move: first the target's reaction, if it has one
 * ([Forming Square]: infantry not in March Column or a BUA charged by cavalry; A5: cavalry not disordered, not in
 * March Column, with the charger in its front arc, may countercharge), then the charge goes in.
 */
export function startChargeIn(s: AoeState, u: Unit, targetId: string, log: Log): AoeState {
  const t = unitOf(s, targetId);
  log?.push({ rule: 'Charges', text: `${u.id} charges ${t.id}` });
  const frames: Frame[] = [{ t: 'chargeIn', u: u.id, target: t.id }];
  if (u.k === 'cav' && t.k === 'inf' && t.f !== 'MarchColumn' && t.f !== 'Square' && !t.bua)
    frames.push({ t: 'react', p: t.side, u: t.id, by: u.id });
  else if (t.k === 'cav' && !t.dis && t.f !== 'MarchColumn' && inFrontArc(t, u))
    frames.push({ t: 'react', p: t.side, u: t.id, by: u.id });
  return push(s, ...frames);
}

const react: DecisionHandler<AoeState, F<'react'>, Action> = {
  kind: 'decision',
  owner: (f) => f.p,
  legal: (s, f) =>
    unitOf(s, f.u).k === 'inf' ? [{ a: 'square' }, { a: 'noSquare' }] : [{ a: 'countercharge' }, { a: 'stand' }],
  step(s, f, a, log) {
    const t = unitOf(s, f.u);
    if (a.a === 'countercharge') {
      log?.push({ rule: 'A5', text: `${t.id} countercharges ${f.by}` });
      return updUnit(s, t.id, { cc: true } as Partial<Unit>);
    }
    if (a.a === 'square') {
      // [Forming Square] a March table roll with the normal TMMs except the inconsistent-formation −2 (A5)
      const order = { o: 'form', f: 'Square', h: t.h, thenMove: false } as const;
      return push(s, { t: 'march', u: t.id, mod: marchModifier(s, t, order, true), order, square: true });
    }
    return s;
  },
  describe: (s, f) =>
    unitOf(s, f.u).k === 'inf'
      ? `${f.u}: try to form square against ${f.by}'s charge? (needs Cautious or Rally)`
      : `${f.u}: countercharge ${f.by}?`,
};

/** [Charges] the charger moves into contact and joins (or starts) the target's combat. */
const chargeIn: AutoHandler<AoeState, F<'chargeIn'>> = {
  kind: 'auto',
  run(s0, f, log) {
    let s = s0;
    const u = unitOf(s, f.u);
    const t = unitOf(s, f.target);
    if (u.gone || t.gone) return s;
    const c = contactFor(s, u, t);
    if (!c) {
      // the target changed shape (a square) or the face filled: the charge stops where it is
      log?.push({ rule: 'Charges', text: `${u.id} cannot reach ${t.id} now: the charge halts` });
      return s;
    }
    s = updUnit(s, u.id, { x: c.rect.x, y: c.rect.y, h: normDeg(Math.round(c.rect.h)) });
    // [Built Up Areas] cavalry attacking a unit in a BUA are always disordered
    if (u.k === 'cav' && t.bua) s = updUnit(s, u.id, { dis: true });
    log?.push({ rule: 'Charges', text: `${u.id} contacts ${t.id}'s ${fourFronts(t) ? 'side' : c.face}` });
    const existing = s.combats.find((x) => x.def === t.id);
    const combats: Combat[] = existing
      ? s.combats.map((x) => (x === existing ? { ...x, atts: [...x.atts, { u: u.id, face: c.face }] } : x))
      : [...s.combats, { def: t.id, atts: [{ u: u.id, face: c.face }], bt: false, fought: false }];
    return { ...s, combats };
  },
};

/** The enemies in contact with `id` through a combat. */
export function contactsOf(s: AoeState, id: string): string[] {
  const out: string[] = [];
  for (const c of s.combats) {
    if (c.def === id) out.push(...c.atts.map((a) => a.u));
    else if (c.atts.some((a) => a.u === id)) out.push(c.def);
  }
  return out;
}

/**
 * [Volley & Cannonade] charge checked: a charging unit in contact is retreated 2" from the enemy and will not fight
 * this Bayonet & Sabre phase (cavalry may instead recall up to a full move: here the 2" retreat, an interpretation
 * that keeps the choice out of the fire step).
 */
export function checkCharge(s: AoeState, id: string, log: Log): AoeState {
  const c = s.combats.find((x) => x.atts.some((a) => a.u === id));
  if (!c) return s;
  const u = unitOf(s, id);
  const d = unitOf(s, c.def);
  const dir = normDeg(Math.atan2(u.x - d.x, u.y - d.y) * (180 / Math.PI));
  const r = translate(footprint(u), dir, 2 * IN);
  log?.push({ rule: 'Volley & Cannonade', text: `${id}'s charge is checked: it falls back 2" from ${d.id}` });
  const combats = s.combats
    .map((x) => (x === c ? { ...x, atts: x.atts.filter((a) => a.u !== id) } : x))
    .filter((x) => x.atts.length > 0);
  return { ...updUnit(s, id, { x: Math.round(r.x), y: Math.round(r.y), checked: true }), combats };
}

export const chargeHandlers = { react, chargeIn };
