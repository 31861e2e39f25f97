import { and, asc, desc, eq, inArray, isNotNull, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Locale } from '../../../lib/i18n.ts';
import { getDb } from '../../db/client.ts';
import { attachments, follows, likes, projects, projectTags, stars, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { listProjectBoards } from '../eda/index.ts';
import { listProjectVideos } from '../media/index.ts';
import type { PublishedProjectRef } from '../core/index.ts';
import { cardColumns, shareImage, toCards, type ProjectCard } from './cards.ts';
import type { z } from 'zod';
import type { attachmentInfoSchema, projectDetailSchema } from '../../../lib/contract/schemas/projects.ts';
import { isListed, publishedProjectById } from '../core/index.ts';

export type AttachmentInfo = z.infer<typeof attachmentInfoSchema>;

/** `project/detail`: a card plus what the project page shows. */
export type ProjectDetail = z.infer<typeof projectDetailSchema>;

/** A published project as its page shows it, for `viewerId` (null: a guest). */
export async function getProjectDetail(publicId: string, viewerId: number | null, locale: Locale): Promise<ProjectDetail> {
  return (await findProjectDetail(publicId, viewerId, locale)).detail;
}

/** Whether the viewer starred, liked and follows the project of the row (all false for a guest). */
function viewerColumns(viewerId: number | null) {
  const viewerHas = (table: typeof stars | typeof likes) =>
    viewerId ? sql<boolean>`EXISTS (SELECT 1 FROM ${table} WHERE ${table.projectId} = ${projects.id} AND ${table.userId} = ${viewerId})` : sql<boolean>`false`;
  return {
    starred: viewerHas(stars),
    liked: viewerHas(likes),
    following: viewerId
      ? sql<boolean>`EXISTS (SELECT 1 FROM ${follows} WHERE ${follows.followerId} = ${viewerId} AND ${follows.kind} = 'project' AND ${follows.targetId} = ${projects.id})`
      : sql<boolean>`false`,
  };
}

/**
 * A member's own relation to a project (starred, liked, following) and the project as found, for
 * their project page filled in from the guest page: what `findProjectDetail` says of them, alone.
 */
export async function findMemberProjectState(publicId: string, viewerId: number): Promise<{ starred: boolean; liked: boolean; following: boolean; ref: PublishedProjectRef }> {
  const [row] = await getDb()
    .select({ id: projects.id, ownerId: projects.ownerId, remixOfId: projects.remixOfId, ...viewerColumns(viewerId) })
    .from(projects)
    .where(publishedProjectById(publicId, { viewerId }))
    .limit(1);
  if (!row) throw new AppError('project_not_found');
  return { starred: row.starred, liked: row.liked, following: row.following, ref: { id: row.id, ownerId: row.ownerId, remixOfId: row.remixOfId } };
}

/**
 * The project's detail and the project as found (`ref`), so that a page showing more of it
 * (related projects, comments) does not look it up again.
 */
export async function findProjectDetail(
  publicId: string,
  viewerId: number | null,
  locale: Locale,
): Promise<{ detail: ProjectDetail; ref: PublishedProjectRef }> {
  const db = getDb();
  const [row] = await db
    .select({
      ...cardColumns,
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
      // The viewer's star, like and follow come with the row: lookups fewer on every signed-in view.
      ...viewerColumns(viewerId),
      followers: sql<number>`(SELECT count(*)::int FROM ${follows} WHERE ${follows.kind} = 'project' AND ${follows.targetId} = ${projects.id})`,
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(publishedProjectById(publicId, { viewerId }))
    .limit(1);
  if (!row) throw new AppError('project_not_found');
  const [cards, files, boardRows, videoRows] = await Promise.all([
    toCards([row], locale),
    db.select().from(attachments).where(eq(attachments.projectId, row.internalId)).orderBy(asc(attachments.sort), asc(attachments.createdAt)),
    listProjectBoards(row.internalId, viewerId !== null && viewerId === row.ownerId),
    listProjectVideos(row.internalId, viewerId),
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
  return { detail, ref: { id: row.internalId, ownerId: row.ownerId, remixOfId: row.remixOfId } };
}

/** Projects sharing the most tags with `project`, then by the same author; at most `limit`. */
export async function listRelatedProjects(project: PublishedProjectRef, locale: Locale, limit = 4): Promise<ProjectCard[]> {
  const db = getDb();
  const tagIds = db.select({ tagId: projectTags.tagId }).from(projectTags).where(eq(projectTags.projectId, project.id));
  // Only projects sharing a tag or the author are ranked, with shared-tag counts from one
  // grouped scan (not a subquery per row); if they are too few, the most-starred fill the rest.
  const sharedCounts = db
    .select({ projectId: projectTags.projectId, shared: sql<number>`count(*)`.as('shared') })
    .from(projectTags)
    .where(inArray(projectTags.tagId, tagIds))
    .groupBy(projectTags.projectId)
    .as('shared_counts');
  const related = await db
    .select(cardColumns)
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .leftJoin(sharedCounts, eq(sharedCounts.projectId, projects.id))
    .where(and(isListed, ne(projects.id, project.id), or(isNotNull(sharedCounts.projectId), eq(projects.ownerId, project.ownerId))))
    .orderBy(
      sql`coalesce(${sharedCounts.shared}, 0) DESC`,
      sql`(${projects.ownerId} = ${project.ownerId}) DESC`,
      desc(projects.starCount),
      desc(projects.id),
    )
    .limit(limit);
  if (related.length < limit) {
    const seen = [project.id, ...related.map((row) => row.internalId)];
    const popular = await db
      .select(cardColumns)
      .from(projects)
      .innerJoin(users, eq(users.id, projects.ownerId))
      .where(and(isListed, notInArray(projects.id, seen)))
      .orderBy(desc(projects.starCount), desc(projects.id))
      .limit(limit - related.length);
    related.push(...popular);
  }
  return toCards(related, locale);
}
