/**
 * `eagles train value-check MODEL`: how well a network's value head predicts results, next to the ruleset's own
 * evaluation, on held-out scripted-player games (one move in ten random, as in the bootstrap). Positions are sampled
 * at quiet decision points from ply 40 on; both judges are scored by mean squared error against the final result
 * (−1 / 0 / +1 for player 0). A judge that predicts results better is not bound to make a search stronger: measure
 * that with `arena run`.
 */
import seedrandom from 'seedrandom';
import type { AnyGame } from '../engine/core/game.ts';
import { sampleChance, scriptedBest } from './selfplay.ts';

export interface ValueCheck {
  readonly games: number;
  readonly positions: number;
  /** Mean squared error against the result: the ruleset's evaluation, the network, and always 0 (the baseline). */
  readonly mseEval: number;
  readonly mseNet: number;
  readonly mseZero: number;
}

/** `net(s)`: a value for player 0 in [-1, 1] (e.g. `networkLeafValue`). */
export function valueCheck(
  game: AnyGame,
  scenario: unknown,
  net: (s: unknown) => number,
  games: number,
  seed = 'value-check',
): ValueCheck {
  if (!game.policyScores) throw new Error(`ruleset ${game.id} has no scripted player to play the held-out games`);
  let n = 0;
  let se = 0;
  let sn = 0;
  let sz = 0;
  for (let i = 0; i < games; i++) {
    const rng = seedrandom(`value-check/${seed}/${i}`);
    let s = game.initialState(scenario);
    const kept: unknown[] = [];
    for (let ply = 0; ; ) {
      const tm = game.toMove(s);
      if (tm.kind === 'terminal') break;
      if (tm.kind === 'chance') {
        s = game.applyUnchecked(s, sampleChance(game, s, rng));
        continue;
      }
      const legal = game.legalActions(s);
      if (ply >= 40 && (!game.quiet || game.quiet(s)) && rng() < 0.08) kept.push(s);
      let a: unknown;
      if (rng() < 0.1) a = legal[Math.floor(rng() * legal.length)];
      else {
        const best = scriptedBest(game.policyScores(s, legal));
        a = legal[best[Math.floor(rng() * best.length)]!];
      }
      s = game.applyUnchecked(s, a);
      ply++;
    }
    const z = game.returns(s)[0]!;
    for (const p of kept) {
      n++;
      se += (game.evaluate(p, 0) - z) ** 2;
      sn += (net(p) - z) ** 2;
      sz += z * z;
    }
  }
  if (!n) throw new Error(`no positions sampled from ${games} games (games shorter than 40 decisions?)`);
  return { games, positions: n, mseEval: se / n, mseNet: sn / n, mseZero: sz / n };
}
