/**
 * Eagles of the Empire scenario files: armies with their command structure [3.32], the order of battle as a tree of
 * formations and forces [2.2, 2.3] with leaders [2.22] and units with step tracks [2.3 Steps], HQ, Chief of Staff,
 * staff and line officers [9.5, 15.3], set-up with facings [13.9], the turn track and weather [2.4, 5.0],
 * reinforcements [6.0], special rules, and victory conditions (the series rules have none: A-53).
 *
 * The map is a separate file (engine/areas); a scenario names it and is validated against it. Step notation follows
 * the digest: "A5-5" is step A with strength 5 and morale 5; lower-case letters are short-counter steps; artillery
 * steps have no morale ("a2"), all artillery having morale 3 [2.21, 18.0].
 */
import { z } from 'zod';
import type { Problem, Validated } from '../../core/game.ts';
import { validateWith } from '../../core/validate.ts';
import { optionProblems } from './rules-config.ts';
import type { AreaMap } from '../../areas/map.ts';

export interface Step {
  readonly label: string;
  readonly sp: number;
  /** Morale of the step (artillery: 3 [2.21]; HQ: none [18.0]). */
  readonly morale: number | null;
  /** Long counter (capital letter) or short counter (lower case) [2.3 Steps]. */
  readonly form: 'long' | 'short';
}

const STEP_RE = /^([A-Za-z])(\d+)(?:-(\d+))?$/;

export function parseStep(text: string, kind: 'infantry' | 'cavalry' | 'artillery'): Step | string {
  const m = STEP_RE.exec(text);
  if (!m) return `"${text}" is not a step (expected e.g. "A5-5", "c2-3" or "a2")`;
  const label = m[1]!;
  const sp = Number(m[2]);
  const form = label === label.toUpperCase() ? 'long' : 'short';
  if (kind === 'artillery') {
    if (m[3] !== undefined) return `artillery step "${text}" has no morale: all artillery has morale 3 [2.21]`;
    return { label, sp, morale: 3, form: 'short' };
  }
  if (m[3] === undefined) return `step "${text}" needs a morale ("${label}${sp}-M")`;
  if (kind === 'cavalry' && form === 'long') return `cavalry step "${text}" must be lower case: cavalry are short counters [2.22]`;
  return { label, sp, morale: Number(m[3]), form };
}

const leaderSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  role: z.enum(['armyCommander', 'intermediate', 'formation', 'force', 'divisionBrigade', 'subordinate', 'artillery', 'chiefOfStaff', 'staffOfficer', 'lineOfficer']),
  arm: z.enum(['general', 'infantry', 'cavalry', 'artillery']).default('general'),
  /** Higher is more senior [2.3 Seniority]. */
  grade: z.number().int().min(0).default(1),
  radius: z.number().int().min(0),
  /** Tactical rating; "3" or split "1/2" (attacking/defending) [2.21]. */
  tactical: z.union([z.number().int().min(0), z.string().regex(/^\d+\/\d+$/, 'a split rating is written "A/D", e.g. "1/2"')]),
  initiative: z.number().int().min(0).max(6),
  isNapoleon: z.boolean().default(false),
  canGrandCharge: z.boolean().default(false),
});

const unitSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  kind: z.enum(['infantry', 'cavalry', 'artillery']),
  /** Infantry: long counter (with a facing) or short counter [2.22]. */
  counter: z.enum(['long', 'short']).optional(),
  cavClass: z.enum(['heavy', 'medium', 'light', 'irregular']).optional(),
  artKind: z.enum(['foot', 'heavy', 'horse', 'mortar', 'rocket', 'licorne']).optional(),
  steps: z.array(z.string()).min(1),
  /** Index of the starting step (default 0: the strongest) [2.3]. */
  startStep: z.number().int().min(0).default(0),
  elite: z.boolean().default(false),
  guard: z.boolean().default(false),
  lancer: z.boolean().default(false),
  rifle: z.boolean().default(false),
  artilleryPark: z.boolean().default(false),
  /** Extended-line markers the scenario provides [16.0]. */
  extendedLines: z.object({ half: z.number().int().min(0).default(0), third: z.number().int().min(0).default(0) }).optional(),
});

interface FormationJson {
  id: string;
  name: string;
  kind: 'intermediate' | 'formation' | 'force' | 'hq';
  leader?: string | undefined;
  /** Leaders kept off-map (division/brigade leaders [2.3]). */
  offMapLeaders: string[];
  units: z.infer<typeof unitSchema>[];
  /** Reserve units (HQ formation until assigned [11.1]). */
  reserve: boolean;
  forces: FormationJson[];
}
const formationSchema: z.ZodType<FormationJson, unknown> = z.lazy(() =>
  z.object({
    id: z.string().min(1),
    name: z.string().min(1),
    kind: z.enum(['intermediate', 'formation', 'force', 'hq']).default('formation'),
    leader: z.string().optional(),
    offMapLeaders: z.array(z.string()).default([]),
    units: z.array(unitSchema).default([]),
    reserve: z.boolean().default(false),
    forces: z.array(formationSchema).default([]),
  }),
) as never;

const sideSchema = z.object({
  name: z.string().min(1),
  nationality: z.string().min(1),
  /** [3.32]; Rigid when the scenario is unclear [3.3]. */
  structure: z.enum(['rigid', 'semi-rigid', 'flexible', 'absolute']).default('rigid'),
  leaders: z.array(leaderSchema).min(1),
  armyCommander: z.string().min(1),
  hq: z.object({ id: z.string().min(1), name: z.string().min(1), radius: z.number().int().min(0) }).optional(),
  chiefOfStaff: z.string().optional(),
  formations: z.array(formationSchema).min(1),
  /** Staff and line officers held for replacement [9.52, 15.3]. */
  staffOfficers: z.array(z.string()).default([]),
  lineOfficers: z.array(z.string()).default([]),
  /**
   * Alternate deployments [11.3] as the scenario instructs: `parent` deploys `units` (held off the map until then) in
   * its area, giving up the steps they hold; `atStart`: made at set-up [11.31].
   */
  deployments: z.array(z.object({ id: z.string().min(1), parent: z.string().min(1), units: z.array(z.string().min(1)).min(1), atStart: z.boolean().default(false) })).default([]),
  /** Special-rule permissions [17.0, 17.2, 14.7, 10.8]. */
  allow: z
    .object({ square: z.boolean().default(true), reverseSlope: z.boolean().default(false), massedColumn: z.boolean().default(false) })
    .default({ square: true, reverseSlope: false, massedColumn: false }),
});

const placementSchema = z.object({
  area: z.number().int().positive(),
  units: z.array(z.string()).default([]),
  leaders: z.array(z.string()).default([]),
  hq: z.boolean().default(false),
  /** Conformation per long counter and artillery unit [13.9]. */
  facing: z.record(z.string(), z.string()).default({}),
});

export const scenarioSchema = z.object({
  ruleset: z.literal('eagles-of-the-empire'),
  id: z.string().min(1),
  title: z.string().min(1),
  description: z.string().optional(),
  map: z.string().min(1),
  sides: z.tuple([sideSchema, sideSchema]),
  setup: z.tuple([z.array(placementSchema), z.array(placementSchema)]),
  /** The turn track [2.4]: hour label and time of day per turn. */
  turns: z.array(z.object({ hour: z.string(), time: z.enum(['dawn', 'day', 'dusk', 'night']).default('day') })).min(1),
  /** Weather [5.0]: fixed, or a d6 table rolled each turn from `fromTurn` (earlier turns use `initial`). */
  weather: z
    .object({
      initial: z.enum(['clear', 'rain', 'fog', 'snow']).default('clear'),
      fromTurn: z.number().int().min(1).optional(),
      table: z.array(z.enum(['clear', 'rain', 'fog', 'snow'])).length(6).optional(),
    })
    .default({ initial: 'clear' }),
  reinforcements: z
    .array(
      z.object({
        id: z.string().min(1),
        side: z.union([z.literal(0), z.literal(1)]),
        turn: z.number().int().min(1),
        area: z.number().int().positive(),
        units: z.array(z.string()).default([]),
        leaders: z.array(z.string()).default([]),
        /** Arrives as HQ reserve [11.1]. */
        reserve: z.boolean().default(false),
      }),
    )
    .default([]),
  rules: z
    .object({
      rout: z.boolean().default(false),
      villagesBlockLos: z.boolean().default(false),
      mediumAsLight: z.boolean().default(true),
      irregularAsLight: z.boolean().default(true),
      /** Sides whose artillery gets the HQ/CoS +1 [12.31]. */
      hqArtilleryBonus: z.array(z.union([z.literal(0), z.literal(1)])).default([]),
    })
    .default({ rout: false, villagesBlockLos: false, mediumAsLight: true, irregularAsLight: true, hqArtilleryBonus: [] }),
  victory: z.object({
    vp: z.object({
      step: z.number().default(1),
      artilleryUnit: z.number().default(2),
      leader: z.number().default(3),
      hq: z.number().default(4),
      /** Army commanders by leader id. */
      armyCommander: z.record(z.string(), z.number()).default({}),
    }),
    objectives: z.array(z.object({ area: z.number().int().positive(), vp: z.tuple([z.number(), z.number()]) })).default([]),
    /** Side controlling each objective at the start. */
    control: z.record(z.string(), z.union([z.literal(0), z.literal(1)])).default({}),
    /** D = VP(side 0) − VP(side 1): at least `decisive` / `marginal` wins; within ±(marginal − 1) a draw. */
    thresholds: z.object({ decisive: z.number(), marginal: z.number() }),
  }),
  /** The rules configuration (rules-config.ts): ADAPTATIONs by id ("A-nn": "digest") and the digest's named options. */
  options: z.record(z.string(), z.unknown()).default({}),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type SideJson = Scenario['sides'][number];
export type LeaderJson = SideJson['leaders'][number];
export type UnitJson = z.infer<typeof unitSchema>;
export type DeploymentJson = SideJson['deployments'][number];
export type Formation = FormationJson;

/** Every formation and force of a side, depth first, with its parent's id. */
const formationCache = new WeakMap<SideJson, readonly { f: Formation; parent: string | null }[]>();
/** Every formation of a side with its parent, depth first (cached per side: scenarios are immutable once validated). */
export function formationsOf(side: SideJson): readonly { f: Formation; parent: string | null }[] {
  const hit = formationCache.get(side);
  if (hit) return hit;
  const out: { f: Formation; parent: string | null }[] = [];
  const walk = (f: Formation, parent: string | null) => {
    out.push({ f, parent });
    for (const c of f.forces) walk(c, f.id);
  };
  for (const f of side.formations) walk(f, null);
  formationCache.set(side, out);
  return out;
}

function semantic(map: AreaMap) {
  return (s: Scenario): Problem[] => {
    const out: Problem[] = [];
    if (s.map !== map.id) out.push({ path: '$.map', message: `scenario is for map "${s.map}" but was checked against "${map.id}"` });
    const unitIds = new Map<string, string>();
    const leaderIds = new Map<string, string>();
    s.sides.forEach((side, si) => {
      const sp = `$.sides[${si}]`;
      side.leaders.forEach((l, i) => {
        if (leaderIds.has(l.id)) out.push({ path: `${sp}.leaders[${i}].id`, message: `duplicate leader id "${l.id}"` });
        leaderIds.set(l.id, `${sp}.leaders[${i}]`);
      });
      const mine = new Set(side.leaders.map((l) => l.id));
      const needLeader = (id: string | undefined, path: string, role?: string) => {
        if (id === undefined) return;
        if (!mine.has(id)) out.push({ path, message: `unknown leader "${id}" (not among ${side.name}'s leaders)` });
        else if (role && side.leaders.find((l) => l.id === id)!.role !== role) out.push({ path, message: `leader "${id}" must have role ${role}` });
      };
      needLeader(side.armyCommander, `${sp}.armyCommander`, 'armyCommander');
      needLeader(side.chiefOfStaff, `${sp}.chiefOfStaff`, 'chiefOfStaff');
      if (side.chiefOfStaff && !side.hq) out.push({ path: `${sp}.chiefOfStaff`, message: 'a Chief of Staff needs an HQ [9.5]' });
      side.staffOfficers.forEach((id, i) => needLeader(id, `${sp}.staffOfficers[${i}]`, 'staffOfficer'));
      side.lineOfficers.forEach((id, i) => needLeader(id, `${sp}.lineOfficers[${i}]`, 'lineOfficer'));
      const fids = new Set<string>();
      let hqFormations = 0;
      formationsOf(side).forEach(({ f }) => {
        const fp = `${sp}.formations(${f.id})`;
        if (fids.has(f.id)) out.push({ path: fp, message: `duplicate formation id "${f.id}"` });
        fids.add(f.id);
        if (f.kind === 'hq') hqFormations++;
        needLeader(f.leader, `${fp}.leader`);
        f.offMapLeaders.forEach((id, i) => needLeader(id, `${fp}.offMapLeaders[${i}]`, 'divisionBrigade'));
        if (f.reserve && f.kind !== 'hq') out.push({ path: `${fp}.reserve`, message: 'reserve units belong to the HQ formation until assigned [11.1]' });
        f.units.forEach((u, i) => {
          const up = `${fp}.units[${i}]`;
          if (unitIds.has(u.id)) out.push({ path: `${up}.id`, message: `duplicate unit id "${u.id}" (also ${unitIds.get(u.id)})` });
          unitIds.set(u.id, up);
          if (u.kind === 'infantry' && !u.counter) out.push({ path: `${up}.counter`, message: 'infantry needs counter: "long" or "short" [2.22]' });
          if (u.kind === 'cavalry' && !u.cavClass) out.push({ path: `${up}.cavClass`, message: 'cavalry needs cavClass: heavy, medium, light or irregular [2.22]' });
          if (u.kind === 'artillery' && !u.artKind) out.push({ path: `${up}.artKind`, message: 'artillery needs artKind: foot, heavy, horse, mortar, rocket or licorne [2.22]' });
          if (u.kind !== 'infantry' && u.steps.length > 2) out.push({ path: `${up}.steps`, message: `${u.kind} has at most two steps [2.3 Steps]` });
          if (u.startStep >= u.steps.length) out.push({ path: `${up}.startStep`, message: `start step ${u.startStep} is past the last step` });
          u.steps.forEach((t, j) => {
            const st = parseStep(t, u.kind);
            if (typeof st === 'string') out.push({ path: `${up}.steps[${j}]`, message: st });
          });
          if (u.counter === 'long' && parseStep(u.steps[u.startStep] ?? '', 'infantry') instanceof Object && (parseStep(u.steps[u.startStep]!, 'infantry') as Step).form !== 'long')
            out.push({ path: `${up}.steps`, message: 'a long counter starts on a long (capital-letter) step' });
          if (u.extendedLines && !(u.kind === 'infantry' && u.counter === 'long')) out.push({ path: `${up}.extendedLines`, message: 'only infantry long counters form extended lines [16.0]' });
          if (u.extendedLines && u.extendedLines.third === 1) out.push({ path: `${up}.extendedLines.third`, message: '1/3 markers come in pairs: a single 1/3 marker may not be used [16.8]' });
        });
      });
      if (side.hq && hqFormations !== 1) out.push({ path: `${sp}.formations`, message: `a side with an HQ has exactly one formation of kind "hq" (found ${hqFormations}) [9.5]` });
      if (!side.hq && hqFormations) out.push({ path: `${sp}.hq`, message: 'an "hq" formation needs the side\'s hq entry' });
    });
    const side0Units = new Set(formationsOf(s.sides[0]).flatMap(({ f }) => f.units.map((u) => u.id)));
    const side1Units = new Set(formationsOf(s.sides[1]).flatMap(({ f }) => f.units.map((u) => u.id)));
    const sideUnits = [side0Units, side1Units];
    const placed = new Set<string>();
    const placedLeaders = new Set<string>();
    s.setup.forEach((list, si) =>
      list.forEach((p, i) => {
        const pp = `$.setup[${si}][${i}]`;
        if (!map.areas.has(p.area)) out.push({ path: `${pp}.area`, message: `unknown area ${p.area} on map ${map.id}` });
        p.units.forEach((u, j) => {
          if (!sideUnits[si]!.has(u)) out.push({ path: `${pp}.units[${j}]`, message: `unknown unit "${u}" for ${s.sides[si]!.name}` });
          if (placed.has(u)) out.push({ path: `${pp}.units[${j}]`, message: `unit "${u}" is placed twice` });
          placed.add(u);
        });
        p.leaders.forEach((l, j) => {
          if (!s.sides[si]!.leaders.some((x) => x.id === l)) out.push({ path: `${pp}.leaders[${j}]`, message: `unknown leader "${l}" for ${s.sides[si]!.name}` });
          if (placedLeaders.has(l)) out.push({ path: `${pp}.leaders[${j}]`, message: `leader "${l}" is placed twice` });
          placedLeaders.add(l);
        });
        if (p.hq && !s.sides[si]!.hq) out.push({ path: `${pp}.hq`, message: `${s.sides[si]!.name} has no HQ` });
        for (const [u, conf] of Object.entries(p.facing)) {
          if (!p.units.includes(u)) out.push({ path: `${pp}.facing.${u}`, message: `facing given for "${u}", which is not placed here` });
          else if (map.areas.has(p.area) && !map.area(p.area).allAround && !map.area(p.area).conformations.some((c) => c.id === conf))
            out.push({ path: `${pp}.facing.${u}`, message: `area ${p.area} has no conformation "${conf}"` });
        }
      }),
    );
    s.reinforcements.forEach((r, i) => {
      const rp = `$.reinforcements[${i}]`;
      if (!map.areas.has(r.area)) out.push({ path: `${rp}.area`, message: `unknown area ${r.area}` });
      if (r.turn > s.turns.length) out.push({ path: `${rp}.turn`, message: `turn ${r.turn} is after the last turn (${s.turns.length})` });
      r.units.forEach((u, j) => {
        if (!sideUnits[r.side]!.has(u)) out.push({ path: `${rp}.units[${j}]`, message: `unknown unit "${u}" for ${s.sides[r.side]!.name}` });
        if (placed.has(u)) out.push({ path: `${rp}.units[${j}]`, message: `unit "${u}" is already placed at set-up or in another reinforcement` });
        placed.add(u);
      });
    });
    // alternate deployments [11.3]: the alternates are held off the map until the parent deploys them
    s.sides.forEach((side, si) => {
      const ids = new Set<string>();
      const held = new Set<string>();
      const def = (id: string) => formationsOf(side).flatMap(({ f }) => f.units).find((u) => u.id === id);
      side.deployments.forEach((d, i) => {
        const dp = `$.sides[${si}].deployments[${i}]`;
        if (ids.has(d.id)) out.push({ path: `${dp}.id`, message: `duplicate deployment id "${d.id}"` });
        ids.add(d.id);
        const parent = def(d.parent);
        if (!parent) out.push({ path: `${dp}.parent`, message: `unknown unit "${d.parent}" for ${side.name}` });
        let k = 0;
        d.units.forEach((u, j) => {
          const c = def(u);
          if (!c) {
            out.push({ path: `${dp}.units[${j}]`, message: `unknown unit "${u}" for ${side.name}` });
            return;
          }
          if (u === d.parent || held.has(u)) out.push({ path: `${dp}.units[${j}]`, message: `unit "${u}" is already the parent or an alternate of a deployment` });
          if (placed.has(u)) out.push({ path: `${dp}.units[${j}]`, message: `alternate "${u}" must not be set up or a reinforcement: it enters when deployed [11.31]` });
          held.add(u);
          k += c.steps.length - c.startStep;
        });
        if (parent && parent.steps.length - parent.startStep <= k) out.push({ path: `${dp}.units`, message: `${d.parent} has ${parent.steps.length - parent.startStep} steps: it cannot give up ${k} for its alternates and keep one [11.3]` });
        if (d.atStart && parent && !s.setup[si]!.some((pl) => pl.units.includes(d.parent))) out.push({ path: `${dp}.atStart`, message: `${d.parent} is not set up, so it cannot deploy at set-up [11.31]` });
      });
      for (const u of held) placed.add(u);
    });
    // every unit enters the game somewhere
    for (const [si, ids] of sideUnits.entries()) for (const u of ids) if (!placed.has(u)) out.push({ path: `$.setup[${si}]`, message: `unit "${u}" is neither set up, nor a reinforcement, nor an alternate deployment` });
    // the rules configuration: every ADAPTATION by name, with the digest's default (rules-config.ts)
    out.push(...optionProblems(s.options));
    // the series rules treat medium and irregular cavalry as light; other treatments need scenario rules
    if (!s.rules.mediumAsLight) out.push({ path: '$.rules.mediumAsLight', message: 'A-59: medium cavalry other than light needs scenario special rules, which are not implemented' });
    if (!s.rules.irregularAsLight) out.push({ path: '$.rules.irregularAsLight', message: 'A-59: irregular cavalry other than light needs scenario special rules, which are not implemented' });
    if (s.weather.table && s.weather.fromTurn === undefined) out.push({ path: '$.weather.fromTurn', message: 'a weather table needs fromTurn' });
    s.victory.objectives.forEach((o, i) => !map.areas.has(o.area) && out.push({ path: `$.victory.objectives[${i}].area`, message: `unknown area ${o.area}` }));
    if (s.victory.thresholds.decisive < s.victory.thresholds.marginal) out.push({ path: '$.victory.thresholds', message: 'decisive must be at least marginal' });
    return out;
  };
}

/** Validate scenario JSON against its map, listing every problem with its JSON path. */
export function validateScenario(json: unknown, map: AreaMap): Validated<Scenario> {
  return validateWith(scenarioSchema, json, semantic(map));
}
