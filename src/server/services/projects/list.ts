import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Locale } from '../../../lib/i18n.ts';
import { getDb } from '../../db/client.ts';
import { collectionProjects, projects, projectTags, stars, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { queryCardPage, type ProjectPage } from './cards.ts';
import { tagIdsWithChildren } from './tags.ts';
import type { Paging } from '../../lib/paging.ts';
import { hotKeyset, newestKeyset, recommendKeyset, type KeysetOrder } from './page-anchors.ts';

export type ProjectSort = 'newest' | 'hot' | 'recommend';

/**
 * The order of a list: `hot` by the hot score PostgreSQL stores (`projects.hotScore`),
 * `recommend` by the curated rank and then hot; each reads an index of published projects.
 */
export function orderFor(sort: ProjectSort): SQL[] {
  return keysetFor(sort).orderBy;
}

/** The order of a list with its keyset, for page anchors (see page-anchors.ts). */
function keysetFor(sort: ProjectSort): KeysetOrder {
  switch (sort) {
    case 'hot':
      return hotKeyset;
    case 'recommend':
      return recommendKeyset;
    default:
      return newestKeyset;
  }
}

/** `project/list`: published projects by newest, hot or recommend, optionally within a tag. */
export async function listProjects(
  options: Paging & { sort?: ProjectSort; tag?: string },
  locale: Locale,
): Promise<ProjectPage> {
  let where: SQL | undefined;
  let ids: number[] = [];
  if (options.tag) {
    ids = await tagIdsWithChildren(options.tag);
    where = sql`${projects.id} IN (SELECT ${projectTags.projectId} FROM ${projectTags} WHERE ${inArray(projectTags.tagId, ids)})`;
  }
  const sort = options.sort ?? 'newest';
  // Deep pages start from page anchors, in each order (page-anchors.ts says how long they hold).
  // Without a tag, the list's statements are the same on every request: prepared, one per order.
  const order = keysetFor(sort);
  return queryCardPage(where, order.orderBy, options, locale, { anchored: { listKey: `${sort} ${ids.join(',')}`, rowsKey: `tags ${ids.join(',')}`, order }, statement: where ? undefined : `all_${sort}` });
}

async function findOwnerId(url: string): Promise<{ id: number }> {
  const [owner] = await getDb().select({ id: users.id }).from(users).where(eq(users.customUrl, url)).limit(1);
  if (!owner) throw new AppError('user_not_found');
  return owner;
}

/** The published projects of the user at custom URL `url`. */
export async function listUserProjects(
  url: string,
  paging: Paging,
  locale: Locale,
): Promise<ProjectPage> {
  const owner = await findOwnerId(url);
  return listOwnProjects(owner.id, paging, locale);
}

/**
 * A member's published projects, newest first (`user/getUserProjectList` for the signed-in one,
 * a member's page for anyone). `total`: their number when the caller has just counted them (a
 * member's page reads it with their profile), so they are not counted again.
 */
export async function listOwnProjects(
  userId: number,
  paging: Paging,
  locale: Locale,
  total?: number,
): Promise<ProjectPage> {
  return queryCardPage(eq(projects.ownerId, userId), orderFor('newest'), paging, locale, { knownTotal: total });
}

/** The published projects the user at `url` starred, most recently starred first. */
export async function listStarredProjects(
  url: string,
  paging: Paging,
  locale: Locale,
): Promise<ProjectPage> {
  const owner = await findOwnerId(url);
  const starredAt = sql`(SELECT ${stars.createdAt} FROM ${stars} WHERE ${stars.projectId} = ${projects.id} AND ${stars.userId} = ${owner.id})`;
  return queryCardPage(
    sql`EXISTS (SELECT 1 FROM ${stars} WHERE ${stars.projectId} = ${projects.id} AND ${stars.userId} = ${owner.id})`,
    [sql`${starredAt} DESC`, desc(projects.id)],
    paging,
    locale,
  );
}

/** The projects of a collection, in the curator's order. */
export async function listCollectionProjects(
  collectionId: number,
  paging: Paging,
  locale: Locale,
): Promise<ProjectPage> {
  const position = sql`(SELECT ${collectionProjects.position} FROM ${collectionProjects} WHERE ${collectionProjects.projectId} = ${projects.id} AND ${collectionProjects.collectionId} = ${collectionId})`;
  return queryCardPage(
    sql`EXISTS (SELECT 1 FROM ${collectionProjects} WHERE ${collectionProjects.projectId} = ${projects.id} AND ${collectionProjects.collectionId} = ${collectionId})`,
    [sql`${position} ASC`, desc(projects.id)],
    paging,
    locale,
  );
}

/** A member's published projects by title (the video uploader's "link to project" choice), newest first. */
export async function listProjectTitles(ownerId: number, limit = 200): Promise<{ id: string; title: string }[]> {
  return getDb()
    .select({ id: projects.publicId, title: projects.title })
    .from(projects)
    .where(and(eq(projects.ownerId, ownerId), eq(projects.status, 'published')))
    .orderBy(desc(projects.publishedAt))
    .limit(limit);
}
