/**
 * What the web table's server sends its page (`server.ts`, `client/main.tsx`): types only, shared by both sides and
 * free of Node, so the page's bundle and its type check need nothing of the server.
 */
import type { Explanation } from '../agents/agent.ts';
import type { Picture } from '../engine/core/picture.ts';

export type Mode = 'play' | 'assist' | 'replay';

/** A step as the viewer sees it, for the event log. */
export interface StepView {
  readonly ply: number;
  /** Who chose (-1: the dice). */
  readonly player: number;
  readonly text: string;
  readonly events: readonly { readonly rule: string; readonly text: string; readonly dice?: readonly number[] }[];
  readonly explanation?: Explanation;
}

/** An offered action: its key (what the client sends back) and its description. */
export interface OfferView {
  readonly key: string;
  readonly text: string;
}

/** Everything the page draws, as one viewer sees it. */
export interface TableView {
  readonly ruleset: string;
  readonly title: string;
  readonly scenarioId: string;
  readonly seed: string;
  readonly mode: Mode;
  readonly players: readonly string[];
  readonly seats: readonly string[];
  /** The side the page shows (-1: everything, a spectator). */
  readonly viewer: number;
  readonly ply: number;
  /** `player` n, `chance`, or `over`. */
  readonly toMove: { readonly kind: 'player'; readonly player: number } | { readonly kind: 'chance' | 'over' };
  /** What the player to move is asked, in words. */
  readonly decision?: string;
  /** The viewer's choices, when it is the viewer's turn. */
  readonly offers: readonly OfferView[];
  /** Assistant mode at a roll: the outcome classes the dice can give. */
  readonly roll?: {
    readonly what: string;
    /** The dice to roll (each die's sides), when the ruleset maps real faces to its outcomes: enter the faces. */
    readonly dice?: readonly number[];
    readonly outcomes: readonly (OfferView & { readonly p: number })[];
  };
  readonly picture?: Picture;
  /** The ruleset's text picture (always present; the page shows it when there is no drawing). */
  readonly text: string;
  readonly log: readonly StepView[];
  readonly result?: string;
  readonly returns?: readonly number[];
  /** The player whose computer seat is thinking now. */
  readonly thinking?: number;
  /** The computer's decisions since the viewer's last one, described (in assistant mode: what to do on the table). */
  readonly computerMoves: readonly string[];
  /** The number of steps a take-back would remove (0: nothing to take back). */
  readonly canTakeBack: number;
}
