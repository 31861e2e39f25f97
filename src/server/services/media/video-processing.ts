/**
 * The job queue's video work: probe the uploaded file (is it a video, how long, which codecs,
 * which way up), make it playable in every browser (a remux with the index first, or a
 * transcode to H.264/AAC at up to 720p), take a poster frame, and store both. Idempotent like the
 * board job: it starts from what the database says, and a video whose processing killed its
 * worker twice is failed instead of retried for ever.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { getConfig } from '../../config.ts';
import { getDb } from '../../db/client.ts';
import { videos } from '../../db/schema/index.ts';
import { MediaError } from '../../media/errors.ts';
import { prepareForWeb } from '../../media/prepare.ts';
import { probeVideo } from '../../media/probe.ts';
import { getStorage } from '../../storage/index.ts';
import { copyTusUpload, IncompleteUpload, removeTusUpload } from '../../storage/tus-store.ts';
import { VIDEO_MAX_BYTES } from '../../../lib/contract/video.ts';
import { purgeVideoPages } from '../core/index.ts';
import { log } from '../../log.ts';

/** Starts after which a video is failed rather than processed again (each start a crash). */
const MAX_VIDEO_STARTS = 2;
/** How often a running job tells the database it is alive (`updatedAt`). */
const HEARTBEAT_MS = 20_000;

/** Probes, prepares and stores video `videoId`; the upload's bytes are removed in every outcome but a crash. */
export async function processVideoJob(videoId: string): Promise<void> {
  const db = getDb();
  const [claimed] = await db
    .update(videos)
    .set({ attempts: sql`${videos.attempts} + 1`, updatedAt: new Date() })
    .where(and(eq(videos.id, videoId), eq(videos.status, 'processing')))
    .returning();
  if (!claimed) return; // deleted, or finished meanwhile
  // The upload goes before the status changes: whoever sees the video settled sees its bytes gone.
  const fail = async (key: NonNullable<typeof claimed.errorKey>) => {
    if (claimed.uploadId) await removeTusUpload(claimed.uploadId);
    await db.update(videos).set({ status: 'failed', errorKey: key, updatedAt: new Date() }).where(and(eq(videos.id, videoId), eq(videos.status, 'processing')));
  };
  if (claimed.attempts > MAX_VIDEO_STARTS) return fail('transcode_failed');
  if (!claimed.uploadId) return fail('not_video');

  const heartbeat = setInterval(() => {
    void db.update(videos).set({ updatedAt: new Date() }).where(and(eq(videos.id, videoId), eq(videos.status, 'processing'))).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const work = path.join(getConfig().dataDir, 'uploads', 'work', `${videoId}-${randomBytes(4).toString('hex')}`);
  const storage = getStorage();
  const stored: string[] = [];
  try {
    await mkdir(work, { recursive: true });
    // The upload's parts, from the shared folder or the bucket, as one file on this worker's disk.
    const source = path.join(work, 'upload');
    await copyTusUpload(claimed.uploadId, source, VIDEO_MAX_BYTES);
    const probe = await probeVideo(source);
    const prepared = await prepareForWeb(source, work, probe);
    // An unguessable folder: the MP4 is served only through signed addresses, never `/files/`.
    const folder = randomBytes(12).toString('hex');
    const videoKey = `videos/${folder}/${videoId}.mp4`;
    const posterKey = `posters/${videoId}-${folder.slice(0, 8)}.jpg`;
    const bytes = (await stat(prepared.file)).size;
    await storage.putFile(videoKey, prepared.file);
    stored.push(videoKey);
    await storage.putFile(posterKey, prepared.poster);
    stored.push(posterKey);
    await removeTusUpload(claimed.uploadId);
    const [done] = await db
      .update(videos)
      .set({
        status: 'ready',
        errorKey: null,
        storageKey: videoKey,
        poster: posterKey,
        duration: prepared.durationSeconds,
        width: prepared.width,
        height: prepared.height,
        mime: 'video/mp4',
        size: bytes,
        uploadId: null,
        updatedAt: new Date(),
      })
      .where(and(eq(videos.id, videoId), eq(videos.status, 'processing')))
      .returning({ id: videos.id });
    // Deleted while it was processing: nothing of it stays.
    if (!done) await Promise.all(stored.map((key) => storage.delete(key).catch(() => undefined)));
  } catch (error) {
    await Promise.all(stored.map((key) => storage.delete(key).catch(() => undefined)));
    if (error instanceof MediaError) await fail(error.key);
    else if (error instanceof IncompleteUpload) await fail('truncated');
    else {
      log.error({ component: 'videos', videoId, err: error }, 'video processing failed');
      await fail('transcode_failed');
    }
  } finally {
    clearInterval(heartbeat);
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
    // A ready video appears on its owner's pages and its project's.
    await purgeVideoPages(claimed.ownerId, [claimed.projectId]);
  }
}
