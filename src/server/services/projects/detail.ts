import { and, asc, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { Locale } from '../../../lib/i18n.ts';
import { getDb } from '../../db/client.ts';
import { prepared, preparedShapes } from '../../db/prepared.ts';
import { attachments, boards, follows, likes, projects, projectTags, stars, users, videos } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { listProjectBoards } from '../eda/index.ts';
import { listProjectVideos } from '../media/index.ts';
import type { PublishedProjectRef } from '../core/index.ts';
import { cardColumns, cardTags, shareImage, toCards, type ProjectCard } from './cards.ts';
import type { z } from 'zod';
import type { attachmentInfoSchema, projectDetailSchema } from '../../../lib/contract/schemas/projects.ts';
import { isListed, publishedProjectById } from '../core/index.ts';

export type AttachmentInfo = z.infer<typeof attachmentInfoSchema>;

/** `project/detail`: a card plus what the project page shows. */
export type ProjectDetail = z.infer<typeof projectDetailSchema>;

/**
 * A project page's row, read on every view: built once for a guest and once for a member
 * (`viewerId` a placeholder), see `prepared`.
 */
const projectRow = preparedShapes('project_detail', ['guest', 'member'] as const, (db, shape, name) => {
  const viewerId = shape === 'member' ? sql.placeholder('viewerId') : null;
  // The viewer's star and like come with the row: two lookups fewer on every signed-in view.
  const viewerHas = (table: typeof stars | typeof likes) =>
    viewerId ? sql<boolean>`EXISTS (SELECT 1 FROM ${table} WHERE ${table.projectId} = ${projects.id} AND ${table.userId} = ${viewerId})` : sql<boolean>`false`;
  return db
    .select({
      ...cardColumns,
      // Its tags with it: a round trip fewer on every view.
      tags: cardTags,
      shareImage,
      ownerId: projects.ownerId,
      descriptionHtml: projects.descriptionHtml,
      licence: projects.licence,
      updatedAt: projects.updatedAt,
      hiddenAt: projects.hiddenAt,
      logCount: projects.logCount,
      versionCount: projects.versionCount,
      makeCount: projects.makeCount,
      remixCount: projects.remixCount,
      remixOfId: projects.remixOfId,
      starred: viewerHas(stars),
      liked: viewerHas(likes),
      // The Follow button's state comes with the row too.
      followers: sql<number>`(SELECT count(*)::int FROM ${follows} WHERE ${follows.kind} = 'project' AND ${follows.targetId} = ${projects.id})`,
      following: viewerId
        ? sql<boolean>`EXISTS (SELECT 1 FROM ${follows} WHERE ${follows.followerId} = ${viewerId} AND ${follows.kind} = 'project' AND ${follows.targetId} = ${projects.id})`
        : sql<boolean>`false`,
      // Whether it has files, boards and videos at all: most projects have none of one or more,
      // and their statements are then left out (three round trips, each waking PostgreSQL).
      hasFiles: sql<boolean>`EXISTS (SELECT 1 FROM ${attachments} WHERE ${attachments.projectId} = ${projects.id})`,
      hasBoards: sql<boolean>`EXISTS (SELECT 1 FROM ${boards} WHERE ${boards.projectId} = ${projects.id})`,
      hasVideos: sql<boolean>`EXISTS (SELECT 1 FROM ${videos} WHERE ${videos.projectId} = ${projects.id})`,
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(publishedProjectById(sql.placeholder('publicId'), { viewerId }))
    .limit(1)
    .prepare(name);
});

const projectAttachments = prepared('project_attachments', (db, name) =>
  db.select().from(attachments).where(eq(attachments.projectId, sql.placeholder('projectId'))).orderBy(asc(attachments.sort), asc(attachments.createdAt)).prepare(name),
);

/** A published project as its page shows it, for `viewerId` (null: a guest). */
export async function getProjectDetail(publicId: string, viewerId: number | null, locale: Locale): Promise<ProjectDetail> {
  return (await findProjectDetail(publicId, viewerId, locale)).detail;
}

/**
 * The project's detail and the project as found (`ref`), so that a page showing more of it
 * (related projects, comments) does not look it up again. `alongside` starts with the project
 * found, while its files, boards and videos are read: what a page reads of it besides waits for
 * one round trip to PostgreSQL, not two.
 */
export async function findProjectDetail<T = undefined>(
  publicId: string,
  viewerId: number | null,
  locale: Locale,
  alongside?: (ref: PublishedProjectRef) => Promise<T>,
): Promise<{ detail: ProjectDetail; ref: PublishedProjectRef; alongside: T }> {
  const [row] = viewerId === null ? await projectRow('guest').execute({ publicId }) : await projectRow('member').execute({ publicId, viewerId });
  if (!row) throw new AppError('project_not_found');
  const ref: PublishedProjectRef = { id: row.internalId, ownerId: row.ownerId, remixOfId: row.remixOfId };
  const [cards, files, boardRows, videoRows, besides] = await Promise.all([
    toCards([row], locale),
    row.hasFiles ? projectAttachments().execute({ projectId: row.internalId }) : [],
    row.hasBoards ? listProjectBoards(row.internalId, viewerId !== null && viewerId === row.ownerId) : [],
    row.hasVideos ? listProjectVideos(row.internalId, viewerId) : [],
    alongside ? alongside(ref) : (undefined as T),
  ]);
  const detail: ProjectDetail = {
    ...cards[0]!,
    descriptionHtml: row.descriptionHtml,
    licence: row.licence,
    attachments: files.map((file) => ({
      id: file.id,
      name: file.name,
      mime: file.mime,
      size: file.size,
      kind: file.kind,
      downloadCount: file.downloadCount,
      url: `/api/attachment/download?id=${encodeURIComponent(file.id)}`,
    })),
    boards: boardRows,
    videos: videoRows,
    shareImage: row.shareImage,
    updatedAt: row.updatedAt.toISOString(),
    // A published project has its version 1 even before it is written (on first read or edit).
    follow: { following: row.following, followers: row.followers },
    tabs: { logs: row.logCount, versions: Math.max(row.versionCount, 1), makes: row.makeCount, remixes: row.remixCount },
    viewer: { starred: row.starred, liked: row.liked, isOwner: viewerId === row.ownerId, hidden: row.hiddenAt !== null },
  };
  return { detail, ref, alongside: besides };
}

/** A member's own relation to a project, for their page filled in from a guest's: one statement, built once. */
const memberProjectRow = prepared('member_project_state', (db, name) => {
  const viewerId = sql.placeholder('viewerId');
  return db
    .select({
      id: projects.id,
      ownerId: projects.ownerId,
      remixOfId: projects.remixOfId,
      starred: sql<boolean>`EXISTS (SELECT 1 FROM ${stars} WHERE ${stars.projectId} = ${projects.id} AND ${stars.userId} = ${viewerId})`,
      liked: sql<boolean>`EXISTS (SELECT 1 FROM ${likes} WHERE ${likes.projectId} = ${projects.id} AND ${likes.userId} = ${viewerId})`,
      following: sql<boolean>`EXISTS (SELECT 1 FROM ${follows} WHERE ${follows.followerId} = ${viewerId} AND ${follows.kind} = 'project' AND ${follows.targetId} = ${projects.id})`,
    })
    .from(projects)
    .where(publishedProjectById(sql.placeholder('publicId'), { viewerId }))
    .limit(1)
    .prepare(name);
});

/**
 * A member's own relation to a project (starred, liked, following) and the project as found, for
 * their project page filled in from the guest page: what `findProjectDetail` says of them, alone.
 */
export async function findMemberProjectState(publicId: string, viewerId: number): Promise<{ starred: boolean; liked: boolean; following: boolean; ref: PublishedProjectRef }> {
  const [row] = await memberProjectRow().execute({ publicId, viewerId });
  if (!row) throw new AppError('project_not_found');
  return { starred: row.starred, liked: row.liked, following: row.following, ref: { id: row.id, ownerId: row.ownerId, remixOfId: row.remixOfId } };
}

/**
 * How many of each shared tag's newest projects, and of the author's, are weighed as related: a
 * bound, so that a project page costs the same whatever a tag's size (with every project of a
 * tag weighed, a page of a popular tag took 10–18 ms of PostgreSQL at 10,000 projects, and the
 * author's projects forced a scan of them all).
 */
const RELATED_PER_TAG = 50;
const RELATED_BY_AUTHOR = 20;
/** How many a project page shows (the statement's own LIMIT: there is no other caller). */
const RELATED_SHOWN = 4;

/**
 * The related projects of every project page: built once and planned once (see `prepared`; its
 * plan is the same for every project, the candidates being read by ids through indexes).
 */
const relatedCards = prepared('related_projects', (db, name) => {
  const projectId = sql.placeholder('projectId');
  const ownerId = sql.placeholder('ownerId');
  // The candidates: the newest projects of each of its tags (through project_tags_tag_idx) and
  // the author's newest (through projects_owner_idx).
  const candidates = sql`(
    SELECT near.project_id FROM ${projectTags} AS own_tag
    CROSS JOIN LATERAL (
      SELECT other.project_id FROM ${projectTags} AS other
      WHERE other.tag_id = own_tag.tag_id AND other.project_id <> ${projectId}
      ORDER BY other.project_id DESC LIMIT ${sql.raw(String(RELATED_PER_TAG))}
    ) AS near
    WHERE own_tag.project_id = ${projectId}
    UNION
    (SELECT ${projects.id} FROM ${projects} WHERE ${projects.ownerId} = ${ownerId} AND ${projects.status} = 'published' AND ${projects.id} <> ${projectId}
     ORDER BY ${projects.publishedAt} DESC, ${projects.id} DESC LIMIT ${sql.raw(String(RELATED_BY_AUTHOR))})
  )`;
  // Each candidate's shared tags (through the primary key of project_tags); the best few are
  // chosen from the projects' own columns, and only they are made cards (author, cover, tags):
  // making a card of every candidate and sorting them took 2 ms of PostgreSQL on every page.
  const shared = sql<number>`(SELECT count(*) FROM ${projectTags} AS theirs
    WHERE theirs.project_id = ${projects.id} AND theirs.tag_id IN (SELECT mine.tag_id FROM ${projectTags} AS mine WHERE mine.project_id = ${projectId}))`;
  const best = db
    .select({ id: projects.id, shared: shared.as('shared'), byAuthor: sql<boolean>`${projects.ownerId} = ${ownerId}`.as('by_author') })
    .from(projects)
    .where(and(isListed, sql`${projects.id} IN ${candidates}`))
    .orderBy(sql`shared DESC`, sql`by_author DESC`, desc(projects.starCount), desc(projects.id))
    .limit(RELATED_SHOWN)
    .as('best');
  return db
    .select({ ...cardColumns, tags: cardTags })
    .from(best)
    .innerJoin(projects, eq(projects.id, best.id))
    .innerJoin(users, eq(users.id, projects.ownerId))
    .orderBy(desc(best.shared), desc(best.byAuthor), desc(projects.starCount), desc(projects.id))
    .prepare(name);
}, { plan: 'generic' });


/** The few projects sharing the most tags with `project`, then by the same author, then the most starred. */
export async function listRelatedProjects(project: PublishedProjectRef, locale: Locale): Promise<ProjectCard[]> {
  const db = getDb();
  const related = await relatedCards().execute({ projectId: project.id, ownerId: project.ownerId });
  if (related.length < RELATED_SHOWN) {
    const seen = [project.id, ...related.map((row) => row.internalId)];
    const popular = await db
      .select({ ...cardColumns, tags: cardTags })
      .from(projects)
      .innerJoin(users, eq(users.id, projects.ownerId))
      .where(and(isListed, notInArray(projects.id, seen)))
      .orderBy(desc(projects.starCount), desc(projects.id))
      .limit(RELATED_SHOWN - related.length);
    related.push(...popular);
  }
  return toCards(related, locale);
}
