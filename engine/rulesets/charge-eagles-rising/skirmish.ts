/**
 * Charge! Eagles Rising, the strategic phase's S5 [Turn Sequence: "S5. ME's within 10" & > 3" conduct skirmish combat
 * by brigade or division"; Skirmish Combat; digest §6.6; ADAPTATION C9]: who skirmishes, at whom, the D10 on the
 * table, the hits spread at random, and their effects, both sides at once.
 *
 * The phase is one chance frame (`skirmish`) that carries the plan made when S5 begins (every firing ME, its target
 * ME, its points and the target's units it may hit) and the dice as they fall: first each firing ME's D10 (tables.ts
 * `skirmishHitsDist`: the hits with their exact probabilities), then each hit's unit (one chance node a hit, each unit
 * of the target in the band with probability 1/n; a target with one unit takes them all without a roll). Nothing is
 * applied before every die has fallen (C9: both sides fire simultaneously); then the effects, in the units' order.
 *
 * Readings:
 * - A qualifying unit: on the table, its SCV above 0, an open frontage (shape.ts `openFrontage`; a garrison, whose
 *   BUA faces every way, faces its nearest enemy for this: a friend behind the houses does not close it), its nearest enemy
 *   unit more than 3" and no more than 10" away (edge to edge: shape.ts `inSkirmishBand`), and no part of it in any
 *   cavalry ZOC (either side's cavalry: "negate all skirmish combat within this zone"). SCV: the unit's `scv` (C9,
 *   from the scenario), × `scv.skirmishFormation` (2) in Skirmish formation, 0 for cavalry, artillery, squares and
 *   march columns; a garrison skirmishes at its value.
 * - "By brigade": each ME with qualifying units totals their points and picks the nearest enemy ME that has a unit it
 *   may hit: not cavalry (C9), not in any cavalry ZOC, more than 3" and within 10" of one of the firing ME's
 *   qualifying units; nearest = the smallest such distance, the first in the state's order on a tie. It rolls 1 D10
 *   on the column of its points (over 22: the 21–22 column).
 * - Each hit to a uniformly random unit of the target ME among those it may hit (C9 `skirmishHits`). Effects per
 *   unit, on its hits together (tables.ts `skirmishEffect`): infantry (in any formation: the sheet's "formed
 *   infantry" is the only infantry row) and limbered artillery 1 hit = 1 KIA; deployed artillery 1 hit SUPPRESSED,
 *   2 hits 1 KIA (each further pair another).
 * - KIAs go through casualties.ts `applyKias` (cause 'skirmish': the skill test "KIA's from skirmish fire", failure
 *   disordered; WORN/SPENT; the tactical leader check; the morale trigger). A battery that lost a gun ("damaged
 *   artillery", digest §6.6) takes its own test in place of that one: pass, it stands; fail, it is disordered, limbers
 *   and withdraws 6" straight away from its nearest enemy (`skirmishGuns`).
 * - Skirmishing commits the ME (C2): both the firing and the target ME (and their MFs), when the fire is planned.
 */
import { bbox, headingTo, polygonDistance } from '../../geometry/geometry.ts';
import { clipConvex, edgeArc } from '../../tabletop/arcs.ts';
import type { ChanceHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { gap, inAnyZoc, inSkirmishBand, openFrontage, type Placed, polyOf } from './shape.ts';
import { SKIRMISH_RULES, skillTestDist, skirmishEffect, skirmishHitsDist, skirmishPoints } from './tables.ts';
import type { SkirmishFire, SkirmishFrame, SkillFrame } from './frames.ts';
import type { ElementState, UnitState } from './types.ts';
import { applyKias, fallBack, skillNumberFor } from './casualties.ts';
import {
  type Action,
  type S,
  elementOf,
  elementUnits,
  onTable,
  placed,
  say,
  unitOf,
  unitsOf,
  updCommand,
  updUnit,
  other,
} from './state.ts';

type H<K extends SkirmishFrame['t']> = Extract<SkirmishFrame, { t: K }>;

// ---------- who skirmishes ----------

/** C9: a unit's skirmish points: its SCV, ×2 in Skirmish formation; 0 for cavalry, artillery, squares, march columns. */
export function scvOf(s: S, u: UnitState): number {
  return u.kind === 'infantry' ? skirmishPoints(u.kind, u.formation, u.scv, s.ctx.options.scv) : 0;
}

interface Board {
  readonly body: Map<string, Placed>;
  readonly cavalry: UnitState[];
}
function boardOf(s: S): Board {
  const body = new Map<string, Placed>();
  const cavalry: UnitState[] = [];
  for (const u of s.units)
    if (onTable(u)) {
      body.set(u.id, placed(s, u));
      if (u.kind === 'cavalry') cavalry.push(u);
    }
  return { body, cavalry };
}
/** [Skirmish Combat] "Cavalry have a zone of control … & negate all skirmish combat within this zone." */
function inZoc(b: Board, u: UnitState): boolean {
  return inAnyZoc(
    b.body.get(u.id)!,
    b.cavalry.filter((c) => c.id !== u.id).map((c) => b.body.get(c.id)!),
  );
}

/** [Skirmish Combat] "units which have an open frontage & are within 10" and >3" of an opponent", not in a ZOC. */
export function qualifies(s: S, u: UnitState, b: Board = boardOf(s)): boolean {
  if (!onTable(u) || scvOf(s, u) <= 0) return false;
  const me = b.body.get(u.id)!;
  const enemies = unitsOf(s, other(u.side)).map((e) => b.body.get(e.id)!);
  if (!enemies.length) return false;
  let nearest = Number.POSITIVE_INFINITY;
  for (const e of enemies) nearest = Math.min(nearest, gap(me, e));
  if (!inSkirmishBand(nearest)) return false;
  const friends = unitsOf(s, u.side)
    .filter((f) => f.id !== u.id)
    .map((f) => b.body.get(f.id)!);
  const open =
    u.kind === 'infantry' && u.formation === 'garrison'
      ? garrisonOpen(me, friends, enemies, nearest)
      : openFrontage(me, friends, enemies);
  return open && !inZoc(b, u);
}

/**
 * C9 open frontage for a garrison, whose BUA faces every way (shape.ts treats it as all front, so a friend behind the
 * houses would close it): its front is taken to face its nearest enemy unit. A friend blocks if it lies in the 45° arc
 * ahead of the BUA's box turned that way, closer than that enemy.
 */
function garrisonOpen(me: Placed, friends: readonly Placed[], enemies: readonly Placed[], nearest: number): boolean {
  let toward = enemies[0]!;
  for (const e of enemies) if (gap(me, e) < gap(me, toward)) toward = e;
  const box = bbox(polyOf(me));
  const r = {
    x: (box.minX + box.maxX) / 2,
    y: (box.minY + box.maxY) / 2,
    w: box.maxX - box.minX,
    d: box.maxY - box.minY,
    h: Math.round(headingTo(me.pos, toward.pos)),
  };
  const arc = edgeArc(r, 45, nearest + r.d);
  return !friends.some((f) => {
    const fp = polyOf(f);
    return polygonDistance(polyOf(me), fp) < nearest && clipConvex(fp, arc).length >= 3;
  });
}

/** C9: the units of `target` that the `firers` may hit: not cavalry, not in a ZOC, in the band of one of them. */
function targetsIn(s: S, b: Board, firers: readonly UnitState[], target: ElementState): { ids: string[]; d: number } {
  const ids: string[] = [];
  let d = Number.POSITIVE_INFINITY;
  for (const t of elementUnits(s, target)) {
    if (t.kind === 'cavalry' && !s.ctx.options.skirmishCavalryTargets) continue;
    if (inZoc(b, t)) continue;
    let best = Number.POSITIVE_INFINITY;
    for (const q of firers) {
      const g = gap(b.body.get(q.id)!, b.body.get(t.id)!);
      if (inSkirmishBand(g)) best = Math.min(best, g);
    }
    if (!Number.isFinite(best)) continue;
    ids.push(t.id);
    d = Math.min(d, best);
  }
  return { ids, d };
}

/** [S5, C9] every ME's skirmish fire this S5: its points, the nearest enemy ME with units in the band, those units. */
export function skirmishPlan(s: S): SkirmishFire[] {
  const b = boardOf(s);
  const out: SkirmishFire[] = [];
  for (const e of s.elements) {
    if (e.broken) continue;
    const q = elementUnits(s, e).filter((u) => qualifies(s, u, b));
    if (!q.length) continue;
    const points = q.reduce((n, u) => n + scvOf(s, u), 0);
    let best: { at: string; targets: string[]; d: number } | null = null;
    for (const en of s.elements) {
      if (en.side === e.side || en.broken) continue;
      const t = targetsIn(s, b, q, en);
      if (t.ids.length && (!best || t.d < best.d)) best = { at: en.id, targets: t.ids, d: t.d };
    }
    if (best)
      out.push({
        from: e.id,
        at: best.at,
        points,
        firers: q.map((u) => u.id),
        targets: best.targets,
        hits: null,
        hit: [],
      });
  }
  return out;
}

/** [S5] plan the fire, commit the MEs in it (C2), and roll. */
export function beginS5(s: S, log: Log): S {
  const fire = skirmishPlan(s);
  if (!fire.length) {
    say(log, 'S5', 'no ME is within 10" and more than 3" of an enemy with an open frontage: no skirmish combat');
    return s;
  }
  let t = s;
  for (const f of fire) {
    say(
      log,
      'Skirmish Combat',
      `${elementOf(s, f.from).name} skirmishes with ${elementOf(s, f.at).name}: ${f.points} points (${f.firers.join(', ')}) (C9)`,
    );
    for (const id of [f.from, f.at]) t = commit(t, id);
  }
  return push(t, { t: 'skirmish', fire });
}

/** C2: skirmishing commits an ME for good, and its MF. */
function commit(s: S, id: string): S {
  const e = elementOf(s, id);
  let t = e.committed ? s : updCommand(s, id, { committed: true });
  if (e.formation && !t.formations.find((f) => f.id === e.formation)!.committed)
    t = updCommand(t, e.formation, { committed: true });
  return t;
}

// ---------- the dice ----------

/** What the frame rolls next: a firing ME's D10, or one hit's unit; null when all is rolled. */
function nextRoll(f: H<'skirmish'>): { i: number; kind: 'd10' | 'hit' } | null {
  const i = f.fire.findIndex((x) => x.hits === null);
  if (i >= 0) return { i, kind: 'd10' };
  const j = f.fire.findIndex((x) => x.hit.length < (x.hits ?? 0));
  return j >= 0 ? { i: j, kind: 'hit' } : null;
}

const skirmishHandler: ChanceHandler<S, H<'skirmish'>, Action> = {
  kind: 'chance',
  outcomes(s, f) {
    const n = nextRoll(f)!;
    const x = f.fire[n.i]!;
    if (n.kind === 'd10')
      return skirmishHitsDist(x.points).map((d) => ({
        action: `skirmish ${x.from} ${d.value} ${d.value === 1 ? 'hit' : 'hits'}`,
        p: d.p,
        label: `${d.value} ${d.value === 1 ? 'hit' : 'hits'}`,
      }));
    return x.targets.map((id) => ({
      action: `skirmish hit ${id}`,
      p: 1 / x.targets.length,
      label: unitOf(s, id).name,
    }));
  },
  step(s, f, a, log) {
    const n = nextRoll(f)!;
    const x = f.fire[n.i]!;
    let y: SkirmishFire;
    if (n.kind === 'd10') {
      const hits = Number(a.split(' ')[2]);
      say(
        log,
        'Skirmish Combat',
        `${elementOf(s, x.from).name} rolls 1 D10 on the ${x.points}-point column: ${hits} ${hits === 1 ? 'hit' : 'hits'} on ${elementOf(s, x.at).name}`,
      );
      // a target with one unit takes every hit: no roll
      y = { ...x, hits, hit: x.targets.length === 1 ? Array<string>(hits).fill(x.targets[0]!) : [] };
    } else y = { ...x, hit: [...x.hit, a.slice('skirmish hit '.length)] };
    const g: H<'skirmish'> = { ...f, fire: f.fire.map((z, k) => (k === n.i ? y : z)) };
    return nextRoll(g) ? push(s, g) : applySkirmish(s, g, log);
  },
  describe(s, f) {
    const n = nextRoll(f)!;
    const x = f.fire[n.i]!;
    return n.kind === 'd10'
      ? `${elementOf(s, x.from).name}'s skirmish fire: 1 D10 on the ${x.points}-point column [Skirmish Combat]`
      : `where ${elementOf(s, x.from).name}'s skirmish hit ${x.hit.length + 1} of ${x.hits} falls: a random unit of ${elementOf(s, x.at).name} (C9)`;
  },
};

/** The hits on each unit, in the units' order. */
function hitsByUnit(s: S, f: H<'skirmish'>): { unit: string; hits: number }[] {
  const by = new Map<string, number>();
  for (const x of f.fire) for (const id of x.hit) by.set(id, (by.get(id) ?? 0) + 1);
  return s.units.filter((u) => by.has(u.id)).map((u) => ({ unit: u.id, hits: by.get(u.id)! }));
}

/** [Skirmish Combat] every die has fallen: the effects, all together. */
function applySkirmish(s: S, f: H<'skirmish'>, log: Log): S {
  let t = s;
  for (const { unit, hits } of hitsByUnit(s, f)) {
    const u = unitOf(t, unit);
    if (!onTable(u)) continue;
    const kind =
      u.kind === 'artillery'
        ? u.formation === 'limbered'
          ? 'limberedArtillery'
          : 'deployedArtillery'
        : 'formedInfantry';
    const eff = skirmishEffect(kind, hits);
    if (eff.suppressed && u.kind === 'artillery' && !u.suppressed) {
      t = updUnit(t, unit, { suppressed: true });
      say(log, 'Skirmish Combat', `${u.name} is SUPPRESSED (${hits} skirmish ${hits === 1 ? 'hit' : 'hits'})`);
    }
    if (eff.kia <= 0) continue;
    const depth = t.stack.length;
    t = applyKias(t, unit, eff.kia, 'skirmish', 'Skirmish Combat', log);
    if (kind === 'deployedArtillery' || kind === 'limberedArtillery') t = damagedArtillery(t, unit, depth);
  }
  return t;
}

/** "Damaged artillery must pass a skill test or limber and withdraw 6"": its test replaces the KIA test. */
function damagedArtillery(s: S, unit: string, depth: number): S {
  if (!onTable(unitOf(s, unit))) return s;
  const stack = s.stack.map((fr, k) => {
    const x = fr as SkillFrame;
    return k >= depth && x.t === 'skill' && x.unit === unit && x.reason === 'skirmishKia'
      ? { t: 'skirmishGuns' as const, unit }
      : fr;
  });
  return { ...s, stack };
}

const gunsHandler: ChanceHandler<S, H<'skirmishGuns'>, Action> = {
  kind: 'chance',
  outcomes(s, f) {
    const n = skillNumberFor(s, f.unit, 'skirmishKia') ?? 13;
    return skillTestDist(n).map((d) => ({
      action: `skill ${f.unit} ${d.value ? 'pass' : 'fail'}`,
      p: d.p,
      label: d.value ? `pass (2D6 ≥ ${n})` : `fail (2D6 < ${n})`,
    }));
  },
  step(s, f, a, log) {
    const u = unitOf(s, f.unit);
    if (!onTable(u)) return s;
    const n = skillNumberFor(s, f.unit, 'skirmishKia');
    if (a.endsWith('pass')) {
      say(log, 'Skirmish Combat', `${u.name}, damaged, passes its skill test (2D6 ≥ ${n}): it stands`);
      return s;
    }
    say(
      log,
      'Skirmish Combat',
      `${u.name}, damaged, fails its skill test (2D6 < ${n}): disordered, it limbers and withdraws ${SKIRMISH_RULES.damagedArtilleryWithdraw}"`,
    );
    const t = updUnit(s, f.unit, { disordered: true, formation: 'limbered' });
    return fallBack(t, f.unit, SKIRMISH_RULES.damagedArtilleryWithdraw, 'keep', 'Skirmish Combat', log);
  },
  describe: (s, f) =>
    `${unitOf(s, f.unit).name}, damaged by skirmish fire: a skill test (2D6 ≥ ${skillNumberFor(s, f.unit, 'skirmishKia') ?? 'no test'}) or limber and withdraw 6" [Skirmish Combat]`,
};

export const skirmishHandlers = { skirmish: skirmishHandler, skirmishGuns: gunsHandler };
