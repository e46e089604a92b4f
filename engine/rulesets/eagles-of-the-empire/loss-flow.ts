/**
 * Losses, leader casualties and rout, which every procedure of the Action Phase inflicts: the hit roll [12.1, 14.3],
 * allocating hits one at a time by the struck side's owner (A-42), leader casualty checks [3.2], rout checks and
 * cascades [19.1–19.22], rout moves [19.1–19.31] and lone-leader displacement [3.13]. Step losses and pushing the
 * checks are casualties.ts's.
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { IllegalActionError } from '../../core/game.ts';
import type { AreaId } from '../../areas/map.ts';
import { hitChoices, type LossUnit } from './losses.ts';
import { entryCost } from './movement.ts';
import { holdChance, routModifier } from './retreat.ts';
import { hitChance, leaderCasualtyModifier, leaderLossChance } from './tables.ts';
import type { Action, EState, Frame, LossFrame, UnitState } from './types.ts';
import {
  alive,
  areaMoraleOf,
  conformationsFor,
  enemyUnitsIn,
  fits,
  killLeader,
  isLC,
  leaderDef,
  leadersAt,
  stepsLeft,
  unit,
  unitDef,
  unitsAt,
  other,
} from './world.ts';
import { type Log, ev, hasPhase, phaseOf, pop, push, replaceTop, top, updPhase, updUnit } from './state.ts';
import { displaceLeaders, loseSteps } from './casualties.ts';
import type { Handlers } from '../../core/procedure.ts';
import { artKind } from './bombard-flow.ts';
import { moveClass } from './move-flow.ts';
import { type FrameOf, type FrameRules, chance, decision, staged } from './procedures.ts';

function lossUnits(s: EState, f: LossFrame): LossUnit[] {
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

/** Exact distribution of hits from dice groups, each die hitting on a modified 6 (A-02). */
/** What one die needs to hit: a modified 6 or more (A-02). */
function hitOn(drm: number): string {
  const need = 6 - drm;
  return need <= 1 ? 'every die hits' : need > 6 ? 'no die can hit' : need === 6 ? 'a 6 hits' : `${need}+ hits`;
}

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

type CasualtyFrame = FrameOf<'routMove' | 'displace' | 'roll' | 'loss' | 'leaderCheck' | 'routCheck'>;

function casualtyLegal(s: EState, f: CasualtyFrame): Action[] {
  switch (f.t) {
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
    case 'roll':
    case 'leaderCheck':
    case 'routCheck':
      return []; // automatic or chance
  }
}

function casualtyChance(s: EState, f: CasualtyFrame): ChanceOutcome<Action>[] {
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
    case 'routMove':
    case 'displace':
    case 'loss':
      return []; // decisions or automatic
  }
}

function casualtyStep(s: EState, f: CasualtyFrame, a: Action, log: Log): EState {
  switch (f.t) {
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
          `${f.why}: ${a.n} hit${a.n === 1 ? '' : 's'} from ${f.dice.length ? f.dice.map((d) => `${d.n}d6${d.drm ? (d.drm > 0 ? `+${d.drm}` : d.drm) : ''} (${hitOn(d.drm)})`).join(' + ') : 'no dice'}`,
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
        const target = `d6${f.mod ? (f.mod > 0 ? ` + ${f.mod}` : ` − ${-f.mod}`) : ''}`;
        const morale = routMorale(s, u);
        const roll = a.ok ? `(${target} ≤ morale ${morale})` : `(${target} above morale ${morale})`;
        if (f.retest) {
          ev(log, '19.3', a.ok ? `${name} recovers from its rout ${roll}` : `${name} stays routed ${roll}`);
          return a.ok ? updUnit(s, u.id, { routed: false }) : s;
        }
        if (a.ok) {
          ev(log, f.cascade ? '19.21' : '19.1', `${name} holds ${roll}`);
          return s;
        }
        ev(log, f.cascade ? '19.21' : '19.1', `${name} routs ${roll}`);
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
  }
  throw new IllegalActionError(a.k, `not an action at this point (${f.t})`);
}

/** Advance automatic frames; null when the top frame awaits a decision or a chance outcome. */
function casualtySettle(s: EState, f: CasualtyFrame, log: Log): EState | null {
  switch (f.t) {
    case 'displace':
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
    case 'roll':
    case 'leaderCheck':
    case 'routCheck':
      return null; // chance
  }
}

const rules: FrameRules<CasualtyFrame> = {
  decider: (_s, f) => (f.t === 'routMove' || f.t === 'displace' || f.t === 'loss' ? f.p : null),
  legal: casualtyLegal,
  chance: casualtyChance,
  step: casualtyStep,
  settle: casualtySettle,
};

/**
 * Losses and rout as the runtime plays them: the hit roll, leader and rout checks are rolls; a displaced leader's
 * destination is a decision; allocating losses and a rout move are decisions that play themselves when there is no
 * choice (a single unit to strike, a router with nowhere to go).
 */
export const casualtyHandlers: Handlers<EState, CasualtyFrame, Action> = {
  roll: chance(rules),
  loss: staged(rules),
  leaderCheck: chance(rules),
  routCheck: chance(rules),
  routMove: staged(rules),
  displace: decision(rules),
};
