/**
 * Videos: saved from a finished upload, prepared for the web by the job queue
 * (`video-processing.ts`), listed, played through signed expiring addresses, deleted by their
 * owner with every stored file.
 */
import { and, count, desc, eq, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { HIDDEN_TAKES_EFFECT_SECONDS, type VideoStatus } from '../../../lib/contract/video.ts';
import { getDb, type Tx } from '../../db/client.ts';
import { preparedShapes } from '../../db/prepared.ts';
import { projects, users, videos, videoUploads } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { removeTusUpload } from '../../storage/tus-store.ts';
import { sendJob, VIDEO_EXPIRE_SECONDS } from '../../jobs/queue.ts';
import { fileUrl, getStorage } from '../../storage/index.ts';
import { newPublicId } from '../../lib/ids.ts';
import { signPath, verifySignedPath } from './signing.ts';
import { purgeVideoPages, seesHidden, visibleTo, publishedProjectById } from '../core/index.ts';
import { log } from '../../log.ts';
import type { Page } from '../../lib/paging.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { Video, VideoPlayback } from '../../../lib/contract/schemas/videos.ts';

/** A video `viewerId` may see: not hidden by staff, or theirs, or the viewer is staff. */
export const videoVisibleTo = (viewerId: number | null | SQLWrapper) => visibleTo(videos.hiddenAt, videos.ownerId, viewerId);


const columns = {
  video: videos,
  ownerUrl: users.customUrl,
  ownerNickname: users.nickname,
  ownerAvatar: users.avatar,
  projectId: projects.publicId,
  projectTitle: projects.title,
  projectStatus: projects.status,
  projectHidden: sql<boolean>`${projects.hiddenAt} IS NOT NULL`,
};

type VideoRow = {
  video: typeof videos.$inferSelect;
  ownerUrl: string;
  ownerNickname: string;
  ownerAvatar: string | null;
  projectId: string | null;
  projectTitle: string | null;
  projectStatus: string | null;
  projectHidden: boolean;
};

function selectVideos() {
  return getDb().select(columns).from(videos).innerJoin(users, eq(users.id, videos.ownerId)).leftJoin(projects, eq(projects.id, videos.projectId));
}

/** A video row as the API shows it. */
export function toVideo(row: VideoRow): Video {
  const { video } = row;
  return {
    id: video.id,
    title: video.title,
    status: video.status,
    ...(video.status === 'failed' && video.errorKey ? { errorKey: video.errorKey } : {}),
    duration: video.duration,
    width: video.width,
    height: video.height,
    poster: video.status === 'ready' && video.poster ? fileUrl(video.poster) : null,
    owner: { url: row.ownerUrl, nickname: row.ownerNickname, avatar: row.ownerAvatar },
    project: row.projectId && row.projectStatus === 'published' && !row.projectHidden ? { id: row.projectId, title: row.projectTitle ?? '' } : null,
    createdAt: video.createdAt.toISOString(),
  };
}

/** A published project of `userId`, by public id; `project_not_found` for anything else. */
async function ownPublishedProject(userId: number, publicId: string): Promise<number> {
  const [row] = await getDb()
    .select({ id: projects.id })
    .from(projects)
    .where(and(publishedProjectById(publicId, 'published'), eq(projects.ownerId, userId)));
  if (!row) throw new AppError('project_not_found');
  return row.id;
}

/**
 * `video/saveVideo`: the upload of `uploadToken` becomes a video of its owner. An upload whose
 * bytes are all there is queued for processing at once; one whose bytes are still arriving is
 * saved `uploading` (an app saves the title as soon as the transfer starts, as on PeerTube or
 * YouTube) and queued by `markUploadFinished` when its last byte lands. Someone else's, unknown or
 * expired tokens are `upload_not_found`; a token already saved `upload_used`; a token whose tus
 * upload was never created `upload_incomplete`.
 */
export async function saveVideo(userId: number, input: { uploadToken: string; title: string; projectId?: string | undefined }): Promise<Video> {
  const db = getDb();
  const [upload] = await db.select().from(videoUploads).where(eq(videoUploads.tokenHash, hashToken(input.uploadToken)));
  if (!upload || upload.ownerId !== userId || upload.expiresAt.getTime() < Date.now()) throw new AppError('upload_not_found');
  if (upload.videoId) throw new AppError('upload_used');
  if (!upload.tusId) throw new AppError('upload_incomplete');
  const projectId = input.projectId ? await ownPublishedProject(userId, input.projectId) : null;
  const id = newPublicId();
  const status = await db.transaction(async (tx) => {
    // Spending the token locks its row, and `markUploadFinished` updates the same row: whichever
    // comes second sees what the first did, so a video is never left `uploading` after its last
    // byte, nor queued twice. Of two saves at once, one wins.
    const [spent] = await tx
      .update(videoUploads)
      .set({ videoId: id })
      .where(and(eq(videoUploads.tokenHash, upload.tokenHash), eq(videoUploads.ownerId, userId), isNull(videoUploads.videoId)))
      .returning({ finishedAt: videoUploads.finishedAt });
    if (!spent) throw new AppError('upload_used');
    const status: VideoStatus = spent.finishedAt ? 'processing' : 'uploading';
    await tx.insert(videos).values({
      id,
      ownerId: userId,
      projectId,
      title: input.title,
      uploadId: upload.tusId,
      mime: upload.mime,
      size: upload.size,
      status,
    });
    return status;
  });
  if (status === 'processing') await queueVideo(id);
  return getVideo(id, userId);
}

/**
 * Sends a saved video to the queue. A failed send is only logged: `resumePendingVideos` finds
 * videos processing without a job and sends them again.
 */
export async function queueVideo(id: string): Promise<void> {
  await sendJob('video', { videoId: id }, `video:${id}`).catch((error: unknown) =>
    log.warn({ component: 'videos', err: error }, 'could not queue, it will be resumed'),
  );
}

/**
 * The last byte of a saved video's upload has arrived (called by `markUploadFinished` in the
 * transaction that records it): an `uploading` video becomes `processing`. Answers whether it
 * did, so the caller queues it once committed.
 */
export async function startProcessingUploaded(tx: Tx, id: string): Promise<boolean> {
  const [moved] = await tx
    .update(videos)
    .set({ status: 'processing', updatedAt: new Date() })
    .where(and(eq(videos.id, id), eq(videos.status, 'uploading')))
    .returning({ id: videos.id });
  return Boolean(moved);
}

/**
 * A video as `viewerId` may see it: ready videos for everyone, the owner's own in any state;
 * `video_not_found` otherwise.
 */
export async function getVideo(id: string, viewerId: number | null): Promise<Video> {
  const [row] = await selectVideos()
    .where(and(eq(videos.id, id), videoVisibleTo(viewerId)))
    .limit(1);
  if (!row || (row.video.status !== 'ready' && row.video.ownerId !== viewerId)) throw new AppError('video_not_found');
  return toVideo(row);
}

/** `video/list`: a member's videos (by url) or a project's, newest first; owners also see their unfinished ones. */
export async function listVideos(
  query: { url?: string | undefined; projectId?: string | undefined; page: number; pageSize: number },
  viewerId: number | null,
): Promise<Page<Video>> {
  const db = getDb();
  const filters: SQL[] = [];
  if (query.url) {
    const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.customUrl, query.url));
    if (!owner) throw new AppError('user_not_found');
    filters.push(eq(videos.ownerId, owner.id));
  }
  if (query.projectId) {
    const [project] = await db.select({ id: projects.id }).from(projects).where(publishedProjectById(query.projectId, 'published'));
    if (!project) throw new AppError('project_not_found');
    filters.push(eq(videos.projectId, project.id));
  }
  const visible = viewerId === null ? eq(videos.status, 'ready') : or(eq(videos.status, 'ready'), eq(videos.ownerId, viewerId))!;
  const where = and(visible, videoVisibleTo(viewerId), ...filters);
  const [rows, [total]] = await Promise.all([
    selectVideos()
      .where(where)
      .orderBy(desc(videos.createdAt), desc(videos.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(videos).where(where),
  ]);
  return { list: rows.map(toVideo), total: total?.n ?? 0, page: query.page, pageSize: query.pageSize };
}

/** The ready videos of projects (for project pages), newest first. */
export async function listProjectVideos(projectId: number, viewerId: number | null = null): Promise<Video[]> {
  const rows = viewerId === null ? await projectVideos('guest').execute({ projectId }) : await projectVideos('member').execute({ projectId, viewerId });
  return rows.map(toVideo);
}

/** Read on every project page: built once for a guest and once for a member (see `prepared`). */
const projectVideos = preparedShapes('project_videos', ['guest', 'member'] as const, (db, shape, name) =>
  db
    .select(columns)
    .from(videos)
    .innerJoin(users, eq(users.id, videos.ownerId))
    .leftJoin(projects, eq(projects.id, videos.projectId))
    .where(and(eq(videos.projectId, sql.placeholder('projectId')), eq(videos.status, 'ready'), videoVisibleTo(shape === 'member' ? sql.placeholder('viewerId') : null)))
    .orderBy(desc(videos.createdAt))
    .prepare(name),
);

/**
 * How long a playback address stays valid: a long film on a slow line, paused and resumed. Hiding
 * or deleting the video does not wait for it: every request of the address is checked
 * (`resolveVideoStream`), and nothing downstream keeps an answer longer than
 * `HIDDEN_TAKES_EFFECT_SECONDS`.
 */
const PLAYBACK_LIFETIME_MS = 6 * 60 * 60 * 1000;

/**
 * Who a playback address was issued to, signed into it: `owner` for the video's owner and staff,
 * who still see it once hidden (`seesHidden`), so their address keeps playing it; `public` for
 * everyone else, refused as soon as it is hidden.
 */
type PlaybackScope = 'public' | 'owner';

export const streamPath = (id: string) => `/video/stream/${id}.mp4`;

/**
 * `video/getVideoUrl`: a signed address that plays a ready video until it expires, or until it
 * is hidden when the viewer is neither its owner nor staff.
 */
export async function getVideoPlayback(id: string, viewerId: number | null): Promise<VideoPlayback> {
  // One read that also says whether the viewer would still see the video hidden (it is theirs,
  // or they are staff): the player page calls this besides `getVideo`, and its queries are
  // counted (`tests/http/query-budget.test.ts`).
  const [row] = await getDb()
    .select({ status: videos.status, poster: videos.poster, seesHidden: viewerId === null ? sql<boolean>`false` : sql<boolean>`${seesHidden(videos.ownerId, viewerId)}` })
    .from(videos)
    .where(and(eq(videos.id, id), videoVisibleTo(viewerId)));
  if (row?.status !== 'ready') throw new AppError('video_not_found');
  const scope: PlaybackScope = row.seesHidden ? 'owner' : 'public';
  // Rounded to the hour so a page rendered twice in an hour hands out the same address (the
  // browser's cache of the file is keyed by it). A public address carries no scope: it is signed
  // as addresses were before scopes, so those handed out then go on playing (as public ones).
  const expiresAt = new Date(Math.ceil((Date.now() + PLAYBACK_LIFETIME_MS) / 3_600_000) * 3_600_000);
  const url = await signPath(streamPath(id), expiresAt, scope === 'public' ? null : scope);
  return { url, expiresAt: expiresAt.toISOString(), poster: row.poster ? fileUrl(row.poster) : null };
}

/**
 * What a signed stream address plays: `forbidden` for a tampered or expired signature or an
 * unknown scope, `video_not_found` for a video deleted or not ready, or hidden when the address is
 * public. Answers the storage key and how long the answer may be kept: what the address has left,
 * at most `HIDDEN_TAKES_EFFECT_SECONDS`.
 */
export async function resolveVideoStream(
  id: string,
  address: { exp: string | null; sig: string | null; scope: string | null },
): Promise<{ key: string; cacheSeconds: number }> {
  const { exp, sig, scope } = address;
  if (!/^[a-z0-9]{1,32}$/.test(id) || (scope !== null && scope !== 'owner') || !(await verifySignedPath(streamPath(id), exp, sig, scope))) {
    throw new AppError('forbidden');
  }
  const [row] = await getDb()
    .select({ key: videos.storageKey })
    .from(videos)
    .where(and(eq(videos.id, id), eq(videos.status, 'ready'), scope === 'owner' ? undefined : isNull(videos.hiddenAt)));
  if (!row?.key) throw new AppError('video_not_found');
  return { key: row.key, cacheSeconds: Math.min(HIDDEN_TAKES_EFFECT_SECONDS, Number(exp) - Date.now() / 1000) };
}

/**
 * `video/edit`: the owner renames a video or links it to one of their published projects
 * (`projectId: null` unlinks it). Anyone else gets `video_not_found`.
 */
export async function editVideo(userId: number, input: { id: string; title?: string | undefined; projectId?: string | null | undefined }): Promise<Video> {
  const db = getDb();
  const [row] = await db.select({ ownerId: videos.ownerId, projectId: videos.projectId }).from(videos).where(eq(videos.id, input.id));
  if (!row || row.ownerId !== userId) throw new AppError('video_not_found');
  const changes: Partial<typeof videos.$inferInsert> = { updatedAt: new Date() };
  if (input.title !== undefined) changes.title = input.title;
  if (input.projectId !== undefined) changes.projectId = input.projectId === null ? null : await ownPublishedProject(userId, input.projectId);
  await db.update(videos).set(changes).where(and(eq(videos.id, input.id), eq(videos.ownerId, userId)));
  // The project it left and the one it joined, and its owner's pages.
  await purgeVideoPages(userId, [row.projectId, changes.projectId ?? null]);
  return getVideo(input.id, userId);
}

/**
 * `video/del`: the owner deletes a video, the upload token it was saved from and every file it
 * left (upload, MP4, poster). A video still `uploading` takes no more bytes: its token is gone.
 */
export async function deleteVideo(userId: number, id: string): Promise<{ id: string }> {
  const db = getDb();
  const row = await db.transaction(async (tx) => {
    // The token row first: the order `saveVideo` and `markUploadFinished` lock them in.
    await tx.delete(videoUploads).where(and(eq(videoUploads.videoId, id), eq(videoUploads.ownerId, userId)));
    const [deleted] = await tx.delete(videos).where(and(eq(videos.id, id), eq(videos.ownerId, userId))).returning();
    // Someone else's video (or none): nothing of it was touched.
    if (!deleted) throw new AppError('video_not_found');
    return deleted;
  });
  const storage = getStorage();
  await Promise.all([
    ...[row.storageKey, row.poster].filter((key): key is string => Boolean(key)).map((key) => storage.delete(key).catch(() => undefined)),
    row.uploadId ? removeTusUpload(row.uploadId) : Promise.resolve(),
  ]);
  await purgeVideoPages(userId, [row.projectId]);
  return { id };
}

/**
 * A video processing for this long without a heartbeat (a running job touches `updatedAt` every 20
 * seconds) is sent to the queue again. Longer than the queue's expiry of a video job (from the
 * longest video allowed) and 5 minutes more, so pg-boss's own retry of a job it still holds comes
 * first and this only finds sends that were lost.
 */
const RESEND_AFTER_MS = (VIDEO_EXPIRE_SECONDS + 5 * 60) * 1000;

/** Sends jobs for videos still processing with no worker on them (a lost send, a restored database). */
export async function resumePendingVideos(): Promise<number> {
  const rows = await getDb()
    .select({ id: videos.id, updatedAt: videos.updatedAt, attempts: videos.attempts })
    .from(videos)
    .where(eq(videos.status, 'processing'));
  const stale = Date.now() - RESEND_AFTER_MS;
  const pending = rows.filter((row) => row.attempts === 0 || row.updatedAt.getTime() < stale);
  for (const row of pending) await sendJob('video', { videoId: row.id }, `video:${row.id}`);
  return pending.length;
}
