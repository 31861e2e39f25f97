/**
 * Publishing (`release/saveProject`, `release/editProject`, `project/del`): publish a new project
 * or an edit, keep an edit as a draft without unpublishing, delete; and what the creation form
 * starts from. Only the owner may change a project; counts and owners never come from the client.
 */
import { and, asc, eq } from 'drizzle-orm';
import { purgeProjectPages, renderDescription, publishedProjectById } from '../core/index.ts';
import { getDb } from '../../db/client.ts';
import { attachments, drafts, projects, projectTags, tags, type ProjectContent } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { z } from '../../http/validation.ts';
import { guessKinds, syncProjectAttachments } from '../media/index.ts';
import { planProjectEda, startProjectEda } from '../eda/index.ts';
import { findOwnDraft, storeDraft } from './drafts.ts';
import { newPublicId } from '../../lib/ids.ts';
import { projectSearchText } from './search.ts';
import { describeContentFiles, projectContentSchema, resolveContent, type ContentFile, type ResolvedContent } from './content.ts';
import type { saveResultSchema } from '../../../lib/contract/schemas/projects.ts';
import { assertEmailVerified } from '../accounts/index.ts';
import { checkNewTagAllowance, createMemberTags } from './member-tags.ts';
import { announceActivities, recordActivity } from '../notifications/index.ts';
import { amendLatestVersion, assertVersionNameFree, ensureFirstVersion, latestVersionName, pruneRetiredBoards, releaseVersion, versionInputSchema, type VersionInput } from './versions.ts';
import { purgeRemixedProject, recountRemixes } from './remixes.ts';
import { FIRST_VERSION_NAME } from '../../../lib/contract/project-limits.ts';

export const idSchema = z.string().trim().min(1).max(64);

/** `release/saveProject` input. */
export const saveProjectSchema = projectContentSchema.extend({
  draftId: idSchema.optional(),
  publish: z.boolean().default(false),
  /**
   * The version this publication releases: on a first publication its name (`v1` unless given);
   * on an edit a new version, without which the edit amends the latest version's files.
   */
  version: versionInputSchema.optional(),
});
/** `release/editProject` input. */
export const editProjectSchema = saveProjectSchema.extend({ id: idSchema });

export type SaveProjectInput = z.output<typeof saveProjectSchema>;
export type EditProjectInput = z.output<typeof editProjectSchema>;

export type SaveResult = z.infer<typeof saveResultSchema>;

/** The user's published project, or 404 (missing/deleted) / 403 (someone else's). */
export async function findOwnProject(userId: number, publicId: string) {
  const [project] = await getDb()
    .select({ id: projects.id, ownerId: projects.ownerId, cover: projects.cover, publicId: projects.publicId })
    .from(projects)
    .where(publishedProjectById(publicId, 'published'))
    .limit(1);
  if (!project) throw new AppError('project_not_found');
  if (project.ownerId !== userId) throw new AppError('forbidden');
  return project;
}

/** The project columns that publishing writes from checked content (new project or edit). */
function projectColumns(resolved: ResolvedContent, html: string, text: string) {
  return {
    title: resolved.content.title,
    summary: resolved.content.summary,
    cover: resolved.content.cover,
    descriptionMd: resolved.content.description,
    descriptionHtml: html,
    licence: resolved.content.licence,
    searchText: projectSearchText({
      title: resolved.content.title,
      summary: resolved.content.summary,
      descriptionText: text,
      tagNames: [...resolved.tagRows.flatMap((tag) => [tag.nameEn, tag.nameZh]), ...resolved.newTags.map((tag) => tag.name)],
    }),
  };
}

/**
 * Publishes a new project from checked content, consuming `draftId`, as its first version
 * (`version`, `v1` by default); a remix's draft records its original (`remixOfId`).
 */
async function publishNew(userId: number, resolved: ResolvedContent, draftId?: string, version?: VersionInput, remixOfId: number | null = null): Promise<SaveResult> {
  const { html, text } = await renderDescription(resolved.content.description);
  const kinds = await guessKinds(resolved.attachments);
  const publicId = newPublicId();
  const plan = await getDb().transaction(async (tx) => {
    const now = new Date();
    const [project] = await tx
      .insert(projects)
      .values({
        publicId,
        ownerId: userId,
        ...projectColumns(resolved, html, text),
        remixOfId,
        createdAt: now,
        publishedAt: now,
        updatedAt: now,
      })
      .returning({ id: projects.id });
    const tagRows = await createMemberTags(tx, userId, { rows: resolved.tagRows, created: resolved.newTags });
    if (tagRows.length) {
      await tx.insert(projectTags).values(tagRows.map((tag) => ({ projectId: project!.id, tagId: tag.id })));
    }
    await syncProjectAttachments(tx, project!.id, resolved.attachments, kinds);
    if (draftId) await tx.delete(drafts).where(and(eq(drafts.id, draftId), eq(drafts.ownerId, userId)));
    if (remixOfId !== null) await recountRemixes(tx, remixOfId);
    // Followers of the author and of the project's tags hear about it.
    await recordActivity(tx, { kind: 'project', actorId: userId, projectId: project!.id, path: `/d-${publicId}` });
    const eda = await planProjectEda(tx, project!.id);
    await releaseVersion(tx, project!.id, userId, publicId, version ?? { name: FIRST_VERSION_NAME, notes: '' });
    return eda;
  });
  await startProjectEda(plan);
  await purgeProjectPages(publicId, userId, { listed: true });
  if (remixOfId !== null) await purgeRemixedProject(remixOfId);
  await announceActivities();
  return { id: publicId, status: 'published' };
}

/** Applies checked content to a published project; its pending edit drafts are consumed. */
async function publishEdit(
  userId: number,
  project: { id: number; publicId: string },
  resolved: ResolvedContent,
  draftId?: string,
  version?: VersionInput,
): Promise<SaveResult> {
  const { html, text } = await renderDescription(resolved.content.description);
  const kinds = await guessKinds(resolved.attachments);
  const plan = await getDb().transaction(async (tx) => {
    // Before anything is written: a project from before versions keeps its files as version 1,
    // and a version name already taken refuses the whole edit.
    await ensureFirstVersion(tx, project.id);
    if (version) await assertVersionNameFree(tx, project.id, version.name);
    await tx
      .update(projects)
      .set({
        ...projectColumns(resolved, html, text),
        updatedAt: new Date(),
      })
      .where(eq(projects.id, project.id));
    await tx.delete(projectTags).where(eq(projectTags.projectId, project.id));
    const tagRows = await createMemberTags(tx, userId, { rows: resolved.tagRows, created: resolved.newTags });
    if (tagRows.length) {
      await tx.insert(projectTags).values(tagRows.map((tag) => ({ projectId: project.id, tagId: tag.id })));
    }
    await syncProjectAttachments(tx, project.id, resolved.attachments, kinds);
    await tx.delete(drafts).where(and(eq(drafts.ownerId, userId), eq(drafts.projectId, project.id)));
    if (draftId) await tx.delete(drafts).where(and(eq(drafts.id, draftId), eq(drafts.ownerId, userId)));
    const eda = await planProjectEda(tx, project.id);
    if (version) await releaseVersion(tx, project.id, userId, project.publicId, version);
    else await amendLatestVersion(tx, project.id);
    // Boards kept for the latest version alone go once it is amended to the edit's files.
    if (!version) eda.orphanKeys.push(...(await pruneRetiredBoards(tx, project.id)));
    return eda;
  });
  await startProjectEda(plan);
  if (version) await announceActivities().catch(() => undefined);
  await purgeProjectPages(project.publicId, userId, { listed: true });
  return { id: project.publicId, status: 'published' };
}

/**
 * `release/saveProject`. `publish: false` stores a draft (lenient: empty fields allowed);
 * `publish: true` checks everything and publishes, consuming `draftId`. A draft that edits a
 * published project publishes into that project.
 */
export async function saveProject(userId: number, input: SaveProjectInput): Promise<SaveResult> {
  const { draftId, publish, version, ...fields } = input;
  if (publish) await assertEmailVerified(userId);
  const draft = draftId ? (await findOwnDraft(userId, draftId)).draft : null;
  if (draft?.projectId) {
    const [linked] = await getDb().select({ publicId: projects.publicId, status: projects.status }).from(projects).where(eq(projects.id, draft.projectId));
    if (linked?.status === 'published') return editProject(userId, { ...input, id: linked.publicId });
  }
  const resolved = await resolveContent(userId, fields, { strict: publish });
  if (!publish) return storeDraft(userId, resolved.content, { draftId });
  await checkNewTagAllowance(userId, resolved.newTags);
  return publishNew(userId, resolved, draftId, version, draft?.remixOfId ?? null);
}

/**
 * `release/editProject`: the owner's edit of a published project. `publish: true` updates the
 * project; `publish: false` keeps it as it is and stores the edit as a draft linked to it.
 */
export async function editProject(userId: number, input: EditProjectInput): Promise<SaveResult> {
  const { id, draftId, publish, version, ...fields } = input;
  if (publish) await assertEmailVerified(userId);
  const project = await findOwnProject(userId, id);
  const resolved = await resolveContent(userId, fields, { strict: publish, projectId: project.id, currentCover: project.cover });
  if (!publish) return storeDraft(userId, resolved.content, { draftId, projectId: project.id });
  await checkNewTagAllowance(userId, resolved.newTags);
  return publishEdit(userId, project, resolved, draftId, version);
}

/** `project/del`: the owner soft-deletes a published project (and its pending edits). */
export async function deleteProject(userId: number, publicId: string): Promise<{ id: string }> {
  const project = await findOwnProject(userId, publicId);
  const remixOfId = await getDb().transaction(async (tx) => {
    const [deleted] = await tx.update(projects).set({ status: 'deleted', deletedAt: new Date() }).where(eq(projects.id, project.id)).returning({ remixOfId: projects.remixOfId });
    await tx.delete(drafts).where(eq(drafts.projectId, project.id));
    // A deleted remix no longer counts among its original's.
    if (deleted?.remixOfId) await recountRemixes(tx, deleted.remixOfId);
    return deleted?.remixOfId ?? null;
  });
  await purgeProjectPages(publicId, userId, { listed: true });
  if (remixOfId !== null) await purgeRemixedProject(remixOfId);
  return { id: publicId };
}

/** What the creation form starts from: a draft, a published project, or nothing. */
export interface FormSource {
  draftId: string | null;
  projectId: string | null;
  content: ProjectContent;
  files: ContentFile[];
  updatedAt: string | null;
  /** The latest version's name when editing a published project (an edit without a new version amends it). */
  latestVersion: string | null;
}

/**
 * The form's starting point for `?id=` (a published project of the user; its pending edit
 * draft when there is one) or `?draft=` (one of the user's drafts). 404 for anyone else's.
 */
export async function loadFormSource(userId: number, query: { projectId?: string | null; draftId?: string | null }): Promise<FormSource> {
  const db = getDb();
  if (query.draftId) {
    const { draft } = await findOwnDraft(userId, query.draftId);
    let projectId: string | null = null;
    if (draft.projectId) {
      const [linked] = await db.select({ publicId: projects.publicId, status: projects.status }).from(projects).where(eq(projects.id, draft.projectId));
      projectId = linked?.status === 'published' ? linked.publicId : null;
    }
    return {
      draftId: draft.id,
      projectId,
      content: draft.content,
      files: await describeContentFiles(userId, draft.content.attachments),
      updatedAt: draft.updatedAt.toISOString(),
      latestVersion: projectId && draft.projectId ? await latestVersionName(draft.projectId) : null,
    };
  }
  if (query.projectId) {
    const [row] = await db
      .select()
      .from(projects)
      .where(and(publishedProjectById(query.projectId, 'published'), eq(projects.ownerId, userId)))
      .limit(1);
    if (!row) throw new AppError('project_not_found');
    const [pending] = await db
      .select()
      .from(drafts)
      .where(and(eq(drafts.projectId, row.id), eq(drafts.ownerId, userId)))
      .limit(1);
    if (pending) return loadFormSource(userId, { draftId: pending.id });
    const [tagRows, files] = await Promise.all([
      db.select({ slug: tags.slug }).from(projectTags).innerJoin(tags, eq(tags.id, projectTags.tagId)).where(eq(projectTags.projectId, row.id)),
      db.select().from(attachments).where(eq(attachments.projectId, row.id)).orderBy(asc(attachments.sort), asc(attachments.createdAt)),
    ]);
    const content: ProjectContent = {
      title: row.title,
      summary: row.summary,
      description: row.descriptionMd,
      cover: row.cover,
      tags: tagRows.map((tag) => tag.slug),
      licence: row.licence,
      attachments: files.map((file) => file.uploadId ?? file.id),
    };
    return {
      draftId: null,
      projectId: row.publicId,
      content,
      files: files.map((file) => ({ id: file.uploadId ?? file.id, name: file.name, mime: file.mime, size: file.size, url: `/api/attachment/download?id=${encodeURIComponent(file.id)}` })),
      updatedAt: row.updatedAt.toISOString(),
      latestVersion: await latestVersionName(row.id),
    };
  }
  return { draftId: null, projectId: null, content: emptyContent(), files: [], updatedAt: null, latestVersion: null };
}

export function emptyContent(): ProjectContent {
  return { title: '', summary: '', description: '', cover: null, tags: [], licence: '', attachments: [] };
}

 