/**
 * Real dice at a physical table (`Game.rollAsk`, `Game.outcomeForFaces`): each chance node of Age of Eagles as the
 * D10s a person rolls (A1), and the faces read back on the table the node's outcomes come from (`diceFaces` in
 * index.ts shows faces for each outcome the same way).
 *
 * | frame | dice | read |
 * |---|---|---|
 * | initRoll [Initiative Phase] A2 | D10 each side | the higher wins; a tie is rolled again |
 * | march [March Table, Forming Square] | D10 + TMMs | the row of the unit's column (good order or disordered) |
 * | shot [Volley & Cannonade] | D10 + DRM | the row of the fire results table |
 * | melee [Bayonet & Sabre] | D10 attacker, D10 defender | the differential's row |
 *
 * Every chance node of the ruleset is a roll: none is a draw.
 */
import { type RealRoll, plus, realDice } from '../../core/faces.ts';
import { unitOf } from './state.ts';
import {
  BS_RESULTS,
  DIE_SIDES,
  FIRE_RESULTS,
  MARCH_TABLE_DISORDERED,
  MARCH_TABLE_GOOD_ORDER,
  rowIndex,
} from './tables.ts';
import type { Action, AoeState } from './types.ts';

type Roll = RealRoll<Action>;

function roll(s: AoeState): Roll | undefined {
  const f = s.stack[s.stack.length - 1];
  if (!f) return undefined;
  switch (f.t) {
    case 'initRoll': {
      const name = `turn ${s.turn}'s initiative [Initiative Phase] (A2)`;
      return {
        what: `${name}: D10 for ${s.sides[0].name}, D10 for ${s.sides[1].name}`,
        dice: [DIE_SIDES, DIE_SIDES],
        read: ([a, b]) =>
          a === b ? `${name}: ${a} each is a tie, rolled again` : { a: 'initWin', side: a! > b! ? 0 : 1 },
      };
    }
    case 'march': {
      const u = unitOf(s, f.u);
      const rows = u.dis ? MARCH_TABLE_DISORDERED : MARCH_TABLE_GOOD_ORDER;
      const why = f.square ? 'attempt to form square [Forming Square]' : 'March table check [March Table]';
      return {
        what: `${f.u}'s ${why}: D10${plus(f.mod)} on the ${u.dis ? 'disordered' : 'good order'} column`,
        dice: [DIE_SIDES],
        read: ([x]) => ({ a: 'marchRoll', r: rowIndex(rows, x! + f.mod) }),
      };
    }
    case 'shot':
      return {
        what: `${f.u}'s ${f.cannon ? 'cannonade' : 'volley'} at ${f.target} [Volley & Cannonade]: D10${plus(f.drm)} on the fire results`,
        dice: [DIE_SIDES],
        read: ([x]) => ({ a: 'shotRoll', r: rowIndex(FIRE_RESULTS, x! + f.drm) }),
      };
    case 'melee':
      return {
        what: `the combat at ${f.def} [Bayonet & Sabre]: D10${plus(f.amod)} for the attacker, D10${plus(f.dmod)} for the defender`,
        dice: [DIE_SIDES, DIE_SIDES],
        read: ([x, y]) => ({ a: 'meleeDiff', d: rowIndex(BS_RESULTS, x! + f.amod - (y! + f.dmod)) }),
      };
    default:
      return undefined;
  }
}

export const { rollAsk, outcomeForFaces } = realDice<AoeState, Action>(roll);
