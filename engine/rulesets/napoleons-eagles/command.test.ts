/** Napoleon's Eagles: A-26 command lines [p.16] — paths round the enemy's zones, rivers, and crossing lines. */
import { describe, expect, it } from 'vitest';
import { type Json, quick, setUnits } from '../../../test/ne-fixtures.ts';
import type { GameEvent } from '../../core/game.ts';
import { IN } from './board.ts';
import { type CommandBody, commandLines, commandPathLength, reachLength } from './command.ts';
import { napoleonsEagles as game } from './index.ts';
import type { CommandLeader } from './morale.ts';
import { commandCentre, commandDistance } from './shape.ts';
import { internals, type SeqState } from './turn.ts';

type U = { id: string; [k: string]: unknown };
const unit = (j: Json, id: string): U => j.sides.flatMap((s: { units: U[] }) => s.units).find((u: U) => u.id === id);

/**
 * quick-test with Foy standing free at (8, 9) and Q2 in line at (21, 9) facing north, its centre about 13" from him
 * (his radius 15"); the rest of the French out of the way. `blocker` places the enemy B1 (a line of 18) across the
 * straight line between them, end-on (facing east), unless false.
 */
function scene(edit?: (j: Json) => void, blocker = true): SeqState {
  return quick((j) => {
    const fr = j.sides[0];
    delete fr.leaders[1].attached;
    Object.assign(fr.leaders[1], { x: 8, y: 9 });
    Object.assign(unit(j, 'Q2'), { x: 21, y: 9, facing: 0 });
    if (blocker) Object.assign(unit(j, 'B1'), { x: 15, y: 9, facing: 90 });
    edit?.(j);
  });
}

const ooc = (s: SeqState, id: string) => s.units.find((u) => u.id === id)!.ooc;
const body = (s: SeqState, id: string) => internals.tableUnit(s, s.units.find((u) => u.id === id)!);
const foy = (s: SeqState) => {
  const l = s.leaders.find((x) => x.id === 'Foy')!;
  return { x: l.x, y: l.y };
};

/** Plays quiet choices (no unit moves) into the next period, with the events: its step 1 marks command again. */
function nextPeriod(s0: SeqState): { t: SeqState; events: GameEvent[] } {
  const events: GameEvent[] = [];
  let s = s0;
  for (let i = 0; i < 500 && s.period === s0.period; i++) {
    const outs = game.chanceOutcomes(s);
    if (outs.length) {
      s = game.apply(s, outs[0]!.action, events);
      continue;
    }
    const acts = game.legalActions(s);
    const a =
      ['finish', 'end', 'stay', 'stand in place', 'hold', 'bid 0'].find((k) => acts.includes(k)) ??
      acts.find((k) => k.startsWith('activate')) ??
      acts[0]!;
    s = game.apply(s, a, events);
  }
  return { t: s, events };
}

describe("Napoleon's Eagles: A-26 command paths round the enemy [p.16]", () => {
  it('a unit in range by the straight line but not round an enemy block is out of command', () => {
    const s = scene();
    const straight = commandDistance(foy(s), body(s, 'Q2'));
    expect(straight).toBeLessThan(15 * IN);
    expect(ooc(s, 'Q2')).toBe(true);
    // the path round B1's zone is longer than 15"
    const bodies: CommandBody[] = s.units.map((u) => internals.tableUnit(s, u));
    expect(commandPathLength(s.sc, '0', bodies, foy(s), body(s, 'Q2'))).toBeGreaterThan(15 * IN);
    // the same position without B1 in the way, or with the straight-distance option: in command
    expect(ooc(scene(undefined, false), 'Q2')).toBe(false);
    expect(
      ooc(
        scene((j) => (j.options = { ...j.options, commandLines: 'straight' })),
        'Q2',
      ),
    ).toBe(false);
    // the step 1 event says A-26 decided it
    const { events } = nextPeriod(s);
    const e = events.find((x) => x.text.startsWith('out of command'));
    expect(e?.rule).toBe('A-26');
    expect(e?.text).toMatch(/Q2 \(A-26: no way from Foy round the enemy within 15"/);
  });

  it('a shorter way round stays in command: a small block is passed', () => {
    // B1 facing north, its zone across the line from Foy (now at (8, 10)) just above Q2: the way round adds little
    const s = scene((j) => {
      j.sides[0].leaders[1].y = 10;
      Object.assign(unit(j, 'B1'), { x: 15, y: 10.5, facing: 0 });
    });
    const bodies: CommandBody[] = s.units.map((u) => internals.tableUnit(s, u));
    const path = commandPathLength(s.sc, '0', bodies, foy(s), body(s, 'Q2'));
    expect(path).toBeGreaterThan(commandDistance(foy(s), body(s, 'Q2')) + 0.2 * IN);
    expect(path).toBeLessThanOrEqual(15 * IN);
    expect(ooc(s, 'Q2')).toBe(false);
  });

  it('an enemy skirmish screen does not block; the same unit formed does', () => {
    // B2 (light infantry) in skirmish order from the south edge to the north edge at x 15
    const away = (j: Json) => {
      Object.assign(unit(j, 'B1'), { x: 30, y: 20 });
      Object.assign(unit(j, 'Q1'), { x: 30, y: 4 });
    };
    const screen = scene((j) => {
      away(j);
      Object.assign(unit(j, 'B2'), { x: 15, y: 12, facing: 90, formation: 'skirmish' });
    }, false);
    expect(ooc(screen, 'Q2')).toBe(false);
    const formed = scene((j) => {
      away(j);
      Object.assign(unit(j, 'B2'), { x: 15, y: 9, facing: 90 });
    }, false);
    expect(ooc(formed, 'Q2')).toBe(true);
  });

  it('an enemy in retreat status does not block', () => {
    const s = scene();
    const bodies = (t: SeqState): CommandBody[] =>
      t.units.map((u) => ({ ...internals.tableUnit(t, u), retreating: u.retreating }));
    const retreating = setUnits(s, { B1: { retreating: true } });
    const straight = commandDistance(foy(s), body(s, 'Q2'));
    expect(commandPathLength(s.sc, '0', bodies(s), foy(s), body(s, 'Q2'))).toBeGreaterThan(15 * IN);
    expect(commandPathLength(s.sc, '0', bodies(retreating), foy(s), body(s, 'Q2'))).toBeCloseTo(straight, 6);
  });

  it('an uncrossable river blocks, except at a bridge or a ford; a crossable one does not', () => {
    const river = (crossable: boolean, gap?: 'bridge' | 'ford') => (j: Json) => {
      j.terrain.push({
        type: 'river',
        id: 'brook',
        points: [
          [11, 0],
          [11, 24],
        ],
        crossable,
      });
      if (gap === 'bridge')
        j.terrain.push({
          type: 'bridge',
          id: 'span',
          river: 'brook',
          capacity: 8,
          polygon: [
            [10, 8],
            [12, 8],
            [12, 10],
            [10, 10],
          ],
        });
      if (gap === 'ford')
        j.terrain.push({
          type: 'ford',
          id: 'wade',
          river: 'brook',
          polygon: [
            [10, 10],
            [12, 10],
            [12, 12],
            [10, 12],
          ],
        });
    };
    expect(ooc(scene(river(false), false), 'Q2')).toBe(true);
    expect(ooc(scene(river(true), false), 'Q2')).toBe(false);
    expect(ooc(scene(river(false, 'bridge'), false), 'Q2')).toBe(false);
    expect(ooc(scene(river(false, 'ford'), false), 'Q2')).toBe(false);
    // the bridge's way is longer than the straight line (Q2's centre is below y 9), the ford's longer still
    const len = (s: SeqState) =>
      commandPathLength(
        s.sc,
        '0',
        s.units.map((u) => internals.tableUnit(s, u)),
        foy(s),
        body(s, 'Q2'),
      );
    const open = scene(undefined, false);
    const bridged = scene(river(false, 'bridge'), false);
    const forded = scene(river(false, 'ford'), false);
    expect(len(bridged)).toBeGreaterThanOrEqual(len(open));
    expect(len(forded)).toBeGreaterThan(len(bridged));
    expect(len(scene(river(false), false))).toBe(Number.POSITIVE_INFINITY);
  });

  it("a leader chain: a division leader cut off from his superior's radius puts his units out of command", () => {
    // an uncrossable river along y 6 from the west edge to x 30: Ney (army) at (18, 0.5) reaches Foy at (8, 9),
    // 13" straight, only round its east end (about 35.4")
    const chain = (radius: number, more?: (j: Json) => void) =>
      scene((j) => {
        j.terrain.push({
          type: 'river',
          id: 'brook',
          points: [
            [0, 6],
            [30, 6],
          ],
          crossable: false,
        });
        j.sides[0].leaders[0].radius = radius;
        more?.(j);
      }, false);
    expect(ooc(chain(40), 'Q2')).toBe(false);
    expect(ooc(chain(35), 'Q2')).toBe(true);
    expect(
      ooc(
        chain(35, (j) => (j.options = { ...j.options, commandLines: 'straight' })),
        'Q2',
      ),
    ).toBe(false);
  });
});

describe("Napoleon's Eagles: A-26 opposing command lines that cross [p.16]", () => {
  // two units and their leaders, placed by hand: a French line west–east, an Allied one south–north crossing it
  const s = scene(undefined, false);
  const q2 = body(s, 'Q2');
  const b2 = { ...body(s, 'B2'), at: { x: 1500, y: 300, facing: 180 } };
  const cq = commandCentre(q2);
  const cb = commandCentre(b2);
  const lead = (id: string, superior: string, x: number, y: number): CommandLeader => ({
    id,
    rank: 'division',
    superior,
    x,
    y,
    radius: 15,
  });
  const run = (frenchLength: number, alliedLength: number) =>
    commandLines(
      s.sc,
      [q2, b2],
      [
        {
          side: '0',
          leaders: [lead('Foy', '', cq.x - frenchLength, cq.y)],
          units: [{ id: 'Q2', commander: 'Foy', body: q2 }],
          leaderLines: true,
        },
        {
          side: '1',
          leaders: [lead('Pack', '', cb.x, cb.y + alliedLength)],
          units: [{ id: 'B2', commander: 'Pack', body: b2 }],
          leaderLines: true,
        },
      ],
    );

  it('the longer line is broken; the shorter stands', () => {
    const r = run(1300, 1200);
    expect(r.units.get('Q2')!.brokenBy).toBe('Pack→B2');
    expect(reachLength(r.units.get('Q2')!)).toBe(Number.POSITIVE_INFINITY);
    expect(r.units.get('B2')!.brokenBy).toBeNull();
    expect(reachLength(r.units.get('B2')!)).toBeCloseTo(1200, 6);
    const t = run(1100, 1200);
    expect(t.units.get('Q2')!.brokenBy).toBeNull();
    expect(t.units.get('B2')!.brokenBy).toBe('Foy→Q2');
  });

  it('equal lengths: both stand', () => {
    const r = run(1200, 1200);
    expect(r.units.get('Q2')!.brokenBy).toBeNull();
    expect(r.units.get('B2')!.brokenBy).toBeNull();
  });

  it('lines that do not cross, or a line out of range, contest nothing', () => {
    // Pack behind B2's centre to the south: his line runs south, clear of the French one
    const apart = commandLines(
      s.sc,
      [q2, b2],
      [
        {
          side: '0',
          leaders: [lead('Foy', '', cq.x - 1300, cq.y)],
          units: [{ id: 'Q2', commander: 'Foy', body: q2 }],
          leaderLines: true,
        },
        {
          side: '1',
          leaders: [lead('Pack', '', cb.x, cb.y - 100)],
          units: [{ id: 'B2', commander: 'Pack', body: b2 }],
          leaderLines: true,
        },
      ],
    );
    expect(apart.units.get('Q2')!.brokenBy).toBeNull();
    // an Allied line of 16" (radius 15") is no line of command: it breaks nothing
    expect(run(1300, 1600).units.get('Q2')!.brokenBy).toBeNull();
  });
});
