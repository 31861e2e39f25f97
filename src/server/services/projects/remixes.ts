/**
 * Remixes: a member starts a new project from a published one. The remix is a draft of theirs
 * holding the original's content and copies of its files; publishing it records which project it
 * remixes (`projects.remixOfId`) and raises the original's `remixCount`. A NoDerivatives licence
 * refuses, since a remix is an adaptation.
 */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Locale } from '../../../lib/i18n.ts';
import { forbidsDerivatives } from '../../../lib/licences.ts';
import { getDb, type Executor } from '../../db/client.ts';
import { attachments, drafts, projects, projectTags, tags, uploads, users, type ProjectContent } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { getStorage } from '../../storage/index.ts';
import { cardColumns, cardTags, toCards, type ProjectCard } from './cards.ts';
import { countDrafts, DRAFTS_MAX } from './drafts.ts';
import { newPublicId } from '../../lib/ids.ts';
import { purgeProjectConversation, hitMemberRateLimitById, isListed, isPublishedFor, publishedProjectById } from '../core/index.ts';
import { copyUpload, findUploadByUrl } from '../media/index.ts';

/** The project a remix is based on, as the remix's page and form name it. */
export interface RemixSource {
  id: string;
  title: string;
  owner: { url: string; nickname: string };
}

/**
 * `project/remix`: a draft for `userId` starting from published project `publicId`: its title,
 * summary, description, tags and licence, with copies of its cover, attachments and the pictures
 * of its description as uploads of the remixer. Remixing one's own project is allowed: starting a new variant from your own design
 * is the commonest remix, and the lineage it records is just as true.
 * Errors (nothing created): 404 `project_not_found` (deleted, hidden), 403 `remix_not_allowed`
 * (a NoDerivatives licence), 409 `too_many_drafts`, 429 `rate_limited`.
 */
export async function remixProject(userId: number, publicId: string): Promise<{ id: string }> {
  const db = getDb();
  const [project] = await db
    .select({ id: projects.id, title: projects.title, summary: projects.summary, description: projects.descriptionMd, cover: projects.cover, licence: projects.licence })
    .from(projects)
    .where(publishedProjectById(publicId, 'listed'))
    .limit(1);
  if (!project) throw new AppError('project_not_found');
  if (forbidsDerivatives(project.licence)) throw new AppError('remix_not_allowed');
  if ((await countDrafts(userId)) >= DRAFTS_MAX) throw new AppError('too_many_drafts');
  await hitMemberRateLimitById('remix:user', userId);
  const [tagRows, files] = await Promise.all([
    db.select({ slug: tags.slug }).from(projectTags).innerJoin(tags, eq(tags.id, projectTags.tagId)).where(eq(projectTags.projectId, project.id)),
    db.select().from(attachments).where(eq(attachments.projectId, project.id)).orderBy(asc(attachments.sort), asc(attachments.createdAt)),
  ]);
  const copied: { id: string; url: string }[] = [];
  try {
    const attachmentIds: string[] = [];
    for (const file of files) {
      const copy = await copyUpload(userId, { storageKey: file.storageKey, purpose: 'attachment', name: file.name, mime: file.mime, size: file.size });
      if (!copy) continue;
      copied.push(copy);
      attachmentIds.push(copy.id);
    }
    const coverUpload = project.cover ? await findUploadByUrl(project.cover) : null;
    const cover = coverUpload ? await copyUpload(userId, coverUpload) : null;
    if (cover) copied.push(cover);
    const description = await copyDescriptionImages(userId, project.description, copied);
    const content: ProjectContent = {
      title: project.title,
      summary: project.summary,
      description,
      cover: cover?.url ?? null,
      tags: tagRows.map((tag) => tag.slug),
      licence: project.licence,
      attachments: attachmentIds,
    };
    const id = newPublicId();
    await db.insert(drafts).values({ id, ownerId: userId, projectId: null, remixOfId: project.id, content });
    return { id };
  } catch (error) {
    // Copies nothing refers to would only take space: a failed remix leaves none behind.
    if (copied.length) await db.delete(uploads).where(inArray(uploads.id, copied.map((copy) => copy.id))).catch(() => undefined);
    await Promise.all(copied.map((copy) => getStorage().delete(copy.url.slice('/files/'.length)).catch(() => undefined)));
    throw error;
  }
}

/** A picture of this site in Markdown: `/files/images/…` (the original and its variants share the id). */
const STORED_IMAGE = /\/files\/(images\/[A-Za-z0-9]{2}\/[A-Za-z0-9]+\.webp)/g;

/**
 * The description with each picture stored on this site replaced by a copy owned by `userId`
 * (each copied once, however often it appears); copies made are added to `copied`.
 */
async function copyDescriptionImages(userId: number, markdown: string, copied: { id: string; url: string }[]): Promise<string> {
  const urls = [...new Set([...markdown.matchAll(STORED_IMAGE)].map((match) => match[0]))];
  const replacements = new Map<string, string>();
  for (const url of urls) {
    const source = await findUploadByUrl(url);
    const copy = source ? await copyUpload(userId, source) : null;
    if (!copy) continue;
    copied.push(copy);
    replacements.set(url, copy.url);
  }
  return replacements.size ? markdown.replace(STORED_IMAGE, (url) => replacements.get(url) ?? url) : markdown;
}

/**
 * Sets the `remixCount` of project `originalId` from its published remixes, in the caller's
 * transaction: publishing a remix and deleting one both end here, so the count is always theirs.
 */
export async function recountRemixes(db: Executor, originalId: number): Promise<void> {
  await db
    .update(projects)
    .set({ remixCount: sql`(SELECT count(*)::int FROM projects remix WHERE remix.remix_of_id = ${originalId} AND remix.status = 'published')` })
    .where(eq(projects.id, originalId));
}

/** Purges the original's page once its remix count changed. */
export async function purgeRemixedProject(originalId: number): Promise<void> {
  const [row] = await getDb().select({ publicId: projects.publicId }).from(projects).where(eq(projects.id, originalId));
  if (row) await purgeProjectConversation(row.publicId);
}

/** The project `projectId` (internal id) remixes, when `viewerId` may see it; null otherwise. */
export async function findRemixSource(originalId: number | null, viewerId: number | null): Promise<RemixSource | null> {
  if (originalId === null) return null;
  const [row] = await getDb()
    .select({ id: projects.publicId, title: projects.title, url: users.customUrl, nickname: users.nickname })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(and(eq(projects.id, originalId), isPublishedFor(viewerId)))
    .limit(1);
  return row ? { id: row.id, title: row.title, owner: { url: row.url, nickname: row.nickname } } : null;
}

/** The original a draft remixes (for the creation form's notice), or null. */
export async function findDraftRemixSource(userId: number, draftId: string): Promise<RemixSource | null> {
  const [row] = await getDb().select({ remixOfId: drafts.remixOfId }).from(drafts).where(and(eq(drafts.id, draftId), eq(drafts.ownerId, userId))).limit(1);
  return findRemixSource(row?.remixOfId ?? null, userId);
}

/**
 * The lineage of a project as its page found it (`remixOfId`, `remixCount`): what it remixes, and
 * its newest listed remixes (at most `limit`). Reads nothing for a project with neither.
 */
export async function loadProjectLineage(
  project: { id: number; remixOfId: number | null; remixCount: number },
  viewerId: number | null,
  locale: Locale,
  limit = 8,
): Promise<{ basedOn: RemixSource | null; remixes: ProjectCard[] }> {
  const [basedOn, rows] = await Promise.all([
    findRemixSource(project.remixOfId, viewerId),
    project.remixCount > 0
      ? getDb()
          .select({ ...cardColumns, tags: cardTags })
          .from(projects)
          .innerJoin(users, eq(users.id, projects.ownerId))
          .where(and(eq(projects.remixOfId, project.id), isListed))
          .orderBy(desc(projects.publishedAt), desc(projects.id))
          .limit(limit)
      : Promise.resolve([]),
  ]);
  return { basedOn, remixes: rows.length ? await toCards(rows, locale) : [] };
}
