/**
 * [March (1st) Phase] a. replace, attach and detach leaders; b. for each unit that will move: b1 select it and state
 * its orders (A5), b2 the March table check with the Tactical Movement Modifiers, b3 move it as the result allows;
 * c. move detached leaders. Units never picked hold (no roll). A turn stays searchable as a chain of small decisions:
 * pick a unit, give its order, the roll (a chance node over the table's rows), then its move from a finite menu.
 */
import type { ChanceHandler, DecisionHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { addHits } from './hits.ts';
import {
  basicRate,
  changeFormation,
  formationChoices,
  leaderReach,
  moveMenu,
  applyMove,
  retreatFull,
  retreatBeyondMusketry,
} from './manoeuvre.ts';
import { chargeTargets, mayCharge, startChargeIn } from './charge.ts';
import { leaderDistance } from './shape.ts';
import { marchModifier } from './tmm.ts';
import { IN, onTable, phasing, unitOf, updLeader, updUnit } from './state.ts';
import { type MarchResult, MARCH_TABLE_DISORDERED, MARCH_TABLE_GOOD_ORDER, rollOn } from './tables.ts';
import type { Action, Allowance, AoeState, Frame, Order, Side, Unit } from './types.ts';

type F<T extends Frame['t']> = Extract<Frame, { t: T }>;

/** [March a–c] the phase's frames, a on top; A10: captured leaders are replaced first, never Charismatic. */
export function startMarch(s0: AoeState, log: Log): AoeState {
  const p = phasing(s0);
  let s: AoeState = {
    ...s0,
    leaders: s0.leaders.map((l) => (l.acted || l.moved ? { ...l, acted: false, moved: false } : l)),
  };
  for (const l of s.leaders) {
    if (l.side !== p || !l.captured) continue;
    // A10: the replacement is placed attached to a unit of the division (the army leader: any unit); the first on the
    // table in scenario order (an interpretation: the sheets do not say which)
    const host = onTable(s).find((u) => u.side === p && (l.army || u.div === l.div));
    if (!host) continue;
    s = updLeader(s, l.id, { captured: false, charismatic: false, att: host.id, x: host.x, y: host.y });
    log?.push({ rule: 'A10', text: `a replacement for ${l.id} takes command, attached to ${host.id}` });
  }
  return push(s, { t: 'leaderMove', p }, { t: 'pickUnit', p }, { t: 'leaders', p });
}

/** [March a] attach a detached leader to a unit of his command within his move, or detach an attached one. */
const leaders: DecisionHandler<AoeState, F<'leaders'>, Action> = {
  kind: 'decision',
  owner: (f) => f.p,
  legal(s, f) {
    const out: Action[] = [];
    for (const l of s.leaders) {
      if (l.side !== f.p || l.captured || l.acted) continue;
      if (l.att) out.push({ a: 'detach', l: l.id });
      else
        for (const u of onTable(s))
          if (u.side === f.p && (l.army || u.div === l.div) && leaderDistance(l, u) <= leaderReach())
            out.push({ a: 'attach', l: l.id, u: u.id });
    }
    out.push({ a: 'doneLeaders' });
    return out;
  },
  step(s, f, a, log) {
    if (a.a === 'doneLeaders') return s;
    if (a.a === 'attach') {
      const u = unitOf(s, a.u);
      log?.push({ rule: 'March Phase', text: `${a.l} attaches to ${a.u}` });
      return push(updLeader(s, a.l, { att: a.u, x: u.x, y: u.y, acted: true }), f);
    }
    if (a.a === 'detach') {
      log?.push({ rule: 'March Phase', text: `${a.l} detaches` });
      return push(updLeader(s, a.l, { att: '', acted: true }), f);
    }
    throw new Error(`leaders: unexpected action ${a.a}`);
  },
  describe: (s, f) => `${s.sides[f.p].name}: attach or detach leaders (March phase a)`,
};

/** Units that may be picked: on the table, the phasing side's, not yet ordered this phase, with an order to give. */
const pickable = (s: AoeState, p: Side) =>
  onTable(s).filter(
    (u) =>
      u.side === p &&
      !u.ordered &&
      // quick cases first: only a Square in good order can be left with nothing to do
      (u.k === 'bat' || u.dis || !(u.k === 'inf' && u.f === 'Square') || orders(s, u).length > 0),
  );

const pickUnit: DecisionHandler<AoeState, F<'pickUnit'>, Action> = {
  kind: 'decision',
  owner: (f) => f.p,
  legal: (s, f) => [...pickable(s, f.p).map((u): Action => ({ a: 'pick', u: u.id })), { a: 'endMarch' }],
  skip: (s, f) => pickable(s, f.p).length === 0,
  step(s, f, a, log) {
    if (a.a === 'endMarch') {
      const rest = pickable(s, f.p).map((u) => u.id);
      if (rest.length) log?.push({ rule: 'March Phase', text: `${rest.join(', ')} hold` });
      return s;
    }
    if (a.a !== 'pick') throw new Error('pickUnit: unexpected action');
    return push(updUnit(s, a.u, { ordered: true }), f, { t: 'order', p: f.p, u: a.u });
  },
  describe: (s, f) => `${s.sides[f.p].name}: which unit moves next? (March phase b1)`,
};

/** [March b1] A5: the orders a unit may be given. */
function orders(s: AoeState, u: Unit): Order[] {
  const out: Order[] = [];
  if (u.k === 'bat') {
    // [Movement] a battery moves limbered; unlimbered it can only prolong 1"
    out.push({ o: 'move' }, { o: u.limbered ? 'unlimber' : 'limber' });
  } else {
    if (!(u.k === 'inf' && u.f === 'Square')) out.push({ o: 'move' });
    for (const c of formationChoices(s, u))
      out.push({ o: 'form', f: c.f, h: c.h, thenMove: false }, { o: 'form', f: c.f, h: c.h, thenMove: true });
    // [Charges] A5: infantry not in March Column or Square, and cavalry, may charge what they can reach
    if (mayCharge(u)) for (const t of chargeTargets(s, u)) out.push({ o: 'charge', target: t.id });
  }
  if (u.dis) out.push({ o: 'rally' });
  return out;
}

const order: DecisionHandler<AoeState, F<'order'>, Action> = {
  kind: 'decision',
  owner: (f) => f.p,
  legal: (s, f) => orders(s, unitOf(s, f.u)).map((o): Action => ({ a: 'order', order: o })),
  step(s, f, a, log) {
    if (a.a !== 'order') throw new Error('order: unexpected action');
    const u = unitOf(s, f.u);
    const mod = marchModifier(s, u, a.order);
    log?.push({
      rule: 'March Phase',
      text: `${u.id} is ordered to ${orderWords(a.order)} (March table ${mod >= 0 ? '+' : ''}${mod})`,
    });
    return push(s, { t: 'march', u: u.id, mod, order: a.order, square: false });
  },
  describe: (s, f) => `${f.u}: which order? (March phase b1)`,
};

function orderWords(o: Order): string {
  switch (o.o) {
    case 'form':
      return `form ${o.f} facing ${o.h}°${o.thenMove ? ' and move' : ''}`;
    case 'charge':
      return `charge ${o.target}`;
    default:
      return o.o;
  }
}

/** [March Table] the rows of the unit's column with their probabilities for D10 + `mod` (A1). */
function marchOutcomes(u: Unit, mod: number): { row: number; r: MarchResult; p: number }[] {
  const table = u.dis ? MARCH_TABLE_DISORDERED : MARCH_TABLE_GOOD_ORDER;
  return rollOn(table, mod).map(({ value: row, p }) => ({ row, r: table[row]!, p }));
}

const march: ChanceHandler<AoeState, F<'march'>, Action> = {
  kind: 'chance',
  outcomes: (s, f) =>
    marchOutcomes(unitOf(s, f.u), f.mod).map(({ row, r, p }) => ({
      action: { a: 'marchRoll', r: row },
      p,
      label: r.name,
    })),
  step(s, f, a, log) {
    if (a.a !== 'marchRoll') throw new Error('march: not a March roll');
    const u = unitOf(s, f.u);
    const r = (u.dis ? MARCH_TABLE_DISORDERED : MARCH_TABLE_GOOD_ORDER)[a.r]!;
    if (f.square) {
      // [Forming Square] at least Cautious or Rally forms the square; A5: other results have no effect
      log?.push({
        rule: 'Forming Square',
        text: `${u.id}: ${r.name}: ${r.formsSquare ? 'forms square' : 'fails to form square'}`,
      });
      return r.formsSquare ? changeFormation(s, u.id, 'Square', u.h, log) : s;
    }
    log?.push({ rule: 'March Table', text: `${u.id}: ${r.text}` });
    return applyMarchResult(s, u, r, f.order, log);
  },
  describe: (s, f) => `${f.u}'s March table check (D10 ${f.mod >= 0 ? '+' : ''}${f.mod})`,
};

/** [March Table] what the result does to the unit, then its move as far as the result allows its order. */
function applyMarchResult(s0: AoeState, u0: Unit, r: MarchResult, o: Order, log: Log): AoeState {
  let s = s0;
  const id = u0.id;
  if (r.removed) {
    log?.push({ rule: 'March Table', text: `${id} routs and is removed from play` });
    return updUnit(s, id, { gone: 'routed' });
  }
  // rallying removes disorder; a battery's silenced marker needs Rally or Elan (not Shaken)
  if (r.rallies && (u0.k !== 'bat' || r.removesSilenced)) s = updUnit(s, id, { dis: false });
  if (r.hits) s = addHits(s, id, r.hits, 'March Table', log);
  if (unitOf(s, id).gone) return s;
  if (r.retreat === 'fullMove') {
    s = updUnit(s, id, { dis: true });
    return retreatFull(s, id, log);
  }
  if (r.retreat === 'beyondMusketry') return retreatBeyondMusketry(s, id, log);
  if (r.disorderedAfter) s = updUnit(s, id, { dis: true });
  if (r.move === 'none' || o.o === 'rally' || o.o === 'hold') return s;
  const u = unitOf(s, id);
  if (o.o === 'charge') {
    // A5: a normal move lets the charge go in; a half move cancels it: a half move ending 1" from any enemy instead
    if (r.move === 'full') return startChargeIn(s, u, o.target, log);
    log?.push({ rule: 'Charges', text: `${id}'s charge is cancelled by the half-move result` });
    return pushMove(s, u, { dist: basicRate(s, u) / 2 });
  }
  const rate = basicRate(s, u);
  if (o.o === 'move') {
    // [Movement] an unlimbered battery can only prolong 1"
    const dist = u.k === 'bat' && !u.limbered ? Math.min(IN, rate) : r.move === 'half' ? rate / 2 : rate;
    return pushMove(s, u, { dist });
  }
  if (o.o === 'form' || o.o === 'limber' || o.o === 'unlimber') {
    const allowed =
      r.formationChange === 'any' ||
      (r.formationChange === 'squareOnly' && o.o === 'form' && o.f === 'Square') ||
      (r.formationChange === 'squareOrLimber' && ((o.o === 'form' && o.f === 'Square') || o.o !== 'form'));
    if (!allowed) {
      // the result forbids the change; a half-move result still lets the unit move half without it (A11)
      log?.push({ rule: 'March Table', text: `${id} cannot change formation on this result` });
      return r.move === 'half' && !(u.k === 'inf' && u.f === 'Square') ? pushMove(s, u, { dist: rate / 2 }) : s;
    }
    s =
      o.o === 'form'
        ? changeFormation(s, id, o.f, o.h, log)
        : updUnit(s, id, { changed: true, ...(u.k === 'bat' ? { limbered: o.o === 'limber' } : {}) });
    if (o.o !== 'form') log?.push({ rule: 'Movement', text: `${id} ${o.o}s` });
    // A11: a formation change costs a half move; a half-move result allows the change and nothing more
    if (r.move === 'half') return s;
    if (o.o === 'form' && !o.thenMove) return s;
    const v = unitOf(s, id);
    const half = basicRate(s, v) / 2;
    return half > 0 ? pushMove(s, v, { dist: half }) : s;
  }
  return s;
}

function pushMove(s: AoeState, u: Unit, allow: Allowance): AoeState {
  return allow.dist > 0 ? push(s, { t: 'move', p: u.side, u: u.id, allow }) : s;
}

/** [March b3] the unit moves within its allowance: a finite menu of directions, fractions, wheels, roads, blocks. */
const move: DecisionHandler<AoeState, F<'move'>, Action> = {
  kind: 'decision',
  owner: (f) => f.p,
  legal: (s, f) => moveMenu(s, unitOf(s, f.u), f.allow),
  step: (s, f, a, log) => applyMove(s, f.u, a, f.allow, log),
  describe: (_s, f) => `${f.u}: where does it move? (up to ${(f.allow.dist / IN).toFixed(1)}")`,
};

/** [March c] A10: detached leaders move (12" basic), here to join a unit of their command or stay. */
const leaderMove: DecisionHandler<AoeState, F<'leaderMove'>, Action> = {
  kind: 'decision',
  owner: (f) => f.p,
  legal(s, f) {
    const out: Action[] = [];
    for (const l of s.leaders) {
      if (l.side !== f.p || l.captured || l.att || l.moved) continue;
      for (const u of onTable(s))
        if (u.side === f.p && (l.army || u.div === l.div) && leaderDistance(l, u) <= leaderReach())
          out.push({ a: 'leaderTo', l: l.id, u: u.id });
    }
    out.push({ a: 'doneLeaderMoves' });
    return out;
  },
  step(s, f, a, log) {
    if (a.a === 'doneLeaderMoves') return s;
    if (a.a !== 'leaderTo') throw new Error('leaderMove: unexpected action');
    const u = unitOf(s, a.u);
    log?.push({ rule: 'March Phase', text: `${a.l} rides to ${a.u}` });
    // he moves next to the unit and stays detached (attaching happens in step a)
    return push(updLeader(s, a.l, { x: u.x, y: u.y, moved: true }), f);
  },
  describe: (s, f) => `${s.sides[f.p].name}: move detached leaders (March phase c)`,
};

export const marchHandlers = { leaders, pickUnit, order, march, move, leaderMove };
