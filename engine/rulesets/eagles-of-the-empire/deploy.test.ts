import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../core/game.ts';
import { loseSteps } from './casualties.ts';
import { deployedSteps } from './deploy.ts';
import { initialState, legalActions, settle, top, victoryPoints } from './rules.ts';
import { act, checkScenario, map, position } from '../../../test/eote-fixtures.ts';
import type { EState, PhaseFrame } from './types.ts';
import { spOf } from './world.ts';

/** Hohenwald with an invented alternate deployment: R-1inf (A5-4 B4-4 C3-3 d2-3 e1-2) may detach its Jäger (a1-4). */
function scenario(opts: { atStart?: boolean; patch?: (j: any) => void } = {}) {
  return checkScenario((j) => {
    j.sides[1].formations[1].forces[0].units.push({
      id: 'R-1jag',
      name: '1st Division Jäger',
      kind: 'infantry',
      counter: 'short',
      steps: ['a1-4'],
    });
    j.sides[1].deployments = [{ id: 'r1-jager', parent: 'R-1inf', units: ['R-1jag'], atStart: !!opts.atStart }];
    opts.patch?.(j);
  });
}
function load(opts: Parameters<typeof scenario>[0] = {}) {
  const v = scenario(opts);
  if (!v.ok) throw new Error(JSON.stringify(v.problems));
  return v.value;
}
const u = (s: EState, id: string) => s.units.find((x) => x.id === id)!;

/** The Russian Assignment Segment with the 1st Corps active and everyone in command. */
const assign = (sc = load(), moves: Record<string, [number | null, string | null]> = {}) =>
  position(sc, 1, 'assign', ['r-1'], moves);

describe('Alternate deployments [11.3–11.33]', () => {
  it("deploys in the Assignment Segment: the alternate appears in the parent's area and the parent gives up its steps [11.31]", () => {
    let s = assign();
    expect(u(s, 'R-1jag').area).toBeNull(); // held off the map until deployed
    expect(legalActions(s)).toContainEqual({ k: 'deploy', id: 'r1-jager' });
    const vp = victoryPoints(s);
    const log: GameEvent[] = [];
    s = act(s, { k: 'deploy', id: 'r1-jager' }, log);
    expect(log.map((e) => e.rule)).toEqual(['11.31']);
    expect(u(s, 'R-1jag').area).toBe(17);
    expect([u(s, 'R-1inf').step, spOf(u(s, 'R-1inf'))]).toEqual([1, 4]);
    expect(victoryPoints(s)).toEqual(vp); // giving steps to the alternates loses nothing
    expect(deployedSteps(s, 'R-1inf')).toBe(1); // and recovery [15.2] does not restore them
    // one change per unit per segment: no re-absorbing in the same segment
    const same = { ...s, stack: [{ ...(s.stack[0] as PhaseFrame), seg: 'assign' as const, done: ['R-1inf'] }] };
    expect(legalActions(same).some((a) => a.k === 'reabsorb')).toBe(false);
    expect(legalActions({ ...same, stack: [{ ...(same.stack[0] as PhaseFrame), done: [] }] })).toContainEqual({
      k: 'reabsorb',
      id: 'r1-jager',
    });
  });

  it("re-absorbs the alternates that share the parent's area, regaining the steps they still hold [11.32]", () => {
    let s = act(assign(), { k: 'deploy', id: 'r1-jager' });
    s = { ...s, stack: [{ ...(s.stack[0] as PhaseFrame), seg: 'assign', done: [] }] }; // a later Assignment Segment
    expect(legalActions(s)).toContainEqual({ k: 'reabsorb', id: 'r1-jager' });
    // apart, no re-absorbing
    const apart = { ...s, units: s.units.map((x) => (x.id === 'R-1jag' ? { ...x, area: 18 } : x)) };
    expect(legalActions(apart).some((a) => a.k === 'reabsorb')).toBe(false);
    const log: GameEvent[] = [];
    const r = act(s, { k: 'reabsorb', id: 'r1-jager' }, log);
    expect(log.map((e) => e.rule)).toEqual(['11.32']);
    expect(u(r, 'R-1jag').area).toBeNull();
    expect(u(r, 'R-1inf').step).toBe(0);
    // an alternate that lost steps gives back only what it holds; an eliminated one spends the option
    const hit = settle(loseSteps(s, 'R-1jag', 1, undefined, '12.2'), undefined);
    expect(u(hit, 'R-1jag').eliminated).toBe(true);
    expect(legalActions(hit).some((a) => a.k === 'reabsorb' || a.k === 'deploy')).toBe(false);
    expect(victoryPoints(hit)[0]).toBe(victoryPoints(s)[0] + hit.ctx.scenario.victory.vp.step);
  });

  it('neither deploys nor re-absorbs next to enemy units or out of command [11.33]', () => {
    expect(legalActions(assign(load(), { 'F-1div': [23, 'N'] })).some((a) => a.k === 'deploy')).toBe(false);
    const s = assign();
    const out = {
      ...s,
      stack: [
        { ...(s.stack[0] as PhaseFrame), inCmd: (s.stack[0] as PhaseFrame).inCmd.filter((id) => id !== 'R-1inf') },
      ],
    };
    expect(legalActions(out).some((a) => a.k === 'deploy')).toBe(false);
  });

  it('deploys at set-up when the scenario says so [11.31]', () => {
    const s = initialState(load({ atStart: true }), map);
    expect(u(s, 'R-1jag').area).toBe(17);
    expect(u(s, 'R-1inf').step).toBe(1);
    expect(top(s)).toBeUndefined();
  });

  it('refuses deployments the scenario cannot make, naming the problem', () => {
    const placed = scenario({ patch: (j) => j.setup[1].find((p: any) => p.area === 17).units.push('R-1jag') });
    expect(placed.ok).toBe(false);
    if (!placed.ok) expect(placed.problems.map((p) => p.message).join()).toMatch(/must not be set up.*11\.31/);
    const tooBig = scenario({
      patch: (j) =>
        (j.sides[1].formations[1].forces[0].units.at(-1).steps = ['A5-4', 'B4-4', 'C3-3', 'd2-3', 'e1-2'].map((x) =>
          x.toLowerCase(),
        )),
    });
    expect(tooBig.ok).toBe(false);
    if (!tooBig.ok) expect(tooBig.problems.map((p) => p.message).join()).toMatch(/cannot give up 5/);
    const unknown = scenario({ patch: (j) => (j.sides[1].deployments[0].parent = 'R-nobody') });
    expect(unknown.ok).toBe(false);
  });
});
