/**
 * The random scenario generator (`randomScenario`): every drawn file validates and its initial state builds, units
 * stand clear of blocks, rivers and each other, the draws cover the scenario format, the generator is deterministic,
 * and generated scenarios play whole random games to the end.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { type Vec, polygonPolylineDistance, polygonsOverlap } from '../../geometry/geometry.ts';
import { randomScenario } from './generate.ts';
import { napoleonsEagles as game } from './index.ts';
import { ADAPTATIONS, DEFAULT_OPTIONS, type Scenario, unitPolygon } from './scenario.ts';
import { parseRating } from './tables.ts';

// biome-ignore lint/suspicious/noExplicitAny: generated JSON, read field by field
type J = Record<string, any>;

const draw = (seed: string, n: number): J[] =>
  Array.from({ length: n }, (_, i) => randomScenario(seedrandom.alea(`${seed}/${i}`)) as J);
const vecs = (ps: readonly (readonly [number, number])[]): Vec[] => ps.map(([x, y]) => ({ x, y }));

describe("Napoleon's Eagles random scenarios", () => {
  it('draws 200 scenarios that all validate and build their initial state', () => {
    const all = draw('valid', 200);
    const problems: string[] = [];
    all.forEach((j, i) => {
      const v = game.validateScenario(j);
      if (!v.ok) {
        problems.push(`seed valid/${i}: ${v.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
        return;
      }
      try {
        game.initialState(v.value);
      } catch (e) {
        problems.push(`seed valid/${i}: initialState threw: ${(e as Error).message}`);
      }
    });
    expect(problems, problems.slice(0, 5).join('\n')).toEqual([]);
  });

  it('sets units up wholly on the table, off building blocks, clear of rivers, apart, 2-6 a side', () => {
    const bad: string[] = [];
    draw('setup', 150).forEach((j, i) => {
      const v = game.validateScenario(j);
      if (!v.ok) {
        bad.push(`setup/${i} invalid`);
        return;
      }
      const sc: Scenario = v.value;
      const blocks = sc.terrain.flatMap((t) =>
        t.type === 'block'
          ? [vecs([t.sw, [t.sw[0] + 4, t.sw[1]], [t.sw[0] + 4, t.sw[1] + 4], [t.sw[0], t.sw[1] + 4]])]
          : [],
      );
      const rivers = sc.terrain.flatMap((t) => (t.type === 'river' ? [vecs(t.points)] : []));
      const polys: { id: string; p: Vec[] }[] = [];
      for (const side of sc.sides) {
        if (side.units.length < 2 || side.units.length > 6) bad.push(`setup/${i}: ${side.units.length} units`);
        for (const u of side.units) {
          const p = unitPolygon(u);
          if (p.some((c) => c.x < 0 || c.y < 0 || c.x > sc.table.width || c.y > sc.table.height))
            bad.push(`setup/${i}: ${u.id} off the table`);
          if (blocks.some((b) => polygonsOverlap(p, b))) bad.push(`setup/${i}: ${u.id} on a building block`);
          if (rivers.some((r) => polygonPolylineDistance(p, r) === 0)) bad.push(`setup/${i}: ${u.id} in a river`);
          for (const o of polys) if (polygonsOverlap(p, o.p)) bad.push(`setup/${i}: ${u.id} overlaps ${o.id}`);
          polys.push({ id: u.id, p });
        }
      }
    });
    expect(bad, bad.slice(0, 5).join('\n')).toEqual([]);
  });

  it('is deterministic for a seed, and different seeds draw different scenarios', () => {
    const a = draw('determinism', 8).map((x) => JSON.stringify(x));
    const b = draw('determinism', 8).map((x) => JSON.stringify(x));
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(8);
  });

  describe('covers the format', () => {
    const all = draw('coverage', 300);
    const sides = all.flatMap((s) => s.sides as J[]);
    const units = sides.flatMap((s) => s.units as J[]);
    const leaders = sides.flatMap((s) => s.leaders as J[]);
    const terrain = all.flatMap((s) => s.terrain as J[]);
    const set = <T>(xs: T[]) => new Set(xs);

    it('tables, turns, edges, nationalities, doctrines, turn points', () => {
      const widths = all.map((s) => s.table.width);
      const heights = all.map((s) => s.table.height);
      expect(Math.min(...widths)).toBe(24);
      expect(Math.max(...widths)).toBe(48);
      expect(Math.min(...heights)).toBe(24);
      expect(Math.max(...heights)).toBe(36);
      expect(set(all.map((s) => s.turns))).toEqual(set([1, 2, 3]));
      expect(set(sides.map((s) => s.homeEdge))).toEqual(set(['south', 'north', 'east', 'west']));
      expect(set(sides.map((s) => s.nationality))).toEqual(
        set([
          'french',
          'austrian',
          'russian',
          'prussian',
          'british',
          'spanish',
          'portuguese',
          'german',
          'italian',
          'other',
        ]),
      );
      for (const d of ['frenchPost1807', 'prussian1806', 'austrianMass', 'grandBatteryAllowed'])
        expect(
          sides.some((s) => s.doctrine?.[d] === true),
          d,
        ).toBe(true);
      expect(sides.some((s) => s.napoleonPresent) && sides.some((s) => s.napoleonArmyCommander)).toBe(true);
      expect(sides.some((s) => s.turnPoints === undefined) && sides.some((s) => s.turnPoints === 20)).toBe(true);
      // uneven turn points: the two sides differ
      expect(all.some((s) => (s.sides[0].turnPoints ?? 20) !== (s.sides[1].turnPoints ?? 20))).toBe(true);
      expect(all.some((s) => s.year !== undefined) && all.some((s) => s.windFrom !== undefined)).toBe(true);
    });

    it('terrain of every kind, with every variant', () => {
      expect(set(terrain.map((t) => t.type))).toEqual(
        set(['road', 'river', 'bridge', 'ford', 'hill', 'woods', 'mud', 'fields', 'wall', 'hedge', 'block']),
      );
      const of = (type: string) => terrain.filter((t) => t.type === type);
      expect(set(of('woods').map((t) => t.density))).toEqual(set(['light', 'dense']));
      expect(set(of('mud').map((t) => t.ground))).toEqual(set([undefined, 'mud', 'softGround', 'sand', 'marsh']));
      expect(set(of('hill').map((t) => t.slope))).toEqual(set([undefined, 'gentle', 'steep', 'extreme']));
      expect(set(of('hill').map((t) => t.level))).toEqual(set([undefined, 1, 2, 3, 4, 5]));
      expect(of('hill').some((t) => t.ridge)).toBe(true);
      expect(of('river').some((t) => t.crossable === false) && of('river').some((t) => t.disorders === true)).toBe(
        true,
      );
      expect(of('bridge').some((t) => t.road) && of('bridge').some((t) => !t.road)).toBe(true);
      expect(of('wall').some((t) => t.redoubt) && of('hedge').some((t) => t.prepared)).toBe(true);
      expect(of('block').some((t) => t.brickOrStone) && of('block').some((t) => t.wallSides?.length)).toBe(true);
      expect(of('block').some((t) => t.fires > 0)).toBe(true);
    });

    it('units of every kind, class, weight, arm, calibre and formation, with ratings across the grammar', () => {
      const inf = units.filter((u) => u.kind === 'infantry');
      const cav = units.filter((u) => u.kind === 'cavalry');
      const art = units.filter((u) => u.kind === 'artillery');
      expect(set(inf.map((u) => u.troopClass))).toEqual(
        set(['militia', 'green', 'line', 'light', 'grenadier', 'guard']),
      );
      expect(set(inf.map((u) => u.ranks))).toEqual(set([2, 3]));
      expect(set(inf.map((u) => u.formation))).toEqual(set(['line', 'column', 'roadColumn', 'square', 'skirmish']));
      expect(inf.some((u) => u.lightInfantry) && inf.some((u) => u.guard) && inf.some((u) => u.refused)).toBe(true);
      expect(inf.some((u) => u.weapon === 'rifle') && inf.some((u) => u.organicSkirmishers)).toBe(true);
      expect(set(cav.map((u) => u.weight))).toEqual(set(['light', 'medium', 'heavy']));
      expect(set(cav.map((u) => u.formation))).toEqual(set(['line', 'column', 'roadColumn', 'echelon', 'skirmish']));
      for (const f of ['guard', 'cossack', 'british', 'carbines', 'echelon', 'columnFront'])
        expect(
          cav.some((u) => u[f]),
          f,
        ).toBe(true);
      expect(set(art.map((u) => `${u.arm} ${u.calibre}`))).toEqual(
        set(['foot', 'horse'].flatMap((a) => ['2-3lb', '4lb', '6lb', '8-9lb', '12lb'].map((c) => `${a} ${c}`))),
      );
      expect(set(art.map((u) => u.formation))).toEqual(set(['limbered', 'unlimbered']));
      expect(art.some((u) => u.howitzers > 0 && u.cannons > 0) && art.some((u) => u.cannons === 0)).toBe(true);
      for (const f of ['massed', 'regimental', 'guardBattery', 'hits', 'ammo'])
        expect(
          art.some((u) => u[f]),
          f,
        ).toBe(true);
      expect(units.some((u) => u.disordered) && units.some((u) => u.fatigue === 3)).toBe(true);
      // [p.20] sappers, incendiary shells (howitzers only) and A-75 rocket batteries, under the fires rule only
      expect(inf.some((u) => u.sappers) && art.some((u) => u.incendiary) && art.some((u) => u.rockets)).toBe(true);
      expect(art.filter((u) => u.incendiary).every((u) => u.howitzers > 0)).toBe(true);
      expect(art.filter((u) => u.rockets).every((u) => !u.howitzers && u.cannons > 0)).toBe(true);
      const firesOff = all.filter((s) => !s.options?.fires).flatMap((s) => s.sides.flatMap((x: J) => x.units));
      expect(firesOff.some((u: J) => u.sappers || u.incendiary || u.rockets)).toBe(false);
      const r = units.map((u) => ({ ...parseRating(u.rating), kind: u.kind }));
      expect(set(r.map((x) => x.move))).toEqual(set(['A', 'B', 'C']));
      expect(set(r.map((x) => x.fire))).toEqual(set(['A', 'B', 'C', 'D', 'E', 'R']));
      expect(r.some((x) => x.morale < 10) && r.some((x) => x.melee >= 100)).toBe(true);
      expect(r.filter((x) => x.fire === 'R').every((x) => x.kind === 'infantry')).toBe(true);
    });

    it('leaders of every rank, attached or placed, commanding every unit', () => {
      expect(set(leaders.map((l) => l.rank))).toEqual(set(['army', 'corps', 'division', 'grandBattery']));
      expect(leaders.some((l) => l.attached) && leaders.some((l) => l.x !== undefined)).toBe(true);
      for (const s of sides) {
        expect(s.leaders.filter((l: J) => l.rank === 'army')).toHaveLength(1);
        const divisions = s.leaders.filter((l: J) => l.rank === 'division').length;
        expect(divisions >= 1 && divisions <= 2).toBe(true);
        const ids = new Set(s.leaders.filter((l: J) => l.rank !== 'army').map((l: J) => l.id));
        for (const u of s.units) expect(ids.has(u.commander), `${u.id}'s commander`).toBe(true);
      }
      for (const f of ['moraleBonus', 'meleeBonus', 'initiative', 'misread', 'spyglass', 'staffOfficer'])
        expect(
          leaders.some((l) => l[f]),
          f,
        ).toBe(true);
    });

    it('victory objectives of every kind, and the victory values', () => {
      const objs = all.flatMap((s) => s.victory.objectives ?? []);
      expect(objs.some((o) => o.polygon) && objs.some((o) => o.block) && objs.some((o) => o.terrain)).toBe(true);
      expect(set(objs.map((o) => o.hold))).toEqual(set([undefined, 'lastHeld', 'present']));
      expect(Math.max(...all.map((s) => (s.victory.objectives ?? []).length))).toBe(4);
      for (const k of ['unitLost', 'guardUnitLost', 'retreatingAtEnd', 'batteryGunsLost', 'leaderLost', 'drawMargin'])
        expect(
          all.some((s) => s.victory[k] !== undefined),
          k,
        ).toBe(true);
      expect(all.some((s) => s.victory.suddenDeath === false)).toBe(true);
    });

    it('every named option with each of its values, and the fixed readings', () => {
      const opts = all.map((s) => s.options as J);
      const seen = (k: string) => set(opts.filter((o) => k in o).map((o) => JSON.stringify(o[k])));
      // every option the schema names appears
      for (const k of Object.keys(DEFAULT_OPTIONS))
        expect(
          opts.some((o) => k in o),
          k,
        ).toBe(true);
      const values: Record<string, unknown[]> = {
        thresholdFraction: [0.5, 0.4, 0.6],
        lightCavalrySkirmish: [false, true],
        standOff: [1, 2],
        obstacleCrossing: [0.5, 0, 1],
        smokeBlocksLos: [false, true],
        leaderMove: [20, 10],
        commandLines: ['paths', 'straight'],
        skirmishPushBack: [1, 2],
        solidShotCover: [-4, -2],
        solidShotTable: ['closeIsCanister', 'extremeBlank'],
        rapidFireDefenceFatigue: [3, 2],
        neutralisedAt: ['allGuns', 'cannons'],
        bearingFigures: ['arcs', 'allFront'],
        casualtyColumn: ['ownInContact', 'chargersInContact'],
        enfiladeChargers: ['sameFace', 'all'],
        defenderMeleeDice: ['one', 'perCharger'],
        fireEvacuation: [false, true],
      };
      for (const [k, vs] of Object.entries(values)) expect(seen(k), k).toEqual(set(vs.map((v) => JSON.stringify(v))));
      // the ADAPTATIONs with a choice are the options above
      for (const a of ADAPTATIONS)
        if (a.option && a.option !== 'visibility') expect(values, a.id).toHaveProperty(a.option);
      for (const k of ['{"a":2,"d":1}', '{"a":3,"d":2}', '{"a":4,"d":2}', '{"a":5,"d":3}'])
        expect(seen('activationRatio')).toContain(k);
      // the built optional rules are drawn both ways (the unbuilt ones never on: the first test builds every state)
      for (const k of [
        'leaderInitiative',
        'outOfControlCavalry',
        'carbines',
        'organicSkirmishers',
        'secondBounce',
        'supportedLine',
        'tableFlanks',
        'weather',
        'smoke',
      ])
        expect(seen(k), k).toEqual(set(['true', 'false']));
      const fixed = ADAPTATIONS.filter((a) => a.option === undefined).map((a) => a.id);
      expect(fixed.every((id) => opts.some((o) => o[id] === 'digest'))).toBe(true);
    });
  });

  it('now and then a side that may appoint a grand battery commander, or batteries that may join one (A-56)', () => {
    let appoint = 0;
    let join = 0;
    draw('grand', 200).forEach((j) => {
      const v = game.validateScenario(j);
      if (!v.ok) return;
      // a game opening at step 1 with a declaration: a battery within a scenario grand battery commander's radius
      if (game.initialState(v.value).stack.at(-1)?.t === 'grandBattery') join++;
      for (const side of v.value.sides) {
        const guns = side.units.filter((u) => u.kind === 'artillery' && u.formation === 'unlimbered');
        // [p.10] the doctrine, no grand battery yet, two unlimbered batteries, an unattached division leader
        if (
          side.doctrine.grandBatteryAllowed &&
          !side.leaders.some((l) => l.rank === 'grandBattery') &&
          guns.length >= 2 &&
          side.leaders.some((l) => l.rank === 'division' && !l.attached && !l.staffOfficer)
        )
          appoint++;
      }
    });
    expect(appoint).toBeGreaterThanOrEqual(3);
    expect(join).toBeGreaterThanOrEqual(3);
  });

  it('plays generated scenarios through whole random games', () => {
    for (let i = 0; i < 4; i++) {
      const v = game.validateScenario(randomScenario(seedrandom.alea(`play/${i}`)));
      if (!v.ok) throw new Error(`play/${i}: ${JSON.stringify(v.problems)}`);
      const rng = seedrandom.alea(`play/${i}/game`);
      let s = game.initialState(v.value);
      let plies = 0;
      for (; game.toMove(s).kind !== 'terminal'; plies++) {
        expect(plies, `play/${i}: the game did not end within 20000 plies`).toBeLessThan(20_000);
        if (game.toMove(s).kind === 'chance') {
          const outs = game.chanceOutcomes(s);
          let x = rng();
          let a = outs[outs.length - 1]!.action;
          for (const o of outs) {
            if (x < o.p) {
              a = o.action;
              break;
            }
            x -= o.p;
          }
          s = game.apply(s, a);
        } else {
          const legal = game.legalActions(s);
          expect(legal.length, `play/${i}: no legal action at ply ${plies}`).toBeGreaterThan(0);
          s = game.apply(s, legal[Math.floor(rng() * legal.length)]!);
        }
      }
      expect(plies).toBeGreaterThan(0);
      expect(game.returns(s)).toHaveLength(2);
    }
  });
});
