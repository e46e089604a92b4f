/**
 * [Bayonet & Sabre (3rd) Phase] both sides resolve all charges, countercharges and breakthroughs, applying results
 * immediately. A7: combats in ascending id order of the defending unit; a breakthrough combat at once. Each side rolls
 * one D10 and adds its DRMs ([B&S DRM], with the notes' stand and unit counts); the differential (attacker −
 * defender) reads the results table ([B&S Results]; A8 "lose 1 stand" = 1 hit; A9 retreats).
 *
 * Participants (A7): the defender and every attacker in contact with it (1 per face), with the batteries of either
 * side in contact with them (attached automatically, [Artillery]). Per-unit quantities (hits, hits this fire phase)
 * are the lead unit's: the most stands, ties to the lowest id. A result's hits go to the lead unit (an
 * interpretation: the sheets give a side one result); disorder, retreats and the rest apply to every unit of the side.
 */
import type { AutoHandler, ChanceHandler, DecisionHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { normDeg, polygonDistance, polygonsOverlap, rectCorners, translate } from '../../geometry/geometry.ts';
import { contactFor } from './charge.ts';
import { addHits } from './hits.ts';
import { basicRate, fullMove, retreatBy } from './manoeuvre.ts';
import { coverLevel, footprint, fourFronts, poly } from './shape.ts';
import { IN, onTable, unitOf, updLeader, updUnit } from './state.ts';
import { BS_RESULTS, type BsSideEffect, type LeaderKind, bayonetDrm, opposedOn } from './tables.ts';
import type { Action, AoeState, Combat, Frame, Unit } from './types.ts';

type F<T extends Frame['t']> = Extract<Frame, { t: T }>;

const stands = (u: Unit): number => (u.k === 'inf' ? 6 : u.k === 'cav' ? 4 : 1);

/** The lead unit: the most stands, ties to the lowest id (A7). */
function lead(us: readonly Unit[]): Unit {
  return [...us].sort((a, b) => stands(b) - stands(a) || (a.id < b.id ? -1 : 1))[0]!;
}

/** [Artillery] batteries of `side` in contact with one of `units` fight with them (attached automatically). */
function withBatteries(s: AoeState, units: Unit[]): Unit[] {
  const out = [...units];
  for (const b of onTable(s))
    if (
      b.k === 'bat' &&
      !out.includes(b) &&
      units.some((u) => u.side === b.side && polygonDistance(poly(u), poly(b)) <= 5)
    )
      out.push(b);
  return out;
}

function participants(s: AoeState, c: Combat): { att: Unit[]; def: Unit[] } {
  const d = unitOf(s, c.def);
  const atts = c.atts.map((a) => unitOf(s, a.u)).filter((u) => !u.gone);
  return { att: withBatteries(s, atts), def: withBatteries(s, [d]) };
}

/** A10/[B&S DRM]: the best leader attached to any participating unit of the side. */
function leaderOf(s: AoeState, us: readonly Unit[]): LeaderKind {
  let k: LeaderKind = 'none';
  for (const l of s.leaders)
    if (!l.captured && l.att && us.some((u) => u.id === l.att)) {
      if (l.charismatic) return 'charismatic';
      k = 'plain';
    }
  return k;
}

/** [B&S notes] note 1: half or more of the side's participating stands qualify. */
const half = (us: readonly Unit[], q: (u: Unit) => boolean): boolean => {
  const total = us.reduce((t, u) => t + stands(u), 0);
  return total > 0 && 2 * us.filter(q).reduce((t, u) => t + stands(u), 0) >= total;
};

/** "In the Open" (A7): not in cover and not in a BUA. */
const inOpen = (s: AoeState, d: Unit, from: Unit): boolean => !d.bua && coverLevel(s, d, from) === 0;

/** Both sides' DRMs for combat `c` (attacker first). */
export function meleeModifiers(s: AoeState, c: Combat): { amod: number; dmod: number; text: string } {
  const { att, def } = participants(s, c);
  const d = unitOf(s, c.def);
  const la = lead(att);
  const ld = lead(def);
  const aStands = att.reduce((t, u) => t + stands(u), 0);
  const dStands = def.reduce((t, u) => t + stands(u), 0);
  const cav = att.filter((u) => u.k === 'cav');
  const infAtt = att.filter((u) => u.k === 'inf');
  let charge: 'cavalryVsInfantryOpen' | 'cavalryVsSquare' | 'cavalryVsMasse' | 'infantryVsSquare' | null = null;
  // [B&S DRM] note 2: one or more participating units qualify
  if (d.k === 'inf' && cav.length) {
    if (d.f === 'Square') charge = 'cavalryVsSquare';
    else if (d.f === 'Masse') charge = 'cavalryVsMasse';
    else if (inOpen(s, d, cav[0]!)) charge = 'cavalryVsInfantryOpen';
  } else if (d.k === 'inf' && d.f === 'Square' && infAtt.length) charge = 'infantryVsSquare';
  const weight = (us: readonly Unit[]) =>
    half(us, (u) => u.k === 'cav' && u.wt === 'ArmouredHeavy')
      ? ('ArmouredHeavy' as const)
      : half(us, (u) => u.k === 'cav' && u.wt !== 'Light')
        ? ('Heavy' as const)
        : null;
  const cls = (us: readonly Unit[]) =>
    half(us, (u) => u.k !== 'bat' && u.cls === 'Elite')
      ? ('Elite' as const)
      : half(us, (u) => u.k !== 'bat' && u.cls !== 'Conscript')
        ? ('Regular' as const)
        : null;
  // [B&S DRM] −2 (note 1, not cumulative): disordered, non-countercharging cavalry (defending), Open Order, or an
  // unattached battery
  const minus2 = (us: readonly Unit[], defending: boolean) =>
    half(
      us,
      (u) =>
        u.dis ||
        (u.k === 'inf' && u.f === 'OpenOrder') ||
        (defending && u.k === 'cav' && !u.cc) ||
        (u.k === 'bat' && us.length === 1),
    );
  const outflanked = !fourFronts(d) && c.atts.some((a) => a.face !== 'front' && !unitOf(s, a.u).gone);
  const a = bayonetDrm({
    leader: leaderOf(s, att),
    stands: aStands,
    enemyStands: dStands,
    charge,
    lancersVsInfantryOpen:
      d.k === 'inf' && half(att, (u) => u.k === 'cav' && u.lancers) && !!cav[0] && inOpen(s, d, cav[0]),
    cavalryWeight: weight(att),
    breakthrough: c.bt,
    disorderedEtc: minus2(att, false),
    hitsThisFirePhase: la.fpHits,
    cover: 0,
    outflanked: false,
    hits: la.hits,
    troopClass: cls(att),
  });
  const dd = bayonetDrm({
    leader: leaderOf(s, def),
    stands: dStands,
    enemyStands: aStands,
    charge: null,
    lancersVsInfantryOpen: false,
    cavalryWeight: weight(def),
    breakthrough: false,
    disorderedEtc: minus2(def, true),
    hitsThisFirePhase: ld.fpHits,
    cover: d.bua ? (s.ctx.blocks.find((b) => b.id === d.bua)?.cover ?? 3) : coverLevel(s, d, la),
    outflanked,
    hits: ld.hits,
    troopClass: cls(def),
  });
  const parts = (p: readonly [string, number][]) =>
    p.map(([k, v]) => `${k} ${v > 0 ? '+' : ''}${v}`).join(', ') || 'none';
  return {
    amod: a.total,
    dmod: dd.total,
    text: `attackers ${att.map((u) => u.id).join('+')} ${a.total >= 0 ? '+' : ''}${a.total} (${parts(a.parts)}); defenders ${def.map((u) => u.id).join('+')} ${dd.total >= 0 ? '+' : ''}${dd.total} (${parts(dd.parts)})`,
  };
}

/** [Bayonet & Sabre] the phase: every combat may be fought once (a 0 result leaves units in contact for the next). */
export function startBayonetSabre(s: AoeState, _log: Log): AoeState {
  if (!s.combats.length) return s;
  return push({ ...s, combats: s.combats.map((c) => (c.fought ? { ...c, fought: false } : c)) }, { t: 'bsNext' });
}

const dropCombat = (s: AoeState, def: string): AoeState => ({ ...s, combats: s.combats.filter((c) => c.def !== def) });

/** A7: the next combat by defender id (or the breakthrough combat named): its DRMs, then the roll. */
const bsNext: AutoHandler<AoeState, F<'bsNext'>> = {
  kind: 'auto',
  run(s0, f, log) {
    let s = s0;
    // combats whose defender or every attacker is gone end
    for (const c of s.combats)
      if (unitOf(s, c.def).gone || c.atts.every((a) => unitOf(s, a.u).gone)) s = dropCombat(s, c.def);
    const open = s.combats.filter((c) => !c.fought).sort((a, b) => (a.def < b.def ? -1 : 1));
    const c = f.def ? open.find((x) => x.def === f.def) : open[0];
    if (!c) return s;
    const m = meleeModifiers(s, c);
    log?.push({ rule: 'Bayonet & Sabre', text: `combat at ${c.def}${c.bt ? ' (breakthrough)' : ''}: ${m.text}` });
    s = { ...s, combats: s.combats.map((x) => (x === c ? { ...x, fought: true } : x)) };
    // the rest of the phase after this combat (unless this is a breakthrough fought at once inside another's)
    return f.def
      ? push(s, { t: 'melee', def: c.def, amod: m.amod, dmod: m.dmod })
      : push(s, { t: 'bsNext' }, { t: 'melee', def: c.def, amod: m.amod, dmod: m.dmod });
  },
};

/** [B&S Results] P(differential row) for D10 + `amod` against D10 + `dmod` (A1). */
function meleeOutcomes(amod: number, dmod: number): { row: number; p: number }[] {
  return opposedOn(BS_RESULTS, amod, dmod).map(({ value: row, p }) => ({ row, p }));
}

const melee: ChanceHandler<AoeState, F<'melee'>, Action> = {
  kind: 'chance',
  outcomes: (_s, f) =>
    meleeOutcomes(f.amod, f.dmod).map(({ row, p }) => ({
      action: { a: 'meleeDiff', d: row } as Action,
      p,
      label: `${BS_RESULTS[row]!.rows}: ${BS_RESULTS[row]!.digestLabel ?? BS_RESULTS[row]!.sheetLabel}`,
    })),
  step(s, f, a, log) {
    if (a.a !== 'meleeDiff') throw new Error('melee: not a combat roll');
    return applyResult(s, f.def, a.d, log);
  },
  describe: (_s, f) =>
    `Bayonet & Sabre at ${f.def}: D10 ${f.amod >= 0 ? '+' : ''}${f.amod} against D10 ${f.dmod >= 0 ? '+' : ''}${f.dmod}`,
};

/** Leaders attached to `us` are captured ([B&S Results] Leader captured; A10 replaced in their next March phase). */
function capture(s: AoeState, us: readonly Unit[], log: Log): AoeState {
  let t = s;
  for (const l of s.leaders)
    if (!l.captured && l.att && us.some((u) => u.id === l.att)) {
      log?.push({ rule: 'Bayonet & Sabre', text: `${l.id} is captured` });
      t = updLeader(t, l.id, { captured: true, att: '' });
    }
  return t;
}

/** One side's part of a result. `foe`: the unit it fought (retreats go away from it). */
function applySide(
  s0: AoeState,
  us: readonly Unit[],
  e: BsSideEffect,
  foe: Unit,
  byCavalry: boolean,
  squareVsCavalry: boolean,
  log: Log,
): AoeState {
  let s = s0;
  const troops = us.filter((u) => u.k !== 'bat');
  const guns = us.filter((u) => u.k === 'bat');
  const holds = squareVsCavalry && e.holdIfSquareVsCavalry;
  if (e.hits && troops.length && !holds) s = addHits(s, lead(troops).id, e.hits, 'Bayonet & Sabre', log);
  for (const u of troops)
    if (!unitOf(s, u.id).gone && e.troopsDisordered && !holds) s = updUnit(s, u.id, { dis: true });
  for (const g of guns) {
    if (unitOf(s, g.id).gone) continue;
    if (e.loseAllGunsIfDefeatedByCavalry && byCavalry) {
      log?.push({ rule: 'Bayonet & Sabre', text: `${g.id} is lost to the cavalry` });
      s = updUnit(s, g.id, { gone: 'guns-lost' });
      continue;
    }
    if (e.guns === 'wreckOneStand') {
      log?.push({ rule: 'Bayonet & Sabre', text: `${g.id}'s gun stand is wrecked: the battery is removed (A8)` });
      s = updUnit(s, g.id, { gone: 'wrecked' });
      continue;
    }
    if (e.gunsSilenced) s = updUnit(s, g.id, { dis: true });
    if (e.guns === 'limberAndFullRetreat' || e.guns === 'retreatSilenced') {
      if (e.guns === 'limberAndFullRetreat') s = updUnit(s, g.id, { limbered: true } as Partial<Unit>);
      s = retreatBy(
        s,
        g.id,
        basicRate(s, { ...unitOf(s, g.id), limbered: true } as Unit),
        'Bayonet & Sabre',
        log,
        foe.id,
      );
    }
  }
  if (e.leaderCaptured) s = capture(s, us, log);
  if (typeof e.troops === 'object' && !holds)
    for (const u of troops) {
      if (unitOf(s, u.id).gone) continue;
      const dist = e.troops.retreat === 'fullMove' ? fullMove(s, unitOf(s, u.id)) : e.troops.retreat * IN;
      s = retreatBy(s, u.id, dist, 'Bayonet & Sabre', log, foe.id);
    }
  return s;
}

/** [B&S Results] A9: the attacker advances straight ahead by the depth of the defender's former footprint. */
function occupy(s: AoeState, id: string, depth: number, log: Log): AoeState {
  const u = unitOf(s, id);
  if (u.gone) return s;
  const r = translate(footprint(u), u.h, depth);
  const ps = rectCorners(r);
  if (ps.some((p) => p.x < 0 || p.y < 0 || p.x > s.ctx.width || p.y > s.ctx.height)) return s;
  if (onTable(s).some((o) => o.id !== id && polygonsOverlap(ps, poly(o)))) return s;
  log?.push({ rule: 'Bayonet & Sabre', text: `${id} occupies the position` });
  return updUnit(s, id, { x: Math.round(r.x), y: Math.round(r.y) });
}

/** [B&S Results] breakthrough: up to half its basic move toward the closest other enemy; contact is fought at once. */
function breakthrough(s: AoeState, u: Unit, beaten: string, log: Log): AoeState {
  if (u.gone || u.broke) return s;
  let best: Unit | undefined;
  let bd = Infinity;
  for (const o of onTable(s)) {
    if (o.side === u.side || o.id === beaten) continue;
    const d = polygonDistance(poly(u), poly(o));
    if (d < bd) {
      bd = d;
      best = o;
    }
  }
  const t = updUnit(s, u.id, { broke: true });
  if (!best || bd > basicRate(s, u) / 2) return t;
  const c = contactFor(t, unitOf(t, u.id), best);
  if (!c) return t;
  log?.push({ rule: 'Bayonet & Sabre', text: `${u.id} makes a breakthrough charge into ${best.id}` });
  const moved = updUnit(t, u.id, { x: c.rect.x, y: c.rect.y, h: normDeg(Math.round(c.rect.h)) });
  const existing = moved.combats.find((x) => x.def === best!.id);
  const combats: Combat[] = existing
    ? moved.combats.map((x) =>
        x === existing ? { ...x, atts: [...x.atts, { u: u.id, face: c.face }], bt: true, fought: false } : x,
      )
    : [...moved.combats, { def: best.id, atts: [{ u: u.id, face: c.face }], bt: true, fought: false }];
  // A7: a breakthrough combat is resolved as soon as it occurs
  return push({ ...moved, combats }, { t: 'bsNext', def: best.id });
}

function applyResult(s0: AoeState, def: string, row: number, log: Log): AoeState {
  const c = s0.combats.find((x) => x.def === def);
  if (!c) return s0;
  const res = BS_RESULTS[row]!;
  const { att, def: defs } = participants(s0, c);
  const d = unitOf(s0, def);
  const la = lead(att.filter((u) => u.k !== 'bat').length ? att.filter((u) => u.k !== 'bat') : att);
  log?.push({
    rule: 'Bayonet & Sabre',
    text: `${res.rows}: ${res.digestLabel ?? res.sheetLabel} — defender: ${res.defender.text} Attacker: ${res.attacker.text}`,
  });
  const attCav = att.some((u) => u.k === 'cav');
  const defCav = defs.some((u) => u.k === 'cav');
  const squareVsCav = d.k === 'inf' && d.f === 'Square' && attCav;
  const depth = footprint(d).d;
  let s = applySide(s0, defs, res.defender, la, attCav, squareVsCav, log);
  // [B&S Results] 1–3: cavalry against a square retreat disordered 2" instead of occupying
  const cavVsSquare = squareVsCav && res.attacker.cavalryVsSquareRetreat !== null;
  const attEffect: BsSideEffect = cavVsSquare
    ? { ...res.attacker, troopsDisordered: true, troops: { retreat: res.attacker.cavalryVsSquareRetreat! } }
    : res.attacker;
  s = applySide(s, att, attEffect, d, defCav, false, log);
  // the 0 result: both stay in contact and fight again next phase, without the breakthrough modifier
  if (res.defender.loseBreakthroughModifier) {
    s = { ...s, combats: s.combats.map((x) => (x.def === def ? { ...x, bt: false } : x)) };
  } else s = dropCombat(s, def);
  for (const u of [...att, ...defs]) if (!unitOf(s, u.id).gone) s = updUnit(s, u.id, { fought: true });
  // the attacker occupies the position a retreating (or removed) defender left
  if (attEffect.troops === 'occupy') {
    const gone = unitOf(s, def).gone || polygonDistance(poly(unitOf(s, def)), poly(unitOf(s, la.id))) > 1;
    if (gone) s = occupy(s, la.id, depth, log);
  }
  // follow-ups: breakthroughs, recalls, carrying the position
  const frames: Frame[] = [];
  for (const u of att.filter((x) => x.k === 'cav' || res.attacker.breakthrough === 'all')) {
    if (res.attacker.breakthrough === 'all' || (res.attacker.breakthrough === 'cavalryMust' && u.k === 'cav'))
      s = breakthrough(s, unitOf(s, u.id), def, log);
  }
  const recallers = (us: readonly Unit[], e: BsSideEffect): Unit[] =>
    e.cavalryMayRecall === 'afterFirstCombat' ? us.filter((u) => u.k === 'cav' && !unitOf(s, u.id).gone) : [];
  for (const u of recallers(att, attEffect))
    frames.push({ t: 'afterCombat', p: u.side, u: u.id, may: 'recall', from: def });
  for (const u of recallers(defs, res.defender))
    frames.push({ t: 'afterCombat', p: u.side, u: u.id, may: 'recall', from: la.id });
  if (res.defender.counterchargingCavalryMayCarry && d.k === 'cav' && d.cc && !unitOf(s, def).gone) {
    const into = { x: la.x, y: la.y, h: d.h };
    frames.push({ t: 'afterCombat', p: d.side, u: def, may: 'carry-or-recall', from: la.id, into });
  }
  return frames.length ? push(s, ...frames) : s;
}

/** [B&S Results] recall: cavalry go straight back up to a full move (0, ½ or all); carry the position (A7). */
const afterCombat: DecisionHandler<AoeState, F<'afterCombat'>, Action> = {
  kind: 'decision',
  owner: (f) => f.p,
  legal: (_s, f) => [
    { a: 'recall', frac: 0 },
    { a: 'recall', frac: 0.5 },
    { a: 'recall', frac: 1 },
    ...(f.may === 'carry-or-recall' ? [{ a: 'carry' } as Action] : []),
  ],
  skip: (s, f) => unitOf(s, f.u).gone !== '',
  step(s, f, a, log) {
    const u = unitOf(s, f.u);
    if (a.a === 'carry' && f.into) {
      const ps = poly({ ...u, x: f.into.x, y: f.into.y });
      if (onTable(s).some((o) => o.id !== u.id && polygonsOverlap(ps, poly(o)))) return s;
      log?.push({ rule: 'Bayonet & Sabre', text: `${u.id} carries the position` });
      return updUnit(s, u.id, { x: f.into.x, y: f.into.y });
    }
    if (a.a !== 'recall' || a.frac === 0) return s;
    log?.push({ rule: 'Bayonet & Sabre', text: `${u.id} recalls ${a.frac === 1 ? 'a full move' : 'half a move'}` });
    const other = unitOf(s, f.from);
    return retreatBy(s, u.id, fullMove(s, u) * a.frac, 'Bayonet & Sabre', log, other.gone ? undefined : other.id);
  },
  describe: (_s, f) => `${f.u}: ${f.may === 'recall' ? 'recall?' : 'carry the position or recall?'}`,
};

export const combatHandlers = { bsNext, melee, afterCombat };
