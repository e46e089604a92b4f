/** `eagles agents`: list the agent specs the registry knows. */
import type { Argv } from 'yargs';
import { listAgents } from './registry.ts';

export function agentCommands(y: Argv): Argv {
  return y.command(
    'agents',
    'List the agents and their spec parameters',
    (a) => a.option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
    async (args) => {
      const list = listAgents().map((f) => ({ name: f.name, description: f.description, params: f.params }));
      if (args.json) return void console.log(JSON.stringify(list, null, 2));
      for (const f of list) {
        console.log(`${f.name.padEnd(10)} ${f.description}`);
        for (const [k, v] of Object.entries(f.params)) console.log(`${''.padEnd(12)}${k}=…  ${v}`);
      }
      console.log('\nSpecs are name[:key=value,...], e.g. random or mcts:ms=1000.');
    },
  );
}
