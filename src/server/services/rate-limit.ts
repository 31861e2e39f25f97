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

interface Window {
  start: Date;
  previous: Date;
  /** How far into the current window `now` is, from 0 to 1. */
  elapsed: number;
}

function windowOf(now: Date, windowMs: number): Window {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start: new Date(start), previous: new Date(start - windowMs), elapsed: (now.getTime() - start) / windowMs };
}

async function countIn(key: string, windowStart: Date): Promise<number> {
  const [row] = await getDb()
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart)))
    .limit(1);
  return row?.count ?? 0;
}

/**
 * The sliding-window estimate: this window's hits plus the previous window's, weighted by how
 * much of it still overlaps the last `windowMs`. Unlike a plain fixed window, a burst at the end
 * of one window still counts just after the boundary.
 */
function estimate(current: number, previous: number, window: Window): number {
  // Rounded up, so a burst straddling the boundary can never slip one hit past the limit.
  return current + Math.ceil(previous * (1 - window.elapsed));
}

/**
 * Counts one hit on `key` (shared by every app instance through the `rate_limits` table) and
 * throws `AppError('rate_limited', 429)` once more than `limit` hits fall in the last `windowMs`
 * (sliding-window counter). Keys name what is limited, e.g. `sso:login:ip:203.0.113.9`.
 */
export async function hitRateLimit(key: string, limit: number, windowMs: number, now = new Date()): Promise<RateLimitHit> {
  const safeKey = key.slice(0, 300);
  const window = windowOf(now, windowMs);
  const [row] = await getDb()
    .insert(rateLimits)
    .values({ key: safeKey, windowStart: window.start, count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count });
  const count = row?.count ?? 1;
  const previous = await countIn(safeKey, window.previous);
  if (estimate(count, previous, window) > limit) throw new AppError('rate_limited', 429);
  return { count, resetAt: new Date(window.start.getTime() + windowMs) };
}

/**
 * Throws `AppError('rate_limited', 429)` when `key` already has `limit` hits in the last
 * `windowMs`, without counting one. With `hitRateLimit` after a failure, this limits failures only.
 */
export async function assertUnderRateLimit(key: string, limit: number, windowMs: number, now = new Date()): Promise<void> {
  const safeKey = key.slice(0, 300);
  const window = windowOf(now, windowMs);
  const [current, previous] = await Promise.all([countIn(safeKey, window.start), countIn(safeKey, window.previous)]);
  if (estimate(current, previous, window) >= limit) throw new AppError('rate_limited', 429);
}

/** Applies several limits in order; the first one exceeded throws. */
export async function hitRateLimits(limits: { key: string; limit: number; windowMs: number }[], now = new Date()): Promise<void> {
  for (const entry of limits) await hitRateLimit(entry.key, entry.limit, entry.windowMs, now);
}

/** Forgets windows that ended more than a day ago (called by the server's housekeeping timer). */
export async function deleteExpiredRateLimits(now = new Date()): Promise<void> {
  await getDb().delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - 24 * 60 * 60 * 1000)));
}
