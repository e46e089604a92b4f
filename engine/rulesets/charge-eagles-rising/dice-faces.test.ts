/**
 * Real dice (dice-faces.ts: rollAsk / outcomeForFaces / diceFaces) at Charge! Eagles Rising's chance nodes: in random
 * games on both scenarios, every chance node is held to the conformance checker's `checkRoll` (arena/conformance.ts):
 * the faces shown for each outcome map back to it, every combination of faces gives a listed outcome or a reason, and
 * a face off the die is refused; where the dice are few, the faces' counts give exactly the outcomes' probabilities
 * (the initiative's ties re-rolled). Then the reads the sheets name: the natural-10 rule above 10, the CAC's doubles
 * and "W < L", the initiative's tie, and the skirmish hit's draw (no dice).
 */
import { readFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import type { Frame } from './frames.ts';
import { chargeEaglesRising as game } from './index.ts';
import { initiativeFactors } from './initiative.ts';
import { cacMods } from './cac.ts';
import { parseScenario } from './scenario.ts';
import type { S } from './state.ts';

const start = (id: string): S => game.initialState(scenario(id));
const scenario = (id: string) =>
  parseScenario(JSON.parse(readFileSync(`data/scenarios/charge-eagles-rising/${id}.json`, 'utf8')));
const top = (s: S) => s.stack[s.stack.length - 1] as Frame;
const push = (s: S, f: Frame): S => ({ ...s, stack: [...s.stack, f] });

/** All the faces of `dice` (in `outcomeForFaces` order), or `limit` drawn with `u` when there are more. */
function combos(dice: readonly number[], u: () => number, limit = 4096): number[][] {
  const total = dice.reduce((a, k) => a * k, 1);
  const out: number[][] = [];
  for (let i = 0; i < Math.min(total, limit); i++) {
    let n = total <= limit ? i : Math.floor(u() * total);
    out.push(
      dice.map((k) => {
        const f = (n % k) + 1;
        n = Math.floor(n / k);
        return f;
      }),
    );
  }
  return out;
}

/** The checks of arena/conformance.ts `checkRoll` at `s`, plus exact probabilities where the dice are few. */
function checkRollAt(s: S, u: () => number): string | null {
  const ask = game.rollAsk!(s);
  if (!ask) return null;
  const outs = game.chanceOutcomes(s);
  expect(ask.dice.length).toBeGreaterThan(0);
  for (const k of ask.dice) expect(Number.isInteger(k) && k >= 2).toBe(true);
  const keys = new Set(outs.map((o) => o.action));
  for (const o of outs) {
    const faces = game.diceFaces!(s, o.action, u);
    expect(faces, `${ask.what}: faces for "${o.action}"`).toBeDefined();
    expect(faces!.length).toBe(ask.dice.length);
    const r = game.outcomeForFaces!(s, faces!);
    expect(r, `${ask.what}: the faces ${faces!.join(' ')} shown for "${o.action}"`).toEqual({ action: o.action });
  }
  const total = ask.dice.reduce((a, k) => a * k, 1);
  const count = new Map<string, number>();
  let refused = 0;
  for (const faces of combos(ask.dice, u)) {
    const r = game.outcomeForFaces!(s, faces);
    if ('error' in r) {
      expect(r.error.length).toBeGreaterThan(0);
      // only the initiative's tie is re-rolled: every other roll reads
      expect(top(s).t, r.error).toBe('initiative');
      refused++;
    } else {
      expect(keys.has(r.action), `${ask.what}: faces ${faces.join(' ')} give "${r.action}", not an outcome here`).toBe(
        true,
      );
      count.set(r.action, (count.get(r.action) ?? 0) + 1);
    }
  }
  if (total <= 4096)
    for (const o of outs)
      expect((count.get(o.action) ?? 0) / (total - refused), `${ask.what}: ${o.action}`).toBeCloseTo(o.p, 9);
  const off = ask.dice.map((k, i) => (i === 0 ? k + 1 : 1));
  expect('error' in game.outcomeForFaces!(s, off)).toBe(true);
  return top(s).t;
}

describe('Charge! Eagles Rising real dice', () => {
  it('hold every chance node of random games to checkRoll, with exact probabilities', () => {
    const seen = new Map<string, number>();
    let draws = 0;
    for (const id of ['quick-test', 'the-chapel-crossroads'])
      for (let g = 0; g < 2; g++) {
        const rng = seedrandom.alea(`dice/${id}/${g}`);
        let s = game.initialState(scenario(id));
        for (let ply = 0; ply < 3000; ply++) {
          const tm = game.toMove(s);
          if (tm.kind === 'terminal') break;
          if (tm.kind === 'chance') {
            // every kind checked in full at its first 20 nodes (the runs are shared with other work)
            const kind = top(s).t;
            const t = (seen.get(kind) ?? 0) < 20 ? checkRollAt(s, rng) : game.rollAsk!(s) ? kind : null;
            if (t) seen.set(t, (seen.get(t) ?? 0) + 1);
            else if (kind === 'skirmish') draws++;
            const o = game.chanceOutcomes(s);
            let r = rng();
            let k = 0;
            for (; k < o.length - 1; k++) {
              r -= o[k]!.p;
              if (r < 0) break;
            }
            s = game.apply(s, o[k]!.action);
          } else {
            const legal = game.legalActions(s);
            s = game.apply(s, legal[Math.floor(rng() * legal.length)]!);
          }
        }
      }
    console.log(
      `real dice checked: ${[...seen].map(([k, n]) => `${k} ${n}`).join(', ')}; skirmish hit draws (no dice): ${draws}`,
    );
    for (const t of ['leaderCheck', 'accept', 'initiative', 'volley', 'skill', 'moveTest', 'morale'])
      expect(seen.get(t) ?? 0, t).toBeGreaterThan(0);
  }, 240_000);

  it('[Ranged Fire] a to-hit of 11 reads a natural 10 and its second d10 (> 6 hits)', () => {
    const s0 = game.initialState(scenario('quick-test'));
    const [a, b] = [s0.units.find((u) => u.side === 0)!, s0.units.find((u) => u.side === 1)!];
    const v: Frame = { t: 'volley', firer: a.id, target: b.id, dice: 2, toHit: 11, kind: 'fire', band: 'long' };
    const s = push(s0, v);
    expect(game.toMove(s).kind).toBe('chance');
    expect(game.rollAsk!(s)!.dice).toEqual([10, 10, 10, 10]);
    const hits = (fs: number[]) => (game.outcomeForFaces!(s, fs) as { action: string }).action;
    expect(hits([10, 9, 7, 10])).toBe(`hits ${a.id} ${b.id} 1`);
    expect(hits([10, 10, 6, 7])).toBe(`hits ${a.id} ${b.id} 1`);
    expect(hits([10, 10, 7, 10])).toBe(`hits ${a.id} ${b.id} 2`);
    expect(hits([9, 9, 10, 10])).toBe(`hits ${a.id} ${b.id} 0`);
    // to-hit 7: one d10 a die, 7+
    const t7 = push(s0, { ...v, dice: 3, toHit: 7 });
    expect(game.rollAsk!(t7)!.dice).toEqual([10, 10, 10]);
    expect(game.outcomeForFaces!(t7, [7, 6, 10])).toEqual({ action: `hits ${a.id} ${b.id} 2` });
    checkRollAt(s, seedrandom.alea('v'));
    checkRollAt(t7, seedrandom.alea('v'));
  });

  it('many dice: a volley of 8 at to-hit 12, a tactical leader check for 4 KIAs', () => {
    const s0 = game.initialState(scenario('quick-test'));
    const [a, b] = [s0.units.find((u) => u.side === 0)!, s0.units.find((u) => u.side === 1)!];
    const v = push(s0, { t: 'volley', firer: a.id, target: b.id, dice: 8, toHit: 12, kind: 'fire', band: 'close' });
    expect(game.rollAsk!(v)!.dice).toHaveLength(16);
    checkRollAt(v, seedrandom.alea('v8'));
    const l = s0.leaders.find((x) => x.side === 0)!;
    const lt = push(s0, { t: 'leaderTactical', leader: l.id, kias: 4 });
    expect(game.rollAsk!(lt)!.dice).toEqual([6, 6, 6, 6, 6, 6]);
    // no 6 among the KIA dice: no effect, whatever the last two show; a 6 and 6 + 6: KIA
    expect(game.outcomeForFaces!(lt, [5, 5, 5, 5, 6, 6])).toEqual({ action: `leader ${l.id} noEffect` });
    expect(game.outcomeForFaces!(lt, [1, 6, 2, 3, 6, 6])).toEqual({ action: `leader ${l.id} kia` });
    expect(game.outcomeForFaces!(lt, [1, 6, 2, 3, 3, 3])).toEqual({ action: `leader ${l.id} knockedOut` });
    checkRollAt(lt, seedrandom.alea('lt'));
  });

  it('[Close Assault Combat] the outcome class carries the winner, its doubles and "W < L"', () => {
    // a CAC staged in play: the first CAC of seeded random games on the Chapel Crossroads
    let found: S | null = null;
    for (let g = 0; g < 40 && !found; g++) {
      const rng = seedrandom.alea(`cac/${g}`);
      let s = game.initialState(scenario('the-chapel-crossroads'));
      for (let ply = 0; ply < 3000 && !found; ply++) {
        const tm = game.toMove(s);
        if (tm.kind === 'terminal') break;
        if (tm.kind === 'chance') {
          if (top(s).t === 'cac') found = s;
          const o = game.chanceOutcomes(s);
          s = game.apply(s, o[Math.floor(rng() * o.length)]!.action);
        } else {
          const legal = game.legalActions(s);
          const charge = legal.filter((x) => x.startsWith('charge ') || x.startsWith('op-charge '));
          const pick = charge.length && rng() < 0.7 ? charge : legal;
          s = game.apply(s, pick[Math.floor(rng() * pick.length)]!);
        }
      }
    }
    expect(found, 'no CAC reached in 40 games').not.toBeNull();
    const s = found!;
    const ask = game.rollAsk!(s)!;
    expect(ask.dice).toEqual([6, 6, 6, 6]);
    // every roll of the four dice, read by hand: the totals' difference, the winner's doubles, "W < L" on the natural 2D6
    const m = cacMods(s, top(s) as Extract<Frame, { t: 'cac' }>);
    let lower = 0;
    for (const [w, x, y, z] of combos(ask.dice, seedrandom.alea('all'))) {
      const d = w! + x! + m.attacker - (y! + z! + m.defender);
      const r = game.outcomeForFaces!(s, [w!, x!, y!, z!]) as { action: string };
      if (d === 0) {
        expect(r.action).toBe('cac tie');
        continue;
      }
      const [win, mine, theirs] =
        d > 0 ? (['attacker', [w!, x!], [y!, z!]] as const) : (['defender', [y!, z!], [w!, x!]] as const);
      const band = Math.abs(d) >= 8 ? '8+' : Math.abs(d) >= 5 ? '5-7' : Math.abs(d) >= 3 ? '3-4' : '1-2';
      const low = mine[0] + mine[1] < theirs[0] + theirs[1];
      if (low) lower++;
      expect(r.action).toBe(`cac ${win} ${band}${mine[0] === mine[1] ? ' doubles' : ''}${low ? ' lower' : ''}`);
    }
    // "W < L" happens only when a modifier outweighs the dice
    if (m.attacker !== m.defender) expect(lower).toBeGreaterThan(0);
    checkRollAt(s, seedrandom.alea('cac'));
  }, 120_000);

  it('[S2, Issuing Orders] acceptance: +2 with the CC attached (C2); no dice when a Superior CC is in contact', () => {
    // the first acceptance roll of the Chapel Crossroads, A writing an attack
    let s = start('the-chapel-crossroads');
    for (let guard = 0; guard < 500 && top(s)?.t !== 'accept'; guard++) {
      const tm = game.toMove(s);
      if (tm.kind === 'chance') s = game.apply(s, game.chanceOutcomes(s)[0]!.action);
      else if (tm.kind === 'player') {
        const o = game.legalActions(s);
        s = game.apply(s, o.find((x) => / attack /.test(x)) ?? o[0]!);
      } else break;
    }
    const f = top(s) as Extract<Frame, { t: 'accept' }>;
    expect(f.t).toBe('accept');
    const plain = game.rollAsk!(s)!;
    expect(plain.dice).toEqual([6, 6]);
    expect(plain.what).not.toMatch(/CC attached/);
    checkRollAt(s, seedrandom.alea('a'));
    // the CC attached to a unit of the recipient: +2 to the roll
    const cc = s.armies[f.side].cc;
    const e = s.elements.find((x) => x.id === f.to) ?? s.elements.find((x) => x.formation === f.to)!;
    const unit = e.units[0]!;
    const with2: S = {
      ...s,
      leaders: s.leaders.map((l) =>
        l.id === cc ? { ...l, attachedTo: unit, pos: s.units.find((u) => u.id === unit)!.pos } : l,
      ),
      units: s.units.map((u) => (u.id === unit ? { ...u, attachedLeader: cc } : u)),
    };
    expect(game.rollAsk!(with2)!.what).toMatch(/2D6 \+ 2 \(the CC attached, C2\)/);
    checkRollAt(with2, seedrandom.alea('b'));
    // a Superior army CC in contact: accepted without a roll
    const superior: S = {
      ...with2,
      leaders: with2.leaders.map((l) => (l.id === cc ? { ...l, command: 'superior', level: 'armyWing' } : l)),
    };
    expect(game.chanceOutcomes(superior).map((o) => o.action)).toEqual([`accept ${f.to} pass`]);
    expect(game.rollAsk!(superior)).toBeUndefined();
  });

  it('[S6, C7] the initiative: a tie is rolled again; [C9] where a skirmish hit falls is a draw', () => {
    const s0 = game.initialState(scenario('quick-test'));
    const s = push(s0, { t: 'initiative' });
    const ask = game.rollAsk!(s)!;
    expect(ask.dice).toEqual([6, 6, 6, 6]);
    const [x, y] = initiativeFactors(s);
    // equal totals tie and are refused (rolled again); a higher total wins
    const b2 = 7 + x.mod - y.mod;
    const tie = game.outcomeForFaces!(s, [3, 4, Math.min(6, b2 - 1), b2 - Math.min(6, b2 - 1)]);
    expect(tie).toEqual({ error: expect.stringMatching(/tie, rolled again/) });
    expect(game.outcomeForFaces!(s, [6, 6, 1, 1])).toEqual({ action: `initiative won by ${s.armies[0].name}` });
    expect(game.outcomeForFaces!(s, [1, 1, 6, 6])).toEqual({ action: `initiative won by ${s.armies[1].name}` });
    // a skirmish frame whose dice are rolled: where its hits fall is drawn, not rolled
    const a = s0.elements.find((e) => e.side === 0)!;
    const b = s0.elements.find((e) => e.side === 1)!;
    const bu = s0.units.filter((u) => u.element === b.id).map((u) => u.id);
    const sk = push(s0, {
      t: 'skirmish',
      fire: [{ from: a.id, at: b.id, points: 6, firers: [], targets: bu, hits: 2, hit: [] }],
    });
    expect(game.toMove(sk).kind).toBe('chance');
    expect(game.rollAsk!(sk)).toBeUndefined();
    // its D10 is rolled: the 5-6 column, a 10 gives 2 hits
    const d10 = push(s0, {
      t: 'skirmish',
      fire: [{ from: a.id, at: b.id, points: 6, firers: [], targets: bu, hits: null, hit: [] }],
    });
    expect(game.rollAsk!(d10)!.dice).toEqual([10]);
    expect(game.outcomeForFaces!(d10, [10])).toEqual({ action: `skirmish ${a.id} 2 hits` });
    expect(game.outcomeForFaces!(d10, [1])).toEqual({ action: `skirmish ${a.id} 0 hits` });
  });
});
