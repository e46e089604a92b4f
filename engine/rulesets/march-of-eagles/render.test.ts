/**
 * March of Eagles' text picture (`render`) at the terminal: a ruler in inches along the top, bottom and left side,
 * declared skirmish screens drawn (M3), and a key to every character and unit code.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { loadScenario } from '../../../arena/catalog.ts';
import { marchOfEagles as game } from './index.ts';
import type { MoeState } from './types.ts';

const { scenario } = loadScenario('march-of-eagles', 'open-field');

/** A position from random play where some battalion on the table has declared a skirmish screen. */
function screened(): MoeState {
  const rng = seedrandom('render');
  let s = game.initialState(scenario);
  for (let i = 0; i < 400; i++) {
    if (s.units.some((b) => b.on && b.sk > 0 && b.scr !== null)) return s;
    const tm = game.toMove(s);
    if (tm.kind === 'terminal') break;
    const l = tm.kind === 'chance' ? game.chanceOutcomes(s).map((o) => o.action) : game.legalActions(s);
    s = game.apply(s, l[Math.floor(rng() * l.length)]!);
  }
  throw new Error('no screen declared in 400 plies');
}

const tableRows = (text: string) => text.split('\n').filter((l) => /^ {0,2}\d+ \|.*\|$/.test(l));

describe('March of Eagles at the terminal', () => {
  it('draws a ruler: inches every 6" along the top and bottom, each row\'s y down the left side', () => {
    const s = game.initialState(scenario);
    const lines = game.render(s).split('\n');
    const W = Math.round(s.ctx.width / 100);
    const H = Math.round(s.ctx.height / 100);
    const ruler = lines.filter((l) => /^ {5}0 {5}6 {5}12 {4}18/.test(l));
    expect(ruler).toHaveLength(2);
    const rows = tableRows(lines.join('\n'));
    expect(rows).toHaveLength(H / 2);
    expect(rows[0]!.startsWith(`${String(H - 2).padStart(3)} |`)).toBe(true);
    expect(rows[rows.length - 1]!.startsWith('  0 |')).toBe(true);
    expect(rows.every((r) => r.length === 5 + W + 1)).toBe(true);
    // a column's ruler mark stands over that column: 6" is the 7th cell
    expect(ruler[0]!.indexOf('6')).toBe(5 + 6);
  });

  it('draws declared skirmish screens, and nothing for them once they are withdrawn', () => {
    const s = screened();
    const text = game.render(s);
    expect(tableRows(text).some((r) => r.includes('*'))).toBe(true);
    expect(text).toMatch(/skirm \d+ screen (front|left|right|rear)/);
    const bare: MoeState = { ...s, units: s.units.map((b) => ({ ...b, scr: null })) };
    expect(tableRows(game.render(bare)).some((r) => r.includes('*'))).toBe(false);
  });

  it('prints a key to the table and the unit lines', () => {
    const text = game.render(game.initialState(scenario));
    expect(text).toMatch(/key: 1 column = 1", 1 row = 2"/);
    expect(text).toMatch(/\* a declared skirmish screen \(M3\)/);
    expect(text).toMatch(/A-Z a battalion of side A, a-z of side B/);
    expect(text).toMatch(/Off officer, Ens ensign, Dr×n drummers/);
  });
});
