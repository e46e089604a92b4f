/**
 * Read-only queries over an Eagles of the Empire state shared by the Action Phase segments: unit definitions, current
 * steps and strength, activity and command, occupancy, stacking [13.6, 13.7], area morale [18.0–18.5] and leaders;
 * and the views of the board the pure rule modules take (charge lanes [10.0], command tracing [9.0]).
 */
import type { AreaId } from '../../areas/map.ts';
import type { LaneWorld } from './charge.ts';
import type { CommandInput, EnemyPresence } from './command.ts';
import { type MoraleUnit, areaMorale } from './morale.ts';
import { type LeaderJson, type Scenario, type UnitJson, formationsOf } from './scenario.ts';
import { freeConformations, longCountersFit, spFits } from './stacking.ts';
import type { EState, LeaderState, Side, UnitState } from './types.ts';
import { RecentMemo } from '../../core/recent.ts';

/** The other side. */
export const other = (p: Side): Side => (p === 0 ? 1 : 0);

/**
 * The extended-line markers a scenario gives a long counter [16.0]: one "1/2" (id `U~h`) if it has any, and two "1/3"
 * (`U~t1`, `U~t2`) if it has at least two (a single 1/3 marker may not be used [16.8]).
 */
export function markerIds(u: UnitJson): { id: string; div: 2 | 3 }[] {
  const x = u.extendedLines;
  if (!x) return [];
  const out: { id: string; div: 2 | 3 }[] = [];
  if (x.half >= 1) out.push({ id: `${u.id}~h`, div: 2 });
  if (x.third >= 2) out.push({ id: `${u.id}~t1`, div: 3 }, { id: `${u.id}~t2`, div: 3 });
  return out;
}

const defs = new WeakMap<
  Scenario,
  { units: Map<string, UnitJson>; leaders: Map<string, LeaderJson>; formationOfLeader: Map<string, string> }
>();

function index(sc: Scenario) {
  let d = defs.get(sc);
  if (!d) {
    d = { units: new Map(), leaders: new Map(), formationOfLeader: new Map() };
    for (const side of sc.sides) {
      for (const l of side.leaders) d.leaders.set(l.id, l);
      for (const { f } of formationsOf(side)) {
        for (const u of f.units) {
          d.units.set(u.id, u);
          // extended-line markers [16.0] act as the long counter they extend [16.2]
          for (const m of markerIds(u))
            d.units.set(m.id, { ...u, id: m.id, name: `${u.name} (1/${m.div} line)`, extendedLines: undefined });
        }
        if (f.leader) d.formationOfLeader.set(f.leader, f.id);
      }
    }
    defs.set(sc, d);
  }
  return d;
}

export function unitDef(s: EState, id: string): UnitJson {
  const u = index(s.ctx.scenario).units.get(id);
  if (!u) throw new Error(`eagles-of-the-empire: no unit "${id}" in the scenario`);
  return u;
}
/** The generic 1-0-1 leader [15.32 D]. */
export const GENERIC = 'generic';

/**
 * A leader's post as it stands now: the scenario's leader, or, once replaced [15.3], the post with the ratings of the
 * leader filling it (the generic 1-0-1 when no counter is left, A-50).
 */
export function leaderDef(s: EState, id: string): LeaderJson {
  const l = index(s.ctx.scenario).leaders.get(id);
  if (!l) throw new Error(`eagles-of-the-empire: no leader "${id}" in the scenario`);
  const by = s.standIn[id];
  if (by === undefined) return l;
  if (by === GENERIC)
    return {
      ...l,
      name: `a 1-0-1 officer (for ${l.name})`,
      tactical: 1,
      initiative: 0,
      radius: 1,
      arm: 'general',
      isNapoleon: false,
      canGrandCharge: false,
    };
  const r = index(s.ctx.scenario).leaders.get(by)!;
  return {
    ...l,
    name: `${r.name} (for ${l.name})`,
    tactical: r.tactical,
    initiative: r.initiative,
    radius: r.radius,
    arm: r.arm,
    isNapoleon: r.isNapoleon,
    canGrandCharge: false,
  };
}

/** A leader falls [3.2, 3.13]: off the map, and counted for victory. */
export function killLeader(s: EState, id: string): EState {
  return {
    ...s,
    leaders: s.leaders.map((l) => (l.id === id ? { ...l, status: 'dead' as const, area: null } : l)),
    fallen: [...s.fallen, id],
  };
}
/** The formation a leader commands, if any. */
export function formationOfLeader(s: EState, id: string): string | null {
  return index(s.ctx.scenario).formationOfLeader.get(id) ?? null;
}

/** Tactical rating: split ratings are attack/defence [2.21]. */
export function tactical(l: LeaderJson, attacking: boolean): number {
  if (typeof l.tactical === 'number') return l.tactical;
  const [a, d] = l.tactical.split('/').map(Number);
  return attacking ? a! : d!;
}

export const alive = (u: UnitState): boolean => !u.eliminated && u.area !== null;
export const stepsLeft = (u: UnitState): number => (u.eliminated ? 0 : u.steps.length - u.step);
/** Strength now: an extended line's part holds its share [16.1]; a marker not on the map holds nothing. */
export const spOf = (u: UnitState): number =>
  u.eliminated ? 0 : (u.xsp ?? (u.ext !== null ? 0 : u.steps[u.step]!.sp));
export const moraleOf = (u: UnitState): number => (u.kind === 'artillery' ? 3 : (u.steps[u.step]?.morale ?? 0));
/** An infantry long counter now (a reduced one may be a short counter) [2.3 Steps]. */
export const isLC = (u: UnitState): boolean =>
  !u.eliminated && u.kind === 'infantry' && u.steps[u.step]!.form === 'long';

/**
 * The units array indexed, once per array (states share it until a unit changes): the units on the map by area, in
 * the array's order, and the units with artillery attached.
 */
interface UnitIndex {
  readonly at: ReadonlyMap<AreaId, readonly UnitState[]>;
  /** Per area, the sides with units there: bit 1 side 0, bit 2 side 1. */
  readonly sides: ReadonlyMap<AreaId, number>;
  /** Ids of the units some unit not eliminated is attached to. */
  readonly withAttached: ReadonlySet<string>;
}
const unitIndexes = new RecentMemo<readonly UnitState[], UnitIndex>(8);
const NONE: readonly UnitState[] = [];

function unitIndex(units: readonly UnitState[]): UnitIndex {
  let ix = unitIndexes.get(units);
  if (!ix) {
    const at = new Map<AreaId, UnitState[]>();
    const sides = new Map<AreaId, number>();
    const withAttached = new Set<string>();
    for (const u of units) {
      if (u.attachedTo !== null && !u.eliminated) withAttached.add(u.attachedTo);
      if (u.area === null || u.eliminated) continue;
      const here = at.get(u.area);
      if (here) here.push(u);
      else at.set(u.area, [u]);
      sides.set(u.area, (sides.get(u.area) ?? 0) | (u.side === 0 ? 1 : 2));
    }
    unitIndexes.set(units, (ix = { at, sides, withAttached }));
  }
  return ix;
}

/**
 * Where each unit id sits in the units array, per scenario: updates keep every unit in its place, so a look-up by id
 * goes straight there (and falls back to a search if the unit found there is another).
 */
const unitSlots = new WeakMap<Scenario, Map<string, number>>();
function unitById(s: EState, id: string): UnitState | undefined {
  const sc = s.ctx.scenario;
  let slots = unitSlots.get(sc);
  if (!slots) {
    slots = new Map();
    for (let i = 0; i < s.units.length; i++) if (!slots.has(s.units[i]!.id)) slots.set(s.units[i]!.id, i);
    unitSlots.set(sc, slots);
  }
  const i = slots.get(id);
  const u = i === undefined ? undefined : s.units[i];
  if (u !== undefined && u.id === id) return u;
  return s.units.find((x) => x.id === id);
}

/** The unit with this id (eliminated or not), if any. */
export function findUnit(s: EState, id: string): UnitState | undefined {
  return unitById(s, id);
}

/** Some unit not eliminated is attached to unit `id` [11.2]. */
export function hasAttached(s: EState, id: string): boolean {
  return unitIndex(s.units).withAttached.has(id);
}

/** The units (not eliminated) in an area, in the state's order; shared, never modify it. */
export function unitsIn(s: EState, area: AreaId): readonly UnitState[] {
  return unitIndex(s.units).at.get(area) ?? NONE;
}

export function unitsAt(s: EState, area: AreaId, side?: Side): UnitState[] {
  const here = unitsIn(s, area);
  if (side === undefined) return here.slice();
  const out: UnitState[] = [];
  for (const u of here) if (u.side === side) out.push(u);
  return out;
}
export function leadersAt(s: EState, area: AreaId, side?: Side): LeaderState[] {
  return s.leaders.filter((l) => l.status === 'on' && l.area === area && (side === undefined || l.side === side));
}
export function unit(s: EState, id: string): UnitState {
  const u = unitById(s, id);
  if (!u) throw new Error(`eagles-of-the-empire: no unit "${id}"`);
  return u;
}

/** The top-level formation a unit's formation activates with: forces activate with their parent [2.3]. */
export function activationFormation(s: EState, p: Side, fid: string): string {
  const side = s.ctx.scenario.sides[p];
  let tops = activationTops.get(side);
  if (!tops) activationTops.set(side, (tops = new Map()));
  let top = tops.get(fid);
  if (top === undefined) {
    const all = formationsOf(side);
    let cur = fid;
    for (;;) {
      const e = all.find((x) => x.f.id === cur);
      if (!e || !e.parent || e.f.kind !== 'force') break;
      cur = e.parent;
    }
    tops.set(fid, (top = cur));
  }
  return top;
}
/** `activationFormation` per side of a scenario and formation id (the scenario never changes). */
const activationTops = new WeakMap<object, Map<string, string>>();

/** Active in this Action Phase [8.14]: its formation was activated now and is not held by a failed rally [15.11]. */
export function isActive(s: EState, u: UnitState): boolean {
  const fid = activationFormation(s, u.side, u.formation);
  return s.active.includes(fid) && !s.formations.find((x) => x.id === fid)?.failedRally;
}

/** Enemy combat units in the area [13.12]. */
export function enemyUnitsIn(s: EState, p: Side, area: AreaId): boolean {
  return ((unitIndex(s.units).sides.get(area) ?? 0) & (p === 0 ? 2 : 1)) !== 0;
}
/** Side `p` has units (not eliminated) in the area. */
export function sideIn(s: EState, p: Side, area: AreaId): boolean {
  return ((unitIndex(s.units).sides.get(area) ?? 0) & (p === 0 ? 1 : 2)) !== 0;
}
/** Enemy combat units or the enemy HQ: never entered, "enemy-occupied". */
export function enemyOccupied(s: EState, p: Side, area: AreaId): boolean {
  const o: Side = p === 0 ? 1 : 0;
  return enemyUnitsIn(s, p, area) || s.hq[o]?.area === area;
}

const NO_IDS: ReadonlySet<string> = new Set();
const NO_STRINGS: readonly string[] = [];

/** Friendly SP and long counters in an area (stacking [13.6, 13.7]; each part of an extended line counts as a long counter with its share, A-32). */
function stackOf(
  s: EState,
  p: Side,
  area: AreaId,
  except: ReadonlySet<string> = NO_IDS,
): { sp: number; lcs: UnitState[] } {
  let sp = 0;
  const lcs: UnitState[] = [];
  for (const u of unitsIn(s, area)) {
    if (u.side !== p || except.has(u.id)) continue;
    sp += spOf(u);
    if (isLC(u)) lcs.push(u);
  }
  return { sp, lcs };
}

/**
 * Whether `movers` fit into `area` [13.6, 13.7, 13.72]: total SP within the maximum, long counters within the area's
 * limit, and each moving long counter able to take a conformation there that no LC present excludes (all-around areas
 * need none). `noDense`: the move may not make the area densely stacked (rout moves [19.11]); `leaving`: units that
 * leave the area as the movers arrive (a line retracting into its marker's area [16.0]).
 */
export function fits(
  s: EState,
  p: Side,
  area: AreaId,
  movers: readonly UnitState[],
  noDense = false,
  leaving: readonly string[] = NO_STRINGS,
): boolean {
  const a = s.ctx.map.area(area);
  // the side's units staying in the area (not moving in, not leaving): SP and long counters
  let hereSp = 0;
  let hereLcs = 0;
  for (const u of unitsIn(s, area)) {
    if (u.side !== p || among(u.id, movers, leaving)) continue;
    hereSp += spOf(u);
    if (isLC(u)) hereLcs++;
  }
  let moverSp = 0;
  let newLcs = 0;
  for (const u of movers) {
    moverSp += spOf(u);
    if (isLC(u)) newLcs++;
  }
  const sp = hereSp + moverSp;
  if (!spFits(a, sp)) return false;
  if (noDense && a.stack.dense !== null && sp >= a.stack.dense) return false;
  if (!longCountersFit(a, hereLcs + newLcs)) return false;
  if (newLcs && !a.allAround) {
    const taken: string[] = [];
    for (const u of unitsIn(s, area))
      if (u.side === p && !among(u.id, movers, leaving) && isLC(u) && u.conf !== null) taken.push(u.conf);
    if (freeConformations(a, taken).length < newLcs) return false;
  }
  return true;
}
function among(id: string, movers: readonly UnitState[], leaving: readonly string[]): boolean {
  for (const u of movers) if (u.id === id) return true;
  return leaving.length > 0 && leaving.includes(id);
}

/** Conformations a unit may take in its area now (LCs: those fitting a long counter, clear of other LCs' exclusions). */
export function conformationsFor(s: EState, u: UnitState): string[] {
  const a = s.ctx.map.area(u.area!);
  if (a.allAround) return [];
  if (!isLC(u)) return u.kind === 'artillery' ? a.conformations.map((c) => c.id) : [];
  const taken = stackOf(s, u.side, u.area!, new Set([u.id]))
    .lcs.map((x) => x.conf)
    .filter((c): c is string => c !== null);
  return freeConformations(a, taken).map((c) => c.id);
}

/** Densely stacked: the side's SP in the area reach the area's dense threshold [13.62]. */
export function dense(s: EState, p: Side, area: AreaId): boolean {
  const d = s.ctx.map.area(area).stack.dense;
  return d !== null && stackOf(s, p, area).sp >= d;
}

/** Seniority [2.3]: the army commander first, then by grade; ties by the scenario's order. */
export function seniorLeader(
  s: EState,
  p: Side,
  area: AreaId,
  pred: (l: LeaderJson) => boolean = () => true,
): LeaderJson | null {
  const side = s.ctx.scenario.sides[p];
  const here = leadersAt(s, area, p)
    .map((l) => leaderDef(s, l.id))
    .filter((l) => l.role !== 'chiefOfStaff' && l.role !== 'staffOfficer' && l.role !== 'lineOfficer' && pred(l)); // staff add nothing [9.52]
  here.sort(
    (a, b) =>
      (b.id === side.armyCommander ? 1 : 0) - (a.id === side.armyCommander ? 1 : 0) ||
      b.grade - a.grade ||
      side.leaders.indexOf(a) - side.leaders.indexOf(b),
  );
  return here[0] ?? null;
}

function moraleUnits(s: EState, us: readonly UnitState[]): MoraleUnit[] {
  return us.map((u) => ({
    kind: u.kind,
    long: isLC(u),
    elite: unitDef(s, u.id).elite,
    morale: moraleOf(u),
    stepsLeft: stepsLeft(u),
    attachedArtillery: hasAttached(s, u.id),
    reverseSlope: u.rs, // [17.22]
    massedColumn: u.mc !== null,
  }));
}

/** Area morale of side `p`'s units in `area` [18.0–18.5], with the senior leader present [18.4]; null without units. */
export function areaMoraleOf(
  s: EState,
  p: Side,
  area: AreaId,
  attacking: boolean,
  withLeader = true,
  units?: readonly UnitState[],
): number | null {
  const us = (units ?? unitsAt(s, area, p)).filter((u) => u.kind !== 'artillery' || u.attachedTo === null);
  const l = withLeader ? seniorLeader(s, p, area, (x) => us.some((u) => inChain(s, p, x.id, u.formation))) : null;
  return areaMorale(moraleUnits(s, us), l ? tactical(l, attacking) : 0);
}

/** Leader `lid` is in the chain of command of formation `fid` [18.4]: the army commander, or the leader of it or of a formation above it. */
export function inChain(s: EState, p: Side, lid: string, fid: string): boolean {
  const side = s.ctx.scenario.sides[p];
  if (side.armyCommander === lid) return true;
  // the order of battle never changes: each answer is worked out once per side
  let byLeader = chains.get(side);
  if (!byLeader) chains.set(side, (byLeader = new Map()));
  let byFormation = byLeader.get(lid);
  if (!byFormation) byLeader.set(lid, (byFormation = new Map()));
  let v = byFormation.get(fid);
  if (v === undefined) {
    v = false;
    const all = formationsOf(side);
    for (let cur: string | null = fid; cur; cur = all.find((x) => x.f.id === cur)?.parent ?? null)
      if (all.find((x) => x.f.id === cur)?.f.leader === lid) {
        v = true;
        break;
      }
    byFormation.set(fid, v);
  }
  return v;
}
const chains = new WeakMap<object, Map<string, Map<string, boolean>>>();

// ---------------------------------------------------------------------------------------------
// views of the board for the pure rule modules: charge lanes [10.0], command tracing [9.0]
// ---------------------------------------------------------------------------------------------

/** What a charge lane of side `p` needs to know about the board [10.0, 10.1, 10.11]. */
export function laneWorld(s: EState, p: Side): LaneWorld {
  const map = s.ctx.map;
  return {
    map,
    occupied: (a: AreaId) =>
      unitsIn(s, a).length > 0 ||
      s.leaders.some((l) => l.status === 'on' && l.area === a) ||
      s.hq.some((h) => h?.area === a),
    enemyTarget: (a: AreaId) => enemyOccupied(s, p, a),
    enemyUnits: (a: AreaId) => enemyUnitsIn(s, p, a),
    frontOfEnemyLc: (a: AreaId) => {
      for (const n of map.neighbours(a))
        for (const u of unitsIn(s, n))
          if (u.side !== p && isLC(u) && map.facingOrNull(n, u.conf, a) === 'front') return true;
      return false;
    },
  };
}

/** What side `p` finds in `area` for command tracing [9.1, 9.12]: enemy units, the enemy HQ alone, enemy leaders alone, or nothing. */
export function enemyPresence(s: EState, p: Side, area: AreaId): EnemyPresence {
  const o = other(p);
  for (const u of unitsIn(s, area)) if (u.side === o) return 'units';
  if (s.hq[o]?.area === area) return 'hq-only';
  if (s.leaders.some((l) => l.side === o && l.status === 'on' && l.area === area)) return 'leaders-only';
  return 'none';
}

/** The Command Determination's input for side `p` [9.0–9.5] (command.ts traces it). */
export function commandInput(s: EState, p: Side): CommandInput {
  const sc = s.ctx.scenario;
  const arrivedIds = new Set<string>();
  for (const r of s.reinf) {
    const def = sc.reinforcements.find((x) => x.id === r.id)!;
    if (def.side === p && r.arrived && (r.delayed ? r.due + 1 : r.due) === s.turn)
      def.units.forEach((u) => arrivedIds.add(u));
  }
  // replaced posts carry their new holders' ratings [15.3]; a replacement Chief of Staff adds no HQ radius [15.33]
  const base = sc.sides[p];
  const side = Object.keys(s.standIn).length
    ? {
        ...base,
        leaders: base.leaders.map((l) => leaderDef(s, l.id)),
        chiefOfStaff: base.chiefOfStaff && s.standIn[base.chiefOfStaff] !== undefined ? undefined : base.chiefOfStaff,
      }
    : base;
  const presence = new Map<AreaId, EnemyPresence>(); // the board is fixed for this input
  return {
    map: s.ctx.map,
    side,
    leaderArea: (id) => {
      const l = s.leaders.find((x) => x.id === id);
      return l && l.status === 'on' ? l.area : null;
    },
    unitArea: (id) => {
      const u = s.units.find((x) => x.id === id);
      return u && !u.eliminated ? u.area : null;
    },
    hqArea: s.hq[p]?.area ?? null,
    hqLost: !!s.hq[p]?.lost,
    enemy: (a) => {
      let e = presence.get(a);
      if (e === undefined) presence.set(a, (e = enemyPresence(s, p, a)));
      return e;
    },
    courier: (a) => s.courier[`${p}:${a}`] ?? false,
    cbi: new Map(Object.entries(s.cbi)),
    arrived: arrivedIds,
    assignment: new Map(s.units.filter((u) => u.side === p).map((u) => [u.id, u.formation])),
    lines: new Map(
      s.units.filter((u) => u.side === p && u.ext !== null && u.area !== null).map((u) => [u.id, u.ext!.lc]),
    ),
  };
}
