/**
 * [Play Sequence] the game turn: the Initiative Phase (A2), the two player turns (March, Volley & Cannonade, Bayonet &
 * Sabre), and the end of the game turn (A12: army cohesion, victory, markers). `idle` pushes what comes next when the
 * stack is empty.
 */
import type { ChanceHandler, DecisionHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { startBayonetSabre } from './combat.ts';
import { startFire } from './fire.ts';
import { startMarch } from './march.ts';
import { nearestDistanceToPoint } from './shape.ts';
import { IN, onTable } from './state.ts';
import type { Action, AoeState, Frame, Side } from './types.ts';

type F<T extends Frame['t']> = Extract<Frame, { t: T }>;

const NAMES = ['A', 'B'] as const;

/** A2: each side rolls D10, ties re-rolled, so either wins with probability ½. */
const initRoll: ChanceHandler<AoeState, F<'initRoll'>, Action> = {
  kind: 'chance',
  outcomes: () =>
    ([0, 1] as const).map((side) => ({ action: { a: 'initWin', side }, p: 0.5, label: `${NAMES[side]} wins` })),
  step(s, _f, a, log) {
    if (a.a !== 'initWin') throw new Error('initRoll: not an initiative outcome');
    log?.push({ rule: 'A2', text: `${s.sides[a.side].name} win the initiative (D10 each, ties re-rolled)` });
    return push(s, { t: 'initChoice', p: a.side });
  },
  describe: () => 'initiative: D10 each side, ties re-rolled',
};

/** [Initiative Phase] the winner chooses to be the 1st or the 2nd player this game turn (A2). */
const initChoice: DecisionHandler<AoeState, F<'initChoice'>, Action> = {
  kind: 'decision',
  owner: (f) => f.p,
  legal: () => [{ a: 'first' }, { a: 'second' }],
  step(s, f, a, log) {
    const first = (a.a === 'first' ? f.p : 1 - f.p) as Side;
    log?.push({ rule: 'Initiative Phase', text: `${s.sides[first].name} are the 1st player in turn ${s.turn}` });
    return startMarch({ ...s, first, pt: 0, phase: 'march' }, log);
  },
  describe: (s, f) => `${s.sides[f.p].name}: be the 1st or the 2nd player this turn?`,
};

export const turnHandlers = { initRoll, initChoice };

/** The stack is empty: the next phase of the player turn, the next player turn, or the end of the game turn. */
export function idle(s: AoeState, log: Log): AoeState {
  switch (s.phase) {
    case 'initiative':
      return push(s, { t: 'initRoll' });
    case 'march':
      // [Volley & Cannonade a] resolve all enemy (non-phasing) unit fire first
      return startFire({ ...s, phase: 'fire-enemy' }, 'enemy', log);
    case 'fire-enemy':
      return startFire({ ...s, phase: 'fire-friendly' }, 'friendly', log);
    case 'fire-friendly':
      return startBayonetSabre({ ...s, phase: 'bs' }, log);
    case 'bs':
      return endPlayerTurn(s, log);
    case 'end':
    case 'over':
      return s;
  }
}

/** A6: per-player-turn markers come off at the end of the player turn (changed formation, about-faced, …). */
function endPlayerTurn(s0: AoeState, log: Log): AoeState {
  const s: AoeState = {
    ...s0,
    units: s0.units.map((u) =>
      u.changed || u.about || u.ordered || u.fired || u.fpHits || u.broke || u.fought || u.checked
        ? {
            ...u,
            changed: false,
            about: false,
            ordered: false,
            fired: false,
            fpHits: 0,
            broke: false,
            fought: false,
            checked: false,
          }
        : u,
    ),
  };
  if (s.pt === 0) {
    log?.push({ rule: 'Play Sequence', text: `2nd player turn: ${s.sides[1 - s.first]!.name}` });
    return startMarch({ ...s, pt: 1, phase: 'march' }, log);
  }
  return endGameTurn(s, log);
}

/** A12: army cohesion level from the share of starting units removed. */
function cohesionOf(s: AoeState, side: Side): number {
  const removed = s.units.filter((u) => u.side === side && u.gone).length;
  const share = removed / Math.max(1, s.sides[side].startUnits);
  const [one, two] = s.ctx.options.A12_cohesion;
  return share >= two ? 2 : share >= one ? 1 : 0;
}

/** A12: each objective is held by the last side to have a unit in it or within 3" with no enemy within 3". */
function updateObjectives(s: AoeState): AoeState {
  const held = s.ctx.objectives.map((o, i) => {
    const near = (side: Side) =>
      onTable(s).some(
        (u) => u.side === side && ((o.bua && u.bua === o.bua) || nearestDistanceToPoint(u, o.x, o.y) <= 3 * IN),
      );
    const a = near(0);
    const b = near(1);
    return a && !b ? 0 : b && !a ? 1 : s.held[i]!;
  });
  return held.every((h, i) => h === s.held[i]) ? s : { ...s, held };
}

/** A12: loss points: 5 per unit removed and 1 per hit on units still on the table, less 5 per objective held. */
export function lossPoints(s: AoeState, side: Side): number {
  let p = 0;
  for (const u of s.units) if (u.side === side) p += u.gone ? 5 : u.hits;
  for (const h of s.held) if (h === side) p -= 5;
  return p;
}

/** [Play Sequence 4] the end of the game turn: cohesion, victory, the next turn's initiative (A12). */
function endGameTurn(s0: AoeState, log: Log): AoeState {
  let s = updateObjectives(s0);
  const cohesion = [cohesionOf(s, 0), cohesionOf(s, 1)];
  for (const side of [0, 1] as const)
    if (cohesion[side] !== s.sides[side].cohesion)
      log?.push({
        rule: 'A12',
        text: `${s.sides[side].name}: army cohesion level ${cohesion[side]}${cohesion[side] === 2 ? ' — the army is broken' : ''}`,
      });
  s = {
    ...s,
    sides: s.sides.map((x, i) =>
      x.cohesion === cohesion[i] ? x : { ...x, cohesion: cohesion[i]! },
    ) as unknown as AoeState['sides'],
  };
  const broken = [cohesion[0] === 2, cohesion[1] === 2];
  if (broken[0] || broken[1]) {
    const winner: Side | -1 = broken[0] && broken[1] ? -1 : broken[0] ? 1 : 0;
    const text =
      winner === -1
        ? 'both armies are broken in the same turn: a draw'
        : `${s.sides[winner].name} win: the ${s.sides[1 - winner]!.name} army is broken`;
    log?.push({ rule: 'A12', text });
    return { ...s, phase: 'over', result: { winner, text: `${text} [A12]` } };
  }
  if (s.turn >= s.ctx.turns) {
    const lp = [lossPoints(s, 0), lossPoints(s, 1)] as const;
    const winner: Side | -1 = lp[0] < lp[1] ? 0 : lp[1] < lp[0] ? 1 : -1;
    const text =
      winner === -1
        ? `after turn ${s.turn}, equal loss points (${lp[0]} each): a draw`
        : `${s.sides[winner].name} win on loss points after turn ${s.turn}: ${lp[winner]} against ${lp[1 - winner]}`;
    log?.push({ rule: 'A12', text });
    return { ...s, phase: 'over', result: { winner, text: `${text} [A12]` } };
  }
  log?.push({ rule: 'Play Sequence', text: `game turn ${s.turn + 1}` });
  return push({ ...s, turn: s.turn + 1, phase: 'initiative' }, { t: 'initRoll' });
}
