/**
 * Bots in any language: an agent that runs a program and speaks newline-delimited JSON with it over its
 * stdin/stdout (protocol 2, documented in README.md). The server never blocks on the bot: its output is read as it
 * arrives, every wait has a clock kept here, and a bot that is silent past its clock, exits, or answers with garbage
 * or an illegal action is killed and its game forfeited (the reason is the error message).
 *
 * A bot hears only what its side sees: `action` in an event is its side's view of the step (another side's sealed
 * choice reads as the ruleset's redacted text, e.g. "A bids for the prize 3 (sealed)"), `hash` is the hash of its own
 * observation (never the full state's), and `events` are the step's events with other sides' secrets redacted.
 *
 *   → {"type":"hello","protocol":2,"ruleset":…,"rulesetVersion":…,"scenario":…,"scenarioHash":…,"side":0,"sideName":"A",
 *      "players":["A","B"],"clocks":{"decisionMs":…,"helloMs":…}}
 *   ← {"type":"ready","name":"my-bot"}
 *   → {"type":"decide","id":1,"observation":{…},"legal":[{"index":0,"key":"pass B1"},…],"hash":"…","clock":{"decisionMs":…}}
 *   ← {"type":"act","id":1,"index":0}            (or "key":"pass B1")
 *   → {"type":"ack","id":1,"ok":true}             (or "ok":false,"reason":"illegal-action"|"bad-message"|"timeout")
 *   → {"type":"event","player":-1,"action":"roll:sum 7","hash":"…","chance":true,"events":[{"rule":"…","text":"…"}]}
 *   → {"type":"end","returns":[1,-1],"text":"…"}
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { hashHex } from '../engine/core/hash.ts';
import { observationHash } from '../engine/core/views.ts';
import type { Agent, Decision, DecisionContext, MatchInfo, StepView } from './agent.ts';
import {
  type BotLaunch,
  type BotLimits,
  DEFAULT_LIMITS,
  killGroup,
  parseCommand,
  prepareBot,
  printable,
  type SandboxMode,
} from './sandbox.ts';

/** Public API. @public */
export const PROTOCOL_VERSION = 2;
/** The longest line a bot may send, in bytes; a longer one forfeits (a bot cannot flood the server's memory). */
const MAX_MESSAGE_BYTES = 65_536;
/** Unread messages a bot may queue between decisions; more forfeits. */
const MAX_QUEUED = 64;

/** Process groups of bots alive in this thread: ended if the process exits first. */
const live = new Set<number>();
process.on('exit', () => {
  for (const g of live) killGroup(g);
});
/** Ctrl-C or a kill of the server ends its bots too, then the server as the signal would have. */
let signalsHooked = false;
function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      for (const g of live) killGroup(g);
      // only ours listening: re-raise so the process ends as it would have without us
      if (process.listenerCount(sig) === 1) {
        process.removeListener(sig, onSignal);
        process.kill(process.pid, sig);
      }
    };
    process.on(sig, onSignal);
  }
}

interface Waiter {
  resolve: (msg: Record<string, unknown>) => void;
  reject: (e: Error) => void;
}

export class ExtAgent implements Agent {
  readonly wantsEvents = true;
  private proc: ChildProcess | null = null;
  private inbox: Record<string, unknown>[] = [];
  private waiter: Waiter | null = null;
  private dead: string | null = null;
  private info: MatchInfo | null = null;
  private nextId = 1;
  private stderrTail = '';
  private launched: BotLaunch | null = null;
  private readonly argv: string[];

  constructor(
    readonly spec: string,
    readonly cmd: string,
    readonly decisionMs = 10_000,
    readonly helloMs = 10_000,
    readonly sandbox: SandboxMode | 'auto' = 'auto',
    readonly limits: BotLimits = DEFAULT_LIMITS,
  ) {
    this.argv = parseCommand(spec, cmd);
  }

  /** The sandbox the bot runs in (after it started), for hosts that refuse unsandboxed bots. */
  get mode(): SandboxMode | null {
    return this.launched?.mode ?? null;
  }

  private readyPending = false;

  reset(_seed: string, match?: MatchInfo): void {
    this.close();
    this.info = match ?? null;
    this.dead = null;
    this.inbox = [];
    this.nextId = 1;
    // start at once so the bot hears every event of the game; "ready" is awaited at its first decision
    if (match) this.launch(null);
  }

  private send(msg: unknown): void {
    if (!this.proc || this.dead) return;
    this.proc.stdin?.write(JSON.stringify(msg) + '\n');
  }

  private fail(reason: string): Error {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    this.close();
    return new Error(`external bot "${printable(this.cmd)}": ${reason}${tail ? ` (stderr: ${printable(tail)})` : ''}`);
  }

  /** The next message from the bot within `ms`, without blocking the event loop. */
  private next(ms: number, what: string): Promise<Record<string, unknown>> {
    const queued = this.inbox.shift();
    if (queued) return Promise.resolve(queued);
    if (this.dead) return Promise.reject(this.fail(this.dead));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(this.fail(`no ${what} within ${ms} ms (timeout)`));
      }, ms);
      this.waiter = {
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
    });
  }

  private deliver(msg: Record<string, unknown>): void {
    const w = this.waiter;
    this.waiter = null;
    if (w) w.resolve(msg);
    else if (this.inbox.length < MAX_QUEUED) this.inbox.push(msg);
    else this.kill(`sent more than ${MAX_QUEUED} unrequested messages (flooding)`);
  }

  /** The bot is finished for `reason`: a waiting read fails with it, later reads too. */
  private kill(reason: string): void {
    if (this.dead) return;
    this.dead = reason;
    const w = this.waiter;
    this.waiter = null;
    w?.reject(this.fail(reason));
    this.close();
  }

  private launch(ctx: DecisionContext | null): void {
    const launch = prepareBot(this.argv, {
      mode: this.sandbox,
      limits: this.limits,
      ...(this.info?.host?.hide ? { hide: this.info.host.hide } : {}),
    });
    this.launched = launch;
    // its own session and process group: ending the game ends everything it started
    const proc = spawn(launch.file, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.proc = proc;
    const pgid = proc.pid;
    if (pgid !== undefined) {
      hookSignals();
      live.add(pgid);
      this.info?.host?.track?.(pgid, false);
    }
    proc.stdin!.on('error', () => undefined); // a dead bot's closed pipe: reported by 'exit'
    proc.stderr!.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-2000);
    });
    // lines split here, each at most MAX_MESSAGE_BYTES: a bot that never ends its line cannot fill our memory
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    proc.stdout!.on('data', (chunk: Buffer) => {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(10, start);
        const part = chunk.subarray(start, nl < 0 ? chunk.length : nl);
        pendingBytes += part.length;
        if (pendingBytes > MAX_MESSAGE_BYTES) {
          this.kill(`sent a message longer than ${MAX_MESSAGE_BYTES} bytes`);
          return;
        }
        pending.push(part);
        if (nl < 0) return;
        const line = Buffer.concat(pending).toString();
        pending = [];
        pendingBytes = 0;
        start = nl + 1;
        if (line.trim()) {
          let msg: Record<string, unknown>;
          try {
            const v = JSON.parse(line) as unknown;
            if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
            msg = v as Record<string, unknown>;
          } catch {
            msg = { type: '?garbage', line: printable(line, 200) };
          }
          this.deliver(msg);
          if (this.dead) return;
        }
      }
    });
    proc.on('exit', (code, signal) => {
      this.kill(`exited (${signal ?? `code ${code}`})`);
    });
    proc.on('error', (e) => {
      this.kill(`could not run: ${e.message}`);
    });
    const info = this.info ?? {
      ruleset: ctx!.game.id,
      rulesetVersion: ctx!.game.version,
      scenarioId: '',
      scenarioHash: '',
      player: ctx!.player,
      players: ctx!.game.players,
    };
    this.send({
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      ruleset: info.ruleset,
      rulesetVersion: info.rulesetVersion,
      scenario: info.scenarioId,
      scenarioHash: info.scenarioHash,
      side: info.player,
      sideName: info.players[info.player],
      players: info.players,
      clocks: { decisionMs: this.decisionMs, helloMs: this.helloMs },
    });
    this.readyPending = true;
  }

  private async awaitReady(): Promise<void> {
    this.readyPending = false;
    const m = await this.next(this.helloMs, '"ready" after hello');
    if (m.type !== 'ready') throw this.fail(`expected {"type":"ready"}, got ${printable(JSON.stringify(m), 120)}`);
  }

  async decide(ctx: DecisionContext): Promise<Decision> {
    if (!this.proc && !this.dead) this.launch(ctx);
    if (this.readyPending) await this.awaitReady();
    const id = this.nextId++;
    const { game, legal } = ctx;
    const keys = legal.map((a) => game.actionKey(a));
    const ms = ctx.budget.ms ?? this.decisionMs;
    // the hash of what this side sees: `ctx.state` is consistent with its observation, so this is the real one's
    const hash = hashHex(observationHash(game, ctx.state, ctx.player));
    this.send({
      type: 'decide',
      id,
      observation: ctx.observation,
      legal: keys.map((key, index) => ({ index, key })),
      hash,
      clock: { decisionMs: ms },
    });
    const m = await this.next(ms, `answer to decide ${id}`);
    if (m.type !== 'act' || m.id !== id) {
      this.send({ type: 'ack', id, ok: false, reason: 'bad-message' });
      throw this.fail(`bad message for decide ${id}: ${printable(JSON.stringify(m), 120)}`);
    }
    let i = -1;
    if (typeof m.index === 'number' && Number.isInteger(m.index)) i = m.index;
    else if (typeof m.key === 'string') i = keys.indexOf(m.key);
    if (i < 0 || i >= legal.length) {
      this.send({ type: 'ack', id, ok: false, reason: 'illegal-action' });
      throw this.fail(`illegal action ${printable(JSON.stringify(m.index ?? m.key), 80)} for decide ${id}`);
    }
    this.send({ type: 'ack', id, ok: true });
    return {
      action: legal[i],
      explanation: {
        chosen: keys[i]!,
        text: `external bot (${typeof m.note === 'string' ? m.note.slice(0, 80) : 'no note'})`,
      },
    };
  }

  observe(ev: StepView): void {
    this.send({
      type: 'event',
      player: ev.player,
      action: ev.action,
      hash: ev.hash,
      chance: ev.chance,
      events: (ev.events ?? []).map((e) => ({ rule: e.rule, text: e.text, ...(e.dice ? { dice: e.dice } : {}) })),
    });
  }

  async end(result: { returns: readonly number[]; text: string }): Promise<void> {
    this.send({ type: 'end', returns: result.returns, text: result.text });
    const p = this.proc;
    if (p && !this.dead) await new Promise((r) => setTimeout(r, 50));
    this.close();
  }

  close(): void {
    const p = this.proc;
    this.proc = null;
    if (p) {
      p.stdin?.end();
      // the whole group, even when the bot itself has exited: what it started may live on
      if (p.pid !== undefined) {
        killGroup(p.pid);
        live.delete(p.pid);
        this.info?.host?.track?.(p.pid, true);
      }
    }
    this.launched?.cleanup();
  }
}
