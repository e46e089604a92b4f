/**
 * The one interface every agent implements, from random play through search to a network.
 *
 * An agent sees only its side's observation and the legal actions. In-process agents may also get a state to
 * search from: for perfect-information rulesets the true state; for hidden information a sample consistent with
 * the observation, never the true state. Agents draw randomness only from the RNG they are given.
 */
import type { Game, GameEvent } from '../engine/core/game.ts';

export interface MatchInfo {
  readonly ruleset: string;
  readonly rulesetVersion: number;
  readonly scenarioId: string;
  readonly scenarioHash: string;
  /** This agent's seat. */
  readonly player: number;
  readonly players: readonly string[];
  /** For agents that start processes (external bots): what the host hides from them and how it tracks them. */
  readonly host?: BotHost;
}

/** What a match host tells an agent that runs a program. */
export interface BotHost {
  /** Paths the program must not see (the run folder). */
  readonly hide?: readonly string[];
  /** Called with the process group id when a program starts, and with `ended` when it is gone. */
  readonly track?: (pgid: number, ended: boolean) => void;
}

export interface Budget {
  /** Wall-clock milliseconds for this decision (search agents). */
  readonly ms?: number;
  /** Iterations / simulations for this decision (search agents). */
  readonly iterations?: number;
}

export interface DecisionContext<S = any, A = any> {
  readonly game: Game<S, A>;
  readonly player: number;
  readonly observation: unknown;
  readonly legal: readonly A[];
  /** A state to search from (see the interface contract above). */
  readonly state: S;
  readonly budget: Budget;
  /** The agent's own uniform generator in [0, 1). */
  readonly rng: () => number;
}

export interface Alternative {
  readonly action: string;
  readonly visits?: number;
  readonly value?: number;
  readonly note?: string;
}

export interface Explanation {
  readonly chosen: string;
  /** Estimated probability of winning from the agent's point of view, if it has one. */
  readonly winProbability?: number;
  readonly alternatives?: readonly Alternative[];
  readonly text?: string;
}

export interface Decision<A = any> {
  readonly action: A;
  readonly explanation?: Explanation;
  readonly stats?: Readonly<Record<string, number>>;
}

/** One applied step as one side sees it (see `Agent.observe`). */
export interface StepView {
  /** Who acted (-1: a chance outcome). */
  readonly player: number;
  readonly action: string;
  readonly hash: string;
  readonly chance: boolean;
  readonly events?: readonly GameEvent[];
}

export interface Agent {
  /** The spec string that made it, e.g. "random" or "mcts:ms=1000". */
  readonly spec: string;
  decide(ctx: DecisionContext): Promise<Decision>;
  /** Called at the start of each game, with the match's facts (external bots pass them on in their hello). */
  reset?(seed: string, match?: MatchInfo): void;
  /**
   * Told every applied step as this agent's side sees it: `action` is its view of the action or chance outcome (a
   * sealed choice of another side reads as the ruleset's redacted text), `hash` the hash of its own observation after
   * the step (never the full state's, which would betray what it cannot see), and, when the agent asks for them with
   * `wantsEvents`, the step's events with the secrets not addressed to it redacted.
   */
  observe?(event: StepView): void;
  /** Ask the driver to collect each step's events for `observe` (it costs time, so it is off unless asked). */
  readonly wantsEvents?: boolean;
  /** Told the result when the game ends. */
  end?(result: { readonly returns: readonly number[]; readonly text: string }): void | Promise<void>;
  /** Called when the agent is done (close processes, free resources). */
  close?(): Promise<void> | void;
}

export class AgentSpecError extends Error {
  readonly code = 'agent/bad-spec';
}

/** Parse `name[:key=value,...]`. */
export function parseSpec(spec: string): { name: string; params: Record<string, string> } {
  const m = /^([a-z][a-z0-9_-]*)(?::(.*))?$/i.exec(spec.trim());
  if (!m) throw new AgentSpecError(`bad agent spec "${spec}": expected name[:key=value,...]`);
  const params: Record<string, string> = {};
  if (m[2]) {
    for (const part of m[2].split(',')) {
      const kv = /^([a-z][a-z0-9_]*)=(.*)$/i.exec(part.trim());
      if (!kv) throw new AgentSpecError(`bad agent spec "${spec}": "${part}" is not key=value`);
      params[kv[1]!] = kv[2]!;
    }
  }
  return { name: m[1]!.toLowerCase(), params };
}

/**
 * Thrown by an agent to stop the game where it stands, with no result and no forfeit (a person taking a move back):
 * the match driver (arena/match.ts) returns the record so far with `interrupted` set, and does not tell the agents
 * the game ended.
 */
export class MatchInterrupt extends Error {}
