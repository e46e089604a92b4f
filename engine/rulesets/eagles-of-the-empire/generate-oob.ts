/**
 * Random orders of battle for Eagles of the Empire's scenario generator (generate.ts): command structures [3.32],
 * HQs with or without a Chief of Staff and reserves, formations, intermediate commands and forces [2.2, 2.3],
 * leaders with their ratings [2.21, 2.22] and officers [9.5, 15.3], units with their step tracks [2.3 Steps]: infantry
 * long and short counters, cavalry of every class, artillery of every kind. Pure: every draw comes from `u`.
 */
import { type Uniform, chance, int, pick, weighted } from '../../core/draw.ts';

export type Side = 0 | 1;
export type Json = Record<string, unknown>;

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

export interface Unit {
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

export interface Formation {
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
export function startSp(x: Unit): number {
  return Number(/\d+/.exec(x.steps[x.startStep ?? 0]!)![0]);
}
/** An infantry long counter at its starting step (a long counter reduced to a short step stacks as a short one). */
export function isLongAtStart(x: Unit): boolean {
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

export interface Oob {
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
export function unitsUnder(f: Formation): Unit[] {
  return [...f.units, ...f.forces.flatMap(unitsUnder)];
}
export function allFormations(fs: readonly Formation[]): Formation[] {
  return fs.flatMap((f) => [f, ...allFormations(f.forces)]);
}

const NATIONS = ['French', 'Russian', 'Austrian', 'Prussian', 'British', 'Bavarian', 'Saxon'];

export function drawOob(u: Uniform, p: Side): Oob {
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
