/**
 * Line of sight on an area map: the straight segment from the centre of one area to the centre of another, traced
 * over the area polygons into the areas it passes through, the boundaries it crosses, the stretches where it runs
 * along a boundary and the corner points it passes through. A map author's override replaces the computed trace.
 *
 * `checkLos` then applies elevation and blocking rules given as data and predicates by the ruleset (which terrain
 * blocks, which elevation differences a weapon can reach): intervening areas higher than the firer block; looking up
 * or level needs every intervening area at or below the firer; looking down needs them strictly lower; and blocking
 * areas, boundaries, along-boundary runs and corners count only at the firer's level.
 */
import type { AreaId, AreaMap, Boundary, Pt } from './map.ts';

export interface LosTrace {
  readonly from: AreaId;
  readonly to: AreaId;
  /** Intervening areas in order from `from` (neither end). */
  readonly areas: readonly AreaId[];
  /** Side boundaries crossed, in order. */
  readonly crossings: readonly (readonly [AreaId, AreaId])[];
  /** Stretches running along a boundary between two areas. */
  readonly along: readonly (readonly [AreaId, AreaId])[];
  /** Corner points passed through, as the diagonal pair the line goes between. */
  readonly corners: readonly (readonly [AreaId, AreaId])[];
  readonly overridden: boolean;
}

const EPS = 1e-9;

function cross(ax: number, ay: number, bx: number, by: number): number {
  return ax * by - ay * bx;
}

/** Parameters t ∈ [0, 1] along P→Q where it meets segment U→V (both ends of a collinear overlap). */
function meet(P: Pt, Q: Pt, U: Pt, V: Pt, out: number[]): void {
  const rx = Q[0] - P[0];
  const ry = Q[1] - P[1];
  const sx = V[0] - U[0];
  const sy = V[1] - U[1];
  const den = cross(rx, ry, sx, sy);
  const qpx = U[0] - P[0];
  const qpy = U[1] - P[1];
  const len2 = rx * rx + ry * ry;
  if (Math.abs(den) < EPS * Math.max(1, len2)) {
    if (Math.abs(cross(qpx, qpy, rx, ry)) > EPS * Math.max(1, len2)) return; // parallel, apart
    const t0 = (qpx * rx + qpy * ry) / len2;
    const t1 = ((V[0] - P[0]) * rx + (V[1] - P[1]) * ry) / len2;
    for (const t of [t0, t1]) if (t >= -EPS && t <= 1 + EPS) out.push(Math.min(1, Math.max(0, t)));
    return;
  }
  const t = cross(qpx, qpy, sx, sy) / den;
  const u = cross(qpx, qpy, rx, ry) / den;
  if (t >= -EPS && t <= 1 + EPS && u >= -EPS && u <= 1 + EPS) out.push(Math.min(1, Math.max(0, t)));
}

function onSegment(p: Pt, U: Pt, V: Pt, tol: number): boolean {
  const sx = V[0] - U[0];
  const sy = V[1] - U[1];
  const l2 = sx * sx + sy * sy;
  let t = l2 ? ((p[0] - U[0]) * sx + (p[1] - U[1]) * sy) / l2 : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(p[0] - (U[0] + t * sx), p[1] - (U[1] + t * sy)) <= tol;
}

function onBoundary(p: Pt, poly: readonly Pt[], tol: number): boolean {
  for (let i = 0; i < poly.length; i++) if (onSegment(p, poly[i]!, poly[(i + 1) % poly.length]!, tol)) return true;
  return false;
}

function inside(p: Pt, poly: readonly Pt[]): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!;
    const b = poly[j]!;
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) c = !c;
  }
  return c;
}

type Piece = { k: 'in'; a: AreaId } | { k: 'along'; a: AreaId; b: AreaId };

/** Traces already made, per map and pair: a map never changes, so neither does a trace (never modify one). */
const traces = new WeakMap<AreaMap, Map<AreaId, Map<AreaId, LosTrace>>>();

/** Trace the centre-to-centre line from `from` to `to` (an author override wins); computed once per map and pair. */
export function traceLos(map: AreaMap, from: AreaId, to: AreaId): LosTrace {
  let byFrom = traces.get(map);
  if (!byFrom) traces.set(map, (byFrom = new Map()));
  let byTo = byFrom.get(from);
  if (!byTo) byFrom.set(from, (byTo = new Map()));
  let t = byTo.get(to);
  if (!t) byTo.set(to, (t = computeLos(map, from, to)));
  return t;
}

function computeLos(map: AreaMap, from: AreaId, to: AreaId): LosTrace {
  for (const o of map.json.los) {
    if (o.from === from && o.to === to)
      return { from, to, areas: o.areas, crossings: o.crossings, along: o.along, corners: o.corners, overridden: true };
    if (o.from === to && o.to === from)
      return {
        from,
        to,
        areas: [...o.areas].reverse(),
        crossings: [...o.crossings].reverse().map(([a, b]) => [b, a] as const),
        along: [...o.along].reverse(),
        corners: [...o.corners].reverse().map(([a, b]) => [b, a] as const),
        overridden: true,
      };
  }
  const A = map.area(from);
  const B = map.area(to);
  if (from === to) return { from, to, areas: [], crossings: [], along: [], corners: [], overridden: false };
  const polys: [AreaId, readonly Pt[]][] = [];
  for (const a of map.json.areas) {
    if (!a.polygon)
      throw new Error(
        `map ${map.id}: area ${a.id} has no polygon, so LOS ${from}→${to} cannot be computed; add polygons or a "los" override for this pair`,
      );
    polys.push([a.id, a.polygon]);
  }
  const P = A.center;
  const Q = B.center;
  const scale = Math.max(map.json.size[0], map.json.size[1]);
  const tol = 1e-7 * scale;
  const ts = [0, 1];
  for (const [, poly] of polys)
    for (let i = 0; i < poly.length; i++) meet(P, Q, poly[i]!, poly[(i + 1) % poly.length]!, ts);
  ts.sort((x, y) => x - y);
  const uniq: number[] = [];
  for (const t of ts) if (!uniq.length || t - uniq[uniq.length - 1]! > 1e-9) uniq.push(t);
  const at = (t: number): Pt => [P[0] + (Q[0] - P[0]) * t, P[1] + (Q[1] - P[1]) * t];
  const pieces: Piece[] = [];
  const breaks: Pt[] = [];
  for (let i = 0; i + 1 < uniq.length; i++) {
    const m = at((uniq[i]! + uniq[i + 1]!) / 2);
    const edgeOf: AreaId[] = [];
    let inner: AreaId | null = null;
    for (const [id, poly] of polys) {
      if (onBoundary(m, poly, tol)) edgeOf.push(id);
      else if (inside(m, poly)) inner = id;
    }
    let piece: Piece;
    if (inner !== null) piece = { k: 'in', a: inner };
    else if (edgeOf.length >= 2)
      piece = { k: 'along', a: Math.min(edgeOf[0]!, edgeOf[1]!), b: Math.max(edgeOf[0]!, edgeOf[1]!) };
    else if (edgeOf.length === 1)
      piece = { k: 'in', a: edgeOf[0]! }; // along the map's outer edge
    else
      throw new Error(
        `map ${map.id}: LOS ${from}→${to} leaves every area near (${m[0].toFixed(2)}, ${m[1].toFixed(2)}); the polygons must tile the map`,
      );
    const last = pieces[pieces.length - 1];
    if (last && last.k === piece.k && last.a === piece.a && (piece.k === 'in' || (last as { b: AreaId }).b === piece.b))
      continue;
    if (last) breaks.push(at(uniq[i]!));
    pieces.push(piece);
  }
  const areas: AreaId[] = [];
  const crossings: [AreaId, AreaId][] = [];
  const along: [AreaId, AreaId][] = [];
  const corners: [AreaId, AreaId][] = [];
  for (const p of pieces) {
    if (p.k === 'in' && p.a !== from && p.a !== to && !areas.includes(p.a)) areas.push(p.a);
    if (p.k === 'along') along.push([p.a, p.b]);
  }
  for (let i = 0; i + 1 < pieces.length; i++) {
    const x = pieces[i]!;
    const y = pieces[i + 1]!;
    if (x.k !== 'in' || y.k !== 'in') continue;
    const bd = map.boundary(x.a, y.a);
    if (bd?.kind === 'side') crossings.push([x.a, y.a]);
    else if (bd?.kind === 'point') corners.push([x.a, y.a]);
    else {
      const p = breaks[i]!;
      throw new Error(
        `map ${map.id}: LOS ${from}→${to} passes from area ${x.a} to area ${y.a} at (${p[0].toFixed(2)}, ${p[1].toFixed(2)}) but the map lists no boundary between them`,
      );
    }
  }
  return { from, to, areas, crossings, along, corners, overridden: false };
}

export interface LosRules {
  /** Elevation of an area (default: the map's). */
  readonly elevation?: (id: AreaId) => number;
  /** Elevation differences (target − firer) the weapon can reach at all. */
  readonly envelope: (delta: number, range: number) => boolean;
  /** Weapons that ignore line of sight (high-angle fire) skip every check after the envelope. */
  readonly ignoresLos?: boolean;
  /** An area whose contents or terrain block a line through it (not the firer's or the target's). */
  readonly blocksArea: (id: AreaId) => boolean;
  /** A boundary whose terrain blocks a line crossing it or running along it. */
  readonly blocksBoundary: (b: Boundary) => boolean;
}

type LosBlock =
  | 'envelope'
  | 'higher-intervening'
  | 'level-intervening-looking-down'
  | 'descent-too-shallow'
  | 'blocking-area'
  | 'blocking-boundary'
  | 'along-blocking-boundary'
  | 'along-between-blocking-areas'
  | 'corner-between-blocking-areas';

export interface LosResult {
  readonly clear: boolean;
  readonly blockedBy?: LosBlock;
  /** The area or boundary responsible, for messages. */
  readonly where?: string;
  readonly trace: LosTrace;
}

/** Whether `from` sees `to` under `rules` (a ruleset supplies the blocking predicates and the weapon's envelope). */
export function checkLos(map: AreaMap, from: AreaId, to: AreaId, rules: LosRules): LosResult {
  const elev = rules.elevation ?? ((id: AreaId) => map.area(id).elev);
  const trace = traceLos(map, from, to);
  const f = elev(from);
  const delta = elev(to) - f;
  const range = map.range(from, to);
  const no = (blockedBy: LosBlock, where?: string): LosResult => ({
    clear: false,
    blockedBy,
    ...(where ? { where } : {}),
    trace,
  });
  if (!rules.envelope(delta, range)) return no('envelope', `elevation difference ${delta}`);
  if (rules.ignoresLos) return { clear: true, trace };
  const I = trace.areas;
  for (const a of I) if (elev(a) > f) return no('higher-intervening', `area ${a}`);
  if (delta < 0) {
    for (const a of I) if (elev(a) >= f) return no('level-intervening-looking-down', `area ${a}`);
    if (range >= 3 && delta <= -2 && I.length && elev(I[I.length - 1]!) > f - 2)
      return no('descent-too-shallow', `area ${I[I.length - 1]}`);
  }
  for (const a of I) if (elev(a) === f && rules.blocksArea(a)) return no('blocking-area', `area ${a}`);
  const atF = (id: AreaId) => I.includes(id) && elev(id) === f;
  for (const [a, b] of trace.crossings) {
    const bd = map.boundary(a, b)!;
    if (rules.blocksBoundary(bd) && (range === 1 || atF(a) || atF(b)))
      return no('blocking-boundary', `boundary ${a}|${b}`);
  }
  const blockingHigh = (id: AreaId) => rules.blocksArea(id) && elev(id) >= f;
  for (const [a, b] of trace.along) {
    const bd = map.boundary(a, b);
    if (bd && rules.blocksBoundary(bd)) return no('along-blocking-boundary', `boundary ${a}|${b}`);
    if (blockingHigh(a) && blockingHigh(b)) return no('along-between-blocking-areas', `areas ${a} and ${b}`);
  }
  for (const [a, b] of trace.corners) {
    const bd = map.boundary(a, b);
    const cs = bd?.corners ?? [];
    if (cs.length >= 2 && cs.every(blockingHigh))
      return no('corner-between-blocking-areas', `corner ${a}/${b} between ${cs.join(' and ')}`);
  }
  return { clear: true, trace };
}
