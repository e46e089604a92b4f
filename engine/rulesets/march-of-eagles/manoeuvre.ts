/**
 * [Manoeuvre] and [Disorder]: moves, wheels and changes of formation (M7, M8), the distance dice — 1D6 from difficult
 * ground or up a slope, the first die only over difficult ground, 1D6 off to cross an obstacle — for moves and charges
 * alike, the 4" rule, interpenetration (M21), the screen placed after a move (M3), and reforming (M12).
 */
import type { Log } from '../../core/procedure.ts';
import { firstDieGivenSum, sumDistribution } from '../../core/chance.ts';
import { difficultFraction, isDifficultAt, lineOfSight, obstaclesCrossed, upSlope } from '../../geometry/terrain.ts';
import {
  IN,
  headingTo,
  headingVec,
  normDeg,
  sweptBox,
  translate,
  wheel as wheelRect,
} from '../../geometry/geometry.ts';
import { endClear, pathClear } from '../../tabletop/clearance.ts';
import { facingChoices, straightMenu, wheelMenu } from '../../tabletop/movement.ts';
import { allPolys, blockersExcept, centre, contactRect, footprint, rectAt } from './shape.ts';
import { ev, push, scWith, unit, upd } from './state.ts';
import type { Action, Bn, MoeState, Order, Then } from './types.ts';
import {
  CLEARANCE,
  type MoeHandlers,
  SEPARATION,
  bodiesFor,
  STEP,
  boxClear,
  endOk,
  enemiesOn,
  enterGround,
  inches,
  minEnemyDistance,
  named,
  owner,
  passThroughDisorder,
  pathOk,
  polysAt,
} from './common.ts';

/** Facings offered for a change of formation: the 8 compass points, the current facing, and toward each seen enemy. */
function facingOptions(s: MoeState, b: Bn, towardEnemies = true): number[] {
  const toward: number[] = [];
  if (towardEnemies)
    for (const e of enemiesOn(s, b.side)) {
      if (
        lineOfSight(
          s.ctx.terrain,
          centre(b),
          centre(e),
          blockersExcept(s, (o) => o.id === b.id || o.id === e.id),
        )
      )
        toward.push(headingTo(centre(b), centre(e)));
    }
  return facingChoices(8, b.h, toward);
}

function formOk(s: MoeState, b: Bn, f: 'L' | 'C', h: number, before: number): boolean {
  const r = rectAt(b, b.x, b.y, h, f);
  const ps = polysAt(b, r); // the screen's place follows the rectangle (its facing and formation), not b's own
  const bodies = bodiesFor(s, b);
  return pathClear(s.ctx, bodies, ps, before, CLEARANCE) && endClear(s.ctx, bodies, ps[0]!);
}

/** Legal facings for a change of formation (all of them, or just the first found when `any`). */
export function formFacings(s: MoeState, b: Bn, any: boolean): number[] {
  const nf = b.f === 'L' ? 'C' : 'L';
  // every facing fits in the disk through the new footprint's furthest corner: if that is clear, all are legal
  const r0 = rectAt(b, b.x, b.y, 0, nf);
  let R = 0;
  for (const p of polysAt(b, r0)) for (const c of p) R = Math.max(R, Math.hypot(c.x - b.x, c.y - b.y));
  const clear = boxClear(s, b, { minX: b.x - R, minY: b.y - R, maxX: b.x + R, maxY: b.y + R }, true, true);
  if (clear && any) return [b.h];
  const before = clear ? SEPARATION : minEnemyDistance(s, b, allPolys(b));
  const out: number[] = [];
  // try the current facing first: when only one is wanted it is the likeliest to fit
  const hs = any ? [b.h, ...facingOptions(s, b, false)] : facingOptions(s, b, true);
  for (const h of hs) {
    if (clear || formOk(s, b, nf, h, before)) {
      out.push(h);
      if (any) return out;
    }
  }
  return out;
}

function moveDistances(s: MoeState, b: Bn, dir: number, allow: number): number[] {
  const r = footprint(b);
  const v = headingVec(dir);
  const clear = boxClear(s, b, sweptBox(allPolys(b), v.x * allow, v.y * allow), false, false);
  const startSep = clear ? SEPARATION : minEnemyDistance(s, b, allPolys(b));
  return straightMenu({
    rect: r,
    dir,
    allow,
    fractions: s.ctx.options.M7_fractions,
    step: STEP,
    clear,
    pathOk: (rr) => pathOk(s, b, rr, startSep),
    // M21 no overlap at the end; M7 stop short of an obstacle that cannot be crossed
    endOk: (rr) => endOk(s, b, rr),
  });
}

function wheelAngles(s: MoeState, b: Bn, side: 'L' | 'R', allow: number): number[] {
  const startSep = minEnemyDistance(s, b, allPolys(b));
  // [Manoeuvre] a wheel is measured from the outside
  return wheelMenu(
    footprint(b),
    side,
    allow,
    s.ctx.options.M7_wheelAngles,
    (nr) => pathOk(s, b, nr, startSep) && endOk(s, b, nr),
  );
}

/** A passed manoeuvre check: the move, wheel, change of formation or reform declared is carried out. */
export function executeManoeuvre(s: MoeState, id: string, then: Exclude<Order, { k: 'attack' }>, log: Log): MoeState {
  const b = unit(s, id);
  switch (then.k) {
    case 'move': {
      // [Manoeuvre] 2D6 in line, 3D6 in column, 1D6 back; 1D6 from difficult terrain or up a slope
      let n = then.back ? 1 : b.f === 'L' ? 2 : 3;
      const dir = normDeg(b.h + then.dir);
      if (
        n > 1 &&
        !scWith(s, b) &&
        (isDifficultAt(s.ctx.terrain, centre(b)) || upSlope(s.ctx.terrain, centre(b), dir))
      ) {
        n = 1;
        ev(log, 'Manoeuvre', `${b.name} starts in difficult terrain or on an upward slope: 1D6`);
      }
      return push(s, { t: 'dist', u: id, n, then });
    }
    case 'wheel':
      return push(s, { t: 'dist', u: id, n: 1, then });
    case 'form':
      return push(s, { t: 'formFacing', p: b.side, u: id });
    case 'reform':
      ev(log, 'Disorder', `${b.name} reforms: disorder clears at the end of the turn unless attacked (M12)`);
      return upd(s, id, { reform: true });
  }
}

/** Apply a move/charge distance roll (after the first-die and obstacle rulings). */
function afterDistance(
  s: MoeState,
  id: string,
  then: Then,
  allowIn: number,
  firstDieDone: boolean,
  obstacleDone: boolean,
  n: number,
  sum: number,
  log: Log,
): MoeState {
  const b = unit(s, id);
  let allow = allowIn;
  const sc = scWith(s, b);
  if (then.k === 'move') {
    const dir = normDeg(b.h + then.dir);
    const path = translate(footprint(b), dir, allow);
    if (then.back && !sc && isDifficultAt(s.ctx.terrain, centre(b)) && !firstDieDone) {
      allow = Math.floor(allow / 2); // [Manoeuvre] moving backward in difficult terrain: half the score
    }
    if (!firstDieDone && n > 1 && !sc && difficultFraction(s.ctx.terrain, centre(b), path) > 0.5) {
      ev(log, 'Manoeuvre', `more than half of ${b.name}'s move is over difficult terrain: first die only (M7)`);
      return push(s, { t: 'firstDie', u: id, n, sum, then });
    }
    if (!obstacleDone && obstaclesCrossed(s.ctx.terrain, footprint(b), translate(footprint(b), dir, allow)).length)
      return push(s, { t: 'obstacle', u: id, allow, then });
    return push(s, { t: 'moveDist', p: b.side, u: id, dir, allow });
  }
  if (then.k === 'wheel') return push(s, { t: 'wheelAngle', p: b.side, u: id, side: then.side, allow });
  if (then.k === 'charge') {
    // [Aggression] a charge measures the same rulings along its path to contact, then goes in
    const t = unit(s, then.target);
    const contact = contactRect(t, then.face, footprint(b).w, footprint(b).d);
    if (!firstDieDone && n > 1 && !sc && difficultFraction(s.ctx.terrain, centre(b), contact) > 0.5) {
      ev(log, 'Aggression', `more than half of ${b.name}'s charge is over difficult terrain: first die only (M7)`);
      return push(s, { t: 'firstDie', u: id, n, sum, then });
    }
    if (!obstacleDone && obstaclesCrossed(s.ctx.terrain, footprint(b), contact).length)
      return push(s, { t: 'obstacle', u: id, allow, then });
    return push(s, { t: 'charge', u: id, then, allow });
  }
  return s;
}

export const manoeuvres: MoeHandlers<
  'dist' | 'firstDie' | 'obstacle' | 'moveDist' | 'wheelAngle' | 'formFacing' | 'screenPlace'
> = {
  dist: {
    kind: 'chance',
    outcomes: (_s, f) =>
      sumDistribution(f.n).map(({ sum, p }) => ({ action: { k: 'c-sum', sum }, p, label: `${f.n}D6 = ${sum}` })),
    step(s, f, a, log) {
      const sum = (a as Extract<Action, { k: 'c-sum' }>).sum;
      ev(log, f.then.k === 'charge' ? 'Aggression' : 'Manoeuvre', `${unit(s, f.u).name} rolls ${f.n}D6 = ${sum}"`);
      return afterDistance(s, f.u, f.then, sum * IN, false, false, f.n, sum, log);
    },
  },
  firstDie: {
    kind: 'chance',
    outcomes: (_s, f) =>
      firstDieGivenSum(f.n, f.sum).map(({ face, p }) => ({
        action: { k: 'c-die', face },
        p,
        label: `first die ${face}`,
      })),
    step(s, f, a, log) {
      const face = (a as Extract<Action, { k: 'c-die' }>).face;
      return afterDistance(s, f.u, f.then, face * IN, true, false, 1, face, log);
    },
  },
  obstacle: {
    kind: 'chance',
    outcomes: () =>
      [1, 2, 3, 4, 5, 6].map((face) => ({ action: { k: 'c-die', face }, p: 1 / 6, label: `D6 = ${face}` })),
    step(s, f, a, log) {
      const face = (a as Extract<Action, { k: 'c-die' }>).face;
      // [Manoeuvre] to cross linear obstacles subtract 1D6" from movement
      ev(log, 'Manoeuvre', `crossing a linear obstacle costs ${unit(s, f.u).name} ${face}"`);
      const allow = Math.max(0, f.allow - face * IN);
      const then = f.then.k === 'charge' ? { ...f.then, dis: true } : f.then;
      return afterDistance(s, f.u, then, allow, true, true, 1, 0, log);
    },
  },
  moveDist: {
    kind: 'decision',
    owner,
    legal: (s, f) => moveDistances(s, unit(s, f.u), f.dir, f.allow).map((d) => ({ k: 'dist', d })),
    step(s0, f, a, log) {
      const d = (a as Extract<Action, { k: 'dist' }>).d;
      const b = unit(s0, f.u);
      const r = footprint(b);
      const nr = translate(r, f.dir, d);
      let s = passThroughDisorder(s0, b, r, nr, log);
      ev(log, 'Manoeuvre', `${b.name} moves ${(d / IN).toFixed(2)}"`);
      s = enterGround(upd(s, f.u, { x: nr.x, y: nr.y }), f.u, r, nr, log, 'moves');
      if (b.sk > 0 && !b.light && d > 0) s = push(s, { t: 'screenPlace', p: b.side, u: b.id });
      return s;
    },
    describe: (s, f) =>
      `${named(s, f.u)} may move up to ${inches(f.allow)} on heading ${f.dir}°: choose how far (the furthest legal point is last)`,
  },
  wheelAngle: {
    kind: 'decision',
    owner,
    legal: (s, f) => wheelAngles(s, unit(s, f.u), f.side, f.allow).map((a) => ({ k: 'angle', a })),
    step(s, f, a, log) {
      const ang = (a as Extract<Action, { k: 'angle' }>).a;
      const b = unit(s, f.u);
      if (!ang) return s;
      const nr = wheelRect(footprint(b), f.side, ang);
      ev(log, 'Manoeuvre', `${b.name} wheels ${ang}° ${f.side === 'L' ? 'left' : 'right'}`);
      return enterGround(upd(s, f.u, { x: nr.x, y: nr.y, h: nr.h }), f.u, footprint(b), nr, log, 'wheels');
    },
    describe: (s, f) =>
      `${named(s, f.u)} may wheel ${f.side === 'L' ? 'left' : 'right'} with up to ${inches(f.allow)} of arc: choose the angle`,
  },
  formFacing: {
    kind: 'decision',
    owner,
    legal: (s, f) => formFacings(s, unit(s, f.u), false).map((h) => ({ k: 'facing', h })),
    step(s, f, a, log) {
      const h = (a as Extract<Action, { k: 'facing' }>).h;
      const b = unit(s, f.u);
      ev(log, 'Manoeuvre', `${b.name} changes to ${b.f === 'L' ? 'column' : 'line'} facing ${h}°`);
      return upd(s, f.u, { f: b.f === 'L' ? 'C' : 'L', h });
    },
    describe: (s, f) =>
      `${named(s, f.u)} changes to ${unit(s, f.u).f === 'L' ? 'column' : 'line'}: choose its new facing (degrees clockwise from north)`,
  },
  screenPlace: {
    kind: 'decision',
    owner,
    legal: () => (['front', 'left', 'right', 'rear'] as const).map((pos) => ({ k: 'screen', pos })),
    step: (s, f, a) => upd(s, f.u, { scr: (a as Extract<Action, { k: 'screen' }>).pos }),
    describe: (s, f) => `where does ${named(s, f.u)}'s skirmish screen stand now?`,
  },
};
