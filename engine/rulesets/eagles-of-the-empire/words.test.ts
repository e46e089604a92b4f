/**
 * Eagles of the Empire at the terminal: areas named by name in every action, decision and event ("Mill Meadow (10)",
 * not "area 10" or a bare "go 10"), a key to the unit codes with the table, and the target of every roll the events
 * report. The action keys stay as they were (replays name moves by them).
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { loadScenario } from '../../../arena/catalog.ts';
import type { GameEvent } from '../../core/game.ts';
import { eaglesOfTheEmpire as game, type Action, type EState } from './index.ts';
import { areaLabel, nameAreas } from './words.ts';

const { scenario } = loadScenario('eagles-of-the-empire', 'hohenwald-1809');

/** A bare area number in a text meant for a person: "area 10", "areas 3 and 4", or an action that is only a number. */
const BARE = /\bareas? \d/;

/** The rolls whose events must state what the die had to beat (a target), with their sections. */
const ROLLS = new Set(['14.41', '14.43', '17.12', '10.25', '15.1', '15.11', '15.13', '15.2', '19.1', '19.21', '19.3']);

function play(
  seed: string,
  visit: (s: EState, legal: readonly Action[], events: GameEvent[], chance: boolean) => void,
): void {
  const rng = seedrandom(seed);
  let s = game.initialState(scenario);
  for (let i = 0; i < 4000; i++) {
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') return;
    const legal = tm.kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s);
    const events: GameEvent[] = [];
    const a = legal[Math.floor(rng() * legal.length)]!;
    const before = s;
    s = game.apply(s, a, events);
    visit(before, tm.kind === 'chance' ? [] : legal, events, tm.kind === 'chance');
  }
}

describe('Eagles of the Empire in words at the terminal', () => {
  it('names an area by its name and number', () => {
    const s = game.initialState(scenario);
    expect(areaLabel(s, 10)).toBe('Mill Meadow (10)');
    expect(nameAreas(s, 'retreat from area 16 to area 23')).toBe('retreat from Hohenwald (16) to Eichwald (23)');
    expect(nameAreas(s, 'extends into areas 16 and 17')).toBe('extends into Hohenwald (16) and East Slope (17)');
    expect(nameAreas(s, 'area 999 is not on the map')).toBe('area 999 is not on the map');
  });

  it('describes every offered action and every decision without a bare area number, keys unchanged', () => {
    const kinds = new Set<string>();
    const rollEvents: GameEvent[] = [];
    for (const seed of ['w1', 'w2', 'w3'])
      play(seed, (s, legal, events, chance) => {
        if (legal.length) {
          const ask = game.describeDecision!(s);
          expect(ask, ask).not.toMatch(BARE);
        }
        for (const a of legal) {
          const d = game.describeAction(s, a);
          const key = game.actionKey(a);
          expect(d, key).not.toMatch(BARE);
          // an action that names an area says which, by name
          if (/^(go|to|place|fire-at|gc-via|gc-target|assault|move-stack) /.test(key)) {
            const id = Number(/\d+/.exec(key)![0]);
            expect(d, key).toContain(areaLabel(s, id));
          }
          kinds.add(a.k);
        }
        for (const e of events) {
          expect(e.text, `[${e.rule}] ${e.text}`).not.toMatch(BARE);
          expect(e.rule).toMatch(game.citation!);
          // a roll's outcome, not a rally that needs none [15.1, 15.12]
          if (chance && ROLLS.has(e.rule) && !/without a roll|has no long counter/.test(e.text)) rollEvents.push(e);
        }
      });
    expect(kinds.has('goTo')).toBe(true);
    expect(kinds.has('to')).toBe(true);
    expect(rollEvents.length).toBeGreaterThan(0);
    for (const e of rollEvents) expect(e.text, `[${e.rule}] ${e.text}`).toMatch(/d6[^)]*(≤|above)[^)]*\d/);
  });

  it('retreat choices read as the areas they go to', () => {
    let seen = false;
    for (const seed of ['w1', 'w2', 'w3', 'w4'])
      play(seed, (s, legal) => {
        for (const a of legal)
          if (a.k === 'goTo' && s.stack[s.stack.length - 1]?.t === 'retreatTo') {
            expect(game.describeAction(s, a)).toBe(`retreat to ${areaLabel(s, a.area)} [20.0]`);
            expect(game.actionKey(a)).toBe(`go ${a.area}`);
            seen = true;
          }
      });
    expect(seen).toBe(true);
  });

  it('states the target of the activation and hit rolls', () => {
    const texts: string[] = [];
    play('w1', (_s, _l, events) => {
      for (const e of events) texts.push(e.text);
    });
    expect(texts.some((t) => /activation roll: d6 = \d against initiative \d/.test(t))).toBe(true);
    expect(
      texts.some((t) => /hits? from \d+d6[+-]?\d* \((a 6 hits|\d\+ hits|every die hits|no die can hit)\)/.test(t)),
    ).toBe(true);
  });

  it('prints a key to the unit codes with the table', () => {
    const text = game.render(game.initialState(scenario));
    expect(text).toMatch(/key: .*I infantry, C cavalry, A artillery/);
    expect(text).toMatch(/"A5-5": step A .* 5 strength points .* morale 5/);
  });
});
