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
 * A member's notification email settings; no row means the defaults (a daily digest of each
 * kind). `lastDigestOn` is the day the last digest went out: the daily job sends at most one per
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
    lastDigestOn: date('last_digest_on'),
    lastDigestAt: timestamp('last_digest_at', { withTimezone: true }),
  },
  (t) => [
    check('email_preferences_comments_check', sql`${t.comments} IN ('daily', 'never')`),
    check('email_preferences_replies_check', sql`${t.replies} IN ('daily', 'never')`),
    check('email_preferences_stars_check', sql`${t.stars} IN ('daily', 'never')`),
  ],
);
