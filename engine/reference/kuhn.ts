/**
 * Kuhn poker, the reference game for a hidden card (as in OpenSpiel's `kuhn_poker`): three cards J < Q < K; each
 * player antes 1 chip and is dealt one card face down (one chance node: the 6 ordered deals, each 1/6); then A checks
 * or bets 1; facing a check B checks (showdown for the antes) or bets; facing a bet the other calls (showdown for
 * 2 each) or folds (the bettor takes the pot). Returns are the chips won or lost (±1 or ±2), zero-sum. With best play
 * the game is worth −1/18 to A.
 *
 * What each player sees: its own card, every bet, and the opponent's card only at a showdown. The deal's action key
 * names both cards ("deal Q K": A holds the Queen, B the King); `viewAction` shows a player only its own ("deal Q ?"
 * to A, "deal ? K" to B), the deal's events are secrets addressed to each player, `observe` blanks the unseen card
 * (null) and `sampleState` re-deals it from the two cards the player does not hold.
 *
 * Scenario: `{ "id": … }` (optional "ruleset" and "title"); the rules have nothing to vary.
 */
import { type Encoding, layout } from '../core/encoding.ts';
import { type Game, type GameEvent, IllegalActionError, type Problem, type Validated } from '../core/game.ts';
import { hashValue } from '../core/hash.ts';

/** "deal X Y" (chance: A gets X, B gets Y), or a bet: "check", "bet", "call", "fold". */
export type KuhnAction = string;
type Bet = 'check' | 'bet' | 'call' | 'fold';

export interface KuhnScenario {
  readonly id: string;
  readonly title?: string;
}

export interface KuhnState {
  /** Each player's card, 0 = J, 1 = Q, 2 = K; null before the deal (and, in an observation, a card not seen). */
  readonly cards: readonly (number | null)[];
  /** The bets so far, in order (A acts first). */
  readonly bets: readonly Bet[];
}

const PLAYERS: readonly string[] = ['A', 'B'];
const LETTER = ['J', 'Q', 'K'] as const;
const NAME = ['Jack', 'Queen', 'King'] as const;
const DEALS: readonly (readonly [number, number])[] = [0, 1, 2].flatMap((a) =>
  [0, 1, 2].filter((b) => b !== a).map((b) => [a, b] as const),
);
const dealKey = (a: number, b: number): KuhnAction => `deal ${LETTER[a]} ${LETTER[b]}`;
const TERMINAL = { kind: 'terminal' } as const;
const CHANCE = { kind: 'chance' } as const;
const MOVER = [{ kind: 'player', player: 0 } as const, { kind: 'player', player: 1 } as const];

const dealt = (s: KuhnState): boolean => s.cards[0] !== null || s.cards[1] !== null;
/** The betting is over: check-check, a call or a fold. */
function over(bets: readonly Bet[]): boolean {
  const last = bets.at(-1);
  return last === 'call' || last === 'fold' || (bets.length === 2 && bets[0] === 'check' && last === 'check');
}
const showdown = (s: KuhnState): boolean => over(s.bets) && s.bets.at(-1) !== 'fold';
const facingBet = (bets: readonly Bet[]): boolean => bets.at(-1) === 'bet';
/** `player` has not seen the opponent's card (dealt, and no showdown yet). */
const hidden = (s: KuhnState, player: number): boolean => player >= 0 && dealt(s) && !showdown(s);

function legal(s: KuhnState): KuhnAction[] {
  if (!dealt(s) || over(s.bets)) return [];
  return facingBet(s.bets) ? ['call', 'fold'] : ['check', 'bet'];
}

/** Chips each player has put in the pot. */
function stakes(bets: readonly Bet[]): [number, number] {
  const put: [number, number] = [1, 1]; // [ante]
  bets.forEach((b, i) => {
    if (b === 'bet' || b === 'call') put[i % 2]! += 1;
  });
  return put;
}

/** A's net chips at the end (B's are the negation). */
function netA(s: KuhnState): number {
  const put = stakes(s.bets);
  if (s.bets.at(-1) === 'fold') {
    const folder = (s.bets.length - 1) % 2;
    return folder === 0 ? -put[0] : put[1];
  }
  return s.cards[0]! > s.cards[1]! ? put[1] : -put[0];
}

function applyUnchecked(s: KuhnState, a: KuhnAction, log?: GameEvent[]): KuhnState {
  if (!dealt(s)) {
    const [x, y] = a
      .slice(5)
      .split(' ')
      .map((c) => LETTER.indexOf(c as 'J'));
    log?.push({ rule: 'ante', text: 'A and B each ante 1 chip' });
    [x!, y!].forEach((c, p) =>
      log?.push({
        rule: 'deal',
        text: `${PLAYERS[p]} is dealt the ${NAME[c]}`,
        to: [p],
        redacted: `${PLAYERS[p]} is dealt a card face down`,
      }),
    );
    return { cards: [x!, y!], bets: s.bets };
  }
  const p = s.bets.length % 2;
  const bets = [...s.bets, a as Bet];
  const next = { cards: s.cards, bets };
  const [pa, pb] = stakes(bets);
  log?.push({ rule: 'bet', text: `${PLAYERS[p]} ${a === 'check' ? 'checks' : a === 'bet' ? 'bets 1 chip' : `${a}s`}` });
  if (a === 'fold') log?.push({ rule: 'bet', text: `${PLAYERS[1 - p]} takes the pot of ${pa + pb} chips` });
  else if (over(bets)) {
    const w = netA(next) > 0 ? 0 : 1;
    log?.push({
      rule: 'showdown',
      text: `A shows the ${NAME[s.cards[0]!]}, B the ${NAME[s.cards[1]!]}: ${PLAYERS[w]} takes the pot of ${pa + pb} chips`,
    });
  }
  return next;
}

function validate(json: unknown): Validated<KuhnScenario> {
  if (!json || typeof json !== 'object' || Array.isArray(json))
    return { ok: false, problems: [{ path: '$', message: 'a scenario is a JSON object' }] };
  const j = json as Record<string, unknown>;
  const problems: Problem[] = [];
  if (typeof j.id !== 'string' || !j.id) problems.push({ path: '$.id', message: 'a non-empty string is required' });
  if (j.ruleset !== undefined && j.ruleset !== 'kuhn-poker')
    problems.push({ path: '$.ruleset', message: 'must be "kuhn-poker"' });
  if (j.title !== undefined && typeof j.title !== 'string') problems.push({ path: '$.title', message: 'a string' });
  for (const k of Object.keys(j))
    if (!['id', 'ruleset', 'title'].includes(k)) problems.push({ path: `$.${k}`, message: 'unknown field' });
  if (problems.length) return { ok: false, problems };
  return { ok: true, value: { id: j.id as string, ...(typeof j.title === 'string' ? { title: j.title } : {}) } };
}

const KUHN_STATE = layout([
  { name: 'seat', size: 2, doc: 'one-hot: the viewer is A (first to act) or B' },
  { name: 'my card', size: 3, doc: "one-hot J, Q, K: the viewer's own card (all 0 before the deal)" },
  { name: 'bets', size: 6, doc: 'for each of the up to 3 bets in order: [check or fold, bet or call]' },
]);
const KUHN_ACTION = layout([{ name: 'bet', size: 2, doc: 'one-hot: pass (check or fold), or bet (bet or call)' }]);
const passOrBet = (a: KuhnAction): number => (a === 'check' || a === 'fold' ? 0 : 1);

/** What a player knows at its decision: its seat, its card and the betting; never the opponent's card. */
const encoding: Encoding<KuhnState, KuhnAction> = {
  id: 'kuhn-poker/v1',
  version: 1,
  stateSize: KUHN_STATE.size,
  actionSize: KUHN_ACTION.size,
  stateLayout: KUHN_STATE.blocks,
  actionLayout: KUHN_ACTION.blocks,
  encodeState(s, player, out, at = 0) {
    out.fill(0, at, at + KUHN_STATE.size);
    out[at + player] = 1;
    const mine = s.cards[player];
    if (mine !== null && mine !== undefined) out[at + 2 + mine] = 1;
    s.bets.forEach((b, i) => (out[at + 5 + 2 * i + passOrBet(b)] = 1));
  },
  encodeActions(_s, _p, actions, out, at = 0) {
    out.fill(0, at, at + actions.length * KUHN_ACTION.size);
    actions.forEach((a, j) => (out[at + j * KUHN_ACTION.size + passOrBet(a)] = 1));
  },
  fixed: { size: 2, index: (_s, a) => passOrBet(a) },
};

/** `s` as `player` sees it: the opponent's card blanked until a showdown. */
function observe(s: KuhnState, player: number): KuhnState {
  if (!dealt(s) || showdown(s)) return s;
  return { cards: s.cards.map((c, q) => (q === player ? c : null)), bets: s.bets };
}

function render(s: KuhnState, viewer?: number): string {
  const v = viewer === undefined || viewer < 0 ? s : observe(s, viewer);
  const [pa, pb] = stakes(s.bets);
  const card = (c: number | null) => (c === null ? (dealt(s) ? '?' : '-') : LETTER[c]);
  return [
    `A holds ${card(v.cards[0]!)}, B holds ${card(v.cards[1]!)}; pot ${pa + pb} (A put ${pa}, B ${pb})`,
    `bets: ${s.bets.map((b, i) => `${PLAYERS[i % 2]} ${b}`).join(', ') || '-'}`,
  ].join('\n');
}

export const kuhnPoker: Game<KuhnState, KuhnAction, KuhnScenario> = {
  id: 'kuhn-poker',
  title: 'Kuhn poker (reference: a hidden card)',
  version: 1,
  players: PLAYERS,
  defaultScenario: 'standard',
  citation: /^(ante|deal|bet|showdown)$/,
  validateScenario: validate,
  initialState: () => ({ cards: [null, null], bets: [] }),
  toMove: (s) => (!dealt(s) ? CHANCE : over(s.bets) ? TERMINAL : MOVER[s.bets.length % 2]!),
  legalActions: legal,
  chanceOutcomes: (s) =>
    dealt(s)
      ? []
      : DEALS.map(([a, b]) => ({ action: dealKey(a, b), p: 1 / 6, label: `A ${LETTER[a]}, B ${LETTER[b]}` })),
  chanceKey: () => 'deal',
  apply(s, a, events) {
    const offered = dealt(s) ? legal(s) : DEALS.map(([x, y]) => dealKey(x, y));
    if (!offered.includes(a))
      throw new IllegalActionError(
        String(a),
        over(s.bets) ? 'the hand is over' : `the options here are ${offered.join(', ')}`,
      );
    return applyUnchecked(s, a, events);
  },
  applyUnchecked,
  returns: (s) => {
    const v = netA(s);
    return [v, -v];
  },
  observe,
  sampleState(s, player, u) {
    if (!hidden(s, player)) return s;
    const mine = s.cards[player]!;
    const others = [0, 1, 2].filter((c) => c !== mine);
    const drawn = others[Math.min(1, Math.floor(u() * 2))]!;
    return { cards: s.cards.map((c, q) => (q === player ? c : drawn)), bets: s.bets };
  },
  viewAction(s, a, viewer) {
    if (dealt(s) || (viewer !== 0 && viewer !== 1)) return a;
    const cards = a.slice(5).split(' ');
    return `deal ${viewer === 0 ? cards[0] : '?'} ${viewer === 1 ? cards[1] : '?'}`;
  },
  hidden,
  evaluate: (s, p) => (over(s.bets) ? Math.max(-1, Math.min(1, (p === 0 ? netA(s) : -netA(s)) / 2)) : 0),
  actionKey: (a) => a,
  describeAction: (s, a) => {
    if (!dealt(s)) {
      const [x, y] = a.slice(5).split(' ');
      return `deal A the ${NAME[LETTER.indexOf(x as 'J')]} and B the ${NAME[LETTER.indexOf(y as 'J')]}`;
    }
    return a === 'bet' ? 'bet 1 chip' : a === 'call' ? 'call the bet of 1 chip' : a === 'fold' ? 'fold' : 'check';
  },
  describeDecision: (s) =>
    !dealt(s) || over(s.bets)
      ? ''
      : `${PLAYERS[s.bets.length % 2]}: ${facingBet(s.bets) ? 'call the bet or fold?' : 'check or bet 1 chip?'}`,
  hash: (s) => hashValue(s),
  render,
  resultText: (s) => {
    if (!over(s.bets)) return 'in progress';
    const v = netA(s);
    const w = v > 0 ? 0 : 1;
    const how =
      s.bets.at(-1) === 'fold'
        ? `${PLAYERS[1 - w]} folds`
        : `showdown: A ${LETTER[s.cards[0]!]}, B ${LETTER[s.cards[1]!]}`;
    return `${PLAYERS[w]} wins ${Math.abs(v)} chip${Math.abs(v) === 1 ? '' : 's'} (${how})`;
  },
  encoding,
  randomScenario: (u) => ({ id: `generated-${Math.floor(u() * 1e6)}`, title: 'Kuhn poker' }),
};
