/**
 * [Removing casualties] and [Risk to characters]: Rankers lost (a battalion with none left is removed, M11), a
 * battalion removed from play, the end of an engagement (joiners fall back and stand, M13), Characters lost and the
 * Supreme Commander killed. Shooting, combat and running all end here.
 */
import type { Log } from '../../core/procedure.ts';
import { IN } from '../../geometry/geometry.ts';
import { eng, ev, unit, upd, updSC, updSide, withState } from './state.ts';
import { type Bn, type CharType, type MoeState, type Side, TRIG_SC_LOST } from './types.ts';
import { fallBack } from './common.ts';

/** End an engagement; joiners fall back 2" and stand (M13); optionally both fighters stand (no follow-up). */
export function endEngagement(s: MoeState, eid: string, bothStand: boolean, log: Log): MoeState {
  const e = eng(s, eid);
  let ns: MoeState = withState(s, { engs: s.engs.filter((x) => x.id !== eid) });
  for (const id of [e.att, e.def]) {
    if (!unit(ns, id).on) continue;
    ns = upd(ns, id, bothStand ? { eng: '', stand: ns.turn + 1, standDis: true } : { eng: '' });
  }
  for (const j of e.joiners) {
    if (!unit(ns, j.id).on) continue;
    ns = upd(ns, j.id, { eng: '', stand: ns.turn + 1, standDis: true });
    ns = fallBack(ns, j.id, 2 * IN, log, 'M13');
  }
  ev(log, 'Combat process', `the combat ${bothStand ? 'ends without a follow-up: both stand next turn' : 'ends'}`);
  return ns;
}

/** A battalion leaves play, routed off the table or destroyed (M11): its combat ends and an attached Supreme Commander stays. */
export function removeUnit(s: MoeState, id: string, how: 'routed' | 'destroyed', log: Log): MoeState {
  let ns = s;
  const b = unit(ns, id);
  if (b.eng) ns = endEngagement(ns, b.eng, false, log);
  const sc = ns.sides[b.side].sc;
  if (sc.alive && sc.att === id) ns = updSC(ns, b.side, { att: '', x: b.x, y: b.y });
  ev(
    log,
    how === 'routed' ? 'Resolve' : 'M11',
    `${b.name} ${how === 'routed' ? 'routs off the table and does not come back' : 'is destroyed'}`,
  );
  return upd(ns, id, {
    on: false,
    gone: how,
    eng: '',
    cas: b.cas + (how === 'destroyed' ? b.sk : 0),
    sk: how === 'destroyed' ? 0 : b.sk,
  });
}

/** Take Ranker casualties off the close-order body; 0 Rankers = removed (M11). */
export function rankerLoss(s: MoeState, id: string, n: number, log: Log): MoeState {
  const b = unit(s, id);
  const lost = Math.min(n, b.rk);
  let ns = upd(s, id, { rk: b.rk - lost, cas: b.cas + lost });
  if (b.rk - lost <= 0) ns = removeUnit(ns, id, 'destroyed', log);
  return ns;
}

export function loseCharacter(s: MoeState, id: string, which: CharType, log: Log): MoeState {
  const b = unit(s, id);
  const names: Record<CharType, string> = {
    drum: 'drummer',
    sgt: 'sergeant',
    ens: 'ensign',
    off: 'officer',
    sc: 'Supreme Commander',
  };
  ev(log, 'Risk to characters', `${b.name} loses its ${names[which]}`);
  if (which === 'sc') return killSC(upd(s, id, { cas: b.cas + 1 }), b.side, id, log);
  const patch: Partial<Bn> = { cas: b.cas + 1 };
  if (which === 'drum') Object.assign(patch, { drum: b.drum - 1 });
  if (which === 'sgt') Object.assign(patch, { sgt: b.sgt - 1 });
  if (which === 'ens') Object.assign(patch, { ens: 0 });
  if (which === 'off') Object.assign(patch, { off: 0 });
  return upd(s, id, patch);
}

function killSC(s: MoeState, side: Side, withId: string, log: Log): MoeState {
  // [Supreme Commander] killed: not replaced; the army drops one level permanently; his battalion checks RESOLVE
  ev(
    log,
    'Supreme Commander',
    `${s.sides[side].name}'s Supreme Commander is killed: every battalion drops one quality level`,
  );
  let ns = updSide(s, side, { scKilled: true, sc: { ...s.sides[side].sc, alive: false, att: '' } });
  const b = unit(ns, withId);
  ns = upd(ns, withId, { trig: b.trig | TRIG_SC_LOST });
  return ns;
}
