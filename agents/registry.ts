/** One registry of agents, named by spec strings `name[:key=value,...]`. */
import { type Agent, AgentSpecError, parseSpec } from './agent.ts';
import { RandomAgent } from './random.ts';

export interface AgentFactory {
  readonly name: string;
  readonly description: string;
  /** Parameter names with their descriptions. */
  readonly params: Readonly<Record<string, string>>;
  create(spec: string, params: Readonly<Record<string, string>>): Agent;
}

const factories = new Map<string, AgentFactory>();

export function registerAgent(f: AgentFactory): void {
  factories.set(f.name, f);
}

export function listAgents(): AgentFactory[] {
  return [...factories.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Build an agent from its spec; unknown names or parameters are refused with the known ones listed. */
export function createAgent(spec: string): Agent {
  const { name, params } = parseSpec(spec);
  const f = factories.get(name);
  if (!f) throw new AgentSpecError(`unknown agent "${name}" in spec "${spec}"; known agents: ${[...factories.keys()].sort().join(', ')}`);
  for (const k of Object.keys(params))
    if (!(k in f.params))
      throw new AgentSpecError(`agent "${name}" has no parameter "${k}"; its parameters: ${Object.keys(f.params).join(', ') || '(none)'}`);
  return f.create(spec, params);
}

registerAgent({
  name: 'random',
  description: 'uniformly random legal actions',
  params: {},
  create: (spec) => new RandomAgent(spec),
});
