/**
 * The hidden-information reference games against known answers. A tabular CFR (test/reference/cfr.ts) keyed by each
 * player's observation hash solves Kuhn poker to its value −1/18 and Goofspiel with 3 cards to 0: the value is only
 * right when `observe` shows a player what it may see, no more (a leaky variant solves to a different value) and no
 * less. Kuhn's redaction is checked directly too: observations, observation hashes and legal actions agree between a
 * state and its re-samples, the deal's action view and its secret events name only the viewer's card.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { type GameEvent, eventFor } from '../engine/core/game.ts';
import { hashHex } from '../engine/core/hash.ts';
import { actionView, eventsFor, observationHash } from '../engine/core/views.ts';
import { goofspiel } from '../engine/reference/goofspiel.ts';
import { type KuhnState, kuhnPoker } from '../engine/reference/kuhn.ts';
import { solveCfr } from './reference/cfr.ts';

const KUHN_ITERATIONS = 1000;
const GOOFSPIEL_ITERATIONS = 300;
const STANDARD = { id: 'standard' };
const LETTER = ['J', 'Q', 'K'];
const NAME = ['Jack', 'Queen', 'King'];

/** Every state reachable from the start of Kuhn poker (chance outcomes included). */
function kuhnStates(): KuhnState[] {
  const out: KuhnState[] = [];
  (function walk(s: KuhnState): void {
    out.push(s);
    const tm = kuhnPoker.toMove(s);
    if (tm.kind === 'terminal') return;
    const next = tm.kind === 'chance' ? kuhnPoker.chanceOutcomes(s).map((o) => o.action) : kuhnPoker.legalActions(s);
    for (const a of next) walk(kuhnPoker.apply(s, a));
  })(kuhnPoker.initialState(STANDARD));
  return out;
}

describe('CFR over observation hashes solves the hidden-information reference games', () => {
  it(`Kuhn poker: the value to A is −1/18 (${KUHN_ITERATIONS} CFR+ iterations)`, () => {
    const r = solveCfr(kuhnPoker, STANDARD, KUHN_ITERATIONS);
    // 12 information sets: each of the 3 cards at A's first decision, B after a check, B after a bet, A after check-bet
    expect(r.infosets).toBe(12);
    expect(r.value).toBeCloseTo(-1 / 18, 2);
    expect(Math.abs(r.value + 1 / 18)).toBeLessThan(0.003);
    expect(r.exploitability).toBeLessThan(0.001);
    // a known feature of every equilibrium: B always calls a bet with the King and always folds the Jack to one
    const at = (player: number, card: string, bets: string) =>
      Object.values(r.strategy).find(
        (x) => x.player === player && x.label.includes(`${'AB'[player]} holds ${card}`) && x.label.endsWith(bets),
      )!.probs;
    expect(at(1, 'K', 'bets: A bet').call).toBeGreaterThan(0.99);
    expect(at(1, 'J', 'bets: A bet').fold).toBeGreaterThan(0.99);
  });

  it('Kuhn poker with a leaky observation (the opponent card shown) solves to a different value', () => {
    const leaky = { ...kuhnPoker, observe: (s: KuhnState) => s };
    const r = solveCfr(leaky, STANDARD, 200);
    expect(r.infosets).toBeGreaterThan(12);
    expect(Math.abs(r.value + 1 / 18)).toBeGreaterThan(0.02);
  });

  it('Kuhn poker with an observation that forgets the own card solves to a different value', () => {
    const blind = { ...kuhnPoker, observe: (s: KuhnState) => ({ ...s, cards: s.cards.map(() => null) }) };
    const r = solveCfr(blind, STANDARD, 200);
    expect(r.infosets).toBeLessThan(12);
    expect(Math.abs(r.value + 1 / 18)).toBeGreaterThan(0.02);
  });

  it(`Goofspiel, 3 cards in descending order: the value is 0 (${GOOFSPIEL_ITERATIONS} CFR+ iterations)`, () => {
    const r = solveCfr(goofspiel, { id: 't', cards: 3, order: 'descending' }, GOOFSPIEL_ITERATIONS);
    expect(Math.abs(r.value)).toBeLessThan(0.01);
    expect(r.exploitability).toBeLessThan(0.001);
  });

  it("Goofspiel with B seeing A's sealed bid solves to a different value", () => {
    // with 3 cards the leak happens not to matter (A can still force a draw); with 4, B reads every bid and wins
    const sc = { id: 't', cards: 4, order: 'descending' };
    const leaky = { ...goofspiel, observe: (s: unknown) => s };
    const r = solveCfr(leaky, sc, 60);
    expect(r.value).toBeLessThan(-0.5);
  });
});

describe('Kuhn poker redaction', () => {
  const states = kuhnStates();

  it('reaches every state of the game tree (1 + 6 deals × 9 betting states)', () => {
    expect(states.length).toBe(1 + 6 * 9);
  });

  it('a re-sampled state looks the same to the player: observation, observation hash and legal actions', () => {
    const rng = seedrandom.alea('kuhn/sample');
    const fixed = [0, 0.25, 0.49, 0.5, 0.75, 0.999];
    let resampled = 0;
    for (const s of states)
      for (const p of [0, 1]) {
        const drawn = new Set<number>();
        for (const u of [...fixed.map((x) => () => x), () => rng(), () => rng()]) {
          const t = kuhnPoker.sampleState(s, p, u);
          expect(JSON.stringify(kuhnPoker.observe(t, p))).toBe(JSON.stringify(kuhnPoker.observe(s, p)));
          expect(hashHex(observationHash(kuhnPoker, t, p))).toBe(hashHex(observationHash(kuhnPoker, s, p)));
          const tm = kuhnPoker.toMove(s);
          expect(kuhnPoker.toMove(t)).toEqual(tm);
          if (tm.kind === 'player' && tm.player === p)
            expect(kuhnPoker.legalActions(t)).toEqual(kuhnPoker.legalActions(s));
          expect(t.cards[p]).toBe(s.cards[p]);
          if (t.cards[0] !== null) expect(t.cards[0]).not.toBe(t.cards[1]);
          drawn.add(t.cards[1 - p]!);
        }
        if (kuhnPoker.hidden!(s, p)) {
          resampled++;
          // both cards the player does not hold are drawn
          expect([...drawn].sort()).toEqual([0, 1, 2].filter((c) => c !== s.cards[p]));
          expect(kuhnPoker.observe(s, p)).not.toEqual(s);
        } else expect(kuhnPoker.observe(s, p)).toEqual(s);
      }
    // hidden everywhere after the deal except at the 3 showdowns of each deal
    expect(resampled).toBe(2 * 6 * 6);
  });

  it('observation hashes tell apart what the player can see: its own card and the betting', () => {
    for (const p of [0, 1]) {
      const seen = new Map<string, string>();
      for (const s of states) {
        const h = hashHex(observationHash(kuhnPoker, s, p));
        const what = JSON.stringify(kuhnPoker.observe(s, p));
        expect(seen.get(h) ?? what, `player ${p}`).toBe(what);
        seen.set(h, what);
      }
      // before the deal, 3 own cards × (6 non-showdown betting states + 3 showdowns × 2 opponent cards)
      expect(seen.size).toBe(1 + 3 * (6 + 3 * 2));
    }
  });

  it("the deal as B sees it names B's card only, alike for the deals that give B the same card", () => {
    const s0 = kuhnPoker.initialState(STANDARD);
    const deals = kuhnPoker.chanceOutcomes(s0).map((o) => o.action);
    expect(deals).toHaveLength(6);
    const keys = new Set(deals);
    for (const viewer of [0, 1]) {
      const byCard = new Map<string, Set<string>>();
      for (const a of deals) {
        const [mine, theirs] =
          viewer === 0 ? [a.split(' ')[1]!, a.split(' ')[2]!] : [a.split(' ')[2]!, a.split(' ')[1]!];
        const view = actionView(kuhnPoker, s0, a, viewer);
        expect(keys.has(view), view).toBe(false);
        expect(view.split(' ')).toContain(mine);
        expect(view.split(' ')).not.toContain(theirs);
        if (!byCard.has(mine)) byCard.set(mine, new Set());
        byCard.get(mine)!.add(view);
      }
      // one view per own card, three different views in all
      expect([...byCard.values()].map((v) => v.size)).toEqual([1, 1, 1]);
      expect(new Set([...byCard.values()].flatMap((v) => [...v])).size).toBe(3);
    }
    expect(deals.map((a) => actionView(kuhnPoker, s0, a, -1))).toEqual(deals);
    // the bets are public
    const s1 = kuhnPoker.apply(s0, deals[0]!);
    for (const a of kuhnPoker.legalActions(s1)) expect(kuhnPoker.viewAction!(s1, a, 1)).toBe(a);
  });

  it("the deal's events, read through eventFor, name only the viewer's card", () => {
    const s0 = kuhnPoker.initialState(STANDARD);
    for (const o of kuhnPoker.chanceOutcomes(s0)) {
      const events: GameEvent[] = [];
      const s = kuhnPoker.apply(s0, o.action, events);
      const [a, b] = s.cards as [number, number];
      expect(events.filter((e) => e.rule === 'deal').map((e) => e.to)).toEqual([[0], [1]]);
      for (const e of events) expect(kuhnPoker.citation!.test(e.rule), e.rule).toBe(true);
      const text = (viewer: number) => events.map((e) => eventFor(e, viewer).text).join(' | ');
      const names = (t: string) => NAME.filter((n) => t.includes(n)).sort();
      expect(names(text(0)), text(0)).toEqual([NAME[a]]);
      expect(names(text(1)), text(1)).toEqual([NAME[b]]);
      expect(names(text(-1)), text(-1)).toEqual([NAME[a], NAME[b]].sort());
      expect(eventsFor(events, 1)).toEqual(events.map((e) => eventFor(e, 1)));
      // a redacted text does not depend on the secret
      for (const e of events) if (e.to) expect(e.redacted).not.toMatch(/Jack|Queen|King|\b[JQK]\b/);
    }
  });

  it('render for a viewer shows only what it sees; the encoding never reads the unseen card', () => {
    const enc = kuhnPoker.encoding!;
    for (const s of states)
      for (const p of [0, 1]) {
        const twin = kuhnPoker.sampleState(s, p, () => 0.999);
        const other = kuhnPoker.sampleState(s, p, () => 0);
        expect(kuhnPoker.render(twin, p)).toBe(kuhnPoker.render(other, p));
        const x = new Float32Array(enc.stateSize);
        const y = new Float32Array(enc.stateSize);
        enc.encodeState(twin, p, x);
        enc.encodeState(other, p, y);
        expect([...x]).toEqual([...y]);
        if (kuhnPoker.hidden!(s, p)) {
          const [c0, c1] = s.cards as [number, number];
          expect(kuhnPoker.render(s, p)).toContain(`${'AB'[1 - p]} holds ?`);
          expect(kuhnPoker.render(s, -1)).toContain(`A holds ${LETTER[c0]}, B holds ${LETTER[c1]}`);
        }
      }
  });

  it('returns are the chips won, zero-sum: ±1 for a fold or a showdown of the antes, ±2 for a called bet', () => {
    const ends = states.filter((s) => kuhnPoker.toMove(s).kind === 'terminal');
    expect(ends).toHaveLength(6 * 5);
    for (const s of ends) {
      const [a, b] = kuhnPoker.returns(s);
      expect(a! + b!).toBe(0);
      const called = s.bets.at(-1) === 'call';
      expect(Math.abs(a!)).toBe(called ? 2 : 1);
      if (s.bets.at(-1) !== 'fold') expect(Math.sign(a!)).toBe(s.cards[0]! > s.cards[1]! ? 1 : -1);
    }
  });
});
