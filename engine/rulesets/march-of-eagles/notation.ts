/** The March of Eagles' notation: the canonical text of every action (replays, logs, the validating apply). */
import { IN } from '../../geometry/geometry.ts';
import type { Action } from './types.ts';

function fmtIn(units: number): string {
  return (units / IN).toFixed(2).replace(/\.?0+$/, '');
}

export function actionKey(a: Action): string {
  switch (a.k) {
    case 'side':
      return `side ${a.edge}`;
    case 'skirm':
      return `skirmishers ${a.n}`;
    case 'placer':
      return `place-first ${a.self ? 'self' : 'opponent'}`;
    case 'place':
      return `place ${a.u} row${a.row} ${a.f === 'L' ? 'line' : 'column'}${a.scr ? ` screen-${a.scr}` : ''}`;
    case 'x':
      return `at-x ${fmtIn(a.x)}`;
    case 'placeSC':
      return `${a.behind ? 'sc-behind' : 'sc-with'} ${a.attach}`;
    case 'first':
      return `go-first ${a.self ? 'self' : 'opponent'}`;
    case 'activate':
      return `activate ${a.u}`;
    case 'pass':
      return `pass ${a.u}`;
    case 'move':
      return `move ${a.u} ${a.dir > 0 ? '+' : ''}${a.dir}`;
    case 'back':
      return `back ${a.u}`;
    case 'wheel':
      return `wheel ${a.u} ${a.side}`;
    case 'form':
      return `form ${a.u}`;
    case 'facing':
      return `facing ${a.h}`;
    case 'reform':
      return `reform ${a.u}`;
    case 'shoot':
      return `shoot ${a.u} ${a.target}`;
    case 'attack':
      return `attack ${a.u} ${a.target}`;
    case 'rally':
      return `rally ${a.u}`;
    case 'fight':
      return `fight ${a.e}`;
    case 'sc':
      return 'sc-move';
    case 'dist':
      return `distance ${fmtIn(a.d)}`;
    case 'angle':
      return `angle ${a.a}`;
    case 'screen':
      return `screen ${a.pos}`;
    case 'screenTarget':
      return `screen-target ${a.target}`;
    case 'defFire':
      return `defensive-fire ${a.yes ? 'yes' : 'no'}`;
    case 'followUp':
      return `follow-up ${a.yes ? 'yes' : 'no'}`;
    case 'scDest':
      return a.mode === 'stay' ? 'sc-stay' : a.mode === 'attach' ? `sc-join ${a.to}` : `sc-behind ${a.to}`;
    case 'c-win':
      return `roll:winner ${a.side === 0 ? 'A' : 'B'}`;
    case 'c-check':
      return `roll:${a.pass ? 'pass' : 'fail'}${a.used ? `+${a.used}` : ''}`;
    case 'c-sum':
      return `roll:sum ${a.sum}`;
    case 'c-die':
      return `roll:die ${a.face}`;
    case 'c-hits':
      return `roll:hits ${a.hits}${a.six ? ' six' : ''}${a.used ? ` r${a.used}` : ''}`;
    case 'c-char':
      return `roll:char ${a.which}`;
    case 'c-band':
      return `roll:band ${a.band}`;
    case 'c-combat':
      return `roll:combat ${a.res}`;
    case 'c-lost':
      return `roll:lost d${a.drum} s${a.sgt} e${a.ens} o${a.off} c${a.sc}`;
  }
}
