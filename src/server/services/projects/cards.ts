import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Locale } from '../../../lib/i18n.ts';
import { getDb, type Database } from '../../db/client.ts';
import { prepared, preparedOnDemand } from '../../db/prepared.ts';
import { projects, projectTags, tags, users } from '../../db/schema/index.ts';
import { fileUrl } from '../../storage/index.ts';
import type { z } from 'zod';
import type { userRefSchema } from '../../../lib/contract/schemas/common.ts';
import type { projectCardSchema, tagRefSchema } from '../../../lib/contract/schemas/projects.ts';
import type { Page, Paging } from '../../lib/paging.ts';
import { isListed } from '../core/index.ts';
import { rememberedUntilListsChange } from './list-memory.ts';
import { COUNT_LIMIT, countUpTo, listEstimate, rememberedListEstimate, resolveTotal, SURELY, type ProjectTotal } from './totals.ts';
import { storedImageWidth } from '../media/index.ts';
import { findPageStart, knownListLength, type KeysetOrder } from './page-anchors.ts';

export type TagRef = z.infer<typeof tagRefSchema>;

export type OwnerRef = z.infer<typeof userRefSchema>;

/** The project card of every list and of every list endpoint. */
export type ProjectCard = z.infer<typeof projectCardSchema>;

/**
 * A page of a project list or search: `total` is exact when `totalExact`, else PostgreSQL's
 * estimate (see `project-totals.ts`).
 */
export interface ProjectPage<T extends ProjectCard = ProjectCard> extends Page<T>, ProjectTotal {}

export const tagName = (row: { nameEn: string; nameZh: string }, locale: Locale) =>
  locale === 'zh-CN' ? row.nameZh : row.nameEn;

/**
 * A project's cover, or else the photoreal render of its KiCad design source, or else the preview
 * of its first ready board: a project published with a design source or Gerbers and no photo
 * still shows its board on cards and in link previews.
 */
const coverOrBoard = sql<string | null>`coalesce(${projects.cover}, (
  SELECT ${fileUrl('')} || ds.render_top_key FROM design_sources ds
  WHERE ds.project_id = ${projects.id} AND ds.status = 'ready' AND ds.render_top_key IS NOT NULL AND ds.retired_at IS NULL
  ORDER BY ds.id LIMIT 1), (
  SELECT ${fileUrl('')} || b.preview_key FROM boards b
  WHERE b.project_id = ${projects.id} AND b.status = 'ready' AND b.preview_key IS NOT NULL AND b.retired_at IS NULL
  ORDER BY b.id LIMIT 1))`;

/**
 * The picture link previews (Open Graph) show for a project: its cover, or else the JPEG of its
 * design source's top render, or else the JPEG of its first ready board's preview (many link-preview services show no WebP), or that preview itself
 * for a board rendered before JPEGs were kept.
 */
export const shareImage = sql<string | null>`coalesce(${projects.cover}, (
  SELECT ${fileUrl('')} || ds.render_jpeg_key FROM design_sources ds
  WHERE ds.project_id = ${projects.id} AND ds.status = 'ready' AND ds.render_jpeg_key IS NOT NULL AND ds.retired_at IS NULL
  ORDER BY ds.id LIMIT 1), (
  SELECT ${fileUrl('')} || coalesce(b.preview_jpeg_key, b.preview_key) FROM boards b
  WHERE b.project_id = ${projects.id} AND b.status = 'ready' AND b.preview_key IS NOT NULL AND b.retired_at IS NULL
  ORDER BY b.id LIMIT 1))`;

/** Columns every card query selects. */
export const cardColumns = {
  internalId: projects.id,
  id: projects.publicId,
  title: projects.title,
  summary: projects.summary,
  cover: coverOrBoard,
  coverWidth: storedImageWidth(projects.cover),
  views: projects.viewCount,
  stars: projects.starCount,
  likes: projects.likeCount,
  comments: projects.commentCount,
  publishedAt: projects.publishedAt,
  ownerUrl: users.customUrl,
  ownerNickname: users.nickname,
  ownerAvatar: users.avatar,
};

export type CardRow = {
  internalId: number;
  id: string;
  title: string;
  summary: string;
  cover: string | null;
  coverWidth: number | null;
  views: number;
  stars: number;
  likes: number;
  comments: number;
  publishedAt: Date;
  ownerUrl: string;
  ownerNickname: string;
  ownerAvatar: string | null;
};

/**
 * The tags of the cards of every list: built once (see `prepared`), the projects' ids one array
 * (`= any($1)`, where `IN ($1, $2, …)` would be another statement for each number of cards).
 */
const tagsOfProjects = prepared('tags_of_projects', (db, name) =>
  db
    .select({ projectId: projectTags.projectId, slug: tags.slug, nameEn: tags.nameEn, nameZh: tags.nameZh })
    .from(projectTags)
    .innerJoin(tags, eq(tags.id, projectTags.tagId))
    .where(sql`${projectTags.projectId} = any(${sql.placeholder('projectIds')})`)
    .orderBy(tags.sort, tags.slug)
    .prepare(name),
);

/** The tags of many projects in one query, by internal project id. */
export async function loadTags(projectIds: number[], locale: Locale): Promise<Map<number, TagRef[]>> {
  const byProject = new Map<number, TagRef[]>();
  if (projectIds.length === 0) return byProject;
  const rows = await tagsOfProjects().execute({ projectIds });
  for (const row of rows) {
    const list = byProject.get(row.projectId) ?? [];
    list.push({ slug: row.slug, name: tagName(row, locale) });
    byProject.set(row.projectId, list);
  }
  return byProject;
}

/**
 * The tags of a card, selected with it (one statement instead of two): JSON of slug and names in
 * tag order, which `toCards` reads from the row's `tags` instead of loading them.
 */
export const cardTags = sql<TagRow[] | null>`(
  SELECT json_agg(json_build_object('slug', ${tags.slug}, 'nameEn', ${tags.nameEn}, 'nameZh', ${tags.nameZh}) ORDER BY ${tags.sort}, ${tags.slug})
  FROM ${projectTags} JOIN ${tags} ON ${tags.id} = ${projectTags.tagId} WHERE ${projectTags.projectId} = ${projects.id})`;

type TagRow = { slug: string; nameEn: string; nameZh: string };

/** Turns card rows into cards, with their tags (loaded, unless the rows carry `cardTags`). */
export async function toCards(rows: (CardRow & { tags?: TagRow[] | null })[], locale: Locale): Promise<ProjectCard[]> {
  const tagMap = rows.every((row) => row.tags !== undefined)
    ? new Map(rows.map((row) => [row.internalId, (row.tags ?? []).map((tag) => ({ slug: tag.slug, name: tagName(tag, locale) }))]))
    : await loadTags(
        rows.map((row) => row.internalId),
        locale,
      );
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    summary: row.summary,
    cover: row.cover,
    coverWidth: row.coverWidth,
    owner: { url: row.ownerUrl, nickname: row.ownerNickname, avatar: row.ownerAvatar },
    tags: tagMap.get(row.internalId) ?? [],
    counts: { views: row.views, stars: row.stars, likes: row.likes, comments: row.comments },
    publishedAt: row.publishedAt.toISOString(),
  }));
}

/**
 * The cards of one page of a list: the page's projects found first by their ids alone (in order,
 * limited, offset), and the card's columns (cover, owner, tags) read for those rows only.
 * PostgreSQL computes a select list's subqueries and joins for every row it reads up to the end of
 * a page, the rows an offset skips included: page 4 of a list (offset 72, 25 rows read: a page and
 * the one after it), or a deep page 99 rows past its anchor, made 97 or 124 cards to show 24
 * (finding 15 in docs/performance.md).
 */
function cardPageQuery(db: Database, condition: SQL, orderBy: SQL[], limit: number | Placeholder, offset: number | Placeholder) {
  const page = db.select({ id: projects.id }).from(projects).where(condition).orderBy(...orderBy).limit(limit).offset(offset).as('page');
  return db
    .select({ ...cardColumns, tags: cardTags })
    .from(page)
    .innerJoin(projects, eq(projects.id, page.id))
    .innerJoin(users, eq(users.id, projects.ownerId))
    .orderBy(...orderBy);
}

/** A page of a named list's cards (see `queryCardPage`), built once per list. */
const cardPage = preparedOnDemand('card_page', (db, name, condition: SQL, orderBy: SQL[]) =>
  cardPageQuery(db, condition, orderBy, sql.placeholder('limit'), sql.placeholder('offset')).prepare(name),
);

/**
 * One page of cards matching `where`, ordered by `orderBy`, with the total and each card's tags
 * (`cardTags`): one statement, beside the count. The total is counted up to `COUNT_LIMIT`, beyond
 * that PostgreSQL's estimate (`totalExact: false`); a list whose estimate, remembered for its
 * key (`listEstimate`), promises SURELY times the limit is not counted at all, as a search by one
 * common word is not. The page reads one card more than it shows, so the total never ends a list
 * before its last card (an estimate below the truth still links to the next page), and on the
 * last page of a long list it is exact after all (the cards before it and on it). With
 * `anchored`, `orderBy` must be `anchored.order`'s, `listKey` name `where`'s rows and that order,
 * and `rowsKey` `where`'s rows alone: a deep page then costs what page 1 costs (see
 * page-anchors.ts), and the count is made once for every order of those rows until the lists are
 * purged (list-memory.ts). `statement`: a name for `where` and `orderBy` (the same for every call
 * with that name), so a list read on every request (`/newest`, the home page) runs prepared
 * statements built once. `knownTotal`: the number of `where`'s projects when the caller has just
 * counted them, taken as the total.
 */
export async function queryCardPage(
  where: SQL | undefined,
  orderBy: SQL[],
  paging: Paging,
  locale: Locale,
  { anchored, statement, knownTotal }: { anchored?: { listKey: string; rowsKey: string; order: KeysetOrder }; statement?: string; knownTotal?: number } = {},
): Promise<ProjectPage> {
  const db = getDb();
  const condition = (where ? and(isListed, where) : isListed)!;
  const limit = paging.countLimit ?? COUNT_LIMIT;
  const offset = (paging.page - 1) * paging.pageSize;
  // A deep page of a list in a keyset order starts from its page anchor (see page-anchors.ts).
  const start = anchored ? await findPageStart(anchored.listKey, condition, offset, anchored.order) : null;
  // What names the list's rows for its remembered estimate: its anchors' key, or its statement's name.
  const estimateKey = anchored?.listKey ?? statement;
  const known = estimateKey === undefined ? undefined : rememberedListEstimate(estimateKey);
  const surelyMany = known !== undefined && known >= SURELY * (limit + 1);
  const pageRows = () =>
    statement && !start
      ? cardPage(statement, condition, orderBy).execute({ limit: paging.pageSize + 1, offset })
      : cardPageQuery(db, start ? and(condition, anchored!.order.after(start.after))! : condition, orderBy, paging.pageSize + 1, start ? start.skip : offset);
  const answer = async (rows: Awaited<ReturnType<typeof pageRows>>, total: { total: number; totalExact: boolean }) => ({ list: await toCards(rows.slice(0, paging.pageSize), locale), ...total, page: paging.page, pageSize: paging.pageSize });
  if (knownTotal !== undefined) return answer(await pageRows(), { total: knownTotal, totalExact: true });
  // A list whose anchors were found by reading it to its end knows its length (page-anchors.ts):
  // exact where a long list's estimate can be above the truth (its pagination then leads past its
  // end) or below it, and no count is needed. Taken when this page agrees with it, which catches a
  // length a write no purge announced has made wrong only on the page where the list ends.
  const length = anchored ? knownListLength(anchored.listKey) : undefined;
  // The count of a list's rows (all published projects, or a tag's) is remembered until the lists
  // are purged (list-memory.ts): a tag's list counted up to a thousand projects on each of its
  // pages, 6-10 ms of PostgreSQL's time each.
  const countRows = () => countUpTo(condition, limit, statement);
  const count = () => (surelyMany ? Promise.resolve(limit + 1) : anchored ? rememberedUntilListsChange(`count ${limit} ${anchored.rowsKey}`, countRows) : countRows());
  const [rows, counted] = await Promise.all([pageRows(), length === undefined ? count() : undefined]);
  const shown = Math.min(rows.length, paging.pageSize);
  const more = rows.length > paging.pageSize;
  if (shown > 0 && !more) return answer(rows, { total: offset + shown, totalExact: true });
  if (length !== undefined && (more ? length >= offset + rows.length : length <= offset)) return answer(rows, { total: length, totalExact: true });
  return answer(rows, await resolveTotal(counted ?? (await count()), limit, () => listEstimate(estimateKey, condition), more ? offset + rows.length : 0));
}
