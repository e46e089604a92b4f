/** `eagles play`, `eagles rulesets`, `eagles scenario validate`, `eagles replay verify|show`. */
import { accessSync, constants, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Argv } from 'yargs';
import type { Agent } from '../agents/agent.ts';
import { HumanAgent, LineSource, TakeBack } from '../agents/human.ts';
import { createAgent } from '../agents/registry.ts';
import type { AnyGame, GameEvent } from '../engine/core/game.ts';
import { hashHex, hashValue } from '../engine/core/hash.ts';
import { actionView, observationHash } from '../engine/core/views.ts';
import {
  decodeReplay,
  encodeReplay,
  REPLAY_FORMAT,
  REPLAY_VERSION,
  type Replay,
  type ReplayStep,
  ReplayError,
  verifyReplay,
} from '../engine/core/replay.ts';
import { getRuleset, RULESETS } from '../engine/rulesets/index.ts';
import { ScenarioError, loadScenario, loadScenarioFile, scenarioHash, scenarioIds } from './catalog.ts';
import { runMatch, type StepInfo } from './match.ts';
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

/** The agent spec a person's seat is recorded under (HumanAgent.spec). */
const HUMAN = 'human';

/** The saved game's scenario, checked: this engine replays its steps to the same hashes, and it is not over. */
function resumedScenario(game: AnyGame, r: Replay, file: string): { scenario: unknown; id: string } {
  const v = verifyReplay(game, r);
  if (!v.ok) throw new CliError(`--resume ${file}: ${v.message}`);
  if (r.result) throw new CliError(`--resume ${file}: that game is over (${r.result.text})`);
  const sc = game.validateScenario(r.scenario);
  if (!sc.ok) throw new CliError(`--resume ${file}: its scenario is invalid`);
  return { scenario: sc.value, id: r.scenarioId };
}

/**
 * The game being played at the terminal, step by step: the replay `save FILE` and Ctrl-C write, and where `undo`
 * goes back to (the step of the person's previous decision; the game is re-run from its log up to there).
 */
class GameRecord {
  private steps: ReplayStep[] = [];
  /** Indexes of the steps the person decided (more than one action was legal). */
  private decided: number[] = [];
  /** After a take-back: the steps to re-run. */
  backTo: readonly string[] = [];
  private readonly scenarioHash: string;
  private readonly initialHash: string;
  constructor(
    private readonly game: AnyGame,
    private readonly scenario: unknown,
    private readonly scenarioId: string,
    private readonly seed: string,
  ) {
    this.scenarioHash = hashHex(hashValue(scenario));
    this.initialHash = hashHex(game.hash(game.initialState(scenario)));
  }
  restart(): void {
    this.steps = [];
    this.decided = [];
  }
  add(st: StepInfo, decidedByPerson: boolean): void {
    if (decidedByPerson) this.decided.push(this.steps.length);
    this.steps.push({ a: st.key, c: st.player < 0 ? 1 : 0, h: st.hash, p: st.player });
  }
  /** Undefined when the game can go back to the person's previous decision (then `backTo` is set), else why not. */
  takeBack(): string | undefined {
    const at = this.decided[this.decided.length - 1];
    if (at === undefined) return 'nothing to take back: this is your first decision';
    this.backTo = this.steps.slice(0, at).map((s) => s.a);
    return undefined;
  }
  replay(agents: readonly Agent[]): Replay {
    return {
      format: REPLAY_FORMAT,
      version: REPLAY_VERSION,
      ruleset: this.game.id,
      rulesetVersion: this.game.version,
      scenarioId: this.scenarioId,
      scenarioHash: this.scenarioHash,
      scenario: this.scenario,
      seed: this.seed,
      agents: agents.map((a) => a.spec),
      initialHash: this.initialHash,
      steps: [...this.steps],
      finalHash: this.steps[this.steps.length - 1]?.h ?? this.initialHash,
      result: null,
    };
  }
  /** Write the game so far; the line to print. */
  saveTo(file: string, agents: readonly Agent[]): string {
    try {
      if (existsSync(file) && statSync(file).isDirectory()) return `cannot save: ${file} is a folder; name a file`;
      writeFileSync(file, encodeReplay(this.replay(agents)));
    } catch (e) {
      return `cannot save to ${file}: ${(e as Error).message}`;
    }
    return `saved the game so far (${this.steps.length} steps) to ${file}; go on with: npx eagles play --resume ${file}`;
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
            defaultDescription: 'march-of-eagles',
            describe: 'ruleset id (see `eagles rulesets`)',
          })
          .option('scenario', {
            alias: 's',
            type: 'string',
            describe: "scenario id or path to a JSON file (default: the ruleset's default)",
          })
          .option('p1', { type: 'string', defaultDescription: 'random', describe: 'agent spec for the first side' })
          .option('p2', { type: 'string', defaultDescription: 'random', describe: 'agent spec for the second side' })
          .option('seed', { type: 'string', describe: 'match seed (default: random, printed)' })
          .option('human', {
            type: 'string',
            describe: 'let a person play this side at the terminal (a side as `eagles rulesets` names it, or 1 or 2)',
          })
          .option('replay', { type: 'string', describe: 'write the replay (msgpack) to this file' })
          .option('resume', {
            type: 'string',
            describe:
              'go on with a saved game (a replay file from `save FILE`, Ctrl-C or --replay) from its end: same ruleset, scenario, seed and seats unless --seed, --p1, --p2 or --human say otherwise',
          })
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
        const saved = args.resume !== undefined ? readReplayFile(args.resume) : undefined;
        if (saved && args.ruleset !== undefined && args.ruleset !== saved.ruleset)
          throw new CliError(`--resume ${args.resume} is a ${saved.ruleset} game, not ${args.ruleset}`, 2);
        if (saved && args.scenario !== undefined)
          throw new CliError(
            `--resume plays on the saved game's own scenario (${saved.scenarioId}); drop --scenario`,
            2,
          );
        const game = getRuleset(saved?.ruleset ?? args.ruleset ?? 'march-of-eagles');
        const { scenario, id } = saved
          ? resumedScenario(game, saved, args.resume!)
          : loadScenario(game.id, args.scenario);
        const seed = args.seed ?? saved?.seed ?? randomBytes(6).toString('hex');
        const specs = [args.p1 ?? saved?.agents[0] ?? 'random', args.p2 ?? saved?.agents[1] ?? 'random'];
        const wasHuman = saved ? saved.agents.indexOf(HUMAN) : -1;
        const human = args.human !== undefined ? sideIndex(game, args.human) : wasHuman;
        specs.forEach((spec, i) => {
          if (spec === HUMAN && i !== human)
            throw new CliError(
              `${game.players[i]} was played by a person: name an agent for it (--p${i + 1} SPEC) or play it (--human ${game.players[i]})`,
              2,
            );
        });
        if (args.json && human >= 0)
          throw new CliError('--json with a person playing: the prompts would share standard output with the JSON', 2);
        const lines = human >= 0 ? new LineSource() : null;
        const verbose = (args.log || human >= 0) && !args.json;
        const viewer = args.as !== undefined ? sideIndex(game, args.as, '--as') : human;
        if (human >= 0 && viewer !== human)
          throw new CliError(`--as ${args.as}: a person playing ${game.players[human]} sees the game as that side`, 2);
        // the game so far, kept step by step: what `save`, `undo` and Ctrl-C work from
        const record = new GameRecord(game, scenario, id, seed);
        const agents: Agent[] = specs.map((spec, i) =>
          i === human
            ? new HumanAgent(lines!, (s) => console.log(s), !!process.stdin.isTTY, {
                undo: () => record.takeBack(),
                save: (file) => record.saveTo(file, agents),
              })
            : createAgent(spec),
        );
        const view = new SideLog(game, viewer, (l) => console.log(l), {
          steps: verbose ? 'all' : 'none',
          events: verbose,
          explain: args.explain && !args.json,
        });
        // Ctrl-C at a person's game: keep the game so far and say how to go on with it
        const interruptFile = args.replay ?? `eagles-${seed.replace(/[^\w.-]/g, '_')}.replay`;
        const onSigint = () => {
          const said = record.saveTo(interruptFile, agents);
          process.stderr.write(
            `\n${said.startsWith('saved') ? `interrupted: the game so far is saved; go on with: npx eagles play --resume ${interruptFile}` : `interrupted: ${said}`}\n`,
          );
          process.exit(130);
        };
        if (human >= 0) process.on('SIGINT', onSigint); // a person's game; bots' games end as they did
        let prefix: readonly string[] = saved ? saved.steps.map((st) => st.a) : [];
        if (saved && human >= 0 && !args.json)
          console.log(`Resuming ${args.resume}: ${prefix.length} steps played so far.`);
        let res: Awaited<ReturnType<typeof runMatch>>;
        for (;;) {
          record.restart();
          res = await runMatch({
            game,
            scenario,
            scenarioId: id,
            seed,
            agents,
            events: verbose,
            prefix,
            onStep: (st) => {
              record.add(st, st.player === human && game.legalActions(st.before).length > 1);
              if (st.replayed) return;
              if (verbose || args.explain) view.step({ ...st, spec: agents[st.player]?.spec ?? '' });
            },
          });
          if (!(res.interrupted instanceof TakeBack)) break;
          prefix = record.backTo;
          console.log(`\nTaken back to your previous decision (step ${prefix.length + 1}).`);
        }
        process.off('SIGINT', onSigint);
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
            `${game.players[0]}: ${human === 0 ? HUMAN : specs[0]}   ${game.players[1]}: ${human === 1 ? HUMAN : specs[1]}`,
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
