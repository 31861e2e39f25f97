import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';
import type { ProjectContent } from '../../../lib/contract/project-content.ts';


/** Unpublished work: drafts and previews store the content shape of the creation form. */
export type { ProjectContent };

/** Unpublished work ("temporary"): a new project, or an edit of a published one (`projectId`). */
export const drafts = pgTable(
  'drafts',
  {
    id: text('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    /** The project this draft remixes (`project/remix`): publishing it records the lineage. */
    remixOfId: integer('remix_of_id').references(() => projects.id, { onDelete: 'set null' }),
    content: jsonb('content').$type<ProjectContent>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('drafts_owner_idx').on(t.ownerId, t.updatedAt.desc().nullsFirst())],
);

/** A saved preview, visible to its author and to holders of its link token. */
export const previews = pgTable('previews', {
  id: text('id').primaryKey(),
  ownerId: integer('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  linkToken: text('link_token').notNull(),
  content: jsonb('content').$type<ProjectContent>().notNull(),
  descriptionHtml: text('description_html').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
