/**
 * [Setting up a battle] Alternate placement never leaves a side with a battalion it cannot place (M23_squeeze), the
 * validator refuses armies that cannot be set up, and the Supreme Commander is only offered places on the table.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../../agents/registry.ts';
import { RandomAgent } from '../../../agents/random.ts';
import { runMatch } from '../../../arena/match.ts';
import { alternateScenario } from '../../../test/moe-fixtures.ts';
import { marchOfEagles as game } from './index.ts';
import type { Scenario } from './scenario.ts';
import { top } from './state.ts';
import { footprint } from './shape.ts';
import { IN } from '../../geometry/geometry.ts';
import type { MoeState } from './types.ts';

/** Two valid 200-point armies of five battalions, several 32–40-Ranker lines, on 72"×48" with a wood, a hill, a hedge. */
const crowded = () =>
  alternateScenario({
    width: 72,
    a: [
      { id: 'A1', rankers: 40, officer: 1 },
      { id: 'A2', rankers: 36, sergeants: 1 },
      { id: 'A3', rankers: 32, quality: 'Veteran' },
      { id: 'A4', rankers: 40, quality: 'Green', officer: 1 },
      { id: 'A5', rankers: 32 },
    ],
    b: [
      { id: 'B1', rankers: 40, drummers: 1 },
      { id: 'B2', rankers: 36, officer: 1, drummers: 1 },
      { id: 'B3', rankers: 32, sergeants: 1 },
      { id: 'B4', rankers: 40, quality: 'Green' },
      { id: 'B5', rankers: 36, quality: 'Veteran', light: true },
    ],
    natB: 'French',
    terrain: [
      {
        type: 'woods',
        id: 'w1',
        polygon: [
          [10, 4],
          [18, 4],
          [18, 10],
          [10, 10],
        ],
      },
      {
        type: 'hill',
        id: 'h1',
        polygon: [
          [40, 38],
          [54, 38],
          [54, 46],
          [40, 46],
        ],
        crest: [47, 42],
      },
      {
        type: 'hedge',
        id: 'hg',
        points: [
          [20, 30],
          [30, 30],
        ],
      },
    ],
  });

function valid(json: unknown): Scenario {
  const v = game.validateScenario(json);
  if (!v.ok) throw new Error(v.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  return v.value;
}

/** Play the pre-game only (to the first initiative roll) with random choices; throws on a dead end. */
function deployRandomly(sc: Scenario, u: () => number, atDecision?: (s: MoeState) => void): MoeState {
  let s = game.initialState(sc);
  while (s.phase === 'pregame' || top(s)?.t === 'placeSC') {
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') break;
    if (tm.kind === 'chance') {
      const outs = game.chanceOutcomes(s);
      s = game.apply(s, outs[Math.floor(u() * outs.length)]!.action);
      continue;
    }
    atDecision?.(s);
    const legal = game.legalActions(s);
    if (!legal.length) throw new Error(`dead end at ${top(s)?.t}`);
    s = game.apply(s, legal[Math.floor(u() * legal.length)]!);
  }
  return s;
}

describe('alternate deployment never dead-ends (M23_squeeze)', () => {
  it('the crowded 72" scenario: the scripted player as side A deploys and plays every game (it trapped itself in 11 of 20)', async () => {
    const sc = valid(crowded());
    for (let g = 0; g < 10; g++) {
      const r = await runMatch({
        game,
        scenario: sc,
        scenarioId: 'crowded',
        seed: `crowded/${g}`,
        agents: [createAgent('heuristic'), new RandomAgent()],
      });
      expect(r.aborted, `seed ${g}`).toBeUndefined();
      expect(r.replay.result).not.toBeNull();
    }
  });
  it('random placements always complete on tight zones (48" tables, many battalions, a Light battalion)', () => {
    const tight = valid(
      alternateScenario({
        width: 48,
        a: Array.from({ length: 12 }, (_, i) => ({ id: `A${i + 1}`, rankers: 32, quality: 'Green' as const })).concat([
          { id: 'A13', rankers: 16, quality: 'Green' },
        ]),
        b: [
          { id: 'B1', rankers: 48, quality: 'Green' },
          { id: 'B2', rankers: 48, quality: 'Green' },
          { id: 'B3', rankers: 48, quality: 'Green' },
          { id: 'B4', rankers: 36, quality: 'Veteran', light: true, rifles: true },
          { id: 'B5', rankers: 48, quality: 'Drilled' },
        ],
        natB: 'British',
        terrain: [
          {
            type: 'building',
            id: 'farm',
            polygon: [
              [20, 2],
              [28, 2],
              [28, 9],
              [20, 9],
            ],
          },
        ],
      }),
    );
    for (let g = 0; g < 12; g++) {
      const s = deployRandomly(tight, seedrandom.alea(`tight/${g}`));
      expect(s.units.every((b) => b.placed)).toBe(true);
    }
  });
  it('offers rows every M23_grid inches back to the table edge, not just two', () => {
    let s = game.initialState(valid(crowded()));
    // roll-off, side, skirmishers (none), place first
    const keys = (st: MoeState) =>
      game.toMove(st).kind === 'chance'
        ? game.chanceOutcomes(st).map((o) => game.actionKey(o.action))
        : game.legalActions(st).map((a) => game.actionKey(a));
    while (top(s)?.t !== 'place') {
      const k = keys(s).find((x) => x === 'skirmishers 0') ?? keys(s)[0]!;
      s = game.apply(
        s,
        [
          ...(game.toMove(s).kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s)),
        ].find((a) => game.actionKey(a) === k)!,
      );
    }
    const rows = new Set(
      keys(s)
        .filter((k) => k.startsWith('place A1 ') || k.startsWith('place B1 '))
        .map((k) => k.split(' ')[2]),
    );
    // a 40-Ranker line is 1.6" deep in a 12" zone: rows 0…5 (back offsets 0, 2, …, 10)
    expect([...rows].sort()).toEqual(['row0', 'row1', 'row2', 'row3', 'row4', 'row5']);
  });
});

describe('validation: armies that cannot be set up are refused, naming the side and battalions', () => {
  it('a building across both zones', () => {
    const sc = crowded();
    const v = game.validateScenario({
      ...sc,
      terrain: [
        {
          type: 'building',
          id: 'town',
          polygon: [
            [0, 0],
            [72, 0],
            [72, 48],
            [0, 48],
          ],
        },
      ],
    });
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.problems[0]!.path).toBe('$.armies[0]');
      expect(v.problems[0]!.message).toMatch(
        /army "Blue" cannot be set up in the south zone: no room .* for A1, .*\[Setting up a battle\] \(M23_squeeze\)/,
      );
    }
  });
  it('more battalions than the zone holds (40 of 16 Green Rankers on 48")', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ id: `A${i + 1}`, rankers: 16, quality: 'Green' as const }));
    const v = game.validateScenario(alternateScenario({ width: 48, a: many, b: [{ id: 'B1', rankers: 24 }] }));
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.problems.map((p) => p.path)).toEqual(['$.armies[0]', '$.armies[0]']);
  });
  it('25 battalions of 16 Green Rankers on 48" now fit (the old two rows held 24) and deploy', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ id: `A${i + 1}`, rankers: 16, quality: 'Green' as const }));
    const sc = valid(alternateScenario({ width: 48, a: many, b: [{ id: 'B1', rankers: 24 }] }));
    const s = deployRandomly(sc, seedrandom.alea('25'));
    expect(s.units.every((b) => b.placed)).toBe(true);
  });
  it('grids outside 1"–6" and repeated or empty movement options are refused, naming M7/M23', () => {
    const bad = (options: Record<string, unknown>) => {
      const v = game.validateScenario({ ...crowded(), options });
      return v.ok ? [] : v.problems.map((p) => `${p.path}: ${p.message}`);
    };
    expect(bad({ M23_grid: 100 }).join()).toMatch(/M23_grid.*6"/);
    expect(bad({ M7_obliques: [0, 45] }).join()).toMatch(/straight ahead is always offered/);
    expect(bad({ M7_obliques: [45, 45] }).join()).toMatch(/listed twice/);
    expect(bad({ M7_obliques: [] }).join()).toMatch(/at least one angle/);
    expect(bad({ M7_fractions: [] }).join()).toMatch(/at least one distance/);
    expect(bad({ M7_fractions: [0.5] }).join()).toMatch(/must include 1/);
    expect(bad({ M7_wheelAngles: [] }).join()).toMatch(/at least one wheel angle/);
    expect(bad({ M23_squeeze: 'none' }).join()).toMatch(/M23_squeeze/);
  });
});

describe('the Supreme Commander', () => {
  it('is offered "behind" a battalion exactly where 3" behind it is on the table', () => {
    const sc = valid(crowded());
    let refused = 0;
    let offered = 0;
    for (let g = 0; g < 15; g++) {
      const s = deployRandomly(sc, seedrandom.alea(`sc/${g}`), (st) => {
        const f = top(st);
        if (f?.t !== 'placeSC') return;
        const keys = new Set(game.legalActions(st).map((a) => game.actionKey(a)));
        for (const b of st.units.filter((u) => u.side === f.p)) {
          // 3" behind the body's rear edge, straight back toward the home edge
          const r = footprint(b);
          const south = st.sides[f.p].edge === 'south';
          const y = south ? b.y - r.d / 2 - 3 * IN : b.y + r.d / 2 + 3 * IN;
          const onTable = y >= 0 && y <= st.ctx.height;
          expect(keys.has(`sc-behind ${b.id}`), `${b.id} at y ${b.y}`).toBe(onTable);
          expect(keys.has(`sc-with ${b.id}`)).toBe(true);
          if (onTable) offered++;
          else refused++;
        }
      });
      expect(s.sides.every((x) => x.sc.placed)).toBe(true);
    }
    // the random placements used the rear rows often enough to exercise both cases
    expect(refused).toBeGreaterThan(0);
    expect(offered).toBeGreaterThan(0);
  });
});

describe('validation: everything on the table, terrain that is real ground, no typos', () => {
  const problems = (patch: (j: ReturnType<typeof crowded>) => unknown) => {
    const v = game.validateScenario(patch(crowded()));
    return v.ok ? '' : v.problems.map((p) => `${p.path}: ${p.message}`).join('\n');
  };
  const fixed = () => {
    const j = crowded() as Record<string, unknown>;
    return {
      ...j,
      armies: [
        { name: 'Blue', nationality: 'Other', battalions: [{ id: 'A1', name: 'A1', quality: 'Drilled', rankers: 24 }] },
        { name: 'Red', nationality: 'Other', battalions: [{ id: 'B1', name: 'B1', quality: 'Drilled', rankers: 24 }] },
      ],
      points: 24,
      terrain: [],
      deployment: {
        A: {
          edge: 'south',
          battalions: [{ id: 'A1', x: 30, y: 6, formation: 'Line', facing: 0 }],
          sc: { x: -50, y: 300 },
        },
        B: {
          edge: 'north',
          battalions: [{ id: 'B1', x: 30, y: 42, formation: 'Line', facing: 180 }],
          sc: { attach: 'B1' },
        },
      },
    };
  };
  it('accepts the crowded scenario and the fixed one with its commander on the table', () => {
    expect(problems((j) => j)).toBe('');
    expect(
      problems(() => ({
        ...fixed(),
        deployment: { ...fixed().deployment, A: { ...fixed().deployment.A, sc: { x: 30, y: 2 } } },
      })),
    ).toBe('');
  });
  it('a Supreme Commander or an objective off the table', () => {
    expect(problems(() => fixed())).toMatch(
      /\$\.deployment\.A\.sc: Supreme Commander point \(-50, 300\) is off the 72"×48" table/,
    );
    expect(problems((j) => ({ ...j, objectives: [{ id: 'o', x: 10, y: 450 }] }))).toMatch(
      /\$\.objectives\[0\]: objective "o" point \(10, 450\) is off/,
    );
  });
  it('terrain off the table, with no area, crossing itself, or a hill whose crest is outside it', () => {
    expect(
      problems((j) => ({
        ...j,
        terrain: [
          {
            type: 'woods',
            id: 'w',
            polygon: [
              [1e15, 0],
              [1e15, 10],
              [1e15 + 5, 10],
            ],
          },
        ],
      })),
    ).toMatch(/\$\.terrain\[0\]\.polygon\[0\]: woods "w" point .* is off/);
    expect(
      problems((j) => ({
        ...j,
        terrain: [
          {
            type: 'woods',
            id: 'w',
            polygon: [
              [10, 20],
              [20, 20],
              [30, 20],
            ],
          },
        ],
      })),
    ).toMatch(/woods "w" encloses no area/);
    expect(
      problems((j) => ({
        ...j,
        terrain: [
          {
            type: 'building',
            id: 'b',
            polygon: [
              [10, 20],
              [20, 30],
              [20, 20],
              [10, 30],
            ],
          },
        ],
      })),
    ).toMatch(/building "b" crosses itself/);
    expect(
      problems((j) => ({
        ...j,
        terrain: [
          {
            type: 'hill',
            id: 'h',
            polygon: [
              [10, 20],
              [20, 20],
              [20, 30],
              [10, 30],
            ],
            crest: [40, 40],
          },
        ],
      })),
    ).toMatch(/crest of hill "h" is not inside/);
    expect(
      problems((j) => ({
        ...j,
        terrain: [
          {
            type: 'hedge',
            id: 'h',
            points: [
              [10, 20],
              [10, 20],
            ],
          },
        ],
      })),
    ).toMatch(/hedge "h" has no length/);
  });
  it('duplicate terrain or objective ids, a battalion placed twice, and unknown keys at any level', () => {
    expect(
      problems((j) => ({
        ...j,
        terrain: [
          ...j.terrain,
          {
            type: 'hedge',
            id: 'w1',
            points: [
              [1, 20],
              [5, 20],
            ],
          },
        ],
      })),
    ).toMatch(/\$\.terrain\[3\]\.id: duplicate terrain id "w1"/);
    expect(
      problems((j) => ({
        ...j,
        objectives: [
          { id: 'o', x: 1, y: 1 },
          { id: 'o', x: 2, y: 2 },
        ],
      })),
    ).toMatch(/duplicate objective id "o"/);
    const twice = fixed();
    twice.deployment.A.battalions.push({ ...twice.deployment.A.battalions[0]! });
    expect(problems(() => twice)).toMatch(/battalion "A1" is placed twice/);
    expect(
      problems((j) => ({
        ...j,
        armies: [
          { ...j.armies[0]!, battalions: j.armies[0]!.battalions.map((b, i) => (i ? b : { ...b, Light: true })) },
          j.armies[1],
        ],
      })),
    ).toMatch(/^\$\.armies\[0\]\.battalions\[0\]: unknown key "Light" \(did you mean "light"\?\)$/);
  });
});
