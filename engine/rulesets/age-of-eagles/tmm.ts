/** [Tactical Movement Modifiers] the March table DRM of a unit for an order (A10 leaders, A12 cohesion). */
import { leaderDistance, secureFlanks } from './shape.ts';
import { IN } from './state.ts';
import { type LeaderKind, inconsistentWithMarchMode, marchDrm } from './tables.ts';
import type { AoeState, Leader, Order, Unit } from './types.ts';

/** The leaders who command unit `u` (its division's and the army's). */
const commanders = (s: AoeState, u: Unit): Leader[] =>
  s.leaders.filter((l) => l.side === u.side && !l.captured && (l.army || l.div === u.div));

/** A10: the best leader of a kind for unit `u` (attached to it, or detached within 12"). */
function leaderKind(s: AoeState, u: Unit, attached: boolean): LeaderKind {
  let best: LeaderKind = 'none';
  for (const l of commanders(s, u)) {
    const ok = attached ? l.att === u.id : !l.att && leaderDistance(l, u) <= 12 * IN;
    if (!ok) continue;
    if (l.charismatic) return 'charismatic';
    best = 'plain';
  }
  return best;
}

/** [Tactical Movement Modifiers] the March table DRM for unit `u` given `order`. */
export function marchModifier(s: AoeState, u: Unit, o: Order, square = false): number {
  const formation = u.k === 'bat' || u.bua ? null : o.o === 'form' && o.thenMove ? o.f : u.f;
  const moving = o.o === 'move' || o.o === 'charge' || (o.o === 'form' && o.thenMove);
  return marchDrm({
    detachedLeader: leaderKind(s, u, false),
    attachedLeader: leaderKind(s, u, true),
    // the column +1 reads the formation the unit is in now
    formation: u.k === 'bat' || u.bua ? null : u.f === 'OpenOrder' ? 'OpenOrder' : u.f,
    // the −2: moving in a formation inconsistent with the March Mode (infantry)
    // ([Forming Square] the square roll takes the normal TMMs except this one, A5)
    movingInconsistently:
      !square && u.k === 'inf' && moving && formation !== null && inconsistentWithMarchMode(u.mm, formation),
    secureFlanks: u.k !== 'bat' && secureFlanks(s, u),
    troopClass: u.k === 'bat' ? 'Regular' : u.cls,
    hits: u.hits,
    disorderedCavalryCharging: u.k === 'cav' && u.dis && o.o === 'charge',
    cohesionLevel: s.sides[u.side].cohesion,
  }).total;
}
