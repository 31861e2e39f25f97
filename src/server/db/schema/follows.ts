import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { activities } from './activities.ts';
import { users } from './users.ts';

/** What a member may follow: another member, a project, or a tag. */
export const FOLLOW_KINDS = ['user', 'project', 'tag'] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

/**
 * A member following a member, a project or a tag (`targetId` is `users.id`, `projects.id` or
 * `tags.id` by `kind`). One table for the three kinds so the fan-out finds every follower of an
 * activity in one statement; the target has no foreign key for that reason, and readers join the
 * target's table (a follow of something gone simply matches nothing).
 * Read both ways: a member's follows (the primary key) and a target's followers (`follows_target_idx`).
 */
export const follows = pgTable(
  'follows',
  {
    followerId: integer('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<FollowKind>().notNull(),
    targetId: integer('target_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.kind, t.targetId] }),
    index('follows_target_idx').on(t.kind, t.targetId, t.followerId),
    check('follows_kind_check', sql`${t.kind} IN ('user', 'project', 'tag')`),
  ],
);

/**
 * A member's Following feed, written on fan-out (one row per member and activity, whichever of
 * their follows brought it), read newest first a page at a time through `feed_entries_user_idx`.
 * `createdAt` is the activity's time, copied so the page reads one index in order.
 */
export const feedEntries = pgTable(
  'feed_entries',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.activityId] }),
    index('feed_entries_user_idx').on(t.userId, t.createdAt.desc().nullsFirst(), t.activityId.desc().nullsFirst()),
    index('feed_entries_activity_idx').on(t.activityId),
  ],
);
