import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export type UploadPurpose = 'avatar' | 'cover' | 'image' | 'attachment';

/** Every stored file, whoever uploaded it; attachments and images refer to it by id. */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    purpose: text('purpose').$type<UploadPurpose>().notNull(),
    storageKey: text('storage_key').notNull(),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('uploads_owner_idx').on(t.ownerId)],
);
