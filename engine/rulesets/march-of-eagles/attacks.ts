/**
 * [Aggression] and [Defensive fire]: who may attack whom (M25), the charge's distance, falling short, sweeping a screen
 * away, joining a combat (M13), defensive fire (M9, M24) with the attacker's RESOLVE (M10), and contact.
 */
import type { Log } from '../../core/procedure.ts';
import { hitsImpassable, isDifficultAt, lineOfSight, upSlope } from '../../geometry/terrain.ts';
import {
  IN,
  type Rect,
  boxGap,
  fromLocal,
  headingTo,
  inFrontArc,
  onTable,
  polygonDistance,
  polygonPolylineDistance,
  polygonsOverlap,
  rectCorners,
  sectorOf,
  segmentCrossesPolygon,
  translate,
} from '../../geometry/geometry.ts';
import { blockersExcept, centre, contactRect, faceSegment, footprint, poly, screenPoly } from './shape.ts';
import { eng, ev, push, scWith, unit, upd, updEng, withState } from './state.ts';
import type { Action, Bn, Engagement, Face, MoeState, Then } from './types.ts';
import { type MoeHandlers, STEP, engaged, enterGround, named, owner } from './common.ts';
import { furthestAlong } from '../../tabletop/movement.ts';
import { onGround } from '../../tabletop/clearance.ts';
import { removeUnit } from './casualties.ts';
import { shotDice } from './shooting.ts';
import { startCheck } from './resolve.ts';
import { startCombat } from './combat.ts';

interface AttackInfo {
  face: Face;
  join: boolean;
  contact: Rect;
}

/** [Aggression] / M25: may `b` attack `t`? Returns the face to contact, or null. */
export function attackInfo(s: MoeState, b: Bn, t: Bn): AttackInfo | null {
  if (!t.on || t.side === b.side || t.brk) return null;
  const reach = (b.f === 'L' ? 12 : 18) * IN;
  if (boxGap(poly(b), poly(t)) > reach) return null;
  let join = false;
  const tr = footprint(t);
  const face = sectorOf(tr, centre(b));
  if (engaged(t)) {
    // §6.8: join only into the flank or rear of an engaged enemy, not in the turn the combat started
    const e = eng(s, t.eng);
    if (e.started >= s.turn) return null;
    if (face === 'front') return null;
    join = true;
  }
  const br = footprint(b);
  const tp = poly(t);
  const bp = poly(b);
  if (polygonDistance(bp, tp) > reach) return null;
  if (!tp.some((q) => inFrontArc(br, q))) return null;
  const contact = contactRect(t, face, br.w, br.d);
  const cc = rectCorners(contact);
  const bc = rectCorners(br);
  // the straight path to contact crosses no other footprint except the target's own screen (M25)
  for (const o of s.units) {
    if (!o.on || o.id === b.id || o.id === t.id) continue;
    const op = poly(o);
    if (segmentCrossesPolygon(centre(b), contact, op)) return null;
    if (segmentCrossesPolygon(bc[0]!, cc[1]!, op) || segmentCrossesPolygon(bc[1]!, cc[0]!, op)) return null;
    if (o.side === b.side) {
      const sp = screenPoly(o);
      if (sp && segmentCrossesPolygon(centre(b), contact, sp)) return null;
    }
  }
  if (hitsImpassable(s.ctx.terrain, cc)) return null;
  if (!onTable(cc, s.ctx.width, s.ctx.height)) return null;
  const blockers = blockersExcept(
    s,
    (o, isScreen) => o.id === b.id || (o.id === t.id && !isScreen) || (o.id === t.id && isScreen),
  );
  const front = fromLocal(br, 0, br.d / 2);
  if (
    !lineOfSight(s.ctx.terrain, front, centre(t), blockers) &&
    !tp.some((q) => lineOfSight(s.ctx.terrain, front, q, blockers))
  )
    return null;
  return { face, join, contact };
}

/** [Aggression] the BRAVERY check passed: the charge's distance is rolled, 2D6 in line, 3D6 in column. */
export function chargeRoll(s: MoeState, id: string, then: Extract<Then, { k: 'attack' }>, log: Log): MoeState {
  const b = unit(s, id);
  // the difficult-terrain and slope rules apply
  let n = b.f === 'L' ? 2 : 3;
  const t = unit(s, then.target);
  if (
    !scWith(s, b) &&
    (isDifficultAt(s.ctx.terrain, centre(b)) || upSlope(s.ctx.terrain, centre(b), headingTo(centre(b), centre(t))))
  ) {
    n = 1;
    ev(log, 'Aggression', `${b.name} charges from difficult terrain or up a slope: 1D6`);
  }
  return push(s, {
    t: 'dist',
    u: id,
    n,
    then: { k: 'charge', target: then.target, face: then.face, join: then.join, dis: false },
  });
}

/** The charge goes in with `allow` of movement: it falls short, joins a combat, meets defensive fire or contacts. */
function resolveCharge(
  s: MoeState,
  id: string,
  then: Extract<Then, { k: 'charge' }>,
  allow: number,
  log: Log,
): MoeState {
  let ns = s;
  const b = unit(ns, id);
  const t = unit(ns, then.target);
  if (then.dis && !b.dis) {
    ns = upd(ns, id, { dis: true });
    ev(log, 'Manoeuvre', `${b.name} charges across a linear obstacle: instant disorder`);
  }
  const [f1, f2] = faceSegment(t, then.face);
  const need = polygonPolylineDistance(poly(b), [f1, f2]);
  if (allow + 1 < need) {
    // [Aggression] fails to make contact: moves the full distance and stands a turn (the 4" rule is waived)
    const r = footprint(b);
    const dir = headingTo(centre(b), { x: (f1.x + f2.x) / 2, y: (f1.y + f2.y) / 2 });
    const d = furthestAlong(r, dir, Math.max(0, Math.min(allow, need - 50)), STEP, (rr) => {
      const p = rectCorners(rr);
      if (!onGround(ns.ctx, [p])) return false;
      return !ns.units.some((o) => o.on && o.id !== id && polygonsOverlap(p, poly(o)));
    });
    const nr = translate(r, dir, d);
    ev(
      log,
      'Aggression',
      `${b.name}'s charge falls short (${(allow / IN).toFixed(1)}" of ${(need / IN).toFixed(1)}"): it stands next turn`,
    );
    ns = upd(ns, id, { x: nr.x, y: nr.y, stand: ns.turn + 1, standDis: false });
    return enterGround(ns, id, r, nr, log, 'charges');
  }
  // the path sweeps the target's screen away [Skirmishers]
  const tsp = screenPoly(t);
  if (tsp && t.sk > 0) {
    const contact = contactRect(t, then.face, footprint(b).w, footprint(b).d);
    if (segmentCrossesPolygon(centre(b), contact, tsp) || polygonsOverlap(rectCorners(contact), tsp)) {
      ev(log, 'Skirmishers', `${t.name}'s skirmish screen (${t.sk}) is contacted and removed from the game`);
      ns = upd(ns, t.id, { sk: 0, cas: t.cas + t.sk });
    }
  }
  if (then.join) {
    // §6.8 join: no defensive fire; the engaged enemy attacked in flank or rear becomes disordered
    const e = eng(ns, t.eng);
    const fromTurn = ns.nAct === 1 ? ns.turn : ns.turn + 1;
    const c = contactRect(unit(ns, t.id), then.face, footprint(b).w, footprint(b).d);
    const from = footprint(unit(ns, id));
    ns = upd(ns, id, { x: c.x, y: c.y, h: c.h, eng: e.id });
    ns = enterGround(ns, id, from, c, log, 'joins the combat');
    ns = upd(ns, t.id, { dis: true });
    ns = updEng(ns, e.id, { joiners: [...e.joiners, { id, side: b.side, from: fromTurn }] });
    ev(
      log,
      'Aggression',
      `${b.name} joins the combat against ${t.name}'s ${then.face}: +2 from turn ${fromTurn}; ${t.name} is disordered`,
    );
    return ns;
  }
  const td = unit(ns, t.id);
  // [Defensive fire] only a battalion that has not activated, is not standing, engaged or broken, and has at least
  // one firing group eligible against the attacker at its starting position
  if (
    !td.act &&
    td.stand < ns.turn &&
    !engaged(td) &&
    !td.brk &&
    shotDice(ns, td, false, unit(ns, id), false, 1, true)
  ) {
    return push(ns, { t: 'defFire', p: td.side, att: id, def: td.id });
  }
  return contactAndFight(ns, id, td.id, then.face, log);
}

/** [Aggression] contact: a broken target is caught (M11), a standing or reforming one disordered (M12); combat starts. */
function contactAndFight(s: MoeState, attId: string, defId: string, face: Face, log: Log): MoeState {
  let ns = s;
  const a = unit(ns, attId);
  const d = unit(ns, defId);
  if (!a.on || !d.on) return ns;
  if (d.brk) {
    // M11: a broken battalion contacted by an attack is removed
    ev(log, 'M11', `${d.name} is broken and is caught: removed from play`);
    return removeUnit(ns, defId, 'destroyed', log);
  }
  if ((d.stand >= ns.turn && d.standDis) || d.reform) {
    // [Disorder] attacked before spending a full turn standing to rally/reform (M12)
    ev(log, 'Disorder', `${d.name} is attacked while standing or reforming: disordered`);
    ns = upd(ns, defId, { dis: true, reform: false });
  }
  const c = contactRect(unit(ns, defId), face, footprint(a).w, footprint(a).d);
  const id = `E${ns.nEng + 1}`;
  ns = withState(ns, { nEng: ns.nEng + 1 });
  const e: Engagement = {
    id,
    att: attId,
    def: defId,
    rounds: 0,
    bonus: 'att',
    started: ns.turn,
    joiners: [],
    fought: false,
    face,
  };
  ns = withState(ns, { engs: [...ns.engs, e] });
  ns = upd(ns, attId, { x: c.x, y: c.y, h: c.h, eng: id });
  ns = upd(ns, defId, { eng: id });
  ev(log, 'Aggression', `${a.name} contacts ${d.name}'s ${face}: combat`);
  ns = enterGround(ns, attId, footprint(a), c, log, 'charges');
  return startCombat(ns, id, log);
}

export const attacks: MoeHandlers<'charge' | 'defFire' | 'dfBand' | 'afterDefFire' | 'contact'> = {
  charge: { kind: 'auto', run: (s, f, log) => resolveCharge(s, f.u, f.then, f.allow, log) },
  defFire: {
    kind: 'decision',
    owner,
    legal: () => [
      { k: 'defFire', yes: true },
      { k: 'defFire', yes: false },
    ],
    step(s, f, a, log) {
      const yes = (a as Extract<Action, { k: 'defFire' }>).yes;
      const at = unit(s, f.att);
      const face = sectorOf(footprint(unit(s, f.def)), centre(at));
      if (!yes) {
        ev(log, 'Defensive fire', `${unit(s, f.def).name} holds its fire`);
        return contactAndFight(s, f.att, f.def, face, log);
      }
      const ns = upd(s, f.def, { act: true }); // M24: defensive fire uses the activation
      ev(log, 'Defensive fire', `${unit(ns, f.def).name} gives defensive fire`);
      return push(
        ns,
        { t: 'afterDefFire', att: f.att, def: f.def, face, cas0: at.cas },
        { t: 'dfBand', att: f.att, def: f.def },
      );
    },
    describe: (s, f) =>
      `${named(s, f.att)} is charging ${named(s, f.def)}: give defensive fire? It uses ${f.def}'s activation this turn [Defensive fire]`,
  },
  dfBand: {
    kind: 'chance',
    outcomes(s) {
      // [Defensive fire] 1 long, (2: M9), 3–5 medium, 6 short
      const two = s.ctx.options.M9_band2 === 'long';
      return [
        { action: { k: 'c-band', band: 'long' }, p: two ? 2 / 6 : 1 / 6, label: 'long range (25%)' },
        { action: { k: 'c-band', band: 'medium' }, p: two ? 3 / 6 : 4 / 6, label: 'medium range (50%)' },
        { action: { k: 'c-band', band: 'short' }, p: 1 / 6, label: 'short range (all)' },
      ];
    },
    step(s, f, a, log) {
      const band = (a as Extract<Action, { k: 'c-band' }>).band;
      const frac = band === 'long' ? 0.25 : band === 'medium' ? 0.5 : 1;
      const d = unit(s, f.def);
      const at = unit(s, f.att);
      const shot = shotDice(s, d, false, at, false, frac, true);
      ev(log, 'Defensive fire', `range band: ${band}`);
      if (!shot) {
        ev(log, 'Defensive fire', `${d.name} has no firing group eligible against ${at.name}: no dice`);
        return s;
      }
      return push(s, {
        t: 'volley',
        shooter: d.id,
        target: at.id,
        screen: false,
        tscreen: false,
        dice: shot.dice,
        need: shot.need,
        mod: shot.mod,
        rerolls: Math.min(shot.dice, Math.max(0, d.sgt - d.sgtU)),
        defensive: true,
      });
    },
  },
  afterDefFire: {
    kind: 'auto',
    run(s, f, log) {
      const at = unit(s, f.att);
      if (!at.on || at.brk) return s;
      // [Defensive fire] casualties taken: the attacker checks RESOLVE at once (M10)
      if (at.cas > f.cas0 && !at.tested)
        return startCheck(s, at, 'resolve', { k: 'resolve', cause: 'defFire', target: f.def, face: f.face }, log);
      return contactAndFight(s, f.att, f.def, f.face, log);
    },
  },
  contact: { kind: 'auto', run: (s, f, log) => contactAndFight(s, f.att, f.def, f.face, log) },
};
