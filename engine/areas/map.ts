/**
 * Area maps for area-movement wargames: areas with terrain, elevation, stacking thresholds and LOS centres;
 * boundaries (side or diagonal point adjacencies) with their own terrain, slope direction, roads, trails, bridges,
 * fords and prohibitions; long-counter conformations per area; map edges and scenario tags.
 *
 * The module knows no ruleset: terrain kinds are strings, and whatever they mean (movement costs, combat effects,
 * what blocks line of sight) is the ruleset's business. Map files are JSON, validated with every problem reported by
 * its JSON path, then indexed once into a `AreaMap` for fast lookups.
 */
import { z } from 'zod';
import { strictObject } from '../core/suggest.ts';
import type { Problem, Validated } from '../core/game.ts';
import { validateWith } from '../core/validate.ts';

export type AreaId = number;
export type Pt = readonly [number, number];

const pt = z.tuple([z.number(), z.number()]);
const edgeSide = z.enum(['N', 'E', 'S', 'W']);

const conformationSchema = strictObject({
  id: z.string().min(1),
  /** False: an orientation for artillery only. */
  fitsLong: z.boolean().default(true),
  front: z.array(z.number().int()),
  flank: z.array(z.number().int()),
  rear: z.array(z.number().int()),
  /** Road id when the orientation lies along that road. */
  roadAligned: z.string().optional(),
  exclusiveWith: z.array(z.string()).default([]),
});

const areaSchema = strictObject({
  id: z.number().int().positive(),
  name: z.string().min(1),
  elev: z.number().int().min(-5).max(10).default(0),
  terrain: z.array(z.string().min(1)).min(1, 'at least one area terrain kind (e.g. "clear")'),
  special: z.array(z.string().min(1)).default([]),
  stack: strictObject({
    class: z.enum(['normal', 'circle2', 'circle3', 'town']),
    max: z.number().int().positive(),
    /** SP from which the area is densely stacked (null: never). */
    dense: z.number().int().positive().nullable(),
    maxLC: z.number().int().min(0),
  }),
  allAround: z.boolean().default(false),
  center: pt,
  polygon: z.array(pt).min(3).optional(),
  edge: z.array(edgeSide).default([]),
  tags: z.array(z.string().min(1)).default([]),
  conformations: z.array(conformationSchema).default([]),
});

const boundarySchema = strictObject({
  a: z.number().int().positive(),
  b: z.number().int().positive(),
  kind: z.enum(['side', 'point']),
  terrain: z.array(z.string().min(1)).default([]),
  /** Uphill area of a slope or escarpment boundary. */
  up: z.number().int().positive().optional(),
  road: z.boolean().default(false),
  trail: z.boolean().default(false),
  bridge: z.boolean().default(false),
  ford: z.boolean().default(false),
  prohibitedFor: z.array(z.string().min(1)).default([]),
  /** Point adjacencies: the other areas meeting at the point. */
  corners: z.array(z.number().int().positive()).default([]),
  /** Point adjacencies: terrain a diagonal step counts as crossing. */
  crossingTerrain: z.array(z.string().min(1)).default([]),
});

const losOverrideSchema = strictObject({
  from: z.number().int().positive(),
  to: z.number().int().positive(),
  /** Intervening areas in order from `from`. */
  areas: z.array(z.number().int().positive()),
  /** Boundaries crossed, as [a, b] pairs. */
  crossings: z.array(z.tuple([z.number().int(), z.number().int()])).default([]),
  along: z.array(z.tuple([z.number().int(), z.number().int()])).default([]),
  corners: z.array(z.tuple([z.number().int(), z.number().int()])).default([]),
});

/** Public API. @public */
export const areaMapSchema = strictObject({
  format: z.literal('eagles-area-map'),
  version: z.literal(1),
  id: z.string().min(1),
  title: z.string().min(1),
  /** Map extent in map units (for rendering). */
  size: z.tuple([z.number().positive(), z.number().positive()]),
  areas: z.array(areaSchema).min(1),
  boundaries: z.array(boundarySchema),
  /** Named roads and trails as ordered area lists. */
  roads: z
    .array(
      strictObject({
        id: z.string().min(1),
        kind: z.enum(['road', 'trail']),
        areas: z.array(z.number().int().positive()).min(2),
      }),
    )
    .default([]),
  /** Author overrides of computed lines of sight (both directions are derived). */
  los: z.array(losOverrideSchema).default([]),
});

export type AreaMapJson = z.infer<typeof areaMapSchema>;
export type Area = AreaMapJson['areas'][number];
export type Boundary = AreaMapJson['boundaries'][number];
export type Conformation = Area['conformations'][number];

function semantic(m: AreaMapJson): Problem[] {
  const out: Problem[] = [];
  const ids = new Map<number, number>();
  m.areas.forEach((a, i) => {
    if (ids.has(a.id))
      out.push({ path: `$.areas[${i}].id`, message: `duplicate area id ${a.id} (also at $.areas[${ids.get(a.id)}])` });
    ids.set(a.id, i);
  });
  const known = (id: number) => ids.has(id);
  const pairs = new Map<string, number>();
  m.boundaries.forEach((b, i) => {
    const p = `$.boundaries[${i}]`;
    if (!known(b.a)) out.push({ path: `${p}.a`, message: `unknown area ${b.a}` });
    if (!known(b.b)) out.push({ path: `${p}.b`, message: `unknown area ${b.b}` });
    if (b.a === b.b) out.push({ path: p, message: `an area cannot border itself (${b.a})` });
    const key = `${Math.min(b.a, b.b)}-${Math.max(b.a, b.b)}`;
    if (pairs.has(key))
      out.push({ path: p, message: `boundary ${key} is listed twice (also at $.boundaries[${pairs.get(key)}])` });
    pairs.set(key, i);
    if (b.up !== undefined && b.up !== b.a && b.up !== b.b)
      out.push({ path: `${p}.up`, message: `the uphill side must be ${b.a} or ${b.b}` });
    if (b.kind === 'point') {
      if (b.corners.length < 2)
        out.push({
          path: `${p}.corners`,
          message: 'a point adjacency names at least the 2 other areas meeting at the point',
        });
      b.corners.forEach((c, j) => !known(c) && out.push({ path: `${p}.corners[${j}]`, message: `unknown area ${c}` }));
      if (b.road || b.trail || b.bridge || b.ford)
        out.push({ path: p, message: 'roads, trails, bridges and fords cross side boundaries only' });
    }
    if ((b.bridge || b.ford) && !b.terrain.some((t) => /river|stream|brook/.test(t)))
      out.push({ path: p, message: 'a bridge or ford needs a water boundary (river, minor river, stream or brook)' });
  });
  m.areas.forEach((a, i) => {
    const p = `$.areas[${i}]`;
    if (a.stack.dense !== null && a.stack.dense > a.stack.max)
      out.push({
        path: `${p}.stack.dense`,
        message: `dense threshold ${a.stack.dense} is above the maximum ${a.stack.max}`,
      });
    const cids = new Set<string>();
    a.conformations.forEach((c, j) => {
      if (cids.has(c.id))
        out.push({ path: `${p}.conformations[${j}].id`, message: `duplicate conformation "${c.id}"` });
      cids.add(c.id);
      for (const role of ['front', 'flank', 'rear'] as const)
        c[role].forEach((n, k) => {
          if (!pairs.has(`${Math.min(a.id, n)}-${Math.max(a.id, n)}`))
            out.push({
              path: `${p}.conformations[${j}].${role}[${k}]`,
              message: `area ${n} is not adjacent to area ${a.id}`,
            });
        });
    });
    a.conformations.forEach((c, j) =>
      c.exclusiveWith.forEach(
        (x, k) =>
          !cids.has(x) &&
          out.push({ path: `${p}.conformations[${j}].exclusiveWith[${k}]`, message: `unknown conformation "${x}"` }),
      ),
    );
  });
  m.roads.forEach((r, i) =>
    r.areas.forEach((id, j) => {
      if (!known(id)) out.push({ path: `$.roads[${i}].areas[${j}]`, message: `unknown area ${id}` });
      else if (j > 0) {
        const k = `${Math.min(id, r.areas[j - 1]!)}-${Math.max(id, r.areas[j - 1]!)}`;
        const bi = pairs.get(k);
        if (bi === undefined || m.boundaries[bi]!.kind !== 'side')
          out.push({
            path: `$.roads[${i}].areas[${j}]`,
            message: `${r.kind} ${r.id} steps ${r.areas[j - 1]}→${id}, which share no side boundary`,
          });
        else if (!m.boundaries[bi]![r.kind])
          out.push({
            path: `$.roads[${i}].areas[${j}]`,
            message: `${r.kind} ${r.id} crosses boundary ${k}, which is not marked ${r.kind}: true`,
          });
      }
    }),
  );
  m.los.forEach((l, i) =>
    [l.from, l.to, ...l.areas].forEach(
      (id) => !known(id) && out.push({ path: `$.los[${i}]`, message: `unknown area ${id}` }),
    ),
  );
  return out;
}

export function validateAreaMap(json: unknown): Validated<AreaMapJson> {
  return validateWith(areaMapSchema, json, semantic);
}

/** An indexed, read-only map. */
export class AreaMap {
  readonly areas: ReadonlyMap<AreaId, Area>;
  /** The boundaries by both areas' ids (no string key per look-up). */
  private readonly boundsBy = new Map<AreaId, Map<AreaId, Boundary>>();
  private readonly nbrs = new Map<AreaId, { side: AreaId[]; point: AreaId[]; all: AreaId[] }>();
  private readonly rangeCache = new Map<AreaId, Map<AreaId, number>>();

  constructor(readonly json: AreaMapJson) {
    this.areas = new Map(json.areas.map((a) => [a.id, a]));
    for (const a of json.areas) this.nbrs.set(a.id, { side: [], point: [], all: [] });
    for (const b of json.boundaries) {
      for (const [x, y] of [
        [b.a, b.b],
        [b.b, b.a],
      ] as const) {
        let m = this.boundsBy.get(x);
        if (!m) this.boundsBy.set(x, (m = new Map()));
        m.set(y, b);
      }
      this.nbrs.get(b.a)![b.kind].push(b.b);
      this.nbrs.get(b.b)![b.kind].push(b.a);
    }
    for (const n of this.nbrs.values()) {
      n.side.sort((x, y) => x - y);
      n.point.sort((x, y) => x - y);
      n.all = [...n.side, ...n.point].sort((x, y) => x - y);
    }
  }

  static key(a: AreaId, b: AreaId): string {
    return a < b ? `${a}-${b}` : `${b}-${a}`;
  }

  /** Validate JSON and index it; throws with every problem listed. */
  static parse(json: unknown, name = 'map'): AreaMap {
    const v = validateAreaMap(json);
    if (!v.ok)
      throw new Error(
        `${name} is not a valid area map:\n${v.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`,
      );
    return new AreaMap(v.value);
  }

  get id(): string {
    return this.json.id;
  }

  area(id: AreaId): Area {
    const a = this.areas.get(id);
    if (!a) throw new Error(`map ${this.id}: no area ${id}`);
    return a;
  }

  /** The boundary between two areas, side or point, if they are adjacent. */
  boundary(a: AreaId, b: AreaId): Boundary | undefined {
    return this.boundsBy.get(a)?.get(b);
  }

  /** Side-adjacent areas, ascending. */
  sideNeighbours(id: AreaId): readonly AreaId[] {
    return this.nbrs.get(id)?.side ?? [];
  }
  /** Diagonally (point-) adjacent areas, ascending. */
  pointNeighbours(id: AreaId): readonly AreaId[] {
    return this.nbrs.get(id)?.point ?? [];
  }
  /** Side and point neighbours, ascending (one array per area, built once: never modify it). */
  neighbours(id: AreaId): readonly AreaId[] {
    return this.nbrs.get(id)?.all ?? [];
  }

  isEdge(id: AreaId): boolean {
    return this.area(id).edge.length > 0;
  }

  /** Range in areas, counting side and diagonal adjacency (an adjacent area is range 1). */
  range(a: AreaId, b: AreaId): number {
    let m = this.rangeCache.get(a);
    if (!m) {
      m = new Map([[a, 0]]);
      const queue = [a];
      for (let i = 0; i < queue.length; i++) {
        const x = queue[i]!;
        for (const y of this.neighbours(x))
          if (!m.has(y)) {
            m.set(y, m.get(x)! + 1);
            queue.push(y);
          }
      }
      this.rangeCache.set(a, m);
    }
    return m.get(b) ?? Infinity;
  }

  /** True when the boundary has this terrain kind (or, for a point adjacency, counts as crossing it). */
  crosses(a: AreaId, b: AreaId, kind: string): boolean {
    const bd = this.boundary(a, b);
    return !!bd && (bd.terrain.includes(kind) || bd.crossingTerrain.includes(kind));
  }

  /** Moving from `from` to `to` across a slope-like boundary: 'up', 'down', or null when there is no direction. */
  slopeDirection(from: AreaId, to: AreaId): 'up' | 'down' | null {
    const bd = this.boundary(from, to);
    if (!bd || bd.up === undefined) return null;
    return bd.up === to ? 'up' : 'down';
  }

  /** The conformation named `id` in area `area`, or an error naming both. */
  conformation(area: AreaId, id: string): Conformation {
    const c = this.area(area).conformations.find((x) => x.id === id);
    if (!c) throw new Error(`map ${this.id}: area ${area} has no conformation "${id}"`);
    return c;
  }

  /**
   * How `from` sees an adjacent area `other` when a long counter in `from` takes conformation `conf`: front, flank or
   * rear [13.91]; every neighbour is front in an all-around area [13.92].
   */
  facingOf(from: AreaId, conf: string | null, other: AreaId): 'front' | 'flank' | 'rear' {
    const a = this.area(from);
    if (a.allAround || conf === null) return 'front';
    const c = this.conformation(from, conf);
    if (c.front.includes(other)) return 'front';
    if (c.flank.includes(other)) return 'flank';
    if (c.rear.includes(other)) return 'rear';
    throw new Error(`map ${this.id}: conformation "${conf}" of area ${from} does not classify area ${other}`);
  }

  /** As facingOf, but null for a neighbour the conformation does not classify (typically a diagonal one). */
  facingOrNull(from: AreaId, conf: string | null, other: AreaId): 'front' | 'flank' | 'rear' | null {
    const a = this.area(from);
    if (a.allAround || conf === null) return 'front';
    const c = this.conformation(from, conf);
    return c.front.includes(other)
      ? 'front'
      : c.flank.includes(other)
        ? 'flank'
        : c.rear.includes(other)
          ? 'rear'
          : null;
  }

  tagged(tag: string): AreaId[] {
    return this.json.areas.filter((a) => a.tags.includes(tag)).map((a) => a.id);
  }
}
