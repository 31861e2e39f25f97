import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Members: their profile, former custom URLs and password credentials. */

/** What a member may do: staff (moderators, admins) act on content and members; admins also on staff. */
export const USER_ROLES = ['member', 'moderator', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** A member of the community. `customUrl` is the `{url}` of `/user/{url}`. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    customUrl: text('custom_url').notNull(),
    nickname: text('nickname').notNull(),
    avatar: text('avatar'),
    bio: text('bio').notNull().default(''),
    location: text('location').notNull().default(''),
    website: text('website').notNull().default(''),
    role: text('role').$type<UserRole>().notNull().default('member'),
    /** The language of the emails sent to them: set at sign-up, updated when they switch language signed in. */
    locale: text('locale').notNull().default('en-US'),
    /** The profile hidden by staff after a report: its page is gone for everyone but the member and staff. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenBy: integer('hidden_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    /** Suspended by staff: no session is honoured and signing in is refused until staff restore the member. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_custom_url_key').on(t.customUrl),
    check('users_role_check', sql`${t.role} IN ('member', 'moderator', 'admin')`),
  ],
);

/** Former custom URLs, so old links keep redirecting to the current profile. */
export const userUrlAliases = pgTable('user_url_aliases', {
  url: text('url').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sign-in credentials of the built-in SSO. The email is stored lower-cased. `emailVerified` is
 * false only for accounts made while the site could send email and not yet confirmed; accounts
 * from before (or from a site without `SMTP_URL`) count as confirmed.
 */
export const credentials = pgTable(
  'credentials',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerified: boolean('email_verified').notNull().default(true),
  },
  (t) => [uniqueIndex('credentials_email_key').on(t.email)],
);
