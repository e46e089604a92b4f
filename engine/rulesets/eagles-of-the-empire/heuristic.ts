/**
 * Scripted preferences for Eagles of the Empire (`Game.policyScores`) and the position evaluation (`Game.evaluate`).
 *
 * Tactics from the rulebook: always attempt activation (passing wastes the initiative [8.1]); activate the formations
 * nearest the enemy first; mass artillery into full fire groups before shooting [12.62]; charge only at favourable
 * strength and never into squares or towns [10.24]; form square when enemy cavalry is adjacent [17.1]; assault at good
 * odds only [14.1]; move toward the objectives the side does not hold, keeping units together; take losses on the
 * strongest units and spare artillery [12.2]; stand when morale is good [14.4]; retreat and rout away from the enemy;
 * extend a line [16.0] only to cover an empty objective with the enemy near.
 */
import type { AreaId } from '../../areas/map.ts';
import { toMoveOf, top, victoryPoints } from './rules.ts';
import type { Action, EState, Frame, Side, UnitState } from './types.ts';
import { alive, moraleOf, spOf, stepsLeft, unit, unitsAt, other } from './world.ts';
import { assaultTerrainPct } from './assault.ts';
import { firstSteps } from './move-flow.ts';

/**
 * Areas a side wants to reach: the objectives it does not hold (the attacker), else its own objectives to garrison
 * (the defender); with no objectives at all, the enemy's units.
 */
function goals(s: EState, p: Side): AreaId[] {
  const objs = s.ctx.scenario.victory.objectives;
  const take = objs.filter((o) => s.control[String(o.area)] !== p && o.vp[p] > 0).map((o) => o.area);
  if (take.length) return take;
  const hold = objs.filter((o) => s.control[String(o.area)] === p).map((o) => o.area);
  if (hold.length) return hold;
  return [...new Set(s.units.filter((u) => u.side !== p && alive(u)).map((u) => u.area!))];
}

function distTo(s: EState, a: AreaId, targets: readonly AreaId[]): number {
  let d = 99;
  for (const t of targets) d = Math.min(d, s.ctx.map.range(a, t));
  return d;
}

function enemySpNear(s: EState, p: Side, a: AreaId): number {
  let sp = 0;
  for (const n of [a, ...s.ctx.map.neighbours(a)]) for (const u of unitsAt(s, n, other(p))) sp += spOf(u);
  return sp;
}

function sideSp(s: EState, p: Side, a: AreaId): number {
  return unitsAt(s, a, p).reduce((t, u) => t + spOf(u), 0);
}

/** Leaving `area` would abandon an objective the side holds (no other unit of its stays). */
function abandons(s: EState, p: Side, area: AreaId, leaving: readonly string[]): boolean {
  if (!s.ctx.scenario.victory.objectives.some((o) => o.area === area) || s.control[String(area)] !== p) return false;
  return !unitsAt(s, area, p).some((u) => !leaving.includes(u.id));
}

/** Towns, villages and woods: bad ground for cavalry. */
function closed(s: EState, area: AreaId): boolean {
  return s.ctx.map
    .area(area)
    .terrain.some(
      (k) => k === 'town' || k === 'city' || k === 'village' || k === 'hamlet' || k === 'woods' || k === 'forest',
    );
}

function isObjective(s: EState, area: AreaId): boolean {
  return s.ctx.scenario.victory.objectives.some((o) => o.area === area);
}

function scoreAction(s: EState, f: Frame, p: Side, a: Action, g: () => AreaId[]): number {
  const map = s.ctx.map;
  switch (a.k) {
    case 'roll':
      return 2;
    case 'pass':
      return -5;
    case 'grandCharge':
      return 0.5;
    case 'arrive':
      return 1;
    case 'first':
      return a.self ? 1 : 0;
    case 'select': {
      // formations nearest the goals first
      const us = s.units.filter((u) => u.side === p && alive(u) && u.formation === a.f);
      if (!us.length) return -1;
      return 5 - Math.min(...us.map((u) => distTo(s, u.area!, g()))) + us.length * 0.01;
    }
    case 'next':
      return 0;
    case 'charge': {
      // [10.2] the defenders fire first and a repulse costs steps: charge only with a clear edge in strength
      const cav = unitsAt(s, a.area, p)
        .filter((u) => u.kind === 'cavalry')
        .reduce((t, u) => t + spOf(u), 0);
      const def = unitsAt(s, a.target, other(p));
      if (def.some((u) => u.square)) return -3;
      const town = map
        .area(a.target)
        .terrain.some((t) => t === 'town' || t === 'city' || t === 'woods' || t === 'forest');
      const dsp = def.reduce((t, u) => t + spOf(u), 0);
      const weak = def.every((u) => u.kind === 'artillery' || u.routed || stepsLeft(u) <= 1);
      return (town ? -2 : 0) + (cav >= 2 * dsp || (weak && cav >= dsp) ? 2 : cav >= dsp ? -0.2 : -1);
    }
    case 'fire':
      return f.t === 'phase' ? 4 + unitsAt(s, a.to, other(p)).reduce((t, u) => t + spOf(u), 0) * 0.05 : 3;
    case 'shoot':
      return a.cb ? 1.5 : 1;
    case 'reserve':
      return 1;
    case 'artLeader':
      return 0.3;
    case 'deploy':
    case 'reabsorb':
      return -0.2; // the scenario's alternates are a player's option, not a default

    case 'attach':
      return 0.4;
    case 'detach':
      return -0.5;
    case 'mvStack': {
      const ids = unitsAt(s, a.area, p)
        .filter((u) => u.attachedTo === null && !u.moveDone)
        .map((u) => u.id);
      if (abandons(s, p, a.area, ids)) return -2;
      return moveWorth(s, p, ids, g) + 0.3; // together when they can
    }
    case 'mvUnit': {
      const u = unit(s, a.u);
      if (abandons(s, p, u.area!, [u.id])) return -2;
      return moveWorth(s, p, [u.id], g) - (u.kind === 'artillery' ? 0.5 : 0);
    }
    case 'mvWithLeader':
      return abandons(s, p, unit(s, a.u).area!, [a.u]) ? -2 : 1.2;
    case 'mvLeader':
    case 'mvHq':
      return -0.5; // leaders and the HQ stay with their troops (command radius [9.1])
    case 'square': {
      const cavNear = map.neighbours(a.area).some((n) => unitsAt(s, n, other(p)).some((u) => u.kind === 'cavalry'));
      return a.on ? (cavNear ? 3 : -3) : cavNear ? -3 : 1;
    }
    case 'reverseSlope':
      return a.on ? (enemySpNear(s, p, unit(s, a.u).area!) > 0 ? 2.5 : 0.2) : -1;
    case 'massedColumn':
      return 0.5;
    case 'extend': {
      // [16.0] stretch a line to hold an empty objective or goal next to it, when the enemy is near
      const u = unit(s, a.u);
      const useful = a.to.some((n) => (isObjective(s, n) || g().includes(n)) && !unitsAt(s, n, p).length);
      return useful && enemySpNear(s, p, u.area!) > 0 ? 2.5 : -1;
    }
    case 'retract':
      return -0.5;
    case 'assault': {
      // strength across side boundaries [14.61], with the terrain's toll on the attacker [14.21] and cavalry kept out of
      // towns and woods
      let att = 0;
      for (const n of map.sideNeighbours(a.target)) {
        const pct = assaultTerrainPct(map, n, a.target);
        for (const u of unitsAt(s, n, p))
          if (!u.routed && u.acted === null)
            att += spOf(u) * Math.max(0, 1 + pct / 100) * (u.kind === 'cavalry' && closed(s, a.target) ? 0.3 : 1);
      }
      const def = sideSp(s, other(p), a.target) * (closed(s, a.target) ? 1.5 : 1);
      return att >= 3 * def ? 3 : att >= 2 * def ? 0.5 : -2;
    }
    case 'join': {
      const u = unit(s, a.u);
      return f.t === 'assault' && u.kind === 'cavalry' && closed(s, f.target) ? -1 : 2;
    }
    case 'escort':
      return f.t === 'routMove' ? -1 : 0.5; // leaders stay to steady the units left behind [19.14]
    case 'routOff':
      return -5;
    case 'resolve':
      return 0;
    case 'stand': {
      const us = f.t === 'assault' ? (p === f.p ? f.struckIds : unitsAt(s, f.target, other(f.p)).map((u) => u.id)) : [];
      const m = us.length ? Math.max(...us.map((id) => moraleOf(unit(s, id)))) : 4;
      return m >= 4 ? 1 : -0.5;
    }
    case 'retreat':
      return 0;
    case 'advance':
      return a.u === '*' ? 0 : 1;
    case 'pursue':
      return a.sign > 0 ? 0.5 : a.sign === 0 ? 0.3 : 0;
    case 'hit': {
      const u = unit(s, a.u);
      return stepsLeft(u) - (u.kind === 'artillery' ? 3 : 0) + spOf(u) * 0.01;
    }
    case 'goTo': {
      if (f.t === 'displace' || f.t === 'retreatTo' || f.t === 'routMove')
        return -enemySpNear(s, p, a.area) * 0.1 + (map.isEdge(a.area) ? -0.5 : 0);
      return 0;
    }
    case 'stop':
      return f.t === 'routMove' ? 0.5 : 0.05; // stop rather than wander between equally good areas
    case 'to':
      return f.t === 'move' ? stepWorth(s, p, f.units, f.at, a.area, g) + (a.mode === 'road' ? 0.1 : 0) : 0;
    case 'face': {
      const u = unit(s, a.u);
      if (u.area === null) return 0;
      const near = map.neighbours(u.area).filter((n) => distTo(s, n, g()) < distTo(s, u.area!, g()));
      return near.some((n) => map.facingOrNull(u.area!, a.conf, n) === 'front') ? 1 : 0;
    }
    case 'gcAfter':
      return a.mode === 'continue' ? 0.5 : 0;
    default:
      return 0;
  }
}

/**
 * What starting a move of `ids` is worth: the best one-area gain toward the goals among the areas it could enter
 * (taking an empty objective counts extra); −1 when it cannot go anywhere (selecting it would only end its move).
 */
function moveWorth(s: EState, p: Side, ids: readonly string[], g: () => AreaId[]): number {
  const from = unit(s, ids[0]!).area!;
  const steps = firstSteps(s, p, ids);
  if (!steps.length) return -1;
  let best = -Infinity;
  for (const o of steps) best = Math.max(best, stepWorth(s, p, ids, from, o.to, g));
  return best > 0.05 ? 1 + best * 0.5 : -0.3;
}

/** One area of a move: closer to the goals, not into much stronger enemy, taking an empty objective. */
function stepWorth(s: EState, p: Side, ids: readonly string[], from: AreaId, to: AreaId, g: () => AreaId[]): number {
  const gain = distTo(s, from, g()) - distTo(s, to, g());
  const own = ids.reduce((t, id) => t + spOf(unit(s, id)), 0);
  const danger = enemySpNear(s, p, to) > own * 2 ? -1 : 0;
  const grab = isObjective(s, to) && s.control[String(to)] !== p && !unitsAt(s, to, other(p)).length ? 3 : 0;
  return gain + danger + grab;
}

export function policyScores(s: EState, actions: readonly Action[]): number[] {
  const f = top(s);
  const tm = toMoveOf(s);
  if (!f || tm.kind !== 'player') return actions.map(() => 0);
  const p = tm.player;
  // the side's goal areas, computed once per call and only if an action needs them
  let cached: AreaId[] | null = null;
  const g = () => (cached ??= goals(s, p));
  // ties go to the earlier action: groups (charges, assaults, fire groups) are joined in list order, so taking the
  // first keeps every later unit available
  return actions.map((a, i) => scoreAction(s, f, p, a, g) - i * 1e-4);
}

/** Value for `player` in [-1, 1]: the victory-point difference against the decisive threshold, plus remaining strength. */
export function evaluate(s: EState, player: number): number {
  const p = player as Side;
  if (s.result) return s.result.winner < 0 ? 0 : s.result.winner === p ? 1 : -1;
  const vp = victoryPoints(s);
  const t = s.ctx.scenario.victory.thresholds.decisive || 10;
  const sp = (q: Side) => s.units.reduce((acc: number, u: UnitState) => acc + (u.side === q ? spOf(u) : 0), 0);
  const a = sp(p);
  const b = sp(other(p));
  const x = (vp[p] - vp[other(p)]) / t + (a + b > 0 ? (a - b) / (a + b) : 0) * 0.5;
  return Math.tanh(x);
}
