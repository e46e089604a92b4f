/**
 * Replays: a versioned msgpack record of a game — ruleset id and version, scenario (embedded) and its hash, seed,
 * agents, every action and chance outcome with the state hash after it, the final hash and the result. Replaying
 * reproduces every intermediate hash. Pure encoding; reading and writing files is the caller's job.
 */
import { Packr } from 'msgpackr';
import { z } from 'zod';
import type { AnyGame } from './game.ts';
import { findActionByKey } from './game.ts';
import { hashHex, hashValue } from './hash.ts';
import { zodProblems } from './validate.ts';

export const REPLAY_FORMAT = 'eagles-replay';
export const REPLAY_VERSION = 1;

const stepSchema = z.object({
  /** Action text key. */
  a: z.string(),
  /** 1 if a chance outcome. */
  c: z.union([z.literal(0), z.literal(1)]),
  /** State hash (hex) after the step. */
  h: z.string().regex(/^[0-9a-f]{16}$/),
  /** Who moved (player index; -1 for chance). */
  p: z.number().int(),
});

/** Public API. @public */
export const replaySchema = z.object({
  format: z.literal(REPLAY_FORMAT),
  version: z.literal(REPLAY_VERSION),
  ruleset: z.string(),
  rulesetVersion: z.number().int(),
  scenarioId: z.string(),
  scenarioHash: z.string(),
  scenario: z.unknown(),
  options: z.record(z.string(), z.unknown()).optional(),
  seed: z.string(),
  agents: z.array(z.string()),
  initialHash: z.string(),
  steps: z.array(stepSchema),
  finalHash: z.string(),
  /** Null while a game is unfinished (e.g. aborted: the record so far is kept). */
  result: z.object({ returns: z.array(z.number()), text: z.string() }).nullable(),
  /** Why the game stopped early, if it did. */
  aborted: z.string().optional(),
});

export type Replay = z.infer<typeof replaySchema>;
export type ReplayStep = z.infer<typeof stepSchema>;

const packr = new Packr({ useRecords: false });

export class ReplayError extends Error {
  readonly code = 'replay/corrupt';
}

export function encodeReplay(r: Replay): Uint8Array {
  return packr.pack(r);
}

export function decodeReplay(buf: Uint8Array): Replay {
  let raw: unknown;
  try {
    raw = packr.unpack(buf);
  } catch (e) {
    throw new ReplayError(`not a replay: msgpack decoding failed (${(e as Error).message})`);
  }
  const r = replaySchema.safeParse(raw);
  if (!r.success) {
    const probs = zodProblems(r.error)
      .slice(0, 10)
      .map((p) => `${p.path}: ${p.message}`)
      .join('; ');
    throw new ReplayError(`not a valid ${REPLAY_FORMAT} v${REPLAY_VERSION}: ${probs}`);
  }
  return r.data;
}

export interface VerifyResult {
  readonly ok: boolean;
  readonly steps: number;
  readonly message: string;
  /** Index of the first step that failed, if any. */
  readonly at?: number;
}

/** Re-play every step from the embedded scenario and compare every hash. */
export function verifyReplay(game: AnyGame, r: Replay): VerifyResult {
  if (r.ruleset !== game.id)
    return { ok: false, steps: 0, message: `replay is for ruleset "${r.ruleset}", not "${game.id}"` };
  if (r.rulesetVersion !== game.version)
    return {
      ok: false,
      steps: 0,
      message: `replay was made with ${game.id} v${r.rulesetVersion}; this engine is v${game.version}`,
    };
  const sh = hashHex(hashValue(r.scenario));
  if (sh !== r.scenarioHash)
    return {
      ok: false,
      steps: 0,
      message: `field scenarioHash: the embedded scenario hashes to ${sh}, not the recorded ${r.scenarioHash}`,
    };
  // rules options travel inside the scenario; a separate options field must say the same
  const scOptions = (r.scenario as { options?: unknown } | null)?.options ?? {};
  if (r.options !== undefined && hashValue(r.options) !== hashValue(scOptions))
    return {
      ok: false,
      steps: 0,
      message: `field options: ${JSON.stringify(r.options)} differs from the embedded scenario's options ${JSON.stringify(scOptions)}`,
    };
  const v = game.validateScenario(r.scenario);
  if (!v.ok)
    return {
      ok: false,
      steps: 0,
      message: `embedded scenario is invalid: ${v.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
    };
  let s = game.initialState(v.value, r.options);
  if (hashHex(game.hash(s)) !== r.initialHash)
    return {
      ok: false,
      steps: 0,
      at: -1,
      message: `initial hash ${hashHex(game.hash(s))} differs from the recorded ${r.initialHash}`,
    };
  for (let i = 0; i < r.steps.length; i++) {
    const st = r.steps[i]!;
    const tm = game.toMove(s);
    const mover = tm.kind === 'chance' ? -1 : tm.kind === 'terminal' ? null : tm.player;
    if (mover === null) return { ok: false, steps: i, at: i, message: `step ${i + 1}: the game was already over` };
    if (st.p !== mover)
      return {
        ok: false,
        steps: i,
        at: i,
        message: `step ${i + 1} ("${st.a}"): field p is ${st.p}, but ${mover < 0 ? 'chance (-1)' : `player ${mover}`} was to move`,
      };
    if ((st.c === 1) !== mover < 0)
      return { ok: false, steps: i, at: i, message: `step ${i + 1} ("${st.a}"): field c is ${st.c}` };
    const a = findActionByKey(game, s, st.a);
    if (a === undefined) return { ok: false, steps: i, at: i, message: `step ${i + 1}: "${st.a}" is not legal here` };
    s = game.apply(s, a);
    const h = hashHex(game.hash(s));
    if (h !== st.h)
      return {
        ok: false,
        steps: i,
        at: i,
        message: `step ${i + 1} ("${st.a}"): hash ${h} differs from the recorded ${st.h}`,
      };
  }
  const fh = hashHex(game.hash(s));
  if (fh !== r.finalHash)
    return { ok: false, steps: r.steps.length, message: `final hash ${fh} differs from the recorded ${r.finalHash}` };
  if (r.result) {
    if (game.toMove(s).kind !== 'terminal')
      return { ok: false, steps: r.steps.length, message: 'the replay records a result but the game is not over' };
    const ret = game.returns(s);
    if (ret.length !== r.result.returns.length || ret.some((x, i) => x !== r.result!.returns[i]))
      return {
        ok: false,
        steps: r.steps.length,
        message: `result ${ret.join(',')} differs from the recorded ${r.result.returns.join(',')}`,
      };
    const text = game.resultText(s);
    if (text !== r.result.text)
      return {
        ok: false,
        steps: r.steps.length,
        message: `field result.text: the game's result reads "${text}", not the recorded "${r.result.text}"`,
      };
  } else if (!r.aborted && game.toMove(s).kind === 'terminal')
    return { ok: false, steps: r.steps.length, message: 'field result: the game is over but no result is recorded' };
  if (r.agents.length !== game.players.length) {
    return {
      ok: false,
      steps: r.steps.length,
      message: `field agents: ${r.agents.length} agents for ${game.players.length} players`,
    };
  }
  return { ok: true, steps: r.steps.length, message: `${r.steps.length} steps verified; final hash ${fh}` };
}
