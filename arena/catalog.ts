/** Scenario files on disk: data/scenarios/<ruleset>/<id>.json. Loading is I/O, so it lives outside the engine. */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyGame, Problem } from '../engine/core/game.ts';
import { hashHex, hashValue } from '../engine/core/hash.ts';
import { suggest } from '../engine/core/suggest.ts';
import { formatProblems } from '../engine/core/validate.ts';
import { getRuleset, RULESETS } from '../engine/rulesets/index.ts';

/** Public API. @public */
export const DATA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'data');

/** The problems a ScenarioError's message lists; the rest are counted (all of them stay in `problems`). */
const SHOWN_PROBLEMS = 20;

export class ScenarioError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly Problem[],
  ) {
    const n = problems.length;
    const more = n - SHOWN_PROBLEMS;
    super(
      `${file} is not a valid scenario (${n} problem${n === 1 ? '' : 's'}):\n${formatProblems(problems.slice(0, SHOWN_PROBLEMS))}` +
        (more > 0 ? `\n  … and ${more} more problem${more === 1 ? '' : 's'}` : ''),
    );
  }
}

/** Map ids name files in data/maps/<ruleset>/: no path separators, dots or capitals. */
const MAP_ID = /^[a-z0-9-]+$/;

export function scenarioIds(rulesetId: string): string[] {
  const dir = join(DATA_DIR, 'scenarios', rulesetId);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** Read and validate a scenario JSON file; every problem is listed with its JSON path. */
export function loadScenarioFile(file: string, rulesetHint?: string): { game: AnyGame; scenario: any; json: unknown } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ScenarioError(file, [{ path: '$', message: `cannot read file: ${(e as Error).message}` }]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ScenarioError(file, [{ path: '$', message: `not valid JSON: ${(e as Error).message}` }]);
  }
  const rid =
    (json && typeof json === 'object' && 'ruleset' in json && typeof (json as { ruleset: unknown }).ruleset === 'string'
      ? (json as { ruleset: string }).ruleset
      : rulesetHint) ?? '';
  if (!Object.hasOwn(RULESETS, rid)) {
    const near = suggest(rid, Object.keys(RULESETS));
    throw new ScenarioError(file, [
      {
        path: '$.ruleset',
        message: `unknown ruleset "${rid}"${near ? ` (did you mean "${near}"?)` : ''}; known: ${Object.keys(RULESETS).join(', ')}`,
      },
    ]);
  }
  const game = getRuleset(rid);
  json = embedMap(json, rid, file);
  const v = game.validateScenario(json);
  if (!v.ok) throw new ScenarioError(file, v.problems);
  return { game, scenario: v.value, json };
}

/**
 * Area-map scenarios name their map (`"map": "<id>"`); the map file, data/maps/<ruleset>/<id>.json, is embedded as
 * `mapData` so the validated scenario (and every replay of it) is self-contained.
 */
function embedMap(json: unknown, rid: string, file: string): unknown {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return json;
  const j = json as Record<string, unknown>;
  if (typeof j.map !== 'string' || j.mapData !== undefined) return json;
  if (!MAP_ID.test(j.map))
    throw new ScenarioError(file, [
      {
        path: '$.map',
        message: `map id ${JSON.stringify(j.map)} is not a map name: a map id is lower-case letters, digits and - (the file data/maps/${rid}/<id>.json)`,
      },
    ]);
  const mf = join(DATA_DIR, 'maps', rid, `${j.map}.json`);
  if (!existsSync(mf))
    throw new ScenarioError(file, [{ path: '$.map', message: `no map "${j.map}" (looked for ${mf})` }]);
  let mapData: unknown;
  try {
    mapData = JSON.parse(readFileSync(mf, 'utf8'));
  } catch (e) {
    throw new ScenarioError(file, [
      { path: '$.map', message: `map file ${mf} is not valid JSON: ${(e as Error).message}` },
    ]);
  }
  return { ...j, mapData };
}

/** A scenario by ruleset and id (or a path to a file). */
export function loadScenario(
  rulesetId: string,
  idOrPath?: string,
): { game: AnyGame; scenario: any; id: string; file: string } {
  const game = getRuleset(rulesetId);
  const id = idOrPath ?? game.defaultScenario;
  const file = id.endsWith('.json') ? resolve(id) : join(DATA_DIR, 'scenarios', rulesetId, `${id}.json`);
  if (!id.endsWith('.json') && !existsSync(file))
    throw new Error(`unknown scenario "${id}" for ${rulesetId}; known: ${scenarioIds(rulesetId).join(', ')}`);
  const r = loadScenarioFile(file, rulesetId);
  if (r.game.id !== rulesetId) throw new Error(`${file} is a ${r.game.id} scenario, not ${rulesetId}`);
  return { game, scenario: r.scenario, id: r.scenario.id ?? id, file };
}

export function scenarioHash(scenario: unknown): string {
  return hashHex(hashValue(scenario));
}
