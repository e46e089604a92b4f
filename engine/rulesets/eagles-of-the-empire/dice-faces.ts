/**
 * Real dice at a physical table (`Game.rollAsk`, `Game.outcomeForFaces`, and the faces `diceFaces` shows): each
 * chance node of Eagles of the Empire as the d6s a person rolls, and the faces read back into the node's outcome.
 *
 * | frame (stage) | dice | read |
 * |---|---|---|
 * | weather [5.0] | d6 | the scenario's weather table |
 * | firstRoll [7.0] | d6 each side + the commander's initiative | higher wins; a tie is rolled again |
 * | actDie [8.1], courier [9.12], cbi [9.3], charge pursuitRoll [10.91] (A-20) | d6 | the face |
 * | roll [10.2, 12.0, 14.1] (A-02, A-03) | a d6 per die of every group | hits: a modified 6 or more |
 * | leaderCheck [3.2] | 2d6 + modifier | 12 or more: the leader falls |
 * | routCheck [19.1], assault atkStand/defStand [14.4], charge squareRoll [17.12], gc launch [10.8], rallyRoll [15.1], routRally [15.13], recoverRoll [15.2] | d6 | low faces pass (at or under the target) |
 *
 * Every chance node of the ruleset is a roll of d6s: none is a draw.
 */
import type { ChanceOutcome } from '../../core/game.ts';
import { type RealRoll, diceSpan, facesAmong, plus, realDice } from '../../core/faces.ts';
import { commanderInitiative } from './activation.ts';
import { actionKey } from './notation.ts';
import { eote } from './rules.ts';
import { top } from './state.ts';
import type { Action, EState, Frame, Side } from './types.ts';
import { areaName, formationName, leaderName, sideName, unitName } from './words.ts';
import { leaderDef } from './world.ts';

type Roll = RealRoll<Action>;

const d6 = (n: number): number[] => Array.from({ length: n }, () => 6);

/** One d6, every face an outcome of its own. */
const die = (what: string): Roll => ({ what, dice: [6], read: ([x]) => ({ k: 'c-die', face: x! }) });

/** One d6 passing on a low face: as many faces pass as the node's pass chance says (each face is 1/6). */
function lowPass(outs: readonly ChanceOutcome<Action>[], name: string, pass: string, fail: string): Roll {
  const ok = outs.find((o) => o.action.k === 'c-pass' && o.action.ok);
  const n = Math.round((ok?.p ?? 0) * 6);
  const rule = n <= 0 ? `every face: ${fail}` : n >= 6 ? `every face: ${pass}` : `1–${n}: ${pass}, ${n + 1}–6: ${fail}`;
  return {
    what: `${name}: d6, ${rule}`,
    dice: [6],
    read: ([x]) => ({ k: 'c-pass', ok: x! <= n }),
  };
}

/** [10.2, 12.0, 14.1] (A-02, A-03) hit dice: each die of a group hits on a modified 6 or more. */
function hitRoll(f: Extract<Frame, { t: 'roll' }>): Roll | undefined {
  const drms: number[] = [];
  for (const g of f.dice) for (let i = 0; i < g.n; i++) drms.push(g.drm);
  if (!drms.length) return undefined;
  const parts: string[] = [];
  let at = 1;
  for (const g of f.dice) {
    if (!g.n) continue;
    const need = 6 - g.drm;
    const reads = need <= 1 ? 'every face hits' : need > 6 ? 'no face hits' : need === 6 ? '6 hits' : `${need}+ hits`;
    parts.push(`${diceSpan(at, at + g.n - 1)} d6${plus(g.drm)}: ${reads}`);
    at += g.n;
  }
  return {
    what: `${f.why} [${f.rule}]: ${drms.length}d6, each hitting on a modified 6 (${parts.join('; ')})`,
    dice: d6(drms.length),
    read: (fs) => ({ k: 'c-hits', n: fs.filter((x, i) => x + drms[i]! >= 6).length }),
  };
}

/** The roll due at a chance node (undefined where it is not one). */
function roll(s: EState): Roll | undefined {
  const f = top(s);
  if (!f || eote.toMove(s).kind !== 'chance') return undefined;
  const outs = () => eote.chanceOutcomes(s);
  switch (f.t) {
    case 'weather': {
      const table = s.ctx.scenario.weather.table!;
      const what = `the weather for turn ${s.turn} [5.0]: d6 on the weather table (${table.map((w, i) => `${i + 1} ${w}`).join(', ')})`;
      return {
        what,
        dice: [6],
        read: ([x]) => {
          const w = table[x! - 1]!;
          return { k: 'c-weather', w, faces: table.flatMap((y, i) => (y === w ? [i + 1] : [])) };
        },
      };
    }
    case 'firstRoll': {
      const m: [number, number] = [commanderInitiative(s, 0), commanderInitiative(s, 1)];
      const name = 'the first-player roll [7.0]';
      return {
        what: `${name}: d6${plus(m[0])} for ${sideName(s, 0)}, d6${plus(m[1])} for ${sideName(s, 1)} (the commanders' initiative)`,
        dice: [6, 6],
        read: ([a, b]) => {
          const ta = a! + m[0];
          const tb = b! + m[1];
          if (ta === tb) return `${name}: ${ta} each is a tie, rolled again`;
          return { k: 'c-first', winner: (ta > tb ? 0 : 1) as Side };
        },
      };
    }
    case 'actDie':
      return die(
        `${sideName(s, f.p)}'s activation roll [8.1]: d6 against the commander's initiative ${commanderInitiative(s, f.p)}`,
      );
    case 'courier':
      return die(
        `${sideName(s, f.p)}'s couriers past the enemy HQ in area ${areaName(s, f.area)} [9.12]: d6, 1–4 pass`,
      );
    case 'cbi':
      return die(
        `${leaderName(s, f.leader)}'s command by initiative [9.3]: d6, ${leaderDef(s, f.leader).initiative} or less takes command`,
      );
    case 'roll':
      return hitRoll(f);
    case 'leaderCheck': {
      const name = `${leaderName(s, f.l)}'s casualty check [${f.rule}]`;
      return {
        what: `${name}: 2d6${plus(f.mod)}, 12 or more and he falls`,
        dice: [6, 6],
        read: ([a, b]) => ({ k: 'c-pass', ok: a! + b! + f.mod < 12 }),
      };
    }
    case 'routCheck':
      return lowPass(
        outs(),
        `${unitName(s, f.u)}'s ${f.retest ? 'rout recovery' : f.cascade ? 'cascade rout check' : 'rout check'} [${f.retest ? '19.3' : f.cascade ? '19.21' : '19.1'}]`,
        f.retest ? 'it recovers' : 'it holds',
        f.retest ? 'it stays routed' : 'it routs',
      );
    case 'rallyRoll':
      return lowPass(outs(), `${formationName(s, f.f)}'s rally roll [15.1]`, 'it rallies', 'it stays activated');
    case 'routRally':
      return lowPass(outs(), `${unitName(s, f.u)}'s rout rally roll [15.13]`, 'it rallies', 'it stays routed');
    case 'recoverRoll':
      return lowPass(outs(), `${unitName(s, f.u)}'s recovery roll [15.2]`, 'a step recovered', 'none');
    case 'charge':
      if (f.stage === 'pursuitRoll')
        return die(`the pursuit roll of the cavalry that charged area ${areaName(s, f.target)} [10.91] (A-20): d6`);
      if (f.stage === 'squareRoll')
        return lowPass(
          outs(),
          `the infantry in area ${areaName(s, f.target)} forms square under duress [17.12]`,
          'square formed',
          'disordered',
        );
      return undefined;
    case 'gc':
      return f.stage === 'launch'
        ? lowPass(outs(), `${leaderName(s, f.leader)}'s Grand Charge launch [10.8]`, 'launched', 'it fails')
        : undefined;
    case 'assault':
      if (f.stage === 'atkStand')
        return lowPass(
          outs(),
          `the attackers from area ${areaName(s, f.firedAt)} test to stand [14.4]`,
          'they stand',
          'they fall back',
        );
      if (f.stage === 'defStand')
        return lowPass(
          outs(),
          `the defenders of area ${areaName(s, f.target)} test to stand [14.4]`,
          'they stand',
          'they fall back',
        );
      return undefined;
    default:
      return undefined;
  }
}

export const { rollAsk, outcomeForFaces } = realDice<EState, Action>(roll);

/** Faces for display, one per die of `rollAsk`, that read as outcome `a`. */
export function diceFaces(s: EState, a: Action, u: () => number): number[] | undefined {
  const r = roll(s);
  if (!r) return undefined;
  const want = actionKey(a);
  const f = top(s);
  if (f?.t === 'roll' && a.k === 'c-hits') {
    // which dice hit: those that must (every face hits) and a random choice among those that can
    const drms = f.dice.flatMap((g) => Array.from({ length: g.n }, () => g.drm));
    const must = drms.flatMap((d, i) => (d >= 5 ? [i] : []));
    const can = drms.flatMap((d, i) => (d >= 0 && d < 5 ? [i] : []));
    if (a.n < must.length || a.n > must.length + can.length) return undefined;
    for (let i = can.length - 1; i > 0; i--) {
      const j = Math.floor(u() * (i + 1));
      [can[i], can[j]] = [can[j]!, can[i]!];
    }
    const hit = new Set([...must, ...can.slice(0, a.n - must.length)]);
    return drms.map((d, i) => {
      const need = Math.max(1, 6 - d);
      return hit.has(i) ? need + Math.floor(u() * (7 - need)) : 1 + Math.floor(u() * Math.min(6, need - 1));
    });
  }
  return facesAmong(
    r.dice,
    (fs) => {
      const x = r.read(fs);
      return typeof x !== 'string' && actionKey(x) === want;
    },
    u,
  );
}
