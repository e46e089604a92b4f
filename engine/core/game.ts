/**
 * The one interface every ruleset implements. Game-agnostic: nothing here knows any ruleset.
 *
 * Contract:
 * - States are plain, deeply readonly data (no classes, Maps or functions) and are never mutated; `apply`
 *   returns a new state that shares every unchanged sub-object with its input.
 * - `toMove` says who decides next: a player index, CHANCE, or terminal.
 * - `legalActions` lists the decisions of the player to move in a stable order (the same state always gives the
 *   same list). At a chance node, `chanceOutcomes` lists outcome classes with exact probabilities summing to 1,
 *   and each outcome carries the action to apply.
 * - `apply` validates (throws IllegalActionError naming the action and the reason); `applyUnchecked` is the
 *   fast path for search, where the caller guarantees legality.
 * - `hash` is a 64-bit value (two uint32 halves) stable across processes.
 */
import type { Encoding } from './encoding.ts';
import type { Hash64 } from './hash.ts';
import type { Picture } from './picture.ts';

export type Player = number;

export type ToMove =
  | { readonly kind: 'player'; readonly player: Player }
  | { readonly kind: 'chance' }
  | { readonly kind: 'terminal' };

export interface ChanceOutcome<A> {
  readonly action: A;
  /** Exact probability of this outcome class. */
  readonly p: number;
  /** Human label of the class, e.g. "3 hits" or "sum 9". */
  readonly label: string;
}

/** A state change a human can read, citing the rule that caused it. */
export interface GameEvent {
  /** Rulebook reference, e.g. "Shooting" or "10.4" or "M11". */
  readonly rule: string;
  readonly text: string;
  /** Concrete dice faces shown for a chance outcome, when the event is a roll. */
  readonly dice?: readonly number[];
  /**
   * A secret (a sealed bid, written orders, a card): only these players read `text` and `dice`; everyone else reads
   * `redacted` (no dice), which must not depend on the secret. Absent: everyone reads the event.
   */
  readonly to?: readonly Player[];
  readonly redacted?: string;
}

/**
 * The event as `viewer` reads it (`viewer` < 0: the omniscient record, e.g. a replay or an umpire): a secret not
 * addressed to the viewer becomes its redacted text, citing the same rule.
 */
export function eventFor(e: GameEvent, viewer: Player): GameEvent {
  if (!e.to || viewer < 0 || e.to.includes(viewer)) return e;
  return { rule: e.rule, text: e.redacted ?? 'something hidden happens' };
}

export function formatEvent(e: GameEvent): string {
  return `[${e.rule}] ${e.text}${e.dice && e.dice.length ? ` (dice: ${e.dice.join(' ')})` : ''}`;
}

export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: readonly Problem[] };

/** One problem in an input file, with the JSON path of the offending value. */
export interface Problem {
  readonly path: string;
  readonly message: string;
}

export interface Game<S = unknown, A = unknown, Sc = unknown> {
  /** Stable id, e.g. "my-ruleset". */
  readonly id: string;
  readonly title: string;
  /** Bumped whenever a rule change alters play; recorded in replays. */
  readonly version: number;
  /** Player names by index, e.g. ["A", "B"]. */
  readonly players: readonly string[];
  readonly defaultScenario: string;

  /** Validate untrusted scenario JSON, listing every problem with its JSON path. */
  validateScenario(json: unknown): Validated<Sc>;
  initialState(scenario: Sc, options?: Readonly<Record<string, unknown>>): S;

  toMove(s: S): ToMove;
  legalActions(s: S): readonly A[];
  chanceOutcomes(s: S): readonly ChanceOutcome<A>[];
  /** A key naming the chance event in game terms (e.g. "t3/c17"), for keyed dice. */
  chanceKey(s: S): string;
  /** Validating apply; collects the events the change emits into `events` if given. */
  apply(s: S, a: A, events?: GameEvent[]): S;
  /** Unchecked fast path (the caller guarantees `a` is legal or a listed chance outcome). */
  applyUnchecked(s: S, a: A, events?: GameEvent[]): S;
  /** Payoff per player at a terminal state (+1 win, -1 loss, 0 draw; a reference game may pay more, e.g. ±2 chips). */
  returns(s: S): readonly number[];
  /**
   * What `player` can see, as plain data. For perfect-information rulesets this is the state itself. Two states that
   * differ only in what `player` cannot see give equal observations (the conformance suite checks it), and two that
   * the player can tell apart give different ones: it includes what the player has seen so far (the public history,
   * its own earlier choices), since solvers key information sets by its hash. A ruleset with an encoding returns a
   * state-shaped value with the hidden values blanked, which the encoding reads.
   */
  observe(s: S, player: Player): unknown;
  /**
   * A state consistent with what `player` observes in `s`, for in-process search agents: hidden values the player
   * cannot see are re-sampled with `u`. Perfect-information rulesets return `s` itself.
   */
  sampleState(s: S, player: Player, u: () => number): S;
  /** Heuristic value of `s` for `player` in [-1, 1]; used by search at truncated leaves. */
  evaluate(s: S, player: Player): number;
  /**
   * True when `evaluate` can be trusted at `s`: no procedure is half-way through (dice rolled but not yet applied,
   * a combat or a test still to resolve). Search continues a truncated rollout a few plies to such a position, the
   * way a chess engine's quiescence search does not stop in the middle of an exchange. Absent: every position is.
   */
  quiet?(s: S): boolean;
  /**
   * Scripted preferences: a score per legal action (higher = better for the player to move), from the tactics the
   * rules imply. Used by the `heuristic` agent, by heuristic rollouts and to order actions for progressive widening.
   */
  policyScores?(s: S, actions: readonly A[]): number[];
  /**
   * The scripted preferences' first choice at `s`: the first legal action with the highest `policyScores`, exactly.
   * A ruleset may give it to find that choice without testing actions that cannot be it (heuristic rollouts ask for
   * it at every decision); absent, they score the whole menu.
   */
  greedyAction?(s: S): A;
  /**
   * The form of this ruleset's rule citations: every event's `rule` must match it (the conformance suite checks), so
   * a log line can always be traced to its rulebook section, e.g. /^\d+\.\d+$/ for numbered sections.
   */
  readonly citation?: RegExp;
  /**
   * Hidden information, decided per state (a ruleset that never hides anything leaves these three out, and its search
   * keeps its speed and tree reuse). `viewAction` says what `viewer` sees of action or chance outcome `a` taken at `s`:
   * its key when the viewer may see it, else a redacted text (e.g. "A: bid (sealed)") that is the same for every
   * action the viewer cannot tell apart and equal to no action's key. Absent: every action is public.
   */
  viewAction?(s: S, a: A, viewer: Player): string;
  /**
   * True when `s` holds something `player` cannot see (a sealed choice, a card): a search for `player` from `s` must
   * determinize with `sampleState`. Absent: never.
   */
  hidden?(s: S, player: Player): boolean;
  /**
   * At a decision inside a round of sealed choices (bids revealed together): the state at the start of the round,
   * and the choices made in it so far, in order. Search restarts from `start`, replaying its own earlier choices and
   * letting the other players choose as its model of them sees fit, so that what it thinks they chose never depends
   * on what they actually chose. Absent, or undefined: no round is open.
   */
  sealedRound?(
    s: S,
  ): { readonly start: S; readonly choices: readonly { readonly player: Player; readonly action: A }[] } | undefined;
  /** Canonical text of an action (unique among the legal actions of any state). */
  actionKey(a: A): string;
  /** Longer human description of an action in its state. */
  describeAction(s: S, a: A): string;
  hash(s: S): Hash64;
  /** What the player to move is being asked, in words (e.g. "how many go forward as a screen? (at most 8)"). */
  describeDecision?(s: S): string;
  /** A readable text picture of the state, for terminal play. */
  render(s: S, viewer?: Player): string;
  /**
   * The position as a drawing for graphical tables (the web table): terrain, pieces with their footprints and
   * markers, a legend (see `picture.ts`). What `viewer` may not see is left out, as in `render`.
   */
  picture?(s: S, viewer?: Player): Picture;
  /** One-line result text at a terminal state. */
  resultText(s: S): string;
  /**
   * Assistant mode (a physical table, real dice): the roll due at this chance node as dice a person rolls — `dice`
   * lists each die's number of sides (e.g. [6, 6] for 2D6, [20] for a D20) and `what` names the roll in words
   * ("B2's morale check: D20, 13 or less passes"). Undefined where the node is not a roll (a card drawn, a random
   * scenario choice): the table then offers the outcome classes themselves.
   */
  rollAsk?(s: S): { readonly what: string; readonly dice: readonly number[] } | undefined;
  /**
   * The chance outcome that these faces (one per die of `rollAsk`, in its order, each 1..sides) give, or a one-line
   * reason they cannot be, naming the roll. Must agree with `chanceOutcomes`' classes and `diceFaces`.
   */
  outcomeForFaces?(s: S, faces: readonly number[]): { readonly action: A } | { readonly error: string };
  /** Faces consistent with the chance outcome, for display (optional). */
  diceFaces?(s: S, a: A, u: () => number): readonly number[] | undefined;
  /** Observation features for learning agents (optional; see `encoding.ts`). */
  readonly encoding?: Encoding<S, A>;
  /**
   * A random scenario file (JSON, as `validateScenario` reads it) drawn with the uniform source `u`, varying everything
   * the scenario format allows; the generated-scenario soak (arena/scenario-soak.ts) validates and plays it. A ruleset
   * plugs into the soak by implementing this. Pure: all randomness comes from `u`.
   */
  randomScenario?(u: () => number): unknown;
}

/**
 * Any ruleset, for code that drives games without knowing which (drivers, agents, the arena): the one place where
 * the state, action and scenario types are left open.
 */
// biome-ignore lint/suspicious/noExplicitAny: the one open alias; drivers treat states, actions and scenarios as opaque
export type AnyGame = Game<any, any, any>;

export class IllegalActionError extends Error {
  readonly code = 'action/illegal';
  constructor(
    readonly actionText: string,
    readonly reason: string,
  ) {
    super(`illegal action "${actionText}": ${reason}`);
  }
}

/** Thrown when a ruleset meets a rule it does not implement: refuse loudly, name the rule. Public API. @public */
export class NotImplementedRuleError extends Error {
  readonly code = 'rule/not-implemented';
  constructor(
    readonly rule: string,
    detail: string,
  ) {
    super(`rule ${rule} is not implemented: ${detail}`);
  }
}

/** Whether `a` is among the options at `s` (the legal actions, or the listed chance outcomes), compared by key. Public API. @public */
export function isOffered<S, A>(game: Game<S, A>, s: S, a: A): boolean {
  const tm = game.toMove(s);
  if (tm.kind === 'terminal') return false;
  const key = game.actionKey(a);
  const list = tm.kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s);
  return list.some((x) => game.actionKey(x) === key);
}

/** Find a legal action by its text key (exact, then case-insensitive). */
export function findActionByKey<A>(game: Game<unknown, A>, s: unknown, text: string): A | undefined {
  const legal = game.toMove(s).kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s);
  const t = text.trim();
  const exact = legal.find((a) => game.actionKey(a) === t);
  if (exact !== undefined) return exact;
  const lower = t.toLowerCase();
  return legal.find((a) => game.actionKey(a).toLowerCase() === lower);
}

/** Deep-freeze a value (tests use it to prove apply never mutates its input). */
export function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}
