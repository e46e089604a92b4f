/**
 * Assault fire [14.12, 14.13, 14.2]: each side's dice from its base (non-cavalry SP plus cavalry
 * halved, total rounded up), one leader's rating (capped [3.1]), the summed percentage modifiers, and the per-die
 * DRMs capped at +2 [14.22]. Terrain (the target area's kinds, cumulative, and the one best boundary benefit for the
 * defender) modifies the attacker only; the placeholder TEC of the digest supplies the values. Pure.
 */
import type { AreaId, AreaMap } from '../../areas/map.ts';
import { diceFor, leaderBonus } from './tables.ts';

/** Placeholder TEC assault modifiers to the attacker's strength, by area kind and boundary kind. */
const AREA_PCT: Record<string, number> = {
  woods: -25,
  forest: -25,
  'special-foliage': -25,
  village: -25,
  hamlet: -25,
  town: -50,
  city: -50,
  swamp: -25,
  'defensive-works': -25,
};
const BOUNDARY_PCT: Record<string, number> = {
  escarpment: -25,
  stream: -25,
  brook: -25,
  'minor-river': -50,
  'tree-line': -25,
  hedgerow: -25,
};

/**
 * The attacker's terrain modifier for an assault from `from` into `to` [14.21]: the target area's kinds and specials
 * add up [2.3]; of the crossed boundary's kinds the defender takes the one best for him; a bridge makes it
 * −50% [13.36]; a ford leaves the water boundary's effect.
 */
export function assaultTerrainPct(map: AreaMap, from: AreaId, to: AreaId): number {
  const a = map.area(to);
  let pct = 0;
  for (const k of [...a.terrain, ...a.special]) pct += AREA_PCT[k] ?? 0;
  const b = map.boundary(from, to);
  if (!b || b.kind !== 'side')
    throw new Error(`no assault across ${from}|${to}: assaults need a side boundary [14.61]`);
  let best = 0;
  for (const k of b.terrain) best = Math.min(best, BOUNDARY_PCT[k] ?? 0);
  if (b.bridge) best = Math.min(best, -50);
  return pct + best;
}

export interface AssaultUnit {
  readonly kind: 'infantry' | 'cavalry' | 'artillery';
  readonly sp: number;
  readonly elite?: boolean;
  readonly rifle?: boolean;
  /** Defending artillery or LC attacked through its flank [14.21]. */
  readonly flanked?: boolean;
  readonly inSquare?: boolean;
  /** Attacking from the defending LC's flank or rear [14.22]. */
  readonly fromFlankOrRear?: boolean;
  readonly massedColumn?: boolean;
  readonly reverseSlope?: boolean;
}

export interface AssaultSide {
  readonly role: 'attacker' | 'defender';
  readonly units: readonly AssaultUnit[];
  readonly leaderTactical: number;
  readonly weather: 'clear' | 'rain' | 'fog' | 'snow';
  /** Elevation of the area this side fires at, minus its own. */
  readonly targetHigher: number;
  /** Attacker only: the terrain modifier [14.21]. */
  readonly terrainPct?: number;
  readonly combinedArms?: boolean;
  readonly moraleTwice?: boolean;
  /** Defender only: defending against a Massed Column [14.22]. */
  readonly vsMassedColumn?: boolean;
}

/** Dice per DRM level (each capped at +2) for one side of an assault. */
export function assaultDice(s: AssaultSide): { n: number; drm: number }[] {
  const sideDrm = (s.combinedArms ? 1 : 0) + (s.moraleTwice ? 1 : 0);
  const sidePct =
    (s.weather === 'rain' || s.weather === 'snow' ? -25 : 0) +
    (s.targetHigher > 0 ? -25 : s.targetHigher < 0 ? 25 : 0) +
    (s.role === 'attacker' ? (s.terrainPct ?? 0) : 0);
  // group units by their own percentage and DRM
  const groups = new Map<string, { pct: number; drm: number; base: number; cav: number }>();
  let rawSp = 0;
  for (const u of s.units) {
    rawSp += u.sp;
    let pct = sidePct;
    if ((s.weather === 'rain' || s.weather === 'snow') && u.rifle) pct += 25; // rifles are exempt [14.21]
    if (u.inSquare) pct -= 50;
    if (u.flanked) pct -= 50;
    let drm = sideDrm + (u.elite ? 1 : 0) + (u.fromFlankOrRear ? 1 : 0);
    if (u.massedColumn && s.role === 'attacker' && u.kind === 'infantry') drm += 2;
    if (s.vsMassedColumn && (u.kind === 'infantry' || u.kind === 'artillery')) drm += 1;
    const key = `${pct}/${drm}`;
    const g = groups.get(key) ?? { pct, drm, base: 0, cav: 0 };
    if (u.kind === 'cavalry') g.cav += u.sp;
    else g.base += u.sp + (u.reverseSlope && u.kind === 'infantry' && s.role === 'defender' ? 1 : 0); // [17.22]
    groups.set(key, g);
  }
  const out: { n: number; drm: number }[] = [];
  const bonus = leaderBonus(s.leaderTactical, rawSp);
  // the leader joins the group at the side's own modifiers (A-03: his dice take only the side-wide DRM)
  let leaderPlaced = bonus === 0;
  for (const g of groups.values()) {
    let base = g.base + Math.ceil(g.cav / 2); // cavalry halved once [14.12]
    if (!leaderPlaced && g.pct === sidePct && g.drm === sideDrm) {
      base += bonus;
      leaderPlaced = true;
    }
    out.push({ n: diceFor(base, g.pct), drm: Math.min(2, g.drm) });
  }
  if (!leaderPlaced) out.push({ n: diceFor(bonus, sidePct), drm: Math.min(2, sideDrm) });
  return out.filter((d) => d.n > 0);
}
