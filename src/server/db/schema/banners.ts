import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

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
