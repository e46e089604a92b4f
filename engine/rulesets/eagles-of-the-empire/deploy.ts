/**
 * Alternate deployments [11.3–11.33], following the scenario's instructions (`sides[].deployments`): a deployment
 * option names a parent unit and the alternate units it deploys. Deploying, at set-up (`atStart`) or in the Assignment
 * Segment [11.31], places the alternates in the parent's area at their starting steps, and the parent gives up as many
 * steps as they hold (the steps are not lost for victory); re-absorbing, in the Assignment Segment when all surviving
 * alternates share the parent's area [11.32], takes them off the map and gives the parent back the steps they still
 * have. Neither is allowed adjacent to enemy units or out of command [11.33, 9.4].
 *
 * Rulings (the book leaves the mechanics to each scenario): the parent stays on the map (it "re-absorbs" the units
 * in its area); strength is conserved, so steps the alternates lost stay lost; a parent with attached artillery, in an
 * extended line, routed or in square neither deploys nor re-absorbs; alternates with attached artillery or markers are
 * not re-absorbed; an option whose alternates were all eliminated is spent.
 */
import type { AreaId } from '../../areas/map.ts';
import { type Log, ev, push, updUnit } from './state.ts';
import type { DeploymentJson } from './scenario.ts';
import type { Action, EState, Frame, Side, UnitState } from './types.ts';
import { alive, conformationsFor, fits, isActive, stepsLeft, unit, unitDef } from './world.ts';

/** Steps the alternates of an option hold at their starting steps: what the parent gives up. */
function deploymentSteps(s: EState, d: DeploymentJson): number {
  return d.units.reduce((t, id) => t + (unitDef(s, id).steps.length - unitDef(s, id).startStep), 0);
}

/** Whether option `d` is deployed now: an alternate is on the map or was eliminated. */
function isDeployed(s: EState, d: DeploymentJson): boolean {
  return d.units.some((id) => {
    const u = unit(s, id);
    return u.area !== null || u.eliminated;
  });
}

/** Steps `parent` has given up to deployed alternates (recovery [15.2] does not restore them). */
export function deployedSteps(s: EState, parent: string): number {
  let n = 0;
  for (const side of s.ctx.scenario.sides)
    for (const d of side.deployments) if (d.parent === parent && isDeployed(s, d)) n += deploymentSteps(s, d);
  return n;
}

function nearEnemy(s: EState, p: Side, area: AreaId): boolean {
  const near = [area, ...s.ctx.map.neighbours(area)];
  return s.units.some((u) => u.side !== p && alive(u) && near.includes(u.area!));
}

function parentBlocked(s: EState, u: UnitState): boolean {
  return (
    !alive(u) ||
    u.routed ||
    u.square ||
    u.xsp !== null ||
    u.mc !== null ||
    s.units.some((x) => x.attachedTo === u.id && alive(x))
  );
}

/**
 * Deploy and re-absorb choices of side `p` in the Assignment Segment [11.31–11.33]: the parent active and in command,
 * nowhere near enemy units; for re-absorbing, every surviving alternate in the parent's area and in command too.
 */
export function deploymentOptions(
  s: EState,
  p: Side,
  inCommand: (id: string) => boolean,
  done: ReadonlySet<string>,
): Action[] {
  const out: Action[] = [];
  for (const d of s.ctx.scenario.sides[p].deployments) {
    const parent = unit(s, d.parent);
    if (
      done.has(d.parent) ||
      parentBlocked(s, parent) ||
      !isActive(s, parent) ||
      !inCommand(parent.id) ||
      nearEnemy(s, p, parent.area!)
    )
      continue;
    if (!isDeployed(s, d)) {
      const k = deploymentSteps(s, d);
      if (stepsLeft(parent) <= k) continue; // the parent keeps at least one step
      const area = parent.area!;
      const children = d.units.map((id) => ({ ...unit(s, id), area, step: unit(s, id).startStep }));
      if (!fits(s, p, area, [{ ...parent, step: parent.step + k }, ...children])) continue;
      out.push({ k: 'deploy', id: d.id });
    } else {
      const kids = d.units.map((id) => unit(s, id)).filter(alive);
      if (
        !kids.length ||
        kids.some(
          (c) =>
            c.area !== parent.area ||
            c.routed ||
            c.xsp !== null ||
            !inCommand(c.id) ||
            s.units.some((x) => x.attachedTo === c.id && alive(x)),
        )
      )
        continue;
      out.push({ k: 'reabsorb', id: d.id });
    }
  }
  return out;
}

/** Deploy option `d` [11.31]: the alternates appear in the parent's area; the parent gives up their steps. */
export function applyDeploy(s: EState, d: DeploymentJson, log: Log, setup = false): EState {
  const parent = unit(s, d.parent);
  const k = deploymentSteps(s, d);
  const area = parent.area!;
  s = updUnit(s, parent.id, { step: parent.step + k });
  const frames: Frame[] = [];
  for (const id of d.units) {
    const c = unit(s, id);
    s = updUnit(s, id, {
      area,
      conf: null,
      step: c.startStep,
      formation: parent.formation,
      acted: parent.acted,
      mp: parent.mp,
      moveDone: parent.moveDone,
      routed: false,
      square: false,
      rs: false,
      mc: null,
      attachedTo: null,
    });
    const confs = conformationsFor(s, unit(s, id));
    if (confs.length) {
      if (setup) s = updUnit(s, id, { conf: confs[0]! });
      else frames.push({ t: 'face', p: parent.side, u: id });
    }
  }
  ev(
    log,
    '11.31',
    `${unitDef(s, parent.id).name} deploys ${d.units.map((id) => unitDef(s, id).name).join(', ')} in area ${area}${setup ? ' at set-up' : ''}, giving up ${k} step${k === 1 ? '' : 's'}`,
  );
  return push(s, ...frames.reverse());
}

/** Re-absorb option `d` [11.32]: the surviving alternates leave the map and the parent regains the steps they hold. */
export function applyReabsorb(s: EState, d: DeploymentJson, log: Log): EState {
  const parent = unit(s, d.parent);
  const kids = d.units.map((id) => unit(s, id));
  const regain = kids.filter(alive).reduce((t, c) => t + stepsLeft(c), 0);
  s = updUnit(s, parent.id, { step: Math.max(0, parent.step - regain) });
  for (const c of kids)
    if (alive(c))
      s = updUnit(s, c.id, {
        area: null,
        conf: null,
        step: c.startStep,
        square: false,
        rs: false,
        mc: null,
        routed: false,
      });
  ev(
    log,
    '11.32',
    `${unitDef(s, parent.id).name} re-absorbs ${kids
      .filter(alive)
      .map((c) => unitDef(s, c.id).name)
      .join(', ')} in area ${parent.area}, regaining ${regain} step${regain === 1 ? '' : 's'}`,
  );
  return s;
}

/** The set-up deployments the scenario makes [11.31]. */
export function deployAtStart(s: EState): EState {
  for (const side of s.ctx.scenario.sides)
    for (const d of side.deployments) if (d.atStart) s = applyDeploy(s, d, undefined, true);
  return s;
}
