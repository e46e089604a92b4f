/**
 * Verifiable results. A replay is checked against itself by the engine (every step legal, every hash, the mover of
 * every step, the result and its text, the scenario's hash and options), and here against the match driver's dice:
 * every chance outcome must be the one the keyed dice draw from the match seed, so a replay with another seed, or
 * with a die changed, fails at its step. Against a run folder (`--run DIR`), it must also be the game that folder
 * recorded: its seed, seats and agents, result, text and final hash, its scenario, and on a ladder the seed's
 * commitment published before the game (commit-reveal dice: `ladder seeds`).
 */
import { createHash } from 'node:crypto';
import { parseSpec } from '../agents/agent.ts';
import { findAgent } from '../agents/registry.ts';
import type { AnyGame } from '../engine/core/game.ts';
import { hashHex, hashValue } from '../engine/core/hash.ts';
import { type Replay, type VerifyResult, verifyReplay } from '../engine/core/replay.ts';
import { loadScenario } from './catalog.ts';
import { keyedUniform, sampleOutcome } from './dice.ts';
import { Store } from './store.ts';

/** The commitment published for a match seed before its game: SHA-256 of the seed, in hex. */
export function commitment(seed: string): string {
  return createHash('sha256').update(seed, 'utf8').digest('hex');
}

const fail = (r: Replay, message: string, at?: number): VerifyResult => ({
  ok: false,
  steps: at ?? r.steps.length,
  message,
  ...(at !== undefined ? { at } : {}),
});

/** Seats played from outside the arena, recorded by name: the env-server's client (a learner, any language). */
const OUTSIDE_SEATS: ReadonlySet<string> = new Set(['env-client']);

/** Every agent spec names a known agent with known parameters (or an outside seat). */
function checkAgents(r: Replay): string | null {
  for (const [i, spec] of r.agents.entries()) {
    if (OUTSIDE_SEATS.has(spec)) continue;
    let name: string;
    let params: Record<string, string>;
    try {
      ({ name, params } = parseSpec(spec));
    } catch (e) {
      return `field agents[${i}]: ${(e as Error).message}`;
    }
    const f = findAgent(name);
    if (!f) return `field agents[${i}]: no agent "${name}"`;
    const bad = Object.keys(params).find((k) => !(k in f.params));
    if (bad) return `field agents[${i}]: agent "${name}" has no parameter "${bad}"`;
  }
  return null;
}

/** Re-derive every chance outcome from the seed, as the match driver drew it. */
function checkDice(game: AnyGame, r: Replay): VerifyResult | null {
  const v = game.validateScenario(r.scenario);
  if (!v.ok) return null; // reported by the engine's check
  let s = game.initialState(v.value, r.options);
  for (let i = 0; i < r.steps.length; i++) {
    const st = r.steps[i]!;
    if (st.c === 1) {
      const outs = game.chanceOutcomes(s);
      const drawn = game.actionKey(sampleOutcome(outs, keyedUniform(r.seed, game.chanceKey(s))()).action);
      if (drawn !== st.a)
        return fail(r, `step ${i + 1}: the dice of seed "${r.seed}" give "${drawn}", not the recorded "${st.a}"`, i);
    }
    const a = [...game.legalActions(s), ...game.chanceOutcomes(s).map((o) => o.action)].find(
      (x) => game.actionKey(x) === st.a,
    );
    if (a === undefined) return null;
    s = game.apply(s, a);
  }
  return null;
}

/** The recorded game of a run folder this replay claims to be, and every field it must agree with. */
function checkRun(r: Replay, dir: string): VerifyResult | null {
  const store = Store.open(dir, 'read');
  try {
    const tour = store.getMeta('tournament');
    const ladder = store.getMeta('ladder');
    const cfg = JSON.parse(tour ?? ladder ?? 'null') as { ruleset: string } | null;
    if (!cfg) return fail(r, `${dir} is neither a tournament nor a ladder`);
    if (cfg.ruleset !== r.ruleset) return fail(r, `field ruleset: ${dir} plays ${cfg.ruleset}, not ${r.ruleset}`);
    const specOf = new Map(store.bots().map((b) => [b.name, b.spec]));
    const specs = (seats: readonly string[]) => seats.map((x) => (ladder ? (specOf.get(x) ?? `?${x}`) : x));
    const sameSeed = store.games().filter((g) => g.seed === r.seed);
    if (!sameSeed.length) return fail(r, `field seed: ${dir} recorded no game with the seed "${r.seed}"`);
    const rec = sameSeed.find((g) => specs(g.seats).every((x, i) => x === r.agents[i]));
    if (!rec)
      return fail(
        r,
        `field agents: ${dir} recorded the seed "${r.seed}" for ${sameSeed.map((g) => specs(g.seats).join(' vs ')).join(' and ')}, not ${r.agents.join(' vs ')}`,
      );
    const sc = loadScenario(r.ruleset, rec.scenario);
    if (hashHex(hashValue(sc.scenario)) !== r.scenarioHash)
      return fail(r, `field scenario: game ${rec.id} was played on ${rec.scenario}, which this replay does not embed`);
    if (rec.finalHash !== undefined && rec.finalHash !== r.finalHash)
      return fail(
        r,
        `field finalHash: game ${rec.id} (${r.agents.join(' vs ')}, seed "${r.seed}") ended at ${rec.finalHash}, not ${r.finalHash}: its agents or steps were changed`,
      );
    if (rec.forfeit === undefined && rec.returns && r.result) {
      if (rec.returns.some((x, i) => x !== r.result!.returns[i]))
        return fail(r, `field result.returns: game ${rec.id} recorded ${rec.returns.join(',')}`);
      if (rec.text !== r.result.text) return fail(r, `field result.text: game ${rec.id} recorded "${rec.text}"`);
    }
    if (ladder) {
      const c = store.commitment(rec.id.replace(/-\d+$/, ''));
      if (!c) return fail(r, `field seed: no commitment was published for game ${rec.id}`);
      if (commitment(r.seed) !== c.commitment)
        return fail(r, `field seed: SHA-256 of the seed is not the commitment ${c.commitment} published for ${rec.id}`);
    }
    return null;
  } finally {
    store.close();
  }
}

/** All of the checks; the first failure names its step or field. */
export function verifyMatchReplay(game: AnyGame, r: Replay, runDir?: string): VerifyResult {
  const core = verifyReplay(game, r);
  if (!core.ok) return core;
  const agents = checkAgents(r);
  if (agents) return fail(r, agents);
  const dice = checkDice(game, r);
  if (dice) return dice;
  if (runDir) {
    const run = checkRun(r, runDir);
    if (run) return run;
  }
  const chance = r.steps.filter((s) => s.c === 1).length;
  return {
    ...core,
    message: `${core.message}; ${chance} chance outcomes drawn from the seed${runDir ? `; matches the game recorded in ${runDir}` : ''}`,
  };
}
