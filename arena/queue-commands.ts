/** `eagles worker`: serve the games queue of runs on other machines (BullMQ on Redis). */
import os from 'node:os';
import type { Argv } from 'yargs';
import { CliError } from './commands.ts';

export function workerCommands(y: Argv): Argv {
  return y.command(
    'worker',
    'Serve queued games (arena run, ladder run and train with --queue) from a Redis server, on this or any machine',
    (a) =>
      a
        .option('queue', {
          type: 'string',
          demandOption: true,
          describe: 'the Redis server: redis://[:PASSWORD@]HOST:PORT[/DB]',
        })
        .option('workers', {
          type: 'number',
          default: os.cpus().length,
          describe: 'games played at once by this process (its local pool of threads)',
        })
        .option('allow-ext', {
          type: 'boolean',
          default: false,
          describe: 'play games with external bots (sandboxed) from unsigned jobs (signed jobs: EAGLES_QUEUE_SECRET)',
        })
        .option('unsafe-bots', {
          type: 'boolean',
          default: false,
          describe: 'play external bots without the bubblewrap sandbox where it cannot run here (resource limits only)',
        })
        .option('lock-ms', {
          type: 'number',
          default: 30_000,
          describe: 'a game whose worker is silent this long (killed, cut off) is given to another worker',
        }),
    async (args) => {
      if (!(args.workers >= 1)) throw new CliError('--workers must be at least 1', 2);
      if (!(args['lock-ms'] >= 1000)) throw new CliError('--lock-ms must be at least 1000', 2);
      const { serveQueue } = await import('./queue.ts');
      let stop: () => void = () => undefined;
      const stopped = new Promise<void>((r) => {
        stop = r;
      });
      // Ctrl-C: finish the games in hand (a second Ctrl-C ends at once; those games go to other workers)
      process.once('SIGINT', () => {
        process.stderr.write('eagles worker: stopping after the games in hand (Ctrl-C again to stop now)\n');
        stop();
        process.once('SIGINT', () => process.exit(130));
      });
      process.once('SIGTERM', () => stop());
      const log = (l: string) => process.stderr.write(`eagles worker: ${l}\n`);
      const common = { url: args.queue, workers: args.workers, lockMs: args['lock-ms'], log };
      // arena and ladder games, and training games (train --queue)
      const games = serveQueue(
        { ...common, allowExt: args['allow-ext'], unsafeBots: args['unsafe-bots'] },
        stopped,
      ).then((s) => {
        stop();
        return s;
      });
      const { serveSelfPlay } = await import('../training/queue.ts');
      const [stale] = await Promise.all([games, serveSelfPlay(common, stopped)]);
      if (stale) throw new CliError(`this worker cannot play the run's games: ${stale}`, 3);
    },
  );
}
