/**
 * The generated-scenario soak: draws random scenarios with a ruleset's `randomScenario` hook, validates each (refusals
 * are counted by their first problem, for the report) and plays every accepted one to the end — random against
 * random, and the scripted heuristic (`policyScores` argmax, ties by order) on each seat against random — through the
 * validating `apply`, with deep-frozen states so that a mutation throws. At every step it asserts the `Game` contract:
 *
 * - a decision node offers at least one action, and their keys are unique;
 * - `policyScores` (when the ruleset has it) gives exactly one finite score per action;
 * - a chance node lists outcomes with unique keys, each p > 0, summing to 1 within 1e-9;
 * - at a sample of states every listed option applies without throwing (and `describeDecision` answers);
 * - the game ends within the ply cap (a failure, never a hang), with finite returns.
 *
 * A failure stops its game and is reported with everything needed to reproduce it: ruleset, scenario index and seed,
 * agent pairing, game seed, ply, message, and the scenario JSON itself. Scenario `i` of seed `S` is drawn with
 * `seedrandom.alea(`${S}/${ruleset}/${i}`)`, so one scenario can be redrawn without the others.
 */
import seedrandom from 'seedrandom';
import { type AnyGame, type Game, deepFreeze } from '../engine/core/game.ts';
import { sampleOutcome } from './dice.ts';

export type AgentKind = 'random' | 'heuristic';

export interface SoakOptions {
  /** How many scenarios to draw. */
  readonly scenarios: number;
  readonly seed: string;
  /** Games per agent pairing per accepted scenario (default 1). */
  readonly gamesPerScenario?: number;
  /**
   * The agents taking part (default both): 'random' plays random against random; 'heuristic' plays the heuristic on
   * each seat against random (rulesets without `policyScores` play only random games).
   */
  readonly agents?: readonly AgentKind[];
  /** A game still running after this many plies fails (default 20,000). */
  readonly maxPlies?: number;
  /** Deep-freeze every state, so that a mutation of a state throws (default true; it costs some speed). */
  readonly freeze?: boolean;
  /** Every legal option (or chance outcome) is applied at every n-th decision and chance node (default 10). */
  readonly optionsEvery?: number;
  /**
   * At most this many options are applied at a sampled node, spread evenly over the list, first and last included
   * (default 40; Infinity for all): a placement decision may list hundreds, each costly to apply.
   */
  readonly optionsCap?: number;
  /** Index of the first scenario (default 0): a later slice of the same sequence. */
  readonly first?: number;
  /** Called after each scenario (for progress output). */
  readonly onScenario?: (index: number, report: SoakReport) => void;
}

export interface SoakFailure {
  readonly ruleset: string;
  /** Index of the scenario in the drawn sequence. */
  readonly scenario: number;
  /** The seed the scenario was drawn with: `game.randomScenario(seedrandom.alea(scenarioSeed))` redraws it. */
  readonly scenarioSeed: string;
  /** "generate", "validate", or the agent pairing (seat A vs seat B), e.g. "heuristic-random". */
  readonly pairing: string;
  /** The seed of the game's uniform source (agents and dice); empty for generate/validate failures. */
  readonly gameSeed: string;
  readonly ply: number;
  readonly message: string;
  /** The message with numbers and quoted names blanked: failures of one kind share it. */
  readonly category: string;
  /** What was being asked when it failed, and the last action applied. */
  readonly decision?: string;
  readonly last?: string;
  /** The first frame of the stack inside the project, for triage. */
  readonly where?: string;
  /** The scenario file (JSON), to reproduce the failure. */
  readonly json: unknown;
}

export interface SoakReport {
  readonly ruleset: string;
  readonly seed: string;
  drawn: number;
  accepted: number;
  refused: number;
  /** Refused scenarios by (blanked) first problem, with one full example each. */
  readonly refusals: Record<string, { count: number; example: string }>;
  games: number;
  /** Games by result: seat A won, seat B won, drawn. */
  readonly results: { a: number; b: number; draw: number };
  plies: number;
  longestGame: number;
  seconds: number;
  pliesPerSecond: number;
  readonly failures: SoakFailure[];
  /** Failures by category. */
  readonly categories: Record<string, number>;
}

/** A failure inside a game, with where it happened. */
class GameFault extends Error {
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

/** Numbers and quoted names blanked, so that one kind of message from many scenarios counts once. */
export function categoryOf(message: string): string {
  return message
    .split('\n')[0]!
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 200);
}

/** The first stack frame in the project's own code (not node_modules, not this file). */
function whereOf(e: unknown): string {
  if (e instanceof ContractError) return '';
  const lines = (e instanceof Error && e.stack ? e.stack : '').split('\n').slice(1);
  const mine = lines.find((l) => !l.includes('node_modules') && !l.includes('scenario-soak.ts') && !l.includes('node:'));
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
  if (bad >= 0) throw new ContractError(`policyScores gave a non-finite score (${String(scores[bad])}) for "${keys[bad]}"`);
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

interface PlayOptions {
  readonly seats: readonly [AgentKind, AgentKind];
  readonly maxPlies: number;
  readonly freeze: boolean;
  readonly optionsEvery: number;
  readonly optionsCap: number;
}

/** At most `cap` elements of `xs`, evenly spread, the first and the last included. */
function spread<T>(xs: readonly T[], cap: number): readonly T[] {
  if (xs.length <= cap) return xs;
  if (cap <= 1) return xs.slice(0, cap);
  return Array.from({ length: cap }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (cap - 1))]!);
}

/** One game to the end, asserting the contract at every step; throws a GameFault naming the ply. */
function playChecked(game: AnyGame, scenario: unknown, rng: () => number, o: PlayOptions): { plies: number; returns: readonly number[] } {
  const freeze = <T>(s: T): T => (o.freeze ? deepFreeze(s) : s);
  let ply = 0;
  let last = '(start)';
  let decision = '';
  let nodes = 0;
  let s: unknown;
  try {
    s = freeze(game.initialState(scenario));
    for (;;) {
      if (ply >= o.maxPlies) throw new ContractError(`the game did not end within ${o.maxPlies} plies`);
      const tm = game.toMove(s);
      decision = '';
      if (tm.kind === 'terminal') {
        const r = game.returns(s);
        if (r.length !== game.players.length || r.some((v) => !Number.isFinite(v))) throw new ContractError(`returns ${JSON.stringify(r)} at the end`);
        game.resultText(s);
        game.render(s);
        return { plies: ply, returns: r };
      }
      const sampled = nodes++ % o.optionsEvery === 0;
      let a: unknown;
      if (tm.kind === 'chance') {
        const outs = game.chanceOutcomes(s);
        checkOutcomes(game, outs);
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
        a = o.seats[tm.player] === 'heuristic' && scores ? legal[heuristicPick(scores)] : legal[Math.floor(rng() * legal.length)];
      }
      last = game.actionKey(a);
      s = freeze(game.apply(s, a));
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

/** The pairings played on each scenario, seat A first. */
export function pairings(game: AnyGame, agents: readonly AgentKind[]): (readonly [AgentKind, AgentKind])[] {
  const out: (readonly [AgentKind, AgentKind])[] = [];
  if (agents.includes('random')) out.push(['random', 'random']);
  if (agents.includes('heuristic') && game.policyScores) out.push(['heuristic', 'random'], ['random', 'heuristic']);
  return out;
}

/** The scenario seed of index `i`: the generator's uniform source is `seedrandom.alea(scenarioSeed(...))`. */
export function scenarioSeed(seed: string, rulesetId: string, i: number): string {
  return `${seed}/${rulesetId}/${i}`;
}

export function soakGenerated(game: AnyGame, opts: SoakOptions): SoakReport {
  if (!game.randomScenario) throw new Error(`ruleset ${game.id} has no scenario generator (Game.randomScenario)`);
  const play: PlayOptions = { seats: ['random', 'random'], maxPlies: opts.maxPlies ?? 20_000, freeze: opts.freeze ?? true, optionsEvery: Math.max(1, opts.optionsEvery ?? 10), optionsCap: Math.max(1, opts.optionsCap ?? 40) };
  const seats = pairings(game, opts.agents ?? ['random', 'heuristic']);
  const gamesEach = opts.gamesPerScenario ?? 1;
  const report: SoakReport = {
    ruleset: game.id,
    seed: opts.seed,
    drawn: 0,
    accepted: 0,
    refused: 0,
    refusals: {},
    games: 0,
    results: { a: 0, b: 0, draw: 0 },
    plies: 0,
    longestGame: 0,
    seconds: 0,
    pliesPerSecond: 0,
    failures: [],
    categories: {},
  };
  const fail = (f: Omit<SoakFailure, 'ruleset' | 'category'>) => {
    const category = categoryOf(f.message);
    report.failures.push({ ruleset: game.id, category, ...f });
    report.categories[category] = (report.categories[category] ?? 0) + 1;
  };
  const t0 = performance.now();
  const first = opts.first ?? 0;
  for (let i = first; i < first + opts.scenarios; i++) {
    const sseed = scenarioSeed(opts.seed, game.id, i);
    let json: unknown;
    report.drawn++;
    try {
      json = game.randomScenario(seedrandom.alea(sseed));
    } catch (e) {
      fail({ scenario: i, scenarioSeed: sseed, pairing: 'generate', gameSeed: '', ply: 0, message: `the generator threw: ${(e as Error).message}`, where: whereOf(e), json: null });
      continue;
    }
    let scenario: unknown;
    try {
      const v = game.validateScenario(json);
      if (!v.ok) {
        report.refused++;
        const p = v.problems[0];
        const key = p ? `${p.path.replace(/\d+/g, 'N')}: ${categoryOf(p.message)}` : '(no problem listed)';
        const r = (report.refusals[key] ??= { count: 0, example: p ? `${p.path}: ${p.message}` : '' });
        r.count++;
        opts.onScenario?.(i, report);
        continue;
      }
      scenario = v.value;
    } catch (e) {
      fail({ scenario: i, scenarioSeed: sseed, pairing: 'validate', gameSeed: '', ply: 0, message: `validateScenario threw: ${(e as Error).message}`, where: whereOf(e), json });
      continue;
    }
    report.accepted++;
    for (const pair of seats)
      for (let g = 0; g < gamesEach; g++) {
        const pairing = pair.join('-');
        const gseed = `${sseed}/${pairing}/${g}`;
        report.games++;
        try {
          const r = playChecked(game, scenario, seedrandom.alea(gseed), { ...play, seats: pair });
          report.plies += r.plies;
          report.longestGame = Math.max(report.longestGame, r.plies);
          if (r.returns[0]! > r.returns[1]!) report.results.a++;
          else if (r.returns[1]! > r.returns[0]!) report.results.b++;
          else report.results.draw++;
        } catch (e) {
          const f = e as GameFault;
          report.plies += f.ply ?? 0;
          fail({ scenario: i, scenarioSeed: sseed, pairing, gameSeed: gseed, ply: f.ply ?? 0, message: f.message, decision: f.decision, last: f.last, where: f.where, json });
        }
      }
    report.seconds = (performance.now() - t0) / 1000;
    report.pliesPerSecond = report.plies / Math.max(1e-9, report.seconds);
    opts.onScenario?.(i, report);
  }
  report.seconds = (performance.now() - t0) / 1000;
  report.pliesPerSecond = report.plies / Math.max(1e-9, report.seconds);
  return report;
}

/** The report as text: counts, refusals, failure categories with an example each, speed. */
export function formatSoakReport(r: SoakReport): string {
  const lines = [
    `${r.ruleset} (seed "${r.seed}"): ${r.drawn} scenarios drawn, ${r.accepted} accepted, ${r.refused} refused; ${r.games} games (A ${r.results.a} / B ${r.results.b} / draw ${r.results.draw}), ${r.plies} plies (longest ${r.longestGame}), ${r.seconds.toFixed(1)} s, ${r.pliesPerSecond.toFixed(0)} plies/s`,
  ];
  const refusals = Object.entries(r.refusals).sort((a, b) => b[1].count - a[1].count);
  if (refusals.length) {
    lines.push('  refused, by first problem:');
    for (const [, v] of refusals) lines.push(`    ${String(v.count).padStart(5)}  ${v.example}`);
  }
  const cats = Object.entries(r.categories).sort((a, b) => b[1] - a[1]);
  if (cats.length) {
    lines.push(`  ${r.failures.length} FAILURES, by kind:`);
    for (const [c, n] of cats) {
      const ex = r.failures.find((f) => f.category === c)!;
      lines.push(`    ${String(n).padStart(5)}  ${ex.message.split('\n')[0]!.slice(0, 300)}`);
      lines.push(`           e.g. scenario ${ex.scenario} (${ex.pairing}, ply ${ex.ply}${ex.last ? `, after "${ex.last}"` : ''})${ex.decision ? ` at: ${ex.decision.slice(0, 160)}` : ''}${ex.where ? `\n           at ${ex.where}` : ''}`);
      lines.push(`           replay: npx tsx test/soak.ts --generated 1 --first ${ex.scenario} --seed ${JSON.stringify(r.seed)} --ruleset ${r.ruleset}`);
    }
  } else lines.push('  no failures');
  return lines.join('\n');
}
