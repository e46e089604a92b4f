/**
 * Charge! Eagles Rising, close assault combat [Close Assault Combat; Close Assault Modifiers; CAC results tables:
 * Infantry or Artillery defeat, Cavalry defeat; Result Infantry / Cavalry results explanations; Leader Casualties;
 * C2, C13]: the CACs T2e queues, fought one chance node each, their results, the winner's options, exploitation as
 * 2nd CACs after all the initial ones.
 *
 * - Lead units (C13 `multiUnitCac: leadUnit`): each side fights with its first unit (the first charger; the charged
 *   unit, or the infantry supporting a charged battery); the others give only "greater number of units". KIAs go to
 *   the lead units; FB, Ret, Broken, D and B to every unit of the side.
 * - One chance node per CAC: tables' `cacRollDist` over the totals (value + modifiers, `cacTotalModifier`), by outcome
 *   class: the difference band, the winner, the winner's doubles (the loser's attached leaders are captured) and
 *   whether the winner's 2D6 was the lower ("W: 1 KIA (if W < L 2D6)").
 * - Results: tables' `cacResult` cell for the winner's arm and the loser's row; KIAs through casualties' `applyKias`
 *   (cause 'cac'); FB/Ret through `fallBack` ('away' for Ret and "face away"); Broken = removed (C13); the loser's ME
 *   records the "lostCac" morale trigger (C10); both MEs (and MFs) are committed (C2).
 * - The 0 row (C13): infantry against infantry or artillery: every unit disordered, 1 KIA to each lead unit; the
 *   attacker deploys into line and re-fights at once as a 2nd CAC (worn or spent: a test first, failure the worn/spent
 *   retirement); unable (no CAC left this phase, `maxCacPerPhase`), it falls back 2" or 4" in line, disordered.
 *   Cavalry against cavalry: both fall back 12" D & B (`cavalryZeroVsCavalry`); against artillery the cavalry does;
 *   against infantry the cavalry tests: pass, it is disordered at once and may exploit 5" from the back of the
 *   infantry (B at the end of the phase); fail, FB 12" D & B.
 * - The winner's options (an attacker only: "a defender that wins holds its position", C13): `take ground U wheel θ`
 *   (θ ∈ −45, −22.5, 0, 22.5, 45: into the lead loser's position, then wheeled), `exploit U N`, `rally back U`
 *   (cavalry, a test), `hold U`. Victorious charging cavalry (every winning cavalry unit of the attacking side, and a
 *   defender's counter-charging cavalry, C8) is D & B at the end of the phase whatever it chose.
 *   British cavalry winning by 3+ tests (+5) before any option but exploiting; failing, it exploits its full distance.
 * - Exploitation (C13): the distance is set by the unit's 1st CAC; after all initial CACs each exploiter moves
 *   straight ahead or into an enemy in its front arc within that distance (a 2nd CAC, charging, no closing fire);
 *   exploiting into a BUA disorders; a unit with `maxCacPerPhase` CACs fought cannot exploit or re-fight; after its
 *   2nd CAC a unit is disordered.
 * - Flank or rear, and artillery outside its arc, are judged from where the charger began (the sector of the defender
 *   it charged from; for an exploiter or pursuer, where that move began); against artillery the "outside of gun's fire
 *   arc" +3 replaces the flank +3 (one +3).
 * - "Cavalry or infantry in line vs line/column wider": the lead unit in line against a line or column, by the ratio
 *   of the frontages (BOOK vs DIGEST 10 of tables.ts). "Infantry or deployed artillery defending a linear obstacle":
 *   the charge's line from where the charger began to the defender crosses a minor or major obstacle.
 * - "Sappers supporting attack into cover": an attacking lead infantry with sappers against a defender in cover.
 * - A cavalry loser of a "check Cavalry Results" cell (1-2 against infantry or artillery) takes the square loss test
 *   when the winner is a square; otherwise FB 12" D & B.
 * - Rally back (recall): 6" straight back, facing kept; a failed recall leaves the unit where it is.
 * - Capture: a winner's double captures the leaders attached to the losing units (orders' `leaderHit`).
 */
import { IN, type Vec, headingVec, normDeg, polygonDistance, segmentCrossesPolyline } from '../../geometry/geometry.ts';
import type { ChanceHandler, DecisionHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { applyKias, attachedInspiration, coverOf, fallBack, figuresOf } from './casualties.ts';
import {
  approach,
  blowAtEnd,
  chargeFromHere,
  chargeOf,
  chargePath,
  commitElement,
  onChargeTest,
  placeUnit,
  slide,
  tac,
  unitSize,
  updTactical,
  wornRetire,
} from './charges.ts';
import type { CacFrame } from './frames.ts';
import { leaderHit } from './orders.ts';
import { attackSector, inFrontArcWithin, polyOf, sizeOf } from './shape.ts';
import {
  type CacBand,
  type CacLoser,
  type CacRollClass,
  type CacSideInput,
  CAC_RULES,
  cacResult,
  cacRollDist,
  cacTotalModifier,
  cacWinnerKia,
  cavalryWinRow,
  infantryResultRow,
  TIE_INFANTRY,
  CAVALRY_FALL_BACK,
} from './tables.ts';
import type { PendingCac, UnitState } from './types.ts';
import {
  type Action,
  type S,
  elementOf,
  onTable,
  other,
  placed,
  say,
  unitOf,
  unitsOf,
  updCommand,
  updUnit,
} from './state.ts';

type H<K extends CacFrame['t']> = Extract<CacFrame, { t: K }>;
const RULE = 'Close Assault Combat';

const setFlags = (s: S, id: string, patch: Partial<UnitState['phase']>): S =>
  updUnit(s, id, { phase: { ...unitOf(s, id).phase, ...patch } });
const isSquare = (u: UnitState) =>
  u.kind === 'infantry' && (u.formation === 'hastySquare' || u.formation === 'solidSquare');
const inLineOrColumn = (u: UnitState) =>
  (u.kind === 'infantry' || u.kind === 'cavalry') && (u.formation === 'line' || u.formation === 'column');

/** The smallest difference of a band (the tables read a difference). */
const BAND_MIN: Readonly<Record<CacBand, number>> = { '0': 0, '1-2': 1, '3-4': 3, '5-7': 5, '8+': 8 };

// ---------------------------------------------------------------------------------------------------------------------
// Modifiers [Close Assault Modifiers]
// ---------------------------------------------------------------------------------------------------------------------

/**
 * Where an attacker came from: where its charge began, or where the pursuit or exploitation that made this contact
 * began (charges' `chargeFromHere`); where it stands if it made no charge.
 */
function cameFrom(s: S, u: UnitState): Vec {
  return chargeOf(s, u.id)?.from ?? u.pos;
}

/** One side's `CacSideInput` (tables' `cacTotalModifier` adds it up): its lead unit against the other lead. */
function cacSide(
  s: S,
  lead: UnitState,
  opp: UnitState,
  role: 'attacker' | 'defender',
  units: number,
  oppUnits: number,
): CacSideInput {
  const from = role === 'attacker' ? cameFrom(s, lead) : lead.pos;
  const oppAt = role === 'defender' ? cameFrom(s, opp) : opp.pos;
  const sector = role === 'attacker' ? attackSector(placed(s, opp), { ...placed(s, lead), pos: from }) : 'front';
  const charging = lead.phase.charging && lead.kind !== 'artillery';
  const lineWider =
    lead.formation === 'line' && inLineOrColumn(lead) && inLineOrColumn(opp)
      ? sizeOf(placed(s, lead)).width / sizeOf(placed(s, opp)).width
      : undefined;
  const obstacle =
    role === 'defender' &&
    (lead.kind === 'infantry' || (lead.kind === 'artillery' && lead.formation === 'unlimbered')) &&
    s.ctx.terrain.lines.some(
      (l) =>
        (l.kind === 'minorObstacle' || l.kind === 'majorObstacle') && segmentCrossesPolyline(oppAt, lead.pos, l.points),
    );
  const bua =
    lead.kind === 'infantry' && lead.formation === 'garrison'
      ? s.ctx.buas.find((b) => b.id === lead.garrison)
      : undefined;
  const sizes = ['small', 'standard', 'large', 'extraLarge'];
  return {
    arm: lead.kind,
    cls: lead.class,
    ...(lead.kind === 'artillery' ? { crewClass: lead.crewClass } : {}),
    leader: attachedInspiration(s, lead),
    charging,
    disordered: lead.disordered,
    cavalryAtHalt: role === 'defender' && lead.kind === 'cavalry' && !charging,
    flankOrRear: role === 'attacker' && opp.kind !== 'artillery' && sector !== 'front',
    artilleryOutsideArc: role === 'attacker' && opp.kind === 'artillery' && sector !== 'front',
    ...(lead.kind === 'cavalry' ? { cavalryWeight: lead.weight } : {}),
    unitMass: sizes.indexOf(unitSize(s, lead)) - sizes.indexOf(unitSize(s, opp)) >= 2,
    units,
    opponentUnits: oppUnits,
    lanceVsInfantry: lead.kind === 'cavalry' && lead.lancers && opp.kind === 'infantry',
    ...(lineWider !== undefined ? { lineWiderRatio: lineWider } : {}),
    vsSquareOrSkirmish: (lead.kind === 'infantry' && isSquare(opp)) || opp.formation === 'skirmish',
    square: isSquare(lead) && opp.kind === 'cavalry' ? (lead.formation === 'solidSquare' ? 'solid' : 'hasty') : null,
    garrison: bua ? bua.garrison : null,
    linearObstacleVs: obstacle ? (opp.kind === 'cavalry' ? 'cavalry' : 'infantry') : null,
    sappers: role === 'attacker' && lead.kind === 'infantry' && lead.sappers && coverOf(s, opp) !== 'none',
    blown: lead.kind === 'cavalry' && lead.blown,
    worn: lead.worn,
    spent: lead.spent,
  };
}

/** Both sides' total modifiers (value + modifiers) for a CAC: attacker, defender. */
export function cacMods(s: S, f: PendingCac): { attacker: number; defender: number } {
  const a = f.attackers.map((id) => unitOf(s, id)).filter(onTable);
  const d = f.defenders.map((id) => unitOf(s, id)).filter(onTable);
  return {
    attacker: cacTotalModifier(cacSide(s, a[0]!, d[0]!, 'attacker', a.length, d.length)),
    defender: cacTotalModifier(cacSide(s, d[0]!, a[0]!, 'defender', d.length, a.length)),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// The queue: initial CACs, exploitation, 2nd CACs (C13)
// ---------------------------------------------------------------------------------------------------------------------

const live = (s: S, ids: readonly string[]) => ids.filter((id) => onTable(unitOf(s, id)));

const cacsHandler = {
  kind: 'auto' as const,
  run(s: S, _f: H<'cacs'>, log: Log): S {
    const T = tac(s);
    const take = (i: number): S => {
      const p = T.cacQueue[i]!;
      const t = updTactical(s, { cacQueue: T.cacQueue.filter((_, j) => j !== i) });
      const attackers = live(t, p.attackers);
      const defenders = live(t, p.defenders);
      if (!attackers.length || !defenders.length) return push(t, { t: 'cacs' });
      return push(t, { t: 'cacs' }, { t: 'cac', attackers, defenders, second: p.second });
    };
    const first = T.cacQueue.findIndex((p) => !p.second);
    if (first >= 0) return take(first);
    const ex = T.exploitQueue.filter((e) => onTable(unitOf(s, e.unit)));
    if (ex.length !== T.exploitQueue.length) return push(updTactical(s, { exploitQueue: ex }), { t: 'cacs' });
    if (ex.length) {
      say(log, RULE, 'all initial close assaults are resolved: exploitation moves and 2nd CACs (C13)');
      return push(s, { t: 'cacs' }, { t: 'exploit', unit: ex[0]!.unit });
    }
    const second = T.cacQueue.findIndex((p) => p.second);
    if (second >= 0) return take(second);
    return s;
  },
};

// ---------------------------------------------------------------------------------------------------------------------
// [Close Assault Combat] the roll
// ---------------------------------------------------------------------------------------------------------------------

/** The action key of an outcome class: `cac attacker 3-4 doubles lower`, `cac tie`. */
export function cacKey(c: CacRollClass): Action {
  if (c.winner === null) return 'cac tie';
  return `cac ${c.winner === 'A' ? 'attacker' : 'defender'} ${c.band}${c.winnerDoubles ? ' doubles' : ''}${c.winnerRolledLower ? ' lower' : ''}`;
}
function readKey(a: Action): CacRollClass {
  const w = a.split(' ');
  if (w[1] === 'tie') return { band: '0', winner: null, winnerDoubles: false, winnerRolledLower: false };
  return {
    band: w[2] as CacBand,
    winner: w[1] === 'attacker' ? 'A' : 'B',
    winnerDoubles: w.includes('doubles'),
    winnerRolledLower: w.includes('lower'),
  };
}

const cacHandler: ChanceHandler<S, H<'cac'>, Action> = {
  kind: 'chance',
  outcomes(s, f) {
    const m = cacMods(s, f);
    return cacRollDist(m.attacker, m.defender).map((d) => ({
      action: cacKey(d.value),
      p: d.p,
      label:
        d.value.winner === null
          ? '0: a tie'
          : `${d.value.winner === 'A' ? 'the attacker' : 'the defender'} wins by ${d.value.band}${d.value.winnerDoubles ? ', doubles' : ''}${d.value.winnerRolledLower ? ", the winner's 2D6 lower" : ''}`,
    }));
  },
  step: (s, f, a, log) => resolveCac(s, f, readKey(a), log),
  describe(s, f) {
    const m = cacMods(s, f);
    return `close assault: ${unitOf(s, f.attackers[0]!).name} (2D6 + ${m.attacker}) against ${unitOf(s, f.defenders[0]!).name} (2D6 + ${m.defender}) [${RULE}]`;
  },
};

const loserRow = (u: UnitState): CacLoser =>
  u.kind === 'artillery' ? (u.mobility === 'horse' ? 'horseArtillery' : 'footArtillery') : u.kind;

/** Apply one CAC's outcome class. */
function resolveCac(s: S, f: H<'cac'>, r: CacRollClass, log: Log): S {
  const A = live(s, f.attackers).map((id) => unitOf(s, id));
  const D = live(s, f.defenders).map((id) => unitOf(s, id));
  if (!A.length || !D.length) return s;
  const m = cacMods(s, f);
  let t = s;
  const max = t.ctx.options.maxCacPerPhase;
  for (const u of [...A, ...D]) {
    t = commitElement(t, u); // C2: a CAC commits
    const n = u.phase.cacCount + 1;
    t = setFlags(t, u.id, { cacCount: n });
    // [Close Assault Combat] "After 2nd CAC unit is disordered for any further CAC"
    if (n >= 2) t = updUnit(t, u.id, { disordered: true });
  }
  const names = `${A[0]!.name} (2D6 + ${m.attacker}) against ${D[0]!.name} (2D6 + ${m.defender})`;
  if (r.winner === null) {
    say(log, RULE, `${names}: 0, a tie${f.second ? ' (2nd CAC)' : ''}`);
    return tie(t, A, D, max, log);
  }
  const [W, L] = r.winner === 'A' ? [A, D] : [D, A];
  const w = W[0]!;
  const l = L[0]!;
  const cell = cacResult(w.kind, loserRow(l), BAND_MIN[r.band]);
  say(
    log,
    r.winner === 'A' ? 'CAC Results' : 'CAC Results',
    `${names}: ${w.name} wins by ${r.band}${r.winnerDoubles ? ' with doubles' : ''} [${w.kind === 'cavalry' ? 'Cavalry defeat' : 'Infantry or Artillery defeat'}, ${loserRow(l)}: ${cell.printed}]`,
  );
  const loserAt = l.pos;
  // the winner's options come after the losses' tests (pushed first: they run last)
  if (r.winner === 'A' && (w.kind === 'infantry' || w.kind === 'cavalry'))
    t = push(t, { t: 'cacWin', unit: w.id, band: r.band, loserAt });
  // "Victorious charging cavalry … D & B at the end of phase": every winning cavalry unit that charged, the lead and
  // the others; a defender's counter-charging cavalry counts as charging (C8)
  for (const u of W) if (u.kind === 'cavalry' && (r.winner === 'A' || u.phase.charging)) t = blowAtEnd(t, u.id);
  // C10: the loser's ME records a lost CAC
  for (const u of L) {
    const e = elementOf(t, u.element);
    t = updCommand(t, e.id, { moraleTriggers: { ...e.moraleTriggers, lostCac: true } });
  }
  // [Leader Casualties] "If the winner rolls doubles, the leader on the losing side is captured"
  if (r.winnerDoubles)
    for (const u of L) {
      const lid = unitOf(t, u.id).attachedLeader;
      const ld = lid ? t.leaders.find((x) => x.id === lid) : undefined;
      if (ld && ld.status === 'active') t = leaderHit(t, ld.id, 'captured', 'Leader Casualties', log);
    }
  // the winner: "W: n KIA" (to its lead unit), "& D"
  const wk = cacWinnerKia(cell, r.winnerRolledLower ? 2 : 3, r.winnerRolledLower ? 3 : 2);
  if (cell.winner.disordered) for (const u of W) t = updUnit(t, u.id, { disordered: true });
  // the loser
  if (cell.loser.broken) {
    for (const u of L) {
      const now = figuresOf(unitOf(t, u.id)).now;
      say(log, RULE, `${u.name} is broken: removed (C13)`);
      t = applyKias(t, u.id, now, 'cac', RULE, log);
    }
  } else if (cell.loser.checkCavalryResults) {
    // [Result Cavalry results explanations] Loss 1-2
    for (const u of L) {
      if (u.kind !== 'cavalry') continue;
      if (isSquare(w)) t = push(t, { t: 'chargeTest', unit: u.id, reason: 'squareLoss' });
      else t = cavalryFallBack(t, u.id, CAVALRY_FALL_BACK.otherwise, true, log);
    }
  } else {
    const mv = cell.loser.move;
    for (const u of L) {
      if (mv)
        t = fallBack(
          t,
          u.id,
          mv.inches,
          mv.kind === 'Ret' || cell.loser.faceAway ? 'away' : 'keep',
          'CAC Results',
          log,
        );
      const patch: Partial<UnitState> = {};
      if (cell.loser.disordered) Object.assign(patch, { disordered: true });
      if (cell.loser.blown && u.kind === 'cavalry') Object.assign(patch, { blown: true });
      t = updUnit(t, u.id, patch);
    }
    t = applyKias(t, l.id, cell.loser.kia, 'cac', 'CAC Results', log);
  }
  t = applyKias(t, w.id, wk, 'cac', 'CAC Results', log);
  return t;
}

/** FB 12" D & B (or 5" D, not blown, after a passed square loss test). */
function cavalryFallBack(s: S, id: string, inchesMax: number, blown: boolean, log: Log): S {
  const t = fallBack(s, id, inchesMax, 'keep', 'Result Cavalry results explanations', log);
  return updUnit(t, id, { disordered: true, ...(blown ? { blown: true } : {}) });
}

/** [Result explanations] the 0 row (C13). */
function tie(s: S, A: UnitState[], D: UnitState[], max: number, log: Log): S {
  let t = s;
  const a = A[0]!;
  const d = D[0]!;
  const cav = [a, d].filter((u) => u.kind === 'cavalry');
  if (!cav.length) {
    // "Inf vs Inf or Arty: all units disordered & 1 KIA"
    for (const u of [...A, ...D]) t = updUnit(t, u.id, { disordered: true });
    const want = `${A.map((u) => u.id).join(',')}|${D.map((u) => u.id).join(',')}`;
    let next: CacFrame | { t: 'chargeTest'; unit: string; reason: 'refight'; want: string };
    if (unitOf(t, a.id).phase.cacCount >= max) next = { t: 'cacTieFallBack', unit: a.id };
    else if (a.worn || a.spent) next = { t: 'chargeTest', unit: a.id, reason: 'refight', want };
    else next = refightFrame(A, D);
    if (next.t === 'cac') t = deployLine(t, a.id, log);
    t = push(t, next);
    t = applyKias(t, d.id, TIE_INFANTRY.kiaEach, 'cac', 'Result Infantry results explanations', log);
    t = applyKias(t, a.id, TIE_INFANTRY.kiaEach, 'cac', 'Result Infantry results explanations', log);
    // a lead unit the tie's KIA broke: nothing is left to re-fight (the re-fight, or the test before it, is dropped)
    if (next.t !== 'cacTieFallBack' && (!live(t, [a.id]).length || !live(t, [d.id]).length)) {
      say(
        log,
        'Result Infantry results explanations',
        `no re-fight: ${!live(t, [a.id]).length ? a.name : d.name} is broken`,
      );
      return { ...t, stack: t.stack.filter((x) => x !== next) };
    }
    return t;
  }
  if (a.kind === 'cavalry' && d.kind === 'cavalry') {
    say(log, 'Result Cavalry results explanations', 'cavalry against cavalry, 0: both fall back 12" D & B (C13)');
    for (const u of [...A, ...D]) if (u.kind === 'cavalry') t = cavalryFallBack(t, u.id, 12, true, log);
    return t;
  }
  const c = cav[0]!;
  const foe = c.id === a.id ? d : a;
  if (foe.kind === 'artillery') {
    say(log, 'Result Cavalry results explanations', 'cavalry against artillery, 0: the cavalry falls back 12" D & B');
    for (const u of c.id === a.id ? A : D) if (u.kind === 'cavalry') t = cavalryFallBack(t, u.id, 12, true, log);
    return t;
  }
  return push(t, { t: 'chargeTest', unit: c.id, reason: 'cavTie', want: foe.id });
}

const refightFrame = (A: UnitState[], D: UnitState[]): H<'cac'> => ({
  t: 'cac',
  attackers: A.map((u) => u.id),
  defenders: D.map((u) => u.id),
  second: true,
});

function deployLine(s: S, id: string, log: Log): S {
  const u = unitOf(s, id);
  say(
    log,
    'Result Infantry results explanations',
    `${u.name} deploys into line and re-fights at once (C13: its 2nd CAC)`,
  );
  return u.kind === 'infantry' && u.formation !== 'line' && u.formation !== 'garrison'
    ? updUnit(s, id, { formation: 'line' })
    : s;
}

// ---------------------------------------------------------------------------------------------------------------------
// Tests of the results (charges.ts rolls them: `chargeTest`)
// ---------------------------------------------------------------------------------------------------------------------

onChargeTest('squareLoss', (s, f, pass, log) =>
  pass
    ? cavalryFallBack(s, f.unit, CAVALRY_FALL_BACK.squarePassed, false, log)
    : cavalryFallBack(s, f.unit, 12, true, log),
);

onChargeTest('cavTie', (s, f, pass, log) => {
  if (!pass) return cavalryFallBack(s, f.unit, 12, true, log);
  const u = unitOf(s, f.unit);
  const foe = f.want ? s.units.find((x) => x.id === f.want) : undefined;
  let t = updUnit(s, u.id, { disordered: true });
  t = blowAtEnd(t, u.id);
  if (u.phase.cacCount >= t.ctx.options.maxCacPerPhase || !foe || !onTable(foe)) return t;
  // "may exploit 5" from back of square & D before contact with new target"
  const v = headingVec(u.facing);
  const depth = (sizeOf(placed(t, foe)).depth / 2 + sizeOf(placed(t, u)).depth / 2) * IN + IN / 4;
  const pos = { x: Math.round(foe.pos.x + v.x * depth), y: Math.round(foe.pos.y + v.y * depth) };
  t = placeUnit(t, u.id, pos, u.facing);
  say(
    log,
    'Result Cavalry results explanations',
    `${u.name} passes through to the back of ${foe.name}, disordered: it may exploit 5"`,
  );
  return updTactical(t, {
    exploitQueue: [...tac(t).exploitQueue, { unit: u.id, maxDistance: 5, disorderAtEnd: false }],
  });
});

onChargeTest('refight', (s, f, pass, log) => {
  if (!pass) return wornRetire(s, f.unit, 'Skill Tests', log);
  const [a, d] = (f.want ?? '').split('|');
  const A = (a ?? '')
    .split(',')
    .filter(Boolean)
    .map((id) => unitOf(s, id));
  const D = (d ?? '')
    .split(',')
    .filter(Boolean)
    .map((id) => unitOf(s, id));
  if (!A.some(onTable) || !D.some(onTable)) return s; // a side gone since: nothing to re-fight
  return push(deployLine(s, f.unit, log), refightFrame(A.filter(onTable), D.filter(onTable)));
});

onChargeTest('rallyBack', (s, f, pass, log) => (pass ? rallyBack(s, f.unit, log) : s));

function rallyBack(s: S, id: string, log: Log): S {
  const u = unitOf(s, id);
  say(log, 'Result Cavalry results explanations', `${u.name} rallies back 6" (D & B at the end of the phase)`);
  return slide(s, id, normDeg(u.facing + 180), 6, u.facing);
}

function queueExploit(s: S, id: string, inchesMax: number, disorderAtEnd: boolean): S {
  const u = unitOf(s, id);
  // "Max exploitation move is set by result of the 1st CAC"
  const first = u.phase.exploitMax > 0 ? Math.min(u.phase.exploitMax, inchesMax) : inchesMax;
  const t = u.phase.exploitMax > 0 ? s : setFlags(s, id, { exploitMax: inchesMax });
  return updTactical(t, { exploitQueue: [...tac(t).exploitQueue, { unit: id, maxDistance: first, disorderAtEnd }] });
}

// ---------------------------------------------------------------------------------------------------------------------
// The winner's options [Result Infantry / Cavalry results explanations]
// ---------------------------------------------------------------------------------------------------------------------

const WHEELS = [-45, -22.5, 0, 22.5, 45];

function winOptions(s: S, f: H<'cacWin'>): Action[] {
  const u = unitOf(s, f.unit);
  const diff = BAND_MIN[f.band as CacBand];
  const canCac = u.phase.cacCount < s.ctx.options.maxCacPerPhase;
  const out: Action[] = WHEELS.map((w) => `take ground ${u.id} wheel ${w}`);
  if (u.kind === 'infantry') {
    if (canCac) for (const e of infantryResultRow(diff).exploit) out.push(`exploit ${u.id} ${e.inches}`);
  } else {
    const row = cavalryWinRow(diff);
    if (canCac && row.exploit) out.push(`exploit ${u.id} ${row.exploit}`);
    out.push(`rally back ${u.id}`);
  }
  out.push(`hold ${u.id}`);
  return out;
}

function applyOption(s: S, id: string, a: Action, band: string | null, log: Log): S {
  const u = unitOf(s, id);
  const w = a.split(' ');
  if (a.startsWith('exploit')) {
    const n = Number(w[2]);
    const row =
      u.kind === 'infantry'
        ? infantryResultRow(BAND_MIN[(band ?? '3-4') as CacBand]).exploit.find((e) => e.inches === n)
        : undefined;
    say(log, 'Result explanations', `${u.name} will exploit up to ${n}" (after all initial CACs, C13)`);
    return queueExploit(s, id, n, row?.disordered ?? false);
  }
  if (a.startsWith('rally back'))
    return push(s, { t: 'chargeTest', unit: id, reason: 'rallyBack', ...(band ? { band } : {}) });
  if (a.startsWith('hold')) {
    say(log, 'Result explanations', `${u.name} holds its ground`);
    return s;
  }
  return s;
}

function takeGround(s: S, f: H<'cacWin'>, wheel: number, log: Log): S {
  const u = unitOf(s, f.unit);
  const facing = Math.round(normDeg(u.facing + wheel)) % 360;
  const d = Math.hypot(f.loserAt.x - u.pos.x, f.loserAt.y - u.pos.y);
  const heading = Math.atan2(f.loserAt.x - u.pos.x, f.loserAt.y - u.pos.y) * (180 / Math.PI);
  let t = slide(s, u.id, normDeg(heading), d / IN, u.facing);
  t = placeUnit(t, u.id, unitOf(t, u.id).pos, facing);
  const line = u.kind === 'infantry' && f.band === '1-2';
  if (line) t = updUnit(t, u.id, { formation: u.formation === 'garrison' ? u.formation : 'line', disordered: true });
  say(
    log,
    u.kind === 'cavalry' ? 'Result Cavalry results explanations' : 'Result Infantry results explanations',
    `${u.name} takes ground${wheel ? ` and wheels ${wheel}°` : ''}${line ? ', in line, disordered' : ''}`,
  );
  return t;
}

const cacWinHandler: DecisionHandler<S, H<'cacWin'>, Action> = {
  kind: 'decision',
  owner: (f, s) => unitOf(s, f.unit).side,
  legal: winOptions,
  skip: (s, f) => !onTable(unitOf(s, f.unit)),
  step(s, f, a, log) {
    const u = unitOf(s, f.unit);
    const british3 = u.kind === 'cavalry' && u.nationality === 'british' && BAND_MIN[f.band as CacBand] >= 3;
    // "British cavalry attempts to not exploit after 3+ win" (+5)
    if (british3 && !a.startsWith('exploit') && u.phase.cacCount < s.ctx.options.maxCacPerPhase)
      return notExploit(s, f, a);
    if (a.startsWith('take ground')) return takeGround(s, f, Number(a.split(' ')[4]), log);
    return applyOption(s, f.unit, a, f.band, log);
  },
  describe: (s, f) => `${unitOf(s, f.unit).name} has won by ${f.band}: its option [Result explanations]`,
};

/** A British 3+ winner's test before a choice other than exploiting; a passed test lets it take the choice. */
function notExploit(s: S, f: H<'cacWin'>, want: Action): S {
  return push(s, {
    t: 'chargeTest',
    unit: f.unit,
    reason: 'notExploit',
    band: f.band,
    want: `${want}@${f.loserAt.x},${f.loserAt.y}`,
  });
}

onChargeTest('notExploit', (s, f, pass, log) => {
  const [want, at] = (f.want ?? '').split('@');
  if (!pass) {
    const row = cavalryWinRow(BAND_MIN[(f.band ?? '3-4') as CacBand]);
    say(log, 'Skill Tests', `${unitOf(s, f.unit).name} must exploit ${row.exploit}"`);
    return queueExploit(s, f.unit, row.exploit ?? 0, false);
  }
  const [x, y] = (at ?? '').split(',').map(Number);
  if (want?.startsWith('take ground'))
    return takeGround(
      s,
      { t: 'cacWin', unit: f.unit, band: f.band ?? '3-4', loserAt: { x: x ?? 0, y: y ?? 0 } },
      Number(want.split(' ')[4]),
      log,
    );
  if (want?.startsWith('rally back')) return rallyBack(s, f.unit, log);
  return applyOption(s, f.unit, want ?? `hold ${f.unit}`, f.band ?? null, log);
});

const tieFallBackHandler: DecisionHandler<S, H<'cacTieFallBack'>, Action> = {
  kind: 'decision',
  owner: (f, s) => unitOf(s, f.unit).side,
  legal: (_s, f) => [
    `fall back ${f.unit} ${TIE_INFANTRY.fallBackMin}`,
    `fall back ${f.unit} ${TIE_INFANTRY.fallBackMax}`,
  ],
  skip: (s, f) => !onTable(unitOf(s, f.unit)),
  step(s, f, a, log) {
    const u = unitOf(s, f.unit);
    const t = updUnit(s, f.unit, {
      disordered: true,
      ...(u.kind === 'infantry' && u.formation !== 'garrison' ? { formation: 'line' as const } : {}),
    });
    return fallBack(t, f.unit, Number(a.split(' ')[3]), 'keep', 'Result Infantry results explanations', log);
  },
  describe: (s, f) => `${unitOf(s, f.unit).name} cannot re-fight: fall back 2" or 4" in line, disordered [C13]`,
};

// ---------------------------------------------------------------------------------------------------------------------
// Exploitation (C13)
// ---------------------------------------------------------------------------------------------------------------------

function exploitEntry(s: S, id: string) {
  return tac(s).exploitQueue.find((e) => e.unit === id);
}

/** The enemies an exploiter may contact: in its front arc, reached within its exploitation distance. */
function exploitTargets(s: S, id: string): UnitState[] {
  const u = unitOf(s, id);
  const e = exploitEntry(s, id);
  if (!e || u.phase.cacCount >= s.ctx.options.maxCacPerPhase) return [];
  const me = placed(s, u);
  return unitsOf(s, other(u.side)).filter((x) => {
    const body = polyOf(placed(s, x));
    if (!inFrontArcWithin(me, body, e.maxDistance * IN)) return false;
    const p = chargePath(s, u, x);
    return !p.impassable && p.cost <= e.maxDistance * IN && polygonDistance(polyOf(me), body) <= e.maxDistance * IN;
  });
}

const exploitHandler: DecisionHandler<S, H<'exploit'>, Action> = {
  kind: 'decision',
  owner: (f, s) => unitOf(s, f.unit).side,
  legal(s, f) {
    const out: Action[] = exploitTargets(s, f.unit).map((x) => `exploit ${f.unit} into ${x.id}`);
    out.push(`exploit ${f.unit} ahead`);
    const u = unitOf(s, f.unit);
    if (!(u.kind === 'cavalry' && u.nationality === 'british')) out.push(`halt ${f.unit}`);
    return out;
  },
  skip: (s, f) => !onTable(unitOf(s, f.unit)) || !exploitEntry(s, f.unit),
  step(s, f, a, log) {
    const e = exploitEntry(s, f.unit)!;
    let t = updTactical(s, { exploitQueue: tac(s).exploitQueue.filter((x) => x !== e) });
    const u = unitOf(t, f.unit);
    if (a.startsWith('halt')) {
      say(log, RULE, `${u.name} does not exploit`);
      return t;
    }
    t = setFlags(t, u.id, { moved: true, charging: true });
    const w = a.split(' ');
    if (w[2] === 'ahead') {
      t = slide(t, u.id, u.facing, e.maxDistance, u.facing);
      say(log, RULE, `${u.name} exploits ${e.maxDistance}" straight ahead`);
      return e.disorderAtEnd ? updUnit(t, u.id, { disordered: true }) : t;
    }
    const x = unitOf(t, w[3]!);
    const to = approach(t, u, polyOf(placed(t, x)), 1);
    t = chargeFromHere(placeUnit(t, u.id, to.pos, to.facing), u.id, u.pos, u.facing);
    say(log, RULE, `${u.name} exploits into ${x.name}: a 2nd CAC, charging, no closing fire (C13)`);
    // "Units exploiting into a BUA are automatically disordered"
    if (e.disorderAtEnd || (CAC_RULES.exploitIntoBuaDisordered && x.kind === 'infantry' && x.formation === 'garrison'))
      t = updUnit(t, u.id, { disordered: true });
    return updTactical(t, { cacQueue: [...tac(t).cacQueue, { attackers: [u.id], defenders: [x.id], second: true }] });
  },
  describe: (s, f) =>
    `${unitOf(s, f.unit).name} exploits up to ${exploitEntry(s, f.unit)?.maxDistance ?? 0}" [${RULE}, C13]`,
};

export const cacHandlers = {
  cacs: cacsHandler,
  cac: cacHandler,
  cacWin: cacWinHandler,
  cacTieFallBack: tieFallBackHandler,
  exploit: exploitHandler,
};
