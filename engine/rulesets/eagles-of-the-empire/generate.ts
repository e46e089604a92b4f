/**
 * Random scenarios for Eagles of the Empire (`Game.randomScenario`) on the shipped map (or any map in the same
 * format, `randomScenarioOn`): orders of battle of every shape the format allows — command structures, HQs with or
 * without a Chief of Staff and reserves, formations, intermediate commands, forces, off-map division leaders, artillery,
 * subordinate, staff and line officers; infantry long and short counters with their step tracks, cavalry of every
 * class, artillery of every kind, elite, guard, lancer, rifle and park units, extended-line markers — and set-ups:
 * each side in its own part of the map within the stacking limits [13.6] with the long counters' conformations
 * [13.9], reinforcements [6.0], alternate deployments [11.3], turn tracks, weather [5.0], the rules and victory
 * blocks and the rules configuration.
 *
 * The generator aims at valid files but does not call the validator: the generated-scenario soak validates each one
 * and reports what it refuses. The map is embedded as `mapData`, so a generated file is self-contained (the catalog
 * loads it as it is). Pure: every draw comes from `u`.
 */
import shippedMap from '../../../data/maps/eagles-of-the-empire/hohenwald-1809.json' with { type: 'json' };
import { type Uniform, chance, int, pick, shuffle, subset, weighted } from '../../core/draw.ts';
import { ADAPTATIONS, NAMED_OPTIONS } from './rules-config.ts';

/** The parts of a map file the generator reads. */
interface GenMap {
  readonly id: string;
  readonly areas: readonly {
    readonly id: number;
    readonly center: readonly number[];
    readonly edge?: readonly string[];
    readonly allAround?: boolean;
    readonly stack: { readonly max: number; readonly maxLC: number };
    readonly conformations?: readonly { readonly id: string; readonly fitsLong?: boolean }[];
  }[];
}
type MapArea = GenMap['areas'][number];

import {
  type Formation,
  type Json,
  type Oob,
  type Side,
  type Unit,
  allFormations,
  drawOob,
  isLongAtStart,
  unitsUnder,
  startSp,
} from './generate-oob.ts';

// ---------------------------------------------------------------------------------------------
// Set-up: zones, stacking, conformations, reinforcements
// ---------------------------------------------------------------------------------------------

/**
 * Each side's part of the map: the areas on its side of a cut across the map (west/east or north/south, either side
 * either way round), with a no-man's land between them now and then. The two parts never share an area.
 */
function drawZones(u: Uniform, map: GenMap): [MapArea[], MapArea[]] {
  const axis = chance(u, 0.7) ? 0 : 1;
  const coords = [...new Set(map.areas.map((a) => a.center[axis]!))].sort((a, b) => a - b);
  const n = coords.length;
  const k = int(u, 1, Math.max(1, Math.floor(n / 2)));
  const m = int(u, 1, Math.max(1, Math.min(Math.floor(n / 2), n - k)));
  const low = map.areas.filter((a) => a.center[axis]! <= coords[k - 1]!);
  const high = map.areas.filter((a) => a.center[axis]! >= coords[n - m]!);
  return chance(u, 0.5) ? [low, high] : [high, low];
}

/** Conformation ids toward the enemy, by the direction from my zone's middle to theirs (names of the shipped map). */
function towardEnemy(mine: readonly MapArea[], theirs: readonly MapArea[]): string {
  const mid = (as: readonly MapArea[]) => [0, 1].map((i) => as.reduce((t, a) => t + a.center[i]!, 0) / as.length);
  const [ax, ay] = mid(mine);
  const [bx, by] = mid(theirs);
  return Math.abs(bx! - ax!) >= Math.abs(by! - ay!) ? (bx! > ax! ? 'E' : 'W') : by! > ay! ? 'S' : 'N';
}

interface Placement {
  area: number;
  units: string[];
  leaders: string[];
  hq: boolean;
  facing: Record<string, string>;
  sp: number;
  lcs: number;
}

/**
 * Set-up of one side: each formation's units from an anchor area outward, every area within its SP and long-counter
 * limits [13.6, 13.7] with a distinct conformation per long counter [13.9]; units that fit nowhere come later as
 * reinforcements. Leaders stand with their troops, the army commander and Chief of Staff with the HQ.
 */
function setUpSide(
  u: Uniform,
  o: Oob,
  zone: readonly MapArea[],
  front: string,
  turns: number,
  side: Side,
): { setup: Json[]; reinforcements: Json[] } {
  const at = new Map<number, Placement>();
  const slot = (a: MapArea) => {
    let pl = at.get(a.id);
    if (!pl) at.set(a.id, (pl = { area: a.id, units: [], leaders: [], hq: false, facing: {}, sp: 0, lcs: 0 }));
    return pl;
  };
  const where = new Map<string, number>(); // unit or leader → area at set-up
  const reinforcements: { units: string[]; leaders: string[]; reserve: boolean; hqUnits: boolean }[] = [];

  // whole formations or forces (with their leader) arrive later, now and then [6.0]
  const late = new Set<string>();
  const lateLeaders = new Set<string>();
  for (const f of allFormations(o.formations)) {
    if (f.kind === 'intermediate' || !chance(u, turns > 1 ? 0.15 : 0.05)) continue;
    const us = unitsUnder(f).filter((x) => !o.alternates.has(x.id) && !late.has(x.id) && !o.mustSetUp.has(x.id));
    if (!us.length) continue;
    us.forEach((x) => late.add(x.id));
    const ls = f.leader && !lateLeaders.has(f.leader) ? [f.leader] : [];
    ls.forEach((l) => lateLeaders.add(l));
    reinforcements.push({
      units: us.map((x) => x.id),
      leaders: ls,
      reserve: f.kind === 'hq' && !!f.reserve && chance(u, 0.5),
      hqUnits: f.kind === 'hq',
    });
  }

  const byId = new Map(allFormations(o.formations).flatMap((f) => f.units.map((x) => [x.id, x] as const)));
  /** A free conformation for `x` in the area: long counters each need their own [13.9]; artillery may share. */
  const conformationFor = (a: MapArea, pl: Placement | undefined, x: Unit): string | null => {
    const confs = (a.conformations ?? []).filter((c) => !isLongAtStart(x) || c.fitsLong !== false);
    const taken = new Set(
      Object.entries(pl?.facing ?? {})
        .filter(([id]) => isLongAtStart(byId.get(id)!))
        .map(([, c]) => c),
    );
    const free = confs.filter((c) => !isLongAtStart(x) || !taken.has(c.id)).map((c) => c.id);
    if (!free.length) return null;
    return free.includes(front) && chance(u, 0.75) ? front : pick(u, free);
  };

  const fits = (a: MapArea, x: Unit): boolean => {
    const pl = at.get(a.id);
    const sp = (pl?.sp ?? 0) + startSp(x);
    const lcs = (pl?.lcs ?? 0) + (isLongAtStart(x) ? 1 : 0);
    if (sp > a.stack.max || lcs > a.stack.maxLC) return false;
    return !isLongAtStart(x) || !!a.allAround || conformationFor(a, pl, x) !== null;
  };
  const put = (a: MapArea, x: Unit) => {
    const pl = slot(a);
    pl.units.push(x.id);
    pl.sp += startSp(x);
    if (isLongAtStart(x)) pl.lcs++;
    // [13.9] long counters and artillery take a conformation (none in an area that faces all round)
    if (!a.allAround && (isLongAtStart(x) || x.kind === 'artillery')) {
      const c = conformationFor(a, pl, x);
      if (c) pl.facing[x.id] = c;
    }
    where.set(x.id, a.id);
  };

  const overflow: string[] = [];
  for (const f of shuffle(u, allFormations(o.formations))) {
    const anchor = pick(u, zone);
    const order = [
      anchor,
      ...shuffle(
        u,
        zone.filter((a) => a !== anchor),
      ),
    ];
    for (const x of f.units) {
      if (o.alternates.has(x.id) || late.has(x.id)) continue;
      const a = order.find((z) => fits(z, x));
      if (a) put(a, x);
      else if (o.mustSetUp.has(x.id))
        return { setup: [], reinforcements: [] }; // cannot honour the deployment: the caller draws again
      else overflow.push(x.id);
    }
  }
  if (overflow.length) reinforcements.push({ units: overflow, leaders: [], reserve: false, hqUnits: false });

  // the HQ toward the rear: the zone area farthest from the front line, often
  const hqArea = o.hq ? (chance(u, 0.6) ? rearmost(zone, front) : pick(u, zone)) : null;
  if (hqArea) slot(hqArea).hq = true;
  const placeLeader = (l: string, a: MapArea | undefined) => {
    if (!a) return;
    slot(a).leaders.push(l);
    where.set(l, a.id);
  };
  const zoneArea = (id: number | undefined) => zone.find((a) => a.id === id);
  const withTroops = () =>
    zoneArea(
      pick(
        u,
        [...at.values()]
          .filter((pl) => pl.units.length)
          .map((pl) => pl.area)
          .concat(zone.map((a) => a.id)),
      ),
    );
  placeLeader(o.ac, hqArea && chance(u, 0.7) ? hqArea : withTroops());
  if (o.cos && !lateLeaders.has(o.cos)) placeLeader(o.cos, hqArea && chance(u, 0.8) ? hqArea : withTroops());
  const walk = (fs: readonly Formation[]) => {
    for (const f of fs) {
      walk(f.forces);
      if (!f.leader || where.has(f.leader) || lateLeaders.has(f.leader)) continue;
      const first =
        unitsUnder(f)
          .map((x) => where.get(x.id))
          .find((a) => a !== undefined) ??
        (f.forces.map((c) => c.leader && where.get(c.leader)).find((a) => a) || undefined);
      if (first !== undefined) placeLeader(f.leader, zoneArea(first));
      else if (chance(u, 0.7)) placeLeader(f.leader, withTroops());
      // else: off the map until replaced
    }
  };
  walk(o.formations);
  for (const l of o.leaders)
    if ((l.role === 'artillery' || l.role === 'subordinate') && chance(u, 0.8))
      placeLeader(l.id, hqArea && chance(u, 0.5) ? hqArea : withTroops());

  const setup = shuffle(u, [...at.values()]).map((pl) => {
    const j: Json = { area: pl.area, units: pl.units, leaders: pl.leaders };
    if (pl.hq || chance(u, 0.3)) j.hq = pl.hq;
    if (Object.keys(pl.facing).length || chance(u, 0.3)) j.facing = pl.facing;
    return j;
  });

  // reinforcements enter at map-edge areas of the zone when it has some [6.0]; a group must fit its entry area on its
  // own [13.6, 13.7], so a big one comes as several groups on the same turn (its leaders with the first)
  const edges = zone.filter((a) => a.edge?.length);
  const rjson: Json[] = [];
  for (const r of reinforcements) {
    const area = pick(u, edges.length && chance(u, 0.85) ? edges : zone);
    const turn = int(u, Math.min(2, turns), turns);
    for (const [k, units] of chunks(
      r.units.map((id) => byId.get(id)!),
      area,
    ).entries()) {
      const j: Json = {
        id: `${side === 0 ? 'a' : 'b'}-r${rjson.length + 1}`,
        side,
        turn,
        area: area.id,
        units: units.map((x) => x.id),
      };
      const leaders = k === 0 ? r.leaders : [];
      if (leaders.length || chance(u, 0.3)) j.leaders = leaders;
      if (r.reserve) j.reserve = true;
      rjson.push(j);
    }
  }
  return { setup, reinforcements: rjson };
}

/** Units split, in order, into groups that each fit an empty `area` (SP and long counters [13.6, 13.7]). */
function chunks(units: readonly Unit[], area: MapArea): Unit[][] {
  const maxLC = area.allAround
    ? area.stack.maxLC
    : Math.min(area.stack.maxLC, (area.conformations ?? []).filter((c) => c.fitsLong !== false).length);
  const out: Unit[][] = [];
  let cur: Unit[] = [];
  const sp = (g: readonly Unit[]) => g.reduce((t, x) => t + startSp(x), 0);
  const lcs = (g: readonly Unit[]) => g.filter(isLongAtStart).length;
  for (const x of units) {
    const next = [...cur, x];
    if (cur.length && (sp(next) > area.stack.max || lcs(next) > maxLC)) {
      out.push(cur);
      cur = [x];
    } else cur = next;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** The zone area farthest from the front (ties: the first). */
function rearmost(zone: readonly MapArea[], front: string): MapArea {
  const depth = (a: MapArea) =>
    front === 'E' ? -a.center[0]! : front === 'W' ? a.center[0]! : front === 'S' ? -a.center[1]! : a.center[1]!;
  return zone.reduce((best, a) => (depth(a) > depth(best) ? a : best));
}

// ---------------------------------------------------------------------------------------------
// Turns, weather, rules, victory, options
// ---------------------------------------------------------------------------------------------

function drawTurns(u: Uniform): Json[] {
  const n = weighted(u, [
    [1, 0.5],
    [2, 1.5],
    [3, 3],
    [4, 2],
    [5, 1.5],
    [6, 1],
    [8, 0.5],
  ]);
  const h0 = int(u, 5, 17);
  return Array.from({ length: n }, (_, i) => {
    const h = h0 + i;
    const hour =
      i === n - 1 && h >= 20 && chance(u, 0.5) ? `${h}:00-${h + 2}:00` : `${String(h % 24).padStart(2, '0')}:00`;
    const time = h < 7 ? 'dawn' : h < 18 ? 'day' : h < 19 ? 'dusk' : 'night';
    return time === 'day' && chance(u, 0.5) ? { hour } : { hour, time };
  });
}

const WEATHER = [
  ['clear', 6],
  ['rain', 1.5],
  ['fog', 1],
  ['snow', 1],
] as const;

function drawWeather(u: Uniform, turns: number): Json | undefined {
  const k = weighted(u, [
    ['none', 2],
    ['fixed', 2],
    ['table', 2],
  ] as const);
  if (k === 'none') return undefined;
  const w: Json = { initial: weighted(u, WEATHER) };
  if (k === 'table') {
    w.fromTurn = int(u, 1, turns);
    w.table = Array.from({ length: 6 }, () => weighted(u, WEATHER));
  }
  return w;
}

function drawRules(u: Uniform): Json | undefined {
  if (chance(u, 0.2)) return undefined;
  const r: Json = { rout: chance(u, 0.6), villagesBlockLos: chance(u, 0.3) };
  if (chance(u, 0.3)) r.mediumAsLight = true; // A-59: only the series rules' reading is played
  if (chance(u, 0.3)) r.irregularAsLight = true;
  r.hqArtilleryBonus = subset(u, [0, 1], int(u, 0, 2));
  return r;
}

function drawVictory(u: Uniform, map: GenMap, zones: readonly (readonly MapArea[])[], acs: readonly string[]): Json {
  const vp: Json = {};
  if (chance(u, 0.5))
    Object.assign(vp, { step: int(u, 1, 2), artilleryUnit: int(u, 1, 3), leader: int(u, 2, 4), hq: int(u, 3, 5) });
  if (chance(u, 0.6))
    vp.armyCommander = Object.fromEntries(acs.filter(() => chance(u, 0.8)).map((id) => [id, int(u, 3, 8)]));
  const objs = subset(
    u,
    map.areas,
    weighted(u, [
      [0, 1],
      [1, 2],
      [2, 2],
      [3, 1],
    ]),
  );
  const control: Record<string, Side> = {};
  for (const a of objs) {
    const owner = zones.findIndex((z) => z.includes(a));
    if (owner >= 0 && chance(u, 0.7)) control[String(a.id)] = owner as Side;
    else if (chance(u, 0.2)) control[String(a.id)] = int(u, 0, 1) as Side;
  }
  const marginal = int(u, 1, 5);
  const v: Json = {
    vp,
    objectives: objs.map((a) => ({ area: a.id, vp: [int(u, 1, 6), int(u, 0, 4)] })),
    thresholds: { decisive: marginal + int(u, 0, 8), marginal },
  };
  if (Object.keys(control).length || chance(u, 0.3)) v.control = control;
  return v;
}

/** The rules configuration: named options with a value the engine plays, and adaptations stated as "digest". */
function drawOptions(u: Uniform): Json | undefined {
  if (chance(u, 0.3)) return undefined;
  const o: Json = {};
  for (const [name, def] of Object.entries(NAMED_OPTIONS))
    if (chance(u, 0.35)) o[name] = pick(u, def.implemented as readonly (string | boolean)[]);
  for (const [id] of subset(
    u,
    ADAPTATIONS,
    weighted(u, [
      [0, 3],
      [1, 1],
      [3, 1],
    ]),
  ))
    o[id] = 'digest';
  return o;
}

// ---------------------------------------------------------------------------------------------
// The scenario
// ---------------------------------------------------------------------------------------------

/** A random scenario on `map` (the map file's JSON, embedded as `mapData`). */
function randomScenarioOn(u: Uniform, map: GenMap): unknown {
  const tag = Math.floor(u() * 36 ** 6).toString(36);
  const turns = drawTurns(u);
  for (let attempt = 0; ; attempt++) {
    const zones = drawZones(u, map);
    const oobs = [drawOob(u, 0), drawOob(u, 1)];
    const fronts = [towardEnemy(zones[0], zones[1]), towardEnemy(zones[1], zones[0])];
    const sets = ([0, 1] as const).map((p) => setUpSide(u, oobs[p]!, zones[p], fronts[p]!, turns.length, p));
    if (sets.some((s) => !s.setup.length) && attempt < 20) continue;
    const sc: Json = {
      ruleset: 'eagles-of-the-empire',
      id: `generated-${tag}`,
      title: `Generated scenario ${tag}`,
      description: `Random orders of battle and set-ups on ${map.id}.`,
      map: map.id,
      sides: oobs.map((o) => o.side),
      setup: sets.map((s) => s.setup),
      turns,
    };
    const weather = drawWeather(u, turns.length);
    if (weather) sc.weather = weather;
    const reinforcements = sets.flatMap((s) => s.reinforcements);
    if (reinforcements.length || chance(u, 0.3)) sc.reinforcements = reinforcements;
    const rules = drawRules(u);
    if (rules) sc.rules = rules;
    sc.victory = drawVictory(
      u,
      map,
      zones,
      oobs.map((o) => o.ac),
    );
    const options = drawOptions(u);
    if (options) sc.options = options;
    sc.mapData = map;
    return sc;
  }
}

/** A random scenario on the shipped map (data/maps/eagles-of-the-empire/hohenwald-1809.json). */
export function randomScenario(u: Uniform): unknown {
  return randomScenarioOn(u, shippedMap as unknown as GenMap);
}
