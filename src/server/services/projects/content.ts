/**
 * The fields of a project as the creation form sends them (`release/saveProject`): their
 * schema, the strict checks of publishing, and the resolution of tags, cover and attachments
 * to rows the user may use. Drafts are lenient about empty fields; ownership is always checked.
 */
import { and, eq, inArray, or } from 'drizzle-orm';
import { LICENCE_IDS } from '../../../lib/licences.ts';
import { ATTACHMENTS_MAX, DESCRIPTION_MAX, SUMMARY_MAX, TAGS_MAX, TITLE_MAX } from '../../../lib/contract/project-limits.ts';
import { TAG_NAME_MAX } from '../../../lib/tag-names.ts';
import { getDb } from '../../db/client.ts';
import { attachments, projects, uploads, type ProjectContent } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { z } from '../../http/validation.ts';
import { fileUrl } from '../../storage/index.ts';
import { findOwnImageUpload } from '../media/index.ts';
import type { ResolvedAttachment } from '../media/index.ts';
import { planTags, type NewTag, type TagEntry } from './member-tags.ts';
import type { contentFileSchema } from '../../../lib/contract/schemas/projects.ts';


// Control characters never belong in text fields (tabs and newlines only in the description).
const stripControls = (value: string) => value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
const line = (max: number) =>
  z
    .string()
    .transform((value) => stripControls(value).replace(/[\t\r\n]+/g, ' ').trim())
    .pipe(z.string().max(max));

/** The content fields of `release/saveProject`, `editProject` and `savePreview`. */
export const projectContentSchema = z.object({
  title: line(TITLE_MAX).default(''),
  summary: line(SUMMARY_MAX).default(''),
  description: z
    .string()
    .transform((value) => stripControls(value).replace(/\r\n?/g, '\n'))
    .pipe(z.string().max(DESCRIPTION_MAX))
    .default(''),
  cover: z
    .string()
    .trim()
    .max(500)
    .nullish()
    .transform((value) => value || null),
  // A slug of an existing tag, or `{ name }` of a tag to create when publishing.
  tags: z
    .array(z.union([z.string().trim().min(1).max(64), z.object({ name: z.string().trim().min(1).max(TAG_NAME_MAX * 2) })]))
    .max(TAGS_MAX)
    .default([])
    .transform((entries) => entries.filter((entry, index) => typeof entry !== 'string' || entries.indexOf(entry) === index)),
  licence: z.string().trim().max(64).default(''),
  attachments: z
    .array(z.string().trim().min(1).max(64))
    .max(ATTACHMENTS_MAX)
    .default([])
    .transform((ids) => [...new Set(ids)]),
});

export type ProjectContentInput = z.output<typeof projectContentSchema>;

export interface ResolvedContent {
  content: ProjectContent;
  /** Existing tags of the content. */
  tagRows: { id: number; slug: string; nameEn: string; nameZh: string }[];
  /** Tags publishing creates (`createMemberTags`). */
  newTags: NewTag[];
  attachments: ResolvedAttachment[];
}

/**
 * Checks that tags exist, the cover is the user's own upload (or the project's current cover)
 * and every attachment is the user's upload (or already attached to `projectId`).
 * `strict` (publishing) also requires a title and a licence. Throws `AppError('validation')`
 * with every failing field.
 */
export async function resolveContent(
  userId: number,
  input: ProjectContentInput,
  options: { strict: boolean; projectId?: number; currentCover?: string | null },
): Promise<ResolvedContent> {
  const fields: Record<string, string> = {};
  if (options.strict && !input.title) fields.title = 'required';
  if (input.licence && !(LICENCE_IDS as readonly string[]).includes(input.licence)) fields.licence = 'invalid_value';
  else if (options.strict && !input.licence) fields.licence = 'required';

  const [planned, cover, resolved] = await Promise.all([
    planTags(input.tags as TagEntry[]).catch((error: unknown) => {
      if (!(error instanceof AppError) || !error.fields?.tags) throw error;
      fields.tags = error.fields.tags;
      return null;
    }),
    resolveCover(userId, input.cover, options.currentCover ?? null),
    resolveAttachments(userId, input.attachments, options.projectId),
  ]);
  if (cover === undefined) fields.cover = 'invalid_upload';
  if (resolved === null) fields.attachments = 'invalid_upload';
  if (Object.keys(fields).length > 0 || !planned) throw new AppError('validation', fields);

  return {
    content: {
      title: input.title,
      summary: input.summary,
      description: input.description,
      cover: cover ?? null,
      tags: planned.entries,
      licence: input.licence,
      attachments: resolved!.map((file) => file.ref),
    },
    tagRows: planned.rows,
    newTags: planned.created,
    attachments: resolved!,
  };
}

/** The cover URL if the user may use it, null for none, undefined when refused. */
async function resolveCover(userId: number, cover: string | null, currentCover: string | null): Promise<string | null | undefined> {
  if (!cover) return null;
  if (cover === currentCover) return cover;
  const upload = await findOwnImageUpload(userId, cover, ['cover', 'image']);
  return upload && upload.url === cover ? cover : undefined;
}

/** The attachments in the order given, or null when any id is not the user's to attach. */
async function resolveAttachments(userId: number, ids: string[], projectId?: number): Promise<ResolvedAttachment[] | null> {
  if (ids.length === 0) return [];
  const db = getDb();
  const [existing, uploaded] = await Promise.all([
    projectId ? db.select().from(attachments).where(eq(attachments.projectId, projectId)) : Promise.resolve([]),
    db
      .select()
      .from(uploads)
      .where(and(inArray(uploads.id, ids), eq(uploads.ownerId, userId), eq(uploads.purpose, 'attachment'))),
  ]);
  const out: ResolvedAttachment[] = [];
  for (const ref of ids) {
    const attached = existing.find((row) => row.uploadId === ref || row.id === ref);
    if (attached) {
      out.push({
        ref,
        uploadId: attached.uploadId,
        attachmentId: attached.id,
        name: attached.name,
        mime: attached.mime,
        size: attached.size,
        storageKey: attached.storageKey,
      });
      continue;
    }
    const upload = uploaded.find((row) => row.id === ref);
    if (!upload) return null;
    out.push({
      ref,
      uploadId: upload.id,
      attachmentId: null,
      name: upload.name,
      mime: upload.mime,
      size: upload.size,
      storageKey: upload.storageKey,
    });
  }
  return out;
}

export type ContentFile = z.infer<typeof contentFileSchema>;

/**
 * The files a stored draft or preview names, as the form and previews show them: uploads of
 * `ownerId`, or attachments of one of their projects. Files removed since are left out.
 */
export async function describeContentFiles(ownerId: number, ids: string[]): Promise<ContentFile[]> {
  if (ids.length === 0) return [];
  const db = getDb();
  const [uploaded, attached] = await Promise.all([
    db.select().from(uploads).where(and(inArray(uploads.id, ids), eq(uploads.ownerId, ownerId))),
    db
      .select({ attachment: attachments })
      .from(attachments)
      .innerJoin(projects, eq(projects.id, attachments.projectId))
      .where(and(eq(projects.ownerId, ownerId), or(inArray(attachments.id, ids), inArray(attachments.uploadId, ids)))),
  ]);
  const out: ContentFile[] = [];
  for (const id of ids) {
    const existing = attached.find(({ attachment }) => attachment.id === id || attachment.uploadId === id)?.attachment;
    const upload = uploaded.find((row) => row.id === id);
    const file = existing ?? upload;
    if (file) out.push({ id, name: file.name, mime: file.mime, size: file.size, url: fileUrl(file.storageKey) });
  }
  return out;
}
