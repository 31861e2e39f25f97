import type { Locale } from '../../lib/i18n.ts';
import { memoize } from '../cache.ts';
import { listProjects } from '../services/project-list.ts';
import { donateLink } from '../services/donations.ts';
import { listActiveBanners, listFeaturedCollections, listRecentDonations } from '../services/site.ts';
import { listPopularTags } from '../services/tags.ts';
import { pageTags } from '../page-cache/tags.ts';
import { ok, type LoaderData, type PageLoader } from './page.ts';

// The two home sections that rank the whole catalogue are kept for 30 s per language: the
// order of recommendations and tag popularity hardly moves in that time, the page gets cheaper.
const recommendedFor = memoize(30_000, async (locale) => (await listProjects({ sort: 'recommend', page: 1, pageSize: 8 }, locale as Locale)).list);
const popularTagsFor = memoize(30_000, (locale) => listPopularTags(locale as Locale, 16));

/** Everything the home page shows, desktop and mobile alike. */
export const loadHomePage = (async ({ locals: { locale } }) => {
  const [banners, donations, recommended, newest, popularTags, collections] = await Promise.all([
    listActiveBanners(locale),
    listRecentDonations(20),
    recommendedFor(locale),
    listProjects({ sort: 'newest', page: 1, pageSize: 8 }, locale),
    popularTagsFor(locale),
    listFeaturedCollections(locale),
  ]);
  return ok({ banners, donations, donate: donateLink(), recommended, newest: newest.list, popularTags, collections }, { tags: [pageTags.lists, pageTags.home] });
}) satisfies PageLoader<unknown>;

export type HomeData = LoaderData<typeof loadHomePage>;
