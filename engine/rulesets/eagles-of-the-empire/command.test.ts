import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AreaMap } from '../../areas/map.ts';
import { type CommandInput, type EnemyPresence, commandDistance, nextCbI, traceCommand } from './command.ts';
import { type Scenario, formationsOf, parseStep, validateScenario } from './scenario.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'data');
const map = AreaMap.parse(
  JSON.parse(readFileSync(join(DATA, 'maps', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8')),
);
const json = JSON.parse(readFileSync(join(DATA, 'scenarios', 'eagles-of-the-empire', 'hohenwald-1809.json'), 'utf8'));
const v = validateScenario(json, map);
if (!v.ok) throw new Error(JSON.stringify(v.problems));
const sc: Scenario = v.value;

/** Command input for side `si` at set-up, with optional changes. */
function setupInput(
  si: 0 | 1,
  o: {
    moveLeader?: Record<string, number | null>;
    enemyAt?: Record<number, EnemyPresence>;
    hqLost?: boolean;
    cbi?: [string, boolean][];
    courier?: boolean;
  } = {},
): CommandInput {
  const leaderArea = new Map<string, number>();
  const unitArea = new Map<string, number>();
  let hq: number | null = null;
  for (const p of sc.setup[si]) {
    for (const l of p.leaders) leaderArea.set(l, p.area);
    for (const u of p.units) unitArea.set(u, p.area);
    if (p.hq) hq = p.area;
  }
  for (const [l, a] of Object.entries(o.moveLeader ?? {})) a === null ? leaderArea.delete(l) : leaderArea.set(l, a);
  const other = sc.setup[si === 0 ? 1 : 0];
  const enemyUnits = new Set(other.filter((p) => p.units.length).map((p) => p.area));
  const enemyHq = new Set(other.filter((p) => p.hq && !p.units.length).map((p) => p.area));
  return {
    map,
    side: sc.sides[si],
    leaderArea: (id) => leaderArea.get(id) ?? null,
    unitArea: (id) => unitArea.get(id) ?? null,
    hqArea: o.hqLost ? null : hq,
    hqLost: !!o.hqLost,
    enemy: (a) => o.enemyAt?.[a] ?? (enemyUnits.has(a) ? 'units' : enemyHq.has(a) ? 'hq-only' : 'none'),
    courier: () => o.courier ?? false,
    cbi: new Map(o.cbi ?? []),
  };
}

const everyone = (si: 0 | 1) => {
  const ids = new Set<string>();
  for (const p of sc.setup[si]) {
    p.units.forEach((u) => ids.add(u));
    p.leaders.forEach((l) => ids.add(l));
  }
  return ids;
};

describe('Hohenwald 1809 scenario file', () => {
  it('validates against its map, with every unit set up or arriving later', () => {
    expect(sc.sides.map((s) => s.structure)).toEqual(['flexible', 'rigid']);
    expect(formationsOf(sc.sides[1]).map(({ f }) => f.id)).toEqual(['r-hqf', 'r-1', 'r-1-1', 'r-1-2', 'r-2', 'r-cav']);
    expect(parseStep('A5-5', 'infantry')).toEqual({ label: 'A', sp: 5, morale: 5, form: 'long' });
    expect(parseStep('d2-3', 'infantry')).toMatchObject({ form: 'short' });
    expect(parseStep('a2', 'artillery')).toEqual({ label: 'a', sp: 2, morale: 3, form: 'short' });
    expect(parseStep('a2-3', 'artillery')).toMatch(/all artillery has morale 3 \[2\.21\]/);
  });
  it('reports broken scenarios by JSON path', () => {
    const bad = JSON.parse(JSON.stringify(json));
    bad.sides[0].armyCommander = 'murand';
    bad.setup[1][0].facing['R-2inf'] = 'NE';
    bad.sides[1].formations[3].units[0].steps = ['A3-5', 'b2-4'];
    bad.setup[0][0].units.push('F-1cuir');
    bad.reinforcements[0].area = 99;
    const r = validateScenario(bad, map);
    expect(r.ok).toBe(false);
    const text = r.ok ? '' : r.problems.map((p) => `${p.path}: ${p.message}`).join('\n');
    expect(text).toMatch(/\$\.sides\[0\]\.armyCommander: leader "murand" must have role armyCommander/);
    expect(text).toMatch(/\$\.setup\[1\]\[0\]\.facing\.R-2inf: area 10 has no conformation "NE"/);
    expect(text).toMatch(/cavalry step "A3-5" must be lower case/);
    expect(text).toMatch(/unit "F-1cuir" is placed twice/);
    expect(text).toMatch(/\$\.reinforcements\[0\]\.area: unknown area 99/);
  });
});

describe('command tracing [9.1–9.5] (digest §11.3 initial command check)', () => {
  it('puts every French leader and unit in command (Flexible, HQ radius 3 + 1, the Emperor 5 + 1 at the HQ)', () => {
    const inCmd = traceCommand(setupInput(0));
    for (const id of everyone(0)) expect(inCmd.has(id), id).toBe(true);
  });
  it('puts the Russian chain in command under the Rigid structure, including the diagonal traces', () => {
    const inCmd = traceCommand(setupInput(1));
    for (const id of everyone(1)) expect(inCmd.has(id), id).toBe(true);
    // 2nd Light Battery and the Licorne (18) trace to Pahlen (10): distance 2 ≤ radius 2
    expect(
      commandDistance(
        map,
        10,
        18,
        () => 'none',
        () => false,
      ),
    ).toBe(2);
    // 3rd Division (16) to Borzov (11): diagonal, corners 10 and 17 free of enemy
    expect(
      commandDistance(
        map,
        11,
        16,
        () => 'none',
        () => false,
      ),
    ).toBe(1);
  });
  it('loses a unit when its only allowed superior is out of reach (Rigid)', () => {
    // Pahlen goes to area 3: the batteries at 18 are 3 areas from him (radius 2), and Rigid allows no one else
    const inCmd = traceCommand(setupInput(1, { moveLeader: { pahlen: 3 } }));
    expect(inCmd.has('pahlen')).toBe(true);
    expect(inCmd.has('R-2light')).toBe(false);
    expect(inCmd.has('R-lic')).toBe(false);
    expect(inCmd.has('R-1pos')).toBe(true);
  });
  it('blocks a diagonal trace when a corner area holds enemy units, and paths through enemy areas', () => {
    const enemy = (a: number): EnemyPresence => (a === 10 ? 'units' : 'none');
    expect(commandDistance(map, 11, 16, enemy, () => false)).toBe(2); // round by 17
    const walled = (a: number): EnemyPresence => (a === 10 || a === 17 ? 'units' : 'none');
    expect(commandDistance(map, 11, 16, walled, () => false)).toBeGreaterThan(3);
    const leadersOnly = (a: number): EnemyPresence => (a === 10 || a === 17 ? 'leaders-only' : 'none');
    expect(commandDistance(map, 11, 16, leadersOnly, () => false)).toBe(1); // enemy leaders alone do not block [9.11]
  });
  it('lets couriers through an area held only by an enemy HQ on a 1–4 [9.12]', () => {
    const hqOnly = (a: number): EnemyPresence => (a === 8 ? 'hq-only' : a === 2 || a === 14 ? 'units' : 'none');
    expect(commandDistance(map, 7, 9, hqOnly, () => true)).toBe(2);
    expect(commandDistance(map, 7, 9, hqOnly, () => false)).toBeGreaterThan(2);
  });
  it('with the HQ lost, a Rigid army traces nothing and its formation leaders must roll CbI [9.51]', () => {
    const inp = setupInput(1, { hqLost: true });
    const inCmd = traceCommand(inp);
    expect(inCmd.has('ostrov')).toBe(false);
    expect(inCmd.has('R-1inf')).toBe(false);
    expect(nextCbI(inp, inCmd, 'r-1')).toBe('ostrov');
    // Ostrov succeeds: he and the units within his radius are in command; his force leaders then trace to him
    const after = setupInput(1, { hqLost: true, cbi: [['ostrov', true]] });
    const c2 = traceCommand(after);
    expect(c2.has('ostrov') && c2.has('lanskoy') && c2.has('pahlen') && c2.has('R-1inf') && c2.has('R-2light')).toBe(
      true,
    );
    expect(nextCbI(after, c2, 'r-1')).toBeNull();
    // Ostrov fails: each force leader out of his range rolls next
    const failed = setupInput(1, { hqLost: true, cbi: [['ostrov', false]] });
    expect(nextCbI(failed, traceCommand(failed), 'r-1')).toBe('lanskoy');
  });
  it('Absolute: the army commander is a source only while at the HQ (A-10)', () => {
    const abs = { ...sc.sides[1], structure: 'absolute' as const };
    const base = setupInput(1, { moveLeader: { barkov: 6 } });
    // Barkov away from the HQ; the HQ still commands the formation leaders
    expect(traceCommand({ ...base, side: abs }).has('borzov')).toBe(true);
    const noHq = { ...base, side: abs, hqArea: null };
    expect(traceCommand(noHq).has('uvarin')).toBe(false);
  });
});

describe('leaderless levels (A-50)', () => {
  it('under Rigid a force whose leader is gone is out of command; Flexible skips the empty level', () => {
    const rigid = setupInput(1, { moveLeader: { pahlen: null } });
    const c = traceCommand(rigid);
    expect(c.has('R-2inf')).toBe(false);
    const flex = { ...rigid, side: { ...sc.sides[1], structure: 'flexible' as const } };
    expect(traceCommand(flex).has('R-2inf')).toBe(true); // Ostrov (17) is adjacent to area 10
  });
});
