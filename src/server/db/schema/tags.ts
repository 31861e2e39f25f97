import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';

/** A two-level tag tree with English and Chinese names. */
export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull(),
    nameEn: text('name_en').notNull(),
    nameZh: text('name_zh').notNull(),
    parentId: integer('parent_id'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('tags_slug_key').on(t.slug), index('tags_parent_idx').on(t.parentId, t.sort)],
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
