/**
 * Objectives and victory (A-53; the series rules have none): an objective changes hands when one side's units are
 * alone in it, victory points for objectives, losses and the army commander, and the result at the end [1.1].
 */
import type { EState, Side } from './types.ts';
import { type Log, ev } from './state.ts';
import { other, unitsIn } from './world.ts';
import { RecentMemo } from '../../core/recent.ts';

/** An objective belongs to the side that last had combat units alone in it (the scenario gives the first holder). */
export function updateControl(s: EState, log: Log): EState {
  // control follows from the units and the control before: a pair already found settled stays so
  if (settledControl.get(s.units) === s.control) return s;
  let control: Record<string, Side> | null = null;
  for (const o of s.ctx.scenario.victory.objectives) {
    let who: Side | null = null;
    let both = false;
    for (const u of unitsIn(s, o.area)) {
      if (who === null) who = u.side;
      else if (who !== u.side) both = true;
    }
    if (who === null || both || s.control[String(o.area)] === who) continue;
    control ??= { ...s.control };
    control[String(o.area)] = who;
    ev(log, 'A-53', `the objective in area ${o.area} passes to the ${s.ctx.scenario.sides[who].name}`);
  }
  if (!control) settledControl.set(s.units, s.control);
  return control ? { ...s, control } : s;
}
/** Per units array, the control it was last found to leave unchanged. */
const settledControl = new RecentMemo<EState['units'], EState['control']>(4);

/** Victory points so far: steps lost, artillery and HQs eliminated, fallen leaders, objectives held. */
export function victoryPoints(s: EState): readonly [number, number] {
  const sc = s.ctx.scenario;
  const vp: [number, number] = [0, 0];
  const v = sc.victory.vp;
  for (const u of s.units) {
    const gain = other(u.side);
    if (u.kind === 'artillery') {
      if (u.eliminated) vp[gain] += v.artilleryUnit;
    } else vp[gain] += u.lost * v.step;
  }
  // each fall counts once; the army commander's own value only for the first holder of the post
  s.fallen.forEach((id, i) => {
    const l = s.leaders.find((x) => x.id === id)!;
    const def = sc.sides[l.side].leaders.find((x) => x.id === id)!;
    const gain = other(l.side);
    if (v.armyCommander[id] !== undefined && s.fallen.indexOf(id) === i) vp[gain] += v.armyCommander[id]!;
    else if (
      def.role === 'formation' ||
      def.role === 'force' ||
      def.role === 'armyCommander' ||
      def.role === 'intermediate'
    )
      vp[gain] += v.leader;
  });
  for (const p of [0, 1] as const) if (s.hq[p]?.lost) vp[other(p)] += v.hq;
  for (const o of sc.victory.objectives) {
    const c = s.control[String(o.area)];
    if (c !== undefined) vp[c] += o.vp[c];
  }
  return vp;
}

/** The result at the end of the last turn [1.1]: the VP difference against the scenario's thresholds. */
export function victory(s: EState): NonNullable<EState['result']> {
  const sc = s.ctx.scenario;
  const vp = victoryPoints(s);
  const d = vp[0] - vp[1];
  const t = sc.victory.thresholds;
  const level = Math.abs(d) >= t.decisive ? 'decisive' : Math.abs(d) >= t.marginal ? 'marginal' : 'draw';
  const winner = level === 'draw' ? -1 : d > 0 ? 0 : 1;
  return {
    winner,
    level,
    vp,
    reason: `VP ${sc.sides[0].name} ${vp[0]}, ${sc.sides[1].name} ${vp[1]} (difference ${d > 0 ? '+' : ''}${d})`,
  };
}

/** A facing owed by a unit that has since left the map (a marker retracted into its line [16.4]) lapses. */
