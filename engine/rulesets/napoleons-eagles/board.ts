/**
 * The scenario on the table: its terrain as `shape.ts` pieces (in 1/100"), and a unit's body from its scenario entry
 * and current state. Positions are the centre of a unit's front edge (§3.1).
 */
import { parseRating, type MoveRating } from './tables.ts';
import type { Scenario, TerrainSpec, UnitSpec } from './scenario.ts';
import type { NeTable, TableUnit, TerrainPiece, Troop } from './shape.ts';
import type { Formation } from './types.ts';

/** 1/100" per inch: the geometry's unit of length. */
export const IN = 100;

const pts = (ps: readonly (readonly [number, number])[]) =>
  ps.map(([x, y]) => ({ x: Math.round(x * IN), y: Math.round(y * IN) }));

function piece(t: TerrainSpec): TerrainPiece | null {
  switch (t.type) {
    case 'road':
      return { type: 'road', id: t.id, points: pts(t.points) };
    case 'river':
      return {
        type: 'river',
        id: t.id,
        points: pts(t.points),
        crossable: t.crossable,
        actionsToCross: t.actionsToCross,
        disorders: t.disorders,
      };
    case 'bridge':
      return { type: 'bridge', id: t.id, polygon: pts(t.polygon), capacity: t.capacity };
    case 'ford':
      // a ford is crossed by the river procedure (its actions and disorder), not by a normal move
      return null;
    case 'hill':
      return {
        type: 'hill',
        id: t.id,
        polygon: pts(t.polygon),
        level: t.level,
        slope: t.slope,
        ...(t.ridge ? { ridges: [pts(t.ridge)] } : {}),
      };
    case 'woods':
      return { type: 'woods', id: t.id, polygon: pts(t.polygon), dense: t.density === 'dense' };
    case 'mud':
    case 'fields':
      return { type: t.type, id: t.id, polygon: pts(t.polygon) };
    case 'wall':
    case 'hedge':
      return { type: t.type, id: t.id, points: pts(t.points) };
    case 'block':
      // [p.19] a 4" block, given by its south-west corner; shape.ts takes its centre
      return {
        type: 'block',
        id: t.id,
        x: Math.round((t.sw[0] + 2) * IN),
        y: Math.round((t.sw[1] + 2) * IN),
        brickOrStone: t.brickOrStone,
      };
  }
}

const tables = new WeakMap<Scenario, NeTable>();

/** The table of a scenario (built once per scenario object). */
export function tableOf(sc: Scenario): NeTable {
  let t = tables.get(sc);
  if (!t) {
    t = {
      width: Math.round(sc.table.width * IN),
      height: Math.round(sc.table.height * IN),
      pieces: sc.terrain.map(piece).filter((p): p is TerrainPiece => p !== null),
      ...(sc.options.bearingFigures === 'allFront' ? { allFront: true } : {}),
    };
    tables.set(sc, t);
  }
  return t;
}

/** What `shape.ts` calls the unit's troop type: infantry by its ranks [p.3], cavalry, artillery. */
export function troopOf(u: UnitSpec): Troop {
  if (u.kind === 'infantry') return u.ranks === 2 ? 'twoRankInfantry' : 'threeRankInfantry';
  return u.kind;
}

/** Figures, or for a battery its guns (cannons and howitzers). */
export function figuresOf(u: UnitSpec): number {
  return u.kind === 'artillery' ? u.cannons + u.howitzers : u.figures;
}

export function moveRatingOf(u: UnitSpec): MoveRating {
  return parseRating(u.rating).move;
}

/** A unit's current body on the table. */
export function bodyOf(
  u: UnitSpec,
  side: 0 | 1,
  at: { readonly x: number; readonly y: number; readonly facing: number },
  formation: Formation,
  figures: number,
): TableUnit {
  return { id: u.id, side: String(side), troop: troopOf(u), formation, figures, at };
}
