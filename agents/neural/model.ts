/**
 * The policy/value network: a state trunk, a value head, and a pointer-style policy head that scores each legal
 * action from its own features against the state embedding, so positions with any number of actions share one
 * network. Saved and loaded as a standard tfjs layers model (`model.json` + `weights.bin`) with the encoding and
 * training details in its metadata.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { LayersModel, io } from '@tensorflow/tfjs';
import seedrandom from 'seedrandom';
import type { Tf } from './backend.ts';

export interface NetShape {
  readonly stateSize: number;
  readonly actionSize: number;
  /** Width of the state trunk's two hidden layers. */
  readonly hidden: number;
  /** Width of the action embedding. */
  readonly actHidden: number;
}

export const DEFAULT_NET = { hidden: 128, actHidden: 64 } as const;

export interface ModelMeta {
  readonly format: 'eagles-model';
  readonly version: 1;
  readonly ruleset: string;
  readonly scenario: string;
  readonly encoding: string;
  readonly shape: NetShape;
  readonly iteration: number;
  readonly trainedOn?: number;
  readonly command?: string;
  readonly created?: string;
}

/**
 * inputs: state [B, S], actions [B, K, A] (K varies by batch); outputs: logits [B, K] (unmasked), value [B, 1] in [-1, 1].
 */
export function buildModel(tf: Tf, shape: NetShape, seed?: string): LayersModel {
  // With a seed, every layer's initial weights come from it (glorot uniform, tfjs's default), so a training run's
  // bootstrap is reproducible on one backend; without one, tfjs draws them from Math.random.
  const rng = seed === undefined ? null : seedrandom(`${seed}/init`);
  const init = () =>
    rng ? { kernelInitializer: tf.initializers.glorotUniform({ seed: Math.floor(rng() * 2 ** 31) }) } : {};
  const st = tf.input({ shape: [shape.stateSize], name: 'state' });
  const ac = tf.input({ shape: [null, shape.actionSize], name: 'actions' });
  let h = tf.layers
    .dense({ ...init(), units: shape.hidden, activation: 'relu', name: 'trunk1' })
    .apply(st) as ReturnType<typeof tf.input>;
  h = tf.layers.dense({ ...init(), units: shape.hidden, activation: 'relu', name: 'trunk2' }).apply(h) as ReturnType<
    typeof tf.input
  >;
  const value = tf.layers
    .dense({ ...init(), units: 1, activation: 'tanh', name: 'value' })
    .apply(tf.layers.dense({ ...init(), units: 64, activation: 'relu', name: 'value_hidden' }).apply(h)) as ReturnType<
    typeof tf.input
  >;
  const query = tf.layers.dense({ ...init(), units: shape.actHidden, name: 'query' }).apply(h) as ReturnType<
    typeof tf.input
  >;
  let ae = tf.layers
    .dense({ ...init(), units: shape.actHidden, activation: 'relu', name: 'act1' })
    .apply(ac) as ReturnType<typeof tf.input>;
  ae = tf.layers.dense({ ...init(), units: shape.actHidden, activation: 'relu', name: 'act2' }).apply(ae) as ReturnType<
    typeof tf.input
  >;
  const dot = tf.layers.dot({ axes: [2, 1], name: 'pointer' }).apply([ae, query]) as ReturnType<typeof tf.input>;
  const direct = tf.layers.dense({ ...init(), units: 1, name: 'act_bias' }).apply(ae) as ReturnType<typeof tf.input>;
  const directFlat = tf.layers.reshape({ targetShape: [-1], name: 'act_bias_flat' }).apply(direct) as ReturnType<
    typeof tf.input
  >;
  const logits = tf.layers.add({ name: 'logits' }).apply([dot, directFlat]) as ReturnType<typeof tf.input>;
  return tf.model({ inputs: [st, ac], outputs: [logits, value], name: 'eagles_pv' });
}

/** A batch of positions, actions padded to `k` per position with a 0/1 mask. */
export interface Batch {
  readonly n: number;
  readonly k: number;
  readonly state: Float32Array; // n × S
  readonly actions: Float32Array; // n × k × A
  readonly mask: Float32Array; // n × k
}

/** Forward pass: masked softmax priors (n × k) and values (n). */
export function forward(
  tf: Tf,
  model: LayersModel,
  shape: NetShape,
  b: Batch,
): { priors: Float32Array; values: Float32Array } {
  const [lg, v] = tf.tidy(() => {
    const out = model.predict(
      [tf.tensor2d(b.state, [b.n, shape.stateSize]), tf.tensor3d(b.actions, [b.n, b.k, shape.actionSize])],
      {
        batchSize: Math.max(1, b.n),
      },
    ) as import('@tensorflow/tfjs').Tensor[];
    return [out[0]!, out[1]!];
  });
  const logits = lg.dataSync() as Float32Array;
  const values = v.dataSync() as Float32Array;
  lg.dispose();
  v.dispose();
  const priors = new Float32Array(b.n * b.k);
  for (let i = 0; i < b.n; i++) {
    let m = -Infinity;
    for (let j = 0; j < b.k; j++) if (b.mask[i * b.k + j]) m = Math.max(m, logits[i * b.k + j]!);
    let z = 0;
    for (let j = 0; j < b.k; j++) {
      const e = b.mask[i * b.k + j] ? Math.exp(logits[i * b.k + j]! - m) : 0;
      priors[i * b.k + j] = e;
      z += e;
    }
    if (z > 0) for (let j = 0; j < b.k; j++) priors[i * b.k + j]! /= z;
  }
  return { priors, values: Float32Array.from(values) };
}

/** Save with tfjs `model.save` into `dir` (model.json + weights.bin, the standard layers-model layout). */
export async function saveModel(tf: Tf, model: LayersModel, dir: string, meta: ModelMeta): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await model.save(
    tf.io.withSaveHandler(async (art: io.ModelArtifacts) => {
      const data = art.weightData;
      const buf = Array.isArray(data)
        ? Buffer.concat(data.map((d) => Buffer.from(d)))
        : Buffer.from(data as ArrayBuffer);
      const json = {
        modelTopology: art.modelTopology,
        format: art.format ?? 'layers-model',
        generatedBy: art.generatedBy,
        convertedBy: art.convertedBy ?? null,
        weightsManifest: [{ paths: ['weights.bin'], weights: art.weightSpecs }],
        userDefinedMetadata: { eagles: meta },
      };
      // write both files under temporary names, then rename: a crash never leaves a half-written model
      writeFileSync(join(dir, 'weights.bin.tmp'), buf);
      writeFileSync(join(dir, 'model.json.tmp'), JSON.stringify(json));
      renameSync(join(dir, 'weights.bin.tmp'), join(dir, 'weights.bin'));
      renameSync(join(dir, 'model.json.tmp'), join(dir, 'model.json'));
      return { modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: 'JSON', weightDataBytes: buf.length } };
    }),
  );
}

export class ModelFileError extends Error {}

/** Read a model's metadata without loading tfjs. */
export function readModelMeta(dir: string): ModelMeta {
  const file = join(dir, 'model.json');
  if (!existsSync(file)) throw new ModelFileError(`no model at ${dir} (expected ${file})`);
  let json: { userDefinedMetadata?: { eagles?: ModelMeta } };
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ModelFileError(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  const meta = json.userDefinedMetadata?.eagles;
  if (!meta || meta.format !== 'eagles-model')
    throw new ModelFileError(`${file} is not an eagles model (no eagles metadata)`);
  if (meta.version !== 1)
    throw new ModelFileError(`${file}: model format version ${meta.version} is not supported (this build reads 1)`);
  return meta;
}

export async function loadModel(tf: Tf, dir: string): Promise<{ model: LayersModel; meta: ModelMeta }> {
  const meta = readModelMeta(dir);
  const json = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));
  const wfile = join(dir, 'weights.bin');
  if (!existsSync(wfile)) throw new ModelFileError(`${dir}: weights.bin is missing`);
  const w = readFileSync(wfile);
  const specs = json.weightsManifest?.[0]?.weights;
  if (!specs) throw new ModelFileError(`${dir}/model.json has no weightsManifest`);
  try {
    const model = await tf.loadLayersModel(
      tf.io.fromMemory({
        modelTopology: json.modelTopology,
        weightSpecs: specs,
        weightData: w.buffer.slice(w.byteOffset, w.byteOffset + w.byteLength),
      }),
    );
    return { model, meta };
  } catch (e) {
    throw new ModelFileError(`${dir}: cannot load the model (${(e as Error).message})`);
  }
}
