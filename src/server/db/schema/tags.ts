import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * Tags with English and Chinese names. Staff keep a two-level tree of curated tags (the
 * navigation and filters); members add tags of their own when they publish, which stay out of
 * that tree (`curated` false, `createdBy` the member) until staff place them in it. A member's
 * tag starts with the typed name as both names, until staff give it the other language's.
 */
export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull(),
    nameEn: text('name_en').notNull(),
    nameZh: text('name_zh').notNull(),
    parentId: integer('parent_id'),
    sort: integer('sort').notNull().default(0),
    /** In the staff tree (navigation, filters). False for a member's tag until staff place it. */
    curated: boolean('curated').notNull().default(true),
    /** The member whose publication created the tag; null for staff-made tags. */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tags_slug_key').on(t.slug),
    index('tags_parent_idx').on(t.parentId, t.sort),
    // Serves the form's suggestions: substring matches (ILIKE '%q%') of both names and the slug.
    index('tags_names_trgm_idx').using('gin', sql`(lower(${t.slug} || ' ' || ${t.nameEn} || ' ' || ${t.nameZh})) gin_trgm_ops`),
  ],
);

export const projectTags = pgTable(
  'project_tags',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.tagId] }), index('project_tags_tag_idx').on(t.tagId, t.projectId)],
);

/**
 * Former slugs of tags merged into another: `/newest?tag=<old>` keeps working (it redirects to
 * the tag that took the projects over), and a new tag may not take an old slug while it points here.
 */
export const tagAliases = pgTable('tag_aliases', {
  slug: text('slug').primaryKey(),
  tagId: integer('tag_id')
    .notNull()
    .references(() => tags.id, { onDelete: 'cascade' }),
});
