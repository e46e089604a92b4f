/**
 * Observation encoding for Charge! Eagles Rising, version 1 (see `engine/core/encoding.ts`).
 *
 * From the view of `player`, and only from what it observes: every state is first passed through the Game's
 * `observe` (index.ts), which redacts the sealed choices of the round in hand and blanks the other side's written
 * orders (`secret`), so a side sees its own written orders and never the other's until the S2 reveal (C7). That the
 * other side has an order on its way by messenger is public from the S2 reveal (C2) and is encoded for both.
 *
 * Its own units, leaders and commands (MFs and MEs) fill the "mine" blocks, the opponent's the "theirs" blocks, each in
 * scenario order (a unit keeps its slot for good: broken and captured units stay with their status). Positions are
 * table coordinates scaled to [0, 1] and facings sin/cos (clockwise from north), the same for both seats, so what one
 * seat sees as mine the other sees as theirs, cell for cell; the viewer's home edge is in the global block. The
 * terrain is a static coarse grid of the table. Each legal action (a string key) is encoded from its key: its type,
 * the unit, target, leader and command it names (by slot), the order it writes, the move, strategic move, reaction or
 * winner's option it is, and the distance from its unit to its target. An unknown key is of type "other", never an
 * error.
 *
 * Caps (`check` refuses a state past them by name): 24 unit slots, 12 leader slots and 12 command slots per side,
 * 6 objectives.
 */
import { type Encoding, type FeatureBlock, layout, sideSlots } from '../../core/encoding.ts';
import { IN, type Vec, pointInPolygon, segmentsIntersect } from '../../geometry/geometry.ts';
import type { Frame } from './frames.ts';
import { orderOfKey } from './orders.ts';
import { cer, PHASES } from './rules.ts';
import { type Action, type S, lostFraction, orderOfElement, orderRecipients } from './state.ts';
import type { Ctx, ElementState, FormationState, Formation, Side, UnitState } from './types.ts';
import { COMMAND_RATINGS, FORMATIONS, INSPIRATIONS, LEADER_LEVELS, ORDER_TYPES, UNIT_CLASSES } from './types.ts';
import { victoryPoints, objectiveHolder } from './victory.ts';

/** Unit slots per side. */
export const MAX_UNITS = 24;
/** Leader slots per side (the CC and every MF and ME leader). */
const MAX_LEADERS = 12;
/** Command slots per side: the MFs, then the MEs, in scenario order. */
const MAX_COMMANDS = 12;
/** Objective slots. */
const MAX_OBJECTIVES = 6;
/** The terrain grid: columns × rows over the whole table. */
const GX = 12;
const GY = 12;

const ID = 'charge-eagles-rising/v1';

/** The frame kinds of frames.ts, for the one-hot of the frame on top of the stack (any other: the last cell). */
const FRAME_KINDS: readonly Frame['t'][] = [
  'orders',
  'leaderCheck',
  'replacement',
  'accept',
  'arrival',
  'moraleScan',
  'morale',
  'strategicSide',
  'strategic',
  'forceMarch',
  'skirmish',
  'skirmishGuns',
  'initiative',
  'initiativeChoice',
  'leaders',
  'activation',
  'unitAction',
  'moveFire',
  'moveTest',
  'moved',
  't2c',
  'returnFire',
  'fireResolve',
  'volley',
  'fireApply',
  'recoverAll',
  'recover',
  'skill',
  'leaderTactical',
  'activationsDone',
  'declareCharges',
  'opCharge',
  'reactions',
  'squareTest',
  'chargeTest',
  'resolveCharges',
  'closeIn',
  'closingTests',
  'closeRest',
  'pullUp',
  'afterEvade',
  'contact',
  'chargesDone',
  'cacs',
  'cac',
  'cacWin',
  'cacTieFallBack',
  'exploit',
  'tacticalEnd',
  'phase',
];

/** Every formation of every arm, in one list (types.ts `FORMATIONS`). */
const FORMATION_LIST: readonly Formation[] = [
  ...new Set([...FORMATIONS.infantry, ...FORMATIONS.cavalry, ...FORMATIONS.artillery]),
];
const KINDS = ['infantry', 'cavalry', 'artillery'] as const;
const STATUSES = ['offBoard', 'active', 'broken', 'captured'] as const;
const LEADER_STATUSES = ['active', 'knockedOut', 'incapacitated', 'kia', 'captured'] as const;
const ROLES = ['army', 'formation', 'element'] as const;
const WEIGHTS = ['light', 'medium', 'heavy', 'armored'] as const;
const GUNS = ['light', 'medium68', 'medium9', 'heavy'] as const;
/** Terrain channels of the grid (the geometry's area and line kinds, types.ts `Ctx`). */
const TERRAIN_CHANNELS = [
  'woods (dense 1, light and orchard ½)',
  'rough or muddy',
  'BUA',
  'steep rise',
  'road or bridge',
  'stream or ford',
  'obstacle (minor ½, major 1)',
] as const;

/** The action types, parsed from the key's first word(s). */
export const ACTION_TYPES = [
  'order',
  'strategic',
  'initiative',
  'attach',
  'detach',
  'done',
  'activate',
  'end',
  'hold',
  'form',
  'move',
  'fire',
  'return',
  'no',
  'recover',
  'unblow',
  'charge',
  'op-charge',
  'react',
  'pull',
  'take',
  'exploit',
  'rally',
  'halt',
  'other',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
/** `no …`: what is declined. */
const NO_KINDS = ['fire', 'return', 'recover', 'op-charge'] as const;
/** [T2a] the move menu's directions (tactical.ts `DIRS`). */
const DIRS = ['fwd', 'l22', 'r22', 'l45', 'r45', 'back', 'left', 'right'] as const;
const FRACS: Readonly<Record<string, number>> = { '1/4': 0.25, '1/2': 0.5, '3/4': 0.75, '1': 1 };
/** [T2b] the reactions (charges.ts `react U …`). */
const REACTIONS = ['stand', 'square', 'face', 'counter-charge', 'evade', 'abandon', 'fire-evade', 'limber'] as const;
/** [S4] the compass routes (strategic.ts). */
const COMPASS: Readonly<Record<string, number>> = { N: 0, NE: 45, E: 90, SE: 135, S: 180, SW: 225, W: 270, NW: 315 };

const UNIT_DOC =
  `present, status one-hot (${STATUSES.join(', ')}), kind one-hot (${KINDS.join(', ')}), class (untrained 0 … old ` +
  `guard 1), formation one-hot (${FORMATION_LIST.join(', ')}), strength now/start (figures, or guns), start/36, ` +
  'x/width, y/height, sin facing, cos facing, DISORDER, WORN, SPENT, BLOWN, SUPPRESSED, guns abandoned, leader ' +
  'attached, moved, fired, charging, CACs this phase/2, recovery tried, cavalry weight/3, lancers, gun type/3, horse ' +
  'artillery, crew class (1 → 1, 3 → 0), light infantry, rifles, 3 ranks, linear doctrine, skirmish value/10, its ' +
  `ME's order in force one-hot (${ORDER_TYPES.join(', ')}), its ME committed, activated this phase, moved ` +
  'strategically this turn, under decision, a charger, charged, nearest active enemy centre distance/24" (1: none ' +
  'or beyond), its bearing relative to the facing sin, cos';
const U = 60;
const LEADER_DOC =
  `present, status one-hot (${LEADER_STATUSES.join(', ')}), role one-hot (${ROLES.join(', ')}), level one-hot ` +
  `(${LEADER_LEVELS.join(', ')}), command rating (poor 0 … superior 1), inspiration (uninspiring 0 … charismatic ` +
  '1), x/width, y/height, attached, off the table, a replacement rolled, under decision';
const L = 21;
const COMMAND_DOC =
  `present, an MF (not an ME), order in force one-hot (${ORDER_TYPES.join(', ')}), its point x/width, y/height, ` +
  'failed acceptance attempts/3, committed, broken, a messenger on its way (public from S2), turns until it ' +
  'arrives/3, strength lost (fraction), a morale trigger recorded, tested this S3, off the table, arriving this ' +
  'turn, activated this phase, moved strategically this turn, units on the table/units, under decision';
const C = 23;
const WRITTEN_DOC =
  `${MAX_COMMANDS} slots × 10, by MY command slot: an order written (this S1, sealed, or on its way by messenger), ` +
  `its type one-hot (${ORDER_TYPES.join(', ')}), its point x/width, y/height, turns until its S2 roll/3, written ` +
  "this turn. Only the viewer's own orders: the other side's are never read (C7)";

const ST = layout([
  {
    name: 'global',
    size: 24,
    doc:
      'turn/turns, I am side A, my home edge sin, cos, I go first in the tactical phase, they do, I move first in S4, ' +
      'the tactical side is mine, theirs, game over, the decision is mine, it is theirs, a chance node, my strength ' +
      'lost, theirs, my army broken, theirs, my new losses since S3, theirs, tanh(VP difference/10) (positive: ' +
      'ahead), my orders written this S1/my recipients, charges declared/8, CACs queued/4, won (1), lost (1)',
  },
  { name: 'phase', size: PHASES.length, doc: `one-hot phase: ${PHASES.join(', ')}` },
  {
    name: 'decision',
    size: FRAME_KINDS.length + 1,
    doc: `one-hot kind of the top frame: ${FRAME_KINDS.join(', ')}, other`,
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
  { name: 'mine: commands', size: C * MAX_COMMANDS, doc: `${MAX_COMMANDS} slots × ${C}: ${COMMAND_DOC}` },
  { name: 'theirs: commands', size: C * MAX_COMMANDS, doc: `${MAX_COMMANDS} slots × ${C}, as above` },
  { name: 'written', size: 10 * MAX_COMMANDS, doc: WRITTEN_DOC },
  {
    name: 'terrain',
    size: GX * GY * TERRAIN_CHANNELS.length,
    doc:
      `a ${GX} × ${GY} grid over the table (column-major within each channel: x then y), channels ` +
      `${TERRAIN_CHANNELS.join(', ')}: areas the covered fraction, lines 1 where one crosses the cell`,
  },
]);

const AT = layout([
  { name: 'type', size: ACTION_TYPES.length, doc: `one-hot action type: ${ACTION_TYPES.join(', ')}` },
  {
    name: 'flags',
    size: 8,
    doc:
      `what a "no" declines one-hot (${NO_KINDS.join(', ')}); done charges (not the T1 done); initiative first; ` +
      'charge at the double quick; charge home (a pull-up refused)',
  },
  {
    name: 'order',
    size: 10,
    doc: `the written order: keep, type one-hot (${ORDER_TYPES.join(', ')}), its point x/width, y/height, an objective, an enemy`,
  },
  {
    name: 'move',
    size: DIRS.length + 2 + FORMATION_LIST.length + 1,
    doc:
      `[T2a] direction one-hot (${DIRS.join(', ')}), fraction of the allowance, double quick; the formation formed ` +
      `one-hot (${FORMATION_LIST.join(', ')}), about face`,
  },
  {
    name: 'strategic',
    size: 9,
    doc: '[S4] none, toward its point, by road, heading sin, cos, half (not full), column, force march, a move',
  },
  { name: 'react', size: REACTIONS.length, doc: `[T2b] reaction one-hot: ${REACTIONS.join(', ')}` },
  {
    name: 'win',
    size: 3,
    doc: '[Result explanations] take ground wheel/45, exploit inches/12, exploit straight ahead',
  },
  { name: 'unit', size: 2 * MAX_UNITS, doc: 'one-hot slot of the unit the action is taken with (mine, then theirs)' },
  {
    name: 'target',
    size: 2 * MAX_UNITS,
    doc: 'one-hot slot of its target unit (fire, return fire, charge, op-charge, attach to, abandon/evade to, exploit into)',
  },
  { name: 'leader', size: MAX_LEADERS, doc: 'one-hot slot of the leader it attaches or detaches (mine)' },
  {
    name: 'command',
    size: 2 * MAX_COMMANDS,
    doc: 'one-hot slot of the MF or ME it names (activate, order, strategic move; mine, then theirs)',
  },
  { name: 'distance', size: 1, doc: 'centre distance from its unit to its target/24" (0: none)' },
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
const per = (x: number, n: number) => (n > 0 ? clip01(x / n) : 0);
const topOf = (s: S): Frame | undefined => s.stack[s.stack.length - 1];
const EDGE_DIR: Readonly<Record<string, number>> = { south: 180, north: 0, east: 90, west: 270 };

// ---------------------------------------------------------------------------------------------------------------------
// Slots
// ---------------------------------------------------------------------------------------------------------------------

const slots = (s: S) => sideSlots(s.units, s.leaders);

/** Command slots: each side's MFs, then its MEs, in scenario order (fixed for a game: kept per `ctx`). */
const commandCache = new WeakMap<Ctx, Map<string, { side: number; i: number }>>();
function commandSlots(s: S): Map<string, { side: number; i: number }> {
  let m = commandCache.get(s.ctx);
  if (m) return m;
  const n = [0, 0];
  m = new Map();
  for (const c of [...s.formations, ...s.elements]) m.set(c.id, { side: c.side, i: n[c.side]!++ });
  commandCache.set(s.ctx, m);
  return m;
}

// ---------------------------------------------------------------------------------------------------------------------
// Terrain (static per scenario)
// ---------------------------------------------------------------------------------------------------------------------

const terrainCache = new WeakMap<Ctx, Float32Array>();

/** Does the polyline cross (or lie in) the axis-aligned box? */
function lineInBox(pts: readonly Vec[], x0: number, y0: number, x1: number, y1: number): boolean {
  const inBox = (p: Vec) => p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1;
  const c = [
    { x: x0, y: y0 },
    { x: x1, y: y0 },
    { x: x1, y: y1 },
    { x: x0, y: y1 },
  ];
  for (let i = 0; i < pts.length; i++) {
    if (inBox(pts[i]!)) return true;
    if (i + 1 < pts.length)
      for (let k = 0; k < 4; k++) if (segmentsIntersect(pts[i]!, pts[i + 1]!, c[k]!, c[(k + 1) % 4]!)) return true;
  }
  return false;
}

/** The area kinds' channel and weight (types.ts `Ctx`). */
const AREA_CHANNEL: Readonly<Record<string, readonly [number, number]>> = {
  denseWoods: [0, 1],
  lightWoods: [0, 0.5],
  orchard: [0, 0.5],
  rough: [1, 1],
  muddy: [1, 1],
  bua: [2, 1],
  steepRise: [3, 1],
  bridge: [4, 1],
  ford: [5, 1],
};
const LINE_CHANNEL: Readonly<Record<string, readonly [number, number]>> = {
  road: [4, 1],
  stream: [5, 1],
  minorObstacle: [6, 0.5],
  majorObstacle: [6, 1],
};

function terrainGrid(ctx: Ctx): Float32Array {
  const g = terrainCache.get(ctx);
  if (g) return g;
  const cells = GX * GY;
  const grid = new Float32Array(cells * TERRAIN_CHANNELS.length);
  const cw = ctx.width / GX;
  const ch = ctx.height / GY;
  const SUB = 4;
  const put = (channel: number, cell: number, v: number) => {
    const k = channel * cells + cell;
    grid[k] = Math.max(grid[k]!, clip01(v));
  };
  for (let cx = 0; cx < GX; cx++)
    for (let cy = 0; cy < GY; cy++) {
      const cell = cx * GY + cy;
      const x0 = cx * cw;
      const y0 = cy * ch;
      const samples: Vec[] = [];
      for (let i = 0; i < SUB; i++)
        for (let j = 0; j < SUB; j++) samples.push({ x: x0 + ((i + 0.5) * cw) / SUB, y: y0 + ((j + 0.5) * ch) / SUB });
      for (const a of ctx.terrain.areas) {
        const ch0 = AREA_CHANNEL[a.kind];
        if (!ch0) continue;
        const f = samples.filter((p) => pointInPolygon(p, a.polygon)).length / samples.length;
        // a ford or bridge is a small area: any part of it marks the cell
        const v = a.kind === 'ford' || a.kind === 'bridge' ? (f > 0 ? 1 : 0) : f;
        put(ch0[0], cell, v * ch0[1]);
      }
      for (const b of ctx.buas)
        put(2, cell, samples.filter((p) => pointInPolygon(p, b.polygon)).length / samples.length);
      for (const l of ctx.terrain.lines) {
        const ch0 = LINE_CHANNEL[l.kind];
        if (ch0 && lineInBox(l.points, x0, y0, x0 + cw, y0 + ch)) put(ch0[0], cell, ch0[1]);
      }
    }
  terrainCache.set(ctx, grid);
  return grid;
}

// ---------------------------------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------------------------------

/** The unit, its target, the leader and the command a frame is about (by id). */
function frameRefs(f: Frame | undefined): { unit?: string; target?: string; leader?: string; command?: string } {
  if (!f) return {};
  const x = f as unknown as Readonly<Record<string, unknown>>;
  const str = (k: string) => (typeof x[k] === 'string' && x[k] ? (x[k] as string) : undefined);
  const first = (k: string) => (Array.isArray(x[k]) && typeof x[k][0] === 'string' ? (x[k][0] as string) : undefined);
  return {
    unit: str('unit') ?? str('charger') ?? str('firer') ?? first('attackers') ?? str('moved'),
    target: str('target') ?? first('defenders'),
    leader: str('leader'),
    command: str('element') ?? str('to') ?? (f.t === 'morale' ? str('id') : undefined),
  };
}

/** The nearest active enemy's centre distance/24" and bearing relative to the facing (sin, cos). */
function nearestEnemy(s: S, u: UnitState): [number, number, number] {
  if (u.status !== 'active') return [1, 0, 0];
  let best = Number.POSITIVE_INFINITY;
  let bx = 0;
  let by = 0;
  for (const o of s.units) {
    if (o.side === u.side || o.status !== 'active') continue;
    const d = Math.hypot(o.pos.x - u.pos.x, o.pos.y - u.pos.y);
    if (d < best) [best, bx, by] = [d, o.pos.x - u.pos.x, o.pos.y - u.pos.y];
  }
  if (best === Number.POSITIVE_INFINITY) return [1, 0, 0];
  if (best === 0) return [0, 0, 0];
  const rel = Math.atan2(bx, by) - rad(u.facing);
  return [clip01(best / (24 * IN)), Math.sin(rel), Math.cos(rel)];
}

function unitFeatures(
  s: S,
  u: UnitState,
  refs: ReturnType<typeof frameRefs>,
  chargers: ReadonlySet<string>,
  charged: ReadonlySet<string>,
  out: Float32Array,
  o: number,
): void {
  out[o] = 1;
  out[o + 1 + STATUSES.indexOf(u.status)] = 1;
  out[o + 5 + KINDS.indexOf(u.kind)] = 1;
  out[o + 8] = UNIT_CLASSES.indexOf(u.class) / (UNIT_CLASSES.length - 1);
  const fi = FORMATION_LIST.indexOf(u.formation);
  if (fi >= 0) out[o + 9 + fi] = 1;
  let q = o + 9 + FORMATION_LIST.length; // 18
  const [now, start] = u.kind === 'artillery' ? [u.guns, u.gunsStart] : [u.figures, u.figuresStart];
  out[q] = per(now, start);
  out[q + 1] = clip01(start / 36);
  out[q + 2] = clip01(u.pos.x / s.ctx.width);
  out[q + 3] = clip01(u.pos.y / s.ctx.height);
  out[q + 4] = Math.sin(rad(u.facing));
  out[q + 5] = Math.cos(rad(u.facing));
  out[q + 6] = u.disordered ? 1 : 0;
  out[q + 7] = u.worn ? 1 : 0;
  out[q + 8] = u.spent ? 1 : 0;
  out[q + 9] = u.kind === 'cavalry' && u.blown ? 1 : 0;
  out[q + 10] = u.kind === 'artillery' && u.suppressed ? 1 : 0;
  out[q + 11] = u.kind === 'artillery' && u.abandoned ? 1 : 0;
  out[q + 12] = u.attachedLeader ? 1 : 0;
  out[q + 13] = u.phase.moved ? 1 : 0;
  out[q + 14] = u.phase.fired ? 1 : 0;
  out[q + 15] = u.phase.charging ? 1 : 0;
  out[q + 16] = clip01(u.phase.cacCount / 2);
  out[q + 17] = u.phase.recoveryTried ? 1 : 0;
  q += 18; // 36
  if (u.kind === 'cavalry') {
    out[q] = WEIGHTS.indexOf(u.weight) / 3;
    out[q + 1] = u.lancers ? 1 : 0;
  } else if (u.kind === 'artillery') {
    out[q + 2] = GUNS.indexOf(u.gunType) / 3;
    out[q + 3] = u.mobility === 'horse' ? 1 : 0;
    out[q + 4] = (3 - u.crewClass) / 2;
  } else {
    out[q + 5] = u.light ? 1 : 0;
    out[q + 6] = u.weapon === 'rifle' ? 1 : 0;
    out[q + 7] = u.ranks === 3 ? 1 : 0;
    out[q + 8] = u.doctrine === 'linear' ? 1 : 0;
    out[q + 9] = clip01(u.scv / 10);
  }
  q += 10; // 46
  const e = s.elements.find((x) => x.id === u.element);
  if (e) {
    const ord = orderOfElement(s, e);
    if (ord) out[q + ORDER_TYPES.indexOf(ord.type)] = 1;
    out[q + 5] = e.committed ? 1 : 0;
    out[q + 6] = e.activatedThisPhase ? 1 : 0;
    out[q + 7] = e.strategicMoveThisTurn ? 1 : 0;
  }
  q += 8; // 54
  out[q] = u.id === refs.unit ? 1 : 0;
  out[q + 1] = chargers.has(u.id) ? 1 : 0;
  out[q + 2] = charged.has(u.id) ? 1 : 0;
  const [d, sn, cs] = nearestEnemy(s, u);
  out[q + 3] = d;
  out[q + 4] = sn;
  out[q + 5] = cs; // 59: U = 60
}

function commandFeatures(
  s: S,
  c: FormationState | ElementState,
  under: string | undefined,
  out: Float32Array,
  o: number,
): void {
  out[o] = 1;
  out[o + 1] = c.kind === 'formation' ? 1 : 0;
  if (c.order) {
    out[o + 2 + ORDER_TYPES.indexOf(c.order.type)] = 1;
    out[o + 7] = clip01(c.order.point.x / s.ctx.width);
    out[o + 8] = clip01(c.order.point.y / s.ctx.height);
  }
  out[o + 9] = clip01(c.orderAttempts / 3);
  out[o + 10] = c.committed ? 1 : 0;
  out[o + 11] = c.broken ? 1 : 0;
  const messenger = c.messengerArrivesTurn > s.turn;
  out[o + 12] = messenger ? 1 : 0;
  out[o + 13] = messenger ? clip01((c.messengerArrivesTurn - s.turn) / 3) : 0;
  const els = c.kind === 'formation' ? s.elements.filter((e) => c.elements.includes(e.id)) : [c];
  const ids = new Set(els.flatMap((e) => e.units));
  const units = s.units.filter((u) => ids.has(u.id));
  out[o + 14] = lostFraction(s, units);
  const t = c.moraleTriggers;
  out[o + 15] = t.tookKia || t.lostCac || t.unitBroken || t.elementBroken || t.nearbyBreaks.length > 0 ? 1 : 0;
  out[o + 16] = c.moraleTested ? 1 : 0;
  if (c.kind === 'element') {
    out[o + 17] = c.offBoard ? 1 : 0;
    out[o + 18] = c.offBoard?.arriving ? 1 : 0;
    out[o + 19] = c.activatedThisPhase ? 1 : 0;
    out[o + 20] = c.strategicMoveThisTurn ? 1 : 0;
  }
  out[o + 21] = per(units.filter((u) => u.status === 'active').length, units.length);
  out[o + 22] = c.id === under ? 1 : 0;
}

/** `s` as `player` sees it (the Game's `observe`, given by index.ts). */
type Observe = (s: S, player: number) => S;

/** The encoding, given the Game's `observe` (index.ts: the redaction and the blanking of the other's orders). */
export function createEncoding(observe: Observe): Encoding<S, Action> {
  function check(s: S): void {
    for (const side of [0, 1] as const) {
      const name = s.armies[side]?.name ?? `side ${side}`;
      const n = s.units.filter((u) => u.side === side).length;
      if (n > MAX_UNITS)
        throw new Error(
          `encoding ${ID} has ${MAX_UNITS} unit slots per side; side ${side} (${name}) of scenario ${s.ctx.scenarioId} has ${n} units`,
        );
      const m = s.leaders.filter((l) => l.side === side).length;
      if (m > MAX_LEADERS)
        throw new Error(
          `encoding ${ID} has ${MAX_LEADERS} leader slots per side; side ${side} (${name}) of scenario ${s.ctx.scenarioId} has ${m} leaders`,
        );
      const c = s.formations.filter((x) => x.side === side).length + s.elements.filter((x) => x.side === side).length;
      if (c > MAX_COMMANDS)
        throw new Error(
          `encoding ${ID} has ${MAX_COMMANDS} command slots per side; side ${side} (${name}) of scenario ${s.ctx.scenarioId} has ${c} MFs and MEs`,
        );
    }
    const k = s.ctx.objectives.length;
    if (k > MAX_OBJECTIVES)
      throw new Error(`encoding ${ID} has ${MAX_OBJECTIVES} objective slots; scenario ${s.ctx.scenarioId} has ${k}`);
  }

  function encodeState(s0: S, player: number, out: Float32Array, at = 0): void {
    check(s0);
    const p = player as Side;
    const o = (1 - p) as Side;
    // only what `player` observes: the other side's written orders and sealed choices are gone before anything is read
    const s = observe(s0, p);
    out.fill(0, at, at + ST.size);
    const f = topOf(s);
    const refs = frameRefs(f);
    let i = at;

    // global
    const tm = cer.toMove(s);
    const side = (q: Side) => s.units.filter((u) => u.side === q);
    const vp = victoryPoints(s);
    out[i] = per(s.turn, s.ctx.turns);
    out[i + 1] = p === 0 ? 1 : 0;
    const edge = EDGE_DIR[s.ctx.homeEdges[p]] ?? 180;
    out[i + 2] = Math.sin(rad(edge));
    out[i + 3] = Math.cos(rad(edge));
    out[i + 4] = s.firstSide === p ? 1 : 0;
    out[i + 5] = s.firstSide === o ? 1 : 0;
    out[i + 6] = s.strategicFirst === p ? 1 : 0;
    out[i + 7] = s.tactical?.activeSide === p ? 1 : 0;
    out[i + 8] = s.tactical?.activeSide === o ? 1 : 0;
    out[i + 9] = s.result ? 1 : 0;
    out[i + 10] = tm.kind === 'player' && tm.player === p ? 1 : 0;
    out[i + 11] = tm.kind === 'player' && tm.player === o ? 1 : 0;
    out[i + 12] = tm.kind === 'chance' ? 1 : 0;
    out[i + 13] = lostFraction(s, side(p));
    out[i + 14] = lostFraction(s, side(o));
    out[i + 15] = s.armies[p].broken ? 1 : 0;
    out[i + 16] = s.armies[o].broken ? 1 : 0;
    out[i + 17] = s.armies[p].newLosses ? 1 : 0;
    out[i + 18] = s.armies[o].newLosses ? 1 : 0;
    out[i + 19] = Math.tanh((vp[p] - vp[o]) / 10);
    const mineSealed = ownSealed(s, f, p);
    out[i + 20] = per(mineSealed.length, orderRecipients(s, p).length);
    out[i + 21] = clip01((s.tactical?.charges.length ?? 0) / 8);
    out[i + 22] = clip01((s.tactical?.cacQueue.length ?? 0) / 4);
    out[i + 23] = s.result ? (s.result.winner === p ? 1 : s.result.winner === o ? -1 : 0) : 0;
    i += stateBlock('global').size;

    // phase
    out[i + PHASES.indexOf(s.phase)] = 1;
    i += PHASES.length;

    // decision
    if (f) {
      const k = FRAME_KINDS.indexOf(f.t);
      out[i + (k >= 0 ? k : FRAME_KINDS.length)] = 1;
    }
    i += FRAME_KINDS.length + 1;

    // objectives
    s.ctx.objectives.forEach((ob, j) => {
      const q = i + 6 * j;
      out[q] = 1;
      out[q + 1] = clip01(ob.point.x / s.ctx.width);
      out[q + 2] = clip01(ob.point.y / s.ctx.height);
      const h = objectiveHolder(s, ob);
      out[q + 3] = h === p ? 1 : 0;
      out[q + 4] = h === o ? 1 : 0;
      out[q + 5] = clip01(ob.vp / 5);
    });
    i += 6 * MAX_OBJECTIVES;

    // units, leaders, commands
    const chargers = new Set(s.tactical?.charges.map((c) => c.charger) ?? []);
    const charged = new Set(s.tactical?.charges.map((c) => c.target) ?? []);
    const sl = slots(s);
    for (const q of [p, o]) {
      for (const u of s.units) {
        const x = sl.unit.get(u.id)!;
        if (x.side === q) unitFeatures(s, u, refs, chargers, charged, out, i + x.i * U);
      }
      i += U * MAX_UNITS;
    }
    for (const q of [p, o]) {
      for (const l of s.leaders) {
        const x = sl.leader.get(l.id)!;
        if (x.side !== q) continue;
        const b = i + x.i * L;
        out[b] = 1;
        out[b + 1 + LEADER_STATUSES.indexOf(l.status)] = 1;
        out[b + 6 + ROLES.indexOf(l.role)] = 1;
        out[b + 9 + LEADER_LEVELS.indexOf(l.level)] = 1;
        out[b + 13] = COMMAND_RATINGS.indexOf(l.command) / (COMMAND_RATINGS.length - 1);
        out[b + 14] = INSPIRATIONS.indexOf(l.inspiration) / (INSPIRATIONS.length - 1);
        out[b + 15] = clip01(l.pos.x / s.ctx.width);
        out[b + 16] = clip01(l.pos.y / s.ctx.height);
        out[b + 17] = l.attachedTo ? 1 : 0;
        out[b + 18] = l.offBoard ? 1 : 0;
        out[b + 19] = l.replacement ? 1 : 0;
        out[b + 20] = l.id === refs.leader ? 1 : 0;
      }
      i += L * MAX_LEADERS;
    }
    const cs = commandSlots(s);
    for (const q of [p, o]) {
      for (const c of [...s.formations, ...s.elements]) {
        const x = cs.get(c.id);
        if (x && x.side === q) commandFeatures(s, c, refs.command, out, i + x.i * C);
      }
      i += C * MAX_COMMANDS;
    }

    // written: my own orders only (the other side's were blanked by `observe`; they are never read here)
    const written = [
      ...s.secret[p].orders.map((w) => ({
        to: w.to,
        order: w.order,
        arrives: w.arrivesTurn,
        now: w.issuedTurn === s.turn,
      })),
      ...mineSealed.map((w) => ({ ...w, arrives: s.turn, now: true })),
    ];
    for (const w of written) {
      const x = cs.get(w.to);
      if (!x || x.side !== p) continue;
      const b = i + 10 * x.i;
      out.fill(0, b, b + 10);
      out[b] = 1;
      out[b + 1 + ORDER_TYPES.indexOf(w.order.type)] = 1;
      out[b + 6] = clip01(w.order.point.x / s.ctx.width);
      out[b + 7] = clip01(w.order.point.y / s.ctx.height);
      out[b + 8] = clip01((w.arrives - s.turn) / 3);
      out[b + 9] = w.now ? 1 : 0;
    }
    i += 10 * MAX_COMMANDS;

    // terrain
    out.set(terrainGrid(s.ctx), i);
  }

  function encodeActions(s0: S, player: number, actions: readonly Action[], out: Float32Array, at = 0): void {
    const p = player as Side;
    const n = actions.length;
    out.fill(0, at, at + n * AT.size);
    if (n === 0) return;
    const s = observe(s0, p);
    const refs = frameRefs(topOf(s));
    const sl = slots(s);
    const cs = commandSlots(s);
    const byId = new Map(s.units.map((u) => [u.id, u]));
    const unitSlot = (id: string | undefined): number => {
      const x = id ? sl.unit.get(id) : undefined;
      return x ? (x.side === p ? 0 : MAX_UNITS) + x.i : -1;
    };
    const cmdSlot = (id: string | undefined): number => {
      const x = id ? cs.get(id) : undefined;
      return x ? (x.side === p ? 0 : MAX_COMMANDS) + x.i : -1;
    };
    const off = Object.fromEntries(AT.blocks.map((b) => [b.name, b.offset])) as Record<string, number>;
    for (let j = 0; j < n; j++) {
      const a = String(actions[j]);
      const o = at + j * AT.size;
      const type = actionType(a);
      out[o + off.type! + ACTION_TYPES.indexOf(type)] = 1;
      const w = a.split(' ');
      const fl = o + off.flags!;
      let unit: string | undefined;
      let target: string | undefined;
      let leader: string | undefined;
      let command: string | undefined;
      switch (type) {
        case 'order': {
          command = w[1];
          const q = o + off.order!;
          if (w[2] === 'keep') out[q] = 1;
          else {
            let wr: ReturnType<typeof orderOfKey> = null;
            try {
              wr = orderOfKey(s, p, a);
            } catch {
              wr = null;
            }
            const k = ORDER_TYPES.indexOf(w[2] as (typeof ORDER_TYPES)[number]);
            if (k >= 0) out[q + 1 + k] = 1;
            if (wr) {
              out[q + 6] = clip01(wr.order.point.x / s.ctx.width);
              out[q + 7] = clip01(wr.order.point.y / s.ctx.height);
              out[q + 8] = wr.order.objective ? 1 : 0;
            }
            if (w[3] === 'enemy') out[q + 9] = 1;
          }
          break;
        }
        case 'strategic': {
          command = w[1];
          const q = o + off.strategic!;
          if (w[2] === 'none') {
            out[q] = 1;
            break;
          }
          out[q + 8] = 1;
          const road = w[2] === 'road';
          const label = road ? w[3] : w[2];
          out[q + 2] = road ? 1 : 0;
          let deg = COMPASS[label ?? ''];
          if (label === 'toward') {
            out[q + 1] = 1;
            const e = s.elements.find((x) => x.id === w[1]);
            const ord = e ? orderOfElement(s, e) : null;
            const us = e ? s.units.filter((u) => e.units.includes(u.id) && u.status === 'active') : [];
            if (ord && us.length) {
              const cx = us.reduce((t, u) => t + u.pos.x, 0) / us.length;
              const cy = us.reduce((t, u) => t + u.pos.y, 0) / us.length;
              deg = (Math.atan2(ord.point.x - cx, ord.point.y - cy) * 180) / Math.PI;
            }
          }
          if (deg !== undefined) {
            out[q + 3] = Math.sin(rad(deg));
            out[q + 4] = Math.cos(rad(deg));
          }
          out[q + 5] = w.includes('half') ? 1 : 0;
          out[q + 6] = w.includes('column') ? 1 : 0;
          out[q + 7] = w.includes('force') ? 1 : 0;
          break;
        }
        case 'initiative':
          out[fl + 5] = w[1] === 'first' ? 1 : 0;
          break;
        case 'attach':
          leader = w[1];
          target = w[2];
          break;
        case 'detach':
          leader = w[1];
          break;
        case 'done':
          out[fl + 4] = w[1] === 'charges' ? 1 : 0;
          break;
        case 'activate':
          command = w[1];
          break;
        case 'hold':
        case 'recover':
        case 'unblow':
        case 'halt':
          unit = w[1];
          break;
        case 'form':
        case 'move': {
          unit = w[1];
          const q = o + off.move!;
          const change = type === 'form' ? w[2] : w[4];
          if (type === 'move') {
            const d = DIRS.indexOf(w[2] as (typeof DIRS)[number]);
            if (d >= 0) out[q + d] = 1;
            out[q + DIRS.length] = w[3] === 'dq' ? 1 : (FRACS[w[3] ?? ''] ?? 0);
            out[q + DIRS.length + 1] = w[3] === 'dq' ? 1 : 0;
          }
          if (change === 'about') out[q + DIRS.length + 2 + FORMATION_LIST.length] = 1;
          else if (change) {
            const k = FORMATION_LIST.indexOf(change as Formation);
            if (k >= 0) out[q + DIRS.length + 2 + k] = 1;
          }
          break;
        }
        case 'fire':
        case 'return':
        case 'op-charge':
          unit = w[1];
          target = w[2];
          break;
        case 'charge':
          if (w[1] === 'home') {
            out[fl + 7] = 1;
            unit = w[2];
            target = s.tactical?.charges.find((c) => c.charger === unit)?.target;
          } else {
            unit = w[1];
            target = w[2];
            if (w[3] === 'dq') out[fl + 6] = 1;
          }
          break;
        case 'no': {
          const k = NO_KINDS.indexOf(w[1] as (typeof NO_KINDS)[number]);
          if (k >= 0) out[fl + k] = 1;
          unit = w[2] ?? refs.unit;
          break;
        }
        case 'react': {
          unit = w[1];
          const k = REACTIONS.indexOf(w[2] as (typeof REACTIONS)[number]);
          if (k >= 0) out[o + off.react! + k] = 1;
          if (w[3]) target = w[3];
          else target = s.tactical?.charges.find((c) => c.target === unit)?.charger;
          break;
        }
        case 'pull':
          unit = w[2];
          target = s.tactical?.charges.find((c) => c.charger === unit)?.target;
          break;
        case 'take': {
          unit = w[2];
          const d = Number(w[4]);
          if (Number.isFinite(d)) out[o + off.win!] = Math.max(-1, Math.min(1, d / 45));
          break;
        }
        case 'exploit': {
          unit = w[1];
          const q = o + off.win!;
          if (w[2] === 'ahead') out[q + 2] = 1;
          else {
            const d = Number(w[2]);
            if (Number.isFinite(d)) out[q + 1] = clip01(d / 12);
            else target = w[2];
          }
          break;
        }
        case 'rally':
          unit = w[2];
          break;
        default:
          break;
      }
      const us = unitSlot(unit);
      if (us >= 0) out[o + off.unit! + us] = 1;
      const ts = unitSlot(target);
      if (ts >= 0) out[o + off.target! + ts] = 1;
      const lx = leader ? sl.leader.get(leader) : undefined;
      if (lx && lx.side === p) out[o + off.leader! + lx.i] = 1;
      const cx = cmdSlot(command);
      if (cx >= 0) out[o + off.command! + cx] = 1;
      const a1 = unit ? byId.get(unit) : undefined;
      const t1 = target ? byId.get(target) : undefined;
      if (a1 && t1) out[o + off.distance!] = clip01(Math.hypot(t1.pos.x - a1.pos.x, t1.pos.y - a1.pos.y) / (24 * IN));
    }
  }

  return {
    id: ID,
    version: 1,
    stateSize: ST.size,
    actionSize: AT.size,
    stateLayout: ST.blocks,
    actionLayout: AT.blocks,
    check,
    encodeState,
    encodeActions,
  };
}

/** The viewer's own sealed choices of the open S1 round (the runtime keeps them on the frame; the other's are null). */
function ownSealed(
  s: S,
  f: Frame | undefined,
  p: Side,
): { to: string; order: { type: (typeof ORDER_TYPES)[number]; point: Vec } }[] {
  if (f?.t !== 'orders') return [];
  const chosen = ((f as { readonly sealed?: readonly (string | null)[] }).sealed ?? []) as readonly (string | null)[];
  const out: { to: string; order: { type: (typeof ORDER_TYPES)[number]; point: Vec } }[] = [];
  for (const a of chosen) {
    if (typeof a !== 'string') continue;
    const id = a.split(' ')[1] ?? '';
    const c = s.formations.find((x) => x.id === id) ?? s.elements.find((x) => x.id === id);
    if (!c || c.side !== p) continue;
    let w: ReturnType<typeof orderOfKey> = null;
    try {
      w = orderOfKey(s, p, a);
    } catch {
      w = null;
    }
    if (w) out.push({ to: w.to, order: w.order });
  }
  return out;
}

/** The type of an action key (any key not recognised: "other"). */
export function actionType(a: string): ActionType {
  const w = a.split(' ')[0] ?? '';
  return (ACTION_TYPES as readonly string[]).includes(w) && w !== 'other' ? (w as ActionType) : 'other';
}
