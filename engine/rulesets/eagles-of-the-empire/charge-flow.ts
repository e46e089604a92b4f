/**
 * The Cavalry Charge Segment's procedure [10.0–10.94, 17.12] as a frame on the stack: the attacker picks the charging
 * cavalry of one area and the leaders who ride with them (A-14); the defender may try square under duress [10.24,
 * 17.12]; the defender fires first, natural sixes, the attacker allocating [10.2, 10.23] (A-04, A-16); the surviving
 * cavalry fire with their modifiers [10.21, 10.22, 10.24]; success or repulse [10.4, 10.5] (A-17): on success every unit
 * in the target retreats and the cavalry occupy it, then pursuit [10.9–10.94] (A-20); on repulse the defenders fire
 * again [10.51] (A-19) and the cavalry fall back past their origin [10.52]. Rout checks close it [19.0].
 *
 * A Grand Charge [10.8] (grand-charge.ts) runs through the same frame: cavalry from several origins, +1 on all attack
 * dice [10.82], no pursuit, and after success the choice to continue or return [10.83] (A-21).
 * The Cavalry Charge Segment (action.ts) and the Grand Charge reach this procedure through its frame and entry
 * (procedures.ts), not by importing it; the retreats it forces are retreat-flow.ts's frames.
 */
import { IllegalActionError } from '../../core/game.ts';
import type { AreaId } from '../../areas/map.ts';
import { retreatGroup as retreatGroupInto } from './retreat-flow.ts';
import { chargeLanes, chargeStepBan, chargeSucceeds, continueTarget } from './charge.ts';
import { squareAllowed } from './stances.ts';
import { pursuit, repulseFireDice } from './tables.ts';
import type { Action, ChargeFrame, EState, Frame, PhaseFrame, Side, UnitState } from './types.ts';
import { type Log, ev, inCommand, pop, push, replaceTop, updUnit } from './state.ts';
import { displaceLeaders, loseSteps, pushRoutChecksFor } from './casualties.ts';
import type { Handlers } from '../../core/procedure.ts';
import { provide, staged } from './procedures.ts';
import {
  alive,
  isActive,
  laneWorld,
  leaderDef,
  leadersAt,
  spOf,
  stepsLeft,
  unit,
  unitDef,
  unitsAt,
  other,
} from './world.ts';
import {
  defenders,
  chargers,
  pursuitOdds,
  heavyOptional,
  chargeChance,
  defenceDice,
  attackDice,
  squareRollTarget,
} from './charge-dice.ts';

/** Cavalry that may charge [10.0, 10.7, 10.71]: active, in command, not routed, no combat yet this turn. */
function mayCharge(s: EState, p: Side): UnitState[] {
  return s.units.filter(
    (u) =>
      u.side === p &&
      alive(u) &&
      u.kind === 'cavalry' &&
      !u.routed &&
      u.acted === null &&
      !u.moveDone &&
      isActive(s, u) &&
      inCommand(s, u.id),
  );
}

/** The Cavalry Charge Segment's choices: each origin area of cavalry that may charge, with its open lanes [10.0, 10.1]. */
function chargeOptions(s: EState, p: Side): { area: AreaId; target: AreaId; via: AreaId }[] {
  const areas = [...new Set(mayCharge(s, p).map((u) => u.area!))].sort((a, b) => a - b);
  const out: { area: AreaId; target: AreaId; via: AreaId }[] = [];
  const w = laneWorld(s, p);
  for (const area of areas) for (const l of chargeLanes(w, area)) out.push({ area, target: l.target, via: l.via });
  return out;
}

function startCharge(s: EState, f: PhaseFrame, origin: AreaId, via: AreaId, target: AreaId, log: Log): EState {
  ev(
    log,
    '10.0',
    `${s.ctx.scenario.sides[f.p].name} cavalry in area ${origin} charge area ${target} through area ${via}`,
  );
  return push(s, blank(f.p, origin, via, target, false, [], [], []));
}

/** A launched Grand Charge [10.8]: the named cavalry, each from its own origin, through `via` at `target`. */
function startGrandCharge(
  s: EState,
  p: Side,
  main: AreaId,
  via: AreaId,
  target: AreaId,
  units: string[],
  escort: string[],
  origins: Record<string, AreaId>,
): EState {
  const f: ChargeFrame = {
    ...blank(p, main, via, target, false, units, escort, []),
    grand: { origins, bonus: true, continued: false },
  };
  return push(s, begin(s, f));
}

function blank(
  p: Side,
  origin: AreaId,
  via: AreaId | null,
  target: AreaId,
  pursuitCharge: boolean,
  units: string[],
  escort: string[],
  noFire: string[],
): ChargeFrame {
  return {
    t: 'charge',
    p,
    origin,
    via,
    target,
    units,
    escort,
    stage: pursuitCharge ? 'squareCheck' : 'gather',
    failedSquare: false,
    defSp0: 0,
    def0: {},
    cav0: {},
    pursuit: pursuitCharge,
    noFire,
    withHeavy: [],
    die: null,
    defIds: [],
    hits: null,
  };
}

const eligibleCav = (s: EState, f: ChargeFrame, chargers: readonly UnitState[]) =>
  chargers.filter((u) => u.area === f.origin && !f.units.includes(u.id));

function chargeDecider(f: ChargeFrame): Side | null {
  switch (f.stage) {
    case 'gather':
    case 'pursuitChoice':
    case 'pursuitHeavy':
    case 'advanceChoice':
    case 'gcAfter':
      return f.p;
    case 'squareAsk':
      return other(f.p);
    default:
      return null;
  }
}

function chargeLegal(s: EState, f: ChargeFrame, chargers: readonly UnitState[]): Action[] {
  switch (f.stage) {
    case 'gather': {
      const order = (id: string) => s.units.findIndex((x) => x.id === id);
      const last = f.units.length ? Math.max(...f.units.map(order)) : -1;
      const acts: Action[] = eligibleCav(s, f, chargers)
        .filter((u) => order(u.id) > last)
        .map((u) => ({ k: 'join', u: u.id }));
      // leaders present may ride with them (A-14), chosen after the units
      if (f.units.length) {
        for (const l of leadersAt(s, f.origin, f.p)) {
          const d = leaderDef(s, l.id);
          if (
            f.escort.includes(l.id) ||
            d.role === 'chiefOfStaff' ||
            d.role === 'staffOfficer' ||
            d.role === 'lineOfficer'
          )
            continue;
          if (
            f.escort.length &&
            s.leaders.findIndex((x) => x.id === l.id) <=
              Math.max(...f.escort.map((e) => s.leaders.findIndex((x) => x.id === e)))
          )
            continue;
          acts.push({ k: 'escort', l: l.id });
        }
        acts.push({ k: 'resolve' });
      }
      return acts;
    }
    case 'squareAsk':
      return [{ k: 'square', area: f.target, on: true }, { k: 'stand' }];
    case 'pursuitChoice':
      // add or subtract the senior leader's rating, or apply nothing [10.91]
      return pursuitOdds(s, f).tactical === 0
        ? [{ k: 'pursue', sign: 0 }]
        : [
            { k: 'pursue', sign: 0 },
            { k: 'pursue', sign: 1 },
            { k: 'pursue', sign: -1 },
          ];
    case 'pursuitHeavy': {
      const acts: Action[] = heavyOptional(s, f).map((u) => ({ k: 'join', u: u.id }));
      acts.push({ k: 'resolve' });
      return acts;
    }
    case 'advanceChoice':
      return [{ k: 'advance', u: '*' }, { k: 'stop' }];
    case 'gcAfter':
      // [10.83] continue along the line behind the target, or return to the origins
      return gcBehind(s, f) === null
        ? [{ k: 'gcAfter', mode: 'return' }]
        : [
            { k: 'gcAfter', mode: 'return' },
            { k: 'gcAfter', mode: 'continue' },
          ];
    default:
      return [];
  }
}

function chargeStep(s: EState, f: ChargeFrame, a: Action, chargersNow: readonly UnitState[], log: Log): EState {
  switch (a.k) {
    case 'join':
      if (f.stage === 'gather' && eligibleCav(s, f, chargersNow).some((u) => u.id === a.u))
        return replaceTop(s, { ...f, units: [...f.units, a.u] });
      if (f.stage === 'pursuitHeavy' && heavyOptional(s, f).some((u) => u.id === a.u))
        return replaceTop(s, { ...f, withHeavy: [...f.withHeavy, a.u] });
      break;
    case 'escort':
      if (f.stage === 'gather') return replaceTop(s, { ...f, escort: [...f.escort, a.l] });
      break;
    case 'resolve':
      if (f.stage === 'gather' && f.units.length) {
        for (const id of f.units) s = updUnit(s, id, { acted: 'charge' }); // [10.7]
        ev(
          log,
          '10.1',
          `charging: ${f.units.map((id) => unitDef(s, id).name).join(', ')}${f.escort.length ? ` with ${f.escort.map((l) => leaderDef(s, l).name).join(', ')}` : ''}`,
        );
        return replaceTop(s, begin(s, f));
      }
      if (f.stage === 'pursuitHeavy') return launchPursuit(s, f, log);
      break;
    case 'square':
      if (f.stage === 'squareAsk') return replaceTop(s, { ...f, stage: 'squareRoll' });
      break;
    case 'stand':
      if (f.stage === 'squareAsk') return replaceTop(s, { ...f, stage: 'defFire' });
      break;
    case 'c-pass':
      if (f.stage === 'squareRoll') {
        const o = other(f.p);
        const t = squareRollTarget(s, f);
        if (a.ok) {
          for (const u of defenders(s, f)) if (u.kind === 'infantry') s = updUnit(s, u.id, { square: true });
          ev(
            log,
            '17.12',
            `the ${s.ctx.scenario.sides[o].name} infantry in area ${f.target} forms square under duress (d6 ≤ ${t})`,
          );
          return replaceTop(s, { ...f, stage: 'defFire' });
        }
        ev(
          log,
          '10.25',
          `the ${s.ctx.scenario.sides[o].name} infantry in area ${f.target} fails to form square (d6 above ${t}) and is disordered (+1 to the charge)`,
        );
        return replaceTop(s, { ...f, stage: 'defFire', failedSquare: true });
      }
      break;
    case 'c-die':
      if (f.stage === 'pursuitRoll') return replaceTop(s, { ...f, die: a.face, stage: 'pursuitChoice' });
      break;
    case 'pursue': {
      if (f.stage !== 'pursuitChoice') break;
      const { tactical: t, morale } = pursuitOdds(s, f);
      const r = pursuit(f.die!, t, morale);
      const go = a.sign === 1 ? r.add : a.sign === -1 ? r.subtract : r.none;
      ev(
        log,
        '10.91',
        `pursuit roll ${f.die}${a.sign ? (a.sign > 0 ? ` + ${t}` : ` − ${t}`) : ''} against morale ${morale}: ${go ? 'they pursue' : 'no pursuit'}`,
        [f.die!],
      );
      if (!go) return replaceTop(s, { ...f, stage: 'rout' });
      return replaceTop(s, { ...f, stage: heavyOptional(s, f).length ? 'pursuitHeavy' : 'pursuitGo' });
    }
    case 'advance':
      if (f.stage === 'advanceChoice') {
        // [10.94] the pursuers advance into the vacated area
        for (const u of chargers(s, f)) s = updUnit(s, u.id, { area: f.target, conf: null });
        s = moveEscort(s, f, f.target);
        ev(log, '10.94', `the pursuers advance into area ${f.target}`);
        s = eliminateLeftBehind(s, f, log);
        return displaceLeaders(replaceTop(s, { ...f, stage: 'rout' }), f.p, f.target, log);
      }
      break;
    case 'stop':
      if (f.stage === 'advanceChoice') return replaceTop(s, { ...f, stage: 'rout' });
      break;
    case 'gcAfter': {
      if (f.stage !== 'gcAfter' || !f.grand) break;
      s = replaceTop(s, { ...f, stage: 'rout' });
      if (a.mode === 'return') {
        // [10.83 (b)] every surviving unit returns to the area it was launched from
        for (const u of chargers(s, f)) s = updUnit(s, u.id, { area: f.grand.origins[u.id]!, conf: null });
        s = moveEscort(s, f, f.origin);
        ev(log, '10.83', 'the Grand Charge returns to its starting areas');
        return s;
      }
      const next = gcBehind(s, f);
      if (next === null) break;
      ev(log, '10.83', `the Grand Charge continues into area ${next} (A-21: a new charge without the +1)`);
      const nf: ChargeFrame = {
        ...blank(
          f.p,
          f.target,
          null,
          next,
          false,
          chargers(s, f).map((u) => u.id),
          f.escort.filter((l) => s.leaders.find((x) => x.id === l)!.area === f.target),
          [],
        ),
        grand: { origins: f.grand.origins, bonus: false, continued: true },
      };
      return push(s, begin(s, nf));
    }
    default:
      break;
  }
  throw new IllegalActionError(a.k, `not an action at this point of the charge (${f.stage})`);
}

function begin(s: EState, f: ChargeFrame): ChargeFrame {
  const ds = defenders(s, f);
  return {
    ...f,
    stage: 'squareCheck',
    defSp0: ds.reduce((t, u) => t + spOf(u), 0),
    def0: Object.fromEntries(ds.map((u) => [u.id, stepsLeft(u)])),
    cav0: Object.fromEntries(chargers(s, f).map((u) => [u.id, stepsLeft(u)])),
    defIds: ds.map((u) => u.id),
  };
}

/** The area a successful Grand Charge may continue into [10.83] (A-21). */
function gcBehind(s: EState, f: ChargeFrame): AreaId | null {
  if (!f.grand || f.grand.continued || f.via === null || !chargers(s, f).length) return null;
  return continueTarget(laneWorld(s, f.p), f.via, f.target);
}

function moveEscort(s: EState, f: ChargeFrame, area: AreaId): EState {
  return { ...s, leaders: s.leaders.map((l) => (f.escort.includes(l.id) && l.status === 'on' ? { ...l, area } : l)) };
}

/** Enemy artillery and HQ left in an area the cavalry occupy are eliminated [20.2, 20.3]. */
function eliminateLeftBehind(s: EState, f: ChargeFrame, log: Log): EState {
  const o = other(f.p);
  for (const x of unitsAt(s, f.target, o)) s = loseSteps(s, x.id, stepsLeft(x), log, '20.2');
  const hq = s.hq[o];
  if (hq && !hq.lost && hq.area === f.target) {
    s = { ...s, hq: s.hq.map((h, i) => (i === o ? { area: null, lost: true } : h)) as unknown as EState['hq'] };
    ev(log, '20.3', `the ${s.ctx.scenario.sides[o].name} HQ is overrun and eliminated`);
  }
  return s;
}

function launchPursuit(s: EState, f: ChargeFrame, log: Log): EState {
  // all surviving non-heavy cavalry, and the heavy that chose to, pursue into the area the defenders retreated to [10.91]
  const pursuers = chargers(s, f).filter((u) => unitDef(s, u.id).cavClass !== 'heavy' || f.withHeavy.includes(u.id));
  const dest = retreatDestination(s, f);
  s = replaceTop(s, { ...f, stage: 'rout' });
  if (dest === null || !pursuers.length || !unitsAt(s, dest, other(f.p)).length) {
    ev(log, '10.9', 'there is no one left to pursue');
    return s;
  }
  // [10.92] never into an area a charge may not enter [10.0] (checked before the roll too; see 'occupy')
  if (pursuitBarred(s, f, dest, log)) return s;
  ev(log, '10.91', `${pursuers.map((u) => unitDef(s, u.id).name).join(', ')} pursue into area ${dest}`);
  const retreated = f.defIds.filter((id) => alive(unit(s, id)) && unit(s, id).area === dest);
  const pf = blank(
    f.p,
    f.target,
    null,
    dest,
    true,
    pursuers.map((u) => u.id),
    f.escort.filter((l) => s.leaders.find((x) => x.id === l)!.area === f.target),
    retreated,
  );
  return push(s, { ...begin(s, pf), stage: 'squareCheck' });
}

/**
 * [10.92] a pursuit enters the adjacent area the defenders retreated to "regardless of movement point cost unless the
 * terrain is prohibited [10.0]", and all other charge rules apply: the step from the target into it must pass the very
 * check every step of a charge lane passes (town, village, woods, swamp; escarpment, slope uphill; a diagonal's corners
 * [13.11], A-14). True (with an event citing the rules) when it does not: there is no pursuit.
 */
function pursuitBarred(s: EState, f: ChargeFrame, dest: AreaId, log: Log): boolean {
  const ban = chargeStepBan(laneWorld(s, f.p), f.target, dest);
  if (ban) ev(log, '10.92', `no pursuit into area ${dest}: ${ban.why} [${ban.rule}]`);
  return ban !== null;
}

function retreatDestination(s: EState, f: ChargeFrame): AreaId | null {
  const counts = new Map<AreaId, number>();
  for (const id of f.defIds) {
    const u = unit(s, id);
    if (alive(u) && !u.routed && u.area !== f.target) counts.set(u.area!, (counts.get(u.area!) ?? 0) + 1);
  }
  let best: AreaId | null = null;
  for (const [a, n] of counts) if (best === null || n > counts.get(best)!) best = a;
  return best;
}

/** Automatic stages. */
function chargeSettle(s: EState, f: ChargeFrame, log: Log): EState | null {
  const o = other(f.p);
  switch (f.stage) {
    case 'squareCheck': {
      const ds = defenders(s, f);
      const inf = ds.filter((u) => u.kind === 'infantry' && !u.routed);
      const can =
        inf.length > 0 &&
        !inf.some((u) => u.square) &&
        squareAllowed(
          ds.map((u) => ({ kind: u.kind, sp: spOf(u), routed: u.routed, extended: u.xsp !== null })), // [16.9]
          s.ctx.scenario.sides[o].allow.square,
        ).ok;
      return replaceTop(s, { ...f, stage: can ? 'squareAsk' : 'defFire' });
    }
    case 'defFire': {
      const n = defenceDice(s, f);
      s = replaceTop(s, { ...f, stage: 'defLoss', hits: null });
      if (n <= 0) return replaceTop(s, { ...f, stage: 'atkFire', hits: null });
      return push(s, {
        t: 'roll',
        dice: [{ n, drm: 0 }],
        why: `the defenders' fire at the charging cavalry`,
        rule: '10.2',
      });
    }
    case 'defLoss':
      s = replaceTop(s, { ...f, stage: 'atkFire' });
      return f.hits
        ? push(s, {
            t: 'loss',
            p: f.p,
            area: f.origin,
            hits: f.hits,
            cb: false,
            lostNow: {},
            first: true,
            rule: '10.3',
            only: f.units,
            escort: f.escort,
          })
        : s;
    case 'atkFire': {
      if (!chargers(s, f).length) {
        ev(log, '10.5', 'no charging cavalry survive the defensive fire');
        return replaceTop(s, { ...f, stage: 'rout' });
      }
      s = replaceTop(s, { ...f, stage: 'atkLoss', hits: null });
      const dice = attackDice(s, f);
      if (!dice.length) return replaceTop(s, { ...f, stage: 'result', hits: 0 });
      return push(s, { t: 'roll', dice, why: `the cavalry's charge on area ${f.target}`, rule: '10.2' });
    }
    case 'atkLoss':
      s = replaceTop(s, { ...f, stage: 'result' });
      return f.hits
        ? push(s, {
            t: 'loss',
            p: o,
            area: f.target,
            hits: f.hits,
            cb: false,
            lostNow: {},
            first: true,
            rule: '10.3',
            only: null,
          })
        : s;
    case 'result': {
      const after = f.defIds.reduce((t, id) => t + spOf(unit(s, id)), 0);
      const inflicted = f.defIds.reduce((t, id) => t + ((f.def0[id] ?? 0) - stepsLeft(unit(s, id))), 0);
      const cavLost = Object.entries(f.cav0).reduce((t, [id, n]) => t + (n - stepsLeft(unit(s, id))), 0);
      const ok = chargeSucceeds({
        defenderSpBefore: f.defSp0,
        defenderSpAfter: after,
        stepsInflicted: inflicted,
        cavalryStepsLost: cavLost,
      });
      if (ok) {
        ev(log, '10.4', `the charge succeeds: the defenders of area ${f.target} must retreat`);
        const frames: Frame[] = [];
        // foot artillery cannot retreat and the HQ is lost when the cavalry occupy the area [20.2, 20.3]
        s = retreatGroupInto(s, o, f.target, defenders(s, f), false, frames, log);
        s = replaceTop(s, { ...f, stage: 'occupy' });
        return push(s, ...frames.reverse());
      }
      if (f.pursuit) {
        ev(log, '10.94', 'the pursuit forces no retreat: the pursuers stay where they are');
        return replaceTop(s, { ...f, stage: 'rout' });
      }
      ev(log, '10.5', 'the charge is repelled');
      const n = repulseFireDice(defenders(s, f).map((u) => ({ kind: u.kind, sp: spOf(u), canFire: true })));
      s = replaceTop(s, { ...f, stage: 'repulseLoss', hits: null });
      if (n <= 0) return replaceTop(s, { ...f, stage: 'repulseBack' });
      return push(s, {
        t: 'roll',
        dice: [{ n, drm: 0 }],
        why: 'the defenders fire again at the repelled cavalry',
        rule: '10.51',
      });
    }
    case 'occupy': {
      if (f.pursuit)
        return replaceTop(s, {
          ...f,
          stage:
            unitsAt(s, f.target, o).some((u) => u.kind !== 'artillery') || !chargers(s, f).length
              ? 'rout'
              : 'advanceChoice',
        });
      // [10.4, 10.6] the charging cavalry must occupy the target
      for (const u of chargers(s, f)) s = updUnit(s, u.id, { area: f.target, conf: null });
      s = moveEscort(s, f, f.target);
      s = eliminateLeftBehind(s, f, log);
      ev(log, '10.6', `the cavalry occupy area ${f.target}`);
      // [10.9] a pursuit may follow a charge that made the defenders retreat; a Grand Charge has none (A-21) [10.83]
      if (f.grand) s = replaceTop(s, { ...f, stage: f.grand.continued || !chargers(s, f).length ? 'rout' : 'gcAfter' });
      else {
        // [10.92] a pursuit that may not enter the defenders' area is not rolled for [10.0]
        const dest = retreatDestination(s, f);
        s = replaceTop(s, {
          ...f,
          stage: dest === null || !chargers(s, f).length || pursuitBarred(s, f, dest, log) ? 'rout' : 'pursuitRoll',
        });
      }
      return displaceLeaders(s, f.p, f.target, log);
    }
    case 'pursuitGo':
      return launchPursuit(s, f, log);
    case 'repulseLoss':
      s = replaceTop(s, { ...f, stage: 'repulseBack' });
      return f.hits
        ? push(s, {
            t: 'loss',
            p: f.p,
            area: f.origin,
            hits: f.hits,
            cb: false,
            lostNow: {},
            first: true,
            rule: '10.51',
            only: f.units,
            escort: f.escort,
          })
        : s;
    case 'repulseBack': {
      // [10.52] back to the origin, then one more area (the attacker chooses)
      const frames: Frame[] = [];
      s = replaceTop(s, { ...f, stage: 'rout' });
      if (f.grand && !f.grand.continued) {
        // a repelled Grand Charge: each origin's cavalry fall back from their own area [10.52, 10.8]
        const groups = new Map<AreaId, UnitState[]>();
        for (const u of chargers(s, f)) groups.set(u.area!, [...(groups.get(u.area!) ?? []), u]);
        for (const [from, us] of groups) s = retreatGroupInto(s, f.p, from, us, false, frames, log);
      } else s = retreatGroupInto(s, f.p, f.origin, chargers(s, f), false, frames, log);
      return push(s, ...frames.reverse());
    }
    case 'rout': {
      s = pop(s);
      return pushRoutChecksFor(
        s,
        f.defIds.map((id) => unit(s, id)),
        [f.origin],
        { vsCharge: true },
      );
    }
    default:
      return null;
  }
}

/** A charge as the runtime plays it: the charging side gathers, the defender may form square, dice and results [10.0–10.94]. */
export const charges: Handlers<EState, ChargeFrame, Action> = {
  charge: staged<ChargeFrame>({
    decider: (_s, f) => chargeDecider(f),
    legal: (s, f) => chargeLegal(s, f, mayCharge(s, f.p)),
    chance: chargeChance,
    step: (s, f, a, log) => chargeStep(s, f, a, mayCharge(s, f.p), log),
    settle: chargeSettle,
  }),
};
provide('charge', { options: chargeOptions, start: startCharge, startGrand: startGrandCharge });
