import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLos, traceLos, type LosRules } from './los.ts';
import { AreaMap, validateAreaMap, type AreaMapJson } from './map.ts';
import { renderMapSvg } from './svg.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'maps', 'eagles-of-the-empire');
const hohenwaldJson = JSON.parse(readFileSync(join(DATA, 'hohenwald-1809.json'), 'utf8'));
const hw = AreaMap.parse(hohenwaldJson, 'hohenwald-1809.json');

const clone = (): AreaMapJson => JSON.parse(JSON.stringify(hohenwaldJson));

/** A strip of square areas left to right with the given elevations and terrain; centres on y = 5. */
function strip(
  cells: readonly { elev: number; terrain?: string }[],
  boundaryTerrain: Record<string, string[]> = {},
): AreaMap {
  const areas = cells.map((c, i) => ({
    id: i + 1,
    name: `S${i + 1}`,
    elev: c.elev,
    terrain: [c.terrain ?? 'clear'],
    stack: { class: 'normal' as const, max: 15, dense: 11, maxLC: 1 },
    center: [10 * i + 5, 5] as [number, number],
    polygon: [
      [10 * i, 0],
      [10 * i + 10, 0],
      [10 * i + 10, 10],
      [10 * i, 10],
    ] as [number, number][],
  }));
  const boundaries = cells.slice(1).map((_, i) => ({
    a: i + 1,
    b: i + 2,
    kind: 'side' as const,
    terrain: boundaryTerrain[`${i + 1}-${i + 2}`] ?? [],
  }));
  return AreaMap.parse({
    format: 'eagles-area-map',
    version: 1,
    id: 'strip',
    title: 'strip',
    size: [10 * cells.length, 10],
    areas,
    boundaries,
  });
}

const woodsBlock =
  (m: AreaMap, extra: ReadonlySet<number> = new Set()) =>
  (id: number) =>
    m.area(id).terrain.some((t) => t === 'woods' || t === 'town') || extra.has(id);
const artillery = (m: AreaMap, over: Partial<LosRules> = {}): LosRules => ({
  envelope: (d) => d >= -2 && d <= 1,
  blocksArea: woodsBlock(m),
  blocksBoundary: (b) => b.terrain.includes('tree-line'),
  ...over,
});

describe('area map files', () => {
  it('Hohenwald 1809 validates and indexes its adjacency', () => {
    expect(hw.json.areas).toHaveLength(24);
    expect(hw.json.boundaries.filter((b) => b.kind === 'side')).toHaveLength(38);
    expect(hw.json.boundaries.filter((b) => b.kind === 'point')).toHaveLength(30);
    expect(hw.sideNeighbours(9)).toEqual([3, 8, 10, 15]);
    expect(hw.pointNeighbours(9)).toEqual([2, 4, 14, 16]);
    expect(hw.boundary(16, 9)).toMatchObject({ kind: 'point', corners: [10, 15], crossingTerrain: ['stream'] });
    expect(hw.boundary(15, 16)).toMatchObject({ bridge: true, road: true, terrain: ['stream'] });
    expect(hw.crosses(9, 16, 'stream')).toBe(true);
    expect(hw.slopeDirection(10, 11)).toBe('up');
    expect(hw.slopeDirection(11, 10)).toBe('down');
    expect(hw.slopeDirection(4, 5)).toBe('up');
    expect(hw.boundary(4, 5)!.prohibitedFor).toEqual(['cavalry', 'artillery', 'hq']);
    expect(hw.range(1, 24)).toBe(5); // diagonal adjacency counts for range
    expect(hw.range(9, 16)).toBe(1);
    expect(hw.tagged('objective')).toEqual([11, 12, 16]);
    expect(hw.isEdge(1) && !hw.isEdge(9)).toBe(true);
  });

  it('classifies neighbours by conformation, and every neighbour of an all-around area as front', () => {
    expect(hw.facingOf(16, 'N', 10)).toBe('front');
    expect(hw.facingOf(16, 'N', 15)).toBe('flank');
    expect(hw.facingOf(16, 'N', 22)).toBe('rear');
    expect(hw.facingOf(16, 'W', 15)).toBe('front');
    expect(hw.facingOf(11, null, 17)).toBe('front');
    expect(hw.area(16).conformations.find((c) => c.id === 'N')).toMatchObject({
      front: [9, 10, 11],
      flank: [15, 17],
      rear: [21, 22, 23],
    });
    expect(
      hw
        .area(14)
        .conformations.filter((c) => c.roadAligned === 'main-road')
        .map((c) => c.id),
    ).toEqual(['N', 'S']);
    expect(() => hw.conformation(11, 'N')).toThrow(/area 11 has no conformation "N"/);
  });

  it('reports every problem in a broken map with its JSON path', () => {
    const m = clone();
    m.areas[1]!.id = 1; // duplicate
    m.boundaries[0]!.b = 99;
    const bridge = m.boundaries.find((b) => b.a === 20 && b.b === 21)!;
    bridge.bridge = true; // no water there
    m.roads[0]!.areas = [13, 14, 20]; // 14→20 is not a road boundary
    m.areas[15]!.conformations[0]!.front.push(1); // 16 is not adjacent to 1
    const v = validateAreaMap(m);
    expect(v.ok).toBe(false);
    const text = v.ok ? '' : v.problems.map((p) => `${p.path}: ${p.message}`).join('\n');
    expect(text).toMatch(/\$\.areas\[1\]\.id: duplicate area id 1/);
    expect(text).toMatch(/\$\.boundaries\[0\]\.b: unknown area 99/);
    expect(text).toMatch(/bridge or ford needs a water boundary/);
    expect(text).toMatch(
      /\$\.roads\[0\]\.areas\[2\]: road main-road crosses boundary 14-20, which is not marked road: true/,
    );
    expect(text).toMatch(/\$\.areas\[15\]\.conformations\[0\]\.front\[3\]: area 1 is not adjacent to area 16/);
    expect(validateAreaMap({ format: 'eagles-area-map' }).ok).toBe(false);
  });

  it('refuses unknown keys at every level, suggesting the key a typo misspells', () => {
    const m = clone() as unknown as { areas: Record<string, unknown>[]; boundaries: Record<string, unknown>[] };
    m.areas[2]!.Terrain = m.areas[2]!.terrain;
    m.boundaries[1]!.brige = true;
    const v = validateAreaMap(m);
    const text = v.ok ? '' : v.problems.map((p) => `${p.path}: ${p.message}`).join('\n');
    expect(text).toMatch(/\$\.areas\[2\]: unknown key "Terrain" \(did you mean "terrain"\?\)/);
    expect(text).toMatch(/\$\.boundaries\[1\]: unknown key "brige" \(did you mean "bridge"\?\)/);
  });
});

describe('line of sight traces', () => {
  it('follows a row of areas and lists the boundaries it crosses', () => {
    const t = traceLos(hw, 13, 18);
    expect(t.areas).toEqual([14, 15, 16, 17]);
    expect(t.crossings).toEqual([
      [13, 14],
      [14, 15],
      [15, 16],
      [16, 17],
      [17, 18],
    ]);
    expect(t.corners).toEqual([]);
    expect(traceLos(hw, 18, 13).areas).toEqual([17, 16, 15, 14]);
  });
  it('passes through grid corners as diagonal steps', () => {
    const t = traceLos(hw, 7, 21);
    expect(t.areas).toEqual([14]);
    expect(t.corners).toEqual([
      [7, 14],
      [14, 21],
    ]);
    expect(t.crossings).toEqual([]);
  });
  it('finds a stretch along a boundary', () => {
    const sq = (id: number, x0: number, y0: number, x1: number, y1: number) => ({
      id,
      name: `A${id}`,
      terrain: ['clear'],
      stack: { class: 'normal' as const, max: 15, dense: 11, maxLC: 1 },
      center: [(x0 + x1) / 2, (y0 + y1) / 2] as [number, number],
      polygon: [
        [x0, y0],
        [x1, y0],
        [x1, y1],
        [x0, y1],
      ] as [number, number][],
    });
    const m = AreaMap.parse({
      format: 'eagles-area-map',
      version: 1,
      id: 'along',
      title: 'along',
      size: [30, 10],
      areas: [sq(1, 0, 0, 10, 10), sq(2, 10, 0, 20, 5), sq(3, 10, 5, 20, 10), sq(4, 20, 0, 30, 10)],
      boundaries: [
        { a: 1, b: 2, kind: 'side' },
        { a: 1, b: 3, kind: 'side' },
        { a: 2, b: 3, kind: 'side', terrain: ['tree-line'] },
        { a: 2, b: 4, kind: 'side' },
        { a: 3, b: 4, kind: 'side' },
      ],
    });
    const t = traceLos(m, 1, 4);
    expect(t.along).toEqual([[2, 3]]);
    expect(t.areas).toEqual([]);
    const r = checkLos(m, 1, 4, {
      envelope: () => true,
      blocksArea: () => false,
      blocksBoundary: (b) => b.terrain.includes('tree-line'),
    });
    expect(r).toMatchObject({ clear: false, blockedBy: 'along-blocking-boundary' });
  });
  it('uses an author override in both directions', () => {
    const m = clone();
    m.los = [
      {
        from: 1,
        to: 3,
        areas: [8],
        crossings: [
          [1, 8],
          [8, 3],
        ],
        along: [],
        corners: [],
      },
    ];
    const map = AreaMap.parse(m);
    expect(traceLos(map, 3, 1)).toMatchObject({
      areas: [8],
      crossings: [
        [3, 8],
        [8, 1],
      ],
      overridden: true,
    });
  });
  it('blocks through woods and the tree-line at the firer’s level on the sample map, not through the village', () => {
    const rules = artillery(hw);
    expect(checkLos(hw, 1, 3, rules)).toMatchObject({ clear: false, blockedBy: 'blocking-area', where: 'area 2' });
    expect(checkLos(hw, 7, 9, rules).clear).toBe(true); // village 8 between
    expect(checkLos(hw, 8, 10, rules)).toMatchObject({
      clear: false,
      blockedBy: 'blocking-boundary',
      where: 'boundary 9|10',
    });
    expect(checkLos(hw, 9, 10, rules)).toMatchObject({ clear: false, blockedBy: 'blocking-boundary' }); // range 1 across the tree-line
  });
});

describe('elevation rules (digest derived vectors)', () => {
  const envelopeHeavy = (d: number) => d >= -3 && d <= 1;
  it('DV-23/24: adjacent targets within and above the envelope', () => {
    const m = strip([{ elev: 1 }, { elev: -1 }]);
    expect(checkLos(m, 1, 2, artillery(m)).clear).toBe(true);
    const up = strip([{ elev: 0 }, { elev: 2 }]);
    expect(checkLos(up, 1, 2, artillery(up))).toMatchObject({ clear: false, blockedBy: 'envelope' });
  });
  it('DV-25/26: level intervening clear area lets fire through; woods at the firer’s level block', () => {
    const m = strip([{ elev: 0 }, { elev: 0 }, { elev: 1 }]);
    expect(checkLos(m, 1, 3, artillery(m)).clear).toBe(true);
    const w = strip([{ elev: 0 }, { elev: 0, terrain: 'woods' }, { elev: 0 }]);
    expect(checkLos(w, 1, 3, artillery(w))).toMatchObject({ clear: false, blockedBy: 'blocking-area' });
  });
  it('DV-27: woods with an LC lower than the firer do not block a downward shot', () => {
    const m = strip([{ elev: 1 }, { elev: 0, terrain: 'woods' }, { elev: -1 }]);
    expect(checkLos(m, 1, 3, artillery(m, { blocksArea: woodsBlock(m, new Set([2])) })).clear).toBe(true);
  });
  it('DV-28/29: level intervening area when shooting down, and a higher intervening area, block', () => {
    const m = strip([{ elev: 1 }, { elev: 1 }, { elev: 0 }]);
    expect(checkLos(m, 1, 3, artillery(m))).toMatchObject({
      clear: false,
      blockedBy: 'level-intervening-looking-down',
    });
    const h = strip([{ elev: 0 }, { elev: 1 }, { elev: 0 }]);
    expect(checkLos(h, 1, 3, artillery(h))).toMatchObject({ clear: false, blockedBy: 'higher-intervening' });
  });
  it('DV-30/31: heavy artillery at range 3 needs the descent', () => {
    const ok = strip([{ elev: 2 }, { elev: 1 }, { elev: 0 }, { elev: -1 }]);
    expect(checkLos(ok, 1, 4, artillery(ok, { envelope: envelopeHeavy })).clear).toBe(true);
    const no = strip([{ elev: 2 }, { elev: 1 }, { elev: 1 }, { elev: 0 }]);
    expect(checkLos(no, 1, 4, artillery(no, { envelope: envelopeHeavy }))).toMatchObject({
      clear: false,
      blockedBy: 'descent-too-shallow',
    });
  });
  it('DV-32: high-angle fire ignores line of sight within its envelope', () => {
    const m = strip([{ elev: 0 }, { elev: 0, terrain: 'woods' }, { elev: 3 }]);
    expect(checkLos(m, 1, 3, artillery(m, { envelope: (d) => d <= 3, ignoresLos: true })).clear).toBe(true);
  });
  it('DV-33: an area holding enough troops blocks like terrain', () => {
    const m = strip([{ elev: 0 }, { elev: 0 }, { elev: 0 }]);
    expect(checkLos(m, 1, 3, artillery(m, { blocksArea: (id) => id === 2 }))).toMatchObject({
      clear: false,
      blockedBy: 'blocking-area',
      where: 'area 2',
    });
  });
});

describe('map rendering', () => {
  it('draws Hohenwald as the committed SVG (EAGLES_UPDATE_GOLDEN=1 rewrites it)', () => {
    const svg = renderMapSvg(hw);
    const file = join(DATA, 'hohenwald-1809.svg');
    if (process.env.EAGLES_UPDATE_GOLDEN) writeFileSync(file, svg);
    expect(svg).toBe(readFileSync(file, 'utf8'));
    expect(svg).toMatch(/<title>10\|11: slope<\/title>/);
    expect(svg).toMatch(/bridge/);
  });
});
