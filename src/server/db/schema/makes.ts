import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { uploads } from './uploads.ts';
import { users } from './users.ts';

/**
 * "I built this": a member's build of a published project, with photos, a note and optionally a
 * link to their own variant (an http(s) address, or a project of this site by its public id).
 * `projects.makeCount` counts the rows of a project a guest sees (not hidden), kept by the makes
 * service and by moderation.
 */
export const makes = pgTable(
  'makes',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    makerId: integer('maker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    /** An http(s) address, or null. */
    link: text('link'),
    /** A project of this site the maker links to as their variant, or null. */
    linkProjectId: integer('link_project_id').references(() => projects.id, { onDelete: 'set null' }),
    /** Hidden by staff after a report: gone for everyone but its maker and staff until restored. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenBy: integer('hidden_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('makes_project_idx').on(t.projectId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()), index('makes_maker_idx').on(t.makerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())],
);

/**
 * The photos of a make, in order: each an image upload of the maker, used by one make only (so
 * the same upload cannot be shown under two makes, nor deleted from under one).
 */
export const makeImages = pgTable(
  'make_images',
  {
    makeId: integer('make_id')
      .notNull()
      .references(() => makes.id, { onDelete: 'cascade' }),
    uploadId: text('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull(),
  },
  (t) => [primaryKey({ columns: [t.makeId, t.sort] }), uniqueIndex('make_images_upload_key').on(t.uploadId)],
);
