/**
 * A drawing of a position for graphical tables (the web table, `eagles serve`): plain data a client turns into SVG.
 * Game-agnostic: a ruleset fills it from its own state through `Game.picture`, and a client needs to know nothing of
 * the ruleset to draw it. Two kinds:
 *
 * - `table`, a miniatures table in inches (x to the right, y down the page, bearings clockwise from north = up):
 *   terrain polygons and lines, the pieces as their real footprints with their front edge, facing and markers, and on
 *   hover each piece's ranges and arcs;
 * - `map`, an area map: the map itself as SVG text (e.g. `engine/areas/svg.ts`), with stacks of pieces placed at
 *   points of that SVG's coordinates.
 *
 * Every code a picture shows (a marker, a terrain kind, a piece's label) is explained in `legend`.
 */
import type { Player } from './game.ts';

export type Pt = readonly [number, number];

/** A terrain feature: an area (closed polygon) or a line (river, road, wall, hedge). */
export interface PictureTerrain {
  /** The ruleset's terrain kind, e.g. "woods", "river", "hill 2"; the client colours by the first word. */
  readonly kind: string;
  readonly points: readonly Pt[];
  /** A line (open polyline) rather than an area. */
  readonly line?: boolean;
  readonly label?: string;
}

/** A circle or a sector about a piece: a weapon's range, a command radius, a charge reach. */
export interface PictureReach {
  readonly label: string;
  /** Radius in the picture's units (inches on a table), measured from `from` (default: the piece's centre). */
  readonly radius: number;
  /** A sector between two bearings, clockwise from `arc[0]` to `arc[1]` (degrees); absent: a full circle. */
  readonly arc?: readonly [number, number];
  readonly from?: Pt;
}

/** A unit, battery, leader or counter. */
export interface PicturePiece {
  /** The id actions use for it (so the client can match a piece to the actions that name it). */
  readonly id: string;
  /** Owner, as a player index; -1 for neutral (abandoned guns, objectives). */
  readonly side: Player;
  /** A short label drawn on it. */
  readonly label: string;
  /** Its footprint (closed polygon); a point piece (a leader) has one point. */
  readonly points: readonly Pt[];
  /** Its front edge, when it has one. */
  readonly front?: readonly [Pt, Pt];
  /** Facing, degrees clockwise from north. */
  readonly facing?: number;
  /** State markers, as short codes the legend explains (e.g. "D" disordered, "R" retreating). */
  readonly markers: readonly string[];
  /** One line of description for a tooltip. */
  readonly title: string;
  readonly reach?: readonly PictureReach[];
}

/** A stack on an area map: the pieces in one area, drawn at `at` (SVG coordinates). */
export interface PictureStack {
  readonly area: string;
  readonly at: Pt;
  readonly pieces: readonly Omit<PicturePiece, 'points' | 'front' | 'facing' | 'reach'>[];
}

export interface LegendEntry {
  readonly code: string;
  readonly text: string;
}

export interface TablePicture {
  readonly kind: 'table';
  /** Table size in inches. */
  readonly width: number;
  readonly height: number;
  readonly terrain: readonly PictureTerrain[];
  readonly pieces: readonly PicturePiece[];
  /** Points of interest: objectives, deployment edges, aim points. */
  readonly marks?: readonly { readonly at: Pt; readonly label: string; readonly side?: Player }[];
  readonly legend: readonly LegendEntry[];
}

export interface MapPicture {
  readonly kind: 'map';
  /** The map as a standalone SVG document (its own width, height and viewBox). */
  readonly svg: string;
  readonly width: number;
  readonly height: number;
  readonly stacks: readonly PictureStack[];
  readonly legend: readonly LegendEntry[];
}

export type Picture = TablePicture | MapPicture;
