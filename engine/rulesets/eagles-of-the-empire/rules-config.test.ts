import { describe, expect, it } from 'vitest';
import { flankSet, twice } from './assault-dice.ts';
import { bombardmentDrms } from './bombard.ts';
import { chanceOutcomes, legalActions } from './rules.ts';
import { ADAPTATIONS, NAMED_OPTIONS, option, optionProblems } from './rules-config.ts';
import { act, checkScenario, loadScenario, position } from '../../../test/eote-fixtures.ts';
import type { EState } from './types.ts';

const withOptions = (options: Record<string, unknown>) => loadScenario((j) => (j.options = options));
const problems = (options: Record<string, unknown>) => {
  const v = checkScenario((j) => (j.options = options));
  return v.ok ? [] : v.problems.map((p) => `${p.path}: ${p.message}`);
};

describe("The rules configuration: every ADAPTATION a named option with the digest's default", () => {
  it('names all seventy adaptations of the digest, in order', () => {
    expect(ADAPTATIONS.map(([id]) => id)).toEqual(
      Array.from({ length: 70 }, (_, i) => `A-${String(i + 1).padStart(2, '0')}`),
    );
    expect(optionProblems(Object.fromEntries(ADAPTATIONS.map(([id]) => [id, 'digest'])))).toEqual([]);
  });

  it('refuses unknown options, bad values and readings the engine does not implement, naming each', () => {
    expect(problems({ noSuchRule: true })[0]).toMatch(/^\$\.options\.noSuchRule: unknown rules option/);
    expect(problems({ attachSameFormaton: 'all' })[0]).toMatch(
      /unknown rules option "attachSameFormaton" \(did you mean "attachSameFormation"\?\)/,
    );
    expect(problems({ attachSameFormation: 'some' })[0]).toMatch(
      /attachSameFormation \(A-23\) must be one of "horseOnly", "all"/,
    );
    expect(problems({ legacyEdition: 'yes' })[0]).toMatch(/legacyEdition \(A-69\) must be one of false, true/);
    expect(problems({ 'A-05': 'no passing' })[0]).toMatch(
      /A-05 \(Activation obligations and passing\): only the digest's reading/,
    );
    const medium = checkScenario((j) => (j.rules = { ...j.rules, mediumAsLight: false }));
    expect(medium.ok).toBe(false);
    if (!medium.ok) expect(medium.problems[0]!.message).toMatch(/A-59/);
  });

  it('reads each named option with the digest default when the scenario leaves it out', () => {
    const sc = loadScenario();
    for (const [name, o] of Object.entries(NAMED_OPTIONS))
      expect(option(sc, name as keyof typeof NAMED_OPTIONS)).toBe(o.default);
    expect(option(withOptions({ moraleTwice: 'moreThan' }), 'moraleTwice')).toBe('moreThan');
  });

  it('A-02 bombardNetMinusOne: at a net −1 no hits (literal), or a natural 6 hits (natural6Hits)', () => {
    // H1 (2 SP heavy) in the West Meadow fires into the town (cover −1) in rain (−1): net −2, floored at −1 [12.32]
    const fire = (s: EState) =>
      chanceOutcomes(act(act({ ...s, weather: 'rain' }, { k: 'fire', u: 'H1', to: 16 }), { k: 'shoot', cb: false }));
    const moves = { H1: [9, 'E'], G1: [null, null], H2: [null, null], H3: [null, null], G2: [null, null] } as Record<
      string,
      [number | null, string | null]
    >;
    const literal = fire(position(loadScenario(), 0, 'bombard', ['f-hqf'], moves));
    expect(literal.map((o) => o.action)).toEqual([{ k: 'c-hits', n: 0 }]);
    const natural = fire(position(withOptions({ bombardNetMinusOne: 'natural6Hits' }), 0, 'bombard', ['f-hqf'], moves));
    expect(natural.map((o) => o.p)).toEqual([25 / 36, 10 / 36, 1 / 36].map((p) => expect.closeTo(p, 12)));
  });

  it('A-23 attachSameFormation and highAngleCannotAttach change who may attach', () => {
    // R-1inf's 1/3 marker on the Ridge Plateau (18) with the 1st Corps' guns and, for this test, the licorne moved to
    // the army's HQ formation (active too): another formation's battery
    const attachable = (options: Record<string, unknown>, kind = 'licorne') => {
      const sc = loadScenario((j) => {
        j.options = options;
        const units = j.sides[1].formations[1].forces[1].units;
        const lic = units.splice(
          units.findIndex((u: any) => u.id === 'R-lic'),
          1,
        )[0];
        j.sides[1].formations[0].units.push({ ...lic, artKind: kind });
      });
      let s = act(position(sc, 1, 'move', ['r-1', 'r-hqf']), { k: 'extend', u: 'R-1inf', to: [16, 18] });
      while (legalActions(s)[0]?.k === 'face') s = act(s, legalActions(s)[0]!);
      s = { ...s, stack: [{ ...(s.stack[0] as Extract<EState['stack'][number], { t: 'phase' }>), seg: 'assign' }] };
      return legalActions(s)
        .filter((a) => a.k === 'attach' && a.lc === 'R-1inf~t2')
        .map((a) => (a as { u: string }).u);
    };
    expect(attachable({})).toEqual(['R-lic', 'R-2light']); // the body text: only horse artillery keeps to its formation [11.22]
    expect(attachable({ attachSameFormation: 'all' })).toEqual(['R-2light']); // the SoP card: all artillery
    expect(attachable({}, 'mortar')).toContain('R-lic');
    expect(attachable({ highAngleCannotAttach: true }, 'mortar')).toEqual(['R-2light']);
  });

  it('A-24 horseCountsForMassed counts horse artillery toward the massed-fire +1', () => {
    const facts = (horse: boolean) =>
      bombardmentDrms({
        units: [...Array(4).fill({ kind: 'foot', guard: false, range: 1 }), { kind: 'horse', guard: false, range: 1 }],
        targetFlank: false,
        targetDense: false,
        targetSquare: false,
        artilleryLeader: false,
        napoleonNear: false,
        hqCosBonus: false,
        timeOfDay: 'day',
        weather: 'clear',
        targetCover: false,
        reverseSlope: false,
        horseCountsForMassed: horse,
      });
    expect(facts(false)[0]).toBe(0);
    expect(facts(true)[0]).toBe(1);
  });

  it('A-25 licorneMinRange1 opens range 1 to licornes', () => {
    // R-lic on the Ridge Plateau (18) facing west; French infantry next door on the East Slope (17)
    const moves = { 'R-1inf': [null, null], 'F-1div': [17, 'E'] } as Record<string, [number | null, string | null]>;
    const targets = (sc = loadScenario()) =>
      legalActions(position(sc, 1, 'bombard', ['r-1'], moves)).filter((a) => a.k === 'fire' && a.u === 'R-lic');
    expect(targets()).toEqual([]);
    expect(targets(withOptions({ licorneMinRange1: true }))).toContainEqual({ k: 'fire', u: 'R-lic', to: 17 });
  });

  it('A-69 legacyEdition: 4 SP per target from one area [12.62 note] and no massed artillery [12.7 note]', () => {
    const moves = {
      H1: [9, 'S'],
      G1: [9, 'S'],
      H2: [null, null],
      H3: [null, null],
      G2: [null, null],
      'R-2inf': [15, 'N'],
    } as Record<string, [number | null, string | null]>;
    const fires = (sc: ReturnType<typeof loadScenario>) =>
      legalActions(position(sc, 0, 'bombard', ['f-hqf'], moves, { bomb: { '9>15': 3 } })).filter(
        (a) => a.k === 'fire' && a.to === 15,
      );
    expect(fires(loadScenario())).toEqual([
      { k: 'fire', u: 'H1', to: 15 },
      { k: 'fire', u: 'G1', to: 15 },
    ]);
    expect(fires(withOptions({ legacyEdition: true }))).toEqual([{ k: 'fire', u: 'G1', to: 15 }]); // 3 + 2 > 4
    const five = (noMassed: boolean) =>
      bombardmentDrms({
        units: Array(5).fill({ kind: 'foot', guard: false, range: 1 }),
        targetFlank: false,
        targetDense: false,
        targetSquare: false,
        artilleryLeader: false,
        napoleonNear: false,
        hqCosBonus: false,
        timeOfDay: 'day',
        weather: 'clear',
        targetCover: false,
        reverseSlope: false,
        noMassed,
      })[0];
    expect([five(false), five(true)]).toEqual([1, 0]);
  });

  it("A-34 assaultFlank and A-36 moraleTwice switch the CMT reading and the [13.9] example's equality", () => {
    const s = position(loadScenario(), 0, 'assault', []);
    const flank = position(withOptions({ assaultFlank: 'flank', moraleTwice: 'moreThan' }), 0, 'assault', []);
    expect([flankSet(s, 'flank'), flankSet(s, 'rear'), flankSet(s, 'front')]).toEqual([true, true, false]);
    expect([flankSet(flank, 'flank'), flankSet(flank, 'rear')]).toEqual([true, false]);
    expect([twice(s, 4, 2), twice(s, 5, 2), twice(s, 3, 2)]).toEqual([true, true, false]);
    expect([twice(flank, 4, 2), twice(flank, 5, 2)]).toEqual([false, true]);
  });
});
