/** State of a March of Eagles game: plain, readonly data. Lengths in 1/100", headings in whole degrees. */
import type { Terrain } from '../../geometry/terrain.ts';
import type { Options } from './scenario.ts';

export type Side = 0 | 1;
export type Face = 'front' | 'left' | 'right' | 'rear';
export type Formation = 'L' | 'C';
export type ScreenPos = 'front' | 'left' | 'right' | 'rear';
type Edge = 'south' | 'north';

/** Resolve trigger bits [Resolve & Bravery]. */
export const TRIG_CASUALTIES = 1;
export const TRIG_SAW_RUN = 2;
export const TRIG_SC_LOST = 4;

export interface Bn {
  readonly id: string;
  readonly name: string;
  readonly side: Side;
  /** Base quality 0 Green, 1 Drilled, 2 Veteran, 3 Guards. */
  readonly q: number;
  readonly light: boolean;
  readonly rifles: boolean;
  readonly british: boolean;
  /** Rankers at the start (close order + skirmishers). */
  readonly start: number;
  /** Close-order Rankers now. */
  readonly rk: number;
  readonly skS: number;
  readonly sk: number;
  readonly drum: number;
  readonly sgt: number;
  /** Ensign Character present (a British double ensign is still one Character). */
  readonly ens: number;
  readonly off: number;
  readonly f: Formation;
  readonly x: number;
  readonly y: number;
  readonly h: number;
  readonly scr: ScreenPos | null;
  /** Footprint groups: fixed at deployment until half strength (M2). */
  readonly G: number;
  /** On the table: placed and not routed off or destroyed. */
  readonly on: boolean;
  readonly placed: boolean;
  readonly gone: '' | 'routed' | 'destroyed';
  readonly act: boolean;
  readonly dis: boolean;
  readonly brk: boolean;
  readonly ral: boolean;
  /** Turn during which the battalion must stand (PASS) (M12); 0 = none. */
  readonly stand: number;
  /** Whether being attacked while standing disorders it (post-combat or rally stand; not a failed charger). */
  readonly standDis: boolean;
  readonly reform: boolean;
  readonly drumU: number;
  readonly sgtU: number;
  readonly ensU: number;
  readonly offU: number;
  readonly tested: boolean;
  readonly trig: number;
  readonly lost: boolean;
  readonly ran: boolean;
  /** Figures lost (Rankers, skirmishers and Characters). */
  readonly cas: number;
  /** Engagement id, or '' when not engaged. */
  readonly eng: string;
}

export interface SC {
  readonly x: number;
  readonly y: number;
  /** Battalion id he is attached to, or ''. */
  readonly att: string;
  readonly alive: boolean;
  readonly moved: boolean;
  readonly placed: boolean;
}

export interface SideState {
  readonly name: string;
  readonly nat: 'British' | 'French' | 'Other';
  readonly edge: Edge;
  readonly sc: SC;
  readonly scKilled: boolean;
}

interface Joiner {
  readonly id: string;
  readonly side: Side;
  /** First turn in which its +2 counts. */
  readonly from: number;
}

export interface Engagement {
  readonly id: string;
  readonly att: string;
  readonly def: string;
  readonly rounds: number;
  /** Who adds the charge bonus next round: the attacker in round 1, a follow-up winner later, or nobody. */
  readonly bonus: '' | 'att' | 'def';
  readonly started: number;
  readonly joiners: readonly Joiner[];
  readonly fought: boolean;
  /** Face of the defender contacted. */
  readonly face: 'front' | 'left' | 'right' | 'rear';
}

/** Static context shared by every state of a game (hashed once, then cached). */
export interface Ctx {
  readonly scenarioId: string;
  readonly width: number;
  readonly height: number;
  readonly turns: number;
  readonly terrain: Terrain;
  readonly options: Options;
  readonly objectives: readonly { readonly id: string; readonly x: number; readonly y: number }[];
  readonly victory: 'battalions' | 'objectives';
}

export type Frame =
  // ----- decisions -----
  | { readonly t: 'chooseSide'; readonly p: Side }
  | { readonly t: 'skirm'; readonly p: Side; readonly u: string }
  | { readonly t: 'firstPlacer'; readonly p: Side }
  | { readonly t: 'place'; readonly p: Side }
  | {
      readonly t: 'placeX';
      readonly p: Side;
      readonly u: string;
      readonly row: number;
      readonly f: Formation;
      readonly scr: ScreenPos | null;
    }
  | { readonly t: 'placeSC'; readonly p: Side }
  | { readonly t: 'initChoice'; readonly p: Side }
  | { readonly t: 'slot'; readonly p: Side }
  | { readonly t: 'orders'; readonly p: Side; readonly u: string }
  | { readonly t: 'moveDist'; readonly p: Side; readonly u: string; readonly dir: number; readonly allow: number }
  | { readonly t: 'formFacing'; readonly p: Side; readonly u: string }
  | { readonly t: 'wheelAngle'; readonly p: Side; readonly u: string; readonly side: 'L' | 'R'; readonly allow: number }
  | { readonly t: 'screenPlace'; readonly p: Side; readonly u: string }
  | { readonly t: 'screenTarget'; readonly p: Side; readonly u: string }
  | { readonly t: 'defFire'; readonly p: Side; readonly att: string; readonly def: string }
  | { readonly t: 'followUp'; readonly p: Side; readonly e: string; readonly win: string; readonly lose: string }
  | { readonly t: 'scDest'; readonly p: Side; readonly allow: number }
  // ----- chance -----
  | { readonly t: 'rollOff' }
  | { readonly t: 'initRoll' }
  | {
      readonly t: 'check';
      readonly u: string;
      readonly kind: 'manoeuvre' | 'bravery' | 'rally' | 'resolve';
      readonly need: number;
      readonly mod: number;
      readonly rerolls: number;
      readonly then: Then;
    }
  | { readonly t: 'dist'; readonly u: string; readonly n: number; readonly then: Then }
  | { readonly t: 'firstDie'; readonly u: string; readonly n: number; readonly sum: number; readonly then: Then }
  | { readonly t: 'obstacle'; readonly u: string; readonly allow: number; readonly then: Then }
  | {
      readonly t: 'volley';
      readonly shooter: string;
      readonly target: string;
      readonly screen: boolean;
      readonly tscreen: boolean;
      readonly dice: number;
      readonly need: number;
      readonly mod: number;
      readonly rerolls: number;
      readonly defensive: boolean;
    }
  | { readonly t: 'charPick'; readonly u: string; readonly defensive: boolean; readonly hits: number }
  | { readonly t: 'dfBand'; readonly att: string; readonly def: string }
  | { readonly t: 'combat'; readonly e: string; readonly ma: number; readonly md: number }
  | { readonly t: 'combatChars'; readonly e: string; readonly win: string; readonly lose: string }
  | { readonly t: 'run'; readonly u: string }
  | { readonly t: 'scRoll' }
  // ----- automatic steps (never on top when control returns) -----
  /** [Defensive fire] the volley is done: the attacker checks RESOLVE if hit (M10), then contacts. */
  | {
      readonly t: 'afterDefFire';
      readonly att: string;
      readonly def: string;
      readonly face: Face;
      readonly cas0: number;
    }
  /** [Activation] the check for an order is passed (or not needed): the order is carried out. */
  | { readonly t: 'execute'; readonly u: string; readonly then: Order }
  /** [Aggression] the charge's distance is known (after the difficult-ground and obstacle rulings): it goes in. */
  | { readonly t: 'charge'; readonly u: string; readonly then: Extract<Then, { k: 'charge' }>; readonly allow: number }
  /** [Aggression] the attacker reaches the enemy: contact and combat. */
  | { readonly t: 'contact'; readonly att: string; readonly def: string; readonly face: Face };

/** What a check or roll leads to. */
export type Then =
  | { readonly k: 'move'; readonly dir: number; readonly back: boolean }
  | { readonly k: 'wheel'; readonly side: 'L' | 'R' }
  | { readonly k: 'form' }
  | { readonly k: 'reform' }
  | {
      readonly k: 'attack';
      readonly target: string;
      readonly face: 'front' | 'left' | 'right' | 'rear';
      readonly join: boolean;
    }
  | {
      readonly k: 'charge';
      readonly target: string;
      readonly face: 'front' | 'left' | 'right' | 'rear';
      readonly join: boolean;
      readonly dis: boolean;
    }
  | { readonly k: 'rally' }
  | {
      readonly k: 'resolve';
      readonly cause: 'combat' | 'defFire' | 'phase';
      /** combat: the engagement and its winner; defFire: the target and the face to contact. */
      readonly e?: string;
      readonly win?: string;
      readonly target?: string;
      readonly face?: Face;
    }
  | { readonly k: 'none' };

/** What a battalion's order leads to once its check is passed: a move, wheel, formation change, reform or attack. */
export type Order = Extract<Then, { k: 'move' | 'wheel' | 'form' | 'reform' | 'attack' }>;

type Phase = 'pregame' | 'activations' | 'resolve' | 'compulsory' | 'over';

interface Result {
  /** 0 or 1, or -1 for a draw. */
  readonly winner: number;
  readonly reason: string;
}

export interface MoeState {
  readonly ctx: Ctx;
  readonly turn: number;
  readonly phase: Phase;
  /** Initiative winner this turn (first in Resolve order). */
  readonly init: Side;
  /** Roll-off winner and first placer in the pre-game. */
  readonly rollWin: Side;
  readonly placer: Side;
  /** Activations made so far this turn (for "first activation of the turn", §6.8). */
  readonly nAct: number;
  /** Who is due the next activation slot (if able). */
  readonly next: Side;
  readonly units: readonly Bn[];
  readonly sides: readonly [SideState, SideState];
  readonly engs: readonly Engagement[];
  /** Pending decisions and chance nodes; the last entry is on top. */
  readonly stack: readonly Frame[];
  /** Chance events so far (names the next chance event for keyed dice). */
  readonly nChance: number;
  readonly nEng: number;
  readonly result: Result | null;
}

export type Action =
  | { readonly k: 'side'; readonly edge: Edge }
  | { readonly k: 'skirm'; readonly n: number }
  | { readonly k: 'placer'; readonly self: boolean }
  | {
      readonly k: 'place';
      readonly u: string;
      readonly row: number;
      readonly f: Formation;
      readonly scr: ScreenPos | null;
    }
  | { readonly k: 'x'; readonly x: number }
  | { readonly k: 'placeSC'; readonly attach: string; readonly behind: boolean }
  | { readonly k: 'first'; readonly self: boolean }
  | { readonly k: 'activate'; readonly u: string }
  | { readonly k: 'pass'; readonly u: string }
  | { readonly k: 'move'; readonly u: string; readonly dir: number }
  | { readonly k: 'back'; readonly u: string }
  | { readonly k: 'wheel'; readonly u: string; readonly side: 'L' | 'R' }
  | { readonly k: 'form'; readonly u: string }
  | { readonly k: 'facing'; readonly h: number }
  | { readonly k: 'reform'; readonly u: string }
  | { readonly k: 'shoot'; readonly u: string; readonly target: string }
  | { readonly k: 'attack'; readonly u: string; readonly target: string }
  | { readonly k: 'rally'; readonly u: string }
  | { readonly k: 'fight'; readonly e: string }
  | { readonly k: 'sc' }
  | { readonly k: 'dist'; readonly d: number }
  | { readonly k: 'angle'; readonly a: number }
  | { readonly k: 'screen'; readonly pos: ScreenPos }
  | { readonly k: 'screenTarget'; readonly target: string }
  | { readonly k: 'defFire'; readonly yes: boolean }
  | { readonly k: 'followUp'; readonly yes: boolean }
  | { readonly k: 'scDest'; readonly to: string; readonly mode: 'attach' | 'behind' | 'stay' }
  // chance outcomes
  | { readonly k: 'c-win'; readonly side: Side }
  | { readonly k: 'c-check'; readonly pass: boolean; readonly used: number }
  | { readonly k: 'c-sum'; readonly sum: number }
  | { readonly k: 'c-die'; readonly face: number }
  | { readonly k: 'c-hits'; readonly hits: number; readonly six: boolean; readonly used: number }
  | { readonly k: 'c-char'; readonly which: CharType }
  | { readonly k: 'c-band'; readonly band: 'long' | 'medium' | 'short' }
  | { readonly k: 'c-combat'; readonly res: 'A3' | 'A' | 'T' | 'D' | 'D3' }
  | {
      readonly k: 'c-lost';
      readonly drum: number;
      readonly sgt: number;
      readonly ens: number;
      readonly off: number;
      readonly sc: number;
    };

export type CharType = 'drum' | 'sgt' | 'ens' | 'off' | 'sc';
