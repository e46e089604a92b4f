/**
 * Charge! Eagles Rising as a `Game`: the turn sequence of rules.ts with the engine contract around it — scenarios,
 * the start of play, hashing, what each side may see (its own written orders only, until the S2 reveal: C7), the
 * determinized states search samples, results, the evaluation, a text picture and the notation. Players are the
 * scenario's sides in order, "A" and "B". In construction: not registered until every phase is built (README.md).
 */
import type { Game, GameEvent, Validated } from '../../core/game.ts';
import { hashValue } from '../../core/hash.ts';
import { IN } from '../../geometry/geometry.ts';
import { diceFaces, outcomeForFaces, rollAsk } from './dice-faces.ts';
import { createEncoding } from './encoding.ts';
import { randomScenario } from './generate.ts';
import { policyScores } from './heuristic.ts';
import { cerPicture } from './picture.ts';
import { orderOptions, orderText, orderOfKey } from './orders.ts';
import { cer } from './rules.ts';
import { type Scenario, initialState as startOf, validateScenario } from './scenario.ts';
import { type Action, type S, commandOf, lostFraction, orderRecipients, sideName } from './state.ts';
import type { Side, SideSecret, UnitState, WrittenOrder } from './types.ts';

const PLAYERS = ['A', 'B'] as const;

/** The game at its start: turn 0's end, so that the procedure's `idle` begins turn 1's S1. */
function initialState(sc: Scenario, options?: Readonly<Record<string, unknown>>): S {
  const s = startOf(sc, options) as S;
  return cer.settle({ ...s, turn: 0, phase: 'end' });
}

/** The scores at the end: 1 a win, −1 a loss, 0 a draw. */
function returns(s: S): readonly number[] {
  if (!s.result) return [0, 0];
  const w = s.result.winner;
  return w === -1 ? [0, 0] : w === 0 ? [1, -1] : [-1, 1];
}

/** What `p` may see: the sealed choices of the round in hand redacted, and the other side's written orders blanked. */
function observe(s: S, p: number): S {
  const r = cer.redact(s, p);
  const o = (1 - p) as Side;
  if (!r.secret[o].orders.length) return r;
  const secret = [r.secret[0], r.secret[1]] as [SideSecret, SideSecret];
  secret[o] = { orders: [] };
  return { ...r, secret };
}

/** Does `s` hold something `p` cannot see: a sealed choice, or the other side's written orders? */
function hidden(s: S, p: number): boolean {
  return cer.hidden(s, p) || s.secret[(1 - p) as Side].orders.length > 0;
}

/**
 * A state `p` cannot tell from `s`, drawn with `u`: the sealed choices redrawn by the runtime, and the other side's
 * written orders redrawn — those written this turn (from every one of its recipients' options, keeping an order or
 * not), and the content of those already on their way by messenger (their existence is public).
 */
function sampleState(s0: S, p: number, u: () => number): S {
  const s = cer.sampleSealed(s0, p, u);
  const o = (1 - p) as Side;
  if (!s.secret[o].orders.length && !(s.phase === 'S1' && s.stack.length === 0)) return s;
  const kept: WrittenOrder[] = [];
  for (const w of s.secret[o].orders) {
    if (w.issuedTurn === s.turn) continue;
    const opts = orderOptions(s, o, commandOf(s, w.to)).filter((a) => !a.endsWith(' keep'));
    const pick = opts.length ? orderOfKey(s, o, opts[Math.floor(u() * opts.length)]!) : null;
    kept.push(pick ? { ...w, order: pick.order } : w);
  }
  const written = s.secret[o].orders.some((w) => w.issuedTurn === s.turn) || writtenThisTurn(s0);
  if (written)
    for (const cmd of orderRecipients(s, o)) {
      if (kept.some((w) => w.to === cmd.id)) continue;
      const opts = orderOptions(s, o, cmd);
      const w = orderOfKey(s, o, opts[Math.floor(u() * opts.length)]!);
      if (w) kept.push({ to: w.to, order: w.order, issuedTurn: s.turn, arrivesTurn: s.turn });
    }
  const secret = [s.secret[0], s.secret[1]] as [SideSecret, SideSecret];
  secret[o] = { orders: kept };
  return { ...s, secret };
}

/** Between S1's reveal and S2: this turn's orders are written and not yet rolled. */
function writtenThisTurn(s: S): boolean {
  return s.phase === 'S1' && !s.stack.some((f) => f.t === 'orders');
}

/** A hash of everything that decides play: the static table by its scenario id and options. */
function hash(s: S) {
  return hashValue({ ...s, ctx: { id: s.ctx.scenarioId, options: s.ctx.options, turns: s.ctx.turns } });
}

/**
 * For search: the share of the enemy's starting strength lost less the share of its own (figures + guns × 3, C3),
 * mapped into [−1, 1]; the result itself once the game is over.
 */
function evaluate(s: S, p: number): number {
  if (s.result) return returns(s)[p]!;
  const side = (q: number) => s.units.filter((u) => u.side === q);
  const mine = lostFraction(s, side(p));
  const theirs = lostFraction(s, side(1 - p));
  return Math.tanh(3 * (theirs - mine));
}

const inch = (n: number) => (n / IN).toFixed(1);

function unitLine(u: UnitState): string {
  const strength = u.kind === 'artillery' ? `${u.guns}/${u.gunsStart} guns` : `${u.figures}/${u.figuresStart} figures`;
  const who = u.name === u.id ? u.id : `${u.id} ${u.name}`; // a unit named by its id is not named twice
  if (u.status !== 'active') return `  ${who} — ${u.status === 'offBoard' ? 'off the table' : u.status}`;
  const kind =
    u.kind === 'infantry'
      ? `${u.class} infantry${u.light ? ' (light)' : ''}`
      : u.kind === 'cavalry'
        ? `${u.class} ${u.weight} cavalry`
        : `${u.class} ${u.mobility} artillery (${u.gunType})`;
  const form = u.kind === 'infantry' && u.formation === 'garrison' ? `garrisoning ${u.garrison}` : u.formation;
  const marks = [
    u.disordered ? 'DISORDER' : '',
    u.spent ? 'SPENT' : u.worn ? 'WORN' : '',
    u.kind === 'cavalry' && u.blown ? 'BLOWN' : '',
    u.kind === 'artillery' && u.suppressed ? 'SUPPRESSED' : '',
    u.attachedLeader ? `leader ${u.attachedLeader} attached` : '',
  ].filter(Boolean);
  return `  ${who} — ${kind}, ${form}, ${strength}, at (${inch(u.pos.x)}, ${inch(u.pos.y)}) facing ${u.facing}°${marks.length ? ` — ${marks.join(', ')}` : ''}`;
}

function render(s: S, viewer?: number): string {
  const lines = [
    `turn ${s.turn}/${s.ctx.turns}, phase ${s.phase}${s.firstSide === null ? '' : `; first in the tactical phase: ${sideName(s, s.firstSide)}`}${viewer === undefined ? '' : ` (as ${PLAYERS[viewer] ?? 'umpire'} sees it)`}`,
  ];
  for (const p of [0, 1] as const) {
    const a = s.armies[p];
    lines.push(
      `${a.name} (${PLAYERS[p]}), ${Math.round(
        lostFraction(
          s,
          s.units.filter((u) => u.side === p),
        ) * 100,
      )}% lost:`,
    );
    for (const cmd of [...s.formations, ...s.elements].filter((c) => c.side === p)) {
      const order = cmd.order ? orderText(s, cmd.order) : cmd.kind === 'element' && cmd.formation ? `its MF's` : 'none';
      lines.push(
        ` ${cmd.kind === 'formation' ? 'MF' : 'ME'} ${cmd.id} ${cmd.name}: order ${order}${cmd.committed ? ', committed' : ''}${cmd.broken ? ', BROKEN' : ''}${cmd.messengerArrivesTurn > s.turn ? `, a messenger arrives in turn ${cmd.messengerArrivesTurn}` : ''}`,
      );
      if (cmd.kind === 'element') for (const id of cmd.units) lines.push(unitLine(s.units.find((u) => u.id === id)!));
    }
    for (const l of s.leaders.filter((x) => x.side === p))
      lines.push(
        `  leader ${l.id} ${l.name} (${l.command}, ${l.inspiration}) — ${l.status}${l.attachedTo ? `, with ${l.attachedTo}` : `, at (${inch(l.pos.x)}, ${inch(l.pos.y)})`}`,
      );
    if (viewer === p || viewer === undefined)
      for (const w of s.secret[p].orders)
        lines.push(`  written (secret): ${w.to} to ${orderText(s, w.order)}, rolled in turn ${w.arrivesTurn}'s S2`);
  }
  return lines.join('\n');
}

/** Quiet for search: a side choosing its next ME, its orders or its leaders, with no fire or close assault pending. */
function quiet(s: S): boolean {
  const t = s.stack[s.stack.length - 1]?.t;
  return t === 'activation' || t === 'orders' || t === 'leaders';
}

/** A unit's, leader's or command's name by id (the id itself when unknown). */
function nameOf(s: S, id: string): string {
  return (
    s.units.find((u) => u.id === id)?.name ??
    s.leaders.find((l) => l.id === id)?.name ??
    [...s.formations, ...s.elements].find((c) => c.id === id)?.name ??
    id
  );
}

const DIRECTIONS: Readonly<Record<string, string>> = {
  fwd: 'straight ahead',
  l22: '22.5° left',
  r22: '22.5° right',
  l45: '45° left',
  r45: '45° right',
  back: 'back (retiring, facing kept)',
  left: 'sideways left (a shift)',
  right: 'sideways right (a shift)',
};

/** An action in words, in the state it is taken in, citing the sheets' step. */
function describeAction(s: S, a: Action): string {
  const w = a.split(' ');
  const n = (i: number) => nameOf(s, w[i]!);
  switch (w[0]) {
    case 'order': {
      const top = s.stack[s.stack.length - 1];
      const side =
        (top?.t === 'orders'
          ? ([0, 1] as const).find((p) => orderOptions(s, p, commandOf(s, w[1]!)).includes(a))
          : 0) ?? 0;
      const o = orderOfKey(s, side, a);
      return o
        ? `order ${commandOf(s, o.to).name} to ${orderText(s, o.order)} (sealed until S2) [S1]`
        : `${commandOf(s, w[1]!).name} keeps its order [S1]`;
    }
    case 'strategic':
      if (w[2] === 'none') return `${n(1)} makes no strategic move [S4]`;
      return `${n(1)} moves strategically${w.includes('road') ? ' along the road' : ''} ${w.includes('toward') ? "toward its order's point" : (w.find((x) => /^(N|NE|E|SE|S|SW|W|NW)$/.test(x)) ?? '')}, ${w.includes('half') ? 'half' : 'all'} its move${w.includes('column') ? ', in march column (or limbered)' : ''}${w.includes('force') ? ', force marching (a skill test: fail = 1 KIA a unit)' : ''} [S4]`;
    case 'initiative':
      return `go ${w[1]} in this turn's tactical phase [S6]`;
    case 'attach':
      return `attach ${n(1)} to ${n(2)} [T1]`;
    case 'detach':
      return `detach ${n(1)} from his unit [T1]`;
    case 'done':
      return w[1] === 'charges' ? 'declare no more charges [T2b]' : 'done with the leaders [T1]';
    case 'activate':
      return `activate ${n(1)} [T2a]`;
    case 'end':
      return 'end the ME activations; then the charges [T2a, T2b]';
    case 'hold':
      return s.stack[s.stack.length - 1]?.t === 'cacWin'
        ? `${n(1)} holds where it won [Close Assault Combat]`
        : `${n(1)} holds [T2a]`;
    case 'fall':
      return `${n(2)} falls back ${w[3]}" in line, disordered (the 0 row, C13) [Close Assault Combat]`;
    case 'fire':
      return `${n(1)} fires at ${n(2)} [T2c, Ranged Fire]`;
    case 'no':
      return w[1] === 'op-charge'
        ? 'no opportunity charge (C8)'
        : `${n(2)} does not ${w[1] === 'fire' ? 'fire after its move [T2c]' : w[1] === 'return' ? 'return fire [T2c]' : 'try to recover [T2d]'}`;
    case 'return':
      return `${n(1)} returns fire at ${n(2)} [T2c, C8]`;
    case 'move':
      return `${n(1)} moves ${DIRECTIONS[w[2]!] ?? w[2]} ${w[3] === 'dq' ? 'at the double quick (+5"/+8", disordered)' : `${w[3]} of its move`}${w[4] ? `, changing to ${w[4]}` : ''} [T2a, Movement]`;
    case 'form':
      return w[2] === 'about' ? `${n(1)} about faces [Movement]` : `${n(1)} changes formation to ${w[2]} [Movement]`;
    case 'recover':
      return `${n(1)} tries to recover from disorder (a skill test) [T2d]`;
    case 'unblow':
      return `${n(1)} recovers from BLOWN [T2d]`;
    case 'charge':
      if (w[1] === 'home') return `${n(2)} charges home into the square [Cavalry Pull Up/Recall]`;
      return `${n(1)} charges ${n(2)}${w[3] === 'dq' ? ' at the double quick' : ''} [T2b]`;
    case 'op-charge':
      return `${n(1)} makes an opportunity charge at ${n(2)} (C8)`;
    case 'react': {
      const r: Readonly<Record<string, string>> = {
        stand: 'stands',
        square: 'forms square (a skill test by where the cavalry began)',
        face: 'turns to face the charge (a skill test)',
        'counter-charge': 'counter-charges',
        evade: 'evades 10" back',
        'fire-evade': `fires and evades to ${w[3] ? nameOf(s, w[3]) : 'friendly infantry'}`,
        abandon: `abandons its guns and evades to ${w[3] ? nameOf(s, w[3]) : 'friendly infantry'}`,
        limber: 'limbers and moves away',
      };
      return `${n(1)} ${r[w[2]!] ?? w[2]} [T2b, reactions]`;
    }
    case 'pull':
      return `${n(2)} tries to pull up (a skill test) [Cavalry Pull Up/Recall]`;
    case 'take':
      return w[1] === 'position'
        ? `${n(2)} takes position where its target stood [Movement notes]`
        : `${n(2)} takes ground, wheeling ${w[4]}° [Close Assault Combat]`;
    case 'pursue':
      return w[2]
        ? `${n(1)} pursues up to 8" into ${n(2)} [Movement notes]`
        : `${n(1)} pursues up to 8" [Movement notes]`;
    case 'exploit':
      return w[2] === 'ahead'
        ? `${n(1)} exploits straight ahead [Close Assault Combat]`
        : `${n(1)} exploits ${w[2]}" [Close Assault Combat]`;
    case 'rally':
      return `${n(2)} tries to rally back 6" (a skill test) [Close Assault Combat]`;
    default:
      return a;
  }
}

export const chargeEaglesRising: Game<S, Action, Scenario> = {
  id: 'charge-eagles-rising',
  title: 'Charge! Eagles Rising',
  version: 1,
  players: PLAYERS,
  defaultScenario: 'the-chapel-crossroads',
  // the sheets' sections and steps, and the digest's ADAPTATIONs
  citation:
    /^(S[1-6]|T[1-3]|T2[a-e]|C(1[0-4]|[1-9])|Turn Sequence|Issuing Orders|Off Board Force Arrival|Skirmish Combat|Markers|Movement|Movement notes|Terrain|Morale|Skill Tests|Cavalry Pull Up\/Recall|Ranged Fire|Artillery Fire|Small Arms Fire|Changing Formation to Square|Close Assault Combat|Close Assault Modifiers|CAC Results|Result explanations|Result Cavalry results explanations|Result Infantry results explanations|Leader Casualties)$/,
  validateScenario: (json: unknown): Validated<Scenario> => validateScenario(json),
  initialState,
  toMove: (s) => cer.toMove(s),
  legalActions: (s) => cer.legalActions(s),
  chanceOutcomes: (s) => cer.chanceOutcomes(s),
  chanceKey: (s) => cer.chanceKey(s),
  apply: (s, a, log?: GameEvent[]) => cer.apply(s, a, log),
  applyUnchecked: (s, a, log?: GameEvent[]) => cer.applyUnchecked(s, a, log),
  actionKey: (a) => a,
  returns,
  resultText: (s) => (s.result ? s.result.text : `in progress (turn ${s.turn}, ${s.phase})`),
  hash,
  describeDecision: (s) => cer.describe(s),
  viewAction: (s, a, viewer) => cer.viewAction(s, a, viewer),
  hidden,
  sealedRound: (s) => cer.sealedRound(s),
  observe,
  sampleState,
  describeAction,
  evaluate,
  quiet,
  policyScores,
  randomScenario,
  render,
  picture: cerPicture,
  encoding: createEncoding(observe),
  rollAsk,
  outcomeForFaces,
  diceFaces,
};
