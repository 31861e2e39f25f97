import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitMemberRateLimitById } from '../../../server/services/core/index.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';
import { saveMemberCollection } from '../../../server/services/community/index.ts';
import { collectionSaveInputSchema, memberCollectionSchema } from '../../../lib/contract/schemas/collections.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: collectionSaveInputSchema,
  result: memberCollectionSchema,
  docs: {
    summary: 'Create or edit one of your collections',
    description: 'Without `slug`: creates a collection, its slug made from the title (numbered when you already have one by that name). With `slug`: edits your collection; its slug stays.',
    tag: 'collections',
    errors: ['collection_not_found', 'collection_limit', 'rate_limited'],
    example: { slug: EXAMPLE_IDS.memberCollection, title: 'Favourite boards', description: 'Boards I want to build', public: true },
  },
  handler: async ({ input, user }) => {
    await hitMemberRateLimitById('collection:user', user.id);
    return saveMemberCollection(user.id, input);
  },
});
