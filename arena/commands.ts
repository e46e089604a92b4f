/** `eagles play`, `eagles rulesets`, `eagles scenario validate`, `eagles replay verify|show`. */
import { accessSync, constants, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Argv } from 'yargs';
import type { Agent } from '../agents/agent.ts';
import { HumanAgent, LineSource } from '../agents/human.ts';
import { createAgent } from '../agents/registry.ts';
import type { GameEvent } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import { actionView, observationHash } from '../engine/core/views.ts';
import { decodeReplay, encodeReplay, ReplayError } from '../engine/core/replay.ts';
import { getRuleset, RULESETS } from '../engine/rulesets/index.ts';
import { ScenarioError, loadScenario, loadScenarioFile, scenarioHash, scenarioIds } from './catalog.ts';
import { runMatch } from './match.ts';
import { SideLog } from './viewer.ts';

/** An error the CLI reports as one clear line (no stack trace), with an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

function sideIndex(game: { players: readonly string[] }, v: string, flag = '--human'): number {
  const i = game.players.findIndex((p) => p.toLowerCase() === v.toLowerCase());
  if (i >= 0) return i;
  if (/^[12]$/.test(v)) return Number(v) - 1;
  throw new CliError(`${flag}: unknown side "${v}"; use one of ${game.players.join(', ')} (or 1, 2)`, 2);
}

function readReplayFile(file: string) {
  if (!existsSync(file)) throw new CliError(`replay file not found: ${file}`);
  try {
    return decodeReplay(readFileSync(file));
  } catch (e) {
    if (e instanceof ReplayError) throw new CliError(`${file}: ${e.message}`);
    throw e;
  }
}

/** A replay can be written to `file`: not a folder, in a folder that exists and is writable (checked before playing). */
function replayWritable(file: string): void {
  if (existsSync(file) && statSync(file).isDirectory())
    throw new CliError(`--replay ${file} is a folder; name a file`, 2);
  const dir = dirname(file);
  if (!existsSync(dir)) throw new CliError(`--replay ${file}: folder ${dir} does not exist`, 2);
  try {
    accessSync(existsSync(file) ? file : dir, constants.W_OK);
  } catch {
    throw new CliError(`--replay ${file} cannot be written`, 2);
  }
}

export function arenaCommands(y: Argv): Argv {
  return y
    .command(
      'rulesets',
      'List rulesets and their scenarios',
      (a) =>
        a.option('json', {
          type: 'boolean',
          default: false,
          describe: 'print JSON: each ruleset with its sides, version and scenarios',
        }),
      async (args) => {
        const list = Object.values(RULESETS).map((g) => ({
          id: g.id,
          title: g.title,
          version: g.version,
          players: g.players,
          defaultScenario: g.defaultScenario,
          scenarios: scenarioIds(g.id),
        }));
        if (args.json) return void console.log(JSON.stringify(list, null, 2));
        for (const r of list) {
          console.log(`${r.id} — ${r.title} (v${r.version}; sides ${r.players.join(', ')})`);
          for (const s of r.scenarios) console.log(`  ${s}${s === r.defaultScenario ? '  (default)' : ''}`);
        }
      },
    )
    .command(
      'scenario <action> <file>',
      'Check a scenario file (action: validate)',
      (a) =>
        a
          .positional('action', { choices: ['validate'] as const, describe: 'what to do' })
          .positional('file', { type: 'string', demandOption: true, describe: 'scenario JSON file' })
          .option('json', {
            type: 'boolean',
            default: false,
            describe: 'print JSON: ok, ruleset, id and hash, or the problems',
          }),
      async (args) => {
        try {
          const { game, scenario } = loadScenarioFile(args.file as string);
          const out = {
            ok: true,
            file: args.file,
            ruleset: game.id,
            id: (scenario as { id: string }).id,
            hash: scenarioHash(scenario),
          };
          console.log(
            args.json ? JSON.stringify(out) : `${args.file}: valid ${game.id} scenario "${out.id}" (hash ${out.hash})`,
          );
        } catch (e) {
          if (!(e instanceof ScenarioError)) throw e;
          if (args.json) console.log(JSON.stringify({ ok: false, file: args.file, problems: e.problems }));
          throw new CliError(e.message); // the first problems, then how many more (--json lists them all)
        }
      },
    )
    .command(
      'play',
      'Play a game between two agents (or a person and an agent) and print the result',
      (a) =>
        a
          .option('ruleset', {
            alias: 'r',
            type: 'string',
            default: 'march-of-eagles',
            describe: 'ruleset id (see `eagles rulesets`)',
          })
          .option('scenario', {
            alias: 's',
            type: 'string',
            describe: "scenario id or path to a JSON file (default: the ruleset's default)",
          })
          .option('p1', { type: 'string', default: 'random', describe: 'agent spec for the first side' })
          .option('p2', { type: 'string', default: 'random', describe: 'agent spec for the second side' })
          .option('seed', { type: 'string', describe: 'match seed (default: random, printed)' })
          .option('human', {
            type: 'string',
            describe: 'let a person play this side at the terminal (a side as `eagles rulesets` names it, or 1 or 2)',
          })
          .option('replay', { type: 'string', describe: 'write the replay (msgpack) to this file' })
          .option('log', { type: 'boolean', default: false, describe: 'print every event with its rule citation' })
          .option('explain', { type: 'boolean', default: false, describe: "print the agents' explanations" })
          .option('as', {
            type: 'string',
            describe:
              "print the game as this side sees it (another side's secrets redacted; default: the --human side, else everything)",
          })
          .option('board', { type: 'boolean', default: true, describe: 'print the final table' })
          .option('json', {
            type: 'boolean',
            default: false,
            describe: 'print one JSON object (result, seed, final hash, plies); not with --human',
          }),
      async (args) => {
        if (args.json && args.human !== undefined)
          throw new CliError('--json with --human: the prompts would share standard output with the JSON', 2);
        if (args.replay) replayWritable(args.replay); // refuse now, not after a whole game
        const game = getRuleset(args.ruleset);
        const { scenario, id } = loadScenario(game.id, args.scenario);
        const seed = args.seed ?? randomBytes(6).toString('hex');
        const specs = [args.p1, args.p2];
        const human = args.human !== undefined ? sideIndex(game, args.human) : -1;
        const lines = human >= 0 ? new LineSource() : null;
        const agents: Agent[] = specs.map((spec, i) =>
          i === human ? new HumanAgent(lines!, (s) => console.log(s), !!process.stdin.isTTY) : createAgent(spec),
        );
        const verbose = (args.log || human >= 0) && !args.json;
        const viewer = args.as !== undefined ? sideIndex(game, args.as, '--as') : human;
        if (human >= 0 && viewer !== human)
          throw new CliError(`--as ${args.as}: a person playing ${game.players[human]} sees the game as that side`, 2);
        const view = new SideLog(game, viewer, (l) => console.log(l), {
          steps: verbose ? 'all' : 'none',
          events: verbose,
          explain: args.explain && !args.json,
        });
        const res = await runMatch({
          game,
          scenario,
          scenarioId: id,
          seed,
          agents,
          events: verbose,
          onStep:
            verbose || args.explain ? (st) => view.step({ ...st, spec: agents[st.player]?.spec ?? '' }) : undefined,
        });
        lines?.close();
        for (const a of agents) await a.close?.();
        if (args.replay) writeFileSync(args.replay, encodeReplay(res.replay));
        if (args.json) {
          console.log(
            JSON.stringify({
              ruleset: game.id,
              scenario: id,
              seed,
              agents: specs,
              result: {
                returns: res.returns,
                text: res.text,
                winner:
                  res.returns[0]! > res.returns[1]!
                    ? game.players[0]
                    : res.returns[1]! > res.returns[0]!
                      ? game.players[1]
                      : null,
              },
              finalHash: res.replay.finalHash,
              plies: res.plies,
              decisions: res.decisions,
              ...(res.aborted ? { aborted: res.aborted } : {}),
              ...(args.replay ? { replay: args.replay } : {}),
            }),
          );
        } else {
          if (args.board) console.log(view.render(res.finalState));
          console.log(`\n${game.title} — ${id} — seed ${seed}`);
          console.log(
            `${game.players[0]}: ${specs[0]}${human === 0 ? ' (human)' : ''}   ${game.players[1]}: ${specs[1]}${human === 1 ? ' (human)' : ''}`,
          );
          console.log(`Result: ${res.text}`);
          console.log(
            `${res.plies} plies, ${res.decisions} decisions, final hash ${res.replay.finalHash}${args.replay ? `, replay written to ${args.replay}` : ''}`,
          );
        }
        if (res.aborted)
          throw new CliError(
            `game stopped: ${res.aborted}${args.replay ? ` (the record so far is in ${args.replay})` : ''}`,
          );
      },
    )
    .command(
      'replay <action> <file>',
      'Verify or show a replay file (action: verify | show)',
      (a) =>
        a
          .positional('action', {
            choices: ['verify', 'show'] as const,
            describe: 'verify: replay it and check its hashes; show: print the game',
          })
          .positional('file', {
            type: 'string',
            demandOption: true,
            describe: 'replay file (from play --replay, or arena/ladder export)',
          })
          .option('json', {
            type: 'boolean',
            default: false,
            describe: "print JSON: verify's verdict; show: the record (with --as, that side's view of each step)",
          })
          .option('run', {
            type: 'string',
            describe: 'verify: also check it is the game this tournament or ladder folder recorded',
          })
          .option('log', { type: 'boolean', default: false, describe: 'show: print every event' })
          .option('as', {
            type: 'string',
            describe: "show: the game as this side saw it (another side's secrets redacted until their reveal)",
          }),
      async (args) => {
        const r = readReplayFile(args.file as string);
        const game = getRuleset(r.ruleset);
        if (args.action === 'verify') {
          const { verifyMatchReplay } = await import('./verify.ts');
          const v = verifyMatchReplay(game, r, args.run);
          if (args.json) console.log(JSON.stringify({ file: args.file, ...v }));
          else console.log(`${args.file}: ${v.ok ? 'OK' : 'FAILED'} — ${v.message}`);
          if (!v.ok) throw new CliError(`replay verification failed: ${v.message}`);
          return;
        }
        const viewer = args.as !== undefined ? sideIndex(game, args.as, '--as') : -1;
        const v = game.validateScenario(r.scenario);
        if (!v.ok) throw new CliError('embedded scenario is invalid');
        if (args.json && viewer < 0) return void console.log(JSON.stringify({ ...r, scenario: undefined }));
        const out: string[] = [];
        const view = new SideLog(game, viewer, (l) => out.push(l), {
          steps: args.log ? 'all' : 'decisions',
          events: args.log,
          explain: false,
          prefix: (i) => (i ? `${String(i).padStart(5)}  ` : '       '),
        });
        const seen: { a: string; c: number; p: number; h: string }[] = [];
        let s = game.initialState(v.value);
        r.steps.forEach((st, i) => {
          const a = game
            .legalActions(s)
            .concat(game.chanceOutcomes(s).map((o) => o.action))
            .find((x) => game.actionKey(x) === st.a);
          if (a === undefined)
            throw new CliError(`step ${i + 1}: "${st.a}" is not legal; the replay does not match this engine`);
          const events: GameEvent[] = [];
          const before = s;
          s = game.apply(s, a, events);
          view.step({ before, after: s, action: a, key: st.a, player: st.c ? -1 : st.p, events }, i + 1);
          if (viewer >= 0)
            seen.push({
              a: actionView(game, before, a, viewer),
              c: st.c,
              p: st.p,
              h: hashHex(observationHash(game, s, viewer)),
            });
        });
        if (args.json) {
          // the record as one side saw it: its view of every step and the hash of its observation after it
          const { scenario: _s, steps: _all, initialHash: _i, finalHash: _f, ...head } = r;
          return void console.log(JSON.stringify({ ...head, as: game.players[viewer], steps: seen }));
        }
        console.log(`${game.title} — scenario ${r.scenarioId} (hash ${r.scenarioHash}) — seed ${r.seed}`);
        console.log(`agents: ${r.agents.map((s, i) => `${game.players[i]}=${s}`).join('  ')}`);
        if (viewer >= 0) console.log(`as ${game.players[viewer]} saw it`);
        for (const l of out) console.log(l);
        console.log(view.render(s));
        console.log(`Result: ${r.result ? r.result.text : `unfinished${r.aborted ? ` (${r.aborted})` : ''}`}`);
      },
    );
}
