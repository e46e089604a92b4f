/** State of an Eagles of the Empire game: plain, readonly data (see the digest §4). */
import type { AreaId, AreaMap } from '../../areas/map.ts';
import type { Scenario, Step } from './scenario.ts';

export type Side = 0 | 1;
export type Weather = 'clear' | 'rain' | 'fog' | 'snow';

export interface UnitState {
  readonly id: string;
  readonly side: Side;
  readonly kind: 'infantry' | 'cavalry' | 'artillery';
  readonly long: boolean;
  readonly steps: readonly Step[];
  readonly step: number;
  readonly startStep: number;
  /** Area, or null before arrival / after elimination. */
  readonly area: AreaId | null;
  readonly eliminated: boolean;
  /** Conformation id (long counters and artillery outside all-around areas) [13.9]. */
  readonly conf: string | null;
  /** Current formation (assignments change it [11.12]). */
  readonly formation: string;
  readonly attachedTo: string | null;
  /** Steps lost so far (recovered steps still count for victory [15.22]). */
  readonly lost: number;
}

export interface LeaderState {
  readonly id: string;
  readonly side: Side;
  /** On the map at an area, off-map (division leaders, staff held for replacement, not yet arrived), or eliminated. */
  readonly area: AreaId | null;
  readonly status: 'on' | 'off' | 'dead';
}

export interface FormationState {
  readonly id: string;
  readonly side: Side;
  /** Leader counter on its "Activated" side [8.16, 8.17]. */
  readonly activated: boolean;
  /** Still activated after a failed rally: may not activate this turn, nor move or attack [15.11]. */
  readonly failedRally: boolean;
}

export interface HqState {
  readonly area: AreaId | null;
  readonly lost: boolean;
}

export interface Reinforcement {
  readonly id: string;
  readonly due: number;
  readonly delayed: boolean;
  readonly arrived: boolean;
}

export interface Ctx {
  readonly scenario: Scenario;
  readonly map: AreaMap;
}

export type Frame =
  // decisions
  | { readonly t: 'reinf'; readonly p: Side; readonly g: string }
  | { readonly t: 'reinfPlace'; readonly p: Side; readonly g: string; readonly areas: readonly AreaId[] }
  | { readonly t: 'face'; readonly p: Side; readonly u: string }
  | { readonly t: 'firstChoice'; readonly p: Side }
  | { readonly t: 'attempt'; readonly p: Side }
  | { readonly t: 'select'; readonly p: Side; readonly left: number }
  // chance
  | { readonly t: 'weather' }
  | { readonly t: 'firstRoll' }
  | { readonly t: 'actDie'; readonly p: Side }
  | { readonly t: 'courier'; readonly p: Side; readonly area: AreaId }
  | { readonly t: 'cbi'; readonly p: Side; readonly leader: string }
  // automatic continuations
  | { readonly t: 'command'; readonly p: Side }
  | { readonly t: 'segments'; readonly p: Side };

export type Phase = 'prep' | 'activation' | 'end' | 'over';

export interface Result {
  /** 0, 1, or -1 for a draw. */
  readonly winner: number;
  readonly level: 'decisive' | 'marginal' | 'draw';
  readonly vp: readonly [number, number];
  readonly reason: string;
}

export interface EState {
  readonly ctx: Ctx;
  readonly turn: number;
  readonly phase: Phase;
  readonly weather: Weather;
  readonly weatherSet: boolean;
  readonly firstPlayer: Side | null;
  readonly units: readonly UnitState[];
  readonly leaders: readonly LeaderState[];
  readonly hq: readonly [HqState | null, HqState | null];
  readonly formations: readonly FormationState[];
  readonly reinf: readonly Reinforcement[];
  /** Activation bookkeeping [8.1, 8.13]: whose attempt is next, the previous attempt, failures in a row by one side. */
  readonly acting: Side;
  readonly prev: { readonly p: Side; readonly failed: boolean } | null;
  readonly sameSideFails: number;
  /** Formations activated in the current Action Phase [8.14]. */
  readonly active: readonly string[];
  /** Command-by-Initiative results this turn [9.3]; courier rolls this segment [9.12]. */
  readonly cbi: Readonly<Record<string, boolean>>;
  readonly courier: Readonly<Record<string, boolean>>;
  /** Objective control: area → side. */
  readonly control: Readonly<Record<string, Side>>;
  readonly stack: readonly Frame[];
  readonly nChance: number;
  readonly result: Result | null;
}

export type Action =
  | { readonly k: 'arrive'; readonly g: string }
  | { readonly k: 'delay'; readonly g: string }
  | { readonly k: 'placeAt'; readonly area: AreaId }
  | { readonly k: 'face'; readonly u: string; readonly conf: string }
  | { readonly k: 'first'; readonly self: boolean }
  | { readonly k: 'roll' }
  | { readonly k: 'pass' }
  | { readonly k: 'grandCharge'; readonly leader: string }
  | { readonly k: 'select'; readonly f: string }
  // chance outcomes
  | { readonly k: 'c-weather'; readonly w: Weather; readonly faces: readonly number[] }
  | { readonly k: 'c-first'; readonly winner: Side }
  | { readonly k: 'c-die'; readonly face: number };
