/**
 * What combat and movement leave behind, shared by every procedure that inflicts it (bombardment, charges, assaults,
 * retreats, rout moves, extended lines): step losses with the segment's rout bookkeeping [2.3 Steps], the rout
 * checks those losses call for [19.0], and lone leaders displaced by entering enemy units [3.13]. These push frames
 * (`routCheck`, `displace`) that the Action Phase plays (action.ts); they depend on no flow.
 */
import type { AreaId } from '../../areas/map.ts';
import { entryCost } from './movement.ts';
import { mustCheckRout, routModifier } from './retreat.ts';
import { type Log, ev, hasPhase, phaseOf, push, updPhase, updUnit } from './state.ts';
import type { EState, Frame, Side, UnitState } from './types.ts';
import {
  alive,
  dense,
  enemyUnitsIn,
  isLC,
  killLeader,
  leaderDef,
  leadersAt,
  stepsLeft,
  unit,
  unitDef,
  unitsAt,
  other,
} from './world.ts';

/** Lone leaders [3.13]: enemy units entering an area holding only leaders displace them (owner's choice of area). */
export function displaceLeaders(s: EState, enteringSide: Side, area: AreaId, log: Log): EState {
  const o = other(enteringSide);
  if (unitsAt(s, area, o).length) return s;
  for (const l of leadersAt(s, area, o)) {
    const options = s.ctx.map
      .neighbours(area)
      .filter(
        (n) =>
          !enemyUnitsIn(s, o, n) &&
          (entryCost(s.ctx.map, area, n, 'infantry') < Infinity || entryCost(s.ctx.map, area, n, 'cavalry') < Infinity),
      )
      .filter(
        (n) =>
          s.ctx.map.boundary(area, n)!.kind === 'side' ||
          !s.ctx.map.boundary(area, n)!.corners.some((c) => enemyUnitsIn(s, o, c)),
      );
    if (!options.length) {
      s = killLeader(s, l.id);
      ev(
        log,
        '3.13',
        `${leaderDef(s, l.id).name}, alone when the enemy entered area ${area}, has nowhere to go and is eliminated`,
      );
    } else s = push(s, { t: 'displace', p: o, l: l.id, options });
  }
  return s;
}

/** One unit loses `n` steps (eliminated past its last) [2.3 Steps], with the segment's rout bookkeeping. */
export function loseSteps(s: EState, id: string, n: number, log: Log, rule: string): EState {
  if (id === 'HQ') throw new Error('loseSteps: the HQ is handled by the caller');
  const u = unit(s, id);
  if (u.ext !== null) {
    // [16.7] a marker's losses come off its long counter's total; the split is then recomputed (lines.ts)
    ev(log, '16.7', `${unitDef(s, id).name} is hit: the loss comes off ${unitDef(s, u.ext.lc).name}'s total`);
    return loseSteps(s, u.ext.lc, n, log, rule);
  }
  const before = stepsLeft(u);
  const take = Math.min(n, before);
  const step = u.step + take;
  const gone = step >= u.steps.length;
  const wasLC = isLC(u);
  s = updUnit(
    s,
    id,
    gone
      ? {
          step: u.steps.length - 1,
          eliminated: true,
          area: null,
          conf: null,
          square: false,
          routed: false,
          lost: u.lost + take,
        }
      : { step, lost: u.lost + take },
  );
  const name = unitDef(s, id).name;
  ev(
    log,
    rule,
    gone
      ? `${name} loses ${take} step${take === 1 ? '' : 's'} and is eliminated`
      : `${name} loses ${take} step${take === 1 ? '' : 's'} (now ${u.steps[step]!.label}${u.steps[step]!.sp})`,
  );
  // [11.28] an LC reduced to a short counter, or eliminated, loses its attached artillery's attachment
  if (wasLC && (gone || !isLC(unit(s, id))))
    s = { ...s, units: s.units.map((x) => (x.attachedTo === id ? { ...x, attachedTo: null } : x)) };
  if (hasPhase(s)) {
    const ph = phaseOf(s);
    s = updPhase(s, {
      segStart: ph.segStart[id] === undefined ? { ...ph.segStart, [id]: before } : ph.segStart,
      segLost: { ...ph.segLost, [id]: (ph.segLost[id] ?? 0) + take },
    });
  }
  return s;
}

/** Rout checks [19.0] for units of `p` in `area` whose losses this segment passed half the steps they began it with. */
export function pushRoutChecks(
  s: EState,
  p: Side,
  area: AreaId,
  attackers: readonly AreaId[],
  o: { combinedOrMassed?: boolean; vsCharge?: boolean } = {},
): EState {
  return pushRoutChecksFor(s, unitsAt(s, area, p), attackers, o);
}

/** Rout checks [19.0] for those of `units` that lost more than half the steps they began the segment with. */
export function pushRoutChecksFor(
  s: EState,
  units: readonly UnitState[],
  attackers: readonly AreaId[],
  o: { combinedOrMassed?: boolean; vsCharge?: boolean } = {},
): EState {
  if (!s.ctx.scenario.rules.rout || !hasPhase(s)) return s;
  const ph = phaseOf(s);
  const checked = [...ph.routChecked];
  const frames: Frame[] = [];
  for (const x of units) {
    const u = x.ext !== null ? unit(s, x.ext.lc) : x; // a marker's losses and rout are its long counter's [16.2, 16.7]
    if (!alive(u) || u.kind !== 'infantry' || u.routed || checked.includes(u.id)) continue;
    const start = ph.segStart[u.id];
    if (start === undefined) continue;
    const startStep = u.steps.length - start;
    if (u.steps[startStep]!.form !== 'long') continue; // an LC at the start of the segment [19.0, 19.2]
    if (!mustCheckRout(start, ph.segLost[u.id] ?? 0)) continue;
    checked.push(u.id);
    // a stance that helps against the attack: square against a charge, reverse slope against bombardment and assault [19.1]
    const mod = routModifier({
      combinedOrMassed: o.combinedOrMassed,
      dense: dense(s, u.side, u.area!),
      elite: unitDef(s, u.id).elite,
      helpfulStance: o.vsCharge ? u.square : u.rs,
    });
    frames.push({ t: 'routCheck', u: u.id, mod, cascade: false, attackers, retest: false });
  }
  s = updPhase(s, { routChecked: checked });
  return push(s, ...frames.reverse());
}
