/**
 * State of an Age of Eagles game: plain, readonly data. Lengths in 1/100" (`IN` = 100), headings in whole degrees
 * clockwise from north, positions are footprint centres (digest conventions). Section references in brackets name the
 * quick-reference sheets' tables and headings ([March Table], [Volley & Cannonade], …); ADAPTATIONs are the digest's
 * A1–A12.
 */
import type { Terrain } from '../../geometry/terrain.ts';
import type { Options } from './scenario.ts';

export type Side = 0 | 1;
type Cls = 'Elite' | 'Regular' | 'Conscript';
/** [Differences] the formations; a unit in a BUA block has none (`bua` set). */
export type InfFormation = 'Line' | 'FieldColumn' | 'Masse' | 'MarchColumn' | 'OpenOrder' | 'Square';
/** A3: cavalry formations. */
export type CavFormation = 'Line' | 'FieldColumn' | 'MarchColumn';
export type Face = 'front' | 'left' | 'right' | 'rear';

interface UnitBase {
  readonly id: string;
  readonly side: Side;
  /** Division id (its leader's command). */
  readonly div: string;
  /** Centre, 1/100". */
  readonly x: number;
  readonly y: number;
  /** Facing, whole degrees (meaningless in a BUA block). */
  readonly h: number;
  /** [Hits] hit markers; at 5 the unit is removed. Batteries take none (they are silenced, damaged or wrecked). */
  readonly hits: number;
  /** Hits received in the current Volley & Cannonade phase (the B&S −1 each). */
  readonly fpHits: number;
  /** Disordered (troops) or silenced (a battery). */
  readonly dis: boolean;
  /** Changed formation, limbered/unlimbered or turned 90° or more this player turn (fire +1 against it). */
  readonly changed: boolean;
  /** About-faced this player turn (fire +1 against it). */
  readonly about: boolean;
  /** The BUA block it occupies ('' when in the open). */
  readonly bua: string;
  /** Removed from play, and why ('' while on the table). */
  readonly gone: '' | 'hits' | 'routed' | 'wrecked' | 'guns-lost' | 'off-table';
  /** Given its order this March phase (units not ordered hold). */
  readonly ordered: boolean;
  /** Fired in this Volley & Cannonade phase. */
  readonly fired: boolean;
  /** A breakthrough charge made this Bayonet & Sabre phase (at most one). */
  readonly broke: boolean;
  /** Fought a combat this B&S phase (cavalry may recall after its 1st combat). */
  readonly fought: boolean;
  /** Charge checked by fire this player turn: it will not fight this B&S phase. */
  readonly checked: boolean;
}

export interface Infantry extends UnitBase {
  readonly k: 'inf';
  readonly cls: Cls;
  readonly ranks: 2 | 3;
  readonly mm: 'Linear' | 'Columnar' | 'Impulse';
  readonly light: boolean;
  readonly f: InfFormation;
}

export interface Cavalry extends UnitBase {
  readonly k: 'cav';
  readonly cls: Cls;
  readonly wt: 'Light' | 'Heavy' | 'ArmouredHeavy';
  readonly lancers: boolean;
  readonly f: CavFormation;
  /** Declared a countercharge this B&S phase (A5). */
  readonly cc: boolean;
}

export interface Battery extends UnitBase {
  readonly k: 'bat';
  readonly guns: 6 | 8;
  readonly cal: 'Heavy' | 'Light';
  readonly mob: 'Foot' | 'Horse';
  readonly limbered: boolean;
  /** [Volley & Cannonade] a damaged gun stand (a second damage wrecks the battery, A8). */
  readonly damaged: boolean;
}

export type Unit = Infantry | Cavalry | Battery;

export interface Leader {
  readonly id: string;
  readonly side: Side;
  /** The army leader (commands every unit), or a division's leader. */
  readonly army: boolean;
  readonly div: string;
  readonly charismatic: boolean;
  readonly x: number;
  readonly y: number;
  /** The unit he is attached to ('' when detached). */
  readonly att: string;
  /** [B&S results] Leader captured: replaced in his side's next March phase (A10). */
  readonly captured: boolean;
  /** Attached or detached in this March phase's step a (once each). */
  readonly acted: boolean;
  /** Moved in this March phase's step c (once each). */
  readonly moved: boolean;
}

/** A combat waiting for the Bayonet & Sabre phase: a defender and the attackers on its faces (1 per face). */
export interface Combat {
  readonly def: string;
  readonly atts: readonly { readonly u: string; readonly face: Face }[];
  /** A breakthrough charge (+1 until a 0 result cancels it). */
  readonly bt: boolean;
  /** Fought in this Bayonet & Sabre phase (after a 0 result the units stay in contact for the next one). */
  readonly fought: boolean;
}

interface SideState {
  readonly name: string;
  /** Facing of the side at the start (its front). */
  readonly facing: number;
  readonly startUnits: number;
  /** A12: army cohesion level 0–2 (2: broken). */
  readonly cohesion: number;
}

/** A BUA block [Built Up Areas]: 3" × 3", holds a single unit. */
export interface Block {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly cover: 1 | 2 | 3;
}

/** Static context shared by every state of a game (hashed once, then cached). */
export interface Ctx {
  readonly scenarioId: string;
  readonly width: number;
  readonly height: number;
  readonly turns: number;
  readonly terrain: Terrain;
  readonly blocks: readonly Block[];
  /** Roads as polylines (1/100"). */
  readonly roads: readonly (readonly { readonly x: number; readonly y: number }[])[];
  /** Streams as polylines with their fords' x extents (1/100"). */
  readonly streams: readonly {
    readonly points: readonly { readonly x: number; readonly y: number }[];
    readonly fords: readonly { readonly from: number; readonly to: number }[];
  }[];
  readonly objectives: readonly { readonly id: string; readonly x: number; readonly y: number; readonly bua: string }[];
  readonly options: Options;
}

/** The orders a unit may be given [Play Sequence b1] (A5). */
export type Order =
  | { readonly o: 'hold' }
  | { readonly o: 'move' }
  | { readonly o: 'form'; readonly f: InfFormation | CavFormation; readonly h: number; readonly thenMove: boolean }
  | { readonly o: 'charge'; readonly target: string }
  | { readonly o: 'rally' }
  | { readonly o: 'limber' }
  | { readonly o: 'unlimber' };

/** What the March table result allows the unit to do now (A5, A11). */
export interface Allowance {
  /** Inches × 100 of movement left. */
  readonly dist: number;
  /** The unit has wheeled in this move (one wheel, then straight on). */
  readonly turned?: boolean;
}

export type Frame =
  // ----- decisions -----
  /** [Initiative Phase] the winner picks 1st or 2nd player (A2). */
  | { readonly t: 'initChoice'; readonly p: Side }
  /** [March a] replace, attach and detach leaders. */
  | { readonly t: 'leaders'; readonly p: Side }
  /** [March b1] the next unit to move, or the end of orders. */
  | { readonly t: 'pickUnit'; readonly p: Side }
  /** [March b1] the picked unit's order. */
  | { readonly t: 'order'; readonly p: Side; readonly u: string }
  /** [March b3] where the unit moves with what its result allows. */
  | { readonly t: 'move'; readonly p: Side; readonly u: string; readonly allow: Allowance }
  /** [Forming Square] / A5 countercharge: the charged unit's reaction. */
  | { readonly t: 'react'; readonly p: Side; readonly u: string; readonly by: string }
  /** [March c] detached leaders move. */
  | { readonly t: 'leaderMove'; readonly p: Side }
  /** [Volley & Cannonade] each firing unit's target, in id order; effects are buffered (A6). */
  | { readonly t: 'fireTarget'; readonly p: Side; readonly u: string }
  /** [B&S results] a cavalry recall, or a countercharger's carry of the position (`into`: where the attacker stood). */
  | {
      readonly t: 'afterCombat';
      readonly p: Side;
      readonly u: string;
      readonly may: 'recall' | 'carry-or-recall';
      readonly from: string;
      readonly into?: { readonly x: number; readonly y: number; readonly h: number };
    }
  // ----- chance -----
  /** [Initiative Phase] A2: D10 each, ties re-rolled: who wins. */
  | { readonly t: 'initRoll' }
  /** [March Table] D10 + TMMs, read on the unit's column. */
  | { readonly t: 'march'; readonly u: string; readonly mod: number; readonly order: Order; readonly square: boolean }
  /** [Volley & Cannonade] D10 + DRM for one shot, read on the results table. */
  | { readonly t: 'shot'; readonly u: string; readonly target: string; readonly drm: number; readonly cannon: boolean }
  /** [Bayonet & Sabre] one D10 each side: the differential's class. */
  | { readonly t: 'melee'; readonly def: string; readonly amod: number; readonly dmod: number }
  // ----- automatic -----
  /** [Volley & Cannonade] A6: the step's buffered results take effect together. */
  | { readonly t: 'fireApply'; readonly step: 'enemy' | 'friendly' }
  /** [Bayonet & Sabre] the next combat, in defender id order (A7), or the breakthrough combat `def` at once. */
  | { readonly t: 'bsNext'; readonly def?: string }
  /** [Charges] A5: the charge goes in (after any reaction): the charger moves into contact. */
  | { readonly t: 'chargeIn'; readonly u: string; readonly target: string };

/** Fire results waiting for the end of their step (A6). */
export interface PendingHit {
  readonly target: string;
  readonly result: 'withering' | 'telling' | 'galling' | 'lively' | 'desultory';
  readonly cannon: boolean;
}

type Phase = 'initiative' | 'march' | 'fire-enemy' | 'fire-friendly' | 'bs' | 'end' | 'over';

export interface AoeState {
  readonly ctx: Ctx;
  readonly turn: number;
  /** The 1st player this game turn. */
  readonly first: Side;
  /** Which player turn of the game turn: 0 (1st) or 1 (2nd). */
  readonly pt: 0 | 1;
  readonly phase: Phase;
  readonly sides: readonly [SideState, SideState];
  /** Units in scenario order (a unit keeps its index for good). */
  readonly units: readonly Unit[];
  readonly leaders: readonly Leader[];
  readonly combats: readonly Combat[];
  readonly pending: readonly PendingHit[];
  readonly stack: readonly Frame[];
  readonly nChance: number;
  /** Objective holders (-1: nobody yet), by objective index (A12). */
  readonly held: readonly number[];
  readonly result: null | { readonly winner: Side | -1; readonly text: string };
}

/** Actions: a decision's choice or a chance outcome, with a canonical text key (notation.ts). */
export type Action =
  | { readonly a: 'first' }
  | { readonly a: 'second' }
  | { readonly a: 'attach'; readonly l: string; readonly u: string }
  | { readonly a: 'detach'; readonly l: string }
  | { readonly a: 'doneLeaders' }
  | { readonly a: 'pick'; readonly u: string }
  | { readonly a: 'endMarch' }
  | { readonly a: 'order'; readonly order: Order }
  | { readonly a: 'move'; readonly dir: number; readonly frac: number }
  | { readonly a: 'wheel'; readonly side: 'L' | 'R'; readonly deg: number }
  | { readonly a: 'road'; readonly frac: number }
  | { readonly a: 'enter'; readonly block: string }
  /** [Built Up Areas] leave a block: placed with its rear edge on the block's edge facing `edge`, in formation `f`. */
  | { readonly a: 'leave'; readonly edge: number; readonly f: InfFormation | CavFormation }
  | { readonly a: 'stay' }
  | { readonly a: 'square' }
  | { readonly a: 'noSquare' }
  | { readonly a: 'countercharge' }
  | { readonly a: 'stand' }
  | { readonly a: 'leaderTo'; readonly l: string; readonly u: string }
  | { readonly a: 'doneLeaderMoves' }
  | { readonly a: 'fire'; readonly target: string }
  | { readonly a: 'holdFire' }
  | { readonly a: 'recall'; readonly frac: 0 | 0.5 | 1 }
  | { readonly a: 'carry' }
  // ----- chance outcomes -----
  | { readonly a: 'initWin'; readonly side: Side }
  | { readonly a: 'marchRoll'; readonly r: number }
  | { readonly a: 'shotRoll'; readonly r: number }
  | { readonly a: 'meleeDiff'; readonly d: number };
