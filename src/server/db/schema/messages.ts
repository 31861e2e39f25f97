import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { activities } from './activities.ts';
import { comments } from './comments.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export type MessageKind =
  | 'comment'
  | 'reply'
  | 'star'
  | 'like'
  | 'comment_like'
  | 'system'
  | 'report_resolved'
  /** Someone followed the recipient. */
  | 'follow'
  /** Someone built the recipient's project. */
  | 'make'
  /** Something the recipient follows published a project, posted a log, released a version, shared a make. */
  | 'followed_project'
  | 'followed_log'
  | 'followed_version'
  | 'followed_make';

/**
 * A notification for `recipientId`. `dedupeKey` is set for toggles (star, like, comment like)
 * so switching one off and on again does not notify twice (and for follows: `follow:<kind>:<a>:<b>`,
 * `followed:<activity>:<recipient>`).
 */
export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<MessageKind>().notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => comments.id, { onDelete: 'set null' }),
    /** The followed activity a `followed_*` message tells about (its title and path). */
    activityId: integer('activity_id').references(() => activities.id, { onDelete: 'cascade' }),
    body: text('body'),
    dedupeKey: text('dedupe_key'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_recipient_idx').on(t.recipientId, t.createdAt.desc().nullsFirst()),
    // A member's unread messages alone, for the header's badge: counting them (up to its limit)
    // reads no read message, however many a member keeps.
    index('messages_unread_idx').on(t.recipientId).where(sql`${t.readAt} IS NULL`),
    uniqueIndex('messages_dedupe_key').on(t.dedupeKey),
  ],
);
