/**
 * The Action Phase of Eagles of the Empire [8.14, 10.0–14.8]: the five segments in order (Cavalry Charge, Assignment,
 * Bombardment, Movement, Assault), each a decision frame on the stack whose legal actions are that segment's small
 * choices plus `next`, and the procedures they start: fire groups and bombardment [12.0–12.72], moves [13.0–13.94],
 * loss allocation one hit at a time (A-42), leader casualties [3.2], rout checks, rout moves and cascades [19.0–19.31],
 * lone-leader displacement [3.13]. Each of these frames is registered with the procedure runtime (procedures.ts).
 *
 * Cavalry charges are in charge-flow.ts, assaults in assault-flow.ts, retreats in retreat-flow.ts: the segments start
 * them through their entries (procedures.ts), not by importing them. Step losses, rout checks and lone-leader
 * displacement, which every procedure inflicts, are in casualties.ts.
 * Extended lines [16.0–16.9] live in lines.ts (extending, retracting, keeping the parts' split and adjacency).
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { IllegalActionError } from '../../core/game.ts';
import type { AreaId } from '../../areas/map.ts';
import { artilleryType, bombardmentDrms, canBombard, type ArtKind } from './bombard.ts';
import { hitChoices, type LossUnit } from './losses.ts';
import { assignmentLimit, attachBlocked } from './assignment.ts';
import { formationsOf } from './scenario.ts';
import { entryCost, type MoveClass } from './movement.ts';
import { holdChance, routModifier } from './retreat.ts';
import { reverseSlopePossible, squareAllowed } from './stances.ts';
import { legalSteps, type StepWorld } from './steps.ts';
import {
  diceFor,
  hitChance,
  leaderCasualtyModifier,
  leaderLossChance,
  movementAllowance,
  type MoverKind,
} from './tables.ts';
import type { Action, EState, Frame, LossFrame, PhaseFrame, Segment, Side, UnitState } from './types.ts';
import {
  activationFormation,
  alive,
  areaMoraleOf,
  formationOfLeader,
  inChain,
  conformationsFor,
  dense,
  enemyOccupied,
  enemyUnitsIn,
  fits,
  isActive,
  killLeader,
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
import { applyDeploy, applyReabsorb, deploymentOptions } from './deploy.ts';
import {
  applyExtend,
  applyRetract,
  extendOptions,
  isExtended,
  lineAllows,
  attachmentsOf,
  lineOf,
  retractOptions,
  spendLine,
} from './lines.ts';
import { type Log, ev, hasPhase, inCommand, phaseOf, pop, push, replaceTop, top, updPhase, updUnit } from './state.ts';
import { displaceLeaders, loseSteps, pushRoutChecks } from './casualties.ts';
import { type FrameOf, entry, register } from './procedures.ts';

export const SEGMENTS: readonly Segment[] = ['charge', 'assign', 'bombard', 'move', 'assault'];
const SEG_RULE: Record<Segment, string> = {
  charge: '10.0',
  assign: '11.0',
  bombard: '12.0',
  move: '13.0',
  assault: '14.0',
};

/** The frames this module plays (the runtime asks it through the registration at the end). */
const KINDS = [
  'phase',
  'fire',
  'bomb',
  'move',
  'routMove',
  'displace',
  'roll',
  'loss',
  'leaderCheck',
  'routCheck',
] as const;
type ActionFrame = FrameOf<(typeof KINDS)[number]>;

/** Who decides at an Action Phase frame (null: chance or automatic). */
function frameDecider(_s: EState, f: ActionFrame): Side | null {
  switch (f.t) {
    case 'phase':
    case 'fire':
    case 'move':
    case 'routMove':
    case 'displace':
    case 'loss':
      return f.p;
    case 'bomb':
    case 'roll':
    case 'leaderCheck':
    case 'routCheck':
      return null;
  }
}

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
    // (A-41) a Massed Column that cannot assault its target now (moved off, target gone) lapses
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
// legal actions
// ---------------------------------------------------------------------------------------------

function actionLegal(s: EState, f: ActionFrame): Action[] {
  switch (f.t) {
    case 'phase':
      // declared Massed Columns must assault before the segment can end (A-41)
      if (f.seg === 'assault' && entry('assault').pendingMassedColumns(s, f.p).length) return segmentActions(s, f);
      return [...segmentActions(s, f), { k: 'next' }];
    case 'fire':
      return fireGroupActions(s, f);
    case 'move':
      return moveActions(s, f);
    case 'routMove': {
      const opts = routOptions(s, f);
      const acts: Action[] = opts.map((area) => ({ k: 'goTo', area }));
      if (!f.initial && f.path.length > 1) acts.push({ k: 'stop' });
      const u = unit(s, f.u);
      if (!opts.length || !alive(u)) return acts;
      // [19.23] from a map-edge area the router may flee off the map (eliminated)
      if (s.ctx.map.isEdge(u.area!)) acts.push({ k: 'routOff' });
      // [19.14] leaders with the unit may go with it before it moves
      if (f.initial && f.path.length === 1)
        for (const l of leadersAt(s, u.area!, u.side))
          if (!f.riders?.includes(l.id)) acts.push({ k: 'escort', l: l.id });
      return acts;
    }
    case 'displace':
      return f.options.map((area) => ({ k: 'goTo', area }));
    case 'loss': {
      const { ids } = hitChoices(lossUnits(s, f), { counterBattery: f.cb, firstLoss: f.first });
      return ids.map((u) => ({ k: 'hit', u }));
    }
    case 'bomb':
    case 'roll':
    case 'leaderCheck':
    case 'routCheck':
      return []; // automatic or chance
  }
}

function segmentActions(s: EState, f: PhaseFrame): Action[] {
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

// ---------------------------------------------------------------------------------------------
// Assignment [11.0–11.33]
// ---------------------------------------------------------------------------------------------

/**
 * Assignment Segment [11.0–11.29] (A-22, A-23), in any order: reserve units to formations when the HQ formation is
 * active, within the per-turn limit [11.1, 11.11]; artillery leaders to formations [11.14]; attaching active artillery
 * to an active long counter in its area [11.2–11.23]; detaching it [11.29]; alternate deployments and re-absorbing
 * them [11.3–11.33] (deploy.ts).
 */
function assignmentOptions(s: EState, p: Side): Action[] {
  const sc = s.ctx.scenario;
  const side = sc.sides[p];
  const out: Action[] = [];
  const done = new Set(phaseOf(s).done ?? []);
  const hqf = side.formations.find((f) => f.kind === 'hq');
  const hqActive = hqf ? s.active.includes(hqf.id) : s.active.length > 0; // A-22: no HQ, the army commander's activation
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
        sameFormation: option(s.ctx.scenario, 'attachSameFormation'), // (A-23)
        highAngleCannotAttach: option(s.ctx.scenario, 'highAngleCannotAttach'), // (A-23)
      });
      if (why === null) out.push({ k: 'attach', u: a.id, lc: lc.id });
    }
  }
  out.push(...deploymentOptions(s, p, (id) => inCommand(s, id), done));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Bombardment [12.0–12.72]
// ---------------------------------------------------------------------------------------------

function artKind(s: EState, u: UnitState): ArtKind {
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
    licorneMinRange1: option(s.ctx.scenario, 'licorneMinRange1'), // (A-25)
  });
}

/** Targets: enemy combat units or the HQ (A-24); a leader-only area is no target. */
function bombardTargets(s: EState, p: Side): AreaId[] {
  const o = other(p);
  const set = new Set<AreaId>();
  for (const u of s.units) if (u.side === o && alive(u)) set.add(u.area!);
  const hq = s.hq[o];
  if (hq && !hq.lost && hq.area !== null) set.add(hq.area);
  return [...set].sort((a, b) => a - b);
}

/** [12.62] 8 SP of artillery per target area from one firing area, counted over the segment (A-24); 4 in prior editions (A-69). */
const cap = (s: EState) => (option(s.ctx.scenario, 'legacyEdition') ? 4 : 8);

function bombardOptions(s: EState, p: Side, group: Extract<Frame, { t: 'fire' }> | null): Action[] {
  const ph = phaseOf(s);
  const out: Action[] = [];
  const units = bombarders(s, p);
  const order = (id: string) => s.units.findIndex((x) => x.id === id);
  const last = group ? Math.max(...group.units.map(order)) : -1;
  const targets = group ? [group.to] : bombardTargets(s, p);
  for (const u of units) {
    if (group && (u.area !== group.from || order(u.id) <= last)) continue; // a fire group fires from one area; units added in order
    for (const to of targets) {
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
  if (arts.length >= 5 && !option(s.ctx.scenario, 'legacyEdition')) acts.push({ k: 'shoot', cb: true }); // no massed artillery in prior editions (A-69)
  return acts;
}

const TIME = (s: EState) => s.ctx.scenario.turns[s.turn - 1]!.time as 'dawn' | 'day' | 'dusk' | 'night';

/** Dice of a fire group [12.1–12.32, 12.71]: per DRM level, the units' SP converted with the TEC percentage. */
function bombardDice(s: EState, f: Extract<Frame, { t: 'bomb' }>): { n: number; drm: number }[] {
  const map = s.ctx.map;
  const sc = s.ctx.scenario;
  const us = f.units.map((id) => unit(s, id));
  const o = other(f.p);
  const targets = unitsAt(s, f.to, o);
  const verdicts = us.map((u) => canFire(s, u, f.to));
  const range = map.range(f.from, f.to);
  // the area through which the line enters the target (A-27)
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
    horseCountsForMassed: option(sc, 'horseCountsForMassed'), // (A-24)
    noMassed: option(sc, 'legacyEdition'), // (A-69) [12.7 note]
    natural6Hits: option(sc, 'bombardNetMinusOne') === 'natural6Hits', // (A-02)
  };
  const drms = bombardmentDrms(facts);
  // [12.32] (A-28) −1 against a target in reverse slope when the line enters across a slope or escarpment of its area;
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

// ---------------------------------------------------------------------------------------------
// Movement [13.0–13.94]
// ---------------------------------------------------------------------------------------------

function moverKind(s: EState, u: UnitState): MoverKind {
  if (u.kind === 'cavalry') return 'cavalry';
  if (u.kind === 'artillery') return artKind(s, u) === 'horse' ? 'horse-artillery' : 'artillery';
  return s.units.some((x) => x.attachedTo === u.id && !x.eliminated) ? 'infantry-with-artillery' : 'infantry';
}

/** Movement allowance this turn [13.2–13.24] (A-29); `artilleryLeader`: an artillery leader starts and moves with it (+1) [13.24]. */
export function unitMA(s: EState, u: UnitState, artilleryLeader = false): number {
  return movementAllowance(moverKind(s, u), {
    outOfCommand: hasPhase(s) ? !inCommand(s, u.id) : false,
    weather: s.weather,
    detachedThisTurn: u.detached,
    artilleryLeader,
  });
}

function moveClass(u: UnitState): MoveClass {
  return u.kind;
}

/** Units that may still move [13.0, 15.11, 17.15]: active, no charge or bombardment, not in square, not routed, move not made. */
function movers(s: EState, p: Side): UnitState[] {
  return s.units.filter(
    (u) =>
      u.side === p &&
      alive(u) &&
      isActive(s, u) &&
      !u.moveDone &&
      !u.routed &&
      !u.square &&
      !u.rs &&
      u.attachedTo === null &&
      u.acted !== 'charge' &&
      u.acted !== 'bombard' &&
      u.mp < unitMA(s, u),
  );
}

/** Leaders whose formation is active [13.4]; army and intermediate commanders once per turn. */
function leaderMovers(s: EState, p: Side): string[] {
  const side = s.ctx.scenario.sides[p];
  return s.leaders
    .filter((l) => l.side === p && l.status === 'on' && !l.moved)
    .filter((l) => {
      const d = leaderDef(s, l.id);
      if (d.role === 'chiefOfStaff' || d.role === 'staffOfficer' || d.role === 'lineOfficer') return false; // they stay with the HQ [9.52]
      if (d.id === side.armyCommander) return s.active.length > 0;
      // his own formation active, or (an intermediate commander) any formation under him; leaders of no formation
      // (artillery leaders, until assigned [11.14]) move with the HQ formation
      const own = s.artLeaderOf[d.id] ?? formationOfLeader(s, d.id);
      if (own === null) return side.formations.some((f) => f.kind === 'hq' && s.active.includes(f.id));
      return s.active.some((fid) => fid === activationFormation(s, p, own) || inChain(s, p, d.id, fid));
    })
    .map((l) => l.id);
}

function moverOptions(s: EState, p: Side, ms = movers(s, p)): Action[] {
  const out: Action[] = [];
  const byArea = new Map<AreaId, UnitState[]>();
  for (const u of ms) byArea.set(u.area!, [...(byArea.get(u.area!) ?? []), u]);
  for (const u of ms) out.push({ k: 'mvUnit', u: u.id });
  for (const [area, us] of [...byArea].sort((a, b) => a[0] - b[0]))
    if (us.length > 1 && us.every((u) => u.mp === 0)) out.push({ k: 'mvStack', area });
  const lms = leaderMovers(s, p);
  for (const l of lms) out.push({ k: 'mvLeader', l });
  // [13.24] an artillery leader starting with one unattached, non-horse artillery unit may move with it for +1 MA
  for (const l of lms) {
    const at = s.leaders.find((x) => x.id === l)!.area;
    if (leaderDef(s, l).role !== 'artillery' || lmp(s, l) !== 0) continue;
    for (const u of ms)
      if (u.kind === 'artillery' && u.area === at && u.mp === 0 && artKind(s, u) !== 'horse')
        out.push({ k: 'mvWithLeader', u: u.id, l });
  }
  // [13.5] the HQ moves with the HQ formation's activation when the CoS or the army commander is with it
  const hq = s.hq[p];
  const side = s.ctx.scenario.sides[p];
  if (hq && !hq.lost && hq.area !== null && side.formations.some((f) => f.kind === 'hq' && s.active.includes(f.id))) {
    const escort = leadersAt(s, hq.area, p).some((l) => l.id === side.chiefOfStaff || l.id === side.armyCommander);
    if (escort && !hqMoved(s, p)) out.push({ k: 'mvHq' });
  }
  return out;
}
function hqMoved(s: EState, p: Side): boolean {
  return s.hqMoved[p];
}

/** [17.11, 17.16] (A-44) form or leave square by intent: every infantry unit of the side there active with 1 MP left. */
function squareOptions(s: EState, p: Side): Action[] {
  if (!s.ctx.scenario.sides[p].allow.square) return [];
  const out: Action[] = [];
  const areas = [
    ...new Set(s.units.filter((u) => u.side === p && alive(u) && u.kind === 'infantry').map((u) => u.area!)),
  ].sort((a, b) => a - b);
  for (const area of areas) {
    const us = unitsAt(s, area, p);
    const inf = us.filter((u) => u.kind === 'infantry');
    if (!inf.every((u) => isActive(s, u) && !u.routed && !u.moveDone && u.mp + 1 <= unitMA(s, u) && u.acted === null))
      continue;
    const on = inf[0]!.square;
    if (!on) {
      const ok = squareAllowed(
        us.map((u) => ({ kind: u.kind, sp: spOf(u), extended: isExtended(u) })),
        true,
      ).ok;
      if (!ok) continue;
    }
    out.push({ k: 'square', area, on: !on });
  }
  return out;
}

/**
 * Massed Column declarations [14.7, 14.71] (A-41), where the scenario allows them: an unmoved infantry long counter
 * with no attached artillery, not in square or reverse slope, names an area holding an enemy infantry long counter
 * that is not adjacent to it, then moves adjacent to it; it must assault it in the Assault Segment.
 */
function massedColumnOptions(s: EState, p: Side, ms = movers(s, p)): Action[] {
  if (!s.ctx.scenario.sides[p].allow.massedColumn) return [];
  const map = s.ctx.map;
  const targets = [...new Set(s.units.filter((u) => u.side !== p && alive(u) && isLC(u)).map((u) => u.area!))].sort(
    (a, b) => a - b,
  );
  const out: Action[] = [];
  for (const u of ms) {
    if (
      !isLC(u) ||
      isExtended(u) ||
      u.mp !== 0 ||
      u.mc !== null ||
      s.units.some((x) => x.attachedTo === u.id && alive(x))
    )
      continue; // [14.71, 16.9]
    for (const t of targets) {
      const r = map.range(u.area!, t);
      if (r >= 2 && r <= unitMA(s, u) + 1) out.push({ k: 'massedColumn', u: u.id, target: t });
    }
  }
  return out;
}

/**
 * Reverse Slope Defence [17.2, 17.21, 17.24] (A-45), where the scenario allows it: infantry (long or short) and
 * unattached artillery in an area with a slope or escarpment boundary enter or leave it in the Movement Segment at
 * 1 MP; attached artillery shares its LC's stance; a unit in reverse slope must leave it before moving away.
 */
function reverseSlopeOptions(s: EState, p: Side): Action[] {
  if (!s.ctx.scenario.sides[p].allow.reverseSlope) return [];
  const out: Action[] = [];
  for (const u of s.units) {
    if (
      u.side !== p ||
      !alive(u) ||
      u.kind === 'cavalry' ||
      u.attachedTo !== null ||
      u.routed ||
      u.square ||
      isExtended(u) ||
      u.moveDone ||
      u.acted !== null
    )
      continue; // [16.9]
    if (!isActive(s, u) || u.mp + 1 > unitMA(s, u) || !reverseSlopePossible(s.ctx.map, u.area!)) continue;
    out.push({ k: 'reverseSlope', u: u.id, on: !u.rs });
  }
  return out;
}

/** Extending and retracting lines [16.0]: active, in-command long counters that may still move. */
function lineOptions(s: EState, p: Side, ms = movers(s, p)): Action[] {
  const ma = (u: UnitState) => unitMA(s, u);
  const cmd = (id: string) => inCommand(s, id);
  return [...extendOptions(s, p, ms, ma, cmd), ...retractOptions(s, ms, ma, cmd)];
}

function groupOf(s: EState, f: Extract<Frame, { t: 'move' }>) {
  return { units: f.units.map((id) => unit(s, id)), leaders: f.leaders };
}

function mpLeft(s: EState, f: Extract<Frame, { t: 'move' }>): number {
  const { units } = groupOf(s, f);
  let left = Infinity;
  for (const u of units) left = Math.min(left, unitMA(s, u, !!f.boost) - u.mp);
  for (const l of f.leaders) left = Math.min(left, 4 - lmp(s, l)); // leaders: MA 4 [13.2]
  if (f.hq) left = Math.min(left, 2 - hqMp(s, f.p));
  return left;
}
function lmp(s: EState, l: string): number {
  return s.leaderMp[l] ?? 0;
}
function hqMp(s: EState, p: Side): number {
  return s.hqMp[p];
}

function stepWorld(s: EState, p: Side, movers: readonly UnitState[]): StepWorld {
  return {
    map: s.ctx.map,
    enemyBlocks: (a) => enemyOccupied(s, p, a),
    enemyUnits: (a) => enemyUnitsIn(s, p, a),
    fits: (a) => fits(s, p, a, movers),
    cornersAllFullOfFriends: (corners) => corners.every((c) => unitsAt(s, c, p).length > 0 && !fits(s, p, c, movers)),
  };
}

function moveSteps(s: EState, f: Extract<Frame, { t: 'move' }>) {
  const { units } = groupOf(s, f);
  const left = mpLeft(s, f);
  if (left <= 0) return [];
  const classes: MoveClass[] = units.length ? [...new Set(units.map(moveClass))] : f.hq ? ['artillery'] : [];
  const long = units.find(isLC);
  const w = stepWorld(s, f.p, units);
  if (!classes.length) {
    // a leader alone pays the lower of the infantry and cavalry costs [13.4]
    const inf = legalSteps(
      w,
      { classes: ['infantry'], inCommand: true, roadAligned: null, hasLong: false, longIn: () => false },
      f.at,
      left,
    );
    const cav = legalSteps(
      w,
      { classes: ['cavalry'], inCommand: true, roadAligned: null, hasLong: false, longIn: () => false },
      f.at,
      left,
    );
    const best = new Map<AreaId, (typeof inf)[number]>();
    for (const o of [...inf, ...cav]) if (!best.has(o.to) || best.get(o.to)!.cost > o.cost) best.set(o.to, o);
    return [...best.values()].sort((a, b) => a.to - b.to);
  }
  const inCmd = units.every((u) => inCommand(s, u.id));
  const aligned = f.road; // A-30: the alignment the long counter had where it started
  const steps = legalSteps(
    w,
    { classes, inCommand: inCmd, roadAligned: aligned, hasLong: !!long, longIn: (a) => stackOf2(s, f.p, a) },
    f.at,
    left,
  );
  // [16.3] the parts of an extended line stay side-adjacent (A-32)
  const parts = units.filter((u) => u.xsp !== null);
  return parts.length ? steps.filter((o) => parts.every((u) => lineAllows(s, u, o.to))) : steps;
}
/** The road a moving long counter is aligned along where it starts [13.35] (A-30). */
function roadOf(s: EState, us: readonly UnitState[]): string | null {
  const long = us.find(isLC);
  if (!long || long.conf === null) return null;
  const a = s.ctx.map.area(long.area!);
  if (a.allAround) return null;
  return a.conformations.find((c) => c.id === long.conf)?.roadAligned ?? null;
}
function stackOf2(s: EState, p: Side, a: AreaId): boolean {
  return unitsAt(s, a, p).some(isLC);
}

/** Where a group of side `p`'s units could step next if it started moving now (the heuristic's look at a move). */
export function firstSteps(s: EState, p: Side, ids: readonly string[]): { to: AreaId; cost: number }[] {
  const at = unit(s, ids[0]!).area!;
  return moveSteps(s, {
    t: 'move',
    p,
    units: ids,
    leaders: [],
    hq: false,
    at,
    moved: false,
    road: roadOf(
      s,
      ids.map((id) => unit(s, id)),
    ),
  });
}

function moveActions(s: EState, f: Extract<Frame, { t: 'move' }>): Action[] {
  const out: Action[] = [];
  // [13.9] a single unit may reface before it moves (then not at the end)
  if (!f.moved && f.units.length === 1) {
    const u = unit(s, f.units[0]!);
    if (!u.refaced) for (const c of conformationsFor(s, u)) if (c !== u.conf) out.push({ k: 'face', u: u.id, conf: c });
  }
  for (const o of moveSteps(s, f)) out.push({ k: 'to', area: o.to, mode: o.mode });
  out.push({ k: 'stop' });
  return out;
}

// ---------------------------------------------------------------------------------------------
// losses, leader casualties, rout
// ---------------------------------------------------------------------------------------------

export function lossUnits(s: EState, f: LossFrame): LossUnit[] {
  // the struck units: everyone of the side in the area, or the listed participants wherever they now are (an attacker
  // that advanced after a voluntary defender retreat takes its losses in the target [14.4 (b)])
  const us =
    f.only === null
      ? unitsAt(s, f.area, f.p)
      : s.units.filter(
          (u) =>
            alive(u) &&
            u.side === f.p &&
            (f.only!.includes(u.id) || (u.attachedTo !== null && f.only!.includes(u.attachedTo))),
        );
  const out: LossUnit[] = us.map((u) => {
    const longLeft = isLC(u) ? u.steps.slice(u.step).filter((x) => x.form === 'long').length : 0;
    return {
      id: u.id,
      kind: u.kind,
      long: isLC(u),
      longStepsLeft: longLeft,
      attachedTo: u.attachedTo,
      massedColumn: u.mc !== null,
      artilleryPark: unitDef(s, u.id).artilleryPark,
      stepsLeft: stepsLeft(u),
      lostNow: f.lostNow[u.id] ?? 0,
    };
  });
  const hq = s.hq[f.p];
  if (hq && !hq.lost && hq.area === f.area && f.only === null)
    out.push({ id: 'HQ', kind: 'hq', long: false, attachedTo: null, massedColumn: false, stepsLeft: 1, lostNow: 0 });
  return out;
}

function hitUnit(s: EState, f: LossFrame, id: string, log: Log): EState {
  const { ids, steps } = hitChoices(lossUnits(s, f), { counterBattery: f.cb, firstLoss: f.first });
  if (!ids.includes(id))
    throw new IllegalActionError('hit', `${id} may not take this hit (allowed: ${ids.join(', ')}) (A-42)`);
  if (id === 'HQ') {
    s = { ...s, hq: s.hq.map((h, i) => (i === f.p ? { area: null, lost: true } : h)) as unknown as EState['hq'] };
    ev(log, '9.54', `the ${s.ctx.scenario.sides[f.p].name} HQ, alone in area ${f.area}, is eliminated`);
  } else s = loseSteps(s, id, steps, log, f.rule);
  return replaceTop(s, {
    ...f,
    hits: f.hits - 1,
    first: false,
    lostNow: { ...f.lostNow, [id]: (f.lostNow[id] ?? 0) + steps },
  });
}

/** A loss frame with no decision left: apply forced hits, then end with leader casualty checks [3.2, 3.21]. */
function settleLoss(s: EState, f: LossFrame, log: Log): EState | null {
  if (f.hits > 0) {
    const { ids } = hitChoices(lossUnits(s, f), { counterBattery: f.cb, firstLoss: f.first });
    if (ids.length > 1) return null; // the owner chooses
    if (ids.length === 1) return hitUnit(s, f, ids[0]!, log);
    ev(
      log,
      '14.3',
      `${f.hits} hit${f.hits === 1 ? '' : 's'} on area ${f.area} cannot be taken and ${f.hits === 1 ? 'is' : 'are'} wasted`,
    );
  }
  s = pop(s);
  const lost = Object.values(f.lostNow).reduce((a, b) => a + b, 0);
  if (lost > 0) {
    const allGone = unitsAt(s, f.area, f.p).length === 0;
    const hqGone = f.lostNow.HQ !== undefined;
    for (const l of leadersAt(s, f.area, f.p).reverse()) {
      const role = leaderDef(s, l.id).role;
      const staff = role === 'chiefOfStaff' || role === 'staffOfficer';
      const mod = leaderCasualtyModifier({
        accompanying: !!f.escort?.includes(l.id),
        stepsLost: lost,
        allEliminated: allGone,
        hqEliminated: staff && hqGone,
      });
      s = push(s, { t: 'leaderCheck', l: l.id, mod, rule: staff ? '3.21' : '3.2' });
    }
  }
  return s;
}

function routMorale(s: EState, u: UnitState): number {
  return areaMoraleOf(s, u.side, u.area!, false) ?? 0;
}

/** Rout movement options [19.11, 19.13] (A-46) and continuing rout moves [13.25, 19.31]. */
function routOptions(s: EState, f: Extract<Frame, { t: 'routMove' }>): AreaId[] {
  const map = s.ctx.map;
  const u = unit(s, f.u);
  if (!alive(u)) return [];
  const at = u.area!;
  const legal = map.neighbours(at).filter((n) => {
    if (enemyUnitsIn(s, u.side, n) || s.hq[other(u.side)]?.area === n) return false;
    const b = map.boundary(at, n)!;
    if (b.kind === 'point' && b.corners.some((c) => enemyUnitsIn(s, u.side, c))) return false;
    const cost = entryCost(map, at, n, moveClass(u));
    if (cost === Infinity) return false;
    if (!f.initial && cost > (f.mp ?? 0)) return false;
    return fits(s, u.side, n, [u], f.initial);
  });
  const enemyAreas = s.units.filter((x) => x.side !== u.side && alive(x)).map((x) => x.area!);
  const from = f.initial ? f.attackers : enemyAreas;
  const dist = (a: AreaId) => (from.length ? Math.min(...from.map((x) => map.range(a, x))) : Infinity);
  const away = legal.filter((n) => dist(n) > dist(at));
  if (away.length || !f.initial || f.path.length < 2) return away;
  // after one area it may turn, if it does not end next to enemy units [19.11]
  return legal.filter((n) => !map.neighbours(n).some((x) => enemyUnitsIn(s, u.side, x)));
}

/** The router is eliminated where it stands, its rout move over: it leaves the map [19.23] or dissolves [19.13, 13.25]. */
function routerEliminated(
  s: EState,
  f: Extract<Frame, { t: 'routMove' }>,
  rule: string,
  text: string,
  log: Log,
): EState {
  const u = unit(s, f.u);
  ev(log, rule, `${unitDef(s, u.id).name} ${text} and is eliminated`);
  s = replaceTop(s, { ...f, left: 0 });
  s = loseSteps(s, u.id, stepsLeft(u), log, rule);
  return f.initial ? finishRoutMove(s, { ...f, left: 0 }, log) : pop(s);
}
/** [19.23] The router leaves the map and is eliminated (counted for victory); riding leaders stay at the edge. */
const routOffMap = (s: EState, f: Extract<Frame, { t: 'routMove' }>, log: Log): EState =>
  routerEliminated(s, f, '19.23', `routs off the map from area ${unit(s, f.u).area}`, log);

function routMoveGo(s: EState, f: Extract<Frame, { t: 'routMove' }>, area: AreaId, log: Log): EState {
  const u = unit(s, f.u);
  const cost = entryCost(s.ctx.map, u.area!, area, moveClass(u));
  s = updUnit(s, u.id, { area, conf: null, mp: u.mp + (f.initial ? 0 : cost) });
  ev(log, f.initial ? '19.11' : '13.25', `${unitDef(s, u.id).name} routs from area ${u.area} to area ${area}`);
  if (f.riders?.length)
    s = { ...s, leaders: s.leaders.map((l) => (f.riders!.includes(l.id) && l.status === 'on' ? { ...l, area } : l)) }; // [19.14]
  s = displaceLeaders(s, u.side, area, log);
  const nf = { ...f, left: f.left - 1, path: [...f.path, area], mp: f.mp === null ? null : f.mp - cost };
  // the displaced leaders' frames sit above the rout move; replace the rout frame in place
  const i = s.stack.lastIndexOf(f);
  const stack = s.stack.slice();
  stack[i] = nf;
  return { ...s, stack };
}

/** The rout move is over: conformation, then cascade checks where it passed [19.2, 19.21] (A-46). */
function finishRoutMove(s: EState, f: Extract<Frame, { t: 'routMove' }>, log: Log): EState {
  s = pop(s);
  const u = unit(s, f.u);
  if (alive(u)) {
    const confs = conformationsFor(s, u);
    if (confs.length) s = updUnit(s, u.id, { conf: confs[0]! }); // retreating and routing units may change facing [20.0]
  }
  if (!f.initial) return s;
  const frames: Frame[] = [];
  const ph = hasPhase(s) ? phaseOf(s) : null;
  const checked = ph ? [...ph.routChecked] : [];
  for (const area of f.path.slice(0, -1))
    for (const y of unitsAt(s, area, u.side)) {
      const x = y.ext !== null ? unit(s, y.ext.lc) : y; // a marker tests as its long counter [16.2]
      if (!alive(x) || x.routed || unitDef(s, x.id).elite || checked.includes(x.id)) continue; // elite, leaders and the HQ do not cascade [19.2]
      checked.push(x.id);
      frames.push({
        t: 'routCheck',
        u: x.id,
        mod: routModifier({ cascade: true, kind: x.kind }),
        cascade: true,
        attackers: f.attackers,
        retest: false,
      });
    }
  if (ph) s = updPhase(s, { routChecked: checked });
  return push(s, ...frames.reverse());
}

// ---------------------------------------------------------------------------------------------
// chance
// ---------------------------------------------------------------------------------------------

/** Exact distribution of hits from dice groups, each die hitting on a modified 6 (A-02). */
export function hitDistribution(dice: readonly { n: number; drm: number }[]): number[] {
  let dist = [1];
  for (const { n, drm } of dice) {
    const p = hitChance(drm);
    for (let i = 0; i < n; i++) {
      const next = new Array(dist.length + 1).fill(0);
      for (let k = 0; k < dist.length; k++) {
        next[k] += dist[k]! * (1 - p);
        next[k + 1] += dist[k]! * p;
      }
      dist = next;
    }
  }
  return dist;
}

function actionChance(s: EState, f: ActionFrame): ChanceOutcome<Action>[] {
  switch (f.t) {
    case 'roll': {
      const d = hitDistribution(f.dice);
      const total = f.dice.reduce((a, x) => a + x.n, 0);
      return d
        .map((p, n) => ({
          action: { k: 'c-hits', n } as Action,
          p,
          label: `${n} hit${n === 1 ? '' : 's'} of ${total} dice`,
        }))
        .filter((o) => o.p > 0);
    }
    case 'leaderCheck': {
      const p = leaderLossChance(f.mod);
      return [
        { action: { k: 'c-pass', ok: true }, p: 1 - p, label: 'the leader survives' },
        { action: { k: 'c-pass', ok: false }, p, label: 'the leader falls' },
      ].filter((o) => o.p > 0) as ChanceOutcome<Action>[];
    }
    case 'routCheck': {
      const u = unit(s, f.u);
      const p = holdChance(routMorale(s, u), f.mod);
      return [
        { action: { k: 'c-pass', ok: true }, p, label: `${unitDef(s, u.id).name} holds` },
        { action: { k: 'c-pass', ok: false }, p: 1 - p, label: `${unitDef(s, u.id).name} routs` },
      ].filter((o) => o.p > 0) as ChanceOutcome<Action>[];
    }
    case 'phase':
    case 'fire':
    case 'bomb':
    case 'move':
    case 'routMove':
    case 'displace':
    case 'loss':
      return []; // decisions or automatic
  }
}

// ---------------------------------------------------------------------------------------------
// applying actions
// ---------------------------------------------------------------------------------------------

function actionStep(s: EState, f: ActionFrame, a: Action, log: Log): EState {
  switch (f.t) {
    case 'phase':
      return phaseStep(s, f, a, log);
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
    case 'move':
      return moveStep(s, f, a, log);
    case 'routMove':
      if (a.k === 'goTo') return routMoveGo(s, f, a.area, log);
      if (a.k === 'stop') return finishRoutMove(s, f, log);
      if (a.k === 'escort') {
        ev(
          log,
          '19.14',
          `${leaderDef(s, a.l).name} goes with ${unitDef(s, f.u).name} (he will not help the cascade checks)`,
        );
        return replaceTop(s, { ...f, riders: [...(f.riders ?? []), a.l] });
      }
      if (a.k === 'routOff') return routOffMap(s, f, log);
      break;
    case 'displace':
      if (a.k === 'goTo') {
        s = pop(s);
        ev(log, '3.13', `${leaderDef(s, f.l).name} is displaced to area ${a.area}`);
        return { ...s, leaders: s.leaders.map((l) => (l.id === f.l ? { ...l, area: a.area } : l)) };
      }
      break;
    case 'loss':
      if (a.k === 'hit') return hitUnit(s, f, a.u, log);
      break;
    case 'roll':
      if (a.k === 'c-hits') {
        s = pop(s);
        ev(
          log,
          f.rule,
          `${f.why}: ${a.n} hit${a.n === 1 ? '' : 's'} from ${f.dice.map((d) => `${d.n}d6${d.drm ? (d.drm > 0 ? `+${d.drm}` : d.drm) : ''}`).join(' + ')}`,
        );
        const t = top(s)!;
        if (t.t === 'bomb' || t.t === 'charge') return replaceTop(s, { ...t, hits: a.n });
        // a Massed Column assault resolves like a charge [14.72]: defender's fire and losses, then the column's fire
        if (t.t === 'assault' && t.mc)
          return replaceTop(
            s,
            t.stage === 'rollD'
              ? { ...t, hitsD: a.n, stage: 'mcLoss' }
              : { ...t, hitsA: a.n, atk: 'stand', stage: 'defChoice' },
          );
        if (t.t === 'assault')
          return replaceTop(
            s,
            t.stage === 'rollA' ? { ...t, hitsA: a.n, stage: 'rollD' } : { ...t, hitsD: a.n, stage: 'atkChoice' },
          );
        throw new Error(`eagles-of-the-empire: a roll with no procedure waiting for it (${t.t})`);
      }
      break;
    case 'leaderCheck':
      if (a.k === 'c-pass') {
        s = pop(s);
        const d = leaderDef(s, f.l);
        if (a.ok) {
          ev(log, f.rule, `${d.name} survives the casualty check (2d6${f.mod ? `+${f.mod}` : ''} below 12)`);
          return s;
        }
        ev(log, f.rule, `${d.name} falls (2d6${f.mod ? `+${f.mod}` : ''} of 12 or more)`);
        return killLeader(s, f.l);
      }
      break;
    case 'routCheck':
      if (a.k === 'c-pass') {
        s = pop(s);
        const u = unit(s, f.u);
        const name = unitDef(s, u.id).name;
        if (f.retest) {
          ev(log, '19.3', a.ok ? `${name} recovers from its rout` : `${name} stays routed`);
          return a.ok ? updUnit(s, u.id, { routed: false }) : s;
        }
        if (a.ok) {
          ev(log, f.cascade ? '19.21' : '19.1', `${name} holds`);
          return s;
        }
        ev(log, f.cascade ? '19.21' : '19.1', `${name} routs`);
        s = updUnit(s, u.id, { routed: true, square: false });
        // [19.12] attached artillery of a routing unit is eliminated
        for (const x of s.units.filter((x) => x.attachedTo === u.id && !x.eliminated)) {
          s = loseSteps(updUnit(s, x.id, { attachedTo: null }), x.id, stepsLeft(x), log, '19.12');
        }
        // [19.22] artillery other than horse artillery that routs is eliminated
        if (u.kind === 'artillery' && artKind(s, u) !== 'horse') return loseSteps(s, u.id, stepsLeft(u), log, '19.22');
        return push(s, {
          t: 'routMove',
          p: u.side,
          u: u.id,
          left: 2,
          path: [u.area!],
          attackers: f.attackers,
          initial: true,
          mp: null,
        });
      }
      break;
    case 'bomb':
      break; // automatic
  }
  throw new IllegalActionError(a.k, `not an action at this point (${f.t})`);
}

function markDone(s: EState, f: PhaseFrame, id: string): EState {
  return replaceTop(s, { ...f, done: [...(f.done ?? []), id] });
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
    case 'fire':
      return push(s, { t: 'fire', p: f.p, from: unit(s, a.u).area!, to: a.to, units: [a.u] });
    case 'mvUnit': {
      const u = unit(s, a.u);
      if (!movers(s, f.p).includes(u)) throw new IllegalActionError('mvUnit', `${a.u} cannot move now`);
      return push(s, {
        t: 'move',
        p: f.p,
        units: [u.id],
        leaders: [],
        hq: false,
        at: u.area!,
        moved: false,
        road: roadOf(s, [u]),
      });
    }
    case 'massedColumn': {
      if (!massedColumnOptions(s, f.p).some((x) => x.k === 'massedColumn' && x.u === a.u && x.target === a.target))
        throw new IllegalActionError(
          'massedColumn',
          `${a.u} cannot declare a Massed Column against area ${a.target} now [14.7]`,
        );
      const u = unit(s, a.u);
      ev(log, '14.7', `${unitDef(s, a.u).name} declares a Massed Column against area ${a.target} and moves up`);
      s = updUnit(s, a.u, { mc: a.target });
      return push(s, {
        t: 'move',
        p: f.p,
        units: [u.id],
        leaders: [],
        hq: false,
        at: u.area!,
        moved: false,
        road: roadOf(s, [u]),
      });
    }
    case 'mvStack': {
      const us = movers(s, f.p).filter((u) => u.area === a.area);
      return push(s, {
        t: 'move',
        p: f.p,
        units: us.map((u) => u.id),
        leaders: [],
        hq: false,
        at: a.area,
        moved: false,
        road: roadOf(s, us),
      });
    }
    case 'mvLeader':
      return push(s, {
        t: 'move',
        p: f.p,
        units: [],
        leaders: [a.l],
        hq: false,
        at: s.leaders.find((l) => l.id === a.l)!.area!,
        moved: false,
        road: null,
      });
    case 'mvWithLeader': {
      if (!moverOptions(s, f.p).some((x) => x.k === 'mvWithLeader' && x.u === a.u && x.l === a.l))
        throw new IllegalActionError('mvWithLeader', `${a.l} cannot move with ${a.u} now [13.24]`);
      const u = unit(s, a.u);
      ev(log, '13.24', `${leaderDef(s, a.l).name} moves with ${unitDef(s, a.u).name}: +1 MA`);
      return push(s, {
        t: 'move',
        p: f.p,
        units: [u.id],
        leaders: [a.l],
        hq: false,
        at: u.area!,
        moved: false,
        road: roadOf(s, [u]),
        boost: true,
      });
    }
    case 'mvHq':
      return push(s, {
        t: 'move',
        p: f.p,
        units: [],
        leaders: [],
        hq: true,
        at: s.hq[f.p]!.area!,
        moved: false,
        road: null,
      });
    case 'square': {
      for (const u of unitsAt(s, a.area, f.p).filter((x) => x.kind === 'infantry'))
        s = updUnit(s, u.id, { square: a.on, mp: u.mp + 1 });
      ev(
        log,
        a.on ? '17.11' : '17.16',
        `${s.ctx.scenario.sides[f.p].name} infantry in area ${a.area} ${a.on ? 'form' : 'leave'} square (1 MP)`,
      );
      return s;
    }
    case 'extend':
      if (!lineOptions(s, f.p).some((x) => x.k === 'extend' && x.u === a.u && x.to.join() === a.to.join()))
        throw new IllegalActionError(
          'extend',
          `${a.u} cannot extend into area${a.to.length > 1 ? 's' : ''} ${a.to.join(' and ')} now [16.0]`,
        );
      return applyExtend(s, a, log);
    case 'retract':
      if (!lineOptions(s, f.p).some((x) => x.k === 'retract' && x.u === a.u && x.into === a.into))
        throw new IllegalActionError('retract', `${a.u} cannot retract its line into area ${a.into} now [16.0]`);
      return applyRetract(s, a, log);
    case 'reverseSlope': {
      if (!reverseSlopeOptions(s, f.p).some((x) => x.k === 'reverseSlope' && x.u === a.u && x.on === a.on))
        throw new IllegalActionError(
          'reverseSlope',
          `${a.u} cannot ${a.on ? 'enter' : 'leave'} reverse slope now [17.21]`,
        );
      const u = unit(s, a.u);
      s = updUnit(s, a.u, { rs: a.on, mp: u.mp + 1 });
      for (const x of s.units) if (x.attachedTo === a.u && !x.eliminated) s = updUnit(s, x.id, { rs: a.on }); // [17.21]
      ev(
        log,
        a.on ? '17.21' : '17.24',
        `${unitDef(s, a.u).name} ${a.on ? 'takes up' : 'leaves'} reverse slope defence in area ${u.area} (1 MP)`,
      );
      return s;
    }
    case 'assault':
      return entry('assault').start(s, f, a.target, log);
    default:
      throw new IllegalActionError(a.k, `not an action in the ${f.seg} segment`);
  }
}

function moveStep(s: EState, f: Extract<Frame, { t: 'move' }>, a: Action, log: Log): EState {
  if (a.k === 'face') {
    ev(log, '13.9', `${unitDef(s, a.u).name} refaces to ${a.conf}`);
    return updUnit(s, a.u, { conf: a.conf, refaced: true });
  }
  if (a.k === 'to') {
    const opt = moveSteps(s, f).find((o) => o.to === a.area && o.mode === a.mode);
    if (!opt) throw new IllegalActionError('to', `the group cannot enter area ${a.area} by ${a.mode} now`);
    for (const id of f.units) {
      const line = lineOf(s, unit(s, id));
      if (line !== null) s = spendLine(s, line, opt.cost, [id]); // one MP budget for the whole line (A-32)
      s = updUnit(s, id, { area: a.area, mp: unit(s, id).mp + opt.cost, square: false });
      for (const x of s.units.filter((y) => y.attachedTo === id && !y.eliminated)) {
        if (entryCost(s.ctx.map, f.at, a.area, 'artillery') === Infinity) {
          // [11.27] the boundary is closed to artillery: it detaches and stays behind
          s = updUnit(s, x.id, { attachedTo: null });
          ev(log, '11.27', `${unitDef(s, x.id).name} cannot cross into area ${a.area} and detaches`);
        } else s = updUnit(s, x.id, { area: a.area });
      }
    }
    if (f.leaders.length) {
      const lm = { ...s.leaderMp };
      for (const l of f.leaders) lm[l] = (lm[l] ?? 0) + opt.cost;
      s = {
        ...s,
        leaders: s.leaders.map((l) => (f.leaders.includes(l.id) ? { ...l, area: a.area } : l)),
        leaderMp: lm,
      };
    }
    if (f.hq) {
      const hm: [number, number] = [s.hqMp[0], s.hqMp[1]];
      hm[f.p] += opt.cost;
      s = {
        ...s,
        hq: s.hq.map((h, i) => (i === f.p ? { ...h!, area: a.area } : h)) as unknown as EState['hq'],
        hqMp: hm,
      };
    }
    const who = [
      ...f.units.map((id) => unitDef(s, id).name),
      ...f.leaders.map((l) => leaderDef(s, l).name),
      ...(f.hq ? ['the HQ'] : []),
    ].join(', ');
    ev(
      log,
      a.mode === 'normal' ? '13.1' : '13.31',
      `${who} ${a.mode === 'normal' ? 'moves' : `moves by ${a.mode}`} from area ${f.at} to area ${a.area} (${opt.cost} MP)`,
    );
    let nf: Frame = { ...f, at: a.area, moved: true };
    s = replaceTop(s, nf);
    // [13.71] a long counter entering a circle area that already holds one must stop
    const area = s.ctx.map.area(a.area);
    const lcs = f.units.map((id) => unit(s, id)).filter(isLC);
    if (
      lcs.length &&
      area.stack.class !== 'normal' &&
      area.stack.class !== 'town' &&
      unitsAt(s, a.area, f.p).filter((u) => isLC(u) && !f.units.includes(u.id)).length
    ) {
      ev(log, '13.71', `a long counter entering area ${a.area}, which already holds one, must stop`);
      s = finishMove(s, nf as Extract<Frame, { t: 'move' }>, log);
      return displaceLeaders(s, f.p, a.area, log);
    }
    return f.units.length ? displaceLeaders(s, f.p, a.area, log) : s;
  }
  if (a.k === 'stop') return finishMove(s, f, log);
  throw new IllegalActionError(a.k, 'not an action while moving');
}

/** End of a move: the move is spent; facing at the end unless it refaced at the start [13.9]; joining a square [17.17]. */
function finishMove(s: EState, f: Extract<Frame, { t: 'move' }>, log: Log): EState {
  s = pop(s);
  for (const id of f.units) s = updUnit(s, id, { moveDone: true });
  for (const l of f.leaders) s = { ...s, leaders: s.leaders.map((x) => (x.id === l ? { ...x, moved: true } : x)) };
  if (f.hq) s = { ...s, hqMoved: [f.p === 0 || s.hqMoved[0], f.p === 1 || s.hqMoved[1]] };
  // [17.17] (A-44) infantry stopping where its side is in square joins the square, at no cost
  const inSq = unitsAt(s, f.at, f.p).some((u) => u.square && !f.units.includes(u.id));
  for (const id of f.units) if (inSq && unit(s, id).kind === 'infantry') s = updUnit(s, id, { square: true });
  for (const id of f.units) {
    const u = unit(s, id);
    if (u.mc === null) continue;
    // [14.7] (A-41) the column ends adjacent to its target with its front toward it, or the declaration lapses
    const map = s.ctx.map;
    const confs = conformationsFor(s, u);
    const front = confs.filter((c) => map.facingOrNull(u.area!, c, u.mc!) === 'front');
    if (!map.sideNeighbours(u.area!).includes(u.mc) || (confs.length && !front.length)) {
      ev(log, '14.7', `${unitDef(s, id).name} did not reach area ${u.mc} facing it: the Massed Column lapses (A-41)`);
      s = updUnit(s, id, { mc: null });
    } else if (front.length)
      s = updUnit(s, id, { conf: u.conf !== null && front.includes(u.conf) ? u.conf : front[0]! });
  }
  if (!f.moved) return s;
  const frames: Frame[] = [];
  for (const id of f.units) {
    const u = unit(s, id);
    const confs = conformationsFor(s, u);
    if (u.mc !== null) continue; // faced above
    if (!confs.length) {
      if (u.conf !== null) s = updUnit(s, id, { conf: null });
      continue;
    }
    if (u.refaced && u.conf !== null && confs.includes(u.conf)) continue;
    frames.push({ t: 'face', p: f.p, u: id });
  }
  void log;
  return push(s, ...frames.reverse());
}

// ---------------------------------------------------------------------------------------------
// automatic continuation
// ---------------------------------------------------------------------------------------------

/** Advance automatic frames; null when the top frame awaits a decision or a chance outcome. */
function actionSettle(s: EState, f: ActionFrame, log: Log): EState | null {
  switch (f.t) {
    case 'phase':
      // a Grand Charge's phase ends with its charge [10.8]; [8.14] a segment with nothing to do passes by itself
      if (f.grand) return pop(s);
      if (segmentActions(s, f).length === 0) return nextSegment(s, f, log);
      return null;
    case 'fire':
    case 'displace':
      return null;
    case 'move':
      return null;
    case 'routMove': {
      const u = unit(s, f.u);
      if (!alive(u)) return pop(s);
      if (f.initial && f.left <= 0) return finishRoutMove(s, f, log);
      const opts = routOptions(s, f);
      if (opts.length) return null;
      if ((f.initial || f.path.length === 1) && s.ctx.map.isEdge(u.area!)) return routOffMap(s, f, log); // [19.23] nowhere to go on the map: off it
      // [19.13] unable to complete its rout move; [13.25] no move away from the enemy: it dissolves
      if (f.initial || f.path.length === 1)
        return routerEliminated(
          s,
          f,
          f.initial ? '19.13' : '13.25',
          `cannot ${f.initial ? 'complete its rout move' : 'move away from the enemy'}`,
          log,
        );
      return finishRoutMove(s, f, log);
    }
    case 'loss':
      return settleLoss(s, f, log);
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
    case 'roll':
    case 'leaderCheck':
    case 'routCheck':
      return null; // chance
  }
}

register(KINDS, {
  decider: frameDecider,
  legal: actionLegal,
  chance: actionChance,
  step: actionStep,
  settle: actionSettle,
});
