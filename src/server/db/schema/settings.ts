import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Values the site generates once and every instance shares (the key that signs video URLs):
 * kept in the database so that several instances agree without extra configuration.
 */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
