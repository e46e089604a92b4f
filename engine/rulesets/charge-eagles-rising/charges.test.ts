/**
 * Charge! Eagles Rising charges (charges.ts): T2b declarations with the frontage limit, the digest §11 square test
 * (F2a charging B1a in Line from 8" → number 6: hasty on ≥ 6, solid on ≥ 10), a square pull-up, an evade and a
 * pursuit into a new target, an opportunity charge (C8) with its −2 test and "failure = disordered but it still
 * charges", all played through the procedure (rules.ts `cer`) on The Chapel Crossroads.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../core/game.ts';
import { IN } from '../../geometry/geometry.ts';
import { afterEnemyMove, beginCharges, frontageAllows, squareNumber } from './charges.ts';
import { cer } from './rules.ts';
import { at, done, order, play, rollOn, tacticalState } from './charges.fixture.ts';
import { type S, unitOf, updUnit } from './state.ts';
import type { UnitState } from './types.ts';

const top = (s: S) => s.stack[s.stack.length - 1]!;

/** F2 on Attack, F2a (armored cuirassiers, line) 8" in front of B1a (British line facing south). */
function cuirassiersAtB1a(): S {
  let s = order(tacticalState(0), 'F2', 'attack');
  // B1a: line 6" × 1" at (18, 36) facing 180: its front edge at y 35.5; F2a line 6" × 1.25" facing 0
  s = at(s, 'F2a', 18, 35.5 - 8 - 0.625, 0);
  return cer.settle(beginCharges(s, 0, []));
}

describe('T2b declarations', () => {
  it('F2a may charge B1a from 8" on Attack orders, not on its Advance orders (C2)', () => {
    const s = cuirassiersAtB1a();
    expect(top(s).t).toBe('declareCharges');
    expect(cer.legalActions(s)).toContain('charge F2a B1a');
    const adv = at(tacticalState(0), 'F2a', 18, 35.5 - 8 - 0.625, 0);
    expect(beginCharges(adv, 0, [])).toBe(adv); // no unit may charge: unchanged
  });

  it('out of reach without double quick: `dq` is offered only when needed (+8" mounted)', () => {
    let s = order(tacticalState(0), 'F2', 'attack');
    // medium dragoons in column: 14"; 16" away needs the double quick
    s = at(s, 'F2b', 18, 35.5 - 16 - 1.25, 0);
    s = cer.settle(beginCharges(s, 0, []));
    expect(cer.legalActions(s)).toContain('charge F2b B1a dq');
    expect(cer.legalActions(s)).not.toContain('charge F2b B1a');
  });

  it('frontage limit: a line takes at most two frontal chargers unless extra large [CAC Modifiers *]', () => {
    const three = (figures: number) => {
      let s = order(order(tacticalState(0), 'F2', 'attack'), 'F1', 'attack');
      // B1a in a 2-rank line of `figures`: 40 → 20 front figures, 10" wide (large); 41 → 10.5" (extra large)
      s = updUnit(s, 'B1a', { figures, figuresStart: figures } as Partial<UnitState>);
      s = at(s, 'F1a', 17, 35.5 - 3 - 1.5, 0);
      s = at(s, 'F1b', 20.5, 35.5 - 3 - 1.5, 0);
      s = at(s, 'F2b', 14, 35.5 - 5 - 1.25, 0);
      s = cer.settle(beginCharges(s, 0, []));
      expect(cer.legalActions(s)).toContain('charge F2b B1a');
      s = play(s, 'charge F1a B1a');
      expect(cer.legalActions(s)).toContain('charge F2b B1a');
      s = play(s, 'charge F1b B1a');
      return s;
    };
    const large = three(40);
    expect(cer.legalActions(large)).not.toContain('charge F2b B1a');
    expect(frontageAllows(large, unitOf(large, 'F2b'), unitOf(large, 'B1a'))).toBe(false);
    expect(large.tactical!.charges.map((c) => c.charger)).toEqual(['F1a', 'F1b']);
    const xl = three(41);
    expect(cer.legalActions(xl)).toContain('charge F2b B1a');
  });

  it('frontage limit: "a unit in line" is cavalry in line too', () => {
    let s = order(tacticalState(0), 'F1', 'attack');
    // B2a, light dragoons in a 6" line at (30, 30) facing south; F1a's and F1b's 2" columns 3" in front of it
    s = at(s, 'B2a', 30, 30, 180);
    s = at(s, 'F1a', 28, 30 - 0.625 - 3 - 1.5, 0);
    s = at(s, 'F1b', 32, 30 - 0.625 - 3 - 1.5, 0);
    s = at(s, 'F1c', 4, 4, 0);
    s = cer.settle(beginCharges(s, 0, []));
    expect(cer.legalActions(s)).toContain('charge F1b B2a');
    s = play(s, 'charge F1a B2a');
    expect(cer.legalActions(s)).toContain('charge F1b B2a'); // 2" + 1" + 2" fit its 6"
    s = play(s, 'charge F1b B2a');
    s = at(s, 'F2b', 30, 30 - 0.625 - 6 - 1.25, 0);
    expect(frontageAllows(s, unitOf(s, 'F2b'), unitOf(s, 'B2a'))).toBe(false); // a third frontal charger
  });

  it('frontage: the chargers must fit the target\'s frontage (columns whole, a 1.5" stand gap to cavalry)', () => {
    let s = order(order(tacticalState(0), 'F2', 'attack'), 'F1', 'attack');
    // B1a 6" wide: F1a's 2" column + 1.5" gap + F2b's 3" column = 6.5" > 6"
    s = at(s, 'F1a', 17, 35.5 - 3 - 1.5, 0);
    s = at(s, 'F2b', 14, 35.5 - 5 - 1.25, 0);
    s = play(cer.settle(beginCharges(s, 0, [])), 'charge F1a B1a');
    expect(cer.legalActions(s)).not.toContain('charge F2b B1a');
  });
});

describe('§11: F2a charges B1a in Line from 8" away', () => {
  it('the square test number is 7 − 1 (Linear line) + 0 (5-12") = 6: hasty on ≥ 6, solid on ≥ 10', () => {
    let s = play(cuirassiersAtB1a(), 'charge F2a B1a');
    s = done(s);
    expect(top(s).t).toBe('reactions');
    expect(cer.legalActions(s)).toEqual(['react B1a stand', 'react B1a square']);
    s = play(s, 'react B1a square');
    expect(top(s)).toEqual({ t: 'squareTest', unit: 'B1a', beganAt: 800 });
    expect(squareNumber(s, 'B1a', 800)).toBe(6);
    const p = Object.fromEntries(cer.chanceOutcomes(s).map((o) => [o.action, o.p * 36]));
    expect(p['square B1a solid']).toBeCloseTo(6); // 2D6 ≥ 10
    expect(p['square B1a hasty']).toBeCloseTo(20); // 6 … 9
    expect(p['square B1a hastyDisordered']).toBeCloseTo(10); // < 6
    s = play(s, 'square B1a solid');
    expect(unitOf(s, 'B1a').formation).toBe('solidSquare');
  });

  it('forming square against a charge begun in the flank: + 2 ("Formation change vs flank/rear charge")', () => {
    let s = order(tacticalState(0), 'F2', 'attack');
    // B1a's line is 6" wide at (18, 36) facing south: F2a 8" off its east flank, facing west
    s = at(s, 'F2a', 21 + 8 + 0.625, 36, 270);
    s = done(play(cer.settle(beginCharges(s, 0, [])), 'charge F2a B1a'));
    expect(cer.legalActions(s)).toContain('react B1a square');
    s = play(s, 'react B1a square');
    const began = (top(s) as { beganAt: number }).beganAt;
    expect(began).toBe(800);
    expect(squareNumber(s, 'B1a', began)).toBe(6 + 2); // the §11 number 6, from the flank + 2
  });

  it('a square pull-up: passed, F2a returns to where it began, neither disordered nor blown', () => {
    let s = play(done(play(cuirassiersAtB1a(), 'charge F2a B1a')), 'react B1a square');
    const from = unitOf(s, 'F2a').pos;
    s = play(s, 'square B1a hasty');
    s = rollOn(s, ['hits B1a F2a 0', 'hits B1c F2a 0']);
    expect(top(s).t).toBe('pullUp');
    expect(cer.legalActions(s)).toEqual(['pull up F2a', 'charge home F2a']);
    expect(unitOf(s, 'F2a').pos.y).toBeGreaterThan(from.y + 5.5 * IN); // it closed to 1" of the square
    s = play(s, 'pull up F2a');
    // Elite 5, French pull-up −2, out of its leader's range +2 (C2): 5
    expect(cer.describe(s)).toContain('2D6 ≥ 5');
    const log: GameEvent[] = [];
    s = play(s, 'test F2a pullUpSquare pass', log);
    const f = unitOf(s, 'F2a');
    expect([f.pos, f.disordered, f.kind === 'cavalry' && f.blown]).toEqual([from, false, false]);
    expect(log.some((e) => e.rule === 'Cavalry Pull Up/Recall')).toBe(true);
    expect(top(s).t).toBe('orders'); // no CAC: the charges are done
  });

  it('a failed pull-up charges home: a CAC against the hasty square (+5)', () => {
    let s = play(done(play(cuirassiersAtB1a(), 'charge F2a B1a')), 'react B1a square');
    s = rollOn(play(s, 'square B1a hasty'), ['hits B1a F2a 0', 'hits B1c F2a 0']);
    s = play(play(s, 'pull up F2a'), 'test F2a pullUpSquare fail');
    expect(top(s)).toMatchObject({ t: 'cac', attackers: ['F2a'], defenders: ['B1a'], second: false });
    expect(cer.describe(s)).toContain('(2D6 + 11)'); // B1a: 6 + hasty square 5
  });
});

describe('evade and pursuit [Movement notes]', () => {
  function dragoonsAtLightDragoons(): S {
    let s = order(tacticalState(0), 'F2', 'attack');
    s = at(s, 'B2a', 42, 30, 180);
    s = at(s, 'F2b', 42, 22, 0);
    return cer.settle(beginCharges(s, 0, []));
  }
  it('B2a evades straight back; F2b may pull up, take position or pursue into a new target within 22.5°', () => {
    let s = play(dragoonsAtLightDragoons(), 'charge F2b B2a');
    s = done(s);
    expect(cer.legalActions(s)).toEqual(['react B2a stand', 'react B2a counter-charge', 'react B2a evade']);
    s = play(s, 'react B2a evade');
    s = rollOn(s);
    expect(top(s).t).toBe('afterEvade');
    const b2a = unitOf(s, 'B2a');
    expect(b2a.pos.x).toBe(42 * IN);
    expect(b2a.pos.y).toBeGreaterThan(34 * IN); // back, stopped short of B1d on the rise
    const opts = cer.legalActions(s);
    expect(opts).toContain('pull up F2b'); // began 6.1" away: less than half its 14"
    expect(opts).toContain('take position F2b');
    expect(opts).toContain('pursue F2b');
    expect(opts).toContain('pursue F2b B2a');
    s = play(s, 'pursue F2b B2a');
    expect(top(s)).toMatchObject({ t: 'cac', attackers: ['F2b'], defenders: ['B2a'] });
    // "(D & B at end of move)": the pursuit's move ends at the contact, so F2b fights disordered and blown
    expect(unitOf(s, 'F2b')).toMatchObject({ disordered: true, blown: true });
    // F2b: Regular 6 + charging 1 + medium 1 − disordered 2 − blown 2 = 4; B2a at the halt: Regular 6 − 2 + its 6"
    // line against a 3" column +2
    expect(cer.describe(s)).toBe(
      'close assault: dragoons (2D6 + 4) against light dragoons (2D6 + 6) [Close Assault Combat]',
    );
  });
  it('take position after a long charge: disordered (it moved more than half its move)', () => {
    let s = order(tacticalState(0), 'F2', 'attack');
    s = at(s, 'B2a', 42, 30, 180);
    s = at(s, 'F2b', 42, 19, 0);
    s = cer.settle(beginCharges(s, 0, []));
    s = play(done(play(s, 'charge F2b B2a')), 'react B2a evade');
    s = rollOn(s);
    expect(cer.legalActions(s)).not.toContain('pull up F2b');
    s = play(s, 'take position F2b');
    expect(unitOf(s, 'F2b').disordered).toBe(true);
    expect(unitOf(s, 'F2b').pos.y).toBeGreaterThan(27 * IN);
  });
});

describe('opportunity charges (C8)', () => {
  it('B2a (Hold) op-charges F1b after its move: the moved unit reacts at once; resolved in T2e with the −2 test', () => {
    let s = order(tacticalState(0), 'B2', 'hold');
    s = at(s, 'F1b', 10, 33, 0, { phase: { ...unitOf(s, 'F1b').phase, moved: true } });
    const none = afterEnemyMove(order(s, 'B2', 'reserve'), 'F1b', []);
    expect(none.stack.length).toBe(1); // Reserve permits no op-charge
    s = cer.settle(afterEnemyMove(s, 'F1b', []));
    expect(cer.legalActions(s)).toEqual(['op-charge B2a F1b', 'no op-charge']);
    s = play(s, 'op-charge B2a F1b');
    expect(cer.legalActions(s)).toEqual(['react F1b stand', 'react F1b square']);
    s = play(s, 'react F1b stand');
    expect(top(s).t).toBe('orders');
    expect(s.tactical!.charges).toMatchObject([
      { charger: 'B2a', target: 'F1b', opportunity: true, stage: 'declared' },
    ]);
    // T2e with the French charges (none declared)
    s = cer.settle(beginCharges(s, 0, []));
    s = done(s);
    s = play(s, 'hits F1b B2a 0');
    expect(top(s)).toMatchObject({ t: 'chargeTest', unit: 'B2a', reason: 'closing' });
    // Regular 7 − cavalry charging 2 = 5
    expect(cer.describe(s)).toContain('2D6 ≥ 5');
    s = play(s, 'test B2a closing fail');
    expect(unitOf(s, 'B2a').disordered).toBe(true);
    expect(top(s)).toMatchObject({ t: 'cac', attackers: ['B2a'], defenders: ['F1b'] });
  });
});

describe('T2e: closing fire and the guns', () => {
  it('KIAs from closing fire feed the one combined closing test (C11): Elite 5 − 2 charging + 2 out of command + 2 KIA = 7', () => {
    let s = play(done(play(cuirassiersAtB1a(), 'charge F2a B1a')), 'react B1a stand');
    expect(top(s)).toMatchObject({ t: 'volley', firer: 'B1a', target: 'F2a', kind: 'closing' });
    s = play(s, 'hits B1a F2a 2');
    while (top(s).t === 'volley') s = play(s, `hits ${(top(s) as { firer: string }).firer} F2a 0`);
    expect(top(s)).toMatchObject({ t: 'chargeTest', unit: 'F2a', reason: 'closing', kias: 2 });
    expect(cer.describe(s)).toContain('2D6 ≥ 7');
    expect((unitOf(s, 'F2a') as UnitState & { figures: number }).figures).toBe(10);
    s = play(s, 'test F2a closing fail'); // cavalry: disordered, but it still charges
    expect(top(s)).toMatchObject({ t: 'cac', attackers: ['F2a'], defenders: ['B1a'] });
    expect(unitOf(s, 'F2a').disordered).toBe(true);
  });

  it("a unit gives closing fire once in the phase's charges, however many of its friends are charged [T2c]", () => {
    let s = order(tacticalState(0), 'F1', 'attack');
    // F1a and F1b charge B1a and B1b (their lines at x 18 and 30); the riflemen (B1c) in the hamlet between them can
    // reach both chargers: they fire at the first charged unit's chargers, not again at the second's
    s = at(s, 'F1a', 18, 35.5 - 3 - 1.5, 0);
    s = at(s, 'F1b', 30, 35.5 - 3 - 1.5, 0);
    s = cer.settle(beginCharges(s, 0, []));
    s = done(play(play(s, 'charge F1a B1a'), 'charge F1b B1b'));
    const log: GameEvent[] = [];
    for (let i = 0; i < 60 && top(s).t !== 'cac' && top(s).t !== 'orders'; i++) {
      const a = cer.toMove(s).kind === 'chance' ? cer.chanceOutcomes(s)[0]!.action : cer.legalActions(s)[0]!;
      s = cer.apply(s, a, log);
    }
    const volleys = log.filter((e) => e.rule === 'T2e' && e.text.startsWith('defensive fire'));
    expect(volleys.length).toBe(2); // one for each charged unit's chargers
    const firedBy = (id: string) => volleys.filter((e) => e.text.includes(unitOf(s, id).name)).length;
    expect(firedBy('B1c')).toBe(1);
  });

  it('a charged battery supported only by cavalry does not fire; supported by infantry, it does [T2b]', () => {
    // B1d (3" wide, at (38, 39) facing south) charged by F2a from 8"; its supporter stands 0.5" off its east side
    const closing = (supporter: 'B2a' | 'B1a') => {
      let s = order(tacticalState(0), 'F2', 'attack');
      s = at(s, 'F2a', 38, 39 - 0.75 - 8 - 0.625, 0);
      s = at(s, 'B1b', 10, 44, 180); // out of the way
      s = at(s, supporter, 39.5 + 0.5 + 3, 39, 180);
      s = done(play(cer.settle(beginCharges(s, 0, [])), 'charge F2a B1d'));
      const log: GameEvent[] = [];
      s = play(s, 'react B1d stand', log);
      for (let i = 0; i < 40 && top(s).t !== 'cac' && top(s).t !== 'orders'; i++) {
        const a = cer.toMove(s).kind === 'chance' ? cer.chanceOutcomes(s)[0]!.action : cer.legalActions(s)[0]!;
        s = cer.apply(s, a, log);
      }
      return log.filter((e) => e.text.includes('gives closing fire')).map((e) => e.text.split(' ')[0]);
    };
    expect(closing('B1a')).toEqual(['B1a', 'B1d']);
    expect(closing('B2a')).toEqual([]); // the light dragoons cannot fire; the battery may not
  });

  it('gunners abandon their guns and evade to formed infantry: the charger reaches the guns and captures them (C8)', () => {
    let s = order(tacticalState(0), 'F2', 'attack');
    // B1d: 6 guns unlimbered (3" × 1.5") at (38, 39) facing south on the rise; B1b's line 3.5" to its west
    s = at(s, 'F2a', 38, 39 - 0.75 - 8 - 0.625, 0);
    s = play(cer.settle(beginCharges(s, 0, [])), 'charge F2a B1d');
    s = done(s);
    expect(cer.legalActions(s)).toEqual(['react B1d stand', 'react B1d abandon B1b']);
    s = play(s, 'react B1d abandon B1b');
    s = rollOn(s);
    expect(unitOf(s, 'B1d').status).toBe('captured');
    expect(top(s).t).toBe('afterEvade');
    expect(cer.legalActions(s)).not.toContain('pull up F2a'); // it began 8" away: not less than half its 12"
  });
});
