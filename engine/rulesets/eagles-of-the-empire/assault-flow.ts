/**
 * The Assault Segment's procedure [14.0–14.5, 20.0–20.3] as a frame on the stack, in the order of A-38: the attacker
 * gathers eligible units against one target [14.1, 14.13, 14.6]; retreat before assault [14.11]; the defender picks
 * the attacking area it fires at [14.12]; both sides roll (simultaneous fire); the attacker, then the defender, stands
 * (a morale roll [14.41]) or retreats to reduce losses [14.4]; net losses are applied one hit at a time [14.3]; the
 * losers retreat [20.0]; the attacker may advance [14.5]; rout checks [19.0].
 *
 * Interpretation: when the defender retreats voluntarily the attacker's reduction depends on whether it advances
 * [14.4 (b)], so the attacker's losses are applied after the advance decision.
 * Massed Column assaults [14.72–14.78] (A-41) run through the same frame with the stage `mcLoss`: the defender fires
 * first and its hits land before the column fires. Parts of an extended line attack and defend as long counters [16.0].
 * The losers' retreats are retreat-flow.ts's frames; the Assault Segment (action.ts) reaches this procedure through its
 * frame and entry (procedures.ts), not by importing it.
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { IllegalActionError } from '../../core/game.ts';
import type { AreaId } from '../../areas/map.ts';
import { entryCost, type MoveClass } from './movement.ts';
import { holdChance } from './retreat.ts';
import { lineAllows } from './lines.ts';
import type { Action, AssaultFrame, EState, Frame, PhaseFrame, Side, UnitState } from './types.ts';
import { type Log, ev, inCommand, phaseOf, pop, push, replaceTop, updPhase, updUnit } from './state.ts';
import { displaceLeaders, loseSteps, pushRoutChecksFor } from './casualties.ts';
import { canRetreat, retreatGroup } from './retreat-flow.ts';
import type { Handlers } from '../../core/procedure.ts';
import { provide, staged } from './procedures.ts';
import { alive, conformationsFor, fits, isActive, isLC, stepsLeft, unit, unitDef, unitsAt, other } from './world.ts';
import {
  areasOf,
  defenders,
  struck,
  defenderInCommand,
  moraleOfGroup,
  attackerDice,
  defenderDice,
  combinedArms,
} from './assault-dice.ts';

/** Units that may assault `target` [14.1, 14.6, 14.61, 14.62, 14.65, 14.66, 12.64, 15.11]. */
function attackers(s: EState, p: Side, target: AreaId): UnitState[] {
  const map = s.ctx.map;
  return s.units.filter((u) => {
    if (u.side !== p || !alive(u) || u.routed || u.square || u.acted !== null || u.kind === 'artillery') return false;
    if (!isActive(s, u) || !inCommand(s, u.id)) return false;
    const b = map.boundary(u.area!, target);
    if (!b || b.kind !== 'side') return false; // adjacent by a side [14.61]
    if (entryCost(map, u.area!, target, u.kind as MoveClass) === Infinity) return false;
    if (isLC(u) && map.facingOf(u.area!, u.conf, target) !== 'front') return false; // [14.62]
    return true;
  });
}

/** Enemy areas that may be assaulted now: once per segment each [14.64]. */
function assaultTargets(s: EState, p: Side): AreaId[] {
  const ph = phaseOf(s);
  const set = new Set<AreaId>();
  for (const u of s.units) if (u.side !== p && alive(u)) set.add(u.area!);
  const hq = s.hq[other(p)];
  if (hq && !hq.lost && hq.area !== null) set.add(hq.area);
  return [...set].filter((a) => !ph.assaulted.includes(a) && attackers(s, p, a).length > 0).sort((a, b) => a - b);
}

function startAssault(s: EState, f: PhaseFrame, target: AreaId, log: Log): EState {
  if (!assaultTargets(s, f.p).includes(target))
    throw new IllegalActionError('assault', `area ${target} cannot be assaulted now`);
  const pending = pendingMassedColumns(s, f.p);
  if (pending.length && !pending.some((u) => u.mc === target))
    throw new IllegalActionError('assault', `the declared Massed Columns assault first (A-41)`);
  const mc = pending.filter((u) => u.mc === target).map((u) => u.id);
  ev(
    log,
    mc.length ? '14.7' : '14.0',
    `${s.ctx.scenario.sides[f.p].name} ${mc.length ? 'launches a Massed Column assault' : 'declares an assault'} on area ${target}`,
  );
  return push(s, {
    t: 'assault',
    p: f.p,
    target,
    units: mc,
    firedAt: null,
    struckIds: [],
    stage: 'gather',
    hitsA: 0,
    hitsD: 0,
    atk: null,
    def: null,
    combined: false,
    vacated: false,
    ...(mc.length ? { mc: true } : {}),
  });
}

/** Declared Massed Columns that can still assault their target this segment [14.7]. */
function pendingMassedColumns(s: EState, p: Side): UnitState[] {
  const ph = phaseOf(s);
  return s.units.filter(
    (u) =>
      u.side === p &&
      alive(u) &&
      u.mc !== null &&
      u.acted === null &&
      !u.routed &&
      !ph.assaulted.includes(u.mc) &&
      s.ctx.map.sideNeighbours(u.area!).includes(u.mc) && // assaults cross a side boundary [14.61]
      unitsAt(s, u.mc, other(p)).length > 0,
  );
}

/** Who decides at an assault's stage: the attacker gathers, chooses and advances; the defender retreats before it, picks its target and chooses. */
function assaultDecider(_s: EState, f: AssaultFrame): Side | null {
  switch (f.stage) {
    case 'gather':
    case 'atkChoice':
    case 'advance':
      return f.p;
    case 'beforeRetreat':
    case 'defTarget':
    case 'defChoice':
      return other(f.p);
    default:
      return null;
  }
}

function assaultLegal(s: EState, f: AssaultFrame): Action[] {
  switch (f.stage) {
    case 'gather': {
      const order = (id: string) => s.units.findIndex((x) => x.id === id);
      const last = f.units.length ? Math.max(...f.units.map(order)) : -1;
      const acts: Action[] = attackers(s, f.p, f.target)
        .filter((u) => !f.units.includes(u.id) && order(u.id) > last)
        .map((u) => ({ k: 'join', u: u.id }));
      if (f.units.length) acts.push({ k: 'resolve' });
      return acts;
    }
    case 'beforeRetreat':
      return [{ k: 'stand' }, { k: 'retreat' }];
    case 'defTarget':
      return areasOf(s, f).map((area) => ({ k: 'fireAt', area }));
    case 'atkChoice': {
      const us = struck(s, f);
      const ds = defenders(s, f);
      // [14.42] an all-cavalry side hit by infantry or artillery must retreat
      const mustGo = us.every((u) => u.kind === 'cavalry') && ds.some((u) => u.kind !== 'cavalry') && f.hitsD > 0;
      return mustGo ? [{ k: 'retreat' }] : [{ k: 'stand' }, { k: 'retreat' }];
    }
    case 'defChoice': {
      const ds = defenders(s, f);
      const movable = ds.filter((u) => canRetreat(s, u, true));
      if (!movable.length) return [{ k: 'stand' }]; // nothing that can retreat (the HQ and foot artillery stay) [20.2, 20.3]
      if (ds.some((u) => u.square)) return [{ k: 'stand' }]; // squares never retreat voluntarily [17.15]
      const atk = f.units.map((id) => unit(s, id)).filter(alive);
      const mustGo = ds.every((u) => u.kind === 'cavalry') && atk.some((u) => u.kind !== 'cavalry') && f.hitsA > 0;
      const cmd = defenderInCommand(s, other(f.p));
      const outOfCmd = ds.some((u) => !cmd.has(u.id) && !(unitDef(s, u.id).elite && u.kind === 'infantry'));
      return mustGo || outOfCmd ? [{ k: 'retreat' }] : [{ k: 'stand' }, { k: 'retreat' }]; // [14.42, 14.44]
    }
    case 'advance': {
      const acts: Action[] = [];
      for (const id of f.units) {
        const u = unit(s, id);
        if (!alive(u) || u.area === f.target || u.attachedTo !== null || u.routed || !lineAllows(s, u, f.target))
          continue; // [16.3]
        if (
          entryCost(s.ctx.map, u.area!, f.target, u.kind as MoveClass) === Infinity ||
          !fits(s, f.p, f.target, [u, ...s.units.filter((x) => x.attachedTo === u.id && alive(x))])
        )
          continue;
        acts.push({ k: 'advance', u: id });
      }
      acts.push({ k: 'stop' });
      return acts;
    }
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// dice
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// chance
// ---------------------------------------------------------------------------------------------

function standTest(s: EState, f: AssaultFrame, attacker: boolean): { morale: number; p: number } {
  const side = attacker ? f.p : other(f.p);
  const area = attacker ? f.firedAt! : f.target;
  const us = attacker ? struck(s, f) : defenders(s, f);
  const morale = moraleOfGroup(s, side, area, us, attacker);
  return { morale, p: holdChance(morale, 0) };
}

function assaultChance(s: EState, f: AssaultFrame): ChanceOutcome<Action>[] {
  if (f.stage !== 'atkStand' && f.stage !== 'defStand') return [];
  const { morale, p } = standTest(s, f, f.stage === 'atkStand');
  return [
    { action: { k: 'c-pass', ok: true }, p, label: `d6 ≤ ${morale}: they stand` },
    { action: { k: 'c-pass', ok: false }, p: 1 - p, label: `d6 > ${morale}: they fall back` },
  ].filter((o) => o.p > 0) as ChanceOutcome<Action>[];
}

// ---------------------------------------------------------------------------------------------
// applying
// ---------------------------------------------------------------------------------------------

const allElite = (s: EState, us: readonly UnitState[]) =>
  us.length > 0 && us.every((u) => (u.kind === 'infantry' && unitDef(s, u.id).elite) || u.attachedTo !== null);

function assaultStep(s: EState, f: AssaultFrame, a: Action, log: Log): EState {
  switch (a.k) {
    case 'join':
      if (f.stage !== 'gather') break;
      return replaceTop(s, { ...f, units: [...f.units, a.u] });
    case 'resolve': {
      if (f.stage !== 'gather' || !f.units.length) break;
      // attached artillery joins every assault its LC makes [11.26]
      const units = [
        ...f.units,
        ...s.units.filter((x) => x.attachedTo !== null && f.units.includes(x.attachedTo) && alive(x)).map((x) => x.id),
      ];
      for (const id of units) s = updUnit(s, id, { acted: 'assault' }); // [14.65]
      const ph = phaseOf(s);
      s = updPhase(s, { assaulted: [...ph.assaulted, f.target] }); // [14.64]
      const combined =
        !f.mc &&
        areasOf(s, { ...f, units }).some((a) =>
          combinedArms(
            s,
            f.p,
            units.map((id) => unit(s, id)).filter((u) => u.area === a),
          ),
        );
      ev(log, '14.13', `assaulting area ${f.target}: ${units.map((id) => unitDef(s, id).name).join(', ')}`);
      const ds = defenders(s, f);
      const onlyCav =
        ds.length > 0 &&
        ds.every((u) => u.kind === 'cavalry' || (u.kind === 'artillery' && unitDef(s, u.id).artKind === 'horse')) &&
        s.hq[other(f.p)]?.area !== f.target;
      const noCav = units.every((id) => unit(s, id).kind !== 'cavalry');
      if (combined) ev(log, '14.8', 'a combined-arms attack');
      return replaceTop(s, { ...f, units, combined, stage: onlyCav && noCav ? 'beforeRetreat' : 'defTarget' });
    }
    case 'stand':
      if (f.stage === 'beforeRetreat') return replaceTop(s, { ...f, stage: 'defTarget' });
      if (f.stage === 'atkChoice') {
        if (allElite(s, struck(s, f))) return replaceTop(s, { ...f, atk: 'stand', stage: 'defChoice' }); // [14.43]
        return replaceTop(s, { ...f, stage: 'atkStand' });
      }
      if (f.stage === 'defChoice') {
        if (allElite(s, defenders(s, f)) || !defenders(s, f).some((u) => canRetreat(s, u, false)))
          return replaceTop(s, { ...f, def: 'stand', stage: 'apply' });
        return replaceTop(s, { ...f, stage: 'defStand' });
      }
      break;
    case 'retreat':
      if (f.stage === 'beforeRetreat') {
        ev(log, '14.11', `the cavalry in area ${f.target} fall back before the assault`);
        return replaceTop(s, { ...f, def: 'retreat', stage: 'retreat', hitsA: 0, hitsD: 0, atk: 'stand' });
      }
      if (f.stage === 'atkChoice') {
        ev(log, '14.4', `the attackers in area ${f.firedAt} fall back to reduce their losses`);
        return replaceTop(s, { ...f, atk: 'retreat', stage: 'apply' });
      }
      if (f.stage === 'defChoice') {
        ev(log, '14.4', `the defenders of area ${f.target} fall back to reduce their losses`);
        return replaceTop(s, { ...f, def: 'retreat', stage: 'apply' });
      }
      break;
    case 'fireAt':
      if (f.stage !== 'defTarget') break;
      ev(log, '14.12', `the defenders fire at area ${a.area}`);
      return replaceTop(s, {
        ...f,
        firedAt: a.area,
        struckIds: f.units.filter((id) => unit(s, id).area === a.area),
        stage: f.mc ? 'rollD' : 'rollA',
      });
    case 'c-pass': {
      if (f.stage === 'atkStand') {
        const { morale } = standTest(s, f, true);
        ev(
          log,
          '14.41',
          a.ok
            ? `the attackers stand (d6 ≤ morale ${morale})`
            : `the attackers fail their morale roll (d6 above morale ${morale}) and fall back`,
        );
        return replaceTop(s, { ...f, atk: a.ok ? 'stand' : 'forced', stage: a.ok ? 'defChoice' : 'apply' });
      }
      if (f.stage === 'defStand') {
        const eliteHold = !a.ok && defenders(s, f).some((u) => u.kind === 'infantry' && unitDef(s, u.id).elite);
        const { morale } = standTest(s, f, false);
        ev(
          log,
          eliteHold ? '14.43' : '14.41',
          a.ok
            ? `the defenders stand (d6 ≤ morale ${morale})`
            : eliteHold
              ? `the defenders fail their morale roll (d6 above morale ${morale}): the elite infantry stands, the rest fall back`
              : `the defenders fail their morale roll (d6 above morale ${morale}) and fall back`,
        );
        return replaceTop(s, { ...f, def: a.ok ? 'stand' : eliteHold ? 'elite' : 'forced', stage: 'apply' });
      }
      break;
    }
    case 'advance': {
      if (f.stage !== 'advance') break;
      const u = unit(s, a.u);
      const from = u.area!;
      // [20.2] enemy artillery left behind in the area is eliminated when units advance in
      for (const x of unitsAt(s, f.target, other(f.p)))
        if (x.kind === 'artillery') s = loseSteps(s, x.id, stepsLeft(x), log, '20.2');
      const hq = s.hq[other(f.p)];
      if (hq && !hq.lost && hq.area === f.target)
        s = {
          ...s,
          hq: s.hq.map((h, i) => (i === other(f.p) ? { area: null, lost: true } : h)) as unknown as EState['hq'],
        };
      for (const x of [u, ...s.units.filter((y) => y.attachedTo === u.id && alive(y))])
        s = updUnit(s, x.id, { area: f.target, conf: null });
      ev(log, '14.5', `${unitDef(s, u.id).name} advances from area ${from} into area ${f.target}`);
      s = replaceTop(s, { ...f, vacated: true });
      if (conformationsFor(s, unit(s, u.id)).length) s = push(s, { t: 'face', p: f.p, u: u.id }); // advancing units may change facing [13.9, 14.5]
      return displaceLeaders(s, f.p, f.target, log); // lone leaders go first [3.13]
    }
    case 'stop':
      if (f.stage !== 'advance') break;
      return afterAdvance(s, f, log);
    default:
      break;
  }
  throw new IllegalActionError(a.k, `not an action at this point of the assault (${f.stage})`);
}

const reduction = (hits: number) => (hits <= 3 ? 1 : 2); // [14.4]

/** Attacker's and defender's losses after the stand-or-retreat decisions [14.4, 14.41]. */
function netLosses(f: AssaultFrame, attackerAdvanced: boolean): { onAtk: number; onDef: number } {
  let onAtk = f.hitsD;
  let onDef = f.hitsA;
  if (f.atk === 'retreat') {
    onAtk -= reduction(f.hitsD);
    onDef -= reduction(f.hitsA);
  } else if (f.atk === 'forced') onAtk -= 1;
  if (f.atk === 'stand') {
    if (f.def === 'retreat') {
      onDef -= reduction(f.hitsA);
      if (!attackerAdvanced) onAtk -= reduction(f.hitsD);
    } else if (f.def === 'forced' || f.def === 'elite') onDef -= 1;
  }
  return { onAtk: Math.max(0, onAtk), onDef: Math.max(0, onDef) };
}

function lossFrame(p: Side, area: AreaId, hits: number, only: readonly string[] | null): Frame {
  return { t: 'loss', p, area, hits, cb: false, lostNow: {}, first: true, rule: '14.3', only };
}

/** Automatic stages. */
function assaultSettle(s: EState, f: AssaultFrame, log: Log): EState | null {
  switch (f.stage) {
    case 'gather':
      return null;
    case 'defTarget': {
      const areas = areasOf(s, f);
      if (areas.length === 1)
        return replaceTop(s, {
          ...f,
          firedAt: areas[0]!,
          struckIds: f.units.filter((id) => unit(s, id).area === areas[0]),
          stage: f.mc ? 'rollD' : 'rollA',
        });
      return null;
    }
    case 'rollA':
      return push(s, {
        t: 'roll',
        dice: attackerDice(s, f),
        why: `the attackers' fire on area ${f.target}`,
        rule: '14.12',
      });
    case 'rollD':
      return push(s, {
        t: 'roll',
        dice: defenderDice(s, f),
        why: `the defenders' fire on area ${f.firedAt}`,
        rule: f.mc ? '14.72' : '14.12',
      });
    case 'mcLoss':
      // [14.72, 14.74, 14.76] against a Massed Column the defender's hits land first, on the column first, two steps each;
      // the column cannot retreat to reduce them [14.75]
      s = replaceTop(s, { ...f, hitsD: 0, atk: 'stand', stage: 'rollA' });
      return f.hitsD > 0
        ? push(
            s,
            lossFrame(
              f.p,
              f.firedAt!,
              f.hitsD,
              struck(s, f).map((u) => u.id),
            ),
          )
        : s;
    case 'apply': {
      const { onAtk, onDef } = netLosses(f, false);
      s = replaceTop(s, { ...f, stage: 'retreat' });
      const frames: Frame[] = [];
      const ds = defenders(s, f);
      if (onDef > 0 && (ds.length || s.hq[other(f.p)]?.area === f.target))
        frames.push(lossFrame(other(f.p), f.target, onDef, null));
      // with a voluntary defender retreat the attacker's losses wait for its advance decision [14.4 (b)]
      if (onAtk > 0 && !(f.atk === 'stand' && f.def === 'retreat'))
        frames.push(
          lossFrame(
            f.p,
            f.firedAt!,
            onAtk,
            struck(s, f).map((u) => u.id),
          ),
        );
      return push(s, ...frames.reverse());
    }
    case 'retreat': {
      s = replaceTop(s, { ...f, stage: 'advance' });
      const frames: Frame[] = [];
      // the defender
      if (f.def === 'retreat' || f.def === 'forced' || f.def === 'elite') {
        const voluntary = f.def === 'retreat';
        let ds = defenders(s, f);
        if (f.def === 'elite')
          ds = ds.filter(
            (u) =>
              !(u.kind === 'infantry' && unitDef(s, u.id).elite) &&
              !(u.attachedTo !== null && unitDef(s, unit(s, u.attachedTo).id).elite),
          );
        s = retreatGroup(s, other(f.p), f.target, ds, voluntary, frames, log);
      }
      if (f.atk === 'retreat' || f.atk === 'forced')
        s = retreatGroup(s, f.p, f.firedAt!, struck(s, f), f.atk === 'retreat', frames, log);
      return push(s, ...frames.reverse());
    }
    case 'advance': {
      // [14.5] the target vacated by all infantry and cavalry: the participants may advance, one by one, until "stop"
      const left = defenders(s, f).filter((u) => u.kind !== 'artillery');
      if (f.mc && f.atk === 'stand' && left.length === 0) {
        // [14.77] a Massed Column must occupy the target the defenders left
        const must = assaultLegal(s, f).find((a) => a.k === 'advance' && unit(s, a.u).mc === f.target);
        if (must) return assaultStep(s, f, must, log);
      }
      if (f.atk === 'stand' && left.length === 0 && assaultLegal(s, f).length > 1) return null;
      return afterAdvance(s, f, log);
    }
    case 'rout': {
      s = pop(s);
      const atkAreas = [
        ...new Set([f.firedAt, ...f.units.map((id) => unit(s, id).area)].filter((a): a is AreaId => a !== null)),
      ];
      s = pushRoutChecksFor(
        s,
        s.units.filter((u) => u.side === other(f.p) && alive(u)),
        atkAreas.length ? atkAreas : [f.target],
        { combinedOrMassed: f.combined || !!f.mc },
      ); // [19.1]
      return pushRoutChecksFor(
        s,
        s.units.filter((u) => u.side === f.p && alive(u)),
        [f.target],
        {},
      );
    }
    default:
      return null;
  }
}

function afterAdvance(s: EState, f: AssaultFrame, log: Log): EState {
  const cur = s.stack[s.stack.length - 1] as AssaultFrame;
  s = replaceTop(s, { ...cur, stage: 'rout' });
  if (f.atk === 'stand' && f.def === 'retreat') {
    const { onAtk } = netLosses(f, cur.vacated);
    // the units that were struck in the attacking area, wherever they are now
    const us = f.units
      .map((id) => unit(s, id))
      .filter(
        (u) => alive(u) && (u.area === f.firedAt || (cur.vacated && u.area === f.target && f.struckIds.includes(u.id))),
      );
    if (onAtk > 0 && us.length) {
      ev(
        log,
        '14.4',
        cur.vacated
          ? 'the attackers advanced: no reduction of their losses'
          : 'the attackers did not advance: their losses are reduced',
      );
      return push(
        s,
        lossFrame(
          f.p,
          us.some((u) => u.area === f.target) ? f.target : f.firedAt!,
          onAtk,
          us.map((u) => u.id),
        ),
      );
    }
  }
  return s;
}

/** An assault as the runtime plays it: each stage a decision of one side, a roll or an automatic step [14.0–14.66]. */
export const assaults: Handlers<EState, AssaultFrame, Action> = {
  assault: staged<AssaultFrame>({
    decider: assaultDecider,
    legal: assaultLegal,
    chance: assaultChance,
    step: assaultStep,
    settle: assaultSettle,
  }),
};
provide('assault', { targets: assaultTargets, pendingMassedColumns, start: startAssault });
