/**
 * Observation encoding for Eagles of the Empire, version 1 (see `engine/core/encoding.ts`).
 *
 * The game has perfect information (every counter is face up [2.0]), so the whole state is observed; nothing random
 * (the chance counter) is encoded. Everything is from the view of `player`: the side blocks come in pairs, "mine"
 * then "theirs", of the same layout, so the "mine" blocks seen by one seat are the "theirs" blocks seen by the other.
 * The map is not turned (the two sides of a scenario are not symmetric): area slots follow the map file's order,
 * unit slots each side's order in the scenario (the state's unit list, extended-line markers included).
 *
 * State: the turn, phase, weather and time of day; who decides; the procedure stack's top frame (kind one-hot, the
 * stage of a staged frame, the Action Phase segment, the frame's numbers); per side the victory points, strength and
 * activation bookkeeping; per area slot the terrain and stacking class, objective, the areas the current procedure
 * is about, and per side the strength by arm, leaders, HQ and stances there; per unit slot and side the unit's arm,
 * counter, strength, steps, morale, area and markers. Each legal action is encoded with its kind, its numbers, the
 * areas it names (one-hot by slot, with a summary of the first), the units, leader and formation (or reinforcement
 * group or deployment) it names, and the scripted player's preference for it (normalised within the position).
 *
 * Caps (a state beyond them is refused by `check` and by `encodeState`, naming the cap): 32 areas, 48 units per side
 * (extended-line markers count), 32 leaders per side, 48 formations and forces, 32 reinforcement groups and 16
 * alternate deployments in all. Values lie in [-1, 2]: strengths are scaled by typical maxima (an area holds at most
 * 25 SP [13.63]) and clamped.
 */
import type { AreaId, AreaMap } from '../../areas/map.ts';
import type { Encoding, FeatureBlock } from '../../core/encoding.ts';
import { layout } from '../../core/encoding.ts';
import { evaluate, policyScores } from './heuristic.ts';
import { toMoveOf, top, victoryPoints } from './rules.ts';
import { formationsOf } from './scenario.ts';
import type { Action, EState, Frame, LeaderState, PhaseFrame, Side, UnitState } from './types.ts';
import {
  activationFormation,
  alive,
  isActive,
  isLC,
  leaderDef,
  moraleOf,
  spOf,
  stepsLeft,
  tactical,
  unitDef,
} from './world.ts';

const ID = 'eagles-of-the-empire/v1';

/** Area slots (the shipped map has 24). */
export const MAX_AREAS = 32;
/** Unit slots per side, extended-line markers included (the shipped scenarios have at most 21, generated ones ~44). */
export const MAX_UNITS = 48;
/** Leaders per side, formations and forces of both sides, reinforcement groups and deployments: scaling caps. */
const MAX_LEADERS = 32;
const MAX_FORMATIONS = 48;
const MAX_GROUPS = 32;
const MAX_DEPLOYMENTS = 16;

const FRAME_KINDS: readonly Frame['t'][] = [
  'reinf',
  'reinfPlace',
  'face',
  'firstChoice',
  'attempt',
  'select',
  'weather',
  'firstRoll',
  'actDie',
  'courier',
  'cbi',
  'command',
  'phase',
  'fire',
  'bomb',
  'move',
  'routMove',
  'displace',
  'retreatTo',
  'roll',
  'loss',
  'leaderCheck',
  'routCheck',
  'assault',
  'charge',
  'gc',
  'endSeq',
  'freeRally',
  'rallyRoll',
  'routRally',
  'recoverRoll',
  'replace',
];

/** The stages of the staged frames, prefixed by the frame kind. */
const STAGES: readonly string[] = [
  ...['roll', 'losses', 'rout'].map((x) => `bomb.${x}`),
  ...['first', 'target', 'gather', 'launch'].map((x) => `gc.${x}`),
  ...['free', 'rally', 'routRally', 'recovery', 'replace'].map((x) => `endSeq.${x}`),
  ...[
    'gather',
    'squareCheck',
    'squareAsk',
    'squareRoll',
    'defFire',
    'defLoss',
    'atkFire',
    'atkLoss',
    'result',
    'occupy',
    'pursuitRoll',
    'pursuitChoice',
    'pursuitHeavy',
    'pursuitGo',
    'advanceChoice',
    'repulseLoss',
    'repulseBack',
    'gcAfter',
    'rout',
  ].map((x) => `charge.${x}`),
  ...[
    'gather',
    'beforeRetreat',
    'defTarget',
    'rollA',
    'rollD',
    'mcLoss',
    'atkChoice',
    'atkStand',
    'defChoice',
    'defStand',
    'apply',
    'retreat',
    'advance',
    'rout',
  ].map((x) => `assault.${x}`),
];

const SEGMENTS: readonly PhaseFrame['seg'][] = ['charge', 'assign', 'bombard', 'move', 'assault'];
const PHASES: readonly EState['phase'][] = ['prep', 'activation', 'end', 'over'];
const WEATHERS: readonly EState['weather'][] = ['clear', 'rain', 'fog', 'snow'];
const TIMES = ['dawn', 'day', 'dusk', 'night'] as const;
const TERRAINS = ['clear', 'village', 'town', 'woods', 'swamp', 'other'] as const;
const STACK_CLASSES = ['normal', 'circle2', 'circle3', 'town'] as const;
const CONFS = ['N', 'E', 'S', 'W', 'other'] as const;

const ACTION_KINDS: readonly Action['k'][] = [
  'arrive',
  'delay',
  'placeAt',
  'face',
  'first',
  'roll',
  'pass',
  'grandCharge',
  'select',
  'next',
  'fire',
  'shoot',
  'mvUnit',
  'mvStack',
  'mvLeader',
  'mvWithLeader',
  'mvHq',
  'to',
  'stop',
  'routOff',
  'hit',
  'goTo',
  'square',
  'assault',
  'join',
  'resolve',
  'fireAt',
  'stand',
  'retreat',
  'advance',
  'charge',
  'escort',
  'pursue',
  'attach',
  'detach',
  'reserve',
  'artLeader',
  'deploy',
  'reabsorb',
  'gcFirst',
  'gcTarget',
  'gcAfter',
  'reverseSlope',
  'massedColumn',
  'extend',
  'retract',
  'c-weather',
  'c-first',
  'c-die',
  'c-hits',
  'c-pass',
];

// ---------------------------------------------------------------------------------------------
// layouts
// ---------------------------------------------------------------------------------------------

const FRAME_NUMBERS_DOC =
  'loss hits/10, first loss, counter-battery, assault attacker hits/10, defender hits/10, massed column, combined, vacated, ' +
  'charge die/6, charge hits/10, charge defenders SP/25, pursuit, grand charge, failed square, select: attempts left/5, ' +
  'rout move MP left/8, dice in the roll/10, check modifier/4, rally target/6, frame belongs to me';
const FN = 20;

const SIDE_DOC =
  'VP/(VP + max(10, 2 × decisive threshold)), objectives held/4, SP now/SP at start, steps lost/20, units on the map/units, first player, ' +
  'makes the next activation attempt, failed the previous attempt, failures in a row/3, formations activated (fraction), ' +
  'HQ on the map, HQ lost, reinforcement groups pending/16, due this turn/8, reserves assigned this turn/4, leaders fallen/5, ' +
  'army commander on the map, HQ moved, owns the Action Phase in progress, owns the top frame';
const SG = 20;

const AREA_DOC =
  `present, terrain one-hot (${TERRAINS.join(', ')}), defensive works, elevation/5, stacking class one-hot ` +
  `(${STACK_CLASSES.join(', ')}), stacking max SP/25, max long counters/4, all-around, map edge, objective, ` +
  "the top frame's source area (from, origin, moving stack, loss area), its target area, one of its area options";
const AC = 21;

const AREA_SIDE_DOC =
  'holds the objective, objective VP for the side/10, SP/40, units/16, infantry SP/40, cavalry SP/40, artillery SP/40, ' +
  'long counters (extended-line parts included)/8, leaders/8, best tactical rating/9, army commander, HQ, routed units/4, ' +
  'in square, reverse slope, active SP/40, active units yet to move/16';
const AS = 17;

const UNIT_DOC =
  'present, on the map, waiting off the map (reinforcement, alternate, undeployed marker), eliminated, arm one-hot ' +
  '(infantry, cavalry, artillery), long counter, elite or guard, extended-line marker, extended line, SP/10, steps left/5, ' +
  'steps lost/5, morale/9, area slot (i+1)/32, routed, square, reverse slope, massed column declared, combat made this ' +
  'turn, MP spent/8, move over, attached, active, in command, named by the top frame';
const U = 27;

const ST = layout([
  {
    name: 'turn',
    size: 3 + PHASES.length + WEATHERS.length + 1 + TIMES.length,
    doc: `turn/turns, progress (turn−1)/(turns−1), turns/8, phase one-hot (${PHASES.join(', ')}), weather one-hot (${WEATHERS.join(', ')}), weather set, time of day one-hot (${TIMES.join(', ')})`,
  },
  {
    name: 'decision',
    size: 7,
    doc: 'I decide, the opponent decides, a chance node, terminal, VP difference (mine − theirs)/decisive threshold in [-1, 1], the scripted evaluation for me in [-1, 1], stack depth/10',
  },
  {
    name: 'frame',
    size: FRAME_KINDS.length + 1,
    doc: `one-hot kind of the frame on top of the procedure stack: ${FRAME_KINDS.join(', ')}, none (empty stack)`,
  },
  { name: 'stage', size: STAGES.length, doc: `one-hot stage of a staged top frame: ${STAGES.join(', ')}` },
  {
    name: 'segment',
    size: SEGMENTS.length + 1,
    doc: `one-hot segment of the Action Phase in progress (${SEGMENTS.join(', ')}), a Grand Charge phase`,
  },
  { name: 'frame numbers', size: FN, doc: FRAME_NUMBERS_DOC },
  { name: 'mine: side', size: SG, doc: `my side: ${SIDE_DOC}` },
  { name: 'theirs: side', size: SG, doc: "the opponent's side, as above" },
  { name: 'areas', size: AC * MAX_AREAS, doc: `${MAX_AREAS} area slots (map order) × ${AC}: ${AREA_DOC}` },
  {
    name: 'mine: areas',
    size: AS * MAX_AREAS,
    doc: `${MAX_AREAS} area slots × ${AS}, my side there: ${AREA_SIDE_DOC}`,
  },
  { name: 'theirs: areas', size: AS * MAX_AREAS, doc: `${MAX_AREAS} area slots × ${AS}, the opponent's, as above` },
  {
    name: 'mine: units',
    size: U * MAX_UNITS,
    doc: `${MAX_UNITS} slots (scenario order) × ${U}, my units: ${UNIT_DOC}`,
  },
  { name: 'theirs: units', size: U * MAX_UNITS, doc: `${MAX_UNITS} slots × ${U}, the opponent's, as above` },
]);

const NUMBERS_DOC =
  'enter by road, by trail, stance on, go first myself, counter-battery, pursuit (sign+1)/2, Grand Charge continues, ' +
  `advance no further, extended-line areas/2, conformation one-hot (${CONFS.join(', ')}), conformation index/4, ` +
  `chance: die face/6, hits/10, pass, I win the roll, weather one-hot (${WEATHERS.join(', ')})`;
const NUM = 9 + CONFS.length + 1 + 4 + WEATHERS.length;
const AREA_SUMMARY_DOC =
  'of the first area: my SP/40, their SP/40, my objective VP/10, held by me, held by them, enemy SP in and next to it/50, ' +
  "range to the nearest objective/8, range to the nearest enemy unit/8, range from the top frame's source area/8";
const ASUM = 9;
const UNIT_ACTION_DOC =
  'present, mine, arm one-hot (infantry, cavalry, artillery), long counter, elite or guard, SP/10, steps left/5, ' +
  'morale/9, unit slot (i+1)/48, area slot (i+1)/32, routed, attached, extended-line marker, moved this turn, combat made';
const UA = 17;
const LEADER_DOC =
  'present, mine, tactical (attacking)/9, tactical (defending)/9, initiative/6, radius/9, leader slot (i+1)/32, moved, ' +
  'army commander, formation or force leader, artillery leader, area slot (i+1)/32, on the map';
const LA = 13;
const GROUP_DOC =
  'formation, reinforcement group, alternate deployment, slot (i+1)/cap, units/24, SP/80, activated or delayed, ' +
  "due turn/turns, its leader's initiative/6, range from its units to the nearest enemy unit/8";
const GA = 10;

const AT = layout([
  { name: 'kind', size: ACTION_KINDS.length, doc: `one-hot action kind: ${ACTION_KINDS.join(', ')}` },
  {
    name: 'preference',
    size: 3,
    doc: 'scripted preference relative to the best (≤ 0, scaled to [-1, 0]), is a best, rank/(legal count − 1)',
  },
  { name: 'numbers', size: NUM, doc: NUMBERS_DOC },
  {
    name: 'area',
    size: MAX_AREAS,
    doc: 'one-hot slot of the first area it names: destination, target, placement, moving stack, charge target, first extension',
  },
  {
    name: 'area 2',
    size: MAX_AREAS,
    doc: "one-hot slot of the second area: a charge's first area, a bombardment's firing unit area, a second extension",
  },
  { name: 'area summary', size: ASUM, doc: AREA_SUMMARY_DOC },
  {
    name: 'unit',
    size: UA,
    doc: `the unit it names (a deployment: its first unit; zero when none): ${UNIT_ACTION_DOC}`,
  },
  {
    name: 'unit 2',
    size: UA,
    doc: "the second unit (the long counter an artillery unit attaches to; a deployment's parent), as above",
  },
  { name: 'leader', size: LA, doc: `the leader it names (also a replacement candidate): ${LEADER_DOC}` },
  {
    name: 'group',
    size: GA,
    doc: `the formation, reinforcement group or deployment it names: ${GROUP_DOC}`,
  },
]);

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

const clamp = (x: number, lo = -1, hi = 2): number => Math.max(lo, Math.min(hi, x));
const frac = (x: number, d: number): number => clamp(x / d);

const areaSlots = new WeakMap<AreaMap, Map<AreaId, number>>();
function areaSlot(map: AreaMap): Map<AreaId, number> {
  let m = areaSlots.get(map);
  if (!m) {
    m = new Map(map.json.areas.map((a, i) => [a.id, i]));
    areaSlots.set(map, m);
  }
  return m;
}

function terrainClass(ts: readonly string[]): number {
  for (const t of ts) {
    if (t === 'town' || t === 'city') return 2;
    if (t === 'village') return 1;
    if (t === 'woods' || t === 'forest') return 3;
    if (t === 'swamp') return 4;
  }
  return ts.every((t) => t === 'clear') ? 0 : 5;
}

/** Everything one encoding call needs, computed once per state. */
interface Ctx {
  s: EState;
  p: Side;
  o: Side;
  f: Frame | undefined;
  phase: PhaseFrame | undefined;
  inCmd: ReadonlySet<string>;
  slotOfArea: Map<AreaId, number>;
  slotOfUnit: Map<string, number>;
  slotOfLeader: Map<string, number>;
  focusUnits: ReadonlySet<string>;
  src: AreaId | null;
  dst: AreaId | null;
  options: readonly AreaId[];
}

function phaseFrame(s: EState): PhaseFrame | undefined {
  for (let i = s.stack.length - 1; i >= 0; i--) if (s.stack[i]!.t === 'phase') return s.stack[i] as PhaseFrame;
  return undefined;
}

/** The areas and units the top frame is about. */
function focus(f: Frame | undefined): {
  units: string[];
  src: AreaId | null;
  dst: AreaId | null;
  options: readonly AreaId[];
} {
  const none = { units: [], src: null, dst: null, options: [] };
  if (!f) return none;
  switch (f.t) {
    case 'face':
    case 'routRally':
    case 'recoverRoll':
    case 'routCheck':
      return { ...none, units: [f.u], options: f.t === 'routCheck' ? f.attackers : [] };
    case 'reinfPlace':
      return { ...none, options: f.areas };
    case 'courier':
      return { ...none, src: f.area };
    case 'fire':
    case 'bomb':
      return { units: [...f.units], src: f.from, dst: f.to, options: [] };
    case 'move':
      return { units: [...f.units], src: f.at, dst: null, options: [] };
    case 'routMove':
      return { units: [f.u], src: f.path[f.path.length - 1] ?? null, dst: null, options: f.attackers };
    case 'displace':
      return { ...none, options: f.options };
    case 'retreatTo':
      return { units: [...f.units], src: f.from, dst: null, options: f.options };
    case 'loss':
      return { units: f.only ? [...f.only] : [], src: f.area, dst: null, options: [] };
    case 'assault':
      return { units: [...f.units], src: f.firedAt, dst: f.target, options: [] };
    case 'charge':
      return { units: [...f.units], src: f.origin, dst: f.target, options: f.via === null ? [] : [f.via] };
    case 'gc':
      return { units: [...f.units], src: f.first, dst: f.target, options: [] };
    default:
      return none;
  }
}

function context(s: EState, player: number): Ctx {
  const p = player as Side;
  const f = top(s);
  const phase = phaseFrame(s);
  const slotOfUnit = new Map<string, number>();
  const n: [number, number] = [0, 0];
  for (const u of s.units) slotOfUnit.set(u.id, n[u.side]++);
  const slotOfLeader = new Map<string, number>();
  const m: [number, number] = [0, 0];
  for (const l of s.leaders) slotOfLeader.set(l.id, m[l.side]++);
  const fo = focus(f);
  return {
    s,
    p,
    o: p === 0 ? 1 : 0,
    f,
    phase,
    inCmd: new Set(phase?.inCmd ?? []),
    slotOfArea: areaSlot(s.ctx.map),
    slotOfUnit,
    slotOfLeader,
    focusUnits: new Set(fo.units),
    src: fo.src,
    dst: fo.dst,
    options: fo.options,
  };
}

function refuse(what: string, n: number, cap: number, sc: string): never {
  throw new Error(`encoding ${ID} has ${cap} ${what}; scenario ${sc} has ${n}`);
}

function checkState(s: EState): void {
  const sc = s.ctx.scenario.id;
  const areas = s.ctx.map.json.areas.length;
  if (areas > MAX_AREAS) refuse('area slots (MAX_AREAS)', areas, MAX_AREAS, `${sc} (map ${s.ctx.map.id})`);
  for (const side of [0, 1] as const) {
    const name = `${sc} (side ${side === 0 ? 'A' : 'B'})`;
    const units = s.units.filter((u) => u.side === side).length;
    if (units > MAX_UNITS) refuse('unit slots per side (MAX_UNITS)', units, MAX_UNITS, name);
    const leaders = s.leaders.filter((l) => l.side === side).length;
    if (leaders > MAX_LEADERS) refuse('leader slots per side (MAX_LEADERS)', leaders, MAX_LEADERS, name);
  }
  if (s.formations.length > MAX_FORMATIONS)
    refuse('formation slots (MAX_FORMATIONS)', s.formations.length, MAX_FORMATIONS, sc);
  if (s.reinf.length > MAX_GROUPS) refuse('reinforcement group slots (MAX_GROUPS)', s.reinf.length, MAX_GROUPS, sc);
  const dep = s.ctx.scenario.sides[0].deployments.length + s.ctx.scenario.sides[1].deployments.length;
  if (dep > MAX_DEPLOYMENTS) refuse('deployment slots (MAX_DEPLOYMENTS)', dep, MAX_DEPLOYMENTS, sc);
}

const startSps = new WeakMap<object, [number, number]>();
function startSp(s: EState): [number, number] {
  let v = startSps.get(s.ctx.scenario);
  if (!v) {
    v = [0, 0];
    for (const u of s.units) if (u.ext === null) v[u.side] += u.steps[u.startStep]?.sp ?? 0;
    startSps.set(s.ctx.scenario, v);
  }
  return v;
}

function rangeToNearest(c: Ctx, from: AreaId, targets: readonly AreaId[]): number {
  let d = Infinity;
  for (const t of targets) d = Math.min(d, c.s.ctx.map.range(from, t));
  return d === Infinity ? 1 : frac(d, 8);
}

function enemyAreas(c: Ctx, p: Side): AreaId[] {
  const out = new Set<AreaId>();
  for (const u of c.s.units) if (u.side !== p && alive(u)) out.add(u.area!);
  return [...out];
}

// ---------------------------------------------------------------------------------------------
// state
// ---------------------------------------------------------------------------------------------

function frameNumbers(c: Ctx, out: Float32Array, i: number): void {
  const f = c.f;
  if (!f) return;
  switch (f.t) {
    case 'loss':
      out[i] = frac(f.hits, 10);
      out[i + 1] = f.first ? 1 : 0;
      out[i + 2] = f.cb ? 1 : 0;
      break;
    case 'bomb':
      out[i + 2] = f.cb ? 1 : 0;
      out[i + 9] = f.hits === null ? 0 : frac(f.hits, 10);
      break;
    case 'assault':
      out[i + 3] = frac(f.hitsA, 10);
      out[i + 4] = frac(f.hitsD, 10);
      out[i + 5] = f.mc ? 1 : 0;
      out[i + 6] = f.combined ? 1 : 0;
      out[i + 7] = f.vacated ? 1 : 0;
      break;
    case 'charge':
      out[i + 8] = f.die === null ? 0 : f.die / 6;
      out[i + 9] = f.hits === null ? 0 : frac(f.hits, 10);
      out[i + 10] = frac(f.defSp0, 25);
      out[i + 11] = f.pursuit ? 1 : 0;
      out[i + 12] = f.grand ? 1 : 0;
      out[i + 13] = f.failedSquare ? 1 : 0;
      break;
    case 'select':
      out[i + 14] = frac(f.left, 5);
      break;
    case 'routMove':
      out[i + 15] = frac(f.left, 8);
      break;
    case 'roll':
      out[i + 16] = frac(
        f.dice.reduce((t, d) => t + d.n, 0),
        10,
      );
      break;
    case 'leaderCheck':
    case 'routCheck':
      out[i + 17] = clamp(f.mod / 4, -1, 1);
      break;
    case 'rallyRoll':
    case 'routRally':
      out[i + 18] = clamp(f.target / 6, 0, 1);
      break;
    default:
      break;
  }
  out[i + 19] = 'p' in f && f.p === c.p ? 1 : 0;
}

function sideFeatures(c: Ctx, side: Side, vp: readonly [number, number], out: Float32Array, i: number): void {
  const s = c.s;
  const sc = s.ctx.scenario;
  const dec = sc.victory.thresholds.decisive;
  out[i] = vp[side] / (vp[side] + Math.max(10, 2 * dec));
  out[i + 1] = frac(sc.victory.objectives.filter((o) => s.control[String(o.area)] === side).length, 4);
  let sp = 0;
  let lost = 0;
  let on = 0;
  let n = 0;
  for (const u of s.units) {
    if (u.side !== side) continue;
    sp += spOf(u);
    lost += u.lost;
    if (u.ext !== null) continue;
    n++;
    if (alive(u)) on++;
  }
  out[i + 2] = frac(sp, Math.max(1, startSp(s)[side]));
  out[i + 3] = frac(lost, 20);
  out[i + 4] = n ? on / n : 0;
  out[i + 5] = s.firstPlayer === side ? 1 : 0;
  out[i + 6] = s.acting === side ? 1 : 0;
  out[i + 7] = s.prev?.p === side && s.prev.failed ? 1 : 0;
  out[i + 8] = s.prev?.p === side ? frac(s.sameSideFails, 3) : 0;
  const fs = s.formations.filter((x) => x.side === side);
  out[i + 9] = fs.length ? fs.filter((x) => x.activated).length / fs.length : 0;
  const hq = s.hq[side];
  out[i + 10] = hq && !hq.lost && hq.area !== null ? 1 : 0;
  out[i + 11] = hq?.lost ? 1 : 0;
  let pending = 0;
  let due = 0;
  for (const r of sc.reinforcements) {
    if (r.side !== side) continue;
    const st = s.reinf.find((x) => x.id === r.id);
    if (!st || st.arrived || st.lapsed) continue;
    pending++;
    if (st.due <= s.turn) due++;
  }
  out[i + 12] = frac(pending, 16);
  out[i + 13] = frac(due, 8);
  out[i + 14] = frac(s.assigned[side], 4);
  out[i + 15] = frac(s.fallen.filter((id) => s.leaders.find((l) => l.id === id)?.side === side).length, 5);
  const ac = s.leaders.find((l) => l.id === sc.sides[side].armyCommander);
  out[i + 16] = ac?.status === 'on' ? 1 : 0;
  out[i + 17] = s.hqMoved[side] ? 1 : 0;
  out[i + 18] = c.phase?.p === side ? 1 : 0;
  out[i + 19] = c.f && 'p' in c.f && c.f.p === side ? 1 : 0;
}

function areaCommon(c: Ctx, out: Float32Array, at: number): void {
  const s = c.s;
  const objectives = new Set(s.ctx.scenario.victory.objectives.map((o) => o.area));
  const options = new Set(c.options);
  s.ctx.map.json.areas.forEach((a, k) => {
    const i = at + k * AC;
    out[i] = 1;
    out[i + 1 + terrainClass(a.terrain)] = 1;
    out[i + 7] = a.special.includes('defensive-works') ? 1 : 0;
    out[i + 8] = clamp(a.elev / 5);
    const cls = STACK_CLASSES.indexOf(a.stack.class);
    if (cls >= 0) out[i + 9 + cls] = 1;
    out[i + 13] = frac(a.stack.max, 25);
    out[i + 14] = frac(a.stack.maxLC, 4);
    out[i + 15] = a.allAround ? 1 : 0;
    out[i + 16] = a.edge.length ? 1 : 0;
    out[i + 17] = objectives.has(a.id) ? 1 : 0;
    out[i + 18] = c.src === a.id ? 1 : 0;
    out[i + 19] = c.dst === a.id ? 1 : 0;
    out[i + 20] = options.has(a.id) ? 1 : 0;
  });
}

function areaSide(c: Ctx, side: Side, out: Float32Array, at: number): void {
  const s = c.s;
  const acc = new Float32Array(MAX_AREAS * AS);
  const best = new Array<number>(MAX_AREAS).fill(0);
  for (const o of s.ctx.scenario.victory.objectives) {
    const k = c.slotOfArea.get(o.area);
    if (k === undefined) continue;
    acc[k * AS] = s.control[String(o.area)] === side ? 1 : 0;
    acc[k * AS + 1] = o.vp[side];
  }
  for (const u of s.units) {
    if (u.side !== side || !alive(u)) continue;
    const k = c.slotOfArea.get(u.area!)!;
    const i = k * AS;
    const sp = spOf(u);
    acc[i + 2]! += sp;
    acc[i + 3]! += 1;
    acc[i + (u.kind === 'infantry' ? 4 : u.kind === 'cavalry' ? 5 : 6)]! += sp;
    if (isLC(u)) acc[i + 7]! += 1;
    if (u.routed) acc[i + 12]! += 1;
    if (u.square) acc[i + 13] = 1;
    if (u.rs) acc[i + 14] = 1;
    if (isActive(s, u)) {
      acc[i + 15]! += sp;
      if (!u.moveDone) acc[i + 16]! += 1;
    }
  }
  const ac = s.ctx.scenario.sides[side].armyCommander;
  for (const l of s.leaders) {
    if (l.side !== side || l.status !== 'on' || l.area === null) continue;
    const k = c.slotOfArea.get(l.area)!;
    acc[k * AS + 8]! += 1;
    const d = leaderDef(s, l.id);
    best[k] = Math.max(best[k]!, tactical(d, true), tactical(d, false));
    if (l.id === ac) acc[k * AS + 10] = 1;
  }
  const hq = s.hq[side];
  if (hq && !hq.lost && hq.area !== null) acc[c.slotOfArea.get(hq.area)! * AS + 11] = 1;
  for (let k = 0; k < s.ctx.map.json.areas.length; k++) {
    const i = k * AS;
    const o = at + i;
    out[o] = acc[i]!;
    out[o + 1] = frac(acc[i + 1]!, 10);
    out[o + 2] = frac(acc[i + 2]!, 40);
    out[o + 3] = frac(acc[i + 3]!, 16);
    out[o + 4] = frac(acc[i + 4]!, 40);
    out[o + 5] = frac(acc[i + 5]!, 40);
    out[o + 6] = frac(acc[i + 6]!, 40);
    out[o + 7] = frac(acc[i + 7]!, 8);
    out[o + 8] = frac(acc[i + 8]!, 8);
    out[o + 9] = frac(best[k]!, 9);
    out[o + 10] = acc[i + 10]!;
    out[o + 11] = acc[i + 11]!;
    out[o + 12] = frac(acc[i + 12]!, 4);
    out[o + 13] = acc[i + 13]!;
    out[o + 14] = acc[i + 14]!;
    out[o + 15] = frac(acc[i + 15]!, 40);
    out[o + 16] = frac(acc[i + 16]!, 16);
  }
}

function unitSlot(c: Ctx, u: UnitState, out: Float32Array, i: number): void {
  const s = c.s;
  const on = alive(u);
  const def = unitDef(s, u.id);
  out[i] = 1;
  out[i + 1] = on ? 1 : 0;
  out[i + 2] = !on && !u.eliminated ? 1 : 0;
  out[i + 3] = u.eliminated ? 1 : 0;
  out[i + (u.kind === 'infantry' ? 4 : u.kind === 'cavalry' ? 5 : 6)] = 1;
  out[i + 7] = isLC(u) ? 1 : 0;
  out[i + 8] = def.elite || def.guard ? 1 : 0;
  out[i + 9] = u.ext !== null ? 1 : 0;
  out[i + 10] = u.ext === null && u.xsp !== null ? 1 : 0;
  out[i + 11] = frac(spOf(u), 10);
  out[i + 12] = frac(stepsLeft(u), 5);
  out[i + 13] = frac(u.lost, 5);
  out[i + 14] = u.eliminated ? 0 : frac(moraleOf(u), 9);
  out[i + 15] = on ? (c.slotOfArea.get(u.area!)! + 1) / MAX_AREAS : 0;
  out[i + 16] = u.routed ? 1 : 0;
  out[i + 17] = u.square ? 1 : 0;
  out[i + 18] = u.rs ? 1 : 0;
  out[i + 19] = u.mc !== null ? 1 : 0;
  out[i + 20] = u.acted !== null ? 1 : 0;
  out[i + 21] = frac(u.mp, 8);
  out[i + 22] = u.moveDone ? 1 : 0;
  out[i + 23] = u.attachedTo !== null ? 1 : 0;
  out[i + 24] = on && isActive(s, u) ? 1 : 0;
  out[i + 25] = c.inCmd.has(u.id) ? 1 : 0;
  out[i + 26] = c.focusUnits.has(u.id) ? 1 : 0;
}

function encodeState(s: EState, player: number, out: Float32Array, at: number): void {
  checkState(s);
  out.fill(0, at, at + ST.size);
  const c = context(s, player);
  const sc = s.ctx.scenario;
  const vp = victoryPoints(s);
  let i = at;
  // turn
  const turns = sc.turns.length;
  out[i] = frac(s.turn, turns);
  out[i + 1] = turns > 1 ? clamp((s.turn - 1) / (turns - 1), 0, 1) : 1;
  out[i + 2] = frac(turns, 8);
  i += 3;
  out[i + PHASES.indexOf(s.phase)] = 1;
  i += PHASES.length;
  out[i + WEATHERS.indexOf(s.weather)] = 1;
  i += WEATHERS.length;
  out[i] = s.weatherSet ? 1 : 0;
  i += 1;
  const time = sc.turns[Math.min(turns, Math.max(1, s.turn)) - 1]?.time ?? 'day';
  out[i + TIMES.indexOf(time)] = 1;
  i += TIMES.length;
  // decision
  const tm = toMoveOf(s);
  out[i] = tm.kind === 'player' && tm.player === c.p ? 1 : 0;
  out[i + 1] = tm.kind === 'player' && tm.player !== c.p ? 1 : 0;
  out[i + 2] = tm.kind === 'chance' ? 1 : 0;
  out[i + 3] = tm.kind === 'terminal' ? 1 : 0;
  out[i + 4] = clamp((vp[c.p] - vp[c.o]) / sc.victory.thresholds.decisive, -1, 1);
  out[i + 5] = clamp(evaluate(s, c.p), -1, 1);
  out[i + 6] = frac(s.stack.length, 10);
  i += 7;
  // frame
  out[i + (c.f ? FRAME_KINDS.indexOf(c.f.t) : FRAME_KINDS.length)] = 1;
  i += FRAME_KINDS.length + 1;
  if (c.f && 'stage' in c.f) {
    const k = STAGES.indexOf(`${c.f.t}.${c.f.stage}`);
    if (k >= 0) out[i + k] = 1;
  }
  i += STAGES.length;
  if (c.phase) {
    out[i + SEGMENTS.indexOf(c.phase.seg)] = 1;
    out[i + SEGMENTS.length] = c.phase.grand ? 1 : 0;
  }
  i += SEGMENTS.length + 1;
  frameNumbers(c, out, i);
  i += FN;
  // sides
  sideFeatures(c, c.p, vp, out, i);
  i += SG;
  sideFeatures(c, c.o, vp, out, i);
  i += SG;
  // areas
  areaCommon(c, out, i);
  i += AC * MAX_AREAS;
  areaSide(c, c.p, out, i);
  i += AS * MAX_AREAS;
  areaSide(c, c.o, out, i);
  i += AS * MAX_AREAS;
  // units
  for (const side of [c.p, c.o]) {
    for (const u of s.units) if (u.side === side) unitSlot(c, u, out, i + c.slotOfUnit.get(u.id)! * U);
    i += U * MAX_UNITS;
  }
}

// ---------------------------------------------------------------------------------------------
// actions
// ---------------------------------------------------------------------------------------------

/** The areas an action names: its first (destination, target) and second (origin, second extension). */
function areasOf(c: Ctx, a: Action): [AreaId | null, AreaId | null] {
  switch (a.k) {
    case 'placeAt':
    case 'mvStack':
    case 'to':
    case 'goTo':
    case 'square':
    case 'fireAt':
      return [a.area, null];
    case 'assault':
    case 'gcTarget':
      return [a.target, null];
    case 'massedColumn':
      return [a.target, c.s.units.find((u) => u.id === a.u)?.area ?? null];
    case 'fire':
      return [a.to, c.s.units.find((u) => u.id === a.u)?.area ?? null];
    case 'charge':
      return [a.target, a.area];
    case 'gcFirst':
      return [a.area, null];
    case 'extend':
      return [a.to[0] ?? null, a.to[1] ?? null];
    case 'retract':
      return [a.into, null];
    default:
      return [null, null];
  }
}

function unitsOf(c: Ctx, a: Action): [string | null, string | null] {
  switch (a.k) {
    case 'face':
    case 'fire':
    case 'mvUnit':
    case 'mvWithLeader':
    case 'hit':
    case 'join':
    case 'detach':
    case 'reserve':
    case 'reverseSlope':
    case 'massedColumn':
    case 'extend':
    case 'retract':
      return [a.u, null];
    case 'advance':
      return [a.u === '*' ? null : a.u, null];
    case 'attach':
      return [a.u, a.lc];
    case 'deploy':
    case 'reabsorb': {
      const d = deployments(c.s).find((x) => x.d.id === a.id);
      return d ? [d.d.units[0] ?? null, d.d.parent] : [null, null];
    }
    default:
      return [null, null];
  }
}

function leaderOf(c: Ctx, a: Action): string | null {
  switch (a.k) {
    case 'grandCharge':
      return a.leader;
    case 'mvLeader':
    case 'mvWithLeader':
    case 'escort':
    case 'artLeader':
      return a.l;
    case 'select':
      return c.slotOfLeader.has(a.f) ? a.f : null;
    default:
      return null;
  }
}

function deployments(s: EState) {
  return s.ctx.scenario.sides.flatMap((side, p) => side.deployments.map((d) => ({ d, p: p as Side })));
}

function actionUnit(c: Ctx, id: string, out: Float32Array, i: number): void {
  const s = c.s;
  const u = s.units.find((x) => x.id === id);
  if (!u) return;
  const def = unitDef(s, u.id);
  const on = alive(u);
  out[i] = 1;
  out[i + 1] = u.side === c.p ? 1 : 0;
  out[i + (u.kind === 'infantry' ? 2 : u.kind === 'cavalry' ? 3 : 4)] = 1;
  out[i + 5] = isLC(u) ? 1 : 0;
  out[i + 6] = def.elite || def.guard ? 1 : 0;
  out[i + 7] = frac(spOf(u), 10);
  out[i + 8] = frac(stepsLeft(u), 5);
  out[i + 9] = u.eliminated ? 0 : frac(moraleOf(u), 9);
  out[i + 10] = (c.slotOfUnit.get(u.id)! + 1) / MAX_UNITS;
  out[i + 11] = on ? (c.slotOfArea.get(u.area!)! + 1) / MAX_AREAS : 0;
  out[i + 12] = u.routed ? 1 : 0;
  out[i + 13] = u.attachedTo !== null ? 1 : 0;
  out[i + 14] = u.ext !== null ? 1 : 0;
  out[i + 15] = u.mp > 0 || u.moveDone ? 1 : 0;
  out[i + 16] = u.acted !== null ? 1 : 0;
}

function actionLeader(c: Ctx, id: string, out: Float32Array, i: number): void {
  const s = c.s;
  const l: LeaderState | undefined = s.leaders.find((x) => x.id === id);
  if (!l) return;
  const d = leaderDef(s, id);
  out[i] = 1;
  out[i + 1] = l.side === c.p ? 1 : 0;
  out[i + 2] = frac(tactical(d, true), 9);
  out[i + 3] = frac(tactical(d, false), 9);
  out[i + 4] = frac(d.initiative, 6);
  out[i + 5] = frac(d.radius, 9);
  out[i + 6] = (c.slotOfLeader.get(id)! + 1) / MAX_LEADERS;
  out[i + 7] = l.moved ? 1 : 0;
  out[i + 8] = d.role === 'armyCommander' ? 1 : 0;
  out[i + 9] = d.role === 'formation' || d.role === 'force' || d.role === 'intermediate' ? 1 : 0;
  out[i + 10] = d.role === 'artillery' ? 1 : 0;
  out[i + 11] = l.area !== null ? (c.slotOfArea.get(l.area)! + 1) / MAX_AREAS : 0;
  out[i + 12] = l.status === 'on' ? 1 : 0;
}

function groupUnits(c: Ctx, ids: readonly string[], out: Float32Array, i: number, enemy: readonly AreaId[]): void {
  let sp = 0;
  let d = Infinity;
  for (const id of ids) {
    const u = c.s.units.find((x) => x.id === id);
    if (!u) continue;
    sp += u.eliminated ? 0 : (u.steps[u.step]?.sp ?? 0);
    if (alive(u)) for (const e of enemy) d = Math.min(d, c.s.ctx.map.range(u.area!, e));
  }
  out[i + 4] = frac(ids.length, 24);
  out[i + 5] = frac(sp, 80);
  out[i + 9] = d === Infinity ? 1 : frac(d, 8);
}

function actionGroup(c: Ctx, a: Action, out: Float32Array, i: number, enemy: () => AreaId[]): void {
  const s = c.s;
  let fid: string | null = null;
  if (a.k === 'select' && !c.slotOfLeader.has(a.f)) fid = a.f;
  else if (a.k === 'reserve' || a.k === 'artLeader') fid = a.to;
  if (fid !== null) {
    const k = s.formations.findIndex((x) => x.id === fid);
    if (k < 0) return;
    const fs = s.formations[k]!;
    out[i] = 1;
    out[i + 3] = (k + 1) / MAX_FORMATIONS;
    const units = s.units.filter(
      (u) => u.side === fs.side && !u.eliminated && activationFormation(s, u.side, u.formation) === fid,
    );
    groupUnits(
      c,
      units.map((u) => u.id),
      out,
      i,
      enemy(),
    );
    out[i + 6] = fs.activated ? 1 : 0;
    const fj = formationsOf(s.ctx.scenario.sides[fs.side]).find((x) => x.f.id === fid)?.f;
    if (fj?.leader && c.slotOfLeader.has(fj.leader)) out[i + 8] = frac(leaderDef(s, fj.leader).initiative, 6);
    return;
  }
  if (a.k === 'arrive' || a.k === 'delay') {
    const k = s.reinf.findIndex((x) => x.id === a.g);
    const r = s.ctx.scenario.reinforcements.find((x) => x.id === a.g);
    if (k < 0 || !r) return;
    out[i + 1] = 1;
    out[i + 3] = (k + 1) / MAX_GROUPS;
    groupUnits(c, r.units, out, i, []);
    out[i + 9] = rangeToNearest(c, r.area, enemy());
    out[i + 6] = s.reinf[k]!.delayed ? 1 : 0;
    out[i + 7] = frac(s.reinf[k]!.due, s.ctx.scenario.turns.length);
    return;
  }
  if (a.k === 'deploy' || a.k === 'reabsorb') {
    const all = deployments(s);
    const k = all.findIndex((x) => x.d.id === a.id);
    if (k < 0) return;
    out[i + 2] = 1;
    out[i + 3] = (k + 1) / MAX_DEPLOYMENTS;
    groupUnits(c, all[k]!.d.units, out, i, enemy());
  }
}

function numbers(c: Ctx, a: Action, out: Float32Array, q: number): void {
  switch (a.k) {
    case 'to':
      if (a.mode === 'road') out[q] = 1;
      if (a.mode === 'trail') out[q + 1] = 1;
      break;
    case 'square':
    case 'reverseSlope':
      out[q + 2] = a.on ? 1 : 0;
      break;
    case 'first':
      out[q + 3] = a.self ? 1 : 0;
      break;
    case 'shoot':
      out[q + 4] = a.cb ? 1 : 0;
      break;
    case 'pursue':
      out[q + 5] = (a.sign + 1) / 2;
      break;
    case 'gcAfter':
      out[q + 6] = a.mode === 'continue' ? 1 : 0;
      break;
    case 'advance':
      out[q + 7] = a.u === '*' ? 1 : 0;
      break;
    case 'extend':
      out[q + 8] = a.to.length / 2;
      break;
    case 'face': {
      const k = CONFS.indexOf(a.conf as (typeof CONFS)[number]);
      out[q + 9 + (k >= 0 ? k : CONFS.length - 1)] = 1;
      const u = c.s.units.find((x) => x.id === a.u);
      if (u?.area != null) {
        const j = c.s.ctx.map.area(u.area).conformations.findIndex((x) => x.id === a.conf);
        out[q + 9 + CONFS.length] = frac(j + 1, 4);
      }
      break;
    }
    case 'c-die':
      out[q + 10 + CONFS.length] = a.face / 6;
      break;
    case 'c-hits':
      out[q + 11 + CONFS.length] = frac(a.n, 10);
      break;
    case 'c-pass':
      out[q + 12 + CONFS.length] = a.ok ? 1 : 0;
      break;
    case 'c-first':
      out[q + 13 + CONFS.length] = a.winner === c.p ? 1 : 0;
      break;
    case 'c-weather':
      out[q + 14 + CONFS.length + WEATHERS.indexOf(a.w)] = 1;
      break;
    default:
      break;
  }
}

function areaSummary(c: Ctx, area: AreaId, out: Float32Array, q: number, enemy: () => AreaId[]): void {
  const s = c.s;
  let mine = 0;
  let theirs = 0;
  for (const u of s.units)
    if (u.area === area && !u.eliminated) {
      if (u.side === c.p) mine += spOf(u);
      else theirs += spOf(u);
    }
  out[q] = frac(mine, 40);
  out[q + 1] = frac(theirs, 40);
  const obj = s.ctx.scenario.victory.objectives.find((o) => o.area === area);
  if (obj) out[q + 2] = frac(obj.vp[c.p], 10);
  const ctl = s.control[String(area)];
  out[q + 3] = ctl === c.p ? 1 : 0;
  out[q + 4] = ctl === c.o ? 1 : 0;
  let near = 0;
  for (const n of [area, ...s.ctx.map.neighbours(area)])
    for (const u of s.units) if (u.area === n && !u.eliminated && u.side !== c.p) near += spOf(u);
  out[q + 5] = frac(near, 50);
  out[q + 6] = rangeToNearest(
    c,
    area,
    s.ctx.scenario.victory.objectives.map((o) => o.area),
  );
  out[q + 7] = rangeToNearest(c, area, enemy());
  out[q + 8] = c.src !== null ? frac(s.ctx.map.range(c.src, area), 8) : 0;
}

function encodeActions(s: EState, player: number, actions: readonly Action[], out: Float32Array, at: number): void {
  const n = actions.length;
  out.fill(0, at, at + n * AT.size);
  if (!n) return;
  const c = context(s, player);
  let enemyCache: AreaId[] | null = null;
  const enemy = () => (enemyCache ??= enemyAreas(c, c.p));
  const sc = policyScores(s, actions);
  let best = -Infinity;
  let worst = Infinity;
  for (const x of sc) {
    if (x > best) best = x;
    if (x < worst) worst = x;
  }
  const spread = Math.max(1, best - worst);
  const order = sc.map((x, i) => ({ x, i })).sort((a, b) => b.x - a.x);
  const rank = new Array<number>(n);
  order.forEach((r, j) => (rank[r.i] = j));
  const [kind, pref, num, area1, area2, summary, unit1, unit2, leader, group] = AT.blocks.map((b) => b.offset) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  for (let j = 0; j < n; j++) {
    const a = actions[j]!;
    const o = at + j * AT.size;
    out[o + kind + ACTION_KINDS.indexOf(a.k)] = 1;
    out[o + pref] = clamp((sc[j]! - best) / spread, -1, 0);
    out[o + pref + 1] = sc[j]! >= best - 1e-9 ? 1 : 0;
    out[o + pref + 2] = rank[j]! / Math.max(1, n - 1);
    numbers(c, a, out, o + num);
    const [x, y] = areasOf(c, a);
    if (x !== null) {
      out[o + area1 + c.slotOfArea.get(x)!] = 1;
      areaSummary(c, x, out, o + summary, enemy);
    }
    if (y !== null) out[o + area2 + c.slotOfArea.get(y)!] = 1;
    const [u, v] = unitsOf(c, a);
    if (u !== null) actionUnit(c, u, out, o + unit1);
    if (v !== null) actionUnit(c, v, out, o + unit2);
    const l = leaderOf(c, a);
    if (l !== null) actionLeader(c, l, out, o + leader);
    actionGroup(c, a, out, o + group, enemy);
  }
}

/** The Eagles of the Empire observation encoding, version 1. */
export const eaglesEncoding: Encoding<EState, Action> = {
  id: ID,
  version: 1,
  stateSize: ST.size,
  actionSize: AT.size,
  stateLayout: ST.blocks,
  actionLayout: AT.blocks,
  check: checkState,
  encodeState: (s, player, out, at = 0) => encodeState(s, player, out, at),
  encodeActions: (s, player, actions, out, at = 0) => encodeActions(s, player, actions, out, at),
};

/** The state layout's block by name (tests, documentation). */
export function stateBlock(name: string): FeatureBlock {
  const b = ST.blocks.find((x) => x.name === name);
  if (!b) throw new Error(`encoding ${ID}: no state block "${name}"`);
  return b;
}
