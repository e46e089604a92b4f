/**
 * The End Step ("Triple R") as frames on the stack [15.0–15.3], in the order of A-48: the army commander's free
 * designation [15.12], rally rolls for activated formations [15.1, 15.11], routed units rallying with a leader
 * [15.13], recovery of long counters [15.2] (A-49), then leader replacement [15.3].
 *
 * A replacement fills the fallen (or promoted) leader's post: the post keeps its identity in the chain of command and
 * takes the ratings of the leader filling it (world.ts leaderDef), whose own counter leaves the map; a promoted
 * leader's old post falls vacant in turn. Interpretation: an army commander's replacement gives up his formation,
 * which is replaced in the same End Step [15.31]; placement follows A-50, taking the first qualifying area.
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { IllegalActionError } from '../../core/game.ts';
import { canBombard, type ArtKind } from './bombard.ts';
import { traceCommand } from './command.ts';
import { deployedSteps } from './deploy.ts';
import { option } from './rules-config.ts';
import { type Candidate, type Vacancy, rallyTarget, recoveryBlocked, replacementCandidates } from './endstep.ts';
import type { Handlers } from '../../core/procedure.ts';
import { type FrameRules, auto, chance, decision } from './procedures.ts';
import { formationsOf } from './scenario.ts';
import { type Log, ev, pop, push, replaceTop, updUnit } from './state.ts';
import type { Action, EndFrame, EState, Side, UnitState } from './types.ts';
import {
  GENERIC,
  activationFormation,
  alive,
  commandInput,
  formationOfLeader,
  inChain,
  isLC,
  leaderDef,
  leadersAt,
  moraleOf,
  stepsLeft,
  tactical,
  unitDef,
  unitsAt,
  other,
} from './world.ts';

/** The End Step's frames are handed to the runtime at the end (flow.ts starts the End Step by pushing `endSeq`). */

function endDecider(_s: EState, f: EndFrame): Side | null {
  return f.t === 'freeRally' || f.t === 'replace' ? f.p : null;
}

/** Long counters of a formation (its forces included) adjacent to an enemy long counter [15.1]. */
function lcsNearEnemy(s: EState, p: Side, fid: string): UnitState[] {
  const map = s.ctx.map;
  return s.units.filter(
    (u) =>
      u.side === p &&
      alive(u) &&
      isLC(u) &&
      activationFormation(s, p, u.formation) === fid &&
      map.neighbours(u.area!).some((n) => unitsAt(s, n, other(p)).some(isLC)),
  );
}

function formationLeader(s: EState, p: Side, fid: string) {
  const f = formationsOf(s.ctx.scenario.sides[p]).find((x) => x.f.id === fid)!.f;
  const l = f.leader ? s.leaders.find((x) => x.id === f.leader) : undefined;
  return l && l.status === 'on' ? leaderDef(s, l.id) : null;
}

/** [15.12] formations the army commander may recover without a roll. */
function freeOptions(s: EState, p: Side): string[] {
  const side = s.ctx.scenario.sides[p];
  const ac = s.leaders.find((l) => l.id === side.armyCommander)!;
  const acDef = leaderDef(s, ac.id);
  const hq = s.hq[p];
  if (ac.status !== 'on' || !hq || hq.lost || hq.area !== ac.area || acDef.initiative < 5) return [];
  return s.formations
    .filter((x) => x.side === p && x.activated)
    .map((x) => x.id)
    .filter((fid) => {
      const l = formationLeader(s, p, fid);
      if (!l) return false;
      const la = s.leaders.find((x) => x.id === l.id)!.area!;
      const nearLc = s.ctx.map.neighbours(la).some((n) => unitsAt(s, n, other(p)).some(isLC));
      return nearLc && s.ctx.map.range(ac.area!, la) <= acDef.radius;
    });
}

/** A-49: some enemy artillery (not parks, not attached) could target the area, facing ignored. */
function inArtilleryReach(s: EState, p: Side, area: number): boolean {
  return s.units.some((a) => {
    if (a.side === p || !alive(a) || a.kind !== 'artillery' || a.attachedTo !== null || unitDef(s, a.id).artilleryPark)
      return false;
    return canBombard({
      map: s.ctx.map,
      from: a.area!,
      to: area,
      kind: (unitDef(s, a.id).artKind ?? 'foot') as ArtKind,
      weather: s.weather,
      conf: null,
      troopsBlock: (x) => {
        const us = unitsAt(s, x);
        return us.some(isLC) || us.filter((u) => u.kind === 'cavalry').reduce((t, u) => t + stepsLeft(u), 0) >= 3;
      },
      villagesBlock: s.ctx.scenario.rules.villagesBlockLos,
      licorneMinRange1: option(s.ctx.scenario, 'licorneMinRange1'), // (A-25)
    }).ok;
  });
}

function recoveryCandidates(s: EState): UnitState[] {
  const map = s.ctx.map;
  const cmd: (Set<string> | undefined)[] = [undefined, undefined];
  const inCmd = (p: 0 | 1, id: string) => (cmd[p] ??= traceCommand(commandInput(s, p))).has(id); // traced only when needed
  return s.units.filter((u) => {
    if (!alive(u) || !u.long || u.ext !== null) return false; // a marker recovers with its long counter [16.7]
    const given = deployedSteps(s, u.id); // steps given to deployed alternates are not lost [11.3]
    if (u.step - 1 <= u.startStep + given) return false; // nothing to recover [15.2, 15.21]
    const o = other(u.side);
    const enemyLcAreas = s.units.filter((x) => x.side === o && alive(x) && isLC(x)).map((x) => x.area!);
    const why = recoveryBlocked({
      isLong: isLC(u),
      lostSteps: u.step > u.startStep + given,
      belowStart: u.step - 1 > u.startStep + given, // never back to the starting step [15.21]
      nearestEnemyLcDistance: enemyLcAreas.length
        ? Math.min(...enemyLcAreas.map((a) => (a === u.area ? 0 : map.range(u.area!, a))))
        : Infinity,
      inEnemyArtilleryReach: inArtilleryReach(s, u.side, u.area!),
      adjacentEnemyCavalry: map.neighbours(u.area!).some((n) => unitsAt(s, n, o).some((x) => x.kind === 'cavalry')),
      withChainLeader: leadersAt(s, u.area!, u.side).some((l) => inChain(s, u.side, l.id, u.formation)),
      inCommand: inCmd(u.side, u.id),
      routed: u.routed,
    });
    return why === null;
  });
}

/** [15.13] a routed unit with a leader: d6 − initiative (−1 when not of its force or formation) ≤ morale − 1. */
function routRallyTarget(s: EState, u: UnitState): number | null {
  let best: number | null = null;
  for (const l of leadersAt(s, u.area!, u.side)) {
    const d = leaderDef(s, l.id);
    if (d.role === 'chiefOfStaff' || d.role === 'staffOfficer' || d.role === 'lineOfficer') continue;
    const own = formationOfLeader(s, d.id);
    const init =
      d.initiative -
      (own !== null && (own === u.formation || own === activationFormation(s, u.side, u.formation)) ? 0 : 1);
    const t = moraleOf(u) - 1 + init;
    best = best === null ? t : Math.max(best, t);
  }
  return best;
}

/** Vacancies [15.3]: fallen army commanders, formation and force leaders with units left, and the CoS. */
function vacancies(s: EState, p: Side): string[] {
  const side = s.ctx.scenario.sides[p];
  return s.leaders
    .filter((l) => l.side === p && (l.status === 'dead' || l.status === 'promoted'))
    .filter((l) => {
      const d = leaderDef(s, l.id);
      if (d.role === 'armyCommander' || d.role === 'chiefOfStaff') return true;
      if (d.role !== 'formation' && d.role !== 'force' && d.role !== 'intermediate') return false; // subordinates are not replaced [15.35]
      const fid = formationOfLeader(s, l.id);
      return (
        fid !== null &&
        s.units.some((u) => u.side === p && alive(u) && (u.formation === fid || inChain(s, p, l.id, u.formation)))
      ); // [15.36]
    })
    .map((l) => l.id)
    .filter(() => side !== undefined);
}

function endSettle(s: EState, f: EndFrame, log: Log): EState | null {
  if (f.t !== 'endSeq') return null;
  const first = s.firstPlayer ?? 0;
  const sides: Side[] = [first, other(first)];
  switch (f.stage) {
    case 'free': {
      for (const p of sides) {
        const key = `free:${p}`;
        if (f.done.includes(key)) continue;
        s = replaceTop(s, { ...f, done: [...f.done, key] });
        const options = freeOptions(s, p);
        if (options.length) return push(s, { t: 'freeRally', p, options });
        return s;
      }
      return replaceTop(s, { ...f, stage: 'rally' });
    }
    case 'rally': {
      for (const p of sides)
        for (const st of s.formations) {
          if (st.side !== p || !st.activated || f.done.includes(st.id)) continue;
          s = replaceTop(s, { ...f, done: [...f.done, st.id] });
          const lcs = lcsNearEnemy(s, p, st.id);
          const l = formationLeader(s, p, st.id);
          const target = rallyTarget(
            lcs.map((u) => moraleOf(u)),
            l ? { tactical: Math.max(tactical(l, true), tactical(l, false)), initiative: l.initiative } : null,
          );
          if (target === null) {
            ev(
              log,
              '15.1',
              `${formationsOf(s.ctx.scenario.sides[p]).find((x) => x.f.id === st.id)!.f.name} has no long counter facing an enemy long counter and rallies`,
            );
            return {
              ...s,
              formations: s.formations.map((x) =>
                x.id === st.id ? { ...x, activated: false, failedRally: false } : x,
              ),
            };
          }
          return push(s, { t: 'rallyRoll', f: st.id, target });
        }
      return replaceTop(s, { ...f, stage: 'routRally' });
    }
    case 'routRally': {
      for (const u of s.units) {
        if (!alive(u) || !u.routed || f.done.includes(`r:${u.id}`)) continue;
        s = replaceTop(s, { ...f, done: [...f.done, `r:${u.id}`] });
        const target = routRallyTarget(s, u);
        if (target !== null) return push(s, { t: 'routRally', u: u.id, target });
        return s;
      }
      return replaceTop(s, { ...f, stage: 'recovery' });
    }
    case 'recovery': {
      for (const u of recoveryCandidates(s)) {
        if (f.done.includes(`c:${u.id}`)) continue;
        s = replaceTop(s, { ...f, done: [...f.done, `c:${u.id}`] });
        return push(s, { t: 'recoverRoll', u: u.id });
      }
      return replaceTop(s, { ...f, stage: 'replace' });
    }
    case 'replace': {
      for (const p of sides) {
        for (const post of vacancies(s, p)) {
          const options = candidatesFor(s, p, post);
          if (!options.length) continue;
          if (placement(s, p, post, options[0]!) === null) continue;
          return push(s, { t: 'replace', p, post, options });
        }
      }
      return pop(s);
    }
  }
}

const faces = (target: number) => Math.max(0, Math.min(6, target)) / 6;

function endChance(s: EState, f: EndFrame): ChanceOutcome<Action>[] {
  let p: number;
  let what: string;
  switch (f.t) {
    case 'rallyRoll':
      p = faces(f.target);
      what = `rally roll ≤ ${f.target}`;
      break;
    case 'routRally':
      p = faces(f.target);
      what = `rout rally roll ≤ ${f.target}`;
      break;
    case 'recoverRoll': {
      const u = s.units.find((x) => x.id === f.u)!;
      p = faces(moraleOf(u));
      what = `recovery roll ≤ ${moraleOf(u)}`;
      break;
    }
    case 'endSeq':
    case 'freeRally':
    case 'replace':
      return []; // automatic or decisions
  }
  return [
    { action: { k: 'c-pass', ok: true }, p, label: `${what}: success` },
    { action: { k: 'c-pass', ok: false }, p: 1 - p, label: `${what}: failure` },
  ].filter((o) => o.p > 0) as ChanceOutcome<Action>[];
}

function endLegal(s: EState, f: EndFrame): Action[] {
  if (f.t === 'freeRally') return [...f.options.map((id) => ({ k: 'select', f: id }) as Action), { k: 'pass' }];
  if (f.t === 'replace') return f.options.map((id) => ({ k: 'select', f: id }) as Action);
  void s;
  return [];
}

function endStep(s: EState, f: EndFrame, a: Action, log: Log): EState {
  switch (f.t) {
    case 'freeRally':
      s = pop(s);
      if (a.k === 'pass') return s;
      if (a.k === 'select' && f.options.includes(a.f)) {
        ev(log, '15.12', `the army commander recovers ${a.f} without a roll`);
        return {
          ...s,
          formations: s.formations.map((x) => (x.id === a.f ? { ...x, activated: false, failedRally: false } : x)),
        };
      }
      break;
    case 'replace': {
      if (a.k !== 'select' || !f.options.includes(a.f)) break;
      s = pop(s);
      const area = placement(s, f.p, f.post, a.f);
      const was = leaderDef(s, f.post).name;
      s = {
        ...s,
        standIn: { ...s.standIn, [f.post]: a.f },
        leaders: s.leaders.map((l) =>
          l.id === f.post
            ? { ...l, status: 'on' as const, area }
            : l.id === a.f
              ? { ...l, status: 'promoted' as const, area: null }
              : l,
        ),
      };
      ev(
        log,
        '15.3',
        `${a.f === GENERIC ? 'a 1-0-1 officer' : leaderDef(s, a.f).name} replaces ${was} (placed in area ${area})`,
      );
      return s;
    }
    case 'rallyRoll':
      if (a.k !== 'c-pass') break;
      s = pop(s);
      ev(
        log,
        a.ok ? '15.1' : '15.11',
        `${f.f} ${a.ok ? `rallies (d6 ≤ ${f.target})` : `fails to rally (d6 above ${f.target}): it stays activated next turn`}`,
      );
      return {
        ...s,
        formations: s.formations.map((x) =>
          x.id === f.f ? (a.ok ? { ...x, activated: false, failedRally: false } : { ...x, failedRally: true }) : x,
        ),
      };
    case 'routRally':
      if (a.k !== 'c-pass') break;
      s = pop(s);
      ev(
        log,
        '15.13',
        `${unitDef(s, f.u).name} ${a.ok ? `rallies from its rout (d6 ≤ ${f.target})` : `stays routed (d6 above ${f.target})`}`,
      );
      return a.ok ? updUnit(s, f.u, { routed: false }) : s;
    case 'recoverRoll': {
      if (a.k !== 'c-pass') break;
      s = pop(s);
      const u = s.units.find((x) => x.id === f.u)!;
      if (!a.ok) {
        ev(log, '15.2', `${unitDef(s, u.id).name} does not recover a step (d6 above morale ${moraleOf(u)})`);
        return s;
      }
      ev(
        log,
        '15.2',
        `${unitDef(s, u.id).name} recovers a step (d6 ≤ morale ${moraleOf(u)}; still counted lost for victory [15.22])`,
      );
      return updUnit(s, u.id, { step: u.step - 1 });
    }
    default:
      break;
  }
  throw new IllegalActionError(a.k, `not an action in the End Step (${f.t})`);
}

/** Who may fill a post [15.31–15.35], in the book's priority order (endstep.ts replacementCandidates). */
function candidatesFor(s: EState, p: Side, post: string): string[] {
  const side = s.ctx.scenario.sides[p];
  const d = s.ctx.scenario.sides[p].leaders.find((l) => l.id === post)!;
  const vacancy: Vacancy =
    d.role === 'armyCommander'
      ? 'armyCommander'
      : d.role === 'chiefOfStaff'
        ? 'chiefOfStaff'
        : d.role === 'force'
          ? 'force'
          : 'formation';
  const fid = formationOfLeader(s, post);
  const entry = fid ? formationsOf(side).find((x) => x.f.id === fid) : undefined;
  const mine = new Set<string>(
    entry ? [...entry.f.offMapLeaders, ...entry.f.forces.map((x) => x.leader).filter((x): x is string => !!x)] : [],
  );
  // a force's post: the subordinates of its parent formation [15.34]
  const parent = entry?.parent ? formationsOf(side).find((x) => x.f.id === entry.parent) : undefined;
  if (parent) for (const x of parent.f.offMapLeaders) mine.add(x);
  const taken = new Set(Object.values(s.standIn));
  const cands: Candidate[] = side.leaders
    .filter((l) => l.id !== post)
    .map((l) => {
      const st = s.leaders.find((x) => x.id === l.id)!;
      const available =
        (st.status === 'on' || st.status === 'off') &&
        !taken.has(l.id) &&
        !(l.role === 'formation' && vacancy !== 'armyCommander' && st.status !== 'on');
      return { id: l.id, role: l.role, ofFormation: mine.has(l.id), available };
    });
  // the army commander's post goes to a formation leader on the map
  return replacementCandidates(
    vacancy,
    cands.filter((c) => vacancy !== 'armyCommander' || s.leaders.find((x) => x.id === c.id)!.status === 'on'),
  );
}

/** A-50 placement: a promoted division/brigade leader with an infantry unit of his command, others with any unit of the command, a CoS with the HQ. */
function placement(s: EState, p: Side, post: string, by: string): number | null {
  const d = s.ctx.scenario.sides[p].leaders.find((l) => l.id === post)!;
  if (d.role === 'chiefOfStaff') return s.hq[p] && !s.hq[p]!.lost ? s.hq[p]!.area : null;
  if (d.role === 'armyCommander') {
    const l = s.leaders.find((x) => x.id === by);
    return l && l.status === 'on' ? l.area : (s.hq[p]?.area ?? null);
  }
  const fid = formationOfLeader(s, post);
  if (!fid) return null;
  const byDef = by === GENERIC ? null : s.ctx.scenario.sides[p].leaders.find((l) => l.id === by)!;
  const us = s.units.filter(
    (u) => u.side === p && alive(u) && (u.formation === fid || inChain(s, p, post, u.formation)),
  );
  const inf = us.filter((u) => u.kind === 'infantry');
  const pick = byDef?.role === 'divisionBrigade' && inf.length ? inf : us;
  return pick.length ? pick.map((u) => u.area!).sort((a, b) => a - b)[0]! : null;
}

const rules: FrameRules<EndFrame> = {
  decider: endDecider,
  legal: endLegal,
  chance: endChance,
  step: endStep,
  settle: endSettle,
};

/** The End Step's frames as the runtime plays them [15.0–15.3]. */
export const endHandlers: Handlers<EState, EndFrame, Action> = {
  endSeq: auto(rules),
  freeRally: decision(rules),
  rallyRoll: chance(rules),
  routRally: chance(rules),
  recoverRoll: chance(rules),
  replace: decision(rules),
};
