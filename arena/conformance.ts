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
 * - the game ends within the ply cap (a failure, never a hang), with finite returns;
 * - hidden information (sampled nodes): a state re-drawn for a player looks the same to it (observation, its hash, who
 *   moves, its options) and is the state itself when `hidden` says nothing is hidden; the mover sees its own action as
 *   its key, and a redacted view is no option's key; an open sealed round replays from its start to the state; a
 *   secret event names valid players and has a redacted text.
 * States are deep-frozen (optional), so a mutation of a state throws.
 */
import { type AnyGame, type GameEvent, deepFreeze } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import { actionView, hasHiddenInformation, observationHash } from '../engine/core/views.ts';
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

/**
 * Real dice at a chance node (`rollAsk` / `outcomeForFaces`, the web table's assistant mode): the faces `diceFaces`
 * shows for each outcome map back to that outcome, every face combination maps to an outcome the node lists or is
 * refused with a reason, and faces off the dice are refused.
 */
function checkRoll(
  game: AnyGame,
  s: unknown,
  outs: readonly { action: unknown; p: number }[],
  rng: () => number,
): void {
  if (!game.rollAsk) return;
  const ask = game.rollAsk(s);
  if (!ask) return;
  if (!game.outcomeForFaces) throw new ContractError('rollAsk without outcomeForFaces');
  if (!ask.dice.length || ask.dice.some((k) => !Number.isInteger(k) || k < 2))
    throw new ContractError(`rollAsk gives dice [${ask.dice.join(', ')}] for "${ask.what}"`);
  const keys = new Set(outs.map((o) => game.actionKey(o.action)));
  const key = (faces: readonly number[]) => {
    const r = game.outcomeForFaces!(s, faces);
    return 'error' in r ? null : game.actionKey(r.action);
  };
  if (game.diceFaces)
    for (const o of outs) {
      const faces = game.diceFaces(s, o.action, rng);
      if (!faces || faces.length !== ask.dice.length) continue;
      const k = key(faces);
      if (k !== game.actionKey(o.action))
        throw new ContractError(
          `${ask.what}: the faces ${faces.join(' ')} shown for "${game.actionKey(o.action)}" map back to ${k === null ? 'a refusal' : `"${k}"`}`,
        );
    }
  // every combination (or a sample of them, past 4096) gives a listed outcome or a reason
  const total = ask.dice.reduce((a, k) => a * k, 1);
  for (let i = 0; i < Math.min(total, 4096); i++) {
    let n = total <= 4096 ? i : Math.floor(rng() * total);
    const faces = ask.dice.map((k) => {
      const f = (n % k) + 1;
      n = Math.floor(n / k);
      return f;
    });
    const r = game.outcomeForFaces(s, faces);
    if ('error' in r) {
      if (!r.error) throw new ContractError(`${ask.what}: faces ${faces.join(' ')} refused without a reason`);
    } else if (!keys.has(game.actionKey(r.action)))
      throw new ContractError(
        `${ask.what}: faces ${faces.join(' ')} give "${game.actionKey(r.action)}", not an outcome here`,
      );
  }
  const off = ask.dice.map((k, i) => (i === 0 ? k + 1 : 1));
  if (!('error' in game.outcomeForFaces(s, off)))
    throw new ContractError(`${ask.what}: a ${off[0]} on a D${ask.dice[0]} was accepted`);
}

/** The per-viewer contract at `s` (see the header). */
function checkViews(game: AnyGame, s: unknown, options: readonly unknown[], rng: () => number): void {
  const tm = game.toMove(s);
  const keys = options.map((x) => game.actionKey(x));
  const mover = tm.kind === 'player' ? tm.player : -1;
  for (let p = 0; p < game.players.length; p++) {
    const t = game.sampleState(s, p, rng);
    if (hashHex(observationHash(game, t, p)) !== hashHex(observationHash(game, s, p)))
      throw new ContractError(`a state re-drawn for ${game.players[p]} does not look the same to it`);
    const tt = game.toMove(t);
    if (tt.kind !== tm.kind || (tt.kind === 'player' && tm.kind === 'player' && tt.player !== tm.player))
      throw new ContractError(`a state re-drawn for ${game.players[p]} has another player to move`);
    if (
      mover === p &&
      game
        .legalActions(t)
        .map((x: unknown) => game.actionKey(x))
        .join('|') !== keys.join('|')
    )
      throw new ContractError(`a state re-drawn for ${game.players[p]} offers it other options`);
    if (!game.hidden?.(s, p) && hashHex(game.hash(t)) !== hashHex(game.hash(s)))
      throw new ContractError(`nothing is hidden from ${game.players[p]}, yet sampleState changed the state`);
    for (let i = 0; i < options.length; i++) {
      const seen = actionView(game, s, options[i], p);
      if (p === mover && seen !== keys[i])
        throw new ContractError(`${game.players[p]} does not see its own action "${keys[i]}" (sees "${seen}")`);
      if (seen !== keys[i] && keys.includes(seen))
        throw new ContractError(`the redacted view "${seen}" of "${keys[i]}" is another option's key`);
    }
  }
  const round = game.sealedRound?.(s);
  if (round) {
    let r = round.start;
    for (const c of round.choices) {
      const m = game.toMove(r);
      if (m.kind !== 'player' || m.player !== c.player)
        throw new ContractError('the sealed round does not replay from its start: another player moves');
      r = game.applyUnchecked(r, c.action);
    }
    if (hashHex(game.hash(r)) !== hashHex(game.hash(s)))
      throw new ContractError('the sealed round replayed from its start does not give the state');
  }
}

function checkSecretEvents(game: AnyGame, events: readonly GameEvent[]): void {
  for (const e of events) {
    if (!e.to) continue;
    if (!e.to.every((p) => Number.isInteger(p) && p >= 0 && p < game.players.length))
      throw new ContractError(`a secret event is addressed to ${JSON.stringify(e.to)}: ${e.text}`);
    if (typeof e.redacted !== 'string') throw new ContractError(`a secret event has no redacted text: ${e.text}`);
  }
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
  const hidden = hasHiddenInformation(game);
  if (game.viewAction && !game.hidden)
    throw new GameFault(
      `${game.id} redacts actions (viewAction) but does not say what is hidden (hidden)`,
      0,
      '',
      '',
      '',
    );
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
        if (sampled) checkRoll(game, s, outs, rng);
        if (sampled && hidden)
          checkViews(
            game,
            s,
            outs.map((x) => x.action),
            rng,
          );
        a = sampleOutcome(outs, rng()).action;
      } else {
        if (sampled && game.describeDecision) decision = game.describeDecision(s);
        const legal = game.legalActions(s);
        if (!legal.length) throw new ContractError(`no legal action for player ${tm.player} at a decision node`);
        const keys = legal.map((x) => game.actionKey(x));
        checkKeys(keys, 'action');
        const scores = game.policyScores ? checkScores(game.policyScores(s, legal), keys) : null;
        if (sampled) for (const x of spread(legal, o.optionsCap)) game.apply(s, x);
        if (sampled && hidden) checkViews(game, s, legal, rng);
        a =
          o.seats[tm.player] === 'heuristic' && scores
            ? legal[heuristicPick(scores)]
            : legal[Math.floor(rng() * legal.length)];
      }
      last = game.actionKey(a);
      const events: GameEvent[] = [];
      s = freeze(game.apply(s, a, events));
      if (hidden) checkSecretEvents(game, events);
      if (game.citation)
        for (const e of events)
          if (!game.citation.test(e.rule))
            throw new ContractError(`event cites "${e.rule}", not a rule of ${game.id}: ${e.text}`);
      if (hashEvery > 0 && ply % hashEvery === 0 && hashHex(game.hash(s)) !== hashHex(game.hash(structuredClone(s)))) {
        const nan = nanPath(s, '$');
        throw new ContractError(
          nan
            ? `the state holds NaN at ${nan}: not plain data a hash can trust`
            : "the cached hash differs from a fresh copy's",
        );
      }
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

/** The first place a state holds NaN (NaN hashes by its bits, which a copy need not keep), or null. */
function nanPath(v: unknown, path: string): string | null {
  if (typeof v === 'number') return Number.isNaN(v) ? path : null;
  if (!v || typeof v !== 'object') return null;
  for (const [k, x] of Object.entries(v)) {
    const p = nanPath(x, Array.isArray(v) ? `${path}[${k}]` : `${path}.${k}`);
    if (p) return p;
  }
  return null;
}
