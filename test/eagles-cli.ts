/** The `eagles` command as tests run it: a real process from the repository root, with its exit code and output. */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
/** Node's arguments that start the CLI (tsx, then bin/eagles.ts). */
export const CLI = ['--import', 'tsx', join(ROOT, 'bin/eagles.ts')];

export function eagles(args: readonly string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [...CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
