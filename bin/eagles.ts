#!/usr/bin/env -S npx tsx
/** `eagles`: one CLI; each area registers its own commands. */
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { agentCommands } from '../agents/commands.ts';
import { arenaCommands, CliError } from '../arena/commands.ts';
import { benchCommands } from '../arena/bench.ts';
import { envServerCommands } from '../arena/env-server.ts';
import { ladderCommands, tournamentCommands } from '../arena/tournament-commands.ts';
import { workerCommands } from '../arena/queue-commands.ts';
import { trainCommands } from '../training/commands.ts';
import { webCommands } from '../web/commands.ts';
import { AgentSpecError } from '../agents/agent.ts';
import { ScenarioError } from '../arena/catalog.ts';
import { IllegalActionError } from '../engine/core/game.ts';
import { suggest } from '../engine/core/suggest.ts';

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

// Output piped into a reader that stops early (`eagles … | head`): end quietly, as a shell tool does on SIGPIPE.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });

const args = hideBin(process.argv);
/** " (did you mean "x"?)" when `word` looks like a slip for one of `known`, else nothing. */
const hint = (word: string, known: readonly string[]) => {
  const s = suggest(word, known);
  return s === undefined ? '' : ` (did you mean "${s}"?)`;
};

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The options yargs knows for the command being run (not in yargs' typings). */
interface OptionTable {
  /** Every option name, aliases included. */
  key: Record<string, unknown>;
  string: string[];
  number: string[];
  array: string[];
  choices: Record<string, unknown>;
  alias: Record<string, string[]>;
}

/**
 * The first flag of `argv` that takes a value but was given none (`--games` last, or followed by another flag, or
 * `--games=`): yargs would read it as '' (or true) or silently use the default.
 */
function flagWithoutValue(argv: readonly string[], o: OptionTable): string | undefined {
  const takesValue = new Set([...o.string, ...o.number, ...o.array, ...Object.keys(o.choices)]);
  for (const [k, as] of Object.entries(o.alias)) if (takesValue.has(k)) for (const a of as) takesValue.add(a);
  for (let i = 0; i < argv.length; i++) {
    const t = argv[i]!;
    if (t === '--') break;
    const m = /^--?([^=-][^=]*)(=(.*))?$/.exec(t);
    if (!m) continue;
    const name = m[1]!;
    if (!takesValue.has(name) && !takesValue.has(kebab(name))) continue;
    const next = argv[i + 1];
    const missing = m[2] !== undefined ? m[3] === '' : next === undefined || /^-(?!\d|\.\d)/.test(next);
    if (missing) return t.replace(/=.*$/, '');
  }
  return undefined;
}

/** yargs' "Invalid values: Argument: x, Given: "y", Choices: …" as one line with the choice it may misspell. */
function invalidChoice(msg: string): string | undefined {
  const m = /Argument: (\S+), Given: (.*), Choices: (.*)$/m.exec(msg);
  if (!m) return undefined;
  const [, name, given, list] = m as unknown as [string, string, string, string];
  const choices = list.split(', ').map((c) => c.replace(/^"|"$/g, ''));
  const value = given.replace(/^"|"$/g, '');
  const flag = args.some((a) => a === `--${name}` || a.startsWith(`--${name}=`)) ? `--${name}` : name;
  return `${flag}: unknown value "${value}"${hint(value, choices)}; choose one of ${choices.join(', ')}`;
}

/** yargs' "Unknown argument(s): a, b" for flags: each flag as typed, with the flag it may misspell. */
function unknownFlags(msg: string, o: OptionTable): string | undefined {
  const m = /^Unknown arguments?: (.*)$/.exec(msg);
  if (!m) return undefined;
  const said = m[1]!.split(', ');
  // yargs names --two-words twice, also as twoWords
  const words = said.filter((w) => !(/[A-Z]/.test(w) && said.includes(kebab(w))));
  const typed = words.map((w) => args.find((a) => a === `-${w}` || a === `--${w}` || a.startsWith(`--${w}=`)));
  if (typed.some((t) => t === undefined)) return undefined; // a stray positional: yargs' own message
  const known = Object.keys(o.key).filter((k) => k.length > 1 && !/[A-Z]/.test(k));
  return words
    .map((w, i) => {
      const s = suggest(w, known);
      return `Unknown argument ${typed[i]!.replace(/=.*$/, '')}${s === undefined ? '' : ` (did you mean --${s}?)`}`;
    })
    .join('; ');
}

let y = yargs(args).scriptName('eagles').usage('$0 <command> [options]');
// the command names as registered, for "did you mean" on an unknown one
const commands: string[] = [];
const command = y.command.bind(y) as (...a: unknown[]) => Argv;
y.command = ((...a: unknown[]) => {
  if (typeof a[0] === 'string') commands.push(a[0].split(' ')[0]!);
  return command(...a);
}) as unknown as Argv['command'];
y = arenaCommands(y);
y = agentCommands(y);
y = benchCommands(y);
y = tournamentCommands(y);
y = ladderCommands(y);
y = trainCommands(y);
y = envServerCommands(y);
y = workerCommands(y);
y = webCommands(y);

const first = args.find((a) => !a.startsWith('-'));
if (first !== undefined && !commands.includes(first))
  report(new CliError(`unknown command "${first}"${hint(first, commands)}; commands: ${commands.join(', ')}`, 2));

/** The running command's options, kept by the middleware (it runs before validation) for the failure handler. */
let options: OptionTable | undefined;
y.middleware(
  ((_argv: unknown, inner: { getOptions(): OptionTable }) => {
    options = inner.getOptions();
    const flag = flagWithoutValue(args, options);
    if (flag) report(new CliError(`${flag} needs a value`, 2));
  }) as unknown as Parameters<Argv['middleware']>[0],
  true,
)
  .demandCommand(1, 'name a command (see --help)')
  .strict()
  .help()
  .alias('h', 'help')
  .fail((msg, err) => {
    if (err) report(err);
    const line = invalidChoice(msg) ?? (options && unknownFlags(msg, options));
    if (line) report(new CliError(line, 2));
    process.stderr.write(`eagles: error: ${msg}\nRun "eagles --help" for usage.\n`);
    process.exit(2);
  })
  .parseAsync()
  .catch(report);
