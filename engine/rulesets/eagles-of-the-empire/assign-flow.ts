/**
 * The Assignment Segment of the Action Phase [11.0–11.33]: reserve units to formations, artillery leaders,
 * attaching and detaching artillery, alternate deployments and re-absorbing them; one change per unit or leader per
 * segment. The segment's choices are offered by the phase frame (action.ts).
 */
import { IllegalActionError } from '../../core/game.ts';
import { assignmentLimit, attachBlocked } from './assignment.ts';
import { formationsOf } from './scenario.ts';
import type { Action, EState, PhaseFrame, Side } from './types.ts';
import {
  activationFormation,
  alive,
  conformationsFor,
  isActive,
  isLC,
  leaderDef,
  leadersAt,
  unit,
  unitDef,
  unitsAt,
} from './world.ts';
import { option } from './rules-config.ts';
import { applyDeploy, applyReabsorb, deploymentOptions } from './deploy.ts';
import { attachmentsOf } from './lines.ts';
import { type Log, ev, inCommand, phaseOf, push, replaceTop, updUnit } from './state.ts';
import { artKind } from './bombard-flow.ts';

/**
 * Assignment Segment [11.0–11.29], in any order: reserve units to formations when the HQ formation is
 * active, within the per-turn limit [11.1, 11.11]; artillery leaders to formations [11.14]; attaching active artillery
 * to an active long counter in its area [11.2–11.23]; detaching it [11.29]; alternate deployments and re-absorbing
 * them [11.3–11.33] (deploy.ts).
 */
export function assignmentOptions(s: EState, p: Side): Action[] {
  const sc = s.ctx.scenario;
  const side = sc.sides[p];
  const out: Action[] = [];
  const done = new Set(phaseOf(s).done ?? []);
  const hqf = side.formations.find((f) => f.kind === 'hq');
  const hqActive = hqf ? s.active.includes(hqf.id) : s.active.length > 0; // no HQ, the army commander's activation
  if (hqActive) {
    const hq = s.hq[p];
    const acDef = leaderDef(s, side.armyCommander);
    const cosWithHq =
      !!side.chiefOfStaff &&
      !!hq &&
      leadersAt(s, hq.area ?? -1, p).some((l) => l.id === side.chiefOfStaff) &&
      s.standIn[side.chiefOfStaff] === undefined;
    const limit = assignmentLimit({
      hqRadius: side.hq && hq && !hq.lost ? side.hq.radius : null,
      cosWithHq,
      armyCommanderRadius: acDef.radius,
    });
    const targets = formationsOf(side)
      .filter(({ f }) => f.kind === 'formation' || f.kind === 'intermediate')
      .map(({ f }) => f.id);
    if (s.assigned[p] < limit && hqf?.reserve)
      for (const u of s.units)
        if (u.side === p && alive(u) && u.ext === null && u.formation === hqf.id && !u.routed && u.attachedTo === null)
          for (const to of targets) out.push({ k: 'reserve', u: u.id, to }); // markers follow their LC [16.0]
    for (const l of side.leaders)
      if (l.role === 'artillery' && !done.has(l.id) && s.leaders.find((x) => x.id === l.id)!.status === 'on')
        for (const to of targets) if (s.artLeaderOf[l.id] !== to) out.push({ k: 'artLeader', l: l.id, to });
  }
  for (const a of s.units) {
    if (
      a.side !== p ||
      !alive(a) ||
      a.kind !== 'artillery' ||
      a.routed ||
      done.has(a.id) ||
      unitDef(s, a.id).artilleryPark
    )
      continue;
    if (a.attachedTo !== null) {
      if (isActive(s, a)) out.push({ k: 'detach', u: a.id });
      continue;
    }
    for (const lc of unitsAt(s, a.area!, p)) {
      if (!isLC(lc)) continue;
      const on = attachmentsOf(s, lc); // [11.23, 16.6]
      const why = attachBlocked({
        artKind: artKind(s, a),
        artFormation: activationFormation(s, p, a.formation),
        artActive: isActive(s, a),
        artArea: a.area!,
        lcFormation: activationFormation(s, p, lc.formation),
        lcActive: isActive(s, lc),
        lcArea: lc.area!,
        lcAttached: on.unit,
        markerAttached: on.marker,
        lcMassedColumn: lc.mc !== null,
        lcRouted: lc.routed,
        sameFormation: option(s.ctx.scenario, 'attachSameFormation'),
        highAngleCannotAttach: option(s.ctx.scenario, 'highAngleCannotAttach'),
      });
      if (why === null) out.push({ k: 'attach', u: a.id, lc: lc.id });
    }
  }
  out.push(...deploymentOptions(s, p, (id) => inCommand(s, id), done));
  return out;
}

/** A unit or leader whose assignment changed this segment (one change each [11.0]). */
function markDone(s: EState, f: PhaseFrame, id: string): EState {
  return replaceTop(s, { ...f, done: [...(f.done ?? []), id] });
}

/** Carry out an assignment choice of the phase frame `f` (on top of the stack). */
export function assignStep(s: EState, f: PhaseFrame, a: Action, log: Log): EState {
  switch (a.k) {
    case 'attach': {
      if (!assignmentOptions(s, f.p).some((x) => x.k === 'attach' && x.u === a.u && x.lc === a.lc))
        throw new IllegalActionError('attach', `${a.u} cannot attach to ${a.lc} now`);
      ev(log, '11.2', `${unitDef(s, a.u).name} attaches to ${unitDef(s, a.lc).name}`);
      return updUnit(markDone(s, f, a.u), a.u, { attachedTo: a.lc, conf: null, rs: unit(s, a.lc).rs }); // [17.21] part of its LC's stance
    }
    case 'detach': {
      const u = unit(s, a.u);
      if (!assignmentOptions(s, f.p).some((x) => x.k === 'detach' && x.u === a.u))
        throw new IllegalActionError('detach', `${a.u} cannot detach now`);
      s = markDone(s, f, a.u);
      ev(log, '11.29', `${unitDef(s, a.u).name} detaches from ${unitDef(s, u.attachedTo!).name} (−1 MA this turn)`);
      s = updUnit(s, a.u, { attachedTo: null, detached: true });
      const confs = conformationsFor(s, unit(s, a.u));
      return confs.length ? push(s, { t: 'face', p: f.p, u: a.u }) : s;
    }
    case 'reserve': {
      if (!assignmentOptions(s, f.p).some((x) => x.k === 'reserve' && x.u === a.u && x.to === a.to))
        throw new IllegalActionError('reserve', `${a.u} cannot be assigned to ${a.to} now`);
      const late = s.formations.find((x) => x.id === a.to)?.activated && !s.active.includes(a.to);
      ev(
        log,
        '11.1',
        `${unitDef(s, a.u).name} is assigned to ${a.to}${late ? ' (already activated this turn: it may not attack [11.13])' : ''}`,
      );
      s = {
        ...s,
        assigned: (f.p === 0 ? [s.assigned[0] + 1, s.assigned[1]] : [s.assigned[0], s.assigned[1] + 1]) as [
          number,
          number,
        ],
      };
      // [11.13] a unit joining a formation already activated this turn may not attack: marked as having had its combat
      return updUnit(s, a.u, late ? { formation: a.to, acted: 'assault' } : { formation: a.to });
    }
    case 'deploy':
    case 'reabsorb': {
      if (!assignmentOptions(s, f.p).some((x) => x.k === a.k && x.id === a.id))
        throw new IllegalActionError(
          a.k,
          `deployment ${a.id} cannot be ${a.k === 'deploy' ? 'made' : 're-absorbed'} now [11.31–11.33]`,
        );
      const d = s.ctx.scenario.sides[f.p].deployments.find((x) => x.id === a.id)!;
      s = markDone(s, f, d.parent);
      return a.k === 'deploy' ? applyDeploy(s, d, log) : applyReabsorb(s, d, log);
    }
    case 'artLeader':
      if (!assignmentOptions(s, f.p).some((x) => x.k === 'artLeader' && x.l === a.l && x.to === a.to))
        throw new IllegalActionError('artLeader', `${a.l} cannot be assigned to ${a.to} now`);
      ev(log, '11.14', `${leaderDef(s, a.l).name} is assigned to ${a.to}`);
      return { ...markDone(s, f, a.l), artLeaderOf: { ...s.artLeaderOf, [a.l]: a.to } };
    default:
      throw new IllegalActionError(a.k, `not an action in the ${f.seg} segment`);
  }
}
