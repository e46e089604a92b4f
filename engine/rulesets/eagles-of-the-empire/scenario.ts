/**
 * Eagles of the Empire scenario files: armies with their command structure [3.32], the order of battle as a tree of
 * formations and forces [2.2, 2.3] with leaders [2.22] and units with step tracks [2.3 Steps], HQ, Chief of Staff,
 * staff and line officers [9.5, 15.3], set-up with facings [13.9], the turn track and weather [2.4, 5.0],
 * reinforcements [6.0], special rules, and victory conditions (the series rules have none: A-53).
 *
 * The map is a separate file (engine/areas); a scenario names it and is validated against it. An accepted scenario is
 * one the engine can play: its set-up keeps each area's stacking limits and conformations [13.6–13.94] with the same
 * helpers the engine moves by (stacking.ts), both sides apart [13.12], deployments made at set-up and reinforcement
 * groups fitting their areas, data within the rules' ranges and the turn track, and unique ids. Step notation follows
 * the digest: "A5-5" is step A with strength 5 and morale 5; lower-case letters are short-counter steps; artillery
 * steps have no morale ("a2"), all artillery having morale 3 [2.21, 18.0].
 */
import { z } from 'zod';
import type { Problem, Validated } from '../../core/game.ts';
import { validateWith } from '../../core/validate.ts';
import { optionProblems } from './rules-config.ts';
import { excludes, freeConformations, longCountersFit, spFits } from './stacking.ts';
import type { Area, AreaMap } from '../../areas/map.ts';

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

const leaderSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  role: z.enum(LEADER_ROLES),
  arm: z.enum(['general', 'infantry', 'cavalry', 'artillery']).default('general'),
  /** Higher is more senior [2.3 Seniority]. */
  grade: z.number().int().min(0).default(1),
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
  extendedLines: z
    .object({ half: z.number().int().min(0).default(0), third: z.number().int().min(0).default(0) })
    .optional(),
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
  hq: z
    .object({
      id: z.string().min(1),
      name: z.string().min(1),
      radius: z.number().int().min(0).max(MAX_RATING, `an HQ's command radius is a printed 0 to ${MAX_RATING} [2.21]`),
    })
    .optional(),
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
      z.object({
        id: z.string().min(1),
        parent: z.string().min(1),
        units: z.array(z.string().min(1)).min(1),
        atStart: z.boolean().default(false),
      }),
    )
    .default([]),
  /** Special-rule permissions [17.0, 17.2, 14.7, 10.8]. */
  allow: z
    .object({
      square: z.boolean().default(true),
      reverseSlope: z.boolean().default(false),
      massedColumn: z.boolean().default(false),
    })
    .default({ square: true, reverseSlope: false, massedColumn: false }),
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
      table: z
        .array(z.enum(['clear', 'rain', 'fog', 'snow']))
        .length(6)
        .optional(),
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
    .default({
      rout: false,
      villagesBlockLos: false,
      mediumAsLight: true,
      irregularAsLight: true,
      hqArtilleryBonus: [],
    }),
  victory: z.object({
    vp: z.object({
      step: vpSchema.default(1),
      artilleryUnit: vpSchema.default(2),
      leader: vpSchema.default(3),
      hq: vpSchema.default(4),
      /** Army commanders by leader id. */
      armyCommander: z.record(z.string(), vpSchema).default({}),
    }),
    objectives: z.array(z.object({ area: z.number().int().positive(), vp: z.tuple([vpSchema, vpSchema]) })).default([]),
    /** Side controlling each objective at the start. */
    control: z.record(z.string(), z.union([z.literal(0), z.literal(1)])).default({}),
    /** D = VP(side 0) − VP(side 1): at least `decisive` / `marginal` wins; within ±(marginal − 1) a draw (so marginal ≥ 1). */
    thresholds: z.object({ decisive: thresholdSchema, marginal: thresholdSchema }),
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

// ---------------------------------------------------------------------------------------------
// set-up, reinforcement groups, turns and victory: the checks that keep an accepted scenario playable
// ---------------------------------------------------------------------------------------------

/** A unit at step `step` as stacking sees it: its SP [13.61] and whether it is an infantry long counter [13.7]. */
function pieceAt(u: UnitJson, step: number): { sp: number; lc: boolean } | null {
  const st = parseStep(u.steps[step] ?? '', u.kind);
  return typeof st === 'string' ? null : { sp: st.sp, lc: u.kind === 'infantry' && st.form === 'long' };
}

/** A unit in an area with its conformation, as the engine sets it up [13.9]. */
interface Piece {
  readonly id: string;
  readonly sp: number;
  readonly lc: boolean;
  readonly conf: string | null;
}

/** Every unit of the scenario by id. */
function unitIndex(s: Scenario): ReadonlyMap<string, UnitJson> {
  return new Map(
    s.sides.flatMap((side) => formationsOf(side).flatMap(({ f }) => f.units.map((u) => [u.id, u] as const))),
  );
}

/** A step track runs from the strongest step down, long (capital) steps before short ones [2.3 Steps]. */
function stepTrackProblems(u: UnitJson, up: string): Problem[] {
  const out: Problem[] = [];
  const steps = u.steps.map((t) => parseStep(t, u.kind));
  steps.forEach((st, j) => {
    const prev = steps[j - 1];
    if (typeof st === 'string' || prev === undefined || typeof prev === 'string') return;
    if (st.sp > prev.sp)
      out.push({
        path: `${up}.steps[${j}]`,
        message: `step "${u.steps[j]}" is stronger than the step before it: a step track runs from the strongest step down [2.3 Steps]`,
      });
    if (st.form === 'long' && prev.form === 'short')
      out.push({
        path: `${up}.steps[${j}]`,
        message: `long step "${u.steps[j]}" follows a short one: a long counter's reduced steps are short counters, never long again [2.3 Steps]`,
      });
  });
  if (u.kind === 'infantry' && u.counter === 'short') {
    const j = steps.findIndex((st) => typeof st !== 'string' && st.form === 'long');
    if (j >= 0)
      out.push({
        path: `${up}.steps[${j}]`,
        message: `step "${u.steps[j]}" is a long counter's (capital letter): a short counter's steps are lower case [2.3 Steps]`,
      });
  }
  return out;
}

/** Ids the engine looks pieces up by are unique across both sides: formations (activation) and HQs. */
function idProblems(s: Scenario): Problem[] {
  const out: Problem[] = [];
  const f0 = new Set(formationsOf(s.sides[0]).map(({ f }) => f.id));
  for (const { f } of formationsOf(s.sides[1]))
    if (f0.has(f.id))
      out.push({
        path: `$.sides[1].formations(${f.id})`,
        message: `duplicate formation id "${f.id}" (also ${s.sides[0].name})`,
      });
  const [h0, h1] = [s.sides[0].hq, s.sides[1].hq];
  if (h0 && h1 && h0.id === h1.id)
    out.push({ path: '$.sides[1].hq.id', message: `duplicate HQ id "${h1.id}" (also ${s.sides[0].name})` });
  return out;
}

/**
 * Facings at set-up [13.9]: every infantry long counter and artillery unit faces one of its area's conformations (one
 * a long counter fits [13.8]), except in an all-around area [13.92]; cavalry and short counters take none [13.94].
 */
function facingProblems(
  a: Area,
  p: Scenario['setup'][0][number],
  pp: string,
  defs: ReadonlyMap<string, UnitJson>,
): Problem[] {
  const out: Problem[] = [];
  p.units.forEach((u, j) => {
    const d = defs.get(u);
    const pc = d && pieceAt(d, d.startStep);
    if (!d || !pc) return;
    const conf = p.facing[u];
    const path = `${pp}.facing.${u}`;
    if (pc.lc && !a.allAround && !a.conformations.some((c) => c.fitsLong)) {
      out.push({
        path: `${pp}.units[${j}]`,
        message: `no conformation of area ${a.id} fits a long counter, so "${u}" may not be placed there [13.8, 13.81]`,
      });
      return;
    }
    if (!pc.lc && d.kind !== 'artillery') {
      if (conf !== undefined)
        out.push({
          path,
          message: `"${u}" takes no facing: cavalry and short counters face in all directions [13.94]`,
        });
      return;
    }
    if (a.allAround) {
      if (conf !== undefined)
        out.push({
          path,
          message: `area ${a.id} is an all-around area: "${u}" faces in all directions there and takes no facing [13.92]`,
        });
      return;
    }
    if (conf === undefined) {
      if (a.conformations.length)
        out.push({
          path,
          message: `"${u}" is set up without a facing: long counters and artillery are placed facing one of the area's conformations [13.9]`,
        });
      return;
    }
    const c = a.conformations.find((x) => x.id === conf);
    if (!c) out.push({ path, message: `area ${a.id} has no conformation "${conf}" [13.8, 13.9]` });
    else if (pc.lc && !c.fitsLong)
      out.push({ path, message: `conformation "${conf}" of area ${a.id} does not fit a long counter [13.8]` });
  });
  return out;
}

/**
 * One side's pieces in one area against the area's limits: strength points [13.61], infantry long counters [13.63,
 * 13.7] and conformations the map excludes together [13.93]. Long counters may share a facing where the map does not
 * exclude it (see the README's rulings).
 */
function stackProblems(a: Area, pieces: readonly Piece[], path: string, who: string): Problem[] {
  const out: Problem[] = [];
  const sp = pieces.reduce((t, x) => t + x.sp, 0);
  const lcs = pieces.filter((x) => x.lc);
  if (!spFits(a, sp))
    out.push({
      path,
      message: `${who} ${sp} SP in area ${a.id}: more than its stacking limit of ${a.stack.max} [13.6, 13.61]`,
    });
  if (!longCountersFit(a, lcs.length))
    out.push({
      path,
      message: `${who} ${lcs.length} infantry long counters in area ${a.id} (${lcs.map((x) => x.id).join(', ')}): it holds ${a.stack.maxLC} [13.63, 13.7]`,
    });
  if (!a.allAround)
    lcs.forEach((x, i) =>
      lcs.slice(i + 1).forEach((y) => {
        if (x.conf !== null && y.conf !== null && excludes(a, x.conf, y.conf))
          out.push({
            path,
            message: `${x.id} (${x.conf}) and ${y.id} (${y.conf}) hold conformations of area ${a.id} that cannot be held together [13.93]`,
          });
      }),
    );
  return out;
}

/** One side's set-up in one area (keyed "side:area"): its pieces, and the first placement naming the area. */
interface SetupStack {
  readonly side: 0 | 1;
  readonly area: number;
  readonly path: string;
  pieces: readonly Piece[];
}

/** Each side's set-up by area: its pieces with their facings, and the first placement naming the area. */
function setupStacks(s: Scenario, map: AreaMap, defs: ReadonlyMap<string, UnitJson>): Map<string, SetupStack> {
  const stacks = new Map<string, SetupStack>();
  s.setup.forEach((list, si) =>
    list.forEach((p, i) => {
      if (!map.areas.has(p.area)) return;
      const key = `${si}:${p.area}`;
      const st = stacks.get(key) ?? { side: si as 0 | 1, area: p.area, path: `$.setup[${si}][${i}]`, pieces: [] };
      stacks.set(key, st);
      for (const u of p.units) {
        const d = defs.get(u);
        const pc = d && pieceAt(d, d.startStep);
        if (pc && !st.pieces.some((x) => x.id === u))
          st.pieces = [...st.pieces, { id: u, ...pc, conf: p.facing[u] ?? null }];
      }
    }),
  );
  return stacks;
}

/**
 * Both sides in one area at set-up: a unit may never be in an area with enemy combat units [13.12]; a lone leader
 * there would be displaced [3.13]; an HQ keeps enemy units out.
 */
function bothSidesProblems(s: Scenario, map: AreaMap): Problem[] {
  const out: Problem[] = [];
  const at = (si: 0 | 1, area: number) => s.setup[si].filter((p) => p.area === area);
  s.setup[1].forEach((p, i) => {
    if (!map.areas.has(p.area) || s.setup[1].findIndex((x) => x.area === p.area) !== i) return;
    const mine = at(1, p.area);
    const theirs = at(0, p.area);
    if (!theirs.length) return;
    const units = [theirs.some((x) => x.units.length > 0), mine.some((x) => x.units.length > 0)];
    const leaders = [theirs.some((x) => x.leaders.length > 0), mine.some((x) => x.leaders.length > 0)];
    const hq = [theirs.some((x) => x.hq), mine.some((x) => x.hq)];
    const path = `$.setup[1][${i}]`;
    const both = `area ${p.area} is set up with ${s.sides[0].name} and ${s.sides[1].name} pieces`;
    if (units[0] && units[1])
      out.push({ path, message: `${both}: a unit may never be in an area with enemy combat units [13.12]` });
    else if ((units[0] && hq[1]) || (units[1] && hq[0]))
      out.push({ path, message: `${both}: enemy units may not be in an area with an HQ (A-56)` });
    else if ((units[0] && leaders[1]) || (units[1] && leaders[0]))
      out.push({
        path,
        message: `${both}: leaders alone with enemy units are displaced [3.13], so they may not start there`,
      });
  });
  return out;
}

/**
 * Deployments made at set-up [11.31], applied in the engine's order: the parent gives up the alternates' steps and
 * they appear in its area, a long counter taking the first conformation free there, artillery the area's first
 * (deploy.ts); the area must still hold them [13.6, 13.7, 13.72].
 */
function deploymentStackProblems(
  s: Scenario,
  map: AreaMap,
  defs: ReadonlyMap<string, UnitJson>,
  stacks: ReadonlyMap<string, SetupStack>,
  bad: ReadonlySet<string>,
): Problem[] {
  const out: Problem[] = [];
  s.sides.forEach((side, si) =>
    side.deployments.forEach((d, j) => {
      const dp = `$.sides[${si}].deployments[${j}]`;
      const parent = defs.get(d.parent);
      const kids = d.units.map((u) => defs.get(u));
      const st = [...stacks.values()].find((x) => x.side === si && x.pieces.some((y) => y.id === d.parent));
      if (!d.atStart || !parent || !st || kids.some((k) => !k)) return;
      const k = kids.reduce((t, c) => t + (c!.steps.length - c!.startStep), 0);
      const pc = pieceAt(parent, parent.startStep + k);
      if (!pc) return; // the parent cannot give up the steps (reported above)
      const a = map.area(st.area);
      const pieces = st.pieces.map((x) => (x.id === d.parent ? { ...x, ...pc } : x));
      for (const c of kids) {
        const cp = pieceAt(c!, c!.startStep);
        if (!cp) return;
        const taken = pieces.filter((x) => x.lc && x.conf !== null).map((x) => x.conf!);
        const conf = a.allAround
          ? null
          : cp.lc
            ? (freeConformations(a, taken)[0]?.id ?? null)
            : c!.kind === 'artillery'
              ? (a.conformations[0]?.id ?? null)
              : null;
        if (cp.lc && !a.allAround && conf === null)
          out.push({
            path: `${dp}.units`,
            message: `alternate "${c!.id}" would appear in area ${a.id} with no conformation free for a long counter [11.31, 13.72, 13.8]`,
          });
        pieces.push({ id: c!.id, ...cp, conf });
      }
      if (!bad.has(`${si}:${st.area}`))
        out.push(...stackProblems(a, pieces, dp, `after deploying ${d.id} at set-up [11.31], ${side.name}`));
      st.pieces = pieces; // later deployments see this one [11.31]
    }),
  );
  return out;
}

/** The set-up on the map: facings, stacking and conformation per side and area, both sides apart, deployments at set-up. */
function setupProblems(s: Scenario, map: AreaMap): Problem[] {
  const out: Problem[] = [];
  const defs = unitIndex(s);
  s.setup.forEach((list, si) =>
    list.forEach(
      (p, i) => map.areas.has(p.area) && out.push(...facingProblems(map.area(p.area), p, `$.setup[${si}][${i}]`, defs)),
    ),
  );
  const stacks = setupStacks(s, map, defs);
  const bad = new Set<string>();
  for (const [key, st] of stacks) {
    const ps = stackProblems(map.area(st.area), st.pieces, st.path, `${s.sides[st.side].name} set up`);
    if (ps.length) bad.add(key);
    out.push(...ps);
  }
  out.push(...bothSidesProblems(s, map), ...deploymentStackProblems(s, map, defs, stacks, bad));
  return out;
}

/**
 * A reinforcement group must fit its entry area on its own [13.6, 13.7]: the engine brings a group on whole, its
 * long counters each taking a conformation no other holds (flow.ts), so a group too big for an empty entry area
 * could never arrive legally (A-51's overflow is not implemented; see the README).
 */
function reinforcementGroupProblems(s: Scenario, map: AreaMap): Problem[] {
  const out: Problem[] = [];
  const defs = unitIndex(s);
  s.reinforcements.forEach((r, i) => {
    if (!map.areas.has(r.area)) return;
    const a = map.area(r.area);
    const pieces = r.units.flatMap((u) => {
      const d = defs.get(u);
      const pc = d && pieceAt(d, d.startStep);
      return pc ? [{ id: u, ...pc, conf: null }] : [];
    });
    const rp = `$.reinforcements[${i}]`;
    out.push(...stackProblems(a, pieces, rp, `reinforcement group ${r.id} brings`));
    const lcs = pieces.filter((x) => x.lc).length;
    if (lcs && !a.allAround && longCountersFit(a, lcs) && freeConformations(a, []).length < lcs)
      out.push({
        path: rp,
        message: `reinforcement group ${r.id} brings ${lcs} infantry long counters into area ${a.id}, which has ${freeConformations(a, []).length} conformation(s) for them [13.72, 13.8]`,
      });
  });
  return out;
}

/** Turn-indexed data within the turn track [2.4]: the weather table's first turn [5.0] (reinforcements are checked with their groups [6.0]). */
function turnProblems(s: Scenario): Problem[] {
  const out: Problem[] = [];
  const from = s.weather.fromTurn;
  if (from !== undefined && from > s.turns.length)
    out.push({
      path: '$.weather.fromTurn',
      message: `the weather table starts on turn ${from}, after the last turn (${s.turns.length}) [2.4, 5.0]`,
    });
  if (from !== undefined && !s.weather.table)
    out.push({
      path: '$.weather.fromTurn',
      message: 'fromTurn names the turn the weather table is first rolled, but there is no table [5.0]',
    });
  return out;
}

/** Victory data: objectives on the map and listed once, initial control of objectives only, army commanders known. */
function victoryProblems(s: Scenario): Problem[] {
  const out: Problem[] = [];
  const v = s.victory;
  const seen = new Set<number>();
  v.objectives.forEach((o, i) => {
    if (seen.has(o.area))
      out.push({
        path: `$.victory.objectives[${i}].area`,
        message: `area ${o.area} is already an objective: each objective is listed once (A-53)`,
      });
    seen.add(o.area);
  });
  for (const k of Object.keys(v.control))
    if (!v.objectives.some((o) => String(o.area) === k))
      out.push({
        path: `$.victory.control[${JSON.stringify(k)}]`,
        message: `"${k}" is not an objective area: the scenario gives the first holder of its objectives (A-53)`,
      });
  for (const k of Object.keys(v.vp.armyCommander))
    if (!s.sides.some((side) => side.leaders.some((l) => l.id === k)))
      out.push({ path: `$.victory.vp.armyCommander[${JSON.stringify(k)}]`, message: `unknown leader "${k}" (A-53)` });
  return out;
}

function semantic(map: AreaMap) {
  return (s: Scenario): Problem[] => {
    const out: Problem[] = [];
    if (s.map !== map.id)
      out.push({ path: '$.map', message: `scenario is for map "${s.map}" but was checked against "${map.id}"` });
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
        else if (role && side.leaders.find((l) => l.id === id)!.role !== role)
          out.push({ path, message: `leader "${id}" must have role ${role}` });
      };
      needLeader(side.armyCommander, `${sp}.armyCommander`, 'armyCommander');
      needLeader(side.chiefOfStaff, `${sp}.chiefOfStaff`, 'chiefOfStaff');
      if (side.chiefOfStaff && !side.hq)
        out.push({ path: `${sp}.chiefOfStaff`, message: 'a Chief of Staff needs an HQ [9.5]' });
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
        if (f.reserve && f.kind !== 'hq')
          out.push({
            path: `${fp}.reserve`,
            message: 'reserve units belong to the HQ formation until assigned [11.1]',
          });
        f.units.forEach((u, i) => {
          const up = `${fp}.units[${i}]`;
          if (unitIds.has(u.id))
            out.push({ path: `${up}.id`, message: `duplicate unit id "${u.id}" (also ${unitIds.get(u.id)})` });
          unitIds.set(u.id, up);
          if (u.kind === 'infantry' && !u.counter)
            out.push({ path: `${up}.counter`, message: 'infantry needs counter: "long" or "short" [2.22]' });
          if (u.kind === 'cavalry' && !u.cavClass)
            out.push({
              path: `${up}.cavClass`,
              message: 'cavalry needs cavClass: heavy, medium, light or irregular [2.22]',
            });
          if (u.kind === 'artillery' && !u.artKind)
            out.push({
              path: `${up}.artKind`,
              message: 'artillery needs artKind: foot, heavy, horse, mortar, rocket or licorne [2.22]',
            });
          if (u.kind !== 'infantry' && u.steps.length > 2)
            out.push({ path: `${up}.steps`, message: `${u.kind} has at most two steps [2.3 Steps]` });
          if (u.startStep >= u.steps.length)
            out.push({ path: `${up}.startStep`, message: `start step ${u.startStep} is past the last step` });
          u.steps.forEach((t, j) => {
            const st = parseStep(t, u.kind);
            if (typeof st === 'string') out.push({ path: `${up}.steps[${j}]`, message: st });
          });
          if (
            u.counter === 'long' &&
            parseStep(u.steps[u.startStep] ?? '', 'infantry') instanceof Object &&
            (parseStep(u.steps[u.startStep]!, 'infantry') as Step).form !== 'long'
          )
            out.push({ path: `${up}.steps`, message: 'a long counter starts on a long (capital-letter) step' });
          out.push(...stepTrackProblems(u, up));
          if (u.extendedLines && !(u.kind === 'infantry' && u.counter === 'long'))
            out.push({
              path: `${up}.extendedLines`,
              message: 'only infantry long counters form extended lines [16.0]',
            });
          if (u.extendedLines && u.extendedLines.third === 1)
            out.push({
              path: `${up}.extendedLines.third`,
              message: '1/3 markers come in pairs: a single 1/3 marker may not be used [16.8]',
            });
        });
      });
      if (side.hq && hqFormations !== 1)
        out.push({
          path: `${sp}.formations`,
          message: `a side with an HQ has exactly one formation of kind "hq" (found ${hqFormations}) [9.5]`,
        });
      if (!side.hq && hqFormations)
        out.push({ path: `${sp}.hq`, message: 'an "hq" formation needs the side\'s hq entry' });
    });
    const side0Units = new Set(formationsOf(s.sides[0]).flatMap(({ f }) => f.units.map((u) => u.id)));
    const side1Units = new Set(formationsOf(s.sides[1]).flatMap(({ f }) => f.units.map((u) => u.id)));
    const sideUnits = [side0Units, side1Units];
    const placed = new Set<string>();
    const placedLeaders = new Set<string>();
    s.setup.forEach((list, si) =>
      list.forEach((p, i) => {
        const pp = `$.setup[${si}][${i}]`;
        if (!map.areas.has(p.area))
          out.push({ path: `${pp}.area`, message: `unknown area ${p.area} on map ${map.id}` });
        p.units.forEach((u, j) => {
          if (!sideUnits[si]!.has(u))
            out.push({ path: `${pp}.units[${j}]`, message: `unknown unit "${u}" for ${s.sides[si]!.name}` });
          if (placed.has(u)) out.push({ path: `${pp}.units[${j}]`, message: `unit "${u}" is placed twice` });
          placed.add(u);
        });
        p.leaders.forEach((l, j) => {
          if (!s.sides[si]!.leaders.some((x) => x.id === l))
            out.push({ path: `${pp}.leaders[${j}]`, message: `unknown leader "${l}" for ${s.sides[si]!.name}` });
          if (placedLeaders.has(l)) out.push({ path: `${pp}.leaders[${j}]`, message: `leader "${l}" is placed twice` });
          placedLeaders.add(l);
        });
        if (p.hq && !s.sides[si]!.hq) out.push({ path: `${pp}.hq`, message: `${s.sides[si]!.name} has no HQ` });
        for (const u of Object.keys(p.facing))
          if (!p.units.includes(u))
            out.push({ path: `${pp}.facing.${u}`, message: `facing given for "${u}", which is not placed here` });
      }),
    );
    s.setup.forEach((list, si) => {
      const hqs = list.flatMap((p, i) => (p.hq ? [i] : []));
      for (const i of hqs.slice(1))
        out.push({
          path: `$.setup[${si}][${i}].hq`,
          message: `${s.sides[si]!.name}'s HQ is already placed at $.setup[${si}][${hqs[0]}]: a side has one HQ [2.22, 9.5]`,
        });
    });
    const groupIds = new Set<string>();
    s.reinforcements.forEach((r, i) => {
      const rp = `$.reinforcements[${i}]`;
      if (groupIds.has(r.id)) out.push({ path: `${rp}.id`, message: `duplicate reinforcement group id "${r.id}"` });
      groupIds.add(r.id);
      if (!map.areas.has(r.area)) out.push({ path: `${rp}.area`, message: `unknown area ${r.area}` });
      r.leaders.forEach((l, j) => {
        if (!s.sides[r.side].leaders.some((x) => x.id === l))
          out.push({ path: `${rp}.leaders[${j}]`, message: `unknown leader "${l}" for ${s.sides[r.side].name}` });
        if (placedLeaders.has(l))
          out.push({
            path: `${rp}.leaders[${j}]`,
            message: `leader "${l}" is already placed at set-up or in another reinforcement [6.0]`,
          });
        placedLeaders.add(l);
      });
      if (r.turn > s.turns.length)
        out.push({
          path: `${rp}.turn`,
          message: `turn ${r.turn} is after the last turn (${s.turns.length}) [2.4, 6.0]`,
        });
      r.units.forEach((u, j) => {
        if (!sideUnits[r.side]!.has(u))
          out.push({ path: `${rp}.units[${j}]`, message: `unknown unit "${u}" for ${s.sides[r.side]!.name}` });
        if (placed.has(u))
          out.push({
            path: `${rp}.units[${j}]`,
            message: `unit "${u}" is already placed at set-up or in another reinforcement`,
          });
        placed.add(u);
      });
    });
    // alternate deployments [11.3]: the alternates are held off the map until the parent deploys them
    const ids = new Set<string>();
    s.sides.forEach((side, si) => {
      const held = new Set<string>();
      const def = (id: string) =>
        formationsOf(side)
          .flatMap(({ f }) => f.units)
          .find((u) => u.id === id);
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
          if (u === d.parent || held.has(u))
            out.push({
              path: `${dp}.units[${j}]`,
              message: `unit "${u}" is already the parent or an alternate of a deployment`,
            });
          if (placed.has(u))
            out.push({
              path: `${dp}.units[${j}]`,
              message: `alternate "${u}" must not be set up or a reinforcement: it enters when deployed [11.31]`,
            });
          held.add(u);
          k += c.steps.length - c.startStep;
        });
        if (parent && parent.steps.length - parent.startStep <= k)
          out.push({
            path: `${dp}.units`,
            message: `${d.parent} has ${parent.steps.length - parent.startStep} steps: it cannot give up ${k} for its alternates and keep one [11.3]`,
          });
        if (d.atStart && parent && !s.setup[si]!.some((pl) => pl.units.includes(d.parent)))
          out.push({
            path: `${dp}.atStart`,
            message: `${d.parent} is not set up, so it cannot deploy at set-up [11.31]`,
          });
      });
      for (const u of held) placed.add(u);
    });
    out.push(
      ...idProblems(s),
      ...setupProblems(s, map),
      ...reinforcementGroupProblems(s, map),
      ...turnProblems(s),
      ...victoryProblems(s),
    );
    // every unit enters the game somewhere
    for (const [si, ids] of sideUnits.entries())
      for (const u of ids)
        if (!placed.has(u))
          out.push({
            path: `$.setup[${si}]`,
            message: `unit "${u}" is neither set up, nor a reinforcement, nor an alternate deployment`,
          });
    // the rules configuration: every ADAPTATION by name, with the digest's default (rules-config.ts)
    out.push(...optionProblems(s.options));
    // the series rules treat medium and irregular cavalry as light; other treatments need scenario rules
    if (!s.rules.mediumAsLight)
      out.push({
        path: '$.rules.mediumAsLight',
        message: 'A-59: medium cavalry other than light needs scenario special rules, which are not implemented',
      });
    if (!s.rules.irregularAsLight)
      out.push({
        path: '$.rules.irregularAsLight',
        message: 'A-59: irregular cavalry other than light needs scenario special rules, which are not implemented',
      });
    if (s.weather.table && s.weather.fromTurn === undefined)
      out.push({ path: '$.weather.fromTurn', message: 'a weather table needs fromTurn' });
    s.victory.objectives.forEach(
      (o, i) =>
        !map.areas.has(o.area) &&
        out.push({ path: `$.victory.objectives[${i}].area`, message: `unknown area ${o.area}` }),
    );
    if (s.victory.thresholds.decisive < s.victory.thresholds.marginal)
      out.push({ path: '$.victory.thresholds', message: 'decisive must be at least marginal' });
    return out;
  };
}

/** Validate scenario JSON against its map, listing every problem with its JSON path. */
export function validateScenario(json: unknown, map: AreaMap): Validated<Scenario> {
  return validateWith(scenarioSchema, json, semantic(map));
}
