import { and, desc, eq } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { projects, users, videos } from '../db/schema/index.ts';
import { AppError } from '../http/errors.ts';
import { fileUrl } from '../storage/index.ts';

/** A ready video as lists show it. */
export interface VideoCard {
  id: string;
  title: string;
  poster: string | null;
  duration: number | null;
  createdAt: string;
}

/** A member's ready videos, newest first. */
export async function listUserVideos(userId: number, limit = 50): Promise<VideoCard[]> {
  const rows = await getDb()
    .select()
    .from(videos)
    .where(and(eq(videos.ownerId, userId), eq(videos.status, 'ready')))
    .orderBy(desc(videos.createdAt))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    poster: row.poster ? fileUrl(row.poster) : null,
    duration: row.duration,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** A ready video with its owner and, when published, its project; `not_found` otherwise. */
export async function getReadyVideo(id: string) {
  const [row] = await getDb()
    .select({
      video: videos,
      ownerUrl: users.customUrl,
      ownerNickname: users.nickname,
      ownerAvatar: users.avatar,
      projectId: projects.publicId,
      projectTitle: projects.title,
      projectStatus: projects.status,
    })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.ownerId))
    .leftJoin(projects, eq(projects.id, videos.projectId))
    .where(and(eq(videos.id, id), eq(videos.status, 'ready')))
    .limit(1);
  if (!row) throw new AppError('not_found');
  return {
    id: row.video.id,
    title: row.video.title,
    src: fileUrl(row.video.storageKey),
    mime: row.video.mime,
    poster: row.video.poster ? fileUrl(row.video.poster) : null,
    createdAt: row.video.createdAt.toISOString(),
    owner: { url: row.ownerUrl, nickname: row.ownerNickname, avatar: row.ownerAvatar },
    project: row.projectId && row.projectStatus === 'published' ? { id: row.projectId, title: row.projectTitle ?? '' } : null,
  };
}

export type VideoDetail = Awaited<ReturnType<typeof getReadyVideo>>;
