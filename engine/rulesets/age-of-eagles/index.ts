/**
 * Age of Eagles (regimental 1:60) as a `Game`. In construction: the sequence of play, the March phase (orders, the
 * March table, movement, retreats), the Volley & Cannonade phase, hits, army cohesion and victory are built; charges,
 * square and countercharge reactions, the Bayonet & Sabre phase and built-up areas are not, so the ruleset is not yet
 * registered (README.md in this folder).
 */
import type { Game } from '../../core/game.ts';
import { hashValue } from '../../core/hash.ts';
import { aoe } from './rules.ts';
import { type Scenario, validateScenario } from './scenario.ts';
import { IN, initialState, onTable } from './state.ts';
import { lossPoints } from './turn.ts';
import type { Action, AoeState } from './types.ts';
import { actionKey } from './notation.ts';

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

export const ageOfEagles: Game<AoeState, Action, Scenario> = {
  id: 'age-of-eagles',
  title: 'Age of Eagles (regimental 1:60)',
  version: 1,
  players: ['A', 'B'],
  defaultScenario: 'saint-aubin',
  citation:
    /^(A\d{1,2}|Play Sequence|Initiative Phase|March Phase|March Table|Movement|Charges|Volley & Cannonade|Bayonet & Sabre|Hits|Built Up Areas|Forming Square|Artillery)$/,
  validateScenario,
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
  hash: (s) => hashValue(s),
  render: (s) => render(s),
  resultText: (s) => s.result?.text ?? `in progress (turn ${s.turn}, ${onTable(s).length} units on the table)`,
};
