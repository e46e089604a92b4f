/**
 * Random Age of Eagles scenario files for the generated-scenario soak (`Game.randomScenario`): tables of every size the
 * schema allows, terrain of every kind (woods, rough, hills, BUA blocks, a road, a stream with a ford and a bridge,
 * hedges and walls), objectives, orders of battle of every unit type, class, formation and leader, and the rules
 * options. Pure: all randomness comes from `u`.
 */

type U = () => number;
const pick = <T>(u: U, xs: readonly T[]): T => xs[Math.floor(u() * xs.length)]!;
const int = (u: U, lo: number, hi: number): number => lo + Math.floor(u() * (hi - lo + 1));
const round = (x: number): number => Math.round(x * 4) / 4;

function unit(u: U, id: string, x: number, y: number, facing: number): Record<string, unknown> {
  const kind = pick(u, ['infantry', 'infantry', 'infantry', 'cavalry', 'battery'] as const);
  const cls = pick(u, ['Elite', 'Regular', 'Regular', 'Conscript'] as const);
  if (kind === 'infantry') {
    const light = u() < 0.25;
    return {
      id,
      type: 'infantry',
      class: cls,
      ranks: pick(u, [2, 3] as const),
      marchMode: pick(u, ['Linear', 'Columnar', 'Impulse'] as const),
      light,
      // a Line is 6" wide, Open Order 8.5": the slots below are 9" apart
      formation: pick(u, [
        'Line',
        'FieldColumn',
        'Masse',
        ...(light ? (['OpenOrder'] as const) : []),
        'Square',
      ] as const),
      x,
      y,
      facing,
      ...(u() < 0.15 ? { disordered: true } : {}),
      ...(u() < 0.2 ? { hits: int(u, 1, 3) } : {}),
    };
  }
  if (kind === 'cavalry')
    return {
      id,
      type: 'cavalry',
      class: cls,
      weight: pick(u, ['Light', 'Heavy', 'ArmouredHeavy'] as const),
      lancers: u() < 0.3,
      formation: pick(u, ['Line', 'FieldColumn'] as const),
      x,
      y,
      facing,
      ...(u() < 0.1 ? { hits: int(u, 1, 2) } : {}),
    };
  return {
    id,
    type: 'battery',
    guns: pick(u, [6, 8] as const),
    calibre: pick(u, ['Heavy', 'Light'] as const),
    mobility: pick(u, ['Foot', 'Horse'] as const),
    limbered: u() < 0.3,
    x,
    y,
    facing,
    ...(u() < 0.1 ? { silenced: true } : {}),
  };
}

export function randomScenario(u: U): unknown {
  const width = pick(u, [36, 48, 60, 72]);
  const height = pick(u, [36, 48]);
  const mid = height / 2;
  const terrain: Record<string, unknown>[] = [];
  const blocks: { id: string; x: number; y: number }[] = [];
  // the middle band (beyond the deployment zones, 10" deep at each edge) takes the terrain
  for (let i = 0, n = int(u, 0, 2); i < n; i++) {
    const x = round(3 + u() * (width - 6));
    const y = round(mid - 3 + u() * 6);
    if (blocks.some((b) => Math.abs(b.x - x) < 3.5 && Math.abs(b.y - y) < 3.5)) continue;
    blocks.push({ id: `town${i + 1}`, x, y });
    terrain.push({ type: 'bua', id: `town${i + 1}`, x, y, cover: int(u, 1, 3) });
  }
  const quad = (x0: number, y0: number, w: number, d: number) => [
    [round(x0), round(y0)],
    [round(x0 + w), round(y0)],
    [round(x0 + w), round(y0 + d)],
    [round(x0), round(y0 + d)],
  ];
  for (const [type, n] of [
    ['woods', int(u, 0, 2)],
    ['rough', int(u, 0, 1)],
    ['hill', int(u, 0, 1)],
  ] as const)
    for (let i = 0; i < n; i++) {
      const w = 3 + u() * 8;
      const d = 3 + u() * 6;
      terrain.push({
        type,
        id: `${type}${i + 1}`,
        polygon: quad(u() * (width - w), 11 + u() * (height - 22 - d), w, d),
      });
    }
  const roadX = round(2 + u() * (width - 4));
  const road = u() < 0.6;
  if (road)
    terrain.push({
      type: 'road',
      id: 'road',
      points: [
        [roadX, 0],
        [roadX, height],
      ],
    });
  if (u() < 0.5) {
    const from = round(u() * (width - 3));
    terrain.push({
      type: 'stream',
      id: 'stream',
      points: [
        [0, round(mid + (u() < 0.5 ? -5 : 5))],
        [width, round(mid + (u() < 0.5 ? -5 : 5))],
      ],
      fords: u() < 0.8 ? [{ from, to: from + 2 + int(u, 0, 2) }] : [],
    });
  }
  for (const type of ['hedge', 'wall'] as const)
    if (u() < 0.3) {
      const y = round(mid - 4 + u() * 8);
      const x = round(u() * (width - 8));
      terrain.push({
        type,
        id: type,
        points: [
          [x, y],
          [x + 4 + round(u() * 4), y],
        ],
      });
    }
  const objectives: Record<string, unknown>[] = [];
  if (blocks.length && u() < 0.7) objectives.push({ id: 'obj1', bua: blocks[0]!.id });
  if (u() < 0.5) objectives.push({ id: 'obj2', x: round(2 + u() * (width - 4)), y: round(mid - 2 + u() * 4) });
  // set-up: slots 9" apart along the zone, rows 5" apart, the first row 3" from the edge
  const slots = Math.floor((width - 2) / 9);
  const side = (s: 0 | 1) => {
    const facing = s === 0 ? 0 : 180;
    const rowY = (r: number) => (s === 0 ? 3 + 5 * r : height - 3 - 5 * r);
    const free: [number, number][] = [];
    for (let r = 0; r < 2; r++) for (let i = 0; i < slots; i++) free.push([1 + 4.5 + 9 * i, rowY(r)]);
    const divisions: Record<string, unknown>[] = [];
    let n = 0;
    for (let d = 0, nd = int(u, 1, 2); d < nd && free.length; d++) {
      const units: Record<string, unknown>[] = [];
      for (let k = 0, nu = int(u, 1, 4); k < nu && free.length; k++) {
        const [x, y] = free.splice(Math.floor(u() * free.length), 1)[0]!;
        units.push(unit(u, `${'AB'[s]}${++n}`, x, y, facing));
      }
      const first = units[0]!.id as string;
      divisions.push({
        id: `${'AB'[s]}D${d + 1}`,
        leader: { id: `${'AB'[s]}L${d + 1}`, charismatic: u() < 0.3, attached: first },
        units,
      });
    }
    const leader =
      u() < 0.5
        ? { id: `${'AB'[s]}army`, charismatic: u() < 0.3, x: round(width / 2), y: s === 0 ? 1 : height - 1 }
        : { id: `${'AB'[s]}army`, charismatic: u() < 0.3, attached: (divisions[0]!.units as { id: string }[])[0]!.id };
    return { name: s === 0 ? 'French' : 'Allies', facing, armyLeader: leader, divisions };
  };
  const options: Record<string, unknown> = { A12_turns: int(u, 2, 8) };
  if (u() < 0.3) options.A9_musketry = pick(u, [4, 6, 8]);
  if (u() < 0.3) options.A11_infantryRough = pick(u, [0.5, 1 / 3]);
  if (u() < 0.3)
    options.A12_cohesion = pick(u, [
      [0.25, 0.5],
      [0.33, 0.66],
    ]);
  return {
    ruleset: 'age-of-eagles',
    id: `generated-${Math.floor(u() * 1e9)}`,
    title: 'A generated battle',
    table: { width, height },
    terrain,
    objectives,
    sides: [side(0), side(1)],
    options,
  };
}
