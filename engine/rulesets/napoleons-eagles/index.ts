/**
 * Napoleon's Eagles (1:30) as a registered `Game`: the sequence of play of turn.ts (the secret turn-point bids, the
 * activations, the close actions and morale of each period) with the engine contract around it: the notation
 * (`describeAction`, `describeDecision`), a text picture of the table, dice faces, the evaluation and `quiet` for
 * search, the scripted player (heuristic.ts) and the observation encoding (encoding.ts). Players are the scenario's
 * sides in order ("first", "second"): which of them is side A or side D is decided each period by the bids [p.5].
 */
import type { Game, GameEvent, ToMove, Validated } from '../../core/game.ts';
import { hashValue } from '../../core/hash.ts';
import { IN } from './board.ts';
import { neEncoding } from './encoding.ts';
import { outcomeForFaces, rollAsk } from './dice-faces.ts';
import { randomScenario } from './generate.ts';
import { policyScores } from './heuristic.ts';
import { napoleonsPicture } from './picture.ts';
import { moraleFaces, recoveryDist, reformFace, thresholdDist, thresholdFaces } from './morale.ts';
import { footprint } from './shape.ts';
import { type Scenario, validateScenario } from './scenario.ts';
import { parseRating } from './tables.ts';
import {
  type Action,
  initialSeq,
  internals,
  runtime,
  type SeqState,
  type SeqUnit,
  staffId,
  unitOf,
  victoryPoints,
} from './turn.ts';

const PLAYERS = ['first', 'second'] as const;

const { specOf, tableUnit } = internals;

/** A side's name in the scenario, with its role this period once the bids have decided it. */
function sideLabel(s: SeqState, p: number): string {
  const role = s.sideA === null ? '' : s.sideA === p ? ' (side A)' : ' (side D)';
  return `${s.sc.sides[p]!.name}${role}`;
}

const inch = (n: number) => (n / IN).toFixed(1);

/** One line per unit: id, name, kind, formation, figures, where and facing, and its markers. */
function unitLine(s: SeqState, u: SeqUnit): string {
  const spec = specOf(s, u.id);
  const kind =
    spec.kind === 'infantry'
      ? `${spec.troopClass} infantry${spec.sappers ? ' (sappers)' : ''}`
      : spec.kind === 'cavalry'
        ? `${spec.weight} cavalry`
        : spec.rockets
          ? `${spec.calibre} ${spec.arm} rockets (A-75)`
          : `${spec.calibre} ${spec.arm} artillery${spec.incendiary ? ' (incendiary shells)' : ''}`;
  if (u.status !== 'active')
    return `  ${u.id}${spec.name ? ` ${spec.name}` : ''} — ${u.status}${u.gunsLost ? ' (guns lost)' : ''}`;
  const marks = [
    u.disordered ? 'disordered' : '',
    u.retreating ? `retreat status (${u.recovery} to recover)` : '',
    u.marked ? 'marked for a morale check' : '',
    u.fatigue ? ['', 'fatigued', 'tired', 'exhausted'][u.fatigue]! : '',
    u.ooc ? 'out of command' : '',
    // [p.19] figures per building block
    Object.keys(u.inBlocks).length
      ? `in buildings (${Object.entries(u.inBlocks)
          .map(([b, n]) => `${b}: ${n}`)
          .join(', ')})`
      : '',
    u.locked ? 'in a close action' : '',
    u.stand ? 'stand marker' : '',
    u.activated ? `moved (${(internals.BUDGET - u.halves) / 2} actions left)` : '',
    spec.kind === 'artillery' && u.ammo ? `ammunition ${['normal', 'low', 'very low', 'out'][u.ammo]}` : '',
    // [p.10] A-50 crew hits (it keeps its guns until they neutralise it)
    spec.kind === 'artillery' && u.hits ? `${u.hits} crew hit${u.hits === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const figs = spec.kind === 'artillery' ? `${u.figures} guns` : `${u.figures}/${u.originalFigures} figures`;
  return `  ${u.id}${spec.name ? ` ${spec.name}` : ''} — ${kind}, ${u.formation}, ${figs}, ${spec.rating}, at (${inch(u.x)}, ${inch(u.y)}) facing ${u.facing}°${marks.length ? ` — ${marks.join(', ')}` : ''}`;
}

/** The terrain letter of a point on the table (inches). */
function terrainChar(s: SeqState, x: number, y: number): string {
  const p = { x: x * IN, y: y * IN };
  let c = '.';
  for (const t of s.sc.terrain) {
    if (t.type === 'block') {
      if (x >= t.sw[0] && x < t.sw[0] + 4 && y >= t.sw[1] && y < t.sw[1] + 4) return '#';
    } else if ('polygon' in t && inside(t.polygon, p)) {
      c = t.type === 'woods' ? 'w' : t.type === 'hill' ? '^' : t.type === 'mud' ? 'm' : t.type === 'bridge' ? '=' : c;
    } else if ('points' in t) {
      if (nearLine(t.points, x, y))
        c = t.type === 'road' ? ':' : t.type === 'river' ? '~' : t.type === 'hedge' ? '"' : t.type === 'wall' ? '|' : c;
    }
  }
  return c;
}

function inside(poly: readonly (readonly [number, number])[], p: { x: number; y: number }): boolean {
  let ins = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi * IN > p.y !== yj * IN > p.y && p.x < ((xj - xi) * (p.y - yi * IN)) / (yj - yi) + xi * IN) ins = !ins;
  }
  return ins;
}

function nearLine(points: readonly (readonly [number, number])[], x: number, y: number): boolean {
  const cx = x + 0.5;
  const cy = y + 0.5;
  for (let i = 1; i < points.length; i++) {
    const [ax, ay] = points[i - 1]!;
    const [bx, by] = points[i]!;
    const dx = bx - ax;
    const dy = by - ay;
    const t = Math.max(0, Math.min(1, ((cx - ax) * dx + (cy - ay) * dy) / (dx * dx + dy * dy || 1)));
    if (Math.hypot(ax + t * dx - cx, ay + t * dy - cy) <= 0.5) return true;
  }
  return false;
}

/**
 * The table as text, 1" a character, north up: terrain letters under the units, each unit drawn over its footprint
 * by the first letter of its id (first side) or in lower case (second side), with a ruler every 6".
 */
function picture(s: SeqState): string[] {
  const w = Math.ceil(s.sc.table.width);
  const h = Math.ceil(s.sc.table.height);
  const grid = Array.from({ length: h }, (_, r) => Array.from({ length: w }, (_, x) => terrainChar(s, x, h - 1 - r)));
  const legend: string[] = [];
  const used = new Set<string>();
  for (const u of s.units) {
    if (u.status !== 'active') continue;
    // a distinct glyph per unit: the last character of its id, else a letter not yet used
    let g = u.id.slice(-1);
    g = u.side === 0 ? g.toUpperCase() : g.toLowerCase();
    if (used.has(g) || /[.#w^m=:~"|]/.test(g))
      g = [...'ABCDEFGHIJKLMNOPQRSTUVXYZ'].map((c) => (u.side === 0 ? c : c.toLowerCase())).find((c) => !used.has(c))!;
    used.add(g);
    legend.push(`${g}=${u.id}`);
    const poly = footprint(tableUnit(s, u));
    const xs = poly.map((p) => p.x / IN);
    const ys = poly.map((p) => p.y / IN);
    const pts = poly.map((p) => [p.x / IN, p.y / IN] as const);
    for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y++)
      for (let x = Math.floor(Math.min(...xs)); x <= Math.ceil(Math.max(...xs)); x++) {
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        if (inside(pts, { x: (x + 0.5) * IN, y: (y + 0.5) * IN })) grid[h - 1 - y]![x] = g;
      }
    // the front centre always shows, however thin the unit
    const fx = Math.floor(u.x / IN);
    const fy = Math.floor(u.y / IN);
    if (fx >= 0 && fy >= 0 && fx < w && fy < h) grid[h - 1 - fy]![fx] = g;
  }
  const ruler = `     ${Array.from({ length: w }, (_, x) => (x % 6 === 0 ? String(x).padEnd(6) : '')).join('')}`;
  const rows = grid.map((r, i) => `${String(h - 1 - i).padStart(3)}  ${r.join('')}`);
  return [
    ruler.trimEnd(),
    ...rows,
    ruler.trimEnd(),
    `units: ${legend.join(' ')} (upper case: ${s.sc.sides[0]!.name}; lower case: ${s.sc.sides[1]!.name})`,
    'terrain: w woods, ^ hill, m mud, # building block, = bridge, : road, ~ river, " hedge, | wall',
  ];
}

function render(s: SeqState, viewer?: number): string {
  // turn points are public: a bid is taken from them only when both are revealed [p.5]
  const head = `turn ${s.turn}/${s.turns}, period ${s.period}/6; turn points left: ${s.sc.sides[0]!.name} ${s.points[0]}, ${s.sc.sides[1]!.name} ${s.points[1]}${s.sideA === null ? '' : `; side A: ${s.sc.sides[s.sideA]!.name}`}${viewer === undefined ? '' : ` (as ${s.sc.sides[viewer]?.name ?? 'umpire'} sees it)`}`;
  const vp = victoryPoints(s);
  const lines = [
    head,
    `victory points so far (A-79): ${s.sc.sides[0]!.name} ${vp[0]}, ${s.sc.sides[1]!.name} ${vp[1]}`,
  ];
  lines.push(...picture(s));
  for (const p of [0, 1] as const) {
    lines.push(`${sideLabel(s, p)}:`);
    for (const u of s.units) if (u.side === p) lines.push(unitLine(s, u));
    // [p.10] A-51 abandoned guns and the crews without them (a crew in the open may be fired at and charged)
    for (const g of s.abandoned ?? [])
      if (g.side === p)
        lines.push(
          `  guns of ${g.id} — abandoned at (${inch(g.x)}, ${inch(g.y)})${g.overrunBy ? `, being overrun by ${g.overrunBy}` : ''}`,
        );
    for (const c of s.artCrews ?? [])
      if (c.side === p)
        lines.push(
          `  crew of ${c.id} — ${c.figures} figure${c.figures === 1 ? '' : 's'}, at (${inch(c.x)}, ${inch(c.y)}) — ${internals.crewInCover(s, c) ? 'in cover: not fired at or charged' : 'in the open: may be fired at and charged'}${c.retreating ? ', running to the rear' : ''}`,
        );
    for (const l of s.leaders.filter((x) => x.side === p)) {
      // [p.10] A-56: an appointed grand battery commander, the staff officer in his old post, his batteries
      const a = s.appointed?.find((x) => x.leader === l.id);
      const members = Object.keys(s.gbMembers ?? {}).filter((u) => s.gbMembers![u] === l.id);
      lines.push(
        `  leader ${l.id}${l.lost ? ' (lost: a staff officer stands in)' : ''}${a ? ' (grand battery commander)' : ''} ${l.attached ? `with ${l.attached}` : `at (${inch(l.x)}, ${inch(l.y)})`}${members.length ? `; grand battery: ${members.join(', ')}` : ''}`,
      );
      if (a) lines.push(`  ${staffId(l.id)}, in his old command, at (${inch(a.x)}, ${inch(a.y)})`);
    }
  }
  return lines.join('\n');
}

/** An action in words, from the state it is taken in. */
function describeAction(s: SeqState, a: Action): string {
  const f = s.stack[s.stack.length - 1];
  if (a.startsWith('bid ')) return `bid ${a.slice(4)} of your turn points (sealed until both have bid)`;
  if (a === 'be A') return "be side A: activate two units to the other side's one, first";
  if (a === 'be D') return 'be side D: the other side activates first';
  if (a === 'finish') return 'side A is finished: the period goes on to the leaders and close actions (A-23)';
  // [p.10] A-56 grand batteries
  if (a === 'appoint grand battery' && f?.t === 'leader')
    return `appoint ${f.id} grand battery commander: he rides to the forming point, a staff officer (no bonus) takes his division [p.10, A-56]`;
  if (a === 'join grand battery' && f?.t === 'grandBattery')
    return `${f.unit} joins ${f.officer}'s grand battery: under his command from now on [p.10, A-56]`;
  if (a === 'stay' && f?.t === 'grandBattery') return `${f.unit} stays under its own leader (A-56)`;
  if (a.startsWith('attack ')) {
    const [, from, to, n] = a.split(' ');
    return `${n} figures in block ${from} attack block ${to} [p.19]`;
  }
  if (a.startsWith('fire out '))
    return `block ${a.split(' ')[2]} fires out at ${a.split(' ')[3]} (a 6 on one D6: two casualties) [p.19]`;
  if (a === 'blocks done') return 'no more attacks or fire out from the buildings this step [p.19]';
  // [p.20] the period's end: figures in blocks put out fires or start one (sappers 16-20 and 11-20)
  if (f?.t === 'crews') {
    if (a === 'crews done') return 'no more figures set to put out or start fires this period [p.20]';
    const ext = /^extinguish (\S+) by (\S+) in (\S+)$/.exec(a);
    const sap = (id: string) => internals.isSappers(s, id);
    if (ext)
      return `${ext[2]}'s figures in ${ext[3]} try to put out a fire in ${ext[1]}: one D20 per four figures, ${sap(ext[2]!) ? 'sappers 16-20' : '20'} [p.20]`;
    const set = /^set fire (\S+) by (\S+)$/.exec(a);
    if (set)
      return `${set[2]}'s figures try to start a fire in ${set[1]}: one D20 per two figures, ${sap(set[2]!) ? 'sappers 11-20' : '20'} [p.20]`;
  }
  // [p.10] A-51 a crew's step 8 move
  if (f?.t === 'artCrew' && a.startsWith(`crews ${f.id} `)) {
    const w = a.slice(`crews ${f.id} `.length);
    const what =
      w === 'stay'
        ? 'stays where it is'
        : w === 'rear'
          ? 'runs to the rear (two actions, 12")'
          : w === 'reman'
            ? 're-mans its guns: the battery is restored unlimbered'
            : w === 'spike'
              ? 'spikes its guns: they are destroyed'
              : w === 'to guns' || w === 'toward guns'
                ? `runs ${w === 'to guns' ? 'back to' : 'toward'} its guns`
                : w.startsWith('charge ')
                  ? `charges ${w.slice(7)}, which is on its guns, to retake them (an infantry close action with the battery's MV)`
                  : w.startsWith('to ')
                    ? `runs for cover behind ${w.slice(3)}`
                    : w;
    return `the crew of ${f.id} ${what} [p.10] (A-51)`;
  }
  if (a.startsWith('activate ')) {
    const u = unitOf(s, a.slice(9));
    return `activate ${unitLine(s, u).trim()}`;
  }
  if (f?.t === 'act') {
    const id = f.unit;
    const m = /^(fire|canister|shot) (crew \S+|\S+) (\d)( rapid)?$/.exec(a);
    if (m) {
      const what = m[1] === 'fire' ? 'small-arms fire' : m[1] === 'canister' ? 'canister' : 'solid shot';
      // [p.10] A-51 a crew in the open: fired at in open order
      const at = m[2]!.startsWith('crew ') ? `the crew of ${m[2]!.slice(5)} (in the open, A-51)` : m[2];
      return `${id}: ${what}${m[4] ? ', rapid fire,' : ''} at ${at}, ${m[3]} action${m[3] === '1' ? '' : 's'} [p.8-10]`;
    }
    if (a.startsWith('rockets '))
      return `${id}: rockets at ${a.slice(8)} in its block, one action: a D20 a launcher, 4-20 starts a fire; no other effect [p.20] (A-75)`;
    if (a.startsWith('charge crew '))
      return `${id} charges the crew of ${a.slice(12)} in the open: eliminated on contact, no close action (A-51)`;
    if (a.startsWith('charge ')) return `${id} charges ${a.slice(7)} (one action, ends the activation) [p.13]`;
    if (a.startsWith('move ')) {
      const [, dir, half, dist, ...rest] = a.split(' ');
      return `${id} moves ${dir} ${dist} for ${half === '½' ? 'half an action' : 'one action'}${rest.length ? ` (${rest.join(' ')}°)` : ''} [p.6]`;
    }
    if (a.startsWith('road ')) return `${id} moves along the road: ${a.slice(5)} [p.6]`;
    if (a.startsWith('form ')) return `${id} changes formation to ${a.slice(5)} [p.7]`;
    if (a.startsWith('face ')) return `${id} turns ${a.slice(5)}° [p.7]`;
    if (a === 'about face') return `${id} about faces [p.7]`;
    if (a === 'end') return `${id} ends its activation (a full action unused becomes a stand marker, A-24)`;
    if (a === 'rest') return `${id} rests one action: fatigue −1 [p.5]`;
    if (a === 'reform') return `${id} reforms: no longer disordered [p.6]`;
    if (a === 'force march') return `${id} force-marches: two more half-actions to move, fatigue +2 [p.6]`;
    if (a === 'recover') return `${id} spends an action recovering from retreat status [p.12]`;
    // [p.19] the buildings
    const w = a.split(' ');
    if (w[0] === 'enter')
      return `${id} enters block ${w[1]} (one action), its figures placed ${w.slice(2).join(', ')} [p.19]`;
    if (w[0] === 'blockMove')
      return `${id} moves ${w[3]} figures from ${w[1] === 'outside' ? 'outside the town' : `block ${w[1]}`} to block ${w[2]} (one action) [p.19]`;
    if (w[0] === 'leave')
      return `${id} leaves the buildings by side ${w[2]} of block ${w[1]}: column, disordered [p.19]`;
  }
  return a;
}

/** Dice faces consistent with a chance outcome, for display. */
function diceFaces(s: SeqState, a: Action, u: () => number): readonly number[] | undefined {
  const f = s.stack[s.stack.length - 1];
  if (!f) return undefined;
  const d = (k: number) => 1 + Math.floor(u() * k);
  switch (f.t) {
    case 'tiebreak': {
      // [p.5] the last (unequal) pair of D6s
      const hi = 2 + Math.floor(u() * 5);
      const lo = 1 + Math.floor(u() * (hi - 1));
      return a === 'tie-break first' ? [hi, lo] : [lo, hi];
    }
    case 'leaderLoss': {
      // [p.16] D10: lost on `upTo` or less
      const lost = a === 'leader lost';
      if (lost) return [1 + Math.floor(u() * Math.min(10, f.upTo))];
      return [f.upTo + 1 + Math.floor(u() * (10 - f.upTo))];
    }
    case 'counterCheck': {
      // [p.15] D20 against the raw morale rating
      const r = parseRating(specOf(s, f.cavalry).rating).morale;
      const ok = a === 'counter charges';
      const lo = ok ? 1 : Math.min(20, r + 1);
      const hi = ok ? Math.min(20, r) : 20;
      return hi >= lo ? [lo + Math.floor(u() * (hi - lo + 1))] : [d(20)];
    }
    case 'morale':
      return moraleFaces(internals.moraleInput(s, f.unit), a.slice('morale '.length) as never, u);
    case 'reformRoll': {
      const input = internals.retreatInput(s, f.unit, f.inches, f.limber);
      const total = Number(a.slice('reform '.length));
      if (!recoveryDist(input).some((x) => x.value === total)) return undefined;
      return [reformFace(input, total, u)];
    }
    case 'threshold': {
      const input = internals.thresholdInput(s, f.side, f.division, f.influence);
      const o = thresholdDist(input).find((x) => `threshold ${x.label}` === a);
      if (!o) return undefined;
      const r = thresholdFaces(input, o.value, u);
      return r.d10 === undefined ? [r.d20] : [r.d20, r.d10];
    }
    default:
      return undefined;
  }
}

/**
 * For search (A-79's points, and the strength left): the victory-point margin, each point worth about a quarter of a
 * unit's figures, with the figures each side has lost, mapped into [−1, 1].
 */
function evaluate(s: SeqState, p: number): number {
  if (s.over) {
    const r = returns(s);
    return r[p]!;
  }
  const vp = victoryPoints(s);
  const lost = [0, 0];
  const had = [0, 0];
  for (const u of s.units) {
    const spec = specOf(s, u.id);
    if (spec.kind === 'artillery') continue;
    had[u.side]! += u.originalFigures;
    lost[u.side]! += u.status === 'active' ? u.originalFigures - u.figures : u.originalFigures;
  }
  const frac = (i: number) => (had[i] ? lost[i]! / had[i]! : 0);
  const q = 1 - p;
  const x = (vp[p]! - vp[q]!) / 4 + 3 * (frac(q) - frac(p));
  return Math.tanh(x);
}

function returns(s: SeqState): readonly number[] {
  if (s.conceded === 'both') return [0, 0];
  if (s.conceded !== null) return s.conceded === 0 ? [-1, 1] : [1, -1];
  const vp = victoryPoints(s);
  const d = vp[0] - vp[1];
  if (Math.abs(d) < s.sc.victory.drawMargin) return [0, 0];
  return d > 0 ? [1, -1] : [-1, 1];
}

/** Quiet for search: a side choosing its next unit or bidding, with no close action waiting and nothing marked. */
function quiet(s: SeqState): boolean {
  const t = s.stack[s.stack.length - 1]?.t;
  return (t === 'pick' || t === 'bid') && !s.closes.length && !s.units.some((u) => u.marked > 0);
}

export const napoleonsEagles: Game<SeqState, Action, Scenario> = {
  id: 'napoleons-eagles',
  title: "Napoleon's Eagles (1:30)",
  version: 1,
  players: PLAYERS,
  defaultScenario: 'the-mill-at-kleinau',
  // the book's pages, with steps of the period or of a close action, and the digest's ADAPTATIONs
  citation: /^(p\.\d+( steps? \d+(-\d+)?)?|A-\d+)$/,
  validateScenario: (json: unknown): Validated<Scenario> => validateScenario(json),
  initialState: (sc: Scenario) => runtime.settle(initialSeq(sc)),
  toMove: (s): ToMove => runtime.toMove(s),
  legalActions: (s) => runtime.legalActions(s),
  chanceOutcomes: (s) => runtime.chanceOutcomes(s),
  chanceKey: (s) => runtime.chanceKey(s),
  apply: (s, a, log?: GameEvent[]) => runtime.apply(s, a, log),
  applyUnchecked: (s, a, log?: GameEvent[]) => runtime.applyUnchecked(s, a, log),
  actionKey: (a) => a,
  returns,
  resultText: (s) =>
    s.over
      ? internals.resultText(s)
      : `in progress (turn ${s.turn}, period ${s.period}; victory points ${victoryPoints(s).join(' to ')})`,
  hash: (s) => hashValue({ ...s, sc: s.scenarioId }),
  describeDecision: (s) => runtime.describe(s),
  viewAction: (s, a, viewer) => runtime.viewAction(s, a, viewer),
  hidden: (s, p) => runtime.hidden(s, p),
  sealedRound: (s) => runtime.sealedRound(s),
  observe: (s, p) => runtime.redact(s, p),
  sampleState: (s, p, u) => runtime.sampleSealed(s, p, u),
  describeAction,
  evaluate,
  quiet,
  policyScores,
  diceFaces,
  rollAsk,
  outcomeForFaces,
  encoding: neEncoding,
  randomScenario,
  render,
  picture: (s, viewer) => napoleonsPicture(s, viewer),
};
