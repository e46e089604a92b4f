/**
 * The Game contract, checked at every step of a game: the one checker behind the conformance suite
 * (test/conformance.test.ts), the shipped-scenario soak and the generated-scenario soak (npm run soak). At every step:
 * - a decision node offers at least one action, with unique keys;
 * - `policyScores` (when the ruleset has it) gives exactly one finite score per action;
 * - a chance node lists outcomes with unique keys, each p > 0, summing to 1 within 1e-9, and names its event with a
 *   chance key not used before in the game;
 * - at a sample of nodes every listed option (or a spread of them, capped) applies without throwing;
 * - every event cites its rule in the ruleset's `citation` pattern;
 * - the cached hash equals a fresh copy's (sampled);
 * - the game ends within the ply cap (a failure, never a hang), with finite returns.
 * States are deep-frozen (optional), so a mutation of a state throws.
 */
import { type AnyGame, type GameEvent, deepFreeze } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import { sampleOutcome } from './dice.ts';

/** Who picks a seat's actions in a checked game. */
export type AgentKind = 'random' | 'heuristic';

/** A failure inside a game, with where it happened. */
export class GameFault extends Error {
  constructor(
    message: string,
    readonly ply: number,
    readonly decision: string,
    readonly last: string,
    readonly where: string,
  ) {
    super(message);
  }
}

/** A broken contract found by the soak's own checks (not thrown by the ruleset: no stack frame of interest). */
class ContractError extends Error {}

/** The first stack frame in the project's own code (not node_modules, not this file). */
export function whereOf(e: unknown): string {
  if (e instanceof ContractError) return '';
  const lines = (e instanceof Error && e.stack ? e.stack : '').split('\n').slice(1);
  const mine = lines.find((l) => !l.includes('node_modules') && !l.includes('conformance.ts') && !l.includes('node:'));
  return (mine ?? lines[0] ?? '').trim().replace(/^at /, '');
}

/** Argmax of the scripted preferences, the first of equal scores. */
function heuristicPick(scores: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
  return best;
}

function checkKeys(keys: readonly string[], what: string): void {
  if (new Set(keys).size === keys.length) return;
  const seen = new Set<string>();
  const dup = keys.filter((k) => (seen.has(k) ? true : (seen.add(k), false)));
  throw new ContractError(`duplicate ${what} keys: ${[...new Set(dup)].slice(0, 5).join(' | ')} (of ${keys.length})`);
}

function checkScores(scores: unknown, keys: readonly string[]): readonly number[] {
  const n = keys.length;
  if (!Array.isArray(scores)) throw new ContractError('policyScores returned no array');
  if (scores.length !== n) throw new ContractError(`policyScores gave ${scores.length} scores for ${n} actions`);
  const bad = scores.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v));
  if (bad >= 0)
    throw new ContractError(`policyScores gave a non-finite score (${String(scores[bad])}) for "${keys[bad]}"`);
  return scores as number[];
}

function checkOutcomes(game: AnyGame, outs: readonly { action: unknown; p: number }[]): void {
  if (!outs.length) throw new ContractError('no chance outcome at a chance node');
  const bad = outs.find((o) => !(o.p > 0) || !Number.isFinite(o.p));
  if (bad) throw new ContractError(`chance outcome "${game.actionKey(bad.action)}" has p = ${bad.p}`);
  const sum = outs.reduce((t, o) => t + o.p, 0);
  if (Math.abs(sum - 1) > 1e-9) throw new ContractError(`chance probabilities sum to ${sum}`);
  checkKeys(
    outs.map((o) => game.actionKey(o.action)),
    'chance outcome',
  );
}

export interface PlayOptions {
  readonly seats: readonly [AgentKind, AgentKind];
  readonly maxPlies: number;
  readonly freeze: boolean;
  readonly optionsEvery: number;
  readonly optionsCap: number;
  /** Check the cached hash against a fresh copy's every this many plies (0 = never; default 25). */
  readonly hashEvery?: number;
}

/** At most `cap` elements of `xs`, evenly spread, the first and the last included. */
function spread<T>(xs: readonly T[], cap: number): readonly T[] {
  if (xs.length <= cap) return xs;
  if (cap <= 1) return xs.slice(0, cap);
  return Array.from({ length: cap }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (cap - 1))]!);
}

/** One game to the end, asserting the contract at every step; throws a GameFault naming the ply. */
export function playChecked(
  game: AnyGame,
  scenario: unknown,
  rng: () => number,
  o: PlayOptions,
): { plies: number; returns: readonly number[] } {
  const freeze = <T>(s: T): T => (o.freeze ? deepFreeze(s) : s);
  let ply = 0;
  let last = '(start)';
  let decision = '';
  let nodes = 0;
  let s: unknown;
  const chanceKeys = new Set<string>();
  const hashEvery = o.hashEvery ?? 25;
  try {
    s = freeze(game.initialState(scenario));
    for (;;) {
      if (ply >= o.maxPlies) throw new ContractError(`the game did not end within ${o.maxPlies} plies`);
      const tm = game.toMove(s);
      decision = '';
      if (tm.kind === 'terminal') {
        const r = game.returns(s);
        if (r.length !== game.players.length || r.some((v) => !Number.isFinite(v)))
          throw new ContractError(`returns ${JSON.stringify(r)} at the end`);
        game.resultText(s);
        game.render(s);
        return { plies: ply, returns: r };
      }
      const sampled = nodes++ % o.optionsEvery === 0;
      let a: unknown;
      if (tm.kind === 'chance') {
        const outs = game.chanceOutcomes(s);
        checkOutcomes(game, outs);
        // keyed and paired dice draw by the chance key: a key used twice would give two events the same draw
        const ck = game.chanceKey(s);
        if (chanceKeys.has(ck)) throw new ContractError(`chance key "${ck}" used twice in one game`);
        chanceKeys.add(ck);
        if (sampled) for (const x of spread(outs, o.optionsCap)) game.apply(s, x.action);
        a = sampleOutcome(outs, rng()).action;
      } else {
        if (sampled && game.describeDecision) decision = game.describeDecision(s);
        const legal = game.legalActions(s);
        if (!legal.length) throw new ContractError(`no legal action for player ${tm.player} at a decision node`);
        const keys = legal.map((x) => game.actionKey(x));
        checkKeys(keys, 'action');
        const scores = game.policyScores ? checkScores(game.policyScores(s, legal), keys) : null;
        if (sampled) for (const x of spread(legal, o.optionsCap)) game.apply(s, x);
        a =
          o.seats[tm.player] === 'heuristic' && scores
            ? legal[heuristicPick(scores)]
            : legal[Math.floor(rng() * legal.length)];
      }
      last = game.actionKey(a);
      const events: GameEvent[] = [];
      s = freeze(game.apply(s, a, events));
      if (game.citation)
        for (const e of events)
          if (!game.citation.test(e.rule))
            throw new ContractError(`event cites "${e.rule}", not a rule of ${game.id}: ${e.text}`);
      if (hashEvery > 0 && ply % hashEvery === 0 && hashHex(game.hash(s)) !== hashHex(game.hash(structuredClone(s))))
        throw new ContractError("the cached hash differs from a fresh copy's");
      ply++;
    }
  } catch (e) {
    if (!decision && s !== undefined) {
      try {
        decision = game.describeDecision?.(s) ?? '';
      } catch {
        decision = '(describeDecision throws too)';
      }
    }
    throw new GameFault(e instanceof Error ? e.message : String(e), ply, decision, last, whereOf(e));
  }
}
