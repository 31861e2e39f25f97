import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { listRecentDonations } from '../../../server/services/site/index.ts';
import { donationSchema } from '../../../lib/contract/schemas/site.ts';
import { z } from '../../../server/http/validation.ts';
import { pageTags } from '../../../server/page-cache/tags.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  result: z.array(donationSchema),
  docs: { summary: 'Latest donations', description: 'The 20 latest donations, for the home page’s scroller.', tag: 'site' },
  publicCache: () => ({ tags: [pageTags.home] }),
  handler: () => listRecentDonations(20),
});
