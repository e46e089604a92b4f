/**
 * The Bombardment Segment of the Action Phase [12.0–12.72]: fire groups from one area at one target (8 SP a target,
 * A-24), the roll [12.1], the target's losses [12.2] and rout checks; counter-battery fire [12.72]. Range, line of
 * sight and the modifiers are bombard.ts's; the segment's choices are offered by the phase frame (action.ts).
 */
import { IllegalActionError } from '../../core/game.ts';
import type { AreaId } from '../../areas/map.ts';
import { artilleryRange, artilleryType, bombardmentDrms, canBombard, type ArtKind } from './bombard.ts';
import { diceFor } from './tables.ts';
import type { Action, EState, Frame, Side, UnitState } from './types.ts';
import {
  alive,
  dense,
  isActive,
  isLC,
  leaderDef,
  leadersAt,
  spOf,
  stepsLeft,
  unit,
  unitDef,
  unitsAt,
  other,
} from './world.ts';
import { option } from './rules-config.ts';
import { type Log, ev, inCommand, phaseOf, pop, push, replaceTop, updPhase, updUnit } from './state.ts';
import { pushRoutChecks } from './casualties.ts';
import type { Handlers } from '../../core/procedure.ts';
import { type FrameOf, type FrameRules, auto, decision } from './procedures.ts';

export function artKind(s: EState, u: UnitState): ArtKind {
  return (unitDef(s, u.id).artKind ?? 'foot') as ArtKind;
}

/** Artillery that may bombard [12.0, 12.6, 12.63–12.65]: active, in command, unattached, not a park, not routed, no combat yet. */
function bombarders(s: EState, p: Side): UnitState[] {
  return s.units.filter(
    (u) =>
      u.side === p &&
      alive(u) &&
      u.kind === 'artillery' &&
      u.attachedTo === null &&
      !u.routed &&
      u.acted === null &&
      !u.moveDone &&
      !unitDef(s, u.id).artilleryPark &&
      isActive(s, u) &&
      inCommand(s, u.id),
  );
}

/** Blocking troops [12.52]: an infantry long counter of either side, or at least 3 cavalry steps. */
function troopsBlock(s: EState, a: AreaId): boolean {
  const us = unitsAt(s, a);
  return us.some(isLC) || us.filter((u) => u.kind === 'cavalry').reduce((t, u) => t + stepsLeft(u), 0) >= 3;
}

function canFire(s: EState, u: UnitState, to: AreaId) {
  return canBombard({
    map: s.ctx.map,
    from: u.area!,
    to,
    kind: artKind(s, u),
    weather: s.weather,
    conf: u.conf,
    troopsBlock: (a) => troopsBlock(s, a),
    villagesBlock: s.ctx.scenario.rules.villagesBlockLos,
    licorneMinRange1: option(s.ctx.scenario, 'licorneMinRange1'),
  });
}

/** Targets: enemy combat units or the HQ; a leader-only area is no target. */
function bombardTargets(s: EState, p: Side): AreaId[] {
  const o = other(p);
  const set = new Set<AreaId>();
  for (const u of s.units) if (u.side === o && alive(u)) set.add(u.area!);
  const hq = s.hq[o];
  if (hq && !hq.lost && hq.area !== null) set.add(hq.area);
  return [...set].sort((a, b) => a - b);
}

/** [12.62] 8 SP of artillery per target area from one firing area, counted over the segment; 4 in prior editions. */
const cap = (s: EState) => (option(s.ctx.scenario, 'legacyEdition') ? 4 : 8);

export function bombardOptions(s: EState, p: Side, group: Extract<Frame, { t: 'fire' }> | null): Action[] {
  const ph = phaseOf(s);
  const out: Action[] = [];
  const units = bombarders(s, p);
  const order = (id: string) => s.units.findIndex((x) => x.id === id);
  const last = group ? Math.max(...group.units.map(order)) : -1;
  const targets = group ? [group.to] : bombardTargets(s, p);
  const licorne = option(s.ctx.scenario, 'licorneMinRange1');
  for (const u of units) {
    if (group && (u.area !== group.from || order(u.id) <= last)) continue; // a fire group fires from one area; units added in order
    const band = artilleryRange(artKind(s, u), s.weather, licorne);
    for (const to of targets) {
      const range = s.ctx.map.range(u.area!, to);
      if (range < band.min || range > band.max) continue; // out of range: canBombard's first refusal [12.4]
      const used =
        (ph.bomb[`${u.area}>${to}`] ?? 0) + (group ? group.units.reduce((t, id) => t + spOf(unit(s, id)), 0) : 0);
      if (used + spOf(u) > cap(s)) continue;
      if (canFire(s, u, to).ok) out.push({ k: 'fire', u: u.id, to });
    }
  }
  return out;
}

function fireGroupActions(s: EState, f: Extract<Frame, { t: 'fire' }>): Action[] {
  const acts = bombardOptions(s, f.p, f);
  acts.push({ k: 'shoot', cb: false });
  // [12.72] counter-battery against 5 or more artillery-type units in the target (parks count)
  const arts = unitsAt(s, f.to, other(f.p)).filter(
    (u) =>
      u.kind === 'artillery' &&
      u.attachedTo === null &&
      artilleryType(artKind(s, u), option(s.ctx.scenario, 'horseCountsForMassed')),
  );
  if (arts.length >= 5 && !option(s.ctx.scenario, 'legacyEdition')) acts.push({ k: 'shoot', cb: true }); // no massed artillery in prior editions
  return acts;
}

const TIME = (s: EState) => s.ctx.scenario.turns[s.turn - 1]!.time as 'dawn' | 'day' | 'dusk' | 'night';

/** Dice of a fire group [12.1–12.32, 12.71]: per DRM level, the units' SP converted with the TEC percentage. */
export function bombardDice(
  s: EState,
  f: Pick<Extract<Frame, { t: 'bomb' }>, 'p' | 'from' | 'to' | 'units'>,
): { n: number; drm: number }[] {
  const map = s.ctx.map;
  const sc = s.ctx.scenario;
  const us = f.units.map((id) => unit(s, id));
  const o = other(f.p);
  const targets = unitsAt(s, f.to, o);
  const verdicts = us.map((u) => canFire(s, u, f.to));
  const range = map.range(f.from, f.to);
  // the area through which the line enters the target
  const v0 = verdicts[0]!;
  const entry =
    v0.ok && v0.los && v0.los.trace.areas.length ? v0.los.trace.areas[v0.los.trace.areas.length - 1]! : f.from;
  const side = sc.sides[f.p];
  const hqA = s.hq[f.p]?.area ?? null;
  const cosAtHq = side.chiefOfStaff ? leadersAt(s, hqA ?? -1, f.p).some((l) => l.id === side.chiefOfStaff) : false;
  const near = (a: AreaId | null) => a !== null && (a === f.from || map.neighbours(f.from).includes(a));
  const facts = {
    units: us.map((u) => ({ kind: artKind(s, u), guard: unitDef(s, u.id).guard, range })),
    targetFlank: targets.some((t) => isLC(t) && !t.square && map.facingOrNull(f.to, t.conf, entry) === 'flank'),
    targetDense: dense(s, o, f.to),
    targetSquare: targets.some((t) => t.square),
    artilleryLeader: leadersAt(s, f.from, f.p).some((l) => leaderDef(s, l.id).role === 'artillery'),
    napoleonNear: s.leaders.some(
      (l) => l.side === f.p && l.status === 'on' && leaderDef(s, l.id).isNapoleon && near(l.area),
    ),
    hqCosBonus: (sc.rules.hqArtilleryBonus as readonly number[]).includes(f.p) && cosAtHq && near(hqA),
    timeOfDay: TIME(s),
    weather: s.weather,
    targetCover: map
      .area(f.to)
      .terrain.some((t) => t === 'woods' || t === 'forest' || t === 'special-foliage' || t === 'town' || t === 'city'),
    reverseSlope: false,
    horseCountsForMassed: option(sc, 'horseCountsForMassed'),
    noMassed: option(sc, 'legacyEdition'), // (A-69) [12.7 note]
    natural6Hits: option(sc, 'bombardNetMinusOne') === 'natural6Hits',
  };
  const drms = bombardmentDrms(facts);
  // [12.32] −1 against a target in reverse slope when the line enters across a slope or escarpment of its area;
  // mortars and rockets fire high and ignore it
  const eb = map.boundary(entry, f.to);
  const crest =
    !!eb && (eb.kind === 'point' ? eb.crossingTerrain : eb.terrain).some((k) => k === 'slope' || k === 'escarpment');
  if (crest && targets.some((t) => t.rs)) {
    const withRs = bombardmentDrms({ ...facts, reverseSlope: true });
    us.forEach((u, i) => {
      const k = artKind(s, u);
      if (k !== 'mortar' && k !== 'rocket') drms[i] = withRs[i]!;
    });
  }
  // [12.3] TEC strength modifier for the target (A-29: defensive works −25%)
  const pct = map.area(f.to).special.includes('defensive-works') ? -25 : 0;
  const byDrm = new Map<number, number>();
  us.forEach((u, i) => byDrm.set(drms[i]!, (byDrm.get(drms[i]!) ?? 0) + spOf(u)));
  return [...byDrm].map(([drm, sp]) => ({ n: diceFor(sp, pct), drm })).filter((d) => d.n > 0);
}

type BombardFrame = FrameOf<'fire' | 'bomb'>;

function bombardStep(s: EState, f: BombardFrame, a: Action, log: Log): EState {
  switch (f.t) {
    case 'fire': {
      if (a.k === 'fire') return replaceTop(s, { ...f, units: [...f.units, a.u] });
      if (a.k === 'shoot') {
        s = pop(s);
        const ph = phaseOf(s);
        const sp = f.units.reduce((t, id) => t + spOf(unit(s, id)), 0);
        s = updPhase(s, { bomb: { ...ph.bomb, [`${f.from}>${f.to}`]: (ph.bomb[`${f.from}>${f.to}`] ?? 0) + sp } });
        for (const id of f.units) s = updUnit(s, id, { acted: 'bombard' }); // [12.61] it may not move or assault this turn
        const names = f.units.map((id) => unitDef(s, id).name).join(', ');
        ev(
          log,
          a.cb ? '12.72' : '12.1',
          `${names} ${f.units.length > 1 ? 'bombard' : 'bombards'} area ${f.to} from area ${f.from}${a.cb ? ' (counter-battery)' : ''}`,
        );
        return push(s, {
          t: 'bomb',
          p: f.p,
          from: f.from,
          to: f.to,
          units: f.units,
          cb: a.cb,
          stage: 'roll',
          hits: null,
        });
      }
      break;
    }
    case 'bomb':
      break; // automatic
  }
  throw new IllegalActionError(a.k, `not an action at this point (${f.t})`);
}

/** The bombardment after the fire group shoots: the roll, the target's losses, then its rout checks. */
function bombardSettle(s: EState, f: BombardFrame, _log: Log): EState | null {
  switch (f.t) {
    case 'fire':
      return null;
    case 'bomb': {
      if (f.stage === 'roll') {
        const dice = bombardDice(s, f);
        return push(replaceTop(s, { ...f, stage: 'losses' }), {
          t: 'roll',
          dice,
          why: `bombardment of area ${f.to}`,
          rule: '12.1',
        });
      }
      if (f.stage === 'losses') {
        if (f.hits === null) throw new Error('eagles-of-the-empire: bombardment losses before the roll');
        s = replaceTop(s, { ...f, stage: 'rout' });
        return push(s, {
          t: 'loss',
          p: other(f.p),
          area: f.to,
          hits: f.hits,
          cb: f.cb,
          lostNow: {},
          first: true,
          rule: f.cb ? '12.72' : '12.2',
          only: null,
        });
      }
      return pushRoutChecks(pop(s), other(f.p), f.to, [f.from]);
    }
  }
}

const rules: FrameRules<BombardFrame> = {
  decider: (_s, f) => (f.t === 'fire' ? f.p : null),
  legal: (s, f) => (f.t === 'fire' ? fireGroupActions(s, f) : []),
  chance: () => [],
  step: bombardStep,
  settle: bombardSettle,
};

/** Bombardment as the runtime plays it: the fire group is a decision, the bombardment itself automatic. */
export const bombardment: Handlers<EState, BombardFrame, Action> = {
  fire: decision(rules),
  bomb: auto(rules),
};
