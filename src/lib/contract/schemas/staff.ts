/**
 * What the staff tools for content take and answer: banners, collections, pinned recommendations
 * and the tag tree. The same input schemas validate the API (`/api/admin/…`) and the operator's
 * `npm run ops -- …` commands, so both refuse the same mistakes with the same field errors.
 */
import { SLUG_MAX, SLUG_PATTERN } from '../../slug.ts';
import { count, isoDateTime, serialId, z } from './common.ts';

const title = z.string().trim().min(1).max(120);
const projectId = z.string().trim().min(1).max(64);

/**
 * Where a banner or link may lead: a path on this site (`/collection/x`) or an http(s) address.
 * Nothing else (`javascript:`, `//other.host`) ever reaches a page.
 */
export const staffLinkSchema = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((value) => (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) || /^https?:\/\/[^\s/]+/i.test(value), { message: 'staff_link' });

/** A moment given by staff: ISO 8601 with a zone (`2026-12-01T09:00:00Z`, `…+08:00`), or null for "no limit". */
const momentSchema = z.iso
  .datetime({ offset: true })
  .nullable()
  .transform((value) => (value === null ? null : new Date(value)));

export const bannerSaveInputSchema = z
  .object({
    /** Absent: a new banner. */
    id: serialId.optional(),
    image: z.string().trim().min(1).max(300).meta({ description: 'An image uploaded by this member (`POST /api/upload`, purpose `cover`): its id or `/files/…` URL.' }),
    link: staffLinkSchema,
    titleEn: title,
    titleZh: title,
    sort: z.number().int().min(0).max(10_000).default(0),
    startsAt: momentSchema.default(null).meta({ description: 'Shown from this moment on; null: at once.' }),
    endsAt: momentSchema.default(null).meta({ description: 'Shown until this moment; null: until removed.' }),
  })
  .refine((banner) => !banner.startsAt || !banner.endsAt || banner.endsAt > banner.startsAt, { message: 'ends_before_start', path: ['endsAt'] });

export const bannerIdInputSchema = z.object({ id: serialId });

export const staffBannerSchema = z
  .object({
    id: serialId,
    image: z.string(),
    link: z.string(),
    titleEn: z.string(),
    titleZh: z.string(),
    sort: count,
    startsAt: isoDateTime.nullable(),
    endsAt: isoDateTime.nullable(),
    state: z.enum(['scheduled', 'live', 'ended']).meta({ description: 'Whether the home page shows it now, later or no more.' }),
  })
  .meta({ id: 'StaffBanner' });

/** A name that is an address (`src/lib/slug.ts`). */
const slugSchema = z.string().trim().toLowerCase().min(1).max(SLUG_MAX).regex(SLUG_PATTERN, { message: 'slug' });

/** A collection's name is its address: `/collection/<name>`. */
export const collectionNameSchema = slugSchema;

export const collectionSaveInputSchema = z.object({
  /** Absent: a new collection. */
  id: serialId.optional(),
  name: collectionNameSchema,
  titleEn: title,
  titleZh: title,
  descriptionEn: z.string().trim().max(500).default(''),
  descriptionZh: z.string().trim().max(500).default(''),
  cover: z.string().trim().min(1).max(300).nullable().default(null).meta({ description: 'An uploaded image (id or `/files/…` URL), or null.' }),
  featured: z.boolean().default(true),
  sort: z.number().int().min(0).max(10_000).default(0),
});

export const collectionRefInputSchema = z.object({ name: collectionNameSchema });
export const collectionProjectInputSchema = z.object({ name: collectionNameSchema, project: projectId });
/** Several projects at once (`npm run ops -- collection:add <name> <projectId>…`). */
export const collectionAddInputSchema = z.object({ name: collectionNameSchema, projects: z.array(projectId).min(1).max(500) });
export const collectionReorderInputSchema = z.object({ name: collectionNameSchema, projects: z.array(projectId).max(500) });

const staffProjectSchema = z.object({ id: z.string(), title: z.string(), status: z.string() });

export const staffCollectionSchema = z
  .object({
    id: serialId,
    name: z.string(),
    titleEn: z.string(),
    titleZh: z.string(),
    descriptionEn: z.string(),
    descriptionZh: z.string(),
    cover: z.string().nullable(),
    featured: z.boolean(),
    sort: count,
    projects: z.array(staffProjectSchema),
  })
  .meta({ id: 'StaffCollection' });

export const recommendPinInputSchema = z.object({
  project: projectId,
  rank: z.number().int().min(1).max(1000).optional().meta({ description: 'Its place among the pinned projects (1: first); absent: last.' }),
});
export const recommendProjectInputSchema = z.object({ project: projectId });
export const recommendReorderInputSchema = z.object({ projects: z.array(projectId).max(1000).meta({ description: 'Every pinned project, in the order wanted.' }) });

export const pinnedProjectSchema = z.object({ id: z.string(), title: z.string(), rank: z.number().int().min(1) }).meta({ id: 'PinnedProject' });

/** A tag's slug: its address (`/newest?tag=<slug>`). */
export const tagSlugSchema = slugSchema;
/**
 * An existing tag's slug: members' tags keep letters of any script (`单片机`, see
 * src/lib/tag-names.ts), so a reference is any slug the server may know; unknown ones are `tag_not_found`.
 */
const existingTagSlugSchema = z.string().trim().toLowerCase().min(1).max(SLUG_MAX);

const tagName = z.string().trim().min(1).max(60);

export const tagCreateInputSchema = z.object({ slug: tagSlugSchema, nameEn: tagName, nameZh: tagName, parent: existingTagSlugSchema.nullable().default(null) });
export const tagRenameInputSchema = z.object({ slug: existingTagSlugSchema, nameEn: tagName, nameZh: tagName });
export const tagMergeInputSchema = z.object({ from: existingTagSlugSchema, into: existingTagSlugSchema });
export const tagMoveInputSchema = z.object({ slug: existingTagSlugSchema, parent: existingTagSlugSchema.nullable() });

export const staffTagSchema = z
  .object({
    id: serialId,
    slug: z.string(),
    nameEn: z.string(),
    nameZh: z.string(),
    parent: z.string().nullable(),
    curated: z.boolean().meta({ description: 'In the tag tree (navigation, filters); false for a tag a member created by publishing, until staff move it into the tree.' }),
    projectCount: count.meta({ description: 'Projects carrying this tag itself (any state).' }),
    aliases: z.array(z.string()).meta({ description: 'Slugs of tags merged into this one; their addresses lead here.' }),
  })
  .meta({ id: 'StaffTag' });

/** What a staff write answers: what changed, in one sentence for the operator, and the item after it. */
export function changeOf<T extends z.ZodType>(item: T) {
  return z.object({ summary: z.string(), item });
}

export const okResultSchema = z.object({ summary: z.string() });

export type StaffBanner = z.infer<typeof staffBannerSchema>;
export type StaffCollection = z.infer<typeof staffCollectionSchema>;
export type PinnedProject = z.infer<typeof pinnedProjectSchema>;
export type StaffTag = z.infer<typeof staffTagSchema>;
export type BannerSaveInput = z.input<typeof bannerSaveInputSchema>;
export type CollectionSaveInput = z.input<typeof collectionSaveInputSchema>;
