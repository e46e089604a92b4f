/**
 * Charge! Eagles Rising scenario files: the schema (zod, strict everywhere: an unknown key is refused with the key it
 * probably misspells), the order-of-battle, command and table checks, and the game's start built from a scenario.
 * Every problem is one line with the JSON path of what is wrong; `parseScenario` throws the first as one line.
 *
 * Conventions (digest): inches from the south-west corner (+x east, +y north); whole degrees clockwise from north;
 * a unit's `x`, `y` is its FOOTPRINT CENTRE (§3.1). A side's `facing` is the default facing of its units.
 *
 * The command tree (digest §2.1, ADAPTATION C2): a side has its army/wing CC, optional MFs (each listing its MEs) and
 * its MEs, each ME with one leader and its units. Orders (§6.1, C2): an MF's order is followed by all its MEs; an
 * independent ME has its own. Starting orders are in force without a roll; an ME or MF starting on Attack or Hold is
 * committed unless the file says `"committed": false`.
 */
import { z } from 'zod';
import type { Problem, Validated } from '../../core/game.ts';
import { strictObject } from '../../core/suggest.ts';
import {
  IN,
  type Polygon,
  type Vec,
  bbox,
  fx,
  polygonTouchesPolyline,
  polygonsOverlap,
  rectCorners,
} from '../../geometry/geometry.ts';
import type { TerrainArea, TerrainLine } from '../../geometry/terrain.ts';
import { offTable, polygonProblems, polylineProblems } from '../../tabletop/validate.ts';
import { DEFAULT_OPTIONS, type Options, checkOptions, optionProblems, optionsSchema } from './options.ts';
import { skirmishBase } from './tables.ts';
import {
  type ArmyState,
  type Bua,
  type CerState,
  COMMAND_RATINGS,
  COMMITTING_ORDERS,
  type CrewClass,
  type Ctx,
  type ElementState,
  type FootprintSize,
  type FormationState,
  INSPIRATIONS,
  type LeaderLevel,
  type LeaderState,
  NATIONALITIES,
  NO_PHASE_FLAGS,
  NO_TRIGGERS,
  ORDER_TYPES,
  type Order,
  type Side,
  UNIT_CLASSES,
  type UnitClass,
  type UnitState,
  crewClassOf,
  footprintRect,
  footprintSize,
  unitStartStrength,
} from './types.ts';

// ---------------------------------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------------------------------

const num = z.number();
const point = z.tuple([num, num]);
const polygon = z.array(point).min(3, 'a polygon has at least 3 points');
const polyline = z.array(point).min(2, 'a line has at least 2 points');
const id = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,23}$/, 'ids are 1–24 letters, digits, _ or -, starting with a letter');
const facing = z.number().int('a facing is whole degrees').min(0).max(359);
const name = z.string().min(1).optional();
const turn = z.number().int().min(1).max(40);

// ---------------------------------------------------------------------------------------------------------------------
// Terrain (the sheets' terrain effects chart; digest §3.4)
// ---------------------------------------------------------------------------------------------------------------------

const terrainSchema = z.discriminatedUnion(
  'type',
  [
    strictObject({ type: z.literal('road'), id, name, points: polyline }),
    /** "Fordable river/stream": crossable anywhere at the stream's cost. */
    strictObject({ type: z.literal('stream'), id, name, points: polyline }),
    /** "Column = full speed at ford". */
    strictObject({ type: z.literal('ford'), id, name, stream: id, polygon }),
    /** "Col/Limb only. Defend as linear obs." */
    strictObject({ type: z.literal('bridge'), id, name, stream: id, polygon }),
    /** Minor (hedge, fence) or major (wall) linear obstacle. */
    strictObject({ type: z.literal('linearObstacle'), id, name, grade: z.enum(['minor', 'major']), points: polyline }),
    strictObject({ type: z.literal('woods'), id, name, density: z.enum(['light', 'dense']), polygon }),
    strictObject({ type: z.literal('orchard'), id, name, polygon }),
    strictObject({ type: z.literal('rough'), id, name, polygon }),
    /** "Muddy: in addition to other terrain penalties" (scenario weather). */
    strictObject({ type: z.literal('muddy'), id, name, polygon }),
    /** "Wooden BUA: light or med cover"; "Stone BUA: med or hvy cover"; garrison grade for CAC. */
    strictObject({
      type: z.literal('bua'),
      id,
      name,
      material: z.enum(['wooden', 'stone']),
      cover: z.enum(['light', 'medium', 'heavy']),
      garrison: z.enum(['light', 'medium', 'heavy', 'fortified']),
      polygon,
    }),
    strictObject({
      type: z.literal('steepRise'),
      id,
      name,
      contours: z.number().int().min(1).max(5).default(1),
      polygon,
    }),
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? 'terrain type: one of "road", "stream", "ford", "bridge", "linearObstacle", "woods", "orchard", "rough", "muddy", "bua", "steepRise"'
        : undefined,
  },
);

// ---------------------------------------------------------------------------------------------------------------------
// Orders of battle (§2)
// ---------------------------------------------------------------------------------------------------------------------

const unitClass = z.enum(UNIT_CLASSES);

const unitCommon = {
  id,
  name,
  nationality: z.enum(NATIONALITIES as [string, ...string[]]).optional(),
  /** Footprint centre, inches (none for a garrison or a unit of an off-board ME). */
  x: num.optional(),
  y: num.optional(),
  /** Default: the side's facing. */
  facing: facing.optional(),
  disordered: z.boolean().default(false),
};

const infantrySchema = strictObject({
  ...unitCommon,
  kind: z.literal('infantry'),
  class: unitClass,
  doctrine: z.enum(['linear', 'columnar']),
  ranks: z.union([z.literal(2), z.literal(3)], { error: 'ranks: 2 or 3' }),
  weapon: z.enum(['musket', 'rifle']).default('musket'),
  light: z.boolean().default(false),
  sappers: z.boolean().default(false),
  regimentalGuns: z.boolean().default(false),
  /** C9: overrides the skirmish combat value the options' SCV table gives. */
  scv: z.number().int().min(0).max(20).optional(),
  figures: z.number().int().min(1).max(200),
  formation: z.enum(['line', 'column', 'marchColumn', 'hastySquare', 'solidSquare', 'skirmish', 'garrison']),
  /** The BUA it garrisons (formation "garrison"). */
  garrison: id.optional(),
});

const cavalrySchema = strictObject({
  ...unitCommon,
  kind: z.literal('cavalry'),
  class: unitClass,
  weight: z.enum(['light', 'medium', 'heavy', 'armored']),
  lancers: z.boolean().default(false),
  figures: z.number().int().min(1).max(120),
  formation: z.enum(['line', 'column', 'skirmish']),
  blown: z.boolean().default(false),
});

const artillerySchema = strictObject({
  ...unitCommon,
  kind: z.literal('artillery'),
  /** At least one of class and crewClass; the other follows C12. */
  class: unitClass.optional(),
  crewClass: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'crewClass: 1, 2 or 3' }).optional(),
  gunType: z.enum(['light', 'medium68', 'medium9', 'heavy']),
  mobility: z.enum(['foot', 'horse']),
  guns: z.number().int().min(1).max(30),
  formation: z.enum(['unlimbered', 'limbered']),
});

const unitSchema = z.discriminatedUnion('kind', [infantrySchema, cavalrySchema, artillerySchema], {
  error: (iss) => (iss.code === 'invalid_union' ? 'unit kind: one of "infantry", "cavalry", "artillery"' : undefined),
});

const leaderSchema = strictObject({
  id,
  name,
  /** Command-range class; default: army/wing for the CC, division for an MF, division or cavBrigade for an ME. */
  level: z.enum(['armyWing', 'corps', 'division', 'cavBrigade']).optional(),
  command: z.enum(COMMAND_RATINGS),
  inspiration: z.enum(INSPIRATIONS),
  /** Attached to a unit (id), or standing at x, y (inches). */
  attached: id.optional(),
  x: num.optional(),
  y: num.optional(),
});

const orderSchema = strictObject({
  type: z.enum(ORDER_TYPES as [string, ...string[]]),
  /** The objective (a scenario objective's id) or a point x, y. */
  objective: id.optional(),
  x: num.optional(),
  y: num.optional(),
});

const elementSchema = strictObject({
  id,
  name,
  leader: leaderSchema,
  /** An independent ME's order (an ME inside an MF follows its MF's). */
  order: orderSchema.optional(),
  committed: z.boolean().optional(),
  /** §6.3: arrives from off the table: its entry point on a table edge, facing, and the first turn it may arrive. */
  offBoard: strictObject({ x: num, y: num, facing: facing.optional(), earliestTurn: turn }).optional(),
  units: z.array(unitSchema).min(1, 'an ME has at least one unit'),
});

const formationSchema = strictObject({
  id,
  name,
  leader: leaderSchema,
  order: orderSchema,
  committed: z.boolean().optional(),
  /** Its MEs' ids. */
  elements: z.array(id).min(1, 'an MF has at least one ME'),
});

const sideSchema = strictObject({
  name: z.string().min(1),
  nationality: z.enum(NATIONALITIES as [string, ...string[]]),
  homeEdge: z.enum(['north', 'south', 'east', 'west']),
  facing,
  /** The army/wing commanding general. */
  cc: leaderSchema,
  formations: z.array(formationSchema).default([]),
  elements: z.array(elementSchema).min(1, 'a side has at least one ME'),
});

const objectiveSchema = strictObject({
  id,
  name,
  /** An area terrain feature (the objective is "in" it), or a point x, y. */
  terrain: id.optional(),
  x: num.optional(),
  y: num.optional(),
  /** C14: default the options' objectiveVp (3). */
  vp: z.number().int().min(0).max(20).optional(),
});

const scenarioSchema = strictObject({
  ruleset: z.literal('charge-eagles-rising'),
  id: z.string().regex(/^[a-z0-9-]+$/, 'scenario ids are lower-case letters, digits and -'),
  title: z.string().min(1),
  description: z.string().optional(),
  table: strictObject({ width: z.number().min(12).max(240), height: z.number().min(12).max(240) }),
  /** C14: 8 turns unless the scenario says otherwise. */
  turns: turn.default(8),
  /** C7: the side (by name) that moves first in turn 1's S4; default the first side. */
  strategicFirst: z.string().optional(),
  terrain: z.array(terrainSchema).default([]),
  objectives: z.array(objectiveSchema).default([]),
  sides: z.tuple([sideSchema, sideSchema]),
  options: optionsSchema.default(DEFAULT_OPTIONS),
});

export type Scenario = z.infer<typeof scenarioSchema>;
type SideSpec = Scenario['sides'][number];
type ElementSpec = SideSpec['elements'][number];
type FormationSpec = SideSpec['formations'][number];
type UnitSpec = ElementSpec['units'][number];
type LeaderSpec = SideSpec['cc'];
type OrderSpec = FormationSpec['order'];
type TerrainSpec = Scenario['terrain'][number];

// ---------------------------------------------------------------------------------------------------------------------
// Derived values used by validation and the start
// ---------------------------------------------------------------------------------------------------------------------

type AreaSpec = Extract<TerrainSpec, { polygon: unknown }>;
const isArea = (t: TerrainSpec): t is AreaSpec => 'polygon' in t;

const vecs = (ps: readonly (readonly [number, number])[]): Vec[] => ps.map(([x, y]) => ({ x, y }));
const fxVec = ([x, y]: readonly [number, number]): Vec => ({ x: fx(x), y: fx(y) });

/** Centre of a polygon's bounding box (inches in, inches out). */
function centreOf(ps: readonly (readonly [number, number])[]): [number, number] {
  const b = bbox(vecs(ps));
  return [(b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2];
}

/** §3.1 footprint (inches) of a unit as the scenario places it; null for a garrison. */
function unitFootprint(u: UnitSpec): FootprintSize | null {
  if (u.kind === 'artillery') return footprintSize({ kind: 'artillery', formation: u.formation, guns: u.guns });
  if (u.kind === 'cavalry') return footprintSize({ kind: 'cavalry', formation: u.formation, figures: u.figures });
  if (u.formation === 'garrison') return null;
  return footprintSize({ kind: 'infantry', formation: u.formation, figures: u.figures, ranks: u.ranks });
}

/** The unit's class (C12: a battery given only its crew class is Elite, Regular or Conscript). */
function classOf(u: UnitSpec): UnitClass {
  if (u.kind !== 'artillery') return u.class;
  if (u.class) return u.class;
  return u.crewClass === 1 ? 'elite' : u.crewClass === 3 ? 'conscript' : 'regular';
}

/** C9: a battalion's skirmish combat value (before the Skirmish-formation multiplier). */
function skirmishValue(u: UnitSpec, o: Options): number {
  if (u.kind !== 'infantry') return 0;
  if (u.scv !== undefined) return u.scv;
  return skirmishBase({ cls: u.class, light: !!u.light, weapon: u.weapon ?? 'musket' }, o.scv);
}

/** C2: the default command-range class of a leader. */
function levelOf(l: LeaderSpec, role: 'army' | 'formation' | 'element', units: readonly UnitSpec[]): LeaderLevel {
  if (l.level) return l.level;
  if (role === 'army') return 'armyWing';
  if (role === 'element' && units.every((u) => u.kind === 'cavalry')) return 'cavBrigade';
  return 'division';
}

/** The levels a leader of each role may have (C2: ME leaders are Division/Cav Brigade level). */
const ROLE_LEVELS: Readonly<Record<'army' | 'formation' | 'element', readonly LeaderLevel[]>> = {
  army: ['armyWing', 'corps'],
  formation: ['corps', 'division'],
  element: ['division', 'cavBrigade'],
};

// ---------------------------------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------------------------------

/** Everything wrong with a scenario file, each one line with its JSON path; the validated scenario when nothing is. */
export function validateScenario(json: unknown): Validated<Scenario> {
  const parsed = scenarioSchema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => ({ path: jsonPath(i.path), message: oneLine(i.message) })),
    };
  const sc = parsed.data;
  const problems: Problem[] = [...optionProblems(sc.options)];
  const opt = sc.options;
  const { width, height } = sc.table;
  const onTable = (ps: readonly (readonly [number, number])[], path: string, what: string): Problem[] =>
    offTable(ps, width, height, path, what).map((p) => ({ ...p, path }));
  const ids: { id: string; path: string }[] = [];

  // ----- terrain -----
  const terrainById = new Map<string, TerrainSpec>();
  for (const t of sc.terrain) if (!terrainById.has(t.id)) terrainById.set(t.id, t);
  sc.terrain.forEach((t, i) => {
    const tp = `$.terrain[${i}]`;
    ids.push({ id: t.id, path: `${tp}.id` });
    if (isArea(t)) problems.push(...polygonProblems(t.polygon, width, height, `${tp}.polygon`, `${t.type} ${t.id}`));
    else problems.push(...polylineProblems(t.points, width, height, `${tp}.points`, `${t.type} ${t.id}`));
    if (t.type === 'ford' || t.type === 'bridge') {
      const s = terrainById.get(t.stream);
      if (s?.type !== 'stream')
        problems.push({
          path: `${tp}.stream`,
          message: `no stream "${t.stream}" in the terrain for ${t.type} ${t.id}`,
        });
      else if (!polygonTouchesPolyline(vecs(t.polygon), vecs(s.points)))
        problems.push({ path: `${tp}.polygon`, message: `${t.type} ${t.id} does not touch stream ${s.id}` });
    }
    if (t.type === 'bua') {
      const allowed = t.material === 'wooden' ? ['light', 'medium'] : ['medium', 'heavy'];
      if (!allowed.includes(t.cover))
        problems.push({
          path: `${tp}.cover`,
          message: `a ${t.material} BUA gives ${allowed.join(' or ')} cover, not ${t.cover} (terrain chart)`,
        });
    }
  });

  // ----- objectives -----
  const objectiveIds = new Set(sc.objectives.map((o) => o.id));
  sc.objectives.forEach((o, i) => {
    const op = `$.objectives[${i}]`;
    ids.push({ id: o.id, path: `${op}.id` });
    const hasPoint = o.x !== undefined || o.y !== undefined;
    if ((o.terrain !== undefined) === hasPoint)
      problems.push({ path: op, message: 'an objective is either "terrain" (an area id) or a point x, y, not both' });
    else if (o.terrain !== undefined) {
      const t = terrainById.get(o.terrain);
      if (!t) problems.push({ path: `${op}.terrain`, message: `no terrain "${o.terrain}"` });
      else if (!isArea(t))
        problems.push({ path: `${op}.terrain`, message: `objective terrain ${t.id} is a ${t.type} line, not an area` });
    } else if (o.x === undefined || o.y === undefined)
      problems.push({ path: op, message: 'an objective point needs both x and y' });
    else problems.push(...onTable([[o.x, o.y]], op, `objective ${o.id}`));
  });

  // ----- sides -----
  const names = sc.sides.map((s) => s.name);
  if (names[0] === names[1]) problems.push({ path: '$.sides[1].name', message: `both sides are named "${names[0]}"` });
  if (sc.strategicFirst !== undefined && !names.includes(sc.strategicFirst))
    problems.push({
      path: '$.strategicFirst',
      message: `"${sc.strategicFirst}" is not a side (one of ${names.map((n) => `"${n}"`).join(', ')})`,
    });

  const placed: { poly: Vec[]; path: string; id: string }[] = [];
  const garrisons = new Map<string, string>();
  sc.sides.forEach((side, s) => {
    const base = `$.sides[${s}]`;
    const sideUnits = new Map(side.elements.flatMap((e) => e.units.map((u) => [u.id, e.id] as const)));
    const elementIds = new Set(side.elements.map((e) => e.id));
    const inFormation = new Map<string, string>();

    /** A leader: the right level for his role; attached to a unit he may join, or at a point on the table. */
    const checkLeader = (
      l: LeaderSpec,
      lp: string,
      role: 'army' | 'formation' | 'element',
      mayAttach: ReadonlySet<string>,
      offBoard: boolean,
    ) => {
      ids.push({ id: l.id, path: `${lp}.id` });
      if (l.level !== undefined && !ROLE_LEVELS[role].includes(l.level))
        problems.push({
          path: `${lp}.level`,
          message: `an ${role === 'army' ? 'army CC' : role === 'formation' ? 'MF leader' : 'ME leader'} is ${ROLE_LEVELS[role].join(' or ')} level, not ${l.level} (C2)`,
        });
      const hasPoint = l.x !== undefined || l.y !== undefined;
      if (l.attached !== undefined) {
        if (!sideUnits.has(l.attached))
          problems.push({ path: `${lp}.attached`, message: `"${l.attached}" is not a unit of ${side.name}` });
        else if (!mayAttach.has(l.attached))
          problems.push({ path: `${lp}.attached`, message: `${l.id} may only attach to a unit of his own command` });
        if (hasPoint)
          problems.push({ path: lp, message: 'a leader is either attached to a unit or placed at x, y, not both' });
      } else if (offBoard) {
        if (hasPoint) problems.push({ path: lp, message: 'the leader of an off-board ME arrives with it: no x, y' });
      } else if (l.x === undefined || l.y === undefined)
        problems.push({ path: lp, message: 'a leader needs "attached" (a unit id) or a position x, y' });
      else problems.push(...onTable([[l.x, l.y]], lp, `leader ${l.id}`));
    };

    /** An order's point: a scenario objective, or a point on the table. */
    const checkOrder = (o: OrderSpec, op: string) => {
      const hasPoint = o.x !== undefined || o.y !== undefined;
      if ((o.objective !== undefined) === hasPoint)
        problems.push({ path: op, message: 'an order names an "objective" or a point x, y (not both)' });
      else if (o.objective !== undefined) {
        if (!objectiveIds.has(o.objective))
          problems.push({ path: `${op}.objective`, message: `no objective "${o.objective}" in the scenario` });
      } else if (o.x === undefined || o.y === undefined)
        problems.push({ path: op, message: 'an order point needs both x and y' });
      else problems.push(...onTable([[o.x, o.y]], op, 'order point'));
    };

    checkLeader(side.cc, `${base}.cc`, 'army', new Set(sideUnits.keys()), false);

    side.formations.forEach((f, fi) => {
      const fp = `${base}.formations[${fi}]`;
      ids.push({ id: f.id, path: `${fp}.id` });
      const own = new Set<string>();
      f.elements.forEach((e, ei) => {
        if (!elementIds.has(e))
          problems.push({ path: `${fp}.elements[${ei}]`, message: `"${e}" is not an ME of ${side.name}` });
        else if (inFormation.has(e))
          problems.push({
            path: `${fp}.elements[${ei}]`,
            message: `ME ${e} is already in MF ${inFormation.get(e)}: an ME is in one MF at most`,
          });
        else inFormation.set(e, f.id);
        for (const el of side.elements) if (el.id === e) for (const u of el.units) own.add(u.id);
      });
      checkLeader(f.leader, `${fp}.leader`, 'formation', own, false);
      checkOrder(f.order, `${fp}.order`);
    });

    side.elements.forEach((e, ei) => {
      const ep = `${base}.elements[${ei}]`;
      ids.push({ id: e.id, path: `${ep}.id` });
      const off = e.offBoard !== undefined;
      checkLeader(e.leader, `${ep}.leader`, 'element', new Set(e.units.map((u) => u.id)), off);
      const mf = inFormation.get(e.id);
      if (e.order !== undefined) {
        if (mf !== undefined && opt.orderRecipients === 'formation')
          problems.push({
            path: `${ep}.order`,
            message: `ME ${e.id} is in MF ${mf} and follows its order (C2): give the order to the MF`,
          });
        else checkOrder(e.order, `${ep}.order`);
      } else if (mf === undefined || opt.orderRecipients === 'element')
        problems.push({ path: ep, message: `ME ${e.id} needs an "order" (it is not in an MF)` });
      if (e.committed !== undefined && mf !== undefined)
        problems.push({ path: `${ep}.committed`, message: `ME ${e.id} shares the commitment of its MF ${mf}` });
      if (e.offBoard) {
        const { x, y, earliestTurn } = e.offBoard;
        const onEdge = (x === 0 || x === width) && y >= 0 && y <= height;
        const onEdgeY = (y === 0 || y === height) && x >= 0 && x <= width;
        if (!onEdge && !onEdgeY)
          problems.push({
            path: `${ep}.offBoard`,
            message: `an off-board ME enters on a table edge: (${x}, ${y}) is not on the ${width}"×${height}" table's edge`,
          });
        if (earliestTurn > sc.turns)
          problems.push({
            path: `${ep}.offBoard.earliestTurn`,
            message: `turn ${earliestTurn} is after the game's last turn (${sc.turns})`,
          });
      }

      e.units.forEach((u, ui) => {
        const up = `${ep}.units[${ui}]`;
        ids.push({ id: u.id, path: `${up}.id` });
        const before = problems.length;
        const hasPoint = u.x !== undefined || u.y !== undefined;
        if (u.kind === 'infantry') {
          if (u.formation === 'skirmish' && !u.light && opt.skirmishers === 'lightOnly')
            problems.push({ path: `${up}.formation`, message: 'only light infantry take Skirmish formation (C4)' });
          if (u.formation === 'garrison') {
            if (u.garrison === undefined)
              problems.push({ path: up, message: 'a garrison names its BUA in "garrison"' });
            else if (terrainById.get(u.garrison)?.type !== 'bua')
              problems.push({ path: `${up}.garrison`, message: `no BUA "${u.garrison}" in the terrain` });
            else if (garrisons.has(u.garrison))
              problems.push({
                path: `${up}.garrison`,
                message: `BUA ${u.garrison} is already garrisoned by ${garrisons.get(u.garrison)}`,
              });
            else garrisons.set(u.garrison, u.id);
            if (off) problems.push({ path: `${up}.formation`, message: 'a unit of an off-board ME cannot garrison' });
          } else if (u.garrison !== undefined)
            problems.push({ path: `${up}.garrison`, message: 'only a unit in formation "garrison" names a BUA' });
        }
        if (u.kind === 'cavalry' && u.formation === 'skirmish' && u.weight !== 'light')
          problems.push({ path: `${up}.formation`, message: 'only light cavalry take Skirmish formation (C4)' });
        if (u.kind === 'artillery' && u.class === undefined && u.crewClass === undefined)
          problems.push({ path: up, message: 'a battery needs "class" or "crewClass" (the other follows C12)' });
        const garrisoned = u.kind === 'infantry' && u.formation === 'garrison';
        if (off || garrisoned) {
          if (hasPoint)
            problems.push({
              path: up,
              message: off
                ? "a unit of an off-board ME has no x, y (it enters at its ME's entry point)"
                : 'a garrison stands in its BUA: no x, y',
            });
        } else if (u.x === undefined || u.y === undefined)
          problems.push({ path: up, message: `unit ${u.id} needs a position x, y` });
        // a unit whose make-up or place is wrong has no footprint to check: one problem, not a cascade
        if (problems.length === before && !off && !garrisoned) {
          const size = unitFootprint(u)!;
          const rect = footprintRect({ x: fx(u.x!), y: fx(u.y!) }, u.facing ?? side.facing, size);
          const poly = rectCorners(rect);
          const corners = poly.map((p) => [Math.round(p.x * 10) / 1000, Math.round(p.y * 10) / 1000] as const);
          problems.push(...onTable(corners, up, `unit ${u.id}'s footprint corner`).slice(0, 1));
          placed.push({ poly, path: up, id: u.id });
        }
      });
    });
  });

  // footprints never overlap at rest
  for (let a = 0; a < placed.length; a++)
    for (let b = a + 1; b < placed.length; b++)
      if (polygonsOverlap(placed[a]!.poly, placed[b]!.poly))
        problems.push({ path: placed[b]!.path, message: `unit ${placed[b]!.id} overlaps unit ${placed[a]!.id}` });

  // one id names one thing: units, leaders, MEs, MFs, terrain and objectives share a namespace
  const seen = new Map<string, string>();
  for (const x of ids) {
    const first = seen.get(x.id);
    if (first) problems.push({ path: x.path, message: `duplicate id "${x.id}" (first used at ${first})` });
    else seen.set(x.id, x.path);
  }
  return problems.length ? { ok: false, problems } : { ok: true, value: sc };
}

/** A schema message on one line, a missing field said so. */
function oneLine(m: string): string {
  return m
    .replace(/\s*\n\s*/g, ' ')
    .replace(/^Invalid input: expected (\w+), received undefined$/, 'missing (expected $1)');
}

function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (typeof p === 'string' && /^[A-Za-z_$][\w$]*$/.test(p)) out += `.${p}`;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out;
}

/** A refused scenario file: one line, the first problem's path and message (and how many more there are). */
export class ScenarioFormatError extends Error {
  readonly code = 'scenario/invalid';
  constructor(readonly problems: readonly Problem[]) {
    const [p] = problems;
    const more = problems.length - 1;
    super(`${p!.path}: ${p!.message}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`);
  }
}

/** The typed scenario from untrusted JSON, or a `ScenarioFormatError` naming the first thing wrong in one line. */
export function parseScenario(json: unknown): Scenario {
  const v = validateScenario(json);
  if (!v.ok) throw new ScenarioFormatError(v.problems);
  return v.value;
}

// ---------------------------------------------------------------------------------------------------------------------
// The start
// ---------------------------------------------------------------------------------------------------------------------

/** The geometry's terrain (1/100") from the scenario's: kinds and the flags §3.3–3.4 give them. */
function buildTerrain(sc: Scenario): { areas: TerrainArea[]; lines: TerrainLine[]; buas: Bua[]; rises: Ctx['rises'] } {
  const areas: TerrainArea[] = [];
  const lines: TerrainLine[] = [];
  const buas: Bua[] = [];
  const rises: { id: string; polygon: Polygon; contours: number }[] = [];
  const area = (
    t: AreaSpec,
    kind: string,
    cover: TerrainArea['cover'],
    blocksLos: boolean,
    seeThrough: number,
    difficult = true,
  ) =>
    areas.push({
      id: t.id,
      kind,
      polygon: t.polygon.map(fxVec),
      difficult,
      impassable: false,
      cover,
      blocksLos,
      seeThroughEdge: fx(seeThrough),
    });
  for (const t of sc.terrain) {
    switch (t.type) {
      case 'road':
        lines.push({
          id: t.id,
          kind: 'road',
          points: t.points.map(fxVec),
          obstacle: false,
          cover: 'none',
          coverDepth: 0,
          blocksLos: false,
        });
        break;
      case 'stream':
        lines.push({
          id: t.id,
          kind: 'stream',
          points: t.points.map(fxVec),
          obstacle: true,
          cover: 'none',
          coverDepth: 0,
          blocksLos: false,
        });
        break;
      case 'linearObstacle':
        lines.push({
          id: t.id,
          kind: t.grade === 'minor' ? 'minorObstacle' : 'majorObstacle',
          points: t.points.map(fxVec),
          obstacle: true,
          cover: 'none',
          coverDepth: IN,
          blocksLos: false,
        });
        break;
      case 'ford':
      case 'bridge':
        area(t, t.type, 'none', false, 0, false);
        break;
      // §3.3 (C5): dense woods block beyond 1" in, light woods beyond 2", orchards beyond 4"
      case 'woods':
        if (t.density === 'light') area(t, 'lightWoods', 'soft', true, 2);
        else area(t, 'denseWoods', 'hard', true, 1);
        break;
      case 'orchard':
        area(t, 'orchard', 'soft', true, 4);
        break;
      case 'rough':
        area(t, 'rough', 'none', false, 0);
        break;
      case 'muddy':
        area(t, 'muddy', 'none', false, 0);
        break;
      case 'bua': {
        area(t, 'bua', t.cover === 'light' ? 'soft' : 'hard', true, 0);
        const [cx, cy] = centreOf(t.polygon);
        buas.push({
          id: t.id,
          name: t.name ?? t.id,
          polygon: t.polygon.map(fxVec),
          material: t.material,
          cover: t.cover,
          garrison: t.garrison,
          centre: { x: fx(cx), y: fx(cy) },
        });
        break;
      }
      case 'steepRise': {
        const [cx, cy] = centreOf(t.polygon);
        areas.push({
          id: t.id,
          kind: 'steepRise',
          polygon: t.polygon.map(fxVec),
          difficult: false,
          impassable: false,
          cover: 'none',
          blocksLos: false,
          seeThroughEdge: 0,
          crest: { x: fx(cx), y: fx(cy) },
        });
        rises.push({ id: t.id, polygon: t.polygon.map(fxVec), contours: t.contours });
        break;
      }
    }
  }
  return { areas, lines, buas, rises };
}

const orderFrom = (o: OrderSpec, objectives: Ctx['objectives']): Order => {
  if (o.objective !== undefined) {
    const ob = objectives.find((x) => x.id === o.objective)!;
    return { type: o.type as Order['type'], point: ob.point, objective: ob.id };
  }
  return { type: o.type as Order['type'], point: { x: fx(o.x!), y: fx(o.y!) }, objective: null };
};

/**
 * The game at its start (turn 1, S1, nothing on the procedure stack: the engine's `idle` begins S1), from a
 * validated scenario; `overrides` are rules options given outside the file (a command line), checked by name.
 */
export function initialState(sc: Scenario, overrides?: Readonly<Record<string, unknown>>): CerState {
  const options =
    overrides && Object.keys(overrides).length ? checkOptions({ ...sc.options, ...overrides }) : sc.options;
  const { areas, lines, buas, rises } = buildTerrain(sc);
  const objectives: Ctx['objectives'] = sc.objectives.map((o) => {
    const t = o.terrain !== undefined ? sc.terrain.find((x) => x.id === o.terrain) : undefined;
    const [x, y] = t && isArea(t) ? centreOf(t.polygon) : [o.x!, o.y!];
    return {
      id: o.id,
      name: o.name ?? o.id,
      point: { x: fx(x), y: fx(y) },
      terrain: o.terrain ?? null,
      vp: o.vp ?? options.objectiveVp,
    };
  });
  const ctx: Ctx = {
    scenarioId: sc.id,
    width: fx(sc.table.width),
    height: fx(sc.table.height),
    turns: sc.turns,
    terrain: { areas, lines },
    buas,
    rises,
    objectives,
    homeEdges: [sc.sides[0].homeEdge, sc.sides[1].homeEdge],
    options,
  };

  const units: UnitState[] = [];
  const leaders: LeaderState[] = [];
  const formations: FormationState[] = [];
  const elements: ElementState[] = [];
  const armies: ArmyState[] = [];
  const strength = (us: readonly UnitState[]) => us.reduce((n, u) => n + unitStartStrength(u, options.gunStrength), 0);

  sc.sides.forEach((side, si) => {
    const s = si as Side;
    const mfOf = new Map(side.formations.flatMap((f) => f.elements.map((e) => [e, f] as const)));
    const sideUnits: UnitState[] = [];
    for (const e of side.elements) {
      const off = e.offBoard;
      for (const u of e.units) {
        const garrison =
          u.kind === 'infantry' && u.formation === 'garrison' ? buas.find((b) => b.id === u.garrison)! : null;
        const pos: Vec = garrison
          ? garrison.centre
          : off
            ? { x: fx(off.x), y: fx(off.y) }
            : { x: fx(u.x!), y: fx(u.y!) };
        const base = {
          id: u.id,
          side: s,
          name: u.name ?? u.id,
          element: e.id,
          class: classOf(u),
          nationality: (u.nationality ?? side.nationality) as UnitState['nationality'],
          pos,
          facing: u.facing ?? off?.facing ?? side.facing,
          status: off ? ('offBoard' as const) : ('active' as const),
          disordered: u.disordered,
          worn: false,
          spent: false,
          wornTested: false,
          spentTested: false,
          attachedLeader: null,
          phase: NO_PHASE_FLAGS,
        };
        let unit: UnitState;
        if (u.kind === 'infantry')
          unit = {
            ...base,
            kind: 'infantry',
            doctrine: u.doctrine,
            ranks: u.ranks,
            weapon: u.weapon,
            light: u.light,
            sappers: u.sappers,
            regimentalGuns: u.regimentalGuns,
            scv: skirmishValue(u, options),
            figuresStart: u.figures,
            figures: u.figures,
            formation: u.formation,
            garrison: garrison ? garrison.id : null,
          };
        else if (u.kind === 'cavalry')
          unit = {
            ...base,
            kind: 'cavalry',
            weight: u.weight,
            lancers: u.lancers,
            figuresStart: u.figures,
            figures: u.figures,
            formation: u.formation,
            blown: u.blown,
          };
        else
          unit = {
            ...base,
            kind: 'artillery',
            gunType: u.gunType,
            mobility: u.mobility,
            crewClass: (u.crewClass ?? crewClassOf(classOf(u))) as CrewClass,
            gunsStart: u.guns,
            guns: u.guns,
            formation: u.formation,
            limberedAtTurnStart: u.formation === 'limbered',
            suppressed: false,
            abandoned: false,
          };
        sideUnits.push(unit);
      }
    }

    const leader = (
      l: LeaderSpec,
      role: LeaderState['role'],
      commands: string,
      own: readonly UnitSpec[],
      off: ElementSpec['offBoard'],
    ): LeaderState => {
      const host = l.attached !== undefined ? sideUnits.find((u) => u.id === l.attached) : undefined;
      return {
        id: l.id,
        side: s,
        name: l.name ?? l.id,
        role,
        commands,
        level: levelOf(l, role, own),
        command: l.command as LeaderState['command'],
        inspiration: l.inspiration as LeaderState['inspiration'],
        pos: host ? host.pos : off ? { x: fx(off.x), y: fx(off.y) } : { x: fx(l.x!), y: fx(l.y!) },
        attachedTo: host ? host.id : null,
        status: 'active',
        backAfterTurn: 0,
        offBoard: off !== undefined,
        replacement: null,
      };
    };
    const sideLeaders: LeaderState[] = [leader(side.cc, 'army', '', [], undefined)];

    for (const f of side.formations) {
      const own = side.elements.filter((e) => f.elements.includes(e.id));
      sideLeaders.push(
        leader(
          f.leader,
          'formation',
          f.id,
          own.flatMap((e) => e.units),
          undefined,
        ),
      );
      const order = orderFrom(f.order, objectives);
      formations.push({
        kind: 'formation',
        id: f.id,
        side: s,
        name: f.name ?? f.id,
        leader: f.leader.id,
        order,
        orderAttempts: 0,
        committed: f.committed ?? COMMITTING_ORDERS.includes(order.type),
        messengerArrivesTurn: 0,
        startStrength: strength(sideUnits.filter((u) => f.elements.includes(u.element))),
        broken: false,
        moraleTriggers: NO_TRIGGERS,
        moraleTested: false,
        elements: f.elements,
      });
    }
    for (const e of side.elements) {
      sideLeaders.push(leader(e.leader, 'element', e.id, e.units, e.offBoard));
      const mf = mfOf.get(e.id);
      const order =
        mf && options.orderRecipients === 'formation'
          ? orderFrom(mf.order, objectives)
          : orderFrom(e.order!, objectives);
      elements.push({
        kind: 'element',
        id: e.id,
        side: s,
        name: e.name ?? e.id,
        leader: e.leader.id,
        order,
        orderAttempts: 0,
        committed: mf
          ? (mf.committed ?? COMMITTING_ORDERS.includes(order.type))
          : (e.committed ?? COMMITTING_ORDERS.includes(order.type)),
        messengerArrivesTurn: 0,
        startStrength: strength(sideUnits.filter((u) => u.element === e.id)),
        broken: false,
        moraleTriggers: NO_TRIGGERS,
        moraleTested: false,
        formation: mf?.id ?? null,
        units: e.units.map((u) => u.id),
        offBoard: e.offBoard
          ? {
              entry: { x: fx(e.offBoard.x), y: fx(e.offBoard.y) },
              facing: e.offBoard.facing ?? side.facing,
              earliestTurn: e.offBoard.earliestTurn,
              arriving: false,
            }
          : null,
        strategicMoveThisTurn: false,
        activatedThisPhase: false,
      });
    }
    // a unit knows the leader attached to it
    for (const l of sideLeaders)
      if (l.attachedTo !== null) {
        const i = sideUnits.findIndex((u) => u.id === l.attachedTo);
        sideUnits[i] = { ...sideUnits[i]!, attachedLeader: l.id };
      }
    units.push(...sideUnits);
    leaders.push(...sideLeaders);
    armies.push({
      side: s,
      name: side.name,
      nationality: side.nationality as ArmyState['nationality'],
      cc: side.cc.id,
      formations: side.formations.map((f) => f.id),
      elements: side.elements.map((e) => e.id),
      startStrength: strength(sideUnits),
      newLosses: false,
      broken: false,
    });
  });

  const first = sc.strategicFirst === undefined ? 0 : sc.sides.findIndex((x) => x.name === sc.strategicFirst);
  return {
    ctx,
    stack: [],
    nChance: 0,
    turn: 1,
    phase: 'S1',
    firstSide: null,
    previousFirstSide: null,
    strategicFirst: Math.max(first, 0) as Side,
    armies: [armies[0]!, armies[1]!],
    formations,
    elements,
    leaders,
    units,
    secret: [{ orders: [] }, { orders: [] }],
    tactical: null,
    result: null,
  };
}
