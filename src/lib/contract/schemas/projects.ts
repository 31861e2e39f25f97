import { BOARD_STATUSES } from '../eda.ts';
import { boardSchema } from './eda.ts';
import { count, isoDateTime, pageOf, userRefSchema, z } from './common.ts';
import { videoSchema } from './videos.ts';

export const tagRefSchema = z.object({ slug: z.string(), name: z.string() }).meta({ id: 'TagRef' });

export const projectCardSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    summary: z.string(),
    cover: z.string().nullable(),
    coverWidth: z.number().int().positive().nullable().meta({ description: 'The cover’s width in pixels when it is an uploaded image (its smaller AVIF/WebP variants exist), else null.' }),
    owner: userRefSchema,
    tags: z.array(tagRefSchema),
    counts: z.object({ views: count, stars: count, likes: count, comments: count }),
    publishedAt: isoDateTime,
  })
  .meta({ id: 'ProjectCard', description: 'The project card of every list.' });

/** `totalExact` false: `total` is PostgreSQL's estimate (lists count exactly up to 1,000 projects). */
const totalExact = z.boolean().meta({ description: 'false: `total` is PostgreSQL’s estimate.' });

export const projectPageSchema = pageOf(projectCardSchema).extend({ totalExact }).meta({ id: 'ProjectPage' });

export const ATTACHMENT_KINDS = ['gerber', 'bom', 'placement', 'schematic', 'kicad', 'other'] as const;

export const attachmentInfoSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    mime: z.string(),
    size: count,
    kind: z.enum(ATTACHMENT_KINDS),
    downloadCount: count,
    url: z.string(),
  })
  .meta({ id: 'AttachmentInfo' });

export const projectDetailSchema = projectCardSchema
  .extend({
    descriptionHtml: z.string(),
    licence: z.string(),
    attachments: z.array(attachmentInfoSchema),
    boards: z.array(boardSchema).meta({ description: `Ready boards; the owner also sees boards ${BOARD_STATUSES.filter((s) => s !== 'ready').join(', ')}.` }),
    videos: z.array(videoSchema),
    shareImage: z.string().nullable(),
    updatedAt: isoDateTime,
    follow: z.object({ following: z.boolean(), followers: count }).meta({ description: 'The viewer follows the project; how many members do.' }),
    tabs: z.object({ logs: count, versions: count, makes: count, remixes: count }).meta({ description: 'How many build logs, versions, makes and remixes the project has.' }),
    viewer: z.object({ starred: z.boolean(), liked: z.boolean(), isOwner: z.boolean(), hidden: z.boolean().meta({ description: 'Hidden by staff after a report: only its author and staff see it.' }) }),
  })
  .meta({ id: 'ProjectDetail', description: 'A card plus what the project page shows.' });

export const searchResultSchema = projectCardSchema
  .extend({ highlight: z.object({ title: z.string(), summary: z.string() }).meta({ description: 'Escaped HTML with the matches in `<mark>`.' }) })
  .meta({ id: 'SearchResult' });

export const searchPageSchema = pageOf(searchResultSchema)
  .extend({ totalExact })
  .meta({ id: 'SearchPage' });

export const starResultSchema = z.object({ starred: z.boolean(), starCount: count });
export const likeResultSchema = z.object({ liked: z.boolean(), likeCount: count });

export const saveResultSchema = z
  .object({ id: z.string(), status: z.enum(['draft', 'published']) })
  .meta({ id: 'SaveResult', description: '`draft`: `id` is the draft’s; `published`: the project’s.' });

export const previewLinkSchema = z.object({ id: z.string(), url: z.string() });

/** A file a draft or preview names, as the form shows it. */
export const contentFileSchema = z
  .object({ id: z.string(), name: z.string(), mime: z.string(), size: count, url: z.string() })
  .meta({ id: 'ContentFile' });

/** The content of a project as the creation form edits it and `release/saveProject` takes it. */
export const projectContentSchema = z.object({
  title: z.string(),
  summary: z.string(),
  description: z.string(),
  cover: z.string().nullable(),
  tags: z
    .array(z.union([z.string(), z.object({ name: z.string() })]))
    .meta({ description: 'Slugs of existing tags, and `{ name }` for a new tag, created with that name when the project is published.' }),
  licence: z.string(),
  attachments: z.array(z.string()).meta({ description: 'Upload ids of the attached files, in their order.' }),
});

export const draftItemSchema = z
  .object({
    id: z.string(),
    status: z.literal('draft'),
    title: z.string(),
    summary: z.string(),
    cover: z.string().nullable(),
    projectId: z.string().nullable(),
    projectTitle: z.string().nullable(),
    updatedAt: isoDateTime,
  })
  .meta({ id: 'DraftItem', description: 'A row of the draft box.' });

export const draftDetailSchema = projectContentSchema
  .extend({
    id: z.string(),
    status: z.literal('draft'),
    projectId: z.string().nullable().meta({ description: 'The published project this draft edits; null for a new project.' }),
    projectTitle: z.string().nullable(),
    files: z.array(contentFileSchema),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'DraftDetail' });

export const draftStatusSchema = z.object({ id: z.string(), status: z.literal('draft'), projectId: z.string().nullable(), updatedAt: isoDateTime });

export const uploadResultSchema = z
  .object({ id: z.string(), url: z.string(), name: z.string(), mime: z.string(), size: count })
  .meta({ id: 'UploadResult' });

export const tagNodeSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    get children() {
      return z.array(tagNodeSchema);
    },
  })
  .meta({ id: 'TagNode', description: 'A tag of the two-level tree with its children.' });

export const tagSuggestionSchema = z
  .object({
    slug: z.string(),
    nameEn: z.string(),
    nameZh: z.string(),
    projectCount: z.number().int().meta({ description: 'Listed projects carrying the tag.' }),
  })
  .meta({ id: 'TagSuggestion', description: 'A tag matching what the author types, with both names (equal until staff translate a member-made tag).' });

export const tagSuggestResultSchema = z.array(tagSuggestionSchema);
export type TagSuggestion = z.infer<typeof tagSuggestionSchema>;

export const tagDetailSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    nameEn: z.string(),
    nameZh: z.string(),
    parent: tagRefSchema.nullable(),
    children: z.array(tagRefSchema),
    projectCount: count,
  })
  .meta({ id: 'TagDetail' });
