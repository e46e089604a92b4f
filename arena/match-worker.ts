/** Worker-thread entry: play one match from plain data and return plain data (the replay as msgpack bytes). */
import { createAgent } from '../agents/registry.ts';
import { encodeReplay } from '../engine/core/replay.ts';
import { loadScenario } from './catalog.ts';
import { runMatch } from './match.ts';

export interface MatchTask {
  readonly id: string;
  readonly ruleset: string;
  readonly scenario: string;
  readonly seed: string;
  readonly agents: readonly string[];
  readonly budget?: { ms?: number; iterations?: number };
}

export interface MatchOutcome {
  readonly id: string;
  readonly returns: readonly number[];
  readonly text: string;
  readonly plies: number;
  readonly decisions: number;
  readonly engineMs: number;
  readonly agentMs: readonly number[];
  readonly finalHash: string;
  readonly replay: Uint8Array;
  readonly aborted?: string;
  readonly forfeit?: number;
}

export default async function playTask(t: MatchTask): Promise<MatchOutcome> {
  const { game, scenario, id } = loadScenario(t.ruleset, t.scenario);
  const agents = t.agents.map((spec) => createAgent(spec));
  const r = await runMatch({ game, scenario, scenarioId: id, seed: t.seed, agents, ...(t.budget ? { budget: t.budget } : {}) });
  for (const a of agents) await a.close?.();
  return {
    id: t.id,
    returns: r.returns,
    text: r.text,
    plies: r.plies,
    decisions: r.decisions,
    engineMs: r.engineMs,
    agentMs: r.agentMs,
    finalHash: r.replay.finalHash,
    replay: encodeReplay(r.replay),
    ...(r.aborted ? { aborted: r.aborted } : {}),
    ...(r.forfeit !== undefined ? { forfeit: r.forfeit } : {}),
  };
}
