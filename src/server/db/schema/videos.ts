import { bigint, index, integer, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

export type VideoStatus = 'uploading' | 'processing' | 'ready' | 'failed';

/** A video uploaded by a user, optionally linked to one of their projects. */
export const videos = pgTable(
  'videos',
  {
    id: text('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    storageKey: text('storage_key').notNull(),
    poster: text('poster'),
    duration: real('duration'),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    status: text('status').$type<VideoStatus>().notNull().default('uploading'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('videos_owner_idx').on(t.ownerId, t.createdAt.desc().nullsFirst()), index('videos_project_idx').on(t.projectId)],
);
