/**
 * One game at the web table: a ruleset, a scenario, a seed and the log of what was chosen. Everything else (the
 * state, the events, the dice faces) is recomputed from those, so a game survives a reload and a server restart
 * (`store.ts` keeps the log), and take-back is only a shorter log: the engine is immutable.
 *
 * Seats are `human` or an agent spec (`random`, `hard`, `mcts:it=200`…). Dice are drawn as the match driver draws
 * them (keyed by the seed and the chance event, `arena/dice.ts`), so a finished game downloads as a replay file that
 * `eagles replay verify` accepts. In assistant mode (a physical table) nothing is drawn: the person enters the dice they
 * rolled, and each roll is recorded as the outcome class it maps to.
 *
 * What a person is shown goes through the ruleset's per-viewer views (`engine/core/views.ts`): another side's sealed
 * choice reads as its redacted text, secret events as their redacted text without dice, and the computer's
 * explanation of a sealed choice is held back until nothing is hidden from the viewer any more.
 */
import type { Explanation } from '../agents/agent.ts';
import { keyedUniform, sampleOutcome } from '../arena/dice.ts';
import { type AnyGame, type GameEvent, findActionByKey } from '../engine/core/game.ts';
import { hashHex, hashValue } from '../engine/core/hash.ts';
import { REPLAY_FORMAT, REPLAY_VERSION, type Replay } from '../engine/core/replay.ts';
import { actionView, eventsFor } from '../engine/core/views.ts';
import type { Mode, StepView, TableView } from './protocol.ts';

export type { Mode } from './protocol.ts';

/** What a table was opened with; stored with its log. */
export interface TableSpec {
  readonly ruleset: string;
  /** The scenario's id (or the name of an uploaded file). */
  readonly scenarioId: string;
  readonly seed: string;
  /** Per player: `human` or an agent spec. */
  readonly seats: readonly string[];
  readonly mode: Mode;
}

/** One recorded choice: an action key, who chose it (-1: chance), and the computer's explanation. */
export interface LoggedChoice {
  readonly key: string;
  readonly player: number;
  readonly explanation?: Explanation;
  /** Assistant mode: the faces the person entered. */
  readonly faces?: readonly number[];
}

interface Step extends LoggedChoice {
  readonly before: unknown;
  readonly action: unknown;
  readonly events: readonly GameEvent[];
  readonly dice?: readonly number[];
  readonly label?: string;
}

export class TableError extends Error {}

/** A game at the table: its state after every step of its log. */
export class Table {
  private readonly steps: Step[] = [];
  private state: unknown;
  private readonly start: unknown;

  /** `scenario` is the scenario file's JSON (plain data: it is saved, sent to the thinkers and put in replays). */
  constructor(
    readonly game: AnyGame,
    readonly scenario: unknown,
    readonly spec: TableSpec,
  ) {
    if (spec.seats.length !== game.players.length)
      throw new TableError(`${game.id} has ${game.players.length} players; ${spec.seats.length} seats were given`);
    const v = game.validateScenario(scenario);
    if (!v.ok)
      throw new TableError(
        `the scenario is not valid for ${game.id}: ${v.problems
          .slice(0, 3)
          .map((p) => `${p.path}: ${p.message}`)
          .join('; ')}`,
      );
    this.start = game.initialState(v.value);
    this.state = this.start;
  }

  /** Rebuild a table from its log; a log that no longer replays is refused, naming the step. */
  static restore(game: AnyGame, scenario: unknown, spec: TableSpec, log: readonly LoggedChoice[]): Table {
    const t = new Table(game, scenario, spec);
    for (const [i, c] of log.entries()) {
      try {
        t.applyKey(c.key, c.player, c.explanation, c.faces);
      } catch (e) {
        throw new TableError(`step ${i + 1} of the saved game ("${c.key}") no longer replays: ${(e as Error).message}`);
      }
    }
    return t;
  }

  get current(): unknown {
    return this.state;
  }

  get ply(): number {
    return this.steps.length;
  }

  /** The keys of the log, in order (what a thinker replays to reach the position). */
  keys(): string[] {
    return this.steps.map((st) => st.key);
  }

  log(): LoggedChoice[] {
    return this.steps.map(({ key, player, explanation, faces }) => ({
      key,
      player,
      ...(explanation ? { explanation } : {}),
      ...(faces ? { faces } : {}),
    }));
  }

  /** Who decides now: a seat index, `chance`, or `over`. */
  toMove(): { kind: 'player'; player: number } | { kind: 'chance' | 'over' } {
    const tm = this.game.toMove(this.state);
    return tm.kind === 'player' ? tm : { kind: tm.kind === 'chance' ? 'chance' : 'over' };
  }

  /** The seat to move, if it is a computer seat and the game is on. */
  computerToMove(): number | undefined {
    const tm = this.toMove();
    return tm.kind === 'player' && this.spec.seats[tm.player] !== 'human' && this.spec.mode !== 'replay'
      ? tm.player
      : undefined;
  }

  /** Apply a choice by its key; an illegal key is refused with what is wrong. */
  applyKey(key: string, player: number, explanation?: Explanation, faces?: readonly number[]): void {
    const s = this.state;
    const tm = this.game.toMove(s);
    if (tm.kind === 'terminal') throw new TableError('the game is over');
    const want = tm.kind === 'chance' ? -1 : tm.player;
    if (player !== want)
      throw new TableError(
        want < 0 ? 'the dice are to be rolled now' : `it is ${this.game.players[want]}'s turn, not ${this.who(player)}`,
      );
    const action = findActionByKey(this.game, s, key);
    if (action === undefined) throw new TableError(`"${key}" is not a legal ${want < 0 ? 'outcome' : 'action'} here`);
    const events: GameEvent[] = [];
    let dice: readonly number[] | undefined;
    let label: string | undefined;
    if (tm.kind === 'chance') {
      const ck = this.game.chanceKey(s);
      label = this.game.chanceOutcomes(s).find((o) => this.game.actionKey(o.action) === key)?.label;
      dice = faces ?? this.game.diceFaces?.(s, action, keyedUniform(this.spec.seed, `${ck}/faces`));
    }
    const next = this.game.apply(s, action, events);
    this.steps.push({
      key: this.game.actionKey(action),
      player,
      before: s,
      action,
      events,
      ...(explanation ? { explanation } : {}),
      ...(faces ? { faces } : {}),
      ...(dice ? { dice } : {}),
      ...(label ? { label } : {}),
    });
    this.state = next;
  }

  /**
   * Assistant mode: the faces of the real dice the person rolled, mapped to the outcome they give (`rollAsk`,
   * `outcomeForFaces`); faces that cannot be are refused, naming the roll, and nothing is recorded.
   */
  rollFaces(faces: readonly number[]): void {
    const s = this.state;
    if (this.game.toMove(s).kind !== 'chance') throw new TableError('no roll is due now');
    const ask = this.game.rollAsk?.(s);
    if (!ask || !this.game.outcomeForFaces)
      throw new TableError('this chance is not a roll of dice here: choose the outcome instead');
    const dice = ask.dice.map((k) => `D${k}`).join(' ');
    if (faces.length !== ask.dice.length)
      throw new TableError(
        `${ask.what}: enter ${ask.dice.length} ${ask.dice.length === 1 ? 'die' : 'dice'} (${dice}), not ${faces.length}`,
      );
    for (const [i, f] of faces.entries())
      if (!Number.isInteger(f) || f < 1 || f > ask.dice[i]!)
        throw new TableError(`${ask.what}: ${f} is not a face of a D${ask.dice[i]} (die ${i + 1} of ${dice})`);
    const r = this.game.outcomeForFaces(s, faces);
    if ('error' in r) throw new TableError(r.error);
    this.applyKey(this.game.actionKey(r.action), -1, undefined, faces);
  }

  private who(player: number): string {
    return player < 0 ? 'the dice' : (this.game.players[player] ?? `player ${player}`);
  }

  /**
   * Play what nobody at the table decides: the dice (drawn from the seed, except in assistant mode, where the person
   * enters them) and decisions with a single legal action. Stops at a decision, a roll to enter, or the end.
   */
  advance(): void {
    for (let guard = 0; guard < 100_000; guard++) {
      const tm = this.game.toMove(this.state);
      if (tm.kind === 'terminal') return;
      if (tm.kind === 'chance') {
        const outs = this.game.chanceOutcomes(this.state);
        if (this.spec.mode === 'assist' && outs.length > 1) return;
        const pick = sampleOutcome(outs, keyedUniform(this.spec.seed, this.game.chanceKey(this.state))());
        this.applyKey(this.game.actionKey(pick.action), -1);
        continue;
      }
      const legal = this.game.legalActions(this.state);
      if (legal.length !== 1) return;
      this.applyKey(this.game.actionKey(legal[0]), tm.player);
    }
    throw new TableError('the game did not reach a decision within 100,000 steps');
  }

  /** The steps a take-back removes: back to before the viewer's last decision (0: none to take back). */
  takeBackCount(viewer: number): number {
    for (let i = this.steps.length - 1; i >= 0; i--) {
      const p = this.steps[i]!.player;
      if (p >= 0 && (p === viewer || (viewer < 0 && this.spec.seats[p] === 'human')) && this.decided(i))
        return this.steps.length - i;
    }
    return 0;
  }

  /** A step chosen among several (not a forced one, which a take-back steps over). */
  private decided(i: number): boolean {
    const s = this.steps[i]!;
    return this.game.toMove(s.before).kind === 'player' && this.game.legalActions(s.before).length > 1;
  }

  /** Take back the viewer's last decision and everything after it. */
  takeBack(viewer: number): number {
    const n = this.takeBackCount(viewer);
    if (!n) throw new TableError('there is no decision of yours to take back');
    const keep = this.steps.length - n;
    this.state = this.steps[keep]!.before;
    this.steps.length = keep;
    return n;
  }

  /** Take back the computer's last decision, so that it thinks again (its seat is on the move afterwards). */
  rethink(): void {
    const last = this.steps.length - 1;
    for (let i = last; i >= 0; i--) {
      const p = this.steps[i]!.player;
      if (p >= 0 && this.spec.seats[p] !== 'human' && this.decided(i)) {
        this.state = this.steps[i]!.before;
        this.steps.length = i;
        return;
      }
      if (p >= 0 && this.spec.seats[p] === 'human' && this.decided(i)) break;
    }
    throw new TableError('the computer has made no decision since yours');
  }

  /** Step through the log (the replay viewer): the state after `ply` steps. */
  stateAt(ply: number): unknown {
    if (ply < 0 || ply > this.steps.length) throw new TableError(`ply ${ply} is outside 0…${this.steps.length}`);
    return ply === this.steps.length ? this.state : this.steps[ply]!.before;
  }

  /** The game as a replay file: the scenario, the seed and every step with the state hash after it. */
  replay(): Replay {
    const steps = this.steps.map((st, i) => {
      const after = i + 1 < this.steps.length ? this.steps[i + 1]!.before : this.state;
      return {
        a: st.key,
        c: st.player < 0 ? (1 as const) : (0 as const),
        h: hashHex(this.game.hash(after)),
        p: st.player,
      };
    });
    const over = this.game.toMove(this.state).kind === 'terminal';
    return {
      format: REPLAY_FORMAT,
      version: REPLAY_VERSION,
      ruleset: this.game.id,
      rulesetVersion: this.game.version,
      scenarioId: this.spec.scenarioId,
      scenarioHash: hashHex(hashValue(this.scenario)),
      scenario: this.scenario,
      seed: this.spec.seed,
      agents: [...this.spec.seats],
      initialHash: hashHex(this.game.hash(this.start)),
      steps,
      finalHash: hashHex(this.game.hash(this.state)),
      result: over ? { returns: [...this.game.returns(this.state)], text: this.game.resultText(this.state) } : null,
    };
  }

  /** What `viewer` sees of a step: its description, or the ruleset's redacted text of a choice hidden from it. */
  private seen(st: Step, viewer: number): string {
    const g = this.game;
    const v = actionView(g, st.before, st.action, viewer);
    return v === st.key ? g.describeAction(st.before, st.action) : v;
  }

  /** The computer's decisions since the viewer's last one, as the viewer may see them (what to do at a real table). */
  private computerMoves(viewer: number, ply: number): string[] {
    const out: string[] = [];
    for (let i = ply - 1; i >= 0; i--) {
      const st = this.steps[i]!;
      if (st.player < 0) continue;
      if (this.spec.seats[st.player] === 'human') break;
      if (this.decided(i) || this.spec.mode === 'assist')
        out.push(`${this.game.players[st.player]}: ${this.seen(st, viewer)}`);
    }
    return out.reverse();
  }

  /** The page's view for `viewer` (-1: everything) after `ply` steps (default: now). */
  view(viewer: number, o: { ply?: number; thinking?: number } = {}): TableView {
    const g = this.game;
    const ply = o.ply ?? this.steps.length;
    const s = this.stateAt(ply);
    const tm = g.toMove(s);
    // nothing hidden from the viewer any more: the computer's explanations of sealed choices may be shown
    const open = viewer < 0 || !g.hidden?.(s, viewer);
    const log: StepView[] = this.steps.slice(0, ply).map((st, i) => {
      const mine = viewer < 0 || st.player === viewer;
      const text =
        st.player < 0
          ? `dice: ${st.label ?? st.key}${st.dice?.length ? ` (${st.dice.join(' ')})` : ''}`
          : `${g.players[st.player]}: ${this.seen(st, viewer)}`;
      const events = (viewer < 0 ? st.events : eventsFor(st.events, viewer)).map((e) => ({
        rule: e.rule,
        text: e.text,
        ...(e.dice ? { dice: e.dice } : {}),
      }));
      return {
        ply: i + 1,
        player: st.player,
        text,
        events,
        ...(st.explanation && (mine || open) ? { explanation: st.explanation } : {}),
      };
    });
    const toMove: TableView['toMove'] =
      tm.kind === 'player' ? { kind: 'player', player: tm.player } : { kind: tm.kind === 'chance' ? 'chance' : 'over' };
    const live = ply === this.steps.length && this.spec.mode !== 'replay';
    const yours =
      live &&
      tm.kind === 'player' &&
      this.spec.seats[tm.player] === 'human' &&
      (viewer < 0 || viewer === tm.player) &&
      o.thinking === undefined;
    const offers = yours ? g.legalActions(s).map((a) => ({ key: g.actionKey(a), text: g.describeAction(s, a) })) : [];
    const roll =
      live && tm.kind === 'chance' && this.spec.mode === 'assist'
        ? {
            ...(() => {
              const ask = g.outcomeForFaces ? g.rollAsk?.(s) : undefined;
              return ask ? { what: ask.what, dice: ask.dice } : { what: g.describeDecision?.(s) ?? 'a roll' };
            })(),
            outcomes: g.chanceOutcomes(s).map((x) => ({ key: g.actionKey(x.action), text: x.label, p: x.p })),
          }
        : undefined;
    let decision: string | undefined;
    try {
      decision = tm.kind === 'terminal' ? undefined : g.describeDecision?.(s);
    } catch {
      decision = undefined;
    }
    return {
      ruleset: g.id,
      title: g.title,
      scenarioId: this.spec.scenarioId,
      seed: this.spec.seed,
      mode: this.spec.mode,
      players: g.players,
      seats: this.spec.seats,
      viewer,
      ply,
      toMove,
      ...(decision && (yours || roll) ? { decision } : {}),
      offers,
      ...(roll ? { roll } : {}),
      ...(g.picture ? { picture: g.picture(s, viewer < 0 ? undefined : viewer) } : {}),
      text: g.render(s, viewer < 0 ? undefined : viewer),
      log,
      ...(tm.kind === 'terminal' ? { result: g.resultText(s), returns: g.returns(s) } : {}),
      ...(o.thinking !== undefined ? { thinking: o.thinking } : {}),
      canTakeBack: live ? this.takeBackCount(viewer) : 0,
      computerMoves: this.computerMoves(viewer, ply),
    };
  }
}
