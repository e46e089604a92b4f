/**
 * Charge! Eagles Rising: reading and updating a state. Lookups by id (units, leaders, MEs, MFs), immutable updates
 * that share every unchanged part, the geometry's view of a unit (`placed`), strength and % lost (C3), the command
 * chain (who commands a unit, who receives an order, command ranges), and the names events use. No rules are played
 * here; the chapters (orders.ts, morale.ts, …) play them.
 */
import { IN, type Vec, dist } from '../../geometry/geometry.ts';
import type { Log } from '../../core/procedure.ts';
import { type Placed, placedOf } from './shape.ts';
import { commandRange } from './tables.ts';
import type {
  ArmyState,
  CerState,
  ElementState,
  FormationState,
  LeaderState,
  Order,
  Side,
  UnitState,
} from './types.ts';
import { unitStartStrength, unitStrength } from './types.ts';
import type { Frame } from './frames.ts';

/** The engine's state: the model of types.ts with the engine's frames on its stack. */
export type S = CerState<Frame>;
/** Actions are their own keys (e.g. `order F1 attack hamlet`, `move F1a 8`), as external bots read them. */
export type Action = string;

export const other = (p: Side): Side => (p === 0 ? 1 : 0);

// ---------- lookups ----------

export function unitOf(s: S, id: string): UnitState {
  const u = s.units.find((x) => x.id === id);
  if (!u) throw new Error(`no unit "${id}"`);
  return u;
}
export function leaderOf(s: S, id: string): LeaderState {
  const l = s.leaders.find((x) => x.id === id);
  if (!l) throw new Error(`no leader "${id}"`);
  return l;
}
export function elementOf(s: S, id: string): ElementState {
  const e = s.elements.find((x) => x.id === id);
  if (!e) throw new Error(`no ME "${id}"`);
  return e;
}
export function formationOf(s: S, id: string): FormationState {
  const f = s.formations.find((x) => x.id === id);
  if (!f) throw new Error(`no MF "${id}"`);
  return f;
}
/** An MF or an ME by id. */
export function commandOf(s: S, id: string): FormationState | ElementState {
  return s.formations.find((x) => x.id === id) ?? elementOf(s, id);
}

/** A unit on the table (not off it, not broken or captured). */
export const onTable = (u: UnitState) => u.status === 'active';

export function unitsOf(s: S, side: Side): UnitState[] {
  return s.units.filter((u) => u.side === side && onTable(u));
}
export function elementUnits(s: S, e: ElementState | string): UnitState[] {
  const el = typeof e === 'string' ? elementOf(s, e) : e;
  return el.units.map((id) => unitOf(s, id)).filter(onTable);
}
/** The MEs of an MF, or the ME itself. */
export function elementsOfCommand(s: S, id: string): ElementState[] {
  const f = s.formations.find((x) => x.id === id);
  return f ? f.elements.map((e) => elementOf(s, e)) : [elementOf(s, id)];
}

/** The geometry's view of a unit (a garrison's body is its BUA). */
export function placed(s: S, u: UnitState): Placed {
  return placedOf(u, s.ctx.buas);
}

// ---------- updates ----------

export function updUnit(s: S, id: string, patch: Partial<UnitState>): S {
  return { ...s, units: s.units.map((u) => (u.id === id ? ({ ...u, ...patch } as UnitState) : u)) };
}
export function updLeader(s: S, id: string, patch: Partial<LeaderState>): S {
  return { ...s, leaders: s.leaders.map((l) => (l.id === id ? { ...l, ...patch } : l)) };
}
export function updElement(s: S, id: string, patch: Partial<ElementState>): S {
  return { ...s, elements: s.elements.map((e) => (e.id === id ? { ...e, ...patch } : e)) };
}
function updFormation(s: S, id: string, patch: Partial<FormationState>): S {
  return { ...s, formations: s.formations.map((f) => (f.id === id ? { ...f, ...patch } : f)) };
}
/** What MFs and MEs share, to update either. */
export type CommandPatch = Partial<
  Pick<
    FormationState,
    | 'leader'
    | 'order'
    | 'orderAttempts'
    | 'committed'
    | 'messengerArrivesTurn'
    | 'broken'
    | 'moraleTriggers'
    | 'moraleTested'
  >
>;
/** An MF or ME by id. */
export function updCommand(s: S, id: string, patch: CommandPatch): S {
  return s.formations.some((f) => f.id === id) ? updFormation(s, id, patch) : updElement(s, id, patch);
}
export function updArmy(s: S, side: Side, patch: Partial<ArmyState>): S {
  const armies = [s.armies[0], s.armies[1]] as [ArmyState, ArmyState];
  armies[side] = { ...armies[side], ...patch };
  return { ...s, armies };
}

// ---------- strength (C3) ----------

/** Strength now and at the start: figures plus guns × the C3 weight. */
export function strengthOf(s: S, units: readonly UnitState[]): { readonly now: number; readonly start: number } {
  const w = s.ctx.options.gunStrength;
  let now = 0;
  let start = 0;
  for (const u of units) {
    now += unitStrength(u, w);
    start += unitStartStrength(u, w);
  }
  return { now, start };
}

/** The fraction of a set of units' starting strength lost (broken units count all they had). */
export function lostFraction(s: S, units: readonly UnitState[]): number {
  const { now, start } = strengthOf(s, units);
  return start > 0 ? (start - now) / start : 0;
}

/** Every unit of an ME, on the table or not (for % lost). */
export function allElementUnits(s: S, e: ElementState): UnitState[] {
  return e.units.map((id) => unitOf(s, id));
}

// ---------- command ----------

/** The army's CC, when active. */
export function ccOf(s: S, side: Side): LeaderState | null {
  const l = s.leaders.find((x) => x.id === s.armies[side].cc);
  return l && l.status === 'active' ? l : null;
}

/** A command's leader, when he is active (not lost, knocked out, or not yet replaced). */
export function activeLeader(s: S, cmd: FormationState | ElementState): LeaderState | null {
  if (!cmd.leader) return null;
  const l = s.leaders.find((x) => x.id === cmd.leader);
  return l && l.status === 'active' ? l : null;
}

/** [Issuing Orders] a leader's command range, 1/100". */
export function rangeOf(l: LeaderState): number {
  return commandRange(l.level, l.command) * IN;
}

/** Where a command is: its leader's position, or (leaderless) its units' centre, or its entry point off the table. */
export function commandPoint(s: S, cmd: FormationState | ElementState): Vec {
  const l = cmd.leader ? s.leaders.find((x) => x.id === cmd.leader) : undefined;
  if (l && l.status === 'active') return l.pos;
  const els = cmd.kind === 'formation' ? cmd.elements.map((e) => elementOf(s, e)) : [cmd];
  const us = els.flatMap((e) => elementUnits(s, e));
  if (us.length) return centreOf(us.map((u) => u.pos));
  const off = els.find((e) => e.offBoard)?.offBoard;
  return off ? off.entry : { x: 0, y: 0 };
}

export function centreOf(ps: readonly Vec[]): Vec {
  let x = 0;
  let y = 0;
  for (const p of ps) {
    x += p.x;
    y += p.y;
  }
  return { x: Math.round(x / ps.length), y: Math.round(y / ps.length) };
}

/** The commands orders go to (C2 `orderRecipients: formation`): each MF, and each ME in no MF, of a side. */
export function orderRecipients(s: S, side: Side): (FormationState | ElementState)[] {
  const out: (FormationState | ElementState)[] = [];
  for (const f of s.formations) if (f.side === side && !f.broken) out.push(f);
  for (const e of s.elements) if (e.side === side && e.formation === null && !e.broken) out.push(e);
  return out;
}

/** The order an ME follows: its MF's (C2), or its own. */
export function orderOfElement(s: S, e: ElementState): Order | null {
  return e.formation ? formationOf(s, e.formation).order : e.order;
}

/** Is the recipient within its issuer's (the CC's) command range? [Issuing Orders] */
export function inCommandRange(s: S, cc: LeaderState, cmd: FormationState | ElementState): boolean {
  return dist(cc.pos, commandPoint(s, cmd)) <= rangeOf(cc);
}

// ---------- names ----------

export const sideName = (s: S, p: Side) => s.armies[p].name;
export const inches = (n: number) => `${Math.round((n / IN) * 10) / 10}"`;

/** Push an event citing a section of the sheets or a C-number. */
export function say(
  log: Log,
  rule: string,
  text: string,
  extra?: { dice?: readonly number[]; to?: readonly number[]; redacted?: string },
): void {
  log?.push({ rule, text, ...(extra ?? {}) });
}
