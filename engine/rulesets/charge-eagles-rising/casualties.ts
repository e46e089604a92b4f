/**
 * Charge! Eagles Rising: what every loss does, whatever caused it (fire, skirmish, close assault, morale, a failed
 * force march), and the skill tests the rules call for [Skill Tests; Leader Casualties; Markers; C3, C10, C11].
 *
 * - `applyKias`: figures or guns lost (C3: one KIA is a figure or a gun); a unit with none left is broken (removed);
 *   WORN at ⅓ lost and SPENT at ½ (C11, options `wornAt`/`spentAt`), each tested when first reached; the tactical
 *   leader check for an attached leader (one D6 a KIA, any 6: the table); the ME's morale trigger for S3 (C10) and
 *   the army's new losses; an ME fired on or skirmished with is committed (C2).
 * - `skill` frames: 2D6 ≥ the modified skill number (tables.ts `skillNumber`, C11's automatic passes), with the
 *   failure's effect by reason: worn or spent, "retire 1 move as column disordered facing enemy (Artillery limbers)";
 *   the rest, disordered.
 * - `fallBack`: a move straight away from the nearest enemy (FB keeps the facing, Ret ends facing away; C10, C13),
 *   stopped short of other units and the table's edge.
 *
 * Readings: the worn/spent retirement is the unit's retiring column rate (infantry 6", cavalry 6", artillery its
 * limbered move); a unit whose fall back runs into another unit or the edge stops there (the sheets give no
 * interpenetration or edge rule for it).
 */
import {
  IN,
  type Vec,
  dist,
  headingTo,
  headingVec,
  normDeg,
  pointInPolygon,
  polygonsOverlap,
} from '../../geometry/geometry.ts';
import type { ChanceHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { fraction } from './options.ts';
import { gap, outOfIntegrity, polyOf } from './shape.ts';
import {
  type LeaderCasualty,
  leaderCasualty,
  roll2D6On,
  skillNumber,
  skillTestDist,
  tacticalLeaderCheckDist,
  moveRate,
} from './tables.ts';
import type { SkillFrame } from './frames.ts';
import type { UnitState } from './types.ts';
import { leaderHit } from './orders.ts';
import {
  type Action,
  type S,
  elementOf,
  elementUnits,
  inches,
  onTable,
  placed,
  rangeOf,
  say,
  unitOf,
  unitsOf,
  updArmy,
  updCommand,
  updUnit,
} from './state.ts';
import { other } from './state.ts';

export type KiaCause = 'fire' | 'closingFire' | 'skirmish' | 'cac' | 'morale' | 'forceMarch';

/** The figures (or guns) a unit has now and had at the start. */
export function figuresOf(u: UnitState): { now: number; start: number } {
  return u.kind === 'artillery' ? { now: u.guns, start: u.gunsStart } : { now: u.figures, start: u.figuresStart };
}

/**
 * `n` KIAs on a unit, and everything they bring: broken at none left, WORN/SPENT and their first tests, the tactical
 * leader check, the skirmish test, the morale trigger, the army's new losses, commitment. `rule` is cited.
 */
export function applyKias(s: S, id: string, n: number, cause: KiaCause, rule: string, log: Log): S {
  if (n <= 0) return s;
  const u = unitOf(s, id);
  if (!onTable(u)) return s;
  const { now, start } = figuresOf(u);
  const left = Math.max(0, now - n);
  const lost = now - left;
  let t = updUnit(s, id, u.kind === 'artillery' ? { guns: left } : { figures: left });
  const e = elementOf(t, u.element);
  t = updCommand(t, e.id, {
    moraleTriggers: { ...e.moraleTriggers, tookKia: true, unitBroken: e.moraleTriggers.unitBroken || left === 0 },
    committed: e.committed || cause === 'fire' || cause === 'skirmish' || cause === 'closingFire' || cause === 'cac',
  });
  if (e.formation && (cause === 'fire' || cause === 'skirmish' || cause === 'closingFire' || cause === 'cac'))
    t = updCommand(t, e.formation, { committed: true });
  t = updArmy(t, u.side, { newLosses: true });
  const what = u.kind === 'artillery' ? (lost === 1 ? 'gun' : 'guns') : lost === 1 ? 'figure' : 'figures';
  if (left === 0) {
    say(log, rule, `${u.name} loses its last ${lost} ${what} (${lost} KIA): it is broken and removed`);
    t = updUnit(t, id, { status: 'broken', attachedLeader: null });
    if (u.attachedLeader)
      t = { ...t, leaders: t.leaders.map((l) => (l.id === u.attachedLeader ? { ...l, attachedTo: null } : l)) };
    return t;
  }
  say(log, rule, `${u.name} loses ${lost} ${what} (${lost} KIA): ${left} left`);
  const frames: SkillFrame[] = [];
  const o = t.ctx.options;
  const lostFrac = (start - left) / start;
  const nu = unitOf(t, id);
  if (!nu.spent && lostFrac >= fraction(o.spentAt)) {
    t = updUnit(t, id, { spent: true, worn: true });
    say(log, 'Markers', `${u.name} has lost half its strength: SPENT (C11)`);
    if (!nu.spentTested) frames.push({ t: 'skill', unit: id, reason: 'spent' });
  } else if (!nu.worn && lostFrac >= fraction(o.wornAt)) {
    t = updUnit(t, id, { worn: true });
    say(log, 'Markers', `${u.name} has lost a third of its strength: WORN (C11)`);
    if (!nu.wornTested) frames.push({ t: 'skill', unit: id, reason: 'worn' });
  }
  // [Skirmish Combat] "KIA's from skirmish fire force a skill test"
  if (cause === 'skirmish') frames.push({ t: 'skill', unit: id, reason: 'skirmishKia' });
  // [Leader Casualties] "Tactical leader for each KIA = 1d6. If any 6's are rolled, consult chart"
  const leader = nu.attachedLeader ? t.leaders.find((l) => l.id === nu.attachedLeader) : undefined;
  if (leader && leader.status === 'active' && cause !== 'morale' && cause !== 'forceMarch')
    frames.push({ t: 'leaderTactical', leader: leader.id, kias: lost });
  // the last pushed runs first: the tests in the order listed
  return frames.length ? push(t, ...frames.reverse()) : t;
}

// ---------- skill tests ----------

/** Why a unit takes a skill test: each reason has its own modifiers and failure [Skill Tests]. */
export type SkillReason = SkillFrame extends infer F ? (F extends { t: 'skill'; reason: infer R } ? R : never) : never;

/** The ME leader's range and brigade integrity (C2): the +2 "Out of Command range &/or Brg Integ." */
export function outOfCommand(s: S, u: UnitState): boolean {
  const e = elementOf(s, u.element);
  const l = e.leader ? s.leaders.find((x) => x.id === e.leader) : undefined;
  if (l?.status !== 'active') return true;
  if (l.attachedTo !== u.id && dist(l.pos, u.pos) > rangeOf(l)) return true;
  const mates = elementUnits(s, e).filter((m) => m.id !== u.id);
  return outOfIntegrity(
    placed(s, u),
    mates.map((m) => placed(s, m)),
    s.ctx.options.brigadeIntegrity * IN,
  );
}

/** The attached leader's inspiration, when he is active. */
export function attachedInspiration(s: S, u: UnitState) {
  const l = u.attachedLeader ? s.leaders.find((x) => x.id === u.attachedLeader) : undefined;
  return l && l.status === 'active' ? l.inspiration : null;
}

/** [Terrain] the cover a unit is in: its BUA's grade when garrisoning, else the best of the areas under its centre. */
export function coverOf(s: S, u: UnitState): 'none' | 'light' | 'medium' | 'heavy' {
  if (u.kind === 'infantry' && u.formation === 'garrison')
    return s.ctx.buas.find((b) => b.id === u.garrison)?.cover ?? 'none';
  let best: 'none' | 'light' | 'medium' | 'heavy' = 'none';
  const rank = { none: 0, light: 1, medium: 2, heavy: 3 } as const;
  const take = (c: 'none' | 'light' | 'medium' | 'heavy') => {
    if (rank[c] > rank[best]) best = c;
  };
  for (const a of s.ctx.terrain.areas)
    if (pointInPolygon(u.pos, a.polygon))
      take(a.kind === 'denseWoods' ? 'medium' : a.kind === 'lightWoods' || a.kind === 'orchard' ? 'light' : 'none');
  for (const b of s.ctx.buas) if (pointInPolygon(u.pos, b.polygon)) take(b.cover);
  return best;
}

/**
 * The modified skill number for a test `reason` (null: no test allowed). Cover counts only for tests caused by fire
 * (C11): here the skirmish test. `safe`: removing disorder with no enemy within 1 move, or behind a friendly unit.
 */
export function skillNumberFor(s: S, id: string, reason: SkillReason, safe = false): number | null {
  const u = unitOf(s, id);
  const colOrLinear =
    u.kind === 'infantry' && (u.formation === 'column' || (u.formation === 'line' && u.doctrine === 'linear'));
  const cover = reason === 'skirmishKia' && u.kind === 'infantry' ? coverOf(s, u) : 'none';
  return skillNumber({
    cls: u.class,
    leader: attachedInspiration(s, u),
    infantryColumnOrLinearLine: colOrLinear,
    disordered: u.disordered,
    worn: u.worn,
    spent: u.spent,
    outOfCommandOrIntegrity: outOfCommand(s, u),
    lightCover: cover === 'light',
    mediumHardCoverFromFire: cover === 'medium' || cover === 'heavy',
    recoveringSafe: reason === 'recover' && safe,
  });
}

const skillHandler: ChanceHandler<S, SkillFrame & { t: 'skill' }, Action> = {
  kind: 'chance',
  outcomes: (s, f) => {
    const n = skillNumberFor(s, f.unit, f.reason, f.safe) ?? 13;
    return skillTestDist(n).map((d) => ({
      action: `skill ${f.unit} ${d.value ? 'pass' : 'fail'}`,
      p: d.p,
      label: d.value ? `pass (2D6 ≥ ${n})` : `fail (2D6 < ${n})`,
    }));
  },
  step(s, f, a, log) {
    const u = unitOf(s, f.unit);
    if (!onTable(u)) return s;
    const n = skillNumberFor(s, f.unit, f.reason, f.safe);
    const pass = a.endsWith('pass');
    let t = s;
    if (f.reason === 'worn') t = updUnit(t, f.unit, { wornTested: true });
    if (f.reason === 'spent') t = updUnit(t, f.unit, { spentTested: true, wornTested: true });
    const why = REASON_TEXT[f.reason];
    if (f.reason === 'recover') {
      say(
        log,
        'T2d',
        `${u.name} ${pass ? 'recovers from disorder' : 'stays disordered'} (2D6 ${pass ? '≥' : '<'} ${n})`,
      );
      return pass ? updUnit(t, f.unit, { disordered: false }) : t;
    }
    if (pass) {
      say(log, 'Skill Tests', `${u.name} passes its skill test (${why}: 2D6 ≥ ${n})`);
      return t;
    }
    if (f.reason === 'worn' || f.reason === 'spent') {
      say(
        log,
        'Skill Tests',
        `${u.name} fails its skill test (${why}: 2D6 < ${n}): it retires 1 move as column, disordered, facing the enemy`,
      );
      return wornSpentRetire(t, f.unit, log);
    }
    say(log, 'Skill Tests', `${u.name} fails its skill test (${why}: 2D6 < ${n}): disordered`);
    return updUnit(t, f.unit, { disordered: true });
  },
  describe: (s, f) =>
    `${unitOf(s, f.unit).name}'s skill test (${REASON_TEXT[f.reason]}): 2D6 ≥ ${skillNumberFor(s, f.unit, f.reason, f.safe) ?? 'no test'} [Skill Tests]`,
};

const REASON_TEXT: Readonly<Record<SkillReason, string>> = {
  worn: 'it is worn',
  spent: 'it is spent',
  skirmishKia: "KIA's from skirmish fire",
  recover: 'removing disorder',
};

/**
 * [Skill Tests] worn/spent failure: "retire 1 move as column disordered facing enemy (Artillery limbers)": infantry
 * and cavalry take column and fall back their retiring column rate, artillery limbers and falls back its move.
 */
function wornSpentRetire(s: S, id: string, log: Log): S {
  const u = unitOf(s, id);
  let t = s;
  let rate: number;
  if (u.kind === 'infantry') {
    if (u.formation !== 'garrison') t = updUnit(t, id, { formation: 'column' });
    rate = moveRate({ arm: 'infantry', formation: 'column', retiring: true }, 'tactical') ?? 6;
  } else if (u.kind === 'cavalry') {
    t = updUnit(t, id, { formation: 'column' });
    rate =
      moveRate({ arm: 'cavalry', weight: u.weight, formation: 'column', retiring: true, blown: false }, 'tactical') ??
      6;
  } else {
    t = updUnit(t, id, { formation: 'limbered' });
    rate =
      moveRate({ arm: 'artillery', gun: u.gunType, horse: u.mobility === 'horse', prolong: false }, 'tactical') ?? 6;
  }
  t = updUnit(t, id, { disordered: true });
  if (u.kind === 'infantry' && u.formation === 'garrison') return t;
  return fallBack(t, id, rate, 'keep', 'Skill Tests', log);
}

/**
 * Falls a unit back up to `inches` straight away from the nearest enemy unit, facing kept (`keep`: FB, a retirement
 * facing the enemy) or turned away (`away`: Ret), stopping short of any other unit and of the table's edge.
 */
export function fallBack(s: S, id: string, inchesMax: number, facing: 'keep' | 'away', rule: string, log: Log): S {
  const u = unitOf(s, id);
  const enemies = unitsOf(s, other(u.side));
  const me = placed(s, u);
  let from: Vec | null = null;
  let best = Number.POSITIVE_INFINITY;
  for (const e of enemies) {
    const d = gap(me, placed(s, e));
    if (d < best) {
      best = d;
      from = e.pos;
    }
  }
  // away from the nearest enemy; with none, straight back
  const dir = from ? headingTo(from, u.pos) : normDeg(u.facing + 180);
  const v = headingVec(dir);
  const others = s.units.filter((x) => x.id !== id && onTable(x)).map((x) => polyOf(placed(s, x)));
  const newFacing = facing === 'away' ? Math.round(dir) % 360 : u.facing;
  let done = 0;
  const step = IN / 4;
  for (let d = step; d <= inchesMax * IN + 1e-9; d += step) {
    const pos = { x: Math.round(u.pos.x + v.x * d), y: Math.round(u.pos.y + v.y * d) };
    const p = polyOf(placed(s, { ...u, pos, facing: newFacing } as UnitState));
    if (p.some((q) => q.x < 0 || q.y < 0 || q.x > s.ctx.width || q.y > s.ctx.height)) break;
    if (others.some((o) => polygonsOverlap(p, o))) break;
    done = d;
  }
  const pos = { x: Math.round(u.pos.x + v.x * done), y: Math.round(u.pos.y + v.y * done) };
  say(
    log,
    rule,
    `${u.name} falls back ${inches(done)}${done < inchesMax * IN - 1 ? ` (of ${inchesMax}": blocked)` : ''}${facing === 'away' ? ', facing away' : ''}`,
  );
  let t = updUnit(s, id, { pos, facing: newFacing });
  if (u.attachedLeader) t = { ...t, leaders: t.leaders.map((l) => (l.id === u.attachedLeader ? { ...l, pos } : l)) };
  return t;
}

// ---------- the tactical leader check ----------

/** One D6 a KIA; any 6: 2D6 on the leader table. One chance node: no effect, knocked out, incapacitated, killed. */
function tacticalLeaderDist(kias: number): { value: LeaderCasualty; p: number }[] {
  const hit = tacticalLeaderCheckDist(kias).find((d) => d.value)?.p ?? 0;
  // the table's 2D6 (tables.ts), scaled by the chance that any 6 was rolled
  return roll2D6On(0, leaderCasualty).map((d) => ({
    value: d.value,
    p: d.p * hit + (d.value === 'noEffect' ? 1 - hit : 0),
  }));
}

const leaderTacticalHandler: ChanceHandler<S, SkillFrame & { t: 'leaderTactical' }, Action> = {
  kind: 'chance',
  outcomes: (_s, f) =>
    tacticalLeaderDist(f.kias).map((d) => ({
      action: `leader ${f.leader} ${d.value}`,
      p: d.p,
      label: d.value === 'noEffect' ? 'no effect' : d.value,
    })),
  step: (s, f, a, log) => leaderHit(s, f.leader, a.split(' ')[2] as LeaderCasualty, 'Leader Casualties', log),
  describe: (s, f) =>
    `the tactical leader check for ${s.leaders.find((l) => l.id === f.leader)!.name}: ${f.kias} D6, any 6 → the table [Leader Casualties]`,
};

export const casualtyHandlers = { skill: skillHandler, leaderTactical: leaderTacticalHandler };
