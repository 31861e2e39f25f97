import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

const tsvector = customType<{ data: string }>({
  dataType() {
    return 'tsvector';
  },
});

export type ProjectStatus = 'published' | 'deleted';

/**
 * A published (or soft-deleted) project. Unpublished work lives only in `drafts`.
 * `searchText` is the plain text that search reads (title, summary, description, tag names);
 * `searchVector` is derived from it for English full-text search, and a trigram index on it
 * finds Chinese substrings.
 */
export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    publicId: text('public_id').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    cover: text('cover'),
    descriptionMd: text('description_md').notNull().default(''),
    descriptionHtml: text('description_html').notNull().default(''),
    licence: text('licence').notNull(),
    status: text('status').$type<ProjectStatus>().notNull().default('published'),
    viewCount: integer('view_count').notNull().default(0),
    starCount: integer('star_count').notNull().default(0),
    likeCount: integer('like_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    /** Operator-curated position on `/recommend` (lower first); null when not curated. */
    recommendRank: integer('recommend_rank'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    searchText: text('search_text').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(${projects.title}, '')), 'A') || setweight(to_tsvector('english', coalesce(${projects.summary}, '')), 'B') || setweight(to_tsvector('english', coalesce(${projects.searchText}, '')), 'C')`,
    ),
  },
  (t) => [
    uniqueIndex('projects_public_id_key').on(t.publicId),
    index('projects_published_idx').on(t.status, t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('projects_owner_idx').on(t.ownerId, t.status, t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('projects_recommend_idx').on(t.recommendRank),
    index('projects_stars_idx').on(t.status, t.starCount.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('projects_search_vector_idx').using('gin', t.searchVector),
    index('projects_search_trgm_idx').using('gin', sql`(lower(${t.title} || ' ' || ${t.summary} || ' ' || ${t.searchText})) gin_trgm_ops`),
  ],
);

/** Content of a draft or a preview: the fields of `release/saveProject`. */
export interface ProjectContent {
  title: string;
  summary: string;
  description: string;
  cover: string | null;
  tags: string[];
  licence: string;
  attachments: string[];
}

/** Unpublished work ("temporary"): a new project, or an edit of a published one (`projectId`). */
export const drafts = pgTable(
  'drafts',
  {
    id: text('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    content: jsonb('content').$type<ProjectContent>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('drafts_owner_idx').on(t.ownerId, t.updatedAt.desc().nullsFirst())],
);

/** A saved preview, visible to its author and to holders of its link token. */
export const previews = pgTable('previews', {
  id: text('id').primaryKey(),
  ownerId: integer('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  linkToken: text('link_token').notNull(),
  content: jsonb('content').$type<ProjectContent>().notNull(),
  descriptionHtml: text('description_html').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export type UploadPurpose = 'avatar' | 'cover' | 'image' | 'attachment';

/** Every stored file, whoever uploaded it; attachments and images refer to it by id. */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    purpose: text('purpose').$type<UploadPurpose>().notNull(),
    storageKey: text('storage_key').notNull(),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('uploads_owner_idx').on(t.ownerId)],
);

export type AttachmentKind = 'gerber' | 'bom' | 'schematic' | 'other';

/** A design file attached to a project. */
export const attachments = pgTable(
  'attachments',
  {
    id: text('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    uploadId: text('upload_id').references(() => uploads.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storageKey: text('storage_key').notNull(),
    kind: text('kind').$type<AttachmentKind>().notNull().default('other'),
    downloadCount: integer('download_count').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('attachments_project_idx').on(t.projectId, t.sort)],
);

/** A rendered PCB of a project (from its Gerber attachment). */
export const boards = pgTable('boards', {
  id: serial('id').primaryKey(),
  projectId: integer('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  attachmentId: text('attachment_id').references(() => attachments.id, { onDelete: 'cascade' }),
  topKey: text('top_key'),
  bottomKey: text('bottom_key'),
  layers: jsonb('layers').$type<{ name: string; side: string; type: string; key?: string }[]>().notNull().default([]),
  widthMm: real('width_mm'),
  heightMm: real('height_mm'),
  layerCount: integer('layer_count'),
  status: text('status').notNull().default('ready'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One line of a bill of materials. */
export const bomLines = pgTable(
  'bom_lines',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    attachmentId: text('attachment_id').references(() => attachments.id, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    designators: text('designators').notNull().default(''),
    value: text('value').notNull().default(''),
    footprint: text('footprint').notNull().default(''),
    quantity: integer('quantity').notNull().default(1),
    mpn: text('mpn').notNull().default(''),
    manufacturer: text('manufacturer').notNull().default(''),
    supplierPart: text('supplier_part').notNull().default(''),
  },
  (t) => [index('bom_lines_project_idx').on(t.projectId, t.lineNo)],
);

/** A two-level tag tree with English and Chinese names. */
export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull(),
    nameEn: text('name_en').notNull(),
    nameZh: text('name_zh').notNull(),
    parentId: integer('parent_id'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('tags_slug_key').on(t.slug), index('tags_parent_idx').on(t.parentId, t.sort)],
);

export const projectTags = pgTable(
  'project_tags',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.tagId] }), index('project_tags_tag_idx').on(t.tagId, t.projectId)],
);

/** An operator-curated collection of projects, at `/collection/{name}`. */
export const collections = pgTable(
  'collections',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    titleEn: text('title_en').notNull(),
    titleZh: text('title_zh').notNull(),
    descriptionEn: text('description_en').notNull().default(''),
    descriptionZh: text('description_zh').notNull().default(''),
    cover: text('cover'),
    featured: boolean('featured').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('collections_name_key').on(t.name)],
);

export const collectionProjects = pgTable(
  'collection_projects',
  {
    collectionId: integer('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.projectId] })],
);

export const stars = pgTable(
  'stars',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] }), index('stars_project_idx').on(t.projectId)],
);

export const likes = pgTable(
  'likes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] }), index('likes_project_idx').on(t.projectId)],
);

/** One row per visitor per project per day, so a view is counted once a day. */
export const projectViews = pgTable(
  'project_views',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    visitor: text('visitor').notNull(),
    day: text('day').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.visitor, t.day] })],
);
