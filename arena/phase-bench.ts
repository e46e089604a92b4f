/**
 * `eagles bench --phases`: where a ruleset's plies go. Seeded random games on one scenario, each step timed
 * (`legalActions` or `chanceOutcomes`, then `applyUnchecked`) and charged to the decision kind on top: the procedure
 * runtime's frame kind (`stack[top].t`) where the state has one, else `decision` or `chance`. The table says which
 * menus to make cheaper first; the shares are of the time inside the steps (the loop's own cost left out).
 */
import seedrandom from 'seedrandom';
import type { AnyGame } from '../engine/core/game.ts';
import { sampleOutcome } from './dice.ts';

export interface PhaseRow {
  /** The frame kind, with ` (chance)` for a chance node. */
  readonly kind: string;
  readonly plies: number;
  readonly ms: number;
  readonly share: number;
  readonly usPerPly: number;
}

function kindOf(s: unknown, chance: boolean): string {
  const stack = (s as { stack?: readonly { t?: unknown }[] }).stack;
  const t = Array.isArray(stack) && stack.length ? stack[stack.length - 1]?.t : undefined;
  const k = typeof t === 'string' ? t : chance ? 'chance' : 'decision';
  return chance && typeof t === 'string' ? `${k} (chance)` : k;
}

/** Time `games` seeded random games of `scenario` by decision kind (after `warmup` untimed games). */
export function phaseBench(
  game: AnyGame,
  scenario: unknown,
  games: number,
  seed = 'phases',
  warmup = 3,
): { games: number; plies: number; rows: PhaseRow[] } {
  const ms = new Map<string, number>();
  const plies = new Map<string, number>();
  const rng = seedrandom.alea(seed);
  let total = 0;
  for (let g = -warmup; g < games; g++) {
    let s = game.initialState(scenario);
    for (let n = 0; n < 100_000; n++) {
      const tm = game.toMove(s);
      if (tm.kind === 'terminal') break;
      const chance = tm.kind === 'chance';
      const k = kindOf(s, chance);
      const t0 = performance.now();
      let a: unknown;
      if (chance) a = sampleOutcome(game.chanceOutcomes(s), rng()).action;
      else {
        const l = game.legalActions(s);
        a = l[Math.floor(rng() * l.length)];
      }
      s = game.applyUnchecked(s, a);
      if (g < 0) continue;
      ms.set(k, (ms.get(k) ?? 0) + performance.now() - t0);
      plies.set(k, (plies.get(k) ?? 0) + 1);
      total++;
    }
  }
  const all = [...ms.values()].reduce((a, b) => a + b, 0) || 1;
  const rows = [...ms.entries()]
    .map(([kind, t]) => ({
      kind,
      plies: plies.get(kind)!,
      ms: t,
      share: t / all,
      usPerPly: (1000 * t) / plies.get(kind)!,
    }))
    .sort((a, b) => b.ms - a.ms);
  return { games, plies: total, rows };
}

export function printPhaseBench(
  r: ReturnType<typeof phaseBench>,
  ruleset: string,
  scenario: string,
  log: (line: string) => void = console.log,
): void {
  log(`where the plies go: ${ruleset} / ${scenario}, ${r.games} seeded random games, ${r.plies} plies (one core)`);
  const w = Math.max(8, ...r.rows.map((x) => x.kind.length));
  log(`${'decision'.padEnd(w)}  ${'share'.padStart(6)}  ${'plies'.padStart(8)}  ${'µs a ply'.padStart(9)}`);
  for (const x of r.rows)
    log(
      `${x.kind.padEnd(w)}  ${`${(100 * x.share).toFixed(1)}%`.padStart(6)}  ${String(x.plies).padStart(8)}  ${x.usPerPly.toFixed(1).padStart(9)}`,
    );
}
