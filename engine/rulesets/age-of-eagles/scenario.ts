/**
 * Scenario files for Age of Eagles (regimental 1:60): schema (zod), order-of-battle and table checks, and rules
 * options. Every ADAPTATION of the digest (A1–A12) is a named option whose default is the digest's reading; an option
 * whose alternatives are not played accepts only its default, so a file asking for another reading is refused with
 * the option named. Coordinates are inches from the south-west corner (+x east, +y north); facings are degrees
 * clockwise from north; positions are footprint centres (digest conventions).
 */
import { z } from 'zod';
import type { Problem, Validated } from '../../core/game.ts';
import { strictObject } from '../../core/suggest.ts';
import { zodProblems } from '../../core/validate.ts';
import { offTable, polygonProblems, polylineProblems } from '../../tabletop/validate.ts';

const point = z.tuple([z.number(), z.number()]);
const id = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,11}$/, 'ids are 1–12 letters, digits, _ or -, starting with a letter');
const facing = z.number().int().min(0).max(359);

// [Differences] infantry units are always 6 stands, cavalry 4, batteries 1 gun stand: the file gives no stand counts.
const infantrySchema = strictObject({
  id,
  type: z.literal('infantry'),
  name: z.string().optional(),
  // [B&S DRMs] "Units are Regular" / "Units are Elite"; Conscript from the March table's modifiers
  class: z.enum(['Elite', 'Regular', 'Conscript']),
  // [Fire points] 2-Rank Musket 2.5 per stand, 3-Rank Musket 2 per stand
  ranks: z.union([z.literal(2), z.literal(3)]),
  // [Tactical Movement Modifiers] March Mode
  marchMode: z.enum(['Linear', 'Columnar', 'Impulse']),
  // [Differences] Open Order is available to all Light Infantry
  light: z.boolean().default(false),
  formation: z.enum(['Line', 'FieldColumn', 'Masse', 'MarchColumn', 'OpenOrder', 'Square']),
  x: z.number(),
  y: z.number(),
  facing,
  disordered: z.boolean().default(false),
  hits: z.number().int().min(0).max(4, 'a unit with 5 hits is removed [Hits]').default(0),
});

const cavalrySchema = strictObject({
  id,
  type: z.literal('cavalry'),
  name: z.string().optional(),
  class: z.enum(['Elite', 'Regular', 'Conscript']),
  // [B&S DRMs] Heavy Cavalry +1, Armoured Heavy Cavalry +2
  weight: z.enum(['Light', 'Heavy', 'ArmouredHeavy']),
  lancers: z.boolean().default(false),
  // A3: cavalry formations
  formation: z.enum(['Line', 'FieldColumn', 'MarchColumn']),
  x: z.number(),
  y: z.number(),
  facing,
  disordered: z.boolean().default(false),
  hits: z.number().int().min(0).max(4, 'a unit with 5 hits is removed [Hits]').default(0),
});

const batterySchema = strictObject({
  id,
  type: z.literal('battery'),
  name: z.string().optional(),
  // [Fire points] 8-gun and 6-gun batteries, Heavy or Light columns
  guns: z.union([z.literal(6), z.literal(8)]),
  calibre: z.enum(['Heavy', 'Light']),
  // [Movement rates] Foot Artillery / Horse Artillery
  mobility: z.enum(['Foot', 'Horse']),
  limbered: z.boolean().default(false),
  x: z.number(),
  y: z.number(),
  facing,
  silenced: z.boolean().default(false),
});

const unitSchema = z.discriminatedUnion('type', [infantrySchema, cavalrySchema, batterySchema]);

const leaderSchema = strictObject({
  id,
  name: z.string().optional(),
  // [Tactical Movement Modifiers] "Charismatic" leaders: +2 detached within 12", +3 attached; +2 in B&S
  charismatic: z.boolean().default(false),
  // attached to a unit of his command (by id), or standing at a point
  attached: id.optional(),
  x: z.number().optional(),
  y: z.number().optional(),
});

const divisionSchema = strictObject({
  id,
  name: z.string().optional(),
  leader: leaderSchema,
  units: z.array(unitSchema).min(1, 'a division has at least one unit'),
});

const sideSchema = strictObject({
  name: z.string().min(1),
  // the direction the side faces at the start (its front), e.g. 0 for a side deployed in the south
  facing,
  armyLeader: leaderSchema,
  divisions: z.array(divisionSchema).min(1, 'an army has at least one division'),
});

// [Built Up Areas] BUAs are made of 3" × 3" blocks; a block holds a single unit. Cover per scenario (digest §3.3: 3).
const buaSchema = strictObject({
  type: z.literal('bua'),
  id,
  name: z.string().optional(),
  x: z.number(),
  y: z.number(),
  cover: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(3),
});

const terrainSchema = z.discriminatedUnion('type', [
  buaSchema,
  strictObject({ type: z.literal('road'), id, points: z.array(point).min(2) }),
  // A4: streams are impassable except at fords and where a road crosses (a bridge)
  strictObject({
    type: z.literal('stream'),
    id,
    points: z.array(point).min(2),
    fords: z.array(strictObject({ from: z.number(), to: z.number() })).default([]),
  }),
  strictObject({ type: z.literal('woods'), id, polygon: z.array(point).min(3), cover: z.literal(1).default(1) }),
  strictObject({ type: z.literal('rough'), id, polygon: z.array(point).min(3) }),
  strictObject({ type: z.literal('hill'), id, polygon: z.array(point).min(3) }),
  strictObject({ type: z.literal('hedge'), id, points: z.array(point).min(2) }),
  strictObject({ type: z.literal('wall'), id, points: z.array(point).min(2) }),
]);

/** Rules options: one per ADAPTATION of the digest, default = its reading. */
const optionsSchema = strictObject({
  // A12: game length in game turns (scenarios may set another).
  A12_turns: z.number().int().min(1).max(30).default(8),
  // A12: army cohesion levels 1 and 2 at these shares of the starting units removed (batteries included).
  A12_cohesion: z
    .tuple([z.number().gt(0).lt(1), z.number().gt(0).max(1)])
    .refine(([a, b]) => a < b, 'level 1 comes before level 2 (A12)')
    .default([0.25, 0.5]),
  // A9: "beyond enemy musketry range" (Retire) = more than this many inches from every enemy infantry unit.
  A9_musketry: z.number().min(3).max(12).default(6),
  // A11: the missing infantry Rough rate: each inch in rough costs 1/k inches of allowance (Open Order ×1).
  A11_infantryRough: z.union([z.literal(0.5), z.literal(1 / 3)]).default(0.5),
  // A6: firer disordered or battery with a damaged gun: the missing fire-point modifier.
  A6_disorderedFire: z.literal('half').default('half'),
  // The remaining ADAPTATIONs are fixed readings: named so a scenario can state them, and so a file asking for a
  // reading this engine does not play is refused with the option named.
  A1_die: z.literal('d10').default('d10'),
  A2_initiative: z.literal('d10-each-turn-reroll-ties').default('d10-each-turn-reroll-ties'),
  A3_stands: z.literal('inf-1x0.75-cav-1x1-gun-1x1.25').default('inf-1x0.75-cav-1x1-gun-1x1.25'),
  A4_geometry: z.literal('45deg-arcs-nearest-firing-stand').default('45deg-arcs-nearest-firing-stand'),
  A5_orders: z.literal('orders-roll-charge-within-full-move').default('orders-roll-charge-within-full-move'),
  A7_combat: z.literal('lead-unit-defender-id-order').default('lead-unit-defender-id-order'),
  A8_losses: z.literal('stand-is-a-hit-second-damage-wrecks').default('stand-is-a-hit-second-damage-wrecks'),
  A10_leaders: z
    .literal('best-detached-cap-4-replace-uncharismatic')
    .default('best-detached-cap-4-replace-uncharismatic'),
});

export type Options = z.infer<typeof optionsSchema>;

const scenarioSchema = strictObject({
  ruleset: z.literal('age-of-eagles'),
  id: z.string().regex(/^[a-z0-9-]+$/, 'scenario ids are lower-case letters, digits and -'),
  title: z.string(),
  description: z.string().optional(),
  table: strictObject({
    width: z.number().min(24).max(96),
    height: z.number().min(24).max(96),
  }),
  terrain: z.array(terrainSchema).default([]),
  // [Victory] A12: objectives (by BUA block id, or a point) count −5 loss points to the side holding them
  objectives: z
    .array(
      z.union([strictObject({ id, bua: id }), strictObject({ id, x: z.number(), y: z.number() })], {
        error: 'an objective is { "id", "bua": a BUA block id } or { "id", "x", "y": a point in inches }',
      }),
    )
    .default([]),
  sides: z.tuple([sideSchema, sideSchema]),
  options: optionsSchema.default(optionsSchema.parse({})),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type UnitSpec = z.infer<typeof unitSchema>;
type LeaderSpec = z.infer<typeof leaderSchema>;
export type TerrainSpec = z.infer<typeof terrainSchema>;

/** Everything wrong with a scenario file, each with its JSON path; the validated scenario when nothing is. */
export function validateScenario(json: unknown): Validated<Scenario> {
  const parsed = scenarioSchema.safeParse(json);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error) };
  const sc = parsed.data;
  const problems: Problem[] = [];
  const { width, height } = sc.table;
  /** A point off the table, as a problem at `path` (the item's own path, not a list index). */
  const onTable = (x: number, y: number, path: string, what: string): Problem[] =>
    offTable([[x, y]], width, height, path, what).map((p) => ({ ...p, path }));
  const ids: { id: string; path: string }[] = [];
  sc.sides.forEach((side, s) => {
    const base = `$.sides[${s}]`;
    ids.push({ id: side.armyLeader.id, path: `${base}.armyLeader.id` });
    const unitIds = new Set(side.divisions.flatMap((d) => d.units.map((u) => u.id)));
    const leader = (l: LeaderSpec, path: string, command: ReadonlySet<string>) => {
      if (l.attached !== undefined) {
        if (!command.has(l.attached))
          problems.push({
            path: `${path}.attached`,
            message: `"${l.attached}" is not a unit of this leader's command [Leaders]`,
          });
        if (l.x !== undefined || l.y !== undefined)
          problems.push({ path, message: 'a leader is either attached to a unit or placed at x, y, not both' });
      } else if (l.x === undefined || l.y === undefined)
        problems.push({ path, message: 'a leader needs "attached" (a unit id) or a position x, y' });
      else problems.push(...onTable(l.x, l.y, path, `leader ${l.id}`));
    };
    leader(side.armyLeader, `${base}.armyLeader`, unitIds);
    side.divisions.forEach((d, di) => {
      const dp = `${base}.divisions[${di}]`;
      ids.push({ id: d.id, path: `${dp}.id` }, { id: d.leader.id, path: `${dp}.leader.id` });
      leader(d.leader, `${dp}.leader`, new Set(d.units.map((u) => u.id)));
      d.units.forEach((u, ui) => {
        const up = `${dp}.units[${ui}]`;
        ids.push({ id: u.id, path: `${up}.id` });
        problems.push(...onTable(u.x, u.y, up, `unit ${u.id}'s centre`));
        // [Differences] only Light Infantry may take Open Order
        if (u.type === 'infantry' && u.formation === 'OpenOrder' && !u.light)
          problems.push({ path: `${up}.formation`, message: 'only Light Infantry may be in Open Order [Differences]' });
      });
    });
  });
  sc.terrain.forEach((t, i) => {
    const tp = `$.terrain[${i}]`;
    ids.push({ id: t.id, path: `${tp}.id` });
    if (t.type === 'bua') {
      // [Built Up Areas] 3" × 3" blocks, on the table
      const corners: [number, number][] = [
        [t.x - 1.5, t.y - 1.5],
        [t.x + 1.5, t.y + 1.5],
      ];
      problems.push(
        ...offTable(corners, width, height, tp, `BUA block ${t.id}'s corner`).map((p) => ({ ...p, path: tp })),
      );
    } else if ('polygon' in t)
      problems.push(...polygonProblems(t.polygon, width, height, `${tp}.polygon`, `${t.type} ${t.id}`));
    else problems.push(...polylineProblems(t.points, width, height, `${tp}.points`, `${t.type} ${t.id}`));
    if (t.type === 'stream')
      t.fords.forEach((f, fi) => {
        if (!(f.from < f.to))
          problems.push({ path: `${tp}.fords[${fi}]`, message: 'a ford runs from a smaller x to a larger one' });
        else if (f.from < 0 || f.to > width)
          problems.push({
            path: `${tp}.fords[${fi}]`,
            message: `ford x ${f.from} to ${f.to} of stream ${t.id} is off the ${width}"×${height}" table`,
          });
      });
  });
  const buas = new Set(sc.terrain.filter((t) => t.type === 'bua').map((t) => t.id));
  sc.objectives.forEach((o, i) => {
    ids.push({ id: o.id, path: `$.objectives[${i}].id` });
    if ('bua' in o) {
      if (!buas.has(o.bua))
        problems.push({ path: `$.objectives[${i}].bua`, message: `no BUA block "${o.bua}" in the terrain` });
    } else problems.push(...onTable(o.x, o.y, `$.objectives[${i}]`, `objective ${o.id}`));
  });
  // one id names one thing: units, leaders, divisions, terrain and objectives share a namespace
  const seen = new Map<string, string>();
  for (const x of ids) {
    const first = seen.get(x.id);
    if (first) problems.push({ path: x.path, message: `duplicate id "${x.id}" (first used at ${first})` });
    else seen.set(x.id, x.path);
  }
  // BUA blocks may not overlap: a block holds a single unit [Built Up Areas]
  const blocks = sc.terrain.filter((t) => t.type === 'bua');
  for (let i = 0; i < blocks.length; i++)
    for (let j = i + 1; j < blocks.length; j++) {
      const a = blocks[i]!;
      const b = blocks[j]!;
      if (Math.abs(a.x - b.x) < 3 && Math.abs(a.y - b.y) < 3)
        problems.push({ path: '$.terrain', message: `BUA blocks ${a.id} and ${b.id} overlap (blocks are 3" × 3")` });
    }
  return problems.length ? { ok: false, problems } : { ok: true, value: sc };
}
