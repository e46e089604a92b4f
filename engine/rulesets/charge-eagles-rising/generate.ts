/**
 * Random Charge! Eagles Rising scenario files for the generated-scenario soak (`Game.randomScenario`): tables of
 * 30-48" × 30-48" with the sides on the north and south edges (either way round), 3-6 turns, terrain of every kind of
 * the format in the band between the sides (light and dense woods, orchards, rough ground, mud, steep rises of one or
 * two contours, wooden and stone BUAs of every cover and garrison grade, minor and major linear obstacles, a road, a
 * stream with a bridge on the road and a ford), one or two objectives (a BUA, or a point), and per side a CC and one to
 * three MEs (sometimes two of them in an MF; sometimes one arriving off the table from turn 2) of infantry (every
 * class, ranks, doctrine, musket or rifle, light or not, sappers, regimental guns; line, column, march column, square
 * or skirmish for light units; now and then a garrison of a BUA), cavalry (every weight, lancers, light cavalry in
 * skirmish order) and artillery (every gun type, foot or horse, limbered or not), with every order type.
 *
 * Set-up: units stand wholly on the table in their side's zone (within 9" of its edge), ½" apart, facing the enemy;
 * terrain stays in the band between the zones, so no unit starts on it (but a garrison, in its BUA). Pure: all
 * randomness comes from `u`.
 */
import { type Uniform, chance, int, pick, real } from '../../core/draw.ts';
import { NATIONALITIES, type UnitClass, UNIT_CLASSES, footprintSize } from './types.ts';

type Json = Record<string, unknown>;

const round = (x: number) => Math.round(x * 4) / 4;
const rect = (x0: number, y0: number, x1: number, y1: number) => [
  [round(x0), round(y0)],
  [round(x1), round(y0)],
  [round(x1), round(y1)],
  [round(x0), round(y1)],
];

const ORDERS = ['attack', 'hold', 'advance', 'reserve', 'withdraw'] as const;
const COMMANDS = ['poor', 'average', 'good', 'excellent', 'superior'] as const;
const INSPIRATION = ['uninspiring', 'normal', 'inspirational', 'charismatic'] as const;

/** One unit's spec without its place, and its frontage and depth (inches) to lay it out. */
function drawUnit(u: Uniform, id: string): { spec: Json; w: number; d: number } {
  const kind = pick(u, ['infantry', 'infantry', 'infantry', 'cavalry', 'artillery'] as const);
  const cls = pick(u, UNIT_CLASSES) as UnitClass;
  if (kind === 'infantry') {
    const light = chance(u, 0.3);
    const ranks = pick(u, [2, 3] as const);
    const figures = int(u, 12, 32);
    const formation = pick(u, [
      'line',
      'line',
      'column',
      'column',
      'marchColumn',
      'hastySquare',
      ...(light ? (['skirmish', 'skirmish'] as const) : []),
    ] as const);
    const size = footprintSize({ kind: 'infantry', formation, figures, ranks });
    return {
      spec: {
        id,
        kind,
        class: cls,
        ranks,
        doctrine: pick(u, ['linear', 'columnar'] as const),
        weapon: light && chance(u, 0.4) ? 'rifle' : 'musket',
        light,
        sappers: chance(u, 0.1),
        regimentalGuns: chance(u, 0.1),
        figures,
        formation,
      },
      w: size.width,
      d: size.depth,
    };
  }
  if (kind === 'cavalry') {
    const weight = pick(u, ['light', 'medium', 'heavy', 'armored'] as const);
    const figures = int(u, 6, 18);
    const formation = pick(u, ['line', 'column', ...(weight === 'light' ? (['skirmish'] as const) : [])] as const);
    const size = footprintSize({ kind: 'cavalry', formation, figures });
    return {
      spec: { id, kind, class: cls, weight, lancers: chance(u, 0.2), figures, formation },
      w: size.width,
      d: size.depth,
    };
  }
  const guns = int(u, 2, 8);
  const formation = pick(u, ['unlimbered', 'unlimbered', 'limbered'] as const);
  const size = footprintSize({ kind: 'artillery', formation, guns });
  return {
    spec: {
      id,
      kind,
      class: cls,
      gunType: pick(u, ['light', 'medium68', 'medium9', 'heavy'] as const),
      mobility: pick(u, ['foot', 'foot', 'horse'] as const),
      guns,
      formation,
    },
    w: size.width,
    d: size.depth,
  };
}

/** A random scenario file (validated by the scenario schema; the soak refuses and reports any that is not). */
export function randomScenario(u: Uniform): unknown {
  const W = int(u, 30, 48);
  const H = int(u, 30, 48);
  const south = chance(u, 0.5) ? 0 : 1; // the side at the south edge
  const terrain: Json[] = [];
  const band = { y0: 10, y1: H - 10 };
  // the road and the stream with its bridge and ford
  const roadX = round(real(u, 6, W - 6));
  if (chance(u, 0.7))
    terrain.push({
      type: 'road',
      id: 'road',
      points: [
        [roadX, 0],
        [roadX, H],
      ],
    });
  if (chance(u, 0.4)) {
    const sy = round(real(u, band.y0 + 1, band.y1 - 1));
    terrain.push({
      type: 'stream',
      id: 'brook',
      points: [
        [0, sy],
        [W, sy],
      ],
    });
    if (terrain.some((t) => t.id === 'road'))
      terrain.push({
        type: 'bridge',
        id: 'bridge',
        stream: 'brook',
        polygon: rect(roadX - 1, sy - 0.5, roadX + 1, sy + 0.5),
      });
    const fx = round(real(u, 2, W - 4));
    if (Math.abs(fx - roadX) > 3)
      terrain.push({ type: 'ford', id: 'ford', stream: 'brook', polygon: rect(fx, sy - 0.5, fx + 2, sy + 0.5) });
  }
  // area features in the band, apart from each other
  const areas: number[][] = [];
  const n = int(u, 0, 4);
  const buas: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = real(u, 3, 9);
    const h = real(u, 3, Math.min(7, band.y1 - band.y0 - 1));
    const x0 = real(u, 0.5, W - w - 0.5);
    const y0 = real(u, band.y0, band.y1 - h);
    const box = [x0 - 1, y0 - 1, x0 + w + 1, y0 + h + 1];
    if (areas.some((b) => !(box[2]! < b[0]! || box[0]! > b[2]! || box[3]! < b[1]! || box[1]! > b[3]!))) continue;
    areas.push(box);
    const polygon = rect(x0, y0, x0 + w, y0 + h);
    const kind = pick(u, ['woods', 'orchard', 'rough', 'muddy', 'steepRise', 'bua'] as const);
    const id = `${kind}${i}`;
    if (kind === 'woods') terrain.push({ type: kind, id, density: pick(u, ['light', 'dense'] as const), polygon });
    else if (kind === 'steepRise') terrain.push({ type: kind, id, contours: int(u, 1, 2), polygon });
    else if (kind === 'bua') {
      const material = pick(u, ['wooden', 'stone'] as const);
      terrain.push({
        type: kind,
        id,
        material,
        cover: material === 'wooden' ? pick(u, ['light', 'medium'] as const) : pick(u, ['medium', 'heavy'] as const),
        garrison: pick(u, ['light', 'medium', 'heavy', 'fortified'] as const),
        polygon,
      });
      buas.push(id);
    } else terrain.push({ type: kind, id, polygon });
  }
  if (chance(u, 0.5)) {
    const y = round(real(u, band.y0, band.y1));
    const x0 = round(real(u, 1, W / 2));
    terrain.push({
      type: 'linearObstacle',
      id: 'hedge',
      grade: pick(u, ['minor', 'major'] as const),
      points: [
        [x0, y],
        [round(Math.min(W - 1, x0 + real(u, 4, 14))), y],
      ],
    });
  }
  const objectives: Json[] =
    buas.length && chance(u, 0.6)
      ? [{ id: 'objA', terrain: buas[0]! }]
      : [{ id: 'objA', x: round(real(u, 4, W - 4)), y: round(H / 2) }];
  if (chance(u, 0.4)) objectives.push({ id: 'objB', x: round(real(u, 4, W - 4)), y: round(real(u, band.y0, band.y1)) });

  const sides: Json[] = [];
  for (const side of [0, 1] as const) {
    const atSouth = side === south;
    const facing = atSouth ? 0 : 180;
    const edgeY = atSouth ? 0 : H;
    const inward = atSouth ? 1 : -1;
    const p = side === 0 ? 'F' : 'B';
    const mes: Json[] = [];
    const nMe = int(u, 1, 3);
    let x = 1;
    let garrisoned = false;
    for (let m = 0; m < nMe; m++) {
      const meId = `${p}${m + 1}`;
      const units: Json[] = [];
      const offBoard = side === 1 && m > 0 && chance(u, 0.3);
      const nUnits = int(u, 1, 3);
      const row = real(u, 3, 7);
      for (let k = 0; k < nUnits; k++) {
        const { spec, w, d } = drawUnit(u, `${meId}${'abc'[k]}`);
        if (offBoard) {
          units.push(spec);
          continue;
        }
        // a garrison, now and then, for the side defending a BUA objective
        if (!garrisoned && spec.kind === 'infantry' && buas.length && side !== south && chance(u, 0.3)) {
          garrisoned = true;
          units.push({ ...spec, formation: 'garrison', garrison: buas[0]! });
          continue;
        }
        if (x + w > W - 1) break;
        units.push({ ...spec, x: round(x + w / 2), y: round(edgeY + inward * (row + d / 2)) });
        x += w + 0.5;
      }
      if (!units.length) continue;
      const first = units.find((s) => s.x !== undefined || offBoard);
      const order = pick(u, ORDERS);
      mes.push({
        id: meId,
        leader: {
          id: `${meId}-L`,
          command: pick(u, COMMANDS),
          inspiration: pick(u, INSPIRATION),
          ...(offBoard
            ? {}
            : first && chance(u, 0.5)
              ? { attached: first.id as string }
              : { x: round(Math.min(W - 0.5, Math.max(0.5, x - 1))), y: round(edgeY + inward * 1.5) }),
        },
        order:
          order === 'attack' || order === 'hold' || order === 'advance'
            ? { type: order, objective: 'objA' }
            : { type: order, x: round(real(u, 2, W - 2)), y: round(edgeY + inward * real(u, 3, 8)) },
        ...(offBoard ? { offBoard: { x: round(real(u, 2, W - 2)), y: edgeY, earliestTurn: 2 } } : {}),
        units,
      });
    }
    if (!mes.length) {
      const { spec, w, d } = drawUnit(u, `${p}0a`);
      mes.push({
        id: `${p}0`,
        leader: { id: `${p}0-L`, command: 'average', inspiration: 'normal', attached: spec.id as string },
        order: { type: 'hold', objective: 'objA' },
        units: [{ ...spec, x: round(1 + w / 2), y: round(edgeY + inward * (4 + d / 2)) }],
      });
    }
    const formations =
      mes.length >= 2 && chance(u, 0.3) && !mes.slice(0, 2).some((e) => e.offBoard)
        ? [
            {
              id: `${p}MF`,
              leader: {
                id: `${p}MF-L`,
                command: pick(u, COMMANDS),
                inspiration: pick(u, INSPIRATION),
                x: round(W / 2),
                y: round(edgeY + inward * 2),
              },
              order: { type: pick(u, ['attack', 'hold', 'advance'] as const), objective: 'objA' },
              elements: [mes[0]!.id as string, mes[1]!.id as string],
            },
          ]
        : [];
    // an ME inside an MF follows its MF's order
    for (const e of mes) if (formations.some((f) => f.elements.includes(e.id as string))) delete e.order;
    sides.push({
      name: side === 0 ? 'First' : 'Second',
      nationality: pick(u, NATIONALITIES),
      homeEdge: atSouth ? 'south' : 'north',
      facing,
      cc: {
        id: `${p}-CC`,
        command: pick(u, COMMANDS),
        inspiration: pick(u, INSPIRATION),
        x: round(W / 2 + (side ? 2 : -2)),
        y: round(edgeY + inward * 0.5),
      },
      formations,
      elements: mes,
    });
  }
  return {
    ruleset: 'charge-eagles-rising',
    id: 'generated',
    title: 'A generated scenario',
    table: { width: W, height: H },
    turns: int(u, 3, 6),
    strategicFirst: chance(u, 0.5) ? 'First' : 'Second',
    terrain,
    objectives,
    sides,
  };
}
