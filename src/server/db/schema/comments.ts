import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { projectLogs } from './logs.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * A comment on a project, or on one of its build logs (`logId`); `parentId` makes it a reply in
 * that top-level comment's thread (a reply is on the log its thread is on).
 */
export const comments = pgTable(
  'comments',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The build log it is on; null for the project's own comments. */
    logId: integer('log_id').references(() => projectLogs.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id'),
    replyToUserId: integer('reply_to_user_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    likeCount: integer('like_count').notNull().default(0),
    replyCount: integer('reply_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Hidden by staff after a report: gone for everyone but its author and staff until restored. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenBy: integer('hidden_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('comments_project_idx').on(t.projectId, t.parentId, t.createdAt),
    index('comments_log_idx').on(t.logId, t.parentId, t.createdAt),
    index('comments_parent_idx').on(t.parentId, t.createdAt),
    // A member's recent comments: the duplicate-comment check reads them before every post.
    index('comments_author_idx').on(t.authorId, t.createdAt),
  ],
);

export const commentLikes = pgTable(
  'comment_likes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.commentId] })],
);
