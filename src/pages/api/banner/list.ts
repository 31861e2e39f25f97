import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { listActiveBanners } from '../../../server/services/site/index.ts';
import { bannerSchema } from '../../../lib/contract/schemas/site.ts';
import { z } from '../../../server/http/validation.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  result: z.array(bannerSchema),
  docs: { summary: 'Banners of the home page', description: 'The banners active now, in order, titles in the request’s language.', tag: 'site' },
  handler: ({ context }) => listActiveBanners(context.locals.locale),
});
