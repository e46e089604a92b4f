/**
 * Napoleon's Eagles: the optional caissons [p.11], written orders and their misreads [p.17-18] and fires in buildings
 * [p.20], played through the registered game with the book's numbers; each rule's effect is shown against the
 * same position without it.
 */
import { describe, expect, it } from 'vitest';
import { checkedGames, type Json, kleinau, playInto, scenarioOf, setUnits, top } from '../../../test/ne-fixtures.ts';
import type { GameEvent } from '../../core/game.ts';
import { resolveFire } from './fire.ts';
import { napoleonsEagles as game } from './index.ts';
import { type Frame, runtime, type SeqState, unitOf } from './turn.ts';

/** The state with `frames` as its stack (the last on top), settled: a position at a chosen step. */
const at = (s: SeqState, ...frames: Frame[]): SeqState => runtime.settle({ ...s, stack: frames, sideA: 0 });
const probs = (s: SeqState) => Object.fromEntries(game.chanceOutcomes(s).map((o) => [o.action, o.p]));

// ---------------------------------------------------------------------------------------------------------------------

describe('caissons [p.11]', () => {
  const withCaisson = (j: Json) => {
    j.options.caissons = true;
    // F4 (a French battery at 25,6 facing north) is out of ammunition; a caisson stands 5" behind it
    j.sides[0].units.find((u: Json) => u.id === 'F4').ammo = 3;
    j.sides[0].caissons = [{ id: 'CF', x: 25, y: 0.5, facing: 0 }];
  };

  it('comes up in step 8, resupplies the battery over the next whole period (it does nothing else), then is spent', () => {
    // (the battery out of ammunition: the scenario's `ammo: 3`, which the initial state takes)
    const s0 = kleinau(withCaisson);
    expect(unitOf(s0, 'F4').ammo).toBe(3);
    const s = at(s0, { t: 'caisson', id: 'CF' });
    expect(game.legalActions(s)).toEqual(['stay', 'serve F4']);
    const ev: GameEvent[] = [];
    const t = playInto({ ...s, period: 4 }, ev, 'serve F4');
    expect(t.caissons![0]).toMatchObject({ servicing: 'F4', since: 4 });
    expect(ev.some((e) => e.rule === 'p.11' && /starts resupplying/.test(e.text))).toBe(true);
    // period 5: the battery's activation is END alone
    const p5 = { ...t, period: 5, stack: [] };
    expect(game.legalActions(at(p5, { t: 'act', unit: 'F4' }))).toEqual(['end']);
    // the end of period 5: replenished (may fire on period 6)
    const ev2: GameEvent[] = [];
    const e5 = runtime.settle({ ...p5, stack: [{ t: 'endPeriod' }], sideA: 0 }, ev2);
    expect(unitOf(e5, 'F4').ammo).toBe(0);
    expect(e5.caissons![0]!.status).toBe('spent');
    expect(ev2.some((e) => e.rule === 'p.11' && /has resupplied F4/.test(e.text))).toBe(true);
    // without the caisson the battery stays out of ammunition
    const none = runtime.settle({ ...s0, period: 5, stack: [{ t: 'endPeriod' }], sideA: 0 });
    expect(unitOf(none, 'F4').ammo).toBe(3);
  });

  it('a charged battery is not resupplied', () => {
    const s0 = setUnits(kleinau(withCaisson), { F4: { ammo: 3 } });
    const s = playInto({ ...at(s0, { t: 'caisson', id: 'CF' }), period: 4 }, undefined, 'serve F4');
    const charged: SeqState = {
      ...s,
      period: 5,
      closes: [{ charger: 'A1', defender: 'F4' } as SeqState['closes'][number]],
    };
    const ev: GameEvent[] = [];
    const e = runtime.settle({ ...charged, stack: [{ t: 'endPeriod' }], sideA: 0 }, ev);
    expect(unitOf(e, 'F4').ammo).toBe(3);
    expect(ev.some((x) => x.rule === 'p.11' && /was charged/.test(x.text))).toBe(true);
  });

  it('fired on: two casualties destroy it (exactly the chance of two or more)', () => {
    // A3 (an Austrian line) stands 4" in front of the caisson
    const s0 = kleinau(withCaisson);
    const s = setUnits(
      { ...s0, caissons: s0.caissons!.map((c) => ({ ...c, x: 10 * 100, y: 14 * 100 })) },
      { A3: { x: 10 * 100, y: 20 * 100 } },
    );
    const a = at(s, { t: 'act', unit: 'A3' });
    expect(game.legalActions(a)).toContain('fire CF 1');
    const f = playInto(a, undefined, 'fire CF 1');
    const frame = top(f) as Extract<Frame, { t: 'fire' }>;
    expect(frame.t).toBe('fire');
    const dist = resolveFire(frame.shot, f.sc.options).outcomes;
    const two = dist.filter((o) => o.value.targets[0]!.casualties >= 2).reduce((n, o) => n + o.p, 0);
    const gone = dist.filter((o) => o.value.targets[0]!.eliminated).reduce((n, o) => n + o.p, 0);
    expect(two).toBeGreaterThan(0);
    expect(gone).toBeCloseTo(two, 12);
    // one casualty already: any casualty destroys it
    const hit = playInto(
      { ...a, caissons: a.caissons!.map((c) => ({ ...c, hits: 1 })), units: [...a.units] },
      undefined,
      'fire CF 1',
    );
    const d1 = resolveFire((top(hit) as Extract<Frame, { t: 'fire' }>).shot, hit.sc.options).outcomes;
    for (const o of d1) expect(o.value.targets[0]!.eliminated).toBe(o.value.targets[0]!.casualties >= 1);
    // applying a destroying outcome takes it off the table
    const kill = d1.find((o) => o.value.targets[0]!.eliminated)!;
    const ev: GameEvent[] = [];
    const after = game.apply(
      hit,
      game.chanceOutcomes(hit).find((o) => o.p === kill.p && o.label === kill.label)!.action,
      ev,
    );
    expect(after.caissons![0]!.status).toBe('destroyed');
    expect(ev.some((e) => e.rule === 'p.11' && /destroyed/.test(e.text))).toBe(true);
  });

  it('charged by cavalry: captured and destroyed at once', () => {
    const s0 = kleinau(withCaisson);
    const s = setUnits(
      { ...s0, caissons: s0.caissons!.map((c) => ({ ...c, x: 40 * 100, y: 14 * 100 })) },
      { A5: { x: 40 * 100, y: 22 * 100 } },
    );
    const a = at(s, { t: 'act', unit: 'A5' });
    expect(game.legalActions(a)).toContain('charge CF');
    const ev: GameEvent[] = [];
    const t = playInto(a, ev, 'charge CF');
    expect(t.caissons![0]!.status).toBe('captured');
    expect(ev.some((e) => e.rule === 'p.11' && /captured and destroyed/.test(e.text))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('fires in buildings [p.20] (A-75)', () => {
  const burning = (wind: string, extra?: (j: Json) => void) => (j: Json) => {
    j.options.fires = true;
    j.windFrom = wind;
    j.terrain.find((t: Json) => t.id === 'V1').fires = 1;
    extra?.(j);
  };
  const endOf = (s: SeqState, ev?: GameEvent[]) => runtime.settle({ ...s, stack: [{ t: 'endPeriod' }], sideA: 0 }, ev);

  it('a burning block rolls at the period end: 14-18 accumulates, 19-20 accumulates and spreads downwind', () => {
    const s = endOf(kleinau(burning('S')));
    expect(top(s)).toEqual({ t: 'burn', block: 'V1' });
    expect(probs(s)).toEqual({ 'burn V1 1': 13 / 20, 'burn V1 2': 5 / 20, 'burn V1 2 spreads': 2 / 20 });
    // the wind from the south carries it to V2, north of V1
    const ev: GameEvent[] = [];
    const t = game.apply(s, 'burn V1 2 spreads', ev);
    expect(t.blockFires).toEqual({ V1: 2, V2: 1 });
    expect(ev.some((e) => e.rule === 'p.20' && /spreads downwind to V2/.test(e.text))).toBe(true);
    // from the west: nothing downwind
    const w = game.apply(endOf(kleinau(burning('W'))), 'burn V1 2 spreads');
    expect(w.blockFires).toEqual({ V1: 2 });
    // without the rule, the fire never grows
    const off = endOf(kleinau((j) => (j.terrain.find((t: Json) => t.id === 'V1').fires = 1)));
    expect(off.stack.some((f) => f.t === 'burn')).toBe(false);
  });

  it('figures that did nothing put fires out (one D20 per four, a 20 each) before the fires grow', () => {
    const s0 = setUnits(kleinau(burning('W')), { A1: { inBlocks: { V2: 8 } } });
    // side A (the first side here) has no one in the town: side D's crews
    const c = endOf(s0);
    expect(top(c)).toEqual({ t: 'crews', p: 1 });
    expect(game.legalActions(c)).toEqual(['crews done', 'extinguish V1 by A1 in V2', 'set fire V2 by A1']);
    // (its one group set, nothing is left to set: the frame is done)
    const e = playInto(c, undefined, 'extinguish V1 by A1 in V2');
    expect(top(e)).toEqual({ t: 'extinguish', block: 'V1' });
    expect(probs(e)['extinguish V1 1']).toBeCloseTo(361 / 400, 12);
    expect(probs(e)['extinguish V1 0']).toBeCloseTo(39 / 400, 12);
    // put out: nothing left to burn
    const out = game.apply(e, 'extinguish V1 0');
    expect(out.blockFires?.V1).toBe(0);
    expect(out.stack.some((f) => f.t === 'burn')).toBe(false);
    // a unit that acted this period may not
    const busy = endOf(setUnits(s0, { A1: { halves: 2 } }));
    expect(game.legalActions(busy)).toEqual(['crews done', 'set fire V2 by A1']);
  });

  it('soldiers start a fire on a 20 for every two figures; brick or stone −1', () => {
    const s0 = setUnits(kleinau(burning('W')), { A1: { inBlocks: { V2: 8 } } });
    const c = playInto(endOf(s0), undefined, 'set fire V2 by A1', 'burn V1 1');
    expect(top(c)).toEqual({ t: 'ignite', block: 'V2', source: 'soldiers', rolls: 4 });
    expect(probs(c)['ignite V2 1']).toBeCloseTo(1 - (19 / 20) ** 4, 12);
    const brick = setUnits(
      kleinau(
        burning('W', (j) => {
          j.terrain.find((t: Json) => t.id === 'V2').brickOrStone = true;
        }),
      ),
      { A1: { inBlocks: { V2: 8 } } },
    );
    const b = playInto(endOf(brick), undefined, 'set fire V2 by A1', 'burn V1 1');
    // a 20 less one is 19: no fire can start
    expect(probs(b)).toEqual({ 'ignite V2 0': 1 });
  });

  it("a battery's howitzers firing at a block roll the shell column (17-20) once each", () => {
    const s = at(kleinau(burning('W')), { t: 'ignite', block: 'V2', source: 'shell', rolls: 2 });
    expect(probs(s)['ignite V2 1']).toBeCloseTo(1 - (16 / 20) ** 2, 12);
  });

  it('three fires: no entry; with fireEvacuation a unit in the block must leave it when it activates', () => {
    const three = (evac: boolean) =>
      setUnits(
        kleinau(
          burning('W', (j) => {
            j.terrain.find((t: Json) => t.id === 'V2').fires = 3;
            j.options.fireEvacuation = evac;
          }),
        ),
        { A1: { inBlocks: { V2: 8 } } },
      );
    const keys = (s: SeqState) => game.legalActions(at(s, { t: 'act', unit: 'A1' }));
    const on = keys(three(true));
    expect(on.length).toBeGreaterThan(0);
    expect(on.every((k) => k.startsWith('leave '))).toBe(true);
    expect(keys(three(false)).some((k) => !k.startsWith('leave '))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('written orders [p.17] and misread orders [p.18]', () => {
  const written = (misread = false) =>
    kleinau((j) => {
      j.options.leaderInitiative = false;
      j.options.writtenOrders = true;
      j.options.misreadOrders = misread;
    });

  it("both sides write their divisions' orders sealed at the start; they take effect at once", () => {
    const s = written();
    expect(top(s)).toMatchObject({ t: 'orders', first: true });
    const keys = game.legalActions(s);
    expect(keys.every((k) => k.startsWith('order L-F1 '))).toBe(true);
    expect(keys).toEqual(
      expect.arrayContaining(['order L-F1 attack obj-V1', 'order L-F1 reserve', 'order L-F1 withdraw']),
    );
    const t = playInto(s, undefined, 'order L-F1 attack obj-V1', 'order L-A1 defend here');
    expect(t.orders?.['L-F1']).toEqual({ order: 'Attack', target: 'obj-V1' });
    expect(t.orders?.['L-A1']?.order).toBe('Defend');
    expect(top(t)?.t).toBe('bid');
  });

  it('a reserve may not move; it turns to Defend/Hold when an enemy comes within 24"', () => {
    // the Austrians routed but A4: no enemy within 24" of the French yet
    const far = setUnits(written(), {
      A1: { status: 'routed' },
      A2: { status: 'routed' },
      A3: { status: 'routed' },
      A5: { status: 'routed' },
      A4: { x: 44 * 100, y: 33 * 100 },
    });
    const t = playInto(far, undefined, 'order L-F1 reserve', 'order L-A1 defend here');
    expect(t.orders?.['L-F1']?.order).toBe('Reserve');
    const keys = game.legalActions(at(t, { t: 'act', unit: 'F1' }));
    expect(keys.some((k) => /^(move|road|charge) /.test(k))).toBe(false);
    expect(keys).toContain('end');
    // without written orders F1 moves
    const free = game.legalActions(at(far, { t: 'act', unit: 'F1' }));
    expect(free.some((k) => k.startsWith('move '))).toBe(true);
    // at Kleinau's start the Austrians are within 24": the reserve turns to Defend at once
    const ev: GameEvent[] = [];
    const near = playInto(written(), ev, 'order L-F1 reserve', 'order L-A1 defend here');
    expect(near.orders?.['L-F1']?.order).toBe('Defend');
    expect(ev.some((e) => e.rule === 'p.17' && /Defend\/Hold/.test(e.text))).toBe(true);
  });

  it('an attack not yet committed must spend its first action moving toward its objective; a withdrawal away', () => {
    const s = playInto(written(), undefined, 'order L-F1 attack obj-V1', 'order L-A1 withdraw');
    const f1 = game.legalActions(at(s, { t: 'act', unit: 'F1' }));
    expect(f1).not.toContain('end');
    expect(f1.every((k) => /^(move forward 1 |road 1 |charge |form |face |about face$|plan )/.test(k))).toBe(true);
    // A1 faces the French: it turns about first, then moves away
    const a1 = game.legalActions(at(s, { t: 'act', unit: 'A1' }));
    expect(a1).not.toContain('end');
    expect(a1.some((k) => k.startsWith('charge ') || k.startsWith('fire '))).toBe(false);
    const room = setUnits(s, { A1: { y: 24 * 100 } });
    const turned = playInto(at(room, { t: 'act', unit: 'A1' }), undefined, 'about face');
    const away = game.legalActions(turned).filter((k) => k.startsWith('move '));
    expect(away.length).toBeGreaterThan(0);
    // with the rule off both may end at once
    const off = kleinau((j) => (j.options.leaderInitiative = false));
    expect(game.legalActions(at(off, { t: 'act', unit: 'F1' }))).toContain('end');
  });

  it('a change takes 1D6 + modifiers periods (1 or less: the next); misreads on 19-20 by the table', () => {
    let s = playInto(written(true), undefined, 'order L-F1 attack obj-V1', 'order L-A1 defend here');
    // to the next period's step 0 (the bids and activations of period 1 passed over)
    s = runtime.settle({ ...s, stack: [], period: 2, sideA: null });
    expect(top(s)).toMatchObject({ t: 'orders', first: false });
    expect(game.legalActions(s)[0]).toBe('order L-F1 keep');
    const ch = playInto(s, undefined, 'order L-F1 defend here', 'order L-A1 keep');
    // French −1; the leaders within 2" −2: D6 − 3, 1 or less the next period
    expect(top(ch)).toMatchObject({ t: 'orderDelay', division: 'L-F1' });
    expect(probs(ch)).toEqual({ 'delay L-F1 1': 4 / 6, 'delay L-F1 2': 1 / 6, 'delay L-F1 3': 1 / 6 });
    const d = game.apply(ch, 'delay L-F1 2');
    expect(d.pendingOrders).toEqual([{ division: 'L-F1', order: expect.objectContaining({ order: 'Defend' }), at: 4 }]);
    // period 3: still on its way (the French may only keep)
    const p3 = runtime.settle({ ...d, stack: [], period: 3, sideA: null });
    expect(game.legalActions(p3)).toEqual(['order L-F1 keep']);
    // period 4: it arrives; the misread D20 (19-20), then the D6 on the Defend row: W M A A A A
    const p4 = runtime.settle({ ...p3, stack: [], period: 4, sideA: null, ordersAt: undefined });
    expect(top(p4)).toMatchObject({ t: 'misread', division: 'L-F1' });
    expect(probs(p4)).toEqual({
      'misread L-F1 asWritten': 18 / 20,
      'misread L-F1 W': 2 / 20 / 6,
      'misread L-F1 M': 2 / 20 / 6,
      'misread L-F1 A': (2 / 20) * (4 / 6),
    });
    const ev: GameEvent[] = [];
    const w = game.apply(p4, 'misread L-F1 W', ev);
    expect(w.orders?.['L-F1']).toMatchObject({ order: 'Withdraw', until: 9 });
    expect(ev.some((e) => e.rule === 'p.18')).toBe(true);
    // without misreads the order takes effect as written
    const plain = runtime.settle({
      ...written(),
      orders: { 'L-F1': { order: 'Attack', target: 'obj-V1' }, 'L-A1': { order: 'Defend' } },
      pendingOrders: [{ division: 'L-F1', order: { order: 'Reserve' }, at: 1 }],
      ordersAt: undefined,
      stack: [],
    });
    expect(plain.orders?.['L-F1']?.order).not.toBe('Attack');
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('all three together', () => {
  const allOn = (j: Json) => {
    Object.assign(j.options, {
      caissons: true,
      writtenOrders: true,
      misreadOrders: true,
      fires: true,
      fireEvacuation: true,
    });
    j.sides[0].caissons = [{ id: 'C-F1', x: 25, y: 2, facing: 0 }];
    j.sides[1].caissons = [{ id: 'C-A1', x: 38, y: 33, facing: 180 }];
    j.terrain.find((t: Json) => t.id === 'V1').fires = 1;
  };

  it('random games keep the Game contract at every step, to the end (the conformance checker)', () => {
    checkedGames(
      () => scenarioOf('the-mill-at-kleinau', allOn),
      'optional3',
      3,
      (g) => (g === 2 ? ['heuristic', 'random'] : ['random', 'random']),
    );
  });
});
