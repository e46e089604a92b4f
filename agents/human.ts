/**
 * A person at the terminal as an agent: shows the table, the numbered legal actions and takes a number or an
 * action's text. At an interactive terminal a bad entry is explained and asked again; when input is piped, a bad
 * entry ends the game with a clear error (the record so far is kept by the driver).
 */
import { createInterface, type Interface } from 'node:readline';
import type { Agent, Decision, DecisionContext } from './agent.ts';

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
  ) {}

  async decide(ctx: DecisionContext): Promise<Decision> {
    const { game, legal } = ctx;
    this.out('\n' + game.render(ctx.state, ctx.player));
    const ask = game.describeDecision?.(ctx.state);
    this.out(`\n${game.players[ctx.player]} to act${ask ? ` — ${ask}` : ''}`);
    this.out('Choose a number or type the action (h for help):');
    legal.forEach((a, i) =>
      this.out(
        `  ${String(i + 1).padStart(3)}. ${game.actionKey(a)}${descr(game.describeAction(ctx.state, a), game.actionKey(a))}`,
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
          'Type the number of an action, or its text exactly as listed (e.g. "move B1 0"). "board" redraws the table.',
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

function descr(d: string, key: string): string {
  return d && d !== key ? `   — ${d}` : '';
}
