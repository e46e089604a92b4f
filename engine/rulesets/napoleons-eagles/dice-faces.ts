/**
 * Real dice at a physical table (assistant mode): `rollAsk` names the dice a chance node of turn.ts rolls, and
 * `outcomeForFaces` reads the faces a person rolled into the chance outcome they give, by the same rules that build
 * the outcome classes (close.ts, fire.ts, morale.ts, buildings.ts, tables.ts): a D20 check passes on its modified
 * morale or less, the melee D6s multiply the MVs, the casualty D6s read the Close Action Casualty Chart, a fire's D6s
 * are read by fire.ts's own `outcomeOfFaces`, and so on. Where the classes are merged from several dice (a close action
 * from step 5, a cavalry charge, a fire with its ammunition dice), every die is asked for, in the order the rules roll
 * them; a die the rules then do not need (the loser's check after a tie, a fraction die with no fraction left) is read
 * but changes nothing. A node with a single outcome (nothing left to chance) asks for no dice.
 */
import {
  cavalryVsScreen,
  chargerCheck,
  defenderCheck,
  loserCheck,
  meleeCasualtyRolls,
  meleeResultOf,
  meleeWinner,
  type MoraleInput as CloseMoraleInput,
  outOfControlCheck,
  resolveCavalryCharge,
  resolveCloseAction,
  riddenDownCheck,
  rideDownLosses,
  severalChargersMelee,
} from './close.ts';
import { blockAttackFight } from './buildings.ts';
import { type FaceRoll, outcomeKey, outcomeOfFaces, resolveFire } from './fire.ts';
import {
  firstDice,
  mayNeedSurrenderDie,
  modifiedMorale,
  orderChangeModifiers,
  recoveryActions,
  reformModifiers,
  resolveMorale,
  thresholdDist,
  thresholdModifiers,
} from './morale.ts';
import {
  BUILDINGS,
  closeActionCasualties,
  FIRES,
  fireStarts,
  MISREAD,
  meleeValue,
  misreadOrder,
  orderDelay,
  outOfControl,
  parseRating,
  THRESHOLD,
} from './tables.ts';
import { type Action, type Frame, internals, runtime, type SeqState, unitOf } from './turn.ts';

type Read = Action | { readonly error: string };

/** A chance node's roll: the dice (sides of each), in words, and how faces read into an outcome. */
interface Roll {
  readonly what: string;
  readonly dice: readonly number[];
  readonly read: (faces: readonly number[]) => Read;
}

const sum = (ms: readonly { readonly value: number }[]) => ms.reduce((t, m) => t + m.value, 0);
const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
const dN = (n: number, k: number) => (n === 1 ? `D${k}` : `${n} D${k}`);
const times = (n: number, k: number) => Array.from({ length: n }, () => k);
/** A D20 check in words: "D20, 11 or less passes". */
const d20 = (target: number, pass = 'passes') =>
  target >= 20 ? `D20, any face ${pass}` : target < 1 ? `D20, no face ${pass}` : `D20, ${target} or less ${pass}`;

/** Canonical JSON (keys sorted), to match a value read from faces with the classes' values. */
function canon(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/**
 * The chance outcome whose class value equals `value`: the handlers list their outcomes one per class of `dist`, in
 * its order.
 */
function byClass(s: SeqState, dist: readonly { readonly value: unknown }[], value: unknown, what: string): Read {
  const outs = runtime.chanceOutcomes(s);
  const k = canon(value);
  const i = dist.findIndex((d) => canon(d.value) === k);
  if (i < 0 || outs.length !== dist.length) return { error: `${what}: these faces give no outcome listed here` };
  return outs[i]!.action;
}

const nameOf = (s: SeqState, p: number) => s.sc.sides[p]!.name;

/** The roll of the chance node on top of the stack, or undefined (not a roll, or nothing left to chance). */
function rollOf(s: SeqState): Roll | undefined {
  if (runtime.toMove(s).kind !== 'chance') return undefined;
  const f = s.stack[s.stack.length - 1];
  if (!f || runtime.chanceOutcomes(s).length < 2) return undefined;
  return ROLLS[f.t]?.(s, f as never);
}

type RollOf<T extends Frame['t']> = (s: SeqState, f: Extract<Frame, { t: T }>) => Roll | undefined;

/** One reader per kind of chance frame (turn.ts), the dice in the order the rules roll them. */
const ROLLS: { readonly [T in Frame['t']]?: RollOf<T> } = {
  // [p.5] a D6 each, equal rolls rolled again
  tiebreak: (s) => ({
    what: `equal bids: a D6 each (${nameOf(s, 0)}, then ${nameOf(s, 1)}), the higher chooses side A or D, equal rolls rolled again [p.5]`,
    dice: [6, 6],
    read: ([a, b]) =>
      a! > b!
        ? 'tie-break first'
        : a! < b!
          ? 'tie-break second'
          : { error: `the bids' tie-break: ${a} and ${b} are equal: roll both D6 again [p.5]` },
  }),
  // [p.16] D10, lost on upTo or less
  leaderLoss: (_s, f) => ({
    what: `${f.leader}'s leader loss roll: D10, lost on ${f.upTo} or less [p.16]`,
    dice: [10],
    read: ([d]) => (d! <= f.upTo ? 'leader lost' : 'leader safe'),
  }),
  // [p.15] the raw morale rating
  counterCheck: (s, f) => {
    const r = parseRating(internals.specOf(s, f.cavalry).rating).morale;
    return {
      what: `${f.cavalry}'s counter-charge check: ${d20(r, 'counter-charges')} [p.15]`,
      dice: [20],
      read: ([d]) => (d! <= r ? 'counter charges' : 'counter stays'),
    };
  },
  // [p.11-12] one D20 (two against echelon cavalry), a surrounded unit's second check after them
  morale: (s, f) => {
    const i = internals.moraleInput(s, f.unit);
    const n = firstDice(i);
    const surr = mayNeedSurrenderDie(i);
    if (n + (surr ? 1 : 0) === 0) return undefined;
    const m = modifiedMorale(i);
    return {
      what: `${f.unit}'s morale check: ${n > 1 ? `${n} D20, all ${m} or less to pass` : d20(m)}${surr ? `; then a D20 for the surrounded unit's second check, ${m} or less rallies (read only if it must retreat)` : ''} [p.11-12]`,
      dice: times(n + (surr ? 1 : 0), 20),
      read: (faces) => `morale ${resolveMorale(i, faces).result}`,
    };
  },
  // [p.12] 1D6 + modifiers on the reform table, with the retreat's actions
  reformRoll: (s, f) => {
    const input = internals.retreatInput(s, f.unit, f.inches, f.limber);
    const mod = sum(reformModifiers(input));
    return {
      what: `${f.unit}'s reform roll: D6${mod ? ` ${signed(mod)}` : ''}, the recovery actions it owes [p.12]`,
      dice: [6],
      read: ([d]) => `reform ${recoveryActions(input, d!)}`,
    };
  },
  // [p.11] D20 ≤ 8 + modifiers; with influence a D10 ≤ it costs the leader
  threshold: (s, f) => {
    const input = internals.thresholdInput(s, f.side, f.division, f.influence);
    const target = THRESHOLD.passMax + sum(thresholdModifiers(input));
    const inf = f.influence ?? 0;
    const who = f.division === null ? `${nameOf(s, f.side)}' army` : `division ${f.division}`;
    const dist = thresholdDist(input);
    return {
      what: `${who}'s threshold roll: ${d20(target)}${inf ? `; a D10, ${inf} or less and the influencing leader is lost` : ''} [p.11]`,
      dice: inf ? [20, 10] : [20],
      read: ([a, b]) => {
        const value = { pass: a! <= target, leaderLost: inf > 0 && b! <= inf };
        const d = dist.find((x) => x.value.pass === value.pass && x.value.leaderLost === value.leaderLost);
        return d ? `threshold ${d.label}` : { error: `${who}'s threshold roll: no such result here` };
      },
    };
  },
  // [p.17] D20 ≤ the initiative number
  initiative: (_s, f) => ({
    what: `${f.leader}'s initiative roll: ${d20(f.initiative, 'keeps him in command')} [p.17]`,
    dice: [20],
    read: ([d]) => (d! <= f.initiative ? 'initiative pass' : 'initiative fail'),
  }),
  // [p.15] D20 + modifiers, out of control on a modified 20
  oocRoll: (s, f) => {
    const t = sum(outOfControlCheck(internals.oocInput(s, f.unit, f.win, f.leader)).mods);
    return {
      what: `${f.unit}'s out-of-control roll: D20${t ? ` ${signed(t)}` : ''}, a modified 20 or more and it is out of control [p.15]`,
      dice: [20],
      read: ([d]) => (outOfControl(d!, t) ? 'out of control' : 'in control'),
    };
  },
  // [p.17] 1D6 + modifiers periods (1 or less: the next)
  orderDelay: (s, f) => {
    const mod = sum(orderChangeModifiers(internals.orderChangeInput(s, f.division, f.order.order)));
    return {
      what: `the D6${mod ? ` ${signed(mod)}` : ''} for the periods ${f.division}'s new order takes to arrive [p.17]`,
      dice: [6],
      read: ([d]) => `delay ${f.division} ${orderDelay(d!, mod)}`,
    };
  },
  // [p.18] D20 (+1 poor officer, +2 very bad), 19 or more misreads; then the table's D6
  misread: (s, f) => {
    const officer = s.sc.sides.flatMap((x) => x.leaders).find((l) => l.id === f.division)?.misread ?? 0;
    return {
      what: `${f.division}'s misread roll: D20${officer ? ` +${officer}` : ''}, ${MISREAD.min} or more misreads the order; then a D6 on the misread table (read only when misread) [p.18]`,
      dice: [20, 6],
      read: ([a, b]) =>
        `misread ${f.division} ${a! + officer >= MISREAD.min ? misreadOrder(f.order.order, b!) : 'asWritten'}`,
    };
  },
  // [p.20] one D20 per four figures, each 16-20 (sappers) or 20 (all others) puts out one fire; sappers' dice first
  extinguish: (s, f) => {
    const per = FIRES.figuresPerExtinguishRoll;
    const c = internals.crewSplit(s, f.block);
    const ns = Math.floor(c.sappers / per);
    const no = Math.floor(c.others / per);
    const fires = internals.firesIn(s, f.block);
    const sap = FIRES.extinguish.sappers;
    const oth = FIRES.extinguish.others;
    if (ns + no < 1) return undefined;
    const groups = [
      ...(ns ? [`${dN(ns, 20)} of sappers, each ${sap.label}`] : []),
      ...(no ? [`${dN(no, 20)}${ns ? ' of the others' : ''}, each ${oth.label}`] : []),
    ];
    return {
      what: `putting out the fires of ${f.block}: ${groups.join(', then ')} puts one out [p.20]`,
      dice: times(ns + no, 20),
      read: (faces) => {
        const put =
          faces.slice(0, ns).filter((x) => x >= sap.min && x <= sap.max).length +
          faces.slice(ns).filter((x) => x >= oth.min && x <= oth.max).length;
        return `extinguish ${f.block} ${Math.max(0, fires - put)}`;
      },
    };
  },
  // [p.20] one D20: 14-18 one more fire, 19-20 one more and it spreads downwind
  burn: (s, f) => {
    const fires = internals.firesIn(s, f.block);
    const up = Math.min(FIRES.maxPerBlock, fires + 1);
    const a = FIRES.accumulate;
    const sp = FIRES.accumulateAndSpread;
    return {
      what: `the fire in ${f.block}: D20, ${a.label} one more fire, ${sp.label} one more and it spreads downwind [p.20]`,
      dice: [20],
      read: ([d]) =>
        d! >= sp.min && d! <= sp.max
          ? `burn ${f.block} ${up} spreads`
          : `burn ${f.block} ${d! >= a.min && d! <= a.max ? up : fires}`,
    };
  },
  // [p.20] the fire-starting D20s (each group on its column, in the order named): one fire starts if any die makes it
  ignite: (s, f) => {
    const brick = internals.blockById(s, f.block).brickOrStone;
    const fires = internals.firesIn(s, f.block);
    const groups = internals.igniteDice(f);
    return {
      what: `starting a fire in ${f.block}: ${internals.igniteText(f)}${brick ? ' (−1: brick or stone)' : ''}, any die making its number starts one [p.20]`,
      dice: times(
        groups.reduce((n, g) => n + g.rolls, 0),
        20,
      ),
      read: (faces) => {
        let i = 0;
        let lit = false;
        for (const g of groups) {
          if (faces.slice(i, i + g.rolls).some((d) => fireStarts(g.source, d, brick))) lit = true;
          i += g.rolls;
        }
        return `ignite ${f.block} ${lit ? Math.min(FIRES.maxPerBlock, fires + 1) : fires}`;
      },
    };
  },
  // [p.8-11] the shot's D6s, read by fire.ts
  fire: (s, f) => fireRoll(s, f),
  // [p.13 step 5] A-73 the charger of a block
  blockCheck: (s, f) => {
    const c = internals.blockChargerCheck(s, f.i);
    if (!c) return undefined;
    const x = s.blockAttacks[f.i]!;
    return {
      what: `${x.attackers[0]!.unit}'s check to close on block ${x.target}: ${d20(c.target, 'closes')} [p.13 step 5]`,
      dice: [20],
      read: ([d]) => `charger ${d! <= c.target ? 'closes' : 'fails'}`,
    };
  },
  // [p.19] a D6 each, the higher total wins (a tie holds for the defender), an unmodified 6 kills two
  blockFight: (s, f) => {
    const a = internals.fightable(s, f.i);
    if (!a) return undefined;
    const fight = blockAttackFight(internals.townOf(s), a);
    const am = sum(fight.attackerMods);
    const dm = sum(fight.defenderMods);
    const what = `the fight for block ${a.target}: a D6 for the attackers${am ? ` (${signed(am)})` : ''}, then one for the defenders${dm ? ` (${signed(dm)})` : ''}; the higher wins, a tie holds, a 6 kills two [p.19]`;
    return {
      what,
      dice: [6, 6],
      read: ([x, y]) =>
        byClass(
          s,
          fight.dist,
          {
            winner: x! + am > y! + dm ? 'attacker' : 'defender',
            attackerLosses: y === 6 ? BUILDINGS.naturalSixKills : 0,
            defenderLosses: x === 6 ? BUILDINGS.naturalSixKills : 0,
          },
          what,
        ),
    };
  },
  // [p.13 step 2] the defender's check (two against echelon cavalry)
  closeCheck: (s, f) => {
    const c = s.closes[f.close]!;
    const chk = defenderCheck(internals.closeMorale(s, c, 'defender'), {
      cavalryVsInfantryOrArtillery: c.rideDown,
      echelon: c.rideDown && unitOf(s, c.charger).formation === 'echelon',
    });
    const fail = chk.dist.find((d) => d.value !== 'stands')?.value ?? 'retreats';
    if (chk.checks < 1) return undefined;
    return {
      what: `${c.defender}'s check against the charge: ${chk.checks > 1 ? `${chk.checks} D20, all ${chk.target} or less to stand` : d20(chk.target, 'stands')} [p.13 step 2]`,
      dice: times(chk.checks, 20),
      read: (faces) => `defender ${faces.every((d) => d <= chk.target) ? 'stands' : fail}`,
    };
  },
  // [p.13-14 step 4] a defence facing or formation change
  defenceChange: (s, f) => {
    const c = s.closes[f.close]!;
    const chk = internals.defenceChangeCheckOf(s, f.close);
    return {
      what: `${c.defender}'s check for its defence change: ${d20(chk.target, 'makes it')}, else disordered [p.13 step 4]`,
      dice: [20],
      read: ([d]) => `defence ${d! <= chk.target ? 'changed' : 'disordered'}`,
    };
  },
  // [p.13 step 5] each charger's own check (A-65)
  multiClose: (s, f) => {
    const c = s.closes[f.closes[f.k]!]!;
    if (!internals.closeAlive(s, c)) return undefined;
    const chk = chargerCheck(internals.closeMorale(s, c, 'charger'), {
      cavalry: internals.specOf(s, c.charger).kind === 'cavalry',
      outOfControl: c.outOfControl,
    });
    return {
      what: `${c.charger}'s check to close with ${c.defender}: ${d20(chk.target, 'closes')} [p.13 step 5]`,
      dice: [20],
      read: ([d]) => `charger ${d! <= chk.target ? 'closes' : 'fails'}`,
    };
  },
  // [p.13 step 8] the loser's check
  closeLoser: (s, f) => {
    const c = s.closes[f.close]!;
    const chk = internals.loserCheckOf(s, f.close, f.who);
    return {
      what: `${f.who === 'charger' ? c.charger : c.defender} lost: its check, ${d20(chk.target, 'retreats')}, else it routs [p.13 step 8]`,
      dice: [20],
      read: ([d]) => `loser ${d! <= chk.target ? 'retreats' : 'routs'}`,
    };
  },
  // [p.13 step 6] each charger's D6, the defender's one D6 (A-65) or one per charger
  multiMelee: (s, f) => {
    const pairs = internals.meleePairs(s, f.closes);
    const mode = s.sc.options.defenderMeleeDice;
    const per = mode === 'perCharger';
    const chargers = f.closes.map((i) => s.closes[i]!.charger);
    const d = s.closes[f.closes[0]!]!.defender;
    const dist = severalChargersMelee(pairs, mode);
    const what = `${d}'s melee against ${chargers.join(', ')}: a D6 for each charger in that order, then ${per ? `a D6 for ${d} against each` : `one D6 for ${d}`}; each die times its MV [p.13 step 6, A-65]`;
    return {
      what,
      dice: times(pairs.length + (per ? pairs.length : 1), 6),
      read: (faces) =>
        byClass(
          s,
          dist,
          pairs.map((q, k) => meleeResultOf(q.charger, q.defender, faces[k]!, faces[pairs.length + (per ? k : 0)]!)),
          what,
        ),
    };
  },
  // [p.13 step 7] one casualty die each way (A-65)
  multiCasualty: (s, f) => {
    const c = s.closes[f.close]!;
    const ci = internals.closeInput(s, c, true);
    const [byC, byD] = meleeCasualtyRolls(
      meleeWinner(f.result),
      ci.charger.inContact,
      ci.defender.inContact,
      ci.charger.cavalry && ci.defender.cavalry,
      c.arc !== 'front',
      s.sc.options.casualtyColumn,
    );
    const mc = sum(byC.mods);
    const md = sum(byD.mods);
    return {
      what: `the casualty dice: ${c.charger}'s D6${mc ? ` ${signed(mc)}` : ''} against ${c.defender}, then ${c.defender}'s D6${md ? ` ${signed(md)}` : ''} against ${c.charger}, on the Close Action Casualty Chart [p.13 step 7]`,
      dice: [6, 6],
      read: ([a, b]) =>
        `casualties ${closeActionCasualties(b! + md, byD.column)}/${closeActionCasualties(a! + mc, byC.column)}`,
    };
  },
  closeFight: (s, f) => closeFightRoll(s, f),
  crewCharge: (s, f) => crewChargeRoll(s, f),
  rideDown: (s, f) => rideDownRoll(s, f),
  screenCharge: (s, f) => screenRoll(s, f),
};

/** [p.8-11] a fire action's rolls, named as fire.ts names them; a solid shot's fraction die after its hit dice. */
function fireRoll(s: SeqState, f: Extract<Frame, { t: 'fire' }>): Roll {
  const r = resolveFire(f.shot, s.sc.options);
  const layout: { roll: string; n: number; text: string }[] = [];
  for (const x of r.rolls) {
    if (x.dice < 1) continue;
    const mod = x.total ? ` ${signed(x.total)}` : '';
    if (x.roll === 'ammo')
      layout.push({
        roll: x.roll,
        n: x.dice,
        text: `the ammunition ${x.dice === 1 ? 'die' : `${x.dice} dice`} (a 6 costs a level)`,
      });
    else if (x.roll.startsWith('hit:')) {
      layout.push({
        roll: x.roll,
        n: x.dice,
        text: `${dN(x.dice, 6)}${mod} to hit ${x.target} (hits on ${x.hitFaces!.join(', ')}, ${x.damagePerHit} damage each)`,
      });
      layout.push({
        roll: `fraction:${x.target}`,
        n: 1,
        text: `a D6 for ${x.target}'s damage fraction (read only when one is left)`,
      });
    } else if (f.shot.type === 'buildingFireOut')
      layout.push({ roll: x.roll, n: x.dice, text: `a D6 at ${x.target} (a 6: two casualties)` });
    else
      layout.push({
        roll: x.roll,
        n: x.dice,
        text: `a D6${mod} at ${x.target} on the Musket Firing Table (${x.figures} figures)`,
      });
  }
  const what = `${f.firer}'s fire: ${layout.map((x) => x.text).join('; ')} [p.8-11]`;
  return {
    what,
    dice: layout.flatMap((x) => times(x.n, 6)),
    read(faces) {
      const rolls: FaceRoll[] = [];
      let at = 0;
      for (const x of layout) {
        rolls.push({ roll: x.roll, faces: faces.slice(at, at + x.n) });
        at += x.n;
      }
      try {
        return `fire ${outcomeKey(outcomeOfFaces(f.shot, rolls, s.sc.options))}`;
      } catch (e) {
        return { error: `${what}: ${e instanceof Error ? e.message : String(e)}` };
      }
    },
  };
}

/** The loser's (or a ridden-down unit's) check after its losses: D20 ≤ target retreats, else routs. */
const retreatsOrRouts = (target: number, d: number) => (d <= target ? 'retreats' : 'routs');

/**
 * [p.13 steps 5-9] one charger against one defender, as resolveCloseAction reads them: the charger's D20 (not in a
 * re-fight), the melee D6s of charger and defender, the casualty D6s of charger and defender, the loser's D20.
 */
function closeFightRoll(s: SeqState, f: Extract<Frame, { t: 'closeFight' }>): Roll | undefined {
  const c = s.closes[f.close]!;
  if (!internals.closeAlive(s, c)) return undefined;
  const i = internals.closeInput(s, c, f.refight || f.closed === true);
  const c5 = chargerCheck(i.charger.morale, { cavalry: i.charger.cavalry, outOfControl: i.chargerOutOfControl });
  const cmv = meleeValue(i.charger.melee);
  const dmv = meleeValue(i.defender.melee);
  const check = !i.refight;
  const what = `${c.charger} against ${c.defender}: ${check ? `${c.charger}'s check to close (${d20(c5.target, 'closes')}), ` : ''}a melee D6 each (${c.charger} ×${cmv}, then ${c.defender} ×${dmv}), a casualty D6 each (${c.charger}'s, then ${c.defender}'s), the loser's D20 (read only when one side lost) [p.13 steps 5-9]`;
  const dist = resolveCloseAction(i);
  return {
    what,
    dice: [...(check ? [20] : []), 6, 6, 6, 6, 20],
    read(faces) {
      const [d5, mc, md, kc, kd, dl] = check ? faces : [1, ...faces];
      if (d5! > c5.target)
        return byClass(
          s,
          dist,
          {
            closed: false,
            melee: null,
            winner: null,
            chargerLosses: 0,
            defenderLosses: 0,
            loser: null,
            winnerRecovers: false,
            gunsAbandoned: false,
            chargerFatigue: c5.fatigueIfFails,
            defenderFatigue: 0,
          },
          what,
        );
      const r = meleeResultOf(
        { mv: cmv, base: i.charger.melee.base },
        { mv: dmv, base: i.defender.melee.base },
        mc!,
        md!,
      );
      const w = meleeWinner(r);
      const [cc, dc] = meleeCasualtyRolls(
        w,
        i.charger.inContact,
        i.defender.inContact,
        i.charger.cavalry && i.defender.cavalry,
        i.charger.melee.arc !== 'front',
        i.options?.casualtyColumn ?? 'ownInContact',
      );
      const toDef = closeActionCasualties(kc! + sum(cc.mods), cc.column);
      const toChg = closeActionCasualties(kd! + sum(dc.mods), dc.column);
      const base = {
        closed: true,
        melee: r,
        winner: w.winner,
        chargerLosses: toChg,
        defenderLosses: toDef,
        chargerFatigue: 1,
        defenderFatigue: 1,
      };
      if (!w.winner)
        return byClass(s, dist, { ...base, loser: null, winnerRecovers: false, gunsAbandoned: false }, what);
      const chargerLost = w.winner === 'defender';
      const los = chargerLost ? i.charger : i.defender;
      const win = chargerLost ? i.defender : i.charger;
      const lossesL = chargerLost ? toChg : toDef;
      const lossesW = chargerLost ? toDef : toChg;
      const lc = loserCheck(
        {
          ...los.morale,
          currentFigures: Math.max(0, los.morale.currentFigures - lossesL),
          ...(los.morale.enemyFigures ? { enemyFigures: Math.max(0, los.morale.enemyFigures - lossesW) } : {}),
        },
        { wasCharger: chargerLost || !!i.defenderCharged, artillery: los.artillery },
      );
      return byClass(
        s,
        dist,
        {
          ...base,
          loser: retreatsOrRouts(lc.target, dl!),
          winnerRecovers: !!win.morale.retreatStatus,
          gunsAbandoned: lc.gunsAbandoned,
        },
        what,
      );
    },
  };
}

/**
 * [p.10, p.13] A-51 a crew's charge on the enemy on its guns, as turn.ts's crewCharge reads it: the enemy's step 2
 * D20, the melee D6s of crew and enemy, the casualty D6s (the crew's, then the enemy's), the enemy's step 8 D20 (read
 * only when it lost). A crew has no morale: no step 5 die, no check of its own.
 */
function crewChargeRoll(s: SeqState, f: Extract<Frame, { t: 'crewCharge' }>): Roll {
  const i = internals.crewCloseInput(s, f.id, f.target);
  const dist = internals.crewChargeDist(s, f.id, f.target);
  const check = defenderCheck(i.defender.morale);
  const cmv = meleeValue(i.charger.melee);
  const dmv = meleeValue(i.defender.melee);
  const what = `the crew of ${f.id} charges ${f.target}: ${f.target}'s step 2 check (${d20(check.target, 'stands')}), a melee D6 each (the crew ×${cmv}, then ${f.target} ×${dmv}), a casualty D6 each (the crew's, then ${f.target}'s), ${f.target}'s check if it lost (read only then) [p.13, A-51]`;
  return {
    what,
    dice: [20, 6, 6, 6, 6, 20],
    read([d2, mc, md, kc, kd, dl]) {
      if (d2! > check.target)
        return byClass(s, dist, { step2: i.defender.morale.retreatStatus ? 'routs' : 'retreats', close: null }, what);
      const r = meleeResultOf(
        { mv: cmv, base: i.charger.melee.base },
        { mv: dmv, base: i.defender.melee.base },
        mc!,
        md!,
      );
      const w = meleeWinner(r);
      const [cc, dc] = meleeCasualtyRolls(
        w,
        i.charger.inContact,
        i.defender.inContact,
        false,
        false,
        i.options?.casualtyColumn ?? 'ownInContact',
      );
      const toDef = closeActionCasualties(kc! + sum(cc.mods), cc.column);
      const toChg = closeActionCasualties(kd! + sum(dc.mods), dc.column);
      const base = {
        closed: true,
        melee: r,
        winner: w.winner,
        chargerLosses: toChg,
        defenderLosses: toDef,
        chargerFatigue: 1,
        defenderFatigue: 1,
      };
      if (w.winner !== 'charger')
        return byClass(
          s,
          dist,
          {
            step2: 'stands',
            close: {
              ...base,
              loser: null,
              winnerRecovers: w.winner === 'defender' && !!i.defender.morale.retreatStatus,
              gunsAbandoned: false,
            },
          },
          what,
        );
      const lc = loserCheck(
        {
          ...i.defender.morale,
          currentFigures: Math.max(0, i.defender.morale.currentFigures - toDef),
          ...(i.defender.morale.enemyFigures
            ? { enemyFigures: Math.max(0, i.defender.morale.enemyFigures - toChg) }
            : {}),
        },
        { wasCharger: false, artillery: i.defender.artillery },
      );
      return byClass(
        s,
        dist,
        {
          step2: 'stands',
          close: {
            ...base,
            loser: retreatsOrRouts(lc.target, dl!),
            winnerRecovers: false,
            gunsAbandoned: lc.gunsAbandoned,
          },
        },
        what,
      );
    },
  };
}

/**
 * [p.14] cavalry charging infantry or artillery, as resolveCavalryCharge reads it: the defender's step 2 D20s (only
 * when not already rolled), the cavalry's step 5 D20 (not after a step 2 ride-down), the ridden-down unit's step 7 D20.
 */
function rideDownRoll(s: SeqState, f: Extract<Frame, { t: 'rideDown' }>): Roll | undefined {
  const c = s.closes[f.close]!;
  if (!internals.closeAlive(s, c)) return undefined;
  const i = internals.rideDownInput(s, c, f.from);
  const dist = resolveCavalryCharge(i);
  const s2 = defenderCheck(i.defender.morale, { cavalryVsInfantryOrArtillery: true, echelon: i.echelon });
  const n2 = f.from ? 0 : s2.checks;
  const c5 = chargerCheck(i.cavalry.morale, { cavalry: true, outOfControl: i.cavalry.outOfControl });
  const l = rideDownLosses(i.cavalry.figures, i.defender.figures);
  const morale: CloseMoraleInput = {
    ...i.defender.morale,
    currentFigures: Math.max(0, i.defender.morale.currentFigures - l.toDefender),
  };
  const rc = riddenDownCheck(morale, i.defender.artillery);
  const step5 = f.from !== 'failed';
  const what = `${c.charger} charges ${c.defender}: ${n2 ? `${c.defender}'s step 2 check (${n2 > 1 ? `${n2} D20, all ${s2.target} or less` : d20(s2.target, 'stands')}), ` : ''}${step5 ? `${c.charger}'s check to close (${d20(c5.target, 'closes')}), ` : ''}${c.defender}'s check if ridden down (${d20(rc.target, 'retreats')}, else it routs; read only if ridden down) [p.14]`;
  return {
    what,
    dice: times(n2 + (step5 ? 1 : 0) + 1, 20),
    read(faces) {
      const stood = f.from === 'stood' || (!f.from && faces.slice(0, n2).every((d) => d <= s2.target));
      const last = faces[faces.length - 1]!;
      const rideDown = (atStep: 2 | 6) => ({
        result: 'defenderRiddenDown',
        atStep,
        defenderLosses: l.toDefender,
        cavalryLosses: l.toCavalry,
        defender: retreatsOrRouts(rc.target, last),
        cavalryFatigue: 1,
        defenderFatigue: 1,
      });
      if (!stood) return byClass(s, dist, rideDown(2), what);
      const closes = faces[n2]! <= c5.target;
      const value = !closes
        ? {
            result: 'cavalryFailed',
            atStep: 5,
            defenderLosses: 0,
            cavalryLosses: 0,
            defender: 'stands',
            cavalryFatigue: 1,
            defenderFatigue: 0,
          }
        : i.riddenDownIfCloses
          ? rideDown(6)
          : {
              result: 'cavalryTurnedBack',
              atStep: 6,
              defenderLosses: 0,
              cavalryLosses: 0,
              defender: 'stands',
              cavalryFatigue: 1,
              defenderFatigue: 1,
            };
      return byClass(s, dist, value, what);
    },
  };
}

/** [p.19] A-61 cavalry against a skirmish screen: the cavalry's step 5 D20, the rest of the screen's loser D20. */
function screenRoll(s: SeqState, f: Extract<Frame, { t: 'screenCharge' }>): Roll | undefined {
  const c = s.closes[f.close]!;
  if (!internals.closeAlive(s, c)) return undefined;
  const i = internals.screenInput(s, f.close);
  const dist = cavalryVsScreen(i);
  const c5 = chargerCheck(i.cavalry, { cavalry: true, outOfControl: i.outOfControl });
  const removed = Math.min(i.figuresInFrontage, i.screen.currentFigures);
  const left = i.screen.currentFigures - removed;
  const lc = left > 0 ? loserCheck({ ...i.screen, currentFigures: left }, { wasCharger: false }) : null;
  const what = `${c.charger} charges the screen ${c.defender}: ${c.charger}'s check to close (${d20(c5.target, 'closes')}), then the rest of the screen's check (${lc ? d20(lc.target, 'retreats') : 'none left'}, else it routs; read only if the cavalry closed) [p.19, A-61]`;
  return {
    what,
    dice: [20, 20],
    read: ([a, b]) =>
      byClass(
        s,
        dist,
        a! > c5.target
          ? { closed: false, removed: 0, screen: 'stands' }
          : { closed: true, removed, screen: lc ? retreatsOrRouts(lc.target, b!) : 'gone' },
        what,
      ),
  };
}

/** `Game.rollAsk`: the dice of the roll due at this chance node, or undefined where it is not a roll. */
export function rollAsk(s: SeqState): { readonly what: string; readonly dice: readonly number[] } | undefined {
  const r = rollOf(s);
  return r && { what: r.what, dice: r.dice };
}

/** `Game.outcomeForFaces`: the chance outcome these faces give, or why they cannot be, naming the roll. */
export function outcomeForFaces(
  s: SeqState,
  faces: readonly number[],
): { readonly action: Action } | { readonly error: string } {
  const r = rollOf(s);
  if (!r) return { error: 'no dice are rolled here: choose the outcome' };
  if (faces.length !== r.dice.length)
    return { error: `${r.what}: ${r.dice.length} ${r.dice.length === 1 ? 'die' : 'dice'}, not ${faces.length}` };
  for (let k = 0; k < faces.length; k++) {
    const x = faces[k]!;
    if (!Number.isInteger(x) || x < 1 || x > r.dice[k]!)
      return { error: `${r.what}: ${x} is no face of a D${r.dice[k]} (die ${k + 1})` };
  }
  const a = r.read(faces);
  if (typeof a !== 'string') return a;
  if (!runtime.chanceOutcomes(s).some((o) => o.action === a))
    return { error: `${r.what}: the faces give "${a}", not an outcome here` };
  return { action: a };
}
