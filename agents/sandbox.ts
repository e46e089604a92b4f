/**
 * How an external bot is started: from an argument vector (never a shell), in a fresh empty working directory, with a
 * minimal environment, under resource limits, and — where the machine allows it — inside a bubblewrap sandbox with a
 * read-only system, no network, its own process and IPC namespaces, no capabilities, only its own directory writable,
 * and the run folder invisible. The bot runs in its own process group (session), so ending the game ends every
 * process it started.
 *
 * The command line is split like a POSIX shell would split words: spaces separate arguments, and '…' or "…" quote
 * them (a backslash escapes one character). Shell operators (; | & && || > < ( ) `), globs, comments and $VARIABLES
 * are refused: to run a pipeline, write a script and name it as the command. An argument naming a file or folder
 * that exists relative to the directory eagles was started in is passed as an absolute path, since the bot starts
 * elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'shell-quote';
import { AgentSpecError } from './agent.ts';

/** `bwrap`: the full sandbox (refused where bubblewrap cannot run); `limits`: fresh folder, bare environment, limits. */
export type SandboxMode = 'bwrap' | 'limits';

export interface BotLimits {
  /** CPU seconds for the bot's whole life (a game); past it the kernel ends the process. */
  readonly cpuSeconds: number;
  /** Writable data (heap) in MiB. */
  readonly memoryMiB: number;
  /** Open file descriptors. */
  readonly files: number;
  /** Largest file the bot may write, in MiB. */
  readonly fileMiB: number;
}

export const DEFAULT_LIMITS: BotLimits = { cpuSeconds: 3600, memoryMiB: 2048, files: 256, fileMiB: 64 };

/** Split a bot's command line into arguments; refuse anything a shell would have interpreted. */
export function parseCommand(spec: string, cmd: string): string[] {
  const words = parse(cmd, (name: string) => {
    throw new AgentSpecError(
      `agent spec "${spec}": the bot's command may not use shell variables ($${name}); quote a literal $ with '…'`,
    );
  });
  const argv: string[] = [];
  for (const w of words) {
    if (typeof w === 'string') {
      argv.push(w);
      continue;
    }
    const what = 'op' in w ? (w.op === 'glob' ? `the glob ${w.pattern}` : `the shell operator "${w.op}"`) : 'a comment';
    throw new AgentSpecError(
      `agent spec "${spec}": the bot's command may not contain ${what}: bots start without a shell (quote it, or put it in a script)`,
    );
  }
  if (argv.length === 0) throw new AgentSpecError(`agent spec "${spec}": the bot's command is empty`);
  return argv;
}

/** Arguments naming an existing path relative to `cwd` become absolute (the program only if it has a slash). */
function absolutise(argv: readonly string[], cwd: string): string[] {
  return argv.map((a, i) => {
    if (a.startsWith('-') || path.isAbsolute(a) || (i === 0 && !a.includes('/'))) return a;
    const p = path.resolve(cwd, a);
    return existsSync(p) ? p : a;
  });
}

let bwrapProbe: string | null | undefined;
/** Why bubblewrap cannot sandbox here, or null when it can (probed once per process). */
export function bwrapUnavailable(): string | null {
  if (bwrapProbe !== undefined) return bwrapProbe;
  const r = spawnSync(
    'bwrap',
    ['--ro-bind', '/', '/', '--unshare-all', '--cap-drop', 'ALL', '--dev', '/dev', '--proc', '/proc', 'true'],
    { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 },
  );
  if (r.error) bwrapProbe = `bubblewrap (bwrap) is not installed (${(r.error as NodeJS.ErrnoException).code})`;
  else if (r.status !== 0)
    bwrapProbe = `bubblewrap cannot create a sandbox here: ${String(r.stderr).trim().split('\n')[0] || `exit ${r.status}`}`;
  else bwrapProbe = null;
  return bwrapProbe;
}

export interface BotLaunch {
  readonly file: string;
  readonly args: string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly mode: SandboxMode;
  /** Remove the bot's folder. */
  cleanup(): void;
}

export interface SandboxOptions {
  readonly mode: SandboxMode | 'auto';
  /** Paths the bot must not see (the run folder); used by the bwrap sandbox. */
  readonly hide?: readonly string[];
  readonly limits?: BotLimits;
}

/** Resolve `auto` to what this machine allows. */
export function sandboxMode(mode: SandboxMode | 'auto'): SandboxMode {
  if (mode === 'limits') return 'limits';
  const why = bwrapUnavailable();
  if (mode === 'bwrap' && why) throw new AgentSpecError(`sandbox=bwrap: ${why}`);
  return why ? 'limits' : 'bwrap';
}

/** Everything needed to spawn the bot: the wrapped argument vector, its fresh folder and its environment. */
export function prepareBot(argv: readonly string[], opts: SandboxOptions, from = process.cwd()): BotLaunch {
  const mode = sandboxMode(opts.mode);
  const lim = opts.limits ?? DEFAULT_LIMITS;
  const home = mkdtempSync(path.join(os.tmpdir(), 'eagles-bot-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: home,
    LANG: 'C.UTF-8',
    PYTHONUNBUFFERED: '1',
    PYTHONDONTWRITEBYTECODE: '1',
  };
  const prog = absolutise(argv, from);
  const limits = [
    `--cpu=${lim.cpuSeconds}:${lim.cpuSeconds + 1}`,
    `--data=${lim.memoryMiB * 1024 * 1024}`,
    `--nofile=${lim.files}`,
    `--fsize=${lim.fileMiB * 1024 * 1024}`,
    '--core=0',
    '--',
  ];
  let wrapped: string[];
  if (mode === 'bwrap') {
    const hidden: string[] = [];
    for (const h of opts.hide ?? []) {
      const p = path.resolve(from, h);
      if (!existsSync(p)) continue;
      if (statSync(p).isDirectory()) hidden.push('--tmpfs', p, '--remount-ro', p);
      else hidden.push('--ro-bind', '/dev/null', p);
    }
    // /tmp is private to the bot; what it runs from there (its program, or the project started under /tmp) stays
    // visible, read-only
    const inTmp = (p: string) => p === '/tmp' || p.startsWith('/tmp/');
    const visible = new Set<string>();
    if (inTmp(from)) visible.add(from);
    for (const a of prog)
      if (path.isAbsolute(a) && existsSync(a)) {
        const d = statSync(a).isDirectory() ? a : path.dirname(a);
        if (inTmp(d)) visible.add(d);
      }
    const shown = [...visible].flatMap((v) => ['--ro-bind', v, v]);
    const setenv = Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]);
    wrapped = [
      'bwrap',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--tmpfs',
      '/run',
      ...shown,
      ...hidden,
      '--bind',
      home,
      home,
      '--chdir',
      home,
      '--unshare-all',
      '--cap-drop',
      'ALL',
      '--die-with-parent',
      '--new-session',
      '--clearenv',
      ...setenv,
      'prlimit',
      ...limits,
      ...prog,
    ];
  } else wrapped = ['setpriv', '--pdeathsig', 'KILL', '--', 'prlimit', ...limits, ...prog];
  return {
    file: wrapped[0]!,
    args: wrapped.slice(1),
    cwd: home,
    env,
    mode,
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}

/** End a bot's process group; a group already gone is fine. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left
  }
}

/** Control characters shown escaped (\n, \x1b, …), so a bot's output cannot drive the terminal; cut at `max`. */
export function printable(s: string, max = 300): string {
  const cut = s.length > max ? `${s.slice(0, max)}…` : s;
  return cut.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping them is the point
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => {
      const code = c.charCodeAt(0);
      return c === '\n' ? '\\n' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : `\\u${code.toString(16).padStart(4, '0')}`;
    },
  );
}
