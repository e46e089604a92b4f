/**
 * The canonical text of every action (its key: unique among the options of any state) and its reading back. Orders
 * read like the sheets: "I1 charge J2", "I2 form Square facing 0", "A1 unlimber"; moves give direction and fraction.
 */
import type { Action, Order } from './types.ts';

/** A fraction as the menus offer it: 1/4, 1/2, 3/4, 1 (other values to 3 decimals). */
function frac(f: number): string {
  const named: Record<string, string> = { '0.25': '1/4', '0.5': '1/2', '0.75': '3/4', '1': 'full', '0': 'none' };
  return named[String(f)] ?? f.toFixed(3);
}

function orderText(o: Order): string {
  switch (o.o) {
    case 'hold':
      return 'hold';
    case 'move':
      return 'move';
    case 'form':
      return `form ${o.f} facing ${o.h}${o.thenMove ? ' then move' : ''}`;
    case 'charge':
      return `charge ${o.target}`;
    case 'rally':
      return 'rally';
    case 'limber':
      return 'limber';
    case 'unlimber':
      return 'unlimber';
  }
}

export function actionKey(a: Action): string {
  switch (a.a) {
    case 'first':
      return 'be first';
    case 'second':
      return 'be second';
    case 'attach':
      return `attach ${a.l} to ${a.u}`;
    case 'detach':
      return `detach ${a.l}`;
    case 'doneLeaders':
      return 'leaders done';
    case 'pick':
      return `pick ${a.u}`;
    case 'endMarch':
      return 'end march';
    case 'order':
      return `order ${orderText(a.order)}`;
    case 'move':
      return `move ${a.dir} ${frac(a.frac)}`;
    case 'wheel':
      return `wheel ${a.side} ${a.deg}`;
    case 'road':
      return `road ${frac(a.frac)}`;
    case 'enter':
      return `enter ${a.block}`;
    case 'leave':
      return `leave facing ${a.edge} in ${a.f}`;
    case 'stay':
      return 'stay';
    case 'square':
      return 'try square';
    case 'noSquare':
      return 'no square';
    case 'countercharge':
      return 'countercharge';
    case 'stand':
      return 'stand';
    case 'leaderTo':
      return `leader ${a.l} to ${a.u}`;
    case 'doneLeaderMoves':
      return 'leader moves done';
    case 'fire':
      return `fire at ${a.target}`;
    case 'holdFire':
      return 'hold fire';
    case 'recall':
      return `recall ${frac(a.frac)}`;
    case 'carry':
      return 'carry the position';
    case 'initWin':
      return `initiative ${'AB'[a.side]}`;
    case 'marchRoll':
      return `march ${a.r}`;
    case 'shotRoll':
      return `shot ${a.r}`;
    case 'meleeDiff':
      return `melee ${a.d}`;
  }
}
