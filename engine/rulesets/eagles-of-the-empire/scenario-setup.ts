/**
 * The checks that keep an accepted Eagles of the Empire scenario playable: step tracks [2.3 Steps], unique ids, set-up
 * facings [13.9–13.94] and stacking [13.6–13.93] with both sides apart [13.12, 3.13], deployments made at
 * set-up [11.31], reinforcement groups fitting their entry areas [6.0, 13.61, 13.7], the turn track and victory.
 */
import type { Problem } from '../../core/game.ts';
import { excludes, freeConformations, longCountersFit, spFits } from './stacking.ts';
import type { Area, AreaMap } from '../../areas/map.ts';
import { formationsOf, parseStep, type Scenario, type UnitJson } from './scenario-schema.ts';

/** A unit at step `step` as stacking sees it: its SP [13.61] and whether it is an infantry long counter [13.7]. */
function pieceAt(u: UnitJson, step: number): { sp: number; lc: boolean } | null {
  const st = parseStep(u.steps[step] ?? '', u.kind);
  return typeof st === 'string' ? null : { sp: st.sp, lc: u.kind === 'infantry' && st.form === 'long' };
}

/** A unit in an area with its conformation, as the engine sets it up [13.9]. */
interface Piece {
  readonly id: string;
  readonly sp: number;
  readonly lc: boolean;
  readonly conf: string | null;
}

/** Every unit of the scenario by id. */
function unitIndex(s: Scenario): ReadonlyMap<string, UnitJson> {
  return new Map(
    s.sides.flatMap((side) => formationsOf(side).flatMap(({ f }) => f.units.map((u) => [u.id, u] as const))),
  );
}

/** A step track runs from the strongest step down, long (capital) steps before short ones [2.3 Steps]. */
export function stepTrackProblems(u: UnitJson, up: string): Problem[] {
  const out: Problem[] = [];
  const steps = u.steps.map((t) => parseStep(t, u.kind));
  steps.forEach((st, j) => {
    const prev = steps[j - 1];
    if (typeof st === 'string' || prev === undefined || typeof prev === 'string') return;
    if (st.sp > prev.sp)
      out.push({
        path: `${up}.steps[${j}]`,
        message: `step "${u.steps[j]}" is stronger than the step before it: a step track runs from the strongest step down [2.3 Steps]`,
      });
    if (st.form === 'long' && prev.form === 'short')
      out.push({
        path: `${up}.steps[${j}]`,
        message: `long step "${u.steps[j]}" follows a short one: a long counter's reduced steps are short counters, never long again [2.3 Steps]`,
      });
  });
  if (u.kind === 'infantry' && u.counter === 'short') {
    const j = steps.findIndex((st) => typeof st !== 'string' && st.form === 'long');
    if (j >= 0)
      out.push({
        path: `${up}.steps[${j}]`,
        message: `step "${u.steps[j]}" is a long counter's (capital letter): a short counter's steps are lower case [2.3 Steps]`,
      });
  }
  return out;
}

/** Ids the engine looks pieces up by are unique across both sides: formations (activation) and HQs. */
export function idProblems(s: Scenario): Problem[] {
  const out: Problem[] = [];
  const f0 = new Set(formationsOf(s.sides[0]).map(({ f }) => f.id));
  for (const { f } of formationsOf(s.sides[1]))
    if (f0.has(f.id))
      out.push({
        path: `$.sides[1].formations(${f.id})`,
        message: `duplicate formation id "${f.id}" (also ${s.sides[0].name})`,
      });
  const [h0, h1] = [s.sides[0].hq, s.sides[1].hq];
  if (h0 && h1 && h0.id === h1.id)
    out.push({ path: '$.sides[1].hq.id', message: `duplicate HQ id "${h1.id}" (also ${s.sides[0].name})` });
  return out;
}

/**
 * Facings at set-up [13.9]: every infantry long counter and artillery unit faces one of its area's conformations (one
 * a long counter fits [13.8]), except in an all-around area [13.92]; cavalry and short counters take none [13.94].
 */
function facingProblems(
  a: Area,
  p: Scenario['setup'][0][number],
  pp: string,
  defs: ReadonlyMap<string, UnitJson>,
): Problem[] {
  const out: Problem[] = [];
  p.units.forEach((u, j) => {
    const d = defs.get(u);
    const pc = d && pieceAt(d, d.startStep);
    if (!d || !pc) return;
    const conf = p.facing[u];
    const path = `${pp}.facing.${u}`;
    if (pc.lc && !a.allAround && !a.conformations.some((c) => c.fitsLong)) {
      out.push({
        path: `${pp}.units[${j}]`,
        message: `no conformation of area ${a.id} fits a long counter, so "${u}" may not be placed there [13.8, 13.81]`,
      });
      return;
    }
    if (!pc.lc && d.kind !== 'artillery') {
      if (conf !== undefined)
        out.push({
          path,
          message: `"${u}" takes no facing: cavalry and short counters face in all directions [13.94]`,
        });
      return;
    }
    if (a.allAround) {
      if (conf !== undefined)
        out.push({
          path,
          message: `area ${a.id} is an all-around area: "${u}" faces in all directions there and takes no facing [13.92]`,
        });
      return;
    }
    if (conf === undefined) {
      if (a.conformations.length)
        out.push({
          path,
          message: `"${u}" is set up without a facing: long counters and artillery are placed facing one of the area's conformations [13.9]`,
        });
      return;
    }
    const c = a.conformations.find((x) => x.id === conf);
    if (!c) out.push({ path, message: `area ${a.id} has no conformation "${conf}" [13.8, 13.9]` });
    else if (pc.lc && !c.fitsLong)
      out.push({ path, message: `conformation "${conf}" of area ${a.id} does not fit a long counter [13.8]` });
  });
  return out;
}

/**
 * One side's pieces in one area against the area's limits: strength points [13.61], infantry long counters [13.63,
 * 13.7] and conformations the map excludes together [13.93]. Long counters may share a facing where the map does not
 * exclude it (see the README's rulings).
 */
function stackProblems(a: Area, pieces: readonly Piece[], path: string, who: string): Problem[] {
  const out: Problem[] = [];
  const sp = pieces.reduce((t, x) => t + x.sp, 0);
  const lcs = pieces.filter((x) => x.lc);
  if (!spFits(a, sp))
    out.push({
      path,
      message: `${who} ${sp} SP in area ${a.id}: more than its stacking limit of ${a.stack.max} [13.6, 13.61]`,
    });
  if (!longCountersFit(a, lcs.length))
    out.push({
      path,
      message: `${who} ${lcs.length} infantry long counters in area ${a.id} (${lcs.map((x) => x.id).join(', ')}): it holds ${a.stack.maxLC} [13.63, 13.7]`,
    });
  if (!a.allAround)
    lcs.forEach((x, i) =>
      lcs.slice(i + 1).forEach((y) => {
        if (x.conf !== null && y.conf !== null && excludes(a, x.conf, y.conf))
          out.push({
            path,
            message: `${x.id} (${x.conf}) and ${y.id} (${y.conf}) hold conformations of area ${a.id} that cannot be held together [13.93]`,
          });
      }),
    );
  return out;
}

/** One side's set-up in one area (keyed "side:area"): its pieces, and the first placement naming the area. */
interface SetupStack {
  readonly side: 0 | 1;
  readonly area: number;
  readonly path: string;
  pieces: readonly Piece[];
}

/** Each side's set-up by area: its pieces with their facings, and the first placement naming the area. */
function setupStacks(s: Scenario, map: AreaMap, defs: ReadonlyMap<string, UnitJson>): Map<string, SetupStack> {
  const stacks = new Map<string, SetupStack>();
  s.setup.forEach((list, si) =>
    list.forEach((p, i) => {
      if (!map.areas.has(p.area)) return;
      const key = `${si}:${p.area}`;
      const st = stacks.get(key) ?? { side: si as 0 | 1, area: p.area, path: `$.setup[${si}][${i}]`, pieces: [] };
      stacks.set(key, st);
      for (const u of p.units) {
        const d = defs.get(u);
        const pc = d && pieceAt(d, d.startStep);
        if (pc && !st.pieces.some((x) => x.id === u))
          st.pieces = [...st.pieces, { id: u, ...pc, conf: p.facing[u] ?? null }];
      }
    }),
  );
  return stacks;
}

/**
 * Both sides in one area at set-up: a unit may never be in an area with enemy combat units [13.12]; a lone leader
 * there would be displaced [3.13]; an HQ keeps enemy units out.
 */
function bothSidesProblems(s: Scenario, map: AreaMap): Problem[] {
  const out: Problem[] = [];
  const at = (si: 0 | 1, area: number) => s.setup[si].filter((p) => p.area === area);
  s.setup[1].forEach((p, i) => {
    if (!map.areas.has(p.area) || s.setup[1].findIndex((x) => x.area === p.area) !== i) return;
    const mine = at(1, p.area);
    const theirs = at(0, p.area);
    if (!theirs.length) return;
    const units = [theirs.some((x) => x.units.length > 0), mine.some((x) => x.units.length > 0)];
    const leaders = [theirs.some((x) => x.leaders.length > 0), mine.some((x) => x.leaders.length > 0)];
    const hq = [theirs.some((x) => x.hq), mine.some((x) => x.hq)];
    const path = `$.setup[1][${i}]`;
    const both = `area ${p.area} is set up with ${s.sides[0].name} and ${s.sides[1].name} pieces`;
    if (units[0] && units[1])
      out.push({ path, message: `${both}: a unit may never be in an area with enemy combat units [13.12]` });
    else if ((units[0] && hq[1]) || (units[1] && hq[0]))
      out.push({ path, message: `${both}: enemy units may not be in an area with an HQ (A-56)` });
    else if ((units[0] && leaders[1]) || (units[1] && leaders[0]))
      out.push({
        path,
        message: `${both}: leaders alone with enemy units are displaced [3.13], so they may not start there`,
      });
  });
  return out;
}

/**
 * Deployments made at set-up [11.31], applied in the engine's order: the parent gives up the alternates' steps and
 * they appear in its area, a long counter taking the first conformation free there, artillery the area's first
 * (deploy.ts); the area must still hold them [13.6, 13.7, 13.72].
 */
function deploymentStackProblems(
  s: Scenario,
  map: AreaMap,
  defs: ReadonlyMap<string, UnitJson>,
  stacks: ReadonlyMap<string, SetupStack>,
  bad: ReadonlySet<string>,
): Problem[] {
  const out: Problem[] = [];
  s.sides.forEach((side, si) =>
    side.deployments.forEach((d, j) => {
      const dp = `$.sides[${si}].deployments[${j}]`;
      const parent = defs.get(d.parent);
      const kids = d.units.map((u) => defs.get(u));
      const st = [...stacks.values()].find((x) => x.side === si && x.pieces.some((y) => y.id === d.parent));
      if (!d.atStart || !parent || !st || kids.some((k) => !k)) return;
      const k = kids.reduce((t, c) => t + (c!.steps.length - c!.startStep), 0);
      const pc = pieceAt(parent, parent.startStep + k);
      if (!pc) return; // the parent cannot give up the steps (reported above)
      const a = map.area(st.area);
      const pieces = st.pieces.map((x) => (x.id === d.parent ? { ...x, ...pc } : x));
      for (const c of kids) {
        const cp = pieceAt(c!, c!.startStep);
        if (!cp) return;
        const taken = pieces.filter((x) => x.lc && x.conf !== null).map((x) => x.conf!);
        const conf = a.allAround
          ? null
          : cp.lc
            ? (freeConformations(a, taken)[0]?.id ?? null)
            : c!.kind === 'artillery'
              ? (a.conformations[0]?.id ?? null)
              : null;
        if (cp.lc && !a.allAround && conf === null)
          out.push({
            path: `${dp}.units`,
            message: `alternate "${c!.id}" would appear in area ${a.id} with no conformation free for a long counter [11.31, 13.72, 13.8]`,
          });
        pieces.push({ id: c!.id, ...cp, conf });
      }
      if (!bad.has(`${si}:${st.area}`))
        out.push(...stackProblems(a, pieces, dp, `after deploying ${d.id} at set-up [11.31], ${side.name}`));
      st.pieces = pieces; // later deployments see this one [11.31]
    }),
  );
  return out;
}

/** The set-up on the map: facings, stacking and conformation per side and area, both sides apart, deployments at set-up. */
export function setupProblems(s: Scenario, map: AreaMap): Problem[] {
  const out: Problem[] = [];
  const defs = unitIndex(s);
  s.setup.forEach((list, si) =>
    list.forEach(
      (p, i) => map.areas.has(p.area) && out.push(...facingProblems(map.area(p.area), p, `$.setup[${si}][${i}]`, defs)),
    ),
  );
  const stacks = setupStacks(s, map, defs);
  const bad = new Set<string>();
  for (const [key, st] of stacks) {
    const ps = stackProblems(map.area(st.area), st.pieces, st.path, `${s.sides[st.side].name} set up`);
    if (ps.length) bad.add(key);
    out.push(...ps);
  }
  out.push(...bothSidesProblems(s, map), ...deploymentStackProblems(s, map, defs, stacks, bad));
  return out;
}

/**
 * A reinforcement group must fit its entry area on its own [13.6, 13.7]: the engine brings a group on whole, its
 * long counters each taking a conformation no other holds (flow.ts), so a group too big for an empty entry area
 * could never arrive legally (A-51's overflow is not implemented; see the README).
 */
export function reinforcementGroupProblems(s: Scenario, map: AreaMap): Problem[] {
  const out: Problem[] = [];
  const defs = unitIndex(s);
  s.reinforcements.forEach((r, i) => {
    if (!map.areas.has(r.area)) return;
    const a = map.area(r.area);
    const pieces = r.units.flatMap((u) => {
      const d = defs.get(u);
      const pc = d && pieceAt(d, d.startStep);
      return pc ? [{ id: u, ...pc, conf: null }] : [];
    });
    const rp = `$.reinforcements[${i}]`;
    out.push(...stackProblems(a, pieces, rp, `reinforcement group ${r.id} brings`));
    const lcs = pieces.filter((x) => x.lc).length;
    if (lcs && !a.allAround && longCountersFit(a, lcs) && freeConformations(a, []).length < lcs)
      out.push({
        path: rp,
        message: `reinforcement group ${r.id} brings ${lcs} infantry long counters into area ${a.id}, which has ${freeConformations(a, []).length} conformation(s) for them [13.72, 13.8]`,
      });
  });
  return out;
}

/** Turn-indexed data within the turn track [2.4]: the weather table's first turn [5.0] (reinforcements are checked with their groups [6.0]). */
export function turnProblems(s: Scenario): Problem[] {
  const out: Problem[] = [];
  const from = s.weather.fromTurn;
  if (from !== undefined && from > s.turns.length)
    out.push({
      path: '$.weather.fromTurn',
      message: `the weather table starts on turn ${from}, after the last turn (${s.turns.length}) [2.4, 5.0]`,
    });
  if (from !== undefined && !s.weather.table)
    out.push({
      path: '$.weather.fromTurn',
      message: 'fromTurn names the turn the weather table is first rolled, but there is no table [5.0]',
    });
  return out;
}

/** Victory data: objectives on the map and listed once, initial control of objectives only, army commanders known. */
export function victoryProblems(s: Scenario): Problem[] {
  const out: Problem[] = [];
  const v = s.victory;
  const seen = new Set<number>();
  v.objectives.forEach((o, i) => {
    if (seen.has(o.area))
      out.push({
        path: `$.victory.objectives[${i}].area`,
        message: `area ${o.area} is already an objective: each objective is listed once (A-53)`,
      });
    seen.add(o.area);
  });
  for (const k of Object.keys(v.control))
    if (!v.objectives.some((o) => String(o.area) === k))
      out.push({
        path: `$.victory.control[${JSON.stringify(k)}]`,
        message: `"${k}" is not an objective area: the scenario gives the first holder of its objectives (A-53)`,
      });
  for (const k of Object.keys(v.vp.armyCommander))
    if (!s.sides.some((side) => side.leaders.some((l) => l.id === k)))
      out.push({ path: `$.victory.vp.armyCommander[${JSON.stringify(k)}]`, message: `unknown leader "${k}" (A-53)` });
  return out;
}

/** A map is at most this many map inches a side: a few map sheets [2.4: one map inch is 370 to 500 yards]. */
const MAX_MAP_SIZE = 500;

/**
 * The embedded map's coordinates lie on the map: its size within MAX_MAP_SIZE, and every area's centre and polygon
 * corner inside it (paths under $.mapData, where the catalog embeds the map file).
 */
export function mapProblems(map: AreaMap): Problem[] {
  const out: Problem[] = [];
  const [w, h] = map.json.size;
  if (w > MAX_MAP_SIZE || h > MAX_MAP_SIZE)
    out.push({
      path: '$.mapData.size',
      message: `map ${map.id} is ${w}×${h}: a map is at most ${MAX_MAP_SIZE}×${MAX_MAP_SIZE} map inches`,
    });
  const off = ([x, y]: readonly number[], path: string, what: string) => {
    if (!(x! >= 0 && x! <= w && y! >= 0 && y! <= h))
      out.push({ path, message: `${what} (${x}, ${y}) is off the ${w}×${h} map ${map.id}` });
  };
  map.json.areas.forEach((a, i) => {
    const p = `$.mapData.areas[${i}]`;
    off(a.center, `${p}.center`, `the centre of area ${a.id}`);
    a.polygon?.forEach((pt, k) => off(pt, `${p}.polygon[${k}]`, `corner ${k} of area ${a.id}`));
  });
  return out;
}
