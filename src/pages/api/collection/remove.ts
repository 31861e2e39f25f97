import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitMemberRateLimitById } from '../../../server/services/core/index.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';
import { removeFromMemberCollection } from '../../../server/services/community/index.ts';
import { collectionChangeSchema, collectionProjectInputSchema } from '../../../lib/contract/schemas/collections.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: collectionProjectInputSchema,
  result: collectionChangeSchema,
  docs: {
    summary: 'Take a project out of one of your collections',
    tag: 'collections',
    errors: ['collection_not_found', 'project_not_found', 'rate_limited'],
    example: { slug: EXAMPLE_IDS.memberCollection, id: EXAMPLE_IDS.project },
  },
  handler: async ({ input, user }) => {
    await hitMemberRateLimitById('collection:user', user.id);
    return removeFromMemberCollection(user.id, input.slug, input.id);
  },
});
