import { type Log, checkHandler } from '../../core/procedure.ts';
import { sumDistribution } from '../../core/chance.ts';
import { lineOfSight } from '../../geometry/terrain.ts';
import {
  IN,
  type Rect,
  bbox,
  boxDistance,
  headingVec,
  onTable,
  polygonDistance,
  rectCorners,
  sweptBox,
  translate,
} from '../../geometry/geometry.ts';
import { blockersExcept, centre, footprint, poly } from './shape.ts';
import { NEED, effQ, ev, other, push, resolveMod, scWith, sideUnits, top, unit, upd } from './state.ts';
import { type Action, type Bn, type Frame, type MoeState, TRIG_SAW_RUN, type Then } from './types.ts';
import { type BnPatch, type MoeHandlers, STEP, enemiesOn, passThroughDisorder } from './common.ts';
import { endEngagement, removeUnit } from './casualties.ts';

/** A battalion takes a check: rolled with its Characters' re-rolls, or passed outright when the Supreme Commander is with it. */
export function startCheck(
  s: MoeState,
  b: Bn,
  kind: 'manoeuvre' | 'bravery' | 'rally' | 'resolve',
  then: Then,
  log: Log,
): MoeState {
  if (scWith(s, b)) {
    // [Supreme Commander] the battalion he is with takes no checks
    ev(log, 'Supreme Commander', `${b.name} needs no ${kind} check: the Supreme Commander is with it`);
    return afterCheck(s, b.id, then, true, log);
  }
  const { q, pen } = effQ(s, b);
  const mod = kind === 'manoeuvre' ? pen : resolveMod(s, b);
  const rerolls = kind === 'manoeuvre' ? b.drum - b.drumU : kind === 'bravery' ? b.off - b.offU : b.ens - b.ensU;
  return push(s, { t: 'check', u: b.id, kind, need: NEED[q]!, mod, rerolls: Math.max(0, rerolls), then });
}

/** What a check's result does: a passed order is carried out by the activation; a RALLY or RESOLVE result applies here. */
function afterCheck(s: MoeState, id: string, then: Then, pass: boolean, log: Log): MoeState {
  const b = unit(s, id);
  switch (then.k) {
    case 'move':
    case 'wheel':
    case 'form':
    case 'reform':
    case 'attack':
      // [Activation] the order is carried out once its check is passed
      return pass ? push(s, { t: 'execute', u: id, then }) : s;
    case 'rally':
      if (!pass) {
        ev(log, 'Resolve', `${b.name} fails to rally and will run in the compulsory moves`);
        return s;
      }
      ev(log, 'Resolve', `${b.name} rallies: it halts and must stand a turn to reform`);
      return upd(s, id, { ral: true, stand: s.turn + 1, standDis: true });
    case 'resolve': {
      if (!pass) {
        // the roll itself was logged with the check ("fails its RESOLVE check (needs 4)"): say only what follows
        ev(log, 'Resolve', `${b.name} breaks`);
        let ns = s;
        if (then.cause === 'combat' && then.e) ns = endEngagement(ns, then.e, false, log);
        return breakUnit(ns, id, log);
      }
      if (then.cause === 'combat')
        return push(s, { t: 'followUp', p: unit(s, then.win!).side, e: then.e!, win: then.win!, lose: id });
      if (then.cause === 'defFire') return push(s, { t: 'contact', att: id, def: then.target!, face: then.face! });
      return s;
    }
    case 'charge':
    case 'none':
      return s;
  }
}

/** A battalion breaks: friends that see it gain the "saw friend run" trigger; it runs 3D6" at once [Resolve]. */
function breakUnit(s: MoeState, id: string, log: Log): MoeState {
  let ns = s;
  const b = unit(ns, id);
  if (b.eng) ns = endEngagement(ns, b.eng, false, log);
  ns = upd(ns, id, { brk: true, ral: false, eng: '' });
  for (const f of ns.units) {
    if (!f.on || f.side !== b.side || f.id === id || f.brk) continue;
    const blockers = blockersExcept(ns, (o) => o.id === f.id || o.id === id);
    if (lineOfSight(ns.ctx.terrain, centre(f), centre(b), blockers))
      ns = upd(ns, f.id, { trig: unit(ns, f.id).trig | TRIG_SAW_RUN });
  }
  return push(ns, { t: 'run', u: id });
}

/** M11: run straight toward the home edge, turned to face it, stopping 1" short of the enemy; off the edge = gone. */
function runAway(s: MoeState, id: string, sum: number, log: Log): MoeState {
  let ns = s;
  const b = unit(ns, id);
  if (!b.on) return ns;
  const home = ns.sides[b.side].edge === 'south' ? 180 : 0;
  const r0: Rect = { ...footprint(b), h: home };
  const allow = sum * IN;
  const enemies = enemiesOn(ns, b.side).map((e) => poly(e));
  let d = 0;
  let off = false;
  const v = headingVec(home);
  const swept = sweptBox([rectCorners(r0)], v.x * allow, v.y * allow);
  if (enemies.every((e) => boxDistance(swept, bbox(e)) >= IN)) {
    // fast path: nothing to stop short of; only the table edge matters
    d = allow;
    off = !onTable(rectCorners(translate(r0, home, allow)), ns.ctx.width, ns.ctx.height);
  } else
    for (let x = STEP; x <= allow; x += STEP) {
      const p = rectCorners(translate(r0, home, x));
      if (enemies.some((e) => polygonDistance(p, e) < IN)) break;
      d = x;
      if (!onTable(p, ns.ctx.width, ns.ctx.height)) {
        off = true;
        break;
      }
    }
  const nr = translate(r0, home, d);
  ns = passThroughDisorder(ns, b, r0, nr, log);
  ev(log, 'Resolve', `${b.name} runs ${(d / IN).toFixed(1)}" toward its home edge`);
  ns = upd(ns, id, { x: nr.x, y: nr.y, h: home, ran: true });
  if (off) ns = removeUnit(ns, id, 'routed', log);
  return ns;
}

/** [Sequence 3] M10: pending triggers test once, initiative winner's battalions first, in order; null when none is left. */
export function resolvePhase(s: MoeState, log: Log): MoeState | null {
  const order = [...sideUnits(s, s.init), ...sideUnits(s, other(s.init))];
  const b = order.find((u) => u.on && !u.brk && u.trig && !u.tested);
  if (!b) return null;
  const ns = startCheck(upd(s, b.id, { trig: 0 }), unit(s, b.id), 'resolve', { k: 'resolve', cause: 'phase' }, log);
  return top(ns) ? ns : upd(ns, b.id, { tested: true });
}

/** [Sequence 4] broken battalions that did not rally run 3D6"; null when none is left to run. */
export function compulsoryMoves(s: MoeState): MoeState | null {
  const order = [...sideUnits(s, s.init), ...sideUnits(s, other(s.init))];
  const b = order.find((u) => u.on && u.brk && !u.ral && !u.ran);
  return b ? push(upd(s, b.id, { ran: true }), { t: 'run', u: b.id }) : null;
}

export const resolve: MoeHandlers<'check' | 'run'> = {
  check: checkHandler<MoeState, Extract<Frame, { t: 'check' }>, Action>({
    action: (pass, used) => ({ k: 'c-check', pass, used }),
    read: (a) => a as Extract<Action, { k: 'c-check' }>,
    then(s, f, pass, used, log) {
      const b = unit(s, f.u);
      const patch: BnPatch = {};
      if (used) {
        if (f.kind === 'manoeuvre')
          patch.drumU = b.drumU + used; // [Drummer]
        else if (f.kind === 'bravery')
          patch.offU = b.offU + used; // [Officer]
        else patch.ensU = b.ensU + used; // [Ensign]
      }
      if (f.kind === 'resolve') patch.tested = true; // [Resolve] once per turn
      const ns = upd(s, f.u, patch);
      const names = { manoeuvre: 'Manoeuvre', bravery: 'Aggression', rally: 'Resolve', resolve: 'Resolve' } as const;
      ev(
        log,
        names[f.kind],
        `${b.name} ${pass ? 'passes' : 'fails'} its ${f.kind === 'bravery' ? 'BRAVERY' : f.kind.toUpperCase()} check (needs ${f.need}${f.mod ? `, ${f.mod > 0 ? '+' : ''}${f.mod}` : ''})${used ? ` after ${used} re-roll(s)` : ''}`,
      );
      return afterCheck(ns, f.u, f.then, pass, log);
    },
  }),
  run: {
    kind: 'chance',
    outcomes: () => sumDistribution(3).map(({ sum, p }) => ({ action: { k: 'c-sum', sum }, p, label: `3D6 = ${sum}` })),
    step: (s, f, a, log) => runAway(s, f.u, (a as Extract<Action, { k: 'c-sum' }>).sum, log),
  },
};
