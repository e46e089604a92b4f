/**
 * Observation encoding for The March of Eagles, version 1 (see `engine/core/encoding.ts`).
 *
 * Everything is from the view of `player`: the table is turned 180° for the side whose edge is north, so a player
 * always sees itself at the bottom (x, y in [0, 1], headings as sin/cos); its own battalions fill the first unit
 * slots, the enemy's the next, each in scenario order. The game has no hidden information, so the whole table is
 * observed. Each legal action is encoded with its kind, the acting and target battalions' features, its numbers,
 * and the scripted player's preference for it (normalised within the position), so a network starts from the
 * rulebook tactics and learns when to depart from them.
 */
import { IN } from '../../geometry/geometry.ts';
import { type Encoding, layout } from '../../core/encoding.ts';
import { policyScores } from './heuristic.ts';
import { halfStrength } from './shape.ts';
import { scWith, top } from './state.ts';
import type { Action, Bn, Frame, MoeState, Side } from './types.ts';

/** Battalion slots per side. */
const MAX_PER_SIDE = 8;
const MAX_OBJECTIVES = 2;

const FRAME_KINDS: readonly Frame['t'][] = [
  'chooseSide',
  'skirm',
  'firstPlacer',
  'place',
  'placeX',
  'placeSC',
  'initChoice',
  'slot',
  'orders',
  'moveDist',
  'formFacing',
  'wheelAngle',
  'screenPlace',
  'screenTarget',
  'defFire',
  'followUp',
  'scDest',
];
const PHASES = ['pregame', 'activations', 'resolve', 'compulsory', 'over'] as const;
const ACTION_KINDS: readonly Action['k'][] = [
  'side',
  'skirm',
  'placer',
  'place',
  'x',
  'placeSC',
  'first',
  'activate',
  'pass',
  'move',
  'back',
  'wheel',
  'form',
  'facing',
  'reform',
  'shoot',
  'attack',
  'rally',
  'fight',
  'sc',
  'dist',
  'angle',
  'screen',
  'screenTarget',
  'defFire',
  'followUp',
  'scDest',
];

const UNIT_DOC =
  'present, on table, placed, x, y, sin h, cos h, line, column, rankers/start, skirmishers/max, casualties/start, quality/3, light, rifles, ' +
  'activated, disordered, broken, rallied this turn, must stand, reforming, engaged, tested, half strength, SC attached, characters/6, ' +
  'nearest enemy centre distance/48", under decision';
const U = 28;

const ST = layout([
  {
    name: 'global',
    size: 8,
    doc: 'turn/turns, progress, initiative is mine, next slot is mine, activations/12, engagements/6, my SC alive, enemy SC alive',
  },
  { name: 'phase', size: PHASES.length, doc: `one-hot: ${PHASES.join(', ')}` },
  {
    name: 'decision',
    size: FRAME_KINDS.length,
    doc: `one-hot kind of decision on top of the stack: ${FRAME_KINDS.join(', ')}`,
  },
  { name: 'evaluation', size: 1, doc: "the ruleset's hand evaluation for the player, in [-1, 1]" },
  { name: 'objectives', size: 3 * MAX_OBJECTIVES, doc: 'per objective slot: present, x, y' },
  { name: 'own units', size: U * MAX_PER_SIDE, doc: `${MAX_PER_SIDE} slots × ${U}: ${UNIT_DOC}` },
  { name: 'enemy units', size: U * MAX_PER_SIDE, doc: `${MAX_PER_SIDE} slots × ${U}, as above` },
]);

const UA = 12;
const AT = layout([
  { name: 'kind', size: ACTION_KINDS.length, doc: `one-hot action kind: ${ACTION_KINDS.join(', ')}` },
  {
    name: 'preference',
    size: 3,
    doc: 'scripted preference relative to the best (≤ 0, scaled), is a best, rank/legal count',
  },
  {
    name: 'numbers',
    size: 12,
    doc: 'dir sin/cos, distance/12", angle/90, heading sin/cos (turned), x, yes/self, row, line, screen pos set, mode index/2',
  },
  {
    name: 'actor',
    size: UA,
    doc: 'acting battalion: mine, x, y, sin h, cos h, line, rankers/start, disordered, broken, quality/3, engaged, nearest enemy/48"',
  },
  { name: 'target', size: UA, doc: 'target battalion (or screen), as for actor; zero when none' },
]);

function flipFor(s: MoeState, p: Side): boolean {
  return s.sides[p].edge === 'north';
}

interface View {
  flip: boolean;
  w: number;
  h: number;
}
function vx(v: View, x: number): number {
  return v.flip ? 1 - x / v.w : x / v.w;
}
function vy(v: View, y: number): number {
  return v.flip ? 1 - y / v.h : y / v.h;
}
function vh(v: View, h: number): number {
  return ((v.flip ? h + 180 : h) * Math.PI) / 180;
}

function nearestCentre(s: MoeState, b: Bn): number {
  let best = Infinity;
  for (const e of s.units) if (e.on && e.side !== b.side) best = Math.min(best, Math.hypot(e.x - b.x, e.y - b.y));
  return best === Infinity ? 1 : Math.min(1, best / (48 * IN));
}

function decisionUnit(f: Frame | undefined): string {
  return f && 'u' in f ? f.u : '';
}

/** x, y, sin h, cos h of a placed battalion, from the viewer's side, at out[o..o+3]. */
function pose(b: Bn, v: View, out: Float32Array, o: number): void {
  if (!b.placed) return;
  out[o] = vx(v, b.x);
  out[o + 1] = vy(v, b.y);
  const r = vh(v, b.h);
  out[o + 2] = Math.sin(r);
  out[o + 3] = Math.cos(r);
}

function unitFeatures(s: MoeState, b: Bn, v: View, under: string, out: Float32Array, o: number): void {
  out[o] = 1;
  out[o + 1] = b.on ? 1 : 0;
  out[o + 2] = b.placed ? 1 : 0;
  pose(b, v, out, o + 3);
  out[o + 7] = b.f === 'L' ? 1 : 0;
  out[o + 8] = b.f === 'C' ? 1 : 0;
  out[o + 9] = b.rk / Math.max(1, b.start);
  out[o + 10] = b.sk / Math.max(1, b.skS);
  out[o + 11] = b.cas / Math.max(1, b.start);
  out[o + 12] = b.q / 3;
  out[o + 13] = b.light ? 1 : 0;
  out[o + 14] = b.rifles ? 1 : 0;
  out[o + 15] = b.act ? 1 : 0;
  out[o + 16] = b.dis ? 1 : 0;
  out[o + 17] = b.brk ? 1 : 0;
  out[o + 18] = b.ral ? 1 : 0;
  out[o + 19] = b.stand >= s.turn ? 1 : 0;
  out[o + 20] = b.reform ? 1 : 0;
  out[o + 21] = b.eng ? 1 : 0;
  out[o + 22] = b.tested ? 1 : 0;
  out[o + 23] = halfStrength(b) ? 1 : 0;
  out[o + 24] = b.on && scWith(s, b) ? 1 : 0;
  out[o + 25] = (b.drum - b.drumU + b.sgt - b.sgtU + b.ens - b.ensU + b.off - b.offU) / 6;
  out[o + 26] = b.on && b.placed ? nearestCentre(s, b) : 1;
  out[o + 27] = b.id === under ? 1 : 0;
}

function compactUnit(s: MoeState, b: Bn, p: Side, v: View, out: Float32Array, o: number): void {
  out[o] = b.side === p ? 1 : -1;
  pose(b, v, out, o + 1);
  out[o + 5] = b.f === 'L' ? 1 : 0;
  out[o + 6] = b.rk / Math.max(1, b.start);
  out[o + 7] = b.dis ? 1 : 0;
  out[o + 8] = b.brk ? 1 : 0;
  out[o + 9] = b.q / 3;
  out[o + 10] = b.eng ? 1 : 0;
  out[o + 11] = b.on && b.placed ? nearestCentre(s, b) : 1;
}

function byId(s: MoeState, id: string): Bn | undefined {
  const base = id.endsWith('.s') ? id.slice(0, -2) : id;
  return s.units.find((u) => u.id === base);
}

/** The unit an action is about, and its target (if any). */
function actorAndTarget(s: MoeState, a: Action, f: Frame | undefined): { actor?: Bn; target?: Bn } {
  const fu = decisionUnit(f);
  switch (a.k) {
    case 'activate':
    case 'pass':
    case 'move':
    case 'back':
    case 'wheel':
    case 'form':
    case 'reform':
    case 'rally':
    case 'place':
      return { actor: byId(s, a.u) };
    case 'shoot':
    case 'attack':
      return { actor: byId(s, a.u), target: a.target === '-' ? undefined : byId(s, a.target) };
    case 'screenTarget':
      return { actor: fu ? byId(s, fu) : undefined, target: a.target === '-' ? undefined : byId(s, a.target) };
    case 'fight': {
      const e = s.engs.find((x) => x.id === a.e);
      return e ? { actor: byId(s, e.att), target: byId(s, e.def) } : {};
    }
    case 'placeSC':
      return { actor: byId(s, a.attach) };
    case 'scDest':
      return { actor: a.to ? byId(s, a.to) : undefined };
    default:
      if (f && f.t === 'defFire') return { actor: byId(s, f.def), target: byId(s, f.att) };
      if (f && f.t === 'followUp') return { actor: byId(s, f.win), target: byId(s, f.lose) };
      return { actor: fu ? byId(s, fu) : undefined };
  }
}

/** The encoding, given the ruleset's hand evaluation (defined beside the Game object). */
export function createMarchEncoding(evaluateFor: (s: MoeState, p: number) => number): Encoding<MoeState, Action> {
  return {
    id: 'march-of-eagles/v1',
    version: 1,
    stateSize: ST.size,
    actionSize: AT.size,
    stateLayout: ST.blocks,
    actionLayout: AT.blocks,
    check(s) {
      for (const side of [0, 1] as const) {
        const n = s.units.filter((u) => u.side === side).length;
        if (n > MAX_PER_SIDE)
          throw new Error(
            `encoding march-of-eagles/v1 has ${MAX_PER_SIDE} battalion slots per side; side ${side === 0 ? 'A' : 'B'} of scenario ${s.ctx.scenarioId} has ${n}`,
          );
      }
    },
    encodeState(s, player, out, at = 0) {
      const p = player as Side;
      out.fill(0, at, at + ST.size);
      const v: View = { flip: flipFor(s, p), w: s.ctx.width, h: s.ctx.height };
      const o = p === 0 ? 1 : 0;
      let i = at;
      out[i] = s.turn / s.ctx.turns;
      out[i + 1] = Math.min(1, Math.max(0, (s.turn - 1) / Math.max(1, s.ctx.turns - 1)));
      out[i + 2] = s.init === p ? 1 : 0;
      out[i + 3] = s.next === p ? 1 : 0;
      out[i + 4] = Math.min(1, s.nAct / 12);
      out[i + 5] = Math.min(1, s.engs.length / 6);
      out[i + 6] = s.sides[p].sc.alive ? 1 : 0;
      out[i + 7] = s.sides[o].sc.alive ? 1 : 0;
      i += 8;
      out[i + PHASES.indexOf(s.phase)] = 1;
      i += PHASES.length;
      const f = top(s);
      if (f) {
        const k = FRAME_KINDS.indexOf(f.t);
        if (k >= 0) out[i + k] = 1;
      }
      i += FRAME_KINDS.length;
      out[i] = evaluateFor(s, p);
      i += 1;
      for (let j = 0; j < MAX_OBJECTIVES; j++) {
        const ob = s.ctx.objectives[j];
        if (ob) {
          out[i + 3 * j] = 1;
          out[i + 3 * j + 1] = vx(v, ob.x);
          out[i + 3 * j + 2] = vy(v, ob.y);
        }
      }
      i += 3 * MAX_OBJECTIVES;
      const under = decisionUnit(f);
      for (const side of [p, o]) {
        let slot = 0;
        for (const b of s.units) {
          if (b.side !== side) continue;
          if (slot >= MAX_PER_SIDE)
            throw new Error(`encoding march-of-eagles/v1: more than ${MAX_PER_SIDE} battalions on side ${side}`);
          unitFeatures(s, b, v, under, out, i + slot * U);
          slot++;
        }
        i += U * MAX_PER_SIDE;
      }
    },
    encodeActions(s, player, actions, out, at = 0) {
      const p = player as Side;
      const n = actions.length;
      out.fill(0, at, at + n * AT.size);
      const v: View = { flip: flipFor(s, p), w: s.ctx.width, h: s.ctx.height };
      const f = top(s);
      const sc = policyScores(s, actions);
      let best = -Infinity;
      let worst = Infinity;
      for (const x of sc) {
        if (x > best) best = x;
        if (x < worst) worst = x;
      }
      const spread = Math.max(1, best - worst);
      const order = sc.map((x, i) => ({ x, i })).sort((a, b) => b.x - a.x);
      const rank = new Array<number>(n);
      order.forEach((r, j) => (rank[r.i] = j));
      for (let j = 0; j < n; j++) {
        const a = actions[j]!;
        const o = at + j * AT.size;
        out[o + ACTION_KINDS.indexOf(a.k)] = 1;
        let q = o + ACTION_KINDS.length;
        out[q] = (sc[j]! - best) / spread;
        out[q + 1] = sc[j]! >= best - 1e-9 ? 1 : 0;
        out[q + 2] = rank[j]! / Math.max(1, n - 1);
        q += 3;
        switch (a.k) {
          case 'move': {
            const r = (a.dir * Math.PI) / 180;
            out[q] = Math.sin(r);
            out[q + 1] = Math.cos(r);
            break;
          }
          case 'dist':
            out[q + 2] = a.d / (12 * IN);
            break;
          case 'angle':
            out[q + 3] = a.a / 90;
            break;
          case 'facing': {
            const r = vh(v, a.h);
            out[q + 4] = Math.sin(r);
            out[q + 5] = Math.cos(r);
            break;
          }
          case 'x':
            out[q + 6] = vx(v, a.x);
            break;
          case 'first':
          case 'placer':
            out[q + 7] = a.self ? 1 : 0;
            break;
          case 'defFire':
          case 'followUp':
            out[q + 7] = a.yes ? 1 : 0;
            break;
          case 'side':
            out[q + 7] = a.edge === 'south' ? 1 : 0;
            break;
          case 'skirm':
            out[q + 2] = Math.min(a.n, 99) / 20;
            break;
          case 'place':
            out[q + 8] = a.row;
            out[q + 9] = a.f === 'L' ? 1 : 0;
            out[q + 10] = a.scr ? 1 : 0;
            break;
          case 'screen':
            out[q + 10] = 1;
            out[q + 11] = ['front', 'left', 'right', 'rear'].indexOf(a.pos) / 3;
            break;
          case 'placeSC':
            out[q + 7] = a.behind ? 1 : 0;
            break;
          case 'scDest':
            out[q + 11] = ['attach', 'behind', 'stay'].indexOf(a.mode) / 2;
            break;
          case 'wheel':
            out[q + 7] = a.side === 'L' ? 1 : 0;
            break;
          default:
            break;
        }
        q += 12;
        const { actor, target } = actorAndTarget(s, a, f);
        if (actor) compactUnit(s, actor, p, v, out, q);
        q += UA;
        if (target) compactUnit(s, target, p, v, out, q);
      }
    },
  };
}
