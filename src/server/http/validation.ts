import { z } from 'zod';
import { AppError } from './errors.ts';

/** Field messages are i18n keys under `validation.` so islands show them in the user's language. */
function fieldKey(issue: z.core.$ZodIssue, sent: unknown): string {
  // A rule's own key (`.min(8, 'password_too_short')`, a refinement's message) wins.
  if (issue.message && /^[a-z_]+$/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' && issue.minimum === 1 ? 'required' : 'too_small';
    case 'too_big':
      return 'too_big';
    case 'invalid_type':
      // Missing (or JSON's null) is "required"; a value of the wrong kind (`commentId=abc`, a
      // number for a name) is not. `sent` is the value as it came: zod's issue does not carry it,
      // and a coerced number holds NaN for both.
      return sent === undefined || sent === null ? 'required' : 'invalid_type';
    case 'invalid_format':
      return issue.format === 'email' ? 'email' : issue.format === 'url' ? 'url' : 'format';
    case 'invalid_value':
      return 'invalid_value';
    default:
      return issue.message && /^[a-z_]+$/.test(issue.message) ? issue.message : 'invalid';
  }
}

/** What `input` holds at `path` (undefined where nothing does). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Parses `input` with `schema`; unknown fields are dropped. Throws `AppError('validation')`
 * with `fields: { path: key }` where `key` translates as `validation.<key>`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.') || '_';
    fields[path] ??= fieldKey(issue, valueAt(input, issue.path));
  }
  throw new AppError('validation', fields);
}

/** Page and page size of every list: page from 1, pageSize at most 50. */
export const pagingSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).catch(20).default(20),
});


export { z };
