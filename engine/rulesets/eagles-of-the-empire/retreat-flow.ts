/**
 * Retreats [20.0–20.3] as frames on the stack, shared by the procedures that force or allow them (charges, assaults):
 * a group retreating from an area pushes one `retreatTo` decision per group (the parts of an extended line each on
 * their own [16.4]), which this module plays: the owner chooses the area, or the units are eliminated when there is
 * none [20.1]. Squares forced back rout [17.15]; the HQ is lost and foot artillery stays behind [20.2, 20.3].
 * It depends on no other flow.
 */
import { IllegalActionError } from '../../core/game.ts';
import type { AreaId } from '../../areas/map.ts';
import { displaceLeaders, loseSteps } from './casualties.ts';
import { lineRetreatOptions } from './lines.ts';
import type { MoveClass } from './movement.ts';
import type { Handlers } from '../../core/procedure.ts';
import { staged } from './procedures.ts';
import { retreatAreas } from './retreat.ts';
import { type Log, ev, pop, push, updUnit } from './state.ts';
import type { Action, EState, Frame, Side, UnitState } from './types.ts';
import { alive, conformationsFor, enemyOccupied, enemyUnitsIn, fits, stepsLeft, unit, unitDef } from './world.ts';

type RetreatFrame = Extract<Frame, { t: 'retreatTo' }>;

/** Whether a unit may retreat [20.2, 20.21, 20.3]: unattached foot artillery stays; attached artillery only with its LC voluntarily. */
export function canRetreat(s: EState, u: UnitState, voluntary: boolean): boolean {
  if (u.kind !== 'artillery') return true;
  const kind = unitDef(s, u.id).artKind ?? 'foot';
  if (kind === 'horse') return true;
  return u.attachedTo !== null && voluntary;
}

/**
 * Retreat one group from `from` [20.0–20.3]: the HQ is eliminated by a forced retreat; unattached foot artillery (and
 * attached artillery on a forced retreat) stays behind; squares forced back rout [17.15]; the rest choose one area.
 */
export function retreatGroup(
  s: EState,
  p: Side,
  from: AreaId,
  us: readonly UnitState[],
  voluntary: boolean,
  frames: Frame[],
  log: Log,
): EState {
  if (!voluntary && s.hq[p]?.area === from && !s.hq[p]!.lost) {
    s = { ...s, hq: s.hq.map((h, i) => (i === p ? { area: null, lost: true } : h)) as unknown as EState['hq'] };
    ev(log, '20.3', `the ${s.ctx.scenario.sides[p].name} HQ cannot retreat and is eliminated`);
  }
  let go = us.filter((u) => alive(u) && canRetreat(s, u, voluntary));
  // attached artillery left behind by a forced retreat detaches [20.2]
  for (const u of us) if (alive(u) && u.attachedTo !== null && !voluntary) s = updUnit(s, u.id, { attachedTo: null });
  const squares = go.filter((u) => u.square && !voluntary);
  if (squares.length && s.ctx.scenario.rules.rout) {
    for (const u of squares) {
      s = updUnit(s, u.id, { routed: true, square: false });
      ev(log, '17.15', `${unitDef(s, u.id).name}, in square and forced to retreat, routs`);
      frames.push({
        t: 'routMove',
        p,
        u: u.id,
        left: 2,
        path: [from],
        attackers: [
          ...new Set(
            s.units
              .filter((x) => x.side !== p && alive(x) && s.ctx.map.neighbours(from).includes(x.area!))
              .map((x) => x.area!),
          ),
        ],
        initial: true,
        mp: null,
      });
    }
    go = go.filter((u) => !squares.includes(u));
  }
  if (!go.length) return s;
  const areas = (cur: UnitState[]) =>
    retreatAreas(
      {
        map: s.ctx.map,
        enemyUnits: (a) => enemyUnitsIn(s, p, a),
        enemyOccupied: (a) => enemyOccupied(s, p, a),
        fits: (a) => fits(s, p, a, cur),
      },
      from,
      [...new Set(cur.map((u) => u.kind as MoveClass))],
    );
  // [16.4] each part of an extended line retreats on its own, staying adjacent to its line or into another part's area
  for (const u of go.filter((x) => x.xsp !== null))
    frames.push({
      t: 'retreatTo',
      p,
      units: [u.id],
      from,
      options: lineRetreatOptions(s, u, from, areas([u])),
      voluntary,
    });
  const rest = go.filter((x) => x.xsp === null).map((u) => unit(s, u.id));
  if (rest.length)
    frames.push({ t: 'retreatTo', p, units: rest.map((u) => u.id), from, options: areas(rest), voluntary });
  return s;
}

/** Carry out a chosen retreat [20.0, 20.1]; no area: the units are eliminated. */
export function retreatInto(s: EState, f: Extract<Frame, { t: 'retreatTo' }>, area: AreaId | null, log: Log): EState {
  s = pop(s);
  const names = f.units.map((id) => unitDef(s, id).name).join(', ');
  if (area === null) {
    ev(
      log,
      '20.1',
      `${names} ${f.units.length > 1 ? 'have' : 'has'} no retreat route and ${f.units.length > 1 ? 'are' : 'is'} eliminated`,
    );
    for (const id of f.units) s = loseSteps(s, id, stepsLeft(unit(s, id)), log, '20.1');
    return s;
  }
  const frames: Frame[] = [];
  for (const id of f.units) {
    s = updUnit(s, id, { area, square: false, conf: null });
    for (const x of s.units.filter((y) => y.attachedTo === id && alive(y))) s = updUnit(s, x.id, { area });
  }
  ev(log, '20.0', `${names} ${f.units.length > 1 ? 'retreat' : 'retreats'} from area ${f.from} to area ${area}`);
  s = displaceLeaders(s, f.p, area, log);
  for (const id of f.units) if (conformationsFor(s, unit(s, id)).length) frames.push({ t: 'face', p: f.p, u: id });
  return push(s, ...frames.reverse());
}

/** Retreats as the runtime plays them: the owner chooses where, or the units are lost when there is nowhere to go. */
export const retreats: Handlers<EState, RetreatFrame, Action> = {
  retreatTo: staged<RetreatFrame>({
    decider: (_s, f) => f.p,
    legal: (_s, f) => f.options.map((area): Action => ({ k: 'goTo', area })),
    chance: () => [],
    step(s: EState, f: RetreatFrame, a: Action, log: Log): EState {
      if (a.k === 'goTo' && f.options.includes(a.area)) return retreatInto(s, f, a.area, log);
      throw new IllegalActionError(a.k, `not an action at this point (${f.t})`);
    },
    settle: (s, f, log) => (f.options.length ? null : retreatInto(s, f, null, log)), // nowhere to go [20.1]
  }),
};
