/**
 * The Grand Charge [10.8–10.83], declared instead of an activation attempt: the player names the scenario's
 * cavalry leader, the single first area every participating unit enters, the target beyond it, and the unactivated
 * cavalry in or next to the leader's area that can charge through that first area; then the launch roll (d6 less than
 * the leader's tactical rating). A failure is a failed activation attempt; a success is a charge with +1 on all attack
 * dice [10.82], no pursuit, and after success a choice: continue behind the target or return to the origins [10.83].
 * The charge itself is the ordinary charge procedure (charge-flow.ts, started through its entry in procedures.ts) with
 * the Grand Charge's differences.
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { IllegalActionError } from '../../core/game.ts';
import type { AreaId } from '../../areas/map.ts';
import { chargeLanes } from './charge.ts';
import { afterAttempt, eligibleFormations, topFormation } from './activation.ts';
import type { Handlers } from '../../core/procedure.ts';
import { entry, provide, staged } from './procedures.ts';
import { type Log, ev, pop, push, replaceTop, updUnit } from './state.ts';
import type { Action, EState, GrandChargeFrame, Side, UnitState } from './types.ts';
import { laneWorld, leaderDef, tactical, unit, unitDef } from './world.ts';

/** Cavalry that may take part [10.8]: of formations not yet activated, in or next to the leader's area, fit to charge. */
function grandChargeCavalry(s: EState, p: Side, leader: string): UnitState[] {
  const at = s.leaders.find((x) => x.id === leader)!.area;
  if (at === null) return [];
  const near = new Set([at, ...s.ctx.map.neighbours(at)]);
  const open = new Set(eligibleFormations(s, p));
  return s.units.filter(
    (u) =>
      u.side === p &&
      u.kind === 'cavalry' &&
      !u.eliminated &&
      !u.routed &&
      u.acted === null &&
      u.area !== null &&
      near.has(u.area) &&
      open.has(topFormation(s, p, u.formation)),
  );
}

/** Every (origin, first area, target) lane open to those cavalry [10.81]. */
function lanes(s: EState, p: Side, leader: string): { origin: AreaId; via: AreaId; target: AreaId }[] {
  const w = laneWorld(s, p);
  const origins = [...new Set(grandChargeCavalry(s, p, leader).map((u) => u.area!))].sort((a, b) => a - b);
  return origins.flatMap((origin) => chargeLanes(w, origin).map((l) => ({ origin, via: l.via, target: l.target })));
}

/** True when the leader can declare a Grand Charge with at least one lane. */
function canGrandCharge(s: EState, p: Side, leader: string): boolean {
  return (
    leaderDef(s, leader).canGrandCharge &&
    s.leaders.find((x) => x.id === leader)!.status === 'on' &&
    lanes(s, p, leader).length > 0
  );
}

function gcLegal(s: EState, f: GrandChargeFrame): Action[] {
  const ls = lanes(s, f.p, f.leader);
  switch (f.stage) {
    case 'first':
      return [...new Set(ls.map((l) => l.via))].sort((a, b) => a - b).map((area) => ({ k: 'gcFirst', area }));
    case 'target':
      return [...new Set(ls.filter((l) => l.via === f.first).map((l) => l.target))]
        .sort((a, b) => a - b)
        .map((target) => ({ k: 'gcTarget', target }));
    case 'gather': {
      const origins = new Set(ls.filter((l) => l.via === f.first && l.target === f.target).map((l) => l.origin));
      const order = (id: string) => s.units.findIndex((x) => x.id === id);
      const last = f.units.length ? Math.max(...f.units.map(order)) : -1;
      const acts: Action[] = grandChargeCavalry(s, f.p, f.leader)
        .filter((u) => origins.has(u.area!) && order(u.id) > last)
        .map((u) => ({ k: 'join', u: u.id }));
      if (f.units.length) acts.push({ k: 'resolve' });
      return acts;
    }
    default:
      return [];
  }
}

/** Faces that launch it: d6 < tactical [10.8]. */
function launchFaces(s: EState, f: GrandChargeFrame): number {
  return Math.max(0, Math.min(6, tactical(leaderDef(s, f.leader), true) - 1));
}

function gcChance(s: EState, f: GrandChargeFrame): ChanceOutcome<Action>[] {
  if (f.stage !== 'launch') return [];
  const n = launchFaces(s, f);
  const t = tactical(leaderDef(s, f.leader), true);
  return [
    { action: { k: 'c-pass', ok: true } as Action, p: n / 6, label: `launched (d6 < ${t})` },
    { action: { k: 'c-pass', ok: false } as Action, p: (6 - n) / 6, label: `fails (d6 ≥ ${t})` },
  ].filter((o) => o.p > 0);
}

function gcStep(
  s: EState,
  f: GrandChargeFrame,
  a: Action,
  log: Log,
  failedAttempt: (s: EState, p: Side, failed: boolean, log: Log) => EState,
): EState {
  const bad = (why: string) => new IllegalActionError(a.k, `${why} (Grand Charge, ${f.stage}) [10.8]`);
  switch (a.k) {
    case 'gcFirst':
      if (f.stage !== 'first' || !gcLegal(s, f).some((x) => x.k === 'gcFirst' && x.area === a.area))
        throw bad(`area ${a.area} is not a common first area`);
      return replaceTop(s, { ...f, stage: 'target', first: a.area });
    case 'gcTarget':
      if (f.stage !== 'target' || !gcLegal(s, f).some((x) => x.k === 'gcTarget' && x.target === a.target))
        throw bad(`area ${a.target} is not a target beyond area ${f.first}`);
      return replaceTop(s, { ...f, stage: 'gather', target: a.target });
    case 'join':
      if (f.stage !== 'gather' || !gcLegal(s, f).some((x) => x.k === 'join' && x.u === a.u))
        throw bad(`${a.u} cannot join`);
      return replaceTop(s, { ...f, units: [...f.units, a.u] });
    case 'resolve': {
      if (f.stage !== 'gather' || !f.units.length) throw bad('no cavalry named');
      const name = s.ctx.scenario.sides[f.p].name;
      ev(
        log,
        '10.8',
        `${name} declare a Grand Charge led by ${leaderDef(s, f.leader).name} on area ${f.target} through area ${f.first}: ${f.units.map((id) => unitDef(s, id).name).join(', ')}`,
      );
      return replaceTop(s, { ...f, stage: 'launch' });
    }
    case 'c-pass': {
      if (f.stage !== 'launch') throw bad('no launch roll is due');
      s = pop(s);
      const t = tactical(leaderDef(s, f.leader), true);
      if (!a.ok) {
        ev(log, '10.8', `the Grand Charge is not launched (d6 not below ${t}): a failed activation attempt (A-21)`);
        return failedAttempt(s, f.p, true, log);
      }
      ev(log, '10.8', `the Grand Charge is launched (d6 below ${t})`);
      s = failedAttempt(s, f.p, false, log); // a successful attempt: the other side attempts next
      const origins: Record<string, AreaId> = {};
      for (const id of f.units) {
        origins[id] = unit(s, id).area!;
        s = updUnit(s, id, { acted: 'charge' }); // [10.7]
      }
      const lArea = s.leaders.find((x) => x.id === f.leader)!.area!;
      const originList = [...new Set(Object.values(origins))];
      const main = originList.includes(lArea) ? lArea : originList[0]!;
      const escort = originList.includes(lArea) ? [f.leader] : [];
      s = push(s, {
        t: 'phase',
        p: f.p,
        seg: 'charge',
        inCmd: [...f.units],
        bomb: {},
        assaulted: [],
        segStart: {},
        segLost: {},
        routChecked: [],
        grand: true,
      });
      return entry('charge').startGrand(s, f.p, main, f.first!, f.target!, [...f.units], escort, origins);
    }
    default:
      throw bad('not an action here');
  }
}

/** A Grand Charge being declared as the runtime plays it: the leader's choices, then the launch roll [10.8–10.81]. */
export const grandCharges: Handlers<EState, GrandChargeFrame, Action> = {
  gc: staged<GrandChargeFrame>({
    decider: (_s, f) => (f.stage === 'launch' ? null : f.p), // the launch roll is a chance node
    legal: gcLegal,
    chance: gcChance,
    step: (s, f, a, log) => gcStep(s, f, a, log, afterAttempt),
    settle: () => null,
  }),
};
provide('grandCharge', { canGrandCharge });
