/** A real Redis server for tests: Debian's redis-server on a free loopback port, optionally with append-only files. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** Why redis-server cannot run here, or null. */
export function redisUnavailable(): string | null {
  const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return r.error ? 'redis-server is not installed (Debian package redis-server)' : null;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** SIGKILL the server. */
  kill(): Promise<void>;
  /** Start it again on the same port and folder (its append-only file is read back). */
  restart(): Promise<void>;
}

async function waitReady(port: number, password?: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = spawnSync('redis-cli', ['-p', String(port), ...(password ? ['-a', password] : []), 'ping'], {
      encoding: 'utf8',
    });
    if (r.stdout?.trim() === 'PONG') return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`redis-server on port ${port} did not start`);
}

export async function startRedis(o: { dir?: string; password?: string } = {}): Promise<TestRedis> {
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    ...(o.dir ? ['--dir', o.dir, '--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
    ...(o.password ? ['--requirepass', o.password] : []),
  ];
  let proc: ChildProcess;
  const start = async () => {
    proc = spawn('redis-server', args, { stdio: 'ignore' });
    await waitReady(port, o.password);
  };
  await start();
  return {
    port,
    url: `redis://${o.password ? `:${o.password}@` : ''}127.0.0.1:${port}`,
    kill: async () => {
      if (proc.exitCode !== null) return;
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await gone;
    },
    restart: start,
  };
}
