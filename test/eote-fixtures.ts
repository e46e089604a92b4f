/**
 * Test fixtures for the Eagles of the Empire tests (engine/rulesets/eagles-of-the-empire/*.test.ts): the Hohenwald map and scenario (optionally patched), a position in
 * one side's Action Phase, and applying an action with the flow's automatic steps. Test support only (no I/O beyond
 * reading the shipped data files).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AreaMap } from '../engine/areas/map.ts';
import type { GameEvent } from '../engine/core/game.ts';
import { initialState, settle, step } from '../engine/rulesets/eagles-of-the-empire/rules.ts';
import { type Scenario, validateScenario } from '../engine/rulesets/eagles-of-the-empire/scenario.ts';
import type {
  Action,
  EState,
  PhaseFrame,
  Segment,
  Side,
  UnitState,
} from '../engine/rulesets/eagles-of-the-empire/types.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', 'data');
export const map = AreaMap.parse(
  JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')),
);
const raw = (id: string) =>
  JSON.parse(readFileSync(join(DATA, 'scenarios', 'eagles-of-the-empire', `${id}.json`), 'utf8'));

/** Validate a (patched) copy of a shipped scenario; `patch` edits the JSON. */
export function checkScenario(patch?: (j: any) => void, id = 'hohenwald-1809') {
  const j = raw(id);
  patch?.(j);
  return validateScenario(j, map);
}
export function loadScenario(patch?: (j: any) => void, id = 'hohenwald-1809'): Scenario {
  const v = checkScenario(patch, id);
  if (!v.ok) throw new Error(JSON.stringify(v.problems));
  return v.value;
}

export function act(s: EState, a: Action, log?: GameEvent[]): EState {
  return settle(step(s, a, log), log);
}
export const unitOf = (s: EState, id: string): UnitState => s.units.find((u) => u.id === id)!;

/**
 * A position in side `p`'s Action Phase at segment `seg`: units and leaders moved (area, conformation), `active`
 * formations activated, every unit of the side in command unless `extra` says otherwise.
 */
export function position(
  sc: Scenario,
  p: Side,
  seg: Segment,
  active: string[],
  moves: Record<string, [number | null, string | null]> = {},
  extra: Partial<PhaseFrame> = {},
): EState {
  const s0 = initialState(sc, map);
  const units = s0.units.map(
    (u): UnitState => (moves[u.id] ? { ...u, area: moves[u.id]![0], conf: moves[u.id]![1] } : u),
  );
  const leaders = s0.leaders.map((l) => (moves[l.id] ? { ...l, area: moves[l.id]![0] } : l));
  const inCmd = units.filter((u) => u.side === p).map((u) => u.id);
  const phase: PhaseFrame = {
    t: 'phase',
    p,
    seg,
    inCmd,
    bomb: {},
    assaulted: [],
    segStart: {},
    segLost: {},
    routChecked: [],
    ...extra,
  };
  return settle(
    {
      ...s0,
      units,
      leaders,
      phase: 'activation',
      firstPlayer: p,
      weatherSet: true,
      active,
      formations: s0.formations.map((f) => (active.includes(f.id) ? { ...f, activated: true } : f)),
      stack: [phase],
    },
    undefined,
  );
}
