/**
 * Charge! Eagles Rising, the strategic phase's S3 [Turn Sequence: "S3. Conduct morale tests & make compulsory moves";
 * ME, MF, or Army Morale Table (2D6); digest §6.4; ADAPTATION C10]: who tests, the roll, and its compulsory results.
 *
 * The phase is a scan (`moraleScan`, automatic) that pushes the next test (`morale`, a chance node: 2D6 + leader +
 * majority class on the % lost row, exact probabilities from tables.ts `moraleDist`), then looks again, so a break
 * that makes friends within 18" test is followed at once (the cascade, C10). Order of the scan: MEs (state order),
 * then MFs, then each Army; after every test the scan restarts from the first command. When nothing is left to test
 * the phase ends: every command's triggers are reset, the armies' "new losses" too, and a broken Army ends the game
 * (C14).
 *
 * Readings (C10 and beyond):
 * - Who tests: an ME with a trigger recorded since the last S3 (`moraleTriggers`: a KIA, a lost CAC, a unit broken;
 *   casualties.ts and the CAC chapter set them), or a friendly MF/ME broken within 18" of it (the testers of a nearby
 *   break are MEs, as the digest words it: "an ME also tests when a friendly MF/ME within 18" breaks"); an MF when one
 *   of its MEs breaks; the Army in each S3 in which its % lost is ≥ 33⅓% and it had new losses since the last S3 (an
 *   ME or MF broken in this S3 is a new loss: its units are gone). Each at most once an S3.
 * - "Within 18"": the nearest pair of footprints, edge to edge (digest conventions), between the broken command's
 *   units (as they stood when it broke) and the tester's.
 * - The caps ("If > Skill 2 levels, Retire 0 max. If > size 2x, Retire 1 max. If both, disordered", tables.ts
 *   `moraleCap`): skill = the skill number of the majority class (digest: "more than 2 levels" = lower by 3 or more),
 *   size = strength now (figures + guns × 3); the broken command's both as it broke. They apply only to a test whose
 *   every trigger is a nearby break (a command that also took KIAs, lost a CAC, lost a unit or an ME tests uncapped);
 *   with several nearby breaks the least protective cap counts (the test must be capped against each of them).
 * - The leader: the MF's/ME's leader's inspiration (the CC's for the Army), 0 when absent or knocked out (§6.4). The
 *   class: the majority class of the figures still on the table (guns × 3), the lower on a tie (orders.ts
 *   `majorityClass`); C12 `oldGuardMoraleDrm` for Old Guard. The row: the % lost of every unit the command started
 *   with (broken units count all they had).
 * - Retire 0 / 1: every unit disordered; infantry falls back 8", cavalry 16", artillery limbers and falls back 8",
 *   straight away from its nearest enemy unit, facing unchanged (C10 `retireDirection`; casualties.ts `fallBack`,
 *   which stops short of other units and the table edge); units farthest from the enemy move first, so the rear does
 *   not block the front. Garrisons stay in their BUA, disordered. Retire 1: then 1 KIA each (`applyKias`, cause
 *   'morale': no tactical leader check; WORN/SPENT tests follow).
 * - Broken: every unit of the command is removed (status 'broken'), its leader detached; the MEs (and an MF) are
 *   marked broken; the MF of a broken ME is given its trigger; every friendly ME within 18" gets the nearby break.
 * - What happens in this S3 does not carry to the next: a morale result's own KIAs (Retire 1) record no trigger, and a
 *   trigger reaching a command that has already tested in this S3 (a later cascade) is dropped with the rest at the
 *   end of the phase ("triggers reset after testing").
 * - The Army: Broken → the army is broken and, at the end of S3, the game ends (C14: defeat; both armies → a draw);
 *   Retire 0/1 and Disordered apply to every ME of the army on the table (units of MEs off the table are spared).
 * - An ME with no unit on the table (off it, or every unit gone) does not test.
 */
import { IN } from '../../geometry/geometry.ts';
import type { AutoHandler, ChanceHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { gap } from './shape.ts';
import {
  MORALE_EFFECTS,
  MORALE_RESULTS,
  type MoraleResult,
  type MoraleState,
  SKILL_NUMBER,
  moraleCap,
  moraleDist,
  moraleModifier,
  moraleState,
} from './tables.ts';
import type { MoraleFrame } from './frames.ts';
import type { ElementState, FormationState, Inspiration, Side, UnitClass, UnitState } from './types.ts';
import { NO_TRIGGERS, UNIT_CLASSES } from './types.ts';
import { applyKias, fallBack } from './casualties.ts';
import { armyBrokenResult } from './victory.ts';
import {
  type Action,
  type S,
  activeLeader,
  ccOf,
  elementOf,
  elementUnits,
  elementsOfCommand,
  formationOf,
  lostFraction,
  onTable,
  placed,
  say,
  sideName,
  strengthOf,
  unitOf,
  unitsOf,
  updArmy,
  updCommand,
  updUnit,
  other,
} from './state.ts';

type H<K extends MoraleFrame['t']> = Extract<MoraleFrame, { t: K }>;
type Command = FormationState | ElementState;

// ---------- who tests ----------

/** [S3] the phase begins: nobody has tested yet; the scan finds the first test. */
export function beginS3(s: S, _log: Log): S {
  const reset = <T extends Command>(c: T): T => (c.moraleTested ? { ...c, moraleTested: false } : c);
  return push(
    { ...s, formations: s.formations.map(reset), elements: s.elements.map(reset) },
    { t: 'moraleScan', armiesTested: [] },
  );
}

const hasOwnTrigger = (c: Command) =>
  c.moraleTriggers.tookKia || c.moraleTriggers.lostCac || c.moraleTriggers.unitBroken || c.moraleTriggers.elementBroken;
const hasTrigger = (c: Command) => hasOwnTrigger(c) || c.moraleTriggers.nearbyBreaks.length > 0;

/** The units of an MF or ME on the table now. */
function commandUnits(s: S, c: Command): UnitState[] {
  return elementsOfCommand(s, c.id).flatMap((e) => elementUnits(s, e));
}
/** Every unit an MF or ME started with, gone or not (for % lost). */
function allCommandUnits(s: S, c: Command): UnitState[] {
  return elementsOfCommand(s, c.id).flatMap((e) => e.units.map((id) => unitOf(s, id)));
}

/** [Morale Table] "majority class of the figures" (guns × the C3 weight), the lower class on a tie (orders.ts's rule). */
function majorityClassOf(s: S, units: readonly UnitState[]): UnitClass {
  const by = new Map<UnitClass, number>();
  for (const u of units) {
    if (!onTable(u)) continue;
    const n = u.kind === 'artillery' ? u.guns * s.ctx.options.gunStrength : u.figures;
    by.set(u.class, (by.get(u.class) ?? 0) + n);
  }
  let best: UnitClass = 'regular';
  let bestN = -1;
  for (const c of UNIT_CLASSES) {
    const n = by.get(c) ?? -1;
    if (n > bestN) {
      best = c;
      bestN = n;
    }
  }
  return best;
}

/** The tests a command takes: who, its row, its modifier and the worst result allowed. */
export interface MoraleTest {
  readonly name: string;
  readonly state: MoraleState;
  readonly mod: number;
  readonly leader: Inspiration | null;
  readonly cls: UnitClass;
  readonly worst: MoraleResult;
  /** The units the result applies to (on the table). */
  readonly units: readonly UnitState[];
}

/** [Morale Table] the DRM: leader + class (C12 `oldGuardMoraleDrm` for Old Guard). */
function drm(s: S, leader: Inspiration | null, cls: UnitClass): number {
  return moraleModifier(leader, cls) + (cls === 'oldGuard' ? s.ctx.options.oldGuardMoraleDrm - 3 : 0);
}

/** [Morale Table, C10] an MF's or ME's test as it stands. */
export function commandTest(s: S, id: string): MoraleTest {
  const c = s.formations.find((f) => f.id === id) ?? elementOf(s, id);
  const units = commandUnits(s, c);
  const cls = majorityClassOf(s, units);
  const leader = activeLeader(s, c)?.inspiration ?? null;
  return {
    name: c.name,
    state: moraleState(lostFraction(s, allCommandUnits(s, c))),
    mod: drm(s, leader, cls),
    leader,
    cls,
    worst: capOf(s, c, units, cls),
    units,
  };
}

/** [Morale Table, C10] the Army's test: the CC's inspiration, the army's majority class, its % lost. */
export function armyTest(s: S, side: Side): MoraleTest {
  const all = s.units.filter((u) => u.side === side);
  const units = unitsOf(s, side);
  const cls = majorityClassOf(s, units);
  const leader = ccOf(s, side)?.inspiration ?? null;
  return {
    name: `the ${sideName(s, side)} army`,
    state: moraleState(lostFraction(s, all)),
    mod: drm(s, leader, cls),
    leader,
    cls,
    worst: 'broken',
    units,
  };
}

/**
 * [Morale Table] "If > Skill 2 levels, Retire 0 max. If > size 2x, Retire 1 max. If both, disordered": only when
 * every trigger is a friendly break within 18"; against several, the least protective.
 */
function capOf(s: S, c: Command, units: readonly UnitState[], cls: UnitClass): MoraleResult {
  const nb = c.moraleTriggers.nearbyBreaks;
  if (hasOwnTrigger(c) || nb.length === 0) return 'broken';
  const skill = SKILL_NUMBER[cls];
  const strength = strengthOf(s, units).now;
  let worst = MORALE_RESULTS.length - 1;
  for (const b of nb) {
    const cap = moraleCap(b.skill - skill, b.strength > 0 ? strength / b.strength : Number.POSITIVE_INFINITY);
    worst = Math.min(worst, MORALE_RESULTS.indexOf(cap));
  }
  return MORALE_RESULTS[worst]!;
}

/** [S3, C10] does the Army test now: ≥ 33⅓% lost and new losses since the last S3? */
function armyMustTest(s: S, side: Side): boolean {
  const a = s.armies[side];
  if (!a.newLosses || a.broken) return false;
  return (
    moraleState(
      lostFraction(
        s,
        s.units.filter((u) => u.side === side),
      ),
    ) !== 'fresh'
  );
}

/** [S3, C10] the next test of this S3, or null. MEs first, then MFs, then the armies. */
function nextMoraleTest(s: S, armiesTested: readonly Side[]): H<'morale'> | null {
  for (const e of s.elements)
    if (!e.broken && !e.moraleTested && hasTrigger(e) && elementUnits(s, e).length > 0)
      return { t: 'morale', level: 'element', id: e.id, side: e.side };
  for (const f of s.formations)
    if (!f.broken && !f.moraleTested && hasTrigger(f) && commandUnits(s, f).length > 0)
      return { t: 'morale', level: 'formation', id: f.id, side: f.side };
  for (const side of [0, 1] as const)
    if (!armiesTested.includes(side) && armyMustTest(s, side)) return { t: 'morale', level: 'army', id: '', side };
  return null;
}

const scanHandler: AutoHandler<S, H<'moraleScan'>> = {
  kind: 'auto',
  run(s, f, log) {
    const next = nextMoraleTest(s, f.armiesTested);
    if (next) {
      const tested = next.level === 'army' ? [...f.armiesTested, next.side] : f.armiesTested;
      return push(s, { t: 'moraleScan', armiesTested: tested }, next);
    }
    return endS3(s, f.armiesTested, log);
  },
};

/** [S3] every test taken: triggers and new losses reset (C10); a broken Army ends the game (C14). */
function endS3(s: S, armiesTested: readonly Side[], log: Log): S {
  if (!armiesTested.length && !s.formations.some((f) => f.moraleTested) && !s.elements.some((e) => e.moraleTested))
    say(log, 'S3', 'no ME, MF or army has cause to test its morale (C10)');
  const clear = <T extends Command>(c: T): T => (hasTrigger(c) ? { ...c, moraleTriggers: NO_TRIGGERS } : c);
  let t: S = { ...s, formations: s.formations.map(clear), elements: s.elements.map(clear) };
  t = updArmy(updArmy(t, 0, { newLosses: false }), 1, { newLosses: false });
  if (t.armies[0].broken || t.armies[1].broken) return { ...t, result: armyBrokenResult(t, log) };
  return t;
}

// ---------- the test ----------

const RESULT_TEXT: Readonly<Record<MoraleResult, string>> = {
  carryOn: 'Carry On',
  disorder: 'Disordered',
  retire0: 'Retire 0',
  retire1: 'Retire 1',
  broken: 'Broken',
};

function testOf(s: S, f: H<'morale'>): MoraleTest {
  return f.level === 'army' ? armyTest(s, f.side) : commandTest(s, f.id);
}
const keyOf = (s: S, f: H<'morale'>) => (f.level === 'army' ? `${sideName(s, f.side)} army` : f.id);
const signed = (n: number) => (n >= 0 ? `+ ${n}` : `− ${-n}`);

const moraleHandler: ChanceHandler<S, H<'morale'>, Action> = {
  kind: 'chance',
  outcomes(s, f) {
    const m = testOf(s, f);
    return moraleDist(m.mod, m.state, m.worst).map((d) => ({
      action: `morale ${keyOf(s, f)} ${d.value}`,
      p: d.p,
      label: RESULT_TEXT[d.value],
    }));
  },
  step(s, f, a, log) {
    const r = a.slice(a.lastIndexOf(' ') + 1) as MoraleResult;
    const m = testOf(s, f);
    let t = f.level === 'army' ? s : updCommand(s, f.id, { moraleTested: true, moraleTriggers: NO_TRIGGERS });
    const cap = m.worst === 'broken' ? '' : `; a friend broke nearby: ${RESULT_TEXT[m.worst]} at worst`;
    say(
      log,
      'Morale',
      `${m.name} tests morale: 2D6 ${signed(m.mod)} (${m.leader ?? 'no'} leader, ${m.cls}) on the ${m.state} row${cap}: ${RESULT_TEXT[r]} (C10)`,
    );
    if (r === 'carryOn') {
      say(log, 'Morale', `${m.name} continues as ordered`);
      return t;
    }
    if (r === 'broken') {
      if (f.level === 'army') {
        say(log, 'Morale', `${m.name} is broken: it is defeated (C14)`);
        return updArmy(t, f.side, { broken: true });
      }
      return breakCommand(t, f.id, log);
    }
    const ids = m.units.map((u) => u.id);
    if (r === 'disorder') {
      say(log, 'Morale', `${m.name} is disordered in place`);
      for (const id of ids) t = updUnit(t, id, { disordered: true });
      return t;
    }
    t = retire(t, ids, m.name, log);
    if (r === 'retire1') t = moraleKias(t, ids, log);
    return t;
  },
  describe: (s, f) => {
    const m = testOf(s, f);
    return `${m.name}'s morale test: 2D6 ${signed(m.mod)} on the ${m.state} row${m.worst === 'broken' ? '' : ` (${RESULT_TEXT[m.worst]} at worst)`} [Morale Table, S3]`;
  },
};

// ---------- results ----------

/**
 * [Morale Table] "Retire 0 or 1: Entire MF or ME is disordered, retreats 8" (Infantry) or 16" (Cavalry) … Garrisons
 * stay in BUA … but are disordered." C10: straight away from the nearest enemy, facing unchanged; artillery limbers
 * and retreats 8". The units farthest from the enemy move first.
 */
function retire(s: S, ids: readonly string[], name: string, log: Log): S {
  say(log, 'Morale', `${name} is disordered and retires`);
  const enemies = (u: UnitState) => unitsOf(s, other(u.side)).map((e) => placed(s, e));
  const nearest = (u: UnitState) => {
    const me = placed(s, u);
    let d = Number.POSITIVE_INFINITY;
    for (const e of enemies(u)) d = Math.min(d, gap(me, e));
    return d;
  };
  const order = ids
    .map((id) => unitOf(s, id))
    .filter(onTable)
    .map((u) => ({ u, d: nearest(u) }))
    .sort((a, b) => b.d - a.d)
    .map((x) => x.u);
  let t = s;
  for (const u of order) {
    t = updUnit(t, u.id, { disordered: true });
    if (u.kind === 'infantry' && u.formation === 'garrison') {
      say(log, 'Morale', `${u.name} stays in its garrison, disordered`);
      continue;
    }
    if (u.kind === 'artillery') {
      if (u.formation !== 'limbered') {
        t = updUnit(t, u.id, { formation: 'limbered' });
        say(log, 'Morale', `${u.name} limbers (C10)`);
      }
      t = fallBack(t, u.id, MORALE_EFFECTS.retireInfantry, 'keep', 'Morale', log);
    } else
      t = fallBack(
        t,
        u.id,
        u.kind === 'cavalry' ? MORALE_EFFECTS.retireCavalry : MORALE_EFFECTS.retireInfantry,
        'keep',
        'Morale',
        log,
      );
  }
  return t;
}

/**
 * [Morale Table] "Retire 1: all units take 1 KIA": through casualties.ts (WORN/SPENT and their tests, a unit with none
 * left broken). The KIAs record no morale trigger: the test that caused them has been taken (C10).
 */
function moraleKias(s: S, ids: readonly string[], log: Log): S {
  const before = new Map(s.elements.map((e) => [e.id, e.moraleTriggers]));
  let t = s;
  for (const id of ids) t = applyKias(t, id, MORALE_EFFECTS.retire1Kia, 'morale', 'Morale', log);
  return { ...t, elements: t.elements.map((e) => ({ ...e, moraleTriggers: before.get(e.id) ?? e.moraleTriggers })) };
}

/**
 * [Morale Table] "Broken: Entire MF or ME removed. Friendly MF/ME army morale check if within 18"": the units removed,
 * the command (and an MF's MEs) broken, its MF told (C10: an MF tests when one of its MEs breaks), every friendly ME
 * within 18" given the nearby break with the broken command's skill and strength for the caps.
 */
function breakCommand(s: S, id: string, log: Log): S {
  const c = s.formations.find((f) => f.id === id) ?? elementOf(s, id);
  const els = elementsOfCommand(s, id);
  const units = commandUnits(s, c);
  const skill = SKILL_NUMBER[majorityClassOf(s, units)];
  const strength = strengthOf(s, units).now;
  const bodies = units.map((u) => placed(s, u));
  say(log, 'Morale', `${c.name} is broken: it is removed from the table`);
  let t = s;
  for (const u of units) {
    t = updUnit(t, u.id, { status: 'broken', attachedLeader: null });
    if (u.attachedLeader)
      t = { ...t, leaders: t.leaders.map((l) => (l.id === u.attachedLeader ? { ...l, attachedTo: null } : l)) };
  }
  for (const e of els) t = updCommand(t, e.id, { broken: true });
  if (c.kind === 'formation') t = updCommand(t, c.id, { broken: true });
  else if (c.formation && !formationOf(t, c.formation).broken) {
    const mf = formationOf(t, c.formation);
    t = updCommand(t, mf.id, { moraleTriggers: { ...mf.moraleTriggers, elementBroken: true } });
  }
  t = updArmy(t, c.side, { newLosses: true });
  const reach = MORALE_EFFECTS.brokenCheckRadius * IN;
  for (const e of t.elements) {
    if (e.side !== c.side || e.broken) continue;
    const mine = elementUnits(t, e);
    if (!mine.some((u) => bodies.some((b) => gap(placed(t, u), b) <= reach))) continue;
    t = updCommand(t, e.id, {
      moraleTriggers: {
        ...e.moraleTriggers,
        nearbyBreaks: [...e.moraleTriggers.nearbyBreaks, { broken: c.id, skill, strength }],
      },
    });
    if (!e.moraleTested) say(log, 'Morale', `${e.name} is within 18" of ${c.name}: it tests morale`);
  }
  return t;
}

export const moraleHandlers = { moraleScan: scanHandler, morale: moraleHandler };
