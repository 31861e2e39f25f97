import { and, eq, lt, sql } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { rateLimits } from '../db/schema/index.ts';
import { AppError } from '../http/errors.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** At most `limit` hits in any `windowMs`. */
export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

/**
 * Every rate limit of the site, by name. A limit is counted per subject (a user id, an IP, an
 * email) under the key `<name>:<subject>`.
 */
export const RATE_LIMITS = {
  /** Failed sign-ins per IP: room for a classroom or an office behind one address. */
  'sso:login:ip': { limit: 60, windowMs: 15 * MINUTE },
  /** Failed sign-ins per email: a password guesser trying one account from many addresses. */
  'sso:login:email': { limit: 10, windowMs: 15 * MINUTE },
  /** Sign-ups per IP. */
  'sso:register:ip': { limit: 50, windowMs: HOUR },
  /** Sign-ups per email. */
  'sso:register:email': { limit: 5, windowMs: HOUR },
  /** Web-view sign-in codes an app may ask for per member: one per page it opens, with room to spare. */
  'sso:webview-code:user': { limit: 120, windowMs: HOUR },
  /** Comments and replies a member may post per minute. */
  comment: { limit: 10, windowMs: MINUTE },
  /** Comment likes a member may toggle per minute. */
  'comment-like': { limit: 120, windowMs: MINUTE },
  /** Files a member may upload per hour. */
  'upload:user': { limit: 300, windowMs: HOUR },
  /** Projects a member may publish or edit per hour. */
  'release:user': { limit: 300, windowMs: HOUR },
  /** Previews a member may save per hour (autosave included). */
  'preview:user': { limit: 200, windowMs: HOUR },
  /** Stars and likes a member may toggle per hour. */
  'reaction:user': { limit: 600, windowMs: HOUR },
} as const satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof RATE_LIMITS;

const keyOf = (name: RateLimitName, subject: string | number) => `${name}:${subject}`;

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
 * throws `AppError('rate_limited')` once more than `rule.limit` hits fall in the last
 * `rule.windowMs` (sliding-window counter). The mechanism behind `hitRateLimit`.
 */
export async function hitRateLimitRule(key: string, { limit, windowMs }: RateLimitRule, now = new Date()): Promise<RateLimitHit> {
  const safeKey = key.slice(0, 300);
  const window = windowOf(now, windowMs);
  const [row] = await getDb()
    .insert(rateLimits)
    .values({ key: safeKey, windowStart: window.start, count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count });
  const count = row?.count ?? 1;
  const previous = await countIn(safeKey, window.previous);
  if (estimate(count, previous, window) > limit) throw new AppError('rate_limited');
  return { count, resetAt: new Date(window.start.getTime() + windowMs) };
}

/**
 * Throws `AppError('rate_limited')` when `key` already has `rule.limit` hits in the last
 * `rule.windowMs`, without counting one. The mechanism behind `assertUnderRateLimit`.
 */
export async function assertUnderRateLimitRule(key: string, { limit, windowMs }: RateLimitRule, now = new Date()): Promise<void> {
  const safeKey = key.slice(0, 300);
  const window = windowOf(now, windowMs);
  const [current, previous] = await Promise.all([countIn(safeKey, window.start), countIn(safeKey, window.previous)]);
  if (estimate(current, previous, window) >= limit) throw new AppError('rate_limited');
}

/** Counts one hit of the limit `name` for `subject`; throws `AppError('rate_limited')` past the limit. */
export function hitRateLimit(name: RateLimitName, subject: string | number, now = new Date()): Promise<RateLimitHit> {
  return hitRateLimitRule(keyOf(name, subject), RATE_LIMITS[name], now);
}

/**
 * Throws `AppError('rate_limited')` when `subject` already reached the limit `name`, without
 * counting a hit. With `hitRateLimit` after a failure, this limits failures only.
 */
export function assertUnderRateLimit(name: RateLimitName, subject: string | number, now = new Date()): Promise<void> {
  return assertUnderRateLimitRule(keyOf(name, subject), RATE_LIMITS[name], now);
}

/** Forgets windows that ended more than a day ago (called by the server's housekeeping timer). */
export async function deleteExpiredRateLimits(now = new Date()): Promise<void> {
  await getDb().delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - 24 * 60 * 60 * 1000)));
}
