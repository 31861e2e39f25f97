import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Locale } from '../../lib/i18n.ts';
import { getDb } from '../db/client.ts';
import { projects, projectTags, tags } from '../db/schema/index.ts';
import { AppError } from '../http/errors.ts';
import { isListed, tagName } from './cards.ts';
import type { z } from 'zod';
import type { tagDetailSchema, tagNodeSchema } from '../../lib/contract/schemas/projects.ts';

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

/** The two-level tag tree, names in `locale`. */
export async function listTagTree(locale: Locale): Promise<TagNode[]> {
  const rows = await getDb().select().from(tags).orderBy(asc(tags.sort), asc(tags.slug));
  const roots = rows.filter((row) => row.parentId === null);
  return roots.map((root) => ({
    slug: root.slug,
    name: tagName(root, locale),
    children: rows
      .filter((row) => row.parentId === root.id)
      .map((child) => ({ slug: child.slug, name: tagName(child, locale), children: [] })),
  }));
}

/** A tag with its parent and children, and the ids of the tag and its children. */
async function findTag(slug: string, locale: Locale): Promise<{ tag: TagInfo; ids: number[] }> {
  const db = getDb();
  const [tag] = await db.select().from(tags).where(eq(tags.slug, slug)).limit(1);
  if (!tag) throw new AppError('tag_not_found');
  const [children, parent] = await Promise.all([
    db.select().from(tags).where(eq(tags.parentId, tag.id)).orderBy(asc(tags.sort)),
    tag.parentId ? db.select().from(tags).where(eq(tags.id, tag.parentId)).limit(1) : Promise.resolve([]),
  ]);
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
  const rows = await getDb()
    .select({ id: tags.id })
    .from(tags)
    .where(sql`${tags.slug} = ${slug} OR ${tags.parentId} = (SELECT id FROM tags WHERE slug = ${slug})`);
  if (rows.length === 0) throw new AppError('tag_not_found');
  return rows.map((row) => row.id);
}

/** Child tags with the most published projects. */
export async function listPopularTags(locale: Locale, limit = 16): Promise<{ slug: string; name: string; count: number }[]> {
  const rows = await getDb()
    .select({ slug: tags.slug, nameEn: tags.nameEn, nameZh: tags.nameZh, count: sql<number>`count(*)::int` })
    .from(projectTags)
    .innerJoin(tags, eq(tags.id, projectTags.tagId))
    .innerJoin(projects, eq(projects.id, projectTags.projectId))
    .where(isListed)
    .groupBy(tags.id)
    .orderBy(sql`count(*) DESC`, asc(tags.slug))
    .limit(limit);
  return rows.map((row) => ({ slug: row.slug, name: tagName(row, locale), count: row.count }));
}



