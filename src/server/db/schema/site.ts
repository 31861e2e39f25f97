import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

/** A donation; `amount` is in minor units (cents, fen) of `currency`. */
export const donations = pgTable(
  'donations',
  {
    id: serial('id').primaryKey(),
    donorName: text('donor_name').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('USD'),
    message: text('message').notNull().default(''),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    providerRef: text('provider_ref').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('donations_provider_ref_key').on(t.providerRef), index('donations_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())],
);

/** A home-page banner, shown between `startsAt` and `endsAt` in `sort` order. */
export const banners = pgTable('banners', {
  id: serial('id').primaryKey(),
  image: text('image').notNull(),
  link: text('link').notNull(),
  titleEn: text('title_en').notNull(),
  titleZh: text('title_zh').notNull(),
  sort: integer('sort').notNull().default(0),
  startsAt: timestamp('starts_at', { withTimezone: true }),
  endsAt: timestamp('ends_at', { withTimezone: true }),
});
