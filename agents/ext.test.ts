/** The external-bot protocol: reference bots play; every way of misbehaving forfeits with a clear reason. */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../arena/catalog.ts';
import { runMatch } from '../arena/match.ts';
import { RandomAgent } from './random.ts';
import { createAgent } from './registry.ts';

const { game, scenario } = loadScenario('march-of-eagles', 'farm-on-the-ridge');
const vsRandom = (spec: string) =>
  runMatch({
    game,
    scenario,
    scenarioId: 'farm-on-the-ridge',
    seed: '8',
    agents: [createAgent(spec), new RandomAgent()],
  });
const bad = (mode: string) => `ext:cmd=node test/bots/bad-bot.cjs ${mode}`;

describe('external bots (newline-delimited JSON over stdin/stdout)', () => {
  it('the Python reference bot (standard library only) plays a whole game', async () => {
    const r = await vsRandom('ext:cmd=python3 arena/bots/random_bot.py');
    expect(r.aborted).toBeUndefined();
    expect(r.replay.result).not.toBeNull();
  });
  it('the TypeScript reference bot plays a whole game', async () => {
    const r = await vsRandom('ext:cmd=node --import ./node_modules/tsx/dist/loader.mjs arena/bots/random-bot.ts');
    expect(r.aborted).toBeUndefined();
  });
  it('a bot that answers garbage, an illegal index, nothing, or exits forfeits with the reason', async () => {
    const garbage = await vsRandom(bad('garbage'));
    expect(garbage.forfeit).toBe(0);
    expect(garbage.aborted).toMatch(/bad message for decide 1/);
    const illegal = await vsRandom(bad('illegal'));
    expect(illegal.aborted).toMatch(/illegal action 999/);
    const silent = await vsRandom(`${bad('silent')},ms=300`);
    expect(silent.aborted).toMatch(/no answer to decide 1 within 300 ms \(timeout\)/);
    const dies = await vsRandom(bad('exit'));
    expect(dies.aborted).toMatch(/exited \(code 7\).*stderr: boom/);
    const noHello = await vsRandom('ext:cmd=true');
    expect(noHello.aborted).toMatch(/exited|no "ready"/);
  });
  it('needs a command', () => {
    expect(() => createAgent('ext')).toThrow(/ext needs cmd=/);
  });
});
