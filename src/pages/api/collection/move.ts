import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { hitMemberRateLimitById } from '../../../server/services/core/index.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';
import { moveInMemberCollection } from '../../../server/services/community/index.ts';
import { collectionChangeSchema, collectionMoveInputSchema } from '../../../lib/contract/schemas/collections.ts';

export const { POST, ALL, contract } = defineEndpoint({
  auth: true,
  input: collectionMoveInputSchema,
  result: collectionChangeSchema,
  docs: {
    summary: 'Reorder one of your collections',
    description: 'Puts the project at `position` (0 first; past the end: last). Moving up or down one place is the position before or after its own.',
    tag: 'collections',
    errors: ['collection_not_found', 'project_not_found', 'rate_limited'],
    example: { slug: EXAMPLE_IDS.memberCollection, id: EXAMPLE_IDS.project, position: 0 },
  },
  handler: async ({ input, user }) => {
    await hitMemberRateLimitById('collection:user', user.id);
    return moveInMemberCollection(user.id, input.slug, input.id, input.position);
  },
});
