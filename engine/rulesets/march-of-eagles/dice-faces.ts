/**
 * Real dice at a physical table (`Game.rollAsk`, `Game.outcomeForFaces`, and the faces `diceFaces` shows): each
 * chance node of The March of Eagles as the D6s a person rolls, and the faces read back into the node's outcome class.
 *
 * | frame | dice | read |
 * |---|---|---|
 * | rollOff, initRoll [Setting up a battle, Initiative] | D6 each side | higher total wins; a tie is rolled again (M6) |
 * | scRoll [Supreme Commander], dist [Manoeuvre, Aggression], run [Resolve] | 4D6, nD6, 3D6 | the sum |
 * | firstDie [Aggression] M7 | D6 | the first of the dice already rolled |
 * | obstacle [Manoeuvre] | D6 | the face |
 * | check [Activation, Resolve] | D6 + a die per Character re-roll | first passing die, re-rolls in order |
 * | volley [Accuracy] | a die per shot + a die per sergeant re-roll | hits, a hitting 6, re-rolls of the first misses |
 * | dfBand [Defensive fire] | D6 | 1 long, 2 long or medium (M9), 3–5 medium, 6 short |
 * | combat [Combat process] | D6 attacker, D6 defender | the differential |
 * | combatChars [Risk to characters] | a D6 per Character | lost on M14_combatRisk or more |
 *
 * `charPick` (which Character a volley's 6 kills) is a draw among the figures, not a roll: no dice are asked there.
 */
import { firstDieGivenSum } from '../../core/chance.ts';
import { type RealRoll, diceSpan, plus, realDice } from '../../core/faces.ts';
import { initiativeBonus } from './activation.ts';
import { named } from './common.ts';
import { characters, eng, scWith, top, unit } from './state.ts';
import type { Action, CharType, Frame, MoeState } from './types.ts';

type Faces = readonly number[];

type Roll = RealRoll<Action>;

const d6 = (n: number): number[] => Array.from({ length: n }, () => 6);
const sum = (fs: Faces) => fs.reduce((a, f) => a + f, 0);

/** The modified totals of a roll-off (M6: ties are rolled again). */
function rollOff(what: string, mods: readonly [number, number], names: readonly [string, string]): Roll {
  return {
    what: `${what}: D6${plus(mods[0])} for ${names[0]}, D6${plus(mods[1])} for ${names[1]}`,
    dice: [6, 6],
    read: ([a, b]) => {
      const ta = a! + mods[0];
      const tb = b! + mods[1];
      if (ta === tb) return `${what}: ${ta} each is a tie, rolled again (M6)`;
      return { k: 'c-win', side: ta > tb ? 0 : 1 };
    },
  };
}

/** [Activation, Resolve] a check: the first die, then each Character re-roll in order while it fails. */
function checkRoll(s: MoeState, f: Extract<Frame, { t: 'check' }>): Roll {
  const who = { manoeuvre: 'drummer', bravery: 'officer', rally: 'ensign', resolve: 'ensign' }[f.kind];
  const name = f.kind === 'bravery' ? 'BRAVERY' : f.kind.toUpperCase();
  const pass = (x: number) => x + f.mod >= f.need;
  const rr = f.rerolls
    ? `; ${diceSpan(2, 1 + f.rerolls)} ${f.rerolls === 1 ? 'is the' : 'are'} ${who} re-roll${f.rerolls === 1 ? '' : 's'}, taken in order while it fails (any face for one not needed)`
    : '';
  const what = `${named(s, f.u)}'s ${name} check: D6${plus(f.mod)}, ${f.need}+ passes${rr}`;
  return {
    what,
    dice: d6(1 + f.rerolls),
    read: (fs) => {
      const i = fs.findIndex(pass);
      return i < 0 ? { k: 'c-check', pass: false, used: f.rerolls } : { k: 'c-check', pass: true, used: i };
    },
  };
}

/**
 * [Accuracy] a volley: one die per shot, each hitting on face + mod ≥ need, then the sergeants' re-rolls of the
 * first misses (§6.1). A hitting natural 6 matters when the target has Characters to lose (not a screen).
 */
function volleyRoll(s: MoeState, f: Extract<Frame, { t: 'volley' }>): Roll {
  const trackSix = !f.tscreen && characters(s, unit(s, f.target)) > 0;
  const hit = (x: number) => x + f.mod >= f.need;
  const n = f.dice;
  const rr = f.rerolls
    ? `; ${diceSpan(n + 1, n + f.rerolls)} ${f.rerolls === 1 ? 'is the sergeant re-roll' : 'are the sergeant re-rolls'} of the first misses, in order (any face for one not needed)`
    : '';
  const at = `${unit(s, f.target).name}${f.tscreen ? "'s skirmishers" : ''}`;
  const what = `${unit(s, f.shooter).name}${f.screen ? "'s skirmishers" : ''}'s ${f.defensive ? 'defensive fire' : 'volley'} at ${at}: ${n}D6${plus(f.mod)}, each ${f.need}+ hits${trackSix ? ' (a hitting 6 risks a Character)' : ''}${rr}`;
  return {
    what,
    dice: d6(n + f.rerolls),
    read: (fs) => {
      const first = fs.slice(0, n);
      const h0 = first.filter(hit).length;
      const used = Math.min(f.rerolls, n - h0);
      const counted = [...first, ...fs.slice(n, n + used)];
      const hits = counted.filter(hit).length;
      const six = trackSix && counted.some((x) => x === 6 && hit(x));
      return { k: 'c-hits', hits, six, used };
    },
  };
}

const CHAR_ORDER: readonly CharType[] = ['drum', 'sgt', 'ens', 'off', 'sc'];
const CHAR_NAMES: Readonly<Record<CharType, string>> = {
  drum: 'drummer',
  sgt: 'sergeant',
  ens: 'ensign',
  off: 'officer',
  sc: 'Supreme Commander',
};

/** The loser's Characters in order (drummers, sergeants, ensigns, officers, the Supreme Commander with it). */
function loserChars(s: MoeState, id: string): { which: CharType; n: number }[] {
  const b = unit(s, id);
  const n: Record<CharType, number> = { drum: b.drum, sgt: b.sgt, ens: b.ens, off: b.off, sc: scWith(s, b) ? 1 : 0 };
  return CHAR_ORDER.filter((w) => n[w] > 0).map((which) => ({ which, n: n[which] }));
}

/** [Risk to characters in combat] a D6 for each of the loser's Characters, lost on M14_combatRisk or more. */
function charsRoll(s: MoeState, f: Extract<Frame, { t: 'combatChars' }>): Roll | undefined {
  const groups = loserChars(s, f.lose);
  const total = groups.reduce((a, g) => a + g.n, 0);
  if (!total) return undefined;
  const risk = s.ctx.options.M14_combatRisk;
  let at = 1;
  const parts = groups.map((g) => {
    const p = `${diceSpan(at, at + g.n - 1)} for the ${CHAR_NAMES[g.which]}${g.n > 1 ? 's' : ''}`;
    at += g.n;
    return p;
  });
  return {
    what: `risk to ${named(s, f.lose)}'s Characters after losing the combat: a D6 each, ${risk}+ loses him (${parts.join(', ')})`,
    dice: d6(total),
    read: (fs) => {
      const lost: Record<CharType, number> = { drum: 0, sgt: 0, ens: 0, off: 0, sc: 0 };
      let i = 0;
      for (const g of groups) for (let j = 0; j < g.n; j++) if (fs[i++]! >= risk) lost[g.which]++;
      return { k: 'c-lost', ...lost };
    },
  };
}

/** The roll due at a chance node, undefined where the node is not dice (or no die is rolled). */
function roll(s: MoeState): Roll | undefined {
  const f = top(s);
  if (!f) return undefined;
  switch (f.t) {
    case 'rollOff':
      return rollOff('the roll-off for sides [Setting up a battle]', [0, 0], [s.sides[0].name, s.sides[1].name]);
    case 'initRoll':
      return rollOff(
        `turn ${s.turn}'s initiative [Initiative]`,
        [initiativeBonus(s, 0), initiativeBonus(s, 1)],
        [s.sides[0].name, s.sides[1].name],
      );
    case 'scRoll':
    case 'dist':
    case 'run': {
      const n = f.t === 'dist' ? f.n : f.t === 'run' ? 3 : 4;
      if (n < 1) return undefined;
      const what =
        f.t === 'scRoll'
          ? `the Supreme Commander's free move [Supreme Commander]: 4D6 inches`
          : f.t === 'run'
            ? `${named(s, f.u)} runs in the compulsory moves [Resolve]: 3D6 inches`
            : `${named(s, f.u)}'s ${f.then.k === 'charge' ? 'charge [Aggression]' : 'move [Manoeuvre]'}: ${n}D6 inches`;
      return { what, dice: d6(n), read: (fs) => ({ k: 'c-sum', sum: sum(fs) }) };
    }
    case 'firstDie': {
      const what = `${named(s, f.u)}'s charge over difficult ground (M7): the first of its ${f.n}D6 that made ${f.sum}`;
      const ok = new Set(firstDieGivenSum(f.n, f.sum).map((x) => x.face));
      return {
        what,
        dice: [6],
        read: ([x]) => (ok.has(x!) ? { k: 'c-die', face: x! } : `${what}: a first die of ${x} cannot make ${f.sum}`),
      };
    }
    case 'obstacle':
      return {
        what: `${named(s, f.u)} crosses a linear obstacle [Manoeuvre]: D6 inches lost`,
        dice: [6],
        read: ([x]) => ({ k: 'c-die', face: x! }),
      };
    case 'check':
      return checkRoll(s, f);
    case 'volley':
      return f.dice > 0 ? volleyRoll(s, f) : undefined;
    case 'dfBand': {
      const two = s.ctx.options.M9_band2 === 'long' ? 'long' : 'medium';
      return {
        what: `${named(s, f.def)}'s defensive fire at ${named(s, f.att)}: D6 for the range band [Defensive fire] (1 long, 2 ${two} (M9), 3–5 medium, 6 short)`,
        dice: [6],
        read: ([x]) => ({
          k: 'c-band',
          band: x === 1 || (x === 2 && two === 'long') ? 'long' : x === 6 ? 'short' : 'medium',
        }),
      };
    }
    case 'combat': {
      const e = eng(s, f.e);
      return {
        what: `${named(s, e.att)} against ${named(s, e.def)} [Combat process]: D6${plus(f.ma)} for the attacker, D6${plus(f.md)} for the defender`,
        dice: [6, 6],
        read: ([x, y]) => {
          const m = x! + f.ma - (y! + f.md);
          return { k: 'c-combat', res: m >= 3 ? 'A3' : m > 0 ? 'A' : m === 0 ? 'T' : m > -3 ? 'D' : 'D3' };
        },
      };
    }
    case 'combatChars':
      return charsRoll(s, f);
    default:
      // charPick: which Character falls is drawn among the figures, not rolled
      return undefined;
  }
}

export const { rollAsk, outcomeForFaces } = realDice<MoeState, Action>(roll);

// ---------- faces for display (diceFaces), one per die of rollAsk ----------

const pickOf = <T>(xs: readonly T[], u: () => number): T => xs[Math.min(xs.length - 1, Math.floor(u() * xs.length))]!;
function shuffle<T>(xs: T[], u: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(u() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}
const FACES = [1, 2, 3, 4, 5, 6];

/** Faces of a check (with its re-roll dice) giving (pass, used). */
function checkFaces(f: Extract<Frame, { t: 'check' }>, pass: boolean, used: number, u: () => number): number[] {
  const ok = FACES.filter((x) => x + f.mod >= f.need);
  const bad = FACES.filter((x) => x + f.mod < f.need);
  const out: number[] = [];
  for (let i = 0; i <= f.rerolls; i++)
    out.push(i < used || !pass ? pickOf(bad, u) : i === used ? pickOf(ok, u) : pickOf(FACES, u));
  return out;
}

/** Faces of a volley (with its re-roll dice) giving (hits, six, used). */
function volleyFaces(
  s: MoeState,
  f: Extract<Frame, { t: 'volley' }>,
  a: Extract<Action, { k: 'c-hits' }>,
  u: () => number,
): number[] | undefined {
  const trackSix = !f.tscreen && characters(s, unit(s, f.target)) > 0;
  const n = f.dice;
  const hitF = FACES.filter((x) => x + f.mod >= f.need);
  const miss = FACES.filter((x) => x + f.mod < f.need);
  const plain = trackSix ? hitF.filter((x) => x !== 6) : hitF;
  // hits on the first roll: every miss re-rolled when fewer misses than re-rolls, else at most n − re-rolls
  const lo = a.used < f.rerolls ? n - a.used : Math.max(0, a.hits - a.used);
  const hi = a.used < f.rerolls ? n - a.used : Math.min(n - a.used, a.hits);
  if (lo > hi) return undefined;
  const h0 = lo + Math.floor(u() * (hi - lo + 1));
  const h1 = a.hits - h0;
  if (h1 < 0 || h1 > a.used) return undefined;
  // with a hitting 6, the other hits may show any hitting face; without one, none of them is a 6 (when that counts)
  const hitFace = (six: boolean) => (six ? 6 : pickOf(a.six ? hitF : plain, u));
  if ((a.hits && !(a.six ? hitF.includes(6) : plain.length)) || (a.hits < n + a.used && !miss.length)) return undefined;
  let sixLeft = a.six;
  const part = (h: number, m: number) => {
    const xs: number[] = [];
    for (let i = 0; i < h; i++) {
      xs.push(hitFace(sixLeft));
      sixLeft = false;
    }
    for (let i = 0; i < m; i++) xs.push(pickOf(miss, u));
    return shuffle(xs, u);
  };
  const first = part(h0, n - h0);
  const again = part(h1, a.used - h1);
  const spare = Array.from({ length: f.rerolls - a.used }, () => pickOf(FACES, u));
  return [...first, ...again, ...spare];
}

/** Faces of a roll-off giving the winner (ties are rolled again: never shown). */
function winFaces(mods: readonly [number, number], side: number, u: () => number): number[] | undefined {
  const pairs: number[][] = [];
  for (const x of FACES)
    for (const y of FACES) {
      const d = x + mods[0] - (y + mods[1]);
      if (d !== 0 && (d > 0 ? 0 : 1) === side) pairs.push([x, y]);
    }
  return pairs.length ? pickOf(pairs, u) : undefined;
}

/**
 * Faces for the outcomes the plain helpers do not cover (a check or volley with re-roll dice, a roll-off, the risk to
 * Characters), one per die of `rollAsk`; undefined for the rest.
 */
export function moreFaces(s: MoeState, a: Action, u: () => number): number[] | undefined {
  const f = top(s);
  if (!f) return undefined;
  if (a.k === 'c-check' && f.t === 'check') return checkFaces(f, a.pass, a.used, u);
  if (a.k === 'c-hits' && f.t === 'volley') return volleyFaces(s, f, a, u);
  if (a.k === 'c-win' && (f.t === 'rollOff' || f.t === 'initRoll'))
    return winFaces(f.t === 'rollOff' ? [0, 0] : [initiativeBonus(s, 0), initiativeBonus(s, 1)], a.side, u);
  if (a.k === 'c-lost' && f.t === 'combatChars') {
    const risk = s.ctx.options.M14_combatRisk;
    const out: number[] = [];
    for (const g of loserChars(s, f.lose)) {
      const xs = Array.from({ length: g.n }, (_, i) =>
        i < a[g.which] ? risk + Math.floor(u() * (7 - risk)) : 1 + Math.floor(u() * (risk - 1)),
      );
      out.push(...shuffle(xs, u));
    }
    return out;
  }
  return undefined;
}
