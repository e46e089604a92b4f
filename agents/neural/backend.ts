/**
 * TensorFlow.js backend chooser: tfjs-node when it is installed and loads (an optional dependency: its install
 * downloads libtensorflow, which fails where that download is unreachable; it also does not load in worker
 * threads), else the WASM backend (shipped inside its npm package), else the pure-JS CPU backend.
 * `EAGLES_TF_BACKEND=node|wasm|cpu` forces one; the choice and why are reported once.
 */
import { isMainThread } from 'node:worker_threads';

export type Tf = typeof import('@tensorflow/tfjs');
type BackendChoice = 'auto' | 'node' | 'wasm' | 'cpu';

export interface LoadedTf {
  readonly tf: Tf;
  /** tfjs backend name: tensorflow, wasm or cpu. */
  readonly backend: string;
  /** Why this backend (what was tried and failed). */
  readonly note: string;
}

let loading: Promise<LoadedTf> | null = null;
let loadedWith: BackendChoice | null = null;

function parseChoice(v: string | undefined): BackendChoice {
  if (v === undefined || v === '' || v === 'auto') return 'auto';
  if (v === 'node' || v === 'wasm' || v === 'cpu') return v;
  throw new Error(`EAGLES_TF_BACKEND / --backend must be auto, node, wasm or cpu (got "${v}")`);
}

async function tryNode(tf: Tf): Promise<string | null> {
  if (!isMainThread) return 'tfjs-node does not load in worker threads';
  try {
    // optional dependency: absent where its native download failed
    const name = '@tensorflow/tfjs-node';
    await import(/* @vite-ignore */ name);
    if (!(await tf.setBackend('tensorflow'))) return 'tfjs-node loaded but its backend did not initialise';
    return null;
  } catch (e) {
    return `tfjs-node unavailable (${String((e as Error).message ?? e).split('\n')[0]})`;
  }
}

async function tryWasm(tf: Tf): Promise<string | null> {
  try {
    await import('@tensorflow/tfjs-backend-wasm');
    if (!(await tf.setBackend('wasm'))) return 'the WASM backend did not initialise';
    return null;
  } catch (e) {
    return `WASM backend unavailable (${String((e as Error).message ?? e).split('\n')[0]})`;
  }
}

async function load(choice: BackendChoice): Promise<LoadedTf> {
  const tf = await import('@tensorflow/tfjs');
  const failed: string[] = [];
  if (choice === 'auto' || choice === 'node') {
    const why = await tryNode(tf);
    if (!why) return { tf, backend: 'tensorflow', note: 'tfjs-node (native)' };
    if (choice === 'node') throw new Error(`backend node requested but ${why}`);
    failed.push(why);
  }
  if (choice === 'auto' || choice === 'wasm') {
    const why = await tryWasm(tf);
    if (!why) return { tf, backend: 'wasm', note: failed.length ? `WASM (${failed.join('; ')})` : 'WASM' };
    if (choice === 'wasm') throw new Error(`backend wasm requested but ${why}`);
    failed.push(why);
  }
  await tf.setBackend('cpu');
  await tf.ready();
  return { tf, backend: 'cpu', note: failed.length ? `pure-JS CPU (${failed.join('; ')})` : 'pure-JS CPU' };
}

/**
 * Load tfjs with the chosen backend (`EAGLES_TF_BACKEND` when `choice` is not given). Repeated calls with the same
 * choice share one load; a different explicit choice switches the process's backend (benchmarks compare them).
 */
export function loadTf(choice?: string): Promise<LoadedTf> {
  const c = parseChoice(choice ?? process.env.EAGLES_TF_BACKEND);
  if (!loading || loadedWith !== c) {
    loadedWith = c;
    loading = load(c);
  }
  return loading;
}
