/**
 * Drafts ("temporary"): unpublished work of one owner — a new project, or an edit of a
 * published project (`projectId`). Only the owner ever sees a draft; anyone else gets a 404.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import { getDb } from '../../db/client.ts';
import { drafts, projects, type ProjectContent } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { describeContentFiles } from './content.ts';
import type { DraftItem } from '../../../lib/api-types.ts';
import { newPublicId } from '../../lib/ids.ts';
import type { z } from 'zod';
import type { draftDetailSchema } from '../../../lib/contract/schemas/projects.ts';
import type { Page } from '../../lib/paging.ts';

/** At most this many drafts per user (a draft box, not a file store). */
export const DRAFTS_MAX = 500;

/** `temporary/detail`: the draft's fields as `release/saveProject` takes them, plus its files. */
export type DraftDetail = z.infer<typeof draftDetailSchema>;

export type { DraftItem };

/** One of the user's drafts with the project it edits, or `draft_not_found`. */
export async function findOwnDraft(userId: number, draftId: string) {
  const [row] = await getDb()
    .select({ draft: drafts, projectPublicId: projects.publicId, projectTitle: projects.title, projectStatus: projects.status })
    .from(drafts)
    .leftJoin(projects, eq(projects.id, drafts.projectId))
    .where(and(eq(drafts.id, draftId), eq(drafts.ownerId, userId)))
    .limit(1);
  // Someone else's draft is answered exactly like a missing one: its existence stays private.
  if (!row) throw new AppError('draft_not_found');
  return row;
}

/** `temporary/detail`: one of the user's drafts. */
export async function getDraft(userId: number, draftId: string): Promise<DraftDetail> {
  const row = await findOwnDraft(userId, draftId);
  const live = row.projectStatus === 'published';
  return {
    ...row.draft.content,
    id: row.draft.id,
    status: 'draft',
    projectId: live ? row.projectPublicId : null,
    projectTitle: live ? row.projectTitle : null,
    files: await describeContentFiles(userId, row.draft.content.attachments),
    createdAt: row.draft.createdAt.toISOString(),
    updatedAt: row.draft.updatedAt.toISOString(),
  };
}

/** `temporary/status`: whether the draft is still there and when it was last saved. */
export async function getDraftStatus(userId: number, draftId: string): Promise<{ id: string; status: 'draft'; projectId: string | null; updatedAt: string }> {
  const row = await findOwnDraft(userId, draftId);
  return {
    id: row.draft.id,
    status: 'draft',
    projectId: row.projectStatus === 'published' ? row.projectPublicId : null,
    updatedAt: row.draft.updatedAt.toISOString(),
  };
}

/** `temporary/del`: deletes one of the user's drafts (a published project it edits stays). */
export async function deleteDraft(userId: number, draftId: string): Promise<{ id: string }> {
  const deleted = await getDb()
    .delete(drafts)
    .where(and(eq(drafts.id, draftId), eq(drafts.ownerId, userId)))
    .returning({ id: drafts.id });
  if (deleted.length === 0) throw new AppError('draft_not_found');
  return { id: draftId };
}

/** How many drafts the user has (their draft box count). */
export async function countDrafts(userId: number): Promise<number> {
  const [row] = await getDb().select({ n: count() }).from(drafts).where(eq(drafts.ownerId, userId));
  return row?.n ?? 0;
}

/** `user/getUserProjectStatusCount`: published projects and drafts in the draft box. */
export async function countUserProjectStatus(userId: number): Promise<{ published: number; draft: number }> {
  const db = getDb();
  const [published] = await db
    .select({ n: count() })
    .from(projects)
    .where(and(eq(projects.ownerId, userId), eq(projects.status, 'published')));
  return { published: published?.n ?? 0, draft: await countDrafts(userId) };
}

/** The user's drafts, most recently saved first. */
export async function listDrafts(userId: number, paging: { page: number; pageSize: number }): Promise<Page<DraftItem>> {
  const db = getDb();
  const [rows, total] = await Promise.all([
    db
      .select({ draft: drafts, projectPublicId: projects.publicId, projectTitle: projects.title, projectStatus: projects.status })
      .from(drafts)
      .leftJoin(projects, eq(projects.id, drafts.projectId))
      .where(eq(drafts.ownerId, userId))
      .orderBy(desc(drafts.updatedAt), desc(drafts.id))
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize),
    countDrafts(userId),
  ]);
  return {
    list: rows.map(({ draft, projectPublicId, projectTitle, projectStatus }) => ({
      id: draft.id,
      status: 'draft',
      title: draft.content.title,
      summary: draft.content.summary,
      cover: draft.content.cover,
      projectId: projectStatus === 'published' ? projectPublicId : null,
      projectTitle: projectStatus === 'published' ? projectTitle : null,
      updatedAt: draft.updatedAt.toISOString(),
    })),
    total,
    page: paging.page,
    pageSize: paging.pageSize,
  };
}

/** Stores `content` as a draft: updates `draftId`, or the edit draft of `projectId`, or a new one. */
export async function storeDraft(userId: number, content: ProjectContent, options: { draftId?: string; projectId?: number }): Promise<{ id: string; status: 'draft' }> {
  const db = getDb();
  if (options.draftId) {
    const { draft } = await findOwnDraft(userId, options.draftId);
    if (options.projectId && draft.projectId !== null && draft.projectId !== options.projectId) throw new AppError('draft_not_found');
    await db
      .update(drafts)
      .set({ content, updatedAt: new Date(), projectId: draft.projectId ?? options.projectId ?? null })
      .where(eq(drafts.id, draft.id));
    return { id: draft.id, status: 'draft' };
  }
  if (options.projectId) {
    // One pending edit per project: saving again updates it.
    const [existing] = await db
      .select({ id: drafts.id })
      .from(drafts)
      .where(and(eq(drafts.ownerId, userId), eq(drafts.projectId, options.projectId)))
      .limit(1);
    if (existing) {
      await db.update(drafts).set({ content, updatedAt: new Date() }).where(eq(drafts.id, existing.id));
      return { id: existing.id, status: 'draft' };
    }
  }
  if ((await countDrafts(userId)) >= DRAFTS_MAX) throw new AppError('too_many_drafts');
  const id = newPublicId();
  await db.insert(drafts).values({ id, ownerId: userId, projectId: options.projectId ?? null, content });
  return { id, status: 'draft' };
}
