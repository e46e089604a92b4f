/** Worker-thread entry: play one match from plain data and return plain data (the replay as msgpack bytes). */
import type { BotHost } from '../agents/agent.ts';
import { createAgent } from '../agents/registry.ts';
import { encodeReplay } from '../engine/core/replay.ts';
import { loadScenario } from './catalog.ts';
import { type MatchResult, runMatch } from './match.ts';

export interface MatchTask {
  readonly id: string;
  /**
   * Shared with the pool: Int32 [0] = player deciding now + 1 (0 = none), Float64 at byte 8 = when that decision
   * began (epoch ms). The pool reads it for decision clocks and to know who was on the move if the worker dies.
   */
  readonly clock?: SharedArrayBuffer;
  readonly ruleset: string;
  readonly scenario: string;
  readonly seed: string;
  readonly agents: readonly string[];
  readonly budget?: { ms?: number; iterations?: number };
  /** Paths external bots must not see (the run folder). */
  readonly hide?: readonly string[];
}

/** Bytes of the shared clock buffer: who decides (Int32 at 0), since when (Float64 at 8), bot process groups. */
export const CLOCK_BYTES = 16 + 4 * 8;

/** Record the process groups of the game's bots in the shared buffer, so the pool can end them if it ends us. */
function groupWriter(sab: SharedArrayBuffer): BotHost['track'] {
  const slots = new Int32Array(sab, 16, 8);
  return (pgid, ended) => {
    for (let i = 0; i < slots.length; i++) {
      const v = Atomics.load(slots, i);
      if (ended ? v === pgid : v === 0) {
        Atomics.store(slots, i, ended ? 0 : pgid);
        return;
      }
    }
  };
}

/** What a worker returns: the match result without its final state, and the replay as msgpack bytes. */
export type MatchOutcome = Omit<MatchResult, 'replay' | 'finalState'> & {
  readonly id: string;
  readonly finalHash: string;
  readonly replay: Uint8Array;
};

function clockWriter(sab: SharedArrayBuffer): (player: number, phase: 'start' | 'end') => void {
  const who = new Int32Array(sab, 0, 1);
  const since = new Float64Array(sab, 8, 1);
  return (player, phase) => {
    if (phase === 'start') {
      since[0] = Date.now();
      Atomics.store(who, 0, player + 1);
    } else Atomics.store(who, 0, 0);
  };
}

const scenarios = new Map<string, ReturnType<typeof loadScenario>>();

export default async function playTask(t: MatchTask): Promise<MatchOutcome> {
  // scenarios are read and validated once per worker
  const key = `${t.ruleset}/${t.scenario}`;
  let sc = scenarios.get(key);
  if (!sc) {
    sc = loadScenario(t.ruleset, t.scenario);
    scenarios.set(key, sc);
  }
  const { game, scenario, id } = sc;
  const agents = t.agents.map((spec) => createAgent(spec));
  const r = await runMatch({
    game,
    scenario,
    scenarioId: id,
    seed: t.seed,
    agents,
    ...(t.budget ? { budget: t.budget } : {}),
    ...(t.clock ? { onDecision: clockWriter(t.clock) } : {}),
    host: { hide: t.hide ?? [], ...(t.clock ? { track: groupWriter(t.clock) } : {}) },
  });
  for (const a of agents) await a.close?.();
  const { replay, finalState: _final, ...rest } = r;
  return { ...rest, id: t.id, finalHash: replay.finalHash, replay: encodeReplay(replay) };
}
