/**
 * Eagles of the Empire as a `Game`: scenario validation (scenario + embedded area map), the flow of play (flow.ts and
 * the Action Phase / End Step modules), notation, a text rendering, hashing and the scripted heuristic's scores.
 *
 * Scenario files name their map (`"map": "hohenwald-1809"`); the loader (arena/catalog.ts, which does the I/O) embeds
 * the map file as `mapData`, so a validated scenario is self-contained and replays carry the map with them.
 */
import type { Game, GameEvent, Validated } from '../../core/game.ts';
import { hashValue, type Hash64 } from '../../core/hash.ts';
import { AreaMap, type AreaMapJson, validateAreaMap } from '../../areas/map.ts';
import { type Scenario, validateScenario as validateAgainstMap } from './scenario.ts';
import { eote, initialState as initialFlow, settle, victoryPoints } from './rules.ts';
import { actionKey } from './notation.ts';
import { diceFaces, outcomeForFaces, rollAsk } from './dice-faces.ts';
import type { Action, EState, Side, UnitState } from './types.ts';
import { areaLabel, formationName, leaderName, nameAreas, sideName, unitName } from './words.ts';
import { moraleOf, spOf, stepsLeft } from './world.ts';
import { evaluate, policyScores } from './heuristic.ts';
import { randomScenario } from './generate.ts';
import { eaglesEncoding } from './encoding.ts';
import { eaglesPicture } from './picture.ts';

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

/** The settled initial state, once per scenario (states are never modified, so every game may start from it). */
const initialStates = new WeakMap<EScenario, EState>();
function initialState(sc: EScenario): EState {
  let s = initialStates.get(sc);
  if (!s) initialStates.set(sc, (s = settle(initialFlow(sc, mapOf(sc)), undefined)));
  return s;
}

// ---------------------------------------------------------------------------------------------
// words
// ---------------------------------------------------------------------------------------------

/** A reinforcement group in words: its units and leaders, and where it arrives [6.0]. */
function groupText(s: EState, g: string): string {
  const r = s.ctx.scenario.reinforcements.find((x) => x.id === g);
  if (!r) return `reinforcement group ${g}`;
  const who = [...r.units.map((u) => unitName(s, u)), ...r.leaders.map((l) => leaderName(s, l))];
  return `reinforcement group ${g}${who.length ? ` (${who.join(', ')})` : ''}`;
}

function describeAction(s: EState, a: Action): string {
  const f = s.stack[s.stack.length - 1];
  switch (a.k) {
    case 'arrive': {
      const r = s.ctx.scenario.reinforcements.find((x) => x.id === a.g);
      return `bring on ${groupText(s, a.g)}${r ? ` at ${areaLabel(s, r.area)}` : ''} [6.0]`;
    }
    case 'delay':
      return `delay ${groupText(s, a.g)} one turn [6.0] (A-51)`;
    case 'placeAt':
      return `the reinforcements arrive at ${areaLabel(s, a.area)} [6.0] (A-51)`;
    case 'face': {
      const u = s.units.find((x) => x.id === a.u);
      const c = u?.area != null ? s.ctx.map.area(u.area).conformations.find((x) => x.id === a.conf) : undefined;
      return `${unitName(s, a.u)} faces ${a.conf}${c ? `, its front toward ${c.front.map((x) => areaLabel(s, x)).join(', ')}` : ''} [13.9]`;
    }
    case 'first':
      return a.self ? 'attempt activation first [7.0]' : 'make the opponent attempt activation first [7.0]';
    case 'roll':
      return "attempt an activation: roll a d6 against the commander's initiative [8.1]";
    case 'pass':
      return f?.t === 'attempt' ? 'pass: a failed activation attempt [8.1] (A-05)' : 'pass';
    case 'next':
      return 'end this segment of the Action Phase [8.14]';
    case 'select':
      return `activate ${formationName(s, a.f)}`;
    case 'fire':
      return `${unitName(s, a.u)} bombards ${areaLabel(s, a.to)}`;
    case 'shoot':
      return a.cb ? 'fire the group at the enemy artillery (counter-battery) [12.72]' : 'fire the group [12.1]';
    case 'mvUnit': {
      const u = s.units.find((x) => x.id === a.u);
      return `move ${unitName(s, a.u)}${u?.area != null ? ` from ${areaLabel(s, u.area)}` : ''}`;
    }
    case 'mvStack':
      return `move the active units in ${areaLabel(s, a.area)} together`;
    case 'mvLeader': {
      const l = s.leaders.find((x) => x.id === a.l);
      return `move ${leaderName(s, a.l)}${l?.area != null ? ` from ${areaLabel(s, l.area)}` : ''}`;
    }
    case 'mvWithLeader':
      return `move ${unitName(s, a.u)} with ${leaderName(s, a.l)} (+1 MA) [13.24]`;
    case 'mvHq': {
      const p = f && 'p' in f ? (f.p as Side) : undefined;
      const hq = p === undefined ? undefined : s.hq[p];
      return `move the HQ${hq?.area != null ? ` from ${areaLabel(s, hq.area)}` : ''} [9.5]`;
    }
    case 'to':
      return `enter ${areaLabel(s, a.area)}${a.mode === 'normal' ? '' : ` by ${a.mode}`}`;
    case 'stop':
      return f?.t === 'move' ? `stop in ${areaLabel(s, f.at)}` : 'stop';
    case 'routOff':
      return 'rout off the map (the unit is eliminated) [19.23]';
    case 'goTo':
      return f?.t === 'retreatTo'
        ? `retreat to ${areaLabel(s, a.area)} [20.0]`
        : f?.t === 'routMove'
          ? `rout into ${areaLabel(s, a.area)} [19.11]`
          : f?.t === 'displace'
            ? `${leaderName(s, f.l)} goes to ${areaLabel(s, a.area)} [3.13]`
            : `go to ${areaLabel(s, a.area)}`;
    case 'square':
      return `${a.on ? 'form square' : 'leave square'} with the infantry in ${areaLabel(s, a.area)} (1 MP) [${a.on ? '17.11' : '17.16'}]`;
    case 'hit':
      return `${unitName(s, a.u)} loses a step`;
    case 'assault':
      return `assault ${areaLabel(s, a.target)}`;
    case 'join':
      return `${unitName(s, a.u)} joins`;
    case 'resolve':
      return 'resolve it now';
    case 'fireAt':
      return `the defenders fire at the attackers in ${areaLabel(s, a.area)} [14.1]`;
    case 'stand':
      return 'stand';
    case 'retreat':
      return 'retreat';
    case 'advance':
      return a.u === '*' ? 'advance no further' : `${unitName(s, a.u)} advances`;
    case 'charge':
      return `charge from ${areaLabel(s, a.area)} at ${areaLabel(s, a.target)}`;
    case 'escort':
      return `${leaderName(s, a.l)} rides with the charge`;
    case 'pursue':
      return a.sign > 0
        ? "pursue: add the cavalry leader's rating to the pursuit roll [10.91]"
        : a.sign < 0
          ? "hold back: subtract the cavalry leader's rating from the pursuit roll [10.91]"
          : 'leave the pursuit roll as it is [10.91]';
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
    case 'gcFirst':
      return `the Grand Charge rides first into ${areaLabel(s, a.area)} [10.81]`;
    case 'gcTarget':
      return `the Grand Charge targets ${areaLabel(s, a.target)} [10.81]`;
    case 'gcAfter':
      return a.mode === 'continue'
        ? 'continue the Grand Charge behind the target [10.83]'
        : 'return to the starting areas [10.83]';
    case 'reverseSlope':
      return `${unitName(s, a.u)} ${a.on ? 'takes up' : 'leaves'} reverse slope defence (1 MP) [17.2]`;
    case 'massedColumn':
      return `${unitName(s, a.u)} declares a Massed Column against ${areaLabel(s, a.target)}`;
    case 'extend':
      return `${unitName(s, a.u)} extends its line into ${a.to.map((x) => areaLabel(s, x)).join(' and ')} (${a.to.length > 1 ? 'two 1/3 markers' : 'a 1/2 marker'})`;
    case 'retract':
      return `${unitName(s, a.u)} retracts its line into ${areaLabel(s, a.into)}`;
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
  out.push(...LEGEND);
  return out.join('\n');
}

/**
 * The key to the codes of `render`, as the picture's legend explains them (picture.ts): a unit line is its id, name,
 * kind letter, step code and steps left, then its markers in words.
 */
const LEGEND = [
  'key: each unit reads id, name, kind (I infantry, C cavalry, A artillery), step code, steps left, [markers] [2.21, 2.3]',
  '  step code "A5-5": step A of its track with 5 strength points (SP) and morale 5; a capital letter is a long',
  '  counter, lower case a short one; artillery shows no morale (it has 3) [18.0]; "facing E": the conformation a',
  '  long counter faces [13.9]; objective "4/2 VP": its victory points to the first/second side (A-53)',
];

function resultText(s: EState): string {
  const r = s.result;
  if (!r) return 'game in progress';
  return r.winner < 0 ? `draw: ${r.reason}` : `${sideName(s, r.winner as Side)} win a ${r.level} victory: ${r.reason}`;
}

/**
 * The events of a step with every area named as a person reads it ("Mill Meadow (10)", not "area 10"): the procedures
 * log areas by number; the names are put in here, only when events are collected (play and logs, never search).
 */
function namingAreas(apply: (s: EState, a: Action, log?: GameEvent[]) => EState) {
  return (s: EState, a: Action, log?: GameEvent[]): EState => {
    const n = log?.length ?? 0;
    const r = apply(s, a, log);
    if (log) for (let i = n; i < log.length; i++) log[i] = { ...log[i]!, text: nameAreas(s, log[i]!.text) };
    return r;
  };
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
  toMove: eote.toMove,
  legalActions: eote.legalActions,
  chanceOutcomes: eote.chanceOutcomes,
  chanceKey: eote.chanceKey,
  apply: namingAreas(eote.apply),
  applyUnchecked: namingAreas(eote.applyUnchecked),
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
  describeDecision: eote.describe,
  render: (s) => render(s),
  picture: (s, viewer) => eaglesPicture(s, viewer),
  resultText,
  rollAsk,
  outcomeForFaces,
  diceFaces,
  randomScenario,
  encoding: eaglesEncoding,
};
