import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import type { AnyGame } from '../engine/core/game.ts';
import { ticTacToe, type TttState } from '../engine/reference/tictactoe.ts';
import { diceChoice, hiddenGuess, twinDice } from '../test/reference/toys.ts';
import type { DecisionContext } from './agent.ts';
import { DEFAULT_MCTS, MctsAgent, MctsSearch, type MctsConfig } from './mcts.ts';
import { createAgent, expertConfig } from './registry.ts';

function ctx(game: AnyGame, state: unknown, seed: string, budget = { iterations: 2000 }): DecisionContext {
  const tm = game.toMove(state);
  const player = tm.kind === 'player' ? tm.player : 0;
  return {
    game,
    player,
    observation: game.observe(state, player),
    legal: game.legalActions(state),
    state,
    budget,
    rng: seedrandom.alea(seed),
  };
}
const cfg = (o: Partial<MctsConfig> = {}): MctsConfig => ({
  ...DEFAULT_MCTS,
  leaf: 'random',
  depth: Infinity,
  widenK: 0,
  ...o,
});
const ttt = (cells: string): TttState => {
  const c = [...cells].map((x) => (x === 'X' ? 1 : x === 'O' ? 2 : 0));
  const xs = c.filter((x) => x === 1).length;
  const os = c.filter((x) => x === 2).length;
  return { cells: c, toMove: xs > os ? 1 : 0, winner: null };
};

describe('mcts on known positions', () => {
  it('takes an immediate win (tic-tac-toe)', async () => {
    // X X .
    // O O .
    // . . .   X to move: c2 wins
    const d = await new MctsAgent('mcts', cfg()).decide(ctx(ticTacToe, ttt('XX.OO....'), 's1'));
    expect(ticTacToe.actionKey(d.action)).toBe('c2');
    expect(d.explanation!.winProbability!).toBeGreaterThan(0.9);
  });
  it('blocks the only threat', async () => {
    // O O .
    // X . .
    // . . .   X to move must block at c2
    const d = await new MctsAgent('mcts', cfg()).decide(ctx(ticTacToe, ttt('OO.X.....'), 's2'));
    expect(ticTacToe.actionKey(d.action)).toBe('c2');
  });
  it('prefers the higher-expectation action at a dice node and reports the odds', async () => {
    const d = await new MctsAgent('mcts', cfg()).decide(
      ctx(diceChoice, diceChoice.initialState({ id: 'standard' }), 's3', { iterations: 600 }),
    );
    expect(d.action).toBe('safe');
    // once all six outcomes are expanded the chance node's value is the exact expectation: 4/6·1 + 2/6·(−1) = 1/3
    expect(d.explanation!.winProbability!).toBeCloseTo((1 / 3 + 1) / 2, 6);
    expect(d.explanation!.text).toMatch(/odds: D6 = \d 17%/);
  });
  it('never reads the opponent’s hidden choice: identical search whatever the coin', async () => {
    for (const sh of [0, 2]) {
      const run = async (coin: 'L' | 'R') =>
        new MctsAgent('mcts', cfg({ sh })).decide(
          ctx(hiddenGuess, { coin, guess: '' }, 'same-seed', { iterations: 500 }),
        );
      const a = await run('L');
      const b = await run('R');
      expect(a.action).toBe(b.action);
      expect(a.explanation!.alternatives).toEqual(b.explanation!.alternatives);
      expect(a.explanation!.winProbability!).toBeGreaterThan(0.3);
      expect(a.explanation!.winProbability!).toBeLessThan(0.7);
    }
  });
  it('is deterministic for a seed and an iteration budget, and respects budgets', async () => {
    const s = ttt('X...O....');
    const a = await new MctsAgent('mcts', cfg()).decide(ctx(ticTacToe, s, 'd', { iterations: 300 }));
    const b = await new MctsAgent('mcts', cfg()).decide(ctx(ticTacToe, s, 'd', { iterations: 300 }));
    expect(a.explanation!.chosen).toBe(b.explanation!.chosen);
    expect(a.explanation!.winProbability).toBe(b.explanation!.winProbability);
    expect(a.stats!.iterations).toBe(300);
    expect(a.explanation!.alternatives).toEqual(b.explanation!.alternatives);
    const t0 = performance.now();
    const c = await new MctsAgent('mcts', cfg({ early: false })).decide(
      ctx(ticTacToe, ttt('.........'), 't', { ms: 150 } as never),
    );
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(c.stats!.ms).toBeGreaterThanOrEqual(150);
  });
  it('with a time budget, stops once the leading action cannot be overtaken, and only then', async () => {
    // X X . / O O . / . . .: c2 wins at once and soon leads by more visits than the time left can overturn
    const s = ttt('XX.OO....');
    const early = await new MctsAgent('mcts', cfg({ early: true })).decide(
      ctx(ticTacToe, s, 'e', { ms: 1500 } as never),
    );
    expect(early.explanation!.chosen).toBe('c2');
    expect(early.stats!.ms).toBeLessThan(1500);
    expect(early.explanation!.text).toMatch(/settled early/);
    const alts = early.explanation!.alternatives!;
    const remaining = (early.stats!.iterationsPerSecond! * (1500 - early.stats!.ms!)) / 1000;
    expect((alts[0]!.visits ?? 0) - (alts[1]?.visits ?? 0)).toBeGreaterThan(remaining); // the lead was decisive
    const full = await new MctsAgent('mcts', cfg({ early: false })).decide(
      ctx(ticTacToe, s, 'e', { ms: 300 } as never),
    );
    expect(full.stats!.ms).toBeGreaterThanOrEqual(300);
    expect(full.explanation!.text).not.toMatch(/settled early/);
  });
  it('with paired dice, compares root actions on the same luck', () => {
    // "a" and "b" are the same move: a large c alternates them, so after an even number of iterations each has had
    // the same number of visits, and with paired dice those visits rolled the same dice
    const stats = (paired: boolean) => {
      const search = new MctsSearch(twinDice, cfg({ c: 100, paired }), seedrandom.alea('twins'));
      const { root } = search.search(twinDice.initialState({ id: 'standard' }), { iterations: 400 });
      const a = root.children.get('a')!;
      const b = root.children.get('b')!;
      return { a: [a.n, a.w], b: [b.n, b.w] };
    };
    const paired = stats(true);
    expect(paired.a[0]).toBe(200);
    expect(paired.a).toEqual(paired.b);
    const unpaired = stats(false);
    expect(unpaired.a[0]).toBe(200);
    expect(unpaired.a[1]).not.toBeCloseTo(unpaired.b[1]!, 6);
  });
  it('with sequential halving at the root, halves the candidates round by round and keeps the best', async () => {
    // X X . / O O . / . . .: five moves, so three rounds (5 → 3 → 2 → 1) of a third of the 700 iterations each
    const s = ttt('XX.OO....');
    const run = () => new MctsAgent('mcts', cfg({ sh: 8 })).decide(ctx(ticTacToe, s, 'h', { iterations: 700 }));
    const d = await run();
    expect(d.explanation!.chosen).toBe('c2');
    expect(d.stats!.iterations).toBe(700);
    expect(d.explanation!.text).toMatch(/sequential halving over 5 moves/);
    const search = new MctsSearch(ticTacToe, cfg({ sh: 8 }), seedrandom.alea('h'));
    const { root, choice } = search.search(s, { iterations: 700 });
    expect(choice).toBe('c2');
    const visits = [...root.children.values()].map((c) => c.n).sort((a, b) => a - b);
    // round one: 47 turns of 5 (235); round two: 77 turns of 3 (to 466); round three: 117 turns of 2 (to 700)
    expect(visits).toEqual([47, 47, 124, 241, 241]);
    const again = await run(); // deterministic for a seed and an iteration budget
    expect([again.explanation!.chosen, again.explanation!.winProbability, again.explanation!.alternatives]).toEqual([
      d.explanation!.chosen,
      d.explanation!.winProbability,
      d.explanation!.alternatives,
    ]);
    const timed = await new MctsAgent('mcts', cfg({ sh: 4 })).decide(
      ctx(ticTacToe, ttt('.........'), 't', { ms: 200 } as never),
    );
    expect(timed.stats!.ms).toBeGreaterThanOrEqual(200);
    expect(timed.stats!.ms).toBeLessThan(1000);
  });
  it('sequential halving compares the candidates on paired dice', () => {
    const search = new MctsSearch(twinDice, cfg({ sh: 2, paired: true }), seedrandom.alea('twins'));
    const { root } = search.search(twinDice.initialState({ id: 'standard' }), { iterations: 400 });
    const a = root.children.get('a')!;
    const b = root.children.get('b')!;
    expect(a.n).toBe(200);
    expect([a.n, a.w]).toEqual([b.n, b.w]);
  });
  it('with quiet=N, evaluates a truncated rollout at the next quiet position, at most N plies past the depth', () => {
    // twin dice rolls three dice after the pick; call a position quiet once two dice are down and record where the
    // evaluation was asked for: depth 1 stops after one die, quiet=5 plays on to the second, quiet=5 with nothing ever
    // quiet stops 5 plies on or at the end, and a ruleset without `quiet` is evaluated at the depth
    const evaluatedAt = (quiet: number, isQuiet?: (s: { dice: number[] }) => boolean) => {
      const seen = new Set<number>();
      const game = {
        ...twinDice,
        evaluate: (s: { dice: number[] }) => (seen.add(s.dice.length), 0),
        ...(isQuiet ? { quiet: isQuiet } : {}),
      };
      new MctsSearch(game, cfg({ leaf: 'heuristic', depth: 1, quiet }), seedrandom.alea('q')).search(
        game.initialState({ id: 'standard' }),
        { iterations: 2 },
      ); // one leaf per pick, each right after it
      return [...seen];
    };
    expect(evaluatedAt(0, (s) => s.dice.length >= 2)).toEqual([1]);
    expect(evaluatedAt(5, (s) => s.dice.length >= 2)).toEqual([2]);
    expect(evaluatedAt(1, () => false)).toEqual([2]);
    expect(evaluatedAt(5, () => false)).toEqual([]); // the third die ends the game first: no evaluation at all
    expect(evaluatedAt(5)).toEqual([1]);
  });
  it('values cut rollouts with a given leaf value instead of the ruleset evaluation when one is given', () => {
    // twin dice: with depth 1 every rollout is cut after one die; the ruleset's evaluation says 0, the leaf value 0.6
    const asked: number[] = [];
    const game = { ...twinDice, evaluate: () => 0 };
    const leaf = (s: unknown) => (asked.push((s as { dice: number[] }).dice.length), 0.6);
    const withLeaf = new MctsSearch(game, cfg({ leaf: 'heuristic', depth: 1, quiet: 0 }), seedrandom.alea('lv'), leaf);
    const { root } = withLeaf.search(game.initialState({ id: 'standard' }), { iterations: 2 }); // one leaf per pick
    expect(asked.length).toBe(2);
    expect(asked.every((n) => n === 1)).toBe(true);
    const sign = root.player === 0 ? 1 : -1;
    for (const k of root.children.keys()) expect(withLeaf.childValue(root, k)).toBeCloseTo(sign * 0.6, 9);
    const plain = new MctsSearch(game, cfg({ leaf: 'heuristic', depth: 1, quiet: 0 }), seedrandom.alea('lv'));
    const r2 = plain.search(game.initialState({ id: 'standard' }), { iterations: 2 }).root;
    for (const k of r2.children.keys()) expect(plain.childValue(r2, k)).toBe(0);
  });
  it('mixes a second judge of the leaf into each rollout result when given one (AlphaGo-style)', () => {
    // twin dice, depth 1: the evaluation at the cut says 0.2 and the mixed judge, asked at the tree leaf (the position
    // right after the pick, no die down yet), says -0.6; with weight 0.25 every leaf is worth 0.25·-0.6 + 0.75·0.2 = 0
    const asked: number[] = [];
    const game = { ...twinDice, evaluate: () => 0.2 };
    const value = (s: unknown) => (asked.push((s as { dice: number[] }).dice.length), -0.6);
    const mixed = (weight: number) => {
      const search = new MctsSearch(
        game,
        cfg({ leaf: 'heuristic', depth: 1, quiet: 0 }),
        seedrandom.alea('mix'),
        undefined,
        { value, weight },
      );
      const { root } = search.search(game.initialState({ id: 'standard' }), { iterations: 2 });
      const sign = root.player === 0 ? 1 : -1;
      return [...root.children.keys()].map((k) => sign * search.childValue(root, k));
    };
    for (const v of mixed(0.25)) expect(v).toBeCloseTo(0, 9);
    expect(asked).toEqual([0, 0]);
    for (const v of mixed(1)) expect(v).toBeCloseTo(-0.6, 9);
    for (const v of mixed(0)) expect(v).toBeCloseTo(0.2, 9);
    expect(() => mixed(1.5)).toThrow(/leaf mix weight 1.5 is not in \[0, 1\]/);
  });
  it('returns the only legal action without searching', async () => {
    const d = await new MctsAgent('mcts', cfg()).decide({ ...ctx(ticTacToe, ttt('XOXXOOOX.'), 'x'), legal: [8] });
    expect(d.action).toBe(8);
    expect(d.stats).toBeUndefined();
  });
  it('reuses its tree when the next position is in it', async () => {
    const agent = new MctsAgent('mcts', cfg());
    const s0 = ttt('.........');
    const d0 = await agent.decide(ctx(ticTacToe, s0, 'r', { iterations: 2000 }));
    const s1 = ticTacToe.applyUnchecked(ticTacToe.applyUnchecked(s0, d0.action), 4 === d0.action ? 0 : 4);
    const d1 = await agent.decide(ctx(ticTacToe, s1, 'r', { iterations: 100 }));
    expect(d1.stats!.reused).toBeGreaterThan(0);
  });
});

describe('agent specs', () => {
  it('parses and validates mcts parameters', () => {
    expect(createAgent('mcts:it=50,leaf=heuristic,c=0.7').spec).toBe('mcts:it=50,leaf=heuristic,c=0.7');
    expect(() => createAgent('mcts:leaf=magic')).toThrow(/leaf=magic must be random, heuristic or eval/);
    expect(() => createAgent('mcts:it=-1')).toThrow(/it=-1/);
    expect(() => createAgent('mcts:sh=1')).toThrow(/sh=1 must be 0 \(off\) or at least 2/);
    expect(createAgent('mcts:sh=4').spec).toBe('mcts:sh=4');
    expect(() => createAgent('mcts:quiet=-2')).toThrow(/quiet=-2/);
    expect(() => createAgent('mcts:quiet=1.5')).toThrow(/quiet=1.5/);
    for (const d of ['easy', 'normal', 'hard', 'expert']) expect(createAgent(d).spec).toBe(d);
  });

  it("gives expert its ruleset's rollout depth, and searches with it", async () => {
    // the rulesets whose plies are dear cut rollouts at 30 plies; the others keep the default search
    expect(expertConfig('napoleons-eagles')).toEqual({ ...DEFAULT_MCTS, depth: 30, ms: 1000 });
    expect(expertConfig('charge-eagles-rising')).toEqual({ ...DEFAULT_MCTS, depth: 30, ms: 1000 });
    expect(expertConfig('march-of-eagles')).toEqual({ ...DEFAULT_MCTS, ms: 1000 });
    // it searches for its second (the level's time budget), here on tic-tac-toe with the default settings
    const s0 = ticTacToe.initialState({ id: 'standard' });
    const d = await createAgent('expert').decide(ctx(ticTacToe, s0, 'e'));
    expect(ticTacToe.legalActions(s0)).toContain(d.action);
    expect(d.stats!.iterations).toBeGreaterThan(100);
    expect(d.explanation?.text).toMatch(/^\d+ iterations in \d+ ms/);
  });
});
