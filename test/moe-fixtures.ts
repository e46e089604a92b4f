/** Small hand-built March of Eagles positions for rule tests and hand-counted perft. */
import { findActionByKey } from '../engine/core/game.ts';
import { marchOfEagles, type MoeState } from '../engine/rulesets/march-of-eagles/index.ts';
import { battalionPoints, validateScenario as validateSchema } from '../engine/rulesets/march-of-eagles/scenario.ts';
import { upd } from '../engine/rulesets/march-of-eagles/state.ts';
import type { Bn } from '../engine/rulesets/march-of-eagles/types.ts';

interface TinyBn {
  id: string;
  quality?: 'Green' | 'Drilled' | 'Veteran' | 'Guards';
  rankers?: number;
  drummers?: number;
  sergeants?: number;
  ensigns?: number;
  officer?: number;
  light?: boolean;
  rifles?: boolean;
  x: number;
  y: number;
  formation?: 'Line' | 'Column';
  facing?: number;
  skirmishers?: number;
  screen?: 'front' | 'left' | 'right' | 'rear';
}

export interface TinyOpts {
  a: TinyBn[];
  b: TinyBn[];
  natA?: 'British' | 'French' | 'Other';
  natB?: 'British' | 'French' | 'Other';
  terrain?: unknown[];
  scA?: { attach: string } | { x: number; y: number };
  scB?: { attach: string } | { x: number; y: number };
  width?: 48 | 72;
  turns?: number;
  options?: Record<string, unknown>;
}

function tinyScenario(o: TinyOpts) {
  const army = (list: TinyBn[], nat: string, name: string) => ({
    name,
    nationality: nat,
    battalions: list.map((b) => ({
      id: b.id,
      name: b.id,
      quality: b.quality ?? 'Drilled',
      rankers: b.rankers ?? 24,
      drummers: b.drummers ?? 0,
      sergeants: b.sergeants ?? 0,
      ensigns: b.ensigns ?? 0,
      officer: b.officer ?? 0,
      light: b.light ?? false,
      rifles: b.rifles ?? false,
    })),
  });
  const armyA = army(o.a, o.natA ?? 'Other', 'Blue');
  const armyB = army(o.b, o.natB ?? 'Other', 'Red');
  const pts = (a: ReturnType<typeof army>) =>
    a.battalions.reduce((s, b) => s + battalionPoints(b as never, a.nationality === 'British'), 0);
  const place = (b: TinyBn, facing: number) => ({
    id: b.id,
    x: b.x,
    y: b.y,
    formation: b.formation ?? 'Line',
    facing: b.facing ?? facing,
    skirmishers: b.skirmishers ?? 0,
    ...(b.screen ? { screen: b.screen } : {}),
  });
  return {
    ruleset: 'march-of-eagles',
    id: 'tiny',
    title: 'tiny test position',
    table: { width: o.width ?? 48, height: 48 },
    turns: o.turns ?? 8,
    points: [pts(armyA), pts(armyB)],
    terrain: o.terrain ?? [],
    armies: [armyA, armyB],
    deployment: {
      A: { edge: 'south', battalions: o.a.map((b) => place(b, 0)), sc: o.scA ?? { x: 2, y: 2 } },
      B: { edge: 'north', battalions: o.b.map((b) => place(b, 180)), sc: o.scB ?? { x: 46, y: 46 } },
    },
    ...(o.options ? { options: o.options } : {}),
  };
}

/**
 * Build the state directly (skipping the deployment-zone check, so positions may be anywhere on the table),
 * with the chance/decision stack cleared: callers push what they need.
 */
export function tinyState(o: TinyOpts): MoeState {
  // positions outside the deployment zones are fine for rule tests: schema and army checks only
  const v = validateSchema(tinyScenario(o));
  if (!v.ok) throw new Error(v.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  return marchOfEagles.initialState(v.value);
}

export function patch(s: MoeState, id: string, p: Partial<Bn>): MoeState {
  return upd(s, id, p);
}

/** Apply actions and chance outcomes by their text keys, failing with the options listed when one is not legal. */
export function playKeys(
  s: MoeState,
  keys: readonly string[],
  events?: import('../engine/core/game.ts').GameEvent[],
): MoeState {
  for (const k of keys) {
    const a = findActionByKey(marchOfEagles, s, k);
    if (a === undefined) {
      const opts =
        marchOfEagles.toMove(s).kind === 'chance'
          ? marchOfEagles.chanceOutcomes(s).map((o) => marchOfEagles.actionKey(o.action))
          : marchOfEagles.legalActions(s).map((x) => marchOfEagles.actionKey(x));
      throw new Error(
        `"${k}" is not legal at ${s.stack[s.stack.length - 1]?.t}; options: ${opts.slice(0, 40).join(' | ')}`,
      );
    }
    s = marchOfEagles.apply(s, a, events);
  }
  return s;
}

/**
 * M15: when a side has no activation left, its Supreme Commander's free move is still offered: these keys decline it
 * for both sides (roll the 4D6, then stay).
 */
export const declineSCs = ['sc-move', 'roll:sum 4', 'sc-stay', 'sc-move', 'roll:sum 4', 'sc-stay'] as const;

type SpecBn = Omit<TinyBn, 'x' | 'y' | 'formation' | 'facing' | 'skirmishers' | 'screen'>;

/** An alternately deployed scenario (full pre-game) from two battalion lists; points are each army's own total. */
export function alternateScenario(o: {
  a: SpecBn[];
  b: SpecBn[];
  width?: 48 | 72;
  terrain?: unknown[];
  natA?: 'British' | 'French' | 'Other';
  natB?: 'British' | 'French' | 'Other';
  options?: Record<string, unknown>;
}) {
  const t = tinyScenario({
    ...o,
    a: o.a.map((b) => ({ ...b, x: 0, y: 0 })),
    b: o.b.map((b) => ({ ...b, x: 0, y: 0 })),
  });
  return { ...t, id: 'alternate-test', deployment: 'alternate' as const };
}

/**
 * A line A1 charged frontally by B1 from 8" away, A2 and B2 far off, on optional terrain: B wins the initiative, B1
 * charges and wins the round (`B_CHARGES_AND_WINS`), A1 falls back 2" and tests RESOLVE at once.
 */
export function chargedLine(y: number, terrain?: unknown[]): MoeState {
  return tinyState({
    a: [
      { id: 'A1', x: 24, y },
      { id: 'A2', x: 44, y: 4 },
    ],
    b: [
      { id: 'B1', x: 24, y: y + 0.8 + 8 + 0.8 },
      { id: 'B2', x: 6, y: 44 },
    ],
    ...(terrain ? { terrain } : {}),
  });
}
export const B_CHARGES_AND_WINS = [
  'roll:winner B',
  'go-first self',
  'activate B1',
  'attack B1 A1',
  'roll:pass',
  'roll:sum 12',
  'defensive-fire no',
  'roll:combat A',
] as const;
