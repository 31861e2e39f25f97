import { and, eq, lt, sql } from 'drizzle-orm';
import { getDb } from '../../db/client.ts';
import { rateLimits, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** At most `limit` hits in any `windowMs`. */
export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

/**
 * A limit made of steps, each counted on its own: a short window with a small allowance, then
 * longer windows with larger ones. Past the first step a client waits out a minute, past the
 * next a quarter of an hour, and so on: delays that grow with persistence.
 */
export type RateLimitSteps = readonly RateLimitRule[];

/**
 * A limit on a member's own actions, with the stricter one that holds during the account's
 * first day (`NEW_ACCOUNT_MS`): a spammer's fresh accounts get little done before anyone looks,
 * while members who stay keep the ordinary allowance. Both are counted under the same keys.
 */
export interface MemberRateLimit {
  member: RateLimitRule | RateLimitSteps;
  newAccount: RateLimitRule | RateLimitSteps;
}

/** How long an account counts as new: stricter limits, and no links in comments (Discourse's trust level 0, kept simple). */
export const NEW_ACCOUNT_MS = DAY;

/** How long the same comment text by the same member is refused again (on any project). */
export const DUPLICATE_COMMENT_MS = HOUR;

/**
 * Every rate limit of the site, by name. A limit is counted per subject (a user id, an IP, an
 * email) under the key `<name>:<subject>` (`<name>#<step>:<subject>` for each step of a stepped
 * limit).
 */
export const RATE_LIMITS = {
  /**
   * Failed sign-ins of one account from one address: the guesser at the keyboard. Five quick
   * mistakes are free; then waits of a minute, a quarter of an hour, an hour, a day. Failures
   * from other addresses never slow the owner down here.
   */
  'sso:login:pair': [
    { limit: 5, windowMs: MINUTE },
    { limit: 10, windowMs: 15 * MINUTE },
    { limit: 20, windowMs: HOUR },
    { limit: 50, windowMs: DAY },
  ],
  /**
   * Failed sign-ins of one account from all addresses: a guesser spread over many addresses.
   * Reaching it refuses even the right password (letting that one through would tell the guesser
   * which password is right), so it sits far above what the owner's own mistakes could reach.
   */
  'sso:login:email': { limit: 100, windowMs: HOUR },
  /**
   * Failed sign-ins from one address over all accounts (credential stuffing): room for a
   * classroom or an office behind one address mistyping a few times each.
   */
  'sso:login:ip': { limit: 100, windowMs: HOUR },
  /** Sign-ups per IP. */
  'sso:register:ip': { limit: 50, windowMs: HOUR },
  /** Sign-ups per email. */
  'sso:register:email': { limit: 5, windowMs: HOUR },
  /** Web-view sign-in codes an app may ask for per member: one per page it opens, with room to spare. */
  'sso:webview-code:user': { limit: 120, windowMs: HOUR },
  /**
   * "Forgot password" requests per address: every one may send a mail. Counted the same whether
   * the email has an account or not, so the limit tells nobody which ones do.
   */
  'mail:forgot:ip': { limit: 20, windowMs: HOUR },
  /** "Forgot password" requests per email: a few mails an hour to one inbox, no more. */
  'mail:forgot:email': { limit: 5, windowMs: HOUR },
  /** Emailed links (reset, confirm) opened per address: room for honest clicks, none for guessing tokens. */
  'mail:token:ip': { limit: 60, windowMs: HOUR },
  /** Confirmation links a member may ask to be sent again per hour. */
  'mail:verify:user': { limit: 5, windowMs: HOUR },
  /** Changes of address a member may start per hour (each mails the new address). */
  'mail:change:user': { limit: 5, windowMs: HOUR },
  /** Comments and replies a member may post: ten a minute; a new account five a minute and thirty an hour. */
  comment: {
    member: { limit: 10, windowMs: MINUTE },
    newAccount: [
      { limit: 5, windowMs: MINUTE },
      { limit: 30, windowMs: HOUR },
    ],
  },
  /** Comment likes a member may toggle per minute. */
  'comment-like': { member: { limit: 120, windowMs: MINUTE }, newAccount: { limit: 30, windowMs: MINUTE } },
  /** Files a member may upload per hour. */
  'upload:user': { member: { limit: 300, windowMs: HOUR }, newAccount: { limit: 100, windowMs: HOUR } },
  /** Video uploads a member may start per hour (each a token for up to a gigabyte). */
  'video-upload:user': { member: { limit: 30, windowMs: HOUR }, newAccount: { limit: 20, windowMs: HOUR } },
  /** Projects a member may publish or edit per hour. */
  'release:user': { member: { limit: 300, windowMs: HOUR }, newAccount: { limit: 60, windowMs: HOUR } },
  /** Build logs a member may post or edit per hour: a busy build day is a few dozen, a flood is refused. */
  'log:user': { member: { limit: 60, windowMs: HOUR }, newAccount: { limit: 10, windowMs: HOUR } },
  /** Previews a member may save per hour (autosave included). */
  'preview:user': { limit: 200, windowMs: HOUR },
  /**
   * Reports a member may send per hour: far above what someone flagging what they come across
   * sends, low enough that a flood cannot bury the moderation queue.
   */
  'report:user': { limit: 20, windowMs: HOUR },
  /**
   * New tags a member may create by publishing, per day: a maker naming their own niche adds a
   * few; a new account that invents dozens is more likely spamming the tag pages.
   */
  'tag:create': { member: { limit: 20, windowMs: DAY }, newAccount: { limit: 5, windowMs: DAY } },
  /** Tag suggestions per address per minute: one per keystroke of a fast typist, with room for a classroom. */
  'tag:suggest:ip': { limit: 600, windowMs: MINUTE },
  /** Makes ("I built this") a member may post per hour: each carries photos. */
  'make:user': { member: { limit: 20, windowMs: HOUR }, newAccount: { limit: 5, windowMs: HOUR } },
  /** Remixes a member may start per hour: each copies the project's files into new uploads. */
  'remix:user': { member: { limit: 30, windowMs: HOUR }, newAccount: { limit: 5, windowMs: HOUR } },
  /** Stars and likes a member may toggle per hour. */
  'reaction:user': { member: { limit: 600, windowMs: HOUR }, newAccount: { limit: 120, windowMs: HOUR } },
  /** Changes a member may make to their collections per hour (create, edit, add, remove, reorder, delete). */
  'collection:user': { member: { limit: 600, windowMs: HOUR }, newAccount: { limit: 120, windowMs: HOUR } },
  /**
   * Follows and unfollows a member may make per hour: room to follow a whole tag's authors in an
   * evening, none to spray "followed you" messages over the site from a fresh account.
   */
  'follow:user': { member: { limit: 300, windowMs: HOUR }, newAccount: { limit: 60, windowMs: HOUR } },
} as const satisfies Record<string, RateLimitRule | RateLimitSteps | MemberRateLimit>;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** Limits with a stricter variant for new accounts: counted per member with `hitMemberRateLimit`. */
export type MemberRateLimitName = { [K in RateLimitName]: (typeof RATE_LIMITS)[K] extends MemberRateLimit ? K : never }[RateLimitName];

/** Limits counted per any subject (an address, an email, a member) with `hitRateLimit`. */
export type PlainRateLimitName = Exclude<RateLimitName, MemberRateLimitName>;

/** Whether an account created at `createdAt` is still new at `now` (see `NEW_ACCOUNT_MS`). */
export function isNewAccount(createdAt: Date, now = new Date()): boolean {
  return now.getTime() - createdAt.getTime() < NEW_ACCOUNT_MS;
}

const keyOf = (name: string, subject: string | number) => `${name}:${subject}`;

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
 * The refusal, with how many seconds until the estimate has room for one more hit (at most
 * `limit - 1` counted): the previous window's weight fades as time passes, and a window that is
 * full on its own must end first and then fade in turn.
 */
function refusal(current: number, previous: number, window: Window, windowMs: number, limit: number, now: Date): AppError {
  const allowed = limit - 1;
  const end = window.start.getTime() + windowMs;
  const freeAt =
    current > allowed
      ? end + windowMs * (1 - allowed / current)
      : window.start.getTime() + windowMs * (1 - (allowed - current) / Math.max(previous, 1));
  return new AppError('rate_limited', undefined, { retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)) });
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
  if (estimate(count, previous, window) > limit) throw refusal(count, previous, window, windowMs, limit, now);
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
  if (estimate(current, previous, window) >= limit) throw refusal(current, previous, window, windowMs, limit, now);
}

/** Each rule of a limit with its key: one for a plain limit, one per step for a stepped one. */
function rulesOf(name: RateLimitName, subject: string | number, newAccount = false): Array<[string, RateLimitRule]> {
  const entry: RateLimitRule | RateLimitSteps | MemberRateLimit = RATE_LIMITS[name];
  const limit = isMemberLimit(entry) ? (newAccount ? entry.newAccount : entry.member) : entry;
  if (!isSteps(limit)) return [[keyOf(name, subject), limit]];
  return limit.map((rule, step): [string, RateLimitRule] => [keyOf(`${name}#${step}`, subject), rule]);
}

function isMemberLimit(limit: RateLimitRule | RateLimitSteps | MemberRateLimit): limit is MemberRateLimit {
  return 'member' in limit;
}

function isSteps(limit: RateLimitRule | RateLimitSteps): limit is RateLimitSteps {
  return Array.isArray(limit);
}

/** Settles every step, then throws the refusal with the longest wait, if any. */
async function allSteps<T>(attempts: Array<Promise<T>>): Promise<T[]> {
  const results = await Promise.allSettled(attempts);
  const refusals = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  if (refusals.length === 0) return results.map((result) => (result as PromiseFulfilledResult<T>).value);
  const wait = (error: unknown) => (error instanceof AppError ? (error.retryAfterSeconds ?? 0) : Infinity);
  throw refusals.reduce((longest, error) => (wait(error) > wait(longest) ? error : longest));
}

/**
 * Counts one hit of the limit `name` for `subject` (on every step of a stepped limit); throws
 * `AppError('rate_limited')` past the limit, with the longest wait of the steps it exceeds.
 */
export async function hitRateLimit(name: PlainRateLimitName, subject: string | number, now = new Date()): Promise<RateLimitHit> {
  const hits = await allSteps(rulesOf(name, subject).map(([key, rule]) => hitRateLimitRule(key, rule, now)));
  return hits[0]!;
}

/**
 * Counts one hit of the member limit `name` for the member `userId`, whose account was created
 * at `createdAt` (read it with `readAccountCreatedAt` when the caller has no row at hand): the
 * new-account variant during the account's first day, the member's own after.
 */
export async function hitMemberRateLimit(name: MemberRateLimitName, userId: number, createdAt: Date, now = new Date()): Promise<RateLimitHit> {
  const hits = await allSteps(rulesOf(name, userId, isNewAccount(createdAt, now)).map(([key, rule]) => hitRateLimitRule(key, rule, now)));
  return hits[0]!;
}

/** When member `userId` signed up (a gone member counts as new: nothing they do is trusted). */
export async function readAccountCreatedAt(userId: number): Promise<Date> {
  const [row] = await getDb().select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.createdAt ?? new Date();
}

/** `hitMemberRateLimit` with the account's age read from the database. */
export async function hitMemberRateLimitById(name: MemberRateLimitName, userId: number, now = new Date()): Promise<RateLimitHit> {
  return hitMemberRateLimit(name, userId, await readAccountCreatedAt(userId), now);
}

/**
 * Throws `AppError('rate_limited')` when `subject` already reached the limit `name` (any step of
 * a stepped one), without counting a hit. With `hitRateLimit` after a failure, this limits
 * failures only.
 */
export async function assertUnderRateLimit(name: PlainRateLimitName, subject: string | number, now = new Date()): Promise<void> {
  await allSteps(rulesOf(name, subject).map(([key, rule]) => assertUnderRateLimitRule(key, rule, now)));
}

/** Forgets windows that ended more than a day ago (called by the server's housekeeping timer). */
export async function deleteExpiredRateLimits(now = new Date()): Promise<void> {
  await getDb().delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - 24 * 60 * 60 * 1000)));
}
