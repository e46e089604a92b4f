/**
 * Scripted preferences for The March of Eagles (`Game.policyScores`): the tactics the rulebook implies.
 * Pure scoring of the legal actions at the top frame, higher = better for the player to move:
 * rally the broken, shoot where the expected hits are best, attack only at good odds (BRAVERY × reach × win),
 * close to short musket range and face the enemy, line near the enemy and column far from it, reform when safe,
 * always give defensive fire, follow up only when ahead, and keep the Supreme Commander free.
 */
import { sumCounts } from '../../core/chance.ts';
import {
  type Vec,
  IN,
  boxGap,
  headingTo,
  pointPolygonDistance,
  polygonDistance,
  polygonDistanceCapped,
  rectCorners,
  translate,
  wheel as wheelRect,
} from '../../geometry/geometry.ts';
import { isDifficultAt, upSlope } from '../../geometry/terrain.ts';
import { orderOptions } from './activation.ts';
import { combatModifier } from './combat.ts';
import { objectiveHolder } from './winning.ts';
import { type Shot, screenTargetMenu, shotDice, targetParts } from './shooting.ts';
import { centre, footprint, halfStrength, poly } from './shape.ts';
import { NEED, effQ, resolveMod, scWith, top, unit } from './state.ts';
import type { Action, Bn, Engagement, MoeState, Side } from './types.ts';

const IDEAL_RANGE = 7 * IN;
/** A battalion this far from every enemy gets the lowest activation priority. */
const SLOT_FAR = 42 * IN;

function angleDiff(a: number, b: number): number {
  const d = Math.abs((((a - b) % 360) + 360) % 360);
  return d > 180 ? 360 - d : d;
}

/** Farther than any two points of the table: the distance to an enemy when none is left (M20_earlyEnd off). */
function far(s: MoeState): number {
  return Math.hypot(s.ctx.width, s.ctx.height);
}

/** The nearest enemy and its distance; with a `cap`, enemies beyond it are not looked for (then `e` is null, `d` the cap). */
function nearestEnemy(s: MoeState, b: Bn, cap = far(s)): { e: Bn | null; d: number } {
  let best: Bn | null = null;
  let bd = cap;
  const pb = poly(b);
  for (const e of s.units) {
    if (!e.on || e.side === b.side) continue;
    const pe = poly(e);
    if (boxGap(pb, pe) >= bd) continue; // the boxes' gap is a lower bound: this one cannot be nearer
    const d = polygonDistance(pb, pe);
    if (d < bd) {
      bd = d;
      best = e;
    }
  }
  return { e: best, d: bd };
}

function pCheck(need: number, mod: number, rerolls: number): number {
  let w = 0;
  for (let f = 1; f <= 6; f++) if (f + mod >= need) w++;
  const p = w / 6;
  return 1 - (1 - p) ** (rerolls + 1);
}

/** P(nD6 ≥ x inches). */
function pReach(n: number, x: number): number {
  const c = sumCounts(n);
  let w = 0;
  for (let t = 0; t < c.length; t++) if (t >= x) w += c[t]!;
  return w / 6 ** n;
}

function pWin(ma: number, md: number): number {
  let w = 0;
  let t = 0;
  for (let x = 1; x <= 6; x++)
    for (let y = 1; y <= 6; y++) {
      if (x + ma > y + md) w++;
      else if (x + ma === y + md) t++;
    }
  return (w + t / 2) / 36;
}

function value(b: Bn): number {
  return (b.rk / b.start) * (1 + 0.3 * b.q) * (b.brk ? 0.3 : 1);
}

/** Estimated worth of attacking `t` with `b`: BRAVERY × reach × combat edge. */
function attackScore(s: MoeState, b: Bn, t: Bn): number {
  const face = 'front' as const;
  const e: Engagement = {
    id: '?',
    att: b.id,
    def: t.id,
    rounds: 0,
    bonus: 'att',
    started: s.turn,
    joiners: [],
    fought: false,
    face,
  };
  const ma = combatModifier(s, e, 'att');
  const md = combatModifier(s, e, 'def');
  const brave = scWith(s, b) ? 1 : pCheck(NEED[effQ(s, b).q]!, resolveMod(s, b), b.off - b.offU);
  const dist = polygonDistance(poly(b), poly(t)) / IN;
  const n =
    isDifficultAt(s.ctx.terrain, centre(b)) || upSlope(s.ctx.terrain, centre(b), headingTo(centre(b), centre(t)))
      ? 1
      : b.f === 'L'
        ? 2
        : 3;
  const reach = pReach(n, Math.ceil(dist));
  const win = pWin(ma, md);
  const weak = (t.dis ? 0.1 : 0) + (halfStrength(t) ? 0.1 : 0);
  return brave * reach * (win - 0.55 + weak) * 14 + value(t);
}

/** `b`'s volley (from its body, or from its screen) at a target key (`id`, or `id.s` for that battalion's screen). */
function shotAt(s: MoeState, b: Bn, fromScreen: boolean, target: string): Shot | null {
  const { id, screen } = targetParts(target);
  return shotDice(s, b, fromScreen, unit(s, id), screen, null, false);
}

function shootScore(s: MoeState, b: Bn, target: string, given?: Shot): number {
  if (target === '-') return 3;
  const { id, screen } = targetParts(target);
  const t = unit(s, id);
  const sh = given ?? shotDice(s, b, false, t, screen, null, false);
  if (!sh) return 0;
  let w = 0;
  for (let f = 1; f <= 6; f++) if (f + sh.mod >= sh.need) w++;
  const hits = (sh.dice * w) / 6;
  return 4 + 1.5 * hits + (screen ? 0 : value(t) * 0.5) + (t.dis ? 0.3 : 0);
}

/** [Winning: objectives] An unbroken battalion within 3" of an objective its side holds: it keeps it by staying. */
function holdsObjective(s: MoeState, b: Bn): boolean {
  if (s.ctx.victory !== 'objectives' || b.brk) return false;
  return s.ctx.objectives.some((o) => pointPolygonDistance(o, poly(b)) <= 3 * IN && objectiveHolder(s, o) === b.side);
}

/**
 * [Winning: objectives] Where a battalion should march when objectives decide the battle: the nearest objective its
 * side does not hold, unless an enemy is clearly nearer (objectives are taken by beating what stands in the way).
 */
function objectiveGoal(s: MoeState, b: Bn, foeDist: number): Vec | null {
  if (s.ctx.victory !== 'objectives' || b.brk) return null;
  const c = centre(b);
  let goal: Vec | null = null;
  let best = Infinity;
  for (const o of s.ctx.objectives) {
    const d = Math.hypot(o.x - c.x, o.y - c.y);
    if (d < best && objectiveHolder(s, o) !== b.side) {
      best = d;
      goal = o;
    }
  }
  return goal && best < foeDist + 6 * IN ? goal : null;
}

function orderScore(s: MoeState, a: Action, b: Bn, near: { e: Bn | null; d: number }): number {
  const { e: foe, d } = near;
  const goal = objectiveGoal(s, b, d);
  const bearing = goal ? headingTo(centre(b), goal) : foe ? headingTo(centre(b), centre(foe)) : b.h;
  switch (a.k) {
    case 'pass':
      return 0;
    case 'rally':
      return 10;
    case 'reform':
      return d > 10 * IN ? 6 : 1.5;
    case 'shoot':
      return shootScore(s, b, a.target);
    case 'attack':
      return attackScore(s, b, unit(s, a.target));
    case 'move': {
      if (holdsObjective(s, b)) return -0.5; // stay on it
      if (!foe && !goal) return 0.5;
      if (d <= 9 * IN) return 0.5; // close enough: shoot rather than walk
      const dir = (b.h + a.dir + 360) % 360;
      return 3 + Math.cos((angleDiff(dir, bearing) * Math.PI) / 180) * 1.5;
    }
    case 'back':
      if (holdsObjective(s, b)) return -0.5; // objectives decide before losses (§7): stay on it
      return halfStrength(b) && d < 8 * IN ? 2 : 0.1;
    case 'wheel': {
      if (!foe && !goal) return 0.1;
      const off = ((bearing - b.h + 540) % 360) - 180; // negative: enemy to the left
      if (Math.abs(off) < 25) return 0.1;
      return off < 0 === (a.side === 'L') ? 3.2 : 0;
    }
    case 'form':
      if (b.f === 'C' && d < 16 * IN) return 3.4; // deploy into line to shoot
      if (b.f === 'L' && d > 24 * IN) return 2.5; // column to march
      return 0.1;
    default:
      return 0;
  }
}

/** An unbroken battalion's claim to the activation slot: 8 at the enemy, falling to 1 at 42" (SLOT_FAR) and beyond. */
function priority(d: number): number {
  return 8 - Math.min(7, d / (6 * IN));
}

function slotScore(s: MoeState, a: Action, p: Side): number {
  switch (a.k) {
    case 'sc':
      return -1; // attaching him drops every other battalion a level: keep him free
    case 'fight': {
      const e = s.engs.find((x) => x.id === a.e)!;
      const mine = unit(s, e.att).side === p ? 'att' : 'def';
      const m = combatModifier(s, e, mine) - combatModifier(s, e, mine === 'att' ? 'def' : 'att');
      return 6 + m * 0.2;
    }
    case 'activate': {
      const b = unit(s, a.u);
      if (b.brk) return 9;
      return priority(nearestEnemy(s, b, SLOT_FAR).d); // farther makes no difference
    }
    default:
      return 0;
  }
}

function distAfter(s: MoeState, b: Bn, r: ReturnType<typeof footprint>): number {
  let best = far(s);
  const p = rectCorners(r);
  for (const e of s.units) if (e.on && e.side !== b.side) best = polygonDistanceCapped(p, poly(e), best);
  return best;
}

export function policyScores(s: MoeState, actions: readonly Action[]): number[] {
  const f = top(s);
  if (!f || !('p' in f)) return actions.map(() => 0);
  switch (f.t) {
    case 'slot':
      return actions.map((a) => slotScore(s, a, f.p));
    case 'orders': {
      const b = unit(s, f.u);
      const near = nearestEnemy(s, b); // once per decision, not per action
      return actions.map((a) => orderScore(s, a, b, near));
    }
    case 'moveDist': {
      const b = unit(s, f.u);
      const back = Math.abs(((f.dir - b.h + 540) % 360) - 180) > 90;
      const goal = back || s.ctx.victory !== 'objectives' ? null : objectiveGoal(s, b, nearestEnemy(s, b).d);
      return actions.map((a) => {
        const dd = (a as Extract<Action, { k: 'dist' }>).d;
        if (goal) {
          const r = translate(footprint(b), f.dir, dd);
          return -Math.hypot(goal.x - r.x, goal.y - r.y) / IN;
        }
        const after = distAfter(s, b, translate(footprint(b), f.dir, dd));
        return back ? after / IN : -Math.abs(after - IDEAL_RANGE) / IN;
      });
    }
    case 'wheelAngle': {
      const b = unit(s, f.u);
      const { e: foe } = nearestEnemy(s, b);
      if (!foe) return actions.map(() => 0);
      return actions.map((a) => {
        const ang = (a as Extract<Action, { k: 'angle' }>).a;
        const r = ang ? wheelRect(footprint(b), f.side, ang) : footprint(b);
        return -angleDiff(r.h, headingTo(r, centre(foe)));
      });
    }
    case 'formFacing': {
      const b = unit(s, f.u);
      const { e: foe } = nearestEnemy(s, b);
      return actions.map((a) =>
        foe ? -angleDiff((a as Extract<Action, { k: 'facing' }>).h, headingTo(centre(b), centre(foe))) : 0,
      );
    }
    case 'screenPlace':
      return actions.map((a) => ((a as Extract<Action, { k: 'screen' }>).pos === 'front' ? 1 : 0));
    case 'screenTarget': {
      const b = unit(s, f.u);
      return actions.map((a) => {
        const t = (a as Extract<Action, { k: 'screenTarget' }>).target;
        if (t === '-') return 0;
        return shotAt(s, b, true, t)?.dice ?? 0;
      });
    }
    case 'defFire':
      return actions.map((a) => ((a as Extract<Action, { k: 'defFire' }>).yes ? 1 : 0));
    case 'followUp': {
      const e = s.engs.find((x) => x.id === f.e)!;
      const role = e.att === f.win ? 'att' : 'def';
      const w = unit(s, f.win);
      const edge =
        combatModifier(s, e, role) + (w.f === 'L' ? 3 : 6) - combatModifier(s, e, role === 'att' ? 'def' : 'att');
      return actions.map((a) => ((a as Extract<Action, { k: 'followUp' }>).yes ? (edge >= 1 ? 1 : -1) : 0));
    }
    case 'scDest':
      return actions.map((a) =>
        (a as Extract<Action, { k: 'scDest' }>).mode === 'stay'
          ? 1
          : (a as Extract<Action, { k: 'scDest' }>).mode === 'behind'
            ? 0.5
            : -1,
      );
    case 'initChoice':
      return actions.map((a) => ((a as Extract<Action, { k: 'first' }>).self ? 1 : 0));
    case 'chooseSide':
      return actions.map(() => 0);
    case 'skirm': {
      const b = unit(s, f.u);
      const want = b.light ? Infinity : Math.ceil(b.start * 0.1);
      return actions.map((a) => -Math.abs(Math.min((a as Extract<Action, { k: 'skirm' }>).n, 99) - Math.min(want, 99)));
    }
    case 'firstPlacer':
      return actions.map((a) => ((a as Extract<Action, { k: 'placer' }>).self ? 0 : 1));
    case 'place':
      return actions.map((a) => {
        const pa = a as Extract<Action, { k: 'place' }>;
        return (pa.f === 'L' ? 1 : 0) + (pa.row === 0 ? 0.5 : 0) + (pa.scr === 'front' || pa.scr === null ? 0.5 : 0);
      });
    case 'placeX': {
      const own = s.units.filter((u) => u.placed && u.side === f.p).map((u) => u.x);
      const mid = s.ctx.width / 2;
      return actions.map((a) => {
        const x = (a as Extract<Action, { k: 'x' }>).x;
        const gap = own.length ? Math.min(...own.map((o) => Math.abs(o - x))) : 0;
        return Math.min(gap, 14 * IN) / IN - Math.abs(x - mid) / IN / 4;
      });
    }
    case 'placeSC': {
      const mid: Vec = { x: s.ctx.width / 2, y: s.ctx.height / 2 };
      return actions.map((a) => {
        const pa = a as Extract<Action, { k: 'placeSC' }>;
        const b = unit(s, pa.attach);
        return (pa.behind ? 10 : 0) - Math.abs(b.x - mid.x) / IN;
      });
    }
    default:
      return actions.map(() => 0);
  }
}

/** The first of the best: the index of the first highest score. */
function firstBest(scores: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
  return best;
}

/**
 * `Game.greedyAction`: the first legal action with the highest `policyScores`. At a battalion's orders, an order
 * whose test is dear is tested only when it would score above every order listed before it: otherwise one of those
 * is chosen over it whether it is legal or not, so leaving it out changes nothing.
 */
export function greedyAction(s: MoeState, legal: (s: MoeState) => readonly Action[]): Action {
  const f = top(s);
  if (f?.t === 'orders') {
    const b = unit(s, f.u);
    const near = nearestEnemy(s, b);
    const scores: number[] = [];
    let best = -Infinity;
    const scoreTo = (list: readonly Action[]): void => {
      for (let i = scores.length; i < list.length; i++) {
        const sc = orderScore(s, list[i]!, b, near);
        scores.push(sc);
        if (sc > best) best = sc;
      }
    };
    const menu = orderOptions(s, b, (a, before, bound) => {
      scoreTo(before);
      if (a.k !== 'shoot' || !bound) return orderScore(s, a, b, near) > best;
      // a volley at a target: worth its line of sight only if its most dice could beat the best so far (the score
      // grows with the dice); if it is then legal, its score is the best so far for the targets after it
      if (shootScore(s, b, a.target, bound) <= best) return false;
      const sc = shootScore(s, b, a.target);
      if (sc > best && shotAt(s, b, false, a.target)) best = sc;
      return true;
    });
    scoreTo(menu);
    return menu[firstBest(scores)]!;
  }
  if (f?.t === 'screenTarget') {
    // the screen shoots where it has the most dice (none: 0): a target is tested only if its most dice beat the best
    const b = unit(s, f.u);
    let best = 0;
    const menu = screenTargetMenu(s, b, (target, bound) => {
      if (bound.dice <= best) return false;
      const sh = shotAt(s, b, true, target);
      if (sh && sh.dice > best) best = sh.dice;
      return true;
    });
    return menu[firstBest(policyScores(s, menu))]!;
  }
  const menu = legal(s);
  if (f?.t === 'slot') {
    // an unbroken battalion's score falls with its distance to the nearest enemy: one is looked for only nearer than
    // that of the best so far (a tie keeps the earlier)
    const scores: number[] = [];
    let best = -Infinity;
    for (const a of menu) {
      let sc: number;
      if (a.k === 'activate' && !unit(s, a.u).brk) {
        // beating `best` takes an enemy nearer than (8 − best) × 6"; one more unit keeps the rounding on the safe side
        const cap = best > 1 ? Math.min(SLOT_FAR, (8 - best) * 6 * IN + 1) : SLOT_FAR;
        const { e, d } = nearestEnemy(s, unit(s, a.u), cap);
        if (e) sc = priority(d);
        else sc = cap === SLOT_FAR ? priority(SLOT_FAR) : -Infinity; // 42" or more: the lowest; else it cannot win
      } else sc = slotScore(s, a, f.p);
      scores.push(sc);
      if (sc > best) best = sc;
    }
    return menu[firstBest(scores)]!;
  }
  return menu[firstBest(policyScores(s, menu))]!;
}
