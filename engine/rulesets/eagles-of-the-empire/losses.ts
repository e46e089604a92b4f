/**
 * Loss allocation, one hit at a time (§6.1, A-42): the owner of the struck units chooses which unit loses the next
 * step, among the units these constraints allow, in priority order:
 *  1. units in Massed Column first, two steps per hit [14.74, 14.76];
 *  2. the first step lost must come from an infantry long counter if one is present [10.31, 12.2, 14.3];
 *  3. even spread: no unit loses a second step from this attack until every unit has lost one, and so on
 *     [10.3, 12.2, 14.3] — attached artillery is exempt until its long counter is eliminated or reduced to a short
 *     counter [10.32, 12.21, 14.31], and the HQ until it is the only unit left [9.54, 10.33, 12.22, 14.32];
 *  4. counter-battery fire strikes artillery only (not attached artillery), two steps per hit [12.72].
 * Hits beyond the steps available are wasted [14.3].
 */

export interface LossUnit {
  readonly id: string;
  readonly kind: 'infantry' | 'cavalry' | 'artillery' | 'hq';
  /** An infantry long counter now. */
  readonly long: boolean;
  /** For a long counter: steps it can lose and still be one (reduced to a short counter after that [11.28]). */
  readonly longStepsLeft?: number;
  /** For attached artillery: its long counter's id. */
  readonly attachedTo: string | null;
  readonly massedColumn: boolean;
  readonly artilleryPark?: boolean;
  /** Steps it has left. */
  readonly stepsLeft: number;
  /** Steps lost to this attack so far. */
  readonly lostNow: number;
}

export interface LossContext {
  readonly counterBattery?: boolean;
  /** No step has been lost to this attack yet (rule 2). */
  readonly firstLoss: boolean;
}

/** Units that may take the next hit, and the steps that hit costs. Empty: the hit is wasted. */
export function hitChoices(units: readonly LossUnit[], ctx: LossContext): { ids: string[]; steps: number } {
  const alive = units.filter((u) => u.stepsLeft > 0);
  if (ctx.counterBattery) {
    // [12.72] artillery only (parks included, attached artillery not), even spread among them, 2 steps per hit
    const arts = alive.filter((u) => u.kind === 'artillery' && u.attachedTo === null);
    return { ids: evenSpread(arts).map((u) => u.id), steps: 2 };
  }
  // 1. Massed Column first, 2 steps per hit
  const mc = alive.filter((u) => u.massedColumn);
  if (mc.length) return { ids: evenSpread(mc).map((u) => u.id), steps: 2 };
  // exemptions: attached artillery while its LC stands as a long counter; the HQ unless it is alone
  const lcIds = new Set(alive.filter((u) => u.long).map((u) => u.id));
  const pool = alive.filter((u) => {
    if (u.attachedTo !== null && lcIds.has(u.attachedTo)) return false;
    if (u.kind === 'hq' && alive.some((x) => x.kind !== 'hq')) return false;
    return true;
  });
  if (!pool.length) return { ids: [], steps: 1 };
  // 2. the first loss from a long counter
  if (ctx.firstLoss && pool.some((u) => u.long)) return { ids: pool.filter((u) => u.long).map((u) => u.id), steps: 1 };
  // 3. even spread
  return { ids: evenSpread(pool).map((u) => u.id), steps: 1 };
}

function evenSpread(us: readonly LossUnit[]): LossUnit[] {
  if (!us.length) return [];
  const least = Math.min(...us.map((u) => u.lostNow));
  return us.filter((u) => u.lostNow === least);
}

/**
 * Apply `hits` with a chooser (the owner's choice per hit), returning steps lost per unit. The chooser is called only
 * when more than one unit is allowed (A-42: a single legal unit takes the hit automatically).
 */
export function allocate(
  units: readonly LossUnit[],
  hits: number,
  ctx: Omit<LossContext, 'firstLoss'>,
  choose: (ids: readonly string[]) => string,
): Map<string, number> {
  let cur = units.map((u) => ({ ...u }));
  const lost = new Map<string, number>();
  let first = true;
  for (let h = 0; h < hits; h++) {
    const { ids, steps } = hitChoices(cur, { ...ctx, firstLoss: first });
    if (!ids.length) break; // wasted [14.3]
    const id = ids.length === 1 ? ids[0]! : choose(ids);
    if (!ids.includes(id)) throw new Error(`loss allocation: ${id} may not take this hit (allowed: ${ids.join(', ')})`);
    cur = cur.map((u) => {
      if (u.id !== id) return u;
      const take = Math.min(steps, u.stepsLeft);
      lost.set(id, (lost.get(id) ?? 0) + take);
      const longLeft = (u.longStepsLeft ?? u.stepsLeft) - take;
      return {
        ...u,
        stepsLeft: u.stepsLeft - take,
        lostNow: u.lostNow + take,
        long: u.long && longLeft > 0,
        longStepsLeft: longLeft,
      };
    });
    first = false;
  }
  return lost;
}
