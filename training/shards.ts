/**
 * Training samples on disk: versioned msgpack shards (`shard-<iteration>-<n>.msgpack`) under a run folder, deflated
 * (version 2: the features are mostly zeros, so a shard shrinks several times; version 1, plain msgpack, is still
 * read). Float arrays are stored as little-endian float32 bytes. Reading checks the format, version, encoding and
 * sizes, and names the file and the problem when a shard is corrupt.
 */
import { readFileSync, readdirSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { pack, unpack } from 'msgpackr';
import type { Sample } from './selfplay.ts';

const SHARD_FORMAT = 'eagles-shard';
const SHARD_VERSION = 2;
/** Deflated shards start with these bytes, then the deflated msgpack body. */
const MAGIC = Buffer.from('EGSHARD2');

export interface ShardHeader {
  readonly format: typeof SHARD_FORMAT;
  readonly version: number;
  readonly ruleset: string;
  readonly scenario: string;
  readonly encoding: string;
  readonly stateSize: number;
  readonly actionSize: number;
  /** 'imitation' or 'selfplay'. */
  readonly source: string;
  readonly iteration: number;
  readonly games: number;
  readonly created: string;
}

export class ShardError extends Error {}

function bytes(f: Float32Array): Uint8Array {
  return new Uint8Array(f.buffer, f.byteOffset, f.byteLength);
}
function floats(b: Uint8Array, what: string, file: string): Float32Array {
  if (!(b instanceof Uint8Array) || b.byteLength % 4)
    throw new ShardError(`${file}: ${what} is not a float32 byte array`);
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

export function writeShard(
  file: string,
  header: Omit<ShardHeader, 'format' | 'version'>,
  samples: readonly Sample[],
): void {
  const body = {
    header: { ...header, format: SHARD_FORMAT, version: SHARD_VERSION },
    samples: samples.map((x) => ({ s: bytes(x.s), a: bytes(x.a), k: x.k, pi: bytes(x.pi), z: x.z })),
  };
  writeFileSync(`${file}.tmp`, Buffer.concat([MAGIC, deflateSync(pack(body), { level: 1 })]));
  renameSync(`${file}.tmp`, file);
}

export function readShard(
  file: string,
  expect?: { encoding: string; stateSize: number; actionSize: number },
): { header: ShardHeader; samples: Sample[] } {
  let raw: { header?: ShardHeader; samples?: { s: Uint8Array; a: Uint8Array; k: number; pi: Uint8Array; z: number }[] };
  try {
    const bytes = readFileSync(file);
    raw = unpack(bytes.subarray(0, MAGIC.length).equals(MAGIC) ? inflateSync(bytes.subarray(MAGIC.length)) : bytes);
  } catch (e) {
    throw new ShardError(`${file}: not a readable msgpack shard (${(e as Error).message})`);
  }
  const h = raw?.header;
  if (!h || h.format !== SHARD_FORMAT) throw new ShardError(`${file}: not an eagles training shard`);
  if (h.version !== 1 && h.version !== SHARD_VERSION)
    throw new ShardError(`${file}: shard version ${h.version}; this build reads 1 and ${SHARD_VERSION}`);
  if (
    expect &&
    (h.encoding !== expect.encoding || h.stateSize !== expect.stateSize || h.actionSize !== expect.actionSize)
  )
    throw new ShardError(
      `${file}: encoded with ${h.encoding} (${h.stateSize}/${h.actionSize}), expected ${expect.encoding} (${expect.stateSize}/${expect.actionSize})`,
    );
  if (!Array.isArray(raw.samples)) throw new ShardError(`${file}: no samples`);
  const samples = raw.samples.map((x, i) => {
    const s = floats(x.s, `sample ${i} state`, file);
    const a = floats(x.a, `sample ${i} actions`, file);
    const pi = floats(x.pi, `sample ${i} policy`, file);
    if (s.length !== h.stateSize || a.length !== x.k * h.actionSize || pi.length !== x.k || !(x.z >= -1 && x.z <= 1))
      throw new ShardError(`${file}: sample ${i} has inconsistent sizes or outcome`);
    return { s, a, k: x.k, pi, z: x.z };
  });
  return { header: h, samples };
}

/** Shard files in a folder, oldest first. */
export function listShards(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^shard-\d+-\d+\.msgpack$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}
