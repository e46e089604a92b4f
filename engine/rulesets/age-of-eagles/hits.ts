/** [Hits] hit markers and removal: shared by the March table, fire and close combat. */
import type { Log } from '../../core/procedure.ts';
import { unitOf, updUnit } from './state.ts';
import type { AoeState } from './types.ts';

/** [Hits] hit markers; at 5 the unit is removed (a battery takes none). */
export function addHits(s: AoeState, id: string, n: number, rule: string, log: Log): AoeState {
  const u = unitOf(s, id);
  if (u.k === 'bat' || n <= 0) return s;
  const hits = u.hits + n;
  const fp = s.phase === 'fire-enemy' || s.phase === 'fire-friendly' ? u.fpHits + n : u.fpHits;
  if (hits >= 5) {
    log?.push({ rule, text: `${id} takes ${n} hit${n > 1 ? 's' : ''}: 5 hits, removed from play [Hits]` });
    return updUnit(s, id, { hits, fpHits: fp, gone: 'hits' });
  }
  log?.push({ rule, text: `${id} takes ${n} hit${n > 1 ? 's' : ''} (${hits} in all)` });
  return updUnit(s, id, { hits, fpHits: fp });
}
