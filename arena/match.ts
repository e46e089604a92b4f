/**
 * Play one game between agents: the driver owns the dice (keyed by match seed and chance event), asks the agent to
 * move when more than one action is legal, records every step with its hash, and never loses what it recorded:
 * if an agent throws or answers with an illegal action, the game stops there, the offender forfeits and the
 * replay so far is returned with the reason. If the engine fails (an exception, or a decision with no legal action),
 * the game stops unfinished with no result: nobody forfeits for the engine's fault.
 */
import seedrandom from 'seedrandom';
import {
  type Agent,
  type BotHost,
  type Budget,
  type Decision,
  type Explanation,
  MatchInterrupt,
} from '../agents/agent.ts';
import { type AnyGame, type GameEvent, findActionByKey } from '../engine/core/game.ts';
import { hashHex, hashValue, setHashDebug, hashValueFresh } from '../engine/core/hash.ts';
import { actionView, eventsFor, hasHiddenInformation, observationHash } from '../engine/core/views.ts';
import { REPLAY_FORMAT, REPLAY_VERSION, type Replay, type ReplayStep } from '../engine/core/replay.ts';
import { keyedUniform, sampleOutcome } from './dice.ts';

export interface StepInfo {
  readonly ply: number;
  /** The state before the step. */
  readonly before: unknown;
  readonly after: unknown;
  /** The action or chance outcome applied (its key is `key`; `actionView` gives what a side saw of it). */
  readonly action: unknown;
  readonly key: string;
  /** Player index, or -1 for a chance outcome. */
  readonly player: number;
  readonly events: readonly GameEvent[];
  readonly dice?: readonly number[];
  readonly label?: string;
  readonly p?: number;
  readonly hash: string;
  readonly explanation?: Explanation;
  /** The step was taken from `MatchOptions.prefix` (a resumed or re-run game), not decided or rolled now. */
  readonly replayed?: boolean;
}

export interface MatchOptions {
  readonly game: AnyGame;
  readonly scenario: unknown;
  readonly scenarioId: string;
  readonly seed: string;
  readonly agents: readonly Agent[];
  readonly budget?: Budget;
  readonly maxPlies?: number;
  /** Recompute every hash from scratch and compare (slow; for tests and debugging). Default: EAGLES_HASH_DEBUG=1. */
  readonly debugHash?: boolean;
  /** Collect events (costs time; on for humans and logs). */
  readonly events?: boolean;
  readonly onStep?: (info: StepInfo) => void | Promise<void>;
  /** Called when an agent starts and finishes a decision (for clocks kept outside, e.g. by a worker pool). */
  readonly onDecision?: (player: number, phase: 'start' | 'end') => void;
  /** For agents that run programs: what to hide from them, and how their processes are tracked. */
  readonly host?: BotHost;
  /**
   * The game so far, as action keys (a replay's steps): they are played first, as recorded, with no agent asked and no
   * die rolled (a resumed game, or one re-run to take a move back); then play goes on as usual.
   */
  readonly prefix?: readonly string[];
}

export interface MatchResult {
  readonly replay: Replay;
  readonly returns: readonly number[];
  readonly text: string;
  readonly plies: number;
  readonly decisions: number;
  readonly engineMs: number;
  readonly agentMs: readonly number[];
  /** Every agent call's time in ms, per player. */
  readonly callMs: readonly (readonly number[])[];
  readonly aborted?: string;
  readonly forfeit?: number;
  readonly finalState: unknown;
  /** Set when an agent stopped the game with a `MatchInterrupt` (no result, nobody forfeits). */
  readonly interrupted?: MatchInterrupt;
}

/** Public API. @public */
export class AgentFailure extends Error {
  constructor(
    readonly player: number,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * The engine, not an agent, failed: a non-terminal state with nothing to choose, or a chance node with no outcome.
 * The game stops unfinished with no result and nobody forfeits; the message names the ruleset, the decision and the
 * state hash so that the position can be found again from the replay.
 * Public API. @public
 */
export class EngineError extends Error {
  readonly code = 'engine/dead-end';
}

function deadEnd(game: AnyGame, s: unknown, what: string): EngineError {
  let decision = '';
  try {
    decision = game.describeDecision?.(s) ?? '';
  } catch {
    // the description is a courtesy: the hash still names the state
  }
  return new EngineError(
    `engine error: ${what} in a non-terminal state (ruleset ${game.id}${decision ? `, decision: ${decision}` : ''}, state ${hashHex(game.hash(s))})`,
  );
}

export async function runMatch(o: MatchOptions): Promise<MatchResult> {
  const { game, seed } = o;
  const debugHash = o.debugHash ?? process.env.EAGLES_HASH_DEBUG === '1';
  if (debugHash) setHashDebug(true);
  const steps: ReplayStep[] = [];
  const agentMs = o.agents.map(() => 0);
  const callMs: number[][] = o.agents.map(() => []);
  const agentRng = o.agents.map((_, i) => seedrandom.alea(`${seed}|agent|${i}`));
  const scenarioHash = hashHex(hashValue(o.scenario));
  o.agents.forEach((a, i) =>
    a.reset?.(seed, {
      ruleset: game.id,
      rulesetVersion: game.version,
      scenarioId: o.scenarioId,
      scenarioHash,
      player: i,
      players: game.players,
      ...(o.host ? { host: o.host } : {}),
    }),
  );
  let engineMs = 0;
  let decisions = 0;
  let t = performance.now();
  let s = game.initialState(o.scenario);
  const initialHash = hashHex(game.hash(s));
  engineMs += performance.now() - t;
  const maxPlies = o.maxPlies ?? 200_000;
  let aborted: string | undefined;
  let forfeit: number | undefined;
  let interrupted: MatchInterrupt | undefined;
  const prefix = o.prefix ?? [];
  const want = !!(o.events || o.onStep || o.agents.some((a) => a.wantsEvents));
  // each side hears of a step only what it sees (rulesets that hide nothing: the key and the state hash, shared)
  const hidden = hasHiddenInformation(game);
  try {
    for (let ply = 0; ; ply++) {
      t = performance.now();
      const tm = game.toMove(s);
      if (tm.kind === 'terminal') {
        engineMs += performance.now() - t;
        break;
      }
      if (ply >= maxPlies) throw new Error(`game exceeded ${maxPlies} plies`);
      let action: unknown;
      let player = -1;
      let dice: readonly number[] | undefined;
      let label: string | undefined;
      let prob: number | undefined;
      let explanation: Explanation | undefined;
      const replayed = ply < prefix.length;
      if (replayed) {
        action = findActionByKey(game, s, prefix[ply]!);
        if (action === undefined)
          throw new Error(`step ${ply + 1} of the game so far, "${prefix[ply]}", is not legal here`);
        player = tm.kind === 'chance' ? -1 : tm.player;
        engineMs += performance.now() - t;
      } else if (tm.kind === 'chance') {
        const outs = game.chanceOutcomes(s);
        if (!outs.length) throw deadEnd(game, s, 'no chance outcome');
        const key = game.chanceKey(s);
        const pick = sampleOutcome(outs, keyedUniform(seed, key)());
        action = pick.action;
        label = pick.label;
        prob = pick.p;
        if (want && game.diceFaces) dice = game.diceFaces(s, action, keyedUniform(seed, `${key}/faces`));
        engineMs += performance.now() - t;
      } else {
        player = tm.player;
        const legal = game.legalActions(s);
        engineMs += performance.now() - t;
        if (!legal.length) throw deadEnd(game, s, 'no legal action');
        if (legal.length === 1) action = legal[0];
        else {
          const agent = o.agents[player];
          if (!agent) throw new AgentFailure(player, `no agent for player ${player}`);
          const t0 = performance.now();
          o.onDecision?.(player, 'start');
          let d: Decision | undefined;
          try {
            d = await agent.decide({
              game,
              player,
              observation: game.observe(s, player),
              legal,
              state: game.sampleState(s, player, agentRng[player]!),
              budget: o.budget ?? {},
              rng: agentRng[player]!,
            });
          } catch (e) {
            if (e instanceof MatchInterrupt) throw e;
            throw new AgentFailure(
              player,
              `agent ${agent.spec} (player ${game.players[player]}) failed: ${(e as Error).message}`,
            );
          }
          o.onDecision?.(player, 'end');
          const dt = performance.now() - t0;
          agentMs[player]! += dt;
          callMs[player]!.push(dt);
          decisions++;
          const key = d && d.action !== undefined ? safeKey(game, d.action) : undefined;
          const match = key === undefined ? undefined : legal.find((a) => game.actionKey(a) === key);
          if (match === undefined)
            throw new AgentFailure(
              player,
              `agent ${agent.spec} (player ${game.players[player]}) returned an illegal action ${key === undefined ? '(none or malformed)' : `"${key}"`}`,
            );
          action = match;
          explanation = d.explanation;
        }
      }
      t = performance.now();
      const events: GameEvent[] | undefined = want ? [] : undefined;
      const before = s;
      const key = game.actionKey(action);
      s = game.applyUnchecked(s, action, events);
      const h = game.hash(s);
      if (debugHash) {
        const fresh = hashValueFresh(s);
        if (fresh.hi !== h.hi || fresh.lo !== h.lo) throw new Error(`hash drift after "${key}"`);
      }
      const hex = hashHex(h);
      engineMs += performance.now() - t;
      steps.push({ a: key, c: player < 0 ? 1 : 0, h: hex, p: player });
      o.agents.forEach((ag, i) => {
        if (!ag.observe) return;
        const seen = ag.wantsEvents && events ? { events: hidden ? eventsFor(events, i) : events } : {};
        if (!hidden) return ag.observe({ player, action: key, hash: hex, chance: player < 0, ...seen });
        ag.observe({
          player,
          action: actionView(game, before, action, i),
          hash: hashHex(observationHash(game, s, i)),
          chance: player < 0,
          ...seen,
        });
      });
      if (o.onStep)
        await o.onStep({
          ply,
          before,
          after: s,
          action,
          key,
          player,
          events: events ?? [],
          dice,
          label,
          p: prob,
          hash: hex,
          explanation,
          ...(replayed ? { replayed } : {}),
        });
    }
  } catch (e) {
    if (e instanceof MatchInterrupt) interrupted = e;
    else {
      aborted = (e as Error).message;
      if (e instanceof AgentFailure) forfeit = e.player;
    }
  } finally {
    if (debugHash) setHashDebug(false);
  }
  const terminal = game.toMove(s).kind === 'terminal';
  let returns: readonly number[];
  let text: string;
  if (terminal && !aborted) {
    returns = game.returns(s);
    text = game.resultText(s);
  } else if (forfeit !== undefined) {
    returns = game.players.map((_, i) => (i === forfeit ? -1 : 1));
    text = `${game.players[forfeit]} forfeits: ${aborted}`;
  } else {
    returns = game.players.map(() => 0);
    text = interrupted ? `interrupted: ${interrupted.message}` : `aborted: ${aborted}`;
  }
  for (const a of interrupted ? [] : o.agents) {
    try {
      await a.end?.({ returns, text });
    } catch {
      // an agent failing to hear the result changes nothing already decided
    }
  }
  const replay: Replay = {
    format: REPLAY_FORMAT,
    version: REPLAY_VERSION,
    ruleset: game.id,
    rulesetVersion: game.version,
    scenarioId: o.scenarioId,
    scenarioHash,
    scenario: o.scenario,
    seed,
    agents: o.agents.map((a) => a.spec),
    initialHash,
    steps,
    finalHash: hashHex(game.hash(s)),
    result: terminal && !aborted ? { returns: [...returns], text } : null,
    ...(aborted ? { aborted } : {}),
  };
  return {
    replay,
    returns,
    text,
    plies: steps.length,
    decisions,
    engineMs,
    agentMs,
    callMs,
    aborted,
    forfeit,
    finalState: s,
    ...(interrupted ? { interrupted } : {}),
  };
}

function safeKey(game: AnyGame, a: unknown): string | undefined {
  try {
    const k = game.actionKey(a);
    return typeof k === 'string' ? k : undefined;
  } catch {
    return undefined;
  }
}
