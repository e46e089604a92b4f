/**
 * Napoleon's Eagles: buildings [p.19-20] (digest §6.11) as pure rule functions. Not yet wired into a game.
 *
 * A `Town` is the building blocks (`BlockState`, 4" squares given by their south-west corner in 1/100") and the units
 * that may hold figures in them (`BlockUnit`: a unit's side, arm, troop class, figures and `inBlocks`, the state's
 * figures per block; figures not in any block are outside). Every function takes a town and a small description of
 * what is tried, and returns why it is not allowed (a string), the town after it, or the EXACT distribution over the
 * outcome classes (probabilities from integer counts of the dice, summing to 1). No randomness, no geometry beyond
 * the block grid: which blocks a footprint touches, ranges and the ground a leaving unit is put on are the caller's.
 *
 * The rules (THE BOOK WINS; the digest's ADAPTATIONs where the book is silent):
 * - Blocks [p.19]: 4" squares; at most 12 figures a block (`BUILDINGS.maxFigures`); no entry to a block holding enemy
 *   figures, nor [p.20] to one with 3 or more fires; only infantry occupy blocks (digest 6.11.1: cavalry and
 *   artillery "may only enter building areas along roads or open areas").
 * - Moving [p.19]: 1 action to enter a block, 1 to go to an orthogonally adjacent one (no diagonals); A-72's entry
 *   placement (12 in the entry block, the rest into adjacent blocks the footprint touches or empty ones); a block move
 *   shifts up to 12 figures; a unit's figures stay in one block or adjacent ones; separated figures rejoin the main
 *   body (the majority of the unit's figures). Leaving voluntarily: disordered, 1 action to reform into column.
 * - Morale [p.19]: infantry in buildings are exempt from morale checks.
 * - Close actions [p.19] (A-73): in step 9, after the ordinary close actions, side A first, figures in a block attack
 *   an adjacent block or fire out; outside infantry charge a block side; at most 6 figures attack one side; D6 each
 *   (`close.blockFight`); an unmodified 6 costs the opponent 2 figures; the loser is pushed out, the winner may
 *   advance; a unit most of whose figures are pushed out of the town retreats.
 * - Fire [p.19-20] (A-74): a block of 8+ figures fires out at troops within 6" (a 6 inflicts 2), once a period, or as
 *   a defence action against a charge on it; fire into a block is normal fire at −5 (`fire.ts`, cover 'buildings'),
 *   its casualties taken from that block's figures.
 * - Fires [p.20] (optional, A-75): starting, extinguishing, accumulating and spreading; no entry at 3 fires.
 *
 * BOOK vs DIGEST (the book wins):
 * 1. [p.19] pushing out: the book's step 4 reads "Losing side pushed out of the building block. This may result in
 *    pushing back other figures due to overcrowding." A-73 puts pushed figures only into an ADJACENT friendly or empty
 *    block with room, and sends the rest out of the town, so overcrowding never pushes anyone back. Here the pushed
 *    figures may go on through full friendly blocks (each block they pass is overcrowded and its excess is pushed one
 *    block further back): `pushOut` fills friendly or empty blocks reachable from the lost block through friendly or
 *    empty blocks, nearest first, and only what no such block can hold leaves the town (A-73's rule where the
 *    adjacent blocks have room, the same result).
 * 2. [p.20] solid shot at troops in buildings: the book's buildings text gives −2 damage, the digest −4 (A-44). This
 *    is `tables.ts`'s BOOK_READINGS item (the book against its own p.9 table), kept there as the `solidShotCover`
 *    option; nothing here overrides it.
 * No other building rule of the digest contradicts the book: A-72, A-73 (tie, count of defenders, timing, no
 * fatigue), A-74 and A-75 fill places where the book is silent.
 *
 * READINGS (where both are silent; each cited where used):
 * R1. A unit's figures are "in contact" [p.19] when its blocks are connected through orthogonal adjacency (a
 *     36-figure unit needs three blocks, which cannot all be pairwise adjacent).
 * R2. The main body [p.19] is the connected group of the unit's blocks holding most of its figures in blocks (ties:
 *     the group holding the first block by id). While a unit is separated, its block moves are its separated
 *     figures' moves toward the main body (digest 6.11.1's ADAPTATION, "their next block move must be toward the
 *     main body"): the moved figures' distance in blocks to the main body must shrink. Figures outside the town
 *     (pushed out) rejoin with a block move from outside into a town-edge block that holds the unit's figures or is
 *     adjacent to one.
 * R3. A-72's placement is the player's ("figures are placed as pleased"): `entryPlacementProblem` checks any
 *     placement; `entryPlacement` gives the canonical one (as many as fit in the entry block, then the touched
 *     blocks, then the empty adjacent ones, each in id order).
 * R4. Leaving is the whole unit at once, by an open side (no block beyond it) of a block holding its figures; it is
 *     placed in column, disordered, its rear edge centred on that side, facing away from the block.
 * R5. "Most are light infantry / guards or grenadiers / militia, landwehr or green" [p.19]: more than half of the
 *     side's fighting figures (A-70's "mostly"); grenadiers and guards count together, militia and green together.
 * R6. The figures lost to a natural 6 [p.19] come, for the attacker, from its attacking figures, and for the
 *     defender, from the attacked block; the unit with most figures there first (ties: by id).
 * R7. A losing attacker is "pushed out" by staying where it is: its figures never entered the block (inside
 *     attackers stay in their own block, an outside charger stays outside). The book lists no loser's morale check.
 * R8. The winner's advance: an inside attacker's attacking figures move into the won block; an outside charger
 *     advances by entering the won block with its whole unit by A-72's placement (a unit outside is one body), or not
 *     at all. The advance is the winner's choice.
 * R9. A unit whose figures outside the town are more than half its figures "must retreat" [p.19]: it leaves the town
 *     and makes the p.12 retreat (as after a failed check), away from the attack. Infantry in buildings are exempt
 *     from morale checks; a unit is "in buildings" while most of its figures are in blocks.
 * R10. Step 9 [p.19]: each figure fights once; a block's figures may attack several adjacent blocks (at most 6 a side,
 *     counted over every attack on that side), or the block fires out (A-74), not both.
 * R11. Fires [p.20]: a start roll per howitzer or per two figures (figures that fought forfeit theirs); one fire
 *     however many dice show the number; each extinguishing success removes one fire (digest); growth adds one fire
 *     (two-fire jumps never), capped at 4; a spread adds one fire to the block downwind, if there is one.
 *
 * WIRING PLAN (for turn.ts; nothing here is wired yet):
 * - State: `SeqUnit` gets `inBlocks: Record<blockId, figures>` (as types.ts `UnitState.inBlocks`; empty = in the
 *   open; figures minus their sum = outside) and `SeqState` gets `blocks: BlockState[]` (the scenario's 'block'
 *   pieces: SW corner ×100, wallSides, brickOrStone, fires) and `firedOut: string[]` (A-74, cleared in endPeriod).
 *   A `Town` is `{ blocks, units: units.map(u => ({ id, side, kind, troopClass, figures, inBlocks })) }`; write back
 *   `inBlocks` and `figures`. A unit in blocks has no footprint of its own: shape.ts should take its body from its
 *   blocks (LOS, ranges, the cover 'buildings', collisions).
 * - menuOf (a unit's activation primitives, A-24 halves): infantry outside with a block within 1" of its footprint:
 *   `enter <block> <placement>` (2 halves; `entryPlacement` for the canonical placement, `entryPlacementProblem` for
 *   others; `touching` = the blocks within 1" of the footprint); a unit in blocks: `blockMove <from> <to> <n>`
 *   (2 halves, `blockMoveProblem`/`blockMove`, n 1..12, from 'outside' to rejoin), `leave <block> <side>` (2 halves,
 *   `leaveProblem`/`leave`: column, disordered, rear edge on `exitPoint`), the existing reform, fire only as below,
 *   and no ordinary move, turn, formation change or charge. Infantry exits the menu with 'end' as now.
 * - Charges (frames closeCheck/defence/closeFight): a charge on a unit in blocks (close.mayCharge(…, 'block')) is a
 *   `BlockAttack` from 'outside' on the block side contacted: no `closeCheck` (step 2), `defence` offers one
 *   fire-out roll (`fireOutProblem`/`fireOutDist`) if the block holds 8+ figures, the charger's step 5 check
 *   (close.chargerCheck), then the fight waits for step 9's block fights (A-73), no fatigue.
 * - Step 9 (frame step9): after the ordinary close actions (push before `step10`) new frames:
 *   `{ t: 'blockDeclare', p: Side }` decisions, side A first: the side's block attacks and fire-outs
 *   (`stepNineProblem`); then `orderBlockFights`; per attack `{ t: 'blockFight', attack }` a chance node over
 *   `blockAttackFight(town, attack).dist` (skipped if `blockAttackProblem` now refuses it: a push may have emptied
 *   the block; faces by close.blockFightFaces), then `{ t: 'blockAdvance', … }` the winner's decision (and the
 *   loser's push order, `prefer`), then `applyBlockFight`; each id in `retreats` gets the existing `reformRoll` /
 *   `retreatTo` frames (p.12 retreat) from its `leftTown` side. Fire-outs: `{ t: 'blockFireOut', block, target }`
 *   a chance node over `fireOutDist` (or fire.ts's `buildingFireOut` shot, which also gives the target's mark).
 * - Fire in (frame fire): target = `blockFireTarget(town, block, side)` (cover 'buildings' −5, no morale mark, no
 *   bounce through [p.20]); casualties applied by `blockCasualties` on that block.
 * - Morale (step10, closeCheck): no mark and no check for a unit with `moraleExempt` (close.ts's `inBuilding`).
 * - Optional fires (options.fires; endPeriod, step 12 (c) A-19): a howitzer shell at a block: `fireStartDist` per
 *   howitzer (the Incendiary column for a battery with `incendiary`), a rocket battery's launchers the Rockets column
 *   (A-75); at the period's end `extinguishCrewsDist` per block worked on (sappers 16-20), then `fireGrowthDist` per
 *   burning block (`spreadFire` downwind of the scenario's `windFrom`), then `fireStartDistOf` with
 *   `soldierStartRolls` (sappers 11-20, other soldiers 20);
 *   A-75's `fireEvacuation` forces a `leave` at 3+ fires.
 */
import type { Dist } from '../../core/dice.ts';
import { IN } from './board.ts';
import { type BlockFightOutcome, type Mod, type Mostly, blockFight, blockFireOut, mustLeaveTown } from './close.ts';
import type { FireTargetDesc } from './fire.ts';
import { BUILDINGS, FIRES, FIRE_START, type FireSource } from './tables.ts';
import type { BlockState, Compass, Side, TroopClass, UnitKind } from './types.ts';

// ---------------------------------------------------------------------------------------------------------------------
// The town: blocks and the units in them
// ---------------------------------------------------------------------------------------------------------------------

/** A unit as the building rules see it (a slice of UnitState and its static data). */
export interface BlockUnit {
  readonly id: string;
  readonly side: Side;
  readonly kind: UnitKind;
  /** Infantry troop class (building fight modifiers [p.19]). */
  readonly troopClass?: TroopClass;
  readonly figures: number;
  /** Figures per block id; the rest of `figures` are outside. */
  readonly inBlocks: Readonly<Record<string, number>>;
}

export interface Town {
  readonly blocks: readonly BlockState[];
  readonly units: readonly BlockUnit[];
}

/** [p.19] a block's side, in 1/100" (the state's unit). */
const SIZE = BUILDINGS.blockSize * IN;

const COMPASS: readonly Compass[] = ['N', 'E', 'S', 'W'];
const STEP: Readonly<Record<Compass, readonly [number, number]>> = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
const OPPOSITE: Readonly<Record<Compass, Compass>> = { N: 'S', E: 'W', S: 'N', W: 'E' };
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function block(t: Town, id: string): BlockState {
  const b = t.blocks.find((x) => x.id === id);
  if (!b) throw new RangeError(`no block ${id}`);
  return b;
}

function unitOf(t: Town, id: string): BlockUnit {
  const u = t.units.find((x) => x.id === id);
  if (!u) throw new RangeError(`no unit ${id}`);
  return u;
}

/** [p.19] the block across side `s` of block `id` (no diagonals), if any. */
export function blockAcross(t: Town, id: string, s: Compass): BlockState | undefined {
  const b = block(t, id);
  const [dx, dy] = STEP[s];
  return t.blocks.find((x) => x.x === b.x + dx * SIZE && x.y === b.y + dy * SIZE);
}

/** [p.19] the side of block `from` that faces block `to`, when they are orthogonally adjacent (never diagonally). */
export function sideToward(t: Town, from: string, to: string): Compass | undefined {
  return COMPASS.find((s) => blockAcross(t, from, s)?.id === to);
}

/** [p.19] the blocks orthogonally adjacent to `id`. */
export function neighbours(t: Town, id: string): BlockState[] {
  return COMPASS.flatMap((s) => {
    const n = blockAcross(t, id, s);
    return n ? [n] : [];
  });
}

/** The sides of a block with no block beyond them: the town's edge there (R4). */
export function openSides(t: Town, id: string): Compass[] {
  return COMPASS.filter((s) => !blockAcross(t, id, s));
}

/** Distance in block steps (R2). */
function steps(a: BlockState, b: BlockState): number {
  return (Math.abs(a.x - b.x) + Math.abs(a.y - b.y)) / SIZE;
}

/** Figures in a block, of one side or of both. */
export function figuresIn(t: Town, id: string, side?: Side): number {
  let n = 0;
  for (const u of t.units) if (side === undefined || u.side === side) n += u.inBlocks[id] ?? 0;
  return n;
}

/** [p.19] room left in a block (12 figures at most). */
export function room(t: Town, id: string): number {
  return BUILDINGS.maxFigures - figuresIn(t, id);
}

/** Figures of a unit in blocks, and outside. */
export function figuresInTown(u: BlockUnit): number {
  return Object.values(u.inBlocks).reduce((s, n) => s + n, 0);
}
export function figuresOutside(u: BlockUnit): number {
  return u.figures - figuresInTown(u);
}

/** [p.19] why `side` may not enter block `id` (enemy figures; [p.20] 3 or more fires), or undefined. */
export function entryBan(t: Town, id: string, side: Side): string | undefined {
  if (figuresIn(t, id, (1 - side) as Side) > 0) return `block ${id} holds enemy figures [p.19]`;
  if (block(t, id).fires >= FIRES.noEntryAt) return `block ${id} has ${block(t, id).fires} fires: no entry at 3 [p.20]`;
  return undefined;
}

/** [p.19] infantry in buildings are exempt from morale checks (R9: while most of its figures are in blocks). */
export function moraleExempt(u: BlockUnit): boolean {
  return u.kind === 'infantry' && figuresInTown(u) * 2 > u.figures;
}

function withUnit(t: Town, u: BlockUnit): Town {
  return { ...t, units: t.units.map((x) => (x.id === u.id ? u : x)) };
}

function setIn(inBlocks: Readonly<Record<string, number>>, id: string, n: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries({ ...inBlocks, [id]: n })) if (v > 0) out[k] = v;
  return out;
}

// ---------------------------------------------------------------------------------------------------------------------
// Unit cohesion [p.19] (R1, R2)
// ---------------------------------------------------------------------------------------------------------------------

/** The unit's blocks in connected groups (orthogonal adjacency), each group in id order, groups by first id. */
export function groups(t: Town, inBlocks: Readonly<Record<string, number>>): string[][] {
  const ids = Object.keys(inBlocks)
    .filter((k) => (inBlocks[k] ?? 0) > 0)
    .sort();
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const id of ids) {
    if (seen.has(id)) continue;
    const g: string[] = [];
    const todo = [id];
    seen.add(id);
    while (todo.length) {
      const b = todo.pop()!;
      g.push(b);
      for (const n of neighbours(t, b))
        if (!seen.has(n.id) && (inBlocks[n.id] ?? 0) > 0) {
          seen.add(n.id);
          todo.push(n.id);
        }
    }
    out.push(g.sort());
  }
  return out;
}

/** [p.19] the main body: the group of blocks holding most of the unit's figures in blocks (R2), or [] if none. */
export function mainBody(t: Town, u: BlockUnit): string[] {
  let best: string[] = [];
  let most = 0;
  for (const g of groups(t, u.inBlocks)) {
    const n = g.reduce((s, id) => s + (u.inBlocks[id] ?? 0), 0);
    if (n > most) [best, most] = [g, n];
  }
  return best;
}

/** [p.19] are some of the unit's figures separated from the main body (another group, or outside the town)? */
export function separated(t: Town, u: BlockUnit): boolean {
  return figuresInTown(u) > 0 && (groups(t, u.inBlocks).length > 1 || figuresOutside(u) > 0);
}

function distanceToBody(t: Town, id: string, body: readonly string[]): number {
  const b = block(t, id);
  return Math.min(...body.map((x) => steps(b, block(t, x))));
}

// ---------------------------------------------------------------------------------------------------------------------
// Entering, moving between and leaving blocks [p.19] (A-72)
// ---------------------------------------------------------------------------------------------------------------------

/**
 * Why a placement of a unit entering block `entry` is not allowed [p.19] (A-72), or undefined. `touching` are the
 * blocks the unit's footprint is within 1" of (the caller's geometry; it must include `entry`). The unit must be
 * infantry, wholly outside; the placement puts all its figures in `entry` and in blocks orthogonally adjacent to it
 * that the footprint touches or that are empty, at most 12 figures a block with those already there; none may be a
 * block it may not enter.
 */
export function entryPlacementProblem(
  t: Town,
  unit: string,
  entry: string,
  touching: readonly string[],
  placement: Readonly<Record<string, number>>,
): string | undefined {
  const u = unitOf(t, unit);
  if (u.kind !== 'infantry')
    return 'only infantry occupy blocks; cavalry and artillery enter built-up areas along roads or open areas [p.19]';
  if (figuresInTown(u) > 0) return `${unit} is already in the buildings`;
  if (!touching.includes(entry)) return `${unit} must be within 1" of block ${entry} to enter it (A-72)`;
  if (!((placement[entry] ?? 0) > 0)) return `the entry block ${entry} must receive figures (A-72)`;
  let sum = 0;
  for (const [id, n] of Object.entries(placement)) {
    if (!Number.isInteger(n) || n < 0) return `figures placed in ${id} must be a whole number`;
    if (n === 0) continue;
    sum += n;
    block(t, id);
    const ban = entryBan(t, id, u.side);
    if (ban) return ban;
    if (n > room(t, id)) return `block ${id} has room for ${room(t, id)} figures (12 at most) [p.19]`;
    if (id === entry) continue;
    if (!sideToward(t, entry, id)) return `block ${id} is not orthogonally adjacent to ${entry} (A-72)`;
    if (!touching.includes(id) && figuresIn(t, id) > 0)
      return `block ${id} is neither touched by ${unit} nor empty (A-72)`;
  }
  if (sum !== u.figures) return `the placement holds ${sum} of ${unit}'s ${u.figures} figures (A-72)`;
  return undefined;
}

/**
 * [p.19] A-72 the canonical entry placement (R3): as many figures as fit in `entry`, the rest in the adjacent blocks
 * the footprint touches, then in empty adjacent ones (each in id order), up to the room in each. A string when the
 * figures cannot all be placed or the unit may not enter.
 */
export function entryPlacement(
  t: Town,
  unit: string,
  entry: string,
  touching: readonly string[],
): Record<string, number> | string {
  const u = unitOf(t, unit);
  const ban = entryBan(t, entry, u.side);
  if (ban) return ban;
  const placement: Record<string, number> = {};
  let left = u.figures;
  const put = (id: string) => {
    const n = Math.min(left, room(t, id));
    if (n > 0) placement[id] = n;
    left -= n;
  };
  put(entry);
  const adj = neighbours(t, entry).sort(byId);
  const ok = (b: BlockState) => !entryBan(t, b.id, u.side);
  for (const b of adj) if (left > 0 && touching.includes(b.id) && ok(b)) put(b.id);
  for (const b of adj) if (left > 0 && !touching.includes(b.id) && ok(b) && figuresIn(t, b.id) === 0) put(b.id);
  if (left > 0) return `${left} of ${unit}'s figures cannot be placed: entry is illegal (A-72)`;
  return entryPlacementProblem(t, unit, entry, touching, placement) ?? placement;
}

/** [p.19] enter: 1 action; the unit's figures are put per `placement` (check it with `entryPlacementProblem`). */
export function enter(t: Town, unit: string, placement: Readonly<Record<string, number>>): Town {
  const u = unitOf(t, unit);
  return withUnit(t, { ...u, inBlocks: Object.fromEntries(Object.entries(placement).filter(([, n]) => n > 0)) });
}

/** A block move: `figures` of `unit` from block `from` (or from outside, to rejoin: R2) to block `to`. */
export interface BlockMove {
  readonly unit: string;
  readonly from: string | 'outside';
  readonly to: string;
  readonly figures: number;
}

/**
 * Why a block move is not allowed [p.19] (A-72), or undefined: 1 action, up to 12 figures, to an orthogonally adjacent
 * block (no diagonals) it may enter with room for them; the unit's figures stay connected (R1), and a separated unit
 * moves its separated figures toward the main body (R2).
 */
export function blockMoveProblem(t: Town, m: BlockMove): string | undefined {
  const u = unitOf(t, m.unit);
  if (figuresInTown(u) === 0) return `${m.unit} is not in the buildings: it enters a block first [p.19]`;
  if (!Number.isInteger(m.figures) || m.figures < 1) return 'a block move moves at least one figure';
  if (m.figures > BUILDINGS.maxFigures) return 'a block move shifts up to 12 figures (A-72)';
  block(t, m.to);
  const have = m.from === 'outside' ? figuresOutside(u) : (u.inBlocks[m.from] ?? 0);
  if (m.figures > have) return `${m.unit} has ${have} figures ${m.from === 'outside' ? 'outside' : `in ${m.from}`}`;
  const ban = entryBan(t, m.to, u.side);
  if (ban) return ban;
  if (m.figures > room(t, m.to)) return `block ${m.to} has room for ${room(t, m.to)} figures [p.19]`;
  const body = mainBody(t, u);
  if (m.from === 'outside') {
    // R2: figures outside rejoin into a town-edge block that holds the unit's figures or is adjacent to one
    if (!openSides(t, m.to).length) return `block ${m.to} is not on the edge of the town`;
    const near = (u.inBlocks[m.to] ?? 0) > 0 || neighbours(t, m.to).some((b) => (u.inBlocks[b.id] ?? 0) > 0);
    if (!near) return `figures outside rejoin ${m.unit}'s blocks or one next to them [p.19]`;
    return undefined;
  }
  if (!sideToward(t, m.from, m.to))
    return `block ${m.to} is not orthogonally adjacent to ${m.from}: no diagonals [p.19]`;
  const after = moved(u, m).inBlocks;
  if (separated(t, u)) {
    if (body.includes(m.from))
      return `${m.unit}'s separated figures must rejoin the main body first [p.19] (digest 6.11.1)`;
    if (distanceToBody(t, m.to, body) >= distanceToBody(t, m.from, body))
      return `separated figures move toward the main body [p.19] (digest 6.11.1)`;
    return undefined;
  }
  if (groups(t, after).length > 1) return `${m.unit}'s figures must stay in the same or adjacent blocks [p.19]`;
  return undefined;
}

function moved(u: BlockUnit, m: BlockMove): BlockUnit {
  let inBlocks = u.inBlocks;
  if (m.from !== 'outside') inBlocks = setIn(inBlocks, m.from, (inBlocks[m.from] ?? 0) - m.figures);
  inBlocks = setIn(inBlocks, m.to, (inBlocks[m.to] ?? 0) + m.figures);
  return { ...u, inBlocks };
}

/** [p.19] a block move (1 action); check it with `blockMoveProblem`. */
export function blockMove(t: Town, m: BlockMove): Town {
  return withUnit(t, moved(unitOf(t, m.unit), m));
}

/** Why `unit` may not leave the buildings by side `side` of block `via` (R4), or undefined. */
export function leaveProblem(t: Town, unit: string, via: string, side: Compass): string | undefined {
  const u = unitOf(t, unit);
  if (figuresInTown(u) === 0) return `${unit} is not in the buildings`;
  if (!((u.inBlocks[via] ?? 0) > 0)) return `${unit} has no figures in block ${via}`;
  if (blockAcross(t, via, side)) return `side ${side} of ${via} leads into block ${blockAcross(t, via, side)!.id}`;
  return undefined;
}

/** Where a leaving unit goes (R4): the midpoint of the side (1/100") and the bearing away from the block (degrees). */
export function exitPoint(
  b: BlockState,
  side: Compass,
): { readonly x: number; readonly y: number; readonly facing: number } {
  const h = SIZE / 2;
  const at: Record<Compass, [number, number, number]> = {
    N: [b.x + h, b.y + SIZE, 0],
    E: [b.x + SIZE, b.y + h, 90],
    S: [b.x + h, b.y, 180],
    W: [b.x, b.y + h, 270],
  };
  const [x, y, facing] = at[side];
  return { x, y, facing };
}

/**
 * [p.19] leaving buildings voluntarily: 1 action (digest 6.11.2), the whole unit out (R4) in column, disordered; it
 * needs 1 action to reform into column [p.19] (`BUILDINGS.leaveReformActions`).
 */
export function leave(
  t: Town,
  unit: string,
  via: string,
  side: Compass,
): {
  readonly town: Town;
  readonly formation: 'column';
  readonly disordered: true;
  readonly reformActions: number;
  readonly at: { readonly x: number; readonly y: number; readonly facing: number };
} {
  const u = unitOf(t, unit);
  return {
    town: withUnit(t, { ...u, inBlocks: {} }),
    formation: 'column',
    disordered: true,
    reformActions: BUILDINGS.leaveReformActions,
    at: exitPoint(block(t, via), side),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Close actions in buildings [p.19] (A-73)
// ---------------------------------------------------------------------------------------------------------------------

/** The attacking figures of one unit. */
export interface Attackers {
  readonly unit: string;
  readonly figures: number;
}

/**
 * An attack on one side (`face`) of block `target` [p.19]: from the adjacent block across that side, or from outside
 * (an infantry charge, A-73) on an open side.
 */
export interface BlockAttack {
  readonly side: Side;
  readonly target: string;
  readonly face: Compass;
  readonly from: 'outside' | string;
  readonly attackers: readonly Attackers[];
}

const attackFigures = (a: BlockAttack) => a.attackers.reduce((s, x) => s + x.figures, 0);

/** Why a block attack may not be made now, or undefined [p.19] (A-73). */
export function blockAttackProblem(t: Town, a: BlockAttack): string | undefined {
  block(t, a.target);
  if (figuresIn(t, a.target, (1 - a.side) as Side) === 0) return `block ${a.target} holds no enemy figures`;
  const n = attackFigures(a);
  if (n < 1) return 'an attack needs figures';
  if (n > BUILDINGS.maxAttackersPerSide)
    return `no more than ${BUILDINGS.maxAttackersPerSide} figures total may attack one side of a block [p.19]`;
  const across = blockAcross(t, a.target, a.face);
  if (a.from === 'outside') {
    if (across) return `side ${a.face} of ${a.target} faces block ${across.id}: attack it from there [p.19]`;
  } else if (across?.id !== a.from) return `block ${a.from} is not across side ${a.face} of ${a.target} [p.19]`;
  for (const x of a.attackers) {
    const u = unitOf(t, x.unit);
    if (u.side !== a.side) return `${x.unit} is not on side ${a.side}`;
    if (u.kind !== 'infantry') return 'only infantry attacks building blocks (A-73)';
    if (!Number.isInteger(x.figures) || x.figures < 1) return `${x.unit}'s attacking figures must be a whole number`;
    if (a.from === 'outside') {
      if (figuresInTown(u) > 0) return `${x.unit} is in the buildings: it attacks from a block`;
      if (x.figures > u.figures) return `${x.unit} has ${u.figures} figures`;
    } else if (x.figures > (u.inBlocks[a.from] ?? 0)) return `${x.unit} has ${u.inBlocks[a.from] ?? 0} in ${a.from}`;
  }
  return undefined;
}

/** R5: the class most (more than half) of these figures belong to, for the [p.19] modifiers. */
export function mostlyOf(t: Town, parts: readonly Attackers[]): Mostly {
  const count: Record<Mostly, number> = { light: 0, guardsOrGrenadiers: 0, militia: 0, other: 0 };
  let all = 0;
  for (const p of parts) {
    const c = unitOf(t, p.unit).troopClass;
    const k: Mostly =
      c === 'light'
        ? 'light'
        : c === 'guard' || c === 'grenadier'
          ? 'guardsOrGrenadiers'
          : c === 'militia' || c === 'green'
            ? 'militia'
            : 'other';
    count[k] += p.figures;
    all += p.figures;
  }
  for (const k of ['light', 'guardsOrGrenadiers', 'militia'] as const) if (count[k] * 2 > all) return k;
  return 'other';
}

/** The defenders of an attacked block: all their figures in it (A-73), largest unit first (R6). */
export function defendersOf(t: Town, a: BlockAttack): Attackers[] {
  return t.units
    .filter((u) => u.side !== a.side && (u.inBlocks[a.target] ?? 0) > 0)
    .map((u) => ({ unit: u.id, figures: u.inBlocks[a.target]! }))
    .sort((x, y) => y.figures - x.figures || (x.unit < y.unit ? -1 : 1));
}

/** The wall or prepared-defence sides of the attacked block (+1 to the defender [p.19]). */
function wallSide(t: Town, a: BlockAttack): boolean {
  return block(t, a.target).wallSides.includes(a.face);
}

/**
 * [p.19] the fight on one block side: each side's D6 modifiers and the exact distribution of who wins and who loses
 * two figures to a natural 6 (`close.blockFight`: tie holds for the defender, A-73).
 */
export function blockAttackFight(
  t: Town,
  a: BlockAttack,
): { readonly attackerMods: readonly Mod[]; readonly defenderMods: readonly Mod[]; dist: Dist<BlockFightOutcome>[] } {
  const p = blockAttackProblem(t, a);
  if (p) throw new RangeError(p);
  const defenders = defendersOf(t, a);
  return blockFight({
    attacker: { figures: attackFigures(a), mostly: mostlyOf(t, a.attackers) },
    defender: { figures: defenders.reduce((s, x) => s + x.figures, 0), mostly: mostlyOf(t, defenders) },
    attackerOutside: a.from === 'outside',
    wallSide: wallSide(t, a),
  });
}

/** Remove `n` figures from units' parts, the largest part first (R6); returns the losses per unit. */
function takeFrom(parts: readonly Attackers[], n: number): Map<string, number> {
  const left = parts.map((p) => ({ ...p })).sort((x, y) => y.figures - x.figures || (x.unit < y.unit ? -1 : 1));
  const lost = new Map<string, number>();
  while (n > 0 && left.some((p) => p.figures > 0)) {
    left.sort((x, y) => y.figures - x.figures || (x.unit < y.unit ? -1 : 1));
    left[0]!.figures--;
    lost.set(left[0]!.unit, (lost.get(left[0]!.unit) ?? 0) + 1);
    n--;
  }
  return lost;
}

/** Casualties taken from a unit's figures in block `id` (or outside). */
function lose(t: Town, unit: string, where: string | 'outside', n: number): Town {
  const u = unitOf(t, unit);
  const inBlocks = where === 'outside' ? u.inBlocks : setIn(u.inBlocks, where, (u.inBlocks[where] ?? 0) - n);
  return withUnit(t, { ...u, figures: u.figures - n, inBlocks });
}

/**
 * [p.20] casualties of fire into a block come from that block's figures (digest 6.11.4): the unit with most figures
 * there first (R6). Returns the town after and the losses per unit.
 */
export function blockCasualties(
  t: Town,
  id: string,
  casualties: number,
): { readonly town: Town; readonly losses: Readonly<Record<string, number>> } {
  const parts = t.units.filter((u) => (u.inBlocks[id] ?? 0) > 0).map((u) => ({ unit: u.id, figures: u.inBlocks[id]! }));
  const lost = takeFrom(parts, casualties);
  let town = t;
  for (const [unit, n] of lost) town = lose(town, unit, id, n);
  return { town, losses: Object.fromEntries(lost) };
}

/**
 * [p.20] troops in a block as the target of fire from outside (digest 6.11.4): infantry with the cover 'buildings'
 * (−5 [p.20]; no morale mark [p.19]; no bounce through [p.20]) and no formation inside buildings [p.19], so fired at
 * as a line (no formation modifier); `figures` are the block's, for A-43's elimination. Casualties: `blockCasualties`.
 */
export function blockFireTarget(t: Town, id: string, side: Side): FireTargetDesc {
  return { id, kind: 'infantry', formation: 'line', cover: 'buildings', figures: figuresIn(t, id, side) };
}

/**
 * Figures of a unit pushed out of the town: they leave from block `via` toward side `face` (the side away from the
 * attack, A-73; another open side of `via` if that one leads into a block).
 */
export interface LeftTown {
  readonly unit: string;
  readonly figures: number;
  readonly via: string;
  readonly face: Compass;
}

/**
 * [p.19] the loser's figures in block `id` are pushed out (BOOK vs DIGEST 1): each unit, largest first, fills the
 * friendly or empty blocks it may enter that are reachable from `id` through such blocks, nearest first (ties by id,
 * or the owner's `prefer` order), up to 12 a block; what cannot be placed leaves the town on the side away from the
 * attack (A-73).
 */
export function pushOut(
  t: Town,
  id: string,
  side: Side,
  attackFace: Compass,
  prefer: readonly string[] = [],
): { readonly town: Town; readonly leftTown: readonly LeftTown[] } {
  // friendly-or-empty blocks reachable from `id`, by distance in steps
  const dist = new Map<string, number>([[id, 0]]);
  const queue = [id];
  while (queue.length) {
    const b = queue.shift()!;
    for (const n of neighbours(t, b).sort(byId)) {
      if (dist.has(n.id) || entryBan(t, n.id, side)) continue;
      dist.set(n.id, dist.get(b)! + 1);
      queue.push(n.id);
    }
  }
  const rank = (x: string) => (prefer.includes(x) ? prefer.indexOf(x) : prefer.length);
  const targets = [...dist.keys()]
    .filter((x) => x !== id)
    .sort((x, y) => dist.get(x)! - dist.get(y)! || rank(x) - rank(y) || (x < y ? -1 : 1));
  const away = OPPOSITE[attackFace];
  const exitFace = openSides(t, id).includes(away) ? away : (openSides(t, id)[0] ?? away);
  let town = t;
  const leftTown: LeftTown[] = [];
  const losers = t.units
    .filter((u) => u.side === side && (u.inBlocks[id] ?? 0) > 0)
    .sort((x, y) => y.inBlocks[id]! - x.inBlocks[id]! || (x.id < y.id ? -1 : 1));
  for (const l of losers) {
    let left = l.inBlocks[id]!;
    let inBlocks = setIn(unitOf(town, l.id).inBlocks, id, 0);
    town = withUnit(town, { ...unitOf(town, l.id), inBlocks });
    for (const b of targets) {
      if (left === 0) break;
      const n = Math.min(left, room(town, b));
      if (n <= 0) continue;
      inBlocks = setIn(inBlocks, b, (inBlocks[b] ?? 0) + n);
      town = withUnit(town, { ...unitOf(town, l.id), inBlocks });
      left -= n;
    }
    if (left > 0) leftTown.push({ unit: l.id, figures: left, via: id, face: exitFace });
  }
  return { town, leftTown };
}

/** The winner's choices after a block fight (R8). */
export interface BlockFightChoices {
  /** The winner advances into the block. */
  readonly advance?: boolean;
  /** An outside winner's footprint: the blocks it is within 1" of (A-72), for its advance. */
  readonly touching?: readonly string[];
  /** The loser's preferred blocks to be pushed into (owner's choice, A-73). */
  readonly prefer?: readonly string[];
}

/** The town after a block fight, and what followed. */
export interface BlockFightResult {
  readonly winner: 'attacker' | 'defender';
  readonly town: Town;
  /** Figures lost per unit to natural 6s [p.19]. */
  readonly losses: Readonly<Record<string, number>>;
  readonly leftTown: readonly LeftTown[];
  /** [p.19] units most of whose figures are out of the town: they retreat (R9). */
  readonly retreats: readonly string[];
  readonly advanced: boolean;
}

/**
 * [p.19] apply a block fight's outcome: the natural-6 losses (R6), then the loser pushed out (defender: `pushOut`;
 * attacker: R7), the winner's advance if chosen (R8), and the units that must retreat (R9). No fatigue (A-73).
 */
export function applyBlockFight(
  t: Town,
  a: BlockAttack,
  o: BlockFightOutcome,
  choices: BlockFightChoices = {},
): BlockFightResult {
  const losses = new Map<string, number>();
  let town = t;
  for (const [u, n] of takeFrom(a.attackers, o.attackerLosses)) {
    town = lose(town, u, a.from, n);
    losses.set(u, n);
  }
  for (const [u, n] of takeFrom(defendersOf(t, a), o.defenderLosses)) {
    town = lose(town, u, a.target, n);
    losses.set(u, n);
  }
  const survivors = a.attackers
    .map((x) => ({ unit: x.unit, figures: x.figures - (losses.get(x.unit) ?? 0) }))
    .filter((x) => x.figures > 0);
  let leftTown: readonly LeftTown[] = [];
  let advanced = false;
  if (o.winner === 'attacker') {
    const p = pushOut(town, a.target, (1 - a.side) as Side, a.face, choices.prefer);
    town = p.town;
    leftTown = p.leftTown;
    if (choices.advance && survivors.length) {
      if (a.from !== 'outside') {
        for (const s of survivors)
          town = blockMove(town, { unit: s.unit, from: a.from, to: a.target, figures: s.figures });
        advanced = true;
      } else if (survivors.length === 1) {
        const pl = entryPlacement(town, survivors[0]!.unit, a.target, [a.target, ...(choices.touching ?? [])]);
        if (typeof pl !== 'string') {
          town = enter(town, survivors[0]!.unit, pl);
          advanced = true;
        }
      }
    }
  }
  const involved = new Set([...a.attackers.map((x) => x.unit), ...defendersOf(t, a).map((x) => x.unit)]);
  const retreats = t.units
    .filter((u) => involved.has(u.id) && figuresInTown(u) > 0)
    .map((u) => unitOf(town, u.id))
    .filter((u) => u.figures > 0 && mustLeaveTown(figuresOutside(u), u.figures))
    .map((u) => u.id);
  for (const id of retreats) town = withUnit(town, { ...unitOf(town, id), inBlocks: {} });
  return { winner: o.winner, town, losses: Object.fromEntries(losses), leftTown, retreats, advanced };
}

/** [p.19] the exact distribution of a block fight's results, the winner's choices fixed. */
export function blockAttackDist(t: Town, a: BlockAttack, choices: BlockFightChoices = {}): Dist<BlockFightResult>[] {
  const out = new Map<string, { value: BlockFightResult; p: number }>();
  for (const d of blockAttackFight(t, a).dist) {
    const r = applyBlockFight(t, a, d.value, choices);
    const k = JSON.stringify([r.winner, r.losses, r.town.units, r.leftTown, r.retreats]);
    const e = out.get(k);
    if (e) e.p += d.p;
    else out.set(k, { value: r, p: d.p });
  }
  return [...out.values()];
}

/** A-73: block fights after the ordinary close actions, side A's first (otherwise in the order declared). */
export function orderBlockFights<T extends { readonly side: Side }>(attacks: readonly T[], sideA: Side): T[] {
  return [...attacks.filter((a) => a.side === sideA), ...attacks.filter((a) => a.side !== sideA)];
}

/** A block firing out in step 9 (A-74). */
export interface FireOut {
  readonly side: Side;
  readonly block: string;
  /** Distance to the target, inches. */
  readonly range: number;
  /** The target is in buildings (figures fire out only at troops outside buildings [p.19]). */
  readonly targetInBuildings: boolean;
}

/** Why a block may not fire out [p.19] (A-74), or undefined. `firedThisPeriod`: blocks that already did. */
export function fireOutProblem(t: Town, f: FireOut, firedThisPeriod: readonly string[] = []): string | undefined {
  const n = figuresIn(t, f.block, f.side);
  if (n < BUILDINGS.fireOutMinFigures)
    return `a block fires out with eight or more figures (${n} in ${f.block}) [p.19]`;
  if (f.targetInBuildings) return 'figures in buildings fire out at troops not in buildings [p.19]';
  if (f.range > BUILDINGS.fireOutRange) return `the target must be within ${BUILDINGS.fireOutRange}" [p.19]`;
  if (firedThisPeriod.includes(f.block)) return `block ${f.block} has fired out this period (A-74)`;
  return undefined;
}

/** [p.19] the casualties of one block's fire out: a six on one D6 inflicts two (`close.blockFireOut`). */
export function fireOutDist(t: Town, f: FireOut, firedThisPeriod: readonly string[] = []): Dist<number>[] {
  const p = fireOutProblem(t, f, firedThisPeriod);
  if (p) throw new RangeError(p);
  return blockFireOut(figuresIn(t, f.block, f.side), f.range)!;
}

/**
 * [p.19] step 9's declarations (R10): each attack valid, at most 6 figures over all attacks on one side of a block,
 * no figure fighting twice, a block that fires out not attacking, each block firing out once.
 */
export function stepNineProblem(
  t: Town,
  attacks: readonly BlockAttack[],
  fireOuts: readonly FireOut[] = [],
): string | undefined {
  const perFace = new Map<string, number>();
  const used = new Map<string, number>();
  for (const a of attacks) {
    const p = blockAttackProblem(t, a);
    if (p) return p;
    const k = `${a.target}:${a.face}`;
    perFace.set(k, (perFace.get(k) ?? 0) + attackFigures(a));
    if (perFace.get(k)! > BUILDINGS.maxAttackersPerSide)
      return `no more than ${BUILDINGS.maxAttackersPerSide} figures total may attack side ${a.face} of ${a.target} [p.19]`;
    for (const x of a.attackers) {
      const key = `${x.unit}@${a.from}`;
      used.set(key, (used.get(key) ?? 0) + x.figures);
      const u = unitOf(t, x.unit);
      const have = a.from === 'outside' ? u.figures : (u.inBlocks[a.from] ?? 0);
      if (used.get(key)! > have) return `${x.unit}'s figures would fight twice (R10)`;
    }
  }
  const fired = new Set<string>();
  for (const f of fireOuts) {
    const p = fireOutProblem(t, f);
    if (p) return p;
    if (fired.has(f.block)) return `block ${f.block} fires out once (A-74)`;
    fired.add(f.block);
    if (attacks.some((a) => a.from === f.block && a.side === f.side))
      return `block ${f.block} either attacks or fires out [p.19] (A-74)`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------------
// Fires (optional) [p.20] (A-75)
// ---------------------------------------------------------------------------------------------------------------------

/** [p.20] D20 faces (of 20) that start a fire from `source` (brick or stone −1 to the roll). */
function startFaces(source: FireSource, brickOrStone: boolean): number {
  let n = 0;
  for (let d = 1; d <= 20; d++) {
    const r = d + (brickOrStone ? FIRES.brickOrStone : 0);
    if (r >= FIRE_START[source].min && r <= FIRE_START[source].max) n++;
  }
  return n;
}

/** [p.20] start rolls of a block's figures trying to start a fire: one per two figures that did not fight. */
export function soldierStartRolls(figures: number, fought: number): number {
  return Math.floor(Math.max(0, figures - fought) / FIRES.figuresPerStartRoll);
}

/**
 * [p.20] the fires in a block after `rolls` D20s from `source` (one per howitzer firing at it, or `soldierStartRolls`):
 * one fire starts (or one more is added) if the number is rolled on one or more dice (R11); 4 at most.
 */
export function fireStartDist(fires: number, source: FireSource, rolls: number, brickOrStone: boolean): Dist<number>[] {
  return fireStartDistOf(fires, [{ source, rolls }], brickOrStone);
}

/**
 * [p.20] the fires in a block after several groups of D20s rolled together, each on its own column (sappers 11-20 and
 * other soldiers 20 in one block at the period's end): still one fire at most, if any die of any group makes it (R11).
 */
export function fireStartDistOf(
  fires: number,
  dice: readonly { readonly source: FireSource; readonly rolls: number }[],
  brickOrStone: boolean,
): Dist<number>[] {
  let den = 1;
  let missCount = 1;
  for (const d of dice) {
    den *= 20 ** d.rolls;
    missCount *= (20 - startFaces(d.source, brickOrStone)) ** d.rolls;
  }
  const after = Math.min(FIRES.maxPerBlock, fires + 1);
  if (after === fires || missCount === den) return [{ value: fires, p: 1 }];
  return [
    { value: fires, p: missCount / den },
    { value: after, p: (den - missCount) / den },
  ].filter((x) => x.p > 0);
}

/**
 * [p.20] extinguishing at the end of the period: one D20 per four figures that did nothing else this period, sappers
 * succeeding on 16-20, all others on 20; each success removes one fire (digest 6.11.5). Exact binomial.
 */
export function extinguishDist(fires: number, figures: number, sappers: boolean): Dist<number>[] {
  return sappers ? extinguishCrewsDist(fires, figures, 0) : extinguishCrewsDist(fires, 0, figures);
}

/**
 * [p.20] extinguishing by sappers and other figures together on one burning block: the sappers' figures roll one D20
 * per four on 16-20, the others' one D20 per four on 20 (each pool counted apart); every success removes one fire.
 */
export function extinguishCrewsDist(fires: number, sapperFigures: number, otherFigures: number): Dist<number>[] {
  const pools = [
    { rolls: Math.floor(sapperFigures / FIRES.figuresPerExtinguishRoll), band: FIRES.extinguish.sappers },
    { rolls: Math.floor(otherFigures / FIRES.figuresPerExtinguishRoll), band: FIRES.extinguish.others },
  ];
  // the successes' counts over 20^dice, pool by pool (exact binomials, convolved)
  let den = 1;
  let succ = new Map<number, number>([[0, 1]]);
  for (const { rolls, band } of pools) {
    if (rolls === 0) continue;
    const hit = band.max - band.min + 1;
    den *= 20 ** rolls;
    const next = new Map<number, number>();
    let c = 1; // C(rolls, k)
    for (let k = 0; k <= rolls; k++) {
      if (k > 0) c = (c * (rolls - k + 1)) / k;
      const nk = c * hit ** k * (20 - hit) ** (rolls - k);
      for (const [j, n] of succ) next.set(j + k, (next.get(j + k) ?? 0) + n * nk);
    }
    succ = next;
  }
  const out = new Map<number, number>();
  for (const [k, n] of succ) {
    const v = Math.max(0, fires - k);
    out.set(v, (out.get(v) ?? 0) + n);
  }
  return [...out].map(([value, n]) => ({ value, p: n / den })).filter((x) => x.p > 0);
}

/** [p.20] a burning block's end-of-period D20: 14-18 one more fire, 19-20 one more and it spreads downwind (R11). */
export function fireGrowthDist(fires: number): Dist<{ readonly fires: number; readonly spreads: boolean }>[] {
  if (fires <= 0) return [{ value: { fires: 0, spreads: false }, p: 1 }];
  const up = Math.min(FIRES.maxPerBlock, fires + 1);
  const a = FIRES.accumulate;
  const s = FIRES.accumulateAndSpread;
  const na = a.max - a.min + 1;
  const ns = s.max - s.min + 1;
  const items = [
    { value: { fires, spreads: false }, p: 20 - na - ns },
    { value: { fires: up, spreads: false }, p: na },
    { value: { fires: up, spreads: true }, p: ns },
  ]; // faces of 20
  const out = new Map<string, { value: { fires: number; spreads: boolean }; p: number }>();
  for (const it of items) {
    const k = `${it.value.fires}|${it.value.spreads}`;
    const e = out.get(k);
    if (e) e.p += it.p;
    else out.set(k, { ...it });
  }
  return [...out.values()].map((x) => ({ value: x.value, p: x.p / 20 }));
}

/** [p.20] the block downwind of `id` (A-75: the wind blows from `windFrom`), if any. */
export function downwindBlock(t: Town, id: string, windFrom: Compass): BlockState | undefined {
  return blockAcross(t, id, OPPOSITE[windFrom]);
}

/** [p.20] a spread adds one fire to the downwind block (4 at most). */
export function spreadFire(t: Town, id: string, windFrom: Compass): Town {
  const d = downwindBlock(t, id, windFrom);
  if (!d) return t;
  return {
    ...t,
    blocks: t.blocks.map((b) => (b.id === d.id ? { ...b, fires: Math.min(FIRES.maxPerBlock, b.fires + 1) } : b)),
  };
}
