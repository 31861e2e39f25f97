import { getReadyVideo } from '../services/videos.ts';
import { notFound, ok, type LoaderData, type PageLoader } from './page.ts';

/** The video player page (`/video/player?id=`): a ready video with its owner and project. */
export const loadVideoPage = (async ({ url }) => {
  const id = url.searchParams.get('id')?.trim();
  if (!id || id.length > 64) return notFound();
  return ok({ video: await getReadyVideo(id) });
}) satisfies PageLoader<unknown>;

export type VideoPageData = LoaderData<typeof loadVideoPage>;
