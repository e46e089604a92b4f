/**
 * Scenario files for The March of Eagles: schema (zod), army-building validation and rules options.
 * Every ADAPTATION of the digest (M1–M25) is a named option whose default is the digest's choice; options
 * whose alternatives are not implemented accept only the default, so a file asking for another reading is refused
 * with the option named.
 */
import { z } from 'zod';
import type { Problem, Validated } from '../../core/game.ts';
import { strictObject } from '../../core/suggest.ts';
import { zodProblems } from '../../core/validate.ts';
import { duplicateIds, insidePolygon, offTable, polygonProblems, polylineProblems } from '../../tabletop/validate.ts';

const point = z.tuple([z.number(), z.number()]);

const battalionSchema = strictObject({
  id: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,11}$/, 'ids are 1–12 letters, digits, _ or -, starting with a letter'),
  name: z.string().min(1),
  // [Unit quality] "Veterans" / "Grizzled" / "VÉTÉRAN" all name the same level (digest TEXT ISSUE)
  quality: z.enum(['Green', 'Drilled', 'Veteran', 'Veterans', 'Grizzled', 'Guards']),
  rankers: z.number().int(),
  drummers: z.number().int().min(0).max(2, 'at most 2 drummers [Character figures]').default(0),
  sergeants: z.number().int().min(0).max(2, 'at most 2 sergeants [Character figures]').default(0),
  ensigns: z.number().int().min(0).max(2).default(0),
  officer: z.number().int().min(0).max(1, 'at most 1 officer [Character figures]').default(0),
  light: z.boolean().default(false),
  rifles: z.boolean().default(false),
});

const armySchema = strictObject({
  name: z.string().min(1),
  nationality: z.enum(['British', 'French', 'Other']),
  battalions: z.array(battalionSchema).min(1),
});

const placedSchema = strictObject({
  id: z.string(),
  x: z.number(),
  y: z.number(),
  formation: z.enum(['Line', 'Column']),
  facing: z.number().int().min(0).max(359),
  skirmishers: z.number().int().min(0).default(0),
  screen: z.enum(['front', 'left', 'right', 'rear']).optional(),
});

const fixedSideSchema = strictObject({
  edge: z.enum(['south', 'north']),
  battalions: z.array(placedSchema),
  sc: z.union([strictObject({ attach: z.string() }), strictObject({ x: z.number(), y: z.number() })], {
    error: 'the Supreme Commander is { "attach": a battalion id } or { "x", "y": a point in inches }',
  }),
});

const fixedDeploymentSchema = strictObject({ A: fixedSideSchema, B: fixedSideSchema });

const terrainSchema = z.discriminatedUnion('type', [
  strictObject({ type: z.literal('woods'), id: z.string(), polygon: z.array(point).min(3) }),
  strictObject({ type: z.literal('building'), id: z.string(), polygon: z.array(point).min(3) }),
  strictObject({ type: z.literal('hill'), id: z.string(), polygon: z.array(point).min(3), crest: point }),
  strictObject({ type: z.literal('hedge'), id: z.string(), points: z.array(point).min(2) }),
  strictObject({ type: z.literal('wall'), id: z.string(), points: z.array(point).min(2) }),
]);

/** An array of numbers with no value twice (each value becomes one action; keys must stay unique). */
function distinct<T extends z.ZodNumber>(item: T) {
  return z.array(item).refine((a) => new Set(a).size === a.length, 'a value is listed twice (each becomes one action)');
}

/** Rules options: one per ADAPTATION, default = the digest's choice. */
const optionsSchema = strictObject({
  // M5: contradictory cover rules → soft cover −2 dice, hard cover ×0.5 ('modifiers'); or the "Who can shoot"
  // paragraph's reading, where any cover halves the eligible groups ('halve-groups').
  M5_cover: z.enum(['modifiers', 'halve-groups']).default('modifiers'),
  // M6: ties in roll-offs and initiative are re-rolled.
  M6_ties: z.literal('reroll').default('reroll'),
  // M7: move directions in degrees either side of straight ahead (facing kept), distance fractions offered.
  // Straight ahead is always offered, so 0 is not an oblique; the book allows oblique moves, so the list is not empty.
  M7_obliques: distinct(
    z
      .number()
      .gt(0, 'an oblique is more than 0° off straight ahead (straight ahead is always offered) [Manoeuvre] (M7)')
      .max(90),
  )
    .min(1, 'the book allows oblique moves: give at least one angle [Manoeuvre] (M7)')
    .default([22.5, 45]),
  // The furthest legal point is always among the distances (digest §9.2).
  M7_fractions: distinct(z.number().gt(0).max(1))
    .min(1, 'give at least one distance fraction [Manoeuvre] (M7)')
    .refine((a) => a.includes(1), 'the fractions must include 1, the furthest legal point (M7, digest §9.2)')
    .default([0.25, 0.5, 0.75, 1]),
  // M9: defensive-fire band for a D6 of 2 (not listed in the book).
  M9_band2: z.enum(['long', 'medium']).default('long'),
  // M13: joiners add a flat +2 however many joined ('flat') or +2 each ('each').
  M13_join: z.enum(['flat', 'each']).default('flat'),
  // M14: a D6 score at which a Character is lost in combat ("50% chance").
  M14_combatRisk: z.number().int().min(2).max(6).default(4),
  // M16: re-rolls are used automatically at the first failure.
  M16_rerolls: z.literal('automatic').default('automatic'),
  // M20: the game also ends when a side has no unbroken battalion on the table.
  M20_earlyEnd: z.boolean().default(true),
  // M23: placement grid spacing in inches along the zone, and the depth rows offered.
  M23_grid: z
    .number()
    .min(1, 'the placement grid is 1" to 6"')
    .max(6, 'the placement grid is 1" to 6" (M23)')
    .default(2),
  // M23_squeeze: the book is silent on a side that leaves itself no room; a placement (or a skirmisher count) is
  // offered only if the side's other battalions can all still be placed, and an army that cannot be set up in its
  // zone is refused at validation.
  M23_squeeze: z.literal('keep-room').default('keep-room'),
  // Wheel angles offered after the 1D6 roll (digest §9.2; 22.5° is stored as whole degrees: 22).
  M7_wheelAngles: distinct(z.number().int().min(1).max(180))
    .min(1, 'give at least one wheel angle [Manoeuvre] (M7)')
    .default([5, 10, 15, 22, 30, 45, 60, 90]),
  // The remaining ADAPTATIONs are fixed readings: named here so a scenario can state them, and so a file asking
  // for a reading this engine does not implement is refused with the option named.
  M1_table: z.literal('72x48-or-48x48-inches').default('72x48-or-48x48-inches'),
  M2_stands: z
    .literal('1.6in-groups-frontage-fixed-to-half-strength')
    .default('1.6in-groups-frontage-fixed-to-half-strength'),
  M3_screens: z.literal('0.8in-deep-placed-front-left-right-rear').default('0.8in-deep-placed-front-left-right-rear'),
  M4_geometry: z.literal('45deg-arcs-edge-to-edge-range').default('45deg-arcs-edge-to-edge-range'),
  M8_separation: z.literal('no-move-within-or-closer-than-4in').default('no-move-within-or-closer-than-4in'),
  M10_resolveTiming: z
    .literal('immediate-for-combat-and-defensive-fire')
    .default('immediate-for-combat-and-defensive-fire'),
  M11_running: z.literal('toward-home-edge-stop-1in-short').default('toward-home-edge-stop-1in-short'),
  M12_markers: z.literal('mustStand-and-reformPending').default('mustStand-and-reformPending'),
  M15_commander: z.literal('free-4D6-move-once-per-turn').default('free-4D6-move-once-per-turn'),
  M17_rounding: z
    .literal('additive-then-halvings-then-range-one-rounding')
    .default('additive-then-halvings-then-range-one-rounding'),
  M18_combatFire: z.literal('no-shooting-into-or-out-of-combat').default('no-shooting-into-or-out-of-combat'),
  M19_costs: z.literal('rifles-per-ranker-6-per-ensign-figure').default('rifles-per-ranker-6-per-ensign-figure'),
  M21_interpenetration: z
    .literal('pass-through-disorders-no-overlap-at-end')
    .default('pass-through-disorders-no-overlap-at-end'),
  M22_greenPenalty: z.literal('all-activation-table-rolls').default('all-activation-table-rolls'),
  M24_defensiveFire: z.literal('uses-the-activation').default('uses-the-activation'),
  M25_contact: z.literal('face-of-declaration-sector').default('face-of-declaration-sector'),
});

export type Options = z.infer<typeof optionsSchema>;

const scenarioSchema = strictObject({
  ruleset: z.literal('march-of-eagles'),
  id: z.string().regex(/^[a-z0-9-]+$/, 'scenario ids are lower-case letters, digits and -'),
  title: z.string(),
  description: z.string().optional(),
  // M1: 72" × 48" or 48" × 48".
  table: strictObject({ width: z.union([z.literal(72), z.literal(48)]), height: z.literal(48) }),
  turns: z.number().int().min(1).max(30).default(8),
  // [How to choose your army] 200 points each; a pair [A, B] sets unequal budgets (historical or test scenarios)
  points: z
    .union([z.number().int().positive(), z.tuple([z.number().int().positive(), z.number().int().positive()])], {
      error: 'points are a whole number, or a pair [A, B] of whole numbers (one budget per army)',
    })
    .default(200),
  terrain: z.array(terrainSchema).default([]),
  armies: z.tuple([armySchema, armySchema]),
  deployment: z.union([z.literal('alternate'), fixedDeploymentSchema], {
    error: 'deployment is "alternate" or { "A": …, "B": … } (each side\'s edge, battalions and Supreme Commander)',
  }),
  objectives: z.array(strictObject({ id: z.string(), x: z.number(), y: z.number() })).default([]),
  // [Winning] "If objectives were set the result can be judged relative to these": 'objectives' judges by
  // objectives held after the last turn, then by the book's rule; 'battalions' is the book's rule alone.
  victory: z.enum(['battalions', 'objectives']).default('battalions'),
  options: optionsSchema.default(optionsSchema.parse({})),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type BattalionSpec = z.infer<typeof battalionSchema>;

export function qualityIndex(q: BattalionSpec['quality']): number {
  switch (q) {
    case 'Green':
      return 0;
    case 'Drilled':
      return 1;
    case 'Veteran':
    case 'Veterans':
    case 'Grizzled':
      return 2;
    case 'Guards':
      return 3;
  }
}

/** [How to choose your army] points for a battalion: ranker cost by quality + Characters + rifles (M19). */
export function battalionPoints(b: BattalionSpec, british: boolean): number {
  const perFigure = [0.5, 1, 1.5, 2][qualityIndex(b.quality)]!;
  const ensignFigures = british ? b.ensigns : Math.min(1, b.ensigns);
  return (
    b.rankers * perFigure +
    b.drummers * 2 +
    b.sergeants * 4 +
    ensignFigures * 6 +
    b.officer * 10 +
    (b.rifles ? b.rankers : 0)
  );
}

/** [Skirmishers] up to 20% of Rankers, rounded up; a Light battalion 75% [Light troops]. */
export function maxSkirmishers(rankers: number, light: boolean): number {
  return light ? Math.ceil(rankers * 0.75 - 1e-9) : Math.ceil(rankers * 0.2 - 1e-9);
}

function armyProblems(s: Scenario): Problem[] {
  const out: Problem[] = [];
  const ids = new Set<string>();
  s.armies.forEach((army, ai) => {
    const british = army.nationality === 'British';
    let total = 0;
    let lights = 0;
    army.battalions.forEach((b, bi) => {
      const p = `$.armies[${ai}].battalions[${bi}]`;
      if (ids.has(b.id)) out.push({ path: `${p}.id`, message: `duplicate battalion id "${b.id}"` });
      ids.add(b.id);
      if (b.rankers < 16 || b.rankers > 48 || b.rankers % 4 !== 0)
        out.push({
          path: `${p}.rankers`,
          message: `battalions are 16 to 48 Rankers in multiples of 4 [Unit organisation]; got ${b.rankers}`,
        });
      if (b.ensigns > (british ? 2 : 1))
        out.push({
          path: `${p}.ensigns`,
          message: `at most ${british ? 2 : 1} ensign figure(s) [Character figures: Ensign]`,
        });
      if (b.light) {
        lights++;
        if (qualityIndex(b.quality) !== 2)
          out.push({ path: `${p}.quality`, message: 'a Light battalion must be Veteran [Light troops]' });
        if (b.rankers > 36)
          out.push({ path: `${p}.rankers`, message: 'a Light battalion has at most 36 figures [Light troops]' });
      }
      if (b.rifles && !(british && b.light))
        out.push({
          path: `${p}.rifles`,
          message: 'only British Light troops may take rifles [How to choose your army]',
        });
      total += battalionPoints(b, british);
    });
    if (lights > 1)
      out.push({ path: `$.armies[${ai}].battalions`, message: 'at most one Light battalion per army [Light troops]' });
    const budget = typeof s.points === 'number' ? s.points : s.points[ai]!;
    if (total !== budget)
      out.push({
        path: `$.armies[${ai}]`,
        message: `army "${army.name}" costs ${total} points; the scenario requires exactly ${budget}`,
      });
  });
  return out;
}

function deploymentProblems(s: Scenario): Problem[] {
  if (s.deployment === 'alternate') return [];
  const out: Problem[] = [];
  const d = s.deployment;
  if (d.A.edge === d.B.edge)
    out.push({ path: '$.deployment.B.edge', message: 'the two sides must set up on opposite edges' });
  (['A', 'B'] as const).forEach((side, si) => {
    const army = s.armies[si]!;
    const byId = new Map(army.battalions.map((b) => [b.id, b]));
    const seen = new Set<string>();
    d[side].battalions.forEach((pb, i) => {
      const p = `$.deployment.${side}.battalions[${i}]`;
      const spec = byId.get(pb.id);
      if (!spec) {
        out.push({ path: `${p}.id`, message: `no battalion "${pb.id}" in army "${army.name}"` });
        return;
      }
      if (seen.has(pb.id)) out.push({ path: `${p}.id`, message: `battalion "${pb.id}" is placed twice` });
      seen.add(pb.id);
      if (pb.x < 0 || pb.x > s.table.width || pb.y < 0 || pb.y > s.table.height)
        out.push({
          path: p,
          message: `battalion "${pb.id}" at (${pb.x}, ${pb.y}) is off the ${s.table.width}"×${s.table.height}" table`,
        });
      const max = maxSkirmishers(spec.rankers, spec.light);
      if (pb.skirmishers > max)
        out.push({
          path: `${p}.skirmishers`,
          message: `at most ${max} skirmishers for ${spec.rankers} Rankers [Skirmishers]`,
        });
      if (pb.skirmishers > 0 && !pb.screen && !spec.light)
        out.push({
          path: `${p}.screen`,
          message: 'a battalion with skirmishers needs a screen placement (front, left, right, rear)',
        });
    });
    for (const b of army.battalions)
      if (!seen.has(b.id))
        out.push({ path: `$.deployment.${side}.battalions`, message: `battalion "${b.id}" is not placed` });
    const sc = d[side].sc;
    if ('attach' in sc && !byId.has(sc.attach))
      out.push({
        path: `$.deployment.${side}.sc.attach`,
        message: `no battalion "${sc.attach}" to attach the Supreme Commander to`,
      });
  });
  return out;
}

/** Each problem's message with the rule it breaks appended. */
const cite = (ps: readonly Problem[], rule: string, path?: string): Problem[] =>
  ps.map((q) => ({ path: path ?? q.path, message: `${q.message} ${rule}` }));

/**
 * [Setting up a battle] terrain, objectives and a placed Supreme Commander lie on the table (M1: the table's size);
 * terrain is real ground (M4: areas with an inside, lines with a length); ids name one thing each.
 */
function tableProblems(s: Scenario): Problem[] {
  const { width, height } = s.table;
  const onTable = '[Setting up a battle] (M1)';
  const ids = '(ids name one piece of terrain or objective each, so events and objectives can refer to them)';
  const out: Problem[] = [
    ...cite(duplicateIds(s.terrain, '$.terrain', 'terrain'), ids),
    ...cite(duplicateIds(s.objectives, '$.objectives', 'objective'), ids),
  ];
  s.terrain.forEach((t, i) => {
    const p = `$.terrain[${i}]`;
    const what = `${t.type} "${t.id}"`;
    if (t.type === 'hedge' || t.type === 'wall')
      out.push(...cite(polylineProblems(t.points, width, height, `${p}.points`, what), `${onTable} (M4)`));
    else {
      out.push(...cite(polygonProblems(t.polygon, width, height, `${p}.polygon`, what), `${onTable} (M4)`));
      if (t.type === 'hill' && !insidePolygon(t.crest, t.polygon))
        out.push({
          path: `${p}.crest`,
          message: `the crest of hill "${t.id}" is not inside the hill (M4: slopes rise toward the crest)`,
        });
    }
  });
  s.objectives.forEach((o, i) =>
    out.push(
      ...cite(
        offTable([[o.x, o.y]], width, height, `$.objectives[${i}]`, `objective "${o.id}"`),
        `[Winning: objectives] ${onTable}`,
        `$.objectives[${i}]`,
      ),
    ),
  );
  if (s.deployment !== 'alternate')
    for (const side of ['A', 'B'] as const) {
      const sc = s.deployment[side].sc;
      if ('x' in sc)
        out.push(
          ...cite(
            offTable([[sc.x, sc.y]], width, height, `$.deployment.${side}.sc`, 'Supreme Commander'),
            `[Supreme Commander] ${onTable}`,
            `$.deployment.${side}.sc`,
          ),
        );
    }
  return out;
}

/**
 * zod reports a union none of whose branches fits as one problem at the union. A fixed deployment (an object) can only
 * mean the second branch, so its own problems, with their paths, are the ones to report.
 */
function schemaProblems(err: z.ZodError, json: unknown): Problem[] {
  const d = json !== null && typeof json === 'object' ? (json as { deployment?: unknown }).deployment : undefined;
  const issues = err.issues.flatMap((i) => {
    if (i.code !== 'invalid_union' || i.path.join('.') !== 'deployment' || d === null || typeof d !== 'object')
      return [i];
    const r = fixedDeploymentSchema.safeParse(d);
    return r.success ? [i] : r.error.issues.map((x) => ({ ...x, path: ['deployment', ...x.path] }));
  });
  return zodProblems(new z.ZodError(issues));
}

export function validateScenario(json: unknown): Validated<Scenario> {
  const r = scenarioSchema.safeParse(json);
  if (!r.success) return { ok: false, problems: schemaProblems(r.error, json) };
  const problems = [...armyProblems(r.data), ...deploymentProblems(r.data), ...tableProblems(r.data)];
  if (r.data.victory === 'objectives' && !r.data.objectives.length)
    problems.push({ path: '$.victory', message: 'victory by objectives needs at least one entry in $.objectives' });
  if (problems.length) return { ok: false, problems };
  return { ok: true, value: r.data };
}
