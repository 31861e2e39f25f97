import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Account email: the single-use links it sends and the digest each member chose. */

/** What an emailed link does: confirm the address, set a new password, or move to a new address. */
export const EMAIL_TOKEN_PURPOSES = ['verify', 'reset', 'change_email'] as const;
export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

/**
 * Tokens of emailed links, stored as SHA-256 hashes (a leaked table opens no account). Each works
 * once (`usedAt`) and until `expiresAt`; `newEmail` is the address a `change_email` token moves to.
 */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: serial('id').primaryKey(),
    purpose: text('purpose').$type<EmailTokenPurpose>().notNull(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_tokens_hash_key').on(t.tokenHash),
    index('email_tokens_user_idx').on(t.userId, t.purpose),
    check('email_tokens_purpose_check', sql`${t.purpose} IN ('verify', 'reset', 'change_email')`),
  ],
);

/** How often a member hears about a kind of notification by email. */
export const DIGEST_FREQUENCIES = ['daily', 'never'] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];

/**
 * The kinds of notification a member chooses about, per channel (site messages, the email
 * digest), each standing for the message kinds it covers.
 */
export const NOTIFICATION_KINDS = ['comments', 'replies', 'stars', 'likes', 'follows', 'makes', 'logs'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * A member's notification settings (the table keeps its first name, from when it held only the
 * email digest's); no row means the defaults (every kind on the site; a daily digest of
 * comments, replies and stars). `lastDigestOn` is the day the last digest went out: the daily job sends at most one per
 * day, and the next one covers what arrived since `lastDigestAt`.
 */
export const emailPreferences = pgTable(
  'email_preferences',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    comments: text('comments').$type<DigestFrequency>().notNull().default('daily'),
    replies: text('replies').$type<DigestFrequency>().notNull().default('daily'),
    stars: text('stars').$type<DigestFrequency>().notNull().default('daily'),
    /**
     * The kinds added with follows: off by email until chosen, so the digest of a member who
     * never opened the settings stays what it was.
     */
    likes: text('likes').$type<DigestFrequency>().notNull().default('never'),
    follows: text('follows').$type<DigestFrequency>().notNull().default('never'),
    makes: text('makes').$type<DigestFrequency>().notNull().default('never'),
    logs: text('logs').$type<DigestFrequency>().notNull().default('never'),
    /**
     * The kinds (`NOTIFICATION_KINDS`) the member turned off on the site channel: no message is
     * created for them. Empty (every kind on) unless they chose.
     */
    siteOff: text('site_off').array().$type<NotificationKind[]>().notNull().default(sql`'{}'::text[]`),
    lastDigestOn: date('last_digest_on'),
    lastDigestAt: timestamp('last_digest_at', { withTimezone: true }),
  },
  (t) => [
    check('email_preferences_comments_check', sql`${t.comments} IN ('daily', 'never')`),
    check('email_preferences_replies_check', sql`${t.replies} IN ('daily', 'never')`),
    check('email_preferences_stars_check', sql`${t.stars} IN ('daily', 'never')`),
    check('email_preferences_likes_check', sql`${t.likes} IN ('daily', 'never')`),
    check('email_preferences_follows_check', sql`${t.follows} IN ('daily', 'never')`),
    check('email_preferences_makes_check', sql`${t.makes} IN ('daily', 'never')`),
    check('email_preferences_logs_check', sql`${t.logs} IN ('daily', 'never')`),
  ],
);
