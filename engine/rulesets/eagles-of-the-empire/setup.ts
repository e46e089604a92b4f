/**
 * The initial state of an Eagles of the Empire game: the set-up as the scenario lists it [13.9], with the deployments
 * it makes at set-up [11.31]; the game starts in the Preparation Step of turn 1 (flow.ts).
 */
import type { AreaId, AreaMap } from '../../areas/map.ts';
import { type Scenario, formationsOf, parseStep } from './scenario.ts';
import type { EState, LeaderState, Side, UnitState } from './types.ts';
import { markerIds } from './world.ts';
import { deployAtStart } from './deploy.ts';

function sideOf(sc: Scenario, p: Side) {
  return sc.sides[p];
}

/** The initial state: set-up as the scenario lists it [13.9]; the game starts in the Preparation Step of turn 1. */
export function initialState(sc: Scenario, map: AreaMap): EState {
  return deployAtStart(setUp(sc, map)); // [11.31] deployments the scenario makes at set-up
}

function setUp(sc: Scenario, map: AreaMap): EState {
  const units: UnitState[] = [];
  const leaders: LeaderState[] = [];
  for (const p of [0, 1] as const) {
    const side = sideOf(sc, p);
    const where = new Map<string, { area: AreaId; conf: string | null }>();
    for (const pl of sc.setup[p]) for (const u of pl.units) where.set(u, { area: pl.area, conf: pl.facing[u] ?? null });
    for (const { f } of formationsOf(side))
      for (const u of f.units) {
        const steps = u.steps.map((t) => parseStep(t, u.kind));
        if (steps.some((x) => typeof x === 'string'))
          throw new Error(`unit ${u.id}: bad step track (validate the scenario first)`);
        const at = where.get(u.id);
        units.push({
          id: u.id,
          side: p,
          kind: u.kind,
          long: u.kind === 'infantry' && u.counter === 'long',
          steps: steps as never,
          step: u.startStep,
          startStep: u.startStep,
          area: at?.area ?? null,
          eliminated: false,
          conf: at?.conf ?? null,
          formation: f.id,
          attachedTo: null,
          lost: 0,
          routed: false,
          square: false,
          mc: null,
          rs: false,
          acted: null,
          mp: 0,
          moveDone: false,
          refaced: false,
          detached: false,
          ext: null,
          xsp: null,
        });
        // the scenario's extended-line markers start off the map [16.0]
        const lc = units[units.length - 1]!;
        for (const m of markerIds(u))
          units.push({ ...lc, id: m.id, area: null, conf: null, ext: { lc: u.id, div: m.div } });
      }
    const lwhere = new Map<string, AreaId>();
    for (const pl of sc.setup[p]) for (const l of pl.leaders) lwhere.set(l, pl.area);
    for (const l of side.leaders)
      leaders.push({
        id: l.id,
        side: p,
        area: lwhere.get(l.id) ?? null,
        status: lwhere.has(l.id) ? 'on' : 'off',
        moved: false,
      });
  }
  const hqOf = (p: Side) => {
    if (!sc.sides[p].hq) return null;
    const pl = sc.setup[p].find((x) => x.hq);
    return { area: pl ? pl.area : null, lost: false };
  };
  const control: Record<string, Side> = {};
  for (const [k, v] of Object.entries(sc.victory.control)) control[k] = v;
  return {
    ctx: { scenario: sc, map },
    turn: 1,
    phase: 'prep',
    weather: sc.weather.initial,
    weatherSet: false,
    firstPlayer: null,
    units,
    leaders,
    hq: [hqOf(0), hqOf(1)],
    formations: [0, 1].flatMap((p) =>
      formationsOf(sc.sides[p]!).map(({ f }) => ({ id: f.id, side: p as Side, activated: false, failedRally: false })),
    ),
    reinf: sc.reinforcements.map((r) => ({ id: r.id, due: r.turn, delayed: false, arrived: false })),
    acting: 0,
    prev: null,
    sameSideFails: 0,
    active: [],
    cbi: {},
    courier: {},
    control,
    leaderMp: {},
    hqMp: [0, 0],
    hqMoved: [false, false],
    assigned: [0, 0],
    artLeaderOf: {},
    standIn: {},
    fallen: [],
    endDone: false,
    stack: [],
    nChance: 0,
    result: null,
  };
}
