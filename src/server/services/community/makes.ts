/**
 * Makes ("I built this"): a member shows their build of a published project with photos, a note
 * and optionally a link to their own variant. The project's `makeCount` counts them; its author
 * hears of each one (a `make` message) and followers through the activity feed.
 */
import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { countCharacters, excerptOf, normalizePlainText } from '../../../lib/text.ts';
import type { makeItemSchema } from '../../../lib/contract/schemas/makes.ts';
import { getDb, type Executor } from '../../db/client.ts';
import { makeImages, makes, projects, uploads, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { parseInput, z as zod } from '../../http/validation.ts';
import { fileUrl } from '../../storage/index.ts';
import { announceActivities, forgetActivities, recordActivity, notifyProjectMade } from '../notifications/index.ts';
import { assertEmailVerified } from '../accounts/index.ts';
import { purgeProjectConversation, hitMemberRateLimitById, visibleTo, isListed, isPublishedFor, publishedProjectById } from '../core/index.ts';
import type { Page } from '../../lib/paging.ts';

export type MakeItem = z.infer<typeof makeItemSchema>;

/** A make's note: 0 to 2,000 characters as the reader counts them (the photos are what matters). */
export const MAKE_NOTE_MAX_CHARACTERS = 2000;
/** Photos a make carries: at least one, at most six. */
export const MAKE_IMAGES_MAX = 6;
const LINK_MAX = 500;

/** A project of this site, as a make's link names it: `/d-{id}` or `/m/d-{id}`, on this site or as a path. */
const SITE_PROJECT_PATH = /^\/(?:m\/)?d-([A-Za-z0-9_-]{1,64})\/?$/;

export const makeNoteSchema = zod
  .string()
  .max(MAKE_NOTE_MAX_CHARACTERS * 10, 'too_big')
  .transform(normalizePlainText)
  .refine((text) => countCharacters(text) <= MAKE_NOTE_MAX_CHARACTERS, 'too_big');

/**
 * The link to the maker's variant: an http(s) address, or a path to a project of this site
 * (`/d-{id}`). Field error `make_link` for anything else (another scheme, a bare word).
 */
export const makeLinkSchema = zod
  .string()
  .trim()
  .max(LINK_MAX, 'too_big')
  .refine((value) => SITE_PROJECT_PATH.test(value) || isWebAddress(value), 'make_link');

function isWebAddress(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const makeSubmitSchema = zod.object({
  id: zod.string().trim().min(1).max(64),
  content: makeNoteSchema.default(''),
  // Checked for length in the service: too many photos is its own error, not a field's.
  images: zod.array(zod.string().trim().min(1).max(200)).min(1, 'required').max(50, 'too_big'),
  link: makeLinkSchema.optional().or(zod.literal('').transform(() => undefined)),
});
export type MakeSubmitInput = z.input<typeof makeSubmitSchema>;

/**
 * The upload ids of `refs` (ids or their `/files/…` URLs), in order, when each is an image
 * upload of `userId` that no make uses yet; else a field error on the first that is not.
 */
async function resolveOwnImages(userId: number, refs: string[]): Promise<string[]> {
  const keyOf = (ref: string) => (ref.startsWith('/files/') ? ref.slice('/files/'.length) : null);
  const keys = refs.map(keyOf).filter((key): key is string => key !== null);
  const rows = await getDb()
    .select({ id: uploads.id, storageKey: uploads.storageKey, used: sql<boolean>`EXISTS (SELECT 1 FROM ${makeImages} WHERE ${makeImages.uploadId} = ${uploads.id})` })
    .from(uploads)
    .where(
      and(
        eq(uploads.ownerId, userId),
        inArray(uploads.purpose, ['image', 'cover']),
        keys.length ? or(inArray(uploads.id, refs), inArray(uploads.storageKey, keys)) : inArray(uploads.id, refs),
      ),
    );
  const ids = refs.map((ref) => rows.find((row) => !row.used && (row.id === ref || row.storageKey === keyOf(ref)))?.id ?? null);
  const refused = ids.indexOf(null);
  if (refused >= 0) throw new AppError('validation', { [`images.${refused}`]: 'upload_invalid' });
  return [...new Set(ids as string[])];
}

/** The public id of a project of this site a link names, or null for an outside address. */
function linkedProjectId(link: string): string | null {
  const path = SITE_PROJECT_PATH.exec(link);
  return path ? path[1]! : null;
}

/**
 * `make/submit`: `userId` posts a make of published project `input.id` with their own image
 * uploads (purpose `image` or `cover`, each unused by another make). One transaction raises
 * `makeCount`, stores the make, tells the author and records the activity for followers.
 * Errors (nothing stored): 400 `validation` (note; link — `make_link`, also for a project of
 * this site that is not listed; an image that is not the member's or is used — `upload_invalid`),
 * 400 `too_many_images`, 403 `email_not_verified`, 404 `project_not_found` (deleted or hidden,
 * for its owner too), 429 `rate_limited`.
 */
export async function submitMake(userId: number, rawInput: MakeSubmitInput): Promise<MakeItem> {
  const input = parseInput(makeSubmitSchema, rawInput);
  const imageRefs = [...new Set(input.images)];
  if (imageRefs.length > MAKE_IMAGES_MAX) throw new AppError('too_many_images');
  await assertEmailVerified(userId);
  const db = getDb();
  // A make shows a build to everyone: a project the public cannot see takes none, its owner's included.
  const [project] = await db.select({ id: projects.id, publicId: projects.publicId }).from(projects).where(publishedProjectById(input.id, 'listed')).limit(1);
  if (!project) throw new AppError('project_not_found');
  const imageIds = await resolveOwnImages(userId, imageRefs);
  let linkProjectId: number | null = null;
  if (input.link) {
    const linked = linkedProjectId(input.link);
    if (linked) {
      const [row] = await db.select({ id: projects.id }).from(projects).where(publishedProjectById(linked, 'listed')).limit(1);
      if (!row) throw new AppError('validation', { link: 'make_link' });
      linkProjectId = row.id;
    }
  }
  await hitMemberRateLimitById('make:user', userId);
  const excerpt = excerptOf(input.content);
  const makeId = await db.transaction(async (tx) => {
    const counted = await tx
      .update(projects)
      .set({ makeCount: sql`${projects.makeCount} + 1` })
      .where(and(eq(projects.id, project.id), isListed))
      .returning({ id: projects.id });
    if (counted.length === 0) throw new AppError('project_not_found');
    const [row] = await tx
      .insert(makes)
      .values({ projectId: project.id, makerId: userId, body: input.content, link: linkProjectId ? null : (input.link ?? null), linkProjectId })
      .returning({ id: makes.id });
    await tx.insert(makeImages).values(imageIds.map((uploadId, sort) => ({ makeId: row!.id, uploadId, sort })));
    await notifyProjectMade(userId, project.id, row!.id, excerpt, tx);
    await recordActivity(tx, { kind: 'make', actorId: userId, projectId: project.id, refId: row!.id, title: excerpt, path: `/d-${project.publicId}/makes` });
    return row!.id;
  });
  await announceActivities();
  await purgeProjectConversation(project.publicId, [userId]);
  const [item] = await readMakes(eq(makes.id, makeId), userId, { page: 1, pageSize: 1 });
  return item!;
}

/**
 * `make/del`: `userId` deletes their own make, or a make posted on a project of theirs (an
 * owner decides what shows under their project). Lowers `makeCount`, forgets its activity; the
 * photos' uploads stay with their owner. 404 `make_not_found` for a make that is neither.
 */
export async function deleteMake(userId: number, makeId: number): Promise<{ id: number; makeCount: number }> {
  const result = await getDb().transaction(async (tx) => {
    const [gone] = await tx
      .delete(makes)
      .where(and(eq(makes.id, makeId), or(eq(makes.makerId, userId), sql`${makes.projectId} IN (SELECT ${projects.id} FROM ${projects} WHERE ${projects.ownerId} = ${userId})`)))
      .returning({ projectId: makes.projectId, makerId: makes.makerId });
    if (!gone) throw new AppError('make_not_found');
    const [project] = await recountMakes(tx, [gone.projectId]);
    await forgetActivities(tx, 'make', [makeId]);
    return { ...project!, makerId: gone.makerId };
  });
  await purgeProjectConversation(result.publicId, [...new Set([userId, result.makerId])]);
  return { id: makeId, makeCount: result.makeCount };
}

/**
 * `make/list`: the makes of published project `publicId` that `viewerId` may see, newest first.
 * 404 `project_not_found` for a project they may not see.
 */
export async function listProjectMakes(publicId: string, paging: { page: number; pageSize: number }, viewerId: number | null): Promise<Page<MakeItem>> {
  const [project] = await getDb()
    .select({ id: projects.id, makeCount: projects.makeCount })
    .from(projects)
    .where(publishedProjectById(publicId, { viewerId }))
    .limit(1);
  if (!project) throw new AppError('project_not_found');
  const where = and(eq(makes.projectId, project.id), makeVisible(viewerId));
  const [list, total] = await Promise.all([readMakes(where, viewerId, paging), countMakes(where)]);
  return { list, total, page: paging.page, pageSize: paging.pageSize };
}

/**
 * The makes a member posted (their profile's "Makes" tab), on projects `viewerId` may see,
 * newest first. `makerId` is the member's internal id; the caller has found their profile.
 */
export async function listMemberMakes(makerId: number, paging: { page: number; pageSize: number }, viewerId: number | null): Promise<Page<MakeItem>> {
  const where = and(eq(makes.makerId, makerId), isPublishedFor(viewerId), makeVisible(viewerId));
  const [list, total] = await Promise.all([readMakes(where, viewerId, paging), countMakes(where)]);
  return { list, total, page: paging.page, pageSize: paging.pageSize };
}

const maker = alias(users, 'maker');
const linked = alias(projects, 'linked');

/** A make staff hid, or by a maker whose profile staff hid, shows to the maker and staff only. */
function makeVisible(viewerId: number | null): SQL {
  return and(visibleTo(makes.hiddenAt, makes.makerId, viewerId), visibleTo(maker.hiddenAt, maker.id, viewerId))!;
}

/**
 * Sets the `makeCount` of projects (internal ids) to the makes a guest sees (hidden ones left
 * out), in the caller's transaction: after a make is removed, hidden or restored.
 */
export function recountMakes(db: Executor, projectIds: number[]): Promise<{ publicId: string; makeCount: number }[]> {
  if (projectIds.length === 0) return Promise.resolve([]);
  return db
    .update(projects)
    .set({ makeCount: sql`(SELECT count(*)::int FROM ${makes} WHERE ${makes.projectId} = ${projects.id} AND ${makes.hiddenAt} IS NULL)` })
    .where(inArray(projects.id, projectIds))
    .returning({ publicId: projects.publicId, makeCount: projects.makeCount });
}

async function countMakes(where: SQL | undefined): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(makes)
    .innerJoin(projects, eq(projects.id, makes.projectId))
    .innerJoin(maker, eq(maker.id, makes.makerId))
    .where(where);
  return row?.n ?? 0;
}

async function readMakes(where: SQL | undefined, viewerId: number | null, paging: { page: number; pageSize: number }): Promise<MakeItem[]> {
  const db = getDb();
  const rows = await db
    .select({
      id: makes.id,
      body: makes.body,
      link: makes.link,
      createdAt: makes.createdAt,
      hiddenAt: makes.hiddenAt,
      makerId: makes.makerId,
      projectOwnerId: projects.ownerId,
      projectId: projects.publicId,
      projectTitle: projects.title,
      makerUrl: maker.customUrl,
      makerNickname: maker.nickname,
      makerAvatar: maker.avatar,
      // A linked project shows only while it is listed; otherwise the make shows no link.
      linkedId: sql<string | null>`CASE WHEN ${linked.status} = 'published' AND ${linked.hiddenAt} IS NULL THEN ${linked.publicId} END`,
      linkedTitle: linked.title,
    })
    .from(makes)
    .innerJoin(projects, eq(projects.id, makes.projectId))
    .innerJoin(maker, eq(maker.id, makes.makerId))
    .leftJoin(linked, eq(linked.id, makes.linkProjectId))
    .where(where)
    .orderBy(desc(makes.createdAt), desc(makes.id))
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize);
  if (rows.length === 0) return [];
  const images = await db
    .select({ makeId: makeImages.makeId, storageKey: uploads.storageKey, width: uploads.width })
    .from(makeImages)
    .innerJoin(uploads, eq(uploads.id, makeImages.uploadId))
    .where(inArray(makeImages.makeId, rows.map((row) => row.id)))
    .orderBy(makeImages.makeId, makeImages.sort);
  const byMake = new Map<number, { url: string; width: number | null }[]>();
  for (const image of images) {
    const list = byMake.get(image.makeId) ?? [];
    list.push({ url: fileUrl(image.storageKey), width: image.width });
    byMake.set(image.makeId, list);
  }
  return rows.map((row) => ({
    id: row.id,
    project: { id: row.projectId, title: row.projectTitle },
    maker: { url: row.makerUrl, nickname: row.makerNickname, avatar: row.makerAvatar },
    content: row.body,
    link: row.linkedId
      ? { href: `/d-${row.linkedId}`, project: { id: row.linkedId, title: row.linkedTitle ?? '' } }
      : row.link
        ? { href: row.link, project: null }
        : null,
    images: byMake.get(row.id) ?? [],
    createdAt: row.createdAt.toISOString(),
    hidden: row.hiddenAt !== null,
    // Its maker, and the owner of the project it was made from.
    canDelete: viewerId !== null && (viewerId === row.makerId || viewerId === row.projectOwnerId),
  }));
}
