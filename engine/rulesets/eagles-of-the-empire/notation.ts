/**
 * The notation of Eagles of the Empire's actions (`actionKey`): the canonical text of every action and chance outcome,
 * by which the runtime checks an action against the ones offered and replays name their moves (README, Notation).
 */
import type { Action } from './types.ts';

export function actionKey(a: Action): string {
  switch (a.k) {
    case 'arrive':
      return `arrive ${a.g}`;
    case 'delay':
      return `delay ${a.g}`;
    case 'placeAt':
      return `place ${a.area}`;
    case 'face':
      return `face ${a.u} ${a.conf}`;
    case 'first':
      return `go-first ${a.self ? 'self' : 'opponent'}`;
    case 'roll':
      return 'attempt';
    case 'pass':
      return 'pass';
    case 'grandCharge':
      return `grand-charge ${a.leader}`;
    case 'select':
      return `select ${a.f}`;
    case 'next':
      return 'next';
    case 'fire':
      return `fire ${a.u} ${a.to}`;
    case 'shoot':
      return a.cb ? 'shoot counter-battery' : 'shoot';
    case 'mvUnit':
      return `move ${a.u}`;
    case 'mvStack':
      return `move-stack ${a.area}`;
    case 'mvLeader':
      return `move-leader ${a.l}`;
    case 'mvWithLeader':
      return `move ${a.u} with ${a.l}`;
    case 'mvHq':
      return 'move-hq';
    case 'to':
      return a.mode === 'normal' ? `to ${a.area}` : `to ${a.area} ${a.mode}`;
    case 'stop':
      return 'stop';
    case 'routOff':
      return 'rout-off-map';
    case 'hit':
      return `hit ${a.u}`;
    case 'goTo':
      return `go ${a.area}`;
    case 'square':
      return `square ${a.area} ${a.on ? 'on' : 'off'}`;
    case 'assault':
      return `assault ${a.target}`;
    case 'join':
      return `join ${a.u}`;
    case 'resolve':
      return 'resolve';
    case 'fireAt':
      return `fire-at ${a.area}`;
    case 'stand':
      return 'stand';
    case 'retreat':
      return 'retreat';
    case 'advance':
      return `advance ${a.u}`;
    case 'charge':
      return `charge ${a.area}>${a.target}`;
    case 'escort':
      return `escort ${a.l}`;
    case 'pursue':
      return `pursue ${a.sign > 0 ? '+1' : a.sign}`;
    case 'attach':
      return `attach ${a.u} ${a.lc}`;
    case 'detach':
      return `detach ${a.u}`;
    case 'reserve':
      return `reserve ${a.u} ${a.to}`;
    case 'artLeader':
      return `art-leader ${a.l} ${a.to}`;
    case 'deploy':
      return `deploy ${a.id}`;
    case 'reabsorb':
      return `reabsorb ${a.id}`;
    case 'gcFirst':
      return `gc-via ${a.area}`;
    case 'gcTarget':
      return `gc-target ${a.target}`;
    case 'gcAfter':
      return `gc-${a.mode}`;
    case 'reverseSlope':
      return `reverse-slope ${a.u} ${a.on ? 'on' : 'off'}`;
    case 'massedColumn':
      return `massed-column ${a.u} ${a.target}`;
    case 'extend':
      return `extend ${a.u} ${a.to.join('+')}`;
    case 'retract':
      return `retract ${a.u} ${a.into}`;
    case 'c-weather':
      return `roll:weather ${a.w}`;
    case 'c-first':
      return `roll:first ${a.winner}`;
    case 'c-die':
      return `roll:die ${a.face}`;
    case 'c-hits':
      return `roll:hits ${a.n}`;
    case 'c-pass':
      return `roll:${a.ok ? 'pass' : 'fail'}`;
  }
}
