import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * What followers hear about: a project published, a build log posted, a version released, a make
 * shared. `refId` is the row of that kind (`project_logs.id`, `project_versions.id`, `makes.id`;
 * null for a new project). One row per event, written in the transaction that makes the event;
 * the feed job reads the rows it has not handled yet (`fannedOutAt` null) and delivers them to
 * followers' feeds and messages.
 */
export const ACTIVITY_KINDS = ['project', 'log', 'version', 'make'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const activities = pgTable(
  'activities',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<ActivityKind>().notNull(),
    actorId: integer('actor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    refId: integer('ref_id'),
    /**
     * What a feed entry and a message show of it, copied when it happens so the feed needs no
     * join per kind: the log's title, the version's name, the make's note (shortened); empty for
     * a new project, which shows its own title.
     */
    title: text('title').notNull().default(''),
    /** The desktop path it links to (`/d-{id}/log/{n}`, `/d-{id}/versions`, `/d-{id}/makes`, `/d-{id}`). */
    path: text('path').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    fannedOutAt: timestamp('fanned_out_at', { withTimezone: true }),
  },
  (t) => [
    index('activities_actor_idx').on(t.actorId, t.createdAt.desc().nullsFirst()),
    index('activities_project_idx').on(t.projectId, t.createdAt.desc().nullsFirst()),
    index('activities_pending_idx').on(t.id).where(sql`${t.fannedOutAt} IS NULL`),
  ],
);
