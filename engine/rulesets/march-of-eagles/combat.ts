/**
 * [Combat process] and [Risk to characters in combat]: the modifiers of each side, a round's result (M13 ties), the
 * casualties and Characters lost, the loser's fall-back and RESOLVE, and the winner's follow-up.
 */
import type { ChanceOutcome } from '../../core/game.ts';
import type { Log } from '../../core/procedure.ts';
import { choose } from '../../core/chance.ts';
import { heightAt } from '../../geometry/terrain.ts';
import { IN, sectorOf } from '../../geometry/geometry.ts';
import { centre, contactRect, coverOf, firingGroups, footprint } from './shape.ts';
import { characters, eng, ev, push, scWith, unit, upd, updEng } from './state.ts';
import { type Action, type Bn, type CharType, type Engagement, type MoeState, TRIG_CASUALTIES } from './types.ts';
import { type MoeHandlers, enterGround, fallBack, named, owner } from './common.ts';
import { endEngagement, loseCharacter, rankerLoss } from './casualties.ts';
import { startCheck } from './resolve.ts';

/** [Combat process] modifiers for one side of an engagement. */
export function combatModifier(s: MoeState, e: Engagement, role: 'att' | 'def', log?: Log): number {
  const u = unit(s, role === 'att' ? e.att : e.def);
  const v = unit(s, role === 'att' ? e.def : e.att);
  const parts: string[] = [];
  let m = 0;
  const add = (n: number, why: string) => {
    if (!n) return;
    m += n;
    parts.push(`${n > 0 ? '+' : ''}${n} ${why}`);
  };
  add(firingGroups(u), 'firing groups');
  if (e.bonus === role) add(u.f === 'L' ? 3 : 6, `charge in ${u.f === 'L' ? 'line' : 'column'}`);
  if (u.off) add(3, 'officer');
  const joiners = e.joiners.filter((j) => j.side === u.side && j.from <= s.turn && unit(s, j.id).on);
  if (joiners.length) add(s.ctx.options.M13_join === 'flat' ? 2 : 2 * joiners.length, 'friends joined (M13)');
  if (heightAt(s.ctx.terrain, centre(u)) > heightAt(s.ctx.terrain, centre(v))) add(2, 'uphill');
  add(u.drum + u.sgt + u.ens, 'other Characters');
  if (role === 'att') {
    const cover = coverOf(s, v, centre(u));
    if (cover === 'soft') add(-1, 'enemy defends soft cover');
    if (cover === 'hard') add(-4, 'enemy defends hard cover');
  }
  if (u.dis) add(-2, 'disordered');
  if (scWith(s, u)) add(3, 'Supreme Commander');
  ev(log, 'Combat process', `${u.name}: D6 ${parts.join(' ')}`);
  return m;
}

/** An engagement is fought: its battalions (and joiners) count as activated, and each side's modifiers are worked out. */
export function startCombat(s: MoeState, eid: string, log: Log): MoeState {
  const e = eng(s, eid);
  let ns = s;
  // a fought engagement counts as the activation of both fighting battalions (and joiners)
  for (const id of [e.att, e.def, ...e.joiners.map((j) => j.id)]) if (unit(ns, id).on) ns = upd(ns, id, { act: true });
  ns = updEng(ns, eid, { fought: true });
  const ma = combatModifier(ns, e, 'att', log);
  const md = combatModifier(ns, e, 'def', log);
  return push(ns, { t: 'combat', e: eid, ma, md });
}

function combatOutcomes(ma: number, md: number): ChanceOutcome<Action>[] {
  const w: Record<string, number> = { A3: 0, A: 0, T: 0, D: 0, D3: 0 };
  for (let x = 1; x <= 6; x++)
    for (let y = 1; y <= 6; y++) {
      const m = x + ma - (y + md);
      w[m >= 3 ? 'A3' : m > 0 ? 'A' : m === 0 ? 'T' : m > -3 ? 'D' : 'D3']!++;
    }
  const labels: Record<string, string> = {
    A3: 'attacker wins by 3+',
    A: 'attacker wins by 1–2',
    T: 'tie',
    D: 'defender wins by 1–2',
    D3: 'defender wins by 3+',
  };
  return (['A3', 'A', 'T', 'D', 'D3'] as const)
    .filter((k) => w[k])
    .map((res) => ({ action: { k: 'c-combat', res }, p: w[res]! / 36, label: labels[res]! }));
}

function lostOutcomes(s: MoeState, b: Bn): ChanceOutcome<Action>[] {
  // [Risk to characters in combat] a D6 for each Character; lost on M14_combatRisk+ (4+ = "50%")
  const pl = (7 - s.ctx.options.M14_combatRisk) / 6;
  const counts = [b.drum, b.sgt, b.ens, b.off, scWith(s, b) ? 1 : 0];
  const out: ChanceOutcome<Action>[] = [];
  const bin = (n: number, k: number) => choose(n, k) * pl ** k * (1 - pl) ** (n - k);
  for (let a = 0; a <= counts[0]!; a++)
    for (let c = 0; c <= counts[1]!; c++)
      for (let e = 0; e <= counts[2]!; e++)
        for (let o = 0; o <= counts[3]!; o++)
          for (let g = 0; g <= counts[4]!; g++) {
            const p =
              bin(counts[0]!, a) * bin(counts[1]!, c) * bin(counts[2]!, e) * bin(counts[3]!, o) * bin(counts[4]!, g);
            if (p > 0)
              out.push({
                action: { k: 'c-lost', drum: a, sgt: c, ens: e, off: o, sc: g },
                p,
                label: `${a + c + e + o + g} Character(s) lost`,
              });
          }
  return out;
}

/** A round's result: a tie changes only the charge bonus (M13); otherwise the winner loses 2 Rankers and the loser 6. */
function applyCombat(s: MoeState, eid: string, res: 'A3' | 'A' | 'T' | 'D' | 'D3', log: Log): MoeState {
  const e = eng(s, eid);
  let ns = updEng(s, eid, { rounds: e.rounds + 1 });
  const a = unit(ns, e.att);
  const d = unit(ns, e.def);
  if (res === 'T') {
    // M13: no winner — no casualties, no movement, no charge bonus next round
    ev(log, 'Combat process', `${a.name} and ${d.name} are level: the combat continues without charge bonuses`);
    return updEng(ns, eid, { bonus: '' });
  }
  const attWins = res === 'A' || res === 'A3';
  const w = attWins ? a : d;
  const l = attWins ? d : a;
  ev(
    log,
    'Combat process',
    `${w.name} wins${res.endsWith('3') ? ' by 3 or more' : ''}: the winner takes 2 casualties, the loser 6`,
  );
  ns = rankerLoss(ns, w.id, 2, log);
  // [Resolve] "It takes casualties": the winner's 2 casualties are a trigger too, tested in the RESOLVE phase (the
  // book's trigger list; the digest's M10 exempts the winner, and the book wins). The loser tests at once, below.
  if (unit(ns, w.id).on) ns = upd(ns, w.id, { trig: unit(ns, w.id).trig | TRIG_CASUALTIES });
  ns = upd(ns, l.id, { lost: true });
  if (res.endsWith('3') && characters(ns, unit(ns, l.id)) > 0)
    return push(ns, { t: 'combatChars', e: eid, win: w.id, lose: l.id });
  return loserCasualties(ns, eid, w.id, l.id, { drum: 0, sgt: 0, ens: 0, off: 0, sc: 0 }, log);
}

/** The loser's 6 casualties (Characters lost count among them), its 2" fall-back, then its RESOLVE or the follow-up. */
function loserCasualties(
  s: MoeState,
  eid: string,
  winId: string,
  loseId: string,
  lost: { drum: number; sgt: number; ens: number; off: number; sc: number },
  log: Log,
): MoeState {
  let ns = s;
  let chars = 0;
  for (const [k, n] of Object.entries(lost) as [CharType, number][])
    for (let i = 0; i < n; i++) {
      ns = loseCharacter(ns, loseId, k, log);
      chars++;
    }
  // [Risk to characters in combat] Characters lost count among the 6 casualties
  ns = rankerLoss(ns, loseId, Math.max(0, 6 - chars), log);
  const l = unit(ns, loseId);
  if (!l.on) return ns;
  if (!unit(ns, winId).on) {
    if (ns.engs.some((e) => e.id === eid)) ns = endEngagement(ns, eid, false, log);
    return ns;
  }
  ns = fallBack(ns, loseId, 2 * IN, log, 'Combat process');
  if (!l.tested)
    return startCheck(ns, unit(ns, loseId), 'resolve', { k: 'resolve', cause: 'combat', e: eid, win: winId }, log);
  ev(log, 'Resolve', `${l.name} already tested RESOLVE this turn`);
  return push(ns, { t: 'followUp', p: unit(ns, winId).side, e: eid, win: winId, lose: loseId });
}

export const combat: MoeHandlers<'combat' | 'combatChars' | 'followUp'> = {
  combat: {
    kind: 'chance',
    outcomes: (_s, f) => combatOutcomes(f.ma, f.md),
    step: (s, f, a, log) => applyCombat(s, f.e, (a as Extract<Action, { k: 'c-combat' }>).res, log),
  },
  combatChars: {
    kind: 'chance',
    outcomes: (s, f) => lostOutcomes(s, unit(s, f.lose)),
    step: (s, f, a, log) => loserCasualties(s, f.e, f.win, f.lose, a as Extract<Action, { k: 'c-lost' }>, log),
  },
  followUp: {
    kind: 'decision',
    owner,
    legal: () => [
      { k: 'followUp', yes: true },
      { k: 'followUp', yes: false },
    ],
    step(s, f, a, log) {
      const yes = (a as Extract<Action, { k: 'followUp' }>).yes;
      const e = eng(s, f.e);
      if (!yes) return endEngagement(s, f.e, true, log);
      // the winner advances back into contact; the next round it adds the charge bonus for its formation
      const w = unit(s, f.win);
      const l = unit(s, f.lose);
      const face = sectorOf(footprint(l), centre(w));
      const c = contactRect(l, face, footprint(w).w, footprint(w).d);
      ev(log, 'Combat process', `${w.name} follows up`);
      const ns = enterGround(upd(s, f.win, { x: c.x, y: c.y, h: c.h }), f.win, footprint(w), c, log, 'follows up');
      return updEng(ns, f.e, { bonus: e.att === f.win ? 'att' : 'def' });
    },
    describe: (s, f) =>
      `${named(s, f.win)} won the round and ${named(s, f.lose)} stood: follow up and fight on, or stop (both then stand next turn)?`,
  },
};
