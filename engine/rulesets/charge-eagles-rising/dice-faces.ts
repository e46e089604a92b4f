/**
 * Real dice at a physical table (`Game.rollAsk`, `Game.outcomeForFaces`, and the faces `diceFaces` shows): each
 * chance node of Charge! Eagles Rising as the dice a person rolls, and the faces read back into the node's outcome
 * class by the same tables the handlers' distributions come from (tables.ts), so the two cannot disagree.
 *
 * | frame | dice | read |
 * |---|---|---|
 * | leaderCheck [S1, Leader Casualties] | 2D6 + 2D6 | dice 1–2 the check (11+ hits); dice 3–4 the table, read only on a hit |
 * | leaderTactical [Leader Casualties] | a D6 a KIA + 2D6 | any 6 among the KIA dice: the last two dice on the table |
 * | replacement [Leader Casualties] (C12) | 2D6 | 2–6 one grade worse, 7–10 the same, 11+ one better |
 * | accept [S2, Issuing Orders] (C2) | 2D6 (+2 the CC attached) | at least the rating passes |
 * | arrival [Off Board Force Arrival] (C12) | 2D6 + ME and leader quality | 6+ arrives, 5 or less delayed |
 * | morale [Morale Table] (C10) | 2D6 + leader and class | the state's row, capped after a friend's break |
 * | skirmish, its D10 [Skirmish Combat] (C9) | D10 | the points' column |
 * | skirmishGuns, skill, forceMarch, chargeTest [Skill Tests] | 2D6 | at least the skill number passes |
 * | moveTest [Skill Tests] | 2D6 a test | every test passed: not disordered |
 * | initiative [S6] (C7) | 2D6 + mod for each side | the higher wins; a tie is rolled again |
 * | volley [Ranged Fire] (C3, C11) | a d10 a die (+ a second d10 each when the to-hit is 11 or 12) | hits |
 * | squareTest [Changing Formation to Square] | 2D6 | by the distance row; solid when passed by 4+ |
 * | cac [Close Assault Combat] (C13) | 2D6 attacker + 2D6 defender | the band of the difference, the winner's doubles, whether the winner's 2D6 was the lower |
 *
 * Draws, not dice: where a skirmish hit falls among the target ME's units ("a random unit", C9) is a uniform pick, as
 * March of Eagles' Character pick is: no dice are asked there and the table offers the units themselves. A node with
 * one outcome and no roll behind it (an acceptance made automatic by a Superior CC in contact, a disordered unit's
 * move tests, a square test not allowed, a leader check for no KIA, a volley of no dice) asks for no dice either.
 */
import { type RealRoll, diceSpan, facesAmong, plus, realDice } from '../../core/faces.ts';
import { IN } from '../../geometry/geometry.ts';
import { cacKey, cacMods } from './cac.ts';
import { skillNumberFor } from './casualties.ts';
import { chargeTestNumber, squareNumber } from './charges.ts';
import type { Frame } from './frames.ts';
import { initiativeFactors } from './initiative.ts';
import { armyTest, commandTest } from './morale.ts';
import { acceptanceOf, arrivalOf } from './orders.ts';
import { cer } from './rules.ts';
import { forceMarchNumber } from './strategic.ts';
import {
  ABOVE_TEN,
  ARRIVAL_TABLE,
  LEADER_CHECKS,
  MIN_TO_HIT,
  ORDER_MODIFIERS,
  REPLACEMENT_TABLE,
  arrives,
  cacRoll,
  leaderCasualty,
  moraleResult,
  skirmishHits,
  squareOutcome,
} from './tables.ts';
import { moveTestNumber } from './tactical.ts';
import { type Action, type S, commandOf, elementOf, leaderOf, sideName, unitOf } from './state.ts';

/** An outcome read from faces, boxed: the ruleset's actions are strings, and `realDice` reads a bare string as a refusal. */
type Read = { readonly key: Action };
type Roll = RealRoll<Read>;
type F<T extends Frame['t']> = Extract<Frame, { t: T }>;

const d6 = (n: number): number[] => Array.from({ length: n }, () => 6);
const sum = (fs: readonly number[]) => fs.reduce((a, f) => a + f, 0);
const key = (k: Action): Read => ({ key: k });

/** A 2D6 test passed at `n` or more, as the handlers' `skillTestDist` (C11: 2 or less always passes, over 12 never). */
function test2d6(what: string, n: number, pass: Action, fail: Action): Roll {
  const rule = n <= 2 ? 'every roll passes' : n > 12 ? 'no roll passes' : `${n}+ passes`;
  return {
    what: `${what}: 2D6, ${rule}`,
    dice: [6, 6],
    read: (fs) => key(sum(fs) >= n ? pass : fail),
  };
}

/** Why a unit tests, in words (casualties.ts, charges.ts and cac.ts reasons). */
const REASON: Readonly<Record<string, string>> = {
  worn: 'on becoming WORN (C11)',
  spent: 'on becoming SPENT (C11)',
  skirmishKia: "KIA's from skirmish fire",
  recover: 'removing disorder',
  closing: 'the closing test (C11)',
  counterCharge: 'the counter-charge attempt',
  face: 'facing a flank or rear charge',
  pullUpSquare: 'pulling up before a square',
  pullUpEvade: 'pulling up after its target evaded',
  squareLoss: 'cavalry losing to a square',
  cavTie: 'cavalry after a 0 against infantry',
  rallyBack: 'rallying back',
  notExploit: 'not exploiting after a 3+ win',
  refight: 'worn or spent, before re-fighting (C13)',
  terrain: 'terrain',
  formationChange: 'a formation change in a threat zone',
  retiringCavalry: 'retiring cavalry in a threat zone',
};
const reason = (r: string) => REASON[r] ?? r;

/** The skirmish frame's next roll (skirmish.ts): a firing ME's D10, or where one hit falls (a draw); null: none. */
function skirmishNext(f: F<'skirmish'>): { i: number; kind: 'd10' | 'hit' } | null {
  const i = f.fire.findIndex((x) => x.hits === null);
  if (i >= 0) return { i, kind: 'd10' };
  const j = f.fire.findIndex((x) => x.hit.length < (x.hits ?? 0));
  return j >= 0 ? { i: j, kind: 'hit' } : null;
}

/** [Ranged Fire] how one die of a volley reads (C3, C11): its to-hit after the floor, or every die hitting. */
function volleyRule(s: S, toHit: number): { all: boolean; t: number } {
  if (s.ctx.options.toHitFloor === 1 && toHit <= 1) return { all: true, t: 1 };
  return { all: false, t: Math.max(MIN_TO_HIT, toHit) };
}

/** [Ranged Fire] the volley's dice: one d10 a die, and for a to-hit of 11 or 12 a second d10 each for a natural 10. */
function volleyRoll(s: S, f: F<'volley'>): Roll | undefined {
  if (f.dice <= 0) return undefined;
  const { all, t } = volleyRule(s, f.toHit);
  const above = t === 11 || t === 12;
  const n = f.dice;
  const k = (h: number) => `hits ${f.firer} ${f.target} ${h}`;
  const who = `${unitOf(s, f.firer).name}'s ${f.kind === 'return' ? 'return ' : f.kind === 'closing' ? 'closing ' : ''}fire at ${unitOf(s, f.target).name} [Ranged Fire]`;
  const rule = all
    ? 'every die hits (C11: to-hit floor 1)'
    : t <= 10
      ? `each ${t}+ hits`
      : above
        ? `to-hit ${t}: a natural 10 on ${diceSpan(1, n)} hits when its second d10 (${diceSpan(n + 1, 2 * n)}, in the same order) beats ${ABOVE_TEN[t as 11 | 12]} (any face for one not needed)`
        : 'no die can hit';
  return {
    what: `${who}: ${n}d10, ${rule}`,
    dice: Array.from({ length: above ? 2 * n : n }, () => 10),
    read: (fs) => {
      if (all) return key(k(n));
      let h = 0;
      for (let i = 0; i < n; i++) {
        const x = fs[i]!;
        if (t <= 10 ? x >= t : above && x === 10 && fs[n + i]! > ABOVE_TEN[t as 11 | 12]) h++;
      }
      return key(k(h));
    },
  };
}

/** [Leader Casualties] the table's result on 2D6, as the handlers' keys name it. */
const tableOf = (a: number, b: number) => leaderCasualty(a + b);

/** The roll due at a chance node, undefined where it is not dice (a draw) or nothing is rolled. */
function roll(s: S): Roll | undefined {
  if (cer.toMove(s).kind !== 'chance') return undefined;
  const f = s.stack[s.stack.length - 1] as Frame | undefined;
  if (!f) return undefined;
  switch (f.t) {
    case 'leaderCheck': {
      const l = leaderOf(s, f.leader);
      const at = LEADER_CHECKS.strategicAtLeast;
      return {
        what: `${l.name}'s strategic casualty check [S1, Leader Casualties]: 2D6 (dice 1–2), ${at}+ hits; then 2D6 (dice 3–4) on the table, read only on a hit (2–4 no effect, 5–7 knocked out, 8–10 incapacitated, 11–12 KIA)`,
        dice: d6(4),
        read: ([a, b, c, d]) => key(`leader ${f.leader} ${a! + b! >= at ? tableOf(c!, d!) : 'noEffect'}`),
      };
    }
    case 'leaderTactical': {
      if (f.kias <= 0) return undefined;
      const l = leaderOf(s, f.leader);
      const n = f.kias;
      return {
        what: `${l.name}'s tactical casualty check [Leader Casualties]: a D6 for each of ${n} KIA${n === 1 ? '' : 's'} (${diceSpan(1, n)}), any 6 and the last 2D6 (${diceSpan(n + 1, n + 2)}) go on the table (2–4 no effect, 5–7 knocked out, 8–10 incapacitated, 11–12 KIA; any faces when not needed)`,
        dice: d6(n + 2),
        read: (fs) => {
          const hit = fs.slice(0, n).some((x) => x === LEADER_CHECKS.tacticalOn);
          return key(`leader ${f.leader} ${hit ? tableOf(fs[n]!, fs[n + 1]!) : 'noEffect'}`);
        },
      };
    }
    case 'replacement':
      return {
        what: `the replacement for ${leaderOf(s, f.leader).name} [Leader Casualties] (C12): 2D6, 2–6 one grade worse, 7–10 the same, 11+ one grade better`,
        dice: [6, 6],
        read: (fs) => {
          const r = REPLACEMENT_TABLE.find((x) => sum(fs) >= x.min && sum(fs) <= x.max)!;
          return key(`replacement ${r.shift < 0 ? 'worse' : r.shift > 0 ? 'better' : 'same'}`);
        },
      };
    case 'accept': {
      const a = acceptanceOf(s, f.side, f.to);
      if (a.auto) return undefined;
      const bonus = a.ccAttached ? ORDER_MODIFIERS.ccAttached : 0;
      return {
        what: `${commandOf(s, f.to).name}'s acceptance of its new order [S2, Issuing Orders]: 2D6${plus(bonus)}${a.ccAttached ? ' (the CC attached, C2)' : ''}, ${a.number}+ accepts`,
        dice: [6, 6],
        read: (fs) => key(`accept ${f.to} ${sum(fs) + bonus >= a.number ? 'pass' : 'fail'}`),
      };
    }
    case 'arrival': {
      const { mod } = arrivalOf(s, f.element);
      const on = ARRIVAL_TABLE.find((r) => r.arrives)!.min;
      return {
        what: `${elementOf(s, f.element).name}'s arrival roll [Off Board Force Arrival] (C12): 2D6${plus(mod)}, ${on}+ arrives this turn, less is delayed`,
        dice: [6, 6],
        read: (fs) => key(`arrival ${f.element} ${arrives(sum(fs) + mod) ? 'arrives' : 'delayed'}`),
      };
    }
    case 'morale': {
      const m = f.level === 'army' ? armyTest(s, f.side) : commandTest(s, f.id);
      const who = f.level === 'army' ? `${sideName(s, f.side)} army` : f.id;
      const cap = m.worst === 'broken' ? '' : ` (${m.worst} at worst: a friend broke nearby)`;
      return {
        what: `${m.name}'s morale test [Morale Table, S3] (C10): 2D6${plus(m.mod)} on the ${m.state} row${cap}`,
        dice: [6, 6],
        read: (fs) => key(`morale ${who} ${moraleResult(sum(fs) + m.mod, m.state, m.worst)}`),
      };
    }
    case 'skirmish': {
      const n = skirmishNext(f);
      // where a hit falls is a uniform pick among the target ME's units (C9): a draw, not a roll
      if (n?.kind !== 'd10') return undefined;
      const x = f.fire[n.i]!;
      return {
        what: `${elementOf(s, x.from).name}'s skirmish fire at ${elementOf(s, x.at).name} [Skirmish Combat] (C9): D10 on the ${x.points}-point column`,
        dice: [10],
        read: ([d]) => {
          const h = skirmishHits(d!, x.points);
          return key(`skirmish ${x.from} ${h} ${h === 1 ? 'hit' : 'hits'}`);
        },
      };
    }
    case 'skirmishGuns':
      return test2d6(
        `${unitOf(s, f.unit).name}, damaged by skirmish fire, tests or limbers and withdraws 6" [Skirmish Combat, Skill Tests]`,
        skillNumberFor(s, f.unit, 'skirmishKia') ?? 13,
        `skill ${f.unit} pass`,
        `skill ${f.unit} fail`,
      );
    case 'skill':
      return test2d6(
        `${unitOf(s, f.unit).name}'s skill test (${reason(f.reason)}) [${f.reason === 'recover' ? 'T2d, ' : ''}Skill Tests]`,
        skillNumberFor(s, f.unit, f.reason, f.safe) ?? 13,
        `skill ${f.unit} pass`,
        `skill ${f.unit} fail`,
      );
    case 'forceMarch':
      return test2d6(
        `${elementOf(s, f.element).name}'s force-march skill test [S4, Skill Tests] (fail: 1 KIA a unit)`,
        forceMarchNumber(s, f.element),
        `forceMarch ${f.element} pass`,
        `forceMarch ${f.element} fail`,
      );
    case 'chargeTest':
      return test2d6(
        `${unitOf(s, f.unit).name}'s test (${reason(f.reason)}) [Skill Tests]`,
        chargeTestNumber(s, f),
        `test ${f.unit} ${f.reason} pass`,
        `test ${f.unit} ${f.reason} fail`,
      );
    case 'moveTest': {
      // a unit already disordered takes no test: the move disorders it anyway
      if (unitOf(s, f.unit).disordered || !f.reasons.length) return undefined;
      const ns = f.reasons.map((r) => moveTestNumber(s, f.unit, r));
      const parts = f.reasons.map((r, i) => `${diceSpan(2 * i + 1, 2 * i + 2)} ${reason(r)} ${ns[i]}+`);
      return {
        what: `${unitOf(s, f.unit).name}'s skill test${ns.length > 1 ? 's' : ''} on its move [Skill Tests]: 2D6 each (${parts.join('; ')}), any failed: disordered`,
        dice: d6(2 * ns.length),
        read: (fs) =>
          key(`movetest ${f.unit} ${ns.every((n, i) => fs[2 * i]! + fs[2 * i + 1]! >= n) ? 'pass' : 'fail'}`),
      };
    }
    case 'initiative': {
      const [a, b] = initiativeFactors(s);
      const what = `tactical initiative [S6] (C7)`;
      return {
        what: `${what}: 2D6${plus(a.mod)} for ${sideName(s, 0)} (dice 1–2), 2D6${plus(b.mod)} for ${sideName(s, 1)} (dice 3–4); the higher wins, a tie is rolled again`,
        dice: d6(4),
        read: ([w, x, y, z]) => {
          const ta = w! + x! + a.mod;
          const tb = y! + z! + b.mod;
          if (ta === tb) return `${what}: ${ta} each is a tie, rolled again (C7)`;
          return key(`initiative won by ${sideName(s, ta > tb ? 0 : 1)}`);
        },
      };
    }
    case 'volley':
      return volleyRoll(s, f);
    case 'squareTest': {
      const u = unitOf(s, f.unit);
      const n = squareNumber(s, f.unit, f.beganAt);
      const at = f.beganAt / IN;
      if (n === null) return undefined;
      return {
        what: `${u.name}'s square test [Changing Formation to Square]: 2D6, ${n}+ passes (the cavalry began ${at.toFixed(1)}" away${at >= 5 && at < 12 ? '; passed by 4+: solid square' : ''})`,
        dice: [6, 6],
        read: (fs) => key(`square ${f.unit} ${squareOutcome(sum(fs), n, at, u.disordered)}`),
      };
    }
    case 'cac': {
      const m = cacMods(s, f);
      const a = unitOf(s, f.attackers[0]!);
      const d = unitOf(s, f.defenders[0]!);
      return {
        what: `close assault [Close Assault Combat] (C13): 2D6${plus(m.attacker)} for ${a.name}, the attacker (dice 1–2), 2D6${plus(m.defender)} for ${d.name}, the defender (dice 3–4); the winner's doubles capture, "W < L" compares the natural 2D6`,
        dice: d6(4),
        read: ([w, x, y, z]) => key(cacKey(cacRoll([w!, x!], m.attacker, [y!, z!], m.defender))),
      };
    }
    default:
      return undefined;
  }
}

const real = realDice<S, Read>(roll);

/** `Game.rollAsk`: the dice due at this chance node, in words (undefined: a draw, or nothing rolled). */
export const rollAsk = real.rollAsk;

/** `Game.outcomeForFaces`: the outcome these faces give, or a one-line reason they cannot be. */
export function outcomeForFaces(
  s: S,
  faces: readonly number[],
): { readonly action: Action } | { readonly error: string } {
  const r = real.outcomeForFaces(s, faces);
  return 'error' in r ? r : { action: r.action.key };
}

// ---------- faces for display ----------

const between = (lo: number, hi: number, u: () => number) => lo + Math.min(hi - lo, Math.floor(u() * (hi - lo + 1)));
function shuffle<T>(xs: T[], u: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(u() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/** A volley's faces giving `h` hits. */
function volleyFaces(s: S, f: F<'volley'>, h: number, u: () => number): number[] | undefined {
  const n = f.dice;
  const { all, t } = volleyRule(s, f.toHit);
  if (h < 0 || h > n) return undefined;
  if (all) return Array.from({ length: n }, () => between(1, 10, u));
  if (t <= 10) {
    return shuffle(
      Array.from({ length: n }, (_, i) => (i < h ? between(t, 10, u) : between(1, t - 1, u))),
      u,
    );
  }
  if (t > 12) return h === 0 ? Array.from({ length: n }, () => between(1, 10, u)) : undefined;
  const beat = ABOVE_TEN[t as 11 | 12];
  const hit = shuffle(
    Array.from({ length: n }, (_, i) => i < h),
    u,
  );
  // a miss: a natural 10 whose second die fails, or any other first face
  const first = hit.map((x) => (x ? 10 : between(1, 10, u)));
  const second = hit.map((x, i) =>
    x ? between(beat + 1, 10, u) : first[i] === 10 ? between(1, beat, u) : between(1, 10, u),
  );
  return [...first, ...second];
}

/** [Leader Casualties] tactical: faces giving `r` (any 6 among the KIA dice and the table, or none). */
function leaderTacticalFaces(f: F<'leaderTactical'>, a: Action, u: () => number): number[] | undefined {
  const n = f.kias;
  const r = a.split(' ')[2];
  const pairs: [number, number][] = [];
  for (let x = 1; x <= 6; x++) for (let y = 1; y <= 6; y++) if (tableOf(x, y) === r) pairs.push([x, y]);
  const noSix = () => Array.from({ length: n }, () => between(1, 5, u));
  if (r === 'noEffect' && u() < 0.5) return [...noSix(), between(1, 6, u), between(1, 6, u)];
  const pair = pairs[Math.floor(u() * pairs.length)];
  if (!pair) return undefined;
  const kia = Array.from({ length: n }, () => between(1, 6, u));
  kia[Math.floor(u() * n)] = 6;
  return [...kia, ...pair];
}

/**
 * `Game.diceFaces`: faces that give the chance outcome `a`, one per die of `rollAsk`. A few dice: one of the
 * combinations that give it, drawn uniformly; a volley's or a tactical leader check's many dice: built to give it.
 */
export function diceFaces(s: S, a: Action, u: () => number): readonly number[] | undefined {
  const r = roll(s);
  if (!r) return undefined;
  const f = s.stack[s.stack.length - 1] as Frame;
  if (f.t === 'volley') return volleyFaces(s, f, Number(a.split(' ')[3]), u);
  if (f.t === 'leaderTactical' && f.kias > 2) return leaderTacticalFaces(f, a, u);
  return facesAmong(
    r.dice,
    (fs) => {
      const x = r.read(fs);
      return typeof x !== 'string' && x.key === a;
    },
    u,
  );
}
