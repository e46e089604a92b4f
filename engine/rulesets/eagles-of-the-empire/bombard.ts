/**
 * Bombardment targeting [12.4–12.57]: range by artillery kind and weather, the elevation envelope, line of sight over
 * the area map (engine/areas) with this ruleset's blocking terrain and troops, and facing [12.43]. Pure.
 */
import { type LosResult, checkLos } from '../../areas/los.ts';
import type { AreaId, AreaMap, Boundary } from '../../areas/map.ts';
import type { Weather } from './types.ts';

export type ArtKind = 'foot' | 'heavy' | 'horse' | 'mortar' | 'rocket' | 'licorne';

/** Range band [12.4, 12.41, 12.42] (A-25): min and max in areas, by kind and weather. */
export function artilleryRange(
  kind: ArtKind,
  weather: Weather,
  licorneMinRange1 = false,
): { min: number; max: number } {
  switch (kind) {
    case 'foot':
    case 'horse':
      return weather === 'snow' ? { min: 1, max: 1 } : { min: 1, max: 2 };
    case 'heavy':
      return weather === 'snow' ? { min: 1, max: 1 } : weather === 'rain' ? { min: 1, max: 2 } : { min: 1, max: 3 };
    case 'mortar':
      return { min: 2, max: 4 }; // never changed by weather [12.4]
    case 'rocket':
      return weather === 'snow' ? { min: 1, max: 1 } : { min: 1, max: 2 };
    case 'licorne':
      return weather === 'snow' ? { min: 1, max: 1 } : { min: licorneMinRange1 ? 1 : 2, max: 3 }; // A-25: snow leaves range 1, LOS rules apply; option licorneMinRange1
  }
}

/** Elevation envelope: target − firer elevations the kind can reach [12.55, 12.57]. */
function envelope(kind: ArtKind, delta: number): boolean {
  switch (kind) {
    case 'foot':
    case 'horse':
      return delta >= -2 && delta <= 1;
    case 'heavy':
      return delta >= -3 && delta <= 1;
    case 'licorne':
      return delta >= -2 && delta <= 2;
    case 'mortar':
    case 'rocket':
      return delta <= 3;
  }
}

/** High-angle fire ignores line of sight: mortars, rockets, and a licorne at range 3 [12.57, 12.4] (A-25). */
function ignoresLos(kind: ArtKind, range: number): boolean {
  return kind === 'mortar' || kind === 'rocket' || (kind === 'licorne' && range === 3);
}

/** Area terrain that blocks line of sight [12.52] (villages and hamlets only when the scenario says so). */
function blockingTerrain(terrain: readonly string[], villagesBlock: boolean): boolean {
  return terrain.some(
    (t) =>
      t === 'woods' ||
      t === 'forest' ||
      t === 'special-foliage' ||
      t === 'town' ||
      t === 'city' ||
      (villagesBlock && (t === 'village' || t === 'hamlet')),
  );
}

/** Boundary terrain that blocks line of sight: a tree-line, not a hedgerow [12.54a] (placeholder TEC, A-29). */
function blockingBoundary(b: Boundary): boolean {
  return b.terrain.includes('tree-line');
}

export interface TargetQuery {
  readonly map: AreaMap;
  readonly from: AreaId;
  readonly to: AreaId;
  readonly kind: ArtKind;
  readonly weather: Weather;
  /** The firer's conformation (null in an all-around area or without one). */
  readonly conf: string | null;
  /** Troops that block: an infantry long counter of either side, or 3+ cavalry steps [12.52]. */
  readonly troopsBlock: (area: AreaId) => boolean;
  readonly villagesBlock?: boolean;
  /** Option licorneMinRange1 (A-25). */
  readonly licorneMinRange1?: boolean;
}

export type TargetVerdict =
  | { readonly ok: true; readonly range: number; readonly los: LosResult | null }
  | { readonly ok: false; readonly rule: string; readonly why: string };

/** Whether artillery of `kind` in `from` may bombard `to`, and if not, the rule that forbids it. */
export function canBombard(q: TargetQuery): TargetVerdict {
  const { map } = q;
  const range = map.range(q.from, q.to);
  const band = artilleryRange(q.kind, q.weather, q.licorneMinRange1);
  if (range < band.min || range > band.max)
    return {
      ok: false,
      rule: q.weather === 'clear' || q.kind === 'mortar' ? '12.4' : q.weather === 'snow' ? '12.42' : '12.41',
      why: `range ${range} is outside ${band.min}–${band.max} for ${q.kind} artillery in ${q.weather}`,
    };
  const los = checkLos(map, q.from, q.to, {
    envelope: (d) => envelope(q.kind, d),
    ignoresLos: ignoresLos(q.kind, range),
    blocksArea: (a) => blockingTerrain(map.area(a).terrain, !!q.villagesBlock) || q.troopsBlock(a),
    blocksBoundary: blockingBoundary,
  });
  if (!los.clear)
    return {
      ok: false,
      rule: los.blockedBy === 'envelope' ? '12.55' : '12.56',
      why: `line of sight: ${los.blockedBy}${los.where ? ` (${los.where})` : ''}`,
    };
  // [12.43] the first area along the path must be one the artillery faces (everything is front all round [13.92])
  const first = los.trace.areas[0] ?? q.to;
  if (q.conf !== null && !map.area(q.from).allAround) {
    const c = map.conformation(q.from, q.conf);
    if (!c.front.includes(first))
      return {
        ok: false,
        rule: '12.43',
        why: `the first area on the line (${first}) is not in front of the battery (facing ${q.conf})`,
      };
  }
  return { ok: true, range, los: ignoresLos(q.kind, range) ? null : los };
}

export interface FireGroupFacts {
  /** Units firing together, in order. */
  readonly units: readonly { readonly kind: ArtKind; readonly guard: boolean; readonly range: number }[];
  /** An infantry LC in the target has its flank (not rear) toward the fire (A-27). */
  readonly targetFlank: boolean;
  readonly targetDense: boolean;
  readonly targetSquare: boolean;
  readonly artilleryLeader: boolean;
  readonly napoleonNear: boolean;
  /** French or Russian artillery in or next to its HQ's area with the CoS there (when the scenario grants it). */
  readonly hqCosBonus: boolean;
  readonly timeOfDay: 'dawn' | 'day' | 'dusk' | 'night';
  readonly weather: Weather;
  /** TEC −1 for the target's terrain (placeholder: woods, special foliage, town; A-29). */
  readonly targetCover: boolean;
  /** The target is in reverse slope behind the crest the line crosses, and the fire is not high-angle (A-28). */
  readonly reverseSlope: boolean;
  /** Option horseCountsForMassed (A-24). */
  readonly horseCountsForMassed?: boolean;
  /** Option legacyEdition (A-69): massed artillery does not apply to prior editions [12.7 note]. */
  readonly noMassed?: boolean;
  /** Option bombardNetMinusOne = 'natural6Hits' (A-02): a natural 6 still hits, so the −1 floor has no effect. */
  readonly natural6Hits?: boolean;
}

/** "Artillery-type" units for massed fire and counter-battery (A-24): not horse artillery, unless the option counts it. */
export function artilleryType(kind: ArtKind, horseCounts = false): boolean {
  return kind !== 'horse' || horseCounts;
}

/**
 * Net DRM per firing unit [12.31, 12.32] (A-03, A-24, A-27, A-28): side-wide positives (+1 each: flank, dense, square,
 * ≥3 heavy, ≥2 guard, artillery leader, Napoleon, HQ with CoS, massed ≥5 artillery-type units) and negatives (−1 each:
 * dawn or night, rain/fog/snow, cover, reverse slope), plus the unit's own −1 for horse artillery at range 2 and for
 * rockets; the net is capped at +2 and floored at −1 [12.32], which leaves no hits (A-02, literal); with the option
 * `natural6Hits` the floor is 0.
 */
export function bombardmentDrms(f: FireGroupFacts): number[] {
  let plus = 0;
  if (f.targetFlank) plus++;
  if (f.targetDense) plus++;
  if (f.targetSquare) plus++;
  if (f.units.filter((u) => u.kind === 'heavy').length >= 3) plus++;
  if (f.units.filter((u) => u.guard).length >= 2) plus++;
  if (f.artilleryLeader) plus++;
  if (f.napoleonNear) plus++;
  if (f.hqCosBonus) plus++;
  if (!f.noMassed && f.units.filter((u) => artilleryType(u.kind, f.horseCountsForMassed)).length >= 5) plus++; // [12.71]
  let minus = 0;
  if (f.timeOfDay === 'dawn' || f.timeOfDay === 'night') minus++;
  if (f.weather !== 'clear') minus++;
  if (f.targetCover) minus++;
  if (f.reverseSlope) minus++;
  return f.units.map((u) => {
    const own = (u.kind === 'horse' && u.range === 2 ? 1 : 0) + (u.kind === 'rocket' ? 1 : 0);
    return Math.max(f.natural6Hits ? 0 : -1, Math.min(2, plus - minus - own));
  });
}
