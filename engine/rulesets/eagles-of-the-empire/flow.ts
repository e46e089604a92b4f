/**
 * Eagles of the Empire sequence of play [4.0]: the Preparation Step (weather [5.0], reinforcements [6.0], first player
 * [7.0]), the Activation Step (alternating attempts, formations selected, Action Phases [8.0–8.18]) with the Command
 * Determination Segment [9.0–9.5], and the End Step [15.0] with the victory check [1.1].
 *
 * This module plays the sequence's own frames (its handlers, `sequence`, assembled in rules.ts) and advances the
 * sequence between procedures (`idle`); rules.ts runs them. It starts the other procedures by pushing their frames:
 * the Action Phase (action.ts, with charge-flow.ts, grand-charge.ts and assault-flow.ts) and the End Step's
 * procedures (end-flow.ts). The initial state is setup.ts's; objectives and the victory check are victory.ts's.
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { IllegalActionError } from '../../core/game.ts';
import type { AreaId } from '../../areas/map.ts';
import { nextCbI, traceCommand } from './command.ts';
import { formationsOf } from './scenario.ts';
import { activations } from './tables.ts';
import type { Action, EState, Frame, LeaderState, Reinforcement, Side, Weather } from './types.ts';
import { type Log, ev, pop, push, startPhase, updUnit } from './state.ts';
import { commandInput, conformationsFor, enemyPresence, findUnit, leaderDef, other } from './world.ts';
import { afterAttempt, commanderInitiative, eligibleFormations, topFormation } from './activation.ts';
import type { Handlers } from '../../core/procedure.ts';
import { type FrameOf, type FrameRules, auto, chance, decision, entry } from './procedures.ts';
import { victory } from './victory.ts';

// ---------------------------------------------------------------------------------------------
// the sequence of play's frames: who decides, legal actions and chance
// ---------------------------------------------------------------------------------------------

/** The frames this module plays (its handlers are at the end). */
const KINDS = [
  'reinf',
  'reinfPlace',
  'face',
  'firstChoice',
  'attempt',
  'select',
  'weather',
  'firstRoll',
  'actDie',
  'courier',
  'cbi',
  'command',
] as const;
type FlowFrame = FrameOf<(typeof KINDS)[number]>;

/** Who decides at a sequence-of-play frame (null: a chance node, or the automatic Command Determination). */
function flowDecider(_s: EState, f: FlowFrame): Side | null {
  switch (f.t) {
    case 'reinf':
    case 'reinfPlace':
    case 'face':
    case 'firstChoice':
    case 'attempt':
    case 'select':
      return f.p;
    case 'weather':
    case 'firstRoll':
    case 'actDie':
    case 'courier':
    case 'cbi':
    case 'command':
      return null;
  }
}

function flowLegal(s: EState, f: FlowFrame): Action[] {
  const sc = s.ctx.scenario;
  switch (f.t) {
    case 'reinf': {
      const r = s.reinf.find((x) => x.id === f.g)!;
      const acts: Action[] = [];
      if (canArrive(s, f.g)) acts.push({ k: 'arrive', g: f.g });
      if (canDelay(s, r)) acts.push({ k: 'delay', g: f.g });
      return acts; // never empty: the group is offered only when it can arrive or be delayed (settle)
    }
    case 'reinfPlace':
      return f.areas.map((area) => ({ k: 'placeAt', area }));
    case 'face': {
      const u = s.units.find((x) => x.id === f.u)!;
      return conformationsFor(s, u).map((conf) => ({ k: 'face', u: u.id, conf }));
    }
    case 'firstChoice':
      return [
        { k: 'first', self: true },
        { k: 'first', self: false },
      ];
    case 'attempt': {
      const acts: Action[] = [{ k: 'roll' }, { k: 'pass' }];
      // [10.8] only leaders the scenario names, with unactivated cavalry in or next to their area and a lane to charge
      const gc = entry('grandCharge');
      for (const l of sc.sides[f.p].leaders)
        if (gc.canGrandCharge(s, f.p, l.id)) acts.push({ k: 'grandCharge', leader: l.id });
      return acts;
    }
    case 'select':
      return eligibleFormations(s, f.p)
        .filter((id) => !s.active.includes(id))
        .map((id) => ({ k: 'select', f: id }));
    case 'weather':
    case 'firstRoll':
    case 'actDie':
    case 'courier':
    case 'cbi':
    case 'command':
      return []; // chance or automatic
  }
}

const DIE: ChanceOutcome<Action>[] = [1, 2, 3, 4, 5, 6].map((face) => ({
  action: { k: 'c-die', face },
  p: 1 / 6,
  label: `d6 = ${face}`,
}));

/** P(side 0 wins the first-player roll) [7.0]: d6 + initiative each, ties re-rolled. */
export function firstPlayerOdds(i0: number, i1: number): number {
  let w = 0;
  let t = 0;
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= 6; b++) {
      if (a + i0 > b + i1) w++;
      else if (a + i0 === b + i1) t++;
    }
  return w / (36 - t);
}

function flowChance(s: EState, f: FlowFrame): ChanceOutcome<Action>[] {
  switch (f.t) {
    case 'weather': {
      const table = s.ctx.scenario.weather.table!;
      const by = new Map<Weather, number[]>();
      table.forEach((w, i) => by.set(w, [...(by.get(w) ?? []), i + 1]));
      return [...by].map(([w, faces]) => ({
        action: { k: 'c-weather', w, faces },
        p: faces.length / 6,
        label: `${w} (d6 ${faces.join(', ')})`,
      }));
    }
    case 'firstRoll': {
      // ties are re-rolled: the outcome classes are the two winners with their conditional odds [7.0]
      const p0 = firstPlayerOdds(commanderInitiative(s, 0), commanderInitiative(s, 1));
      return [
        { action: { k: 'c-first', winner: 0 }, p: p0, label: `${s.ctx.scenario.sides[0].name} wins the roll` },
        { action: { k: 'c-first', winner: 1 }, p: 1 - p0, label: `${s.ctx.scenario.sides[1].name} wins the roll` },
      ].filter((o) => o.p > 0) as ChanceOutcome<Action>[];
    }
    case 'actDie':
    case 'courier':
    case 'cbi':
      return DIE;
    case 'reinf':
    case 'reinfPlace':
    case 'face':
    case 'firstChoice':
    case 'attempt':
    case 'select':
    case 'command':
      return []; // decisions or automatic
  }
}

// ---------------------------------------------------------------------------------------------
// applying actions
// ---------------------------------------------------------------------------------------------

function updLeader(s: EState, id: string, patch: Partial<LeaderState>): EState {
  return { ...s, leaders: s.leaders.map((l) => (l.id === id ? { ...l, ...patch } : l)) };
}

/** Candidate areas for a displaced reinforcement: nearest enemy-free map-edge areas, else nearest enemy-free areas. */
function reinforcementAreas(s: EState, p: Side, area: AreaId): AreaId[] {
  const map = s.ctx.map;
  const free = (a: AreaId) => enemyPresence(s, p, a) !== 'units' && s.hq[other(p)]?.area !== a;
  if (free(area)) return [area];
  const dist = new Map<AreaId, number>([[area, 0]]);
  const q = [area];
  for (let i = 0; i < q.length; i++)
    for (const n of map.sideNeighbours(q[i]!)) if (!dist.has(n)) dist.set(n, dist.get(q[i]!)! + 1), q.push(n);
  const best = (pred: (a: AreaId) => boolean) => {
    const c = [...dist].filter(([a]) => pred(a) && free(a));
    if (!c.length) return [];
    const d = Math.min(...c.map(([, x]) => x));
    return c
      .filter(([, x]) => x === d)
      .map(([a]) => a)
      .sort((x, y) => x - y);
  };
  const edge = best((a) => map.isEdge(a));
  return edge.length ? edge : best(() => true);
}

/** Group `gid` can be brought on now: some enemy-free area is left for it [6.0]. */
function canArrive(s: EState, gid: string): boolean {
  const def = s.ctx.scenario.reinforcements.find((r) => r.id === gid)!;
  return reinforcementAreas(s, def.side, def.area).length > 0;
}

/** A group may be delayed once, by one turn, and not past the last turn [6.0]. */
function canDelay(s: EState, r: Reinforcement): boolean {
  return !r.delayed && s.turn < s.ctx.scenario.turns.length;
}

/**
 * A group due now that can neither arrive (the enemy holds every area the search of [6.0] reaches) nor be delayed
 * (already delayed, or the last turn) does not arrive: it may not be placed among enemy units [6.0], and it stays off
 * the map for the rest of the game (see the README's rulings).
 */
function lapseReinforcement(s: EState, gid: string, log: Log): EState {
  ev(
    log,
    '6.0',
    `${gid} cannot arrive: every area it could reach is held by the enemy, and it cannot be delayed (A-51); it does not arrive`,
  );
  return { ...s, reinf: s.reinf.map((r) => (r.id === gid ? { ...r, lapsed: true } : r)) };
}

function placeReinforcement(s: EState, gid: string, area: AreaId, log: Log): EState {
  const def = s.ctx.scenario.reinforcements.find((r) => r.id === gid)!;
  s = { ...s, reinf: s.reinf.map((r) => (r.id === gid ? { ...r, arrived: true } : r)) };
  for (const u of def.units) s = updUnit(s, u, { area });
  for (const l of def.leaders) s = updLeader(s, l, { area, status: 'on' });
  ev(log, '6.0', `${def.id} arrives at area ${area} and is in command this turn`);
  // the owner faces each long counter and artillery unit [13.9], unless the area faces all round [13.92]
  if (!s.ctx.map.area(area).allAround)
    for (const u of [...def.units].reverse()) {
      const us = s.units.find((x) => x.id === u)!;
      if ((us.long || us.kind === 'artillery') && s.ctx.map.area(area).conformations.length)
        s = push(s, { t: 'face', p: def.side, u });
    }
  return s;
}

/** Apply an action or chance outcome at a sequence-of-play frame: the frame is done with, and the action says what follows. */
function flowStep(s0: EState, f: FlowFrame, a: Action, log: Log): EState {
  let s = pop(s0);
  const sc = s.ctx.scenario;
  switch (a.k) {
    case 'c-weather':
      ev(log, '5.0', `weather for turn ${s.turn}: ${a.w}`, a.faces.length === 1 ? a.faces : undefined);
      return { ...s, weather: a.w, weatherSet: true };
    case 'arrive': {
      const def = sc.reinforcements.find((r) => r.id === a.g)!;
      const areas = reinforcementAreas(s, def.side, def.area);
      if (!areas.length)
        throw new IllegalActionError(`arrive ${def.id}`, 'no enemy-free area is left for it to arrive in [6.0]');
      if (areas.length > 1) return push(s, { t: 'reinfPlace', p: def.side, g: def.id, areas });
      return placeReinforcement(s, def.id, areas[0]!, log);
    }
    case 'delay':
      ev(log, '6.0', `${a.g} is delayed one turn (A-51)`);
      return { ...s, reinf: s.reinf.map((r) => (r.id === a.g ? { ...r, delayed: true } : r)) };
    case 'placeAt':
      if (f.t !== 'reinfPlace') throw new IllegalActionError('placeAt', 'no reinforcement to place');
      return placeReinforcement(s, f.g, a.area, log);
    case 'face':
      return updUnit(s, a.u, { conf: a.conf });
    case 'c-first': {
      const [i0, i1] = [commanderInitiative(s, 0), commanderInitiative(s, 1)];
      ev(
        log,
        '7.0',
        `${sc.sides[a.winner].name} wins the first-player roll (d6 + initiative ${i0} for ${sc.sides[0].name} against d6 + initiative ${i1} for ${sc.sides[1].name}, ties rolled again) and chooses who attempts activation first`,
      );
      return push(s, { t: 'firstChoice', p: a.winner });
    }
    case 'first': {
      const p = (f as Extract<Frame, { t: 'firstChoice' }>).p;
      const first = a.self ? p : other(p);
      ev(log, '7.0', `${sc.sides[first].name} attempts activation first`);
      return { ...s, firstPlayer: first, acting: first, phase: 'activation', prev: null, sameSideFails: 0 };
    }
    case 'roll':
      return push(s, { t: 'actDie', p: (f as { p: Side }).p });
    case 'pass': {
      const p = (f as { p: Side }).p;
      ev(log, '8.1', `${sc.sides[p].name} passes (a failed attempt, A-05)`);
      return afterAttempt(s, p, true, log);
    }
    case 'grandCharge': {
      const p = (f as Extract<Frame, { t: 'attempt' }>).p;
      if (f.t !== 'attempt' || !entry('grandCharge').canGrandCharge(s0, p, a.leader))
        throw new IllegalActionError(`grand-charge ${a.leader}`, 'this leader cannot launch a Grand Charge now [10.8]');
      return push(s, { t: 'gc', p, leader: a.leader, stage: 'first', first: null, target: null, units: [] });
    }
    case 'select': {
      const left = (f as Extract<Frame, { t: 'select' }>).left - 1;
      const p = (f as { p: Side }).p;
      s = {
        ...s,
        active: [...s.active, a.f],
        formations: s.formations.map((x) => (x.id === a.f ? { ...x, activated: true } : x)),
      };
      ev(log, '8.1', `${sc.sides[p].name} activates ${formationsOf(sc.sides[p]).find((x) => x.f.id === a.f)!.f.name}`);
      if (left > 0 && eligibleFormations(s, p).some((id) => !s.active.includes(id)))
        return push(s, { t: 'select', p, left });
      return push(s, { t: 'command', p });
    }
    case 'c-die': {
      // the chance counter is advanced once per chance step by the Game's apply (index.ts), not here
      if (f.t === 'actDie') {
        const init = commanderInitiative(s, f.p);
        const n = activations(init, a.face, eligibleFormations(s, f.p).length);
        if (n === 'fail') {
          ev(log, '8.12', `activation roll: d6 = ${a.face} against initiative ${init}: the attempt fails`, [a.face]);
          return afterAttempt(s, f.p, true, log);
        }
        ev(
          log,
          '8.1',
          `activation roll: d6 = ${a.face} against initiative ${init}: ${n} formation${n === 1 ? '' : 's'}`,
          [a.face],
        );
        s = { ...s, prev: { p: f.p, failed: false }, sameSideFails: 0 };
        return push(s, { t: 'select', p: f.p, left: n });
      }
      if (f.t === 'courier') {
        const ok = a.face <= 4;
        ev(
          log,
          '9.12',
          `couriers ${ok ? 'pass' : 'cannot pass'} the enemy HQ in area ${f.area} (d6 = ${a.face}: 1–4 pass)`,
          [a.face],
        );
        return { ...s, courier: { ...s.courier, [`${f.p}:${f.area}`]: ok } };
      }
      if (f.t === 'cbi') {
        const init = leaderDef(s, f.leader).initiative;
        const ok = a.face <= init;
        ev(
          log,
          '9.3',
          `${leaderDef(s, f.leader).name} ${ok ? 'takes command by initiative' : 'fails command by initiative'} (d6 = ${a.face} against initiative ${init})`,
          [a.face],
        );
        return { ...s, cbi: { ...s.cbi, [f.leader]: ok } };
      }
      throw new IllegalActionError('c-die', `no die is being rolled (${f.t})`);
    }
    default:
      throw new IllegalActionError((a as Action).k, 'not an action here');
  }
}

// ---------------------------------------------------------------------------------------------
// automatic flow
// ---------------------------------------------------------------------------------------------

function faceLapses(s: EState, f: Extract<Frame, { t: 'face' }>): boolean {
  const u = s.units.find((x) => x.id === f.u)!;
  return u.area === null || u.eliminated || !conformationsFor(s, u).length;
}

/** The Command Determination Segment [9.0], then the Action Phase of the side that activated [8.14]. */
function commandDetermination(s: EState, f: Extract<Frame, { t: 'command' }>, log: Log): EState {
  const sc = s.ctx.scenario;
  // Command Determination Segment [9.0]: courier rolls for enemy-HQ-only areas, then tracing and CbI [9.31]
  const p = f.p;
  const o = other(p);
  const hqA = s.hq[o]?.area;
  if (hqA != null && enemyPresence(s, p, hqA) === 'hq-only' && s.courier[`${p}:${hqA}`] === undefined)
    return push(s, { t: 'courier', p, area: hqA });
  const inp = commandInput(s, p);
  const inCmd = traceCommand(inp);
  for (const fid of s.active) {
    const due = nextCbI(inp, inCmd, fid);
    if (due) return push(s, { t: 'cbi', p, leader: due });
  }
  const mine = [...inCmd].filter((id) => findUnit(s, id)?.side === p).sort();
  ev(log, '9.2', `command determined: ${mine.length} units in command`);
  s = startPhase(pop(s), p, mine);
  // [19.3] routed units of the activated formations test to end their rout
  if (sc.rules.rout)
    for (const u of [...s.units].reverse())
      if (
        u.side === p &&
        u.routed &&
        !u.eliminated &&
        u.area !== null &&
        s.active.includes(topFormation(s, p, u.formation))
      )
        s = push(s, { t: 'routCheck', u: u.id, mod: 0, cascade: false, attackers: [], retest: true });
  return s;
}

/** The automatic sequence-of-play frames: a lapsed facing, the Command Determination; the rest await a decision or a roll. */
function flowSettle(s: EState, f: FlowFrame, log: Log): EState | null {
  if (f.t === 'face') return faceLapses(s, f) ? pop(s) : null;
  if (f.t === 'command') return commandDetermination(s, f, log);
  return null;
}

/**
 * The sequence of play between procedures (nothing on the stack): the Preparation Step, the next activation attempt,
 * the End Step and the end of the turn or of the game, one step at a time; null when there is nothing left to do.
 */
export function idle(s: EState, log: Log): EState | null {
  const sc = s.ctx.scenario;
  switch (s.phase) {
    case 'prep': {
      // [5.0] weather
      if (!s.weatherSet) {
        const w = sc.weather;
        if (w.table && w.fromTurn !== undefined && s.turn >= w.fromTurn) return push(s, { t: 'weather' });
        return { ...s, weather: w.initial, weatherSet: true };
      }
      // [6.0] reinforcements due now, in scenario order
      const due = s.reinf.find(
        (r) =>
          !r.arrived &&
          !r.lapsed &&
          (r.delayed ? r.due + 1 : r.due) === s.turn &&
          !s.stack.some((x) => x.t === 'reinf' && x.g === r.id),
      );
      if (due) {
        const def = sc.reinforcements.find((r) => r.id === due.id)!;
        const areas = reinforcementAreas(s, def.side, def.area);
        if (!areas.length && !canDelay(s, due)) return lapseReinforcement(s, def.id, log);
        if (due.delayed)
          return areas.length > 1
            ? push(s, { t: 'reinfPlace', p: def.side, g: def.id, areas })
            : placeReinforcement(s, def.id, areas[0]!, log);
        return push(s, { t: 'reinf', p: def.side, g: def.id });
      }
      if (s.firstPlayer === null) return push(s, { t: 'firstRoll' });
      return { ...s, phase: 'activation' };
    }
    case 'activation': {
      s = { ...s, active: [], cbi: s.cbi, courier: {} };
      const e0 = eligibleFormations(s, 0).length > 0;
      const e1 = eligibleFormations(s, 1).length > 0;
      if (!e0 && !e1) {
        ev(log, '8.13', 'no formations left to activate: the Activation Step ends');
        return { ...s, phase: 'end' };
      }
      const p = eligibleFormations(s, s.acting).length ? s.acting : other(s.acting);
      return push({ ...s, acting: p }, { t: 'attempt', p });
    }
    case 'end': {
      // [15.1] rally of activated formations, [15.13] routed units, [15.2] recovery, [15.3] replacement
      if (!s.endDone) return push({ ...s, endDone: true }, { t: 'endSeq', stage: 'free', done: [] }); // end-flow.ts plays it
      // [15.4] conclude the turn: the turn's movement and combat marks are cleared
      s = {
        ...s,
        endDone: false,
        units: s.units.map((u) =>
          u.acted !== null || u.mp !== 0 || u.moveDone || u.refaced || u.detached
            ? { ...u, acted: null, mp: 0, moveDone: false, refaced: false, detached: false }
            : u,
        ),
        assigned: [0, 0],
        leaders: s.leaders.map((l) => (l.moved ? { ...l, moved: false } : l)),
        leaderMp: {},
        hqMp: [0, 0],
        hqMoved: [false, false],
      };
      if (s.turn >= sc.turns.length) {
        const result = victory(s);
        ev(log, '1.1', `the last turn is over: ${result.reason}`);
        return { ...s, phase: 'over', result, stack: [] };
      }
      ev(log, '15.4', `turn ${s.turn + 1} (${sc.turns[s.turn]!.hour}) begins`);
      return {
        ...s,
        turn: s.turn + 1,
        phase: 'prep',
        weatherSet: false,
        firstPlayer: null,
        prev: null,
        sameSideFails: 0,
        cbi: {},
        courier: {},
      };
    }
    default:
      return null;
  }
}

const rules: FrameRules<FlowFrame> = {
  decider: flowDecider,
  legal: flowLegal,
  chance: flowChance,
  step: flowStep,
  settle: flowSettle,
};

/** The sequence of play's frames as the runtime plays them: decisions, rolls and the Command Determination [5.0–9.0]. */
export const sequence: Handlers<EState, FlowFrame, Action> = {
  reinf: decision(rules),
  reinfPlace: decision(rules),
  face: decision(rules, (s, f) => f.t === 'face' && faceLapses(s, f)), // a facing no longer needed lapses
  firstChoice: decision(rules),
  attempt: decision(rules),
  select: decision(rules),
  weather: chance(rules),
  firstRoll: chance(rules),
  actDie: chance(rules),
  courier: chance(rules),
  cbi: chance(rules),
  command: auto(rules),
};
