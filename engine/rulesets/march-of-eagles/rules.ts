/**
 * The March of Eagles: legal actions, chance outcomes and transitions.
 *
 * Rule references in brackets name the rulebook section ([Manoeuvre], [Accuracy], …) and, for rulings the book
 * leaves open, the digest's ADAPTATION number (M1–M25, shared/rules/march-of-eagles.md §8).
 */
import type { ChanceOutcome, GameEvent } from '../../core/game.ts';
import { firstDieGivenSum, sumDistribution, choose } from '../../core/chance.ts';
import {
  type Polygon,
  type Rect,
  IN,
  dist,
  headingTo,
  inFrontArc,
  normDeg,
  onTable,
  polygonDistance,
  polygonDistanceCapped,
  pointPolygonDistance,
  polygonPolylineDistance,
  polygonTouchesPolyline,
  polygonsOverlap,
  bbox,
  boxDistance,
  boxGap,
  sweptBox,
  headingVec,
  type Box,
  rectCorners,
  sectorOf,
  segmentCrossesPolygon,
  translate,
  wheel as wheelRect,
  fromLocal,
} from '../../geometry/geometry.ts';
import {
  difficultFraction,
  heightAt,
  hitsImpassable,
  isDifficultAt,
  lineOfSight,
  obstaclesCrossed,
  upSlope,
  furthestAlong,
  candidatesAlong,
} from '../../geometry/terrain.ts';
import {
  allPolys,
  blockersExcept,
  centre,
  contactRect,
  coverOf,
  eligibleGroups,
  eligibleScreenGroups,
  faceSegment,
  firingGroups,
  footprint,
  maxRange,
  poly,
  rangeFraction,
  rectAt,
  screenGroups,
  screenPoly,
  screenRectFor,
} from './shape.ts';
import { layoutRect, placementChoices, placementXs, skirmisherChoices, withSkirmishers } from './deployment.ts';
import {
  NEED,
  characters,
  effQ,
  eng,
  ev,
  hasUnit,
  other,
  pop,
  push,
  resolveMod,
  scWith,
  sideUnits,
  top,
  unit,
  upd,
  updEng,
  updSC,
  updSide,
} from './state.ts';
import {
  type Action,
  type Bn,
  type CharType,
  type Engagement,
  type Face,
  type Frame,
  type MoeState,
  type Side,
  type Then,
  TRIG_CASUALTIES,
  TRIG_SAW_RUN,
  TRIG_SC_LOST,
} from './types.ts';

type Log = GameEvent[] | undefined;
type BnPatch = { -readonly [K in keyof Bn]?: Bn[K] };
const SEPARATION = 4 * IN; // [Manoeuvre] minimum separation between hostile troops
const STEP = 25; // path sampling step: 1/4"

// =====================================================================================================
// Who moves
// =====================================================================================================

export function frameOwner(f: Frame): Side | 'chance' {
  return 'p' in f ? f.p : 'chance';
}

// =====================================================================================================
// Legality helpers
// =====================================================================================================

function enemiesOn(s: MoeState, side: Side): Bn[] {
  return s.units.filter((u) => u.on && u.side !== side);
}

/** Nearest enemy troops (bodies and screens), capped at the 4" separation: only smaller values matter (M8). */
function minEnemyDistance(s: MoeState, b: Bn, polys: readonly Polygon[]): number {
  let best = SEPARATION;
  for (const e of s.units) {
    if (!e.on || e.side === b.side) continue;
    for (const ep of allPolys(e)) {
      for (const p of polys) {
        const d = polygonDistanceCapped(p, ep, best);
        if (d < best) best = d;
      }
    }
  }
  return best;
}

/** Body and screen polygons of `b` if its body stood at `r`. */
function polysAt(b: Bn, r: Rect): Polygon[] {
  const sr = screenRectFor(b, r);
  return sr ? [rectCorners(r), rectCorners(sr)] : [rectCorners(r)];
}

/**
 * Conservative fast path: is the box `box` clear of the table edges, impassable ground, obstacle lines (if asked),
 * other bodies (friends, if asked) and enemy troops by the 4" separation? If so, every position inside it is legal.
 */
function boxClear(s: MoeState, b: Bn, box: Box, friendsToo: boolean, obstaclesToo: boolean): boolean {
  if (box.minX < 0 || box.minY < 0 || box.maxX > s.ctx.width || box.maxY > s.ctx.height) return false;
  for (const a of s.ctx.terrain.areas) if (a.impassable && boxDistance(box, bbox(a.polygon)) === 0) return false;
  if (obstaclesToo) for (const l of s.ctx.terrain.lines) if (l.obstacle && boxDistance(box, bbox(l.points)) === 0) return false;
  for (const o of s.units) {
    if (!o.on || o.id === b.id) continue;
    if (o.side === b.side) {
      if (friendsToo && boxDistance(box, bbox(poly(o))) === 0) return false;
    } else for (const p of allPolys(o)) if (boxDistance(box, bbox(p)) < SEPARATION) return false;
  }
  return true;
}

/**
 * A non-attack position is legal on the path: on the table, off impassable terrain, and no closer than 4" to enemy
 * troops unless already closer, in which case the distance may not shrink (M8).
 */
function pathOk(s: MoeState, b: Bn, r: Rect, startSep: number): boolean {
  const ps = polysAt(b, r);
  for (const p of ps) if (!onTable(p, s.ctx.width, s.ctx.height)) return false;
  if (hitsImpassable(s.ctx.terrain, ps[0]!)) return false;
  const d = minEnemyDistance(s, b, ps);
  if (d < SEPARATION && d < startSep - 1) return false;
  return true;
}

/** No overlap with other battalions' bodies at the end of a move (M21). */
function endOk(s: MoeState, b: Bn, r: Rect): boolean {
  const p = rectCorners(r);
  for (const o of s.units) {
    if (!o.on || o.id === b.id) continue;
    if (polygonsOverlap(p, poly(o))) return false;
  }
  for (const l of s.ctx.terrain.lines) if (l.obstacle && polygonTouchesPolyline(p, l.points)) return false;
  return true;
}

function engaged(b: Bn): boolean {
  return b.eng !== '';
}

// =====================================================================================================
// Shooting
// =====================================================================================================

interface Shot {
  readonly dice: number;
  readonly need: number;
  readonly mod: number;
}

/** Target key: battalion id for the body, `id.s` for its skirmish screen. */
function targetParts(t: string): { id: string; screen: boolean } {
  return t.endsWith('.s') ? { id: t.slice(0, -2), screen: true } : { id: t, screen: false };
}

/**
 * Volleys already worked out for a position: the legal actions, the scripted preferences and the volley itself ask
 * for the same shot, and its line-of-sight tests are the dearest thing in the rules. Keyed by the position's battalion
 * list (a new list whenever any battalion changes), checked against the sides and context it was made with.
 */
const shotMemo = new WeakMap<readonly Bn[], { sides: MoeState['sides']; ctx: MoeState['ctx']; m: Map<string, Shot | null> }>();

type ShotArgs = [s: MoeState, shooter: Bn, fromScreen: boolean, target: Bn, toScreen: boolean, fixedFraction: number | null, defensive: boolean];

/** [Accuracy] dice for one volley (§6.4 steps 1–5) with a range fraction, or null when no group is eligible. */
export function shotDice(...args: ShotArgs): Shot | null {
  const [s, shooter, fromScreen, target, toScreen, fixedFraction, defensive] = args;
  // only the position's own battalions are memoized: a caller may ask about a changed copy
  if (!hasUnit(s, shooter.id) || unit(s, shooter.id) !== shooter || !hasUnit(s, target.id) || unit(s, target.id) !== target) return computeShot(...args);
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
  const span: Box = { minX: Math.min(sb.minX, tb.minX), minY: Math.min(sb.minY, tb.minY), maxX: Math.max(sb.maxX, tb.maxX), maxY: Math.max(sb.maxY, tb.maxY) };
  const blockers = blockersExcept(
    s,
    (b, isScreen) => (b.id === shooter.id && isScreen === fromScreen) || (b.id === target.id && isScreen === toScreen),
  ).filter((p) => boxDistance(bbox(p), span) === 0);
  const E = fromScreen
    ? eligibleScreenGroups(s, sRect, tPoly, blockers, screenGroups(shooter))
    : eligibleGroups(s, sRect, tPoly, blockers, shooter.f === 'C' ? Math.min(2, firingGroups(shooter)) : firingGroups(shooter));
  if (E <= 0) return null;
  const { q, pen } = effQ(s, shooter);
  let add = 0;
  let halvings = 0;
  if (!toScreen && target.f === 'C') add += 2; // [Shooting modifiers] column target +2
  if (!fromScreen && shooter.british && shooter.f === 'L' && q > 0) add += 2; // British in line (not Green) +2
  if (q === 3) add += 2; // Guards +2
  if (shooter.rifles) add += 2; // British Riflemen shooting +2
  const cover = toScreen ? 'none' : coverOf(s, target, centre(shooter));
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

/** Targets a body (and its screen) may shoot at; the shielding screen rule applies [Skirmishers]. */
function shootTargets(s: MoeState, b: Bn, fromScreen: boolean): string[] {
  const out: string[] = [];
  const src = fromScreen ? screenRectFor(b, footprint(b)) : footprint(b);
  if (!src) return out;
  const srcPoly = rectCorners(src);
  for (const t of enemiesOn(s, b.side)) {
    if (engaged(t)) continue; // M18: no shooting into combats
    const range = maxRange(b.rifles);
    const shielded = t.sk > 0 && (t.scr === 'front' || t.light) && sectorOf(footprint(t), centre(b)) === 'front';
    if (!shielded && boxGap(srcPoly, poly(t)) <= range && polygonDistance(srcPoly, poly(t)) <= range && shotDice(s, b, fromScreen, t, false, null, false))
      out.push(t.id);
    const sp = screenPoly(t);
    if (sp && boxGap(srcPoly, sp) <= range && polygonDistance(srcPoly, sp) <= range && shotDice(s, b, fromScreen, t, true, null, false)) out.push(`${t.id}.s`);
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
export function volleyDistribution(n: number, need: number, mod: number, r: number, trackSix: boolean): { hits: number; six: boolean; used: number; p: number }[] {
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

// =====================================================================================================
// Attacks
// =====================================================================================================

interface AttackInfo {
  face: Face;
  join: boolean;
  contact: Rect;
}

/** [Aggression] / M25: may `b` attack `t`? Returns the face to contact, or null. */
function attackInfo(s: MoeState, b: Bn, t: Bn): AttackInfo | null {
  if (!t.on || t.side === b.side || t.brk) return null;
  const reach = (b.f === 'L' ? 12 : 18) * IN;
  if (boxGap(poly(b), poly(t)) > reach) return null;
  let join = false;
  const tr = footprint(t);
  const face = sectorOf(tr, centre(b));
  if (engaged(t)) {
    // §6.8: join only into the flank or rear of an engaged enemy, not in the turn the combat started
    const e = eng(s, t.eng);
    if (e.started >= s.turn) return null;
    if (face === 'front') return null;
    join = true;
  }
  const br = footprint(b);
  const tp = poly(t);
  const bp = poly(b);
  if (polygonDistance(bp, tp) > reach) return null;
  if (!tp.some((q) => inFrontArc(br, q))) return null;
  const contact = contactRect(t, face, br.w, br.d);
  const cc = rectCorners(contact);
  const bc = rectCorners(br);
  // the straight path to contact crosses no other footprint except the target's own screen (M25)
  for (const o of s.units) {
    if (!o.on || o.id === b.id || o.id === t.id) continue;
    const op = poly(o);
    if (segmentCrossesPolygon(centre(b), contact, op)) return null;
    if (segmentCrossesPolygon(bc[0]!, cc[1]!, op) || segmentCrossesPolygon(bc[1]!, cc[0]!, op)) return null;
    if (o.side === b.side) {
      const sp = screenPoly(o);
      if (sp && segmentCrossesPolygon(centre(b), contact, sp)) return null;
    }
  }
  if (hitsImpassable(s.ctx.terrain, cc)) return null;
  if (!onTable(cc, s.ctx.width, s.ctx.height)) return null;
  const blockers = blockersExcept(s, (o, isScreen) => o.id === b.id || (o.id === t.id && !isScreen) || (o.id === t.id && isScreen));
  const front = fromLocal(br, 0, br.d / 2);
  if (!lineOfSight(s.ctx.terrain, front, centre(t), blockers) && !tp.some((q) => lineOfSight(s.ctx.terrain, front, q, blockers))) return null;
  return { face, join, contact };
}

// =====================================================================================================
// Legal actions
// =====================================================================================================

/** Facings offered for a change of formation: the 8 compass points, the current facing, and toward each seen enemy. */
function facingOptions(s: MoeState, b: Bn, towardEnemies = true): number[] {
  const hs = new Set<number>([0, 45, 90, 135, 180, 225, 270, 315, b.h]);
  if (towardEnemies) for (const e of enemiesOn(s, b.side)) {
    if (lineOfSight(s.ctx.terrain, centre(b), centre(e), blockersExcept(s, (o) => o.id === b.id || o.id === e.id))) hs.add(headingTo(centre(b), centre(e)));
  }
  return [...hs].sort((a, c) => a - c);
}

function formOk(s: MoeState, b: Bn, f: 'L' | 'C', h: number, before: number): boolean {
  const r = rectAt(b, b.x, b.y, h, f);
  const nb = { ...b, f, h };
  const ps = polysAt(nb, r);
  for (const p of ps) if (!onTable(p, s.ctx.width, s.ctx.height)) return false;
  if (hitsImpassable(s.ctx.terrain, ps[0]!)) return false;
  if (!endOk(s, b, r)) return false;
  const after = minEnemyDistance(s, nb, ps);
  return !(after < SEPARATION && after < before - 1);
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

/** The activation types open to one battalion (§6.2); the type is declared before any check is rolled. */
function orderOptions(s: MoeState, b: Bn): Action[] {
  const out: Action[] = [{ k: 'pass', u: b.id }];
  if (b.brk) {
    if (!b.ral) out.push({ k: 'rally', u: b.id }); // [Resolve] RALLY: broken battalions only
    return out;
  }
  if (b.stand === s.turn) return out; // M12: mustStand → PASS only
  const difficult = isDifficultAt(s.ctx.terrain, centre(b));
  out.push({ k: 'move', u: b.id, dir: 0 });
  for (const o of s.ctx.options.M7_obliques) out.push({ k: 'move', u: b.id, dir: -o }, { k: 'move', u: b.id, dir: o });
  out.push({ k: 'back', u: b.id });
  if (!difficult) {
    // [Manoeuvre] no wheels or formation changes in difficult terrain
    out.push({ k: 'wheel', u: b.id, side: 'L' }, { k: 'wheel', u: b.id, side: 'R' });
    // [Manoeuvre] change formation: the new facing is chosen once the check is passed; offered if any fits
    if (formFacings(s, b, true).length) out.push({ k: 'form', u: b.id });
  }
  if (b.dis && !b.reform) out.push({ k: 'reform', u: b.id });
  const tgts = shootTargets(s, b, false);
  for (const t of tgts) out.push({ k: 'shoot', u: b.id, target: t });
  if (!tgts.length && b.sk > 0 && shootTargets(s, b, true).length) out.push({ k: 'shoot', u: b.id, target: '-' });
  for (const t of enemiesOn(s, b.side)) if (attackInfo(s, b, t)) out.push({ k: 'attack', u: b.id, target: t.id });
  return out;
}

/** Legal facings for a change of formation (all of them, or just the first found when `any`). */
function formFacings(s: MoeState, b: Bn, any: boolean): number[] {
  const nf = b.f === 'L' ? 'C' : 'L';
  // every facing fits in the disk through the new footprint's furthest corner: if that is clear, all are legal
  const r0 = rectAt(b, b.x, b.y, 0, nf);
  let R = 0;
  for (const p of polysAt({ ...b, f: nf, h: 0 }, r0)) for (const c of p) R = Math.max(R, Math.hypot(c.x - b.x, c.y - b.y));
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
  const swept = sweptBox(allPolys(b), v.x * allow, v.y * allow);
  let reach: number;
  if (boxClear(s, b, swept, false, false)) reach = allow;
  else {
    const startSep = minEnemyDistance(s, b, allPolys(b));
    reach = furthestAlong(r, dir, allow, STEP, (rr) => pathOk(s, b, rr, startSep));
  }
  const out: number[] = [];
  for (const c of candidatesAlong(r, dir, reach, s.ctx.options.M7_fractions)) {
    // M21 no overlap at the end; M7 stop short of an obstacle that cannot be crossed
    let d = c.distance;
    while (d > 0 && !endOk(s, b, translate(r, dir, d))) d -= STEP;
    if (d > 0 && !out.includes(d)) out.push(d);
  }
  if (!out.length) out.push(0);
  return out.sort((a, c) => a - c);
}

function wheelAngles(s: MoeState, b: Bn, side: 'L' | 'R', allow: number): number[] {
  const r = footprint(b);
  const startSep = minEnemyDistance(s, b, allPolys(b));
  const out = [0];
  for (const a of s.ctx.options.M7_wheelAngles) {
    if ((r.w * a * Math.PI) / 180 > allow + 0.5) continue; // [Manoeuvre] wheel measured from the outside
    const nr = wheelRect(r, side, a);
    if (pathOk(s, b, nr, startSep) && endOk(s, b, nr)) out.push(a);
  }
  return out;
}

function scDestinations(s: MoeState, p: Side, allow: number): Action[] {
  const sc = s.sides[p].sc;
  const out: Action[] = [{ k: 'scDest', to: '', mode: 'stay' }];
  const from = sc.att ? centre(unit(s, sc.att)) : { x: sc.x, y: sc.y };
  for (const b of sideUnits(s, p)) {
    if (!b.on) continue;
    if (b.id !== sc.att && !b.brk && !engaged(b) && pointPolygonDistance(from, poly(b)) <= allow) out.push({ k: 'scDest', to: b.id, mode: 'attach' });
    const behind = behindPoint(b);
    if (dist(from, behind) <= allow && onTable([behind], s.ctx.width, s.ctx.height)) out.push({ k: 'scDest', to: b.id, mode: 'behind' });
  }
  return out;
}

function behindPoint(b: Bn): { x: number; y: number } {
  const r = footprint(b);
  const p = fromLocal(r, 0, -r.d / 2 - 3 * IN);
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

export function legalActions(s: MoeState): Action[] {
  const f = top(s);
  if (!f || s.result) return [];
  switch (f.t) {
    case 'chooseSide':
      return [{ k: 'side', edge: 'south' }, { k: 'side', edge: 'north' }];
    case 'skirm':
      return skirmisherChoices(s, unit(s, f.u)).map((n) => ({ k: 'skirm', n }));
    case 'firstPlacer':
      return [{ k: 'placer', self: true }, { k: 'placer', self: false }];
    case 'place':
      return placementChoices(s, f.p).map(({ u, lay }) => ({ k: 'place', u, row: lay.row, f: lay.f, scr: lay.scr }));
    case 'placeX':
      return placementXs(s, unit(s, f.u), f).map((x) => ({ k: 'x', x }));
    case 'placeSC': {
      // M23: with a battalion, or 3" behind it where that point is on the table
      const out: Action[] = [];
      for (const b of sideUnits(s, f.p)) {
        out.push({ k: 'placeSC', attach: b.id, behind: false });
        if (onTable([behindPoint(b)], s.ctx.width, s.ctx.height)) out.push({ k: 'placeSC', attach: b.id, behind: true });
      }
      return out;
    }
    case 'initChoice':
      return [{ k: 'first', self: true }, { k: 'first', self: false }];
    case 'slot':
      return activationOptions(s, f.p);
    case 'orders':
      return orderOptions(s, unit(s, f.u));
    case 'moveDist':
      return moveDistances(s, unit(s, f.u), f.dir, f.allow).map((d) => ({ k: 'dist', d }));
    case 'formFacing':
      return formFacings(s, unit(s, f.u), false).map((h) => ({ k: 'facing', h }));
    case 'wheelAngle':
      return wheelAngles(s, unit(s, f.u), f.side, f.allow).map((a) => ({ k: 'angle', a }));
    case 'screenPlace':
      return (['front', 'left', 'right', 'rear'] as const).map((pos) => ({ k: 'screen', pos }));
    case 'screenTarget':
      return ['-', ...shootTargets(s, unit(s, f.u), true)].map((target) => ({ k: 'screenTarget', target }));
    case 'defFire':
      return [{ k: 'defFire', yes: true }, { k: 'defFire', yes: false }];
    case 'followUp':
      return [{ k: 'followUp', yes: true }, { k: 'followUp', yes: false }];
    case 'scDest':
      return scDestinations(s, f.p, f.allow);
    default:
      return [];
  }
}

// =====================================================================================================
// Chance outcomes
// =====================================================================================================

function checkOutcomes(need: number, mod: number, rerolls: number): ChanceOutcome<Action>[] {
  let w = 0;
  for (let f = 1; f <= 6; f++) if (f + mod >= need) w++;
  const p = w / 6;
  const out: ChanceOutcome<Action>[] = [];
  if (p === 1) return [{ action: { k: 'c-check', pass: true, used: 0 }, p: 1, label: 'pass' }];
  for (let k = 0; k <= rerolls; k++) {
    const pk = p * (1 - p) ** k;
    if (pk > 0) out.push({ action: { k: 'c-check', pass: true, used: k }, p: pk, label: k ? `pass after ${k} re-roll${k > 1 ? 's' : ''}` : 'pass' });
  }
  out.push({ action: { k: 'c-check', pass: false, used: rerolls }, p: (1 - p) ** (rerolls + 1), label: 'fail' });
  return out;
}

function winOutcomes(mods: [number, number]): ChanceOutcome<Action>[] {
  // M6: ties re-rolled, so each side's chance is its share of the decisive results
  let a = 0;
  let b = 0;
  for (let x = 1; x <= 6; x++)
    for (let y = 1; y <= 6; y++) {
      if (x + mods[0] > y + mods[1]) a++;
      else if (x + mods[0] < y + mods[1]) b++;
    }
  const out: ChanceOutcome<Action>[] = [];
  if (a) out.push({ action: { k: 'c-win', side: 0 }, p: a / (a + b), label: 'side A wins' });
  if (b) out.push({ action: { k: 'c-win', side: 1 }, p: b / (a + b), label: 'side B wins' });
  return out;
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
  return types.filter(([, n]) => n > 0).map(([which, n]) => ({ action: { k: 'c-char', which }, p: n / total, label: `${which} lost` }));
}

function combatOutcomes(ma: number, md: number): ChanceOutcome<Action>[] {
  const w: Record<string, number> = { A3: 0, A: 0, T: 0, D: 0, D3: 0 };
  for (let x = 1; x <= 6; x++)
    for (let y = 1; y <= 6; y++) {
      const m = x + ma - (y + md);
      w[m >= 3 ? 'A3' : m > 0 ? 'A' : m === 0 ? 'T' : m > -3 ? 'D' : 'D3']!++;
    }
  const labels: Record<string, string> = { A3: 'attacker wins by 3+', A: 'attacker wins by 1–2', T: 'tie', D: 'defender wins by 1–2', D3: 'defender wins by 3+' };
  return (['A3', 'A', 'T', 'D', 'D3'] as const).filter((k) => w[k]).map((res) => ({ action: { k: 'c-combat', res }, p: w[res]! / 36, label: labels[res]! }));
}

function lostOutcomes(s: MoeState, b: Bn): ChanceOutcome<Action>[] {
  // [Risk to characters in combat] a D6 for each Character; lost on M14_combatRisk+ (4+ = "50%")
  const pl = (7 - s.ctx.options.M14_combatRisk) / 6;
  const counts = [b.drum, b.sgt, b.ens, b.off, scWith(s, b) ? 1 : 0];
  const out: ChanceOutcome<Action>[] = [];
  const bin = (n: number, k: number) => choose(n, k) * pl ** k * (1 - pl) ** (n - k);
  for (let a = 0; a <= counts[0]!; a++)
    for (let c = 0; c <= counts[1]!; c++)
      for (let e = 0; e <= counts[2]!; e++)
        for (let o = 0; o <= counts[3]!; o++)
          for (let g = 0; g <= counts[4]!; g++) {
            const p = bin(counts[0]!, a) * bin(counts[1]!, c) * bin(counts[2]!, e) * bin(counts[3]!, o) * bin(counts[4]!, g);
            if (p > 0) out.push({ action: { k: 'c-lost', drum: a, sgt: c, ens: e, off: o, sc: g }, p, label: `${a + c + e + o + g} Character(s) lost` });
          }
  return out;
}

export function chanceOutcomes(s: MoeState): ChanceOutcome<Action>[] {
  const f = top(s);
  if (!f || s.result) return [];
  switch (f.t) {
    case 'rollOff':
      return winOutcomes([0, 0]);
    case 'initRoll':
      return winOutcomes([initiativeBonus(s, 0), initiativeBonus(s, 1)]);
    case 'check':
      return checkOutcomes(f.need, f.mod, f.rerolls);
    case 'dist':
      return sumDistribution(f.n).map(({ sum, p }) => ({ action: { k: 'c-sum', sum }, p, label: `${f.n}D6 = ${sum}` }));
    case 'run':
      return sumDistribution(3).map(({ sum, p }) => ({ action: { k: 'c-sum', sum }, p, label: `3D6 = ${sum}` }));
    case 'scRoll':
      return sumDistribution(4).map(({ sum, p }) => ({ action: { k: 'c-sum', sum }, p, label: `4D6 = ${sum}` }));
    case 'firstDie':
      return firstDieGivenSum(f.n, f.sum).map(({ face, p }) => ({ action: { k: 'c-die', face }, p, label: `first die ${face}` }));
    case 'obstacle':
      return [1, 2, 3, 4, 5, 6].map((face) => ({ action: { k: 'c-die', face }, p: 1 / 6, label: `D6 = ${face}` }));
    case 'volley': {
      const t = unit(s, f.target);
      const trackSix = !f.tscreen && characters(s, t) > 0;
      return volleyDistribution(f.dice, f.need, f.mod, f.rerolls, trackSix).map((o) => ({
        action: { k: 'c-hits', hits: o.hits, six: o.six, used: o.used },
        p: o.p,
        label: `${o.hits} hit${o.hits === 1 ? '' : 's'}${o.six ? ' with a 6' : ''}${o.used ? `, ${o.used} re-rolled` : ''}`,
      }));
    }
    case 'charPick':
      return charOutcomes(s, unit(s, f.u));
    case 'dfBand': {
      // [Defensive fire] 1 long, (2: M9), 3–5 medium, 6 short
      const two = s.ctx.options.M9_band2 === 'long';
      return [
        { action: { k: 'c-band', band: 'long' }, p: two ? 2 / 6 : 1 / 6, label: 'long range (25%)' },
        { action: { k: 'c-band', band: 'medium' }, p: two ? 3 / 6 : 4 / 6, label: 'medium range (50%)' },
        { action: { k: 'c-band', band: 'short' }, p: 1 / 6, label: 'short range (all)' },
      ];
    }
    case 'combat':
      return combatOutcomes(f.ma, f.md);
    case 'combatChars':
      return lostOutcomes(s, unit(s, f.lose));
    default:
      return [];
  }
}

// =====================================================================================================
// Transitions
// =====================================================================================================

/** [Initiative] D6 + officers in the army, including the commander. */
export function initiativeBonus(s: MoeState, side: Side): number {
  let n = s.sides[side].sc.alive ? 1 : 0;
  for (const b of s.units) if (b.side === side && b.on && b.off) n++;
  return n;
}

function startCheck(s: MoeState, b: Bn, kind: 'manoeuvre' | 'bravery' | 'rally' | 'resolve', then: Then, log: Log): MoeState {
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

function afterCheck(s: MoeState, id: string, then: Then, pass: boolean, log: Log): MoeState {
  const b = unit(s, id);
  switch (then.k) {
    case 'move': {
      if (!pass) return s;
      // [Manoeuvre] 2D6 in line, 3D6 in column, 1D6 back; 1D6 from difficult terrain or up a slope
      let n = then.back ? 1 : b.f === 'L' ? 2 : 3;
      const dir = normDeg(b.h + then.dir);
      if (n > 1 && !scWith(s, b) && (isDifficultAt(s.ctx.terrain, centre(b)) || upSlope(s.ctx.terrain, centre(b), dir))) {
        n = 1;
        ev(log, 'Manoeuvre', `${b.name} starts in difficult terrain or on an upward slope: 1D6`);
      }
      return push(s, { t: 'dist', u: id, n, then });
    }
    case 'wheel':
      return pass ? push(s, { t: 'dist', u: id, n: 1, then }) : s;
    case 'form':
      return pass ? push(s, { t: 'formFacing', p: b.side, u: id }) : s;
    case 'reform':
      if (!pass) return s;
      ev(log, 'Disorder', `${b.name} reforms: disorder clears at the end of the turn unless attacked (M12)`);
      return upd(s, id, { reform: true });
    case 'attack': {
      if (!pass) return s;
      // [Aggression] 2D6 in line, 3D6 in column; the difficult-terrain and slope rules apply
      let n = b.f === 'L' ? 2 : 3;
      const t = unit(s, then.target);
      if (!scWith(s, b) && (isDifficultAt(s.ctx.terrain, centre(b)) || upSlope(s.ctx.terrain, centre(b), headingTo(centre(b), centre(t))))) {
        n = 1;
        ev(log, 'Aggression', `${b.name} charges from difficult terrain or up a slope: 1D6`);
      }
      return push(s, { t: 'dist', u: id, n, then: { k: 'charge', target: then.target, face: then.face, join: then.join, dis: false } });
    }
    case 'rally':
      if (!pass) {
        ev(log, 'Resolve', `${b.name} fails to rally and will run in the compulsory moves`);
        return s;
      }
      ev(log, 'Resolve', `${b.name} rallies: it halts and must stand a turn to reform`);
      return upd(s, id, { ral: true, stand: s.turn + 1, standDis: true });
    case 'resolve': {
      if (!pass) {
        ev(log, 'Resolve', `${b.name} fails its RESOLVE check and breaks`);
        let ns = s;
        if (then.cause === 'combat' && then.e) ns = endEngagement(ns, then.e, false, log);
        return breakUnit(ns, id, log);
      }
      ev(log, 'Resolve', `${b.name} passes its RESOLVE check`);
      if (then.cause === 'combat') return push(s, { t: 'followUp', p: unit(s, then.win!).side, e: then.e!, win: then.win!, lose: id });
      if (then.cause === 'defFire') return contactAndFight(s, id, then.target!, then.face!, log);
      return s;
    }
    case 'charge':
    case 'none':
      return s;
  }
  return s;
}

/** Apply a move/charge distance roll (after the first-die and obstacle rulings). */
function afterDistance(s: MoeState, id: string, then: Then, allowIn: number, firstDieDone: boolean, obstacleDone: boolean, n: number, sum: number, log: Log): MoeState {
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
    const t = unit(s, then.target);
    const contact = contactRect(t, then.face, footprint(b).w, footprint(b).d);
    if (!firstDieDone && n > 1 && !sc && difficultFraction(s.ctx.terrain, centre(b), contact) > 0.5) {
      ev(log, 'Aggression', `more than half of ${b.name}'s charge is over difficult terrain: first die only (M7)`);
      return push(s, { t: 'firstDie', u: id, n, sum, then });
    }
    if (!obstacleDone && obstaclesCrossed(s.ctx.terrain, footprint(b), contact).length) return push(s, { t: 'obstacle', u: id, allow, then });
    return resolveCharge(s, id, then, allow, log);
  }
  return s;
}

/**
 * [Disorder] "A close order unit which enters difficult terrain is disordered", however it got there: a move, a wheel,
 * a charge (whether it contacts or falls short), a join, a follow-up or a fall-back. Entering is judged as for moves:
 * the centre's path crosses difficult ground or ends on it.
 */
function enterGround(s: MoeState, id: string, from: Rect, to: Rect, log: Log, how: string): MoeState {
  const b = unit(s, id);
  if (b.dis || (from.x === to.x && from.y === to.y)) return s;
  if (!(difficultFraction(s.ctx.terrain, from, to) > 0 || isDifficultAt(s.ctx.terrain, to))) return s;
  ev(log, 'Disorder', `${b.name} ${how} into difficult terrain: disordered`);
  return upd(s, id, { dis: true, reform: false });
}

function resolveCharge(s: MoeState, id: string, then: Extract<Then, { k: 'charge' }>, allow: number, log: Log): MoeState {
  let ns = s;
  const b = unit(ns, id);
  const t = unit(ns, then.target);
  if (then.dis && !b.dis) {
    ns = upd(ns, id, { dis: true });
    ev(log, 'Manoeuvre', `${b.name} charges across a linear obstacle: instant disorder`);
  }
  const [f1, f2] = faceSegment(t, then.face);
  const need = polygonPolylineDistance(poly(b), [f1, f2]);
  if (allow + 1 < need) {
    // [Aggression] fails to make contact: moves the full distance and stands a turn (the 4" rule is waived)
    const r = footprint(b);
    const dir = headingTo(centre(b), { x: (f1.x + f2.x) / 2, y: (f1.y + f2.y) / 2 });
    const d = furthestAlong(r, dir, Math.max(0, Math.min(allow, need - 50)), STEP, (rr) => {
      const p = rectCorners(rr);
      if (!onTable(p, ns.ctx.width, ns.ctx.height) || hitsImpassable(ns.ctx.terrain, p)) return false;
      return !ns.units.some((o) => o.on && o.id !== id && polygonsOverlap(p, poly(o)));
    });
    const nr = translate(r, dir, d);
    ev(log, 'Aggression', `${b.name}'s charge falls short (${(allow / IN).toFixed(1)}" of ${(need / IN).toFixed(1)}"): it stands next turn`);
    ns = upd(ns, id, { x: nr.x, y: nr.y, stand: ns.turn + 1, standDis: false });
    return enterGround(ns, id, r, nr, log, 'charges');
  }
  // the path sweeps the target's screen away [Skirmishers]
  const tsp = screenPoly(t);
  if (tsp && t.sk > 0) {
    const contact = contactRect(t, then.face, footprint(b).w, footprint(b).d);
    if (segmentCrossesPolygon(centre(b), contact, tsp) || polygonsOverlap(rectCorners(contact), tsp)) {
      ev(log, 'Skirmishers', `${t.name}'s skirmish screen (${t.sk}) is contacted and removed from the game`);
      ns = upd(ns, t.id, { sk: 0, cas: t.cas + t.sk });
    }
  }
  if (then.join) {
    // §6.8 join: no defensive fire; the engaged enemy attacked in flank or rear becomes disordered
    const e = eng(ns, t.eng);
    const fromTurn = ns.nAct === 1 ? ns.turn : ns.turn + 1;
    const c = contactRect(unit(ns, t.id), then.face, footprint(b).w, footprint(b).d);
    const from = footprint(unit(ns, id));
    ns = upd(ns, id, { x: c.x, y: c.y, h: c.h, eng: e.id });
    ns = enterGround(ns, id, from, c, log, 'joins the combat');
    ns = upd(ns, t.id, { dis: true });
    ns = updEng(ns, e.id, { joiners: [...e.joiners, { id, side: b.side, from: fromTurn }] });
    ev(log, 'Aggression', `${b.name} joins the combat against ${t.name}'s ${then.face}: +2 from turn ${fromTurn}; ${t.name} is disordered`);
    return ns;
  }
  const td = unit(ns, t.id);
  // [Defensive fire] only a battalion that has not activated, is not standing, engaged or broken, and has at least
  // one firing group eligible against the attacker at its starting position
  if (!td.act && td.stand < ns.turn && !engaged(td) && !td.brk && shotDice(ns, td, false, unit(ns, id), false, 1, true)) {
    return push(ns, { t: 'defFire', p: td.side, att: id, def: td.id });
  }
  return contactAndFight(ns, id, td.id, then.face, log);
}

function contactAndFight(s: MoeState, attId: string, defId: string, face: Face, log: Log): MoeState {
  let ns = s;
  const a = unit(ns, attId);
  const d = unit(ns, defId);
  if (!a.on || !d.on) return ns;
  if (d.brk) {
    // M11: a broken battalion contacted by an attack is removed
    ev(log, 'M11', `${d.name} is broken and is caught: removed from play`);
    return removeUnit(ns, defId, 'destroyed', log);
  }
  if ((d.stand >= ns.turn && d.standDis) || d.reform) {
    // [Disorder] attacked before spending a full turn standing to rally/reform (M12)
    ev(log, 'Disorder', `${d.name} is attacked while standing or reforming: disordered`);
    ns = upd(ns, defId, { dis: true, reform: false });
  }
  const c = contactRect(unit(ns, defId), face, footprint(a).w, footprint(a).d);
  const id = `E${ns.nEng + 1}`;
  ns = { ...ns, nEng: ns.nEng + 1 };
  const e: Engagement = { id, att: attId, def: defId, rounds: 0, bonus: 'att', started: ns.turn, joiners: [], fought: false, face };
  ns = { ...ns, engs: [...ns.engs, e] };
  ns = upd(ns, attId, { x: c.x, y: c.y, h: c.h, eng: id });
  ns = upd(ns, defId, { eng: id });
  ev(log, 'Aggression', `${a.name} contacts ${d.name}'s ${face}: combat`);
  ns = enterGround(ns, attId, footprint(a), c, log, 'charges');
  return startCombat(ns, id, log);
}

/** [Combat process] modifiers for one side of an engagement. */
export function combatModifier(s: MoeState, e: Engagement, role: 'att' | 'def', log?: Log): number {
  const u = unit(s, role === 'att' ? e.att : e.def);
  const v = unit(s, role === 'att' ? e.def : e.att);
  const parts: string[] = [];
  let m = 0;
  const add = (n: number, why: string) => {
    if (!n) return;
    m += n;
    parts.push(`${n > 0 ? '+' : ''}${n} ${why}`);
  };
  add(firingGroups(u), 'firing groups');
  if (e.bonus === role) add(u.f === 'L' ? 3 : 6, `charge in ${u.f === 'L' ? 'line' : 'column'}`);
  if (u.off) add(3, 'officer');
  const joiners = e.joiners.filter((j) => j.side === u.side && j.from <= s.turn && unit(s, j.id).on);
  if (joiners.length) add(s.ctx.options.M13_join === 'flat' ? 2 : 2 * joiners.length, 'friends joined (M13)');
  if (heightAt(s.ctx.terrain, centre(u)) > heightAt(s.ctx.terrain, centre(v))) add(2, 'uphill');
  add(u.drum + u.sgt + u.ens, 'other Characters');
  if (role === 'att') {
    const cover = coverOf(s, v, centre(u));
    if (cover === 'soft') add(-1, 'enemy defends soft cover');
    if (cover === 'hard') add(-4, 'enemy defends hard cover');
  }
  if (u.dis) add(-2, 'disordered');
  if (scWith(s, u)) add(3, 'Supreme Commander');
  ev(log, 'Combat process', `${u.name}: D6 ${parts.join(' ')}`);
  return m;
}

function startCombat(s: MoeState, eid: string, log: Log): MoeState {
  const e = eng(s, eid);
  let ns = s;
  // a fought engagement counts as the activation of both fighting battalions (and joiners)
  for (const id of [e.att, e.def, ...e.joiners.map((j) => j.id)]) if (unit(ns, id).on) ns = upd(ns, id, { act: true });
  ns = updEng(ns, eid, { fought: true });
  const ma = combatModifier(ns, e, 'att', log);
  const md = combatModifier(ns, e, 'def', log);
  return push(ns, { t: 'combat', e: eid, ma, md });
}

function fallBack(s: MoeState, id: string, inches2: number, log: Log, rule: string): MoeState {
  const b = unit(s, id);
  const r = footprint(b);
  const dir = normDeg(b.h + 180);
  const d = furthestAlong(r, dir, inches2, STEP, (rr) => {
    const p = rectCorners(rr);
    return onTable(p, s.ctx.width, s.ctx.height) && !hitsImpassable(s.ctx.terrain, p);
  });
  const nr = translate(r, dir, d);
  ev(log, rule, `${b.name} falls back ${(d / IN).toFixed(1)}"`);
  return enterGround(upd(s, id, { x: nr.x, y: nr.y }), id, r, nr, log, 'falls back');
}

/** End an engagement; joiners fall back 2" and stand (M13); optionally both fighters stand (no follow-up). */
function endEngagement(s: MoeState, eid: string, bothStand: boolean, log: Log): MoeState {
  const e = eng(s, eid);
  let ns: MoeState = { ...s, engs: s.engs.filter((x) => x.id !== eid) };
  for (const id of [e.att, e.def]) {
    if (!unit(ns, id).on) continue;
    ns = upd(ns, id, bothStand ? { eng: '', stand: ns.turn + 1, standDis: true } : { eng: '' });
  }
  for (const j of e.joiners) {
    if (!unit(ns, j.id).on) continue;
    ns = upd(ns, j.id, { eng: '', stand: ns.turn + 1, standDis: true });
    ns = fallBack(ns, j.id, 2 * IN, log, 'M13');
  }
  ev(log, 'Combat process', `the combat ${bothStand ? 'ends without a follow-up: both stand next turn' : 'ends'}`);
  return ns;
}

function removeUnit(s: MoeState, id: string, how: 'routed' | 'destroyed', log: Log): MoeState {
  let ns = s;
  const b = unit(ns, id);
  if (b.eng) ns = endEngagement(ns, b.eng, false, log);
  const sc = ns.sides[b.side].sc;
  if (sc.alive && sc.att === id) ns = updSC(ns, b.side, { att: '', x: b.x, y: b.y });
  ev(log, how === 'routed' ? 'Resolve' : 'M11', `${b.name} ${how === 'routed' ? 'routs off the table and does not come back' : 'is destroyed'}`);
  return upd(ns, id, { on: false, gone: how, eng: '', cas: b.cas + (how === 'destroyed' ? b.sk : 0), sk: how === 'destroyed' ? 0 : b.sk });
}

/** Take Ranker casualties off the close-order body; 0 Rankers = removed (M11). */
function rankerLoss(s: MoeState, id: string, n: number, log: Log): MoeState {
  const b = unit(s, id);
  const lost = Math.min(n, b.rk);
  let ns = upd(s, id, { rk: b.rk - lost, cas: b.cas + lost });
  if (b.rk - lost <= 0) ns = removeUnit(ns, id, 'destroyed', log);
  return ns;
}

function loseCharacter(s: MoeState, id: string, which: CharType, log: Log): MoeState {
  const b = unit(s, id);
  const names: Record<CharType, string> = { drum: 'drummer', sgt: 'sergeant', ens: 'ensign', off: 'officer', sc: 'Supreme Commander' };
  ev(log, 'Risk to characters', `${b.name} loses its ${names[which]}`);
  if (which === 'sc') return killSC(upd(s, id, { cas: b.cas + 1 }), b.side, id, log);
  const patch: Partial<Bn> = { cas: b.cas + 1 };
  if (which === 'drum') Object.assign(patch, { drum: b.drum - 1 });
  if (which === 'sgt') Object.assign(patch, { sgt: b.sgt - 1 });
  if (which === 'ens') Object.assign(patch, { ens: 0 });
  if (which === 'off') Object.assign(patch, { off: 0 });
  return upd(s, id, patch);
}

function killSC(s: MoeState, side: Side, withId: string, log: Log): MoeState {
  // [Supreme Commander] killed: not replaced; the army drops one level permanently; his battalion checks RESOLVE
  ev(log, 'Supreme Commander', `${s.sides[side].name}'s Supreme Commander is killed: every battalion drops one quality level`);
  let ns = updSide(s, side, { scKilled: true, sc: { ...s.sides[side].sc, alive: false, att: '' } });
  const b = unit(ns, withId);
  ns = upd(ns, withId, { trig: b.trig | TRIG_SC_LOST });
  return ns;
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
    if (lineOfSight(ns.ctx.terrain, centre(f), centre(b), blockers)) ns = upd(ns, f.id, { trig: unit(ns, f.id).trig | TRIG_SAW_RUN });
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
  } else for (let x = STEP; x <= allow; x += STEP) {
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

/** M21: close-order friends passed through become disordered. */
function passThroughDisorder(s: MoeState, b: Bn, from: Rect, to: Rect, log: Log): MoeState {
  let ns = s;
  const d = dist(from, to);
  if (d < 1) return ns;
  const dir = headingTo(from, to);
  for (const f of s.units) {
    if (!f.on || f.side !== b.side || f.id === b.id || f.dis) continue;
    const fp = poly(f);
    let hit = false;
    for (let x = 0; x <= d && !hit; x += IN) hit = polygonsOverlap(rectCorners(translate(from, dir, x)), fp);
    if (hit) {
      ns = upd(ns, f.id, { dis: true });
      ev(log, 'Disorder', `${f.name} is interpenetrated by ${b.name}: disordered`);
    }
  }
  return ns;
}

function applyVolley(s: MoeState, f: Extract<Frame, { t: 'volley' }>, hits: number, six: boolean, used: number, log: Log): MoeState {
  let ns = s;
  const shooter = unit(ns, f.shooter);
  if (used) ns = upd(ns, f.shooter, { sgtU: shooter.sgtU + used });
  const t = unit(ns, f.target);
  ev(log, f.defensive ? 'Defensive fire' : 'Accuracy', `${shooter.name}${f.screen ? "'s skirmishers" : ''} fire ${f.dice} dice at ${t.name}${f.tscreen ? "'s skirmishers" : ''} (need ${f.need}${f.mod ? `, ${f.mod > 0 ? '+' : ''}${f.mod} per die` : ''}): ${hits} hit${hits === 1 ? '' : 's'}`);
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

/**
 * Push the volleys of a shooter and its screen. `shotsIn` is the position the dice are worked out in: the one the order
 * was chosen in, before the shooter was marked as activated, which changes nothing a volley depends on (position,
 * formation, quality, the Supreme Commander) and lets the dice already worked out for the legal actions be reused.
 */
function startVolleys(s: MoeState, shooterId: string, mainTarget: string, screenTarget: string, log: Log, shotsIn: MoeState = s): MoeState {
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

/** Apply a decision or chance outcome to the top frame. Caller guarantees legality. */
export function step(s0: MoeState, a: Action, log: Log): MoeState {
  const f = top(s0)!;
  let s = pop(s0);
  if (!('p' in f)) s = { ...s, nChance: s.nChance + 1 };
  switch (f.t) {
    // ---------------- pre-game ----------------
    case 'rollOff': {
      const w = (a as Extract<Action, { k: 'c-win' }>).side;
      ev(log, 'Setting up a battle', `${s.sides[w].name} wins the roll-off for sides`);
      return push({ ...s, rollWin: w }, { t: 'chooseSide', p: w });
    }
    case 'chooseSide': {
      const edge = (a as Extract<Action, { k: 'side' }>).edge;
      const w = f.p;
      s = updSide(s, w, { edge });
      s = updSide(s, other(w), { edge: edge === 'south' ? 'north' : 'south' });
      ev(log, 'Setting up a battle', `${s.sides[w].name} sets up on the ${edge} edge`);
      // M23: skirmishers declared before placement, the roll-off winner first
      const order = [...sideUnits(s, w), ...sideUnits(s, other(w))];
      const frames: Frame[] = [{ t: 'firstPlacer', p: w }];
      for (const b of [...order].reverse()) frames.push({ t: 'skirm', p: b.side, u: b.id });
      return push(s, ...frames);
    }
    case 'skirm': {
      const n = (a as Extract<Action, { k: 'skirm' }>).n;
      const b = unit(s, f.u);
      if (n) ev(log, 'Skirmishers', `${b.name} deploys ${n} skirmishers`);
      const { sk, skS, rk, G, scr } = withSkirmishers(b, n);
      return upd(s, f.u, { sk, skS, rk, G, scr });
    }
    case 'firstPlacer': {
      const self = (a as Extract<Action, { k: 'placer' }>).self;
      const placer = self ? f.p : other(f.p);
      ev(log, 'Setting up a battle', `${s.sides[placer].name} places first`);
      return push({ ...s, placer }, { t: 'place', p: placer });
    }
    case 'place': {
      const pa = a as Extract<Action, { k: 'place' }>;
      return push(s, { t: 'placeX', p: f.p, u: pa.u, row: pa.row, f: pa.f, scr: pa.scr });
    }
    case 'placeX': {
      const pa = { ...f, x: (a as Extract<Action, { k: 'x' }>).x };
      const pos = layoutRect(s, unit(s, pa.u), pa, pa.x);
      s = upd(s, pa.u, { x: pos.x, y: pos.y, h: pos.h, f: pa.f, scr: pa.scr, placed: true, on: true });
      ev(log, 'Setting up a battle', `${unit(s, pa.u).name} placed at (${(pos.x / IN).toFixed(0)}, ${(pos.y / IN).toFixed(1)}) in ${pa.f === 'L' ? 'line' : 'column'}`);
      const left = (p: Side) => sideUnits(s, p).some((b) => !b.placed);
      if (left(other(f.p))) return push(s, { t: 'place', p: other(f.p) });
      if (left(f.p)) return push(s, { t: 'place', p: f.p });
      // M23: Supreme Commanders last, the first placer's first
      return push(s, { t: 'placeSC', p: other(s.placer) }, { t: 'placeSC', p: s.placer });
    }
    case 'placeSC': {
      const pa = a as Extract<Action, { k: 'placeSC' }>;
      const b = unit(s, pa.attach);
      const pt = pa.behind ? behindPoint(b) : { x: b.x, y: b.y };
      s = updSC(s, f.p, { x: pt.x, y: pt.y, att: pa.behind ? '' : b.id, placed: true });
      ev(log, 'Setting up a battle', `${s.sides[f.p].name}'s Supreme Commander ${pa.behind ? `placed behind ${b.name}` : `joins ${b.name}`}`);
      return s;
    }
    // ---------------- turn ----------------
    case 'initRoll': {
      const w = (a as Extract<Action, { k: 'c-win' }>).side;
      ev(log, 'Initiative', `${s.sides[w].name} wins the initiative (D6 + ${initiativeBonus(s, w)} vs D6 + ${initiativeBonus(s, other(w))})`);
      return push({ ...s, init: w }, { t: 'initChoice', p: w });
    }
    case 'initChoice': {
      const self = (a as Extract<Action, { k: 'first' }>).self;
      const nx = self ? f.p : other(f.p);
      ev(log, 'Initiative', `${s.sides[nx].name} activates first`);
      return { ...s, next: nx };
    }
    case 'slot':
      if (a.k === 'activate') return push(s, { t: 'orders', p: f.p, u: a.u });
      return activate(s0, s, f.p, a, log);
    case 'orders':
      return activate(s0, s, f.p, a, log);
    case 'check': {
      const o = a as Extract<Action, { k: 'c-check' }>;
      const b = unit(s, f.u);
      const patch: BnPatch = {};
      if (o.used) {
        if (f.kind === 'manoeuvre') patch.drumU = b.drumU + o.used; // [Drummer]
        else if (f.kind === 'bravery') patch.offU = b.offU + o.used; // [Officer]
        else patch.ensU = b.ensU + o.used; // [Ensign]
      }
      if (f.kind === 'resolve') patch.tested = true; // [Resolve] once per turn
      s = upd(s, f.u, patch);
      const names = { manoeuvre: 'Manoeuvre', bravery: 'Aggression', rally: 'Resolve', resolve: 'Resolve' } as const;
      ev(log, names[f.kind], `${b.name} ${o.pass ? 'passes' : 'fails'} its ${f.kind === 'bravery' ? 'BRAVERY' : f.kind.toUpperCase()} check (needs ${f.need}${f.mod ? `, ${f.mod > 0 ? '+' : ''}${f.mod}` : ''})${o.used ? ` after ${o.used} re-roll(s)` : ''}`);
      return afterCheck(s, f.u, f.then, o.pass, log);
    }
    case 'dist': {
      const sum = (a as Extract<Action, { k: 'c-sum' }>).sum;
      ev(log, f.then.k === 'charge' ? 'Aggression' : 'Manoeuvre', `${unit(s, f.u).name} rolls ${f.n}D6 = ${sum}"`);
      return afterDistance(s, f.u, f.then, sum * IN, false, false, f.n, sum, log);
    }
    case 'firstDie': {
      const face = (a as Extract<Action, { k: 'c-die' }>).face;
      return afterDistance(s, f.u, f.then, face * IN, true, false, 1, face, log);
    }
    case 'obstacle': {
      const face = (a as Extract<Action, { k: 'c-die' }>).face;
      // [Manoeuvre] to cross linear obstacles subtract 1D6" from movement
      ev(log, 'Manoeuvre', `crossing a linear obstacle costs ${unit(s, f.u).name} ${face}"`);
      const allow = Math.max(0, f.allow - face * IN);
      const then = f.then.k === 'charge' ? { ...f.then, dis: true } : f.then;
      return afterDistance(s, f.u, then, allow, true, true, 1, 0, log);
    }
    case 'moveDist': {
      const d = (a as Extract<Action, { k: 'dist' }>).d;
      const b = unit(s, f.u);
      const r = footprint(b);
      const nr = translate(r, f.dir, d);
      s = passThroughDisorder(s, b, r, nr, log);
      ev(log, 'Manoeuvre', `${b.name} moves ${(d / IN).toFixed(2)}"`);
      s = enterGround(upd(s, f.u, { x: nr.x, y: nr.y }), f.u, r, nr, log, 'moves');
      if (b.sk > 0 && !b.light && d > 0) s = push(s, { t: 'screenPlace', p: b.side, u: b.id });
      return s;
    }
    case 'wheelAngle': {
      const ang = (a as Extract<Action, { k: 'angle' }>).a;
      const b = unit(s, f.u);
      if (!ang) return s;
      const nr = wheelRect(footprint(b), f.side, ang);
      ev(log, 'Manoeuvre', `${b.name} wheels ${ang}° ${f.side === 'L' ? 'left' : 'right'}`);
      return enterGround(upd(s, f.u, { x: nr.x, y: nr.y, h: nr.h }), f.u, footprint(b), nr, log, 'wheels');
    }
    case 'formFacing': {
      const h = (a as Extract<Action, { k: 'facing' }>).h;
      const b = unit(s, f.u);
      ev(log, 'Manoeuvre', `${b.name} changes to ${b.f === 'L' ? 'column' : 'line'} facing ${h}°`);
      return upd(s, f.u, { f: b.f === 'L' ? 'C' : 'L', h });
    }
    case 'screenPlace':
      return upd(s, f.u, { scr: (a as Extract<Action, { k: 'screen' }>).pos });
    case 'screenTarget':
      return startVolleys(s, f.u, '-', (a as Extract<Action, { k: 'screenTarget' }>).target, log);
    case 'volley': {
      const o = a as Extract<Action, { k: 'c-hits' }>;
      return applyVolley(s, f, o.hits, o.six, o.used, log);
    }
    case 'charPick': {
      const which = (a as Extract<Action, { k: 'c-char' }>).which;
      s = loseCharacter(s, f.u, which, log);
      return rankerLoss(s, f.u, f.hits - 1, log);
    }
    case 'defFire': {
      const yes = (a as Extract<Action, { k: 'defFire' }>).yes;
      const at = unit(s, f.att);
      const face = sectorOf(footprint(unit(s, f.def)), centre(at));
      if (!yes) {
        ev(log, 'Defensive fire', `${unit(s, f.def).name} holds its fire`);
        return contactAndFight(s, f.att, f.def, face, log);
      }
      s = upd(s, f.def, { act: true }); // M24: defensive fire uses the activation
      ev(log, 'Defensive fire', `${unit(s, f.def).name} gives defensive fire`);
      return push(s, { t: 'afterDefFire', att: f.att, def: f.def, face, cas0: at.cas }, { t: 'dfBand', att: f.att, def: f.def });
    }
    case 'dfBand': {
      const band = (a as Extract<Action, { k: 'c-band' }>).band;
      const frac = band === 'long' ? 0.25 : band === 'medium' ? 0.5 : 1;
      const d = unit(s, f.def);
      const at = unit(s, f.att);
      const shot = shotDice(s, d, false, at, false, frac, true);
      ev(log, 'Defensive fire', `range band: ${band}`);
      if (!shot) {
        ev(log, 'Defensive fire', `${d.name} has no firing group eligible against ${at.name}: no dice`);
        return s;
      }
      return push(s, { t: 'volley', shooter: d.id, target: at.id, screen: false, tscreen: false, dice: shot.dice, need: shot.need, mod: shot.mod, rerolls: Math.min(shot.dice, Math.max(0, d.sgt - d.sgtU)), defensive: true });
    }
    case 'combat':
      return applyCombat(s, f.e, (a as Extract<Action, { k: 'c-combat' }>).res, log);
    case 'combatChars': {
      const o = a as Extract<Action, { k: 'c-lost' }>;
      return loserCasualties(s, f.e, f.win, f.lose, o, log);
    }
    case 'followUp': {
      const yes = (a as Extract<Action, { k: 'followUp' }>).yes;
      const e = eng(s, f.e);
      if (!yes) return endEngagement(s, f.e, true, log);
      // the winner advances back into contact; the next round it adds the charge bonus for its formation
      const w = unit(s, f.win);
      const l = unit(s, f.lose);
      const face = sectorOf(footprint(l), centre(w));
      const c = contactRect(l, face, footprint(w).w, footprint(w).d);
      ev(log, 'Combat process', `${w.name} follows up`);
      s = enterGround(upd(s, f.win, { x: c.x, y: c.y, h: c.h }), f.win, footprint(w), c, log, 'follows up');
      return updEng(s, f.e, { bonus: e.att === f.win ? 'att' : 'def' });
    }
    case 'run':
      return runAway(s, f.u, (a as Extract<Action, { k: 'c-sum' }>).sum, log);
    case 'scRoll': {
      const sum = (a as Extract<Action, { k: 'c-sum' }>).sum;
      const p = (top(s) as Extract<Frame, { t: 'slot' }>).p;
      ev(log, 'Supreme Commander', `${s.sides[p].name}'s Supreme Commander may move ${sum}"`);
      return push(s, { t: 'scDest', p, allow: sum * IN });
    }
    case 'scDest': {
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
    }
    case 'afterDefFire':
      return s;
  }
}

function activate(s0: MoeState, s: MoeState, p: Side, a: Action, log: Log): MoeState {
  if (a.k === 'sc') {
    // M15: the SC's free 4D6 move, once per turn, at the start of an activation slot; the slot stays open
    return push(s0, { t: 'scRoll' });
  }
  let ns: MoeState = { ...s, next: other(p), nAct: s.nAct + 1 };
  if (a.k === 'fight') {
    const e = eng(ns, a.e);
    ev(log, 'Combat process', `${ns.sides[p].name} activates the combat between ${unit(ns, e.att).name} and ${unit(ns, e.def).name}`);
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
      ev(log, 'Manoeuvre', `${b.name} attempts to move ${a.dir === 0 ? 'straight ahead' : `obliquely ${a.dir > 0 ? 'right' : 'left'} ${Math.abs(a.dir)}°`}`);
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
      ev(log, 'Aggression', `${b.name} declares an attack on ${t.name}'s ${info.face}${info.join ? ' (joining the combat)' : ''}`);
      return startCheck(ns, unit(ns, b.id), 'bravery', { k: 'attack', target: t.id, face: info.face, join: info.join }, log);
    }
    default:
      throw new Error(`not an activation: ${a.k}`);
  }
}

function applyCombat(s: MoeState, eid: string, res: 'A3' | 'A' | 'T' | 'D' | 'D3', log: Log): MoeState {
  const e = eng(s, eid);
  let ns = updEng(s, eid, { rounds: e.rounds + 1 });
  const a = unit(ns, e.att);
  const d = unit(ns, e.def);
  if (res === 'T') {
    // M13: no winner — no casualties, no movement, no charge bonus next round
    ev(log, 'Combat process', `${a.name} and ${d.name} are level: the combat continues without charge bonuses`);
    return updEng(ns, eid, { bonus: '' });
  }
  const attWins = res === 'A' || res === 'A3';
  const w = attWins ? a : d;
  const l = attWins ? d : a;
  ev(log, 'Combat process', `${w.name} wins${res.endsWith('3') ? ' by 3 or more' : ''}: the winner takes 2 casualties, the loser 6`);
  ns = rankerLoss(ns, w.id, 2, log);
  ns = upd(ns, l.id, { lost: true });
  if (res.endsWith('3') && characters(ns, unit(ns, l.id)) > 0) return push(ns, { t: 'combatChars', e: eid, win: w.id, lose: l.id });
  return loserCasualties(ns, eid, w.id, l.id, { drum: 0, sgt: 0, ens: 0, off: 0, sc: 0 }, log);
}

function loserCasualties(s: MoeState, eid: string, winId: string, loseId: string, lost: { drum: number; sgt: number; ens: number; off: number; sc: number }, log: Log): MoeState {
  let ns = s;
  let chars = 0;
  for (const [k, n] of Object.entries(lost) as [CharType, number][]) for (let i = 0; i < n; i++) {
    ns = loseCharacter(ns, loseId, k, log);
    chars++;
  }
  // [Risk to characters in combat] Characters lost count among the 6 casualties
  ns = rankerLoss(ns, loseId, Math.max(0, 6 - chars), log);
  const l = unit(ns, loseId);
  if (!l.on) return ns;
  if (!unit(ns, winId).on) {
    if (ns.engs.some((e) => e.id === eid)) ns = endEngagement(ns, eid, false, log);
    return ns;
  }
  ns = fallBack(ns, loseId, 2 * IN, log, 'Combat process');
  if (!l.tested) return startCheck(ns, unit(ns, loseId), 'resolve', { k: 'resolve', cause: 'combat', e: eid, win: winId }, log);
  ev(log, 'Resolve', `${l.name} already tested RESOLVE this turn`);
  return push(ns, { t: 'followUp', p: unit(ns, winId).side, e: eid, win: winId, lose: loseId });
}

// =====================================================================================================
// Automatic flow: after every step, run the automatic parts until a decision or chance node is on top
// =====================================================================================================

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
function available(s: MoeState, p: Side): boolean {
  if (hasActivation(s, p)) return true;
  const sc = s.sides[p].sc;
  return sc.alive && sc.placed && !sc.moved;
}

function unbrokenOnTable(s: MoeState, p: Side): number {
  let n = 0;
  for (const b of s.units) if (b.side === p && b.on && !b.brk) n++;
  return n;
}

/** Digest §7 scenario option: held by a side with an unbroken battalion within 3" and no enemy battalion within 3". */
export function objectiveHolder(s: MoeState, o: { x: number; y: number }): -1 | Side {
  const within = (b: Bn) => b.on && pointPolygonDistance(o, poly(b)) <= 3 * IN;
  for (const side of [0, 1] as const) {
    const holds = s.units.some((b) => b.side === side && !b.brk && within(b));
    const contested = s.units.some((b) => b.side !== side && within(b));
    if (holds && !contested) return side;
  }
  return -1;
}

/** §7 (M20): most unbroken battalions on the table; else fewest casualties among the remaining units; else draw. */
export function judge(s: MoeState, early: boolean): { winner: number; reason: string } {
  const n = [unbrokenOnTable(s, 0), unbrokenOnTable(s, 1)];
  const started = [sideUnits(s, 0).length, sideUnits(s, 1).length];
  if (early) {
    const w = n[0] === 0 ? 1 : 0;
    return { winner: w, reason: `${s.sides[w === 0 ? 1 : 0].name} has no unbroken battalion on the table (M20)` };
  }
  if (s.ctx.victory === 'objectives') {
    const held = [0, 0];
    for (const o of s.ctx.objectives) {
      const h = objectiveHolder(s, o);
      if (h >= 0) held[h]!++;
    }
    if (held[0] !== held[1]) {
      const w = held[0]! > held[1]! ? 0 : 1;
      return { winner: w, reason: `holds more objectives (${held[0]} vs ${held[1]}) [Winning: objectives]` };
    }
  }
  const cas = [0, 1].map((p) => s.units.filter((b) => b.side === p && b.on).reduce((a, b) => a + b.cas, 0));
  if (n[0] !== n[1] && !(n[0] === started[0] && n[1] === started[1])) {
    const w = n[0]! > n[1]! ? 0 : 1;
    return { winner: w, reason: `more unbroken battalions on the table (${n[0]} vs ${n[1]}) [Winning]` };
  }
  if (cas[0] !== cas[1]) {
    const w = cas[0]! < cas[1]! ? 0 : 1;
    return { winner: w, reason: `fewer casualties among remaining units (${cas[0]} vs ${cas[1]}) [Winning]` };
  }
  return { winner: -1, reason: `level on unbroken battalions (${n[0]}) and casualties (${cas[0]}): a draw (M20)` };
}

function endTurn(s: MoeState, log: Log): MoeState {
  const t = s.turn;
  const units = s.units.map((b) => {
    let nb: Bn = { ...b, act: false, drumU: 0, sgtU: 0, ensU: 0, offU: 0, tested: false, trig: 0, lost: false, ran: false };
    if (b.reform) nb = { ...nb, reform: false, dis: false }; // [Reform] disorder clears (M12)
    if (b.stand === t) {
      nb = { ...nb, stand: 0 };
      if (b.ral) nb = { ...nb, brk: false, ral: false, dis: false }; // [Resolve] rally: stood a turn, reformed
    }
    return nb;
  });
  for (const b of s.units) if (b.stand === t && b.ral) ev(log, 'Resolve', `${b.name} has stood a turn and reforms`);
  let ns: MoeState = { ...s, units, engs: s.engs.map((e) => ({ ...e, fought: false })), nAct: 0 };
  ns = updSC(ns, 0, { moved: false });
  ns = updSC(ns, 1, { moved: false });
  if (t >= s.ctx.turns) {
    const r = judge(ns, false);
    ev(log, 'Winning', r.winner < 0 ? r.reason : `${ns.sides[r.winner as Side].name} wins: ${r.reason}`);
    return { ...ns, phase: 'over', result: r };
  }
  ev(log, 'Sequence', `turn ${t + 1} begins`);
  return push({ ...ns, turn: t + 1, phase: 'activations' }, { t: 'initRoll' });
}

/** Run automatic steps until a decision or a chance node is on top, or the game is over. */
export function settle(s0: MoeState, log: Log): MoeState {
  let s = s0;
  for (let guard = 0; guard < 10_000; guard++) {
    if (s.result) return s;
    if (s.phase !== 'pregame' && s.ctx.options.M20_earlyEnd && (unbrokenOnTable(s, 0) === 0 || unbrokenOnTable(s, 1) === 0)) {
      if (!(unbrokenOnTable(s, 0) === 0 && unbrokenOnTable(s, 1) === 0)) {
        const r = judge(s, true);
        ev(log, 'Winning', `${s.sides[r.winner as Side].name} wins: ${r.reason}`);
        return { ...s, phase: 'over', result: r, stack: [] };
      }
      const r = judge(s, false);
      return { ...s, phase: 'over', result: r, stack: [] };
    }
    const f = top(s);
    if (f) {
      if (f.t === 'afterDefFire') {
        s = pop(s);
        const at = unit(s, f.att);
        if (!at.on || at.brk) continue;
        if (at.cas > f.cas0 && !at.tested) {
          // [Defensive fire] casualties taken: the attacker checks RESOLVE at once (M10)
          s = startCheck(s, at, 'resolve', { k: 'resolve', cause: 'defFire', target: f.def, face: f.face }, log);
        } else s = contactAndFight(s, f.att, f.def, f.face, log);
        continue;
      }
      if (f.t === 'slot' && !available(s, f.p)) {
        s = pop(s);
        continue;
      }
      return s;
    }
    switch (s.phase) {
      case 'pregame': {
        ev(log, 'Sequence', 'turn 1 begins');
        s = push({ ...s, phase: 'activations', turn: 1 }, { t: 'initRoll' });
        continue;
      }
      case 'activations': {
        // [Initiative] players alternate; a player with none left lets the other activate all the rest
        const n = s.next;
        if (available(s, n)) s = push(s, { t: 'slot', p: n });
        else if (available(s, other(n))) s = push({ ...s, next: other(n) }, { t: 'slot', p: other(n) });
        else s = { ...s, phase: 'resolve' };
        continue;
      }
      case 'resolve': {
        // M10: pending triggers test once, initiative winner's battalions first, in order
        const order = [...sideUnits(s, s.init), ...sideUnits(s, other(s.init))];
        const b = order.find((u) => u.on && !u.brk && u.trig && !u.tested);
        if (b) {
          s = startCheck(upd(s, b.id, { trig: 0 }), unit(s, b.id), 'resolve', { k: 'resolve', cause: 'phase' }, log);
          if (!top(s)) s = upd(s, b.id, { tested: true });
          continue;
        }
        s = { ...s, phase: 'compulsory' };
        continue;
      }
      case 'compulsory': {
        // [Sequence 4] broken battalions that did not rally run 3D6"
        const order = [...sideUnits(s, s.init), ...sideUnits(s, other(s.init))];
        const b = order.find((u) => u.on && u.brk && !u.ral && !u.ran);
        if (b) {
          s = push(upd(s, b.id, { ran: true }), { t: 'run', u: b.id });
          continue;
        }
        s = endTurn(s, log);
        continue;
      }
      case 'over':
        return s;
    }
  }
  throw new Error('settle: automatic flow did not converge');
}
