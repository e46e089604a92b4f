/**
 * The dice of a cavalry charge [10.1–10.91]: who charges and who is charged, the square-under-duress roll [17.12],
 * the defenders' fire [10.3], the cavalry's attack dice with their subgroups (A-03) and the Grand Charge's +1 [10.82],
 * the pursuit roll [10.91] (A-20), and the chance outcomes of each roll.
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { squareTarget } from './stances.ts';
import { chargeDefenceDice, subgroupDice, type Subgroup } from './tables.ts';
import type { Action, ChargeFrame, EState, UnitState } from './types.ts';
import {
  alive,
  areaMoraleOf,
  isLC,
  leaderDef,
  leadersAt,
  moraleOf,
  seniorLeader,
  spOf,
  stepsLeft,
  tactical,
  unit,
  unitDef,
  unitsAt,
  other,
} from './world.ts';

/** Placeholder TEC charge modifiers for the boundary crossed into the target. */
const CHARGE_BOUNDARY_PCT: Record<string, number> = { stream: -25, brook: -25, 'minor-river': -50, hedgerow: -25 };

export function defenders(s: EState, f: ChargeFrame): UnitState[] {
  return unitsAt(s, f.target, other(f.p));
}
export function chargers(s: EState, f: ChargeFrame): UnitState[] {
  return f.units.map((id) => unit(s, id)).filter(alive);
}

/** Pursuit roll inputs [10.91]: the senior leader with the pursuers, their area morale without [18.4]. */
export function pursuitOdds(s: EState, f: ChargeFrame): { tactical: number; morale: number } {
  const us = chargers(s, f);
  const l = seniorLeader(s, f.p, f.target);
  return { tactical: l ? tactical(l, true) : 0, morale: areaMoraleOf(s, f.p, f.target, true, false, us) ?? 0 };
}

export function heavyOptional(s: EState, f: ChargeFrame): UnitState[] {
  return chargers(s, f).filter((u) => unitDef(s, u.id).cavClass === 'heavy' && !f.withHeavy.includes(u.id));
}

export function chargeChance(s: EState, f: ChargeFrame): ChanceOutcome<Action>[] {
  if (f.stage === 'squareRoll') {
    const t = squareRollTarget(s, f);
    const p = Math.max(0, Math.min(6, t)) / 6;
    return [
      { action: { k: 'c-pass', ok: true }, p, label: `square formed (d6 ≤ ${t})` },
      { action: { k: 'c-pass', ok: false }, p: 1 - p, label: `square fails (d6 > ${t}): the infantry is disordered` },
    ].filter((o) => o.p > 0) as ChanceOutcome<Action>[];
  }
  if (f.stage === 'pursuitRoll')
    return [1, 2, 3, 4, 5, 6].map((face) => ({
      action: { k: 'c-die', face },
      p: 1 / 6,
      label: `pursuit roll ${face}`,
    }));
  return [];
}

/** [17.12] the largest infantry unit's morale + the senior non-cavalry, non-artillery leader's rating. */
export function squareRollTarget(s: EState, f: ChargeFrame): number {
  const o = other(f.p);
  const inf = defenders(s, f).filter((u) => u.kind === 'infantry');
  const l = seniorLeader(s, o, f.target, (x) => x.arm !== 'cavalry' && x.arm !== 'artillery');
  return squareTarget(
    inf.map((u) => ({ steps: stepsLeft(u), morale: moraleOf(u) })),
    l ? tactical(l, false) : 0,
  );
}

/** Defender's first fire [10.2, 10.23, 10.24]. */
export function defenceDice(s: EState, f: ChargeFrame): number {
  const map = s.ctx.map;
  const from = f.via ?? f.origin;
  const ds = defenders(s, f).filter((u) => !f.noFire.includes(u.id));
  const units = ds.map((u) => {
    // an LC or artillery charged through its flank or rear cannot fire; squares and all-around areas are never enfiladed
    const enfiladed =
      (isLC(u) || u.kind === 'artillery') &&
      !u.square &&
      u.conf !== null &&
      map.facingOrNull(f.target, u.conf, from) !== null &&
      map.facingOrNull(f.target, u.conf, from) !== 'front';
    return { kind: u.kind, sp: spOf(u), canFire: !enfiladed };
  });
  return chargeDefenceDice(units, bestDefender(s, f)); // any one defending leader present [10.2]
}
function bestDefender(s: EState, f: ChargeFrame): number {
  let best = 0;
  for (const l of leadersAt(s, f.target, other(f.p))) {
    const d = leaderDef(s, l.id);
    if (d.role === 'chiefOfStaff' || d.role === 'staffOfficer' || d.role === 'lineOfficer') continue;
    best = Math.max(best, tactical(d, false));
  }
  return best;
}

/** Attacker's fire [10.2, 10.21, 10.22, 10.24]. */
export function attackDice(s: EState, f: ChargeFrame): { n: number; drm: number }[] {
  const map = s.ctx.map;
  const us = chargers(s, f);
  const from = f.via ?? f.origin;
  const elev = map.area(f.target).elev - map.area(f.origin).elev;
  let pct = elev > 0 ? -25 : elev < 0 ? 25 : 0; // [10.21]
  const b = map.boundary(from, f.target)!;
  for (const k of b.kind === 'point' ? b.crossingTerrain : b.terrain) pct += CHARGE_BOUNDARY_PCT[k] ?? 0; // TEC
  if (defenders(s, f).some((u) => u.square)) pct -= 50; // [10.24]
  const groups: Subgroup[] = us.map((u, i) => {
    const d = unitDef(s, u.id);
    return { id: i, sp: spOf(u), pct, drm: d.elite || d.lancer || d.cavClass === 'heavy' ? 1 : 0, leaderMay: true };
  });
  // the senior surviving cavalry leader riding with them [10.2]
  const riders = f.escort
    .filter((l) => s.leaders.find((x) => x.id === l)!.status === 'on')
    .map((l) => leaderDef(s, l))
    .filter((l) => l.arm === 'cavalry');
  riders.sort((a, b) => b.grade - a.grade);
  const lt = riders[0] ? tactical(riders[0], true) : 0;
  const sideDrm = (f.failedSquare ? 1 : 0) + (f.grand?.bonus ? 1 : 0); // [10.22, 10.25]; Grand Charge +1 [10.82]
  return subgroupDice(groups, lt, sideDrm).dice;
}
