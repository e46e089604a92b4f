/**
 * Goofspiel, the reference game for hidden simultaneous choices (as in OpenSpiel's `goofspiel`): each player holds
 * the cards 1..N; each turn a prize card is turned up and both players bid one of their cards in secret; the bids are
 * revealed together and the higher bid takes the prize's points (equal bids: the prize is discarded); the used cards
 * are gone. After N turns the player with more points wins. The game is symmetric, so its value is 0 for either seat.
 *
 * It is built on the procedure runtime's `sealed` frame, the way Napoleon's Eagles' turn-point bids and Charge!'s
 * written orders are: the runtime keeps the first bid sealed on the frame, redacts its key, its event, the second
 * bidder's observation and hash, and gives search `sealedRound` so it cannot learn the first bid.
 *
 * Scenario: `{ "id": …, "cards": N (1–8, default 4), "order": "random" | "descending" | "ascending" }`; with "random"
 * the prize cards are turned by chance, face up (the draw is public).
 */
import { type Encoding, layout } from '../core/encoding.ts';
import type { Game, GameEvent, Problem, Validated } from '../core/game.ts';
import { hashValue } from '../core/hash.ts';
import { type Handlers, type ProcedureState, procedure, push } from '../core/procedure.ts';

export type GsAction = string;
type Order = 'random' | 'descending' | 'ascending';

export interface GsScenario {
  readonly id: string;
  readonly cards: number;
  readonly order: Order;
}

type GsFrame = { readonly t: 'draw' } | { readonly t: 'bid' };

export interface GsState extends ProcedureState<GsFrame> {
  readonly cards: number;
  readonly order: Order;
  /** Cards left in each hand. */
  readonly hands: readonly (readonly number[])[];
  /** Prize cards not yet turned. */
  readonly deck: readonly number[];
  /** The prize card bid for now (0: none). */
  readonly prize: number;
  readonly points: readonly number[];
  /** Revealed turns: prize and both bids. */
  readonly history: readonly { readonly prize: number; readonly bids: readonly number[] }[];
  readonly over: boolean;
}

const PLAYERS: readonly string[] = ['A', 'B'];
const MAX_CARDS = 8;
const bidKey = (c: number): GsAction => `bid ${c}`;
const prizeKey = (c: number): GsAction => `prize ${c}`;
const cardOf = (a: GsAction): number => Number(a.slice(a.indexOf(' ') + 1));

function turnUp(s: GsState, card: number, log: GameEvent[] | undefined): GsState {
  log?.push({ rule: 'prize', text: `the prize card ${card} is turned up` });
  return push({ ...s, prize: card, deck: s.deck.filter((c) => c !== card) }, { t: 'bid' });
}

const handlers: Handlers<GsState, GsFrame, GsAction> = {
  draw: {
    kind: 'chance',
    outcomes: (s) => s.deck.map((c) => ({ action: prizeKey(c), p: 1 / s.deck.length, label: `prize ${c}` })),
    step: (s, _f, a, log) => turnUp(s, cardOf(a), log),
    describe: () => 'the next prize card',
  },
  bid: {
    kind: 'sealed',
    rule: 'bid',
    owners: () => [0, 1],
    legal: (s, _f, i) => s.hands[i]!.map(bidKey),
    text: (s, _f, i, a) => `${PLAYERS[i]} bids ${cardOf(a)} for the prize ${s.prize} (sealed)`,
    sealedText: (s, _f, i) => `${PLAYERS[i]} bids for the prize ${s.prize} (sealed)`,
    describe: (s, _f, i) => `${PLAYERS[i]}: which card do you bid for the prize ${s.prize}? (in secret)`,
    reveal(s, _f, choices, log) {
      const bids = choices.map(cardOf);
      const [a, b] = bids as [number, number];
      const winner = a > b ? 0 : b > a ? 1 : -1;
      log?.push({
        rule: 'reveal',
        text: `the bids are revealed: A ${a}, B ${b}; ${winner < 0 ? `a tie, the prize ${s.prize} is discarded` : `${PLAYERS[winner]} takes the prize ${s.prize}`}`,
      });
      return {
        ...s,
        hands: s.hands.map((h, i) => h.filter((c) => c !== bids[i])),
        points: s.points.map((p, i) => (i === winner ? p + s.prize : p)),
        history: [...s.history, { prize: s.prize, bids }],
        prize: 0,
      };
    },
  },
};

const runtime = procedure<GsState, GsFrame, GsAction>({
  handlers,
  idle(s, log) {
    if (!s.deck.length) {
      log?.push({ rule: 'end', text: `the last prize is taken: A ${s.points[0]}, B ${s.points[1]}` });
      return { ...s, over: true };
    }
    if (s.order === 'random') return push(s, { t: 'draw' });
    return turnUp(s, s.order === 'descending' ? Math.max(...s.deck) : Math.min(...s.deck), log);
  },
  finished: (s) => s.over,
  actionKey: (a) => a,
});

function validate(json: unknown): Validated<GsScenario> {
  const problems: Problem[] = [];
  if (!json || typeof json !== 'object' || Array.isArray(json))
    return { ok: false, problems: [{ path: '$', message: 'a scenario is a JSON object' }] };
  const j = json as Record<string, unknown>;
  if (typeof j.id !== 'string' || !j.id) problems.push({ path: '$.id', message: 'a non-empty string is required' });
  const cards = j.cards ?? 4;
  if (typeof cards !== 'number' || !Number.isInteger(cards) || cards < 1 || cards > MAX_CARDS)
    problems.push({ path: '$.cards', message: `a whole number of cards from 1 to ${MAX_CARDS} is required` });
  const order = j.order ?? 'random';
  if (order !== 'random' && order !== 'descending' && order !== 'ascending')
    problems.push({ path: '$.order', message: 'must be "random", "descending" or "ascending"' });
  for (const k of Object.keys(j))
    if (!['id', 'ruleset', 'title', 'cards', 'order'].includes(k))
      problems.push({ path: `$.${k}`, message: 'unknown field' });
  if (problems.length) return { ok: false, problems };
  return { ok: true, value: { id: j.id as string, cards: cards as number, order: order as Order } };
}

const GS_STATE = layout([
  { name: 'my hand', size: MAX_CARDS, doc: "1 for each card 1..8 still in the viewer's hand" },
  { name: 'their hand', size: MAX_CARDS, doc: "1 for each card still in the opponent's hand (public)" },
  { name: 'prize', size: MAX_CARDS, doc: 'one-hot prize card being bid for' },
  { name: 'deck', size: MAX_CARDS, doc: 'prize cards not yet turned' },
  { name: 'points', size: 2, doc: "the viewer's and the opponent's points / 36" },
  { name: 'sealed', size: 1, doc: 'the opponent has sealed its bid this turn (its value is not encoded)' },
]);
const GS_ACTION = layout([{ name: 'card', size: MAX_CARDS, doc: 'one-hot card bid' }]);

/** What a bidder sees: both hands (every played card is revealed), the prize, the points, and whether the other has sealed. */
const encoding: Encoding<GsState, GsAction> = {
  id: 'goofspiel/v1',
  version: 1,
  stateSize: GS_STATE.size,
  actionSize: GS_ACTION.size,
  stateLayout: GS_STATE.blocks,
  actionLayout: GS_ACTION.blocks,
  encodeState(s, player, out, at = 0) {
    out.fill(0, at, at + GS_STATE.size);
    const other = 1 - player;
    for (const c of s.hands[player]!) out[at + c - 1] = 1;
    for (const c of s.hands[other]!) out[at + MAX_CARDS + c - 1] = 1;
    if (s.prize) out[at + 2 * MAX_CARDS + s.prize - 1] = 1;
    for (const c of s.deck) out[at + 3 * MAX_CARDS + c - 1] = 1;
    out[at + 4 * MAX_CARDS] = s.points[player]! / 36;
    out[at + 4 * MAX_CARDS + 1] = s.points[other]! / 36;
    out[at + 4 * MAX_CARDS + 2] = runtime.hidden(s, player) ? 1 : 0;
  },
  encodeActions(_s, _p, actions, out, at = 0) {
    out.fill(0, at, at + actions.length * MAX_CARDS);
    actions.forEach((a, j) => (out[at + j * MAX_CARDS + cardOf(a) - 1] = 1));
  },
  fixed: { size: MAX_CARDS, index: (_s, a) => cardOf(a) - 1 },
};

function render(s: GsState, viewer?: number): string {
  const v = viewer === undefined ? s : runtime.redact(s, viewer);
  const sealed = (v.stack.at(-1) as { sealed?: readonly (string | null)[] } | undefined)?.sealed ?? [];
  const lines = [
    `points: A ${s.points[0]}, B ${s.points[1]}; prize ${s.prize || '-'}; prizes to come: ${[...s.deck].sort((a, b) => a - b).join(' ') || '-'}`,
    ...PLAYERS.map((n, i) => `${n} holds ${s.hands[i]!.join(' ') || '-'}`),
  ];
  sealed.forEach((a, i) => lines.push(`${PLAYERS[i]} has bid ${a === null ? '(sealed)' : cardOf(a)}`));
  for (const h of s.history.slice(-3)) lines.push(`prize ${h.prize}: A bid ${h.bids[0]}, B bid ${h.bids[1]}`);
  return lines.join('\n');
}

export const goofspiel: Game<GsState, GsAction, GsScenario> = {
  id: 'goofspiel',
  title: 'Goofspiel (reference: sealed bids revealed together)',
  version: 1,
  players: PLAYERS,
  defaultScenario: 'standard',
  citation: /^(prize|bid|reveal|end)$/,
  validateScenario: validate,
  initialState: (sc) =>
    runtime.settle({
      cards: sc.cards,
      order: sc.order,
      hands: [0, 1].map(() => Array.from({ length: sc.cards }, (_, i) => i + 1)),
      deck: Array.from({ length: sc.cards }, (_, i) => i + 1),
      prize: 0,
      points: [0, 0],
      history: [],
      over: false,
      stack: [],
      nChance: 0,
    }),
  toMove: runtime.toMove,
  legalActions: runtime.legalActions,
  chanceOutcomes: runtime.chanceOutcomes,
  chanceKey: runtime.chanceKey,
  apply: runtime.apply,
  applyUnchecked: runtime.applyUnchecked,
  returns: (s) => {
    const d = Math.sign(s.points[0]! - s.points[1]!);
    return [d, -d];
  },
  observe: (s, p) => runtime.redact(s, p),
  sampleState: (s, p, u) => runtime.sampleSealed(s, p, u),
  viewAction: runtime.viewAction,
  hidden: runtime.hidden,
  sealedRound: runtime.sealedRound,
  evaluate: (s, p) => {
    const total = (s.cards * (s.cards + 1)) / 2;
    return Math.max(-1, Math.min(1, (2 * (s.points[p]! - s.points[1 - p]!)) / total));
  },
  actionKey: (a) => a,
  describeAction: (s, a) =>
    a.startsWith('bid') ? `bid the card ${cardOf(a)} for the prize ${s.prize}` : `turn up ${a}`,
  describeDecision: runtime.describe,
  hash: (s) => hashValue(s),
  render,
  resultText: (s) => {
    const [a, b] = s.points as [number, number];
    return a === b ? `a draw, ${a}–${b}` : `${a > b ? 'A' : 'B'} wins ${Math.max(a, b)}–${Math.min(a, b)}`;
  },
  encoding,
  randomScenario: (u) => ({
    id: `generated-${Math.floor(u() * 1e9)}`,
    cards: 1 + Math.floor(u() * 6),
    order: (['random', 'descending', 'ascending'] as const)[Math.floor(u() * 3)],
  }),
};
