/**
 * Nothing leaks a sealed choice. Two games of Goofspiel differ only in A's sealed bid for the first prize; everything
 * B receives up to the reveal must be byte-identical: its observations, the keys and events it hears, the hashes it
 * gets, its search's choice and explanation, an external bot's protocol messages, a person's terminal, `--log`,
 * `--explain` and `replay show --as B`. Each check also runs a control that must differ (the omniscient record), so a
 * check that compared nothing could not pass.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import type { Agent, DecisionContext, StepView } from '../agents/agent.ts';
import { DEFAULT_MCTS, MctsAgent } from '../agents/mcts.ts';
import { createAgent } from '../agents/registry.ts';
import { playChecked } from '../arena/conformance.ts';
import { runMatch } from '../arena/match.ts';
import type { Game } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import { observationHash } from '../engine/core/views.ts';
import { type GsState, goofspiel as game } from '../engine/reference/goofspiel.ts';

const ROOT = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'eagles-redaction-'));
const scenario = { id: 'three-descending', cards: 3, order: 'descending' as const };
const BIDS = ['bid 1', 'bid 3'];

/** Plays `bid` first, then the first legal action. */
function fixed(bid: string): Agent {
  let first = true;
  return {
    spec: `fixed:${bid}`,
    async decide(ctx: DecisionContext) {
      const keys = ctx.legal.map((a) => ctx.game.actionKey(a));
      const i = first ? keys.indexOf(bid) : 0;
      first = false;
      return { action: ctx.legal[i], explanation: { chosen: keys[i]!, text: `I bid ${keys[i]}` } };
    },
  };
}

/** Records everything a seat receives, as JSON lines. */
class Recorder implements Agent {
  readonly spec = 'recorder';
  readonly wantsEvents = true;
  readonly lines: string[] = [];
  async decide(ctx: DecisionContext) {
    this.lines.push(
      JSON.stringify({
        observation: ctx.observation,
        legal: ctx.legal.map((a) => ctx.game.actionKey(a)),
        state: ctx.state,
        stateHash: hashHex(ctx.game.hash(ctx.state)),
        observationHash: hashHex(observationHash(ctx.game, ctx.state, ctx.player)),
        budget: ctx.budget,
      }),
    );
    return { action: ctx.legal[0] };
  }
  observe(ev: StepView) {
    this.lines.push(JSON.stringify(ev));
  }
}

/** The lines before the first one that mentions the reveal. */
const untilReveal = (lines: readonly string[]) => {
  const i = lines.findIndex((l) => /reveal/.test(l));
  expect(i).toBeGreaterThan(0);
  return lines.slice(0, i).join('\n');
};

function eagles(args: string[], input?: string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bin/eagles.ts'), ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

describe('a sealed bid reaches nobody before the reveal', () => {
  it('the other seat receives byte-identical observations, states, keys, events and hashes', async () => {
    const seen: string[] = [];
    const truth: string[] = [];
    for (const bid of BIDS) {
      const b = new Recorder();
      const res = await runMatch({ game, scenario, scenarioId: 't', seed: 's', agents: [fixed(bid), b] });
      expect(res.replay.steps[0]!.a).toBe(bid);
      seen.push(untilReveal(b.lines));
      truth.push(`${res.replay.steps[0]!.a} ${res.replay.steps[0]!.h}`);
      expect(b.lines[0]).toMatch(/A bids for the prize 3 \(sealed\)/);
    }
    expect(seen[1]).toBe(seen[0]);
    expect(truth[1]).not.toBe(truth[0]); // the control: the omniscient record tells the bids apart
  });

  it('a seat still sees its own sealed choice', async () => {
    const a = new Recorder();
    await runMatch({ game, scenario, scenarioId: 't', seed: 's', agents: [a, fixed('bid 2')] });
    expect(JSON.parse(a.lines[1]!)).toMatchObject({ player: 0, action: 'bid 1' });
    expect(a.lines[1]).toMatch(/A bids 1 for the prize 3 \(sealed\)/);
  });

  it('an external bot (protocol 2) receives byte-identical messages', async () => {
    const logs: string[] = [];
    for (const bid of BIDS) {
      const file = join(tmp, `bot-${bid.replace(' ', '')}.jsonl`);
      const res = await runMatch({
        game,
        scenario,
        scenarioId: 't',
        seed: 's',
        agents: [fixed(bid), createAgent(`ext:cmd=node test/bots/log-bot.cjs ${file},sandbox=limits`)],
      });
      expect(res.aborted).toBeUndefined();
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'hello', protocol: 2 });
      logs.push(untilReveal(lines));
      // after the reveal the bot learns the bid, from the event's text
      expect(lines.find((l) => /reveal/.test(l))).toMatch(new RegExp(`A ${bid.slice(4)}, B`));
    }
    expect(logs[1]).toBe(logs[0]);
    expect(logs[0]).toMatch(/"type":"decide"/);
  });

  it("the search's choice, visits and explanation at the hidden node do not depend on the bid; its value is near the game's 0", async () => {
    const out: string[] = [];
    for (const bid of ['bid 1', 'bid 2', 'bid 3']) {
      const s = game.apply(game.initialState(scenario), bid);
      const agent = new MctsAgent('mcts', { ...DEFAULT_MCTS, iterations: 3000, c: 1, leaf: 'random', depth: Infinity });
      const rng = seedrandom.alea('decide');
      const d = await agent.decide({
        game,
        player: 1,
        observation: game.observe(s, 1),
        legal: game.legalActions(s),
        state: game.sampleState(s, 1, rng),
        budget: {},
        rng,
      });
      const { text: _time, ...ex } = d.explanation!;
      out.push(JSON.stringify(ex));
      expect(ex.winProbability!).toBeGreaterThan(0.4);
      expect(ex.winProbability!).toBeLessThan(0.6);
    }
    expect(out[1]).toBe(out[0]);
    expect(out[2]).toBe(out[0]);
  });

  it('a search that could see the bid would find it: the control', async () => {
    // the same search on a game that declares nothing hidden plays the perfect-information game, where the second
    // bidder always wins or draws: its value is far from the sealed game's
    const open: Game<GsState, string> = { ...game, viewAction: undefined, hidden: undefined, sealedRound: undefined };
    const s = game.apply(game.initialState(scenario), 'bid 2');
    const agent = new MctsAgent('mcts', { ...DEFAULT_MCTS, iterations: 3000, c: 1, leaf: 'random', depth: Infinity });
    const rng = seedrandom.alea('decide');
    const d = await agent.decide({
      game: open,
      player: 1,
      observation: s,
      legal: game.legalActions(s),
      state: s,
      budget: {},
      rng,
    });
    expect(d.explanation!.winProbability!).toBeGreaterThan(0.8);
  });

  it('the conformance checker refuses a ruleset whose observation leaks the sealed bid', () => {
    const leaky: Game<GsState, string> = { ...game, observe: (s) => s };
    const play = (g: Game<GsState, string>) =>
      playChecked(g, scenario, seedrandom.alea('c'), {
        seats: ['random', 'random'],
        maxPlies: 100,
        freeze: true,
        optionsEvery: 1,
        optionsCap: 8,
      });
    expect(play(game).plies).toBe(6);
    expect(() => play(leaky)).toThrow(/does not look the same/);
  });

  it("a person's terminal, --log and --explain, and `replay show --as B`, are byte-identical until the reveal", async () => {
    // in-process, find two seeds where the searching first bidder bids differently (the CLI plays the same game)
    const firstBid = async (seed: string) =>
      (await runMatch({ game, scenario, scenarioId: 't', seed, agents: [createAgent('mcts:it=60'), fixed('bid 1')] }))
        .replay.steps[0]!.a;
    const a = '1';
    let b = '2';
    while ((await firstBid(b)) === (await firstBid(a))) b = String(Number(b) + 1);
    const terminal: string[] = [];
    const shows: string[] = [];
    const all: string[] = [];
    for (const seed of [a, b]) {
      const file = join(tmp, `r${seed}.msgpack`);
      const out = eagles(
        [
          'play',
          '-r',
          'goofspiel',
          '-s',
          'three-descending',
          '--p1',
          'mcts:it=60',
          '--human',
          'B',
          '--seed',
          seed,
        ].concat(['--log', '--explain', '--replay', file]),
        '1\n1\n1\n',
      );
      terminal.push(untilReveal(out.split('\n')));
      expect(out).toMatch(/B to act/);
      expect(out).toMatch(/explanations held back until now/);
      shows.push(untilReveal(eagles(['replay', 'show', file, '--as', 'B', '--log']).split('\n').slice(3)));
      all.push(eagles(['replay', 'show', file, '--log']).split('\n').slice(3).join('\n'));
    }
    expect(terminal[1]).toBe(terminal[0]);
    expect(terminal[0]).toMatch(/A: A bids for the prize 3 \(sealed\)/);
    expect(shows[1]).toBe(shows[0]);
    expect(all[1]).not.toBe(all[0]); // the omniscient show tells the games apart
  });
});

describe('a card dealt face down reaches nobody', () => {
  it("the search's choice and explanation do not depend on the opponent's card, and it plays the equilibrium's sure moves", async () => {
    const { kuhnPoker } = await import('../engine/reference/kuhn.ts');
    const s0 = kuhnPoker.initialState({ id: 'standard' });
    const decide = async (deal: string, then: string[], player: number) => {
      let s = kuhnPoker.apply(s0, deal);
      for (const a of then) s = kuhnPoker.apply(s, a);
      const agent = new MctsAgent('mcts', { ...DEFAULT_MCTS, iterations: 4000, c: 1, leaf: 'random', depth: Infinity });
      const rng = seedrandom.alea('kuhn');
      const d = await agent.decide({
        game: kuhnPoker,
        player,
        observation: kuhnPoker.observe(s, player),
        legal: kuhnPoker.legalActions(s),
        state: kuhnPoker.sampleState(s, player, rng),
        budget: {},
        rng,
      });
      const { text: _time, ...ex } = d.explanation!;
      return ex;
    };
    // A holds the Queen: its decision is the same whether B holds the Jack or the King
    const a1 = await decide('deal Q J', [], 0);
    expect(JSON.stringify(await decide('deal Q K', [], 0))).toBe(JSON.stringify(a1));
    // B facing a bet: calls with the King, folds the Jack, whatever A holds
    const bK = await decide('deal Q K', ['bet'], 1);
    expect(bK.chosen).toBe('call');
    expect(JSON.stringify(await decide('deal J K', ['bet'], 1))).toBe(JSON.stringify(bK));
    expect((await decide('deal Q J', ['bet'], 1)).chosen).toBe('fold');
  });
});
