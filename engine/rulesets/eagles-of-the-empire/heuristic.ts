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
import type { AreaId, AreaMap } from '../../areas/map.ts';
import { toMoveOf, top, victoryPoints } from './rules.ts';
import type { Action, AssaultFrame, EState, Frame, Side, UnitState } from './types.ts';
import {
  activationFormation,
  alive,
  isActive,
  unitDef,
  isLC,
  moraleOf,
  spOf,
  stepsLeft,
  unit,
  unitsAt,
  other,
} from './world.ts';
import { attackerDice, defenderDice } from './assault-dice.ts';
import { artKind, bombardDice } from './bombard-flow.ts';
import { canBombard } from './bombard.ts';
import { option } from './rules-config.ts';
import { firstSteps, movers } from './move-flow.ts';
import { entryCost, type MoveClass } from './movement.ts';
import { inCommand } from './state.ts';
import { hitChance } from './tables.ts';
import { assaultTerrainPct } from './assault.ts';

/**
 * Areas a side wants to reach: the objectives it does not hold (the attacker), else its own objectives to garrison
 * (the defender); with no objectives at all, the enemy's units.
 */
function goals(s: EState, p: Side): AreaId[] {
  const objs = s.ctx.scenario.victory.objectives;
  const take = objs.filter((o) => s.control[String(o.area)] !== p && o.vp[p] > 0).map((o) => o.area);
  if (take.length) return take;
  const enemy = [...new Set(s.units.filter((u) => u.side !== p && alive(u)).map((u) => u.area!))];
  // every objective is the side's: garrison the empty ones, then stay on them; the enemy's steps are taken by
  // bombardment and by assaults from where the units stand (measured: marching out for them only fed the enemy's
  // batteries, the defender's score on hohenwald-outposts 67% → 77%)
  const hold = objs.filter((o) => s.control[String(o.area)] === p).map((o) => o.area);
  // (measured: garrisoning an empty objective only once the enemy comes within 2 areas cost the defender on
  // hohenwald-outposts a third of its wins)
  const empty = hold.filter((a) => !unitsAt(s, a, p).length);
  if (empty.length) return empty;
  return hold.length ? hold : enemy;
}

/** Expected hits of a roll: dice at their DRMs, a modified 6 hitting. */
function expectedHits(dice: readonly { n: number; drm: number }[]): number {
  let e = 0;
  for (const d of dice) e += d.n * hitChance(d.drm);
  return e;
}

/**
 * The VP a hit on `area` is worth on average: the first falls on a long counter [12.2]; then hits spread over
 * the units, a step of infantry or cavalry 1, a battery's last step 2 (it is eliminated), an earlier one less.
 */
function hitValue(s: EState, p: Side, area: AreaId): number {
  const us = unitsAt(s, area, other(p)).filter((u) => u.attachedTo === null);
  if (!us.length) return 1;
  if (us.some((u) => isLC(u) && u.lost === 0)) return 1;
  let v = 0;
  for (const u of us) v += u.kind !== 'artillery' ? 1 : stepsLeft(u) <= 1 ? 2 : 0.5;
  return v / us.length;
}

/** The last turn, and the side is not winning on points: an even trade of steps is worth a try. */
function shortOnLastTurn(s: EState, p: Side): boolean {
  if (s.turn < s.ctx.scenario.turns.length) return false;
  const vp = victoryPoints(s);
  return vp[p] - vp[other(p)] < s.ctx.scenario.victory.thresholds.marginal;
}

/** The VP an objective's change of hands swings; 0 elsewhere. */
function objectiveSwing(s: EState, area: AreaId): number {
  const o = s.ctx.scenario.victory.objectives.find((x) => x.area === area);
  return o ? o.vp[0] + o.vp[1] : 0;
}

/**
 * An assault on `target` with every unit that may join [14.1, 14.6, 14.61, 14.62], in the engine's own dice: the
 * expected hits each side inflicts (the defender firing at the strongest attacking area [14.12]).
 */
function assaultOdds(s: EState, p: Side, target: AreaId): { a: number; d: number } | null {
  const map = s.ctx.map;
  const us = s.units.filter((u) => {
    if (u.side !== p || !alive(u) || u.routed || u.square || u.acted !== null || u.kind === 'artillery') return false;
    if (map.boundary(u.area!, target)?.kind !== 'side') return false;
    if (entryCost(map, u.area!, target, u.kind as MoveClass) === Infinity) return false;
    if (isLC(u) && map.facingOf(u.area!, u.conf, target) !== 'front') return false;
    return isActive(s, u) && inCommand(s, u.id);
  });
  if (!us.length) return null;
  const byArea = new Map<AreaId, number>();
  for (const u of us) byArea.set(u.area!, (byArea.get(u.area!) ?? 0) + spOf(u));
  const firedAt = [...byArea].sort((x, y) => y[1] - x[1])[0]![0];
  const f: AssaultFrame = {
    t: 'assault',
    p,
    target,
    units: us.map((u) => u.id),
    firedAt,
    struckIds: us.filter((u) => u.area === firedAt).map((u) => u.id),
    stage: 'rollA',
    hitsA: 0,
    hitsD: 0,
    atk: null,
    def: null,
    combined: false,
    vacated: false,
  };
  return { a: expectedHits(attackerDice(s, f)), d: expectedHits(defenderDice(s, f)) };
}

/**
 * How far the nearest of `targets` is: in movement points when the side attacks objectives it does not hold (99 when
 * none can be reached); in areas of range when it defends them (set per call by `policyScores`: measured, a defender
 * marching by the cheapest paths walks into the attacker's batteries).
 *
 * Attacking, the distance runs around the areas the enemy holds, and a target the enemy holds is reached at the areas
 * an assault can start from [14.1, 14.61]: a side boundary the class may cross, for a long counter an area with a
 * conformation that fronts the target [13.91], each costing more for the terrain the assault would cross
 * (`assaultTerrainPct`: a bridge or a stream costs dice). The target counts as 0 (units face it) but no path runs
 * through it.
 */
let byRange = false;
/** The batteries offered each `area>target` fire, per `policyScores` call. */
let fireGroups: ReadonlyMap<string, readonly string[]> = new Map();
/**
 * Areas holding enemy units, per `policyScores` call: the extra cost of going through one (it must be cleared first,
 * by assault or charge: more for more enemy strength).
 */
let blocked: readonly number[] = [];
let blockedKey = '';
/** Areas where the side's long counters already fill the stacking limit [13.6]: no place for another to stop. */
let fullLC: readonly boolean[] = [];
/**
 * Areas another long counter of the side cannot move through: the limit is full there [13.6], or it is a circle area
 * that holds one (a long counter entering must stop [13.71]).
 */
let passLC: readonly boolean[] = [];
/** Distances to `targets` from every area (Dijkstra outward from the targets), cached by map, class and occupancy. */
const FIELDS = new WeakMap<AreaMap, Map<string, ReadonlyMap<AreaId, number>>>();
function field(map: AreaMap, targets: readonly AreaId[], c: MoveClass, long: boolean): ReadonlyMap<AreaId, number> {
  let byKey = FIELDS.get(map);
  if (!byKey) FIELDS.set(map, (byKey = new Map()));
  const key = `${c}${long ? 'L' : ''}:${targets.join(',')}:${blockedKey}`;
  const hit = byKey.get(key);
  if (hit) return hit;
  if (byKey.size > 4096) byKey.clear();
  const dist = new Map<AreaId, number>();
  const open: AreaId[] = [];
  const seed = (a: AreaId, d: number) => {
    if (d >= (dist.get(a) ?? Infinity)) return;
    if (!dist.has(a)) open.push(a);
    dist.set(a, d);
  };
  for (const t of targets) {
    if (!blocked[t]) {
      seed(t, 0);
      continue;
    }
    dist.set(t, 0);
    for (const a of map.neighbours(t)) {
      if (map.boundary(a, t)?.kind !== 'side' || entryCost(map, a, t, c) === Infinity) continue;
      const ar = map.area(a);
      if (long && (fullLC[a] || (!ar.allAround && !ar.conformations.some((x) => x.fitsLong && x.front.includes(t)))))
        continue;
      seed(a, 1 - assaultTerrainPct(map, a, t) / 25 + (blocked[a] ?? 0) + (blocked[t] ?? 0) / 4);
    }
  }
  while (open.length) {
    open.sort((x, y) => dist.get(x)! - dist.get(y)!);
    const n = open.shift()!;
    const dn = dist.get(n)!;
    if (blocked[n] && targets.includes(n)) continue; // no path through an enemy-held target
    if (long && passLC[n]) continue; // a long counter cannot pass an area where one of its side's stands [13.6, 13.71]
    for (const a of map.neighbours(n)) {
      const b = map.boundary(a, n)!;
      let step = entryCost(map, a, n, c);
      if (b.kind === 'side' && b.road) step = Math.min(step, entryCost(map, a, n, c, 'road'));
      if (b.kind === 'side' && b.trail) step = Math.min(step, entryCost(map, a, n, c, 'trail'));
      if (step === Infinity) continue;
      seed(a, dn + step + (blocked[a] ?? 0));
    }
  }
  byKey.set(key, dist);
  return dist;
}

function distTo(s: EState, a: AreaId, targets: readonly AreaId[], c: MoveClass = 'infantry', long = false): number {
  if (byRange) {
    let d = 99;
    for (const t of targets) d = Math.min(d, s.ctx.map.range(a, t));
    return d;
  }
  return field(s.ctx.map, targets, c, long).get(a) ?? 99;
}

/** The slowest move class among units (a stack moves together). */
function classOf(s: EState, ids: readonly string[]): MoveClass {
  let c: MoveClass = 'cavalry';
  for (const id of ids) {
    const k = unit(s, id).kind as MoveClass;
    if (k === 'artillery') return k;
    if (k === 'infantry') c = k;
  }
  return c;
}

function enemySpNear(s: EState, p: Side, a: AreaId): number {
  let sp = 0;
  for (const n of [a, ...s.ctx.map.neighbours(a)]) for (const u of unitsAt(s, n, other(p))) sp += spOf(u);
  return sp;
}

/** Leaving `area` would abandon an objective the side holds (no other unit of its stays). */
function abandons(s: EState, p: Side, area: AreaId, leaving: readonly string[]): boolean {
  if (!s.ctx.scenario.victory.objectives.some((o) => o.area === area) || s.control[String(area)] !== p) return false;
  return !unitsAt(s, area, p).some((u) => !leaving.includes(u.id));
}

/** Towns, villages and woods: bad ground for cavalry. */
function closed(s: EState, area: AreaId): boolean {
  return closedArea(s.ctx.map, area);
}
function closedArea(map: AreaMap, area: AreaId): boolean {
  return map
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
      // formations with something to do first: nearest the goals or next to the enemy; a lone garrison stays put
      // a formation activates its forces' units too [8.15]
      const us = s.units.filter(
        (u) => u.side === p && alive(u) && u.area !== null && activationFormation(s, p, u.formation) === a.f,
      );
      if (!us.length) return -1;
      let best = -Infinity;
      for (const u of us) {
        const d = distTo(s, u.area!, g(), u.kind as MoveClass, isLC(u));
        const garrison = d === 0 && abandons(s, p, u.area!, [u.id]);
        best = Math.max(best, (garrison ? 1 : 5 - d) + (enemySpNear(s, p, u.area!) > 0 ? 1 : 0));
      }
      return best + us.length * 0.01;
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
    case 'fire': {
      if (f.t !== 'phase') return 3;
      // [12.1] fire only where a die can hit: a battery that fires may not move this turn [12.61]; judged with the
      // fire group it heads (every battery of its area offered the same target joins, up to the cap [12.62])
      const u = unit(s, a.u);
      const group: string[] = [];
      let sp = 0;
      for (const id of fireGroups.get(`${u.area}>${a.to}`) ?? [a.u]) {
        const x = unit(s, id);
        if (sp + spOf(x) > 8) continue;
        sp += spOf(x);
        group.push(id);
      }
      if (!group.includes(a.u)) group.unshift(a.u);
      const e = expectedHits(bombardDice(s, { p, from: u.area!, to: a.to, units: group })) * hitValue(s, p, a.to);
      return e > 0.25 ? 3 + e : -1;
    }
    case 'shoot':
      return a.cb ? 1.5 : 1;
    case 'reserve':
      return 1;
    case 'artLeader':
      return 0.3;
    case 'deploy':
    case 'reabsorb':
      return -0.2; // the scenario's alternates are a player's option, not a default

    case 'attach': {
      // an attached battery may not bombard [11.26, 12.1]: measured, the guns are worth more firing than joining
      // the LC's assaults (the attacker on hohenwald-1809 52% → 65%)
      return -1;
    }
    case 'detach':
      return -0.5;
    case 'mvStack': {
      const ids = movers(s, p) // the units the stack move takes (move-flow.ts)
        .filter((u) => u.area === a.area)
        .map((u) => u.id);
      if (!ids.length) return -1;
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
      return -1; // it spends the move and mostly lapses
    case 'extend': {
      // [16.0] stretch a line to hold an empty objective or goal next to it, when the enemy is near
      const u = unit(s, a.u);
      const useful = a.to.some((n) => (isObjective(s, n) || g().includes(n)) && !unitsAt(s, n, p).length);
      return useful && enemySpNear(s, p, u.area!) > 0 ? 2.5 : -1;
    }
    case 'retract':
      return -0.5;
    case 'assault': {
      // the engine's dice for both sides [14.1–14.3]: steps are VP, and an objective taken is worth its swing
      const o = assaultOdds(s, p, a.target);
      if (!o) return -2;
      const v = o.a - o.d + (o.a > o.d ? 0.2 * objectiveSwing(s, a.target) : 0);
      return v > (shortOnLastTurn(s, p) ? -1 : 0.3) ? 2 + v : -2;
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
      const long = isLC(u);
      const here = distTo(s, u.area, g(), 'infantry', long);
      if (here === 0) {
        // at its goal: the front toward the enemy, so its batteries do not fire along the line's flank [12.31]
        let best = Infinity;
        let toward: AreaId | null = null;
        for (const n of map.sideNeighbours(u.area)) {
          let r = Infinity;
          for (const e of s.units)
            if (e.side !== p && e.area !== null && alive(e)) r = Math.min(r, map.range(n, e.area));
          if (r < best) {
            best = r;
            toward = n;
          }
        }
        if (toward !== null) return map.facingOrNull(u.area, a.conf, toward) === 'front' ? 1 : 0;
      }
      const near = map.neighbours(u.area).filter((n) => distTo(s, n, g(), 'infantry', long) < here);
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

/**
 * Whether battery `u` standing in `area` (facing `conf`, or any way with null) could bombard some enemy area: range
 * for its kind and the weather, line of sight with the troops that block it [12.4, 12.5, 12.52], the engine's own
 * `canBombard`.
 */
function gunReach(s: EState, p: Side, u: UnitState, area: AreaId, conf: string | null): boolean {
  const kind = artKind(s, u);
  const seen = new Set<AreaId>();
  for (const e of s.units) {
    if (e.side === p || e.area === null || !alive(e) || seen.has(e.area)) continue;
    seen.add(e.area);
    const v = canBombard({
      map: s.ctx.map,
      from: area,
      to: e.area,
      kind,
      weather: s.weather,
      conf,
      troopsBlock: (a) => a !== area && troopsBlock(s, a),
      villagesBlock: s.ctx.scenario.rules.villagesBlockLos,
      licorneMinRange1: option(s.ctx.scenario, 'licorneMinRange1'),
    });
    if (v.ok) return true;
  }
  return false;
}

/** Blocking troops [12.52]: an infantry long counter of either side, or at least 3 cavalry steps (as bombard-flow.ts). */
function troopsBlock(s: EState, a: AreaId): boolean {
  const us = unitsAt(s, a);
  return us.some(isLC) || us.filter((u) => u.kind === 'cavalry').reduce((t, u) => t + stepsLeft(u), 0) >= 3;
}

/**
 * One area of a move: closer to the goals, not into much stronger enemy, taking an empty objective; batteries that
 * could not fire this turn go where they can next time (a battery that fires may not move [12.61], so a moving one
 * has not fired).
 */
function stepWorth(s: EState, p: Side, ids: readonly string[], from: AreaId, to: AreaId, g: () => AreaId[]): number {
  const c = classOf(s, ids);
  const long = ids.some((id) => isLC(unit(s, id)));
  const gain = distTo(s, from, g(), c, long) - distTo(s, to, g(), c, long);
  const own = ids.reduce((t, id) => t + spOf(unit(s, id)), 0);
  const danger = enemySpNear(s, p, to) > own * 2 ? -1 : 0;
  // an empty objective of the enemy's is its swing in VP for one move: before any square or other stance
  const grab = isObjective(s, to) && s.control[String(to)] !== p && !unitsAt(s, to, other(p)).length ? 6 : 0;
  let guns = 0;
  if (c === 'artillery') {
    // a battery alone or a stack of batteries only (the first that may fire speaks for them)
    const us = ids.map((id) => unit(s, id));
    const u = us.every((x) => x.kind === 'artillery')
      ? us.find((x) => x.attachedTo === null && !unitDef(s, x.id).artilleryPark)
      : undefined;
    if (u) guns = (gunReach(s, p, u, to, null) ? 1.5 : 0) - (gunReach(s, p, u, from, null) ? 1.5 : 0);
  }
  return gain + danger + grab + guns;
}

export function policyScores(s: EState, actions: readonly Action[]): number[] {
  const f = top(s);
  const tm = toMoveOf(s);
  if (!f || tm.kind !== 'player') return actions.map(() => 0);
  const p = tm.player;
  // the side's goal areas, computed once per call and only if an action needs them
  let cached: AreaId[] | null = null;
  const g = () => (cached ??= goals(s, p));
  byRange = !s.ctx.scenario.victory.objectives.some((o) => s.control[String(o.area)] !== p && o.vp[p] > 0);
  const bl: number[] = [];
  const lcs: number[] = [];
  for (const u of s.units) {
    if (u.area === null || !alive(u)) continue;
    if (u.side !== p) bl[u.area] = (bl[u.area] ?? 2) + spOf(u);
    else if (isLC(u)) lcs[u.area] = (lcs[u.area] ?? 0) + 1;
  }
  const full: boolean[] = [];
  const pass: boolean[] = [];
  lcs.forEach((n, a) => {
    const st = s.ctx.map.area(a).stack;
    if (n >= st.maxLC) full[a] = true;
    if (n >= st.maxLC || (st.class !== 'normal' && st.class !== 'town')) pass[a] = true;
  });
  fullLC = full;
  passLC = pass;
  blocked = bl;
  let key = '';
  for (let i = 0; i < bl.length; i++) if (bl[i]) key += `${i}:${bl[i]}.`;
  key += '/';
  for (let i = 0; i < pass.length; i++) if (pass[i]) key += full[i] ? `${i}.` : `${i}:`;
  blockedKey = key;
  // ties go to the earlier action: groups (charges, assaults, fire groups) are joined in list order, so taking the
  // first keeps every later unit available
  const fg = new Map<string, string[]>();
  for (const a of actions)
    if (a.k === 'fire') {
      const key = `${unit(s, a.u).area}>${a.to}`;
      const l = fg.get(key);
      if (l) l.push(a.u);
      else fg.set(key, [a.u]);
    }
  fireGroups = fg;
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
