/**
 * The generated-scenario soak: draws random scenarios with a ruleset's `randomScenario` hook, validates each (refusals
 * are counted by their first problem, for the report) and plays every accepted one to the end — random against
 * random, and the scripted heuristic (`policyScores` argmax, ties by order) on each seat against random — through the
 * validating `apply`, with deep-frozen states so that a mutation throws, asserting the `Game` contract at every step
 * with the same checker as the conformance suite (arena/conformance.ts).
 *
 * A failure stops its game and is reported with everything needed to reproduce it: ruleset, scenario index and seed,
 * agent pairing, game seed, ply, message, and the scenario JSON itself. Scenario `i` of seed `S` is drawn with
 * `seedrandom.alea(`${S}/${ruleset}/${i}`)`, so one scenario can be redrawn without the others.
 */
import seedrandom from 'seedrandom';
import type { AnyGame } from '../engine/core/game.ts';
import { type AgentKind, type GameFault, type PlayOptions, playChecked, whereOf } from './conformance.ts';

export type { AgentKind };

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

/** Numbers and quoted names blanked, so that one kind of message from many scenarios counts once. */
function categoryOf(message: string): string {
  return message
    .split('\n')[0]!
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 200);
}

/** The pairings played on each scenario, seat A first. */
function pairings(game: AnyGame, agents: readonly AgentKind[]): (readonly [AgentKind, AgentKind])[] {
  const out: (readonly [AgentKind, AgentKind])[] = [];
  if (agents.includes('random')) out.push(['random', 'random']);
  if (agents.includes('heuristic') && game.policyScores) out.push(['heuristic', 'random'], ['random', 'heuristic']);
  return out;
}

/** The scenario seed of index `i`: the generator's uniform source is `seedrandom.alea(scenarioSeed(...))`. */
function scenarioSeed(seed: string, rulesetId: string, i: number): string {
  return `${seed}/${rulesetId}/${i}`;
}

export function soakGenerated(game: AnyGame, opts: SoakOptions): SoakReport {
  if (!game.randomScenario) throw new Error(`ruleset ${game.id} has no scenario generator (Game.randomScenario)`);
  const play: PlayOptions = {
    seats: ['random', 'random'],
    maxPlies: opts.maxPlies ?? 20_000,
    freeze: opts.freeze ?? true,
    optionsEvery: Math.max(1, opts.optionsEvery ?? 10),
    optionsCap: Math.max(1, opts.optionsCap ?? 40),
  };
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
      fail({
        scenario: i,
        scenarioSeed: sseed,
        pairing: 'generate',
        gameSeed: '',
        ply: 0,
        message: `the generator threw: ${(e as Error).message}`,
        where: whereOf(e),
        json: null,
      });
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
      fail({
        scenario: i,
        scenarioSeed: sseed,
        pairing: 'validate',
        gameSeed: '',
        ply: 0,
        message: `validateScenario threw: ${(e as Error).message}`,
        where: whereOf(e),
        json,
      });
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
          fail({
            scenario: i,
            scenarioSeed: sseed,
            pairing,
            gameSeed: gseed,
            ply: f.ply ?? 0,
            message: f.message,
            decision: f.decision,
            last: f.last,
            where: f.where,
            json,
          });
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
      lines.push(
        `           e.g. scenario ${ex.scenario} (${ex.pairing}, ply ${ex.ply}${ex.last ? `, after "${ex.last}"` : ''})${ex.decision ? ` at: ${ex.decision.slice(0, 160)}` : ''}${ex.where ? `\n           at ${ex.where}` : ''}`,
      );
      lines.push(
        `           replay: npx tsx test/soak.ts --generated 1 --first ${ex.scenario} --seed ${JSON.stringify(r.seed)} --ruleset ${r.ruleset}`,
      );
    }
  } else lines.push('  no failures');
  return lines.join('\n');
}
