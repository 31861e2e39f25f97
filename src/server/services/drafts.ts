/**
 * Drafts ("temporary"): unpublished work of one owner — a new project, or an edit of a
 * published project (`projectId`). Only the owner ever sees a draft; anyone else gets a 404.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { drafts, projects, type ProjectContent } from '../db/schema/index.ts';
import { AppError } from '../http/errors.ts';
import type { Page } from './cards.ts';
import { describeContentFiles, type ContentFile } from './project-content.ts';
import type { DraftItem } from '../../lib/api-types.ts';

/** At most this many drafts per user (a draft box, not a file store). */
export const DRAFTS_MAX = 500;

/** `temporary/detail`: the draft's fields as `release/saveProject` takes them, plus its files. */
export interface DraftDetail extends ProjectContent {
  id: string;
  status: 'draft';
  /** The published project this draft edits, or null for a new project. */
  projectId: string | null;
  projectTitle: string | null;
  files: ContentFile[];
  createdAt: string;
  updatedAt: string;
}

export type { DraftItem };

async function findOwnDraft(userId: number, draftId: string) {
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

/** The user's drafts, most recently saved first. */
export async function listDrafts(userId: number, paging: { page: number; pageSize: number }): Promise<Page<DraftItem>> {
  const db = getDb();
  const [rows, [total]] = await Promise.all([
    db
      .select({ draft: drafts, projectPublicId: projects.publicId, projectTitle: projects.title, projectStatus: projects.status })
      .from(drafts)
      .leftJoin(projects, eq(projects.id, drafts.projectId))
      .where(eq(drafts.ownerId, userId))
      .orderBy(desc(drafts.updatedAt), desc(drafts.id))
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize),
    db.select({ n: count() }).from(drafts).where(eq(drafts.ownerId, userId)),
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
    total: total?.n ?? 0,
    page: paging.page,
    pageSize: paging.pageSize,
  };
}

