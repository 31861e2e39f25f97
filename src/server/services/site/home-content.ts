import { asc, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Locale } from '../../../lib/i18n.ts';
import { getDb } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { banners, collections, donations, projects } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { storedImageWidth } from '../media/index.ts';
import type { z } from 'zod';
import type { bannerSchema, donationSchema } from '../../../lib/contract/schemas/site.ts';
import type { Page } from '../../lib/paging.ts';

export type BannerInfo = z.infer<typeof bannerSchema>;

// What the home page reads on every request, built once (see `prepared`).
const bannersUntil = prepared('home_banners', (db, name) =>
  db
    .select({ image: banners.image, imageWidth: storedImageWidth(sql`"banners"."image"`), link: banners.link, titleEn: banners.titleEn, titleZh: banners.titleZh, startsAt: banners.startsAt, endsAt: banners.endsAt })
    .from(banners)
    .where(or(isNull(banners.endsAt), gt(banners.endsAt, sql.placeholder('now'))))
    .orderBy(asc(banners.sort), asc(banners.id))
    .prepare(name),
);
const recentDonations = prepared('home_recent_donations', (db, name) =>
  db.select(donationColumns).from(donations).leftJoin(projects, eq(projects.id, donations.projectId)).orderBy(desc(donations.createdAt), desc(donations.id)).limit(sql.placeholder('limit')).prepare(name),
);
const featuredCollections = prepared('home_featured_collections', (db, name) =>
  db.select({ ...collectionsColumns(), projectCount }).from(collections).where(eq(collections.featured, true)).orderBy(asc(collections.sort), asc(collections.id)).prepare(name),
);

/**
 * The banners shown at `now` in order, and the next moment their list changes by itself (a
 * scheduled one starts, a live one ends; null when nothing is scheduled), read in one query: the
 * home page's cached copy is kept no longer than that moment.
 */
export async function loadBannerSchedule(locale: Locale, now = new Date()): Promise<{ banners: BannerInfo[]; nextChange: Date | null }> {
  const rows = await bannersUntil().execute({ now: now.toISOString() });
  const live = rows.filter((row) => !row.startsAt || row.startsAt <= now);
  const boundaries = rows.flatMap((row) => [row.startsAt, row.endsAt]).filter((moment): moment is Date => moment !== null && moment > now);
  return {
    banners: live.map((row) => ({ image: row.image, imageWidth: row.imageWidth, link: row.link, title: locale === 'zh-CN' ? row.titleZh : row.titleEn })),
    nextChange: boundaries.length > 0 ? new Date(Math.min(...boundaries.map((moment) => moment.getTime()))) : null,
  };
}

/** `banner/list`: banners active now, in order. */
export async function listActiveBanners(locale: Locale): Promise<BannerInfo[]> {
  return (await loadBannerSchedule(locale)).banners;
}

export type DonationInfo = z.infer<typeof donationSchema>;

const donationColumns = {
  donor: donations.donorName,
  anonymous: donations.anonymous,
  amount: donations.amount,
  currency: donations.currency,
  message: donations.message,
  projectId: projects.publicId,
  projectTitle: projects.title,
  projectStatus: projects.status,
  createdAt: donations.createdAt,
};

type DonationRow = {
  donor: string;
  anonymous: boolean;
  amount: number;
  currency: string;
  message: string;
  projectId: string | null;
  projectTitle: string | null;
  projectStatus: string | null;
  createdAt: Date;
};

function toDonation(row: DonationRow): DonationInfo {
  return {
    // An anonymous donor's name stays with the staff: pages show "Anonymous" for an empty one.
    donor: row.anonymous ? '' : row.donor,
    amount: row.amount,
    currency: row.currency,
    message: row.message,
    project: row.projectId && row.projectStatus === 'published' ? { id: row.projectId, title: row.projectTitle ?? '' } : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** `donate/list`: newest first, with totals per currency. */
export async function listDonations(paging: {
  page: number;
  pageSize: number;
}): Promise<Page<DonationInfo> & { totals: { currency: string; amount: number }[] }> {
  const db = getDb();
  const [rows, [count], totals] = await Promise.all([
    db
      .select(donationColumns)
      .from(donations)
      .leftJoin(projects, eq(projects.id, donations.projectId))
      .orderBy(desc(donations.createdAt), desc(donations.id))
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(donations),
    db
      .select({ currency: donations.currency, amount: sql<number>`sum(${donations.amount})::int` })
      .from(donations)
      .groupBy(donations.currency)
      .orderBy(desc(sql`sum(${donations.amount})`)),
  ]);
  return { list: rows.map(toDonation), total: count?.n ?? 0, page: paging.page, pageSize: paging.pageSize, totals };
}

/** `donate/getIndexDonateScroll`: the latest 20 donations for the home-page ticker. */
export async function listRecentDonations(limit = 20): Promise<DonationInfo[]> {
  const rows = await recentDonations().execute({ limit });
  return rows.map(toDonation);
}

export interface CollectionInfo {
  id: number;
  name: string;
  title: string;
  description: string;
  cover: string | null;
  /** The cover's width in pixels when it is an uploaded image, else null. */
  coverWidth: number | null;
  projectCount: number;
}

function toCollection(row: typeof collections.$inferSelect & { coverWidth: number | null; projectCount: number }, locale: Locale): CollectionInfo {
  return {
    id: row.id,
    name: row.name,
    title: locale === 'zh-CN' ? row.titleZh : row.titleEn,
    description: locale === 'zh-CN' ? row.descriptionZh : row.descriptionEn,
    cover: row.cover,
    coverWidth: row.coverWidth,
    projectCount: row.projectCount,
  };
}

// Written with qualified names: drizzle leaves columns unqualified in single-table selects,
// which would make `id` inside the subquery mean the joined project's id.
const projectCount = sql<number>`(SELECT count(*)::int FROM collection_projects cp INNER JOIN projects p ON p.id = cp.project_id WHERE cp.collection_id = "collections"."id" AND p.status = 'published' AND p.hidden_at IS NULL)`;

/** Featured collections for the home page. */
export async function listFeaturedCollections(locale: Locale): Promise<CollectionInfo[]> {
  const rows = await featuredCollections().execute();
  return rows.map((row) => toCollection(row, locale));
}

/** A collection by name, or 404. */
export async function getCollection(name: string, locale: Locale): Promise<CollectionInfo> {
  const [row] = await getDb()
    .select({ ...collectionsColumns(), projectCount })
    .from(collections)
    .where(eq(collections.name, name))
    .limit(1);
  if (!row) throw new AppError('not_found');
  return toCollection(row, locale);
}

function collectionsColumns() {
  return {
    id: collections.id,
    name: collections.name,
    titleEn: collections.titleEn,
    titleZh: collections.titleZh,
    descriptionEn: collections.descriptionEn,
    descriptionZh: collections.descriptionZh,
    cover: collections.cover,
    coverWidth: storedImageWidth(sql`"collections"."cover"`),
    featured: collections.featured,
    sort: collections.sort,
    createdAt: collections.createdAt,
  };
}
