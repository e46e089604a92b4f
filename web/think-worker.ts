/**
 * The computer's decisions for the web table, in a worker thread (piscina), so the server's event loop stays free
 * while a search runs: a task is plain data (the ruleset, the state, the seat and its agent spec), the answer is the
 * chosen action's key with the agent's explanation. The agent sees what a match driver shows it: its observation, the
 * legal actions and a state sampled from what it may know (`sampleState`), never the true hidden state.
 */
import seedrandom from 'seedrandom';
import type { Agent, Explanation } from '../agents/agent.ts';
import { createAgent } from '../agents/registry.ts';
import { findActionByKey } from '../engine/core/game.ts';
import { getRuleset } from '../engine/rulesets/index.ts';

export interface ThinkTask {
  /** The game's id at the table: a worker keeps each game's latest position and replays only what is new. */
  readonly game: string;
  readonly ruleset: string;
  /** The scenario file's JSON and every choice so far, by key (states are rebuilt here, never sent: a state may hold
   * what a thread cannot be sent, and the log is small). */
  readonly scenario: unknown;
  readonly keys: readonly string[];
  readonly player: number;
  readonly spec: string;
  /** The game's seed and ply: the agent's randomness is drawn from them, so a decision repeats. */
  readonly seed: string;
  readonly ply: number;
  /** "Think again": a different draw for the agent's randomness. */
  readonly attempt?: number;
}

export interface ThinkAnswer {
  readonly key: string;
  readonly explanation?: Explanation;
  readonly ms: number;
}

/** Agents are built once per spec in each worker (a network loads its weights once). */
const agents = new Map<string, Agent>();
/** Each game's latest position in this worker: its keys and state (the least recently used go past 200 games). */
const positions = new Map<string, { keys: readonly string[]; state: unknown }>();

/** The state after `keys`, from the longest prefix this worker already holds. */
function position(t: ThinkTask): unknown {
  const game = getRuleset(t.ruleset);
  const had = positions.get(t.game);
  let from = 0;
  let s: unknown;
  if (had && had.keys.length <= t.keys.length && had.keys.every((k, i) => t.keys[i] === k)) {
    from = had.keys.length;
    s = had.state;
  } else {
    const v = game.validateScenario(t.scenario);
    if (!v.ok) throw new Error(`the scenario is not valid: ${v.problems[0]?.message}`);
    s = game.initialState(v.value);
  }
  for (let i = from; i < t.keys.length; i++) {
    const a = findActionByKey(game, s, t.keys[i]!);
    if (a === undefined) throw new Error(`step ${i + 1} ("${t.keys[i]}") is not legal in the replayed game`);
    s = game.applyUnchecked(s, a);
  }
  positions.delete(t.game);
  positions.set(t.game, { keys: t.keys, state: s });
  if (positions.size > 200) positions.delete(positions.keys().next().value!);
  return s;
}

export default async function think(t: ThinkTask): Promise<ThinkAnswer> {
  const game = getRuleset(t.ruleset);
  const state = position(t);
  let agent = agents.get(t.spec);
  if (!agent) agents.set(t.spec, (agent = createAgent(t.spec)));
  const rng = seedrandom.alea(`${t.seed}|agent|${t.player}|${t.ply}|${t.attempt ?? 0}`);
  const legal = game.legalActions(state);
  const t0 = performance.now();
  const d = await agent.decide({
    game,
    player: t.player,
    observation: game.observe(state, t.player),
    legal,
    state: game.sampleState(state, t.player, rng),
    budget: {},
    rng,
  });
  const key = game.actionKey(d.action);
  if (!legal.some((a) => game.actionKey(a) === key))
    throw new Error(`agent ${t.spec} returned an illegal action "${key}"`);
  return { key, ...(d.explanation ? { explanation: d.explanation } : {}), ms: performance.now() - t0 };
}
