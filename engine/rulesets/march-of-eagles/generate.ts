/**
 * Random scenarios for The March of Eagles (`Game.randomScenario`): everything the scenario format allows is varied —
 * the table, turns, points budgets, armies of exactly the budget (qualities and their synonyms, sizes, Characters,
 * Light and rifle battalions, from one big battalion to hordes of small Green ones), terrain of every kind, objectives
 * and the victory rule, both deployment modes (alternate, and fixed set-ups with formations, facings, skirmish screens
 * and Supreme Commanders) and the rules options.
 *
 * The generator aims at valid files but does not call the validator: the generated-scenario soak validates each
 * scenario and reports what it refuses, so a drift between generator and validator shows up as refusals there. Pure:
 * every draw comes from `u`.
 */
import { type Uniform, chance, int, pick, real, roundTo, shuffle, subset, weighted } from '../../core/draw.ts';
import { type BattalionSpec, battalionPoints, maxSkirmishers, qualityIndex } from './scenario.ts';
import { drawTerrain } from './generate-terrain.ts';

type Quality = BattalionSpec['quality'];
type Nationality = 'British' | 'French' | 'Other';
type Pt = [number, number];

/** A battalion as the file states it, with every field present (the file may leave defaults out). */
interface Bat {
  id: string;
  name: string;
  quality: Quality;
  rankers: number;
  drummers: number;
  sergeants: number;
  ensigns: number;
  officer: number;
  light: boolean;
  rifles: boolean;
}

const LADDER: readonly Quality[] = ['Green', 'Drilled', 'Veteran', 'Guards'];
/** [Unit quality] the file accepts three names for the third level; a Light battalion must be one of them. */
const veteranName = (u: Uniform): Quality =>
  weighted(u, [
    ['Veteran', 6],
    ['Veterans', 2],
    ['Grizzled', 2],
  ]);

// ---------------------------------------------------------------------------------------------
// Armies of exactly the budget
// ---------------------------------------------------------------------------------------------

type Style = 'mixed' | 'horde' | 'elite';

function cost(bats: readonly Bat[], british: boolean): number {
  return bats.reduce((t, b) => t + battalionPoints(b, british), 0);
}

/** The cheapest a battalion can be made by stripping it (Light ones stay Veteran). */
function floorCost(b: Bat, british: boolean): number {
  return battalionPoints(
    {
      ...b,
      rankers: 16,
      quality: b.light ? b.quality : 'Green',
      drummers: 0,
      sergeants: 0,
      ensigns: 0,
      officer: 0,
      rifles: false,
    },
    british,
  );
}

/**
 * Every battalion one step dearer (`dir` 1) or cheaper (-1): a group of four Rankers, a Character, a quality level,
 * rifles. Hordes stay Green and small, so their points go to more battalions and Characters.
 */
function variants(b: Bat, british: boolean, dir: 1 | -1, style: Style): Bat[] {
  const out: Bat[] = [];
  const q = qualityIndex(b.quality);
  const maxRankers = b.light ? 36 : style === 'horde' ? 24 : 48;
  if (dir > 0) {
    if (b.rankers + 4 <= maxRankers) out.push({ ...b, rankers: b.rankers + 4 });
    if (b.drummers < 2) out.push({ ...b, drummers: b.drummers + 1 });
    if (b.sergeants < 2) out.push({ ...b, sergeants: b.sergeants + 1 });
    if (b.ensigns < (british ? 2 : 1)) out.push({ ...b, ensigns: b.ensigns + 1 });
    if (!b.officer) out.push({ ...b, officer: 1 });
    if (!b.light && style !== 'horde' && q < 3) out.push({ ...b, quality: LADDER[q + 1]! });
    if (british && b.light && !b.rifles) out.push({ ...b, rifles: true });
  } else {
    if (b.rankers - 4 >= 16) out.push({ ...b, rankers: b.rankers - 4 });
    if (b.drummers) out.push({ ...b, drummers: b.drummers - 1 });
    if (b.sergeants) out.push({ ...b, sergeants: b.sergeants - 1 });
    if (b.ensigns) out.push({ ...b, ensigns: b.ensigns - 1 });
    if (b.officer) out.push({ ...b, officer: 0 });
    if (!b.light && q > 0) out.push({ ...b, quality: LADDER[q - 1]! });
    if (b.rifles) out.push({ ...b, rifles: false });
  }
  return out;
}

function drawBattalion(u: Uniform, id: string, name: string, british: boolean, light: boolean, style: Style): Bat {
  const quality: Quality = light
    ? veteranName(u)
    : style === 'horde'
      ? 'Green'
      : style === 'elite'
        ? weighted<Quality>(u, [
            ['Drilled', 1],
            ['Veteran', 3],
            ['Veterans', 1],
            ['Guards', 3],
          ])
        : weighted<Quality>(u, [
            ['Green', 3],
            ['Drilled', 4],
            ['Veteran', 2],
            ['Veterans', 0.5],
            ['Grizzled', 0.5],
            ['Guards', 1.5],
          ]);
  const rankers =
    4 * (light ? int(u, 4, 9) : style === 'horde' ? int(u, 4, 5) : style === 'elite' ? int(u, 8, 12) : int(u, 4, 12));
  return {
    id,
    name,
    quality,
    rankers,
    drummers: weighted(u, [
      [0, 5],
      [1, 3],
      [2, 2],
    ]),
    sergeants: weighted(u, [
      [0, 5],
      [1, 3],
      [2, 2],
    ]),
    ensigns: chance(u, 0.3) ? (british && chance(u, 0.4) ? 2 : 1) : 0,
    officer: chance(u, 0.3) ? 1 : 0,
    light,
    rifles: british && light && chance(u, 0.6),
  };
}

/**
 * Battalions costing exactly `budget`: cheapen at random while over it, then spend what is left one step at a time
 * without overshooting (every cost is even and a Green group or a drummer costs 2, so the last steps nearly always
 * land); an extra battalion when nothing else fits. Null when it does not land: the caller draws again.
 */
function fitBudget(
  u: Uniform,
  start: Bat[],
  british: boolean,
  budget: number,
  style: Style,
  newBat: () => Bat,
): Bat[] | null {
  let bats = [...start];
  while (bats.length > 1 && bats.reduce((t, b) => t + floorCost(b, british), 0) > budget) {
    const i = bats.findIndex((b) => !b.light);
    bats.splice(i >= 0 ? i : bats.length - 1, 1);
  }
  if (bats.reduce((t, b) => t + floorCost(b, british), 0) > budget) return null;
  for (let guard = 0; guard < 5000; guard++) {
    const total = cost(bats, british);
    if (total === budget) return bats;
    if (total > budget) {
      const i = pick(
        u,
        bats.map((_, k) => k).filter((k) => variants(bats[k]!, british, -1, style).length),
      );
      bats = bats.map((b, k) => (k === i ? pick(u, variants(b, british, -1, style)) : b));
      continue;
    }
    const room = budget - total;
    const ups = bats.flatMap((b, k) =>
      variants(b, british, 1, style)
        .filter((v) => battalionPoints(v, british) - battalionPoints(b, british) <= room)
        .map((v) => [k, v] as const),
    );
    if (ups.length && !(style === 'horde' && room >= 24 && chance(u, 0.5))) {
      const [k, v] = pick(u, ups);
      bats = bats.map((b, j) => (j === k ? v : b));
      continue;
    }
    const extra = {
      ...newBat(),
      rankers: 16,
      quality: 'Green' as Quality,
      drummers: 0,
      sergeants: 0,
      ensigns: 0,
      officer: 0,
      light: false,
      rifles: false,
    };
    if (battalionPoints(extra, british) > room || bats.length >= 20) return null;
    bats = [...bats, extra];
  }
  return null;
}

const ORDINALS = [
  '1st',
  '2nd',
  '3rd',
  '4th',
  '5th',
  '6th',
  '7th',
  '8th',
  '9th',
  '10th',
  '11th',
  '12th',
  '13th',
  '14th',
  '15th',
  '16th',
  '17th',
  '18th',
  '19th',
  '20th',
];

function battalionNaming(
  u: Uniform,
  side: 'A' | 'B',
  nat: Nationality,
): { id: (i: number) => string; name: (i: number) => string } {
  const letter = nat[0]!;
  // ids are 1–12 letters, digits, _ or -, starting with a letter, unique across both armies: the side letter keeps them apart
  const id = pick<(i: number) => string>(u, [
    (i) => `${side}${i + 1}`,
    (i) => `${side}-${i + 1}`,
    (i) => `${letter}${side}${i + 1}`,
    (i) => `${side}bn_${i + 1}`,
  ]);
  const name = pick<(i: number) => string>(u, [
    (i) => `${ORDINALS[i] ?? `${i + 1}th`} Battalion`,
    (i) => (nat === 'French' ? `Bataillon ${i + 1}` : `${ORDINALS[i] ?? `${i + 1}th`} Foot`),
    (i) => `${side}${i + 1}`,
  ]);
  return { id, name };
}

function drawArmy(u: Uniform, side: 'A' | 'B', nat: Nationality, budget: number): Bat[] {
  const british = nat === 'British';
  const naming = battalionNaming(u, side, nat);
  for (let attempt = 0; attempt < 40; attempt++) {
    const style = weighted<Style>(u, [
      ['mixed', 7],
      ['horde', 1.5],
      ['elite', 1.5],
    ]);
    const n =
      style === 'horde'
        ? int(u, 8, 14)
        : style === 'elite'
          ? int(u, 2, 4)
          : weighted(
              u,
              [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((k) => [k, k <= 2 || k >= 10 ? 1 : 3] as const),
            );
    const lightAt = style !== 'horde' && chance(u, 0.5) ? int(u, 0, n - 1) : -1;
    let next = n;
    const start = Array.from({ length: n }, (_, i) =>
      drawBattalion(u, naming.id(i), naming.name(i), british, i === lightAt, style),
    );
    const newBat = () => {
      const i = next++;
      return drawBattalion(u, naming.id(i), naming.name(i), british, false, style);
    };
    const bats = fitBudget(u, start, british, budget, style, newBat);
    if (bats) return bats;
  }
  // a fallback that lands on any even budget of 8 or more: Green battalions of 16–48 Rankers (8–24 points each)
  const out: Bat[] = [];
  for (let left = budget; left > 0; ) {
    const part = left <= 24 ? left : left - 24 >= 8 ? 24 : left - 8;
    out.push({
      id: naming.id(out.length),
      name: naming.name(out.length),
      quality: 'Green',
      rankers: part * 2,
      drummers: 0,
      sergeants: 0,
      ensigns: 0,
      officer: 0,
      light: false,
      rifles: false,
    });
    left -= part;
  }
  return out;
}

/** The battalion as a file states it: defaults sometimes written, sometimes left out. */
function battalionJson(u: Uniform, b: Bat): Record<string, unknown> {
  const explicit = chance(u, 0.2);
  const o: Record<string, unknown> = { id: b.id, name: b.name, quality: b.quality, rankers: b.rankers };
  for (const k of ['drummers', 'sergeants', 'ensigns', 'officer'] as const) if (b[k] || explicit) o[k] = b[k];
  for (const k of ['light', 'rifles'] as const) if (b[k] || explicit) o[k] = b[k];
  return o;
}

// ---------------------------------------------------------------------------------------------
// Terrain
// ---------------------------------------------------------------------------------------------

/** M2/M3 footprint sizes in inches: a group of four Rankers is a 1.6" stand; a screen is 0.8" deep. */
const STAND = 1.6;
const SCREEN_DEPTH = 0.8;
/** Gaps of screens from their battalion (shape.ts): 2" in front or behind, 6" for a Light battalion, 1" on a flank. */
const SCREEN_GAP = 2;
const LIGHT_GAP = 6;
const FLANK_GAP = 1;
/** Room kept between placed battalions and off the zone's edges: the check is on rounded coordinates, so stay clear. */
const MARGIN = 0.4;

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * The battalion's footprint with its screen, in its own frame (u to its right, v to its front), as a box that holds
 * both: conservative, so boxes that do not meet mean footprints that do not meet.
 */
function localBox(b: Bat, formation: 'Line' | 'Column', sk: number, screen: string | undefined): Box {
  const groups = Math.max(1, Math.ceil((b.rankers - sk) / 4));
  const w = (formation === 'Line' ? groups : Math.min(2, groups)) * STAND;
  const d = (formation === 'Line' ? 1 : Math.ceil(groups / 2)) * STAND;
  const box: Box = { x0: -w / 2, x1: w / 2, y0: -d / 2, y1: d / 2 };
  if (!sk) return box;
  const sw = Math.max(w, 0.8 * sk);
  const pos = b.light ? 'front' : screen;
  if (pos === 'front')
    return {
      x0: Math.min(box.x0, -sw / 2),
      x1: Math.max(box.x1, sw / 2),
      y0: box.y0,
      y1: d / 2 + (b.light ? LIGHT_GAP : SCREEN_GAP) + SCREEN_DEPTH,
    };
  if (pos === 'rear')
    return {
      x0: Math.min(box.x0, -sw / 2),
      x1: Math.max(box.x1, sw / 2),
      y0: -d / 2 - SCREEN_GAP - SCREEN_DEPTH,
      y1: box.y1,
    };
  if (pos === 'left') return { ...box, x0: -w / 2 - FLANK_GAP - sw };
  return { ...box, x1: w / 2 + FLANK_GAP + sw };
}

/** The local box turned to heading `h` (a multiple of 90°, clockwise from north) about the centre (cx, cy). */
function worldBox(l: Box, h: number, cx: number, cy: number): Box {
  switch (((h % 360) + 360) % 360) {
    case 0:
      return { x0: cx + l.x0, x1: cx + l.x1, y0: cy + l.y0, y1: cy + l.y1 };
    case 90: // front to the east: local v → +x, local u (right) → −y
      return { x0: cx + l.y0, x1: cx + l.y1, y0: cy - l.x1, y1: cy - l.x0 };
    case 180:
      return { x0: cx - l.x1, x1: cx - l.x0, y0: cy - l.y1, y1: cy - l.y0 };
    default: // 270: front to the west
      return { x0: cx - l.y1, x1: cx - l.y0, y0: cy + l.x0, y1: cy + l.x1 };
  }
}

const meets = (a: Box, b: Box, gap: number) =>
  a.x0 < b.x1 + gap && b.x0 < a.x1 + gap && a.y0 < b.y1 + gap && b.y0 < a.y1 + gap;

function boxOf(poly: readonly Pt[]): Box {
  return {
    x0: Math.min(...poly.map((p) => p[0])),
    x1: Math.max(...poly.map((p) => p[0])),
    y0: Math.min(...poly.map((p) => p[1])),
    y1: Math.max(...poly.map((p) => p[1])),
  };
}

/**
 * A fixed set-up for one side in its zone (the 12" strip along its edge [Setting up a battle]): each battalion at a
 * random spot, formation, facing (mostly toward the enemy) and skirmish screen, clear of the others and of buildings.
 * A battalion that does not fit sheds its skirmishers, then forms column; null when the side still does not fit.
 */
function fixedSide(
  u: Uniform,
  bats: readonly Bat[],
  edge: 'south' | 'north',
  W: number,
  H: number,
  blocked: readonly Box[],
): Record<string, unknown> | null {
  const zone = edge === 'south' ? { y0: 0, y1: H / 2 - 12 } : { y0: H / 2 + 12, y1: H };
  const toEnemy = edge === 'south' ? 0 : 180;
  const placed: Box[] = [];
  const out: Record<string, unknown>[] = [];
  for (const b of shuffle(u, bats)) {
    let done = false;
    for (let t = 0; t < 60 && !done; t++) {
      const squeeze = t >= 40; // late tries: the narrowest layout
      const formation = squeeze || chance(u, 0.4) ? 'Column' : 'Line';
      const facing = chance(u, 0.8) ? toEnemy : pick(u, [0, 90, 180, 270]);
      const max = maxSkirmishers(b.rankers, b.light);
      const sk = !squeeze && t < 20 && chance(u, b.light ? 0.6 : 0.35) ? int(u, 1, max) : 0;
      const screen =
        sk && !b.light
          ? pick(u, ['front', 'left', 'right', 'rear'] as const)
          : b.light && sk && chance(u, 0.3)
            ? 'front'
            : undefined;
      const l = localBox(b, formation, sk, screen);
      const rel = worldBox(l, facing, 0, 0);
      const xlo = MARGIN - rel.x0;
      const xhi = W - MARGIN - rel.x1;
      const ylo = zone.y0 + MARGIN - rel.y0;
      const yhi = zone.y1 - MARGIN - rel.y1;
      if (xlo > xhi || ylo > yhi) continue;
      const x = roundTo(real(u, xlo, xhi), 0.1);
      const y = roundTo(real(u, ylo, yhi), 0.1);
      const box = worldBox(l, facing, x, y);
      if (box.x0 < 0.2 || box.x1 > W - 0.2 || box.y0 < zone.y0 + 0.2 || box.y1 > zone.y1 - 0.2) continue; // rounding pushed it out
      if (placed.some((p) => meets(p, box, MARGIN)) || blocked.some((p) => meets(p, box, MARGIN))) continue;
      placed.push(box);
      const pb: Record<string, unknown> = { id: b.id, x, y, formation, facing };
      if (sk || chance(u, 0.2)) pb.skirmishers = sk;
      if (screen) pb.screen = screen;
      out.push(pb);
      done = true;
    }
    if (!done) return null;
  }
  const ordered = bats.map((b) => out.find((p) => p.id === b.id)!);
  const sc = chance(u, 0.4)
    ? { attach: pick(u, bats).id }
    : {
        x: roundTo(real(u, 2, W - 2), 0.1),
        y: roundTo(edge === 'south' ? real(u, 0.5, 3) : real(u, H - 3, H - 0.5), 0.1),
      };
  return { edge, battalions: chance(u, 0.5) ? ordered : out, sc };
}

// ---------------------------------------------------------------------------------------------
// Rules options
// ---------------------------------------------------------------------------------------------

/**
 * A random `options` block: each option set with some probability, within what the schema accepts (plus, rarely, a
 * 0° oblique, which the schema refuses: the soak's refusal report shows the refusal still holds).
 */
function drawOptions(u: Uniform): Record<string, unknown> | undefined {
  if (chance(u, 0.35)) return undefined;
  const o: Record<string, unknown> = {};
  const p = 0.4;
  if (chance(u, p)) o.M5_cover = pick(u, ['modifiers', 'halve-groups']);
  if (chance(u, 0.1)) o.M6_ties = 'reroll';
  if (chance(u, p)) {
    const obl = subset(u, [10, 15, 22.5, 30, 45, 60, 90], int(u, 1, 4));
    o.M7_obliques = chance(u, 0.05) ? [0, ...obl] : obl;
  }
  if (chance(u, p)) o.M7_fractions = [...subset(u, [0.1, 0.2, 0.25, 1 / 3, 0.5, 2 / 3, 0.75], int(u, 0, 4)), 1];
  if (chance(u, p)) o.M9_band2 = pick(u, ['long', 'medium']);
  if (chance(u, p)) o.M13_join = pick(u, ['flat', 'each']);
  if (chance(u, p)) o.M14_combatRisk = int(u, 2, 6);
  if (chance(u, 0.1)) o.M16_rerolls = 'automatic';
  if (chance(u, p)) o.M20_earlyEnd = chance(u, 0.5);
  if (chance(u, p)) o.M23_grid = pick(u, [1, 1.5, 2, 2.5, 3, 4, 6]);
  if (chance(u, p)) o.M7_wheelAngles = subset(u, [1, 5, 10, 15, 22, 30, 45, 60, 90, 120, 180], int(u, 1, 6));
  if (chance(u, 0.1)) o.M1_table = '72x48-or-48x48-inches';
  if (chance(u, 0.1)) o.M19_costs = 'rifles-per-ranker-6-per-ensign-figure';
  return o;
}

// ---------------------------------------------------------------------------------------------
// The scenario
// ---------------------------------------------------------------------------------------------

const NATIONALITIES: readonly Nationality[] = ['British', 'French', 'Other'];
const ARMY_NAMES: Record<Nationality, readonly string[]> = {
  British: ['British', 'Anglo-Allied Brigade', 'Light Division'],
  French: ['French', 'Brigade Foy', 'Garde Impériale'],
  Other: ['Prussian', 'Austrian', 'Brunswick Contingent', 'Spanish'],
};

/** Budgets: mostly the book's 200 points (stated or left to the default), sometimes another even total or a pair. */
function drawPoints(u: Uniform): { json: number | [number, number] | undefined; budgets: [number, number] } {
  const k = weighted(u, [
    ['default', 3],
    ['200', 3],
    ['other', 1.5],
    ['pair', 1],
  ] as const);
  if (k === 'default') return { json: undefined, budgets: [200, 200] };
  if (k === '200') return { json: 200, budgets: [200, 200] };
  const even = () => 2 * int(u, 30, 150);
  if (k === 'other') {
    const p = even();
    return { json: p, budgets: [p, p] };
  }
  const pair: [number, number] = [even(), even()];
  return { json: pair, budgets: pair };
}

export function randomScenario(u: Uniform): unknown {
  const W = chance(u, 0.6) ? 72 : 48;
  const H = 48;
  const tag = Math.floor(u() * 36 ** 6).toString(36);
  const points = drawPoints(u);
  const nats: [Nationality, Nationality] = [pick(u, NATIONALITIES), pick(u, NATIONALITIES)];
  const armies = ([0, 1] as const).map((i) => drawArmy(u, i === 0 ? 'A' : 'B', nats[i], points.budgets[i]));
  const { terrain, buildings } = drawTerrain(u, W, H);

  // fixed set-ups about half the time; an army that cannot be fitted into its zone falls back to alternate placement
  let deployment: unknown = 'alternate';
  if (chance(u, 0.5)) {
    const southFirst = chance(u, 0.75);
    const blocked = buildings.map(boxOf);
    const A = fixedSide(u, armies[0]!, southFirst ? 'south' : 'north', W, H, blocked);
    const B = A && fixedSide(u, armies[1]!, southFirst ? 'north' : 'south', W, H, blocked);
    if (A && B) deployment = { A, B };
  }

  const objectives = chance(u, 0.5)
    ? Array.from({ length: int(u, 1, 3) }, (_, i) => ({
        id: `obj-${i + 1}`,
        x: roundTo(real(u, 4, W - 4), 0.5),
        y: roundTo(real(u, 14, H - 14), 0.5),
      }))
    : [];
  const victory = objectives.length
    ? weighted(u, [
        ['objectives', 3],
        ['battalions', 1],
        [undefined, 1],
      ] as const)
    : pick(u, ['battalions', undefined] as const);
  const turns = weighted<number | undefined>(u, [
    [undefined, 2],
    [1, 0.3],
    [2, 0.5],
    [3, 1],
    [4, 1.5],
    [5, 1.5],
    [6, 1.5],
    [8, 1.5],
    [10, 1],
    [12, 0.7],
  ]);
  const options = drawOptions(u);

  const sc: Record<string, unknown> = {
    ruleset: 'march-of-eagles',
    id: `generated-${tag}`,
    title: `Generated scenario ${tag}`,
  };
  if (chance(u, 0.5))
    sc.description = `Random ${W}"×${H}" battle: ${armies[0]!.length} against ${armies[1]!.length} battalions, ${deployment === 'alternate' ? 'alternate' : 'fixed'} deployment.`;
  sc.table = { width: W, height: H };
  if (turns !== undefined) sc.turns = turns;
  if (points.json !== undefined) sc.points = points.json;
  if (terrain.length || chance(u, 0.5)) sc.terrain = terrain;
  sc.armies = ([0, 1] as const).map((i) => ({
    name: pick(u, ARMY_NAMES[nats[i]]),
    nationality: nats[i],
    battalions: armies[i]!.map((b) => battalionJson(u, b)),
  }));
  sc.deployment = deployment;
  if (objectives.length || chance(u, 0.3)) sc.objectives = objectives;
  if (victory !== undefined) sc.victory = victory;
  if (options !== undefined) sc.options = options;
  return sc;
}
