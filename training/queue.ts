/**
 * Self-play beyond one machine: a training run's games as BullMQ jobs (`train --queue`), served by `eagles worker`
 * on any machine. The coordinator publishes the network the games use in Redis under the SHA-256 of its files (its
 * version); a worker fetches each version once, caches it, and batches its own inference over its local pool, exactly
 * as the local run does. Jobs are shares of the iteration's seeds, so the same seeds give the same games wherever they
 * are played, and results come back in seed order.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { type Job, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { Packr } from 'msgpackr';
import type { LoadedTf } from '../agents/neural/backend.ts';
import { loadTf } from '../agents/neural/backend.ts';
import { NetBatcher } from '../agents/neural/evaluator.ts';
import { loadModel } from '../agents/neural/model.ts';
import { loadScenario, scenarioHash } from '../arena/catalog.ts';
import { openQueue, redisConnection, sealJob, signatureProblem } from '../arena/queue.ts';
import { playInPool } from './pool.ts';
import type { GameRecord, SelfPlayConfig } from './selfplay.ts';

const SELFPLAY_QUEUE = 'eagles-selfplay';
const MODEL_FILES = ['model.json', 'weights.bin'] as const;
const packr = new Packr({ useRecords: false });

interface SelfPlayJob {
  readonly run: string;
  readonly ruleset: string;
  readonly rulesetVersion: number;
  readonly scenario: string;
  readonly scenarioHash: string;
  readonly mode: 'imitation' | 'puct';
  readonly seedPrefix: string;
  readonly first: number;
  readonly count: number;
  readonly concurrent: number;
  readonly cfg: SelfPlayConfig;
  readonly keep?: number;
  /** The network's version: the SHA-256 of its files, published under eagles:model:<version>. */
  readonly model?: string;
  readonly sig?: string;
}

const modelKey = (version: string) => `eagles:model:${version}`;

/** Put a model folder's files in Redis under their SHA-256 (kept 7 days); returns that version. */
async function publishModel(url: string, dir: string): Promise<string> {
  const files = MODEL_FILES.map((f) => readFileSync(join(dir, f)));
  const h = createHash('sha256');
  for (const b of files) h.update(b);
  const version = h.digest('hex');
  const redis = new Redis(redisConnection(url));
  try {
    const key = modelKey(version);
    if (!(await redis.exists(key))) {
      await redis.hset(key, Object.fromEntries(MODEL_FILES.map((f, i) => [f, files[i]!])));
    }
    await redis.expire(key, 7 * 86_400);
  } finally {
    redis.disconnect();
  }
  return version;
}

/** A network version as a folder on this machine: fetched from Redis once, checked, cached. */
async function fetchModel(redis: Redis, version: string): Promise<string> {
  const dir = join(os.tmpdir(), 'eagles-models', version);
  if (existsSync(join(dir, 'model.json'))) return dir;
  const got = await redis.hgetallBuffer(modelKey(version));
  const files = MODEL_FILES.map((f) => got[f]);
  if (files.some((b) => !b)) throw new Error(`network ${version.slice(0, 12)} is not in Redis (expired?)`);
  const h = createHash('sha256');
  for (const b of files) h.update(b!);
  if (h.digest('hex') !== version) throw new Error(`network ${version.slice(0, 12)} in Redis does not match its hash`);
  const tmp = `${dir}.tmp-${process.pid}`;
  mkdirSync(tmp, { recursive: true });
  MODEL_FILES.forEach((f, i) => writeFileSync(join(tmp, f), files[i]!));
  mkdirSync(join(os.tmpdir(), 'eagles-models'), { recursive: true });
  try {
    renameSync(tmp, dir);
  } catch {
    // another process cached it first
  }
  return dir;
}

/** Play a training iteration's games on the queue; the records come back in seed order. */
export async function playInQueue(o: {
  url: string;
  run: string;
  ruleset: string;
  scenario: string;
  mode: 'imitation' | 'puct';
  games: number;
  seedPrefix: string;
  concurrent: number;
  cfg: SelfPlayConfig;
  keep?: number;
  /** The network the games use (puct). */
  modelDir?: string;
  onGame?: (done: number) => void;
}): Promise<{ records: GameRecord[]; ms: number }> {
  const t = Date.now();
  const { game, scenario } = loadScenario(o.ruleset, o.scenario);
  const model = o.mode === 'puct' ? await publishModel(o.url, o.modelDir!) : undefined;
  const { queue, events } = await openQueue(o.url, SELFPLAY_QUEUE);
  let finished = 0;
  try {
    const shares: Promise<GameRecord[]>[] = [];
    for (let first = 0; first < o.games; first += o.concurrent) {
      const body: Omit<SelfPlayJob, 'sig'> = {
        run: o.run,
        ruleset: o.ruleset,
        rulesetVersion: game.version,
        scenario: o.scenario,
        scenarioHash: scenarioHash(scenario),
        mode: o.mode,
        seedPrefix: o.seedPrefix,
        first,
        count: Math.min(o.concurrent, o.games - first),
        concurrent: o.concurrent,
        cfg: o.cfg,
        ...(o.keep ? { keep: o.keep } : {}),
        ...(model ? { model } : {}),
      };
      const id = `${o.run}.${o.seedPrefix.replace(/[^A-Za-z0-9_-]/g, '_')}.${first}`;
      shares.push(
        queue
          .add('selfplay', sealJob(body), {
            jobId: id,
            attempts: 3,
            removeOnComplete: { age: 86_400 },
            removeOnFail: { age: 7 * 86_400 },
          })
          .then(async (job) => {
            const r = (await job.waitUntilFinished(events)) as string;
            const games = packr.unpack(Buffer.from(r, 'base64')) as GameRecord[];
            await job.remove().catch(() => undefined);
            finished += games.length;
            o.onGame?.(finished);
            return games;
          }),
      );
    }
    return { records: (await Promise.all(shares)).flat(), ms: Date.now() - t };
  } finally {
    await events.close();
    await queue.close();
  }
}

/** Serve training games until `stop` resolves: one share at a time, over the local pool of `workers` threads. */
export async function serveSelfPlay(
  o: { url: string; workers: number; lockMs: number; log: (l: string) => void },
  stop: Promise<void>,
): Promise<void> {
  const redis = new Redis(redisConnection(o.url));
  redis.on('error', () => undefined);
  let tfl: LoadedTf | null = null;
  const worker = new Worker(
    SELFPLAY_QUEUE,
    async (job: Job<SelfPlayJob>) => {
      const j = job.data;
      const unsigned = signatureProblem(j);
      if (unsigned) throw new Error(`refused by a worker: ${unsigned}`);
      const sc = loadScenario(j.ruleset, j.scenario);
      if (sc.game.version !== j.rulesetVersion || scenarioHash(sc.scenario) !== j.scenarioHash)
        throw new Error(`refused by a worker: its ${j.ruleset} or scenario ${j.scenario} differs from the run's`);
      let batcher: NetBatcher | null = null;
      if (j.mode === 'puct') {
        const dir = await fetchModel(redis, j.model!);
        tfl ??= await loadTf();
        const { model, meta } = await loadModel(tfl.tf, dir);
        batcher = new NetBatcher(tfl.tf, model, meta.shape, 256);
      }
      try {
        const { records } = await playInPool({
          ruleset: j.ruleset,
          scenario: sc.scenario,
          mode: j.mode,
          games: j.count,
          first: j.first,
          seedPrefix: j.seedPrefix,
          workers: o.workers,
          concurrent: j.concurrent,
          cfg: j.cfg,
          batcher,
          ...(j.keep ? { keep: j.keep } : {}),
        });
        o.log(`training games ${j.seedPrefix}/${j.first}…${j.first + j.count - 1}: played`);
        return Buffer.from(packr.pack(records)).toString('base64');
      } finally {
        batcher?.model.dispose();
      }
    },
    { connection: redisConnection(o.url), concurrency: 1, lockDuration: o.lockMs, stalledInterval: o.lockMs },
  );
  worker.on('error', (e) => o.log(`queue: ${e.message}`));
  await worker.waitUntilReady();
  await stop;
  await worker.close();
  redis.disconnect();
}
