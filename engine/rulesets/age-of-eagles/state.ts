/** The state's immutable updates and derived values: units and leaders by id, the game's start from a scenario. */
import type { Scenario, UnitSpec } from './scenario.ts';
import { buildTerrain } from './shape.ts';
import type { AoeState, Ctx, Leader, Side, Unit } from './types.ts';

export const IN = 100;

const index = new WeakMap<readonly Unit[], Map<string, number>>();

/** Index of unit `id` in `s.units` (cached per units array; ids never change). */
function unitIndex(s: AoeState, id: string): number {
  let m = index.get(s.units);
  if (!m) {
    m = new Map(s.units.map((u, i) => [u.id, i]));
    index.set(s.units, m);
  }
  const i = m.get(id);
  if (i === undefined) throw new Error(`age-of-eagles: no unit "${id}"`);
  return i;
}

export const unitOf = (s: AoeState, id: string): Unit => s.units[unitIndex(s, id)]!;

/** `s` with unit `id` changed by `patch` (the units array copied, every other unit shared). */
export function updUnit(s: AoeState, id: string, patch: Partial<Unit>): AoeState {
  const i = unitIndex(s, id);
  const units = s.units.slice();
  units[i] = { ...units[i]!, ...patch } as Unit;
  // the new array keeps the same ids at the same places
  index.set(units, index.get(s.units)!);
  return { ...s, units };
}

export function updLeader(s: AoeState, id: string, patch: Partial<Leader>): AoeState {
  return { ...s, leaders: s.leaders.map((l) => (l.id === id ? { ...l, ...patch } : l)) };
}

/** Units on the table. */
export const onTable = (s: AoeState): Unit[] => s.units.filter((u) => !u.gone);

/** The side to play this player turn (the phasing player). */
export const phasing = (s: AoeState): Side => (s.pt === 0 ? s.first : ((1 - s.first) as Side));

function unitFrom(spec: UnitSpec, side: Side, div: string): Unit {
  const base = {
    id: spec.id,
    side,
    div,
    x: Math.round(spec.x * IN),
    y: Math.round(spec.y * IN),
    h: spec.facing,
    hits: 0,
    fpHits: 0,
    dis: false,
    changed: false,
    about: false,
    bua: '',
    gone: '' as const,
    ordered: false,
    fired: false,
    broke: false,
    fought: false,
    checked: false,
  };
  if (spec.type === 'infantry')
    return {
      ...base,
      k: 'inf',
      cls: spec.class,
      ranks: spec.ranks,
      mm: spec.marchMode,
      light: spec.light,
      f: spec.formation,
      hits: spec.hits,
      dis: spec.disordered,
    };
  if (spec.type === 'cavalry')
    return {
      ...base,
      k: 'cav',
      cls: spec.class,
      wt: spec.weight,
      lancers: spec.lancers,
      f: spec.formation,
      cc: false,
      hits: spec.hits,
      dis: spec.disordered,
    };
  return {
    ...base,
    k: 'bat',
    guns: spec.guns,
    cal: spec.calibre,
    mob: spec.mobility,
    limbered: spec.limbered,
    damaged: false,
    dis: spec.silenced,
  };
}

/** The game at its start: turn 1, the Initiative Phase's roll on top [Play Sequence]. */
export function initialState(sc: Scenario): AoeState {
  const built = buildTerrain(sc.terrain);
  const blockIds = new Set(built.blocks.map((b) => b.id));
  const ctx: Ctx = {
    scenarioId: sc.id,
    width: sc.table.width * IN,
    height: sc.table.height * IN,
    turns: sc.options.A12_turns,
    ...built,
    objectives: sc.objectives.map((o) => {
      if ('bua' in o) {
        const b = built.blocks.find((x) => x.id === o.bua)!;
        return { id: o.id, x: b.x, y: b.y, bua: blockIds.has(o.bua) ? o.bua : '' };
      }
      return { id: o.id, x: Math.round(o.x * IN), y: Math.round(o.y * IN), bua: '' };
    }),
    options: sc.options,
  };
  const units: Unit[] = [];
  const leaders: Leader[] = [];
  sc.sides.forEach((side, si) => {
    const s = si as Side;
    for (const d of side.divisions) for (const u of d.units) units.push(unitFrom(u, s, d.id));
    const leader = (
      spec: { id: string; charismatic: boolean; attached?: string | undefined; x?: number; y?: number },
      army: boolean,
      div: string,
    ): Leader => {
      const host = spec.attached ? units.find((u) => u.id === spec.attached) : undefined;
      return {
        id: spec.id,
        side: s,
        army,
        div,
        charismatic: spec.charismatic,
        x: host ? host.x : Math.round((spec.x ?? 0) * IN),
        y: host ? host.y : Math.round((spec.y ?? 0) * IN),
        att: host ? host.id : '',
        captured: false,
        acted: false,
        moved: false,
      };
    };
    leaders.push(leader(side.armyLeader, true, ''));
    for (const d of side.divisions) leaders.push(leader(d.leader, false, d.id));
  });
  return {
    ctx,
    turn: 1,
    first: 0,
    pt: 0,
    phase: 'initiative',
    sides: sc.sides.map((side, si) => ({
      name: side.name,
      facing: side.facing,
      startUnits: units.filter((u) => u.side === si).length,
      cohesion: 0,
    })) as unknown as readonly [AoeState['sides'][0], AoeState['sides'][1]],
    units,
    leaders,
    combats: [],
    pending: [],
    stack: [{ t: 'initRoll' }],
    nChance: 0,
    held: ctx.objectives.map(() => -1),
    result: null,
  };
}
