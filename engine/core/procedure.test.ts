/** The procedure runtime on a small game of frames: a duel where each side aims (a D6 check) or waits. */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { check } from './dice.ts';
import type { GameEvent } from './game.ts';
import { type Handlers, type ProcedureState, UnknownFrameError, procedure, push } from './procedure.ts';

type Frame =
  | { readonly t: 'turn'; readonly p: number }
  | { readonly t: 'shot'; readonly p: number; readonly need: number }
  | { readonly t: 'hit'; readonly p: number }
  | { readonly t: 'pass'; readonly p: number };
type Action = { readonly k: 'aim' } | { readonly k: 'wait' } | { readonly k: 'roll'; readonly pass: boolean };
interface Duel extends ProcedureState<Frame> {
  readonly hp: readonly [number, number];
  readonly round: number;
  readonly winner: number;
  /** Passes offered but skipped (a player with no hit points left has nothing to decide). */
  readonly waits: number;
}

const key = (a: Action) => (a.k === 'roll' ? `roll:${a.pass ? 'pass' : 'fail'}` : a.k);
const handlers: Handlers<Duel, Frame, Action> = {
  turn: {
    kind: 'decision',
    owner: (f) => f.p,
    legal: () => [{ k: 'aim' }, { k: 'wait' }],
    step: (s, f, a, log) => {
      log?.push({ rule: 'D.1', text: `${f.p} ${a.k}s` });
      return a.k === 'aim' ? push(s, { t: 'shot', p: f.p, need: 4 }) : { ...s, waits: s.waits + 1 };
    },
    describe: (_s, f) => `player ${f.p}: aim or wait?`,
  },
  shot: {
    kind: 'chance',
    outcomes: (_s, f) =>
      check(6, f.need).map((o) => ({ action: { k: 'roll', pass: o.value }, p: o.p, label: o.value ? 'hit' : 'miss' })),
    step: (s, f, a) => (a.k === 'roll' && a.pass ? push(s, { t: 'hit', p: 1 - f.p }) : s),
  },
  hit: {
    kind: 'auto',
    run: (s, f, log) => {
      log?.push({ rule: 'D.2', text: `${f.p} is hit` });
      const hp = s.hp.map((h, i) => (i === f.p ? h - 1 : h)) as unknown as [number, number];
      return { ...s, hp, winner: hp[f.p]! <= 0 ? 1 - f.p : -1 };
    },
  },
  pass: { kind: 'decision', owner: (f) => f.p, legal: () => [{ k: 'wait' }], step: (s) => s, skip: () => true },
};

const duel = procedure<Duel, Frame, Action>({
  handlers,
  idle: (s) =>
    s.round >= 20
      ? { ...s, winner: 2 }
      : push({ ...s, round: s.round + 1 }, { t: 'turn', p: 1 }, { t: 'pass', p: 0 }, { t: 'turn', p: 0 }),
  finished: (s) => s.winner >= 0,
  chancePrefix: (s) => `r${s.round}/`,
  actionKey: key,
});
const start = (): Duel => duel.settle({ stack: [], nChance: 0, hp: [2, 2], round: 0, winner: -1, waits: 0 });

describe('procedure runtime', () => {
  it('decisions, chance nodes and automatic frames; idle starts each round; skipped frames are dropped', () => {
    let s = start();
    expect(duel.toMove(s)).toEqual({ kind: 'player', player: 0 });
    expect(duel.describe(s)).toBe('player 0: aim or wait?');
    const log: GameEvent[] = [];
    s = duel.apply(s, { k: 'aim' }, log);
    expect(duel.toMove(s)).toEqual({ kind: 'chance' });
    expect(duel.chanceOutcomes(s).map((o) => [key(o.action), o.p])).toEqual([
      ['roll:pass', 0.5],
      ['roll:fail', 0.5],
    ]);
    s = duel.apply(s, { k: 'roll', pass: true }, log);
    expect(s.hp).toEqual([2, 1]);
    // the "pass" frame for player 0 was skipped: player 1 decides next
    expect(duel.toMove(s)).toEqual({ kind: 'player', player: 1 });
    expect(log.map((e) => `[${e.rule}] ${e.text}`)).toEqual(['[D.1] 0 aims', '[D.2] 1 is hit']);
  });
  it('the validating apply refuses what is not offered, naming the frame', () => {
    expect(() => duel.apply(start(), { k: 'roll', pass: true })).toThrow(
      /illegal action "roll:pass": not among the turn options here/,
    );
  });
  it('every chance step gets a key never used before in the game', () => {
    for (let g = 0; g < 50; g++) {
      const u = seedrandom.alea(`duel/${g}`);
      let s = start();
      const seen = new Set<string>();
      while (duel.toMove(s).kind !== 'terminal') {
        if (duel.toMove(s).kind === 'chance') {
          const k = duel.chanceKey(s);
          expect(seen.has(k)).toBe(false);
          seen.add(k);
          const outs = duel.chanceOutcomes(s);
          s = duel.apply(s, outs[u() < outs[0]!.p ? 0 : 1]!.action);
        } else {
          const l = duel.legalActions(s);
          s = duel.apply(s, l[Math.floor(u() * l.length)]!);
        }
      }
      expect(s.winner).toBeGreaterThanOrEqual(0);
    }
  });
  it('a frame with no handler is refused by name; an automatic loop is stopped by the guard', () => {
    const bad = { ...start(), stack: [{ t: 'reload', p: 0 } as unknown as Frame] };
    expect(() => duel.legalActions(bad)).toThrow(UnknownFrameError);
    expect(() => duel.legalActions(bad)).toThrow(/no handler for frame kind "reload"/);
    const loop = procedure<Duel, Frame, Action>({
      handlers: { ...handlers, hit: { kind: 'auto', run: (s, f) => push(s, f) } },
      idle: (s) => push(s, { t: 'hit', p: 0 }),
      finished: () => false,
      actionKey: key,
      guard: 1000,
    });
    expect(() => loop.settle({ stack: [], nChance: 0, hp: [1, 1], round: 0, winner: -1, waits: 0 })).toThrow(
      /no decision or chance node reached in 1000 automatic steps \(top frame: hit\)/,
    );
  });
  it('a frame kind without a handler does not compile', () => {
    // @ts-expect-error: "pass" has no handler
    const missing: Handlers<Duel, Frame, Action> = { turn: handlers.turn, shot: handlers.shot, hit: handlers.hit };
    expect(Object.keys(missing)).not.toContain('pass');
  });
});
