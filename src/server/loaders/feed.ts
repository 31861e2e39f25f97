import { listFollowingFeed } from '../services/community/index.ts';
import { ok, pageParam, signIn, type LoaderData, type PageLoader } from './page.ts';

const PAGE_SIZE = 20;

/** `/feed`: the signed-in member's Following feed, a page at a time; guests are asked to sign in. */
export const loadFeedPage = (async ({ url, locals }) => {
  if (!locals.user) return signIn('feed.title');
  // No page-cache tags: a member's feed is theirs alone (and member pages are never kept).
  return ok({ feed: await listFollowingFeed(locals.user.id, { page: pageParam(url), pageSize: PAGE_SIZE }, locals.locale) });
}) satisfies PageLoader<unknown>;

export type FeedPageData = LoaderData<typeof loadFeedPage>;
