/**
 * Charge! Eagles Rising, the end of the turn [digest §5 "End of turn", §6.14, §7; ADAPTATIONs C11, C14 (the sheets
 * give no game length or victory)]: per-phase flags cleared, knocked-out leaders back when due, SUPPRESSED removed,
 * "limbered at the start of the turn" recorded for the next turn, the immediate defeat checks, and after the last turn
 * the Victory Points.
 *
 * Readings:
 * - Knocked out "for 1 turn" (orders.ts sets `backAfterTurn` = the next turn): he is back at the end of that turn.
 * - C11 `suppression: endOfTurn`: every SUPPRESSED marker goes at the end of the turn it was placed in.
 * - `limberedAtTurnStart` ([Artillery Fire] "*Not … limbered at the start of the turn"): a battery limbered as this
 *   turn ends is limbered at the start of the next.
 * - Immediate defeat (C14): an Army broken by its morale test (S3 ends the game at once, morale.ts), or at the end of
 *   a turn `elementDefeatFraction` (½) or more of a side's MEs, by its starting count, broken or removed. "Removed":
 *   an ME with no unit left on the table that is not still waiting off it. Both sides at once: a draw.
 * - VP after the last turn (`ctx.turns`): +1 per full `lossVpStep` % (5%) of the enemy's starting strength lost
 *   (figures + guns × 3, C3; units still off the table count as not lost), +`vp` (the scenario's, default the option
 *   `objectiveVp`, 3) per objective held. Held: a formed unit of the side in or within 3" of it (edge to edge; an area
 *   objective counts from its polygon) and no enemy unit within 3". "Formed": any unit on the table except infantry
 *   and cavalry in Skirmish formation (digest §3.4: formed infantry is every formation except Skirmish; batteries and
 *   garrisons count). The higher total wins; equal is a draw.
 */
import { IN, type Polygon, pointPolygonDistance, polygonDistance } from '../../geometry/geometry.ts';
import type { Log } from '../../core/procedure.ts';
import { fraction } from './options.ts';
import { polyOf } from './shape.ts';
import type { GameResult, Objective, Side, UnitState } from './types.ts';
import { NO_PHASE_FLAGS, unitStrength } from './types.ts';
import { VICTORY } from './tables.ts';
import { type S, elementUnits, onTable, placed, say, sideName, unitsOf, other } from './state.ts';

// ---------- the end of the turn ----------

/** [End of turn] the bookkeeping, then the checks of C14; after the last turn, the VP. */
export function beginEnd(s: S, log: Log): S {
  let t = clearTurn(s, log);
  const defeated = ([0, 1] as const).filter((p) => t.armies[p].broken || elementsDefeated(t, p));
  if (defeated.length) return { ...t, result: defeatResult(t, defeated, log) };
  if (t.turn >= t.ctx.turns) {
    const vp = victoryPoints(t);
    const winner: Side | -1 = vp[0] > vp[1] ? 0 : vp[1] > vp[0] ? 1 : -1;
    const score = `${sideName(t, 0)} ${vp[0]} VP, ${sideName(t, 1)} ${vp[1]} VP`;
    const text =
      winner === -1 ? `the last turn is played: a draw (${score})` : `${sideName(t, winner)} win on points (${score})`;
    say(log, 'C14', text);
    t = { ...t, result: { winner, vp, text } };
  }
  return t;
}

/** [End of turn] per-phase flags, knocked-out leaders, suppression (C11), limbered at the start of the next turn. */
function clearTurn(s: S, log: Log): S {
  const units = s.units.map((u): UnitState => {
    let v = u.phase === NO_PHASE_FLAGS ? u : { ...u, phase: NO_PHASE_FLAGS };
    if (v.kind === 'artillery') {
      const lim = v.formation === 'limbered';
      if (v.suppressed || v.limberedAtTurnStart !== lim) {
        if (v.suppressed && onTable(v)) say(log, 'Markers', `${v.name} is no longer suppressed (C11)`);
        v = { ...v, suppressed: false, limberedAtTurnStart: lim };
      }
    }
    return v;
  });
  const elements = s.elements.map((e) =>
    e.activatedThisPhase || e.strategicMoveThisTurn
      ? { ...e, activatedThisPhase: false, strategicMoveThisTurn: false }
      : e,
  );
  const leaders = s.leaders.map((l) => {
    if (l.status !== 'knockedOut' || l.backAfterTurn > s.turn) return l;
    say(log, 'Leader Casualties', `${l.name} is back in command`);
    return { ...l, status: 'active' as const, backAfterTurn: 0 };
  });
  return { ...s, units, elements, leaders, tactical: null };
}

// ---------- defeat ----------

/** Is an ME broken or removed (every unit gone, not waiting off the table)? */
function elementGone(s: S, id: string): boolean {
  const e = s.elements.find((x) => x.id === id)!;
  if (e.broken) return true;
  if (e.offBoard) return false;
  return elementUnits(s, e).length === 0;
}

/** C14: `elementDefeatFraction` (½) or more of a side's MEs, by starting count, broken or removed. */
export function elementsDefeated(s: S, side: Side): boolean {
  const els = s.armies[side].elements;
  if (!els.length) return false;
  const gone = els.filter((id) => elementGone(s, id)).length;
  return gone >= fraction(s.ctx.options.elementDefeatFraction) * els.length - 1e-9;
}

/** C14: the result when one side (or both: a draw) is defeated. */
function defeatResult(s: S, defeated: readonly Side[], log: Log): GameResult {
  const vp = victoryPoints(s);
  const why = (p: Side) =>
    s.armies[p].broken
      ? `the ${sideName(s, p)} army is broken`
      : `half the ${sideName(s, p)} MEs are broken or removed`;
  if (defeated.length === 2) {
    const text = `${why(0)} and ${why(1)}: a draw (C14)`;
    say(log, 'C14', text);
    return { winner: -1, vp, text };
  }
  const loser = defeated[0]!;
  const text = `${why(loser)}: ${sideName(s, other(loser))} win (C14)`;
  say(log, 'C14', text);
  return { winner: other(loser), vp, text };
}

/** C14: an Army broken by its morale test (S3) ends the game; both in the same S3, a draw. */
export function armyBrokenResult(s: S, log: Log): GameResult {
  return defeatResult(
    s,
    ([0, 1] as const).filter((p) => s.armies[p].broken),
    log,
  );
}

// ---------- victory points ----------

/** C14: the enemy's starting strength lost, in full `lossVpStep` % steps (integer arithmetic: no rounding error). */
export function lossVp(s: S, side: Side): number {
  const enemy = other(side);
  const w = s.ctx.options.gunStrength;
  const start = s.armies[enemy].startStrength;
  if (start <= 0) return 0;
  let now = 0;
  for (const u of s.units) if (u.side === enemy) now += unitStrength(u, w);
  const lost = Math.max(0, start - now);
  return Math.floor((lost * 100) / (start * s.ctx.options.lossVpStep)) * VICTORY.vpPerLossStep;
}

/** Formed: on the table and not in Skirmish formation (digest §3.4). */
const formed = (u: UnitState) =>
  onTable(u) && !((u.kind === 'infantry' || u.kind === 'cavalry') && u.formation === 'skirmish');

/** The objective's body: its area's polygon, or its point. */
function objectiveBody(s: S, o: Objective): Polygon | null {
  if (!o.terrain) return null;
  const a = s.ctx.terrain.areas.find((x) => x.id === o.terrain);
  if (a) return a.polygon;
  const b = s.ctx.buas.find((x) => x.id === o.terrain);
  return b ? b.polygon : null;
}

/** A unit's distance to an objective, edge to edge (0 inside it). */
function distanceTo(s: S, u: UnitState, o: Objective, body: Polygon | null): number {
  const poly = polyOf(placed(s, u));
  return body ? polygonDistance(poly, body) : pointPolygonDistance(o.point, poly);
}

/** C14: who holds an objective: a formed unit in or within 3" of it, and no enemy unit within 3". */
export function objectiveHolder(s: S, o: Objective): Side | null {
  const body = objectiveBody(s, o);
  const r = VICTORY.objectiveRadius * IN;
  const near = ([0, 1] as const).map((p) => unitsOf(s, p).filter((u) => distanceTo(s, u, o, body) <= r));
  for (const p of [0, 1] as const) if (near[p]!.some(formed) && near[other(p)]!.length === 0) return p;
  return null;
}

/** C14: each side's Victory Points now: its share of the enemy's losses, and the objectives it holds. */
export function victoryPoints(s: S): [number, number] {
  const vp: [number, number] = [lossVp(s, 0), lossVp(s, 1)];
  for (const o of s.ctx.objectives) {
    const h = objectiveHolder(s, o);
    if (h !== null) vp[h] += o.vp;
  }
  return vp;
}
