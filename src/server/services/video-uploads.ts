/**
 * The right to upload one video's bytes. `video/getVideoToken` issues a token for a declared
 * name, size and type; the tus endpoint creates the upload only with a live token and exactly the
 * declared length (so an app or a script uploads with the token alone, no cookie); the token is
 * spent when `video/saveVideo` turns the finished upload into a video.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { VIDEO_MAX_BYTES, VIDEO_MIMES, type VideoUploadTicket } from '../../lib/contract/video.ts';
import { getDb } from '../db/client.ts';
import { videoUploads } from '../db/schema/index.ts';
import { getConfig } from '../config.ts';
import { VIDEO_JOB_MAX_MS } from '../media/limits.ts';
import { AppError } from '../http/errors.ts';
import { hitRateLimit } from './rate-limit.ts';
import { hashToken } from './sessions.ts';
import { removeTusUpload, tusStore } from '../storage/tus-store.ts';
import { safeFileName } from './uploads.ts';

/** The path of the tus endpoint, on the site's own origin. */
export const TUS_PATH = '/api/video/upload';

/** How long a token may start an upload and, once the bytes are in, be saved as a video. */
const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** `video/getVideoToken`: a token for one upload of `size` bytes of type `mime`. */
export async function issueVideoUploadToken(userId: number, input: { name: string; size: number; mime: string }, origin: string): Promise<VideoUploadTicket> {
  if (!(VIDEO_MIMES as readonly string[]).includes(input.mime)) throw new AppError('unsupported_type');
  if (input.size > VIDEO_MAX_BYTES) throw new AppError('too_large');
  await hitRateLimit('video-upload:user', userId);
  const token = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + TOKEN_LIFETIME_MS);
  await getDb()
    .insert(videoUploads)
    .values({ tokenHash: hashToken(token), ownerId: userId, name: safeFileName(input.name, undefined, 'video'), size: input.size, mime: input.mime, expiresAt });
  return { uploadUrl: `${origin}${TUS_PATH}`, uploadToken: token, expiresAt: expiresAt.toISOString() };
}

/** Why the tus endpoint refuses to create an upload: the HTTP status and the error key. */
export class TusRefusal extends Error {
  readonly status: number;
  readonly key: 'upload_not_found' | 'upload_used' | 'too_large' | 'validation';
  constructor(status: number, key: TusRefusal['key']) {
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

/** Whether a tus upload id belongs to a token that is not spent (its bytes may still be sent). */
export async function isOpenUpload(tusId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ one: sql`1` })
    .from(videoUploads)
    .where(and(eq(videoUploads.tusId, tusId), isNull(videoUploads.videoId), gt(videoUploads.expiresAt, new Date())));
  return Boolean(row);
}

/** Records that every declared byte of a tus upload has arrived. */
export async function markUploadFinished(tusId: string): Promise<void> {
  await getDb().update(videoUploads).set({ finishedAt: new Date() }).where(eq(videoUploads.tusId, tusId));
}

/**
 * Housekeeping: tokens past their lifetime that never became a video go, with the bytes of their
 * uploads, and so do tus uploads left unfinished past tus's own expiry.
 */
export async function deleteAbandonedVideoUploads(): Promise<void> {
  const rows = await getDb()
    .delete(videoUploads)
    .where(and(lt(videoUploads.expiresAt, new Date()), isNull(videoUploads.videoId)))
    .returning({ tusId: videoUploads.tusId });
  for (const row of rows) if (row.tusId) await removeTusUpload(row.tusId);
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
