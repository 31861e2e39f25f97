import type { Locale } from '../../lib/i18n.ts';
import { listProjects } from '../services/project-list.ts';
import { listActiveBanners, listFeaturedCollections, listRecentDonations } from '../services/site.ts';
import { listPopularTags } from '../services/tags.ts';

/** Everything the home page shows, desktop and mobile alike. */
export async function loadHome(locale: Locale) {
  const [banners, donations, recommended, newest, popularTags, collections] = await Promise.all([
    listActiveBanners(locale),
    listRecentDonations(20),
    listProjects({ sort: 'recommend', page: 1, pageSize: 8 }, locale),
    listProjects({ sort: 'newest', page: 1, pageSize: 8 }, locale),
    listPopularTags(locale, 16),
    listFeaturedCollections(locale),
  ]);
  return { banners, donations, recommended: recommended.list, newest: newest.list, popularTags, collections };
}

export type HomeData = Awaited<ReturnType<typeof loadHome>>;
