/**
 * The engine as a long-lived server for clients in other languages (the Python client, clients/python): `eagles
 * env-server` speaks newline-delimited JSON over stdin/stdout, one request per line and one response per request,
 * with many environments multiplexed by id (protocol 1, documented in clients/python/README.md).
 *
 *   → {"id":1,"cmd":"create","ruleset":"march-of-eagles","scenario":"open-field","seed":"7","fields":["legal","mask"]}
 *   ← {"id":1,"ok":true,"result":{"env":"e1","players":["A","B"],…,"obs":{"toMove":0,"legal":[…],…}}}
 *   → {"id":2,"cmd":"step","env":"e1","action":3}
 *   ← {"id":2,"ok":true,"result":{"obs":{…},"plies":2}}
 *   → {"id":3,"cmd":"step","env":"e1","action":999}
 *   ← {"id":3,"ok":false,"code":"illegal-action","error":"action index 999 is not legal here (12 legal actions)"}
 *
 * An environment is a game from a scenario and a seed. The server applies what no learner decides: chance outcomes,
 * drawn from keyed dice exactly as the match driver draws them (so the same seed and actions give the same game, and
 * `replay` writes a file `eagles replay verify` accepts), forced moves (one legal action, unless `forced: "ask"`),
 * and in single-agent mode the opponent's decisions, played by any agent spec. Each observation is what the player to
 * move may see: its observation (`game.observe`), its features from the ruleset's encoding (of that observation), its
 * legal actions' keys and features, and a mask: over the ruleset's fixed action index when it has one, else over the
 * legal-action list, padded to `maxActions`.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import seedrandom from 'seedrandom';
import type { Argv } from 'yargs';
import type { Agent } from '../agents/agent.ts';
import { createAgent } from '../agents/registry.ts';
import { type AnyGame, findActionByKey } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import { REPLAY_FORMAT, REPLAY_VERSION, type Replay, type ReplayStep, encodeReplay } from '../engine/core/replay.ts';
import { hasHiddenInformation } from '../engine/core/views.ts';
import { RULESETS, getRuleset } from '../engine/rulesets/index.ts';
import { loadScenario, scenarioHash, scenarioIds } from './catalog.ts';
import { keyedUniform, sampleOutcome } from './dice.ts';

const ENV_PROTOCOL = 1;

/** What an observation carries; asked per environment (fewer fields, faster steps). */
const FIELDS = ['count', 'legal', 'mask', 'observation', 'features', 'actionFeatures', 'text'] as const;
type Field = (typeof FIELDS)[number];

/** A request the server refuses: the code names the kind, the message what is wrong. */
class EnvError extends Error {
  constructor(
    readonly code: 'bad-request' | 'unknown-env' | 'unknown-handle' | 'illegal-action' | 'game-over' | 'engine',
    message: string,
  ) {
    super(message);
  }
}

/** A step of the record: its key, chance flag and player (the state hash is computed for a replay). */
type Step = Omit<ReplayStep, 'h'>;

interface Snapshot {
  readonly state: unknown;
  readonly steps: readonly Step[];
  readonly plies: number;
}

interface Env {
  readonly id: string;
  readonly game: AnyGame;
  readonly scenario: unknown;
  readonly scenarioId: string;
  readonly options: Readonly<Record<string, unknown>> | undefined;
  seed: string;
  state: unknown;
  steps: Step[];
  initialHash: string;
  readonly fields: ReadonlySet<Field>;
  readonly forced: 'auto' | 'ask';
  readonly maxActions: number;
  /** Single-agent mode: the learner's seat; the server plays the others with `opponent`. */
  readonly seat: number | null;
  readonly opponentSpec: string | null;
  opponent: Agent | null;
  opponentRng: () => number;
  readonly budget: { readonly ms?: number; readonly iterations?: number };
  /** Features as base64 of little-endian float32 (fast to read with numpy) instead of JSON numbers. */
  readonly binary: boolean;
  /** The legal actions of `state`, once computed (movement menus are the costly part of a step). */
  legalOf: { readonly state: unknown; readonly legal: readonly unknown[] } | null;
}

/** The legal actions at the environment's state, computed once per state. */
function legalNow(e: Env): readonly unknown[] {
  if (e.legalOf === null || e.legalOf.state !== e.state)
    e.legalOf = { state: e.state, legal: e.game.legalActions(e.state) };
  return e.legalOf.legal;
}

const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string' || !v) throw new EnvError('bad-request', `${what} must be a non-empty string`);
  return v;
};

export class EnvServer {
  private envs = new Map<string, Env>();
  private snapshots = new Map<string, Snapshot & { readonly env: string }>();
  private next = 1;

  /** One request in, one response out (never throws: a refused request is an `ok: false` response). */
  async handle(req: unknown): Promise<Record<string, unknown>> {
    const id = req && typeof req === 'object' && 'id' in req ? (req as { id: unknown }).id : null;
    try {
      if (!req || typeof req !== 'object' || Array.isArray(req))
        throw new EnvError('bad-request', 'a request is a JSON object with "cmd"');
      return { id, ok: true, result: await this.run(req as Record<string, unknown>) };
    } catch (e) {
      const code = e instanceof EnvError ? e.code : 'engine';
      return { id, ok: false, code, error: e instanceof Error ? e.message : String(e) };
    }
  }

  private async run(r: Record<string, unknown>): Promise<unknown> {
    switch (r.cmd) {
      case 'hello':
        return { protocol: ENV_PROTOCOL, rulesets: Object.keys(RULESETS) };
      case 'rulesets':
        return Object.values(RULESETS).map((g) => ({
          id: g.id,
          title: g.title,
          players: g.players,
          scenarios: scenarioIds(g.id),
          defaultScenario: g.defaultScenario,
          encoding: g.encoding
            ? { id: g.encoding.id, stateSize: g.encoding.stateSize, actionSize: g.encoding.actionSize }
            : null,
          hiddenInformation: hasHiddenInformation(g),
        }));
      case 'create':
        return this.create(r);
      case 'reset': {
        const e = this.env(r);
        if (r.seed !== undefined) e.seed = String(r.seed);
        return this.reset(e);
      }
      case 'step':
        return this.step(this.env(r), r.action);
      case 'step_many': {
        if (!Array.isArray(r.steps)) throw new EnvError('bad-request', 'step_many needs "steps": [[env, action], …]');
        const out: unknown[] = [];
        for (const x of r.steps) {
          if (!Array.isArray(x) || x.length !== 2)
            throw new EnvError('bad-request', 'each of step_many\'s "steps" is [env, action]');
          try {
            out.push({ ok: true, result: await this.step(this.env({ env: x[0] }), x[1]) });
          } catch (e) {
            out.push({ ok: false, code: e instanceof EnvError ? e.code : 'engine', error: (e as Error).message });
          }
        }
        return out;
      }
      case 'observe': {
        const e = this.env(r);
        const p = r.player === undefined ? undefined : Number(r.player);
        if (p !== undefined && !(Number.isInteger(p) && p >= 0 && p < e.game.players.length))
          throw new EnvError('bad-request', `player must be 0..${e.game.players.length - 1}`);
        return this.obs(e, p);
      }
      case 'clone': {
        const e = this.env(r);
        const handle = `h${this.next++}`;
        this.snapshots.set(handle, { env: e.id, state: e.state, steps: e.steps.slice(), plies: e.steps.length });
        return { handle };
      }
      case 'restore': {
        const e = this.env(r);
        const h = str(r.handle, 'handle');
        const snap = this.snapshots.get(h);
        if (!snap) throw new EnvError('unknown-handle', `no snapshot "${h}"`);
        if (snap.env !== e.id) throw new EnvError('bad-request', `snapshot "${h}" belongs to ${snap.env}, not ${e.id}`);
        e.state = snap.state;
        e.steps = snap.steps.slice();
        return this.obs(e);
      }
      case 'release': {
        const h = str(r.handle, 'handle');
        if (!this.snapshots.delete(h)) throw new EnvError('unknown-handle', `no snapshot "${h}"`);
        return {};
      }
      case 'render': {
        const e = this.env(r);
        const v = r.viewer === undefined ? this.viewer(e) : Number(r.viewer);
        return { text: v >= 0 ? e.game.render(e.state, v) : e.game.render(e.state) };
      }
      case 'replay': {
        const e = this.env(r);
        const rp = this.replay(e);
        if (r.file !== undefined) writeFileSync(str(r.file, 'file'), encodeReplay(rp));
        return r.file === undefined ? rp : { file: r.file, steps: rp.steps.length };
      }
      case 'close': {
        const e = this.env(r);
        await e.opponent?.close?.();
        this.envs.delete(e.id);
        for (const [h, s] of this.snapshots) if (s.env === e.id) this.snapshots.delete(h);
        return {};
      }
      default:
        throw new EnvError(
          'bad-request',
          `unknown cmd ${JSON.stringify(r.cmd)}; known: hello, rulesets, create, reset, step, step_many, observe, clone, restore, release, render, replay, close`,
        );
    }
  }

  private env(r: Record<string, unknown>): Env {
    const id = str(r.env, 'env');
    const e = this.envs.get(id);
    if (!e) throw new EnvError('unknown-env', `no environment "${id}" (closed, or never created)`);
    return e;
  }

  private async create(r: Record<string, unknown>): Promise<unknown> {
    const rid = str(r.ruleset, 'ruleset');
    if (!RULESETS[rid])
      throw new EnvError('bad-request', `unknown ruleset "${rid}"; known: ${Object.keys(RULESETS).join(', ')}`);
    const game = getRuleset(rid);
    let loaded: ReturnType<typeof loadScenario>;
    try {
      loaded = loadScenario(rid, r.scenario === undefined ? undefined : str(r.scenario, 'scenario'));
    } catch (e) {
      throw new EnvError('bad-request', (e as Error).message.split('\n').slice(0, 6).join(' '));
    }
    const fields = new Set<Field>();
    const asked = r.fields === undefined ? ['legal', 'mask', game.encoding ? 'features' : 'observation'] : r.fields;
    if (!Array.isArray(asked)) throw new EnvError('bad-request', `fields must be a list of: ${FIELDS.join(', ')}`);
    for (const f of asked) {
      if (!FIELDS.includes(f as Field))
        throw new EnvError('bad-request', `unknown field ${JSON.stringify(f)}; known: ${FIELDS.join(', ')}`);
      fields.add(f as Field);
    }
    if ((fields.has('features') || fields.has('actionFeatures')) && !game.encoding)
      throw new EnvError('bad-request', `ruleset ${rid} has no feature encoding; ask for "observation" instead`);
    const forced = r.forced ?? 'auto';
    if (forced !== 'auto' && forced !== 'ask') throw new EnvError('bad-request', 'forced must be "auto" or "ask"');
    const maxActions = r.maxActions === undefined ? 1024 : Number(r.maxActions);
    if (!Number.isInteger(maxActions) || maxActions < 1)
      throw new EnvError('bad-request', 'maxActions must be a positive integer');
    let seat: number | null = null;
    let opponentSpec: string | null = null;
    if (r.opponent !== undefined) {
      opponentSpec = str(r.opponent, 'opponent');
      seat = r.seat === undefined ? 0 : Number(r.seat);
      if (!(Number.isInteger(seat) && seat >= 0 && seat < game.players.length))
        throw new EnvError('bad-request', `seat must be 0..${game.players.length - 1}`);
      try {
        createAgent(opponentSpec); // refuse a bad spec now
      } catch (e) {
        throw new EnvError('bad-request', (e as Error).message);
      }
      if (!game.policyScores && /^(heuristic|easy|normal|hard)(:|$)/.test(opponentSpec))
        throw new EnvError(
          'bad-request',
          `${rid} has no scripted player for the opponent "${opponentSpec}"; use random or mcts (e.g. mcts:it=200)`,
        );
    }
    const budget: { ms?: number; iterations?: number } = {};
    if (r.opponentMs !== undefined) budget.ms = Number(r.opponentMs);
    if (r.opponentIterations !== undefined) budget.iterations = Number(r.opponentIterations);
    const options = r.options === undefined ? undefined : (r.options as Record<string, unknown>);
    if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options)))
      throw new EnvError('bad-request', 'options must be an object');
    const id = `e${this.next++}`;
    const e: Env = {
      id,
      game,
      scenario: loaded.scenario,
      scenarioId: loaded.id,
      options,
      seed: r.seed === undefined ? randomBytes(6).toString('hex') : String(r.seed),
      state: null,
      steps: [],
      initialHash: '',
      fields,
      forced,
      maxActions,
      seat,
      opponentSpec,
      opponent: null,
      opponentRng: Math.random,
      budget,
      legalOf: null,
      binary: r.binary === true,
    };
    this.envs.set(id, e);
    const enc = game.encoding;
    return {
      env: id,
      ruleset: game.id,
      rulesetVersion: game.version,
      scenario: loaded.id,
      players: game.players,
      seat,
      hiddenInformation: hasHiddenInformation(game),
      spaces: {
        stateSize: enc?.stateSize ?? null,
        actionSize: enc?.actionSize ?? null,
        actions: enc?.fixed ? enc.fixed.size : maxActions,
        fixed: !!enc?.fixed,
      },
      ...(await this.reset(e)),
    };
  }

  private async reset(e: Env): Promise<Record<string, unknown>> {
    try {
      e.state = e.game.initialState(e.scenario, e.options);
    } catch (err) {
      throw new EnvError('bad-request', `cannot start the game: ${(err as Error).message}`);
    }
    e.steps = [];
    e.initialHash = hashHex(e.game.hash(e.state));
    await e.opponent?.close?.();
    e.opponent = e.opponentSpec ? createAgent(e.opponentSpec) : null;
    e.opponentRng = seedrandom.alea(`${e.seed}|agent|opponent`);
    e.opponent?.reset?.(e.seed, {
      ruleset: e.game.id,
      rulesetVersion: e.game.version,
      scenarioId: e.scenarioId,
      scenarioHash: scenarioHash(e.scenario),
      player: e.game.players.findIndex((_, i) => i !== e.seat),
      players: e.game.players,
    });
    const plies = await this.advance(e);
    return { obs: this.obs(e), plies };
  }

  private apply(e: Env, a: unknown, player: number): void {
    e.state = e.game.applyUnchecked(e.state, a);
    // the state hash of each step is filled in when a replay is asked for (hashing every ply slows stepping)
    e.steps.push({ a: e.game.actionKey(a), c: player < 0 ? 1 : 0, p: player });
  }

  /** Apply what the learner does not decide: chance, forced moves, the opponent. Returns the plies applied. */
  private async advance(e: Env): Promise<number> {
    const g = e.game;
    let plies = 0;
    for (;;) {
      const tm = g.toMove(e.state);
      if (tm.kind === 'terminal') return plies;
      if (tm.kind === 'chance') {
        const outs = g.chanceOutcomes(e.state);
        if (!outs.length) throw new EnvError('engine', `engine error: a chance node with no outcome (${g.id})`);
        this.apply(e, sampleOutcome(outs, keyedUniform(e.seed, g.chanceKey(e.state))()).action, -1);
        plies++;
        continue;
      }
      const legal = legalNow(e);
      if (!legal.length) throw new EnvError('engine', `engine error: a decision with no legal action (${g.id})`);
      if (legal.length === 1 && e.forced === 'auto') {
        this.apply(e, legal[0], tm.player);
        plies++;
        continue;
      }
      if (e.seat === null || tm.player === e.seat) return plies;
      const d = await e.opponent!.decide({
        game: g,
        player: tm.player,
        observation: g.observe(e.state, tm.player),
        legal,
        state: g.sampleState(e.state, tm.player, e.opponentRng),
        budget: e.budget,
        rng: e.opponentRng,
      });
      const key = g.actionKey(d.action);
      const a = legal.find((x) => g.actionKey(x) === key);
      if (a === undefined) throw new EnvError('engine', `the opponent ${e.opponentSpec} chose "${key}", not legal`);
      this.apply(e, a, tm.player);
      plies++;
    }
  }

  private async step(e: Env, action: unknown): Promise<Record<string, unknown>> {
    const g = e.game;
    const tm = g.toMove(e.state);
    if (tm.kind !== 'player') throw new EnvError('game-over', 'the game is over: reset it');
    const legal = legalNow(e);
    let a: unknown;
    if (typeof action === 'string') {
      a = legal.find((x) => g.actionKey(x) === action);
      if (a === undefined) throw new EnvError('illegal-action', `"${action}" is not a legal action here`);
    } else if (typeof action === 'number' && Number.isInteger(action)) {
      const enc = g.encoding;
      if (enc?.fixed) {
        a = legal.find((x) => enc.fixed!.index(e.state, x) === action);
        if (a === undefined) throw new EnvError('illegal-action', `action index ${action} is masked out here`);
      } else {
        a = legal[action];
        if (a === undefined || action < 0)
          throw new EnvError(
            'illegal-action',
            `action index ${action} is not legal here (${legal.length} legal action${legal.length === 1 ? '' : 's'})`,
          );
      }
    } else throw new EnvError('bad-request', 'action must be an integer index or an action key');
    this.apply(e, a, tm.player);
    const plies = 1 + (await this.advance(e));
    return { obs: this.obs(e), plies };
  }

  /** Who the observation is for: the player to move, else the learner's seat, else player 0. */
  private viewer(e: Env): number {
    const tm = e.game.toMove(e.state);
    return tm.kind === 'player' ? tm.player : (e.seat ?? 0);
  }

  private obs(e: Env, forPlayer?: number): Record<string, unknown> {
    const g = e.game;
    const s = e.state;
    const tm = g.toMove(s);
    const terminal = tm.kind === 'terminal';
    const p = forPlayer ?? this.viewer(e);
    const out: Record<string, unknown> = {
      toMove: tm.kind === 'player' ? tm.player : -1,
      player: p,
      terminal,
      returns: terminal ? g.returns(s) : g.players.map(() => 0),
      plies: e.steps.length,
    };
    if (terminal) out.result = g.resultText(s);
    const mine = tm.kind === 'player' && tm.player === p;
    const legal = mine ? legalNow(e) : [];
    const hidden = hasHiddenInformation(g);
    const view = hidden ? g.observe(s, p) : s;
    if (e.fields.has('count')) out.count = legal.length;
    if (e.fields.has('legal')) out.legal = legal.map((a: unknown) => g.actionKey(a));
    if (legal.length > e.maxActions)
      throw new EnvError(
        'engine',
        `${legal.length} legal actions exceed maxActions ${e.maxActions}: create the environment with a larger maxActions`,
      );
    // over the fixed action index; without one, action i is the i-th legal action and the mask is the first `count`
    // slots, which a client builds from `count` (so it is not sent)
    const enc = g.encoding;
    if (e.fields.has('mask') && enc?.fixed) {
      const m = new Array<number>(enc.fixed.size).fill(0);
      for (const a of legal) m[enc.fixed.index(s, a)] = 1;
      out.mask = m;
    }
    if (e.fields.has('observation')) out.observation = view;
    if (e.fields.has('features')) {
      const enc = g.encoding!;
      const f = new Float32Array(enc.stateSize);
      enc.encodeState(view, p, f, 0);
      out.features = e.binary ? Buffer.from(f.buffer).toString('base64') : Array.from(f);
    }
    if (e.fields.has('actionFeatures')) {
      const enc = g.encoding!;
      const f = new Float32Array(legal.length * enc.actionSize);
      enc.encodeActions(view, p, legal, f, 0);
      out.actionFeatures = e.binary
        ? Buffer.from(f.buffer).toString('base64')
        : Array.from({ length: legal.length }, (_, i) =>
            Array.from(f.subarray(i * enc.actionSize, (i + 1) * enc.actionSize)),
          );
    }
    if (e.fields.has('text')) out.text = hidden ? g.render(s, p) : g.render(s);
    return out;
  }

  private replay(e: Env): Replay {
    const g = e.game;
    const terminal = g.toMove(e.state).kind === 'terminal';
    // replay the record from the start to hash every step
    let s = g.initialState(e.scenario, e.options);
    const steps: ReplayStep[] = e.steps.map((st, i) => {
      const a = findActionByKey(g, s, st.a);
      if (a === undefined) throw new EnvError('engine', `engine error: step ${i + 1} "${st.a}" does not replay`);
      s = g.applyUnchecked(s, a);
      return { ...st, h: hashHex(g.hash(s)) };
    });
    const agents = g.players.map((_, i) => (e.seat === null || i === e.seat ? 'env-client' : e.opponentSpec!));
    return {
      format: REPLAY_FORMAT,
      version: REPLAY_VERSION,
      ruleset: g.id,
      rulesetVersion: g.version,
      scenarioId: e.scenarioId,
      scenarioHash: scenarioHash(e.scenario),
      scenario: e.scenario,
      ...(e.options ? { options: e.options } : {}),
      seed: e.seed,
      agents,
      initialHash: e.initialHash,
      steps,
      finalHash: hashHex(g.hash(e.state)),
      result: terminal ? { returns: [...g.returns(e.state)], text: g.resultText(e.state) } : null,
    };
  }

  async closeAll(): Promise<void> {
    for (const e of this.envs.values()) await e.opponent?.close?.();
    this.envs.clear();
    this.snapshots.clear();
  }
}

/** Serve requests from stdin, one JSON object per line, answering in order on stdout; ends when stdin closes. */
async function serveStdio(): Promise<void> {
  const server = new EnvServer();
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const out = process.stdout;
  out.on('error', () => process.exit(0)); // the client went away
  for await (const line of rl) {
    if (!line.trim()) continue;
    let req: unknown;
    try {
      req = JSON.parse(line);
    } catch (e) {
      out.write(
        `${JSON.stringify({ id: null, ok: false, code: 'bad-request', error: `not JSON: ${(e as Error).message}` })}\n`,
      );
      continue;
    }
    out.write(`${JSON.stringify(await server.handle(req))}\n`);
  }
  await server.closeAll();
}

export function envServerCommands(y: Argv): Argv {
  return y.command(
    'env-server',
    'Serve environments to another language over stdin/stdout (newline-delimited JSON; the Python client runs it)',
    (a) =>
      a.option('stdio', { type: 'boolean', default: true, describe: 'speak over stdin/stdout (the only transport)' }),
    async () => serveStdio(),
  );
}
