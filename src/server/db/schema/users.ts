import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Members: their profile, former custom URLs and password credentials. */

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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_custom_url_key').on(t.customUrl)],
);

/** Former custom URLs, so old links keep redirecting to the current profile. */
export const userUrlAliases = pgTable('user_url_aliases', {
  url: text('url').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Sign-in credentials of the built-in SSO. The email is stored lower-cased. */
export const credentials = pgTable(
  'credentials',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
  },
  (t) => [uniqueIndex('credentials_email_key').on(t.email)],
);
