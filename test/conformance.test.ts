/**
 * One conformance suite over every registered ruleset × shipped scenario: a new ruleset gets all of it by registering
 * (engine/rulesets/index.ts) and shipping a scenario. Random games run through the validating `apply` on deep-frozen
 * states, and at every step the `Game` contract is checked:
 * - a decision node offers at least one action, with unique keys;
 * - a chance node lists outcomes with p > 0 summing to 1, with unique keys, and names each event with a chance key
 *   used once in the game (keyed and paired dice depend on it);
 * - the cached hash equals the hash of a fresh copy of the state (sampled);
 * - every event cites its rule in the ruleset's citation pattern;
 * - the game ends within a ply cap (a failure, never a hang);
 * and a game played by the match driver round-trips through the replay format and the replay verifier.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { RandomAgent } from '../agents/random.ts';
import { loadScenario, scenarioIds } from '../arena/catalog.ts';
import { sampleOutcome } from '../arena/dice.ts';
import { runMatch } from '../arena/match.ts';
import { type AnyGame, type Game, type GameEvent, deepFreeze } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import { decodeReplay, encodeReplay, verifyReplay } from '../engine/core/replay.ts';
import { RULESETS } from '../engine/rulesets/index.ts';

const GAMES = 3;
const PLY_CAP = 20_000;

/** Play one random game checking the contract at every step; returns a list of violations (empty = conforming). */
function conformingGame(game: AnyGame, scenario: unknown, seed: string): { problems: string[]; plies: number } {
  const u = seedrandom.alea(seed);
  const problems: string[] = [];
  const note = (ply: number, m: string) => problems.length < 10 && problems.push(`ply ${ply}: ${m}`);
  const keysUsed = new Set<string>();
  let s = deepFreeze(game.initialState(scenario));
  let ply = 0;
  for (; ply < PLY_CAP; ply++) {
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') break;
    let a: unknown;
    if (tm.kind === 'chance') {
      const outs = game.chanceOutcomes(s);
      const keys = outs.map((o) => game.actionKey(o.action));
      if (!outs.length) note(ply, 'a chance node with no outcome');
      if (new Set(keys).size !== keys.length) note(ply, `duplicate chance outcome keys: ${keys.join(' | ')}`);
      if (outs.some((o) => !(o.p > 0))) note(ply, `an outcome with p ≤ 0: ${outs.map((o) => `${game.actionKey(o.action)}=${o.p}`).join(' ')}`);
      const sum = outs.reduce((t, o) => t + o.p, 0);
      if (Math.abs(sum - 1) > 1e-9) note(ply, `chance probabilities sum to ${sum}`);
      const ck = game.chanceKey(s);
      if (keysUsed.has(ck)) note(ply, `chance key "${ck}" used twice in one game`);
      keysUsed.add(ck);
      a = sampleOutcome(outs, u()).action;
    } else {
      const legal = game.legalActions(s);
      const keys = legal.map((x) => game.actionKey(x));
      if (!legal.length) {
        note(ply, 'no legal action in a non-terminal state');
        break;
      }
      if (new Set(keys).size !== keys.length) note(ply, `duplicate action keys: ${keys.join(' | ')}`);
      a = legal[Math.floor(u() * legal.length)];
    }
    const events: GameEvent[] = [];
    s = deepFreeze(game.apply(s, a, events)); // the validating apply, on a frozen input: a mutation throws
    for (const e of events) if (game.citation && !game.citation.test(e.rule)) note(ply, `event cites "${e.rule}", not a rule of ${game.id}: ${e.text}`);
    if (ply % 25 === 0 && hashHex(game.hash(s)) !== hashHex(game.hash(structuredClone(s)))) note(ply, 'the cached hash differs from a fresh copy\'s');
  }
  if (ply >= PLY_CAP) note(ply, `the game did not end within ${PLY_CAP} plies`);
  return { problems, plies: ply };
}

describe('every registered ruleset declares what the suite needs', () => {
  for (const game of Object.values(RULESETS))
    it(`${game.id}: a citation pattern and at least one shipped scenario`, () => {
      expect(game.citation, `${game.id} has no Game.citation`).toBeInstanceOf(RegExp);
      expect(scenarioIds(game.id).length).toBeGreaterThan(0);
    });
});

for (const game of Object.values(RULESETS))
  describe(`conformance: ${game.id}`, () => {
    for (const id of scenarioIds(game.id)) {
      it(`${id}: ${GAMES} random games keep the Game contract at every step`, () => {
        const { scenario } = loadScenario(game.id, id);
        for (let g = 0; g < GAMES; g++) {
          const r = conformingGame(game, scenario, `conformance/${game.id}/${id}/${g}`);
          expect(r.problems, `game ${g}`).toEqual([]);
        }
      });
      it(`${id}: a driven game round-trips through the replay format and verifies`, async () => {
        const { scenario } = loadScenario(game.id, id);
        const m = await runMatch({ game, scenario, scenarioId: id, seed: `conformance/${id}`, agents: [new RandomAgent(), new RandomAgent()] });
        expect(m.aborted).toBeUndefined();
        const back = decodeReplay(encodeReplay(m.replay));
        expect(back).toEqual(m.replay);
        const v = verifyReplay(game, back);
        expect(v.message).toMatch(/steps verified/);
        expect(v.ok).toBe(true);
      });
    }
  });
