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
