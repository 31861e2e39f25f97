import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitMemberRateLimitById } from '../../../server/services/core/index.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';
import { deleteMemberCollection } from '../../../server/services/community/index.ts';
import { collectionDeleteInputSchema, collectionDeleteResultSchema } from '../../../lib/contract/schemas/collections.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: collectionDeleteInputSchema,
  result: collectionDeleteResultSchema,
  docs: {
    summary: 'Delete one of your collections',
    description: 'Its projects stay as they are.',
    tag: 'collections',
    errors: ['collection_not_found', 'rate_limited'],
    example: { slug: EXAMPLE_IDS.memberCollection },
  },
  handler: async ({ input, user }) => {
    await hitMemberRateLimitById('collection:user', user.id);
    return deleteMemberCollection(user.id, input.slug);
  },
});
