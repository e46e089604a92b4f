/**
 * Scripted preferences for Charge! Eagles Rising (`Game.policyScores`): a score per legal action at the top frame
 * (higher = better for the side to move), one finite number each.
 *
 * - Written orders [S1] (C2, C7), per recipient: a command that has lost half its strength withdraws home; otherwise
 *   it goes for the objectives — attacking one the enemy holds or contests when its side is at least four-fifths as
 *   strong as the enemy on the table, holding one its side holds, advancing on the nearest one otherwise; cavalry attacks the
 *   nearest enemy ME when an enemy unit near it is disordered, worn or spent (it may charge only on Attack). An order
 *   already in force is kept (a new one costs an acceptance roll and may fail: "consecutive order attempts").
 * - Every other decision: no preference yet (0), until its chapter's tactics are scripted.
 */
import { IN, dist } from '../../geometry/geometry.ts';
import { orderOfKey } from './orders.ts';
import { type Action, type S, centreOf, commandPoint, elementUnits, elementsOfCommand, lostFraction } from './state.ts';
import type { ElementState, FormationState, Order, OrderType, Side, UnitState } from './types.ts';

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

export function policyScores(s: S, actions: readonly Action[]): number[] {
  const f = s.stack[s.stack.length - 1];
  if (!f) return actions.map(() => 0);
  if (f.t === 'orders') return orderScores(s, actions);
  return actions.map(() => 0);
}
