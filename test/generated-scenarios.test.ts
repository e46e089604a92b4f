/**
 * Generated scenarios (`Game.randomScenario`, arena/scenario-soak.ts): the generators are deterministic, mostly
 * valid, cover the scenario formats, and a small generated-scenario soak plays without a failure. The large soak is
 * `npm run soak -- --generated 1000`.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import type { AnyGame } from '../engine/core/game.ts';
import { LEADER_ROLES } from '../engine/rulesets/eagles-of-the-empire/scenario.ts';
import { RULESETS } from '../engine/rulesets/index.ts';
import { type SoakOptions, formatSoakReport, soakGenerated } from '../arena/scenario-soak.ts';

type J = Record<string, any>;

const draw = (game: AnyGame, seed: string, n: number): J[] =>
  Array.from({ length: n }, (_, i) => game.randomScenario!(seedrandom.alea(`${seed}/${i}`)) as J);

/**
 * The CI size, per ruleset: random games on every scenario, the heuristic's pairings on the first few. March of Eagles
 * plays fewer heuristic games: its alternate deployment is the slowest part of any game.
 */
const CI: Record<string, readonly Omit<SoakOptions, 'seed'>[]> = {
  'march-of-eagles': [
    { scenarios: 25, agents: ['random'] },
    { scenarios: 6, agents: ['heuristic'] },
  ],
  'eagles-of-the-empire': [{ scenarios: 25, agents: ['random', 'heuristic'] }],
  'napoleons-eagles': [{ scenarios: 10, agents: ['random', 'heuristic'] }],
  'charge-eagles-rising': [{ scenarios: 8, agents: ['random', 'heuristic'] }],
};

describe('generated scenarios', () => {
  it('every shipped ruleset has a scenario generator', () => {
    expect(
      Object.values(RULESETS)
        .filter((g) => !g.randomScenario)
        .map((g) => g.id),
    ).toEqual([]);
  });

  for (const game of Object.values(RULESETS).filter((g) => g.randomScenario)) {
    describe(game.id, () => {
      it('draws the same scenario for the same seed, and different ones for different seeds', () => {
        const a = draw(game, 'determinism', 5).map((x) => JSON.stringify(x));
        const b = draw(game, 'determinism', 5).map((x) => JSON.stringify(x));
        expect(a).toEqual(b);
        expect(new Set(a).size).toBe(5);
      });

      it('draws scenarios the validator mostly accepts', () => {
        const all = draw(game, 'validity', 100);
        const refused = all.map((j) => game.validateScenario(j)).filter((v) => !v.ok);
        // Measured: March of Eagles 98% accepted (it draws a 0° oblique now and then on purpose, which the schema must
        // refuse, and rarely a horde the placement grid cannot hold), Eagles of the Empire 100%. More refusals mean the
        // generator and the validator have drifted apart.
        expect(
          refused.length,
          JSON.stringify(refused.slice(0, 3).map((v) => !v.ok && v.problems.slice(0, 2))),
        ).toBeLessThanOrEqual(15);
      });

      // a hang guard, not a speed target: on a shared 2-core machine Napoleon's Eagles' share takes a minute or more
      it('plays a small generated-scenario soak without a failure', { timeout: 240_000 }, () => {
        for (const size of CI[game.id] ?? [{ scenarios: 10 }]) {
          const r = soakGenerated(game, { seed: 'ci', ...size });
          expect(r.accepted).toBeGreaterThan(size.scenarios / 2);
          expect(r.failures.length, formatSoakReport(r)).toBe(0);
        }
      });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Coverage of the scenario formats
// ---------------------------------------------------------------------------------------------

type P = readonly [number, number];
const cross = (o: P, a: P, b: P) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
/** Proper intersection of segments ab and cd (touching at an end does not count). */
const segmentsCross = (a: P, b: P, c: P, d: P) =>
  cross(a, b, c) * cross(a, b, d) < 0 && cross(c, d, a) * cross(c, d, b) < 0;
function simplePolygon(poly: readonly P[]): boolean {
  const n = poly.length;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue; // neighbours share a vertex
      if (segmentsCross(poly[i]!, poly[(i + 1) % n]!, poly[j]!, poly[(j + 1) % n]!)) return false;
    }
  return true;
}
function inside(p: P, poly: readonly P[]): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

describe('march-of-eagles generator covers the format', () => {
  const game = RULESETS['march-of-eagles']!;
  const all = draw(game, 'coverage', 300);
  const bats = all.flatMap((s) =>
    s.armies.flatMap((a: J) => a.battalions.map((b: J) => ({ ...b, nationality: a.nationality }))),
  );
  const fixed = all.filter((s) => s.deployment !== 'alternate');

  it('varies tables, turns, points, deployments, objectives, victory and options', () => {
    expect(new Set(all.map((s) => s.table.width))).toEqual(new Set([72, 48]));
    expect(fixed.length).toBeGreaterThan(60);
    expect(all.length - fixed.length).toBeGreaterThan(60);
    expect(fixed.some((s) => s.deployment.A.edge === 'north')).toBe(true);
    expect(new Set(all.map((s) => s.turns)).size).toBeGreaterThan(5);
    expect(
      all.some((s) => s.points === undefined) &&
        all.some((s) => Array.isArray(s.points)) &&
        all.some((s) => typeof s.points === 'number' && s.points !== 200),
    ).toBe(true);
    expect(new Set(all.map((s) => s.victory))).toEqual(new Set([undefined, 'battalions', 'objectives']));
    const optionKeys = new Set(all.flatMap((s) => Object.keys(s.options ?? {})));
    for (const k of [
      'M5_cover',
      'M7_obliques',
      'M7_fractions',
      'M9_band2',
      'M13_join',
      'M14_combatRisk',
      'M20_earlyEnd',
      'M23_grid',
      'M7_wheelAngles',
    ])
      expect(optionKeys).toContain(k);
    expect(all.some((s) => s.options?.M20_earlyEnd === false)).toBe(true);
  });

  it('builds armies of every kind: qualities, sizes, Characters, Light and rifle battalions, hordes', () => {
    expect(new Set(bats.map((b) => b.quality))).toEqual(
      new Set(['Green', 'Drilled', 'Veteran', 'Veterans', 'Grizzled', 'Guards']),
    );
    expect(new Set(bats.map((b) => b.rankers))).toEqual(new Set([16, 20, 24, 28, 32, 36, 40, 44, 48]));
    expect(bats.some((b) => b.light && !b.rifles) && bats.some((b) => b.rifles)).toBe(true);
    expect(
      bats.some((b) => b.officer) && bats.some((b) => b.drummers === 2) && bats.some((b) => b.sergeants === 2),
    ).toBe(true);
    expect(
      bats.some((b) => b.ensigns === 2 && b.nationality === 'British') &&
        bats.some((b) => b.ensigns === 1 && b.nationality !== 'British'),
    ).toBe(true);
    const sizes = all.flatMap((s) => s.armies.map((a: J) => a.battalions.length));
    expect(Math.min(...sizes)).toBeLessThanOrEqual(2);
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(12);
    expect(
      all.some((s) =>
        s.armies.some(
          (a: J) => a.battalions.length >= 10 && a.battalions.every((b: J) => b.quality === 'Green' && b.rankers <= 24),
        ),
      ),
    ).toBe(true);
  });

  it('places terrain of every kind on the table, polygons simple, crests on their hills', () => {
    const terrain = all.flatMap((s) => (s.terrain ?? []).map((t: J) => ({ ...t, W: s.table.width })));
    expect(new Set(terrain.map((t) => t.type))).toEqual(new Set(['woods', 'building', 'hill', 'hedge', 'wall']));
    for (const t of terrain) {
      const pts: P[] = t.polygon ?? t.points;
      for (const [x, y] of pts) expect(x >= 0 && x <= t.W && y >= 0 && y <= 48, `${t.id} off the table`).toBe(true);
      if (t.polygon) expect(simplePolygon(t.polygon), `${t.id} self-intersects`).toBe(true);
      if (t.type === 'hill') expect(inside(t.crest, t.polygon), `${t.id}'s crest`).toBe(true);
    }
    expect(
      terrain.some((t) => t.type === 'wall' && JSON.stringify(t.points[0]) === JSON.stringify(t.points.at(-1))),
    ).toBe(true); // closed enclosures
  });

  it('sets fixed deployments up with formations, facings, skirmish screens and Supreme Commanders', () => {
    const placed = fixed.flatMap((s) => [...s.deployment.A.battalions, ...s.deployment.B.battalions]);
    expect(new Set(placed.map((p) => p.formation))).toEqual(new Set(['Line', 'Column']));
    expect(new Set(placed.map((p) => p.facing))).toEqual(new Set([0, 90, 180, 270]));
    expect(new Set(placed.filter((p) => p.screen).map((p) => p.screen))).toEqual(
      new Set(['front', 'left', 'right', 'rear']),
    );
    expect(placed.some((p) => p.skirmishers > 0)).toBe(true);
    const scs = fixed.flatMap((s) => [s.deployment.A.sc, s.deployment.B.sc]);
    expect(scs.some((c) => 'attach' in c) && scs.some((c) => 'x' in c)).toBe(true);
  });
});

describe('eagles-of-the-empire generator covers the format', () => {
  const game = RULESETS['eagles-of-the-empire']!;
  const all = draw(game, 'coverage', 200);
  const sides = all.flatMap((s) => s.sides as J[]);
  const walk = (fs: J[]): J[] => fs.flatMap((f) => [f, ...walk(f.forces ?? [])]);
  const formations = sides.flatMap((s) => walk(s.formations));
  const units = formations.flatMap((f) => f.units as J[]);

  it('builds orders of battle of every shape', () => {
    expect(new Set(sides.map((s) => s.structure))).toEqual(
      new Set([undefined, 'rigid', 'semi-rigid', 'flexible', 'absolute']),
    );
    expect(
      sides.some((s) => s.hq && s.chiefOfStaff) &&
        sides.some((s) => s.hq && !s.chiefOfStaff) &&
        sides.some((s) => !s.hq),
    ).toBe(true);
    expect(new Set(formations.map((f) => f.kind))).toEqual(new Set(['hq', 'formation', 'force', 'intermediate']));
    expect(formations.some((f) => f.offMapLeaders.length) && formations.some((f) => f.kind === 'hq' && f.reserve)).toBe(
      true,
    );
    expect(new Set(sides.flatMap((s) => s.leaders.map((l: J) => l.role)))).toEqual(new Set(LEADER_ROLES));
    expect(sides.some((s) => s.leaders.some((l: J) => typeof l.tactical === 'string'))).toBe(true);
  });

  it('uses every kind of unit, with step tracks, markers and alternate deployments', () => {
    expect(new Set(units.map((u) => `${u.kind}/${u.counter ?? u.cavClass ?? u.artKind}`))).toEqual(
      new Set([
        'infantry/long',
        'infantry/short',
        ...['heavy', 'medium', 'light', 'irregular'].map((c) => `cavalry/${c}`),
        ...['foot', 'heavy', 'horse', 'licorne', 'mortar', 'rocket'].map((k) => `artillery/${k}`),
      ]),
    );
    for (const flag of ['elite', 'guard', 'lancer', 'rifle', 'artilleryPark', 'extendedLines', 'startStep'])
      expect(units.some((u) => u[flag])).toBe(true);
    expect(Math.max(...units.map((u) => u.steps.length))).toBe(5);
    expect(
      sides.some((s) => s.deployments?.some((d: J) => d.atStart)) &&
        sides.some((s) => s.deployments?.some((d: J) => !d.atStart)),
    ).toBe(true);
  });

  it('sets up both sides apart, with reinforcements, turns, weather, rules, victory and options', () => {
    for (const s of all) {
      const areas = s.setup.map((list: J[]) => new Set(list.map((p) => p.area)));
      expect([...areas[0]].filter((a) => areas[1].has(a))).toEqual([]);
    }
    const reinf = all.flatMap((s) => s.reinforcements ?? []);
    expect(reinf.some((r: J) => r.leaders?.length) && reinf.some((r: J) => r.reserve)).toBe(true);
    expect(new Set(reinf.map((r: J) => r.side))).toEqual(new Set([0, 1]));
    expect(new Set(all.map((s) => s.turns.length)).size).toBeGreaterThan(4);
    expect(
      all.some((s) => s.weather?.table) &&
        all.some((s) => s.weather && !s.weather.table) &&
        all.some((s) => !s.weather),
    ).toBe(true);
    expect(
      all.some((s) => s.rules?.rout) && all.some((s) => s.rules?.villagesBlockLos) && all.some((s) => !s.rules),
    ).toBe(true);
    expect(
      all.some((s) => s.victory.objectives.length === 0) && all.some((s) => s.victory.objectives.length === 3),
    ).toBe(true);
    const optionKeys = new Set(all.flatMap((s) => Object.keys(s.options ?? {})));
    for (const k of [
      'bombardNetMinusOne',
      'attachSameFormation',
      'highAngleCannotAttach',
      'horseCountsForMassed',
      'licorneMinRange1',
      'assaultFlank',
      'moraleTwice',
      'legacyEdition',
    ])
      expect(optionKeys).toContain(k);
    expect([...optionKeys].some((k) => /^A-\d\d$/.test(k))).toBe(true);
  });
});
