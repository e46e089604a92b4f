/**
 * Observation encoding for Napoleon's Eagles, version 1 (see `engine/core/encoding.ts`).
 *
 * From the view of `player`, and only from what it observes: the state is first passed through the procedure's
 * `redact` (turn.ts `runtime.redact`), so during the secret bid of step 2 [p.4] (a sealed round) a side sees its own
 * sealed bid and never the other's; that the other has bid is public (the bids are taken in seat order). Nothing else
 * is hidden: the turn points left change only at the reveal.
 *
 * Its own units, leaders fill the "mine" blocks, the opponent's the "theirs" blocks, each in scenario order (a unit
 * keeps its slot for good: routed, surrendered and eliminated units stay as slots with their status). Positions are
 * table coordinates scaled to [0, 1] and facings sin/cos, the same for both seats, so what one seat sees as mine the
 * other sees as theirs, cell for cell; the viewer's own seat and home edge are in the global block. The terrain is a
 * static coarse grid of the table. Each legal action (a string key) is encoded from its key: its type, its numbers
 * (bid, distance, turn, actions spent, formation, facing change, retreat), and one-hots of the unit it acts with, its
 * target and the leader it moves. An unknown key is of type "other" (never an error).
 *
 * Caps (`check` refuses a state past them by name): 16 unit slots per side, 8 leader slots per side, 4 objectives.
 */
import { type Encoding, type FeatureBlock, layout, sideSlots } from '../../core/encoding.ts';
import { pointInPolygon, type Polygon, segmentsIntersect, type Vec } from '../../geometry/geometry.ts';
import { IN, tableOf } from './board.ts';
import type { Scenario, UnitSpec } from './scenario.ts';
import { parseRating } from './tables.ts';
import { type Frame, runtime, type SeqState, type SeqUnit, victoryPoints } from './turn.ts';
import type { Formation, Side } from './types.ts';

/** Unit slots per side. */
export const MAX_UNITS = 16;
/** Leader slots per side. */
export const MAX_LEADERS = 8;
/** Objective slots. */
export const MAX_OBJECTIVES = 4;
/** The terrain grid: columns × rows over the whole table. */
const GX = 12;
const GY = 8;

const ID = 'napoleons-eagles/v1';

/** The frame kinds of turn.ts, for the one-hot of the decision on top of the stack (any other: the last cell). */
/** The frame kinds the decision block names (in this order; a kind added later reads as "other"). */
const FRAME_KINDS: readonly string[] = [
  'bid',
  'tiebreak',
  'chooseAD',
  'pick',
  'act',
  'closeCheck',
  'defence',
  'rideDown',
  'closeFight',
  'threshold',
  'morale',
  'reformRoll',
  'retreatTo',
  'counter',
  'counterCheck',
  'leaderLoss',
  'leader',
  'step9',
  'step10',
  'nextMorale',
  'endPeriod',
  'fire',
  'blockAdvance',
  'blockCheck',
  'blockDeclare',
  'blockDefence',
  'blockFight',
  'blockFights',
  'blocks',
  'burn',
  'caisson',
  'closeGroup',
  'closeLoser',
  'command',
  'crews',
  'defenceChange',
  'extinguish',
  'fires',
  'ignite',
  'initiative',
  'misread',
  'misreadObjective',
  'multiCasualty',
  'multiClose',
  'multiLosers',
  'multiMelee',
  'oocLeader',
  'oocRoll',
  'orderArrives',
  'orderDelay',
  'orders',
  'periodStart',
  'runaway',
  'runawayTarget',
  'screenCharge',
  'thresholdInfluence',
];
const FORMATION_LIST: readonly Formation[] = [
  'line',
  'column',
  'roadColumn',
  'square',
  'echelon',
  'skirmish',
  'limbered',
  'unlimbered',
];
const KINDS: readonly UnitSpec['kind'][] = ['infantry', 'cavalry', 'artillery'];
const STATUSES: readonly SeqUnit['status'][] = ['active', 'routed', 'surrendered', 'eliminated'];
const RANKS = ['army', 'corps', 'division', 'grandBattery'] as const;
const FIRE_RATINGS = ['E', 'D', 'C', 'B', 'A', 'R'] as const;
const MOVE_RATINGS = ['C', 'B', 'A'] as const;
const TERRAIN_CHANNELS = ['woods', 'hill', 'road', 'river', 'wall or hedge', 'building', 'mud or fields'] as const;

/** The action types, parsed from the key's first word(s). */
export const ACTION_TYPES = [
  'bid',
  'chooseAD',
  'activate',
  'finish',
  'end',
  'move',
  'road',
  'fire',
  'canister',
  'shot',
  'charge',
  'form',
  'face',
  'rest',
  'reform',
  'force',
  'recover',
  'retreat',
  'counter',
  'defence',
  'leader',
  'plan',
  'town',
  'crews',
  'caisson',
  'order',
  'influence',
  'modifier',
  'volunteer',
  'other',
] as const;
/** [p.17] the written orders' kinds, by the key's third word (`order D attack X`). */
const ORDER_KINDS = ['keep', 'attack', 'defend', 'withdraw', 'pursuit', 'maneuver', 'reserve'] as const;
/** §8.4 the plans (macros.ts), by the words after "plan". */
const PLAN_KINDS = [
  'advance twice',
  'advance and fire',
  'close on',
  'close on and fire',
  'fire and charge',
  'form line and fire',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
const MOVE_KINDS = ['forward', 'back', 'left', 'right'] as const;

const UNIT_DOC =
  'status one-hot (active, routed, surrendered, eliminated), kind one-hot (infantry, cavalry, artillery), formation ' +
  `one-hot (${FORMATION_LIST.join(', ')}), x/width, y/height, sin facing, cos facing, figures/original (a battery: ` +
  'guns less crew hits/guns, A-50), original/48, fatigue/3, disordered, marked for morale, retreating, recovery ' +
  'owed/6, locked, activated, stand, halves spent/6, ' +
  'force-marched, out of command, ammunition/3, guns lost, ridden down, fired-on reasons/3, in a close action, ' +
  'under decision, leader attached, morale/20, melee/50, fire rating (E 0 … A 0.8, R 1), move rating (C 0, B ½, A 1), ' +
  'nearest active enemy front-centre distance/24" (1: none or beyond), its bearing relative to the facing sin, cos';
const U = 46;
const LEADER_DOC =
  'present, not lost, attached, x/width, y/height, rank one-hot (army, corps, division, grand battery), morale ' +
  'bonus/5, melee bonus/15, command radius/48", under decision (his step 8 move or loss roll)';
const L = 13;

const ST = layout([
  {
    name: 'global',
    size: 30,
    doc:
      'turn/turns, period/6, my turn points left/my per turn, theirs/their per turn, my per turn/40, theirs/40, side A ' +
      'decided, I am side A, they are side A, I am the first side, side A activations this period/its active units, ' +
      'side A finished, last step mine, last step theirs, my units activated/my units, theirs, my eligible units/my ' +
      'units, theirs, close actions pending/4, my army failed its threshold, theirs, my failed divisions/4, theirs, I ' +
      'concede, they concede, game over, the decision is mine, my home edge direction sin, cos, tanh(victory points ' +
      'difference/10) (positive: ahead)',
  },
  {
    name: 'bids',
    size: 8,
    doc:
      'in the sealed bid: I have bid, my sealed bid/my points (never theirs), they have bid (public: bids are taken in ' +
      'seat order); no bid open (the last revealed bids are the current ones), my last revealed bid/my per turn, theirs/their per turn, I won the bid, ' +
      'equal bids',
  },
  {
    name: 'decision',
    size: FRAME_KINDS.length + 4,
    doc: `one-hot kind of the top frame: ${FRAME_KINDS.join(', ')}, other; then pick: units left in the step/3, at the start of the step; close actions: its index/4`,
  },
  {
    name: 'objectives',
    size: 6 * MAX_OBJECTIVES,
    doc: `${MAX_OBJECTIVES} slots × 6: present, x/width, y/height, held by me, held by them, vp/5`,
  },
  { name: 'mine: units', size: U * MAX_UNITS, doc: `${MAX_UNITS} slots × ${U}: ${UNIT_DOC}` },
  { name: 'theirs: units', size: U * MAX_UNITS, doc: `${MAX_UNITS} slots × ${U}, as above` },
  { name: 'mine: leaders', size: L * MAX_LEADERS, doc: `${MAX_LEADERS} slots × ${L}: ${LEADER_DOC}` },
  { name: 'theirs: leaders', size: L * MAX_LEADERS, doc: `${MAX_LEADERS} slots × ${L}, as above` },
  {
    name: 'terrain',
    size: GX * GY * TERRAIN_CHANNELS.length,
    doc:
      `a ${GX} × ${GY} grid over the table (column-major within each channel: x then y), channels ` +
      `${TERRAIN_CHANNELS.join(', ')}: woods and buildings and mud the covered fraction (light woods ½), hill the ` +
      'mean level/2 (≤ 1), lines 1 where one crosses the cell',
  },
]);

const NUMS = 24;
const AT = layout([
  { name: 'type', size: ACTION_TYPES.length, doc: `one-hot action type: ${ACTION_TYPES.join(', ')}` },
  {
    name: 'numbers',
    size: NUMS,
    doc:
      'bid/my points, bid/my per turn, yes (be A, counter-charge, defence fire), actions (½ or 1; fire: count/2), ' +
      'distance/24", turn/90°, oblique/90°, fire actions/2, facing change sin, cos, retreat inches/12, stand in place, ' +
      'move kind one-hot (forward, back, left, right), leader stay, leave, join, target front-centre distance/24", ' +
      'figures in a town action/12, rapid fire, threshold influence/6, written order kind (keep 0 … reserve 1); a ' +
      "written order's condition (A-28): its kind in the move kind cells (after turns, objective taken, enemy " +
      "withdraws, on arrival), turns/2 in the actions cell, the follow-on's order kind in the influence cell",
  },
  {
    name: 'formation',
    size: FORMATION_LIST.length,
    doc: `one-hot formation formed: ${FORMATION_LIST.join(', ')} (a battery's retreat after limbering: limbered)`,
  },
  { name: 'unit', size: 2 * MAX_UNITS, doc: 'one-hot slot of the unit the action is taken with (mine, then theirs)' },
  {
    name: 'target',
    size: 2 * MAX_UNITS,
    doc: 'one-hot slot of its target (fire, charge, the counter-charged mover, the charger fired at, the unit joined)',
  },
  { name: 'leader', size: MAX_LEADERS, doc: 'one-hot slot of the leader it moves (mine)' },
  {
    name: 'plan',
    size: PLAN_KINDS.length,
    doc: `one-hot plan (§8.4): ${PLAN_KINDS.join(', ')}; its enemy in the target block`,
  },
]);

/** The state block named `name` (for tests and readers). */
export function stateBlock(name: string): FeatureBlock {
  const b = ST.blocks.find((x) => x.name === name);
  if (!b) throw new Error(`encoding ${ID}: no state block "${name}"`);
  return b;
}
/** The action block named `name`. */
export function actionBlock(name: string): FeatureBlock {
  const b = AT.blocks.find((x) => x.name === name);
  if (!b) throw new Error(`encoding ${ID}: no action block "${name}"`);
  return b;
}

const rad = (h: number) => (h * Math.PI) / 180;
const clip01 = (x: number) => Math.min(1, Math.max(0, x));
const clip11 = (x: number) => Math.min(1, Math.max(-1, x));
const topOf = (s: SeqState): Frame | undefined => s.stack[s.stack.length - 1];
const EDGE_DIR: Readonly<Record<string, number>> = { south: 180, north: 0, east: 90, west: 270 };

// ---------------------------------------------------------------------------------------------------------------------
// Slots and specs
// ---------------------------------------------------------------------------------------------------------------------

/** Unit and leader slots (engine/core/encoding.ts). */
const slots = (s: SeqState) => sideSlots(s.units, s.leaders);

interface Specs {
  readonly unit: Map<string, UnitSpec>;
  readonly leader: Map<string, Scenario['sides'][number]['leaders'][number]>;
}
const specCache = new WeakMap<Scenario, Specs>();

function specs(sc: Scenario): Specs {
  let sp = specCache.get(sc);
  if (sp) return sp;
  sp = {
    unit: new Map(sc.sides.flatMap((x) => x.units).map((u) => [u.id, u])),
    leader: new Map(sc.sides.flatMap((x) => x.leaders).map((l) => [l.id, l])),
  };
  specCache.set(sc, sp);
  return sp;
}

// ---------------------------------------------------------------------------------------------------------------------
// Terrain and objectives (static per scenario)
// ---------------------------------------------------------------------------------------------------------------------

const terrainCache = new WeakMap<Scenario, Float32Array>();

/** Does the polyline cross (or lie in) the axis-aligned box? */
function lineInBox(pts: readonly Vec[], x0: number, y0: number, x1: number, y1: number): boolean {
  const inBox = (p: Vec) => p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1;
  const edges: [Vec, Vec][] = [
    [
      { x: x0, y: y0 },
      { x: x1, y: y0 },
    ],
    [
      { x: x1, y: y0 },
      { x: x1, y: y1 },
    ],
    [
      { x: x1, y: y1 },
      { x: x0, y: y1 },
    ],
    [
      { x: x0, y: y1 },
      { x: x0, y: y0 },
    ],
  ];
  for (let i = 0; i < pts.length; i++) {
    if (inBox(pts[i]!)) return true;
    if (i + 1 < pts.length) for (const [a, b] of edges) if (segmentsIntersect(pts[i]!, pts[i + 1]!, a, b)) return true;
  }
  return false;
}

function terrainGrid(sc: Scenario): Float32Array {
  let g = terrainCache.get(sc);
  if (g) return g;
  const t = tableOf(sc);
  const cells = GX * GY;
  g = new Float32Array(cells * TERRAIN_CHANNELS.length);
  const cw = t.width / GX;
  const ch = t.height / GY;
  const SUB = 4;
  const half = 2 * IN;
  for (let cx = 0; cx < GX; cx++)
    for (let cy = 0; cy < GY; cy++) {
      const cell = cx * GY + cy;
      const x0 = cx * cw;
      const y0 = cy * ch;
      const samples: Vec[] = [];
      for (let i = 0; i < SUB; i++)
        for (let j = 0; j < SUB; j++) samples.push({ x: x0 + ((i + 0.5) * cw) / SUB, y: y0 + ((j + 0.5) * ch) / SUB });
      const frac = (inside: (p: Vec) => boolean) => samples.filter(inside).length / samples.length;
      const put = (channel: number, v: number) => {
        const k = channel * cells + cell;
        g![k] = Math.max(g![k]!, clip01(v));
      };
      let hill = 0;
      for (const p of samples) {
        let level = 0;
        for (const piece of t.pieces)
          if (piece.type === 'hill' && pointInPolygon(p, piece.polygon)) level = Math.max(level, piece.level);
        hill += level;
      }
      put(1, hill / samples.length / 2);
      for (const piece of t.pieces) {
        switch (piece.type) {
          case 'woods':
            put(0, frac((p) => pointInPolygon(p, piece.polygon)) * (piece.dense ? 1 : 0.5));
            break;
          case 'mud':
          case 'fields':
            put(
              6,
              frac((p) => pointInPolygon(p, piece.polygon)),
            );
            break;
          case 'bridge':
            if (lineInBox(piece.polygon, x0, y0, x0 + cw, y0 + ch)) put(2, 1);
            break;
          case 'road':
            if (lineInBox(piece.points, x0, y0, x0 + cw, y0 + ch)) put(2, 1);
            break;
          case 'river':
            if (lineInBox(piece.points, x0, y0, x0 + cw, y0 + ch)) put(3, 1);
            break;
          case 'wall':
          case 'hedge':
            if (lineInBox(piece.points, x0, y0, x0 + cw, y0 + ch)) put(4, 1);
            break;
          case 'block': {
            const inside = (p: Vec) => Math.abs(p.x - piece.x) <= half && Math.abs(p.y - piece.y) <= half;
            // a block smaller than a sample spacing still marks its cell
            const centreIn = piece.x >= x0 && piece.x < x0 + cw && piece.y >= y0 && piece.y < y0 + ch;
            put(5, Math.max(frac(inside), centreIn ? 0.25 : 0));
            break;
          }
          default:
            break;
        }
      }
    }
  terrainCache.set(sc, g);
  return g;
}

const centroid = (ps: readonly Vec[]): Vec =>
  ps.length
    ? { x: ps.reduce((a, p) => a + p.x, 0) / ps.length, y: ps.reduce((a, p) => a + p.y, 0) / ps.length }
    : { x: 0, y: 0 };

const objectiveCache = new WeakMap<Scenario, readonly { id: string; at: Vec | null; vp: number }[]>();

/** Each objective's centre (1/100"), or null when its ground is not found. */
function objectives(sc: Scenario): readonly { id: string; at: Vec | null; vp: number }[] {
  let o = objectiveCache.get(sc);
  if (o) return o;
  const t = tableOf(sc);
  o = sc.victory.objectives.map((ob) => {
    let at: Vec | null = null;
    if (ob.polygon) at = centroid(ob.polygon.map(([x, y]) => ({ x: x * IN, y: y * IN })));
    else {
      const piece = t.pieces.find((p) => p.id === (ob.block ?? ob.terrain));
      if (piece?.type === 'block') at = { x: piece.x, y: piece.y };
      else if (piece && 'polygon' in piece) at = centroid(piece.polygon as Polygon);
      else if (piece && 'points' in piece) at = centroid(piece.points);
    }
    return { id: ob.id, at, vp: ob.vp };
  });
  objectiveCache.set(sc, o);
  return o;
}

// ---------------------------------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------------------------------

/** The units (by id) and leader a frame is about. */
function frameRefs(s: SeqState, f: Frame | undefined): { unit?: string; other?: string; leader?: string } {
  if (!f) return {};
  switch (f.t) {
    case 'act':
      return { unit: f.unit };
    case 'morale':
    case 'reformRoll':
    case 'retreatTo':
      return { unit: f.unit };
    case 'counter':
    case 'counterCheck':
      return { unit: f.cavalry, other: f.mover };
    case 'closeCheck':
    case 'defence':
    case 'rideDown':
    case 'closeFight': {
      const c = s.closes[f.close];
      return c ? { unit: c.defender, other: c.charger } : {};
    }
    case 'fire':
      return { unit: f.firer };
    case 'leader':
      return { leader: f.id };
    case 'leaderLoss':
      return { leader: f.leader };
    default: {
      // a frame kind added later: the unit it names, if any
      const u = (f as { readonly unit?: unknown }).unit;
      return typeof u === 'string' ? { unit: u } : {};
    }
  }
}

function nearestEnemy(s: SeqState, u: SeqUnit): [number, number, number] {
  if (u.status !== 'active') return [1, 0, 0];
  let best = Number.POSITIVE_INFINITY;
  let bx = 0;
  let by = 0;
  for (const o of s.units) {
    if (o.side === u.side || o.status !== 'active') continue;
    const d = Math.hypot(o.x - u.x, o.y - u.y);
    if (d < best) [best, bx, by] = [d, o.x - u.x, o.y - u.y];
  }
  if (best === Number.POSITIVE_INFINITY) return [1, 0, 0];
  const rel = Math.atan2(bx, by) - rad(u.facing);
  return best === 0 ? [0, 0, 0] : [clip01(best / (24 * IN)), Math.sin(rel), Math.cos(rel)];
}

function unitFeatures(
  s: SeqState,
  u: SeqUnit,
  sp: Specs,
  under: string | undefined,
  inClose: ReadonlySet<string>,
  out: Float32Array,
  o: number,
): void {
  const t = tableOf(s.sc);
  const spec = sp.unit.get(u.id);
  const st = STATUSES.indexOf(u.status);
  if (st >= 0) out[o + st] = 1;
  const k = spec ? KINDS.indexOf(spec.kind) : -1;
  if (k >= 0) out[o + 4 + k] = 1;
  const fi = FORMATION_LIST.indexOf(u.formation);
  if (fi >= 0) out[o + 7 + fi] = 1;
  out[o + 15] = clip01(u.x / t.width);
  out[o + 16] = clip01(u.y / t.height);
  out[o + 17] = Math.sin(rad(u.facing));
  out[o + 18] = Math.cos(rad(u.facing));
  // a battery's guns stay with it until neutralised: its strength is its guns less its crew hits (A-50)
  out[o + 19] = u.originalFigures > 0 ? clip01((u.figures - (u.hits ?? 0)) / u.originalFigures) : 0;
  out[o + 20] = clip01(u.originalFigures / 48);
  out[o + 21] = u.fatigue / 3;
  out[o + 22] = u.disordered ? 1 : 0;
  out[o + 23] = u.marked > 0 ? 1 : 0;
  out[o + 24] = u.retreating ? 1 : 0;
  out[o + 25] = clip01(u.recovery / 6);
  out[o + 26] = u.locked ? 1 : 0;
  out[o + 27] = u.activated ? 1 : 0;
  out[o + 28] = u.stand ? 1 : 0;
  out[o + 29] = clip01(u.halves / 6);
  out[o + 30] = u.forceMarch ? 1 : 0;
  out[o + 31] = u.ooc ? 1 : 0;
  out[o + 32] = u.ammo / 3;
  out[o + 33] = u.gunsLost ? 1 : 0;
  out[o + 34] = u.riddenDown ? 1 : 0;
  out[o + 35] = clip01(u.reasons.length / 3);
  out[o + 36] = inClose.has(u.id) ? 1 : 0;
  out[o + 37] = u.id === under ? 1 : 0;
  out[o + 38] = s.leaders.some((l) => l.attached === u.id && !l.lost) ? 1 : 0;
  if (spec) {
    let r: ReturnType<typeof parseRating> | null = null;
    try {
      r = parseRating(spec.rating);
    } catch {
      r = null;
    }
    if (r) {
      out[o + 39] = clip01(r.morale / 20);
      out[o + 40] = clip01(r.melee / 50);
      out[o + 41] = Math.max(0, FIRE_RATINGS.indexOf(r.fire)) / (FIRE_RATINGS.length - 1);
      out[o + 42] = Math.max(0, MOVE_RATINGS.indexOf(r.move)) / (MOVE_RATINGS.length - 1);
    }
  }
  const [d, sn, cs] = nearestEnemy(s, u);
  out[o + 43] = d;
  out[o + 44] = sn;
  out[o + 45] = cs;
}

/** The sealed choices on the top frame of a (redacted) state, as the runtime keeps them. */
function sealedChoices(f: Frame | undefined): readonly (string | null)[] {
  return ((f as { readonly sealed?: readonly (string | null)[] } | undefined)?.sealed ?? []) as readonly (
    | string
    | null
  )[];
}

const bidAmount = (a: string): number => {
  const n = Number(a.slice(4));
  return Number.isFinite(n) ? n : 0;
};

function encodeState(s0: SeqState, player: number, out: Float32Array, at = 0): void {
  neEncoding.check!(s0);
  const p = player as Side;
  const o = (1 - p) as Side;
  // only what `player` observes: the other side's sealed bid is removed here, before anything is read
  const s = runtime.redact(s0, p);
  out.fill(0, at, at + ST.size);
  const sp = specs(s.sc);
  const f = topOf(s);
  let i = at;

  // global
  const mine = s.units.filter((u) => u.side === p);
  const theirs = s.units.filter((u) => u.side === o);
  const active = (us: readonly SeqUnit[]) => us.filter((u) => u.status === 'active').length;
  const eligible = (us: readonly SeqUnit[]) =>
    us.filter((u) => u.status === 'active' && !u.activated && !u.locked).length;
  const per = (x: number, n: number) => (n > 0 ? clip01(x / n) : 0);
  const sideA = s.sideA;
  const divisions = (side: Side) =>
    s.divisionsFailed.filter((d) => sp.leader.has(d) && s.leaders.some((l) => l.id === d && l.side === side)).length;
  out[i] = s.turns > 0 ? clip01(s.turn / s.turns) : 0;
  out[i + 1] = clip01(s.period / 6);
  out[i + 2] = per(s.points[p], s.perTurn[p]);
  out[i + 3] = per(s.points[o], s.perTurn[o]);
  out[i + 4] = clip01(s.perTurn[p] / 40);
  out[i + 5] = clip01(s.perTurn[o] / 40);
  out[i + 6] = sideA === null ? 0 : 1;
  out[i + 7] = sideA === p ? 1 : 0;
  out[i + 8] = sideA === o ? 1 : 0;
  out[i + 9] = p === 0 ? 1 : 0;
  out[i + 10] = sideA === null ? 0 : per(s.aActivated, active(sideA === p ? mine : theirs));
  out[i + 11] = s.aFinished ? 1 : 0;
  out[i + 12] = s.lastStep === p ? 1 : 0;
  out[i + 13] = s.lastStep === o ? 1 : 0;
  out[i + 14] = per(mine.filter((u) => u.activated).length, mine.length);
  out[i + 15] = per(theirs.filter((u) => u.activated).length, theirs.length);
  out[i + 16] = per(eligible(mine), mine.length);
  out[i + 17] = per(eligible(theirs), theirs.length);
  out[i + 18] = clip01(s.closes.length / 4);
  out[i + 19] = s.armyFailed[p] ? 1 : 0;
  out[i + 20] = s.armyFailed[o] ? 1 : 0;
  out[i + 21] = clip01(divisions(p) / 4);
  out[i + 22] = clip01(divisions(o) / 4);
  out[i + 23] = s.conceded === p || s.conceded === 'both' ? 1 : 0;
  out[i + 24] = s.conceded === o || s.conceded === 'both' ? 1 : 0;
  out[i + 25] = s.over ? 1 : 0;
  const tm = runtime.toMove(s);
  out[i + 26] = tm.kind === 'player' && tm.player === p ? 1 : 0;
  const edge = EDGE_DIR[s.sc.sides[p]?.homeEdge ?? 'south'] ?? 180;
  out[i + 27] = Math.sin(rad(edge));
  out[i + 28] = Math.cos(rad(edge));
  const vp = victoryPoints(s);
  out[i + 29] = Math.tanh((vp[p] - vp[o]) / 10);
  i += stateBlock('global').size;

  // bids: the sealed round (owners in seat order: the i-th choice is seat i's), then the last reveal
  if (f?.t === 'bid') {
    const chosen = sealedChoices(f);
    const own = chosen[p];
    if (typeof own === 'string') {
      out[i] = 1;
      out[i + 1] = per(bidAmount(own), s.points[p]);
    }
    out[i + 2] = chosen.length > o ? 1 : 0;
  }
  if (s.bids) {
    out[i + 3] = f?.t === 'bid' ? 0 : 1;
    out[i + 4] = per(s.bids[p], s.perTurn[p]);
    out[i + 5] = per(s.bids[o], s.perTurn[o]);
    out[i + 6] = s.bids[p] > s.bids[o] ? 1 : 0;
    out[i + 7] = s.bids[p] === s.bids[o] ? 1 : 0;
  }
  i += stateBlock('bids').size;

  // decision
  if (f) {
    const k = FRAME_KINDS.indexOf(f.t);
    out[i + (k >= 0 ? k : FRAME_KINDS.length)] = 1;
    if (f.t === 'pick') {
      out[i + FRAME_KINDS.length + 1] = clip01(f.left / 3);
      out[i + FRAME_KINDS.length + 2] = f.start ? 1 : 0;
    }
    if ('close' in f) out[i + FRAME_KINDS.length + 3] = clip01(f.close / 4);
  }
  i += stateBlock('decision').size;

  // objectives
  const t = tableOf(s.sc);
  objectives(s.sc).forEach((ob, j) => {
    if (j >= MAX_OBJECTIVES) return;
    const q = i + 6 * j;
    out[q] = 1;
    if (ob.at) {
      out[q + 1] = clip01(ob.at.x / t.width);
      out[q + 2] = clip01(ob.at.y / t.height);
    }
    const h = s.held[ob.id] ?? -1;
    out[q + 3] = h === p ? 1 : 0;
    out[q + 4] = h === o ? 1 : 0;
    out[q + 5] = clip01(ob.vp / 5);
  });
  i += 6 * MAX_OBJECTIVES;

  // units and leaders
  const refs = frameRefs(s, f);
  const inClose = new Set<string>();
  for (const c of s.closes) inClose.add(c.charger).add(c.defender);
  const sl = slots(s);
  for (const side of [p, o]) {
    for (const u of s.units) {
      const x = sl.unit.get(u.id)!;
      if (x.side === side) unitFeatures(s, u, sp, refs.unit, inClose, out, i + x.i * U);
    }
    i += U * MAX_UNITS;
  }
  for (const side of [p, o]) {
    for (const l of s.leaders) {
      const x = sl.leader.get(l.id)!;
      if (x.side !== side) continue;
      const q = i + x.i * L;
      const ls = sp.leader.get(l.id);
      let lx = l.x;
      let ly = l.y;
      if (l.attached) {
        const u = s.units.find((v) => v.id === l.attached && v.status === 'active');
        if (u) [lx, ly] = [u.x, u.y];
      }
      out[q] = 1;
      out[q + 1] = l.lost ? 0 : 1;
      out[q + 2] = l.attached ? 1 : 0;
      out[q + 3] = clip01(lx / t.width);
      out[q + 4] = clip01(ly / t.height);
      if (ls) {
        // [p.10] A-56: a leader appointed grand battery commander in play reads as one
        const r = RANKS.indexOf(s.appointed?.some((a) => a.leader === l.id) ? 'grandBattery' : ls.rank);
        if (r >= 0) out[q + 5 + r] = 1;
        out[q + 9] = l.lost ? 0 : clip01(ls.moraleBonus / 5);
        out[q + 10] = l.lost ? 0 : clip01(ls.meleeBonus / 15);
        out[q + 11] = clip01(ls.radius / 48);
      }
      out[q + 12] = l.id === refs.leader ? 1 : 0;
    }
    i += L * MAX_LEADERS;
  }

  // terrain
  out.set(terrainGrid(s.sc), i);
}

// ---------------------------------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------------------------------

/** The type of an action key (any key not recognised: "other"). */
export function actionType(a: string): ActionType {
  const w = a.split(' ')[0] ?? '';
  switch (w) {
    case 'bid':
    case 'activate':
    case 'finish':
    case 'end':
    case 'move':
    case 'road':
    case 'canister':
    case 'shot':
    case 'form':
    case 'face':
    case 'rest':
    case 'reform':
    case 'recover':
      return w;
    case 'fire':
      return a.startsWith('fire out ') ? 'town' : 'fire';
    // [p.20] A-75 a rocket battery's `rockets U`: a fire at U (no numbers)
    case 'rockets':
      return 'fire';
    case 'charge':
      return a.startsWith('charge block ') ? 'town' : 'charge';
    case 'be':
      return 'chooseAD';
    case 'about':
      return a === 'about face' ? 'face' : 'other';
    case 'force':
      return 'force';
    case 'retreat':
      return 'retreat';
    case 'stand':
      return a === 'stand in place' ? 'retreat' : 'other';
    case 'counter-charge':
    case 'hold':
      return 'counter';
    case 'defence':
    case 'no':
      if (a === 'defence fire out') return 'town';
      return a === 'defence fire' || a === 'no defence action' ? 'defence' : 'other';
    case 'join':
    case 'stay':
      return 'leader';
    case 'leave':
      // a leader leaves his unit ("leave"); a unit leaves its block ("leave V1 north")
      return a === 'leave' ? 'leader' : 'town';
    case 'plan':
      return 'plan';
    // [p.19-20] the buildings: entering, moving, leaving, charging a block, attacks, fire out, the advance
    case 'enter':
    case 'blockMove':
    case 'attack':
    case 'blocks':
    case 'advance':
      return 'town';
    case 'crews':
    case 'spike':
    case 'abandon':
    case 'reman':
    case 'overrun':
      return 'crews';
    case 'caisson':
      return 'caisson';
    case 'order':
    case 'misread':
      return 'order';
    case 'influence':
      return 'influence';
    case 'leader':
      return 'modifier';
    case 'runaway':
      return 'charge';
    case 'volunteer':
      return 'volunteer';
    case 'extinguish':
    case 'ignite':
    case 'evacuate':
      return 'town';
    default:
      return 'other';
  }
}

const MOVE_RE =
  /^(move (forward|back|left|right)|road) (½|1) ([\d.]+)"(?: turn ([+-]?[\d.]+))?(?: oblique ([+-]?[\d.]+))?$/;

function encodeActions(s0: SeqState, player: number, actions: readonly string[], out: Float32Array, at = 0): void {
  const p = player as Side;
  const n = actions.length;
  out.fill(0, at, at + n * AT.size);
  if (n === 0) return;
  const s = runtime.redact(s0, p);
  const f = topOf(s);
  const sl = slots(s);
  const refs = frameRefs(s, f);
  const byId = new Map(s.units.map((u) => [u.id, u]));
  const unitSlot = (id: string | undefined): number => {
    if (!id) return -1;
    const x = sl.unit.get(id);
    return x ? (x.side === p ? 0 : MAX_UNITS) + x.i : -1;
  };
  const [oType, oNum, oForm, oUnit, oTarget, oLeader, oPlan] = [
    'type',
    'numbers',
    'formation',
    'unit',
    'target',
    'leader',
    'plan',
  ].map((b) => actionBlock(b).offset) as [number, number, number, number, number, number, number];
  for (let j = 0; j < n; j++) {
    const a = String(actions[j]);
    const o = at + j * AT.size;
    const type = actionType(a);
    out[o + oType + ACTION_TYPES.indexOf(type)] = 1;
    const q = o + oNum;
    const words = a.split(' ');
    let unit = refs.unit;
    let target: string | undefined;
    switch (type) {
      case 'bid': {
        const b = bidAmount(a);
        out[q] = s.points[p] > 0 ? clip01(b / s.points[p]) : 0;
        out[q + 1] = s.perTurn[p] > 0 ? clip01(b / s.perTurn[p]) : 0;
        break;
      }
      case 'chooseAD':
        out[q + 2] = a === 'be A' ? 1 : 0;
        break;
      case 'activate':
        unit = words[1];
        break;
      case 'counter':
        out[q + 2] = a === 'counter-charge' ? 1 : 0;
        target = refs.other;
        break;
      case 'defence':
        out[q + 2] = a === 'defence fire' ? 1 : 0;
        target = refs.other;
        break;
      case 'move':
      case 'road': {
        const m = MOVE_RE.exec(a);
        if (m) {
          out[q + 3] = m[3] === '½' ? 0.5 : 1;
          out[q + 4] = clip01(Number(m[4]) / 24 || 0);
          out[q + 5] = clip11(Number(m[5] ?? 0) / 90 || 0);
          out[q + 6] = clip11(Number(m[6] ?? 0) / 90 || 0);
          const mk = MOVE_KINDS.indexOf((m[2] ?? '') as (typeof MOVE_KINDS)[number]);
          if (mk >= 0) out[q + 12 + mk] = 1;
        }
        break;
      }
      case 'fire':
      case 'canister':
      case 'shot': {
        // [p.10] A-51 a crew in the open (`fire crew B 1`): its battery's slot
        const w = words[1] === 'crew' ? words.slice(1) : words;
        target = w[1];
        const k = Number(w[2]);
        out[q + 3] = Number.isFinite(k) ? clip01(k / 2) : 0;
        out[q + 7] = Number.isFinite(k) ? clip01(k / 2) : 0;
        if (w[3] === 'rapid') out[q + 21] = 1;
        break;
      }
      case 'charge':
        target = words[1] === 'crew' ? words[2] : words[1];
        break;
      case 'crews':
        // [p.10] A-51 a crew charging the enemy on its guns (`crews B charge X`)
        if (words[0] === 'crews' && words[2] === 'charge') target = words[3];
        break;
      case 'form': {
        const fi = FORMATION_LIST.indexOf((words[1] ?? '') as Formation);
        if (fi >= 0) out[o + oForm + fi] = 1;
        // turn.ts's variants [p.7, p.10]: line on a flank or a refused flank (its side as a turn), limbering to the
        // rear (a facing reversed), massed guns (the variant flag)
        if (words[2] === 'left' || words[2] === 'right') out[q + 5] = words[2] === 'left' ? -1 : 1;
        if (words[1] === 'refused') out[q + 6] = 1;
        if (words[2] === 'rear') out[q + 9] = -1;
        if (words[2] === 'massed') out[q + 2] = 1;
        break;
      }
      case 'face': {
        const deg = a === 'about face' ? 180 : Number(words[1]);
        if (Number.isFinite(deg)) {
          out[q + 8] = Math.sin(rad(deg));
          out[q + 9] = Math.cos(rad(deg));
        }
        break;
      }
      case 'retreat': {
        if (a === 'stand in place') out[q + 11] = 1;
        else {
          const d = Number.parseFloat(words[1] ?? '');
          out[q + 10] = Number.isFinite(d) ? clip01(d / 12) : 0;
          // [p.12] A-57 a battery that limbers to retreat (`retreat 4" limbered`): the formation it forms
          if (words.at(-1) === 'limbered') out[o + oForm + FORMATION_LIST.indexOf('limbered')] = 1;
        }
        break;
      }
      case 'leader': {
        out[q + 16 + (words[0] === 'stay' ? 0 : words[0] === 'leave' ? 1 : 2)] = 1;
        const l = refs.leader ? s.leaders.find((x) => x.id === refs.leader) : undefined;
        if (words[0] === 'join') target = words.slice(1).join(' ');
        else if (words[0] === 'leave' && l?.attached) target = l.attached;
        if (refs.leader) {
          const x = sl.leader.get(refs.leader);
          if (x && x.side === p) out[o + oLeader + x.i] = 1;
        }
        break;
      }
      case 'town': {
        // enter B p | blockMove B1 B2 n | leave B side | charge block B face | attack B1 B2 n | fire out B X
        const n = Number(words[words.length - 1]);
        if (/^(blockMove|attack) /.test(a) && Number.isFinite(n)) out[q + 20] = clip01(n / 12);
        if (a.startsWith('fire out ')) target = words[3];
        break;
      }
      case 'influence': {
        const n = Number(words[1]);
        out[q + 22] = Number.isFinite(n) ? clip01(n / 6) : 0;
        break;
      }
      case 'modifier':
        out[q + 2] = a.endsWith('+1') ? 1 : 0;
        break;
      case 'order': {
        const k = ORDER_KINDS.indexOf((words[2] ?? '') as (typeof ORDER_KINDS)[number]);
        if (words[0] === 'order' && k >= 0) out[q + 23] = k / (ORDER_KINDS.length - 1);
        // [p.17] A-28 a written condition (`… then <follow-on> after N | if X taken | if enemy withdraws | on
        // arrival`): its kind in the move kind cells, its turns/2 in the actions cell, the follow-on's kind in the
        // threshold influence cell
        const then = words[0] === 'order' ? a.indexOf(' then ') : -1;
        if (then >= 0) {
          const rest = a.slice(then + ' then '.length);
          const f = ORDER_KINDS.indexOf((rest.split(' ')[0] ?? '') as (typeof ORDER_KINDS)[number]);
          if (f >= 0) out[q + 22] = f / (ORDER_KINDS.length - 1);
          const n = / after (\d+)$/.exec(rest);
          const c = n
            ? 0
            : / taken$/.test(rest)
              ? 1
              : / withdraws$/.test(rest)
                ? 2
                : / on arrival$/.test(rest)
                  ? 3
                  : -1;
          if (c >= 0) out[q + 12 + c] = 1;
          if (n) out[q + 3] = clip01(Number(n[1]) / 2);
        }
        break;
      }
      case 'plan': {
        // plan close on X [and fire] | plan fire and charge X | plan advance twice | …
        const m = /^plan (close on|fire and charge) (?:crew )?(\S+)( and fire)?$/.exec(a);
        const kind = m
          ? m[1] === 'close on'
            ? m[3]
              ? 'close on and fire'
              : 'close on'
            : 'fire and charge'
          : a.slice(5);
        const k = PLAN_KINDS.indexOf(kind as (typeof PLAN_KINDS)[number]);
        if (k >= 0) out[o + oPlan + k] = 1;
        if (m) target = m[2];
        break;
      }
      default:
        break;
    }
    const us = unitSlot(unit);
    if (us >= 0) out[o + oUnit + us] = 1;
    const ts = unitSlot(target);
    if (ts >= 0) {
      out[o + oTarget + ts] = 1;
      const a1 = unit ? byId.get(unit) : undefined;
      const t1 = byId.get(target!);
      if (a1 && t1) out[q + 19] = clip01(Math.hypot(t1.x - a1.x, t1.y - a1.y) / (24 * IN));
    }
  }
}

export const neEncoding: Encoding<SeqState, string> = {
  id: ID,
  version: 1,
  stateSize: ST.size,
  actionSize: AT.size,
  stateLayout: ST.blocks,
  actionLayout: AT.blocks,
  check(s) {
    for (const side of [0, 1] as const) {
      const name = s.sc.sides[side]?.name ?? (side === 0 ? 'first side' : 'second side');
      const n = s.units.filter((u) => u.side === side).length;
      if (n > MAX_UNITS)
        throw new Error(
          `encoding ${ID} has ${MAX_UNITS} unit slots per side; side ${side} (${name}) of scenario ${s.scenarioId} has ${n} units`,
        );
      const m = s.leaders.filter((l) => l.side === side).length;
      if (m > MAX_LEADERS)
        throw new Error(
          `encoding ${ID} has ${MAX_LEADERS} leader slots per side; side ${side} (${name}) of scenario ${s.scenarioId} has ${m} leaders`,
        );
    }
    const k = s.sc.victory.objectives.length;
    if (k > MAX_OBJECTIVES)
      throw new Error(`encoding ${ID} has ${MAX_OBJECTIVES} objective slots; scenario ${s.scenarioId} has ${k}`);
  },
  encodeState,
  encodeActions,
};
