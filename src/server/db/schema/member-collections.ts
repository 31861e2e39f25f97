import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * A member's own collection of projects, at `/user/{url}/collections/{slug}`. The slug is made
 * from the title and is unique per member (numbered on a clash); a private one is seen by its
 * owner only. Staff collections (`collections`) are a different thing and stay apart.
 */
export const memberCollections = pgTable(
  'member_collections',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    isPublic: boolean('is_public').notNull().default(true),
    /** Hidden by staff after a report: gone for everyone but its owner and staff until restored. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenBy: integer('hidden_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('member_collections_owner_slug_key').on(t.ownerId, t.slug), index('member_collections_owner_idx').on(t.ownerId, t.updatedAt.desc())],
);

/** A project in a member's collection: `position` orders them (0 first), `addedAt` says when. */
export const memberCollectionProjects = pgTable(
  'member_collection_projects',
  {
    collectionId: integer('collection_id')
      .notNull()
      .references(() => memberCollections.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.projectId] }),
    index('member_collection_projects_position_idx').on(t.collectionId, t.position),
    // "Which of my collections hold this project" (the save menu) reads by project.
    index('member_collection_projects_project_idx').on(t.projectId),
  ],
);
