import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../arena/catalog.ts';
import { HumanAgent, LineSource } from './human.ts';

/** The menu a person sees at the first decision of a game, and the action chosen by typing `pick`. */
async function menu(rulesetId: string, pick: string): Promise<{ lines: string[]; chosen: string }> {
  const { game, scenario } = loadScenario(rulesetId);
  const state = game.initialState(scenario);
  const input = new PassThrough();
  const lines: string[] = [];
  const agent = new HumanAgent(new LineSource(input, new PassThrough()), (s) => lines.push(...s.split('\n')), false);
  input.end(`${pick}\n`);
  const toMove = game.toMove(state);
  if (toMove.kind !== 'player') throw new Error('the first decision is not a player');
  const { action } = await agent.decide({
    game,
    player: toMove.player,
    observation: null,
    legal: game.legalActions(state),
    state,
    budget: {},
    rng: () => 0,
  });
  return { lines: lines.filter((l) => /^ {2}[ \d]{3}\. /.test(l)), chosen: game.actionKey(action) };
}

describe('the human agent', () => {
  it('lines the descriptions up in one column when the keys differ in length (bid 9, bid 10)', async () => {
    const { lines, chosen } = await menu('napoleons-eagles', '11');
    expect(lines.length).toBeGreaterThan(10);
    expect(lines[0]).toMatch(/^ {4}1\. bid 0 +— /);
    const columns = new Set(lines.map((l) => l.indexOf(' — ')));
    expect(columns.size).toBe(1);
    expect(chosen).toBe('bid 10');
  });

  it('takes an action by its text as listed, whatever the case', async () => {
    const { chosen } = await menu('napoleons-eagles', 'BID 3');
    expect(chosen).toBe('bid 3');
  });
});
