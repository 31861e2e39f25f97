/**
 * Members' own collections (`collection/*`): what their endpoints take and answer. Staff
 * collections (`admin/collection/*`, `/collection/{name}`) are described in `staff.ts`.
 */
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX } from '../../collection-rules.ts';
import { SLUG_MAX, SLUG_PATTERN } from '../../slug.ts';
import { count, isoDateTime, pageOf, userRefSchema, z } from './common.ts';
import { projectCardSchema } from './projects.ts';

/** A collection's address under its owner: `/user/{url}/collections/{slug}`. */
export const collectionSlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(SLUG_MAX)
  .regex(SLUG_PATTERN)
  .meta({ description: 'The collection’s slug, unique per member', example: 'favourite-boards' });

const projectIdSchema = z.string().trim().min(1).max(64).meta({ description: 'A project’s public id' });

export const collectionSaveInputSchema = z.object({
  slug: collectionSlugSchema.optional().meta({ description: 'Absent: create a collection. Present: edit this one of yours (its slug stays).' }),
  title: z.string().trim().min(1).max(COLLECTION_TITLE_MAX),
  description: z.string().trim().max(COLLECTION_DESCRIPTION_MAX).default(''),
  public: z.boolean(),
});

export const collectionProjectInputSchema = z.object({ slug: collectionSlugSchema, id: projectIdSchema });

export const collectionMoveInputSchema = z.object({
  slug: collectionSlugSchema,
  id: projectIdSchema,
  position: z.number().int().min(0).meta({ description: 'Where the project goes, 0 first (past the end: last)' }),
});

export const collectionDeleteInputSchema = z.object({ slug: collectionSlugSchema });

export const collectionListInputSchema = z.object({
  url: z.string().trim().min(1).max(64).meta({ description: 'The member’s custom URL' }),
  project: projectIdSchema.optional().meta({ description: 'A project’s public id: each collection then says whether it holds it (`hasProject`)' }),
});

export const collectionGetInputSchema = z.object({
  url: z.string().trim().min(1).max(64),
  slug: collectionSlugSchema,
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(24),
});

/** A collection as lists and its own page show it. */
export const memberCollectionSchema = z
  .object({
    slug: z.string(),
    title: z.string(),
    description: z.string(),
    public: z.boolean(),
    owner: userRefSchema,
    projectCount: count.meta({ description: 'The projects the reader may see in it' }),
    cover: z.string().nullable().meta({ description: 'The first project’s cover (or board picture), or null' }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    hasProject: z.boolean().optional().meta({ description: 'With `project` in the request: whether it holds that project' }),
    hidden: z.boolean().meta({ description: 'Hidden by staff after a report: only its owner and staff see it' }),
  })
  .meta({ id: 'MemberCollection', description: 'A member’s own collection of projects.' });

export type MemberCollection = z.infer<typeof memberCollectionSchema>;

export const collectionListResultSchema = z.object({
  list: z.array(memberCollectionSchema),
  isOwner: z.boolean().meta({ description: 'Whether the reader owns them (private ones are then listed too)' }),
});

export const collectionPageSchema = z.object({
  collection: memberCollectionSchema,
  isOwner: z.boolean(),
  projects: pageOf(projectCardSchema),
});

export type CollectionPage = z.infer<typeof collectionPageSchema>;

/** What a change of the collection's projects answers: the collection now, and its projects' ids in order. */
export const collectionChangeSchema = z.object({
  collection: memberCollectionSchema,
  projects: z.array(z.string()).meta({ description: 'The public ids of its projects, in order' }),
});

export type CollectionChange = z.infer<typeof collectionChangeSchema>;

export const collectionDeleteResultSchema = z.object({ slug: z.string() });
