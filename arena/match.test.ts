import { describe, expect, it } from 'vitest';
import { RandomAgent } from '../agents/random.ts';
import type { Agent } from '../agents/agent.ts';
import { decodeReplay, encodeReplay, verifyReplay, ReplayError } from '../engine/core/replay.ts';
import { loadScenario } from './catalog.ts';
import { keyedUniform } from './dice.ts';
import { runMatch } from './match.ts';

const { game, scenario } = loadScenario('march-of-eagles', 'farm-on-the-ridge');
const play = (seed: string, agents: Agent[] = [new RandomAgent(), new RandomAgent()], debugHash = false) =>
  runMatch({ game, scenario, scenarioId: 'farm-on-the-ridge', seed, agents, debugHash });

describe('match driver', () => {
  it('the same seed gives the same replay (every step and hash)', async () => {
    const a = await play('42', undefined, true);
    const b = await play('42');
    expect(a.replay.steps).toEqual(b.replay.steps);
    expect(a.replay.finalHash).toBe(b.replay.finalHash);
    expect(a.replay.result).not.toBeNull();
    const c = await play('43');
    expect(c.replay.steps).not.toEqual(a.replay.steps);
  });

  it('dice are keyed by (seed, event): a seat-swapped rematch sees the same first dice', async () => {
    expect(keyedUniform('9', 't1/c0')()).toBe(keyedUniform('9', 't1/c0')());
    expect(keyedUniform('9', 't1/c0')()).not.toBe(keyedUniform('9', 't1/c1')());
    const a = await play('9', [new RandomAgent('random'), new RandomAgent('random')]);
    const swapped = await play('9', [new RandomAgent('random-b'), new RandomAgent('random-a')]);
    expect(swapped.replay.steps[0]).toEqual(a.replay.steps[0]); // turn 1 initiative roll
  });

  it('a replay round-trips through msgpack and verifies every hash', async () => {
    const r = await play('7');
    const back = decodeReplay(encodeReplay(r.replay));
    expect(back).toEqual(r.replay);
    expect(verifyReplay(game, back)).toMatchObject({ ok: true, steps: r.replay.steps.length });
  });

  it('a tampered or corrupt replay is caught with the step named', async () => {
    const r = await play('7');
    const bad = structuredClone(r.replay);
    bad.steps[10]!.h = '0000000000000000';
    expect(verifyReplay(game, bad)).toMatchObject({ ok: false, at: 10 });
    expect(verifyReplay(game, bad).message).toMatch(/step 11/);
    const bytes = encodeReplay(r.replay);
    expect(() => decodeReplay(bytes.slice(0, bytes.length >> 1))).toThrow(ReplayError);
    expect(() => decodeReplay(new TextEncoder().encode('hello'))).toThrow(/not a/);
  });

  it('an agent that throws or answers illegally forfeits; the record so far is kept', async () => {
    const crash: Agent = {
      spec: 'crash',
      decide: async () => {
        throw new Error('boom');
      },
    };
    const r = await play('5', [crash, new RandomAgent()]);
    expect(r.forfeit).toBe(0);
    expect(r.returns).toEqual([-1, 1]);
    expect(r.aborted).toMatch(/boom/);
    expect(r.replay.result).toBeNull();
    const liar: Agent = { spec: 'liar', decide: async () => ({ action: { k: 'pass', u: 'NOPE' } }) };
    const r2 = await play('5', [new RandomAgent(), liar]);
    expect(r2.forfeit).toBe(1);
    expect(r2.aborted).toMatch(/illegal action "pass NOPE"/);
    expect(r2.replay.steps.length).toBeGreaterThan(0);
  });
});

describe('match timings', () => {
  it('reports engine time and every agent call per player', async () => {
    const r = await play('12');
    expect(r.engineMs).toBeGreaterThan(0);
    expect(r.callMs[0]!.length + r.callMs[1]!.length).toBe(r.decisions);
    expect(r.callMs[0]!.reduce((a, b) => a + b, 0)).toBeCloseTo(r.agentMs[0]!, 6);
  });
});

describe("an engine dead end is the engine's fault, not a forfeit", () => {
  // the first decision of a real game, with its legal list emptied: what a dead end in a ruleset looks like
  const broken = {
    ...game,
    legalActions: (s: unknown) => (game.toMove(s).kind === 'player' ? [] : game.legalActions(s)),
  };
  it('the driver stops with an engine error naming the ruleset, the decision and the state hash; nobody forfeits', async () => {
    const r = await runMatch({
      game: broken,
      scenario,
      scenarioId: 'farm-on-the-ridge',
      seed: '1',
      agents: [new RandomAgent(), new RandomAgent()],
    });
    expect(r.forfeit).toBeUndefined();
    expect(r.replay.result).toBeNull();
    expect(r.aborted).toMatch(
      /^engine error: no legal action in a non-terminal state \(ruleset march-of-eagles, decision: .+, state [0-9a-f]{16}\)$/,
    );
    expect(r.returns).toEqual([0, 0]);
  });
  it('a tournament keeps it as an error with no result, not a draw or a loss', async () => {
    const { toRecord } = await import('./tournament.ts');
    const r = await runMatch({
      game: broken,
      scenario,
      scenarioId: 'farm-on-the-ridge',
      seed: '1',
      agents: [new RandomAgent(), new RandomAgent()],
    });
    const { replay, finalState: _f, ...rest } = r;
    const rec = toRecord(
      { id: 'g1', ruleset: game.id, scenario: 'farm-on-the-ridge', seed: '1', agents: ['random', 'random'] },
      { ...rest, id: 'g1', finalHash: replay.finalHash, replay: new Uint8Array() },
    );
    expect(rec.returns).toBeUndefined();
    expect(rec.error).toMatch(/^engine error/);
    expect(rec.forfeit).toBeUndefined();
  });
});
