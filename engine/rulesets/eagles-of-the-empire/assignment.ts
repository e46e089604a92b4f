/**
 * Assignment Segment arithmetic [11.1–11.29]: how many reserve units the HQ may assign this turn, and
 * whether an artillery unit may attach to an infantry long counter. Pure.
 */
import type { ArtKind } from './bombard.ts';

/** [11.11] the HQ's command radius, +1 with the Chief of Staff present; without an HQ the army commander's radius. */
export function assignmentLimit(o: {
  hqRadius: number | null;
  cosWithHq: boolean;
  armyCommanderRadius: number;
}): number {
  return o.hqRadius === null ? o.armyCommanderRadius : o.hqRadius + (o.cosWithHq ? 1 : 0);
}

export interface AttachFacts {
  readonly artKind: ArtKind;
  readonly artFormation: string;
  readonly artActive: boolean;
  readonly artArea: number;
  readonly lcFormation: string;
  readonly lcActive: boolean;
  readonly lcArea: number;
  /** Artillery already attached to the LC [11.23] (for an extended line, to all its parts [16.6]). */
  readonly lcAttached: number;
  /** The target is an extended-line marker: artillery already attached to it [16.6]. */
  readonly markerAttached?: number;
  readonly lcMassedColumn: boolean;
  readonly lcRouted: boolean;
  /** Option attachSameFormation: 'horseOnly' (the body text, default) or 'all' (the SoP card). */
  readonly sameFormation?: 'horseOnly' | 'all';
  /** Option highAngleCannotAttach: mortars and rockets may not attach. */
  readonly highAngleCannotAttach?: boolean;
}

/** Null when the attachment is legal, else the reason with its rule. */
export function attachBlocked(f: AttachFacts): string | null {
  if (!f.artActive || !f.lcActive)
    return 'both the artillery and the long counter must be in activated formations (A-23)';
  if (f.artArea !== f.lcArea) return "the artillery must be in the long counter's area [11.2]";
  if (f.artKind === 'heavy') return 'heavy artillery never attaches [11.21]';
  if (f.highAngleCannotAttach && (f.artKind === 'mortar' || f.artKind === 'rocket'))
    return 'mortars and rockets do not attach (option highAngleCannotAttach, A-23)';
  if ((f.artKind === 'horse' || f.sameFormation === 'all') && f.artFormation !== f.lcFormation)
    return f.artKind === 'horse'
      ? 'horse artillery attaches only within its own formation [11.22]'
      : 'artillery attaches only within its own formation (option attachSameFormation = all, A-23)';
  if (f.lcAttached >= 2) return 'a long counter carries at most two artillery units [11.23]';
  if ((f.markerAttached ?? 0) >= 1) return 'an extended-line marker carries at most one artillery unit [16.6]';
  if (f.lcMassedColumn) return 'no attachment to a long counter in massed column [14.71]';
  if (f.lcRouted) return 'a routed unit receives no attachments (A-46)';
  return null;
}
