/**
 * Age of Eagles (regimental 1:60) as a `Game`. In construction: the sequence of play, the March phase (orders, the
 * March table, movement, retreats), the Volley & Cannonade phase, hits, army cohesion and victory are built; charges,
 * square and countercharge reactions, the Bayonet & Sabre phase and built-up areas are not, so the ruleset is not yet
 * registered (README.md in this folder).
 */
import { faceForClass } from '../../core/dice.ts';
import type { Game, Problem, Validated } from '../../core/game.ts';
import { polygonsOverlap, rectCorners } from '../../geometry/geometry.ts';
import { hashValue } from '../../core/hash.ts';
import { aoe } from './rules.ts';
import { aoeEncoding } from './encoding.ts';
import { randomScenario } from './generate.ts';
import { policyScores } from './heuristic.ts';
import { type Scenario, validateScenario } from './scenario.ts';
import { blockRect, poly } from './shape.ts';
import { IN, initialState, onTable } from './state.ts';
import { lossPoints } from './turn.ts';
import {
  BS_RESULTS,
  DIE_SIDES,
  FIRE_RESULTS,
  MARCH_TABLE_DISORDERED,
  MARCH_TABLE_GOOD_ORDER,
  rowIndex,
} from './tables.ts';
import type { Action, AoeState } from './types.ts';
import { unitOf } from './state.ts';
import { actionKey } from './notation.ts';
import { outcomeForFaces, rollAsk } from './dice-faces.ts';
import { agePicture } from './picture.ts';

function render(s: AoeState): string {
  const lines = [
    `turn ${s.turn}/${s.ctx.turns}, ${s.phase}${s.phase === 'initiative' ? '' : `, ${s.sides[s.pt === 0 ? s.first : 1 - s.first]!.name} phasing`}`,
  ];
  for (const side of [0, 1] as const) {
    lines.push(`${s.sides[side].name} (cohesion ${s.sides[side].cohesion}, loss points ${lossPoints(s, side)}):`);
    for (const u of s.units.filter((x) => x.side === side)) {
      if (u.gone) {
        lines.push(`  ${u.id} removed (${u.gone})`);
        continue;
      }
      const form = u.k === 'bat' ? (u.limbered ? 'limbered' : 'unlimbered') : u.bua ? `in ${u.bua}` : u.f;
      const marks = [
        u.dis ? (u.k === 'bat' ? 'silenced' : 'disordered') : '',
        u.k === 'bat' && u.damaged ? 'damaged' : '',
        u.k !== 'bat' && u.hits ? `${u.hits} hits` : '',
      ]
        .filter(Boolean)
        .join(', ');
      lines.push(
        `  ${u.id} ${u.k} ${form} at (${(u.x / IN).toFixed(1)}, ${(u.y / IN).toFixed(1)}) facing ${u.h}°${marks ? ` — ${marks}` : ''}`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * The schema's checks, then the set-up on the table (A3 footprints): every unit wholly on the table, over no other
 * unit and outside the BUA blocks.
 */
function validate(json: unknown): Validated<Scenario> {
  const v = validateScenario(json);
  if (!v.ok) return v;
  const s = initialState(v.value);
  const paths = new Map<string, string>();
  v.value.sides.forEach((side, si) =>
    side.divisions.forEach((d, di) =>
      d.units.forEach((u, ui) => paths.set(u.id, `$.sides[${si}].divisions[${di}].units[${ui}]`)),
    ),
  );
  const problems: Problem[] = [];
  s.units.forEach((u, i) => {
    const ps = poly(u);
    const path = paths.get(u.id)!;
    if (ps.some((p) => p.x < 0 || p.y < 0 || p.x > s.ctx.width || p.y > s.ctx.height))
      problems.push({
        path,
        message: `unit ${u.id}'s footprint (${u.k === 'bat' ? 'gun stand' : u.f}) runs off the table (A3)`,
      });
    for (const o of s.units.slice(i + 1))
      if (polygonsOverlap(ps, poly(o)))
        problems.push({ path, message: `unit ${u.id} overlaps unit ${o.id} (A3 footprints)` });
    for (const b of s.ctx.blocks)
      if (polygonsOverlap(ps, rectCorners(blockRect(b))))
        problems.push({ path, message: `unit ${u.id} starts on BUA block ${b.id}: units start outside the blocks` });
  });
  return problems.length ? { ok: false, problems } : v;
}

/** Faces of the D10s consistent with a chance outcome, for display (A1). */
function diceFaces(s: AoeState, a: Action, u: () => number): number[] | undefined {
  const f = s.stack[s.stack.length - 1];
  if (!f) return undefined;
  const row = (rows: readonly { min: number; max: number }[]) => (total: number) => rowIndex(rows, total);
  if (a.a === 'marchRoll' && f.t === 'march') {
    const rows = unitOf(s, f.u).dis ? MARCH_TABLE_DISORDERED : MARCH_TABLE_GOOD_ORDER;
    return [faceForClass(DIE_SIDES, f.mod, row(rows), a.r, u)];
  }
  if (a.a === 'shotRoll' && f.t === 'shot') return [faceForClass(DIE_SIDES, f.drm, row(FIRE_RESULTS), a.r, u)];
  if (a.a === 'meleeDiff' && f.t === 'melee') {
    const pairs: [number, number][] = [];
    for (let x = 1; x <= DIE_SIDES; x++)
      for (let y = 1; y <= DIE_SIDES; y++) if (row(BS_RESULTS)(x + f.amod - (y + f.dmod)) === a.d) pairs.push([x, y]);
    return pairs[Math.floor(u() * pairs.length)];
  }
  if (a.a === 'initWin') {
    // A2: the winner's D10 is the higher (ties were re-rolled)
    const hi = 2 + Math.floor(u() * (DIE_SIDES - 1));
    const lo = 1 + Math.floor(u() * (hi - 1));
    return a.side === 0 ? [hi, lo] : [lo, hi];
  }
  return undefined;
}

/** Quiet for search: a March-phase choice with no fire or combat pending. */
function quiet(s: AoeState): boolean {
  const t = s.stack[s.stack.length - 1]?.t;
  return (
    !s.combats.length &&
    !s.pending.length &&
    (t === 'pickUnit' || t === 'leaders' || t === 'initChoice' || t === 'leaderMove')
  );
}

export const ageOfEagles: Game<AoeState, Action, Scenario> = {
  id: 'age-of-eagles',
  title: 'Age of Eagles (regimental 1:60)',
  version: 1,
  players: ['A', 'B'],
  defaultScenario: 'saint-aubin',
  citation:
    /^(A\d{1,2}|Play Sequence|Initiative Phase|March Phase|March Table|Movement|Charges|Volley & Cannonade|Bayonet & Sabre|Hits|Built Up Areas|Forming Square|Artillery)$/,
  validateScenario: validate,
  initialState: (sc) => aoe.settle(initialState(sc)),
  toMove: aoe.toMove,
  legalActions: aoe.legalActions,
  chanceOutcomes: aoe.chanceOutcomes,
  chanceKey: aoe.chanceKey,
  apply: aoe.apply,
  applyUnchecked: aoe.applyUnchecked,
  returns: (s) => {
    const w = s.result?.winner ?? -1;
    return w === -1 ? [0, 0] : w === 0 ? [1, -1] : [-1, 1];
  },
  observe: (s) => s, // perfect information
  sampleState: (s) => s,
  evaluate: (s, p) => {
    const d = lossPoints(s, (1 - p) as 0 | 1) - lossPoints(s, p as 0 | 1);
    return Math.tanh(d / 10);
  },
  actionKey,
  describeAction: (_s, a) => actionKey(a),
  describeDecision: aoe.describe,
  rollAsk,
  outcomeForFaces,
  diceFaces,
  quiet,
  randomScenario,
  policyScores,
  encoding: aoeEncoding,
  hash: (s) => hashValue(s),
  render: (s) => render(s),
  picture: (s, viewer) => agePicture(s, viewer),
  resultText: (s) => s.result?.text ?? `in progress (turn ${s.turn}, ${onTable(s).length} units on the table)`,
};
