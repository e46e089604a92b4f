/** One registry of agents, named by spec strings `name[:key=value,...]`. */
import { type Agent, AgentSpecError, type Decision, type DecisionContext, parseSpec } from './agent.ts';
import { RandomAgent } from './random.ts';
import { HeuristicAgent } from './heuristic.ts';
import { DEFAULT_MCTS, MctsAgent, type MctsConfig } from './mcts.ts';
import { ExtAgent } from './ext.ts';
import { DEFAULT_LIMITS } from './sandbox.ts';
import { NeuralAgent } from './neural/agent.ts';
import { suggest } from '../engine/core/suggest.ts';

export interface AgentFactory {
  readonly name: string;
  readonly description: string;
  /** Parameter names with their descriptions. */
  readonly params: Readonly<Record<string, string>>;
  create(spec: string, params: Readonly<Record<string, string>>): Agent;
  /** A diagnostic for tests: created by name, but left out of listings, suggestions and error messages. */
  readonly hidden?: boolean;
}

const factories = new Map<string, AgentFactory>();

/** Public API. @public */
export function registerAgent(f: AgentFactory): void {
  factories.set(f.name, f);
}

/** Any registered agent by name, the hidden diagnostics included (for reading records that name them). */
export function findAgent(name: string): AgentFactory | undefined {
  return factories.get(name);
}

/** The agents a user may pick, by name (not the hidden diagnostics). */
export function listAgents(): AgentFactory[] {
  return [...factories.values()].filter((f) => !f.hidden).sort((a, b) => a.name.localeCompare(b.name));
}

/** Build an agent from its spec; unknown names or parameters are refused with the known ones listed. */
export function createAgent(spec: string): Agent {
  const { name, params } = parseSpec(spec);
  const f = factories.get(name);
  if (!f) {
    const known = listAgents().map((a) => a.name);
    const near = suggest(name, known);
    throw new AgentSpecError(
      `unknown agent "${name}" in spec "${spec}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; known agents: ${known.join(', ')}`,
    );
  }
  for (const k of Object.keys(params))
    if (!(k in f.params)) {
      const near = suggest(k, Object.keys(f.params));
      throw new AgentSpecError(
        `agent "${name}" has no parameter "${k}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; its parameters: ${Object.keys(f.params).join(', ') || '(none)'}`,
      );
    }
  return f.create(spec, params);
}

registerAgent({
  name: 'random',
  description: 'uniformly random legal actions',
  params: {},
  create: (spec) => new RandomAgent(spec),
});

function num(
  spec: string,
  k: string,
  v: string | undefined,
  d: number,
  min: number,
  max = Infinity,
  int = false,
): number {
  if (v === undefined) return d;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max || (int && !Number.isInteger(n)))
    throw new AgentSpecError(
      `agent spec "${spec}": ${k}=${v} must be ${int ? 'an integer' : 'a number'} ${max < Infinity ? `in [${min}, ${max}]` : `≥ ${min}`}`,
    );
  return n;
}
function bool(spec: string, k: string, v: string | undefined, d: boolean): boolean {
  if (v === undefined) return d;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new AgentSpecError(`agent spec "${spec}": ${k}=${v} must be true or false`);
}

registerAgent({
  name: 'heuristic',
  description: "the ruleset's scripted player (best action by its tactics)",
  params: { epsilon: 'probability of a random move instead (default 0)' },
  create: (spec, p) => new HeuristicAgent(spec, num(spec, 'epsilon', p.epsilon, 0, 0, 1)),
});

function mctsConfig(spec: string, p: Readonly<Record<string, string>>, base: MctsConfig = DEFAULT_MCTS): MctsConfig {
  const leaf = p.leaf ?? base.leaf;
  if (leaf !== 'random' && leaf !== 'heuristic' && leaf !== 'eval')
    throw new AgentSpecError(`agent spec "${spec}": leaf=${leaf} must be random, heuristic or eval`);
  const ms = p.ms !== undefined ? num(spec, 'ms', p.ms, 0, 1) : base.ms;
  const sh = num(spec, 'sh', p.sh, base.sh, 0, Infinity, true);
  if (sh === 1)
    throw new AgentSpecError(`agent spec "${spec}": sh=1 must be 0 (off) or at least 2 (the moves to halve among)`);
  return {
    iterations: num(spec, 'it', p.it, base.iterations, 1, Infinity, true),
    ...(ms !== undefined ? { ms } : {}),
    c: num(spec, 'c', p.c, base.c, 0),
    leaf,
    depth: p.depth === 'inf' ? Infinity : num(spec, 'depth', p.depth, base.depth, 0, Infinity, true),
    quiet: num(spec, 'quiet', p.quiet, base.quiet, 0, Infinity, true),
    widenK: num(spec, 'widen', p.widen, base.widenK, 0),
    widenAlpha: num(spec, 'alpha', p.alpha, base.widenAlpha, 0, 1),
    prior: bool(spec, 'prior', p.prior, base.prior),
    epsilon: num(spec, 'epsilon', p.epsilon, base.epsilon, 0, 1),
    reuse: bool(spec, 'reuse', p.reuse, base.reuse),
    early: bool(spec, 'early', p.early, base.early),
    paired: bool(spec, 'paired', p.paired, base.paired),
    sh,
  };
}

const MCTS_PARAMS = {
  it: 'iterations per decision (default 1000; deterministic for a seed)',
  ms: 'milliseconds per decision (overrides it)',
  c: 'UCT exploration constant (default 0.5)',
  leaf: 'leaf evaluation: random | heuristic (ε-greedy scripted rollout; default) | eval (random rollout), each then the evaluation',
  depth: 'rollout plies before the evaluation is used (default 120; inf = play to the end)',
  quiet:
    'past depth, play on up to N plies to a quiet position (nothing half-resolved) before evaluating (default 20; 0 evaluates at depth)',
  widen: 'progressive widening k (default 1; 0 = off)',
  alpha: 'progressive widening exponent (default 0.3)',
  prior: "order new actions by the ruleset's scripted preferences (default true)",
  epsilon: 'random-move probability in heuristic rollouts (default 0)',
  reuse: 'reuse the tree between decisions (default true)',
  early: 'with ms: stop once the leading action cannot be overtaken in the time left (default false)',
  paired: 'paired dice: the k-th iteration through every root action uses the same dice (default true)',
  sh: 'sequential halving at the root over the first N moves in prior order (default 0 = UCT at the root)',
};

registerAgent({
  name: 'mcts',
  description: 'Monte Carlo tree search with chance nodes, determinization and progressive widening',
  params: MCTS_PARAMS,
  create: (spec, p) => new MctsAgent(spec, mctsConfig(spec, p)),
});

/**
 * `expert`'s search where the default would see too few lines in its second. On Napoleon's Eagles and Charge! Eagles
 * Rising a ply builds its menus from the table's geometry, so a 120-ply scripted rollout costs a tenth of a second:
 * one second bought about 8 iterations on The Chapel Crossroads and on Kleinau (a mid-game position, the machine
 * loaded). Rollouts cut at 30 plies and valued by the ruleset's evaluation run 2–4× as many there (35 and 18), and
 * are the settings measured against the scripted player (`mcts:…,depth=30`: 79.0% on Napoleon's Eagles' quick-test,
 * 64.5% on Charge! Eagles Rising's; docs/strength.md). Keyed by ruleset id; a ruleset not listed uses `DEFAULT_MCTS`.
 */
const EXPERT_SEARCH: Readonly<Record<string, Partial<MctsConfig>>> = {
  'napoleons-eagles': { depth: 30 },
  'charge-eagles-rising': { depth: 30 },
};

/** The search settings `expert` plays ruleset `rulesetId` with. */
export function expertConfig(rulesetId: string): MctsConfig {
  return { ...DEFAULT_MCTS, ...EXPERT_SEARCH[rulesetId], ms: 1000 };
}

/** `expert`: MCTS at one second a decision, with its ruleset's settings (`expertConfig`), one search per game. */
class ExpertAgent implements Agent {
  private inner: { game: unknown; agent: MctsAgent } | null = null;
  constructor(readonly spec: string) {}
  reset(): void {
    this.inner?.agent.reset();
  }
  decide(ctx: DecisionContext): Promise<Decision> {
    if (this.inner?.game !== ctx.game)
      this.inner = { game: ctx.game, agent: new MctsAgent(this.spec, expertConfig(ctx.game.id)) };
    return this.inner.agent.decide(ctx);
  }
}

/**
 * Difficulty levels for human play: each is an agent and a budget, ordered by measured strength (paired-seed
 * matches; see the README). `expert` is the search player: MCTS over the scripted tactics with scripted-player
 * rollouts (120 plies and the fitted evaluation; 30 plies where `EXPERT_SEARCH` says so), one second per decision.
 * Public API. @public
 */
export const DIFFICULTIES: Readonly<Record<string, { description: string; make: (spec: string) => Agent }>> = {
  easy: {
    description: 'scripted play with a third of its moves random',
    make: (spec) => new HeuristicAgent(spec, 0.33),
  },
  normal: {
    description: 'scripted play with one move in ten random (answers at once)',
    make: (spec) => new HeuristicAgent(spec, 0.1),
  },
  hard: {
    description: 'the scripted player, no randomness (answers at once)',
    make: (spec) => new HeuristicAgent(spec, 0),
  },
  expert: {
    description: 'MCTS, 1 s per decision, searching over the scripted tactics',
    make: (spec) => new ExpertAgent(spec),
  },
};
for (const [name, d] of Object.entries(DIFFICULTIES))
  registerAgent({
    name,
    description: `difficulty level: ${d.description}`,
    params: {},
    create: (spec) => d.make(spec),
  });

registerAgent({
  name: 'neural',
  description:
    "a trained policy/value network, played directly, guiding a PUCT search, or judging the mcts agent's leaves",
  params: {
    model: 'model directory (model.json + weights.bin), or a name under data/models/',
    mode: "policy (the network's best action; default) | puct (search guided by the network) | mcts (the mcts agent, its cut rollouts valued by the network)",
    sims: 'PUCT simulations per decision (default 64)',
    c: 'PUCT exploration constant (default 1.5); with mode=mcts the UCT constant (default 0.5)',
    temp: 'sampling temperature (default 0: best)',
    mix: "mode=mcts: the network's weight λ in [0, 1]: each tree leaf valued λ·network + (1 − λ)·rollout (cut rollouts then valued by the ruleset's evaluation); unset: the network values the cut rollouts",
    ...Object.fromEntries(
      Object.entries(MCTS_PARAMS)
        .filter(([k]) => k !== 'c')
        .map(([k, v]) => [k, `mode=mcts: ${v}`]),
    ),
  },
  create: (spec, p) => {
    if (!p.model)
      throw new AgentSpecError(
        `agent spec "${spec}": neural needs model=…, e.g. neural:model=march-of-eagles/farm-on-the-ridge`,
      );
    const mode = p.mode ?? 'policy';
    if (mode !== 'policy' && mode !== 'puct' && mode !== 'mcts')
      throw new AgentSpecError(`agent spec "${spec}": mode=${mode} must be policy, puct or mcts`);
    const searchOnly = Object.keys(MCTS_PARAMS).filter((k) => k !== 'c' && p[k] !== undefined);
    if (mode !== 'mcts' && searchOnly.length)
      throw new AgentSpecError(
        `agent spec "${spec}": ${searchOnly.join(', ')} ${searchOnly.length > 1 ? 'only apply' : 'only applies'} with mode=mcts`,
      );
    if (mode !== 'mcts' && p.mix !== undefined)
      throw new AgentSpecError(`agent spec "${spec}": mix only applies with mode=mcts`);
    if (mode === 'mcts' && (p.sims !== undefined || p.temp !== undefined))
      throw new AgentSpecError(`agent spec "${spec}": sims and temp do not apply with mode=mcts (give it=N or ms=N)`);
    return new NeuralAgent(spec, {
      model: p.model,
      mode,
      ...(mode === 'mcts' ? { mcts: mctsConfig(spec, p) } : {}),
      ...(p.mix !== undefined ? { mix: num(spec, 'mix', p.mix, 0, 0, 1) } : {}),
      sims: num(spec, 'sims', p.sims, 64, 1, Infinity, true),
      c: num(spec, 'c', p.c, 1.5, 0),
      temp: num(spec, 'temp', p.temp, 0, 0),
    });
  },
});

// Diagnostic agents for testing a tournament set-up: they fail on purpose (hidden: not offered to users).
registerAgent({
  name: 'test-crash',
  hidden: true,
  description: 'diagnostic: throws on its first decision (forfeits)',
  params: {},
  create: (spec) => ({ spec, decide: async () => Promise.reject(new Error('test-crash: deliberate failure')) }),
});
registerAgent({
  name: 'test-exit',
  hidden: true,
  description: 'diagnostic: ends the worker thread it runs in on its first decision',
  params: {},
  create: (spec) => ({
    spec,
    decide: async () => {
      process.exit(3);
    },
  }),
});
registerAgent({
  name: 'test-hang',
  hidden: true,
  description: 'diagnostic: never answers (busy loop) on its first decision',
  params: {},
  create: (spec) => ({
    spec,
    decide: async () => {
      for (;;);
    },
  }),
});

registerAgent({
  name: 'ext',
  description: 'an external program speaking the newline-delimited JSON bot protocol (any language)',
  params: {
    cmd: 'command line to start the bot: words, \'…\' or "…" quoting, no shell operators, no commas',
    ms: 'decision clock in ms (default 10000)',
    hello: 'ms to answer hello (default 10000)',
    sandbox: 'bwrap (bubblewrap, refused where it cannot run) or limits (no bwrap); default: bwrap where it runs',
    cpu: `CPU seconds for the bot's whole game (default ${DEFAULT_LIMITS.cpuSeconds})`,
    mem: `memory limit in MiB (default ${DEFAULT_LIMITS.memoryMiB})`,
  },
  create: (spec, p) => {
    if (!p.cmd)
      throw new AgentSpecError(`agent spec "${spec}": ext needs cmd=…, e.g. ext:cmd=python3 arena/bots/random_bot.py`);
    const sandbox = p.sandbox ?? 'auto';
    if (sandbox !== 'auto' && sandbox !== 'bwrap' && sandbox !== 'limits')
      throw new AgentSpecError(`agent spec "${spec}": sandbox=${sandbox} must be bwrap or limits`);
    return new ExtAgent(
      spec,
      p.cmd,
      num(spec, 'ms', p.ms, 10_000, 1),
      num(spec, 'hello', p.hello, 10_000, 1),
      sandbox,
      {
        ...DEFAULT_LIMITS,
        cpuSeconds: num(spec, 'cpu', p.cpu, DEFAULT_LIMITS.cpuSeconds, 1, 86_400, true),
        memoryMiB: num(spec, 'mem', p.mem, DEFAULT_LIMITS.memoryMiB, 16, 1_048_576, true),
      },
    );
  },
});
