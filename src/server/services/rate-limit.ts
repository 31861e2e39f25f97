import { sql } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { rateLimits } from '../db/schema/index.ts';
import { AppError } from '../http/errors.ts';

/**
 * Counts one hit on `key` in the current fixed window of `windowMs` and throws
 * `AppError('rate_limited', 429)` once more than `limit` hits fall in that window.
 * The counter lives in PostgreSQL (`rate_limits`), so every app instance shares it.
 */
export async function hitRateLimit(key: string, limit: number, windowMs: number): Promise<void> {
  const windowStart = new Date(Math.floor(Date.now() / windowMs) * windowMs);
  const [row] = await getDb()
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count });
  if ((row?.count ?? 0) > limit) throw new AppError('rate_limited', 429);
}
