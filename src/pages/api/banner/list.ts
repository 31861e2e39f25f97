import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { listActiveBanners, loadBannerSchedule } from '../../../server/services/site/index.ts';
import { pageTags } from '../../../server/page-cache/tags.ts';
import { bannerSchema } from '../../../lib/contract/schemas/site.ts';
import { z } from '../../../server/http/validation.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  result: z.array(bannerSchema),
  docs: { summary: 'Banners of the home page', description: 'The banners active now, in order, titles in the request’s language.', tag: 'site' },
  // A scheduled banner starts or ends with no write to purge it: the kept answer lasts until then
  // (asked again on a cache render only, where one small query more is nothing).
  publicCache: async ({ context }) => ({ tags: [pageTags.home], expiresAt: (await loadBannerSchedule(context.locals.locale)).nextChange }),
  handler: ({ context }) => listActiveBanners(context.locals.locale),
});
