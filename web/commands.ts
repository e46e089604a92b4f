/** `eagles serve`: the web table (see `server.ts`). */
import type { Argv } from 'yargs';
import { CliError } from '../arena/commands.ts';
import { serve } from './server.ts';

export function webCommands(y: Argv): Argv {
  return y.command(
    'serve',
    'Play in the browser: start the web table on this machine and print its address',
    (a) =>
      a
        .option('port', { type: 'number', default: 8080, describe: 'port to listen on (0: any free port)' })
        .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on' })
        .option('db', {
          type: 'string',
          default: 'runs/web/games.sqlite',
          describe: 'SQLite file the games are saved in',
        })
        .option('runs', {
          type: 'string',
          default: 'runs',
          describe: 'folder of arena run folders the replay viewer may open',
        })
        .option('workers', {
          type: 'number',
          default: 2,
          describe: 'computer players thinking at once (worker threads)',
        })
        .option('think-limit', {
          type: 'number',
          default: 120,
          describe: 'seconds a computer player may think over one decision before it is stopped',
        }),
    async (a) => {
      if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535)
        throw new CliError(`--port must be a whole number from 0 to 65535, not ${a.port}`);
      if (!Number.isInteger(a.workers) || a.workers < 1)
        throw new CliError(`--workers must be at least 1, not ${a.workers}`);
      if (!(a.thinkLimit > 0))
        throw new CliError(`--think-limit must be a positive number of seconds, not ${a.thinkLimit}`);
      let s: Awaited<ReturnType<typeof serve>>;
      try {
        s = await serve({
          port: a.port,
          host: a.host,
          db: a.db,
          runs: a.runs,
          workers: a.workers,
          thinkLimitMs: a.thinkLimit * 1000,
        });
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        if (err.code === 'EADDRINUSE') throw new CliError(`port ${a.port} is in use: choose another with --port`);
        throw e;
      }
      process.stdout.write(`the web table is at ${s.url}\n(Ctrl-C stops the server; games are saved in ${a.db})\n`);
      const stop = () => {
        s.close().finally(() => process.exit(0));
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      await new Promise(() => {});
    },
  );
}
