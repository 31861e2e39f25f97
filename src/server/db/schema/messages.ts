import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { comments } from './comments.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export type MessageKind = 'comment' | 'reply' | 'star' | 'like' | 'comment_like' | 'system' | 'report_resolved' | 'make';

/**
 * A notification for `recipientId`. `dedupeKey` is set for toggles (star, like, comment like)
 * so switching one off and on again does not notify twice.
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
    body: text('body'),
    dedupeKey: text('dedupe_key'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_recipient_idx').on(t.recipientId, t.createdAt.desc().nullsFirst()),
    uniqueIndex('messages_dedupe_key').on(t.dedupeKey),
  ],
);
