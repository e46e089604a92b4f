/** The deployment packer: first-fit, and the keep-room filter's guarantee that a side never runs out of places. */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import type { Polygon } from '../geometry/geometry.ts';
import {
  type Band,
  type Piece,
  type Placement,
  bandPlacements,
  firstFit,
  latticeXs,
  leavesRoom,
  placementsOverlap,
} from './deployment.ts';

const rect = (w: number, y0: number, y1: number): Polygon => [
  { x: -w / 2, y: y0 },
  { x: w / 2, y: y0 },
  { x: w / 2, y: y1 },
  { x: -w / 2, y: y1 },
];

/** A piece of width w and depth d in a zone `depth` deep, in rows every `step` from the front (y = depth). */
function piece(id: string, w: number, d: number, depth: number, step: number): Piece<number> {
  const bands: Band<number>[] = [];
  for (let row = 0; depth - row * step - d >= 0; row++)
    bands.push({
      tag: row,
      polys: [rect(w, depth - row * step - d, depth - row * step)],
      rear: depth - row * step - d,
    });
  return { id, bands };
}

const L = { width: 40, grid: 2 };
const always = () => true;

describe('lattice', () => {
  it('centres on the grid, the whole piece on the table', () => {
    expect(latticeXs(L, -3, 3)).toEqual([4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36]);
    expect(latticeXs({ width: 10, grid: 100 }, -1, 1)).toEqual([]);
  });
});

describe('first-fit packing', () => {
  it('packs the rear band first, east to west, and reports the first piece with no room', () => {
    const ps = [piece('a', 10, 2, 4, 2), piece('b', 10, 2, 4, 2)];
    const r = firstFit(ps, L, always);
    expect(r.stuck).toBe(-1);
    expect(r.taken.map((t) => [t.tag, t.x])).toEqual([
      [1, 34],
      [1, 22],
    ]);
    const many = Array.from({ length: 7 }, (_, i) => piece(`p${i}`, 10, 1.5, 4, 2));
    expect(firstFit(many, L, always).stuck).toBe(6); // 3 a row (touching counts as overlap) × 2 rows
    const touching = Array.from({ length: 4 }, (_, i) => piece(`p${i}`, 10, 2, 4, 2));
    expect(firstFit(touching, L, always).stuck).toBe(3); // rows 2 deep every 2 touch: one row only
  });
});

describe('keep-room: accepting only placements that leave room never dead-ends', () => {
  /** Place pieces one at a time at random among the offered placements; return how many were placed. */
  function randomDeployment(
    pieces: Piece<number>[],
    u: () => number,
    keepRoom: boolean,
  ): { placed: number; deadEnd: boolean } {
    const placed: Placement<number>[] = [];
    let left = [...pieces];
    while (left.length) {
      const clear = (p: Placement<number>) => !placed.some((q) => placementsOverlap(p, q));
      const offers: { i: number; c: Placement<number> }[] = [];
      left.forEach((pc, i) => {
        const rest = left.filter((_, j) => j !== i);
        const pack = firstFit(rest, L, clear);
        for (const b of pc.bands)
          for (const c of bandPlacements(b, L))
            if (clear(c) && (!keepRoom || leavesRoom(c, rest, pack, L, clear))) offers.push({ i, c });
      });
      if (!offers.length) return { placed: placed.length, deadEnd: true };
      const o = offers[Math.floor(u() * offers.length)]!;
      placed.push(o.c);
      left = left.filter((_, j) => j !== o.i);
    }
    return { placed: placed.length, deadEnd: false };
  }
  const tight = (u: () => number) => {
    // pieces that first-fit into a 40 × 6 zone, widest first, but only just
    const out: Piece<number>[] = [];
    for (let i = 0; i < 9; i++) out.push(piece(`p${i}`, 6 + 2 * Math.floor(u() * 4), 1.5 + Math.floor(u() * 2), 6, 2));
    out.sort((a, b) => b.bands[0]!.polys[0]![1]!.x - a.bands[0]!.polys[0]![1]!.x);
    return out;
  };
  it('without the filter random placement dead-ends; with it, never (60 random deployments of packable sets)', () => {
    let withFilter = 0;
    let without = 0;
    let sets = 0;
    for (let g = 0; sets < 60; g++) {
      const u = seedrandom.alea(`keep-room/${g}`);
      const ps = tight(u);
      if (firstFit(ps, L, always).stuck >= 0) continue; // the validator refuses such sets
      sets++;
      if (randomDeployment(ps, seedrandom.alea(`a/${g}`), true).deadEnd) withFilter++;
      if (randomDeployment(ps, seedrandom.alea(`a/${g}`), false).deadEnd) without++;
    }
    expect(without).toBeGreaterThan(5);
    expect(withFilter).toBe(0);
  });
});
