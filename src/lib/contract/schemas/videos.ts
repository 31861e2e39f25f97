import { VIDEO_ERROR_KEYS, VIDEO_STATUSES } from '../video.ts';
import { isoDateTime, pageOf, projectRefSchema, userRefSchema, z } from './common.ts';

export const videoSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    status: z.enum(VIDEO_STATUSES),
    errorKey: z.enum(VIDEO_ERROR_KEYS).optional(),
    duration: z.number().nonnegative().nullable().meta({ description: 'Seconds, once probed.' }),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    poster: z.string().nullable().meta({ description: 'The poster frame (JPEG), once ready.' }),
    owner: userRefSchema,
    project: projectRefSchema.nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Video' });

export const videoPageSchema = pageOf(videoSchema).meta({ id: 'VideoPage' });

export const videoUploadTicketSchema = z
  .object({
    uploadUrl: z.string().meta({ description: 'The tus endpoint to upload the bytes to (`POST` to create, then `PATCH`).' }),
    uploadToken: z.string().meta({ description: 'Sent as `uploadToken` in the tus `Upload-Metadata`, then to `video/saveVideo`.' }),
    expiresAt: isoDateTime,
  })
  .meta({ id: 'VideoUploadTicket' });

export const videoPlaybackSchema = z
  .object({ url: z.string(), expiresAt: isoDateTime, poster: z.string().nullable() })
  .meta({ id: 'VideoPlayback', description: 'A signed address that plays the video until `expiresAt`.' });

// The wire types, inferred from the schemas above.
export type VideoOwner = z.infer<typeof userRefSchema>;
/** A video as lists, the player and `video/saveVideo` show it. */
export type Video = z.infer<typeof videoSchema>;
/** `video/getVideoToken`. */
export type VideoUploadTicket = z.infer<typeof videoUploadTicketSchema>;
/** `video/getVideoUrl`: a signed address that plays the video until `expiresAt`. */
export type VideoPlayback = z.infer<typeof videoPlaybackSchema>;
