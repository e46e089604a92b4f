import { describe, expect, it } from 'vitest';
import { loadScenario, loadScenarioFile } from '../arena/catalog.ts';
import { verifyReplay } from '../engine/core/replay.ts';
import { hashHex } from '../engine/core/hash.ts';
import { RULESETS } from '../engine/rulesets/index.ts';
import { createAgent } from '../agents/registry.ts';
import { runMatch } from '../arena/match.ts';
import { Table, type TableSpec } from './session.ts';

function open(ruleset: string, spec: Partial<TableSpec> = {}, scenario?: string) {
  const { file, id } = loadScenario(ruleset, scenario);
  const { game, json } = loadScenarioFile(file, ruleset);
  const full: TableSpec = {
    ruleset,
    scenarioId: id,
    seed: 'web-test',
    seats: game.players.map(() => 'human'),
    mode: 'play',
    ...spec,
  };
  return new Table(game, json, full);
}

/** Play the first offer (or the given keys) for the viewer until the game ends. */
function playOut(t: Table, pick: (keys: readonly string[], ply: number) => string) {
  for (let guard = 0; guard < 5000; guard++) {
    t.advance();
    const tm = t.toMove();
    if (tm.kind !== 'player') return;
    const keys = t.view(tm.player).offers.map((o) => o.key);
    t.applyKey(pick(keys, t.ply), tm.player);
  }
  throw new Error('the game did not end');
}

describe('a game at the web table', () => {
  it('a finished game downloads as a replay that verifies, and its log restores the same position', () => {
    const t = open('tic-tac-toe');
    playOut(t, (keys, ply) => keys[ply % keys.length]!);
    expect(t.toMove().kind).toBe('over');
    const r = t.replay();
    expect(verifyReplay(t.game, r)).toMatchObject({ ok: true, steps: t.ply });
    expect(r.result?.text).toBe(t.game.resultText(t.current));
    const back = Table.restore(t.game, t.scenario, t.spec, t.log());
    expect(hashHex(back.game.hash(back.current))).toBe(hashHex(t.game.hash(t.current)));
  });

  it('dice are drawn from the seed as the match driver draws them: a match replayed at the table gets the same dice', async () => {
    const { game, scenario, id } = loadScenario('march-of-eagles', 'open-field');
    const m = await runMatch({
      game,
      scenario,
      scenarioId: id,
      seed: 'web-dice',
      agents: [createAgent('random'), createAgent('random')],
      maxPlies: 300,
    }).catch((e) => e);
    const steps = (m.replay ?? m).steps as { a: string; p: number }[];
    expect(steps.filter((x) => x.p < 0).length).toBeGreaterThan(20);
    const t = open('march-of-eagles', { seed: 'web-dice' }, 'open-field');
    for (const st of steps) {
      t.advance();
      if (st.p < 0) continue; // the table draws the dice itself
      const tm = t.toMove();
      if (tm.kind !== 'player') break;
      if (t.keys().length > steps.indexOf(st)) continue; // a forced move the table already played
      t.applyKey(st.a, st.p);
    }
    t.advance();
    expect(t.keys().slice(0, steps.length)).toEqual(steps.map((x) => x.a).slice(0, t.keys().length));
    expect(t.keys().length).toBeGreaterThanOrEqual(steps.length - 1);
  });

  it('take-back returns to the viewer’s last decision; think again takes back only the computer’s', () => {
    const t = open('tic-tac-toe', { seats: ['human', 'random'] });
    t.advance();
    t.applyKey('c4', 0);
    t.applyKey('c0', 1); // the computer's answer, as the server records it
    t.advance();
    expect(t.view(0).canTakeBack).toBe(2);
    t.rethink();
    expect(t.keys()).toEqual(['c4']);
    expect(t.computerToMove()).toBe(1);
    t.applyKey('c8', 1);
    t.applyKey('c2', 0);
    expect(t.takeBack(0)).toBe(1);
    expect(t.keys()).toEqual(['c4', 'c8']);
    expect(t.takeBack(0)).toBe(2);
    expect(t.keys()).toEqual([]);
    expect(() => t.takeBack(0)).toThrow(/no decision of yours/);
  });

  it('refuses an illegal action and a move out of turn, naming them, and records nothing', () => {
    const t = open('tic-tac-toe');
    t.advance();
    expect(() => t.applyKey('c9', 0)).toThrow(/"c9" is not a legal action here/);
    expect(() => t.applyKey('c1', 1)).toThrow(/it is X's turn, not O/);
    expect(t.ply).toBe(0);
    const restored = (() => {
      try {
        return Table.restore(t.game, t.scenario, t.spec, [
          { key: 'c1', player: 0 },
          { key: 'c1', player: 1 },
        ]);
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(restored).toMatch(/step 2 of the saved game \("c1"\) no longer replays/);
  });

  it('a sealed bid: the other side’s view is the same whatever was bid, until the reveal', () => {
    const views = [1, 4].map((bid) => {
      const t = open('goofspiel', { seats: ['human', 'human'], seed: 'same' });
      t.advance();
      const tm = t.toMove();
      if (tm.kind !== 'player') throw new Error('no bid');
      const first = tm.player;
      t.applyKey(`bid ${bid}`, first);
      t.advance();
      const other = 1 - first;
      return { v: JSON.stringify(t.view(other)), mine: JSON.stringify(t.view(first)) };
    });
    expect(views[0]!.v).toBe(views[1]!.v);
    expect(views[0]!.mine).not.toBe(views[1]!.mine);
  });

  it('in assistant mode the table stops at every roll and offers its outcomes; the person’s answer is recorded', () => {
    const t = open('march-of-eagles', { mode: 'assist' });
    t.advance();
    expect(t.toMove().kind).toBe('chance');
    const v = t.view(0);
    expect(v.roll?.outcomes.length).toBeGreaterThan(1);
    expect(v.roll!.outcomes.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 9);
    const pick = v.roll!.outcomes[1]!;
    t.applyKey(pick.key, -1, undefined, [5]);
    expect(t.log()[0]).toEqual({ key: pick.key, player: -1, faces: [5] });
    expect(t.view(0).log[0]!.text).toContain('(5)');
  });

  it('every registered ruleset gives a view with its text picture, and the five Eagles rulesets a drawing', () => {
    for (const id of Object.keys(RULESETS)) {
      const t = open(id);
      t.advance();
      const v = t.view(0);
      expect(v.text.length).toBeGreaterThan(0);
      expect(JSON.parse(JSON.stringify(v)).ruleset).toBe(id);
      if (
        [
          'march-of-eagles',
          'eagles-of-the-empire',
          'age-of-eagles',
          'napoleons-eagles',
          'charge-eagles-rising',
        ].includes(id)
      )
        expect(v.picture?.kind, id).toMatch(/table|map/);
    }
  });
});
