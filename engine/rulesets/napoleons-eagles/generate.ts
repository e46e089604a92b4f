/**
 * Random Napoleon's Eagles scenario files for the generated-scenario soak (`Game.randomScenario`): tables of 24-48" ×
 * 24-36" with the sides on any pair of opposite edges, 1-3 game turns, terrain of every kind of the format (roads,
 * rivers with bridges and fords, hills with ridges, light and dense woods, mud of every ground, fields, walls and
 * redoubts, hedges and prepared defences, building blocks), orders of battle of every unit kind, class, weight, arm,
 * calibre and formation with ratings drawn in the rating grammar (A-1), leaders of every rank (an army commander,
 * sometimes a corps or grand-battery commander, one or two division leaders), nationalities and doctrines, turn
 * points (sometimes uneven), victory objectives (area, block or terrain piece) and every named option.
 *
 * The optional rules [p.5, p.11, p.15-24] the game does not build yet (turn.ts refuses them when a scenario turns one
 * on; its list is not exported) are never turned on: only `BUILT_RULES` below are drawn, the others are left out or
 * written as false. Weather other than clear is drawn only with the weather rule on; caissons only with theirs.
 *
 * Set-up: units stand wholly on the table in their side's deployment zone, 1/2" apart, off building blocks (entered
 * only by the building rules), clear of rivers (crossed only by bridges), walls and hedges, and cavalry and artillery
 * out of dense woods; rivers run between the sides or along a flank, so no unit has to cross one to reach its home
 * edge. Pure: all randomness comes from `u`.
 */
import { type Uniform, chance, int, pick, real, roundTo, shuffle, weighted } from '../../core/draw.ts';
import {
  type Vec,
  polygonDistance,
  polygonPolylineDistance,
  polygonsOverlap,
  rectCorners,
} from '../../geometry/geometry.ts';
import { ADAPTATIONS, NATIONALITIES } from './scenario.ts';
import { neutralisedAtHits } from './tables.ts';
import { type FootprintInput, footprintRect, footprintSize } from './types.ts';

type J = Record<string, unknown>;
type Pt = [number, number];
type Edge = 'south' | 'north' | 'west' | 'east';

const OPPOSITE: Record<Edge, Edge> = { south: 'north', north: 'south', west: 'east', east: 'west' };

/** Optional rules of the book that the game builds (turn.ts accepts them); the others stay off. */
const BUILT_RULES = [
  'leaderInitiative',
  'outOfControlCavalry',
  'carbines',
  'organicSkirmishers',
  'secondBounce',
  'supportedLine',
  'tableFlanks',
  'weather',
  'smoke',
  'caissons',
  'writtenOrders',
  'misreadOrders',
  'fires',
] as const;
/** Optional rules not built yet: never on (left out, or written false). */
const UNBUILT_RULES = ['visibility'] as const;
/** The ADAPTATION options and the book's choices, with every value the schema allows (the default first). */
const CHOICES: readonly (readonly [string, readonly unknown[]])[] = [
  ['thresholdFraction', [0.5, 0.4, 0.6]],
  ['lightCavalrySkirmish', [false, true]],
  ['standOff', [1, 2]],
  ['obstacleCrossing', [0.5, 0, 1]],
  ['smokeBlocksLos', [false, true]],
  ['leaderMove', [20, 10]],
  ['commandLines', ['paths', 'straight']],
  ['skirmishPushBack', [1, 2]],
  ['solidShotCover', [-4, -2]],
  ['solidShotTable', ['closeIsCanister', 'extremeBlank']],
  ['rapidFireDefenceFatigue', [3, 2]],
  ['neutralisedAt', ['allGuns', 'cannons']],
  ['bearingFigures', ['arcs', 'allFront']],
  ['casualtyColumn', ['ownInContact', 'chargersInContact']],
  ['enfiladeChargers', ['sameFace', 'all']],
  ['defenderMeleeDice', ['one', 'perCharger']],
  ['fireEvacuation', [false, true]],
];
/** [p.4] the default 2:1 and the book's suggestions. */
const RATIOS: readonly { a: number; d: number }[] = [
  { a: 2, d: 1 },
  { a: 3, d: 2 },
  { a: 4, d: 2 },
  { a: 5, d: 3 },
];

const q = (x: number) => roundTo(x, 0.25);
const vec = ([x, y]: Pt): Vec => ({ x, y });

function randomOptions(u: Uniform): J {
  const o: J = {};
  for (const k of BUILT_RULES) if (chance(u, 0.7)) o[k] = chance(u, 0.5);
  for (const k of UNBUILT_RULES) if (chance(u, 0.2)) o[k] = false;
  // [p.18] misread orders are a part of the written orders [p.17]
  if (o.misreadOrders === true && o.writtenOrders !== true) o.misreadOrders = false;
  if (chance(u, 0.6)) {
    if (chance(u, 0.2)) {
      const d = int(u, 1, 9);
      o.activationRatio = { a: int(u, d + 1, 10), d };
    } else o.activationRatio = pick(u, RATIOS);
  }
  for (const [k, values] of CHOICES) if (chance(u, 0.6)) o[k] = pick(u, values);
  // the fixed readings, stated as the digest's
  for (const a of ADAPTATIONS) if (a.option === undefined && chance(u, 0.1)) o[a.id] = 'digest';
  return o;
}

/** A move–morale–fire–melee rating: move A-C, morale 1-2 digits, fire A-E (R infantry), melee 2-3 digits. */
function rating(u: Uniform, kind: 'infantry' | 'cavalry' | 'artillery', rifle: boolean): string {
  const move = weighted(u, [
    ['A', 1],
    ['B', 3],
    ['C', 1],
  ] as const);
  const morale = chance(u, 0.1) ? int(u, 5, 9) : int(u, 10, 20);
  const fire = rifle ? 'R' : kind === 'infantry' && chance(u, 0.1) ? 'R' : pick(u, ['A', 'B', 'C', 'C', 'D', 'E']);
  const melee = kind === 'artillery' ? int(u, 10, 30) : chance(u, 0.05) ? int(u, 100, 120) : int(u, 15, 65);
  return `${move}${morale}${fire}${melee}`;
}

interface Draft {
  readonly spec: J;
  readonly foot: FootprintInput;
}

/**
 * One unit's make-up (no position yet). `small` asks for a compact unit when a large one did not fit; `guns` draws
 * batteries three times as often (a side that may form a grand battery [p.10], so that it sometimes can, A-56).
 */
function unitDraft(u: Uniform, id: string, side: J, opts: J, small: boolean, guns = false): Draft {
  const kind = weighted(u, [
    ['infantry', 5],
    ['cavalry', 2],
    ['artillery', guns ? 6 : 2],
  ] as const);
  const common: J = {
    id,
    ...(chance(u, 0.3) ? { name: `${id} ${kind}` } : {}),
    ...(chance(u, 0.2) ? { nationality: chance(u, 0.7) ? side.nationality : pick(u, NATIONALITIES) } : {}),
    ...(chance(u, 0.1) ? { disordered: true } : {}),
    ...(chance(u, 0.2) ? { fatigue: int(u, 0, 3) } : {}),
  };
  if (kind === 'infantry') {
    const troopClass = pick(u, ['militia', 'green', 'line', 'light', 'grenadier', 'guard'] as const);
    const lightInfantry = troopClass === 'light' ? chance(u, 0.8) : chance(u, 0.1);
    const ranks = pick(u, [2, 3] as const);
    const formation = pick(u, [
      'line',
      'column',
      'column',
      'roadColumn',
      'square',
      ...(lightInfantry ? (['skirmish', 'skirmish'] as const) : []),
    ] as const);
    const rifle = lightInfantry && chance(u, 0.2);
    const r = rating(u, 'infantry', rifle);
    const fire = r.replace(/^[A-C]\d+/, '')[0];
    // a screen is 2" a figure [p.19]
    const figures =
      formation === 'skirmish'
        ? int(u, 2, small ? 4 : 8)
        : small
          ? int(u, 8, 16)
          : int(u, 12, chance(u, 0.2) ? 40 : 30);
    const columnFront = formation === 'column' && chance(u, 0.3) ? int(u, 2, Math.min(8, figures)) : undefined;
    const refused = formation === 'line' && chance(u, 0.2) ? pick(u, ['left', 'right'] as const) : undefined;
    // [p.24] a line deployed as a supported line, under the optional rule
    const supported = formation === 'line' && !refused && opts.supportedLine === true && chance(u, 0.4);
    const weapon =
      fire === 'R' ? (chance(u, 0.5) ? 'rifle' : undefined) : chance(u, 0.3) ? pick(u, ['musket', 'rifle']) : undefined;
    const spec: J = {
      ...common,
      kind,
      troopClass,
      ...(troopClass === 'guard' && chance(u, 0.7) ? { guard: pick(u, ['young', 'middle', 'old']) } : {}),
      ranks,
      ...(lightInfantry ? { lightInfantry } : chance(u, 0.2) ? { lightInfantry: false } : {}),
      ...(chance(u, 0.3) ? { organicSkirmishers: chance(u, 0.6) } : {}),
      ...(weapon ? { weapon } : {}),
      rating: r,
      figures,
      ...(columnFront ? { columnFront } : {}),
      formation,
      ...(refused ? { refused } : {}),
      ...(supported ? { supported } : formation === 'line' && chance(u, 0.1) ? { supported: false } : {}),
      // [p.20] sappers, with the optional fires only (the schema refuses them without)
      ...(opts.fires === true && chance(u, 0.25) ? { sappers: true } : {}),
    };
    return {
      spec,
      foot: { kind, formation, figures, ranks, columnFront, variant: { refused, supported } },
    };
  }
  if (kind === 'cavalry') {
    const weight = pick(u, ['light', 'medium', 'heavy'] as const);
    const skirmish = weight === 'light' && opts.lightCavalrySkirmish === true;
    const formation = pick(u, [
      'line',
      'column',
      'roadColumn',
      'echelon',
      ...(skirmish ? (['skirmish', 'skirmish'] as const) : []),
    ] as const);
    const figures = formation === 'skirmish' ? int(u, 2, small ? 4 : 6) : small ? int(u, 4, 10) : int(u, 6, 20);
    const columnFront = formation === 'column' && chance(u, 0.3) ? int(u, 2, Math.min(5, figures)) : undefined;
    const spec: J = {
      ...common,
      kind,
      weight,
      ...(chance(u, 0.1) ? { guard: true } : {}),
      ...(weight === 'light' && chance(u, 0.15) ? { cossack: true } : {}),
      ...(chance(u, 0.1) ? { british: true } : {}),
      ...(chance(u, 0.3) ? { carbines: chance(u, 0.7) } : {}),
      rating: rating(u, 'cavalry', false),
      figures,
      ...(columnFront ? { columnFront } : {}),
      formation,
      ...(formation === 'echelon' && chance(u, 0.7) ? { echelon: pick(u, ['left', 'right']) } : {}),
    };
    return { spec, foot: { kind, formation, figures, columnFront } };
  }
  const regimental = chance(u, 0.1);
  const arm = pick(u, ['foot', 'horse'] as const);
  const calibre = regimental ? '2-3lb' : pick(u, ['2-3lb', '4lb', '6lb', '8-9lb', '12lb'] as const);
  const byCannons = opts.neutralisedAt === 'cannons';
  let cannons = regimental ? int(u, 1, 2) : small ? int(u, 1, 4) : chance(u, 0.1) ? int(u, 9, 16) : int(u, 2, 8);
  let howitzers = regimental ? 0 : chance(u, 0.5) ? int(u, 1, small ? 1 : chance(u, 0.1) ? 6 : 2) : 0;
  // a howitzer-only battery, now and then (neutralised by its cannons it would start neutralised)
  if (!byCannons && !regimental && chance(u, 0.05)) {
    cannons = 0;
    howitzers = int(u, 1, 3);
  }
  const guardBattery = chance(u, 0.1);
  const formation = pick(u, ['limbered', 'unlimbered', 'unlimbered'] as const);
  const massed = formation === 'unlimbered' && cannons + howitzers >= 4 && chance(u, 0.2);
  const neutral = neutralisedAtHits(byCannons ? cannons : cannons + howitzers, guardBattery);
  // [p.20] with the optional fires: howitzers with incendiary shells; A-75 a rocket battery (launchers as cannons)
  const incendiary = opts.fires === true && howitzers > 0 && chance(u, 0.6);
  const rockets = opts.fires === true && howitzers === 0 && cannons > 0 && !regimental && chance(u, 0.25);
  const spec: J = {
    ...common,
    kind,
    arm,
    calibre,
    cannons,
    ...(howitzers || chance(u, 0.3) ? { howitzers } : {}),
    ...(regimental ? { regimental } : {}),
    ...(guardBattery ? { guardBattery } : {}),
    rating: rating(u, 'artillery', false),
    formation,
    ...(massed ? { massed } : formation === 'unlimbered' && chance(u, 0.1) ? { massed: false } : {}),
    ...(chance(u, 0.15) && neutral > 1 ? { hits: int(u, 1, neutral - 1) } : {}),
    ...(chance(u, 0.15) ? { ammo: int(u, 0, 3) } : {}),
    ...(incendiary ? { incendiary } : {}),
    ...(rockets ? { rockets } : {}),
  };
  return { spec, foot: { kind, formation, guns: cannons + howitzers, variant: { massed } } };
}

/** A simple polygon star-shaped about (cx, cy), wholly within [0.5, W-0.5] × [0.5, H-0.5]. */
function blob(u: Uniform, cx: number, cy: number, r: number, W: number, H: number): Pt[] {
  const room = Math.min(cx - 0.5, W - 0.5 - cx, cy - 0.5, H - 0.5 - cy);
  const R = Math.max(1, Math.min(r, room));
  const k = int(u, 3, 7);
  const step = (2 * Math.PI) / k;
  const a0 = real(u, 0, step);
  const pts: Pt[] = [];
  for (let i = 0; i < k; i++) {
    const a = a0 + i * step + real(u, -0.25, 0.25) * step;
    const rr = R * real(u, 0.6, 1);
    pts.push([roundTo(cx + rr * Math.cos(a), 0.1), roundTo(cy + rr * Math.sin(a), 0.1)]);
  }
  return chance(u, 0.5) ? pts : pts.reverse();
}

function insidePoly([x, y]: Pt, poly: readonly Pt[]): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/** The river's across-coordinate b at along-coordinate a (its points ordered by a). */
function riverAt(points: readonly Pt[], a: number): number {
  for (let i = 1; i < points.length; i++) {
    const [a0, b0] = points[i - 1]!;
    const [a1, b1] = points[i]!;
    if (a <= a1) return b0 + ((b1 - b0) * (a - a0)) / (a1 - a0 || 1);
  }
  return points[points.length - 1]![1];
}

export function randomScenario(u: Uniform): unknown {
  const width = int(u, 24, 48);
  const height = int(u, 24, 36);
  const edge0 = pick(u, ['south', 'north', 'west', 'east'] as const);
  // the local frame: side 0 at b = 0 facing 0° (up b), side 1 at b = D; a runs across, 0..A
  const northSouth = edge0 === 'south' || edge0 === 'north';
  const A = northSouth ? width : height;
  const D = northSouth ? height : width;
  const rot = { south: 0, north: 180, west: 90, east: 270 }[edge0];
  const T = ([a, b]: Pt): Pt =>
    edge0 === 'south' ? [a, b] : edge0 === 'north' ? [A - a, D - b] : edge0 === 'west' ? [b, A - a] : [D - b, a];
  const Tpoly = (ps: readonly Pt[]): Pt[] => ps.map((p) => T(p));
  const zone = Math.max(7, Math.floor(D / 3));

  const options = randomOptions(u);
  const terrain: J[] = [];
  const areaIds: string[] = []; // polygon pieces an objective may name
  let nid = 0;
  const tid = (p: string) => `${p}${++nid}`;

  // ----- linear features: a road from edge to edge, a river across the middle or along a flank -----
  let road: { id: string; points: Pt[] } | null = null;
  if (chance(u, 0.5)) {
    const a0 = q(real(u, 3, A - 3));
    const mid = q(Math.min(A - 2, Math.max(2, a0 + real(u, -4, 4))));
    const a1 = q(Math.min(A - 2, Math.max(2, mid + real(u, -4, 4))));
    road = {
      id: tid('road'),
      points: [
        [a0, 0],
        [mid, D / 2],
        [a1, D],
      ],
    };
    terrain.push({
      type: 'road',
      id: road.id,
      ...(chance(u, 0.2) ? { name: 'the chaussée' } : {}),
      points: Tpoly(road.points),
    });
  }
  const rivers: Pt[][] = []; // world polylines units keep clear of
  const blocksAt: Pt[] = []; // local south-west corners
  if (chance(u, 0.45)) {
    const id = tid('river');
    const across = chance(u, 0.65);
    // local points: across the table at b ≈ D/2 (a from 0 to A), or along it near a flank (b from 0 to D)
    let local: Pt[];
    if (across) {
      const b = D / 2;
      local = [
        [0, q(b + real(u, -1.5, 1.5))],
        [q(A / 2 + real(u, -3, 3)), q(b + real(u, -1.5, 1.5))],
        [A, q(b + real(u, -1.5, 1.5))],
      ];
    } else {
      const a = chance(u, 0.5) ? q(real(u, 1.5, 4)) : q(A - real(u, 1.5, 4));
      local = [
        [a, 0],
        [a, D],
      ];
    }
    const river: J = { type: 'river', id, points: Tpoly(local) };
    if (chance(u, 0.5)) river.width = pick(u, [0.5, 1, 2, 3]);
    if (chance(u, 0.5)) river.crossable = chance(u, 0.7);
    if (chance(u, 0.5)) river.actionsToCross = int(u, 1, 4);
    if (chance(u, 0.5)) river.disorders = chance(u, 0.5);
    terrain.push(river);
    rivers.push(river.points as Pt[]);
    if (across) {
      // a bridge where the road crosses (else anywhere), sometimes a ford
      const decks: number[] = [];
      if (road || chance(u, 0.6)) {
        const a = road ? road.points[1]![0] : q(real(u, 3, A - 3));
        const b = riverAt(local, a);
        const bid = tid('bridge');
        terrain.push({
          type: 'bridge',
          id: bid,
          river: id,
          ...(road ? { road: road.id } : {}),
          polygon: Tpoly([
            [q(a - 1), q(b - 1)],
            [q(a + 1), q(b - 1)],
            [q(a + 1), q(b + 1)],
            [q(a - 1), q(b + 1)],
          ]),
          capacity: int(u, 4, 12),
        });
        areaIds.push(bid);
        decks.push(a);
      }
      if (chance(u, 0.6)) {
        const a = q(real(u, 2, A - 2));
        if (!decks.some((d) => Math.abs(d - a) < 3)) {
          const b = riverAt(local, a);
          const ford: J = {
            type: 'ford',
            id: tid('ford'),
            river: id,
            polygon: Tpoly([
              [q(a - 1.5), q(b - 0.75)],
              [q(a + 1.5), q(b - 0.75)],
              [q(a + 1.5), q(b + 0.75)],
              [q(a - 1.5), q(b + 0.75)],
            ]),
          };
          if (chance(u, 0.5)) ford.actionsToCross = int(u, 1, 4);
          if (chance(u, 0.5)) ford.disorders = chance(u, 0.5);
          terrain.push(ford);
        }
      }
    }
  }

  // ----- area terrain -----
  const area = (type: string, extra: (poly: Pt[]) => J, r: number) => {
    const cx = real(u, 2, A - 2);
    const cy = real(u, 2, D - 2);
    const poly = blob(u, cx, cy, r, A, D);
    const id = tid(type);
    terrain.push({
      type,
      id,
      ...(chance(u, 0.15) ? { name: `the ${type}` } : {}),
      polygon: Tpoly(poly),
      ...extra(poly),
    });
    areaIds.push(id);
  };
  for (let i = int(u, 0, 2); i > 0; i--)
    area(
      'hill',
      (poly) => {
        const x: J = {};
        if (chance(u, 0.6))
          x.level = weighted(u, [
            [1, 4],
            [2, 2],
            [3, 1],
            [4, 1],
            [5, 1],
          ] as const);
        if (chance(u, 0.6)) x.slope = pick(u, ['gentle', 'steep', 'extreme']);
        if (chance(u, 0.5)) {
          // a crest through the middle, kept when it lies on the hill
          const c: Pt = [
            poly.reduce((s, p) => s + p[0], 0) / poly.length,
            poly.reduce((s, p) => s + p[1], 0) / poly.length,
          ];
          const h = real(u, 0, Math.PI);
          const ridge: Pt[] = [-0.8, 0.8].map(
            (t): Pt => [roundTo(c[0] + t * Math.cos(h), 0.1), roundTo(c[1] + t * Math.sin(h), 0.1)],
          );
          if (ridge.every((p) => insidePoly(p, poly))) x.ridge = Tpoly(ridge);
        }
        return x;
      },
      real(u, 3, 7),
    );
  for (let i = int(u, 0, 2); i > 0; i--) area('woods', () => ({ density: pick(u, ['light', 'dense']) }), real(u, 2, 5));
  if (chance(u, 0.4))
    area(
      'mud',
      () => (chance(u, 0.7) ? { ground: pick(u, ['mud', 'softGround', 'sand', 'marsh']) } : {}),
      real(u, 2, 4),
    );
  if (chance(u, 0.4)) area('fields', () => ({}), real(u, 2, 5));
  for (const type of ['wall', 'hedge'] as const)
    if (chance(u, 0.4)) {
      const a = real(u, 2, A - 8);
      const b = real(u, zone, D - zone);
      const pts: Pt[] = [
        [q(a), q(b)],
        [q(a + real(u, 3, 6)), q(b + real(u, -1, 1))],
      ];
      if (chance(u, 0.4)) pts.push([q(pts[1]![0] + real(u, 0, 1)), q(Math.min(D - 1, pts[1]![1] + real(u, 1, 3)))]);
      const flag = type === 'wall' ? 'redoubt' : 'prepared';
      terrain.push({ type, id: tid(type), points: Tpoly(pts), ...(chance(u, 0.4) ? { [flag]: chance(u, 0.5) } : {}) });
    }
  // building blocks: a village of touching blocks or a few apart, mostly between the zones
  for (let i = int(u, 0, 3), tries = 0; i > 0 && tries < 20; tries++) {
    const last = blocksAt[blocksAt.length - 1];
    const sw: Pt =
      last && chance(u, 0.5)
        ? pick(u, [
            [last[0] + 4, last[1]],
            [last[0], last[1] + 4],
            [last[0] - 4, last[1]],
          ] as Pt[])
        : [q(real(u, 0.5, A - 4.5)), q(real(u, zone - 3, D - zone - 1))];
    if (sw[0] < 0 || sw[0] > A - 4 || sw[1] < 0 || sw[1] > D - 4) continue;
    if (blocksAt.some((b) => Math.abs(b[0] - sw[0]) < 4 && Math.abs(b[1] - sw[1]) < 4)) continue;
    const localBox: Pt[] = [sw, [sw[0] + 4, sw[1]], [sw[0] + 4, sw[1] + 4], [sw[0], sw[1] + 4]].map((p) => p as Pt);
    if (rivers.some((r) => polygonPolylineDistance(Tpoly(localBox).map(vec), r.map(vec)) < 0.5)) continue;
    blocksAt.push(sw);
    const w = Tpoly(localBox);
    const id = tid('block');
    terrain.push({
      type: 'block',
      id,
      ...(chance(u, 0.3) ? { name: 'a farm' } : {}),
      sw: [Math.min(...w.map((p) => p[0])), Math.min(...w.map((p) => p[1]))],
      ...(chance(u, 0.5) ? { brickOrStone: chance(u, 0.5) } : {}),
      ...(chance(u, 0.3) ? { wallSides: shuffle(u, ['N', 'E', 'S', 'W']).slice(0, int(u, 1, 4)) } : {}),
      ...(chance(u, 0.15) ? { fires: int(u, 0, 4) } : {}),
    });
    i--;
  }

  // ----- what units keep clear of (world frame) -----
  const blockPolys = terrain
    .filter((t) => t.type === 'block')
    .map((t) => {
      const [x, y] = t.sw as Pt;
      return [vec([x, y]), vec([x + 4, y]), vec([x + 4, y + 4]), vec([x, y + 4])];
    });
  const lines = terrain
    .filter((t) => t.type === 'river' || t.type === 'wall' || t.type === 'hedge')
    .map((t) => (t.points as Pt[]).map(vec));
  const dense = terrain
    .filter((t) => t.type === 'woods' && t.density === 'dense')
    .map((t) => (t.polygon as Pt[]).map(vec));
  const placed: Vec[][] = [];
  const fits = (poly: Vec[], kind: string): boolean =>
    poly.every((p) => p.x >= 0.25 && p.x <= width - 0.25 && p.y >= 0.25 && p.y <= height - 0.25) &&
    !blockPolys.some((b) => polygonDistance(poly, b) < 0.5) &&
    !lines.some((l) => polygonPolylineDistance(poly, l) < 0.5) &&
    (kind === 'infantry' || !dense.some((d) => polygonsOverlap(poly, d))) &&
    !placed.some((p) => polygonDistance(poly, p) < 0.5);

  // ----- the sides -----
  const sides: J[] = [];
  let prussian1806 = false;
  for (const s of [0, 1] as const) {
    const P = s === 0 ? 'A' : 'B';
    const nationality = pick(u, NATIONALITIES);
    const homeEdge = s === 0 ? edge0 : OPPOSITE[edge0];
    const doctrine: J = {};
    if (nationality === 'french' && chance(u, 0.6)) doctrine.frenchPost1807 = chance(u, 0.7);
    if (nationality === 'prussian' && chance(u, 0.6)) doctrine.prussian1806 = chance(u, 0.6);
    if (nationality === 'austrian' && chance(u, 0.6)) doctrine.austrianMass = chance(u, 0.7);
    if (['french', 'austrian', 'russian'].includes(nationality) && chance(u, 0.8))
      doctrine.grandBatteryAllowed = chance(u, 0.85);
    if (doctrine.prussian1806) prussian1806 = true;
    // [p.10] A-56: a side allowed grand batteries often brings more guns, so that one can be formed in play (two
    // unlimbered batteries for an appointment, or a battery within a grand battery commander's radius to join)
    const massGuns = doctrine.grandBatteryAllowed === true && chance(u, 0.6);
    const napoleon = nationality === 'french' && chance(u, 0.3);

    // units: front-edge centres in the zone, facing the enemy (now and then a wheel or a flank)
    const units: J[] = [];
    const want = int(u, 2, 6);
    for (let k = 0; units.length < want && k < want + 4; k++) {
      const id = `${P}${units.length + 1}`;
      for (let tries = 0; tries < 60; tries++) {
        const d = unitDraft(u, id, { nationality }, options, tries >= 20, massGuns);
        const turn =
          d.spec.formation === 'square'
            ? int(u, 0, 359)
            : chance(u, 0.1)
              ? pick(u, [90, 270])
              : chance(u, 0.3)
                ? int(u, -30, 30)
                : 0;
        const local = ((((s === 0 ? 0 : 180) + turn) % 360) + 360) % 360;
        const facing = (local + rot) % 360;
        const a = q(real(u, 1, A - 1));
        const b = s === 0 ? q(real(u, 1, zone)) : q(real(u, D - zone, D - 1));
        const [x, y] = T([a, b]);
        const poly = rectCorners(footprintRect(x, y, facing, footprintSize(d.foot)));
        if (!fits(poly, d.spec.kind as string)) continue;
        placed.push(poly);
        units.push({ ...d.spec, x, y, facing });
        break;
      }
    }

    // leaders: the army commander, sometimes a corps and a grand battery commander, 1-2 divisions
    const leaders: J[] = [];
    const at = (): J => {
      const [x, y] = T([q(real(u, 1, A - 1)), s === 0 ? q(real(u, 0.5, zone)) : q(real(u, D - zone, D - 0.5))]);
      return { x, y };
    };
    const place = (): J => (chance(u, 0.4) && units.length ? { attached: pick(u, units).id } : at());
    const common = (rank: string): J => ({
      ...(chance(u, 0.3) ? { moraleBonus: int(u, 0, 5) } : {}),
      ...(chance(u, 0.3) ? { meleeBonus: pick(u, [0, 5, 10, 15]) } : {}),
      ...(rank !== 'army' && chance(u, 0.3) ? { initiative: int(u, 2, 10) } : {}),
      ...(chance(u, 0.15) ? { misread: int(u, 0, 2) } : {}),
      ...(chance(u, 0.15) ? { spyglass: true } : {}),
      ...(chance(u, 0.1) ? { staffOfficer: true } : {}),
    });
    const army = `${P}-army`;
    leaders.push({
      id: army,
      ...(chance(u, 0.3) ? { name: napoleon ? 'Napoleon' : 'the commander-in-chief' } : {}),
      rank: 'army',
      radius: chance(u, 0.85) ? int(u, 35, 45) : int(u, 20, 100),
      ...common('army'),
      ...place(),
    });
    let top = army;
    if (chance(u, 0.35)) {
      top = `${P}-corps`;
      leaders.push({ id: top, rank: 'corps', superior: army, radius: int(u, 15, 30), ...common('corps'), ...place() });
    }
    const divisions: string[] = [];
    for (let i = 1, n = int(u, 1, 2); i <= n; i++) {
      const id = `${P}-div${i}`;
      divisions.push(id);
      leaders.push({
        id,
        rank: 'division',
        superior: chance(u, 0.8) ? top : army,
        radius: chance(u, 0.85) ? int(u, 10, 20) : real(u, 5, 30),
        ...common('division'),
        ...place(),
      });
    }
    const guns = units.filter((x) => x.kind === 'artillery');
    const grand = doctrine.grandBatteryAllowed === true && guns.length > 0 && chance(u, 0.4) ? `${P}-grand` : undefined;
    // a grand battery commander, often among the guns (A-56: batteries within his radius may join at step 1)
    const amid = (): J => {
      const g = pick(u, guns);
      return { x: roundTo(Math.min(width - 0.5, Math.max(0.5, (g.x as number) + real(u, -4, 4))), 0.5), y: g.y };
    };
    if (grand)
      leaders.push({
        id: grand,
        rank: 'grandBattery',
        superior: top,
        radius: int(u, 6, 15),
        ...common('grandBattery'),
        ...(chance(u, 0.5) ? amid() : place()),
      });
    for (const x of units) {
      const byCorps = top !== army && chance(u, 0.1);
      x.commander = grand && x.kind === 'artillery' && chance(u, 0.7) ? grand : byCorps ? top : pick(u, divisions);
    }
    // the leader fields are listed after the unit ids they name; a unit's commander goes by its other fields
    const turnPoints = weighted(u, [
      [undefined, 3],
      [20, 2],
      [int(u, 10, 30), 3],
      [int(u, 0, 5), 1],
    ] as const);
    sides.push({
      name: s === 0 ? 'First army' : 'Second army',
      nationality,
      homeEdge,
      ...(turnPoints === undefined ? {} : { turnPoints }),
      ...(Object.keys(doctrine).length ? { doctrine } : {}),
      ...(napoleon
        ? { napoleonPresent: true, ...(chance(u, 0.5) ? { napoleonArmyCommander: chance(u, 0.6) } : {}) }
        : {}),
      leaders,
      units,
      // [p.11] caissons (with the rule): 0-2 in the deployment zone, some already serving a battery
      ...(options.caissons === true
        ? {
            caissons: Array.from({ length: int(u, 0, 2) }, (_, i) => {
              const [x, y] = T([q(real(u, 1, A - 1)), s === 0 ? q(real(u, 1, zone)) : q(real(u, D - zone, D - 1))]);
              const gun = units.find((x) => x.kind === 'artillery');
              return {
                id: `${P}-caisson${i + 1}`,
                x,
                y,
                facing: ((((s === 0 ? 0 : 180) + rot) % 360) + 360) % 360,
                ...(gun && chance(u, 0.2) ? { servicing: gun.id } : {}),
              };
            }),
          }
        : chance(u, 0.2)
          ? { caissons: [] }
          : {}),
    });
  }

  // ----- victory -----
  const objectives: J[] = [];
  const blockIds = terrain.filter((t) => t.type === 'block').map((t) => t.id as string);
  for (let i = int(u, 0, 4); i > 0; i--) {
    const kind = pick(u, ['polygon', 'block', 'terrain'] as const);
    const o: J = { id: `obj${objectives.length + 1}`, vp: chance(u, 0.9) ? int(u, 1, 5) : int(u, 0, 50) };
    if (kind === 'block' && blockIds.length) o.block = pick(u, blockIds);
    else if (kind === 'terrain' && areaIds.length) o.terrain = pick(u, areaIds);
    else o.polygon = Tpoly(blob(u, real(u, 3, A - 3), real(u, zone, D - zone), real(u, 1.5, 4), A, D));
    if (chance(u, 0.3)) o.name = `objective ${objectives.length + 1}`;
    if (chance(u, 0.4)) o.within = pick(u, [0, 1, 2, 3, 6, 12]);
    if (chance(u, 0.4)) o.hold = pick(u, ['lastHeld', 'present']);
    objectives.push(o);
  }
  const victory: J = {};
  for (const k of ['unitLost', 'guardUnitLost', 'retreatingAtEnd', 'batteryGunsLost', 'leaderLost', 'drawMargin'])
    if (chance(u, 0.3)) victory[k] = int(u, 0, 5);
  if (chance(u, 0.3)) victory.suddenDeath = chance(u, 0.5);
  if (objectives.length || chance(u, 0.5)) victory.objectives = objectives;

  const year = chance(u, 0.6) ? (prussian1806 ? int(u, 1792, 1806) : int(u, 1792, 1815)) : undefined;
  return {
    ruleset: 'napoleons-eagles',
    id: `generated-${int(u, 0, 999_999_999)}`,
    title: 'A generated battle',
    ...(chance(u, 0.3) ? { description: 'Drawn by the scenario generator.' } : {}),
    ...(year === undefined ? {} : { year }),
    table: { width, height },
    turns: int(u, 1, 3),
    // [p.20] weather other than clear needs the optional rule
    ...(options.weather === true
      ? { weather: pick(u, ['clear', 'lightRain', 'heavyRain', 'lightSnow', 'heavySnow', 'hot']) }
      : chance(u, 0.3)
        ? { weather: 'clear' }
        : {}),
    ...(chance(u, 0.4) ? { windFrom: pick(u, ['N', 'E', 'S', 'W']) } : {}),
    terrain,
    sides,
    victory,
    options,
  };
}
