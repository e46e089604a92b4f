/**
 * Scripted preferences for Charge! Eagles Rising (`Game.policyScores`): a score per legal action at the top frame
 * (higher = better for the side to move), one finite number each.
 *
 * - Written orders [S1] (C2, C7), per recipient: a command that has lost half its strength withdraws home; otherwise
 *   it goes for the objectives — attacking one the enemy holds or contests when its side is at least four-fifths as
 *   strong as the enemy on the table, holding one its side holds, advancing on the nearest one otherwise; cavalry attacks the
 *   nearest enemy ME when an enemy unit near it is disordered, worn or spent (it may charge only on Attack). An order
 *   already in force is kept (a new one costs an acceptance roll and may fail: "consecutive order attempts").
 * - [S4] a strategic move scores the ground it gains toward the order's point (Hold and Reserve stay), a column only
 *   while 24" from the enemy, a force march a little less (its test costs KIAs).
 * - [S6] go first. [T1] an inspirational or charismatic leader attaches to the unit of his command most about to fight
 *   (nearest the enemy, cavalry first, never a battery); others stay as they are.
 * - [T2a] every ME is activated, the nearest the enemy first. A unit's action is scored by where it ends
 *   (`standValue`: nearness to its order's point; infantry in line or a garrison within 10" of the enemy, columns when
 *   far, no column, march column or skirmish line in an enemy cavalry's threat zone, a square only there; cavalry out
 *   of musket and canister range; batteries unlimbered in range, not limbered near the enemy; a formed unit within 3"
 *   of an objective (C14), more so in the last turns; disorder, dearer within 20" of enemy cavalry; the best charge
 *   enemy cavalry could make at it next phase, at its exact odds), less the tests a move brings (their exact chance,
 *   `movePassChance`) and the op-charge a move invites (C8), plus its fire: the expected hits of the best target (dice ×
 *   hit chance, fire.ts `shotOf`, weighted toward units near their worn/spent marks and guns), for a move the Move &
 *   Fire after it. A unit with a charge worth declaring holds for it.
 * - [T2b] a charge is declared when its value beats stopping: the exact CAC odds (cac.ts `cacMods`, tables'
 *   `cacRollDist`) with the charger charging (and disordered by a double quick), a bonus for a weak target
 *   (disordered, worn, spent, blown, in column, limbered), cavalry against infantry only as far as the square test
 *   fails (its exact chance), never into a square. Op-charges the same, more readily at columns, limbered guns and
 *   disordered units. Reactions: the defender's odds standing, forming square (the test's chance, then as a square or
 *   disordered), facing, counter-charging (cavalry and British infantry, at its odds), evading, the guns limbering or
 *   leaving. Pull-ups: charge home only at good odds; after an evade: pull up, or pursue into a new target at good odds.
 * - [T2c] return fire at the best expected hits, always when it can hit. [T2d] recover when disordered.
 * - [CAC] the winner exploits when a 2nd CAC in reach has good odds, takes ground toward its goal (infantry), rallies
 *   back (cavalry) otherwise; an exploiter goes into a target at good odds or halts. A tie's fall back: 2".
 * Scores shared by several actions are memoised per state (WeakMap) and the CAC odds by the totals' difference.
 */
import { IN, type Polygon, type Vec, dist, pointPolygonDistance, polygonDistance } from '../../geometry/geometry.ts';
import { cacMods } from './cac.ts';
import { figuresOf } from './casualties.ts';
import { chargeOptions, mayCharge, squareNumber, tacticalMove } from './charges.ts';
import { type Shot, canFire, shotOf } from './fire.ts';
import { orderOfKey } from './orders.ts';
import { type Placed, gap, inFrontArcWithin, inThreatZone, polyOf } from './shape.ts';
import {
  type Action,
  type S,
  centreOf,
  commandPoint,
  elementOf,
  elementUnits,
  elementsOfCommand,
  lostFraction,
  orderOfElement,
  other,
  placed,
  unitOf,
  unitsOf,
  updUnit,
} from './state.ts';
import { offerOfKey } from './strategic.ts';
import { cacRollDist, hitChance, orderType, squareOutcomeDist, squareRow } from './tables.ts';
import { movePassChance, parseMove, planMove } from './tactical.ts';
import type { ElementState, FormationState, LeaderState, Order, OrderType, Side, UnitState } from './types.ts';

/** Units of a side on the table within `r` (1/100") of a point. */
function strengthNear(s: S, side: Side, p: { x: number; y: number }, r: number): number {
  let n = 0;
  for (const u of s.units)
    if (u.side === side && u.status === 'active' && dist(u.pos, p) <= r)
      n += u.kind === 'artillery' ? u.guns * s.ctx.options.gunStrength : u.figures;
  return n;
}

/** Who holds an objective (C14: a unit within 3" and no enemy within 3"), or null. */
function holder(s: S, p: { x: number; y: number }): Side | null {
  const near = (side: Side) =>
    s.units.some((u) => u.side === side && u.status === 'active' && dist(u.pos, p) <= 3 * IN + 200);
  const a = near(0);
  const b = near(1);
  return a && !b ? 0 : b && !a ? 1 : null;
}

/** The order a recipient should have now, as a type and a point name (orders.ts `orderPoints`). */
export function desiredOrder(
  s: S,
  side: Side,
  cmd: FormationState | ElementState,
): { type: OrderType; point: string } | null {
  const els = elementsOfCommand(s, cmd.id);
  const units: UnitState[] = els.flatMap((e) => e.units.map((id) => s.units.find((u) => u.id === id)!));
  const onTable = els.flatMap((e) => elementUnits(s, e));
  if (!onTable.length) return null;
  if (lostFraction(s, units) >= 0.5) return { type: 'withdraw', point: 'home' };
  const here = commandPoint(s, cmd);
  const enemy = (1 - side) as Side;
  if (onTable.every((u) => u.kind === 'cavalry')) {
    const weak = s.units.some(
      (u) =>
        u.side === enemy &&
        u.status === 'active' &&
        (u.disordered || u.worn || u.spent) &&
        dist(u.pos, centreOf(onTable.map((x) => x.pos))) <= 16 * IN,
    );
    if (weak) return { type: 'attack', point: 'enemy' };
  }
  const objs = [...s.ctx.objectives].sort((a, b) => dist(a.point, here) - dist(b.point, here));
  for (const o of objs) {
    const h = holder(s, o.point);
    if (h === side) return { type: 'hold', point: o.id };
    const mine = strengthNear(s, side, o.point, Number.POSITIVE_INFINITY);
    const theirs = strengthNear(s, enemy, o.point, Number.POSITIVE_INFINITY);
    if (mine >= 0.8 * theirs) return { type: 'attack', point: o.id };
    return { type: 'advance', point: o.id };
  }
  return null;
}

const samePoint = (o: Order | null, w: Order) => !!o && o.point.x === w.point.x && o.point.y === w.point.y;

/** [S1] the scores of one recipient's order options. */
function orderScores(s: S, actions: readonly Action[]): number[] {
  const id = actions[0]?.split(' ')[1];
  if (!id) return actions.map(() => 0);
  const side: Side | undefined = [...s.formations, ...s.elements].find((c) => c.id === id)?.side;
  if (side === undefined) return actions.map(() => 0);
  const cmd = [...s.formations, ...s.elements].find((c) => c.id === id)!;
  const want = desiredOrder(s, side, cmd);
  return actions.map((a) => {
    if (a.endsWith(' keep')) {
      if (!want) return 1;
      return cmd.order?.type === want.type ? 1.5 : 0.5;
    }
    const w = orderOfKey(s, side, a);
    if (!w || !want) return 0;
    const pointName = a.split(' ').slice(3).join(' ');
    const matches = pointName === want.point || (want.point === 'enemy' && pointName.startsWith('enemy '));
    if (w.order.type === want.type && matches) return samePoint(cmd.order, w.order) ? 1 : 2;
    return w.order.type === want.type ? 0.3 : 0;
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// Shared per state (memoised: several actions of one decision, and the next decisions of an unchanged state)
// ---------------------------------------------------------------------------------------------------------------------

interface Memo {
  readonly enemies: Map<Side, UnitState[]>;
}
const memo = new WeakMap<S, Memo>();
function memoOf(s: S): Memo {
  let m = memo.get(s);
  if (!m) {
    m = { enemies: new Map() };
    memo.set(s, m);
  }
  return m;
}
const pl = (s: S, u: UnitState): Placed => placed(s, u);
function enemiesOf(s: S, side: Side): UnitState[] {
  const m = memoOf(s);
  let e = m.enemies.get(side);
  if (!e) {
    e = unitsOf(s, other(side));
    m.enemies.set(side, e);
  }
  return e;
}

/** CAC outcome probabilities by the two totals (tables' exact `cacRollDist`), memoised by the difference. */
const cacOdds = new Map<number, { win: number; lose: number; tie: number }>();
function cacProb(attacker: number, defender: number): { win: number; lose: number; tie: number } {
  const k = attacker - defender;
  let r = cacOdds.get(k);
  if (!r) {
    r = { win: 0, lose: 0, tie: 0 };
    for (const d of cacRollDist(k, 0)) {
      if (d.value.winner === 'A') r.win += d.p;
      else if (d.value.winner === 'B') r.lose += d.p;
      else r.tie += d.p;
    }
    cacOdds.set(k, r);
  }
  return r;
}

/** The attacker's CAC odds of `a` against `d` as the state stands (the attacker marked charging when `charging`). */
function cacOddsOf(s: S, a: UnitState, d: UnitState, charging: boolean, disordered = a.disordered) {
  const a1 = { ...a, disordered, phase: { ...a.phase, charging: charging || a.phase.charging } } as UnitState;
  const t = a1 === a ? s : updUnit(s, a.id, a1);
  const m = cacMods(t, { attackers: [a.id], defenders: [d.id], second: false });
  return cacProb(m.attacker, m.defender);
}

const weakness = (u: UnitState) =>
  (u.disordered ? 1 : 0) +
  (u.spent ? 1 : u.worn ? 0.5 : 0) +
  (u.kind === 'cavalry' && u.blown ? 0.5 : 0) +
  (u.kind === 'infantry' && (u.formation === 'column' || u.formation === 'marchColumn') ? 0.3 : 0) +
  (u.kind === 'artillery' && u.formation === 'limbered' ? 0.5 : 0);

const fireEv = (sh: Shot | null) => (sh && sh.dice > 0 ? sh.dice * hitChance(sh.toHit) : 0);

/** The value of a hit on `t`: more against a unit near its worn/spent marks, and against guns (C3 weight). */
function hitValue(s: S, t: UnitState): number {
  const f = figuresOf(t);
  let v = t.kind === 'artillery' ? s.ctx.options.gunStrength * 0.5 : 1;
  const left = f.now - Math.ceil(f.start / 2);
  if (!t.spent && left >= 0 && left <= 2) v += 0.5;
  else if (!t.worn && f.now - Math.ceil((f.start * 2) / 3) <= 2) v += 0.3;
  return v + weakness(t) * 0.1;
}

/** The unit's goal point (its order's point: objective, anchor, destination) and how near is near enough, or null. */
function goalOf(s: S, u: UnitState): { p: Vec; r: number; type: OrderType } | null {
  const o = orderOfElement(s, elementOf(s, u.element));
  if (!o) return null;
  if (o.type === 'reserve') return { p: o.point, r: 10 * IN, type: o.type };
  if (o.type === 'hold') return { p: o.point, r: 3 * IN, type: o.type };
  if (o.type === 'withdraw') return { p: o.point, r: 0, type: o.type };
  // cavalry on Attack orders: the nearest enemy when the order's point is held by a garrison
  return { p: o.point, r: 2 * IN, type: o.type };
}

/** Each objective's body (its area's polygon) or null for a point: static, per table. */
const bodies = new WeakMap<object, (Polygon | null)[]>();
function objectiveBodies(s: S): (Polygon | null)[] {
  let b = bodies.get(s.ctx);
  if (!b) {
    b = s.ctx.objectives.map((o) => {
      if (!o.terrain) return null;
      const a = s.ctx.terrain.areas.find((x) => x.id === o.terrain);
      if (a) return a.polygon;
      return s.ctx.buas.find((x) => x.id === o.terrain)?.polygon ?? null;
    });
    bodies.set(s.ctx, b);
  }
  return b;
}

/** [C14] holding objectives: a formed unit within 3" of one (edge to edge) scores, more as the game's end nears. */
function objectiveValue(s: S, u: UnitState, p: Placed): number {
  if (p.formation === 'skirmish') return 0;
  const poly = polyOf(p);
  const bs = objectiveBodies(s);
  const late = s.turn >= s.ctx.turns - 1 ? 1.5 : 1;
  let v = 0;
  s.ctx.objectives.forEach((o, i) => {
    const b = bs[i];
    const d = (b ? polygonDistance(poly, b) : pointPolygonDistance(o.point, poly)) / IN;
    v += d <= 3 ? 1.2 * late : Math.max(0, 0.6 - 0.05 * (d - 3)) * late;
  });
  return u.kind === 'artillery' ? v * 0.3 : v;
}

/** The enemy units (infantry, cavalry) whose threat zone covers `body`, and whether one of them is cavalry. */
function threatened(s: S, u: UnitState, p: Placed): { any: boolean; cavalry: boolean } {
  const body = polyOf(p);
  let any = false;
  let cavalry = false;
  for (const e of enemiesOf(s, u.side)) {
    if (e.kind === 'artillery') continue;
    if (Math.abs(e.pos.x - p.pos.x) > 16 * IN || Math.abs(e.pos.y - p.pos.y) > 16 * IN) continue;
    if (inThreatZone(pl(s, e), body)) {
      any = true;
      if (e.kind === 'cavalry' && !(e.blown || e.phase.charging)) cavalry = true;
    }
  }
  return { any, cavalry };
}

/** The nearest enemy (edge to edge, 1/100") and of which arm. */
function nearestEnemy(s: S, p: Placed, side: Side): { d: number; u: UnitState | null } {
  let d = Number.POSITIVE_INFINITY;
  let best: UnitState | null = null;
  for (const e of enemiesOf(s, side)) {
    const g = gap(p, pl(s, e));
    if (g < d) {
      d = g;
      best = e;
    }
  }
  return { d, u: best };
}

/**
 * Where a unit stands, as a value: nearness to its goal, the formation for the distance to the enemy, the cavalry and
 * musket threats it stands in (no column or limbered guns in a cavalry threat zone; cavalry out of musket range).
 */
function standValue(s: S, u: UnitState, p: Placed): number {
  let v = 0;
  const g = goalOf(s, u);
  const near = nearestEnemy(s, p, u.side);
  const dIn = near.d / IN;
  if (g) {
    const d = Math.max(0, dist(p.pos, g.p) - g.r) / IN;
    if (g.type === 'withdraw') v -= 0.15 * d;
    else if (g.type === 'reserve') v -= 0.02 * d;
    else v -= (u.kind === 'cavalry' ? 0.06 : 0.12) * d;
  }
  if (g && g.type !== 'withdraw' && g.type !== 'reserve') v += objectiveValue(s, u, p);
  if (u.disordered) v -= disorderCost(s, u, p);
  if (u.kind !== 'cavalry') v -= 0.8 * cavalryRisk(s, u, p, false);
  const f = p.formation;
  const tz = threatened(s, u, p);
  if (u.kind === 'infantry') {
    if (dIn < 10) {
      if (f === 'line' || f === 'garrison') v += 0.6;
      if (f === 'marchColumn') v -= 1;
      if (f === 'skirmish' && !u.light) v -= 0.5;
    } else if (f === 'column' || f === 'marchColumn') v += 0.2;
    const square = f === 'hastySquare' || f === 'solidSquare';
    if (tz.cavalry) {
      if (f === 'column' || f === 'marchColumn' || f === 'skirmish') v -= 2.5;
      else if (f === 'line') v -= 0.8;
      else if (square) v += 0.5;
    } else if (square) v -= 1.2;
    if (f === 'garrison') v += 0.8;
  } else if (u.kind === 'cavalry') {
    // out of musket range of formed infantry and out of canister range, unless about to charge
    for (const e of enemiesOf(s, u.side)) {
      if (e.kind === 'cavalry') continue;
      const gd = gap(p, pl(s, e)) / IN;
      if (e.kind === 'infantry' && gd <= 4.5 && !e.disordered) v -= 1;
      if (e.kind === 'artillery' && e.formation === 'unlimbered' && gd <= 7) v -= 0.8;
    }
    if (f === 'column' && dIn < 10) v -= 0.3;
    if (f === 'skirmish') v -= 0.5;
  } else {
    if (f === 'limbered' && dIn < 20) v -= 1;
    if (f === 'unlimbered') {
      // in range of something
      const band = dIn <= 22 ? 1 : dIn <= 37 ? 0.5 : 0;
      v += band;
    }
    if (tz.any) v -= 0.8;
  }
  return v;
}

/** The best expected value of `id`'s fire now, and at whom. */
function bestFire(s: S, id: string): { ev: number; target: string | null } {
  const u = unitOf(s, id);
  let ev = 0;
  let target: string | null = null;
  if (!canFire(s, u)) return { ev, target };
  const reach = (u.kind === 'artillery' ? 48 : u.kind === 'infantry' && u.weapon === 'rifle' ? 6 : 4) * IN;
  const me = pl(s, u);
  for (const t of enemiesOf(s, u.side)) {
    if (Math.abs(t.pos.x - u.pos.x) > reach + 8 * IN || Math.abs(t.pos.y - u.pos.y) > reach + 8 * IN) continue;
    if (gap(me, pl(s, t)) > reach) continue;
    const e = fireEv(shotOf(s, id, t.id, 'fire')) * hitValue(s, t);
    if (e > ev) {
      ev = e;
      target = t.id;
    }
  }
  return { ev, target };
}

/**
 * The worst charge enemy cavalry could make at `u` standing at `p` (its value to the cavalry, 0 when none is worth it):
 * next phase's charges, or (`op`) an opportunity charge at once after a move.
 */
function cavalryRisk(s: S, u: UnitState, p: Placed, op: boolean): number {
  let risk = 0;
  const body = polyOf(p);
  for (const e of enemiesOf(s, u.side)) {
    if (e.kind !== 'cavalry' || e.blown || (op && e.disordered)) continue;
    const reach = ((tacticalMove(e) ?? 0) + (op ? 0 : 8)) * IN;
    if (Math.abs(e.pos.x - p.pos.x) > reach + 10 * IN || Math.abs(e.pos.y - p.pos.y) > reach + 10 * IN) continue;
    const ep = pl(s, e);
    if (gap(ep, p) > reach || !inFrontArcWithin(ep, body, reach)) continue;
    if (op && !mayCharge(s, e, true)) continue;
    const order = orderOfElement(s, elementOf(s, e.element));
    const may = op || (order !== null && orderType(order.type).charge);
    risk = Math.max(risk, chargeValue(s, e, u, false, false) * (may ? 1 : 0.3));
  }
  return risk;
}

/** What disorder costs a unit standing at `p`: more within a charge's reach of enemy cavalry. */
function disorderCost(s: S, u: UnitState, p: Placed): number {
  let v = u.kind === 'cavalry' ? 0.8 : 1.2;
  for (const e of enemiesOf(s, u.side))
    if (e.kind === 'cavalry' && !e.blown && gap(p, pl(s, e)) <= 20 * IN) {
      v += u.kind === 'infantry' ? 1.8 : 0.8;
      break;
    }
  return v;
}

// ---------------------------------------------------------------------------------------------------------------------
// [T2a] a unit's hold, fire, move or formation change
// ---------------------------------------------------------------------------------------------------------------------

const FIRE_W = 2;

/** The value of the charges `u` may declare from where it stands (its best), 0 when none is worth it. */
function chargeValueNow(s: S, u: UnitState): number {
  if (!mayCharge(s, u, false)) return 0;
  let best = 0;
  for (const o of chargeOptions(s, u, false)) best = Math.max(best, chargeValue(s, u, unitOf(s, o.target), o.dq));
  return best;
}

function unitActionScores(s: S, id: string, actions: readonly Action[]): number[] {
  const u = unitOf(s, id);
  const here = pl(s, u);
  const v0 = standValue(s, u, here);
  const chargeLater = chargeValueNow(s, u);
  return actions.map((a) => {
    const w = a.split(' ');
    if (w[0] === 'hold') return chargeLater > 0.3 ? 1 + chargeLater : 0;
    if (w[0] === 'fire') {
      const t = unitOf(s, w[2]!);
      return 0.2 + FIRE_W * fireEv(shotOf(s, id, t.id, 'fire')) * hitValue(s, t);
    }
    const mv = parseMove(a);
    if (!mv) return -1;
    const pm = planMove(s, id, mv.m);
    if (!pm) return -1;
    const t = updUnit(s, id, { ...pm.unit, disordered: u.disordered || pm.disorder.length > 0 });
    const u1 = unitOf(t, id);
    const p1 = placed(t, u1);
    let v = standValue(t, u1, p1) - v0;
    // disorder is in the stand value; a test's failure disorders
    if (!u1.disordered && pm.tests.length) v -= disorderCost(t, u1, p1) * (1 - movePassChance(s, id, pm.tests));
    // Move & Fire: infantry after any move, artillery after prolonging
    const mayFire = canFire(t, u1) && (u.kind !== 'artillery' || pm.prolonged) && pm.moved > 0;
    if (mayFire && orderOfElement(s, elementOf(s, u.element))?.type !== 'reserve') {
      const bf = bestFire(t, id);
      v += FIRE_W * bf.ev;
    }
    // a move lets enemy cavalry op-charge (C8)
    if (u.kind !== 'cavalry') v -= cavalryRisk(t, u1, p1, true);
    // a move gives up a charge from here
    if (chargeLater > 0.3) v -= chargeLater;
    // cavalry: into charge reach of a weak target (its charge comes next phase)
    if (u.kind === 'cavalry' && !u.blown) {
      for (const e of enemiesOf(s, u.side)) {
        const d = gap(p1, pl(t, e)) / IN;
        if (d <= 12 && d > 4.5 && weakness(e) >= 0.5) v += 0.3 * weakness(e);
      }
    }
    return v - 0.05;
  });
}

/** [T2a] the fire of Move & Fire. */
function fireChoice(s: S, id: string, actions: readonly Action[], kind: 'fire' | 'return'): number[] {
  return actions.map((a) => {
    const w = a.split(' ');
    if (w[0] === 'no') return 0;
    const t = unitOf(s, w[2]!);
    return 0.1 + fireEv(shotOf(s, id, t.id, kind)) * hitValue(s, t);
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// [T2b] charges, reactions, op-charges; [T2e] pull-ups and pursuits
// ---------------------------------------------------------------------------------------------------------------------

/** P(a square forms) of `t` charged by cavalry that began `began` (1/100") away. */
function squareChance(s: S, t: UnitState, began: number): number {
  const n = squareNumber(s, t.id, began);
  let p = 0;
  for (const d of squareOutcomeDist(n, began / IN, t.disordered))
    if (d.value === 'solid' || d.value === 'hasty') p += d.p;
  return p;
}

/** A charge's value to the charger's side: the CAC's odds (a square against cavalry, evades), the target's state. */
function chargeValue(s: S, u: UnitState, t: UnitState, dq: boolean, closing = true): number {
  // cavalry entering a BUA is disordered [Terrain]
  const intoBua = u.kind === 'cavalry' && t.kind === 'infantry' && t.formation === 'garrison';
  const o = cacOddsOf(s, u, t, true, u.disordered || dq || intoBua);
  let v = 2 * o.win - (u.kind === 'infantry' ? 2.4 : 1.6) * o.lose - 0.3 * o.tie + 0.4 * weakness(t);
  if (dq) v -= 0.2;
  // infantry charging cavalry: it counter-charges or evades
  if (u.kind === 'infantry' && t.kind === 'cavalry' && !t.disordered && !t.blown) v -= 0.8;
  // the target's closing fire (its hits, and the closing test they bring)
  if (closing)
    v -=
      0.4 * fireEv(shotOf(s, t.id, u.id, 'closing', { targetCharging: u.kind === 'cavalry' ? 'cavalry' : 'infantry' }));
  if (t.kind === 'artillery') v += 0.5;
  if (u.kind === 'cavalry' && t.kind === 'infantry') {
    const f = t.formation;
    if (f === 'hastySquare' || f === 'solidSquare') return -2;
    if (f !== 'garrison') {
      const began = gap(pl(s, u), pl(s, t));
      const sq = squareRow(began / IN).onPass === 'notAllowed' ? 0 : squareChance(s, t, began);
      // a formed square: pull up (a test), nothing gained
      v = (1 - sq) * v - sq * 0.3;
    }
  }
  if (u.kind === 'cavalry' && t.kind === 'cavalry') v -= 0.2; // it may evade
  return v;
}

function declareScores(s: S, actions: readonly Action[]): number[] {
  return actions.map((a) => {
    if (a === 'done charges') return 0.25;
    const [, id, target, dq] = a.split(' ');
    return chargeValue(s, unitOf(s, id!), unitOf(s, target!), dq === 'dq');
  });
}

function opChargeScores(s: S, actions: readonly Action[]): number[] {
  return actions.map((a) => {
    if (a === 'no op-charge') return 0.3;
    const [, id, target] = a.split(' ');
    const u = unitOf(s, id!);
    const t = unitOf(s, target!);
    const f = t.formation;
    const open = f === 'column' || f === 'marchColumn' || f === 'limbered' || t.disordered || f === 'skirmish';
    return chargeValue(s, u, t, false) + (open ? 0.3 : -0.2);
  });
}

/** The defender's odds in the CAC against the nearest charger at it. */
function defendOdds(s: S, u: UnitState): { win: number; lose: number; tie: number; charger: UnitState | null } {
  const cs = (s.tactical?.charges ?? []).filter((c) => c.target === u.id && c.stage === 'declared');
  let best: { win: number; lose: number; tie: number; charger: UnitState | null } = {
    win: 1,
    lose: 0,
    tie: 0,
    charger: null,
  };
  for (const c of cs) {
    const a = unitOf(s, c.charger);
    if (a.status !== 'active') continue;
    const m = cacMods(s, { attackers: [a.id], defenders: [u.id], second: false });
    const o = cacProb(m.attacker, m.defender);
    if (o.lose < best.win) best = { win: o.lose, lose: o.win, tie: o.tie, charger: a };
  }
  return best;
}

function reactionScores(s: S, actions: readonly Action[]): number[] {
  const id = actions[0]?.split(' ')[1];
  if (!id) return actions.map(() => 0);
  const u = unitOf(s, id);
  const stand = defendOdds(s, u);
  const standV = 2 * stand.win - 1.6 * stand.lose;
  return actions.map((a) => {
    const w = a.split(' ');
    switch (w[2]) {
      case 'stand':
        return u.kind === 'artillery' ? standV - 0.3 : standV;
      case 'square': {
        const cs = (s.tactical?.charges ?? []).filter((c) => c.target === id && c.stage === 'declared');
        const began = Math.min(
          ...cs.filter((c) => unitOf(s, c.charger).kind === 'cavalry').map((c) => c.startDistance),
        );
        const p = squareChance(s, u, began);
        const asSquare = defendOdds(updUnit(s, id, { formation: 'hastySquare' } as Partial<UnitState>), u);
        const disordered = defendOdds(updUnit(s, id, { disordered: true }), u);
        const sqV = 2 * asSquare.win - 1.6 * asSquare.lose + 0.5;
        return p * sqV + (1 - p) * (2 * disordered.win - 1.6 * disordered.lose);
      }
      case 'face':
        return standV + 0.4;
      case 'counter-charge': {
        const c = stand.charger;
        if (!c) return -1;
        const m = cacMods(updUnit(s, id, { phase: { ...u.phase, charging: true } }), {
          attackers: [c.id],
          defenders: [id],
          second: false,
        });
        const o = cacProb(m.attacker, m.defender);
        return 2 * o.lose - 1.6 * o.win + (u.kind === 'infantry' ? -0.3 : 0);
      }
      case 'evade':
        return u.kind === 'cavalry' ? 0 : -0.5;
      case 'limber':
        return 0.6;
      case 'fire-evade':
        return 0.2;
      case 'abandon':
        return -0.2;
      default:
        return 0;
    }
  });
}

function pullUpScores(s: S, charger: string, actions: readonly Action[]): number[] {
  const u = unitOf(s, charger);
  const c = s.tactical?.charges.find((x) => x.charger === charger);
  const o = c ? cacOddsOf(s, u, unitOf(s, c.target), true) : { win: 0, lose: 1, tie: 0 };
  return actions.map((a) => (a.startsWith('pull up') ? 0 : 2 * o.win - 1.6 * o.lose));
}

function afterEvadeScores(s: S, charger: string, actions: readonly Action[]): number[] {
  const u = unitOf(s, charger);
  return actions.map((a) => {
    const w = a.split(' ');
    if (w[0] === 'pull') return 0.5;
    if (w[0] === 'take') return 0.3;
    if (w.length < 3) return -0.5;
    const t = unitOf(s, w[2]!);
    const o = cacOddsOf(s, u, t, true);
    return 2 * o.win - 1.6 * o.lose + 0.3 * weakness(t) - 0.3;
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// Close assault: the winner's options, exploitation, the tie's fall back
// ---------------------------------------------------------------------------------------------------------------------

/** The best 2nd CAC within `inches` of `u`'s front (a value), or 0. */
function exploitValue(s: S, u: UnitState, inches: number): number {
  const me = pl(s, u);
  let best = 0;
  for (const e of enemiesOf(s, u.side)) {
    if (!inFrontArcWithin(me, polyOf(pl(s, e)), inches * IN)) continue;
    const o = cacOddsOf(s, u, e, true, true);
    best = Math.max(best, 2 * o.win - 1.6 * o.lose + 0.4 * weakness(e));
  }
  return best;
}

function cacWinScores(s: S, unit: string, loserAt: Vec, actions: readonly Action[]): number[] {
  const u = unitOf(s, unit);
  const g = goalOf(s, u);
  const closer = g ? dist(loserAt, g.p) < dist(u.pos, g.p) : false;
  return actions.map((a) => {
    const w = a.split(' ');
    if (w[0] === 'take') {
      const wheelDeg = Math.abs(Number(w[4]));
      return (closer ? 0.6 : 0.1) + (u.kind === 'cavalry' ? -0.2 : 0) - wheelDeg / 200;
    }
    if (w[0] === 'exploit') return exploitValue(s, u, Number(w[2])) - 0.1;
    if (w[0] === 'rally') return 0.4;
    return 0.2;
  });
}

function exploitScores(s: S, unit: string, actions: readonly Action[]): number[] {
  const u = unitOf(s, unit);
  return actions.map((a) => {
    const w = a.split(' ');
    if (w[0] === 'halt') return 0;
    if (w[2] === 'ahead') return -0.4;
    const t = unitOf(s, w[3]!);
    const o = cacOddsOf(s, u, t, true, true);
    return 2 * o.win - 1.6 * o.lose + 0.4 * weakness(t) - 0.1;
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// S4, T1, S6, T2a activations, T2d recovery
// ---------------------------------------------------------------------------------------------------------------------

function strategicScores(s: S, element: string, actions: readonly Action[]): number[] {
  const e = elementOf(s, element);
  const units = elementUnits(s, e);
  if (!units.length) return actions.map(() => 0);
  const order = orderOfElement(s, e);
  const c0 = centreOf(units.map((u) => u.pos));
  const goal = order?.point ?? null;
  return actions.map((a) => {
    if (a.endsWith(' none')) return order?.type === 'hold' || order?.type === 'reserve' ? 0.2 : 0;
    if (!goal || order?.type === 'reserve' || order?.type === 'hold') return -0.5;
    let r: ReturnType<typeof offerOfKey>;
    try {
      r = offerOfKey(s, a);
    } catch {
      return -1;
    }
    const o = r.offer;
    if (!o) return 0;
    const ends = o.reach.movers.map((m) => m.at(o.steps * (IN / 4))?.pos ?? m.unit.pos);
    const c1 = centreOf(ends);
    const gained = (dist(c0, goal) - dist(c1, goal)) / IN;
    let v = 0.1 * gained;
    // formed near the enemy: a column only while far from it
    const enemies = enemiesOf(s, e.side);
    let near = Number.POSITIVE_INFINITY;
    for (const p of ends) for (const x of enemies) near = Math.min(near, dist(p, x.pos) / IN);
    if (o.choice.column) v += near > 24 ? 0.2 : -1;
    if (o.choice.force) v -= 0.4;
    return v;
  });
}

function leaderScores(s: S, side: Side, actions: readonly Action[]): number[] {
  const rank = (l: LeaderState) => (l.inspiration === 'charismatic' ? 3 : l.inspiration === 'inspirational' ? 2 : 0);
  // the unit most about to fight: nearest the enemy, cavalry in charge reach first
  const fightScore = (u: UnitState) => {
    const d = Math.min(100, nearestEnemy(s, pl(s, u), side).d / IN);
    return -d + (u.kind === 'cavalry' ? 4 : 0) + (u.kind === 'artillery' ? -20 : 0);
  };
  return actions.map((a) => {
    const w = a.split(' ');
    if (w[0] === 'done') return 0;
    const l = s.leaders.find((x) => x.id === w[1])!;
    if (w[0] === 'detach') return rank(l) ? -0.5 : -0.1;
    if (!rank(l)) return -0.2;
    const u = unitOf(s, w[2]!);
    const now = l.attachedTo ? fightScore(unitOf(s, l.attachedTo)) : -200;
    const gain = fightScore(u) - now;
    return gain > 2 ? 0.5 + 0.001 * gain : -0.1;
  });
}

function activationScores(s: S, actions: readonly Action[]): number[] {
  return actions.map((a) => {
    if (a === 'end activations') return -100;
    const e = elementOf(s, a.slice('activate '.length));
    let d = Number.POSITIVE_INFINITY;
    for (const u of elementUnits(s, e)) d = Math.min(d, nearestEnemy(s, pl(s, u), e.side).d);
    return 10 - Math.min(d / IN, 100) * 0.05;
  });
}

/** The scores of the last menu scored in each state (search asks again for the same state: prior, then rollouts). */
const scored = new WeakMap<S, { actions: readonly Action[]; scores: number[] }>();

export function policyScores(s: S, actions: readonly Action[]): number[] {
  const hit = scored.get(s);
  if (hit && hit.actions.length === actions.length && hit.actions.every((a, i) => a === actions[i]))
    return [...hit.scores];
  const scores = scoresOf(s, actions);
  scored.set(s, { actions, scores });
  return [...scores];
}

function scoresOf(s: S, actions: readonly Action[]): number[] {
  const f = s.stack[s.stack.length - 1];
  if (!f) return actions.map(() => 0);
  switch (f.t) {
    case 'orders':
      return orderScores(s, actions);
    case 'strategic':
      return strategicScores(s, f.element, actions);
    case 'initiativeChoice':
      return actions.map((a) => (a === 'initiative first' ? 1 : 0));
    case 'leaders':
      return leaderScores(s, f.side, actions);
    case 'activation':
      return activationScores(s, actions);
    case 'unitAction':
      return unitActionScores(s, f.unit, actions);
    case 'moveFire':
      return fireChoice(s, f.unit, actions, 'fire');
    case 'returnFire':
      return fireChoice(s, f.unit, actions, 'return');
    case 'recover':
      return actions.map((a) => (a.startsWith('recover') ? 1 : a.startsWith('unblow') ? 0.5 : 0));
    case 'declareCharges':
      return declareScores(s, actions);
    case 'opCharge':
      return opChargeScores(s, actions);
    case 'reactions':
      return reactionScores(s, actions);
    case 'pullUp':
      return pullUpScores(s, f.charger, actions);
    case 'afterEvade':
      return afterEvadeScores(s, f.charger, actions);
    case 'cacWin':
      return cacWinScores(s, f.unit, f.loserAt, actions);
    case 'exploit':
      return exploitScores(s, f.unit, actions);
    case 'cacTieFallBack':
      return actions.map((a) => (a.endsWith(' 2') ? 0.1 : 0));
    default:
      return actions.map(() => 0);
  }
}
