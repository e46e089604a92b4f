/**
 * The state plumbing every procedure of Eagles of the Empire shares: the event log, the frame stack, unit updates and
 * the Action Phase frame's bookkeeping [8.14]. No rules of play beyond the one update every move obeys [17.23], and no
 * dependency on any flow: every module of the ruleset may import it.
 */
import type { Log } from '../../core/procedure.ts';
import type { EState, Frame, PhaseFrame, Side, UnitState } from './types.ts';

export type { Log };
export function ev(log: Log, rule: string, text: string, dice?: readonly number[]): void {
  log?.push(dice ? { rule, text, dice } : { rule, text });
}

// ---------------------------------------------------------------------------------------------
// the frame stack
// ---------------------------------------------------------------------------------------------

export const top = (s: EState): Frame | undefined => s.stack[s.stack.length - 1];
export function push(s: EState, ...f: Frame[]): EState {
  const stack = s.stack.slice();
  for (let i = 0; i < f.length; i++) stack.push(f[i]!);
  return { ...s, stack };
}
export const pop = (s: EState): EState => ({ ...s, stack: s.stack.slice(0, -1) });
export function replaceTop(s: EState, f: Frame): EState {
  const stack = s.stack.slice();
  if (stack.length) stack[stack.length - 1] = f;
  else stack.push(f);
  return { ...s, stack };
}

export function updUnit(s: EState, id: string, patch: Partial<UnitState>): EState {
  const units = s.units.slice();
  for (let i = 0; i < units.length; i++) {
    const u = units[i]!;
    if (u.id !== id) continue;
    // [17.23] reverse slope belongs to the area: it ends whenever the unit leaves it
    units[i] =
      patch.area !== undefined && patch.area !== u.area && u.rs ? { ...u, ...patch, rs: false } : { ...u, ...patch };
  }
  return { ...s, units };
}

// ---------------------------------------------------------------------------------------------
// the Action Phase frame [8.14]
// ---------------------------------------------------------------------------------------------

/** Side `p`'s Action Phase begins with the Cavalry Charge Segment; `inCmd` is the Command Determination's result [9.0]. */
export function startPhase(s: EState, p: Side, inCmd: readonly string[]): EState {
  return push(s, {
    t: 'phase',
    p,
    seg: 'charge',
    inCmd,
    bomb: {},
    assaulted: [],
    segStart: {},
    segLost: {},
    routChecked: [],
  });
}
export function phaseOf(s: EState): PhaseFrame {
  for (let i = s.stack.length - 1; i >= 0; i--) if (s.stack[i]!.t === 'phase') return s.stack[i] as PhaseFrame;
  throw new Error('eagles-of-the-empire: no Action Phase in progress');
}
export function updPhase(s: EState, patch: Partial<PhaseFrame>): EState {
  for (let i = s.stack.length - 1; i >= 0; i--)
    if (s.stack[i]!.t === 'phase') {
      const stack = s.stack.slice();
      stack[i] = { ...(stack[i] as PhaseFrame), ...patch };
      return { ...s, stack };
    }
  return s; // no phase (End Step losses): no segment bookkeeping
}
export function hasPhase(s: EState): boolean {
  return s.stack.some((f) => f.t === 'phase');
}
export const inCommand = (s: EState, id: string): boolean => inCmdSet(phaseOf(s).inCmd).has(id);
/** The phase's in-command list as a set, once per list. */
const inCmdSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function inCmdSet(ids: readonly string[]): ReadonlySet<string> {
  let set = inCmdSets.get(ids);
  if (!set) inCmdSets.set(ids, (set = new Set(ids)));
  return set;
}
