/**
 * Eagles of the Empire as a drawing (`Game.picture`, engine/core/picture.ts): the area map as SVG (engine/areas/svg.ts)
 * with a stack in every area that holds counters, at the area's centre in the SVG's coordinates — units with their
 * step code (kind, step letter, SP, morale [2.21, 2.3 Steps]) and markers, leaders with their printed ratings [2.21],
 * the HQ [9.5], and the objectives with who holds them (A-53). Every label and marker is explained in the legend, so
 * the unit codes the terminal never explains are explained here. Perfect information [2.0]: every counter is face up,
 * so every viewer sees the same picture.
 */
import type { MapPicture, PictureStack } from '../../core/picture.ts';
import type { AreaId, AreaMap } from '../../areas/map.ts';
import { renderMapSvg } from '../../areas/svg.ts';
import { Legend } from '../../tabletop/picture.ts';
import type { EState, UnitState } from './types.ts';
import { areaName, formationName, leaderName, sideName, unitName } from './words.ts';
import { isActive, leaderDef, moraleOf, spOf, stepsLeft } from './world.ts';

/** SVG units per map unit: `renderMapSvg` draws a map point (x, y) at (x·SCALE, y·SCALE). */
const SCALE = 10;

const KIND = { infantry: 'I', cavalry: 'C', artillery: 'A' } as const;

const svgs = new WeakMap<AreaMap, { svg: string; width: number; height: number }>();
function mapSvg(map: AreaMap): { svg: string; width: number; height: number } {
  let v = svgs.get(map);
  if (!v) {
    const svg = renderMapSvg(map, { scale: SCALE });
    const attr = (name: string) => Number(new RegExp(`<svg[^>]*\\s${name}="([\\d.]+)"`).exec(svg)![1]);
    v = { svg, width: attr('width'), height: attr('height') };
    svgs.set(map, v);
  }
  return v;
}

/** The counter's code, as the terminal prints it: kind letter, step letter, SP, and morale (not for artillery). */
function unitLabel(u: UnitState, lg: Legend): string {
  const st = u.steps[u.step]!;
  const m = u.kind === 'artillery' ? '' : `-${moraleOf(u)}`;
  const code = `${KIND[u.kind]} ${st.label}${spOf(u)}${m}`;
  return lg.use(
    code,
    `${u.kind}, step ${st.label} of its track (${st.form === 'long' ? 'capital: a long counter' : 'lower case: a short counter'}): ` +
      `${spOf(u)} strength points, morale ${moraleOf(u)} [2.21, 2.3 Steps]`,
  );
}

function unitMarkers(s: EState, u: UnitState, lg: Legend): string[] {
  const m: string[] = [];
  if (u.routed) m.push(lg.use('R', 'routed [19.1]'));
  if (u.square) m.push(lg.use('SQ', 'in square [17.1]'));
  if (u.rs) m.push(lg.use('RS', 'in reverse slope defence [17.2]'));
  if (u.mc !== null) m.push(lg.use(`MC>${u.mc}`, `massed column declared against area ${u.mc} [14.7]`));
  if (u.conf) {
    const c = s.ctx.map.area(u.area!).conformations.find((x) => x.id === u.conf);
    m.push(
      lg.use(
        `F:${u.conf}`,
        `faces conformation ${u.conf}${c ? `: front toward area${c.front.length > 1 ? 's' : ''} ${c.front.join(', ')}` : ''} [13.9]`,
      ),
    );
  }
  if (u.attachedTo) m.push(lg.use('AT', 'artillery attached to a unit [11.2]'));
  if (u.acted) {
    const [c, t] =
      u.acted === 'charge'
        ? ['CH', 'charged this turn [10.7]']
        : u.acted === 'bombard'
          ? ['BB', 'bombarded this turn [12.61]']
          : ['AS', 'assaulted this turn [14.65]'];
    m.push(lg.use(c!, t!));
  }
  if (u.ext !== null) m.push(lg.use(`X1/${u.ext.div}`, `a 1/${u.ext.div} extended-line marker [16.0]`));
  else if (u.xsp !== null) m.push(lg.use('XL', 'an extended line: its SP shared with its markers [16.1]'));
  if (u.lost) m.push(lg.use(`-${u.lost}`, `${u.lost} step${u.lost === 1 ? '' : 's'} lost [2.3]`));
  if (u.moveDone) m.push(lg.use('MV', 'has moved this turn [13.1]'));
  if (isActive(s, u)) m.push(lg.use('ACT', 'its formation is activated this Action Phase [8.14]'));
  return m;
}

/** The Eagles of the Empire picture of `s` (the same for every viewer: every counter is face up [2.0]). */
export function eaglesPicture(s: EState, _viewer?: number): MapPicture {
  const map = s.ctx.map;
  const { svg, width, height } = mapSvg(map);
  const sc = s.ctx.scenario;
  const lg = new Legend();
  const stacks = new Map<AreaId, PictureStack['pieces'][number][]>();
  const add = (area: AreaId, piece: PictureStack['pieces'][number]) => {
    let l = stacks.get(area);
    if (!l) stacks.set(area, (l = []));
    l.push(piece);
  };
  for (const u of s.units) {
    if (u.eliminated || u.area === null) continue;
    const st = u.steps[u.step]!;
    add(u.area, {
      id: u.id,
      side: u.side,
      label: unitLabel(u, lg),
      markers: unitMarkers(s, u, lg),
      title:
        `${unitName(s, u.id)} (${u.id}, ${sideName(s, u.side)}): ${u.kind}, ${formationName(s, u.formation)}; ` +
        `step ${st.label}, ${spOf(u)} SP, morale ${moraleOf(u)}, ${stepsLeft(u)} step${stepsLeft(u) === 1 ? '' : 's'} left` +
        `${u.routed ? ', ROUTED' : ''}`,
    });
  }
  for (const l of s.leaders) {
    if (l.status !== 'on' || l.area === null) continue;
    const d = leaderDef(s, l.id);
    const code = `L${d.tactical}-${d.radius}-${d.initiative}`;
    add(l.area, {
      id: l.id,
      side: l.side,
      label: lg.use(
        code,
        `leader: tactical ${d.tactical}${typeof d.tactical === 'string' ? ' (attacking/defending)' : ''}, command radius ${d.radius}, initiative ${d.initiative} [2.21]`,
      ),
      markers: l.moved ? [lg.use('MV', 'has moved this turn [13.1]')] : [],
      title: `${leaderName(s, l.id)} (${l.id}, ${sideName(s, l.side)}): ${d.role}, grade ${d.grade}; tactical ${d.tactical}, radius ${d.radius}, initiative ${d.initiative}`,
    });
  }
  for (const p of [0, 1] as const) {
    const hq = s.hq[p];
    const def = sc.sides[p].hq;
    if (!hq || hq.lost || hq.area === null || !def) continue;
    add(hq.area, {
      id: def.id,
      side: p,
      label: lg.use('HQ', 'an army headquarters: traces command within its radius [9.5]'),
      markers: s.hqMoved[p] ? [lg.use('MV', 'has moved this turn [13.1]')] : [],
      title: `${def.name} (${sideName(s, p)} HQ), command radius ${def.radius} [9.5]`,
    });
  }
  for (const o of sc.victory.objectives) {
    const held = s.control[String(o.area)];
    add(o.area, {
      id: `objective-${o.area}`,
      side: held ?? -1,
      label: lg.use('OBJ', 'an objective: victory points to the side that holds it, shown by its colour (A-53)'),
      markers: [],
      title: `objective ${areaName(s, o.area)}: ${o.vp[0]}/${o.vp[1]} VP${held !== undefined ? `, held by ${sideName(s, held)}` : ', held by nobody'}`,
    });
  }
  return {
    kind: 'map',
    svg,
    width,
    height,
    stacks: [...stacks]
      .sort((a, b) => a[0] - b[0])
      .map(([area, pieces]) => {
        const [x, y] = map.area(area).center;
        return { area: String(area), at: [x * SCALE, y * SCALE] as const, pieces };
      }),
    legend: lg.entries(),
  };
}
