/** Small immutable-update helpers and derived values for March of Eagles states. */
import type { GameEvent } from '../../core/game.ts';
import type { Bn, Engagement, Frame, MoeState, SC, Side, SideState } from './types.ts';
import { halfStrength, withBn } from './shape.ts';
import { RecentMemo } from '../../core/recent.ts';

/** [Activation table] score needed on a D6 by quality: Green 5+, Drilled 4+, Veteran 3+, Guards 2+. */
export const NEED = [5, 4, 3, 2] as const;
export const QUALITY_NAMES = ['Green', 'Drilled', 'Veteran', 'Guards'] as const;

/** Where each battalion id sits in a units array, worked out for the last few arrays asked about. */
const indexCache = new RecentMemo<readonly Bn[], Map<string, number>>(4);
function indexOf(units: readonly Bn[]): Map<string, number> {
  let m = indexCache.get(units);
  if (!m) {
    m = new Map();
    units.forEach((u, i) => m!.set(u.id, i));
    indexCache.set(units, m);
  }
  return m;
}
/** The index last worked out: updates keep every battalion in its place, so it serves every state of a game. */
let lastIndex: Map<string, number> | null = null;
/** The position of battalion `id` in `units`: the last index's answer when the battalion found there is it. */
function slotOf(units: readonly Bn[], id: string): number | undefined {
  if (lastIndex) {
    const i = lastIndex.get(id);
    if (i !== undefined && units[i]?.id === id) return i;
  }
  lastIndex = indexOf(units);
  return lastIndex.get(id);
}

/** What a battalion's turn uses up, as it stands at the start of every turn: activation, re-rolls, RESOLVE triggers. */
export const TURN_FRESH = {
  act: false,
  drumU: 0,
  sgtU: 0,
  ensU: 0,
  offU: 0,
  tested: false,
  trig: 0,
  lost: false,
  ran: false,
} as const satisfies Partial<Bn>;

export function unit(s: MoeState, id: string): Bn {
  const i = slotOf(s.units, id);
  if (i === undefined) throw new Error(`no battalion "${id}"`);
  return s.units[i]!;
}
export function hasUnit(s: MoeState, id: string): boolean {
  return slotOf(s.units, id) !== undefined;
}

/**
 * A copy of the state with `patch` over it. Every copy is built as this one literal, so every state has one shape:
 * V8 copies it much faster than a spread (`{ ...s, next }`), whose copies drift into many shapes (docs/benchmarks.md).
 * The runtime copies states with it too (the procedure's `with`).
 */
export function withState(o: MoeState, patch: Partial<MoeState>): MoeState {
  const n: MoeState = {
    ctx: o.ctx,
    turn: o.turn,
    phase: o.phase,
    init: o.init,
    rollWin: o.rollWin,
    placer: o.placer,
    nAct: o.nAct,
    next: o.next,
    units: o.units,
    sides: o.sides,
    engs: o.engs,
    stack: o.stack,
    nChance: o.nChance,
    nEng: o.nEng,
    result: o.result,
  };
  return Object.assign(n, patch);
}

export function upd(s: MoeState, id: string, patch: Partial<Bn>): MoeState {
  const i = slotOf(s.units, id);
  if (i === undefined) throw new Error(`no battalion "${id}"`);
  const units = s.units.slice();
  const old = units[i]!;
  const nu = withBn(old, patch);
  units[i] = nu;
  return withState(s, { units });
}

/** A copy of a side with `patch` over it, one literal for the same reason as `withState`. */
export function withSide(o: SideState, patch: Partial<SideState>): SideState {
  const n: SideState = { name: o.name, nat: o.nat, edge: o.edge, sc: o.sc, scKilled: o.scKilled };
  return Object.assign(n, patch);
}
/** A copy of a Supreme Commander with `patch` over it, one literal for the same reason as `withState`. */
export function withSC(o: SC, patch: Partial<SC>): SC {
  const n: SC = { x: o.x, y: o.y, att: o.att, alive: o.alive, moved: o.moved, placed: o.placed };
  return Object.assign(n, patch);
}
/** A copy of an engagement with `patch` over it, one literal for the same reason as `withState`. */
export function withEng(o: Engagement, patch: Partial<Engagement>): Engagement {
  const n: Engagement = {
    id: o.id,
    att: o.att,
    def: o.def,
    rounds: o.rounds,
    bonus: o.bonus,
    started: o.started,
    joiners: o.joiners,
    fought: o.fought,
    face: o.face,
  };
  return Object.assign(n, patch);
}

export function updSide(s: MoeState, side: Side, patch: Partial<SideState>): MoeState {
  const sides = [s.sides[0], s.sides[1]] as [SideState, SideState];
  sides[side] = withSide(sides[side], patch);
  return withState(s, { sides });
}
export function updSC(s: MoeState, side: Side, patch: Partial<SC>): MoeState {
  return updSide(s, side, { sc: withSC(s.sides[side].sc, patch) });
}

export function push(s: MoeState, ...frames: Frame[]): MoeState {
  return withState(s, { stack: [...s.stack, ...frames] });
}
export function top(s: MoeState): Frame | undefined {
  return s.stack[s.stack.length - 1];
}

export function eng(s: MoeState, id: string): Engagement {
  const e = s.engs.find((x) => x.id === id);
  if (!e) throw new Error(`no engagement "${id}"`);
  return e;
}
export function updEng(s: MoeState, id: string, patch: Partial<Engagement>): MoeState {
  return withState(s, { engs: s.engs.map((e) => (e.id === id ? withEng(e, patch) : e)) });
}

export function other(p: Side): Side {
  return p === 0 ? 1 : 0;
}

/** The SC is alive and attached to this battalion. */
export function scWith(s: MoeState, b: Bn): boolean {
  const sc = s.sides[b.side].sc;
  return sc.alive && sc.att === b.id;
}

/**
 * [Supreme Commander] effective quality: one level lower while the own SC is attached to another battalion or
 * has been killed; a Green battalion that would drop further stays Green with −1 (M22).
 */
export function effQ(s: MoeState, b: Bn): { q: number; pen: number } {
  const side = s.sides[b.side];
  const drop = side.scKilled || (side.sc.alive && side.sc.att !== '' && side.sc.att !== b.id) ? 1 : 0;
  const q = b.q - drop;
  return q < 0 ? { q: 0, pen: -1 } : { q, pen: 0 };
}

/** [Resolve & Bravery] modifiers: 50% losses −1, lost combat this turn −1, officer +2 (and M22's −1). */
export function resolveMod(s: MoeState, b: Bn): number {
  return effQ(s, b).pen + (halfStrength(b) ? -1 : 0) + (b.lost ? -1 : 0) + (b.off ? 2 : 0);
}

/** Character figures in a battalion (the attached SC counts for risk). */
export function characters(s: MoeState, b: Bn): number {
  return b.drum + b.sgt + b.ens + b.off + (scWith(s, b) ? 1 : 0);
}

export function ev(log: GameEvent[] | undefined, rule: string, text: string, dice?: readonly number[]): void {
  if (log) log.push(dice ? { rule, text, dice } : { rule, text });
}

export function sideUnits(s: MoeState, side: Side): Bn[] {
  return s.units.filter((u) => u.side === side);
}
