import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import { checkScenario, map } from '../../../test/eote-fixtures.ts';
import { initialState } from './setup.ts';
import { validateScenario } from './scenario.ts';
import { longCountersFit, spFits } from './stacking.ts';
import { isLC, spOf } from './world.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const rawMap = () =>
  JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8'));
const rawScenario = (id = 'hohenwald-1809') =>
  JSON.parse(readFileSync(join(DATA, 'scenarios', 'eagles-of-the-empire', `${id}.json`), 'utf8'));

/** Every problem of a patched shipped scenario as "path: message" lines (empty when it validates). */
function problems(patch: (j: any) => void, id = 'hohenwald-1809'): string {
  const v = checkScenario(patch, id);
  return v.ok ? '' : v.problems.map((p) => `${p.path}: ${p.message}`).join('\n');
}
/** A set-up placement of side `si` by area. */
const at = (j: any, si: number, area: number) => j.setup[si].find((p: any) => p.area === area);
/** Move unit `u` of side `si` from its set-up placement to area `to`, with facing `face` if given. */
function moveUnit(j: any, si: number, u: string, to: number, face?: string) {
  const from = j.setup[si].find((p: any) => p.units.includes(u));
  from.units = from.units.filter((x: string) => x !== u);
  delete from.facing[u];
  let dest = at(j, si, to);
  if (!dest) j.setup[si].push((dest = { area: to, units: [], leaders: [], hq: false, facing: {} }));
  dest.units.push(u);
  if (face) dest.facing[u] = face;
}
/** A unit's JSON by id. */
function unitJson(j: any, id: string): any {
  const walk = (f: any): any => f.units?.find((u: any) => u.id === id) ?? (f.forces ?? []).map(walk).find(Boolean);
  for (const side of j.sides) for (const f of side.formations) if (walk(f)) return walk(f);
  throw new Error(id);
}

describe('scenario validation: set-ups the engine can play [13.6–13.94]', () => {
  it("accepts the shipped scenarios, and their initial states keep the engine's own stacking limits", () => {
    for (const id of ['hohenwald-1809', 'hohenwald-outposts']) {
      const v = checkScenario(undefined, id);
      expect(v.ok).toBe(true);
      if (!v.ok) continue;
      const s = initialState(v.value, map);
      for (const [aid, a] of map.areas)
        for (const p of [0, 1] as const) {
          const here = s.units.filter((u) => u.area === aid && u.side === p && !u.eliminated);
          expect(
            spFits(
              a,
              here.reduce((t, u) => t + spOf(u), 0),
            ),
          ).toBe(true);
          expect(longCountersFit(a, here.filter(isLC).length)).toBe(true);
          for (const u of here) if (isLC(u) && !a.allAround) expect(u.conf).not.toBeNull();
        }
    }
  });

  it("refuses strength points over an area's stacking limit [13.6, 13.61]", () => {
    // the cavalry reserve (10 SP) joins the grand battery (8 SP) in the West Road (13), a normal area of 15 SP
    const text = problems((j) => (j.setup[0][0].area = 13));
    expect(text).toMatch(
      /\$\.setup\[0\]\[0\]: French set up 18 SP in area 13: more than its stacking limit of 15 \[13\.6, 13\.61\]/,
    );
  });

  it('refuses more infantry long counters than an area holds [13.63, 13.7]', () => {
    const text = problems((j) => moveUnit(j, 0, 'F-3div', 7, 'N')); // a third long counter in the circle 2 Assembly Field
    expect(text).toMatch(
      /French set up 3 infantry long counters in area 7 \(F-1div, F-2div, F-3div\): it holds 2 \[13\.63, 13\.7\]/,
    );
  });

  it('refuses both sides in one area: units [13.12], a lone leader among enemy units [3.13], an HQ among them (A-56)', () => {
    expect(problems((j) => moveUnit(j, 1, 'R-cos', 8))).toMatch(
      /\$\.setup\[1\]\[\d\]: area 8 is set up with French and Russian pieces: a unit may never be in an area with enemy combat units \[13\.12\]/,
    );
    const leader = problems((j) => {
      at(j, 1, 12).leaders = [];
      j.setup[1].push({ area: 1, units: [], leaders: ['uvarin'], hq: false, facing: {} });
    });
    expect(leader).toMatch(
      /area 1 is set up with French and Russian pieces: leaders alone with enemy units are displaced \[3\.13\]/,
    );
    const hq = problems((j) => {
      at(j, 1, 18).hq = false;
      j.setup[1].push({ area: 1, units: [], leaders: [], hq: true, facing: {} });
    });
    expect(hq).toMatch(
      /area 1 is set up with French and Russian pieces: enemy units may not be in an area with an HQ \(A-56\)/,
    );
  });

  it('refuses long counters and artillery without a facing, and facings where none is taken [13.9, 13.92, 13.94]', () => {
    const text = problems((j) => {
      delete at(j, 0, 7).facing['F-1div'];
      delete at(j, 0, 7).facing['F-I-art'];
      at(j, 0, 8).facing['F-7hus'] = 'E';
      at(j, 1, 11).facing['R-gren'] = 'N';
    });
    expect(text).toMatch(
      /\$\.setup\[0\]\[1\]\.facing\.F-1div: "F-1div" is set up without a facing: long counters and artillery are placed facing one of the area's conformations \[13\.9\]/,
    );
    expect(text).toMatch(/\$\.setup\[0\]\[1\]\.facing\.F-I-art: "F-I-art" is set up without a facing/);
    expect(text).toMatch(
      /\$\.setup\[0\]\[2\]\.facing\.F-7hus: "F-7hus" takes no facing: cavalry and short counters face in all directions \[13\.94\]/,
    );
    expect(text).toMatch(
      /\$\.setup\[1\]\[1\]\.facing\.R-gren: area 11 is an all-around area: "R-gren" faces in all directions there and takes no facing \[13\.92\]/,
    );
  });

  it('refuses conformations a long counter does not fit, none that fits, and pairs the map excludes [13.8, 13.93]', () => {
    const mj = rawMap();
    const a7 = mj.areas.find((a: any) => a.id === 7);
    a7.conformations.find((c: any) => c.id === 'S').fitsLong = false;
    a7.conformations.find((c: any) => c.id === 'E').exclusiveWith = ['N'];
    const a8 = mj.areas.find((a: any) => a.id === 8);
    for (const c of a8.conformations) c.fitsLong = false;
    const m = AreaMap.parse(mj);
    const j = rawScenario();
    at(j, 0, 7).facing['F-2div'] = 'N'; // beside F-1div facing E, which excludes N
    j.setup[0][0].facing['F-gha'] = 'S'; // artillery may take an artillery-only orientation
    moveUnit(j, 0, 'F-4div', 8, 'E'); // no orientation in Oberdorf fits a long counter
    const v = validateScenario(j, m);
    const text = v.ok ? '' : v.problems.map((p) => `${p.path}: ${p.message}`).join('\n');
    expect(text).toMatch(
      /F-1div \(E\) and F-2div \(N\) hold conformations of area 7 that cannot be held together \[13\.93\]/,
    );
    expect(text).toMatch(
      /\$\.setup\[0\]\[2\]\.units\[3\]: no conformation of area 8 fits a long counter, so "F-4div" may not be placed there \[13\.8, 13\.81\]/,
    );
    expect(text).not.toMatch(/F-gha/);
    const s = rawScenario();
    at(s, 0, 7).facing['F-2div'] = 'S';
    const w = validateScenario(s, m);
    expect(w.ok ? '' : w.problems.map((p) => p.message).join('\n')).toMatch(
      /conformation "S" of area 7 does not fit a long counter \[13\.8\]/,
    );
  });

  it('lets long counters share a facing the map does not exclude (the digest sets up two divisions facing E in the circle areas)', () => {
    expect(problems((j) => (at(j, 0, 14).facing['F-4div'] = 'E'))).toBe('');
  });

  it("checks deployments made at set-up against the parent's area [11.31, 13.7]", () => {
    const text = problems((j) => {
      unitJson(j, 'F-1div'); // the parent, in the Assembly Field (7) with F-2div
      j.sides[0].formations[1].forces[0].units.push({
        id: 'F-1bis',
        name: '1st Division (second line)',
        kind: 'infantry',
        counter: 'long',
        steps: ['A1-4'],
      });
      j.sides[0].deployments = [{ id: 'f1-bis', parent: 'F-1div', units: ['F-1bis'], atStart: true }];
    });
    expect(text).toMatch(
      /\$\.sides\[0\]\.deployments\[0\]: after deploying f1-bis at set-up \[11\.31\], French 3 infantry long counters in area 7 \(F-1div, F-2div, F-1bis\): it holds 2 \[13\.63, 13\.7\]/,
    );
    // the outposts' voltigeurs deploy at set-up without breaking any limit
    expect(problems((j) => (j.sides[0].deployments[0].atStart = true), 'hohenwald-outposts')).toBe('');
  });

  it('refuses reinforcement groups too big for their entry area [13.61, 13.7] (A-51)', () => {
    const sp = problems((j) => {
      unitJson(j, 'F-vist').steps = ['a9-5'];
      unitJson(j, 'F-9hus').steps = ['a9-5', 'b1-4'];
    });
    expect(sp).toMatch(
      /\$\.reinforcements\[0\]: reinforcement group f-lcd brings 18 SP in area 13: more than its stacking limit of 15 \[13\.6, 13\.61\]/,
    );
    const lcs = problems((j) => {
      const from = at(j, 1, 16);
      from.units = from.units.filter((u: string) => u !== 'R-3inf');
      delete from.facing['R-3inf'];
      j.reinforcements[1].units.push('R-3inf');
    });
    expect(lcs).toMatch(
      /\$\.reinforcements\[1\]: reinforcement group r-2gren brings 2 infantry long counters in area 24 \(R-2gren, R-3inf\): it holds 1 \[13\.63, 13\.7\]/,
    );
  });

  it('refuses a reinforcement leader who is unknown, of the other side, or already placed [6.0]', () => {
    const text = problems((j) => j.reinforcements[0].leaders.push('nobody', 'barkov', 'murand'));
    expect(text).toMatch(/\$\.reinforcements\[0\]\.leaders\[1\]: unknown leader "nobody" for French/);
    expect(text).toMatch(/\$\.reinforcements\[0\]\.leaders\[2\]: unknown leader "barkov" for French/);
    expect(text).toMatch(
      /\$\.reinforcements\[0\]\.leaders\[3\]: leader "murand" is already placed at set-up or in another reinforcement \[6\.0\]/,
    );
  });
});

describe('scenario validation: steps, HQ, turns [2.3, 2.4, 5.0, 9.5]', () => {
  it("refuses steps without strength or morale, or beyond the rules' ranges [2.21, 2.3 Steps, 13.63]", () => {
    const text = problems((j) => {
      unitJson(j, 'F-2div').steps = ['A0-0', 'B3-4'];
      unitJson(j, 'F-1div').steps = ['A26-5', 'B4-0'];
      unitJson(j, 'F-3div').steps = ['A4-10'];
    });
    expect(text).toMatch(
      /steps\[0\]: step "A0-0" has 0 SP: a step has 1 to 25 \(its strength points \[2\.21\]; no area holds more than 25 \[13\.63\]\)/,
    );
    expect(text).toMatch(/steps\[0\]: step "A26-5" has 26 SP/);
    expect(text).toMatch(/steps\[1\]: step "B4-0" has morale 0: a morale rating is a printed 1 to 9 \[2\.21\]/);
    expect(text).toMatch(/step "A4-10" has morale 10/);
  });

  it('refuses step tracks that grow stronger, turn long again, or put capitals on a short counter [2.3 Steps]', () => {
    const text = problems((j) => {
      unitJson(j, 'F-2div').steps = ['A4-4', 'B5-4', 'c2-3', 'D1-2'];
      unitJson(j, 'F-2volt').steps = ['A1-4'];
    });
    expect(text).toMatch(
      /steps\[1\]: step "B5-4" is stronger than the step before it: a step track runs from the strongest step down \[2\.3 Steps\]/,
    );
    expect(text).toMatch(/steps\[3\]: long step "D1-2" follows a short one.*\[2\.3 Steps\]/);
    expect(text).toMatch(
      /steps\[0\]: step "A1-4" is a long counter's \(capital letter\): a short counter's steps are lower case \[2\.3 Steps\]/,
    );
  });

  it('refuses a second HQ placement for one side [2.22, 9.5]', () => {
    expect(problems((j) => (j.setup[0][0].hq = true))).toMatch(
      /\$\.setup\[0\]\[3\]\.hq: French's HQ is already placed at \$\.setup\[0\]\[0\]: a side has one HQ \[2\.22, 9\.5\]/,
    );
  });

  it('refuses turn-indexed data outside the turn track [2.4, 5.0, 6.0]', () => {
    expect(problems((j) => (j.weather.fromTurn = 7))).toMatch(
      /\$\.weather\.fromTurn: the weather table starts on turn 7, after the last turn \(6\) \[2\.4, 5\.0\]/,
    );
    expect(problems((j) => delete j.weather.table)).toMatch(
      /\$\.weather\.fromTurn: fromTurn names the turn the weather table is first rolled, but there is no table \[5\.0\]/,
    );
    expect(problems((j) => (j.reinforcements[0].turn = 7))).toMatch(
      /\$\.reinforcements\[0\]\.turn: turn 7 is after the last turn \(6\) \[2\.4, 6\.0\]/,
    );
  });
});

describe('scenario validation: bounds and ids', () => {
  it('bounds leader and HQ ratings to the printed ranges [2.21, 8.1]', () => {
    const text = problems((j) => {
      const ls = j.sides[0].leaders;
      ls[0].radius = 12;
      ls[1].tactical = 10;
      ls[2].tactical = '12/3';
      ls[3].initiative = 7;
      j.sides[1].hq.radius = 99;
    });
    expect(text).toMatch(/\$\.sides\[0\]\.leaders\[0\]\.radius: a command radius is a printed 0 to 9 \[2\.21\]/);
    expect(text).toMatch(/\$\.sides\[0\]\.leaders\[1\]\.tactical: .*\[2\.21\]/);
    expect(text).toMatch(/\$\.sides\[0\]\.leaders\[2\]\.tactical: .*\[2\.21\]/);
    expect(text).toMatch(
      /\$\.sides\[0\]\.leaders\[3\]\.initiative: an initiative rating is 0 to 6: the activation die is a d6 \[8\.1\]/,
    );
    expect(text).toMatch(/\$\.sides\[1\]\.hq\.radius: an HQ's command radius is a printed 0 to 9 \[2\.21\]/);
  });

  it('bounds victory points and thresholds (A-53)', () => {
    const text = problems((j) => {
      j.victory.vp.step = -1;
      j.victory.vp.leader = 1.5;
      j.victory.vp.armyCommander.emperor = 1000;
      j.victory.objectives[0].vp = [200, 2];
      j.victory.thresholds = { decisive: 10, marginal: 0 };
    });
    expect(text).toMatch(/\$\.victory\.vp\.step: victory points are not negative \(A-53\)/);
    expect(text).toMatch(/\$\.victory\.vp\.leader: victory points are whole numbers \(A-53\)/);
    expect(text).toMatch(/\$\.victory\.vp\.armyCommander\.emperor: victory points are at most 100 per item \(A-53\)/);
    expect(text).toMatch(/\$\.victory\.objectives\[0\]\.vp\[0\]: victory points are at most 100/);
    expect(text).toMatch(
      /\$\.victory\.thresholds\.marginal: a result threshold is at least 1: a VP difference of 0 is a draw \(A-53\)/,
    );
  });

  it('refuses objectives listed twice, control of a non-objective and VP for an unknown leader (A-53)', () => {
    const text = problems((j) => {
      j.victory.objectives.push({ area: 16, vp: [1, 1] });
      j.victory.control['9'] = 0;
      j.victory.vp.armyCommander.nobody = 3;
    });
    expect(text).toMatch(
      /\$\.victory\.objectives\[3\]\.area: area 16 is already an objective: each objective is listed once \(A-53\)/,
    );
    expect(text).toMatch(/\$\.victory\.control\["9"\]: "9" is not an objective area/);
    expect(text).toMatch(/\$\.victory\.vp\.armyCommander\["nobody"\]: unknown leader "nobody" \(A-53\)/);
  });

  it('refuses duplicate ids: units, leaders, formations and HQs across sides, deployments, reinforcement groups, and a unit set up twice', () => {
    const text = problems((j) => {
      j.sides[1].formations[1].id = 'f-I';
      j.sides[1].hq.id = 'f-hq';
      j.reinforcements[1].id = 'f-lcd';
      j.sides[1].leaders[1].id = 'murand';
      unitJson(j, 'R-cos').id = 'F-7hus';
      j.setup[1].find((p: any) => p.units.includes('R-cos')).units = ['F-7hus'];
      j.setup[0].push({ area: 1, units: ['F-carab'], leaders: [], hq: false, facing: {} });
    });
    expect(text).toMatch(/\$\.sides\[1\]\.formations\(f-I\): duplicate formation id "f-I" \(also French\)/);
    expect(text).toMatch(/\$\.sides\[1\]\.hq\.id: duplicate HQ id "f-hq" \(also French\)/);
    expect(text).toMatch(/\$\.reinforcements\[1\]\.id: duplicate reinforcement group id "f-lcd"/);
    expect(text).toMatch(/duplicate leader id "murand"/);
    expect(text).toMatch(/duplicate unit id "F-7hus"/);
    expect(text).toMatch(/\$\.setup\[0\]\[5\]\.units\[0\]: unit "F-carab" is placed twice/);
    const deployments = problems((j) => {
      j.sides[1].formations[1].forces[0].units.push({
        id: 'R-1jag',
        name: '1st Division Jäger',
        kind: 'infantry',
        counter: 'short',
        steps: ['a1-4'],
      });
      j.sides[1].deployments = [{ id: 'f1-voltigeurs', parent: 'R-1inf', units: ['R-1jag'] }];
    }, 'hohenwald-outposts');
    expect(deployments).toMatch(/\$\.sides\[1\]\.deployments\[0\]\.id: duplicate deployment id "f1-voltigeurs"/);
  });
});

describe('scenario validation: typos, bounds and the map', () => {
  it('refuses unknown keys at every level, suggesting the key a near miss stands for', () => {
    expect(problems((j) => (j.sides[0].leaders[0].Radius = 5))).toBe(
      '$.sides[0].leaders[0]: unknown key "Radius" (did you mean "radius"?)',
    );
    expect(problems((j) => (unitJson(j, 'F-2div').Elite = true))).toMatch(
      /^\$\.sides\[0\]\.formations\[\d+\](\.forces\[\d+\])*\.units\[\d+\]: unknown key "Elite" \(did you mean "elite"\?\)$/,
    );
    expect(problems((j) => (j.setup[0][0].facings = {}))).toBe(
      '$.setup[0][0]: unknown key "facings" (did you mean "facing"?)',
    );
    expect(problems((j) => (j.victory.thresholds.decisiv = 9))).toBe(
      '$.victory.thresholds: unknown key "decisiv" (did you mean "decisive"?)',
    );
    expect(problems((j) => (j.weather.Table = j.weather.table))).toBe(
      '$.weather: unknown key "Table" (did you mean "table"?)',
    );
    expect(problems((j) => (j.victoryPoints = {}))).toMatch(
      /^\$: unknown key "victoryPoints"; allowed here: ruleset, id, /,
    );
  });

  it('bounds grades, step tracks, extended-line markers and the turn track', () => {
    const text = problems((j) => {
      j.sides[0].leaders[0].grade = 11;
      unitJson(j, 'F-2div').steps = Array.from({ length: 27 }, () => 'a1-3');
      unitJson(j, 'F-1div').extendedLines = { half: 2, third: 3 };
      j.turns = Array.from({ length: 49 }, () => ({ hour: '12:00' }));
    });
    expect(text).toMatch(
      /\$\.sides\[0\]\.leaders\[0\]\.grade: a grade is 0 \(a replacement colonel\) to 10 \(an Emperor or King\) \[2\.22, 2\.3 Seniority\]/,
    );
    expect(text).toMatch(
      /units\[\d+\]\.steps: a step track has at most 26 steps, one letter each from A \[2\.3 Steps\]/,
    );
    expect(text).toMatch(/extendedLines\.half: a long counter extends with at most one "1\/2" marker \[16\.0, 16\.1\]/);
    expect(text).toMatch(
      /extendedLines\.third: a long counter extends with at most two "1\/3" markers, a pair \[16\.8\]/,
    );
    expect(text).toMatch(/\$\.turns: a turn track has at most 48 turns \(two days of hourly turns \[2\.4\]\)/);
  });

  it('refuses a map id that is a path, and scenario ids other than lower-case letters, digits and -', () => {
    expect(problems((j) => (j.map = '../../etc'))).toMatch(
      /^\$\.map: a map id is lower-case letters, digits and - \(it names a file in data\/maps\/, not a path\)$/m,
    );
    expect(problems((j) => (j.id = 'Hohenwald 1809'))).toBe('$.id: scenario ids are lower-case letters, digits and -');
  });

  it("refuses map coordinates off the map's extent, and maps larger than a few sheets", () => {
    const m = rawMap();
    m.areas[0].center = [5, -40];
    m.areas[1].polygon[2] = [1e9, 10];
    const v = validateScenario(rawScenario(), new AreaMap(m));
    expect(v.ok ? [] : v.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      '$.mapData.areas[0].center: the centre of area 1 (5, -40) is off the 60×40 map hohenwald-1809',
      '$.mapData.areas[1].polygon[2]: corner 2 of area 2 (1000000000, 10) is off the 60×40 map hohenwald-1809',
    ]);
    const big = rawMap();
    big.size = [1e6, 40];
    const w = validateScenario(rawScenario(), new AreaMap(big));
    expect(w.ok ? [] : w.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      '$.mapData.size: map hohenwald-1809 is 1000000×40: a map is at most 500×500 map inches',
    ]);
  });
});
