#!/usr/bin/env -S npx tsx
/** `eagles`: one CLI; each area registers its own commands. */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { agentCommands } from '../agents/commands.ts';
import { arenaCommands, CliError } from '../arena/commands.ts';
import { benchCommands } from '../arena/bench.ts';
import { envServerCommands } from '../arena/env-server.ts';
import { ladderCommands, tournamentCommands } from '../arena/tournament-commands.ts';
import { trainCommands } from '../training/commands.ts';
import { AgentSpecError } from '../agents/agent.ts';
import { ScenarioError } from '../arena/catalog.ts';
import { IllegalActionError } from '../engine/core/game.ts';

function report(e: unknown): never {
  const known =
    e instanceof CliError ||
    e instanceof AgentSpecError ||
    e instanceof ScenarioError ||
    e instanceof IllegalActionError;
  const msg = e instanceof Error ? e.message : String(e);
  process.stderr.write(`eagles: error: ${msg}\n`);
  if (!known && process.env.EAGLES_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
  process.exit(e instanceof CliError ? e.exitCode : 1);
}

let y = yargs(hideBin(process.argv)).scriptName('eagles').usage('$0 <command> [options]');
y = arenaCommands(y);
y = agentCommands(y);
y = benchCommands(y);
y = tournamentCommands(y);
y = ladderCommands(y);
y = trainCommands(y);
y = envServerCommands(y);
y.demandCommand(1, 'name a command (see --help)')
  .strict()
  .recommendCommands()
  .help()
  .alias('h', 'help')
  .fail((msg, err) => {
    if (err) report(err);
    process.stderr.write(`eagles: error: ${msg}\nRun "eagles --help" for usage.\n`);
    process.exit(2);
  })
  .parseAsync()
  .catch(report);
