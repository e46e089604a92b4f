/**
 * A game log as one side sees it, for the terminal: `eagles play` (a person's side, or `--as`), `--log`, `--explain`
 * and `eagles replay show --as`. Everything printed goes through the ruleset's per-viewer views: another side's sealed
 * choice prints as its redacted text, secret events as their redacted text without dice, and another side's
 * explanation (which names its choice and reflects what it knows) is held back until nothing is hidden from the
 * viewer any more, then printed under the step that revealed it. Viewer -1 sees everything (a spectator, an umpire).
 */
import type { Explanation } from '../agents/agent.ts';
import type { StepInfo } from './match.ts';
import { type AnyGame, formatEvent } from '../engine/core/game.ts';
import { actionView, eventsFor } from '../engine/core/views.ts';

/** A step to print: the match driver's record of it (or a replay's), and who chose it. */
export type LoggedStep = Pick<
  StepInfo,
  'before' | 'after' | 'action' | 'key' | 'player' | 'events' | 'dice' | 'label' | 'explanation'
> & {
  /** Who made the choice, for explanations (e.g. "mcts:it=400"). */
  readonly spec?: string;
};

function explanationLines(game: AnyGame, player: number, spec: string, ex: Explanation): string[] {
  return [
    `  ${game.players[player]} ${spec}: ${ex.chosen}${ex.winProbability !== undefined ? ` (win ${(ex.winProbability * 100).toFixed(0)}%)` : ''}${ex.text ? ` — ${ex.text}` : ''}`,
    ...(ex.alternatives ?? []).map(
      (alt) =>
        `      ${alt.action}${alt.visits !== undefined ? ` visits ${alt.visits}` : ''}${alt.value !== undefined ? ` value ${alt.value.toFixed(3)}` : ''}${alt.note ? ` ${alt.note}` : ''}`,
    ),
  ];
}

/**
 * Prints steps as `viewer` sees them: `steps` says which steps get a line (every one, the players' decisions only, or
 * none), `events` adds each step's events, `explain` the agents' explanations.
 */
export class SideLog {
  private held: string[] = [];
  constructor(
    private readonly game: AnyGame,
    private readonly viewer: number,
    private readonly out: (line: string) => void,
    private readonly opts: {
      readonly steps: 'all' | 'decisions' | 'none';
      readonly events: boolean;
      readonly explain: boolean;
      readonly prefix?: (i: number) => string;
    },
  ) {}

  private blind(s: unknown): boolean {
    return this.viewer >= 0 && !!this.game.hidden?.(s, this.viewer);
  }

  step(st: LoggedStep, i = 0): void {
    const { game, viewer } = this;
    const pre = this.opts.prefix?.(i) ?? '';
    const seen = actionView(game, st.before, st.action, viewer);
    if (this.opts.explain && st.explanation) {
      const lines = explanationLines(game, st.player, st.spec ?? '', st.explanation);
      // another side's reasoning waits until the viewer may know everything it knew
      if (viewer >= 0 && st.player !== viewer && (seen !== st.key || this.blind(st.before) || this.blind(st.after)))
        this.held.push(...lines);
      else for (const l of lines) this.out(l);
    }
    const events = this.opts.events ? eventsFor(st.events, viewer) : [];
    if (this.opts.steps === 'none') {
      // explanations only
    } else if (st.player < 0) {
      if (this.opts.steps === 'all') {
        const open = seen === st.key;
        if (events.length) for (const e of events) this.out(`${pre}${formatEvent(e)}`);
        else
          this.out(`${pre}[dice] ${open ? st.label : seen}${open && st.dice ? ` (dice: ${st.dice.join(' ')})` : ''}`);
        if (open && events.length && st.dice && !events.some((e) => e.dice))
          this.out(`${pre}        dice: ${st.dice.join(' ')} — ${st.label}`);
      }
    } else {
      this.out(`${pre}${game.players[st.player]}: ${seen}`);
      for (const e of events) this.out(`${pre}${formatEvent(e)}`);
    }
    if (this.held.length && !this.blind(st.after)) {
      this.out(`${pre}(explanations held back until now)`);
      for (const l of this.held.splice(0)) this.out(l);
    }
  }

  /** The table as the viewer sees it. */
  render(s: unknown): string {
    return this.viewer >= 0 ? this.game.render(s, this.viewer) : this.game.render(s);
  }
}
