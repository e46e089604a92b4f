/** Random terrain for The March of Eagles' scenario generator: woods, buildings, hills with crests, hedges and walls, on the table. */
import { type Uniform, chance, int, real, roundTo, weighted } from '../../core/draw.ts';

type Pt = [number, number];

interface Disc {
  x: number;
  y: number;
  r: number;
}

/**
 * A simple polygon around (cx, cy): vertices at increasing angles, evenly spread with jitter, so the polygon is
 * star-shaped about its centre (no self-intersection, the centre inside — a hill's crest may sit there).
 */
function starPolygon(u: Uniform, cx: number, cy: number, r: number, k: number): Pt[] {
  const step = (2 * Math.PI) / k;
  const a0 = real(u, 0, step);
  const jitter = k === 3 ? 0.15 : 0.3;
  const pts: Pt[] = [];
  for (let i = 0; i < k; i++) {
    const a = a0 + i * step + real(u, -jitter, jitter) * step;
    const rr = r * real(u, 0.6, 1);
    pts.push([roundTo(cx + rr * Math.cos(a), 0.1), roundTo(cy + rr * Math.sin(a), 0.1)]);
  }
  return chance(u, 0.5) ? pts : pts.reverse(); // both windings
}

/** A rectangle of half-sizes (hw, hh) turned by `turn` radians about its centre. */
function rectangle(cx: number, cy: number, hw: number, hh: number, turn: number): Pt[] {
  const c = Math.cos(turn);
  const s = Math.sin(turn);
  return [
    [-hw, -hh],
    [hw, -hh],
    [hw, hh],
    [-hw, hh],
  ].map(([x, y]): Pt => [roundTo(cx + x! * c - y! * s, 0.1), roundTo(cy + x! * s + y! * c, 0.1)]);
}

/** An open polyline wandering from a random start, turning at most 60° at each vertex and staying on the table. */
function polyline(u: Uniform, W: number, H: number): Pt[] | null {
  let x = real(u, 2, W - 2);
  let y = real(u, 2, H - 2);
  let h = real(u, 0, 2 * Math.PI);
  const pts: Pt[] = [[roundTo(x, 0.1), roundTo(y, 0.1)]];
  const segs = int(u, 1, 4);
  for (let i = 0; i < segs; i++) {
    const len = real(u, 3, 12);
    const nx = x + len * Math.cos(h);
    const ny = y + len * Math.sin(h);
    if (nx < 0.5 || nx > W - 0.5 || ny < 0.5 || ny > H - 0.5) break;
    pts.push([roundTo(nx, 0.1), roundTo(ny, 0.1)]);
    x = nx;
    y = ny;
    h += real(u, -Math.PI / 3, Math.PI / 3);
  }
  return pts.length >= 2 ? pts : null;
}

function freeDisc(u: Uniform, taken: readonly Disc[], W: number, H: number, rMin: number, rMax: number): Disc | null {
  for (let t = 0; t < 25; t++) {
    const r = real(u, rMin, rMax);
    if (2 * r + 1 > Math.min(W, H)) continue;
    const d = { x: roundTo(real(u, r + 0.5, W - r - 0.5), 0.1), y: roundTo(real(u, r + 0.5, H - r - 0.5), 0.1), r };
    if (taken.every((o) => Math.hypot(o.x - d.x, o.y - d.y) > o.r + d.r + 1)) return d;
  }
  return null;
}

export type TerrainJson = Record<string, unknown>;

/**
 * Woods, buildings, hills (crest inside), hedges and walls, and walled farms (a building inside a closed wall). Areas
 * keep clear of each other (discs with a gap); hedges and walls may cross anything, as on a real table.
 */
export function drawTerrain(u: Uniform, W: number, H: number): { terrain: TerrainJson[]; buildings: Pt[][] } {
  const terrain: TerrainJson[] = [];
  const buildings: Pt[][] = [];
  const taken: Disc[] = [];
  const n = weighted(u, [
    [0, 1.5],
    [1, 1],
    [2, 1.5],
    [3, 2],
    [4, 2],
    [5, 1.5],
    [6, 1],
    [8, 0.5],
  ]);
  const ids = new Map<string, number>();
  const idFor = (kind: string) => {
    const k = (ids.get(kind) ?? 0) + 1;
    ids.set(kind, k);
    return `${kind}-${k}`;
  };
  for (let i = 0; i < n; i++) {
    const kind = weighted(u, [
      ['woods', 3],
      ['building', 1.5],
      ['hill', 3],
      ['hedge', 2],
      ['wall', 1.5],
      ['farm', 1],
    ] as const);
    if (kind === 'hedge' || kind === 'wall') {
      const pts = polyline(u, W, H);
      if (pts) terrain.push({ type: kind, id: idFor(kind), points: pts });
      continue;
    }
    const d = freeDisc(
      u,
      taken,
      W,
      H,
      kind === 'building' ? 1 : kind === 'farm' ? 4 : 2.5,
      kind === 'building' ? 3 : kind === 'farm' ? 7 : 9,
    );
    if (!d) continue;
    taken.push(d);
    if (kind === 'farm') {
      // a closed wall (first point repeated) around a building, like the digest's farm
      const hw = d.r * 0.65;
      const hh = d.r * real(u, 0.45, 0.65);
      const wall = rectangle(d.x, d.y, hw, hh, 0);
      terrain.push({ type: 'wall', id: idFor('farm-wall'), points: [...wall, wall[0]!] });
      const b = rectangle(d.x, d.y, hw * real(u, 0.3, 0.6), hh * real(u, 0.3, 0.6), 0);
      terrain.push({ type: 'building', id: idFor('farmhouse'), polygon: b });
      buildings.push(b);
      continue;
    }
    const poly = chance(u, 0.3)
      ? rectangle(
          d.x,
          d.y,
          d.r * real(u, 0.5, 0.7),
          d.r * real(u, 0.5, 0.7),
          chance(u, 0.5) ? 0 : real(u, 0, Math.PI / 2),
        )
      : starPolygon(u, d.x, d.y, d.r, int(u, kind === 'hill' ? 4 : 3, 8));
    if (kind === 'hill') terrain.push({ type: 'hill', id: idFor('hill'), polygon: poly, crest: [d.x, d.y] });
    else terrain.push({ type: kind, id: idFor(kind), polygon: poly });
    if (kind === 'building') buildings.push(poly);
  }
  return { terrain, buildings };
}

// ---------------------------------------------------------------------------------------------
// Fixed deployment
// ---------------------------------------------------------------------------------------------
