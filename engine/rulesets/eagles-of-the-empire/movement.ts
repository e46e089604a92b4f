/**
 * Movement point costs [13.1, 13.3–13.36] with the placeholder Terrain Effects Chart of the digest, to be
 * replaced by each game's own chart: the cost of entering an area across a boundary (or a diagonal point) for a
 * movement class, in normal, road or trail mode. Several area kinds, or several boundary kinds, use only the greatest
 * penalty [2.3]. Pure.
 */
import type { AreaId, AreaMap } from '../../areas/map.ts';

export type MoveClass = 'infantry' | 'cavalry' | 'artillery';
export type MoveMode = 'normal' | 'road' | 'trail';
const P = Infinity; // prohibited

/** Area entry costs by class: infantry, cavalry, artillery/HQ. */
const AREA: Record<string, [number, number, number]> = {
  clear: [1, 1, 1],
  woods: [2, 3, 3],
  forest: [2, 3, 3],
  'special-foliage': [2, 2, 2],
  village: [1, 2, 2],
  hamlet: [1, 2, 2],
  town: [1, 2, 2],
  city: [1, 2, 2],
  swamp: [3, P, P],
};
/** Boundary penalties by class (slope: uphill only). */
const BOUNDARY: Record<string, [number, number, number]> = {
  slope: [1, 1, 1],
  escarpment: [2, P, P],
  stream: [1, 1, 2],
  brook: [1, 1, 2],
  'minor-river': [2, 2, P],
  river: [P, P, P],
  'tree-line': [0, 0, 0],
  hedgerow: [0, 1, 1],
};
const WATER = new Set(['stream', 'brook', 'minor-river', 'river']);

function idx(c: MoveClass): 0 | 1 | 2 {
  return c === 'infantry' ? 0 : c === 'cavalry' ? 1 : 2;
}

class TerrainError extends Error {}

/** Cost of the terrain of area `id` for a class: the greatest of its kinds [2.3]. */
export function areaCost(map: AreaMap, id: AreaId, c: MoveClass): number {
  let best = 0;
  for (const t of map.area(id).terrain) {
    const row = AREA[t];
    if (!row) throw new TerrainError(`area ${id}: terrain "${t}" is not in the Terrain Effects Chart (A-29)`);
    best = Math.max(best, row[idx(c)]);
  }
  return best;
}

/**
 * MP to enter `to` from adjacent `from` [13.1]: area cost plus the greatest boundary penalty; a bridge ignores the
 * water penalty and a ford replaces it with +1 [13.36]; a road crossing costs ½ and negates area and boundary
 * penalties, a trail costs 1 and negates area penalties only [13.31, 13.32]; a diagonal move pays the destination's
 * cost plus the point's crossing terrain [13.11]. Infinity: prohibited.
 */
export function entryCost(map: AreaMap, from: AreaId, to: AreaId, c: MoveClass, mode: MoveMode = 'normal'): number {
  // the map never changes: each cost is worked out once (a refusal is thrown every time)
  let byFrom = costs.get(map);
  if (!byFrom) costs.set(map, (byFrom = new Map()));
  let byTo = byFrom.get(from);
  if (!byTo) byFrom.set(from, (byTo = new Map()));
  let row = byTo.get(to);
  if (!row) byTo.set(to, (row = [NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN]));
  const k = idx(c) * 3 + (mode === 'normal' ? 0 : mode === 'road' ? 1 : 2);
  let v = row[k]!;
  if (Number.isNaN(v)) row[k] = v = computeEntryCost(map, from, to, c, mode);
  return v;
}
/** Entry costs per map, from, to: nine per pair, by class and mode (NaN: not yet asked). */
const costs = new WeakMap<AreaMap, Map<AreaId, Map<AreaId, number[]>>>();

function computeEntryCost(map: AreaMap, from: AreaId, to: AreaId, c: MoveClass, mode: MoveMode): number {
  const b = map.boundary(from, to);
  if (!b) throw new TerrainError(`areas ${from} and ${to} are not adjacent`);
  if (
    b.prohibitedFor.includes('all') ||
    b.prohibitedFor.includes(c) ||
    (c === 'artillery' && b.prohibitedFor.includes('hq'))
  )
    return P;
  if (mode !== 'normal') {
    if (b.kind !== 'side' || !b[mode]) throw new TerrainError(`no ${mode} crosses ${from}|${to} [13.3]`);
  }
  const kinds = b.kind === 'point' ? b.crossingTerrain : b.terrain;
  let penalty = 0;
  for (const t of kinds) {
    const row = BOUNDARY[t];
    if (!row)
      throw new TerrainError(`boundary ${from}|${to}: terrain "${t}" is not in the Terrain Effects Chart (A-29)`);
    let v = row[idx(c)];
    if ((t === 'slope' || t === 'escarpment') && b.up !== undefined && b.up !== to)
      v = t === 'escarpment' && v === P ? P : 0; // penalties uphill only
    if (WATER.has(t) && b.bridge)
      v = 0; // [13.36]
    else if (WATER.has(t) && b.ford) v = 1; // [13.36]
    penalty = Math.max(penalty, v);
  }
  const area = areaCost(map, to, c);
  if (area === P || penalty === P) return P;
  if (mode === 'road') return 0.5; // negates area and boundary penalties [13.32]
  if (mode === 'trail') return 1 + penalty; // negates area penalties only
  return area + penalty;
}
