/**
 * The learner: minibatch Adam on policy cross-entropy to the visit (or imitation) distribution plus value MSE to the
 * outcome, with a small L2 penalty, over a replay window of the most recent samples.
 */
import type { LayersModel, Tensor } from '@tensorflow/tfjs';
import type { Tf } from '../agents/neural/backend.ts';
import type { NetShape } from '../agents/neural/model.ts';
import type { Sample } from './selfplay.ts';

export interface LearnerConfig {
  readonly lr: number;
  readonly batch: number;
  readonly l2: number;
  /** Weight of the value loss. */
  readonly valueWeight: number;
}

export const DEFAULT_LEARNER: LearnerConfig = { lr: 1e-3, batch: 128, l2: 1e-4, valueWeight: 1 };

export interface StepLoss {
  readonly policy: number;
  readonly value: number;
}

export class Learner {
  private readonly opt;
  constructor(
    private readonly tf: Tf,
    readonly model: LayersModel,
    readonly shape: NetShape,
    readonly cfg: LearnerConfig = DEFAULT_LEARNER,
  ) {
    this.opt = tf.train.adam(cfg.lr);
  }

  /** One gradient step on `batch`; returns its losses. */
  step(batch: readonly Sample[]): StepLoss {
    const tf = this.tf;
    const S = this.shape.stateSize;
    const A = this.shape.actionSize;
    const n = batch.length;
    let k = 1;
    for (const x of batch) k = Math.max(k, x.k);
    const st = new Float32Array(n * S);
    const ac = new Float32Array(n * k * A);
    const mask = new Float32Array(n * k);
    const pi = new Float32Array(n * k);
    const z = new Float32Array(n);
    batch.forEach((x, i) => {
      st.set(x.s, i * S);
      ac.set(x.a, i * k * A);
      mask.fill(1, i * k, i * k + x.k);
      pi.set(x.pi, i * k);
      z[i] = x.z;
    });
    let pl = 0;
    let vl = 0;
    tf.tidy(() => {
      const tSt = tf.tensor2d(st, [n, S]);
      const tAc = tf.tensor3d(ac, [n, k, A]);
      const tMask = tf.tensor2d(mask, [n, k]);
      const tPi = tf.tensor2d(pi, [n, k]);
      const tZ = tf.tensor2d(z, [n, 1]);
      const kernels = this.model.trainableWeights.filter((w) => w.name.includes('kernel')).map((w) => w.read());
      let parts: Tensor[] = [];
      this.opt.minimize(() => {
        const [logits, value] = this.model.apply([tSt, tAc], { training: true }) as Tensor[];
        const masked = tf.add(logits!, tf.mul(tf.sub(tMask, 1), 1e9));
        const logp = tf.logSoftmax(masked);
        const policyLoss = tf.neg(tf.mean(tf.sum(tf.mul(tPi, tf.mul(logp, tMask)), 1)));
        const valueLoss = tf.mean(tf.square(tf.sub(value!, tZ)));
        let l2: Tensor = tf.scalar(0);
        for (const w of kernels) l2 = tf.add(l2, tf.sum(tf.square(w)));
        parts = [tf.keep(policyLoss), tf.keep(valueLoss)];
        return tf.add(
          tf.add(policyLoss, tf.mul(valueLoss, this.cfg.valueWeight)),
          tf.mul(l2, this.cfg.l2),
        ) as import('@tensorflow/tfjs').Scalar;
      });
      pl = parts[0]!.dataSync()[0]!;
      vl = parts[1]!.dataSync()[0]!;
      for (const p of parts) p.dispose();
    });
    return { policy: pl, value: vl };
  }

  /** `steps` minibatches drawn uniformly from `window` with `u`; mean losses. */
  train(window: readonly Sample[], steps: number, u: () => number): StepLoss & { samples: number } {
    if (!window.length) throw new Error('learner: no samples to train on');
    let p = 0;
    let v = 0;
    const b = Math.min(this.cfg.batch, window.length);
    for (let i = 0; i < steps; i++) {
      const batch: Sample[] = [];
      for (let j = 0; j < b; j++) batch.push(window[Math.floor(u() * window.length)]!);
      const l = this.step(batch);
      p += l.policy;
      v += l.value;
    }
    return { policy: p / steps, value: v / steps, samples: steps * b };
  }
}
