import { getVideo, getVideoPlayback } from '../services/media/index.ts';
import { notFound, ok, type LoaderData, type PageLoader } from './page.ts';

/**
 * The video player page (`/video/player?id=`): a ready video with a signed address to play it;
 * its owner also sees it while it is processing, or why it failed. 404 for anyone else.
 */
export const loadVideoPage = (async ({ url, locals }) => {
  const id = url.searchParams.get('id')?.trim();
  if (!id || id.length > 64) return notFound();
  const viewerId = locals.user?.id ?? null;
  const video = await getVideo(id, viewerId);
  const playback = video.status === 'ready' ? await getVideoPlayback(id, viewerId) : null;
  return ok({ video, playback }, video.status === 'ready' ? {} : { headers: { 'cache-control': 'private, no-store' } });
}) satisfies PageLoader<unknown>;

export type VideoPageData = LoaderData<typeof loadVideoPage>;
