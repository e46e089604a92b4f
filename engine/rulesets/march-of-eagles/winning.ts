/**
 * [Winning]: objectives held, the judgement at the end of the game (M20), and the early end when a side has no
 * unbroken battalion left on the table (M20_earlyEnd).
 */
import type { Log } from '../../core/procedure.ts';
import { IN, pointPolygonDistance } from '../../geometry/geometry.ts';
import { poly } from './shape.ts';
import { ev, sideUnits, withState } from './state.ts';
import type { Bn, MoeState, Side } from './types.ts';

function unbrokenOnTable(s: MoeState, p: Side): number {
  let n = 0;
  for (const b of s.units) if (b.side === p && b.on && !b.brk) n++;
  return n;
}

/** Digest §7 scenario option: held by a side with an unbroken battalion within 3" and no enemy battalion within 3". */
export function objectiveHolder(s: MoeState, o: { x: number; y: number }): -1 | Side {
  const within = (b: Bn) => b.on && pointPolygonDistance(o, poly(b)) <= 3 * IN;
  for (const side of [0, 1] as const) {
    const holds = s.units.some((b) => b.side === side && !b.brk && within(b));
    const contested = s.units.some((b) => b.side !== side && within(b));
    if (holds && !contested) return side;
  }
  return -1;
}

/** §7 (M20): most unbroken battalions on the table; else fewest casualties among the remaining units; else draw. */
export function judge(s: MoeState, early: boolean): { winner: number; reason: string } {
  const n = [unbrokenOnTable(s, 0), unbrokenOnTable(s, 1)];
  const started = [sideUnits(s, 0).length, sideUnits(s, 1).length];
  if (early) {
    const w = n[0] === 0 ? 1 : 0;
    return { winner: w, reason: `${s.sides[w === 0 ? 1 : 0].name} has no unbroken battalion on the table (M20)` };
  }
  if (s.ctx.victory === 'objectives') {
    const held = [0, 0];
    for (const o of s.ctx.objectives) {
      const h = objectiveHolder(s, o);
      if (h >= 0) held[h]!++;
    }
    if (held[0] !== held[1]) {
      const w = held[0]! > held[1]! ? 0 : 1;
      return { winner: w, reason: `holds more objectives (${held[0]} vs ${held[1]}) [Winning: objectives]` };
    }
  }
  const cas = [0, 1].map((p) => s.units.filter((b) => b.side === p && b.on).reduce((a, b) => a + b.cas, 0));
  if (n[0] !== n[1] && !(n[0] === started[0] && n[1] === started[1])) {
    const w = n[0]! > n[1]! ? 0 : 1;
    return { winner: w, reason: `more unbroken battalions on the table (${n[0]} vs ${n[1]}) [Winning]` };
  }
  if (cas[0] !== cas[1]) {
    const w = cas[0]! < cas[1]! ? 0 : 1;
    return { winner: w, reason: `fewer casualties among remaining units (${cas[0]} vs ${cas[1]}) [Winning]` };
  }
  return { winner: -1, reason: `level on unbroken battalions (${n[0]}) and casualties (${cas[0]}): a draw (M20)` };
}

/** M20_earlyEnd: once the set-up is done, the game ends as soon as a side has no unbroken battalion on the table. */
export function earlyEnd(s: MoeState, log: Log): MoeState | null {
  if (s.phase === 'pregame' || !s.ctx.options.M20_earlyEnd) return null;
  // asked before every step of play: most often both sides still stand, found in one pass
  let stand0 = false;
  let stand1 = false;
  for (const u of s.units)
    if (u.on && !u.brk) {
      if (u.side === 0) stand0 = true;
      else stand1 = true;
      if (stand0 && stand1) return null;
    }
  if (!stand0 && !stand1) return withState(s, { phase: 'over', result: judge(s, false), stack: [] });
  const r = judge(s, true);
  ev(log, 'Winning', `${s.sides[r.winner as Side].name} wins: ${r.reason}`);
  return withState(s, { phase: 'over', result: r, stack: [] });
}
