/**
 * Charge! Eagles Rising, the strategic phase's S4: strategic moves [Turn Sequence S4; Movement; Terrain; digest §6.5,
 * §6.8, §9; C2, C6, C7]. "Both sides conduct strategic moves; stay 10" from opponents unless on attack orders."
 *
 * - C7: sequential by side. `s.strategicFirst`'s MEs move first (in the order of `s.elements`), then the other
 *   side's. At the start of each side's turn its MEs that arrive this turn (S2 set `offBoard.arriving`) enter.
 * - [S4] An ME may move strategically if it is not broken and ALL its units are more than 10" (edge to edge,
 *   shape.ts `isTactical`) from every enemy unit on the table. Each eligible ME makes ONE choice: `strategic <ME>
 *   none`, or a group move `strategic <ME> [road] <heading> <half|full>[ column][ force]`.
 * - The group move: every unit goes the same distance the same way, so the ME keeps its shape. Each unit's allowance
 *   is its strategic rate (tables.ts `moveRate(…, 'strategic')`) plus the road and force-march bonuses (`moveBonus`),
 *   less a formation change (§6.8: −2" infantry, −4" cavalry, C6 −2" limber, option `limberCost`), and its path
 *   pays the terrain's extra costs (shape.ts `moveCost` with tables.ts `terrainExtraCost`, C6). The group goes as far
 *   as its slowest unit allows (`full`), or half of that (`half`); then it is cut short at the largest legal
 *   distance along its way (see LIMITS). Only moves that actually move are offered, and of moves that end in the same
 *   place (positions, facings, formations) only one: one without a force march if there is one, else the first
 *   (`toward` before the compass points before the road, keeping formation before `column`, `half` before `full`).
 * - Force march [Movement: Double Quick, strategic +12"/+20"]: ONE skill test for the ME, 2D6 ≥ the skill number of
 *   its majority class (orders.ts `majorityClass`) with its leader's inspiration modifier; a failure costs 1 KIA
 *   for every unit of the ME (casualties.ts `applyKias`, cause `forceMarch`). The move is made either way.
 * - C7: an ME that moved strategically (or entered from off the table) has `strategicMoveThisTurn` set: its units
 *   may only Fire or Hold in this turn's tactical phase. The flag is cleared for every ME when S4 begins.
 *
 * READINGS:
 * 1. Headings: `toward` (its order's point) or one of the 8 compass points N NE E SE S SW W NW; for an order bound to
 *    its point (all but Reserve) only the compass points within 45° of the bearing to the point. Units keep their
 *    facing on a cross-country move (a translation of the group); a unit whose displacement is net rearward moves at
 *    the retiring rate (C6 "rearward moves use retiring rates, facing kept"). On a road move the units follow the
 *    road and face the way they travel.
 * 2. `column`: infantry takes March Column, cavalry Column, artillery limbers, each at its formation-change cost.
 *    Cavalry in Column counts as "march column" for the road. Unlimbered artillery that does not limber moves by
 *    prolonge (C6: its strategic prolong rate, 9"). A garrison cannot move unless it takes `column` (it leaves its
 *    BUA in March Column at the BUA's centre).
 * 3. Road [Movement: Road bonus "in march column or limbered Arty"; §6.5 "the whole move must be on the road"]: a road
 *    move is offered when every unit of the ME (after `column`) is in March Column / cavalry Column / limbered and
 *    its centre is within ½" of the same road; the units then move along the road's line (bends included) and each
 *    gets +12" foot (infantry, foot artillery) or +20" mounted (cavalry, horse artillery). A unit that must turn more
 *    than 90° to face its way along the road pays the formation-change cost (about face) unless it already pays for
 *    taking column. A road does not cancel the terrain it runs through: the move still pays for it (the sheets give
 *    no such rule). The heading of a road move is the compass point nearest its way of travel at the start.
 * 4. LIMITS, checked along the way (every 1", refined to ¼"); the move stops at the last legal point before the first
 *    place it would break one (cut short, never refused):
 *    - every footprint stays wholly on the table and overlaps no unit outside the ME (C6: no interpenetration);
 *    - [S4] non-Attack orders end ≥ 10" (tables.ts `ORDER_TYPES[].strategicMinToEnemy`) from every enemy unit; Attack
 *      ≥ 3" (C7 option `attackStandOff`);
 *    - Attack, Advance, Withdraw ("toward the objective/destination") and Hold ("only back toward the anchor"): each
 *      step must bring the ME's centre (the mean of its units' centres) no farther from the order's point: the move
 *      ends at the closest approach, so a move `toward` the point stops on it, and a heading away from it does not
 *      move at all. Reserve ("anywhere") and an ME without an order move freely;
 *    - Withdraw: no unit may come nearer its nearest enemy than it started, and every unit must end strictly farther
 *      (else the move is not offered).
 * 5. Eligibility is judged when the ME's turn to move comes, on the table as it then is (after the other side's moves
 *    when it moves second).
 * 6. Arrivals [Off Board Force Arrival: "enters at its entry point during S4 as a strategic move from the table
 *    edge"]: the ME's units are laid out in their own formations in one column along the entry facing, the ME's
 *    first unit at the head, each ½" behind the one in front, the last with its rear edge on the table edge at the
 *    entry point. Entering is the ME's strategic move this S4 (`strategicMoveThisTurn` is set): it makes no other
 *    until the next turn. When the column cannot be placed (off the table, or on another unit) the ME waits, still
 *    arriving, and enters at the next S4.
 * 7. Leaders [Movement: Generals and ADCs 80"]: a leader attached to a moving unit goes with it; the ME's own leader,
 *    when not attached, keeps his place relative to his ME (moved by its centre's displacement, at most 80", kept on
 *    the table). Other leaders do not move in S4.
 * 8. Terrain disorder [Terrain]: a unit whose move enters terrain that disorders it automatically (cavalry in woods
 *    and BUAs, formed infantry in light woods "while moving", …) is disordered; the terrain's skill tests ("pass skill
 *    test for not Disordered") are not rolled on a strategic move, made beyond 10" of the enemy.
 * 9. The force-march test is the ME's: the skill number of its majority class, modified only by its leader's
 *    inspiration (when he is active, attached or not); no unit's own markers count.
 * 10. Allowance: `half` is half the distance the slowest unit's allowance reaches, rounded down to ¼". Ground a unit
 *    cannot cross (NA for its arm: a major obstacle for artillery, a bridge when not in column or limbered) costs an
 *    infinite allowance, so the group stops short of it. Costs grow with the distance (shape.ts `moveCost`), so the
 *    reach is found by bisection.
 */
import {
  IN,
  type Polygon,
  type Vec,
  boxGap,
  closestPointOnSegment,
  dist,
  headingTo,
  headingVec,
  normDeg,
  onTable as polygonOnTable,
  polygonDistanceCapped,
  polygonsOverlap,
  rectCorners,
} from '../../geometry/geometry.ts';
import type { ChanceHandler, DecisionHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { type Placed, type TerrainRow, isTactical, moveCost, polyOf } from './shape.ts';
import {
  MOVEMENT_NOTES,
  type Mover as MoveInput,
  type Terrain,
  moveBonus,
  moveRate,
  orderType,
  skillNumber,
  skillTestDist,
  terrainExtraCost,
  terrainRow,
} from './tables.ts';
import type { StrategicFrame } from './frames.ts';
import type { ElementState, FootprintSize, Order, Side, UnitState } from './types.ts';
import { footprintRect } from './types.ts';
import { sizeOf } from './shape.ts';
import { applyKias } from './casualties.ts';
import { majorityClass } from './orders.ts';
import {
  type Action,
  type S,
  activeLeader,
  elementOf,
  elementUnits,
  inches,
  orderOfElement,
  other,
  placed,
  say,
  sideName,
  unitsOf,
  updElement,
  updLeader,
  updUnit,
} from './state.ts';

type H<K extends StrategicFrame['t']> = Extract<StrategicFrame, { t: K }>;

/** ¼": the grain of a strategic move. */
const Q = IN / 4;
/** Scan in whole inches, then refine to ¼". */
const COARSE = 4;
/** [Movement] Generals and ADCs: 80" strategic. */
const LEADER_REACH = 80 * IN;

const COMPASS: readonly (readonly [string, number])[] = [
  ['N', 0],
  ['NE', 45],
  ['E', 90],
  ['SE', 135],
  ['S', 180],
  ['SW', 225],
  ['W', 270],
  ['NW', 315],
];

/** The compass point nearest a heading. */
function compassOf(deg: number): string {
  return COMPASS[Math.round(normDeg(deg) / 45) % 8]![0];
}

// ---------------------------------------------------------------------------------------------------------------------
// Beginning S4
// ---------------------------------------------------------------------------------------------------------------------

/** [S4] clear last turn's flags; the first side (C7) moves, then the other. */
export function beginS4(s: S, log: Log): S {
  const t: S = s.elements.some((e) => e.strategicMoveThisTurn)
    ? { ...s, elements: s.elements.map((e) => (e.strategicMoveThisTurn ? { ...e, strategicMoveThisTurn: false } : e)) }
    : s;
  say(
    log,
    'S4',
    `strategic moves: ${sideName(t, t.strategicFirst)} first, then ${sideName(t, other(t.strategicFirst))} (C7)`,
  );
  // the last pushed is on top
  return push(t, { t: 'strategicSide', side: other(t.strategicFirst) }, { t: 'strategicSide', side: t.strategicFirst });
}

/** A side's turn in S4: its arrivals enter, then each of its MEs chooses in turn. */
function sideTurn(s: S, side: Side, log: Log): S {
  let t = s;
  const entered = new Set<string>();
  for (const e of s.elements)
    if (e.side === side && !e.broken && e.offBoard?.arriving) {
      t = enter(t, e.id, log);
      if (!elementOf(t, e.id).offBoard) entered.add(e.id);
    }
  // entering is the arrival's strategic move this S4: it makes no other
  const frames: StrategicFrame[] = t.elements
    .filter((e) => e.side === side && !e.broken && !e.offBoard && !entered.has(e.id))
    .map((e) => ({ t: 'strategic' as const, element: e.id }));
  return push(t, ...frames.reverse());
}

// ---------------------------------------------------------------------------------------------------------------------
// Arrivals (reading 6)
// ---------------------------------------------------------------------------------------------------------------------

/** Where an arriving ME's units stand: one column along the entry facing, the last unit's rear on the edge. */
export function entryLayout(s: S, id: string): { id: string; pos: Vec; facing: number }[] | null {
  const e = elementOf(s, id);
  const off = e.offBoard;
  if (!off) return null;
  const units = e.units.map((u) => s.units.find((x) => x.id === u)!).filter((u) => u.status === 'offBoard');
  const f = headingVec(off.facing);
  const out: { id: string; pos: Vec; facing: number }[] = [];
  let back = 0; // inches from the edge to the rear of the next unit (placed from the last forward)
  for (let i = units.length - 1; i >= 0; i--) {
    const u = units[i]!;
    const depth = sizeOf(placedAs(u, u.pos, off.facing)).depth;
    // 1/100" more inward, so the rounding never leaves a rear edge past the table's edge
    const c = (back + depth / 2) * IN + 1;
    out.unshift({
      id: u.id,
      pos: { x: Math.round(off.entry.x + f.x * c), y: Math.round(off.entry.y + f.y * c) },
      facing: off.facing,
    });
    back += depth + 0.5;
  }
  return out;
}

/** [Off Board Force Arrival] an arriving ME enters at its entry point (or waits when it cannot be placed). */
function enter(s: S, id: string, log: Log): S {
  const e = elementOf(s, id);
  const layout = entryLayout(s, id) ?? [];
  const others = s.units.filter((u) => u.status === 'active').map((u) => polyOf(placed(s, u)));
  const polys = layout.map((p) => polyOf(placedAs(s.units.find((u) => u.id === p.id)!, p.pos, p.facing)));
  const blocked = polys.some(
    (p) => !polygonOnTable(p, s.ctx.width, s.ctx.height) || others.some((o) => polygonsOverlap(p, o)),
  );
  if (blocked) {
    say(
      log,
      'S4',
      `${e.name} cannot enter at its entry point (the way is blocked or off the table): it enters at the next S4`,
    );
    return s;
  }
  let t = s;
  for (const p of layout) t = updUnit(t, p.id, { pos: p.pos, facing: p.facing, status: 'active' });
  t = updElement(t, id, { offBoard: null, strategicMoveThisTurn: true });
  for (const l of t.leaders) {
    if (l.attachedTo && layout.some((p) => p.id === l.attachedTo))
      t = updLeader(t, l.id, { pos: layout.find((p) => p.id === l.attachedTo)!.pos, offBoard: false });
    else if (l.id === e.leader) t = updLeader(t, l.id, { pos: clampToTable(s, e.offBoard!.entry), offBoard: false });
  }
  say(
    log,
    'Off Board Force Arrival',
    `${e.name} enters at (${inches(e.offBoard!.entry.x)}, ${inches(e.offBoard!.entry.y)}) in column along its facing: a strategic move from the table edge (S4, C7)`,
  );
  return t;
}

// ---------------------------------------------------------------------------------------------------------------------
// Geometry of a group move
// ---------------------------------------------------------------------------------------------------------------------

/** A unit as placed at another position and facing (formation as it is). */
function placedAs(u: UnitState, pos: Vec, facing: number): Placed {
  return { ...u, pos, facing } as Placed;
}

function clampToTable(s: S, p: Vec): Vec {
  return { x: Math.min(s.ctx.width, Math.max(0, p.x)), y: Math.min(s.ctx.height, Math.max(0, p.y)) };
}

/** [Terrain] C6: shape.ts's terrain rows priced by the sheet's table (extra inches a 1"). */
function extraCost(row: TerrainRow, arm: UnitState['kind']): number {
  return terrainExtraCost(terrainOfRow(row), arm);
}
const terrainOfRow = (row: TerrainRow): Terrain => (row === 'muddy' ? 'mud' : row);

/** The way a group move goes: a straight heading, or along a road in one direction. */
type Route =
  | { readonly kind: 'line'; readonly label: string; readonly deg: number }
  | { readonly kind: 'road'; readonly label: string; readonly road: string; readonly dir: 1 | -1 };

/** A road's line with its cumulative lengths. */
interface RoadLine {
  readonly id: string;
  readonly points: readonly Vec[];
  readonly at: readonly number[];
}

function roadLines(s: S): RoadLine[] {
  return s.ctx.terrain.lines
    .filter((l) => l.kind === 'road')
    .map((l) => {
      const at = [0];
      for (let i = 1; i < l.points.length; i++) at.push(at[i - 1]! + dist(l.points[i - 1]!, l.points[i]!));
      return { id: l.id, points: l.points, at };
    });
}

/** The arc length of the road's point nearest `p`, and the distance to it. */
function project(r: RoadLine, p: Vec): { s: number; d: number } {
  let best = { s: 0, d: Number.POSITIVE_INFINITY };
  for (let i = 1; i < r.points.length; i++) {
    const a = r.points[i - 1]!;
    const c = closestPointOnSegment(p, a, r.points[i]!);
    const d = dist(c, p);
    if (d < best.d) best = { s: r.at[i - 1]! + dist(a, c), d };
  }
  return best;
}

/** The point at arc length `t` and the heading of the road there, going `dir`. */
function roadAt(r: RoadLine, t: number, dir: 1 | -1): { pos: Vec; facing: number } {
  const n = r.points.length;
  let i = 1;
  while (i < n - 1 && r.at[i]! < t) i++;
  const a = r.points[i - 1]!;
  const b = r.points[i]!;
  const len = r.at[i]! - r.at[i - 1]!;
  const k = len > 0 ? (t - r.at[i - 1]!) / len : 0;
  const pos = { x: Math.round(a.x + (b.x - a.x) * k), y: Math.round(a.y + (b.y - a.y) * k) };
  return { pos, facing: dir === 1 ? headingTo(a, b) : headingTo(b, a) };
}

/** One unit in a group move. */
interface Mover {
  readonly unit: UnitState;
  /** The unit as it moves: its new formation (`column`), garrison left. */
  readonly tpl: UnitState;
  readonly size: FootprintSize;
  /** Inches: formation change (and about face on a road). */
  readonly changeCost: number;
  /** Inches of allowance before the bonuses (null: it cannot move, e.g. a garrison). */
  readonly rate: number | null;
  readonly mounted: boolean;
  /** Where it is after `d` (1/100") of the move; null past the road's end. */
  at(d: number): { pos: Vec; facing: number } | null;
  /** The allowance (1/100") the move to `d` uses. */
  cost(d: number): number;
}

/** What the ME's order lets it do in S4 (the digest's §6.1 table, C2, C7). */
interface Limits {
  /** Closest its units may end to an enemy unit, 1/100". */
  readonly minGap: number;
  /** The point it must not move away from (Attack, Advance, Withdraw, Hold), or null. */
  readonly toward: Vec | null;
  readonly withdraw: boolean;
}

function limitsOf(s: S, order: Order | null): Limits {
  if (!order) return { minGap: 10 * IN, toward: null, withdraw: false };
  const min = order.type === 'attack' ? s.ctx.options.attackStandOff : orderType(order.type).strategicMinToEnemy;
  return {
    minGap: min * IN,
    toward: order.type === 'reserve' ? null : order.point,
    withdraw: order.type === 'withdraw',
  };
}

/** `column` (reading 2): the formation a unit marches in. */
function columnOf(u: UnitState): UnitState['formation'] {
  return u.kind === 'infantry' ? 'marchColumn' : u.kind === 'cavalry' ? 'column' : 'limbered';
}
const inColumn = (u: UnitState) =>
  u.formation === 'marchColumn' || (u.kind === 'cavalry' && u.formation === 'column') || u.formation === 'limbered';

/** [Movement Notes] the cost of a formation change (C6: limber/unlimber `limberCost`). */
function changeCostOf(s: S, u: UnitState): number {
  if (u.kind === 'artillery') return s.ctx.options.limberCost;
  return MOVEMENT_NOTES.formationChangeCost[u.kind];
}

/** [Movement] the strategic rate of a unit in the formation it moves in (null: it cannot move). */
function rateOf(tpl: UnitState, retiring: boolean): number | null {
  let m: MoveInput | null;
  if (tpl.kind === 'infantry')
    m = tpl.formation === 'garrison' ? null : { arm: 'infantry', formation: tpl.formation, retiring };
  else if (tpl.kind === 'cavalry')
    m = { arm: 'cavalry', weight: tpl.weight, formation: tpl.formation, blown: tpl.blown, retiring };
  else
    m = {
      arm: 'artillery',
      gun: tpl.gunType,
      horse: tpl.mobility === 'horse',
      prolong: tpl.formation === 'unlimbered',
    };
  return m ? moveRate(m, 'strategic') : null;
}

const mountedOf = (u: UnitState) => u.kind === 'cavalry' || (u.kind === 'artillery' && u.mobility === 'horse');

/** The units of a group move along `route`, with `column` or not (null: the route is not open to this ME). */
function moversOf(s: S, units: readonly UnitState[], route: Route, column: boolean): Mover[] | null {
  const road = route.kind === 'road' ? roadLines(s).find((r) => r.id === route.road) : undefined;
  const out: Mover[] = [];
  for (const u of units) {
    const changes = column && !inColumn(u);
    const tpl = (
      changes ? { ...u, formation: columnOf(u), ...(u.kind === 'infantry' ? { garrison: null } : {}) } : u
    ) as UnitState;
    const size = sizeOf(placed(s, tpl));
    const from = placedAs(tpl, u.pos, u.facing);
    let change = changes ? changeCostOf(s, u) : 0;
    if (route.kind === 'line') {
      const v = headingVec(route.deg);
      const f = headingVec(u.facing);
      const retiring = v.x * f.x + v.y * f.y < -1e-9;
      const at = (d: number) => ({
        pos: { x: Math.round(u.pos.x + v.x * d), y: Math.round(u.pos.y + v.y * d) },
        facing: u.facing,
      });
      out.push({
        unit: u,
        tpl,
        size,
        changeCost: change,
        rate: rateOf(tpl, retiring),
        mounted: mountedOf(u),
        at,
        cost: (d) => {
          if (d <= 0) return 0;
          const c = moveCost(s.ctx, from, placedAs(tpl, at(d).pos, u.facing), extraCost);
          return c.impassable ? Number.POSITIVE_INFINITY : c.cost;
        },
      });
      continue;
    }
    if (!road || !inColumn(tpl)) return null;
    const p = project(road, u.pos);
    if (p.d > IN / 2) return null;
    const dir = route.dir;
    const s0 = p.s;
    const total = road.at[road.at.length - 1]!;
    const first = roadAt(road, Math.min(total, Math.max(0, s0 + dir * 1)), dir);
    const turn = Math.abs(((first.facing - u.facing + 540) % 360) - 180);
    if (turn > 90 && !changes) change += changeCostOf(s, u); // about face (reading 3)
    const at = (d: number) => {
      if (d <= 0) return { pos: u.pos, facing: u.facing };
      const t = s0 + dir * d;
      if (t < 0 || t > total) return null;
      return roadAt(road, t, dir);
    };
    out.push({
      unit: u,
      tpl,
      size,
      changeCost: change,
      rate: rateOf(tpl, false),
      mounted: mountedOf(u),
      at,
      cost: (d) => {
        if (d <= 0) return 0;
        // the road's end limits the way (LIMITS), not the allowance: beyond it, count the distance alone
        const want = s0 + dir * d;
        const end = Math.min(total, Math.max(0, want));
        const beyond = Math.abs(want - end);
        if (end === s0) return beyond;
        // the road's vertices passed on the way (in the order met), then the end
        const ways: { pos: Vec; facing: number }[] = [];
        const idx: number[] = [];
        for (let i = 1; i < road.points.length - 1; i++) {
          const vi = road.at[i]!;
          if (dir * (vi - s0) > 0 && dir * (end - vi) > 0) idx.push(i);
        }
        idx.sort((i, j) => dir * (road.at[i]! - road.at[j]!));
        for (const i of idx) ways.push({ pos: road.points[i]!, facing: roadAt(road, road.at[i]! - dir, dir).facing });
        ways.push(roadAt(road, end, dir));
        let c = 0;
        let prev = placedAs(tpl, u.pos, u.facing);
        for (const w of ways) {
          const next = placedAs(tpl, w.pos, w.facing);
          const mc = moveCost(s.ctx, prev, next, extraCost);
          if (mc.impassable) return Number.POSITIVE_INFINITY;
          c += mc.cost;
          prev = next;
        }
        return c + beyond;
      },
    });
  }
  return out;
}

/** A unit's footprint at `at`. */
function polyAt(m: Mover, at: { pos: Vec; facing: number }): Polygon {
  return rectCorners(footprintRect(at.pos, at.facing, m.size));
}

/** What a route and a formation choice allow: the path's limit and each allowance, in ¼" steps. */
export interface Reach {
  /** The last step the way is legal to (−1: not even where it stands, after its formation change). */
  readonly path: number;
  /** The steps the slowest unit's allowance reaches, by [road][force]. */
  readonly allow: (road: boolean, force: boolean) => number;
  readonly movers: readonly Mover[];
}

/** [S4] how far a group move along `route` may go (LIMITS, reading 4) and how far each allowance reaches. */
function reachOf(s: S, e: ElementState, route: Route, column: boolean): Reach | null {
  const units = elementUnits(s, e);
  if (!units.length) return null;
  const movers = moversOf(s, units, route, column);
  if (!movers || movers.some((m) => m.rate === null)) return null;
  const lim = limitsOf(s, orderOfElement(s, e));
  const mine = new Set(units.map((u) => u.id));
  const others = s.units.filter((u) => u.status === 'active' && !mine.has(u.id)).map((u) => polyOf(placed(s, u)));
  const enemies = unitsOf(s, other(e.side)).map((u) => polyOf(placed(s, u)));
  const bonus = (m: Mover, road: boolean, force: boolean) =>
    (road ? (moveBonus('roadBonus', m.mounted, 'strategic') ?? 0) : 0) +
    (force ? (moveBonus('doubleQuick', m.mounted, 'strategic') ?? 0) : 0);
  const allowIn = (m: Mover, road: boolean, force: boolean) => (m.rate! + bonus(m, road, force) - m.changeCost) * IN;
  let kMax = Math.max(0, Math.ceil(Math.max(...movers.map((m) => allowIn(m, route.kind === 'road', true))) / Q));
  // a straight move bound to a point goes no farther than its closest approach (checked again step by step below)
  if (lim.toward && route.kind === 'line') {
    const v = headingVec(route.deg);
    const c = centre(units.map((u) => u.pos));
    const proj = v.x * (lim.toward.x - c.x) + v.y * (lim.toward.y - c.y);
    kMax = Math.min(kMax, Math.max(0, Math.floor(proj / Q) + 1));
  }

  const nearest = (p: Polygon) => {
    let best = Number.POSITIVE_INFINITY;
    for (const q of enemies) best = Math.min(best, polygonDistanceCapped(p, q, best));
    return best;
  };
  const start = movers.map((m) => polyAt(m, { pos: m.unit.pos, facing: m.unit.facing }));
  const startNearest = lim.withdraw ? start.map(nearest) : [];
  const centreAt = (k: number): Vec | null => {
    let x = 0;
    let y = 0;
    for (const m of movers) {
      const a = m.at(k * Q);
      if (!a) return null;
      x += a.pos.x;
      y += a.pos.y;
    }
    return { x: x / movers.length, y: y / movers.length };
  };

  const ok = (k: number): boolean => {
    const polys: Polygon[] = [];
    for (const m of movers) {
      const a = m.at(k * Q);
      if (!a) return false;
      const p = polyAt(m, a);
      if (!polygonOnTable(p, s.ctx.width, s.ctx.height)) return false;
      for (const o of others) if (polygonsOverlap(p, o)) return false;
      for (const q of enemies)
        if (boxGap(p, q) < lim.minGap && polygonDistanceCapped(p, q, lim.minGap) < lim.minGap) return false;
      polys.push(p);
    }
    // a road move bends the ME's shape: its own units must not run into each other
    if (route.kind === 'road' || k === 0)
      for (let i = 0; i < polys.length; i++)
        for (let j = i + 1; j < polys.length; j++) if (polygonsOverlap(polys[i]!, polys[j]!)) return false;
    if (lim.withdraw && k > 0)
      for (let i = 0; i < polys.length; i++) if (nearest(polys[i]!) < startNearest[i]!) return false;
    if (lim.toward && k > 0) {
      const c1 = centreAt(k);
      const c0 = centreAt(k - 1);
      if (!c1 || !c0 || dist(c1, lim.toward) > dist(c0, lim.toward) + 1e-6) return false;
    }
    return true;
  };

  let path: number;
  if (!ok(0)) path = -1;
  else {
    path = kMax;
    let last = 0;
    while (last < kMax) {
      const k = Math.min(last + COARSE, kMax);
      if (ok(k)) {
        last = k;
        continue;
      }
      let j = last + 1;
      while (j < k && ok(j)) j++;
      path = j - 1;
      break;
    }
  }
  // a Withdraw move must leave every unit farther from its nearest enemy than it began
  const withdrawOk = (k: number) =>
    !lim.withdraw ||
    enemies.length === 0 ||
    movers.every((m, i) => nearest(polyAt(m, m.at(k * Q)!)) > startNearest[i]!);

  const cache = new Map<string, number>();
  const allow = (road: boolean, force: boolean): number => {
    const key = `${road}${force}`;
    const c = cache.get(key);
    if (c !== undefined) return c;
    // the largest step every unit can pay for (costs grow with the distance)
    const fits = (k: number) => movers.every((m) => m.cost(k * Q) <= allowIn(m, road, force) + 1e-6);
    let lo = 0;
    let hi = Math.max(0, Math.floor(Math.min(...movers.map((m) => allowIn(m, road, force))) / Q));
    if (hi <= 0 || movers.some((m) => allowIn(m, road, force) < 0)) hi = 0;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(mid)) lo = mid;
      else hi = mid - 1;
    }
    cache.set(key, lo);
    return lo;
  };
  return { path: path < 0 ? path : withdrawCut(path, withdrawOk), allow, movers };
}

/** Withdraw (reading 4): the longest legal step at which every unit is strictly farther than it began. */
function withdrawCut(path: number, ok: (k: number) => boolean): number {
  for (let k = path; k > 0; k--) if (ok(k)) return k;
  return 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// The menu
// ---------------------------------------------------------------------------------------------------------------------

/** A strategic move as its key says. */
interface StrategicChoice {
  readonly route: Route;
  readonly half: boolean;
  readonly column: boolean;
  readonly force: boolean;
}

function keyOf(e: string, c: StrategicChoice): Action {
  const way = c.route.kind === 'road' ? `road ${c.route.label}` : c.route.label;
  return `strategic ${e} ${way} ${c.half ? 'half' : 'full'}${c.column ? ' column' : ''}${c.force ? ' force' : ''}`;
}

/** [S4] the ME may move strategically: not broken, on the table, every unit more than 10" from every enemy unit. */
export function mayMoveStrategically(s: S, e: ElementState): boolean {
  if (e.broken || e.offBoard) return false;
  const units = elementUnits(s, e);
  if (!units.length) return false;
  const enemies = unitsOf(s, other(e.side)).map((u) => placed(s, u));
  return !units.some((u) => isTactical(placed(s, u), enemies));
}

/** The routes open to an ME: toward its order's point, the 8 compass points, and each way along a road it stands on. */
function routesOf(s: S, e: ElementState): Route[] {
  const units = elementUnits(s, e);
  const out: Route[] = [];
  const order = orderOfElement(s, e);
  const c = centre(units.map((u) => u.pos));
  const bound = order && order.type !== 'reserve';
  const bearing = order ? headingTo(c, order.point) : 0;
  if (order && dist(c, order.point) >= Q) out.push({ kind: 'line', label: 'toward', deg: bearing });
  // reading 1: bound to its point, a compass point is "toward" it within 45° of its bearing
  for (const [label, deg] of COMPASS)
    if (!bound || Math.abs(((deg - bearing + 540) % 360) - 180) <= 45) out.push({ kind: 'line', label, deg });
  for (const r of roadLines(s)) {
    if (!units.every((u) => project(r, u.pos).d <= IN / 2)) continue;
    const lead = project(r, units[0]!.pos).s;
    const total = r.at[r.at.length - 1]!;
    for (const dir of [1, -1] as const) {
      const t = Math.min(total, Math.max(0, lead + dir * 1));
      if ((dir === 1 && lead >= total) || (dir === -1 && lead <= 0)) continue;
      out.push({ kind: 'road', label: compassOf(roadAt(r, t, dir).facing), road: r.id, dir });
    }
  }
  return out;
}

function centre(ps: readonly Vec[]): Vec {
  let x = 0;
  let y = 0;
  for (const p of ps) {
    x += p.x;
    y += p.y;
  }
  return { x: x / ps.length, y: y / ps.length };
}

/** One offered move: its key, its choice, and how far it goes (¼" steps). */
export interface Offer {
  readonly key: Action;
  readonly choice: StrategicChoice;
  readonly steps: number;
}

const menuCache = new WeakMap<S, Map<string, Offer[]>>();

/** [S4] every move the ME may make (without `none`), deduplicated by where it ends (see the header). */
export function strategicOffers(s: S, id: string): Offer[] {
  let byState = menuCache.get(s);
  const hit = byState?.get(id);
  if (hit) return hit;
  const e = elementOf(s, id);
  const out: Offer[] = [];
  if (mayMoveStrategically(s, e)) {
    const all: (Offer & { sig: string })[] = [];
    for (const route of routesOf(s, e))
      for (const column of [false, true]) {
        const r = reachOf(s, e, route, column);
        if (!r || r.path <= 0) continue;
        const road = route.kind === 'road';
        for (const force of [false, true])
          for (const half of [true, false]) {
            const a = r.allow(road, force);
            const steps = Math.min(r.path, half ? Math.floor(a / 2) : a);
            if (steps <= 0) continue;
            const choice = { route, half, column, force };
            all.push({ key: keyOf(e.id, choice), choice, steps, sig: signature(r, steps) });
          }
      }
    // of moves that end alike keep one, without a force march when one is (its test is a risk), else the first
    const keep = new Map<string, (typeof all)[number]>();
    for (const o of all) {
      const k = keep.get(o.sig);
      if (!k || (k.choice.force && !o.choice.force)) keep.set(o.sig, o);
    }
    const keys = new Set<string>();
    for (const o of all)
      if (keep.get(o.sig) === o && !keys.has(o.key)) {
        keys.add(o.key);
        out.push({ key: o.key, choice: o.choice, steps: o.steps });
      }
  }
  if (!byState) {
    byState = new Map();
    menuCache.set(s, byState);
  }
  byState.set(id, out);
  return out;
}

/** Where a move ends: each unit's position, facing and formation. */
function signature(r: Reach, steps: number): string {
  return r.movers
    .map((m) => {
      const a = m.at(steps * Q)!;
      return `${a.pos.x},${a.pos.y},${a.facing},${m.tpl.formation}`;
    })
    .join(';');
}

/** The move a key names (null for `none`), worked out alone: the menu is not rebuilt. */
export function offerOfKey(s: S, key: Action): { element: string; offer: (Offer & { reach: Reach }) | null } {
  const m = /^strategic (\S+) (?:(road) )?(\S+)(?: (half|full)( column)?( force)?)?$/.exec(key);
  if (!m) throw new Error(`not a strategic move: "${key}"`);
  const id = m[1]!;
  if (!m[2] && m[3] === 'none' && !m[4]) return { element: id, offer: null };
  const e = elementOf(s, id);
  const route = routesOf(s, e).find((r) => (r.kind === 'road') === !!m[2] && r.label === m[3]);
  const choice = route ? { route, half: m[4] === 'half', column: !!m[5], force: !!m[6] } : null;
  const reach = choice ? reachOf(s, e, choice.route, choice.column) : null;
  const a = choice && reach ? reach.allow(choice.route.kind === 'road', choice.force) : 0;
  const steps = choice && reach ? Math.min(reach.path, choice.half ? Math.floor(a / 2) : a) : 0;
  if (!choice || !reach || steps <= 0) throw new Error(`not a strategic move ${id} can make: "${key}"`);
  return { element: id, offer: { key, choice, steps, reach } };
}

// ---------------------------------------------------------------------------------------------------------------------
// Making the move
// ---------------------------------------------------------------------------------------------------------------------

/** [Movement] terrain that disorders a unit automatically when it moves through it (reading 8). */
function terrainDisorders(u: UnitState, rows: readonly TerrainRow[]): TerrainRow | null {
  const who =
    u.kind === 'cavalry'
      ? 'cavalry'
      : u.kind === 'artillery'
        ? 'artillery'
        : u.formation === 'skirmish'
          ? 'skirmishers'
          : 'formedInfantry';
  for (const row of rows) {
    const d = terrainRow(terrainOfRow(row)).disorder[who];
    if (d === 'auto' || d === 'whileMoving') return row;
  }
  return null;
}

/** [S4] the ME makes its move `o`: units, formations, leaders, the C7 flag; a force march pushes its test. */
function makeMove(s: S, id: string, o: Offer, log: Log, reach?: Reach): S {
  const e = elementOf(s, id);
  const r = reach ?? reachOf(s, e, o.choice.route, o.choice.column)!;
  const d = o.steps * Q;
  let t = s;
  const moved: { id: string; from: Vec; to: Vec }[] = [];
  const changed: string[] = [];
  const disordered: string[] = [];
  for (const m of r.movers) {
    const a = m.at(d)!;
    const patch: Partial<UnitState> = { pos: a.pos, facing: a.facing };
    if (m.tpl.formation !== m.unit.formation) {
      Object.assign(patch, { formation: m.tpl.formation }, m.unit.kind === 'infantry' ? { garrison: null } : {});
      changed.push(m.unit.name);
    }
    const rows = moveCost(
      s.ctx,
      placedAs(m.tpl, m.unit.pos, m.unit.facing),
      placedAs(m.tpl, a.pos, a.facing),
      extraCost,
    ).areas;
    const dis = terrainDisorders(m.tpl, rows);
    if (dis && !m.unit.disordered) {
      Object.assign(patch, { disordered: true });
      disordered.push(`${m.unit.name} (${dis})`);
    }
    t = updUnit(t, m.unit.id, patch);
    moved.push({ id: m.unit.id, from: m.unit.pos, to: a.pos });
  }
  // leaders (reading 7)
  const shift = {
    x: centre(moved.map((x) => x.to)).x - centre(moved.map((x) => x.from)).x,
    y: centre(moved.map((x) => x.to)).y - centre(moved.map((x) => x.from)).y,
  };
  for (const l of t.leaders) {
    const host = l.attachedTo ? moved.find((x) => x.id === l.attachedTo) : undefined;
    if (host) t = updLeader(t, l.id, { pos: host.to });
    else if (l.id === e.leader && !l.attachedTo && (l.status === 'active' || l.status === 'knockedOut')) {
      const len = Math.hypot(shift.x, shift.y);
      const k = len > LEADER_REACH ? LEADER_REACH / len : 1;
      const pos = clampToTable(t, { x: Math.round(l.pos.x + shift.x * k), y: Math.round(l.pos.y + shift.y * k) });
      t = updLeader(t, l.id, { pos });
    }
  }
  t = updElement(t, id, { strategicMoveThisTurn: true });
  const c = o.choice;
  const way =
    c.route.kind === 'road'
      ? `along the road (${c.route.label}, +${r.movers.some((m) => m.mounted) ? '20"/12"' : '12"'} road bonus)`
      : c.route.label === 'toward'
        ? `toward its order's point`
        : `${c.route.label}`;
  say(
    log,
    'S4',
    `${e.name} moves ${inches(d)} ${way}${c.half ? ' (half move)' : ''}${changed.length ? `; ${changed.join(', ')} ${changed.length === 1 ? 'takes' : 'take'} march column / limber (Movement Notes, C6)` : ''}${c.force ? '; force march (Double Quick)' : ''}: its units may only Fire or Hold this tactical phase (C7)`,
  );
  if (disordered.length) say(log, 'Terrain', `disordered by the terrain on the way: ${disordered.join(', ')}`);
  return c.force ? push(t, { t: 'forceMarch', element: id }) : t;
}

/** [Skill Tests] the force-march test's number: the ME's majority class, its leader's inspiration (reading 9). */
export function forceMarchNumber(s: S, id: string): number {
  const e = elementOf(s, id);
  const l = activeLeader(s, e);
  return skillNumber({ cls: majorityClass(s, e), leader: l ? l.inspiration : null }) ?? 13;
}

// ---------------------------------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------------------------------

const sideHandler = {
  kind: 'auto' as const,
  run: (s: S, f: H<'strategicSide'>, log: Log) => sideTurn(s, f.side, log),
};

const strategicHandler: DecisionHandler<S, H<'strategic'>, Action> = {
  kind: 'decision',
  owner: (f, s) => elementOf(s, f.element).side,
  // nothing is offered to an ME that may not move, or has no move that moves
  skip: (s, f) => strategicOffers(s, f.element).length === 0,
  legal: (s, f) => [`strategic ${f.element} none`, ...strategicOffers(s, f.element).map((o) => o.key)],
  step(s, f, a, log) {
    const { offer } = offerOfKey(s, a);
    if (!offer) {
      say(log, 'S4', `${elementOf(s, f.element).name} makes no strategic move`);
      return s;
    }
    return makeMove(s, f.element, offer, log, offer.reach);
  },
  describe: (s, f) => {
    const e = elementOf(s, f.element);
    const o = orderOfElement(s, e);
    return `${sideName(s, e.side)}: ${e.name} (${e.id}) may move strategically${o ? ` on ${o.type} orders` : ''} [S4, C7]`;
  },
};

const forceMarchHandler: ChanceHandler<S, H<'forceMarch'>, Action> = {
  kind: 'chance',
  outcomes: (s, f) => {
    const n = forceMarchNumber(s, f.element);
    return skillTestDist(n).map((d) => ({
      action: `forceMarch ${f.element} ${d.value ? 'pass' : 'fail'}`,
      p: d.p,
      label: d.value ? `pass (2D6 ≥ ${n})` : `fail (2D6 < ${n}): 1 KIA a unit`,
    }));
  },
  step(s, f, a, log) {
    const e = elementOf(s, f.element);
    const n = forceMarchNumber(s, f.element);
    if (a.endsWith('pass')) {
      say(log, 'S4', `${e.name} passes its force-march skill test (2D6 ≥ ${n})`);
      return s;
    }
    say(log, 'S4', `${e.name} fails its force-march skill test (2D6 < ${n}): 1 KIA for every unit (Skill Tests)`);
    let t = s;
    for (const u of elementUnits(s, e)) t = applyKias(t, u.id, 1, 'forceMarch', 'S4', log);
    return t;
  },
  describe: (s, f) =>
    `${elementOf(s, f.element).name}'s force-march skill test: 2D6 ≥ ${forceMarchNumber(s, f.element)} (majority class, leader) [S4, Skill Tests]`,
};

export const strategicHandlers = {
  strategicSide: sideHandler,
  strategic: strategicHandler,
  forceMarch: forceMarchHandler,
};
