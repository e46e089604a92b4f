/**
 * Decision bench (`eagles bench --decisions`): how good are an agent's single decisions, measured without playing
 * whole matches. Search variants can be compared on equal budgets in minutes where a 200-game match takes hours.
 *
 * 1. Positions: decisions sampled one per game from the scripted player's self-play, with a few random moves
 *    (`epsilon`) so the positions are not all on one line. Deterministic for a seed.
 * 2. Truth: for each position, the scripted player's top `candidates` actions (the first legal ones where a ruleset
 *    has no scripted player), and any action an agent picks outside them, are valued by `playouts` games played out
 *    to the end by the scripted player (random moves where there is none), from the mover's point of view in [-1, 1].
 * 3. Each agent decides every position once with the budget given (a fresh agent per position: no tree reuse), and
 *    its regret is the best candidate's value minus the value of its choice.
 *
 * The truth is the value of handing the game to the scripted player after the move, the thing whole-game scripted
 * rollouts estimate; its noise (about ±1/√playouts per value) adds to every agent's regret. The truth can be cached in
 * a file (`--truth-file`) and reused for later comparisons on the same positions.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import type { Budget } from '../agents/agent.ts';
import { createAgent } from '../agents/registry.ts';
import type { AnyGame } from '../engine/core/game.ts';
import { loadScenario } from './catalog.ts';
import { sampleOutcome } from './dice.ts';

export interface DecisionBenchOptions {
  ruleset?: string;
  scenario?: string;
  positions: number;
  playouts: number;
  candidates: number;
  agents: readonly string[];
  budget: Budget;
  seed: string;
  epsilon?: number;
  truthFile?: string;
  onProgress?: (what: string, done: number, total: number) => void;
}

interface PositionTruth {
  /** Candidate action keys, the scripted player's order. */
  keys: string[];
  /** Value of each candidate for the mover. */
  values: number[];
}

interface DecisionRow {
  agent: string;
  decisions: number;
  meanRegret: number;
  /** Standard error of the mean regret. */
  regretSe: number;
  /** Share of decisions that took the best candidate. */
  best: number;
  /** Share of decisions that took the scripted player's first choice. */
  scripted: number;
  /** Decisions outside the candidates (valued on the fly). */
  outside: number;
  meanMs: number;
}

function chanceStep(game: AnyGame, s: unknown, rng: () => number): unknown {
  return game.applyUnchecked(s, sampleOutcome(game.chanceOutcomes(s), rng()).action);
}

function scriptedAction(
  game: AnyGame,
  s: unknown,
  legal: readonly unknown[],
  rng: () => number,
  epsilon: number,
): unknown {
  if (!game.policyScores || rng() < epsilon) return legal[Math.floor(rng() * legal.length)];
  const sc = game.policyScores(s, legal);
  let b = 0;
  for (let i = 1; i < sc.length; i++) if (sc[i]! > sc[b]!) b = i;
  return legal[b];
}

/** A game played out by the scripted player; returns player 0's result. */
function scriptedPlayout(game: AnyGame, s0: unknown, rng: () => number): number {
  let s = s0;
  for (;;) {
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') return game.returns(s)[0]!;
    s =
      tm.kind === 'chance'
        ? chanceStep(game, s, rng)
        : game.applyUnchecked(s, scriptedAction(game, s, game.legalActions(s), rng, 0));
  }
}

/** One decision per game of scripted self-play (with `epsilon` random moves), at a uniformly drawn decision. */
function samplePositions(game: AnyGame, scenario: unknown, n: number, seed: string, epsilon: number): unknown[] {
  const rng = seedrandom.alea(`${seed}:positions`);
  const out: unknown[] = [];
  for (let guard = 0; out.length < n; guard++) {
    if (guard > 10 * n + 100)
      throw new Error(`decision bench: scripted games of ${game.id} offer no decisions with a choice`);
    let s: unknown = game.initialState(scenario);
    const seen: unknown[] = [];
    for (;;) {
      const tm = game.toMove(s);
      if (tm.kind === 'terminal') break;
      if (tm.kind === 'chance') {
        s = chanceStep(game, s, rng);
        continue;
      }
      const legal = game.legalActions(s);
      if (legal.length > 1) seen.push(s);
      s = game.applyUnchecked(s, scriptedAction(game, s, legal, rng, epsilon));
    }
    if (seen.length) out.push(seen[Math.floor(rng() * seen.length)]);
  }
  return out;
}

function actionValue(game: AnyGame, s: unknown, action: unknown, playouts: number, rng: () => number): number {
  const mover = (game.toMove(s) as { player: number }).player;
  const child = game.applyUnchecked(s, action);
  let sum = 0;
  for (let i = 0; i < playouts; i++) sum += scriptedPlayout(game, child, rng);
  return ((mover === 0 ? 1 : -1) * sum) / playouts;
}

function candidateActions(game: AnyGame, s: unknown, k: number): unknown[] {
  const legal = game.legalActions(s);
  if (!game.policyScores) return legal.slice(0, k);
  const sc = game.policyScores(s, legal);
  return legal
    .map((a, i) => ({ a, i }))
    .sort((x, y) => sc[y.i]! - sc[x.i]! || x.i - y.i)
    .slice(0, k)
    .map((x) => x.a);
}

export type DecisionBenchResult = {
  ruleset: string;
  scenario: string;
  positions: number;
  truth: PositionTruth[];
  rows: DecisionRow[];
};

/** The decision bench on a ruleset's scenario from the catalog. */
export function decisionBench(o: DecisionBenchOptions): Promise<DecisionBenchResult> {
  const { game, scenario, id } = loadScenario(o.ruleset ?? 'march-of-eagles', o.scenario);
  return decisionBenchOn(game, scenario, id, o);
}

/** The decision bench on any game and scenario. */
export async function decisionBenchOn(
  game: AnyGame,
  scenario: unknown,
  id: string,
  o: DecisionBenchOptions,
): Promise<DecisionBenchResult> {
  if (!(o.positions >= 1) || !(o.playouts >= 1) || !(o.candidates >= 1))
    throw new Error('decision bench: positions, playouts and candidates must be at least 1');
  const eps = o.epsilon ?? 0.05;
  const agents = o.agents.map((spec) => ({ spec, make: () => createAgent(spec) }));
  agents.forEach((a) => a.make()); // bad specs fail before any work
  const params = {
    ruleset: game.id,
    scenario: id,
    positions: o.positions,
    playouts: o.playouts,
    candidates: o.candidates,
    seed: o.seed,
    epsilon: eps,
  };
  const positions = samplePositions(game, scenario, o.positions, o.seed, eps);
  let truth: PositionTruth[] | undefined;
  if (o.truthFile && existsSync(o.truthFile)) {
    let cached: { params: typeof params; truth: PositionTruth[] };
    try {
      cached = JSON.parse(readFileSync(o.truthFile, 'utf8'));
    } catch (e) {
      throw new Error(`decision bench: truth file ${o.truthFile} is not readable JSON (${(e as Error).message})`);
    }
    const want = JSON.stringify(params);
    if (JSON.stringify(cached.params) !== want)
      throw new Error(
        `decision bench: truth file ${o.truthFile} was made for ${JSON.stringify(cached.params)}, not ${want}`,
      );
    truth = cached.truth;
  }
  const rng = seedrandom.alea(`${o.seed}:truth`);
  if (!truth) {
    truth = positions.map((p, i) => {
      o.onProgress?.('truth', i, positions.length);
      const cands = candidateActions(game, p, o.candidates);
      return {
        keys: cands.map((a) => game.actionKey(a)),
        values: cands.map((a) => actionValue(game, p, a, o.playouts, rng)),
      };
    });
    o.onProgress?.('truth', positions.length, positions.length);
    if (o.truthFile) writeFileSync(o.truthFile, JSON.stringify({ params, truth }));
  }
  const rows: DecisionRow[] = [];
  for (const a of agents) {
    const regrets: number[] = [];
    let best = 0;
    let scripted = 0;
    let outside = 0;
    let ms = 0;
    for (let i = 0; i < positions.length; i++) {
      o.onProgress?.(a.spec, i, positions.length);
      const state = positions[i]!;
      const t = truth[i]!;
      const player = (game.toMove(state) as { player: number }).player;
      const legal = game.legalActions(state);
      const t0 = performance.now();
      const d = await a.make().decide({
        game,
        player,
        observation: game.observe(state, player),
        legal,
        state,
        budget: o.budget,
        rng: seedrandom.alea(`${o.seed}:${a.spec}:${i}`),
      });
      ms += performance.now() - t0;
      const key = game.actionKey(d.action);
      let k = t.keys.indexOf(key);
      let v: number;
      if (k < 0) {
        outside++;
        v = actionValue(game, state, d.action, o.playouts, rng);
      } else v = t.values[k]!;
      const top = Math.max(...t.values, v);
      regrets.push(top - v);
      if (v === top) best++;
      if (k === 0) scripted++;
    }
    o.onProgress?.(a.spec, positions.length, positions.length);
    const n = regrets.length;
    const mean = regrets.reduce((x, y) => x + y, 0) / n;
    const sd = Math.sqrt(regrets.reduce((x, y) => x + (y - mean) ** 2, 0) / Math.max(1, n - 1));
    rows.push({
      agent: a.spec,
      decisions: n,
      meanRegret: mean,
      regretSe: sd / Math.sqrt(n),
      best: best / n,
      scripted: scripted / n,
      outside,
      meanMs: ms / n,
    });
  }
  return { ruleset: game.id, scenario: id, positions: positions.length, truth, rows };
}

export function printDecisionBench(r: DecisionBenchResult, playouts: number): void {
  console.log(
    `decision quality on ${r.ruleset}/${r.scenario}: ${r.positions} positions, each candidate valued by ${playouts} scripted playouts`,
  );
  const head = ['agent', 'regret', '±se', 'best', 'scripted', 'outside', 'ms/decision'];
  const body = r.rows.map((x) => [
    x.agent,
    x.meanRegret.toFixed(4),
    x.regretSe.toFixed(4),
    `${(x.best * 100).toFixed(0)}%`,
    `${(x.scripted * 100).toFixed(0)}%`,
    String(x.outside),
    x.meanMs.toFixed(0),
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => (i === 0 ? x.padEnd(w[i]!) : x.padStart(w[i]!))).join('  ');
  console.log(line(head));
  console.log(w.map((n) => '-'.repeat(n)).join('  '));
  for (const b of body) console.log(line(b));
  console.log(
    '(regret: value of the best candidate minus the value of the choice, in [-1, 1] result units; lower is better)',
  );
}
