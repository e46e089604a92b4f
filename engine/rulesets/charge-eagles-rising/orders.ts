/**
 * Charge! Eagles Rising, the strategic phase's S1 and S2 [Turn Sequence; Issuing Orders; Leader Casualties; Off Board
 * Force Arrival]: replacement leaders taking over, the orders both sides write in secret (C7) and their messengers
 * (C2), the strategic leader casualty checks and replacements (C12), the acceptance rolls (C2) with the reveal of the
 * accepted orders, and the arrival rolls of the MEs off the table (C12).
 *
 * Readings (the README lists them):
 * - The CC issues every order (C2 `orderIssuer: commander`); with no active CC (lost, knocked out, or his replacement
 *   not yet in command) no new order can be written: every recipient keeps its order.
 * - The order points (digest §9): the scenario's objectives, the nearest enemy ME's centre, the own home edge's centre
 *   and the command's own position. An order identical to the one in force is not offered (it is `keep`).
 * - A recipient out of the CC's range gets its order by messenger: it is rolled in the S2 of the turn the messenger
 *   arrives (`messengerDelayTurns`, C2); the messenger is public, the order stays secret. While one is on its way the
 *   recipient can only keep ("only one order can be in transit per recipient", C2).
 * - The sheets' "reveal accepted orders": an accepted order is public from its roll; a refused one is never revealed.
 * - A recipient whose leader is lost (no replacement in command yet) rolls against the Poor rating number (8): the
 *   sheet gives no number for a leaderless command, and it is the worst printed.
 * - The Superior CC's automatic pass needs him "in contact": attached to one of the recipient's units or within 1" of
 *   one.
 * - The strategic leader check is rolled for every active leader on the table (not for leaders off it with their ME).
 */
import { IN, dist, pointPolygonDistance } from '../../geometry/geometry.ts';
import type { ChanceHandler, DecisionHandler, Log, SealedHandler } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import type { Dist } from '../../core/dice.ts';
import { polyOf } from './shape.ts';
import {
  REPLACEMENT_TABLE,
  acceptanceNumber,
  arrivalDist,
  arrivalModifier,
  orderAcceptedDist,
  replacementLeader,
  strategicLeaderCasualtyDist,
  twoD6AtLeast,
} from './tables.ts';
import type {
  ElementState,
  FormationState,
  LeaderState,
  Order,
  OrderType,
  Side,
  UnitClass,
  WrittenOrder,
} from './types.ts';
import { COMMITTING_ORDERS, ORDER_TYPES, UNIT_CLASSES } from './types.ts';
import type { OrderFrame } from './frames.ts';
import {
  type Action,
  type S,
  activeLeader,
  ccOf,
  centreOf,
  commandOf,
  commandPoint,
  elementUnits,
  elementsOfCommand,
  inCommandRange,
  inches,
  leaderOf,
  orderRecipients,
  placed,
  say,
  sideName,
  unitOf,
  updCommand,
  updElement,
  updLeader,
} from './state.ts';

type H<K extends OrderFrame['t']> = Extract<OrderFrame, { t: K }>;

// ---------- S1 ----------

/** [S1] replacements due take over, then both sides write their orders (sealed), then the leader checks. */
export function beginS1(s: S, log: Log): S {
  let t = s;
  for (const l of t.leaders) {
    if (!l.replacement || l.replacement.takesOverTurn > t.turn) continue;
    const r = l.replacement;
    t = updLeader(t, l.id, {
      status: 'active',
      command: r.command,
      inspiration: r.inspiration,
      replacement: null,
      attachedTo: null,
      backAfterTurn: 0,
      pos: replacementPos(t, l),
    });
    for (const c of [...t.formations, ...t.elements])
      if (c.side === l.side && l.commands === c.id) t = updCommand(t, c.id, { leader: l.id });
    say(log, 'Leader Casualties', `${l.name}'s replacement takes over (${r.command}, ${r.inspiration})`);
  }
  const checks: OrderFrame[] = t.leaders
    .filter((l) => l.status === 'active' && !l.offBoard)
    .map((l) => ({ t: 'leaderCheck' as const, leader: l.id }));
  // the last pushed is on top: the orders first, then the checks in the leaders' order
  return push(t, ...checks.reverse(), { t: 'orders' });
}

/** A replacement comes to his command's units (or the CC's army: where the lost one fell). */
function replacementPos(s: S, l: LeaderState) {
  if (!l.commands) return l.pos;
  const cmd = commandOf(s, l.commands);
  const us = elementsOfCommand(s, cmd.id).flatMap((e) => elementUnits(s, e));
  return us.length ? centreOf(us.map((u) => u.pos)) : l.pos;
}

/** The i-th owner of the sealed orders: each side's recipients in turn, side 0's first. */
function orderOwner(s: S, i: number): { side: Side; cmd: FormationState | ElementState } {
  const a = orderRecipients(s, 0);
  if (i < a.length) return { side: 0, cmd: a[i]! };
  return { side: 1, cmd: orderRecipients(s, 1)[i - a.length]! };
}

/** The named points an order may go to (digest §9). */
function orderPoints(s: S, side: Side, cmd: FormationState | ElementState): { name: string; point: Order }[] {
  const out: { name: string; point: Order }[] = [];
  const mk = (name: string, p: { x: number; y: number }, objective: string | null) =>
    out.push({ name, point: { type: 'attack', point: p, objective } });
  for (const o of s.ctx.objectives) mk(o.id, o.point, o.id);
  const here = commandPoint(s, cmd);
  // the nearest enemy ME on the table, by its units' centre
  let best: { id: string; p: { x: number; y: number }; d: number } | null = null;
  for (const e of s.elements) {
    if (e.side === side || e.broken) continue;
    const us = elementUnits(s, e);
    if (!us.length) continue;
    const p = centreOf(us.map((u) => u.pos));
    const d = dist(p, here);
    if (!best || d < best.d) best = { id: e.id, p, d };
  }
  if (best) mk(`enemy ${best.id}`, best.p, null);
  mk('home', homePoint(s, side), null);
  mk('here', here, null);
  return out;
}

/** The centre of a side's home edge. */
function homePoint(s: S, side: Side): { x: number; y: number } {
  const { width: w, height: h } = s.ctx;
  switch (s.ctx.homeEdges[side]) {
    case 'north':
      return { x: Math.round(w / 2), y: h };
    case 'south':
      return { x: Math.round(w / 2), y: 0 };
    case 'east':
      return { x: w, y: Math.round(h / 2) };
    default:
      return { x: 0, y: Math.round(h / 2) };
  }
}

const sameOrder = (a: Order | null, b: Order) =>
  !!a && a.type === b.type && a.point.x === b.point.x && a.point.y === b.point.y;

/** [S1] the options of one recipient: keep, or a new order (type × point). Every key starts with `order`. */
export function orderOptions(s: S, side: Side, cmd: FormationState | ElementState): Action[] {
  const keep = `order ${cmd.id} keep`;
  // C2 "only one order can be in transit per recipient": a messenger due this turn is rolled for in this S2
  if (!ccOf(s, side) || cmd.messengerArrivesTurn >= s.turn) return [keep];
  const out = [keep];
  for (const p of orderPoints(s, side, cmd))
    for (const type of ORDER_TYPES) {
      if (sameOrder(cmd.order, { ...p.point, type })) continue;
      out.push(`order ${cmd.id} ${type} ${p.name}`);
    }
  return out;
}

/** The order an option's key writes (null for `keep`). */
export function orderOfKey(s: S, side: Side, key: Action): { to: string; order: Order } | null {
  const m = /^order (\S+) (\S+)(?: (.+))?$/.exec(key);
  if (!m || m[2] === 'keep') return null;
  const cmd = commandOf(s, m[1]!);
  const p = orderPoints(s, side, cmd).find((x) => x.name === m[3]);
  if (!p || !ORDER_TYPES.includes(m[2] as OrderType)) throw new Error(`not an order: "${key}"`);
  return { to: cmd.id, order: { ...p.point, type: m[2] as OrderType } };
}

/** An order in words: "attack the hamlet", "hold at (12.0", 40.0")". */
export function orderText(s: S, o: Order): string {
  const obj = o.objective ? s.ctx.objectives.find((x) => x.id === o.objective) : undefined;
  const at = obj ? obj.name : `(${inches(o.point.x)}, ${inches(o.point.y)})`;
  const verb = {
    attack: 'attack',
    hold: 'hold at',
    advance: 'advance on',
    reserve: 'stand in reserve at',
    withdraw: 'withdraw to',
  }[o.type];
  return `${verb} ${at}`;
}

const ordersHandler: SealedHandler<S, H<'orders'>, Action> = {
  kind: 'sealed',
  rule: 'S1',
  owners: (s) => [...orderRecipients(s, 0).map(() => 0), ...orderRecipients(s, 1).map(() => 1)],
  legal: (s, _f, i) => {
    const { side, cmd } = orderOwner(s, i);
    return orderOptions(s, side, cmd);
  },
  text: (s, _f, i, a) => {
    const { side } = orderOwner(s, i);
    const w = orderOfKey(s, side, a);
    return `${sideName(s, side)} write: ${w ? `${w.to} to ${orderText(s, w.order)}` : `${orderOwner(s, i).cmd.id} keeps its order`} (sealed)`;
  },
  sealedText: (s, _f, i) => `${sideName(s, orderOwner(s, i).side)} write ${orderOwner(s, i).cmd.id}'s orders (sealed)`,
  describe: (s, _f, i) => {
    const { side, cmd } = orderOwner(s, i);
    const now = cmd.order ? orderText(s, cmd.order) : 'no order';
    return `${sideName(s, side)}: orders for ${cmd.name} (${cmd.id}; now: ${now}), in secret [S1, C7]`;
  },
  reveal(s, _f, choices, log) {
    const t = s;
    const secret = [[...t.secret[0].orders], [...t.secret[1].orders]] as [WrittenOrder[], WrittenOrder[]];
    choices.forEach((a, i) => {
      const { side, cmd } = orderOwner(s, i);
      const w = orderOfKey(s, side, a);
      // the owner reads what was written; the other side reads the same line whatever it was (C7)
      say(
        log,
        'S1',
        `${sideName(s, side)}: ${cmd.name} ${w ? `is ordered to ${orderText(s, w.order)}` : 'keeps its order'}`,
        {
          to: [side],
          redacted: `${sideName(s, side)} write ${cmd.name}'s orders`,
        },
      );
      if (!w) return;
      const near = inCommandRange(s, ccOf(s, side)!, cmd);
      const arrivesTurn = near ? t.turn : t.turn + t.ctx.options.messengerDelayTurns;
      secret[side].push({ to: cmd.id, order: w.order, issuedTurn: t.turn, arrivesTurn });
    });
    say(log, 'S1', 'the orders are written, sealed until S2 (C7)');
    return { ...t, secret: [{ orders: secret[0] }, { orders: secret[1] }] };
  },
};

// [Leader Casualties] strategic: 2D6 ≥ 11, then the table
const leaderCheckHandler: ChanceHandler<S, H<'leaderCheck'>, Action> = {
  kind: 'chance',
  outcomes: (_s, f) =>
    strategicLeaderCasualtyDist().map((d) => ({
      action: `leader ${f.leader} ${d.value}`,
      p: d.p,
      label: CASUALTY_TEXT[d.value],
    })),
  step(s, f, a, log) {
    const r = a.split(' ')[2] as keyof typeof CASUALTY_TEXT;
    return leaderHit(s, f.leader, r, 'S1', log);
  },
  describe: (s, f) => `${leaderOf(s, f.leader).name}'s strategic casualty check (2D6 ≥ 11, then the table) [S1]`,
};

const CASUALTY_TEXT = {
  noEffect: 'no effect',
  knockedOut: 'knocked out for 1 turn',
  incapacitated: 'incapacitated for the rest of the battle',
  kia: 'killed',
} as const;

/** [Leader Casualties] a leader's result from the table (or a capture): knocked out, or lost and replaced. */
export function leaderHit(s: S, id: string, r: keyof typeof CASUALTY_TEXT | 'captured', rule: string, log: Log): S {
  const l = leaderOf(s, id);
  if (r === 'noEffect') {
    say(log, 'Leader Casualties', `${l.name}: no effect${rule === 'S1' ? ' (strategic casualty check)' : ''}`);
    return s;
  }
  // a leader out of action leaves his unit, which may take another (a reading: "no bonuses, command or ranges")
  const t0 = s.units.some((u) => u.attachedLeader === id)
    ? { ...s, units: s.units.map((u) => (u.attachedLeader === id ? { ...u, attachedLeader: null } : u)) }
    : s;
  if (r === 'knockedOut') {
    say(
      log,
      'Leader Casualties',
      `${l.name} is knocked out until the end of the next turn (no bonuses, command or range)`,
    );
    return updLeader(t0, id, { status: 'knockedOut', backAfterTurn: s.turn + 1, attachedTo: null });
  }
  let t = updLeader(t0, id, {
    status: r === 'captured' ? 'captured' : r === 'kia' ? 'kia' : 'incapacitated',
    attachedTo: null,
  });
  if (l.commands) t = updCommand(t, l.commands, { leader: '' });
  say(
    log,
    'Leader Casualties',
    `${l.name} is ${r === 'captured' ? 'captured' : CASUALTY_TEXT[r]}: a replacement is rolled, taking over at the next S1`,
  );
  return push(t, { t: 'replacement', leader: id });
}

// [Leader Casualties] "**Replacement: 2-6 = 1 grade worse, 7-10 = same, 11+ = 1 grade better. Take over next S1" (C12)
const replacementHandler: ChanceHandler<S, H<'replacement'>, Action> = {
  kind: 'chance',
  outcomes: () =>
    REPLACEMENT_TABLE.map((r) => ({
      action: `replacement ${r.shift < 0 ? 'worse' : r.shift > 0 ? 'better' : 'same'}`,
      p: twoD6AtLeast(r.min) - twoD6AtLeast(r.max + 1),
      label: `${r.label}: ${r.shift < 0 ? 'one grade worse' : r.shift > 0 ? 'one grade better' : 'the same grade'}`,
    })),
  step(s, f, a, log) {
    const l = leaderOf(s, f.leader);
    const roll = a.endsWith('worse') ? 2 : a.endsWith('better') ? 12 : 7;
    const r = replacementLeader(roll, l.command, l.inspiration);
    const shifted = s.ctx.options.replacementShift === 'both' ? r : { command: r.command, inspiration: l.inspiration };
    say(
      log,
      'Leader Casualties',
      `${l.name}'s replacement is ${a.split(' ')[1] === 'same' ? 'of the same grade' : `one grade ${a.split(' ')[1]}`}: ${shifted.command}, ${shifted.inspiration} (C12); he takes over at the next S1`,
    );
    return updLeader(s, f.leader, { replacement: { ...shifted, takesOverTurn: s.turn + 1 } });
  },
  describe: (s, f) => `the replacement for ${leaderOf(s, f.leader).name} (2D6) [Leader Casualties]`,
};

// ---------- S2 ----------

/**
 * [S2] the messengers of orders still on their way are seen (C2: the ADC marker is public from the S2 reveal), then
 * the acceptance rolls of the orders arriving this turn, then the arrival rolls of the MEs off the table.
 */
export function beginS2(s0: S, log: Log): S {
  let s = s0;
  for (const side of [0, 1] as const)
    for (const w of s.secret[side].orders) {
      const cmd = commandOf(s, w.to);
      if (w.arrivesTurn <= s.turn || cmd.messengerArrivesTurn === w.arrivesTurn) continue;
      s = updCommand(s, w.to, { messengerArrivesTurn: w.arrivesTurn });
      const cc = ccOf(s, side);
      say(
        log,
        'Issuing Orders',
        `${cmd.name} is beyond ${cc ? `${cc.name}'s` : "the CC's"} command range: a messenger (ADC) carries its new order, rolled in turn ${w.arrivesTurn}'s S2 (C2)`,
      );
    }
  const frames: OrderFrame[] = [];
  for (const side of [0, 1] as const)
    for (const w of s.secret[side].orders) if (w.arrivesTurn <= s.turn) frames.push({ t: 'accept', side, to: w.to });
  for (const e of s.elements)
    if (e.offBoard && !e.offBoard.arriving && !e.broken && e.offBoard.earliestTurn <= s.turn)
      frames.push({ t: 'arrival', element: e.id });
  return push(s, ...frames.reverse());
}

function writtenFor(s: S, side: Side, to: string): WrittenOrder {
  const w = s.secret[side].orders.find((x) => x.to === to && x.arrivesTurn <= s.turn);
  if (!w) throw new Error(`no order for ${to} arriving`);
  return w;
}

/** [Issuing Orders] the number to reach and the helps, for a recipient's acceptance roll (C2). */
export function acceptanceOf(s: S, side: Side, to: string): { number: number; ccAttached: boolean; auto: boolean } {
  const cmd = commandOf(s, to);
  const cc = ccOf(s, side);
  const leader = activeLeader(s, cmd);
  const number = acceptanceNumber({
    recipient: leader?.command ?? 'poor',
    issuer: cc?.command ?? 'poor',
    attempt: cmd.orderAttempts + 1,
    uncommitted: !cmd.committed,
  });
  const units = elementsOfCommand(s, to).flatMap((e) => elementUnits(s, e));
  const ccAttached = !!cc?.attachedTo && units.some((u) => u.id === cc.attachedTo);
  const inContact = ccAttached || (!!cc && units.some((u) => pointPolygonDistance(cc.pos, polyOf(placed(s, u))) <= IN));
  const auto = !!cc && cc.command === 'superior' && cc.level === 'armyWing' && inContact;
  return { number, ccAttached, auto };
}

const acceptHandler: ChanceHandler<S, H<'accept'>, Action> = {
  kind: 'chance',
  outcomes: (s, f) => {
    const a = acceptanceOf(s, f.side, f.to);
    return orderAcceptedDist(a.number, a.ccAttached, a.auto).map((d) => ({
      action: `accept ${f.to} ${d.value ? 'pass' : 'fail'}`,
      p: d.p,
      label: d.value ? 'accepted' : 'refused',
    }));
  },
  step(s, f, a, log) {
    const w = writtenFor(s, f.side, f.to);
    const cmd = commandOf(s, f.to);
    const acc = acceptanceOf(s, f.side, f.to);
    const secret = [s.secret[0], s.secret[1]] as [(typeof s.secret)[0], (typeof s.secret)[1]];
    secret[f.side] = { orders: secret[f.side].orders.filter((x) => x !== w) };
    let t: S = { ...s, secret };
    const need = acc.auto
      ? 'automatic: the Superior CC is in contact'
      : `2D6${acc.ccAttached ? ' + 2 (the CC attached)' : ''} ≥ ${acc.number}`;
    if (a.endsWith('pass')) {
      const committed = cmd.committed || COMMITTING_ORDERS.includes(w.order.type);
      t = updCommand(t, f.to, { order: w.order, orderAttempts: 0, committed, messengerArrivesTurn: 0 });
      say(
        log,
        'S2',
        `${cmd.name} accepts its new order (${need}): ${orderText(s, w.order)}${committed && !cmd.committed ? '; it is committed' : ''}`,
      );
      return t;
    }
    t = updCommand(t, f.to, { orderAttempts: cmd.orderAttempts + 1, messengerArrivesTurn: 0 });
    say(log, 'S2', `${cmd.name} does not accept its new order (${need}); it keeps its order`, {
      to: [f.side],
      redacted: `${cmd.name} does not accept its new order (${need}); it keeps its order`,
    });
    return t;
  },
  describe: (s, f) => {
    const a = acceptanceOf(s, f.side, f.to);
    return `${commandOf(s, f.to).name}'s acceptance roll: 2D6${a.ccAttached ? ' + 2' : ''} ≥ ${a.number} [Issuing Orders]`;
  },
};

/** "Majority class of the ME's figures, or the lower class on a tie" (§6.4; the arrival's "ME quality" too). */
export function majorityClass(s: S, e: ElementState): UnitClass {
  const by = new Map<UnitClass, number>();
  for (const id of e.units) {
    const u = unitOf(s, id);
    if (u.status === 'broken' || u.status === 'captured') continue;
    const n = u.kind === 'artillery' ? u.guns * s.ctx.options.gunStrength : u.figures;
    by.set(u.class, (by.get(u.class) ?? 0) + n);
  }
  let best: UnitClass = 'regular';
  let bestN = -1;
  for (const c of UNIT_CLASSES) {
    const n = by.get(c) ?? -1;
    if (n > bestN) {
      best = c;
      bestN = n;
    }
  }
  return best;
}

/** [Off Board Force Arrival] 2D6 + ME quality + its leader's quality (C12: its own leader). */
export function arrivalOf(s: S, id: string): { mod: number; dist: Dist<boolean>[] } {
  const e = s.elements.find((x) => x.id === id)!;
  const l = e.leader ? s.leaders.find((x) => x.id === e.leader) : undefined;
  const mod = arrivalModifier(majorityClass(s, e), l?.command ?? 'poor');
  return { mod, dist: arrivalDist(mod) };
}

const arrivalHandler: ChanceHandler<S, H<'arrival'>, Action> = {
  kind: 'chance',
  outcomes: (s, f) =>
    arrivalOf(s, f.element).dist.map((d) => ({
      action: `arrival ${f.element} ${d.value ? 'arrives' : 'delayed'}`,
      p: d.p,
      label: d.value ? 'arrives this turn' : 'delayed',
    })),
  step(s, f, a, log) {
    const e = s.elements.find((x) => x.id === f.element)!;
    const { mod } = arrivalOf(s, f.element);
    const m = `2D6 ${mod >= 0 ? '+' : '−'} ${Math.abs(mod)}`;
    if (a.endsWith('delayed')) {
      say(log, 'Off Board Force Arrival', `${e.name} is delayed (${m} ≤ 5): it rolls again next S2 (C12)`);
      return s;
    }
    say(log, 'Off Board Force Arrival', `${e.name} arrives this turn (${m} ≥ 6): it enters in S4`);
    return updElement(s, f.element, { offBoard: { ...e.offBoard!, arriving: true } });
  },
  describe: (s, f) => `${s.elements.find((x) => x.id === f.element)!.name}'s arrival roll [Off Board Force Arrival]`,
};

export const orderHandlers = {
  orders: ordersHandler,
  leaderCheck: leaderCheckHandler,
  replacement: replacementHandler,
  accept: acceptHandler,
  arrival: arrivalHandler,
} satisfies {
  readonly [K in OrderFrame['t']]:
    | SealedHandler<S, H<K>, Action>
    | ChanceHandler<S, H<K>, Action>
    | DecisionHandler<S, H<K>, Action>;
};
