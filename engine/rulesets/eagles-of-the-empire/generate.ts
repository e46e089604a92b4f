/**
 * Random scenarios for Eagles of the Empire (`Game.randomScenario`) on the shipped map (or any map in the same
 * format, `randomScenarioOn`): orders of battle of every shape the format allows — command structures, HQs with or
 * without a Chief of Staff and reserves, formations, intermediate commands, forces, off-map division leaders, artillery,
 * subordinate, staff and line officers; infantry long and short counters with their step tracks, cavalry of every
 * class, artillery of every kind, elite, guard, lancer, rifle and park units, extended-line markers — and set-ups:
 * each side in its own part of the map within the stacking limits [13.6] with the long counters' conformations
 * [13.9], reinforcements [6.0], alternate deployments [11.3], turn tracks, weather [5.0], the rules and victory
 * blocks and the rules configuration.
 *
 * The generator aims at valid files but does not call the validator: the generated-scenario soak validates each one
 * and reports what it refuses. The map is embedded as `mapData`, so a generated file is self-contained (the catalog
 * loads it as it is). Pure: every draw comes from `u`.
 */
import shippedMap from '../../../data/maps/eagles-of-the-empire/hohenwald-1809.json' with { type: 'json' };
import { type Uniform, chance, int, pick, shuffle, subset, weighted } from '../../core/draw.ts';
import { ADAPTATIONS, NAMED_OPTIONS } from './rules-config.ts';

/** The parts of a map file the generator reads. */
export interface GenMap {
  readonly id: string;
  readonly areas: readonly {
    readonly id: number;
    readonly center: readonly number[];
    readonly edge?: readonly string[];
    readonly allAround?: boolean;
    readonly stack: { readonly max: number; readonly maxLC: number };
    readonly conformations?: readonly { readonly id: string; readonly fitsLong?: boolean }[];
  }[];
}
type MapArea = GenMap['areas'][number];

type Side = 0 | 1;
type Json = Record<string, unknown>;

interface Leader {
  id: string;
  name: string;
  role: string;
  arm?: string;
  grade?: number;
  radius: number;
  tactical: number | string;
  initiative: number;
  isNapoleon?: boolean;
  canGrandCharge?: boolean;
}

interface Unit {
  id: string;
  name: string;
  kind: 'infantry' | 'cavalry' | 'artillery';
  counter?: 'long' | 'short';
  cavClass?: string;
  artKind?: string;
  steps: string[];
  startStep?: number;
  elite?: boolean;
  guard?: boolean;
  lancer?: boolean;
  rifle?: boolean;
  artilleryPark?: boolean;
  extendedLines?: { half?: number; third?: number };
}

interface Formation {
  id: string;
  name: string;
  kind: 'intermediate' | 'formation' | 'force' | 'hq';
  leader?: string;
  offMapLeaders: string[];
  units: Unit[];
  reserve?: boolean;
  forces: Formation[];
}

// ---------------------------------------------------------------------------------------------
// Units and step tracks [2.3 Steps]
// ---------------------------------------------------------------------------------------------

const LETTERS = 'abcdefgh';

/** SP of the unit's starting step (what it adds to its area's stacking total [13.6]). */
function startSp(x: Unit): number {
  return Number(/\d+/.exec(x.steps[x.startStep ?? 0]!)![0]);
}
/** An infantry long counter at its starting step (a long counter reduced to a short step stacks as a short one). */
function isLongAtStart(x: Unit): boolean {
  return x.kind === 'infantry' && x.counter === 'long' && /^[A-Z]/.test(x.steps[x.startStep ?? 0]!);
}
function stepsLeft(x: Unit): number {
  return x.steps.length - (x.startStep ?? 0);
}

/**
 * A step track of `n` steps, strongest first: SP falling by one a step, morale (when the kind has it) falling every
 * other step; the first `long` steps are capital letters (long-counter steps).
 */
function track(u: Uniform, n: number, top: number, long: number, morale: number | null): string[] {
  return Array.from({ length: n }, (_, i) => {
    const l = i < long ? LETTERS[i]!.toUpperCase() : LETTERS[i]!;
    const sp = Math.max(1, top - i);
    return morale === null
      ? `${l}${sp}`
      : `${l}${sp}-${Math.max(2, morale - Math.floor(i / 2) - (chance(u, 0.2) ? 1 : 0))}`;
  });
}

function infantryLong(u: Uniform, id: string, name: string): Unit {
  const n = int(u, 2, 5);
  const long = int(u, Math.max(1, n - 2), n);
  const x: Unit = {
    id,
    name,
    kind: 'infantry',
    counter: 'long',
    steps: track(u, n, n + int(u, 0, 1), long, int(u, 3, 6)),
  };
  if (long >= 2 && chance(u, 0.15)) x.startStep = 1; // a depleted division, still on a long step
  if (chance(u, 0.15)) x.elite = true;
  if (chance(u, 0.08)) x.guard = true;
  if (chance(u, 0.2))
    x.extendedLines = weighted(u, [
      [{ half: 1 }, 2],
      [{ third: 2 }, 1],
      [{ half: 1, third: 2 }, 2],
      [{ half: 1, third: 0 }, 0.5],
    ]);
  return x;
}

function infantryShort(u: Uniform, id: string, name: string): Unit {
  const n = int(u, 1, 2);
  const x: Unit = {
    id,
    name,
    kind: 'infantry',
    counter: 'short',
    steps: track(u, n, n + int(u, 0, 1), 0, int(u, 3, 5)),
  };
  if (chance(u, 0.3)) x.elite = true;
  if (chance(u, 0.3)) x.rifle = true;
  if (n === 2 && chance(u, 0.1)) x.startStep = 1;
  return x;
}

function cavalry(u: Uniform, id: string, name: string): Unit {
  const n = int(u, 1, 2);
  const x: Unit = {
    id,
    name,
    kind: 'cavalry',
    cavClass: weighted(u, [
      ['heavy', 2],
      ['medium', 1],
      ['light', 3],
      ['irregular', 1],
    ]),
    steps: track(u, n, n + int(u, 0, 1), 0, int(u, 3, 5)),
  };
  if (chance(u, 0.15)) x.lancer = true;
  if (chance(u, 0.1)) x.elite = true;
  if (chance(u, 0.05)) x.guard = true;
  return x;
}

function artillery(
  u: Uniform,
  id: string,
  name: string,
  kinds: readonly (readonly [string, number])[] = ART_KINDS,
): Unit {
  const n = int(u, 1, 2);
  const x: Unit = {
    id,
    name,
    kind: 'artillery',
    artKind: weighted(u, kinds),
    steps: track(u, n, n + int(u, 0, 1), 0, null),
  };
  if (chance(u, 0.08)) x.guard = true;
  return x;
}

const ART_KINDS = [
  ['foot', 3],
  ['heavy', 2],
  ['horse', 2],
  ['licorne', 1],
  ['mortar', 0.5],
  ['rocket', 0.5],
] as const;

// ---------------------------------------------------------------------------------------------
// Orders of battle [2.2, 2.3, 3.32]
// ---------------------------------------------------------------------------------------------

interface Oob {
  side: Json;
  leaders: Leader[];
  formations: Formation[];
  /** Alternates of deployments: in the OOB, never set up nor reinforcements [11.31]. */
  alternates: Set<string>;
  /** Deployment parents that deploy at set-up (they must be set up). */
  mustSetUp: Set<string>;
  hq: boolean;
  ac: string;
  cos: string | null;
}

function tactical(u: Uniform): number | string {
  return chance(u, 0.15) ? pick(u, ['1/2', '2/1', '0/1', '2/3']) : int(u, 0, 3);
}

/** Every unit of a formation and its forces. */
function unitsUnder(f: Formation): Unit[] {
  return [...f.units, ...f.forces.flatMap(unitsUnder)];
}
function allFormations(fs: readonly Formation[]): Formation[] {
  return fs.flatMap((f) => [f, ...allFormations(f.forces)]);
}

const NATIONS = ['French', 'Russian', 'Austrian', 'Prussian', 'British', 'Bavarian', 'Saxon'];

function drawOob(u: Uniform, p: Side): Oob {
  const P = p === 0 ? 'A' : 'B';
  const leaders: Leader[] = [];
  let nl = 0;
  let nu = 0;
  const leader = (role: string, arm: string, grade: number, radius: number, extra: Partial<Leader> = {}): string => {
    const id = `${P.toLowerCase()}-l${++nl}`;
    const l: Leader = {
      id,
      name: `${P} ${role} ${nl}`,
      role,
      radius,
      tactical: tactical(u),
      initiative: int(u, 0, 6),
      ...extra,
    };
    // arm and grade have defaults: sometimes written, sometimes left out
    if (arm !== 'general' || chance(u, 0.5)) l.arm = arm;
    if (grade !== 1 || chance(u, 0.5)) l.grade = grade;
    leaders.push(l);
    return id;
  };
  const uid = () => `${P}-u${++nu}`;
  const nation = pick(u, NATIONS);

  const ac = leader('armyCommander', 'general', int(u, 8, 10), int(u, 2, 5), {
    initiative: int(u, 2, 6),
    ...(chance(u, 0.1) ? { isNapoleon: true } : {}),
    ...(chance(u, 0.1) ? { canGrandCharge: true } : {}),
  });
  const hq = chance(u, 0.75);
  const cos = hq && chance(u, 0.7) ? leader('chiefOfStaff', 'general', int(u, 5, 6), int(u, 1, 3)) : null;

  const formations: Formation[] = [];
  if (hq) {
    const units = Array.from(
      {
        length: weighted(u, [
          [0, 1],
          [1, 2],
          [2, 3],
          [3, 2],
          [4, 1],
        ]),
      },
      () => {
        const id = uid();
        const kind = weighted(u, [
          ['art', 4],
          ['inf', 1.5],
          ['cav', 1],
        ] as const);
        if (kind === 'inf')
          return {
            ...infantryLong(u, id, `Reserve division ${id}`),
            ...(chance(u, 0.5) ? { guard: true, elite: true } : {}),
          };
        if (kind === 'cav') return cavalry(u, id, `Reserve cavalry ${id}`);
        const a = artillery(u, id, `Reserve battery ${id}`);
        return chance(u, 0.3) ? { ...a, artKind: 'foot', artilleryPark: true, steps: [pick(u, ['a1', 'a2'])] } : a;
      },
    );
    const f: Formation = { id: `${P}-hqf`, name: 'Army HQ', kind: 'hq', offMapLeaders: [], units, forces: [] };
    if (cos) f.leader = cos;
    if (chance(u, 0.7)) f.reserve = true;
    formations.push(f);
  }

  const nf = weighted(u, [
    [1, 2],
    [2, 4],
    [3, 3],
    [4, 1.5],
  ]);
  for (let i = 1; i <= nf; i++) {
    const type = weighted(u, [
      ['infantry', 5],
      ['cavalry', 2],
      ['mixed', 2],
    ] as const);
    const f: Formation = {
      id: `${P}-f${i}`,
      name: `${i}${i === 1 ? 'st' : i === 2 ? 'nd' : i === 3 ? 'rd' : 'th'} ${type === 'cavalry' ? 'Cavalry Corps' : 'Corps'}`,
      kind: 'formation',
      offMapLeaders: [],
      units: [],
      forces: [],
    };
    if (chance(u, 0.9))
      f.leader = leader(
        'formation',
        type === 'cavalry' ? 'cavalry' : pick(u, ['general', 'infantry']),
        int(u, 4, 7),
        int(u, 2, 4),
        type === 'cavalry' && chance(u, 0.3) ? { canGrandCharge: true } : {},
      );
    const add = (n: number, make: (id: string) => Unit) => Array.from({ length: n }, () => make(uid()));
    if (type === 'cavalry')
      f.units.push(
        ...add(int(u, 1, 4), (id) => cavalry(u, id, `Cavalry ${id}`)),
        ...add(int(u, 0, 1), (id) => artillery(u, id, `Horse battery ${id}`, [['horse', 1]])),
      );
    else {
      f.units.push(...add(int(u, type === 'mixed' ? 0 : 1, 3), (id) => infantryLong(u, id, `Division ${id}`)));
      f.units.push(
        ...add(
          weighted(u, [
            [0, 3],
            [1, 2],
            [2, 1],
          ]),
          (id) => infantryShort(u, id, `Light infantry ${id}`),
        ),
      );
      f.units.push(
        ...add(
          weighted(u, [
            [0, 2],
            [1, 3],
            [2, 1],
          ]),
          (id) => artillery(u, id, `Battery ${id}`),
        ),
      );
      f.units.push(
        ...add(
          type === 'mixed'
            ? int(u, 1, 3)
            : weighted(u, [
                [0, 3],
                [1, 1],
              ]),
          (id) => cavalry(u, id, `Cavalry ${id}`),
        ),
      );
      // forces [2.3]: brigades or divisions with their own leaders, activating with the formation
      for (
        let k = 1,
          nk = weighted(u, [
            [0, 3],
            [1, 2],
            [2, 1],
          ]);
        k <= nk;
        k++
      ) {
        const force: Formation = {
          id: `${f.id}-${k}`,
          name: `Force ${f.id}-${k}`,
          kind: 'force',
          offMapLeaders: [],
          units: [],
          forces: [],
        };
        if (chance(u, 0.85))
          force.leader = leader('force', pick(u, ['infantry', 'cavalry']), int(u, 3, 4), int(u, 1, 2));
        force.units.push(
          ...add(int(u, 1, 3), (id) => pick(u, [infantryLong, infantryShort, cavalry, artillery])(u, id, `Unit ${id}`)),
        );
        f.forces.push(force);
      }
      for (
        let k = 0,
          nk = weighted(u, [
            [0, 3],
            [1, 1],
            [2, 1],
          ]);
        k < nk;
        k++
      )
        f.offMapLeaders.push(leader('divisionBrigade', 'infantry', int(u, 3, 4), int(u, 1, 2)));
    }
    if (!unitsUnder(f).length) f.units.push(infantryLong(u, uid(), 'Division'));
    formations.push(f);
  }
  // an intermediate command over two formations, now and then [3.32]
  const plain = formations.filter((f) => f.kind === 'formation');
  if (plain.length >= 2 && chance(u, 0.15)) {
    const under = plain.slice(0, 2);
    const inter: Formation = {
      id: `${P}-wing`,
      name: 'Wing',
      kind: 'intermediate',
      offMapLeaders: [],
      units: [],
      forces: under,
    };
    if (chance(u, 0.85)) inter.leader = leader('intermediate', 'general', int(u, 6, 8), int(u, 2, 4));
    formations.splice(formations.indexOf(under[0]!), 2, inter);
  }
  if (chance(u, 0.3)) leader('artillery', 'artillery', int(u, 2, 4), 0);
  if (chance(u, 0.1)) leader('subordinate', pick(u, ['general', 'infantry', 'cavalry']), int(u, 2, 4), int(u, 1, 2));
  const staff = Array.from({ length: hq ? int(u, 0, 2) : 0 }, () => leader('staffOfficer', 'general', 2, 1));
  const line = Array.from({ length: int(u, 0, 2) }, () => leader('lineOfficer', 'general', 1, 1));

  // alternate deployments [11.3]: a long counter gives up steps to short counters that join its formation
  const deployments: Json[] = [];
  const alternates = new Set<string>();
  const mustSetUp = new Set<string>();
  for (const f of allFormations(formations)) {
    if (!chance(u, 0.2)) continue;
    const parent = f.units.find((x) => isLongAtStart(x) && stepsLeft(x) >= 3 && !x.extendedLines);
    if (!parent) continue;
    const n = stepsLeft(parent) >= 4 && chance(u, 0.3) ? 2 : 1;
    const alts = Array.from({ length: n }, (): Unit => {
      const { startStep: _, ...x } = infantryShort(u, uid(), `Detachment of ${parent.id}`);
      return { ...x, steps: [pick(u, ['a1-4', 'a1-5', 'a1-3'])] };
    });
    f.units.push(...alts);
    alts.forEach((a) => alternates.add(a.id));
    const d: Json = { id: `${parent.id}-det`, parent: parent.id, units: alts.map((a) => a.id) };
    if (chance(u, 0.3)) {
      d.atStart = true;
      mustSetUp.add(parent.id);
    }
    deployments.push(d);
  }

  const side: Json = { name: nation, nationality: nation };
  const structure = weighted(u, [
    [undefined, 1],
    ['rigid', 2],
    ['semi-rigid', 2],
    ['flexible', 2],
    ['absolute', 1],
  ] as const);
  if (structure) side.structure = structure;
  side.leaders = leaders;
  side.armyCommander = ac;
  if (hq) side.hq = { id: `${P}-hq`, name: `${nation} HQ`, radius: int(u, 1, 4) };
  if (cos) side.chiefOfStaff = cos;
  side.formations = formations;
  if (staff.length || chance(u, 0.3)) side.staffOfficers = staff;
  if (line.length || chance(u, 0.3)) side.lineOfficers = line;
  if (deployments.length) side.deployments = deployments;
  if (chance(u, 0.7))
    side.allow = { square: chance(u, 0.85), reverseSlope: chance(u, 0.5), massedColumn: chance(u, 0.4) };
  return { side, leaders, formations, alternates, mustSetUp, hq, ac, cos };
}

// ---------------------------------------------------------------------------------------------
// Set-up: zones, stacking, conformations, reinforcements
// ---------------------------------------------------------------------------------------------

/**
 * Each side's part of the map: the areas on its side of a cut across the map (west/east or north/south, either side
 * either way round), with a no-man's land between them now and then. The two parts never share an area.
 */
function drawZones(u: Uniform, map: GenMap): [MapArea[], MapArea[]] {
  const axis = chance(u, 0.7) ? 0 : 1;
  const coords = [...new Set(map.areas.map((a) => a.center[axis]!))].sort((a, b) => a - b);
  const n = coords.length;
  const k = int(u, 1, Math.max(1, Math.floor(n / 2)));
  const m = int(u, 1, Math.max(1, Math.min(Math.floor(n / 2), n - k)));
  const low = map.areas.filter((a) => a.center[axis]! <= coords[k - 1]!);
  const high = map.areas.filter((a) => a.center[axis]! >= coords[n - m]!);
  return chance(u, 0.5) ? [low, high] : [high, low];
}

/** Conformation ids toward the enemy, by the direction from my zone's middle to theirs (names of the shipped map). */
function towardEnemy(mine: readonly MapArea[], theirs: readonly MapArea[]): string {
  const mid = (as: readonly MapArea[]) => [0, 1].map((i) => as.reduce((t, a) => t + a.center[i]!, 0) / as.length);
  const [ax, ay] = mid(mine);
  const [bx, by] = mid(theirs);
  return Math.abs(bx! - ax!) >= Math.abs(by! - ay!) ? (bx! > ax! ? 'E' : 'W') : by! > ay! ? 'S' : 'N';
}

interface Placement {
  area: number;
  units: string[];
  leaders: string[];
  hq: boolean;
  facing: Record<string, string>;
  sp: number;
  lcs: number;
}

/**
 * Set-up of one side: each formation's units from an anchor area outward, every area within its SP and long-counter
 * limits [13.6, 13.7] with a distinct conformation per long counter [13.9]; units that fit nowhere come later as
 * reinforcements. Leaders stand with their troops, the army commander and Chief of Staff with the HQ.
 */
function setUpSide(
  u: Uniform,
  o: Oob,
  zone: readonly MapArea[],
  front: string,
  turns: number,
  side: Side,
): { setup: Json[]; reinforcements: Json[] } {
  const at = new Map<number, Placement>();
  const slot = (a: MapArea) => {
    let pl = at.get(a.id);
    if (!pl) at.set(a.id, (pl = { area: a.id, units: [], leaders: [], hq: false, facing: {}, sp: 0, lcs: 0 }));
    return pl;
  };
  const where = new Map<string, number>(); // unit or leader → area at set-up
  const reinforcements: { units: string[]; leaders: string[]; reserve: boolean; hqUnits: boolean }[] = [];

  // whole formations or forces (with their leader) arrive later, now and then [6.0]
  const late = new Set<string>();
  const lateLeaders = new Set<string>();
  for (const f of allFormations(o.formations)) {
    if (f.kind === 'intermediate' || !chance(u, turns > 1 ? 0.15 : 0.05)) continue;
    const us = unitsUnder(f).filter((x) => !o.alternates.has(x.id) && !late.has(x.id) && !o.mustSetUp.has(x.id));
    if (!us.length) continue;
    us.forEach((x) => late.add(x.id));
    const ls = f.leader && !lateLeaders.has(f.leader) ? [f.leader] : [];
    ls.forEach((l) => lateLeaders.add(l));
    reinforcements.push({
      units: us.map((x) => x.id),
      leaders: ls,
      reserve: f.kind === 'hq' && !!f.reserve && chance(u, 0.5),
      hqUnits: f.kind === 'hq',
    });
  }

  const byId = new Map(allFormations(o.formations).flatMap((f) => f.units.map((x) => [x.id, x] as const)));
  /** A free conformation for `x` in the area: long counters each need their own [13.9]; artillery may share. */
  const conformationFor = (a: MapArea, pl: Placement | undefined, x: Unit): string | null => {
    const confs = (a.conformations ?? []).filter((c) => !isLongAtStart(x) || c.fitsLong !== false);
    const taken = new Set(
      Object.entries(pl?.facing ?? {})
        .filter(([id]) => isLongAtStart(byId.get(id)!))
        .map(([, c]) => c),
    );
    const free = confs.filter((c) => !isLongAtStart(x) || !taken.has(c.id)).map((c) => c.id);
    if (!free.length) return null;
    return free.includes(front) && chance(u, 0.75) ? front : pick(u, free);
  };

  const fits = (a: MapArea, x: Unit): boolean => {
    const pl = at.get(a.id);
    const sp = (pl?.sp ?? 0) + startSp(x);
    const lcs = (pl?.lcs ?? 0) + (isLongAtStart(x) ? 1 : 0);
    if (sp > a.stack.max || lcs > a.stack.maxLC) return false;
    return !isLongAtStart(x) || !!a.allAround || conformationFor(a, pl, x) !== null;
  };
  const put = (a: MapArea, x: Unit) => {
    const pl = slot(a);
    pl.units.push(x.id);
    pl.sp += startSp(x);
    if (isLongAtStart(x)) pl.lcs++;
    // [13.9] long counters and artillery take a conformation (none in an area that faces all round)
    if (!a.allAround && (isLongAtStart(x) || x.kind === 'artillery')) {
      const c = conformationFor(a, pl, x);
      if (c) pl.facing[x.id] = c;
    }
    where.set(x.id, a.id);
  };

  const overflow: string[] = [];
  for (const f of shuffle(u, allFormations(o.formations))) {
    const anchor = pick(u, zone);
    const order = [
      anchor,
      ...shuffle(
        u,
        zone.filter((a) => a !== anchor),
      ),
    ];
    for (const x of f.units) {
      if (o.alternates.has(x.id) || late.has(x.id)) continue;
      const a = order.find((z) => fits(z, x));
      if (a) put(a, x);
      else if (o.mustSetUp.has(x.id))
        return { setup: [], reinforcements: [] }; // cannot honour the deployment: the caller draws again
      else overflow.push(x.id);
    }
  }
  if (overflow.length) reinforcements.push({ units: overflow, leaders: [], reserve: false, hqUnits: false });

  // the HQ toward the rear: the zone area farthest from the front line, often
  const hqArea = o.hq ? (chance(u, 0.6) ? rearmost(zone, front) : pick(u, zone)) : null;
  if (hqArea) slot(hqArea).hq = true;
  const placeLeader = (l: string, a: MapArea | undefined) => {
    if (!a) return;
    slot(a).leaders.push(l);
    where.set(l, a.id);
  };
  const zoneArea = (id: number | undefined) => zone.find((a) => a.id === id);
  const withTroops = () =>
    zoneArea(
      pick(
        u,
        [...at.values()]
          .filter((pl) => pl.units.length)
          .map((pl) => pl.area)
          .concat(zone.map((a) => a.id)),
      ),
    );
  placeLeader(o.ac, hqArea && chance(u, 0.7) ? hqArea : withTroops());
  if (o.cos && !lateLeaders.has(o.cos)) placeLeader(o.cos, hqArea && chance(u, 0.8) ? hqArea : withTroops());
  const walk = (fs: readonly Formation[]) => {
    for (const f of fs) {
      walk(f.forces);
      if (!f.leader || where.has(f.leader) || lateLeaders.has(f.leader)) continue;
      const first =
        unitsUnder(f)
          .map((x) => where.get(x.id))
          .find((a) => a !== undefined) ??
        (f.forces.map((c) => c.leader && where.get(c.leader)).find((a) => a) || undefined);
      if (first !== undefined) placeLeader(f.leader, zoneArea(first));
      else if (chance(u, 0.7)) placeLeader(f.leader, withTroops());
      // else: off the map until replaced
    }
  };
  walk(o.formations);
  for (const l of o.leaders)
    if ((l.role === 'artillery' || l.role === 'subordinate') && chance(u, 0.8))
      placeLeader(l.id, hqArea && chance(u, 0.5) ? hqArea : withTroops());

  const setup = shuffle(u, [...at.values()]).map((pl) => {
    const j: Json = { area: pl.area, units: pl.units, leaders: pl.leaders };
    if (pl.hq || chance(u, 0.3)) j.hq = pl.hq;
    if (Object.keys(pl.facing).length || chance(u, 0.3)) j.facing = pl.facing;
    return j;
  });

  // reinforcements enter at map-edge areas of the zone when it has some [6.0]; a group must fit its entry area on its
  // own [13.6, 13.7], so a big one comes as several groups on the same turn (its leaders with the first)
  const edges = zone.filter((a) => a.edge?.length);
  const rjson: Json[] = [];
  for (const r of reinforcements) {
    const area = pick(u, edges.length && chance(u, 0.85) ? edges : zone);
    const turn = int(u, Math.min(2, turns), turns);
    for (const [k, units] of chunks(
      r.units.map((id) => byId.get(id)!),
      area,
    ).entries()) {
      const j: Json = {
        id: `${side === 0 ? 'a' : 'b'}-r${rjson.length + 1}`,
        side,
        turn,
        area: area.id,
        units: units.map((x) => x.id),
      };
      const leaders = k === 0 ? r.leaders : [];
      if (leaders.length || chance(u, 0.3)) j.leaders = leaders;
      if (r.reserve) j.reserve = true;
      rjson.push(j);
    }
  }
  return { setup, reinforcements: rjson };
}

/** Units split, in order, into groups that each fit an empty `area` (SP and long counters [13.6, 13.7]). */
function chunks(units: readonly Unit[], area: MapArea): Unit[][] {
  const maxLC = area.allAround
    ? area.stack.maxLC
    : Math.min(area.stack.maxLC, (area.conformations ?? []).filter((c) => c.fitsLong !== false).length);
  const out: Unit[][] = [];
  let cur: Unit[] = [];
  const sp = (g: readonly Unit[]) => g.reduce((t, x) => t + startSp(x), 0);
  const lcs = (g: readonly Unit[]) => g.filter(isLongAtStart).length;
  for (const x of units) {
    const next = [...cur, x];
    if (cur.length && (sp(next) > area.stack.max || lcs(next) > maxLC)) {
      out.push(cur);
      cur = [x];
    } else cur = next;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** The zone area farthest from the front (ties: the first). */
function rearmost(zone: readonly MapArea[], front: string): MapArea {
  const depth = (a: MapArea) =>
    front === 'E' ? -a.center[0]! : front === 'W' ? a.center[0]! : front === 'S' ? -a.center[1]! : a.center[1]!;
  return zone.reduce((best, a) => (depth(a) > depth(best) ? a : best));
}

// ---------------------------------------------------------------------------------------------
// Turns, weather, rules, victory, options
// ---------------------------------------------------------------------------------------------

function drawTurns(u: Uniform): Json[] {
  const n = weighted(u, [
    [1, 0.5],
    [2, 1.5],
    [3, 3],
    [4, 2],
    [5, 1.5],
    [6, 1],
    [8, 0.5],
  ]);
  const h0 = int(u, 5, 17);
  return Array.from({ length: n }, (_, i) => {
    const h = h0 + i;
    const hour =
      i === n - 1 && h >= 20 && chance(u, 0.5) ? `${h}:00-${h + 2}:00` : `${String(h % 24).padStart(2, '0')}:00`;
    const time = h < 7 ? 'dawn' : h < 18 ? 'day' : h < 19 ? 'dusk' : 'night';
    return time === 'day' && chance(u, 0.5) ? { hour } : { hour, time };
  });
}

const WEATHER = [
  ['clear', 6],
  ['rain', 1.5],
  ['fog', 1],
  ['snow', 1],
] as const;

function drawWeather(u: Uniform, turns: number): Json | undefined {
  const k = weighted(u, [
    ['none', 2],
    ['fixed', 2],
    ['table', 2],
  ] as const);
  if (k === 'none') return undefined;
  const w: Json = { initial: weighted(u, WEATHER) };
  if (k === 'table') {
    w.fromTurn = int(u, 1, turns);
    w.table = Array.from({ length: 6 }, () => weighted(u, WEATHER));
  }
  return w;
}

function drawRules(u: Uniform): Json | undefined {
  if (chance(u, 0.2)) return undefined;
  const r: Json = { rout: chance(u, 0.6), villagesBlockLos: chance(u, 0.3) };
  if (chance(u, 0.3)) r.mediumAsLight = true; // A-59: only the series rules' reading is played
  if (chance(u, 0.3)) r.irregularAsLight = true;
  r.hqArtilleryBonus = subset(u, [0, 1], int(u, 0, 2));
  return r;
}

function drawVictory(u: Uniform, map: GenMap, zones: readonly (readonly MapArea[])[], acs: readonly string[]): Json {
  const vp: Json = {};
  if (chance(u, 0.5))
    Object.assign(vp, { step: int(u, 1, 2), artilleryUnit: int(u, 1, 3), leader: int(u, 2, 4), hq: int(u, 3, 5) });
  if (chance(u, 0.6))
    vp.armyCommander = Object.fromEntries(acs.filter(() => chance(u, 0.8)).map((id) => [id, int(u, 3, 8)]));
  const objs = subset(
    u,
    map.areas,
    weighted(u, [
      [0, 1],
      [1, 2],
      [2, 2],
      [3, 1],
    ]),
  );
  const control: Record<string, Side> = {};
  for (const a of objs) {
    const owner = zones.findIndex((z) => z.includes(a));
    if (owner >= 0 && chance(u, 0.7)) control[String(a.id)] = owner as Side;
    else if (chance(u, 0.2)) control[String(a.id)] = int(u, 0, 1) as Side;
  }
  const marginal = int(u, 1, 5);
  const v: Json = {
    vp,
    objectives: objs.map((a) => ({ area: a.id, vp: [int(u, 1, 6), int(u, 0, 4)] })),
    thresholds: { decisive: marginal + int(u, 0, 8), marginal },
  };
  if (Object.keys(control).length || chance(u, 0.3)) v.control = control;
  return v;
}

/** The rules configuration: named options with a value the engine plays, and adaptations stated as "digest". */
function drawOptions(u: Uniform): Json | undefined {
  if (chance(u, 0.3)) return undefined;
  const o: Json = {};
  for (const [name, def] of Object.entries(NAMED_OPTIONS))
    if (chance(u, 0.35)) o[name] = pick(u, def.implemented as readonly (string | boolean)[]);
  for (const [id] of subset(
    u,
    ADAPTATIONS,
    weighted(u, [
      [0, 3],
      [1, 1],
      [3, 1],
    ]),
  ))
    o[id] = 'digest';
  return o;
}

// ---------------------------------------------------------------------------------------------
// The scenario
// ---------------------------------------------------------------------------------------------

/** A random scenario on `map` (the map file's JSON, embedded as `mapData`). */
export function randomScenarioOn(u: Uniform, map: GenMap): unknown {
  const tag = Math.floor(u() * 36 ** 6).toString(36);
  const turns = drawTurns(u);
  for (let attempt = 0; ; attempt++) {
    const zones = drawZones(u, map);
    const oobs = [drawOob(u, 0), drawOob(u, 1)];
    const fronts = [towardEnemy(zones[0], zones[1]), towardEnemy(zones[1], zones[0])];
    const sets = ([0, 1] as const).map((p) => setUpSide(u, oobs[p]!, zones[p], fronts[p]!, turns.length, p));
    if (sets.some((s) => !s.setup.length) && attempt < 20) continue;
    const sc: Json = {
      ruleset: 'eagles-of-the-empire',
      id: `generated-${tag}`,
      title: `Generated scenario ${tag}`,
      description: `Random orders of battle and set-ups on ${map.id}.`,
      map: map.id,
      sides: oobs.map((o) => o.side),
      setup: sets.map((s) => s.setup),
      turns,
    };
    const weather = drawWeather(u, turns.length);
    if (weather) sc.weather = weather;
    const reinforcements = sets.flatMap((s) => s.reinforcements);
    if (reinforcements.length || chance(u, 0.3)) sc.reinforcements = reinforcements;
    const rules = drawRules(u);
    if (rules) sc.rules = rules;
    sc.victory = drawVictory(
      u,
      map,
      zones,
      oobs.map((o) => o.ac),
    );
    const options = drawOptions(u);
    if (options) sc.options = options;
    sc.mapData = map;
    return sc;
  }
}

/** A random scenario on the shipped map (data/maps/eagles-of-the-empire/hohenwald-1809.json). */
export function randomScenario(u: Uniform): unknown {
  return randomScenarioOn(u, shippedMap as unknown as GenMap);
}
