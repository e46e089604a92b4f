/**
 * Eagles of the Empire in words: the names of sides, areas, units, leaders and formations, and what the player is
 * asked at each frame (the runtime's `describe`, attached to every handler in rules.ts), citing the rules.
 */
import { formationsOf } from './scenario.ts';
import type { Action, EState, Frame, Side } from './types.ts';
import { leaderDef, unitDef } from './world.ts';

export const sideName = (s: EState, p: Side) => s.ctx.scenario.sides[p].name;
export function areaName(s: EState, id: number | null): string {
  if (id === null) return '(off map)';
  const a = s.ctx.map.areas.get(id);
  return a ? `${id} ${a.name}` : String(id);
}
/** An area as play names it: "Mill Meadow (10)" (the map's name, then its number on the map). */
export function areaLabel(s: EState, id: number | null): string {
  if (id === null) return 'off the map';
  const a = s.ctx.map.areas.get(id);
  return a ? `${a.name} (${id})` : `area ${id}`;
}
/** `areaLabel` for each area in the text of an event (`area 10`, `areas 10 and 11`), for the log a person reads. */
export function nameAreas(s: EState, text: string): string {
  return text.replace(/\bareas? (\d+)((?:(?:, | and )\d+)*)/g, (m, first: string, rest: string) => {
    const ids = [first, ...(rest.match(/\d+/g) ?? [])].map(Number);
    if (!ids.every((id) => s.ctx.map.areas.has(id))) return m;
    const names = ids.map((id) => areaLabel(s, id));
    return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  });
}
export function unitName(s: EState, id: string): string {
  try {
    return unitDef(s, id).name;
  } catch {
    return id;
  }
}
export function leaderName(s: EState, id: string): string {
  try {
    return leaderDef(s, id).name;
  } catch {
    return id;
  }
}
export function formationName(s: EState, id: string): string {
  for (const side of s.ctx.scenario.sides) for (const { f } of formationsOf(side)) if (f.id === id) return f.name;
  return id;
}

/** What is asked at frame `f`; `offered`: the actions open there. */
export function describeFrame(s: EState, f: Frame, offered: () => readonly Action[]): string {
  switch (f.t) {
    case 'reinf': {
      const can = new Set(offered().map((a) => a.k));
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
      return `bombardment from ${areaLabel(s, f.from)} at ${areaLabel(s, f.to)}: add artillery to the fire group, or shoot [12.0]`;
    case 'move':
      return `moving ${[...f.units.map((u) => unitName(s, u)), ...f.leaders.map((l) => leaderName(s, l)), ...(f.hq ? ['the HQ'] : [])].join(', ')} from ${areaLabel(s, f.at)}: choose the next area, or stop [13.0]`;
    case 'routMove':
      return `${unitName(s, f.u)} is routed and must move away from the enemy: choose the next area${f.initial && f.path.length === 1 ? ', or a leader who goes with it [19.14]' : ''}; from a map edge it may flee off the map [19.11, 19.23, 19.31]`;
    case 'displace':
      return `${leaderName(s, f.l)} is alone with the enemy and is displaced: choose where he goes [3.13]`;
    case 'retreatTo':
      return `${f.units.map((u) => unitName(s, u)).join(', ')} retreat${f.voluntary ? ' (voluntarily)' : ''} from ${areaLabel(s, f.from)}: choose where [20.0]`;
    case 'loss':
      return `${f.hits} hit${f.hits === 1 ? '' : 's'} to allocate in ${areaLabel(s, f.area)}, one at a time: choose the unit that loses a step [${f.rule}] (A-42)`;
    case 'assault':
      switch (f.stage) {
        case 'gather':
          return `assault on ${areaLabel(s, f.target)}: add units that join it, or resolve [14.1]`;
        case 'beforeRetreat':
          return `the enemy is assaulting ${areaLabel(s, f.target)}: stand, or retreat before the assault [14.11]`;
        case 'defTarget':
          return 'choose the attacking area your defenders fire at [14.1] (A-38)';
        case 'atkChoice':
          return 'the attacker may stand (roll against morale) or retreat to reduce losses [14.4]';
        case 'defChoice':
          return 'the defender may stand (roll against morale) or retreat to reduce losses [14.4]';
        case 'advance':
          return `the defenders left ${areaLabel(s, f.target)}: choose the units that advance into it [14.5]`;
        default:
          return `assault on ${areaLabel(s, f.target)} (${f.stage})`;
      }
    case 'charge':
      return f.stage === 'gather'
        ? `cavalry charge from ${areaLabel(s, f.origin)} at ${areaLabel(s, f.target)}: add cavalry or escorting leaders, or resolve [10.1]`
        : f.stage === 'squareAsk'
          ? 'your infantry is charged: try to form square under duress? [17.12]'
          : f.stage === 'pursuitChoice'
            ? 'pursue the retreating enemy? (−1, 0 or +1 on the pursuit roll with the cavalry leader) [10.91]'
            : f.stage === 'advanceChoice'
              ? `choose the cavalry that occupy ${areaLabel(s, f.target)} [10.5]`
              : `cavalry charge at ${areaLabel(s, f.target)} (${f.stage})`;
    case 'gc':
      return f.stage === 'first'
        ? `Grand Charge by ${leaderName(s, f.leader)}: choose the single first area all the cavalry enter [10.81]`
        : f.stage === 'target'
          ? `Grand Charge by ${leaderName(s, f.leader)}: choose the target area beyond ${areaLabel(s, f.first)} [10.81]`
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
