/**
 * Scenario files for Napoleon's Eagles (1:30, 15mm): schema (zod, strict everywhere: an unknown key is refused with
 * the key it probably misspells), order-of-battle, command and table checks, and the rules options.
 *
 * Options. Every optional rule of the book is a named boolean, default off (written orders, misreads, initiative,
 * out-of-control cavalry, carbines, caissons, company skirmishers, fires, weather, visibility, smoke, second bounce,
 * supported line, table flanks), with the book's A/D ratio [p.4] and threshold percentage [p.11]. Every ADAPTATION
 * of the digest (A-1…A-79, listed in `ADAPTATIONS`) with a real alternative is a named option whose default is the
 * digest's reading; the others are fixed readings that a file may state as `"A-nn": "digest"` (anything else is
 * refused with the adaptation named).
 *
 * Conventions (digest §3.1): inches from the south-west corner (+x east, +y north); facings whole degrees clockwise
 * from north; a unit's position is the centre of its FRONT EDGE; a building block is given by its south-west corner.
 */
import { z } from 'zod';
import type { Problem, Validated } from '../../core/game.ts';
import { strictObject } from '../../core/suggest.ts';
import { zodProblems } from '../../core/validate.ts';
import { type Vec, polygonTouchesPolyline, polygonsOverlap, rectCorners } from '../../geometry/geometry.ts';
import { insidePolygon, offTable, polygonProblems, polylineProblems } from '../../tabletop/validate.ts';
import { neutralisedAtHits } from './tables.ts';
import {
  BLOCK_SIZE,
  GRAND_BATTERY_NATIONS,
  type LeaderRole,
  SUPERIOR_RANKS,
  footprintRect,
  footprintSize,
  parseRating,
  ratingProblem,
} from './types.ts';

// ---------------------------------------------------------------------------------------------------------------------
// The digest's ADAPTATIONs
// ---------------------------------------------------------------------------------------------------------------------

export interface Adaptation {
  readonly id: string;
  readonly title: string;
  /** The book's pages the adaptation reads ('' where the book has nothing). */
  readonly page: string;
  /** The digest's reading (the default). */
  readonly reading: string;
  /** The named option that offers the alternatives, when there is a choice. */
  readonly option?: OptionName;
}

/** Every ADAPTATION of the digest (§7), with its default reading and, where there is a choice, its option. */
export const ADAPTATIONS: readonly Adaptation[] = [
  {
    id: 'A-1',
    title: 'Rating string, weapon, artillery letters',
    page: 'p.4, p.9',
    reading:
      'regex ^([A-C])(\\d{1,2})([A-ER])(\\d{2,3})$; R = rifle +1; weapon stored apart; artillery C/D/E fire uses the B solid-shot row, artillery C move the B column',
  },
  {
    id: 'A-2',
    title: 'Cavalry skirmish rate',
    page: 'p.6, p.18',
    reading: 'light cavalry only, behind a flag, off',
    option: 'lightCavalrySkirmish',
  },
  {
    id: 'A-3',
    title: 'Footprint after casualties',
    page: 'p.3',
    reading: 'recompute from current figures, front-centre fixed',
  },
  {
    id: 'A-4',
    title: 'Formation footprints',
    page: 'p.3, p.7',
    reading:
      'column front ceil(N/3) infantry, ceil(N/4) cavalry, per-unit columnFront; RC 2 wide; square side ceil(N/4)·f',
  },
  { id: 'A-5', title: 'Fatigue above Exhausted', page: 'p.5', reading: 'capped at 3' },
  {
    id: 'A-6',
    title: 'Multiplayer command and talking',
    page: 'p.16',
    reading: 'one agent per side; talking not modelled',
  },
  {
    id: 'A-7',
    title: '1806 Prussians',
    page: 'p.7, p.17',
    reading: 'pre-1806 = 1806 = year ≤ 1806; post-1806 = year ≥ 1807',
  },
  {
    id: 'A-8',
    title: 'Precision and hashing',
    page: '',
    reading: 'integer 1/100" and 1/100°, rounded after every transition; seeded PRNG in the state',
  },
  {
    id: 'A-9',
    title: 'Stand-off from formed enemies',
    page: 'p.13, p.19',
    reading: 'a hard 1" stand-off (the book: "roughly 1" to 2"")',
    option: 'standOff',
  },
  { id: 'A-10', title: 'Table edges', page: '', reading: 'moves and retreats end on the table; routs exit' },
  {
    id: 'A-11',
    title: 'Front, flank and rear arcs',
    page: 'p.4, p.8, p.15',
    reading: '45° front and rear arcs from the corners, flanks between',
  },
  {
    id: 'A-12',
    title: 'Measuring',
    page: 'p.8-9, p.16',
    reading: "edge to edge; range from the firer's front edge; solid shot from the battery's front-centre",
  },
  {
    id: 'A-13',
    title: 'Crossing walls and hedges',
    page: 'p.9, p.13',
    reading: '½ action to cross (the book gives no cost)',
    option: 'obstacleCrossing',
  },
  {
    id: 'A-14',
    title: 'Terrain movement cost',
    page: 'p.6, p.19',
    reading:
      'length / multiplier, the smallest multiplier under the footprint each 1/4"; roads override for road columns',
  },
  {
    id: 'A-15',
    title: '"Behind cover" and "on the edge of"',
    page: 'p.9-10, p.19',
    reading: 'obstacle within 1" and crossed by the line of fire or charge; 1" edge band',
  },
  {
    id: 'A-16',
    title: 'Smoke and line of sight',
    page: 'p.8, p.20',
    reading: 'smoke never blocks LOS (p.20), only modifies fire',
    option: 'smokeBlocksLos',
  },
  { id: 'A-17', title: 'LOS algorithm', page: 'p.8', reading: 'blind zone X/Δ; symmetric; woods see-through to 4"/2"' },
  {
    id: 'A-18',
    title: 'Firing into close actions',
    page: 'p.8',
    reading: 'no fire at units in contact until resolved, except defence fire',
  },
  { id: 'A-19', title: 'Steps 0 and 12', page: 'p.4', reading: 'step 0 orders, step 12 housekeeping in the 5.3 order' },
  {
    id: 'A-20',
    title: 'Out-of-control cavalry timing',
    page: 'p.15',
    reading: 'step 2b, side A first; counts as its activation',
  },
  {
    id: 'A-21',
    title: 'Leader move in step 8',
    page: 'p.4, p.6',
    reading: '10" an action × 2 = 20"',
    option: 'leaderMove',
  },
  {
    id: 'A-22',
    title: 'Leader move order and attachment',
    page: 'p.4, p.16',
    reading: "side A's leaders first; attach by touching; fates on rout/surrender",
  },
  {
    id: 'A-23',
    title: 'Activation counting',
    page: 'p.4',
    reading: 'exactly a units per step; finish at ≥ ceil(eligible/2); locked units count as activated',
  },
  {
    id: 'A-24',
    title: 'Half-actions',
    page: 'p.4-5, p.7',
    reading: 'a budget of 4 halves; ½-action move gives half the distance; stand needs a whole action',
  },
  {
    id: 'A-25',
    title: 'Disordered units',
    page: 'p.6',
    reading: 'move, fire, charge, rest with penalties; no formation change until REFORM',
  },
  {
    id: 'A-26',
    title: 'Command lines',
    page: 'p.16',
    reading: 'shortest path avoiding enemy footprints + 1" and impassable terrain; crossing: the longer breaks',
    option: 'commandLines',
  },
  {
    id: 'A-27',
    title: 'Out-of-command movement',
    page: 'p.16',
    reading: 'no primitive ends closer to any enemy or farther (path) from the commander',
  },
  {
    id: 'A-28',
    title: 'Order conditions',
    page: 'p.17',
    reading: 'fixed templates: afterTurns, whenObjectiveTaken, whenEnemyWithdraws, onArrivalSwitchTo',
  },
  {
    id: 'A-29',
    title: 'Road column off road, limbered on road, small horse guns',
    page: 'p.6',
    reading: 'column rate off road; limbered uses the road rate; horse 2-4lb use Horse 3-6lb',
  },
  {
    id: 'A-30',
    title: 'Free 10° turn and pivots',
    page: 'p.7',
    reading: 'once per primitive; pivot on a corner or the centre',
  },
  {
    id: 'A-31',
    title: 'Bridges and rivers',
    page: 'p.6',
    reading: 'ceil(figures/capacity) actions (artillery 4 a base); no fire, formation change or charge in a river',
  },
  {
    id: 'A-32',
    title: 'Ride-down frontage',
    page: 'p.14',
    reading: 'front-rank figures of the part charged, compared exactly',
  },
  {
    id: 'A-33',
    title: 'Ties re-fought',
    page: 'p.14',
    reading: 'casualties now, fatigue +1, stay locked, re-fight next step 9 from step 6',
  },
  {
    id: 'A-34',
    title: 'Chained morale checks',
    page: 'p.11-12',
    reading: 'marks in order placed; each unit checks at most once in step 10',
  },
  { id: 'A-35', title: 'Surrounded', page: 'p.12', reading: '16-direction 3" escape test against threats within 12"' },
  {
    id: 'A-36',
    title: 'Skirmisher push-back',
    page: 'p.19',
    reading: 'displace straight back to keep 1" (the book: 1-2")',
    option: 'skirmishPushBack',
  },
  { id: 'A-37', title: 'Cavalry fire', page: 'p.15', reading: 'without the carbine rule cavalry cannot fire' },
  {
    id: 'A-38',
    title: 'Which figures fire',
    page: 'p.8, p.14, p.21',
    reading: 'bearing figures; defence fire all front-rank figures (bearing only over 24); squares N/8, N/2 vs cavalry',
    option: 'bearingFigures',
  },
  { id: 'A-39', title: 'Two fire actions', page: 'p.8', reading: 'only consecutive fire at one target combines' },
  {
    id: 'A-40',
    title: 'Target priority',
    page: 'p.8',
    reading: 'nearest eligible non-skirmisher mandatory; ties within 0.25" to the owner',
  },
  {
    id: 'A-41',
    title: 'Musket Firing Table',
    page: 'p.9',
    reading: 'right-aligned reconstruction; row 4 caps at 2; closed form between rows and above 48',
  },
  {
    id: 'A-42',
    title: 'Stacking cover modifiers',
    page: 'p.9',
    reading: 'the single worst cover modifier; weather for small arms only',
  },
  {
    id: 'A-43',
    title: 'Elimination by attrition',
    page: '',
    reading: 'infantry or cavalry below 2 figures eliminated',
  },
  {
    id: 'A-44',
    title: 'Solid shot against woods or buildings',
    page: 'p.9-10, p.19-20',
    reading: '−4 (the quick-reference table)',
    option: 'solidShotCover',
  },
  {
    id: 'A-45',
    title: 'Solid Shot Firing Table columns',
    page: 'p.9',
    reading: 'closeIsCanister: printed cells are Medium/Long/Extreme',
    option: 'solidShotTable',
  },
  {
    id: 'A-46',
    title: 'Bounce uphill or over soft ground',
    page: 'p.9-10',
    reading: 'each such inch uses 2" of bounce',
  },
  {
    id: 'A-47',
    title: 'Order of damage modifiers',
    page: 'p.8-9',
    reading: 'add and subtract, floor at 0, then double',
  },
  {
    id: 'A-48',
    title: 'Units on the bounce path',
    page: 'p.9-10',
    reading: 'friendly units at risk; all use the band of the point of aim',
  },
  {
    id: 'A-49',
    title: 'Rapid-fire fatigue',
    page: 'p.5, p.10',
    reading: 'always +3, also as a defence action',
    option: 'rapidFireDefenceFatigue',
  },
  {
    id: 'A-50',
    title: 'Neutralised batteries',
    page: 'p.10',
    reading: 'at hits = all guns (howitzers included), +1 guard; eliminated for thresholds, guns abandoned',
    option: 'neutralisedAt',
  },
  {
    id: 'A-51',
    title: 'Crews without guns',
    page: 'p.10',
    reading: 'a crew unit 1"×1" a base, 6"/action, re-manning after 1 action',
  },
  { id: 'A-52', title: 'Second bounce zone', page: 'p.24', reading: 'from P + 1.5b to P + 2b' },
  {
    id: 'A-53',
    title: 'Who may charge',
    page: 'p.6, p.13',
    reading: 'infantry one action at its formation rate from L or C; cavalry from L, C or E; artillery never',
  },
  {
    id: 'A-54',
    title: 'Contact placement',
    page: 'p.13, p.21',
    reading: 'translate to contact, rotate flush, centre on the overlap',
  },
  { id: 'A-55', title: "Charger's unused action", page: 'p.13', reading: 'the charge ends the activation' },
  {
    id: 'A-56',
    title: 'Joining a grand battery',
    page: 'p.10',
    reading: "unlimbered within the officer's radius at step 1, declared",
  },
  {
    id: 'A-57',
    title: 'Unlimbered artillery failing morale',
    page: 'p.12',
    reading: "owner's choice: limber and retreat, stay at distance 0, or abandon the guns",
  },
  {
    id: 'A-58',
    title: 'Defence facing and formation changes',
    page: 'p.13-14',
    reading: 'face the charger at any angle; changes costing ≤ 1 action; refuse only against a flank charge',
  },
  {
    id: 'A-59',
    title: '"Figures in contact" for casualties',
    page: 'p.13',
    reading:
      'the rolling side\'s own front-rank figures in contact (the book: "charging figures in contact (melee frontage)")',
    option: 'casualtyColumn',
  },
  {
    id: 'A-60',
    title: 'Ride-down after a step 2 failure',
    page: 'p.14',
    reading: 'a full ride-down: casualties, the step 7 check, fatigue +1 both',
  },
  { id: 'A-61', title: 'Cavalry against skirmishers', page: 'p.19', reading: 'digest 6.6.7' },
  { id: 'A-62', title: 'Negative melee value', page: 'p.13', reading: 'floored at 5' },
  {
    id: 'A-63',
    title: 'Enfilade with several chargers',
    page: 'p.14',
    reading: 'only chargers on the same face as the frontal contact combine',
    option: 'enfiladeChargers',
  },
  {
    id: 'A-64',
    title: 'Counter-charges',
    page: 'p.15',
    reading: "checked after each enemy primitive; resolved after the mover's own close action",
  },
  {
    id: 'A-65',
    title: 'Defender dice against several chargers',
    page: 'p.13',
    reading: 'the defender rolls one melee die (Example-1)',
    option: 'defenderMeleeDice',
  },
  {
    id: 'A-66',
    title: '"+2 to the die roll" and outnumbering',
    page: 'p.12-14',
    reading: 'favourable (+2 to the modified morale); all enemy figures in the close action vs own',
  },
  {
    id: 'A-67',
    title: 'Retreat direction',
    page: 'p.12',
    reading: 'end farther from every enemy within 12"; path 1" from enemies',
  },
  {
    id: 'A-68',
    title: 'Recovery actions',
    page: 'p.12',
    reading: 'an activated retreating unit spends all its actions on recovery',
  },
  {
    id: 'A-69',
    title: 'Routing',
    page: 'p.12',
    reading: 'immediate path to the home edge; units passed through disordered; removed',
  },
  {
    id: 'A-70',
    title: 'Threshold reading',
    page: 'p.11',
    reading: 'pass on D20 ≤ 8 + modifiers; "mostly" > 50%; vicinity = within radius of the centroid',
  },
  { id: 'A-71', title: 'Rest in retreat status', page: 'p.5, p.12', reading: 'not allowed' },
  {
    id: 'A-72',
    title: 'Entering blocks with more than 12 figures',
    page: 'p.19',
    reading: 'overflow into touching or adjacent empty blocks, else illegal',
  },
  {
    id: 'A-73',
    title: 'Building fights',
    page: 'p.19',
    reading: 'an outside attack is an infantry charge; tie: defender holds; after ordinary close actions',
  },
  {
    id: 'A-74',
    title: 'Firing out of buildings',
    page: 'p.19-20',
    reading: "the block's step 9 option, once a period; also a defence action",
  },
  {
    id: 'A-75',
    title: 'Fires: wind, occupants, rockets',
    page: 'p.20',
    reading:
      'wind is scenario data; fire has no effect on occupants but the entry ban; rockets (a rocket battery) only start fires',
    option: 'fireEvacuation',
  },
  {
    id: 'A-76',
    title: 'Weather with terrain',
    page: 'p.20',
    reading: 'mud and snow at most ½; with terrain the minimum; heavy rain counts double to 18',
  },
  {
    id: 'A-77',
    title: 'Visibility (hidden information)',
    page: 'p.20',
    reading: 'off by default',
    option: 'visibility',
  },
  {
    id: 'A-78',
    title: 'Smoke geometry',
    page: 'p.20',
    reading: 'a 2"-deep rectangle the firer\'s frontage wide, through the next period',
  },
  {
    id: 'A-79',
    title: 'Victory',
    page: '',
    reading: "the scenario's victory block: 6.13 VP, sudden death on, draw under 3 VP",
  },
];

/** Options that offer the digest's alternatives to an ADAPTATION's reading, or switch an optional rule. */
function choice<const V extends readonly [z.core.util.Literal, ...z.core.util.Literal[]]>(
  why: string,
  values: V,
  dflt: V[number],
) {
  const list = values.map((v) => JSON.stringify(v)).join(', ');
  return z
    .literal(values, { error: `${why}: one of ${list} (default ${JSON.stringify(dflt)})` })
    .default(dflt as never);
}
const flag = (why: string) => z.boolean({ error: `${why}: true or false (default false, off)` }).default(false);

const namedOptions = {
  // ----- optional rules of the book: booleans, off -----
  /** [p.17] Command and control option #2: written orders per division. */
  writtenOrders: flag('writtenOrders [p.17]'),
  /** [p.18] Misinterpreting of orders (needs writtenOrders). */
  misreadOrders: flag('misreadOrders [p.18]'),
  /** [p.17] Leader initiative numbers. */
  leaderInitiative: flag('leaderInitiative [p.17]'),
  /** [p.15] Out-of-control cavalry. */
  outOfControlCavalry: flag('outOfControlCavalry [p.15]'),
  /** [p.15] Carbines. */
  carbines: flag('carbines [p.15]'),
  /** [p.11] Caissons. */
  caissons: flag('caissons [p.11]'),
  /** [p.18] Company (organic) skirmishers. */
  organicSkirmishers: flag('organicSkirmishers [p.18]'),
  /** [p.20] Starting fires in buildings. */
  fires: flag('fires [p.20]'),
  /** [p.20] Weather effects. */
  weather: flag('weather [p.20]'),
  /** [p.20] Visibility (A-77: hidden information). */
  visibility: flag('visibility [p.20] (A-77)'),
  /** [p.20] Smoke. */
  smoke: flag('smoke [p.20]'),
  /** [p.24] Second bounce (1:30). */
  secondBounce: flag('secondBounce [p.24]'),
  /** [p.24] Supported line (1:30). */
  supportedLine: flag('supportedLine [p.24]'),
  /** [p.5] Table flanks: sectors with their own turn points. */
  tableFlanks: flag('tableFlanks [p.5]'),
  /** [p.4] Side A and D ratios: 2:1 default; the book suggests 3:2, 4:2, 5:3; A always moves more. */
  activationRatio: strictObject({
    a: z.number().int().min(1).max(10),
    d: z.number().int().min(1).max(10),
  })
    .refine((r) => r.a > r.d, 'side A must move more units than side D [p.4]')
    .default({ a: 2, d: 1 }),
  /** [p.11] threshold: 50%, or 40% or 60%. */
  thresholdFraction: choice('thresholdFraction [p.11]', [0.5, 0.4, 0.6], 0.5),
  // ----- ADAPTATIONs with an alternative: the digest's reading is the default -----
  /** light cavalry may form skirmish screens. */
  lightCavalrySkirmish: flag('lightCavalrySkirmish (A-2)'),
  /** the stand-off from formed enemy units, inches (the book: "roughly 1" to 2""). */
  standOff: choice('standOff (A-9)', [1, 2], 1),
  /** actions to cross a wall, redoubt, hedge or prepared defence. */
  obstacleCrossing: choice('obstacleCrossing (A-13)', [0.5, 0, 1], 0.5),
  /** smoke blocks LOS as a level-one feature (p.8) or never (p.20). */
  smokeBlocksLos: flag('smokeBlocksLos (A-16)'),
  /** A-21: leaders' step 8 move, inches: 20 (p.4) or 10 (p.6 table read as the whole step). */
  leaderMove: choice('leaderMove (A-21)', [20, 10], 20),
  /**
   * command lines: the shortest path round enemy zones of control and uncrossable rivers, opposing lines that
   * cross contested (the digest), or the straight distance.
   */
  commandLines: choice('commandLines (A-26)', ['paths', 'straight'], 'paths'),
  /** the distance screens are pushed back to, inches. */
  skirmishPushBack: choice('skirmishPushBack (A-36)', [1, 2], 1),
  /** solid-shot damage against troops in or on the edge of woods or buildings. */
  solidShotCover: choice('solidShotCover (A-44)', [-4, -2], -4),
  /** which columns the Solid Shot Firing Table's three cells fill. */
  solidShotTable: choice('solidShotTable (A-45)', ['closeIsCanister', 'extremeBlank'], 'closeIsCanister'),
  /** fatigue of rapid fire used as a defence action: +3 (p.5 bullet, p.10) or +2 (p.5). */
  rapidFireDefenceFatigue: choice('rapidFireDefenceFatigue (A-49)', [3, 2], 3),
  /** the hits that neutralise a battery: all its guns, or its cannons only. */
  neutralisedAt: choice('neutralisedAt (A-50)', ['allGuns', 'cannons'], 'allGuns'),
  /** the casualty chart's column: own figures in contact, or the charging figures (melee frontage). */
  casualtyColumn: choice('casualtyColumn (A-59)', ['ownInContact', 'chargersInContact'], 'ownInContact'),
  /** A-63: which chargers' enfilade values combine. */
  enfiladeChargers: choice('enfiladeChargers (A-63)', ['sameFace', 'all'], 'sameFace'),
  /**
   * which figures of a firing unit fire: those whose own 22.5° arc reaches the target (the digest), or every
   * front-rank figure once any of them bears (the book's p.8 example: "Reference this with 20 figures").
   */
  bearingFigures: choice('bearingFigures (A-38)', ['arcs', 'allFront'], 'arcs'),
  /** the defender's melee dice against several chargers. */
  defenderMeleeDice: choice('defenderMeleeDice (A-65)', ['one', 'perCharger'], 'one'),
  /** the house rule that occupants of a block with 3+ fires must leave at their next activation. */
  fireEvacuation: flag('fireEvacuation (A-75)'),
};

export type OptionName = keyof typeof namedOptions;

/** The fixed readings: `"A-nn": "digest"` only. */
const fixedShape = Object.fromEntries(
  ADAPTATIONS.filter((a) => a.option === undefined).map((a) => [
    a.id,
    z
      .literal('digest', {
        error: `${a.id} (${a.title}): only the digest's reading is implemented (${a.reading}); set it to "digest" or leave it out`,
      })
      .optional(),
  ]),
) as Record<never, z.ZodOptional<z.ZodLiteral<'digest'>>>;

const optionsSchema = strictObject({ ...namedOptions, ...fixedShape });

export type Options = z.infer<typeof optionsSchema>;

/** The options with every default filled in. */
export const DEFAULT_OPTIONS: Options = optionsSchema.parse({});

// ---------------------------------------------------------------------------------------------------------------------
// Geometry building blocks
// ---------------------------------------------------------------------------------------------------------------------

const num = z.number();
const point = z.tuple([num, num]);
const polygon = z.array(point).min(3);
const polyline = z.array(point).min(2);
const id = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,15}$/, 'ids are 1–16 letters, digits, _ or -, starting with a letter');
const facing = z.number().int().min(0).max(359);
const name = z.string().min(1).optional();
const compass = z.enum(['N', 'E', 'S', 'W']);

// ---------------------------------------------------------------------------------------------------------------------
// Terrain [p.6, p.8-10, p.19-20]; digest §3.5
// ---------------------------------------------------------------------------------------------------------------------

const terrainSchema = z.discriminatedUnion('type', [
  // [p.6] road column 10" an action "on road"
  strictObject({ type: z.literal('road'), id, name, points: polyline }),
  // [p.6] "players decide which can be crossed … 1 to 4 actions … which … cause the unit to become disordered"
  strictObject({
    type: z.literal('river'),
    id,
    name,
    points: polyline,
    width: z.number().positive().max(12).default(1),
    crossable: z.boolean().default(true),
    actionsToCross: z.number().int().min(1).max(4).default(1),
    disorders: z.boolean().default(false),
  }),
  // [p.6] "4 to 12 figures may cross over a bridge per action. Depends on the size of the bridge."
  strictObject({
    type: z.literal('bridge'),
    id,
    name,
    river: id,
    road: id.optional(),
    polygon,
    capacity: z
      .number()
      .int()
      .min(4, 'a bridge takes 4 to 12 figures an action [p.6]')
      .max(12, 'a bridge takes 4 to 12 figures an action [p.6]'),
  }),
  // a crossable stretch of a river (its own actions and disorder)
  strictObject({
    type: z.literal('ford'),
    id,
    name,
    river: id,
    polygon,
    actionsToCross: z.number().int().min(1).max(4).default(1),
    disorders: z.boolean().default(false),
  }),
  // [p.6, p.8] hills of one or more levels, gentle/steep/extreme slopes, ridge lines marking the crest
  strictObject({
    type: z.literal('hill'),
    id,
    name,
    polygon,
    level: z.number().int().min(1).max(5).default(1),
    slope: z.enum(['gentle', 'steep', 'extreme']).default('gentle'),
    ridge: polyline.optional(),
  }),
  // [p.19] light and dense woods
  strictObject({ type: z.literal('woods'), id, name, polygon, density: z.enum(['light', 'dense']) }),
  // [p.6] "Mud / Soft Ground / Sand; movement is ½ for all units"; [p.10] halves the bounce
  strictObject({
    type: z.literal('mud'),
    id,
    name,
    polygon,
    ground: z.enum(['mud', 'softGround', 'sand', 'marsh']).default('mud'),
  }),
  // [p.10] cultivated fields halve the bounce (no movement effect)
  strictObject({ type: z.literal('fields'), id, name, polygon }),
  // [p.9] walls, redoubts (−3 fire, −10 melee); hedges, prepared defences (−2 fire, −5 melee)
  strictObject({ type: z.literal('wall'), id, name, points: polyline, redoubt: z.boolean().default(false) }),
  strictObject({ type: z.literal('hedge'), id, name, points: polyline, prepared: z.boolean().default(false) }),
  // [p.19] "Buildings are represented by 4” gray or brown squares"; [p.20] brick or stone −1 to start fires
  strictObject({
    type: z.literal('block'),
    id,
    name,
    sw: point,
    brickOrStone: z.boolean().default(false),
    wallSides: z.array(compass).default([]),
    fires: z.number().int().min(0).max(4, 'at most four fires in a block [p.20]').default(0),
  }),
]);

// ---------------------------------------------------------------------------------------------------------------------
// Orders of battle [p.3-4, p.16]; digest §2
// ---------------------------------------------------------------------------------------------------------------------

const rating = z.string().superRefine((s, ctx) => {
  const p = ratingProblem(s);
  if (p !== undefined) ctx.addIssue({ code: 'custom', message: p });
});

/** The nationalities a side (and a unit of another nation in it) may have. */
export const NATIONALITIES = [
  'french',
  'austrian',
  'russian',
  'prussian',
  'british',
  'spanish',
  'portuguese',
  'german',
  'italian',
  'other',
] as const;

const unitCommon = {
  id,
  name,
  /** [p.4] Move–Morale–Fire–Melee. */
  rating,
  /** The leader who moves it [p.16]: a division (or corps, or grand battery) leader of the same side. */
  commander: id,
  nationality: z.enum(NATIONALITIES).optional(),
  /** Front-edge centre, inches; facing, degrees. */
  x: num,
  y: num,
  facing,
  disordered: z.boolean().default(false),
  fatigue: z.number().int().min(0).max(3, 'fatigue is 0 Normal … 3 Exhausted [p.5]').default(0),
};
const figures = z.number().int().min(2, 'a unit below 2 figures is eliminated (A-43)').max(200);
const columnFront = z.number().int().min(1).optional();

const infantrySchema = strictObject({
  ...unitCommon,
  kind: z.literal('infantry'),
  troopClass: z.enum(['militia', 'green', 'line', 'light', 'grenadier', 'guard']),
  guard: z.enum(['young', 'middle', 'old']).optional(),
  ranks: z.union([z.literal(2), z.literal(3)], { error: 'ranks: 2 or 3 (rank training) [p.3]' }),
  lightInfantry: z.boolean().default(false),
  organicSkirmishers: z.boolean().default(false),
  weapon: z.enum(['musket', 'rifle']).optional(),
  figures,
  columnFront,
  formation: z.enum(['line', 'column', 'roadColumn', 'square', 'skirmish']),
  refused: z.enum(['left', 'right']).optional(),
  supported: z.boolean().default(false),
  /** [p.20] sappers (optional fires): start fires on 11-20 and put them out on 16-20. */
  sappers: z.boolean().optional(),
});

const cavalrySchema = strictObject({
  ...unitCommon,
  kind: z.literal('cavalry'),
  weight: z.enum(['light', 'medium', 'heavy']),
  guard: z.boolean().default(false),
  cossack: z.boolean().default(false),
  british: z.boolean().default(false),
  carbines: z.boolean().default(false),
  figures,
  columnFront,
  formation: z.enum(['line', 'column', 'roadColumn', 'echelon', 'skirmish']),
  echelon: z.enum(['left', 'right']).optional(),
});

const artillerySchema = strictObject({
  ...unitCommon,
  kind: z.literal('artillery'),
  arm: z.enum(['foot', 'horse']),
  calibre: z.enum(['2-3lb', '4lb', '6lb', '8-9lb', '12lb']),
  cannons: z.number().int().min(0).max(24),
  howitzers: z.number().int().min(0).max(12).default(0),
  regimental: z.boolean().default(false),
  guardBattery: z.boolean().default(false),
  formation: z.enum(['limbered', 'unlimbered']),
  massed: z.boolean().default(false),
  hits: z.number().int().min(0).default(0),
  ammo: z.number().int().min(0).max(3, 'ammunition is 0 Normal … 3 Out [p.11]').default(0),
  /** [p.20] its howitzers carry incendiary shells (optional fires): the Incendiary column (7-20) at a block. */
  incendiary: z.boolean().optional(),
  /**
   * [p.20] A-75 a rocket battery (optional fires): its `cannons` are its rocket launchers; it fires only at units in
   * blocks, each bearing launcher rolling the Rockets column (4-20), and has no other fire effect.
   */
  rockets: z.boolean().optional(),
});

const unitSchema = z.discriminatedUnion('kind', [infantrySchema, cavalrySchema, artillerySchema]);

/** [p.16] leader bonuses by rank (historical leaders may differ). */
const DEFAULT_MORALE_BONUS: Readonly<Record<LeaderRole, number>> = { army: 3, corps: 2, division: 1, grandBattery: 1 };

const leaderSchema = strictObject({
  id,
  name,
  rank: z.enum(['army', 'corps', 'division', 'grandBattery']),
  /** The leader above him (none for the army commander). */
  superior: id.optional(),
  /** [p.16] command distance, inches (option #1: army 35-45, corps 15-30, division 10-20; historical may differ). */
  radius: z.number().positive().max(100),
  /** [p.16] default +1 division, +2 corps, +3 army. */
  moraleBonus: z.number().int().min(0).max(5).optional(),
  /** [p.16] +5; +10 leads a charge; +0 timid. */
  meleeBonus: z.number().int().min(0).max(15).default(5),
  /** [p.17] optional initiative (corps 8, division 5, ±1..3); army commanders have none. */
  initiative: z.number().int().min(1).max(20).optional(),
  /** [p.18] misread +1 poor officer, +2 very bad. */
  misread: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(0),
  spyglass: z.boolean().default(false),
  staffOfficer: z.boolean().default(false),
  /** Attached to a unit (id), or standing at x, y. */
  attached: id.optional(),
  x: num.optional(),
  y: num.optional(),
}).transform((l) => ({
  ...l,
  moraleBonus: l.moraleBonus ?? (l.staffOfficer ? 0 : DEFAULT_MORALE_BONUS[l.rank]),
  // [p.17] "Basic values are 8 for Corps leaders and 5 for Divisional leaders" (army commanders have none)
  initiative: l.initiative ?? (l.rank === 'army' ? undefined : l.rank === 'corps' ? 8 : 5),
}));

/** [p.11] optional caissons. */
const caissonSchema = strictObject({ id, x: num, y: num, facing, servicing: id.optional() });

const sideSchema = strictObject({
  name: z.string().min(1),
  nationality: z.enum(NATIONALITIES),
  /** The edge the side's routs leave by. */
  homeEdge: z.enum(['south', 'north', 'east', 'west']),
  /** [p.5] twenty turn points a game turn, or the scenario's uneven number. */
  turnPoints: z.number().int().min(0).max(100).default(20),
  doctrine: strictObject({
    frenchPost1807: z.boolean().default(false),
    prussian1806: z.boolean().default(false),
    austrianMass: z.boolean().default(false),
    grandBatteryAllowed: z.boolean().default(false),
  }).default({ frenchPost1807: false, prussian1806: false, austrianMass: false, grandBatteryAllowed: false }),
  /** [p.11] Napoleon on the battlefield; [p.17] Napoleon the army commander. */
  napoleonPresent: z.boolean().default(false),
  napoleonArmyCommander: z.boolean().default(false),
  leaders: z.array(leaderSchema).min(1, 'a side has at least its army commander [p.16]'),
  units: z.array(unitSchema).min(1, 'a side has at least one unit'),
  caissons: z.array(caissonSchema).default([]),
});

// ---------------------------------------------------------------------------------------------------------------------
// Victory (A-79, digest §6.13)
// ---------------------------------------------------------------------------------------------------------------------

const objectiveSchema = strictObject({
  id,
  name,
  vp: z.number().int().min(0).max(50),
  /** What is held: a building block, another terrain piece (e.g. a bridge), or an area. */
  block: id.optional(),
  terrain: id.optional(),
  polygon: polygon.optional(),
  /** Held by a formed, non-retreating unit in it or within this distance, with no formed enemy there. */
  within: z.number().min(0).max(12).default(2),
  /** `lastHeld` (6.13: the side that last held it) or `present` (only a side there at the check scores). */
  hold: z.enum(['lastHeld', 'present']).default('lastHeld'),
});

const VICTORY_DEFAULTS = {
  unitLost: 2,
  guardUnitLost: 3,
  retreatingAtEnd: 1,
  batteryGunsLost: 1,
  leaderLost: 1,
  suddenDeath: true,
  drawMargin: 3,
  objectives: [],
} as const;

const victorySchema = strictObject({
  /** Enemy unit routed, surrendered or eliminated: 2 (3 if a guard unit). */
  unitLost: z.number().int().min(0).default(2),
  guardUnitLost: z.number().int().min(0).default(3),
  /** Enemy unit in retreat status at game end. */
  retreatingAtEnd: z.number().int().min(0).default(1),
  /** Enemy battery whose guns were destroyed, spiked or captured. */
  batteryGunsLost: z.number().int().min(0).default(1),
  leaderLost: z.number().int().min(0).default(1),
  /** An army failing its army threshold roll at the start of a turn concedes. */
  suddenDeath: z.boolean().default(true),
  /** A margin below this is a draw. */
  drawMargin: z.number().int().min(0).default(3),
  objectives: z.array(objectiveSchema).default([]),
}).default({ ...VICTORY_DEFAULTS, objectives: [] });

// ---------------------------------------------------------------------------------------------------------------------
// The scenario
// ---------------------------------------------------------------------------------------------------------------------

const scenarioSchema = strictObject({
  ruleset: z.literal('napoleons-eagles'),
  id: z.string().regex(/^[a-z0-9-]+$/, 'scenario ids are lower-case letters, digits and -'),
  title: z.string().min(1),
  description: z.string().optional(),
  /** The year of the battle (A-7: 1806 Prussians ≤ 1806). */
  year: z.number().int().min(1790).max(1820).optional(),
  table: strictObject({
    width: z.number().min(24).max(240),
    height: z.number().min(24).max(240),
  }),
  /** Game turns; each is 6 periods of 2 actions [p.4]. */
  turns: z.number().int().min(1).max(30),
  /** [p.20] optional weather (needs options.weather unless clear). */
  weather: z.enum(['clear', 'lightRain', 'heavyRain', 'lightSnow', 'heavySnow', 'hot']).default('clear'),
  /** where the wind comes from (fires spread downwind). */
  windFrom: compass.optional(),
  terrain: z.array(terrainSchema).default([]),
  sides: z.tuple([sideSchema, sideSchema]),
  victory: victorySchema,
  options: optionsSchema.default(DEFAULT_OPTIONS),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type SideSpec = Scenario['sides'][number];
export type UnitSpec = z.infer<typeof unitSchema>;
export type LeaderSpec = SideSpec['leaders'][number];
export type TerrainSpec = z.infer<typeof terrainSchema>;
export type ObjectiveSpec = Scenario['victory']['objectives'][number];

/** the footprint size of a unit as the scenario places it. */
export function unitFootprint(u: UnitSpec) {
  if (u.kind === 'artillery')
    return footprintSize({
      kind: 'artillery',
      formation: u.formation,
      guns: u.cannons + u.howitzers,
      variant: { massed: u.massed },
    });
  if (u.kind === 'infantry')
    return footprintSize({
      kind: 'infantry',
      formation: u.formation,
      figures: u.figures,
      ranks: u.ranks,
      columnFront: u.columnFront,
      variant: { refused: u.refused, supported: u.supported },
    });
  return footprintSize({ kind: 'cavalry', formation: u.formation, figures: u.figures, columnFront: u.columnFront });
}

/** The footprint polygon of a unit as the scenario places it (inches). */
export function unitPolygon(u: UnitSpec): Vec[] {
  return rectCorners(footprintRect(u.x, u.y, u.facing, unitFootprint(u)));
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const corners = (ps: readonly Vec[]): [number, number][] => ps.map((p) => [round(p.x), round(p.y)]);
const vecs = (ps: readonly (readonly [number, number])[]): Vec[] => ps.map(([x, y]) => ({ x, y }));

/** Everything wrong with a scenario file, each with its JSON path; the validated scenario when nothing is. */
export function validateScenario(json: unknown): Validated<Scenario> {
  const parsed = scenarioSchema.safeParse(json);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error) };
  const sc = parsed.data;
  const problems: Problem[] = [];
  const { width, height } = sc.table;
  const opt = sc.options;
  /** Points off the table, as problems at `path` (the item's own path, not a list index). */
  const onTable = (ps: readonly (readonly [number, number])[], path: string, what: string): Problem[] =>
    offTable(ps, width, height, path, what).map((p) => ({ ...p, path }));
  const ids: { id: string; path: string }[] = [];

  // ----- terrain -----
  const terrainById = new Map<string, TerrainSpec>();
  for (const t of sc.terrain) if (!terrainById.has(t.id)) terrainById.set(t.id, t);
  sc.terrain.forEach((t, i) => {
    const tp = `$.terrain[${i}]`;
    ids.push({ id: t.id, path: `${tp}.id` });
    if (t.type === 'block') {
      const [x, y] = t.sw;
      problems.push(
        ...onTable(
          [
            [x, y],
            [x + BLOCK_SIZE, y + BLOCK_SIZE],
          ],
          tp,
          `building block ${t.id}'s corner`,
        ),
      );
    } else if ('polygon' in t)
      problems.push(...polygonProblems(t.polygon, width, height, `${tp}.polygon`, `${t.type} ${t.id}`));
    else problems.push(...polylineProblems(t.points, width, height, `${tp}.points`, `${t.type} ${t.id}`));
    if (t.type === 'bridge' || t.type === 'ford') {
      const river = terrainById.get(t.river);
      if (river?.type !== 'river')
        problems.push({ path: `${tp}.river`, message: `no river "${t.river}" in the terrain for ${t.type} ${t.id}` });
      else if (!polygonTouchesPolyline(vecs(t.polygon), vecs(river.points)))
        problems.push({ path: `${tp}.polygon`, message: `${t.type} ${t.id} does not touch river ${river.id}` });
      if (t.type === 'bridge' && t.road !== undefined && terrainById.get(t.road)?.type !== 'road')
        problems.push({ path: `${tp}.road`, message: `no road "${t.road}" in the terrain for bridge ${t.id}` });
    }
    if (t.type === 'hill' && t.ridge)
      t.ridge.forEach((p, pi) => {
        if (!insidePolygon(p, t.polygon))
          problems.push({
            path: `${tp}.ridge[${pi}]`,
            message: `ridge point (${p[0]}, ${p[1]}) is not on hill ${t.id} [p.6]`,
          });
      });
  });
  // [p.19] blocks are 4" squares: they may touch but not overlap
  const blocks = sc.terrain.flatMap((t, i) => (t.type === 'block' ? [{ t, i }] : []));
  for (let a = 0; a < blocks.length; a++)
    for (let b = a + 1; b < blocks.length; b++) {
      const p = blocks[a]!.t.sw;
      const q = blocks[b]!.t.sw;
      if (Math.abs(p[0] - q[0]) < BLOCK_SIZE && Math.abs(p[1] - q[1]) < BLOCK_SIZE)
        problems.push({
          path: `$.terrain[${blocks[b]!.i}].sw`,
          message: `building blocks ${blocks[a]!.t.id} and ${blocks[b]!.t.id} overlap (blocks are 4" × 4" [p.19])`,
        });
    }
  if (sc.weather !== 'clear' && !opt.weather)
    problems.push({
      path: '$.weather',
      message: `weather "${sc.weather}" needs the optional rule options.weather [p.20]`,
    });
  if (opt.misreadOrders && !opt.writtenOrders)
    problems.push({
      path: '$.options.misreadOrders',
      message: 'misread orders need written orders (options.writtenOrders) [p.17-18]',
    });

  // ----- sides -----
  const dense = sc.terrain.flatMap((t) => (t.type === 'woods' && t.density === 'dense' ? [t] : []));
  const placed: { poly: Vec[]; path: string; id: string }[] = [];
  sc.sides.forEach((side, s) => {
    const base = `$.sides[${s}]`;
    const leaders = new Map(side.leaders.map((l) => [l.id, l]));
    const units = new Set(side.units.map((u) => u.id));
    // [p.16] one army commander, each other leader under a superior of higher rank
    const armies = side.leaders.filter((l) => l.rank === 'army');
    if (armies.length !== 1)
      problems.push({
        path: `${base}.leaders`,
        message: `a side has exactly one army commander (rank "army"), not ${armies.length} [p.16]`,
      });
    const d = side.doctrine;
    if (d.frenchPost1807 && side.nationality !== 'french')
      problems.push({ path: `${base}.doctrine.frenchPost1807`, message: 'frenchPost1807 is for French armies [p.7]' });
    if (d.prussian1806 && (side.nationality !== 'prussian' || (sc.year !== undefined && sc.year > 1806)))
      problems.push({
        path: `${base}.doctrine.prussian1806`,
        message: 'prussian1806 is for Prussians of 1806 or before [p.7] (A-7)',
      });
    if (d.austrianMass && side.nationality !== 'austrian')
      problems.push({ path: `${base}.doctrine.austrianMass`, message: 'austrianMass is for Austrian armies [p.7]' });
    if (d.grandBatteryAllowed && !GRAND_BATTERY_NATIONS.includes(side.nationality))
      problems.push({
        path: `${base}.doctrine.grandBatteryAllowed`,
        message: 'only French, Austrian and Russian armies form grand batteries [p.10]',
      });
    if (side.napoleonPresent && side.nationality !== 'french')
      problems.push({ path: `${base}.napoleonPresent`, message: 'Napoleon is with a French army [p.11]' });
    if (side.napoleonArmyCommander && !side.napoleonPresent)
      problems.push({
        path: `${base}.napoleonArmyCommander`,
        message: 'Napoleon as army commander is also present [p.11, p.17]',
      });

    side.leaders.forEach((l, li) => {
      const lp = `${base}.leaders[${li}]`;
      ids.push({ id: l.id, path: `${lp}.id` });
      if (l.rank === 'army') {
        if (l.superior !== undefined)
          problems.push({ path: `${lp}.superior`, message: 'the army commander has no superior [p.16]' });
        if (l.initiative !== undefined)
          problems.push({
            path: `${lp}.initiative`,
            message: 'army commanders have no initiative number ("Army commanders don\'t need them") [p.17]',
          });
      } else if (l.superior === undefined)
        problems.push({ path: lp, message: `a ${l.rank} leader needs "superior" (the leader above him) [p.16]` });
      else {
        const sup = leaders.get(l.superior);
        if (!sup) problems.push({ path: `${lp}.superior`, message: `no leader "${l.superior}" on this side` });
        else if (!SUPERIOR_RANKS[l.rank].includes(sup.rank))
          problems.push({
            path: `${lp}.superior`,
            message: `a ${l.rank} leader answers to ${SUPERIOR_RANKS[l.rank].join(' or ')}, not to ${sup.rank} leader ${sup.id} [p.16]`,
          });
      }
      if (l.attached !== undefined) {
        if (!units.has(l.attached))
          problems.push({ path: `${lp}.attached`, message: `"${l.attached}" is not a unit of this side [p.16]` });
        if (l.x !== undefined || l.y !== undefined)
          problems.push({ path: lp, message: 'a leader is either attached to a unit or placed at x, y, not both' });
      } else if (l.x === undefined || l.y === undefined)
        problems.push({ path: lp, message: 'a leader needs "attached" (a unit id) or a position x, y' });
      else problems.push(...onTable([[l.x, l.y]], lp, `leader ${l.id}`));
    });

    side.units.forEach((u, ui) => {
      const up = `${base}.units[${ui}]`;
      ids.push({ id: u.id, path: `${up}.id` });
      const before = problems.length;
      const cmd = leaders.get(u.commander);
      if (!cmd) problems.push({ path: `${up}.commander`, message: `no leader "${u.commander}" on this side` });
      else if (cmd.rank === 'army')
        problems.push({
          path: `${up}.commander`,
          message: `only division (and some corps) commanders move units [p.16]; ${cmd.id} is the army commander`,
        });
      const fire = parseRating(u.rating).fire;
      if (u.kind === 'infantry') {
        if (u.formation === 'skirmish' && !u.lightInfantry)
          problems.push({
            path: `${up}.formation`,
            message: 'only all-light-infantry units form skirmish screens [p.18]',
          });
        if (u.guard !== undefined && u.troopClass !== 'guard')
          problems.push({ path: `${up}.guard`, message: 'a guard grade is for troopClass "guard" [p.11]' });
        if (fire === 'R' && u.weapon === 'musket')
          problems.push({ path: `${up}.weapon`, message: 'fire letter R (Rifle class) means a rifle (A-1)' });
        if (u.refused !== undefined && u.formation !== 'line')
          problems.push({ path: `${up}.refused`, message: 'only a line refuses a flank [p.7]' });
        if (u.supported && !(u.formation === 'line' && opt.supportedLine))
          problems.push({
            path: `${up}.supported`,
            message: 'a supported line is a line under options.supportedLine [p.24]',
          });
        if (u.sappers && !opt.fires)
          problems.push({
            path: `${up}.sappers`,
            message: `${u.id}: sappers need the optional rule options.fires (they start and put out fires) [p.20]`,
          });
      } else if (fire === 'R')
        problems.push({
          path: `${up}.rating`,
          message: `fire letter R (Rifle class) is for infantry, not ${u.kind} [p.9] (A-1)`,
        });
      if (u.kind === 'cavalry') {
        if (u.formation === 'skirmish' && !(u.weight === 'light' && opt.lightCavalrySkirmish))
          problems.push({
            path: `${up}.formation`,
            message: 'cavalry skirmish only for light cavalry under options.lightCavalrySkirmish (A-2)',
          });
        if (u.echelon !== undefined && u.formation !== 'echelon')
          problems.push({ path: `${up}.echelon`, message: 'echelon left or right is for a unit in echelon [p.7]' });
      }
      if (u.kind !== 'artillery' && u.columnFront !== undefined && u.columnFront > u.figures)
        problems.push({
          path: `${up}.columnFront`,
          message: `a column's first rank cannot exceed its ${u.figures} figures (A-4)`,
        });
      if (u.kind === 'artillery') {
        const guns = u.cannons + u.howitzers;
        if (guns < 1) problems.push({ path: up, message: 'a battery has at least one gun (cannons + howitzers)' });
        else if (u.hits >= neutralisedAtHits(opt.neutralisedAt === 'cannons' ? u.cannons : guns, u.guardBattery))
          problems.push({
            path: `${up}.hits`,
            message: `${u.hits} hits neutralise a battery of ${guns} guns [p.10] (A-50)`,
          });
        if (u.massed && u.formation !== 'unlimbered')
          problems.push({ path: `${up}.massed`, message: 'massed artillery is unlimbered [p.10]' });
        // [p.20] "Only howitzers can fire incendiary shells"
        if (u.incendiary && u.howitzers < 1)
          problems.push({
            path: `${up}.incendiary`,
            message: `${u.id} has no howitzers: only howitzers can fire incendiary shells [p.20]`,
          });
        else if (u.incendiary && !opt.fires)
          problems.push({
            path: `${up}.incendiary`,
            message: `${u.id}: incendiary shells need the optional rule options.fires [p.20]`,
          });
        // A-75 rockets are only a fire-starting column: a rocket battery needs the fires rule and has no howitzers
        if (u.rockets && !opt.fires)
          problems.push({
            path: `${up}.rockets`,
            message: `${u.id}: rockets only start fires (A-75): a rocket battery needs the optional rule options.fires [p.20]`,
          });
        if (u.rockets && u.howitzers > 0)
          problems.push({
            path: `${up}.rockets`,
            message: `${u.id}: a rocket battery's launchers are its cannons; it has no howitzers (A-75)`,
          });
      }
      // a unit whose formation or make-up is wrong has no footprint to check: one problem, not a cascade
      if (problems.length === before) {
        const poly = unitPolygon(u);
        // a unit stands wholly on the table
        problems.push(...onTable(corners(poly), up, `unit ${u.id}'s footprint corner`).slice(0, 1));
        // [p.19] cavalry and artillery cannot enter dense woods
        if (u.kind !== 'infantry')
          for (const w of dense)
            if (polygonsOverlap(poly, vecs(w.polygon)))
              problems.push({ path: up, message: `${u.kind} cannot enter dense woods ${w.id} [p.19]` });
        placed.push({ poly, path: up, id: u.id });
      }
    });

    if (side.caissons.length && !opt.caissons)
      problems.push({ path: `${base}.caissons`, message: 'caissons need the optional rule options.caissons [p.11]' });
    side.caissons.forEach((c, ci) => {
      const cp = `${base}.caissons[${ci}]`;
      ids.push({ id: c.id, path: `${cp}.id` });
      problems.push(...onTable([[c.x, c.y]], cp, `caisson ${c.id}`));
      if (c.servicing !== undefined && !side.units.some((u) => u.id === c.servicing && u.kind === 'artillery'))
        problems.push({ path: `${cp}.servicing`, message: `"${c.servicing}" is not a battery of this side [p.11]` });
    });
  });

  // [digest 3.2] footprints never overlap at rest
  for (let a = 0; a < placed.length; a++)
    for (let b = a + 1; b < placed.length; b++)
      if (polygonsOverlap(placed[a]!.poly, placed[b]!.poly))
        problems.push({ path: placed[b]!.path, message: `unit ${placed[b]!.id} overlaps unit ${placed[a]!.id}` });

  // ----- victory -----
  sc.victory.objectives.forEach((o, i) => {
    const op = `$.victory.objectives[${i}]`;
    ids.push({ id: o.id, path: `${op}.id` });
    const given = [o.block, o.terrain, o.polygon].filter((x) => x !== undefined).length;
    if (given !== 1)
      problems.push({
        path: op,
        message: 'an objective is exactly one of "block" (a block id), "terrain" (a terrain id) or "polygon"',
      });
    if (o.block !== undefined && terrainById.get(o.block)?.type !== 'block')
      problems.push({ path: `${op}.block`, message: `no building block "${o.block}" in the terrain` });
    if (o.terrain !== undefined && !terrainById.has(o.terrain))
      problems.push({ path: `${op}.terrain`, message: `no terrain "${o.terrain}"` });
    if (o.polygon !== undefined)
      problems.push(...polygonProblems(o.polygon, width, height, `${op}.polygon`, `objective ${o.id}`));
  });

  // one id names one thing: units, leaders, terrain, caissons and objectives share a namespace
  const seen = new Map<string, string>();
  for (const x of ids) {
    const first = seen.get(x.id);
    if (first) problems.push({ path: x.path, message: `duplicate id "${x.id}" (first used at ${first})` });
    else seen.set(x.id, x.path);
  }
  return problems.length ? { ok: false, problems } : { ok: true, value: sc };
}
