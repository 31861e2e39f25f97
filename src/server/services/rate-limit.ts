import { and, eq, lt, sql } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { rateLimits } from '../db/schema/index.ts';
import { AppError } from '../http/errors.ts';

export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  count: number;
  /** When the current window ends. */
  resetAt: Date;
}

/**
 * Counts one hit on `key` in a fixed window of `windowMs` (shared by every app instance through
 * the `rate_limits` table) and throws `AppError('rate_limited', 429)` once more than `limit`
 * hits fall in the window. Keys name what is limited, e.g. `sso:login:ip:203.0.113.9`.
 */
export async function hitRateLimit(key: string, limit: number, windowMs: number, now = new Date()): Promise<RateLimitHit> {
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const [row] = await getDb()
    .insert(rateLimits)
    .values({ key: key.slice(0, 300), windowStart, count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count });
  const hit = { count: row?.count ?? 1, resetAt: new Date(windowStart.getTime() + windowMs) };
  if (hit.count > limit) throw new AppError('rate_limited', 429);
  return hit;
}

/**
 * Throws `AppError('rate_limited', 429)` when `key` already has `limit` hits in the current
 * window, without counting one. With `hitRateLimit` after a failure, this limits failures only.
 */
export async function assertUnderRateLimit(key: string, limit: number, windowMs: number, now = new Date()): Promise<void> {
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const [row] = await getDb()
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key.slice(0, 300)), eq(rateLimits.windowStart, windowStart)))
    .limit(1);
  if ((row?.count ?? 0) >= limit) throw new AppError('rate_limited', 429);
}

/** Applies several limits in order; the first one exceeded throws. */
export async function hitRateLimits(limits: { key: string; limit: number; windowMs: number }[], now = new Date()): Promise<void> {
  for (const entry of limits) await hitRateLimit(entry.key, entry.limit, entry.windowMs, now);
}

/** Forgets windows that ended more than a day ago (called by the server's housekeeping timer). */
export async function deleteExpiredRateLimits(now = new Date()): Promise<void> {
  await getDb().delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - 24 * 60 * 60 * 1000)));
}
