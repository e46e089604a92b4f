/**
 * Charge! Eagles Rising, ranged fire [Ranged Fire; Artillery Fire; Small Arms Fire; T2c; C3, C5, C8, C11]: who may
 * fire at whom (arc, range, line of sight), the dice and the to-hit number of one unit's fire from the sheets' tables
 * (tables.ts, never re-transcribed), grand batteries (C5), and the simultaneous fire step: every volley is rolled as a
 * chance node with the exact distribution of its hits (tables.ts `fireHitsDist`), the hits are recorded, and all of
 * them are applied together (casualties.ts `applyKias`), so no loss of the step changes another shot of it (C8).
 *
 * THE API (for T2a/T2c here, and for the charges chapter's closing fire):
 * - `shotOf(s, firer, target, kind, opts)` → `Shot | null`: one unit's fire at one target now (`dice`, `toHit`, `band`,
 *   `text`, …), or null when it may not fire at it (not a firer, out of arc, range or sight). `kind` is 'fire' (T2a),
 *   'return' (T2c) or 'closing' (T2e: −1 for artillery at infantry); `opts.targetCharging` gives small arms' ±1 at
 *   chargers, `opts.grandBattery` the −1 (`grandBatteries` finds them), `opts.firingAndEvading` the +1.
 * - `canFire(s, unit)`, `fireTargets(s, firer, kind, among?)`: the targets it may fire at with a chance to hit.
 * - `grandBatteries(s, orders)`: the batteries of one fire step that form a grand battery (C5).
 * - `fireStep(s, orders, rule, log, optsOf?)`: computes every order's shot on the same state, commits the MEs (C2),
 *   pushes one `fireApply` frame and a `volley` chance frame per shot above it (the first order rolled first); when the
 *   volleys are rolled, `fireApply` applies all the hits together. Returns the state unchanged when nothing can fire.
 * - `pushVolleys(s, shots, rule)`: the same from shots already computed (e.g. split closing fire, `dice` reduced).
 * - The `volley` frame `{ t: 'volley', firer, target, dice, toHit, kind, band }` records its hits in the nearest frame
 *   below it that collects them: a `fireApply` frame, or any frame with `collect: true` and a `hits: FireHit[]` field
 *   (a chapter that must read the hits before they are applied, e.g. closing-fire KIAs for the charger's test, pushes
 *   its own collector). With no collector on the stack the hits are applied at once.
 * - `applyFireHits(s, hits, rule, log)`: applies recorded hits together, summed per target (cause 'fire', or
 *   'closingFire' for closing fire), each with everything `applyKias` brings.
 * - `volleyDist(s, dice, toHit)`: the exact distribution of a volley's hits under the options (C11 `toHitFloor`).
 *
 * Readings (every one is listed in the README):
 * - Arc and range (C5): the target must be at least partly in the firer's front arc (a square or a garrison fires all
 *   round) and within the weapon's long range; the range is measured edge to edge from the firer to the part of the
 *   target inside its arc, to 1/100", and sets the band ("each band runs from the previous limit, exclusive, to its own,
 *   inclusive").
 * - Sight (C5, shape.ts `sees`): every other unit's footprint blocks, except that ARTILLERY fires through the target
 *   side's units in Skirmish formation: when it sees the target only because those are transparent, the fire "passes
 *   through a skirmish line" (+1). Small arms have no such row: skirmishers block them like any unit.
 * - Who fires: infantry with front-rank figures and artillery unlimbered and manned. Cavalry never fire. A GARRISON
 *   fires with the front rank of a line of its figures at its ranks (the sheets give no garrison dice; its body is its
 *   BUA, all round). March columns fire with their 2-figure front rank.
 * - Target classes (tables.ts `FireTarget`): infantry in column or march column = "infantry in column"; either square
 *   = "in square"; Skirmish formation (infantry or light cavalry) = "skirmish formation"; a battery unlimbered and not
 *   limbered at the start of the turn = "deployed artillery", otherwise "limbered artillery" (C4: no compressed
 *   frontage); everything else (line, garrison, cavalry) has no row.
 * - Cover: casualties.ts `coverOf` (a garrison: its BUA's grade; otherwise the best area under its centre).
 * - Flank (C5, shape.ts `flankFire`): the firer's centre in the target's flank or rear sector: 2× artillery dice (not at
 *   long range or at infantry in column, tables.ts `artilleryDice`), −1 for small arms ("On Target Flank or Rear").
 * - Grand battery (C5): `grandBatteryMin` (3) or more batteries of one side firing at the same target in the same fire
 *   step, linked each within 2" of another of them (a chain).
 * - C3 `nineGunDice`: 9 guns roll 2 d10 (or 3 with the option). C11 `toHitFloor`: to-hit never below 2 (or 1).
 * - Fire options are offered only where a hit is possible (to-hit 13 or more cannot hit: such fire is not offered).
 * - Commitment (C2): a fire step commits the firer's ME and the target's ME (and their MFs), hit or not.
 */
import { IN, type Polygon, polygonDistance } from '../../geometry/geometry.ts';
import type { AutoHandler, ChanceHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import type { Dist } from '../../core/dice.ts';
import { clipConvex } from '../../tabletop/arcs.ts';
import { applyKias, coverOf } from './casualties.ts';
import type { FireFrame, FireHit } from './frames.ts';
import { type Placed, firingRanks, flankFire, frontArc, gap, polyOf, sees, sizeOf } from './shape.ts';
import {
  ARTILLERY_RANGES,
  type FireTarget,
  type RangeBand,
  SMALL_ARMS_RANGES,
  artilleryDice,
  artilleryRangeBand,
  artilleryToHit,
  fireHitsDist,
  hitChance,
  smallArmsDice,
  smallArmsRangeBand,
  smallArmsToHit,
} from './tables.ts';
import type { FireKind, FireOrder, UnitState } from './types.ts';
import { type Action, type S, elementOf, inches, onTable, placed, say, unitOf, updCommand } from './state.ts';

/** One unit's fire at one target, as the tables give it. */
export interface Shot {
  readonly firer: string;
  readonly target: string;
  readonly kind: FireKind;
  readonly arm: 'artillery' | 'smallArms';
  readonly dice: number;
  /** The modified to-hit number (before the C11 floor; above 10: a natural 10 then a second d10). */
  readonly toHit: number;
  readonly band: RangeBand;
  /** Range edge to edge to the part of the target in the firer's arc, inches. */
  readonly range: number;
  readonly flank: boolean;
  readonly throughSkirmish: boolean;
  readonly text: string;
}

export interface ShotOpts {
  /** [Artillery Fire] "Grand battery firing" −1 (see `grandBatteries`). */
  readonly grandBattery?: boolean;
  /** [Small Arms Fire] "Infantry firing at charging infantry/cavalry" −1/+1 (closing fire). */
  readonly targetCharging?: 'infantry' | 'cavalry' | null;
  /** [Artillery Fire] "Firing & evading" +1. */
  readonly firingAndEvading?: boolean;
}

const allRound = (p: Placed) =>
  p.formation === 'hastySquare' || p.formation === 'solidSquare' || p.formation === 'garrison';

/** Who may fire at all: infantry with a front rank, artillery unlimbered and manned; cavalry never [Ranged Fire; C8]. */
export function canFire(s: S, u: UnitState): boolean {
  if (!onTable(u)) return false;
  if (u.kind === 'cavalry') return false; // [Ranged Fire] "Cavalry never fire" (digest §6.10)
  if (u.kind === 'artillery') return u.formation === 'unlimbered' && !u.abandoned && u.guns > 0;
  return u.figures > 0 && frontRankOf(s, u) > 0;
}

/** [Small Arms Fire] front-rank figures (§3.1, C4); a garrison as a line of its figures at its ranks (a reading). */
function frontRankOf(s: S, u: UnitState): number {
  if (u.kind !== 'infantry') return 0;
  if (u.formation === 'garrison') return Math.ceil(u.figures / u.ranks);
  return sizeOf(placed(s, u)).frontRank;
}

/** The weapon's long range, 1/100". */
function reachOf(u: UnitState): number {
  if (u.kind === 'artillery') return ARTILLERY_RANGES.find((r) => r.gun === u.gunType)!.limits[2] * IN;
  if (u.kind === 'infantry') return SMALL_ARMS_RANGES.find((r) => r.weapon === u.weapon)!.limits[1] * IN;
  return 0;
}

/**
 * [Ranged Fire; C5] the range from `firer` to the part of `body` inside its front arc (all round for a square or a
 * garrison), 1/100" rounded, or null when no part of it lies in the arc within `reach`.
 */
function arcRange(firer: Placed, body: Polygon, reach: number): number | null {
  const me = polyOf(firer);
  if (allRound(firer)) {
    const d = Math.round(polygonDistance(me, body));
    return d <= reach ? d : null;
  }
  const part = clipConvex(body, frontArc(firer, reach));
  if (part.length < 3) return null;
  const d = Math.round(polygonDistance(part, me));
  return d <= reach ? d : null;
}

/** tables.ts `FireTarget` of a target unit (see the readings). */
function fireTargetOf(u: UnitState): FireTarget {
  if (u.kind === 'artillery')
    return u.formation === 'unlimbered' && !u.limberedAtTurnStart ? 'deployedArtillery' : 'limberedArtillery';
  if (u.formation === 'skirmish') return 'skirmish';
  if (u.kind === 'cavalry') return 'cavalry';
  if (u.formation === 'column' || u.formation === 'marchColumn') return 'infantryColumn';
  if (u.formation === 'hastySquare' || u.formation === 'solidSquare') return 'infantrySquare';
  return 'infantryLine';
}

const coverGrade = (c: ReturnType<typeof coverOf>) =>
  c === 'none' ? 'none' : c === 'light' ? 'light' : 'mediumOrHeavy';

/**
 * [Ranged Fire] line of sight from `firer` to `target` (C5): `clear`, or `throughSkirmish` when artillery sees it only
 * through the target side's skirmish screens, or null when blocked.
 */
function lineOfFire(s: S, firer: UnitState, target: UnitState): 'clear' | 'throughSkirmish' | null {
  const others = s.units.filter((u) => onTable(u) && u.id !== firer.id && u.id !== target.id);
  const fp = placed(s, firer);
  const tp = placed(s, target);
  const all = others.map((u) => placed(s, u));
  if (sees(s.ctx, fp, tp, all)) return 'clear';
  if (firer.kind !== 'artillery') return null;
  const screen = (u: UnitState) => u.side === target.side && u.kind !== 'artillery' && u.formation === 'skirmish';
  if (!others.some(screen)) return null;
  const open = others.filter((u) => !screen(u)).map((u) => placed(s, u));
  return sees(s.ctx, fp, tp, open) ? 'throughSkirmish' : null;
}

/**
 * [Ranged Fire; Artillery Fire; Small Arms Fire] one unit's fire at one target now: dice and to-hit from the tables,
 * or null when it may not fire at it (not a firer, the target not an enemy on the table, out of arc or range, no line
 * of sight).
 */
export function shotOf(s: S, firerId: string, targetId: string, kind: FireKind, opts: ShotOpts = {}): Shot | null {
  const f = unitOf(s, firerId);
  const t = unitOf(s, targetId);
  if (!canFire(s, f) || !onTable(t) || t.side === f.side) return null;
  const fp = placed(s, f);
  const tp = placed(s, t);
  const r100 = arcRange(fp, polyOf(tp), reachOf(f));
  if (r100 === null) return null;
  const range = r100 / IN;
  const sight = lineOfFire(s, f, t);
  if (!sight) return null;
  const target = fireTargetOf(t);
  const cover = coverGrade(coverOf(s, t));
  const flank = flankFire(fp, tp);
  const o = s.ctx.options;
  const at = `${t.name} at ${inches(r100)}`;
  if (f.kind === 'artillery') {
    const band = artilleryRangeBand(f.gunType, range);
    if (!band) return null;
    const column = target === 'infantryColumn';
    // [Artillery Fire] 1-5 guns 1d10, 6-8 2d10, 10+ 3d10; C3: 9 guns `nineGunDice`; flank fire 2× (not long, not column)
    const base = f.guns === 9 ? o.nineGunDice : artilleryDice(f.guns);
    const dice = base * (artilleryDice(f.guns, flank, band, column) / artilleryDice(f.guns));
    const toHit = artilleryToHit({
      gun: f.gunType,
      crewClass: f.crewClass,
      band,
      target,
      cover,
      grandBattery: !!opts.grandBattery,
      closingFire: kind === 'closing',
      throughSkirmishLine: sight === 'throughSkirmish',
      disorderedOrSuppressed: f.disordered || f.suppressed,
      firingAndEvading: !!opts.firingAndEvading,
      worn: f.worn,
      spent: f.spent,
    });
    const notes = [
      flank && dice > base ? 'flank fire: 2× dice' : '',
      opts.grandBattery ? 'grand battery' : '',
      sight === 'throughSkirmish' ? 'through a skirmish line' : '',
    ].filter(Boolean);
    return {
      firer: f.id,
      target: t.id,
      kind,
      arm: 'artillery',
      dice,
      toHit,
      band,
      range,
      flank,
      throughSkirmish: sight === 'throughSkirmish',
      text: `${f.name} (${f.guns} guns) at ${at} (${band} range): ${dice} d10 needing ${toHit}${notes.length ? ` (${notes.join(', ')})` : ''}`,
    };
  }
  if (f.kind !== 'infantry') return null;
  const band = smallArmsRangeBand(f.weapon, range);
  if (!band) return null;
  // [Small Arms Fire] 1d10 per 3 (3-rank) or 2 (2-rank; Skirmish fires as 2-rank) front-rank figures, +1 regimental guns
  const dice = smallArmsDice(frontRankOf(s, f), firingRanks(fp), f.regimentalGuns);
  const toHit = smallArmsToHit({
    cls: f.class,
    band,
    target,
    cover,
    targetCharging: opts.targetCharging ?? null,
    disordered: f.disordered,
    worn: f.worn,
    spent: f.spent,
    onFlankOrRear: flank,
  });
  return {
    firer: f.id,
    target: t.id,
    kind,
    arm: 'smallArms',
    dice,
    toHit,
    band,
    range,
    flank,
    throughSkirmish: false,
    text: `${f.name} at ${at} (${band} range): ${dice} d10 needing ${toHit}${flank ? ' (on its flank)' : ''}`,
  };
}

/** Can a shot hit at all (to-hit 13+ cannot; C11 floor)? */
export function canHit(shot: Shot): boolean {
  return shot.dice > 0 && hitChance(shot.toHit) > 0;
}

/** The enemy units `firer` may fire at now with a chance to hit (optionally only those `among`). */
export function fireTargets(s: S, firerId: string, kind: FireKind, among?: readonly string[]): string[] {
  const f = unitOf(s, firerId);
  if (!canFire(s, f)) return [];
  const reach = reachOf(f);
  const fp = placed(s, f);
  const out: string[] = [];
  for (const t of s.units) {
    if (t.side === f.side || !onTable(t)) continue;
    if (among && !among.includes(t.id)) continue;
    if (gap(fp, placed(s, t)) > reach) continue; // quick reject
    const sh = shotOf(s, firerId, t.id, kind);
    if (sh && canHit(sh)) out.push(t.id);
  }
  return out;
}

/**
 * [Artillery Fire; C5] the batteries of one fire step in a grand battery: `grandBatteryMin` or more of one side firing
 * at the same target, linked each within 2" of another of them.
 */
export function grandBatteries(s: S, orders: readonly { firer: string; target: string }[]): Set<string> {
  const out = new Set<string>();
  const min = s.ctx.options.grandBatteryMin;
  const byTarget = new Map<string, UnitState[]>();
  for (const o of orders) {
    const f = unitOf(s, o.firer);
    if (f.kind !== 'artillery' || !canFire(s, f)) continue;
    const k = `${f.side}/${o.target}`;
    byTarget.set(k, [...(byTarget.get(k) ?? []), f]);
  }
  for (const group of byTarget.values()) {
    if (group.length < min) continue;
    const seen = new Set<string>();
    for (const g of group) {
      if (seen.has(g.id)) continue;
      // the chain of batteries linked to g, each within 2" of another
      const comp = [g];
      seen.add(g.id);
      for (let i = 0; i < comp.length; i++)
        for (const h of group)
          if (!seen.has(h.id) && gap(placed(s, comp[i]!), placed(s, h)) <= 2 * IN) {
            seen.add(h.id);
            comp.push(h);
          }
      if (comp.length >= min) for (const c of comp) out.add(c.id);
    }
  }
  return out;
}

/** [Ranged Fire] the exact distribution of a volley's hits (C3: a hit is a KIA; C11 `toHitFloor`). */
export function volleyDist(s: S, dice: number, toHit: number): Dist<number>[] {
  if (s.ctx.options.toHitFloor === 1 && toHit <= 1 && dice > 0) return [{ value: dice, p: 1 }];
  return fireHitsDist(dice, toHit);
}

/** [C2] an ME (and its MF) fired or fired on: committed for good. */
function commit(s: S, elementId: string, why: string, log: Log): S {
  const e = elementOf(s, elementId);
  let t = s;
  if (!e.committed) {
    t = updCommand(t, e.id, { committed: true });
    say(log, 'C2', `${e.name} is committed (${why})`);
  }
  if (e.formation && !t.formations.find((x) => x.id === e.formation)!.committed)
    t = updCommand(t, e.formation, { committed: true });
  return t;
}

/**
 * [T2c; C8] one simultaneous fire step: every order's shot computed on this same state (a grand battery found among
 * them), the MEs committed (C2), then a `fireApply` frame with a `volley` above it for each shot, the first order on
 * top. An order that has no shot any more (out of sight after a later move of its ME) is lost, said so.
 */
export function fireStep(
  s: S,
  orders: readonly FireOrder[],
  rule: string,
  log: Log,
  optsOf?: (o: FireOrder) => ShotOpts,
): S {
  const gb = grandBatteries(s, orders);
  const shots: Shot[] = [];
  for (const o of orders) {
    const sh = shotOf(s, o.firer, o.target, o.kind, { ...(optsOf?.(o) ?? {}), grandBattery: gb.has(o.firer) });
    if (!sh) {
      say(log, rule, `${unitOf(s, o.firer).name} no longer has a shot at ${unitOf(s, o.target).name}: no fire`);
      continue;
    }
    shots.push(o.dice !== null ? { ...sh, dice: Math.min(sh.dice, o.dice) } : sh);
  }
  if (!shots.length) return s;
  let t = s;
  for (const sh of shots) {
    t = commit(t, unitOf(t, sh.firer).element, 'it fires', log);
    t = commit(t, unitOf(t, sh.target).element, 'it is fired on', log);
  }
  return pushVolleys(t, shots, rule);
}

/** Push a `fireApply` collector and one `volley` per shot above it (the first shot rolled first). */
function pushVolleys(s: S, shots: readonly Shot[], rule: string): S {
  const volleys: FireFrame[] = shots.map((sh) => ({
    t: 'volley',
    firer: sh.firer,
    target: sh.target,
    dice: sh.dice,
    toHit: sh.toHit,
    kind: sh.kind,
    band: sh.band,
  }));
  return push(s, { t: 'fireApply', rule, hits: [] }, ...volleys.reverse());
}

/**
 * [Ranged Fire; C3, C8] recorded hits applied together: summed per target, each target's KIAs with everything
 * `applyKias` brings (cause 'closingFire' for closing fire, else 'fire').
 */
export function applyFireHits(s: S, hits: readonly FireHit[], rule: string, log: Log): S {
  const per = new Map<string, { n: number; closing: boolean }>();
  for (const h of hits) {
    if (h.hits <= 0) continue;
    const p = per.get(h.target) ?? { n: 0, closing: false };
    per.set(h.target, { n: p.n + h.hits, closing: p.closing || h.kind === 'closing' });
  }
  let t = s;
  for (const [target, { n, closing }] of per) t = applyKias(t, target, n, closing ? 'closingFire' : 'fire', rule, log);
  return t;
}

type Volley = Extract<FireFrame, { t: 'volley' }>;
type FireApply = Extract<FireFrame, { t: 'fireApply' }>;

/** A frame collecting volley hits: `fireApply`, or any frame with `collect: true` and `hits`. */
function isCollector(f: unknown): f is { hits: readonly FireHit[] } {
  const x = f as { t?: string; collect?: boolean; hits?: unknown };
  return (x.t === 'fireApply' || x.collect === true) && Array.isArray(x.hits);
}

const volleyHandler: ChanceHandler<S, Volley, Action> = {
  kind: 'chance',
  outcomes: (s, f) =>
    volleyDist(s, f.dice, f.toHit).map((d) => ({
      action: `hits ${f.firer} ${f.target} ${d.value}`,
      p: d.p,
      label: `${d.value} ${d.value === 1 ? 'hit' : 'hits'}`,
    })),
  step(s, f, a, log) {
    const n = Number(a.split(' ')[3]);
    const fu = unitOf(s, f.firer);
    const tu = unitOf(s, f.target);
    const what = f.kind === 'return' ? 'returns fire at' : f.kind === 'closing' ? 'gives closing fire at' : 'fires at';
    say(
      log,
      'Ranged Fire',
      `${fu.name} ${what} ${tu.name} (${f.band} range, ${f.dice} d10 needing ${f.toHit}): ${n} ${n === 1 ? 'hit' : 'hits'}`,
    );
    const hit: FireHit = { firer: f.firer, target: f.target, hits: n, kind: f.kind, band: f.band };
    for (let i = s.stack.length - 1; i >= 0; i--) {
      const c = s.stack[i];
      if (!isCollector(c)) continue;
      const stack = [...s.stack];
      stack[i] = { ...c, hits: [...c.hits, hit] } as (typeof s.stack)[number];
      return { ...s, stack };
    }
    return applyFireHits(s, [hit], 'Ranged Fire', log);
  },
  describe: (s, f) =>
    `${unitOf(s, f.firer).name}'s ${f.kind === 'return' ? 'return ' : f.kind === 'closing' ? 'closing ' : ''}fire at ${unitOf(s, f.target).name}: ${f.dice} d10 needing ${f.toHit} [Ranged Fire]`,
};

const fireApplyHandler: AutoHandler<S, FireApply> = {
  kind: 'auto',
  run(s, f, log) {
    const total = f.hits.reduce((n, h) => n + h.hits, 0);
    if (f.hits.length > 1)
      say(log, 'C8', `all fire is simultaneous: ${total} ${total === 1 ? 'hit' : 'hits'} applied together`);
    return applyFireHits(s, f.hits, f.rule, log);
  },
};

export const fireHandlers = { volley: volleyHandler, fireApply: fireApplyHandler };
