/** The March of Eagles as a `Game`. */
import type { Game, Problem, Validated } from '../../core/game.ts';
import { facesForSum } from '../../core/chance.ts';
import { moreFaces, outcomeForFaces, rollAsk } from './dice-faces.ts';
import { hashValue } from '../../core/hash.ts';
import { IN, fx, onTable, polygonsOverlap, rectCorners, pointInPolygon } from '../../geometry/geometry.ts';
import type { Terrain, TerrainArea, TerrainLine } from '../../geometry/terrain.ts';
import { type TerrainClasses, areaFlags } from '../../tabletop/terrain.ts';
import { type Scenario, qualityIndex, validateScenario as validateSchema } from './scenario.ts';
import { createMarchEncoding } from './encoding.ts';
import { greedyAction, policyScores } from './heuristic.ts';
import { moe } from './rules.ts';
import { judge, objectiveHolder } from './winning.ts';
import { actionKey } from './notation.ts';
import { allPolys, firingGroups, footprint, screenPoly, withBn } from './shape.ts';
import { QUALITY_NAMES, TURN_FRESH, top, unit, withSC, withSide } from './state.ts';
import { undeployable } from './deployment.ts';
import type { Action, Bn, Ctx, Frame, MoeState, Side, SideState } from './types.ts';
import { randomScenario } from './generate.ts';
import { marchPicture } from './picture.ts';

export type { Action, MoeState, Scenario };

/**
 * M4 terrain for MoE's only arm, its close-order foot: woods are difficult (its own dice rules, not a multiplier) and
 * soft cover; buildings impassable and hard cover; hedges soft and walls hard cover, crossed for 1D6" (rolled, so no
 * fixed crossing cost here).
 */
const TERRAIN_CLASSES: TerrainClasses<'foot'> = {
  woods: { difficult: ['foot'], cover: 'soft' },
  building: { move: { foot: 0 }, cover: 'hard' },
  hill: { cover: 'none' },
  hedge: { cover: 'soft' },
  wall: { cover: 'hard' },
};
const flags = (kind: string) => areaFlags(TERRAIN_CLASSES[kind]!, 'foot');

function buildTerrain(sc: Scenario): Terrain {
  const areas: TerrainArea[] = [];
  const lines: TerrainLine[] = [];
  const pt = ([x, y]: [number, number]) => ({ x: fx(x), y: fx(y) });
  for (const t of sc.terrain) {
    switch (t.type) {
      case 'woods': // M4: difficult, soft cover, blocks LOS except within 2" of the edge
        areas.push({
          id: t.id,
          kind: 'woods',
          polygon: t.polygon.map(pt),
          ...flags('woods'),
          blocksLos: true,
          seeThroughEdge: 2 * IN,
        });
        break;
      case 'building': // M4: impassable, blocks LOS
        areas.push({
          id: t.id,
          kind: 'building',
          polygon: t.polygon.map(pt),
          ...flags('building'),
          blocksLos: true,
          seeThroughEdge: 0,
        });
        break;
      case 'hill': // M4: upward slope toward the crest; does not block LOS
        areas.push({
          id: t.id,
          kind: 'hill',
          polygon: t.polygon.map(pt),
          ...flags('hill'),
          blocksLos: false,
          seeThroughEdge: 0,
          crest: pt(t.crest),
        });
        break;
      case 'hedge': // M4/M5: linear obstacle, soft cover within 1"
        lines.push({
          id: t.id,
          kind: 'hedge',
          points: t.points.map(pt),
          obstacle: true,
          cover: TERRAIN_CLASSES.hedge!.cover,
          coverDepth: IN,
          blocksLos: false,
        });
        break;
      case 'wall': // M4/M5: linear obstacle, hard cover within 1"
        lines.push({
          id: t.id,
          kind: 'wall',
          points: t.points.map(pt),
          obstacle: true,
          cover: TERRAIN_CLASSES.wall!.cover,
          coverDepth: IN,
          blocksLos: false,
        });
        break;
    }
  }
  return { areas, lines };
}

function initialState(sc: Scenario): MoeState {
  const ctx: Ctx = {
    scenarioId: sc.id,
    width: sc.table.width * IN,
    height: sc.table.height * IN,
    turns: sc.turns,
    terrain: buildTerrain(sc),
    options: sc.options,
    objectives: sc.objectives.map((o) => ({ id: o.id, x: fx(o.x), y: fx(o.y) })),
    victory: sc.victory,
  };
  const fixed = sc.deployment === 'alternate' ? null : sc.deployment;
  const units: Bn[] = [];
  sc.armies.forEach((army, side) => {
    for (const spec of army.battalions) {
      const pl = fixed ? fixed[side === 0 ? 'A' : 'B'].battalions.find((p) => p.id === spec.id)! : null;
      const sk = pl?.skirmishers ?? 0;
      // built through withBn, like every later copy: one shape for every battalion
      const b: Bn = {
        id: spec.id,
        name: spec.name,
        side: side as 0 | 1,
        q: qualityIndex(spec.quality),
        light: spec.light,
        rifles: spec.rifles,
        british: army.nationality === 'British',
        start: spec.rankers,
        rk: spec.rankers - sk,
        skS: sk,
        sk,
        drum: spec.drummers,
        sgt: spec.sergeants,
        ens: spec.ensigns > 0 ? 1 : 0,
        off: spec.officer,
        f: pl?.formation === 'Column' ? 'C' : 'L',
        x: pl ? fx(pl.x) : 0,
        y: pl ? fx(pl.y) : 0,
        h: pl?.facing ?? 0,
        scr: sk ? (spec.light ? 'front' : (pl?.screen ?? 'front')) : null,
        G: Math.max(1, Math.ceil((spec.rankers - sk) / 4)),
        on: !!pl,
        placed: !!pl,
        gone: '',
        ...TURN_FRESH,
        dis: false,
        brk: false,
        ral: false,
        stand: 0,
        standDis: false,
        reform: false,
        cas: 0,
        eng: '',
      };
      units.push(withBn(b, {}));
    }
  });
  const sides = sc.armies.map((army, side): SideState => {
    const f = fixed?.[side === 0 ? 'A' : 'B'];
    let sc0 = { x: 0, y: 0, att: '', alive: true, moved: false, placed: false };
    if (f) {
      if ('attach' in f.sc) {
        const b = units.find((u) => u.id === (f.sc as { attach: string }).attach)!;
        sc0 = { ...sc0, att: b.id, x: b.x, y: b.y, placed: true };
      } else sc0 = { ...sc0, x: fx(f.sc.x), y: fx(f.sc.y), placed: true };
    }
    return withSide(
      {
        name: army.name,
        nat: army.nationality,
        edge: f ? f.edge : side === 0 ? 'south' : 'north',
        sc: withSC(sc0, {}),
        scKilled: false,
      },
      {},
    );
  }) as unknown as [SideState, SideState];
  const s: MoeState = {
    ctx,
    turn: 0,
    phase: 'pregame',
    init: 0,
    rollWin: 0,
    placer: 0,
    nAct: 0,
    next: 0,
    units,
    sides,
    engs: [],
    stack: fixed ? [] : [{ t: 'rollOff' }],
    nChance: 0,
    nEng: 0,
    result: null,
  };
  return moe.settle(s);
}

/** Geometric checks of a fixed deployment: on the table, outside 12" of the centre line, no overlaps. */
function deploymentGeometry(sc: Scenario): Problem[] {
  if (sc.deployment === 'alternate') return [];
  const s = initialState(sc);
  const out: Problem[] = [];
  const mid = s.ctx.height / 2;
  s.units.forEach((b) => {
    const side = b.side === 0 ? 'A' : 'B';
    const i = (sc.deployment as Exclude<Scenario['deployment'], 'alternate'>)[side].battalions.findIndex(
      (p) => p.id === b.id,
    );
    const path = `$.deployment.${side}.battalions[${i}]`;
    const polys = allPolys(b);
    if (!polys.every((p) => onTable(p, s.ctx.width, s.ctx.height)))
      out.push({ path, message: `${b.id} (or its screen) is partly off the table` });
    const south = s.sides[b.side].edge === 'south';
    for (const p of polys)
      for (const c of p)
        if (south ? c.y > mid - 12 * IN + 1 : c.y < mid + 12 * IN - 1) {
          out.push({ path, message: `${b.id} is nearer than 12" to the centre line [Setting up a battle]` });
          return;
        }
    for (const o of s.units) {
      if (o === b || o.side < b.side || (o.side === b.side && s.units.indexOf(o) < s.units.indexOf(b))) continue;
      if (polys.some((p) => allPolys(o).some((q) => polygonsOverlap(p, q))))
        out.push({ path, message: `${b.id} overlaps ${o.id}` });
    }
    for (const a of s.ctx.terrain.areas)
      if (a.impassable && polygonsOverlap(polys[0]!, a.polygon))
        out.push({ path, message: `${b.id} stands on impassable ${a.kind} "${a.id}"` });
  });
  return out;
}

/**
 * [Setting up a battle] An alternately deployed army must fit its zone: either side may win the roll-off and take
 * either edge, so each army is packed (M23_squeeze, without skirmishers) into both zones.
 */
function deploymentRoom(sc: Scenario): Problem[] {
  if (sc.deployment !== 'alternate') return [];
  const s0 = initialState(sc);
  const out: Problem[] = [];
  for (const side of [0, 1] as const)
    for (const edge of ['south', 'north'] as const) {
      const sides = s0.sides.map((x, i) => (i === side ? { ...x, edge } : x)) as unknown as MoeState['sides'];
      const stuck = undeployable({ ...s0, sides }, side);
      if (stuck.length)
        out.push({
          path: `$.armies[${side}]`,
          message: `army "${sc.armies[side].name}" cannot be set up in the ${edge} zone: no room on the ${sc.options.M23_grid}" placement grid for ${stuck.join(', ')} once the wider battalions stand [Setting up a battle] (M23_squeeze)`,
        });
    }
  return out;
}

function validate(json: unknown): Validated<Scenario> {
  const r = validateSchema(json);
  if (!r.ok) return r;
  const geo = [...deploymentGeometry(r.value), ...deploymentRoom(r.value)];
  return geo.length ? { ok: false, problems: geo } : r;
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

function unitStatus(s: MoeState, b: Bn): string {
  const flags: string[] = [];
  if (!b.on) return b.gone === 'routed' ? 'routed off' : b.gone === 'destroyed' ? 'destroyed' : 'not placed';
  if (b.brk) flags.push(b.ral ? 'RALLIED' : 'BROKEN');
  if (b.dis) flags.push('disordered');
  if (b.eng) flags.push(`in ${b.eng}`);
  if (b.stand >= s.turn && b.stand) flags.push('stands');
  if (b.reform) flags.push('reforming');
  if (b.act) flags.push('activated');
  if (s.sides[b.side].sc.alive && s.sides[b.side].sc.att === b.id) flags.push('+SC');
  return flags.join(', ');
}

function chars(b: Bn): string {
  const c: string[] = [];
  if (b.off) c.push('Off');
  if (b.ens) c.push('Ens');
  if (b.drum) c.push(`Dr×${b.drum}`);
  if (b.sgt) c.push(`Sgt×${b.sgt}`);
  return c.join(' ') || '-';
}

/** The key to `render`'s table and unit lines (the picture's legend, picture.ts, says the same per marker). */
const MARCH_KEY = [
  'key: 1 column = 1", 1 row = 2" (inches on the ruler; y = the lower edge of the row); - the centre line',
  '  A-Z a battalion of side A, a-z of side B (the letter in the lists below); * a declared skirmish screen (M3);',
  '  @ / & a Supreme Commander riding alone (A / B); terrain: w woods, # building, ^ hill, : hedge, = wall (M4)',
  '  unit lines: letter, id, name, quality, formation (M2), ranks left/at the start, FG firing groups, skirm n',
  "  skirmishers and the screen's place if declared (M3), Characters: Off officer, Ens ensign, Dr×n drummers,",
  '  Sgt×n sergeants; facing in degrees clockwise from north; then the state (BROKEN, disordered, +SC, ...)',
];

function render(s: MoeState): string {
  const W = Math.round(s.ctx.width / IN);
  const H = Math.round(s.ctx.height / IN / 2);
  const grid: string[][] = Array.from({ length: H }, () => Array.from({ length: W }, () => '.'));
  const cellCentre = (cx: number, cy: number) => ({ x: (cx + 0.5) * IN, y: s.ctx.height - (cy + 0.5) * 2 * IN });
  for (let cy = 0; cy < H; cy++)
    for (let cx = 0; cx < W; cx++) {
      const p = cellCentre(cx, cy);
      for (const a of s.ctx.terrain.areas)
        if (pointInPolygon(p, a.polygon)) grid[cy]![cx] = a.kind === 'woods' ? 'w' : a.kind === 'building' ? '#' : '^';
      for (const l of s.ctx.terrain.lines) {
        for (let i = 0; i + 1 < l.points.length; i++) {
          const a = l.points[i]!;
          const b = l.points[i + 1]!;
          const len = Math.hypot(b.x - a.x, b.y - a.y);
          for (let t = 0; t <= len; t += IN / 2) {
            const x = Math.floor((a.x + ((b.x - a.x) * t) / len) / IN);
            const y = Math.floor((s.ctx.height - (a.y + ((b.y - a.y) * t) / len)) / (2 * IN));
            if (grid[y]?.[x] !== undefined) grid[y]![x] = l.kind === 'wall' ? '=' : ':';
          }
        }
      }
    }
  const mid = Math.floor(H / 2);
  for (let cx = 0; cx < W; cx++) if (grid[mid]![cx] === '.') grid[mid]![cx] = '-';
  // the cell (cx, cy) as a polygon: a screen is 0.8" deep (M3), thinner than a row, so it is drawn where it touches
  const cell = (cx: number, cy: number) => {
    const x0 = cx * IN;
    const y0 = s.ctx.height - (cy + 1) * 2 * IN;
    return [
      { x: x0, y: y0 },
      { x: x0 + IN, y: y0 },
      { x: x0 + IN, y: y0 + 2 * IN },
      { x: x0, y: y0 + 2 * IN },
    ];
  };
  s.units.forEach((b) => {
    const sp = b.on ? screenPoly(b) : null;
    if (!sp) return;
    const xs = sp.map((p) => p.x);
    const ys = sp.map((p) => p.y);
    const [x0, x1] = [Math.max(0, Math.floor(Math.min(...xs) / IN)), Math.min(W - 1, Math.floor(Math.max(...xs) / IN))];
    const row = (y: number) => Math.floor((s.ctx.height - y) / (2 * IN));
    const [y0, y1] = [Math.max(0, row(Math.max(...ys))), Math.min(H - 1, row(Math.min(...ys)))];
    for (let cy = y0; cy <= y1; cy++)
      for (let cx = x0; cx <= x1; cx++) if (polygonsOverlap(cell(cx, cy), sp)) grid[cy]![cx] = '*';
  });
  s.units.forEach((b, i) => {
    if (!b.on) return;
    const letter = String.fromCharCode((b.side === 0 ? 65 : 97) + (i % 26));
    for (let cy = 0; cy < H; cy++)
      for (let cx = 0; cx < W; cx++) {
        const p = cellCentre(cx, cy);
        if (pointInPolygon(p, rectCorners(footprint(b)))) grid[cy]![cx] = letter;
      }
    // always show at least the centre cell
    const cx = Math.min(W - 1, Math.max(0, Math.floor(b.x / IN)));
    const cy = Math.min(H - 1, Math.max(0, Math.floor((s.ctx.height - b.y) / (2 * IN))));
    grid[cy]![cx] = letter;
  });
  for (const side of [0, 1] as const) {
    const sc = s.sides[side].sc;
    if (!sc.alive || !sc.placed || sc.att) continue;
    const cx = Math.min(W - 1, Math.max(0, Math.floor(sc.x / IN)));
    const cy = Math.min(H - 1, Math.max(0, Math.floor((s.ctx.height - sc.y) / (2 * IN))));
    grid[cy]![cx] = side === 0 ? '@' : '&';
  }
  const lines: string[] = [];
  lines.push(
    `Turn ${s.turn || '(pre-game)'} of ${s.ctx.turns}   phase: ${s.phase}${s.turn ? `   initiative: ${s.sides[s.init].name}` : ''}`,
  );
  // the ruler: inches along the top and bottom (x, every 6") and down the left side (y of each row's lower edge)
  const ruler =
    `     ${Array.from({ length: W }, (_, x) => (x % 6 === 0 ? String(x).padEnd(6) : '')).join('')}`.trimEnd();
  const tableH = Math.round(s.ctx.height / IN);
  lines.push(ruler);
  lines.push('    +' + '-'.repeat(W) + '+  north');
  grid.forEach((row, cy) => lines.push(`${String(tableH - 2 * (cy + 1)).padStart(3)} |${row.join('')}|`));
  lines.push('    +' + '-'.repeat(W) + '+  south');
  lines.push(ruler);
  lines.push(...MARCH_KEY);
  for (const side of [0, 1] as const) {
    const sd = s.sides[side];
    lines.push(
      `${side === 0 ? 'A' : 'B'}: ${sd.name} (${sd.nat}, ${sd.edge} edge)${sd.scKilled ? ' — Supreme Commander killed' : ''}`,
    );
    s.units.forEach((b, i) => {
      if (b.side !== side) return;
      const letter = String.fromCharCode((side === 0 ? 65 : 97) + (i % 26));
      lines.push(
        `  ${letter} ${b.id.padEnd(5)} ${b.name.padEnd(16).slice(0, 16)} ${QUALITY_NAMES[b.q]!.padEnd(7)} ${b.f === 'L' ? 'line  ' : 'column'} ${String(b.rk).padStart(2)}/${b.start} FG ${String(firingGroups(b)).padStart(2)}${b.sk ? ` skirm ${b.sk}${b.scr ? ` screen ${b.scr}` : ''}` : ''}  ${chars(b)}  facing ${b.h}°  ${unitStatus(s, b)}`,
      );
    });
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------

function strength(b: Bn): number {
  if (!b.on) return 0;
  const frac = (b.rk + b.sk * 0.5) / b.start;
  return frac * (b.brk ? 0.25 : b.dis ? 0.85 : 1) * (1 + 0.3 * b.q) + (b.off ? 0.2 : 0);
}

/**
 * The hand-weighted value for player `p` in [-1, 1], shaped by the victory conditions (§7): unbroken battalions on
 * the table first, then casualties among the remaining units, plus fighting strength; the counts weigh more as the
 * last turn nears. Kept as one input of the network encoding (version 1), which the shipped model was trained on.
 */
function handEvaluate(s: MoeState, p: number): number {
  if (s.result) return s.result.winner < 0 ? 0 : s.result.winner === p ? 1 : -1;
  const f = evalTerms(s, p);
  return Math.tanh(2 * f.material + (1 + 2 * f.progress) * f.count + (0.5 + f.progress) * f.losses);
}

interface EvalTerms {
  /** Fighting strength, mine minus theirs over the sum. */
  material: number;
  /** Unbroken battalions on the table (the first victory count, §7), mine minus theirs over the sum. */
  count: number;
  /** Casualties taken among units on the table (the tie-break, §7), theirs minus mine over a quarter of all figures. */
  losses: number;
  /** Game progress: turn / last turn. */
  progress: number;
  /** Supreme Commander alive, mine minus theirs. */
  sc: number;
  /** Objectives held (scenarios won on objectives, §7), mine minus theirs over their number; else 0. */
  obj: number;
}

function evalTerms(s: MoeState, p: number): EvalTerms {
  let mine = 0;
  let theirs = 0;
  const unbroken = [0, 0];
  const cas = [0, 0];
  const start = [0, 0];
  for (const b of s.units) {
    const v = strength(b);
    if (b.side === p) mine += v;
    else theirs += v;
    start[b.side]! += b.start;
    if (b.on) {
      cas[b.side]! += b.cas;
      if (!b.brk) unbroken[b.side]!++;
    }
  }
  const o = p === 0 ? 1 : 0;
  return {
    material: (mine - theirs) / (mine + theirs || 1),
    count: (unbroken[p]! - unbroken[o]!) / Math.max(1, unbroken[p]! + unbroken[o]!),
    losses: (cas[o]! - cas[p]!) / Math.max(1, (start[0]! + start[1]!) / 4),
    progress: Math.min(1, Math.max(0, s.turn / s.ctx.turns)),
    sc: (s.sides[p as Side].sc.alive ? 1 : 0) - (s.sides[o].sc.alive ? 1 : 0),
    obj: objectiveBalance(s, p),
  };
}

function objectiveBalance(s: MoeState, p: number): number {
  if (s.ctx.victory !== 'objectives' || !s.ctx.objectives.length) return 0;
  let v = 0;
  for (const o of s.ctx.objectives) {
    const h = objectiveHolder(s, o);
    if (h >= 0) v += h === p ? 1 : -1;
  }
  return v / s.ctx.objectives.length;
}

/**
 * Value for player `p` in [-1, 1]: 2·P(win) − 1 under a logistic model of the victory terms (§7), weighted by how
 * far the game has gone. The weights were fitted (logistic regression with weights held ≥ 0, so the value never
 * falls when the enemy loses men or battalions; 13,480 positions from 900 scripted-player games over the three shipped
 * scenarios, one move in ten random in half of them) to the games' results. On held-out positions its squared error
 * against the result is 0.882, where the hand weighting above scores 0.946 and a constant 0 scores 0.983: early on
 * only casualties predict the result (a broken battalion may rally), fighting strength counts more each turn.
 * Antisymmetric (no bias term), so the two players' values sum to 0.
 *
 * In a scenario won on objectives (§7 scenario option; none of the shipped ones is) the objectives held, mine minus
 * theirs over their number, add to the logit with a hand weight of 0.5 + 3·progress², since they decide the result
 * before the battalion count: holding the only objective on the last turn alone is worth about 94%.
 */
function evaluate(s: MoeState, p: number): number {
  if (s.result) return s.result.winner < 0 ? 0 : s.result.winner === p ? 1 : -1;
  const f = evalTerms(s, p);
  const g = f.progress;
  const z =
    f.material * (3.885 * g + 3.595 * g * g) +
    0.099 * f.count * g * g +
    f.losses * (2.971 + 0.094 * g) +
    0.02 * f.sc +
    f.obj * (0.5 + 3 * g * g);
  return 2 / (1 + Math.exp(-z)) - 1;
}

/** Frames that, alone on the stack, leave nothing half-resolved: between activations (§4) or before a unit's orders. */
const QUIET_FRAMES: ReadonlySet<Frame['t']> = new Set(['slot', 'orders', 'initRoll', 'initChoice']);

/**
 * Quiet for search: deployment, or an activation-level choice with nothing pending beneath it. Not quiet: a test, a
 * volley, a move or a combat half-way through, or the end-of-turn resolution (rallies, routs), whose dice will change
 * what the evaluation counts.
 */
function quiet(s: MoeState): boolean {
  if (s.result || s.phase === 'pregame') return true;
  if (s.phase !== 'activations') return false;
  return s.stack.length === 0 || (s.stack.length === 1 && QUIET_FRAMES.has(s.stack[0]!.t));
}

// ---------------------------------------------------------------------------------------------
// The Game
// ---------------------------------------------------------------------------------------------

function diceFaces(s: MoeState, a: Action, u: () => number): number[] | undefined {
  const f = top(s);
  if (!f) return undefined;
  switch (a.k) {
    case 'c-sum':
      return facesForSum(f.t === 'dist' ? f.n : f.t === 'run' ? 3 : 4, a.sum, u);
    case 'c-die':
      return [a.face];
    case 'c-band':
      return [a.band === 'long' ? 1 : a.band === 'medium' ? 3 + Math.floor(u() * 3) : 6];
    case 'c-combat': {
      if (f.t !== 'combat') return undefined;
      for (let i = 0; i < 200; i++) {
        const x = 1 + Math.floor(u() * 6);
        const y = 1 + Math.floor(u() * 6);
        const m = x + f.ma - (y + f.md);
        const res = m >= 3 ? 'A3' : m > 0 ? 'A' : m === 0 ? 'T' : m > -3 ? 'D' : 'D3';
        if (res === a.res) return [x, y];
      }
      return undefined;
    }
    default:
      // checks and volleys with their re-roll dice, roll-offs, the risk to Characters
      return moreFaces(s, a, u);
  }
}

/**
 * Rule citations: the book's section titles (it has no numbers) and the digest's ADAPTATIONs M1–M25. Events cite
 * nothing else, so every log line names where to read.
 */
const SECTIONS = [
  'Setting up a battle',
  'Initiative',
  'Sequence',
  'Activation',
  'Manoeuvre',
  'Disorder',
  'Accuracy',
  'Skirmishers',
  'Defensive fire',
  'Aggression',
  'Combat process',
  'Risk to characters',
  'Resolve',
  'Supreme Commander',
  'Winning',
];
const CITATION = new RegExp(`^(${SECTIONS.join('|')}|M([1-9]|1\\d|2[0-5]))$`);

export const marchOfEagles: Game<MoeState, Action, Scenario> = {
  id: 'march-of-eagles',
  title: 'The March of Eagles',
  // v2: alternate deployment offers rows every M23_grid inches and keeps room for the rest of the army (M23_squeeze)
  version: 2,
  players: ['A', 'B'],
  defaultScenario: 'open-field',
  citation: CITATION,
  validateScenario: validate,
  initialState: (sc) => initialState(sc),
  // the frames on the stack decide who moves, what is offered and what an action does (rules.ts)
  toMove: (s) => moe.toMove(s),
  legalActions: (s) => moe.legalActions(s),
  chanceOutcomes: (s) => moe.chanceOutcomes(s),
  chanceKey: (s) => moe.chanceKey(s),
  apply: (s, a, events) => moe.apply(s, a, events),
  applyUnchecked: (s, a, events) => moe.applyUnchecked(s, a, events),
  returns(s) {
    const r = s.result ?? judge(s, false);
    return r.winner < 0 ? [0, 0] : r.winner === 0 ? [1, -1] : [-1, 1];
  },
  observe: (s) => s, // perfect information: nothing is hidden in The March of Eagles
  sampleState: (s) => s,
  evaluate,
  quiet,
  policyScores,
  greedyAction: (s) => greedyAction(s, (x) => moe.legalActions(x)),
  encoding: createMarchEncoding(handEvaluate),
  actionKey,
  describeAction(s, a) {
    const f: Frame | undefined = top(s);
    const name = (id: string) => {
      const base = id.endsWith('.s') ? id.slice(0, -2) : id;
      try {
        return unit(s, base).name + (id.endsWith('.s') ? "'s skirmishers" : '');
      } catch {
        return id;
      }
    };
    switch (a.k) {
      case 'shoot':
        return `${name(a.u)} shoots at ${a.target === '-' ? '(screen only)' : name(a.target)}`;
      case 'attack':
        return `${name(a.u)} attacks ${name(a.target)}`;
      case 'move':
        return `${name(a.u)} moves ${a.dir === 0 ? 'straight ahead' : `${Math.abs(a.dir)}° ${a.dir > 0 ? 'right' : 'left'}`} (Manoeuvre check)`;
      case 'wheel':
        return `${name(a.u)} wheels ${a.side === 'L' ? 'left' : 'right'} (Manoeuvre check)`;
      case 'pass':
      case 'back':
      case 'reform':
      case 'rally':
        return `${name(a.u)}: ${a.k}`;
      default:
        return f ? actionKey(a) : actionKey(a);
    }
  },
  hash: (s) => hashValue(s),
  describeDecision: (s) => moe.describe(s),
  render: (s) => render(s),
  picture: (s, viewer) => marchPicture(s, viewer),
  resultText(s) {
    const r = s.result;
    if (!r) return 'game in progress';
    return r.winner < 0
      ? `draw: ${r.reason}`
      : `${s.sides[r.winner as Side].name} (${r.winner === 0 ? 'A' : 'B'}) wins: ${r.reason}`;
  },
  rollAsk,
  outcomeForFaces,
  diceFaces,
  randomScenario,
};
