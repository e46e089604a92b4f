/**
 * Command determination [9.0–9.5]: which units and leaders of a side are in command, by tracing through the chain of
 * command allowed by the army's Command Structure [3.32] to an ultimate source [3.31], with Command by Initiative
 * results [9.3] applied. Pure: the dice (CbI rolls, enemy-HQ courier rolls [9.12]) are inputs, rolled by the caller
 * as chance nodes.
 */
import type { AreaId, AreaMap } from '../../areas/map.ts';
import { type Formation, type SideJson, formationsOf } from './scenario.ts';

/** What occupies an area, as seen by the side tracing command. */
export type EnemyPresence = 'none' | 'units' | 'hq-only' | 'leaders-only';

export interface CommandInput {
  readonly map: AreaMap;
  readonly side: SideJson;
  /** Area of a leader, or null when off-map or eliminated. */
  readonly leaderArea: (id: string) => AreaId | null;
  /** Area of a unit, or null when not on the map. */
  readonly unitArea: (id: string) => AreaId | null;
  /** The side's HQ: its area (null when eliminated or not yet arrived). */
  readonly hqArea: AreaId | null;
  /** The HQ was lost (eliminated), as opposed to never in the scenario or not yet arrived [9.51]. */
  readonly hqLost: boolean;
  /** Enemy occupation of an area. */
  readonly enemy: (area: AreaId) => EnemyPresence;
  /** Courier roll for an enemy-HQ-only area this segment (true: 1–4, may pass) [9.12], A-08. */
  readonly courier: (area: AreaId) => boolean;
  /** Command-by-Initiative results this turn: leader id → success [9.3]. */
  readonly cbi: ReadonlyMap<string, boolean>;
  /** Units that arrived as reinforcements this turn: in command [6.0]. */
  readonly arrived?: ReadonlySet<string>;
  /** Unit → formation id, where assignments changed it from the order of battle [11.12]. */
  readonly assignment?: ReadonlyMap<string, string>;
  /** Extended-line markers on the map → their long counter [16.0]: if any part is out of command, all are [16.5]. */
  readonly lines?: ReadonlyMap<string, string>;
}

interface Node {
  readonly f: Formation;
  readonly parent: string | null;
}

/**
 * Shortest command path from `from` to `to` in areas (same area: 0) [9.1, 9.11, 9.12]: side steps across boundaries
 * not prohibited to all units; diagonal steps only when every corner area is free of enemy units; never through
 * an area with enemy units, though areas with only enemy leaders may be passed, and an area with only an enemy HQ
 * when the courier roll allows.
 */
export function commandDistance(
  map: AreaMap,
  from: AreaId,
  to: AreaId,
  enemy: (a: AreaId) => EnemyPresence,
  courier: (a: AreaId) => boolean,
  limit = Infinity,
): number {
  if (from === to) return 0;
  const passable = (a: AreaId) => {
    const e = enemy(a);
    return e === 'none' || e === 'leaders-only' || (e === 'hq-only' && courier(a));
  };
  const dist = new Map<AreaId, number>([[from, 0]]);
  const queue: AreaId[] = [from];
  for (let i = 0; i < queue.length; i++) {
    const x = queue[i]!;
    const d = dist.get(x)!;
    if (d >= limit) break;
    // the path goes *through* every area but its ends
    if (x !== from && !passable(x)) continue;
    for (const y of map.neighbours(x)) {
      if (dist.has(y)) continue;
      const b = map.boundary(x, y)!;
      if (b.prohibitedFor.includes('all')) continue;
      if (b.kind === 'point' && b.corners.some((c) => enemy(c) !== 'none' && enemy(c) !== 'leaders-only')) continue; // [9.1]
      dist.set(y, d + 1);
      if (y === to) return d + 1;
      queue.push(y);
    }
  }
  return Infinity;
}

/** The map as command tracing walks it: areas by index, each one's neighbours (ascending) and the steps between them. */
interface CommandGraph {
  readonly ids: readonly AreaId[];
  readonly index: ReadonlyMap<AreaId, number>;
  readonly nbr: readonly (readonly number[])[];
  /** The step to that neighbour is prohibited to all units. */
  readonly closed: readonly (readonly boolean[])[];
  /** A diagonal step's corner areas, or null for a side step. */
  readonly corners: readonly (readonly (readonly AreaId[] | null)[])[];
}
const graphs = new WeakMap<AreaMap, CommandGraph>();
function graphOf(map: AreaMap): CommandGraph {
  let g = graphs.get(map);
  if (!g) {
    const ids = map.json.areas.map((a) => a.id);
    const index = new Map(ids.map((id, i) => [id, i]));
    const nbr: number[][] = [];
    const closed: boolean[][] = [];
    const corners: (readonly AreaId[] | null)[][] = [];
    for (const x of ids) {
      const ns: number[] = [];
      const cl: boolean[] = [];
      const cs: (readonly AreaId[] | null)[] = [];
      for (const y of map.neighbours(x)) {
        const b = map.boundary(x, y)!;
        ns.push(index.get(y)!);
        cl.push(b.prohibitedFor.includes('all'));
        cs.push(b.kind === 'point' ? b.corners : null);
      }
      nbr.push(ns);
      closed.push(cl);
      corners.push(cs);
    }
    graphs.set(map, (g = { ids, index, nbr, closed, corners }));
  }
  return g;
}

/**
 * Command distances from `from` within `limit` for one trace (the board fixed): `commandDistance` to any area, each
 * source searched once, with each area's enemy presence read once.
 */
class CommandSearch {
  private readonly g: CommandGraph;
  private readonly pass = new Map<number, boolean>();
  private readonly cornerClear = new Map<AreaId, boolean>();
  private readonly searched = new Map<AreaId, Map<number, Int32Array | null>>();
  constructor(
    map: AreaMap,
    private readonly enemy: (a: AreaId) => EnemyPresence,
    private readonly courier: (a: AreaId) => boolean,
  ) {
    this.g = graphOf(map);
  }
  private passable(i: number): boolean {
    let v = this.pass.get(i);
    if (v === undefined) {
      const a = this.g.ids[i]!;
      const e = this.enemy(a);
      v = e === 'none' || e === 'leaders-only' || (e === 'hq-only' && this.courier(a));
      this.pass.set(i, v);
    }
    return v;
  }
  /** [9.1] a diagonal step needs every corner area free of enemy units (enemy leaders alone do not block). */
  private cornersClear(cs: readonly AreaId[]): boolean {
    for (const c of cs) {
      let v = this.cornerClear.get(c);
      if (v === undefined) {
        const e = this.enemy(c);
        this.cornerClear.set(c, (v = e === 'none' || e === 'leaders-only'));
      }
      if (!v) return false;
    }
    return true;
  }
  distance(from: AreaId, to: AreaId, limit: number): number {
    if (from === to) return 0;
    let byLimit = this.searched.get(from);
    if (!byLimit) this.searched.set(from, (byLimit = new Map()));
    let dist = byLimit.get(limit);
    if (dist === undefined) byLimit.set(limit, (dist = this.search(from, limit)));
    const j = this.g.index.get(to);
    if (dist === null || j === undefined) return Infinity;
    const d = dist[j]!;
    return d < 0 ? Infinity : d;
  }
  /** The breadth-first search of `commandDistance`, to every area within `limit` (-1: not reached); null off the map. */
  private search(from: AreaId, limit: number): Int32Array | null {
    const g = this.g;
    const fi = g.index.get(from);
    if (fi === undefined) return null;
    const dist = new Int32Array(g.ids.length).fill(-1);
    const queue = new Int32Array(g.ids.length);
    let tail = 0;
    dist[fi] = 0;
    queue[tail++] = fi;
    for (let head = 0; head < tail; head++) {
      const x = queue[head]!;
      const d = dist[x]!;
      if (d >= limit) break;
      // the path goes *through* every area but its ends
      if (x !== fi && !this.passable(x)) continue;
      const ns: readonly number[] = g.nbr[x]!;
      for (let k = 0; k < ns.length; k++) {
        const y: number = ns[k]!;
        if (dist[y] !== -1) continue;
        if (g.closed[x]![k]) continue;
        const cs = g.corners[x]![k];
        if (cs && !this.cornersClear(cs)) continue; // [9.1]
        dist[y] = d + 1;
        queue[tail++] = y;
      }
    }
    return dist;
  }
}

/** The side's formation tree, by id. */
function tree(side: SideJson): Map<string, Node> {
  return new Map(formationsOf(side).map(({ f, parent }) => [f.id, { f, parent }]));
}

/** Formation of each unit (after assignments). */
function unitHome(side: SideJson, assignment?: ReadonlyMap<string, string>): Map<string, string> {
  const m = new Map<string, string>();
  for (const { f } of formationsOf(side)) for (const u of f.units) m.set(u.id, assignment?.get(u.id) ?? f.id);
  // extended-line markers [16.0] (in the state, not the scenario's OOB) trace command like any unit
  for (const [id, fid] of assignment ?? []) if (!m.has(id)) m.set(id, fid);
  return m;
}

/** Leaders of the formation `fid` and its ancestors, nearest first; null where a level has no leader on the map. */
function ancestorLeaders(
  nodes: Map<string, Node>,
  fid: string | null,
  leaderOn: (id: string) => boolean,
): (string | null)[] {
  const out: (string | null)[] = [];
  for (let id = fid; id !== null; id = nodes.get(id)!.parent) {
    const l = nodes.get(id)!.f.leader;
    out.push(l && leaderOn(l) ? l : null);
  }
  return out;
}

const TOP = '#top';

/**
 * In-command units and leaders of the side [9.2]: repeated tracing from the ultimate sources through the leaders the
 * structure allows [3.32], with the radius bonuses of the HQ [9.5], until nothing changes; leaders who succeeded in CbI
 * are sources for their own subtree [9.3]; reinforcements arriving this turn are in command [6.0].
 */
export function traceCommand(inp: CommandInput): Set<string> {
  const { map, side } = inp;
  // the board does not change while tracing: each source's distances are searched once
  const search = new CommandSearch(map, inp.enemy, inp.courier);
  const distance = (from: AreaId, to: AreaId, limit: number): number => search.distance(from, to, limit);
  const nodes = tree(side);
  const home = unitHome(side, inp.assignment);
  const leaderOn = (id: string) => inp.leaderArea(id) !== null;
  const ac = side.armyCommander;
  const acArea = inp.leaderArea(ac);
  const cos = side.chiefOfStaff;
  const cosArea = cos ? inp.leaderArea(cos) : null;
  const hqNode = formationsOf(side).find(({ f }) => f.kind === 'hq')?.f;
  const leaderDef = (id: string) => side.leaders.find((l) => l.id === id)!;

  // ultimate sources [3.31]; Rigid (or Absolute) with its HQ lost: none [9.51]; Absolute: the commander only at the HQ
  const rigidNoHq = (side.structure === 'rigid' || side.structure === 'absolute') && inp.hqLost;
  const acSource =
    acArea !== null && !rigidNoHq && (side.structure !== 'absolute' || (inp.hqArea !== null && acArea === inp.hqArea));
  const hqSource = inp.hqArea !== null && !rigidNoHq;
  // radii with the HQ bonuses [9.5]
  const radius = (id: string) => {
    const base = leaderDef(id).radius;
    return id === ac && acArea !== null && acArea === inp.hqArea ? base + 1 : base;
  };
  const hqRadius = (side.hq?.radius ?? 0) + (cosArea !== null && cosArea === inp.hqArea ? 1 : 0);

  const inCmd = new Set<string>();
  if (acArea !== null) inCmd.add(ac); // the army commander is always in command [2.3]
  for (const [l, ok] of inp.cbi) if (ok && leaderOn(l)) inCmd.add(l);
  for (const u of inp.arrived ?? []) inCmd.add(u);

  /**
   * Who may put a subordinate in command, by structure [3.32], nearest first; TOP stands for the ultimate sources. A
   * level whose leader is gone is skipped, except under Rigid, where its units then have no superior at all.
   */
  const chains = new Map<string | null, string[]>(); // by the formation the chain starts at (leaders on the map are fixed)
  const commanders = (fid: string | null, isLeaderOf: string | null): string[] => {
    // a formation's leader looks above his own formation; a unit looks at its formation's leader first
    const start = isLeaderOf !== null ? nodes.get(isLeaderOf)!.parent : fid;
    let cands = chains.get(start);
    if (!cands) chains.set(start, (cands = commandersFrom(start)));
    return cands;
  };
  const commandersFrom = (start: string | null): string[] => {
    const chain: (string | null)[] = [...ancestorLeaders(nodes, start, leaderOn), TOP];
    if (side.structure === 'flexible') return chain.filter((x): x is string => x !== null);
    if (side.structure === 'semi-rigid') return chain.filter((x): x is string => x !== null).slice(0, 2);
    return chain[0] === null ? [] : [chain[0]!];
  };

  const reaches = (L: string, area: AreaId): boolean => {
    const la = inp.leaderArea(L);
    if (la === null || !inCmd.has(L)) return false;
    const r = radius(L);
    return distance(la, area, r) <= r;
  };
  const fromTop = (area: AreaId, isLeader: boolean): boolean => {
    if (acSource && distance(acArea!, area, radius(ac)) <= radius(ac)) return true;
    // the HQ's radius places subordinate leaders in command [9.5]
    if (isLeader && hqSource && distance(inp.hqArea!, area, hqRadius) <= hqRadius) return true;
    return false;
  };
  const canCommand = (cands: string[], area: AreaId, isLeader: boolean) =>
    cands.some((L) => (L === TOP ? fromTop(area, isLeader) : reaches(L, area)));

  for (let changed = true; changed; ) {
    changed = false;
    // leaders first, then units (a leader's success can carry his units in the same pass)
    for (const { f } of formationsOf(side)) {
      const l = f.leader;
      if (!l || inCmd.has(l)) continue;
      const a = inp.leaderArea(l);
      if (a === null) continue;
      const ok = f.kind === 'hq' ? hqSource && a === inp.hqArea : canCommand(commanders(f.id, f.id), a, true);
      if (ok) {
        inCmd.add(l);
        changed = true;
      }
    }
    for (const [u, fid] of home) {
      if (inCmd.has(u)) continue;
      const a = inp.unitArea(u);
      if (a === null) continue;
      const f = nodes.get(fid)!.f;
      let ok: boolean;
      if (f.kind === 'hq') {
        // units of the HQ formation: the Chief of Staff's radius [9.5]
        ok =
          !!cos &&
          cosArea !== null &&
          inCmd.has(cos) &&
          distance(cosArea, a, leaderDef(cos).radius) <= leaderDef(cos).radius;
        if (!ok && !hqNode?.leader) ok = canCommand([TOP], a, false);
      } else ok = canCommand(commanders(fid, null), a, false);
      if (ok) {
        inCmd.add(u);
        changed = true;
      }
    }
    // leaders with no units of their own (artillery, subordinate) trace to the sources like formation leaders
    for (const ld of side.leaders) {
      if (inCmd.has(ld.id) || !['subordinate', 'artillery', 'intermediate'].includes(ld.role)) continue;
      if (formationsOf(side).some(({ f }) => f.leader === ld.id)) continue;
      const a = inp.leaderArea(ld.id);
      if (a !== null && canCommand([TOP], a, true)) {
        inCmd.add(ld.id);
        changed = true;
      }
    }
  }
  // [16.5] an extended line is out of command if any of its parts is
  for (const [m, lc] of inp.lines ?? [])
    if (!inCmd.has(m) || !inCmd.has(lc)) {
      inCmd.delete(lc);
      for (const [m2, lc2] of inp.lines!) if (lc2 === lc) inCmd.delete(m2);
    }
  return inCmd;
}

/**
 * The next Command-by-Initiative roll due for the activated formation `fid` [9.31]: its leader if he is out of
 * command and has not rolled this turn, else the first force leader (depth first) who is out of command and has not
 * rolled. Null when none is due.
 */
export function nextCbI(inp: CommandInput, inCmd: ReadonlySet<string>, fid: string): string | null {
  const nodes = tree(inp.side);
  const root = nodes.get(fid);
  if (!root) throw new Error(`no formation "${fid}" in ${inp.side.name}'s order of battle`);
  const due = (f: Formation) =>
    !!f.leader && inp.leaderArea(f.leader) !== null && !inCmd.has(f.leader) && !inp.cbi.has(f.leader);
  if (root.f.kind !== 'hq' && due(root.f)) return root.f.leader!;
  const walk = (f: Formation): string | null => {
    for (const c of f.forces) {
      if (c.kind === 'force' && due(c)) return c.leader!;
      const r = walk(c);
      if (r) return r;
    }
    return null;
  };
  return walk(root.f);
}
