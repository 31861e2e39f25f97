import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { pagingSchema } from '../../../server/http/validation.ts';
import { listDonations } from '../../../server/services/site/index.ts';
import { donationPageSchema } from '../../../lib/contract/schemas/site.ts';
import { pageTags } from '../../../server/page-cache/tags.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: pagingSchema,
  result: donationPageSchema,
  docs: { summary: 'All donations', description: 'Newest first, with the totals per currency.', tag: 'site', example: { page: 1, pageSize: 20 } },
  publicCache: () => ({ tags: [pageTags.home] }),
  handler: ({ input }) => listDonations(input),
});
