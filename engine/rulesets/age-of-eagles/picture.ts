/**
 * Age of Eagles as a drawing (`Game.picture`, engine/core/picture.ts): the table in inches with its terrain (BUA
 * blocks, woods, rough, hills, hedges, walls, streams with their fords, roads), every unit on the table as its A3
 * footprint with its front edge and markers, its fire ranges [Fire Points at Range] in the 45° front arc (all round for
 * a square or a BUA occupant) and its full move [Movement], the leaders as point pieces with their 12" reach
 * [Tactical Movement Modifiers], the objectives as marks with their holder (A12). Perfect information: every viewer
 * sees the same picture.
 */
import type { PicturePiece, TablePicture } from '../../core/picture.ts';
import {
  Legend,
  type TableFrame,
  circleReach,
  frontArcReach,
  pictureTerrain,
  tableFrame,
} from '../../tabletop/picture.ts';
import { LEADER_REACH, footprint } from './shape.ts';
import { IN } from './state.ts';
import { DISTANCES, RANGE_BANDS, infantryMoverKind, movementRate } from './tables.ts';
import type { AoeState, Unit } from './types.ts';

const TERRAIN_TEXT: Record<string, string> = {
  bua: 'BUA block, 3" square: holds one unit, hard cover, blocks sight [Built Up Areas]',
  woods: 'woods: rough (infantry ½ speed, cavalry and guns ⅓), cover 1, blocks sight beyond 1" in (A4, A11)',
  rough: 'rough ground: slows movement as woods, no cover (A11)',
  hill: 'hill: blocks sight across it unless an end is on it (A4)',
  hedge: 'hedge: cover 1 within 1" behind it',
  wall: 'wall: cover 2 within 1" behind it',
  stream: 'stream: impassable but at fords and bridges (A4)',
  ford: 'ford: crossing costs 2" (infantry, cavalry) or 3" (artillery, leaders) [Movement]',
  road: 'road: faster road rates along it [Movement]',
};

const INF_FORM: Record<string, [string, string]> = {
  Line: ['L', 'line (A3)'],
  FieldColumn: ['FC', 'field column (A3)'],
  Masse: ['MA', 'masse (A3)'],
  MarchColumn: ['MC', 'march column (A3)'],
  OpenOrder: ['OO', 'open order: six stands with gaps (A3)'],
  Square: ['SQ', 'square: four fronts, no flank or rear [Forming Square]'],
};

/** The unit's full move on the movement table, inches (null: it cannot move as it stands). */
function fullMove(u: Unit): number | null {
  if (u.k === 'cav') return movementRate('cavalry').basic;
  if (u.k === 'bat') return movementRate(u.mob === 'Horse' ? 'horseArtillery' : 'footArtillery').basic;
  const k = infantryMoverKind(u.f);
  return k ? movementRate(k).basic : null;
}

function kindText(u: Unit): string {
  if (u.k === 'inf') return `${u.cls} ${u.light ? 'light ' : ''}infantry (${u.ranks} ranks, ${u.mm})`;
  if (u.k === 'cav') return `${u.cls} ${u.wt} cavalry${u.lancers ? ' (lancers)' : ''}`;
  return `${u.guns}-gun ${u.cal} ${u.mob} battery`;
}

function unitPiece(s: AoeState, u: Unit, lg: Legend, f: TableFrame): PicturePiece {
  const r = footprint(u);
  const m: string[] = [];
  if (u.bua) m.push(lg.use('BUA', 'in a BUA block: four fronts [Built Up Areas]'));
  else if (u.k === 'bat')
    m.push(
      u.limbered ? lg.use('LIM', 'limbered: moves, cannot fire') : lg.use('UNL', 'unlimbered: may fire, prolongs 1"'),
    );
  else if (u.k === 'inf') m.push(lg.use(...INF_FORM[u.f]!));
  else m.push(lg.use(...INF_FORM[u.f]!));
  if (u.dis)
    m.push(
      u.k === 'bat' ? lg.use('SIL', 'silenced battery [Volley & Cannonade]') : lg.use('D', 'disordered [March Table]'),
    );
  if (u.k === 'bat' && u.damaged) m.push(lg.use('DMG', 'a damaged gun stand: a second damage wrecks it (A8)'));
  if (u.hits) m.push(lg.use(`H${u.hits}`, `${u.hits} hit${u.hits === 1 ? '' : 's'}: removed at 5 [Hits]`));
  if (u.changed) m.push(lg.use('CHG', 'changed formation or facing this player turn: fire +1 against it'));
  if (u.about) m.push(lg.use('AF', 'about-faced this player turn: fire +1 against it'));
  if (u.ordered) m.push(lg.use('O', 'given its order this March phase'));
  if (u.fired) m.push(lg.use('FI', 'fired this Volley & Cannonade phase'));
  if (u.checked) m.push(lg.use('CK', 'charge checked by fire: will not fight this B&S phase'));
  if (u.k === 'cav' && u.cc) m.push(lg.use('CC', 'declared a countercharge (A5)'));
  if (s.combats.some((c) => c.def === u.id || c.atts.some((a) => a.u === u.id)))
    m.push(lg.use('E', 'in contact, to fight at Bayonet & Sabre'));
  const reach = [];
  const allRound = u.bua !== '' || (u.k === 'inf' && u.f === 'Square');
  const arc = (inches: number, label: string) =>
    allRound ? circleReach(f, r.w / 2 + inches * IN, label) : frontArcReach(f, r, inches * IN, label);
  if (u.k === 'inf') {
    // [Fire Points at Range] muskets to 3", skirmish fire ("1 Sk") to 6"; none from a march column (A6)
    if (u.f !== 'OpenOrder') reach.push(arc(DISTANCES.musketRange, `musket fire to ${DISTANCES.musketRange}"`));
    if (u.f !== 'MarchColumn') reach.push(arc(DISTANCES.skirmishRange, `skirmish fire to ${DISTANCES.skirmishRange}"`));
  }
  if (u.k === 'bat' && !u.limbered)
    for (const b of RANGE_BANDS) reach.push(arc(b, `cannon fire, range column to ${b}" [Fire Points at Range]`));
  const mv = fullMove(u);
  if (mv && !u.bua) reach.push(circleReach(f, mv * IN, `full move ${mv}" [Movement]`));
  const form = u.k === 'bat' ? (u.limbered ? 'limbered' : 'unlimbered') : u.bua ? `in ${u.bua}` : u.f;
  return {
    id: u.id,
    side: u.side,
    label: u.id,
    ...f.rect(r),
    markers: m,
    title:
      `${u.id} (${s.sides[u.side].name}, division ${u.div}): ${kindText(u)}, ${form}, facing ${u.h}°` +
      `${u.hits ? `, ${u.hits} hits` : ''}${u.dis ? (u.k === 'bat' ? ', silenced' : ', disordered') : ''}`,
    reach,
  };
}

/** The Age of Eagles picture of `s` (the same for every viewer: nothing is hidden). */
export function agePicture(s: AoeState, _viewer?: number): TablePicture {
  const f = tableFrame(s.ctx.height);
  const lg = new Legend();
  const terrain = [
    ...pictureTerrain(f, s.ctx.terrain, (k) => lg.use(k, TERRAIN_TEXT[k] ?? k)),
    ...s.ctx.roads.map((r, i) => ({
      kind: lg.use('road', TERRAIN_TEXT.road!),
      points: f.poly(r),
      line: true,
      label: `road ${i + 1}`,
    })),
  ];
  const pieces: PicturePiece[] = [];
  for (const u of s.units) if (u.gone === '') pieces.push(unitPiece(s, u, lg, f));
  for (const l of s.leaders) {
    if (l.captured) continue;
    const with_ = l.att ? s.units.find((u) => u.id === l.att && u.gone === '') : undefined;
    const m: string[] = [];
    if (l.charismatic) m.push(lg.use('CHA', 'charismatic leader [Tactical Movement Modifiers]'));
    if (l.att) m.push(lg.use('AT', 'attached to a unit'));
    if (l.moved) m.push(lg.use('MV', 'moved this March phase'));
    pieces.push({
      id: l.id,
      side: l.side,
      label: l.army
        ? lg.use('AL', 'army leader: commands every unit')
        : lg.use('DL', "division leader: commands his division's units"),
      points: [f.pt(with_ ?? l)],
      markers: m,
      title: `${l.id}, ${l.army ? 'army leader' : `leader of division ${l.div}`} (${s.sides[l.side].name})${l.att ? `, with ${l.att}` : ''}`,
      reach: [circleReach(f, LEADER_REACH, `within ${LEADER_REACH / IN}" of a unit: its March modifier (A10)`)],
    });
  }
  const marks = s.ctx.objectives.map((o, i) => {
    const held = s.held[i] ?? -1;
    return {
      at: f.pt(o),
      label: lg.use(
        `obj ${o.id}`,
        `objective ${o.id}${o.bua ? ` (BUA ${o.bua})` : ''}: held by the last side to hold it (A12)`,
      ),
      ...(held >= 0 ? { side: held } : {}),
    };
  });
  return {
    kind: 'table',
    width: f.len(s.ctx.width),
    height: f.len(s.ctx.height),
    terrain,
    pieces,
    marks,
    legend: lg.entries(),
  };
}
