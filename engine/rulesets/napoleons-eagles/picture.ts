/**
 * Napoleon's Eagles as a drawing (`Game.picture`, engine/core/picture.ts): the table in inches with its terrain (§3.5:
 * roads, rivers, bridges, fords, hills by level with their ridges, woods, mud, fields, walls, hedges, the 4" building
 * blocks [p.19] with their walled sides and fires), smoke [p.20]; every unit on the table as its footprint from
 * `shape.ts` (A-4: a refused line is its L, a unit in the town its block) with its front edge and markers [p.5];
 * its fire bands [p.9] in the 22.5° fire arc [p.8] (all round for a square), a cavalry charge's reach [p.6] and an
 * infantry or cavalry move an action [p.6]; abandoned guns and crews (A-51), caissons [p.11]; the leaders as point
 * pieces with their command radius [p.16]; the objectives (A-79) as marks.
 *
 * What a viewer may not see: the sealed bids [p.5] and written orders [p.17] are not drawn; the optional visibility
 * rule is not built, so the table itself is open to both sides.
 */
import type { PicturePiece, PictureTerrain, TablePicture } from '../../core/picture.ts';
import type { Polygon, Vec } from '../../geometry/geometry.ts';
import { Legend, type TableFrame, aheadReach, circleReach, frontArcReach, tableFrame } from '../../tabletop/picture.ts';
import { IN } from './board.ts';
import type { UnitSpec } from './scenario.ts';
import { footprint, frontEdge, rectOf } from './shape.ts';
import {
  CAVALRY_CHARGE,
  CAVALRY_MOVE,
  CHARGE,
  FIRING,
  INFANTRY_MOVE,
  OUT_OF_CONTROL_CHARGE,
  RANGE_BANDS,
  RANGE_LIMITS,
  type Weapon,
  parseRating,
} from './tables.ts';
import { type SeqState, type SeqUnit, internals } from './turn.ts';

const { specOf, tableUnit, objectiveArea } = internals;

const FORMATION: Record<string, [string, string]> = {
  line: ['L', 'line [p.7]'],
  column: ['C', 'column of divisions [p.7]'],
  roadColumn: ['RC', 'road column [p.7]'],
  square: ['S', 'square: faces and fires all round [p.14]'],
  echelon: ['E', 'echelon (cavalry) [p.7]'],
  skirmish: ['SK', 'skirmish order: a screen 2" a figure, 1/2" deep [p.18-19]'],
  limbered: ['LIM', 'limbered: moves, cannot fire [p.7]'],
  unlimbered: ['UNL', 'unlimbered: may fire [p.7]'],
};

const FATIGUE = ['', 'fatigued', 'tired', 'exhausted'] as const;
const AMMO = ['', 'low', 'very low', 'out'] as const;

/** The small arm or guns a unit fires with, as turn.ts reads it (infantry musket or rifle, carbines by option). */
function weaponOf(s: SeqState, spec: UnitSpec): Weapon | null {
  if (spec.kind === 'infantry') return spec.weapon ?? (parseRating(spec.rating).fire === 'R' ? 'rifle' : 'musket');
  if (spec.kind === 'cavalry') return spec.carbines && s.sc.options.carbines ? 'carbine' : null;
  return spec.calibre;
}

function kindText(spec: UnitSpec): string {
  // [p.20] sappers, incendiary shells, A-75 rockets (the optional fires)
  if (spec.kind === 'infantry') return `${spec.troopClass} infantry${spec.sappers ? ' (sappers)' : ''}`;
  if (spec.kind === 'cavalry') return `${spec.weight} cavalry`;
  if (spec.rockets) return `${spec.calibre} ${spec.arm} rocket battery (${spec.cannons} launchers)`;
  return `${spec.calibre} ${spec.arm} battery (${spec.cannons} cannons${spec.howitzers ? `, ${spec.howitzers} howitzers${spec.incendiary ? ' with incendiary shells' : ''}` : ''})`;
}

function unitPiece(s: SeqState, u: SeqUnit, lg: Legend, f: TableFrame): PicturePiece {
  const spec = specOf(s, u.id);
  const body = tableUnit(s, u);
  const r = rectOf(body);
  const [fl, fr] = frontEdge(body);
  const m: string[] = [];
  const [fc, ft] = FORMATION[u.formation]!;
  m.push(lg.use(fc, ft));
  if (u.massed) m.push(lg.use('MS', 'massed guns, two stands deep [p.10]'));
  if (u.refused) m.push(lg.use('RF', 'line with a refused flank [p.7]'));
  if (u.supported) m.push(lg.use('SL', 'supported line, two rows [p.24]'));
  if (u.disordered) m.push(lg.use('D', 'disordered: one full action to reform [p.6]'));
  if (u.retreating) m.push(lg.use(`R${u.recovery}`, `retreat status, ${u.recovery} recovery action(s) owed [p.12]`));
  if (u.marked) m.push(lg.use('MC', 'marked for a morale check at step 10 [p.11]'));
  if (u.fatigue) m.push(lg.use(`FT${u.fatigue}`, `fatigue: ${FATIGUE[u.fatigue]} [p.5]`));
  if (u.ooc) m.push(lg.use('OC', 'out of command this period [p.16]'));
  if (u.outOfControl) m.push(lg.use('OX', 'cavalry out of control: charges at the next step 2b [p.15]'));
  if (u.locked) m.push(lg.use('CA', 'in contact, awaiting its close action [p.13]'));
  if (u.stand) m.push(lg.use('ST', 'stand marker: one action kept for defence [p.5]'));
  if (u.activated) m.push(lg.use('MV', 'moved: activated this period [p.5]'));
  if (u.riddenDown) m.push(lg.use('RD', 'ridden down by cavalry [p.12]'));
  if (Object.keys(u.inBlocks).length) m.push(lg.use('B', 'in the building blocks [p.19]'));
  if (spec.kind === 'artillery') {
    if (u.ammo) m.push(lg.use(`AM${u.ammo}`, `ammunition ${AMMO[u.ammo]} [p.11]`));
    if (u.hits) m.push(lg.use(`H${u.hits}`, `${u.hits} crew hit(s) [p.10]`));
  } else if (u.figures < u.originalFigures) {
    const lost = u.originalFigures - u.figures;
    m.push(lg.use(`-${lost}`, `${lost} figure${lost === 1 ? '' : 's'} lost (casualty markers) [p.5]`));
  }
  const reach = [];
  const weapon = u.formation === 'limbered' ? null : weaponOf(s, spec);
  if (weapon) {
    const limits = RANGE_LIMITS[weapon];
    limits.forEach((lim, i) => {
      if (lim === null) return;
      const label = `${weapon} ${RANGE_BANDS[i]} range, to ${lim}"`;
      reach.push(
        u.formation === 'square' || body.inBlock
          ? circleReach(f, r.w / 2 + lim * IN, label)
          : frontArcReach(f, r, lim * IN, label, FIRING.arcDeg),
      );
    });
  }
  if (spec.kind === 'cavalry') {
    const d = u.outOfControl ? OUT_OF_CONTROL_CHARGE : CAVALRY_CHARGE[spec.weight];
    reach.push(aheadReach(f, r, d * IN, `charge up to ${d}" (one action) [p.6]`, CHARGE.chargeAngleDeg));
  }
  const moveRating = parseRating(spec.rating).move;
  const rates =
    spec.kind === 'infantry' ? INFANTRY_MOVE[moveRating] : spec.kind === 'cavalry' ? CAVALRY_MOVE[moveRating] : null;
  const rate =
    rates && (u.formation === 'echelon' ? rates.line : (rates as Record<string, number | null>)[u.formation]);
  if (rate)
    reach.push(aheadReach(f, r, rate * IN, `move ${rate}" an action in ${u.formation} [p.6]`, CHARGE.obliqueMoveDeg));
  const figs = spec.kind === 'artillery' ? `${u.figures} guns` : `${u.figures}/${u.originalFigures} figures`;
  const status = [
    u.disordered ? 'disordered' : '',
    u.retreating ? 'in retreat status' : '',
    u.fatigue ? FATIGUE[u.fatigue] : '',
    u.ooc ? 'out of command' : '',
    spec.kind === 'artillery' && u.ammo ? `ammunition ${AMMO[u.ammo]}` : '',
  ].filter(Boolean);
  return {
    id: u.id,
    side: u.side,
    label: u.id,
    points: f.poly(footprint(body)),
    front: [f.pt(fl), f.pt(fr)],
    facing: f.rect(r).facing,
    markers: m,
    title:
      `${spec.name ? `${spec.name} (${u.id})` : u.id}, ${s.sc.sides[u.side]!.name}: ${kindText(spec)}, ${u.formation}, ` +
      `${figs}, rating ${spec.rating}, facing ${u.facing}°${status.length ? `; ${status.join(', ')}` : ''}`,
    reach,
  };
}

/** A body drawn at a front-centre and facing: a limbered gun for caissons, the battery's bases for abandoned guns. */
function gunBody(
  at: { x: number; y: number; facing: number },
  formation: 'limbered' | 'unlimbered' | 'massed',
  guns: number,
) {
  return { troop: 'artillery' as const, formation, figures: guns, at };
}

function terrainOf(s: SeqState, f: TableFrame, lg: Legend): PictureTerrain[] {
  const H = s.sc.table.height;
  const pt = ([x, y]: readonly [number, number]) => [x, H - y] as const;
  const out: PictureTerrain[] = [];
  const fires = (id: string, dflt: number) => s.blockFires?.[id] ?? dflt;
  for (const t of s.sc.terrain) {
    const label = t.name ? `${t.id} ${t.name}` : t.id;
    switch (t.type) {
      case 'road':
        out.push({
          kind: lg.use('road', 'road: road columns move 10" an action on it [p.6]'),
          points: t.points.map(pt),
          line: true,
          label,
        });
        break;
      case 'river':
        out.push({
          kind: lg.use(
            t.crossable ? 'river' : 'river impassable',
            t.crossable
              ? 'river: crossed in the actions its label gives (some disorder) [p.6]'
              : 'river that cannot be crossed but at a bridge or ford [p.6]',
          ),
          points: t.points.map(pt),
          line: true,
          label: `${label} (${t.width}" wide${t.crossable ? `, ${t.actionsToCross} action(s) to cross${t.disorders ? ', disorders' : ''}` : ', not crossable'})`,
        });
        break;
      case 'bridge':
        out.push({
          kind: lg.use('bridge', 'bridge: 4-12 figures cross an action [p.6]'),
          points: t.polygon.map(pt),
          label: `${label} (${t.capacity} figures an action)`,
        });
        break;
      case 'ford':
        out.push({
          kind: lg.use('ford', 'ford: a crossable stretch of a river [p.6]'),
          points: t.polygon.map(pt),
          label: `${label} (${t.actionsToCross} action(s)${t.disorders ? ', disorders' : ''})`,
        });
        break;
      case 'hill':
        out.push({
          kind: lg.use(`hill ${t.level}`, `hill, level ${t.level}: sight and fire over lower ground [p.8]`),
          points: t.polygon.map(pt),
          label: `${label} (level ${t.level}, ${t.slope} slope)`,
        });
        if (t.ridge)
          out.push({
            kind: lg.use('ridge', "a hill's crest line: it blocks sight [p.8]"),
            points: t.ridge.map(pt),
            line: true,
            label: `${t.id} ridge`,
          });
        break;
      case 'woods':
        out.push({
          kind: lg.use(
            `woods ${t.density}`,
            `${t.density} woods: slow movement, cover, fire inside at most ${t.density === 'dense' ? 2 : 4}" [p.19]`,
          ),
          points: t.polygon.map(pt),
          label,
        });
        break;
      case 'mud':
        out.push({
          kind: lg.use(
            `mud ${t.ground}`,
            `${t.ground === 'softGround' ? 'soft ground' : t.ground}: movement halved [p.6]`,
          ),
          points: t.polygon.map(pt),
          label,
        });
        break;
      case 'fields':
        out.push({
          kind: lg.use('fields', 'cultivated fields: halve the bounce of roundshot [p.10]'),
          points: t.polygon.map(pt),
          label,
        });
        break;
      case 'wall':
        out.push({
          kind: t.redoubt
            ? lg.use('redoubt', 'redoubt: −3 fire, −10 melee against those behind [p.9]')
            : lg.use('wall', 'wall: −3 fire, −10 melee against those behind [p.9]'),
          points: t.points.map(pt),
          line: true,
          label,
        });
        break;
      case 'hedge':
        out.push({
          kind: t.prepared
            ? lg.use('prepared', 'prepared defences: −2 fire, −5 melee against those behind [p.9]')
            : lg.use('hedge', 'hedge: −2 fire, −5 melee against those behind [p.9]'),
          points: t.points.map(pt),
          line: true,
          label,
        });
        break;
      case 'block': {
        const [x, y] = t.sw;
        const sq: [number, number][] = [
          [x, y],
          [x + 4, y],
          [x + 4, y + 4],
          [x, y + 4],
        ];
        const n = fires(t.id, t.fires);
        out.push({
          kind: n
            ? lg.use('block burning', 'building block on fire [p.20]')
            : lg.use('block', 'building block, 4" square: up to 12 figures [p.19]'),
          points: sq.map(pt),
          label: `${label}${t.brickOrStone ? ' (brick or stone)' : ''}${n ? `, ${n} fire${n > 1 ? 's' : ''}` : ''}`,
        });
        const side: Record<string, [[number, number], [number, number]]> = {
          N: [sq[3]!, sq[2]!],
          E: [sq[1]!, sq[2]!],
          S: [sq[0]!, sq[1]!],
          W: [sq[0]!, sq[3]!],
        };
        for (const c of t.wallSides)
          out.push({
            kind: lg.use('walled', "a block's walled or prepared side: +1 to its defender [p.19]"),
            points: side[c]!.map(pt),
            line: true,
            label: `${t.id} ${c} side`,
          });
        break;
      }
    }
  }
  for (const c of s.smoke ?? [])
    out.push({
      kind: lg.use('smoke', 'smoke: blocks sight until the end of the next period [p.20]'),
      points: f.poly(c.poly),
      label: `smoke of ${c.by}`,
    });
  return out;
}

function centroid(p: Polygon): Vec {
  return { x: p.reduce((a, q) => a + q.x, 0) / p.length, y: p.reduce((a, q) => a + q.y, 0) / p.length };
}

/** The Napoleon's Eagles picture of `s` as `viewer` sees it (the table is open to both: bids and orders are not drawn). */
export function napoleonsPicture(s: SeqState, _viewer?: number): TablePicture {
  const f = tableFrame(Math.round(s.sc.table.height * IN));
  const lg = new Legend();
  const terrain = terrainOf(s, f, lg);
  const pieces: PicturePiece[] = [];
  for (const u of s.units) if (u.status === 'active') pieces.push(unitPiece(s, u, lg, f));
  for (const g of s.abandoned ?? []) {
    const spec = specOf(s, g.id);
    const guns = spec.kind === 'artillery' ? spec.cannons + spec.howitzers : 0;
    const body = gunBody(g, g.massed && g.formation === 'unlimbered' ? 'massed' : g.formation, guns);
    pieces.push({
      id: g.id,
      side: -1,
      label: lg.use('guns', 'abandoned guns: no crew; re-manned by their own side, overrun by the enemy [p.10] (A-51)'),
      ...f.rect(rectOf(body)),
      points: f.poly(footprint(body)),
      markers: g.overrunBy ? [lg.use('OV', 'being overrun this period [p.10]')] : [],
      title: `abandoned guns of ${spec.name ?? g.id} (${s.sc.sides[g.side]!.name})${g.overrunBy ? `, overrun by ${g.overrunBy}` : ''}`,
    });
  }
  for (const c of s.artCrews ?? []) {
    pieces.push({
      id: `${c.id}.crew`,
      side: c.side,
      label: lg.use(
        'crew',
        "a battery's crew without its guns: cannot fire; in the open it may be fired at (as open order) and charged (eliminated on contact); it charges an enemy on its guns to retake them [p.10] (A-51)",
      ),
      points: [f.pt(c)],
      facing: f.rect({ x: 0, y: 0, w: 0, d: 0, h: c.facing }).facing,
      markers: [
        ...(c.retreating ? [lg.use('R', 'running to the rear after a lost close action [p.12]')] : []),
        ...(internals.crewInCover(s, c)
          ? [
              lg.use(
                'CV',
                'a crew in cover (within 1" of friendly formed infantry, in woods or buildings): not fired at or charged (A-51)',
              ),
            ]
          : []),
      ],
      title: `crew of ${c.id}: ${c.figures} figures${c.retreating ? ', running to the rear' : ''}, ${internals.crewInCover(s, c) ? 'in cover' : 'in the open'}`,
    });
  }
  for (const c of s.caissons ?? []) {
    if (c.status !== 'active') continue;
    const body = gunBody(c, 'limbered', 1);
    pieces.push({
      id: c.id,
      side: c.side,
      label: lg.use('cais', 'caisson: resupplies one battery out of ammunition; two casualties destroy it [p.11]'),
      ...f.rect(rectOf(body)),
      markers: c.hits ? [lg.use(`H${c.hits}`, `${c.hits} casualt${c.hits === 1 ? 'y' : 'ies'}`)] : [],
      title: `caisson ${c.id} (${s.sc.sides[c.side]!.name})${c.servicing ? `, resupplying ${c.servicing}` : ''}`,
      reach: [circleReach(f, 16 * IN, 'moves 16" [p.11]')],
    });
  }
  for (const l of s.leaders) {
    const spec = s.sc.sides[l.side]!.leaders.find((x) => x.id === l.id)!;
    const at = l.attached ? s.units.find((u) => u.id === l.attached) : undefined;
    const where = at ?? l;
    const m: string[] = [];
    if (l.lost) m.push(lg.use('SO', 'the leader is lost: a staff officer stands in (no bonuses) [p.16]'));
    if (l.attached) m.push(lg.use('AT', 'attached to a unit [p.16]'));
    if (s.initiativePassed.includes(l.id))
      m.push(lg.use('IN', 'passed his initiative roll: in command this period [p.17]'));
    pieces.push({
      id: l.id,
      side: l.side,
      label: lg.use(`L-${spec.rank}`, `${spec.rank === 'grandBattery' ? 'grand battery' : spec.rank} commander [p.16]`),
      points: [f.pt(where)],
      markers: m,
      title:
        `${spec.name ?? l.id} (${l.id}), ${spec.rank === 'grandBattery' ? 'grand battery' : spec.rank} commander of ${s.sc.sides[l.side]!.name}` +
        `${l.lost ? ' — lost, a staff officer stands in' : ''}${l.attached ? `, with ${l.attached}` : ''}; command radius ${spec.radius}"`,
      reach: [circleReach(f, spec.radius * IN, `command radius ${spec.radius}" [p.16]`)],
    });
  }
  const marks = s.sc.victory.objectives.map((o) => {
    const held = s.held[o.id];
    return {
      at: f.pt(centroid(objectiveArea(s, o))),
      label: lg.use(
        `obj ${o.id}`,
        `objective ${o.name ?? o.id}: ${o.vp} VP, held within ${o.within}" (${o.hold === 'present' ? 'only while there' : 'the last side to hold it'}) (A-79)`,
      ),
      ...(held !== undefined && held >= 0 ? { side: held } : {}),
    };
  });
  return {
    kind: 'table',
    width: s.sc.table.width,
    height: s.sc.table.height,
    terrain,
    pieces,
    marks,
    legend: lg.entries(),
  };
}
