import { sql, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, customType, doublePrecision, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { CJK_CLASS_SQL } from '../../../lib/cjk.ts';
import { users } from './users.ts';

const tsvector = customType<{ data: string }>({
  dataType() {
    return 'tsvector';
  },
});

export type ProjectStatus = 'published' | 'deleted';

/**
 * How much a head start in time is worth on the hot list: a project needs twice the weighted
 * reactions of one published this many seconds later to rank beside it. 12 hours follows the
 * score computed per request before, (reactions + 1) / (age in hours + 2)^1.5, which halved over
 * the 12 hours from 18 to 30 hours of age, when reactions have had time to come in (it moved
 * younger projects faster and older ones slower, which no order fixed in time can copy).
 */
const HOT_SCORE_DOUBLING_SECONDS = 12 * 60 * 60;

/**
 * The hot score: log2(weighted reactions) + publication time / 12 hours. Stars weigh 3, likes and
 * comments 2, and every project starts at 1. Time enters as a fixed bonus for being newer rather
 * than as an age that grows, so the order of two projects never changes as time passes and the
 * score can be stored and indexed instead of computed for every project on every request.
 * Seconds since the epoch are taken from an interval: `extract` on a timestamptz is only STABLE,
 * and the expression of a generated column must be IMMUTABLE. `greatest` keeps `ln` defined
 * whatever the counts, so no write of a count can fail on it.
 */
function hotScoreSql(t: { starCount: AnyPgColumn; likeCount: AnyPgColumn; commentCount: AnyPgColumn; publishedAt: AnyPgColumn }): SQL {
  const reactions = sql`greatest(${t.starCount} * 3 + ${t.likeCount} * 2 + ${t.commentCount} * 2 + 1, 1)::float8`;
  const seconds = sql`extract(epoch FROM (${t.publishedAt} - '1970-01-01 00:00:00+00'::timestamptz))::float8`;
  return sql`ln(${reactions}) / ln(2) + ${seconds} / ${sql.raw(String(HOT_SCORE_DOUBLING_SECONDS))}`;
}

/**
 * A published (or soft-deleted) project. Unpublished work lives only in `drafts`.
 * `searchText` is the plain text that search reads (title, summary, description, tag names).
 * PostgreSQL derives the rest from title, summary and `searchText` (migration 0008 also defines
 * `cjk_grams()` and keeps title, summary, `searchVector` and `searchCjk` in the row, so search
 * reads no out-of-line values):
 * - `searchVector`: English full-text search and ranking (title A, summary B, text C);
 * - `searchGrams`: every CJK character and pair of adjacent characters (GIN): finds CJK runs;
 * - `searchCjk`: only the CJK text of the document, short: confirms them;
 * - `titleTerms`: English lexemes and CJK grams of the title alone (GIN): finds title matches,
 *   which search ranks first without ranking every match.
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
    /** What the project page's tabs count, kept by the services that write them. */
    logCount: integer('log_count').notNull().default(0),
    versionCount: integer('version_count').notNull().default(0),
    makeCount: integer('make_count').notNull().default(0),
    remixCount: integer('remix_count').notNull().default(0),
    /** The project this one was remixed from (carried from the draft when it was published); null for an original. */
    remixOfId: integer('remix_of_id').references((): AnyPgColumn => projects.id, { onDelete: 'set null' }),
    /** Operator-curated position on `/recommend` (lower first); null when not curated. */
    recommendRank: integer('recommend_rank'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Hidden by staff after a report: gone for everyone but its owner and staff until restored. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenBy: integer('hidden_by').references(() => users.id, { onDelete: 'set null' }),
    searchText: text('search_text').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(${projects.title}, '')), 'A') || setweight(to_tsvector('english', coalesce(${projects.summary}, '')), 'B') || setweight(to_tsvector('english', coalesce(${projects.searchText}, '')), 'C')`,
    ),
    searchCjk: text('search_cjk').generatedAlwaysAs(
      (): SQL =>
        sql`btrim(regexp_replace(${projects.title} || ' ' || ${projects.summary} || ' ' || ${projects.searchText}, ${sql.raw(`'[^${CJK_CLASS_SQL}]+'`)}, ' ', 'g'))`,
    ),
    searchGrams: tsvector('search_grams').generatedAlwaysAs((): SQL => sql`cjk_grams(${projects.title} || ' ' || ${projects.summary} || ' ' || ${projects.searchText})`),
    titleTerms: tsvector('title_terms').generatedAlwaysAs((): SQL => sql`to_tsvector('english', ${projects.title}) || cjk_grams(${projects.title})`),
    /**
     * The `hot` order, stored (see `hotScoreSql`): PostgreSQL rewrites it on every write of the
     * counts or of `publishedAt`, and `projects_hot_idx` reads the hot list in its order.
     */
    hotScore: doublePrecision('hot_score')
      .notNull()
      .generatedAlwaysAs((): SQL => hotScoreSql(projects)),
  },
  (t) => [
    uniqueIndex('projects_public_id_key').on(t.publicId),
    index('projects_published_idx').on(t.status, t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('projects_owner_idx').on(t.ownerId, t.status, t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The hot and recommend lists read published projects in their order, a page at a time.
    index('projects_hot_idx').on(t.hotScore.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`${t.status} = 'published'`),
    index('projects_recommend_idx').on(t.recommendRank.asc().nullsLast(), t.hotScore.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`${t.status} = 'published'`),
    index('projects_remix_of_idx').on(t.remixOfId, t.publishedAt.desc().nullsFirst()).where(sql`${t.remixOfId} IS NOT NULL`),
    index('projects_stars_idx').on(t.status, t.starCount.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('projects_search_vector_idx').using('gin', t.searchVector),
    // Search only ever reads published projects: its indexes leave the rest out.
    index('projects_search_grams_idx').using('gin', t.searchGrams).where(sql`${t.status} = 'published'`),
    index('projects_title_terms_idx').using('gin', t.titleTerms).where(sql`${t.status} = 'published'`),
    // The order of search's "stars" sort and of its candidates (the stars list orders by star_count, id).
    index('projects_search_stars_idx').on(t.starCount.desc().nullsFirst(), t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`${t.status} = 'published'`),
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
