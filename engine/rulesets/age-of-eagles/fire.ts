/**
 * [Volley & Cannonade (2nd) Phase] a. all enemy (non-phasing) unit fire, then b. all friendly unit fire. Each unit
 * able to fire picks one target in its front arc, in range and in sight (or holds its fire), in id order; each shot is
 * a chance node over the results table. A6: fire within a step is simultaneous, so the results wait in `pending` and
 * take effect together at the step's end (`fireApply`).
 */
import type { AutoHandler, ChanceHandler, DecisionHandler, Log } from '../../core/procedure.ts';
import { push } from '../../core/procedure.ts';
import { checkCharge, contactsOf } from './charge.ts';
import { addHits } from './hits.ts';
import { coverLevel, enfiladed, fireRange, firingStands, inFrontArc, lineOfSight } from './shape.ts';
import { IN, onTable, phasing, unitOf, updUnit } from './state.ts';
import {
  FIRE_RESULTS,
  MAX_BATTERIES_PER_TARGET,
  batteryFirePoints,
  fireEffect,
  firePointDrm,
  musketFirePoints,
  rollOn,
  targetDrm,
} from './tables.ts';
import type { Action, AoeState, Frame, PendingHit, Side, Unit } from './types.ts';

type F<T extends Frame['t']> = Extract<Frame, { t: T }>;

const RESULT_KEYS = ['withering', 'telling', 'galling', 'lively', 'desultory'] as const;

/** [Volley & Cannonade] who may fire: infantry (any formation) and unlimbered batteries not silenced; never cavalry. */
function mayFire(u: Unit): boolean {
  if (u.gone || u.fired) return false;
  if (u.k === 'inf') return true;
  if (u.k === 'bat') return !u.limbered && !u.dis;
  return false;
}

/** One possible shot: its fire points' DRM and the target's. */
interface Shot {
  readonly target: Unit;
  readonly drm: number;
  readonly cannon: boolean;
  readonly fp: number;
}

const shotMemo = new WeakMap<AoeState, Map<string, Shot[]>>();

/** The shots `u` could make now (A4 range and sight, A6 who may fire at what), computed once per state. */
export function shots(s: AoeState, u: Unit): Shot[] {
  let m = shotMemo.get(s);
  if (!m) {
    m = new Map();
    shotMemo.set(s, m);
  }
  let out = m.get(u.id);
  if (!out) {
    out = computeShots(s, u);
    m.set(u.id, out);
  }
  return out;
}

function computeShots(s: AoeState, u: Unit): Shot[] {
  if (!mayFire(u)) return [];
  const out: Shot[] = [];
  // A6: a unit in contact fires only at an enemy in contact with it, with its front rank; others may not fire at a
  // unit in contact with a friendly unit
  const engaged = contactsOf(s, u.id);
  for (const t of onTable(s)) {
    if (t.side === u.side) continue;
    if (engaged.length ? !engaged.includes(t.id) : contactsOf(s, t.id).length > 0) continue;
    if (!engaged.length && (!inFrontArc(u, t) || !lineOfSight(s, u, t))) continue;
    const range = fireRange(u, t) / IN;
    let fp: number | null;
    let skirmish = false;
    if (u.k === 'bat') fp = batteryFirePoints(u.guns, u.cal, range, u.damaged);
    else if (u.k === 'inf') {
      const m = musketFirePoints({
        musket: u.ranks === 2 ? 'TwoRank' : 'ThreeRank',
        firingStands: engaged.length && u.f === 'Square' ? 2 : firingStands(u),
        range,
        square: u.f === 'Square',
        inBua: !!u.bua,
        disordered: u.dis,
      });
      // [Fire Points] no skirmish fire from March Column either (A6)
      if (m && m.skirmish && u.f === 'MarchColumn') continue;
      fp = m ? m.fp : null;
      skirmish = !!m?.skirmish;
    } else fp = null;
    if (fp === null) continue;
    const tForm = t.k === 'bat' || t.bua ? null : t.f;
    const drm =
      firePointDrm(fp) +
      targetDrm({
        fieldColumnAboutFacedLimberedOrChanged:
          tForm === 'FieldColumn' || t.about || t.changed || (t.k === 'bat' && t.limbered),
        marchColumnMasseSquareOrEnfiladed:
          tForm === 'MarchColumn' || tForm === 'Masse' || tForm === 'Square' || enfiladed(u, t),
        openOrderOrSkirmishFire: tForm === 'OpenOrder' || skirmish,
        cover: coverLevel(s, t, u),
      });
    out.push({ target: t, drm, cannon: u.k === 'bat', fp });
  }
  // [Volley & Cannonade] a maximum of two batteries on any one unit unless there are no other targets
  if (u.k === 'bat') {
    const capped = out.filter((x) => batteriesAt(s, x.target.id) < MAX_BATTERIES_PER_TARGET);
    return capped.length ? capped : out;
  }
  return out;
}

const batteriesAt = (s: AoeState, target: string): number =>
  s.pending.filter((p) => p.target === target && p.cannon).length;

/** [Volley & Cannonade] the step's frames: every unit of the firing side that could fire, in id order, then the effects. */
export function startFire(s: AoeState, step: 'enemy' | 'friendly', _log: Log): AoeState {
  const side: Side = step === 'enemy' ? ((1 - phasing(s)) as Side) : phasing(s);
  const firers = onTable(s)
    .filter((u) => u.side === side && mayFire(u))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const frames: Frame[] = [{ t: 'fireApply', step }];
  for (let i = firers.length - 1; i >= 0; i--) frames.push({ t: 'fireTarget', p: side, u: firers[i]!.id });
  return push({ ...s, pending: [] }, ...frames);
}

const fireTarget: DecisionHandler<AoeState, F<'fireTarget'>, Action> = {
  kind: 'decision',
  owner: (f) => f.p,
  legal: (s, f) => [
    ...shots(s, unitOf(s, f.u)).map((x): Action => ({ a: 'fire', target: x.target.id })),
    { a: 'holdFire' },
  ],
  skip: (s, f) => shots(s, unitOf(s, f.u)).length === 0,
  step(s, f, a, log) {
    if (a.a === 'holdFire') return updUnit(s, f.u, { fired: true });
    if (a.a !== 'fire') throw new Error('fireTarget: unexpected action');
    const u = unitOf(s, f.u);
    const shot = shots(s, u).find((x) => x.target.id === a.target)!;
    log?.push({
      rule: 'Volley & Cannonade',
      text: `${u.id} fires at ${a.target}: ${shot.fp} fire points, DRM ${shot.drm >= 0 ? '+' : ''}${shot.drm}`,
    });
    return push(updUnit(s, f.u, { fired: true }), {
      t: 'shot',
      u: u.id,
      target: a.target,
      drm: shot.drm,
      cannon: shot.cannon,
    });
  },
  describe: (s, f) => `${f.u}: fire at which target? (${s.phase === 'fire-enemy' ? 'enemy' : 'friendly'} fire)`,
};

/** [V&C Results] D10 + DRM (A1), read on the results table. */
const shot: ChanceHandler<AoeState, F<'shot'>, Action> = {
  kind: 'chance',
  outcomes(_s, f) {
    return rollOn(FIRE_RESULTS, f.drm).map(({ value: i, p }) => ({
      action: { a: 'shotRoll', r: i } as Action,
      p,
      label: FIRE_RESULTS[i]!.name,
    }));
  },
  step(s, f, a, log) {
    if (a.a !== 'shotRoll') throw new Error('shot: not a fire roll');
    const r = FIRE_RESULTS[a.r]!;
    const lively = r.cannonadeOnly && !f.cannon;
    log?.push({
      rule: 'Volley & Cannonade',
      text: `${f.u} at ${f.target}: ${r.name}${lively ? ' (musketry: no effect)' : ''}`,
    });
    const hit: PendingHit = { target: f.target, result: RESULT_KEYS[a.r]!, cannon: f.cannon };
    return { ...s, pending: [...s.pending, hit] };
  },
  describe: (_s, f) => `${f.u}'s fire at ${f.target} (D10 ${f.drm >= 0 ? '+' : ''}${f.drm})`,
};

/** A6: the step's results take effect together; A8: a second damaged gun wrecks the battery. */
const fireApply: AutoHandler<AoeState, F<'fireApply'>> = {
  kind: 'auto',
  run(s0, _f, log) {
    let s = s0;
    for (const p of s0.pending) {
      const t = unitOf(s, p.target);
      if (t.gone) continue;
      const row = FIRE_RESULTS[RESULT_KEYS.indexOf(p.result)]!;
      const e = fireEffect(row.min === -Infinity ? 0 : row.min, p.cannon ? 'cannonade' : 'musketry');
      if (t.k === 'bat') {
        if (e.battery === 'wrecked' || (e.battery === 'damaged' && t.damaged)) {
          log?.push({ rule: 'Volley & Cannonade', text: `${t.id}: a gun stand wrecked, the battery is removed (A8)` });
          s = updUnit(s, t.id, { gone: 'wrecked' });
        } else if (e.battery === 'damaged') s = updUnit(s, t.id, { damaged: true });
        else if (e.battery === 'silenced') s = updUnit(s, t.id, { dis: true });
        continue;
      }
      if (e.troopsDisordered) s = updUnit(s, t.id, { dis: true });
      if (e.troopHits) s = addHits(s, t.id, e.troopHits, 'Volley & Cannonade', log);
      // [Volley & Cannonade] Telling or Withering: a charging unit in contact is checked
      if (e.chargeChecked && !unitOf(s, t.id).gone) s = checkCharge(s, t.id, log);
    }
    return { ...s, pending: [] };
  },
};

export const fireHandlers = { fireTarget, shot, fireApply };
