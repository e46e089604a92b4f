import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { loadScenario } from '../../../arena/catalog.ts';
import { deepFreeze, type GameEvent } from '../../core/game.ts';
import { hashHex } from '../../core/hash.ts';
import { divide, perft } from '../../core/perft.ts';
import { sampleOutcome } from '../../../arena/dice.ts';
import { getRuleset } from '../index.ts';
import { eaglesOfTheEmpire as game, type Action, type EState } from './index.ts';

const { scenario } = loadScenario('eagles-of-the-empire', 'hohenwald-1809');
const small = loadScenario('eagles-of-the-empire', 'hohenwald-outposts').scenario;

function playKeys(s: EState, keys: string[]): EState {
  for (const k of keys) {
    const tm = game.toMove(s);
    const list = tm.kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s);
    const a = list.find((x) => game.actionKey(x) === k);
    if (!a) throw new Error(`"${k}" is not legal here; legal: ${list.map((x) => game.actionKey(x)).join(' | ')}`);
    s = game.apply(s, a);
  }
  return s;
}

describe('Eagles of the Empire as a Game', () => {
  it('is registered, and its scenarios load with the map embedded by the catalog', () => {
    expect(getRuleset('eagles-of-the-empire')).toBe(game);
    expect(scenario.mapData.id).toBe('hohenwald-1809');
    expect(game.validateScenario(scenario).ok).toBe(true); // a validated scenario re-validates (replays embed it)
  });

  it('refuses a scenario without its map, with a broken map, or with markers the rules do not allow (16.0, 16.8)', () => {
    const { mapData: _, ...bare } = scenario;
    const a = game.validateScenario(bare);
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.problems[0]!.path).toBe('$.mapData');
    const b = game.validateScenario({ ...scenario, mapData: { ...scenario.mapData, areas: [] } });
    expect(b.ok).toBe(false);
    if (!b.ok) expect(b.problems.every((p) => p.path.startsWith('$.mapData'))).toBe(true);
    const lone = JSON.parse(JSON.stringify(scenario));
    lone.sides[1].formations[1].forces[0].units[0].extendedLines = { half: 0, third: 1 };
    const c = game.validateScenario(lone);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.problems.map((p) => p.message).join()).toMatch(/single 1\/3 marker.*16\.8/);
    const onArtillery = JSON.parse(JSON.stringify(scenario));
    onArtillery.sides[1].formations[1].forces[0].units[1].extendedLines = { half: 1, third: 0 };
    const d = game.validateScenario(onArtillery);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.problems.map((p) => p.message).join()).toMatch(/only infantry long counters.*16\.0/);
  });

  it('perft from the start, hand-counted: first-player roll (2) → choice (2) → attempt (French 3 with the Grand Charge, Russians 2)', () => {
    const s = game.initialState(scenario);
    expect(perft(game, s, 1)).toBe(2);
    expect(perft(game, s, 2)).toBe(4);
    expect(perft(game, s, 3)).toBe(3 + 2 + 2 + 3);
    // the French attempt: roll (6 faces), pass (→ the Russian attempt: roll or pass), or Murand's Grand Charge, whose
    // only common first area is the West Meadow (9), from the hussars' Oberdorf (8) at the Mill Meadow (10)
    const fr = playKeys(s, ['roll:first 0', 'go-first self']);
    expect(divide(game, fr, 2)).toEqual({ attempt: 6, pass: 2, 'grand-charge murand': 1 });
    expect(game.legalActions(playKeys(fr, ['grand-charge murand'])).map((a) => game.actionKey(a))).toEqual([
      'gc-via 9',
    ]);
    expect(game.legalActions(playKeys(fr, ['grand-charge murand', 'gc-via 9'])).map((a) => game.actionKey(a))).toEqual([
      'gc-target 10',
    ]);
  });

  it('plays random games through the validating apply: never mutates, unique action keys, every decision described, deterministic', () => {
    for (const sc of [small, scenario]) {
      const finals: string[] = [];
      for (let rep = 0; rep < 2; rep++) {
        const rng = seedrandom.alea(`eote-game-${sc.id}`);
        let s = deepFreeze(game.initialState(sc));
        for (let i = 0; i < 20000 && game.toMove(s).kind !== 'terminal'; i++) {
          const tm = game.toMove(s);
          let a: Action;
          if (tm.kind === 'chance') a = sampleOutcome(game.chanceOutcomes(s), rng()).action;
          else {
            const l = game.legalActions(s);
            const keys = l.map((x) => game.actionKey(x));
            expect(new Set(keys).size).toBe(keys.length);
            expect(game.describeDecision!(s).length).toBeGreaterThan(0);
            a = l[Math.floor(rng() * l.length)]!;
          }
          const h = hashHex(game.hash(s));
          const events: GameEvent[] = [];
          const n = deepFreeze(game.apply(s, a, events));
          expect(hashHex(game.hash(s))).toBe(h);
          for (const e of events) expect(e.rule).toMatch(/^(\d+(\.\d+)*|A-\d+)$/);
          s = n;
        }
        expect(game.toMove(s).kind).toBe('terminal');
        expect(game.resultText(s)).toMatch(/VP/);
        expect(game.render(s)).toMatch(/RESULT/);
        finals.push(hashHex(game.hash(s)));
      }
      expect(finals[0]).toBe(finals[1]);
    }
  });

  it('rejects an illegal action with its key and the decision named', () => {
    const s = playKeys(game.initialState(scenario), ['roll:first 0', 'go-first self']);
    expect(() => game.apply(s, { k: 'select', f: 'f-I' })).toThrow(/illegal action "select f-I".*activation attempt/);
  });
});
