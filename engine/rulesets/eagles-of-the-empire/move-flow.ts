/**
 * The Movement Segment of the Action Phase [13.0–13.94]: moving units, stacks, leaders (with an artillery unit
 * [13.24]) and the HQ area by area, roads and trails, facing [13.9], squares [17.11–17.17], reverse slope [17.21],
 * Massed Column declarations [14.7] (A-41) and extended lines (lines.ts). The segment's choices are offered by the
 * phase frame (action.ts); a move in progress is a `move` frame.
 */
import { IllegalActionError } from '../../core/game.ts';
import type { AreaId } from '../../areas/map.ts';
import { entryCost, type MoveClass } from './movement.ts';
import { reverseSlopePossible, squareAllowed } from './stances.ts';
import { legalSteps, type StepOption, type StepWorld } from './steps.ts';
import { movementAllowance, type MoverKind } from './tables.ts';
import type { Action, EState, Frame, PhaseFrame, Side, UnitState } from './types.ts';
import {
  activationFormation,
  alive,
  formationOfLeader,
  inChain,
  conformationsFor,
  enemyOccupied,
  enemyUnitsIn,
  fits,
  hasAttached,
  isActive,
  isLC,
  leaderDef,
  leadersAt,
  spOf,
  unit,
  unitDef,
  unitsAt,
  sideIn,
  unitsIn,
} from './world.ts';
import {
  applyExtend,
  applyRetract,
  extendOptions,
  isExtended,
  lineAllows,
  lineOf,
  retractOptions,
  spendLine,
} from './lines.ts';
import { type Log, ev, hasPhase, inCommand, pop, push, replaceTop, updUnit } from './state.ts';
import { displaceLeaders } from './casualties.ts';
import type { Handlers } from '../../core/procedure.ts';
import { artKind } from './bombard-flow.ts';
import { type FrameOf, decision } from './procedures.ts';
import { RecentMemo } from '../../core/recent.ts';

function moverKind(s: EState, u: UnitState): MoverKind {
  if (u.kind === 'cavalry') return 'cavalry';
  if (u.kind === 'artillery') return artKind(s, u) === 'horse' ? 'horse-artillery' : 'artillery';
  return hasAttached(s, u.id) ? 'infantry-with-artillery' : 'infantry';
}

/** Movement allowance this turn [13.2–13.24] (A-29); `artilleryLeader`: an artillery leader starts and moves with it (+1) [13.24]. */
export function unitMA(s: EState, u: UnitState, artilleryLeader = false): number {
  return movementAllowance(moverKind(s, u), {
    outOfCommand: hasPhase(s) ? !inCommand(s, u.id) : false,
    weather: s.weather,
    detachedThisTurn: u.detached,
    artilleryLeader,
  });
}

export function moveClass(u: UnitState): MoveClass {
  return u.kind;
}

/** Units that may still move [13.0, 15.11, 17.15]: active, no charge or bombardment, not in square, not routed, move not made. */
export function movers(s: EState, p: Side): UnitState[] {
  return s.units.filter(
    (u) =>
      u.side === p &&
      alive(u) &&
      isActive(s, u) &&
      !u.moveDone &&
      !u.routed &&
      !u.square &&
      !u.rs &&
      u.attachedTo === null &&
      u.acted !== 'charge' &&
      u.acted !== 'bombard' &&
      u.mp < unitMA(s, u),
  );
}

/** Leaders whose formation is active [13.4]; army and intermediate commanders once per turn. */
function leaderMovers(s: EState, p: Side): string[] {
  const side = s.ctx.scenario.sides[p];
  return s.leaders
    .filter((l) => l.side === p && l.status === 'on' && !l.moved)
    .filter((l) => {
      const d = leaderDef(s, l.id);
      if (d.role === 'chiefOfStaff' || d.role === 'staffOfficer' || d.role === 'lineOfficer') return false; // they stay with the HQ [9.52]
      if (d.id === side.armyCommander) return s.active.length > 0;
      // his own formation active, or (an intermediate commander) any formation under him; leaders of no formation
      // (artillery leaders, until assigned [11.14]) move with the HQ formation
      const own = s.artLeaderOf[d.id] ?? formationOfLeader(s, d.id);
      if (own === null) return side.formations.some((f) => f.kind === 'hq' && s.active.includes(f.id));
      return s.active.some((fid) => fid === activationFormation(s, p, own) || inChain(s, p, d.id, fid));
    })
    .map((l) => l.id);
}

export function moverOptions(s: EState, p: Side, ms = movers(s, p)): Action[] {
  const out: Action[] = [];
  const byArea = new Map<AreaId, UnitState[]>();
  for (const u of ms) byArea.set(u.area!, [...(byArea.get(u.area!) ?? []), u]);
  for (const u of ms) out.push({ k: 'mvUnit', u: u.id });
  for (const [area, us] of [...byArea].sort((a, b) => a[0] - b[0]))
    if (us.length > 1 && us.every((u) => u.mp === 0)) out.push({ k: 'mvStack', area });
  const lms = leaderMovers(s, p);
  for (const l of lms) out.push({ k: 'mvLeader', l });
  // [13.24] an artillery leader starting with one unattached, non-horse artillery unit may move with it for +1 MA
  for (const l of lms) {
    const at = s.leaders.find((x) => x.id === l)!.area;
    if (leaderDef(s, l).role !== 'artillery' || lmp(s, l) !== 0) continue;
    for (const u of ms)
      if (u.kind === 'artillery' && u.area === at && u.mp === 0 && artKind(s, u) !== 'horse')
        out.push({ k: 'mvWithLeader', u: u.id, l });
  }
  // [13.5] the HQ moves with the HQ formation's activation when the CoS or the army commander is with it
  const hq = s.hq[p];
  const side = s.ctx.scenario.sides[p];
  if (hq && !hq.lost && hq.area !== null && side.formations.some((f) => f.kind === 'hq' && s.active.includes(f.id))) {
    const escort = leadersAt(s, hq.area, p).some((l) => l.id === side.chiefOfStaff || l.id === side.armyCommander);
    if (escort && !hqMoved(s, p)) out.push({ k: 'mvHq' });
  }
  return out;
}
function hqMoved(s: EState, p: Side): boolean {
  return s.hqMoved[p];
}

/** [17.11, 17.16] (A-44) form or leave square by intent: every infantry unit of the side there active with 1 MP left. */
export function squareOptions(s: EState, p: Side): Action[] {
  if (!s.ctx.scenario.sides[p].allow.square) return [];
  const out: Action[] = [];
  const areas = [
    ...new Set(s.units.filter((u) => u.side === p && alive(u) && u.kind === 'infantry').map((u) => u.area!)),
  ].sort((a, b) => a - b);
  for (const area of areas) {
    const us = unitsAt(s, area, p);
    const inf = us.filter((u) => u.kind === 'infantry');
    if (!inf.every((u) => isActive(s, u) && !u.routed && !u.moveDone && u.mp + 1 <= unitMA(s, u) && u.acted === null))
      continue;
    const on = inf[0]!.square;
    if (!on) {
      const ok = squareAllowed(
        us.map((u) => ({ kind: u.kind, sp: spOf(u), extended: isExtended(u) })),
        true,
      ).ok;
      if (!ok) continue;
    }
    out.push({ k: 'square', area, on: !on });
  }
  return out;
}

/**
 * Massed Column declarations [14.7, 14.71] (A-41), where the scenario allows them: an unmoved infantry long counter
 * with no attached artillery, not in square or reverse slope, names an area holding an enemy infantry long counter
 * that is not adjacent to it, then moves adjacent to it; it must assault it in the Assault Segment.
 */
export function massedColumnOptions(s: EState, p: Side, ms = movers(s, p)): Action[] {
  if (!s.ctx.scenario.sides[p].allow.massedColumn) return [];
  const map = s.ctx.map;
  const targets = [...new Set(s.units.filter((u) => u.side !== p && alive(u) && isLC(u)).map((u) => u.area!))].sort(
    (a, b) => a - b,
  );
  const out: Action[] = [];
  for (const u of ms) {
    if (
      !isLC(u) ||
      isExtended(u) ||
      u.mp !== 0 ||
      u.mc !== null ||
      s.units.some((x) => x.attachedTo === u.id && alive(x))
    )
      continue; // [14.71, 16.9]
    for (const t of targets) {
      const r = map.range(u.area!, t);
      if (r >= 2 && r <= unitMA(s, u) + 1) out.push({ k: 'massedColumn', u: u.id, target: t });
    }
  }
  return out;
}

/**
 * Reverse Slope Defence [17.2, 17.21, 17.24] (A-45), where the scenario allows it: infantry (long or short) and
 * unattached artillery in an area with a slope or escarpment boundary enter or leave it in the Movement Segment at
 * 1 MP; attached artillery shares its LC's stance; a unit in reverse slope must leave it before moving away.
 */
export function reverseSlopeOptions(s: EState, p: Side): Action[] {
  if (!s.ctx.scenario.sides[p].allow.reverseSlope) return [];
  const out: Action[] = [];
  for (const u of s.units) {
    if (
      u.side !== p ||
      !alive(u) ||
      u.kind === 'cavalry' ||
      u.attachedTo !== null ||
      u.routed ||
      u.square ||
      isExtended(u) ||
      u.moveDone ||
      u.acted !== null
    )
      continue; // [16.9]
    if (!isActive(s, u) || u.mp + 1 > unitMA(s, u) || !reverseSlopePossible(s.ctx.map, u.area!)) continue;
    out.push({ k: 'reverseSlope', u: u.id, on: !u.rs });
  }
  return out;
}

/** Extending and retracting lines [16.0]: active, in-command long counters that may still move. */
export function lineOptions(s: EState, p: Side, ms = movers(s, p)): Action[] {
  const ma = (u: UnitState) => unitMA(s, u);
  const cmd = (id: string) => inCommand(s, id);
  return [...extendOptions(s, p, ms, ma, cmd), ...retractOptions(s, ms, ma, cmd)];
}

function groupOf(s: EState, f: Extract<Frame, { t: 'move' }>) {
  return { units: f.units.map((id) => unit(s, id)), leaders: f.leaders };
}

function mpLeft(s: EState, f: Extract<Frame, { t: 'move' }>): number {
  const { units } = groupOf(s, f);
  let left = Infinity;
  for (const u of units) left = Math.min(left, unitMA(s, u, !!f.boost) - u.mp);
  for (const l of f.leaders) left = Math.min(left, 4 - lmp(s, l)); // leaders: MA 4 [13.2]
  if (f.hq) left = Math.min(left, 2 - hqMp(s, f.p));
  return left;
}
function lmp(s: EState, l: string): number {
  return s.leaderMp[l] ?? 0;
}
function hqMp(s: EState, p: Side): number {
  return s.hqMp[p];
}

function stepWorld(s: EState, p: Side, movers: readonly UnitState[]): StepWorld {
  return {
    map: s.ctx.map,
    enemyBlocks: (a) => enemyOccupied(s, p, a),
    enemyUnits: (a) => enemyUnitsIn(s, p, a),
    fits: (a) => fits(s, p, a, movers),
    cornersAllFullOfFriends: (corners) => corners.every((c) => hasSide(s, c, p) && !fits(s, p, c, movers)),
  };
}

/**
 * The steps open to the move `f` at `s`, once per frame and state: the runtime asks for the legal actions at `s`, then
 * applies the chosen step to `s` with the frame popped and pushed back (the same state in a new object). Shared:
 * never modify the array.
 */
const stepMemo = new RecentMemo<object, { readonly s: EState; readonly steps: readonly StepOption[] }>(2);
function cachedMoveSteps(s: EState, f: Extract<Frame, { t: 'move' }>): readonly StepOption[] {
  const hit = stepMemo.get(f);
  if (hit && sameState(hit.s, s)) return hit.steps;
  const steps = moveSteps(s, f);
  stepMemo.set(f, { s, steps });
  return steps;
}
/** The same state: every field the same object or value, the stacks frame by frame. */
function sameState(a: EState, b: EState): boolean {
  if (a === b) return true;
  for (const k in a)
    if (k !== 'stack' && (a as unknown as Record<string, unknown>)[k] !== (b as unknown as Record<string, unknown>)[k])
      return false;
  if (a.stack.length !== b.stack.length) return false;
  for (let i = 0; i < a.stack.length; i++) if (a.stack[i] !== b.stack[i]) return false;
  return true;
}

function moveSteps(s: EState, f: Extract<Frame, { t: 'move' }>): StepOption[] {
  const { units } = groupOf(s, f);
  const left = mpLeft(s, f);
  if (left <= 0) return [];
  const classes: MoveClass[] = units.length ? [...new Set(units.map(moveClass))] : f.hq ? ['artillery'] : [];
  const long = units.find(isLC);
  const w = stepWorld(s, f.p, units);
  if (!classes.length) {
    // a leader alone pays the lower of the infantry and cavalry costs [13.4]
    const inf = legalSteps(
      w,
      { classes: ['infantry'], inCommand: true, roadAligned: null, hasLong: false, longIn: () => false },
      f.at,
      left,
    );
    const cav = legalSteps(
      w,
      { classes: ['cavalry'], inCommand: true, roadAligned: null, hasLong: false, longIn: () => false },
      f.at,
      left,
    );
    const best = new Map<AreaId, (typeof inf)[number]>();
    for (const o of [...inf, ...cav]) if (!best.has(o.to) || best.get(o.to)!.cost > o.cost) best.set(o.to, o);
    return [...best.values()].sort((a, b) => a.to - b.to);
  }
  const inCmd = units.every((u) => inCommand(s, u.id));
  const aligned = f.road; // A-30: the alignment the long counter had where it started
  const steps = legalSteps(
    w,
    { classes, inCommand: inCmd, roadAligned: aligned, hasLong: !!long, longIn: (a) => stackOf2(s, f.p, a) },
    f.at,
    left,
  );
  // [16.3] the parts of an extended line stay side-adjacent (A-32)
  const parts = units.filter((u) => u.xsp !== null);
  return parts.length ? steps.filter((o) => parts.every((u) => lineAllows(s, u, o.to))) : steps;
}
/** The road a moving long counter is aligned along where it starts [13.35] (A-30). */
function roadOf(s: EState, us: readonly UnitState[]): string | null {
  const long = us.find(isLC);
  if (!long || long.conf === null) return null;
  const a = s.ctx.map.area(long.area!);
  if (a.allAround) return null;
  return a.conformations.find((c) => c.id === long.conf)?.roadAligned ?? null;
}
function stackOf2(s: EState, p: Side, a: AreaId): boolean {
  for (const u of unitsIn(s, a)) if (u.side === p && isLC(u)) return true;
  return false;
}
/** Side `p` has units in area `a`. */
function hasSide(s: EState, a: AreaId, p: Side): boolean {
  return sideIn(s, p, a);
}

/** Where a group of side `p`'s units could step next if it started moving now (the heuristic's look at a move). */
export function firstSteps(s: EState, p: Side, ids: readonly string[]): { to: AreaId; cost: number }[] {
  const at = unit(s, ids[0]!).area!;
  return moveSteps(s, {
    t: 'move',
    p,
    units: ids,
    leaders: [],
    hq: false,
    at,
    moved: false,
    road: roadOf(
      s,
      ids.map((id) => unit(s, id)),
    ),
  });
}

function moveActions(s: EState, f: Extract<Frame, { t: 'move' }>): Action[] {
  const out: Action[] = [];
  // [13.9] a single unit may reface before it moves (then not at the end)
  if (!f.moved && f.units.length === 1) {
    const u = unit(s, f.units[0]!);
    if (!u.refaced) for (const c of conformationsFor(s, u)) if (c !== u.conf) out.push({ k: 'face', u: u.id, conf: c });
  }
  for (const o of cachedMoveSteps(s, f)) out.push({ k: 'to', area: o.to, mode: o.mode });
  out.push({ k: 'stop' });
  return out;
}

/** Carry out a movement choice of the phase frame `f` (on top of the stack): start a move, or a stance change. */
export function movementStep(s: EState, f: PhaseFrame, a: Action, log: Log): EState {
  switch (a.k) {
    case 'mvUnit': {
      const u = unit(s, a.u);
      if (!movers(s, f.p).includes(u)) throw new IllegalActionError('mvUnit', `${a.u} cannot move now`);
      return push(s, {
        t: 'move',
        p: f.p,
        units: [u.id],
        leaders: [],
        hq: false,
        at: u.area!,
        moved: false,
        road: roadOf(s, [u]),
      });
    }
    case 'massedColumn': {
      if (!massedColumnOptions(s, f.p).some((x) => x.k === 'massedColumn' && x.u === a.u && x.target === a.target))
        throw new IllegalActionError(
          'massedColumn',
          `${a.u} cannot declare a Massed Column against area ${a.target} now [14.7]`,
        );
      const u = unit(s, a.u);
      ev(log, '14.7', `${unitDef(s, a.u).name} declares a Massed Column against area ${a.target} and moves up`);
      s = updUnit(s, a.u, { mc: a.target });
      return push(s, {
        t: 'move',
        p: f.p,
        units: [u.id],
        leaders: [],
        hq: false,
        at: u.area!,
        moved: false,
        road: roadOf(s, [u]),
      });
    }
    case 'mvStack': {
      const us = movers(s, f.p).filter((u) => u.area === a.area);
      return push(s, {
        t: 'move',
        p: f.p,
        units: us.map((u) => u.id),
        leaders: [],
        hq: false,
        at: a.area,
        moved: false,
        road: roadOf(s, us),
      });
    }
    case 'mvLeader':
      return push(s, {
        t: 'move',
        p: f.p,
        units: [],
        leaders: [a.l],
        hq: false,
        at: s.leaders.find((l) => l.id === a.l)!.area!,
        moved: false,
        road: null,
      });
    case 'mvWithLeader': {
      if (!moverOptions(s, f.p).some((x) => x.k === 'mvWithLeader' && x.u === a.u && x.l === a.l))
        throw new IllegalActionError('mvWithLeader', `${a.l} cannot move with ${a.u} now [13.24]`);
      const u = unit(s, a.u);
      ev(log, '13.24', `${leaderDef(s, a.l).name} moves with ${unitDef(s, a.u).name}: +1 MA`);
      return push(s, {
        t: 'move',
        p: f.p,
        units: [u.id],
        leaders: [a.l],
        hq: false,
        at: u.area!,
        moved: false,
        road: roadOf(s, [u]),
        boost: true,
      });
    }
    case 'mvHq':
      return push(s, {
        t: 'move',
        p: f.p,
        units: [],
        leaders: [],
        hq: true,
        at: s.hq[f.p]!.area!,
        moved: false,
        road: null,
      });
    case 'square': {
      for (const u of unitsAt(s, a.area, f.p).filter((x) => x.kind === 'infantry'))
        s = updUnit(s, u.id, { square: a.on, mp: u.mp + 1 });
      ev(
        log,
        a.on ? '17.11' : '17.16',
        `${s.ctx.scenario.sides[f.p].name} infantry in area ${a.area} ${a.on ? 'form' : 'leave'} square (1 MP)`,
      );
      return s;
    }
    case 'extend':
      if (!lineOptions(s, f.p).some((x) => x.k === 'extend' && x.u === a.u && x.to.join() === a.to.join()))
        throw new IllegalActionError(
          'extend',
          `${a.u} cannot extend into area${a.to.length > 1 ? 's' : ''} ${a.to.join(' and ')} now [16.0]`,
        );
      return applyExtend(s, a, log);
    case 'retract':
      if (!lineOptions(s, f.p).some((x) => x.k === 'retract' && x.u === a.u && x.into === a.into))
        throw new IllegalActionError('retract', `${a.u} cannot retract its line into area ${a.into} now [16.0]`);
      return applyRetract(s, a, log);
    case 'reverseSlope': {
      if (!reverseSlopeOptions(s, f.p).some((x) => x.k === 'reverseSlope' && x.u === a.u && x.on === a.on))
        throw new IllegalActionError(
          'reverseSlope',
          `${a.u} cannot ${a.on ? 'enter' : 'leave'} reverse slope now [17.21]`,
        );
      const u = unit(s, a.u);
      s = updUnit(s, a.u, { rs: a.on, mp: u.mp + 1 });
      for (const x of s.units) if (x.attachedTo === a.u && !x.eliminated) s = updUnit(s, x.id, { rs: a.on }); // [17.21]
      ev(
        log,
        a.on ? '17.21' : '17.24',
        `${unitDef(s, a.u).name} ${a.on ? 'takes up' : 'leaves'} reverse slope defence in area ${u.area} (1 MP)`,
      );
      return s;
    }
    default:
      throw new IllegalActionError(a.k, `not an action in the ${f.seg} segment`);
  }
}

function moveStep(s: EState, f: Extract<Frame, { t: 'move' }>, a: Action, log: Log): EState {
  if (a.k === 'face') {
    ev(log, '13.9', `${unitDef(s, a.u).name} refaces to ${a.conf}`);
    return updUnit(s, a.u, { conf: a.conf, refaced: true });
  }
  if (a.k === 'to') {
    const opt = cachedMoveSteps(s, f).find((o) => o.to === a.area && o.mode === a.mode);
    if (!opt) throw new IllegalActionError('to', `the group cannot enter area ${a.area} by ${a.mode} now`);
    for (const id of f.units) {
      const line = lineOf(s, unit(s, id));
      if (line !== null) s = spendLine(s, line, opt.cost, [id]); // one MP budget for the whole line (A-32)
      s = updUnit(s, id, { area: a.area, mp: unit(s, id).mp + opt.cost, square: false });
      for (const x of s.units.filter((y) => y.attachedTo === id && !y.eliminated)) {
        if (entryCost(s.ctx.map, f.at, a.area, 'artillery') === Infinity) {
          // [11.27] the boundary is closed to artillery: it detaches and stays behind
          s = updUnit(s, x.id, { attachedTo: null });
          ev(log, '11.27', `${unitDef(s, x.id).name} cannot cross into area ${a.area} and detaches`);
        } else s = updUnit(s, x.id, { area: a.area });
      }
    }
    if (f.leaders.length) {
      const lm = { ...s.leaderMp };
      for (const l of f.leaders) lm[l] = (lm[l] ?? 0) + opt.cost;
      s = {
        ...s,
        leaders: s.leaders.map((l) => (f.leaders.includes(l.id) ? { ...l, area: a.area } : l)),
        leaderMp: lm,
      };
    }
    if (f.hq) {
      const hm: [number, number] = [s.hqMp[0], s.hqMp[1]];
      hm[f.p] += opt.cost;
      s = {
        ...s,
        hq: s.hq.map((h, i) => (i === f.p ? { ...h!, area: a.area } : h)) as unknown as EState['hq'],
        hqMp: hm,
      };
    }
    if (log) {
      const who = [
        ...f.units.map((id) => unitDef(s, id).name),
        ...f.leaders.map((l) => leaderDef(s, l).name),
        ...(f.hq ? ['the HQ'] : []),
      ].join(', ');
      ev(
        log,
        a.mode === 'normal' ? '13.1' : '13.31',
        `${who} ${a.mode === 'normal' ? 'moves' : `moves by ${a.mode}`} from area ${f.at} to area ${a.area} (${opt.cost} MP)`,
      );
    }
    let nf: Frame = { ...f, at: a.area, moved: true };
    s = replaceTop(s, nf);
    // [13.71] a long counter entering a circle area that already holds one must stop
    const area = s.ctx.map.area(a.area);
    const lcs = f.units.map((id) => unit(s, id)).filter(isLC);
    if (
      lcs.length &&
      area.stack.class !== 'normal' &&
      area.stack.class !== 'town' &&
      unitsAt(s, a.area, f.p).filter((u) => isLC(u) && !f.units.includes(u.id)).length
    ) {
      ev(log, '13.71', `a long counter entering area ${a.area}, which already holds one, must stop`);
      s = finishMove(s, nf as Extract<Frame, { t: 'move' }>, log);
      return displaceLeaders(s, f.p, a.area, log);
    }
    return f.units.length ? displaceLeaders(s, f.p, a.area, log) : s;
  }
  if (a.k === 'stop') return finishMove(s, f, log);
  throw new IllegalActionError(a.k, 'not an action while moving');
}

/** End of a move: the move is spent; facing at the end unless it refaced at the start [13.9]; joining a square [17.17]. */
function finishMove(s: EState, f: Extract<Frame, { t: 'move' }>, log: Log): EState {
  s = pop(s);
  for (const id of f.units) s = updUnit(s, id, { moveDone: true });
  for (const l of f.leaders) s = { ...s, leaders: s.leaders.map((x) => (x.id === l ? { ...x, moved: true } : x)) };
  if (f.hq) s = { ...s, hqMoved: [f.p === 0 || s.hqMoved[0], f.p === 1 || s.hqMoved[1]] };
  // [17.17] (A-44) infantry stopping where its side is in square joins the square, at no cost
  const inSq = unitsAt(s, f.at, f.p).some((u) => u.square && !f.units.includes(u.id));
  for (const id of f.units) if (inSq && unit(s, id).kind === 'infantry') s = updUnit(s, id, { square: true });
  for (const id of f.units) {
    const u = unit(s, id);
    if (u.mc === null) continue;
    // [14.7] (A-41) the column ends adjacent to its target with its front toward it, or the declaration lapses
    const map = s.ctx.map;
    const confs = conformationsFor(s, u);
    const front = confs.filter((c) => map.facingOrNull(u.area!, c, u.mc!) === 'front');
    if (!map.sideNeighbours(u.area!).includes(u.mc) || (confs.length && !front.length)) {
      ev(log, '14.7', `${unitDef(s, id).name} did not reach area ${u.mc} facing it: the Massed Column lapses (A-41)`);
      s = updUnit(s, id, { mc: null });
    } else if (front.length)
      s = updUnit(s, id, { conf: u.conf !== null && front.includes(u.conf) ? u.conf : front[0]! });
  }
  if (!f.moved) return s;
  const frames: Frame[] = [];
  for (const id of f.units) {
    const u = unit(s, id);
    const confs = conformationsFor(s, u);
    if (u.mc !== null) continue; // faced above
    if (!confs.length) {
      if (u.conf !== null) s = updUnit(s, id, { conf: null });
      continue;
    }
    if (u.refaced && u.conf !== null && confs.includes(u.conf)) continue;
    frames.push({ t: 'face', p: f.p, u: id });
  }
  void log;
  return push(s, ...frames.reverse());
}

type MoveFrame = FrameOf<'move'>;

/** A move in progress as the runtime plays it: the mover's owner chooses the next area, a facing, or stops. */
export const movement: Handlers<EState, MoveFrame, Action> = {
  move: decision<MoveFrame>({
    decider: (_s, f) => f.p,
    legal: moveActions,
    chance: () => [],
    step: moveStep,
    settle: () => null,
  }),
};
