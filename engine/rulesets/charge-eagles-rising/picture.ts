/**
 * Charge! Eagles Rising as a drawing (`Game.picture`, engine/core/picture.ts): the table in inches with its terrain
 * [Terrain] (woods dense and light, orchards, rough and muddy ground, BUAs with their material and grades, steep rises
 * with their contours, roads, streams, fords, bridges, minor and major obstacles); every unit on the table as its real
 * footprint (§3.1, C4; shape.ts) with its front edge, its formation and its markers (§2.6: DISORDER, WORN, SPENT,
 * BLOWN, SUPPRESSED; abandoned guns, C8); a garrison drawn as its BUA (§2.3: it has no footprint of its own); on hover,
 * its fire bands [Ranged Fire] in the front arc (C5: rays at 45° from the front corners; all round for a square or a
 * garrison), its charge reach (T2b: the tactical move, and with double quick), its threat zone (C5: 10" ahead of
 * cavalry, 5" of infantry) and its move; the leaders as point pieces with their command range [Issuing Orders]; the
 * objectives (C14) as marks with their holder, and the entry points of MEs still off the table [Off Board Force
 * Arrival].
 *
 * What a viewer may not see: the written orders (S1, C7) are never drawn, for either side; the orders in force and the
 * messengers on their way (public from the S2 reveal, C2) are. The table itself is open to both.
 */
import type { PicturePiece, PictureReach, PictureTerrain, TablePicture } from '../../core/picture.ts';
import { IN, bbox } from '../../geometry/geometry.ts';
import { Legend, type TableFrame, aheadReach, circleReach, frontArcReach, tableFrame } from '../../tabletop/picture.ts';
import { tacticalMove } from './charges.ts';
import { objectiveHolder } from './victory.ts';
import { frontEdge, polyOf, rectOf, threatReach } from './shape.ts';
import { type S, elementOf, orderOfElement, placed, rangeOf, sideName } from './state.ts';
import { ARTILLERY_RANGES, SMALL_ARMS_RANGES, moveBonus } from './tables.ts';
import type { Formation, UnitState } from './types.ts';

const FORMATION: Readonly<Record<Formation, readonly [string, string]>> = {
  line: ['L', 'line [Movement]'],
  column: ['C', 'attack column [Movement]'],
  marchColumn: ['MC', 'march column (C6: moves at the column rate; the road bonus in S4)'],
  hastySquare: ['HSQ', 'hasty square: four fronts, fires all round [Changing Formation to Square]'],
  solidSquare: ['SQ', 'solid square: four fronts, fires all round [Changing Formation to Square]'],
  skirmish: ['SK', 'Skirmish formation: one loose line 1" deep (C4)'],
  garrison: ['GAR', 'garrison: the unit is its BUA, faces and fires all round (§2.3)'],
  unlimbered: ['UNL', 'unlimbered: may fire [Ranged Fire]'],
  limbered: ['LIM', 'limbered: moves, cannot fire [Movement]'],
};

const ORDER_WORDS = { attack: 'Attack', hold: 'Hold', advance: 'Advance', reserve: 'Reserve', withdraw: 'Withdraw' };

function kindText(u: UnitState): string {
  if (u.kind === 'infantry')
    return `${u.class} infantry${u.light ? ' (light)' : ''}, ${u.ranks} ranks, ${u.weapon}s${u.sappers ? ', sappers' : ''}`;
  if (u.kind === 'cavalry') return `${u.class} ${u.weight} cavalry${u.lancers ? ' (lancers)' : ''}`;
  return `${u.class} ${u.mobility} artillery (${u.gunType}, crew class ${u.crewClass})`;
}

/** Fire, charge, threat zone and move reaches of a unit on the table. */
function reachesOf(s: S, u: UnitState, f: TableFrame): PictureReach[] {
  const p = placed(s, u);
  const r = rectOf(p);
  const out: PictureReach[] = [];
  const allRound =
    u.kind === 'infantry' &&
    (u.formation === 'hastySquare' || u.formation === 'solidSquare' || u.formation === 'garrison');
  // a square's or a garrison's reach is measured from its body, every way: from its centre, half its size out
  const half = p.body
    ? (() => {
        const b = bbox(p.body);
        return Math.max(b.maxX - b.minX, b.maxY - b.minY) / 2;
      })()
    : Math.max(r.w, r.d) / 2;
  const round = (inches: number, label: string) =>
    circleReach(f, half + inches * IN, label, p.body ? centreOfBody(p.body) : undefined);
  // [Ranged Fire] the bands, in the front arc (C5) or all round
  const bands = ['close', 'effective', 'long'];
  if (u.kind === 'artillery' && u.formation === 'unlimbered' && !u.abandoned) {
    const row = ARTILLERY_RANGES.find((x) => x.gun === u.gunType)!;
    row.limits.forEach((lim, i) =>
      out.push(frontArcReach(f, r, lim * IN, `${row.label} ${bands[i]} range, to ${lim}" [Ranged Fire]`)),
    );
  }
  if (u.kind === 'infantry') {
    const row = SMALL_ARMS_RANGES.find((x) => x.weapon === u.weapon)!;
    row.limits.forEach((lim, i) => {
      const label = `${row.label} ${bands[i + 1]} range, to ${lim}" [Ranged Fire]`;
      out.push(allRound ? round(lim, label) : frontArcReach(f, r, lim * IN, label));
    });
  }
  // [T2b] the charge reach: the tactical move, and with double quick (C8); the target partly in the front arc
  const move = tacticalMove(u);
  if (move !== null && u.kind !== 'artillery' && !allRound && u.formation !== 'marchColumn') {
    out.push(frontArcReach(f, r, move * IN, `charge reach ${move}" [T2b]`));
    const dq = moveBonus('doubleQuick', u.kind === 'cavalry', 'tactical');
    if (dq) out.push(frontArcReach(f, r, (move + dq) * IN, `charge reach at the double quick ${move + dq}" [T2b, C6]`));
  }
  // C5 the threat zone: ahead of the front edge, 10" cavalry, 5" infantry; a square's all round
  const tz = threatReach(u.kind);
  if (tz && u.formation !== 'garrison') {
    const label = `threat zone ${tz / IN}" (C5)`;
    out.push(allRound ? round(tz / IN, label) : aheadReach(f, r, tz, label, 90));
  }
  // [Movement] a full tactical move
  if (move !== null && !allRound) out.push(aheadReach(f, r, move * IN, `tactical move ${move}" [Movement]`, 45));
  return out;
}

function centreOfBody(poly: readonly { x: number; y: number }[]) {
  return {
    x: poly.reduce((a, q) => a + q.x, 0) / poly.length,
    y: poly.reduce((a, q) => a + q.y, 0) / poly.length,
  };
}

function unitPiece(s: S, u: UnitState, lg: Legend, f: TableFrame): PicturePiece {
  const p = placed(s, u);
  const m: string[] = [];
  const [fc, ft] = FORMATION[u.formation];
  m.push(lg.use(fc, ft));
  // §2.6 markers (C11 for WORN/SPENT and BLOWN)
  if (u.disordered) m.push(lg.use('DISORDER', 'DISORDER marker [Markers]'));
  if (u.spent) m.push(lg.use('SPENT', 'SPENT: half or more lost (C11), replaces WORN [Markers]'));
  else if (u.worn) m.push(lg.use('WORN', 'WORN: a third or more lost (C11) [Markers]'));
  if (u.kind === 'cavalry' && u.blown) m.push(lg.use('BLOWN', 'BLOWN cavalry: moves at its blown rate [Markers]'));
  if (u.kind === 'artillery' && u.suppressed)
    m.push(lg.use('SUPPRESSED', 'SUPPRESSED by skirmish fire [Markers, Skirmish Combat]'));
  if (u.kind === 'artillery' && u.abandoned)
    m.push(
      lg.use(
        'ABANDONED',
        'guns abandoned by their crew: re-manned at the next activation if no enemy is within 1" (C8)',
      ),
    );
  if (u.attachedLeader) m.push(lg.use('LDR', 'a leader attached [T1]'));
  if (u.phase.moved) m.push(lg.use('MOVED', 'moved this tactical phase'));
  if (u.phase.fired) m.push(lg.use('FIRED', 'fired this tactical phase'));
  if (u.phase.charging) m.push(lg.use('CHG', 'charging this phase [T2b]'));
  const [now, start] = u.kind === 'artillery' ? [u.guns, u.gunsStart] : [u.figures, u.figuresStart];
  if (now < start) {
    const lost = start - now;
    const what = u.kind === 'artillery' ? 'gun' : 'figure';
    m.push(lg.use(`-${lost}`, `${lost} ${what}${lost === 1 ? '' : 's'} lost (KIA, C3)`));
  }
  const e = elementOf(s, u.element);
  const ord = orderOfElement(s, e);
  const where = u.kind === 'infantry' && u.formation === 'garrison' ? `garrisoning ${u.garrison}` : u.formation;
  const title =
    `${u.name} (${u.id}), ${sideName(s, u.side)}, ${e.name}: ${kindText(u)}, ${where}, ` +
    `${u.kind === 'artillery' ? `${u.guns}/${u.gunsStart} guns` : `${u.figures}/${u.figuresStart} figures`}, facing ${u.facing}°` +
    `${ord ? `; ME order ${ORDER_WORDS[ord.type]}` : ''}${e.committed ? ', committed' : ''}`;
  const base = { id: u.id, side: u.side, label: u.id, markers: m, title, reach: reachesOf(s, u, f) };
  if (p.body) return { ...base, points: f.poly(p.body) };
  const [fl, fr] = frontEdge(p);
  return { ...base, points: f.poly(polyOf(p)), front: [f.pt(fl), f.pt(fr)], facing: f.rect(rectOf(p)).facing };
}

function terrainOf(s: S, f: TableFrame, lg: Legend): PictureTerrain[] {
  const out: PictureTerrain[] = [];
  for (const a of s.ctx.terrain.areas) {
    const points = f.poly(a.polygon);
    switch (a.kind) {
      case 'denseWoods':
        out.push({
          kind: lg.use('woods dense', 'dense woods: cover (medium), sight 1" in [Terrain] (C5)'),
          points,
          label: a.id,
        });
        break;
      case 'lightWoods':
        out.push({
          kind: lg.use('woods light', 'light woods: cover (light), sight 2" in [Terrain] (C5)'),
          points,
          label: a.id,
        });
        break;
      case 'orchard':
        out.push({
          kind: lg.use('orchard', 'orchard: cover (light), sight 4" in [Terrain] (C5)'),
          points,
          label: a.id,
        });
        break;
      case 'rough':
        out.push({
          kind: lg.use('rough', 'rough ground: extra move cost and disorder tests [Terrain] (C6)'),
          points,
          label: a.id,
        });
        break;
      case 'muddy':
        out.push({
          kind: lg.use('mud', 'muddy ground: extra move cost and disorder tests [Terrain] (C6)'),
          points,
          label: a.id,
        });
        break;
      case 'bua': {
        const b = s.ctx.buas.find((x) => x.id === a.id);
        out.push({
          kind: lg.use('bua', 'built-up area (BUA): garrisoned by infantry, cover, disorders formed troops [Terrain]'),
          points,
          label: b ? `${b.name} (${b.material}, ${b.cover} cover, ${b.garrison} garrison)` : a.id,
        });
        break;
      }
      case 'steepRise': {
        const r = s.ctx.rises.find((x) => x.id === a.id);
        out.push({
          kind: lg.use('steep rise', 'steep rise: −2" a contour crossed, a skill test or disordered [Terrain]'),
          points,
          label: `${a.id}${r ? ` (${r.contours} contour${r.contours === 1 ? '' : 's'})` : ''}`,
        });
        break;
      }
      case 'ford':
        out.push({ kind: lg.use('ford', 'ford: where a stream may be crossed [Terrain]'), points, label: a.id });
        break;
      case 'bridge':
        out.push({ kind: lg.use('bridge', 'bridge over a stream [Terrain]'), points, label: a.id });
        break;
      default:
        out.push({ kind: lg.use(a.kind, `${a.kind} [Terrain]`), points, label: a.id });
    }
  }
  for (const l of s.ctx.terrain.lines) {
    const points = f.poly(l.points);
    const code =
      l.kind === 'road'
        ? lg.use('road', 'road: the road bonus in S4 strategic moves (NA tactically) [Movement]')
        : l.kind === 'stream'
          ? lg.use('stream', 'stream: an obstacle, crossed at a cost and a test [Terrain]')
          : l.kind === 'minorObstacle'
            ? lg.use('obstacle minor', 'minor linear obstacle (hedge, fence, low wall) [Terrain]')
            : l.kind === 'majorObstacle'
              ? lg.use('obstacle major', 'major linear obstacle: charging across it disorders [Terrain]')
              : lg.use(l.kind, `${l.kind} [Terrain]`);
    out.push({ kind: code, points, line: true, label: l.id });
  }
  return out;
}

/** The Charge! Eagles Rising picture of `s` (the table is open to both sides; written orders are never drawn). */
export function cerPicture(s: S, _viewer?: number): TablePicture {
  const f = tableFrame(s.ctx.height);
  const lg = new Legend();
  const terrain = terrainOf(s, f, lg);
  const pieces: PicturePiece[] = [];
  for (const u of s.units) if (u.status === 'active') pieces.push(unitPiece(s, u, lg, f));
  for (const l of s.leaders) {
    if (l.offBoard || l.status === 'kia' || l.status === 'incapacitated' || l.status === 'captured') continue;
    const at = l.attachedTo ? s.units.find((u) => u.id === l.attachedTo && u.status === 'active') : undefined;
    const m: string[] = [];
    if (l.attachedTo) m.push(lg.use('AT', 'attached to a unit [T1]'));
    if (l.status === 'knockedOut')
      m.push(lg.use('KO', 'knocked out for 1 turn: no bonuses, command or range [Leader Casualties]'));
    const role =
      l.role === 'army' ? 'commanding general' : `${l.role === 'formation' ? 'MF' : 'ME'} leader of ${l.commands}`;
    const range = rangeOf(l) / IN;
    pieces.push({
      id: l.id,
      side: l.side,
      label: lg.use(
        `L-${l.role}`,
        `${l.role === 'army' ? 'the army CC' : l.role === 'formation' ? 'an MF leader' : 'an ME leader'} [Issuing Orders]`,
      ),
      points: [f.pt(at ? at.pos : l.pos)],
      markers: m,
      title: `${l.name} (${l.id}), ${sideName(s, l.side)}'s ${role}: ${l.command}, ${l.inspiration}${l.attachedTo ? `, with ${l.attachedTo}` : ''}${l.status === 'knockedOut' ? ', knocked out' : ''}; command range ${range}"`,
      reach: l.status === 'active' ? [circleReach(f, rangeOf(l), `command range ${range}" [Issuing Orders]`)] : [],
    });
  }
  const marks: { at: readonly [number, number]; label: string; side?: number }[] = s.ctx.objectives.map((o) => {
    const h = objectiveHolder(s, o);
    return {
      at: f.pt(o.point),
      label: lg.use(`obj ${o.id}`, `objective ${o.name}: ${o.vp} VP held at the end (C14)`),
      ...(h !== null ? { side: h } : {}),
    };
  });
  for (const e of s.elements)
    if (e.offBoard && !e.broken)
      marks.push({
        at: f.pt(e.offBoard.entry),
        label: lg.use(
          `entry ${e.id}`,
          `${e.name} enters here from turn ${e.offBoard.earliestTurn} on its arrival roll [Off Board Force Arrival]`,
        ),
        side: e.side,
      });
  return {
    kind: 'table',
    width: s.ctx.width / IN,
    height: s.ctx.height / IN,
    terrain,
    pieces,
    marks,
    legend: lg.entries(),
  };
}
