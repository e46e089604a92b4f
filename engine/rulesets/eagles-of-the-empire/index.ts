/**
 * Eagles of the Empire as a `Game`: scenario validation (scenario + embedded area map), the flow of play (flow.ts and
 * the Action Phase / End Step modules), notation, a text rendering, hashing and the scripted heuristic's scores.
 *
 * Scenario files name their map (`"map": "hohenwald-1809"`); the loader (arena/catalog.ts, which does the I/O) embeds
 * the map file as `mapData`, so a validated scenario is self-contained and replays carry the map with them.
 */
import {
  type ChanceOutcome,
  type Game,
  type GameEvent,
  type ToMove,
  type Validated,
  IllegalActionError,
  isOffered,
} from '../../core/game.ts';
import { hashValue, type Hash64 } from '../../core/hash.ts';
import { AreaMap, type AreaMapJson, validateAreaMap } from '../../areas/map.ts';
import { type Scenario, formationsOf, validateScenario as validateAgainstMap } from './scenario.ts';
import {
  chanceOutcomes,
  initialState as initialFlow,
  legalActions,
  settle,
  step,
  toMoveOf,
  top,
  victoryPoints,
} from './rules.ts';
import type { Action, EState, Frame, Side, UnitState } from './types.ts';
import { leaderDef, moraleOf, spOf, stepsLeft, unitDef } from './world.ts';
import { evaluate, policyScores } from './heuristic.ts';
import { randomScenario } from './generate.ts';

export type { Action, EState };

/** A validated scenario with its map embedded. */
export type EScenario = Scenario & { readonly mapData: AreaMapJson };

const maps = new WeakMap<object, AreaMap>();
function mapOf(sc: EScenario): AreaMap {
  let m = maps.get(sc.mapData);
  if (!m) maps.set(sc.mapData, (m = new AreaMap(sc.mapData)));
  return m;
}

function validate(json: unknown): Validated<EScenario> {
  if (!json || typeof json !== 'object' || Array.isArray(json))
    return { ok: false, problems: [{ path: '$', message: 'a scenario must be a JSON object' }] };
  const j = json as Record<string, unknown>;
  if (j.mapData === undefined)
    return {
      ok: false,
      problems: [
        {
          path: '$.mapData',
          message: `the area map is missing: load the scenario through the catalog (it embeds data/maps/eagles-of-the-empire/${String(j.map)}.json) or embed it as "mapData"`,
        },
      ],
    };
  const mv = validateAreaMap(j.mapData);
  if (!mv.ok)
    return {
      ok: false,
      problems: mv.problems.map((p) => ({ path: `$.mapData${p.path.slice(1)}`, message: p.message })),
    };
  const map = new AreaMap(mv.value);
  const { mapData: _, ...rest } = j;
  const sv = validateAgainstMap(rest, map);
  if (!sv.ok) return sv;
  const value: EScenario = { ...sv.value, mapData: mv.value };
  maps.set(value.mapData, map);
  return { ok: true, value };
}

function initialState(sc: EScenario): EState {
  return settle(initialFlow(sc, mapOf(sc)), undefined);
}

// ---------------------------------------------------------------------------------------------
// notation
// ---------------------------------------------------------------------------------------------

export function actionKey(a: Action): string {
  switch (a.k) {
    case 'arrive':
      return `arrive ${a.g}`;
    case 'delay':
      return `delay ${a.g}`;
    case 'placeAt':
      return `place ${a.area}`;
    case 'face':
      return `face ${a.u} ${a.conf}`;
    case 'first':
      return `go-first ${a.self ? 'self' : 'opponent'}`;
    case 'roll':
      return 'attempt';
    case 'pass':
      return 'pass';
    case 'grandCharge':
      return `grand-charge ${a.leader}`;
    case 'select':
      return `select ${a.f}`;
    case 'next':
      return 'next';
    case 'fire':
      return `fire ${a.u} ${a.to}`;
    case 'shoot':
      return a.cb ? 'shoot counter-battery' : 'shoot';
    case 'mvUnit':
      return `move ${a.u}`;
    case 'mvStack':
      return `move-stack ${a.area}`;
    case 'mvLeader':
      return `move-leader ${a.l}`;
    case 'mvWithLeader':
      return `move ${a.u} with ${a.l}`;
    case 'mvHq':
      return 'move-hq';
    case 'to':
      return a.mode === 'normal' ? `to ${a.area}` : `to ${a.area} ${a.mode}`;
    case 'stop':
      return 'stop';
    case 'routOff':
      return 'rout-off-map';
    case 'hit':
      return `hit ${a.u}`;
    case 'goTo':
      return `go ${a.area}`;
    case 'square':
      return `square ${a.area} ${a.on ? 'on' : 'off'}`;
    case 'assault':
      return `assault ${a.target}`;
    case 'join':
      return `join ${a.u}`;
    case 'resolve':
      return 'resolve';
    case 'fireAt':
      return `fire-at ${a.area}`;
    case 'stand':
      return 'stand';
    case 'retreat':
      return 'retreat';
    case 'advance':
      return `advance ${a.u}`;
    case 'charge':
      return `charge ${a.area}>${a.target}`;
    case 'escort':
      return `escort ${a.l}`;
    case 'pursue':
      return `pursue ${a.sign > 0 ? '+1' : a.sign}`;
    case 'attach':
      return `attach ${a.u} ${a.lc}`;
    case 'detach':
      return `detach ${a.u}`;
    case 'reserve':
      return `reserve ${a.u} ${a.to}`;
    case 'artLeader':
      return `art-leader ${a.l} ${a.to}`;
    case 'deploy':
      return `deploy ${a.id}`;
    case 'reabsorb':
      return `reabsorb ${a.id}`;
    case 'gcFirst':
      return `gc-via ${a.area}`;
    case 'gcTarget':
      return `gc-target ${a.target}`;
    case 'gcAfter':
      return `gc-${a.mode}`;
    case 'reverseSlope':
      return `reverse-slope ${a.u} ${a.on ? 'on' : 'off'}`;
    case 'massedColumn':
      return `massed-column ${a.u} ${a.target}`;
    case 'extend':
      return `extend ${a.u} ${a.to.join('+')}`;
    case 'retract':
      return `retract ${a.u} ${a.into}`;
    case 'c-weather':
      return `roll:weather ${a.w}`;
    case 'c-first':
      return `roll:first ${a.winner}`;
    case 'c-die':
      return `roll:die ${a.face}`;
    case 'c-hits':
      return `roll:hits ${a.n}`;
    case 'c-pass':
      return `roll:${a.ok ? 'pass' : 'fail'}`;
  }
}

function applyInternal(s: EState, a: Action, events?: GameEvent[]): EState {
  // Every chance step advances the chance counter exactly once, whatever frame rolls (weather, activation, courier,
  // bombardment, leader and rout checks, charge and assault dice, …), so `chanceKey` names each chance event of a game
  // once and keyed dice never give two events the same draw. No frame increments it itself.
  if (toMoveOf(s).kind === 'chance') s = { ...s, nChance: s.nChance + 1 };
  return settle(step(s, a, events), events);
}

// ---------------------------------------------------------------------------------------------
// words
// ---------------------------------------------------------------------------------------------

const sideName = (s: EState, p: Side) => s.ctx.scenario.sides[p].name;
function areaName(s: EState, id: number | null): string {
  if (id === null) return '(off map)';
  const a = s.ctx.map.areas.get(id);
  return a ? `${id} ${a.name}` : String(id);
}
function unitName(s: EState, id: string): string {
  try {
    return unitDef(s, id).name;
  } catch {
    return id;
  }
}
function leaderName(s: EState, id: string): string {
  try {
    return leaderDef(s, id).name;
  } catch {
    return id;
  }
}
function formationName(s: EState, id: string): string {
  for (const side of s.ctx.scenario.sides) for (const { f } of formationsOf(side)) if (f.id === id) return f.name;
  return id;
}

function describeDecision(s: EState): string {
  const f: Frame | undefined = top(s);
  if (!f) return '';
  switch (f.t) {
    case 'reinf': {
      const can = new Set(legalActions(s).map((a) => a.k));
      if (!can.has('arrive'))
        return `reinforcement group ${f.g} is due, but the enemy holds every area it could arrive in: delay it one turn [6.0] (A-51)`;
      return can.has('delay')
        ? `reinforcement group ${f.g} is due: bring it on now or delay it one turn [6.0] (A-51)`
        : `reinforcement group ${f.g} is due: bring it on now (it cannot be delayed again or past the last turn) [6.0] (A-51)`;
    }
    case 'reinfPlace':
      return `the entry area of ${f.g} is held by the enemy: choose where it arrives [6.0] (A-51)`;
    case 'face':
      return `choose the conformation (facing) of ${unitName(s, f.u)} [13.9]`;
    case 'firstChoice':
      return 'you won the first-player roll: attempt activation first, or make your opponent go first? [7.0]';
    case 'attempt':
      return "activation attempt: roll against your commander's initiative, pass (a failed attempt, A-05), or declare a Grand Charge [8.1, 10.8]";
    case 'select':
      return `select a formation to activate (${f.left} left) [8.1]`;
    case 'phase':
      return `${sideName(s, f.p)} Action Phase, ${f.seg} segment: act, or "next" to end the segment [8.14]`;
    case 'fire':
      return `bombardment from area ${areaName(s, f.from)} at ${areaName(s, f.to)}: add artillery to the fire group, or shoot [12.0]`;
    case 'move':
      return `moving ${[...f.units.map((u) => unitName(s, u)), ...f.leaders.map((l) => leaderName(s, l)), ...(f.hq ? ['the HQ'] : [])].join(', ')} from area ${areaName(s, f.at)}: choose the next area, or stop [13.0]`;
    case 'routMove':
      return `${unitName(s, f.u)} is routed and must move away from the enemy: choose the next area${f.initial && f.path.length === 1 ? ', or a leader who goes with it [19.14]' : ''}; from a map edge it may flee off the map [19.11, 19.23, 19.31]`;
    case 'displace':
      return `${leaderName(s, f.l)} is alone with the enemy and is displaced: choose where he goes [3.13]`;
    case 'retreatTo':
      return `${f.units.map((u) => unitName(s, u)).join(', ')} retreat${f.voluntary ? ' (voluntarily)' : ''} from area ${areaName(s, f.from)}: choose where [20.0]`;
    case 'loss':
      return `${f.hits} hit${f.hits === 1 ? '' : 's'} to allocate in area ${areaName(s, f.area)}, one at a time: choose the unit that loses a step [${f.rule}] (A-42)`;
    case 'assault':
      switch (f.stage) {
        case 'gather':
          return `assault on area ${areaName(s, f.target)}: add units that join it, or resolve [14.1]`;
        case 'beforeRetreat':
          return `the enemy is assaulting area ${areaName(s, f.target)}: stand, or retreat before the assault [14.11]`;
        case 'defTarget':
          return 'choose the attacking area your defenders fire at [14.1] (A-38)';
        case 'atkChoice':
          return 'the attacker may stand (roll against morale) or retreat to reduce losses [14.4]';
        case 'defChoice':
          return 'the defender may stand (roll against morale) or retreat to reduce losses [14.4]';
        case 'advance':
          return `the defenders left area ${areaName(s, f.target)}: choose the units that advance into it [14.5]`;
        default:
          return `assault on area ${areaName(s, f.target)} (${f.stage})`;
      }
    case 'charge':
      return f.stage === 'gather'
        ? `cavalry charge from area ${areaName(s, f.origin)} at ${areaName(s, f.target)}: add cavalry or escorting leaders, or resolve [10.1]`
        : f.stage === 'squareAsk'
          ? 'your infantry is charged: try to form square under duress? [17.12]'
          : f.stage === 'pursuitChoice'
            ? 'pursue the retreating enemy? (−1, 0 or +1 on the pursuit roll with the cavalry leader) [10.91]'
            : f.stage === 'advanceChoice'
              ? `choose the cavalry that occupy area ${areaName(s, f.target)} [10.5]`
              : `cavalry charge at area ${areaName(s, f.target)} (${f.stage})`;
    case 'gc':
      return f.stage === 'first'
        ? `Grand Charge by ${leaderName(s, f.leader)}: choose the single first area all the cavalry enter [10.81]`
        : f.stage === 'target'
          ? `Grand Charge by ${leaderName(s, f.leader)}: choose the target area beyond area ${areaName(s, f.first)} [10.81]`
          : f.stage === 'gather'
            ? 'Grand Charge: add the participating cavalry, or declare it [10.8]'
            : 'the Grand Charge succeeded: continue it behind the target, or return to the origin areas [10.83]';
    case 'freeRally':
      return 'choose the formation that rallies without a roll [15.12]';
    case 'replace':
      return `choose the officer who fills the post of ${leaderName(s, f.post)} [15.3]`;
    default:
      return f.t;
  }
}

function describeAction(s: EState, a: Action): string {
  switch (a.k) {
    case 'select':
      return `activate ${formationName(s, a.f)}`;
    case 'fire':
      return `${unitName(s, a.u)} bombards area ${areaName(s, a.to)}`;
    case 'mvUnit':
      return `move ${unitName(s, a.u)}`;
    case 'mvStack':
      return `move the active units in area ${areaName(s, a.area)} together`;
    case 'mvLeader':
      return `move ${leaderName(s, a.l)}`;
    case 'mvWithLeader':
      return `move ${unitName(s, a.u)} with ${leaderName(s, a.l)} (+1 MA) [13.24]`;
    case 'to':
      return `enter area ${areaName(s, a.area)}${a.mode === 'normal' ? '' : ` by ${a.mode}`}`;
    case 'hit':
      return `${unitName(s, a.u)} loses a step`;
    case 'assault':
      return `assault area ${areaName(s, a.target)}`;
    case 'join':
      return `${unitName(s, a.u)} joins`;
    case 'advance':
      return a.u === '*' ? 'advance no further' : `${unitName(s, a.u)} advances`;
    case 'charge':
      return `charge from area ${areaName(s, a.area)} at ${areaName(s, a.target)}`;
    case 'escort':
      return `${leaderName(s, a.l)} rides with the charge`;
    case 'attach':
      return `attach ${unitName(s, a.u)} to ${unitName(s, a.lc)}`;
    case 'detach':
      return `detach ${unitName(s, a.u)}`;
    case 'reserve':
      return `assign ${unitName(s, a.u)} from reserve to ${formationName(s, a.to)}`;
    case 'artLeader':
      return `${leaderName(s, a.l)} joins ${formationName(s, a.to)}`;
    case 'deploy':
    case 'reabsorb': {
      const d = s.ctx.scenario.sides.flatMap((x) => x.deployments).find((x) => x.id === a.id);
      return d
        ? `${unitName(s, d.parent)} ${a.k === 'deploy' ? 'deploys' : 're-absorbs'} ${d.units.map((u) => unitName(s, u)).join(', ')} [${a.k === 'deploy' ? '11.31' : '11.32'}]`
        : actionKey(a);
    }
    case 'grandCharge':
      return `Grand Charge led by ${leaderName(s, a.leader)}`;
    case 'massedColumn':
      return `${unitName(s, a.u)} declares a Massed Column against area ${areaName(s, a.target)}`;
    case 'extend':
      return `${unitName(s, a.u)} extends its line into area${a.to.length > 1 ? 's' : ''} ${a.to.map((x) => areaName(s, x)).join(' and ')} (${a.to.length > 1 ? 'two 1/3 markers' : 'a 1/2 marker'})`;
    case 'retract':
      return `${unitName(s, a.u)} retracts its line into area ${areaName(s, a.into)}`;
    default:
      return actionKey(a);
  }
}

function unitLine(s: EState, u: UnitState): string {
  const st = u.steps[u.step]!;
  const flags: string[] = [];
  if (u.routed) flags.push('ROUTED');
  if (u.square) flags.push('square');
  if (u.rs) flags.push('reverse slope');
  if (u.mc !== null) flags.push(`massed column against ${u.mc}`);
  if (u.attachedTo) flags.push(`attached to ${u.attachedTo}`);
  if (u.conf) flags.push(`facing ${u.conf}`);
  if (u.acted) flags.push(u.acted === 'charge' ? 'charged' : u.acted === 'bombard' ? 'fired' : 'assaulted');
  if (u.ext !== null) flags.push(`1/${u.ext.div} extended-line marker of ${u.ext.lc}`);
  else if (u.xsp !== null) flags.push(`extended line, ${st.sp} SP in all`);
  const m = u.kind === 'artillery' ? '' : `-${moraleOf(u)}`;
  return `${u.id} ${unitName(s, u.id)} ${u.kind[0]!.toUpperCase()} ${st.label}${spOf(u)}${m} (${stepsLeft(u)} step${stepsLeft(u) === 1 ? '' : 's'})${flags.length ? ` [${flags.join(', ')}]` : ''}`;
}

function render(s: EState): string {
  const sc = s.ctx.scenario;
  const vp = victoryPoints(s);
  const out: string[] = [];
  out.push(
    `${sc.title} — turn ${s.turn} of ${sc.turns.length} (${sc.turns[s.turn - 1]?.hour ?? ''}), weather ${s.weather}, phase ${s.phase}; VP ${sc.sides[0].name} ${vp[0]}, ${sc.sides[1].name} ${vp[1]}`,
  );
  const objectives = new Map(sc.victory.objectives.map((o) => [o.area, o]));
  const areas = [
    ...new Set([
      ...s.units.filter((u) => !u.eliminated && u.area !== null).map((u) => u.area!),
      ...s.leaders.filter((l) => l.area !== null && l.status === 'on').map((l) => l.area!),
      ...objectives.keys(),
    ]),
  ].sort((a, b) => a - b);
  for (const id of areas) {
    const a = s.ctx.map.area(id);
    const obj = objectives.get(id);
    const ctl = s.control[String(id)];
    out.push(
      `area ${id} ${a.name} (${a.terrain.join(', ') || 'clear'}${a.elev ? `, level ${a.elev}` : ''})${obj ? ` — objective ${obj.vp[0]}/${obj.vp[1]} VP${ctl !== undefined ? `, held by ${sideName(s, ctl)}` : ''}` : ''}`,
    );
    for (const p of [0, 1] as const) {
      const us = s.units.filter((u) => u.side === p && u.area === id && !u.eliminated);
      const ls = s.leaders.filter((l) => l.side === p && l.area === id && l.status === 'on');
      const hq = s.hq[p]?.area === id && !s.hq[p]!.lost;
      if (!us.length && !ls.length && !hq) continue;
      out.push(
        `  ${sideName(s, p)} (SP ${us.reduce((t, u) => t + spOf(u), 0)}):${hq ? ' HQ;' : ''}${ls.length ? ` leaders ${ls.map((l) => leaderName(s, l.id)).join(', ')}` : ''}`,
      );
      for (const u of us) out.push(`    ${unitLine(s, u)}`);
    }
  }
  const gone = s.units.filter((u) => u.eliminated);
  if (gone.length) out.push(`eliminated: ${gone.map((u) => unitName(s, u.id)).join(', ')}`);
  if (s.fallen.length) out.push(`fallen leaders: ${s.fallen.map((l) => leaderName(s, l)).join(', ')}`);
  if (s.active.length) out.push(`active formations: ${s.active.map((f) => formationName(s, f)).join(', ')}`);
  if (s.result) out.push(`RESULT: ${resultText(s)}`);
  return out.join('\n');
}

function resultText(s: EState): string {
  const r = s.result;
  if (!r) return 'game in progress';
  return r.winner < 0 ? `draw: ${r.reason}` : `${sideName(s, r.winner as Side)} win a ${r.level} victory: ${r.reason}`;
}

/** The hash covers everything but the context (scenario and map), which is fixed for a game. */
function hash(s: EState): Hash64 {
  const { ctx: _, ...rest } = s;
  return hashValue(rest);
}

export const eaglesOfTheEmpire: Game<EState, Action, EScenario> = {
  id: 'eagles-of-the-empire',
  title: 'Eagles of the Empire',
  // v2: every chance step advances the chance counter (unique chance keys; changes hashes and keyed dice draws); no
  // pursuit into terrain a charge may not enter [10.92, 10.0]; an attached battery counts once in an assault [11.26, 14.12]
  version: 2,
  players: ['A', 'B'],
  defaultScenario: 'hohenwald-1809',
  // rule citations: the series rules' numbered sections (e.g. 10.92) and the digest's adaptations (A-51)
  citation: /^(\d{1,2}\.\d{1,2}|A-\d{2})$/,
  validateScenario: validate,
  initialState: (sc) => initialState(sc),
  toMove: (s): ToMove => toMoveOf(s),
  legalActions: (s) => legalActions(s),
  chanceOutcomes: (s): ChanceOutcome<Action>[] => chanceOutcomes(s),
  chanceKey: (s) => `t${s.turn}/c${s.nChance}`,
  apply(s, a, events) {
    if (s.result) throw new IllegalActionError(actionKey(a), 'the game is over');
    if (!isOffered(eaglesOfTheEmpire, s, a))
      throw new IllegalActionError(actionKey(a), `not among the options at "${describeDecision(s)}"`);
    return applyInternal(s, a, events);
  },
  applyUnchecked: (s, a, events) => applyInternal(s, a, events),
  returns(s) {
    const r = s.result;
    if (!r) {
      const vp = victoryPoints(s);
      return vp[0] === vp[1] ? [0, 0] : vp[0] > vp[1] ? [1, -1] : [-1, 1];
    }
    return r.winner < 0 ? [0, 0] : r.winner === 0 ? [1, -1] : [-1, 1];
  },
  observe: (s) => s, // perfect information: every counter is face up [2.0]
  sampleState: (s) => s,
  evaluate,
  policyScores,
  actionKey,
  describeAction,
  hash,
  describeDecision,
  render: (s) => render(s),
  resultText,
  diceFaces(s, a) {
    return a.k === 'c-die' ? [a.face] : a.k === 'c-weather' && a.faces.length === 1 ? a.faces : undefined;
  },
  randomScenario,
};
