/**
 * Scripted preferences for Napoleon's Eagles (`Game.policyScores`): the tactics the book implies, as a score per legal
 * action at the top frame (higher = better for the side to move), one finite number each.
 *
 * - The bid [p.4 step 2]: the turn's points spread evenly over the periods left (20 points over 6 periods: 3 or 4 a
 *   period), one more when the side has a target in musket or canister range and the other side might outbid it; the
 *   winner of the bid takes side A (more units activate, first) [p.5].
 * - Grand batteries [p.10] (A-56): no leader is ever appointed (the division would lose its leader's bonuses for a
 *   staff officer's none); a battery offered a grand battery at step 1 joins; a staff officer rides to his units.
 * - Activations [p.4 steps 3-5]: units that can fire or charge now first, then the units nearest the enemy; side A
 *   declares "finished" only when nothing it has left can fire, charge or close (A-23).
 * - A unit's actions [p.6-15]: fire with the best expected casualties (two actions at one target when the whole
 *   budget is left: one resolution, figures doubled [p.8]); charge where the exact odds of the close action are good
 *   (the defender's step 2 check, then the melee or the ride-down); otherwise close to fire: infantry to 3" of the nearest enemy in its front, deploying into line within 12";
 *   a limbered battery to about 12" and unlimbers; cavalry to just outside the enemy's musket range, in reach of a
 *   charge; a unit with no enemy near marches on the nearest objective its side does not hold (A-79). Disordered units
 *   reform; fatigued units rest when no enemy is near; infantry forms square when enemy cavalry is in charge reach and
 *   no enemy infantry is close.
 * - Reactions: defence fire when a charged unit kept an action [p.13]; cavalry counter-charges [p.15]; a unit in
 *   retreat falls back the farthest it may (A-67; an unlimbered battery limbers to take its guns along, and abandons
 *   them last, A-57); a leader with no unit joins the friend nearest the enemy [p.16].
 *
 * The moves are scored on the position they leave (`internals.after`), not on their text.
 */
import type { Polygon } from '../../geometry/geometry.ts';
import { polygonDistance } from '../../geometry/geometry.ts';
import { IN } from './board.ts';
import { resolveFire } from './fire.ts';
import { footprint, inFrontArc, type TableUnit, unitDistance } from './shape.ts';
import { CAVALRY_CHARGE } from './tables.ts';
import { type Action, internals, runtime, type SeqState, type SeqUnit, unitOf } from './turn.ts';
import type { Side } from './types.ts';

const { specOf, tableUnit, after, BUDGET } = internals;

/** The units still on the table. */
const activeOf = (s: SeqState, side: Side) => s.units.filter((u) => u.side === side && u.status === 'active');

interface View {
  readonly me: TableUnit;
  readonly enemies: readonly { readonly u: SeqUnit; readonly b: TableUnit }[];
}

/** Table bodies per state (scores are asked once per decision, and the rollouts ask many). */
const bodies = new WeakMap<SeqState, Map<string, TableUnit>>();
function body(s: SeqState, u: SeqUnit): TableUnit {
  let m = bodies.get(s);
  if (!m) bodies.set(s, (m = new Map()));
  let b = m.get(u.id);
  if (!b) m.set(u.id, (b = tableUnit(s, u)));
  return b;
}

function viewOf(s: SeqState, id: string): View {
  const u = unitOf(s, id);
  return {
    me: body(s, u),
    enemies: activeOf(s, (1 - u.side) as Side).map((e) => ({ u: e, b: body(s, e) })),
  };
}

/** The distance from a unit to its nearest enemy (edge to edge), and that enemy. */
function nearest(v: View, me: TableUnit = v.me): { d: number; e: (typeof v.enemies)[number] | null } {
  let best = Number.POSITIVE_INFINITY;
  let e: (typeof v.enemies)[number] | null = null;
  for (const x of v.enemies) {
    const d = unitDistance(me, x.b);
    if (d < best) {
      best = d;
      e = x;
    }
  }
  return { d: best, e };
}

/** the scenario's objectives as areas (blocks and terrain by their polygons), with the distance that holds them. */
interface Objective {
  readonly id: string;
  readonly area: Polygon;
  readonly within: number;
  readonly vp: number;
}
const objectiveCache = new WeakMap<object, Objective[]>();
/** The scenario's objectives with turn.ts's own areas, kept per scenario. */
function objectives(s: SeqState): Objective[] {
  let out = objectiveCache.get(s.sc);
  if (!out) {
    out = s.sc.victory.objectives.map((o) => ({
      id: o.id,
      area: internals.objectiveArea(s, o),
      within: o.within * IN,
      vp: o.vp,
    }));
    objectiveCache.set(s.sc, out);
  }
  return out;
}

/** How far a body is from holding an objective (0: it would hold it, A-79). */
const fromObjective = (b: TableUnit, o: Objective) => Math.max(0, polygonDistance(footprint(b), o.area) - o.within);

/** The objective a unit of `side` should go for: the nearest its side does not hold, or null. */
function goal(s: SeqState, side: Side, b: TableUnit): Objective | null {
  let best: Objective | null = null;
  let bd = Number.POSITIVE_INFINITY;
  for (const o of objectives(s)) {
    if ((s.held[o.id] ?? -1) === side) continue;
    const d = fromObjective(b, o) - o.vp * IN;
    if (d < bd) {
      bd = d;
      best = o;
    }
  }
  return best;
}

/** Expected figures lost by the enemy to a fire action (the fire frame it leaves on the stack), own losses subtracted. */
function fireValue(t: SeqState, side: Side): number {
  const f = t.stack[t.stack.length - 1];
  if (f?.t !== 'fire') return 0;
  let v = 0;
  for (const o of resolveFire(f.shot, t.sc.options).outcomes)
    for (const e of o.value.targets) {
      // [p.11] a caisson fired on is a piece, not a unit; [p.10] A-51 so is a crew (`crew B`): its figures, no morale
      const crew = e.id.startsWith('crew ') ? t.artCrews?.find((c) => `crew ${c.id}` === e.id) : undefined;
      const own = (crew ?? t.units.find((u) => u.id === e.id) ?? t.caissons?.find((c) => c.id === e.id))?.side === side;
      const worth = e.casualties + (e.moraleMark ? 1.5 : 0) + (e.eliminated ? (crew ? 3 : 8) : 0);
      v += o.p * (own ? -worth : worth);
    }
  return v;
}

/** How good a charge of `me` on `target` looks (A-79 values a unit 2 points; the close actions of p.13-15). */
function chargeValue(s: SeqState, me: SeqUnit, target: SeqUnit): number {
  const ms = specOf(s, me.id);
  const ts = specOf(s, target.id);
  const shaken = target.disordered || target.retreating || target.fatigue >= 2 || target.marked > 0;
  const flank = !inFrontArc(body(s, target), body(s, me));
  const ratio = me.figures / Math.max(1, target.figures);
  if (ts.kind === 'artillery') return 14;
  if (ms.kind === 'cavalry') {
    if (target.formation === 'square') return -20;
    if (ts.kind === 'cavalry') return ratio >= 1 ? 8 : 2;
    return flank || shaken ? 12 : target.formation === 'skirmish' ? 6 : -2;
  }
  // infantry
  if (ts.kind === 'cavalry') return -4;
  return (shaken ? 6 : 0) + (flank ? 5 : 0) + (ratio >= 1.3 ? 4 : ratio >= 1 ? 1 : -4);
}

/** The distance at which a unit of this kind wants to stand from the nearest enemy. */
function wantedDistance(s: SeqState, u: SeqUnit): number {
  const spec = specOf(s, u.id);
  if (spec.kind === 'cavalry') return 9 * IN; // outside musket range, inside its charge reach (12-14")
  if (spec.kind === 'artillery') return 10 * IN; // solid shot at close bands, out of musket range
  return 2.5 * IN; // infantry: the short musket bands
}

/**
 * The score of where a move leaves the unit: nearer an objective its side does not hold (A-79), and, with an enemy
 * within 16", nearer the distance it wants to stand at from it, facing it.
 */
function placeScore(s: SeqState, t: SeqState, id: string): number {
  const u0 = unitOf(s, id);
  const u1 = unitOf(t, id);
  const v0 = viewOf(s, id);
  const b1 = body(t, u1);
  const n0 = nearest(v0);
  const n1 = nearest(v0, b1);
  const want = wantedDistance(s, u0);
  let score = 0;
  const g = specOf(s, id).kind === 'artillery' ? null : goal(s, u0.side, v0.me);
  if (g) score += (fromObjective(v0.me, g) - fromObjective(b1, g)) / IN;
  // holding what the side holds: no stepping off it
  for (const o of objectives(s))
    if ((s.held[o.id] ?? -1) === u0.side && fromObjective(v0.me, o) === 0 && fromObjective(b1, o) > 0) score -= 4;
  // [p.19] infantry closes to within 1" of an objective block it does not hold, to enter it (A-72)
  if (specOf(s, id).kind === 'infantry')
    for (const o of blocksToTake(s, u0.side)) {
      const d0 = polygonDistance(footprint(v0.me), o.area);
      if (d0 <= 12 * IN) score += (1.5 * (d0 - polygonDistance(footprint(b1), o.area))) / IN;
    }
  if (n0.e && n0.d < 16 * IN) {
    // approach the wanted distance: every inch nearer it is worth 1, an overshoot inside it costs
    score += (Math.abs(n0.d - want) - Math.abs(n1.d - want)) / IN;
    if (n1.d < want) score -= (want - n1.d) / IN;
    if (n1.e && inFrontArc(b1, n1.e.b)) score += 1;
    else if (n1.e) score -= 1.5;
  } else if (!g && n0.e) score += (n0.d - n1.d) / IN;
  return score;
}

/** [p.19] a side's figures in a building block. */
function figuresInBlock(s: SeqState, block: string, side: Side): number {
  return s.units.reduce((n, u) => n + (u.side === side && u.status === 'active' ? (u.inBlocks[block] ?? 0) : 0), 0);
}

/** A-79 [p.19] the objective blocks a side does not hold and may enter (no enemy figures in them). */
function blocksToTake(s: SeqState, side: Side): Objective[] {
  return objectives(s).filter((o) => {
    const block = s.sc.victory.objectives.find((x) => x.id === o.id)?.block;
    return block !== undefined && (s.held[o.id] ?? -1) !== side && !figuresInBlock(s, block, (1 - side) as Side);
  });
}

/**
 * [p.19] the buildings: infantry near an objective block its side does not hold enters it; a unit in blocks stays
 * (no block move or leaving, unless it rejoins); a block is charged or attacked only with a figure advantage (2:1
 * gives the attacker +1, against the defender's +1 in buildings).
 */
function townScore(s: SeqState, u: SeqUnit, a: Action, enemyNear: boolean): number | undefined {
  if (a.startsWith('enter ')) {
    const take = blocksToTake(s, u.side).map((o) => s.sc.victory.objectives.find((x) => x.id === o.id)!.block);
    const objs = a
      .split(' ')
      .slice(2)
      .filter((x) => take.includes(x.split(':')[0]!)).length;
    return objs ? 28 + 2 * objs : enemyNear ? 2 : -2;
  }
  if (a.startsWith('blockMove ')) return a.startsWith('blockMove outside') ? 8 : -1;
  if (a.startsWith('leave ')) return -6;
  if (a.startsWith('charge block ')) {
    const ratio = Math.min(6, u.figures) / Math.max(1, figuresInBlock(s, a.split(' ')[2]!, (1 - u.side) as Side));
    return ratio >= 3 ? 14 : ratio >= 2 ? 6 : -6;
  }
  return undefined;
}

/** Whether the unit stands on an objective its side would lose by leaving it. */
function holding(s: SeqState, u: SeqUnit): boolean {
  const b = body(s, u);
  return objectives(s).some((o) => fromObjective(b, o) === 0);
}

function actScores(s: SeqState, id: string, actions: readonly Action[]): number[] {
  const primitive = actions.filter((a) => !a.startsWith('plan '));
  const scores = primitiveScores(s, id, primitive);
  const of = new Map(primitive.map((a, i) => [a, scores[i]!]));
  // §8.4 a plan scores as its first step, a hair below it: the scripted player keeps choosing step by step, and a
  // search meets each plan right after the step it starts with
  return actions.map((a) => {
    if (!a.startsWith('plan ')) return of.get(a)!;
    const first = internals.planFirst(s, id, a);
    return first === null ? -1 : (of.get(first) ?? primitiveScores(s, id, [first])[0]!) - 0.05;
  });
}

function primitiveScores(s: SeqState, id: string, actions: readonly Action[]): number[] {
  const u = unitOf(s, id);
  const spec = specOf(s, id);
  const v = viewOf(s, id);
  const n = nearest(v);
  const left = BUDGET - u.halves;
  const enemyCavalryNear = v.enemies.some(
    (e) =>
      specOf(s, e.u.id).kind === 'cavalry' &&
      unitDistance(v.me, e.b) <= (CAVALRY_CHARGE[(specOf(s, e.u.id) as { weight: 'light' }).weight] + 2) * IN,
  );
  const enemyFootNear = v.enemies.some(
    (e) => specOf(s, e.u.id).kind === 'infantry' && unitDistance(v.me, e.b) <= 8 * IN,
  );
  return actions.map((a) => {
    const town = townScore(s, u, a, n.d < 8 * IN);
    if (town !== undefined) return town;
    if (a === 'end') return holding(s, u) ? 1.5 : left >= 2 && n.d < 6 * IN ? 0.5 : 0;
    if (a === 'recover') return 1;
    // [p.7] a volunteer retreat gives up the activation and a victory point's worth of retreat status
    if (a === 'volunteer retreat') return -4;
    if (a === 'reform') return 9;
    if (a === 'rest') return u.fatigue >= 2 && n.d > 10 * IN ? 5 : u.fatigue >= 1 && n.d > 16 * IN ? 2 : -1;
    if (a === 'force march') return n.d > 24 * IN && u.fatigue === 0 ? 0.2 : -2;
    const fire = /^(fire|canister|shot) (?:crew )?(\S+) (\d)$/.exec(a);
    if (fire) {
      const t = after(s, id, a);
      if (!t) return -1;
      const value = fireValue(t, u.side);
      // two actions at one target resolve once with the figures doubled [p.8]: prefer it with the budget whole
      return value > 0.05 ? 3 + 8 * value + (fire[3] === '2' ? 0.5 : 0) : 0.1;
    }
    // [p.20] A-75 a rocket battery's only fire: a chance to set the enemy's block burning (4-20 a launcher)
    if (a.startsWith('rockets ')) return 4;
    if (a.startsWith('charge ')) {
      // the exact odds of the close action it starts (the defender's step 2 check, then the melee or the ride-down,
      // p.13-15): a won close action costs the enemy a unit (A-79: 2 points)
      // [p.11] a caisson charged is captured and destroyed, [p.10] A-51 a crew in the open eliminated: no close action
      if (a.startsWith('charge crew ')) return 6;
      if (!s.units.some((x) => x.id === a.slice('charge '.length))) return 6;
      const odds = internals.chargeOdds(s, id, a);
      const target = unitOf(s, a.slice('charge '.length));
      if (odds === undefined) return 4 + chargeValue(s, u, target);
      return 2 + 16 * odds + (specOf(s, target.id).kind === 'artillery' ? 4 : 0);
    }
    if (a.startsWith('form ')) {
      const to = a.slice('form '.length);
      if (spec.kind === 'artillery') {
        if (to === 'unlimbered') return n.d < 20 * IN ? 8 : n.d < 30 * IN ? 3 : -2;
        return n.d > 30 * IN ? 1 : -3;
      }
      if (to === 'square') return spec.kind === 'infantry' && enemyCavalryNear && !enemyFootNear ? 8 : -5;
      if (u.formation === 'square') return enemyCavalryNear ? -5 : 6;
      if (to === 'line') return spec.kind === 'infantry' && n.d < 12 * IN ? 6 : -1;
      if (to === 'column') return n.d > 16 * IN && u.formation !== 'column' ? 2 : -2;
      return -3;
    }
    if (a.startsWith('face ') || a === 'about face') {
      const t = after(s, id, a);
      if (!t || !n.e) return -2;
      const faced = inFrontArc(body(t, unitOf(t, id)), n.e.b);
      return faced && !inFrontArc(v.me, n.e.b) ? 5 : -2;
    }
    if (a.startsWith('move ') || a.startsWith('road ')) {
      // square does not move off; a unit with a fire target should rather fire
      const t = after(s, id, a);
      if (!t) return -1;
      return placeScore(s, t, id) * 0.8;
    }
    return 0;
  });
}

/** Whether a unit could do something useful this period: fire, charge, or close with an enemy within 20". */
function busy(s: SeqState, u: SeqUnit): number {
  const v = viewOf(s, u.id);
  const n = nearest(v);
  if (!n.e) return 0;
  const spec = specOf(s, u.id);
  if (n.d < 8 * IN) return 10 - n.d / IN;
  if (spec.kind === 'artillery' && u.formation === 'unlimbered' && n.d < 40 * IN) return 4;
  return Math.max(0, 3 - n.d / (10 * IN));
}

function bidScores(s: SeqState, side: Side, actions: readonly Action[]): number[] {
  const left = s.points[side];
  const periods = Math.max(1, 7 - s.period);
  // the points spread evenly over the periods left, one more when a fight is on
  const fighting = activeOf(s, side).some((u) => busy(s, u) >= 4);
  const target = Math.min(left, Math.round(left / periods) + (fighting && periods > 1 ? 1 : 0));
  return actions.map((a) => -Math.abs(Number(a.slice(4)) - target));
}

/** `Game.policyScores`: one score per action at the top frame. */
export function policyScores(s: SeqState, actions: readonly Action[]): number[] {
  const f = s.stack[s.stack.length - 1];
  if (!f) return actions.map(() => 0);
  switch (f.t) {
    case 'bid': {
      // the side bidding now: the sealed frame's next owner (the first without a choice)
      // the side asked now, as the runtime says (never the other side's sealed choice)
      const tm = runtime.toMove(s);
      return bidScores(s, (tm.kind === 'player' ? tm.player : 0) as Side, actions);
    }
    case 'chooseAD':
      return actions.map((a) => (a === 'be A' ? 1 : 0));
    // [p.11] note 1: the leader influences his threshold roll, +3 (1 in 20 more a point against a 1 in 10 risk to
    // him); all of +6 when the army's roll decides the game (A-79 sudden death)
    case 'thresholdInfluence':
      return actions.map((a) => {
        const i = Number(a.slice('influence '.length));
        return f.division === null && s.sc.victory.suddenDeath ? i : -Math.abs(i - 3);
      });
    case 'pick':
      return actions.map((a) => (a === 'finish' ? -1 : busy(s, unitOf(s, a.slice('activate '.length)))));
    case 'act':
      return actScores(s, f.unit, actions);
    case 'defence':
      // [p.14] a square or a turn to face the charge beats fire when the change is allowed
      // [p.10] rapid fire doubles the casualties when they count most; [p.7] a refused flank meets a flank charge
      return actions.map((a) =>
        a === 'defence form square'
          ? 2
          : a.startsWith('defence face') || a.startsWith('defence form refused')
            ? 1.5
            : a.startsWith('defence fire')
              ? a.endsWith(' rapid')
                ? 1.2
                : 1
              : 0,
      );
    // [p.19] a block fires out when it can, attacks an adjacent block only with a figure advantage, advances if won
    case 'blockDefence':
      return actions.map((a) => (a === 'defence fire out' ? 1 : 0));
    case 'blockAdvance':
      return actions.map((a) => (a === 'advance' ? 1 : 0));
    case 'blockDeclare':
      return actions.map((a) => {
        if (a.startsWith('fire out ')) return 6;
        const m = /^attack \S+ (\S+) (\d+)$/.exec(a);
        if (!m) return 0;
        const ratio = Number(m[2]) / Math.max(1, figuresInBlock(s, m[1]!, (1 - f.p) as Side));
        return ratio >= 2 ? 5 : ratio >= 1 ? 1 : -3;
      });
    case 'counter':
      // [p.15] only at good odds: the mover is what it would charge
      return actions.map((a) =>
        a === 'counter-charge' ? chargeValue(s, unitOf(s, f.cavalry), unitOf(s, f.mover)) - 3 : 0,
      );
    case 'retreatTo':
      // the farthest fall-back toward the home edge puts the most ground between it and the enemy; a battery
      // limbers and takes its guns back, or stands with them, before it abandons them (guns lost, A-79)
      return actions.map((a) => {
        if (a === 'abandon the guns') return -1;
        const m = /(\d+)"/.exec(a);
        return m ? Number(m[1]) : 0;
      });
    case 'leader': {
      const l = s.leaders.find((x) => x.id === f.id)!;
      return actions.map((a) => {
        if (a === 'stay') return l.attached ? 1 : 0;
        if (a === 'leave') return -1;
        if (a.startsWith('join ')) {
          const u = unitOf(s, a.slice(5));
          return l.attached ? 0 : 1 + busy(s, u) / 10;
        }
        // [p.10] A-56: no appointment: the scripted player has no use for a grand battery that would pay for the
        // leader's bonuses with his division's (a staff officer gives none)
        if (a === 'appoint grand battery') return -1;
        return 0;
      });
    }
    // [p.10] A-56: an eligible battery joins (its officer's radius is where it stands); the staff officer keeps up
    // with his division
    case 'grandBattery':
      return actions.map((a) => (a === 'join grand battery' ? 1 : 0));
    case 'staffOfficer':
      return actions.map((a) => (a === 'go centre' ? 1 : 0));
    // [p.10] A-51 a crew re-mans its guns when it can, else goes back to them or to cover; it spikes them when the
    // enemy is at them (no re-manning within 2"); it charges the enemy on its guns when it would more likely than not
    // retake them (the exact odds of the enemy's check and the melee), else keeps away
    case 'artCrew':
      return actions.map((a) => {
        const charge = / charge (\S+)$/.exec(a);
        if (charge) {
          const p = internals.crewChargeOdds(s, f.id, charge[1]!);
          return p > 0.5 ? 2 + 4 * p : -0.5;
        }
        return a.endsWith(' reman')
          ? 5
          : a.endsWith(' spike')
            ? actions.some((x) => x.endsWith(' reman'))
              ? -1
              : 3
            : a.endsWith(' to guns') || a.endsWith(' toward guns')
              ? 2
              : / to \S+$/.test(a)
                ? 1
                : 0;
      });
    // [p.20] figures in blocks put out the fires in or next to their own block (sappers first: 16-20 against 20); they
    // never set fire to the block they hold (a fire can only start where its figures stand: three bar entry)
    case 'crews':
      return actions.map((a) => {
        const m = /^extinguish \S+ by (\S+) in /.exec(a);
        if (m) return internals.isSappers(s, m[1]!) ? 6 : 3;
        return a.startsWith('set fire ') ? -3 : 0;
      });
    // [p.11] a caisson resupplies a battery out of ammunition when it can, else comes up behind one
    case 'caisson':
      return actions.map((a) => (a.startsWith('serve ') ? 5 : a.startsWith('to ') ? 1 : 0));
    default:
      return actions.map(() => 0);
  }
}
