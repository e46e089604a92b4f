/** Turning schema-library issues into readable problems with JSON paths. */
import type { ZodError, ZodType } from 'zod';
import type { Problem, Validated } from './game.ts';

function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (typeof p === 'string' && /^[A-Za-z_$][\w$]*$/.test(p)) out += `.${p}`;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out;
}

export function zodProblems(err: ZodError): Problem[] {
  return err.issues.map((i) => ({ path: jsonPath(i.path), message: i.message }));
}

/** Parse with a zod schema, then run semantic checks that see the parsed value; every problem is reported. */
export function validateWith<T>(schema: ZodType<T>, json: unknown, semantic?: (v: T) => Problem[]): Validated<T> {
  const r = schema.safeParse(json);
  if (!r.success) return { ok: false, problems: zodProblems(r.error) };
  const more = semantic ? semantic(r.data) : [];
  if (more.length) return { ok: false, problems: more };
  return { ok: true, value: r.data };
}

export function formatProblems(problems: readonly Problem[]): string {
  return problems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
}
