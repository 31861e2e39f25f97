import { index, integer, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

/** A member's reaction to a project: one row per member and project, so it counts once. */
function reactionTable<const Name extends string>(name: Name) {
  return pgTable(
    name,
    {
      userId: integer('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      projectId: integer('project_id')
        .notNull()
        .references(() => projects.id, { onDelete: 'cascade' }),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [primaryKey({ columns: [t.userId, t.projectId] }), index(`${name}_project_idx`).on(t.projectId)],
  );
}

/** Stars: a member's bookmark of a project, listed on their profile. */
export const stars = reactionTable('stars');

/** Likes: a member's applause for a project. */
export const likes = reactionTable('likes');
