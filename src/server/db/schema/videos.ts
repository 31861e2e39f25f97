import { bigint, index, integer, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import type { VideoErrorKey, VideoStatus } from '../../../lib/contract/video.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export type { VideoStatus };

/**
 * A video uploaded by a member, optionally linked to one of their projects. Its bytes arrive by
 * tus (`uploadId`), the job queue probes and prepares them, and the playable MP4 (`storageKey`,
 * served only through signed URLs) and its poster (public) go to storage.
 */
export const videos = pgTable(
  'videos',
  {
    id: text('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    /** The tus upload holding the original bytes until processing has used them. */
    uploadId: text('upload_id'),
    /** The prepared MP4, once ready. */
    storageKey: text('storage_key'),
    poster: text('poster'),
    duration: real('duration'),
    width: integer('width'),
    height: integer('height'),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    status: text('status').$type<VideoStatus>().notNull().default('uploading'),
    errorKey: text('error_key').$type<VideoErrorKey>(),
    /** Processing starts; a video whose processing killed its worker twice is failed. */
    attempts: integer('attempts').notNull().default(0),
    /** Hidden by staff after a report: gone for everyone but its owner and staff until restored. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenBy: integer('hidden_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('videos_owner_idx').on(t.ownerId, t.createdAt.desc().nullsFirst()), index('videos_project_idx').on(t.projectId)],
);

/**
 * The right to upload one video: issued by `video/getVideoToken` for a declared name, size and
 * type, presented in the tus `Upload-Metadata` to create the upload (once), then to
 * `video/saveVideo` (once). Only the token's hash is stored.
 */
export const videoUploads = pgTable(
  'video_uploads',
  {
    tokenHash: text('token_hash').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    mime: text('mime').notNull(),
    /** Until when the token may start an upload and, once uploaded, be saved as a video. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The tus upload created with it (one per token). */
    tusId: text('tus_id').unique(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The video saved from it (the token is spent). */
    videoId: text('video_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('video_uploads_owner_idx').on(t.ownerId, t.createdAt)],
);
