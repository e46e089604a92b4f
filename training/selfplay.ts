/**
 * Training games. `selfPlayGame`: both sides search with PUCT guided by the network (Dirichlet noise at the root,
 * temperature 1 for the first `tempMoves` decisions and 0 after); each real decision (more than one legal action)
 * becomes a sample: the mover's observation features, the legal actions' features, the visit distribution, and
 * later the game's outcome for the mover. Under hidden information a sample holds only what the mover observes
 * (`game.observe`), and the search never learns what it does not see (see `agents/neural/puct.ts`). `imitationGame`: the scripted player's games, its choice as the policy
 * target (the bootstrap, so the first network is not random), optionally keeping only `keep` positions per game. Dice are drawn from exact distributions with the
 * game's own seeded RNG.
 */
import { hasHiddenInformation } from '../engine/core/views.ts';
import seedrandom from 'seedrandom';
import type { AnyGame } from '../engine/core/game.ts';
import type { NetEvaluator } from '../agents/neural/evaluator.ts';
import { PuctSearch, pickByVisits, type PuctConfig } from '../agents/neural/puct.ts';

export interface Sample {
  /** Observation features of the player to move. */
  readonly s: Float32Array;
  /** k × actionSize action features. */
  readonly a: Float32Array;
  readonly k: number;
  /** Policy target over the k actions. */
  readonly pi: Float32Array;
  /** Outcome for the player to move: +1 win, -1 loss, 0 draw. */
  z: number;
}

export interface GameRecord {
  readonly samples: Sample[];
  readonly returns: readonly number[];
  readonly plies: number;
}

export interface SelfPlayConfig {
  readonly puct: PuctConfig;
  /** Decisions (per game) played at temperature 1 before switching to 0. */
  readonly tempMoves: number;
  readonly maxPlies: number;
}

/** A chance outcome's action, drawn by its exact probability with one draw from `u`. */
export function sampleChance(game: AnyGame, s: unknown, u: () => number): unknown {
  const o = game.chanceOutcomes(s);
  let x = u();
  for (const c of o) {
    x -= c.p;
    if (x < 0) return c.action;
  }
  return o[o.length - 1]!.action;
}

function record(game: AnyGame, s: unknown, player: number, legal: readonly unknown[], pi: Float32Array): Sample {
  const enc = game.encoding!;
  const view = hasHiddenInformation(game) ? game.observe(s, player) : s;
  const st = new Float32Array(enc.stateSize);
  enc.encodeState(view, player, st, 0);
  const a = new Float32Array(legal.length * enc.actionSize);
  enc.encodeActions(view, player, legal, a, 0);
  return { s: st, a, k: legal.length, pi, z: 0 };
}

function finish(game: AnyGame, s: unknown, samples: (Sample & { player: number })[], plies: number): GameRecord {
  const tm = game.toMove(s);
  const r = tm.kind === 'terminal' ? game.returns(s) : game.players.map(() => 0); // an unfinished game (ply cap) counts as a draw
  for (const x of samples) x.z = r[x.player]!;
  return { samples: samples.map(({ s: st, a, k, pi, z }) => ({ s: st, a, k, pi, z })), returns: r, plies };
}

/**
 * Play one game from `initial`, sampling dice with `u`, passing forced moves, and asking `decide` at every real
 * decision for the policy target and the action to play; each such decision becomes a sample.
 */
async function playRecorded(
  game: AnyGame,
  initial: unknown,
  u: () => number,
  maxPlies: number,
  decide: (
    s: unknown,
    player: number,
    legal: readonly unknown[],
    decision: number,
  ) => Promise<{ pi: Float32Array; index: number }> | { pi: Float32Array; index: number },
): Promise<GameRecord> {
  let s = initial;
  let plies = 0;
  let decisions = 0;
  const samples: (Sample & { player: number })[] = [];
  for (; plies < maxPlies; plies++) {
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') break;
    if (tm.kind === 'chance') {
      s = game.applyUnchecked(s, sampleChance(game, s, u));
      continue;
    }
    const legal = game.legalActions(s);
    if (legal.length === 1) {
      s = game.applyUnchecked(s, legal[0]);
      continue;
    }
    const { pi, index } = await decide(s, tm.player, legal, decisions++);
    samples.push({ ...record(game, s, tm.player, legal, pi), player: tm.player });
    s = game.applyUnchecked(s, legal[index]);
  }
  return finish(game, s, samples, plies);
}

export async function selfPlayGame(
  game: AnyGame,
  initial: unknown,
  seed: string,
  net: NetEvaluator,
  cfg: SelfPlayConfig,
): Promise<GameRecord> {
  if (!game.encoding) throw new Error(`ruleset ${game.id} has no observation encoding`);
  const u = seedrandom(`selfplay/${seed}`);
  const search = new PuctSearch(game, net, cfg.puct, u);
  return playRecorded(game, initial, u, cfg.maxPlies, async (s, _player, _legal, decision) => {
    const res = await search.run(s);
    const tot = res.visits.reduce((a, b) => a + b, 0) || 1;
    return {
      pi: Float32Array.from(res.visits, (v) => v / tot),
      index: pickByVisits(res.visits, decision < cfg.tempMoves ? 1 : 0, u, res.priors),
    };
  });
}

/** The indices of the scripted player's top-scored actions (ties within 1e-9). */
export function scriptedBest(scores: readonly number[]): number[] {
  let top = -Infinity;
  for (const x of scores) top = Math.max(top, x);
  const best: number[] = [];
  scores.forEach((x, i) => x >= top - 1e-9 && best.push(i));
  return best;
}

/** The scripted player against itself (ε-random moves for variety); its preferred action is the policy target. */
export async function imitationGame(
  game: AnyGame,
  initial: unknown,
  seed: string,
  epsilon: number,
  maxPlies: number,
  keep = Infinity,
): Promise<GameRecord> {
  if (!game.encoding) throw new Error(`ruleset ${game.id} has no observation encoding`);
  const scores = game.policyScores?.bind(game);
  if (!scores) throw new Error(`ruleset ${game.id} has no scripted player to imitate (Game.policyScores)`);
  const u = seedrandom(`imitation/${seed}`);
  const r = await playRecorded(game, initial, u, maxPlies, (s, player, legal) => {
    // the scripted player scores what the mover may know, as it does in play (a state re-drawn from its view), so
    // neither its choice nor the policy target uses a secret
    const view = game.hidden?.(s, player) ? game.sampleState(s, player, u) : s;
    const best = scriptedBest(scores(view, legal));
    const pi = new Float32Array(legal.length);
    for (const i of best) pi[i] = 1 / best.length;
    const index = u() < epsilon ? Math.floor(u() * legal.length) : best[Math.floor(u() * best.length)]!;
    return { pi, index };
  });
  if (r.samples.length <= keep) return r;
  // keep a random subset (in game order): more games for the same memory means more varied value targets
  const idx = r.samples
    .map((_, i) => ({ i, k: u() }))
    .sort((a, b) => a.k - b.k)
    .slice(0, keep)
    .map((x) => x.i)
    .sort((a, b) => a - b);
  return { ...r, samples: idx.map((i) => r.samples[i]!) };
}
