/** The procedure runtime on a small game of frames: a duel where each side aims (a D6 check) or waits. */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { check } from './dice.ts';
import type { GameEvent } from './game.ts';
import { type Handlers, type ProcedureState, UnknownFrameError, checkHandler, procedure, push } from './procedure.ts';

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

describe('procedure runtime: staged frames and upkeep', () => {
  // one frame that stays on the stack and changes stage: a decision, then a roll, then an automatic step
  type VFrame = { readonly t: 'volley'; readonly stage: 'choose' | 'roll' | 'resolve'; readonly hit: boolean };
  type VAction = { readonly k: 'fire' } | { readonly k: 'roll'; readonly pass: boolean };
  interface V extends ProcedureState<VFrame> {
    readonly volleys: number;
    readonly hits: number;
    readonly upkeeps: number;
  }
  const vkey = (a: VAction) => (a.k === 'roll' ? `roll:${a.pass ? 'pass' : 'fail'}` : a.k);
  const volley = procedure<V, VFrame, VAction>({
    handlers: {
      volley: {
        kind: 'staged',
        owner: (f) => (f.stage === 'choose' ? 0 : null),
        legal: (_s, f) => (f.stage === 'choose' ? [{ k: 'fire' }] : []),
        outcomes: (_s, f) =>
          f.stage === 'roll'
            ? check(6, 5).map((o) => ({
                action: { k: 'roll', pass: o.value },
                p: o.p,
                label: o.value ? 'hit' : 'miss',
              }))
            : [],
        // the frame comes popped: a frame that goes on pushes its next stage back
        step: (s, f, a) =>
          push(s, a.k === 'fire' ? { ...f, stage: 'roll' } : { ...f, stage: 'resolve', hit: a.k === 'roll' && a.pass }),
        advance: (s, f) =>
          f.stage === 'resolve'
            ? { ...s, stack: s.stack.slice(0, -1), volleys: s.volleys + 1, hits: s.hits + (f.hit ? 1 : 0) }
            : null,
      },
    },
    idle: (s) => push(s, { t: 'volley', stage: 'choose', hit: false }),
    finished: (s) => s.volleys >= 3,
    upkeep: (s) => ({ ...s, upkeeps: s.upkeeps + 1 }),
    actionKey: vkey,
  });

  it('asks the frame as it stands: a decision, a chance node, then an automatic step; one chance step each roll', () => {
    let s = volley.settle({ stack: [], nChance: 0, volleys: 0, hits: 0, upkeeps: 0 });
    expect(volley.toMove(s)).toEqual({ kind: 'player', player: 0 });
    expect(volley.legalActions(s)).toEqual([{ k: 'fire' }]);
    expect(volley.chanceOutcomes(s)).toEqual([]);
    s = volley.apply(s, { k: 'fire' });
    expect(volley.toMove(s)).toEqual({ kind: 'chance' });
    expect(volley.legalActions(s)).toEqual([]);
    expect(volley.chanceOutcomes(s).map((o) => vkey(o.action))).toEqual(['roll:pass', 'roll:fail']);
    expect(volley.chanceKey(s)).toBe('c0');
    expect(() => volley.apply(s, { k: 'fire' })).toThrow(/not among the volley options/);
    s = volley.apply(s, { k: 'roll', pass: true });
    expect(s.nChance).toBe(1);
    expect([s.volleys, s.hits]).toEqual([1, 1]);
    expect(s.stack.map((f) => f.stage)).toEqual(['choose']);
    // upkeep runs before every settle step and on the state settle returns
    expect(s.upkeeps).toBeGreaterThan(3);
  });
});

describe('check frames', () => {
  type CFrame = { readonly t: 'test'; readonly need: number; readonly mod: number; readonly rerolls: number };
  type CAction = { readonly pass: boolean; readonly used: number };
  interface CState extends ProcedureState<CFrame> {
    readonly results: readonly string[];
  }
  const test = checkHandler<CState, CFrame, CAction>({
    action: (pass, used) => ({ pass, used }),
    read: (a) => a,
    then: (s, _f, pass, used) => ({ ...s, results: [...s.results, `${pass ? 'pass' : 'fail'}/${used}`] }),
  });
  const rules = procedure<CState, CFrame, CAction>({
    handlers: { test },
    idle: (s) => (s.results.length ? s : push(s, { t: 'test', need: 4, mod: 0, rerolls: 1 })),
    finished: (s) => s.results.length > 0,
    actionKey: (a) => `${a.pass}/${a.used}`,
  });
  it('roll against a target with re-rolls of failure, then go on with the result', () => {
    const s = rules.settle({ stack: [], nChance: 0, results: [] });
    expect(rules.chanceOutcomes(s).map((o) => [o.label, o.p])).toEqual([
      ['pass', 0.5],
      ['pass after 1 re-roll', 0.25],
      ['fail', 0.25],
    ]);
    const after = rules.apply(s, { pass: true, used: 1 });
    expect(after.results).toEqual(['pass/1']);
    expect(after.nChance).toBe(1);
  });
});
