/**
 * The macro layer of the digest's §8.4, for search: at the start of an activation a unit may also choose a plan, one
 * decision that plays out as a fixed sequence of its primitives: advance twice, advance and fire, close on an
 * enemy (and fire), fire and charge, form line and fire. The primitives stay legal: a plan is only a shorter way to
 * choose them. Each step of a plan is resolved against the menu the unit has when it comes to it (after the dice of a
 * fire, or an enemy's counter-charge); a step that is no longer offered ends the plan, and the unit chooses freely.
 *
 * Pure: it reads the primitive keys of the unit's menu and, for `close`, where each move would leave the unit.
 */

/** One symbolic step of a plan. */
export type PlanStep =
  /** [p.6] the longest straight move forward for a whole action (no turn, no oblique). */
  | 'advance'
  /** [p.8] one action of fire at the mandatory target (small arms, carbines, canister or solid shot). */
  | 'fire'
  /** A-24 end the activation (a full action unused becomes a stand marker). */
  | 'end'
  /** [p.7] form line. */
  | 'form line'
  /** [p.6] the whole-action move, forward or oblique, that ends nearest the enemy unit `close X` names. */
  | `close ${string}`
  /** [p.13] charge the enemy unit `charge X` names. */
  | `charge ${string}`;

export interface Macro {
  readonly key: string;
  readonly plan: readonly PlanStep[];
  /** The primitive its first step resolves to now (resolved once, when the plan is offered). */
  readonly first: string;
}

/** What a step needs to know beyond the menu keys: where a move leaves the unit, and where an enemy stands. */
export interface StepContext {
  /** The unit's front-centre after the move `key` (1/100"), or undefined. */
  after(key: string): { readonly x: number; readonly y: number } | undefined;
  /** An enemy unit's front-centre (1/100"), or undefined when it is gone. */
  enemyAt(id: string): { readonly x: number; readonly y: number } | undefined;
}

/** `move forward 1 4.00"` and the like: a whole-action move's parts, or null. */
function wholeMove(key: string): { dir: string; dist: number; straight: boolean } | null {
  const m = /^move (forward|back|left|right) 1 ([\d.]+)"(.*)$/.exec(key);
  return m ? { dir: m[1]!, dist: Number(m[2]), straight: m[3] === '' } : null;
}

/** The primitive a step stands for in a menu, or null when the menu has none. */
export function resolveStep(step: PlanStep, keys: readonly string[], ctx: StepContext): string | null {
  if (step === 'end') return keys.includes('end') ? 'end' : null;
  if (step === 'form line') return keys.includes('form line') ? 'form line' : null;
  if (step === 'fire') return keys.find((k) => /^(fire|canister|shot) \S+ 1$/.test(k)) ?? null;
  if (step === 'advance') {
    let best: string | null = null;
    let far = 0;
    for (const k of keys) {
      const m = wholeMove(k);
      if (m && m.dir === 'forward' && m.straight && m.dist > far) {
        far = m.dist;
        best = k;
      }
    }
    return best;
  }
  if (step.startsWith('charge ')) return keys.includes(step) ? step : null;
  // close X: the forward move (any free turn or oblique) that ends nearest X, if it ends nearer than now
  const target = ctx.enemyAt(step.slice('close '.length));
  if (!target) return null;
  let best: string | null = null;
  let near = Number.POSITIVE_INFINITY;
  for (const k of keys) {
    const m = wholeMove(k);
    if (m?.dir !== 'forward') continue;
    const at = ctx.after(k);
    if (!at) continue;
    const d = Math.hypot(at.x - target.x, at.y - target.y);
    if (d < near - 1e-6) {
      near = d;
      best = k;
    }
  }
  return best;
}

/**
 * The plans a unit may choose at the start of its activation, each offered only when its first step resolves now:
 * `plan advance twice`, `plan advance and fire`, `plan close on X` and `plan close on X and fire` for the enemies
 * given (the nearest few), `plan fire and charge X` for each charge the unit could make now, `plan form line and
 * fire`.
 */
export function macros(keys: readonly string[], enemies: readonly string[], ctx: StepContext): Macro[] {
  const out: Macro[] = [];
  const offer = (key: string, plan: readonly PlanStep[]) => {
    const first = resolveStep(plan[0]!, keys, ctx);
    if (first !== null) out.push({ key, plan, first });
  };
  offer('plan advance twice', ['advance', 'advance', 'end']);
  offer('plan advance and fire', ['advance', 'fire', 'end']);
  for (const e of enemies) {
    offer(`plan close on ${e}`, [`close ${e}`, `close ${e}`, 'end']);
    offer(`plan close on ${e} and fire`, [`close ${e}`, 'fire', 'end']);
  }
  if (resolveStep('fire', keys, ctx))
    for (const k of keys) if (k.startsWith('charge ')) offer(`plan fire and ${k}`, ['fire', k as PlanStep]);
  offer('plan form line and fire', ['form line', 'fire', 'end']);
  return out;
}
