/**
 * Activation Step bookkeeping [8.1–8.17]: the formations a side may still activate, the top formation a force
 * activates with, the army commander's initiative and the outcome of an activation attempt [8.13].
 * Shared by the sequence of play (flow.ts) and the Grand Charge (grand-charge.ts), which counts as an attempt.
 */
import { type Scenario, formationsOf } from './scenario.ts';
import { type Log, ev } from './state.ts';
import type { EState, Side } from './types.ts';
import { leaderDef, other } from './world.ts';

/** What `eligibleFormations` reads of a side's formations, which never change: per formation that activates on its own, the ids under it (itself included), its leader and whether it is the HQ formation. */
interface EligibleShape {
  readonly id: string;
  readonly ids: ReadonlySet<string>;
  readonly leader: string | null;
  readonly hq: boolean;
}
const shapes = new WeakMap<object, readonly EligibleShape[]>();
function eligibleShapes(sc: Scenario, p: Side): readonly EligibleShape[] {
  const side = sc.sides[p];
  let out = shapes.get(side);
  if (!out) {
    const all = formationsOf(side);
    out = all
      .filter(({ f }) => f.kind !== 'force') // forces activate with their parent formation [2.3]
      .map(({ f }) => {
        const id = f.id;
        const ids = new Set(all.filter((x) => x.f.id === id || isUnder(sc, p, x.f.id, id)).map((x) => x.f.id));
        const leader = side.leaders.find((l) => l.id === all.find((x) => x.f.id === id)!.f.leader);
        return { id, ids, leader: leader ? leader.id : null, hq: all.find((x) => x.f.id === id)!.f.kind === 'hq' };
      });
    shapes.set(side, out);
  }
  return out;
}

/** Formations a side may still activate this turn [8.15–8.17]: not activated, with something on the map. */
export function eligibleFormations(s: EState, p: Side): string[] {
  const out: string[] = [];
  for (const e of eligibleShapes(s.ctx.scenario, p)) {
    const st = s.formations.find((x) => x.id === e.id)!;
    if (st.activated || st.failedRally) continue;
    let ok = e.hq && s.hq[p]?.area != null;
    if (!ok && e.leader !== null) ok = s.leaders.some((l) => l.id === e.leader && l.status === 'on');
    if (!ok) ok = s.units.some((u) => u.side === p && !u.eliminated && u.area !== null && e.ids.has(u.formation));
    if (ok) out.push(e.id);
  }
  return out;
}

function isUnder(sc: Scenario, p: Side, fid: string, ancestor: string): boolean {
  const all = formationsOf(sc.sides[p]);
  for (
    let cur = all.find((x) => x.f.id === fid)?.parent ?? null;
    cur;
    cur = all.find((x) => x.f.id === cur)?.parent ?? null
  )
    if (cur === ancestor) return true;
  return false;
}

/** The army commander's initiative (A-06: the senior surviving formation leader's, else 1). */
export function commanderInitiative(s: EState, p: Side): number {
  const side = s.ctx.scenario.sides[p];
  const ac = s.leaders.find((l) => l.id === side.armyCommander)!;
  if (ac.status === 'on') return leaderDef(s, ac.id).initiative;
  const fl = side.leaders
    .filter((l) => l.role === 'formation' && s.leaders.find((x) => x.id === l.id)!.status === 'on')
    .sort((a, b) => b.grade - a.grade);
  return fl[0] ? leaderDef(s, fl[0].id).initiative : 1;
}

/**
 * Record an attempt's outcome and decide who attempts next, or end the Activation Step [8.13, 1.1, 8.1]: two
 * consecutive failures one by each player end it; a player alone with formations keeps attempting until he fails
 * twice in a row; a pass counts as a failure.
 */
export function afterAttempt(s: EState, p: Side, failed: boolean, log: Log): EState {
  const prev = s.prev;
  if (failed && prev && prev.p !== p && prev.failed) {
    ev(log, '8.13', 'two consecutive failed activation attempts, one by each player: the Activation Step ends');
    return { ...s, phase: 'end', prev: null, sameSideFails: 0 };
  }
  const same = failed ? (prev && prev.p === p && prev.failed ? s.sameSideFails + 1 : 1) : 0;
  const o = other(p);
  const oEligible = eligibleFormations(s, o).length > 0;
  if (!oEligible && same >= 2) {
    ev(
      log,
      '8.1',
      `${s.ctx.scenario.sides[p].name} failed twice in a row with the enemy out of formations: the Activation Step ends`,
    );
    return { ...s, phase: 'end', prev: null, sameSideFails: 0 };
  }
  return { ...s, prev: { p, failed }, sameSideFails: same, acting: oEligible ? o : p };
}

// ---------------------------------------------------------------------------------------------
// legal actions and chance

/** The formation a force activates with: its nearest ancestor that is not a force [2.3]. */
export function topFormation(s: EState, p: Side, fid: string): string {
  const all = formationsOf(s.ctx.scenario.sides[p]);
  let cur = fid;
  for (;;) {
    const e = all.find((x) => x.f.id === cur)!;
    if (!e.parent || e.f.kind !== 'force') return cur;
    cur = e.parent;
  }
}
