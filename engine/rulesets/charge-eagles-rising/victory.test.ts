/**
 * The end of the turn (victory.ts): per-phase flags cleared, knocked-out leaders back when due, SUPPRESSED removed
 * (C11), "limbered at the start of the turn" recorded; the C14 defeat checks (an Army broken, half the MEs broken or
 * removed, both sides: a draw) and, after the last turn, the VP (full 5% steps of enemy losses, objectives held) and
 * the result.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IN } from '../../geometry/geometry.ts';
import type { GameEvent } from '../../core/game.ts';
import { cer } from './rules.ts';
import { initialState, parseScenario } from './scenario.ts';
import type { S } from './state.ts';
import { elementOf, unitOf, updCommand, updUnit } from './state.ts';
import { NO_PHASE_FLAGS } from './types.ts';
import { beginEnd, elementsDefeated, lossVp, objectiveHolder, victoryPoints } from './victory.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'scenarios', 'charge-eagles-rising');
const json = (id: string) => JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8'));
const chapel = (opts?: Record<string, unknown>): S =>
  initialState(parseScenario(json('the-chapel-crossroads')), opts) as S;
const at = (s: S, id: string, x: number, y: number) => updUnit(s, id, { pos: { x: x * IN, y: y * IN } });
const chapelObjective = (s: S) => s.ctx.objectives[0]!;

describe('the end of the turn: bookkeeping', () => {
  it('clears the per-phase flags, ends suppression (C11), records limbered batteries, brings back a knocked-out leader', () => {
    let s = chapel();
    s = updUnit(s, 'F1a', { phase: { ...NO_PHASE_FLAGS, moved: true, fired: true, cacCount: 2 } });
    s = updUnit(s, 'B1d', { suppressed: true });
    s = updUnit(s, 'F1d', { formation: 'limbered' });
    s = { ...s, elements: s.elements.map((e) => ({ ...e, activatedThisPhase: true, strategicMoveThisTurn: true })) };
    s = {
      ...s,
      turn: 3,
      leaders: s.leaders.map((l) =>
        l.id === 'B1-L'
          ? { ...l, status: 'knockedOut' as const, backAfterTurn: 3 }
          : l.id === 'B2-L'
            ? { ...l, status: 'knockedOut' as const, backAfterTurn: 4 }
            : l,
      ),
    };
    const log: GameEvent[] = [];
    const t = beginEnd(s, log);
    expect(unitOf(t, 'F1a').phase).toEqual(NO_PHASE_FLAGS);
    const d = unitOf(t, 'B1d');
    expect(d.kind === 'artillery' && d.suppressed).toBe(false);
    const f = unitOf(t, 'F1d');
    expect(f.kind === 'artillery' && f.limberedAtTurnStart).toBe(true);
    const b = unitOf(t, 'B1d');
    expect(b.kind === 'artillery' && b.limberedAtTurnStart).toBe(false);
    expect(t.elements.every((e) => !e.activatedThisPhase && !e.strategicMoveThisTurn)).toBe(true);
    expect(t.leaders.find((l) => l.id === 'B1-L')!.status).toBe('active');
    expect(t.leaders.find((l) => l.id === 'B2-L')!.status).toBe('knockedOut');
    expect(t.result).toBeNull();
    expect(log.some((e) => e.rule === 'Markers')).toBe(true);
  });

  it('through the turn sequence: after T3 the end, then the next turn', () => {
    const log: GameEvent[] = [];
    // the stack empty in T3: idle runs the end (no result on turn 1 of 8), then S1 of turn 2 (its sealed orders)
    const s = cer.settle({ ...chapel(), phase: 'T3', stack: [] }, log);
    expect(s.turn).toBe(2);
    expect(s.phase).toBe('S1');
    expect(s.result).toBeNull();
  });
});

describe('C14 defeat', () => {
  it('half the MEs (by starting count) broken or removed: defeated at the end of the turn', () => {
    let s = chapel();
    expect(elementsDefeated(s, 1)).toBe(false);
    s = updCommand(s, 'B2', { broken: true });
    s = updUnit(s, 'B2a', { status: 'broken' });
    expect(elementsDefeated(s, 1)).toBe(true);
    const t = beginEnd(s, undefined);
    expect(t.result).toMatchObject({ winner: 0 });
    // with `elementDefeatFraction` 2/3 one ME of two is not enough
    let u = chapel({ elementDefeatFraction: '2/3' });
    u = updUnit(updCommand(u, 'B2', { broken: true }), 'B2a', { status: 'broken' });
    expect(elementsDefeated(u, 1)).toBe(false);
  });

  it('an ME whose every unit is gone counts as removed; one still off the table does not', () => {
    let s = chapel();
    s = updUnit(s, 'F2a', { status: 'broken' });
    expect(elementsDefeated(s, 0)).toBe(false);
    s = updUnit(s, 'F2b', { status: 'broken' });
    expect(elementsDefeated(s, 0)).toBe(true);
    expect(elementOf(s, 'F2').broken).toBe(false);
  });

  it('both sides at once: a draw', () => {
    let s = chapel();
    s = updUnit(updUnit(s, 'F2a', { status: 'broken' }), 'F2b', { status: 'broken' });
    s = updUnit(s, 'B2a', { status: 'broken' });
    const t = beginEnd(s, undefined);
    expect(t.result).toMatchObject({ winner: -1 });
  });

  it('an Army broken (S3) is a defeat', () => {
    const s = chapel();
    const t = beginEnd({ ...s, armies: [{ ...s.armies[0], broken: true }, s.armies[1]] }, undefined);
    expect(t.result).toMatchObject({ winner: 1 });
  });
});

describe('C14 victory points', () => {
  it('+1 per full 5% of the enemy starting strength lost (figures + guns × 3), in whole steps', () => {
    let s = chapel();
    expect(victoryPoints(s)[0]).toBe(0);
    // the British start at 94: 4 figures = 4.26% → 0; 5 = 5.32% → 1; a gun counts 3
    s = updUnit(s, 'B1a', { figures: 20 });
    expect(lossVp(s, 0)).toBe(0);
    s = updUnit(s, 'B1a', { figures: 19 });
    expect(lossVp(s, 0)).toBe(1);
    s = updUnit(s, 'B1d', { guns: 4 });
    // 5 + 6 = 11 of 94 = 11.7% → 2
    expect(lossVp(s, 0)).toBe(2);
    // exactly 10%: the French lose 11 of 110 → 2
    const f = updUnit(chapel(), 'F1a', { figures: 13 });
    expect(lossVp(f, 1)).toBe(2);
    expect(lossVp(updUnit(f, 'F1a', { figures: 14 }), 1)).toBe(1);
    // `lossVpStep` 10: per full 10%
    expect(lossVp(updUnit(chapel({ lossVpStep: 10 }), 'F1a', { figures: 13 }), 1)).toBe(1);
  });

  it('an objective held: a formed unit in or within 3", no enemy within 3"', () => {
    let s = chapel();
    // B1c garrisons the hamlet: British
    expect(objectiveHolder(s, chapelObjective(s))).toBe(1);
    expect(victoryPoints(s)).toEqual([0, 3]);
    // a French column 2" south of the hamlet contests it
    s = at(s, 'F1a', 24, 24.5);
    expect(objectiveHolder(s, chapelObjective(s))).toBeNull();
    // the garrison gone, the French column holds it
    s = updUnit(s, 'B1c', { status: 'broken' });
    expect(objectiveHolder(s, chapelObjective(s))).toBe(0);
    // a skirmish screen is not formed: it holds nothing (but it does contest)
    const sk = updUnit(updUnit(s, 'F1a', { pos: { x: 2 * IN, y: 2 * IN } }), 'F1c', {
      pos: { x: 24 * IN, y: 26 * IN },
    });
    expect(objectiveHolder(sk, chapelObjective(sk))).toBeNull();
  });

  it('after the last turn: the VP decide (C14); equal VP a draw', () => {
    const log: GameEvent[] = [];
    let s = { ...chapel(), turn: 8 };
    // the British hold the hamlet (3) and the French lost 11 of 110 (2); the British lost nothing
    s = updUnit(s, 'F1a', { figures: 13 });
    const t = beginEnd(s, log);
    expect(t.result).toMatchObject({ winner: 1, vp: [0, 5] });
    expect(log.some((e) => e.rule === 'C14')).toBe(true);
    // turn 7 of 8: no result yet
    expect(beginEnd({ ...s, turn: 7 }, undefined).result).toBeNull();
    // the French take 5 VP worth of British losses (25% of 94 = 24 lost): 5 - 5
    let d = updUnit(updUnit(s, 'B1a', { figures: 0, status: 'broken' }), 'B2a', { status: 'broken' });
    d = updCommand(d, 'B2', { broken: false });
    // B1a 24 + B2a 12 = 36 of 94 = 38.3% → 7; … make it exactly 5: B1a 24 lost only (25.5%)
    d = updUnit(d, 'B2a', { status: 'active' });
    expect(victoryPoints(d)).toEqual([5, 5]);
    expect(beginEnd(d, undefined).result).toMatchObject({ winner: -1, vp: [5, 5] });
  });
});
