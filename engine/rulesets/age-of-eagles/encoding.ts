/**
 * Observation encoding for Age of Eagles, version 1 (see `engine/core/encoding.ts`).
 *
 * From the view of `player`: its own units, leaders and objectives fill the "mine" blocks, the opponent's the "theirs"
 * blocks, each in scenario order (a unit keeps its slot for good, removed units stay as absent slots). Positions are
 * table coordinates scaled to [0, 1] and headings sin/cos, the same for both seats, so what one seat sees as mine the
 * other sees as theirs, cell for cell; the viewer's own side (seat, facing) is in the global block. The game has no
 * hidden information: the whole table is observed. Each legal action is encoded with its kind, its order's kind and
 * formation, its numbers, one-hots of the unit it refers to, its target and its leader, and the scripted player's
 * preference for it (heuristic.ts, normalised within the decision), as march-of-eagles does.
 *
 * Caps (`check` refuses a state past them by name): 16 unit slots per side, 8 leader slots per side, 4 objectives.
 */
import { type Encoding, type FeatureBlock, layout, sideSlots } from '../../core/encoding.ts';
import { policyScores } from './heuristic.ts';
import { poly } from './shape.ts';
import { IN, phasing } from './state.ts';
import { polygonDistance } from '../../geometry/geometry.ts';
import type { Action, AoeState, Frame, Side, Unit } from './types.ts';

/** Unit slots per side. */
export const MAX_UNITS = 16;
/** Leader slots per side (army leader and division leaders). */
const MAX_LEADERS = 8;
/** Objective slots. */
const MAX_OBJECTIVES = 4;

const ID = 'age-of-eagles/v1';

const PHASES = ['initiative', 'march', 'fire-enemy', 'fire-friendly', 'bs', 'end', 'over'] as const;
const FRAME_KINDS = [
  'initChoice',
  'leaders',
  'pickUnit',
  'order',
  'move',
  'react',
  'leaderMove',
  'fireTarget',
  'afterCombat',
  'initRoll',
  'march',
  'shot',
  'melee',
  'fireApply',
  'bsNext',
  'chargeIn',
] as const;
const FORMATIONS = ['Line', 'FieldColumn', 'Masse', 'MarchColumn', 'OpenOrder', 'Square'] as const;
const ACTION_KINDS = [
  'first',
  'second',
  'attach',
  'detach',
  'doneLeaders',
  'pick',
  'endMarch',
  'order',
  'move',
  'wheel',
  'road',
  'enter',
  'leave',
  'stay',
  'square',
  'noSquare',
  'countercharge',
  'stand',
  'leaderTo',
  'doneLeaderMoves',
  'fire',
  'holdFire',
  'recall',
  'carry',
] as const;
const ORDER_KINDS = ['hold', 'move', 'form', 'charge', 'rally', 'limber', 'unlimber'] as const;

/** Distances are scaled by this (a large table's diagonal is beyond it: capped at 1). */
const FAR = 48 * IN;

const UNIT_DOC =
  'on table, removed, infantry, cavalry, battery, formation one-hot (Line, Field Column, Masse, March Column, Open ' +
  'Order, Square; none for a battery or a BUA occupant), x/width, y/height, sin h, cos h, hits/5, hits this fire ' +
  'phase/5, disordered or silenced, changed formation, about-faced, limbered, damaged, in a BUA, ordered this phase, ' +
  'fired, fought, charge checked, nearest enemy edge distance/48" (1: none), class (elite 1, regular ½, conscript 0), ' +
  'under decision, in a combat, countercharged, leader attached, strength (ranks/3, guns/8, cavalry weight)';
const U = 34;
const LEADER_DOC = 'present (not captured), army leader, charismatic, attached, x/width, y/height';
const L = 6;

const ST = layout([
  {
    name: 'global',
    size: 12,
    doc:
      'turn/turns, my player turn (phasing), I am the 1st player, 2nd player turn of the game turn, I am seat A, ' +
      'my facing sin, my facing cos, my cohesion/2, their cohesion/2, tanh(loss points difference/10) (positive: ' +
      'ahead), combats/8, pending fire results/8',
  },
  { name: 'phase', size: PHASES.length, doc: `one-hot: ${PHASES.join(', ')}` },
  { name: 'frame', size: FRAME_KINDS.length, doc: `one-hot kind of the top frame: ${FRAME_KINDS.join(', ')}` },
  {
    name: 'objectives',
    size: 5 * MAX_OBJECTIVES,
    doc: `${MAX_OBJECTIVES} slots × 5: present, x/width, y/height, held by me, held by them`,
  },
  { name: 'mine: units', size: U * MAX_UNITS, doc: `${MAX_UNITS} slots × ${U}: ${UNIT_DOC}` },
  { name: 'theirs: units', size: U * MAX_UNITS, doc: `${MAX_UNITS} slots × ${U}, as above` },
  { name: 'mine: leaders', size: L * MAX_LEADERS, doc: `${MAX_LEADERS} slots × ${L}: ${LEADER_DOC}` },
  { name: 'theirs: leaders', size: L * MAX_LEADERS, doc: `${MAX_LEADERS} slots × ${L}, as above` },
]);

const NUMS = 10;
const AT = layout([
  { name: 'kind', size: ACTION_KINDS.length, doc: `one-hot action kind: ${ACTION_KINDS.join(', ')}` },
  { name: 'order', size: ORDER_KINDS.length, doc: `one-hot order kind (order actions): ${ORDER_KINDS.join(', ')}` },
  {
    name: 'formation',
    size: FORMATIONS.length,
    doc: `one-hot formation (form orders, leaving a block): ${FORMATIONS.join(', ')}`,
  },
  {
    name: 'numbers',
    size: NUMS,
    doc:
      'move direction relative to the facing sin/cos, fraction (move, road, recall), wheel degrees/90, wheel left, ' +
      'heading sin/cos (form order, leaving edge), then move, road move, block is an objective',
  },
  { name: 'unit', size: 2 * MAX_UNITS, doc: 'one-hot slot of the unit the action refers to (mine, then theirs)' },
  { name: 'target', size: 2 * MAX_UNITS, doc: 'one-hot slot of its target (charge, fire, the charger, the opponent)' },
  { name: 'leader', size: MAX_LEADERS, doc: 'one-hot slot of the leader it moves or attaches (mine)' },
  {
    name: 'preference',
    size: 3,
    doc: 'scripted preference (heuristic.ts) relative to the best (≤ 0, scaled), is a best, rank/(legal count − 1)',
  },
]);

/** The state block named `name` (for tests and readers). */
export function stateBlock(name: string): FeatureBlock {
  const b = ST.blocks.find((x) => x.name === name);
  if (!b) throw new Error(`encoding ${ID}: no state block "${name}"`);
  return b;
}
function actionBlock(name: string): FeatureBlock {
  const b = AT.blocks.find((x) => x.name === name);
  if (!b) throw new Error(`encoding ${ID}: no action block "${name}"`);
  return b;
}

const topOf = (s: AoeState): Frame | undefined => s.stack[s.stack.length - 1];
const rad = (h: number) => (h * Math.PI) / 180;
const clip01 = (x: number) => Math.min(1, Math.max(0, x));

/** Unit and leader slots (engine/core/encoding.ts). */
const slots = (s: AoeState) => sideSlots(s.units, s.leaders);

function lossPoints(s: AoeState, side: Side): number {
  let p = 0;
  for (const u of s.units) if (u.side === side) p += u.gone ? 5 : u.hits;
  for (const h of s.held) if (h === side) p -= 5;
  return p;
}

function nearestEnemy(s: AoeState, u: Unit): number {
  if (u.gone) return 1;
  let best = Infinity;
  const p = poly(u);
  for (const o of s.units) if (!o.gone && o.side !== u.side) best = Math.min(best, polygonDistance(p, poly(o)));
  return best === Infinity ? 1 : clip01(best / FAR);
}

function unitFeatures(s: AoeState, u: Unit, under: string, out: Float32Array, o: number): void {
  const w = s.ctx.width;
  const h = s.ctx.height;
  out[o] = u.gone ? 0 : 1;
  out[o + 1] = u.gone ? 1 : 0;
  out[o + 2] = u.k === 'inf' ? 1 : 0;
  out[o + 3] = u.k === 'cav' ? 1 : 0;
  out[o + 4] = u.k === 'bat' ? 1 : 0;
  if (u.k !== 'bat' && !u.bua) {
    const k = FORMATIONS.indexOf(u.f);
    if (k >= 0) out[o + 5 + k] = 1;
  }
  out[o + 11] = clip01(u.x / w);
  out[o + 12] = clip01(u.y / h);
  out[o + 13] = Math.sin(rad(u.h));
  out[o + 14] = Math.cos(rad(u.h));
  out[o + 15] = Math.min(1, u.hits / 5);
  out[o + 16] = Math.min(1, u.fpHits / 5);
  out[o + 17] = u.dis ? 1 : 0;
  out[o + 18] = u.changed ? 1 : 0;
  out[o + 19] = u.about ? 1 : 0;
  out[o + 20] = u.k === 'bat' && u.limbered ? 1 : 0;
  out[o + 21] = u.k === 'bat' && u.damaged ? 1 : 0;
  out[o + 22] = u.bua ? 1 : 0;
  out[o + 23] = u.ordered ? 1 : 0;
  out[o + 24] = u.fired ? 1 : 0;
  out[o + 25] = u.fought ? 1 : 0;
  out[o + 26] = u.checked ? 1 : 0;
  out[o + 27] = nearestEnemy(s, u);
  out[o + 28] = u.k === 'bat' ? 0.5 : u.cls === 'Elite' ? 1 : u.cls === 'Regular' ? 0.5 : 0;
  out[o + 29] = u.id === under ? 1 : 0;
  out[o + 30] = s.combats.some((c) => c.def === u.id || c.atts.some((a) => a.u === u.id)) ? 1 : 0;
  out[o + 31] = u.k === 'cav' && u.cc ? 1 : 0;
  out[o + 32] = s.leaders.some((l) => l.att === u.id && !l.captured) ? 1 : 0;
  out[o + 33] =
    u.k === 'inf' ? u.ranks / 3 : u.k === 'bat' ? u.guns / 8 : u.wt === 'Light' ? 1 / 3 : u.wt === 'Heavy' ? 2 / 3 : 1;
}

/** The unit a frame is about ('' when none). */
function frameUnit(f: Frame | undefined): string {
  return f && 'u' in f ? f.u : '';
}

/** The unit an action refers to, its target, and its leader. */
function refs(s: AoeState, a: Action, f: Frame | undefined): { u?: string; t?: string; l?: string } {
  const fu = frameUnit(f) || undefined;
  switch (a.a) {
    case 'pick':
      return { u: a.u };
    case 'attach':
    case 'leaderTo':
      return { u: a.u, l: a.l };
    case 'detach': {
      const l = s.leaders.find((x) => x.id === a.l);
      return { u: l?.att || undefined, l: a.l };
    }
    case 'order':
      return { u: fu, t: a.order.o === 'charge' ? a.order.target : undefined };
    case 'fire':
      return { u: fu, t: a.target };
    default:
      if (f?.t === 'react') return { u: fu, t: f.by };
      if (f?.t === 'afterCombat') return { u: fu, t: f.from };
      return { u: fu };
  }
}

export const aoeEncoding: Encoding<AoeState, Action> = {
  id: ID,
  version: 1,
  stateSize: ST.size,
  actionSize: AT.size,
  stateLayout: ST.blocks,
  actionLayout: AT.blocks,
  check(s) {
    for (const side of [0, 1] as const) {
      const name = side === 0 ? 'A' : 'B';
      const n = s.units.filter((u) => u.side === side).length;
      if (n > MAX_UNITS)
        throw new Error(
          `encoding ${ID} has ${MAX_UNITS} unit slots per side; side ${name} of scenario ${s.ctx.scenarioId} has ${n}`,
        );
      const m = s.leaders.filter((l) => l.side === side).length;
      if (m > MAX_LEADERS)
        throw new Error(
          `encoding ${ID} has ${MAX_LEADERS} leader slots per side; side ${name} of scenario ${s.ctx.scenarioId} has ${m}`,
        );
    }
    if (s.ctx.objectives.length > MAX_OBJECTIVES)
      throw new Error(
        `encoding ${ID} has ${MAX_OBJECTIVES} objective slots; scenario ${s.ctx.scenarioId} has ${s.ctx.objectives.length}`,
      );
  },
  encodeState(s, player, out, at = 0) {
    aoeEncoding.check!(s);
    const p = player as Side;
    const o = (1 - p) as Side;
    out.fill(0, at, at + ST.size);
    let i = at;
    out[i] = s.turn / s.ctx.turns;
    out[i + 1] = s.phase !== 'initiative' && s.phase !== 'over' && phasing(s) === p ? 1 : 0;
    out[i + 2] = s.first === p ? 1 : 0;
    out[i + 3] = s.pt;
    out[i + 4] = p === 0 ? 1 : 0;
    out[i + 5] = Math.sin(rad(s.sides[p].facing));
    out[i + 6] = Math.cos(rad(s.sides[p].facing));
    out[i + 7] = s.sides[p].cohesion / 2;
    out[i + 8] = s.sides[o].cohesion / 2;
    out[i + 9] = Math.tanh((lossPoints(s, o) - lossPoints(s, p)) / 10);
    out[i + 10] = Math.min(1, s.combats.length / 8);
    out[i + 11] = Math.min(1, s.pending.length / 8);
    i += 12;
    const ph = PHASES.indexOf(s.phase);
    if (ph >= 0) out[i + ph] = 1;
    i += PHASES.length;
    const f = topOf(s);
    if (f) {
      const k = FRAME_KINDS.indexOf(f.t as (typeof FRAME_KINDS)[number]);
      if (k >= 0) out[i + k] = 1;
    }
    i += FRAME_KINDS.length;
    s.ctx.objectives.forEach((ob, j) => {
      const q = i + 5 * j;
      out[q] = 1;
      out[q + 1] = clip01(ob.x / s.ctx.width);
      out[q + 2] = clip01(ob.y / s.ctx.height);
      out[q + 3] = s.held[j] === p ? 1 : 0;
      out[q + 4] = s.held[j] === o ? 1 : 0;
    });
    i += 5 * MAX_OBJECTIVES;
    const under = frameUnit(f);
    const sl = slots(s);
    for (const side of [p, o]) {
      for (const u of s.units) {
        const x = sl.unit.get(u.id)!;
        if (x.side === side) unitFeatures(s, u, under, out, i + x.i * U);
      }
      i += U * MAX_UNITS;
    }
    for (const side of [p, o]) {
      for (const l of s.leaders) {
        const x = sl.leader.get(l.id)!;
        if (x.side !== side) continue;
        const q = i + x.i * L;
        out[q] = l.captured ? 0 : 1;
        out[q + 1] = l.army ? 1 : 0;
        out[q + 2] = l.charismatic ? 1 : 0;
        out[q + 3] = l.att ? 1 : 0;
        out[q + 4] = clip01(l.x / s.ctx.width);
        out[q + 5] = clip01(l.y / s.ctx.height);
      }
      i += L * MAX_LEADERS;
    }
  },
  encodeActions(s, player, actions, out, at = 0) {
    const p = player as Side;
    const n = actions.length;
    out.fill(0, at, at + n * AT.size);
    if (n === 0) return;
    const f = topOf(s);
    const sl = slots(s);
    const sc = policyScores(s, actions).map((x) => (Number.isFinite(x) ? x : 0));
    let best = -Infinity;
    let worst = Infinity;
    for (const x of sc) {
      best = Math.max(best, x);
      worst = Math.min(worst, x);
    }
    const spread = Math.max(1, best - worst);
    const order = sc.map((x, i) => ({ x, i })).sort((a, b) => b.x - a.x || a.i - b.i);
    const rank = new Array<number>(n);
    order.forEach((r, j) => {
      rank[r.i] = j;
    });
    const unitSlot = (id: string | undefined): number => {
      if (!id) return -1;
      const x = sl.unit.get(id);
      return x ? (x.side === p ? 0 : MAX_UNITS) + x.i : -1;
    };
    const blk = (name: string) => actionBlock(name).offset;
    const [oKind, oOrder, oForm, oNum, oUnit, oTarget, oLeader, oPref] = [
      'kind',
      'order',
      'formation',
      'numbers',
      'unit',
      'target',
      'leader',
      'preference',
    ].map(blk) as [number, number, number, number, number, number, number, number];
    for (let j = 0; j < n; j++) {
      const a = actions[j]!;
      const o = at + j * AT.size;
      const k = ACTION_KINDS.indexOf(a.a as (typeof ACTION_KINDS)[number]);
      if (k >= 0) out[o + oKind + k] = 1;
      const q = o + oNum;
      switch (a.a) {
        case 'order': {
          out[o + oOrder + ORDER_KINDS.indexOf(a.order.o)] = 1;
          if (a.order.o === 'form') {
            const fi = FORMATIONS.indexOf(a.order.f);
            if (fi >= 0) out[o + oForm + fi] = 1;
            out[q + 5] = Math.sin(rad(a.order.h));
            out[q + 6] = Math.cos(rad(a.order.h));
            out[q + 7] = a.order.thenMove ? 1 : 0;
          }
          break;
        }
        case 'leave': {
          const fi = FORMATIONS.indexOf(a.f);
          if (fi >= 0) out[o + oForm + fi] = 1;
          out[q + 5] = Math.sin(rad(a.edge));
          out[q + 6] = Math.cos(rad(a.edge));
          break;
        }
        case 'move':
          out[q] = Math.sin(rad(a.dir));
          out[q + 1] = Math.cos(rad(a.dir));
          out[q + 2] = a.frac;
          break;
        case 'road':
          out[q + 2] = a.frac;
          out[q + 8] = 1;
          break;
        case 'recall':
          out[q + 2] = a.frac;
          break;
        case 'wheel':
          out[q + 3] = a.deg / 90;
          out[q + 4] = a.side === 'L' ? 1 : 0;
          break;
        case 'enter':
          out[q + 9] = s.ctx.objectives.some((ob) => ob.bua === a.block) ? 1 : 0;
          break;
        default:
          break;
      }
      const r = refs(s, a, f);
      const us = unitSlot(r.u);
      if (us >= 0) out[o + oUnit + us] = 1;
      const ts = unitSlot(r.t);
      if (ts >= 0) out[o + oTarget + ts] = 1;
      if (r.l) {
        const x = sl.leader.get(r.l);
        if (x && x.side === p) out[o + oLeader + x.i] = 1;
      }
      out[o + oPref] = (sc[j]! - best) / spread;
      out[o + oPref + 1] = sc[j]! >= best - 1e-9 ? 1 : 0;
      out[o + oPref + 2] = n > 1 ? rank[j]! / (n - 1) : 0;
    }
  },
};
