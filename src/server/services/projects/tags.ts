import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Locale } from '../../../lib/i18n.ts';
import { getDb } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { projects, projectTags, tags } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { tagName } from './cards.ts';
import type { z } from 'zod';
import type { TagSuggestion, tagDetailSchema, tagNodeSchema } from '../../../lib/contract/schemas/projects.ts';
import { isListed } from '../core/index.ts';
import { rememberedUntilListsChange as remembered } from './list-memory.ts';

export type TagNode = z.infer<typeof tagNodeSchema>;

/** A tag with its parent and children, as a tag page shows it. */
export interface TagInfo {
  slug: string;
  name: string;
  nameEn: string;
  nameZh: string;
  parent: { slug: string; name: string } | null;
  children: { slug: string; name: string }[];
}

export type TagDetail = z.infer<typeof tagDetailSchema>;

// Every list page reads tag rows (the navigation's curated tags; a tag page's tag, parent and
// children; the ids a tag filter covers): remembered until the lists are purged (list-memory.ts),
// where a tag's list page sent five statements for them.

/** The tags of the navigation, on every list page: built once (see `prepared`). */
const curatedTags = prepared('curated_tags', (db, name) => db.select().from(tags).where(eq(tags.curated, true)).orderBy(asc(tags.sort), asc(tags.slug)).prepare(name));

/** The two-level tag tree, names in `locale`. */
export async function listTagTree(locale: Locale): Promise<TagNode[]> {
  // Members' tags stay out of the navigation until staff place them in the tree.
  const rows = await remembered('curated', () => curatedTags().execute());
  const roots = rows.filter((row) => row.parentId === null);
  return roots.map((root) => ({
    slug: root.slug,
    name: tagName(root, locale),
    children: rows
      .filter((row) => row.parentId === root.id)
      .map((child) => ({ slug: child.slug, name: tagName(child, locale), children: [] })),
  }));
}

/** A tag's row with its children's and its parent's (`tag_not_found` when there is none). */
function tagFamily(slug: string) {
  return remembered(`family ${slug}`, async () => {
    const db = getDb();
    const [tag] = await db.select().from(tags).where(eq(tags.slug, slug)).limit(1);
    if (!tag) throw new AppError('tag_not_found');
    const [children, parent] = await Promise.all([
      db.select().from(tags).where(eq(tags.parentId, tag.id)).orderBy(asc(tags.sort)),
      tag.parentId ? db.select().from(tags).where(eq(tags.id, tag.parentId)).limit(1) : Promise.resolve([]),
    ]);
    return { tag, children, parent };
  });
}

/** A tag with its parent and children, and the ids of the tag and its children. */
async function findTag(slug: string, locale: Locale): Promise<{ tag: TagInfo; ids: number[] }> {
  const { tag, children, parent } = await tagFamily(slug);
  return {
    tag: {
      slug: tag.slug,
      name: tagName(tag, locale),
      nameEn: tag.nameEn,
      nameZh: tag.nameZh,
      parent: parent[0] ? { slug: parent[0].slug, name: tagName(parent[0], locale) } : null,
      children: children.map((child) => ({ slug: child.slug, name: tagName(child, locale) })),
    },
    ids: [tag.id, ...children.map((child) => child.id)],
  };
}

/**
 * One tag with its parent and children, without counting its projects: a tag page counts them
 * with its list, cheaply (`queryCardPage`), where counting them all here cost 90 ms for a parent
 * tag at 100,000 projects.
 */
export async function getTag(slug: string, locale: Locale): Promise<TagInfo> {
  return (await findTag(slug, locale)).tag;
}

/** One tag with its parent, children and exact number of published projects (its children's included). */
export async function getTagDetail(slug: string, locale: Locale): Promise<TagDetail> {
  const { tag, ids } = await findTag(slug, locale);
  const [count] = await getDb()
    .select({ n: sql<number>`count(DISTINCT ${projectTags.projectId})::int` })
    .from(projectTags)
    .innerJoin(projects, eq(projects.id, projectTags.projectId))
    .where(sql`${inArray(projectTags.tagId, ids)} AND ${isListed}`);
  return { ...tag, projectCount: count?.n ?? 0 };
}

/** The ids of a tag and its children (filtering by a parent tag includes its children). */
export async function tagIdsWithChildren(slug: string): Promise<number[]> {
  const rows = await remembered(`ids ${slug}`, async () => {
    const found = await getDb()
      .select({ id: tags.id })
      .from(tags)
      .where(sql`${tags.slug} = ${slug} OR ${tags.parentId} = (SELECT id FROM tags WHERE slug = ${slug})`);
    if (found.length === 0) throw new AppError('tag_not_found');
    return found;
  });
  return rows.map((row) => row.id);
}

/** Child tags with the most published projects. */
export async function listPopularTags(locale: Locale, limit = 16): Promise<{ slug: string; name: string; count: number }[]> {
  const rows = await getDb()
    .select({ slug: tags.slug, nameEn: tags.nameEn, nameZh: tags.nameZh, count: sql<number>`count(*)::int` })
    .from(projectTags)
    .innerJoin(tags, eq(tags.id, projectTags.tagId))
    .innerJoin(projects, eq(projects.id, projectTags.projectId))
    .where(and(isListed, eq(tags.curated, true)))
    .groupBy(tags.id)
    .orderBy(sql`count(*) DESC`, asc(tags.slug))
    .limit(limit);
  return rows.map((row) => ({ slug: row.slug, name: tagName(row, locale), count: row.count }));
}





/** How many tags matching a query are ranked by use before the best `limit` are kept. */
const SUGGESTION_CANDIDATES = 50;

/** `q` for LIKE, its wildcards taken literally. */
const likeLiteral = (q: string) => q.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * Tags whose English or Chinese name, slug or former (merged) slug contains `q`, for the
 * creation form's type-ahead: exact matches first, then names that start with `q`, then the rest;
 * among equals, tags on more listed projects first. Every tag counts, members' included. The
 * trigram index on both names and the slug finds the candidates; only the best fifty are counted.
 */
export async function suggestTags(q: string, limit: number): Promise<TagSuggestion[]> {
  const needle = q.normalize('NFKC').trim().toLowerCase();
  if (!needle) return [];
  const contains = `%${likeLiteral(needle)}%`;
  const prefix = `${likeLiteral(needle)}%`;
  const result = await getDb().execute<{ slug: string; name_en: string; name_zh: string; project_count: number }>(sql`
    WITH candidates AS (
      SELECT t.id, t.slug, t.name_en, t.name_zh,
        CASE
          WHEN lower(t.name_en) = ${needle} OR lower(t.name_zh) = ${needle} OR t.slug = ${needle} THEN 0
          WHEN lower(t.name_en) LIKE ${prefix} OR lower(t.name_zh) LIKE ${prefix} OR t.slug LIKE ${prefix} THEN 1
          ELSE 2
        END AS rank
      FROM tags t
      WHERE lower(t.slug || ' ' || t.name_en || ' ' || t.name_zh) LIKE ${contains}
        OR t.id IN (SELECT a.tag_id FROM tag_aliases a WHERE a.slug LIKE ${contains})
      ORDER BY rank, t.slug
      LIMIT ${SUGGESTION_CANDIDATES}
    )
    SELECT c.slug, c.name_en, c.name_zh,
      (SELECT count(*)::int FROM project_tags pt JOIN projects ON projects.id = pt.project_id
        WHERE pt.tag_id = c.id AND ${isListed}) AS project_count
    FROM candidates c
    ORDER BY c.rank, project_count DESC, c.slug
    LIMIT ${limit}`);
  return result.rows.map((row) => ({ slug: row.slug, nameEn: row.name_en, nameZh: row.name_zh, projectCount: row.project_count }));
}

/** The names in `locale` of the tags `slugs` (members' tags included), by slug: the form's chips of a draft or edit. */
export async function tagNamesOf(slugs: string[], locale: Locale): Promise<Record<string, string>> {
  if (slugs.length === 0) return {};
  const rows = await getDb().select({ slug: tags.slug, nameEn: tags.nameEn, nameZh: tags.nameZh }).from(tags).where(inArray(tags.slug, slugs));
  return Object.fromEntries(rows.map((row) => [row.slug, tagName(row, locale)]));
}
