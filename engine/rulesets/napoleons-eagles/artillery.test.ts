/**
 * Napoleon's Eagles: the artillery rules wired into the game [p.8-11], played through the registered game on the
 * shipped quick-test scenario (variants built here): rapid fire [p.10], the book's artillery example [p.9] and the
 * digest's vectors with howitzer shell [p.10], the ground a ball bounces over, crew hits kept until
 * neutralisation, massed guns [p.10]; and the leader's influence on a threshold roll [p.11] (note 1). Then whole
 * random games on both scenarios under the conformance checker.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import {
  checkedGames,
  type Json,
  play,
  quick,
  scenarioOf,
  setUnits,
  top,
  withEvents,
} from '../../../test/ne-fixtures.ts';
import { neEncoding, stateBlock } from './encoding.ts';
import { casualtyMarginal, resolveFire } from './fire.ts';
import { napoleonsEagles as game } from './index.ts';
import { footprint } from './shape.ts';
import { internals, type SeqState, type SeqUnit, unitOf } from './turn.ts';

/** Period 1 with side A (French) first: QA activated, then `keys` played. */
const qaActivated = (s: SeqState, ...keys: string[]) => play(s, 'bid 1', 'bid 0', 'be A', 'activate QA', ...keys);
const fireFrame = (s: SeqState) => {
  const f = top(s);
  if (f?.t !== 'fire') throw new Error(`a fire frame, not ${f?.t}`);
  return f;
};
const marginal = (s: SeqState, id: string) =>
  Object.fromEntries(
    casualtyMarginal(resolveFire(fireFrame(s).shot, s.sc.options), id).map((d) => [d.value, d.p] as const),
  );

describe("Napoleon's Eagles: rapid fire [p.10]", () => {
  // QA (8-9lb, six cannons and two howitzers, B16B25) at (18, 5) facing north; B1 brought 3" in front of it
  const near = (patch: Partial<SeqUnit> = {}) => {
    const s = quick();
    const qa = unitOf(s, 'QA');
    return setUnits(s, { B1: { x: qa.x, y: qa.y + 350, facing: 180 }, QA: patch });
  };

  it('a battery at Normal fatigue may declare it: casualties doubled, fatigue +3, the ammunition dice doubled', () => {
    const t = qaActivated(near());
    expect(game.legalActions(t)).toEqual(expect.arrayContaining(['canister B1 1', 'canister B1 1 rapid']));
    const normal = marginal(play(t, 'canister B1 1'), 'B1');
    const rapidAt = play(t, 'canister B1 1 rapid');
    const rapid = marginal(rapidAt, 'B1');
    // every casualty count doubled, with the same chance
    for (const [k, p] of Object.entries(normal)) expect(rapid[2 * Number(k)]).toBeCloseTo(p, 12);
    expect(Object.keys(rapid).every((k) => Number(k) % 2 === 0)).toBe(true);
    // [p.11] two ammunition dice for one action: no six with (5/6)²
    const r = resolveFire(fireFrame(rapidAt).shot, rapidAt.sc.options);
    const noSix = r.outcomes.filter((o) => o.value.ammo!.sixes === 0).reduce((a, o) => a + o.p, 0);
    expect(noSix).toBeCloseTo(25 / 36, 12);
    const { t: after, events } = withEvents(rapidAt, game.chanceOutcomes(rapidAt)[0]!.action);
    expect(unitOf(after, 'QA').fatigue).toBe(3); // Normal → Exhausted
    expect(events.some((e) => e.rule === 'p.10' && /rapid fire.*fatigue 0 → 3/.test(e.text))).toBe(true);
  });

  it('not when the battery is fatigued, nor in heavy rain [p.20]', () => {
    const t = qaActivated(near({ fatigue: 1 }));
    expect(game.legalActions(t)).toContain('canister B1 1');
    expect(game.legalActions(t).some((a) => a.endsWith(' rapid'))).toBe(false);
    const wet = quick((j) => {
      j.options = { ...(j.options ?? {}), weather: true };
      j.weather = 'heavyRain';
    });
    const qa = unitOf(wet, 'QA');
    const w = qaActivated(setUnits(wet, { B1: { x: qa.x, y: qa.y + 350, facing: 180 } }));
    expect(game.legalActions(w)).toContain('canister B1 1');
    expect(game.legalActions(w).some((a) => a.endsWith(' rapid'))).toBe(false);
  });
});

describe("Napoleon's Eagles: solid shot in the game [p.8-10]", () => {
  // the book's battery: French 12lb, six cannons and two howitzers, fire B
  const twelve = (edit?: (j: Json) => void) =>
    quick((j) => {
      const qa = j.sides[0].units.find((u: Json) => u.id === 'QA');
      qa.calibre = '12lb';
      qa.rating = 'B16B25';
      edit?.(j);
    });

  it('the p.9 example: a line 14" off and a column 4" behind it in the 10" bounce; howitzers add nothing', () => {
    const s = twelve();
    const qa = unitOf(s, 'QA');
    // B1 a line 14" in front of the guns (medium), B2 a column 18" away
    const t = qaActivated(
      setUnits(s, {
        B1: { x: qa.x, y: qa.y + 1400, facing: 180 },
        B2: { x: qa.x, y: qa.y + 1800, facing: 180, formation: 'column' },
      }),
      'shot B1 2',
    );
    const f = fireFrame(t);
    if (f.shot.type !== 'solidShot') throw new Error('solid shot');
    expect(f.shot.atRisk.map((x) => x.id)).toEqual(['B1', 'B2']);
    expect(f.shot.range).toBeCloseTo(14, 6);
    // B rating at medium range hits on 4, 5, 6: the line takes 6 a hit, the column 12 (dense, doubled);
    // the book's dice (5, 2: one hit, one casualty; 6, 5: two hits, 24 points, four casualties)
    expect(marginal(t, 'B1')).toEqual({ 0: 0.25, 1: 0.5, 2: 0.25 });
    expect(marginal(t, 'B2')).toEqual({ 0: 0.25, 2: 0.5, 4: 0.25 });
    const r = resolveFire(f.shot, t.sc.options);
    expect(r.rolls.find((x) => x.roll === 'hit:B1')!.damagePerHit).toBe(6);
    expect(r.rolls.find((x) => x.roll === 'hit:B2')!.damagePerHit).toBe(12);
    expect(r.rolls.find((x) => x.roll === 'ammo')!.dice).toBe(2); // then 2 ammunition dice
  });

  it('A-4: a lone column 18" off, one action: (6 + 2 × 2 howitzers) × 2 = 20 points: 3 casualties and a 2 in 6', () => {
    const s = twelve();
    const qa = unitOf(s, 'QA');
    const t = qaActivated(
      setUnits(s, { B2: { x: qa.x, y: qa.y + 1800, facing: 180, formation: 'column' } }),
      'shot B2 1',
    );
    // shell counts from 16" [p.10]: +2 damage for each howitzer on the first unit hit
    const m = marginal(t, 'B2');
    expect(Object.keys(m)).toEqual(['0', '3', '4']);
    expect(m[0]).toBeCloseTo(0.5, 12);
    expect(m[3]).toBeCloseTo(0.5 * (4 / 6), 12);
    expect(m[4]).toBeCloseTo(0.5 * (2 / 6), 12);
  });

  // A-46 the ground past the point of aim: B1 a line 11" in front of QA (8-9lb, medium: a bounce of 8"), B2 a column
  // 17" away, 6" past the aim point
  const bounceAt = (ground?: Json) => {
    const s = quick((j) => {
      if (ground) j.terrain.push(ground);
    });
    const qa = unitOf(s, 'QA');
    const t = qaActivated(
      setUnits(s, {
        B1: { x: qa.x, y: qa.y + 1100, facing: 180 },
        B2: { x: qa.x, y: qa.y + 1700, facing: 180, formation: 'column' },
      }),
      'shot B1 1',
    );
    const f = fireFrame(t);
    if (f.shot.type !== 'solidShot') throw new Error('solid shot');
    return f.shot.atRisk.map((x) => x.id);
  };

  it('over open ground the bounce carries into the column behind', () => {
    expect(bounceAt()).toEqual(['B1', 'B2']);
  });

  it('"no bounce through woods": the ball stops at the edge of woods between them (A-46)', () => {
    // a strip of light woods 2"-3.5" past the aim point
    expect(
      bounceAt({
        type: 'woods',
        id: 'W9',
        density: 'light',
        polygon: [
          [15, 18],
          [21, 18],
          [21, 19.5],
          [15, 19.5],
        ],
      }),
    ).toEqual(['B1']);
  });

  it('soft ground halves the bounce: mud from 1" past the aim point stops it 4.5" past (A-46: 2" of bounce an inch)', () => {
    // 1" of open ground, then 7" of bounce over mud: 3.5" more, the column's front 6" past is out of reach
    expect(
      bounceAt({
        type: 'mud',
        id: 'M9',
        polygon: [
          [15, 17],
          [21, 17],
          [21, 24],
          [15, 24],
        ],
      }),
    ).toEqual(['B1']);
    // mud from 3.5" past: 3.5" open, 4.5" of bounce left: 2.25" more, 5.75" in all, still short of 6"
    expect(
      bounceAt({
        type: 'mud',
        id: 'M9',
        polygon: [
          [15, 19.5],
          [21, 19.5],
          [21, 24],
          [15, 24],
        ],
      }),
    ).toEqual(['B1']);
    // mud from 5" past: 5" + 1.5" = 6.5" reaches the column
    expect(
      bounceAt({
        type: 'mud',
        id: 'M9',
        polygon: [
          [15, 21],
          [21, 21],
          [21, 24],
          [15, 24],
        ],
      }),
    ).toEqual(['B1', 'B2']);
  });
});

describe("Napoleon's Eagles: crew hits and neutralisation [p.10] (A-50)", () => {
  // B1 (British line, B17B45, muskets) put 2" in front of QA (8 guns), side A fires at it
  const facing = (patch: Partial<SeqUnit> = {}) => {
    const s = quick();
    const qa = unitOf(s, 'QA');
    return play(
      setUnits(s, { B1: { x: qa.x, y: qa.y + 250, facing: 180 }, QA: patch }),
      'bid 0',
      'bid 1',
      'be A',
      'activate B1',
      'fire QA 2',
    );
  };
  const withHits = (t: SeqState) =>
    game.chanceOutcomes(t).find((o) => {
      const v = JSON.parse(o.action.slice('fire '.length));
      return v.targets.some((e: { id: string; casualties: number }) => e.id === 'QA' && e.casualties > 0);
    })!;

  it('a battery hit keeps its guns: hits are counted, it fires on with all eight', () => {
    const t = facing();
    // the -3 for unlimbered artillery [p.10] is on the roll
    const r = resolveFire(fireFrame(t).shot, t.sc.options);
    expect(r.rolls[0]!.modifiers.some((m) => m.id === 'unlimberedArtillery' && m.value === -3)).toBe(true);
    const o = withHits(t);
    const cas = JSON.parse(o.action.slice('fire '.length)).targets[0].casualties;
    const { t: after, events } = withEvents(t, o.action);
    expect(unitOf(after, 'QA')).toMatchObject({ figures: 8, hits: cas, status: 'active' });
    expect(events.some((e) => e.rule === 'p.10' && e.text.startsWith(`QA takes ${cas} crew hit`))).toBe(true);
  });

  it('at hits equal to its guns it is neutralised: eliminated, its guns abandoned (scored as guns lost)', () => {
    const t = facing({ hits: 7 });
    const { t: after, events } = withEvents(t, withHits(t).action);
    expect(unitOf(after, 'QA')).toMatchObject({ figures: 8, status: 'eliminated', gunsLost: true });
    expect(events.some((e) => e.rule === 'p.10' && /neutralised.*A-50/.test(e.text))).toBe(true);
  });

  it('its morale counts the hits as figures lost (A-50): over half its guns hit, −3', () => {
    const s = setUnits(quick(), { QA: { hits: 5 } });
    expect(internals.moraleInput(s, 'QA')).toMatchObject({ originalFigures: 8, figures: 3 });
  });
});

describe("Napoleon's Eagles: a battery's ammunition and crew hits as the scenario gives them [p.10-11] (A-50)", () => {
  const qaWith = (ammo: number, hits: number) =>
    quick((j) =>
      Object.assign(
        j.sides[0].units.find((u: Json) => u.id === 'QA'),
        { ammo, hits },
      ),
    );
  const qaNearB1 = (s: SeqState) => {
    const qa = unitOf(s, 'QA');
    return setUnits(s, { B1: { x: qa.x, y: qa.y + 350, facing: 180 } });
  };

  it('the initial state takes them: its ammunition level and its hits so far', () => {
    expect(unitOf(quick(), 'QA')).toMatchObject({ ammo: 0, figures: 8, status: 'active' });
    expect(unitOf(quick(), 'QA').hits ?? 0).toBe(0);
    expect(unitOf(qaWith(2, 3), 'QA')).toMatchObject({ ammo: 2, hits: 3, figures: 8, originalFigures: 8 });
  });

  it('a battery that starts out of ammunition (3) cannot fire; at Very Low (2) it can', () => {
    const out = qaActivated(qaNearB1(qaWith(3, 0)));
    expect(game.legalActions(out).some((a) => /^(fire|canister) /.test(a))).toBe(false);
    const low = qaActivated(qaNearB1(qaWith(2, 0)));
    expect(game.legalActions(low)).toContain('canister B1 1');
  });

  it("a battery's starting hits count toward its neutralisation (A-50) and its morale [p.12]", () => {
    const s = qaWith(0, 7);
    // 7 of 8 guns: 1 left for morale, over half lost
    expect(internals.moraleInput(s, 'QA')).toMatchObject({ originalFigures: 8, figures: 1 });
    // one more hit neutralises it
    const qa = unitOf(s, 'QA');
    const t = play(
      setUnits(s, { B1: { x: qa.x, y: qa.y + 250, facing: 180 } }),
      'bid 0',
      'bid 1',
      'be A',
      'activate B1',
      'fire QA 2',
    );
    const hit = game.chanceOutcomes(t).find((o) => {
      const v = JSON.parse(o.action.slice('fire '.length));
      return v.targets.some((e: { id: string; casualties: number }) => e.id === 'QA' && e.casualties > 0);
    })!;
    const { t: after, events } = withEvents(t, hit.action);
    expect(unitOf(after, 'QA')).toMatchObject({ status: 'eliminated', gunsLost: true });
    expect(events.some((e) => e.rule === 'p.10' && /neutralised.*A-50/.test(e.text))).toBe(true);
  });

  it('the render and the encoding show them', () => {
    const s = qaWith(3, 5);
    expect(game.render(s)).toMatch(/QA.*ammunition out, 5 crew hits/);
    // QA's slot among side 0's units: figures/original is its guns less its hits over its guns
    const enc = neEncoding;
    const out = new Float32Array(enc.stateSize);
    enc.encodeState(s, 0, out);
    const slot = s.units.filter((u) => u.side === 0).findIndex((u) => u.id === 'QA');
    const o = stateBlock('mine: units').offset + (slot * stateBlock('mine: units').size) / 16;
    expect(out[o + 19]).toBeCloseTo(3 / 8, 6);
    expect(out[o + 32]).toBeCloseTo(1, 6);
  });

  it("so too its massed guns [p.10], and a line's refused flank [p.7]", () => {
    const s = quick((j) => {
      j.sides[0].units.find((u: Json) => u.id === 'QA').massed = true;
      j.sides[1].units.find((u: Json) => u.id === 'B1').refused = 'left';
    });
    expect(unitOf(s, 'QA').massed).toBe(true);
    expect(internals.tableUnit(s, unitOf(s, 'QA')).formation).toBe('massed');
    expect(unitOf(s, 'B1').refused).toBe('left');
  });

  it('a scenario cannot start a battery already neutralised (A-50)', () => {
    expect(() => qaWith(0, 8)).toThrow(/neutralise/);
  });
});

describe("Napoleon's Eagles: massed guns [p.10]", () => {
  it('a limbered battery may unlimber massed: two deep, a limbered target for fire, all its guns firing', () => {
    const s = setUnits(quick(), { QA: { formation: 'limbered' } });
    const t = qaActivated(s);
    expect(game.legalActions(t)).toEqual(expect.arrayContaining(['form unlimbered', 'form unlimbered massed']));
    const m = play(t, 'form unlimbered massed');
    expect(unitOf(m, 'QA')).toMatchObject({ formation: 'unlimbered', massed: true, halves: 2 });
    const plain = internals.tableUnit(play(t, 'form unlimbered'), unitOf(play(t, 'form unlimbered'), 'QA'));
    const massed = internals.tableUnit(m, unitOf(m, 'QA'));
    expect(massed.formation).toBe('massed');
    // three bases two deep: a narrower frontage, the front-centre kept [p.7]
    const width = (b: typeof massed) => {
      const [l, r] = footprint(b);
      return Math.hypot(l!.x - r!.x, l!.y - r!.y);
    };
    expect(massed.at).toEqual(plain.at);
    expect(width(massed)).toBeLessThan(width(plain));
    // enemy musket fire at it is at -1 (a limbered target), not -3
    const qa = unitOf(m, 'QA');
    const f = play(
      setUnits(m, { B1: { x: qa.x, y: qa.y + 250, facing: 180 } }),
      'end',
      'activate Q1',
      'end',
      'activate B1',
      'fire QA 1',
    );
    const r = resolveFire(fireFrame(f).shot, f.sc.options);
    const mods = r.rolls[0]!.modifiers.map((x) => `${x.id} ${x.value}`);
    expect(mods).toContain('limberedArtillery -1');
    expect(mods).not.toContain('unlimberedArtillery -3');
  });
});

describe("Napoleon's Eagles: the leader's influence on a threshold roll [p.11] (note 1)", () => {
  // the French lose two of their three units: at the next game turn their army rolls
  const due = () => {
    let s = setUnits(quick(), { Q1: { status: 'routed' }, Q2: { status: 'routed' } });
    const rng = seedrandom.alea('influence');
    while (top(s)?.t !== 'thresholdInfluence' && !s.over) {
      const outs = game.chanceOutcomes(s);
      const all = outs.length ? outs.map((o) => o.action) : game.legalActions(s);
      // the walk this test was written on: without the crew actions and defence options built since (crews.test.ts)
      const older = all.filter((a) => !/^(spike|abandon|overrun|crews )|^defence (fire.* rapid|form refused)/.test(a));
      const acts = older.length ? older : all;
      s = game.apply(s, acts[Math.floor(rng() * acts.length)]!);
    }
    return s;
  };

  it('the owner chooses 0 to +6; each point passes 1 in 20 more and risks the leader on a D10', () => {
    const s = due();
    expect(s.turn).toBe(2);
    expect(game.toMove(s)).toEqual({ kind: 'player', player: 0 });
    expect(game.legalActions(s)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `influence ${i}`));
    // the book's example: +4, the leader lost on a D10 of 1-4
    const four = play(s, 'influence 4');
    const p = Object.fromEntries(game.chanceOutcomes(four).map((o) => [o.action, o.p]));
    expect(p['threshold pass']).toBeCloseTo((12 / 20) * (6 / 10), 12);
    expect(p['threshold pass, leader lost']).toBeCloseTo((12 / 20) * (4 / 10), 12);
    expect(p['threshold fail, leader lost']).toBeCloseTo((8 / 20) * (4 / 10), 12);
    const { t, events } = withEvents(four, 'threshold pass, leader lost');
    expect(t.leaders.find((l) => l.id === 'Ney')!.lost).toBe(true);
    expect(t.conceded).toBeNull(); // it passed
    expect(events.some((e) => e.rule === 'p.11' && /Ney becomes a casualty/.test(e.text))).toBe(true);
    // no influence: 8 in 20, no D10
    const none = play(s, 'influence 0');
    expect(game.chanceOutcomes(none).map((o) => [o.action, o.p])).toEqual([
      ['threshold pass', 0.4],
      ['threshold fail', 0.6],
    ]);
    // −3 once the original leader is lost; his staff officer has no influence to give
    const lost = { ...s, leaders: s.leaders.map((l) => (l.id === 'Ney' ? { ...l, lost: true } : l)) };
    expect(internals.thresholdInput(lost, 0, null)).toMatchObject({ leaderLost: true });
  });

  it('only a leader in the general vicinity (A-70: within his radius of the centroid) may add it', () => {
    const s = due();
    // Ney (radius 40") sent 60" off the French centroid: no decision, the roll comes at once
    const far = { ...s, leaders: s.leaders.map((l) => (l.id === 'Ney' ? { ...l, x: 3500, y: 6000 } : l)) };
    const settled = play({ ...far, stack: far.stack.slice(0, -1) });
    expect(top(settled)?.t).toBe('threshold');
    expect(game.chanceOutcomes(settled).map((o) => o.action)).toEqual(['threshold pass', 'threshold fail']);
  });
});

describe("Napoleon's Eagles: random games with the artillery rules keep the Game contract", () => {
  for (const id of ['quick-test', 'the-mill-at-kleinau'])
    it(`${id}: random games to the end under the conformance checker`, () => {
      checkedGames(() => scenarioOf(id), `artillery/${id}`, 2);
    });
});
