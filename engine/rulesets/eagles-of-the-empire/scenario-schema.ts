/**
 * The Eagles of the Empire scenario file's schema (scenario.ts validates a file against it and its map): armies, the
 * order of battle as a tree of formations and forces [2.2, 2.3], leaders with their printed ratings [2.21, 2.22],
 * units with step tracks [2.3 Steps] in the digest's notation ("A5-5": step A, strength 5, morale 5; lower case:
 * short-counter steps; artillery "a2", morale 3 [2.21, 18.0]), set-up, turns and weather [2.4, 5.0], reinforcements
 * [6.0] and victory; the ranges the rules imply.
 */
import { z } from 'zod';
import { strictObject } from '../../core/suggest.ts';

export interface Step {
  readonly label: string;
  readonly sp: number;
  /** Morale of the step (artillery: 3 [2.21]; HQ: none [18.0]). */
  readonly morale: number | null;
  /** Long counter (capital letter) or short counter (lower case) [2.3 Steps]. */
  readonly form: 'long' | 'short';
}

const STEP_RE = /^([A-Za-z])(\d+)(?:-(\d+))?$/;
/** No area holds more than 25 SP (a circle 3 area [13.63]), so no step holds more. */
const MAX_SP = 25;
/** Ratings are printed single digits on the counters [2.21]. */
const MAX_RATING = 9;
/** Victory points per item and thresholds: whole numbers within these bounds. */
const MAX_VP = 100;
const MAX_THRESHOLD = 1000;
/** Grades run from a replacement colonel (0) through brigadier (1) up to an Emperor or King (10) [2.22, 2.3 Seniority]. */
const MAX_GRADE = 10;
/** A step track is lettered from A, one letter a step [2.3 Steps]: at most 26 steps. */
const MAX_STEPS = 26;
/** Turns on a track: two days of hourly turns [2.4] is more than any battle needs. */
const MAX_TURNS = 48;
/** Scenario and map ids: map ids name files under data/maps/, so no path separators or dots. */
const ID_RE = /^[a-z0-9-]+$/;

export function parseStep(text: string, kind: 'infantry' | 'cavalry' | 'artillery'): Step | string {
  const m = STEP_RE.exec(text);
  if (!m) return `"${text}" is not a step (expected e.g. "A5-5", "c2-3" or "a2")`;
  const label = m[1]!;
  const sp = Number(m[2]);
  const form = label === label.toUpperCase() ? 'long' : 'short';
  if (sp < 1 || sp > MAX_SP)
    return `step "${text}" has ${sp} SP: a step has 1 to ${MAX_SP} (its strength points [2.21]; no area holds more than ${MAX_SP} [13.63])`;
  if (kind === 'artillery') {
    if (m[3] !== undefined) return `artillery step "${text}" has no morale: all artillery has morale 3 [2.21]`;
    return { label, sp, morale: 3, form: 'short' };
  }
  if (m[3] === undefined) return `step "${text}" needs a morale ("${label}${sp}-M")`;
  const morale = Number(m[3]);
  if (morale < 1 || morale > MAX_RATING)
    return `step "${text}" has morale ${morale}: a morale rating is a printed 1 to ${MAX_RATING} [2.21] (units test it on a die [18.0])`;
  if (kind === 'cavalry' && form === 'long')
    return `cavalry step "${text}" must be lower case: cavalry are short counters [2.22]`;
  return { label, sp, morale, form };
}

/** Every leader role a scenario may give [2.3, 9.5, 15.3]. */
export const LEADER_ROLES = [
  'armyCommander',
  'intermediate',
  'formation',
  'force',
  'divisionBrigade',
  'subordinate',
  'artillery',
  'chiefOfStaff',
  'staffOfficer',
  'lineOfficer',
] as const;

const leaderSchema = strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  role: z.enum(LEADER_ROLES),
  arm: z.enum(['general', 'infantry', 'cavalry', 'artillery']).default('general'),
  /** Higher is more senior [2.3 Seniority]. */
  grade: z
    .number()
    .int()
    .min(0)
    .max(MAX_GRADE, `a grade is 0 (a replacement colonel) to ${MAX_GRADE} (an Emperor or King) [2.22, 2.3 Seniority]`)
    .default(1),
  radius: z.number().int().min(0).max(MAX_RATING, `a command radius is a printed 0 to ${MAX_RATING} [2.21]`),
  /** Tactical rating; "3" or split "1/2" (attacking/defending) [2.21]. */
  tactical: z.union([
    z.number().int().min(0).max(MAX_RATING, `a tactical rating is a printed 0 to ${MAX_RATING} [2.21]`),
    z
      .string()
      .regex(/^\d\/\d$/, `a split rating is written "A/D" with each a printed 0 to ${MAX_RATING}, e.g. "1/2" [2.21]`),
  ]),
  /** Activation succeeds on a die at most the initiative [8.1]: 6 always succeeds. */
  initiative: z.number().int().min(0).max(6, 'an initiative rating is 0 to 6: the activation die is a d6 [8.1]'),
  isNapoleon: z.boolean().default(false),
  canGrandCharge: z.boolean().default(false),
});

const unitSchema = strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  kind: z.enum(['infantry', 'cavalry', 'artillery']),
  /** Infantry: long counter (with a facing) or short counter [2.22]. */
  counter: z.enum(['long', 'short']).optional(),
  cavClass: z.enum(['heavy', 'medium', 'light', 'irregular']).optional(),
  artKind: z.enum(['foot', 'heavy', 'horse', 'mortar', 'rocket', 'licorne']).optional(),
  steps: z
    .array(z.string())
    .min(1)
    .max(MAX_STEPS, `a step track has at most ${MAX_STEPS} steps, one letter each from A [2.3 Steps]`),
  /** Index of the starting step (default 0: the strongest) [2.3]. */
  startStep: z.number().int().min(0).default(0),
  elite: z.boolean().default(false),
  guard: z.boolean().default(false),
  lancer: z.boolean().default(false),
  rifle: z.boolean().default(false),
  artilleryPark: z.boolean().default(false),
  /** Extended-line markers the scenario provides [16.0]. */
  extendedLines: strictObject({
    half: z
      .number()
      .int()
      .min(0)
      .max(1, 'a long counter extends with at most one "1/2" marker [16.0, 16.1]')
      .default(0),
    third: z
      .number()
      .int()
      .min(0)
      .max(2, 'a long counter extends with at most two "1/3" markers, a pair [16.8]')
      .default(0),
  }).optional(),
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
  strictObject({
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

const sideSchema = strictObject({
  name: z.string().min(1),
  nationality: z.string().min(1),
  /** [3.32]; Rigid when the scenario is unclear [3.3]. */
  structure: z.enum(['rigid', 'semi-rigid', 'flexible', 'absolute']).default('rigid'),
  leaders: z.array(leaderSchema).min(1),
  armyCommander: z.string().min(1),
  hq: strictObject({
    id: z.string().min(1),
    name: z.string().min(1),
    radius: z.number().int().min(0).max(MAX_RATING, `an HQ's command radius is a printed 0 to ${MAX_RATING} [2.21]`),
  }).optional(),
  chiefOfStaff: z.string().optional(),
  formations: z.array(formationSchema).min(1),
  /** Staff and line officers held for replacement [9.52, 15.3]. */
  staffOfficers: z.array(z.string()).default([]),
  lineOfficers: z.array(z.string()).default([]),
  /**
   * Alternate deployments [11.3] as the scenario instructs: `parent` deploys `units` (held off the map until then) in
   * its area, giving up the steps they hold; `atStart`: made at set-up [11.31].
   */
  deployments: z
    .array(
      strictObject({
        id: z.string().min(1),
        parent: z.string().min(1),
        units: z.array(z.string().min(1)).min(1),
        atStart: z.boolean().default(false),
      }),
    )
    .default([]),
  /** Special-rule permissions [17.0, 17.2, 14.7, 10.8]. */
  allow: strictObject({
    square: z.boolean().default(true),
    reverseSlope: z.boolean().default(false),
    massedColumn: z.boolean().default(false),
  }).default({ square: true, reverseSlope: false, massedColumn: false }),
});

/** Victory points: whole and not negative, within a sensible bound. */
const vpSchema = z
  .number()
  .int('victory points are whole numbers (A-53)')
  .min(0, 'victory points are not negative (A-53)')
  .max(MAX_VP, `victory points are at most ${MAX_VP} per item (A-53)`);
/** Result thresholds: a difference of 0 is a draw, so the smallest is 1. */
const thresholdSchema = z
  .number()
  .int('a result threshold is a whole number of VP (A-53)')
  .min(1, 'a result threshold is at least 1: a VP difference of 0 is a draw (A-53)')
  .max(MAX_THRESHOLD, `a result threshold is at most ${MAX_THRESHOLD} VP (A-53)`);

const placementSchema = strictObject({
  area: z.number().int().positive(),
  units: z.array(z.string()).default([]),
  leaders: z.array(z.string()).default([]),
  hq: z.boolean().default(false),
  /** Conformation per long counter and artillery unit [13.9]. */
  facing: z.record(z.string(), z.string()).default({}),
});

export const scenarioSchema = strictObject({
  ruleset: z.literal('eagles-of-the-empire'),
  id: z.string().regex(ID_RE, 'scenario ids are lower-case letters, digits and -'),
  title: z.string().min(1),
  description: z.string().optional(),
  /** The map's id: the file data/maps/eagles-of-the-empire/<map>.json. */
  map: z
    .string()
    .regex(ID_RE, 'a map id is lower-case letters, digits and - (it names a file in data/maps/, not a path)'),
  sides: z.tuple([sideSchema, sideSchema]),
  setup: z.tuple([z.array(placementSchema), z.array(placementSchema)]),
  /** The turn track [2.4]: hour label and time of day per turn. */
  turns: z
    .array(strictObject({ hour: z.string(), time: z.enum(['dawn', 'day', 'dusk', 'night']).default('day') }))
    .min(1)
    .max(MAX_TURNS, `a turn track has at most ${MAX_TURNS} turns (two days of hourly turns [2.4])`),
  /** Weather [5.0]: fixed, or a d6 table rolled each turn from `fromTurn` (earlier turns use `initial`). */
  weather: strictObject({
    initial: z.enum(['clear', 'rain', 'fog', 'snow']).default('clear'),
    fromTurn: z.number().int().min(1).optional(),
    table: z
      .array(z.enum(['clear', 'rain', 'fog', 'snow']))
      .length(6)
      .optional(),
  }).default({ initial: 'clear' }),
  reinforcements: z
    .array(
      strictObject({
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
  rules: strictObject({
    rout: z.boolean().default(false),
    villagesBlockLos: z.boolean().default(false),
    mediumAsLight: z.boolean().default(true),
    irregularAsLight: z.boolean().default(true),
    /** Sides whose artillery gets the HQ/CoS +1 [12.31]. */
    hqArtilleryBonus: z.array(z.union([z.literal(0), z.literal(1)])).default([]),
  }).default({
    rout: false,
    villagesBlockLos: false,
    mediumAsLight: true,
    irregularAsLight: true,
    hqArtilleryBonus: [],
  }),
  victory: strictObject({
    vp: strictObject({
      step: vpSchema.default(1),
      artilleryUnit: vpSchema.default(2),
      leader: vpSchema.default(3),
      hq: vpSchema.default(4),
      /** Army commanders by leader id. */
      armyCommander: z.record(z.string(), vpSchema).default({}),
    }),
    objectives: z
      .array(strictObject({ area: z.number().int().positive(), vp: z.tuple([vpSchema, vpSchema]) }))
      .default([]),
    /** Side controlling each objective at the start. */
    control: z.record(z.string(), z.union([z.literal(0), z.literal(1)])).default({}),
    /** D = VP(side 0) − VP(side 1): at least `decisive` / `marginal` wins; within ±(marginal − 1) a draw (so marginal ≥ 1). */
    thresholds: strictObject({ decisive: thresholdSchema, marginal: thresholdSchema }),
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
