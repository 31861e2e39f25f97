/**
 * Previews: a snapshot of the creation form's fields, viewable by its author and by anyone
 * holding its link token until it expires. Never listed, never indexed.
 */
import { tagSlugOf } from '../../../lib/tag-names.ts';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Locale } from '../../../lib/i18n.ts';
import { getDb } from '../../db/client.ts';
import { previews, tags, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { z } from '../../http/validation.ts';
import { guessAttachmentKind } from '../media/index.ts';
import { tagName } from './cards.ts';
import { newPublicId } from '../../lib/ids.ts';
import { renderDescription } from '../core/index.ts';
import type { ProjectDetail } from './detail.ts';
import { describeContentFiles, projectContentSchema, resolveContent } from './content.ts';
import { findOwnProject, idSchema } from './publishing.ts';

/** `release/savePreview` input; `projectId` names the published project being edited, if any. */
export const savePreviewSchema = projectContentSchema.extend({ projectId: idSchema.optional() });

export type SavePreviewInput = z.output<typeof savePreviewSchema>;

/** Previews stay viewable through their link for 30 days. */
export const PREVIEW_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** `release/savePreview`: stores a preview of the fields and answers its link. */
export async function savePreview(userId: number, input: SavePreviewInput): Promise<{ id: string; url: string }> {
  const { projectId, ...fields } = input;
  const project = projectId ? await findOwnProject(userId, projectId) : null;
  const resolved = await resolveContent(userId, fields, { strict: false, projectId: project?.id, currentCover: project?.cover ?? null });
  const { html } = await renderDescription(resolved.content.description);
  const id = newPublicId();
  const linkToken = randomBytes(18).toString('base64url');
  await getDb()
    .insert(previews)
    .values({ id, ownerId: userId, linkToken, content: resolved.content, descriptionHtml: html, expiresAt: new Date(Date.now() + PREVIEW_TTL_MS) });
  return { id, url: `/preview?id=${id}&token=${linkToken}` };
}

/**
 * `release/getPreview`: a preview shaped like `project/detail`, for its author or a holder of
 * its link token; a 404 for anyone else and after it expired.
 */
export async function getPreview(previewId: string, viewerId: number | null, token: string | null, locale: Locale): Promise<ProjectDetail> {
  const db = getDb();
  const [row] = await db
    .select({ preview: previews, ownerUrl: users.customUrl, ownerNickname: users.nickname, ownerAvatar: users.avatar })
    .from(previews)
    .innerJoin(users, eq(users.id, previews.ownerId))
    .where(and(eq(previews.id, previewId), gt(previews.expiresAt, new Date())))
    .limit(1);
  const allowed = row && (row.preview.ownerId === viewerId || (token !== null && sameToken(token, row.preview.linkToken)));
  if (!row || !allowed) throw new AppError('preview_not_found');
  const { content } = row.preview;
  const slugs = content.tags.filter((entry): entry is string => typeof entry === 'string');
  const [tagRows, files] = await Promise.all([
    slugs.length ? db.select().from(tags).where(inArray(tags.slug, slugs)) : Promise.resolve([]),
    describeContentFiles(row.preview.ownerId, content.attachments),
  ]);
  const created = row.preview.createdAt.toISOString();
  return {
    id: row.preview.id,
    title: content.title,
    summary: content.summary,
    cover: content.cover,
    // A preview is seen by its author alone, uncached: its cover shows as stored.
    coverWidth: null,
    owner: { url: row.ownerUrl, nickname: row.ownerNickname, avatar: row.ownerAvatar },
    // A new tag shows as it will be once published: its name, its future slug.
    tags: content.tags.flatMap((entry) => {
      if (typeof entry !== 'string') return [{ slug: tagSlugOf(entry.name), name: entry.name }];
      const tag = tagRows.find((candidate) => candidate.slug === entry);
      return tag ? [{ slug: entry, name: tagName(tag, locale) }] : [];
    }),
    counts: { views: 0, stars: 0, likes: 0, comments: 0 },
    publishedAt: created,
    descriptionHtml: row.preview.descriptionHtml,
    licence: content.licence,
    attachments: files.map((file) => ({ id: file.id, name: file.name, mime: file.mime, size: file.size, kind: guessAttachmentKind(file.name, file.mime), downloadCount: 0, url: file.url })),
    boards: [],
    videos: [],
    follow: { following: false, followers: 0 },
    tabs: { logs: 0, versions: 0, makes: 0, remixes: 0 },
    shareImage: content.cover,
    updatedAt: created,
    viewer: { starred: false, liked: false, isOwner: row.preview.ownerId === viewerId, hidden: false },
  };
}

/** Compares link tokens in constant time, so a guesser learns nothing from response times. */
function sameToken(given: string, stored: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
