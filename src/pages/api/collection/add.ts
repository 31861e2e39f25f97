import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitMemberRateLimitById } from '../../../server/services/core/index.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';
import { addToMemberCollection } from '../../../server/services/community/index.ts';
import { collectionChangeSchema, collectionProjectInputSchema } from '../../../lib/contract/schemas/collections.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: collectionProjectInputSchema,
  result: collectionChangeSchema,
  docs: {
    summary: 'Add a project to one of your collections',
    description: 'At the end. `id` is the project’s public id.',
    tag: 'collections',
    errors: ['collection_not_found', 'project_not_found', 'collection_project_duplicate', 'collection_full', 'rate_limited'],
    example: { slug: EXAMPLE_IDS.memberCollection, id: EXAMPLE_IDS.project },
  },
  handler: async ({ input, user }) => {
    await hitMemberRateLimitById('collection:user', user.id);
    return addToMemberCollection(user.id, input.slug, input.id);
  },
});
