/** Worker-thread entry: play one match from plain data and return plain data (the replay as msgpack bytes). */
import { createAgent } from '../agents/registry.ts';
import { encodeReplay } from '../engine/core/replay.ts';
import { loadScenario } from './catalog.ts';
import { runMatch } from './match.ts';

export interface MatchTask {
  readonly id: string;
  /** Port for progress messages to the pool ({ player, phase } at each agent decision). */
  readonly port?: import('node:worker_threads').MessagePort;
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
  const r = await runMatch({
    game,
    scenario,
    scenarioId: id,
    seed: t.seed,
    agents,
    ...(t.budget ? { budget: t.budget } : {}),
    ...(t.port ? { onDecision: (player: number, phase: 'start' | 'end') => t.port!.postMessage({ player, phase }) } : {}),
  });
  t.port?.close();
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
