/**
 * The Action Phase of Eagles of the Empire [8.14]: the five segments in order (Cavalry Charge, Assignment,
 * Bombardment, Movement, Assault), each the `phase` frame on the stack, whose legal actions are that segment's small
 * choices plus `next`; a segment with nothing to do passes by itself [8.14].
 *
 * The segments' choices and the procedures they start are in their chapters: assign-flow.ts [11.0–11.33],
 * bombard-flow.ts [12.0–12.72], move-flow.ts [13.0–13.94], loss-flow.ts (losses one hit at a time A-42, leader
 * casualties [3.2], rout checks, rout moves and cascades [19.0–19.31], lone-leader displacement [3.13]). Cavalry
 * charges are in charge-flow.ts and assaults in assault-flow.ts: the segments start them through their entries
 * (procedures.ts), not by importing them. Extended lines [16.0–16.9] live in lines.ts.
 */
import { IllegalActionError } from '../../core/game.ts';
import type { Action, EState, PhaseFrame, Segment } from './types.ts';
import { alive, isActive, unit, unitDef, other } from './world.ts';
import { type Log, ev, pop, push, replaceTop, updUnit } from './state.ts';
import type { Handlers } from '../../core/procedure.ts';
import { assignStep, assignmentOptions } from './assign-flow.ts';
import { bombardOptions } from './bombard-flow.ts';
import {
  lineOptions,
  massedColumnOptions,
  moverOptions,
  movementStep,
  movers,
  reverseSlopeOptions,
  squareOptions,
  unitMA,
} from './move-flow.ts';
import { entry, staged } from './procedures.ts';
import { RecentMemo } from '../../core/recent.ts';

const SEGMENTS: readonly Segment[] = ['charge', 'assign', 'bombard', 'move', 'assault'];
const SEG_RULE: Record<Segment, string> = {
  charge: '10.0',
  assign: '11.0',
  bombard: '12.0',
  move: '13.0',
  assault: '14.0',
};

// ---------------------------------------------------------------------------------------------
// starting and ending the phase
// ---------------------------------------------------------------------------------------------

function nextSegment(s: EState, f: PhaseFrame, log: Log): EState {
  const i = SEGMENTS.indexOf(f.seg);
  if (i === SEGMENTS.length - 1) {
    // the Action Phase is over; Massed Column ends with the Assault Segment [14.78]
    s = { ...pop(s), units: s.units.map((u) => (u.mc !== null ? { ...u, mc: null } : u)) };
    ev(log, '8.14', `${s.ctx.scenario.sides[f.p].name}'s Action Phase ends`);
    const o = other(f.p);
    return { ...s, acting: o, active: [] };
  }
  const seg = SEGMENTS[i + 1]!;
  s = replaceTop(s, { ...f, seg, bomb: {}, assaulted: [], segStart: {}, segLost: {}, routChecked: [], done: [] });
  if (seg === 'assault') {
    // a Massed Column that cannot assault its target now (moved off, target gone) lapses
    const pending = new Set(
      entry('assault')
        .pendingMassedColumns(s, f.p)
        .map((u) => u.id),
    );
    for (const u of s.units)
      if (u.side === f.p && u.mc !== null && !pending.has(u.id)) {
        ev(log, '14.7', `${unitDef(s, u.id).name} cannot carry out its Massed Column: it lapses (A-41)`);
        s = updUnit(s, u.id, { mc: null });
      }
  }
  if (seg === 'move') {
    // [13.25, 19.31] routed units of active formations that stayed routed must move away from the enemy
    for (const u of s.units)
      if (u.side === f.p && alive(u) && u.routed && isActive(s, u))
        s = push(s, {
          t: 'routMove',
          p: f.p,
          u: u.id,
          left: Infinity,
          path: [u.area!],
          attackers: [],
          initial: false,
          mp: unitMA(s, u),
        });
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// the segments' choices
// ---------------------------------------------------------------------------------------------

function phaseLegal(s: EState, f: PhaseFrame): Action[] {
  // declared Massed Columns must assault before the segment can end
  if (f.seg === 'assault' && entry('assault').pendingMassedColumns(s, f.p).length) return segmentActions(s, f).slice();
  return [...segmentActions(s, f), { k: 'next' }];
}

/**
 * The segment's choices at `s`, computed once per state: the runtime asks whether the segment passes by itself
 * (`phaseSettle`) and then for the legal actions of the same state. Shared: never modify the array.
 */
const segmentMemo = new RecentMemo<EState, { readonly f: PhaseFrame; readonly acts: readonly Action[] }>(2);
function segmentActions(s: EState, f: PhaseFrame): readonly Action[] {
  const hit = segmentMemo.get(s);
  if (hit && hit.f === f) return hit.acts;
  const acts = computeSegmentActions(s, f);
  segmentMemo.set(s, { f, acts });
  return acts;
}

function computeSegmentActions(s: EState, f: PhaseFrame): Action[] {
  switch (f.seg) {
    case 'charge':
      return entry('charge')
        .options(s, f.p)
        .map(({ area, target }) => ({ k: 'charge', area, target }) as Action);
    case 'assign':
      return assignmentOptions(s, f.p);
    case 'bombard':
      return bombardOptions(s, f.p, null);
    case 'move': {
      const ms = movers(s, f.p); // once for every kind of move choice
      return [
        ...moverOptions(s, f.p, ms),
        ...lineOptions(s, f.p, ms),
        ...massedColumnOptions(s, f.p, ms),
        ...squareOptions(s, f.p),
        ...reverseSlopeOptions(s, f.p),
      ];
    }
    case 'assault': {
      const assault = entry('assault');
      const pending = new Set(assault.pendingMassedColumns(s, f.p).map((u) => u.mc!));
      return assault
        .targets(s, f.p)
        .filter((target) => !pending.size || pending.has(target))
        .map((target) => ({ k: 'assault', target }));
    }
  }
}

function phaseStep(s: EState, f: PhaseFrame, a: Action, log: Log): EState {
  switch (a.k) {
    case 'next':
      ev(
        log,
        SEG_RULE[f.seg],
        `${s.ctx.scenario.sides[f.p].name} ends the ${f.seg === 'assign' ? 'assignment' : f.seg === 'move' ? 'movement' : f.seg === 'bombard' ? 'bombardment' : f.seg === 'charge' ? 'cavalry charge' : 'assault'} segment`,
      );
      return nextSegment(s, f, log);
    case 'charge': {
      const charge = entry('charge');
      const opt = charge.options(s, f.p).find((o) => o.area === a.area && o.target === a.target);
      if (!opt) throw new IllegalActionError('charge', `no charge from area ${a.area} at area ${a.target} now`);
      return charge.start(s, f, a.area, opt.via, a.target, log);
    }
    case 'fire':
      return push(s, { t: 'fire', p: f.p, from: unit(s, a.u).area!, to: a.to, units: [a.u] });
    case 'assault':
      return entry('assault').start(s, f, a.target, log);
    case 'attach':
    case 'detach':
    case 'reserve':
    case 'deploy':
    case 'reabsorb':
    case 'artLeader':
      return assignStep(s, f, a, log);
    case 'mvUnit':
    case 'massedColumn':
    case 'mvStack':
    case 'mvLeader':
    case 'mvWithLeader':
    case 'mvHq':
    case 'square':
    case 'extend':
    case 'retract':
    case 'reverseSlope':
      return movementStep(s, f, a, log);
    default:
      throw new IllegalActionError(a.k, `not an action in the ${f.seg} segment`);
  }
}

/** A Grand Charge's phase ends with its charge [10.8]; [8.14] a segment with nothing to do passes by itself. */
function phaseSettle(s: EState, f: PhaseFrame, log: Log): EState | null {
  if (f.grand) return pop(s);
  if (segmentActions(s, f).length === 0) return nextSegment(s, f, log);
  return null;
}

/** The Action Phase's frame as the runtime plays it: a decision among the segment's choices, until the segment passes. */
export const actionPhase: Handlers<EState, PhaseFrame, Action> = {
  phase: staged<PhaseFrame>({
    decider: (_s, f) => f.p,
    legal: phaseLegal,
    chance: () => [],
    step: phaseStep,
    settle: phaseSettle,
  }),
};
