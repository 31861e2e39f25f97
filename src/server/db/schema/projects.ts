import { sql, type SQL } from 'drizzle-orm';
import { customType, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

const tsvector = customType<{ data: string }>({
  dataType() {
    return 'tsvector';
  },
});

export type ProjectStatus = 'published' | 'deleted';

/**
 * A published (or soft-deleted) project. Unpublished work lives only in `drafts`.
 * `searchText` is the plain text that search reads (title, summary, description, tag names);
 * `searchVector` is derived from it for English full-text search, and a trigram index on it
 * finds Chinese substrings.
 */
export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    publicId: text('public_id').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    cover: text('cover'),
    descriptionMd: text('description_md').notNull().default(''),
    descriptionHtml: text('description_html').notNull().default(''),
    licence: text('licence').notNull(),
    status: text('status').$type<ProjectStatus>().notNull().default('published'),
    viewCount: integer('view_count').notNull().default(0),
    starCount: integer('star_count').notNull().default(0),
    likeCount: integer('like_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    /** Operator-curated position on `/recommend` (lower first); null when not curated. */
    recommendRank: integer('recommend_rank'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    searchText: text('search_text').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(${projects.title}, '')), 'A') || setweight(to_tsvector('english', coalesce(${projects.summary}, '')), 'B') || setweight(to_tsvector('english', coalesce(${projects.searchText}, '')), 'C')`,
    ),
  },
  (t) => [
    uniqueIndex('projects_public_id_key').on(t.publicId),
    index('projects_published_idx').on(t.status, t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('projects_owner_idx').on(t.ownerId, t.status, t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('projects_recommend_idx').on(t.recommendRank),
    index('projects_stars_idx').on(t.status, t.starCount.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('projects_search_vector_idx').using('gin', t.searchVector),
    index('projects_search_trgm_idx').using('gin', sql`(lower(${t.title} || ' ' || ${t.summary} || ' ' || ${t.searchText})) gin_trgm_ops`),
  ],
);

/** One row per visitor per project per day, so a view is counted once a day. */
export const projectViews = pgTable(
  'project_views',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    visitor: text('visitor').notNull(),
    day: text('day').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.visitor, t.day] })],
);
