import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * A build log: a dated entry the project's owner posts as the work goes on. `n` numbers a
 * project's logs 1, 2, 3… and is never given again, even after a delete, so `/d-{id}/log/{n}`
 * keeps meaning one entry: a delete keeps the row, so the next number (the highest plus one,
 * taken with the project's row locked) never repeats one. Deleted and hidden
 * like comments: the row stays, readers no longer see it.
 */
export const projectLogs = pgTable(
  'project_logs',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** The Markdown the owner wrote. */
    body: text('body').notNull(),
    /** `body` rendered and sanitized, as a project's description is. */
    bodyHtml: text('body_html').notNull(),
    /** Its plain text, for excerpts and feeds. */
    bodyText: text('body_text').notNull().default(''),
    /** Comments on this log that a guest is shown (kept by the comments service). */
    commentCount: integer('comment_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Hidden by staff after a report: gone for everyone but its author and staff until restored. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenBy: integer('hidden_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('project_logs_project_n_key').on(t.projectId, t.n),
    index('project_logs_project_created_idx').on(t.projectId, t.createdAt.desc().nullsFirst()),
  ],
);
