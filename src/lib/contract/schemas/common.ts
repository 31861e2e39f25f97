/**
 * Building blocks of the API's result schemas (`src/lib/contract/schemas/*`): the schemas say what
 * every endpoint answers, the TypeScript types of the results are inferred from them, and
 * `/api/openapi.json` is generated from them. Server-side at run time: islands import the
 * inferred types only (`import type`), so no schema reaches a browser bundle.
 */
import { z } from 'zod';

/** A moment as the API writes it: `Date#toISOString()`, UTC. */
export const isoDateTime = z.iso.datetime().meta({ description: 'ISO 8601 date and time, UTC' });

/** A count or an internal id: a whole number (JSON has no integers of its own). */
export const count = z.number().int().min(0);
export const serialId = z.number().int().positive();

/** A member as lists show them next to what they did. */
export const userRefSchema = z
  .object({ url: z.string(), nickname: z.string(), avatar: z.string().nullable() })
  .meta({ id: 'UserRef', description: 'A member as lists show them: custom URL, nickname, avatar URL.' });

/** A published project named by another item (a video, a message, a donation). */
export const projectRefSchema = z.object({ id: z.string(), title: z.string() }).meta({ id: 'ProjectRef' });

/** One page of a list: every list endpoint answers this shape (`pageSize` ≤ 50). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: count, page: z.number().int().min(1), pageSize: z.number().int().min(1).max(50) });
}

/** `{ id }`: what deletions answer. */
export const idResultSchema = z.object({ id: z.string() });

export { z };
