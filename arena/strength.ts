/**
 * Strength matches: paired seeds (each seed played twice, sides swapped, same dice by event key), printing the
 * win rate of agent A against agent B with a 95% Wilson interval. Usage:
 *   npx tsx arena/strength.ts --a heuristic --b random --games 200 [--ruleset R] [--scenario open-field] [--first-pair N]
 * (`--first-pair` starts at seed pair N, so one match can be split across processes: pairs 0–49 and 50–99).
 */
import { createAgent } from '../agents/registry.ts';
import { loadScenario } from './catalog.ts';
import { runMatch } from './match.ts';
import { wilson } from './ratings.ts';

export async function pairedMatches(o: {
  a: string;
  b: string;
  games: number;
  scenario?: string;
  ruleset?: string;
  firstPair?: number;
  onGame?: (i: number, score: number) => void;
}) {
  const { game, scenario, id } = loadScenario(o.ruleset ?? 'march-of-eagles', o.scenario);
  let score = 0;
  let wins = 0;
  let draws = 0;
  let losses = 0;
  let played = 0;
  let agentMs = 0;
  let aCalls = 0;
  let aMaxMs = 0;
  for (let i = o.firstPair ?? 0; played < o.games; i++) {
    for (const aSeat of [0, 1]) {
      if (played >= o.games) break;
      const A = createAgent(o.a);
      const B = createAgent(o.b);
      const agents = aSeat === 0 ? [A, B] : [B, A];
      const r = await runMatch({ game, scenario, scenarioId: id, seed: `pair-${i}`, agents });
      if (r.aborted) throw new Error(`game pair-${i}: ${r.aborted}`);
      const res = r.returns[aSeat]!;
      if (res > 0) wins++;
      else if (res < 0) losses++;
      else draws++;
      score += res > 0 ? 1 : res < 0 ? 0 : 0.5;
      agentMs += r.agentMs[aSeat]!;
      aCalls += r.callMs[aSeat]!.length;
      for (const ms of r.callMs[aSeat]!) aMaxMs = Math.max(aMaxMs, ms);
      played++;
      o.onGame?.(played, score);
    }
  }
  const [lo, hi] = wilson(score, played);
  return {
    a: o.a,
    b: o.b,
    scenario: id,
    games: played,
    wins,
    draws,
    losses,
    score: score / played,
    ci95: [lo, hi] as [number, number],
    agentMsPerGame: agentMs / played,
    aMsPerDecision: agentMs / Math.max(1, aCalls),
    aMaxMsPerDecision: aMaxMs,
    firstPair: o.firstPair ?? 0,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k: string, d?: string) => {
    const i = process.argv.indexOf(`--${k}`);
    return i >= 0 ? process.argv[i + 1] : d;
  };
  const r = await pairedMatches({
    a: arg('a', 'heuristic')!,
    b: arg('b', 'random')!,
    games: Number(arg('games', '200')),
    scenario: arg('scenario'),
    ruleset: arg('ruleset'),
    firstPair: Number(arg('first-pair', '0')),
    onGame: (n, sc) => {
      if (n % 10 === 0) process.stderr.write(`${n} games, score ${(sc / n).toFixed(3)}\n`);
    },
  });
  console.log(JSON.stringify(r));
  console.log(
    `${r.a} vs ${r.b} on ${r.scenario}: ${r.wins}W ${r.draws}D ${r.losses}L over ${r.games} paired games = ${(r.score * 100).toFixed(1)}% (95% CI ${(r.ci95[0] * 100).toFixed(1)}–${(r.ci95[1] * 100).toFixed(1)}%); ${r.a}: ${r.aMsPerDecision.toFixed(0)} ms per decision on average, ${r.aMaxMsPerDecision.toFixed(0)} ms at most`,
  );
}
