/**
 * Napoleon's Eagles: command lines [p.16] as ADAPTATION A-26 reads them (option `commandLines: "paths"`, the default;
 * `"straight"` keeps A-12's straight distance). The book: "The command control distances can not be measured though
 * enemies zones of control or other non-logical places. Also, opposing lines of command and control cannot cross one
 * another. The player with the shortest line of communication to its unit or leader will win any contest for
 * control."
 *
 * A command line runs from a leader's point to the centre of a unit's footprint (the point A-12 measures to), or to a
 * subordinate leader's point. It is the shortest way round the enemy's zones of control — each enemy footprint grown
 * by 1" on every side (`engine/tabletop/paths.ts`' `enlargeConvex`: a rectangle 2" longer and 2" wider), not a
 * skirmish screen's nor that of a unit in retreat status — that crosses no uncrossable river except at a bridge or a
 * ford and stays on the table. An end standing inside an enemy zone (a unit or leader in contact) may leave it, but
 * not through the enemy's footprint. A line longer than the leader's radius, or with no way at all, is out of
 * command. Then the opposing lines that cross (`polylinesCross`, properly) contest: the longer is broken, and equal
 * lengths (to 1/100") both stand. Only the lines a command test uses contest (every leader's line to his superior and
 * every unit's to its commander under option #1; units' lines only under option #2), and only those in range: a line
 * out of range is no line of command. Every crossing pair is judged at once, so a line broken by one shorter line may
 * still break a longer one.
 *
 * Pure, no I/O. The maps of obstacles are cached by the enemy footprints they are built from (enemies do not move
 * while a side's unit moves, so A-27's measures within a move menu share one map and its visibility graph).
 */
import type { Polygon, Vec } from '../../geometry/geometry.ts';
import {
  type Path,
  type PathMap,
  enlargeConvex,
  pathMap,
  polylineOutside,
  polylinesCross,
  shortestPath,
} from '../../tabletop/paths.ts';
import { IN } from './board.ts';
import type { CommandLeader, CommandUnit } from './morale.ts';
import type { Scenario } from './scenario.ts';
import { type Body, type TableUnit, commandCentre, footprint } from './shape.ts';

/** A-26: the enemy's zone of control round its footprint, 1/100". */
export const ZONE_OF_CONTROL = 1 * IN;

/** A unit on the table as the command lines see it. */
export interface CommandBody extends TableUnit {
  /** [p.12] in retreat status: no zone of control. */
  readonly retreating?: boolean;
}

/** One side's command test: its leaders where they stand, its units, and whether leaders' lines count (option #1). */
export interface CommandSide {
  readonly side: string;
  readonly leaders: readonly CommandLeader[];
  readonly units: readonly CommandUnit[];
  readonly leaderLines: boolean;
}

/** How a unit or leader stands for command: its line's straight distance, path and whether a crossing broke it. */
export interface LineReach {
  /** The leader at its start. */
  readonly from: string;
  /** 1/100". */
  readonly radius: number;
  /** A-12's straight distance, 1/100". */
  readonly straight: number;
  /** The shortest path, or null when there is none within the radius. */
  readonly path: Path | null;
  /** broken by the shorter enemy line crossing it ("leader→unit or leader", the first such by name), or null. */
  readonly brokenBy: string | null;
}

export interface CommandLines {
  /** By unit id. */
  readonly units: ReadonlyMap<string, LineReach>;
  /** By the subordinate leader's id (option #1 only). */
  readonly leaders: ReadonlyMap<string, LineReach>;
}

/** The line's length for the command test: Infinity when broken, out of range or without a way. */
export function reachLength(r: LineReach): number {
  return r.path && r.brokenBy === null ? r.path.length : Number.POSITIVE_INFINITY;
}

/** Is it A-26 (the path or a crossing), not the straight distance, that puts this line out of command? */
export function pathDecides(r: LineReach): boolean {
  return r.straight <= r.radius && reachLength(r) > r.radius;
}

/** Why a line is out of command, in words (for the log). */
export function reachText(r: LineReach): string {
  const i = (u: number) => `${Math.round(u / 10) / 10}"`;
  if (r.brokenBy !== null)
    return `A-26: the line from ${r.from} is broken by the shorter enemy line ${r.brokenBy} crossing it`;
  if (r.straight > r.radius) return `${i(r.straight)} from ${r.from}, radius ${i(r.radius)}`;
  return `A-26: no way from ${r.from} round the enemy within ${i(r.radius)} (${i(r.straight)} straight)`;
}

// ---------------------------------------------------------------------------------------------------------------------
// The obstacles
// ---------------------------------------------------------------------------------------------------------------------

const pts = (ps: readonly (readonly [number, number])[]): Vec[] =>
  ps.map(([x, y]) => ({ x: Math.round(x * IN), y: Math.round(y * IN) }));

const wallCache = new WeakMap<Scenario, Vec[][]>();

/** A-26 impassable terrain: each uncrossable river, cut where a bridge or a ford crosses it. */
function wallsOf(sc: Scenario): Vec[][] {
  let w = wallCache.get(sc);
  if (!w) {
    w = [];
    for (const t of sc.terrain) {
      if (t.type !== 'river' || t.crossable) continue;
      const gaps = sc.terrain
        .filter((g) => (g.type === 'bridge' || g.type === 'ford') && g.river === t.id)
        .map((g) => pts((g as { polygon: readonly (readonly [number, number])[] }).polygon));
      w.push(...polylineOutside(pts(t.points), gaps));
    }
    wallCache.set(sc, w);
  }
  return w;
}

/** The units whose zones block `side`'s lines: enemies, not skirmish screens, not in retreat status. */
function blockers(side: string, bodies: readonly CommandBody[]): CommandBody[] {
  return bodies.filter((b) => b.side !== side && b.formation !== 'skirmish' && !b.retreating);
}

const mapCache = new WeakMap<Scenario, Map<string, PathMap>>();

/** The map `side`'s command lines are found on (cached by the enemy footprints). */
export function commandMap(sc: Scenario, side: string, bodies: readonly CommandBody[]): PathMap {
  const cores: Polygon[] = blockers(side, bodies).map((b) => footprint(b));
  const key = cores.map((c) => c.map((p) => `${Math.round(p.x * 16)},${Math.round(p.y * 16)}`).join(' ')).join('|');
  let byKey = mapCache.get(sc);
  if (!byKey) mapCache.set(sc, (byKey = new Map()));
  let m = byKey.get(key);
  if (!m) {
    m = pathMap({
      obstacles: cores.map((core) => ({ outline: enlargeConvex(core, ZONE_OF_CONTROL), core })),
      walls: wallsOf(sc),
      bounds: { minX: 0, minY: 0, maxX: Math.round(sc.table.width * IN), maxY: Math.round(sc.table.height * IN) },
    });
    if (byKey.size >= 64) byKey.clear();
    byKey.set(key, m);
  }
  return m;
}

// ---------------------------------------------------------------------------------------------------------------------
// The lines
// ---------------------------------------------------------------------------------------------------------------------

const dist = (a: Vec, b: Vec) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * A-27: the command path's length from a leader's point to a unit (1/100"; Infinity when there is no way, or none
 * within `cap`). The unit's own path only: no crossing contest.
 */
export function commandPathLength(
  sc: Scenario,
  side: string,
  bodies: readonly CommandBody[],
  leader: Vec,
  b: Body,
  cap = Number.POSITIVE_INFINITY,
): number {
  return shortestPath(commandMap(sc, side, bodies), leader, commandCentre(b), cap)?.length ?? Number.POSITIVE_INFINITY;
}

/** A-26: the path between two points on `side`'s map, uncapped (Infinity when there is no way). */
export function commandPathBetween(sc: Scenario, side: string, bodies: readonly CommandBody[], a: Vec, b: Vec): number {
  return shortestPath(commandMap(sc, side, bodies), a, b)?.length ?? Number.POSITIVE_INFINITY;
}

interface Line {
  readonly side: string;
  readonly key: string;
  readonly reach: LineReach;
}

/**
 * A-26 every command line of both sides: each found on its side's map within its leader's radius, then the crossing
 * contest between opposing lines in range.
 */
export function commandLines(
  sc: Scenario,
  bodies: readonly CommandBody[],
  sides: readonly CommandSide[],
): CommandLines {
  const lines: Line[] = [];
  for (const s of sides) {
    const m = commandMap(sc, s.side, bodies);
    const byId = new Map(s.leaders.map((l) => [l.id, l]));
    const line = (key: string, l: CommandLeader, to: Vec) => {
      const from = { x: l.x, y: l.y };
      const radius = l.radius * IN;
      lines.push({
        side: s.side,
        key,
        reach: {
          from: l.id,
          radius,
          straight: dist(from, to),
          path: shortestPath(m, from, to, radius),
          brokenBy: null,
        },
      });
    };
    if (s.leaderLines)
      for (const l of s.leaders) {
        const sup = l.superior ? byId.get(l.superior) : undefined;
        if (sup && l.rank !== 'army' && !l.independent) line(`l:${l.id}`, sup, { x: l.x, y: l.y });
      }
    for (const u of s.units) {
      const c = byId.get(u.commander);
      if (c) line(`u:${u.id}`, c, commandCentre(u.body));
    }
  }
  // the contest: every crossing pair of opposing lines in range, judged at once
  const broken = new Map<number, string>();
  const name = (x: Line) => x.key.slice(2);
  for (let i = 0; i < lines.length; i++) {
    const a = lines[i]!;
    if (!a.reach.path) continue;
    for (let j = i + 1; j < lines.length; j++) {
      const b = lines[j]!;
      if (b.side === a.side || !b.reach.path) continue;
      const la = Math.round(a.reach.path.length);
      const lb = Math.round(b.reach.path.length);
      if (la === lb || !polylinesCross(a.reach.path.points, b.reach.path.points)) continue;
      const [loser, winner] = la > lb ? [i, b] : [j, a];
      const was = broken.get(loser);
      const by = `${winner.reach.from}→${name(winner)}`;
      if (was === undefined || by < was) broken.set(loser, by);
    }
  }
  const units = new Map<string, LineReach>();
  const leaders = new Map<string, LineReach>();
  lines.forEach((x, i) => {
    const r = broken.has(i) ? { ...x.reach, brokenBy: broken.get(i)! } : x.reach;
    (x.key.startsWith('u:') ? units : leaders).set(name(x), r);
  });
  return { units, leaders };
}
