/**
 * [Sequence]: the turn's phases when nothing is pending — initiative and activations, the resolve phase, compulsory
 * moves, the end of the turn and of the game.
 */
import type { Log } from '../../core/procedure.ts';
import { TURN_FRESH, ev, other, push, updSC, withEng, withState } from './state.ts';
import { withBn } from './shape.ts';
import type { Bn, MoeState, Side } from './types.ts';
import { compulsoryMoves, resolvePhase } from './resolve.ts';
import { available } from './activation.ts';
import { judge } from './winning.ts';

/** [Sequence 5] the turn ends: activations, re-rolls and triggers reset, reforms and rallies complete; the last turn is judged [Winning]. */
function endTurn(s: MoeState, log: Log): MoeState {
  const t = s.turn;
  const units = s.units.map((b) => {
    let nb: Bn = withBn(b, TURN_FRESH);
    if (b.reform) nb = { ...nb, reform: false, dis: false }; // [Reform] disorder clears (M12)
    if (b.stand === t) {
      nb = { ...nb, stand: 0 };
      if (b.ral) nb = { ...nb, brk: false, ral: false, dis: false }; // [Resolve] rally: stood a turn, reformed
    }
    return nb;
  });
  for (const b of s.units) if (b.stand === t && b.ral) ev(log, 'Resolve', `${b.name} has stood a turn and reforms`);
  let ns: MoeState = withState(s, { units, engs: s.engs.map((e) => withEng(e, { fought: false })), nAct: 0 });
  ns = updSC(ns, 0, { moved: false });
  ns = updSC(ns, 1, { moved: false });
  if (t >= s.ctx.turns) {
    const r = judge(ns, false);
    ev(log, 'Winning', r.winner < 0 ? r.reason : `${ns.sides[r.winner as Side].name} wins: ${r.reason}`);
    return withState(ns, { phase: 'over', result: r });
  }
  ev(log, 'Sequence', `turn ${t + 1} begins`);
  return push(withState(ns, { turn: t + 1, phase: 'activations' }), { t: 'initRoll' });
}

/** Nothing is pending: the turn sequence says what comes next. */
export function idle(s: MoeState, log: Log): MoeState {
  switch (s.phase) {
    case 'pregame':
      ev(log, 'Sequence', 'turn 1 begins');
      return push(withState(s, { phase: 'activations', turn: 1 }), { t: 'initRoll' });
    case 'activations': {
      // [Initiative] players alternate; a player with none left lets the other activate all the rest
      const n = s.next;
      if (available(s, n)) return push(s, { t: 'slot', p: n });
      if (available(s, other(n))) return push(withState(s, { next: other(n) }), { t: 'slot', p: other(n) });
      return withState(s, { phase: 'resolve' });
    }
    case 'resolve':
      return resolvePhase(s, log) ?? withState(s, { phase: 'compulsory' });
    case 'compulsory':
      return compulsoryMoves(s) ?? endTurn(s, log);
    case 'over': // finished: the runtime never asks
      return s;
  }
}
