/**
 * Charge! Eagles Rising, S6 and T1 [Turn Sequence: "S6. Tactical initiative determination; high roll decides to go
 * 1st or 2nd", "T1. Both sides attach/detach leaders"; Issuing Orders: Initiative; digest §6.7; ADAPTATION C7].
 *
 * S6: one chance node (`initiative`): each side 2D6 + its modifiers, ties re-rolled (tables.ts `initiativeDist`, exact:
 * the tie's mass shared out), then the winner's decision (`initiativeChoice`: `initiative first` | `initiative
 * second`). The choice sets `firstSide` (the side of T2), `previousFirstSide` (the last turn's), and the next turn's
 * `strategicFirst`: C7 `strategicFirst: previousSecond`, the side that goes second in this tactical phase moves first
 * in the next S4.
 *
 * T1: each side's decision (`leaders`), the first side then the second: `attach L U`, `detach L`, `done`; a leader
 * acts at most once a T1 (so a side's T1 ends), and the frame is skipped when a side has nothing to do. `leadersFollow`
 * (the procedure's upkeep, rules.ts) keeps an attached leader on his unit wherever it goes, and detaches him from a
 * unit that is gone (broken or captured; a unit still off the table keeps its leader).
 *
 * Readings:
 * - [Initiative] "CC ability > opponent +1": the CCs' command ratings (Poor … Superior); a side with no active CC
 *   (lost, knocked out, replacement not yet in command) has none and never has the greater. "> # of ME's on attack
 *   +1": MEs on the table (at least one unit on it, not broken) whose order in force (their MF's, C2) is Attack.
 *   "> # of ME's Shaken or Demoralized -1": such MEs whose % lost (figures + guns × 3) is ⅓ or more.
 * - T1 "reachable": a leader may attach to a unit of his own command (an ME leader: his ME's units; an MF leader: his
 *   MEs' units; the CC: any unit of his army) whose footprint lies within his tactical move, "Generals & ADC's 40""
 *   ([Movement]), of where he stands; one leader a unit. Only active leaders on the table act; a leader who detaches
 *   stays where his unit is.
 */
import { IN, pointPolygonDistance } from '../../geometry/geometry.ts';
import type { ChanceHandler, DecisionHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { polyOf } from './shape.ts';
import { COMMAND_RATINGS, initiativeDist, initiativeModifier, moraleState, moveRate } from './tables.ts';
import type { InitiativeFrame } from './frames.ts';
import type { LeaderState, Side, UnitState } from './types.ts';
import {
  type Action,
  type S,
  allElementUnits,
  ccOf,
  elementUnits,
  elementsOfCommand,
  leaderOf,
  lostFraction,
  orderOfElement,
  placed,
  say,
  sideName,
  unitOf,
  unitsOf,
  other,
} from './state.ts';

type H<K extends InitiativeFrame['t']> = Extract<InitiativeFrame, { t: K }>;

// ---------- S6 ----------

/** The MEs of a side in play: not broken, with a unit on the table. */
function elementsInPlay(s: S, side: Side) {
  return s.elements.filter((e) => e.side === side && !e.broken && elementUnits(s, e).length > 0);
}

/** [Initiative] what each side's modifier is made of. */
export function initiativeFactors(s: S): readonly [InitiativeFactors, InitiativeFactors] {
  const rating = (p: Side) => {
    const cc = ccOf(s, p);
    return cc ? COMMAND_RATINGS.indexOf(cc.command) : -1;
  };
  const attack = (p: Side) => elementsInPlay(s, p).filter((e) => orderOfElement(s, e)?.type === 'attack').length;
  const shaken = (p: Side) =>
    elementsInPlay(s, p).filter((e) => moraleState(lostFraction(s, allElementUnits(s, e))) !== 'fresh').length;
  const f = (p: Side): InitiativeFactors => {
    const o = other(p);
    const input = {
      ccAbilityGreater: rating(p) > rating(o),
      moreMesOnAttack: attack(p) > attack(o),
      moreMesShakenOrDemoralized: shaken(p) > shaken(o),
    };
    return { ...input, onAttack: attack(p), shaken: shaken(p), mod: initiativeModifier(input) };
  };
  return [f(0), f(1)];
}

export interface InitiativeFactors {
  readonly ccAbilityGreater: boolean;
  readonly moreMesOnAttack: boolean;
  readonly moreMesShakenOrDemoralized: boolean;
  readonly onAttack: number;
  readonly shaken: number;
  readonly mod: number;
}

/** [S6] the initiative roll. */
export function beginS6(s: S, _log: Log): S {
  return push(s, { t: 'initiative' });
}

const signed = (n: number) => (n >= 0 ? `+ ${n}` : `− ${-n}`);

const initiativeHandler: ChanceHandler<S, H<'initiative'>, Action> = {
  kind: 'chance',
  outcomes(s) {
    const [a, b] = initiativeFactors(s);
    return initiativeDist(a.mod, b.mod).map((d) => {
      const p: Side = d.value === 'A' ? 0 : 1;
      return { action: `initiative won by ${sideName(s, p)}`, p: d.p, label: `${sideName(s, p)} win` };
    });
  },
  step(s, _f, a, log) {
    const winner: Side = a === `initiative won by ${sideName(s, 0)}` ? 0 : 1;
    const [x, y] = initiativeFactors(s);
    say(
      log,
      'S6',
      `tactical initiative: ${sideName(s, 0)} 2D6 ${signed(x.mod)}, ${sideName(s, 1)} 2D6 ${signed(y.mod)} (ties re-rolled, C7): ${sideName(s, winner)} win and choose to go 1st or 2nd`,
    );
    return push(s, { t: 'initiativeChoice', side: winner });
  },
  describe(s) {
    const [x, y] = initiativeFactors(s);
    return `tactical initiative: ${sideName(s, 0)} 2D6 ${signed(x.mod)} against ${sideName(s, 1)} 2D6 ${signed(y.mod)}, ties re-rolled [S6, C7]`;
  },
};

const choiceHandler: DecisionHandler<S, H<'initiativeChoice'>, Action> = {
  kind: 'decision',
  owner: (f) => f.side,
  legal: () => ['initiative first', 'initiative second'],
  step(s, f, a, log) {
    const first: Side = a === 'initiative first' ? f.side : other(f.side);
    say(
      log,
      'S6',
      `${sideName(s, f.side)} choose to go ${a === 'initiative first' ? '1st' : '2nd'}: ${sideName(s, first)} go first in the tactical phase; ${sideName(s, other(first))} move first in the next S4 (C7)`,
    );
    return { ...s, previousFirstSide: s.firstSide, firstSide: first, strategicFirst: other(first) };
  },
  describe: (s, f) => `${sideName(s, f.side)} won the initiative: go 1st or 2nd? [S6]`,
};

// ---------- T1 ----------

/** [T1] the first side's leaders, then the second's. */
export function beginT1(s: S, _log: Log): S {
  const first = s.firstSide ?? 0;
  return push(s, { t: 'leaders', side: other(first), acted: [] }, { t: 'leaders', side: first, acted: [] });
}

/** The units a leader commands: his ME's, his MF's MEs', or (the CC) his army's. */
function commandedUnits(s: S, l: LeaderState): UnitState[] {
  if (l.role === 'army' || !l.commands) return l.role === 'army' ? unitsOf(s, l.side) : [];
  const c = s.formations.find((f) => f.id === l.commands) ?? s.elements.find((e) => e.id === l.commands);
  if (!c || c.broken) return [];
  return elementsOfCommand(s, c.id).flatMap((e) => elementUnits(s, e));
}

/** [T1] "reachable": within the general's tactical move (40") of where he stands. */
function reachable(s: S, l: LeaderState, u: UnitState): boolean {
  const reach = (moveRate({ arm: 'general' }, 'tactical') ?? 40) * IN;
  return pointPolygonDistance(l.pos, polyOf(placed(s, u))) <= reach;
}

/** [T1] a side's leader choices: attach to a reachable unit of his command, detach, or done. */
export function leaderOptions(s: S, side: Side, acted: readonly string[]): Action[] {
  const out: Action[] = [];
  for (const l of s.leaders) {
    if (l.side !== side || l.status !== 'active' || l.offBoard || acted.includes(l.id)) continue;
    for (const u of commandedUnits(s, l))
      if (u.id !== l.attachedTo && u.attachedLeader === null && reachable(s, l, u)) out.push(`attach ${l.id} ${u.id}`);
    if (l.attachedTo) out.push(`detach ${l.id}`);
  }
  out.push('done');
  return out;
}

/** Attach (or, with `unit` null, detach) a leader: both sides of the link kept together. */
function attachLeader(s: S, leader: string, unit: string | null): S {
  const l = leaderOf(s, leader);
  const pos = unit ? unitOf(s, unit).pos : l.pos;
  return {
    ...s,
    units: s.units.map((u) =>
      u.id === unit
        ? { ...u, attachedLeader: leader }
        : u.attachedLeader === leader
          ? { ...u, attachedLeader: null }
          : u,
    ),
    leaders: s.leaders.map((x) => (x.id === leader ? { ...x, attachedTo: unit, pos } : x)),
  };
}

const leadersHandler: DecisionHandler<S, H<'leaders'>, Action> = {
  kind: 'decision',
  owner: (f) => f.side,
  legal: (s, f) => leaderOptions(s, f.side, f.acted),
  skip: (s, f) => leaderOptions(s, f.side, f.acted).length === 1,
  step(s, f, a, log) {
    if (a === 'done') return s;
    const [verb, id, unit] = a.split(' ') as [string, string, string | undefined];
    const l = leaderOf(s, id);
    let t: S;
    if (verb === 'attach') {
      t = attachLeader(s, id, unit!);
      say(log, 'T1', `${l.name} attaches to ${unitOf(s, unit!).name}`);
    } else {
      t = attachLeader(s, id, null);
      say(log, 'T1', `${l.name} detaches from ${unitOf(s, l.attachedTo!).name}`);
    }
    return push(t, { ...f, acted: [...f.acted, id] });
  },
  describe: (s, f) => `${sideName(s, f.side)}: attach or detach leaders [T1]`,
};

/**
 * An attached leader's position follows his unit; a leader whose unit is gone is detached (the procedure's upkeep,
 * run before every step: the state itself when nothing moved).
 */
export function leadersFollow(s: S, _log?: Log): S {
  let changed = false;
  const leaders = s.leaders.map((l) => {
    if (!l.attachedTo) return l;
    const u = s.units.find((x) => x.id === l.attachedTo);
    if (!u || u.status === 'broken' || u.status === 'captured') {
      changed = true;
      return { ...l, attachedTo: null };
    }
    if (u.pos.x === l.pos.x && u.pos.y === l.pos.y) return l;
    changed = true;
    return { ...l, pos: u.pos };
  });
  return changed ? { ...s, leaders } : s;
}

export const initiativeHandlers = {
  initiative: initiativeHandler,
  initiativeChoice: choiceHandler,
  leaders: leadersHandler,
};
