/**
 * Staff tools: the home page's banners (image, title per language, link, order, schedule).
 * Every write goes through `staffWrite` (one transaction, the role checked, guest pages purged).
 */
import { asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { getDb } from '../../db/client.ts';
import { banners } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { pageTags } from '../../page-cache/tags.ts';
import type { bannerSaveInputSchema, StaffBanner } from '../../../lib/contract/schemas/staff.ts';
import { findOwnImageUpload, findImageUpload } from '../media/index.ts';
import { staffWrite, type StaffActor } from './staff-writes.ts';

type BannerRow = typeof banners.$inferSelect;

function stateOf(row: BannerRow, now: Date): StaffBanner['state'] {
  if (row.endsAt && row.endsAt <= now) return 'ended';
  if (row.startsAt && row.startsAt > now) return 'scheduled';
  return 'live';
}

function toStaffBanner(row: BannerRow, now = new Date()): StaffBanner {
  return {
    id: row.id,
    image: row.image,
    link: row.link,
    titleEn: row.titleEn,
    titleZh: row.titleZh,
    sort: row.sort,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    state: stateOf(row, now),
  };
}

/** Every banner, live ones first in the home page's order, then scheduled, then ended. */
export async function listStaffBanners(): Promise<StaffBanner[]> {
  const now = new Date();
  const rows = await getDb().select().from(banners).orderBy(asc(banners.sort), asc(banners.id));
  const rank = { live: 0, scheduled: 1, ended: 2 } as const;
  return rows.map((row) => toStaffBanner(row, now)).sort((a, b) => rank[a.state] - rank[b.state]);
}

/**
 * The image a banner shows: an image this member uploaded (the cropper's output), or — for the
 * operator — any uploaded image. Anything else is a field error on `image`.
 */
async function bannerImage(actor: StaffActor, ref: string): Promise<string> {
  const upload = actor.kind === 'member' ? await findOwnImageUpload(actor.user!.id, ref, ['cover', 'image']) : await findImageUpload(ref);
  if (!upload) throw new AppError('validation', { image: 'upload_invalid' });
  return upload.url;
}

/** How a write gets an image the operator gave as a file (stored, or for a dry run only checked), instead of `input.image`. */
export interface OperatorImage {
  image?: () => Promise<string>;
}

/** Creates a banner (no `id`) or replaces one's fields. */
export function saveBanner(actor: StaffActor, input: z.output<typeof bannerSaveInputSchema>, options: { dryRun?: boolean } & OperatorImage = {}) {
  return staffWrite({ action: 'banner.save', actor, dryRun: options.dryRun, purge: [pageTags.home] }, async (tx) => {
    const image = options.image ? await options.image() : await bannerImage(actor, input.image);
    const values = { image, link: input.link, titleEn: input.titleEn, titleZh: input.titleZh, sort: input.sort, startsAt: input.startsAt, endsAt: input.endsAt };
    if (input.id === undefined) {
      const [row] = await tx.insert(banners).values(values).returning();
      return { summary: `banner ${row!.id} "${row!.titleEn}" added`, item: toStaffBanner(row!) };
    }
    const [row] = await tx.update(banners).set(values).where(eq(banners.id, input.id)).returning();
    if (!row) throw new AppError('banner_not_found');
    return { summary: `banner ${row.id} "${row.titleEn}" saved`, item: toStaffBanner(row) };
  });
}

/** Removes a banner (its image stays among the uploads). */
export function deleteBanner(actor: StaffActor, id: number, options: { dryRun?: boolean } = {}) {
  return staffWrite({ action: 'banner.delete', actor, dryRun: options.dryRun, purge: [pageTags.home] }, async (tx) => {
    const [row] = await tx.delete(banners).where(eq(banners.id, id)).returning();
    if (!row) throw new AppError('banner_not_found');
    return { summary: `banner ${row.id} "${row.titleEn}" removed` };
  });
}
