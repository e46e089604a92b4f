/**
 * [Setting up a battle]: the roll-off for sides, the side chosen, skirmishers declared (M23), who places first, the
 * alternate placement of battalions (the zone and its packing are in deployment.ts) and the Supreme Commanders last.
 */
import { IN, onTable } from '../../geometry/geometry.ts';
import { layoutRect, placementChoices, placementXs, skirmisherChoices, withSkirmishers } from './deployment.ts';
import { ev, other, push, sideUnits, unit, upd, updSC, updSide, withState } from './state.ts';
import type { Action, Frame, Side } from './types.ts';
import { type MoeHandlers, behindPoint, named, owner, winOutcomes } from './common.ts';

export const setup: MoeHandlers<'rollOff' | 'chooseSide' | 'skirm' | 'firstPlacer' | 'place' | 'placeX' | 'placeSC'> = {
  rollOff: {
    kind: 'chance',
    outcomes: () => winOutcomes([0, 0]),
    step(s, _f, a, log) {
      const w = (a as Extract<Action, { k: 'c-win' }>).side;
      ev(log, 'Setting up a battle', `${s.sides[w].name} wins the roll-off for sides`);
      return push(withState(s, { rollWin: w }), { t: 'chooseSide', p: w });
    },
  },
  chooseSide: {
    kind: 'decision',
    owner,
    legal: () => [
      { k: 'side', edge: 'south' },
      { k: 'side', edge: 'north' },
    ],
    step(s0, f, a, log) {
      const edge = (a as Extract<Action, { k: 'side' }>).edge;
      const w = f.p;
      let s = updSide(s0, w, { edge });
      s = updSide(s, other(w), { edge: edge === 'south' ? 'north' : 'south' });
      ev(log, 'Setting up a battle', `${s.sides[w].name} sets up on the ${edge} edge`);
      // M23: skirmishers declared before placement, the roll-off winner first
      const order = [...sideUnits(s, w), ...sideUnits(s, other(w))];
      const frames: Frame[] = [{ t: 'firstPlacer', p: w }];
      for (const b of [...order].reverse()) frames.push({ t: 'skirm', p: b.side, u: b.id });
      return push(s, ...frames);
    },
    describe: () => 'you won the roll-off: choose the long table edge to set up on [Setting up a battle]',
  },
  skirm: {
    kind: 'decision',
    owner,
    legal: (s, f) => skirmisherChoices(s, unit(s, f.u)).map((n) => ({ k: 'skirm', n })),
    step(s, f, a, log) {
      const n = (a as Extract<Action, { k: 'skirm' }>).n;
      const b = unit(s, f.u);
      if (n) ev(log, 'Skirmishers', `${b.name} deploys ${n} skirmishers`);
      const { sk, skS, rk, G, scr } = withSkirmishers(b, n);
      return upd(s, f.u, { sk, skS, rk, G, scr });
    },
    describe: (s, f) =>
      `how many of ${named(s, f.u)}'s ${unit(s, f.u).start} Rankers deploy as skirmishers? They can never be recalled [Skirmishers]`,
  },
  firstPlacer: {
    kind: 'decision',
    owner,
    legal: () => [
      { k: 'placer', self: true },
      { k: 'placer', self: false },
    ],
    step(s, f, a, log) {
      const self = (a as Extract<Action, { k: 'placer' }>).self;
      const placer = self ? f.p : other(f.p);
      ev(log, 'Setting up a battle', `${s.sides[placer].name} places first`);
      return push(withState(s, { placer }), { t: 'place', p: placer });
    },
    describe: () => 'place the first battalion yourself, or make your opponent place first? [Setting up a battle]',
  },
  place: {
    kind: 'decision',
    owner,
    legal: (s, f) =>
      placementChoices(s, f.p).map(({ u, lay }) => ({ k: 'place', u, row: lay.row, f: lay.f, scr: lay.scr })),
    step(s, f, a) {
      const pa = a as Extract<Action, { k: 'place' }>;
      return push(s, { t: 'placeX', p: f.p, u: pa.u, row: pa.row, f: pa.f, scr: pa.scr });
    },
    describe: (s) =>
      `place a battalion: choose it, its formation and screen, and its row (row0 = front of your zone, 12" from the centre line; each row ${s.ctx.options.M23_grid}" further back; only placements that leave room for the rest of your army are offered)`,
  },
  placeX: {
    kind: 'decision',
    owner,
    legal: (s, f) => placementXs(s, unit(s, f.u), f).map((x) => ({ k: 'x', x })),
    step(s0, f, a, log) {
      const pa = { ...f, x: (a as Extract<Action, { k: 'x' }>).x };
      const pos = layoutRect(s0, unit(s0, pa.u), pa, pa.x);
      const s = upd(s0, pa.u, { x: pos.x, y: pos.y, h: pos.h, f: pa.f, scr: pa.scr, placed: true, on: true });
      ev(
        log,
        'Setting up a battle',
        `${unit(s, pa.u).name} placed at (${(pos.x / IN).toFixed(0)}, ${(pos.y / IN).toFixed(1)}) in ${pa.f === 'L' ? 'line' : 'column'}`,
      );
      const left = (p: Side) => sideUnits(s, p).some((b) => !b.placed);
      if (left(other(f.p))) return push(s, { t: 'place', p: other(f.p) });
      if (left(f.p)) return push(s, { t: 'place', p: f.p });
      // M23: Supreme Commanders last, the first placer's first
      return push(s, { t: 'placeSC', p: other(s.placer) }, { t: 'placeSC', p: s.placer });
    },
    describe: (s, f) =>
      `where along the zone does ${named(s, f.u)} stand? (x = its centre in inches from the west edge)`,
  },
  placeSC: {
    kind: 'decision',
    owner,
    legal(s, f) {
      // M23: with a battalion, or 3" behind it where that point is on the table
      const out: Action[] = [];
      for (const b of sideUnits(s, f.p)) {
        out.push({ k: 'placeSC', attach: b.id, behind: false });
        if (onTable([behindPoint(b)], s.ctx.width, s.ctx.height))
          out.push({ k: 'placeSC', attach: b.id, behind: true });
      }
      return out;
    },
    step(s0, f, a, log) {
      const pa = a as Extract<Action, { k: 'placeSC' }>;
      const b = unit(s0, pa.attach);
      const pt = pa.behind ? behindPoint(b) : { x: b.x, y: b.y };
      const s = updSC(s0, f.p, { x: pt.x, y: pt.y, att: pa.behind ? '' : b.id, placed: true });
      ev(
        log,
        'Setting up a battle',
        `${s.sides[f.p].name}'s Supreme Commander ${pa.behind ? `placed behind ${b.name}` : `joins ${b.name}`}`,
      );
      return s;
    },
    describe: () => 'place your Supreme Commander: with a battalion, or 3" behind it',
  },
};
