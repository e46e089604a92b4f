/**
 * Network evaluation requests, batched. `NetBatcher` owns a model in one thread and answers requests from anywhere
 * in that thread, and, through `serve(port)`, from worker threads (tfjs-node does not load in workers, so self-play
 * workers send their requests to one place that batches them). Requests queue until `maxBatch` are waiting or the
 * event loop turns, then run as one forward pass.
 */
import type { MessagePort } from 'node:worker_threads';
import type { LayersModel } from '@tensorflow/tfjs';
import type { Tf } from './backend.ts';
import { forward, type NetShape } from './model.ts';

export interface NetRequest {
  /** State features (stateSize). */
  readonly state: Float32Array;
  /** k action feature vectors (k × actionSize). */
  readonly actions: Float32Array;
  readonly k: number;
}
export interface NetReply {
  /** Value for the player whose view was encoded, in [-1, 1]. */
  readonly value: number;
  readonly priors: Float32Array;
}
export interface NetEvaluator {
  evaluate(req: NetRequest): Promise<NetReply>;
}

interface Pending {
  req: NetRequest;
  resolve: (r: NetReply) => void;
  reject: (e: unknown) => void;
}

export interface BatchStats {
  requests: number;
  batches: number;
}

export class NetBatcher implements NetEvaluator {
  private queue: Pending[] = [];
  private scheduled = false;
  readonly stats: BatchStats = { requests: 0, batches: 0 };

  constructor(
    private readonly tf: Tf,
    public model: LayersModel,
    readonly shape: NetShape,
    readonly maxBatch = 64,
  ) {}

  evaluate(req: NetRequest): Promise<NetReply> {
    if (req.state.length !== this.shape.stateSize)
      throw new Error(
        `network request: state has ${req.state.length} features, the network takes ${this.shape.stateSize}`,
      );
    if (req.actions.length !== req.k * this.shape.actionSize)
      throw new Error(
        `network request: ${req.actions.length} action features for k=${req.k} (expected ${req.k * this.shape.actionSize})`,
      );
    return new Promise((resolve, reject) => {
      this.queue.push({ req, resolve, reject });
      if (this.queue.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  /** Run everything queued now as one batch. */
  flush(): void {
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        this.run(batch);
      } catch (e) {
        for (const p of batch) p.reject(e);
      }
    }
  }

  private run(batch: Pending[]): void {
    const S = this.shape.stateSize;
    const A = this.shape.actionSize;
    const n = batch.length;
    let k = 1;
    for (const p of batch) k = Math.max(k, p.req.k);
    const state = new Float32Array(n * S);
    const actions = new Float32Array(n * k * A);
    const mask = new Float32Array(n * k);
    batch.forEach((p, i) => {
      state.set(p.req.state, i * S);
      actions.set(p.req.actions, i * k * A);
      mask.fill(1, i * k, i * k + p.req.k);
    });
    const { priors, values } = forward(this.tf, this.model, this.shape, { n, k, state, actions, mask });
    this.stats.requests += n;
    this.stats.batches++;
    batch.forEach((p, i) => p.resolve({ value: values[i]!, priors: priors.slice(i * k, i * k + p.req.k) }));
  }

  /** Answer requests arriving on `port` (from a `PortEvaluator` in another thread). */
  serve(port: MessagePort): void {
    port.on('message', (m: { id: number; state: Float32Array; actions: Float32Array; k: number }) => {
      this.evaluate(m).then(
        (r) => port.postMessage({ id: m.id, value: r.value, priors: r.priors }),
        (e) => port.postMessage({ id: m.id, error: String((e as Error).message ?? e) }),
      );
    });
  }
}

/** The worker-side end: sends requests over a MessagePort to a `NetBatcher.serve`. */
export class PortEvaluator implements NetEvaluator {
  private next = 1;
  private waiting = new Map<number, { resolve: (r: NetReply) => void; reject: (e: unknown) => void }>();

  constructor(private readonly port: MessagePort) {
    port.on('message', (m: { id: number; value?: number; priors?: Float32Array; error?: string }) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.error !== undefined) w.reject(new Error(`network evaluation failed: ${m.error}`));
      else w.resolve({ value: m.value!, priors: m.priors! });
    });
  }

  evaluate(req: NetRequest): Promise<NetReply> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port.postMessage({ id, state: req.state, actions: req.actions, k: req.k });
    });
  }

  close(): void {
    for (const w of this.waiting.values()) w.reject(new Error('network evaluator closed'));
    this.waiting.clear();
    this.port.close();
  }
}
