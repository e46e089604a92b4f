/**
 * Checks of a ruleset's real dice (`rollAsk` / `outcomeForFaces`) at chance nodes reached in play, for the per-ruleset
 * dice-faces tests: random games collect chance nodes by kind; at each, every outcome's `diceFaces` maps back to it,
 * every face combination gives a listed outcome or a refusal naming the roll, and faces off the dice are refused.
 */
import seedrandom from 'seedrandom';
import { sampleOutcome } from '../arena/dice.ts';
import type { Game } from '../engine/core/game.ts';

/** Chance nodes of random games from `start`, grouped by `kindOf`, at most `per` of each kind. */
export function chanceNodes<S, A, Sc>(
  game: Game<S, A, Sc>,
  start: () => S,
  kindOf: (s: S) => string,
  o: { seeds: number; per: number; maxPlies?: number },
): Map<string, S[]> {
  const out = new Map<string, S[]>();
  for (let g = 0; g < o.seeds; g++) {
    const rng = seedrandom.alea(`real-dice/${game.id}/${g}`);
    let s = start();
    for (let ply = 0; ply < (o.maxPlies ?? 5000); ply++) {
      const tm = game.toMove(s);
      if (tm.kind === 'terminal') break;
      if (tm.kind === 'chance') {
        const k = kindOf(s);
        const list = out.get(k) ?? [];
        if (list.length < o.per && (!list.length || rng() < 0.5)) list.push(s);
        out.set(k, list);
        s = game.apply(s, sampleOutcome(game.chanceOutcomes(s), rng()).action);
      } else {
        const legal = game.legalActions(s);
        s = game.apply(s, legal[Math.floor(rng() * legal.length)]!);
      }
    }
  }
  return out;
}

export interface RollReport {
  /** The roll's words, or undefined where the node is not dice. */
  readonly what?: string;
  readonly dice?: readonly number[];
  /** Broken promises, as text (empty: all well). */
  readonly problems: string[];
  /** A refusal of faces on the dice (an impossible combination), when one exists. */
  readonly refused?: { faces: number[]; error: string };
}

/** Every check at one chance node; `draws` displays per outcome. */
export function checkRollAt<S, A, Sc>(game: Game<S, A, Sc>, s: S, draws = 5): RollReport {
  const problems: string[] = [];
  const ask = game.rollAsk?.(s);
  if (!ask) return { problems };
  const outs = game.chanceOutcomes(s);
  const keys = new Set(outs.map((x) => game.actionKey(x.action)));
  const rng = seedrandom.alea(`faces/${ask.what}`);
  const map = (faces: readonly number[]) => game.outcomeForFaces!(s, faces);
  for (const x of outs) {
    const want = game.actionKey(x.action);
    for (let i = 0; i < draws; i++) {
      const faces = game.diceFaces?.(s, x.action, rng);
      if (!faces) {
        problems.push(`${ask.what}: no faces shown for "${want}"`);
        break;
      }
      if (faces.length !== ask.dice.length) {
        problems.push(`${ask.what}: ${faces.length} faces shown for "${want}", ${ask.dice.length} dice asked`);
        break;
      }
      const r = map(faces);
      const got = 'error' in r ? `refused: ${r.error}` : game.actionKey(r.action);
      if (got !== want) problems.push(`${ask.what}: faces ${faces.join(' ')} shown for "${want}" give "${got}"`);
    }
  }
  // a refusal names the roll: it starts with the words before the first colon of `what`
  const name = ask.what.split(':')[0]!;
  const total = ask.dice.reduce((a, k) => a * k, 1);
  let refused: RollReport['refused'];
  for (let i = 0; i < Math.min(total, 20_000); i++) {
    let n = total <= 20_000 ? i : Math.floor(rng() * total);
    const faces = ask.dice.map((k) => {
      const f = (n % k) + 1;
      n = Math.floor(n / k);
      return f;
    });
    const r = map(faces);
    if ('error' in r) {
      if (!r.error.startsWith(name)) problems.push(`refusal "${r.error}" does not name the roll "${name}"`);
      refused ??= { faces, error: r.error };
    } else if (!keys.has(game.actionKey(r.action)))
      problems.push(`${ask.what}: faces ${faces.join(' ')} give "${game.actionKey(r.action)}", not an outcome here`);
  }
  const offs = [
    ask.dice.map((k, i) => (i === 0 ? k + 1 : 1)),
    ask.dice.map((_, i) => (i === ask.dice.length - 1 ? 0 : 1)),
    ask.dice.map(() => 1.5),
    [...ask.dice.map(() => 1), 1],
  ];
  for (const f of offs) {
    const r = map(f);
    if (!('error' in r)) problems.push(`${ask.what}: faces off the dice ${f.join(' ')} accepted`);
    else if (!r.error.startsWith(name)) problems.push(`refusal "${r.error}" does not name the roll "${name}"`);
  }
  return { what: ask.what, dice: ask.dice, problems, ...(refused ? { refused } : {}) };
}
