/**
 * A person at the terminal as an agent: shows the table, the numbered legal actions and takes a number or an
 * action's text. At an interactive terminal a bad entry is explained and asked again; when input is piped, a bad
 * entry ends the game with a clear error (the record so far is kept by the driver). The driver may offer commands
 * besides moves: `undo` (take back to the person's previous decision) and `save FILE` (the game so far as a replay).
 */
import { createInterface, type Interface } from 'node:readline';
import { type Agent, type Decision, type DecisionContext, MatchInterrupt } from './agent.ts';

/** What the driver of a game lets the person do besides choosing a move (`eagles play`, arena/commands.ts). */
export interface HumanCommands {
  /**
   * Take back to the person's previous decision: undefined when the game can go back there (the agent then stops the
   * game with a `TakeBack` and the driver re-runs it from its log), else why it cannot.
   */
  undo?(): string | undefined;
  /** Write the game so far to `file` as a replay; returns the line to print (written, or why not). */
  save?(file: string): string;
}

/** The person asked to take a move back: the driver re-runs the game up to their previous decision. */
export class TakeBack extends MatchInterrupt {}

export class LineSource {
  private rl: Interface;
  private lines: string[] = [];
  private waiters: ((l: string | null) => void)[] = [];
  private ended = false;
  constructor(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout) {
    this.rl = createInterface({ input, output, terminal: false });
    this.rl.on('line', (l) => {
      const w = this.waiters.shift();
      if (w) w(l);
      else this.lines.push(l);
    });
    this.rl.on('close', () => {
      this.ended = true;
      for (const w of this.waiters.splice(0)) w(null);
    });
  }
  next(): Promise<string | null> {
    const l = this.lines.shift();
    if (l !== undefined) return Promise.resolve(l);
    if (this.ended) return Promise.resolve(null);
    return new Promise((r) => this.waiters.push(r));
  }
  close(): void {
    this.rl.close();
  }
}

export class HumanAgent implements Agent {
  readonly spec = 'human';
  constructor(
    private readonly input: LineSource,
    private readonly out: (s: string) => void,
    private readonly interactive: boolean,
    private readonly commands: HumanCommands = {},
  ) {}

  async decide(ctx: DecisionContext): Promise<Decision> {
    const { game, legal } = ctx;
    this.out('\n' + game.render(ctx.state, ctx.player));
    const ask = game.describeDecision?.(ctx.state);
    this.out(`\n${game.players[ctx.player]} to act${ask ? ` — ${ask}` : ''}`);
    this.out('Choose a number or type the action (h for help):');
    // the descriptions line up in one column after the keys (a key longer than KEY_COLUMN just pushes its own)
    const keys = legal.map((a) => game.actionKey(a));
    const width = Math.min(KEY_COLUMN, Math.max(0, ...keys.map((k) => k.length)));
    legal.forEach((a, i) =>
      this.out(
        `  ${String(i + 1).padStart(3)}. ${keys[i]}${descr(game.describeAction(ctx.state, a), keys[i]!, width)}`,
      ),
    );
    for (;;) {
      if (this.interactive) process.stdout.write('> ');
      const line = await this.input.next();
      if (line === null) throw new Error('input ended before the game did');
      const t = line.trim();
      if (!t) continue;
      if (t === 'h' || t === 'help' || t === '?') {
        this.out(
          'Type the number of an action, or its text exactly as listed (e.g. "move B1 0"). "board" redraws the table.\n' +
            '"undo" takes back to your previous decision; "save FILE" writes the game so far as a replay, to go on with\n' +
            'later: npx eagles play --resume FILE. Ctrl-C saves the game and prints how to resume it.',
        );
        continue;
      }
      if (t === 'undo') {
        const why = this.commands.undo ? this.commands.undo() : 'taking back is not offered in this game';
        if (why === undefined) throw new TakeBack('taken back to your previous decision');
        this.out(why);
        continue;
      }
      if (t === 'save' || t.startsWith('save ')) {
        const file = t.slice(4).trim();
        this.out(
          !file
            ? 'save needs a file name, e.g. "save my-game.replay"'
            : this.commands.save
              ? this.commands.save(file)
              : 'saving is not offered in this game',
        );
        continue;
      }
      if (t === 'board') {
        this.out(game.render(ctx.state, ctx.player));
        continue;
      }
      const n = /^\d+$/.test(t) ? Number(t) : NaN;
      let chosen = Number.isFinite(n) && n >= 1 && n <= legal.length ? legal[n - 1] : undefined;
      if (chosen === undefined) chosen = legal.find((a) => game.actionKey(a).toLowerCase() === t.toLowerCase());
      if (chosen !== undefined) return { action: chosen };
      const msg = Number.isFinite(n)
        ? `illegal action: there is no option ${n} (choose 1–${legal.length})`
        : `illegal action: "${t}" is not one of the ${legal.length} legal actions`;
      if (!this.interactive) throw new Error(msg);
      this.out(msg);
    }
  }
}

/** Keys up to this long are padded so that the menu's descriptions start in one column. */
const KEY_COLUMN = 28;

function descr(d: string, key: string, width: number): string {
  return d && d !== key ? `${' '.repeat(Math.max(0, width - key.length))}   — ${d}` : '';
}
