/**
 * The observation encoding (encoding.ts) over seeded random games on both scenarios: every state encoded for both
 * seats without throwing; at decisions every cell written, finite and within [-1, 2], deterministic and
 * seat-symmetric (test/encoding-checks.ts), the legal actions told apart; the sealed bid shown only to its bidder;
 * unknown action keys of type "other"; states beyond the caps refused by name.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { scenarioOf } from '../../../test/ne-fixtures.ts';
import { type Tally, checkEncodingAt, expectContiguousLayouts } from '../../../test/encoding-checks.ts';
import { ACTION_TYPES, actionBlock, actionType, neEncoding as enc, MAX_UNITS, stateBlock } from './encoding.ts';
import type { Scenario } from './scenario.ts';
import type { SeqState } from './turn.ts';
import { napoleonsEagles as game } from './index.ts';
import type { Side } from './types.ts';

const SCENARIOS = ['quick-test', 'the-mill-at-kleinau'];

/** A shipped scenario; Kleinau with its optional rules turned off (not built yet, and refused), as turn.test.ts. */
const load = (id: string): Scenario =>
  scenarioOf(id, (j) => {
    if (id === 'the-mill-at-kleinau')
      for (const k of ['leaderInitiative', 'organicSkirmishers', 'carbines', 'outOfControlCavalry'])
        j.options[k] = false;
  });

const PAIRS = ['units', 'leaders'] as const;

const stateOf = (s: SeqState, p: number): Float32Array => {
  const out = new Float32Array(enc.stateSize);
  enc.encodeState(s, p, out);
  return out;
};
const actionsOf = (s: SeqState, p: number, legal: readonly string[]): Float32Array => {
  const out = new Float32Array(legal.length * enc.actionSize);
  enc.encodeActions(s, p, legal, out);
  return out;
};

/** A seeded random game: every state encoded for both seats; every `every`-th decision fully checked. */
function playAndCheck(sc: Scenario, seed: string, t: Tally, every = 1): number {
  const rng = seedrandom.alea(seed);
  let s = game.initialState(sc);
  let n = 0;
  for (let ply = 0; ply < 20_000; ply++) {
    for (const p of [0, 1]) {
      const v = stateOf(s, p);
      for (const x of v) if (!Number.isFinite(x)) throw new Error(`${seed} ply ${ply}: a non-finite state cell`);
    }
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') return ply;
    if (tm.kind === 'chance') {
      const o = game.chanceOutcomes(s);
      let r = rng();
      let k = 0;
      for (; k < o.length - 1; k++) {
        r -= o[k]!.p;
        if (r < 0) break;
      }
      s = game.apply(s, o[k]!.action);
      continue;
    }
    const legal = game.legalActions(s);
    if (legal.length >= 2 && n++ % every === 0)
      checkEncodingAt({ enc, key: (a) => a, s, p: tm.player, legal, pairs: PAIRS, tally: t });
    else actionsOf(s, tm.player, legal);
    s = game.apply(s, legal[Math.floor(rng() * legal.length)]!);
  }
  throw new Error(`${seed}: no end in 20000 plies`);
}

const total: Tally = { decisions: 0, distinct: 0, clashes: [] };

describe('napoleons-eagles/v1 encoding', () => {
  it('has contiguous, documented layouts', () => {
    expectContiguousLayouts(enc);
    expect(enc.id).toBe('napoleons-eagles/v1');
    expect(enc.version).toBe(1);
    expect(stateBlock('mine: units').size % MAX_UNITS).toBe(0);
    for (const name of PAIRS) expect(stateBlock(`mine: ${name}`).size).toBe(stateBlock(`theirs: ${name}`).size);
    expect(actionBlock('type').size).toBe(ACTION_TYPES.length);
  });

  for (const id of SCENARIOS)
    it(`${id}: random games encode completely, in range, deterministically and symmetrically`, () => {
      const sc = load(id);
      for (let g = 0; g < 3; g++) {
        const plies = playAndCheck(sc, `encoding/${id}/${g}`, total, id === 'quick-test' ? 1 : 2);
        expect(plies).toBeGreaterThan(0);
      }
    }, 120_000);

  it('tells the legal actions of at least 95% of decisions apart', () => {
    expect(total.decisions).toBeGreaterThan(200);
    const rate = total.distinct / total.decisions;
    console.log(
      `napoleons-eagles/v1: ${total.distinct}/${total.decisions} decisions (${(rate * 100).toFixed(2)}%) give every legal action its own vector`,
    );
    expect(rate, total.clashes.join('; ')).toBeGreaterThanOrEqual(0.95);
  });

  it("shows a side its own sealed bid and never the other's", () => {
    const s0 = game.initialState(load('quick-test'));
    expect(s0.stack[s0.stack.length - 1]?.t).toBe('bid');
    expect(game.toMove(s0)).toEqual({ kind: 'player', player: 0 });
    // side 0 bids 0, 7 or 20: now player 1 is to bid
    const after = ['bid 0', 'bid 7', 'bid 20'].map((b) => game.apply(s0, b));
    for (const s of after) expect(game.toMove(s)).toEqual({ kind: 'player', player: 1 });
    const bytes = (v: Float32Array) => Buffer.from(v.buffer).toString('hex');
    // player 1: byte-identical state and action features whatever side 0 bid
    const legal = game.legalActions(after[0]!);
    const views = after.map((s) => bytes(stateOf(s, 1)));
    expect(views[1]).toBe(views[0]);
    expect(views[2]).toBe(views[0]);
    const acts = after.map((s) => bytes(actionsOf(s, 1, legal)));
    expect(acts[1]).toBe(acts[0]);
    expect(acts[2]).toBe(acts[0]);
    // player 0: its own bid is shown
    const own = after.map((s) => bytes(stateOf(s, 0)));
    expect(own[1]).not.toBe(own[0]);
    expect(own[2]).not.toBe(own[1]);
    const b = stateBlock('bids');
    expect(stateOf(after[1]!, 0)[b.offset + 1]).toBeCloseTo(7 / s0.points[0]);
    expect(stateOf(after[1]!, 0)[b.offset]).toBe(1);
    // player 1 sees that side 0 has bid (public), and that it has not itself
    expect(stateOf(after[1]!, 1)[b.offset + 2]).toBe(1);
    expect(stateOf(after[1]!, 1)[b.offset]).toBe(0);
    // the control: the unredacted states do differ in the bid
    expect(JSON.stringify(after[0]!.stack)).not.toBe(JSON.stringify(after[1]!.stack));
  });

  it('parses action keys by type; unknown keys are "other" and never throw', () => {
    const cases: [string, string][] = [
      ['bid 3', 'bid'],
      ['be A', 'chooseAD'],
      ['be D', 'chooseAD'],
      ['activate Q1', 'activate'],
      ['finish', 'finish'],
      ['end', 'end'],
      ['move forward 1 4.00" turn +10', 'move'],
      ['road ½ 5.00"', 'road'],
      ['move left ½ 1.50" turn -10 oblique +22.5', 'move'],
      ['fire B1 2', 'fire'],
      ['canister B1 1', 'canister'],
      ['shot B1 2', 'shot'],
      ['charge B1', 'charge'],
      ['form line', 'form'],
      ['face +45', 'face'],
      ['about face', 'face'],
      ['rest', 'rest'],
      ['reform', 'reform'],
      ['force march', 'force'],
      ['recover', 'recover'],
      ['retreat 8"', 'retreat'],
      ['stand in place', 'retreat'],
      ['counter-charge', 'counter'],
      ['hold', 'counter'],
      ['defence fire', 'defence'],
      ['no defence action', 'defence'],
      ['join Q1', 'leader'],
      ['leave', 'leader'],
      ['stay', 'leader'],
      ['plan advance twice', 'plan'],
      ['plan close on B1 and fire', 'plan'],
      ['enter V1 canonical', 'town'],
      ['blockMove V1 V2 6', 'town'],
      ['leave V1 north', 'town'],
      ['charge block V1 south', 'town'],
      ['attack V1 V2 6', 'town'],
      ['fire out V1 F2', 'town'],
      ['defence fire out', 'town'],
      ['blocks done', 'town'],
      ['canister B1 2 rapid', 'canister'],
      ['rockets A1', 'fire'],
      ['influence 3', 'influence'],
      ['leader +1', 'modifier'],
      ['runaway B1', 'charge'],
      ['order L-F1 attack obj-V1', 'order'],
      ['caisson C1 stay', 'caisson'],
      ['volunteer retreat', 'volunteer'],
      ['something new', 'other'],
      ['', 'other'],
    ];
    for (const [key, type] of cases) expect(actionType(key), key).toBe(type);
    const s = game.initialState(load('quick-test'));
    const keys = cases.map(([k]) => k);
    const v = actionsOf(s, 0, keys);
    for (const x of v) expect(Number.isFinite(x)).toBe(true);
    const t = actionBlock('type');
    const other = ACTION_TYPES.indexOf('other');
    expect(v[(keys.length - 2) * enc.actionSize + t.offset + other]).toBe(1);
    // the move's numbers: a whole action, 4" (/24), turned +10° (/90)
    const n = actionBlock('numbers');
    const mv = keys.indexOf('move forward 1 4.00" turn +10') * enc.actionSize + n.offset;
    expect(v[mv + 3]).toBe(1);
    expect(v[mv + 4]).toBeCloseTo(4 / 24);
    expect(v[mv + 5]).toBeCloseTo(10 / 90);
    const ob = keys.indexOf('move left ½ 1.50" turn -10 oblique +22.5') * enc.actionSize + n.offset;
    expect([v[ob + 3], v[ob + 4], v[ob + 5], v[ob + 6], v[ob + 14]]).toEqual([
      0.5,
      Math.fround(1.5 / 24),
      Math.fround(-10 / 90),
      Math.fround(22.5 / 90),
      1,
    ]);
    // the newer keys' numbers: figures in a town action, rapid fire, influence, the order's kind
    const num = (k: string, i: number) => {
      const w = new Float32Array(enc.actionSize);
      enc.encodeActions(s, 0 as Side, [k], w);
      return w[n.offset + i];
    };
    expect(num('attack V1 V2 6', 20)).toBeCloseTo(0.5);
    expect(num('canister B1 2 rapid', 21)).toBe(1);
    expect(num('canister B1 2', 21)).toBe(0);
    expect(num('influence 3', 22)).toBeCloseTo(0.5);
    expect(num('order L-F1 withdraw', 23)).toBeCloseTo(3 / 6);
    expect(num('leader +1', 2)).toBe(1);
    expect(num('leader −1', 2)).toBe(0);
  });

  it('refuses a state beyond its caps, naming the cap', () => {
    const s = game.initialState(load('quick-test'));
    const u0 = s.units.find((u) => u.side === 0)!;
    const extra = Array.from({ length: MAX_UNITS }, (_, i) => ({ ...u0, id: `${u0.id}#${i}` }));
    const big: SeqState = { ...s, units: [...s.units, ...extra] };
    expect(() => enc.check!(big)).toThrow(/16 unit slots per side; side 0/);
    expect(() => enc.encodeState(big, 0 as Side, new Float32Array(enc.stateSize))).toThrow(/unit slots/);
    expect(() => enc.check!(s)).not.toThrow();
  });
});
