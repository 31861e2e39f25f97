import { and, eq } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { projects, users, videos } from '../db/schema/index.ts';
import { AppError } from '../http/errors.ts';
import { fileUrl } from '../storage/index.ts';

/** The video player page (`/video/player?id=`): a ready video with its owner and project. */
export async function loadVideoPage(id: string | null) {
  if (!id) throw new AppError('not_found');
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

export type VideoPageData = Awaited<ReturnType<typeof loadVideoPage>>;
