/**
 * [Accuracy] and [Skirmishers]: who can shoot at whom, the dice of a volley (M5, M17, M18), its exact distribution with
 * sergeants' re-rolls, the screen's own target, and the hits taken — a 6 among them risks a Character [Risk to
 * characters].
 */
import type { ChanceOutcome } from '../../core/game.ts';
import type { Cover } from '../../geometry/terrain.ts';
import type { Log } from '../../core/procedure.ts';
import {
  type Box,
  bbox,
  boxDistance,
  boxGap,
  polygonDistance,
  rectCorners,
  sectorOf,
} from '../../geometry/geometry.ts';
import {
  blockersExcept,
  centre,
  coverOf,
  eligibleGroups,
  eligibleScreenGroups,
  firingGroups,
  footprint,
  maxRange,
  poly,
  rangeFraction,
  screenGroups,
  screenPoly,
  screenRectFor,
} from './shape.ts';
import { NEED, characters, effQ, ev, hasUnit, push, scWith, unit, upd } from './state.ts';
import { type Action, type Bn, type CharType, type Frame, type MoeState, TRIG_CASUALTIES } from './types.ts';
import { type MoeHandlers, enemiesOn, engaged, named, owner } from './common.ts';
import { loseCharacter, rankerLoss } from './casualties.ts';
import { RecentMemo } from '../../core/recent.ts';

export interface Shot {
  readonly dice: number;
  readonly need: number;
  readonly mod: number;
}

/** [Who can shoot] the most groups that may shoot: a screen's groups, a body's (in column only its front two). */
function groupsNow(shooter: Bn, fromScreen: boolean): number {
  if (fromScreen) return screenGroups(shooter);
  return shooter.f === 'C' ? Math.min(2, firingGroups(shooter)) : firingGroups(shooter);
}

/** Target key: battalion id for the body, `id.s` for its skirmish screen. */
export function targetParts(t: string): { id: string; screen: boolean } {
  return t.endsWith('.s') ? { id: t.slice(0, -2), screen: true } : { id: t, screen: false };
}

/**
 * Volleys already worked out for a position: the legal actions, the scripted preferences and the volley itself ask
 * for the same shot, and its line-of-sight tests are the dearest thing in the rules. Keyed by the position's battalion
 * list (a new list whenever any battalion changes), checked against the sides and context it was made with.
 */
const shotMemo = new RecentMemo<
  readonly Bn[],
  { sides: MoeState['sides']; ctx: MoeState['ctx']; m: Map<string, Shot | null> }
>(4);

type ShotArgs = [
  s: MoeState,
  shooter: Bn,
  fromScreen: boolean,
  target: Bn,
  toScreen: boolean,
  fixedFraction: number | null,
  defensive: boolean,
];

/** [Accuracy] dice for one volley (§6.4 steps 1–5) with a range fraction, or null when no group is eligible. */
export function shotDice(...args: ShotArgs): Shot | null {
  const [s, shooter, fromScreen, target, toScreen, fixedFraction, defensive] = args;
  // only the position's own battalions are memoized: a caller may ask about a changed copy
  if (
    !hasUnit(s, shooter.id) ||
    unit(s, shooter.id) !== shooter ||
    !hasUnit(s, target.id) ||
    unit(s, target.id) !== target
  )
    return computeShot(...args);
  let memo = shotMemo.get(s.units);
  if (!memo || memo.sides !== s.sides || memo.ctx !== s.ctx) {
    memo = { sides: s.sides, ctx: s.ctx, m: new Map() };
    shotMemo.set(s.units, memo);
  }
  const key = `${shooter.id}|${fromScreen ? 1 : 0}|${target.id}|${toScreen ? 1 : 0}|${fixedFraction}|${defensive ? 1 : 0}`;
  let r = memo.m.get(key);
  if (r === undefined) {
    r = computeShot(...args);
    memo.m.set(key, r);
  }
  return r;
}

function computeShot(...[s, shooter, fromScreen, target, toScreen, fixedFraction, defensive]: ShotArgs): Shot | null {
  const sRect = fromScreen ? screenRectFor(shooter, footprint(shooter)) : footprint(shooter);
  if (!sRect) return null;
  const sPoly = rectCorners(sRect);
  const tPoly = toScreen ? screenPoly(target) : poly(target);
  if (!tPoly) return null;
  const range = polygonDistance(sPoly, tPoly);
  const frac = fixedFraction ?? rangeFraction(range, shooter.rifles);
  if (frac === 0) return null;
  // LOS blockers: every other body and screen; a body cannot shoot through its own skirmishers [Skirmishers]
  // every line of fire runs from the shooter to the target, so only bodies whose boxes meet their joint box can block it
  const sb = bbox(sPoly);
  const tb = bbox(tPoly);
  const span: Box = {
    minX: Math.min(sb.minX, tb.minX),
    minY: Math.min(sb.minY, tb.minY),
    maxX: Math.max(sb.maxX, tb.maxX),
    maxY: Math.max(sb.maxY, tb.maxY),
  };
  const blockers = blockersExcept(
    s,
    (b, isScreen) => (b.id === shooter.id && isScreen === fromScreen) || (b.id === target.id && isScreen === toScreen),
  ).filter((p) => boxDistance(bbox(p), span) === 0);
  const groups = groupsNow(shooter, fromScreen);
  const E = fromScreen
    ? eligibleScreenGroups(s, sRect, tPoly, blockers, groups)
    : eligibleGroups(s, sRect, tPoly, blockers, groups);
  if (E <= 0) return null;
  const cover = toScreen ? 'none' : coverOf(s, target, centre(shooter));
  return shotOf(s, shooter, fromScreen, target, toScreen, E, frac, cover, defensive);
}

/** [Accuracy] the dice of a volley from its eligible groups `E`, range fraction and the target's cover (steps 2–5). */
function shotOf(
  s: MoeState,
  shooter: Bn,
  fromScreen: boolean,
  target: Bn,
  toScreen: boolean,
  E: number,
  frac: number,
  cover: Cover,
  defensive: boolean,
): Shot {
  const { q, pen } = effQ(s, shooter);
  let add = 0;
  let halvings = 0;
  if (!toScreen && target.f === 'C') add += 2; // [Shooting modifiers] column target +2
  if (!fromScreen && shooter.british && shooter.f === 'L' && q > 0) add += 2; // British in line (not Green) +2
  if (q === 3) add += 2; // Guards +2
  if (shooter.rifles) add += 2; // British Riflemen shooting +2
  if (s.ctx.options.M5_cover === 'modifiers') {
    if (cover === 'soft') add -= 2; // M5: soft cover −2 dice
    if (cover === 'hard') halvings++; // M5: hard cover −50%
  } else if (cover !== 'none') halvings++; // [Who can shoot] cover halves the eligible groups again
  if (shooter.dis && !fromScreen) halvings++; // disordered −50%
  if (toScreen) halvings++; // target skirmishers −50%
  const raw = Math.max(0, E + add) * 0.5 ** halvings * frac;
  // [Who can shoot] round 0.5 up (close order); skirmishers round every fraction up; M17: one rounding
  let dice = fromScreen ? Math.ceil(raw - 1e-9) : Math.floor(raw + 0.5 + 1e-9);
  dice = Math.max(1, dice); // "One firing group will always be allowed to shoot"
  const mod = pen + (scWith(s, shooter) ? 1 : 0) + (defensive ? -1 : 0); // SC +1 each die; defensive fire −1
  return { dice, need: NEED[q]!, mod };
}

/**
 * The most dice a volley at a target in range could have: every group eligible and no cover. The real volley has no
 * more (fewer groups see, cover only takes away), and the same need and modifier.
 */
function shotBound(s: MoeState, shooter: Bn, fromScreen: boolean, target: Bn, toScreen: boolean, range: number): Shot {
  const groups = groupsNow(shooter, fromScreen);
  return shotOf(s, shooter, fromScreen, target, toScreen, groups, rangeFraction(range, shooter.rifles), 'none', false);
}

/**
 * Targets a body (and its screen) may shoot at; the shielding screen rule applies [Skirmishers]. `worth` is asked,
 * with the most dice a volley could have, before a target in range has its line of sight tested: one it turns down
 * is left out untested (the scripted player's first choice skips those that cannot be it).
 */
export function shootTargets(
  s: MoeState,
  b: Bn,
  fromScreen: boolean,
  worth?: (target: string, bound: Shot) => boolean,
): string[] {
  const out: string[] = [];
  const src = fromScreen ? screenRectFor(b, footprint(b)) : footprint(b);
  if (!src) return out;
  const srcPoly = rectCorners(src);
  for (const t of enemiesOn(s, b.side)) {
    if (engaged(t)) continue; // M18: no shooting into combats
    const range = maxRange(b.rifles);
    const shielded = t.sk > 0 && (t.scr === 'front' || t.light) && sectorOf(footprint(t), centre(b)) === 'front';
    if (!shielded && boxGap(srcPoly, poly(t)) <= range) {
      const d = polygonDistance(srcPoly, poly(t));
      if (
        d <= range &&
        (!worth || worth(t.id, shotBound(s, b, fromScreen, t, false, d))) &&
        shotDice(s, b, fromScreen, t, false, null, false)
      )
        out.push(t.id);
    }
    const sp = screenPoly(t);
    if (sp && boxGap(srcPoly, sp) <= range) {
      const d = polygonDistance(srcPoly, sp);
      if (
        d <= range &&
        (!worth || worth(`${t.id}.s`, shotBound(s, b, fromScreen, t, true, d))) &&
        shotDice(s, b, fromScreen, t, true, null, false)
      )
        out.push(`${t.id}.s`);
    }
  }
  return out;
}

/** dp[h][six]: probability of h hits among k dice, with (1) or without (0) a natural 6 among the hits. */
function rollDp(k: number, pM: number, pH: number, pH6: number): number[][] {
  let dp = [[1, 0]];
  for (let i = 0; i < k; i++) {
    const nd: number[][] = Array.from({ length: dp.length + 1 }, () => [0, 0]);
    dp.forEach(([a, b], h) => {
      nd[h]![0]! += a! * pM;
      nd[h]![1]! += b! * pM;
      nd[h + 1]![0]! += a! * pH;
      nd[h + 1]![1]! += b! * pH + (a! + b!) * pH6;
    });
    dp = nd;
  }
  return dp;
}

/**
 * Exact distribution of a volley: `n` dice, each hitting when face + mod ≥ need, up to `r` failed dice re-rolled
 * (sergeants, §6.1). Classes: (hits, a natural 6 among the hitting dice, re-rolls used).
 */
export function volleyDistribution(
  n: number,
  need: number,
  mod: number,
  r: number,
  trackSix: boolean,
): { hits: number; six: boolean; used: number; p: number }[] {
  let pH6 = 0;
  let pH = 0;
  for (let f = 1; f <= 6; f++) {
    if (f + mod >= need) {
      if (f === 6) pH6 += 1 / 6;
      else pH += 1 / 6;
    }
  }
  const pM = 1 - pH6 - pH;
  const first = rollDp(n, pM, pH, pH6);
  const acc = new Map<string, { hits: number; six: boolean; used: number; p: number }>();
  first.forEach((row, h0) => {
    row.forEach((p0, s0) => {
      if (!p0) return;
      const k = Math.min(r, n - h0);
      const second = rollDp(k, pM, pH, pH6);
      second.forEach((row2, h1) => {
        row2.forEach((p1, s1) => {
          if (!p1) return;
          const hits = h0 + h1;
          const six = trackSix && (s0 === 1 || s1 === 1);
          const key = `${hits}/${six}/${k}`;
          const cur = acc.get(key);
          if (cur) cur.p += p0 * p1;
          else acc.set(key, { hits, six, used: k, p: p0 * p1 });
        });
      });
    });
  });
  return [...acc.values()].sort((a, b) => a.used - b.used || a.hits - b.hits || Number(a.six) - Number(b.six));
}

/**
 * A volley's chance outcomes, by its dice, need, modifier, re-rolls and whether a 6 matters: the same few volleys are
 * rolled again and again, and the lists are never changed, so each is worked out once (bounded by the dice a volley
 * can have: at most a few thousand lists).
 */
const volleyMemo = new Map<string, readonly ChanceOutcome<Action>[]>();
function volleyOutcomes(
  dice: number,
  need: number,
  mod: number,
  rerolls: number,
  trackSix: boolean,
): readonly ChanceOutcome<Action>[] {
  const key = `${dice}/${need}/${mod}/${rerolls}/${trackSix ? 1 : 0}`;
  let out = volleyMemo.get(key);
  if (!out) {
    out = volleyDistribution(dice, need, mod, rerolls, trackSix).map((o) => ({
      action: { k: 'c-hits', hits: o.hits, six: o.six, used: o.used },
      p: o.p,
      label: `${o.hits} hit${o.hits === 1 ? '' : 's'}${o.six ? ' with a 6' : ''}${o.used ? `, ${o.used} re-rolled` : ''}`,
    }));
    volleyMemo.set(key, out);
  }
  return out;
}

/**
 * Push the volleys of a shooter and its screen. `shotsIn` is the position the dice are worked out in: the one the order
 * was chosen in, before the shooter was marked as activated, which changes nothing a volley depends on (position,
 * formation, quality, the Supreme Commander) and lets the dice already worked out for the legal actions be reused.
 */
export function startVolleys(
  s: MoeState,
  shooterId: string,
  mainTarget: string,
  screenTarget: string,
  log: Log,
  shotsIn: MoeState = s,
): MoeState {
  let ns = s;
  const b = unit(ns, shooterId);
  const frames: Frame[] = [];
  const mk = (fromScreen: boolean, tkey: string): Frame | null => {
    if (tkey === '-') return null;
    const { id, screen } = targetParts(tkey);
    const shot = shotDice(shotsIn, unit(shotsIn, shooterId), fromScreen, unit(shotsIn, id), screen, null, false);
    if (!shot) return null;
    return {
      t: 'volley',
      shooter: b.id,
      target: id,
      screen: fromScreen,
      tscreen: screen,
      dice: shot.dice,
      need: shot.need,
      mod: shot.mod,
      rerolls: Math.min(shot.dice, Math.max(0, b.sgt - b.sgtU)),
      defensive: false,
    };
  };
  const sv = mk(true, screenTarget);
  const mv = mk(false, mainTarget);
  if (sv) frames.push(sv);
  if (mv) frames.push(mv);
  if (!frames.length) ev(log, 'Accuracy', `${b.name} has no eligible target left`);
  ns = push(ns, ...frames);
  return ns;
}

function applyVolley(
  s: MoeState,
  f: Extract<Frame, { t: 'volley' }>,
  hits: number,
  six: boolean,
  used: number,
  log: Log,
): MoeState {
  let ns = s;
  const shooter = unit(ns, f.shooter);
  if (used) ns = upd(ns, f.shooter, { sgtU: shooter.sgtU + used });
  const t = unit(ns, f.target);
  ev(
    log,
    f.defensive ? 'Defensive fire' : 'Accuracy',
    `${shooter.name}${f.screen ? "'s skirmishers" : ''} fire ${f.dice} dice at ${t.name}${f.tscreen ? "'s skirmishers" : ''} (need ${f.need}${f.mod ? `, ${f.mod > 0 ? '+' : ''}${f.mod} per die` : ''}): ${hits} hit${hits === 1 ? '' : 's'}`,
  );
  if (!hits) return ns;
  if (f.tscreen) {
    const lost = Math.min(hits, t.sk);
    return upd(ns, t.id, { sk: t.sk - lost, cas: t.cas + lost }); // M10: screen casualties trigger no Resolve
  }
  ns = upd(ns, t.id, { trig: f.defensive ? t.trig : t.trig | TRIG_CASUALTIES });
  if (six && characters(ns, t) > 0) {
    // [Risk to personalities in shooting] a 6 among the dice: a Character is lost instead of a Ranker (M14: one)
    return push(ns, { t: 'charPick', u: t.id, defensive: f.defensive, hits });
  }
  return rankerLoss(ns, t.id, hits, log);
}

function charOutcomes(s: MoeState, b: Bn): ChanceOutcome<Action>[] {
  // [Risk to personalities] more than one Character: dice to see which (uniform over figures)
  const types: [CharType, number][] = [
    ['drum', b.drum],
    ['sgt', b.sgt],
    ['ens', b.ens],
    ['off', b.off],
    ['sc', scWith(s, b) ? 1 : 0],
  ];
  const total = types.reduce((a, [, n]) => a + n, 0);
  return types
    .filter(([, n]) => n > 0)
    .map(([which, n]) => ({ action: { k: 'c-char', which }, p: n / total, label: `${which} lost` }));
}

/** [Skirmishers] the screen's own target: none ("-"), or one it may shoot at (`worth` as for `shootTargets`). */
export function screenTargetMenu(s: MoeState, b: Bn, worth?: (target: string, bound: Shot) => boolean): Action[] {
  return ['-', ...shootTargets(s, b, true, worth)].map((target) => ({ k: 'screenTarget', target }));
}

export const shooting: MoeHandlers<'screenTarget' | 'volley' | 'charPick'> = {
  screenTarget: {
    kind: 'decision',
    owner,
    legal: (s, f) => screenTargetMenu(s, unit(s, f.u)),
    step: (s, f, a, log) => startVolleys(s, f.u, '-', (a as Extract<Action, { k: 'screenTarget' }>).target, log),
    describe: (s, f) => `choose a target for ${named(s, f.u)}'s skirmishers ("-" for none)`,
  },
  volley: {
    kind: 'chance',
    outcomes(s, f) {
      const t = unit(s, f.target);
      const trackSix = !f.tscreen && characters(s, t) > 0;
      return volleyOutcomes(f.dice, f.need, f.mod, f.rerolls, trackSix);
    },
    step(s, f, a, log) {
      const o = a as Extract<Action, { k: 'c-hits' }>;
      return applyVolley(s, f, o.hits, o.six, o.used, log);
    },
  },
  charPick: {
    kind: 'chance',
    outcomes: (s, f) => charOutcomes(s, unit(s, f.u)),
    step(s, f, a, log) {
      const which = (a as Extract<Action, { k: 'c-char' }>).which;
      return rankerLoss(loseCharacter(s, f.u, which, log), f.u, f.hits - 1, log);
    },
  },
};
