/**
 * The dice of an assault [14.1–14.4]: the attacking and defending units, the best leader present, the
 * dice of both sides with terrain, facing and combined arms [14.8, 14.81], and the stand-or-retreat
 * morale test [14.4].
 */
import type { AreaId } from '../../areas/map.ts';
import { assaultDice, assaultTerrainPct, type AssaultUnit } from './assault.ts';
import { traceCommand } from './command.ts';
import { formationsOf } from './scenario.ts';
import { option } from './rules-config.ts';
import type { AssaultFrame, EState, Side, UnitState } from './types.ts';
import {
  activationFormation,
  alive,
  areaMoraleOf,
  commandInput,
  isLC,
  leaderDef,
  leadersAt,
  spOf,
  tactical,
  unit,
  unitDef,
  unitsAt,
  formationOfLeader,
  inChain,
  other,
} from './world.ts';

export const areasOf = (s: EState, f: AssaultFrame): AreaId[] =>
  [...new Set(f.units.map((id) => unit(s, id).area).filter((a): a is AreaId => a !== null))].sort((a, b) => a - b);
export const defenders = (s: EState, f: AssaultFrame): UnitState[] => unitsAt(s, f.target, other(f.p));
/** Participants in the struck attacking area (with their attached artillery [11.26]). */
export function struck(s: EState, f: AssaultFrame): UnitState[] {
  return f.units.map((id) => unit(s, id)).filter((u) => alive(u) && u.area === f.firedAt);
}

export function defenderInCommand(s: EState, p: Side): Set<string> {
  return traceCommand(commandInput(s, p));
}

function bestLeader(s: EState, p: Side, area: AreaId, attacking: boolean, units: readonly UnitState[]): number {
  // [3.1, 3.11, 3.12, 14.12] one leader present, the owner's choice (the engine takes the best, A-12): attacking,
  // a leader helps units of his formation (the army commander any); defending, any leader
  const side = s.ctx.scenario.sides[p];
  let best = 0;
  for (const l of leadersAt(s, area, p)) {
    const d = leaderDef(s, l.id);
    if (d.role === 'chiefOfStaff' || d.role === 'staffOfficer' || d.role === 'lineOfficer') continue; // [9.52]
    if (attacking && d.id !== side.armyCommander && !units.some((u) => inChain(s, p, d.id, u.formation))) continue;
    let t = tactical(d, attacking);
    const own = formationOfLeader(s, d.id);
    if (
      d.arm === 'cavalry' &&
      units.some((u) => u.kind === 'infantry' && (own === null || !inChain(s, p, d.id, u.formation)))
    )
      t = Math.max(0, t - 2); // [3.12]
    best = Math.max(best, t);
  }
  return best;
}

function assaultUnit(s: EState, u: UnitState, extra: Partial<AssaultUnit>): AssaultUnit {
  const d = unitDef(s, u.id);
  return {
    kind: u.kind,
    sp: spOf(u),
    elite: d.elite,
    rifle: d.rifle,
    inSquare: u.square,
    reverseSlope: u.rs,
    massedColumn: u.mc !== null,
    ...extra,
  };
}

export function moraleOfGroup(
  s: EState,
  p: Side,
  area: AreaId,
  units: readonly UnitState[],
  attacking: boolean,
): number {
  return areaMoraleOf(s, p, area, attacking, true, units) ?? 0;
}

export function attackerDice(s: EState, f: AssaultFrame): { n: number; drm: number }[] {
  const map = s.ctx.map;
  const o = other(f.p);
  const ds = defenders(s, f);
  const dMorale = moraleOfGroup(s, o, f.target, ds, false);
  const out: { n: number; drm: number }[] = [];
  // [14.13] each attacking area separately
  for (const area of areasOf(s, f)) {
    const us = f.units.map((id) => unit(s, id)).filter((u) => alive(u) && u.area === area);
    // [11.26] attached artillery takes part in every assault its LC makes and is counted once [14.12]: 'resolve' has
    // already put it among the participants, so only an attached battery not yet among them is added here
    const withArt = [
      ...us,
      ...s.units.filter(
        (x) =>
          x.attachedTo !== null && us.some((u) => u.id === x.attachedTo) && !us.some((u) => u.id === x.id) && alive(x),
      ),
    ];
    // [14.22] attacking from a defending LC's flank or rear
    const fromFlank = ds.some((d) => isLC(d) && !d.square && map.facingOf(f.target, d.conf, area) !== 'front');
    const aMorale = moraleOfGroup(s, f.p, area, us, true);
    out.push(
      ...assaultDice({
        role: 'attacker',
        units: withArt.map((u) => assaultUnit(s, u, { fromFlankOrRear: fromFlank })),
        leaderTactical: bestLeader(s, f.p, area, true, us),
        weather: s.weather,
        targetHigher: map.area(f.target).elev - map.area(area).elev,
        terrainPct: assaultTerrainPct(map, area, f.target),
        combinedArms: combinedArms(s, f.p, us), // [14.8, 14.13] per attacking area
        moraleTwice: twice(s, aMorale, dMorale),
      }),
    );
  }
  return out;
}

export function defenderDice(s: EState, f: AssaultFrame): { n: number; drm: number }[] {
  const map = s.ctx.map;
  const o = other(f.p);
  const at = f.firedAt!;
  const atkAreas = areasOf(s, f);
  // [14.62] an LC fires only at areas in its front or flank
  const firing = defenders(s, f).filter((u) => !isLC(u) || u.square || map.facingOf(f.target, u.conf, at) !== 'rear');
  const us = struck(s, f);
  const aMorale = moraleOfGroup(s, f.p, at, us, true);
  const dMorale = moraleOfGroup(s, o, f.target, defenders(s, f), false);
  return assaultDice({
    role: 'defender',
    units: firing.map((u) =>
      assaultUnit(s, u, {
        // [14.21] defending artillery and LCs attacked through their flank or rear
        flanked:
          (isLC(u) || u.kind === 'artillery') &&
          !u.square &&
          u.conf !== null &&
          atkAreas.some((a) => flankSet(s, map.facingOf(f.target, u.conf, a))), // [14.21]
      }),
    ),
    leaderTactical: bestLeader(s, o, f.target, false, firing),
    weather: s.weather,
    targetHigher: map.area(at).elev - map.area(f.target).elev,
    vsMassedColumn: !!f.mc, // [14.72] +1 for defending infantry and artillery
    moraleTwice: twice(s, dMorale, aMorale),
  });
}

/**
 * Combined arms [14.8, 14.81, 14.13], per attacking area: infantry with attached artillery and cavalry attacking
 * together; Rigid: all of one formation; Semi-rigid: all of formations under the next higher leader; Flexible: all in
 * one chain up to the army commander; under the last two every unit within the command radius of that common leader.
 * Massed-column infantry never counts [14.71].
 */
export function combinedArms(s: EState, p: Side, units: readonly UnitState[]): boolean {
  const lcs = units.filter((u) => isLC(u) && u.mc === null && s.units.some((x) => x.attachedTo === u.id && alive(x)));
  const cav = units.filter((u) => u.kind === 'cavalry');
  if (!lcs.length || !cav.length) return false;
  const side = s.ctx.scenario.sides[p];
  const all = formationsOf(side);
  const top = (u: UnitState) => activationFormation(s, p, u.formation);
  const forms = new Set(units.map(top));
  if (side.structure === 'rigid') return forms.size === 1;
  // the common leader: the formation's own (one formation), the parent's (Semi-rigid), or the army commander (Flexible)
  let leader: string | undefined;
  if (forms.size === 1) leader = all.find((x) => x.f.id === [...forms][0])?.f.leader;
  else {
    const parents = new Set([...forms].map((f) => all.find((x) => x.f.id === f)?.parent ?? null));
    if (parents.size === 1 && [...parents][0] !== null) leader = all.find((x) => x.f.id === [...parents][0])?.f.leader;
    else if (side.structure === 'flexible' || side.structure === 'absolute') leader = side.armyCommander;
    else return false;
  }
  if (!leader) return false;
  const l = s.leaders.find((x) => x.id === leader);
  if (!l || l.status !== 'on') return false;
  const r = leaderDef(s, leader).radius;
  return units.every((u) => s.ctx.map.range(l.area!, u.area!) <= r || l.area === u.area); // [14.81]
}

/** option moraleTwice: at least twice the other side's area morale (the [13.9] example), or strictly more. */
export function twice(s: EState, mine: number, theirs: number): boolean {
  if (theirs <= 0) return false;
  return option(s.ctx.scenario, 'moraleTwice') === 'moreThan' ? mine > 2 * theirs : mine >= 2 * theirs;
}

/** option assaultFlank: the −50% when attacked through the flank or rear (the CMT), or the flank only ([14.21]). */
export function flankSet(s: EState, facing: string): boolean {
  return option(s.ctx.scenario, 'assaultFlank') === 'flank' ? facing === 'flank' : facing !== 'front';
}
