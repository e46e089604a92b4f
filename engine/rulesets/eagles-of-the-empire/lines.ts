/**
 * Extended lines [16.0–16.9] (A-32). Scenario "1/2" and "1/3" markers let an activated, in-command infantry long
 * counter occupy two or three side-adjacent areas. Each marker is a unit of its own in the state (`ext` names its long
 * counter), off the map until deployed; it acts as an infantry long counter [16.0] with the LC's morale [16.2] and
 * the share of the LC's strength its fraction gives, rounded down [16.1, 16.8]. Losses come off the LC's total and the
 * split is recomputed [16.7] (`normalizeLines`, run after every step of play). Extending and retracting cost the MP of
 * the whole unit entering that area [16.0], from the one MP budget the parts share (A-32).
 *
 * Rulings: "adjacent" for a line is side adjacency (a front joined across a point is no line); a double extension
 * costs the sum of its two entries; a single 1/3 marker left by a loss or a retreat retracts too [16.8]; a line whose
 * LC routs [19.1], is reduced to a short counter or is eliminated retracts into it; a part that ends up apart from
 * its LC (an advance) retracts into the LC [16.3, 16.4].
 */
import type { AreaId } from '../../areas/map.ts';
import { displaceLeaders } from './casualties.ts';
import { type Log, ev, push, updUnit } from './state.ts';
import { entryCost } from './movement.ts';
import { extendedSplit } from './tables.ts';
import type { Action, EState, Frame, Side, UnitState } from './types.ts';
import { alive, conformationsFor, enemyOccupied, fits, isLC, markerIds, unit, unitDef } from './world.ts';
import { RecentMemo } from '../../core/recent.ts';

const withMarkers = new WeakMap<object, boolean>();
/** Whether the scenario provides any extended-line markers (otherwise nothing here runs). */
function scenarioHasLines(s: EState): boolean {
  let v = withMarkers.get(s.ctx.scenario);
  if (v === undefined) {
    v = s.units.some((u) => u.ext !== null);
    withMarkers.set(s.ctx.scenario, v);
  }
  return v;
}

/** The markers of long counter `lc` now on the map. */
function markersOf(s: EState, lc: string): UnitState[] {
  return s.units.filter((u) => u.ext !== null && u.ext.lc === lc && u.area !== null);
}

/** The long counter a part of an extended line belongs to (itself for an extended LC), or null. */
export function lineOf(s: EState, u: UnitState): string | null {
  if (u.ext !== null) return u.area !== null ? u.ext.lc : null;
  return u.xsp !== null ? u.id : null;
}

/** A part of an extended line: no massed column, square or reverse slope [16.9]. */
export function isExtended(u: UnitState): boolean {
  return u.xsp !== null;
}

/** All parts of a line (the LC first). */
function partsOf(s: EState, lc: string): UnitState[] {
  return [unit(s, lc), ...markersOf(s, lc)];
}

/**
 * The areas a part must stay side-adjacent to [16.3, 16.8]: a marker's LC; an LC's markers (each 1/3 marker must be
 * adjacent to the LC, not merely to the other marker).
 */
function partnerAreas(s: EState, u: UnitState): AreaId[] {
  if (u.ext !== null) {
    const lc = unit(s, u.ext.lc);
    return lc.area === null ? [] : [lc.area];
  }
  return markersOf(s, u.id).map((m) => m.area!);
}

/** Whether part `u` may move (or advance) into `to` keeping its line joined [16.3]: side-adjacent to every partner, never into one's area. */
export function lineAllows(s: EState, u: UnitState, to: AreaId): boolean {
  if (u.xsp === null) return true;
  const side = s.ctx.map.sideNeighbours(to);
  return partnerAreas(s, u).every((a) => a !== to && side.includes(a));
}

/** The areas a part may retreat into besides the normal ones: always its partners' areas [16.4]. */
function retreatIntoPartner(s: EState, u: UnitState, from: AreaId): AreaId[] {
  if (u.xsp === null) return [];
  return partnerAreas(s, u).filter((a) => s.ctx.map.sideNeighbours(from).includes(a));
}

/** Filter a part's retreat options to those keeping the line joined, plus its partners' areas [16.4]. */
export function lineRetreatOptions(s: EState, u: UnitState, from: AreaId, options: readonly AreaId[]): AreaId[] {
  const keep = options.filter((a) => {
    const side = s.ctx.map.sideNeighbours(a);
    return partnerAreas(s, u).every((x) => x === a || side.includes(x));
  });
  return [...new Set([...keep, ...retreatIntoPartner(s, u, from)])].sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// extending and retracting in the Movement Segment [16.0]
// ---------------------------------------------------------------------------------------------

/** The deployable marker sets of a long counter: the "1/2", and the pair of "1/3" [16.8]. */
function kinds(s: EState, u: UnitState): { div: 2 | 3; ids: string[] }[] {
  const ms = markerIds(unitDef(s, u.id));
  const out: { div: 2 | 3; ids: string[] }[] = [];
  const half = ms.filter((m) => m.div === 2).map((m) => m.id);
  const third = ms.filter((m) => m.div === 3).map((m) => m.id);
  if (half.length) out.push({ div: 2, ids: half });
  if (third.length === 2) out.push({ div: 3, ids: third });
  return out;
}

function totalOf(u: UnitState): number {
  return u.steps[u.step]!.sp;
}

/**
 * Extensions open to side `p` [16.0, 16.8]: an active, in-command infantry long counter with MP left (`movers`), not
 * extended, not in massed column, square or reverse slope [16.9], extends into one side-adjacent area (1/2) or two
 * (1/3 each), each free of the enemy, enterable by infantry, able to take the marker under stacking, at the cost of
 * the whole unit entering (both entries for a double extension), and only if each marker would hold at least 1 SP.
 */
export function extendOptions(
  s: EState,
  p: Side,
  movers: readonly UnitState[],
  ma: (u: UnitState) => number,
  inCommand: (id: string) => boolean,
): Action[] {
  if (!scenarioHasLines(s)) return [];
  const map = s.ctx.map;
  const out: Action[] = [];
  for (const u of movers) {
    if (
      u.ext !== null ||
      u.xsp !== null ||
      !isLC(u) ||
      u.mc !== null ||
      u.square ||
      u.rs ||
      u.routed ||
      !inCommand(u.id)
    )
      continue;
    const ks = kinds(s, u);
    if (!ks.length) continue;
    const left = ma(u) - u.mp;
    const near = map
      .sideNeighbours(u.area!)
      .filter((n) => !enemyOccupied(s, p, n))
      .map((n) => ({ n, cost: entryCost(map, u.area!, n, 'infantry') }))
      .filter((x) => x.cost <= left)
      .sort((a, b) => a.n - b.n);
    for (const k of ks) {
      const split = extendedSplit(totalOf(u), k.div === 2 ? 'half' : 'thirds');
      if (!split.markers.length) continue;
      const share = split.markers[0]!;
      const place = (id: string, n: AreaId) => fits(s, p, n, [{ ...unit(s, id), area: n, xsp: share }]);
      if (k.div === 2) {
        for (const x of near) if (place(k.ids[0]!, x.n)) out.push({ k: 'extend', u: u.id, to: [x.n] });
      } else
        for (let i = 0; i < near.length; i++)
          for (let j = i + 1; j < near.length; j++) {
            const a = near[i]!;
            const b = near[j]!;
            if (a.cost + b.cost <= left && place(k.ids[0]!, a.n) && place(k.ids[1]!, b.n))
              out.push({ k: 'extend', u: u.id, to: [a.n, b.n] });
          }
    }
  }
  return out;
}

/** What retracting `u` into `into` costs, or null if it cannot [16.0]: into the LC's area, or (a 1/2 line) into the marker's. */
function retractCost(s: EState, u: UnitState, into: AreaId): number | null {
  const map = s.ctx.map;
  const ms = markersOf(s, u.id);
  if (!ms.length) return null;
  const whole = { ...u, xsp: null };
  if (into === u.area) {
    if (!fits(s, u.side, into, [whole])) return null;
    return Math.max(...ms.map((m) => entryCost(map, m.area!, into, 'infantry')));
  }
  if (ms.length !== 1 || ms[0]!.area !== into) return null;
  if (!fits(s, u.side, into, [{ ...whole, area: into }], false, [ms[0]!.id])) return null;
  return entryCost(map, u.area!, into, 'infantry');
}

/** Retractions open to side `p` [16.0]: an extended LC among `movers`, in command, with the MP to pay. */
export function retractOptions(
  s: EState,
  movers: readonly UnitState[],
  ma: (u: UnitState) => number,
  inCommand: (id: string) => boolean,
): Action[] {
  if (!scenarioHasLines(s)) return [];
  const out: Action[] = [];
  for (const u of movers) {
    if (u.ext !== null || u.xsp === null || !inCommand(u.id)) continue;
    const areas = [u.area!, ...markersOf(s, u.id).map((m) => m.area!)];
    for (const into of areas) {
      const c = retractCost(s, u, into);
      if (c !== null && c <= ma(u) - u.mp) out.push({ k: 'retract', u: u.id, into });
    }
  }
  return out;
}

/** Add `cost` MP to every part of `lc`'s line: one budget for the whole unit (A-32). */
export function spendLine(s: EState, lc: string, cost: number, except: readonly string[] = []): EState {
  for (const x of partsOf(s, lc)) if (!except.includes(x.id)) s = updUnit(s, x.id, { mp: x.mp + cost });
  return s;
}

/** Deploy the markers [16.0, 16.8]; each then takes a conformation [13.9]. */
export function applyExtend(s: EState, a: Extract<Action, { k: 'extend' }>, log: Log): EState {
  const u = unit(s, a.u);
  const k = kinds(s, u).find((x) => x.ids.length === a.to.length)!;
  const cost = a.to.reduce((t, n) => t + entryCost(s.ctx.map, u.area!, n, 'infantry'), 0);
  const split = extendedSplit(totalOf(u), k.div === 2 ? 'half' : 'thirds');
  s = updUnit(s, u.id, { mp: u.mp + cost, xsp: split.lc });
  const frames: Frame[] = [];
  a.to.forEach((n, i) => {
    const id = k.ids[i]!;
    s = updUnit(s, id, {
      area: n,
      conf: null,
      steps: u.steps,
      step: u.step,
      startStep: u.startStep,
      formation: u.formation,
      xsp: split.markers[i]!,
      mp: u.mp + cost,
      moveDone: false,
      refaced: false,
      acted: u.acted,
      routed: false,
      square: false,
      rs: false,
      mc: null,
      attachedTo: null,
    });
    if (conformationsFor(s, unit(s, id)).length) frames.push({ t: 'face', p: u.side, u: id });
  });
  const name = unitDef(s, u.id).name;
  ev(
    log,
    a.to.length === 2 ? '16.8' : '16.0',
    `${name} extends its line from area ${u.area} into area${a.to.length > 1 ? 's' : ''} ${a.to.join(' and ')} (${cost} MP): ${split.markers.map((m) => `${m} SP`).join(' and ')} in the marker${a.to.length > 1 ? 's' : ''}, ${split.lc} SP in the long counter [16.1]`,
  );
  s = push(s, ...frames.reverse());
  for (const n of a.to) s = displaceLeaders(s, u.side, n, log); // lone enemy leaders give way to the marker as to any unit [3.13]
  return s;
}

/** Retract the line into `into` [16.0]: the markers come off; the LC moves there if it is a marker's area. */
export function applyRetract(s: EState, a: Extract<Action, { k: 'retract' }>, log: Log): EState {
  const u = unit(s, a.u);
  const cost = retractCost(s, u, a.into)!;
  const ms = markersOf(s, u.id);
  const conf = a.into === u.area ? u.conf : ms[0]!.conf;
  for (const m of ms) s = removeMarker(s, m, u.id, a.into);
  s = updUnit(s, u.id, { area: a.into, conf, mp: u.mp + cost, xsp: null });
  for (const x of s.units) if (x.attachedTo === u.id && alive(x)) s = updUnit(s, x.id, { area: a.into });
  ev(log, '16.0', `${unitDef(s, u.id).name} retracts its line into area ${a.into} (${cost} MP)`);
  return s;
}

/** Take a marker off the map; its attached artillery joins the LC when they meet in `lcArea`, else it is left detached [16.6, 11.2]. */
function removeMarker(s: EState, m: UnitState, lc: string, lcArea: AreaId | null): EState {
  for (const x of s.units)
    if (x.attachedTo === m.id && alive(x))
      s = updUnit(s, x.id, x.area === lcArea && lcArea !== null ? { attachedTo: lc } : { attachedTo: null });
  return updUnit(s, m.id, {
    area: null,
    conf: null,
    xsp: null,
    square: false,
    rs: false,
    mc: null,
    routed: false,
    moveDone: false,
    mp: 0,
  });
}

// ---------------------------------------------------------------------------------------------
// keeping lines consistent [16.1–16.8]
// ---------------------------------------------------------------------------------------------

/**
 * Bring every extended line in line with the rules after a step of play: markers retract when they share the LC's
 * area (a retreat into the other part [16.4]) or are no longer side-adjacent to it [16.3], when a lone 1/3 marker
 * remains [16.8], when the LC routs, is reduced to a short counter or eliminated, or when a marker's share falls to 0
 * [16.7]; the parts' SP split is recomputed from the LC's total [16.1, 16.7]; markers carry the LC's step (its morale
 * [16.2]) and formation.
 */
export function normalizeLines(s: EState, log: Log): EState {
  if (!scenarioHasLines(s)) return s;
  // the lines depend on the units alone: units already found in line need no second look
  if (normalUnits.has(s.units)) return s;
  const s0 = s;
  s = normalizeAll(s, log);
  if (s === s0) normalUnits.set(s.units, true);
  return s;
}
/** Units arrays `normalizeLines` left as they were. */
const normalUnits = new RecentMemo<readonly UnitState[], true>(4);

function normalizeAll(s: EState, log: Log): EState {
  const lcs = new Set<string>();
  for (const u of s.units) if (u.ext !== null && u.area !== null) lcs.add(u.ext.lc);
  for (const u of s.units) if (u.ext === null && u.xsp !== null && !lcs.has(u.id)) s = updUnit(s, u.id, { xsp: null }); // no markers left
  for (const id of lcs) s = normalizeLine(s, id, log);
  return s;
}

function normalizeLine(s: EState, id: string, log: Log): EState {
  const lc = unit(s, id);
  const name = unitDef(s, id).name;
  let ms = markersOf(s, id);
  const drop = (m: UnitState, why: string, rule: string) => {
    ev(log, rule, `${unitDef(s, m.id).name} ${why}`);
    s = removeMarker(s, m, id, lc.area);
  };
  if (!alive(lc) || lc.routed || !isLC(lc)) {
    const why = !alive(lc)
      ? `is removed with ${name} [16.7]`
      : lc.routed
        ? `retracts: ${name} routs`
        : `retracts: ${name} is reduced to a short counter`;
    for (const m of ms) drop(m, why, lc.routed ? '19.1' : '16.7');
    return alive(lc) ? updUnit(s, id, { xsp: null }) : s;
  }
  for (const m of ms) {
    if (m.area === lc.area) drop(m, `rejoins ${name} in area ${lc.area} and is removed [16.4]`, '16.4');
    else if (!s.ctx.map.sideNeighbours(lc.area!).includes(m.area!))
      drop(m, `is no longer adjacent to ${name} and retracts into it [16.3]`, '16.3');
  }
  ms = markersOf(s, id);
  if (ms.length === 1 && ms[0]!.ext!.div === 3) {
    drop(ms[0]!, 'is a lone 1/3 marker and retracts [16.8]', '16.8');
    ms = [];
  }
  const total = lc.steps[lc.step]!.sp;
  if (ms.length) {
    const split = extendedSplit(total, ms[0]!.ext!.div === 2 ? 'half' : 'thirds');
    if (!split.markers.length) {
      for (const m of ms) drop(m, `holds no strength after ${name}'s losses and is removed [16.7]`, '16.7');
      ms = [];
    } else {
      for (const m of ms) {
        const x = unit(s, m.id);
        if (x.xsp !== split.markers[0] || x.step !== lc.step || x.formation !== lc.formation || x.steps !== lc.steps)
          s = updUnit(s, m.id, {
            xsp: split.markers[0]!,
            step: lc.step,
            steps: lc.steps,
            startStep: lc.startStep,
            formation: lc.formation,
          });
      }
      if (lc.xsp !== split.lc) s = updUnit(s, id, { xsp: split.lc });
      return s;
    }
  }
  return lc.xsp !== null ? updUnit(s, id, { xsp: null }) : s;
}

/**
 * Artillery attached where `target` is concerned: to the whole unit (every part of its line) [11.23, 16.6], and, when
 * `target` is a marker, to that marker [16.6].
 */
export function attachmentsOf(s: EState, target: UnitState): { unit: number; marker?: number } {
  const ids = new Set(
    target.ext !== null || target.xsp !== null ? partsOf(s, target.ext?.lc ?? target.id).map((x) => x.id) : [target.id],
  );
  const on = s.units.filter((x) => x.attachedTo !== null && ids.has(x.attachedTo) && !x.eliminated);
  return target.ext !== null
    ? { unit: on.length, marker: on.filter((x) => x.attachedTo === target.id).length }
    : { unit: on.length };
}
