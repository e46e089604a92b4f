/**
 * Runs beyond one machine: a run's games as BullMQ jobs on Redis. The coordinator (`arena run --queue`, `ladder run
 * --queue`) enqueues each game under its game id and alone writes the run's SQLite database, exactly as with the
 * local pool; `eagles worker --queue` runs on any number of machines, each with its own local pool, and plays
 * whatever games it is given.
 *
 * Faults. A job id is the run id plus the game id, so enqueueing a game twice (a resumed coordinator) finds the first
 * job, finished or not; a result is recorded once, by game id. A worker killed mid-game stops renewing its job's lock:
 * the job stalls and another worker plays it. A worker on other code refuses the game (by ruleset version and
 * scenario hash), puts it back and stops. With a shared secret (EAGLES_QUEUE_SECRET), every job is signed by the
 * coordinator (HMAC-SHA256) and a worker runs only signed jobs, so someone who can write to Redis cannot make the
 * workers run programs of their choosing; without one, a worker runs external bots only with --allow-ext.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DelayedError, type Job, Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { parseSpec } from '../agents/agent.ts';
import { ExtAgent } from '../agents/ext.ts';
import { createAgent } from '../agents/registry.ts';
import { bwrapUnavailable, sandboxMode } from '../agents/sandbox.ts';
import { getRuleset } from '../engine/rulesets/index.ts';
import { loadScenario, scenarioHash } from './catalog.ts';
import type { MatchOutcome, MatchTask } from './match-worker.ts';
import { type GamePool, MatchPool, type PoolResult } from './pool.ts';

/** The one queue every worker serves; jobs of every run meet there, told apart by run id. */
export const GAMES_QUEUE = 'eagles-games';

class QueueError extends Error {}

/** BullMQ connection options from `redis://[:password@]host[:port][/db]` (or `rediss://` for TLS). */
export function redisConnection(url: string) {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new QueueError(`--queue ${url}: not a URL; expected redis://HOST:PORT`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new QueueError(`--queue ${url}: expected redis://HOST:PORT (or rediss:// for TLS), not ${u.protocol}//`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new QueueError(`--queue ${url}: the database number must be an integer`);
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    db,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    // BullMQ's workers block on Redis and must retry forever across a restart
    maxRetriesPerRequest: null,
  };
}

/**
 * Check the server answers before handing it to BullMQ, whose clients retry forever: one clear line for a refused
 * password, an unreachable server or no answer in 10 s. (Later errors, such as a Redis restart mid-run, are retried
 * by the clients themselves.)
 */
async function probe(url: string): Promise<void> {
  const shown = url.replace(/\/\/[^@/]*@/, '//***@');
  const client = new Redis({
    ...redisConnection(url),
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 10_000,
    lazyConnect: true,
  });
  let last = '';
  client.on('error', (e: Error) => {
    last = e.message;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    throw new QueueError(`Redis at ${shown}: ${last || (e as Error).message}`);
  } finally {
    client.disconnect();
  }
}

/**
 * A coordinator's clients of queue `name`: a queue to add jobs and its events to wait for them, ready. They are made
 * only once the server answered (BullMQ's clients retry a refused password forever).
 */
export async function openQueue(url: string, name: string): Promise<{ queue: Queue; events: QueueEvents }> {
  await probe(url);
  const connection = redisConnection(url);
  const queue = new Queue(name, { connection });
  const events = new QueueEvents(name, { connection });
  // a Redis restart mid-run: the clients reconnect by themselves; an error with no listener would end the process
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  // every job in flight waits on these: hundreds of listeners are expected, not a leak
  queue.setMaxListeners(0);
  events.setMaxListeners(0);
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  return { queue, events };
}

/** What a job carries: the game, and what the worker must agree with before it plays it. */
interface GameJob {
  readonly run: string;
  readonly task: MatchTask;
  readonly rulesetVersion: number;
  readonly scenarioHash: string;
  readonly gameTimeoutMs: number;
  readonly decisionMs: number;
  /** HMAC-SHA256 of the rest, when the coordinator has a secret. */
  readonly sig?: string;
}

/** A job's result: the outcome with its replay as base64 (job results are JSON). */
type JobResult =
  | (Omit<MatchOutcome, 'replay'> & { replay: string; error?: undefined })
  | Exclude<PoolResult, MatchOutcome>;

/** A job as the coordinator sends it: signed (HMAC-SHA256 over its JSON) when EAGLES_QUEUE_SECRET is set. */
export function sealJob<T extends object>(body: T): T & { sig?: string } {
  const secret = secretFromEnv();
  return secret ? { ...body, sig: createHmac('sha256', secret).update(JSON.stringify(body)).digest('hex') } : body;
}

/** Why a worker must not trust this job's signature, or null (no secret here, or a good signature). */
export function signatureProblem(data: { sig?: unknown }): string | null {
  const secret = secretFromEnv();
  if (!secret) return null;
  const { sig, ...body } = data;
  const want = createHmac('sha256', secret).update(JSON.stringify(body)).digest();
  if (typeof sig !== 'string' || sig.length !== 64 || !timingSafeEqual(want, Buffer.from(sig, 'hex')))
    return "the job is not signed with this worker's EAGLES_QUEUE_SECRET";
  return null;
}

function secretFromEnv(): string | undefined {
  return process.env.EAGLES_QUEUE_SECRET || undefined;
}

/** A fresh run id, kept in the run's database so a resumed coordinator finds its jobs. */
export function newRunId(): string {
  return randomBytes(8).toString('hex');
}

/** The coordinator's side: games go to the queue and come back with their results. */
export class QueuePool implements GamePool {
  private readonly clients: Promise<{ queue: Queue; events: QueueEvents }>;
  /** Worker processes serving the queue, as last seen (polled every second). */
  workers = 0;
  private poll: NodeJS.Timeout | undefined;

  constructor(
    readonly url: string,
    readonly run: string,
    readonly gameTimeoutMs: number,
    readonly decisionMs: number,
  ) {
    this.clients = openQueue(url, GAMES_QUEUE).then(({ queue, events }) => {
      const look = () =>
        queue.getWorkers().then(
          (w) => {
            this.workers = w.length;
          },
          () => undefined,
        );
      void look();
      this.poll = setInterval(look, 1000);
      this.poll.unref();
      return { queue, events };
    });
    this.clients.catch(() => undefined); // reported by the first play()
  }

  /** Games in flight by game id, with their job ids. */
  private readonly jobs = new Map<string, string>();

  /** Run, game id, and a digest of what is played: a resumed run that pairs a game differently gets a new job. */
  private jobId(task: MatchTask): string {
    const what = createHmac('sha256', 'eagles').update(JSON.stringify([task.scenario, task.seed, task.agents]));
    return `${this.run}.${task.id}.${what.digest('hex').slice(0, 12)}`;
  }

  async play(task: MatchTask): Promise<PoolResult> {
    const { queue, events } = await this.clients;
    if (task.scenario.endsWith('.json'))
      throw new QueueError(
        `queue mode plays scenarios by id (workers load their own copy); ${task.scenario} is a file: put it under data/scenarios/ on every machine`,
      );
    const { game, scenario } = loadScenario(task.ruleset, task.scenario);
    const body: Omit<GameJob, 'sig'> = {
      run: this.run,
      task,
      rulesetVersion: game.version,
      scenarioHash: scenarioHash(scenario),
      gameTimeoutMs: this.gameTimeoutMs,
      decisionMs: this.decisionMs,
    };
    const data: GameJob = sealJob(body);
    // the same id finds the job a killed coordinator already enqueued, finished or not
    const jobId = this.jobId(task);
    this.jobs.set(task.id, jobId);
    const job = await queue.add('game', data, {
      jobId,
      attempts: 3,
      // removed when its result is recorded (settle); these only bound what a crashed coordinator leaves behind
      removeOnComplete: { age: 7 * 86_400 },
      removeOnFail: { age: 7 * 86_400 },
    });
    let r: JobResult;
    try {
      r = (await job.waitUntilFinished(events)) as JobResult;
    } catch (e) {
      return { id: task.id, error: `queue: the game failed on every attempt: ${(e as Error).message}` };
    }
    if (r.error !== undefined) return r;
    return { ...r, replay: new Uint8Array(Buffer.from(r.replay, 'base64')) };
  }

  async settle(id: string): Promise<void> {
    const jobId = this.jobs.get(id);
    if (jobId === undefined) return;
    this.jobs.delete(id);
    await (await this.clients).queue.remove(jobId);
  }

  /** Stop: games enqueued and not yet taken are withdrawn (a run stopped early, e.g. by its SPRT). */
  async close(): Promise<void> {
    clearInterval(this.poll);
    let c: { queue: Queue; events: QueueEvents };
    try {
      c = await this.clients;
    } catch {
      return; // never connected: nothing to close
    }
    for (const jobId of this.jobs.values()) {
      const job = await c.queue.getJob(jobId);
      if (job && (await job.getState()) === 'waiting') await job.remove().catch(() => undefined);
    }
    await c.events.close();
    await c.queue.close();
  }
}

export interface WorkerOptions {
  readonly url: string;
  /** Games this process plays at once (its local pool's threads). */
  readonly workers: number;
  /** Run external bots (sandboxed) from unsigned jobs. */
  readonly allowExt: boolean;
  /** Run external bots without bubblewrap where it cannot run (resource limits only). */
  readonly unsafeBots?: boolean;
  /** Lock duration in ms: a game whose worker is silent this long is given to another worker. */
  readonly lockMs: number;
  readonly log: (line: string) => void;
}

/** Why this worker must not play the job, or null. */
function refusal(
  j: GameJob,
  secret: string | undefined,
  allowExt: boolean,
  unsafeBots: boolean,
): { why: string; stale: boolean } | null {
  const unsigned = signatureProblem(j);
  if (unsigned) return { why: unsigned, stale: false };
  const t = j.task;
  let game: ReturnType<typeof getRuleset>;
  try {
    game = getRuleset(t.ruleset);
  } catch {
    return { why: `this worker has no ruleset "${t.ruleset}" (older code?)`, stale: true };
  }
  if (game.version !== j.rulesetVersion)
    return {
      why: `the run plays ${t.ruleset} v${j.rulesetVersion}; this worker has v${game.version} (update the worker)`,
      stale: true,
    };
  let hash: string;
  try {
    hash = scenarioHash(loadScenario(t.ruleset, t.scenario).scenario);
  } catch {
    return { why: `this worker has no scenario "${t.scenario}" (older code?)`, stale: true };
  }
  if (hash !== j.scenarioHash)
    return {
      why: `scenario ${t.scenario} hashes to ${hash} here, not the run's ${j.scenarioHash} (update the worker)`,
      stale: true,
    };
  if (!secret && !allowExt) {
    const ext = t.agents.find((a) => {
      try {
        return parseSpec(a).name === 'ext';
      } catch {
        return true;
      }
    });
    if (ext)
      return {
        why: `the job runs an external program (${ext}); this worker runs those only from signed jobs or with --allow-ext`,
        stale: false,
      };
  }
  if (!unsafeBots)
    for (const spec of t.agents) {
      const a = createAgent(spec);
      if (a instanceof ExtAgent && sandboxMode(a.sandbox) !== 'bwrap')
        return {
          why: `bot "${spec}" would run here without the bubblewrap sandbox (${a.sandbox === 'limits' ? 'sandbox=limits' : bwrapUnavailable()}); install bubblewrap on this worker, or start it with --unsafe-bots`,
          stale: false,
        };
    }
  return null;
}

/**
 * Serve the queue until `stop` resolves, or until a game this worker cannot play because its code differs (then it
 * puts the game back and resolves with the reason, so the caller can exit non-zero).
 */
export async function serveQueue(o: WorkerOptions, stop: Promise<void>): Promise<string | null> {
  await probe(o.url);
  const secret = secretFromEnv();
  const pools = new Map<string, MatchPool>();
  const poolFor = (j: GameJob) => {
    const key = `${j.gameTimeoutMs}/${j.decisionMs}`;
    let p = pools.get(key);
    if (!p) {
      p = new MatchPool(o.workers, j.gameTimeoutMs, j.decisionMs);
      pools.set(key, p);
    }
    return p;
  };
  let stale: string | null = null;
  let wake: () => void = () => undefined;
  const staleSeen = new Promise<void>((r) => {
    wake = r;
  });
  const worker = new Worker(
    GAMES_QUEUE,
    async (job: Job<GameJob>, token?: string): Promise<JobResult> => {
      const j = job.data;
      const no = refusal(j, secret, o.allowExt, o.unsafeBots ?? false);
      if (no) {
        o.log(`refused game ${j.task?.id ?? job.id}: ${no.why}`);
        if (no.stale) {
          // back to the queue for a worker on the run's code; this one stops
          stale = no.why;
          await job.moveToDelayed(Date.now() + 1000, token);
          wake();
          throw new DelayedError();
        }
        throw new Error(`refused by a worker: ${no.why}`);
      }
      const r = await poolFor(j).play(j.task);
      o.log(`${j.task.id}: ${r.error !== undefined ? `failed (${r.error})` : `played, ${r.plies} plies`}`);
      if (r.error !== undefined) return r;
      return { ...r, replay: Buffer.from(r.replay).toString('base64') };
    },
    {
      connection: redisConnection(o.url),
      concurrency: o.workers,
      lockDuration: o.lockMs,
      stalledInterval: o.lockMs,
      maxStalledCount: 5,
      name: `eagles-worker-${process.pid}`,
    },
  );
  worker.on('error', (e) => o.log(`queue: ${e.message}`));
  await worker.waitUntilReady();
  o.log(`serving ${GAMES_QUEUE} on ${o.url.replace(/\/\/[^@/]*@/, '//***@')} with ${o.workers} games at a time`);
  await Promise.race([stop, staleSeen]);
  await worker.close();
  for (const p of pools.values()) await p.close();
  return stale;
}
