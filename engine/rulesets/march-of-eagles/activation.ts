/**
 * [Initiative], [Activation] and [Supreme Commander]: the initiative roll, the alternating activation slots, the
 * orders open to a battalion (declared before its check), carrying out a passed order, fighting an engagement, and
 * the Supreme Commander's free move (M15).
 */
import type { Log } from '../../core/procedure.ts';
import { sumDistribution } from '../../core/chance.ts';
import { isDifficultAt } from '../../geometry/terrain.ts';
import { IN, dist, onTable, pointPolygonDistance } from '../../geometry/geometry.ts';
import { centre, poly } from './shape.ts';
import { eng, ev, other, push, sideUnits, top, unit, upd, updSC, withState } from './state.ts';
import type { Action, Bn, Frame, MoeState, Side } from './types.ts';
import { type MoeHandlers, behindPoint, enemiesOn, engaged, inches, named, owner, winOutcomes } from './common.ts';
import { type Shot, shootTargets, startVolleys } from './shooting.ts';
import { startCheck } from './resolve.ts';
import { startCombat } from './combat.ts';
import { attackInfo, chargeRoll } from './attacks.ts';
import { executeManoeuvre, formFacings } from './manoeuvre.ts';

/** [Initiative] D6 + officers in the army, including the commander. */
export function initiativeBonus(s: MoeState, side: Side): number {
  let n = s.sides[side].sc.alive ? 1 : 0;
  for (const b of s.units) if (b.side === side && b.on && b.off) n++;
  return n;
}

/** The activation slot: which battalion (or engagement, or the SC's free move) acts next [Initiative]. */
function activationOptions(s: MoeState, p: Side): Action[] {
  const out: Action[] = [];
  const side = s.sides[p];
  if (side.sc.alive && side.sc.placed && !side.sc.moved) out.push({ k: 'sc' });
  for (const e of s.engs) {
    if (e.fought) continue;
    const a = unit(s, e.att);
    const d = unit(s, e.def);
    if ((a.side === p && !a.act) || (d.side === p && !d.act)) out.push({ k: 'fight', e: e.id });
  }
  for (const b of s.units) if (b.side === p && b.on && !b.act && !engaged(b)) out.push({ k: 'activate', u: b.id });
  return out;
}

/**
 * The activation types open to one battalion (§6.2), in menu order; the type is declared before any check is rolled.
 * `worth` is asked before an order whose test is dear (a change of formation, the screen's own volley) is tested, with
 * the orders listed before it: one it turns down is left out untested. The menu tests them all; the scripted player's
 * first choice (`greedyAction`) skips those that cannot be it.
 */
export function orderOptions(
  s: MoeState,
  b: Bn,
  worth?: (a: Action, before: readonly Action[], bound?: Shot) => boolean,
): Action[] {
  const out: Action[] = [{ k: 'pass', u: b.id }];
  if (b.brk) {
    if (!b.ral) out.push({ k: 'rally', u: b.id }); // [Resolve] RALLY: broken battalions only
    return out;
  }
  if (b.stand === s.turn) return out; // M12: mustStand → PASS only
  const difficult = isDifficultAt(s.ctx.terrain, centre(b));
  out.push({ k: 'move', u: b.id, dir: 0 });
  // [Manoeuvre] "cannot perform any MANOEUVRE on difficult terrain other than moving forward or backward across it":
  // an oblique is neither, so in difficult ground only straight ahead and back are offered
  if (!difficult)
    for (const o of s.ctx.options.M7_obliques)
      out.push({ k: 'move', u: b.id, dir: -o }, { k: 'move', u: b.id, dir: o });
  out.push({ k: 'back', u: b.id });
  if (!difficult) {
    // [Manoeuvre] no wheels or formation changes in difficult terrain
    out.push({ k: 'wheel', u: b.id, side: 'L' }, { k: 'wheel', u: b.id, side: 'R' });
    // [Manoeuvre] change formation: the new facing is chosen once the check is passed; offered if any fits
    const form: Action = { k: 'form', u: b.id };
    if ((!worth || worth(form, out)) && formFacings(s, b, true).length) out.push(form);
  }
  if (b.dis && !b.reform) out.push({ k: 'reform', u: b.id });
  // a volley is tested only if the most dice it could have make it worth it
  const shoot = (target: string): Action => ({ k: 'shoot', u: b.id, target });
  const tgts = shootTargets(s, b, false, worth && ((t, bound) => worth(shoot(t), out, bound)));
  for (const t of tgts) out.push(shoot(t));
  if (!tgts.length && b.sk > 0) {
    const screen = shoot('-');
    if ((!worth || worth(screen, out)) && shootTargets(s, b, true).length) out.push(screen);
  }
  for (const t of enemiesOn(s, b.side)) if (attackInfo(s, b, t)) out.push({ k: 'attack', u: b.id, target: t.id });
  return out;
}

function scDestinations(s: MoeState, p: Side, allow: number): Action[] {
  const sc = s.sides[p].sc;
  const out: Action[] = [{ k: 'scDest', to: '', mode: 'stay' }];
  const from = sc.att ? centre(unit(s, sc.att)) : { x: sc.x, y: sc.y };
  for (const b of sideUnits(s, p)) {
    if (!b.on) continue;
    if (b.id !== sc.att && !b.brk && !engaged(b) && pointPolygonDistance(from, poly(b)) <= allow)
      out.push({ k: 'scDest', to: b.id, mode: 'attach' });
    const behind = behindPoint(b);
    if (dist(from, behind) <= allow && onTable([behind], s.ctx.width, s.ctx.height))
      out.push({ k: 'scDest', to: b.id, mode: 'behind' });
  }
  return out;
}

/** A battalion's (or an engagement's) activation: it is marked and its order declared, then checked or carried out. */
function activate(s: MoeState, p: Side, a: Action, log: Log): MoeState {
  let ns: MoeState = withState(s, { next: other(p), nAct: s.nAct + 1 });
  if (a.k === 'fight') {
    const e = eng(ns, a.e);
    ev(
      log,
      'Combat process',
      `${ns.sides[p].name} activates the combat between ${unit(ns, e.att).name} and ${unit(ns, e.def).name}`,
    );
    return startCombat(ns, a.e, log);
  }
  if (!('u' in a)) throw new Error(`not an activation: ${a.k}`);
  const b = unit(ns, a.u);
  const chosenIn = ns;
  ns = upd(ns, b.id, { act: true });
  switch (a.k) {
    case 'pass':
      ev(log, 'Activation', `${b.name} passes`);
      return ns;
    case 'move':
      ev(
        log,
        'Manoeuvre',
        `${b.name} attempts to move ${a.dir === 0 ? 'straight ahead' : `obliquely ${a.dir > 0 ? 'right' : 'left'} ${Math.abs(a.dir)}°`}`,
      );
      return startCheck(ns, unit(ns, b.id), 'manoeuvre', { k: 'move', dir: a.dir, back: false }, log);
    case 'back':
      ev(log, 'Manoeuvre', `${b.name} attempts to move back`);
      return startCheck(ns, unit(ns, b.id), 'manoeuvre', { k: 'move', dir: 180, back: true }, log);
    case 'wheel':
      ev(log, 'Manoeuvre', `${b.name} attempts to wheel ${a.side === 'L' ? 'left' : 'right'}`);
      return startCheck(ns, unit(ns, b.id), 'manoeuvre', { k: 'wheel', side: a.side }, log);
    case 'form':
      ev(log, 'Manoeuvre', `${b.name} attempts to change formation`);
      return startCheck(ns, unit(ns, b.id), 'manoeuvre', { k: 'form' }, log);
    case 'reform':
      return startCheck(ns, unit(ns, b.id), 'manoeuvre', { k: 'reform' }, log);
    case 'rally':
      return startCheck(ns, unit(ns, b.id), 'rally', { k: 'rally' }, log);
    case 'shoot': {
      // M17: no separate roll; the Accuracy dice are the test. The screen shoots in the same activation.
      const bb = unit(ns, b.id);
      if (bb.sk > 0) {
        ns = push(ns, { t: 'screenTarget', p, u: b.id });
        return a.target === '-' ? ns : startVolleys(ns, b.id, a.target, '-', log, chosenIn); // the body first; the screen's target after
      }
      return startVolleys(ns, b.id, a.target, '-', log, chosenIn);
    }
    case 'attack': {
      const t = unit(ns, a.target);
      const info = attackInfo(ns, unit(ns, b.id), t)!;
      if (b.sk > 0 && !b.light) ns = upd(ns, b.id, { scr: 'rear' }); // M3: the screen goes to the rear
      ev(
        log,
        'Aggression',
        `${b.name} declares an attack on ${t.name}'s ${info.face}${info.join ? ' (joining the combat)' : ''}`,
      );
      return startCheck(
        ns,
        unit(ns, b.id),
        'bravery',
        { k: 'attack', target: t.id, face: info.face, join: info.join },
        log,
      );
    }
    default:
      throw new Error(`not an activation: ${a.k}`);
  }
}

/** Side p has a battalion left to activate, or an engagement of its not yet fought this turn. */
function hasActivation(s: MoeState, p: Side): boolean {
  for (const b of s.units) {
    if (b.side !== p || !b.on || b.act) continue;
    if (!b.eng) return true;
    const e = eng(s, b.eng);
    if (!e.fought && (e.att === b.id || e.def === b.id)) return true;
  }
  return false;
}

/** A slot is due: a battalion or engagement to activate, or (M15) the SC's free move "instead of an activation when he has none left". */
export function available(s: MoeState, p: Side): boolean {
  if (hasActivation(s, p)) return true;
  const sc = s.sides[p].sc;
  return sc.alive && sc.placed && !sc.moved;
}

export const activation: MoeHandlers<'initRoll' | 'initChoice' | 'slot' | 'orders' | 'execute' | 'scRoll' | 'scDest'> =
  {
    initRoll: {
      kind: 'chance',
      outcomes: (s) => winOutcomes([initiativeBonus(s, 0), initiativeBonus(s, 1)]),
      step(s, _f, a, log) {
        const w = (a as Extract<Action, { k: 'c-win' }>).side;
        ev(
          log,
          'Initiative',
          `${s.sides[w].name} wins the initiative (D6 + ${initiativeBonus(s, w)} vs D6 + ${initiativeBonus(s, other(w))})`,
        );
        return push(withState(s, { init: w }), { t: 'initChoice', p: w });
      },
    },
    initChoice: {
      kind: 'decision',
      owner,
      legal: () => [
        { k: 'first', self: true },
        { k: 'first', self: false },
      ],
      step(s, f, a, log) {
        const self = (a as Extract<Action, { k: 'first' }>).self;
        const nx = self ? f.p : other(f.p);
        ev(log, 'Initiative', `${s.sides[nx].name} activates first`);
        return withState(s, { next: nx });
      },
      describe: () => 'you won the initiative: activate first, or make your opponent go first? [Initiative]',
    },
    slot: {
      kind: 'decision',
      owner,
      legal: (s, f) => activationOptions(s, f.p),
      step(s, f, a, log) {
        if (a.k === 'activate') return push(s, { t: 'orders', p: f.p, u: a.u });
        // M15: the SC's free 4D6 move, once per turn, at the start of an activation slot; the slot stays open
        if (a.k === 'sc') return push(s, f, { t: 'scRoll' });
        return activate(s, f.p, a, log);
      },
      // [Initiative] a player with nothing left to activate lets the other activate all the rest
      skip: (s, f) => !available(s, f.p),
      describe: () =>
        "your activation: choose a battalion (or an engagement to fight, or your Supreme Commander's free move)",
    },
    orders: {
      kind: 'decision',
      owner,
      legal: (s, f) => orderOptions(s, unit(s, f.u)),
      step: (s, f, a, log) => activate(s, f.p, a, log),
      describe: (s, f) => `orders for ${named(s, f.u)}: the activation is declared before its check is rolled`,
    },
    execute: {
      kind: 'auto',
      run: (s, f, log) =>
        f.then.k === 'attack' ? chargeRoll(s, f.u, f.then, log) : executeManoeuvre(s, f.u, f.then, log),
    },
    scRoll: {
      kind: 'chance',
      outcomes: () =>
        sumDistribution(4).map(({ sum, p }) => ({ action: { k: 'c-sum', sum }, p, label: `4D6 = ${sum}` })),
      step(s, _f, a, log) {
        const sum = (a as Extract<Action, { k: 'c-sum' }>).sum;
        const p = (top(s) as Extract<Frame, { t: 'slot' }>).p;
        ev(log, 'Supreme Commander', `${s.sides[p].name}'s Supreme Commander may move ${sum}"`);
        return push(s, { t: 'scDest', p, allow: sum * IN });
      },
    },
    scDest: {
      kind: 'decision',
      owner,
      legal: (s, f) => scDestinations(s, f.p, f.allow),
      step(s, f, a, log) {
        const o = a as Extract<Action, { k: 'scDest' }>;
        if (o.mode === 'stay') return updSC(s, f.p, { moved: true });
        const b = unit(s, o.to);
        if (o.mode === 'attach') {
          ev(log, 'Supreme Commander', `the Supreme Commander joins ${b.name}`);
          return updSC(s, f.p, { moved: true, att: b.id, x: b.x, y: b.y });
        }
        const pt = behindPoint(b);
        ev(log, 'Supreme Commander', `the Supreme Commander rides to behind ${b.name}`);
        return updSC(s, f.p, { moved: true, att: '', x: pt.x, y: pt.y });
      },
      describe: (_s, f) =>
        `your Supreme Commander may ride up to ${inches(f.allow)}: join a battalion, ride behind one, or stay`,
    },
  };
