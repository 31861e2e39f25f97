import type { Locale } from '../../lib/i18n.ts';
import { memoize } from '../cache.ts';
import { listProjects, listPopularTags } from '../services/projects/index.ts';
import { donateLink, listFeaturedCollections, listRecentDonations, loadBannerSchedule } from '../services/site/index.ts';
import { listFollowingFeed } from '../services/community/index.ts';
import { onPagePurge, pageTags } from '../page-cache/tags.ts';
import { ok, type LoaderData, type PageLoader } from './page.ts';

// The two home sections that rank the whole catalogue are kept for 30 s per language: the
// order of recommendations and tag popularity hardly moves in that time, the page gets cheaper.
const recommendedFor = memoize(30_000, async (locale) => (await listProjects({ sort: 'recommend', page: 1, pageSize: 8 }, locale as Locale)).list);
const popularTagsFor = memoize(30_000, (locale) => listPopularTags(locale as Locale, 16));
// …but a staff change (a project pinned, tags merged) is seen at once, like any purged page.
onPagePurge((tags) => {
  if (tags.includes(pageTags.lists) || tags.includes('*')) {
    recommendedFor.clear();
    popularTagsFor.clear();
  }
});

/** Entries of the Following section on a member's home page. */
const HOME_FEED_SIZE = 4;

/**
 * A member's Following section of the home page (null for a guest): loaded with the page, or alone
 * when their home page is filled in from the guest's (the `home-following` place).
 */
export function loadHomeFollowing(locals: Pick<App.Locals, 'user' | 'locale'>) {
  return locals.user ? listFollowingFeed(locals.user.id, { page: 1, pageSize: HOME_FEED_SIZE }, locals.locale) : Promise.resolve(null);
}

/** Everything the home page shows, desktop and mobile alike. */
export const loadHomePage = (async ({ locals }) => {
  const { locale } = locals;
  const [schedule, donations, recommended, newest, popularTags, collections, following] = await Promise.all([
    loadBannerSchedule(locale),
    listRecentDonations(20),
    recommendedFor(locale),
    listProjects({ sort: 'newest', page: 1, pageSize: 8 }, locale),
    popularTagsFor(locale),
    listFeaturedCollections(locale),
    // A member's home has their Following section; a guest's (the copy the page cache shares) has none.
    loadHomeFollowing(locals),
  ]);
  // A scheduled banner starts or ends by itself, with no write to purge the page: the cached
  // copy expires at that moment instead, so guests see the change on their next request.
  return ok(
    { banners: schedule.banners, donations, donate: donateLink(), recommended, newest: newest.list, popularTags, collections, following },
    { tags: [pageTags.lists, pageTags.home], expiresAt: schedule.nextChange },
  );
}) satisfies PageLoader<unknown>;

export type HomeData = LoaderData<typeof loadHomePage>;
export type HomeFollowing = Awaited<ReturnType<typeof loadHomeFollowing>>;
