import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../core/game.ts';
import { loseSteps, pushRoutChecksFor } from './casualties.ts';
import { retreatGroup, retreatInto } from './retreat-flow.ts';
import { traceCommand } from './command.ts';
import { legalActions, settle, step, top, victoryPoints } from './rules.ts';
import { act, loadScenario, position } from '../../../test/eote-fixtures.ts';
import type { EState, Frame, PhaseFrame, Segment } from './types.ts';
import { commandInput, spOf } from './world.ts';

const sc = loadScenario();
/** The rulebook's 5-5 example [16.7]: a long counter on every step, so the losses alone drive the split. */
const sc55 = loadScenario((j) => {
  j.sides[1].formations[1].forces[0].units[0].steps = ['A5-5', 'B4-5', 'C3-5', 'D2-5', 'E1-5'];
});
const u = (s: EState, id: string) => s.units.find((x) => x.id === id)!;

/** The Russian Action Phase with the 1st Corps (R-1inf in 17, East Slope, facing west) active, everyone in command. */
const russian = (seg: Segment, scenario = sc) => position(scenario, 1, seg, ['r-1']);
/** Extend R-1inf and face every marker west. */
function extended(to: number[], scenario = sc): EState {
  let s = act(russian('move', scenario), { k: 'extend', u: 'R-1inf', to });
  while (top(s)?.t === 'face') s = act(s, { k: 'face', u: (top(s) as Extract<Frame, { t: 'face' }>).u, conf: 'W' });
  return s;
}

describe('Extended lines [16.0–16.9] (A-32)', () => {
  it('offers extensions into side-adjacent areas the marker can enter and fit, 1/2 or a pair of 1/3 [16.0, 16.8]', () => {
    const s = russian('move');
    // 17's side neighbours are 11 (the Great Redoubt, full: R-gren is its one long counter), 16 (town: room for a
    // second LC), 18 (circle2) and 23 (woods, 2 MP). A double extension pays both entries: 16+18 (1+1) fits the 2 MP,
    // pairs with the woods do not
    expect(legalActions(s).filter((a) => a.k === 'extend')).toEqual([
      { k: 'extend', u: 'R-1inf', to: [16] },
      { k: 'extend', u: 'R-1inf', to: [18] },
      { k: 'extend', u: 'R-1inf', to: [23] },
      { k: 'extend', u: 'R-1inf', to: [16, 18] },
    ]);
    expect(legalActions(s).some((a) => a.k === 'extend' && a.u !== 'R-1inf')).toBe(false); // only units with markers
  });

  it('splits the strength as the book does: 1/2 of 5 → 2 + 3 (RB-16); two 1/3 of 5 → 1, 1 + 3 (RB-19)', () => {
    const log: GameEvent[] = [];
    let s = act(russian('move'), { k: 'extend', u: 'R-1inf', to: [23] }, log);
    expect(log.map((e) => e.rule)).toEqual(['16.0']);
    expect(top(s)).toEqual({ t: 'face', p: 1, u: 'R-1inf~h' }); // the marker takes a conformation [13.9]
    expect([spOf(u(s, 'R-1inf')), spOf(u(s, 'R-1inf~h'))]).toEqual([3, 2]);
    expect(u(s, 'R-1inf~h').area).toBe(23);
    // the whole unit paid to enter the woods: 2 MP from the shared budget, so nothing else moves
    expect([u(s, 'R-1inf').mp, u(s, 'R-1inf~h').mp]).toEqual([2, 2]);
    s = extended([16, 18]);
    expect([spOf(u(s, 'R-1inf')), spOf(u(s, 'R-1inf~t1')), spOf(u(s, 'R-1inf~t2'))]).toEqual([3, 1, 1]);
    expect([u(s, 'R-1inf~t1').area, u(s, 'R-1inf~t2').area]).toEqual([16, 18]);
    // stacking counts each part's share: the town holds R-3inf, R-jag and now the marker
    expect(
      s.units
        .filter((x) => x.area === 16)
        .map((x) => x.id)
        .sort(),
    ).toEqual(['R-1inf~t1', 'R-3inf', 'R-jag']);
    // the markers carry the LC's morale [16.2]
    expect(u(s, 'R-1inf~t1').steps[u(s, 'R-1inf~t1').step]!.morale).toBe(4);
  });

  it("takes losses off the long counter's total and re-splits: 5-5 with a 1/2 → 3 losses → 1 + 1 (RB-17); 4 → marker gone (RB-18)", () => {
    let s = extended([23], sc55);
    const log: GameEvent[] = [];
    s = settle(loseSteps(s, 'R-1inf~h', 3, log, '14.3'), log);
    expect(u(s, 'R-1inf').step).toBe(3);
    expect([spOf(u(s, 'R-1inf')), spOf(u(s, 'R-1inf~h'))]).toEqual([1, 1]);
    expect(u(s, 'R-1inf').lost).toBe(3);
    expect(u(s, 'R-1inf~h').lost).toBe(0); // victory counts the LC's steps once
    expect(log[0]!.rule).toBe('16.7');
    s = settle(loseSteps(s, 'R-1inf', 1, log, '14.3'), log);
    expect(u(s, 'R-1inf~h').area).toBeNull();
    expect(spOf(u(s, 'R-1inf'))).toBe(1);
    expect(u(s, 'R-1inf').xsp).toBeNull();
    expect(log.at(-1)).toMatchObject({ rule: '16.7' });
    expect(victoryPoints(s)[0]).toBe(4 * sc.victory.vp.step);
  });

  it('a line whose long counter becomes a short counter or is eliminated retracts (ruling)', () => {
    let s = extended([16, 18]); // R-1inf A5-4 B4-4 C3-3 d2-3: the third loss makes it a short counter
    const log: GameEvent[] = [];
    s = settle(loseSteps(s, 'R-1inf~t2', 2, log, '12.2'), log);
    expect([spOf(u(s, 'R-1inf')), spOf(u(s, 'R-1inf~t1')), spOf(u(s, 'R-1inf~t2'))]).toEqual([1, 1, 1]); // total 3
    s = settle(loseSteps(s, 'R-1inf~t1', 1, log, '12.2'), log);
    expect(s.units.filter((x) => x.ext !== null && x.area !== null)).toEqual([]);
    expect(spOf(u(s, 'R-1inf'))).toBe(2);
    expect(log.at(-1)!.text).toMatch(/short counter/);
  });

  it('displaces lone enemy leaders from the area a marker enters [3.13]', () => {
    const s = act(position(sc, 1, 'move', ['r-1'], { colmar: [23, null] }), { k: 'extend', u: 'R-1inf', to: [23] });
    expect(s.stack.some((f) => f.t === 'displace' && f.l === 'colmar')).toBe(true);
  });

  it('keeps the parts side-adjacent as they move, one MP budget for all (A-32) [16.3]', () => {
    let s = extended([16]);
    expect(u(s, 'R-1inf').mp).toBe(1);
    s = act(s, { k: 'mvUnit', u: 'R-1inf~h' });
    // from the town every neighbour but 17 leaves the LC behind, and 17 holds the LC itself: no area to enter
    expect(legalActions(s).filter((a) => a.k === 'to')).toEqual([]);
    expect(legalActions(s)).toContainEqual({ k: 'stop' });
    s = act(s, { k: 'stop' });
    // the LC may not step into 18 or 23 (neither is side-adjacent to the town), but may cross the 17/22 point: the
    // line pivots to 16–22 and the shared budget is spent for both parts
    s = act(s, { k: 'mvUnit', u: 'R-1inf' });
    expect(legalActions(s).filter((a) => a.k === 'to')).toEqual([{ k: 'to', area: 22, mode: 'normal' }]);
    s = act(s, { k: 'to', area: 22, mode: 'normal' });
    expect([u(s, 'R-1inf').area, u(s, 'R-1inf').mp, u(s, 'R-1inf~h').area, u(s, 'R-1inf~h').mp]).toEqual([
      22, 2, 16, 2,
    ]);
  });

  it("retracts into the LC's area or into the marker's, paying the entry as if the whole unit moved [16.0]", () => {
    let s = extended([18]); // 1 MP spent, 1 left
    expect(legalActions(s).filter((a) => a.k === 'retract')).toEqual([
      { k: 'retract', u: 'R-1inf', into: 17 },
      { k: 'retract', u: 'R-1inf', into: 18 },
    ]);
    const log: GameEvent[] = [];
    const back = act(s, { k: 'retract', u: 'R-1inf', into: 17 }, log);
    expect(u(back, 'R-1inf~h').area).toBeNull();
    expect([u(back, 'R-1inf').area, spOf(u(back, 'R-1inf')), u(back, 'R-1inf').mp, u(back, 'R-1inf').xsp]).toEqual([
      17,
      5,
      2,
      null,
    ]);
    expect(log.map((e) => e.rule)).toEqual(['16.0']);
    const into = act(s, { k: 'retract', u: 'R-1inf', into: 18 });
    expect([u(into, 'R-1inf').area, u(into, 'R-1inf').conf, spOf(u(into, 'R-1inf'))]).toEqual([18, 'W', 5]);
    // out of the town the line would climb the East Slope back into 17: 2 MP, more than the 1 left
    s = extended([16]);
    expect(legalActions(s).filter((a) => a.k === 'retract')).toEqual([{ k: 'retract', u: 'R-1inf', into: 16 }]);
    expect(() => step(s, { k: 'retract', u: 'R-1inf', into: 17 }, undefined)).toThrow(/cannot retract.*16\.0/);
  });

  it('forbids square, reverse slope and massed column to every part [16.9]', () => {
    const s = extended([23]);
    const acts = legalActions(s);
    expect(acts.some((a) => a.k === 'reverseSlope' && (a.u === 'R-1inf' || a.u === 'R-1inf~h'))).toBe(false);
    expect(acts.some((a) => a.k === 'square' && a.area === 23)).toBe(false);
    // unextended, the East Slope long counter could take up reverse slope (the scenario allows it to the Russians)
    expect(legalActions(russian('move')).some((a) => a.k === 'reverseSlope' && a.u === 'R-1inf')).toBe(true);
  });

  it('lets at most one artillery unit attach to a marker [16.6]', () => {
    let s = extended([16, 18]);
    s = { ...s, stack: [{ ...(s.stack[0] as PhaseFrame), seg: 'assign' }] };
    const attach = legalActions(s).filter((a) => a.k === 'attach' && a.lc === 'R-1inf~t2');
    expect(attach.length).toBeGreaterThan(1); // R-1pos and the corps guns in 18 could each
    s = act(s, attach[0]!);
    expect(legalActions(s).some((a) => a.k === 'attach' && a.lc === 'R-1inf~t2')).toBe(false);
  });

  it('puts the whole line out of command when any part is [16.5]', () => {
    const s = extended([23]);
    const inp = commandInput(s, 1);
    expect(traceCommand(inp).has('R-1inf')).toBe(true);
    // the marker far from every commander: all parts out
    const far = { ...inp, unitArea: (id: string) => (id === 'R-1inf~h' ? 1 : inp.unitArea(id)) };
    const cmd = traceCommand(far);
    expect(cmd.has('R-1inf~h') || cmd.has('R-1inf')).toBe(false);
  });

  it('retreats a marker on its own: adjacent to its LC, or into the LC, which removes it [16.4]', () => {
    const s = extended([23]);
    const frames: Frame[] = [];
    retreatGroup(s, 1, 23, [u(s, 'R-1inf~h')], false, frames, undefined);
    const f = frames[0] as Extract<Frame, { t: 'retreatTo' }>;
    expect(f.units).toEqual(['R-1inf~h']);
    // retreats may go diagonally: 16 and 18 keep the line joined (side-adjacent to 17), 22 and 24 would not; 17 is
    // the LC's own area, always open [16.4]
    expect(f.options).toEqual([16, 17, 18]);
    const log: GameEvent[] = [];
    const r = settle(retreatInto({ ...s, stack: [...s.stack, f] }, f, 17, log), log);
    expect(u(r, 'R-1inf~h').area).toBeNull();
    expect(spOf(u(r, 'R-1inf'))).toBe(5);
    expect(log.map((e) => e.rule)).toEqual(['20.0', '16.4']);
  });

  it('lets a marker assault on its own; its losses come off the LC and a beaten marker falls back into it [14.1, 16.7, 16.4]', () => {
    // the 1/2 marker in the Eichwald (23), facing west, assaults French infantry in the Ferry Field (22)
    let s = act(position(sc, 1, 'move', ['r-1'], { 'F-2div': [22, 'E'] }), { k: 'extend', u: 'R-1inf', to: [23] });
    s = act(s, { k: 'face', u: 'R-1inf~h', conf: 'W' });
    s = { ...s, stack: [{ ...(s.stack[0] as PhaseFrame), seg: 'assault' }] };
    expect(legalActions(s)).toContainEqual({ k: 'assault', target: 22 });
    s = act(s, { k: 'assault', target: 22 });
    expect(legalActions(s)).toContainEqual({ k: 'join', u: 'R-1inf~h' });
    s = act(act(s, { k: 'join', u: 'R-1inf~h' }), { k: 'resolve' });
    const log: GameEvent[] = [];
    s = act(act(s, { k: 'c-hits', n: 0 }), { k: 'c-hits', n: 3 }, log); // the marker misses; the defenders hit three times
    s = act(act(s, { k: 'stand' }, log), { k: 'c-pass', ok: false }, log); // and it fails its stand
    expect(top(s)).toMatchObject({ t: 'retreatTo', units: ['R-1inf~h'] });
    s = act(s, { k: 'goTo', area: 17 }, log);
    // three hits, one less for the failed stand's retreat [14.4]: both come off the LC's total [16.7] (A5 → C3)
    expect(u(s, 'R-1inf').step).toBe(2);
    expect([u(s, 'R-1inf~h').area, u(s, 'R-1inf').xsp, spOf(u(s, 'R-1inf'))]).toEqual([null, null, 3]);
    expect(log.map((e) => e.rule)).toEqual(expect.arrayContaining(['16.7', '20.0', '16.4']));
  });

  it("counts a marker's losses toward its long counter's rout check [19.0, 16.7]", () => {
    let s = extended([23], { ...sc, rules: { ...sc.rules, rout: true } });
    s = loseSteps(s, 'R-1inf~h', 3, undefined, '14.3'); // 3 of 5 steps this segment: more than half
    s = pushRoutChecksFor(s, [u(s, 'R-1inf~h')], [22]);
    expect(top(s)).toMatchObject({ t: 'routCheck', u: 'R-1inf' });
  });

  it('a routed long counter takes its markers back (ruling)', () => {
    let s = extended([23]);
    const log: GameEvent[] = [];
    s = settle({ ...s, units: s.units.map((x) => (x.id === 'R-1inf' ? { ...x, routed: true } : x)) }, log);
    expect(u(s, 'R-1inf~h').area).toBeNull();
    expect(log.map((e) => e.rule)).toEqual(['19.1']);
  });
});
