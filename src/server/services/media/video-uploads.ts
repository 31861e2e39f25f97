/**
 * The right to upload one video's bytes. `video/getVideoToken` issues a token for a declared
 * name, size and type; the tus endpoint creates the upload only with a live token and exactly the
 * declared length (so an app or a script uploads with the token alone, no cookie); the token is
 * spent when `video/saveVideo` turns the upload into a video, before or after its last byte.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { VIDEO_MAX_BYTES, VIDEO_MIMES } from '../../../lib/contract/video.ts';
import { getDb } from '../../db/client.ts';
import { videos, videoUploads } from '../../db/schema/index.ts';
import { getConfig } from '../../config.ts';
import { VIDEO_JOB_MAX_MS } from '../../media/limits.ts';
import { AppError, type ErrorKey as ServerErrorKey } from '../../http/errors.ts';
import { hitMemberRateLimitById } from '../core/index.ts';
import { removeTusUpload, tusStore } from '../../storage/tus-store.ts';
import { safeFileName } from './uploads.ts';
import { queueVideo, startProcessingUploaded } from './videos.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { VideoUploadTicket } from '../../../lib/contract/schemas/videos.ts';

/** The path of the tus endpoint, on the site's own origin. */
export const TUS_PATH = '/api/video/upload';

/** How long a token may start an upload and, once the bytes are in, be saved as a video. */
const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** `video/getVideoToken`: a token for one upload of `size` bytes of type `mime`. */
export async function issueVideoUploadToken(userId: number, input: { name: string; size: number; mime: string }, origin: string): Promise<VideoUploadTicket> {
  if (!(VIDEO_MIMES as readonly string[]).includes(input.mime)) throw new AppError('unsupported_type');
  if (input.size > VIDEO_MAX_BYTES) throw new AppError('too_large');
  await hitMemberRateLimitById('video-upload:user', userId);
  const token = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + TOKEN_LIFETIME_MS);
  await getDb()
    .insert(videoUploads)
    .values({ tokenHash: hashToken(token), ownerId: userId, name: safeFileName(input.name, undefined, 'video'), size: input.size, mime: input.mime, expiresAt });
  return { uploadUrl: `${origin}${TUS_PATH}`, uploadToken: token, expiresAt: expiresAt.toISOString() };
}

/**
 * Why the tus endpoint refuses a request: the HTTP status tus clients act on and the error key of
 * the envelope it answers with.
 */
export class TusRefusal extends Error {
  readonly status: number;
  readonly key: ServerErrorKey;
  constructor(status: number, key: ServerErrorKey) {
    super(key);
    this.status = status;
    this.key = key;
  }
}

/**
 * Binds a new tus upload to the token in its metadata: the token must be live, unused and
 * declare exactly `length` bytes (a larger file than declared never starts).
 */
export async function claimUploadToken(token: string | null | undefined, tusId: string, length: number | undefined): Promise<void> {
  if (!token || token.length > 100) throw new TusRefusal(403, 'upload_not_found');
  if (length === undefined) throw new TusRefusal(400, 'validation');
  const db = getDb();
  const [row] = await db.select().from(videoUploads).where(eq(videoUploads.tokenHash, hashToken(token)));
  if (!row || row.expiresAt.getTime() < Date.now()) throw new TusRefusal(403, 'upload_not_found');
  if (row.tusId || row.videoId) throw new TusRefusal(409, 'upload_used');
  if (length !== row.size) throw new TusRefusal(413, 'too_large');
  const [claimed] = await db
    .update(videoUploads)
    .set({ tusId })
    .where(and(eq(videoUploads.tokenHash, row.tokenHash), isNull(videoUploads.tusId)))
    .returning({ tusId: videoUploads.tusId });
  if (!claimed) throw new TusRefusal(409, 'upload_used');
}

/**
 * Whether bytes may still go to tus upload `tusId`: its token is live and the upload is either
 * still arriving (saved as an `uploading` video or not yet saved) or finished but not yet saved.
 * A saved video's finished upload is closed: its bytes are the job's.
 */
export async function isOpenUpload(tusId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ one: sql`1` })
    .from(videoUploads)
    .where(and(eq(videoUploads.tusId, tusId), gt(videoUploads.expiresAt, new Date()), or(isNull(videoUploads.finishedAt), isNull(videoUploads.videoId))));
  return Boolean(row);
}

/** Whether tus upload `tusId` was saved as a video (its bytes are removed with the video, not by the client). */
export async function isSavedUpload(tusId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ one: sql`1` })
    .from(videoUploads)
    .where(and(eq(videoUploads.tusId, tusId), isNotNull(videoUploads.videoId)));
  return Boolean(row);
}

/**
 * Records that every declared byte of a tus upload has arrived; a video already saved from it
 * (`uploading`) becomes `processing` and is queued.
 */
export async function markUploadFinished(tusId: string): Promise<void> {
  const queued = await getDb().transaction(async (tx) => {
    const [row] = await tx.update(videoUploads).set({ finishedAt: new Date() }).where(eq(videoUploads.tusId, tusId)).returning({ videoId: videoUploads.videoId });
    return row?.videoId && (await startProcessingUploaded(tx, row.videoId)) ? row.videoId : null;
  });
  if (queued) await queueVideo(queued);
}

/**
 * Housekeeping: tokens past their lifetime go. Those that never became a video take the bytes of
 * their uploads with them, and so does a video still `uploading` when its token expired (its
 * upload will never finish: the endpoint takes no more bytes); a spent token of a video that got
 * its bytes is only a row. tus uploads left unfinished past tus's own expiry go too.
 */
export async function deleteAbandonedVideoUploads(): Promise<void> {
  const uploads = await getDb().transaction(async (tx) => {
    // Token rows first, then videos: the order `markUploadFinished` and `saveVideo` lock them in.
    // A video whose last byte arrived meanwhile is `processing` by the time its row is read here.
    const tokens = await tx.delete(videoUploads).where(lt(videoUploads.expiresAt, new Date())).returning({ tusId: videoUploads.tusId, videoId: videoUploads.videoId });
    const saved = tokens.flatMap((row) => (row.videoId ? [row.videoId] : []));
    const stuck = saved.length === 0 ? [] : await tx.delete(videos).where(and(inArray(videos.id, saved), eq(videos.status, 'uploading'))).returning({ uploadId: videos.uploadId });
    return [...tokens.filter((row) => !row.videoId).map((row) => row.tusId), ...stuck.map((row) => row.uploadId)];
  });
  for (const tusId of uploads) if (tusId) await removeTusUpload(tusId);
  await tusStore()
    .deleteExpired()
    .catch(() => 0);
  await removeStaleWorkFolders();
}

/** Work folders older than any video job may run (and an hour more): left by a worker killed mid-transcode. */
async function removeStaleWorkFolders(): Promise<void> {
  const work = path.join(getConfig().dataDir, 'uploads', 'work');
  const stale = Date.now() - VIDEO_JOB_MAX_MS - 60 * 60 * 1000;
  for (const name of await readdir(work).catch(() => [] as string[])) {
    const folder = path.join(work, name);
    const info = await stat(folder).catch(() => null);
    if (info && info.mtimeMs < stale) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
  }
}
